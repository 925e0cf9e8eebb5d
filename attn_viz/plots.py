"""Figures for the lessons: attention heatmaps, weight bars, dot-product histograms, contributions, curves.

Importing this module registers a Chinese font (``fonts.setup()``) and a projector-friendly style
(large text, colour-blind-safe colours, text at WCAG AA contrast), and in a Jupyter kernel makes every
figure carry alt text (``alt_text``: what it shows and its key numbers, for screen readers). Every
function returns the matplotlib Figure; in a notebook write ``fig = plots.heatmap(...)`` and the inline
backend shows it once.
"""

import math

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib import font_manager
from matplotlib.patches import Rectangle

from attn_core import examples
from attn_core._validate import first_index, positive_number
from attn_core.lang import get_lang

from . import alt_text, fonts
from .messages import msg
from .svg import contrast

NEG_INF = "\u2212∞"
MASKED_WEIGHT = "\u2212∞→0"  # a masked cell of a weight map: its score −∞ became the weight 0
MIN_MASKED_SIZE = 9  # points: a masked cell's label shrinks down to this (on two lines) before it is left out
MASKED_COLOUR, HATCH_COLOUR = "#d9d9d9", "#9a9a9a"
DROPPED_COLOUR, DROPPED_INK = "#e6e6e6", "#4d4d4d"  # a padding query's row: greyed, its numbers in dark grey
WEIGHTS, SCORES, REACH = "weights", "scores", "reach"  # the colour scales of heatmap(kind=...)
REACH_COLOURS = ("#f2f2f2", "#0072B2")  # a 0/1 map (who can reach whom): "no" light grey, "yes" blue (8.6:1 apart)
SCORE_BOUNDS = (1.0, 2.5, 5.0)  # × 10^k: a score map's colour bar ends on one of these (see _score_bound)
WEIGHT_CMAP = "viridis"  # on 0 … 1, as the explorers (svg.viridis)
SCORE_CMAP = "RdBu_r"  # diverging, white at 0: blue negative, red positive
MIN_TICK_SIZE = 12  # points: the smallest tick label, readable on a projector
FEW_TICKS = 8  # up to this many tick labels are all written; more are thinned when they do not fit
BASE_COLOUR, HIGHLIGHT_COLOUR = "#0072B2", "#D55E00"
HIGHLIGHT_TEXT = "#A84A00"  # the highlighted bar's label: HIGHLIGHT_COLOUR darkened to 5.8:1 on white (was 3.9:1)
# Okabe & Ito's palette, distinguishable with the common colour-vision deficiencies (tests/test_colours.py
# simulates them). The colours with at least 3:1 against white come first: lines use them.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000", "#E69F00", "#56B4E9", "#F0E442")
TOKEN_SIZE, ANNOTATION_SIZE = 14, 13
AXIS_LABEL_PAD = 12  # points between a matrix's y label and its tick labels (4 read as one block with them)
WEIGHT_YLIM = (0.0, 1.12)  # a bar chart of weights: 0 … 1, with room above for a full bar's number
MAX_WIDTH = 10.5  # inches: at 100 dpi a notebook shows the figure unscaled, so text keeps its size
MAX_HEIGHT = 5.8  # inches: a heatmap fits a projector screen (≤ 600 px at 100 dpi, cropped, with its margin)

STYLE = {
    "font.size": 13,
    "axes.titlesize": 16,
    "axes.labelsize": 14,
    "xtick.labelsize": 13,
    "ytick.labelsize": 13,
    "legend.fontsize": 13,
    "legend.title_fontsize": 13,
    "figure.titlesize": 18,
    "image.cmap": "viridis",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
}


def apply_style():
    """(Re)apply the Chinese font and the course style, e.g. after ``plt.rcdefaults()``."""
    fonts.setup()
    mpl.rcParams.update(STYLE)


apply_style()
alt_text.install()


# ---------------------------------------------------------------- helpers


