"""The checker's lesson-12 steps (word order): right answers pass however computed; each diagnosis code is given
when its evidence is there (the answer equals what that mistake hands in) and not for a near miss (the same
mistake with a second one on top, or one number changed); messages name the mistake, never the numbers; and
nothing a learner types makes a check raise."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import attn_homework as homework
from attn_core.positions import interleaved_to_half
from attn_homework.checker import diagnose

from .test_check import leaked_numbers, snapshot, unchanged, weird

# ---------------------------------------------------------------- data: the tasks' own, and a few of our own

_rng = np.random.default_rng(12)
X5, Wq, Wk, Wv = _rng.normal(size=(5, 4)), _rng.normal(size=(4, 3)), _rng.normal(size=(4, 3)), _rng.normal(size=(4, 2))
ORDER = np.array([1, 3, 4, 0, 2])  # not its own inverse
Wq4, Wk4 = _rng.normal(size=(4, 4)), _rng.normal(size=(4, 4))
q6, K5 = _rng.normal(size=6), _rng.normal(size=(5, 6))
q8, k8 = _rng.normal(size=8), _rng.normal(size=8)
SHIFTS = np.arange(6)

POSITION_GIVEN = {  # one valid check per lesson-12 step
    "reordered_output": dict(X=X5, W_q=Wq, W_k=Wk, W_v=Wv, order=ORDER),
    "sinusoidal": dict(n=6, d=8),
    "rope": dict(X=K5, positions=np.arange(5), layout="half"),
    "positioned_scores": dict(X=X5, W_q=Wq4, W_k=Wk4),
    "shifted_scores": dict(q=q8, k=k8, i=1, j=4, shifts=SHIFTS),
}


# ---------------------------------------------------------------- the learner's own code, written plainly


def softmax(S):
    E = np.exp(S - S.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def five_steps(X, W_q, W_k, W_v, scaled=True):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    S = Q @ K.T / (math.sqrt(Q.shape[1]) if scaled else 1.0)
    return softmax(S) @ V


def pe_loops(n, d, base=10000.0, first=0, swap=False, exponent=lambda c, d: 2 * (c // 2) / d, inverted=False):
    """The encoding as a learner writes it, one number at a time, with a mistake switched on if asked."""
    PE = np.zeros((n, d))
    for p in range(first, first + n):
        for c in range(d):
            angle = p * base ** exponent(c, d) if inverted else p / base ** exponent(c, d)
            sin_here = (c % 2 == 0) != swap
            PE[p - first, c] = math.sin(angle) if sin_here else math.cos(angle)
    return PE


def pe_halves(n, d, base=10000.0):
    angles = np.arange(n)[:, None] / base ** (np.arange(0, d, 2) / d)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)


def turn_pairs(x, position, pairs, base=10000.0, sign=1.0, two=2):
    """RoPE written with explicit pairs: ``pairs`` lists (a, b) feature indices, pair k turns by position·ω_k."""
    x = np.array(x, dtype=float)
    out = x.copy()
    d = x.shape[-1]
    for k, (a, b) in enumerate(pairs):
        theta = sign * position / base ** (two * k / d)
        out[..., a] = x[..., a] * math.cos(theta) - x[..., b] * math.sin(theta)
        out[..., b] = x[..., a] * math.sin(theta) + x[..., b] * math.cos(theta)
    return out


def neighbours(d):
    return [(2 * k, 2 * k + 1) for k in range(d // 2)]


def halves(d):
    return [(k, k + d // 2) for k in range(d // 2)]


def rope_rows(X, positions, pairs, **kw):
    return np.stack([turn_pairs(X[r], p, pairs, **kw) for r, p in enumerate(positions)])


def scores_pos(X, W_q, W_k, PE, after=False, scaled=True):
    Q, K = (X @ W_q + PE, X @ W_k + PE) if after else ((X + PE) @ W_q, (X + PE) @ W_k)
    return Q @ K.T / (math.sqrt(Q.shape[1]) if scaled else 1.0)


def shifted(q, k, i, j, shifts, pairs, move_key=True, **kw):
    return np.array(
        [turn_pairs(q, i + s, pairs, **kw) @ turn_pairs(k, j + s if move_key else j, pairs, **kw) for s in shifts]
    )


RIGHT = {
    "reordered_output": five_steps(X5[ORDER], Wq, Wk, Wv),
    "sinusoidal": pe_loops(6, 8),
    "rope": rope_rows(K5, range(5), halves(6)),
    "positioned_scores": scores_pos(X5, Wq4, Wk4, pe_loops(5, 4)),
    "shifted_scores": shifted(q8, k8, 1, 4, SHIFTS, neighbours(8)),
}


def expected(step):
    return RIGHT[step]


def leaked(message, right):
    """Numbers of the right answer shown in the message; a whole number ("1" of "2k + 1") gives nothing away
    (test_check's helper also counts 0.9999995, printed as "1")."""
    return [text for text in leaked_numbers(message, right) if not text.lstrip("-").isdigit()]


def assert_says(d, code, words, right):
    assert d.code == code, d.message
    assert d.ok is (code == "ok")
    assert str(d).startswith("✅ " if d.ok else "⏳ " if code == "not_attempted" else "❌ ")
    for word in words:
        assert word in d.message, (word, d.message)
    assert not leaked(d.message, right), d.message


# ---------------------------------------------------------------- right answers pass, however computed


@pytest.mark.parametrize(
    "step, answer",
    [
        ("reordered_output", RIGHT["reordered_output"]),
        ("reordered_output", five_steps(X5, Wq, Wk, Wv)[ORDER]),  # the lesson's point: just move the rows
        ("reordered_output", five_steps(X5[ORDER], Wq, Wk, Wv).astype(np.float32)),
        ("sinusoidal", RIGHT["sinusoidal"]),
        ("sinusoidal", pe_halves(6, 8)[:, interleaved_to_half(8).argsort()]),  # the halves, put back in pairs
        ("rope", RIGHT["rope"]),
        (
            "rope",
            rope_rows(K5[:, np.argsort(interleaved_to_half(6))], range(5), neighbours(6))[:, interleaved_to_half(6)],
        ),
        ("positioned_scores", RIGHT["positioned_scores"]),
        ("shifted_scores", RIGHT["shifted_scores"]),
        ("shifted_scores", np.full(6, turn_pairs(q8, 1, neighbours(8)) @ turn_pairs(k8, 4, neighbours(8)))),
        ("shifted_scores", RIGHT["shifted_scores"].tolist()),
    ],
)
def test_right_answers_pass_however_computed(step, answer):
    assert_says(diagnose(step, answer, **POSITION_GIVEN[step]), "ok", [], expected(step))


def test_a_single_vector_at_a_position():
    d = diagnose("rope", turn_pairs(q6, 3, neighbours(6)), X=q6, positions=3, layout="interleaved")
    assert d.ok, d
    d = diagnose("rope", turn_pairs(q6, 3, halves(6)), X=q6, positions=3, layout="interleaved")
    assert d.code == "rope_other_layout", d


# ---------------------------------------------------------------- every code: its evidence, and a near miss


def _perturbed(a):
    a = np.array(a, dtype=float)
    a.flat[1] += 0.25
    return a


CODES = [
    # step, givens (None: the step's own), the mistake's answer, the near miss, code, words of the message
    (
        "reordered_output",
        None,
        five_steps(X5, Wq, Wk, Wv),
        five_steps(X5, Wq, Wk, Wv, scaled=False),  # not reordered and not scaled
        "not_reordered",
        ["X[order]", "第 r 行"],
    ),
    (
        "reordered_output",
        None,
        five_steps(X5[np.argsort(ORDER)], Wq, Wk, Wv),
        five_steps(X5[np.argsort(ORDER)], Wq, Wk, Wv)[::-1],
        "inverse_order",
        ["order[r]", "X[order]"],
    ),
    (
        "reordered_output",
        None,
        five_steps(X5[ORDER], Wq, Wk, Wv, scaled=False),
        _perturbed(five_steps(X5[ORDER], Wq, Wk, Wv, scaled=False)),
        "unscaled",
        ["√d_k"],
    ),
    (
        "sinusoidal",
        None,
        pe_loops(6, 8, swap=True),
        pe_loops(6, 8, swap=True, first=1),
        "sin_cos_swapped",
        ["sin", "cos"],
    ),
    ("sinusoidal", None, pe_halves(6, 8), _perturbed(pe_halves(6, 8)), "sin_cos_halves", ["前一半", "交替"]),
    (
        "sinusoidal",
        None,
        pe_loops(6, 8, exponent=lambda c, d: (c // 2) / d),
        pe_loops(6, 8, exponent=lambda c, d: (c // 2) / d, swap=True),
        "exponent_pair_index",
        ["2k/d", "k/d"],
    ),
    (
        "sinusoidal",
        None,
        pe_loops(6, 8, exponent=lambda c, d: c / d),
        pe_loops(6, 8, exponent=lambda c, d: c / d, first=1),
        "exponent_column_index",
        ["c/d", "同一个频率"],
    ),
    (
        "sinusoidal",
        None,
        pe_loops(6, 8, inverted=True),
        _perturbed(pe_loops(6, 8, inverted=True)),
        "frequency_inverted",
        ["除以"],
    ),
    (
        "sinusoidal",
        None,
        pe_loops(6, 8, first=1),
        pe_loops(6, 8, first=2),
        "positions_from_1",
        ["从 1", "np.arange(n)"],
    ),
    (
        "rope",
        None,
        rope_rows(K5, range(5), neighbours(6)),
        rope_rows(K5, range(1, 6), neighbours(6)),
        "rope_other_layout",
        ["前后两半", "rotate_half"],
    ),
    (
        "rope",
        dict(X=q6, positions=3, layout="interleaved"),
        turn_pairs(q6, 3, halves(6)),
        turn_pairs(q6, 3, halves(6), sign=-1.0),
        "rope_other_layout",
        ["相邻配对", "(0, 1)"],
    ),
    (
        "rope",
        None,
        rope_rows(K5, range(5), halves(6), sign=-1.0),
        rope_rows(K5, range(5), neighbours(6), sign=-1.0),
        "rope_negative_angle",
        ["−p·ω_k", "sin"],
    ),
    ("rope", None, K5, _perturbed(K5), "rope_not_rotated", ["没旋转"]),
    (
        "rope",
        None,
        rope_rows(K5, range(1, 6), halves(6)),
        rope_rows(K5, range(1, 6), halves(6), sign=-1.0),
        "positions_from_1",
        ["从 1"],
    ),
    (
        "rope",
        None,
        rope_rows(K5, range(5), halves(6), two=1),
        rope_rows(K5, range(5), neighbours(6), two=1),
        "exponent_pair_index",
        ["2k/d"],
    ),
    (
        "positioned_scores",
        None,
        scores_pos(X5, Wq4, Wk4, pe_loops(5, 4), after=True),
        scores_pos(X5, Wq4, Wk4, pe_loops(5, 4), after=True, scaled=False),
        "pe_after_projection",
        ["先把 PE 加到 X 上"],
    ),
    (
        "positioned_scores",
        None,
        scores_pos(X5, Wq4, Wk4, 0.0),
        scores_pos(X5, Wq4, Wk4, 0.0, scaled=False),
        "pe_not_added",
        ["X + PE"],
    ),
    (
        "positioned_scores",
        None,
        scores_pos(X5, Wq4, Wk4, pe_loops(5, 4, swap=True)),
        scores_pos(X5, Wq4, Wk4, pe_loops(5, 4, swap=True, first=1)),
        "sin_cos_swapped",
        ["sin", "cos"],
    ),
    (
        "positioned_scores",
        None,
        scores_pos(X5, Wq4, Wk4, pe_loops(5, 4, first=1)),
        scores_pos(X5, Wq4, Wk4, pe_loops(5, 4, first=1), after=True),
        "positions_from_1",
        ["从 1"],
    ),
    (
        "positioned_scores",
        None,
        scores_pos(X5, Wq4, Wk4, pe_loops(5, 4), scaled=False),
        _perturbed(scores_pos(X5, Wq4, Wk4, pe_loops(5, 4), scaled=False)),
        "unscaled",
        ["√d_k"],
    ),
    (
        "shifted_scores",
        None,
        shifted(q8, k8, 1, 4, SHIFTS, neighbours(8), move_key=False),
        shifted(q8, k8, 1, 4, SHIFTS, halves(8), move_key=False),
        "query_shifted_only",
        ["i + s", "j + s"],
    ),
    ("shifted_scores", None, np.full(6, q8 @ k8), _perturbed(np.full(6, q8 @ k8)), "rope_not_rotated", ["q·k"]),
    (
        "shifted_scores",
        None,
        shifted(q8, k8, 1, 4, SHIFTS, halves(8)),
        shifted(q8, k8, 1, 4, SHIFTS, halves(8), sign=-1.0),
        "rope_other_layout",
        ["interleaved", "half"],
    ),
    (
        "shifted_scores",
        None,
        shifted(q8, k8, 1, 4, SHIFTS, neighbours(8), sign=-1.0),
        _perturbed(shifted(q8, k8, 1, 4, SHIFTS, neighbours(8), sign=-1.0)),
        "rope_negative_angle",
        ["−p·ω_k"],
    ),
]
IDS = [f"{c[0]}:{c[4]}" for c in CODES]


def _givens(step, givens):
    return POSITION_GIVEN[step] if givens is None else givens


def _right(step, givens):
    return expected(step) if givens is None else turn_pairs(q6, 3, neighbours(6))


@pytest.mark.parametrize("step, givens, answer, near_miss, code, words", CODES, ids=IDS)
def test_the_mistake_gets_its_code(step, givens, answer, near_miss, code, words):
    assert_says(diagnose(step, answer, **_givens(step, givens)), code, words, _right(step, givens))


@pytest.mark.parametrize("step, givens, answer, near_miss, code, words", CODES, ids=IDS)
def test_a_near_miss_does_not_get_the_code(step, givens, answer, near_miss, code, words):
    """The same mistake with a second one on top, or one number changed: no longer that mistake's array, so the
    checker must not claim it (it says where the numbers are off instead)."""
    d = diagnose(step, near_miss, **_givens(step, givens))
    assert d.code != code and not d.ok, d
    assert d.code in ("wrong_values", "wrong_shape"), d
    assert not leaked(d.message, _right(step, givens))


@pytest.mark.parametrize("step, givens, answer, near_miss, code, words", CODES, ids=IDS)
def test_the_mistakes_speak_english_too(english, step, givens, answer, near_miss, code, words):
    d = diagnose(step, answer, **_givens(step, givens))
    assert d.code == code
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in d.message), d.message


def test_scores_that_two_reasonings_give_name_both():
    """Swapping the query's and the key's positions gives exactly the scores of turning the wrong way, and
    turning q and k by the same angle gives q·k for every shift: the message says so instead of blaming one."""
    swapped = np.array([turn_pairs(q8, 4 + s, neighbours(8)) @ turn_pairs(k8, 1 + s, neighbours(8)) for s in SHIFTS])
    d = diagnose("shifted_scores", swapped, **POSITION_GIVEN["shifted_scores"])
    assert d.code == "rope_negative_angle" and "对调" in d.message and "−p·ω_k" in d.message, d.message
    alike = np.array([turn_pairs(q8, s, neighbours(8)) @ turn_pairs(k8, s, neighbours(8)) for s in SHIFTS])
    d = diagnose("shifted_scores", alike, **POSITION_GIVEN["shifted_scores"])
    assert d.code == "rope_not_rotated" and "同一个角度" in d.message, d.message


def test_the_test_mistakes_differ_from_the_right_answers():
    for step, givens, answer, near_miss, code, _ in CODES:
        right = _right(step, givens)
        assert not np.allclose(answer, right, atol=1e-6), (step, code)
        assert not np.allclose(near_miss, answer, atol=1e-6), (step, code)


def test_a_mistake_that_cannot_be_made_with_these_givens_is_never_named():
    involution = np.array([1, 0, 2, 4, 3])  # its own inverse: "the other way round" is the right way
    right = five_steps(X5[involution], Wq, Wk, Wv)
    assert diagnose("reordered_output", right, X=X5, W_q=Wq, W_k=Wk, W_v=Wv, order=involution).ok
    assert diagnose("sinusoidal", pe_loops(3, 2), n=3, d=2).ok  # one pair: halves = pairs
    identity = diagnose(
        "reordered_output", five_steps(X5, Wq, Wk, Wv), X=X5, W_q=Wq, W_k=Wk, W_v=Wv, order=np.arange(5)
    )
    assert identity.ok  # "not reordered" is right when the order does not change
    at_zero = diagnose("rope", q6, X=q6, positions=0, layout="interleaved")
    assert at_zero.ok  # position 0 turns nothing


# ---------------------------------------------------------------- shapes, placeholders, types


@pytest.mark.parametrize(
    "step, answer, code, words",
    [
        ("sinusoidal", pe_loops(6, 8).T, "wrong_shape", ["(6, 8)", "(8, 6)", "每一行是一个位置"]),
        ("sinusoidal", pe_loops(6, 8)[:, ::2], "wrong_shape", ["(6, 4)", "一列 sin、一列 cos"]),
        ("rope", RIGHT["rope"].T, "wrong_shape", ["(5, 6)", "旋转不改变形状"]),
        ("shifted_scores", RIGHT["shifted_scores"][0], "wrong_shape", ["(6,)", "每个平移 s"]),
        ("reordered_output", RIGHT["reordered_output"].T, "wrong_shape", ["(5, 2)", "每一行对应一个查询"]),
        ("positioned_scores", RIGHT["positioned_scores"][:3], "wrong_shape", ["(5, 5)", "(3, 5)"]),
    ],
)
def test_wrong_shapes_say_what_the_shape_is(step, answer, code, words):
    assert_says(diagnose(step, answer, **POSITION_GIVEN[step]), code, words, expected(step))


@pytest.mark.parametrize("step", list(POSITION_GIVEN))
def test_wrong_values_name_the_place(step):
    d = diagnose(step, _perturbed(expected(step)), **POSITION_GIVEN[step])
    assert_says(d, "wrong_values", ["[0, 1]" if expected(step).ndim == 2 else "[1]"], expected(step))


def test_the_placeholder_and_the_wrong_kind():
    for step, givens in POSITION_GIVEN.items():
        assert diagnose(step, ..., **givens).code == "not_attempted"
        assert diagnose(step, "PE", **givens).code == "wrong_type"
        assert diagnose(step, np.full(expected(step).shape, np.nan), **givens).code == "not_finite"


@pytest.mark.parametrize(
    "step, givens",
    [
        ("reordered_output", dict(X=X5, W_q=Wq, W_k=Wk, W_v=Wv, order=[0, 1, 1, 3, 4])),
        ("reordered_output", dict(X=X5, W_q=Wq, W_k=Wk, W_v=Wv, order=np.arange(4))),
        ("sinusoidal", dict(n=6, d=7)),
        ("sinusoidal", dict(n=6, d=8, base=1)),
        ("sinusoidal", dict(n=-1, d=8)),
        ("rope", dict(X=K5, positions=np.arange(4))),
        ("rope", dict(X=K5, positions=np.arange(5), layout="both")),
        ("rope", dict(X=K5[:, :5], positions=np.arange(5))),
        ("rope", dict(X=K5, positions=[np.nan] * 5)),
        ("shifted_scores", dict(q=q8, k=k8, i=1.5, j=4, shifts=SHIFTS)),
        ("shifted_scores", dict(q=q8, k=k8, i=1, j=4)),
    ],
)
def test_a_wrongly_set_up_task_is_bad_task(step, givens):
    d = diagnose(step, np.zeros((2, 2)), **givens)
    assert d.code == "bad_task" and "老师" in d.message, d


# ---------------------------------------------------------------- never raises, never writes


@pytest.mark.parametrize("step", list(POSITION_GIVEN))
@given(answer=weird)
def test_diagnose_never_raises_and_never_writes(step, answer):
    givens = POSITION_GIVEN[step]
    before = snapshot(answer), {k: snapshot(v) for k, v in givens.items()}
    d = diagnose(step, answer, **givens)
    assert d.code != "checker_error" and d.message and d.ok == (d.code == "ok")
    assert unchanged(answer, before[0]) and all(unchanged(v, before[1][k]) for k, v in givens.items())


@given(
    key=st.sampled_from(["X", "W_q", "order", "positions", "layout", "base", "n", "d", "q", "i", "shifts", "name"]),
    value=weird,
    step=st.sampled_from(list(POSITION_GIVEN)),
)
def test_garbage_givens_never_raise(key, value, step):
    d = diagnose(step, expected(step), **{**POSITION_GIVEN[step], key: value})
    assert d.code != "checker_error", d


# ---------------------------------------------------------------- the tasks of ex12


def test_the_tasks_use_the_steps_and_their_data_are_not_degenerate():
    steps = {t.step for t in homework.tasks("ex12")}
    assert steps == set(POSITION_GIVEN)
    X, *_, order = homework.data("12.1")
    assert not np.array_equal(np.argsort(order), order)  # "inverse_order" can be told apart
    (K,) = homework.data("12.4")
    assert K.shape[1] > 2  # the two layouts differ
