"""Derive the student exercise notebooks from the teacher versions.

The teacher notebook is the one source: its answer cells hold the solution between
``### BEGIN SOLUTION`` and ``### END SOLUTION`` lines (nbgrader's markers). The student version
drops each marked region; the placeholder line kept just above it (``QKT = ...  # …``) then
stands as the learner's starting point, so the check cell says "not attempted" instead of raising.
Cells tagged ``teacher-only`` (notes for the teacher) are dropped too, an exercise's closing summary
("## 小结" / "## Summary", which states answers) keeps only its heading, a note and its links, and
relative links in markdown are rebased from ``teacher/`` to the folder above it, where the student
versions live. The result is executed from a fresh kernel, so it is committed with its outputs (every check says ⏳).

    attn-student                                   # regenerate every student notebook of ./notebooks (both editions)
    attn-student --notebooks DIR                   # ... of another notebooks folder
    attn-student TEACHER.ipynb ... --out DIR [--no-execute]

(``python -m attn_homework.student`` is the same command.) The package never looks for the
repository: the notebooks folder is an argument, ``./notebooks`` when none is given.
"""

import argparse
import copy
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat

from .messages import msg

BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
TEACHER_ONLY = "teacher-only"
# The heading of an exercise's closing summary, by edition. The summary states what the tasks ask for (the
# shape of O, the gradients' formulas, where a prediction lands), so the student version keeps only its
# heading, a note and its links (the next exercise): it is read in the teacher version and in the lesson.
SUMMARY_HEADINGS = {"## 小结": "zh", "## Summary": "en"}
# the heading the student version gives that cell instead (it holds a pointer, not a summary)
HELD_BACK_HEADINGS = {"zh": "## 做完之后", "en": "## When you are done"}
# the exercise's own lesson, as its first cell links it ("这是[第 4 课](../04_softmax.ipynb)的课后练习")
_LESSON_LINK = re.compile(r"\[(第 \d+ 课|Lesson \d+)\]\(([^)\s]+)\)")

TEACHER_FOLDER = "teacher"
# Inside a notebooks folder, each edition keeps its student exercises here and the teacher versions in
# the teacher/ folder inside.
EDITION_EXERCISES = {"zh": Path("exercises"), "en": Path("en", "exercises")}


def edition_dirs(notebooks="notebooks"):
    """{edition: its exercises folder} under ``notebooks`` (default: ``./notebooks``)."""
    return {lang: Path(notebooks) / folder for lang, folder in EDITION_EXERCISES.items()}


class MarkerError(ValueError):
    """A solution region is not closed, not opened, nested, or outside a code cell."""


def strip_solutions(source, where="cell"):
    """``source`` without its solution regions (marker lines included). Raises MarkerError on bad markers."""
    out, inside = [], False
    for number, text in enumerate(source.splitlines(keepends=True), start=1):
        marker = text.strip()
        if marker == BEGIN:
            if inside:
                raise MarkerError(f"{where}, line {number}: '{BEGIN}' inside a solution region (nested regions).")
            inside = True
        elif marker == END:
            if not inside:
                raise MarkerError(f"{where}, line {number}: '{END}' without a '{BEGIN}' before it.")
            inside = False
        elif not inside:
            out.append(text)
    if inside:
        raise MarkerError(f"{where}: '{BEGIN}' is never closed by '{END}'.")
    return "".join(out).rstrip("\n")


def has_solution(source):
    return any(line.strip() == BEGIN for line in source.splitlines())


_LINK = re.compile(r"(\]\()([^)\s#]+)")


def rebase_links(text, src_dir, out_dir):
    """Markdown ``text`` written in ``src_dir`` with its relative links made to work from ``out_dir``."""

    def fix(match):
        link = match.group(2)
        if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", link) or link.startswith("/"):
            return match.group(0)  # a URL or an absolute path
        target = os.path.relpath(Path(src_dir, link).resolve(), Path(out_dir).resolve())
        return match.group(1) + Path(target).as_posix()

    return _LINK.sub(fix, text)


