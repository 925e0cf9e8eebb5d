"""How the checker writes shapes and places in its messages (in the current language)."""

import numpy as np

from ..messages import msg


def shape_text(shape):
    """``(4, 3)``; a 1-D shape keeps its comma, as Python writes it: ``(4,)``."""
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def place(index, shape, tokens, columns_are_keys):
    """Where an entry is, for a learner: "[2, 1]（第 2 行“学习”、第 1 列“喜欢”；从 0 数起）".

    Rows (and columns, when they are key positions) are named after the tokens when there is one token
    per row. An index one axis short of the shape names a whole row (a row that does not sum to 1)."""
    index = tuple(int(i) for i in index)
    if not shape:
        return msg("the_number")
    if len(shape) < 2:
        return "[" + ", ".join(map(str, index)) + "]"

    def token(i, count):
        return msg("token", token=tokens[i]) if len(tokens) == count else ""

    def row(i):
        return msg("row", i=i) + token(i, shape[-2])

    if len(index) < len(shape):
        return row(index[-1])
    j = index[-1]
    column = msg("column", j=j) + (token(j, shape[-1]) if columns_are_keys else "")
    if len(shape) == 3:  # the only 3-D answers are one matrix per head (lesson 8)
        column += msg("of_head", h=index[0])
    return msg("place", index=", ".join(map(str, index)), row=row(index[-2]), column=column)


def factor_text(c):
    """A factor as a message may say it without handing over the answer (yours ÷ c would be it): a whole
    number (2, −1) or a root or fraction by its name (1/√2, √3, 1/4); None for any other number."""
    sign = "−" if c < 0 else ""
    if float(c).is_integer() or np.isclose(c, np.rint(c), rtol=0, atol=1e-9):
        return f"{sign}{abs(int(np.rint(c)))}"
    for n in range(2, 65):
        names = [(1 / n, f"1/{n}")]
        if not float(np.sqrt(n)).is_integer():
            names += [(1 / np.sqrt(n), f"1/√{n}"), (np.sqrt(n), f"√{n}")]
        for value, name in names:
            if np.isclose(abs(c), value, rtol=1e-6):
                return sign + name
    return None
