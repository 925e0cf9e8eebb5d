"""The second student trial (issue 26): every case it reported, as a test, in both languages where the text
differs. In the order of harm: leaks of another task's answer and fixes that make it worse; wrong answers
accepted (find-the-bug functions, predictions changed after the reveal); the unhelpful patterns.

The right answers here are written out in numpy in this file, never taken from the checker."""

import contextlib
import io
import json

import nbformat
import numpy as np
import pytest

import attn_homework as homework
from attn_homework import FunctionCalls, call_function, diagnose_task, verdicts
from attn_homework.grading import answers as grading_answers
from attn_homework.grading.checking import check_answers
from attn_homework.grading.reading import saved_outputs

from . import hints_common

lang = hints_common.lang


CODES_OF_THE_SECOND_TRIAL = {
    "crossed",
    "changes_input",
    "delegates",
    "changed_after_reveal",
    "scaled_fixed_width",
    "scaled_wrong_width",
    "mask_zero",
    "unscaled",
    "min_not_max",
    "mean_not_max",
    "new_block_forgotten",
    "not_finite",
}


def softmax(S, axis=-1):
    E = np.exp(S - S.max(axis=axis, keepdims=True))
    return E / E.sum(axis=axis, keepdims=True)


def inputs(task_id):
    return homework.task(task_id).inputs()


@pytest.fixture(autouse=True)
def _fresh_reveals():
    verdicts._REVEALED.clear()
    yield
    verdicts._REVEALED.clear()


# ---------------------------------------------------------------- another task's step: named by its formula


def _crossed_cases():
    i10 = inputs("10.1")
    A, V, dO = i10["A"], i10["V"], i10["dO"]
    i10b = inputs("10.4")
    dA = i10b["dA_given"]
    i10c = inputs("10.5")
    dS, Q, K = i10c["dS_given"], i10c["Q"], i10c["K"]
    i44 = inputs("4.4")
    i63 = inputs("6.3")
    X, Wq, Wk, Wv = i63["X_new"], i63["W_q_new"], i63["W_k_new"], i63["W_v_new"]
    A63 = softmax(X @ Wq @ (X @ Wk).T / np.sqrt(3))
    return [
        # (task, answer, the task whose step it is, words it must say zh / en)
        ("4.4", softmax(i44["Q"] @ i44["K"].T / np.sqrt(3)), "4.1", ("没有放大", "not doubled")),
        ("6.3", A63 @ (X @ Wv), "6.4", ("输出的行", "output rows")),
        # lesson 10: the product handed in, never "dA's formula" (trial 4: that gave the other task's answer)
        ("10.1", dO @ V.T, "10.2", ("算的是 dO·Vᵀ，不是", "holds dO·Vᵀ, which is not")),
        ("10.2", A.T @ dO, "10.1", ("算的是 Aᵀ·dO，不是", "holds Aᵀ·dO, which is not")),
        ("10.5", dS.T @ Q / 2, "10.6", ("算的是 dSᵀ·Q/√d_k", "holds dSᵀ·Q/√d_k")),
        ("10.6", dS @ K / 2, "10.5", ("算的是 dS·K/√d_k", "holds dS·K/√d_k")),
        ("10.2", A * (dA - (dA * A).sum(axis=-1, keepdims=True)), "10.4", ("softmax 的反向", "softmax's backward")),
    ]


@pytest.mark.parametrize("task_id, answer, other, words", _crossed_cases(), ids=lambda v: str(v)[:12])
def test_another_steps_formula_is_named_never_another_tasks_answer(lang, task_id, answer, other, words):
    assert homework.diagnose_task(other, answer).ok  # the premise: it is that task's right answer
    d = diagnose_task(task_id, answer)
    assert d.code == "crossed", d.message
    assert words[0 if lang == "zh" else 1] in d.message, d.message
    assert other not in d.message  # the tasks share their data: nothing was reused, no task is named
    for leak in ("答案", "answer of task", "正好是题"):
        assert leak not in d.message, d.message


