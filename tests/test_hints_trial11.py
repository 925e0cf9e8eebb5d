"""The eleventh student trial (1,123 answers over ex01–ex15): a reference used only to compare with one's
own answer (printed, np.allclose) is no delegation, nor an import the function never calls; a finite mask
fill is named wherever it shows (7.2's weights within the tolerance, 7.3's output, 7.5's function) and not
passed; an ε in softmax's denominator and a row maximum without keepdims are named, not called rounding.
Both languages."""

import numpy as np
import pytest

from attn_homework import diagnose_task

from . import hints_common

lang = hints_common.lang
_fresh_state = hints_common.fresh_state
words = hints_common.words
shell = hints_common.shell
run_cells = hints_common.run_cells

# the codes these tests give (tests/test_hints.py checks that every code the checker gives has a test)
CODES_OF_THE_ELEVENTH_TRIAL = {"finite_fill", "keepdims", "almost_right", "delegates", "function_raised", "a_multiple"}

OWN_ROPE = """w = 1 / 10000 ** (np.arange(0, 6, 2) / 6); th = p * w; x, y = q_new[0::2], q_new[1::2]
q_rot = np.empty(6); q_rot[0::2] = x * np.cos(th) - y * np.sin(th); q_rot[1::2] = x * np.sin(th) + y * np.cos(th)
from attn_core import rope
"""


@pytest.mark.parametrize(
    "comparison",
    [
        "print(np.allclose(q_rot, rope(q_new[None], np.array([p]))[0]))",
        "ref = rope(q_new[None], np.array([p]))[0]\nprint(ref, q_rot)",
        "ref = rope(q_new[None], np.array([p]))[0]\nassert np.abs(q_rot - ref).max() < 1e-9",
    ],
)
def test_ones_own_answer_compared_with_the_reference_is_accepted(lang, shell, comparison):
    said = run_cells(shell, "12.3", [OWN_ROPE + comparison, 'check("12.3")'])
    assert said.startswith("✅"), said


@pytest.mark.parametrize(
    "answer",
    [
        "from attn_core import rope\nq_rot = rope(q_new[None], np.array([p]))[0]\nprint(np.allclose(q_rot, q_rot))",
        "from attn_core import rope\nref = rope(q_new[None], np.array([p]))[0]\nq_rot = ref.copy()",
        "from attn_core import rope\nprint(q_rot := rope(q_new[None], np.array([p]))[0])",
    ],
)
def test_an_answer_made_by_the_reference_is_still_told(lang, shell, answer):
    said = run_cells(shell, "12.3", [answer, 'check("12.3")'])
    assert said.startswith("❌") and "attn_core.rope" in said, said


def test_a_backward_pass_checked_against_the_reference_is_accepted(lang, shell):
    answer = (
        "dS = A * (dA_given - (dA_given * A).sum(axis=1, keepdims=True))\n"
        "from attn_core.gradients import softmax_backward\n"
        "print(np.allclose(dS, softmax_backward(A, dA_given)))"
    )
    assert run_cells(shell, "10.4", [answer, 'check("10.4")']).startswith("✅")


def test_an_import_the_function_never_calls_is_no_delegation(lang):
    def fixed_additive_mask(allowed):
        from attn_core import rope  # noqa: F401  (left over from trying things)

        return np.where(allowed, 0.0, -np.inf)

    def calls_it(allowed):
        from attn_core import causal_mask

        causal_mask(3)
        return np.where(allowed, 0.0, -np.inf)

    assert diagnose_task("13.4", fixed_additive_mask).ok
    d = diagnose_task("13.4", calls_it)
    assert d.code == "delegates" and "attn_core.causal_mask" in d.message


def test_a_missing_module_imported_in_the_function_is_its_error_not_a_delegation(lang):
    def fixed_additive_mask(allowed):
        from attn_core import masks  # noqa: F401  (no such thing)

        return np.where(allowed, 0.0, -np.inf)

    d = diagnose_task("13.4", fixed_additive_mask)
    assert d.code == "function_raised" and "ImportError" in d.message


def _softmax_with_fill(S, keep, fill):
    S = np.where(keep, S, fill)
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def _causal(n):
    return np.tril(np.ones((n, n), dtype=bool))


@pytest.mark.parametrize("fill", [-10.0, -15.0, -20.0])
def test_a_finite_mask_fill_is_named_in_the_weights_even_within_the_tolerance(lang, fill):
    from attn_homework import exercises

    Q, K = exercises.data("7.2")
    S = Q @ K.T / np.sqrt(Q.shape[1])
    d = diagnose_task("7.2", _softmax_with_fill(S, _causal(len(Q)), fill))
    assert not d.ok and words(lang, "有限的数", "finite number") in d.message, d.message
    assert diagnose_task("7.2", _softmax_with_fill(S, _causal(len(Q)), -1e9)).ok


