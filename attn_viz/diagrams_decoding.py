"""Diagrams of lessons 13 and 14, drawn like :mod:`attn_viz.diagrams` (its ``Diagram``, SVG kit and rules):
where ``nn.MultiheadAttention`` keeps W_Q, W_K, W_V (``in_proj``), the KV cache growing by one row a step
beside recomputing every row (``kv_cache``), and query heads sharing K/V heads in MQA and GQA (``gqa``).

Numbers and shapes come from ``attn_core`` (the running example ``four_words()``, ``split_heads``,
``decode_step``, ``self_attention``, ``repeat_kv_heads``, ``kv_cache_bytes``), words from
:mod:`attn_viz.messages` in the language of ``lang`` (default: the course's current language). A module of
its own because ``diagrams.py`` is near the 500-line limit.
"""

from fractions import Fraction

import numpy as np

from attn_core import KVCache, causal_mask, decode_step, kv_cache_bytes, self_attention, split_heads
from attn_core.decoding import group_size, repeat_kv_heads
from attn_core.examples import four_words

from . import svg as draw
from .diagrams import ARROW, BOX, BOX_STROKE, LIT, LIT_INK, LIT_STROKE, _arrow, _diagram, _lines, _shape
from .messages import msg

BLOCK_FILLS = ("#fdebd3", "#e8f0f7", "#e9f3e6")  # the W_Q, W_K, W_V rows of in_proj_weight (LIT, ALLOWED, green)
NEW = LIT  # the token this step adds
NEW_STROKE = LIT_STROKE
OLD = "#e8f0f7"  # what the cache already holds
AGAIN = "#d9d9d9"  # a row recomputed although it was computed before


def _text(key, lang, **fields):
    return msg.text(key, lang, **fields)


def _size(n_bytes, lang):
    for unit, scale in (("MiB", 2**20), ("KiB", 2**10)):
        if n_bytes >= scale:
            return _text("dgd_bytes", lang, value=f"{n_bytes / scale:g}", unit=unit)
    return _text("dgd_bytes", lang, value=f"{n_bytes:g}", unit="B")


# ---------------------------------------------------------------- 1. lesson 13: in_proj_weight


