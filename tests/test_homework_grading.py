"""The grader on a class folder of the exercises of lessons 8–11: every submission in a kernel of its own,
the answers checked in the grading process, the mistake named in the table.

Each submission is the teacher's solution with one answer replaced by a classic mistake, so one run shows
both ✓ and a named code per notebook. Find-the-bug answers (8.6) are functions: the grader calls them in the
submission's kernel on arguments it draws itself, and checks what they return in its own process.
"""

import nbformat
import pytest

import attn_homework as homework

from .repo import TEACHER_DIR
from .test_grade import grade, rows_of

pytestmark = pytest.mark.kernel

WRONG = {  # exercise: (task, the answer cell's new source, the code the grader must give)
    "ex08_multi_head": (
        "8.5",
        """n, d_model = X.shape
d_head = d_model // n_heads
Q_x, K_x, V_x = ((X @ W).reshape(n, n_heads, d_head).transpose(1, 0, 2) for W in (W_q, W_k, W_v))
S_x = Q_x @ np.swapaxes(K_x, -1, -2) / np.sqrt(d_head)
E = np.exp(S_x - S_x.max(axis=-1, keepdims=True))
Y = ((E / E.sum(axis=-1, keepdims=True)) @ V_x).transpose(1, 0, 2).reshape(n, d_model)""",
        "no_W_O",
    ),
    "ex09_online_softmax": (
        "9.6",
        """m_1 = S1.max(axis=1, keepdims=True)
m_2 = np.maximum(m_1, S2.max(axis=1, keepdims=True))
P_1, P_2 = np.exp(S1 - m_1), np.exp(S2 - m_2)
l_1 = P_1.sum(axis=1, keepdims=True)
l_2 = l_1 * np.exp(m_1 - m_2) + P_2.sum(axis=1, keepdims=True)
O = ((P_1 @ V1) / l_1 * np.exp(m_1 - m_2) + P_2 @ V2) / l_2""",
        "divided_early",
    ),
    "ex10_backward": ("10.4", "dS = dA_given", "jacobian_forgotten"),
    "ex11_block": (
        "11.2",
        "H = (F - F.mean(axis=1, keepdims=True)) / np.sqrt(F.var(axis=1, keepdims=True) + 1e-5) + X",
        "residual_after_norm",
    ),
}


def _submission(name, task_id, source):
    """The teacher notebook with its markers removed (the solutions kept) and one answer cell replaced."""
    nb = nbformat.read(TEACHER_DIR / f"{name}.ipynb", as_version=4)
    var = homework.task(task_id).var
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        lines = [
            line for line in cell.source.splitlines() if "### BEGIN SOLUTION" not in line and "### END" not in line
        ]
        if lines and lines[0].startswith("#") and any(line.startswith(f"{var} = ...") for line in lines):
            lines = [source]
        cell.source = "\n".join(lines)
        cell.outputs, cell.execution_count = [], None
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    for name, (task_id, source, _) in WRONG.items():
        nbformat.write(_submission(name, task_id, source), folder / f"student_{name}.ipynb")
    out = tmp_path_factory.mktemp("homework_grading")
    run = grade(folder, "--out", out, "--timeout", 60, "--lang", "en")
    assert run.returncode == 0, run.stderr
    return run, {row["exercise"]: row for row in rows_of(out / "submissions.csv")}


@pytest.mark.parametrize("name", list(WRONG))
def test_the_grader_names_the_mistake_and_passes_the_rest(graded, name):
    row = graded[1][name]
    wrong_task, _, code = WRONG[name]
    assert row[wrong_task] == code, row
    for t in homework.tasks(name):
        if t.id != wrong_task:  # find-the-bug fixes included: called in the kernel, checked here
            assert row[t.id] == "correct", (t.id, row[t.id])
    assert row["status"].split(";")[0] == "completed", row["status"]  # teacher-only cells count as changed


def test_the_table_lists_every_notebook(graded):
    table = graded[0].stdout
    for name in WRONG:
        assert name in table
    assert "divided_early" in table and "no_W_O" in table
