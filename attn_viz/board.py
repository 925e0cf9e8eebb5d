"""The classroom demo board: every explorer on one page, a tab per lesson, no code, sized for a projector.

    from attn_viz.board import DemoBoard
    DemoBoard()           # in notebooks/demo.ipynb; `make demo` serves it with Voilà

Each tab holds one explorer and one question to ask the room. The explorers are the lessons' own (same
code, same speed); only the page around them is bigger: the board's style sheet (``STYLE``) sets the
text to ``TEXT_PX`` (questions ``QUESTION_PX``), puts the controls and readouts on the left and scales
the picture to fill the right ``PICTURE_SHARE`` of the width, as high as the screen allows. The README
(For teachers, "In class") gives the sizes this makes at 1920×1080 and why.

A language switch on top rebuilds the board in Chinese or English (the explorers keep the language they
were built in). The tabs are data: ``STATIONS`` lists (lesson, explorer, catalog key); a new explorer
joins the board with one line there and its words (``board_<key>_name``, ``board_<key>_question``) in
``messages.py``.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import ipywidgets as widgets

from attn_core import lang as _lang

from .explorers import dk_explorer, head_explorer, key_explorer, mask_explorer, pipeline_explorer, position_explorer
from .explorers.base import Explorer, Text, speaking
from .messages import msg
from .svg import esc


@dataclass(frozen=True)
class Station:
    """One tab of the board: the lesson it belongs to, the explorer it shows, its catalog key."""

    lesson: int
    explorer: Callable[[], Explorer]
    key: str


STATIONS = (
    Station(3, dk_explorer, "dk"),
    Station(4, key_explorer, "key"),
    Station(6, partial(pipeline_explorer, shape_table=False), "pipeline"),  # the table is too small to read
    Station(7, mask_explorer, "mask"),
    Station(8, head_explorer, "head"),
    Station(12, position_explorer, "position"),
)
LANGUAGES = (("中文", "zh"), ("English", "en"))

# ---------------------------------------------------------------- sizes for a projector at 1920×1080 (px)
TEXT_PX = 28  # controls, readouts, tab titles
QUESTION_PX = 32  # the question for the room
TITLE_PX = 36  # the board's title
PICTURE_SHARE = 72  # % of the width for the picture; controls and readouts get the rest
CHROME_PX = 250  # title, tabs, question and margins: the picture may use the rest of the screen's height
BOARD_CLASS = "attn-board"

STYLE = f"""<style>
.{BOARD_CLASS} {{ --jp-widgets-font-size: {TEXT_PX}px; --jp-widgets-inline-height: {TEXT_PX + 20}px;
  --jp-widgets-slider-handle-size: {TEXT_PX}px; font-size: {TEXT_PX}px; }}
.{BOARD_CLASS} .widget-label, .{BOARD_CLASS} .widget-readout, .{BOARD_CLASS} button,
.{BOARD_CLASS} select, .{BOARD_CLASS} .widget-checkbox, .{BOARD_CLASS} .widget-html-content div,
.{BOARD_CLASS} .lm-TabBar-tab {{ font-size: {TEXT_PX}px !important; line-height: 1.35 !important; }}
.{BOARD_CLASS} .lm-TabBar-tab {{ min-height: {TEXT_PX + 24}px; padding: 6px 18px !important;
  max-width: none !important; flex: 0 0 auto !important; }}
.{BOARD_CLASS} .attn-board-header {{ justify-content: space-between; align-items: center; width: 100%; }}
.{BOARD_CLASS} input[type="checkbox"] {{ width: {TEXT_PX}px; height: {TEXT_PX}px; }}
.{BOARD_CLASS} .attn-board-title {{ font-size: {TITLE_PX}px; font-weight: bold; }}
.{BOARD_CLASS} .attn-board-question {{ font-size: {QUESTION_PX}px; margin: 4px 0 12px; }}
.{BOARD_CLASS} .attn-explorer-live {{ display: grid !important; column-gap: 32px; align-items: start;
  grid-template-columns: minmax(0, {100 - PICTURE_SHARE}fr) minmax(0, {PICTURE_SHARE}fr); }}
