"""Gradients through the five steps (for the lesson on learning W_Q, W_K, W_V).

Forward (``core.self_attention``) and backward, step by step; a bar means "gradient of the loss L":

    1. project       Q = X·W_Q, K = X·W_K, V = X·W_V   ->  W̄_Q = Xᵀ·Q̄,  X̄ = Q̄·W_Qᵀ + K̄·W_Kᵀ + V̄·W_Vᵀ
    2. scores        QKᵀ                               ->  Q̄ = QKᵀ̄·K,   K̄ = QKᵀ̄ᵀ·Q
    3. scale         S = QKᵀ/√d_k                       ->  QKᵀ̄ = S̄/√d_k
    4. softmax       A = softmax(S), row by row        ->  S̄ = A ⊙ (Ā − rowsum(Ā ⊙ A))
    5. weighted_sum  O = A·V                           ->  Ā = Ō·Vᵀ,    V̄ = Aᵀ·Ō

Backward runs the list bottom-up: each step turns the gradient of its output into gradients of its
inputs (the chain rule), starting from Ō = dL/dO.
"""

from dataclasses import dataclass, field

import numpy as np

from . import _validate as v
from .core import self_attention
from .messages import msg


def softmax_jacobian(a):
    """Jacobian of softmax at output ``a`` (a row of weights, shape (n,)): J[i, j] = ∂a_i/∂s_j
    = a_i (δ_ij − a_j). Near one-hot, every entry goes to 0: the gradient vanishes."""
    a = np.asarray(a, dtype=float)
    return np.diag(a) - np.outer(a, a)


def softmax_backward(A, dA):
    """Step 4 backward: weights A = softmax(S) (..., n_q, n_k) and dL/dA -> dL/dS, row by row.

    Row i is Jᵢᵀ·dAᵢ with Jᵢ = softmax_jacobian(Aᵢ) (symmetric), i.e. Aᵢ ⊙ (dAᵢ − dAᵢ·Aᵢ):
    the same numbers without building an n_k × n_k Jacobian per row. Masked entries (A = 0) get 0."""
    A, dA = v.as_matrix(A, "A", min_ndim=1), v.as_matrix(dA, "dL/dA", min_ndim=1)
    v.check_same_shape(dA, A, "dL/dA", "A")
    return A * (dA - (dA * A).sum(axis=-1, keepdims=True))


@dataclass(repr=False)
class Gradients:
    """dL/d(every quantity) for one call of self-attention, next to the forward ``trace``.
    ``dQKT`` is the gradient of the raw scores QKᵀ, ``dS`` that of the scaled scores S."""

    trace: object
    dO: np.ndarray
    dA: np.ndarray
    dS: np.ndarray
    dQKT: np.ndarray
    dQ: np.ndarray
    dK: np.ndarray
    dV: np.ndarray
    dW_q: np.ndarray
    dW_k: np.ndarray
    dW_v: np.ndarray
    dX: np.ndarray

    def __repr__(self):
        names = ("dO", "dA", "dS", "dQKT", "dQ", "dK", "dV", "dW_q", "dW_k", "dW_v", "dX")
        return "Gradients(" + ", ".join(f"{n}: {getattr(self, n).shape}" for n in names) + ")"


def self_attention_backward(X, W_q, W_k, W_v, dO, mask=None, scaled=True):
    """Forward through the five steps, then backward from ``dO`` = dL/dO (same shape as O).

    Returns ``Gradients`` with dW_q, dW_k, dW_v (summed over any batch axes), dX and every
    intermediate gradient. ``mask`` and ``scaled`` mean what they mean in ``self_attention``."""
    return _backward(self_attention(X, W_q, W_k, W_v, mask=mask, scaled=scaled), W_q, W_k, W_v, dO)


