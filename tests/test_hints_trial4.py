"""The fourth student trial (925 cases, student notebooks only): each confidently wrong hint, each leak,
each wrong answer accepted, each traceback and the unhelpful patterns it named, as a test with the student's
own answers, in both languages where the text differs. In the order of harm."""

import contextlib
import io
import threading
import time

import nbformat
import numpy as np
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

import attn_core
import attn_homework as homework
from attn_core import rope
from attn_core.lang import set_lang
from attn_homework import diagnose_task, student, verdicts

from . import hints_common
from .repo import EDITIONS

lang = hints_common.lang
_fresh_state = hints_common.fresh_state
words = hints_common.words
softmax = hints_common.softmax


# The codes this file tests, each with the answers that must get it (test_hints checks every code has one).
CODES_OF_THE_FOURTH_TRIAL = {
    "mask_transposed",
    "mask_plus_inf",
    "max_global",
    "rope_before_append",
    "heads_order",
    "residual_added",
    "scale_on_output",
    "max_both_blocks",
}


def inputs(*task_ids):
    data = {}
    for task_id in task_ids:
        data |= homework.TASKS[task_id].inputs()
    return data


# ---------------------------------------------------------------- (a) a cause is named only with its evidence


def test_dividing_by_the_row_max_is_told_both_ways_it_arises(lang):
    S = homework.TASKS["4.1"].given()["S"]
    for A in (np.exp(S) / np.exp(S).max(axis=1, keepdims=True), np.exp(S - S.max(axis=1, keepdims=True))):
        d = diagnose_task("4.1", A)
        assert d.code == "not_normalized"
        assert words(lang, "exp(S) 除以每一行 exp 的最大值", "exp(S) divided by each row's largest exp") in d.message
    d = diagnose_task("4.1", np.exp(S))  # no maximum anywhere: only "never divided by the sums"
    assert d.code == "not_normalized" and words(lang, "最大值", "largest") not in d.message


@pytest.mark.parametrize(
    "fixed, code",
    [
        (lambda allowed: np.where(allowed.T, 0.0, -np.inf), "mask_transposed"),
        (lambda allowed: np.where(allowed, -np.inf, 0.0).T, "mask_inverted"),
        (lambda allowed: np.where(allowed, 0.0, np.inf), "mask_plus_inf"),
    ],
)
def test_an_additive_masks_infinity_is_never_blamed_on_an_overflow(lang, fixed, code):
    d = diagnose_task("13.4", fixed)
    assert not d.ok and d.code == code, d.message
    assert words(lang, "溢出或除以 0", "an overflow or a division by 0") not in d.message
    assert "np.where(allowed, 0.0, -np.inf)" not in d.message  # the fix is said in words, not handed over


def test_an_additive_mask_off_elsewhere_names_the_entry_not_nan_or_inf(lang):
    d = diagnose_task("13.4", lambda allowed: np.where(allowed, 0.0, -np.inf) + 0.5 * allowed)
    assert d.code == "wrong_values" and words(lang, "应该是 0", "where 0 belongs") in d.message, d.message
    assert "NaN" not in d.message