def test_an_earlier_tasks_data_reused_is_still_said(lang):
    Q, K = homework.data("2.1")
    d = diagnose_task("2.2", Q @ K.T)
    assert d.code == "crossed" and "2.1" in d.message, d.message


# ---------------------------------------------------------------- suggested fixes right for what was handed in


def test_normalising_a_whole_head_is_told_axis_minus_one(lang):
    i = inputs("8.3")
    S = i["Q_h"] @ np.swapaxes(i["K_h"], -1, -2) / np.sqrt(2)
    E = np.exp(S)
    d = diagnose_task("8.3", E / E.sum(axis=(1, 2), keepdims=True) @ i["V_h"])
    assert d.code == "not_normalized" and "axis=-1" in d.message and "axis=1," not in d.message, d.message


def test_an_additive_mask_is_not_told_to_astype_bool(lang):
    tril = np.tril(np.ones((4, 4), dtype=bool))
    d = diagnose_task("7.1", np.where(tril, 0.0, -np.inf))
    assert d.code == "wrong_type" and "M == 0" in d.message, d.message
    assert "−∞" in d.message and "True" in d.message  # and why .astype(bool) would invert it
    d = diagnose_task("7.1", np.where(tril, 0.0, -1e9))
    assert "M == 0" in d.message, d.message
    d = diagnose_task("7.1", tril.astype(float))  # a 0/1 array may be cast
    assert "astype(bool)" in d.message and "M == 0" not in d.message, d.message


# ---------------------------------------------------------------- find the bug: what must not pass


def _mutating_softmax(S):
    S -= S.max(axis=1, keepdims=True)
    E = np.exp(S)
    return E / E.sum(axis=1, keepdims=True)


def _mutating_attention(Q, K, V):
    Q /= np.sqrt(Q.shape[1])
    return softmax(Q @ K.T) @ V


def _unstable_attention(Q, K, V):
    E = np.exp(Q @ K.T / np.sqrt(Q.shape[1]))
    return E / E.sum(axis=1, keepdims=True) @ V


def _unstable_causal(Q, K, V):
    S = np.where(np.tril(np.ones((len(Q), len(K)), bool)), Q @ K.T / np.sqrt(Q.shape[1]), -np.inf)
    E = np.exp(S)
    return E / E.sum(axis=1, keepdims=True) @ V


def _reference_softmax(S):
    from attn_core import softmax as reference

    return reference(S)


def _through_a_helper(Q, K, V):
    return _helper(Q, K, V)


def _helper(Q, K, V):
    import attn_core

    return attn_core.attention(Q, K, V, mask=attn_core.causal_mask(len(Q))).O


@pytest.mark.parametrize(
    "task_id, function, code",
    [
        ("4.6", _mutating_softmax, "changes_input"),
        ("6.5", _mutating_attention, "changes_input"),
        ("6.5", _unstable_attention, "overflow"),
        ("7.5", _unstable_causal, "overflow"),
        ("4.6", _reference_softmax, "delegates"),
        ("6.5", lambda Q, K, V: __import__("attn_core").attention(Q, K, V).O, "delegates"),
        ("7.5", _through_a_helper, "delegates"),
    ],
    ids=["4.6-mutates", "6.5-mutates", "6.5-no-max", "7.5-no-max", "4.6-ref", "6.5-ref", "7.5-helper"],
)
def test_a_fix_that_changes_its_input_overflows_or_delegates_is_not_accepted(lang, task_id, function, code):
    for seed in range(5):
        d = diagnose_task(task_id, function, rng=np.random.default_rng(seed))
        assert not d.ok and d.code == code, (seed, d.message)
    if code == "delegates":
        assert "attn_core." in d.message


