"""The checker's part for lesson 12 (word order): the givens of its steps, their right answers, the mistakes
people make with positions and the wrong shapes they hand in. The steps themselves are the last entries of
``steps.STEP_TABLE``; every text is in the lesson-12 block of ``attn_homework/messages.py``.

Its steps take givens the attention steps do not (a reordering, positions, a RoPE layout, shifts), so
they read them with ``read_givens`` below into a ``PositionGivens``.

Every mistake returns the array a learner who makes it hands in, recomputed from the givens with
attn_core's own functions, or None when it cannot be made with these givens. A mistake is named only when
the answer equals that array (the checker's "equal"): that equality is its evidence. What each one needs
is said in its docstring; tests/test_check_positions.py gives, for each code, an answer that gets it and a
near miss that must not.
"""

from dataclasses import dataclass

import numpy as np

from attn_core import core
from attn_core import positions as pos

from ..messages import msg
from .givens import OwnGivens, labels, real_copy, whole
from .mistakes import Made, attention_with_column_max

ARRAYS = ("X", "W_q", "W_k", "W_v", "q", "k")
WHOLE = ("n", "d", "i", "j")  # whole numbers


@dataclass(frozen=True, eq=False)
class PositionGivens(OwnGivens):
    """The inputs of a lesson-12 check (float64 copies; None when the step does not take them).

    ``order``: the new sentence's rows as indices of the old ones (X[order]); ``positions``: one per row
    of X (a number for one vector); ``shifts``: how far both positions move (a 1-D array)."""

    X: np.ndarray | None = None
    W_q: np.ndarray | None = None
    W_k: np.ndarray | None = None
    W_v: np.ndarray | None = None
    q: np.ndarray | None = None
    k: np.ndarray | None = None
    order: np.ndarray | None = None
    positions: np.ndarray | None = None
    shifts: np.ndarray | None = None
    n: int | None = None
    d: int | None = None
    i: int | None = None
    j: int | None = None
    base: float = float(pos.BASE)
    layout: str = "interleaved"


def read_givens(given):
    """The ``PositionGivens`` of a check. Raises TypeError / ValueError (with a message from the catalog) for
    givens that make no task: the check reports "bad_task"."""
    arrays = {key: real_copy(given[key], key) for key in ARRAYS if key in given}
    counts = {key: whole(given[key], key) for key in WHOLE if key in given}
    base, layout = given.get("base", pos.BASE), given.get("layout", "interleaved")
    if isinstance(base, bool) or not isinstance(base, (int, float, np.integer, np.floating)) or not 1 < base < np.inf:
        raise ValueError(msg("given_base", got=base))
    if layout not in pos.LAYOUTS:
        raise ValueError(msg("given_layout", got=layout))
    order = _order(given["order"], arrays["X"].shape[0]) if "order" in given else None
    positions = real_copy(given["positions"], "positions", min_ndim=0) if "positions" in given else None
    shifts = real_copy(given["shifts"], "shifts", min_ndim=1) if "shifts" in given else None
    return PositionGivens(
        **arrays,
        **counts,
        order=order,
        positions=positions,
        shifts=shifts,
        base=float(base),
        layout=layout,
        **labels(given),
    )


def _order(order, n):
    a = np.array(order)
    if a.dtype.kind not in "iu" or a.shape != (n,) or sorted(a.tolist()) != list(range(n)):
        raise ValueError(msg("given_order", n=n, got=order))
    return a.astype(np.int64)


# ---------------------------------------------------------------- shared pieces


def _other(layout):
    return "half" if layout == "interleaved" else "interleaved"


def _outputs(g, X, scaled=True):
    """The self-attention output of the rows of X with the task's projections."""
    return core.self_attention(X, g.W_q, g.W_k, g.W_v, scaled=scaled).O


