"""The grader on a folder of crafted submissions, plus its pure parts (no kernel).

The submissions are built here from the committed notebooks (not committed themselves: `pytest
--nbval` would try to run an infinite loop). One `python -m attn_core.homework.grade` run grades them all
(a kernel each, ≈ 2–5 s here) with a short timeout.
"""

import csv
import re
import subprocess
import sys

import nbformat
import numpy as np
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from attn_core import homework
from attn_core.homework import grade
from attn_core.homework.student import has_solution, make_student
from attn_core.lang import display_width

from .repo import EDITIONS, ROOT, TEACHER_DIR

pytestmark = pytest.mark.kernel  # the grader runs every submission in a kernel of its own

TIMEOUT = 10  # seconds per notebook; imports take ≈ 1 s here

SOLUTIONS = {"2.1": "QKT = Q @ K.T", "2.2": "QKT_new = Q_new @ K_new.T"}
EX02_TASKS = [t.id for t in homework.tasks("ex02_scores")]  # 2.1, 2.2 and the find-the-bug task 2.3
TAMPER = """import numpy as np
import attn_core.homework.checker
from attn_core import homework
np.allclose = lambda *a, **k: True
np.isclose = lambda a, b, *args, **kw: np.ones(np.broadcast_shapes(np.shape(a), np.shape(b)), dtype=bool)
attn_core.homework.checker.diagnose = lambda *a, **k: attn_core.homework.checker.Diagnosis(True, "ok", "perfect", "x")
homework.diagnose_task = lambda *a, **k: attn_core.homework.checker.Diagnosis(True, "ok", "perfect", "x")
def check(*args, **kwargs):
    print("✅ 全对")"""


def _submission(answers, name="ex02_scores", extra=(), drop_markdown=0, teacher_dir=TEACHER_DIR):
    """The handed-out notebook with answer cells replaced (task id -> code) and extra cells
    inserted ((position among code cells, source))."""
    teacher = nbformat.read(teacher_dir / f"{name}.ipynb", as_version=4)
    by_var = {t.var: t.id for t in homework.tasks(name)}
    nb = make_student(teacher, teacher_dir, teacher_dir.parent)
    for cell in nb.cells:
        m = re.search(r"^(\w+) = \.\.\.", cell.source, re.M) if cell.cell_type == "code" else None
        if m and by_var.get(m.group(1)) in answers:
            cell.source = answers[by_var[m.group(1)]]
    for position, source in extra:
        nb.cells.insert(position, new_code_cell(source))
    for _ in range(drop_markdown):
        nb.cells.remove(next(c for c in nb.cells[1:] if c.cell_type == "markdown"))
    return nb


def _cell_number(nb, needle):
    return next(i for i, c in enumerate(nb.cells, start=1) if needle in c.source)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("submissions")
    subs = {
        "perfect": _submission(SOLUTIONS),
        "perfect_en": _submission(SOLUTIONS, teacher_dir=EDITIONS["en"] / "teacher"),  # the English edition
        "partly_wrong": _submission({"2.1": SOLUTIONS["2.1"], "2.2": "QKT_new = K_new @ Q_new.T"}, drop_markdown=1),
        "tampering": _submission(
            {"2.1": "QKT = np.zeros((4, 4))", "2.2": "QKT_new = np.ones((3, 5))"}, extra=[(3, TAMPER)]
        ),
        "crashing": _submission(
            {"2.1": "QKT = Q @ K.T\nraise RuntimeError('oops')", "2.2": "QKT_new = Q_new @ K_new.T\nx = 1 / 0"}
        ),
        "looping": _submission({"2.1": SOLUTIONS["2.1"], "2.2": "while True:\n    pass"}),
        "lists": _submission({"2.1": "QKT = (Q @ K.T).tolist()", "2.2": "QKT_new = 'not done'"}),
    }
    for key, nb in subs.items():
        nbformat.write(nb, folder / f"{key}_ex02.ipynb")
    (folder / "corrupt_ex02.ipynb").write_text('{"cells": [ this is not JSON', encoding="utf-8")
    report = folder.parent / "report.csv"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "attn_core.homework.grade",
            str(folder),
            "--csv",
            str(report),
            "--timeout",
            str(TIMEOUT),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    with open(report, encoding="utf-8-sig") as f:
        rows = {row["submission"].rsplit("/", 1)[-1].removesuffix("_ex02.ipynb"): row for row in csv.DictReader(f)}
    return run, rows, subs