def in_proj(example=None, n_heads=3, lang=None):
    """``nn.MultiheadAttention``'s ``in_proj_weight`` (3·d_model × d_model) with the example's numbers
    (default ``four_words()``): rows 0…d−1 are W_Qᵀ, then W_Kᵀ and W_Vᵀ, each block's rows cut into
    ``n_heads`` runs of d_head (``split_heads``); beside it the course's W_Q = in_proj_weight[:d].T, whose
    columns the heads cut. PyTorch computes x·Wᵀ, the course x·W."""
    ex = example or four_words()
    blocks = [np.asarray(W) for W in (ex.W_q, ex.W_k, ex.W_v)]
    d = blocks[0].shape[0]
    if d > 6:
        raise ValueError(f"the picture writes every number of in_proj_weight: d_model ≤ 6, got {d}.")
    stacked = np.concatenate([W.T for W in blocks])  # what lesson 13's load() copies in
    d_head = split_heads(np.zeros((1, blocks[0].shape[1])), n_heads).shape[-1]
    names = ("W_Qᵀ", "W_Kᵀ", "W_Vᵀ")
    cell_w, cell_h, left, top = 62, 30, 12, 92
    index_w = 28
    gx = left + index_w
    grid_w, grid_h = cell_w * d, cell_h * stacked.shape[0]
    bx = gx + grid_w + 64  # the block labels
    rx = bx + 210  # the course's W_Q
    right_heading = f"W_Q = in_proj_weight[:{d}].T  {_shape(blocks[0].shape)}"
    cols = _text("dgd_inproj_cols", lang)
    note = _text("dgd_inproj_note", lang)
    heading = _text("dgd_inproj_heading", lang)
    width = (
        max(
            [rx + cell_w * d, rx + draw.text_width(right_heading, 15), rx + draw.text_width(cols, 14)]
            + [left + draw.text_width(line, 14) for line in note.split("\n")]
            + [left + draw.text_width(heading, 17)]
        )
        + 16
    )
    height = top + grid_h + 96
    description = _text(
        "dgd_inproj_desc",
        lang,
        shape=_shape(stacked.shape),
        d=d,
        n_heads=n_heads,
        d_head=d_head,
        w_q=_shape(blocks[0].shape),
    )
    svg = draw.Svg(width, height, title=_text("dgd_inproj_title", lang), description=description)
    svg.text(left, 24, heading, size=17, bold=True)
    svg.text(gx, top - 34, f"in_proj_weight  {_shape(stacked.shape)}", size=15, bold=True)
    svg.text(gx, top - 12, _text("dgd_inproj_rows", lang), size=14, fill=draw.MUTED)
    for r, row in enumerate(stacked):
        y = top + cell_h * r
        b = r // d
        svg.text(gx - 6, y + cell_h / 2 + 5, str(r), size=14, anchor="end", fill=draw.MUTED)
        for c, value in enumerate(row):
            svg.rect(gx + cell_w * c, y, cell_w, cell_h, fill=BLOCK_FILLS[b], stroke="#ffffff", sw=1)
            svg.text(gx + cell_w * (c + 0.5), y + cell_h / 2 + 5, draw.fmt(value), size=14, anchor="middle")
        head = (r % d) // d_head
        if r % d_head == 0:  # the first row of a head: its name
            svg.text(gx + grid_w + 8, y + cell_h / 2 + 5, _text("dgd_head", lang, h=head + 1), size=14, fill=draw.MUTED)
            if r % d:
                svg.line(gx, y, gx + grid_w, y, stroke=draw.INK, sw=1, dash="4 3")
    for b, name in enumerate(names):
        y0, y1 = top + cell_h * d * b, top + cell_h * d * (b + 1)
        svg.rect(gx, y0, grid_w, y1 - y0, stroke=draw.INK, sw=2)
        svg.line(bx - 8, y0 + 3, bx - 8, y1 - 3, stroke=draw.INK, sw=2)
        mid = (y0 + y1) / 2
        svg.text(bx, mid - 4, name, size=16, bold=True)
        svg.text(bx, mid + 16, f"in_proj_weight[{d * b}:{d * (b + 1)}]", size=14, fill=draw.MUTED)
    # the course's W_Q: the first block, transposed; its columns are what the heads cut
    svg.text(rx, top - 34, right_heading, size=15, bold=True)
    svg.text(rx, top - 12, cols, size=14, fill=draw.MUTED)
    for r, row in enumerate(blocks[0]):
        for c, value in enumerate(row):
            x, y = rx + cell_w * c, top + cell_h * r
            svg.rect(x, y, cell_w, cell_h, fill=BLOCK_FILLS[0], stroke="#ffffff", sw=1)
            svg.text(x + cell_w / 2, y + cell_h / 2 + 5, draw.fmt(value), size=14, anchor="middle")
    svg.rect(rx, top, cell_w * d, cell_h * d, stroke=draw.INK, sw=2)
    for h in range(n_heads):
        x = rx + cell_w * d_head * h
        if h:
            svg.line(x, top, x, top + cell_h * d, stroke=draw.INK, sw=1, dash="4 3")
        svg.text(
            x + cell_w * d_head / 2,
            top + cell_h * d + 20,
            _text("dgd_head", lang, h=h + 1),
            size=14,
            anchor="middle",
            fill=draw.MUTED,
        )
    _arrow(svg, bx + 110, top + cell_h * d / 2, rx - 8, top + cell_h * d / 2)
    svg.text(bx + 150, top + cell_h * d / 2 - 8, ".T", size=15, anchor="middle", bold=True)
    _lines(svg, left, top + grid_h + 36, note, size=14, anchor="start", fill=draw.MUTED, gap=20)
    return _diagram(svg, lang)


# ---------------------------------------------------------------- 2. lesson 14: the cache grows a row a step


