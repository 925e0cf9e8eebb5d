"""The eighth student trial: a hang, wrong answers accepted (a prediction re-made after a kernel restart, the
reference reached through exec, a minimum subtracted), and hints that named the wrong cause (a Python int
called an int64 array, √n_heads read as d_k), each as a test in both languages."""

import numpy as np
import pytest

import attn_homework as homework
from attn_homework import diagnose_task, pinned, verdicts

from . import hints_common

lang = hints_common.lang
_fresh_state = hints_common.fresh_state
words = hints_common.words
shell = hints_common.shell


run_cells = hints_common.run_cells


def test_a_huge_result_is_told_by_its_shape_without_reading_it(lang):
    d = diagnose_task("4.6", lambda S: np.zeros((10**5, 10**4)))
    assert not d.ok and d.code == "wrong_shape" and "(100000, 10000)" in d.message


@pytest.mark.parametrize("result", [3, np.float64(2.5), np.array(1.0)])
def test_a_function_returning_one_number_is_told_so_not_called_an_int_array(lang, result):
    d = diagnose_task("6.5", lambda Q, K, V: result)
    assert not d.ok and d.code == "wrong_shape"
    assert words(lang, "一个数", "one number") in d.message and "int64" not in d.message


EXEC_CELLS = [
    ("6.1", 'exec("from attn_core import attention\\nO = attention(Q, K, V).O")', "attn_core.attention"),
    ("6.2", 'code = "import attn_core as ac; O_new = ac.attention(Q_new, K_new, V_new).O"\nexec(code)', "attention"),
    (
        "10.4",
        'exec("from attn_core import gradients as g\\n" + "dS = g.softmax_backward(A, dA_given)")',
        "softmax_backward",
    ),
]


@pytest.mark.parametrize("task_id, code, name", EXEC_CELLS)
def test_the_reference_run_through_exec_is_not_a_tick(lang, shell, task_id, code, name):
    said = run_cells(shell, task_id, [code, f'check("{task_id}")'])
    assert said.startswith("❌") and name in said


def test_own_numpy_run_through_exec_is_still_right(shell):
    code = 'exec("dS = A * (dA_given - (dA_given * A).sum(axis=-1, keepdims=True))")'
    assert run_cells(shell, "10.4", [code, 'check("10.4")']).startswith("✅")


@pytest.mark.parametrize("shift, what", [("min", ("最小值", "minimum")), ("mean", ("均值", "mean"))])
def test_a_softmax_shifted_by_the_minimum_or_mean_is_not_a_tick(lang, shell, shift, what):
    code = f"E = np.exp(S_big - S_big.{shift}(axis=1, keepdims=True)); A_big = E / E.sum(axis=1, keepdims=True)"
    said = run_cells(shell, "4.3", [code, 'check("4.3")'])
    assert said.startswith("❌") and words(lang, *what) in said and "709" in said


def test_the_maximum_shift_stays_right(shell):
    code = "E = np.exp(S_big - S_big.max(axis=1, keepdims=True)); A_big = E / E.sum(axis=1, keepdims=True)"
    assert run_cells(shell, "4.3", [code, 'check("4.3")']).startswith("✅")


def test_gqa_divided_by_root_n_heads_names_the_coincidence(lang):
    d = homework.TASKS["14.3"].inputs()
    K, V = np.repeat(d["K_heads"], 2, 0), np.repeat(d["V_heads"], 2, 0)
    S = d["Q_heads"] @ K.swapaxes(-1, -2) / np.sqrt(4)
    E = np.exp(S - S.max(-1, keepdims=True))
    said = diagnose_task("14.3", E / E.sum(-1, keepdims=True) @ V).message
    assert "√4" in said and "d_k = 2" in said


def test_a_right_12_6_without_the_shifts_is_right_with_a_note(lang, shell):
    rot = (
        "def rot(x, p):\n    y = x.reshape(-1, 2)\n    th = p / 10000 ** (np.arange(0, 8, 2) / 8)\n"
        "    c, s_ = np.cos(th), np.sin(th)\n"
        "    return np.stack([y[:, 0]*c - y[:, 1]*s_, y[:, 0]*s_ + y[:, 1]*c], 1).ravel()"
    )
    once = run_cells(shell, "12.6", [rot, "scores_shifted = np.array([rot(q, i) @ rot(k, j)] * 6)", 'check("12.6")'])
    assert once.startswith("✅") and "shifts" in once.split("·", 1)[1].split("\n")[0][20:]
    each = run_cells(
        shell,
        "12.6",
        [rot, "scores_shifted = np.array([rot(q, i + s) @ rot(k, j + s) for s in shifts])", 'check("12.6")'],
    )
    assert each.startswith("✅") and words(lang, "没有用到 shifts", "does not use shifts") not in each


def test_a_prediction_survives_a_kernel_restart_in_a_jupyter_notebook(lang, shell, tmp_path, monkeypatch):
    monkeypatch.setenv("JPY_SESSION_NAME", "exercises/ex04_softmax.ipynb")
    monkeypatch.setenv(pinned.STORE_ENV, str(tmp_path / "predictions.json"))
    first = run_cells(shell, "4.5", ["top_key = 3", 'check("4.5")'])
    assert "📌 top_key = 3" in first
    dict.clear(verdicts._REVEALED)  # a restart: the kernel's memory is gone, the file is not
    again = run_cells(shell, "4.5", ["top_key = 1", 'check("4.5")'])
    assert "📌" not in again.split("\n")[0] or "top_key = 3" in again
    assert words(lang, "不计分", "not") in again and "top_key = 3" in again


def test_without_a_jupyter_notebook_predictions_stay_in_memory(tmp_path, monkeypatch):
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.setenv(pinned.STORE_ENV, str(tmp_path / "predictions.json"))
    store = pinned.Pinned()
    store["4.5"] = 3.0
    assert store.get("4.5") == 3.0 and not (tmp_path / "predictions.json").exists()


def test_an_unwritable_store_leaves_the_prediction_in_memory(tmp_path, monkeypatch):
    monkeypatch.setenv("JPY_SESSION_NAME", "ex04.ipynb")
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv(pinned.STORE_ENV, str(blocked / "predictions.json"))  # its parent is a file
    store = pinned.Pinned()
    store["4.5"] = 3.0
    assert store.get("4.5") == 3.0