def _array(x, name, ndim, allow_neg_inf=True):
    """A float copy of ``x`` (the caller's array is never touched) with a clear error if it does not fit."""
    try:
        a = np.array(x, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(msg("plot_not_numbers", name=name, type=type(x).__name__)) from None
    if a.ndim != ndim:
        several = ndim == 2 and a.ndim == 3
        hint = msg("plot_use_heatmaps") if several else ""
        raise ValueError(msg("plot_wrong_ndim", name=name, ndim=ndim, shape=a.shape, hint=hint).strip())
    bad = np.isnan(a) | np.isposinf(a) | (np.isneginf(a) & (not allow_neg_inf))
    if bad.any():
        raise ValueError(msg("plot_not_drawable", name=name, where=first_index(bad)))
    return a


def _labels(labels, n, name, what):
    """``labels`` as strings, one per item; ``what`` names the items ("rows", "values", …: a catalog key)."""
    labels = [str(label) for label in labels]
    if len(labels) != n:
        raise ValueError(msg("plot_label_count", name=name, count=len(labels), n=n, what=msg(f"plot_what_{what}")))
    return labels


# the English gloss of every token of the running examples (我 → I), for the English edition's tick labels
GLOSSES = {
    token: gloss
    for example in (examples.four_words(), examples.coreference(), examples.coreference_wide())
    for token, gloss in zip(example.tokens, example.gloss)
}


_BARE = []  # non-empty while a figure is drawn with its tokens alone, to measure the Chinese edition's cells


def _glossing():
    return get_lang() == "en" and not _BARE


def _glossed(labels):
    """The tick labels as the English edition writes the example's tokens: with their gloss (我 “I”), as
    the explorers' rows (``_fit_ticks`` slants the columns' when they do not fit). The Chinese edition, and
    labels that are no example token (English words, numbers), stay as they are."""
    if not _glossing():
        return list(labels)
    return [_one_line(t) if t in GLOSSES else t for t in labels]


def _one_line(token):
    """A token with its gloss on one line: 我 “I”; a punctuation mark with its name, ， (comma)."""
    gloss = GLOSSES[token]
    if gloss in PUNCTUATION_GLOSSES:
        return f"{token} ({PUNCTUATION_GLOSSES[gloss]})"
    return f"{token} “{_short_gloss(gloss)}”"


def _glossed_below(labels):
    """As ``_glossed``, the gloss on a line under its token (a bar is narrower than a heatmap's row)."""
    if not _glossing():
        return list(labels)
    return [f"{t}\n{_short_gloss(GLOSSES[t])}" if t in GLOSSES else t for t in labels]


# a punctuation token is glossed by its name: lesson 08's comma read ，“，” (a quoted comma beside a comma)
PUNCTUATION_GLOSSES = {",": "comma", ".": "full stop", "?": "question mark", "!": "exclamation mark"}


def _short_gloss(gloss):
    """A gloss as a tick label writes it: a punctuation mark's name in brackets, (comma); a gloss without its
    note in brackets ("that (classifier)" → "that": lesson 08's widest label, its map's room)."""
    if gloss in PUNCTUATION_GLOSSES:
        return f"({PUNCTUATION_GLOSSES[gloss]})"
    return gloss.split(" (")[0]


def _fmt(value, fmt):
    """A number as shown on a figure: −∞ for masked scores, a true minus sign for negatives."""
    return NEG_INF if np.isneginf(value) else fmt.format(value).replace("-", "\u2212")


def _distinct_digits(values, digits=2, most=3):
    """Decimals enough (from ``digits``, up to ``most``) that values which differ are not printed alike:
    lesson 05's legend gave 0.35 for both 喜欢 (0.347) and 语言 (0.354), under a title that calls 语言's the
    highest."""
    values = np.asarray(values, dtype=float).ravel()
    while digits < most:
        shown = {}
        for v in values[np.isfinite(values)]:
            shown.setdefault(f"{v:.{digits}f}", set()).add(float(v))
        if all(len(vs) == 1 for vs in shown.values()):
            break
        digits += 1
    return digits


def _contrast(rgba):
    """Black or white, whichever contrasts more (WCAG) with a cell of colour ``rgba``."""
    cell = mpl.colors.to_hex(rgba)
    return "white" if contrast("#ffffff", cell) >= contrast("#000000", cell) else "black"


def _axes(ax, figsize):
    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    return fig, ax


def _draw_matrix(ax, M, row_labels, col_labels, *, scale, annotate, fmt, size, token_size=TOKEN_SIZE, masked=None):
    """One matrix as coloured cells on ``scale`` (see ``_scale``). Masked cells (−∞ entries, or False in
    ``masked``'s complement) are grey, hatched and marked −∞ (scores) or −∞ → 0 (weights)."""
    n_q, n_k = M.shape
    if masked is None:
        masked = np.isneginf(M)
    cmap = scale["cmap"] if isinstance(scale["cmap"], mpl.colors.Colormap) else mpl.colormaps[scale["cmap"]]
    cmap = cmap.with_extremes(bad=MASKED_COLOUR)
    im = ax.imshow(np.ma.masked_array(M, mask=masked), cmap=cmap, vmin=scale["vmin"], vmax=scale["vmax"])
    for i, j in np.argwhere(masked):
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="//", edgecolor=HATCH_COLOUR, linewidth=0))
    if annotate:
        for i in range(n_q):
            for j in range(n_k):
                if masked[i, j]:
                    text, colour = scale["masked_text"], "black"
                else:
                    text, colour = _fmt(M[i, j], fmt), _contrast(cmap(im.norm(M[i, j])))
                box = {"facecolor": MASKED_COLOUR, "edgecolor": "none", "pad": 1} if masked[i, j] else None
                t = ax.text(j, i, text, ha="center", va="center", color=colour, fontsize=size, bbox=box)
                t._attn_masked = bool(masked[i, j])
    ax.set_xticks(range(n_k), labels=_glossed(col_labels), fontsize=token_size)
    ax.set_yticks(range(n_q), labels=_glossed(row_labels), fontsize=token_size)
    ax.set_xticks(np.arange(n_k + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(n_q + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=2)
    ax.tick_params(which="minor", length=0)
    ax.tick_params(which="major", length=0)
    ax.spines[:].set_visible(False)
    ax._attn_tick_labels = (list(row_labels), list(col_labels))
    ax._attn_shape = (n_q, n_k)
    ax.yaxis.labelpad = AXIS_LABEL_PAD  # kept by a later set_ylabel (lesson 11 sets its own y label)
    return im


def _looks_like_weights(M):
    """Rows of non-negative numbers that each sum to 1 (what softmax gives, masked cells included as 0)."""
    return bool(np.isfinite(M).all() and (M >= 0).all() and np.allclose(M.sum(axis=-1), 1.0, rtol=0, atol=1e-6))


def _mask(mask, shape, name):
    """``mask`` (True = may attend, as in attn_core; broadcast like attn_core does) as the boolean array of
    cells to draw masked, or None."""
    if mask is None:
        return None
    m = np.asarray(mask)
    if m.dtype != bool:
        raise TypeError(msg("plot_mask_not_bool", name=name, dtype=m.dtype))
    try:
        return ~np.broadcast_to(m, shape)
    except ValueError:
        raise ValueError(msg("plot_mask_shape", name=name, shape=m.shape, target=shape)) from None


def _scale(Ms, masks, kind, vmin, vmax, label):
    """The colour scale shared by the matrices ``Ms``: a dict with kind, cmap, vmin, vmax, label and the
    text of a masked cell. ``kind=None`` takes "weights" when every matrix looks like weights."""
    if kind not in (None, WEIGHTS, SCORES, REACH):
        raise ValueError(msg("plot_kind", kind=kind))
    if kind == REACH:
        for M in Ms:
            bad = ~np.isin(M, (0.0, 1.0))
            if bad.any():
                raise ValueError(msg("plot_not_reach", where=first_index(bad), value=_fmt(M[bad][0], "{:g}")))
        yes, no = label if label is not None else (msg("plot_reach_yes"), msg("plot_reach_no"))
        return {
            "kind": REACH,
            "cmap": mpl.colors.ListedColormap(REACH_COLOURS),
            "vmin": 0.0,
            "vmax": 1.0,
            "label": msg("plot_reach_key", yes=yes, no=no),
            "labels": (yes, no),
            "masked_text": NEG_INF,
        }
    if kind is None:
        kind = WEIGHTS if all(_looks_like_weights(M) for M in Ms) else SCORES
    if kind == WEIGHTS:
        for M, masked in zip(Ms, masks):
            bad = ~np.isfinite(M) | (M < 0) | (M > 1 + 1e-9)
            if bad.any():
                raise ValueError(msg("plot_not_weights", where=first_index(bad), value=_fmt(M[bad][0], "{:g}")))
            if masked is not None and (M[masked] != 0).any():
                where = first_index(masked & (M != 0))
                raise ValueError(msg("plot_mask_not_zero", where=where, value=_fmt(M[where], "{:.3g}")))
        if (vmin not in (None, 0)) or (vmax not in (None, 1)):
            raise ValueError(msg("plot_weights_scale", vmin=vmin, vmax=vmax))
        if label not in (None, msg("plot_weight_label")):
            raise ValueError(msg("plot_weights_label", label=label, fixed=msg("plot_weight_label")))
        return {
            "kind": WEIGHTS,
            "cmap": WEIGHT_CMAP,
            "vmin": 0.0,
            "vmax": 1.0,
            "label": msg("plot_weight_label"),
            "masked_text": MASKED_WEIGHT,
        }
    finite = np.concatenate([M[np.isfinite(M) & (True if m is None else ~m)] for M, m in zip(Ms, masks)])
    top = _score_bound(float(np.abs(finite).max()) if finite.size else 1.0)
    return {
        "kind": SCORES,
        "cmap": SCORE_CMAP,
        "vmin": float(vmin) if vmin is not None else -top,
        "vmax": float(vmax) if vmax is not None else top,
        "label": label if label is not None else msg("plot_score_label"),
        "masked_text": NEG_INF,
    }


def _score_bound(top):
    """The end of a score map's symmetric colour bar: ``top`` rounded up to 1, 2.5 or 5 × 10^k. So the same
    matrix gets the same colours wherever it is drawn, alone or beside a slightly larger one (lesson 01's
    QKᵀ next to the shared-projection scores, ±2.25, and lesson 02's alone, ±1.85, both get ±2.5)."""
    if not top > 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(top))
    return next(b * power for b in (*SCORE_BOUNDS, 10.0) if b * power >= top * (1 - 1e-12))


def _cell_indices(cells, row_labels, col_labels):
    """``cells`` [(row, col), ...] given as labels or indices, as index pairs (a clear error otherwise)."""
    out = []
    for cell in cells:
        pair = []
        for value, labels in zip(cell, (row_labels, col_labels)):
            if isinstance(value, (int, np.integer)) and -len(labels) <= value < len(labels):
                pair.append(int(value) % len(labels))
            elif value in labels:
                pair.append(labels.index(value))
            else:
                raise ValueError(msg("plot_highlight_label", highlight=value, labels=labels))
        out.append(tuple(pair))
    return out


def _bold():
    """ "bold" when the CJK family in use has a bold face, else "normal": the installed Noto Sans CJK SC is
    often Regular only, and asking it for bold prints matplotlib's "findfont: Failed to find font weight
    bold" under the figure (lessons 06 and 12). Highlighted text keeps its colour either way."""
    family = fonts.family()
    for entry in font_manager.fontManager.ttflist:
        weight = entry.weight
        if entry.name == family and (
            weight in ("bold", "heavy", "black", "demibold", "semibold") or (isinstance(weight, int) and weight >= 600)
        ):
            return "bold"
    return "normal"


def _emphasise(ticks, indices):
    """Colour (and embolden, when the font has a bold face) the tick labels at ``indices`` (the highlighted
    rows, columns or bars)."""
    weight = _bold()
    for k in indices:
        ticks[k].set_color(HIGHLIGHT_TEXT)
        ticks[k].set_fontweight(weight)


def _colour_key(fig, im, axes, scale):
    """The colour bar of a weight or score map; a reach map (two colours) gets a two-entry legend instead."""
    if scale["kind"] != REACH:
        bar = fig.colorbar(im, ax=axes, shrink=COLOUR_BAR_SHRINK)
        bar.set_label(scale["label"], labelpad=COLOUR_BAR_LABEL_PAD)  # clear of the tick labels
        if scale["kind"] == WEIGHTS:  # every weight bar alike: 0.0, 0.2, … 1.0, however short the bar
            bar.set_ticks(np.linspace(0, 1, 6))
            bar.ax.yaxis.set_major_formatter(mpl.ticker.FuncFormatter(lambda v, _: f"{v:.1f}"))
        return bar
    patches = [
        mpl.patches.Patch(facecolor=colour, edgecolor=HATCH_COLOUR, label=text)
        for colour, text in zip(reversed(REACH_COLOURS), scale["labels"])
    ]
    fig.legend(handles=patches, loc="outside lower center", ncols=2, frameon=False)
    return None


COLOUR_BAR_SHRINK = 0.85  # a colour bar's length, of the height laid out for its maps (before _match_colour_bars)
COLOUR_BAR_LABEL_PAD = 10  # points between a colour bar's tick labels and its label
PANEL_PAD = 0.2  # inches around each panel of a constrained figure holding several heatmaps


def _apart(fig):
    """Room between side-by-side panels: a colour bar's label and the next panel's y label read as one block
    at constrained layout's default padding (lesson 04's row vs column pair)."""
    engine = fig.get_layout_engine()
    if isinstance(engine, mpl.layout_engine.ConstrainedLayoutEngine):
        engine.set(w_pad=max(PANEL_PAD, engine.get()["w_pad"]))


def _cell_px(ax):
    """The side of a drawn matrix's cell in pixels (the shorter one, for cells wider than tall)."""
    n_q, n_k = ax._attn_shape
    return min(ax.bbox.width / n_k, ax.bbox.height / n_q)


def _has_glosses(ax):
    rows, cols = ax._attn_tick_labels
    return any(label in GLOSSES for label in (*rows, *cols))


GROWTH_SLACK = 0.97  # an English cell within 3 % of the Chinese one is as large


def _as_large_as_chinese(fig, rebuild, nrows, ncols):
    """The English edition's figure of matrices, redrawn larger (``rebuild(figsize)``) while its cells are
    smaller than the same figure's with the tokens alone (the Chinese edition's layout): the glosses take
    their room from the figure, not from the map (lesson 08's 10×10 heads were half the Chinese ones'). Up to
    MAX_WIDTH × MAX_HEIGHT (a notebook shows a wider figure scaled down, its text smaller)."""
    ax = fig.axes[0]
    if not _glossing() or not _has_glosses(ax):
        return fig
    _BARE.append(True)
    try:
        bare = rebuild(None)
    finally:
        _BARE.pop()
    target = _cell_px(bare.axes[0])
    plt.close(bare)
    n_q, n_k = ax._attn_shape
    for _ in range(2):
        cell = _cell_px(fig.axes[0])
        if cell >= GROWTH_SLACK * target:
            break
        w, h = fig.get_size_inches()
        more = (target - cell) / fig.dpi
        size = (min(max(w, MAX_WIDTH), w + ncols * n_k * more), min(max(h, MAX_HEIGHT), h + nrows * n_q * more))
        if size[0] < w + 0.05 and size[1] < h + 0.05:
            break
        plt.close(fig)
        fig = rebuild(size)
    return fig


def _bare_cell(fig, ax):
    """The cell ``ax`` gets in its (the caller's) figure with the tokens alone, its glossed labels put back."""
    if not _glossing() or not _has_glosses(ax):
        return None
    rows, cols = ax._attn_tick_labels
    ax.set_xticks(range(len(cols)), labels=cols)
    ax.set_yticks(range(len(rows)), labels=rows)
    fig.draw_without_rendering()
    cell = _cell_px(ax)
    ax.set_xticks(range(len(cols)), labels=_glossed(cols))
    ax.set_yticks(range(len(rows)), labels=_glossed(rows))
    return cell


def _grow_caller(fig, ax, target):
    """A panel of the caller's figure (lesson 04's pair) whose glossed labels leave it smaller cells than
    the tokens alone: the figure grows by the difference, up to MAX_WIDTH × MAX_HEIGHT."""
    if target is None or ax.get_subplotspec() is None:
        return False
    nrows, ncols = ax.get_subplotspec().get_gridspec().get_geometry()
    n_q, n_k = ax._attn_shape
    cell = _cell_px(ax)
    if cell >= GROWTH_SLACK * target:
        return False
    w, h = fig.get_size_inches()
    more = (target - cell) / fig.dpi
    size = (min(max(w, MAX_WIDTH), w + ncols * n_k * more), min(max(h, MAX_HEIGHT), h + nrows * n_q * more))
    if size[0] < w + 0.05 and size[1] < h + 0.05:
        return False
    fig.set_size_inches(*size)
    fig.draw_without_rendering()
    return True


def _reset_ticks(ax):
    """A drawn matrix's tick labels as ``_draw_matrix`` wrote them (glossed, one line, upright), to be
    fitted again; a y axis lent to a neighbour (no labels) stays blank."""
    rows, cols = ax._attn_tick_labels
    ax.tick_params(axis="x", labelrotation=0)
    ax.set_xticks(range(len(cols)), labels=_glossed(cols), fontsize=TOKEN_SIZE)
    for t in ax.get_xticklabels():
        t.set_horizontalalignment("center")
        t.set_verticalalignment("top")
        t.set_rotation_mode("default")
    if any(t.get_text() for t in ax.get_yticklabels()):
        ax.set_yticks(range(len(rows)), labels=_glossed(rows), fontsize=TOKEN_SIZE)


def _same_title_size(fig):
    """Side-by-side panels' titles at one size, the smallest any needs (lesson 04's right title was set
    smaller than the left one)."""
    axes = [ax for ax in fig.axes if hasattr(ax, "_attn_shape")]
    for ax in axes:
        _narrow_title(fig, ax)
    sizes = [ax.title.get_fontsize() for ax in axes if ax.title.get_text()]
    for ax in axes:
        ax.title.set_fontsize(min(sizes, default=ax.title.get_fontsize()))


def _match_colour_bars(fig):
    """Each colour bar as tall as the maps it belongs to: constrained layout makes it a share of the height
    laid out for them, twice the map's height where a map is narrower than its room is tall (lesson 04)."""
    for _ in range(2):
        fig.draw_without_rendering()
        for cax in fig.axes:
            info = getattr(cax, "_colorbar_info", None)
            parents = [p for p in (info or {}).get("parents", ()) if hasattr(p, "_attn_shape")]
            if not parents:
                continue
            room = [p.get_position(original=True) for p in parents]
            drawn = [p.get_position(original=False) for p in parents]
            tall = max(b.y1 for b in room) - min(b.y0 for b in room)
            shown = max(b.y1 for b in drawn) - min(b.y0 for b in drawn)
            if tall > 0:
                info["shrink"] = min(1.0, shown / tall)
    fig.draw_without_rendering()


def _extent(ticks, size, along, renderer):
    """The widest (``along="width"``) or tallest tick label at font ``size``, in pixels."""
    for t in ticks:
        t.set_fontsize(size)
    return max(getattr(t.get_window_extent(renderer), along) for t in ticks)


def _counting(labels):
    """Whether the labels count 0, 1, 2, ... (or from another start) in order: then every 2nd one is enough."""
    try:
        numbers = [int(label) for label in labels]
    except ValueError:
        return False
    return numbers == list(range(numbers[0], numbers[0] + len(numbers)))


def _fit_ticks(fig, axes):
    """Tick labels that can be read on a projector: at their size, or at MIN_TICK_SIZE where a cell is too
    narrow. Where even that does not fit, more than FEW_TICKS labels that count in order (0, 1, 2, ...) are
    thinned (only every 2nd, 3rd, ... is written, starting from the first, none rotated); words and numbers out
    of order all stay, slanted by 45° along x, since a missing word cannot be guessed from its neighbours.
    Measured on the laid-out figure: call it last."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    gap = 0.5 * MIN_TICK_SIZE * fig.dpi / 72  # between neighbouring labels, in pixels
    # every panel's rows first: their glosses on a second line leave the columns wider, which then fit theirs
    for along in ("height", "width"):
        if along == "width":
            fig.draw_without_rendering()
        for ax in axes:
            rows, cols = ax._attn_tick_labels
            labels, axis = (rows, ax.yaxis) if along == "height" else (cols, ax.xaxis)
            ticks = axis.get_ticklabels()
            written = [k for k, t in enumerate(ticks) if t.get_text()]
            if not written:
                continue  # a panel that lends its labels to its neighbour
            room = getattr(ax.bbox, along) / len(labels)  # pixels per cell
            spacing = min(np.diff(written), default=len(labels))  # cells from one written label to the next

            size = max(MIN_TICK_SIZE, ticks[0].get_fontsize())
            if along == "width":
                _gloss_below(axis, ticks, labels, size, spacing * room, gap, renderer)
                if [t.get_text() for t in axis.get_ticklabels()] == _glossed(labels) and size > MIN_TICK_SIZE:
                    # two lines at the smallest size rather than slanted at the larger (lesson 04's pair)
                    _gloss_below(axis, axis.get_ticklabels(), labels, MIN_TICK_SIZE, spacing * room, gap, renderer)
                    if [t.get_text() for t in axis.get_ticklabels()] != _glossed(labels):
                        size = MIN_TICK_SIZE
            else:  # a row's gloss under its token where two lines fit the row (not lesson 07's padding pair),
                # as high as the layout gives it: the one-line labels' width may be what makes it lower
                laid_out = ax.get_position(original=True).height * fig.bbox.height / len(labels)
                if _gloss_below_rows(axis, ticks, labels, size, spacing * max(room, laid_out), gap, renderer):
                    room = max(room, laid_out)  # checked again once laid out: _rows_on_one_line_where_crowded
            ticks = axis.get_ticklabels()
            if _extent(ticks, size, along, renderer) + gap > spacing * room:
                size = MIN_TICK_SIZE
            shown, rotation = [t.get_text() for t in ticks], 0
            if (width := _extent(ticks, size, along, renderer) + gap) > spacing * room:
                if not _counting(labels):
                    # words, or numbers out of order (a permuted axis): a missing label cannot be inferred
                    # from its neighbours, so every one stays (slanted along x; at the smallest size along y)
                    rotation = 45 if along == "width" else 0
                elif along == "width" and len(labels) <= FEW_TICKS:
                    rotation = 45  # a few long labels: keep every one, slanted
                else:
                    step = math.ceil(width / room)
                    shown = [label if k % step == 0 else "" for k, label in enumerate(labels)]
            axis.set_ticks(range(len(labels)), labels=shown, fontsize=size)
            if rotation:
                # slanted labels stand room·sin 45° apart: upright when their line is taller (lesson 08's ten)
                tall = max(t.get_window_extent(renderer).height for t in axis.get_ticklabels())
                rotation = 45 if tall + gap / 2 <= room * math.sqrt(0.5) else 90
                ax.tick_params(axis="x", labelrotation=rotation)
                for t in axis.get_ticklabels():
                    t.set_horizontalalignment("right")
                    t.set_verticalalignment("center" if rotation == 90 else "top")
                    t.set_rotation_mode("anchor")
    fig.draw_without_rendering()
    _rows_on_one_line_where_crowded(fig)


def _rows_on_one_line_where_crowded(fig):
    """Rows whose two-line labels (token over gloss) came out taller than their drawn row (the layout
    gave less than it promised, or a neighbouring panel took room since): back on one line."""
    renderer = fig.canvas.get_renderer()
    changed = False
    for ax in fig.axes:
        if not hasattr(ax, "_attn_shape"):
            continue
        rows = ax._attn_tick_labels[0]
        ticks = ax.yaxis.get_ticklabels()
        texts = [t.get_text() for t in ticks]
        if not any(texts) or texts != _glossed_below(rows) or texts == list(rows):
            continue
        gap = 0.5 * MIN_TICK_SIZE * fig.dpi / 72
        if max(t.get_window_extent(renderer).height for t in ticks) + gap / 2 > ax.bbox.height / len(rows):
            ax.yaxis.set_ticks(range(len(rows)), labels=_glossed(rows), fontsize=ticks[0].get_fontsize())
            changed = True
    if changed:
        fig.draw_without_rendering()


def _gloss_below(axis, ticks, labels, size, room, gap, renderer):
    """In the English edition, a column's token with its gloss on a second line (我 over I) where the
    one-line form (我 “I”) does not fit the column but two lines do (else ``_fit_ticks`` slants it)."""
    below = _glossed_below(labels)
    if below == list(labels) or [t.get_text() for t in ticks] != _glossed(labels):
        return
    if _extent(ticks, size, "width", renderer) + gap <= room:
        return
    one_line = [t.get_text() for t in ticks]
    for t, text in zip(ticks, below):
        t.set_text(text)
    fits = _extent(ticks, size, "width", renderer) + gap <= room
    axis.set_ticks(range(len(labels)), labels=below if fits else one_line, fontsize=size)
    for t in axis.get_ticklabels():
        t.set_linespacing(1.0)


def _gloss_below_rows(axis, ticks, labels, size, room, gap, renderer):
    """In the English edition, a row's token over its gloss (我 over I) where the two lines fit the row's
    height with air: the one-line 语言 “language” took a third of lesson 04's panel and left its 4×4 map
    38 px a cell. Rows too low for two lines keep one."""
    below = _glossed_below(labels)
    if below == list(labels) or [t.get_text() for t in ticks] != _glossed(labels):
        return False
    one_line = [t.get_text() for t in ticks]
    for t, text in zip(ticks, below):
        t.set_text(text)
        t.set_linespacing(1.0)
    fits = _extent(ticks, size, "height", renderer) + gap <= room
    axis.set_ticks(range(len(labels)), labels=below if fits else one_line, fontsize=size)
    for t in axis.get_ticklabels():
        t.set_linespacing(1.0)
    return fits


def _fits_cell(t, renderer, pad, room_w, room_h):
    """Whether text ``t`` (with ``pad`` pixels of box) fits a cell of room_w × room_h pixels, with air."""
    box = t.get_window_extent(renderer)
    return box.width + pad <= 0.92 * room_w and box.height + pad <= 0.92 * room_h


def _fit_masked(fig, axes):
    """A masked cell's label (−∞→0) inside its cell: on two lines (−∞ over →0) and smaller, down to
    MIN_MASKED_SIZE, where it is wider than the cell (the English edition's narrower panels), left out (the
    grey hatch still marks the cell) where even that does not fit. Its grey box never covers a neighbour."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    for ax in axes:
        n_q, n_k = ax._attn_shape
        room_w, room_h = ax.bbox.width / n_k, ax.bbox.height / n_q
        pad = 2 * 2 * fig.dpi / 72  # the box's pad (1 pt) on both sides, and a point of air
        for t in ax.texts:
            if not getattr(t, "_attn_masked", False) or not t.get_text():
                continue

            if _fits_cell(t, renderer, pad, room_w, room_h):
                continue
            if "→" in t.get_text():
                t.set_text(t.get_text().replace("→", "\n→"))
                t.set_linespacing(1.0)
            while not _fits_cell(t, renderer, pad, room_w, room_h) and t.get_fontsize() > MIN_MASKED_SIZE:
                t.set_fontsize(t.get_fontsize() - 1)
            if not _fits_cell(t, renderer, pad, room_w, room_h):
                t.set_text("")
                t.set_bbox(None)


def _fit_titles(fig, axes):
    """Each title no wider than its axes: a longer one is broken into two lines at the space (or the
    colon / comma of a Chinese title) nearest its middle, never inside $…$, so that it does not run into a
    neighbouring panel or colour bar (lesson 04's two heatmaps side by side). Call before ``_fit_ticks``."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    for ax in axes:
        title = ax.title
        text = title.get_text()
        if not text or "\n" in text or title.get_window_extent(renderer).width <= ax.bbox.width:
            continue
        in_math = np.cumsum([ch == "$" for ch in text]) % 2 == 1
        breaks = [k + 1 for k, ch in enumerate(text) if ch in " ：，；、,;:" and not in_math[k]]
        best = None
        for b in sorted(breaks, key=lambda b: abs(2 * b - len(text))):
            title.set_text(text[:b].rstrip() + "\n" + text[b:].lstrip())
            if title.get_window_extent(renderer).width <= ax.bbox.width:
                best = title.get_text()
                break
            best = best or title.get_text()
        title.set_text(best or text)
    if len(axes) > 1 and any("\n" in ax.title.get_text() for ax in axes):
        for ax in axes:  # side-by-side panels alike: when one title takes two lines, every one does
            _break_title(ax.title)
    fig.draw_without_rendering()


def _break_title(title):
    """A one-line title broken at the space (or Chinese comma / colon) nearest its middle, never inside $…$."""
    text = title.get_text()
    if not text or "\n" in text:
        return
    in_math = np.cumsum([ch == "$" for ch in text]) % 2 == 1
    breaks = [k + 1 for k, ch in enumerate(text) if ch in "：，；、,;:" and not in_math[k]]  # after a colon first
    breaks = breaks or [k + 1 for k, ch in enumerate(text) if ch == " " and not in_math[k]]
    if breaks:
        b = min(breaks, key=lambda b: abs(2 * b - len(text)))
        title.set_text(text[:b].rstrip() + "\n" + text[b:].lstrip())


def _narrow_title(fig, ax):
    """A title still wider than its axes once the ticks are laid out (slanted column labels make a panel
    narrower: lesson 04's English pair) drawn smaller, down to MIN_TICK_SIZE, rather than under the colour bar."""
    renderer = fig.canvas.get_renderer()
    title = ax.title
    while title.get_text() and title.get_fontsize() > MIN_TICK_SIZE:
        if title.get_window_extent(renderer).width <= ax.get_window_extent(renderer).width:
            break
        title.set_fontsize(title.get_fontsize() - 1)
        fig.draw_without_rendering()


def _drop_rows(ax, rows, n_k):
    """Grey the ``rows`` of a drawn matrix whose output is thrown away (a padding query): a light grey veil
    over their cells and muted labels. Their weights stay written: they are computed, only not used."""
    for i in rows:
        veil = Rectangle((-0.5, i - 0.5), n_k, 1, facecolor=DROPPED_COLOUR, alpha=0.72, edgecolor="none", zorder=3)
        ax.add_patch(veil)
    for t in ax.texts:
        x, y = t.get_position()
        if round(y) in rows:
            t.set_color(DROPPED_INK)
            t.set_zorder(4)


def _dropped_indices(dropped_rows, row_labels):
    """``dropped_rows`` (indices or labels) as sorted indices."""
    return sorted({i for i, _ in _cell_indices([(r, 0) for r in dropped_rows or ()], row_labels, ["_"])})


# ---------------------------------------------------------------- figures


def heatmap(
    M,
    row_labels,
    col_labels,
    *,
    ax=None,
    title=None,
    annotate=True,
    fmt="{:.2f}",
    kind=None,
    mask=None,
    label=None,
    vmin=None,
    vmax=None,
    row_title=None,
    col_title=None,
    highlight=None,
    figsize=None,
):
    """A score or weight matrix (n_q × n_k; rectangular for cross-attention) with the tokens on the axes.
    Row i = who asks, column j = who is asked.

    ``kind`` picks the colour scale; left out, a matrix whose rows are non-negative and each sum to 1 is
    drawn as weights, anything else as scores (so every softmax output gets the weight scale without the
    caller asking; give ``kind="weights"`` for a matrix of weights whose rows do not sum to 1, e.g. a
    softmax taken down the columns):

    - ``"weights"``: always viridis on the fixed scale 0 … 1, colour bar "attention weight" (注意力权重),
      so every weight picture of the course, static or live, reads alike. ``vmin``/``vmax`` other than
      0/1 and another ``label`` are refused. Weights close together (all ≈ 0.25) look alike on 0 … 1:
      the numbers in the cells (``annotate=True``) tell them apart; the scale is never stretched.
    - ``"scores"``: a diverging map (blue < 0 < red, white at 0) centred on 0 and symmetric around it
      (± the largest finite magnitude of the matrix, or ``vmin``/``vmax``), colour bar "score" (分数) or
      ``label``; a sign is what a score's colour should show.

    ``mask`` (True = may attend, attn_core's convention, broadcast to M's shape) marks the cells drawn as
    masked: grey, hatched, and written −∞ → 0 (weights: the score −∞ became weight 0) or −∞ (scores);
    the weights there must be 0. −∞ entries of a score matrix are masked without a ``mask``. Tick labels
    are at least 12 pt; with more than 8 tokens that do not fit, only every other (third, ...) label is
    written, never rotated; up to 8 long words all stay, slanted by 45°. The figure is at most MAX_HEIGHT
    (5.8 in: under 600 px at 100 dpi, a projector screen) tall; a long sentence gets cells wider than tall.

    ``kind="reach"``: a 0/1 map (1 = reachable) in two colours with a two-entry legend ("reachable" /
    "not reachable", or ``label=(yes, no)``) instead of a colour bar, and no numbers in the cells.
    ``highlight``: cells [(row, col), ...] (labels or indices) outlined in the highlight colour, their row
    and column labels coloured (e.g. a pronoun's row at its candidate referents).

    ``figsize``: the figure's size in inches (default: from the matrix's shape). In the English edition a
    figure whose glossed labels (我 “I”) would leave smaller cells than the Chinese edition's grows (up to
    MAX_WIDTH × MAX_HEIGHT; in a caller's figure too), the map never shrinks for its labels; the colour bar
    is as tall as the map."""
    args = dict(M=M, row_labels=row_labels, col_labels=col_labels, title=title, annotate=annotate, fmt=fmt)
    args.update(kind=kind, mask=mask, label=label, vmin=vmin, vmax=vmax, row_title=row_title, col_title=col_title)
    args.update(highlight=highlight)
    M = _array(M, "M", 2)
    n_q, n_k = M.shape
    row_labels = _labels(row_labels, n_q, "row_labels", "rows")
    col_labels = _labels(col_labels, n_k, "col_labels", "columns")
    masked = _mask(mask, M.shape, "mask")
    scale = _scale([M], [masked], kind, vmin, vmax, label)
    cells = _cell_indices(highlight or (), row_labels, col_labels)
    width, height = min(MAX_WIDTH, max(5.0, 2.8 + 0.8 * n_k)), max(4.0, 1.8 + 0.7 * n_q)
    flat = height > MAX_HEIGHT and ax is None  # many rows: cells wider than tall, the labels keep their room
    beside = ax is not None  # a panel of the caller's figure: its colour bar may have a neighbour
    fig, ax = _axes(ax, figsize or (width, min(height, MAX_HEIGHT)))
    size = ANNOTATION_SIZE if n_k <= 8 else 12
    annotate = annotate and scale["kind"] != REACH
    if masked is not None:
        masked = masked | np.isneginf(M)
    im = _draw_matrix(ax, M, row_labels, col_labels, scale=scale, annotate=annotate, fmt=fmt, size=size, masked=masked)
    if flat:
        ax.set_aspect("auto")
    ax.set_ylabel(row_title if row_title is not None else msg("plot_query_axis"))
    ax.set_xlabel(col_title if col_title is not None else msg("plot_key_axis"))
    for i, j in cells:
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=HIGHLIGHT_COLOUR, linewidth=3.5))
    if title:
        ax.set_title(title)
    bar = _colour_key(fig, im, ax, scale)
    ax._attn_colour_bar = bar
    if beside:
        _apart(fig)
    shown = np.where(masked, -np.inf, M) if masked is not None and scale["kind"] == SCORES else M
    alt_text.remember(
        ax,
        "heatmap",
        M=shown,
        rows=row_labels,
        cols=col_labels,
        vmin=scale["vmin"],
        vmax=scale["vmax"],
        scale=scale["kind"],
        label=scale["label"],
        masked=masked if masked is not None else np.isneginf(M),
        highlight=cells,
    )
    ax._attn_emphasis = ({i for i, _ in cells}, {j for _, j in cells})
    # a panel beside earlier ones (lesson 04's pair): their labels were fitted before this one took its room,
    # so every panel's are fitted again, together, after the figure has grown for the glosses
    panels = [a for a in fig.axes if hasattr(a, "_attn_emphasis")] if beside else [ax]
    for a in panels[:-1]:
        _reset_ticks(a)
    target = _bare_cell(fig, ax) if beside else None
    _fit_titles(fig, [ax])
    _fit_ticks(fig, panels)
    if beside and _grow_caller(fig, ax, target):
        for a in panels:
            _reset_ticks(a)
        _fit_ticks(fig, panels)
    _narrow_title(fig, ax)
    if beside:
        _same_title_size(fig)
    _fit_masked(fig, [ax])
    for a in panels:
        _emphasise(a.get_yticklabels(), a._attn_emphasis[0])
        _emphasise(a.get_xticklabels(), a._attn_emphasis[1])
    _match_colour_bars(fig)
    if not beside and figsize is None:  # (a redrawn one is given its size: it is not redrawn again)
        fig = _as_large_as_chinese(fig, lambda size: heatmap(**args, figsize=size), 1, 1)
    return fig


