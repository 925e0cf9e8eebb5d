"""``attn-release``: what the students get, as a folder and a zip, never with an answer key.

    attn-release --edition zh [--per-student] [--exercises ex01 ex06 …] [--name NAME] [--out releases]

writes ``releases/NAME/`` with:

- ``self-attention-EDITION/``: the lessons and the student exercise notebooks of one edition (in
  ``notebooks/``), the ``attn_core``, ``attn_viz`` and ``attn_homework`` packages with ``pyproject.toml``
  and ``requirements.txt`` (so ``pip install -r requirements.txt`` sets everything up),
  the edition's ``jupyterlab-settings/EDITION``
  (JupyterLab's menus in the edition's language) and a README saying how, for Windows and macOS/Linux; no
  teacher folder and no solution (the command checks both before it writes the zip);
- ``self-attention-EDITION.zip``: the same folder, zipped;
- ``release.json``: for the teacher, not for the students: each handed-out notebook's fingerprint and
  cells. Grade with ``attn-grade … --release releases/NAME``: a submission is then compared with the exact
  version it was made from, and a per-student assignment is known as such even if its ID cell was deleted.

The folder holds only what a student can use with it alone. The classroom board (``demo.ipynb``) stays
with the teacher, who projects it (each of its explorers is in its lesson), and so does the package that
serves it (voila); the requirements' comments are the student's; a note that names a ``make`` command is
left out; a link to a notebook that is not handed out (``--exercises``) becomes its plain text.

Each exercise notebook carries the same record in its metadata (``metadata.attn_core.handout``), computed on
the cells exactly as handed out (after those changes), so that the grader compares a submission with them.
``--per-student`` adds an ID cell after the first code cell (``homework.set_student_id("...")``): every
task's fresh data is then drawn from the student's number, the same on every machine, and the grader
rebuilds each student's own data. The four-word example stays the course's.
"""

import argparse
import json
import os
import re
import shutil
import sys
import zipfile
from datetime import datetime
from functools import partial
from pathlib import Path

import nbformat

import attn_core
import attn_homework
import attn_viz
from attn_core.lang import set_lang

from . import exercises
from .grading.cli import system_language
from .grading.handout import handout_cells, record
from .messages import msg
from .student import BEGIN, TEACHER_FOLDER, edition_dirs, has_solution, make_student

ID_CELL_ID = "student-id"
_ID_CELL = {
    "zh": "# 学号：本练习的新数据按你的学号生成（和同学的不一样）\n"
    'homework.set_student_id("...")  # ← 把 ... 换成你的学号',
    "en": "# Student number: this exercise's fresh data are drawn from it (different from your classmates')\n"
    'homework.set_student_id("...")  # ← replace ... with your student number',
}
PACKAGES = (attn_core, attn_viz, attn_homework)
PACKAGE_FILES = ("pyproject.toml", "LICENSE")
SETTINGS_FOLDER = "jupyterlab-settings"  # <lang>/overrides.json: JupyterLab's language for this launch
TEACHER_ONLY_NOTEBOOKS = ("demo.ipynb",)  # the classroom board: the teacher projects it
TEACHER_ONLY_REQUIREMENTS = ("voila",)  # serves the board
# What a requirement is for, in the student's words (the repository's comments speak of make targets).
REQUIREMENT_NOTES = {
    "anywidget": "rel_req_anywidget",
    "jupyterlab-language-pack-zh-cn": "rel_req_language_pack",
    "-e .[all]": "rel_req_attn_core",
}
_LINK = re.compile(r"(!?)\[([^\[\]]*)\]\(([^()\s#]*)(#[^()\s]*)?\)")
_MAKE_NOTE = re.compile(r"\s?[（(]`?make [a-z-]+`?[）)]")  # "（make lab）": a repository-only aside


class ReleaseError(RuntimeError):
    """A release that must not be written (it would hand out an answer), or cannot be."""


def _relink(text, *, source_dir, out_dir, edition_root, project, out_root, handed_out):
    """Markdown links rewritten for the release tree: a notebook of the edition keeps its place under
    ``notebooks/``, the project's README becomes the release's README; a link to anything not handed out
    (``handed_out``: the release's files) becomes its plain text."""

    def fix(match):
        bang, label, link, anchor = match.groups()
        if not link or re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", link) or link.startswith("/"):
            return match.group(0)
        target = Path(os.path.normpath(source_dir / link))
        new = None
        if target == edition_root or edition_root in target.parents:
            new = out_root / "notebooks" / target.relative_to(edition_root)
        elif target == project / "README.md":
            new = out_root / "README.md"
        if new is None or not any(new == path or new in path.parents for path in handed_out):
            label = Path(label).stem if label.endswith(".ipynb") else label  # a path as text: just its name
            return label.removesuffix(" →").removesuffix("→")  # plain text: no arrow promising a link
        relative = Path(os.path.relpath(new, out_dir)).as_posix() + ("/" if link.endswith("/") else "")
        return f"{bang}[{label}]({relative}{anchor or ''})"

    return _LINK.sub(fix, text)


