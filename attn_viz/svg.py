"""Small SVG drawing kit for the explorers: bars, heatmaps, gauges and tables as plain strings.

The browser draws the SVG, so an explorer update costs string building (about a millisecond), not a
matplotlib draw. Output is deterministic: fixed number formatting, no ids, no timestamps, so the same
state always gives the same text (nbval compares it). Sizes are in CSS pixels; every text is at least
14 px so a projected figure stays readable. Colours: viridis for values, greys for structure; every text
colour meets WCAG AA contrast (4.5:1) on what it is drawn on, and the picture carries a ``<title>`` and a
``<desc>`` (what it shows, with its key numbers) that a screen reader reads.
"""

import re
from html import escape

import numpy as np

from .fonts import CSS_FAMILY

# the same CJK-first font list as the rest of the course, quoted for an XML attribute
FONT_FAMILY = CSS_FAMILY.replace('"', "'")
MIN_FONT = 14
INK = "#222222"
MUTED = "#666666"  # 5.7:1 on white
GRID = "#d0d0d0"
BAR = "#31688e"  # viridis 0.35: dark enough for white text, distinct from the ghost outline
GHOST = "#444444"
MASKED = "#e3e3e3"
MASKED_INK = "#555555"  # the "−∞ → 0" in a masked cell: 5.8:1 on MASKED (MUTED would be 4.5:1, just short)
HATCH = "#a0a0a0"  # the hatching of a masked cell
HIGHLIGHT = "#000000"
ERROR = "#b00020"  # 7.2:1 on white
WHITE, BLACK = "#ffffff", "#000000"
AA_CONTRAST = 4.5  # WCAG 2.x level AA for text under 24 px (18.7 px bold)
ACCENT = "#c05a00"  # a second series beside BAR (blue/orange stays apart for colour-blind eyes)
# names written with a subscript (d_k, d_v, d_model, d_head, d_ff): drawn as d with a lowered k, never "d_k"
SUBSCRIPTED = re.compile(r"(?<![A-Za-z0-9_])d_(k|v|model|head|ff)(?![A-Za-z0-9_])")
SUBSCRIPT_DROP = 0.3  # em: how far the subscript sits below the baseline
RADICAL_PULL = 0.3  # em: how much closer to √ the next character is drawn

# viridis sampled at 0, 1/16, ..., 1 (matplotlib's table); linear interpolation in between is
# indistinguishable on screen and keeps matplotlib out of the update path.
_VIRIDIS = np.array(
    [
        [int(h[i : i + 2], 16) for i in (1, 3, 5)]
        for h in (
            "#440154",
            "#48186a",
            "#472d7b",
            "#424086",
            "#3b528b",
            "#33638d",
            "#2c728e",
            "#26828e",
            "#21918c",
            "#1fa088",
            "#28ae80",
            "#3fbc73",
            "#5ec962",
            "#84d44b",
            "#addc30",
            "#d8e219",
            "#fde725",
        )
    ],
    dtype=float,
)


def fmt(x, digits=2):
    """Fixed-point text with a true minus sign; never "−0.00"."""
    s = f"{float(x):.{digits}f}"
    if s.startswith("-"):
        s = s[1:] if float(s) == 0 else "−" + s[1:]
    return s


def esc(text):
    return escape(str(text), quote=True)


def data_uri(svg):
    """The SVG document as a ``data:`` URL for an ``<img src>`` (HTML-escape it when writing the
    attribute). Only ``%`` and ``#`` need encoding; hanzi and the markup stay readable in a diff."""
    return "data:image/svg+xml;charset=utf-8," + svg.replace("%", "%25").replace("#", "%23")


def _viridis_exact(t):
    t = t * (len(_VIRIDIS) - 1)
    i = min(int(t), len(_VIRIDIS) - 2)
    rgb = _VIRIDIS[i] + (t - i) * (_VIRIDIS[i + 1] - _VIRIDIS[i])
    return "#" + "".join(f"{int(round(c)):02x}" for c in rgb)