def heatmaps(
    Ms,
    titles,
    row_labels,
    col_labels,
    *,
    ncols=None,
    suptitle=None,
    kind=None,
    masks=None,
    label=None,
    vmin=None,
    vmax=None,
    row_title=None,
    col_title=None,
    dropped_rows=None,
    figsize=None,
):
    """Several small heatmaps side by side on one colour scale (e.g. one per attention head), with one
    colour bar. ``kind``, ``label``, ``vmin`` and ``vmax`` as in ``heatmap``: weights (every matrix's rows
    sum to 1, or ``kind="weights"``) on the fixed 0 … 1 scale, scores on one diverging scale symmetric
    around 0 that covers all the matrices. ``masks``: one mask per matrix (True = may attend; None for an
    unmasked one), drawn as in ``heatmap``; ``kind="reach"`` as in ``heatmap`` (two colours, a legend).
    ``dropped_rows``: rows (indices or labels) whose output is thrown away, e.g. a padding token's query
    row: greyed in every panel, their weights still written (they are computed, only never used).
    ``figsize`` and the English edition's larger figure as in ``heatmap``."""
    args = dict(Ms=Ms, titles=titles, row_labels=row_labels, col_labels=col_labels, ncols=ncols, suptitle=suptitle)
    args.update(kind=kind, masks=masks, label=label, vmin=vmin, vmax=vmax, row_title=row_title, col_title=col_title)
    args.update(dropped_rows=dropped_rows)
    Ms = [_array(M, f"Ms[{k}]", 2) for k, M in enumerate(Ms)]
    if not Ms:
        raise ValueError(msg("plot_no_matrices"))
    titles = _labels(titles, len(Ms), "titles", "matrices")
    n_q, n_k = Ms[0].shape
    for k, M in enumerate(Ms):
        if M.shape != (n_q, n_k):
            raise ValueError(msg("plot_shapes_differ", first=Ms[0].shape, k=k, shape=M.shape))
    row_labels = _labels(row_labels, n_q, "row_labels", "rows")
    col_labels = _labels(col_labels, n_k, "col_labels", "columns")
    if masks is None:
        masks = [None] * len(Ms)
    masks = list(masks)
    if len(masks) != len(Ms):
        raise ValueError(
            msg("plot_label_count", name="masks", count=len(masks), n=len(Ms), what=msg("plot_what_matrices"))
        )
    masks = [_mask(m, (n_q, n_k), f"masks[{k}]") for k, m in enumerate(masks)]
    dropped = _dropped_indices(dropped_rows, row_labels)
    scale = _scale(Ms, masks, kind, vmin, vmax, label)
    ncols = ncols or min(len(Ms), 4)
    nrows = math.ceil(len(Ms) / ncols)
    panel = min(max(2.6, 0.55 * n_k + 1.0), (MAX_WIDTH - 1.2) / ncols)
    height = nrows * (panel * max(0.4, n_q / n_k) + 0.6) + (0.6 if suptitle else 0.2)
    size = figsize or (panel * ncols + 1.2, height)
    fig, axes = plt.subplots(nrows, ncols, figsize=size, layout="constrained", squeeze=False)
    cell = panel / n_k  # inches per cell: small cells get smaller text and no numbers
    for ax in axes.flat[len(Ms) :]:
        ax.remove()
    for k, ax in enumerate(axes.flat[: len(Ms)]):
        M, masked = Ms[k], masks[k]
        masked = np.isneginf(M) if masked is None else masked | np.isneginf(M)
        im = _draw_matrix(
            ax,
            M,
            row_labels,
            col_labels,
            scale=scale,
            annotate=n_q * n_k <= 36 and cell >= 0.5 and scale["kind"] != REACH,
            fmt="{:.2f}",
            size=12,
            token_size=TOKEN_SIZE if cell >= 0.55 else MIN_TICK_SIZE,
            masked=masked,
        )
        ax.set_title(titles[k])
        _drop_rows(ax, dropped, n_k)
        shown = np.where(masked, -np.inf, M) if scale["kind"] == SCORES else M
        alt_text.remember(
            ax,
            "heatmap",
            M=shown,
            rows=row_labels,
            cols=col_labels,
            vmin=scale["vmin"],
            vmax=scale["vmax"],
            scale=scale["kind"],
            label=scale["label"],
            masked=masked,
            dropped=[row_labels[i] for i in dropped],
        )
        if k % ncols:
            ax.set_yticklabels([])
        else:
            ax.set_ylabel(row_title if row_title is not None else msg("plot_query_axis"))
        if k >= len(Ms) - ncols:
            ax.set_xlabel(col_title if col_title is not None else msg("plot_key_axis"))
    bar = _colour_key(fig, im, list(axes.flat[: len(Ms)]), scale)
    for ax in axes.flat[: len(Ms)]:
        ax._attn_colour_bar = bar
    if dropped:
        veil = mpl.patches.Patch(facecolor=DROPPED_COLOUR, edgecolor=HATCH_COLOUR, label=msg("plot_dropped_rows"))
        fig.legend(handles=[veil], loc="outside lower center", frameon=False)
    if suptitle:
        fig.suptitle(suptitle)
    _fit_titles(fig, list(axes.flat[: len(Ms)]))
    _fit_ticks(fig, list(axes.flat[: len(Ms)]))
    _fit_masked(fig, list(axes.flat[: len(Ms)]))
    for ax in axes.flat[: len(Ms)]:  # _fit_ticks rewrites the tick labels: mute the dropped rows' again
        ticks = ax.get_yticklabels()
        for i in dropped:
            ticks[i].set_color(DROPPED_INK)
    _match_colour_bars(fig)
    if figsize is not None:  # given, or a redrawn figure: not redrawn again
        return fig
    return _as_large_as_chinese(fig, lambda size: heatmaps(**args, figsize=size), nrows, ncols)


