"""The teacher's review of the submissions held for it (``integrity``): ``review.csv`` in the grading folder.

Every run writes ``review.csv``: one row per held submission, its student, exercise, file, the mark the grader
computed and the reasons, and a ``decision`` column that the teacher fills in and that later runs keep:

- ``accept``: the computed mark counts (it goes to the LMS files);
- ``reject``: the submission does not count (the student's other submission of the exercise, if any, does);
- a number such as ``80``: the percentage to give instead.

Changing a row's ``student_id`` to another rostered student's number files the submission under that
student (with ``accept`` or a number): the way to settle a name two students share. An empty decision keeps
the submission held. The rows are matched by the file's SHA-256 (``sha256``), so a
file handed in again with other bytes is held again. ``attn-grade --out FOLDER`` (no submissions) reapplies
the decisions and rewrites the reports.
"""

import csv
import io
from dataclasses import replace
from pathlib import Path

from .integrity import SEPARATE, decision_percent, needs_review
from .results import latest

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


def apply(records, decisions, roster=None):
    """The records with their decisions; rejected ones dropped; one the teacher filed under another rostered
    student (its ``student_id`` changed) is that student's, in the place of their other submission."""
    out = []
    for record in records:
        decision, _, number = decisions.get(record.sha256, ("", "", "")) if needs_review(record) else ("", "", "")
        if decision == "reject":
            continue
        if decision and roster is not None and number and number != record.student.id:
            student = roster.by("id", number)
            if student is not None:
                record = replace(record, student=student, notes=[n for n in record.notes if n.code not in SEPARATE])
        out.append(replace(record, decision=decision) if decision else record)
    return latest(out)


def rows(records, decisions, mark):
    """The review.csv rows: every record that needs review, decided or not (the decision kept)."""
    table = []
    for record in records:
        codes = needs_review(record)
        if not codes:
            continue
        decision, comment, _ = decisions.get(record.sha256, ("", "", ""))
        m = mark(record)
        table.append(
            [
                decision,
                record.student.id,
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
