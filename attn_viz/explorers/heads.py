"""Lesson 08: several heads look at the same sentence in different ways.

Multi-head attention on the coreference example (那只动物没过街，因为它太累了), with one of two sets of
projections. "designed": lesson 08's two heads (section 5: the pronoun feature asks, head 1's keys expose
"animate", head 2's "state"), so 它 attends to 动物 in head 1 and to 累了 in head 2, as the lesson shows;
"random": seeded random projections, untrained, so what each head favours is chance (lesson 08's entropy
cell uses these). The point of both: heads differ, and their average mixes them. The picture: one head's
weights next to the average of all heads, the asking row outlined in both.
Computed and drawn in the page (``js/heads.js``); ``compute`` here is the reference, with attn_core.
"""

import math
import unicodedata
from functools import partial

import numpy as np

from attn_core._validate import positive_int
from attn_core.examples import Example, coreference
from attn_core.multihead import multi_head_attention

from .. import svg as draw
from .base import (
    MARGIN,
    PANELS_TOP,
    Explorer,
    Frame,
    Text,
    check_seed,
    choice,
    describe,
    pick_example,
    token_labels,
    token_values,
)

HEAD_W_SCALE = 2.0  # standard deviation of the random projections' entries
DESIGN_STRENGTH = 3.0  # lesson 08's a: the designed heads' one nonzero entry per query and key column
PROJECTIONS = ("designed", "random")

# ---------------------------------------------------------------- layout (px), the same in heads.js
SMALL_CELL, LARGE_CELL = 46, 60  # heatmap cell: small for a sentence longer than
SHORT_SENTENCE = 6  # this many tokens
LONG_LABELS = 20  # px: the tick labels of the small cells' maps (14 px and more once the page scales them)
MAP_GAP = 24  # between the two heatmaps
SHARED_ROWS_W = 8  # the second map's room left of its cells: its rows are the first map's, not labelled again
LEGEND_GAP, LEGEND_WIDTH = 14, 200  # colour legend under the first grid
BELOW_GRID = 54  # the legend, its labels and a margin
NOTE_H = 28  # the line under the legend saying that the cells carry no numbers
# the page scales the picture down to its room: a cell's number and the labels must still read there
PAGE_WIDTH = 860  # px: the picture's room, a row of its own under the controls (data["wide"]; JupyterLab on a
# 1280-px laptop, file browser open)
MIN_PAGE_TEXT = 12  # px on the page: the smallest a cell's number or a gloss may end up
MIN_PAGE_LABEL = 14  # px on the page: the smallest a row or column label may end up
UNIFORM_TOLERANCE = 1e-9  # a row whose weights differ by no more than this is uniform: no key is "most" attended

# the words the page draws with (attn_viz.messages), besides base.BASE_WORDS
WORDS = (
    "head_heading",
    "head_name",
    "head_panel",
    "head_projections_designed",
    "head_projections_random",
    "head_average",
    "head_average_name",
    "head_favourite",
    "head_uniform",
    "head_no_numbers",
    "head_row_weights",
    "head_desc",
    "axis_queries",
    "axis_keys",
    "legend_weight",
)


def designed_heads(a: float = DESIGN_STRENGTH) -> tuple[np.ndarray, ...]:
    """Lesson 08 section 5's W_Q, W_K, W_V, W_O (4 × 4) for the coreference example's features (animate,
    place, state, function word / pronoun): head 1 (columns 0–1) matches the pronoun feature's query with
    the "animate" feature's key, head 2 (columns 2–3) with the "state" feature's; W_V = W_O = I."""
    W_q, W_k = np.zeros((4, 4)), np.zeros((4, 4))
    W_q[3, 0] = W_q[3, 2] = a
    W_k[0, 0] = W_k[2, 2] = a
    return W_q, W_k, np.eye(4), np.eye(4)


