"""The grader's parts that need no kernel: reading answers back, finding what was handed in and by whom,
naming changed cells, marks, the results file, the CSV files an LMS imports, error carried forward, and the
grader side of find-the-bug tasks."""

import contextlib
import copy
import csv
import hashlib
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbformat.v4 import new_code_cell, new_notebook

import attn_homework as homework
from attn_core.lang import display_width
from attn_homework import exercises, verdicts
from attn_homework.grading import (
    answers,
    checking,
    cli,
    collect,
    handout,
    marks,
    reading,
    remembered,
    reports,
    results,
    roster,
)
from attn_homework.messages import msg

from .submissions import handout as handed_out

# ---------------------------------------------------------------- answers read back from the kernel


def _entry(value):
    a = np.asarray(value)
    return {
        "kind": "array",
        "type": type(value).__name__,
        "dtype": a.dtype.str,
        "shape": list(a.shape),
        "data": a.ravel().tolist(),
    }


def test_decode_rebuilds_arrays_and_refuses_junk():
    a = answers.decode({"kind": "array", "type": "ndarray", "dtype": "<f8", "shape": [2, 2], "data": [1, 2, 3, 4]})
    np.testing.assert_array_equal(a, [[1.0, 2.0], [3.0, 4.0]])
    assert (
        answers.decode({"kind": "array", "type": "ndarray", "dtype": "|b1", "shape": [2], "data": [True, False]}).dtype
        == bool
    )
    assert answers.decode({"kind": "array", "type": "list", "dtype": "<i8", "shape": [2], "data": [1, 2]}) == [1, 2]
    assert answers.decode({"kind": "ellipsis"}) is Ellipsis
    assert answers.decode({"kind": "missing"}) is homework.MISSING
    assert answers.decode(None) is homework.MISSING
    for junk in (
        {"kind": "array", "dtype": "<U3", "shape": [1], "data": ["abc"]},
        {"kind": "array", "dtype": "<f8", "shape": [3], "data": [1.0]},
        {"kind": "array", "dtype": [("a", "<f8")], "shape": [1], "data": [1.0]},
        {"kind": "other", "type": "function"},
    ):
        assert isinstance(answers.decode(junk), answers.Opaque)
        assert homework.diagnose_task("2.1", answers.decode(junk)).code == "wrong_type"


def test_the_dump_code_reads_the_answers_of_a_namespace():
    """What runs in the kernel, run here on a plain namespace: arrays, lists, a placeholder, a missing name."""
    namespace = {"QKT": np.eye(2), "L": [[1, 2], [3, 4]], "P": ..., "f": lambda x: x * 2}
    probes = {"f": [[answers.encode_argument(np.arange(3.0))], [answers.encode_argument(np.ones(2))]]}
    exec(answers.dump_code(["QKT", "L", "P", "gone", "f"], probes), namespace)
    import json

    got = json.loads(namespace[answers.RESULT_NAME])
    np.testing.assert_array_equal(answers.decode(got["QKT"]), np.eye(2))
    assert answers.decode(got["L"]) == [[1, 2], [3, 4]]
    assert answers.decode(got["P"]) is Ellipsis and answers.decode(got["gone"]) is homework.MISSING
    calls = answers.decode_calls(got["f"], [(np.arange(3.0),), (np.ones(2),)])
    np.testing.assert_array_equal(calls.results[0], [0.0, 2.0, 4.0])


def test_a_failing_or_slow_call_is_a_failed_call():
    namespace = {"boom": lambda x: 1 / 0, "slow": lambda x: __import__("time").sleep(5)}
    exec(answers.dump_code(["boom", "slow"], {"boom": [[1]], "slow": [[1]]}, call_seconds=0.2), namespace)
    import json

    got = json.loads(namespace[answers.RESULT_NAME])
    boom = answers.decode_calls(got["boom"], [(1,)]).results[0]
    slow = answers.decode_calls(got["slow"], [(1,)]).results[0]
    assert (boom.type_name, slow.type_name) == ("ZeroDivisionError", "TimeoutError")


# ---------------------------------------------------------------- reading a submission


def test_exercise_is_found_from_metadata_name_or_check_cells():
    nb = new_notebook(cells=[new_code_cell('check("7.2")')])
    assert reading.identify_exercise(nb, "whatever.ipynb") == "ex07_causal_mask"
    assert reading.identify_exercise(None, "zhang_san_ex04.ipynb") == "ex04_softmax"
    assert reading.identify_exercise(None, "ex040.ipynb") is None
    nb.metadata["attn_core"] = {"exercise": "ex01_projection"}
    assert reading.identify_exercise(nb, "ex04.ipynb") == "ex01_projection"


def test_edition_and_id_cell():
    nb = handed_out("ex02_scores", "en")
    assert reading.edition_of(nb) == "en" and reading.edition_of(handed_out()) == "zh"
    assert reading.id_cell(nb) == (False, None)
    nb.cells.insert(2, new_code_cell('homework.set_student_id("...")  # ← your number'))
    assert reading.id_cell(nb) == (True, None)
    nb.cells[2].source = 'homework.set_student_id(" 2024001 ")'
    assert reading.id_cell(nb) == (True, "2024001")


@pytest.mark.parametrize(
    "data, problem, words",
    [
        (b"{ not json", "not_json", "不是 JSON"),
        (b'{"hello": 1}', "json_not_notebook", "不是笔记本"),
        (b"\xff\xfe\x00", "not_utf8", "不是 UTF-8 文本"),
        (
            b'{"cells": [{"cell_type": "code"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}',
            "invalid_notebook:",
            "笔记本格式不对",
        ),
    ],
)
def test_unreadable_files_say_why_in_the_teachers_language(data, problem, words):
    with pytest.raises(ValueError, match=problem) as raised:
        reading.read_notebook(data)
    text = reports.note_text(results.Note("unreadable", detail=str(raised.value)))
    assert words in text and not re.search(r"[A-Za-z]{3,} [A-Za-z]{3,}", text), text  # no English words in zh


# ---------------------------------------------------------------- what was handed in


def _nb_bytes(name="ex02_scores"):
    return nbformat.writes(handed_out(name)).encode()