_LUT = tuple(_viridis_exact(k / 255) for k in range(256))  # 256 levels, like matplotlib's colormaps


def viridis(t):
    """Colour for t in [0, 1] (clipped) as "#rrggbb"."""
    return _LUT[int(min(max(t, 0.0), 1.0) * 255 + 0.5)]


def relative_luminance(colour):
    """WCAG 2.x relative luminance of "#rrggbb" (0 = black, 1 = white)."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    """WCAG 2.x contrast ratio of two "#rrggbb" colours, from 1 (same) to 21 (black on white)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def ink_on(t):
    """Text colour for a cell of viridis(t): white or black, whichever contrasts more. Viridis grows
    steadily lighter, so this switches once (at t ≈ 0.44) and never falls below 4.6:1 (WCAG AA)."""
    return _INK[int(min(max(t, 0.0), 1.0) * 255 + 0.5)]


_INK = tuple(WHITE if contrast(WHITE, c) >= contrast(BLACK, c) else BLACK for c in _LUT)


def marked_up(text, size):
    """``text`` escaped for SVG, with d_k (d_v, d_model, d_head, d_ff) drawn with a real subscript: the k in a
    ``<tspan>`` lowered by ``dy`` (every browser honours it, unlike baseline-shift), at least MIN_FONT px, and
    the rest of the text raised back to the baseline."""
    out, start, lowered = [], 0, False
    drop = f"{size * SUBSCRIPT_DROP:.1f}"
    small = max(MIN_FONT, round(0.8 * size))
    # the font's √ is 1 em wide, its bar ending at the right edge: "√ d_k" read with a gap; pull what follows in
    escaped = esc(text).replace("√", f'<tspan letter-spacing="-{size * RADICAL_PULL:.1f}">√</tspan>')
    for m in SUBSCRIPTED.finditer(escaped):
        before = escaped[start : m.start()]
        out.append(f'<tspan dy="-{drop}">{before}</tspan>' if lowered and before else before)
        out.append(f'd<tspan dy="{drop}" font-size="{small}">{m.group(1)}</tspan>')
        start, lowered = m.end(), True
    rest = escaped[start:]
    out.append(f'<tspan dy="-{drop}">{rest}</tspan>' if lowered and rest else rest)
    return "".join(out)


def text_width(text, size):
    """Rough rendered width in px: a hanzi/fullwidth char ≈ 1 em, other chars ≈ 0.6 em."""
    return sum(size if ord(ch) > 0x2E80 else 0.6 * size for ch in str(text))


