"""The known mistakes, one function each: ``mistake(g)`` recomputes, from the givens ``g``, the array a
learner who makes that mistake hands in, or returns None when the mistake cannot be made with these
givens (no mask to forget, a task that does not scale, …). A mistake that raises (its matrix product
does not fit these shapes) cannot be made either: the checker treats that as None.

Which mistakes a step tries, in which order, with which code and message: the tables in ``steps``.

A mistake of scaled dot-product attention is made on the way to the scores or the weights and carried
on to the step being checked (``g.stage``): the scores step sees the wrong scores, the weights step
their softmax, the output step that times V. So ``unscaled`` serves all three.
"""

import numpy as np

from ... import core
from .givens import Stage

# ---------------------------------------------------------------- carrying a mistake on to the step's answer


def _carried_from_scores(g, S):
    """The step's answer computed on from (wrong) scores S: S itself, softmax(S) or softmax(S)·V."""
    if g.stage is Stage.SCORES:
        return S
    A = core.softmax(S)
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


def _right_weights(g):
    """The weights the step starts from: the given A, else softmax of the right scores."""
    return g.A if g.A is not None else core.softmax(_right_scores(g))


# ---------------------------------------------------------------- any step


def answer_transposed(g):
    """The right answer, transposed (its last two axes swapped)."""
    return np.swapaxes(g.expected, -1, -2)


# ---------------------------------------------------------------- projection X·W


def weight_transposed(g):
    """X times W transposed (possible only when W is square)."""
    return g.X @ np.swapaxes(g.W, -1, -2)


# ---------------------------------------------------------------- scores QKᵀ and their scaling


def scores_transposed(g):
    """K·Qᵀ instead of Q·Kᵀ: rows belong to keys, columns to queries."""
    return _carried_from_scores(g, _hidden(g, core.scores(g.K, g.Q) / _divisor(g)))


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
    """−∞ where the mask is True (the positions that may be attended) instead of where it is False."""
    return None if g.mask is None else _carried_from_scores(g, np.where(~g.mask, _qkt(g) / _divisor(g), -np.inf))


def masked_with_zero(g):
    """0 instead of −∞ where the mask is False: exp(0) = 1 still gives those positions weight."""
    return None if g.mask is None else _carried_from_scores(g, np.where(g.mask, _qkt(g) / _divisor(g), 0.0))


def mask_after_softmax(g):
    """softmax of the unmasked scores, then the masked weights set to 0: rows no longer sum to 1."""
    if g.mask is None:
        return None
    return _carried_from_weights(g, core.softmax(_qkt(g) / _divisor(g)) * g.mask)


# ---------------------------------------------------------------- softmax


def softmax_along_columns(g):
    """softmax down each column (axis −2) instead of along each row."""
    return _carried_from_weights(g, core.softmax(_right_scores(g), axis=-2))


def no_softmax(g):
    """The scores handed in as weights (as scaled; unmasked, since masking comes with softmax)."""
    return _unmasked_scores(g)


def no_softmax_nor_scaling(g):
    """QKᵀ itself handed in as weights."""
    return _qkt(g)


# ---------------------------------------------------------------- the weighted sum A·V


def weights_transposed(g):
    """Aᵀ·V: the weights of key j taken as the weights of query j."""
    return np.swapaxes(g.A, -1, -2) @ g.V


def used_keys_as_values(g):
    """The weights times K instead of V."""
    return None if g.K is None else _right_weights(g) @ g.K


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
