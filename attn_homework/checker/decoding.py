"""The checker's part for lesson 14 (decoding with a KV cache): the givens of its steps, their right answers,
the mistakes people make with a cache, with heads sharing K and V and with the cache's size, and the
find-the-bug step of RoPE with a cache (its right function and bugs; the step is in
``functions.FUNCTION_STEPS``). The steps are the last entries of ``steps.STEP_TABLE``; every text is in
``attn_homework/messages/decoding.py``.

Every mistake returns what a learner who makes it hands in, recomputed from the givens with attn_core's own
functions, or None when it cannot be made with these givens (or would be the right answer). A mistake is
named only when the answer equals it: that equality is its evidence. ``tests/test_check_decoding.py`` gives,
for each code, an answer that gets it and a near miss that must not.
"""

from dataclasses import dataclass

import numpy as np

from attn_core import core, decoding, rope

from ..messages import msg
from .givens import OwnGivens, labels, real_copy, unless_right, whole
from .mistakes import Made, attention_with_column_max

ARRAYS = ("q", "k", "v", "K_cache", "V_cache", "Q_heads", "K_heads", "V_heads")
WHOLE = ("layers", "n_heads", "kv_heads", "d_head", "bytes_per_value")


@dataclass(frozen=True, eq=False)
class DecodingGivens(OwnGivens):
    """The inputs of a lesson-14 check (float64 copies; None when the step does not take them).

    One cached step: the new token's q (1, d_k), k (1, d_k), v (1, d_v) and the cache K_cache (t, d_k),
    V_cache (t, d_v) of the t tokens before it. Heads sharing K/V: Q_heads (h, n, d_k), K_heads and V_heads
    (h_kv, n, ·). The cache's size: whole numbers."""

    q: np.ndarray | None = None
    k: np.ndarray | None = None
    v: np.ndarray | None = None
    K_cache: np.ndarray | None = None
    V_cache: np.ndarray | None = None
    Q_heads: np.ndarray | None = None
    K_heads: np.ndarray | None = None
    V_heads: np.ndarray | None = None
    layers: int | None = None
    n_heads: int | None = None
    kv_heads: int | None = None
    d_head: int | None = None
    bytes_per_value: int | None = None


def read_givens(given):
    """The ``DecodingGivens`` of a check. Raises TypeError / ValueError (with a message from the catalog)
    for givens that make no task: the check reports "bad_task"."""
    arrays = {key: real_copy(given[key], key, min_ndim=2) for key in ARRAYS if key in given}
    counts = {key: whole(given[key], key) for key in WHOLE if key in given}
    return DecodingGivens(**arrays, **counts, **labels(given))


# ---------------------------------------------------------------- one step with the cache


def _attend(q, K, V, scaled=True):
    return core.attention(q, K, V, scaled=scaled).O


def cached_output(g):
    """The new token's output: its k, v appended to the cache, then softmax(q·Kᵀ/√d_k)·V -> (1, d_v)."""
    return _attend(g.q, np.vstack([g.K_cache, g.k]), np.vstack([g.V_cache, g.v]))


def cache_not_appended(g):
    """Attended to the old cache only: the new token does not see itself."""
    return unless_right(g.expected, _attend(g.q, g.K_cache, g.V_cache))


def kv_misaligned(g):
    """k appended at one end and v at the other, so the keys and values of the cache no longer pair up
    (either way round)."""
    made = [
        _attend(g.q, np.vstack([g.K_cache, g.k]), np.vstack([g.v, g.V_cache])),
        _attend(g.q, np.vstack([g.k, g.K_cache]), np.vstack([g.V_cache, g.v])),
    ]
    return [x for x in (unless_right(g.expected, m) for m in made) if x is not None]


