"""The third student trial (997 cases): each wrong answer it saw accepted, each confidently wrong hint and
each traceback, as a test, in both languages where the text differs. In the order of harm."""

import contextlib
import io

import numpy as np
import pytest

import attn_core
import attn_homework as homework
from attn_core import rope
from attn_core.lang import set_lang
from attn_homework import diagnose_task, verdicts

from . import hints_common

lang = hints_common.lang


# The codes this file tests, each with the answers that must get it (and, for the 13.2 mask, a right one).
CODES_OF_THE_THIRD_TRIAL = {"key_mask_on_queries", "mask_minus_1e9"}


@pytest.fixture(autouse=True)
def _fresh_reveals():
    verdicts._REVEALED.clear()
    yield
    verdicts._REVEALED.clear()


NOT_A_LIST = {"zh": "不是列表或数组", "en": "not a list or an array"}
NOT_WHOLE = {"zh": "不是整数", "en": "is not a whole number"}


# ---------------------------------------------------------------- 1. wrong answers accepted


@pytest.mark.parametrize(
    "task_id, one_element",
    [
        ("5.3", [5]),
        ("5.3", np.array([5])),
        ("7.4", [1]),
        ("4.5", [1]),
        ("8.2", np.array([2])),
        ("11.4", [1]),
        ("13.3", [50]),
        ("14.2", [49152]),
    ],
)
def test_a_prediction_in_a_list_or_array_of_one_is_no_number(lang, task_id, one_element):
    d = diagnose_task(task_id, one_element)
    assert not d.ok and d.code == "wrong_type"
    three = diagnose_task(task_id, np.array([1, 1, 1]) if isinstance(one_element, np.ndarray) else [1, 1, 1])
    assert d.message == three.message.replace("(3,)", "(1,)")  # the message [1, 1, 1] gets
    if task_id != "4.5":  # 4.5 says "not a word, a list or an array"
        assert NOT_A_LIST[lang] in d.message


@pytest.mark.parametrize(
    "task_id, almost, right",
    [
        ("14.2", 49152.4, 49152),
        ("14.2", 49152.5, 49152),
        ("13.3", 50.0004, 50),
        ("5.3", 4.99999, 5),
        ("4.5", 1.000001, 1),
    ],
)
def test_a_count_or_an_index_is_exact(lang, task_id, almost, right):
    assert diagnose_task(task_id, right).ok and diagnose_task(task_id, float(right)).ok
    assert diagnose_task(task_id, np.int64(right)).ok and diagnose_task(task_id, np.float32(right)).ok
    d = diagnose_task(task_id, almost)
    assert not d.ok and d.code == "not_whole" and NOT_WHOLE[lang] in d.message


# ---------------------------------------------------------------- 2. confidently wrong hints


def softmax(S):
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def given(task_id):
    return homework.TASKS[task_id].given()


CONFIDENT_OVERFLOW = {"zh": "exp 溢出了", "en": "exp overflowed"}


def test_the_overflow_hint_needs_its_evidence(lang):
    S = given("4.3")["S"]
    A = softmax(S)
    for cast in (A.astype(int), np.asarray(A).astype(int)):  # the stable softmax, then cut to integers
        d = diagnose_task("4.3", cast)
        assert d.code == "int_dtype" and CONFIDENT_OVERFLOW[lang] not in d.message
    d = diagnose_task("4.3", A * 0)  # all zeros: an overflow repaired by nan_to_num is one cause, not the cause
    assert not d.ok and CONFIDENT_OVERFLOW[lang] not in d.message
    assert {"zh": "如果你是这样做的", "en": "If that is what you did"}[lang] in d.message
    with np.errstate(all="ignore"):
        E = np.exp(S)
        overflowed = E / E.sum(axis=-1, keepdims=True)
    d = diagnose_task("4.3", overflowed)  # NaN: the evidence is there
    assert d.code == "overflow" and CONFIDENT_OVERFLOW[lang] in d.message


def test_a_transposed_ffn_output_is_told_in_the_ffns_own_terms(lang):
    g = given("11.3")
    F = np.maximum(0, g["H"] @ g["W1"] + g["b1"]) @ g["W2"] + g["b2"]
    assert diagnose_task("11.3", F).ok
    d = diagnose_task("11.3", np.asarray(F).T)
    assert d.code == "transposed"
    assert "X" not in d.message.replace("ReLU", "") and "W_F_out" not in d.message
    assert {"zh": "每行对应一个词", "en": "one row per word"}[lang] in d.message


def test_a_key_mask_on_the_query_rows_is_told_to_broadcast_over_the_keys(lang):
    g = given("13.2")
    key_padding_mask = ~g["mask"][0]
    S = g["Q"] @ g["K"].T / np.sqrt(3)
    assert diagnose_task("13.2", softmax(np.where(~key_padding_mask[None, :], S, -np.inf))).ok
    with np.errstate(all="ignore"):
        d = diagnose_task("13.2", softmax(np.where(~key_padding_mask[:, None], S, -np.inf)))
    assert not d.ok and d.code == "key_mask_on_queries" and "[None, :]" in d.message
    assert {"zh": "对角线", "en": "diagonal"}[lang] not in d.message