def _sinusoidal(positions, d, base, *, swap=False, halves=False, exponent=None, inverted=False):
    """Sinusoidal encodings of ``positions`` (n,), with one of the usual mistakes switched on. ``exponent``
    maps the column numbers (0 … d − 1) to the exponent e of base^e (right: 2·(c // 2)/d)."""
    p = np.asarray(positions, dtype=np.float64)[:, None]
    columns = np.arange(d)
    e = 2 * (columns // 2) / d if exponent is None else exponent(columns, d)
    scale = base**e
    angles = p * scale if inverted else p / scale  # (n, d): each column's angle
    if halves:  # sin of every pair first, then cos of every pair
        pair_angles = angles[:, 0::2]
        return np.concatenate([np.sin(pair_angles), np.cos(pair_angles)], axis=1)
    even, odd = (np.cos, np.sin) if swap else (np.sin, np.cos)
    out = np.empty_like(angles)
    out[:, 0::2] = even(angles[:, 0::2])
    out[:, 1::2] = odd(angles[:, 1::2])
    return out


def _turned(X, positions, g, *, layout=None, sign=1.0, exponent_halved=False):
    """``rope`` with the task's base, or with one of the usual mistakes: the other layout, the angle's sign
    flipped, or the frequencies ω_k = base^(−k/d) (exponent k/d instead of 2k/d)."""
    base = g.base**0.5 if exponent_halved else g.base  # base^(2k/d)·½ = base^(k/d)
    return pos.rope(X, sign * np.asarray(positions, dtype=np.float64), base, layout or g.layout)


def _positioned_scores(g, PE_q, PE_k, *, after=False, scaled=True):
    """(X + PE)W_Q·((X + PE)W_K)ᵀ / √d_k, or with PE added after the projections (``after``)."""
    if after:
        Q, K = g.X @ g.W_q + PE_q, g.X @ g.W_k + PE_k
    else:
        Q, K = (g.X + PE_q) @ g.W_q, (g.X + PE_k) @ g.W_k
    S = Q @ K.T
    return S / np.sqrt(Q.shape[-1]) if scaled else S


def _first_positions(g):
    return np.arange(g.X.shape[0]) if g.X is not None else np.arange(g.n)


# ---------------------------------------------------------------- the right answers (g -> array)


def reordered_output(g):
    """The self-attention output of the shuffled sentence X[order], one row per position of the new sentence."""
    return _outputs(g, g.X[g.order])


def sinusoidal(g):
    """The sinusoidal encodings of positions 0 … n − 1 (n × d)."""
    return pos.sinusoidal_positions(g.n, g.d, g.base)


def rope(g):
    """X (a vector or rows) rotated by RoPE at the given positions, in the given layout."""
    return pos.rope(g.X, g.positions, g.base, g.layout)


def positioned_scores(g):
    """S = (X + PE)W_Q·((X + PE)W_K)ᵀ / √d_k, PE the sinusoidal encodings of positions 0 … n − 1."""
    PE = pos.sinusoidal_positions(g.X.shape[0], g.X.shape[1], g.base)
    return _positioned_scores(g, PE, PE)


def shifted_scores(g):
    """One score per shift s: RoPE(q, i + s) · RoPE(k, j + s) (the same for every s)."""
    return np.array(
        [pos.rope(g.q, g.i + s, g.base, g.layout) @ pos.rope(g.k, g.j + s, g.base, g.layout) for s in g.shifts]
    )


# ---------------------------------------------------------------- mistakes: reordering (evidence: the answer equals …)


def not_reordered(g):
    """The output of the original sentence, rows in the original order: the shuffle was not applied.
    Evidence: the answer equals the unshuffled output (never for the identity order: that is right)."""
    return _outputs(g, g.X)


def inverse_order(g):
    """The rows shuffled the other way round: X[argsort(order)] (word r sent to position order[r]).
    Evidence: the answer equals that output; None when order is its own inverse (then it is right)."""
    inverse = np.argsort(g.order)
    return None if np.array_equal(inverse, g.order) else _outputs(g, g.X[inverse])


def reordered_unscaled(g):
    """The shuffled sentence's output with the scores not divided by √d_k.
    Evidence: the answer equals that output (None when d_k = 1: then it is right)."""
    return None if g.W_q.shape[1] == 1 else _outputs(g, g.X[g.order], scaled=False)


def reordered_column_max(g):
    """The shuffled sentence's output with each column's maximum of the scores subtracted before exp instead
    of each row's. Evidence: the answer equals that output (None where it is the right one)."""
    X = g.X[g.order]
    return attention_with_column_max(X @ g.W_q, X @ g.W_k, X @ g.W_v, g.expected)


def _reordered_with(g, *, divisor=None, axis=-1, causal=False):
    """The shuffled sentence's output with one usual mistake: the scores over ``divisor`` instead of √d_k,
    softmax along ``axis``, or a causal mask the task does not have."""
    Xs = g.X[g.order]
    Q, K, V = Xs @ g.W_q, Xs @ g.W_k, Xs @ g.W_v
    S = Q @ K.T / (np.sqrt(Q.shape[-1]) if divisor is None else divisor)
    if causal:
        S = np.where(np.tril(np.ones(S.shape, dtype=bool)), S, -np.inf)
    E = np.exp(S - S.max(axis=axis, keepdims=True))
    return E / E.sum(axis=axis, keepdims=True) @ V


def reordered_by_root_d_model(g):
    """The scores divided by √d_model (the width of X) instead of √d_k: one ``Made`` naming that size."""
    d_model, d_k = g.X.shape[-1], g.W_q.shape[-1]
    if d_model == d_k:
        return None
    fields = {"root": f"√{d_model}", "what": msg("size_d_model"), "d_k": f"{d_k}"}
    return Made(_reordered_with(g, divisor=np.sqrt(d_model)), fields)


def reordered_by_root_d_v(g):
    """The scores divided by √d_v (the width of the values) instead of √d_k: one ``Made`` naming that size."""
    d_v, d_k = g.W_v.shape[-1], g.W_q.shape[-1]
    if d_v == d_k:
        return None
    fields = {"root": f"√{d_v}", "what": msg("size_d_v"), "d_k": f"{d_k}"}
    return Made(_reordered_with(g, divisor=np.sqrt(d_v)), fields)


def reordered_keys_times_queries(g):
    """K·Qᵀ / √d_k instead of Q·Kᵀ (the shuffled sentence's scores transposed), softmax along the rows."""
    Xs = g.X[g.order]
    Q, K, V = Xs @ g.W_q, Xs @ g.W_k, Xs @ g.W_v
    S = K @ Q.T / np.sqrt(Q.shape[-1])
    if np.allclose(S, S.T):
        return None
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True) @ V


