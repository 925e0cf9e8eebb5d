"""The known mistakes of scaled dot-product attention (lessons 1–7), one function each: ``mistake(g)``
recomputes, from the givens ``g``, what a learner who makes that mistake hands in, or returns None when
the mistake cannot be made with these givens (no mask to forget, a task that does not scale, …). A
mistake that raises (its matrix product does not fit these shapes) cannot be made either: the checker
treats that as None.

A mistake function may also return several arrays (the same mistake written two usual ways, e.g. a
mask applied with −∞ or with −1e9) or ``Made`` values, whose fields fill in the message (which width
was used). A mistake is named only when the learner's array is what it makes: that is its evidence.

Which mistakes a step tries, in which order, with which code and message: the tables in ``steps``.

A mistake of scaled dot-product attention is made on the way to the scores or the weights and carried
on to the step being checked (``g.stage``): the scores step sees the wrong scores, the weights step
their softmax, the output step that times V. So ``unscaled`` serves all three.
"""

from dataclasses import dataclass, field

import numpy as np

from attn_core import core

from ..messages import msg
from .compare import same
from .givens import Stage

BIG_NEGATIVE = -1e9  # what many learners write instead of −∞; right, except in a row with nothing to see
EXP_OVERFLOWS = np.log(np.finfo(np.float64).max)  # ≈ 709.78: exp of more is ∞


@dataclass(frozen=True)
class Made:
    """What a mistake hands in, when its message needs to say more (e.g. which width was used)."""

    answer: np.ndarray
    fields: dict = field(default_factory=dict)


def softmax_rows(S, axis=-1):
    """softmax as a learner writes it (the row maximum subtracted), without attn_core's checks: a row of
    only −∞ gives NaN (0/0), as it does for them."""
    E = np.exp(S - S.max(axis=axis, keepdims=True))
    return E / E.sum(axis=axis, keepdims=True)


# ---------------------------------------------------------------- carrying a mistake on to the step's answer


def _carried_from_scores(g, S):
    """The step's answer computed on from (wrong) scores S: S itself, softmax(S) or softmax(S)·V."""
    if g.stage is Stage.SCORES:
        return S
    A = softmax_rows(S)
    return A if g.stage is Stage.WEIGHTS else A @ g.V


def _carried_from_weights(g, A):
    """The step's answer computed on from (wrong) weights A: A itself or A·V; None for the scores step,
    which comes before the weights."""
    if g.stage is Stage.WEIGHTS:
        return A
    return A @ g.V if g.stage is Stage.OUTPUT else None


# ---------------------------------------------------------------- the right pieces a mistake starts from


def _qkt(g):
    return core.scores(g.Q, g.K)


def _divisor(g):
    """What the scores are divided by: √d_k when the task scales, else 1."""
    return np.sqrt(g.d_k) if g.scaled else 1.0


def _hidden(g, S):
    """The scores masked the right way: −∞ where the mask is False."""
    return S if g.mask is None else np.where(g.mask, S, -np.inf)


def _right_scores(g):
    """The scores the step starts from: the given S, else QKᵀ scaled and masked as asked."""
    return g.S if g.S is not None else _hidden(g, _qkt(g) / _divisor(g))


def _unmasked_scores(g):
    """The scores before masking (masking comes with softmax): the given S, else QKᵀ scaled as asked."""
    if g.S is not None:
        return g.S
    return None if g.Q is None else _qkt(g) / _divisor(g)


def right_weights(g):
    """The weights the step starts from: the given A, else softmax of the right scores."""
    return g.A if g.A is not None else core.softmax(_right_scores(g))


def _is_causal(mask):
    """The mask is a causal one: square, the lower triangle with its diagonal."""
    return (
        mask is not None
        and mask.ndim == 2
        and mask.shape[0] == mask.shape[1]
        and bool(np.array_equal(mask, np.tril(np.ones(mask.shape, dtype=bool))))
    )


def _masked_with(g, keep):
    """The step's answer with the scores masked by ``keep`` (a wrong mask), written both usual ways: −∞
    (a row with nothing to see is then NaN) and −1e9 (that row's weights are then all equal)."""
    S = _qkt(g) / _divisor(g)
    return [_carried_from_scores(g, np.where(keep, S, fill)) for fill in (-np.inf, BIG_NEGATIVE)]


# ---------------------------------------------------------------- any step


