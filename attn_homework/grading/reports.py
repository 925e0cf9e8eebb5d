"""What the grader writes: the table it prints, one CSV row per submission, the gradebook (one row per
student across exercises, total out of 100), and the grade-import files of Moodle and Canvas.

Columns (stable; CHANGELOG lists changes):

- ``submissions.csv``: student_id, name, exercise, file, edition, submitted, days_late, points, possible,
  percent, final_percent (after the late rule), status (codes, each with its cells: ``runtime_error(5,9)``),
  details (``code: detail``, the detail as recorded: a size, an exception, or a code such as ``not_json``),
  then one column per task: ``correct``, ``carried_forward``, ``not_attempted``, ``cell_error(N)`` (the cell N
  that should define the variable raised) or the checker's code.
- ``gradebook.csv``: student_id, name, email, one column per exercise (its final percentage; empty when
  not handed in, ``review`` when held for review), ``total (100 × points earned / points possible)`` (empty
  while a submission of the student is held), missing, held_for_review (a file held under a name two students
  share marks both of them held, not "not handed in", and makes no row of its own). The total is the points
  earned (after the late rule) over the points possible across the gradebook's exercises (those handed in by
  anyone and those named by ``--exercises``): an exercise with more points weighs more, one not handed in
  counts 0.
- ``moodle_grades.csv`` (Moodle gradebook → Import → CSV file): ID number, Email address, Full name, and the
  grade item's column. Moodle's import matches the user by a column you map: "ID number" to
  useridnumber, or "Email address" to useremail (docs.moodle.org, "Grade import"); its export uses the same
  column names.
- ``moodle_worksheet.csv`` (Moodle assignment → "Upload grading worksheet"; written when the submissions
  came from a Moodle download, whose folder names carry each student's participant number): Identifier
  ("Participant 123"), Full name, Email address, Grade, Maximum Grade, Last modified (grade), Feedback
  comments; the three columns Moodle's importer requires are Identifier, Grade and Last modified (grade)
  (mod/assign/feedback/offline/importgradeslib.php), named as in Moodle's English language pack.
- ``moodle_feedback.zip`` (Moodle assignment → "Upload multiple feedback files in a zip"): a folder per
  participant, ``Full Name_123_assignsubmission_file_/``, holding the student's feedback pages.
- ``canvas_grades.csv`` (Canvas Gradebook → Import): Student, ID, SIS User ID, SIS Login ID (only when the
  roster gives logins), Section, then
  the assignment's column, and a "Points Possible" row, as Canvas's gradebook importer reads them
  (canvas-lms app/models/gradebook_importer.rb): "Student" then "ID" first, "Section" last of the student
  columns; a student is matched by Canvas user ID, else by SIS User ID or SIS Login ID, else by name.

Grades in the LMS files are out of ``--max-grade`` (100 unless given). A student with a submission held for
review (``integrity``) is in no LMS file until ``review.csv`` decides. With a roster, the LMS files hold only
its students (an unknown user stops Moodle's whole import); a student
outside it stays in submissions.csv and gradebook.csv as ``not_in_roster``. No LMS file gets a row without the
identifier its importer matches on (the ID number for moodle_grades.csv, the participant number for the
worksheet, a Canvas or SIS ID or login for Canvas). Names and e-mails come from the roster when the report is
written (``current``).

Every CSV is UTF-8 with a byte-order mark, which Excel needs to show Chinese and which Moodle and Canvas
accept; a control character (an ANSI escape, a carriage return) is written as an escape such as ``\\x1b``
(``printable``, as on the console), and a cell that starts with = + - @ or a tab gets a leading apostrophe
(``neutral``).
Each file is written whole to a temporary name and then renamed, so a reader never sees half a file.
"""

import csv
import os
import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from attn_core.lang import display_width

from .. import exercises
from ..messages import msg
from .checking import language
from .integrity import ambiguous_candidates, decision_percent
from .marks import exercise_mark, rounded, total
from .results import Note, latest

