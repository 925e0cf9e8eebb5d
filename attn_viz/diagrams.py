"""Diagrams of the course, drawn by our own code: the five steps with their shapes, one query row worked
through by hand, multi-head attention, the encoder block (post-LN and pre-LN) and the causal mask.

Every diagram takes its numbers and shapes from ``attn_core`` (the running example ``four_words()`` and the
functions the lessons call), so a change there changes the picture. Each function returns a
:class:`Diagram`: an SVG document (``.svg``) with a ``<title>`` and a ``<desc>`` that a screen reader reads,
built with the rules of :mod:`attn_viz.svg` (text at least 14 px, WCAG AA contrast, the course's font family,
deterministic text). Words come from :mod:`attn_viz.messages` in the language of ``lang`` (default: the
course's current language, ``attn_core.set_lang``).

In a notebook the last expression ``diagrams.steps(current=2)`` shows the picture. The output carries the
picture twice: as an HTML ``<img>`` whose ``alt`` is the description (what JupyterLab shows, also in a saved
notebook it has not run yet: its sanitizer keeps an image and drops inline SVG) and as ``image/svg+xml``
(what other viewers of a saved notebook, e.g. GitHub, show).
"""

import html
import re
from dataclasses import dataclass

import numpy as np

from attn_core import causal_mask, examples, get_lang, multi_head_attention
from attn_core.examples import four_words

from . import svg as draw
from . import svgfont
from .messages import msg

BOX = "#f2f2f2"  # a matrix that is not this lesson's step
BOX_STROKE = "#8c8c8c"
LIT = "#fdebd3"  # this lesson's step
LIT_STROKE = draw.ACCENT
LIT_INK = "#8a3c00"  # the step's name on white or on LIT
ALLOWED = "#e8f0f7"  # a mask cell that may be looked at
ARROW = "#555555"
STEPS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class Diagram:
    """One picture: the SVG document and the words a screen reader reads (title and description)."""

    svg: str
    title: str
    description: str
    lang: str | None = None  # the language it was drawn in (None: the current one)

    def alt_text(self):
        return msg.text("alt_text", self.lang, title=self.title, description=self.description)

    def html(self):
        """An ``<img>`` of the SVG whose ``alt`` is the description."""
        return (
            f'<img src="{draw.esc(draw.data_uri(self.svg))}" alt="{draw.esc(self.alt_text())}" '
            'style="max-width:100%;height:auto"/>'
        )

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": self.alt_text(), "text/html": self.html(), "image/svg+xml": self.svg}

    def __str__(self):
        return self.svg


def _diagram(svg, lang):
    """The finished Diagram: the SVG carries the glyphs it draws (``svgfont``), so its hanzi draw also as
    an ``<img>`` on a machine without a CJK font."""
    return Diagram(with_font(svg.render()), svg.title, svg.description, lang or get_lang())


def with_font(document):
    """``document`` (an SVG) with an embedded subset of the course font for the characters of its
    ``<text>`` elements, named first in its font-family."""
    drawn = "".join(
        html.unescape(re.sub(r"<[^>]+>", "", t)) for t in re.findall(r"<text[^>]*>(.*?)</text>", document, flags=re.S)
    )  # a subscript's <tspan> is markup, not drawn characters
    head_end = document.index(">") + 1
    head = document[:head_end].replace(
        f'font-family="{draw.FONT_FAMILY}"', f"font-family=\"'{svgfont.FAMILY}', {draw.FONT_FAMILY}\""
    )
    return head + svgfont.font_face(drawn) + document[head_end:]


def _text(key, lang, **fields):
    return msg.text(key, lang, **fields)


def _shape(shape):
    return "×".join(str(s) for s in shape)


def _lines(svg, x, y, text, size=15, anchor="middle", fill=draw.INK, bold=False, gap=None):
    """Text with "\\n" as line breaks, the first line's baseline at y."""
    gap = gap or size + 4
    for k, line in enumerate(text.split("\n")):
        svg.text(x, y + gap * k, line, size=size, anchor=anchor, fill=fill, bold=bold)


