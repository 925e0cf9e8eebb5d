"""Lesson 12: self-attention cannot see word order until positions enter the numbers.

Choose the encoding (none / sinusoidal / RoPE), a query position i and a key position j, and a reordering
of the four words. The picture: the score q·k of one query word at i and one key word at j as both
positions shift together (flat for RoPE, which depends only on j − i; moving for sinusoidal encodings,
which are added before the projections), one pair of features as hands on a dial (RoPE turns q and k by
their positions; a sinusoidal encoding's pair is a hand at angle p), and each word's weights in the
original and the reordered sentence, lined up word by word: identical without positions, different with.
Positions are counted from 0 everywhere, as the heatmaps' labels 学习（2）, 语言（3） count them. The heatmaps
follow the sliders: the query word sits at i and the key word at j, the other words at their places in the
sentence (``slot_positions``); the reordering shuffles the words over these same positions.
Computed and drawn in the page (``js/positions.js``); ``compute`` here is the reference, with attn_core.
"""

from functools import partial

import numpy as np

from attn_core.core import attention
from attn_core.examples import Example, four_words
from attn_core.positions import (
    ENCODINGS,
    positioned_qkv,
    sinusoidal_positions,
    with_even_width,
)

from .. import svg as draw
from .base import (
    MARGIN,
    PANEL_TITLE_SIZE,
    PANELS_TOP,
    Box,
    Explorer,
    Frame,
    Text,
    check_token,
    choice,
    describe,
    pick_example,
    token_labels,
    token_values,
)

MAX_POSITION = 15  # the position sliders run 0 … MAX_POSITION
SHIFTS = 20  # the curve shifts both positions by s = 0 … SHIFTS

# ---------------------------------------------------------------- layout (px), the same in positions.js
WIDTH = 920  # the height follows the heatmaps
CURVE = Box(MARGIN, PANELS_TOP, 500, 220)  # top left: the score as both positions shift
DIAL_TITLE_X, DIAL_CENTRE, DIAL_RADIUS = 540, (650, PANELS_TOP + 120), 66  # top right: one pair of features
NOTE_LINE = 19  # the note under the dial, one or two lines
HEATMAPS_TOP = PANELS_TOP + 262
SMALL_CELL, LARGE_CELL, SHORT_SENTENCE = 34, 48, 6  # heatmap cells: small for a sentence longer than 6 tokens
GLOSSED_CELL = 72  # a short sentence's cells in the English edition: room for the glosses under the columns
MAP_GAP = 40  # between the two heatmaps
LEGEND_GAP, LEGEND_WIDTH, BELOW_GRID = 14, 200, 54  # the colour legend under the first heatmap

# the words the page draws with (attn_viz.messages), besides base.BASE_WORDS
WORDS = tuple(
    f"pos_{key}"
    for key in (
        "heading_none",
        "heading_sinusoidal",
        "heading_rope",
        "curve_title",
        "curve_axis",
        "dial_none",
        "dial_sinusoidal",
        "dial_rope",
        "hand",
        "dial_note_none",
        "dial_note_sinusoidal",
        "dial_note_rope",
        "token_at",
        "before",
        "after",
        "axis_keys_by_word",
        "score",
        "shift_none",
        "shift_sinusoidal",
        "shift_rope",
        "reorder_same",
        "reorder_differs",
        "desc",
        "desc_range",
        "desc_constant",
    )
) + ("axis_queries", "axis_keys", "legend_weight")