PASS_MARK, CARRIED_MARK = "✓", "✓*"
MOODLE_GRADEBOOK = ("ID number", "Email address", "Full name")
MOODLE_WORKSHEET = (
    "Identifier",
    "Full name",
    "Email address",
    "Grade",
    "Maximum Grade",
    "Last modified (grade)",
    "Feedback comments",
)
CANVAS_STUDENT = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
TOTAL_COLUMN = "total (100 × points earned / points possible)"


_FORMULA = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"^[+-]?\d+(?:\.\d+)?$")


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text):
    """``text`` with every control character but newline and tab (C0, DEL, C1: the ANSI escapes that clear
    a terminal or recolour it, a carriage return that overwrites a line) shown as an escape (``\\x1b``), so
    text from a submission (an exception's message, a file or folder name) cannot rewrite what the teacher
    sees in the console or a report."""
    text = text if isinstance(text, str) else str(text)
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text) if _CONTROL.search(text) else text


class PrintableStream:
    """A text stream that writes through ``printable`` (the grader's console while it runs)."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        return self.stream.write(printable(text))

    def __getattr__(self, name):
        return getattr(self.stream, name)


def neutral(cell):
    """A CSV cell a spreadsheet will not run: text starting with = + - @, a tab or a carriage return gets a
    leading apostrophe (OWASP, "CSV Injection"); a plain number such as -5 stays a number."""
    text = cell if isinstance(cell, str) else str(cell)
    if text.startswith(_FORMULA) and not _PLAIN_NUMBER.match(text):
        return "'" + text
    return cell


def _write(path, rows):
    """Write a CSV file whole (a temporary name, then renamed), every cell ``printable`` and ``neutral``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "w", newline="", encoding="utf-8-sig") as f:
        csv.writer(f).writerows([[neutral(printable(c) if isinstance(c, str) else c) for c in row] for row in rows])
    os.replace(partial, path)


def in_order(records):
    """Records by exercise (the registry's order), then by student: the same order on every run."""
    order = {name: i for i, name in enumerate(exercises.EXERCISES)}
    return sorted(records, key=lambda r: (order.get(r.exercise, len(order)), r.student.key, r.label))


def task_ids(records):
    ids = []
    for record in records:
        for t in record.tasks:
            if t.id not in ids:
                ids.append(t.id)
    return sorted(ids, key=lambda i: tuple(int(x) if x.isdigit() else x for x in i.split(".")))


# ---------------------------------------------------------------- statuses, in words


def cells_text(cells):
    return msg("cells", numbers=msg("list_separator").join(map(str, cells))) if cells else ""


def detail_text(detail):
    """A status's or a skipped file's detail in the current language: a code (``not_json``, or ``code:value``
    as in ``read_error:PermissionError``) that has words as ``detail_<code>``; anything else as it is (a size,
    a file extension, an exception's name and message)."""
    code, _, value = str(detail).partition(":")
    key = f"detail_{code}"
    return msg(key, value=detail_text(value.strip())) if code.isidentifier() and key in msg else detail


def skip_text(entry):
    """Why a file was skipped, in the current language."""
    return msg(f"skip_{entry.reason}", detail=detail_text(entry.detail))


def note_text(note):
    """A status in the current language, e.g. "error in cell 5" / "运行出错（第 5 格）"."""
    detail = detail_text(note.detail)
    if note.code == "cells_changed" and detail:
        detail = ", ".join(
            msg(f"change_{kind}", number=number) if f"change_{kind}" in msg else part
            for part in detail.split(", ")
            for number, _, kind in [part.partition(" ")]
        )
    key = f"status_{note.code}"
    if key not in msg:
        return note.code
    return msg(key, cells=cells_text(note.cells), detail=detail).strip().rstrip("；;").strip()


def status_text(record):
    return "; ".join(note_text(n) for n in record.notes)


def status_codes(record):
    return "; ".join(n.csv_text() for n in record.notes)


# ---------------------------------------------------------------- marks of a record


@dataclass(frozen=True)
class Mark:
    earned: float
    possible: float
    percent: float
    days_late: int
    final: float  # percent after the late rule


