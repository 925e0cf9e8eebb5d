"""What every explorer shares: the :class:`Explorer` widget, the picture's frame, controls and checks.

An explorer module supplies ``compute(values) -> state`` (the numbers, with attn_core) and
``render(explorer, state) -> Frame`` (the picture, its description and the readouts); :class:`Explorer`
wires them to the controls, shows the result, and turns a failure into a red line.

Accessibility: the picture is an SVG with a ``<title>`` (the explorer's title) and a ``<desc>`` (what it
shows and its key numbers, in the explorer's language), which a screen reader reads; the static picture
saved in the notebook is an ``<img>`` whose ``alt`` says the same. :class:`ControlLabels`, an invisible
child of every explorer, names the controls for screen readers and gives toggle buttons arrow keys
(``controls.js``: ipywidgets 8 leaves slider handles unnamed).
"""

import contextlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import anywidget
import ipywidgets as widgets
import numpy as np
import traitlets

from attn_core import lang as _lang
from attn_core.examples import Example

from .. import svg as draw
from ..messages import msg
from .esm import esm as esm_text

# ---------------------------------------------------------------- layout shared by every picture (px)
MARGIN = 10  # left edge of the heading and of the first panel
HEADING_BASELINE = 24  # the bold line on top that says what is shown
HEADING_SIZE = 18
PANELS_TOP = 40  # panels start under the heading
PANEL_TITLE_SIZE = 17  # as svg.bars and svg.heatmap title their panels

TEXT_STYLE = f"font-family:{draw.FONT_FAMILY};font-size:16px;line-height:1.5"  # readouts and error line
NOTE_SIZE = "14px"  # the static-picture note
FADED_OPACITY = 0.3  # the last good picture while a setting cannot be computed
IMAGE_STYLE = "max-width:100%;height:auto"  # the static picture, like the live SVG

# ---------------------------------------------------------------- controls
SLIDER_WIDTH = "420px"
WIDE_SLIDER_WIDTH = "520px"
DESCRIPTION_STYLE = {"description_width": "initial"}  # long labels are not cut off
KEY_MULT = dict(min=0.0, max=3.0, step=0.1, value=1.0)  # a key slider multiplies one row of K
LIVE_CLASS = "attn-explorer-live"  # the explorer's box in the page: ControlLabels works inside it


class Box(NamedTuple):
    """A panel's place in the picture: top-left corner, width and height (px)."""

    x: float
    y: float
    width: float
    height: float


class Text:
    """The viz catalog in one language, fixed when an explorer is built: ``text("key", **fields)``."""

    def __init__(self, lang: str | None = None):
        self.lang = lang or _lang.get_lang()

    def __call__(self, key: str, **fields) -> str:
        return msg.text(key, self.lang, **fields)


@contextlib.contextmanager
def speaking(lang: str):
    """Run attn_core code in ``lang``: its own messages (errors, Trace.rows) follow the explorer."""
    before = _lang.get_lang()
    _lang.set_lang(lang)
    try:
        yield
    finally:
        _lang.set_lang(before)


@dataclass
class Frame:
    """What ``render`` returns: the picture, the numbers (floats), the learner-facing readout lines
    (plain text; HTML-escaped when shown), the picture's description for a screen reader (what it shows
    and its key numbers, becomes the SVG's ``<desc>``) and token-valued readouts."""

    picture: draw.Svg
    readouts: dict[str, float]
    lines: list[str]
    description: str
    labels: dict[str, str] = field(default_factory=dict)


class ControlLabels(anywidget.AnyWidget):
    """Invisible: names the explorer's controls for screen readers, gives toggle buttons arrow keys
    (see ``controls.js``). It must sit inside a box with the class ``attn-explorer-live``."""

    _esm = (Path(__file__).with_name("controls.js")).read_text(encoding="utf-8")


