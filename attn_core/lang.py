"""The language of learner-facing text (trace tables, checker messages, explorer labels).

Chinese is the default; an English notebook calls ``attn_core.set_lang("en")`` once at the top.
"""

import unicodedata

LANGS = ("zh", "en")
_lang = "zh"


def set_lang(lang):
    """Choose the language of learner-facing text: "zh" (default) or "en"."""
    global _lang
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}.")
    _lang = lang


def get_lang():
    return _lang


def tr(zh, en):
    """Pick the text for the current language."""
    return zh if _lang == "zh" else en


def display_width(text):
    """Columns ``text`` takes in a monospace font or terminal (a hanzi takes two), for aligning tables."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
