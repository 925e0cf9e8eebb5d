"""Hints that are never confidently wrong (issue 18).

Every diagnosis code is given only when its evidence is in the answer; otherwise the checker falls back
to an honest line that guesses no cause. Here:

- ``EVIDENCE``: for each code, one answer that must get it and a near miss that must not;
- ``TRIAL``: wrong answers a student typed into the real tasks, as (task, answer, acceptable codes, text that
  must not appear in the Chinese message, in the English one): the kinds of answer that once got a
  confidently wrong hint;
- ``check()`` in a notebook: a stale value, a misspelt name, a failed answer cell;
- every code the checker can give has a test that shows its evidence.

"No correct answer is rejected" and "no expected number is printed", over random answers for every step,
are in ``test_check_properties.py``.
"""

import contextlib
import io

import numpy as np
import pytest

import attn_homework as homework
from attn_core.lang import set_lang
from attn_homework import checker, diagnose_task
from attn_homework.checker import diagnose
from attn_homework.checker.functions import FUNCTION_STEPS
from attn_homework.checker.steps import STEP_TABLE

from .test_check import FT, FW_S, MISTAKES, A, K, Q, S, V, leaked_numbers, softmax


def naive(S):
    """softmax without subtracting the maximum: overflows on large scores."""
    with np.errstate(all="ignore"):
        E = np.exp(S)
        return E / E.sum(axis=-1, keepdims=True)


def repaired_first(S):
    """exp overflowed to ∞, "repaired" with np.nan_to_num before dividing (the sums overflow again)."""
    with np.errstate(all="ignore"):
        E = np.nan_to_num(np.exp(S))
        return np.nan_to_num(E / E.sum(axis=-1, keepdims=True))


CAUSAL = np.tril(np.ones((4, 4), dtype=bool))
NO_DIAGONAL = np.tril(CAUSAL, -1)
BIG = 1000.0 + S  # exp overflows on every entry
S_SQUARE = FW_S  # 4 × 4 scores: a missing keepdims broadcasts instead of raising
UNIFORM = np.full(BIG.shape, 1 / BIG.shape[1])  # weights that sum to 1 and are finite: no overflow shows
CENTRED = 2 * A - 1 / A.shape[1]  # rows still sum to 1, the small weights become negative
CLIPPED = np.clip(CENTRED, 0, None) / np.clip(CENTRED, 0, None).sum(axis=1, keepdims=True)


def masked(S, keep, fill=-np.inf):
    """softmax of S masked by ``keep``: a row with nothing to see is NaN with −∞ (as the learner gets it)."""
    with np.errstate(invalid="ignore"):
        return softmax(np.where(keep, S, fill))


# ---------------------------------------------------------------- each code: its evidence, and a near miss without it
# (code, step, givens, an answer that must get the code, a near miss that must not)

