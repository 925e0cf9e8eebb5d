"""The classroom demo board: every explorer on one page, a tab per lesson, no code, sized for a projector.

    from attn_viz.board import DemoBoard
    DemoBoard()           # in notebooks/demo.ipynb; `make demo` serves it with Voilà

    from attn_viz.board import standalone_html
    standalone_html()     # the same board as one HTML page without Python (`make board`)

Each tab holds one explorer and one question to ask the room. The explorers are the lessons' own (same
code; they compute and draw in the page); only the page around them is bigger: the board's style sheet
(:func:`board_css`) sets the text to ``TEXT_PX`` (questions ``QUESTION_PX``), puts the controls and
readouts on the left and gives the picture the right ``PICTURE_SHARE`` of the width in a box of fixed
height (the rest of the screen): the picture scales inside it, so changing a setting never moves the
page. In Voilà the longest readouts (lesson 14's; in English lessons 6 and 12 too) still end below a
1280×720 or 1920×1080 screen. The board without Python puts the readouts below controls and picture,
across the width, so nothing runs off its bottom, and its tab titles on one row
(tests/browser/test_hosts.py checks both at 1280×720 and 1920×1080). The README (For teachers,
"In class") gives the sizes at 1920×1080.

In Voilà a language switch on top rebuilds the board in Chinese or English (the explorers keep the
language they were built in). :func:`standalone_html` carries both languages and switches between them
in the page. The tabs are data: ``STATIONS`` lists (lesson, explorer, catalog key); a new explorer joins
the board with one line there and its words (``board_<key>_name``, ``board_<key>_question``) in
``messages.py``.
"""

import html as _html
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import ipywidgets as widgets

from attn_core import lang as _lang

from .explorers import (
    dk_explorer,
    head_explorer,
    key_explorer,
    kv_cache_explorer,
    mask_explorer,
    pipeline_explorer,
    position_explorer,
)
from .explorers.base import Text, speaking
from .fonts import CSS_FAMILY, VOILA_STYLESHEET
from .messages import msg
from .svg import esc


@dataclass(frozen=True)
class Station:
    """One tab of the board: the lesson it belongs to, the explorer it shows, its catalog key."""

    lesson: int
    explorer: Callable[[], widgets.Widget]
    key: str


STATIONS = (
    Station(3, dk_explorer, "dk"),
    Station(4, key_explorer, "key"),
    Station(6, partial(pipeline_explorer, shape_table=False), "pipeline"),  # the table is too small to read
    Station(7, mask_explorer, "mask"),
    Station(8, head_explorer, "head"),
    Station(12, position_explorer, "position"),
    Station(14, kv_cache_explorer, "kv"),
)
LANGUAGES = (("中文", "zh"), ("English", "en"))
HTML_LANG = {"zh": "zh-CN", "en": "en"}

# ---------------------------------------------------------------- sizes for a projector at 1920×1080 (px)
TEXT_PX = 28  # controls, readouts, tab titles
QUESTION_PX = 30  # the question for the room
TITLE_PX = 36  # the board's title
TAB_SHARE = 0.85  # the tab titles' size, of the text's: the seven tabs stay on one row at 1280 px (in near-black:
# at this size axe wants 4.5:1, which JupyterLab's grey of an inactive tab does not reach)
PICTURE_SHARE = 72  # % of the width for the picture; controls and readouts get the rest
# the text size follows the screen: TEXT_PX at 1920×1080, less on a smaller screen (21 px at 1440×900), so that
# the controls and the picture fit on the screen together; every other size of the board is in em of it
TEXT_SIZE = f"clamp(16px, min({TEXT_PX / 19.2:.4g}vw, {TEXT_PX / 10.8:.4g}vh), {TEXT_PX}px)"
# Voilà: what is above the picture (title, two rows of tabs, a two-line question), measured in Chromium at
# 1920×1080 and 1440×900: part of it scales with the text (em), part does not (borders, paddings: px)
VOILA_PICTURE_HEIGHT = "calc(100vh - 8.9em - 100px)"


def _em(px: float) -> str:
    """``px`` at 1920×1080 as em of the board's text size (it scales with the screen)."""
    return f"{px / TEXT_PX:.4g}em"


BOARD_CLASS = "attn-board"
FONT_FILE = "NotoSansSC-Subset.otf"  # attn_viz/fonts, copied beside the standalone board