def answer_transposed(g):
    """The right answer, transposed (its last two axes swapped)."""
    return np.swapaxes(g.expected, -1, -2)


# ---------------------------------------------------------------- projection X·W


def x_unprojected(g):
    """X handed in as it is, the weight matrix never applied (``V = X``)."""
    return g.X if g.X is not None and g.expected.shape == g.X.shape else None


def weight_transposed(g):
    """X times W transposed (possible only when W is square)."""
    return g.X @ np.swapaxes(g.W, -1, -2)


# ---------------------------------------------------------------- scores QKᵀ and their scaling


def scores_transposed(g):
    """K·Qᵀ instead of Q·Kᵀ: rows belong to keys, columns to queries."""
    return _carried_from_scores(g, _hidden(g, core.scores(g.K, g.Q) / _divisor(g)))


def scores_transposed_projected(g):
    """K·Qᵀ where the learner projects Q and K from X themselves (6.3: ``d_model`` given, one head): the same
    numbers come from W_Q and W_K swapped (X·W_K)(X·W_Q)ᵀ = (QKᵀ)ᵀ, so the message names both."""
    if getattr(g, "d_model", None) is None or np.ndim(g.Q) != 2:
        return None
    return scores_transposed(g)


def k_not_transposed(g):
    """Q·K instead of Q·Kᵀ (possible only when d_k = n_k)."""
    return _carried_from_scores(g, _hidden(g, (g.Q @ g.K) / _divisor(g)))


def unscaled(g):
    """QKᵀ not divided by √d_k, in a task that scales."""
    return _carried_from_scores(g, _hidden(g, _qkt(g))) if g.scaled else None


def divided_by_d_k(g):
    """QKᵀ divided by d_k instead of √d_k."""
    return _carried_from_scores(g, _hidden(g, _qkt(g) / g.d_k)) if g.scaled else None


def multiplied_by_sqrt_d_k(g):
    """QKᵀ multiplied by √d_k (written as a division by 1/√d_k) instead of divided."""
    return _carried_from_scores(g, _hidden(g, _qkt(g) / (1 / np.sqrt(g.d_k)))) if g.scaled else None


def divided_by_another_width(g):
    """QKᵀ divided by the square root of another size of the task: the number of queries or keys, the
    width of V or of the input (d_model) instead of d_k. One ``Made`` per size that differs from d_k,
    naming every size of that value (n_q = n_k = 4 cannot tell which the learner meant)."""
    if not g.scaled:
        return None
    sizes = {
        "n_q": g.Q.shape[-2],
        "n_k": g.K.shape[-2],
        "d_v": g.d_v if g.V is None else g.V.shape[-1],
        "d_model": g.d_model,
    }
    by_value = {}
    for size, value in sizes.items():
        if value is not None and value != g.d_k:
            by_value.setdefault(value, []).append(size)
    return [
        Made(
            _carried_from_scores(g, _hidden(g, _qkt(g) / np.sqrt(value))),
            {"root": f"√{value}", "what": msg("and").join(msg(f"size_{size}") for size in names), "d_k": f"{g.d_k:g}"},
        )
        for value, names in by_value.items()
    ]


def divided_by_a_fixed_width(g):
    """QKᵀ divided by √c for a small whole number c that is no size of this task (a d_k kept from an earlier
    task or the notebook's example, typed as a number): one ``Made`` per c from 2 to 16."""
    if not g.scaled:
        return None
    sizes = {g.d_k, g.Q.shape[-2], g.K.shape[-2], g.d_model, g.d_v if g.V is None else g.V.shape[-1]}
    return [
        Made(_carried_from_scores(g, _hidden(g, _qkt(g) / np.sqrt(c))), {"root": f"√{c}", "d_k": f"{g.d_k:g}"})
        for c in range(2, 17)
        if c not in sizes
    ]


def floor_divided(g):
    """QKᵀ // √d_k: the floor division rounds every scaled score down to a whole number."""
    if not g.scaled:
        return None
    return _carried_from_scores(g, _hidden(g, np.floor(_qkt(g) / _divisor(g))))


def scaled_though_not_asked(g):
    """QKᵀ divided by √d_k in a task without scaling."""
    return None if g.scaled else _carried_from_scores(g, _hidden(g, _qkt(g) / np.sqrt(g.d_k)))


def divided_by_d_k_though_not_asked(g):
    """QKᵀ divided by d_k in a task without scaling."""
    return None if g.scaled else _carried_from_scores(g, _hidden(g, _qkt(g) / g.d_k))


