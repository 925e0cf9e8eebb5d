"""The course's "enlarge one key twofold" exercise: the weights compete.

One slider per key multiplies that token's row of K. The weights always sum to 1, so when one grows the
others shrink. Enlarging key j multiplies its score q·k_j: if that score is positive its weight rises;
if it is negative, enlarging makes it more negative and its weight falls (the readouts say so).
The picture: the query's weights as bars, the default weights (all keys ×1) as a dashed ghost.
"""

from functools import partial

import numpy as np

from attn_core.core import attention
from attn_core.examples import Example, four_words

from .. import svg as draw
from .base import (
    MARGIN,
    PANELS_TOP,
    Box,
    Explorer,
    Frame,
    Text,
    check_token,
    describe,
    key_specs,
    pick_example,
    token_labels,
    token_values,
)

# ---------------------------------------------------------------- layout (px), the same in keys.js
WIDTH, HEIGHT = 760, 380
WEIGHT_BARS = Box(MARGIN, PANELS_TOP, 740, 330)

# the words the page draws with (attn_viz.messages), besides base.BASE_WORDS
WORDS = ("key_heading", "key_ghost", "key_weights", "key_sum", "key_negative", "key_desc")


def key_explorer(example: Example | None = None, query: str = "学习") -> Explorer:
    """One slider per key (0× … 3×, default 1×) multiplies that token's row of K.

    The query's weights are drawn as bars, the default weights (all keys ×1) as a dashed ghost. The
    weights compete: they always sum to 1, so when one grows the others shrink. Enlarging key j
    multiplies its score q·k_j: if that score is positive its weight rises and every other weight
    falls; if it is negative (in four_words, 学习 · 我), enlarging makes it more negative and its
    weight falls — the readouts say so. This is the course's "enlarge one key twofold" exercise.
    Computed and drawn in the page (``js/keys.js``); attn_core here.
    """
    text = Text()
    example = pick_example(example, four_words, text)
    check_token(query, example.tokens, text)
    qi, tokens = example.index(query), example.tokens
    labels, glosses = token_labels(tokens, getattr(example, "gloss", None), text.lang)
    base = example.attention()  # every key ×1
    data = dict(tokens=tokens, labels=labels, glosses=glosses, qi=qi, Q=base.Q, K=base.K, V=base.V, default=base.A[qi])
    return Explorer(
        "key_explorer",
        "keys",
        key_specs(tokens, labels, text),
        data,
        WORDS,
        partial(compute, Q=base.Q, K=base.K, V=base.V, qi=qi, tokens=tokens, default=base.A[qi]),
        partial(render, tokens=tokens, labels=labels, glosses=glosses, qi=qi),
        text=text,
        title=text("key_title"),
    )


# ---------------------------------------------------------------- compute: the numbers, from attn_core


def compute(values: dict, *, Q, K, V, qi, tokens, default) -> dict:
    mult = np.array([values[tok] for tok in tokens], dtype=float)
    trace = attention(Q, K * mult[:, None], V)
    return dict(mult=mult, w=trace.A[qi], s=trace.S[qi], d_k=trace.d_k, A=trace.A, qi=qi, default=default)


# ---------------------------------------------------------------- render: the picture


def render(explorer: Explorer, state: dict, *, tokens, labels, glosses, qi) -> Frame:
    text = explorer.text
    w, mult, s, default = state["w"], state["mult"], state["s"], state["default"]
    heading = text("key_heading", query=labels[qi])
    pic = explorer.picture(heading, WIDTH, HEIGHT)
    draw.bars(
        pic,
        WEIGHT_BARS.x,
        WEIGHT_BARS.y,
        w,
        tokens,
        width=WEIGHT_BARS.width,
        height=WEIGHT_BARS.height,
        ghost=default,
        sublabels=[f"×{draw.fmt(m, 1)} · S {draw.fmt(x)}" for m, x in zip(mult, s)],
        ghost_label=text("key_ghost"),
        glosses=glosses,
    )

    change = w - default
    readouts = {f"weight[{tok}]": float(x) for tok, x in zip(tokens, w)}
    readouts.update({f"change[{tok}]": float(x) for tok, x in zip(tokens, change)})
    readouts["sum"] = float(w.sum())
    weights = "  ".join(
        f"{tok} {draw.fmt(x)}" + text("in_brackets", text=signed(c)) for tok, x, c in zip(tokens, w, change)
    )
    lines = [text("key_weights", weights=weights), text("key_sum", total=draw.fmt(w.sum()))]
    lines += [text("key_negative", token=lab) for lab, m, x in zip(labels, mult, s) if m > 1 and x < 0]
    body = text(
        "key_desc",
        query=labels[qi],
        weights=token_values(tokens, w, text, notes=[f"×{draw.fmt(m, 1)}" for m in mult]),
        defaults=token_values(tokens, default, text),
    )
    return Frame(pic, readouts, lines, describe(heading, body, text))


def signed(x):
    """A change with an explicit sign: +0.12, −0.05, 0.00."""
    s = draw.fmt(x)
    return s if s.startswith("−") or float(x) <= 0 or s == draw.fmt(0) else "+" + s