def _backward(trace, W_q, W_k, W_v, dO):
    """Steps 5 to 1 backward, from the forward ``trace`` (which holds X, Q, K, V, A and ``scaled``)."""
    dO = v.as_matrix(dO, "dL/dO")
    v.check_same_shape(dO, trace.O, "dL/dO", "O")
    X, A, Q, K, V = trace.X, trace.A, trace.Q, trace.K, trace.V
    T = np.swapaxes  # transpose of the last two axes: T(M, -1, -2)

    # 5. O = A·V
    dA = dO @ T(V, -1, -2)
    dV = T(A, -1, -2) @ dO
    # 4. A = softmax(S): masked entries have A = 0, so their gradient is 0 as well
    dS = softmax_backward(A, dA)
    # 3. S = QKᵀ/√d_k (or S = QKᵀ when scaled=False)
    dQKT = dS / np.sqrt(Q.shape[-1]) if trace.scaled else dS
    # 2. QKᵀ: row i of Q meets every key, column j of Kᵀ meets every query
    dQ = dQKT @ K
    dK = T(dQKT, -1, -2) @ Q
    # 1. Q = X·W_Q, K = X·W_K, V = X·W_V: X feeds all three, so its gradient is the sum of three
    W_q, W_k, W_v = (np.asarray(W, dtype=X.dtype) for W in (W_q, W_k, W_v))
    dX = dQ @ W_q.T + dK @ W_k.T + dV @ W_v.T
    X2 = X.reshape(-1, X.shape[-1])  # batch axes folded into rows: one weight serves every batch item
    dW_q, dW_k, dW_v = (X2.T @ d.reshape(-1, d.shape[-1]) for d in (dQ, dK, dV))
    return Gradients(
        trace=trace, dO=dO, dA=dA, dS=dS, dQKT=dQKT, dQ=dQ, dK=dK, dV=dV, dW_q=dW_q, dW_k=dW_k, dW_v=dW_v, dX=dX
    )


def numerical_gradient(f, x, eps=1e-6):
    """Central differences: g[idx] = (f(x + eps·e_idx) − f(x − eps·e_idx)) / (2·eps) for every entry.

    ``f`` maps an array shaped like ``x`` to a number. Work is done on a float64 copy: ``x`` itself
    is never changed. Costs 2 calls of f per entry, so keep x small."""
    x = np.array(v.as_matrix(x, "x", min_ndim=0), dtype=np.float64)
    eps = v.positive_number(eps, "eps", "eps")
    g = np.empty_like(x)
    for idx in np.ndindex(x.shape):
        old = x[idx]
        x[idx] = old + eps
        f_plus = float(f(x.copy()))
        x[idx] = old - eps
        f_minus = float(f(x.copy()))
        x[idx] = old
        g[idx] = (f_plus - f_minus) / (2 * eps)
    return g


# ---------------------------------------------------------------- a toy task for learning W_Q, W_K


@dataclass(repr=False)
class RetrievalRun:
    """One training run of ``train_retrieval``.

    ``losses[t]`` is the loss before step t (the last entry: after the final step); ``grad_norms[t]``
    the size of the gradient (W_Q and W_K together) at step t; ``snapshots`` maps a step to the
    weights A at that step; ``target`` is the n × n pattern to learn (1 at [i, partner[i]])."""

    X: np.ndarray
    W_q: np.ndarray
    W_k: np.ndarray
    W_v: np.ndarray
    partner: np.ndarray
    scaled: bool
    lr: float
    losses: np.ndarray
    grad_norms: np.ndarray
    snapshots: dict = field(default_factory=dict)

    @property
    def target(self):
        n = len(self.partner)
        P = np.zeros((n, n))
        P[np.arange(n), self.partner] = 1.0
        return P

    @property
    def A(self):
        """The weights after the last step."""
        return self.snapshots[max(self.snapshots)]

    def partner_weight(self, step=None):
        """Mean weight that each query puts on its partner (1 = the pattern is learned)."""
        A = self.A if step is None else self.snapshots[step]
        return float(A[np.arange(len(self.partner)), self.partner].mean())

    def accuracy(self, step=None):
        """Fraction of queries whose largest weight is on their partner."""
        A = self.A if step is None else self.snapshots[step]
        return float((A.argmax(axis=-1) == self.partner).mean())

    def __repr__(self):
        return (
            f"RetrievalRun(scaled={self.scaled}, lr={self.lr}, steps={len(self.losses) - 1}, "
            f"loss {self.losses[0]:.3f} -> {self.losses[-1]:.3f}, accuracy {self.accuracy():.2f})"
        )


