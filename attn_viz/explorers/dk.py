"""Lessons 03–04: why the scores are divided by √d_k.

A query q and four keys k_j are random vectors of width d_k (the example's words are borrowed as labels
only, and the heading says so); the raw scores q·k_j then spread like √d_k.
Unscaled, softmax turns a wide spread into a near one-hot row and its gradient vanishes: that row stops
learning. Divided by √d_k the scores keep a spread of about 1 and the weights stay in a working range.
The picture: the scores going into softmax and the weights coming out, as bars; under them two gauges,
the entropy of the weights and the size of softmax's gradient.
"""

import math
from functools import partial

import numpy as np

from attn_core.core import scale, scores, softmax
from attn_core.examples import four_words
from attn_core.gradients import softmax_jacobian

from .. import svg as draw
from .base import (
    MARGIN,
    PANELS_TOP,
    Box,
    Explorer,
    Frame,
    Text,
    check_seed,
    check_token,
    d_k_spec,
    describe,
    entropy,
    mode_text,
    scaled_spec,
    token_labels,
    token_values,
)

DK_OPTIONS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512)
DEFAULT_D_K = 64
STUCK_WEIGHT, STUCK_GRADIENT = 0.95, 0.05  # above / below these, the readouts say the row barely learns

DRAW_DECIMALS = 6  # the random vectors, rounded: the page receives them as text in the notebook

# ---------------------------------------------------------------- layout (px), the same in dk.js
WIDTH, HEIGHT = 820, 470
SCORE_BARS = Box(MARGIN, PANELS_TOP, 370, 310)  # left: the scores going into softmax
WEIGHT_BARS = Box(420, PANELS_TOP, 390, 310)  # right: the weights coming out
SCORE_HEADROOM = 1.3  # score axis ≥ 1.3 × the largest |score| over every d_k: room for the labels
AXIS_NOTE_DX, AXIS_NOTE_DY = 52, 44  # "the same axis for every d_k", under the scores' title
GAUGE_WIDTH = 300
ENTROPY_GAUGE_TOP, GRADIENT_GAUGE_TOP = 362, 414  # the two gauges under the bars

# the words the page draws with (attn_viz.messages), besides base.BASE_WORDS
WORDS = (
    "dk_heading",
    "dk_scores",
    "dk_axis_fixed",
    "dk_weights",
    "dk_entropy_gauge",
    "dk_gradient_gauge",
    "dk_max_weight",
    "dk_entropy",
    "dk_gradient",
    "dk_spread",
    "dk_stuck",
    "dk_desc",
)


def dk_explorer(query: str = "学习", seed: int = 0) -> Explorer:
    """Why scores are divided by √d_k: random q and 4 keys, d_k from 1 to 512, scaled or not.

    For every d_k the query q and the keys k_j (labelled 我 / 喜欢 / 学习 / 语言, labels only) are the first d_k
    columns of one seeded standard-normal draw of shape (5, 512), rounded to 6 decimals: the same d_k
    always shows the same vectors, and moving the slider adds dimensions instead of redrawing
    everything. The score axis is the same for every d_k and for both modes (it fits the raw scores of
    every d_k), so the growth of the raw scores with d_k is seen, and dividing by √d_k shrinks the bars
    on that same axis rather than changing the axis. The raw scores
    q·k_j then spread like √d_k. Unscaled, softmax turns that spread into a near one-hot row and its
    gradient (Frobenius norm of the Jacobian, ``attn_core.gradients.softmax_jacobian``) vanishes; divided
    by √d_k the scores keep a spread of about 1 and the weights stay in a working range.

    With the default ``seed=0``: unscaled, the max weight rises from 0.27 (d_k = 1) to 1.00 (d_k ≥ 32)
    and the gradient falls to under 1% of its uniform-weights size from d_k = 32; scaled, the max weight
    stays between 0.27 and 0.91 and the gradient at 28–100% of that size. The score spread at d_k = 512
    is 22.9 against √512 = 22.6.
    Controls: ``d_k`` (one of DK_OPTIONS) and ``scaled`` (True = divide by √d_k; starts False).
    Computed and drawn in the page (``js/dk.js``); attn_core here.
    """
    text = Text()
    tokens = four_words().tokens
    check_token(query, tokens, text)
    check_seed(seed, text)
    n = len(tokens)
    labels, glosses = token_labels(tokens, four_words().gloss, text.lang)
    # q is row 0, the keys rows 1..n; a smaller d_k takes the first d_k columns
    draws = np.round(np.random.default_rng(seed).standard_normal((1 + n, DK_OPTIONS[-1])), DRAW_DECIMALS)
    grad_uniform = float(np.linalg.norm(softmax_jacobian(np.full(n, 1.0 / n))))  # the gauge's 100%
    fixed = dict(draws=draws, grad_uniform=grad_uniform, tokens=tokens)
    # one score axis for every d_k and both modes: ticking "divide by √d_k" shrinks the bars on the same axis
    # instead of rescaling it, and the growth of the raw scores with d_k stays in sight
    top = nice_top(
        SCORE_HEADROOM
        * max(
            np.abs(compute({"d_k": d, "scaled": scaled}, **fixed)["s"]).max()
            for d in DK_OPTIONS
            for scaled in (True, False)
        )
    )
    tops = {"scaled": top, "unscaled": top}
    specs = [d_k_spec(DK_OPTIONS, DEFAULT_D_K), scaled_spec(False, text)]
    qi = tokens.index(query)
    data = dict(tokens=tokens, labels=labels, glosses=glosses, qi=qi, draws=draws, grad_uniform=grad_uniform, tops=tops)
    return Explorer(
        "dk_explorer",
        "dk",
        specs,
        data,
        WORDS,
        partial(compute, **fixed),
        partial(render, query=labels[qi], grad_uniform=grad_uniform, glosses=glosses, tops=tops),
        text=text,
        title=text("dk_title"),
    )


