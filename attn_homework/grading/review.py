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
submission held. The rows are matched by the file's SHA-256 (``sha256``), so a
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


def read(folder):
    """{sha256: (decision, comment, student number)} from a grading folder's review.csv (empty decisions left
    out)."""
    path = Path(folder) / FILE_NAME
    if not path.is_file():
        return {}
    rows = list(csv.DictReader(io.StringIO(path.read_bytes().decode("utf-8-sig", errors="replace"))))
    found = {}
    for row in rows:
        decision = (row.get("decision") or "").strip().lower().lstrip("'")
        sha = (row.get("sha256") or "").strip().lstrip("'")
        if sha and (decision in DECISIONS or decision_percent(decision) is not None):
            found[sha] = (decision, row.get("comment") or "", (row.get("student_id") or "").strip().lstrip("'"))
    return found


def _moved_to(record, decisions, roster):
    """The rostered student the teacher filed a held record under (its ``student_id`` changed in review.csv,
    with ``accept`` or a number), or None."""
    if roster is None or not needs_review(record):
        return None
    decision, _, number = decisions.get(record.sha256, ("", "", ""))
    if not decision or decision == "reject" or not number or number == record.student.id:
        return None
    return roster.by("id", number)


def _rejected(record, decisions):
    return decisions.get(record.sha256, ("",))[0] == "reject"


def clashes(records, decisions, roster=None):
    """{sha256: detail} of the records kept held because a reassignment in review.csv would put two files on
    one student and exercise: the moved file and the student's own, both listed, neither replacing the other,
    until one of them is rejected."""
    live = [r for r in records if not _rejected(r, decisions)]
    moved = {r.sha256: s for r in live if (s := _moved_to(r, decisions, roster)) is not None}
    found = {}
    for record in live:
        target = moved.get(record.sha256)
        if target is None:
            continue
        for other in live:
            if other is record or other.exercise != record.exercise:
                continue
            other_key = moved[other.sha256].key if other.sha256 in moved else other.student.key
            if other_key == target.key:
                found[record.sha256] = f"student_id={target.id}; {other.label}"
                found[other.sha256] = f"student_id={target.id}; {record.label}"
    return found


def apply(records, decisions, roster=None):
    """The records with their decisions; rejected ones dropped; one the teacher filed under another rostered
    student (its ``student_id`` changed) is that student's. When that student has a file of the exercise
    already, neither replaces the other: both stay held, noted ``identity_conflict`` (``clashes``), until one
    of them is rejected."""
    clashing = clashes(records, decisions, roster)
    out = []
    for record in records:
        if record.sha256 in clashing:
            detail = clashing[record.sha256]
            notes = [n for n in record.notes if n.code != "identity_conflict"]
            out.append(replace(record, notes=notes + [Note("identity_conflict", detail=detail)], decision=""))
            continue
        reviewed = needs_review(record)
        decision = decisions.get(record.sha256, ("", "", ""))[0] if reviewed or _rejected(record, decisions) else ""
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
        if record.sha256 in clashing:
            codes = [c for c in codes if c != "identity_conflict"] + [f"identity_conflict({clashing[record.sha256]})"]
        if not codes:
            continue
        decision, comment, number = decisions.get(record.sha256, ("", "", ""))
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
