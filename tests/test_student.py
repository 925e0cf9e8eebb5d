"""The student-version command: solutions out, placeholders kept, committed copies up to date."""

import subprocess
import sys

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

import attn_homework as homework
from attn_homework import student
from attn_homework.exercises import TASKS
from attn_homework.student import BEGIN, END, MarkerError, make_student, strip_solutions

from .repo import EDITIONS as EDITION_DIRS
from .repo import EXERCISES_DIR as STUDENT_DIR
from .repo import TEACHER_DIR

NAMES = list(homework.EXERCISES)
EDITIONS = list(EDITION_DIRS)  # each edition's student notebooks, with its teacher/ folder inside
EDITION_NAMES = [(edition, name) for edition in EDITIONS for name in NAMES]


def _cells(nb):
    return [(c.cell_type, c.get("id"), c.source, c.metadata) for c in nb.cells]


# ---------------------------------------------------------------- the transformation


def test_region_goes_and_the_placeholder_line_stays():
    src = f"# QKᵀ, shape (4, 4)\nQKT = ...  # ← answer\n{BEGIN}\nQKT = Q @ K.T\n{END}"
    assert strip_solutions(src) == "# QKᵀ, shape (4, 4)\nQKT = ...  # ← answer"


def test_several_regions_and_indented_markers():
    src = f"a = ...\n    {BEGIN}\na = 1\n    {END}\nb = ...\n{BEGIN}\nb = 2\nb += 1\n{END}\nprint(a, b)"
    assert strip_solutions(src) == "a = ...\nb = ...\nprint(a, b)"


@pytest.mark.parametrize(
    "src, problem",
    [
        (f"x = ...\n{BEGIN}\nx = 1", "never closed"),
        (f"x = ...\n{END}", "without"),
        (f"{BEGIN}\n{BEGIN}\n{END}\n{END}", "nested"),
    ],
)
def test_bad_markers_are_refused_with_the_line(src, problem):
    with pytest.raises(MarkerError, match=problem):
        strip_solutions(src, where="cell 3")


def test_teacher_only_cells_outputs_and_counts_go():
    nb = new_notebook(
        cells=[
            new_markdown_cell("# title"),
            new_markdown_cell("teacher note", metadata={"tags": ["teacher-only"]}),
            new_code_cell(
                f"x = ...\n{BEGIN}\nx = 42\n{END}",
                execution_count=3,
                outputs=[nbformat.v4.new_output("stream", name="stdout", text="42\n")],
            ),
        ]
    )
    out = make_student(nb)
    assert [c.source for c in out.cells] == ["# title", "x = ..."]
    assert out.cells[1].outputs == [] and out.cells[1].execution_count is None
    assert nb.cells[2].source.endswith(END), "the teacher notebook itself is left alone"


def test_markers_outside_code_cells_are_refused():
    nb = new_notebook(cells=[new_markdown_cell(f"{BEGIN}\nanswer\n{END}")])
    with pytest.raises(MarkerError, match="markdown"):
        make_student(nb)


# ---------------------------------------------------------------- the committed notebooks


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_teacher_notebook_has_a_student_version_and_nothing_else(edition):
    folder = EDITION_DIRS[edition]
    assert sorted(p.name for p in student.teacher_notebooks(folder / "teacher")) == sorted(f"{n}.ipynb" for n in NAMES)
    assert sorted(p.name for p in folder.glob("ex*.ipynb")) == sorted(f"{n}.ipynb" for n in NAMES)


@pytest.mark.parametrize("edition, name", EDITION_NAMES)
def test_committed_student_version_is_what_the_command_derives(edition, name):
    """Cell by cell (type, id, source, metadata); the outputs are compared by strict nbval."""
    folder = EDITION_DIRS[edition]
    teacher = nbformat.read(folder / "teacher" / f"{name}.ipynb", as_version=4)
    committed = nbformat.read(folder / f"{name}.ipynb", as_version=4)
    assert _cells(committed) == _cells(make_student(teacher, folder / "teacher", folder)), (
        f"{edition}/{name}: run `python -m attn_homework.student` to regenerate the student notebooks"
    )
    assert committed.metadata["attn_core"] == teacher.metadata["attn_core"]
    text = nbformat.writes(committed)
    assert "BEGIN SOLUTION" not in text and "teacher-only" not in text


# What the intro announces and what the held-back summary says follow the exercise's own kinds of task.
ANNOUNCED = {
    "number": {"zh": "**先预测**的题", "en": "**Predict** tasks"},
    "function": {"zh": "**找错**的题", "en": "**Find the bug**"},
}