def position_explorer(example: Example | None = None, query: str = "学习", key: str = "语言") -> Explorer:
    """Lesson 12: word order, with no position encoding, sinusoidal encodings or RoPE.

    The example (default four_words) is widened to an even d_model with a zero feature
    (``positions.with_even_width``: without positions nothing changes). Controls: ``encoding``
    ("none", "sinusoidal", "rope"; starts at "rope"), ``i`` and ``j`` (0 … 15, counted from 0: where
    ``query`` asks and where ``key`` answers; they start at the two words' places in the sentence, 2 and 3
    for 学习 and 语言) and ``order`` (a reordering of the sentence, written as its words).
    The curve shows q·k (not scaled) with ``query`` at i + s and ``key`` at j + s for s = 0 … 20: flat for
    RoPE (only j − i counts) and without positions (nothing counts); it moves for sinusoidal encodings.
    The dial shows pair 0 of the features (one radian per position). The heatmaps show every word's weights
    in the original sentence and in the reordered one, both in the original word order, with ``query`` at i
    and ``key`` at j (``slot_positions``: the heatmaps' highlighted row and cell follow the sliders).
    Computed and drawn in the page (``js/positions.js``); attn_core here.
    """
    text = Text()
    example = pick_example(example, four_words, text)
    tokens = example.tokens
    check_token(query, tokens, text)
    check_token(key, tokens, text, what="key")
    wide = with_even_width(example)
    qi, ki = tokens.index(query), tokens.index(key)
    orders = reorderings(tokens)
    labels, glosses = token_labels(tokens, getattr(example, "gloss", None), text.lang)
    positions = list(range(MAX_POSITION + 1))
    specs = [
        choice(
            "encoding",
            text("pos_control_encoding"),
            ENCODINGS,
            "rope",
            labels=[text(f"pos_encoding_{e}") for e in ENCODINGS],
        ),
        choice("i", text("pos_control_i", token=tokens[qi], position=qi), positions, qi, slider=True),
        choice("j", text("pos_control_j", token=tokens[ki], position=ki), positions, ki, slider=True),
        choice("order", text("pos_control_order"), list(orders), next(iter(orders))),
    ]
    grids = {e: score_grid(wide, qi, ki, e) for e in ENCODINGS}
    every_score = np.concatenate([g.ravel() for g in grids.values()])
    low, high = np.floor(every_score.min()), np.ceil(every_score.max())  # one fixed axis for every setting
    y_range = (float(low), float(high))
    data = dict(
        tokens=tokens,
        labels=labels,
        glosses=glosses,
        X=wide.X,
        W_q=wide.W_q,
        W_k=wide.W_k,
        W_v=wide.W_v,
        qi=qi,
        ki=ki,
        orders={name: list(order) for name, order in orders.items()},
        y_range=list(y_range),
        ticks=axis_ticks(*y_range),
    )
    return Explorer(
        "position_explorer",
        "positions",
        specs,
        data,
        WORDS,
        partial(compute, example=wide, grids=grids, orders=orders, qi=qi, ki=ki),
        partial(render, tokens=tokens, labels=labels, glosses=glosses, qi=qi, ki=ki, y_range=y_range),
        text=text,
        title=text("pos_title"),
    )


def axis_ticks(low: float, high: float) -> list[float]:
    """Whole numbers from ``low`` to ``high`` (both whole), at most about six of them, 0 among them."""
    step = max(1, int(np.ceil((high - low) / 6)))
    return [float(t) for t in range(int(low), int(high) + 1) if t % step == 0]


def reorderings(tokens) -> dict[str, tuple[int, ...]]:
    """A few reorderings of the sentence, named by the new sentence: reversed, the last word first, and
    neighbours swapped. Value: the new order as indices of the original words."""
    n = len(tokens)
    candidates = [
        tuple(range(n - 1, -1, -1)),
        (n - 1, *range(n - 1)),
        tuple(k ^ 1 if k ^ 1 < n else k for k in range(n)),
    ]
    return {" ".join(tokens[k] for k in order): order for order in dict.fromkeys(candidates)}


def score_grid(example: Example, qi: int, ki: int, encoding: str) -> np.ndarray:
    """G[a, b] = q·k (not scaled) with word ``qi`` asking at position a and word ``ki`` answering at b,
    for a, b = 0 … MAX_POSITION + SHIFTS: shape (P, P)."""
    positions = np.arange(MAX_POSITION + SHIFTS + 1)
    W = (example.W_q, example.W_k, example.W_v)
    Q, _, _ = positioned_qkv(np.repeat(example.X[qi : qi + 1], len(positions), 0), *W, positions, encoding)
    _, K, _ = positioned_qkv(np.repeat(example.X[ki : ki + 1], len(positions), 0), *W, positions, encoding)
    return Q @ K.T


def slot_positions(n: int, qi: int, ki: int, i: int, j: int) -> np.ndarray:
    """The positions of the sentence's n slots: slot r at r, but the query word's slot (qi) at i and the key
    word's (ki) at j, the sliders' positions. Word w of the sentence sits in slot w; a reordering puts word
    order[r] in slot r, so it shuffles the words over these same positions."""
    slots = np.arange(n)
    slots[qi], slots[ki] = i, j
    return slots


