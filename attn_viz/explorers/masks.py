"""Lesson 07: masks decide which keys a query may see.

No mask, a causal mask (position i sees 0..i), or a padding mask (the last tokens are padding, hidden
from every query). A masked score becomes −∞ before softmax, so its weight is exactly 0. Padding every
token leaves a row with nothing to attend to, and the explorer shows attn_core's own error.
The picture: the weight matrix, masked cells grey and struck through, padding tokens grey.
"""

from functools import partial

import numpy as np
from ipywidgets import HBox, IntSlider, Layout, ToggleButtons

from attn_core.core import causal_mask
from attn_core.examples import Example, four_words

from .. import svg as draw
from .base import (
    DESCRIPTION_STYLE,
    MARGIN,
    PANELS_TOP,
    SLIDER_WIDTH,
    Frame,
    Text,
    describe,
    pick_example,
    token_values,
)
from .base import WidgetExplorer as Explorer  # until converted to the live design

MODES = ("none", "causal", "padding")

# ---------------------------------------------------------------- layout (px)
WIDTH = 640  # the height follows the heatmap
CELL = 72  # heatmap cell
LEGEND_LEFT, LEGEND_GAP, LEGEND_WIDTH = 20, 16, 180  # colour legend under the grid
BELOW_GRID = 58  # the legend, its labels and a margin


def mask_explorer(example: Example | None = None) -> Explorer:
    """Lesson 07: no mask, a causal mask, or a padding mask on the four-word example.

    ``mode`` is "none", "causal" (position i sees 0..i) or "padding" (the last ``padding`` tokens are
    padding: masked on the key side for every query). attn_core's convention: True = may attend; a
    masked score becomes −∞ before softmax, so its weight is exactly 0 (grey, struck-through cells).
    Padding every token leaves a row with nothing to attend to: softmax cannot make it sum to 1, and
    the explorer shows attn_core's error message.
    """
    text = Text()
    example = pick_example(example, four_words, text)
    n = len(example.tokens)
    controls = {
        "mode": ToggleButtons(
            options=[(text(f"mask_mode_{mode}"), mode) for mode in MODES],
            value="causal",
            description=text("mask_control_mode"),
            style=DESCRIPTION_STYLE,
        ),
        "padding": IntSlider(
            min=0,
            max=n,
            value=1,
            description=text("mask_control_padding"),
            continuous_update=True,
            style=DESCRIPTION_STYLE,
            layout=Layout(width=SLIDER_WIDTH),
        ),
    }

    def sync_padding(change=None):  # the padding slider only matters in padding mode
        controls["padding"].disabled = controls["mode"].value != "padding"

    sync_padding()
    controls["mode"].observe(sync_padding, names="value")
    return Explorer(
        "mask_explorer",
        controls,
        partial(compute, example=example),
        partial(render, tokens=example.tokens),
        text=text,
        title=text("mask_title"),
        control_box=HBox([controls["mode"], controls["padding"]]),
    )


# ---------------------------------------------------------------- compute: the numbers, from attn_core


def compute(values: dict, *, example) -> dict:
    mode, p, n = values["mode"], int(values["padding"]), len(example.tokens)
    if mode == "none":
        mask = None
    elif mode == "causal":
        mask = causal_mask(n)
    else:
        mask = np.ones((n, n), dtype=bool)
        mask[:, n - p :] = False  # key side: nobody attends to a padding token
    trace = example.attention(mask=mask)
    return dict(mode=mode, p=p if mode == "padding" else 0, mask=mask, A=trace.A)


# ---------------------------------------------------------------- render: the picture


def render(explorer: Explorer, state: dict, *, tokens) -> Frame:
    text, A, mask, p, n = explorer.text, state["A"], state["mask"], state["p"], len(tokens)
    full = mask if mask is not None else np.ones((n, n), dtype=bool)
    n_masked = int((~full).sum())
    heading = text(f"mask_heading_{state['mode']}", padding=p)
    pic = explorer.picture(heading, WIDTH)
    padded = tuple(range(n - p, n))
    _, heat_h = draw.heatmap(
        pic,
        MARGIN,
        PANELS_TOP,
        A,
        tokens,
        tokens,
        cell=CELL,
        row_title=text("axis_queries"),
        col_title=text("axis_keys"),
        masked=mask,
        muted_rows=padded,
        muted_cols=padded,
    )
    draw.colorbar(
        pic,
        LEGEND_LEFT,
        PANELS_TOP + heat_h + LEGEND_GAP,
        width=LEGEND_WIDTH,
        label=text("legend_weight"),
        masked_label=text("mask_legend_masked") if n_masked else None,
    )
    pic.height = PANELS_TOP + heat_h + BELOW_GRID

    sums = A.sum(axis=1)
    readouts = {f"row_sum[{tok}]": float(s) for tok, s in zip(tokens, sums)}
    readouts.update(masked=float(n_masked), zero_weights=float((A == 0).sum()), padding=float(p))
    lines = [
        text("mask_masked_cells", count=n_masked),
        text("mask_row_sums", sums="  ".join(f"{tok} {draw.fmt(s)}" for tok, s in zip(tokens, sums))),
    ]
    if p:
        lines.append(text("mask_padding_rows"))
    rows = [
        text("row_values", query=tok, values=token_values([t for t, keep in zip(tokens, row) if keep], A[i][row], text))
        for i, (tok, row) in enumerate(zip(tokens, full))
    ]
    body = text("mask_desc", n=n, count=n_masked, rows=text("row_sep").join(rows))
    return Frame(pic, readouts, lines, describe(heading, body, text))
