"""Input checks for the five steps: clear errors instead of wrong answers.

Kept apart from ``core.py`` so that the reference code stays short. Every
check only reads its input; nothing here writes into a learner's array.
"""

import numpy as np

from .lang import tr


def as_matrix(x, name, min_ndim=2):
    """Return ``x`` as a float array with at least ``min_ndim`` axes, or raise.

    float32 / float64 are kept; integers (and float16) become float64.
    Raises TypeError for non-numeric input and ValueError for NaN / ±inf.
    """
    try:
        arr = np.asarray(x)
    except ValueError as e:  # ragged nested lists
        raise TypeError(tr(f"{name} 不是规整的数字数组（各行长度不一？）：{e}",
                           f"{name} is not a rectangular array of numbers ({e}).")) from None
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TypeError(tr(
            f"{name} 必须是实数数组，得到的是 dtype {arr.dtype}（类型 {type(x).__name__}）。"
            f"请用 np.array([...], dtype=float) 构造。",
            f"{name} must be an array of real numbers, got dtype {arr.dtype} "
            f"(type {type(x).__name__}). Build it with np.array([...], dtype=float)."))
    if arr.dtype not in (np.float32, np.float64):
        arr = arr.astype(np.float64)
    if arr.ndim < min_ndim:
        raise ValueError(tr(
            f"{name} 至少要有 {min_ndim} 个维度（行 × 特征），得到的形状是 {arr.shape}。"
            f"单个向量 v 可以写成一行的矩阵：v[None, :]。",
            f"{name} must have at least {min_ndim} axes (rows × features), got shape {arr.shape}. "
            f"A single vector v can be written as a one-row matrix: v[None, :]."))
    check_finite(arr, name)
    return arr


def check_finite(arr, name, allow_neg_inf=False):
    bad = np.isnan(arr) | (np.isinf(arr) if not allow_neg_inf else np.isposinf(arr))
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(tr(
            f"{name}（形状 {arr.shape}）含有 {int(bad.sum())} 个 NaN/inf，第一个在下标 {where}。"
            f"注意力只能处理有限的数：检查 {name} 是怎么算出来的。",
            f"{name} (shape {arr.shape}) contains {int(bad.sum())} NaN/inf value(s), "
            f"the first at index {where}. Attention needs finite numbers: check how {name} was computed."))


def linear(X, W, x_name, w_name):
    """X (..., n, d_in) @ W (d_in, d_out), after checking that W fits X."""
    W = as_matrix(W, w_name)
    if W.ndim != 2:
        raise ValueError(tr(f"{w_name} 必须是二维矩阵（d_in × d_out），得到的形状是 {W.shape}。",
                            f"{w_name} must be a 2-D matrix (d_in × d_out), got shape {W.shape}."))
    if X.shape[-1] != W.shape[0]:
        raise ValueError(tr(
            f"{x_name} 的形状是 {X.shape}，{w_name} 的形状是 {W.shape}：{x_name} @ {w_name} 要求 {w_name} 有 "
            f"{X.shape[-1]} 行（{x_name} 的每个特征一行，即 d_model）。{w_name} 是不是转置了，"
            f"或者是按另一个 d_model 建的？",
            f"{x_name} has shape {X.shape} but {w_name} has shape {W.shape}: {x_name} @ {w_name} needs "
            f"{w_name} to have {X.shape[-1]} rows (one per feature of {x_name}, d_model). "
            f"Is {w_name} transposed, or built for another d_model?"))
    return X @ W


def check_qk(Q, K):
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(tr(
            f"Q 的形状是 {Q.shape}，K 的形状是 {K.shape}：QKᵀ 要拿每个查询和每个键做点积，"
            f"两者的最后一维 d_k 必须相同（现在是 {Q.shape[-1]} 和 {K.shape[-1]}）。"
            f"W_Q 和 W_K 要投影到同一个宽度 d_k。",
            f"Q has shape {Q.shape} and K has shape {K.shape}: Q·Kᵀ compares each query with each key, "
            f"so both need the same last axis d_k (got {Q.shape[-1]} and {K.shape[-1]}). "
            f"W_Q and W_K must project to the same width d_k."))
    _check_batch(Q, K, "Q", "K")


