"""Lesson 07: masks decide which keys a query may see.

No mask, a causal mask (position i sees 0..i), or a padding mask (the last tokens are padding, hidden
from every query); padding also combines with the causal mask, as in a decoder's padded batch. A masked
score becomes −∞ before softmax, so its weight is exactly 0. Padding every token leaves every row with no
key to attend to: softmax cannot make such a row sum to 1 (attn_core raises ValueError), and the picture
says so in words.
The picture: the weight matrix, masked cells hatched ("−∞ → 0"), padding tokens grey, and a padding
query's row grey (its weights are computed, then thrown away: drawn in grey, never as a live row).
Computed and drawn in the page (``js/masks.js``); ``compute`` here is the reference, with attn_core.
"""

from functools import partial

import numpy as np

from attn_core.core import causal_mask
from attn_core.examples import Example, four_words

from .. import svg as draw
from .base import MARGIN, PANELS_TOP, Explorer, Frame, Text, choice, describe, pick_example, token_labels, token_values
from .kv import wrap

MODES = ("none", "causal", "padding")

# ---------------------------------------------------------------- layout (px), the same in masks.js
WIDTH = 780  # the height follows the heatmap
CELL = 72  # heatmap cell
LEGEND_LEFT, LEGEND_GAP, LEGEND_WIDTH = 20, 16, 180  # colour legend under the grid
BELOW_GRID = 58  # the legend, its labels and a margin
DROPPED_LEGEND_H = 26  # the legend's second line: the grey of a padding query's row
NOTICE_GAP, NOTICE_TOP, NOTICE_SIZE = 24, 40, 15  # the notice: beside the grid, so no room is kept under it

# the words the page draws with (attn_viz.messages), besides base.BASE_WORDS
WORDS = (
    "mask_heading_none",
    "mask_heading_causal",
    "mask_heading_padding",
    "mask_heading_causal_padding",
    "axis_queries",
    "axis_keys",
    "legend_weight",
    "mask_legend_masked",
    "mask_legend_dropped",
    "mask_no_key",
    "mask_masked_cells",
    "mask_row_sums",
    "mask_padding_rows",
    "mask_row_empty",
    "mask_desc",
    "row_values",
    "row_sep",
)


def mask_explorer(example: Example | None = None) -> Explorer:
    """Lesson 07: no mask, a causal mask, or a padding mask on the four-word example.

    ``mode`` is "none", "causal" (position i sees 0..i) or "padding" (the last ``padding`` tokens are
    padding: masked on the key side for every query; with "causal" both masks apply, as in a padded batch
    of a decoder; "none" ignores it). attn_core's convention: True = may attend; a
    masked score becomes −∞ before softmax, so its weight is exactly 0 (hatched "−∞ → 0" cells).
    Padding every token leaves every row with no key: the picture says why softmax cannot give such a
    row weights (attn_core raises ValueError), and ``.state["empty_rows"]`` lists them.
    Computed and drawn in the page (``js/masks.js``); attn_core here.
    """
    text = Text()
    example = pick_example(example, four_words, text)
    tokens = example.tokens
    n = len(tokens)
    labels, glosses = token_labels(tokens, getattr(example, "gloss", None), text.lang)
    specs = [
        choice("mode", text("mask_control_mode"), MODES, "causal", labels=[text(f"mask_mode_{m}") for m in MODES]),
        choice("padding", text("mask_control_padding"), list(range(n + 1)), 0, slider=True),
    ]
    X, W_q, W_k, W_v = (np.asarray(a, dtype=float) for a in (example.X, example.W_q, example.W_k, example.W_v))
    data = dict(tokens=tokens, labels=labels, glosses=glosses, X=X, W_q=W_q, W_k=W_k, W_v=W_v)
    return Explorer(
        "mask_explorer",
        "masks",
        specs,
        data,
        WORDS,
        partial(compute, example=example),
        partial(render, tokens=tokens, labels=labels, glosses=glosses),
        text=text,
        title=text("mask_title"),
    )


# ---------------------------------------------------------------- compute: the numbers, from attn_core


def mask_cells(mode: str, n: int, padding: int) -> np.ndarray | None:
    """The mask (n × n, True = may attend) of a mode with the last ``padding`` tokens padding, or None for
    "none". "causal" with padding is both masks at once (a cell must pass both)."""
    if mode == "none":
        return None
    mask = causal_mask(n) if mode == "causal" else np.ones((n, n), dtype=bool)
    mask[:, n - padding :] = False  # key side: nobody attends to a padding token
    return mask