def bars(
    values, labels, *, ax=None, title=None, ylim=None, highlight=None, fmt="{:.2f}", ylabel=None, highlight_label=None
):
    """One query's weights (or scores, which may be negative or −∞) as labelled bars.
    ``highlight`` is the index (or label) of the bar to emphasise, or a list of them (e.g. a pronoun's
    candidate referents, emphasised alike); ``highlight_label`` says in a legend what the highlight colour
    means (e.g. "the two candidate referents": without it lesson 06's orange read as "most attention").
    Weights (non-negative, summing to 1) get the course's 0 … 1
    axis, as every weight heatmap, and the y label "attention weight" unless ``ylim``/``ylabel`` say
    otherwise."""
    values = _array(values, "values", 1)
    labels = _labels(labels, values.size, "labels", "values")
    if _looks_like_weights(values):
        ylim = WEIGHT_YLIM if ylim is None else ylim
        ylabel = msg("plot_weight_label") if ylabel is None else ylabel
    highlighted = _bar_indices(highlight, labels)
    fig, ax = _axes(ax, (min(MAX_WIDTH, max(5.0, 1.0 + 0.9 * values.size)), 4.2))
    finite = np.isfinite(values)
    heights = np.where(finite, values, 0.0)
    colours = [HIGHLIGHT_COLOUR if i in highlighted else BASE_COLOUR for i in range(values.size)]
    ax.bar(range(values.size), heights, color=colours, width=0.65)
    lo, hi = min(0.0, heights.min()), max(0.0, heights.max())
    pad = 0.15 * ((hi - lo) or 1.0)
    for i, (v, h) in enumerate(zip(values, heights)):
        ax.text(
            i,
            h + (pad / 4 if h >= 0 else -pad / 4),
            _fmt(v, fmt),
            ha="center",
            va="bottom" if h >= 0 else "top",
            fontsize=ANNOTATION_SIZE,
            color="dimgray" if not finite[i] else "black",
        )
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylim(ylim if ylim is not None else (lo - pad if lo < 0 else 0, hi + pad))
    if tuple(ylim or ()) == WEIGHT_YLIM:
        ax.set_yticks(np.linspace(0, 1, 6))  # 0 … 1; the room above 1 is for a full bar's number
    ax.set_xticks(range(values.size), labels=_glossed_below(labels), fontsize=TOKEN_SIZE)
    _emphasise(ax.get_xticklabels(), highlighted)
    if highlight_label and highlighted:
        key = mpl.patches.Patch(facecolor=HIGHLIGHT_COLOUR, label=highlight_label)
        ax.legend(handles=[key], loc="upper right", frameon=False)
    if ylabel:
        ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    alt_text.remember(ax, "bars", values=values, labels=labels, highlight=highlighted)
    return fig