def _arrow(svg, x1, y1, x2, y2, colour=ARROW, sw=2.0):
    """A line from (x1, y1) to (x2, y2) with a head at the end."""
    length = float(np.hypot(x2 - x1, y2 - y1))
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    bx, by = x2 - 9 * ux, y2 - 9 * uy
    svg.line(x1, y1, bx, by, stroke=colour, sw=sw)
    svg.polygon([(x2, y2), (bx - 5 * uy, by + 5 * ux), (bx + 5 * uy, by - 5 * ux)], fill=colour)


MATRIX_SIZES = (18, 15, 14)  # px: a matrix box's symbol, its shape in numbers, in letters
STRIP_SIZES = (20, 17, 16)  # the same in the five-step strip (lessons 01–06, shown wide)


def _matrix(svg, x, y, w, h, symbol, numbers, letters=None, lit=False, sizes=MATRIX_SIZES):
    """A matrix as a box: its symbol, its shape in numbers (4×3) and, below, in letters (n×d_model)."""
    svg.rect(x, y, w, h, fill=LIT if lit else BOX, stroke=LIT_STROKE if lit else BOX_STROKE, sw=3 if lit else 1.5)
    cx = x + w / 2
    rows = 3 if letters else 2
    line = sizes[1] + 4  # from one line to the next
    top = y + h / 2 - (rows * line) / 2 + sizes[0] - 3
    svg.text(cx, top, symbol, size=sizes[0], anchor="middle", bold=True)
    svg.text(cx, top + line + 1, numbers, size=sizes[1], anchor="middle")
    if letters:
        svg.text(cx, top + 2 * line + 1, letters, size=sizes[2], anchor="middle", fill=draw.MUTED)


# ---------------------------------------------------------------- 1. the five steps