class UnknownTaskError(ValueError):
    """A teacher notebook calls ``check("…")`` or ``homework.data("…")`` for a task the registry does not have."""


_TASK_CALL = re.compile(r"""\b(check|data|task)\(\s*["']([^"']+)["']""")


def check_task_ids(nb, where):
    """Raise UnknownTaskError naming the first cell that checks or fetches a task the registry lacks."""
    from .exercises import TASKS

    for index, cell in enumerate(nb.cells, start=1):
        if cell.cell_type != "code":
            continue
        for call, task_id in _TASK_CALL.findall(cell.source):
            if task_id not in TASKS:
                raise UnknownTaskError(
                    f"{where}: "
                    + msg(
                        "unknown_task_in_notebook",
                        cell=index,
                        call=f'{call}("{task_id}")',
                        task_id=task_id,
                        ids=", ".join(TASKS),
                    )
                )


def _summary_lang(cell):
    """The edition of an exercise's summary cell ("## 小结" / "## Summary" as its first line), or None."""
    if cell.cell_type != "markdown" or not cell.source.strip():
        return None
    return SUMMARY_HEADINGS.get(cell.source.strip().splitlines()[0].strip())


def hold_back_summary(source, lang, predictions=False, lesson=None):
    """A summary cell's ``source`` as the student version has it: a heading of its own ("## 做完之后"), a
    note that sends the student to the lesson's summary (``lesson``: its link as the exercise's first cell
    writes it, "[第 4 课](../04_softmax.ipynb)") and says why this one is left out (naming the predict tasks
    when the exercise has any), and the lines that are only links (the next exercise). Nothing of the
    summary's own text."""
    lines = source.strip().splitlines()
    links = [line for line in lines[1:] if re.fullmatch(r"\s*(\[[^\]]*\]\([^)]*\)\s*)+", line)]
    note = "student_summary_held_back_predict" if predictions else "student_summary_held_back"
    where = lesson or msg.text("student_summary_the_lesson", lang)
    return "\n\n".join([HELD_BACK_HEADINGS[lang], msg.text(note, lang, lesson=where), *links])


def lesson_link(nb):
    """The link to the exercise's own lesson as its first markdown cell writes it ("[第 4 课](../04_softmax.ipynb)"),
    or None."""
    first = next((c.source for c in nb.cells if c.cell_type == "markdown"), "")
    found = _LESSON_LINK.search(first)
    return found.group(0) if found else None


def has_predictions(nb):
    """Whether a notebook checks a predict task (``answer_kind="number"``) of the registry."""
    from .exercises import TASKS

    ids = {task_id for cell in nb.cells if cell.cell_type == "code" for _, task_id in _TASK_CALL.findall(cell.source)}
    return any(TASKS[i].answer_kind == "number" for i in ids if i in TASKS)


def make_student(teacher_nb, src_dir=None, out_dir=None):
    """The student notebook (a new NotebookNode, outputs cleared) derived from a teacher notebook;
    with ``src_dir`` and ``out_dir``, relative markdown links are rebased from one to the other. The cells'
    nbgrader metadata (for teachers who use nbgrader, see tools/nbgrader_metadata.py) stays in the teacher
    version."""
    nb = copy.deepcopy(teacher_nb)
    predictions = has_predictions(nb)
    lesson = lesson_link(nb)
    cells = []
    for index, cell in enumerate(nb.cells, start=1):
        if TEACHER_ONLY in cell.get("metadata", {}).get("tags", []):
            continue
        cell.get("metadata", {}).pop("nbgrader", None)
        if cell.cell_type == "code":
            cell.source = strip_solutions(cell.source, where=f"cell {index}")
            cell.outputs = []
            cell.execution_count = None
            cell.metadata.pop("execution", None)
        elif has_solution(cell.source) or END in cell.source:
            raise MarkerError(
                f"cell {index} is a {cell.cell_type} cell with solution markers; only code cells may hold solutions."
            )
        elif cell.cell_type == "markdown":
            if _summary_lang(cell) is not None:
                cell.source = hold_back_summary(cell.source, _summary_lang(cell), predictions, lesson)
            if src_dir is not None and out_dir is not None:
                cell.source = rebase_links(cell.source, src_dir, out_dir)
        cells.append(cell)
    nb.cells = cells
    return nb


