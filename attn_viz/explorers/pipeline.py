"""Lesson 06: the five steps at once, on the four-word example.

Every control of the earlier explorers together: which token asks, how large each key is, whether the
scores are divided by √d_k, and how wide Q and K are. The picture: the full weight matrix A with the
asking row outlined, that row as bars (dashed: every key ×1 at the same d_k and scaling), and the shape
of every intermediate, from the Trace.
"""

from functools import partial

import numpy as np

from attn_core.core import attention, project
from attn_core.examples import Example, four_words

from .. import svg as draw
from .base import (
    MARGIN,
    PANEL_TITLE_SIZE,
    PANELS_TOP,
    Explorer,
    Frame,
    Text,
    choice,
    d_k_spec,
    describe,
    entropy,
    key_specs,
    mode_text,
    pick_example,
    scaled_spec,
    speaking,
    token_labels,
    token_values,
)

PIPELINE_DK = (4, 8, 16, 32, 64, 128, 256)  # d_k beyond the example's own width
EXTRA_DECIMALS = 9  # the seeded extra columns of W_Q, W_K, rounded

# ---------------------------------------------------------------- layout (px), the same in pipeline.js
WIDTH = 860  # the height follows the shape table
CELL = 64  # heatmap cell
LEGEND_GAP, LEGEND_WIDTH = 14, 200  # colour legend under the heatmap's grid
BARS_GAP = 40  # between the heatmap and the row's bars
BARS_BELOW_GRID = 10  # the bars reach a little lower than the heatmap
SHAPES_GAP = 82  # heatmap bottom → shape table title (the legend sits in between)
SHAPE_COLUMNS = (0, 60, 140, 240)  # step, symbol, shape, meaning
TABLE_BELOW_TITLE, SPACE_UNDER_TABLE = 4, 10
NOTE_GAP = 22  # the note on the extra columns of W_Q, W_K, under the colour bar
STEP_NAMES = {"QKᵀ": "QKT"}  # Trace.rows() symbol -> the page's name of that matrix

# the words the page draws with (attn_viz.messages), besides base.BASE_WORDS
WORDS = (
    "pipeline_heading",
    "pipeline_weights",
    "axis_queries",
    "axis_keys",
    "legend_weight",
    "pipeline_row",
    "pipeline_ghost",
    "pipeline_extra_columns",
    "pipeline_shapes",
    "pipeline_shapes_header",
    "pipeline_row_weights",
    "pipeline_favourite",
    "pipeline_favourite_tied",
    "pipeline_tied_word",
    "pipeline_desc",
    "pipeline_desc_shapes",
)


def pipeline_explorer(example: Example | None = None, shape_table: bool = True) -> Explorer:
    """Lesson 06: everything at once on the four-word example.

    Controls: ``query`` (which token asks), one key slider per token (0× … 3×), ``scaled`` (divide by
    √d_k) and ``d_k``. d_k starts at the example's own width (3 for four_words) and grows to 256 by
    widening W_Q and W_K with seeded random columns (see ``extended_projections``): d_k takes the first
    d_k columns of these fixed wider matrices, so moving it adds columns and never swaps the
    projections, and at the starting d_k the numbers are exactly the example's (the picture says how
    many columns are the example's own). Shows the full weight matrix A (picked row outlined), that
    row's bars (dashed: all keys ×1 at the same d_k and scaling) and the shape of every intermediate
    from the Trace (``shape_table=False`` leaves the table out: the classroom board does, so that the
    rest can be drawn larger). Computed and drawn in the page (``js/pipeline.js``); attn_core here.
    """
    text = Text()
    example = pick_example(example, four_words, text)
    tokens = example.tokens
    labels, glosses = token_labels(tokens, getattr(example, "gloss", None), text.lang)
    d0 = example.W_q.shape[1]
    d_options = [d0] + [d for d in PIPELINE_DK if d > d0]
    W_q, W_k = extended_projections(example, d_options[-1])
    X = np.asarray(example.X, dtype=float)
    W_v = np.asarray(example.W_v, dtype=float)

    query = "学习" if "学习" in tokens else tokens[0]
    specs = [choice("query", text("control_query"), tokens, query, labels=labels)]
    specs += key_specs(tokens, labels, text)
    specs += [scaled_spec(True, text), d_k_spec(d_options, d0)]
    steps = {}  # the shape table's words, scaled and not (the meaning of S differs); the page adds the shapes
    for key, scaled in (("scaled", True), ("unscaled", False)):
        trace = attention(*project(X, W_q[:, :d0], W_k[:, :d0], W_v), scaled=scaled)
        trace.X = X
        steps[key] = [(step, sym, meaning, STEP_NAMES.get(sym, sym)) for step, sym, _, meaning in _rows(trace, text)]
    data = dict(
        tokens=tokens,
        labels=labels,
        glosses=glosses,
        X=X,
        W_q=W_q,
        W_k=W_k,
        W_v=W_v,
        d0=d0,
        shape_table=bool(shape_table),
        steps=steps,
    )
    fixed = dict(tokens=tokens, labels=labels, glosses=glosses, d0=d0, shape_table=bool(shape_table))
    return Explorer(
        "pipeline_explorer",
        "pipeline",
        specs,
        data,
        WORDS,
        partial(compute, X=X, W_q=W_q, W_k=W_k, W_v=W_v, tokens=tokens),
        partial(render, **fixed),
        text=text,
        title=text("pipeline_title"),
    )


