"""Gradients through the five steps (for the lesson on learning W_Q, W_K, W_V)."""

import numpy as np


def softmax_jacobian(a):
    """Jacobian of softmax at output ``a`` (a row of weights, shape (n,)): J[i, j] = ∂a_i/∂s_j
    = a_i (δ_ij − a_j). Near one-hot, every entry goes to 0: the gradient vanishes."""
    a = np.asarray(a, dtype=float)
    return np.diag(a) - np.outer(a, a)