def steps(current=None, example=None, lang=None):
    """The five steps as a strip, X → Q, K, V → QKᵀ → S = QKᵀ/√d_k → A = softmax(S) → O = AV, each matrix with
    its shape from ``example.attention()`` (default ``four_words()``); ``current`` (1–5) lights one step."""
    if current is not None and current not in STEPS:
        raise ValueError(f"current must be one of {STEPS} or None, got {current!r}.")
    ex = example or four_words()
    t = ex.attention()
    d_k = t.d_k
    n_words = t.X.shape[0]
    box_w, gap, left = 112, 72, 12  # text ≥ 16 px: it reads at 14 px even where the page scales the strip down
    top, box_h = 104, 100
    small_h, small_gap = 76, 10
    qkv_h = 3 * small_h + 2 * small_gap
    mid = top + qkv_h / 2
    width = left * 2 + 6 * box_w + 5 * gap
    height = top + qkv_h + 20
    names = [_text(f"dg_step_{k}", lang) for k in STEPS]
    ops = ["·W", "QKᵀ", f"÷√{d_k}", "softmax", "·V"]
    heading = _text("dg_steps_heading", lang, n=n_words)
    lit_note = _text("dg_steps_lit", lang, step=current, name=names[current - 1].replace("\n", " ")) if current else ""
    name_rows = max(name.count("\n") + 1 for name in names)  # every step's number on one row, whatever its name
    matrices = [
        ("X", t.X.shape, "n×d_model"),
        ("Q", t.Q.shape, "n×d_k"),
        ("K", t.K.shape, "n×d_k"),
        ("V", t.V.shape, "n×d_v"),
        ("QKᵀ", t.QKT.shape, "n×n"),
        ("S", t.S.shape, "n×n"),
        ("A", t.A.shape, "n×n"),
        ("O", t.O.shape, "n×d_v"),
    ]
    shapes = msg.text("list_sep", lang).join(f"{sym} {_shape(shape)}" for sym, shape, _ in matrices)
    description = _text("dg_steps_desc", lang, shapes=shapes, d_k=d_k) + (
        _text("dg_sentence_sep", lang) + lit_note if current else ""
    )
    svg = draw.Svg(width, height, title=_text("dg_steps_title", lang), description=description)
    svg.text(left, 24, heading, size=18, bold=True)
    if current:
        svg.text(width - left, 24, lit_note, size=18, anchor="end", fill=LIT_INK, bold=True)

    def col(k):
        return left + k * (box_w + gap)

    # column 0: X; column 1: Q, K, V stacked; columns 2-5: QKᵀ, S, A, O
    big = dict(sizes=STRIP_SIZES)
    _matrix(svg, col(0), mid - box_h / 2, box_w, box_h, "X", _shape(t.X.shape), "n×d_model", lit=False, **big)
    for r, (sym, shape, letters) in enumerate(matrices[1:4]):
        y = top + r * (small_h + small_gap)
        _matrix(svg, col(1), y, box_w, small_h, sym, _shape(shape), letters, current == 1, **big)
    for k, (sym, shape, letters) in enumerate(matrices[4:], start=2):
        label = {"S": "S = QKᵀ/√d_k", "A": "A = softmax(S)", "O": "O = AV"}.get(sym, sym)
        _matrix(svg, col(k), mid - box_h / 2, box_w, box_h, sym, _shape(shape), letters, current == k, **big)
        if sym != "QKᵀ":
            svg.text(col(k) + box_w / 2, mid + box_h / 2 + 24, label, size=16, anchor="middle", fill=draw.MUTED)
    for k in STEPS:
        x1, x2 = col(k - 1) + box_w + 4, col(k) - 4
        lit = current == k
        colour = LIT_STROKE if lit else ARROW
        if k == 1:
            for r in range(3):
                _arrow(svg, x1, mid, x2, top + r * (small_h + small_gap) + small_h / 2, colour, 3 if lit else 2)
        elif k == 2:
            _arrow(svg, x1, top + small_h / 2, x2, mid - 12, colour, 3 if lit else 2)
            _arrow(svg, x1, top + small_h * 1.5 + small_gap, x2, mid, colour, 3 if lit else 2)
        else:
            _arrow(svg, x1, mid, x2, mid, colour, 3 if lit else 2)
        if k == 5:  # V comes back for the weighted sum
            vy = top + 2 * (small_h + small_gap) + small_h / 2
            svg.polyline(
                [(col(1) + box_w, vy + 18), (col(5) - 26, vy + 18), (col(5) - 26, mid + 14)],
                stroke=colour,
                sw=1.5,
                dash="5 4",
            )
        # the step's number and name over the box it produces (step 2 over QKᵀ, not over the arrow into it,
        # lesson 02's "2 score" read as naming Q and K); the arrow into that box carries the operation
        bx = col(k) + box_w / 2
        name_top = top - 16 - 20 * (name_rows - 1)
        svg.text(bx, name_top - 22, str(k), size=18, anchor="middle", fill=LIT_INK if lit else draw.INK, bold=True)
        _lines(svg, bx, name_top, names[k - 1], size=16, fill=LIT_INK if lit else draw.INK, bold=lit, gap=20)
        if k > 1:  # a short stem from the name down to its box (step 1's Q, K, V start right under it)
            svg.line(bx, top - 4, bx, mid - box_h / 2 - 6, stroke=LIT_STROKE if lit else BOX_STROKE, sw=1.5)
        cx = (x1 + x2) / 2
        svg.text(cx, mid - 10 if k != 2 else mid + 28, ops[k - 1], size=16, anchor="middle", fill=draw.MUTED)
    return _diagram(svg, lang)


# ---------------------------------------------------------------- 2. one query row by hand


