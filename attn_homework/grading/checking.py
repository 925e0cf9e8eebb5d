"""Checking the answers, in the grader's own process: the checker behind ``check("2.1")``, with data rebuilt
from the registry (the student's own data for a per-student assignment), never anything computed in the
submission's kernel but the answers themselves.

A find-the-bug task's probe arguments are drawn here at grading time (``draw_probes``), sent into the
kernel, and the returned values checked against the right function's output on the same arguments.
A task built on the student's own earlier answer (``Task.builds_on``) that is wrong for the task's data
but right for that earlier answer counts as ``carried_forward`` (``verdicts.right_for_earlier_answer``, which
``check`` uses too). A task whose variable does not exist because the cell that should define it raised is
``cell_error`` (attempted, failed: the cell and the exception are named), not ``not_attempted``.
"""

import contextlib
import secrets
from dataclasses import dataclass

import numpy as np

from attn_core import lang

from .. import exercises
from ..messages import msg
from ..task_data import student_data
from ..verdicts import MISSING, diagnose_task, judge_prediction, right_for_earlier_answer
from .answers import decode, decode_calls, encode_argument


@dataclass(frozen=True)
class TaskResult:
    """One task of one submission: ``code`` is "correct", "carried_forward", "cell_error" (with the ``cell``
    that raised) or the checker's code; the message is the one the student reads (in the submission's
    language), never the expected answer."""

    id: str
    code: str
    message: str
    cell: int | None = None

    @property
    def ok(self):
        return self.code in ("correct", "carried_forward")

    @property
    def csv_text(self):
        """The code as the table and submissions.csv show it: ``cell_error(10)``."""
        return self.code + (f"({self.cell})" if self.cell else "")

    def to_json(self):
        data = {"id": self.id, "code": self.code, "message": self.message}
        if self.cell:
            data["cell"] = self.cell
        return data


def draw_probes(exercise, seed=None):
    """For each find-the-bug task of ``exercise``: (its variable, the argument tuples, their JSON), drawn
    from a generator seeded now (a fresh seed per submission unless one is given)."""
    rng = np.random.default_rng(secrets.randbits(64) if seed is None else seed)
    drawn = {}
    for task in exercises.tasks(exercise):
        if task.answer_kind == "function" and task.probe_arguments is not None:
            arguments = [tuple(args) for args in task.probe_arguments(rng)]
            drawn[task.var] = (arguments, [[encode_argument(a) for a in args] for args in arguments])
    return drawn


@contextlib.contextmanager
def language(code):
    saved = lang.get_lang()
    lang.set_lang(code if code in lang.LANGS else "zh")
    try:
        yield
    finally:
        lang.set_lang(saved)


def check_answers(exercise, answers, probes=None, data_id=None, edition="zh", raised=None, revealed=None):
    """The TaskResult of every task of ``exercise`` from the kernel's answer entries ({variable: entry});
    ``raised`` is {variable: (cell number, "ExceptionName: message")} for the variables whose defining cell
    raised; ``revealed`` is {variable: the prediction recorded before its answer was shown} (read from the
    saved notebook): a predict task is judged on that one, as ``check`` does (``judge_prediction``)."""
    probes = probes or {}
    raised = raised or {}
    revealed = revealed or {}
    results, values = [], {}
    with language(edition), student_data(data_id):
        for task in exercises.tasks(exercise):
            entry = answers.get(task.var)
            if task.var in probes:
                value = decode_calls(entry, probes[task.var][0])
            else:
                value = decode(entry)
            values[task.id] = value
            if (value is MISSING or value is Ellipsis) and task.var in raised:  # the placeholder left, then it raised
                cell, error = raised[task.var]
                error = error if len(error) <= 200 else error[:199] + "…"
                results.append(
                    TaskResult(task.id, "cell_error", msg("cell_error", cell=cell, var=task.var, error=error), cell)
                )
                continue
            d = judge_prediction(task, value, diagnose_task(task.id, value), revealed.get(task.var))
            results.append(TaskResult(task.id, "correct" if d.ok else d.code, d.message))
        by_id = {r.id: r for r in results}
        for i, task in enumerate(exercises.tasks(exercise)):
            earlier = task.builds_on
            if earlier is None or results[i].ok or earlier.task_id not in by_id or by_id[earlier.task_id].ok:
                continue
            if right_for_earlier_answer(task, values[task.id], values[earlier.task_id]):
                results[i] = TaskResult(task.id, "carried_forward", msg("carried_forward", task_id=earlier.task_id))
    return results


def not_graded(exercise, edition="zh"):
    """The TaskResults of a submission that could not be run (unreadable, too large): every task
    ``not_attempted``, its message saying that the file was not graded rather than asking for the variable."""
    with language(edition):
        return [TaskResult(task.id, "not_attempted", msg("file_not_graded")) for task in exercises.tasks(exercise)]


def point_at_id_cell(results, edition="zh"):
    """A per-student submission whose ID cell is empty or missing: every task that failed because its data
    could not be drawn, or was drawn without the student's number, says to fill in the ID cell first (not a
    NameError of a variable the data cell never made)."""
    with language(edition):
        return [
            TaskResult(r.id, r.code, msg("student_id_needed"), r.cell) if not r.ok and r.code != "not_attempted" else r
            for r in results
        ]