def board_css(picture_height: str, readouts_below: bool = False) -> str:
    """The board's style for the in-page explorers (``.attn-explorer-live``): controls and readout lines
    on the left, the picture on the right in a box ``picture_height`` high (it scales inside: no jump).
    ``readouts_below``: the readout lines go below controls and picture, across the whole width, and the
    picture takes the height left above them (``picture_height`` "100%" of its row): the board without
    Python, whose explorer fills the screen's height; in the left column, lesson 14's five controls and
    its readouts wrapped to a dozen narrow lines ran below a 1280×720 or 1920×1080 screen."""
    b = f".{BOARD_CLASS}"
    below = f"""
{b} .attn-explorer-live {{ grid-template-rows: 1fr auto; }}
{b} .attn-explorer-live .attn-picture {{ grid-row: 1; overflow: hidden; }}
{b} .attn-explorer-live .attn-lines {{ grid-column: 1 / -1; }}
"""
    return f"""
{b} {{ font-size: {TEXT_SIZE}; }}
{b} .attn-board-title {{ font-size: {_em(TITLE_PX)}; font-weight: bold; margin: 0; }}
{b} .attn-board-question {{ font-size: {_em(QUESTION_PX)}; margin: 0.1em 0 0.25em; line-height: 1.3; }}
{b} .attn-explorer-live {{ display: grid; column-gap: {_em(32)}; row-gap: {_em(12)}; align-items: start;
  grid-template-columns: minmax(0, {100 - PICTURE_SHARE}fr) minmax(0, {PICTURE_SHARE}fr);
  grid-template-rows: auto minmax(0, 1fr); }}
{b} .attn-explorer-live .attn-controls {{ grid-column: 1; grid-row: 1; font-size: 1em; gap: {_em(8)}; }}
{b} .attn-explorer-live .attn-figure {{ display: contents; }}
{b} .attn-explorer-live .attn-picture {{ grid-column: 2; grid-row: 1 / span 2; height: {picture_height};
  min-height: 240px; }}
{b} .attn-explorer-live .attn-picture svg {{ display: block; width: 100%; height: 100% !important; }}
{b} .attn-explorer-live .attn-lines {{ grid-column: 1; grid-row: 2; font-size: 0.85em; line-height: 1.3; }}
{b} .attn-explorer-live input[type=range] {{ height: 1em; }}
{b} .attn-explorer-live input[type=checkbox], {b} .attn-explorer-live input[type=radio]
  {{ width: {_em(TEXT_PX - 4)}; height: {_em(TEXT_PX - 4)}; }}
{b} .attn-explorer-live .attn-choice {{ padding: 0.1em 0.4em 0.1em 0.2em; }}
{b} .attn-explorer-live.attn-wide .attn-controls {{ flex-direction: column; flex-wrap: nowrap; }}
{b} .attn-explorer-live.attn-wide .attn-controls > .attn-control {{ flex: 0 0 auto; }}
{b} .attn-explorer-live.attn-wide .attn-picture svg {{ max-height: none; }}
{below if readouts_below else ""}"""


# the picture's inline style (svg.py: height:auto, for a notebook) would size it by its width and push it
# below the screen: on the board it fills its box (height 100% !important) and scales inside it