def _column_max_of_one_row(q, K, V):
    """softmax(q·Kᵀ/√d_k)·V with the column maxima subtracted: with one query row each column's maximum is
    its only score, every score becomes 0 and every key gets the same weight, so the output is the mean of
    the rows of V. Its message hedges: equal weights have other causes too."""
    s = q @ K.T / np.sqrt(q.shape[-1])
    e = np.exp(s - s.max(axis=0, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ V


def cached_column_max(g):
    """The cached step with each column's maximum subtracted instead of the row's: equal weights, the mean of
    every value (the cache's and the new one). None where that is the right answer (all scores equal)."""
    K, V = np.vstack([g.K_cache, g.k]), np.vstack([g.V_cache, g.v])
    return unless_right(g.expected, _column_max_of_one_row(g.q, K, V))


def cached_unscaled(g):
    """No division by √d_k."""
    K, V = np.vstack([g.K_cache, g.k]), np.vstack([g.V_cache, g.v])
    return unless_right(g.expected, _attend(g.q, K, V, scaled=False))


def cached_keys_as_values(g):
    """The weights times the keys instead of the values (can be made only when d_k = d_v)."""
    K = np.vstack([g.K_cache, g.k])
    return unless_right(g.expected, core.attention(g.q, K, K).O) if g.k.shape[-1] == g.v.shape[-1] else None


def _softmax_mix(q, K, V, divisor, axis=-1):
    """softmax(q·Kᵀ / divisor) along ``axis`` (the row maximum subtracted), times V."""
    S = q @ np.swapaxes(K, -1, -2) / divisor
    E = np.exp(S - S.max(axis=axis, keepdims=True))
    return E / E.sum(axis=axis, keepdims=True) @ V


def _cached(g):
    return np.vstack([g.K_cache, g.k]), np.vstack([g.V_cache, g.v])


def cached_divided_by_d_k(g):
    """The scores divided by d_k instead of √d_k."""
    K, V = _cached(g)
    return unless_right(g.expected, _softmax_mix(g.q, K, V, g.q.shape[-1]))


def _root_of_d_v(g, q, K, V):
    d_k, d_v = q.shape[-1], V.shape[-1]
    if d_v == d_k:
        return None
    made = unless_right(g.expected, _softmax_mix(q, K, V, np.sqrt(d_v)))
    fields = {"root": f"√{d_v}", "what": msg("size_d_v"), "d_k": f"{d_k}"}
    return None if made is None else Made(made, fields)


def cached_divided_by_root_d_v(g):
    """The scores divided by √d_v, the width of the values, instead of √d_k."""
    K, V = _cached(g)
    return _root_of_d_v(g, g.q, K, V)


def cached_no_softmax(g):
    """The scores times the values, softmax left out (scaled or not)."""
    K, V = _cached(g)
    S = g.q @ K.T
    return [S / np.sqrt(g.q.shape[-1]) @ V, S @ V]


def cached_softmax_down_the_column(g):
    """softmax along axis 0 of the (1, t + 1) row of scores: every weight is 1, o the sum of all values."""
    K, V = _cached(g)
    return unless_right(g.expected, _softmax_mix(g.q, K, V, np.sqrt(g.q.shape[-1]), axis=0))


def cached_key_as_query(g):
    """The new token's k used as the query instead of its q."""
    K, V = _cached(g)
    return unless_right(g.expected, _softmax_mix(g.k, K, V, np.sqrt(g.q.shape[-1])))


def cached_first_key_only(g):
    """Every weight on key 0, o = the first cached value: a causal mask (``np.tril``) laid on the one
    (1, t + 1) row of scores keeps only its first column."""
    _, V = _cached(g)
    return unless_right(g.expected, V[:1])


# ---------------------------------------------------------------- heads sharing K and V


def _grouped(g, K, V, scaled=True):
    return core.attention(g.Q_heads, K, V, scaled=scaled).O


def _gqa_shared(g):
    """K and V with each K/V head repeated for its group of query heads (n_heads, n, d)."""
    h = g.Q_heads.shape[0]
    return decoding.repeat_kv_heads(g.K_heads, h), decoding.repeat_kv_heads(g.V_heads, h)


def gqa_output(g):
    """Each K/V head serves n_heads / n_kv_heads neighbouring query heads: O (n_heads, n, d_v)."""
    return _grouped(g, *_gqa_shared(g))


def kv_heads_tiled(g):
    """The K/V heads repeated as a whole (np.tile): query head h reads K/V head h mod n_kv_heads."""
    reps = g.Q_heads.shape[0] // g.K_heads.shape[0]
    return unless_right(g.expected, _grouped(g, np.tile(g.K_heads, (reps, 1, 1)), np.tile(g.V_heads, (reps, 1, 1))))


def v_heads_tiled(g):
    """K's heads repeated in place (right), V's repeated as a whole (np.tile): the values of the wrong group."""
    reps = g.Q_heads.shape[0] // g.K_heads.shape[0]
    K, _ = _gqa_shared(g)
    return unless_right(g.expected, _grouped(g, K, np.tile(g.V_heads, (reps, 1, 1))))


def k_heads_tiled(g):
    """V's heads repeated in place (right), K's repeated as a whole (np.tile): the keys of the wrong group."""
    reps = g.Q_heads.shape[0] // g.K_heads.shape[0]
    _, V = _gqa_shared(g)
    return unless_right(g.expected, _grouped(g, np.tile(g.K_heads, (reps, 1, 1)), V))


def gqa_divided_by_d_k(g):
    """The scores divided by d_k instead of √d_k."""
    K, V = _gqa_shared(g)
    return unless_right(g.expected, _softmax_mix(g.Q_heads, K, V, g.Q_heads.shape[-1]))


def gqa_divided_by_root_d_v(g):
    """The scores divided by √d_v, the width of the values, instead of √d_k."""
    K, V = _gqa_shared(g)
    return _root_of_d_v(g, g.Q_heads, K, V)


def gqa_softmax_along_queries(g):
    """softmax along axis 1 (down each column of a head's scores: over the queries)."""
    K, V = _gqa_shared(g)
    return unless_right(g.expected, _softmax_mix(g.Q_heads, K, V, np.sqrt(g.Q_heads.shape[-1]), axis=1))


def gqa_softmax_across_heads(g):
    """softmax along axis 0: across the heads, one entry of each head's scores against the same entry of
    the others."""
    K, V = _gqa_shared(g)
    return unless_right(g.expected, _softmax_mix(g.Q_heads, K, V, np.sqrt(g.Q_heads.shape[-1]), axis=0))


def gqa_keys_times_queries(g):
    """K·Qᵀ instead of Q·Kᵀ in every head (square when n queries = n keys)."""
    K, V = _gqa_shared(g)
    if K.shape[-2] != g.Q_heads.shape[-2]:
        return None
    S = K @ np.swapaxes(g.Q_heads, -1, -2) / np.sqrt(g.Q_heads.shape[-1])
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return unless_right(g.expected, E / E.sum(axis=-1, keepdims=True) @ V)


def gqa_first_kv_head_only(g):
    """Every query head given K/V head 0, not the head of its group."""
    if g.K_heads.shape[0] < 2:
        return None
    h = g.Q_heads.shape[0]
    K, V = np.repeat(g.K_heads[:1], h, axis=0), np.repeat(g.V_heads[:1], h, axis=0)
    return unless_right(g.expected, _grouped(g, K, V))


def gqa_unscaled(g):
    """No division by √d_k."""
    h = g.Q_heads.shape[0]
    K, V = decoding.repeat_kv_heads(g.K_heads, h), decoding.repeat_kv_heads(g.V_heads, h)
    return unless_right(g.expected, _grouped(g, K, V, scaled=False))


def gqa_column_max(g):
    """Each head's softmax with each column's maximum subtracted (axis −2 of the (h, n, n) scores) instead of
    each row's. None where that is the right answer or not finite."""
    h = g.Q_heads.shape[0]
    K, V = decoding.repeat_kv_heads(g.K_heads, h), decoding.repeat_kv_heads(g.V_heads, h)
    return attention_with_column_max(g.Q_heads, K, V, g.expected)


# ---------------------------------------------------------------- predict: the cache's bytes per token


def _number(x):
    return np.asarray(float(x))


def _other(g, x):
    return None if float(x) == float(g.expected) else _number(x)


def cache_bytes(g):
    """2 (K and V) · layers · kv_heads · d_head · bytes per value."""
    return _number(decoding.kv_cache_bytes(g.layers, g.kv_heads, g.d_head, g.bytes_per_value))


def bytes_without_v(g):
    """Only K counted (the factor 2 for K and V forgotten)."""
    return _other(g, g.layers * g.kv_heads * g.d_head * g.bytes_per_value)


def bytes_with_query_heads(g):
    """The query heads counted instead of the K/V heads."""
    return _other(g, 2 * g.layers * g.n_heads * g.d_head * g.bytes_per_value)


def numbers_not_bytes(g):
    """The numbers counted, not their bytes."""
    return _other(g, 2 * g.layers * g.kv_heads * g.d_head)


def one_layer_only(g):
    """One layer's cache, not the model's."""
    return _other(g, 2 * g.kv_heads * g.d_head * g.bytes_per_value)


# ---------------------------------------------------------------- find the bug: RoPE with a cache


def _rope_step(q, k, v, K_cache, V_cache, q_position, k_position, rotate_k=True):
    q = rope(q, np.array([float(q_position)]))
    k = rope(k, np.array([float(k_position)])) if rotate_k else k
    return core.attention(q, np.vstack([K_cache, k]), np.vstack([V_cache, v])).O


def rope_cached_step(q, k, v, K_cache, V_cache):
    """The new token's output with RoPE: q and k turned at position t = len(K_cache) (the cached keys are
    already turned), k and v appended, then attention -> (1, d_v)."""
    t = len(K_cache)
    return _rope_step(q, k, v, K_cache, V_cache, t, t)


def rope_at_zero(q, k, v, K_cache, V_cache):
    """The bug the notebook shows: every new token turned at position 0."""
    return _rope_step(q, k, v, K_cache, V_cache, 0, 0)


def rope_at_a_fixed_position(position):
    """A bug of a family: q and k turned at one typed-in position (the notebook's cache length, say), whatever
    the cache holds."""

    def step(q, k, v, K_cache, V_cache):
        return _rope_step(q, k, v, K_cache, V_cache, position, position)

    return step


def rope_after_append(q, k, v, K_cache, V_cache):
    """The position read after appending: t + 1."""
    t = len(K_cache)
    return _rope_step(q, k, v, K_cache, V_cache, t + 1, t + 1)


def rope_key_not_turned(q, k, v, K_cache, V_cache):
    """q turned at t, the new k appended unturned."""
    t = len(K_cache)
    return _rope_step(q, k, v, K_cache, V_cache, t, t, rotate_k=False)


def rope_before_cache_end(q, k, v, K_cache, V_cache):
    """The position one too few: t − 1, the last cached token's position, not the new token's."""
    t = len(K_cache)
    return _rope_step(q, k, v, K_cache, V_cache, t - 1, t - 1)


def rope_cache_turned_again(q, k, v, K_cache, V_cache):
    """q and k turned right, but the cached keys turned once more by their positions (they are already)."""
    t = len(K_cache)
    q, k = rope(q, np.array([float(t)])), rope(k, np.array([float(t)]))
    return core.attention(q, np.vstack([rope(K_cache, np.arange(t, dtype=float)), k]), np.vstack([V_cache, v])).O


def rope_query_not_turned(q, k, v, K_cache, V_cache):
    """The new k turned at t, q left unturned."""
    t = len(K_cache)
    k = rope(k, np.array([float(t)]))
    return core.attention(q, np.vstack([K_cache, k]), np.vstack([V_cache, v])).O


def rope_keys_as_values(q, k, v, K_cache, V_cache):
    """Turned right, but the weights times the keys instead of the values (only when d_k = d_v)."""
    if k.shape[-1] != v.shape[-1]:
        raise ValueError("d_k != d_v")
    t = len(K_cache)
    q, k = rope(q, np.array([float(t)])), rope(k, np.array([float(t)]))
    K = np.vstack([K_cache, k])
    return core.attention(q, K, K).O


def rope_softmax_down_the_column(q, k, v, K_cache, V_cache):
    """Turned right, but softmax along axis 0 of the (1, t + 1) row: every weight 1, the values summed."""
    t = len(K_cache)
    q, k = rope(q, np.array([float(t)])), rope(k, np.array([float(t)]))
    K, V = np.vstack([K_cache, k]), np.vstack([V_cache, v])
    return _softmax_mix(q, K, V, np.sqrt(q.shape[-1]), axis=0)


def rope_turned_backwards(q, k, v, K_cache, V_cache):
    """q and k turned at −t: the rotation the wrong way round (the cached keys were turned at +r)."""
    t = len(K_cache)
    return _rope_step(q, k, v, K_cache, V_cache, -t, -t)


def rope_key_one_ahead(q, k, v, K_cache, V_cache):
    """q turned at t, the new k at t + 1: the one token at two positions."""
    t = len(K_cache)
    return _rope_step(q, k, v, K_cache, V_cache, t, t + 1)


def rope_scaled_by_root_d_v(q, k, v, K_cache, V_cache):
    """Turned right, but the scores divided by √d_v, the width of the values, instead of √d_k (the right
    result on a call where d_k = d_v)."""
    t = len(K_cache)
    q, k = rope(q, np.array([float(t)])), rope(k, np.array([float(t)]))
    S = q @ np.vstack([K_cache, k]).T / np.sqrt(v.shape[-1])
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True) @ np.vstack([V_cache, v])


def rope_unscaled(q, k, v, K_cache, V_cache):
    """Turned right, but the scores not divided by √d_k."""
    t = len(K_cache)
    q, k = rope(q, np.array([float(t)])), rope(k, np.array([float(t)]))
    return core.attention(q, np.vstack([K_cache, k]), np.vstack([V_cache, v]), scaled=False).O


def rope_column_max(q, k, v, K_cache, V_cache):
    """Turned right, but each column's maximum of the scores subtracted instead of the row's: equal weights."""
    t = len(K_cache)
    q, k = rope(q, np.array([float(t)])), rope(k, np.array([float(t)]))
    return _column_max_of_one_row(q, np.vstack([K_cache, k]), np.vstack([V_cache, v]))


def rope_k_at_the_front(q, k, v, K_cache, V_cache):
    """Turned right, but k put at the front of the cache and v at its end: key j and value j then belong to
    different tokens."""
    t = len(K_cache)
    q, k = rope(q, np.array([float(t)])), rope(k, np.array([float(t)]))
    return core.attention(q, np.vstack([k, K_cache]), np.vstack([V_cache, v])).O


def rope_v_at_the_front(q, k, v, K_cache, V_cache):
    """Turned right, but v put at the front of the cache and k at its end."""
    t = len(K_cache)
    q, k = rope(q, np.array([float(t)])), rope(k, np.array([float(t)]))
    return core.attention(q, np.vstack([K_cache, k]), np.vstack([v, V_cache])).O


def kv_heads_shape(g):
    """The shape of an answer with one block per K/V head instead of one per query head."""
    return (g.K_heads.shape[0], g.Q_heads.shape[1], g.V_heads.shape[-1])