def test_collect_reads_subfolders_zips_and_lists_every_skipped_file(tmp_path):
    folder = tmp_path / "作业"
    (folder / "陈十二_12345_assignsubmission_file_").mkdir(parents=True)
    (folder / "陈十二_12345_assignsubmission_file_" / "ex06_full_pipeline.ipynb").write_bytes(
        _nb_bytes("ex06_full_pipeline")
    )
    (folder / "陈十二_12345_assignsubmission_file_" / "report.pdf").write_bytes(b"%PDF")
    (folder / ".ipynb_checkpoints").mkdir()
    (folder / ".ipynb_checkpoints" / "ex02_scores-checkpoint.ipynb").write_bytes(_nb_bytes())
    (folder / ".DS_Store").write_bytes(b"\0")
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("ex02_scores.ipynb", _nb_bytes())
    with zipfile.ZipFile(folder / "canvas.zip", "w") as z:
        z.writestr("zhangsan_LATE_4321_998877_ex02_scores.ipynb", _nb_bytes())
        z.writestr("lisi_5678_998878_ex02.zip", inner.getvalue())
        z.writestr("__MACOSX/._zhangsan", b"")
    (folder / "broken.zip").write_bytes(b"PK not really")
    submissions, skipped = collect.collect([folder])
    labels = {s.label: s for s in submissions}
    moodle = labels["作业/陈十二_12345_assignsubmission_file_/ex06_full_pipeline.ipynb"]
    assert moodle.lms == collect.LmsName("moodle", "陈十二", participant="12345")
    canvas = labels["作业/canvas.zip/zhangsan_LATE_4321_998877_ex02_scores.ipynb"]
    assert (canvas.lms.system, canvas.lms.user_id, canvas.lms.late, canvas.file_name) == (
        "canvas",
        "4321",
        True,
        "ex02_scores.ipynb",
    )
    nested = labels["作业/canvas.zip/lisi_5678_998878_ex02.zip/ex02_scores.ipynb"]
    assert nested.lms.user_id == "5678" and nested.submitted is not None
    reasons = {s.label.split("/")[-1]: s.reason for s in skipped}
    assert reasons == {
        "report.pdf": "not_notebook",
        "ex02_scores-checkpoint.ipynb": "checkpoint",
        ".DS_Store": "hidden",
        "._zhangsan": "hidden",
        "broken.zip": "bad_zip",
    }
    assert all(f"skip_{reason}" in msg for reason in collect.REASONS)


@pytest.mark.parametrize("late", ["_LATE", "_late", "_Late"])
def test_a_canvas_late_mark_in_any_case_is_read_as_late_and_names_the_canvas_user(late):
    lms = collect.lms_name(f"submissions.zip/wei2tongxue29{late}_90029_700142_ex04_softmax.ipynb")
    assert (lms.system, lms.name, lms.user_id, lms.late) == ("canvas", "wei2tongxue29", "90029", True)
    on_time = collect.lms_name("submissions.zip/wei2tongxue29_90029_700142_ex04_softmax.ipynb")
    assert (on_time.name, on_time.user_id, on_time.late) == ("wei2tongxue29", "90029", False)


def _with_outputs(name="ex02_scores", mib=1.0):
    """A handed-out notebook saved with about ``mib`` MiB of printed output (Chinese, as a student prints)
    in its first code cell, and a pasted picture in a markdown cell."""
    nb = handed_out(name)
    code = next(c for c in nb.cells if c.cell_type == "code")
    lines = int(mib * 2**20 / 120)
    code.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text=["调试输出" * 8 + ' "]}{[\\ 0123456789\n'] * lines)
    ]
    markdown = next(c for c in nb.cells if c.cell_type == "markdown")
    markdown.attachments = {"a.png": {"image/png": "iVBORw0KGgo" * 1000}}
    nb.metadata["outputs"] = ["metadata of this name is kept"]
    return nb


def _no_outputs(nb):
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if "outputs" in cell:
            cell.outputs = []
        if "attachments" in cell:
            cell.attachments = {}
    return nb


def test_a_notebook_is_kept_without_its_saved_outputs_wherever_it_comes_from(tmp_path):
    nb = _with_outputs(mib=2.0)
    raw = nbformat.writes(nb).encode()
    assert len(raw) > 2 << 20
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "zhang_ex02.ipynb").write_bytes(raw)
    with zipfile.ZipFile(tmp_path / "class.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("li_ex02.ipynb", raw)
    submissions, skipped = collect.collect([tmp_path / "a", tmp_path / "class.zip"])
    assert skipped == [] and len(submissions) == 2
    for submission in submissions:
        assert submission.problem == "" and len(submission.data) < 100_000
        assert submission.sha256 == hashlib.sha256(raw).hexdigest()  # a rerun knows the file as handed in
        kept = reading.read_notebook(submission.data)
        assert kept == _no_outputs(nb) and kept.metadata["outputs"] == ["metadata of this name is kept"]


def test_dropping_outputs_reads_strings_as_json_does():
    text = {
        "cells": [
            {
                "cell_type": "code",
                "source": 'print("]}")',
                "metadata": {"outputs": 1},
                "outputs": [{"text": ['"[{\\', '\\"', "]"], "x": [[], {}]}],
                "execution_count": 1,
            }
        ]
    }
    stripped = collect.without_outputs(json.dumps(text).encode())
    assert json.loads(stripped)["cells"][0] == {**text["cells"][0], "outputs": []}
    for broken in (b'{"cells": [{"outputs": ["never ends', b"]", b'{"a": 1}}'):
        with pytest.raises(ValueError, match="not_json"):
            collect.without_outputs(broken)


def test_a_notebook_too_large_to_grade_still_stands_for_its_student(tmp_path, monkeypatch):
    """Larger than the grader reads (as handed in, or without its outputs): a submission with its problem,
    not a skipped file, so that the student's row says why rather than "missing"."""
    monkeypatch.setattr(collect, "MAX_NOTEBOOK", 3 << 20)
    monkeypatch.setattr(collect, "MAX_KEPT", 2_000)
    folder = tmp_path / "吴十_12348_assignsubmission_file_"
    folder.mkdir()
    (folder / "ex02_scores.ipynb").write_bytes(nbformat.writes(_with_outputs(mib=4.0)).encode())
    with zipfile.ZipFile(tmp_path / "canvas.zip", "w") as z:
        z.writestr("lisi_5678_998878_ex02_scores.ipynb", nbformat.writes(handed_out()).encode())
    submissions, skipped = collect.collect([folder, tmp_path / "canvas.zip"])
    problems = {s.lms.name: (s.problem, s.detail, s.data) for s in submissions}
    assert skipped == []
    assert problems["吴十"][0] == "too_large" and problems["吴十"][2] == b""
    assert re.fullmatch(r"4\.\d MiB", problems["吴十"][1])  # as handed in, outputs and all
    assert problems["lisi"][0] == "too_large" and problems["lisi"][1].startswith("without_outputs:")
    assert reports.note_text(results.Note("too_large", detail=problems["lisi"][1])).startswith(
        "文件太大，没有批改（去掉保存的输出后仍有"
    )


@pytest.mark.kernel  # a Python subprocess: its own peak memory
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="VmHWM is Linux's")
def test_reading_a_notebook_saved_with_64_mib_of_output_keeps_the_graders_memory_flat(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    line = json.dumps("调试输出" * 25 + " 123456\n", ensure_ascii=False)
    nb = handed_out()
    code = next(c for c in nb.cells if c.cell_type == "code")
    code.outputs = [nbformat.v4.new_output("stream", name="stdout", text=["§"])]
    head, tail = nbformat.writes(nb).split('"§"')
    with open(folder / "wushi_ex02_scores.ipynb", "w", encoding="utf-8") as f:  # 64 MiB, written in pieces
        f.write(head)
        block = ",\n".join([line] * 10_000)
        for i in range(int(64 * 2**20 / len(block.encode()))):
            f.write((",\n" if i else "") + block)
        f.write(tail)
    code = (
        "import sys\nfrom attn_homework.grading import collect\n"
        "from attn_homework.grading.worker import peak_memory_mib\n"
        "before = peak_memory_mib()\n[s], _ = collect.collect([sys.argv[1]])\n"
        "print(before, peak_memory_mib(), len(s.data), s.problem or 'ok')\n"
        "from attn_homework.grading.reading import read_notebook\nread_notebook(s.data)"
    )
    run = subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True, text=True, check=True)
    before, after, kept, problem = run.stdout.split()
    assert problem == "ok" and int(kept) < 100_000
    assert int(after) - int(before) < 20, run.stdout  # MiB: json.loads of it takes about 120 more


