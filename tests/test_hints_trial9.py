"""The ninth student trial (1,289 answers): NaN and ∞ are no prediction (neither recorded nor revealed), a
global maximum in attention is named, an additive mask used as np.where's condition is among the causes of
an inverted mask, the find-the-bug probes hold edge shapes whatever the draw (one query, heads 5 wide, a
mask 8 wide, a sequence of 30), and a rounded or shifted answer says so. Both languages."""

import numpy as np
import pytest

from attn_homework import diagnose_task

from . import hints_common

lang = hints_common.lang
_fresh_state = hints_common.fresh_state
words = hints_common.words
shell = hints_common.shell
run_cells = hints_common.run_cells
softmax = hints_common.softmax

# the codes these tests give (tests/test_hints.py checks that every code the checker gives has a test)
CODES_OF_THE_NINTH_TRIAL = {"max_global", "an_offset", "not_finite", "mask_inverted", "not_normalized", "not_weighted"}


@pytest.mark.parametrize("task_id, var", [("4.5", "top_key"), ("5.3", "columns_of_O"), ("7.4", "row_sum")])
@pytest.mark.parametrize("value", ["np.nan", "np.inf", "-np.inf"])
def test_nan_or_inf_is_no_prediction_and_opens_no_reveal(lang, shell, task_id, var, value):
    said = run_cells(shell, task_id, [f"{var} = {value}", f'check("{task_id}")'])
    assert said.startswith("❌") and "📌" not in said
    revealed = run_cells(shell, task_id, [f'print(homework.predicted("{task_id}"))'])
    assert revealed.endswith("False") and "📌" not in revealed
    assert words(lang, "不是一个预测", "is not a prediction") in revealed  # not "it holds float"
    fixed = run_cells(shell, task_id, [f"{var} = 1", f'check("{task_id}")'])
    assert words(lang, "改成了", "changed it") not in fixed  # nothing was recorded to change from


def test_a_whole_number_task_reveals_nothing_for_2_5(lang, shell):
    revealed = run_cells(shell, "4.5", ["top_key = 2.5", 'print(homework.predicted("4.5"))'])
    assert revealed.endswith("False") and "📌" not in revealed


def _scores(Q, K):
    return Q @ K.T / np.sqrt(Q.shape[-1])


def test_the_whole_matrix_maximum_in_attention_is_named(lang):
    def fixed(Q, K, V):
        E = np.exp(_scores(Q, K) - _scores(Q, K).max())
        return E @ V / E.sum(axis=1, keepdims=True)

    d = diagnose_task("6.5", fixed)
    assert d.code == "max_global" and "S.max()" in d.message


def test_the_whole_matrix_maximum_in_causal_attention_is_named(lang):
    def fixed(Q, K, V):
        S = np.where(np.tril(np.ones((len(Q), len(K)), dtype=bool)), _scores(Q, K), -np.inf)
        E = np.exp(S - S.max())
        return E @ V / E.sum(axis=1, keepdims=True)

    assert diagnose_task("7.5", fixed).code == "max_global"


def test_an_inverted_mask_names_an_additive_mask_used_as_a_condition_too(lang):
    def fixed(Q, K, V):
        additive = np.where(np.tril(np.ones((len(Q), len(K)))), 0.0, -np.inf)
        return softmax(np.where(additive, _scores(Q, K), -np.inf)) @ V

    d = diagnose_task("7.5", fixed)
    assert d.code == "mask_inverted" and "np.where" in d.message and "M == 0" in d.message


@pytest.mark.parametrize("seed", range(10))
def test_a_squeezed_score_matrix_is_caught_on_every_draw(seed):
    d = diagnose_task("2.3", lambda Q, K: np.squeeze(Q @ K.T), rng=np.random.default_rng(seed))
    assert not d.ok


@pytest.mark.parametrize("seed", range(10))
def test_q_times_k_for_three_queries_is_caught_on_every_draw(seed):
    def sneaky(Q, K):
        return Q @ K if Q.shape[1] == K.shape[0] and Q.shape[0] == 3 else Q @ K.T

    assert not diagnose_task("2.3", sneaky, rng=np.random.default_rng(seed)).ok


