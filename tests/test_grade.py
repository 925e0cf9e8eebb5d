"""The grader on folders of crafted submissions, run as a teacher runs it (the command, in a subprocess).

Batch 1 is the class of the grader issue: honest submissions in both editions around every hostile case
(a flood of output, a neighbour's file overwritten, an orphan process, a 4 GiB allocation, a submission that
kills its parent) and the careless ones (a crash, a hang, a syntax error, an answer cell that raises, a blank
notebook, a deleted cell, corrupt JSON, a notebook saved with 30 MiB of printed output), graded with the
defaults (the bubblewrap sandbox where the machine has it; see test_sandbox.py) and ``--jobs 2``.
Batch 2 grades the same kinds of attack with write confinement off (``--no-confine``), so that the grader's
own defences are what is tested: every notebook read before any ran, the worker's death, the watchdog's
memory count over several processes. Each asserts that every honest submission keeps full marks and that
the batch ends with a complete table and CSV.
"""

import csv
import json
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import nbformat
import pytest

from attn_homework.grading.reports import TOTAL_COLUMN

from .repo import ROOT, TEACHER_DIR
from .submissions import EX02, EX02_IDS, FLOOD, HOG, ORPHAN, PARENT_KILLER, TAMPER, cell_number, percent, submission
from .test_sandbox import needs_sandbox

pytestmark = pytest.mark.kernel  # every submission runs in a kernel of its own

TIMEOUT = 10  # seconds per notebook; imports take about 1 s here
ORPHAN_MARKER = "31877"  # `sleep 31877`: a process no one else starts


def grade(*args, cwd=ROOT):
    return subprocess.run(
        [sys.executable, "-m", "attn_homework.grade", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=cwd,
    )


def rows_of(path):
    with open(path, encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))


def by_file(rows):
    return {Path(r["file"]).name.removesuffix("_ex02.ipynb"): r for r in rows}


def processes_with(marker):
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if cmdline[:2] == [b"sleep", marker.encode()]:
            found.append(int(pid))
    return found


# ---------------------------------------------------------------- batch 1: the defaults