# ---------------------------------------------------------------- who handed it in


def test_roster_reads_chinese_excel_and_lms_exports(tmp_path):
    gbk = tmp_path / "名单.csv"
    gbk.write_bytes("学号,姓名,邮箱\n2024001,陈十二,chen@example.edu\n2024002,Zhang San,zs@example.edu\n".encode("gbk"))
    r = roster.Roster.read(gbk)
    assert [(s.id, s.name, s.email) for s in r.students] == [
        ("2024001", "陈十二", "chen@example.edu"),
        ("2024002", "Zhang San", "zs@example.edu"),
    ]
    canvas = tmp_path / "canvas.csv"
    canvas.write_text(
        "Student,ID,SIS User ID,SIS Login ID,Section,HW\n    Points Possible,,,,,100\n"
        '"San, Zhang",4321,2024002,zs,A,\n',
        encoding="utf-8",
    )
    s = roster.Roster.read(canvas).students[0]
    assert (s.id, s.canvas_id, s.login, s.section) == ("2024002", "4321", "zs", "A")
    worksheet = tmp_path / "moodle.csv"
    worksheet.write_text(
        "Identifier,Full name,ID number,Email address\nParticipant 12345,陈十二,2024001,c@x\n", encoding="utf-8"
    )
    assert roster.Roster.read(worksheet).students[0].participant == "12345"
    bad = tmp_path / "bad.csv"
    bad.write_text("foo,bar\n1,2\n", encoding="utf-8")
    with pytest.raises(roster.RosterError, match="没有学号列"):
        roster.Roster.read(bad)


def test_a_student_is_found_from_the_id_cell_the_lms_or_the_file_name():
    r = roster.Roster(
        [
            roster.Student("2024001", "2024001", "陈十二", in_roster=True),
            roster.Student("2024002", "2024002", "Zhang San", login="zhangsan", in_roster=True),
        ]
    )
    moodle = collect.LmsName("moodle", "陈十二", participant="12345")
    student, problem = roster.identify(r, moodle, None, "ex06_full_pipeline.ipynb", "ex06_full_pipeline")
    assert (student.id, student.participant, problem) == ("2024001", "12345", "")
    # the ID cell names another rostered student than the Moodle folder: held, filed under who handed it in,
    # and the Moodle participant number of 陈十二 never written onto Zhang San's row
    conflict = roster.identify(r, moodle, "2024002", "x.ipynb", "ex06_full_pipeline")
    assert (conflict.student.id, conflict.problem, conflict.student.participant) == (
        "2024001",
        "identity_conflict",
        "12345",
    )
    wang = roster.Roster([roster.Student(k, k, "王伟", in_roster=True) for k in ("20240007", "20240023")] + r.students)
    folder = collect.LmsName("moodle", "王伟", participant="1849323")
    assert roster.identify(wang, folder, None, "ex02_scores.ipynb", "ex02_scores").problem == "ambiguous_name"
    second = roster.identify(wang, folder, "20240023", "ex02_scores.ipynb", "ex02_scores")
    assert (second.student.id, second.student.participant, second.problem) == ("20240023", "1849323", "")
    assert wang.by_name("王伟") is None and len(wang.by_name_all("王伟")) == 2
    assert roster.identify(r, moodle, "2029999", "x.ipynb", "ex06_full_pipeline")[1] == "id_mismatch"
    assert roster.identify(r, None, "2024002", "x.ipynb", "ex02_scores")[0].name == "Zhang San"
    assert roster.identify(r, None, None, "2024002_ex02.ipynb", "ex02_scores")[0].id == "2024002"
    assert roster.identify(r, None, None, "zhangsan-ex02.ipynb", "ex02_scores")[0].id == "2024002"
    stranger, problem = roster.identify(r, None, None, "wang_ex02_scores.ipynb", "ex02_scores")
    assert (stranger.key, problem) == ("wang", "not_in_roster")


# ---------------------------------------------------------------- changed cells


def test_changes_name_deleted_edited_and_moved_cells_by_their_handed_out_number():
    nb = handed_out("ex02_scores")
    answer_ids = {c.id for c in nb.cells if " = ...  #" in c.source}
    cells = handout.handout_cells(nb, answer_ids)
    assert handout.changes(nb.cells, cells) == []
    edited = copy.deepcopy(nb)
    for cell in edited.cells:
        if cell.id in answer_ids:
            cell.source = "my answer = 1"  # answer cells are the student's to edit
    edited.cells[3].source += "\nprint('mine')"  # handed-out cell 4 (a data cell)
    del edited.cells[6]  # handed-out cell 7
    edited.cells[1], edited.cells[2] = edited.cells[2], edited.cells[1]  # handed-out cells 2 and 3
    edited.cells.insert(5, new_code_cell("extra = 1"))  # added cells are fine
    found = {(c.number, c.kind) for c in handout.changes(edited.cells, cells)}
    assert {(4, "edited"), (7, "deleted")} <= found
    assert found - {(4, "edited"), (7, "deleted")} in ({(2, "moved")}, {(3, "moved")})


def test_a_release_record_round_trips():
    nb = handed_out("ex02_scores")
    cells = handout.handout_cells(nb, set())
    record = handout.record(cells, "zh-test", "zh", per_student=False)
    assert handout.cells_from_record(record) == cells
    assert handout.fingerprint(cells) == record["fingerprint"]


# ---------------------------------------------------------------- marks


def test_points_file_overrides_the_registry(tmp_path):
    path = tmp_path / "points.csv"
    path.write_text("task,points\n6.1,3\n6.4,0.5\n", encoding="utf-8")
    points = marks.Points.read(path)
    assert (points.of("6.1"), points.of("6.2"), points.of("6.4")) == (3.0, 1.0, 0.5)
    possible_points = EX06_POINTS - 1 + 3 - 1 + 0.5  # 6.1 counts 3, 6.4 counts 0.5, the others 1
    assert points.possible("ex06_full_pipeline") == possible_points
    earned, possible, percent = marks.exercise_mark(
        {"6.1": "correct", "6.4": "carried_forward"}, "ex06_full_pipeline", points
    )
    assert (earned, possible, round(percent, 2)) == (3.5, possible_points, round(100 * 3.5 / possible_points, 2))
    path.write_text("9.9,1\n", encoding="utf-8")
    with pytest.raises(marks.MarksError, match="没有题号 '9.9'"):
        marks.Points.read(path)


def test_late_rules():
    from datetime import datetime

    deadline = "2026-12-08 23:59"
    at = datetime.fromisoformat(deadline).timestamp()
    penalty = marks.LateRule.parse(deadline, "10")
    assert (
        penalty.days_late(at - 60) == 0 and penalty.days_late(at + 60) == 1 and penalty.days_late(at + 86400 * 2.5) == 3
    )
    assert penalty.apply(95.0, 3) == 65.0 and penalty.apply(15.0, 3) == 0.0
    assert marks.LateRule.parse(deadline, "zero").apply(95.0, 1) == 0.0
    assert marks.LateRule.parse(deadline, "none").apply(95.0, 5) == 95.0
    assert penalty.days_late(None, lms_late=True) == 1
    assert marks.LateRule.parse(None, "10").days_late(at + 10**6) == 0
    with pytest.raises(marks.MarksError):
        marks.LateRule.parse("next friday", "none")
    with pytest.raises(marks.MarksError):
        marks.LateRule.parse(deadline, "half")


