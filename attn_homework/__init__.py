"""The homework: every auto-checked task, the checker behind ``check("2.1")``, the grader and the
student-version maker. Built on the math in ``attn_core``; the pictures (``attn_viz``) are not needed.

In an exercise notebook::

    import attn_homework as homework
    from attn_homework import check

    homework.set_student_id("2024001")  # only in a per-student assignment (its ID cell): data of one's own
    Q, K = homework.data("2.1")     # the task's data, the same bytes on every machine
    QKT = Q @ K.T
    check("2.1")                    # ✅ / ❌ with a hint / ⏳, never a traceback
    homework.progress("ex02")       # one line per task of the notebook
    if homework.predicted("4.5"):   # a predict task: show the answer only once the prediction is written
        ...

The modules: ``exercises`` (the notebooks and their tasks), ``task_data`` (how the tasks' data are built),
``verdicts`` (check, progress, diagnose_task), ``checker`` (what is wrong with an answer), ``messages``
(every learner-facing text, zh and en), ``grade`` and ``student`` (command-line tools). No module is named
after a function exported here (``check``, ``data``, ``tasks``, ``progress``, …): ``from . import data``
would then give the function, not the module.
"""

from .exercises import EXERCISES, TASKS, Bundle, Exercise, Task, data, exercise_name, task, tasks
from .task_data import set_student_id
from .verdicts import (
    MISSING,
    CallFailed,
    FunctionCalls,
    call_function,
    check,
    diagnose_task,
    line,
    predicted,
    progress,
)

__all__ = [
    "EXERCISES",
    "MISSING",
    "TASKS",
    "Bundle",
    "CallFailed",
    "Exercise",
    "FunctionCalls",
    "Task",
    "call_function",
    "check",
    "data",
    "diagnose_task",
    "exercise_name",
    "line",
    "predicted",
    "progress",
    "set_student_id",
    "task",
    "tasks",
]
