"""The online softmax (lesson 9) over two blocks of keys: the right running quantities and the known
mistakes. The givens are the (scaled) scores of the two blocks, S1 and S2 (n_q × b each), and their
values V1, V2 (b × d_v each). For every query row:

    after block 1   m1 = max of the row of S1 (n_q × 1),  l1 = Σ exp(S1 − m1),  acc1 = exp(S1 − m1)·V1
    after block 2   m2 = max(m1, max of the row of S2),   r = exp(m1 − m2)
                    l2 = l1·r + Σ exp(S2 − m2),          acc2 = acc1·r + exp(S2 − m2)·V2
    output          O = acc2 / l2  =  softmax([S1 S2])·[V1; V2]   (dense attention, exactly)

The mistakes are the ones lesson 9 warns about: the old sums not rescaled by exp(m_old − m_new), dividing
by l before the last block, the maximum taken over the wrong axis (down the columns).
"""

import numpy as np

from .mistakes import softmax_rows

# ---------------------------------------------------------------- the running quantities, right and wrong


def _row_max(S):
    return S.max(axis=-1, keepdims=True)


def _column_max(S):
    """The maximum down each column (the wrong axis), kept as a row that broadcasts."""
    return S.max(axis=-2, keepdims=True)


def _state(g, max_of=_row_max, rescale=True, running=True, backwards=False):
    """(m, l, acc) after both blocks, the way a learner with these habits computes them."""
    m1 = max_of(g.S1)
    P1 = np.exp(g.S1 - m1)
    m2 = np.maximum(m1, max_of(g.S2)) if running else max_of(g.S2)
    P2 = np.exp(g.S2 - m2)
    r = (np.exp(m2 - m1) if backwards else np.exp(m1 - m2)) if rescale else 1.0
    l2 = P1.sum(axis=-1, keepdims=True) * r + P2.sum(axis=-1, keepdims=True)
    acc2 = None if g.V1 is None else (P1 @ g.V1) * r + P2 @ g.V2  # the l2 steps take no values
    return m2, l2, acc2


# ---------------------------------------------------------------- right answers


def first_max(g):
    """m1: the largest score of each row of block 1, as a column (n_q × 1)."""
    return _row_max(g.S1)


def first_sum(g):
    """l1: the sum of exp(score − m1) over each row of block 1 (n_q × 1)."""
    return np.exp(g.S1 - _row_max(g.S1)).sum(axis=-1, keepdims=True)


def second_sum(g):
    """l2: l1 re-expressed against the new maximum m2, plus the sum of exp(S2 − m2) (n_q × 1)."""
    return _state(g)[1]


def second_acc(g):
    """acc2: acc1 re-expressed against m2, plus exp(S2 − m2)·V2 (n_q × d_v)."""
    return _state(g)[2]


def output(g):
    """O = acc2 / l2, which is dense attention over both blocks."""
    _, l2, acc2 = _state(g)
    return acc2 / l2


# ---------------------------------------------------------------- the maximum


def max_down_columns(g):
    """The maximum of each column of S1 (axis 0), with or without keepdims."""
    return [_column_max(g.S1), g.S1.max(axis=-2)]


def max_without_keepdims(g):
    """The row maxima as a flat (n_q,) vector: right numbers, but they no longer broadcast along rows."""
    return g.S1.max(axis=-1)


def mean_not_max(g):
    """The mean of each row instead of its maximum."""
    return g.S1.mean(axis=-1, keepdims=True)


def min_not_max(g):
    """The smallest score of each row (``min``) instead of the largest."""
    return g.S1.min(axis=-1, keepdims=True)


def max_of_whole_block(g):
    """One maximum for the whole block instead of one per row."""
    return g.S1.max()


# ---------------------------------------------------------------- the first sum


def sum_not_shifted(g):
    """Σ exp(S1) without subtracting m1: l is then measured against 0, not against m1."""
    return np.exp(g.S1).sum(axis=-1, keepdims=True)


def sum_with_column_max(g):
    """Σ exp(S1 − m) with m the maximum down each column (the wrong axis)."""
    return np.exp(g.S1 - _column_max(g.S1)).sum(axis=-1, keepdims=True)


def sum_with_block_max(g):
    """Σ exp(S1 − m) with m the one maximum of the whole block, not each row's: l is then measured against a
    number that is not m1."""
    return np.exp(g.S1 - g.S1.max()).sum(axis=-1, keepdims=True)


def sum_down_columns(g):
    """exp(S1 − m1) summed down each column (axis 0) instead of along each row."""
    return np.exp(g.S1 - _row_max(g.S1)).sum(axis=-2, keepdims=True)


def sum_without_keepdims(g):
    """The row sums as a flat (n_q,) vector."""
    return np.exp(g.S1 - _row_max(g.S1)).sum(axis=-1)


# ---------------------------------------------------------------- after the second block: l2 and acc2 alike
# Each mistake returns (l2, acc2) as that learner computes them; the step takes the one it checks.