def test_the_probes_hold_large_scores_and_the_inputs_are_checked_after_each_call():
    for task_id in ("4.6", "6.5", "7.5"):
        arguments = homework.task(task_id).probe_arguments(np.random.default_rng(0))
        largest = max(
            (np.abs(args[0]).max() if len(args) == 1 else np.abs(args[0] @ args[1].T).max()) for args in arguments
        )
        assert largest > 710  # exp overflows in float64 past ~709.78
    calls = call_function(_mutating_softmax, homework.task("4.6").probe_arguments(np.random.default_rng(0)))
    assert calls.changed == tuple(range(len(calls.arguments)))
    right = call_function(softmax, homework.task("4.6").probe_arguments(np.random.default_rng(0)))
    assert right.changed == () and right.delegates == ""


def test_the_grader_reads_changed_inputs_and_delegation_from_the_kernel():
    """The kernel-side code the grader runs (answers.DUMP), run here: a mutating fix and a delegating one."""
    arguments = homework.task("4.6").probe_arguments(np.random.default_rng(3))
    probes = {"fixed_softmax": [[grading_answers.encode_argument(a) for a in args] for args in arguments]}
    for function, code in ((_mutating_softmax, "changes_input"), (_reference_softmax, "delegates"), (softmax, "ok")):
        ns = {"fixed_softmax": function}
        exec(grading_answers.dump_code(["fixed_softmax"], probes), ns)
        entry = json.loads(ns[grading_answers.RESULT_NAME])["fixed_softmax"]
        calls = grading_answers.decode_calls(entry, [tuple(a) for a in arguments])
        assert isinstance(calls, FunctionCalls)
        assert diagnose_task("4.6", calls).code == code


# ---------------------------------------------------------------- predictions: the one before the reveal counts


def _run(ns, code):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, ns)
    return out.getvalue()


def test_a_prediction_changed_after_the_reveal_is_shown_and_not_credited(lang):
    ns = {"homework": homework, "top_key": 3}
    assert "❌" in _run(ns, 'homework.check("4.5")')
    shown = _run(ns, 'opened = homework.predicted("4.5")')
    assert ns["opened"] and "📌 top_key = 3 ·" in shown
    ns["top_key"] = 1  # the right key, typed after seeing it
    line = _run(ns, 'homework.check("4.5")')
    assert line.startswith("❌") and "top_key = 3" in line and "1" in line, line
    table = _run(ns, 'homework.progress("ex04")')
    assert "✅ 4.5" not in table and ("0 of 6" in table or "已通过 0 题" in table), table
    again = _run(ns, 'homework.predicted("4.5")')
    assert "📌 top_key = 3 ·" in again and "1" in again.split("·", 1)[1]


def test_a_right_prediction_before_the_reveal_stays_right():
    ns = {"homework": homework, "top_key": 1}
    _run(ns, 'homework.predicted("4.5")')
    assert _run(ns, 'homework.check("4.5")').startswith("✅")


@pytest.mark.parametrize("value", [None, "1", [1], (1,), True, np.array([1])], ids=repr)
def test_only_a_number_opens_the_reveal(lang, value):
    ns = {"homework": homework, "top_key": value}
    printed = _run(ns, 'opened = homework.predicted("4.5")')
    assert ns["opened"] is False and printed.startswith("⏳") and "top_key" in printed
    assert "4.5" not in verdicts._REVEALED


def test_the_grader_judges_the_prediction_recorded_in_the_saved_notebook(lang):
    ns = {"homework": homework, "top_key": 3}
    printed = _run(ns, 'homework.predicted("4.5")')
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell('if homework.predicted("4.5"):\n    print(1)')
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=printed + "1\n")]
    nb.cells = [cell]
    revealed = verdicts.revealed_predictions(saved_outputs(nb))
    assert revealed == {"top_key": 3.0}
    entry = {"top_key": {"kind": "array", "type": "int", "dtype": "<i8", "shape": [], "data": 1}}
    (result,) = [r for r in check_answers("ex04", entry, edition=lang, revealed=revealed) if r.id == "4.5"]
    assert not result.ok and result.code == "changed_after_reveal", result.message
    (result,) = [r for r in check_answers("ex04", entry, edition=lang) if r.id == "4.5"]
    assert result.ok  # without a record (the reveal never ran), the answer is judged as it is


# ---------------------------------------------------------------- the unhelpful patterns


