"""Interactive explorers for the lessons: one line in a notebook, answers at once.

    from attn_viz.explorers import dk_explorer
    dk_explorer()

The live design (issue #30): each function returns an :class:`Explorer`, one ``anywidget.AnyWidget``
whose front end (plain ES modules in ``js/``, assembled by :mod:`.esm`; no build step, no CDN) draws
the controls beside the picture and does the arithmetic in the page on every input: no kernel round
trip. Python passes the example's matrices, the tokens (with glosses in the English edition, 我 “I”),
the explorer's words and the control specs as synced traitlets; the learner's values come back in
``choices``, and Python recomputes them with ``attn_core`` (the reference) and svg.py (the static
picture). A test (tests/test_explorers_js.py) requires the page to draw the very SVG svg.py draws.

Without JavaScript (GitHub, nbviewer) the saved output shows the static picture: the display bundle's
``text/html`` is an element ``[data-attn-explorer]`` holding that picture and the page state as JSON; a
static page that loads :func:`bundle` (``mountAll``) makes it live again, with no kernel and no widget
manager.

Common interface: ``.controls`` (name -> :class:`~.base.Control`: ``kind``, ``label``, ``options`` or
``min``/``max``/``step``, and a settable ``value``), ``.set(**values)``, ``.values``, ``.update()``,
``.readouts`` (name -> float), ``.labels`` (name -> str), ``.svg``, ``.state`` (the arrays behind the
picture, e.g. ``state["A"]``), ``.error`` (None or the message), ``.alt_text()`` and ``.close()``.

One Python module per explorer, each reading top-down: what it teaches (docstring), its layout (named
pixel constants, the same in its JS twin), the public function (checks the arguments, fixes the data,
builds the control specs), ``compute`` (the numbers, from attn_core) and ``render`` (the static
picture); ``js/<kind>.js`` mirrors compute and render line by line. ``js/README.md`` says how to add
one. Explorers not yet converted use :class:`WidgetExplorer` (the old ipywidgets VBox, redrawn by the
kernel).
"""

from .base import KEY_MULT, Explorer, WidgetExplorer
from .dk import DK_OPTIONS, dk_explorer
from .esm import bundle
from .heads import HEAD_W_SCALE, head_explorer
from .keys import key_explorer
from .kv import kv_cache_explorer
from .masks import mask_explorer
from .pipeline import PIPELINE_DK, pipeline_explorer
from .positions import position_explorer

__all__ = [
    "Explorer",
    "WidgetExplorer",
    "bundle",
    "dk_explorer",
    "key_explorer",
    "pipeline_explorer",
    "mask_explorer",
    "head_explorer",
    "position_explorer",
    "kv_cache_explorer",
    "DK_OPTIONS",
    "PIPELINE_DK",
    "KEY_MULT",
    "HEAD_W_SCALE",
]