EVIDENCE = [
    ("is_none", "weights", dict(Q=Q, K=K), None, ...),
    ("int_dtype", "weighted_sum", dict(A=A, V=V), (A @ V).astype(int), np.trunc(A @ V)),
    ("almost_right", "softmax", dict(S=S), np.round(A, 4), np.round(A, 4) + 0.01),
    ("almost_right", "softmax", dict(S=S), A.astype(np.float16), A.astype(np.float16) * 1.01),
    ("almost_right", "output", dict(Q=Q, K=K, V=V), (A @ V) * (1 + 4e-4), (A @ V) * 1.01),
    ("keepdims", "softmax", dict(S=S_SQUARE), np.exp(S_SQUARE) / np.exp(S_SQUARE).sum(axis=1), None),
    (
        "keepdims",
        "weights",
        dict(Q=FT.Q, K=FT.K),
        (lambda E: E / E.sum(axis=1))(np.exp(FW_S - FW_S.max(axis=1, keepdims=True))),
        None,
    ),
    ("overflow", "softmax", dict(S=BIG), np.nan_to_num(naive(BIG)), UNIFORM),
    ("overflow", "softmax", dict(S=BIG), naive(BIG), UNIFORM),
    ("empty_row", "weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), None, None),
    ("not_finite", "weights", dict(Q=Q, K=K), None, None),
    ("mask_no_diagonal", "weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), masked(FW_S, NO_DIAGONAL), None),
    ("mask_no_diagonal", "weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), masked(FW_S, NO_DIAGONAL, -1e9), None),
    ("mask_inverted", "weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), masked(FW_S, ~CAUSAL), None),
    ("mask_upper", "weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), masked(FW_S, CAUSAL.T), None),
    ("mask_upper", "output", dict(Q=FT.Q, K=FT.K, V=FT.V, mask=CAUSAL), masked(FW_S, CAUSAL.T) @ FT.V, None),
    ("scaled_wrong_width", "scaled_scores", dict(Q=Q, K=K), Q @ K.T / np.sqrt(3), Q @ K.T / np.sqrt(3) + 0.05),
    ("scaled_wrong_width", "weights", dict(Q=Q, K=K, d_model=9), softmax(Q @ K.T / 3), None),
    ("negative_weight", "softmax", dict(S=S), CENTRED, CLIPPED),
    ("not_normalized", "softmax", dict(S=S), np.exp(S), A[:, ::-1]),
    ("no_softmax", "weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), np.where(CAUSAL, FW_S, -np.inf), None),
    ("wrong_shape", "scores", dict(Q=Q, K=K), np.ones((4, 4)), np.ones((3, 5))),
]


def _near_miss(code, step, given, answer, near):
    """The near miss of a row: the one given, else the answer with one entry moved (no known mistake makes
    that), else a NaN in a single entry for the NaN codes."""
    if near is not None:
        return near
    if code in ("empty_row", "not_finite"):
        return None
    moved = np.array(answer, dtype=float)
    moved[tuple(np.argwhere(np.isfinite(moved))[0])] += 0.37  # a finite entry: a NaN row stays as it was
    return moved


def _nan_rows(step, given):
    """Answers for the NaN codes: a whole row NaN (empty_row) and a single NaN (not_finite)."""
    right = np.array(diagnose_expected(step, given))
    whole_row, single = right.copy(), right.copy()
    whole_row[1] = np.nan
    single[1, 2] = np.nan
    return whole_row, single


def diagnose_expected(step, given):
    return STEP_TABLE[step].givens(given).expected


@pytest.mark.parametrize("code, step, given, answer, near", EVIDENCE, ids=[f"{row[0]}-{row[1]}" for row in EVIDENCE])
def test_each_code_is_given_with_its_evidence_and_only_then(code, step, given, answer, near):
    if code in ("empty_row", "not_finite"):
        whole_row, single = _nan_rows(step, given)
        answer, near = (whole_row, single) if code == "empty_row" else (single, None)
        if code == "not_finite":  # a single NaN, no mask and small scores: no cause is guessed
            d = diagnose(step, answer, **given)
            assert d.code == "not_finite" and "最大值" not in d.message and "溢出" not in d.message, d.message
            return
    d = diagnose(step, answer, **given)
    assert d.code == code, d.message
    assert not leaked_numbers(d.message, diagnose_expected(step, given))
    miss = _near_miss(code, step, given, answer, near)
    if miss is not None:
        assert diagnose(step, miss, **given).code != code


def _partly_overflowing():
    """4.3's scores with row 0 brought down to small numbers and row 1 holding a single huge score: only
    some entries overflow exp (row 2 still does throughout)."""
    S = np.array(homework.data("4.3").S_big, dtype=float) - np.array([[1000.0], [1000.0], [0.0]])
    S[1, 3] += 1000.0
    return S


@pytest.mark.parametrize(
    "repair", [repaired_first, naive, lambda S: np.nan_to_num(naive(S))], ids=["repaired", "naive", "nan_to_num"]
)
def test_an_overflow_in_some_entries_only_is_named(repair):
    S = _partly_overflowing()
    answer = repair(S)
    assert np.isfinite(answer[0]).all() and np.allclose(answer[0], softmax(S)[0])  # row 0 is right
    d = diagnose("softmax", answer, S=S)
    assert d.code == "overflow", d.message
    assert diagnose("softmax", softmax(S), S=S).ok
    near = np.array(softmax(S))
    near[2] = 0.25  # the overflowing row made uniform by hand: finite, sums to 1, not what exp made
    assert diagnose("softmax", near, S=S).code != "overflow"


def test_rounding_names_the_decimals_and_float16_the_dtype():
    assert "4 位小数" in diagnose("softmax", np.round(A, 4), S=S).message
    assert "float16" in diagnose("softmax", A.astype(np.float16), S=S).message


def test_a_wrong_width_is_named():
    d = diagnose("weights", softmax(Q @ K.T / np.sqrt(3)), Q=Q, K=K)  # n_q = 3, d_k = 4
    assert "n_q" in d.message and "√3" in d.message
    d = diagnose("output", softmax(Q @ K.T / np.sqrt(2)) @ V, Q=Q, K=K, V=V)  # d_v = 2
    assert d.code == "scaled_wrong_width" and "d_v" in d.message


def test_an_empty_row_is_named_by_its_row():
    whole_row, _ = _nan_rows("weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL))
    d = diagnose("weights", whole_row, Q=FT.Q, K=FT.K, mask=CAUSAL, tokens=("我", "喜欢", "学习", "语言"))
    assert d.code == "empty_row" and "第 1 行" in d.message and "喜欢" in d.message


def test_shape_hints_name_a_cause_only_when_the_numbers_show_it():
    qt_k = FT.Q.T @ FT.K  # 3 × 3: features × features, made so
    d = diagnose("scores", qt_k, Q=FT.Q, K=FT.K)
    assert d.code == "wrong_shape" and "特征" in d.message
    d = diagnose("scores", qt_k + 0.5, Q=FT.Q, K=FT.K)  # the same shape, other numbers: no cause named
    assert d.code == "wrong_shape" and "特征" not in d.message and "转置乘以 K" not in d.message


# ---------------------------------------------------------------- the trial: what students typed into the real tasks
# (task, answer, codes any of which is right, text that must not appear in the zh message, in the en message)


def _data(task_id):
    return homework.data(task_id)


def _trial():
    S41 = _data("4.1").S
    S42 = _data("4.2").S_new
    S43 = _data("4.3").S_big
    Q72, K72 = _data("7.2")
    S72 = Q72 @ K72.T / np.sqrt(3)
    Q73, K73, V73 = _data("7.3")
    S73 = Q73 @ K73.T / 2
    Q32, K32 = _data("3.2")
    Q62, K62, V62 = _data("6.2")
    A51, K51, V51 = _data("5.1")
    Q21, K21 = _data("2.1")
    causal4, causal6 = np.tril(np.ones((4, 4), dtype=bool)), np.tril(np.ones((6, 6), dtype=bool))
    wrong_sum = (["除以它所在这一行", "整列"], ["sum of its own row", "whole matrix"])
    minus_inf = (["把这些分数设为 −∞"], ["set those scores to −∞"])  # the old hint, for learners who had done so
    subtract_max = (
        ["减去每行的最大值", "减去这一行的最大值"],
        ["subtract each row's maximum", "subtract the row's maximum"],
    )
    product_order = (["矩阵乘法的顺序", "特征"], ["order of the matrix product", "features"])
    return [
        # almost right: rounded or cast
        ("4.2", np.round(softmax(S42), 4), {"almost_right"}, *wrong_sum),
        ("4.2", np.round(softmax(S42), 3), {"almost_right"}, *wrong_sum),
        ("4.2", softmax(S42).astype(np.float16), {"almost_right"}, *wrong_sum),
        ("4.1", np.round(softmax(S41), 4), {"almost_right"}, *wrong_sum),
        ("5.2", np.round(_data("5.2").A_new @ _data("5.2").V_new, 4), {"almost_right"}, [], []),
        # a missing keepdims
        ("4.1", np.exp(S41) / np.exp(S41).sum(axis=1), {"keepdims"}, *wrong_sum),
        ("4.1", (lambda E: E / E.sum(axis=1))(np.exp(S41 - S41.max(axis=1, keepdims=True))), {"keepdims"}, *wrong_sum),
        ("4.1", (lambda E: E / E.sum(axis=1, keepdims=True))(np.exp(S41 - S41.max(axis=1))), {"keepdims"}, *wrong_sum),
        # overflow hidden by a repair
        ("4.3", np.nan_to_num(naive(S43)), {"overflow"}, *wrong_sum),
        ("4.3", naive(S43), {"overflow"}, *minus_inf),
        ("4.3", repaired_first(S43), {"overflow"}, *wrong_sum),
        # a fully masked row
        ("7.2", masked(S72, np.tril(causal4, -1)), {"mask_no_diagonal"}, *subtract_max),
        ("7.2", masked(S72, np.tril(causal4, -1), -1e9), {"mask_no_diagonal"}, *minus_inf),
        ("7.2", masked(S72, ~causal4), {"mask_inverted"}, *subtract_max),
        ("7.2", masked(S72, ~causal4, -1e9), {"mask_inverted"}, *minus_inf),
        ("7.3", masked(S73, np.tril(causal6, -1)) @ V73, {"mask_no_diagonal"}, *subtract_max),
        # the wrong triangle
        ("7.2", masked(S72, causal4.T), {"mask_upper"}, *minus_inf),
        ("7.3", masked(S73, causal6.T) @ V73, {"mask_upper"}, *minus_inf),
        ("7.3", masked(S73, causal6.T, -1e9) @ V73, {"mask_upper"}, *minus_inf),
        # a shape that matches something else by accident
        ("2.2", Q21 @ K21.T, {"crossed"}, *product_order),
        ("2.2", np.ones((4, 4)), {"wrong_shape"}, *product_order),
        ("7.1", np.tril(np.ones((5, 5), dtype=bool)), {"wrong_shape"}, *product_order),
        ("5.1", A51, {"wrong_shape"}, [], []),
        # None where an array belongs
        ("4.1", None, {"is_none"}, ["把 ... 换成"], ["replace ..."]),
        ("6.2", None, {"is_none"}, ["把 ... 换成"], ["replace ..."]),
        # the wrong dimension under the square root
        ("3.2", Q32 @ K32.T / np.sqrt(Q32.shape[0]), {"scaled_wrong_width"}, [], []),
        ("3.2", Q32 @ K32.T / np.sqrt(K32.shape[0]), {"scaled_wrong_width"}, [], []),
        ("6.2", softmax(Q62 @ K62.T / np.sqrt(V62.shape[1])) @ V62, {"scaled_wrong_width"}, [], []),
        ("6.2", softmax(Q62 @ K62.T / np.sqrt(K62.shape[0])) @ V62, {"scaled_wrong_width"}, [], []),
        # smaller: the variable's own name, integers, negative weights
        ("6.2", softmax(Q62 @ K62.T) @ V62, {"unscaled"}, ["O 不对"], ["O is off"]),
        ("7.3", masked(S73, causal6.T) @ V73, {"mask_upper"}, ["O 不对"], ["O is off"]),
        ("5.2", np.zeros((3, 2), dtype=int), {"int_dtype"}, [], []),
        ("5.2", (_data("5.2").A_new @ _data("5.2").V_new).astype(int), {"int_dtype"}, [], []),
        ("4.2", softmax(S42) - 0.3, {"negative_weight"}, *wrong_sum),
        ("4.2", S42 - S42.mean(axis=1, keepdims=True), {"negative_weight", "no_softmax"}, *wrong_sum),
    ]


TRIAL = _trial()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(
    "task_id, answer, codes, not_zh, not_en", TRIAL, ids=[f"{row[0]}-{i}" for i, row in enumerate(TRIAL)]
)
def test_trial_answers_get_a_true_hint(lang, task_id, answer, codes, not_zh, not_en):
    set_lang(lang)
    try:
        d = diagnose_task(task_id, answer)
    finally:
        set_lang("zh")
    assert d.code in codes, d.message
    for text in not_zh if lang == "zh" else not_en:
        assert text not in d.message, (text, d.message)
    task = homework.task(task_id)
    assert not leaked_numbers(d.message, STEP_TABLE[task.step].givens(task.given()).expected)
    assert d.message.count("\n") == 0


# ---------------------------------------------------------------- check() in a notebook: stale values, misspelt names


def _in_notebook(source, **variables):
    ns = {"check": homework.check, **variables}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(source, ns)
    return out.getvalue()


def test_an_unchanged_wrong_value_is_said_to_be_unchanged(monkeypatch):
    from attn_homework import verdicts

    monkeypatch.setattr(verdicts, "_LAST_CHECKED", {})
    Q22, K22 = homework.data("2.2")
    wrong = K22 @ Q22.T
    first = _in_notebook('check("2.2")', QKT_new=wrong)
    second = _in_notebook('check("2.2")', QKT_new=wrong.copy())
    assert "上次检查" not in first and "上次检查" in second and "转置" in second
    third = _in_notebook('check("2.2")', QKT_new=wrong * 2)  # edited and run: no note
    assert "上次检查" not in third


def test_a_failed_answer_cell_is_noticed(monkeypatch):
    from attn_homework import verdicts

    monkeypatch.setattr(verdicts, "_previous_cell_failed", lambda: True)
    Q22, K22 = homework.data("2.2")
    text = _in_notebook('check("2.2")', QKT_new=K22 @ Q22.T)
    assert text.startswith("❌ 2.2 · （在这之前运行的那一格出错停下了") and "转置" in text
    assert "出错停下了" in _in_notebook('check("2.2")')  # and the variable was never made


def test_a_misspelt_name_is_pointed_out():
    text = _in_notebook('check("2.2")', QKT_nwe=np.zeros((3, 5)))
    assert text.startswith("⏳ 2.2 · ") and "QKT_nwe" in text and "QKT_new" in text
    text = _in_notebook('check("2.2")', qkt_new=np.zeros((3, 5)))
    assert "qkt_new" in text
    text = _in_notebook('check("2.2")')
    assert "拼写" not in text and "检查变量名" in text  # no close name: the honest generic line


def test_previous_cell_failed_reads_ipython_when_there_is_one(monkeypatch):
    from attn_homework import verdicts

    class Shell:
        last_execution_succeeded = False

    monkeypatch.setattr("IPython.get_ipython", lambda: Shell())
    assert verdicts._previous_cell_failed()
    Shell.last_execution_succeeded = True
    assert not verdicts._previous_cell_failed()


# ---------------------------------------------------------------- every code has a test that shows its evidence


def _codes_the_checker_gives():
    codes = {"is_none", "wrong_type", "int_dtype", "overflow", "empty_row", "not_finite", "almost_right"}
    codes |= {"wrong_shape", "wrong_values", "wrong_prediction", "crossed"}
    for step in STEP_TABLE.values():
        codes |= {m.code for m in step.mistakes} | {r.code for r in step.rules}
    for step in FUNCTION_STEPS.values():
        codes |= {bug.code for bug in step.bugs} | ({step.family.code} if step.family else set())
    return codes | {"function_raised", "hard_coded", "finite_fill", "arguments_swapped"}


def _codes_tested():
    from .test_check_decoding import CODES as DECODING_CODES
    from .test_check_learned import CODES as LEARNED_CODES
    from .test_check_lessons import LESSON_MISTAKES
    from .test_check_positions import CODES as POSITION_CODES
    from .test_find_the_bug import BUGS, FUNCTION_FAILURES
    from .test_hints_column_max import CODES_OF_THE_COLUMN_MAX
    from .test_hints_trial2 import CODES_OF_THE_SECOND_TRIAL
    from .test_hints_trial3 import CODES_OF_THE_THIRD_TRIAL
    from .test_hints_trial4 import CODES_OF_THE_FOURTH_TRIAL
    from .test_hints_trial5 import CODES_OF_THE_FIFTH_TRIAL
    from .test_hints_trial8_functions import CODES_OF_THE_EIGHTH_TRIAL
    from .test_hints_trial8_more import CODES_OF_THE_EIGHTH_TRIAL_MORE
    from .test_hints_trial9 import CODES_OF_THE_NINTH_TRIAL
    from .test_hints_trial11 import CODES_OF_THE_ELEVENTH_TRIAL
    from .test_hints_trial12 import CODES_OF_THE_TWELFTH_TRIAL
    from .test_hints_trial12b import CODES_OF_THE_TWELFTH_TRIAL_B
    from .test_hints_trial13 import CODES_OF_THE_THIRTEENTH_TRIAL

    tested = {row[0] for row in EVIDENCE} | {row[3] for row in MISTAKES}
    tested |= {code for row in TRIAL for code in row[2]}
    tested |= {row[2] for row in LESSON_MISTAKES} | {row[2] for row in BUGS} | {row[1] for row in FUNCTION_FAILURES}
    tested |= {row[4] for row in POSITION_CODES}  # lesson 12, with its evidence and a near miss each
    tested |= {row[2] for row in DECODING_CODES}  # lesson 14, likewise
    tested |= {row[2] for row in LEARNED_CODES}  # lesson 15, likewise
    tested |= CODES_OF_THE_SECOND_TRIAL  # test_hints_trial2, each with the answers that must get it
    tested |= CODES_OF_THE_THIRD_TRIAL  # test_hints_trial3, likewise
    tested |= CODES_OF_THE_FOURTH_TRIAL  # test_hints_trial4, likewise
    tested |= CODES_OF_THE_COLUMN_MAX  # test_hints_column_max, likewise
    tested |= CODES_OF_THE_FIFTH_TRIAL  # test_hints_trial5, likewise
    tested |= CODES_OF_THE_EIGHTH_TRIAL  # test_hints_trial8_functions, likewise
    tested |= CODES_OF_THE_EIGHTH_TRIAL_MORE  # test_hints_trial8_more, likewise
    tested |= CODES_OF_THE_NINTH_TRIAL  # test_hints_trial9, likewise
    tested |= CODES_OF_THE_ELEVENTH_TRIAL  # test_hints_trial11, likewise
    tested |= CODES_OF_THE_TWELFTH_TRIAL  # test_hints_trial12, likewise
    tested |= CODES_OF_THE_TWELFTH_TRIAL_B  # test_hints_trial12b, likewise
    tested |= CODES_OF_THE_THIRTEENTH_TRIAL  # test_hints_trial13, likewise
    return tested | {"wrong_values", "wrong_prediction", "wrong_type"}  # test_check, test_check_lessons


def test_every_code_the_checker_gives_has_a_test():
    assert _codes_the_checker_gives() - _codes_tested() == set()


def test_the_steps_are_all_known_to_the_checker():
    assert set(checker.STEPS) == set(STEP_TABLE) | set(FUNCTION_STEPS)


RULE_CODES = {rule.code for step in STEP_TABLE.values() for rule in step.rules}
NEAR_MISSES = [row for row in MISTAKES if row[3] not in ("wrong_shape", "wrong_type", "overflow")]


@pytest.mark.parametrize("step, given, answer, code, words", NEAR_MISSES, ids=[f"{r[0]}-{r[3]}" for r in NEAR_MISSES])
def test_a_near_miss_of_each_classic_mistake_is_not_called_that(step, given, answer, code, words):
    """One entry changed (a flipped one, for a mask): no longer what the mistake makes, so not named after it.
    (A rule with the same code may still apply, e.g. a row that does not sum to 1: then it says only that.)"""
    near = np.array(answer)
    index = tuple(np.argwhere(np.isfinite(near) if near.dtype != bool else np.ones(near.shape, bool))[-1])
    near[index] = ~near[index] if near.dtype == bool else near[index] + 0.731
    named = diagnose(step, answer, **given)
    assert named.code == code
    missed = diagnose(step, near, **given)
    assert missed.message != named.message
    # the code goes too, unless a rule every right answer keeps gives the same code (it then says only that)
    assert missed.code != code or code in RULE_CODES, missed.message
