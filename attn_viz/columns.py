"""Printed rows that line up: a label, then a value (an array), the values starting in one column.

A hanzi is not the width of two Latin letters everywhere. A terminal gives it two columns; a browser draws a
notebook's output in a monospace font that has no hanzi, so each hanzi comes from a CJK font at 1 em while a
Latin letter is about 0.6 em. Padding by display width alone lines the values up in a terminal and not in
JupyterLab. :func:`pad` pads each label with both kinds of space, ordinary spaces up to the longest count of
narrow characters and ideographic spaces (U+3000, as wide as a hanzi in either place) up to the longest count
of wide ones, so that every padded label is as wide as the others in both.
"""

import unicodedata

IDEOGRAPHIC_SPACE = "\u3000"


def _wide(ch):
    return unicodedata.east_asian_width(ch) in "WF"


def counts(text):
    """(narrow, wide) characters in ``text``: a wide one is a hanzi or another full-width character."""
    wide = sum(map(_wide, str(text)))
    return len(str(text)) - wide, wide


def pad(labels, right=False):
    """The labels padded to one width, in a terminal and in a browser alike; ``right``: padded on the left, so
    that the labels end in one column."""
    sizes = [counts(label) for label in labels]
    narrow = max((n for n, _ in sizes), default=0)
    wide = max((w for _, w in sizes), default=0)
    fill = [" " * (narrow - n) + IDEOGRAPHIC_SPACE * (wide - w) for n, w in sizes]
    return [f + str(label) if right else str(label) + f for label, f in zip(labels, fill)]


def aligned(*rows, sep=" "):
    """``(label, value)`` rows as one string, each value starting in the same column; a value printed on
    several lines (a matrix) keeps its lines under its first. Chinese labels that all end in a full-width colon
    are right-aligned and the value follows the colon directly (nothing after “：”, docs/terminology.md).
    """
    colon = bool(rows) and all(str(label).endswith("：") for label, _ in rows)
    labels = pad([label for label, _ in rows], right=colon)
    if not labels:
        return ""
    sep = "" if colon else sep
    narrow, wide = counts(labels[0])
    indent = " " * narrow + IDEOGRAPHIC_SPACE * wide + sep
    lines = []
    for label, (_, value) in zip(labels, rows):
        first, *rest = str(value).split("\n")
        lines.append(label + sep + first)
        lines.extend(indent + line for line in rest)
    return "\n".join(lines)
