"""The twelfth student trial (581 answers over ex01–ex08): a find-the-bug function whose parameters are in
another order than the call's is told both possibilities, not that its product is written K·Qᵀ; one that
reads the notebook's demo array instead of its parameter is told so; row sums transposed after keepdims,
a float16 denominator, a +∞ mask fill and a size taken from the wrong axis are named as what they may be;
an index outside the range is no prediction (not recorded, no reveal, not read by the grader). Both
languages."""

import json

import numpy as np
import pytest

from attn_homework import diagnose_task, verdicts

from . import hints_common

lang = hints_common.lang
_fresh_state = hints_common.fresh_state
words = hints_common.words
shell = hints_common.shell
run_cells = hints_common.run_cells
softmax = hints_common.softmax

# the codes these tests give (tests/test_hints.py checks that every code the checker gives has a test)
CODES_OF_THE_TWELFTH_TRIAL = {"transposed", "uses_global", "keepdims", "almost_right", "not_finite", "function_raised"}
CODES_OF_THE_TWELFTH_TRIAL |= {
    "not_projected",
    "floor_division",
    "not_weighted",
    "not_normalized",
    "scaled_wrong_width",
}
CODES_OF_THE_TWELFTH_TRIAL |= {"used_keys_not_values", "changed_another_row"}


def _grader_reads(task_id, function, namespace=None):
    """The Diagnosis the grader gives ``function``: the kernel-side code (answers.DUMP) run in a namespace of
    its own (``namespace``: the notebook's other globals), its JSON decoded as the grader decodes it."""
    import attn_homework as homework
    from attn_homework.grading import answers

    t = homework.TASKS[task_id]
    arguments = [tuple(a) for a in t.probe_arguments(np.random.default_rng(0))]
    probes = {t.var: [[answers.encode_argument(a) for a in args] for args in arguments]}
    g = dict(namespace or {}, **{t.var: function})
    exec(answers.dump_code([t.var], probes), g)
    return diagnose_task(task_id, answers.decode_calls(json.loads(g[answers.RESULT_NAME])[t.var], arguments))


# ---------------------------------------------------------------- 1. parameters in another order than the call's

SWAPPED_PARAMETERS = "def fixed_scores(K, Q):\n    return Q @ K.T"
K_TIMES_Q = "def fixed_scores(Q, K):\n    return K @ Q.T"


@pytest.mark.parametrize("answer", [SWAPPED_PARAMETERS, K_TIMES_Q])
def test_scores_transposed_by_a_function_name_the_parameters_order_and_the_product(lang, shell, answer):
    said = run_cells(shell, "2.3", [answer, 'check("2.3")'])
    assert said.startswith("❌") and "def" in said and "KQᵀ" in said, said
    assert words(lang, "不是 K 乘以 Q 的转置", "not K times Q transposed") not in said


# ---------------------------------------------------------------- 2. the demo array where a parameter belongs


@pytest.mark.parametrize(
    "task_id, answer, name",
    [
        ("2.3", "def fixed_scores(Q, K):\n    return Q @ K_demo.T", "K_demo"),
        (
            "6.5",
            "def fixed_attention(Q, K, V):\n    S = Q @ K.T / np.sqrt(Q.shape[1])\n"
            "    E = np.exp(S - S.max(axis=1, keepdims=True))\n    return E / E.sum(axis=1, keepdims=True) @ V_demo",
            "V_demo",
        ),
    ],
)
def test_a_function_reading_the_demo_array_is_told_so(lang, shell, task_id, answer, name):
    shell.user_ns.update(K_demo=np.ones((3, 3)), V_demo=np.ones((4, 2)))
    said = run_cells(shell, task_id, [answer, f'check("{task_id}")'])
    assert said.startswith("❌") and name in said and words(lang, "全局数组", "global array") in said, said
    assert ".T" not in said.split(name)[-1]  # no missing or extra transpose guessed