# ---------------------------------------------------------------- compute: the numbers, from attn_core


def compute(values: dict, *, example, grids, orders, qi, ki) -> dict:
    encoding, i, j = values["encoding"], int(values["i"]), int(values["j"])
    order = np.array(orders[values["order"]])
    shifts = np.arange(SHIFTS + 1)
    curve = grids[encoding][i + shifts, j + shifts]
    W = (example.W_q, example.W_k, example.W_v)
    slots = slot_positions(len(order), qi, ki, i, j)
    A = attention(*positioned_qkv(example.X, *W, slots, encoding)).A
    reordered = attention(*positioned_qkv(example.X[order], *W, slots, encoding)).A
    back = np.argsort(order)  # row r of the new sentence is word order[r]; word w sits at back[w]
    A_by_word = reordered[np.ix_(back, back)]
    if encoding == "sinusoidal":  # pair 0 of the position vectors themselves: (sin p, cos p)
        hands = [sinusoidal_positions(max(i, j) + 1, example.X.shape[1])[p, :2] for p in (i, j)]
    else:
        Q, K, _ = positioned_qkv(example.X[[qi, ki]], *W, np.array([i, j]), encoding)
        hands = [Q[0, :2], K[1, :2]]
    ghosts = positioned_qkv(example.X[[qi, ki]], *W, np.zeros(2), "none")[:2] if encoding == "rope" else None
    return dict(
        encoding=encoding,
        i=i,
        j=j,
        order=order,
        slots=slots,
        shifts=shifts,
        curve=curve,
        A=A,
        A_by_word=A_by_word,
        hands=hands,
        ghosts=None if ghosts is None else [ghosts[0][0, :2], ghosts[1][1, :2]],
    )


# ---------------------------------------------------------------- render: the picture


def render(explorer: Explorer, state: dict, *, tokens, labels, glosses, qi, ki, y_range) -> Frame:
    text = explorer.text
    encoding, i, j, curve = state["encoding"], state["i"], state["j"], state["curve"]
    query, key = tokens[qi], tokens[ki]  # words in the text; the glossed labels on the axes
    heading = text(f"pos_heading_{encoding}", query=query, key_word=key, i=i, j=j)
    pic = explorer.picture(heading, WIDTH)

    draw.line_chart(
        pic,
        CURVE.x,
        CURVE.y,
        state["shifts"],
        curve,
        width=CURVE.width,
        height=CURVE.height,
        vmin=y_range[0],
        vmax=y_range[1],
        title=text("pos_curve_title", query=query, key_word=key),
        x_label=text("pos_curve_axis"),
        mark=0,
        ticks=axis_ticks(*y_range),
        tick_digits=0,
    )
    _dial(pic, state, text)

    n = len(tokens)
    cell = SMALL_CELL if n > SHORT_SENTENCE else GLOSSED_CELL if glosses else LARGE_CELL
    glosses = glosses if n <= SHORT_SENTENCE else None  # a long sentence's cells have no room for them
    order, back, slots = state["order"], np.argsort(state["order"]), state["slots"]
    axes = dict(
        cell=cell, highlight_row=qi, highlight_cell=(qi, ki), row_title=text("axis_queries"), col_glosses=glosses
    )
    before_w, heat_h = draw.heatmap(
        pic,
        MARGIN,
        HEATMAPS_TOP,
        state["A"],
        [text("pos_token_at", token=t, position=int(slots[w])) for w, t in enumerate(labels)],
        tokens,
        title=text("pos_before", sentence=" ".join(tokens)),
        col_title=text("axis_keys"),
        **axes,
    )
    after_w, _ = draw.heatmap(
        pic,
        MARGIN + before_w + MAP_GAP,
        HEATMAPS_TOP,
        state["A_by_word"],
        [text("pos_token_at", token=t, position=int(slots[back[w]])) for w, t in enumerate(labels)],
        tokens,
        title=text("pos_after", sentence=" ".join(tokens[k] for k in order)),
        col_title=text("pos_axis_keys_by_word"),
        **axes,
    )
    draw.colorbar(
        pic,
        MARGIN + before_w - cell * n,
        HEATMAPS_TOP + heat_h + LEGEND_GAP,
        width=LEGEND_WIDTH,
        label=text("legend_weight"),
    )
    pic.width = max(WIDTH, MARGIN + before_w + MAP_GAP + after_w + MARGIN)
    pic.height = HEATMAPS_TOP + heat_h + BELOW_GRID

    score, spread = float(curve[0]), float(curve.max() - curve.min())
    change = float(np.abs(state["A_by_word"] - state["A"]).max())
    readouts = {"score": score, "offset": float(j - i), "shift_spread": spread, "weight_change": change}
    readouts.update({f"weight[{t}]": float(w) for t, w in zip(tokens, state["A"][qi])})
    readouts.update({f"reordered_weight[{t}]": float(w) for t, w in zip(tokens, state["A_by_word"][qi])})
    sentence = " ".join(tokens[k] for k in order)
    lines = [
        text("pos_score", query=query, key_word=key, i=i, j=j, score=draw.fmt(score), offset=draw.fmt(j - i, 0)),
        text(
            f"pos_shift_{encoding}",
            shifts=SHIFTS,
            score=draw.fmt(score),
            low=draw.fmt(curve.min()),
            high=draw.fmt(curve.max()),
        ),
        text(
            "pos_reorder_same" if encoding == "none" else "pos_reorder_differs",
            sentence=sentence,
            change=draw.fmt(change),
        ),
    ]
    low, high = draw.fmt(curve.min()), draw.fmt(curve.max())
    scores = text("pos_desc_constant", score=low) if low == high else text("pos_desc_range", low=low, high=high)
    body = text(
        "pos_desc",
        query=query,
        key_word=key,
        shifts=SHIFTS,
        scores=scores,
        sentence=sentence,
        before=token_values(tokens, state["A"][qi], text),
        after=token_values(tokens, state["A_by_word"][qi], text),
    )
    return Frame(pic, readouts, lines, describe(heading, body, text))


