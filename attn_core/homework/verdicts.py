"""What the exercise notebooks call to check a task: ``check("2.1")`` and ``progress("ex02")``, and the
``diagnose_task`` behind them (the grader's too).

    check("2.1")          reads the variable ``QKT`` from the notebook and prints one line:
                          ✅ correct / ❌ what is wrong and a hint / ⏳ not attempted yet.
                          It never raises, even if ``QKT`` is not defined.
    diagnose_task(id, x)  the Diagnosis of answer ``x`` for task ``id`` (what check prints).
    progress("ex02_scores")  one line per task of a notebook, read from the notebook's variables.
"""

import inspect
import os
from dataclasses import dataclass

import numpy as np

from . import checker
from .exercises import TASKS, task, tasks
from .messages import msg


class _Missing:
    """Stands for an answer variable that does not exist in the notebook."""


MISSING = _Missing()


@dataclass(frozen=True)
class CallFailed:
    """What a call of the learner's function raised, by name and message (a find-the-bug task)."""

    type_name: str
    message: str


@dataclass(frozen=True)
class FunctionCalls:
    """A find-the-bug answer as the checker sees it: the learner's function called once per argument tuple.
    ``results[i]`` is what the call with ``arguments[i]`` returned, or a ``CallFailed``. The grader builds
    this from values returned by the submission's kernel; nothing else computed there is trusted."""

    arguments: tuple
    results: tuple


def call_function(function, arguments):
    """``function`` called on each argument tuple (copies, so the learner cannot change the data), as
    ``FunctionCalls``; an exception becomes a ``CallFailed`` and the next call goes on."""
    results = []
    for args in arguments:
        try:
            results.append(function(*(np.array(a) if isinstance(a, np.ndarray) else a for a in args)))
        except Exception as e:  # the learner's bug, reported by the checker, never raised
            results.append(CallFailed(type(e).__name__, str(e)))
    return FunctionCalls(tuple(arguments), tuple(results))


def diagnose_task(task_id, answer, rng=None):
    """The Diagnosis of ``answer`` for task ``task_id``: ``attn_core.homework.checker.diagnose`` with the
    task's step and freshly built data. ``MISSING`` (variable not defined) counts as not attempted.

    For a "function" task ``answer`` is the learner's function (called here, on argument tuples drawn by
    ``task.probe_arguments(rng)``; ``rng`` defaults to a fresh generator) or a ``FunctionCalls`` made
    elsewhere (by the grader)."""
    try:
        t = task(task_id)
    except KeyError as e:
        return checker.Diagnosis(False, "bad_task", e.args[0], None)
    if answer is MISSING:
        return checker.Diagnosis(False, "not_attempted", msg("no_variable", var=t.var), t.step)
    if t.answer_kind == "function" and callable(answer):
        answer = call_function(answer, t.probe_arguments(rng if rng is not None else np.random.default_rng()))
    return checker.diagnose(t.step, answer, **t.given())


def line(task_id, diagnosis):
    """One printed line for a task: ``✅ 2.1 · QKᵀ 正确！…``."""
    icon, _, message = str(diagnosis).partition(" ")
    return f"{icon} {task_id} · {message}"


def _lookup(frame, name):
    """The value of ``name`` in a caller's frame (locals, then globals), or MISSING."""
    if name in frame.f_locals:
        return frame.f_locals[name]
    return frame.f_globals.get(name, MISSING)


def check(task_id, *answer):
    """Print one line about task ``task_id``: ✅ / ❌ with a hint / ⏳ not attempted.

    Without ``answer`` the task's variable (e.g. ``QKT`` for "2.1") is read from the caller's
    namespace, so an undefined variable gives ⏳ rather than a NameError. Never raises."""
    try:
        frame = inspect.currentframe().f_back
        try:
            if answer:
                value = answer[0]
            else:
                value = _lookup(frame, task(task_id).var) if str(task_id) in TASKS else None
        finally:
            del frame
        diagnosis = diagnose_task(task_id, value)
        print(line(task_id, diagnosis))
    except Exception as e:  # a check must never show a traceback
        print(msg("check_failed", task_id=task_id, error=f"{type(e).__name__}: {e}"))
        diagnosis = None
    # Under nbgrader's autograder or validator a check cell is a test: it must fail to lose its points.
    if os.environ.get("NBGRADER_EXECUTION") and not (diagnosis is not None and diagnosis.ok):
        raise AssertionError(f"{task_id}: {diagnosis.message if diagnosis is not None else 'check failed'}")


def progress(exercise):
    """Print one line per task of an exercise notebook, reading the answers from the caller's namespace."""
    try:
        frame = inspect.currentframe().f_back
        try:
            values = [(t.id, _lookup(frame, t.var)) for t in tasks(exercise)]
        finally:
            del frame
        diagnoses = [diagnose_task(task_id, value) for task_id, value in values]
        for (task_id, _), d in zip(values, diagnoses):
            print(line(task_id, d))
        print(msg("progress_summary", total=len(diagnoses), done=sum(d.ok for d in diagnoses)))
    except Exception as e:
        print(msg("progress_failed", error=f"{type(e).__name__}: {e}"))