# ---------------------------------------------------------------- masking


def mask_ignored(g):
    """The scores left unmasked."""
    return None if g.mask is None else _carried_from_scores(g, _qkt(g) / _divisor(g))


def mask_inverted(g):
    """−∞ where the mask is True (the positions that may be attended) instead of where it is False
    (a row the mask lets see everything then sees nothing: NaN with −∞, equal weights with −1e9)."""
    return None if g.mask is None else _masked_with(g, ~g.mask)


def mask_upper(g):
    """A causal task masked with the upper triangle (the mask transposed): each position sees the future."""
    return _masked_with(g, g.mask.T) if _is_causal(g.mask) and len(g.mask) > 1 else None


def key_mask_on_queries(g):
    """A key mask (every row the same: which keys may be seen, as PyTorch's key_padding_mask) broadcast
    along the wrong axis, ``keep[:, None]`` for ``keep[None, :]``: it then masks whole query rows (the
    mask transposed). Only for a mask whose rows are all equal, not all True and not square-symmetric."""
    if g.mask is None or g.mask.ndim != 2 or g.mask.shape[0] != g.mask.shape[1] or g.mask.all():
        return None
    if not (g.mask == g.mask[:1]).all():
        return None
    return _masked_with(g, g.mask.T)


def mask_without_diagonal(g):
    """A causal task masked with the strict lower triangle: no position may see itself, and position 0
    sees no key at all (its row is NaN with −∞, equal weights with −1e9)."""
    return _masked_with(g, np.tril(g.mask, -1)) if _is_causal(g.mask) else None


def masked_with_zero(g):
    """0 instead of −∞ where the mask is False: exp(0) = 1 still gives those positions weight."""
    return None if g.mask is None else _carried_from_scores(g, np.where(g.mask, _qkt(g) / _divisor(g), 0.0))


def values_themselves(g):
    """O handed in as V itself (``A.sum(axis=1, keepdims=True) * V`` gives it too: each row of A sums to 1),
    where V has as many rows as there are queries."""
    if g.V is None or g.expected.shape != np.shape(g.V):
        return None
    return np.asarray(g.V)


def mask_added_as_numbers(g):
    """The boolean mask added to the scores as 0/1 numbers (``S + mask``, or ``S + ~mask``, or ``S + (1 - mask)``):
    a bounded shift of 1, where an additive mask holds 0 and −∞; every key keeps some weight. One ``Made``
    per way round."""
    if g.mask is None or g.mask.dtype != bool:
        return None
    S = _qkt(g) / _divisor(g)
    return [
        Made(_carried_from_scores(g, S + shift), {"added": added})
        for shift, added in ((g.mask.astype(float), "mask"), ((~g.mask).astype(float), "~mask"))
    ]


def mask_after_softmax(g):
    """softmax of the unmasked scores, then the masked weights set to 0: rows no longer sum to 1."""
    if g.mask is None:
        return None
    return _carried_from_weights(g, core.softmax(_qkt(g) / _divisor(g)) * g.mask)


# ---------------------------------------------------------------- softmax


def softmax_along_columns(g):
    """softmax down each column (axis −2) instead of along each row."""
    return _carried_from_weights(g, softmax_rows(_right_scores(g), axis=-2))


def normalized_down_the_columns(g):
    """Each row's maximum subtracted, but exp divided by its column sums (``E.sum(axis=0, keepdims=True)``):
    the columns sum to 1, as with softmax down the columns, though the rows were shifted right."""
    S = _right_scores(g)
    with np.errstate(all="ignore"):
        E = np.exp(S - S.max(axis=-1, keepdims=True))
        return _carried_from_weights(g, E / E.sum(axis=-2, keepdims=True))


def softmax_with_column_max(S, maxima_of=None):
    """The row-wise softmax with each column's maximum (axis −2) subtracted instead of each row's, as a
    learner writes it (``S - S.max(axis=0, keepdims=True)`` on 2-D scores, ``axis=1`` or ``axis=-2`` on a
    stack of heads; ``S.max(axis=0)`` without keepdims broadcasts the same way). ``maxima_of``: the scores
    the maxima are taken from, when they are not ``S`` itself (the unmasked scores, the maximum subtracted
    before masking). A row far below its columns' maxima underflows (every exp 0, then 0/0 = NaN): that row
    is NaN, as it is for the learner. None when a key column is masked in every row: its "maximum" is −∞,
    −∞ − (−∞) = NaN fills every row, and ``evidence.not_finite`` names that with its own words. A −1e9 mask
    gives the same numbers as −∞ whenever no key column is masked throughout (its maximum is a real score)."""
    maxima = (S if maxima_of is None else maxima_of).max(axis=-2, keepdims=True)
    if np.isneginf(maxima).any():
        return None
    E = np.exp(S - maxima)
    return E / E.sum(axis=-1, keepdims=True)


