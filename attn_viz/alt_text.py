"""Figures in words: the alt text of every matplotlib figure shown in a notebook.

``plots`` records on each Axes what it drew (``remember(ax, kind, ...)``: the matrix, the bars, the
curves). When IPython displays a figure, :func:`show_figure` (registered by :func:`install` when
``plots`` is imported in a kernel) publishes, next to the usual PNG and text, an HTML ``<img>`` of the
same PNG whose ``alt`` says what the figure shows and its key numbers, in the notebook's language.

Why HTML: JupyterLab 4 (checked in 4.6) draws an ``image/png`` output as an ``<img>`` without ``alt``
and ignores ``alt`` in the output's metadata (jupyter/enhancement-proposals#120 proposes it); it ranks
``text/html`` above ``image/png`` and keeps an image's ``alt`` and a ``data:`` source through its
sanitizer. The PNG stays in the bundle for exports that want it (LaTeX/PDF), with the ``alt`` in its
metadata as nbconvert's HTML export reads it.

The text is built when the figure is shown, so titles and axis labels changed after plotting are the
ones described. Numbers are rounded to what the figure prints (two decimals); a line chart says where
each curve goes rather than its values, which may be measurements (times, a chaotic training run) that
differ from machine to machine. Axes that ``plots`` did not draw are described by their titles and labels.
"""

import base64
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .messages import msg
from .svg import esc, fmt

ALL_VALUES_UP_TO = 36  # cells: a larger matrix is described by each row's largest value
UNIFORM_TOLERANCE = 1e-9  # a row whose values all lie this close together has no largest value: it is uniform
LEVEL_TOLERANCE = 0.05  # a curve whose ends differ by less than this (relative) "stays about level"
PEAK_RATIO = 1.2  # a curve whose largest value is this much above both ends "peaks" in between
ATTRIBUTE = "_attn_alt"  # where plots leaves its record on an Axes

# mathtext in titles and labels, as a screen reader should hear it
_MATH = (
    (r"^\top", "ᵀ"),
    (r"\top", "ᵀ"),
    (r"\sqrt", "√"),
    (r"\cdot", "·"),
    (r"\Delta", "Δ"),
    (r"\times", "×"),
    (r"\neq", "≠"),
    (r"\div", "÷"),
    (r"\,", " "),
)


@dataclass
class Drawn:
    """What ``plots`` drew on one Axes: a kind ("heatmap", "bars", ...) and its numbers."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


def remember(ax, kind: str, **data):
    """Record on ``ax`` (an Axes, or a list of Axes that show one thing together) what was drawn, for the
    figure's alt text."""
    record = Drawn(kind, data)
    for one in ax if isinstance(ax, (list, tuple)) else [ax]:
        setattr(one, ATTRIBUTE, record)


def plain(text: str) -> str:
    """A title or label without mathtext markup: "$QK^\\top / \\sqrt{d_k}$" → "QKᵀ / √d_k"."""
    for markup, spoken in _MATH:
        text = text.replace(markup, spoken)
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)  # any other command: its name
    return re.sub(r"\s+", " ", text.replace("$", "").replace("{", "").replace("}", "")).strip()


def _titled(ax) -> str:
    title = plain(ax.get_title())
    return msg("alt_titled", title=title) if title else ""


def _axis(label: str) -> str:
    return plain(label) or msg("alt_unlabelled")


def _value(x: float) -> str:
    return "−∞" if np.isneginf(x) else fmt(x)


def _number(x: float) -> str:
    """An axis position as matplotlib would print it, with a true minus sign: 256, 0.125, −3.875."""
    return f"{float(x):g}".replace("-", "−")


def _values(labels, values) -> str:
    return msg("list_sep").join(msg("token_value", token=lab, value=_value(v)) for lab, v in zip(labels, values))


