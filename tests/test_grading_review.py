"""The marks' return path without kernels: CSV cells a spreadsheet will not run, the late rule with Canvas's
LATE and extensions, the LMS's submission times, the identity rules a file may supersede by, the course's own
functions in an answer, the Canvas column, and attn-release speaking its edition."""

import csv
import io

import nbformat
import pytest

from attn_homework import release
from attn_homework.grading import collect, integrity, marks, reports, review, roster, selection
from attn_homework.grading.handout import cell_hash
from attn_homework.grading.reading import Reading
from attn_homework.grading.results import Graded, Note

from .repo import ROOT
from .submissions import EX02, submission


@pytest.mark.parametrize("cell", ['=HYPERLINK("http://x")', "+SUM(1)", "-1+2", "@SUM(A1)", "\tx"])
def test_a_cell_that_starts_a_formula_is_written_as_text(cell, tmp_path):
    reports._write(tmp_path / "x.csv", [["a", cell]])
    with open(tmp_path / "x.csv", encoding="utf-8-sig", newline="") as f:
        (row,) = csv.reader(f)
    assert row == ["a", "'" + cell]


def test_control_characters_from_a_submission_are_escaped_in_every_csv(tmp_path):
    evil = "ValueError: \x1b[2J\x1b[32mgrader OK\rfake\x9b1A\x07"
    reports._write(tmp_path / "x.csv", [["a", evil, "line\nbreak\tand tab"]])
    text = (tmp_path / "x.csv").read_text(encoding="utf-8-sig")
    assert not any(ch in text.replace("\r\n", "") for ch in "\x1b\r\x9b\x07")
    with open(tmp_path / "x.csv", encoding="utf-8-sig", newline="") as f:
        (row,) = csv.reader(f)
    assert row[1] == "ValueError: \\x1b[2J\\x1b[32mgrader OK\\rfake\\x9b1A\\x07"
    assert row[2] == "line\nbreak\tand tab"  # newline and tab are text, kept
    assert reports.printable("\r=1") == "\\r=1" and reports.neutral(reports.printable("\r=1")) == "\\r=1"


def test_the_console_of_attn_grade_shows_control_characters_as_escapes(tmp_path, capsys):
    """A file name with an ANSI escape in it (listed as skipped) reaches the terminal as text."""
    from attn_homework.grading import cli

    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "evil\x1b[2J\x1b[8m.txt").write_text("x", encoding="utf-8")
    (folder / "zhang\x1b]0;pwned\x07wei_ex02_scores.ipynb").write_text("not json", encoding="utf-8")
    cli.main([str(folder), "--out", str(tmp_path / "out"), "--lang", "en"])
    out = capsys.readouterr()
    assert "evil\\x1b[2J\\x1b[8m.txt" in out.err and "\\x1b]0;pwned\\x07" in out.out + out.err
    assert not any(ch in out.out + out.err for ch in "\x1b\x07")
    for name in ("submissions.csv", "gradebook.csv", "review.csv"):
        assert "\x1b" not in (tmp_path / "out" / name).read_text(encoding="utf-8-sig")
    assert "\x1b" not in (tmp_path / "out" / "results.jsonl").read_text(encoding="utf-8")


def test_a_signed_number_stays_a_number():
    assert (
        reports.neutral("-5") == "-5"
        and reports.neutral("+1") == "+1"
        and reports.neutral("-2.5") == "-2.5"
        and reports.neutral(7) == 7
    )


def test_english_cells_use_the_english_list_separator(english):
    assert reports.cells_text((9, 10, 13)) == "in cell 9, 10, 13"


def test_canvas_late_counts_a_day_even_with_a_time_before_the_deadline():
    rule = marks.LateRule.parse("2026-12-08 23:59", "10")
    before = rule.deadline - 3600
    assert rule.days_late(before, lms_late=True) == 1
    assert rule.days_late(before, lms_late=False) == 0
    assert rule.days_late(rule.deadline + 2.5 * 86400, lms_late=True) == 3