def not_rescaled(g):
    """The old sums added as they are, never multiplied by exp(m1 − m2)."""
    return _state(g, rescale=False)[1:]


def rescaled_backwards(g):
    """The old sums multiplied by exp(m2 − m1) instead of exp(m1 − m2)."""
    return _state(g, backwards=True)[1:]


def maximum_not_running(g):
    """m2 taken from block 2 alone instead of max(m1, block 2's maximum): it must be the largest score seen
    so far. (The same as the right answer in a row whose block 2 has the larger maximum.)"""
    return _state(g, running=False)[1:]


def columns_maximum(g):
    """Both maxima taken down the columns (axis 0) instead of along each row."""
    return _state(g, max_of=_column_max)[1:]


def never_shifted(g):
    """No maximum subtracted at all: Σ exp(S) and exp(S)·V over both blocks (measured against 0, not m2)."""
    return (
        np.exp(g.S1).sum(axis=-1, keepdims=True) + np.exp(g.S2).sum(axis=-1, keepdims=True),
        None if g.V1 is None else np.exp(g.S1) @ g.V1 + np.exp(g.S2) @ g.V2,
    )


def old_sums_dropped(g):
    """Only block 2 counted: the first block's sums forgotten."""
    P2 = np.exp(g.S2 - np.maximum(_row_max(g.S1), _row_max(g.S2)))
    return P2.sum(axis=-1, keepdims=True), None if g.V2 is None else P2 @ g.V2


def new_block_forgotten(g, rescale=True):
    """Only block 1 counted, its sums rescaled to m2: block 2's exp(S2 − m2) never added."""
    m1 = _row_max(g.S1)
    factor = np.exp(m1 - np.maximum(m1, _row_max(g.S2))) if rescale else 1.0
    P1 = np.exp(g.S1 - m1)
    return factor * P1.sum(axis=-1, keepdims=True), None if g.V1 is None else factor * (P1 @ g.V1)


def new_block_forgotten_unrescaled(g):
    """Only block 1 counted, as it was after block 1 (acc1, l1): block 2 never added."""
    return new_block_forgotten(g, rescale=False)


def of_sum(mistake):
    """The l2 that ``mistake`` makes (a function of g, named and documented after it)."""
    return _taking(mistake, 0, "l2")


def of_acc(mistake):
    """The acc2 that ``mistake`` makes."""
    return _taking(mistake, 1, "acc2")


def _taking(mistake, index, quantity):
    def taken(g):
        return mistake(g)[index]

    taken.__name__ = f"{mistake.__name__}_{quantity}"
    taken.__doc__ = f"{quantity}, when: {mistake.__doc__}"
    return taken


# ---------------------------------------------------------------- the output


def divided_early(g):
    """acc divided by l after block 1 (O1 = acc1 / l1), then carried on as if it were acc and divided by
    l2 again at the end: dividing before the last block."""
    m1 = _row_max(g.S1)
    P1 = np.exp(g.S1 - m1)
    l1 = P1.sum(axis=-1, keepdims=True)
    m2, l2, _ = _state(g)
    P2 = np.exp(g.S2 - m2)
    r = np.exp(m1 - m2)
    return ((P1 @ g.V1) / l1 * r + P2 @ g.V2) / l2


def not_divided(g):
    """acc2 handed in: never divided by l2."""
    return _state(g)[2]


def output_not_rescaled(g):
    """acc2 / l2 with neither rescaled by exp(m1 − m2)."""
    _, l2, acc2 = _state(g, rescale=False)
    return acc2 / l2


def blocks_averaged(g):
    """Each block's attention computed on its own (softmax within the block) and the two outputs averaged."""
    return (softmax_rows(g.S1) @ g.V1 + softmax_rows(g.S2) @ g.V2) / 2


def max_of_both_blocks(g):
    """m1 taken over both blocks (that is m2): block 2's scores used before they are seen."""
    if g.S2 is None:
        return None
    return np.maximum(_row_max(g.S1), _row_max(g.S2))


def sum_with_both_blocks_max(g):
    """l1 measured against the maximum over both blocks (m2): block 2's scores used before they are seen."""
    if g.S2 is None:
        return None
    return np.exp(g.S1 - max_of_both_blocks(g)).sum(axis=-1, keepdims=True)


def softmax_down_the_columns(g):
    """Dense attention over both blocks with softmax along axis 0 (each column of weights sums to 1)."""
    return softmax_rows(np.concatenate([g.S1, g.S2], axis=-1), axis=-2) @ np.concatenate([g.V1, g.V2], axis=-2)


def blocks_added(g):
    """Each block's attention computed on its own and the two outputs added."""
    return softmax_rows(g.S1) @ g.V1 + softmax_rows(g.S2) @ g.V2


def first_block_only(g):
    """Attention over block 1 alone: block 2 never taken in."""
    return softmax_rows(g.S1) @ g.V1


def last_block_only(g):
    """Attention over block 2 alone."""
    return softmax_rows(g.S2) @ g.V2