def execute(nb, cwd, timeout=120):
    """Run ``nb`` top to bottom in a fresh kernel (errors abort), in place, and return it, as notebooks are
    committed: no widget state, no timing metadata, and each cell's consecutive prints as one stream output
    (how the kernel happens to flush them must not change the saved file). Only neighbouring prints are
    merged: nbclient's own ``coalesce_streams`` would also join prints on either side of a figure, moving
    the later text above it."""
    from nbclient import NotebookClient

    NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        record_timing=False,
        store_widget_state=False,
        resources={"metadata": {"path": str(cwd)}},
    ).execute(stderr=subprocess.DEVNULL)
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        merged = []
        for out in cell.get("outputs", []):
            if (
                merged
                and out.output_type == "stream"
                and merged[-1].output_type == "stream"
                and merged[-1].name == out.name
            ):
                merged[-1].text += out.text
            else:
                merged.append(out)
        if "outputs" in cell:
            cell.outputs = merged
    return nb


def convert(teacher_path, out_dir, run=True):
    """Write the student version of ``teacher_path`` into ``out_dir`` (same file name); return its path."""
    teacher_path, out_dir = Path(teacher_path), Path(out_dir)
    teacher_dir = teacher_path.parent
    # Links are written for teacher/ and rebased for the folder above it, where the student versions
    # live (the same text whatever --out is, so a handed-out copy equals the committed one).
    student_dir = teacher_dir.parent if teacher_dir.name == TEACHER_FOLDER else None
    teacher = nbformat.read(teacher_path, as_version=4)
    check_task_ids(teacher, teacher_path)
    nb = make_student(teacher, teacher_dir, student_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    if run:
        execute(nb, out_dir)
    target = out_dir / teacher_path.name
    nbformat.write(nb, target)
    return target


def teacher_notebooks(folder):
    return sorted(Path(folder).glob("ex*.ipynb"))


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="attn-student",
        description="Make student exercise notebooks from teacher versions: each region between "
        f"'{BEGIN}' and '{END}' is removed (the placeholder line above it stays), "
        f"'{TEACHER_ONLY}' cells are dropped, and the result is executed.",
    )
    parser.add_argument(
        "teacher",
        nargs="*",
        type=Path,
        help="teacher notebooks (default: every ex*.ipynb in each edition's exercises/teacher/ under --notebooks)",
    )
    parser.add_argument(
        "--notebooks",
        type=Path,
        default=Path("notebooks"),
        help="the notebooks folder whose teacher versions to convert when none are named (default: ./notebooks)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="output folder (default: the folder above each notebook's teacher/ folder)",
    )
    parser.add_argument("--no-execute", action="store_true", help="write the notebooks without running them")
    args = parser.parse_args(argv)

    folders = [folder / TEACHER_FOLDER for folder in edition_dirs(args.notebooks).values()]
    paths = args.teacher or [p for folder in folders for p in teacher_notebooks(folder)]
    if not paths:
        parser.error(
            f"no teacher notebooks given and none found in {' or '.join(map(str, folders))} "
            f"(run this in the repository's folder, or give --notebooks)"
        )
    for path in paths:
        if not path.is_file():
            parser.error(f"{path}: no such file")
        if args.out is None and path.resolve().parent.name != TEACHER_FOLDER:
            parser.error(f"{path}: not in a teacher/ folder, so there is no default output folder; give --out")
        if args.out is not None and path.resolve().parent == args.out.resolve():
            parser.error(f"{path}: the output folder is the teacher notebook's own folder; choose another --out")
    failed = 0
    for path in paths:
        try:
            target = convert(path, args.out or path.resolve().parent.parent, run=not args.no_execute)
        except Exception as e:  # report and go on with the next notebook
            failed += 1
            print(f"{path}: FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        else:
            print(f"{path} -> {target}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