def test_an_extension_moves_one_students_deadline(tmp_path):
    path = tmp_path / "ext.csv"
    path.write_text("student,deadline\n2024008,2026-12-11 23:59\n2024009,none\n", encoding="utf-8")
    rule = marks.LateRule.parse("2026-12-08 23:59", "10").with_extensions(path)
    two_days = rule.deadline + 2 * 86400
    extended, free, other = (roster.Student(k, k) for k in ("2024008", "2024009", "2024001"))
    assert rule.days_late(two_days, True, extended) == 0  # Canvas's LATE is against the class's deadline
    assert rule.days_late(two_days * 10, False, free) == 0
    assert rule.days_late(two_days, False, other) == 2
    path.write_text("2024008,next week\n", encoding="utf-8")
    with pytest.raises(marks.MarksError):
        marks.LateRule.parse("2026-12-08 23:59", "10").with_extensions(path)


def test_a_moodle_worksheet_gives_submission_times(tmp_path):
    path = tmp_path / "worksheet.csv"
    path.write_text(
        "Identifier,Full name,ID number,Last modified (submission)\n"
        'Participant 1849307,王伟,20240007,"Tuesday, 8 December 2026, 11:30 PM"\n'
        "Participant 1849323,王伟,20240023,-\n",
        encoding="utf-8-sig",
    )
    r = roster.Roster.read(path)
    assert set(r.submitted) == {"20240007"}
    assert r.submitted["20240007"] == marks.LateRule.parse("2026-12-08 23:30").deadline


def _candidate(label, id_cell, r, when):
    nb = submission(EX02)
    sub = collect.Submission(label, b"", when, collect.lms_name(label), label)
    who = roster.identify(r, sub.lms, id_cell, sub.file_name, "ex02_scores")
    notes = [Note(who.problem, detail=who.detail)] if who.problem else []
    return (sub, Reading(nb, "ex02_scores", id_cell=id_cell, has_id_cell=bool(id_cell)), who.student, label, notes)


def test_an_id_cell_cannot_retire_another_students_file():
    r = roster.Roster([roster.Student("2024002", "2024002", "Zhang San", in_roster=True)])
    real = _candidate("2024002_ex02.ipynb", "2024002", r, 1.0)
    other = _candidate("lisi_ex02.ipynb", "2024002", r, 2.0)  # later, someone else's file name
    kept, superseded = selection.choose([real, other], r)
    assert [c[0].label for c in kept] == ["2024002_ex02.ipynb", "lisi_ex02.ipynb"] and not superseded
    assert [n.code for n in other[4]] == ["identity_conflict"]
    again = _candidate("2024002_ex02_v2.ipynb", "2024002", r, 3.0)  # the same student's newer copy
    kept, superseded = selection.choose([real, again], r)
    assert [c[0].label for c in kept] == ["2024002_ex02_v2.ipynb"] and superseded[0][0] is real[0]
    held = Graded("lisi_ex02.ipynb", "x", "ex02_scores", other[2], notes=other[4])
    honest = Graded("2024002_ex02.ipynb", "y", "ex02_scores", real[2])
    assert held.slot != honest.slot and held.held and not honest.held


def _with(nb, position, source):
    nb.cells.insert(position, nbformat.v4.new_code_cell(source))
    return nb


@pytest.mark.parametrize(
    "source, flagged",
    [
        ("from attn_core import softmax\nQKT = softmax(Q @ K.T)", True),
        ("import attn_core as ac\nQKT = ac.scores(Q, K)", True),
        ("from attn_homework.checker import diagnose\nQKT = Q @ K.T", True),
        ("QKT = homework.TASKS['2.1'].expected()", True),
        ("from attn_core.core import scores\nQKT = scores(Q, K)", True),
        ("QKT = Q @ K.T\nhomework.progress('ex02_scores')", False),
        # reached without an import the checks read (the hostile cases of the Gradescope tests)
        ("QKT = __import__('attn_' + 'core').scores(Q, K)", True),
        ("import importlib\nQKT = importlib.import_module('attn_core').scores(Q, K)", True),
        ("import sys\nQKT = sys.modules['attn_core'].scores(Q, K)", True),
        ("QKT = check.__globals__['diagnose_task']", True),
        ("QKT = homework.__dict__['checker']", True),
        ("exec('from attn_core import scores')\nQKT = scores(Q, K)", True),
        ("import gc\nQKT = [o for o in gc.get_objects() if callable(o)][0]", True),
        ("QKT = np.einsum('id,jd->ij', Q, K)\nimport re\nre.compile('x')", False),
        ("from attn_core import set_lang\nset_lang('en')\nQKT = Q @ K.T", False),
    ],
)
def test_the_course_own_functions_in_an_answer_are_flagged(source, flagged):
    handed = submission({})
    hashes = {cell_hash(c) for c in handed.cells}
    nb = _with(submission(EX02), 5, source)
    found = integrity.reference_code(nb, hashes, cell_hash)
    assert bool(found) == flagged, found
    assert not integrity.reference_code(handed, hashes, cell_hash)  # the handed-out cells themselves