class Svg:
    """Collects SVG elements; ``render()`` returns the document as one string."""

    def __init__(self, width, height, title="", description=""):
        self.width, self.height = int(width), int(height)
        self.title, self.description = title, description
        self.parts = []

    def rect(self, x, y, w, h, fill="none", stroke=None, sw=1.0, dash=None, opacity=None):
        attrs = f'x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" height="{max(h, 0):.1f}" fill="{fill}"'
        if stroke:
            attrs += f' stroke="{stroke}" stroke-width="{sw:g}"'
        if dash:
            attrs += f' stroke-dasharray="{dash}"'
        if opacity is not None:
            attrs += f' fill-opacity="{opacity:g}"'
        self.parts.append(f"<rect {attrs}/>")

    def line(self, x1, y1, x2, y2, stroke=GRID, sw=1.0, dash=None):
        attrs = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" stroke-width="{sw:g}"'
        if dash:
            attrs += f' stroke-dasharray="{dash}"'
        self.parts.append(f"<line {attrs}/>")

    def circle(self, cx, cy, r, fill="none", stroke=GRID, sw=1.0, dash=None):
        attrs = f'cx="{cx:.1f}" cy="{cy:.1f}" r="{max(r, 0):.1f}" fill="{fill}" stroke="{stroke}" stroke-width="{sw:g}"'
        if dash:
            attrs += f' stroke-dasharray="{dash}"'
        self.parts.append(f"<circle {attrs}/>")

    def polyline(self, points, stroke=BAR, sw=2.0, dash=None):
        """An open line through ``points`` [(x, y), …]."""
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        attrs = f'points="{coords}" fill="none" stroke="{stroke}" stroke-width="{sw:g}" stroke-linejoin="round"'
        if dash:
            attrs += f' stroke-dasharray="{dash}"'
        self.parts.append(f"<polyline {attrs}/>")

    def polygon(self, points, fill=INK):
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        self.parts.append(f'<polygon points="{coords}" fill="{fill}"/>')

    def path(self, d, stroke=INK, sw=1.5, fill="none"):
        """A raw SVG path (``d`` as the SVG path syntax, e.g. an arc)."""
        self.parts.append(f'<path d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="{sw:g}"/>')

    def text(self, x, y, s, size=16, anchor="start", fill=INK, bold=False, rotate=None):
        if size < MIN_FONT:
            raise ValueError(f"font size {size}px is below the projector minimum of {MIN_FONT}px.")
        attrs = f'x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" fill="{fill}"'
        if anchor != "start":
            attrs += f' text-anchor="{anchor}"'
        if bold:
            attrs += ' font-weight="bold"'
        if rotate is not None:
            attrs += f' transform="rotate({rotate:g} {x:.1f} {y:.1f})"'
        self.parts.append(f"<text {attrs}>{marked_up(s, size)}</text>")

    def render(self):
        """The document: ``<title>`` names the picture and ``<desc>`` says what it shows, with its key
        numbers; a screen reader reads both (role="img" makes the picture one object to it)."""
        self.width, self.height = int(round(self.width)), int(round(self.height))
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" font-family="{FONT_FAMILY}" role="img" '
            f'style="max-width:100%;height:auto;background:#ffffff">'
        )
        title = f"<title>{esc(self.title)}</title>" if self.title else ""
        desc = f"<desc>{esc(self.description)}</desc>" if self.description else ""
        return head + title + desc + "".join(self.parts) + "</svg>"


# ---------------------------------------------------------------- components


def bars(
    svg,
    x,
    y,
    values,
    labels,
    *,
    width,
    height,
    ghost=None,
    sublabels=None,
    title="",
    vmin=0.0,
    vmax=1.0,
    ticks=(0.0, 0.5, 1.0),
    colors=None,
    ghost_label=None,
    glosses=None,
):
    """Vertical bars at (x, y) inside a width × height box (title and labels included).

    ``ghost`` draws a dashed outline at another set of values (e.g. the default setting);
    ``sublabels`` adds a second label line under each token, ``glosses`` one more between them (the
    English edition's “I”). Values below ``vmin`` grow downwards from the zero line when vmin < 0; a
    value beyond the axis is drawn to its end, its number still in the picture. Returns nothing.
    """
    n = len(values)
    top = y + (30 if title else 8)
    label_h = 26 + (22 if sublabels is not None else 0) + (20 if glosses is not None else 0)
    plot_h = height - (top - y) - label_h - 20
    axis_w = 46
    slot = (width - axis_w) / max(n, 1)
    bar_w = min(slot * 0.62, 80)
    span = vmax - vmin

    def ypos(v):
        return top + 20 + plot_h * (vmax - min(max(v, vmin), vmax)) / span

    if title:
        svg.text(x, y + 20, title, size=17, bold=True)
    for t in ticks:
        svg.line(x + axis_w, ypos(t), x + width, ypos(t), stroke=GRID)
        svg.text(x + axis_w - 6, ypos(t) + 5, fmt(t, 1), size=14, anchor="end", fill=MUTED)
    zero = ypos(0.0)
    svg.line(x + axis_w, zero, x + width, zero, stroke=MUTED, sw=1.5)
    for j, val in enumerate(values):
        cx = x + axis_w + slot * (j + 0.5)
        fill = colors[j] if colors is not None else BAR
        y0, y1 = sorted((zero, ypos(val)))
        svg.rect(cx - bar_w / 2, y0, bar_w, y1 - y0, fill=fill)
        if ghost is not None:
            g0, g1 = sorted((zero, ypos(ghost[j])))
            svg.rect(cx - bar_w / 2 - 4, g0, bar_w + 8, g1 - g0, stroke=GHOST, sw=2, dash="6 4")
        if val < 0:
            label_y = y1 + 18
        else:  # above the bar itself, inside a taller ghost; above a ghost's edge it would cross
            label_y = y0 - 7
            if ghost is not None and ghost[j] > 0 and y0 - 24 < ypos(ghost[j]) <= y0:
                label_y = ypos(ghost[j]) - 7
        if val > vmax:  # off the top of a fixed axis: the value still shows
            label_y = max(label_y, top + 14)
        if val < vmin:
            label_y = min(label_y, top + 20 + plot_h - 4)
        svg.text(cx, label_y, fmt(val), size=15, anchor="middle", bold=True)
        base = top + 20 + plot_h + 22
        svg.text(cx, base, labels[j], size=16, anchor="middle")
        if glosses is not None:
            svg.text(cx, base + 19, glosses[j], size=14, anchor="middle", fill=MUTED)
        if sublabels is not None:
            svg.text(
                cx, base + 21 + (20 if glosses is not None else 0), sublabels[j], size=14, anchor="middle", fill=MUTED
            )
    if ghost is not None and ghost_label:
        lx = x + width - text_width(ghost_label, 14) - 30
        svg.rect(lx, y + 8, 22, 14, stroke=GHOST, sw=2, dash="6 4")
        svg.text(lx + 28, y + 20, ghost_label, size=14, fill=MUTED)