@pytest.fixture(scope="module")
def batch1(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    victim = folder / "z_victim_ex02.ipynb"
    subs = {
        "a_tamper": submission(EX02, extra=[(3, TAMPER.format(path=str(victim)))]),
        "honest_zh": submission(EX02),
        "honest_en": submission(EX02, edition="en"),
        "z_victim": submission(EX02),
        "flood": submission(EX02, extra=[(6, FLOOD)]),
        "orphan": submission(EX02, extra=[(3, ORPHAN.format(marker=ORPHAN_MARKER))]),
        "hog": submission(EX02, extra=[(3, HOG)]),
        "killer": submission(EX02, extra=[(6, PARENT_KILLER)]),
        "crash": submission({"2.1": EX02["2.1"], "2.2": "import os\nos._exit(1)"}),
        "loop": submission({"2.1": EX02["2.1"], "2.2": "while True:\n    pass"}),
        "syntax": submission({"2.1": EX02["2.1"], "2.2": "QKT_new = (Q_new @ K_new.T"}),
        "blank": submission({}),
        "partly": submission({**EX02, "2.2": "QKT_new = K_new @ Q_new.T"}, drop_markdown=1),
        "raises": submission({**EX02, "2.2": "raise ValueError('matmul: size 5 is different from 2')\nQKT_new = 0"}),
        "saved_output": submission(EX02),
    }
    for key, nb in subs.items():
        nbformat.write(nb, folder / f"{key}_ex02.ipynb")
    saved = subs["saved_output"]  # a student printed a lot and saved: 30 MiB, over the old 20 MiB limit
    line = "调试输出" * 25 + " 0123456789\n"
    code = next(c for c in saved.cells if c.cell_type == "code")
    code.outputs = [{"output_type": "stream", "name": "stdout", "text": [line] * (30 * 2**20 // 120)}]
    with open(folder / "saved_output_ex02.ipynb", "w", encoding="utf-8") as f:
        json.dump(saved, f, ensure_ascii=False)  # (nbformat.write would validate every line: slow)
    (folder / "corrupt_ex02.ipynb").write_text('{"cells": [ this is not JSON', encoding="utf-8")
    (folder / "notes.txt").write_text("not a notebook", encoding="utf-8")
    out = folder.parent / "grading"
    run = grade(folder, "--out", out, "--timeout", TIMEOUT, "--jobs", 2, "--lang", "zh")
    return run, out, subs, folder


def test_batch1_ends_with_a_complete_table_and_csv(batch1):
    run, out, subs, _ = batch1
    assert run.returncode == 0, run.stderr
    rows = by_file(rows_of(out / "submissions.csv"))
    assert set(rows) == set(subs) | {"corrupt"}
    table = run.stdout.split("\n\n")[0].splitlines()
    assert table[0].startswith("ex02_scores")
    assert table[1].split() == ["学生", *EX02_IDS, "得分", "百分制", "状态"]
    assert len(table) == 2 + len(subs) + 1
    assert "notes.txt: 不是笔记本（.txt）" in run.stderr


@pytest.mark.parametrize("key", ["honest_zh", "honest_en", "z_victim", "a_tamper", "orphan"])
def test_honest_answers_keep_full_marks_whatever_a_neighbour_does(batch1, key):
    row = by_file(rows_of(batch1[1] / "submissions.csv"))[key]
    assert (row["2.1"], row["2.2"], row["percent"]) == ("correct", "correct", "100")


def test_each_edition_is_compared_with_its_own_handout(batch1):
    rows = by_file(rows_of(batch1[1] / "submissions.csv"))
    assert rows["honest_zh"]["status"] == rows["honest_en"]["status"] == "completed"
    assert rows["honest_en"]["edition"] == "en"


def test_a_flood_of_output_leaves_the_grader_flat(batch1):
    run, out, subs, _ = batch1
    row = by_file(rows_of(out / "submissions.csv"))["flood"]
    assert row["2.1"] == "correct"  # answered before it flooded; printing may outlast its time (a timeout)
    assert row["status"] in ("completed", f"timeout({cell_number(subs['flood'], 'print(line)')})")
    own, worker = map(int, re.search(r"内存峰值：(\d+) MiB；单个批改进程最多 (\d+) MiB", run.stderr).groups())
    assert own < 300 and worker < 200, (own, worker)  # the flooding kernel itself printed ~200 MB


@needs_sandbox
def test_the_tamperer_cannot_write_into_the_submissions_folder(batch1):
    _, out, subs, folder = batch1
    row = by_file(rows_of(out / "submissions.csv"))["a_tamper"]
    # sandboxed, the submissions folder does not exist for its kernel: the attempt is an error in its own notebook
    cell = cell_number(subs["a_tamper"], "not a notebook any more")
    assert row["status"] == f"runtime_error({cell})" and "FileNotFoundError" in row["details"], row
    assert nbformat.read(folder / "z_victim_ex02.ipynb", as_version=4)


def test_no_process_outlives_the_batch(batch1):
    assert processes_with(ORPHAN_MARKER) == []
    assert by_file(rows_of(batch1[1] / "submissions.csv"))["orphan"]["status"] == "completed"


def test_a_memory_hog_is_stopped_and_keeps_what_it_answered(batch1):
    row = by_file(rows_of(batch1[1] / "submissions.csv"))["hog"]
    assert row["status"] == f"memory_limit({cell_number(batch1[2]['hog'], 'np.ones')})"
    assert (row["2.1"], row["2.2"]) == ("correct", "correct")


@needs_sandbox
def test_a_parent_killer_costs_only_itself(batch1):
    _, out, _, _ = batch1
    row = by_file(rows_of(out / "submissions.csv"))["killer"]
    # sandboxed, its parent is the first process of its own PID namespace, which ignores the signal: the
    # worker lives on and the cells after it run (without the sandbox: worker_died, or Landlock's PermissionError)
    assert row["status"] == "completed", row
    assert (row["2.1"], row["2.2"]) == ("correct", "correct")


def test_answers_given_before_a_crash_or_a_hang_count(batch1):
    rows = by_file(rows_of(batch1[1] / "submissions.csv"))
    subs = batch1[2]
    assert rows["crash"]["status"] == f"crashed({cell_number(subs['crash'], 'os._exit')})"
    assert rows["loop"]["status"] == f"timeout({cell_number(subs['loop'], 'while True')})"
    for key in ("crash", "loop"):
        assert (rows[key]["2.1"], rows[key]["2.2"], rows[key]["percent"]) == ("correct", "not_attempted", percent(1))


def test_statuses_say_what_happened(batch1):
    rows = by_file(rows_of(batch1[1] / "submissions.csv"))
    assert rows["syntax"]["status"] == f"syntax_error({cell_number(batch1[2]['syntax'], 'QKT_new = (')})"
    assert rows["blank"]["status"] == "blank"
    assert rows["corrupt"]["status"] == "unreadable" and rows["corrupt"]["possible"] == str(len(EX02_IDS))
    partly = rows["partly"]
    assert (partly["2.1"], partly["2.2"]) == ("correct", "transposed")
    # the deleted markdown cell is named by its number in the handed-out notebook
    assert re.fullmatch(r"completed; cells_changed\(\d+\)", partly["status"]), partly["status"]
    assert re.search(r"cells_changed: \d+ deleted", partly["details"])


def test_a_notebook_saved_with_a_lot_of_output_is_graded_without_it(batch1):
    run, out, _, folder = batch1
    assert (folder / "saved_output_ex02.ipynb").stat().st_size > 30 << 20
    row = by_file(rows_of(out / "submissions.csv"))["saved_output"]
    assert (row["status"], row["percent"]) == ("completed", "100")
    assert "saved_output_ex02.ipynb" not in run.stderr.split("跳过了")[-1]


def test_an_answer_cell_that_raised_is_a_cell_error_with_its_cell_and_exception(batch1):
    run, out, subs, _ = batch1
    cell = cell_number(subs["raises"], "raise ValueError")
    row = by_file(rows_of(out / "submissions.csv"))["raises"]
    assert row["status"] == f"runtime_error({cell})" and (row["2.1"], row["2.2"]) == ("correct", f"cell_error({cell})")
    assert (
        rows_of(out / "submissions.csv")
        and by_file(rows_of(out / "submissions.csv"))["blank"]["2.2"] == "not_attempted"
    )
    page = (out / "feedback" / "raises_ex02_scores.html").read_text(encoding="utf-8")
    assert f"第 {cell} 格运行时出错停下了（ValueError: matmul: size 5 is different from 2），QKT_new 没有算出来" in page
    assert "检查变量名是不是正好写成 QKT_new" not in page


def test_chinese_output_has_no_english_words_of_the_grader(batch1):
    run = batch1[0]
    limits = run.stderr.splitlines()[0]
    assert limits.startswith("每份提交：") and not re.search(r"[a-z]{3,} [a-z]{3,}", limits), limits
    corrupt = next(line for line in run.stderr.splitlines() if "corrupt" in line)
    assert "无法读取的文件：不是 JSON" in corrupt, corrupt


def test_feedback_pages_follow_the_edition_and_never_give_the_answer(batch1):
    out = batch1[1]
    pages = {
        p.name.removesuffix("_ex02_scores.html"): p.read_text(encoding="utf-8") for p in (out / "feedback").iterdir()
    }
    assert set(pages) == set(batch1[2]) | {"corrupt"}
    n = len(EX02_IDS)
    assert 'lang="en"' in pages["honest_en"] and f"Mark: {n} / {n}" in pages["honest_en"]
    assert 'lang="zh-CN"' in pages["partly"] and f"得分：{n - 1} / {n}" in pages["partly"]
    assert "✅" in pages["partly"] and "❌" in pages["partly"] and "行列颠倒" not in pages["honest_zh"]
    assert "超时（第" in pages["loop"] and "⏳" in pages["loop"]
    import attn_homework as homework

    right = homework.data("2.2").Q_new @ homework.data("2.2").K_new.T
    numbers = {f"{x:.2f}" for x in right.ravel()} | {f"{x:.3f}" for x in right.ravel()}
    assert not [n for n in numbers if n in pages["partly"]], "a feedback page must never show the expected numbers"


def test_gradebook_and_lms_files_for_the_batch(batch1):
    out = batch1[1]
    gradebook = rows_of(out / "gradebook.csv")
    assert len(gradebook) == len(batch1[2]) + 1  # one row per student
    assert {r["name"]: r[TOTAL_COLUMN] for r in gradebook}["partly"] == percent(len(EX02_IDS) - 1)
    # no roster and no ID cell: no student number to match on, so no row in the LMS files, and the grader says so
    assert (
        rows_of(out / "moodle_grades.csv") == []
        and rows_of(out / "canvas_grades.csv")[0]["Student"] == "Points Possible"
    )
    assert "moodle_grades.csv 里没有写" in batch1[0].stderr


def test_a_rerun_skips_what_is_graded_and_a_regrade_changes_one_row(batch1, tmp_path):
    _, out, _, folder = batch1
    before = (out / "gradebook.csv").read_text(encoding="utf-8-sig").splitlines()
    again = grade(folder / "blank_ex02.ipynb", "--out", out, "--lang", "en")
    assert again.returncode == 0 and "were graded before" in again.stderr and "0 submission(s) graded" in again.stderr
    redone = tmp_path / "blank_ex02.ipynb"  # the same student hands in a finished notebook
    nbformat.write(submission(EX02), redone)
    regrade = grade(redone, "--out", out, "--timeout", TIMEOUT, "--lang", "en")
    assert regrade.returncode == 0, regrade.stderr
    after = (out / "gradebook.csv").read_text(encoding="utf-8-sig").splitlines()
    changed = [(b, a) for b, a in zip(before, after) if b != a]
    assert len(after) == len(before) and len(changed) == 1, changed
    assert changed[0][1].startswith(",blank,,100,100")
    records = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(records) == len(batch1[2]) + 2  # every grading is kept; the latest per student is reported


# ---------------------------------------------------------------- the teacher's cycle: grade, then re-grade one


def _lines(path):
    return path.read_text(encoding="utf-8-sig").splitlines()


def test_a_regrade_as_the_readme_writes_it_keeps_the_settings_of_the_first_run(tmp_path):
    """A Moodle download with a roster, a deadline and a late rule; then the README's re-grade line for one
    resubmission, with none of those options, run from the teacher's folder and again from another one."""
    teacher = tmp_path / "teacher"
    download = teacher / "moodle"
    late = download / "陈十二_12350_assignsubmission_file_" / "ex02_scores.ipynb"
    broken = download / "钱七_12345_assignsubmission_file_" / "ex02_scores.ipynb"
    stranger = download / "刘某某_12399_assignsubmission_file_" / "ex02_scores.ipynb"  # not in the roster
    resubmitted = teacher / "resub" / "钱七.ipynb"  # sent by e-mail: no LMS folder around it
    for path in (late, broken, stranger, resubmitted):
        path.parent.mkdir(parents=True)
    nbformat.write(submission(EX02), late)
    nbformat.write(submission(EX02), resubmitted)
    for path in (broken, stranger):
        path.write_text('{"cells": [ cut short', encoding="utf-8")  # unreadable: graded without a kernel
    deadline = datetime(2026, 12, 8, 23, 59)
    for path, when in ((late, deadline + timedelta(hours=10)), (resubmitted, deadline - timedelta(days=1))):
        os.utime(path, (when.timestamp(), when.timestamp()))
    (teacher / "名单.csv").write_text(
        "学号,姓名,邮箱,班级\n2024010,陈十二,chen12@example.edu,2班\n2024005,钱七,qianqi@example.edu,1班\n"
        "2024013,卫十五,wei15@example.edu,3班\n",
        encoding="utf-8-sig",
    )
    first = grade(
        *("moodle", "--out", "批改", "--roster", "名单.csv", "--teacher-dir", TEACHER_DIR, "--lms-item", "第一周"),
        *("--deadline", "2026-12-08 23:59", "--late", "10", "--timeout", TIMEOUT, "--lang", "zh"),
        cwd=teacher,
    )
    assert first.returncode == 0, first.stderr
    out = teacher / "批改"
    before = _lines(out / "gradebook.csv")
    assert before[1:] == [
        "2024010,陈十二,chen12@example.edu,90,90,,",  # a day late: 100 - 10
        "2024005,钱七,qianqi@example.edu,0,0,,",
        "2024013,卫十五,wei15@example.edu,,0,ex02,",
        ",刘某某,,0,0,,",
    ]
    left_out = "名单外的 1 位学生没有写进 moodle_grades.csv、moodle_worksheet.csv 和 canvas_grades.csv（刘某某）"
    assert left_out in first.stderr

    regrade = grade("resub/钱七.ipynb", "--out", "批改/", cwd=teacher)  # README: re-grade one student
    assert regrade.returncode == 0, regrade.stderr
    remembered = next(line for line in regrade.stderr.splitlines() if line.startswith("沿用上次批改"))
    for option in ("--roster", "--teacher-dir", "--deadline", "--late 10", "--lms-item 第一周", "--lang zh"):
        assert option in remembered
    after = _lines(out / "gradebook.csv")
    changed = [(b, a) for b, a in zip(before, after) if b != a]
    assert len(after) == len(before) and changed == [(before[2], "2024005,钱七,qianqi@example.edu,100,100,,")]
    assert left_out in regrade.stderr
    page = (out / "feedback" / "2024010_ex02_scores.html").read_text(encoding="utf-8")
    assert "按迟交规则记 90 分" in page

    moodle = rows_of(out / "moodle_grades.csv")
    assert [(r["ID number"], r["Email address"], r["第一周"]) for r in moodle] == [
        ("2024010", "chen12@example.edu", "90"),
        ("2024005", "qianqi@example.edu", "100"),
        ("2024013", "wei15@example.edu", "0"),
    ]
    worksheet = [(r["Identifier"], r["Grade"]) for r in rows_of(out / "moodle_worksheet.csv")]
    assert worksheet == [("Participant 12350", "90"), ("Participant 12345", "100")]  # the resubmission stays
    assert [r["SIS User ID"] for r in rows_of(out / "canvas_grades.csv")] == ["", "2024010", "2024005", "2024013"]
    statuses = {r["name"]: r["status"] for r in rows_of(out / "submissions.csv")}
    assert statuses["刘某某"] == "unreadable; not_in_roster" and statuses["钱七"] == "completed"

    elsewhere = tmp_path / "elsewhere"  # the same line from another folder: the remembered paths still hold
    elsewhere.mkdir()
    again = grade(teacher / "resub" / "钱七.ipynb", "--out", out, cwd=elsewhere)
    assert again.returncode == 0, again.stderr
    assert _lines(out / "gradebook.csv") == after and "沿用上次批改" in again.stderr
    (teacher / "名单.csv").rename(teacher / "old.csv")
    gone = grade(teacher / "resub" / "钱七.ipynb", "--out", out, cwd=elsewhere)
    assert gone.returncode == 2 and f"--roster {teacher / '名单.csv'}" in gone.stderr and "已经不存在了" in gone.stderr


# ---------------------------------------------------------------- batch 2: the grader's own defences


MULTI_HOG = (
    "import subprocess, sys\n"
    "children = [subprocess.Popen([sys.executable, '-c', \"b = b'x' * (300 << 20)\\nimport time\\ntime.sleep(60)\"])"
    " for _ in range(3)]\n"
    "import time\n"
    "time.sleep(30)"
)


@pytest.fixture(scope="module")
def batch2(tmp_path_factory):
    folder = tmp_path_factory.mktemp("unconfined")
    victim = folder / "b_victim_ex02.ipynb"
    subs = {
        "a_tamper": submission(EX02, extra=[(3, TAMPER.format(path=str(victim)))]),
        "b_victim": submission(EX02),
        "killer": submission(EX02, extra=[(6, PARENT_KILLER)]),
        "multi_hog": submission(EX02, extra=[(6, MULTI_HOG)]),
        "honest": submission(EX02, edition="en"),
    }
    for key, nb in subs.items():
        nbformat.write(nb, folder / f"{key}_ex02.ipynb")
    run = grade(folder, "--csv", folder.parent / "report.csv", "--no-confine", "--jobs", 2, "--memory", 768)
    return run, by_file(rows_of(folder.parent / "report.csv")), subs, victim


def test_unconfined_every_notebook_was_read_before_any_ran(batch2):
    run, rows, _, victim = batch2
    assert run.returncode == 0, run.stderr
    assert victim.read_text(encoding="utf-8") == "not a notebook any more"  # the tamperer did write…
    assert rows["b_victim"]["percent"] == "100"  # …but the victim was graded from what it handed in
    assert rows["honest"]["percent"] == "100"


def test_unconfined_a_parent_killer_kills_only_its_worker(batch2):
    _, rows, subs, _ = batch2
    assert rows["killer"]["status"] == f"worker_died({cell_number(subs['killer'], 'os.getppid')})"
    assert (rows["killer"]["2.1"], rows["killer"]["2.2"]) == ("correct", "not_attempted")  # 2.2 came after


def test_memory_held_by_several_processes_counts_together(batch2):
    _, rows, subs, _ = batch2
    assert rows["multi_hog"]["status"] == f"memory_limit({cell_number(subs['multi_hog'], 'children =')})"
    assert rows["multi_hog"]["2.1"] == "correct"
