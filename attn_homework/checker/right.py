"""What is right: each step's right answer (computed with attn_core's own functions, the course's
reference), where that answer is masked, and the rules every right answer keeps.

A rule is checked only after every known mistake and the shape: it catches a hand-made answer that
breaks it (a row of weights that does not sum to 1, a masked weight that is not 0) and says where.
"""

import numpy as np

from attn_core import _validate as v
from attn_core import core

from .compare import ATOL, RTOL, tolerance

# ---------------------------------------------------------------- the right answers (g: Givens -> array)


def projection(g):
    """X·W."""
    return v.linear(g.X, g.W, "X", "W")


def scores(g):
    """QKᵀ, divided by √d_k when the task scales, −∞ where the mask is False."""
    S = core.scores(g.Q, g.K)
    S = core.scale(S, g.d_k) if g.scaled else S
    return S if g.mask is None else core.apply_mask(S, g.mask)


def weights(g):
    """softmax of each row of the scores."""
    return core.softmax(scores(g))


def output(g):
    """The weights times V."""
    return core.weighted_sum(weights(g), g.V)


def softmax_of_given_scores(g):
    """softmax of each row of the given S."""
    return core.softmax(g.S)


def weighted_sum_of_given_weights(g):
    """The given A times V."""
    return core.weighted_sum(g.A, g.V)


def causal_mask(g):
    """The n × n lower triangle, diagonal included."""
    return core.causal_mask(g.n)


# ---------------------------------------------------------------- where the answer is masked (Givens.unmasked)


def nothing_masked(g):
    """No entry of the answer is masked (or masking does not show entry by entry, as in O)."""
    return None


def where_the_mask_allows(g):
    """The mask, spread over the answer's shape: True where a score stays finite and a weight may be > 0."""
    return None if g.mask is None else np.broadcast_to(g.mask, g.expected.shape)


def where_scores_are_finite(g):
    """The given scores that are not −∞: only there may a weight be > 0."""
    return ~np.isneginf(g.S) if np.isneginf(g.S).any() else None


# ---------------------------------------------------------------- rules: (answer, g) -> where it breaks, or None


def negative_weight(a, g):
    """A weight below 0 (softmax gives e^s over a positive sum: never negative)."""
    bad = a < -tolerance(g.expected)
    return tuple(np.argwhere(bad)[0]) if bad.any() else None


def row_not_summing_to_1(a, g):
    """A row of weights whose sum is not 1 (the index names the row)."""
    bad = ~np.isclose(a.sum(axis=-1), 1.0, rtol=RTOL, atol=1e-6)
    return tuple(np.argwhere(bad)[0]) if bad.any() else None


def masked_weight_not_zero(a, g):
    """A masked position with a weight other than 0."""
    if g.unmasked is None:
        return None
    bad = ~g.unmasked & ~np.isclose(a, 0.0, rtol=0, atol=ATOL)
    return tuple(np.argwhere(bad)[0]) if bad.any() else None


def masked_score_not_minus_infinity(a, g):
    """A masked score other than −∞ (0, −1e9, …), in scores that are right everywhere else."""
    if (
        g.unmasked is None
        or not np.isclose(a[g.unmasked], g.expected[g.unmasked], rtol=RTOL, atol=tolerance(g.expected)).all()
    ):
        return None
    bad = ~g.unmasked & ~np.isneginf(a)
    return tuple(np.argwhere(bad)[0]) if bad.any() else None