def test_the_batch_finishes_and_prints_one_table(graded):
    run, rows, _ = graded
    assert run.returncode == 0, run.stderr
    assert len(rows) == 8
    table = run.stdout.split("\n\n")[0].splitlines()
    assert table[0] == "ex02_scores"
    assert table[1].split() == ["submission", *EX02_TASKS, "score", "status"]
    assert len(table) == 2 + 8


@pytest.mark.parametrize("key", ["perfect", "perfect_en"])
def test_perfect_submission(graded, key):
    """Full marks, and no cell counted as changed: each edition is compared with its own handed-out copy."""
    row = graded[1][key]
    total = str(len(EX02_TASKS))
    assert (row["score"], row["total"], row["status"], row["2.1"], row["2.2"]) == ("2", total, "ok", "ok", "ok")


def test_partly_wrong_submission_with_a_deleted_cell(graded):
    row = graded[1]["partly_wrong"]
    assert (row["score"], row["2.1"], row["2.2"]) == ("1", "ok", "transposed")
    assert row["status"] == "cells changed (1 deleted, edited or moved)"


def test_tampering_gains_nothing(graded):
    row = graded[1]["tampering"]
    assert (row["score"], row["2.1"], row["2.2"]) == ("0", "wrong_values", "wrong_values")
    assert row["status"] == "ok", "added cells are allowed"


def test_crashing_cells_do_not_stop_the_notebook(graded):
    run, rows, subs = graded
    row = rows["crashing"]
    nb = subs["crashing"]
    first, second = _cell_number(nb, "oops"), _cell_number(nb, "/ 0")
    assert row["status"] == f"error in cells {first}, {second}"
    # each answer was assigned before its cell raised, and the cells after the first error still ran
    assert (row["score"], row["2.1"], row["2.2"]) == ("2", "ok", "ok")


def test_infinite_loop_times_out_and_earlier_answers_count(graded):
    row = graded[1]["looping"]
    nb = graded[2]["looping"]
    assert row["status"] == f"timeout in cell {_cell_number(nb, 'while True')}"
    assert (row["score"], row["2.1"], row["2.2"]) == ("1", "ok", "not_attempted")


def test_answers_keep_their_python_type(graded):
    row = graded[1]["lists"]
    assert (row["2.1"], row["2.2"]) == ("ok", "wrong_type")


def test_corrupt_file_is_reported_and_scores_zero(graded):
    row = graded[1]["corrupt"]
    assert row["status"].startswith("invalid notebook")
    assert (row["exercise"], row["score"], row["total"]) == ("ex02_scores", "0", str(len(EX02_TASKS)))


# ---------------------------------------------------------------- pure parts, no kernel


def test_decode_rebuilds_arrays_and_refuses_junk():
    a = grade._decode({"kind": "array", "type": "ndarray", "dtype": "<f8", "shape": [2, 2], "data": [1, 2, 3, 4]})
    np.testing.assert_array_equal(a, [[1.0, 2.0], [3.0, 4.0]])
    m = grade._decode({"kind": "array", "type": "ndarray", "dtype": "|b1", "shape": [2], "data": [True, False]})
    assert m.dtype == bool
    assert grade._decode({"kind": "array", "type": "list", "dtype": "<i8", "shape": [2], "data": [1, 2]}) == [1, 2]
    assert grade._decode({"kind": "ellipsis"}) is Ellipsis
    assert grade._decode({"kind": "missing"}) is homework.MISSING
    assert grade._decode(None) is homework.MISSING
    for junk in (
        {"kind": "array", "dtype": "<U3", "shape": [1], "data": ["abc"]},
        {"kind": "array", "dtype": "<f8", "shape": [3], "data": [1.0]},
        {"kind": "array", "dtype": [("a", "<f8")], "shape": [1], "data": [1.0]},
        {"kind": "other", "type": "function"},
    ):
        assert isinstance(grade._decode(junk), grade._Opaque)
        assert homework.diagnose_task("2.1", grade._decode(junk)).code == "wrong_type"


def test_changed_cells_counts_deleted_edited_and_moved_fixed_cells():
    reference = [("a", False), ("b", False), ("answer = ...", True), ("c", False)]

    def nb(*sources):
        return new_notebook(cells=[new_code_cell(s) for s in sources])

    assert grade._changed_cells(nb("a", "b", "answer = 1", "c"), reference) == 0
    assert grade._changed_cells(nb("a", "extra", "b", "c"), reference) == 0
    assert grade._changed_cells(nb("a", "c"), reference) == 1
    assert grade._changed_cells(nb("b", "a", "c"), reference) == 1
    assert grade._changed_cells(nb("a", "b edited", "c  \n"), reference) == 1