def retrieval_task(n=16, d_model=64, d_v=16, seed=0):
    """Tokens X (n × d_model, random), a fixed W_V (d_model × d_v) and each token's partner
    (a random permutation with no fixed point). The target output of token i is the value of its
    partner, V[partner[i]]: attention must learn to look from i to partner[i]."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d_model))
    W_v = rng.standard_normal((d_model, d_v)) / np.sqrt(d_model)
    partner = rng.permutation(n)
    while (partner == np.arange(n)).any():  # nobody is their own partner
        partner = rng.permutation(n)
    return X, W_v, partner, rng


def train_retrieval(
    n=16,
    d_model=64,
    d_k=64,
    d_v=16,
    steps=500,
    lr=0.1,
    scaled=True,
    seed=0,
    snapshot_steps=(0, 50, 150),
    init_scale=1.0,
):
    """Learn W_Q and W_K by plain gradient descent so that token i attends to its partner.

    Loss: L = 1/(2n)·Σᵢ |Oᵢ − V[partner[i]]|² (W_V is fixed). W_Q, W_K start random with entries of
    variance 1/d_model, times ``init_scale``: with the default 1, each q and k has entries of variance
    ≈ 1 and a raw score q·k has variance ≈ d_k, so without scaling the rows of A start almost one-hot.
    Everything is seeded by ``seed`` (the same seed gives the same task and the same start, scaled or
    not, whatever ``init_scale``).

    Dividing by √d_k is a change of parametrisation: the unscaled run with ``init_scale=d_k**-0.25``
    and ``lr=lr/√d_k`` keeps W_Q, W_K at exactly d_k^(-1/4) times those of the scaled run, so in exact
    arithmetic it has the same scores, weights and losses at every step.
    Returns a ``RetrievalRun``; A is recorded at ``snapshot_steps`` and after the last step."""
    n, d_model, d_k, d_v = (
        v.positive_int(x, name) for x, name in ((n, "n"), (d_model, "d_model"), (d_k, "d_k"), (d_v, "d_v"))
    )
    steps = v.positive_int(steps, "steps")
    if n < 2:
        raise ValueError(msg("partner_n", n=n))
    lr = v.positive_number(lr, "lr", "lr")
    init_scale = v.positive_number(init_scale, "init_scale", "init_scale")
    X, W_v, partner, rng = retrieval_task(n, d_model, d_v, seed)
    W_q = init_scale * rng.standard_normal((d_model, d_k)) / np.sqrt(d_model)
    W_k = init_scale * rng.standard_normal((d_model, d_k)) / np.sqrt(d_model)
    target = (X @ W_v)[partner]

    losses, grad_norms, snapshots = [], [], {}
    for step in range(steps + 1):
        trace = self_attention(X, W_q, W_k, W_v, scaled=scaled)
        residual = trace.O - target
        losses.append(0.5 * float((residual**2).sum()) / n)
        if step in snapshot_steps or step == steps:
            snapshots[step] = trace.A
        if step == steps:
            break
        g = _backward(trace, W_q, W_k, W_v, residual / n)
        grad_norms.append(float(np.sqrt((g.dW_q**2).sum() + (g.dW_k**2).sum())))
        W_q = W_q - lr * g.dW_q
        W_k = W_k - lr * g.dW_k
    return RetrievalRun(
        X=X,
        W_q=W_q,
        W_k=W_k,
        W_v=W_v,
        partner=partner,
        scaled=scaled,
        lr=lr,
        losses=np.array(losses),
        grad_norms=np.array(grad_norms),
        snapshots=snapshots,
    )