def _rows(trace, text):
    with speaking(text.lang):
        return trace.rows()


def extended_projections(example: Example, d_max: int, seed: int = 0) -> list[np.ndarray]:
    """W_Q, W_K widened to d_max columns: the example's own columns first, then seeded random ones.

    The extra columns are standard normal, rescaled so that the extra columns of Q = X·W_Q (and of K)
    have the same root-mean-square size as the example's own Q (and K). They stand for features a
    trained model would have learned; here they carry no meaning, only size, which is what d_k and
    the √d_k scaling are about. The extra columns are rounded to EXTRA_DECIMALS (9) decimals."""
    rng = np.random.default_rng(seed)
    out = []
    for W in (example.W_q, example.W_k):
        extra = rng.standard_normal((W.shape[0], max(d_max - W.shape[1], 0)))
        if extra.size:
            own, new = np.asarray(example.X) @ W, np.asarray(example.X) @ extra
            extra = extra * (np.sqrt(np.mean(own**2)) / np.sqrt(np.mean(new**2)))
            extra = np.round(extra, EXTRA_DECIMALS)  # the page gets them as text: no digit from the CPU's last bit
        out.append(np.hstack([np.asarray(W, dtype=float), extra]))
    return out


# ---------------------------------------------------------------- compute: the numbers, from attn_core


def compute(values: dict, *, X, W_q, W_k, W_v, tokens) -> dict:
    d_k, scaled, qi = int(values["d_k"]), bool(values["scaled"]), tokens.index(values["query"])
    mult = np.array([values[tok] for tok in tokens], dtype=float)
    Q, K, V = project(X, W_q[:, :d_k], W_k[:, :d_k], W_v)
    trace = attention(Q, K * mult[:, None], V, scaled=scaled)
    trace.X = X
    ghost = attention(Q, K, V, scaled=scaled).A[qi]
    rows = trace.rows()  # in the explorer's language: Explorer runs compute speaking it
    return dict(trace=trace, A=trace.A, qi=qi, mult=mult, ghost=ghost, rows=rows, d_k=d_k, scaled=scaled)


# ---------------------------------------------------------------- render: the picture


def telling_digits(row, most=4) -> tuple[int, list[int]]:
    """The decimals (2 … ``most``) the readout needs so that the largest weight of ``row`` does not print as
    the runner-up's, and the words still tied for it at that many (one word unless they are equal there)."""
    digits = 2
    top = draw.fmt(max(row), digits)
    while digits < most and sum(draw.fmt(x, digits) == top for x in row) > 1:
        digits += 1
        top = draw.fmt(max(row), digits)
    return digits, [k for k, x in enumerate(row) if draw.fmt(x, digits) == top]