def column_max_fields(S, A):
    """The message fields of the column-max mistake, right for the learner's shape: the axis that runs down
    the columns as they would write it (``axis=0`` on 2-D scores, ``axis=1`` on (h, n_q, n_k)); for
    symmetric scores, that a row maximum taken without keepdims broadcasts into the same numbers; for
    weights ``A`` with a NaN row, where that NaN comes from."""
    symmetric = S.shape[-1] == S.shape[-2] and bool(np.array_equal(S, np.swapaxes(S, -1, -2)))
    also = msg("column_max_symmetric") if symmetric else ""
    also += "" if np.isfinite(A).all() else msg("column_max_underflow")
    return {"axis": f"axis={S.ndim - 2}", "also": also}


def max_down_the_columns(g):
    """softmax along the rows with each column's maximum subtracted instead of each row's: one number per
    column, so the entries of one row are shifted by different amounts and the weights change (one number
    for the whole row would leave them as they are). With a mask the order matters, as it does not for the
    row maximum: masked first, a column's maximum is over the queries that may see that key (−∞ never wins);
    the maximum taken before masking is over every query. Both are made. None where that makes the right
    answer (the column maxima all equal) or a key column is masked throughout (``softmax_with_column_max``),
    and for one query row, whose every score its column's maximum turns into 0 (``decoding`` names that with
    its own, hedged words: equal weights have other causes too)."""
    S = _right_scores(g)
    if S.shape[-2] == 1:
        return None
    made = [softmax_with_column_max(S)]
    if g.mask is not None:
        made.append(softmax_with_column_max(S, maxima_of=_unmasked_scores(g)))
    right = right_weights(g)
    return [
        Made(_carried_from_weights(g, A), column_max_fields(S, A))
        for A in made
        if A is not None and not np.allclose(A, right, rtol=1e-12, atol=1e-12)
    ]


def _column_max_agreeing_with(other):
    """The column max (``max_down_the_columns``) only where it makes the numbers of the mistake ``other`` too,
    to the checker's tolerance: the two then have the same evidence, and the message names both."""

    def made(g):
        """The column-max answers that are also ``other``'s numbers on this data (both mistakes named)."""
        theirs = other(g)
        return [mine for mine in max_down_the_columns(g) if same(mine.answer, np.asarray(theirs))]

    return made


# On 2 × 2 scores whose column maxima lie off the diagonal, row i gets the differences of column i: K·Qᵀ's.
max_down_the_columns_or_scores_transposed = _column_max_agreeing_with(scores_transposed)
# On scores far apart (exp leaves few entries that count), the row sums can be the column sums.
max_down_the_columns_or_along_them = _column_max_agreeing_with(softmax_along_columns)


def attention_with_column_max(Q, K, V, expected, then=None):
    """softmax(QKᵀ/√d_k)·V (on 2-D or stacked heads) with each column's maximum subtracted instead of each
    row's, then ``then`` applied (merging heads, ·W_O), for the steps of later lessons that build on
    attention: a ``Made`` for the message ``max_down_columns``, or None where it is the right answer
    (``expected``), a key column is masked throughout, or it is made from one query row (see
    ``max_down_the_columns``)."""
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    A = softmax_with_column_max(S)
    if A is None or S.shape[-2] == 1:
        return None
    made = A @ V if then is None else then(A @ V)
    return None if np.allclose(made, expected, rtol=1e-12, atol=1e-12) else Made(made, column_max_fields(S, A))


def keepdims_max_forgotten(g):
    """softmax with the row maximum taken without ``keepdims=True`` (the sum with it): on square scores the
    (n,) maxima broadcast along the wrong axis, so entry [i, j] has row j's maximum subtracted."""
    S = _right_scores(g)
    if S.shape[-1] != S.shape[-2]:
        return None
    E = np.exp(S - S.max(axis=-1)[..., None, :])
    return _carried_from_weights(g, E / E.sum(axis=-1, keepdims=True))


