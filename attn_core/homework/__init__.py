"""The homework: every auto-checked task, the checker behind ``check("2.1")``, the grader and the
student-version maker. Built on the math in ``attn_core``; the pictures (``attn_core.viz``) are not needed.

In an exercise notebook::

    from attn_core import homework
    from attn_core.homework import check

    Q, K = homework.data("2.1")     # the task's data, the same bytes on every machine
    QKT = Q @ K.T
    check("2.1")                    # ✅ / ❌ with a hint / ⏳, never a traceback
    homework.progress("ex02")       # one line per task of the notebook
"""

from .registry import (
    EXERCISES,
    MISSING,
    TASKS,
    Bundle,
    Exercise,
    Task,
    check,
    data,
    diagnose_task,
    exercise_name,
    line,
    progress,
    task,
    tasks,
)

__all__ = ["EXERCISES", "MISSING", "TASKS", "Bundle", "Exercise", "Task", "check", "data", "diagnose_task",
           "exercise_name", "line", "progress", "task", "tasks"]
