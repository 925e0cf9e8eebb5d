"""Interop with nbgrader: the teacher notebooks carry its cell metadata (tools/nbgrader_metadata.py), and
``nbgrader generate_assignment`` makes from them a student version equivalent to ours, in both editions."""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from attn_homework import check, exercises, student
from attn_homework.student import TEACHER_FOLDER

from .repo import EDITIONS, NOTEBOOKS, ROOT

_spec = importlib.util.spec_from_file_location("nbgrader_metadata", ROOT / "tools" / "nbgrader_metadata.py")
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)


@pytest.mark.parametrize("path", tool.teacher_notebooks(NOTEBOOKS), ids=lambda p: p.relative_to(NOTEBOOKS).as_posix())
def test_teacher_notebooks_carry_up_to_date_nbgrader_metadata(path):
    nb = nbformat.read(path, as_version=4)
    assert not tool.annotate(nb, path.stem), f"{path}: run python tools/nbgrader_metadata.py"
    kinds = [c.metadata.get("nbgrader", {}) for c in nb.cells]
    checks = [k for k in kinds if k.get("grade")]
    assert [k["grade_id"] for k in checks] == [f"check_{t.id.replace('.', '_')}" for t in exercises.tasks(path.stem)]
    assert all(k["points"] == exercises.TASKS[k["grade_id"][6:].replace("_", ".")].points for k in checks)
    assert sum(bool(k.get("solution")) for k in kinds) == len(exercises.tasks(path.stem))
    assert len({k["grade_id"] for k in kinds if k}) == sum(bool(k) for k in kinds), "grade ids are unique"


def test_the_tool_is_idempotent(tmp_path):
    path = tool.teacher_notebooks(NOTEBOOKS)[0]
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes())
    nb = nbformat.read(copy, as_version=4)
    for cell in nb.cells:
        cell.metadata.pop("nbgrader", None)
    assert tool.annotate(nb, path.stem) and not tool.annotate(nb, path.stem)


def test_under_nbgrader_a_failed_check_raises(monkeypatch, capsys):
    import attn_homework as homework

    Q, K = homework.data("2.1")
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    check("2.1", Q @ K.T)  # right: passes quietly, as a test cell should
    with pytest.raises(AssertionError, match="2.1"):
        check("2.1", K @ Q.T)
    monkeypatch.delenv("NBGRADER_EXECUTION")
    check("2.1", K @ Q.T)  # in a notebook it only prints
    assert capsys.readouterr().out.count("❌") == 2


def _links_out(text):
    return re.sub(r"\]\([^)]*\)", "]()", text)


# nbgrader lives beside the learner's environment (make test installs it there), never in it.
TEACHER_TOOLS = Path(sys.prefix) / "teacher-tools"


def test_the_learners_environment_has_no_nbgrader():
    """Its JupyterLab would show an Nbgrader menu, a Validate button and a Create Assignment sidebar."""
    assert importlib.util.find_spec("nbgrader") is None, "pip uninstall nbgrader: it belongs in .venv/teacher-tools"


@pytest.mark.kernel
@pytest.mark.parametrize("edition", list(EDITIONS))
def test_nbgrader_generates_the_student_versions(tmp_path, edition):
    if not (TEACHER_TOOLS / "nbgrader").is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"nbgrader is not installed in {TEACHER_TOOLS} (make test installs it)")
        pytest.skip(f"nbgrader is not installed in {TEACHER_TOOLS}: run make test (or make .venv/.installed-dev)")
    course = tool.make_course(tmp_path / "course", NOTEBOOKS, edition)
    env = {
        **os.environ,
        # nbgrader runs the alembic command: pip --target put it in teacher-tools/bin
        "PATH": os.pathsep.join([str(TEACHER_TOOLS / "bin"), str(Path(sys.executable).parent), os.environ["PATH"]]),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(TEACHER_TOOLS), os.environ.get("PYTHONPATH")])),
    }
    run = subprocess.run(
        [sys.executable, "-m", "nbgrader", "generate_assignment", "--CourseDirectory.assignment_id=*", "--force"],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    ours_dir = EDITIONS[edition]
    for teacher in sorted((ours_dir / TEACHER_FOLDER).glob("ex*.ipynb")):
        made = nbformat.read(course / "release" / teacher.stem / teacher.name, as_version=4)
        ours = nbformat.read(ours_dir / teacher.name, as_version=4)
        assert [(c.cell_type, c.get("id")) for c in made.cells] == [(c.cell_type, c.get("id")) for c in ours.cells]
        for a, b in zip(made.cells, ours.cells):
            if a.cell_type == "code":
                assert a.source.rstrip() == b.source.rstrip(), (teacher.name, a.get("id"))
            else:  # relative links point where each tool puts the notebook
                lang = student._summary_lang(a)
                if lang is not None:  # nbgrader keeps the closing summary; the student version holds it back
                    a.source = student.hold_back_summary(
                        a.source, lang, student.has_predictions(made), student.lesson_link(made)
                    )
                assert _links_out(a.source) == _links_out(b.source), (teacher.name, a.get("id"))
