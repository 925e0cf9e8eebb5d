"""Sphinx configuration of the course site (`make site`; tools/build_site.py stages the sources).

The notebooks are rendered from their saved outputs (no execution). An explorer's saved output carries a
``text/html`` fallback: its static SVG inside a ``[data-attn-explorer]`` element with its state as JSON;
tools/build_site.py then inlines ``attn_viz.explorers.bundle()`` into each page that has one, and the
bundle's ``mountAll`` makes it live. Nothing is loaded from another host: no widget manager, no
require.js, MathJax from a local copy (sphinx-mathjax-offline), the Chinese font from _static/fonts.
"""

project = "Self-attention, step by step · 一步一步学自注意力"
author = "attention-notebooks contributors"
language = "zh_CN"  # the search tokenizer for Chinese (jieba when installed, else by character); en pages say lang="en"

extensions = ["myst_nb", "sphinx-mathjax-offline"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "**/.ipynb_checkpoints"]
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header", "myst.xref_missing", "misc.highlighting_failure", "toc.not_included"]

# Saved outputs only; never the widget manager (it comes from a CDN): the text/html fallback is shown.
nb_execution_mode = "off"
nb_ipywidgets_js = {}
nb_mime_priority_overrides = [
    ("html", "application/vnd.jupyter.widget-view+json", None),
    ("html", "application/vnd.jupyter.widget-state+json", None),
]
nb_render_markdown_format = "myst"
nb_merge_streams = True

html_theme = "furo"  # responsive: readable on a phone
html_title = "一步一步学自注意力 · Self-attention, step by step"
html_static_path = ["_static"]
html_css_files = ["attn-site.css"]
html_copy_source = False
html_show_sourcelink = False
html_theme_options = {"top_of_page_buttons": [], "navigation_with_keys": True}