def heatmap(
    svg,
    x,
    y,
    A,
    rows,
    cols,
    *,
    cell=56,
    title="",
    row_title="",
    col_title="",
    highlight_row=None,
    masked=None,
    muted_rows=(),
    muted_cols=(),
    row_label_w=None,
    col_glosses=None,
    number_size=None,
    dropped_rows=(),
    highlight_cell=None,
    label_size=None,
    row_glosses=None,
):
    """Weights A (n_q × n_k) as coloured cells with their values; rows = queries, columns = keys.

    Colour scale is fixed to [0, 1] (viridis) so pictures stay comparable while sliders move.
    ``masked`` (boolean, True = may attend) draws the masked cells as masked (``masked_cell``: hatched,
    "−∞ → 0"); a row of A that is None or not finite is left blank. ``col_glosses`` adds a line under
    the column labels (the English edition's “I”). ``number_size``: the cells' numbers at this size (px)
    instead of 14/15, or 0 for colours only (a grid too small for numbers that read). ``dropped_rows``: rows
    whose output is thrown away (a padding query): grey cells, their weights written in grey (computed, never
    used). ``highlight_cell`` (row, column): one cell the text talks about, outlined in ACCENT (inside
    ``highlight_row``'s outline when it is in that row). ``label_size``: the row and column labels at this
    size (px; the axis titles 2 px smaller) instead of 14/16, for a picture the page scales down.
    ``row_glosses``: a second, smaller line under each row label (the English edition's “it”); rows
    all "" and no ``row_title``: no row labels (a second map beside a first with the same rows).
    Returns (width, height) used.
    """
    n_q, n_k = len(rows), len(cols)
    if row_label_w is None:
        row_label_w = row_label_width(rows, row_title)
    size = 14 if cell < 52 else 15
    numbers = number_size != 0
    lift = 5 if not number_size else number_size * 7 // 20  # baseline below the cell's centre (px)
    number_size = number_size or size
    gx = x + row_label_w
    ty = y + (26 if title else 0)
    labels = label_size or (16 if cell >= 44 else 14)
    titles = labels - 2 if label_size else 15
    glosses = max(MIN_FONT, labels - 2)
    if title:
        svg.text(x, y + 19, title, size=17, bold=True)
    svg.text(gx, ty + 20, col_title, size=titles, fill=MUTED)
    if row_title:
        svg.text(gx - 8, ty + 44, row_title + " ↓", size=titles, fill=MUTED, anchor="end")
    gloss_h = glosses + 6 if col_glosses is not None else 0
    gy = ty + 52 + 10 + gloss_h + max(0, labels - 16)
    for j, c in enumerate(cols):
        svg.text(
            gx + cell * (j + 0.5),
            gy - 8 - gloss_h,
            c,
            size=labels,
            anchor="middle",
            fill=MUTED if j in muted_cols else INK,
        )
        if col_glosses is not None:
            svg.text(gx + cell * (j + 0.5), gy - 8, col_glosses[j], size=glosses, anchor="middle", fill=MUTED)
    for i in range(n_q):
        cy = gy + cell * i
        fill = MUTED if i in muted_rows else INK
        if row_glosses is None:
            svg.text(gx - 8, cy + cell / 2 + 6, rows[i], size=labels, anchor="end", fill=fill)
        else:  # the token over its gloss, both inside the row's height
            svg.text(gx - 8, cy + cell / 2 - 2, rows[i], size=labels, anchor="end", fill=fill)
            svg.text(gx - 8, cy + cell / 2 + glosses, row_glosses[i], size=glosses, anchor="end", fill=MUTED)
        for j in range(n_k):
            cx = gx + cell * j
            if masked is not None and not masked[i][j]:
                masked_cell(svg, cx, cy, cell, size)
                continue
            t = float(A[i][j]) if A[i] is not None else float("nan")
            if not np.isfinite(t):
                svg.rect(cx, cy, cell, cell, fill=WHITE, stroke=GRID, sw=1)
                continue
            dropped = i in dropped_rows
            svg.rect(cx, cy, cell, cell, fill=MASKED if dropped else viridis(t), stroke="#ffffff", sw=1)
            if numbers:
                ink = MASKED_INK if dropped else ink_on(t)
                svg.text(cx + cell / 2, cy + cell / 2 + lift, fmt(t), size=number_size, anchor="middle", fill=ink)
    if highlight_row is not None:
        hy = gy + cell * highlight_row
        svg.rect(gx - 2, hy - 2, cell * n_k + 4, cell + 4, stroke=HIGHLIGHT, sw=3.5)
        svg.rect(gx + 1, hy + 1, cell * n_k - 2, cell - 2, stroke="#ffffff", sw=1.5)
    if highlight_cell is not None:
        cx, cy = gx + cell * highlight_cell[1], gy + cell * highlight_cell[0]
        svg.rect(cx + 2.5, cy + 2.5, cell - 5, cell - 5, stroke=ACCENT, sw=3.5)
        svg.rect(cx + 5, cy + 5, cell - 10, cell - 10, stroke=WHITE, sw=1)
    return row_label_w + cell * n_k, gy - y + cell * n_q


