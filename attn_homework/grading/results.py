"""A graded submission, and the results file that keeps every one of them as it is graded.

The results file (``results.jsonl`` in the grading folder) gets one JSON line per graded submission,
appended and flushed to disk as soon as that submission is done, so a grader stopped halfway loses
nothing already graded. A rerun skips a submission whose exact bytes were graded already (unless told
to re-grade); a newer grading of the same student and exercise replaces the older one in every report,
in the older one's place, and leaves every other row as it was. The CSV files and feedback pages are made
from this file.

Statuses (``Note.code``), each with the cells it concerns: ``completed`` (ran to the end, nothing to
report), ``blank`` (no task attempted), ``syntax_error``, ``runtime_error``, ``timeout``, ``crashed`` (the
kernel died), ``memory_limit``, ``worker_died`` (the process running it was killed), ``could_not_start``,
``unreadable`` (not a notebook), ``too_large`` (not graded: the file, or its cells without outputs, is larger
than the grader reads), ``unknown_exercise``, ``cells_changed``, ``late``, ``id_mismatch``,
``no_student_id``, ``not_in_roster``, ``grader_error``; and the review statuses of ``integrity.REVIEW``
(``teacher_version``, ``identity_conflict``, …), which hold a mark out of the LMS files.
"""

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .checking import TaskResult
from .roster import Student

STATUSES = (
    "completed",
    "blank",
    "syntax_error",
    "runtime_error",
    "timeout",
    "crashed",
    "memory_limit",
    "worker_died",
    "could_not_start",
    "unreadable",
    "too_large",
    "unknown_exercise",
    "cells_changed",
    "late",
    "id_mismatch",
    "no_student_id",
    "not_in_roster",
    "grader_error",
    "teacher_version",
    "identity_conflict",
    "ambiguous_name",
    "other_students_data",
    "check_cells_changed",
    "reference_code",
    "unknown_release",
)
# Statuses that say the run ended early or never happened: "completed" is not added next to them.
RUN_ENDED = (
    "timeout",
    "crashed",
    "memory_limit",
    "worker_died",
    "could_not_start",
    "unreadable",
    "too_large",
    "grader_error",
)


@dataclass(frozen=True)
class Note:
    """One status of a submission: its code, the cells it concerns (numbered from 1), a detail."""

    code: str
    cells: tuple = ()
    detail: str = ""

    def to_json(self):
        data = {"code": self.code}
        if self.cells:
            data["cells"] = list(self.cells)
        if self.detail:
            data["detail"] = self.detail
        return data

    @classmethod
    def from_json(cls, data):
        return cls(str(data["code"]), tuple(data.get("cells", ())), str(data.get("detail", "")))

    def csv_text(self):
        return self.code + (f"({','.join(map(str, self.cells))})" if self.cells else "")


@dataclass
class Graded:
    """One graded submission."""

    label: str
    sha256: str
    exercise: str | None
    student: Student
    edition: str = "zh"
    submitted: float | None = None
    lms_late: bool = False
    data_id: str | None = None
    notes: list = field(default_factory=list)
    tasks: list = field(default_factory=list)
    graded_at: str = ""
    seconds: float = 0.0
    decision: str = ""  # the teacher's review decision (review.csv), given when the reports are written

    @property
    def held(self):
        """Held for review: a review status and no decision yet (``integrity``)."""
        from .integrity import needs_review

        return bool(needs_review(self)) and not self.decision

    @property
    def codes(self):
        return {t.id: t.code for t in self.tasks}

    def has(self, code):
        return any(n.code == code for n in self.notes)

    def to_json(self):
        return {
            "label": self.label,
            "sha256": self.sha256,
            "exercise": self.exercise,
            "student": self.student.to_json(),
            "edition": self.edition,
            "submitted": self.submitted,
            "lms_late": self.lms_late,
            "data_id": self.data_id,
            "notes": [n.to_json() for n in self.notes],
            "tasks": [t.to_json() for t in self.tasks],
            "graded_at": self.graded_at,
            "seconds": round(self.seconds, 2),
        }

    @classmethod
    def from_json(cls, data):
        return cls(
            label=data["label"],
            sha256=data["sha256"],
            exercise=data.get("exercise"),
            student=Student.from_json(data.get("student", {"key": data["label"]})),
            edition=data.get("edition", "zh"),
            submitted=data.get("submitted"),
            lms_late=bool(data.get("lms_late")),
            data_id=data.get("data_id"),
            notes=[Note.from_json(n) for n in data.get("notes", [])],
            tasks=[TaskResult(t["id"], t["code"], t.get("message", ""), t.get("cell")) for t in data.get("tasks", [])],
            graded_at=data.get("graded_at", ""),
            seconds=float(data.get("seconds", 0.0)),
        )

    @property
    def slot(self):
        """Where it goes in the gradebook: one per student and exercise."""
        from .integrity import SEPARATE

        if any(n.code in SEPARATE for n in self.notes):  # in doubt: never takes another's place
            return (self.student.key, f"{self.exercise}#{self.label}")
        return (self.student.key, self.exercise or f"?{self.label}")


def latest(records):
    """One record per student and exercise (``Record.slot``): the last of ``records`` in each, in the order
    the slots first appear."""
    order, last = [], {}
    for record in records:
        if record.slot not in last:
            order.append(record.slot)
        last[record.slot] = record
    return [last[slot] for slot in order]


class Store:
    """The results file: every graded submission, in the order graded; the latest per student and
    exercise is the one reported, in the place of the first."""

    def __init__(self, path=None):
        self.path = Path(path) if path else None
        self.records = []
        if self.path and self.path.is_file():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    self.records.append(Graded.from_json(json.loads(line)))
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut short when a grader was killed mid-write

    def graded(self, sha256, exercise, student_key):
        """The latest record of exactly these bytes, this exercise and this student, or None."""
        for record in reversed(self.records):
            if record.sha256 == sha256 and record.exercise == exercise and record.student.key == student_key:
                return record
        return None

    def add(self, graded):
        self.records.append(graded)
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as f:
            # C1 controls (which a terminal showing the file may obey) escaped too, as \u0080…\u009f
            line = json.dumps(graded.to_json(), ensure_ascii=False)
            f.write(re.sub("[\x7f-\x9f]", lambda m: f"\\u{ord(m.group()):04x}", line) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def latest(self):
        """One record per student and exercise: the latest (the reports sort them)."""
        return latest(self.records)