def keepdims_forgotten(g):
    """softmax with a row sum taken without ``keepdims=True``: on square scores the (n,) result broadcasts
    along the wrong axis (entry [i, j] gets row j's sum) instead of raising. Every usual way of writing it:
    the sum or both without keepdims, or no maximum and the sum without keepdims (the maximum alone:
    ``keepdims_max_forgotten``)."""
    S = _right_scores(g)
    if S.shape[-1] != S.shape[-2]:
        return None
    row_max, row_max_flat = S.max(axis=-1, keepdims=True), S.max(axis=-1)[..., None, :]
    candidates = []
    for shift, flat_sum in ((row_max, True), (row_max_flat, True), (0.0, True)):
        E = np.exp(S - shift)
        total = E.sum(axis=-1)[..., None, :] if flat_sum else E.sum(axis=-1, keepdims=True)
        candidates.append(_carried_from_weights(g, E / total))
    return candidates


def exp_not_divided(g):
    """exp of the scores, never divided by the row sums."""
    return _carried_from_weights(g, np.exp(_right_scores(g)))


def exp_over_row_max(g):
    """exp(S − row max), which is also exp(S) divided by each row's largest exp: the same numbers, two
    mistakes (the sum never taken, or the maximum taken in its place), so the message says both."""
    S = _right_scores(g)
    return _carried_from_weights(g, np.exp(S - S.max(axis=-1, keepdims=True)))


def divided_by_total(g):
    """exp of the scores divided by the sum of the whole matrix instead of each row's sum, the whole matrix's
    maximum subtracted (or none: the same numbers) or each row's own (4.3's stable softmax, then ``E.sum()``)."""
    S = _right_scores(g)
    made = []
    with np.errstate(all="ignore"):
        for shift in (S.max(), S.max(axis=-1, keepdims=True)):
            E = np.exp(S - shift)
            made.append(_carried_from_weights(g, E / E.sum(axis=(-1, -2), keepdims=True)))
    return made


def overflowed(g):
    """softmax without subtracting the row maximum, on scores whose exp overflows (e^1000 = ∞, ∞/∞ = NaN),
    as computed or with the NaN and ∞ "repaired" by ``np.nan_to_num`` (before or after dividing; not when
    that repair leaves only zeros). Only when these scores do overflow: that is the evidence."""
    S = _right_scores(g)
    if not (S > EXP_OVERFLOWS).any():
        return None
    E = np.exp(S)
    naive = E / E.sum(axis=-1, keepdims=True)
    E_repaired = np.nan_to_num(E)
    repaired_first = E_repaired / E_repaired.sum(axis=-1, keepdims=True)
    weights = (naive, *_repaired(naive, repaired_first))
    # A "repaired" form that is all zeros is no evidence of an overflow (``A * 0`` hands in the same):
    # that one is ``overflow_zeroed``, whose message says so.
    return [_carried_from_weights(g, A) for A in weights if not _all_zero(A)]


def _repaired(naive, repaired_first):
    return (np.nan_to_num(naive), repaired_first, np.nan_to_num(repaired_first))


def _all_zero(A):
    return np.isfinite(A).all() and not A.any()


def overflow_zeroed(g):
    """Every weight 0: what ``np.nan_to_num`` leaves of an overflowing softmax on these scores, but also what
    any answer times 0 is; its message names the overflow as one possible cause, not as the cause."""
    S = _right_scores(g)
    if not (S > EXP_OVERFLOWS).any():
        return None
    with np.errstate(all="ignore"):
        E = np.exp(S)
        naive = E / E.sum(axis=-1, keepdims=True)
        E_repaired = np.nan_to_num(E)
        repaired_first = E_repaired / E_repaired.sum(axis=-1, keepdims=True)
    zeros = [A for A in _repaired(naive, repaired_first) if _all_zero(A)]
    return _carried_from_weights(g, zeros[0]) if zeros else None


def no_softmax(g):
    """The scores handed in as weights (as scaled; unmasked, since masking comes with softmax)."""
    return _unmasked_scores(g)


def masked_scores_as_weights(g):
    """The masked scores (−∞ where the mask is False) handed in as weights: softmax forgotten."""
    return None if g.mask is None else _hidden(g, _qkt(g) / _divisor(g))