def row_label_width(rows, row_title=""):
    """The room ``heatmap`` leaves for its row labels and the row title (px)."""
    return max([text_width(r, 16) for r in rows] + [text_width(row_title + " ↓", 15)]) + 14


def masked_cell(svg, cx, cy, cell, size):
    """A masked cell: grey, hatched, "−∞ → 0" ("−∞" when small): its weight is 0 because its score was
    set to −∞, not because the two words ignore each other."""
    svg.rect(cx, cy, cell, cell, fill=MASKED, stroke=WHITE, sw=1)
    for f in (0.25, 0.5, 0.75, 1):
        svg.line(cx + 3, cy + cell * f - 3 + 3 * f, cx + cell * f - 3 + 3 * f, cy + 3, stroke=HATCH, sw=1)
    label = "−∞ → 0" if cell >= 60 else "−∞"
    w = text_width(label, size)
    pad = 6  # the hatching stops clear of the label (the font may draw it a little wider than text_width)
    svg.rect(cx + cell / 2 - w / 2 - pad, cy + cell / 2 - size / 2 - 3, w + 2 * pad, size + 6, fill=MASKED)
    svg.text(cx + cell / 2, cy + cell / 2 + 5, label, size=size, anchor="middle", fill=MASKED_INK)


def notice(svg, x, y, width, lines, *, fill="#fff4e5", stroke=ACCENT, size=16):
    """A teaching message drawn in the picture (e.g. "this row sees no key"), framed; returns its height."""
    h = 14 + len(lines) * (size + 8)
    svg.rect(x, y, width, h, fill=fill, stroke=stroke, sw=1.5)
    for k, line in enumerate(lines):
        svg.text(x + 12, y + 8 + (k + 1) * (size + 8) - 6, line, size=size, fill=INK)
    return h


