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
    """What a submission says before it runs. ``nb`` is None when the file cannot be graded: ``status`` is
    then "unreadable" or "too_large", and ``problem`` says why (a code of ``detail_<code>`` in the messages, or
    a size)."""

    nb: nbformat.NotebookNode | None
    exercise: str | None
    edition: str = "zh"
    id_cell: str | None = None  # the student number written in the ID cell
    has_id_cell: bool = False
    problem: str = ""
    status: str = ""


def read_notebook(data):
    """A version-4 notebook from bytes; raises ValueError with the reason as a code (``not_utf8``,
    ``not_json``, ``json_not_notebook``, ``invalid_notebook:<exception>``; ``detail_<code>`` in the messages)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError("not_utf8") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError:
        raise ValueError("not_json") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("cells", raw.get("worksheets")), list):
        raise ValueError("json_not_notebook")
    try:
        nb = nbformat.reads(text, as_version=4)
        nbformat.validate(nb)
    except Exception as e:
        raise ValueError(f"invalid_notebook:{type(e).__name__}") from None
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


def read(submission, edition="zh"):
    """The Reading of a Submission (never raises); ``edition`` is the one assumed when the file cannot be read."""
    exercise = identify_exercise(None, submission.file_name)
    if submission.problem:
        return Reading(None, exercise, edition, problem=submission.detail, status=submission.problem)
    try:
        nb = read_notebook(submission.data)
    except ValueError as e:
        return Reading(None, exercise, edition, problem=str(e), status="unreadable")
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


def saved_outputs(nb):
    """The text of every saved stream and text/plain output of the notebook's code cells, as the student
    last ran them (the predictions recorded before their reveals are read from these)."""
    texts = []
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            stream = output.get("output_type") == "stream"
            text = output.get("text") if stream else output.get("data", {}).get("text/plain")
            if isinstance(text, list):
                text = "".join(text)
            if isinstance(text, str):
                texts.append(text)
    return texts


def binding_cells(nb, names):
    """{name: the numbers of the code cells (numbered from 1 among all cells, as ``job_cells`` numbers them)
    that bind it at the top level}: the cells that should define each answer variable. A cell binds a name
    it assigns, defines or imports outside any function or class; a cell that is not valid Python binds the
    names it assigns at the start of a line (``O = …``, ``def fixed_attention(…``)."""
    found = {name: [] for name in names}
    for number, cell in enumerate(nb.cells, start=1):
        if cell.cell_type != "code" or not cell.source.strip():
            continue
        for name in _bound_names(cell.source, found):
            found[name].append(number)
    return found


def _bound_names(source, names):
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return [
            name
            for name in names
            if re.search(rf"(?m)^[ \t]*(?:def[ \t]+)?{re.escape(name)}\b[ \t]*(?:=(?!=)|:|\()", source)
        ]
    bound, pending = set(), list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
            continue  # what is inside binds names of its own scope
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        pending.extend(ast.iter_child_nodes(node))
    return [name for name in names if name in bound]