def kv_cache(example=None, lang=None):
    """Decoding the example's words (default ``four_words()``) one at a time, a row a step. Left, with the
    cache: step t projects the new token only, appends its k and v (``decode_step``: the cache is t × d_k
    after it) and scores its q against the t cached keys. Right, without: causal self-attention of the
    whole prefix again (``self_attention``), t × t scores of which only the last row is new."""
    ex = example or four_words()
    tokens = list(ex.tokens)
    n = len(tokens)
    cache = KVCache.empty(ex.W_k.shape[1], ex.W_v.shape[1])
    caches, grids = [], []
    for t in range(n):
        _, cache = decode_step(ex.X[t : t + 1], ex.W_q, ex.W_k, ex.W_v, cache)
        caches.append(cache)
        grids.append(self_attention(ex.X[: t + 1], ex.W_q, ex.W_k, ex.W_v, mask=causal_mask(t + 1)).QKT.shape)
    left, top = 12, 100
    slot_w, slot_h = 56, 26
    row_h = max(3 * slot_h + 40, 22 * n + 44)
    label_w = 130
    kx = left + label_w + 70  # the cache's first column
    px = kx + slot_w * n + 200  # the right panel
    cell = 22
    width = px + cell * n + 330
    height = top + row_h * n + 66
    desc_steps = _text("row_sep", lang).join(
        _text("dgd_kv_step_desc", lang, t=t + 1, token=tok, K=_shape(c.K.shape), scores=c.length, grid=_shape(g))
        for t, (tok, c, g) in enumerate(zip(tokens, caches, grids))
    )
    description = _text("dgd_kv_desc", lang, steps=desc_steps)
    svg = draw.Svg(width, height, title=_text("dgd_kv_title", lang), description=description)
    svg.text(left, 24, _text("dgd_kv_cached_heading", lang), size=17, bold=True)
    svg.text(px, 24, _text("dgd_kv_recompute_heading", lang), size=17, bold=True)
    _lines(svg, left, 48, _text("dgd_kv_cached_sub", lang), size=14, anchor="start", fill=draw.MUTED, gap=18)
    _lines(svg, px, 48, _text("dgd_kv_recompute_sub", lang), size=14, anchor="start", fill=draw.MUTED, gap=18)
    svg.text(kx - 8, top - 12, _text("dgd_position", lang), size=14, anchor="end", fill=draw.MUTED)
    for j in range(n):
        svg.text(kx + slot_w * (j + 0.5), top - 12, str(j), size=14, anchor="middle", fill=draw.MUTED)
    for t, (tok, c, g) in enumerate(zip(tokens, caches, grids)):
        y = top + row_h * t
        if t:
            svg.line(left, y - 8, width - left, y - 8, stroke=draw.GRID)
        svg.text(left, y + 18, _text("dgd_step", lang, t=t + 1), size=15, bold=True)
        svg.text(left, y + 38, _text("dgd_new_token", lang, token=tok), size=14)
        # q of the new token, then its k and v appended to the cache
        qy = y + 4
        svg.rect(kx - 60, qy, 44, slot_h, fill=NEW, stroke=NEW_STROKE, sw=2)
        svg.text(kx - 38, qy + 18, "q", size=15, anchor="middle", bold=True)
        for r, name in enumerate(("K", "V")):
            ry = y + 4 + (slot_h + 8) * (r + 1)
            svg.text(kx - 8, ry + 18, name, size=15, anchor="end", bold=True)
            for j in range(c.length):
                new = j == c.length - 1
                svg.rect(
                    kx + slot_w * j + 2,
                    ry,
                    slot_w - 4,
                    slot_h,
                    fill=NEW if new else OLD,
                    stroke=NEW_STROKE if new else BOX_STROKE,
                    sw=2 if new else 1,
                )
                svg.text(
                    kx + slot_w * (j + 0.5),
                    ry + 18,
                    tokens[j],
                    size=14,
                    anchor="middle",
                    fill=LIT_INK if new else draw.INK,
                )
        _arrow(svg, kx - 16, qy + slot_h / 2, kx + slot_w * c.length - 6, qy + slot_h / 2, colour=NEW_STROKE)
        svg.text(kx + slot_w * c.length + 4, qy + 18, _text("dgd_scores", lang, n=c.length), size=14, fill=LIT_INK)
        svg.text(
            kx + slot_w * c.length + 4, y + 4 + (slot_h + 8) + 18, _text("dgd_append", lang), size=14, fill=LIT_INK
        )
        svg.text(
            kx + slot_w * c.length + 4,
            y + 4 + 2 * (slot_h + 8) + 18,
            _text("dgd_cache_shape", lang, K=_shape(c.K.shape), V=_shape(c.V.shape)),
            size=14,
            fill=draw.MUTED,
        )
        # without the cache: every row of the t × t scores again, only the last one new
        rows, cols = g
        for i in range(rows):
            for j in range(cols):
                last = i == rows - 1
                fill = NEW if last else AGAIN  # every score of the t × t block is computed, masked or not
                svg.rect(px + cell * j, y + 4 + cell * i, cell, cell, fill=fill, stroke=BOX_STROKE, sw=1)
        svg.text(px + cell * cols + 12, y + 20, _text("dgd_grid", lang, grid=_shape(g)), size=14)
        svg.text(px + cell * cols + 12, y + 40, _text("dgd_grid_new", lang), size=14, fill=LIT_INK)
        if rows > 1:
            svg.text(px + cell * cols + 12, y + 60, _text("dgd_grid_again", lang), size=14, fill=draw.MUTED)
    svg.line(px - 24, 60, px - 24, height - 50, stroke=draw.GRID, sw=1.5)
    _lines(svg, left, height - 34, _text("dgd_kv_note", lang), size=14, anchor="start", fill=draw.MUTED, gap=18)
    return _diagram(svg, lang)