def _bar_indices(highlight, labels):
    """``highlight`` (None, an index, a label, or a list of them) as a sorted list of bar indices."""
    if highlight is None:
        return []
    many = isinstance(highlight, (list, tuple, np.ndarray))
    out = []
    for h in highlight if many else [highlight]:
        if not isinstance(h, (int, np.integer)):
            if h not in labels:
                raise ValueError(msg("plot_highlight_label", highlight=h, labels=labels))
            out.append(labels.index(h))
        elif not -len(labels) <= h < len(labels):
            raise ValueError(msg("plot_highlight_range", highlight=h, n=len(labels)))
        else:
            out.append(int(h) % len(labels))
    return sorted(set(out))


def compared_bars(rows, labels, titles, *, highlight=None, fmt="{:.2f}", ylabel=None, highlight_label=None):
    """Rows of bars to compare (e.g. one query's weights before and after a change), one panel each,
    stacked, on one shared y range (0 … 1.2 × the largest value, or from the lowest when one is negative),
    with room between a panel's labels and the next title. ``highlight`` as in ``bars``, the same bars in
    every panel; ``highlight_label`` as in ``bars``, in the first panel's legend."""
    rows = [_array(r, f"rows[{k}]", 1) for k, r in enumerate(rows)]
    if not rows:
        raise ValueError(msg("plot_no_matrices"))
    titles = _labels(titles, len(rows), "titles", "matrices")
    heights = np.concatenate([np.where(np.isfinite(r), r, 0.0) for r in rows])
    lo, hi = min(0.0, heights.min()), max(0.0, heights.max())
    pad = 0.2 * ((hi - lo) or 1.0)
    ylim = (lo - pad if lo < 0 else 0.0, hi + pad)
    if all(_looks_like_weights(r) for r in rows):
        ylim = WEIGHT_YLIM  # weights: the 0 … 1 axis of bars() and of every weight heatmap
    width = min(MAX_WIDTH, max(5.0, 1.0 + 0.9 * rows[0].size))
    fig, axes = plt.subplots(len(rows), 1, figsize=(width, 3.9 * len(rows)), layout="constrained")
    fig.get_layout_engine().set(h_pad=0.12, hspace=0.08)
    for k, (ax, values, title) in enumerate(zip(np.atleast_1d(axes), rows, titles)):
        key = highlight_label if k == 0 else None
        bars(
            values,
            labels,
            ax=ax,
            title=title,
            ylim=ylim,
            highlight=highlight,
            fmt=fmt,
            ylabel=ylabel,
            highlight_label=key,
        )
    return fig


