"""Predict-then-run tasks: the learner commits to one number (a count, a width, an index) before the cell
that shows it. The right number is computed from the givens, as every right answer is, and each known
wrong prediction is recomputed too (a mistake returns None when it would be the right number or cannot
arise), so that its message can explain why it is tempting and where the reasoning goes wrong, without
giving the right number away.
"""

import numpy as np

from attn_core import core

from .mistakes import Made, softmax_rows


def _number(x):
    return np.asarray(float(x))


def _other(g, x):
    """``x`` as a wrong prediction: None when it is the right number (then it is no mistake here)."""
    return None if x is None or float(x) == float(g.expected) else _number(x)


# ---------------------------------------------------------------- which key gets the most weight


def _weights_row(g, K):
    return core.softmax(core.scores(g.Q, K) / np.sqrt(g.d_k))[g.row]


def _changed_keys(g):
    K = g.K.copy()
    K[g.key] *= g.factor
    return K


def top_key(g):
    """The key that row ``row`` gives the most weight to, once key ``key`` is multiplied by ``factor``."""
    return _number(np.argmax(_weights_row(g, _changed_keys(g))))


def top_before_change(g):
    """The key that had the most weight before the change."""
    return _other(g, np.argmax(_weights_row(g, g.K)))


def the_changed_key(g):
    """The key that was changed."""
    return _other(g, g.key)


# ---------------------------------------------------------------- the width of O


def output_width(g):
    """O = A·V has one column per feature of a value: d_v."""
    return _number(g.V.shape[-1])


def width_n_k(g):
    """n_k, the number of keys (the width of A)."""
    return _other(g, g.K.shape[-2])


def width_d_k(g):
    """d_k, the width of the queries and keys."""
    return _other(g, g.K.shape[-1])


def width_n_q(g):
    """n_q, the number of queries (the number of rows of O)."""
    return _other(g, g.Q.shape[-2])


# ---------------------------------------------------------------- what a row of masked weights sums to


def masked_row_sum(g):
    """What row ``row`` of softmax(masked scores) adds up to: 1, as every row of weights."""
    S = np.where(g.mask, core.scores(g.Q, g.K) / np.sqrt(g.d_k), -np.inf)
    return _number(core.softmax(S)[g.row].sum())


def sum_when_masked_after_softmax(g):
    """What the row would add up to if the mask were applied after softmax (the allowed weights only)."""
    A = softmax_rows(core.scores(g.Q, g.K) / np.sqrt(g.d_k))
    return _other(g, (A * g.mask)[g.row].sum())


def count_of_visible_keys(g):
    """The number of keys the row may see, or that number as a share of all keys."""
    visible = int(g.mask[g.row].sum())
    return [x for x in (_other(g, visible), _other(g, visible / g.mask.shape[-1])) if x is not None]


# ---------------------------------------------------------------- the number under the square root in one head


def head_width(g):
    """d_head = d_model / n_heads: each head's dot products have that many terms."""
    return _number(g.d_model // g.n_heads)


def under_root_d_model(g):
    """d_model, the width of the whole projection."""
    return _other(g, g.d_model)


def under_root_n_heads(g):
    """The number of heads."""
    return _other(g, g.n_heads)


def under_root_n(g):
    """The number of positions."""
    return _other(g, g.n)


def the_root_itself(g):
    """√d_head, the divisor itself instead of the number under the root (√2 = 1.414… too: that is not a
    whole number, and it is named before "not a whole number", as what it is)."""
    return _other(g, np.sqrt(g.d_model // g.n_heads))


# ---------------------------------------------------------------- the factor of the online softmax


def _maxima(g, row=None):
    row = g.row if row is None else row
    return g.S1[row].max(), g.S2[row].max()


def _factor(g, row=None):
    m_old, block_max = _maxima(g, row)
    return np.exp(m_old - max(m_old, block_max))


def rescale_factor(g):
    """exp(m_old − m_new) for row ``row`` after block 2, m_new = max(m_old, block 2's maximum)."""
    return _number(_factor(g))


def factor_of_another_row(g):
    """The right factor of another row: the right reasoning read off the wrong row."""
    made = ((r, _other(g, _factor(g, r))) for r in range(g.S1.shape[0]) if r != g.row)
    return [Made(x, {"r": r, "row": g.row}) for r, x in made if x is not None]


def old_sums_dropped(g):
    """0: as if the old sums were thrown away."""
    return _other(g, 0.0)


def against_block_maximum(g):
    """exp(block maximum − m_old) (or its inverse): the factor measured against block 2's own maximum."""
    m_old, block_max = _maxima(g)
    return [x for x in (_other(g, np.exp(block_max - m_old)), _other(g, np.exp(m_old - block_max))) if x is not None]


# ---------------------------------------------------------------- what a row of dS sums to


def grad_row_sum(g):
    """Σ_j dS[row, j]: 0, since adding one number to a whole row of scores changes no weight."""
    dS = g.A * (g.dA - (g.dA * g.A).sum(axis=-1, keepdims=True))
    return _number(dS[g.row].sum())


def one_like_the_weights(g):
    """1, as the row of weights sums to."""
    return _other(g, 1.0)


def sum_of_dA(g):
    """The sum of the row of dA, as if softmax passed gradients through unchanged."""
    return _other(g, round(float(g.dA[g.row].sum()), 6))


# ---------------------------------------------------------------- how many rows the FFN changes


def _ffn(g, H):
    return np.maximum(H @ g.W1 + g.b1, 0.0) @ g.W2 + g.b2


def rows_changed(g):
    """How many rows of FFN(H) change when row ``row`` of H is multiplied by ``factor``: the FFN treats
    each row on its own."""
    H = g.H.copy()
    H[g.row] *= g.factor
    return _number((~np.isclose(_ffn(g, H), _ffn(g, g.H)).all(axis=-1)).sum())


def every_row(g):
    """Every row, as after attention, which mixes positions."""
    return _other(g, g.H.shape[-2])


def no_row(g):
    """None at all."""
    return _other(g, 0)
