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
from matplotlib.patches import Rectangle

from attn_core._validate import first_index, positive_number
from attn_core.lang import display_width

from . import alt_text, fonts
from .messages import msg
from .svg import contrast

NEG_INF = "\u2212∞"
MASKED_COLOUR = "#d9d9d9"
BASE_COLOUR, HIGHLIGHT_COLOUR = "#0072B2", "#D55E00"
HIGHLIGHT_TEXT = "#A84A00"  # the highlighted bar's label: HIGHLIGHT_COLOUR darkened to 5.8:1 on white (was 3.9:1)
# Okabe & Ito's palette, distinguishable with the common colour-vision deficiencies (tests/test_colours.py
# simulates them). The colours with at least 3:1 against white come first: lines use them.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000", "#E69F00", "#56B4E9", "#F0E442")
TOKEN_SIZE, ANNOTATION_SIZE = 14, 13
MAX_WIDTH = 10.5  # inches: at 100 dpi a notebook shows the figure unscaled, so text keeps its size

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


def _fmt(value, fmt):
    """A number as shown on a figure: −∞ for masked scores, a true minus sign for negatives."""
    return NEG_INF if np.isneginf(value) else fmt.format(value).replace("-", "\u2212")


def _contrast(rgba):
    """Black or white, whichever contrasts more (WCAG) with a cell of colour ``rgba``."""
    cell = mpl.colors.to_hex(rgba)
    return "white" if contrast("#ffffff", cell) >= contrast("#000000", cell) else "black"


def _axes(ax, figsize):
    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    return fig, ax