def reordered_no_softmax(g):
    """The scaled scores times V: softmax left out."""
    Xs = g.X[g.order]
    Q, K, V = Xs @ g.W_q, Xs @ g.W_k, Xs @ g.W_v
    return Q @ K.T / np.sqrt(Q.shape[-1]) @ V


def reordered_softmax_down_the_columns(g):
    """softmax along axis 0 (each column sums to 1)."""
    return _reordered_with(g, axis=0)


def reordered_causal(g):
    """A causal mask, which this task (plain self-attention) does not have."""
    return _reordered_with(g, causal=True)


# ---------------------------------------------------------------- mistakes: the sinusoidal encoding


def sin_cos_swapped(g):
    """cos in the even columns and sin in the odd ones. Evidence: the answer equals the encoding so built."""
    return _sinusoidal(_first_positions(g), g.d, g.base, swap=True)


def sin_cos_halves(g):
    """Every pair's sin in the first half of the columns, every cos in the second (tensor2tensor's layout).
    Evidence: the answer equals that; None for d = 2 (one pair: the two layouts agree)."""
    return None if g.d == 2 else _sinusoidal(_first_positions(g), g.d, g.base, halves=True)


def exponent_pair_index(g):
    """ω_k = base^(−k/d): the exponent 2k/d written as k/d (k = the pair). Evidence: the answer equals that."""
    return _sinusoidal(_first_positions(g), g.d, g.base, exponent=lambda c, d: (c // 2) / d)


def exponent_column_index(g):
    """ω = base^(−c/d) for column c: the sin columns right, the cos columns one step slower.
    Evidence: the answer equals that."""
    return _sinusoidal(_first_positions(g), g.d, g.base, exponent=lambda c, d: c / d)


def frequency_inverted(g):
    """The angle p·base^(2k/d) instead of p / base^(2k/d). Evidence: the answer equals that."""
    return _sinusoidal(_first_positions(g), g.d, g.base, inverted=True)


def positions_from_1(g):
    """Positions 1 … n instead of 0 … n − 1: the encoding of rows 1 … n, or RoPE of rows that the task puts
    at 0 … n − 1. Evidence: the answer equals what positions 1 … n give; None when the task's positions are
    not 0 … n − 1 (one vector at a given position, say)."""
    if g.d is not None:
        return _sinusoidal(_first_positions(g) + 1, g.d, g.base)
    if g.X.ndim < 2 or not np.array_equal(g.positions, _first_positions(g)):
        return None
    return _turned(g.X, g.positions + 1, g)


# ---------------------------------------------------------------- mistakes: RoPE


def interleaved_though_half_asked(g):
    """RoPE with neighbouring pairs (interleaved) in a task that asks for the half layout.
    Evidence: the answer equals that rotation."""
    return _turned(g.X, g.positions, g, layout="interleaved") if g.layout == "half" else None


def half_though_interleaved_asked(g):
    """RoPE with rotate_half's pairs in a task that asks for the interleaved layout.
    Evidence: the answer equals that rotation."""
    return _turned(g.X, g.positions, g, layout="half") if g.layout == "interleaved" else None


def layouts_mixed(g):
    """The pairs read in one layout and the turned features written back in the other (interleaved pairs put
    back as two halves, or the halves' pairs put back side by side), whichever layout was read: a rotation
    with its columns reordered. Evidence: the answer equals that reordering."""
    d = np.shape(g.X)[-1]
    if d < 4:  # one pair: both layouts are the same
        return None
    interleaved_to_half = np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])
    written = {"interleaved": interleaved_to_half, "half": np.argsort(interleaved_to_half)}
    asked = msg(f"layout_{g.layout}")
    return [
        Made(_turned(g.X, g.positions, g, layout=read)[..., order], {"asked": asked}) for read, order in written.items()
    ]