def test_a_teacher_notebook_is_recognised():
    teacher = nbformat.read(ROOT / "notebooks" / "exercises" / "teacher" / "ex02_scores.ipynb", as_version=4)
    assert integrity.is_teacher_version(teacher) and not integrity.is_teacher_version(submission(EX02))


def _row(student, total=80.0):
    return reports.StudentRow(student, {}, {}, total, [])


def test_canvas_names_an_existing_assignment_and_a_login_only_when_the_roster_has_one(tmp_path):
    plain = roster.Student("2024001", "2024001", "陈一", email="c@example.edu", canvas_id="54001", in_roster=True)
    path = reports.write_canvas([_row(plain)], tmp_path, "Week 1 (12345)", max_grade=20)
    table = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    assert table[0] == ["Student", "ID", "SIS User ID", "Section", "Week 1 (12345)"]
    assert table[1] == ["Points Possible", "", "", "", "20"] and table[2][-1] == "16"
    login = roster.Student("2024002", "2024002", "Zhang San", login="zhangsan", in_roster=True)
    table = list(
        csv.reader(io.StringIO(reports.write_canvas([_row(plain), _row(login)], tmp_path, "W").read_text("utf-8-sig")))
    )
    assert table[0][3] == "SIS Login ID" and table[2][3] == "" and table[3][3] == "zhangsan"