def query_row(token="学习", example=None, lang=None):
    """One query (default 学习) through the four words: q·k for each key, ÷√d_k, softmax, the weighted values
    and their sum, with every number from ``example.attention()`` (default ``four_words()``)."""
    ex = example or four_words()
    t = ex.attention()
    i = ex.index(token)
    d_k = t.d_k
    keys = ex.tokens
    q = t.Q[i]

    def vec(v):
        return "[" + ", ".join(draw.fmt(x) for x in v) + "]"

    heads = [_text("dg_row_key", lang), "k", "q·k", f"÷√{d_k}", "softmax", _text("dg_row_weighted", lang)]
    col_x = [12, 92, 292, 392, 482, 642]
    col_w = [70, 190, 90, 80, 150, 220]
    row_h, top = 44, 96
    width = col_x[-1] + col_w[-1] + 12
    height = top + row_h * len(keys) + 166  # room for the note's four lines
    weights = msg.text("list_sep", lang).join(
        msg.text("token_value", lang, token=k, value=draw.fmt(a)) for k, a in zip(keys, t.A[i])
    )
    description = _text(
        "dg_row_desc",
        lang,
        token=token,
        q=vec(q),
        scores=msg.text("list_sep", lang).join(
            msg.text("token_value", lang, token=k, value=draw.fmt(s)) for k, s in zip(keys, t.QKT[i])
        ),
        d_k=d_k,
        weights=weights,
        o=vec(t.O[i]),
    )
    svg = draw.Svg(width, height, title=_text("dg_row_title", lang, token=token), description=description)
    svg.text(12, 26, _text("dg_row_heading", lang, token=token, q=vec(q)), size=17, bold=True)
    for c, head in enumerate(heads):
        svg.text(col_x[c] + col_w[c] / 2, top - 14, head, size=15, anchor="middle", fill=draw.MUTED, bold=True)
    svg.line(12, top - 6, width - 12, top - 6, stroke=draw.GRID)
    for j, key in enumerate(keys):
        y = top + row_h * j
        base = y + row_h / 2 + 6
        if j == i:
            svg.rect(12, y + 2, width - 24, row_h - 4, fill=BOX)
        svg.text(col_x[0] + col_w[0] / 2, base, key, size=16, anchor="middle", bold=j == i)
        svg.text(col_x[1] + col_w[1] / 2, base, vec(t.K[j]), size=15, anchor="middle")
        svg.text(col_x[2] + col_w[2] / 2, base, draw.fmt(t.QKT[i, j]), size=15, anchor="middle")
        svg.text(col_x[3] + col_w[3] / 2, base, draw.fmt(t.S[i, j]), size=15, anchor="middle")
        bar_x, bar_max = col_x[4] + 4, 90
        svg.rect(bar_x, y + 12, bar_max, row_h - 24, fill="#ffffff", stroke=draw.GRID)
        svg.rect(bar_x, y + 12, bar_max * float(t.A[i, j]), row_h - 24, fill=draw.BAR)
        svg.text(bar_x + bar_max + 8, base, draw.fmt(t.A[i, j]), size=15, bold=True)
        svg.text(col_x[5] + col_w[5] / 2, base, vec(t.A[i, j] * t.V[j]), size=15, anchor="middle")
        for c in (2, 3, 4):  # arrows between the number columns
            _arrow(svg, col_x[c] - 14, base - 5, col_x[c] + 2, base - 5, colour=draw.GRID, sw=1.5)
    bottom = top + row_h * len(keys)
    svg.line(col_x[5], bottom + 4, col_x[5] + col_w[5], bottom + 4, stroke=draw.INK, sw=1.5)
    svg.text(col_x[5] + col_w[5] / 2, bottom + 28, vec(t.O[i]), size=16, anchor="middle", bold=True)
    svg.text(col_x[5] + col_w[5] / 2, bottom + 50, _text("dg_row_sum", lang, token=token), size=15, anchor="middle")
    total = draw.fmt(t.A[i].sum())
    svg.text(col_x[4] + 4, bottom + 28, _text("dg_row_sum_one", lang, total=total), size=14, fill=draw.MUTED)
    note = _text("dg_row_note", lang, d_k=d_k, sqrt=draw.fmt(np.sqrt(d_k)))
    _lines(svg, 12, bottom + 84, note, size=14, anchor="start", fill=draw.MUTED, gap=20)
    return _diagram(svg, lang)


# ---------------------------------------------------------------- 3. multi-head attention