def dot_product_histograms(samples, *, bins=60):
    """``samples`` maps d_k to 1-D arrays of q·k values: one histogram per d_k on a shared x axis (the
    spread is read as width), each on its own count axis (a shared one flattens the largest d_k to a line
    along the bottom), each marked with the measured standard deviation and √d_k side by side."""
    if not isinstance(samples, dict) or not samples:
        raise ValueError(msg("plot_samples_dict"))
    items = []
    for d_k, x in sorted(samples.items()):
        positive_number(d_k, "d_k", "d_k")
        x = _array(x, f"samples[{d_k}]", 1, allow_neg_inf=False)
        if x.size < 2:
            raise ValueError(msg("plot_samples_few", d_k=d_k))
        items.append((d_k, x))
    ncols = 2 if len(items) == 4 else min(len(items), 3)
    nrows = math.ceil(len(items) / ncols)
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=((5.5, 9.5, MAX_WIDTH)[ncols - 1], 3.5 * nrows + 0.4),
        sharex=True,  # one x axis: the spread is compared by its width
        sharey=False,  # each panel its own count axis, so that the flattest one (the largest d_k) still reads
        layout="constrained",
        squeeze=False,
    )
    everything = np.concatenate([x for _, x in items])
    edges = np.linspace(everything.min(), everything.max(), bins + 1)
    for ax in axes.flat[len(items) :]:
        ax.remove()
    for k, (ax, (d_k, x)) in enumerate(zip(axes.flat, items)):
        std = x.std()
        ax.hist(x, bins=edges, color=BASE_COLOUR)
        for s in (-std, std):
            ax.axvline(s, color=HIGHLIGHT_COLOUR, linestyle="--", linewidth=1.5)
        ax.set_title(f"$d_k$ = {d_k:g}")
        ax.text(
            0.03,
            0.96,
            msg("plot_std") + f" = {std:.2f}\n" + r"$\sqrt{d_k}$" + f" = {math.sqrt(d_k):.2f}",
            transform=ax.transAxes,
            va="top",
            fontsize=ANNOTATION_SIZE,
            linespacing=1.6,
            bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85},
        )
        if k % ncols == 0:
            ax.set_ylabel(msg("plot_count"))
        if k >= len(items) - ncols:
            ax.set_xlabel(msg("plot_dot_product"))
    # what the orange dashed lines are (the trial read them as ±√d_k)
    key = mpl.lines.Line2D([], [], color=HIGHLIGHT_COLOUR, linestyle="--", linewidth=1.5, label=msg("plot_std_lines"))
    fig.legend(handles=[key], loc="outside lower center", frameon=False)
    alt_text.remember(list(axes.flat[: len(items)]), "histograms", stds=[(d_k, x.std()) for d_k, x in items])
    return fig