# ipywidgets' own parts of the board in Voilà: the tab bar wraps instead of cutting "Lesson 12" off, and
# its labels are tall enough for the subscript of dₖ (lumino's fixed tab height clipped d_k's underscore); their
# text follows the screen as the rest of the board (TEXT_SIZE), so that VOILA_PICTURE_HEIGHT holds on every screen.
VOILA_CSS = f"""
.{BOARD_CLASS} {{ --jp-widgets-font-size: {TEXT_SIZE}; --jp-widgets-inline-height: calc({TEXT_SIZE} + 20px); }}
.{BOARD_CLASS} .widget-label, .{BOARD_CLASS} button, .{BOARD_CLASS} .lm-TabBar-tab
  {{ font-size: {TEXT_SIZE} !important; }}
.{BOARD_CLASS} .widget-tab > .lm-TabBar {{ height: auto !important; min-height: 0 !important; overflow: visible; }}
.{BOARD_CLASS} .widget-tab > .lm-TabBar > .lm-TabBar-content {{ flex-wrap: wrap; }}
.{BOARD_CLASS} .widget-tab > .lm-TabBar .lm-TabBar-tab {{ height: auto !important; min-height: calc(1em + 20px);
  max-width: none !important; flex: 0 0 auto !important; padding: 3px 0.6em !important; line-height: 1.35 !important;
  min-width: 0; }}
.{BOARD_CLASS} .widget-tab > .lm-TabBar .lm-TabBar-tabLabel
  {{ overflow: visible; line-height: 1.5; padding-bottom: 2px; }}
.{BOARD_CLASS} .attn-board-header {{ justify-content: space-between; align-items: center; width: 100%; }}
.{BOARD_CLASS} .attn-board-header .widget-toggle-buttons {{ flex-direction: row; flex-wrap: nowrap; align-items: center;
  width: auto; }}
.{BOARD_CLASS} .attn-board-header .widget-toggle-buttons .widget-label {{ width: auto; margin: 0 0.4em 0 0; }}
.{BOARD_CLASS} .attn-board-header .widget-toggle-button {{ background: #fff; color: #1d3f57;
  border: 2px solid #31688e; box-shadow: none; }}
.{BOARD_CLASS} .attn-board-header .widget-toggle-button.mod-active {{ background: #31688e; color: #fff;
  font-weight: bold; }}
.{BOARD_CLASS} .widget-tab > .lm-TabBar .lm-TabBar-tab {{ font-size: calc({TAB_SHARE} * {TEXT_SIZE}) !important;
  padding: 3px 0.4em !important; color: #1a1a1a !important; }}
.{BOARD_CLASS}, .{BOARD_CLASS} button, .{BOARD_CLASS} .lm-TabBar-tab {{ font-family: {CSS_FAMILY} !important; }}
"""
# the course's fonts as `make demo` serves them (a projector PC may have no CJK font); harmless elsewhere
STYLE = f"{VOILA_STYLESHEET}<style>{board_css(VOILA_PICTURE_HEIGHT)}{VOILA_CSS}</style>"


class DemoBoard(widgets.VBox):
    """The board: a title and a language switch, then one tab per station (question + explorer).

    ``.explorers`` (station key -> explorer) and ``.tabs`` (the ``ipywidgets.Tab``) are there for tests
    and for a teacher who wants to set a value from code, e.g. ``board.explorers["dk"].set(d_k=512)``.
    """

    def __init__(self, lang: str | None = None):
        """``lang``: "zh" or "en"; default: the notebook's language (``set_lang``)."""
        lang = check_lang(lang or _lang.get_lang())
        self.language = widgets.ToggleButtons(options=LANGUAGES, value=lang, style={"button_width": "auto"})
        self._title = widgets.HTML()
        self.tabs = widgets.Tab()
        # one box per tab, kept across a language switch: replacing the Tab's children sent the page back to
        # the first tab (lesson 3); only what is inside the boxes is rebuilt
        self.tabs.children = [widgets.VBox() for _ in STATIONS]
        self.explorers: dict[str, widgets.Widget] = {}
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
        self.explorers = build_explorers(lang)
        for box, station in zip(self.tabs.children, STATIONS):
            box.children = [widgets.HTML(question_html(station, text)), self.explorers[station.key]]
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
        """Every station's question and explorer as saved HTML (deterministic): a static picture where no
        JavaScript runs, a live explorer on a page that loads ``attn_viz.explorers.bundle()`` (the site)."""
        text = Text(self.language.value)
        parts = [f'<div class="attn-board-title">{esc(text("board_title"))}</div>']
        for station in STATIONS:
            parts.append(f"<h3>{tab_title_html(station, text)}</h3>")
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


def check_lang(lang: str) -> str:
    if lang not in _lang.LANGS:
        raise ValueError(msg("board_bad_lang", language=lang, languages=", ".join(_lang.LANGS)))
    return lang


def build_explorers(lang: str) -> dict:
    with speaking(lang):  # the explorers read the language when they are built
        return {station.key: station.explorer() for station in STATIONS}


# ipywidgets' tab titles are plain text: there d_k is d and U+2096 (subscript k). The bundled font has no U+2096
# (nor has Noto Sans CJK SC, its source), but it comes after the generic sans-serif in the course's font stack
# (fonts.CSS_FAMILY), and the browser draws it from that family or its own fallback (DejaVu Sans with every
# CJK font hidden: tests/browser/test_fonts_hidden.py). HTML (the questions, the saved board's headings,
# `make board`'s tabs) uses d<sub>k</sub>, drawn by any font.
SUBSCRIPT_K = "\u2096"