def check_av(A, V):
    if A.shape[-1] != V.shape[-2]:
        raise ValueError(tr(
            f"A 的形状是 {A.shape}，V 的形状是 {V.shape}：A·V 要求每个键对应一行值，"
            f"即 A 的列数（{A.shape[-1]}）= V 的行数（{V.shape[-2]}）。是不是把 V 转置了？"
            f"另外，K 和 V 必须来自同一个序列（同一个 n_k）。",
            f"A has shape {A.shape} and V has shape {V.shape}: A·V needs one value row per key, "
            f"i.e. A's columns ({A.shape[-1]}) = V's rows ({V.shape[-2]}). Is V transposed? "
            f"Also, K and V must come from the same sequence (same n_k)."))
    _check_batch(A, V, "A", "V")


def check_kv(K, V):
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(tr(
            f"K 的形状是 {K.shape}，V 的形状是 {V.shape}：每个键都要有自己的值，所以 K 和 V 的行数 n_k "
            f"必须相同（现在是 {K.shape[-2]} 和 {V.shape[-2]}）。请从同一个序列投影出 K 和 V。",
            f"K has shape {K.shape} and V has shape {V.shape}: every key needs its value, so K and V "
            f"must have the same number of rows n_k (got {K.shape[-2]} and {V.shape[-2]}). "
            f"Project K and V from the same sequence."))


def _check_batch(a, b, a_name, b_name):
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise ValueError(tr(
            f"{a_name} 的形状是 {a.shape}，{b_name} 的形状是 {b.shape}：前面的批量维 "
            f"{a.shape[:-2]} 和 {b.shape[:-2]} 无法广播。",
            f"{a_name} has shape {a.shape} and {b_name} has shape {b.shape}: their leading (batch) axes "
            f"{a.shape[:-2]} and {b.shape[:-2]} do not broadcast.")) from None


def as_mask(mask, scores_shape):
    """Check a boolean mask (True = may attend) against the scores' shape."""
    m = np.asarray(mask)
    if m.dtype != bool:
        raise TypeError(tr(
            f"mask 必须是布尔数组，True = 可以关注（True = may attend），得到的是 dtype {m.dtype}。"
            f"0/1 数组用 mask.astype(bool)；0/−inf 的加性掩码用 (mask == 0)。",
            f"mask must be boolean with True = may attend, got dtype {m.dtype}. "
            f"From 0/1 use mask.astype(bool); from an additive 0/−inf mask use (mask == 0)."))
    try:
        ok = np.broadcast_shapes(m.shape, scores_shape) == tuple(scores_shape)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(tr(
            f"mask 的形状是 {m.shape}，而分数的形状是 {tuple(scores_shape)}（n_q × n_k）：掩码必须能广播到分数上。"
            f"自注意力可用 causal_mask(n)；只遮键的填充掩码用形状 (1, n_k)。",
            f"mask has shape {m.shape} but the scores have shape {tuple(scores_shape)} (n_q × n_k): "
            f"the mask must broadcast to the scores. For self-attention use causal_mask(n); "
            f"for a padding mask over keys use shape (1, n_k)."))
    empty = ~np.broadcast_to(m, scores_shape).any(axis=-1)
    if empty.any():
        where = tuple(int(i) for i in np.argwhere(empty)[0])
        batch = f" (at batch index {where[:-1]})" if len(where) > 1 else ""
        batch_zh = f"（批量下标 {where[:-1]}）" if len(where) > 1 else ""
        raise ValueError(tr(
            f"掩码让查询第 {where[-1]} 行{batch_zh}没有任何键可以关注（共 {int(empty.sum())} 行如此）："
            f"对空集合做 softmax 没有意义（全是 −∞ 会得到 NaN，用很大的负数则会悄悄变成均匀权重）。"
            f"每行至少允许一个键，例如查询自己。",
            f"mask leaves query row {where[-1]}{batch} with no key to attend to ({int(empty.sum())} such row(s) "
            f"in all): softmax over nothing is undefined (−∞ everywhere gives NaN, a large negative number "
            f"silently gives uniform weights). Allow at least one key per row, e.g. the query itself."))
    return m