def rope_negative_angle(g):
    """Every pair turned by −p·ω_k (the sine's sign flipped). Evidence: the answer equals that rotation."""
    return _turned(g.X, g.positions, g, sign=-1.0)


def rope_not_rotated(g):
    """X handed in as it is. Evidence: the answer equals X (never at position 0 only: then it is right)."""
    return g.X


def rope_frequency_inverted(g):
    """RoPE with the angle p·base^(2k/d) instead of p / base^(2k/d). Evidence: the answer equals that rotation."""
    return pos.rope(g.X, np.asarray(g.positions, dtype=np.float64), 1.0 / g.base, g.layout)


def rope_position_off_by_one(g):
    """One vector turned at position p − 1 or p + 1 instead of p (rows at 0 … n − 1 are positions_from_1's).
    Evidence: the answer equals that rotation; one ``Made`` each, naming the position it belongs to."""
    if np.ndim(g.positions) != 0:
        return None
    p = float(g.positions)
    return [
        Made(_turned(g.X, np.asarray(used), g), {"p": f"{p:g}", "used": f"{used:g}"})
        for used in (p - 1, p + 1)
        if used >= 0
    ]


def rope_exponent_pair_index(g):
    """RoPE with ω_k = base^(−k/d) (exponent k/d instead of 2k/d). Evidence: the answer equals that rotation."""
    return _turned(g.X, g.positions, g, exponent_halved=True)


# ---------------------------------------------------------------- mistakes: scores with sinusoidal positions


def pe_after_projection(g):
    """(XW_Q + PE)·(XW_K + PE)ᵀ / √d_k: the encoding added to Q and K instead of X (possible only when
    d_k = d_model). Evidence: the answer equals that."""
    PE = pos.sinusoidal_positions(g.X.shape[0], g.X.shape[1], g.base)
    return _positioned_scores(g, PE, PE, after=True)


def pe_not_added(g):
    """XW_Q·(XW_K)ᵀ / √d_k: no positions at all. Evidence: the answer equals those scores."""
    zeros = np.zeros_like(g.X)
    return _positioned_scores(g, zeros, zeros)


def scores_sin_cos_swapped(g):
    """The scores with an encoding whose sin and cos are swapped. Evidence: the answer equals them."""
    PE = _sinusoidal(_first_positions(g), g.X.shape[1], g.base, swap=True)
    return _positioned_scores(g, PE, PE)


def scores_positions_from_1(g):
    """The scores with the encodings of positions 1 … n. Evidence: the answer equals them."""
    PE = _sinusoidal(_first_positions(g) + 1, g.X.shape[1], g.base)
    return _positioned_scores(g, PE, PE)


def scores_pe_on_one_side(g):
    """The encoding added on the query side only, or on the key side only. Evidence: the answer equals that."""
    PE = pos.sinusoidal_positions(g.X.shape[0], g.X.shape[1], g.base)
    zeros = np.zeros_like(g.X)
    return [_positioned_scores(g, PE, zeros), _positioned_scores(g, zeros, PE)]


