"""The checker's steps for lessons 8–11 and the predictions (issue 15): right answers however computed
pass, each named mistake gets its code (both languages) and a near miss of it does not, and a wrong
prediction is explained without the right number being given."""

import re

import numpy as np
import pytest

import attn_homework as homework
from attn_core import multi_head_attention, set_lang
from attn_homework import diagnose_task
from attn_homework.checker import diagnose
from attn_homework.checker.steps import STEP_TABLE

from .test_check import leaked_numbers

HANZI = re.compile(r"[\u4e00-\u9fff]")


def softmax(S, axis=-1):
    E = np.exp(S - S.max(axis=axis, keepdims=True))
    return E / E.sum(axis=axis, keepdims=True)


def layer_norm(x, eps=1e-5, axis=-1, ddof=0):
    return (x - x.mean(axis=axis, keepdims=True)) / np.sqrt(x.var(axis=axis, ddof=ddof, keepdims=True) + eps)


def expected(task_id):
    task = homework.task(task_id)
    return STEP_TABLE[task.step].givens(task.given()).expected


# ---------------------------------------------------------------- independent right answers, written another way


def split(M, h):
    n, d = M.shape
    return np.stack([M[:, k * (d // h) : (k + 1) * (d // h)] for k in range(h)])


def heads_attention(Qh, Kh, Vh):
    return np.stack([softmax(q @ k.T / np.sqrt(q.shape[1])) @ v for q, k, v in zip(Qh, Kh, Vh)])


def right_answers():
    """(task, a right answer computed without the checker's code) for every array task of ex08–ex11."""
    Q8, h = homework.data("8.1")
    Qh, Kh, Vh = homework.data("8.3")
    (Oh,) = homework.data("8.4")
    X, W_q, W_k, W_v, W_o, n_heads = homework.data("8.5")
    S1, S2, V1, V2 = homework.data("9.1")
    S, V = np.hstack([S1, S2]), np.vstack([V1, V2])
    m = S.max(axis=1, keepdims=True)
    A, V10, dO = homework.data("10.1")
    A4, dA = homework.data("10.4")
    dS, Q10, K10 = homework.data("10.5")
    X11, F11 = homework.data("11.1")
    H, W1, b1, W2, b2 = homework.data("11.3")
    merged = np.concatenate(list(Oh), axis=1)
    mh = np.concatenate(list(heads_attention(split(X @ W_q, 3), split(X @ W_k, 3), split(X @ W_v, 3))), axis=1) @ W_o
    return [
        ("8.1", split(Q8, h)),
        ("8.1", np.einsum("nhd->hnd", Q8.reshape(5, 3, 2))),
        ("8.3", heads_attention(Qh, Kh, Vh)),
        ("8.3", heads_attention(Qh.astype(np.float32), Kh.astype(np.float32), Vh.astype(np.float32))),
        ("8.4", merged),
        ("8.4", merged.tolist()),
        ("8.5", mh),
        ("8.5", multi_head_attention(X, X, W_q, W_k, W_v, W_o, n_heads).O),
        ("9.1", np.array([[max(row)] for row in S1.tolist()])),
        ("9.2", np.exp(S1 - S1.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)),
        ("9.4", np.exp(S - m).sum(axis=1, keepdims=True)),  # the dense denominator against the overall maximum
        ("9.5", np.exp(S - m) @ V),
        ("9.6", softmax(S) @ V),
        ("10.1", np.einsum("ij,id->jd", A, dO)),
        ("10.2", np.einsum("id,jd->ij", dO, V10)),
        ("10.4", np.stack([(np.diag(a) - np.outer(a, a)) @ d for a, d in zip(A4, dA)])),  # the Jacobian, row by row
        ("10.5", dS @ K10 / 2),
        ("10.6", np.einsum("ij,id->jd", dS, Q10) / 2),
        ("11.1", layer_norm(X11)),
        ("11.1", (X11 - X11.mean(axis=1)[:, None]) / (X11.var(axis=1)[:, None] + 1e-5) ** 0.5),
        ("11.2", layer_norm(X11 + F11)),
        ("11.3", np.where(H @ W1 + b1 > 0, H @ W1 + b1, 0) @ W2 + b2),
    ]


@pytest.mark.parametrize("task_id, answer", right_answers(), ids=lambda x: x if isinstance(x, str) else "")
def test_right_answers_pass_however_computed(task_id, answer):
    d = diagnose_task(task_id, answer)
    assert d.ok, d.message


# ---------------------------------------------------------------- each mistake: its code; a near miss does not get it


def lesson_mistakes():
    """(task, wrong answer, code, words of the Chinese message)."""
    Wq13, Wk13, Wv13 = homework.data("13.1")
    Q8, h = homework.data("8.1")
    Qh, Kh, Vh = homework.data("8.3")
    (Oh,) = homework.data("8.4")
    X, W_q, W_k, W_v, W_o, n_heads = homework.data("8.5")
    S1, S2, V1, V2 = homework.data("9.1")
    A, V10, dO = homework.data("10.1")
    A4, dA = homework.data("10.4")
    dS, Q10, K10 = homework.data("10.5")
    X11, F11 = homework.data("11.1")
    H, W1, b1, W2, b2 = homework.data("11.3")

    def layer(root=None, w_o=True, split_fn=split, merge_fn=lambda O: np.concatenate(list(O), axis=1)):
        Qs, Ks, Vs = (split_fn(X @ W, 3) for W in (W_q, W_k, W_v))
        O = np.stack(
            [softmax(q @ k.T / (np.sqrt(q.shape[1]) if root is None else root)) @ v for q, k, v in zip(Qs, Ks, Vs)]
        )
        merged = merge_fn(O)
        return merged @ W_o if w_o else merged

    reshape_split = lambda M, h: M.reshape(h, M.shape[0], M.shape[1] // h)  # noqa: E731
    m1 = S1.max(axis=1, keepdims=True)
    P1 = np.exp(S1 - m1)
    m2 = np.maximum(m1, S2.max(axis=1, keepdims=True))
    P2 = np.exp(S2 - m2)
    r = np.exp(m1 - m2)
    l1, l2 = P1.sum(1, keepdims=True), P1.sum(1, keepdims=True) * r + P2.sum(1, keepdims=True)
    acc1, acc2 = P1 @ V1, (P1 @ V1) * r + P2 @ V2
    m2_reset = S2.max(axis=1, keepdims=True)
    P2_reset = np.exp(S2 - m2_reset)
    r_reset = np.exp(m1 - m2_reset)
    rowsum = (dA * A4).sum(axis=1, keepdims=True)
    relu = lambda x: np.maximum(x, 0)  # noqa: E731
    return [
        ("8.1", Q8.reshape(3, 5, 2), "split_no_transpose", ["reshape"]),
        ("8.1", Q8.reshape(5, 3, 2), "split_no_transpose", ["(n, h, d_head)"]),
        ("8.1", Q8.reshape(5, 2, 3).transpose(2, 0, 1), "split_interleaved", ["每隔 h 列"]),
        ("8.1", split(Q8, 3).transpose(0, 2, 1), "transposed", ["n × d_head"]),
        ("8.3", heads_attention(Qh, Kh, Vh * 0 + Kh), "used_keys_not_values", ["值 V"]),
        (
            "8.3",
            np.stack([softmax(q @ k.T / np.sqrt(6)) @ v for q, k, v in zip(Qh, Kh, Vh)]),
            "scaled_wrong_width",
            ["d_model"],
        ),
        ("8.3", np.stack([softmax(q @ k.T) @ v for q, k, v in zip(Qh, Kh, Vh)]), "unscaled", ["√d_k"]),
        ("8.4", Oh.reshape(5, 6), "merge_no_transpose", ["reshape"]),
        ("8.4", Oh.transpose(1, 2, 0).reshape(5, 6), "merge_interleaved", ["交错"]),
        ("8.4", np.concatenate(list(Oh[::-1]), axis=1), "merge_order", ["顺序"]),
        ("8.4", Oh.sum(axis=0), "merge_summed", ["并排"]),
        ("8.4", Oh.mean(axis=0), "merge_summed", ["并排"]),
        ("8.4", np.concatenate(list(Oh), axis=0), "merge_stacked", ["左右并排"]),
        ("8.5", layer(w_o=False), "no_W_O", ["W_O"]),
        ("8.5", layer(root=np.sqrt(6)), "scaled_by_d_model", ["√d_head"]),
        ("8.5", layer(root=1.0), "unscaled", ["√d_head"]),
        ("8.5", layer(split_fn=reshape_split), "split_no_transpose", ["reshape"]),
        ("8.5", layer(merge_fn=lambda O: O.reshape(5, 6)), "merge_no_transpose", ["reshape"]),
        ("8.5", softmax((X @ W_q) @ (X @ W_k).T / np.sqrt(6)) @ (X @ W_v) @ W_o, "single_head", ["n_heads"]),
        ("9.1", S1.max(axis=0), "max_axis", ["axis=1"]),
        ("9.1", S1.max(axis=0, keepdims=True), "max_axis", ["axis=1"]),
        ("9.1", S1.max(axis=1), "keepdims", ["keepdims=True"]),
        ("9.1", S1.max(), "max_whole_block", ["每个查询行"]),
        ("9.2", np.exp(S1).sum(axis=1, keepdims=True), "not_shifted", ["m1"]),
        ("9.2", np.exp(S1 - S1.max(axis=0, keepdims=True)).sum(axis=1, keepdims=True), "max_axis", ["axis=0"]),
        ("9.2", P1.sum(axis=0, keepdims=True), "sum_axis", ["axis=1"]),
        ("9.2", P1.sum(axis=1), "keepdims", ["keepdims=True"]),
        ("9.4", l1 + P2.sum(1, keepdims=True), "not_rescaled", ["exp(m1 − m2)"]),
        ("9.4", l1 * np.exp(m2 - m1) + P2.sum(1, keepdims=True), "rescaled_backwards", ["exp(m2 − m1)"]),
        ("9.4", l1 * r_reset + P2_reset.sum(1, keepdims=True), "max_not_running", ["max(m1"]),
        ("9.4", P2.sum(1, keepdims=True), "old_sums_dropped", ["第 1 块"]),
        ("9.4", np.exp(S1).sum(1, keepdims=True) + np.exp(S2).sum(1, keepdims=True), "not_shifted", ["m2"]),
        ("9.5", acc1 + P2 @ V2, "not_rescaled", ["exp(m1 − m2)"]),
        ("9.5", np.exp(S1) @ V1 + np.exp(S2) @ V2, "not_shifted", ["m2"]),
        ("9.5", acc1 * r_reset + P2_reset @ V2, "max_not_running", ["max(m1"]),
        ("9.5", acc2 / l2, "divided_early", ["除以 l2"]),
        ("9.6", ((acc1 / l1) * r + P2 @ V2) / l2, "divided_early", ["除了两次"]),
        ("9.6", acc2, "not_divided", ["l2"]),
        ("9.6", (acc1 + P2 @ V2) / (l1 + P2.sum(1, keepdims=True)), "not_rescaled", ["exp(m1 − m2)"]),
        ("9.6", (softmax(S1) @ V1 + softmax(S2) @ V2) / 2, "blocks_averaged", ["平均"]),
        ("9.6", softmax(S2) @ V2, "old_sums_dropped", ["第 1 块"]),
        ("10.1", dO.T @ A, "transposed", ["dV"]),
        ("10.2", V10 @ dO.T, "transposed", ["dA"]),
        ("10.4", dA, "jacobian_forgotten", ["雅可比"]),
        ("10.4", A4 * (1 - A4) * dA, "jacobian_partial", ["对角线"]),
        ("10.4", A4 * dA, "jacobian_partial", ["rowsum"]),
        ("10.4", dA - rowsum, "jacobian_partial", ["乘以 A"]),
        ("10.4", A4 * (rowsum - dA), "jacobian_sign", ["符号"]),
        ("10.4", A4 * (dA - (dA * A4).sum(axis=0, keepdims=True)), "sum_axis", ["axis=-1"]),
        ("10.5", dS @ K10, "grad_unscaled", ["1/√d_k"]),
        ("10.5", dS @ K10 / 4, "scaled_by_dk", ["平方根"]),
        ("10.5", dS @ K10 * 2, "scale_multiplied", ["除以"]),
        ("10.5", dS @ K10.T / 2, "missing_transpose", ["K 被转置"]),
        ("10.6", dS.T @ Q10, "grad_unscaled", ["1/√d_k"]),
        ("10.6", Q10.T @ dS / 2, "transposed", ["dK"]),
        ("10.6", dS.T @ Q10 * 2, "scale_multiplied", ["除以"]),
        ("11.1", layer_norm(X11, axis=0), "norm_axis", ["axis=0"]),
        ("11.1", (X11 - X11.mean(axis=0)) / X11.std(axis=0), "norm_axis", ["axis=0"]),
        ("11.1", (X11 - X11.mean(1, keepdims=True)) / X11.std(1, keepdims=True), "eps_forgotten", ["ε"]),
        (
            "11.1",
            (X11 - X11.mean(1, keepdims=True)) / (X11.std(1, keepdims=True) + 1e-5),
            "eps_misplaced",
            ["根号里面"],
        ),
        # ε added to the result changes it by 1e-5 only, as close as the tolerance: no ε under the root, as said
        ("11.1", (X11 - X11.mean(1, keepdims=True)) / X11.std(1, keepdims=True) + 1e-5, "eps_forgotten", ["根号里"]),
        ("11.1", layer_norm(X11, ddof=1), "unbiased_variance", ["d − 1"]),
        ("11.1", X11 / np.sqrt(X11.var(1, keepdims=True) + 1e-5), "not_centred", ["均值"]),
        ("11.1", (X11 - X11.mean(1, keepdims=True)) / (X11.var(1, keepdims=True) + 1e-5), "no_square_root", ["标准差"]),
        ("11.2", layer_norm(F11) + X11, "residual_after_norm", ["LayerNorm(X + F)", "不是 pre-LN"]),
        # the last row of X + F is nearly constant: ε's place and size show (a student found 11.2 took ε outside)
        (
            "11.2",
            (X11 + F11 - (X11 + F11).mean(1, keepdims=True)) / ((X11 + F11).std(1, keepdims=True) + 1e-5),
            "eps_misplaced",
            ["根号里面"],
        ),
        ("11.2", layer_norm(X11 + F11, eps=1e-8), "eps_value", ["1e-8", "1e-5"]),
        ("11.1", layer_norm(X11, eps=1e-3), "eps_value", ["1e-3", "1e-5"]),
        ("11.1", layer_norm(X11, eps=1e-6), "eps_value", ["1e-6"]),
        ("11.2", layer_norm(X11) + F11, "residual_after_norm", ["先相加"]),
        ("11.2", layer_norm(F11), "no_residual", ["残差"]),
        ("11.2", X11 + F11, "no_norm", ["层归一化"]),
        ("11.2", layer_norm(X11 + F11, axis=0), "norm_axis", ["axis=0"]),
        ("11.3", (H @ W1 + b1) @ W2 + b2, "no_relu", ["ReLU"]),
        ("11.3", relu(relu(H @ W1 + b1) @ W2 + b2), "relu_on_output", ["输出"]),
        ("11.3", relu(H @ W1) @ W2 + b2, "bias_forgotten", ["偏置"]),
        ("11.3", relu(H @ W1 + b1) @ W2, "bias_forgotten", ["偏置"]),
        ("11.3", (relu(H @ W1) + b1) @ W2 + b2, "relu_before_bias", ["b1"]),
        ("13.1", np.concatenate([Wq13, Wk13, Wv13]), "in_proj_not_transposed", ["X @ W.T", "转置"]),
        ("13.1", np.concatenate([Wk13.T, Wq13.T, Wv13.T]), "in_proj_wrong_order", ["q、k、v"]),
        ("13.1", np.concatenate([Wq13.T, Wv13.T, Wk13.T]), "in_proj_wrong_order", ["顺序"]),
    ]


LESSON_MISTAKES = lesson_mistakes()
IDS = [f"{row[0]}-{row[2]}-{i}" for i, row in enumerate(LESSON_MISTAKES)]


@pytest.mark.parametrize("task_id, answer, code, words", LESSON_MISTAKES, ids=IDS)
def test_each_mistake_gets_its_code(task_id, answer, code, words):
    d = diagnose_task(task_id, answer)
    assert d.code == code, d.message
    for word in words:
        assert word in d.message, (word, d.message)
    assert not leaked_numbers(d.message, expected(task_id))


@pytest.mark.parametrize("task_id, answer, code, words", LESSON_MISTAKES, ids=IDS)
def test_each_mistake_in_english_and_a_near_miss_of_it(english, task_id, answer, code, words):
    d = diagnose_task(task_id, answer)
    assert d.code == code and not HANZI.search(d.message), d.message
    near = np.array(answer, dtype=float)
    near[(0,) * near.ndim] += 0.731  # one number moved: no known mistake makes that
    assert diagnose_task(task_id, near).code != code


# ---------------------------------------------------------------- the steps on other givens (not only the tasks' data)


def test_split_and_merge_for_other_head_counts():
    rng = np.random.default_rng(1)
    for n, h, d_head in [(4, 2, 3), (2, 4, 1), (6, 3, 3)]:
        M = rng.normal(size=(n, h * d_head))
        heads = split(M, h)
        assert diagnose("split_heads", heads, Q=M, n_heads=h).ok
        assert diagnose("merge_heads", np.concatenate(list(heads), axis=1), heads=heads).ok
        assert diagnose("split_heads", M.reshape(h, n, d_head), Q=M, n_heads=h).code in ("split_no_transpose", "ok")


def test_a_multi_head_layer_with_one_head_is_single_head_attention():
    rng = np.random.default_rng(2)
    X, W_q, W_k, W_v, W_o = (rng.normal(size=(4, 4)) for _ in range(5))
    right = softmax((X @ W_q) @ (X @ W_k).T / 2) @ (X @ W_v) @ W_o
    assert diagnose("multi_head", right, X=X, W_q=W_q, W_k=W_k, W_v=W_v, W_o=W_o, n_heads=1).ok


def test_layer_norm_of_a_constant_row_without_eps_is_named():
    X = np.array([[1.0, 2.0, 4.0], [0.5, 0.5, 0.5]])
    with np.errstate(invalid="ignore"):
        no_eps = (X - X.mean(1, keepdims=True)) / X.std(1, keepdims=True)  # 0/0 in the constant row
    assert np.isnan(no_eps).any()
    assert diagnose("layer_norm", no_eps, X=X).code == "eps_forgotten"
    assert diagnose("layer_norm", layer_norm(X), X=X).ok


def test_an_online_task_with_one_block_raising_the_maximum_everywhere():
    rng = np.random.default_rng(3)
    S1, S2 = rng.normal(size=(2, 3)), rng.normal(size=(2, 3)) + 10  # block 2 raises every maximum
    V1, V2 = rng.normal(size=(3, 2)), rng.normal(size=(3, 2))
    dense = softmax(np.hstack([S1, S2])) @ np.vstack([V1, V2])
    assert diagnose("online_output", dense, S1=S1, S2=S2, V1=V1, V2=V2).ok


# ---------------------------------------------------------------- predictions: explained, never given away

PREDICTIONS = [t.id for t in homework.tasks() if t.answer_kind == "number"]


@pytest.mark.parametrize("task_id", PREDICTIONS)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_wrong_prediction_is_explained_without_the_right_number(task_id, lang):
    right = float(expected(task_id))
    right_text = re.compile(rf"(?<![\d.]){int(right)}(?![\d.])") if right == int(right) else None
    set_lang(lang)
    try:
        assert diagnose_task(task_id, right).ok
        assert diagnose_task(task_id, int(right) if right == int(right) else right).ok
        for guess in [-1, 0, 1, 2, 3, 4, 5, 6, 8, 0.5, 0.25, 1.5, 2.718]:
            if abs(guess - right) < 1e-9:
                continue
            d = diagnose_task(task_id, guess)
            assert d.code in ("wrong_prediction", "not_whole"), (guess, d)
            assert right_text is None or not right_text.search(d.message), (guess, d.message)
        for not_a_number in ("two", [1, 2], np.ones(3), True):
            assert diagnose_task(task_id, not_a_number).code == "wrong_type"
    finally:
        set_lang("zh")


def test_a_prediction_that_two_reasonings_give_names_both():
    """9.3 asks for row 1's factor; row 2's right factor is also what row 1's block-maximum mistake gives."""
    d = homework.data("9.3")
    row2 = float(np.exp(d.S1[2].max() - max(d.S1[2].max(), d.S2[2].max())))
    message = diagnose_task("9.3", round(row2, 3)).message
    assert "不止一种来历" in message and "新块自己的最大值" in message, message
    assert "第 2 行" not in message, "never which other row's factor it is: that confirms a number not computed"


def test_a_predictions_type_hint_never_shows_an_example_number():
    """A student who typed "2" for 8.2 was told 'e.g. answer = 2', which was 8.2's answer."""
    for task_id in PREDICTIONS:
        message = diagnose_task(task_id, "2").message.replace(task_id, "").replace("从 0 数起", "")
        assert not re.search(r"\d", message), (task_id, message)


def test_an_integer_answer_is_told_why_only_with_its_evidence():
    S1 = homework.data("9.1").S1
    argmax = diagnose_task("9.1", S1.argmax(axis=1)[:, None])
    assert argmax.code == "int_dtype" and "截掉" not in argmax.message and "argmax" in argmax.message
    cut = diagnose_task("9.1", S1.max(axis=1, keepdims=True).astype(int))
    assert cut.code == "int_dtype" and "截掉" in cut.message


def test_a_place_in_a_per_head_answer_names_the_head():
    d = homework.data("8.3")
    Q, K, V = d.Q_h, d.K_h, d.V_h
    right = np.array([softmax(q @ k.T / np.sqrt(q.shape[-1])) @ v for q, k, v in zip(Q, K, V)])
    wrong = right.copy()
    wrong[2, 3, 1] += 1.0
    assert "头 2" in diagnose_task("8.3", wrong).message


def test_a_key_is_predicted_by_its_index_not_its_word():
    """The grader carries numbers only, so the notebook's check must not accept what grading would not."""
    d = diagnose_task("4.5", "喜欢")
    assert d.code == "wrong_type" and "从 0 数起" in d.message


def test_there_are_the_tasks_issue_15_asks_for():
    """At least 15 new tasks (22 before), six of them predict or find-the-bug tasks, and the four new notebooks."""
    assert len(homework.TASKS) >= 22 + 15
    kinds = [t.answer_kind for t in homework.tasks()]
    assert kinds.count("number") + kinds.count("function") >= 6
    assert {"ex08_multi_head", "ex09_online_softmax", "ex10_backward", "ex11_block"} <= set(homework.EXERCISES)