def _heatmap(ax, d, shared) -> str:
    M = d["M"]
    # a label left blank to thin the ticks ("" between every 5th position) is read as its position
    rows, cols = ([label or str(k) for k, label in enumerate(labels)] for labels in (d["rows"], d["cols"]))
    masked = d.get("masked", np.isneginf(M))
    if d.get("scale") == "reach":  # a 0/1 map: per row, the columns it reaches
        each = [
            msg("row_values", query=r, values=msg("list_sep").join(c for c, x in zip(cols, row) if x) or "—")
            for r, row in zip(rows, M)
        ]
        values = msg("alt_reach_rows", rows=msg("row_sep").join(each))
    elif M.size <= ALL_VALUES_UP_TO:
        each = [msg("row_values", query=r, values=_values(cols, row)) for r, row in zip(rows, M)]
        values = msg("alt_all_values", rows=msg("row_sep").join(each))
    else:
        best = []
        for r, row in zip(rows, M):
            if np.isfinite(row).all() and np.ptp(row) <= UNIFORM_TOLERANCE:  # no largest value: the row is level
                best.append(msg(f"alt_row_uniform_{d.get('scale', 'weights')}", query=r, value=_value(row[0])))
                continue
            j = int(np.argmax(row))
            best.append(msg("row_values", query=r, values=msg("token_value", token=cols[j], value=_value(row[j]))))
        values = msg("alt_row_maxima", rows=msg("row_sep").join(best))
    if d.get("dropped"):
        values += msg("alt_dropped", rows=msg("list_sep").join(d["dropped"]))
    if d.get("highlight"):
        cells = msg("alt_highlight_sep").join(f"{rows[i]} → {cols[j]}" for i, j in d["highlight"])
        values += msg("alt_highlight", label=cells)
    return msg(
        "alt_heatmap",
        title=_titled(ax),
        rows=_axis(ax.get_ylabel() or shared["ylabel"]),
        cols=_axis(ax.get_xlabel() or shared["xlabel"]),
        scale=msg(f"alt_scale_{kind}", low=_number(d["vmin"]), high=_number(d["vmax"]))
        if (kind := d.get("scale", "weights")) == "weights"
        else msg(f"alt_scale_{kind}", label=plain(d["label"]), low=fmt(d["vmin"]), high=fmt(d["vmax"])),
        masked=msg(f"alt_masked_{d.get('scale', 'weights')}", count=int(count)) if (count := masked.sum()) else "",
        values=values,
    )


def _bars(ax, d, shared) -> str:
    labels, highlight = d["labels"], d["highlight"]
    extra = msg("alt_highlight", label=msg("alt_highlight_sep").join(labels[k] for k in highlight)) if highlight else ""
    return msg("alt_bars", title=_titled(ax), values=_values(labels, d["values"]), highlight=extra)


def _histograms(ax, d, shared) -> str:
    items = [msg("alt_histogram", d_k=f"{d_k:g}", std=fmt(std), sqrt=fmt(np.sqrt(d_k))) for d_k, std in d["stds"]]
    return msg("alt_histograms", count=len(items), items=msg("row_sep").join(items))


def _contributions(ax, d, shared) -> str:
    digits = d.get("digits", 2)  # as the legend: 3 decimals where two weights would print alike at 2
    weights = msg("list_sep").join(f"{fmt(a, digits)} × V[{lab}]" for a, lab in zip(d["weights"], d["value_labels"]))
    return msg("alt_contributions", title=_titled(ax), weights=weights, outputs=_values(d["dim_labels"], d["outputs"]))


def _reversals(ys) -> int:
    """How many times a curve changes direction by more than LEVEL_TOLERANCE of its largest magnitude: small
    wiggles (rounding, timing noise on a level curve) do not count."""
    threshold = LEVEL_TOLERANCE * max(float(np.abs(ys).max()), 1e-300)
    turns, direction, anchor = 0, 0, ys[0]
    for y in ys[1:]:
        if abs(y - anchor) <= threshold and direction == 0:
            continue
        step = 1 if y > anchor else -1
        if direction == 0:
            direction, anchor = step, y
        elif step == direction:
            anchor = y if (y - anchor) * direction > 0 else anchor
        elif abs(y - anchor) > threshold:
            turns, direction, anchor = turns + 1, step, y
    return turns


def _level(ys) -> bool:
    """Every value within LEVEL_TOLERANCE of the ends' magnitude of each other."""
    scale = max(abs(ys[0]), abs(ys[-1]), 1e-300)
    return float(ys.max() - ys.min()) <= LEVEL_TOLERANCE * scale