# ---------------------------------------------------------------- 3. lesson 14: MQA and GQA


def gqa(n_heads=8, kv_heads=(8, 2, 1), d_head=128, bytes_per_value=2, lang=None):
    """Query heads sharing K/V heads, one row per count in ``kv_heads`` (default: 8 query heads with 8, 2
    and 1 K/V heads: multi-head, GQA, MQA). Each query head is joined to the K/V head that serves it
    (``repeat_kv_heads``: K/V head g serves query heads g·r … g·r + r − 1), and beside each row the cache
    of one token in one layer (``kv_cache_bytes``) at ``d_head`` and ``bytes_per_value``."""
    if not 1 <= n_heads <= 12:
        raise ValueError(f"the picture draws 1 to 12 query heads, got n_heads={n_heads!r}.")
    rows = []
    for g in kv_heads:
        r = group_size(n_heads, g)
        serves = repeat_kv_heads(np.arange(g).reshape(g, 1, 1), n_heads).ravel()
        rows.append((g, r, serves, kv_cache_bytes(1, g, d_head, bytes_per_value)))
    full = kv_cache_bytes(1, n_heads, d_head, bytes_per_value)
    left, top = 12, 90
    slot, box_w, box_h = 50, 40, 28
    row_h = 150
    bar_x = left + slot * n_heads + 60
    bar_max = 180
    width = bar_x + bar_max + 150
    height = top + row_h * len(rows) + 50
    parts = _text("row_sep", lang).join(
        _text("dgd_gqa_row_desc", lang, row=_row(g, r, n_heads, lang), size=_size(b, lang)) for g, r, _, b in rows
    )
    description = _text("dgd_gqa_desc", lang, n_heads=n_heads, d_head=d_head, bytes=bytes_per_value, rows=parts)
    svg = draw.Svg(width, height, title=_text("dgd_gqa_title", lang), description=description)
    svg.text(left, 24, _text("dgd_gqa_heading", lang, n_heads=n_heads), size=17, bold=True)
    bar_heading = _text("dgd_gqa_bar_heading", lang, d_head=d_head, bytes=bytes_per_value)
    _lines(svg, bar_x, 54, bar_heading, size=14, anchor="start", fill=draw.MUTED, gap=18)
    for k, (g, r, serves, n_bytes) in enumerate(rows):
        y = top + row_h * k
        svg.text(left, y + 16, _row(g, r, n_heads, lang), size=15, bold=True)
        qy, ky = y + 30, y + 100
        for h in range(n_heads):
            cx = left + slot * (h + 0.5)
            gx = left + slot * r * (serves[h] + 0.5)
            svg.line(cx, qy + box_h, gx, ky, stroke=ARROW, sw=1.5)
            svg.rect(cx - box_w / 2, qy, box_w, box_h, fill=BOX, stroke=BOX_STROKE)
            svg.text(cx, qy + 19, f"q{h + 1}", size=14, anchor="middle")
        for j in range(g):
            x0 = left + slot * r * j + 5
            svg.rect(x0, ky, slot * r - 10, box_h, fill=LIT, stroke=LIT_STROKE, sw=2)
            label = f"k{j + 1} v{j + 1}"
            if slot * r - 10 < draw.text_width(label, 14) + 4:  # one query head's box: too narrow for both
                label = f"kv{j + 1}"
            svg.text(x0 + (slot * r - 10) / 2, ky + 19, label, size=14, anchor="middle", fill=LIT_INK, bold=True)
        length = bar_max * n_bytes / full
        svg.rect(bar_x, ky, length, box_h, fill=draw.BAR)
        part = Fraction(g, n_heads)
        share = _text("dgd_gqa_share", lang, part=f"{part.numerator}/{part.denominator}") if g != n_heads else ""
        svg.text(bar_x + length + 8, ky + 19, f"{_size(n_bytes, lang)}{share}", size=14, bold=True)
    _lines(svg, left, height - 30, _text("dgd_gqa_note", lang), size=14, anchor="start", fill=draw.MUTED, gap=18)
    return _diagram(svg, lang)


def _row(g, r, n_heads, lang):
    """The row's name: multi-head (a K/V head per query head), GQA or MQA (one K/V head for all)."""
    kind = "mha" if g == n_heads else "mqa" if g == 1 else "gqa"
    return _text(f"dgd_gqa_row_{kind}", lang, g=g, r=r)