def test_rounding_to_two_decimals_is_named(lang):
    S = inputs("4.1")["S"]
    d = diagnose_task("4.1", np.round(softmax(S), 2))
    assert d.code == "almost_right" and "2" in d.message and ("np.round" in d.message), d.message


def test_a_width_kept_from_the_task_before_is_named(lang):
    i = inputs("3.2")
    d = diagnose_task("3.2", i["Q_new"] @ i["K_new"].T / np.sqrt(3))
    assert d.code == "scaled_fixed_width" and "√3" in d.message and "Q.shape[-1]" in d.message, d.message
    assert "16.0" not in d.message


def _tril(n):
    return np.tril(np.ones((n, n), dtype=bool))


@pytest.mark.parametrize(
    "task_id, function, codes",
    [
        ("6.5", lambda Q, K, V: softmax(Q @ K.T / np.sqrt(3)) @ V, {"scaled_fixed_width", "scaled_wrong_width"}),
        ("6.5", lambda Q, K, V: softmax(Q @ K.T / np.sqrt(V.shape[1])) @ V, {"scaled_wrong_width"}),
        ("6.5", lambda Q, K, V: softmax(Q @ K.T / np.sqrt(len(K))) @ V, {"scaled_wrong_width"}),
        (
            "7.5",
            lambda Q, K, V: softmax(np.where(_tril(len(Q)), Q @ K.T / np.sqrt(Q.shape[1]), 0.0)) @ V,
            {"mask_zero"},
        ),
        ("7.5", lambda Q, K, V: softmax(np.where(_tril(len(Q)), Q @ K.T, -np.inf)) @ V, {"unscaled"}),
        (
            "7.5",
            lambda Q, K, V: softmax(np.where(_tril(len(Q)), Q @ K.T / np.sqrt(3), -np.inf)) @ V,
            {"scaled_fixed_width", "scaled_wrong_width"},
        ),
    ],
    ids=["6.5-sqrt3", "6.5-sqrt-dv", "6.5-sqrt-nk", "7.5-mask-0", "7.5-unscaled", "7.5-sqrt3"],
)
def test_a_functions_results_get_the_data_steps_diagnosis(lang, task_id, function, codes):
    named = 0
    for seed in range(6):
        d = diagnose_task(task_id, function, rng=np.random.default_rng(seed))
        assert not d.ok
        named += d.code in codes
        assert d.code in codes | {"wrong_values"}, d.message
    assert named >= 4  # a draw where two sizes coincide may leave a call without its own name


def test_min_instead_of_max_is_named(lang):
    S1 = inputs("9.1")["S1"]
    d = diagnose_task("9.1", S1.min(axis=1, keepdims=True))
    assert d.code == "min_not_max" and "max" in d.message and ("第 2 块" not in d.message), d.message
    assert "block 2" not in d.message


def test_block_two_forgotten_is_named_in_9_4_and_9_5(lang):
    i = inputs("9.5")
    S1, S2, V1 = i["S1"], i["S2"], i["V1"]
    m1 = S1.max(axis=1, keepdims=True)
    m2 = np.maximum(m1, S2.max(axis=1, keepdims=True))
    P1 = np.exp(S1 - m1)
    for answer in (P1 @ V1, np.exp(m1 - m2) * (P1 @ V1)):
        assert diagnose_task("9.5", answer).code == "new_block_forgotten"
    for answer in (P1.sum(axis=1, keepdims=True), np.exp(m1 - m2) * P1.sum(axis=1, keepdims=True)):
        assert diagnose_task("9.4", answer).code == "new_block_forgotten"


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -np.inf])
def test_a_nan_prediction_gets_words_for_a_prediction(lang, value):
    d = diagnose_task("5.3", value)
    assert d.code == "not_finite" and not d.ok
    for template in ("the number", "look at how that entry", "第一个在", "那一项"):
        assert template not in d.message, d.message