def _for_students(cell, relink):
    """A cell's text as handed out: its links rewritten (``relink``: markdown → markdown), an aside naming a
    ``make`` command left out."""
    cell.source = _MAKE_NOTE.sub("", cell.source)
    if cell.cell_type == "markdown":
        cell.source = relink(cell.source)


def student_requirements(text, edition):
    """The repository's requirements.txt for the students: the board's server left out, comments in the
    edition's language that name no repository command (UTF-8 declared for pip on any locale)."""
    lines = ["# -*- coding: utf-8 -*-", msg.text("rel_req_header", edition)]
    for line in text.splitlines():
        requirement = line.split("#", 1)[0].strip()
        package = re.split(r"[\s<>=!~\[;]", requirement, maxsplit=1)[0].lower()
        if not requirement or package in TEACHER_ONLY_REQUIREMENTS:
            continue
        note = REQUIREMENT_NOTES.get(requirement if requirement.startswith("-") else package)
        lines.append(f"{requirement:<40}# {msg.text(note, edition)}" if note else requirement)
    return "\n".join(lines) + "\n"


def _title(path):
    """A notebook's first heading (its title), or its name."""
    for cell in nbformat.read(path, as_version=4).cells:
        for line in cell.source.splitlines() if cell.cell_type == "markdown" else ():
            if line.startswith("# "):
                return line[2:].strip()
    return path.stem


def _contents(folder, notebooks):
    """The README's list of what was handed out, each a link."""
    return "\n".join(f"- [{_title(path)}]({path.relative_to(folder).as_posix()})" for path in notebooks)


def _lessons(edition_root):
    return sorted(p for p in edition_root.glob("*.ipynb") if p.is_file() and p.name not in TEACHER_ONLY_NOTEBOOKS)


def _add_id_cell(nb, edition):
    """The ID cell, after the first code cell (the one that imports ``homework``)."""
    first = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), -1)
    cell = nbformat.v4.new_code_cell(_ID_CELL[edition])
    cell["id"] = ID_CELL_ID
    nb.cells.insert(first + 1, cell)


def build(notebooks, project, out, name, edition, names, per_student):
    """Write the release; returns (student folder, zip, manifest path)."""
    notebooks, project, out = Path(notebooks).resolve(), Path(project).resolve(), Path(out)
    exercises_dir = edition_dirs(notebooks)[edition]
    edition_root = exercises_dir.parent
    teacher_dir = exercises_dir / TEACHER_FOLDER
    release_dir = out / name
    folder = release_dir / f"self-attention-{edition}"
    settings = project / SETTINGS_FOLDER / edition
    if not (project / "pyproject.toml").is_file() or not (project / "requirements.txt").is_file():
        raise ReleaseError(f"{project}: pyproject.toml and requirements.txt are needed (give --project)")
    if not (settings / "overrides.json").is_file():
        raise ReleaseError(f"{settings}: overrides.json is needed (JupyterLab's language; give --project)")
    lessons = _lessons(edition_root)
    handed_lessons = [folder / "notebooks" / lesson.name for lesson in lessons]
    handed_exercises = [folder / "notebooks" / "exercises" / f"{exercise}.ipynb" for exercise in names]
    handed_out = [folder / "README.md", *handed_lessons, *handed_exercises]
    relink = partial(_relink, edition_root=edition_root, project=project, out_root=folder, handed_out=handed_out)
    folder.mkdir(parents=True)
    for lesson, target in zip(lessons, handed_lessons):
        nb = nbformat.read(lesson, as_version=4)
        links = partial(relink, source_dir=lesson.parent, out_dir=target.parent)
        for cell in nb.cells:
            _for_students(cell, links)
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target)
    manifest = {
        "name": name,
        "created": datetime.now().isoformat(timespec="seconds"),
        "edition": edition,
        "per_student": per_student,
        "attn_core": attn_core.__version__,
        "notebooks": [],
    }
    for exercise, target in zip(names, handed_exercises):
        teacher = nbformat.read(teacher_dir / f"{exercise}.ipynb", as_version=4)
        editable = {str(c.get("id", "")) for c in teacher.cells if c.cell_type == "code" and has_solution(c.source)}
        nb = make_student(teacher, teacher_dir, exercises_dir)
        committed = exercises_dir / f"{exercise}.ipynb"
        if not per_student and committed.is_file():  # the committed student version carries its outputs (⏳)
            executed = nbformat.read(committed, as_version=4)
            if [(c.cell_type, c.source) for c in executed.cells] == [(c.cell_type, c.source) for c in nb.cells]:
                nb = executed
        links = partial(relink, source_dir=exercises_dir, out_dir=target.parent)
        for cell in nb.cells:
            cell.metadata.pop("nbgrader", None)
            _for_students(cell, links)
            if cell.cell_type == "code" and per_student:
                cell.outputs, cell.execution_count = [], None
        if per_student:
            _add_id_cell(nb, edition)
            editable.add(ID_CELL_ID)
        # the fingerprint of the cells as handed out: the grader compares a submission with exactly these
        handout = record(handout_cells(nb, editable), name, edition, per_student)
        nb.metadata.setdefault("attn_core", {})["handout"] = handout
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target)
        manifest["notebooks"].append(
            {"exercise": exercise, "path": target.relative_to(folder).as_posix(), "handout": handout}
        )
    for package in PACKAGES:  # the math, the pictures and the homework (the check cells import all three)
        source = Path(package.__file__).parent
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
        shutil.copytree(source, folder / source.name, ignore=ignore)
    for file_name in PACKAGE_FILES:
        if (project / file_name).is_file():
            shutil.copy2(project / file_name, folder / file_name)
    requirements = (project / "requirements.txt").read_text(encoding="utf-8")
    (folder / "requirements.txt").write_text(student_requirements(requirements, edition), encoding="utf-8")
    shutil.copytree(settings, folder / SETTINGS_FOLDER / edition)
    per_student_text = msg.text("rel_readme_per_student", edition) if per_student else ""
    readme = msg.text(
        "rel_readme",
        edition,
        per_student=per_student_text,
        contents=_contents(folder, handed_lessons + handed_exercises),
    )
    (folder / "README.md").write_text(readme, encoding="utf-8")
    check_no_answers(folder)
    archive = release_dir / f"{folder.name}.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                z.write(path, path.relative_to(release_dir).as_posix())
    manifest_path = release_dir / "release.json"
    manifest_path.write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    return folder, archive, manifest_path