class WidgetExplorer(widgets.VBox):
    """The old design, kept while an explorer still uses it: ipywidgets controls, the picture drawn
    by the kernel (svg.py) on every change. Controls, an SVG picture, the readouts as text, an error line.

    ``compute(values) -> state`` does the arithmetic with attn_core; ``render(explorer, state) -> Frame``
    draws the picture, starting from ``explorer.picture(...)``, with words from ``explorer.text``, and
    says in words what it drew (``Frame.description``). Both run on every control change, in the
    explorer's language. ``title`` names the picture (its SVG <title>); ``control_box`` lays the controls
    out (default: one under the other).
    """

    def __init__(
        self,
        name: str,
        controls: dict[str, widgets.ValueWidget],
        compute: Callable[[dict[str, Any]], dict[str, Any]],
        render: Callable[["WidgetExplorer", dict[str, Any]], Frame],
        *,
        text: Text,
        title: str,
        control_box: widgets.Box | None = None,
    ):
        self.name = name
        self.controls = dict(controls)
        self.text, self.title = text, title
        self._compute, self._render = compute, render
        self._holding = self._observing = False
        self.svg, self.readouts, self.labels, self.lines, self.description = "", {}, {}, [], ""
        self.error: str | None = None
        self.state: dict[str, Any] = {}
        self._picture = widgets.HTML(layout=widgets.Layout(width="100%"))
        self._numbers = widgets.HTML()
        self._error = widgets.HTML()
        box = control_box if control_box is not None else widgets.VBox(list(self.controls.values()))
        super().__init__(children=[box, self._picture, self._numbers, self._error, ControlLabels()])
        self.add_class(LIVE_CLASS)
        self._show(self._compute_all())  # the default state: a failure here is a bug or bad argument
        for w in self.controls.values():
            w.observe(self._on_change, names="value")
        self._observing = True

    # ------------------------------------------------------------ drawing
    def picture(self, heading: str, width: float = 0, height: float = 0) -> draw.Svg:
        """A new SVG titled with the explorer's title, its heading line already drawn. Every picture of
        every explorer starts here; a size left at 0 is set by ``render`` once the panels are placed."""
        pic = draw.Svg(width, height, self.title)
        pic.text(MARGIN, HEADING_BASELINE, heading, size=HEADING_SIZE, bold=True)
        return pic

    # ------------------------------------------------------------ state
    @property
    def values(self):
        """Current control values, name -> value."""
        return {name: w.value for name, w in self.controls.items()}

    def _compute_all(self):
        with speaking(self.text.lang):
            state = self._compute(self.values)
            return state, self._render(self, state)

    def _show(self, computed):
        self.state, frame = computed
        frame.picture.description = frame.description
        svg = frame.picture.render()
        self.svg, self.readouts, self.labels, self.lines, self.description, self.error = (
            svg,
            frame.readouts,
            frame.labels,
            frame.lines,
            frame.description,
            None,
        )
        if self._picture.value != svg:
            self._picture.value = svg
        numbers = lines_html(frame.lines)
        if self._numbers.value != numbers:
            self._numbers.value = numbers
        if self._error.value:
            self._error.value = ""

    def update(self):
        """Recompute from the controls and redraw. If that raises, the message appears as a red line
        in the explorer (``.error`` holds it); the last good picture stays, faded."""
        try:
            computed = self._compute_all()
        except Exception as e:  # shown to the learner instead of failing silently in a callback
            self.error = f"{type(e).__name__}: {e}"
            self.readouts, self.labels, self.lines = {}, {}, []
            self._picture.value = self._faded()
            self._numbers.value = ""
            self._error.value = self._error_line()
            return
        self._show(computed)

    def _faded(self):
        return f'<div style="opacity:{FADED_OPACITY}">{self.svg}</div>'

    def alt_text(self) -> str:
        """The picture in words: its title, then what it shows and its key numbers."""
        return self.text("alt_text", title=self.title, description=self.description)

    def _error_line(self):
        message = self.text("error_line", error=self.error)
        return f'<div style="{TEXT_STYLE};color:{draw.ERROR};font-weight:bold">⚠ {draw.esc(message)}</div>'

    def _on_change(self, change):
        if not self._holding:
            self.update()

    def set(self, **values):
        """Set several controls at once (one redraw), e.g. ``ex.set(d_k=512, scaled=False)``."""
        unknown = [k for k in values if k not in self.controls]
        if unknown:
            raise ValueError(
                self.text(
                    "unknown_control",
                    explorer=self.name,
                    unknown=", ".join(map(repr, unknown)),
                    known=", ".join(map(repr, self.controls)),
                )
            )
        for k, value in values.items():
            check_value(k, self.controls[k], value, self.text)
        self._holding = True
        try:
            for k, value in values.items():
                self.controls[k].value = value
        finally:
            self._holding = False
        self.update()

    def close(self):
        """Stop listening to the controls and close every widget of the explorer (safe to call twice)."""
        if getattr(self, "_observing", False):
            for w in self.controls.values():
                w.unobserve(self._on_change, names="value")
            self._observing = False
        for w in self._descendants():
            w.close()
        super().close()

    def _descendants(self):
        out, todo = [], list(self.children)
        while todo:
            w = todo.pop()
            out.append(w)
            todo.extend(getattr(w, "children", ()))
        return out

    # ------------------------------------------------------------ display without a kernel
    def static_html(self):
        """The picture and numbers as plain HTML (deterministic), for viewers without a kernel.

        The picture is an ``<img>`` of the SVG with the description as its ``alt``: JupyterLab shows a
        saved notebook's HTML sanitized until it is run, and the sanitizer drops inline ``<svg>`` (the
        labels would be left as a jumble of words) but keeps an image."""
        image = (
            f'<img src="{draw.esc(draw.data_uri(self.svg))}" alt="{draw.esc(self.alt_text())}" style="{IMAGE_STYLE}"/>'
        )
        if self.error:
            body = f'<div style="opacity:{FADED_OPACITY}">{image}</div>' + self._error_line()
        else:
            body = image + lines_html(self.lines)
        return (
            f'<div class="attn-explorer">{body}'
            f'<div style="{TEXT_STYLE};font-size:{NOTE_SIZE};color:{draw.MUTED}">'
            f"{draw.esc(self.text('static_note'))}</div></div>"
        )

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if data is None:  # a closed widget has no view
            return None
        data["text/plain"] = self.text("needs_kernel", name=self.name)
        data["text/html"] = self.static_html()
        return data