# ---------------------------------------------------------------- compute: the numbers, from attn_core


def compute(values: dict, *, draws, grad_uniform, tokens) -> dict:
    d_k, scaled = int(values["d_k"]), bool(values["scaled"])
    q, K = draws[:1, :d_k], draws[1:, :d_k]
    raw = scores(q, K)
    s = scale(raw, d_k) if scaled else raw
    a = softmax(s)[0]
    g = float(np.linalg.norm(softmax_jacobian(a)))
    return dict(
        d_k=d_k,
        scaled=scaled,
        raw=raw[0],
        s=s[0],
        a=a,
        grad=g,
        grad_ratio=g / grad_uniform,
        entropy=entropy(a),
        entropy_max=math.log(len(tokens)),
        std=float(np.std(raw[0])),
        sqrt=math.sqrt(d_k),
        tokens=tokens,
    )


# ---------------------------------------------------------------- render: the picture


def render(explorer: Explorer, state: dict, *, query, grad_uniform, glosses, tops) -> Frame:
    text, tokens, a = explorer.text, state["tokens"], state["a"]
    heading = text("dk_heading", query=query, d_k=state["d_k"], mode=mode_text(state["scaled"], text))
    pic = explorer.picture(heading, WIDTH, HEIGHT)
    top = tops["scaled" if state["scaled"] else "unscaled"]
    draw.bars(
        pic,
        SCORE_BARS.x,
        SCORE_BARS.y,
        state["s"],
        tokens,
        width=SCORE_BARS.width,
        height=SCORE_BARS.height,
        vmin=-top,
        vmax=top,
        ticks=(-top, 0.0, top),
        title=text("dk_scores", formula="q·k/√d_k" if state["scaled"] else "q·k"),
        glosses=glosses,
    )
    note = text("dk_axis_fixed", top=draw.fmt(top, 1))
    pic.text(SCORE_BARS.x + AXIS_NOTE_DX, SCORE_BARS.y + AXIS_NOTE_DY, note, size=14, fill=draw.MUTED)
    draw.bars(
        pic,
        WEIGHT_BARS.x,
        WEIGHT_BARS.y,
        a,
        tokens,
        width=WEIGHT_BARS.width,
        height=WEIGHT_BARS.height,
        title=text("dk_weights"),
        glosses=glosses,
    )
    draw.gauge(
        pic,
        MARGIN,
        ENTROPY_GAUGE_TOP,
        width=GAUGE_WIDTH,
        value=state["entropy"],
        vmax=state["entropy_max"],
        label=text("dk_entropy_gauge"),
        text=f"{draw.fmt(state['entropy'])} / ln 4 = {draw.fmt(state['entropy_max'])}",
    )
    draw.gauge(
        pic,
        MARGIN,
        GRADIENT_GAUGE_TOP,
        width=GAUGE_WIDTH,
        value=state["grad_ratio"],
        vmax=1.0,
        label=text("dk_gradient_gauge"),
        text=draw.fmt(state["grad"], 3) + text("in_brackets", text=percent(state["grad_ratio"])),
    )

    readouts = dict(
        d_k=float(state["d_k"]),
        sqrt_d_k=state["sqrt"],
        max_weight=float(a.max()),
        entropy=state["entropy"],
        entropy_max=state["entropy_max"],
        grad_norm=state["grad"],
        grad_uniform=grad_uniform,
        grad_ratio=state["grad_ratio"],
        score_std=state["std"],
    )
    readouts.update({f"weight[{tok}]": float(w) for tok, w in zip(tokens, a)})
    lines = [
        text("dk_max_weight", weight=draw.fmt(a.max())),
        text("dk_entropy", entropy=draw.fmt(state["entropy"]), most=draw.fmt(state["entropy_max"])),
        text("dk_gradient", gradient=draw.fmt(state["grad"], 3), percent=percent(state["grad_ratio"])),
        text("dk_spread", std=draw.fmt(state["std"], 1), d_k=state["d_k"], sqrt_d_k=draw.fmt(state["sqrt"], 1)),
    ]
    if a.max() > STUCK_WEIGHT and state["grad_ratio"] < STUCK_GRADIENT:
        lines.append(text("dk_stuck"))
    body = text(
        "dk_desc",
        scores=token_values(tokens, state["s"], text),
        weights=token_values(tokens, a, text),
        entropy=draw.fmt(state["entropy"]),
        most=draw.fmt(state["entropy_max"]),
        percent=percent(state["grad_ratio"]),
    )
    return Frame(pic, readouts, lines, describe(heading, body, text), labels={"argmax": tokens[int(np.argmax(a))]})


def nice_top(m):
    """Smallest of 1, 2, 3, 5 × 10^k that is ≥ m (axis limit for score bars)."""
    m = max(float(m), 1e-9)
    k = 10.0 ** math.floor(math.log10(m))
    for f in (1, 2, 3, 5, 10):
        if f * k >= m - 1e-12:
            return f * k
    return 10 * k  # pragma: no cover


def percent(r):
    """A ratio as a percentage: one decimal below 10%."""
    return f"{r * 100:.1f}%" if r < 0.1 else f"{r * 100:.0f}%"
