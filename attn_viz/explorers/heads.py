"""Lesson 08: several heads look at the same sentence in different ways.

Multi-head attention on the coreference example (那只动物没过街，因为它太累了) with seeded random
projections. The heads are untrained, so what each one favours is chance; the point is that heads
differ, and that their average mixes them. The picture: one head's weights next to the average of all
heads, the asking row outlined in both.
"""

from functools import partial

import numpy as np
from ipywidgets import Dropdown, HBox, IntSlider

from attn_core._validate import positive_int
from attn_core.examples import Example, coreference
from attn_core.multihead import multi_head_attention

from .. import svg as draw
from .base import DESCRIPTION_STYLE, MARGIN, PANELS_TOP, Frame, Text, describe, pick_example, token_values
from .base import WidgetExplorer as Explorer  # until converted to the live design

HEAD_W_SCALE = 2.0  # standard deviation of the random projections' entries

# ---------------------------------------------------------------- layout (px)
SMALL_CELL, LARGE_CELL = 38, 60  # heatmap cell: small for a sentence longer than
SHORT_SENTENCE = 6  # this many tokens
MAP_GAP = 24  # between the two heatmaps
LEGEND_GAP, LEGEND_WIDTH = 14, 200  # colour legend under the first grid
BELOW_GRID = 54  # the legend, its labels and a margin


def head_explorer(n_heads: int = 2, example: Example | None = None, seed: int = 0) -> Explorer:
    """Lesson 08: multi-head attention on the coreference example with seeded random projections.

    W_Q, W_K, W_V, W_O are d_model × d_model with entries drawn from N(0, 2²) by
    ``np.random.default_rng(seed)`` (scale 2 because X's entries are at most 1; smaller weights give
    nearly flat heads). ``n_heads`` must divide d_model (4 for coreference: 1, 2 or 4). The heads are
    untrained, so what each one favours is chance; the point is that heads differ and the average
    mixes them. With seed=0 and 2 heads, 它 favours itself (0.49) in head 1 and 累了 (0.31) in head 2.
    Controls: ``head`` (1 … n_heads) and ``query`` (default 它).
    """
    text = Text()
    example = pick_example(example, coreference, text)
    tokens, X = example.tokens, np.asarray(example.X)
    d_model = X.shape[1]
    n_heads = positive_int(n_heads, "n_heads")
    divisors = [k for k in range(1, d_model + 1) if d_model % k == 0]
    if n_heads not in divisors:
        raise ValueError(text("heads_not_divisor", n_heads=n_heads, d_model=d_model, divisors=divisors))
    rng = np.random.default_rng(seed)
    W_q, W_k, W_v, W_o = (rng.normal(0.0, HEAD_W_SCALE, (d_model, d_model)) for _ in range(4))
    A_heads = multi_head_attention(X, X, W_q, W_k, W_v, W_o, n_heads).A  # fixed: the controls only choose

    controls = {
        "head": IntSlider(
            min=1,
            max=n_heads,
            value=1,
            description=text("head_control"),
            style=DESCRIPTION_STYLE,
            disabled=n_heads == 1,
            continuous_update=True,
        ),
        "query": Dropdown(
            options=list(tokens),
            value="它" if "它" in tokens else tokens[0],
            description=text("control_query"),
            style=DESCRIPTION_STYLE,
        ),
    }
    return Explorer(
        "head_explorer",
        controls,
        partial(compute, tokens=tokens, A_heads=A_heads, A_avg=A_heads.mean(axis=0)),
        partial(render, tokens=tokens, n_heads=n_heads, d_model=d_model),
        text=text,
        title=text("head_title"),
        control_box=HBox([controls["head"], controls["query"]]),
    )


# ---------------------------------------------------------------- compute: which head, which row


def compute(values: dict, *, tokens, A_heads, A_avg) -> dict:
    return dict(head=int(values["head"]), qi=tokens.index(values["query"]), A_heads=A_heads, A_avg=A_avg)


# ---------------------------------------------------------------- render: the picture


def render(explorer: Explorer, state: dict, *, tokens, n_heads, d_model) -> Frame:
    text, h, qi, A_heads, A_avg = explorer.text, state["head"], state["qi"], state["A_heads"], state["A_avg"]
    query, n = tokens[qi], len(tokens)
    cell = SMALL_CELL if n > SHORT_SENTENCE else LARGE_CELL
    heading = text("head_heading", n_heads=n_heads, width=d_model // n_heads, query=query)
    pic = explorer.picture(heading)
    axes = dict(row_title=text("axis_queries"), col_title=text("axis_keys"))
    head_w, heat_h = draw.heatmap(
        pic,
        MARGIN,
        PANELS_TOP,
        A_heads[h - 1],
        tokens,
        tokens,
        cell=cell,
        highlight_row=qi,
        title=text("head_name", head=h),
        **axes,
    )
    average_w, _ = draw.heatmap(
        pic,
        MARGIN + head_w + MAP_GAP,
        PANELS_TOP,
        A_avg,
        tokens,
        tokens,
        cell=cell,
        highlight_row=qi,
        title=text("head_average", n_heads=n_heads),
        **axes,
    )
    draw.colorbar(
        pic,
        MARGIN + head_w - cell * n,
        PANELS_TOP + heat_h + LEGEND_GAP,
        width=LEGEND_WIDTH,
        label=text("legend_weight"),
    )
    pic.width = MARGIN + head_w + MAP_GAP + average_w + MARGIN
    pic.height = PANELS_TOP + heat_h + BELOW_GRID

    readouts, labels, lines = {}, {}, []
    rows = [(str(k + 1), A_heads[k, qi]) for k in range(n_heads)] + [("avg", A_avg[qi])]
    for name, row in rows:
        favourite = tokens[int(np.argmax(row))]
        readouts[f"max_weight[{name}]"] = float(row.max())
        labels[f"favourite[{name}]"] = favourite
        who = text("head_name", head=name) if name != "avg" else text("head_average_name")
        lines.append(text("head_favourite", who=who, query=query, favourite=favourite, weight=draw.fmt(row.max())))
    readouts.update({f"weight[{tok}]": float(x) for tok, x in zip(tokens, A_heads[h - 1, qi])})
    body = text(
        "head_desc",
        head=h,
        n_heads=n_heads,
        query=query,
        weights=token_values(tokens, A_heads[h - 1, qi], text),
        average=token_values(tokens, A_avg[qi], text),
    )
    return Frame(pic, readouts, lines, describe(heading, body, text), labels)