# ---------------------------------------------------------------- the results file


EX02_IDS = [t.id for t in homework.tasks("ex02_scores")]
EX06_POINTS = len(homework.tasks("ex06_full_pipeline"))  # one point each


ALL_RIGHT = ("correct",) * len(EX02_IDS)


def _graded(key, exercise="ex02_scores", sha="s", codes=ALL_RIGHT):
    record = results.Graded(f"{key}.ipynb", sha, exercise, roster.Student(key, name=key))
    record.tasks = [checking.TaskResult(f"2.{i + 1}", code, "") for i, code in enumerate(codes)]
    record.notes = [results.Note("completed")]
    return record


def test_the_results_file_keeps_everything_and_reports_the_latest_in_place(tmp_path):
    store = results.Store(tmp_path / "results.jsonl")
    for key in ("a", "b", "c"):
        store.add(_graded(key))
    store.add(_graded("b", sha="t", codes=("correct", "transposed")))
    with open(tmp_path / "results.jsonl", "a", encoding="utf-8") as f:
        f.write('{"label": "cut sh')  # a grader killed mid-write
    again = results.Store(tmp_path / "results.jsonl")
    assert [r.student.key for r in again.latest()] == ["a", "b", "c"]
    assert again.latest()[1].codes == {"2.1": "correct", "2.2": "transposed"}
    assert again.graded("t", "ex02_scores", "b") is not None and again.graded("t", "ex02_scores", "a") is None


def test_every_status_and_code_has_words_in_both_languages():
    for code in results.STATUSES:
        assert f"status_{code}" in msg, code
    for kind in ("edited", "deleted", "moved"):
        assert f"change_{kind}" in msg


# ---------------------------------------------------------------- reports


def test_table_lines_up_chinese_names_and_the_status_column_is_named_in_the_language(english):
    n = len(EX02_IDS)
    records = [_graded("张三"), _graded("li", codes=("transposed",) + ("correct",) * (n - 1))]
    lines = reports.table(records, marks.Points(), marks.LateRule()).splitlines()
    assert lines[1].split() == ["student", *EX02_IDS, "points", "percent", "status"]
    scores = ("points", f"{n - 1}/{n}", f"{n}/{n}")  # sorted by name: li, then 张三
    starts = [display_width(line[: line.index(score)]) for line, score in zip(lines[1:], scores)]
    assert len(set(starts)) == 1, lines


def _rows(path):
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))


def _gradebook(tmp_path):
    r = roster.Roster(
        [
            roster.Student(
                "2024001", "2024001", "陈十二", email="chen@example.edu", participant="12345", in_roster=True
            ),
            roster.Student(
                "2024002", "2024002", "Zhang San", canvas_id="4321", login="zs", section="A", in_roster=True
            ),
        ]
    )
    record = _graded("2024001")
    record.student = r.students[0]
    rows, names = reports.gradebook_rows([record], marks.Points(), marks.LateRule(), r, include=["ex06_full_pipeline"])
    return rows, names


def test_gradebook_has_one_row_per_roster_student_with_a_total_out_of_100(tmp_path):
    rows, names = _gradebook(tmp_path)
    assert names == ["ex02_scores", "ex06_full_pipeline"]
    reports.write_gradebook(rows, names, tmp_path / "gradebook.csv")
    table = _rows(tmp_path / "gradebook.csv")
    total = "total (100 × points earned / points possible)"
    header = ["student_id", "name", "email", "ex02_scores", "ex06_full_pipeline", total, "missing", "held_for_review"]
    assert table[0] == header
    # every point of ex02, ex06 not handed in: ex02's share of the total
    share = format(round(100 * len(EX02_IDS) / (len(EX02_IDS) + EX06_POINTS), 1), "g")
    assert table[1] == ["2024001", "陈十二", "chen@example.edu", "100", "", share, "ex06", ""]
    assert table[2] == ["2024002", "Zhang San", "", "", "", "0", "ex02 ex06", ""]


def test_the_total_is_points_earned_over_points_possible_and_the_grader_says_so(english):
    n2, n6 = len(EX02_IDS), EX06_POINTS
    record = _graded("2024001")  # ex02 all right, ex06 not handed in
    rows, names = reports.gradebook_rows([record], marks.Points(), marks.LateRule(), include=["ex06_full_pipeline"])
    assert rows[0].total == pytest.approx(100 * n2 / (n2 + n6))  # not the mean of 100 and 0
    legend = reports.total_legend(names, marks.Points())
    assert reports.TOTAL_COLUMN in legend and "over the points possible" in legend and "counts 0" in legend
    assert f"ex02 {n2}, ex06 {n6}" in legend


def _class_roster():
    return roster.Roster(
        [
            roster.Student("2024005", "2024005", "钱七", email="qianqi@example.edu", section="1班", in_roster=True),
            roster.Student("2024013", "2024013", "卫十五", email="wei15@example.edu", in_roster=True),
        ]
    )


def test_reports_name_students_from_the_roster_of_the_run_and_keep_their_lms_numbers(tmp_path):
    first = _graded("2024005", sha="a", codes=("unscaled",) * len(EX02_IDS))
    first.student = roster.Student("2024005", "2024005", "钱七", participant="12345", in_roster=True)
    again = _graded("2024005", sha="b")  # the resubmission, graded without the roster and not from the LMS
    again.student = roster.Student("2024005", "2024005")
    stranger = _graded("2024099")  # an ID cell the roster does not have
    stranger.student = roster.Student("2024099", "2024099", "刘某某", participant="12399")
    class_roster = _class_roster()
    reported = reports.current([first, again, stranger], class_roster)
    assert [(r.sha256, r.student.name, r.student.email, r.student.participant) for r in reported] == [
        ("b", "钱七", "qianqi@example.edu", "12345"),  # the latest, named by the roster, with the LMS's number
        ("s", "刘某某", "", "12399"),
    ]
    assert [n.code for n in reported[1].notes] == ["completed", "not_in_roster"]
    rows, names = reports.gradebook_rows(reported, marks.Points(), marks.LateRule(), class_roster)
    assert [r.student.key for r in rows] == ["2024005", "2024013", "2024099"]  # the roster's students, then others
    lms, outside = reports.lms_rows(rows, class_roster)
    written = reports.write_moodle(lms, names, tmp_path, "自注意力练习")
    reports.write_canvas(lms, tmp_path, "自注意力练习")
    assert [r[0] for r in _rows(written[0])[1:]] == ["2024005", "2024013"]
    assert [r[0] for r in _rows(written[1])[1:]] == ["Participant 12345"]  # the resubmission keeps its number
    assert [r[2] for r in _rows(tmp_path / "canvas_grades.csv")[2:]] == ["2024005", "2024013"]
    lines = reports.left_out_lines(lms, outside)
    assert len(lines) == 1 and "刘某某 2024099" in lines[0] and "not_in_roster" in lines[0]