def _dial(pic, state, text):
    """Pair 0 of the features (one radian per position) as hands on a dial, with the angle between them;
    the hands are named in a legend beside the dial, so that two hands at one angle (i = j) never hide
    each other's names (as positions.js)."""
    encoding, i, j = state["encoding"], state["i"], state["j"]
    pic.text(DIAL_TITLE_X, PANELS_TOP + 20, text(f"pos_dial_{encoding}"), size=PANEL_TITLE_SIZE, bold=True)
    vectors = [np.asarray(h, dtype=float) for h in state["hands"] + (state["ghosts"] or [])]
    longest = max(float(np.hypot(*h)) for h in vectors) or 1.0
    q, k = (h / longest for h in state["hands"])
    name_q, name_k = ("PE", "PE") if encoding == "sinusoidal" else ("q", "k")
    named = [
        (draw.BAR, text("pos_hand", name=name_q, position=i)),
        (draw.ACCENT, text("pos_hand", name=name_k, position=j)),
    ]
    hands = [(q[0], q[1], draw.BAR, "", False), (k[0], k[1], draw.ACCENT, "", False)]
    if state["ghosts"] is not None:
        hands += [
            (g[0] / longest, g[1] / longest, colour, "", True)
            for g, colour in zip(state["ghosts"], (draw.BAR, draw.ACCENT))
        ]
    cx, cy = DIAL_CENTRE
    draw.dial(pic, cx, cy, DIAL_RADIUS, hands, arc=(0, 1))
    for n, (colour, label) in enumerate(named):
        ly = cy - DIAL_RADIUS + 10 + 24 * n
        pic.line(cx + DIAL_RADIUS + 18, ly - 5, cx + DIAL_RADIUS + 38, ly - 5, stroke=colour, sw=3)
        pic.text(cx + DIAL_RADIUS + 44, ly, label, size=15, fill=colour, bold=True)
    note = text(f"pos_dial_note_{encoding}", offset=draw.fmt(j - i, 0))
    for n, line in enumerate(note.split("\n")):
        pic.text(DIAL_TITLE_X, cy + DIAL_RADIUS + 46 + NOTE_LINE * n, line, size=14, fill=draw.MUTED)
