"""The language of learner-facing text (trace tables, errors, checker messages, explorer labels).

Chinese is the default; an English notebook calls ``attn_core.set_lang("en")`` once at the top.
Each layer keeps its messages in one ``Catalog`` (zh and en side by side): ``attn_core.messages`` for
the math, ``attn_viz.messages`` for the pictures, ``attn_homework.messages`` for the homework.
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


def tr(zh, en, lang=None):
    """Pick the text for ``lang`` (default: the current language)."""
    return zh if (lang or _lang) == "zh" else en


class Catalog:
    """One layer's learner-facing messages: key -> (zh, en) ``str.format`` templates, side by side.

    ``msg("key", shape=...)`` fills in the template of the current language; ``msg.text("key", "en", ...)``
    of a given one (an explorer keeps the language it was built in)."""

    def __init__(self, messages):
        self.messages = dict(messages)

    def __call__(self, key, **fields):
        return self.text(key, None, **fields)

    def text(self, key, lang, **fields):
        return tr(*self.messages[key], lang=lang).format(**fields)

    def __contains__(self, key):
        return key in self.messages


def display_width(text):
    """Columns ``text`` takes in a monospace font or terminal (a hanzi takes two), for aligning tables."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
