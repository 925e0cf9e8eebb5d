"""Give the teacher notebooks nbgrader's cell metadata, read from their content, so that a teacher who uses
nbgrader can put them in its ``source/`` folder and ``nbgrader generate_assignment`` makes a student version
equivalent to ``attn-student``'s.

    python tools/nbgrader_metadata.py            # set it on every teacher notebook of both editions
    python tools/nbgrader_metadata.py --check    # exit 1 (naming the notebooks) if any is not up to date
    python tools/nbgrader_metadata.py --course DIR [--edition zh|en]
                                                 # also lay out an nbgrader course in DIR: source/<exercise>/
                                                 # and an nbgrader_config.py with the settings below

It is idempotent (a notebook whose metadata is already right is not rewritten) and touches nothing but
``metadata.nbgrader`` of the cells, so the committed outputs stay as they are; run it after adding or
changing a teacher notebook (``tests/test_nbgrader.py`` fails until you do). The rules, cell by cell:

- an answer cell (a ``### BEGIN SOLUTION`` region): a solution cell, ``grade_id`` ``answer_<task>``;
- a ``check("N.k")`` cell: a graded test cell, ``grade_id`` ``check_<task>``, worth the task's points in the
  registry (``Task.points``), read-only;
- a cell tagged ``teacher-only``: none (the configuration below removes it, as ``attn-student`` does);
- every other cell (instructions, data, imports, the progress cell): read-only, ``grade_id``
  ``readonly_<cell id>``.

``check()`` prints ✅/❌ and never raises, except under nbgrader's autograder and validator
(``NBGRADER_EXECUTION`` set), where a wrong answer raises ``AssertionError`` so that nbgrader awards the
cell's points only for a right one. The student versions made by ``attn-student`` carry no nbgrader
metadata (``make_student`` drops it).
"""

import argparse
import json
import re
import sys
from pathlib import Path

import nbformat

from attn_homework import exercises
from attn_homework.student import TEACHER_FOLDER, TEACHER_ONLY, edition_dirs, has_solution

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_VERSION = 3
_CHECK = re.compile(r"""^\s*check\(\s*["']([^"']+)["']\s*\)\s*$""")
_ASSIGNS = re.compile(r"^(\w+)\s*=\s*\.\.\.", re.M)

NBGRADER_CONFIG = '''"""nbgrader settings for the attn_core teacher notebooks (by tools/nbgrader_metadata.py)."""
from nbconvert.preprocessors import TagRemovePreprocessor
from nbgrader.converters import GenerateAssignment

c = get_config()  # noqa: F821 (nbgrader's config loader defines it)
# The placeholder line above each solution region (QKT = ...  # ← ...) is the student's starting point:
# the region itself is replaced by nothing, as attn-student does.
c.ClearSolutions.code_stub = {"python": ""}
# Teacher notes (cells tagged teacher-only) stay out of the student version.
c.TagRemovePreprocessor.remove_cell_tags = ["teacher-only"]
c.TagRemovePreprocessor.enabled = True
defaults = GenerateAssignment.class_traits()["preprocessors"].default()
c.GenerateAssignment.preprocessors = [TagRemovePreprocessor, *defaults]
'''


def _slug(text):
    return re.sub(r"[^A-Za-z0-9_-]+", "_", str(text)).strip("_")


def cell_metadata(cell, var_to_task):
    """The ``nbgrader`` metadata a teacher notebook's cell gets, or None (teacher-only cells)."""
    if TEACHER_ONLY in cell.get("metadata", {}).get("tags", []):
        return None
    base = {"grade": False, "locked": True, "schema_version": SCHEMA_VERSION, "solution": False, "task": False}
    if cell.cell_type == "code" and has_solution(cell.source):
        tasks = [var_to_task[v] for v in _ASSIGNS.findall(cell.source) if v in var_to_task]
        name = tasks[0].id if tasks else cell.get("id", "")
        return {**base, "grade_id": f"answer_{_slug(name)}", "locked": False, "solution": True}
    match = _CHECK.match(cell.source) if cell.cell_type == "code" else None
    if match and match.group(1) in exercises.TASKS:
        task = exercises.TASKS[match.group(1)]
        return {**base, "grade": True, "grade_id": f"check_{_slug(task.id)}", "points": float(task.points)}
    return {**base, "grade_id": f"readonly_{_slug(cell.get('id', ''))}"}


def annotate(nb, exercise):
    """Set every cell's nbgrader metadata from its content; returns whether anything changed."""
    var_to_task = {t.var: t for t in exercises.tasks(exercise)} if exercise in exercises.EXERCISES else {}
    changed = False
    for cell in nb.cells:
        wanted = cell_metadata(cell, var_to_task)
        current = cell.metadata.get("nbgrader")
        if wanted is None and current is not None:
            del cell.metadata["nbgrader"]
            changed = True
        elif wanted is not None and current != wanted:
            cell.metadata["nbgrader"] = wanted
            changed = True
    return changed


def teacher_notebooks(notebooks):
    return sorted(p for d in edition_dirs(notebooks).values() for p in (d / TEACHER_FOLDER).glob("ex*.ipynb"))


def make_course(course, notebooks, edition):
    """An nbgrader course folder: ``source/<exercise>/<exercise>.ipynb`` for each teacher notebook of the
    edition, and ``nbgrader_config.py``."""
    course = Path(course)
    for path in sorted((edition_dirs(notebooks)[edition] / TEACHER_FOLDER).glob("ex*.ipynb")):
        target = course / "source" / path.stem / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        nb = nbformat.read(path, as_version=4)
        annotate(nb, path.stem)
        nbformat.write(nb, target)
    (course / "nbgrader_config.py").write_text(NBGRADER_CONFIG, encoding="utf-8")
    return course


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notebooks", type=Path, default=ROOT / "notebooks")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a notebook is out of date")
    parser.add_argument("--course", type=Path, help="also lay out an nbgrader course folder here")
    parser.add_argument("--edition", choices=("zh", "en"), default="zh", help="the edition for --course")
    args = parser.parse_args(argv)
    stale = []
    for path in teacher_notebooks(args.notebooks):
        nb = nbformat.read(path, as_version=4)
        if annotate(nb, path.stem):
            stale.append(path)
            if not args.check:
                nbformat.write(nb, path)
    if args.check:
        for path in stale:
            print(f"{path}: nbgrader metadata out of date: run python tools/nbgrader_metadata.py", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        print(f"{path}: nbgrader metadata set")
    if args.course:
        print(f"nbgrader course: {make_course(args.course, args.notebooks, args.edition)}")
    print(json.dumps({"notebooks": len(teacher_notebooks(args.notebooks)), "updated": len(stale)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