# ================================================================ the live design (issue #30)
# Words every live explorer's page needs, besides its own (see Explorer's ``words``).
BASE_WORDS = ("error_line", "list_sep", "token_value", "in_brackets", "desc_sentences", "mode_scaled", "mode_unscaled")


def choice(name: str, label: str, options: Sequence, value, *, labels: Sequence[str] | None = None, slider=False):
    """A control spec: one of ``options`` (radio buttons, or a slider over them when ``slider``)."""
    spec = dict(name=name, kind="choice", label=label, options=list(options), value=value, slider=bool(slider))
    if labels is not None:
        spec["labels"] = list(labels)
    return spec


def number(name: str, label: str, *, min: float, max: float, step: float, value: float, digits: int = 1):
    """A control spec: a number from ``min`` to ``max`` in steps of ``step`` (a slider)."""
    return dict(name=name, kind="range", label=label, min=min, max=max, step=step, value=value, digits=digits)


def switch(name: str, label: str, value: bool):
    """A control spec: on or off (a checkbox)."""
    return dict(name=name, kind="toggle", label=label, value=bool(value))


def key_specs(tokens: Sequence[str], labels: Sequence[str], text: Text) -> list[dict]:
    """One slider per token, ×0 … ×3 (default ×1): it multiplies that token's row of K."""
    return [number(tok, text("control_key", token=lab), **KEY_MULT) for tok, lab in zip(tokens, labels)]


def d_k_spec(options: Sequence[int], value: int) -> dict:
    return choice("d_k", "d_k", list(options), value, slider=True)


def scaled_spec(value: bool, text: Text) -> dict:
    return switch("scaled", text("control_scaled"), value)


class Control:
    """One control of a live explorer as Python sees it: its spec (``kind``: "choice", "range" or
    "toggle"; ``label``; ``options``, or ``min``/``max``/``step``) and its current ``value``. Setting
    ``value`` is ``explorer.set(name=value)``: the page redraws, the readouts follow."""

    def __init__(self, explorer: "Explorer", spec: dict):
        self._explorer, self.spec = explorer, spec
        self.name, self.kind, self.label = spec["name"], spec["kind"], spec["label"]
        self.options = spec.get("options")
        self.min, self.max, self.step = spec.get("min"), spec.get("max"), spec.get("step")

    @property
    def value(self):
        return self._explorer.choices[self.name]

    @value.setter
    def value(self, value):
        self._explorer.set(**{self.name: value})

    def __repr__(self):
        return f"Control({self.name!r}, {self.kind}, value={self.value!r})"