def scores_pe_shifted_a_row(g):
    """Row r given the encoding of position r − 1 (row 0 none): the encodings moved down one row.
    Evidence: the answer equals those scores."""
    PE = pos.sinusoidal_positions(g.X.shape[0], g.X.shape[1], g.base)
    shifted = np.vstack([np.zeros((1, PE.shape[1])), PE[:-1]])
    return _positioned_scores(g, shifted, shifted)


def scores_softmaxed(g):
    """The right scores with softmax applied: weights, where the task stops at the scores."""
    S = g.expected
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def scores_unscaled(g):
    """The right scores, not divided by √d_k. Evidence: the answer equals them."""
    PE = pos.sinusoidal_positions(g.X.shape[0], g.X.shape[1], g.base)
    return _positioned_scores(g, PE, PE, scaled=False)


def scores_by_d_k(g):
    """The right scores divided by d_k itself, not its square root. Evidence: the answer equals them."""
    PE = pos.sinusoidal_positions(g.X.shape[0], g.X.shape[1], g.base)
    d_k = g.W_q.shape[-1]
    return None if d_k == 1 else _positioned_scores(g, PE, PE, scaled=False) / d_k


def _scores_with(g, **mistake):
    """The scores with an encoding made with one of 12.2's mistakes (``_sinusoidal``'s switches)."""
    PE = _sinusoidal(_first_positions(g), g.X.shape[1], g.base, **mistake)
    return _positioned_scores(g, PE, PE)


def scores_sin_cos_halves(g):
    """The scores with an encoding of all sines first, then all cosines. Evidence: the answer equals them."""
    return None if g.X.shape[1] == 2 else _scores_with(g, halves=True)


def scores_exponent_pair_index(g):
    """The scores with frequencies base^(−k/d), k the pair's index. Evidence: the answer equals them."""
    return _scores_with(g, exponent=lambda c, d: (c // 2) / d)


def scores_exponent_column_index(g):
    """The scores with frequencies base^(−c/d), c the column's index. Evidence: the answer equals them."""
    return _scores_with(g, exponent=lambda c, d: c / d)


# ---------------------------------------------------------------- mistakes: scores as both positions shift


def _scores(g, i_of, j_of, **turn):
    return np.array([_turned(g.q, i_of(s), g, **turn) @ _turned(g.k, j_of(s), g, **turn) for s in g.shifts])


def query_shifted_only(g):
    """RoPE(q, i + s) · RoPE(k, j): only the query's position moved. Evidence: the answer equals those scores."""
    return _scores(g, lambda s: g.i + s, lambda s: g.j)


def key_shifted_only(g):
    """RoPE(q, i) · RoPE(k, j + s): only the key's position moved. Evidence: the answer equals those scores."""
    return _scores(g, lambda s: g.i, lambda s: g.j + s)


def key_not_rotated(g):
    """RoPE(q, i + s) · k: the key never turned. Evidence: the answer equals those scores."""
    return np.array([pos.rope(g.q, g.i + s, g.base, g.layout) @ g.k for s in g.shifts])


def shifted_scores_scaled(g):
    """The right dot products divided by √d (a scale the task does not ask for). Evidence: the answer equals
    them."""
    return shifted_scores(g) / np.sqrt(g.q.shape[-1])


def scores_not_rotated(g):
    """q · k for every shift: no rotation. Evidence: the answer equals that constant row."""
    return np.full(len(g.shifts), float(g.q @ g.k))


def scores_other_layout(g):
    """The scores computed with the other RoPE layout. Evidence: the answer equals them."""
    return _scores(g, lambda s: g.i + s, lambda s: g.j + s, layout=_other(g.layout))


def scores_negative_angle(g):
    """The scores computed with both vectors turned the wrong way (−p·ω_k). Evidence: the answer equals them."""
    return _scores(g, lambda s: g.i + s, lambda s: g.j + s, sign=-1.0)


# ---------------------------------------------------------------- wrong shapes


def transposed(g):
    """The right answer's shape with its last two axes swapped (None for a vector)."""
    return g.expected.shape[::-1] if g.expected.ndim == 2 else None


def one_column_per_pair(g):
    """n × d/2: one column per frequency, its sin or its cos left out."""
    return (g.n, g.d // 2)


def one_number(g):
    """A single number instead of one per shift."""
    return ()