def contributions(weights, V, value_labels, *, dim_labels=None, title=None, ax=None):
    """Output row O_i = Σ_j a_ij·V_j, per output dimension: one bar per value row, side by side and each
    from 0 (its contribution a_ij·V_j, signed; one colour per value row), then O_i as a black bar
    with its value. Bars are grouped, not stacked: in a stack of mixed signs the positive parts go up and
    the negative ones down and the bar's ends read as one signed total, which it is not; here every
    contribution's sign and size are read off the axis, and the sum is a bar of its own."""
    a = _array(weights, "weights", 1, allow_neg_inf=False)
    V = _array(V, "V", 2, allow_neg_inf=False)
    if V.shape[0] != a.size:
        raise ValueError(msg("plot_weights_rows", n=a.size, rows=V.shape[0], shape=V.shape))
    value_labels = _labels(value_labels, a.size, "value_labels", "value_rows")
    d_v = V.shape[1]
    dim_labels = _labels(
        dim_labels if dim_labels is not None else [msg("plot_dimension", d=d) for d in range(d_v)],
        d_v,
        "dim_labels",
        "dimensions",
    )
    C = a[:, None] * V
    O = C.sum(axis=0)
    digits = _distinct_digits(a)  # one precision for the whole legend: 3 decimals when two weights tie at 2
    colours = PALETTE[:4] + PALETTE[5:] if a.size <= len(PALETTE) - 1 else None  # black is the sum's
    if colours is None:
        colours = mpl.colormaps["viridis"](np.linspace(0, 0.95, a.size))
    width = 0.84 / (a.size + 1.3)  # the group spans 0.84 of a dimension; a small gap before the sum
    fig, ax = _axes(ax, (min(MAX_WIDTH, max(6.5, 3.5 + (0.9 + 0.25 * a.size) * d_v)), 4.8))
    left = np.arange(d_v) - 0.42 + width / 2
    for j in range(a.size):
        ax.bar(
            left + j * width,
            C[j],
            width=width,
            color=colours[j],
            edgecolor="white",
            linewidth=0.6,
            label=f"{_fmt(a[j], '{:.' + str(digits) + 'f}')} × V[{value_labels[j]}]",
        )
    at = left + (a.size + 0.3) * width
    ax.bar(at, O, width=width, color="black", label=msg("plot_output"))
    lo, hi = min(0.0, C.min(), O.min()), max(0.0, C.max(), O.max())
    pad = 0.04 * ((hi - lo) or 1.0)
    for d in range(d_v):
        ax.text(
            at[d],
            O[d] + (pad if O[d] >= 0 else -pad),
            _fmt(O[d], "{:.2f}"),
            ha="center",
            va="bottom" if O[d] >= 0 else "top",
            fontsize=ANNOTATION_SIZE,
        )
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylim(lo - 4 * pad, hi + 4 * pad)
    ax.set_xticks(range(d_v), labels=dim_labels)
    ax.set_xlim(-0.55, d_v - 0.45)
    ax.set_ylabel(msg("plot_contribution"))
    ax.set_title(title if title is not None else msg("plot_contributions_title"))
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1), frameon=False)
    alt_text.remember(
        ax, "contributions", weights=a, digits=digits, value_labels=value_labels, dim_labels=dim_labels, outputs=O
    )
    return fig