@pytest.mark.parametrize(
    "task_id, answer",
    [
        ("9.1", np.zeros((3, 4))),
        ("9.2", np.zeros((3, 4))),
        ("9.2", np.zeros((1, 3, 1))[0, :2]),
        ("12.2", np.zeros((6, 5))),
        ("12.2", np.zeros((3, 8))),
    ],
)
def test_a_wrong_shape_without_a_matrix_product_is_not_told_of_one(lang, task_id, answer):
    d = diagnose_task(task_id, answer)
    assert d.code == "wrong_shape", d.message
    assert "matrix product" not in d.message and "矩阵乘法" not in d.message, d.message


@pytest.mark.parametrize("call", ["check()", "check(QKT)", "check(None)", "predicted()", "progress()"])
def test_check_without_a_task_id_says_so(lang, call):
    ns = {"check": homework.check, "predicted": homework.predicted, "progress": homework.progress}
    ns["QKT"] = np.zeros((4, 4))
    printed = _run(ns, call)
    assert printed.startswith("❌") and "Traceback" not in printed and "TypeError" not in printed, printed
    assert ('"2.1"' in printed) or ('"ex02"' in printed)


@pytest.mark.parametrize("ensure_ascii", [False, True], ids=["utf8", "escaped"])
def test_the_grader_keeps_the_recorded_prediction_of_a_handed_in_notebook(tmp_path, ensure_ascii):
    """The grader drops a notebook's saved outputs when it reads it, but keeps the 📌 lines, and judges the
    prediction they recorded (the student typed 3, saw the answer, changed the cell to 1)."""
    from attn_homework.grading.collect import collect

    ns = {"homework": homework, "top_key": 3}
    printed = _run(ns, 'homework.predicted("4.5")')
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("top_key = 1"), nbformat.v4.new_code_cell('homework.predicted("4.5")')]
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text=printed)]
    path = tmp_path / "ex04_softmax.ipynb"
    path.write_text(json.dumps(nb, ensure_ascii=ensure_ascii), encoding="utf-8")
    (submission,) = collect([path])[0]
    assert b"outputs" not in submission.data or "📌" not in submission.data.decode()
    revealed = verdicts.revealed_predictions(submission.revealed)
    assert revealed == {"top_key": 3.0}
    entry = {"top_key": {"kind": "array", "type": "int", "dtype": "<i8", "shape": [], "data": 1}}
    (result,) = [r for r in check_answers("ex04", entry, revealed=revealed) if r.id == "4.5"]
    assert result.code == "changed_after_reveal"


def test_the_changed_argument_is_the_one_named(lang):
    d = diagnose_task("6.5", _mutating_attention, rng=np.random.default_rng(0))
    assert d.code == "changes_input" and ("(Q)" in d.message or "的 Q 里" in d.message), d.message


def test_a_rounding_fix_is_named_as_rounding(lang):
    d = diagnose_task("2.3", lambda Q, K: np.round(Q @ K.T, 1), rng=np.random.default_rng(0))
    assert d.code == "almost_right" and "1" in d.message and "np.round" in d.message, d.message


@pytest.mark.parametrize(
    "task_id, function",
    [
        ("4.6", lambda S: softmax(np.asarray(S, dtype=np.float32))),
        ("6.5", lambda Q, K, V: softmax(np.float32(Q) @ np.float32(K).T / np.float32(np.sqrt(Q.shape[1]))) @ V),
    ],
    ids=["4.6", "6.5"],
)
def test_a_right_fix_computed_in_float32_passes_on_large_scores_too(task_id, function):
    for seed in range(6):
        d = diagnose_task(task_id, function, rng=np.random.default_rng(seed))
        assert d.ok, (seed, d.message)
    unscaled = lambda Q, K, V: softmax(np.float32(Q) @ np.float32(K).T) @ V  # noqa: E731
    assert not diagnose_task("6.5", unscaled, rng=np.random.default_rng(0)).ok


def test_the_mean_instead_of_the_max_is_named(lang):
    S1 = inputs("9.1")["S1"]
    d = diagnose_task("9.1", S1.mean(axis=1, keepdims=True))
    assert d.code == "mean_not_max" and "max" in d.message, d.message