def test_no_lms_file_gets_a_row_without_its_identifier(tmp_path, english):
    unnamed = _graded("moodle:12399")  # no roster, no ID cell: only the LMS's name and participant number
    unnamed.student = roster.Student("moodle:12399", name="刘某某", participant="12399")
    numbered = _graded("2024001")
    numbered.student = roster.Student("2024001", "2024001", "陈十二")
    rows, names = reports.gradebook_rows([unnamed, numbered], marks.Points(), marks.LateRule())
    lms, outside = reports.lms_rows(rows)
    assert outside == [] and len(lms) == 2
    written = reports.write_moodle(lms, names, tmp_path, "item")
    canvas = reports.write_canvas(lms, tmp_path, "item")
    assert [r[0] for r in _rows(written[0])[1:]] == ["2024001"]
    assert [r[0] for r in _rows(written[1])[1:]] == ["Participant 12399"]
    assert [r[2] for r in _rows(canvas)[2:]] == ["2024001"]
    for path in (written[0], canvas):
        assert all(any(row[:4]) for row in _rows(path)[1:])
    lines = reports.left_out_lines(lms, outside)
    assert [line.split(" (")[0] for line in lines] == [
        "1 student(s) left out of moodle_grades.csv",
        "1 student(s) left out of canvas_grades.csv",
    ]


def test_a_grading_folder_remembers_its_settings_with_absolute_paths(tmp_path, monkeypatch, english):
    teacher = tmp_path / "teacher"
    (teacher / "resub").mkdir(parents=True)
    (teacher / "名单.csv").write_text("学号,姓名\n2024005,钱七\n", encoding="utf-8-sig")
    monkeypatch.chdir(teacher)
    first = cli.parser().parse_args(
        ["下载的提交.zip", "--out", "批改", "--roster", "名单.csv", "--deadline", "2026-12-08 23:59", "--late", "10"]
    )
    given = [name for name in remembered.REMEMBERED if getattr(first, name) is not None]
    remembered.write(first.out, first, [*given, "lms_item"])
    monkeypatch.chdir(teacher / "resub")  # the re-grade, from another folder
    later = cli.parser().parse_args(["钱七.ipynb", "--out", "../批改", "--late", "none"])
    taken = remembered.take(later, later.out)
    assert sorted(taken) == ["deadline", "roster"]
    assert later.roster == teacher / "名单.csv" and later.roster.is_absolute()
    assert later.late == "none"  # given again: the command line wins
    assert remembered.described(later, taken) == f'--roster {teacher / "名单.csv"}, --deadline "2026-12-08 23:59"'
    (teacher / "名单.csv").unlink()
    with pytest.raises(remembered.SettingsError, match=r"remembers --roster .*名单.csv.* no longer exists"):
        remembered.take(cli.parser().parse_args(["x.ipynb", "--out", "../批改"]), "../批改")
    (teacher / "批改" / "settings.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(remembered.SettingsError, match="cannot be read"):
        remembered.read("../批改")


def test_moodle_files_have_the_columns_its_importers_read(tmp_path):
    rows, names = _gradebook(tmp_path)
    written = reports.write_moodle(rows, names, tmp_path, "自注意力练习")
    gradebook = _rows(written[0])
    # Grade import (CSV): a column to map to useridnumber or useremail, and the grade item's column
    assert gradebook[0] == ["ID number", "Email address", "Full name", "自注意力练习"]
    share = format(round(100 * len(EX02_IDS) / (len(EX02_IDS) + EX06_POINTS), 1), "g")
    assert gradebook[1] == ["2024001", "chen@example.edu", "陈十二", share]
    worksheet = _rows(written[1])
    # the assignment's grading worksheet: importgradeslib.php needs Identifier, Grade, Last modified (grade)
    header = worksheet[0]
    assert {"Identifier", "Grade", "Last modified (grade)"} <= set(header)
    row = dict(zip(header, worksheet[1]))
    assert row["Identifier"] == "Participant 12345" and row["Grade"] == share and row["Maximum Grade"] == "100"
    assert len(worksheet) == 2  # only students whose participant number is known


def test_canvas_file_has_the_header_its_gradebook_importer_accepts(tmp_path):
    rows, _ = _gradebook(tmp_path)
    table = _rows(reports.write_canvas(rows, tmp_path, "Self-attention exercises"))
    header = table[0]
    # gradebook_importer.rb: "Student" then "ID"; SIS User ID then SIS Login ID; "Section" ends the student
    # columns; then the assignments; a row starting "Points Possible" gives their points
    assert "Student" in header[0] and "ID" in header[1] and len(header) > 3
    assert header[2:4] == ["SIS User ID", "SIS Login ID"] and "Section" in header[4]
    assert header[5:] == ["Self-attention exercises"]
    assert table[1][0] == "Points Possible" and table[1][5] == "100"
    assert table[3] == ["Zhang San", "4321", "2024002", "zs", "A", "0"]


# ---------------------------------------------------------------- checking: error carried forward


def test_error_carried_forward_credits_6_4_built_on_a_wrong_6_3():
    d = homework.data("6.3")
    Q, K, V = d.X_new @ d.W_q_new, d.X_new @ d.W_k_new, d.X_new @ d.W_v_new
    S = Q @ K.T / np.sqrt(3)
    wrong_A = np.exp(S) / np.exp(S).sum(axis=0, keepdims=True)  # softmax along the wrong axis
    entries = {"A_x": _entry(wrong_A), "O_x": _entry(wrong_A @ V)}
    got = {r.id: r for r in checking.check_answers("ex06_full_pipeline", entries)}
    assert got["6.3"].code == "softmax_axis"
    assert got["6.4"].code == "carried_forward" and got["6.4"].ok and "6.3" in got["6.4"].message
    entries["O_x"] = _entry(wrong_A.T @ V)  # wrong even for its own 6.3
    assert {r.id: r.code for r in checking.check_answers("ex06_full_pipeline", entries)}["6.4"] != "carried_forward"


def test_per_student_answers_are_checked_against_that_students_data():
    with homework.task_data.student_data("2024001"):
        mine = homework.data("2.2")
    right = _entry(mine.Q_new @ mine.K_new.T)
    assert {r.id: r.code for r in checking.check_answers("ex02_scores", {"QKT_new": right}, data_id="2024001")}[
        "2.2"
    ] == "correct"
    assert {r.id: r.code for r in checking.check_answers("ex02_scores", {"QKT_new": right}, data_id="2024002")}[
        "2.2"
    ] != "correct"


# ---------------------------------------------------------------- checking: a find-the-bug task (registered here)


@pytest.fixture
def function_task(monkeypatch):
    """A find-the-bug task of a made-up exercise: fix softmax so that each row sums to 1. Until the checker has
    such steps, its diagnosis is stood in for by one that compares each returned value with the right one."""
    task = exercises.Task(
        "99.1",
        "ex99_fix",
        var="softmax_rows",
        step="softmax_function",
        title_zh="修好 softmax",
        title_en="Fix softmax",
        inputs=lambda: {},
        given_from=lambda d: {},
        answer_kind="function",
        probe_arguments=lambda rng: [(np.round(rng.normal(size=(3, 4)), 2),) for _ in range(3)],
    )
    monkeypatch.setitem(exercises.EXERCISES, "ex99_fix", exercises.Exercise("ex99_fix", "", "修 bug", "Fix the bug"))
    monkeypatch.setitem(exercises.TASKS, "99.1", task)
    seen = []

    def diagnose(step, answer, **given):
        seen.append(answer)
        if not isinstance(answer, verdicts.FunctionCalls):
            return homework.checker.Diagnosis(False, "wrong_type", "not a function", step)
        for args, result in zip(answer.arguments, answer.results):
            e = np.exp(args[0] - args[0].max(axis=1, keepdims=True))
            if isinstance(result, verdicts.CallFailed) or not np.allclose(result, e / e.sum(axis=1, keepdims=True)):
                return homework.checker.Diagnosis(False, "wrong_values", "a row is off", step)
        return homework.checker.Diagnosis(True, "ok", "fixed", step)

    monkeypatch.setattr(verdicts.checker, "diagnose", diagnose)
    return seen


def test_probes_are_drawn_at_grading_time_and_checked_with_the_graders_own_arguments(function_task):
    first, second = checking.draw_probes("ex99_fix"), checking.draw_probes("ex99_fix")
    assert not np.array_equal(first["softmax_rows"][0][0][0], second["softmax_rows"][0][0][0])
    arguments, encoded = first["softmax_rows"]
    namespace = {"softmax_rows": lambda S: np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)}
    exec(answers.dump_code(["softmax_rows"], {"softmax_rows": encoded}), namespace)
    import json

    entries = json.loads(namespace[answers.RESULT_NAME])
    [result] = checking.check_answers("ex99_fix", entries, first)
    assert result.code == "correct"
    calls = function_task[-1]
    assert calls.arguments is not None and all(a[0] is b[0] for a, b in zip(calls.arguments, arguments))
    namespace["softmax_rows"] = lambda S: np.exp(S) / np.exp(S).sum()  # the bug: normalised over everything
    exec(answers.dump_code(["softmax_rows"], {"softmax_rows": encoded}), namespace)
    [result] = checking.check_answers("ex99_fix", json.loads(namespace[answers.RESULT_NAME]), first)
    assert result.code == "wrong_values"