def no_softmax_nor_scaling(g):
    """QKᵀ itself handed in as weights."""
    return _qkt(g)


# ---------------------------------------------------------------- the weighted sum A·V


def weights_transposed(g):
    """Aᵀ·V: the weights of key j taken as the weights of query j."""
    return np.swapaxes(g.A, -1, -2) @ g.V


def output_of_transposed_weights(g):
    """Aᵀ·V with A the right weights (the output step): runs only when A is square."""
    A = right_weights(g)
    return None if A.shape[-1] != A.shape[-2] else np.swapaxes(A, -1, -2) @ g.V


def scaled_after_softmax(g):
    """softmax of the unscaled scores times V, then divided by √d_k: the scale applied to the output."""
    if not g.scaled or g.A is not None:
        return None
    return core.softmax(_hidden(g, _qkt(g))) @ g.V / np.sqrt(g.d_k)


def used_keys_as_values(g):
    """The weights times K instead of V."""
    return None if g.K is None else right_weights(g) @ g.K


def _before_the_change(g):
    """4.4's Q and K as they were before key ``g.key`` was multiplied by ``g.factor`` (the givens hold K after
    it), or None when the task changes no key."""
    if g.key is None or g.factor is None or g.Q is None or g.K is None or g.mask is not None or not g.factor:
        return None
    K = np.array(g.K, dtype=float)
    K[g.key] /= g.factor
    return np.array(g.Q, dtype=float), K


def _weights_of(g, Q, K):
    return softmax_rows(Q @ np.swapaxes(K, -1, -2) / _divisor(g))


def another_key_scaled(g):
    """Another key than ``g.key`` multiplied by the factor (a row number counted from 1). One ``Made`` per key,
    naming it."""
    before = _before_the_change(g)
    if before is None:
        return None
    Q, K = before
    made = []
    for j in range(len(K)):
        if j != g.key:
            changed = K.copy()
            changed[j] *= g.factor
            word = msg("token", token=g.tokens[j]) if len(g.tokens) == len(K) else ""
            made.append(Made(_weights_of(g, Q, changed), {"j": j, "word": word}))
    return made


def key_scaled_by_another_factor(g):
    """Key ``g.key`` multiplied by another factor than the task's (×3 for ×2). One ``Made`` per factor, naming it."""
    before = _before_the_change(g)
    if before is None:
        return None
    Q, K = before
    made = []
    for factor in (3.0, 4.0, 0.5, 1.5, 10.0, -2.0):
        if factor != g.factor:
            changed = K.copy()
            changed[g.key] *= factor
            made.append(Made(_weights_of(g, Q, changed), {"f": f"{factor:g}"}))
    return made


def query_scaled_instead(g):
    """Query ``g.key`` multiplied by the factor instead of the key of that row."""
    before = _before_the_change(g)
    if before is None:
        return None
    Q, K = before
    Q[g.key] *= g.factor
    return _weights_of(g, Q, K)


def keys_and_values_swapped(g):
    """K and V swapped throughout: softmax(QVᵀ/√d_k)·K (possible only when d_v = d_k and the masks fit)."""
    if g.K is None or g.V is None or g.V.shape[-1] != g.Q.shape[-1] or g.mask is not None:
        return None
    return softmax_rows(g.Q @ np.swapaxes(g.V, -1, -2) / _divisor(g)) @ g.K


def used_scores_as_weights(g):
    """The scores times V: softmax forgotten."""
    S = _unmasked_scores(g)
    return None if S is None else S @ g.V


def used_unscaled_scores_as_weights(g):
    """QKᵀ times V: softmax and scaling forgotten."""
    return _qkt(g) @ g.V


def weights_not_normalized(g):
    """exp of the scores times V: exp taken, but not divided by each row's sum."""
    return np.exp(_hidden(g, _qkt(g) / _divisor(g))) @ g.V


# ---------------------------------------------------------------- the causal mask


def causal_mask_inverted(g):
    """True for the future, False for the past and the position itself."""
    return ~g.expected


def upper_triangle(g):
    """The upper triangle instead of the lower one (the mask transposed)."""
    return np.swapaxes(g.expected, -1, -2)


def diagonal_left_out(g):
    """The strict lower triangle: a position may not attend to itself."""
    return np.tril(g.expected, -1)


def all_true(g):
    """Everything may be attended: no mask at all."""
    return np.ones_like(g.expected)