def trend(xs, ys) -> str:
    """Where a curve goes: it rises, falls, stays about level (its ends agree), or peaks at some x in between;
    a curve that is flat but for one jump says where it jumps, and from what to what.
    A curve that turns back and forth rises or falls "overall, going up and down on the way"; one that jumps
    up and down at first and then stays level in its second half (a training run that gets stuck) says so,
    and names the x from which it stays level."""
    finite = np.isfinite(ys)
    xs, ys = np.asarray(xs)[finite], np.asarray(ys, dtype=float)[finite]
    if ys.size < 2:
        return msg("alt_level")
    first, last, top = ys[0], ys[-1], int(np.argmax(ys))
    if 0 < top < ys.size - 1 and ys[top] > PEAK_RATIO * max(first, last, 0.0) and ys[top] > 0:
        return msg("alt_peak", x=_number(xs[top]))
    if abs(last - first) <= LEVEL_TOLERANCE * max(abs(first), abs(last), 1e-300):  # the ends agree
        return msg("alt_level")
    if ys.size >= 8 and _level(ys[ys.size // 2 :]) and _reversals(ys[: ys.size // 2 + 1]) >= 2:
        lo, hi, since = ys[-1], ys[-1], ys.size - 1  # walk back while the tail stays level
        scale = max(abs(ys[0]), abs(ys[-1]), 1e-300)
        while since > 0 and max(hi, ys[since - 1]) - min(lo, ys[since - 1]) <= LEVEL_TOLERANCE * scale:
            since -= 1
            lo, hi = min(lo, ys[since]), max(hi, ys[since])
        return msg("alt_settles", x=_number(xs[since]))
    jumps = np.flatnonzero(np.diff(ys))
    if ys.size >= 4 and jumps.size == 1:  # two flat stretches and one jump: a staircase, as hard retrieval draws
        j = int(jumps[0])
        return msg("alt_step", first=_value(first), last=_value(last), x=_number((xs[j] + xs[j + 1]) / 2))
    overall = msg("alt_rises") if last > first else msg("alt_falls")
    return msg("alt_wavy", trend=overall) if _reversals(ys) >= 2 else overall


def _line(ax, d, shared) -> str:
    xs = d["xs"]
    if d.get("spread"):  # outlines of histograms: what the samples are, not the noise of the bins
        each = [
            msg("alt_sample_curve", name=plain(name), mean=fmt(mean), std=fmt(std), peak=fmt(np.nanmax(ys)))
            for (name, ys), (mean, std) in zip(d["curves"], d["spread"])
        ]
        curves = msg("alt_samples", curves=msg("row_sep").join(each))
    else:
        curves = msg("list_sep").join(
            msg("alt_curve", name=plain(name), trend=trend(xs, ys))
            if name
            else msg("alt_curve_plain", trend=trend(xs, ys))
            for name, ys in d["curves"]
        )
    return msg(
        "alt_line",
        title=_titled(ax),
        x=_axis(ax.get_xlabel()),
        first=_number(xs[0]),
        last=_number(xs[-1]),
        xlog=msg("alt_log") if d["logx"] else "",
        y=_axis(ax.get_ylabel()),
        ylog=msg("alt_log") if d["logy"] else "",
        curves=curves,
    ) + _marks(d.get("marks", ()))


def _marks(points) -> str:
    """The points ``line(marks=...)`` rings, as the figure writes them."""
    if not points:
        return ""
    return msg("alt_marks", points=msg("list_sep").join(msg("alt_mark", x=_number(x), y=y) for x, y in points))


DESCRIBE = {
    "heatmap": _heatmap,
    "bars": _bars,
    "histograms": _histograms,
    "contributions": _contributions,
    "line": _line,
}


def describe_figure(fig: Figure) -> str:
    """The figure in words, in the current language: each panel in turn. Colour bars belong to their
    heatmap; panels side by side that label only the outer axes lend those labels to the others; a
    panel ``plots`` did not draw is described by its title and labels."""
    drawn = [(ax, getattr(ax, ATTRIBUTE, None)) for ax in fig.axes]
    shared = {
        which: next((label for ax, d in drawn if d is not None and (label := getattr(ax, f"get_{which}")())), "")
        for which in ("xlabel", "ylabel")
    }
    panels, seen = [], set()
    if fig._suptitle is not None and fig._suptitle.get_text():
        panels.append(plain(fig._suptitle.get_text()))
    for ax, d in drawn:
        if d is not None:
            if id(d) not in seen:  # the histograms share one record
                seen.add(id(d))
                panels.append(DESCRIBE[d.kind](ax, d.data, shared))
        elif not hasattr(ax, "_colorbar") and ax.get_visible():
            panels.append(msg("alt_axes", title=_titled(ax), x=_axis(ax.get_xlabel()), y=_axis(ax.get_ylabel())))
    return msg("alt_figure", panels=msg("alt_panel_sep").join(panels))


def show_figure(fig: Figure):
    """Display ``fig`` as IPython would, plus the alt text: an HTML ``<img alt=…>`` of the same PNG
    (what JupyterLab shows) and ``alt`` in the PNG's metadata. Other formats are passed on unchanged."""
    from IPython import get_ipython
    from IPython.display import publish_display_data

    formatters = get_ipython().display_formatter.formatters
    data, metadata = {}, {}
    for mime, formatter in formatters.items():
        if mime == "text/html" or not formatter.enabled:
            continue
        out = formatter(fig)
        if isinstance(out, tuple):
            out, metadata[mime] = out
        if out is not None:
            data[mime] = out
    alt = describe_figure(fig)
    png = data.get("image/png")
    if png is not None:
        png_metadata = metadata.setdefault("image/png", {})
        png_metadata["alt"] = alt
        encoded = png if isinstance(png, str) else base64.b64encode(png).decode("ascii")
        size = "".join(f' {key}="{png_metadata[key]}"' for key in ("width", "height") if key in png_metadata)
        data["text/html"] = f'<img src="data:image/png;base64,{encoded}" alt="{esc(alt)}"{size}/>'
    publish_display_data(data, metadata)


def install():
    """In an IPython kernel, show every matplotlib figure with its alt text (see the module docstring).
    Outside IPython it does nothing. Safe to call twice."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None and hasattr(shell, "display_formatter"):
        shell.display_formatter.ipython_display_formatter.for_type(Figure, show_figure)