# ---------------------------------------------------------------- one submission per student and exercise


def test_only_the_latest_submission_of_a_student_is_graded_and_the_others_are_listed():
    from attn_homework.grading import batch

    data = nbformat.writes(handed_out()).encode()
    moodle = collect.LmsName("moodle", "陈十二", participant="12345")
    older = collect.Submission("a/陈十二_12345_assignsubmission_file_/ex02_scores.ipynb", data, 1000.0, moodle)
    newer = collect.Submission("b/陈十二_12345_assignsubmission_file_/ex02_v2.ipynb", data + b" ", 2000.0, moodle)
    other = collect.Submission("b/zhang_ex02.ipynb", data, 1500.0)
    jobs, ready, skipped, reused = batch.Batch(batch.Settings(), results.Store()).prepare([newer, older, other])
    assert sorted(j.submission.label for j in jobs) == sorted([newer.label, other.label])
    assert [(s.label, s.reason, s.detail) for s in skipped] == [(older.label, "superseded", newer.label)]
    assert ready == [] and reused == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the inherited peak is a Linux quirk")
def test_the_reported_memory_peak_is_the_graders_own_not_that_of_the_process_that_started_it():
    """A 400 MiB parent (a long pytest run, a teacher's notebook) must not show up as the grader's memory."""
    parent = bytearray(400 << 20)
    parent[:: 1 << 12] = b"\1" * len(parent[:: 1 << 12])  # touch every page: it is resident
    code = "from attn_homework.grading.worker import peak_memory_mib; print(peak_memory_mib())"
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 0 < int(child.stdout) < 200, child.stdout
    del parent


def _roster():
    return roster.Roster(
        [
            roster.Student("2024008", "2024008", "吴十", in_roster=True),
            roster.Student("2024006", "2024006", "孙八", in_roster=True),
            roster.Student("2024012", "2024012", "褚十四", in_roster=True),
        ]
    )


def test_a_file_that_cannot_be_graded_is_its_students_status_not_missing(tmp_path):
    """Too large, a broken zip or a web page in a student's LMS folder: that student's row says why (and the
    feedback page too); a file no one can be found for stays a skipped file."""
    from attn_homework.grading import batch, feedback

    moodle = "下载的提交.zip/{}_assignsubmission_file_/{}"
    big = collect.Submission(
        moodle.format("吴十_12348", "ex06_full_pipeline.ipynb"),
        b"",
        1000.0,
        collect.lms_name(moodle.format("吴十_12348", "x")),
        "s1",
        "too_large",
        "300.0 MiB",
    )
    skipped = [
        collect.Skipped(moodle.format("孙八_12346", "ex06_full_pipeline.html"), "not_notebook", ".html"),
        collect.Skipped(moodle.format("褚十四_12352", "作业.zip"), "bad_zip", "BadZipFile"),
        collect.Skipped(moodle.format("孙八_12346", "report.pdf"), "not_notebook", ".pdf"),  # names no exercise
        collect.Skipped("other.zip", "bad_zip", "BadZipFile"),  # no one's
    ]
    settings = batch.Settings(roster=_roster())
    jobs, ready, left, _ = batch.Batch(settings, results.Store()).prepare([big], skipped)
    assert jobs == [] and [s.label for s in left] == [skipped[2].label, skipped[3].label]
    by_student = {r.student.name: r for r in ready}
    assert (by_student["吴十"].notes[0].code, by_student["吴十"].exercise) == ("too_large", "ex06_full_pipeline")
    assert (by_student["孙八"].notes[0].code, by_student["孙八"].exercise) == ("unreadable", "ex06_full_pipeline")
    assert (by_student["褚十四"].notes[0].code, by_student["褚十四"].exercise) == ("unreadable", None)

    reports.write_submissions(ready, tmp_path / "submissions.csv", marks.Points(), marks.LateRule())
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO((tmp_path / "submissions.csv").read_text("utf-8-sig")))}
    assert (rows["吴十"]["status"], rows["吴十"]["details"]) == ("too_large", "too_large: 300.0 MiB")
    assert rows["孙八"]["details"] == "unreadable: not_notebook:.html" and rows["褚十四"]["status"] == "unreadable"
    rows_, names = reports.gradebook_rows(ready, marks.Points(), marks.LateRule(), settings.roster)
    gradebook = {row.student.name: row for row in rows_}
    assert gradebook["吴十"].missing == [] and gradebook["吴十"].finals == {"ex06_full_pipeline": 0.0}

    pages = {
        p.stem: p.read_text(encoding="utf-8")
        for p in feedback.write(ready, tmp_path, marks.Points(), marks.LateRule()).values()
    }
    page = pages["2024008_ex06_full_pipeline"]
    assert "文件太大，没有批改（300.0 MiB）" in page and "256 MiB" in page and "20 MiB" in page
    assert "没有批改：这份文件没能运行" in page and "检查变量名" not in page
    assert "不是笔记本（.html）" in pages["2024006_ex06_full_pipeline"]
    assert reports.note_text(by_student["褚十四"].notes[0]) == "无法读取的文件：zip 文件无法读取（BadZipFile）"