def test_the_grader_reads_the_demo_array_too(lang):
    notebook = {"np": np, "K_demo": np.ones((3, 3))}
    exec("def fixed_scores(Q, K):\n    return Q @ K_demo.T", notebook)
    d = _grader_reads("2.3", notebook["fixed_scores"], notebook)
    assert d.code == "uses_global" and "K_demo" in d.message, d.message


def test_a_right_function_beside_a_global_array_and_a_global_number_is_right(lang, shell):
    shell.user_ns.update(K_demo=np.ones((3, 3)), eps=np.float64(0.0))
    answer = "def fixed_scores(Q, K):\n    print(K_demo.shape) if False else None\n    return Q @ K.T + eps"
    assert run_cells(shell, "2.3", [answer, 'check("2.3")']).startswith("✅")
    assert verdicts.arrays_read(lambda Q: Q.T @ Q) == ""


# ---------------------------------------------------------------- 3. row sums kept, then transposed


def test_row_sums_transposed_after_keepdims_are_not_told_keepdims_is_missing(lang, shell):
    said = run_cells(shell, "4.1", ["A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True).T", 'check("4.1")'])
    assert said.startswith("❌") and ".T" in said, said
    assert words(lang, "少了 keepdims=True：", "keepdims=True is missing:") not in said


# ---------------------------------------------------------------- 4. a denominator of lower precision


@pytest.mark.parametrize("task_id", ["4.1", "4.6"])
def test_a_float16_denominator_is_lower_precision_not_an_epsilon(lang, task_id):
    def fixed_softmax(S):
        E = np.exp(S - S.max(axis=1, keepdims=True))
        return E / E.sum(axis=1, keepdims=True).astype(np.float16)

    from attn_homework import exercises

    d = diagnose_task(task_id, fixed_softmax if task_id == "4.6" else fixed_softmax(exercises.data("4.1")[0]))
    assert not d.ok and "float16" in d.message and "ε" not in d.message, d.message
    assert words(lang, "不是取整", "not because of rounding") not in d.message


def test_an_epsilon_is_still_an_epsilon(lang):
    def fixed_softmax(S):
        E = np.exp(S - S.max(axis=1, keepdims=True))
        return E / (E.sum(axis=1, keepdims=True) + 1e-3)

    d = diagnose_task("4.6", fixed_softmax)
    assert "ε" in d.message and "float16" not in d.message, d.message


# ---------------------------------------------------------------- 5. a +∞ mask fill


def test_a_plus_infinity_fill_is_named_as_plus_infinity(lang):
    from attn_homework import exercises

    Q, K = exercises.data("7.2")
    S = Q @ K.T / np.sqrt(Q.shape[1])
    with np.errstate(all="ignore"):
        d = diagnose_task("7.2", softmax(np.where(np.tril(np.ones((len(Q), len(Q)), dtype=bool)), S, np.inf)))
    assert d.code == "not_finite" and "+∞" in d.message and "−∞" in d.message, d.message


# ---------------------------------------------------------------- 6. a size taken from the wrong axis


def _causal_of_size(size_of):
    def fixed_causal_attention(Q, K, V):
        n = size_of(Q, K, V)
        S = np.where(np.tril(np.ones((n, n), dtype=bool)), Q @ K.T / np.sqrt(Q.shape[1]), -np.inf)
        E = np.exp(S - S.max(axis=1, keepdims=True))
        return E / E.sum(axis=1, keepdims=True) @ V

    return fixed_causal_attention


@pytest.mark.parametrize("seed", range(12))
def test_a_size_from_the_wrong_axis_is_not_told_written_in(lang, seed):
    d = diagnose_task("7.5", _causal_of_size(lambda Q, K, V: V.shape[1]), np.random.default_rng(seed))
    assert d.code == "function_raised", d.message
    assert words(lang, "别的轴", "another array or axis") in d.message, d.message


