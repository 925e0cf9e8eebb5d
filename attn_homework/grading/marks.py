"""Marks: points per task, a percentage per exercise, a total out of 100, and the late rule.

Each task is worth its registry points (``Task.points``, 1 unless the registry says otherwise); a teacher's
points file overrides them: a CSV of ``task,points`` rows (``2.1,3``), a header row allowed. A task counts
when it is right, or right for the student's own earlier answer (error carried forward). An exercise's
mark is the points earned over the points possible, as a percentage; the total is the points earned over
the points possible across the exercises of the gradebook (an exercise a student did not hand in counts 0).

Late work (``--deadline``; ``none`` for no deadline): days late are whole days after the deadline, counted
from the submission time the LMS or the file records; a Canvas file marked LATE counts at least one day,
whether or not it has a time. An extensions file (``--extensions``: rows of ``student,deadline``) gives a
student a deadline of their own (``none``: none), and then Canvas's LATE mark (made against the class's
deadline) does not count. The rule: ``none`` (only reported), ``zero``, or a penalty in percentage points
per day late (``10`` or ``penalty:10``).
"""

import csv
import io
import math
import re
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from .. import exercises
from ..messages import msg

PASSED = ("correct", "carried_forward")


class MarksError(ValueError):
    """A points file or a late rule that cannot be used, with the reason."""


class Points:
    """Points per task: the registry's, overridden by a teacher's file."""

    def __init__(self, overrides=None):
        self.overrides = dict(overrides or {})

    @classmethod
    def read(cls, path):
        text = Path(path).read_bytes().decode("utf-8-sig", errors="replace")
        overrides = {}
        for number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
            if not row or not row[0].strip() or row[0].strip().startswith("#"):
                continue
            task_id = row[0].strip()
            if number == 1 and task_id.lower() in ("task", "题号", "id"):
                continue
            if task_id not in exercises.TASKS:
                raise MarksError(
                    msg("marks_no_task", path=path, row=number, task_id=task_id, ids=", ".join(exercises.TASKS))
                )
            try:
                points = float(row[1])
            except (IndexError, ValueError):
                raise MarksError(msg("marks_not_number", path=path, row=number, task_id=task_id)) from None
            if not math.isfinite(points) or points < 0:
                raise MarksError(msg("marks_negative", path=path, row=number, task_id=task_id))
            overrides[task_id] = points
        return cls(overrides)

    def of(self, task_id):
        if task_id in self.overrides:
            return self.overrides[task_id]
        task = exercises.TASKS.get(task_id)
        return float(getattr(task, "points", 1.0)) if task is not None else 1.0

    def possible(self, exercise):
        return sum(self.of(t.id) for t in exercises.tasks(exercise))


@dataclass(frozen=True)
class LateRule:
    """The deadline (POSIX time, or None) and what happens after it."""

    deadline: float | None = None
    kind: str = "none"  # "none", "zero" or "penalty"
    per_day: float = 0.0  # percentage points per day late
    extensions: tuple = ()  # ((student number or key, their deadline as POSIX time, or None: no deadline), …)

    @classmethod
    def parse(cls, deadline=None, rule="none"):
        when = None
        if deadline and str(deadline).strip().lower() != "none":
            try:
                when = datetime.fromisoformat(str(deadline).strip().replace("/", "-")).timestamp()
            except ValueError:
                raise MarksError(msg("marks_deadline", deadline=deadline)) from None
        text = str(rule or "none").strip().lower()
        if text in ("none", "zero"):
            return cls(when, text, 0.0)
        match = re.fullmatch(r"(?:penalty:)?\s*(\d+(?:\.\d+)?)\s*%?", text)
        if not match:
            raise MarksError(msg("marks_late", rule=rule))
        return cls(when, "penalty", float(match.group(1)))

    def deadline_of(self, student=None):
        """The student's deadline: their extension if the extensions file names them, else the class's."""
        for who, when in self.extensions:
            if student is not None and who in (student.id, student.key):
                return when
        return self.deadline

    def days_late(self, submitted, lms_late=False, student=None):
        """Whole days after the student's deadline; a file the LMS marks late (Canvas's ``_LATE``) is at least
        one day late, whatever its time says, unless the student has an extension it is within."""
        deadline = self.deadline_of(student)
        if deadline is None:
            return 0
        extended = deadline != self.deadline
        days = max(0, math.ceil((submitted - deadline) / 86400)) if submitted is not None else 0
        if lms_late and not extended:
            days = max(days, 1)
        return days

    def with_extensions(self, path):
        """This rule with the extensions file at ``path``: a CSV of ``student,deadline`` rows (a student number,
        ``2026-12-10 23:59`` or ``none``), a header row allowed."""
        text = Path(path).read_bytes().decode("utf-8-sig", errors="replace")
        found = []
        for number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
            if len(row) < 2 or not row[0].strip() or row[0].strip().startswith("#"):
                continue
            who, when = row[0].strip(), row[1].strip()
            if number == 1 and who.lower() in ("student", "student_id", "id", "学号"):
                continue
            if when.lower() in ("none", "无"):
                found.append((who, None))
                continue
            try:
                found.append((who, datetime.fromisoformat(when.replace("/", "-")).timestamp()))
            except ValueError:
                raise MarksError(msg("marks_extension", path=path, row=number, deadline=when)) from None
        return LateRule(self.deadline, self.kind, self.per_day, tuple(found))

    def apply(self, percent, days):
        if days <= 0 or self.kind == "none":
            return percent
        if self.kind == "zero":
            return 0.0
        return max(0.0, percent - self.per_day * days)


def exercise_mark(tasks, exercise, points):
    """(earned, possible, percent) of one submission's task results ({task id: code})."""
    possible = points.possible(exercise)
    earned = sum(points.of(t.id) for t in exercises.tasks(exercise) if tasks.get(t.id) in PASSED)
    percent = 100.0 * earned / possible if possible else 0.0
    return earned, possible, percent


def total(marks):
    """The total out of 100 over (earned scaled by the late rule, possible) pairs."""
    possible = sum(p for _, p in marks)
    return 100.0 * sum(e for e, _ in marks) / possible if possible else 0.0


def rounded(x):
    """A mark as written in the reports: one decimal, halves rounded up as a teacher does (56.25 -> 56.3,
    where Python's own rounding gives 56.2), no trailing ".0"."""
    text = str(Decimal(repr(float(x) + 0.0)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
    return text[:-2] if text.endswith(".0") else text