def check_no_answers(folder):
    """Refuse a release holding a teacher folder or a solution region (ReleaseError naming the file)."""
    for path in Path(folder).rglob("*"):
        if TEACHER_FOLDER in path.relative_to(folder).parts:
            raise ReleaseError(f"{path}: a teacher folder must never be handed out")
        if path.suffix == ".ipynb":
            nb = nbformat.read(path, as_version=4)
            if any(has_solution(c.source) for c in nb.cells) or BEGIN in json.dumps(nb):
                raise ReleaseError(f"{path}: holds a solution region")


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="attn-release",
        description="Write what students get (lessons, student exercises, the package), as a folder and a zip, "
        "with a release.json to grade against; never a teacher folder.",
    )
    parser.add_argument("--edition", choices=("zh", "en"), default="zh", help="the edition handed out (default zh)")
    parser.add_argument("--exercises", nargs="*", help="exercises to hand out (default: all), e.g. ex01 ex06")
    parser.add_argument("--per-student", action="store_true", help="each student's fresh data drawn from their number")
    parser.add_argument("--name", help="the release's name (default: EDITION-DATE)")
    parser.add_argument("--out", type=Path, default=Path("releases"), help="where releases go (default ./releases)")
    parser.add_argument(
        "--notebooks", type=Path, default=Path("notebooks"), help="the notebooks folder (default ./notebooks)"
    )
    parser.add_argument("--project", type=Path, default=Path("."), help="the folder with pyproject.toml (default .)")
    parser.add_argument("--force", action="store_true", help="replace a release of the same name")
    parser.add_argument("--lang", choices=("zh", "en"), help="language of this command's messages")
    parser.add_argument(
        "--gradescope", type=Path, metavar="ZIP", help="also write a Gradescope autograder zip for these exercises"
    )
    args = parser.parse_args(argv)
    set_lang(args.lang or args.edition or system_language())  # a release's messages speak its edition
    names = []
    for given in args.exercises or list(exercises.EXERCISES):
        try:
            names.append(exercises.exercise_name(given))
        except KeyError:
            parser.error(msg("rel_no_exercise", name=given, names=", ".join(exercises.EXERCISES)))
    teacher_dir = edition_dirs(args.notebooks)[args.edition] / TEACHER_FOLDER
    missing = [n for n in names if not (teacher_dir / f"{n}.ipynb").is_file()]
    if missing:
        parser.error(msg("rel_missing", folder=teacher_dir, names=", ".join(missing)))
    name = args.name or f"{args.edition}-{datetime.now():%Y-%m-%d}"
    release_dir = args.out / name
    if release_dir.exists():
        if not args.force:
            parser.error(msg("rel_exists", folder=release_dir))
        shutil.rmtree(release_dir)
    try:
        folder, archive, manifest = build(
            args.notebooks, args.project, args.out, name, args.edition, names, args.per_student
        )
    except ReleaseError as e:
        shutil.rmtree(release_dir, ignore_errors=True)
        print(f"attn-release: {e}", file=sys.stderr)
        return 1
    print(msg("rel_written", folder=folder))
    print(msg("rel_zip", zip=archive))
    print(msg("rel_manifest", folder=release_dir, manifest=manifest))
    print(msg("rel_exercises", names=", ".join(names)))
    if args.gradescope:
        from .grading import gradescope

        print(msg("rel_gradescope", zip=gradescope.write_zip(args.gradescope, names, args.edition, folder, manifest)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
