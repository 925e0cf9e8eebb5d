"""The teacher's review of the submissions held for it (``integrity``): ``review.csv`` in the grading folder.

Every run writes ``review.csv``: one row per held submission, its student, exercise, file, the mark the grader
computed and the reasons, and a ``decision`` column that the teacher fills in and that later runs keep:

- ``accept``: the computed mark counts (it goes to the LMS files);
- ``reject``: the submission does not count (the student's other submission of the exercise, if any, does);
- a number such as ``80``: the percentage to give instead.

Changing a row's ``student_id`` to another rostered student's number files the submission under that
student (with ``accept`` or a number): the way to settle a name two students share; the rewritten file keeps
the number written in. If that student has a file of the exercise already, neither replaces the other: both
are listed, held (``identity_conflict``), until one of them is rejected. An empty decision keeps the
submission held. A row applies to the one submission it was written for: its ``file`` (the path in the
LMS download or folder, which names the student's LMS folder) and its SHA-256 (``sha256``) together, so a
decision on a copied notebook never touches the byte-identical original another student handed in, and a
file handed in again with other bytes is held again. ``attn-grade --out FOLDER`` (no submissions) reapplies
the decisions and rewrites the reports.
"""

import csv
import io
from dataclasses import replace
from pathlib import Path

from .integrity import SEPARATE, decision_percent, needs_review
from .results import Note, latest

FILE_NAME = "review.csv"
COLUMNS = ("decision", "student_id", "name", "exercise", "percent", "reasons", "file", "sha256", "comment")
DECISIONS = ("accept", "reject")


def key(record):
    """What a review.csv row is matched by: the submission's file (its path, the LMS folder included) and its
    SHA-256. Never the hash alone: two students' byte-identical notebooks are two submissions."""
    return (record.label, record.sha256)


def _get(decisions, record, default=("", "", "")):
    return decisions.get(key(record), default)


def read(folder):
    """{(file, sha256): (decision, comment, student number)} from a grading folder's review.csv (empty
    decisions, and rows without their file or hash, left out)."""
    path = Path(folder) / FILE_NAME
    if not path.is_file():
        return {}
    rows = list(csv.DictReader(io.StringIO(path.read_bytes().decode("utf-8-sig", errors="replace"))))
    found = {}
    for row in rows:
        decision = (row.get("decision") or "").strip().lower().lstrip("'")
        sha = (row.get("sha256") or "").strip().lstrip("'")
        file = (row.get("file") or "").strip()
        if file.startswith("'") and file[1:2] in "=+-@\t":  # written as text (reports._write)
            file = file[1:]
        if sha and file and (decision in DECISIONS or decision_percent(decision) is not None):
            found[(file, sha)] = (decision, row.get("comment") or "", (row.get("student_id") or "").strip().lstrip("'"))
    return found


def _moved_to(record, decisions, roster):
    """The rostered student the teacher filed a held record under (its ``student_id`` changed in review.csv,
    with ``accept`` or a number), or None."""
    if roster is None or not needs_review(record):
        return None
    decision, _, number = _get(decisions, record)
    if not decision or decision == "reject" or not number or number == record.student.id:
        return None
    return roster.by("id", number)


def _rejected(record, decisions):
    return _get(decisions, record)[0] == "reject"


def clashes(records, decisions, roster=None):
    """{key: detail} of the records kept held because a reassignment in review.csv would put two files on
    one student and exercise: the moved file and the student's own, both listed, neither replacing the other,
    until one of them is rejected."""
    live = [r for r in records if not _rejected(r, decisions)]
    moved = {key(r): s for r in live if (s := _moved_to(r, decisions, roster)) is not None}
    found = {}
    for record in live:
        target = moved.get(key(record))
        if target is None:
            continue
        for other in live:
            if other is record or other.exercise != record.exercise:
                continue
            other_key = moved[key(other)].key if key(other) in moved else other.student.key
            if other_key == target.key:
                found[key(record)] = f"student_id={target.id}; {other.label}"
                found[key(other)] = f"student_id={target.id}; {record.label}"
    return found


def apply(records, decisions, roster=None):
    """The records with their decisions; rejected ones dropped; one the teacher filed under another rostered
    student (its ``student_id`` changed) is that student's. When that student has a file of the exercise
    already, neither replaces the other: both stay held, noted ``identity_conflict`` (``clashes``), until one
    of them is rejected."""
    clashing = clashes(records, decisions, roster)
    out = []
    for record in records:
        if key(record) in clashing:
            detail = clashing[key(record)]
            notes = [n for n in record.notes if n.code != "identity_conflict"]
            out.append(replace(record, notes=notes + [Note("identity_conflict", detail=detail)], decision=""))
            continue
        reviewed = needs_review(record)
        decision = _get(decisions, record)[0] if reviewed or _rejected(record, decisions) else ""
        if decision == "reject":
            continue
        student = _moved_to(record, decisions, roster)
        if student is not None:
            record = replace(record, student=student, notes=[n for n in record.notes if n.code not in SEPARATE])
        out.append(replace(record, decision=decision) if decision else record)
    return latest(out)


def rows(records, decisions, mark, roster=None):
    """The review.csv rows: every record that needs review, decided or not (the decision kept, and the
    ``student_id`` the teacher wrote in, when they filed it under another student), and every record kept
    held by a clash (``clashes``), its detail in ``reasons``."""
    clashing = clashes(records, decisions, roster)
    table = []
    for record in records:
        codes = needs_review(record)
        if key(record) in clashing:
            codes = [c for c in codes if c != "identity_conflict"] + [f"identity_conflict({clashing[key(record)]})"]
        if not codes:
            continue
        decision, comment, number = _get(decisions, record)
        m = mark(record)
        table.append(
            [
                decision,
                number or record.student.id,
                record.student.name,
                record.exercise or "",
                f"{m.percent:.1f}",
                " ".join(codes),
                record.label,
                record.sha256,
                comment,
            ]
        )
    return [list(COLUMNS)] + table
