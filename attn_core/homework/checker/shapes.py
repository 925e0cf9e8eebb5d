"""Wrong shapes that a usual mistake produces, one function each: ``shape(g)`` is that shape for the
givens ``g`` (None, or raising, when it cannot arise). An answer of that shape gets the hint the step's
table pairs with it ("That is the shape of Q: perhaps an element-wise *")."""

import numpy as np


def transposed(g):
    """The right answer's shape with its last two axes swapped."""
    return np.swapaxes(g.expected, -1, -2).shape


def of_X(g):
    """X itself: the product with W left out."""
    return g.X.shape


def of_X_transposed(g):
    """Xᵀ: a transposed input."""
    return np.swapaxes(g.X, -1, -2).shape


def of_Q(g):
    """Q's shape: an element-wise Q * K, or Q·K with K not transposed."""
    return g.Q.shape


def features_by_features(g):
    """d_k × d_k: Qᵀ·K compares features, not tokens."""
    return g.Q.shape[:-2] + (g.Q.shape[-1],) * 2


def of_weights(g):
    """The weights' shape (n_q × n_k): V left out."""
    return g.A.shape if g.A is not None else g.expected.shape[:-1] + (g.K.shape[-2],)


def as_wide_as_K(g):
    """n_q × d_k: the weights times K instead of V."""
    return None if g.K is None else g.expected.shape[:-1] + (g.K.shape[-1],)
