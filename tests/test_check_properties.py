"""Laws of the checker over random givens, for every step (issue 18): no correct answer is rejected, however
it is computed, and no wrong answer passes or has a message that prints an expected number.

Each step's right answer is recomputed here another way (einsum, loops, the formulas of the lessons), not
with the checker's code, from givens that hypothesis draws."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import attn_homework as homework
from attn_homework import FunctionCalls, call_function, diagnose_task
from attn_homework.checker import STEPS, diagnose
from attn_homework.checker.functions import FUNCTION_STEPS
from attn_homework.checker.steps import STEP_TABLE

from .test_check import leaked_numbers
from .test_check_positions import five_steps, halves, leaked, neighbours, pe_loops, rope_rows, scores_pos, shifted
from .test_find_the_bug import RIGHT

EXAMPLES = settings(max_examples=20)  # per step: the steps are many and each check tries every mistake


def softmax(S):
    """Row softmax that gives −∞ weight 0 (each row has a finite score)."""
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def layer_norm(x, eps=1e-5):
    return (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)


def matrix(data, rows, cols, bound=3.0):
    return data.draw(arrays(np.float64, (rows, cols), elements=st.floats(-bound, bound, width=64)))


def size(data, low=1, high=5):
    return data.draw(st.integers(low, high))


def some_mask(data, n_q, n_k):
    """A boolean mask whose every row lets at least one key through."""
    mask = data.draw(arrays(bool, (n_q, n_k)))
    mask[np.arange(n_q), data.draw(arrays(np.int64, n_q, elements=st.integers(0, n_k - 1)))] = True
    return mask


def attention_task(data, step):
    n_q, n_k, d_k, d_v = size(data), size(data), size(data), size(data)
    Q, K, V = matrix(data, n_q, d_k), matrix(data, n_k, d_k), matrix(data, n_k, d_v)
    mask = some_mask(data, n_q, n_k) if step == "masked_weights" or data.draw(st.booleans()) else None
    scaled = step in ("scaled_scores", "weights", "masked_weights", "output")
    S = np.einsum("id,jd->ij", Q, K) / (np.sqrt(d_k) if scaled else 1.0)
    S = S if mask is None else np.where(mask, S, -np.inf)
    given = dict(Q=Q, K=K) | ({} if mask is None else {"mask": mask}) | ({"V": V} if step == "output" else {})
    right = {"scores": S, "scaled_scores": S, "output": softmax(S) @ V}.get(step, softmax(S) if scaled else S)
    return given, right


def draw_task(data, step):
    """(givens, the right answer computed here) for one random task of ``step``."""
    if step in ("scores", "scaled_scores", "weights", "masked_weights", "output"):
        return attention_task(data, step)
    n, m, d, h = size(data), size(data), size(data), size(data, 1, 3)
    if step == "projection":
        X, W = matrix(data, n, m), matrix(data, m, d)
        return dict(X=X, W=W), np.einsum("nd,dk->nk", X, W)
    if step == "softmax":
        S = matrix(data, n, m) + np.where(some_mask(data, n, m), 0.0, -np.inf)
        return dict(S=S), softmax(S)
    if step == "weighted_sum":
        A, V = softmax(matrix(data, n, m)), matrix(data, m, d)
        return dict(A=A, V=V), np.einsum("ij,jd->id", A, V)
    if step == "causal_mask":
        return dict(n=n), np.array([[j <= i for j in range(n)] for i in range(n)])
    if step == "split_heads":
        Q = matrix(data, n, h * d)
        return dict(Q=Q, n_heads=h), np.stack([Q[:, k * d : (k + 1) * d] for k in range(h)])
    if step == "merge_heads":
        heads = data.draw(arrays(np.float64, (h, n, d), elements=st.floats(-3, 3, width=64)))
        return dict(heads=heads), np.concatenate(list(heads), axis=1)
    if step == "multi_head":
        X, (W_q, W_k, W_v, W_o) = matrix(data, n, h * d), (matrix(data, h * d, h * d, 1.0) for _ in range(4))
        parts = [(X @ W)[:, k * d : (k + 1) * d] for W in (W_q, W_k, W_v) for k in range(h)]
        heads = [softmax(parts[k] @ parts[h + k].T / np.sqrt(d)) @ parts[2 * h + k] for k in range(h)]
        return dict(X=X, W_q=W_q, W_k=W_k, W_v=W_v, W_o=W_o, n_heads=h), np.hstack(heads) @ W_o
    if step in ("block_max", "block_sum", "online_sum", "online_acc", "online_output"):
        S1, S2, V1, V2 = matrix(data, n, m), matrix(data, n, d), matrix(data, m, h), matrix(data, d, h)
        S, V = np.hstack([S1, S2]), np.vstack([V1, V2])
        top = S.max(axis=1, keepdims=True)
        rights = {
            "block_max": S1.max(axis=1, keepdims=True),
            "block_sum": np.exp(S1 - S1.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True),
            "online_sum": np.exp(S - top).sum(axis=1, keepdims=True),
            "online_acc": np.exp(S - top) @ V,
            "online_output": softmax(S) @ V,
        }
        given = dict(S1=S1) | ({} if step in ("block_max", "block_sum") else dict(S2=S2))
        return given | (dict(V1=V1, V2=V2) if step in ("online_acc", "online_output") else {}), rights[step]
    if step == "grad_V":
        A, dO = softmax(matrix(data, n, m)), matrix(data, n, d)
        return dict(A=A, dO=dO), np.einsum("ij,id->jd", A, dO)
    if step == "grad_A":
        dO, V = matrix(data, n, d), matrix(data, m, d)
        return dict(dO=dO, V=V), np.einsum("id,jd->ij", dO, V)
    if step == "softmax_backward":
        A, dA = softmax(matrix(data, n, m)), matrix(data, n, m)
        return dict(A=A, dA=dA), np.stack([(np.diag(a) - np.outer(a, a)) @ g for a, g in zip(A, dA)])
    if step in ("grad_Q", "grad_K"):
        dS, Q, K = matrix(data, n, m), matrix(data, n, d), matrix(data, m, d)
        if step == "grad_Q":
            return dict(dS=dS, K=K, d_k=d), dS @ K / np.sqrt(d)
        return dict(dS=dS, Q=Q, d_k=d), np.einsum("ij,id->jd", dS, Q) / np.sqrt(d)
    if step in ("layer_norm", "residual_norm"):
        X, F = matrix(data, n, m + 1), matrix(data, n, m + 1)
        return (dict(X=X), layer_norm(X)) if step == "layer_norm" else (dict(X=X, F=F), layer_norm(X + F))
    if step == "ffn":
        H, W1, W2 = matrix(data, n, m), matrix(data, m, d), matrix(data, d, m)
        b1, b2 = matrix(data, 1, d)[0], matrix(data, 1, m)[0]
        return dict(H=H, W1=W1, b1=b1, W2=W2, b2=b2), np.maximum(H @ W1 + b1, 0) @ W2 + b2
    # lesson 12: computed with the loops of test_check_positions (one pair, one position at a time)
    if step == "reordered_output":
        X, (W_q, W_k, W_v) = matrix(data, n + 1, m), (matrix(data, m, d, 1.0) for _ in range(3))
        order = np.array(data.draw(st.permutations(range(n + 1))))
        return dict(X=X, W_q=W_q, W_k=W_k, W_v=W_v, order=order), five_steps(X[order], W_q, W_k, W_v)
    if step == "sinusoidal":
        return dict(n=n, d=2 * d), pe_loops(n, 2 * d)
    if step == "rope":
        X, layout = matrix(data, n, 2 * d), data.draw(st.sampled_from(["interleaved", "half"]))
        pairs = neighbours(2 * d) if layout == "interleaved" else halves(2 * d)
        return dict(X=X, positions=np.arange(n), layout=layout), rope_rows(X, range(n), pairs)
    if step == "positioned_scores":
        X, W_q, W_k = matrix(data, n, 2 * d), matrix(data, 2 * d, m, 1.0), matrix(data, 2 * d, m, 1.0)
        return dict(X=X, W_q=W_q, W_k=W_k), scores_pos(X, W_q, W_k, pe_loops(n, 2 * d))
    if step == "shifted_scores":
        q, k = matrix(data, 1, 2 * d)[0], matrix(data, 1, 2 * d)[0]
        i, j, shifts = size(data, 0, 6), size(data, 0, 6), np.arange(size(data, 1, 5))
        return dict(q=q, k=k, i=i, j=j, shifts=shifts), shifted(q, k, i, j, shifts, neighbours(2 * d))
    # lesson 13: in_proj_weight, written out row by row (row r of a block is column r of its W)
    if step == "torch_in_proj":
        W_q, W_k, W_v = (matrix(data, m, m, 1.0) for _ in range(3))
        return dict(W_q=W_q, W_k=W_k, W_v=W_v), np.array([W[:, r] for W in (W_q, W_k, W_v) for r in range(m)])
    # lesson 14: one cached step, and heads sharing K/V (query head i reads K/V head i // (n_heads / n_kv))
    if step == "cached_output":
        q, k, v = matrix(data, 1, m), matrix(data, 1, m), matrix(data, 1, d)
        K_cache, V_cache = matrix(data, n, m), matrix(data, n, d)
        K, V = np.vstack([K_cache, k]), np.vstack([V_cache, v])
        return dict(q=q, k=k, v=v, K_cache=K_cache, V_cache=V_cache), softmax(q @ K.T / np.sqrt(m)) @ V
    if step == "gqa_output":
        kv, group = size(data, 1, 3), size(data, 1, 3)
        Q = np.stack([matrix(data, n, m) for _ in range(kv * group)])
        K, V = np.stack([matrix(data, n, m) for _ in range(kv)]), np.stack([matrix(data, n, d) for _ in range(kv)])
        O = np.stack([softmax(Q[i] @ K[i // group].T / np.sqrt(m)) @ V[i // group] for i in range(kv * group)])
        return dict(Q_heads=Q, K_heads=K, V_heads=V), O
    # lesson 15: the previous-token score, with loops over heads and queries
    if step == "previous_token_scores":
        A = np.stack(
            [
                softmax(np.where(np.tril(np.ones((n + 1, n + 1), bool)), matrix(data, n + 1, n + 1), -np.inf))
                for _ in range(h)
            ]
        )
        return dict(weights=A), np.array([np.mean([a[i, i - 1] for i in range(1, n + 1)]) for a in A])
    raise AssertionError(f"no random task for {step}")


ARRAY_STEPS = [name for name, step in STEP_TABLE.items() if not step.answer.single]


def test_every_step_is_drawn_here_or_has_tests_of_its_own():
    predictions = {name for name, step in STEP_TABLE.items() if step.answer.single}
    assert set(STEPS) == set(ARRAY_STEPS) | predictions | set(FUNCTION_STEPS)


def _other_ways(right):
    """The right answer as a learner might hand it in: float32, a list, or exactly."""
    if right.dtype == bool:
        return [right, right.tolist()]
    return [right, right.astype(np.float32), right.tolist()]


def _wrong_ones(data, right):
    """Answers that are wrong beyond any tolerance: one entry moved, everything moved, or random numbers."""
    if right.dtype == bool:
        flipped = right.copy()
        flipped[tuple(data.draw(st.integers(0, s - 1)) for s in right.shape)] ^= True
        return [flipped]
    finite = np.argwhere(np.isfinite(right))
    index = tuple(finite[data.draw(st.integers(0, len(finite) - 1))])
    scale = np.abs(right[np.isfinite(right)]).max() + 1
    moved = right.copy()
    moved[index] += data.draw(st.sampled_from([-1, 1])) * scale * 0.5
    randomly = data.draw(arrays(np.float64, right.shape, elements=st.floats(-5, 5, width=64)))
    return [moved, np.where(np.isfinite(right), right * 1.5 + scale, right), randomly]


@pytest.mark.parametrize("step", ARRAY_STEPS)
@EXAMPLES
@given(data=st.data())
def test_no_correct_answer_is_rejected(step, data):
    givens, right = draw_task(data, step)
    for answer in _other_ways(right):
        d = diagnose(step, answer, **givens)
        assert d.ok, (d.code, d.message)


@pytest.mark.parametrize("step", ARRAY_STEPS)
@EXAMPLES
@given(data=st.data())
def test_no_wrong_answer_passes_and_no_expected_number_is_printed(step, data):
    givens, right = draw_task(data, step)
    for answer in _wrong_ones(data, right):
        if right.dtype != bool and np.allclose(answer, right, rtol=1e-3, atol=1e-3, equal_nan=True):
            continue  # a random array that happens to be right (hypothesis likes zeros)
        d = diagnose(step, answer, **givens)
        assert not d.ok and d.code not in ("checker_error", "bad_task"), d
        assert not leaked(d.message, right), d.message  # a whole number ("2k + 1") gives nothing away
        assert "\n" not in d.message


FUNCTION_TASKS = [t for t in homework.tasks() if t.answer_kind == "function"]


@pytest.mark.parametrize("task", FUNCTION_TASKS, ids=[t.id for t in FUNCTION_TASKS])
@EXAMPLES
@given(seed=st.integers(0, 2**32 - 1), shift=st.floats(0.1, 10))
def test_function_steps_accept_the_right_function_and_nothing_near_it(task, seed, shift):
    right = RIGHT[task.id]  # written in numpy in the test, not the checker's own
    arguments = task.probe_arguments(np.random.default_rng(seed))
    calls = call_function(right, arguments)
    assert diagnose_task(task.id, calls).ok
    off = FunctionCalls(calls.arguments, tuple(np.asarray(r) + shift for r in calls.results))
    d = diagnose_task(task.id, off)
    assert not d.ok and not leaked_numbers(d.message, np.concatenate([np.ravel(r) for r in calls.results]))