def _draw_matrix(ax, M, row_labels, col_labels, *, cmap, vmin, vmax, annotate, fmt, size, token_size=TOKEN_SIZE):
    """One matrix as coloured cells; −∞ cells grey, hatched and marked −∞."""
    n_q, n_k = M.shape
    masked = np.isneginf(M)
    cmap = mpl.colormaps[cmap or mpl.rcParams["image.cmap"]].with_extremes(bad=MASKED_COLOUR)
    im = ax.imshow(np.ma.masked_array(M, mask=masked), cmap=cmap, vmin=vmin, vmax=vmax)
    for i, j in np.argwhere(masked):
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="//", edgecolor="#9a9a9a", linewidth=0))
    if annotate:
        for i in range(n_q):
            for j in range(n_k):
                colour = "black" if masked[i, j] else _contrast(cmap(im.norm(M[i, j])))
                ax.text(j, i, _fmt(M[i, j], fmt), ha="center", va="center", color=colour, fontsize=size)
    rotate = max(map(display_width, col_labels), default=0) > 6
    ax.set_xticks(
        range(n_k),
        labels=col_labels,
        fontsize=token_size,
        rotation=45 if rotate else 0,
        ha="right" if rotate else "center",
    )
    ax.set_yticks(range(n_q), labels=row_labels, fontsize=token_size)
    ax.set_xticks(np.arange(n_k + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(n_q + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=2)
    ax.tick_params(which="minor", length=0)
    ax.tick_params(which="major", length=0)
    ax.spines[:].set_visible(False)
    return im


def _range(Ms, vmin, vmax):
    finite = np.concatenate([M[np.isfinite(M)] for M in Ms])
    if vmin is None:
        vmin = float(finite.min()) if finite.size else 0.0
    if vmax is None:
        vmax = float(finite.max()) if finite.size else 1.0
    return vmin, vmax


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
    cmap=None,
    vmin=None,
    vmax=None,
    row_title=None,
    col_title=None,
):
    """A score or weight matrix (n_q × n_k; rectangular for cross-attention) with the tokens on the axes.
    Row i = who asks, column j = who is asked. −∞ entries (masked scores) are grey, hatched and marked −∞."""
    M = _array(M, "M", 2)
    n_q, n_k = M.shape
    row_labels = _labels(row_labels, n_q, "row_labels", "rows")
    col_labels = _labels(col_labels, n_k, "col_labels", "columns")
    fig, ax = _axes(ax, (min(MAX_WIDTH, max(5.0, 2.8 + 0.8 * n_k)), min(8.5, max(4.0, 1.8 + 0.7 * n_q))))
    vmin, vmax = _range([M], vmin, vmax)
    size = ANNOTATION_SIZE if n_k <= 8 else 12
    im = _draw_matrix(
        ax, M, row_labels, col_labels, cmap=cmap, vmin=vmin, vmax=vmax, annotate=annotate, fmt=fmt, size=size
    )
    ax.set_ylabel(row_title if row_title is not None else msg("plot_query_axis"))
    ax.set_xlabel(col_title if col_title is not None else msg("plot_key_axis"))
    if title:
        ax.set_title(title)
    fig.colorbar(im, ax=ax, shrink=0.85)
    alt_text.remember(ax, "heatmap", M=M, rows=row_labels, cols=col_labels, vmin=vmin, vmax=vmax)
    return fig


def heatmaps(
    Ms, titles, row_labels, col_labels, *, ncols=None, suptitle=None, vmin=0, vmax=1, row_title=None, col_title=None
):
    """Several small heatmaps side by side on one colour scale (e.g. one per attention head);
    ``vmin=None`` / ``vmax=None`` take the range of all the matrices."""
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
    ncols = ncols or min(len(Ms), 4)
    nrows = math.ceil(len(Ms) / ncols)
    panel = min(max(2.6, 0.55 * n_k + 1.0), (MAX_WIDTH - 1.2) / ncols)
    height = nrows * (panel * max(0.4, n_q / n_k) + 0.6) + (0.6 if suptitle else 0.2)
    fig, axes = plt.subplots(nrows, ncols, figsize=(panel * ncols + 1.2, height), layout="constrained", squeeze=False)
    vmin, vmax = _range(Ms, vmin, vmax)
    cell = panel / n_k  # inches per cell: small cells get smaller text and no numbers
    for ax in axes.flat[len(Ms) :]:
        ax.remove()
    for k, ax in enumerate(axes.flat[: len(Ms)]):
        im = _draw_matrix(
            ax,
            Ms[k],
            row_labels,
            col_labels,
            cmap=None,
            vmin=vmin,
            vmax=vmax,
            annotate=n_q * n_k <= 36 and cell >= 0.5,
            fmt="{:.2f}",
            size=12,
            token_size=TOKEN_SIZE if cell >= 0.55 else 12,
        )
        ax.set_title(titles[k])
        alt_text.remember(ax, "heatmap", M=Ms[k], rows=row_labels, cols=col_labels, vmin=vmin, vmax=vmax)
        if k % ncols:
            ax.set_yticklabels([])
        else:
            ax.set_ylabel(row_title if row_title is not None else msg("plot_query_axis"))
        if k >= len(Ms) - ncols:
            ax.set_xlabel(col_title if col_title is not None else msg("plot_key_axis"))
    fig.colorbar(im, ax=list(axes.flat[: len(Ms)]), shrink=0.85)
    if suptitle:
        fig.suptitle(suptitle)
    return fig


def bars(values, labels, *, ax=None, title=None, ylim=None, highlight=None, fmt="{:.2f}", ylabel=None):
    """One query's weights (or scores, which may be negative or −∞) as labelled bars.
    ``highlight`` is the index (or label) of the bar to emphasise."""
    values = _array(values, "values", 1)
    labels = _labels(labels, values.size, "labels", "values")
    if highlight is not None and not isinstance(highlight, (int, np.integer)):
        if highlight not in labels:
            raise ValueError(msg("plot_highlight_label", highlight=highlight, labels=labels))
        highlight = labels.index(highlight)
    elif highlight is not None and not -values.size <= highlight < values.size:
        raise ValueError(msg("plot_highlight_range", highlight=highlight, n=values.size))
    elif highlight is not None:
        highlight = int(highlight) % values.size
    fig, ax = _axes(ax, (min(MAX_WIDTH, max(5.0, 1.0 + 0.9 * values.size)), 4.2))
    finite = np.isfinite(values)
    heights = np.where(finite, values, 0.0)
    colours = [HIGHLIGHT_COLOUR if i == highlight else BASE_COLOUR for i in range(values.size)]
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
    ax.set_xticks(range(values.size), labels=labels, fontsize=TOKEN_SIZE)
    if highlight is not None:
        ax.get_xticklabels()[highlight].set_color(HIGHLIGHT_TEXT)
    if ylabel:
        ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    alt_text.remember(ax, "bars", values=values, labels=labels, highlight=highlight)
    return fig


def dot_product_histograms(samples, *, bins=60):
    """``samples`` maps d_k to 1-D arrays of q·k values: one histogram per d_k on a shared x axis,
    each marked with the measured standard deviation and √d_k side by side."""
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
        sharex=True,
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
    alt_text.remember(list(axes.flat[: len(items)]), "histograms", stds=[(d_k, x.std()) for d_k, x in items])
    return fig


def contributions(weights, V, value_labels, *, dim_labels=None, title=None, ax=None):
    """Output row O_i = Σ_j a_ij·V_j: per output dimension, the signed contributions a_ij·V_j stacked
    (positive up, negative down, one colour per value row) and O_i marked as a black bar."""
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
    colours = PALETTE if a.size <= len(PALETTE) else mpl.colormaps["viridis"](np.linspace(0, 0.95, a.size))
    fig, ax = _axes(ax, (min(MAX_WIDTH, max(6.5, 3.5 + 1.3 * d_v)), 4.8))
    up, down = np.zeros(d_v), np.zeros(d_v)
    for j in range(a.size):
        bottom = np.where(C[j] >= 0, up, down)
        ax.bar(
            range(d_v),
            C[j],
            bottom=bottom,
            width=0.6,
            color=colours[j],
            edgecolor="white",
            linewidth=0.8,
            label=f"{_fmt(a[j], '{:.2f}')} × V[{value_labels[j]}]",
        )
        up, down = np.where(C[j] >= 0, up + C[j], up), np.where(C[j] < 0, down + C[j], down)
    ax.hlines(O, np.arange(d_v) - 0.4, np.arange(d_v) + 0.4, color="black", linewidth=3, label=msg("plot_output"))
    for d in range(d_v):
        ax.text(d + 0.42, O[d], _fmt(O[d], "{:.2f}"), va="center", fontsize=ANNOTATION_SIZE)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(range(d_v), labels=dim_labels)
    ax.set_xlim(-0.6, d_v - 0.2)
    ax.set_ylabel(msg("plot_contribution"))
    ax.set_title(title if title is not None else msg("plot_contributions_title"))
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1), frameon=False)
    alt_text.remember(ax, "contributions", weights=a, value_labels=value_labels, dim_labels=dim_labels, outputs=O)
    return fig