def compute(values: dict, *, example) -> dict:
    mode, n = values["mode"], len(example.tokens)
    p = int(values["padding"]) if mode != "none" else 0
    mask = mask_cells(mode, n, p)
    empty = [] if mask is None else [i for i in range(n) if not mask[i].any()]
    if empty:  # softmax of a row with every key at −∞ has no answer: attn_core refuses, the picture explains
        A = np.full((n, n), np.nan)
    else:
        A = example.attention(mask=mask).A
    return dict(mode=mode, p=p, mask=mask, A=A, empty_rows=empty)


# ---------------------------------------------------------------- render: the static picture (as masks.js)


def render(explorer: Explorer, state: dict, *, tokens, labels, glosses) -> Frame:
    text, A, mask, p, n = explorer.text, state["A"], state["mask"], state["p"], len(tokens)
    empty = state["empty_rows"]
    full = mask if mask is not None else np.ones((n, n), dtype=bool)
    n_masked = int((~full).sum())
    heading = text(f"mask_heading_{state['mode']}" + ("_padding" if state["mode"] == "causal" and p else ""), padding=p)
    pic = explorer.picture(heading, WIDTH)
    padded = tuple(range(n - p, n))
    heat_w, heat_h = draw.heatmap(
        pic,
        MARGIN,
        PANELS_TOP,
        A,
        labels,
        tokens,
        cell=CELL,
        row_title=text("axis_queries"),
        col_title=text("axis_keys"),
        masked=mask,
        muted_rows=padded,
        muted_cols=padded,  # the rows carry the glosses (我 “I”); the columns are the same tokens, as in every heatmap
        dropped_rows=padded,  # a padding query's row is computed, then thrown away: grey
        col_glosses=glosses,  # the English edition's “I” under 我, as the rows' 我 “I”
    )
    y = PANELS_TOP + heat_h + LEGEND_GAP
    draw.colorbar(
        pic,
        LEGEND_LEFT,
        y,
        width=LEGEND_WIDTH,
        label=text("legend_weight"),
        masked_label=text("mask_legend_masked") if n_masked else None,
        dropped_label=text("mask_legend_dropped") if padded and not empty else None,
    )
    y += BELOW_GRID - LEGEND_GAP + (DROPPED_LEGEND_H if padded and not empty else 0)
    pic.height = y
    if empty:  # beside the grid (as masks.js): the picture keeps its height and no blank band waits under it
        words = text("list_sep").join(labels[i] for i in empty)
        x = MARGIN + heat_w + NOTICE_GAP
        width = WIDTH - MARGIN - x
        paragraphs = text("mask_no_key", tokens=words).split("\n")
        lines = [line for par in paragraphs for line in wrap(par, NOTICE_SIZE, width - 24)]
        h = draw.notice(pic, x, PANELS_TOP + NOTICE_TOP, width, lines, size=NOTICE_SIZE)
        pic.height = max(pic.height, PANELS_TOP + NOTICE_TOP + h + 8)

    sums = A.sum(axis=1)
    readouts = {f"row_sum[{tok}]": float(s) for tok, s in zip(tokens, sums) if np.isfinite(s)}
    readouts.update(
        masked=float(n_masked), zero_weights=float((A == 0).sum()), padding=float(p), empty_rows=float(len(empty))
    )
    lines = [
        text("mask_masked_cells", count=n_masked),
        text(
            "mask_row_sums",
            sums="  ".join(f"{tok} {draw.fmt(s) if np.isfinite(s) else '—'}" for tok, s in zip(tokens, sums)),
        ),
    ]
    if p:
        lines.append(text("mask_padding_rows"))
    rows = [
        text("row_values", query=tok, values=text("mask_row_empty"))
        if i in empty
        else text(
            "row_values", query=tok, values=token_values([t for t, keep in zip(tokens, row) if keep], A[i][row], text)
        )
        for i, (tok, row) in enumerate(zip(tokens, full))
    ]
    body = text("mask_desc", n=n, count=n_masked, rows=text("row_sep").join(rows))
    return Frame(pic, readouts, lines, describe(heading, body, text))
