"""Scaled dot-product attention in five steps: the reference a learner can read.

Arrays are numpy arrays whose last two axes are (positions, features); any
leading axes (batch, heads) are carried along unchanged. Shapes below use
n_q (queries), n_k (keys), d_model (input width), d_k (query/key width) and
d_v (value width).

    1. project       Q = X·W_Q,  K = X·W_K,  V = X·W_V
    2. scores        QKᵀ                 (n_q × n_k: row = who asks, column = who is asked)
    3. scale         S = QKᵀ / √d_k
    4. softmax       A = softmax(S) along each row
    5. weighted_sum  O = A·V
"""

import math
import numbers
from dataclasses import dataclass

import numpy as np

from . import _validate as v
from .lang import display_width, tr

# ---------------------------------------------------------------- the five steps

def project(X, W_q, W_k, W_v):
    """Step 1. X (..., n, d_model) with W_q, W_k (d_model, d_k) and W_v (d_model, d_v)
    -> Q (..., n, d_k), K (..., n, d_k), V (..., n, d_v)."""
    X = v.as_matrix(X, "X")
    Q, K, V = (v.linear(X, W, "X", name) for W, name in ((W_q, "W_Q"), (W_k, "W_K"), (W_v, "W_V")))
    v.check_qk(Q, K)
    return Q, K, V


def scores(Q, K):
    """Step 2. Q (..., n_q, d_k) and K (..., n_k, d_k) -> QKᵀ (..., n_q, n_k).
    Entry [i, j] is the dot product of query i with key j."""
    Q, K = v.as_matrix(Q, "Q"), v.as_matrix(K, "K")
    v.check_qk(Q, K)
    return Q @ np.swapaxes(K, -1, -2)


def scale(S, d_k):
    """Step 3. Raw scores (..., n_q, n_k) -> the same scores divided by √d_k."""
    if not isinstance(d_k, numbers.Real) or isinstance(d_k, bool) or not d_k > 0:
        raise ValueError(tr(f"d_k 必须是正数（Q 和 K 的宽度），得到的是 {d_k!r}。",
                            f"d_k must be a positive number (the width of Q and K), got {d_k!r}."))
    return v.as_matrix(S, "scores") / math.sqrt(d_k)  # a Python float keeps float32 as float32


def softmax(S, axis=-1):
    """Step 4. Scores (..., n_q, n_k) -> weights of the same shape, each row (``axis``)
    non-negative and summing to 1. −∞ (a masked score) gets weight exactly 0.
    Stable: the row maximum is subtracted first, so exp never overflows."""
    S = np.asarray(S)
    if not np.issubdtype(S.dtype, np.floating):
        S = v.as_matrix(S, "scores", min_ndim=1)
    v.check_finite(S, "scores", allow_neg_inf=True)
    if np.isneginf(S).all(axis=axis).any():
        raise ValueError(tr("softmax 收到一整行都是 −∞（所有键都被遮住）：这一行的权重会是 NaN。"
                            "让每个查询至少能关注一个键。",
                            "softmax got a row that is −∞ everywhere (every key masked): "
                            "its weights would be NaN. Let every query attend to at least one key."))
    E = np.exp(S - S.max(axis=axis, keepdims=True))
    return E / E.sum(axis=axis, keepdims=True)


def weighted_sum(A, V):
    """Step 5. Weights A (..., n_q, n_k) and values V (..., n_k, d_v) -> O = A·V (..., n_q, d_v).
    Row i of O is the mix of value rows given by row i of A."""
    A, V = v.as_matrix(A, "A"), v.as_matrix(V, "V")
    v.check_av(A, V)
    return A @ V


def apply_mask(S, mask):
    """Between steps 3 and 4: scores where ``mask`` is False become −∞ (True = may attend)."""
    mask = v.as_mask(mask, np.shape(S))
    return np.where(mask, S, -np.inf).astype(np.result_type(S), copy=False)


