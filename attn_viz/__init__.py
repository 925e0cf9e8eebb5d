"""The pictures: fonts (Chinese in matplotlib), plots (matplotlib figures for the lessons), svg (a small
drawing kit), diagrams (the lessons' SVG diagrams; svgfont embeds the glyphs they draw), columns (printed
rows aligned with hanzi), alt_text (what each picture says in words), explorers (interactive widgets) and
board (the classroom board). Built on the math in ``attn_core``; never imports ``attn_homework``.

Each submodule is imported when first used (``from attn_viz import plots``), so importing one picture does
not pay for the others.
"""

import importlib

__all__ = ["alt_text", "board", "columns", "diagrams", "explorers", "fonts", "plots", "svg", "svgfont"]


def __getattr__(name):
    if name in __all__:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