def multi_head(n=5, d_model=12, n_heads=3, lang=None):
    """Split, per-head attention, concat and W_O, with the shapes ``attn_core.multi_head_attention`` gives
    for n words of width d_model and ``n_heads`` heads (default: lesson 8's 5, 12 and 3)."""
    if not 1 <= n_heads <= 4:
        raise ValueError(f"the picture draws 1 to 4 heads, got n_heads={n_heads!r}.")
    X = np.ones((n, d_model))
    W = np.eye(d_model)
    mh = multi_head_attention(X, X, W, W, W, W, n_heads)
    heads = mh.heads
    d_head = heads.Q.shape[-1]
    box_w, gap, left = 112, 34, 12
    head_h, head_gap = 78, 14
    top = 92
    body_h = n_heads * head_h + (n_heads - 1) * head_gap
    mid = top + body_h / 2
    width = left * 2 + 7 * box_w + 6 * gap
    height = top + body_h + 50

    def col(k):
        return left + k * (box_w + gap)

    shapes = {
        "X": _shape(X.shape),
        "QKV": _shape((n, d_model)),
        "head": _shape(heads.Q.shape[-2:]),
        "A": _shape(heads.A.shape[-2:]),
        "O_head": _shape(heads.O.shape[-2:]),
        "concat": _shape(mh.concat.shape),
        "out": _shape(mh.O.shape),
    }
    description = _text(
        "dg_mh_desc",
        lang,
        n_heads=n_heads,
        d_head=d_head,
        d_model=d_model,
        **{k: v for k, v in shapes.items()},
    )
    svg = draw.Svg(width, height, title=_text("dg_mh_title", lang, n_heads=n_heads), description=description)
    headers = [_text(f"dg_mh_col_{k}", lang, n_heads=n_heads) for k in range(7)]
    for k, head in enumerate(headers):
        _lines(svg, col(k) + box_w / 2, 22, head, size=15, fill=draw.INK, bold=True)
    one = dict(lit=False)
    _matrix(svg, col(0), mid - 45, box_w, 90, "X", shapes["X"], "n×d_model", **one)
    _matrix(svg, col(1), mid - 60, box_w, 120, "Q, K, V", shapes["QKV"], "n×h·d_head", **one)
    # h·d_head equals d_model only because this picture's W_Q, W_K, W_V are d_model × d_model
    here = _text("dg_mh_qkv_here", lang)
    svg.text(col(1) + box_w / 2, mid + 60 + 20, here, size=14, anchor="middle", fill=draw.MUTED)
    _matrix(svg, col(5), mid - 45, box_w, 90, "concat", shapes["concat"], "n×h·d_head", **one)
    _matrix(svg, col(6), mid - 45, box_w, 90, "O", shapes["out"], "n×d_model", **one)
    _arrow(svg, col(0) + box_w + 3, mid, col(1) - 3, mid)
    svg.text(col(1) - gap / 2, mid - 10, "·W", size=14, anchor="middle", fill=draw.MUTED)
    for h in range(n_heads):
        y = top + h * (head_h + head_gap)
        cy = y + head_h / 2
        sub = str(h + 1)
        _matrix(svg, col(2), y, box_w, head_h, f"Q{sub} K{sub} V{sub}", shapes["head"], "n×d_head", lit=True)
        _matrix(svg, col(3), y, box_w, head_h, f"A{sub}", shapes["A"], "n×n", lit=True)
        _matrix(svg, col(4), y, box_w, head_h, f"O{sub}", shapes["O_head"], "n×d_head", lit=True)
        _arrow(svg, col(1) + box_w + 3, mid, col(2) - 3, cy)
        _arrow(svg, col(2) + box_w + 3, cy, col(3) - 3, cy, colour=LIT_STROKE)
        _arrow(svg, col(3) + box_w + 3, cy, col(4) - 3, cy, colour=LIT_STROKE)
        _arrow(svg, col(4) + box_w + 3, cy, col(5) - 3, mid)
    _arrow(svg, col(5) + box_w + 3, mid, col(6) - 3, mid)
    svg.text(col(6) - gap / 2, mid - 10, "W_O", size=14, anchor="middle", fill=draw.MUTED)
    svg.text(
        left,
        height - 14,
        _text("dg_mh_note", lang, d_head=d_head, d_model=d_model, n_heads=n_heads),
        size=14,
        fill=draw.MUTED,
    )
    return _diagram(svg, lang)


