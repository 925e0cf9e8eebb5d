"""What a grading folder remembers: the settings of the run that wrote it.

Every run with ``--out`` writes ``settings.json`` into the grading folder: the options that decide the marks
and the reports (``REMEMBERED``), the paths made absolute, so that a later run into the same folder (from any
folder) grades and reports the way the first did. A later run takes every remembered setting it is not
given again and says which; an option given on the command line overrides the remembered one and is
remembered from then on. The grade item's name is remembered even when it was the default, whose words
follow the language. Not remembered: what to grade, ``--out``, ``--csv``, ``--jobs`` (the machine's),
``--regrade`` (one run's request) and ``--no-confine`` (a file never switches confinement off).

The file::

    {"attn_grade_settings": 1, "settings": {"roster": "/abs/名单.csv", "release": ["/abs/releases/week1"],
     "deadline": "2026-12-08 23:59", "late": "10", "lms_item": "自注意力练习"}}
"""

import json
import os
from pathlib import Path

from ..messages import msg

FILE_NAME = "settings.json"
VERSION = 1

# The remembered options (argparse's names) and what each holds: a file, a folder, folders, text, texts or a number.
REMEMBERED = {
    "roster": "file",
    "points": "file",
    "release": "folders",
    "teacher_dir": "folders",
    "feedback": "folder",
    "deadline": "text",
    "late": "text",
    "extensions": "file",
    "max_grade": "number",
    "exercises": "texts",
    "lms_item": "text",
    "timeout": "number",
    "memory": "number",
    "lang": "text",
}


class SettingsError(ValueError):
    """A settings file that cannot be read, or a remembered file or folder that is gone (in the current language)."""


def option(name):
    """The command-line option of a remembered setting: "teacher_dir" -> "--teacher-dir"."""
    return "--" + name.replace("_", "-")


def path_of(folder):
    return Path(folder) / FILE_NAME


def read(folder):
    """{setting: value} remembered in a grading folder ({} when it has no settings file)."""
    path = path_of(folder)
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        stored = data["settings"]
        settings = {name: _checked(REMEMBERED[name], value) for name, value in stored.items() if name in REMEMBERED}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise SettingsError(msg("g_settings_unreadable", file=path)) from None
    return {name: value for name, value in settings.items() if value is not None}


def _checked(kind, value):
    """A stored value as the parser would have made it; raises ValueError or TypeError when it is not one."""
    if value is None:
        return None
    if kind in ("file", "folder"):
        return Path(_text(value))
    if kind == "folders":
        return [Path(_text(v)) for v in value]
    if kind == "texts":
        return [_text(v) for v in value]
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(value)
        return value
    return _text(value)


def _text(value):
    if not isinstance(value, str):
        raise TypeError(value)
    return value


def take(args, folder, stored=None):
    """Fill every remembered setting the command line did not give into ``args`` (an argparse Namespace whose
    remembered options default to None) from ``stored`` (default: ``read(folder)``); returns the names taken.
    Raises SettingsError when a remembered file or folder no longer exists."""
    taken = []
    for name, value in (read(folder) if stored is None else stored).items():
        if getattr(args, name, None) is not None:
            continue  # given again: the command line wins
        kind = REMEMBERED[name]
        for path in value if kind == "folders" else [value] if kind == "file" else []:
            gone = not path.is_file() if kind == "file" else not path.is_dir()
            if gone:
                raise SettingsError(msg("g_remembered_gone", option=option(name), path=path, file=path_of(folder)))
        setattr(args, name, value)
        taken.append(name)
    return taken


def described(args, names):
    """The settings ``names`` of ``args`` as options on a command line: ``--late 10, --deadline "…"``."""

    def quoted(value):
        text = f"{value:g}" if isinstance(value, float) else str(value)
        return f'"{text}"' if not text or any(c.isspace() for c in text) else text

    parts = []
    for name in names:
        value = getattr(args, name)
        values = value if isinstance(value, list) else [value]
        parts.append(" ".join([option(name), *map(quoted, values)]))
    return ", ".join(parts)


def write(folder, args, names):
    """Write the settings ``names`` of ``args`` (those with a value) into the grading folder, paths absolute."""
    settings = {}
    for name in names:
        value = getattr(args, name, None)
        if value is None:
            continue
        kind = REMEMBERED[name]
        if kind in ("file", "folder"):
            value = str(Path(value).resolve())
        elif kind == "folders":
            value = [str(Path(v).resolve()) for v in value]
        settings[name] = value
    path = path_of(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    data = {"attn_grade_settings": VERSION, "settings": settings}
    partial.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, path)
    return path