def test_exercise_is_found_from_metadata_name_or_check_cells(tmp_path):
    nb = new_notebook(cells=[new_code_cell('check("7.2")')])
    assert grade._identify(nb, "whatever.ipynb") == "ex07_causal_mask"
    assert grade._identify(None, "zhang_san_ex04.ipynb") == "ex04_softmax"
    assert grade._identify(None, "ex040.ipynb") is None
    nb.metadata["attn_core"] = {"exercise": "ex01_projection"}
    assert grade._identify(nb, "ex04.ipynb") == "ex01_projection"


def test_unrecognised_and_non_notebook_files_need_no_kernel(tmp_path):
    stranger = tmp_path / "essay.ipynb"
    nbformat.write(new_notebook(cells=[new_markdown_cell("我的作文")]), stranger)
    not_nb = tmp_path / "ex03_mine.ipynb"
    not_nb.write_text('{"hello": 1}', encoding="utf-8")
    results = grade.grade_all([tmp_path], timeout=5)
    by_name = {r.path.name: r for r in results}
    assert by_name["essay.ipynb"].status_text == "unknown exercise"
    assert by_name["essay.ipynb"].total == 0
    r = by_name["ex03_mine.ipynb"]
    assert r.status_text.startswith("invalid notebook") and (r.exercise, r.score, r.total) == ("ex03_scaling", 0, 2)
    assert [t.code for t in r.tasks] == ["not_attempted", "not_attempted"]
    table = grade.format_table(results)
    assert "(exercise not recognised)" in table and "0/2" in table


def test_reference_marks_exactly_the_answer_cells_editable():
    teacher = nbformat.read(TEACHER_DIR / "ex04_softmax.ipynb", as_version=4)
    reference = grade._reference_cells("ex04_softmax", TEACHER_DIR)
    editable = [source for source, ok in reference if ok]
    assert len(editable) == sum(has_solution(c.source) for c in teacher.cells) == len(homework.tasks("ex04_softmax"))
    assert all(" = ...  # " in source for source in editable)


def test_table_lines_up_chinese_file_names():
    results = []
    for name, ok in (("张三_ex02.ipynb", True), ("li_ex02.ipynb", False)):
        r = grade.Result(grade.Path(name), exercise="ex02_scores")
        r.tasks = [
            grade.TaskResult("2.1", ok, "ok" if ok else "transposed", ""),
            grade.TaskResult("2.2", True, "ok", ""),
        ]
        results.append(r)
    lines = grade.format_table(results).splitlines()[1:]
    total = len(EX02_TASKS)
    starts = [
        display_width(line[: line.index(score)]) for line, score in zip(lines, ("score", f"2/{total}", f"1/{total}"))
    ]
    assert len(set(starts)) == 1, lines


def test_a_broken_teacher_copy_is_reported_and_grading_goes_on(tmp_path):
    teachers = tmp_path / "teacher"
    teachers.mkdir()
    (teachers / "ex02_scores.ipynb").write_text("not a notebook", encoding="utf-8")
    submission = tmp_path / "a_ex02.ipynb"
    nbformat.write(_submission(SOLUTIONS), submission)
    [result] = grade.grade_all([submission], timeout=30, teacher_dirs=[teachers])
    assert result.status_text == "cells not compared (teacher version unreadable: NotJSONError)"
    assert (result.score, result.total) == (2, len(EX02_TASKS))


def test_a_grader_failure_on_one_submission_does_not_stop_the_batch(tmp_path, monkeypatch):
    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(grade, "_changed_cells", broken)
    monkeypatch.setattr(grade, "_run", broken)
    submission = tmp_path / "a_ex02.ipynb"
    nbformat.write(_submission(SOLUTIONS), submission)
    (tmp_path / "b_ex03.ipynb").write_text("{", encoding="utf-8")
    a, b = grade.grade_all([tmp_path], timeout=5, teacher_dirs=[TEACHER_DIR])
    assert a.status_text == "grader error (RuntimeError: boom)" and (a.score, a.total) == (0, len(EX02_TASKS))
    assert b.status_text.startswith("invalid notebook")
