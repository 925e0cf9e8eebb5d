"""The first prediction of each predict task, kept across kernel restarts.

A prediction counts only as it was before its answer was shown (``verdicts.predicted``) or first checked.
Kept in kernel memory only, a restart would forget it and let the learner "predict" again knowing the
answer. So, in a notebook that Jupyter opened (JupyterLab, Notebook, Voilà: the kernel's
``JPY_SESSION_NAME`` names the notebook), it is also written to a small JSON file in the learner's home
(``~/.attn_course/predictions.json``; ``ATTN_PREDICTIONS_FILE`` names another), keyed by the notebook, the
student ID set in it and the task. Elsewhere (nbclient, the grader, nbgrader, a test run) it stays in
memory: the grader reads the predictions from the saved notebook's 📌 lines, never from this file.

This keeps an honest learner honest after a restart; it is not a lock: deleting the file, or copying the
notebook under another name, starts afresh.
"""

import json
import os
from pathlib import Path

from . import task_data

STORE_ENV = "ATTN_PREDICTIONS_FILE"


def store_path():
    """The file, or None where predictions stay in memory (no notebook named by Jupyter)."""
    if not os.environ.get("JPY_SESSION_NAME") or os.environ.get("NBGRADER_EXECUTION"):
        return None
    named = os.environ.get(STORE_ENV)
    return Path(named) if named else Path.home() / ".attn_course" / "predictions.json"


def _key(task_id):
    notebook = os.path.join(os.getcwd(), os.path.basename(os.environ.get("JPY_SESSION_NAME", "")))
    return f"{notebook} | {task_data._student_id or '-'} | {task_id}"


def _read(path):
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class Pinned(dict):
    """{task id: first prediction} of this kernel, falling back to the file for a task this kernel has not
    seen (a restart); a new entry is also written to the file. Any error with the file (read-only home,
    a sandbox) leaves the prediction in memory only: a check never fails because of it."""

    def _stored(self, task_id):
        path = store_path()
        if path is None:
            return None
        value = _read(path).get(_key(task_id))
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    def get(self, task_id, default=None):
        if dict.__contains__(self, task_id):
            return dict.__getitem__(self, task_id)
        stored = self._stored(task_id)
        if stored is None:
            return default
        dict.__setitem__(self, task_id, stored)
        return stored

    def __contains__(self, task_id):
        return self.get(task_id) is not None

    def __getitem__(self, task_id):
        value = self.get(task_id)
        if value is None:
            raise KeyError(task_id)
        return value

    def setdefault(self, task_id, number):
        value = self.get(task_id)
        if value is None:
            self[task_id] = number
            return number
        return value

    def __setitem__(self, task_id, number):
        dict.__setitem__(self, task_id, number)
        path = store_path()
        if path is None:
            return
        try:
            data = _read(path)
            data.setdefault(_key(task_id), float(number))
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(path.name + ".tmp")
            temporary.write_text(json.dumps(data, ensure_ascii=False, indent=0), encoding="utf-8")
            os.replace(temporary, path)
        except (OSError, ValueError, TypeError):
            pass
