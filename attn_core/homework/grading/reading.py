"""Reading a submission without running it: the notebook, its exercise, its edition, its ID cell, and the
code cells the worker will run.

The exercise is read from the notebook's metadata, else its file name (``…ex02…``), else its
``check("2.1")`` cells. The edition is the one its handout metadata names, else the language its first
cells pick (``set_lang("en")``), else Chinese. The ID cell is a ``homework.set_student_id("…")`` call with
the number written as a literal string.
"""

import ast
import json
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

import nbformat

from .. import exercises


@dataclass
class Reading:
    """What a submission says before it runs. ``nb`` is None when the file is not a readable notebook
    (``problem`` then says why)."""

    nb: nbformat.NotebookNode | None
    exercise: str | None
    edition: str = "zh"
    id_cell: str | None = None  # the student number written in the ID cell
    has_id_cell: bool = False
    problem: str = ""


def read_notebook(data):
    """A version-4 notebook from bytes; raises ValueError with a short reason."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError:
        raise ValueError("not JSON") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("cells", raw.get("worksheets")), list):
        raise ValueError("JSON but not a notebook")
    try:
        nb = nbformat.reads(text, as_version=4)
        nbformat.validate(nb)
    except Exception as e:
        raise ValueError(f"not a valid notebook ({type(e).__name__})") from None
    return nb


def identify_exercise(nb, file_name):
    """Which exercise a submission is: notebook metadata, then file name, then its check cells."""
    names = exercises.EXERCISES
    if nb is not None:
        meta = nb.get("metadata", {}).get("attn_core", {})
        if isinstance(meta, dict) and meta.get("exercise") in names:
            return meta["exercise"]
    stem = PurePosixPath(file_name).name.lower()
    for name in names:
        if name in stem:
            return name
    for name in names:
        if re.search(rf"(?<![0-9a-z]){name.split('_')[0]}(?![0-9])", stem):
            return name
    if nb is not None:
        found = [
            exercises.TASKS[t].exercise
            for cell in nb.cells
            if cell.cell_type == "code"
            for t in re.findall(r"""check\(\s*["']([0-9.]+)["']""", cell.source)
            if t in exercises.TASKS
        ]
        if found:
            return max(set(found), key=found.count)
    return None


def edition_of(nb):
    meta = nb.metadata.get("attn_core", {})
    if (
        isinstance(meta, dict)
        and isinstance(meta.get("handout"), dict)
        and meta["handout"].get("edition") in ("zh", "en")
    ):
        return meta["handout"]["edition"]
    for cell in nb.cells[:6]:
        match = re.search(r"""set_lang\(\s*["'](zh|en)["']""", cell.source) if cell.cell_type == "code" else None
        if match:
            return match.group(1)
    return "zh"


def id_cell(nb):
    """(has an ID cell, the student number written in it or None)."""
    found, value = False, None
    for cell in nb.cells:
        if cell.cell_type != "code" or "set_student_id" not in cell.source:
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            found = True
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name != "set_student_id":
                continue
            found = True
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, (str, int)):
                text = str(node.args[0].value).strip()
                if text not in ("", "...", "…") and value is None:
                    value = text
    return found, value


def read(submission):
    """The Reading of a Submission (never raises)."""
    try:
        nb = read_notebook(submission.data)
    except ValueError as e:
        return Reading(None, identify_exercise(None, submission.file_name), problem=str(e))
    present, value = id_cell(nb)
    return Reading(nb, identify_exercise(nb, submission.file_name), edition_of(nb), value, present)


def job_cells(nb, names):
    """The code cells to run, numbered from 1 among all cells, each marked when it mentions an answer
    variable (the answers are read after it)."""
    words = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b") if names else None
    return [
        {"number": number, "source": cell.source, "dump": bool(words and words.search(cell.source))}
        for number, cell in enumerate(nb.cells, start=1)
        if cell.cell_type == "code" and cell.source.strip()
    ]