def _tab_text(station: Station, text: Text) -> str:
    return text("board_tab", lesson=station.lesson, name=text(f"board_{station.key}_name"))


def tab_title(station: Station, text: Text) -> str:
    """The tab title as plain text (ipywidgets), with d_k written d\u2096."""
    return _tab_text(station, text).replace("d_k", "d" + SUBSCRIPT_K)


def tab_title_html(station: Station, text: Text) -> str:
    """The tab title with d_k drawn as d with a subscript k."""
    return esc(_tab_text(station, text)).replace("d_k", "d<sub>k</sub>")


def question_html(station: Station, text: Text) -> str:
    question = text("board_question", question=text(f"board_{station.key}_question"))
    question = esc(question).replace("d_k", "d<sub>k</sub>")  # as the tab title: d_k with a real subscript
    return f'<div class="attn-board-question" style="color:inherit">{question}</div>'


# ---------------------------------------------------------------- the board without Python (`make board`)
# its tab titles' size, of the text's: the seven English ones ("Lesson 12 · word order") stay on one row from
# 1280 px on (measured in Chromium: 1178 of 1243 px at 1280×720, 1730 of 1864 at 1920×1080); a narrower
# screen scrolls the row sideways rather than wrapping it (its padding leaves room for the focus outline,
# which the scrolling row would clip). The subscript of d_k keeps the line's height (line-height 0): it
# raised that tab's label above the others'.
STANDALONE_TAB_SHARE = 0.8
STANDALONE_CSS = f"""
@font-face {{ font-family: "Noto Sans SC"; src: url("fonts/{FONT_FILE}") format("opentype"); }}
html, body {{ margin: 0; height: 100%; background: #fff; color: #222; }}
body {{ font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans CJK SC", "Source Han Sans SC",
  "Noto Sans SC", "PingFang SC", "Microsoft YaHei", sans-serif; }}
.{BOARD_CLASS} {{ box-sizing: border-box; height: 100vh; padding: 0.5em 1em; display: flex; flex-direction: column; }}
.attn-board-header {{ display: flex; justify-content: space-between; align-items: center; gap: 24px; }}
.attn-board-switch {{ display: flex; gap: 8px; align-items: center; margin: 0; padding: 0; border: 0; }}
.attn-board-switch button, .attn-board-tabs button {{ font: inherit; font-size: 1em; cursor: pointer;
  border: 2px solid #31688e; background: #fff; color: #1d3f57; border-radius: 6px; padding: 0.1em 0.55em; }}
.attn-board-switch button[aria-pressed="true"] {{ background: #31688e; color: #fff; }}
.attn-board-tabs {{ display: flex; flex: none; flex-wrap: nowrap; overflow-x: auto; gap: 8px; padding: 6px;
  margin: calc(0.3em - 6px) -6px calc(0.25em - 6px); }}
.attn-board-tabs button {{ flex: none; white-space: nowrap; line-height: 1.4; font-size: {STANDALONE_TAB_SHARE}em;
  padding: 0.1em 0.4em; }}
.attn-board-tabs sub {{ line-height: 0; }}
.attn-board-tabs button[aria-selected="true"] {{ background: #31688e; color: #fff; }}
.attn-board :focus-visible {{ outline: 4px solid #c05a00; outline-offset: 2px; }}
.attn-board-edition {{ flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; }}
.attn-board-edition[hidden], .attn-board-panel[hidden] {{ display: none; }}
.attn-board-panel {{ flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; }}
.attn-board-panel [data-attn-explorer] {{ flex: 1 1 auto; min-height: 0; }}
.attn-board-panel .attn-explorer-live {{ height: 100%; overflow-y: auto; }}
"""