def line(
    xs,
    ys_by_label,
    *,
    logx=False,
    logy=False,
    xlabel=None,
    ylabel=None,
    title=None,
    ax=None,
    marks=None,
    fmt="{:.2f}",
    mark_label="{x}: {y}",
    samples=None,
):
    """Curves sharing one x axis: ``ys_by_label`` maps a legend label to y values (NaN leaves a gap).

    ``marks``: x values (each one of ``xs``) that the text talks about: on every curve the point there is
    ringed in the highlight colour and written beside it as ``mark_label`` (``{x}``, and ``{y}`` in ``fmt``),
    e.g. "Δ = {x}: {y}".
    ``samples``: for curves that outline histograms, the samples behind each curve (a dict with the keys of
    ``ys_by_label``). The alt text then gives each curve's mean, standard deviation and highest value, not
    where the curve goes: the wiggles and the peak's bin of a histogram are sampling noise."""
    xs = _array(xs, "xs", 1, allow_neg_inf=False)
    marked = []
    for x in marks if marks is not None else ():
        hits = np.flatnonzero(np.isclose(xs, float(x), rtol=0, atol=1e-12))
        if not hits.size:
            raise ValueError(msg("plot_mark_x", x=x, first=_fmt(xs[0], "{:g}"), last=_fmt(xs[-1], "{:g}")))
        marked.append(int(hits[0]))
    if not isinstance(ys_by_label, dict) or not ys_by_label:
        raise ValueError(msg("plot_curves_dict"))
    curves = []
    for label, ys in ys_by_label.items():
        ys = np.array(ys, dtype=float)
        if ys.shape != xs.shape:
            raise ValueError(msg("plot_curve_length", label=label, count=ys.size, n=xs.size))
        if logy and (ys[np.isfinite(ys)] <= 0).any():
            raise ValueError(msg("plot_logy", label=label))
        curves.append((str(label), ys))
    if samples is not None and set(samples) != set(ys_by_label):
        raise ValueError(msg("plot_samples_keys"))
    spread = None if samples is None else [(float(np.mean(samples[k])), float(np.std(samples[k]))) for k in ys_by_label]
    if logx and (xs <= 0).any():
        raise ValueError(msg("plot_logx"))
    fig, ax = _axes(ax, (6.8, 4.6))
    covered = _covered(curves, logy)
    for k, (label, ys) in enumerate(curves):
        # each later curve thinner and on top: one that runs on an earlier one leaves it visible beneath
        width = max(1.2, 3.2 - 0.8 * k)
        style = {}
        if k in covered:  # a later curve runs on this one (lesson 09's memory under its (n/256)² line): wider,
            # its markers large and hollow, so that it shows around the later one's
            width += 2.0
            style = dict(markersize=13, markerfacecolor="white", markeredgewidth=2.5)
        ax.plot(
            xs,
            ys,
            marker="osD^v"[k % 5],
            linestyle=("-", "--", "-.", ":")[k % 4],
            linewidth=width,
            label=label,
            zorder=2 + k,
            **style,
        )
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
        finite = np.concatenate([ys[np.isfinite(ys)] for _, ys in curves])
        if finite.size and np.log10(finite.max() / finite.min()) <= 2.5:
            # a range of a decade or two: 1, 2, 5 in each decade, as plain numbers (10⁰ and 10¹ alone say little)
            ax.yaxis.set_major_locator(mpl.ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            ax.yaxis.set_major_formatter(mpl.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
            ax.yaxis.set_minor_formatter(mpl.ticker.NullFormatter())
    ax.grid(True, alpha=0.3)
    points, below, notes = [], [], []
    for k in marked:
        for _, ys in curves:
            if np.isfinite(ys[k]):
                points.append((float(xs[k]), float(ys[k])))
                near = ys[max(0, k - 1) : k + 2]
                below.append(bool(ys[k] < np.nanmean(near)))  # a dip: its label goes under the curve
    for (x, y), under in zip(points, below):
        ax.plot(
            [x],
            [y],
            marker="o",
            markersize=15,
            markerfacecolor="none",
            markeredgecolor=HIGHLIGHT_COLOUR,
            markeredgewidth=2.5,
            linestyle="none",
            zorder=5,
        )
        note = ax.annotate(
            mark_label.format(x=_fmt(x, "{:g}"), y=_fmt(y, fmt)),
            (x, y),
            xytext=(10, -10 if under else 10),
            textcoords="offset points",
            va="top" if under else "bottom",
            color=HIGHLIGHT_TEXT,
            fontweight=_bold(),
            fontsize=ANNOTATION_SIZE,
            zorder=6,
            bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85, "pad": 1.5},
        )
        notes.append(note)
    for setter, text in ((ax.set_xlabel, xlabel), (ax.set_ylabel, ylabel), (ax.set_title, title)):
        if text:
            setter(text)
    if len(curves) > 1 or curves[0][0]:
        ax.legend()
    if notes:
        _clear_of_curves(fig, ax, notes, xs, [ys for _, ys in curves])
    alt_text.remember(
        ax,
        "line",
        xs=xs,
        curves=curves,
        logx=logx,
        logy=logy,
        marks=[(x, _fmt(y, fmt)) for x, y in points],
        spread=spread,
    )
    return fig


COINCIDE = 0.05  # curves within 5 % of each other (of the axis's range; a log axis: in decades) run on each other


def _covered(curves, logy):
    """The indices of curves that a later curve runs on at most of their points (within COINCIDE)."""
    values = [np.log10(ys) if logy else ys for _, ys in curves]
    finite = np.concatenate([v[np.isfinite(v)] for v in values])
    span = float(finite.max() - finite.min()) if finite.size else 0.0
    out = set()
    for k, a in enumerate(values):
        for b in values[k + 1 :]:
            both = np.isfinite(a) & np.isfinite(b)
            if span > 0 and both.sum() >= 2 and np.mean(np.abs(a[both] - b[both]) <= COINCIDE * span) >= 0.5:
                out.add(k)
    return out


# points from the marked point to its label: beside it first, then above or below it, then further out
MARK_OFFSETS = ((10, 10), (10, -10), (-10, 10), (-10, -10), (0, 22), (0, -22), (18, 24), (18, -24), (-18, 24))
MARK_CLEARANCE = 3  # px: the least room between a mark's label and any curve


def _clear_of_curves(fig, ax, notes, xs, curves):
    """Move each mark's label to the first offset (MARK_OFFSETS, points) where its box crosses no curve and
    stays inside the axes (lesson 12's "Δ = 3: 5.54" sat on the falling curve); where none is clear it
    keeps its first place, on its white box."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    dense = np.linspace(0, 1, 24)
    track = []  # the curves in pixels, every segment sampled
    for ys in curves:
        pts = ax.transData.transform(np.column_stack([xs, ys]))
        for (x0, y0), (x1, y1) in zip(pts[:-1], pts[1:]):
            if np.isfinite([x0, y0, x1, y1]).all():
                track.append(np.column_stack([x0 + (x1 - x0) * dense, y0 + (y1 - y0) * dense]))
    track = np.concatenate(track) if track else np.empty((0, 2))
    box = ax.get_window_extent(renderer)
    for note in notes:
        first = note.xyann
        for dx, dy in MARK_OFFSETS:
            note.xyann = (dx, dy)
            note.set_verticalalignment("bottom" if dy > 0 else "top")
            note.set_horizontalalignment("left" if dx > 0 else "right" if dx < 0 else "center")
            b = note.get_window_extent(renderer).padded(MARK_CLEARANCE)
            inside = b.x0 >= box.x0 and b.x1 <= box.x1 and b.y0 >= box.y0 and b.y1 <= box.y1
            hits = (track[:, 0] >= b.x0) & (track[:, 0] <= b.x1) & (track[:, 1] >= b.y0) & (track[:, 1] <= b.y1)
            if inside and not hits.any():
                break
        else:
            note.xyann = first
            note.set_verticalalignment("bottom" if first[1] > 0 else "top")
            note.set_horizontalalignment("left")


def position_heatmap(PE, *, title=None, ax=None, highlight=None):
    """Position encodings (n positions × d features, e.g. ``sinusoidal_positions(50, 16)``) as a heatmap on a
    fixed −1 … 1 diverging scale: a row per position (counted from 0), a column per feature, the columns
    labelled as pairs (sin k, cos k). ``highlight``: positions (rows) the text talks about, each outlined
    in the highlight colour across every feature, its position written and coloured on the y axis."""
    PE = _array(PE, "PE", 2, allow_neg_inf=False)
    n, d = PE.shape
    rows = sorted({int(p) for p in (highlight if highlight is not None else ())})
    for p in rows:
        if not 0 <= p < n:
            raise ValueError(msg("plot_position_highlight", highlight=p, last=n - 1))
    fig, ax = _axes(ax, (min(MAX_WIDTH, 4.0 + 0.42 * d), 6.0))
    im = ax.imshow(PE, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest")
    ax.set_xticks(range(d), labels=[f"{'sin' if c % 2 == 0 else 'cos'} {c // 2}" for c in range(d)], rotation=90)
    step = max(1, round(n / 10))
    # every step-th position, and the highlighted ones instead of a regular tick too close to them
    ticks = sorted(set(rows) | {t for t in range(0, n, step) if all(abs(t - p) > step // 2 for p in rows)})
    ax.set_yticks(ticks)
    for p in rows:
        outline = Rectangle((-0.5, p - 0.5), d, 1, fill=False, edgecolor=HIGHLIGHT_COLOUR, linewidth=3.5)
        ax.add_patch(outline).set_clip_on(False)  # a first or last row's outline is not cut in half
    _emphasise(ax.get_yticklabels(), [ticks.index(p) for p in rows])
    ax.set_xlabel(msg("plot_position_features"))
    ax.set_ylabel(msg("plot_position_rows"))
    if title:
        ax.set_title(title)
    fig.colorbar(im, ax=ax, shrink=0.85, label=msg("plot_position_value"))
    return fig