def mark(record, points, late):
    """The record's Mark; a teacher's review decision that is a number is its final percentage."""
    if not record.exercise:
        return Mark(0.0, 0.0, 0.0, 0, 0.0)
    earned, possible, percent = exercise_mark(record.codes, record.exercise, points)
    days = late.days_late(record.submitted, record.lms_late, record.student)
    final = late.apply(percent, days)
    given = decision_percent(getattr(record, "decision", ""))
    if given is not None:
        final = given
    return Mark(earned, possible, percent, days, final)


def with_late_note(record, late):
    """The record's notes with "late" added when the deadline says so (it depends on the current rule)."""
    days = late.days_late(record.submitted, record.lms_late, record.student)
    notes = [n for n in record.notes if n.code != "late"]
    return notes + [Note("late", detail=str(days))] if days else notes


# ---------------------------------------------------------------- the records to report


def current(records, roster=None):
    """The records to report: one per student and exercise, the latest (``results.latest``), each naming its
    student as ``roster`` knows them now (a result graded before the roster was given gets its name and
    e-mail) and marked ``not_in_roster`` by this roster. The LMS's numbers (Moodle participant, Canvas user
    ID) found in any record of a student are kept, so a resubmission that did not come through the LMS
    still reaches the grading worksheet."""
    resolved = []
    numbers = {}  # student key -> {"participant": …, "canvas_id": …}, from every record, the latest known
    for record in records:
        student = roster.resolve(record.student) if roster else record.student
        known = numbers.setdefault(student.key, {})
        for name in ("participant", "canvas_id"):
            if getattr(student, name):
                known[name] = getattr(student, name)
        resolved.append((record, student))
    named = []
    for record, student in resolved:
        student = replace(student, **{k: v for k, v in numbers[student.key].items() if not getattr(student, k)})
        notes = record.notes
        if roster is not None:
            notes = [n for n in notes if n.code != "not_in_roster"]
            held_name = any(n.code == "ambiguous_name" for n in notes)  # held under two rostered students
            notes += [] if student.in_roster or held_name else [Note("not_in_roster")]
        named.append(replace(record, student=student, notes=notes))
    return latest(named)


# ---------------------------------------------------------------- the printed table


def _student_label(student):
    if student.name and student.id:
        return f"{student.name} {student.id}"
    return student.name or student.id or student.key