def test_a_size_from_the_wrong_axis_is_named_by_its_axis(lang):
    said = [
        diagnose_task("7.5", _causal_of_size(lambda Q, K, V: V.shape[1]), np.random.default_rng(s)) for s in range(6)
    ]
    assert any("V.shape[1]" in d.message for d in said), [d.message for d in said]


@pytest.mark.parametrize("seed", range(12))
def test_a_written_in_size_is_still_told_so(lang, seed):
    d = diagnose_task("7.5", _causal_of_size(lambda Q, K, V: 4), np.random.default_rng(seed))
    assert d.code == "function_raised" and "np.ones((4, 4))" in d.message, d.message


# ---------------------------------------------------------------- 7. an index outside the range is no prediction


@pytest.mark.parametrize("first", ["4", "-1"])
def test_an_index_outside_the_range_is_not_recorded_as_the_prediction(lang, shell, first):
    said = run_cells(shell, "4.5", [f"top_key = {first}", 'check("4.5")'])
    assert said.startswith("❌") and "📌" not in said, said
    revealed = run_cells(shell, "4.5", ['print(homework.predicted("4.5"))'])
    assert revealed.endswith("False") and "📌" not in revealed, revealed
    import attn_homework as homework
    from attn_homework.checker import STEP_TABLE

    t = homework.task("4.5")
    right = int(STEP_TABLE[t.step].givens(t.given()).expected)
    fixed = run_cells(shell, "4.5", [f"top_key = {right}", 'check("4.5")'])
    assert "✅" in fixed and words(lang, "改成了", "changed it") not in fixed, fixed


def test_an_index_beyond_the_query_is_no_prediction_either(lang, shell):
    said = run_cells(shell, "15.2", ["induction_key = 19", 'check("15.2")'])
    assert said.startswith("❌") and "📌" not in said, said


def test_the_grader_reads_no_prediction_outside_the_range(lang):
    lines = ["📌 top_key = 4 · recorded", "📌 top_key = 1 · recorded", "📌 induction_key = 99 · recorded"]
    assert verdicts.revealed_predictions(lines) == {"top_key": 1.0}


# ---------------------------------------------------------------- the unhelpful ones: named now

SM = (
    "def sm(S, ax=-1):\n    E = np.exp(S - S.max(axis=ax, keepdims=True))\n"
    "    return E / E.sum(axis=ax, keepdims=True)\n"
)
SPLIT = "sp = lambda M: M.reshape(5, 3, 2).transpose(1, 0, 2)\nQh, Kh, Vh = sp(X @ W_q), sp(X @ W_k), sp(X @ W_v)\n"


@pytest.mark.parametrize(
    "task_id, answer, said_zh, said_en",
    [
        ("6.3", "A_x = sm((X_new @ W_q_new) @ (X_new @ W_k_new).T / np.sqrt(2))", "d_v", "d_v"),
        ("6.3", "A_x = sm((X_new @ W_q_new) @ (X_new @ W_k_new).T / np.sqrt(5))", "d_model", "d_model"),
        ("6.4", "O_x = sm((X_new @ W_q_new) @ (X_new @ W_k_new).T / np.sqrt(2)) @ (X_new @ W_v_new)", "d_v", "d_v"),
        (
            "6.4",
            "O_x = sm((X_new @ W_q_new) @ (X_new @ W_k_new).T / np.sqrt(5)) @ (X_new @ W_v_new)",
            "d_model",
            "d_model",
        ),
        ("1.3", "V = X", "X 本身", "X itself"),
        ("6.4", "O_x = X_new @ W_v_new", "V 本身", "V itself"),
        (
            "4.3",
            "E = np.exp(S_big - S_big.max(axis=1, keepdims=True))\nA_big = E / E.sum()",
            "整个矩阵",
            "whole matrix",
        ),
        ("4.1", "E = np.exp(S - S.max(axis=1, keepdims=True))\nA = E / E.sum()", "整个矩阵", "whole matrix"),
        ("3.1", "S = (Q @ K.T) // np.sqrt(3)", "//", "//"),
        ("3.2", "S_new = Q_new @ K_new.T // 4", "//", "//"),
        (
            "8.5",
            SPLIT + "Y = (sm(Qh @ Kh.transpose(0, 2, 1) / np.sqrt(3)) @ Vh).transpose(1, 0, 2).reshape(5, 6) @ W_o",
            "√n_heads",
            "√n_heads",
        ),
        ("6.1", "O = sm(Q @ V.T / np.sqrt(3)) @ K", "K 和 V 用反了", "K and V are swapped"),
    ],
)
def test_the_unhelpful_answers_of_the_trial_are_named(lang, shell, task_id, answer, said_zh, said_en):
    said = run_cells(shell, task_id, [SM + answer, f'check("{task_id}")'])
    assert said.startswith("❌") and words(lang, said_zh, said_en) in said, said
    assert words(lang, "照搬", "kept from elsewhere") not in said