def test_a_gradable_submission_wins_over_a_newer_one_that_cannot_be_graded():
    from attn_homework.grading import batch

    moodle = collect.LmsName("moodle", "吴十", participant="12348")
    good = collect.Submission("吴十_12348_assignsubmission_file_/ex02_scores.ipynb", _nb_bytes(), 1000.0, moodle)
    big = collect.Submission(
        "吴十_12348_assignsubmission_file_/ex02_scores (1).ipynb", b"", 2000.0, moodle, "s", "too_large", "300.0 MiB"
    )
    html = collect.Skipped("吴十_12348_assignsubmission_file_/ex02_scores.html", "not_notebook", ".html")
    jobs, ready, skipped, _ = batch.Batch(batch.Settings(roster=_roster()), results.Store()).prepare(
        [big, good], [html]
    )
    assert [j.submission for j in jobs] == [good] and ready == []
    assert {(s.label, s.reason, s.detail, reports.skip_text(s)) for s in skipped} == {
        (html.label, "not_notebook", ".html", "不是笔记本（.html）"),  # listed as collect found it
        (big.label, "too_large", "300.0 MiB", "文件太大（300.0 MiB）"),
    }


# ---------------------------------------------------------------- a cell that raised before its answer


def test_a_task_whose_answer_cell_raised_is_a_cell_error_not_unattempted(tmp_path):
    """6.2's answer cell raised before ``O_new = …``: the table, submissions.csv and the feedback page name
    that cell and the exception (in the submission's language); a task left as handed out stays ⏳."""
    from attn_homework.grading import batch, feedback

    from .submissions import fill

    nb = fill(
        handed_out("ex06_full_pipeline"),
        {"6.2": 'raise ValueError("shapes (5,2) and (5,3)")\nO_new = 1'},
        "ex06_full_pipeline",
    )
    number = next(i for i, c in enumerate(nb.cells, start=1) if "raise ValueError" in c.source)
    assert reading.binding_cells(nb, ["O_new", "O"])["O_new"] == [number]
    for edition, words in (
        ("zh", f"第 {number} 格运行时出错停下了（ValueError: shapes (5,2) and (5,3)），O_new 没有算出来"),
        ("en", f"cell {number} stopped with an error (ValueError: shapes (5,2) and (5,3)) before O_new"),
    ):
        submission = collect.Submission(f"li_ex06_{edition}.ipynb", nbformat.writes(nb).encode(), 1000.0)
        job = batch._Job(submission, reading.read(submission), roster.Student("li", name="li"), "s", None, {}, [])
        job.reading.edition = edition
        events = [
            {"event": "error", "cell": number, "ename": "ValueError", "evalue": "shapes (5,2) and (5,3)"},
            {"event": "answers", "answers": {}},
            {"event": "done"},
        ]
        record = batch.Batch(batch.Settings(), results.Store())._record(job, events, "", 1.0, "")
        got = {t.id: t for t in record.tasks}
        assert (got["6.2"].code, got["6.2"].cell, got["6.2"].ok) == ("cell_error", number, False)
        assert words in got["6.2"].message
        assert got["6.1"].code == "not_attempted"  # untouched: still ⏳
        assert (
            got["6.2"].to_json()["cell"] == number and results.Graded.from_json(record.to_json()).tasks[1] == got["6.2"]
        )
        reports.write_submissions([record], tmp_path / "s.csv", marks.Points(), marks.LateRule())
        assert (
            list(csv.DictReader(io.StringIO((tmp_path / "s.csv").read_text("utf-8-sig"))))[0]["6.2"]
            == f"cell_error({number})"
        )
        assert f"cell_error({number})" in reports.table([record], marks.Points(), marks.LateRule())
        page = feedback.page(record, marks.Points(), marks.LateRule())
        row = page[page.index(">6.2<") :].split("</tr>")[0]
        assert "❌" in page[page.rindex("<tr>", 0, page.index(">6.2<")) : page.index(">6.2<")] and words in row


def test_an_answer_cell_that_kept_the_placeholder_and_then_raised_is_a_cell_error(tmp_path):
    """The class trial's 2026024: ``QKT_new = ...`` as handed out, then ``QKT_new = Q_new @ K_new`` raised.
    The variable exists (it is the placeholder), but the cell raised: cell_error(N), not ⏳ "replace the ..."."""
    from attn_homework.grading import batch

    from .submissions import fill

    nb = fill(handed_out("ex02_scores"), {"2.2": "QKT_new = ...\nQKT_new = Q_new @ K_new"}, "ex02_scores")
    number = next(i for i, c in enumerate(nb.cells, start=1) if "Q_new @ K_new" in c.source)
    submission = collect.Submission("kong_ex02.ipynb", nbformat.writes(nb).encode(), 1000.0)
    job = batch._Job(submission, reading.read(submission), roster.Student("kong", name="kong"), "s", None, {}, [])
    events = [
        {
            "event": "error",
            "cell": number,
            "ename": "ValueError",
            "evalue": "matmul: mismatch (size 5 is different from 4)",
        },
        {"event": "answers", "answers": {"QKT_new": {"kind": "ellipsis"}}},
        {"event": "done"},
    ]
    record = batch.Batch(batch.Settings(), results.Store())._record(job, events, "", 1.0, "")
    got = {t.id: t for t in record.tasks}
    assert (got["2.2"].code, got["2.2"].cell, got["2.2"].csv_text) == ("cell_error", number, f"cell_error({number})")
    assert "ValueError" in got["2.2"].message and "..." not in got["2.2"].message.split("ValueError")[0][-3:]


# ---------------------------------------------------------------- the notebook's own check, on error carried forward


def test_the_notebooks_check_says_when_6_4_is_right_for_a_wrong_6_3():
    """The grader credits 6.4 (✓*); the notebook's check still says ❌, but why, in its language, and only
    when 6.4 is right for the student's own wrong A_x."""
    from attn_core.lang import set_lang

    d = homework.data("6.3")
    Q, K, V = d.X_new @ d.W_q_new, d.X_new @ d.W_k_new, d.X_new @ d.W_v_new
    S = Q @ K.T / np.sqrt(3)
    wrong_A = np.exp(S) / np.exp(S).sum(axis=0, keepdims=True)
    right_A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)

    def checked(A_x, O_x, code='homework.check("6.4")'):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(code, {"homework": homework, "A_x": A_x, "O_x": O_x})
        return out.getvalue()

    carried = checked(wrong_A, wrong_A @ V)
    assert (
        carried.startswith("❌ 6.4 · ") and "按你在 6.3 里自己算的 A_x 是对的，但 6.3 本身不对：先改好 6.3" in carried
    )
    assert "6.4 · O_x 按你在 6.3" in checked(wrong_A, wrong_A @ V, 'homework.progress("ex06_full_pipeline")')
    for A_x, O_x in ((wrong_A, wrong_A.T @ V), (right_A, wrong_A @ V), (wrong_A, homework.MISSING)):  # no evidence
        assert "6.3 本身不对" not in checked(A_x, O_x)
    assert checked(right_A, right_A @ V).startswith("✅")
    entries = {"A_x": _entry(wrong_A), "O_x": _entry(wrong_A @ V)}  # the grader, on the same evidence: ✓*
    assert {r.id: r.code for r in checking.check_answers("ex06_full_pipeline", entries)}["6.4"] == "carried_forward"
    set_lang("en")
    try:
        assert "O_x is right for your own A_x from 6.3, which is wrong: fix 6.3 first" in checked(wrong_A, wrong_A @ V)
    finally:
        set_lang("zh")


def test_marks_are_rounded_as_a_teacher_rounds():
    """4.5 of 8 points is 56.25 %: written 56.3, as by hand (Python's own rounding gives 56.2)."""
    assert [marks.rounded(x) for x in (56.25, 0.15, 62.5, 100.0, 99.96, -0.0)] == [
        "56.3",
        "0.2",
        "62.5",
        "100",
        "100",
        "0",
    ]