# ---------------------------------------------------------------- 4. the encoder block


def encoder_block(n=4, d_model=8, d_ff=32, n_heads=2, lang=None):
    """One encoder layer drawn twice, post-LN (the original Transformer) and pre-LN, side by side: multi-head
    self-attention and the feed-forward network, each with its residual connection and LayerNorm. Shapes from
    ``attn_core.multi_head_attention`` for n words of width d_model; the FFN widens to d_ff inside."""
    X = np.ones((n, d_model))
    W = np.eye(d_model)
    sub = _shape(multi_head_attention(X, X, W, W, W, W, n_heads).O.shape)
    wide = _shape((n, d_ff))
    panel_w, gap, left = 430, 24, 12
    width = left * 2 + 2 * panel_w + gap
    box_w, box_h, step = 210, 40, 58
    mha = _text("dg_block_mha", lang, n_heads=n_heads)
    ffn = _text("dg_block_ffn", lang, d_model=d_model, d_ff=d_ff)
    layouts = {
        "post": ["X", mha, "+", "LN", "H", ffn, "+", "LN", "Y"],
        "pre": ["X", "LN", mha, "+", "H", "LN", ffn, "+", "Y"],
    }
    top = 98
    height = top + step * len(layouts["post"]) + 84  # pre-LN: one more row, the stack's final LayerNorm
    description = _text("dg_block_desc", lang, shape=sub, wide=wide, d_ff=d_ff) + _text("dg_block_final_desc", lang)
    svg = draw.Svg(width, height, title=_text("dg_block_title", lang), description=description)
    for p, (kind, items) in enumerate(layouts.items()):
        x0 = left + p * (panel_w + gap)
        cx = x0 + 150
        svg.text(x0, 24, _text(f"dg_block_{kind}", lang), size=17, bold=True)
        svg.text(x0, 50, _text(f"dg_block_{kind}_formula", lang), size=15, fill=draw.MUTED)
        ys = [top + step * k for k in range(len(items))]
        residual_from = None
        for k, (item, y) in enumerate(zip(items, ys)):
            if k:
                _arrow(
                    svg,
                    cx,
                    ys[k - 1]
                    + (14 if items[k - 1] in ("+",) else box_h / 2 if items[k - 1] not in ("X", "H", "Y") else 10),
                    cx,
                    y - (14 if item == "+" else box_h / 2 if item not in ("X", "H", "Y") else 16),
                )
            if item in ("X", "H", "Y"):
                svg.text(cx, y + 6, item, size=18, anchor="middle", bold=True)
                svg.text(cx + 24, y + 6, sub, size=15, fill=draw.MUTED)
                residual_from = y
            elif item == "+":
                svg.circle(cx, y, 14, fill="#ffffff", stroke=draw.INK, sw=2)
                svg.line(cx - 7, y, cx + 7, y, stroke=draw.INK, sw=2)
                svg.line(cx, y - 7, cx, y + 7, stroke=draw.INK, sw=2)
                rx = cx + box_w / 2 + 28
                start = cx + 24 + draw.text_width(sub, 15) + 6
                svg.polyline(
                    [(start, residual_from), (rx, residual_from), (rx, y), (cx + 16, y)], stroke=LIT_STROKE, sw=2.5
                )
                svg.polygon([(cx + 14, y), (cx + 23, y - 5), (cx + 23, y + 5)], fill=LIT_STROKE)
                svg.text(rx + 8, (residual_from + y) / 2 + 5, _text("dg_block_residual", lang), size=14, fill=LIT_INK)
            else:
                is_ln = item == "LN"
                svg.rect(
                    cx - box_w / 2,
                    y - box_h / 2,
                    box_w,
                    box_h,
                    fill=LIT if is_ln else BOX,
                    stroke=LIT_STROKE if is_ln else BOX_STROKE,
                    sw=2 if is_ln else 1.5,
                )
                svg.text(
                    cx, y + 6, _text("dg_block_ln", lang) if is_ln else item, size=16, anchor="middle", bold=not is_ln
                )
        bottom = ys[-1]
        if kind == "pre":  # a pre-LN stack ends with one more LayerNorm, after its last block (not in each block)
            bottom += step
            _arrow(svg, cx, ys[-1] + 10, cx, bottom - box_h / 2)
            svg.rect(cx - box_w / 2, bottom - box_h / 2, box_w, box_h, fill=LIT, stroke=LIT_STROKE, sw=2, dash="7 4")
            svg.text(cx, bottom + 6, _text("dg_block_ln", lang), size=16, anchor="middle")
            final = _text("dg_block_final_note", lang)
            _lines(svg, cx + box_w / 2 + 10, bottom - 4, final, size=14, anchor="start", fill=LIT_INK, gap=18)
        _lines(svg, x0, bottom + 46, _text(f"dg_block_{kind}_note", lang), size=14, anchor="start", fill=draw.MUTED)
    return _diagram(svg, lang)