def head_explorer(n_heads: int = 2, example: Example | None = None, seed: int = 0) -> Explorer:
    """Lesson 08: multi-head attention on the coreference example, designed or seeded random heads.

    ``projections`` (a control): "designed" = lesson 08's two heads (section 5; offered for the default
    example, whose four features they read, and chosen at the start), "random" = W_Q, W_K, W_V, W_O
    d_model × d_model with entries from N(0, 2²) by ``np.random.default_rng(seed)`` (scale 2 because X's
    entries are at most 1; smaller weights give nearly flat heads). ``n_heads`` must divide d_model
    (4 for coreference: 1, 2 or 4). With the designed heads and 2 heads, 它 gives 0.96 to 动物 in head 1
    and 0.97 to 累了 in head 2; with seed=0 random heads, it favours itself (0.49) in head 1 and 累了
    (0.31) in head 2. Controls: ``projections``, ``head`` (1 … n_heads) and ``query`` (default 它).
    Computed and drawn in the page (``js/heads.js``); attn_core here.
    """
    text = Text()
    designed = example is None
    example = pick_example(example, coreference, text)
    check_seed(seed, text)
    tokens, X = example.tokens, np.asarray(example.X, dtype=float)
    d_model = X.shape[1]
    n_heads = positive_int(n_heads, "n_heads")
    divisors = [k for k in range(1, d_model + 1) if d_model % k == 0]
    if n_heads not in divisors:
        raise ValueError(text("heads_not_divisor", n_heads=n_heads, d_model=d_model, divisors=divisors))
    rng = np.random.default_rng(seed)
    weights = {"random": tuple(rng.normal(0.0, HEAD_W_SCALE, (d_model, d_model)) for _ in range(4))}
    if designed:
        weights = {"designed": designed_heads(), **weights}
    # the weights A of every head, for every set of projections: fixed, the controls only choose
    A_heads = {name: multi_head_attention(X, X, *W, n_heads).A for name, W in weights.items()}
    labels, glosses = token_labels(tokens, getattr(example, "gloss", None), text.lang)
    query = "它" if "它" in tokens else tokens[0]
    names = list(weights)
    specs = [
        choice(
            "projections",
            text("head_control_projections"),
            names,
            names[0],
            labels=[text(f"head_projections_{p}") for p in names],
        ),
        choice("head", text("head_control"), list(range(1, n_heads + 1)), 1, slider=True),
        choice("query", text("control_query"), tokens, query, labels=labels, slider=True),
    ]
    data = dict(
        tokens=tokens,
        labels=labels,
        glosses=glosses,  # under the row labels, on a line of their own; the columns plain
        wide=True,  # the picture takes a row of its own, under the controls (PAGE_WIDTH)
        X=X,
        n_heads=n_heads,
        d_model=d_model,
        projections={name: dict(W_q=W[0], W_k=W[1]) for name, W in weights.items()},
    )
    return Explorer(
        "head_explorer",
        "heads",
        specs,
        data,
        WORDS,
        partial(compute, tokens=tokens, A_heads=A_heads),
        partial(render, tokens=tokens, glosses=glosses, n_heads=n_heads, d_model=d_model),
        text=text,
        title=text("head_title"),
    )


# ---------------------------------------------------------------- compute: which projections, head and row


def compute(values: dict, *, tokens, A_heads) -> dict:
    A = A_heads[values["projections"]]
    return dict(
        projections=values["projections"],
        head=int(values["head"]),
        qi=tokens.index(values["query"]),
        A_heads=A,
        A_avg=A.mean(axis=0),
    )


# ---------------------------------------------------------------- render: the static picture (as heads.js)


def number_size(width: float, cell: float) -> int:
    """The size (px) of the cells' numbers in a picture ``width`` px wide, so that they are at least
    MIN_PAGE_TEXT px once the page scales the picture to PAGE_WIDTH; 0 (colours only) when that size does
    not fit in a cell."""
    size = max(15, math.ceil(MIN_PAGE_TEXT * max(width, PAGE_WIDTH) / PAGE_WIDTH))
    return size if draw.text_width("0.00", size) + 8 <= cell else 0


def shown_token(token: str) -> str:
    """A token as a list of tokens writes it: a punctuation token quoted (“，”), so that it does not read as
    the list's own separator ("街 0.00、“，” 0.00")."""
    return f"“{token}”" if token and all(unicodedata.category(ch).startswith("P") for ch in token) else token


def row_label_width(tokens, glosses, row_title: str, size: int) -> float:
    """The room left of the first map: the tokens at ``size``, their glosses and the row title 2 px smaller."""
    widths = [draw.text_width(t, size) for t in tokens] + [draw.text_width(row_title + " ↓", size - 2)]
    return max(widths + [draw.text_width(g, size - 2) for g in glosses or ()]) + 14