@pytest.mark.parametrize("seed", range(10))
def test_heads_cut_to_3_columns_are_caught_on_every_draw(seed):
    def capped(M, n_heads):
        n, width = M.shape
        return M.reshape(n, n_heads, width // n_heads).transpose(1, 0, 2)[:, :, :3]

    assert not diagnose_task("8.6", capped, rng=np.random.default_rng(seed)).ok


@pytest.mark.parametrize("seed", range(10))
def test_a_mask_cut_to_4_columns_is_caught_on_every_draw(seed):
    def cut(allowed):
        return np.where(allowed, 0.0, -np.inf)[..., :4]

    assert not diagnose_task("13.4", cut, rng=np.random.default_rng(seed)).ok


@pytest.mark.parametrize("seed", range(10))
def test_an_induction_range_stopped_at_20_is_caught_on_every_draw(seed):
    def capped(A, start, length):
        queries = np.arange(start + length, min(start + 2 * length - 1, 20))
        return A[:, queries, queries - length + 1].mean(axis=-1)

    assert not diagnose_task("15.3", capped, rng=np.random.default_rng(seed)).ok


def test_rounded_to_whole_numbers_is_told_rounded(lang):
    import attn_homework as homework

    d = homework.TASKS["1.5"].inputs()
    said = diagnose_task("1.5", np.round(d["X_new"] @ d["W_v_new"]))
    assert said.code == "almost_right" and "np.round" in said.message
    assert words(lang, "整数", "whole number") in said.message


@pytest.mark.parametrize("shift", [1e-3, -0.5, 2.0])
def test_one_number_added_everywhere_is_told_so_without_the_number(lang, shift):
    import attn_homework as homework

    d = homework.TASKS["3.2"].inputs()
    said = diagnose_task("3.2", d["Q_new"] @ d["K_new"].T / 4 + shift)
    assert said.code == "an_offset" and words(lang, "相差一样多", "the same difference") in said.message
    assert f"{abs(shift):g}" not in said.message  # the amount would hand over the answer


@pytest.mark.parametrize(
    "function, said",
    [
        (lambda S: np.exp(S - S.max(axis=1, keepdims=True)), ("最大的数正好是 1", "largest entry is exactly 1")),
        (lambda S: np.exp(S), ("还没有除以每一行的和", "never divided by each row's sum")),
    ],
    ids=["exp_minus_max", "exp"],
)
def test_a_softmax_fix_that_never_divides_is_named(lang, function, said):
    d = diagnose_task("4.6", function)
    assert d.code == "not_normalized" and words(lang, *said) in d.message


@pytest.mark.parametrize("answer", ["V", "A.sum(axis=1, keepdims=True) * V"])
def test_an_output_that_is_v_itself_is_named(lang, shell, answer):
    said = run_cells(shell, "5.1", [f"O = {answer}", 'check("5.1")'])
    assert said.startswith("❌") and words(lang, "就是 V 本身", "is V itself") in said


# ---------------------------------------------------------------- trial 10: an argument's shape or dtype changed


def _reshapes_in_place(M, n_heads):
    M.shape = (M.shape[0], n_heads, -1)
    return M.transpose(1, 0, 2)


def _views_as_uint8(allowed):
    allowed.dtype = np.uint8
    return np.where(allowed, 0.0, -np.inf)


@pytest.mark.parametrize("task_id, function", [("8.6", _reshapes_in_place), ("13.4", _views_as_uint8)])
def test_a_shape_or_dtype_changed_in_place_is_told_so_in_the_notebook(lang, task_id, function):
    d = diagnose_task(task_id, function)
    assert d.code == "changes_input" and ".reshape(" in d.message and "x -= " not in d.message


@pytest.mark.parametrize("task_id, function", [("8.6", _reshapes_in_place), ("13.4", _views_as_uint8)])
def test_the_grader_reads_the_same_from_the_kernel(lang, task_id, function):
    """The kernel-side code the grader runs (answers.DUMP), run here in a namespace of its own."""
    import json

    import attn_homework as homework
    from attn_homework.grading import answers

    t = homework.TASKS[task_id]
    arguments = [tuple(a) for a in t.probe_arguments(np.random.default_rng(0))]
    probes = {t.var: [[answers.encode_argument(a) for a in args] for args in arguments]}
    namespace = {t.var: function}
    exec(answers.dump_code([t.var], probes), namespace)
    entry = json.loads(namespace[answers.RESULT_NAME])[t.var]
    calls = answers.decode_calls(entry, arguments)
    d = diagnose_task(task_id, calls)
    assert d.code == "changes_input" and ".reshape(" in d.message


def _induction(A, start, length):
    q = np.arange(start + length, start + 2 * length - 1)
    return A[:, q, q - length + 1].mean(-1)


@pytest.mark.parametrize(
    "function, code, said",
    [
        (lambda A, s, n: np.round(_induction(A, s, n), 2), "almost_right", ("2 位小数", "2 decimals")),
        (lambda A, s, n: _induction(A, s, n) * 2, "a_multiple", ("2 倍", "2 times")),
        (lambda A, s, n: _induction(A, s, n) + 0.01, "an_offset", ("同一个数", "the same amount")),
    ],
    ids=["rounded", "times_2", "plus_0.01"],
)
def test_one_step_too_many_in_a_function_is_named_on_every_call(lang, function, code, said):
    # fixed probes: on about 2 % of random ones every induction score rounds to 0.00, which shows no rounding
    d = diagnose_task("15.3", function, rng=np.random.default_rng(0))
    assert d.code == code and words(lang, *said) in d.message and "0.01" not in d.message