.{BOARD_CLASS} .attn-explorer-live > :nth-child(1) {{ grid-column: 1; grid-row: 1; }}
.{BOARD_CLASS} .attn-explorer-live > :nth-child(2) {{ grid-column: 2; grid-row: 1 / span 3; }}
.{BOARD_CLASS} .attn-explorer-live > :nth-child(3) {{ grid-column: 1; grid-row: 2; }}
.{BOARD_CLASS} .attn-explorer-live > :nth-child(4) {{ grid-column: 1; grid-row: 3; }}
.{BOARD_CLASS} .attn-explorer-live .widget-hbox, .{BOARD_CLASS} .attn-explorer-live .widget-vbox
  {{ flex-wrap: wrap; width: 100% !important; }}
.{BOARD_CLASS} .attn-explorer-live .widget-slider, .{BOARD_CLASS} .attn-explorer-live .widget-dropdown
  {{ width: 100% !important; max-width: 100% !important; }}
.{BOARD_CLASS} .attn-explorer-live .widget-toggle-buttons .widget-toggle-button {{ width: auto !important; }}
.{BOARD_CLASS} .widget-html-content svg {{ width: 100%; height: auto;
  max-height: calc(100vh - {CHROME_PX}px); }}
</style>"""


class DemoBoard(widgets.VBox):
    """The board: a title and a language switch, then one tab per station (question + explorer).

    ``.explorers`` (station key -> Explorer) and ``.tabs`` (the ``ipywidgets.Tab``) are there for tests
    and for a teacher who wants to set a value from code, e.g. ``board.explorers["dk"].set(d_k=512)``.
    """

    def __init__(self, lang: str | None = None):
        """``lang``: "zh" or "en"; default: the notebook's language (``set_lang``)."""
        lang = lang or _lang.get_lang()
        if lang not in _lang.LANGS:
            raise ValueError(msg("board_bad_lang", language=lang, languages=", ".join(_lang.LANGS)))
        self.language = widgets.ToggleButtons(options=LANGUAGES, value=lang, style={"button_width": "auto"})
        self._title = widgets.HTML()
        self.tabs = widgets.Tab()
        self.explorers: dict[str, Explorer] = {}
        header = widgets.HBox([self._title, self.language])
        header.add_class("attn-board-header")
        super().__init__(children=[widgets.HTML(STYLE), header, self.tabs])
        self.add_class(BOARD_CLASS)
        self._build(lang)
        self.language.observe(self._switch, names="value")

    def _build(self, lang: str):
        text = Text(lang)
        self.language.description = text("board_language")
        self._title.value = f'<div class="attn-board-title">{esc(text("board_title"))}</div>'
        with speaking(lang):  # the explorers read the language when they are built
            self.explorers = {station.key: station.explorer() for station in STATIONS}
        self.tabs.children = [
            widgets.VBox([widgets.HTML(question_html(station, text)), self.explorers[station.key]])
            for station in STATIONS
        ]
        self.tabs.titles = [tab_title(station, text) for station in STATIONS]

    def _switch(self, change):
        selected = self.tabs.selected_index
        old = list(self.explorers.values())
        self._build(change["new"])
        self.tabs.selected_index = selected
        for explorer in old:
            explorer.close()

    def close(self):
        for explorer in getattr(self, "explorers", {}).values():  # also called on a half-built board
            explorer.close()
        super().close()

    # ------------------------------------------------------------ display without a kernel
    def static_html(self) -> str:
        """Every station's question and static picture (deterministic), for viewers without a kernel."""
        text = Text(self.language.value)
        parts = [f'<div class="attn-board-title">{esc(text("board_title"))}</div>']
        for station in STATIONS:
            parts.append(f"<h3>{esc(tab_title(station, text))}</h3>")
            parts.append(question_html(station, text))
            parts.append(self.explorers[station.key].static_html())
        return "".join(parts)

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if data is None:  # a closed widget has no view
            return None
        data["text/plain"] = Text(self.language.value)("board_needs_kernel")
        data["text/html"] = self.static_html()
        return data


def tab_title(station: Station, text: Text) -> str:
    return text("board_tab", lesson=station.lesson, name=text(f"board_{station.key}_name"))


def question_html(station: Station, text: Text) -> str:
    question = text("board_question", question=text(f"board_{station.key}_question"))
    return f'<div class="attn-board-question" style="color:inherit">{esc(question)}</div>'