def line(xs, ys_by_label, *, logx=False, logy=False, xlabel=None, ylabel=None, title=None, ax=None):
    """Curves sharing one x axis: ``ys_by_label`` maps a legend label to y values (NaN leaves a gap)."""
    xs = _array(xs, "xs", 1, allow_neg_inf=False)
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
    if logx and (xs <= 0).any():
        raise ValueError(msg("plot_logx"))
    fig, ax = _axes(ax, (6.8, 4.6))
    for k, (label, ys) in enumerate(curves):
        ax.plot(xs, ys, marker="osD^v"[k % 5], linestyle=("-", "--", "-.", ":")[k % 4], linewidth=2, label=label)
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    for setter, text in ((ax.set_xlabel, xlabel), (ax.set_ylabel, ylabel), (ax.set_title, title)):
        if text:
            setter(text)
    if len(curves) > 1 or curves[0][0]:
        ax.legend()
    alt_text.remember(ax, "line", xs=xs, curves=curves, logx=logx, logy=logy)
    return fig


def position_heatmap(PE, *, title=None, ax=None):
    """Position encodings (n positions × d features, e.g. ``sinusoidal_positions(50, 16)``) as a heatmap on a
    fixed −1 … 1 diverging scale: a row per position (counted from 0), a column per feature, the columns
    labelled as pairs (sin k, cos k)."""
    PE = _array(PE, "PE", 2, allow_neg_inf=False)
    n, d = PE.shape
    fig, ax = _axes(ax, (min(MAX_WIDTH, 4.0 + 0.42 * d), 6.0))
    im = ax.imshow(PE, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest")
    ax.set_xticks(range(d), labels=[f"{'sin' if c % 2 == 0 else 'cos'} {c // 2}" for c in range(d)], rotation=90)
    step = max(1, round(n / 10))
    ax.set_yticks(range(0, n, step))
    ax.set_xlabel(msg("plot_position_features"))
    ax.set_ylabel(msg("plot_position_rows"))
    if title:
        ax.set_title(title)
    fig.colorbar(im, ax=ax, shrink=0.85, label=msg("plot_position_value"))
    return fig