def check_choice(spec: dict, value, text: Text):
    """Raise a clear error for a value the control cannot take (instead of the page clamping it)."""
    name = spec["name"]
    if spec["kind"] == "choice":
        if isinstance(value, (bool, np.bool_)) or value not in spec["options"]:
            raise ValueError(text("not_a_choice", name=name, value=value, allowed=spec["options"]))
    elif spec["kind"] == "toggle":
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(text("not_a_switch", name=name, value=value))
    else:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(text("not_a_number", name=name, value=value))
        if not spec["min"] <= value <= spec["max"]:
            raise ValueError(text("outside_range", name=name, value=value, low=spec["min"], high=spec["max"]))


def plain(value):
    """``value`` with numpy arrays and numbers, and tuples, made into JSON's lists and numbers."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def token_labels(tokens: Sequence[str], glosses: Sequence[str] | None, lang: str) -> tuple[list[str], list[str] | None]:
    """How the picture names the tokens: in the English edition with their glosses (我 “I”), and the
    glosses alone (“I”) for a second label line; in Chinese the tokens alone and no glosses."""
    if lang != "en" or not glosses:
        return list(tokens), None
    quoted = [f"“{g}”" for g in glosses]
    return [f"{t} {g}" for t, g in zip(tokens, quoted)], quoted


class Explorer(anywidget.AnyWidget):
    """An explorer computed and drawn in the page; Python holds the reference numbers.

    The page (``js/``, assembled by :mod:`.esm`) builds the controls from ``data["controls"]``, does the
    arithmetic and draws the picture on every input, with no kernel round trip. The synced traitlets:
    ``kind`` (the explorer's module in js/), ``lang``, ``data`` (tokens, matrices, settings, ``title``,
    ``controls``), ``words`` (the templates of the explorer's words in its language) and ``choices`` (the
    learner's values, written back by the page). On every change of ``choices``, Python recomputes with
    attn_core: ``compute(values) -> state`` and ``render(explorer, state) -> Frame`` (the svg.py picture
    that the saved notebook shows where no JavaScript runs, the readouts and the description), so
    ``.readouts``, ``.labels``, ``.state``, ``.svg`` and ``.error`` follow the learner.
    ``.controls`` is name -> :class:`Control` (spec and value).
    """

    _esm = esm_text()
    kind = traitlets.Unicode("").tag(sync=True)
    lang = traitlets.Unicode("zh").tag(sync=True)
    data = traitlets.Dict().tag(sync=True)
    words = traitlets.Dict().tag(sync=True)
    choices = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        name: str,
        kind: str,
        specs: list[dict],
        data: dict[str, Any],
        words: Sequence[str],
        compute: Callable[[dict[str, Any]], dict[str, Any]],
        render: Callable[["Explorer", dict[str, Any]], Frame],
        *,
        text: Text,
        title: str,
        linked: Callable[[str, Any, dict[str, Any]], dict[str, Any]] | None = None,
    ):
        self.name, self.text, self.title = name, text, title
        self._compute, self._render = compute, render
        self._linked = linked  # (name, value, choices) -> the other controls that value fixes (js: `linked`)
        self.svg, self.readouts, self.labels, self.lines, self.description = "", {}, {}, [], ""
        self.error: str | None = None
        self.state: dict[str, Any] = {}
        self._holding = False
        keys = dict.fromkeys([*BASE_WORDS, *words])
        templates = {k: _lang.tr(*msg.messages[k], lang=text.lang) for k in keys}
        specs = [plain(s) for s in specs]
        super().__init__(
            kind=kind,
            lang=text.lang,
            data=plain({**data, "title": title, "controls": specs}),
            words=templates,
            choices={s["name"]: s["value"] for s in specs},
        )
        self.controls = {s["name"]: Control(self, s) for s in specs}
        self._show(self._compute_all())  # the default state: a failure here is a bug or bad argument
        self.observe(self._on_choices, names="choices")

    # ------------------------------------------------------------ drawing (the static picture, svg.py)
    def picture(self, heading: str, width: float = 0, height: float = 0) -> draw.Svg:
        """A new SVG titled with the explorer's title, its heading line drawn (as draw.js ``picture``)."""
        pic = draw.Svg(width, height, self.title)
        pic.text(MARGIN, HEADING_BASELINE, heading, size=HEADING_SIZE, bold=True)
        return pic

    @property
    def values(self) -> dict[str, Any]:
        """The learner's current values, name -> value (what the page shows)."""
        return dict(self.choices)

    def _compute_all(self):
        with speaking(self.text.lang):
            state = self._compute(self.values)
            return state, self._render(self, state)

    def _show(self, computed):
        self.state, frame = computed
        frame.picture.description = frame.description
        self.svg = frame.picture.render()
        self.readouts, self.labels, self.lines = frame.readouts, frame.labels, frame.lines
        self.description, self.error = frame.description, None

    def update(self):
        """Recompute the reference numbers and the static picture from ``choices``. A failure is kept in
        ``.error`` (the page draws its own message in the picture); the readouts are emptied."""
        try:
            computed = self._compute_all()
        except Exception as e:  # the learner's setting, not a bug: say it instead of failing in a callback
            self.error = f"{type(e).__name__}: {e}"
            self.readouts, self.labels, self.lines = {}, {}, []
            return
        self._show(computed)

    def _on_choices(self, change):
        if not self._holding:
            self.update()

    def set(self, **values):
        """Set several controls at once (one redraw), e.g. ``ex.set(d_k=512, scaled=False)``. A value that
        fixes other controls (a model preset: its own head count) sets them too, as the page does, unless
        they are given here as well."""
        unknown = [k for k in values if k not in self.controls]
        if unknown:
            raise ValueError(
                self.text(
                    "unknown_control",
                    explorer=self.name,
                    unknown=", ".join(map(repr, unknown)),
                    known=", ".join(map(repr, self.controls)),
                )
            )
        for k, value in values.items():
            check_choice(self.controls[k].spec, value, self.text)
        fixed: dict[str, Any] = {}
        if self._linked is not None:
            for k, value in values.items():
                if value != self.choices[k]:  # a choice made again changes nothing (as in the page)
                    fixed.update(self._linked(k, value, {**self.choices, **values}))
        fixed = {k: v for k, v in fixed.items() if k not in values}
        self._holding = True
        try:
            self.choices = {**self.choices, **plain(fixed), **plain(values)}
        finally:
            self._holding = False
        self.update()

    def alt_text(self) -> str:
        """The picture in words: its title, then what it shows and its key numbers."""
        return self.text("alt_text", title=self.title, description=self.description)

    def _error_line(self):
        message = self.text("error_line", error=self.error)
        return f'<div style="{TEXT_STYLE};color:{draw.ERROR};font-weight:bold">⚠ {draw.esc(message)}</div>'

    # ------------------------------------------------------------ display without a kernel
    def page_state(self) -> dict[str, Any]:
        """What the page needs to draw this explorer live without Python (mountAll's JSON)."""
        return dict(kind=self.kind, lang=self.lang, data=self.data, words=self.words, choices=self.choices)

    def static_html(self) -> str:
        """The picture and numbers as plain HTML (deterministic), for viewers without a kernel, inside a
        ``[data-attn-explorer]`` element that carries the page state as JSON: a page that loads
        ``bundle()`` turns it into the live explorer.

        The picture is an ``<img>`` of the SVG with the description as its ``alt``: JupyterLab shows a
        saved notebook's HTML sanitized until it is run, and the sanitizer drops inline ``<svg>`` (and the
        ``<script>``) but keeps an image."""
        image = (
            f'<img src="{draw.esc(draw.data_uri(self.svg))}" alt="{draw.esc(self.alt_text())}" style="{IMAGE_STYLE}"/>'
        )
        if self.error:
            body = f'<div style="opacity:{FADED_OPACITY}">{image}</div>' + self._error_line()
        else:
            body = image + lines_html(self.lines)
        state = json.dumps(self.page_state(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        state = state.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        return (
            f'<div class="attn-explorer" data-attn-explorer="{draw.esc(self.kind)}">'
            f'<script type="application/json">{state}</script>{body}'
            f'<div style="{TEXT_STYLE};font-size:{NOTE_SIZE};color:{draw.MUTED}">'
            f"{draw.esc(self.text('static_note'))}</div></div>"
        )

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:  # a closed widget has no view
            return None
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})  # anywidget: (data, metadata)
        data["text/plain"] = self.text("needs_kernel", name=self.name)
        data["text/html"] = self.static_html()
        return (data, metadata) if metadata else data  # metadata only in Colab (its widget manager)


def lines_html(lines: list[str]) -> str:
    """The readout lines as HTML, one ``<div>`` each."""
    body = "".join(f"<div>{draw.esc(line)}</div>" for line in lines)
    return f'<div style="{TEXT_STYLE};margin:4px 0">{body}</div>'


# ---------------------------------------------------------------- control factories


def key_sliders(tokens: Sequence[str], text: Text) -> dict[str, widgets.FloatSlider]:
    """One slider per token, 0× … 3×: it multiplies that token's row of K."""
    return {
        tok: widgets.FloatSlider(
            description=text("control_key", token=tok),
            readout_format=".1f",
            continuous_update=True,
            layout=widgets.Layout(width=SLIDER_WIDTH),
            style=DESCRIPTION_STYLE,
            **KEY_MULT,
        )
        for tok in tokens
    }


def d_k_slider(options: Sequence[int], value: int, width: str) -> widgets.SelectionSlider:
    """The width d_k of Q and K, one of ``options``."""
    return widgets.SelectionSlider(
        options=list(options),
        value=value,
        description="d_k",
        continuous_update=True,
        layout=widgets.Layout(width=width),
        style=DESCRIPTION_STYLE,
    )


def scaled_checkbox(value: bool, text: Text) -> widgets.Checkbox:
    """True = divide the scores by √d_k."""
    return widgets.Checkbox(value=value, description=text("control_scaled"), indent=False)


def mode_text(scaled: bool, text: Text) -> str:
    """ "divided by √d_k" or "unscaled", for a heading."""
    return text("mode_scaled") if scaled else text("mode_unscaled")


# ---------------------------------------------------------------- checks (errors in the explorer's language)


def option_values(w):
    """The values a selection widget can take (its options may be (label, value) pairs)."""
    return [o[1] if isinstance(o, tuple) and len(o) == 2 else o for o in w.options]


def check_value(name: str, w: widgets.ValueWidget, value, text: Text):
    """Raise a clear error instead of letting a widget clamp or reject ``value`` silently."""
    if hasattr(w, "options"):
        allowed = option_values(w)
        if value not in allowed:
            raise ValueError(text("not_a_choice", name=name, value=value, allowed=allowed))
    elif isinstance(w, widgets.Checkbox):
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(text("not_a_switch", name=name, value=value))
    else:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(text("not_a_number", name=name, value=value))
        if isinstance(w, widgets.IntSlider) and int(value) != value:
            raise ValueError(text("not_whole", name=name, value=value))
        if not w.min <= value <= w.max:
            raise ValueError(text("outside_range", name=name, value=value, low=w.min, high=w.max))


def pick_example(example: Example | None, default: Callable[[], Example], text: Text) -> Example:
    """``example``, or ``default()`` when it is None, checked to be an Example with distinct tokens."""
    example = default() if example is None else example
    for attribute in ("tokens", "X", "W_q", "W_k", "W_v"):
        if not hasattr(example, attribute):
            raise TypeError(text("not_an_example", type=type(example).__name__, attribute=attribute))
    if len(set(example.tokens)) != len(example.tokens):
        raise ValueError(text("tokens_not_distinct", tokens=example.tokens))
    return example


def check_token(token: str, tokens: Sequence[str], text: Text, what: str = "query"):
    if token not in tokens:
        raise ValueError(text("not_a_token", what=what, token=token, tokens=list(tokens)))


def check_seed(seed, text: Text):
    """A seed for ``np.random.default_rng``: an integer (not a bool)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(text("seed_not_int", seed=seed))


# ---------------------------------------------------------------- numbers shown


def token_values(tokens: Sequence[str], values, text: Text, notes: Sequence[str] | None = None) -> str:
    """ "我 0.10、喜欢 0.35…" (a note in brackets after each value when given), for a description."""
    items = []
    for k, (tok, x) in enumerate(zip(tokens, values)):
        item = text("token_value", token=tok, value=draw.fmt(x))
        items.append(item + text("in_brackets", text=notes[k]) if notes is not None else item)
    return text("list_sep").join(items)


def describe(heading: str, body: str, text: Text) -> str:
    """A picture's description: its heading line, then what it shows."""
    return text("desc_sentences", first=heading, second=body)


def entropy(a) -> float:
    """Entropy −Σ a·log a of one row of weights (0·log 0 = 0)."""
    a = np.asarray(a, dtype=float)
    nz = a[a > 0]
    return float(-(nz * np.log(nz)).sum())