@pytest.mark.parametrize("edition, name", EDITION_NAMES)
def test_the_intro_announces_exactly_the_kinds_of_task_the_exercise_has(edition, name):
    kinds = {task.answer_kind for task in TASKS.values() if task.exercise == name}
    teacher = nbformat.read(EDITION_DIRS[edition] / "teacher" / f"{name}.ipynb", as_version=4)
    intro = teacher.cells[0].source
    for kind, words in ANNOUNCED.items():
        assert (words[edition] in intro) == (kind in kinds), (edition, name, kind, sorted(kinds))


def test_the_held_back_summary_names_predict_tasks_only_where_there_are_some():
    summary = "## 小结\n\n- 答案……\n\n[下一个练习 →](ex02_scores.ipynb)"
    with_predict = new_notebook(cells=[new_code_cell('check("5.3")'), new_markdown_cell(summary)])
    without = new_notebook(cells=[new_code_cell('check("1.1")'), new_markdown_cell(summary)])
    assert student.has_predictions(with_predict) and not student.has_predictions(without)
    assert "先预测" in make_student(with_predict).cells[-1].source
    note = make_student(without).cells[-1].source
    assert "先预测" not in note and "所以不放在这里" in note and note.endswith("[下一个练习 →](ex02_scores.ipynb)")


@pytest.mark.parametrize("edition, name", EDITION_NAMES)
def test_both_versions_are_committed_executed(edition, name):
    for folder, mark in ((EDITION_DIRS[edition] / "teacher", "✅"), (EDITION_DIRS[edition], "⏳")):
        nb = nbformat.read(folder / f"{name}.ipynb", as_version=4)
        checks = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith("check(")]
        for cell in checks:
            text = "".join(o.get("text", "") for o in cell.outputs)
            if mark == "✅" and text.startswith("📌"):  # a predict task's first check records the prediction
                text = text.split("\n", 1)[1]
            assert text.startswith(mark) and text.count("\n") == 1, (folder.name, cell.source, text)


@pytest.mark.kernel
def test_command_writes_an_executed_student_notebook(tmp_path):
    """End to end on one notebook: same cells and the same outputs as the committed copy."""
    name = "ex02_scores"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "attn_homework.student",
            str(TEACHER_DIR / f"{name}.ipynb"),
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    made = nbformat.read(tmp_path / f"{name}.ipynb", as_version=4)
    committed = nbformat.read(STUDENT_DIR / f"{name}.ipynb", as_version=4)
    assert _cells(made) == _cells(committed)
    for got, want in zip(made.cells, committed.cells):
        assert got.get("outputs") == want.get("outputs"), got.source


def test_command_refuses_to_overwrite_the_teacher_folder(capsys):
    with pytest.raises(SystemExit) as exit_:
        student.main([str(TEACHER_DIR / "ex02_scores.ipynb"), "--out", str(TEACHER_DIR), "--no-execute"])
    assert exit_.value.code == 2 and "choose another --out" in capsys.readouterr().err


def test_command_reports_a_bad_notebook_and_goes_on(tmp_path):
    bad = tmp_path / "teacher" / "ex98_bad.ipynb"
    good = tmp_path / "teacher" / "ex99_good.ipynb"
    bad.parent.mkdir()
    nbformat.write(new_notebook(cells=[new_code_cell(f"x = ...\n{BEGIN}\nx = 1")]), bad)
    nbformat.write(new_notebook(cells=[new_code_cell(f"x = ...\n{BEGIN}\nx = 1\n{END}")]), good)
    code = student.main([str(bad), str(good), "--out", str(tmp_path / "out"), "--no-execute"])
    assert code == 1
    assert not (tmp_path / "out" / bad.name).exists()
    assert nbformat.read(tmp_path / "out" / good.name, as_version=4).cells[0].source == "x = ..."


def test_without_out_each_teacher_notebook_goes_to_the_folder_above_its_teacher_folder(tmp_path, capsys):
    teacher = tmp_path / "en" / "exercises" / "teacher" / "ex99_good.ipynb"
    teacher.parent.mkdir(parents=True)
    nbformat.write(new_notebook(cells=[new_code_cell(f"x = ...\n{BEGIN}\nx = 1\n{END}")]), teacher)
    assert student.main([str(teacher), "--no-execute"]) == 0
    assert nbformat.read(tmp_path / "en" / "exercises" / teacher.name, as_version=4).cells[0].source == "x = ..."
    loose = tmp_path / "ex98_loose.ipynb"
    nbformat.write(new_notebook(cells=[]), loose)
    with pytest.raises(SystemExit) as exit_:
        student.main([str(loose), "--no-execute"])
    assert exit_.value.code == 2 and "give --out" in capsys.readouterr().err