def causal_mask(n):
    """(n, n) boolean lower triangle: position i may attend to positions 0..i, never the future."""
    return np.tril(np.ones((n, n), dtype=bool))


# ---------------------------------------------------------------- composed

@dataclass(repr=False)
class Trace:
    """Every intermediate of one attention call, under the course's symbols.
    ``QKT`` is the raw QKᵀ (Python also accepts ``trace.QKᵀ``); ``S`` the scaled scores."""
    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    QKT: np.ndarray
    S: np.ndarray
    A: np.ndarray
    O: np.ndarray
    mask: np.ndarray = None
    scaled: bool = True
    X: np.ndarray = None

    @property
    def d_k(self):
        return self.Q.shape[-1]

    def rows(self):
        """(step, symbol, shape, meaning) for every intermediate that is present."""
        s_meaning = (tr("缩放后的分数 QKᵀ/√d_k", "scaled scores QKᵀ/√d_k") if self.scaled
                     else tr("未缩放：S = QKᵀ", "unscaled: S = QKᵀ"))
        if self.mask is not None:
            s_meaning += tr("，被遮住处为 −∞", ", −∞ where masked")
        table = [
            ("0", "X", self.X, tr("输入，每行一个词", "input, one row per word")),
            ("1", "Q", self.Q, tr("查询：谁在问", "queries: who asks")),
            ("1", "K", self.K, tr("键：供匹配的标签", "keys: labels to match")),
            ("1", "V", self.V, tr("值：要取回的内容", "values: content to fetch")),
            ("2", "QKᵀ", self.QKT, tr("原始分数：行=谁在问，列=问谁",
                                      "raw scores: row = who asks, column = who is asked")),
            ("3", "S", self.S, s_meaning),
            ("4", "A", self.A, tr("注意力权重，每行和为 1", "attention weights, each row sums to 1")),
            ("5", "O", self.O, tr("输出 A·V，宽度 d_v", "output A·V, width d_v")),
        ]
        return [(step, sym, arr.shape, meaning) for step, sym, arr, meaning in table if arr is not None]

    def __repr__(self):
        rows = [(tr("步骤", "step"), tr("符号", "symbol"), tr("形状", "shape"), tr("含义", "meaning"))]
        rows += [(step, sym, " × ".join(map(str, shape)), m) for step, sym, shape, m in self.rows()]
        widths = [max(display_width(r[c]) for r in rows) for c in range(3)]
        return "\n".join("  ".join(r[c] + " " * (widths[c] - display_width(r[c])) for c in range(3)) + "  " + r[3]
                         for r in rows)



def attention(Q, K, V, mask=None, scaled=True):
    """Steps 2–5. Q (..., n_q, d_k), K (..., n_k, d_k), V (..., n_k, d_v) -> Trace with O (..., n_q, d_v).
    ``mask`` (boolean, broadcastable to (n_q, n_k), True = may attend) is applied after scaling.
    ``scaled=False`` skips step 3 (for comparison only)."""
    Q, K, V = v.as_matrix(Q, "Q"), v.as_matrix(K, "K"), v.as_matrix(V, "V")
    v.check_kv(K, V)
    QKT = scores(Q, K)
    S = scale(QKT, Q.shape[-1]) if scaled else QKT
    if mask is not None:
        S = apply_mask(S, mask)
    A = softmax(S)
    return Trace(Q=Q, K=K, V=V, QKT=QKT, S=S, A=A, O=weighted_sum(A, V),
                 mask=None if mask is None else np.asarray(mask), scaled=scaled)


def self_attention(X, W_q, W_k, W_v, mask=None, scaled=True):
    """All five steps. X (..., n, d_model) -> Trace with O (..., n, d_v); the trace keeps X."""
    Q, K, V = project(X, W_q, W_k, W_v)
    trace = attention(Q, K, V, mask=mask, scaled=scaled)
    trace.X = v.as_matrix(X, "X")
    return trace


