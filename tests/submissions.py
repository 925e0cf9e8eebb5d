"""Submissions for the grader's tests, made from the committed teacher notebooks (never committed themselves:
``pytest --nbval`` would try to run an infinite loop)."""

import re

import nbformat
from nbformat.v4 import new_code_cell

import attn_homework as homework
from attn_homework.student import make_student

from .repo import EDITIONS, TEACHER_DIR

# Right answers to every task of ex02 (2.3 is a find-the-bug task: the fixed function).
EX02 = {
    "2.1": "QKT = Q @ K.T",
    "2.2": "QKT_new = Q_new @ K_new.T",
    "2.3": "def fixed_scores(Q, K):\n    return Q @ K.T",
}
EX02_IDS = [t.id for t in homework.tasks("ex02_scores")]


def percent(correct, tasks=EX02_IDS):
    """The grader's percentage for ``correct`` right tasks of one point each, as it prints it ("33.3", "100")."""
    return format(round(100 * correct / len(tasks), 1), "g")


# The hostile cases of the grader issue, each a cell added to an otherwise right submission.
FLOOD = "line = 'x' * 100_000\nfor _ in range(1000):\n    print(line)"  # 100 MB of output
HOG = "import numpy as np\nbig = np.ones(4 * 2**30 // 8)"  # 4 GiB
PARENT_KILLER = "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)"
ORPHAN = "import subprocess\nsubprocess.Popen(['sleep', '{marker}'], start_new_session=True)"
TAMPER = "open({path!r}, 'w').write('not a notebook any more')"


def handout(name="ex02_scores", edition="zh"):
    """The student version of an exercise, as handed out from the repository."""
    teacher_dir = EDITIONS[edition] / "teacher" if edition != "zh" else TEACHER_DIR
    teacher = nbformat.read(teacher_dir / f"{name}.ipynb", as_version=4)
    return make_student(teacher, teacher_dir, teacher_dir.parent)


def fill(nb, answers, name):
    """``nb`` with its answer cells replaced (task id -> code)."""
    by_var = {t.var: t.id for t in homework.tasks(name)}
    for cell in nb.cells:
        match = re.search(r"^(\w+) = \.\.\.", cell.source, re.M) if cell.cell_type == "code" else None
        if match and by_var.get(match.group(1)) in answers:
            cell.source = answers[by_var[match.group(1)]]
    return nb


def submission(answers, name="ex02_scores", edition="zh", extra=(), drop_markdown=0):
    """A handed-out notebook with answer cells replaced and extra cells inserted ((position, source))."""
    nb = fill(handout(name, edition), answers, name)
    for position, source in extra:
        nb.cells.insert(position, new_code_cell(source))
    for _ in range(drop_markdown):
        nb.cells.remove(next(c for c in nb.cells[1:] if c.cell_type == "markdown"))
    return nb


def cell_number(nb, needle):
    return next(i for i, c in enumerate(nb.cells, start=1) if needle in c.source)