@pytest.mark.parametrize(
    "task_id, answer",
    [
        ("6.3", "A_x = sm((X_new @ W_q_new) @ (X_new @ W_k_new).T / np.sqrt(3))"),
        ("6.4", "O_x = sm((X_new @ W_q_new) @ (X_new @ W_k_new).T / np.sqrt(3)) @ (X_new @ W_v_new)"),
        ("1.3", "V = X @ W_v"),
        ("3.1", "S = (Q @ K.T) / np.sqrt(3)"),
        (
            "8.5",
            SPLIT + "Y = (sm(Qh @ Kh.transpose(0, 2, 1) / np.sqrt(2)) @ Vh).transpose(1, 0, 2).reshape(5, 6) @ W_o",
        ),
        ("6.1", "O = sm(Q @ K.T / np.sqrt(3)) @ V"),
    ],
)
def test_their_right_answers_stay_right(lang, shell, task_id, answer):
    assert run_cells(shell, task_id, [SM + answer, f'check("{task_id}")']).startswith("✅")


def _split_of(sizes):
    def fixed_split_heads(M, n_heads):
        n, d_model = M.shape
        return M.reshape(*sizes(n, d_model, n_heads)).transpose(1, 0, 2)

    return fixed_split_heads


@pytest.mark.parametrize(
    "sizes",
    [lambda n, d_model, n_heads: (n, 2, d_model // 2), lambda n, d_model, n_heads: (n, n_heads, 3)],
    ids=["two heads", "head width 3"],
)
def test_a_reshape_of_written_in_sizes_is_told_where_sizes_come_from(lang, sizes):
    said = [diagnose_task("8.6", _split_of(sizes), np.random.default_rng(seed)) for seed in range(8)]
    raised = [d.message for d in said if d.code == "function_raised" and "reshape" in d.message]
    assert raised, [d.message for d in said]
    for message in raised:
        assert words(lang, "固定写成了某个数", "written in as a number") in message, message
        assert "n_heads" in message.split("ValueError")[-1]


DOUBLING = "K2 = K.copy()\nK2[{row}] *= {factor}\nA_double = sm(Q @ K2.T / np.sqrt(3))"


@pytest.mark.parametrize(
    "answer, said_zh, said_en",
    [
        (DOUBLING.format(row=2, factor=2), "编号为 2 的键", "key 2"),
        (DOUBLING.format(row=3, factor=3), "乘以的是 3", "by 3"),
        ("Q2 = Q.copy()\nQ2[3] *= 2\nA_double = sm(Q2 @ K.T / np.sqrt(3))", "查询", "query"),
    ],
)
def test_a_key_doubled_otherwise_is_named(lang, shell, answer, said_zh, said_en):
    said = run_cells(shell, "4.4", [SM + answer, 'check("4.4")'])
    assert said.startswith("❌") and words(lang, said_zh, said_en) in said, said


def test_the_key_doubled_as_asked_is_right(lang, shell):
    said = run_cells(shell, "4.4", [SM + DOUBLING.format(row=3, factor=2), 'check("4.4")'])
    assert said.startswith("✅"), said