# tabs (arrow keys, Home, End, as the WAI-ARIA tabs pattern) and the language switch, which keeps the tab
STANDALONE_JS = """(() => {
  const board = document.querySelector('.attn-board');
  const editions = [...board.querySelectorAll('.attn-board-edition')];
  const show = (edition, index, focus) => {
    const tabs = [...edition.querySelectorAll('[role="tab"]')];
    index = (index + tabs.length) % tabs.length;
    tabs.forEach((tab, i) => {
      const on = i === index;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      document.getElementById(tab.getAttribute('aria-controls')).hidden = !on;
    });
    if (focus) tabs[index].focus();
    board.dataset.tab = String(index);
  };
  for (const edition of editions) {
    const tabs = [...edition.querySelectorAll('[role="tab"]')];
    tabs.forEach((tab, i) => {
      tab.addEventListener('click', () => show(edition, i, false));
      tab.addEventListener('keydown', (e) => {
        const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
        if (step) show(edition, i + step, true);
        else if (e.key === 'Home') show(edition, 0, true);
        else if (e.key === 'End') show(edition, tabs.length - 1, true);
        else return;
        e.preventDefault();
      });
    });
    show(edition, 0, false);
  }
  const titles = JSON.parse(board.dataset.titles);
  for (const button of board.querySelectorAll('[data-attn-lang]')) {
    button.addEventListener('click', () => {
      const lang = button.dataset.attnLang, index = Number(board.dataset.tab || 0);
      for (const b of board.querySelectorAll('[data-attn-lang]')) b.setAttribute('aria-pressed', String(b === button));
      for (const edition of editions) edition.hidden = edition.dataset.lang !== lang;
      show(editions.find((e) => e.dataset.lang === lang), index, false);
      document.documentElement.lang = button.dataset.htmlLang;
      document.title = board.querySelector('.attn-board-title').textContent = titles[lang];
    });
  }
})();
"""


def _edition_html(lang: str, hidden: bool) -> str:
    text = Text(lang)
    explorers = build_explorers(lang)
    try:
        tabs, panels = [], []
        for k, station in enumerate(STATIONS):
            tab_id, panel_id = f"attn-tab-{lang}-{station.key}", f"attn-panel-{lang}-{station.key}"
            tabs.append(
                f'<button type="button" role="tab" id="{tab_id}" aria-controls="{panel_id}" '
                f'aria-selected="{str(k == 0).lower()}" tabindex="{0 if k == 0 else -1}">'
                f"{tab_title_html(station, text)}</button>"
            )
            panels.append(
                f'<section class="attn-board-panel" role="tabpanel" id="{panel_id}" aria-labelledby="{tab_id}"'
                f"{'' if k == 0 else ' hidden'}>{question_html(station, text)}"
                f"{explorers[station.key].static_html()}</section>"
            )
    finally:
        for explorer in explorers.values():
            explorer.close()
    label = esc(text("board_title"))
    return (
        f'<div class="attn-board-edition" data-lang="{lang}" lang="{HTML_LANG[lang]}"{" hidden" if hidden else ""}>'
        f'<div class="attn-board-tabs" role="tablist" aria-label="{label}">{"".join(tabs)}</div>'
        f"{''.join(panels)}</div>"
    )


def standalone_html(lang: str | None = None) -> str:
    """The whole board as one HTML page that needs no Python and no network: both languages (a switch on
    top; ``lang`` is the one shown first), every station live through ``attn_viz.explorers.bundle()``,
    inlined as a classic script (so it runs from ``file://``). The page expects ``fonts/`` + FONT_FILE
    beside it (tools/build_board.py copies it): the Chinese is drawn on a PC without a Chinese font too."""
    from .explorers import bundle

    first = check_lang(lang or _lang.get_lang())
    titles = {code: Text(code)("board_title") for _, code in LANGUAGES}
    switch = "".join(
        f'<button type="button" data-attn-lang="{code}" data-html-lang="{HTML_LANG[code]}" lang="{HTML_LANG[code]}" '
        f'aria-pressed="{str(code == first).lower()}">{esc(name)}</button>'
        for name, code in LANGUAGES
    )
    editions = "".join(_edition_html(code, code != first) for _, code in LANGUAGES)
    group = " / ".join(Text(code)("board_language") for _, code in LANGUAGES)
    script = bundle().replace("</script", "<\\/script")
    titles_attr = _html.escape(json.dumps(titles, ensure_ascii=False), quote=True)
    return f"""<!DOCTYPE html>
<html lang="{HTML_LANG[first]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(titles[first])}</title>
<style>{STANDALONE_CSS}{board_css("100%", readouts_below=True)}</style>
</head>
<body>
<main class="{BOARD_CLASS}" data-titles="{titles_attr}">
<div class="attn-board-header"><h1 class="attn-board-title">{esc(titles[first])}</h1>
<div class="attn-board-switch" role="group" aria-label="{esc(group)}">{switch}</div></div>
{editions}
</main>
<script>{STANDALONE_JS}</script>
<script data-attn-bundle="1">
{script}
</script>
</body>
</html>
"""