@dataclass(repr=False)
class MultiHeadTrace:
    """Multi-head attention: ``heads`` is the per-head Trace (head axis just before n_q),
    ``concat`` the heads side by side (..., n_q, n_heads·d_head) and ``O`` = concat·W_O."""
    heads: Trace
    concat: np.ndarray
    O: np.ndarray
    n_heads: int

    @property
    def A(self):
        """Per-head weights (..., n_heads, n_q, n_k)."""
        return self.heads.A

    def __repr__(self):
        head_rows = "\n".join("    " + line for line in repr(self.heads).splitlines())
        return (tr(f"{self.n_heads} 个头，每个头：\n", f"{self.n_heads} heads, each:\n") + head_rows
                + "\n" + tr(f"拼接 concat {self.concat.shape} → 乘 W_O → O {self.O.shape}",
                            f"concat {self.concat.shape} → times W_O → O {self.O.shape}"))


def split_heads(M, n_heads):
    """(..., n, n_heads·d_head) -> (..., n_heads, n, d_head)."""
    if M.shape[-1] % n_heads:
        raise ValueError(tr(
            f"宽度 {M.shape[-1]}（形状 {M.shape}）无法平均分成 {n_heads} 个头：d_model 必须能被 n_heads 整除"
            f"（divisible）。请从 {M.shape[-1]} 的约数中选 n_heads。",
            f"cannot split width {M.shape[-1]} (shape {M.shape}) into {n_heads} equal heads: d_model must be "
            f"divisible by n_heads. Choose n_heads among the divisors of {M.shape[-1]}."))
    return np.swapaxes(M.reshape(*M.shape[:-1], n_heads, M.shape[-1] // n_heads), -2, -3)


def merge_heads(M):
    """(..., n_heads, n, d_head) -> (..., n, n_heads·d_head): the heads side by side."""
    M = np.swapaxes(M, -2, -3)
    return M.reshape(*M.shape[:-2], M.shape[-2] * M.shape[-1])


def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """X_q (..., n_q, d_model) asks, X_kv (..., n_k, d_model) answers (pass the same array twice
    for self-attention). W_q, W_k, W_v (d_model, n_heads·d_head), W_o (n_heads·d_v, d_model).
    Each head runs the same five steps on its slice; outputs are concatenated, then ·W_O."""
    if isinstance(n_heads, bool) or not isinstance(n_heads, (int, np.integer)) or n_heads < 1:
        raise ValueError(tr(f"n_heads 必须是正整数，得到的是 {n_heads!r}。",
                            f"n_heads must be a positive integer, got {n_heads!r}."))
    X_q, X_kv = v.as_matrix(X_q, "X_q"), v.as_matrix(X_kv, "X_kv")
    Q = v.linear(X_q, W_q, "X_q", "W_Q")
    K, V = v.linear(X_kv, W_k, "X_kv", "W_K"), v.linear(X_kv, W_v, "X_kv", "W_V")
    W_o = v.as_matrix(W_o, "W_O")
    if W_o.ndim != 2 or W_o.shape[0] != V.shape[-1]:
        raise ValueError(tr(f"W_O 的形状是 {W_o.shape}，但拼接后的多头输出宽 {V.shape[-1]}："
                            f"W_O 需要 {V.shape[-1]} 行（n_heads·d_v）。",
                            f"W_O has shape {W_o.shape} but the concatenated heads are {V.shape[-1]} wide: "
                            f"W_O needs {V.shape[-1]} rows (n_heads·d_v)."))
    if mask is not None and np.ndim(mask) > 2:
        mask = np.expand_dims(mask, -3)  # the same mask for every head
    heads = attention(split_heads(Q, n_heads), split_heads(K, n_heads), split_heads(V, n_heads), mask=mask)
    concat = merge_heads(heads.O)
    return MultiHeadTrace(heads=heads, concat=concat, O=concat @ W_o, n_heads=n_heads)