@pytest.mark.parametrize("guess", [2 * 24 * 4 * 64 * 2, 2 * 24 * 4 * 64 * 4 // 2, 24 * 4 * 64 * 4])
def test_half_the_cache_bytes_says_k_only_and_two_bytes_a_number_alike(lang, guess):
    d = diagnose_task("14.2", guess)
    assert d.code == "wrong_prediction" and "float16" in d.message and "K" in d.message, d.message


@pytest.mark.parametrize("guess", [2 * 24 * 4 * 16 * 4, 2 * 24 * 4 * 64])
def test_a_quarter_of_the_cache_bytes_says_numbers_or_a_smaller_factor(lang, guess):
    d = diagnose_task("14.2", guess)
    assert d.code == "wrong_prediction" and "d_head" in d.message, d.message
    assert words(lang, "有两种写法会得到", "Two reasonings") in d.message


def _rope_step_without_rope(q, k, v, K_cache, V_cache):  # the student's: rope removed entirely
    K_all, V_all = np.vstack([K_cache, k]), np.vstack([V_cache, v])
    s = q @ K_all.T / np.sqrt(q.shape[1])
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ V_all


def test_14_4_without_rope_is_told_as_no_turn_or_a_turn_by_zero(lang):
    d = diagnose_task("14.4", _rope_step_without_rope)
    assert d.code == "rope_position_zero"
    assert words(lang, "根本没有调用 rope", "not turned at all") in d.message, d.message


@pytest.mark.parametrize("answer", ["Q @ K.T / np.sqrt(Q.shape[1] // 4)", "Q @ K.T / np.sqrt(16) * 2"])
def test_a_root_of_4_is_not_asserted_to_be_n_q(lang, answer):
    g = homework.TASKS["3.2"].given()
    d = diagnose_task("3.2", eval(answer, {"np": np, "Q": g["Q"], "K": g["K"]}))
    assert d.code == "scaled_wrong_width"
    assert words(lang, "如果你用的是它", "if that is what you used") in d.message and "√d_k" in d.message
    assert "d_k = 16" not in d.message  # d_k is what a prediction may ask (8.2): its value is not said
    assert words(lang, "√4，即查询的个数", "divided by √4, the square root of") not in d.message  # the old assertion


# ---------------------------------------------------------------- (b) no formula of an answer is given away

GRADIENT_FORMULAS = ["Aᵀ·dO", "dO·Vᵀ", "dS·K/√d_k", "dSᵀ·Q/√d_k"]
ASKED = {"10.1": "Aᵀ·dO", "10.2": "dO·Vᵀ", "10.5": "dS·K/√d_k", "10.6": "dSᵀ·Q/√d_k"}


@pytest.mark.parametrize(
    "task_id, answer",
    [
        ("10.1", "dO @ V.T"),
        ("10.2", "A.T @ dO"),
        ("10.5", "dS_given @ K.T / 2"),
        ("10.5", "dS_given.T @ Q / 2"),
        ("10.6", "dS_given @ K / 2"),
    ],
)
def test_a_gradient_mistake_never_states_the_asked_formula(lang, task_id, answer):
    data = inputs("10.1", "10.2", "10.5", "10.6")
    d = diagnose_task(task_id, eval(answer, {"np": np, **data}))
    assert not d.ok and ASKED[task_id] not in d.message, d.message
    assert words(lang, "的公式", "'s formula") not in d.message
    assert "10." not in d.message.replace(f"{task_id}", "")  # no other task named


def test_the_gradients_messages_hold_no_right_formula():
    from attn_homework.messages.backward import MESSAGES

    for key in ("dV_A_not_transposed", "dA_V_not_transposed", "dQ_K_was_transposed", "dK_dS_not_transposed"):
        for text in MESSAGES[key]:
            assert not any(f in text for f in GRADIENT_FORMULAS), (key, text)
    for key in ("why_grad_V", "why_grad_A", "why_grad_Q", "why_grad_K"):
        for text in MESSAGES[key]:
            assert not any(f in text for f in GRADIENT_FORMULAS), (key, text)


# ---------------------------------------------------------------- the notebook-level leak: the Summary


def test_the_student_version_holds_back_the_summary_but_keeps_its_heading_and_link():
    for heading, held, note, lesson in (
        ("## 小结", "## 做完之后", "本练习自己的小结会透露几道题的答案", "[第 10 课](../10_learning_qkv.ipynb)"),
        ("## Summary", "## When you are done", "own summary would give away", "[Lesson 10](../10.ipynb)"),
    ):
        summary = f"{heading}\n\n- dV = Aᵀ dO, dA = dO Vᵀ\n- each row adds up to 0\n\n[Next →](../ex11_block.ipynb)"
        first = new_markdown_cell(f"# Exercise\n\n{lesson} ...")
        nb = new_notebook(cells=[first, new_code_cell("x = 1"), new_markdown_cell(summary)])
        out = student.make_student(nb)
        text = out.cells[-1].source
        assert text.startswith(held) and note in text and "[Next →](../ex11_block.ipynb)" in text
        assert lesson in text  # where the summary is read: the exercise's own lesson
        assert "Aᵀ" not in text and "adds up to 0" not in text
        assert nb.cells[-1].source == summary, "the teacher notebook is left alone"


def test_no_student_notebook_derived_from_its_teacher_states_the_summarys_answers():
    leaks = {  # a phrase of each summary that gives a task's answer away (the trial's list)
        "ex05_weighted_sum": ["(n_q, d_v)"],
        "ex10_backward": ["Vᵀ", "V^\\top"],
        "ex14_decoding": ["bytes", "字节"],
    }
    for folder in (edition / student.TEACHER_FOLDER for edition in EDITIONS.values()):
        for name, phrases in leaks.items():
            teacher = nbformat.read(folder / f"{name}.ipynb", as_version=4)
            made = student.make_student(teacher)
            summary = made.cells[-1].source
            assert summary.splitlines()[0] in student.HELD_BACK_HEADINGS.values()
            assert not any(p in summary for p in phrases), (folder, name, summary)


# ---------------------------------------------------------------- (c) wrong answers accepted


def _global_max(S):
    E = np.exp(S - S.max())
    return E / E.sum(axis=1, keepdims=True)


def _row_mean(S):
    E = np.exp(S - S.mean(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def test_a_softmax_with_the_global_max_or_the_row_mean_is_not_fixed(lang):
    d = diagnose_task("4.6", _global_max)
    assert d.code == "max_global" and "1000" in d.message and "0/0" in d.message
    d = diagnose_task("4.6", _row_mean)
    assert d.code == "mean_not_max" and "∞/∞" in d.message


@pytest.mark.parametrize("seed", range(5))
def test_the_stable_softmax_of_each_row_passes_on_every_probe(seed):
    def fixed_softmax(S):  # the right fix, written two ways
        E = np.exp(S - np.max(S, axis=-1, keepdims=True))
        return E / np.sum(E, axis=-1, keepdims=True)

    assert diagnose_task("4.6", fixed_softmax, rng=np.random.default_rng(seed)).ok
    assert diagnose_task("4.6", lambda S: softmax(np.asarray(S)), rng=np.random.default_rng(seed)).ok


def run_in_shell(shell, cells):
    """Run cells in an IPython shell as a notebook would; the printed output of the last one."""
    out = io.StringIO()
    for source in cells[:-1]:
        shell.run_cell(source, store_history=True, silent=False)
    with contextlib.redirect_stdout(out):
        shell.run_cell(cells[-1], store_history=True)
    return out.getvalue().strip()


shell = hints_common.shell


def test_a_right_value_left_from_before_a_failed_cell_is_not_a_tick(lang, shell):
    data = homework.TASKS["6.2"].inputs()
    shell.user_ns.update(data)
    right = "S = Q_new @ K_new.T / 2\nE = np.exp(S - S.max(1, keepdims=True))\n"
    right += "O_new = (E / E.sum(1, keepdims=True)) @ V_new"
    assert run_in_shell(shell, [right, 'check("6.2")']).startswith("✅")
    out = run_in_shell(shell, ["O_new = Q_new @ K_new @ V_new", 'check("6.2")'])
    assert out.startswith("❌") and "ValueError" in out, out
    assert words(lang, "出错之前的值", "its value from before") in out


def test_an_answer_cell_that_raised_is_not_told_not_answered_yet(lang, shell):
    shell.user_ns.update(homework.TASKS["1.4"].inputs())
    out = run_in_shell(shell, ["Q_new = ...", "Q_new = undefined_var @ W_q_new", 'check("1.4")'])
    assert "NameError" in out and words(lang, "还没作答", "Not answered yet") not in out, out
    out = run_in_shell(shell, ["Q_new = W_q_new @ X_new", 'check("1.4")'])
    assert "ValueError" in out and words(lang, "出错停下了", "stopped with an error") in out, out


def test_6_1_computed_by_attn_cores_attention_is_told_as_in_6_5(lang, shell):
    shell.user_ns.update(homework.TASKS["6.1"].inputs())
    out = run_in_shell(shell, ["from attn_core import attention\nO = attention(Q, K, V).O", 'check("6.1")'])
    assert out.startswith("❌") and "attn_core.attention" in out, out
    out = run_in_shell(shell, ["import attn_core\nO = attn_core.attention(Q, K, V).O", 'check("6.1")'])
    assert out.startswith("❌") and "attn_core.attention" in out, out
    own = "S = Q @ K.T / np.sqrt(3)\nE = np.exp(S - S.max(1, keepdims=True))\nO = (E / E.sum(1, keepdims=True)) @ V"
    assert run_in_shell(shell, [own, 'check("6.1")']).startswith("✅")


def test_a_cell_that_uses_no_reference_is_not_flagged():
    ns = {"attention": attn_core.attention, "rope": rope, "np": np}
    assert verdicts.delegated_in_cell("O = attention(Q, K, V).O", ns) == "attn_core.attention"
    assert verdicts.delegated_in_cell("q = rope(q, p)  # attention(...) in a comment", ns, [rope]) == ""
    assert verdicts.delegated_in_cell("def attention(Q, K, V): ...", {"attention": lambda *a: 0}) == ""


# ---------------------------------------------------------------- (e) never a hang, never a traceback


def test_a_function_that_loops_forever_is_stopped_and_said(lang, monkeypatch):
    monkeypatch.setattr(verdicts, "TIME_LIMIT", 0.5)

    def fixed_scores(Q, K):
        while True:
            time.sleep(0.01)

    start = time.monotonic()
    d = diagnose_task("2.3", fixed_scores)
    assert time.monotonic() - start < 3, "every call after the first that timed out is skipped"
    assert d.code == "too_slow" and "0.5" in d.message and "while True" in d.message


def test_the_time_limit_works_off_the_main_thread_and_says_it_cannot_stop_it(lang, monkeypatch):
    monkeypatch.setattr(verdicts, "TIME_LIMIT", 0.3)
    stop = threading.Event()

    def fixed_scores(Q, K):
        stop.wait(5)
        return Q @ K.T

    box = {}
    worker = threading.Thread(target=lambda: box.update(d=diagnose_task("2.3", fixed_scores)))
    worker.start()
    worker.join(10)
    stop.set()
    d = box["d"]
    assert d.code == "too_slow" and "Kernel" in d.message


@pytest.mark.parametrize("raised, code", [(KeyboardInterrupt, "interrupted"), (SystemExit, "exits")])
def test_keyboard_interrupt_and_system_exit_become_messages(lang, raised, code):
    def fixed_scores(Q, K):
        raise raised(1) if raised is SystemExit else raised()

    d = diagnose_task("2.3", fixed_scores)
    assert not d.ok and d.code == code
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        homework.check("2.3", fixed_scores)
    assert out.getvalue().startswith("❌ 2.3") and "Traceback" not in out.getvalue()


# ---------------------------------------------------------------- (f) the mistakes with a name, named


def test_6_1_with_a_transposed_or_the_scale_after_softmax(lang):
    g = homework.TASKS["6.1"].given()
    Q, K, V = g["Q"], g["K"], g["V"]
    d = diagnose_task("6.1", softmax(Q @ K.T / np.sqrt(3)).T @ V)
    assert d.code == "transposed" and words(lang, "A 的转置", "A transposed") in d.message
    d = diagnose_task("6.1", softmax(Q @ K.T) @ V / np.sqrt(3))
    assert d.code == "scale_on_output" and "softmax" in d.message


def test_8_1_heads_in_reverse_order(lang):
    Q = homework.TASKS["8.1"].given()["Q"]
    d = diagnose_task("8.1", np.stack([Q[:, 2 * h : 2 * h + 2] for h in range(3)])[::-1])
    assert d.code == "heads_order" and words(lang, "头的顺序反了", "reverse order") in d.message


def _layer(d, split, merge, extra=lambda Y, d: Y):
    Qh, Kh, Vh = (split(d["X"] @ W) for W in (d["W_q"], d["W_k"], d["W_v"]))
    return extra(merge(softmax(Qh @ Kh.transpose(0, 2, 1) / np.sqrt(2)) @ Vh) @ d["W_o"], d)


def test_8_5_reshape_both_ways_a_residual_and_w_o_transposed(lang):
    d = homework.TASKS["8.5"].inputs()
    n, width = d["X"].shape

    def split(M):
        return M.reshape(n, 3, width // 3).transpose(1, 0, 2)

    def merge(O):
        return O.transpose(1, 0, 2).reshape(n, -1)

    assert diagnose_task("8.5", _layer(d, split, merge)).ok
    bare = _layer(d, lambda M: M.reshape(3, n, width // 3), lambda O: O.reshape(n, -1))
    said = diagnose_task("8.5", bare)
    assert said.code == "split_no_transpose"
    assert words(lang, "拆成多个头和拼接都只用了 reshape", "Both the split and the merge") in said.message
    residual = diagnose_task("8.5", _layer(d, split, merge, lambda Y, d: Y + d["X"]))
    assert residual.code == "residual_added"
    Qh, Kh, Vh = (split(d["X"] @ W) for W in (d["W_q"], d["W_k"], d["W_v"]))
    W_o_T = merge(softmax(Qh @ Kh.transpose(0, 2, 1) / np.sqrt(2)) @ Vh) @ d["W_o"].T
    assert diagnose_task("8.5", W_o_T).code == "transposed"


def _rope_step(positions_of, ends="same"):
    def fixed_rope_step(q, k, v, K_cache, V_cache):
        p = positions_of(len(K_cache))
        q, k = rope(q, p), rope(k, p)
        K_all = np.vstack([k, K_cache]) if ends == "k_front" else np.vstack([K_cache, k])
        V_all = np.vstack([V_cache, v])
        s = q @ K_all.T / np.sqrt(q.shape[1])
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)) @ V_all

    return fixed_rope_step


def test_14_4_the_position_one_too_few_and_the_cache_ends_swapped(lang):
    assert diagnose_task("14.4", _rope_step(lambda t: np.array([t]))).ok
    d = diagnose_task("14.4", _rope_step(lambda t: np.array([t - 1])))
    assert d.code == "rope_before_append" and "len(K_cache) - 1" in d.message
    d = diagnose_task("14.4", _rope_step(lambda t: np.array([t]), ends="k_front"))
    assert d.code == "kv_misaligned"


def test_12_5_divided_by_d_k(lang):
    d = homework.TASKS["12.5"].inputs()
    g = homework.TASKS["12.5"].given()
    from attn_core.positions import sinusoidal_positions

    Z = g["X"] + sinusoidal_positions(*g["X"].shape)
    S = (Z @ g["W_q"]) @ (Z @ g["W_k"]).T
    assert diagnose_task("12.5", S / np.sqrt(g["W_q"].shape[1])).ok
    r = diagnose_task("12.5", S / g["W_q"].shape[1])
    assert r.code == "scaled_by_dk" and d is not None


def test_9_1_over_both_blocks_and_9_6_blocks_added(lang):
    d = homework.TASKS["9.6"].inputs()
    S1, S2, V1, V2 = d["S1"], d["S2"], d["V1"], d["V2"]
    r = diagnose_task("9.1", np.maximum(S1, S2).max(axis=1, keepdims=True))
    assert r.code == "max_both_blocks" and "S1" in r.message
    r = diagnose_task("9.6", softmax(S1) @ V1 + softmax(S2) @ V2)
    assert r.code == "blocks_averaged" and words(lang, "加起来", "added") in r.message
    r = diagnose_task("9.6", softmax(S1) @ V1)
    assert r.code == "new_block_forgotten"


@pytest.mark.parametrize("eps", [2e-5, 5e-6, 3e-4, 1e-3])
def test_11_1_an_epsilon_of_another_size_is_named(lang, eps):
    X = homework.TASKS["11.1"].given()["X"]
    mean, var = X.mean(axis=1, keepdims=True), X.var(axis=1, keepdims=True)
    assert diagnose_task("11.1", (X - mean) / np.sqrt(var + 1e-5)).ok
    d = diagnose_task("11.1", (X - mean) / np.sqrt(var + eps))
    assert d.code == "eps_value" and f"{eps:.0e}".replace("e-0", "e-") in d.message


def test_7_5_the_symptom_patched_in_row_0(lang):
    def fixed_causal_attention(Q, K, V):
        n, d_k = Q.shape
        A = softmax(Q @ K.T / np.sqrt(d_k), axis=1) * np.tril(np.ones((n, n)))
        out = A @ V
        out[0] = V[0]
        return out

    d = diagnose_task("7.5", fixed_causal_attention)
    assert d.code == "mask_after_softmax" and "V[0]" in d.message


def test_rounded_to_one_decimal_is_singular():
    set_lang("en")
    try:
        S = homework.TASKS["4.1"].given()["S"]
        d = diagnose_task("4.1", np.round(softmax(S), 1))
    finally:
        set_lang("zh")
    assert "1 decimal." in d.message and "1 decimals" not in d.message


def test_1_4_and_1_5_name_the_tasks_own_variables(lang):
    d = homework.TASKS["1.4"].inputs()
    r = diagnose_task("1.4", (d["X_new"] @ d["W_q_new"]).T)
    assert r.code == "transposed" and "Q_new" in r.message and "W_Q" in r.message
    r = diagnose_task("1.5", d["X_new"] @ d["W_v_new"] * 2)
    assert "V_new" in r.message


# ---------------------------------------------------------------- 6.4: only an attempt at 6.3 carries forward


def test_an_identity_or_other_0_1_matrix_for_6_3_carries_nothing_forward(lang):
    d = homework.data("6.3")
    Q, K, V = d.X_new @ d.W_q_new, d.X_new @ d.W_k_new, d.X_new @ d.W_v_new
    S = Q @ K.T / np.sqrt(3)
    t = homework.TASKS["6.4"]
    down_columns = softmax(S, axis=0)  # a real attempt at 6.3, wrong: its error carries forward
    assert verdicts.right_for_earlier_answer(t, down_columns @ V, down_columns)
    assert verdicts.right_for_earlier_answer(t, S @ V, S)  # the scores used as weights: an attempt too
    n = len(Q)
    one_hot = np.eye(n)[np.argmax(S, axis=1)]
    for typed in (np.eye(n), np.ones((n, n)), one_hot):
        assert not verdicts.right_for_earlier_answer(t, typed @ V, typed)
    assert not verdicts.right_for_earlier_answer(t, down_columns[:, :-1] @ V[:-1], down_columns[:, :-1])


def test_a_fix_kept_under_the_buggy_name_is_told_to_be_renamed(lang):
    def buggy_scores(Q, K):  # the student's fix, under the old name
        return Q @ K.T

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec('homework.check("2.3")', {"homework": homework, "fixed_scores": ..., "buggy_scores": buggy_scores})
    assert out.getvalue().startswith("⏳ 2.3") and "def fixed_scores(...)" in out.getvalue()
    assert "buggy_scores" in out.getvalue()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):  # the notebook's own buggy function: nothing about a rename
        exec('homework.check("2.3")', {"homework": homework, "fixed_scores": ..., "buggy_scores": lambda Q, K: Q @ K})
    assert out.getvalue().startswith("⏳ 2.3") and "buggy_scores" not in out.getvalue()


# ---------------------------------------------------------------- fifth trial: a NaN row the task's mask does not make


def test_a_nan_row_made_by_a_column_max_is_told_as_the_column_max_not_the_mask(lang):
    """Trial 5, 13.2: the mask was right, the max ran down the columns and met the all −∞ padding column; the
    hint blamed the mask. The answer is what a column max makes, so that is what is said."""
    d = inputs("13.2")
    Q, K, pad = d["Q"], d["K"], d["key_padding_mask"]
    S = np.where(~pad[None, :], Q @ K.T / np.sqrt(3), -np.inf)
    with np.errstate(all="ignore"):
        E = np.exp(S - S.max(axis=0, keepdims=True))
        answer = E / E.sum(axis=1, keepdims=True)
    got = diagnose_task("13.2", answer)
    assert not got.ok
    assert words(lang, "沿列取的", "taken down the columns") in got.message
    assert words(lang, "一个键也看不到", "sees no key at all") not in got.message


def test_a_row_the_learners_own_mask_empties_is_still_told_as_an_empty_row(lang):
    """13.2 with a mask that also blocks the first key: the learner's mask leaves row 0 nothing to see."""
    d = inputs("13.2")
    Q, K, pad = d["Q"], d["K"], d["key_padding_mask"]
    mine = ~pad[None, :] & np.array([[False, True, True, True]] * 4)
    mine[0] = False
    with np.errstate(all="ignore"):
        answer = softmax(np.where(mine, Q @ K.T / np.sqrt(3), -np.inf))
    got = diagnose_task("13.2", answer)
    assert words(lang, "一个键也看不到", "sees no key at all") in got.message
