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
from attn_homework.grading import classreport
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
    for row in rows_of(out / "submissions.csv"):
        if not row["exercise"]:
            continue
        for task in exercises.tasks(row["exercise"]):
            code = re.sub(r"\(\d+(,\d+)*\)$", "", row.get(task.id) or "not_attempted")
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
    assert "interquartile range (25th–75th percentile, linear interpolation)" in page


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
