"""The homework registry: every exercise notebook and every auto-checked task of them, in one place:
one module per exercise (``ex01.py`` … ``ex15.py``: the notebook and its tasks), the shapes in ``model.py``.

A task (e.g. "2.1") names its notebook, the learner's answer variable, the checker step
(see ``attn_homework.checker``) and how its data are built, deterministically (``task_data``). The
notebooks fetch their data here (``Q, K = homework.data("2.1")``) and check an answer with one line
(``check("2.1")``, in ``verdicts``); the grader (``python -m attn_homework.grade``) rebuilds the
same data in its own process. So every number has one source, and what a notebook shows is what the
grader checks against.

    data("2.1")           the task's inputs, unpackable: ``Q, K = homework.data("2.1")``.
    task("2.1")           the Task; ``tasks("ex02")`` those of one notebook, in order.
"""

from ..messages import msg
from . import ex01, ex02, ex03, ex04, ex05, ex06, ex07, ex08, ex09, ex10, ex11, ex12, ex13, ex14, ex15
from .model import BuildsOn, Bundle, Exercise, Task

_MODULES = (ex01, ex02, ex03, ex04, ex05, ex06, ex07, ex08, ex09, ex10, ex11, ex12, ex13, ex14, ex15)

EXERCISES = {module.EXERCISE.name: module.EXERCISE for module in _MODULES}
TASKS = {t.id: t for module in _MODULES for t in module.TASKS}

__all__ = ["EXERCISES", "TASKS", "BuildsOn", "Bundle", "Exercise", "Task", "data", "exercise_name", "task", "tasks"]


class UnknownTask(KeyError):
    """No task has this id (``homework.data("9.9")``). A KeyError, shown in a notebook as its message alone
    (IPython's ``_render_traceback_``), like the line ``check`` prints for a bad id: no traceback into the
    package."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""

    def _render_traceback_(self):
        return [f"❌ {self}"]


def task(task_id):
    """The Task registered under ``task_id`` (a str such as "2.1"); KeyError with the known ids otherwise."""
    try:
        return TASKS[str(task_id)]
    except KeyError:
        # the tasks of the exercise the number points at ("6.9": 6.1 … 6.5), else every task
        number = str(task_id).strip().split(".")[0]
        near = [t for t in TASKS if t.startswith(number + ".")]
        if near:
            raise UnknownTask(msg("no_task_near", task_id=task_id, ex=number, ids=", ".join(near))) from None
        raise UnknownTask(msg("no_task", task_id=task_id, ids=", ".join(TASKS))) from None


def tasks(exercise=None):
    """All tasks in order, or those of one exercise notebook (e.g. "ex02_scores" or "ex02")."""
    if exercise is None:
        return list(TASKS.values())
    name = exercise_name(exercise)
    return [t for t in TASKS.values() if t.exercise == name]


def exercise_name(exercise):
    """Full name of an exercise from its name or prefix: "ex02" -> "ex02_scores"."""
    matches = [name for name in EXERCISES if name == exercise or name.split("_")[0] == exercise]
    if not matches:
        raise KeyError(msg("no_exercise", exercise=exercise, names=", ".join(EXERCISES)))
    return matches[0]


def data(task_id):
    """The inputs of a task, freshly built, in the order the notebook unpacks them."""
    return task(task_id).data()
