"""A realistic class (``grading_class``: built from the real releases) graded in one ordinary command, every
student × exercise mark and status compared with the design, then the teacher's review and the LMS files.

Issue #25: duplicate names, mixed releases, Canvas ``_LATE`` with a time, a resubmission with an extension,
the teacher version, another student's notebook, a missing and a mistyped ID cell, Moodle participant
numbers that are not student numbers; issue #32: a formula in an ID cell, the course's own function used.
"""

import csv
import html
import io
import subprocess
import sys
import zipfile

import pytest

import attn_homework as homework

from . import grading_class as cls
from .repo import ROOT

pytestmark = pytest.mark.kernel


def grade(*args):
    return subprocess.run(
        [sys.executable, "-m", "attn_homework.grade", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=ROOT,
    )


def rows_of(path):
    with open(path, encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class25")
    built = cls.build(folder)
    out = folder / "grading"
    releases = [arg for r in built["releases"] for arg in ("--release", r)]
    run = grade(
        *built["submissions"],
        "--out", out,
        "--roster", built["roster"],
        *releases,
        "--deadline", cls.DEADLINE.strftime("%Y-%m-%d %H:%M"),
        "--late", cls.LATE_RULE,
        "--extensions", built["extensions"],
        "--max-grade", 10,
        "--timeout", 20,
        "--jobs", 2,
        "--lang", "en",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    return run, out, built


POINTS = {"ex02_scores": 3, "ex03_scaling": 2}  # one point per task


def expected_grade(key, decided=None):
    """The LMS grade out of 10 the design gives ``key``: points earned over the 5 possible, ``decided`` a
    teacher's percentage for a held exercise."""
    earned = 0.0
    for exercise, (final, reason) in cls.DESIGN.get(key, {}).items():
        percent = decided if reason and decided is not None else float(final)
        earned += percent / 100 * POINTS[exercise]
    return format(round(10 * earned / sum(POINTS.values()), 1), "g")


def _key(row):
    return row["student_id"] or row["name"]


def test_every_mark_and_status_is_as_designed(graded):
    _, out, _ = graded
    counted = {}
    for row in rows_of(out / "submissions.csv"):
        counted.setdefault(_key(row).lstrip("'"), {})[row["exercise"]] = row
    review = {(r["student_id"].lstrip("'"), r["exercise"]): r for r in rows_of(out / "review.csv")}
    got, want = {}, {}
    for key, exercises in cls.DESIGN.items():
        for exercise, (final, reason) in exercises.items():
            want[key, exercise] = (final, reason)
            row = counted.get(key, {}).get(exercise)
            held = review.get((key, exercise))
            got[key, exercise] = (row["final_percent"] if row else None, held["reasons"] if held else "")
    assert got == want
    # no other student × exercise came out of the batch (nothing attributed to the wrong student)
    assert {(k, e) for k, ex in counted.items() for e in ex} == set(want)


def test_the_statuses_name_what_happened(graded):
    _, out, _ = graded
    rows = {(_key(r).lstrip("'"), r["exercise"]): r for r in rows_of(out / "submissions.csv")}
    assert "no_student_id" in rows["2024010", "ex02_scores"]["status"]
    assert rows["2024010", "ex02_scores"]["2.2"].startswith("cell_error")
    assert "id_mismatch" in rows["2024011", "ex02_scores"]["status"]  # the mistyped ID cell, not held
    assert rows["2024006", "ex03_scaling"]["days_late"] == "1"  # _LATE with a time before the deadline
    assert rows["2024008", "ex02_scores"]["days_late"] == "0"  # within the extension
    assert rows["2024008", "ex02_scores"]["file"].endswith("ex02_scores-1.ipynb")  # the resubmission counts
    assert "no_student_id" not in rows["2024004", "ex02_scores"]["status"]  # plain release: no ID cell asked
    assert rows["=1+2", "ex02_scores"]["name"] == "路人甲"  # named from the file
    # a (plain) release the grader was not given: what its mark was graded against is said
    assert "unknown_release: graded_with_shared" in rows["2024015", "ex03_scaling"]["details"]


def test_feedback_points_at_the_id_cell_and_asks_for_ones_own_code(graded):
    _, out, _ = graded
    from attn_homework.messages import msg

    missing = (out / "feedback" / "2024010_ex02_scores.html").read_text(encoding="utf-8")
    assert msg.text("student_id_needed", "zh") in missing and "NameError" not in missing
    own = (out / "feedback" / "2024013_ex02_scores.html").read_text(encoding="utf-8")
    assert msg.text("fb_why_reference_code", "zh") in own
    english = (out / "feedback" / "2024011_ex02_scores.html").read_text(encoding="utf-8")
    assert 'lang="en"' in english and "、" not in english


def test_the_console_lists_the_held_submissions_first(graded):
    run, out, _ = graded
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    summary = lines[next(i for i, line in enumerate(lines) if "held for your review" in line) :]
    assert "review.csv" in summary[0]
    assert len([line for line in summary[1:] if line.startswith("  ") and " · " in line]) == len(cls.HELD)
    assert lines.index(summary[0]) < min(i for i, line in enumerate(lines) if "left out of" in line)


def test_lms_files_hold_no_held_student_and_never_a_mark_on_another_row(graded):
    _, out, _ = graded
    moodle = {r["ID number"].lstrip("'"): r for r in rows_of(out / "moodle_grades.csv")}
    rostered = {number for number, *_ in cls.ROSTER}
    assert set(moodle) == rostered - cls.HELD  # the held ones wait; the auditing student is not in Moodle
    item = next(c for c in next(iter(moodle.values())) if c not in ("ID number", "Email address", "Full name"))
    assert {k: r[item] for k, r in moodle.items()} == {k: expected_grade(k) for k in moodle}  # out of 10
    assert moodle["2024001"][item] == "6"  # ex02 all right (3 points), ex03 not handed in (2)
    # the two 王伟: each participant row has its own student's grade
    sheet = {r["Identifier"]: r for r in rows_of(out / "moodle_worksheet.csv")}
    assert sheet["Participant 1849307"]["Grade"] == moodle["20240007"][item]
    assert sheet["Participant 1849323"]["Grade"] == moodle["20240023"][item]
    assert moodle["20240007"][item] != moodle["20240023"][item]
    assert "Participant 1849309" not in sheet  # 孙七 is held
    assert all(r["Maximum Grade"] == "10" for r in sheet.values())
    assert "2.3" in sheet["Participant 1849323"]["Feedback comments"]  # says what to do next


def test_canvas_file_follows_its_documented_format(graded):
    _, out, _ = graded
    raw = (out / "canvas_grades.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert table[0][:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]  # the roster has logins
    assert table[1][0] == "Points Possible" and table[1][-1] == "10"
    rows = {r[2]: r for r in table[2:]}
    assert rows["2024006"][1] == "54006" and rows["2024006"][3] == "zhangsan" and rows["2024006"][-1] == "3.6"
    assert {k: r[-1] for k, r in rows.items()} == {k: expected_grade(k) for k in rows}


def test_no_csv_cell_starts_a_formula(graded):
    _, out, _ = graded
    for path in out.glob("*.csv"):
        for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))):
            assert not any(cell[:1] in ("=", "+", "@", "\t", "\r") for cell in row), (path.name, row)
    assert any(r["student_id"] == "'=1+2" for r in rows_of(out / "submissions.csv"))


def test_moodle_feedback_zip_has_one_folder_per_participant(graded):
    _, out, _ = graded
    with zipfile.ZipFile(out / "moodle_feedback.zip") as z:
        names = z.namelist()
    folders = {name.split("/")[0] for name in names}
    assert "王伟_1849307_assignsubmission_file_" in folders and "王伟_1849323_assignsubmission_file_" in folders
    for name in names:  # importziplib.php: split at "_" into 5, the second a number, the plugin third and fourth
        parts = ("/" + name).split("_", 4)
        assert parts[1].isdigit() and parts[2:4] == ["assignsubmission", "file"], name


def test_review_decisions_release_marks_and_a_worksheet_roster_fills_every_row(graded, tmp_path):
    _, out, built = graded
    path = out / "review.csv"
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    header = rows[0]
    decide = {"2024013": "accept", "2024009": "reject", "2024005": "50"}
    for row in rows[1:]:
        row[header.index("decision")] = decide.get(row[header.index("student_id")], "")
    with open(path, "w", newline="", encoding="utf-8-sig") as f:
        csv.writer(f).writerows(rows)
    run = grade("--out", out, "--roster", built["worksheet"], "--lang", "en")  # no submissions: reports only
    assert run.returncode == 0, run.stderr[-2000:]
    moodle = {r["ID number"]: r for r in rows_of(out / "moodle_grades.csv")}
    item = [c for c in next(iter(moodle.values())) if c not in ("ID number", "Email address", "Full name")][0]
    assert moodle["2024013"][item] == expected_grade("2024013") == "6"  # accepted: its 100 % of ex02
    assert moodle["2024005"][item] == expected_grade("2024005", decided=50) == "2"  # the teacher's 50 % of ex03
    assert moodle["2024009"][item] == "0"  # rejected: nothing else handed in
    assert "2024012" not in moodle  # still undecided
    sheet = {r["Identifier"]: r for r in rows_of(out / "moodle_worksheet.csv")}
    assert sheet["Participant 1849316"]["Grade"] == "0"  # handed in nothing, still has its row
    kept = {r["student_id"]: r["decision"] for r in rows_of(path)}
    assert kept["2024013"] == "accept" and kept["2024012"] == ""


def test_an_untouched_notebook_of_each_edition_is_blank_everywhere(tmp_path):
    """The released notebooks handed in unchanged, per-student (their data cells raise without the ID) and
    plain, in both editions: submissions.csv says ``blank`` (never runtime_error), 0 points; the class
    report flags each as blank, not as an error nor for integrity; each feedback page says nothing was
    answered, in its language, and every task reads as an unanswered task does."""
    from attn_homework import release
    from attn_homework.grading.checking import check_answers
    from attn_homework.messages import msg

    from .repo import NOTEBOOKS

    exercise = "ex02_scores"
    folder = tmp_path / "subs"
    folder.mkdir()
    releases = []
    for name, edition, per_student in (("p-zh", "zh", True), ("p-en", "en", True), ("s-zh", "zh", False)):
        release.build(NOTEBOOKS, ROOT, tmp_path, name, edition, [exercise], per_student)
        releases += ["--release", tmp_path / name]
        handed = tmp_path / name / f"self-attention-{edition}" / "notebooks" / "exercises" / f"{exercise}.ipynb"
        (folder / f"{name}_{exercise}.ipynb").write_bytes(handed.read_bytes())
    out = tmp_path / "grading"
    run = grade(folder, "--out", out, *releases, "--timeout", 20, "--lang", "en")
    assert run.returncode == 0, run.stderr[-3000:]
    rows = {r["name"]: r for r in rows_of(out / "submissions.csv")}
    assert set(rows) == {"p-zh", "p-en", "s-zh"}
    for row in rows.values():
        assert row["status"].split("; ")[0] == "blank" and "runtime_error" not in row["status"] + row["details"]
        assert row["points"] == "0" and {row[t] for t in ("2.1", "2.2", "2.3")} == {"not_attempted"}
    assert rows["p-zh"]["status"] == rows["p-en"]["status"] == "blank; no_student_id"
    page = (out / "class_report.html").read_text(encoding="utf-8")
    assert page.count(msg.text("cr_flag_blank", "en")) >= 3
    for flag in ("cr_flag_integrity", "cr_flag_error", "cr_flag_crash", "cr_flag_no_id"):
        assert f">{msg.text(flag, 'en')}<" not in page
    for name, edition in (("p-zh", "zh"), ("p-en", "en")):
        feedback = (out / "feedback" / f"{name}_{exercise}.html").read_text(encoding="utf-8")
        assert msg.text("fb_why_blank", edition) in feedback
        placeholders = {t.var: {"kind": "ellipsis"} for t in homework.tasks(exercise)}
        for task in check_answers(exercise, placeholders, edition=edition):
            assert html.escape(task.message) in feedback