def table(records, points, late):
    """One block per exercise: a row per submission, a column per task (✓, ✓* carried forward, or the
    checker's code), the points, the percentage and the status; in the current language."""
    blocks, groups = [], {}
    for record in in_order(records):
        groups.setdefault(record.exercise, []).append(record)
    order = list(exercises.EXERCISES)
    for exercise, group in sorted(groups.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99):
        ids = task_ids(group)
        rows = [[msg("col_student"), *ids, msg("col_points"), msg("col_percent"), msg("col_status")]]
        for record in group:
            m = mark(record, points, late)
            marks = {
                t.id: PASS_MARK if t.code == "correct" else CARRIED_MARK if t.ok else t.csv_text for t in record.tasks
            }
            percent = rounded(m.final) + ("" if m.final == m.percent else f" ({rounded(m.percent)})")
            rows.append(
                [
                    _student_label(record.student),
                    *[marks.get(i, "") for i in ids],
                    f"{rounded(m.earned)}/{rounded(m.possible)}" if record.exercise else "",
                    percent if record.exercise else "",
                    "; ".join(note_text(n) for n in with_late_note(record, late)),
                ]
            )
        widths = [max(display_width(row[c]) for row in rows) for c in range(len(rows[0]))]
        title = exercise or msg("exercise_unknown")
        if exercise in exercises.EXERCISES:
            title = f"{exercise} · {exercises.EXERCISES[exercise].title}"
        lines = [title] + [
            "  ".join(cell + " " * (w - display_width(cell)) for cell, w in zip(row, widths)).rstrip() for row in rows
        ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# ---------------------------------------------------------------- one row per submission


SUBMISSION_COLUMNS = (
    "student_id",
    "name",
    "exercise",
    "file",
    "edition",
    "submitted",
    "days_late",
    "points",
    "possible",
    "percent",
    "final_percent",
    "status",
    "details",
)


def _when(timestamp):
    return datetime.fromtimestamp(timestamp).isoformat(sep=" ", timespec="minutes") if timestamp else ""


def write_submissions(records, path, points, late):
    ids = task_ids(records)
    rows = [[*SUBMISSION_COLUMNS, *ids]]
    for record in in_order(records):
        m = mark(record, points, late)
        notes = with_late_note(record, late)
        details = "; ".join(f"{n.code}: {n.detail}" for n in notes if n.detail)
        codes = {t.id: t.csv_text for t in record.tasks}
        rows.append(
            [
                record.student.id,
                record.student.name,
                record.exercise or "",
                record.label,
                record.edition,
                _when(record.submitted),
                m.days_late,
                rounded(m.earned),
                rounded(m.possible),
                rounded(m.percent),
                rounded(m.final),
                "; ".join(n.csv_text() for n in notes),
                details,
                *[codes.get(i, "") for i in ids],
            ]
        )
    _write(path, rows)


# ---------------------------------------------------------------- the gradebook: one row per student


@dataclass
class StudentRow:
    student: object
    finals: dict  # exercise -> final percent
    marks: dict  # exercise -> Mark
    total: float
    missing: list
    held: list = field(default_factory=list)  # exercises with a submission held for review
    records: dict = field(default_factory=dict)  # exercise -> the record that counts


def gradebook_rows(records, points, late, roster=None, include=()):
    """One StudentRow per student (the roster's first, in its order, then anyone else by key), over the
    exercises in ``include`` and every exercise handed in."""
    names = [e for e in exercises.EXERCISES if e in set(include) | {r.exercise for r in records if r.exercise}]
    by_key = {}
    for student in roster.students if roster else ():
        by_key[student.key] = StudentRow(student, {}, {}, 0.0, [])
    in_roster = list(by_key)
    for record in in_order(records):
        if not record.exercise:
            continue
        key = record.student.key
        candidates = [c for c in ambiguous_candidates(record) if c in in_roster] if record.held else []
        if candidates and key not in in_roster:
            # a name two students share: each of them is "held for review" for this exercise (never "not
            # handed in", never uploaded) until review.csv says whose it is; no row of its own
            for candidate in candidates:
                if record.exercise not in by_key[candidate].held:
                    by_key[candidate].held.append(record.exercise)
            continue
        if key not in by_key:
            by_key[key] = StudentRow(record.student, {}, {}, 0.0, [])
        else:  # what the LMS said about a roster student (participant number, Canvas ID) is kept
            known = by_key[key].student
            extra = {k: v for k, v in record.student.__dict__.items() if v and not getattr(known, k)}
            by_key[key].student = replace(known, **extra)
        if record.held:
            by_key[key].held.append(record.exercise)
            continue
        m = mark(record, points, late)
        by_key[key].marks[record.exercise] = m
        by_key[key].finals[record.exercise] = m.final
        by_key[key].records[record.exercise] = record
    for row in by_key.values():
        pairs = []
        for exercise in names:
            possible = points.possible(exercise)
            if exercise in row.marks:
                pairs.append((row.marks[exercise].final / 100.0 * possible, possible))
            else:
                pairs.append((0.0, possible))
                row.missing.append(exercise)
        row.total = total(pairs)
    others = sorted(key for key in by_key if key not in set(in_roster))
    return [by_key[key] for key in in_roster + others], names


def write_gradebook(rows, names, path):
    table_rows = [["student_id", "name", "email", *names, TOTAL_COLUMN, "missing", "held_for_review"]]
    for row in rows:
        table_rows.append(
            [
                row.student.id,
                row.student.name,
                row.student.email,
                # held wins over a mark of the student's own: the held file may be theirs too (README §3)
                *["review" if n in row.held else rounded(row.finals[n]) if n in row.finals else "" for n in names],
                "" if row.held else rounded(row.total),
                " ".join(n.split("_")[0] for n in row.missing if n not in row.held),
                " ".join(n.split("_")[0] for n in row.held),
            ]
        )
    _write(path, table_rows)


def _feedback_line(row, names, most=3):
    """The worksheet's feedback comment, in the language of the student's submissions: per exercise the
    points, and the checker's hint for the first tasks not right (what to do next), never an answer."""
    editions = [r.edition for r in row.records.values()]
    with language(editions[0] if editions else "zh"):
        parts = []
        for name in names:
            short = name.split("_")[0]
            if name not in row.marks:
                parts.append(msg("fc_missing", exercise=short))
                continue
            m = row.marks[name]
            text = msg("fc_exercise", exercise=short, earned=rounded(m.earned), possible=rounded(m.possible))
            wrong = [t for t in row.records[name].tasks if not t.ok]
            hints = [msg("fc_task", task=t.id, hint=t.message) for t in wrong[:most]]
            if len(wrong) > most:
                hints.append(msg("fc_see_feedback"))
            parts.append(text + (" — " + " ".join(hints) if hints else ""))
        return "\n".join(parts)


# ---------------------------------------------------------------- the LMS files


def lms_rows(rows, roster=None):
    """(the gradebook rows for the LMS files, the rows left out because their student is not in the roster).
    Moodle's grade import stops altogether at a user it cannot find, so with a roster only its students go."""
    if roster is None:
        return [r for r in rows if not r.held], []
    return [r for r in rows if r.student.in_roster and not r.held], [r for r in rows if not r.student.in_roster]


def held_rows(rows):
    """The gradebook rows left out of the LMS files because a submission of theirs is held for review."""
    return [r for r in rows if r.held]


def _moodle_identifier(student):
    return student.id  # the "ID number" column (useridnumber)


def _canvas_identifier(student):
    return student.canvas_id or student.id or student.login or student.email


IDENTIFIERS = {  # file -> (what identifies a student's row, the columns named in a message)
    "moodle_grades.csv": (_moodle_identifier, "ID number"),
    "canvas_grades.csv": (_canvas_identifier, "ID / SIS User ID / SIS Login ID"),
}


def _names(rows, most=5):
    labels = [_student_label(row.student) for row in rows]
    return msg("list_separator").join(labels[:most]) + ("…" if len(labels) > most else "")


_LMS_LIKE = re.compile(r"(?i)_\d{3,}_\d{3,}(_|$)|_assignsubmission_")


def _one_apart(a, b):
    """Whether two numbers differ in one character (2026O15 / 2026015), or by one left out or added."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def looks_misread(student, roster):
    """Whether an off-roster student looks like a name or number the grader misread rather than someone
    outside the class: a number one character away from a roster number, or a name like an LMS's file name."""
    if _LMS_LIKE.search(student.name or "") or _LMS_LIKE.search(student.key or ""):
        return True
    number = student.id or ""
    return bool(roster and len(number) >= 4 and any(_one_apart(number, s.id) for s in roster.students if s.id))


def left_out_lines(rows, outside, roster=None):
    """What the grader says about students left out of the LMS files: those not in the roster (``outside``),
    those of them that look misread (``looks_misread``) on a line of their own, and, per file, those of
    ``rows`` without the identifier it needs."""
    lines = []
    misread = [row for row in outside if looks_misread(row.student, roster)]
    outside = [row for row in outside if row not in misread]
    if misread:
        lines.append(msg("g_lms_unmatched", n=len(misread), students=_names(misread)))
    if outside:
        lines.append(msg("g_lms_not_in_roster", n=len(outside), students=_names(outside)))
    for file, (identifier, columns) in IDENTIFIERS.items():
        unnamed = [row for row in rows if not identifier(row.student)]
        if unnamed:
            students = _names(unnamed)
            lines.append(msg("g_lms_no_identifier", file=file, n=len(unnamed), students=students, columns=columns))
    return lines


def total_legend(names, points):
    """How the gradebook's total is computed, with each exercise's points possible."""
    weights = msg("list_separator").join(
        msg("g_exercise_points", exercise=name.split("_")[0], points=rounded(points.possible(name))) for name in names
    )
    return msg("g_total_legend", column=TOTAL_COLUMN, weights=weights)


def scaled(total_percent, max_grade):
    """A total out of 100 as a grade out of ``max_grade`` (the LMS grade item's maximum)."""
    return rounded(total_percent * float(max_grade) / 100.0)


def write_moodle(rows, names, folder, item, max_grade=100):
    """``moodle_grades.csv`` (the rows with an ID number), and ``moodle_worksheet.csv`` when participant numbers
    are known (those rows, every rostered student whose number is known, handed in or not); grades out of
    ``max_grade``; returns the paths."""
    written = [Path(folder) / "moodle_grades.csv"]
    _write(
        written[0],
        [[*MOODLE_GRADEBOOK, item]]
        + [
            [row.student.id, row.student.email, row.student.name, scaled(row.total, max_grade)]
            for row in rows
            if _moodle_identifier(row.student)
        ],
    )
    with_participant = [row for row in rows if row.student.participant]
    if with_participant:
        now = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
        written.append(Path(folder) / "moodle_worksheet.csv")
        _write(
            written[1],
            [list(MOODLE_WORKSHEET)]
            + [
                [
                    f"Participant {row.student.participant}",
                    row.student.name,
                    row.student.email,
                    scaled(row.total, max_grade),
                    rounded(max_grade),
                    now,
                    _feedback_line(row, names),
                ]
                for row in with_participant
            ],
        )
    return written


def write_canvas(rows, folder, item, max_grade=100):
    """``canvas_grades.csv``: the rows with a Canvas ID, SIS User ID or SIS Login ID, grades out of
    ``max_grade`` (the Points Possible row); the ``SIS Login ID`` column only when some student has a login
    (an e-mail is not a login). ``item`` is the assignment's column: ``Name (12345)``, as Canvas's own export
    names it, updates that existing assignment; a plain name makes Canvas create a new one. Returns its path."""
    path = Path(folder) / "canvas_grades.csv"
    logins = any(row.student.login for row in rows)
    columns = [c for c in CANVAS_STUDENT if logins or c != "SIS Login ID"]
    body = [[*columns, item], ["Points Possible", *[""] * (len(columns) - 1), rounded(max_grade)]]
    for row in rows:
        s = row.student
        if _canvas_identifier(s):
            cells = [s.name or s.key, s.canvas_id, s.id] + ([s.login] if logins else []) + [s.section]
            body.append([*cells, scaled(row.total, max_grade)])
    _write(path, body)
    return path


def write_moodle_feedback_zip(rows, records, folder, pages):
    """``moodle_feedback.zip``: one folder per participant as Moodle's download names it
    (``Full Name_123_assignsubmission_file_/``) holding that student's feedback pages, the layout Moodle's
    "Upload multiple feedback files in a zip" reads (mod/assign/feedback/file/importziplib.php: the path split
    at "_" gives the participant number second, so "_" in a name becomes a space). ``pages`` maps a record's
    label to its page's path. Returns the zip's path, or None when no participant number is known."""
    import zipfile

    with_participant = [row for row in rows if row.student.participant]
    if not with_participant:
        return None
    path = Path(folder) / "moodle_feedback.zip"
    partial = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
        for row in with_participant:
            name = re.sub(r"[_/\\]+", " ", row.student.name or row.student.id or "student").strip()
            top = f"{name}_{row.student.participant}_assignsubmission_file_"
            for record in row.records.values():
                page = pages.get(record.label)
                if page is not None and Path(page).is_file():
                    z.write(page, f"{top}/{Path(page).name}")
    os.replace(partial, path)
    return path


def safe_name(text):
    """A file name part from a student key or name: letters (any script), digits, - and _."""
    return re.sub(r"[^\w\-]+", "_", str(text)).strip("_")[:80] or "student"
