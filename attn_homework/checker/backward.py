"""Gradients through attention (lesson 10): the right answers and the known mistakes of the backward
pass, step by step from dO = dL/dO (a bar in the lesson, a ``d`` here):

    O = A·V            dV = Aᵀ·dO  (n_k × d_v),   dA = dO·Vᵀ  (n_q × n_k)
    A = softmax(S)     dS = A ⊙ (dA − rowsum(dA ⊙ A))   (the softmax Jacobian, row by row)
    S = QKᵀ/√d_k       dQ = dS·K / √d_k,   dK = dSᵀ·Q / √d_k

The mistakes are the ones lesson 10 warns about: transposes, dS = dA (the Jacobian forgotten), the
factor 1/√d_k forgotten (or applied the wrong way).
"""

import numpy as np

from attn_core import gradients


def _t(M):
    return np.swapaxes(M, -1, -2)


# ---------------------------------------------------------------- right answers


def grad_V(g):
    """dV = Aᵀ·dO."""
    return _t(g.A) @ g.dO


def grad_A(g):
    """dA = dO·Vᵀ."""
    return g.dO @ _t(g.V)


def grad_S(g):
    """dS = A ⊙ (dA − rowsum(dA ⊙ A)), the softmax Jacobian applied row by row."""
    return gradients.softmax_backward(g.A, g.dA)


def grad_Q(g):
    """dQ = dS·K / √d_k."""
    return g.dS @ g.K / np.sqrt(g.d_k)


def grad_K(g):
    """dK = dSᵀ·Q / √d_k."""
    return _t(g.dS) @ g.Q / np.sqrt(g.d_k)


# ---------------------------------------------------------------- dV and dA


def dV_without_transpose(g):
    """A·dO: A not transposed (possible only when n_q = n_k)."""
    return g.A @ g.dO


def dA_without_transpose(g):
    """dO·V: V not transposed (possible only when d_v = n_k)."""
    return g.dO @ g.V


# ---------------------------------------------------------------- dS through softmax


def jacobian_forgotten(g):
    """dS = dA: softmax passed through as if its Jacobian were the identity."""
    return g.dA


def jacobian_diagonal_only(g):
    """Only the diagonal of each row's Jacobian, a_i(1 − a_i): dS = A ⊙ (1 − A) ⊙ dA."""
    return g.A * (1 - g.A) * g.dA


def jacobian_first_term_only(g):
    """Only the first term: dS = A ⊙ dA (the − a_i·a_j part, how one weight's rise lowers the others, forgotten)."""
    return g.A * g.dA


def jacobian_without_A(g):
    """dA − rowsum(dA ⊙ A), never multiplied by A."""
    return g.dA - (g.dA * g.A).sum(axis=-1, keepdims=True)


def jacobian_sign(g):
    """The two terms the wrong way round: A ⊙ (rowsum(dA ⊙ A) − dA)."""
    return -grad_S(g)


def jacobian_columns(g):
    """The sum taken down each column (axis 0) instead of along each row."""
    return g.A * (g.dA - (g.dA * g.A).sum(axis=-2, keepdims=True))


def jacobian_keepdims(g):
    """The row sums taken without keepdims: on a square A they broadcast along the wrong axis."""
    if g.A.shape[-1] != g.A.shape[-2]:
        return None
    return g.A * (g.dA - (g.dA * g.A).sum(axis=-1)[..., None, :])


# ---------------------------------------------------------------- dQ and dK: the scale


def dQ_unscaled(g):
    """dS·K: the factor 1/√d_k forgotten."""
    return g.dS @ g.K


def dQ_scaled_by_d_k(g):
    """dS·K / d_k instead of / √d_k."""
    return g.dS @ g.K / g.d_k


def dQ_multiplied(g):
    """dS·K · √d_k: multiplied instead of divided."""
    return g.dS @ g.K * np.sqrt(g.d_k)


def dQ_with_K_transposed(g):
    """dS·Kᵀ / √d_k (possible only when K is square)."""
    return g.dS @ _t(g.K) / np.sqrt(g.d_k)


def dK_unscaled(g):
    """dSᵀ·Q: the factor 1/√d_k forgotten."""
    return _t(g.dS) @ g.Q


def dK_scaled_by_d_k(g):
    """dSᵀ·Q / d_k instead of / √d_k."""
    return _t(g.dS) @ g.Q / g.d_k


def dK_multiplied(g):
    """dSᵀ·Q · √d_k: multiplied instead of divided."""
    return _t(g.dS) @ g.Q * np.sqrt(g.d_k)


def dK_without_transpose(g):
    """dS·Q / √d_k: dS not transposed (possible only when n_q = n_k)."""
    return g.dS @ g.Q / np.sqrt(g.d_k)
