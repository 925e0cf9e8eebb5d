"""The class report (``grading/classreport.py``): a class of 45 students (``grading_class.build_large``: the
class of issue #25 and 30 more) graded by one ``attn-grade`` run; every number of the report is checked
against a count made here from ``submissions.csv`` and ``gradebook.csv``, and against the design; the lesson
sections it points at exist in the lessons; ``--report`` rebuilds it from the folder alone.
"""

import csv
import html
import re
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from attn_homework import exercises
from attn_homework.grading import classreport, integrity
from attn_homework.grading.classreport import LESSON_SECTIONS, explain, headings, lesson_folder

from . import grading_class as cls
from .repo import ROOT

TOTAL = "total (100 × points earned / points possible)"


def rows_of(path):
    with open(path, encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def label(row):
    name, number = row["name"], row["student_id"].lstrip("'")
    return f"{name} {number}" if name and number else name or number


# ---------------------------------------------------------------- the lessons (no kernel)


@pytest.mark.parametrize("code", sorted(LESSON_SECTIONS))
def test_every_section_the_report_names_is_a_heading_of_both_editions(code):
    for lesson, zh, en in LESSON_SECTIONS[code]:
        found = {}
        for edition, words in (("zh", zh), ("en", en)):
            path = lesson_folder(edition) / lesson
            matches = [(number, text) for number, text in headings(path) if words in text]
            assert matches, f"{code}: no heading with {words!r} in {path}"
            found[edition] = matches[0][0]
        assert found["zh"] == found["en"], f"{code}: the editions' headings are in different cells: {found}"


def test_a_code_without_a_section_points_at_the_tasks_lesson():
    section = explain("split_no_transpose", "ex08_multi_head", "en")
    assert section.path == lesson_folder("en") / exercises.EXERCISES["ex08_multi_head"].lesson
    assert section.heading == ""
    # the same code is explained in the lesson of the task that went wrong
    assert explain("transposed", "ex05_weighted_sum", "zh").path.name == "05_weighted_sum.ipynb"
    assert explain("transposed", "ex02_scores", "en").path.name == "02_scores_qkt.ipynb"


def test_histogram_bins_close_at_100():
    assert classreport.histogram([0, 9.99, 10, 95, 100, 100]) == [2, 1, 0, 0, 0, 0, 0, 0, 0, 3]


# ---------------------------------------------------------------- a graded class


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    run, out, built = cls.grade_large(tmp_path_factory.mktemp("class_report"))
    assert run.returncode == 0, run.stderr[-3000:]
    return run, out, built


@pytest.mark.kernel
def test_the_class_is_as_large_as_a_real_one(graded):
    _, out, _ = graded
    rows = rows_of(out / "submissions.csv")
    assert len(rows) >= 40
    assert len({(r["student_id"], r["name"]) for r in rows}) >= 40


@pytest.mark.kernel
def test_every_csv_is_utf8_with_a_byte_order_mark_like_the_others(graded):
    _, out, _ = graded
    for name in (classreport.TASKS_CSV, classreport.EXERCISES_CSV, classreport.TOTALS_CSV, "submissions.csv"):
        assert (out / name).read_bytes().startswith(b"\xef\xbb\xbf"), name


@pytest.mark.kernel
def test_right_rates_and_diagnoses_match_a_count_from_submissions_csv(graded):
    _, out, _ = graded
    counted = {}
    id_only = ("student number", "学号")
    for row in rows_of(out / "submissions.csv"):
        if not row["exercise"] or set(re.findall(r"\w+", row["status"])) & set(integrity.REVIEW):
            continue  # held or reviewed: integrity, not a misconception (said on the page)
        for task in exercises.tasks(row["exercise"]):
            code = re.sub(r"\(\d+(,\d+)*\)$", "", row.get(task.id) or "not_attempted")
            if code == "cell_error" and "no_student_id" in row["status"] and any(w in row["details"] for w in id_only):
                continue  # failed only for want of the ID cell
            entry = counted.setdefault((row["exercise"], task.id), {"n": 0, "right": 0, "codes": Counter(), "who": {}})
            entry["n"] += 1
            if code in ("correct", "carried_forward"):
                entry["right"] += 1
            else:
                entry["codes"][code] += 1
                entry["who"].setdefault(code, set()).add(label(row))
    reported = {}
    for row in rows_of(out / classreport.TASKS_CSV):
        entry = reported.setdefault(
            (row["exercise"], row["task"]),
            {"n": int(row["submissions"]), "right": int(row["right"]), "codes": Counter(), "who": {}},
        )
        assert row["right_percent"] == classreport.rounded(100 * entry["right"] / entry["n"])
        if row["diagnosis"]:
            entry["codes"][row["diagnosis"]] = int(row["count"])
            entry["who"][row["diagnosis"]] = set(row["students"].split("; "))
            assert row["percent"] == classreport.rounded(100 * int(row["count"]) / entry["n"])
    assert reported == counted


@pytest.mark.kernel
def test_the_planted_mistakes_are_counted_as_designed(graded):
    _, out, _ = graded
    design = cls.large_design()
    transposed = {n for (n, e), (answers, _, _) in design.items() if e == "ex02_scores" and "K @ Q.T" in answers["2.1"]}
    unscaled = {
        n for (n, e), (answers, _, _) in design.items() if e == "ex03_scaling" and answers["3.1"] == "S = Q @ K.T"
    }
    rows = {(r["task"], r["diagnosis"]): r for r in rows_of(out / classreport.TASKS_CSV)}
    assert int(rows["2.1", "transposed"]["count"]) == len(transposed) == 4
    assert {s.split()[-1] for s in rows["2.1", "transposed"]["students"].split("; ")} == transposed
    # 2025016's first, wrong, ex03 was replaced by the resubmission: only the three others are unscaled
    assert {s.split()[-1] for s in rows["3.1", "unscaled"]["students"].split("; ")} == unscaled
    assert "2025016" not in rows["3.1", "unscaled"]["students"]
    page = (out / classreport.HTML_NAME).read_text(encoding="utf-8")
    n = int(rows["2.1", "transposed"]["submissions"])
    assert f"transposed: 4 ({classreport.rounded(400 / n)} %)" in html.unescape(page)  # "2.1: 12.1 % transposed"


@pytest.mark.kernel
def test_medians_and_spreads_match_the_final_percentages(graded):
    _, out, _ = graded
    finals = {}
    for row in rows_of(out / "submissions.csv"):
        if row["exercise"]:
            finals.setdefault(row["exercise"], []).append(float(row["final_percent"]))
    reported = {r["exercise"]: r for r in rows_of(out / classreport.EXERCISES_CSV)}
    assert set(reported) == set(finals)
    for exercise, values in finals.items():
        q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")  # linear interpolation
        row = reported[exercise]
        assert int(row["submissions"]) == len(values)
        assert float(row["median"]) == pytest.approx(statistics.median(values), abs=0.051)
        assert float(row["median"]) == pytest.approx(median, abs=0.051)
        assert (float(row["q1"]), float(row["q3"])) == pytest.approx((q1, q3), abs=0.051)
        assert (float(row["min"]), float(row["max"])) == (min(values), max(values))
    page = html.unescape((out / classreport.HTML_NAME).read_text(encoding="utf-8"))
    assert "middle half of the marks (25th–75th percentile, linear interpolation)" in page


@pytest.mark.kernel
def test_the_histogram_counts_the_gradebook_totals(graded):
    _, out, _ = graded
    totals = [float(r[TOTAL]) for r in rows_of(out / "gradebook.csv") if r[TOTAL] != ""]
    held = sum(1 for r in rows_of(out / "gradebook.csv") if r["held_for_review"])
    rows = rows_of(out / classreport.TOTALS_CSV)
    bins = {(int(r["bin_from"]), int(r["bin_to"])): int(r["students"]) for r in rows if r["bin_from"] != "held"}
    expected = {
        (b, b + 10): sum(1 for t in totals if b <= t < b + 10 or (b == 90 and t == 100)) for b in range(0, 100, 10)
    }
    assert bins == expected
    assert sum(bins.values()) == len(totals)
    assert next(int(r["students"]) for r in rows if r["bin_from"] == "held") == held > 0
    svg = re.search(r"<svg[^>]*>.*?</svg>", (out / classreport.HTML_NAME).read_text(encoding="utf-8").split("<h2>")[-2])
    assert svg and "<title>" in svg.group() and "<desc>" in svg.group()


@pytest.mark.kernel
def test_the_flagged_submissions_come_first(graded):
    _, out, _ = graded
    page = (out / classreport.HTML_NAME).read_text(encoding="utf-8")
    flagged, rest = page.split("<h2>Exercises</h2>")
    assert "<h2>Look at these first: flagged submissions</h2>" in flagged
    table = flagged.split("<table>")[1]
    for number, flag in (("2025020", "timeout"), ("2025021", "error"), ("2025022", "late"), ("2024006", "late")):
        row = next(r for r in table.split("<tr>") if number in r)
        assert f"<td>{flag}</td>" in row, row
    held = set(cls.HELD) | {"2025019"}
    for number in held - {"=1+2"}:
        row = next(r for r in table.split("<tr>") if number in r)
        assert "integrity" in row
    honest = [n for (n, e), (a, keep, _) in cls.large_design().items() if a in cls.EX02_WAYS and keep is None]
    students = {r.split("</td>")[0] for r in table.split("<tr><td>")[1:]}  # each row's first cell
    assert not any(s.endswith(n) for s in students for n in honest if n != "2025022")


@pytest.mark.kernel
def test_what_to_say_next_time_links_to_lesson_headings_that_exist(graded):
    _, out, _ = graded
    page = (out / classreport.HTML_NAME).read_text(encoding="utf-8")
    next_time = page.split("<h2>What to say in class next time</h2>")[1]
    links = re.findall(r'<a class="lesson" href="([^"]+)" data-heading="([^"]*)">', next_time)
    assert len(links) >= 4
    for href, heading in links:
        file, _, anchor = html.unescape(href).partition("#")
        path = (out / file).resolve()
        assert path.is_file(), href
        if heading:
            assert html.unescape(heading) in [text for _, text in headings(path)]
            assert anchor == html.unescape(heading).replace(" ", "-")
    order = [m for m in re.findall(r"<li><code>(\w+)</code>", next_time)]
    assert order[0] == "transposed" and "unscaled" in order  # the most frequent first
    transposed = next_time.split("<li><code>transposed</code>")[1].split("</li>")[0]
    assert "02_scores_qkt.ipynb" in transposed and "who asks × who is asked" in html.unescape(transposed)


def _report(out, *args):
    return subprocess.run(
        [sys.executable, "-m", "attn_homework.grade", "--report", str(out), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


@pytest.mark.kernel
def test_report_rebuilds_it_from_the_folder_and_touches_nothing_else(graded):
    _, out, _ = graded
    before = {p.name: p.read_bytes() for p in out.glob("class_report*")} | {"s": (out / "similarity.csv").read_bytes()}
    others = {
        p.name: p.stat().st_mtime_ns
        for p in out.iterdir()
        if p.is_file() and p.name.startswith(("sub", "grade", "set", "review"))
    }
    for p in out.glob("class_report*"):
        p.unlink()
    run = _report(out, "--lang", "en")
    assert run.returncode == 0, run.stderr
    after = {p.name: p.read_bytes() for p in out.glob("class_report*")} | {"s": (out / "similarity.csv").read_bytes()}
    assert after == before
    assert {p: (out / p).stat().st_mtime_ns for p in others} == others
    chinese = _report(out, "--lang", "zh")
    assert chinese.returncode == 0, chinese.stderr
    page = (out / classreport.HTML_NAME).read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in page and "<h1>全班报告</h1>" in page and "下次上课可以讲什么" in page
    assert "What to say" not in page
    _report(out, "--lang", "en")  # as it was, for the other tests


def test_report_on_a_folder_without_results_says_so(tmp_path):
    run = _report(tmp_path, "--lang", "en")
    assert run.returncode == 1 and "has no grading results" in run.stderr
    assert not any(Path(tmp_path).iterdir())


# ---------------------------------------------------------------- the report's numbers and words (no kernel)

from attn_homework.grading import marks  # noqa: E402
from attn_homework.grading.checking import TaskResult  # noqa: E402
from attn_homework.grading.results import Graded, Note  # noqa: E402
from attn_homework.grading.roster import Student  # noqa: E402
from attn_homework.messages.grading import MESSAGES  # noqa: E402

ID_MESSAGE = MESSAGES["student_id_needed"][0]


def _student(number, name):
    return Student(number, number, name, in_roster=True)


def _ex02(number, name, codes, notes=(), edition="zh", messages=None):
    tasks = [
        TaskResult(t, c, (messages or {}).get(t, "ok" if c == "correct" else f"{edition}:{c}"), None)
        for t, c in zip(("2.1", "2.2", "2.3"), codes)
    ]
    return Graded(
        f"m/{number}/ex02_scores.ipynb",
        number,
        "ex02_scores",
        _student(number, name),
        edition,
        notes=list(notes),
        tasks=tasks,
    )


def _page(records, tmp_path):
    report = classreport.compute(records, marks.Points(), marks.LateRule())
    return report, html.unescape(classreport.html_page(report, tmp_path, marks.Points(), marks.LateRule()))


def test_a_student_is_counted_once_per_diagnosis_however_many_tasks(tmp_path):
    """Class trial 4: 贾平 transposed 2.1 and 2.2, three others 2.1 only: "transposed … 4 人", not 5."""
    records = [_ex02("2026037", "贾平", ["transposed", "transposed", "correct"])]
    records += [_ex02(f"202600{i}", f"S{i}", ["transposed", "correct", "correct"]) for i in (1, 2, 3)]
    report, page = _page(records, tmp_path)
    (item,) = classreport.next_time(report.stats)
    assert item[:3] == ("transposed", 4, [("2.1", 4), ("2.2", 1)])
    assert "2.1 (4)、2.2 (1)：4 人" in page


def test_held_submissions_and_id_only_errors_are_not_in_rates_diagnoses_or_examples(tmp_path):
    """The teacher's notebook (2.2 wrong_values with the ID cell's message) and the unidentified 王伟 file
    (2.2 cell_error, the ID cell's message) are integrity noise; an honest student's own 2.2 error counts."""
    teacher = _ex02(
        "2026018",
        "罗刚",
        ["correct", "wrong_values", "correct"],
        [Note("teacher_version")],
        messages={"2.2": ID_MESSAGE},
    )
    wang = _ex02(
        "2026013", "王伟", ["correct", "cell_error", "correct"], [Note("no_student_id")], messages={"2.2": ID_MESSAGE}
    )
    wang.notes.append(Note("runtime_error", detail=f"ValueError: {ID_MESSAGE}"))
    unnamed = _ex02("2026099", "无名", ["correct", "cell_error", "correct"], messages={"2.2": ID_MESSAGE})
    honest = _ex02("2026030", "萧红", ["correct", "wrong_values", "correct"], messages={"2.2": "数不对：第 0 行"})
    others = [_ex02(f"202600{i}", f"S{i}", ["correct"] * 3) for i in (1, 2)]
    report, page = _page([teacher, wang, unnamed, honest, *others], tmp_path)
    t22 = next(t for t in report.stats[0].tasks if t.task == "2.2")
    assert (t22.n, t22.right) == (3, 2)  # honest + the two others; held and ID-only left out
    assert t22.diagnoses == [("wrong_values", 1, ["萧红 2026030"])]
    assert t22.messages == {"wrong_values": "数不对：第 0 行"} and ID_MESSAGE not in page.split("<h2>")[-1]
    assert msg_zh("cr_counted_note") in page


def msg_zh(key):
    from attn_homework.messages.classreport import MESSAGES as CR

    return CR[key][0]


def test_an_example_hint_is_in_the_reports_language_or_not_shown(tmp_path):
    en = _ex02("2026003", "刘洋", ["correct", "correct", "missing_transpose"], edition="en")
    report, page = _page([en, _ex02("2026001", "张伟", ["correct"] * 3)], tmp_path)
    item = page.split("<li><code>missing_transpose</code>")[1].split("</li>")[0]
    assert "en:missing_transpose" not in item and msg_zh("cr_example") not in item
    zh = _ex02("2026004", "陈静", ["correct", "correct", "missing_transpose"])
    report, page = _page([en, zh], tmp_path)
    assert "zh:missing_transpose" in page and "en:missing_transpose" not in page


def test_lesson_links_point_at_a_section_that_explains_the_mistake_and_show_no_latex(tmp_path):
    # 06's "classic mistakes" has no missing √d_k; no section explains keepdims: the whole lesson 04
    assert explain("unscaled", "ex06_full_pipeline", "zh").path.name == "03_scaling.ipynb"
    assert explain("unscaled", "ex06_full_pipeline", "en").path.name == "03_scaling.ipynb"
    keepdims = explain("keepdims", "ex04_softmax", "zh")
    assert keepdims.path.name == "04_softmax.ipynb" and keepdims.heading == ""
    records = [_ex02("2026003", "刘洋", ["correct", "correct", "missing_transpose"])]
    _, page = _page(records, tmp_path)
    text = re.findall(r'<a class="lesson"[^>]*>([^<]*)</a>', page)
    assert text and all("$" not in t and "\\top" not in t for t in text)
    assert "为什么是 Kᵀ，而不是 K？" in text[0]


def test_flags_say_what_happened_unreadable_blank_and_whose_notebook(tmp_path):
    unreadable = _ex02("2026025", "韩雪", ["not_attempted"] * 3, [Note("unreadable", detail="not_json")])
    blank = _ex02(
        "2026024", "唐明", ["not_attempted"] * 3, [Note("runtime_error", (9, 13), f"ValueError: {ID_MESSAGE}")]
    )
    blank.notes.append(Note("no_student_id"))
    crashed = _ex02(
        "2026026",
        "冯刚",
        ["correct", "not_attempted", "not_attempted"],
        [Note("runtime_error", (9,), "ZeroDivisionError")],
    )
    copy = _ex02(
        "2026017", "郭敏", ["correct"] * 3, [Note("identity_conflict", detail="id_cell=2026001; lms_number=2026017")]
    )
    zhang = _ex02("2026001", "张伟", ["correct"] * 3)
    report, page = _page([unreadable, blank, crashed, copy, zhang], tmp_path)
    kinds = {r.student.name: [k for k, _ in f] for r, f in report.flagged}
    why = {r.student.name: " ".join(w for _, w in f) for r, f in report.flagged}
    assert kinds["韩雪"] == [msg_zh("cr_flag_unreadable")]  # never run: not a crash
    assert kinds["唐明"] == [msg_zh("cr_flag_blank")] and "学号" in why["唐明"]
    assert kinds["冯刚"] == ["运行出错"]  # the student's own code raised: an error still
    assert "张伟 2026001" in why["郭敏"] and "郭敏 2026017" in why["郭敏"] and "lms_number" not in why["郭敏"]


def test_the_readme_names_the_canvas_columns_the_code_writes():
    from attn_homework.grading import reports

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    without_login = ", ".join(c for c in reports.CANVAS_STUDENT if c != "SIS Login ID")
    assert f"`{', '.join(reports.CANVAS_STUDENT)}`" not in text  # never "always SIS Login ID"
    assert f"`{without_login}`" in text and "`SIS Login ID`" in text
