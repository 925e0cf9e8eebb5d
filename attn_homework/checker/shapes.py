"""Wrong shapes, and what an answer of a wrong shape is evidence of.

A shape alone is weak evidence: a 4 × 4 array handed in for 3 × 5 scores may be the previous task's
answer, not a "features × features" product. So a hint that names a cause (``ShapeHint.made``) is given
only when the answer's numbers are what that cause makes (the numbers of X itself, of Q·K elementwise, of
Qᵀ·K, …); a hint without ``made`` may only state a fact about the shape (it is the transposed shape).

Each function below is either a shape (``shape(g)``: the shape that arises, None or raising when it
cannot) or what a mistake makes (``made(g)``: an array, or several).
"""

import numpy as np

from .mistakes import right_weights

# ---------------------------------------------------------------- shapes


def transposed(g):
    """The right answer's shape with its last two axes swapped."""
    return np.swapaxes(g.expected, -1, -2).shape


def of_X_transposed(g):
    """Xᵀ: a transposed input."""
    return np.swapaxes(g.X, -1, -2).shape


def of_X(g):
    """X itself: the product with W left out."""
    return g.X.shape


def of_Q(g):
    """Q's shape: an element-wise Q * K, or Q·K with K not transposed."""
    return g.Q.shape


def features_by_features(g):
    """d_k × d_k: Qᵀ·K compares features, not tokens."""
    return g.Q.shape[:-2] + (g.Q.shape[-1],) * 2


def of_weights(g):
    """The weights' shape (n_q × n_k): V left out."""
    return g.A.shape if g.A is not None else g.expected.shape[:-1] + (g.K.shape[-2],)


def without_its_column(g):
    """The right (n_q × 1) column as a flat (n_q,) vector: keepdims forgotten."""
    return g.expected.shape[:-1]


def of_block_1(g):
    """One number per score of block 1 (n_q × n_k): a column maximum or sum broadcast against a column."""
    return g.S1.shape


def of_block_2(g):
    """One number per score of block 2 (n_q × n_k)."""
    return g.S2.shape


# ---------------------------------------------------------------- what the mistake behind a shape makes


def x_itself(g):
    """X handed in unchanged."""
    return g.X


def elementwise_qk(g):
    """Q * K, element by element (possible only when they have the same shape), scaled or not."""
    product = g.Q * g.K
    return [product, product / np.sqrt(g.d_k)]


def qt_k(g):
    """Qᵀ·K (d_k × d_k), scaled or not."""
    product = np.swapaxes(g.Q, -1, -2) @ g.K
    return [product, product / np.sqrt(g.d_k)]


def x_transposed(g):
    """Xᵀ handed in: a transposed input, W left out."""
    return np.swapaxes(g.X, -1, -2)


def the_weights(g):
    """The right weights, V never multiplied in."""
    return right_weights(g)