def _strip_with_json(nb):
    """What ``collect.without_outputs`` must give, computed with the JSON parser."""
    nb = copy.deepcopy(nb)
    for cell in nb.get("cells", []) if isinstance(nb, dict) else []:
        if isinstance(cell, dict):
            if "outputs" in cell:
                cell["outputs"] = [] if isinstance(cell["outputs"], list) else {}
            if "attachments" in cell:
                cell["attachments"] = {} if isinstance(cell["attachments"], dict) else []
    return nb


_json_text = st.text(alphabet=st.sampled_from(list('ab"\\]}[{:, \n→学') + ["\u2028", "\x00"]), max_size=8)
_json_leaf = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | _json_text
_json_key = st.sampled_from(["outputs", "attachments", "source", "cells", "x", '"]', "text"])
_json_value = st.recursive(
    _json_leaf,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["outputs", "attachments", "source", "cells", "x", '"]', "text"]), inner, max_size=3
        )
    ),
    max_leaves=12,
)
_cell = st.fixed_dictionaries(
    {"cell_type": st.sampled_from(["code", "markdown"]), "source": _json_text},
    optional={
        "outputs": st.lists(_json_value, max_size=3),
        "attachments": st.dictionaries(_json_text, _json_value, max_size=2),
        "metadata": _json_value,
    },
)


@settings(max_examples=300, deadline=None)
@given(
    cells=st.lists(_cell, max_size=4),
    metadata=_json_value,
    indent=st.sampled_from([None, 1, 2]),
    ascii_only=st.booleans(),
)
def test_dropping_outputs_agrees_with_the_json_parser_on_any_notebook(cells, metadata, indent, ascii_only):
    nb = {"metadata": metadata, "cells": cells, "nbformat": 4}
    raw = json.dumps(nb, indent=indent, ensure_ascii=ascii_only).encode()
    assert json.loads(collect.without_outputs(raw)) == _strip_with_json(nb)


def test_dropping_outputs_agrees_with_the_json_parser_on_every_committed_notebook():
    for path in sorted(Path(__file__).resolve().parent.parent.glob("notebooks/**/*.ipynb")):
        raw = path.read_bytes()
        assert json.loads(collect.without_outputs(raw)) == _strip_with_json(json.loads(raw)), path


# ---------------------------------------------------------------- another student's numbers pasted in


def _array_entry(value):
    value = np.asarray(value, dtype=float)
    return {"kind": "array", "dtype": "float64", "shape": list(value.shape), "data": value.tolist()}


def test_one_task_with_another_students_numbers_is_held_though_the_rest_is_right():
    """The class trial's 2026010: every task done on the own data, but 2.2 is 2026013's numbers pasted in.
    Counting whole submissions missed it (the other tasks are wrong on 2026013's data); task by task it is
    ``other_students_data``, naming 2026013 and the task."""
    import attn_homework as homework
    from attn_homework.grading import checking, selection
    from attn_homework.task_data import student_data

    r = roster.Roster([roster.Student(k, k, k, in_roster=True) for k in ("2026010", "2026011", "2026013")])
    with student_data("2026010"):
        Q, K = homework.data("2.1")
    with student_data("2026013"):
        Q_new, K_new = homework.data("2.2")
    answers = {"QKT": _array_entry(Q @ K.T), "QKT_new": _array_entry(Q_new @ K_new.T)}
    own = checking.check_answers("ex02_scores", answers, {}, "2026010", "en")
    assert own[0].ok and not own[1].ok
    note = selection.other_students_data("ex02_scores", answers, {}, "2026010", "en", r, own)
    assert note is not None and note.code == "other_students_data" and note.detail == "2026013: 2.2"
    honest = {"QKT": _array_entry(Q @ K.T)}  # a wrong or missing answer that fits no one: nothing said
    own = checking.check_answers("ex02_scores", honest, {}, "2026010", "en")
    assert selection.other_students_data("ex02_scores", honest, {}, "2026010", "en", r, own) is None


def test_a_prediction_line_cut_by_the_readers_chunk_border_is_still_found(tmp_path):
    """The grader reads a notebook a chunk at a time (its memory stays flat): a 📌 line that straddles two
    chunks is the student's prediction all the same."""
    for cut in (3, 10, 20):
        data = b"x" * (collect.CHUNK - cut) + '"📌 top_key = 3 · shown"'.encode()
        path = tmp_path / f"split{cut}.ipynb"
        path.write_bytes(data)
        with open(path, "rb") as f:
            assert collect._read_notebook_file(f, len(data))[4] == ("📌 top_key = 3 ·",)


# ---------------------------------------------------------------- an untouched per-student notebook


@pytest.mark.parametrize("edition", ["zh", "en"])
def test_only_the_data_cells_wanting_the_id_raised_and_nothing_answered_is_blank(edition):
    """An untouched per-student notebook: its data cells raise for want of the student number and no task
    is attempted, so it is ``blank`` (with ``no_student_id``), not ``runtime_error``; its tasks say what an
    unanswered task says. The same error with a task attempted, another error, or the same words raised in
    a notebook that has its number stay ``runtime_error``."""
    from attn_homework.grading import batch

    nb = handed_out("ex02_scores", edition)
    submission = collect.Submission(f"wu_ex02_{edition}.ipynb", nbformat.writes(nb).encode(), 1000.0)
    wanting = msg.text("student_id_needed", edition)
    data_cells = [i for i, c in enumerate(nb.cells, start=1) if re.search(r'homework\.data\("2\.[23]"\)', c.source)]
    assert len(data_cells) == 2  # the cells that draw the fresh data (they raise without the number)

    def record(evalue=wanting, answers=None, has_id=False, ename="ValueError"):
        job_notes = [] if has_id else [results.Note("no_student_id")]
        student = roster.Student("wu", name="wu")
        job = batch._Job(submission, reading.read(submission), student, "s", None, {}, job_notes)
        job.reading.edition = edition
        events = [{"event": "error", "cell": cell, "ename": ename, "evalue": evalue} for cell in data_cells]
        events += [
            {"event": "note", "code": "runtime_error", "cells": data_cells, "detail": f"{ename}: {evalue}"},
            {"event": "answers", "answers": answers or {}},
            {"event": "done"},
        ]
        return batch.Batch(batch.Settings(), results.Store())._record(job, events, "", 1.0, "")

    untouched = record()
    assert [n.code for n in untouched.notes] == ["blank", "no_student_id"]
    unanswered = checking.check_answers("ex02_scores", {}, edition=edition)
    assert [(t.code, t.message) for t in untouched.tasks] == [(t.code, t.message) for t in unanswered]
    assert {t.code for t in untouched.tasks} == {"not_attempted"}
    assert record(answers={"QKT": {"kind": "ellipsis"}}).notes[0].code == "blank"
    assert record(answers={"QKT": _entry(np.zeros((4, 4)))}).notes[0].code == "runtime_error"
    assert record(evalue="shapes (4,3) and (4,3) not aligned").notes[0].code == "runtime_error"
    assert record(ename="RuntimeError").notes[0].code == "runtime_error"
    assert record(has_id=True).notes[0].code == "runtime_error"