# ---------------------------------------------------------------- 5. the causal mask and the shift


# the English gloss of every token of the running examples (我 → I), as plots.GLOSSES
GLOSSES = {
    token: gloss
    for example in (examples.four_words(), examples.coreference(), examples.coreference_wide())
    for token, gloss in zip(example.tokens, example.gloss)
}


def _glosses(tokens, lang):
    """The English edition's second line under each token (“I” under 我), as the explorers and the English
    heatmaps write them; None in Chinese, or when a token is no example word."""
    if (lang or get_lang()) != "en" or not all(t in GLOSSES for t in tokens):
        return None
    return [f"“{GLOSSES[t]}”" for t in tokens]


def causal(tokens=None, lang=None):
    """The causal mask ``attn_core.causal_mask(n)`` as a grid (True = may look; False: the score becomes −∞ and
    its weight 0) beside the training shift: the input at position i is word i, its target word i + 1. In the
    English edition every token has its gloss on a line under it (我 over “I”), as in every other English figure."""
    tokens = list(tokens or four_words().tokens)
    n = len(tokens)
    M = causal_mask(n)
    glosses = _glosses(tokens, lang)
    lift = 20 if glosses else 0  # the columns' glosses take a line under their tokens
    cell, left, top = 60, 12, 96 + lift
    cw = cell  # a column's width: in English as wide as the widest gloss (“language”), with air
    if glosses:
        cw = max(cell, round(max(draw.text_width(g, 14) for g in glosses)) + 10)
    words = [draw.text_width(t, 16) for t in tokens] + [draw.text_width(g, 14) for g in glosses or ()]
    label_w = max(words + [draw.text_width(_text("dg_mask_queries", lang), 15)]) + 16
    gx = left + label_w
    grid_w = cw * n
    sx = gx + grid_w + 120  # the shift panel
    box_h, box_w = (52, max(68, max(draw.text_width(g, 14) for g in glosses) + 12)) if glosses else (36, 68)
    slot = max(84, box_w + 16)
    shift_heading = _text("dg_shift_heading", lang)
    width = max(sx + slot * (n - 1) + 40, sx - 100 + draw.text_width(shift_heading, 15) + 12)
    height = top + cell * n + 84
    allowed = msg.text("row_sep", lang).join(
        msg.text("dg_mask_row", lang, token=tok, sees=" / ".join(tokens[: i + 1])) for i, tok in enumerate(tokens)
    )
    pairs = msg.text("list_sep", lang).join(f"{a} → {b}" for a, b in zip(tokens[:-1], tokens[1:]))
    description = _text(
        "dg_mask_desc", lang, n=n, allowed=allowed, pairs=pairs, true=int(M.sum()), false=int((~M).sum())
    )
    svg = draw.Svg(width, height, title=_text("dg_mask_title", lang), description=description)
    svg.text(left, 24, _text("dg_mask_heading", lang), size=17, bold=True)
    svg.text(gx, top - 36 - lift, _text("dg_mask_keys", lang), size=15, fill=draw.MUTED)
    svg.text(left, top - 10, _text("dg_mask_queries", lang), size=15, fill=draw.MUTED)
    for j, tok in enumerate(tokens):
        svg.text(gx + cw * (j + 0.5), top - 10 - lift, tok, size=16, anchor="middle")
        if glosses:
            svg.text(gx + cw * (j + 0.5), top - 10, glosses[j], size=14, anchor="middle", fill=draw.MUTED)
    for i, tok in enumerate(tokens):
        y = top + cell * i
        if glosses:  # the token over its gloss, both inside the row's height
            svg.text(gx - 8, y + cell / 2 - 2, tok, size=16, anchor="end")
            svg.text(gx - 8, y + cell / 2 + 16, glosses[i], size=14, anchor="end", fill=draw.MUTED)
        else:
            svg.text(gx - 8, y + cell / 2 + 6, tok, size=16, anchor="end")
        for j in range(n):
            x = gx + cw * j
            if M[i, j]:
                svg.rect(x, y, cw, cell, fill=ALLOWED, stroke="#ffffff", sw=2)
                svg.text(x + cw / 2, y + cell / 2 + 6, "True", size=15, anchor="middle")
            else:
                svg.rect(x, y, cw, cell, fill=draw.MASKED, stroke="#ffffff", sw=2)
                svg.text(x + cw / 2, y + cell / 2 + 6, "False", size=15, anchor="middle", fill=draw.MASKED_INK)
    ly = top + cell * n + 30
    svg.rect(gx, ly - 14, 18, 18, fill=ALLOWED, stroke=BOX_STROKE)
    svg.text(gx + 26, ly, _text("dg_mask_true", lang), size=14)
    svg.rect(gx, ly + 12, 18, 18, fill=draw.MASKED, stroke=BOX_STROKE)
    svg.text(gx + 26, ly + 26, _text("dg_mask_false", lang), size=14, fill=draw.MASKED_INK)
    # the shift: position i reads word i and is trained to predict word i + 1
    svg.text(sx - 100, top - 36 - lift, shift_heading, size=15, fill=draw.MUTED)
    row_in, row_out = (top + 48, top + 158) if glosses else (top + 40, top + 150)
    word_y = 0 if not glosses else -8  # the token's baseline, from the box's row line (its gloss under it)
    svg.text(sx - 10, top + 6, _text("dg_shift_position", lang), size=14, anchor="end", fill=draw.MUTED)
    svg.text(sx - 10, row_in + 6, _text("dg_shift_input", lang), size=15, anchor="end")
    svg.text(sx - 10, row_out + 6, _text("dg_shift_target", lang), size=15, anchor="end")
    for i in range(n - 1):
        cx = sx + 40 + slot * i
        svg.text(cx, top + 6, str(i), size=14, anchor="middle", fill=draw.MUTED)
        for row, k, fill, stroke in ((row_in, i, BOX, BOX_STROKE), (row_out, i + 1, LIT, LIT_STROKE)):
            svg.rect(cx - box_w / 2, row - box_h / 2 - 2, box_w, box_h, fill=fill, stroke=stroke)
            svg.text(cx, row + 6 + word_y, tokens[k], size=16, anchor="middle")
            if glosses:
                svg.text(cx, row + 6 + word_y + 18, glosses[k], size=14, anchor="middle", fill=draw.MUTED)
        _arrow(svg, cx, row_in + box_h / 2, cx, row_out - box_h / 2 - 6)
    _lines(svg, sx - 100, row_out + 56, _text("dg_shift_note", lang), size=14, anchor="start", fill=draw.MUTED, gap=20)
    return _diagram(svg, lang)