def colorbar(svg, x, y, *, width=220, label="", masked_label=None, dropped_label=None, size=14):
    """Horizontal legend for the [0, 1] viridis scale (10 steps), optionally with the masked swatch; the
    same in every explorer (label: the catalog's ``legend_weight``); ``size``: its text (a wide picture, scaled
    down on the board, passes 15 to stay legible there). Returns the height used."""
    steps = 10
    for k in range(steps):
        svg.rect(x + width * k / steps, y, width / steps + 0.5, 14, fill=viridis((k + 0.5) / steps))
    svg.text(x, y + 32, "0", size=size, anchor="middle", fill=MUTED)
    svg.text(x + width / 2, y + 32, "0.5", size=size, anchor="middle", fill=MUTED)
    svg.text(x + width, y + 32, "1", size=size, anchor="middle", fill=MUTED)
    if label:
        svg.text(x + width + 14, y + 13, label, size=size, fill=MUTED)
    if masked_label:
        mx = x + width + 24 + text_width(label, size)
        svg.rect(mx, y, 18, 14, fill=MASKED, stroke=HATCH)
        svg.line(mx + 2, y + 12, mx + 16, y + 2, stroke=HATCH, sw=1.5)
        svg.text(mx + 24, y + 13, masked_label, size=size, fill=MUTED)
    if dropped_label:  # the grey of a dropped row (a padding query), on the line under the scale's numbers
        svg.rect(x, y + 44, 18, 14, fill=MASKED, stroke=GRID)
        svg.text(x + 24, y + 57, dropped_label, size=size, fill=MUTED)
        return 62
    return 36


def gauge(svg, x, y, *, width, value, vmax, label, text):
    """A labelled horizontal meter: track 0..vmax, filled up to ``value``, ``text`` on the right."""
    svg.text(x, y + 15, label, size=15)
    ty = y + 24
    svg.rect(x, ty, width, 16, fill="#eeeeee", stroke=GRID)
    frac = min(max(value / vmax, 0.0), 1.0) if vmax > 0 else 0.0
    svg.rect(x, ty, width * frac, 16, fill=BAR)
    svg.text(x + width + 10, ty + 14, text, size=15, bold=True)


def table(svg, x, y, rows, col_x, *, header=True, size=15, line_h=22):
    """Rows of text cells at the given column offsets; the first row bold when ``header``."""
    for r, cells in enumerate(rows):
        for c, cell in enumerate(cells):
            svg.text(
                x + col_x[c],
                y + line_h * (r + 1),
                cell,
                size=size,
                bold=header and r == 0,
                fill=INK if (r == 0 or c != len(cells) - 1) else MUTED,
            )
    return line_h * len(rows) + 6