def test_an_empty_row_under_a_non_causal_mask_says_nothing_of_a_diagonal(lang):
    g = given("13.2")
    S = np.where(np.array([[True, True, True, False]] * 3 + [[False] * 4]), g["Q"] @ g["K"].T / np.sqrt(3), -np.inf)
    with np.errstate(all="ignore"):
        d = diagnose_task("13.2", softmax(S))
    assert d.code == "empty_row" and {"zh": "对角线", "en": "diagonal"}[lang] not in d.message


def test_d_model_is_named_as_this_tasks_own_size(lang):
    g = given("6.3")
    d = diagnose_task("6.3", softmax(g["Q"] @ g["K"].T / np.sqrt(5)))
    assert d.code == "scaled_wrong_width" and "d_model" in d.message
    assert {"zh": "别处", "en": "elsewhere"}[lang] not in d.message


def test_scores_doubled_are_told_by_their_numbers_not_as_a_division_by_n_q(lang):
    g = given("3.2")
    d = diagnose_task("3.2", g["Q"] @ g["K"].T / 4 * 2)
    assert d.code == "scaled_wrong_width"
    assert {"zh": "你的结果等于 QKᵀ 除以 √4", "en": "your numbers are QKᵀ divided by √4"}[lang] in d.message
    assert {"zh": "你除的是", "en": "you divided by"}[lang] not in d.message


# ---------------------------------------------------------------- 3. never a traceback from check itself


def printed(call):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        call()
    return out.getvalue().strip().splitlines()


@pytest.mark.parametrize(
    "call, example, extra",
    [
        (lambda: homework.check("7.1", mask=np.ones((3, 3), bool)), 'check("7.1")', "mask="),
        (lambda: homework.check(task="2.1"), 'check("2.1")', "task="),
        (lambda: homework.check("2.1", 1, 2), 'check("2.1")', "int"),
        (lambda: homework.progress("ex02", 3), 'progress("ex02")', "int"),
        (lambda: homework.progress(ex="ex02"), 'progress("ex02")', "ex="),
        (lambda: homework.predicted("4.5", top_key=1), 'predicted("4.5")', "top_key="),
    ],
)
def test_a_call_with_arguments_it_does_not_take_says_how_to_call_it(lang, call, example, extra):
    lines = printed(call)
    assert len(lines) == 1 and lines[0].startswith("❌") and example in lines[0] and extra in lines[0]
    assert {"zh": "调用方式", "en": "Call "}[lang] in lines[0]


def test_a_wrong_call_fails_the_cell_under_the_autograder(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(AssertionError):
        printed(lambda: homework.check(task="2.1"))


# ---------------------------------------------------------------- 4. −1e9 for −∞ in 13.4


def test_an_additive_mask_of_minus_1e9_is_told_what_it_fails_to_block(lang):
    def fixed_additive_mask(allowed):
        return np.where(allowed, 0.0, -1e9)

    d = diagnose_task("13.4", fixed_additive_mask)
    assert not d.ok and d.code == "mask_minus_1e9"
    words = {"zh": ["-1e9 不是 −∞", "整行", "想一想"], "en": ["-1e9 is not −∞", "whole row", "Think about it"]}
    assert all(w in d.message for w in words[lang]), d.message
    assert diagnose_task("13.4", lambda allowed: np.where(allowed, 0.0, -np.inf)).ok


# ---------------------------------------------------------------- 5. 14.4: the notebook's rope is allowed


def _rope_step(q, k, v, K_cache, V_cache):
    positions = np.arange(len(K_cache), len(K_cache) + len(q))  # the fix: the new token's position
    q, k = rope(q, positions), rope(k, positions)  # Lesson 12's function, as the notebook imports it
    K_all, V_all = np.vstack([K_cache, k]), np.vstack([V_cache, v])
    s = q @ K_all.T / np.sqrt(q.shape[1])
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ V_all


def _attention_step(q, k, v, K_cache, V_cache):
    positions = np.arange(len(K_cache), len(K_cache) + len(q))
    q, k = rope(q, positions), rope(k, positions)
    return attn_core.attention(q, np.vstack([K_cache, k]), np.vstack([V_cache, v])).O


def test_the_rope_fix_may_use_the_notebooks_rope_but_not_attn_cores_attention(lang):
    assert diagnose_task("14.4", _rope_step).ok
    d = diagnose_task("14.4", _attention_step)
    assert not d.ok and d.code == "delegates"


@pytest.mark.parametrize("typed", ["6.1 ", " 6.1", "６．１", "6。1"])
def test_a_task_number_typed_with_a_space_or_a_chinese_input_method_is_the_task(typed, capsys):
    from attn_homework import check

    check(typed)
    out = capsys.readouterr().out
    assert out.startswith("⏳ 6.1") and "O" in out  # the task's variable is asked for, not "no task"


def test_a_number_that_is_no_task_lists_the_tasks_of_its_exercise(capsys):
    from attn_homework import check

    set_lang("en")
    try:
        check("6.9")
    finally:
        set_lang("zh")
    out = capsys.readouterr().out
    assert "exercise 6's tasks are 6.1, 6.2, 6.3, 6.4, 6.5" in out and "7.1" not in out