def row_line(text: Text, who: str, query: str, row: np.ndarray, tokens) -> str:
    """The readout line of one row: the key it attends to most, or that the row is uniform (no key is)."""
    if float(row.max() - row.min()) <= UNIFORM_TOLERANCE:
        return text("head_uniform", who=who, query=query, weight=draw.fmt(row.max()))
    favourite = int(np.argmax(row))
    return text("head_favourite", who=who, query=query, favourite=tokens[favourite], weight=draw.fmt(row.max()))


def render(explorer: Explorer, state: dict, *, tokens, glosses, n_heads, d_model) -> Frame:
    text, h, qi, A_heads, A_avg = explorer.text, state["head"], state["qi"], state["A_heads"], state["A_avg"]
    query, n = tokens[qi], len(tokens)  # words in the text; the glosses on a line under the row labels
    cell = SMALL_CELL if n > SHORT_SENTENCE else LARGE_CELL
    size = LONG_LABELS if n > SHORT_SENTENCE else 16
    heading = text("head_heading", n_heads=n_heads, width=d_model // n_heads, query=query)
    pic = explorer.picture(heading)
    row_title = text("axis_queries")
    rows_w = row_label_width(tokens, glosses, row_title, size)
    width = 2 * MARGIN + MAP_GAP + rows_w + SHARED_ROWS_W + 2 * cell * n
    numbers = number_size(width, cell)
    axes = dict(col_title=text("axis_keys"), cell=cell, highlight_row=qi, number_size=numbers, label_size=size)
    which = text(f"head_projections_{state['projections']}")
    head_w, heat_h = draw.heatmap(
        pic,
        MARGIN,
        PANELS_TOP,
        A_heads[h - 1],
        tokens,
        tokens,
        title=text("head_panel", head=h, which=which),
        row_title=row_title,
        row_label_w=rows_w,
        row_glosses=glosses,  # the English edition's “it” under 它; the columns plain
        **axes,
    )
    average_w, _ = draw.heatmap(
        pic,
        MARGIN + head_w + MAP_GAP,
        PANELS_TOP,
        A_avg,
        [""] * n,  # the same rows as the first map's, beside it
        tokens,
        title=text("head_average", n_heads=n_heads),
        row_label_w=SHARED_ROWS_W,
        **axes,
    )
    draw.colorbar(
        pic,
        MARGIN + head_w - cell * n,
        PANELS_TOP + heat_h + LEGEND_GAP,
        width=LEGEND_WIDTH,
        label=text("legend_weight"),
        size=15,
    )
    pic.width = MARGIN + head_w + MAP_GAP + average_w + MARGIN
    pic.height = PANELS_TOP + heat_h + BELOW_GRID
    if not numbers:
        pic.text(MARGIN, pic.height + 14, text("head_no_numbers", n=n, query=query), size=15, fill=draw.MUTED)
        pic.height += NOTE_H

    readouts, out_labels, lines = {}, {}, []
    shown = [shown_token(t) for t in tokens]  # in the lists of weights: “，” quoted
    rows = [(str(k + 1), A_heads[k, qi]) for k in range(n_heads)] + [("avg", A_avg[qi])]
    for name, row in rows:
        favourite = int(np.argmax(row))
        readouts[f"max_weight[{name}]"] = float(row.max())
        out_labels[f"favourite[{name}]"] = tokens[favourite]
        who = text("head_name", head=name) if name != "avg" else text("head_average_name")
        lines.append(row_line(text, who, query, row, tokens))
    if not numbers:  # the numbers the cells leave out: the outlined row, in both panels
        for who, row in ((text("head_name", head=h), A_heads[h - 1, qi]), (text("head_average_name"), A_avg[qi])):
            lines.append(text("head_row_weights", who=who, query=query, weights=token_values(shown, row, text)))
    readouts.update({f"weight[{tok}]": float(x) for tok, x in zip(tokens, A_heads[h - 1, qi])})
    body = text(
        "head_desc",
        head=h,
        n_heads=n_heads,
        query=query,
        weights=token_values(shown, A_heads[h - 1, qi], text),
        average=token_values(shown, A_avg[qi], text),
    )
    return Frame(pic, readouts, lines, describe(heading, body, text), out_labels)