def line_chart(
    svg,
    x,
    y,
    xs,
    ys,
    *,
    width,
    height,
    vmin,
    vmax,
    title="",
    x_label="",
    mark=None,
    color=BAR,
    ticks=None,
    tick_digits=1,
):
    """The curve ys(xs) at (x, y) inside a width × height box (title and axis labels included), on a fixed
    y range [vmin, vmax] so that a curve that moves is seen to move. ``mark`` = an index of xs to circle.
    ``ticks``: the y values to label (default: vmin, 0 if in range, vmax), with ``tick_digits`` decimals."""
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    axis_w, top = 56, y + (30 if title else 8)
    plot_x0, plot_x1 = x + axis_w, x + width - 10
    plot_y0, plot_y1 = top + 10, y + height - (46 if x_label else 26)
    span_x = (xs[-1] - xs[0]) or 1.0
    span_y = (vmax - vmin) or 1.0

    def px(v):
        return plot_x0 + (plot_x1 - plot_x0) * (v - xs[0]) / span_x

    def py(v):
        return plot_y1 - (plot_y1 - plot_y0) * (min(max(v, vmin), vmax) - vmin) / span_y

    if title:
        svg.text(x, y + 20, title, size=17, bold=True)
    if ticks is None:
        ticks = [vmin, vmax] + ([0.0] if vmin < 0 < vmax else [])
    for t in ticks:
        svg.line(plot_x0, py(t), plot_x1, py(t), stroke=GRID if t != 0 else MUTED, sw=1 if t != 0 else 1.5)
        svg.text(plot_x0 - 6, py(t) + 5, fmt(t, tick_digits), size=14, anchor="end", fill=MUTED)
    for v in (xs[0], xs[len(xs) // 2], xs[-1]):
        svg.text(px(v), plot_y1 + 20, fmt(v, 0), size=14, anchor="middle", fill=MUTED)
    if x_label:
        svg.text((plot_x0 + plot_x1) / 2, plot_y1 + 40, x_label, size=14, anchor="middle", fill=MUTED)
    svg.polyline([(px(a), py(b)) for a, b in zip(xs, ys)], stroke=color, sw=2.5)
    if mark is not None:
        svg.circle(px(xs[mark]), py(ys[mark]), 6, fill=color, stroke="#ffffff", sw=2)


def dial(svg, cx, cy, radius, hands, *, arc=None):
    """A circle of ``radius`` px around (cx, cy) with hands drawn from its centre, for one 2-D pair of
    features. Each hand is (x, y, colour, label, dashed) in units of the radius ((1, 0) points right,
    (0, 1) up); ``arc`` = (hand_a, hand_b) indices draws the angle from one hand to the other."""
    svg.circle(cx, cy, radius, stroke=GRID, sw=1.5)
    svg.line(cx - radius - 8, cy, cx + radius + 8, cy, stroke=GRID)
    svg.line(cx, cy - radius - 8, cx, cy + radius + 8, stroke=GRID)
    if arc is not None:
        (ax, ay), (bx, by) = ((hands[k][0], hands[k][1]) for k in arc)
        a, b = np.arctan2(ay, ax), np.arctan2(by, bx)
        turn = (b - a + np.pi) % (2 * np.pi) - np.pi  # the shorter way round, −π … π
        r = radius * 0.32
        x1, y1 = cx + r * np.cos(a), cy - r * np.sin(a)
        x2, y2 = cx + r * np.cos(a + turn), cy - r * np.sin(a + turn)
        sweep = 0 if turn > 0 else 1  # counter-clockwise on screen is sweep 0 (y points down)
        svg.path(f"M {x1:.1f} {y1:.1f} A {r:.1f} {r:.1f} 0 0 {sweep} {x2:.1f} {y2:.1f}", stroke=INK, sw=1.5)
    labels_at = []  # where labels went, so that two hands close together do not print on top of each other
    for hx, hy, colour, label, dashed in hands:
        length = float(np.hypot(hx, hy))
        tip_x, tip_y = cx + radius * hx, cy - radius * hy
        if length > 1e-9:
            ux, uy = hx / length, -hy / length  # on screen
            base_x, base_y = tip_x - 12 * ux, tip_y - 12 * uy
            svg.line(cx, cy, base_x, base_y, stroke=colour, sw=2 if dashed else 3, dash="6 4" if dashed else None)
            if not dashed:
                svg.polygon(
                    [(tip_x, tip_y), (base_x - 6 * uy, base_y + 6 * ux), (base_x + 6 * uy, base_y - 6 * ux)],
                    fill=colour,
                )
            if label:
                lx, ly = tip_x + 16 * ux, tip_y + 16 * uy
                while any(abs(ly - y0) < 20 and abs(lx - x0) < 90 for x0, y0 in labels_at):
                    ly += 20
                labels_at.append((lx, ly))
                anchor = "start" if ux > 0.3 else "end" if ux < -0.3 else "middle"
                svg.text(lx, ly + 5, label, size=15, anchor=anchor, fill=colour, bold=not dashed)