def test_attn_release_speaks_its_edition(tmp_path, capsys):
    assert release.main(["--edition", "zh", "--exercises", "ex02", "--out", str(tmp_path), "--name", "w",
                         "--notebooks", str(ROOT / "notebooks"), "--project", str(ROOT)]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "发给学生的文件夹" in out and "for the students" not in out


def test_a_review_decision_can_file_a_shared_name_under_its_student(tmp_path):
    wang = [
        roster.Student(k, k, "王伟", participant=p, in_roster=True) for k, p in (("20240007", "7"), ("20240023", "23"))
    ]
    r = roster.Roster(wang)
    folder = collect.LmsName("moodle", "王伟", participant="1849323")
    who = roster.identify(r, folder, None, "ex02_scores.ipynb", "ex02_scores")
    record = Graded("w.ipynb", "abc", "ex02_scores", who.student, notes=[Note(who.problem)])
    assert record.held and who.problem == "ambiguous_name"
    (tmp_path / "review.csv").write_text(
        "decision,student_id,name,exercise,percent,reasons,file,sha256,comment\n"
        "accept,20240023,王伟,ex02_scores,100,ambiguous_name,w.ipynb,abc,\n",
        encoding="utf-8-sig",
    )
    (decided,) = review.apply([record], review.read(tmp_path), r)
    assert decided.student.id == "20240023" and not decided.held
    (tmp_path / "review.csv").write_text("decision,student_id,file,sha256\nreject,,w.ipynb,abc\n", encoding="utf-8-sig")
    assert review.apply([record], review.read(tmp_path), r) == []


def _two_wang():
    return roster.Roster(
        [roster.Student(k, k, "王伟", in_roster=True) for k in ("2026014", "2026015")]
        + [roster.Student("2026016", "2026016", "李雷", in_roster=True)]
    )


@pytest.mark.parametrize("id_cell", ["2026O15", None])  # mistyped (a letter O), or no ID cell at all
def test_a_shared_name_with_a_mistyped_or_missing_id_is_held_and_holds_both_students(id_cell, tmp_path):
    """The class trial's second 王伟: an e-mailed 王伟_ex02_scores.ipynb. It is held as ambiguous_name, never
    an off-roster student of its own; both 王伟 are "held for review" for ex02 (not "not handed in") and in no
    LMS file until review.csv says whose it is."""
    r = _two_wang()
    who = roster.identify(r, None, id_cell, "王伟_ex02_scores.ipynb", "ex02_scores")
    assert who.problem == "ambiguous_name" and "2026014, 2026015" in who.detail and not who.student.in_roster
    record = Graded(
        "mailed/王伟_ex02_scores.ipynb", "w", "ex02_scores", who.student, notes=[Note(who.problem, detail=who.detail)]
    )
    lei = Graded("mailed/李雷_ex02.ipynb", "l", "ex02_scores", r.by("id", "2026016"))
    records = reports.current([record, lei], r)
    assert record.held and "not_in_roster" not in {n.code for n in records[0].notes}
    rows, names = reports.gradebook_rows(records, marks.Points(), marks.LateRule(), r)
    by_id = {row.student.id: row for row in rows}
    assert set(by_id) == {"2026014", "2026015", "2026016"}  # no row of its own
    assert by_id["2026014"].held == by_id["2026015"].held == ["ex02_scores"] and not by_id["2026016"].held
    lms, outside = reports.lms_rows(rows, r)
    assert [row.student.id for row in lms] == ["2026016"] and outside == []
    reports.write_gradebook(rows, names, tmp_path / "gradebook.csv")
    table = {
        row["student_id"]: row
        for row in csv.DictReader(io.StringIO((tmp_path / "gradebook.csv").read_text("utf-8-sig")))
    }
    assert table["2026015"]["ex02_scores"] == "review" and table["2026015"]["held_for_review"] == "ex02"
    assert table["2026015"]["missing"] == ""
    # the teacher files it under 2026015: it counts for 2026015 alone
    decisions = {review.key(record): ("accept", "", "2026015")}
    rows, _ = reports.gradebook_rows(review.apply(records, decisions, r), marks.Points(), marks.LateRule(), r)
    by_id = {row.student.id: row for row in rows}
    assert "ex02_scores" in by_id["2026015"].finals and not by_id["2026015"].held and not by_id["2026014"].held


def test_in_a_plain_folder_an_id_cell_naming_another_rostered_student_is_held():
    """Impersonation: a loose file named after one rostered student whose ID cell names another is held
    (identity_conflict), never credited to the one the ID cell names."""
    r = roster.Roster(
        [roster.Student("2024001", "2024001", "Zhang San", in_roster=True)]
        + [roster.Student("2024002", "2024002", "李四", in_roster=True)]
    )
    for file_name, id_cell in (("zhangsan_ex02_scores.ipynb", "2024002"), ("李四_ex02.ipynb", "2024001")):
        who = roster.identify(r, None, id_cell, file_name, "ex02_scores")
        assert who.problem == "identity_conflict", (file_name, who)
        assert Graded(file_name, "x", "ex02_scores", who.student, notes=[Note(who.problem, detail=who.detail)]).held
    plain = roster.identify(r, None, "2024002", "ex02_scores.ipynb", "ex02_scores")  # a name that says nothing
    assert (plain.student.id, plain.problem) == ("2024002", "")


def test_reassigning_a_held_file_keeps_the_number_and_never_replaces_the_students_own_file():
    r = roster.Roster([roster.Student(k, k, n, in_roster=True) for k, n in (("2026009", "甲"), ("2026012", "乙"))])
    own = Graded("moodle/乙/ex02_scores.ipynb", "own", "ex02_scores", r.by("id", "2026012"))
    copy = Graded(
        "moodle/甲/ex02_scores.ipynb",
        "copy",
        "ex02_scores",
        r.by("id", "2026009"),
        notes=[Note("identity_conflict", detail="id_cell=2026012; lms_number=2026009")],
    )
    decisions = {review.key(copy): ("accept", "", "2026012")}
    out = review.apply([own, copy], decisions, r)
    assert sorted(x.sha256 for x in out) == ["copy", "own"] and all(x.held for x in out)  # both kept, held
    table = review.rows([own, copy], decisions, lambda x: reports.mark(x, marks.Points(), marks.LateRule()), r)
    by_sha = {row[7]: row for row in table[1:]}
    assert by_sha["copy"][:2] == ["accept", "2026012"]  # the teacher's edit is kept in the rewritten file
    assert "identity_conflict" in by_sha["own"][5] and "moodle/甲/ex02_scores.ipynb" in by_sha["own"][5]
    decisions[review.key(own)] = ("reject", "", "2026012")  # the teacher rejects one of the two: the other counts
    (kept,) = review.apply([own, copy], decisions, r)
    assert (kept.sha256, kept.student.id, kept.held) == ("copy", "2026012", False)


def test_the_console_lists_misread_names_apart_from_students_outside_the_roster(english):
    r = _two_wang()
    auditor = _row(roster.Student("2099001", "2099001", "李雷"))
    typo = _row(roster.Student("2026O15", "2026O15", "王伟"))
    canvas = _row(roster.Student("wei2tongxue29_late_90029_700142", name="wei2tongxue29_late_90029_700142"))
    lines = reports.left_out_lines([], [auditor, typo, canvas], r)
    assert len(lines) == 2
    assert "look like a misread" in lines[0] and "2026O15" in lines[0] and "wei2tongxue29" in lines[0]
    assert "2099001" not in lines[0] and "李雷 2099001" in lines[1] and "not in the roster" in lines[1]


def test_an_unknown_release_says_what_its_mark_was_graded_against(english):
    own = reports.note_text(Note("unknown_release", detail="graded_with_own:2026031"))
    assert "matches none of the releases" in own and "per-student data of number 2026031" in own
    assert "class's shared data" in reports.note_text(Note("unknown_release", detail="graded_with_shared"))


def test_rejecting_a_copied_notebook_leaves_the_byte_identical_original_counted(tmp_path):
    """Class trial 4: 郭敏 hands in 张伟's ex04 byte for byte; the teacher rejects 郭敏's held copy in
    review.csv. 张伟's own submission (same SHA-256, his own LMS folder) still counts, for him alone."""
    r = roster.Roster([roster.Student(k, k, n, in_roster=True) for k, n in (("2026001", "张伟"), ("2026017", "郭敏"))])
    sha = "d" * 64
    own = Graded("moodle.zip/张伟_5001_assignsubmission_file_/ex04.ipynb", sha, "ex04_softmax", r.by("id", "2026001"))
    copy = Graded(
        "moodle.zip/郭敏_5017_assignsubmission_file_/ex04.ipynb",
        sha,
        "ex04_softmax",
        r.by("id", "2026017"),
        notes=[Note("identity_conflict", detail="id_cell=2026001; lms_number=2026017")],
    )
    mark = lambda x: reports.mark(x, marks.Points(), marks.LateRule())  # noqa: E731
    reports._write(tmp_path / "review.csv", review.rows([own, copy], {}, mark, r))
    text = (tmp_path / "review.csv").read_text("utf-8-sig")
    (tmp_path / "review.csv").write_text(text.replace("\n,", "\nreject,", 1), encoding="utf-8-sig")
    decisions = review.read(tmp_path)
    assert list(decisions.values()) == [("reject", "", "2026017")]
    (kept,) = review.apply([own, copy], decisions, r)
    assert kept is own and kept.student.id == "2026001" and not kept.held
    rows, _ = reports.gradebook_rows([kept], marks.Points(), marks.LateRule(), r)
    by_id = {row.student.id: row for row in rows}
    assert "ex04_softmax" in by_id["2026001"].finals and "ex04_softmax" not in by_id["2026017"].finals
    # accepting the copy instead gives it to 郭敏 and still leaves 张伟's own file his
    decisions = {review.key(copy): ("accept", "", "2026017")}
    out = review.apply([own, copy], decisions, r)
    assert sorted(x.student.id for x in out) == ["2026001", "2026017"] and not any(x.held for x in out)


def test_a_held_file_under_a_shared_name_shows_review_for_both_students_even_one_with_his_own_file(tmp_path):
    """Class trial 4: 王伟 2026014 handed in his own ex02 (100 %), and an e-mailed 王伟_ex02 with no ID is held
    (ambiguous_name). README §3: both 王伟 show `review` for ex02 in the gradebook, no total, until review.csv
    decides."""
    r = _two_wang()
    own = Graded("moodle/王伟_14/ex02_scores.ipynb", "own", "ex02_scores", r.by("id", "2026014"))
    who = roster.identify(r, None, None, "王伟_ex02_scores.ipynb", "ex02_scores")
    mailed = Graded(
        "mailed/王伟_ex02_scores.ipynb", "w", "ex02_scores", who.student, notes=[Note(who.problem, detail=who.detail)]
    )
    records = reports.current([own, mailed], r)
    rows, names = reports.gradebook_rows(records, marks.Points(), marks.LateRule(), r)
    reports.write_gradebook(rows, names, tmp_path / "gradebook.csv")
    table = {
        row["student_id"]: row
        for row in csv.DictReader(io.StringIO((tmp_path / "gradebook.csv").read_text("utf-8-sig")))
    }
    for number in ("2026014", "2026015"):
        assert table[number]["ex02_scores"] == "review", table[number]
        assert table[number]["held_for_review"] == "ex02" and table[number][reports.TOTAL_COLUMN] == ""
    assert table["2026016"]["ex02_scores"] == ""
