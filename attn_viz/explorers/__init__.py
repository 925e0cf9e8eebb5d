"""Interactive explorers for the lessons: one line in a notebook, answers at once.

    from attn_viz.explorers import dk_explorer
    dk_explorer()

Each function returns an :class:`Explorer` (an ``ipywidgets.VBox``): controls on top, the picture, the
numbers as text, and a red line if a setting cannot be computed. A control change recomputes the numbers
with ``attn_core`` and replaces the SVG held by one ``widgets.HTML``; the browser draws it (no matplotlib,
no ``interact``/``Output`` re-plotting, so nothing flickers and nbval sees no stray outputs).

Without a kernel (GitHub, a static HTML export) the saved output still shows a picture: the display
bundle carries ``text/html`` with the SVG of the state at display time, which right after building is
the default setting. JupyterLab ranks the widget view above ``text/html``, so a live kernel shows the
widget.

Common interface: ``.controls`` (name -> widget), ``.set(**values)``, ``.update()``, ``.readouts``
(name -> float), ``.labels`` (name -> str, token-valued readouts), ``.svg``, ``.state`` (the arrays
behind the picture, e.g. ``state["A"]``), ``.error`` (None or the message shown) and ``.close()``.

One module per explorer, each reading top-down: what it teaches (docstring), its layout (named pixel
constants), the public function (checks the arguments, fixes the data, builds the controls), ``compute``
(the numbers, from attn_core) and ``render`` (the picture). ``base`` holds the :class:`Explorer` widget
and what the explorers share; every word lives in ``attn_viz.messages``.

Adding an explorer: copy the shape of ``keys.py`` into a new module; its function starts with
``text = Text()`` (the language is frozen there), builds the controls and returns
``Explorer(name, controls, partial(compute, ...), partial(render, ...), text=text, title=...)``, where
``compute(values, **fixed) -> dict`` and ``render(explorer, state, **fixed) -> Frame`` draws on
``explorer.picture(heading, width, height)``. Put its words in the catalog, import it here, and add it
to ``FACTORIES`` in tests/test_explorers.py.
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