def render(explorer: Explorer, state: dict, *, tokens, labels, glosses, d0, shape_table) -> Frame:
    text, A, qi = explorer.text, state["trace"].A, state["qi"]
    query, n = labels[qi], len(tokens)
    heading = text("pipeline_heading", d_k=state["d_k"], mode=mode_text(state["scaled"], text), query=query)
    pic = explorer.picture(heading, WIDTH)
    heat_w, heat_h = draw.heatmap(
        pic,
        MARGIN,
        PANELS_TOP,
        A,
        labels,
        tokens,
        cell=CELL,
        title=text("pipeline_weights"),
        row_title=text("axis_queries"),
        col_title=text("axis_keys"),
        highlight_row=qi,  # the rows carry the glosses (我 “I”); the columns are the same tokens
    )
    grid_left = MARGIN + heat_w - n * CELL
    draw.colorbar(pic, grid_left, PANELS_TOP + heat_h + LEGEND_GAP, width=LEGEND_WIDTH, label=text("legend_weight"))
    sub = [f"×{draw.fmt(m, 1)}" for m in state["mult"]]
    draw.bars(
        pic,
        heat_w + (MARGIN + BARS_GAP),
        PANELS_TOP,
        A[qi],
        tokens,
        width=WIDTH - heat_w - (2 * MARGIN + BARS_GAP),
        height=heat_h + BARS_BELOW_GRID,
        ghost=state["ghost"],
        title=text("pipeline_row", query=query),
        ghost_label=text("pipeline_ghost"),
        sublabels=sub,
        glosses=glosses,
    )
    shapes_top = PANELS_TOP + heat_h + SHAPES_GAP
    extra = state["d_k"] - d0
    if extra > 0:  # said on the picture: the first d0 columns are the example's, the rest seeded random
        note = text("pipeline_extra_columns", own=d0, extra=extra)
        pic.text(MARGIN, shapes_top - 14, note, size=15, fill=draw.MUTED)
        shapes_top += NOTE_GAP
    pic.height = shapes_top - PANEL_TITLE_SIZE  # under the colour legend
    if shape_table:
        pic.text(MARGIN, shapes_top, text("pipeline_shapes"), size=PANEL_TITLE_SIZE, bold=True)
        rows = [tuple(text("pipeline_shapes_header").split("|"))]
        rows += [(step, sym, " × ".join(map(str, shape)), meaning) for step, sym, shape, meaning in state["rows"]]
        table_h = draw.table(pic, MARGIN, shapes_top + TABLE_BELOW_TITLE, rows, SHAPE_COLUMNS)
        pic.height = int(shapes_top + SPACE_UNDER_TABLE + table_h)

    readouts = {f"weight[{tok}]": float(x) for tok, x in zip(tokens, A[qi])}
    readouts.update(
        max_weight=float(A[qi].max()), row_sum=float(A[qi].sum()), d_k=float(state["d_k"]), entropy=entropy(A[qi])
    )
    favourite = int(np.argmax(A[qi]))
    digits, tied = telling_digits(A[qi])
    lines = [
        text(
            "pipeline_row_weights",
            query=query,
            weights="  ".join(f"{tok} {draw.fmt(x, digits)}" for tok, x in zip(tokens, A[qi])),
        ),
        text(
            "pipeline_favourite_tied" if len(tied) > 1 else "pipeline_favourite",
            favourite=labels[favourite],
            tied=text("list_sep").join(text("pipeline_tied_word", word=labels[k]) for k in tied),
            weight=draw.fmt(A[qi].max(), digits),
            total=draw.fmt(A[qi].sum()),
        ),
    ]
    body = text(
        "pipeline_desc",
        n=n,
        query=query,
        weights=token_values(tokens, A[qi], text, notes=sub),
        ghost=token_values(tokens, state["ghost"], text),
    )
    if shape_table:
        shapes = text("list_sep").join(f"{sym} {' × '.join(map(str, shape))}" for _, sym, shape, _ in state["rows"])
        body = text("desc_sentences", first=body, second=text("pipeline_desc_shapes", shapes=shapes))
    return Frame(pic, readouts, lines, describe(heading, body, text), labels={"favourite": tokens[favourite]})
