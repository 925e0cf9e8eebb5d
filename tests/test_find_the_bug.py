"""Find-the-bug tasks: the learner's fixed function is judged on arguments the checker draws itself, from
what it returned (``FunctionCalls``), never from anything else computed where it ran.

The buggy functions are taken from the teacher notebooks themselves, so the notebook and the checker
cannot drift apart: the bug a student is handed is the bug the checker names when it is left in."""

import json
import re

import nbformat
import numpy as np
import pytest

import attn_homework as homework
from attn_homework import CallFailed, FunctionCalls, call_function, diagnose_task

from .repo import TEACHER_DIR

FUNCTION_TASKS = [t for t in homework.tasks() if t.answer_kind == "function"]
IDS = [t.id for t in FUNCTION_TASKS]


def softmax(S):
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def _notebook_functions(task):
    """The buggy function of a task's data cell and the fixed one of its answer cell, run from the teacher
    notebook's own sources."""
    nb = nbformat.read(TEACHER_DIR / f"{task.exercise}.ipynb", as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    index = code.index(f'check("{task.id}")')
    ns = {"np": np, "homework": homework}
    exec(code[0].replace('set_lang("zh")', "None"), ns)  # the imports
    exec(re.sub(r"^print\(.*$", "", code[index - 2], flags=re.M), ns)  # data and the buggy function, no prints
    buggy = next(ns[name] for name in ns if name.startswith("buggy_"))
    exec(code[index - 1], ns)
    return buggy, ns[task.var]


RIGHT = {
    "2.3": lambda Q, K: np.einsum("id,jd->ij", Q, K),
    "4.6": lambda S: softmax(S),
    "6.5": lambda Q, K, V: softmax(Q @ K.T / np.sqrt(Q.shape[1])) @ V,
    "7.5": lambda Q, K, V: (
        softmax(np.where(np.tril(np.ones((len(Q), len(K)), bool)), Q @ K.T, -np.inf) / np.sqrt(Q.shape[1])) @ V
    ),
    "8.6": lambda M, h: np.stack(np.split(M, h, axis=1)),
    "13.4": lambda allowed: np.where(np.asarray(allowed, dtype=bool), 0.0, -np.inf),
    "14.4": lambda q, k, v, K, V: _rope_step(q, k, v, K, V, len(K)),
    "15.3": lambda A, start, length: _induction(A, start, length, length - 1),
}


def _induction(A, start, length, back):
    """Per head, the mean over the second copy's queries i of A[h, i, i - back], written with loops."""
    queries = range(start + length, start + 2 * length - 1)
    return np.array([np.mean([a[i, i - back] for i in queries]) for a in A])


def _turned(x, position):
    """Interleaved RoPE of one row at ``position``, written out: pair k turned by position·10000^(−2k/d)."""
    d = x.shape[1]
    angle = position * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return out


def _rope_step(q, k, v, K, V, position, turn_k=True):
    q, k = _turned(q, position), _turned(k, position) if turn_k else k
    return softmax(q @ np.vstack([K, k]).T / np.sqrt(q.shape[1])) @ np.vstack([V, v])


def _renormalised_after_mask(Q, K, V):
    A = softmax(Q @ K.T / np.sqrt(Q.shape[1])) * np.tril(np.ones((len(Q), len(K))))
    return (A / A.sum(axis=1, keepdims=True)) @ V


def _keepdims_forgotten(S):
    E = np.exp(S - S.max(axis=1, keepdims=True))
    return E / E.sum(axis=1)


# (task, a buggy fix, the code it must get): the notebook's own bug is tested separately, from the notebook
BUGS = [
    ("2.3", lambda Q, K: K @ Q.T, "transposed"),
    ("2.3", lambda Q, K: Q @ K.T / np.sqrt(Q.shape[1]), "scaled_not_asked"),
    (
        "4.6",
        lambda S: (lambda E: E / E.sum(axis=1, keepdims=True))(np.exp(S - S.max(axis=0, keepdims=True))),
        "max_axis",
    ),
    ("4.6", _keepdims_forgotten, "keepdims"),
    ("4.6", lambda S: np.exp(S) / np.exp(S).sum(axis=1, keepdims=True), "overflow"),
    ("6.5", lambda Q, K, V: softmax(Q @ K.T) @ V, "unscaled"),
    (
        "6.5",
        lambda Q, K, V: (lambda E: E / E.sum(axis=0, keepdims=True))(np.exp(Q @ K.T / np.sqrt(Q.shape[1]))) @ V,
        "softmax_axis",
    ),
    (
        "7.5",
        lambda Q, K, V: (
            softmax(np.where(np.triu(np.ones((len(Q),) * 2, bool)), Q @ K.T, -np.inf) / np.sqrt(Q.shape[1])) @ V
        ),
        "mask_upper",
    ),
    ("7.5", lambda Q, K, V: softmax(Q @ K.T / np.sqrt(Q.shape[1])) @ V, "mask_ignored"),
    ("8.6", lambda M, h: M.reshape(M.shape[0], h, -1), "split_no_transpose"),
    ("8.6", lambda M, h: np.moveaxis(M.reshape(M.shape[0], -1, h), -1, 0), "split_interleaved"),
    ("13.4", lambda allowed: allowed.astype(float), "mask_zero_one"),
    ("13.4", lambda allowed: -1.0 * ~allowed, "mask_minus_one"),
    ("14.4", lambda q, k, v, K, V: _rope_step(q, k, v, K, V, len(K) + 1), "rope_after_append"),
    ("14.4", lambda q, k, v, K, V: _rope_step(q, k, v, K, V, len(K), turn_k=False), "rope_key_not_turned"),
    ("14.4", lambda q, k, v, K, V: _rope_step(q, k, v, K, V, 0), "rope_position_zero"),
    ("15.3", lambda A, start, length: _induction(A, start, length, length), "induction_at_occurrence"),
    ("15.3", lambda A, start, length: _induction(A, start, length, 1), "induction_previous_token"),
    (
        "15.3",
        lambda A, s, L: np.mean([A[:, i, i - L + 1] for i in range(s + L, s + 2 * L - 1)], axis=1),
        "induction_over_heads",
    ),
]

# (what the fix does, the code it must get, the fix): failures any find-the-bug task can have
FUNCTION_FAILURES = [
    ("raises", "function_raised", lambda *args: 1 / 0),
    ("returns None", "is_none", lambda *args: None),
    ("returns text", "wrong_type", lambda *args: "done"),
    ("returns the same array always", "hard_coded", lambda *args: np.ones((3, 3))),
    ("returns a wrong shape", "wrong_shape", lambda *args: np.ones(np.shape(args[0]) + (1,)) * args[0].sum()),
]


def _quiet(f):
    def quiet(*args):
        with np.errstate(all="ignore"):
            return f(*args)

    return quiet


@pytest.mark.parametrize("task", FUNCTION_TASKS, ids=IDS)
def test_the_teacher_fix_and_other_right_fixes_pass_on_many_draws(task):
    _, fixed = _notebook_functions(task)
    for seed in range(12):
        for function in (fixed, RIGHT[task.id], lambda *a: RIGHT[task.id](*a).tolist()):
            d = diagnose_task(task.id, function, rng=np.random.default_rng(seed))
            assert d.ok, (seed, d.message)


@pytest.mark.parametrize("task", FUNCTION_TASKS, ids=IDS)
def test_the_notebooks_own_bug_is_named(task):
    buggy, _ = _notebook_functions(task)
    expected = {"2.3": "missing_transpose", "4.6": "softmax_axis", "6.5": "used_keys_not_values"}
    expected |= {"7.5": "mask_after_softmax", "8.6": "split_no_transpose"}
    expected |= {"13.4": "mask_inverted", "14.4": "rope_position_zero", "15.3": "induction_at_occurrence"}
    for seed in range(6):
        d = diagnose_task(task.id, _quiet(buggy), rng=np.random.default_rng(seed))
        assert d.code == expected[task.id], d.message


@pytest.mark.parametrize("task_id, function, code", BUGS, ids=[f"{row[0]}-{row[2]}" for row in BUGS])
def test_other_buggy_fixes_are_named(task_id, function, code):
    for seed in range(4):
        assert diagnose_task(task_id, _quiet(function), rng=np.random.default_rng(seed)).code == code


def test_a_float_size_from_true_division_is_pointed_out():
    def fixed_split_heads(M, n_heads):
        n, d = M.shape
        return M.reshape(n, n_heads, d / n_heads).transpose(1, 0, 2)

    d = diagnose_task("8.6", fixed_split_heads, rng=np.random.default_rng(0))
    assert d.code == "function_raised" and "//" in d.message, d.message
    d = diagnose_task("8.6", lambda M, n_heads: 1 / 0, rng=np.random.default_rng(0))
    assert d.code == "function_raised" and "//" not in d.message, d.message


def test_masking_then_renormalising_is_a_right_fix():
    assert diagnose_task("7.5", _renormalised_after_mask, rng=np.random.default_rng(0)).ok


@pytest.mark.parametrize("what, code, function", FUNCTION_FAILURES, ids=[row[0] for row in FUNCTION_FAILURES])
@pytest.mark.parametrize("task", FUNCTION_TASKS, ids=IDS)
def test_a_broken_fix_gets_one_line_that_says_what_happened(task, what, code, function):
    d = diagnose_task(task.id, function, rng=np.random.default_rng(0))
    assert d.code == code and not d.ok and "\n" not in d.message, d.message
    if code == "function_raised":
        assert "ZeroDivisionError" in d.message


def test_a_hard_coded_answer_fails():
    """The demo's right answer, returned whatever the arguments: right for the notebook's data only."""
    Q_demo, K_demo = homework.data("2.3")
    d = diagnose_task("2.3", lambda Q, K: Q_demo @ K_demo.T, rng=np.random.default_rng(0))
    assert d.code == "hard_coded"


@pytest.mark.parametrize("task", FUNCTION_TASKS, ids=IDS)
def test_not_a_function_and_not_answered(task):
    assert diagnose_task(task.id, ...).code == "not_attempted"
    assert diagnose_task(task.id, np.zeros((2, 2))).code == "wrong_type"
    assert diagnose_task(task.id, None).code == "is_none"


# ---------------------------------------------------------------- the grader's side of the interface


@pytest.mark.parametrize("task", FUNCTION_TASKS, ids=IDS)
def test_probes_are_the_checkers_own_and_travel_as_json(task):
    first = task.probe_arguments(np.random.default_rng(0))
    again = task.probe_arguments(np.random.default_rng(0))
    other = task.probe_arguments(np.random.default_rng(1))
    assert len(first) >= 3
    for a, b in zip(first, again):
        assert all(np.array_equal(x, y) for x, y in zip(a, b))  # the rng decides everything
    assert [np.asarray(x).tolist() for a in first for x in a] != [np.asarray(x).tolist() for a in other for x in a]
    for args in first:
        for x in args:
            assert isinstance(x, (np.ndarray, int)) and not isinstance(x, bool)
            if isinstance(x, np.ndarray):  # JSON numbers round-trip exactly
                assert np.array_equal(np.array(json.loads(json.dumps(x.tolist()))), x)


@pytest.mark.parametrize("task", FUNCTION_TASKS, ids=IDS)
def test_the_notebooks_bug_both_runs_and_fails_on_the_probes(task):
    """Each probe set holds shapes on which the bug runs (so its numbers are the evidence) — and for Q·K, which
    runs only when d_k = n_k, shapes on which it raises. (K used as V always runs: with d_v ≠ d_k its width
    is wrong, which the probes include too.)"""
    buggy, _ = _notebook_functions(task)
    calls = call_function(_quiet(buggy), task.probe_arguments(np.random.default_rng(5)))
    ran = [not isinstance(r, CallFailed) for r in calls.results]
    assert any(ran)
    if task.id == "2.3":
        assert not all(ran)
    if task.id == "6.5":
        assert any(np.shape(args[1])[1] != np.shape(args[2])[1] for args in calls.arguments)


def test_a_grader_can_hand_in_function_calls_made_elsewhere():
    """The grader calls the learner's function in the submission's kernel and sends back numbers (JSON):
    the checker judges those, and only those."""
    task = homework.task("2.3")
    arguments = task.probe_arguments(np.random.default_rng(7))
    returned = [json.loads(json.dumps((Q @ K.T).tolist())) for Q, K in arguments]
    assert diagnose_task("2.3", FunctionCalls(tuple(arguments), tuple(returned))).ok
    wrong = [json.loads(json.dumps((K @ Q.T).tolist())) for Q, K in arguments]
    assert diagnose_task("2.3", FunctionCalls(tuple(arguments), tuple(wrong))).code == "transposed"
    failed = tuple(CallFailed("TimeoutError", "the call ran out of time") for _ in arguments)
    d = diagnose_task("2.3", FunctionCalls(tuple(arguments), failed))
    assert d.code == "function_raised" and "TimeoutError" in d.message
    # results for other arguments than the ones listed are wrong, whatever the kernel claimed
    shifted = [json.loads(json.dumps((Q @ K.T + 1).tolist())) for Q, K in arguments]
    assert not diagnose_task("2.3", FunctionCalls(tuple(arguments), tuple(shifted))).ok
    assert diagnose_task("2.3", FunctionCalls((), ())).code == "bad_task"


def test_the_learner_cannot_change_the_checkers_arguments():
    def scribbles(Q, K):
        Q[...] = 0
        return Q @ K.T

    task = homework.task("2.3")
    arguments = task.probe_arguments(np.random.default_rng(0))
    before = [tuple(x.copy() for x in args) for args in arguments]
    calls = call_function(scribbles, arguments)
    assert all(np.array_equal(x, y) for a, b in zip(arguments, before) for x, y in zip(a, b))
    assert not homework.diagnose_task("2.3", calls).ok