@pytest.mark.parametrize("fill", [-10.0, -20.0])
def test_a_finite_mask_fill_is_named_in_the_output(lang, fill):
    from attn_homework import exercises

    Q, K, V = exercises.data("7.3")
    S = Q @ K.T / np.sqrt(Q.shape[1])
    d = diagnose_task("7.3", _softmax_with_fill(S, _causal(len(Q)), fill) @ V)
    assert not d.ok and words(lang, "有限的数", "finite number") in d.message, d.message
    assert words(lang, "取整", "rounded") not in d.message


@pytest.mark.parametrize("fill", [-10.0, -20.0])
def test_a_finite_mask_fill_in_the_causal_function_is_named_not_passed(lang, fill):
    def fixed_causal_attention(Q, K, V):
        S = Q @ K.T / np.sqrt(Q.shape[1])
        return _softmax_with_fill(S, _causal(len(Q)), fill) @ V

    d = diagnose_task("7.5", fixed_causal_attention)
    assert not d.ok and words(lang, "有限的数", "finite number") in d.message, d.message


def test_a_huge_negative_fill_is_a_right_causal_function(lang):
    def fixed_causal_attention(Q, K, V):
        S = Q @ K.T / np.sqrt(Q.shape[1])
        return _softmax_with_fill(S, _causal(len(Q)), -1e9) @ V

    assert diagnose_task("7.5", fixed_causal_attention).ok


def _eps_softmax(S):
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / (E.sum(axis=-1, keepdims=True) + 1e-3)


@pytest.mark.parametrize("task_id", ["4.1", "4.2"])
def test_an_epsilon_in_the_denominator_is_named_not_rounding(lang, task_id):
    from attn_homework import exercises

    S = exercises.data(task_id)[0]
    d = diagnose_task(task_id, _eps_softmax(S))
    assert not d.ok and "ε" in d.message and words(lang, "不是取整", "not because of rounding") in d.message


def test_an_epsilon_in_the_pipelines_denominator_is_named(lang):
    def fixed_attention(Q, K, V):
        return _eps_softmax(Q @ K.T / np.sqrt(Q.shape[1])) @ V

    d = diagnose_task("6.5", fixed_attention)
    assert not d.ok and "ε" in d.message, d.message


def test_a_row_maximum_without_keepdims_is_named_as_the_maximum(lang):
    from attn_homework import exercises

    S = exercises.data("4.1")[0]
    E = np.exp(S - S.max(axis=1))
    d = diagnose_task("4.1", E / E.sum(axis=1, keepdims=True))
    assert d.code == "keepdims" and ".max(axis=-1, keepdims=True)" in d.message
    assert ".sum(axis=-1, keepdims=True)" not in d.message


def test_a_row_sum_without_keepdims_that_raises_says_keepdims(lang):
    def fixed_softmax(S):
        E = np.exp(S - S.max(axis=1))
        return E / E.sum(axis=1)

    d = diagnose_task("4.6", fixed_softmax)
    assert d.code == "function_raised" and "keepdims=True" in d.message, d.message


def test_a_mask_of_a_written_in_size_is_named(lang):
    def fixed_causal_attention(Q, K, V):
        S = np.where(np.tril(np.ones((4, 4), dtype=bool)), Q @ K.T / np.sqrt(Q.shape[1]), -np.inf)
        E = np.exp(S - S.max(axis=1, keepdims=True))
        return E / E.sum(axis=1, keepdims=True) @ V

    d = diagnose_task("7.5", fixed_causal_attention)
    assert d.code == "function_raised" and "np.ones((4, 4))" in d.message, d.message


def test_a_factor_that_follows_the_shapes_is_said_in_the_functions_words(lang):
    def fixed_split_heads(M, n_heads):
        n, d_model = M.shape
        return M.reshape(n, n_heads, d_model // n_heads).swapaxes(0, 1) / np.sqrt(d_model // n_heads)

    d = diagnose_task("8.6", fixed_split_heads)
    assert d.code == "a_multiple" and "Q_heads" not in d.message, d.message
    assert words(lang, "随调用的形状变化", "changes with the call's shapes") in d.message


def test_an_induction_key_after_the_query_is_told_the_causal_reason(lang, shell):
    said = run_cells(shell, "15.2", ["induction_key = 19", 'check("15.2")'])
    assert "❌" in said and words(lang, "因果掩码", "causal") in said, said
    assert words(lang, "编号从 0 数起", "counts from 0") not in said


@pytest.mark.parametrize(
    "answer",
    [
        "from attn_core import rope\nq_rot = np.zeros(6)\nprint(np.copyto(q_rot, rope(q_new[None], np.array([p]))[0]))",
        "from attn_core import rope\nprint(globals().update(q_rot=rope(q_new[None], np.array([p]))[0]))",
    ],
)
def test_a_print_that_hands_the_reference_on_is_no_comparison(lang, shell, answer):
    said = run_cells(shell, "12.3", [answer, 'check("12.3")'])
    assert said.startswith("❌") and "attn_core.rope" in said, said
