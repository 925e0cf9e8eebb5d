"""Multi-head attention (lesson 8): the right answers and the known mistakes of splitting into heads,
merging them back and the whole multi-head layer. Each function takes the givens ``g``.

    split_heads   Q (n, d_model) -> (h, n, d_head): head k gets columns k·d_head … (k+1)·d_head − 1
    merge_heads   heads (h, n, d_head) -> (n, h·d_head): the heads side by side, head 0 first
    multi_head    X, W_q, W_k, W_v, W_o, n_heads -> (n, d_model): split, attention per head, merge, ·W_O

The mistakes are the ones lesson 8 warns about: a reshape without the transpose (heads that mix
positions), heads merged in the wrong order, W_O forgotten, √d_model instead of √d_head.
"""

import numpy as np

from attn_core import multihead

from .mistakes import attention_with_column_max, softmax_rows

# ---------------------------------------------------------------- right answers


def split(g):
    """Q cut into n_heads slices of columns, the heads axis in front: (h, n, d_head)."""
    return multihead.split_heads(g.Q, g.n_heads)


def merge(g):
    """The heads side by side: (h, n, d_head) -> (n, h·d_head)."""
    return multihead.merge_heads(g.heads)


def multi_head(g):
    """Multi-head self-attention of X: split, scaled dot-product attention per head, merge, ·W_O."""
    return multihead.multi_head_attention(g.X, g.X, g.W_q, g.W_k, g.W_v, g.W_o, g.n_heads).O


# ---------------------------------------------------------------- splitting


def _d_head(g, width):
    return width // g.n_heads


def split_by_reshape_alone(g):
    """Q.reshape(h, n, d_head): the numbers are poured into the new shape row by row, so a "head" holds
    pieces of several positions."""
    n, width = g.Q.shape[-2:]
    return g.Q.reshape(g.n_heads, n, _d_head(g, width))


def split_not_moved(g):
    """Q.reshape(n, h, d_head) without moving the heads axis to the front."""
    n, width = g.Q.shape[-2:]
    return g.Q.reshape(n, g.n_heads, _d_head(g, width))


def split_interleaved(g):
    """Q.reshape(n, d_head, h) with the heads axis then moved to the front: head k takes every h-th column
    instead of a block of d_head neighbouring columns."""
    n, width = g.Q.shape[-2:]
    return np.moveaxis(g.Q.reshape(n, _d_head(g, width), g.n_heads), -1, 0)


def heads_transposed(g):
    """Each head transposed: (h, d_head, n)."""
    return np.swapaxes(g.expected, -1, -2)


# ---------------------------------------------------------------- merging


def split_reversed(g):
    """The heads in reverse order (the last block of columns first)."""
    heads = multihead.split_heads(g.Q, g.n_heads)
    return heads[::-1] if len(heads) > 1 else None


def merge_by_reshape_alone(g):
    """heads.reshape(n, h·d_head) without first moving the heads axis next to d_head: rows mix positions."""
    h, n, d = g.heads.shape
    return g.heads.reshape(n, h * d)


def merge_interleaved(g):
    """The heads' columns interleaved (column 0 of every head, then column 1 of every head, …)."""
    h, n, d = g.heads.shape
    return np.transpose(g.heads, (1, 2, 0)).reshape(n, d * h)


def merge_reversed(g):
    """The heads side by side in reverse order (the last head first)."""
    return multihead.merge_heads(g.heads[::-1]) if len(g.heads) > 1 else None


def merge_summed(g):
    """The heads added up (or averaged) instead of put side by side: (n, d_head)."""
    return [g.heads.sum(axis=0), g.heads.mean(axis=0)]


def merge_stacked(g):
    """The heads stacked under each other (h·n, d_head) instead of side by side."""
    return np.concatenate(list(g.heads), axis=0)


# ---------------------------------------------------------------- the whole layer


def _projections(g):
    return g.X @ g.W_q, g.X @ g.W_k, g.X @ g.W_v


def _attend(Qh, Kh, Vh, root):
    """Attention on every head at once, the scores divided by ``root``."""
    return softmax_rows(Qh @ np.swapaxes(Kh, -1, -2) / root) @ Vh


def _layer(g, split_fn=multihead.split_heads, merge_fn=multihead.merge_heads, root=None, with_W_o=True):
    Q, K, V = _projections(g)
    Qh, Kh, Vh = (split_fn(M, g.n_heads) for M in (Q, K, V))
    root = np.sqrt(Qh.shape[-1]) if root is None else root
    concat = merge_fn(_attend(Qh, Kh, Vh, root))
    return concat @ g.W_o if with_W_o else concat


def _reshape_split(M, h):
    n, width = M.shape[-2:]
    return M.reshape(h, n, width // h)


def _reshape_merge(O):
    h, n, d = O.shape
    return O.reshape(n, h * d)


def no_W_o(g):
    """The heads merged, but never multiplied by W_O."""
    return _layer(g, with_W_o=False)


def scaled_by_d_model(g):
    """Every head's scores divided by √d_model (the whole width) instead of √d_head."""
    return _layer(g, root=np.sqrt(g.X.shape[-1])) if g.n_heads > 1 else None


def scaled_by_n_heads(g):
    """Every head's scores divided by √n_heads (the number of heads) instead of √d_head."""
    d_head = g.W_q.shape[-1] // g.n_heads if g.n_heads else 0
    return _layer(g, root=np.sqrt(g.n_heads)) if g.n_heads > 1 and g.n_heads != d_head else None


def layer_unscaled(g):
    """Every head's scores not divided at all."""
    return _layer(g, root=1.0)


def layer_split_by_reshape(g):
    """Heads made with a reshape alone (no transpose), the rest right."""
    return _layer(g, split_fn=_reshape_split) if g.n_heads > 1 else None


def layer_merged_by_reshape(g):
    """Heads merged with a reshape alone (no transpose), the rest right."""
    return _layer(g, merge_fn=_reshape_merge) if g.n_heads > 1 else None


def layer_split_and_merged_by_reshape(g):
    """Heads made and merged with a reshape alone (no transpose either way), the rest right."""
    return _layer(g, split_fn=_reshape_split, merge_fn=_reshape_merge) if g.n_heads > 1 else None


def layer_column_max(g):
    """Every head's softmax with each column's maximum subtracted (axis −2 of the (h, n, n) scores) instead of
    each row's, the rest right. None where that is the right answer or not finite."""
    Qh, Kh, Vh = (multihead.split_heads(M, g.n_heads) for M in _projections(g))
    return attention_with_column_max(Qh, Kh, Vh, g.expected, then=lambda O: multihead.merge_heads(O) @ g.W_o)


def layer_with_residual(g):
    """The right layer with X added (a residual connection this task does not ask for)."""
    return multi_head(g) + g.X if multi_head(g).shape == g.X.shape else None


def layer_W_o_transposed(g):
    """The merged heads times W_Oᵀ (runs when W_O is square)."""
    W = g.W_o
    return None if W.shape[0] != W.shape[1] or np.allclose(W, W.T) else _layer(g, with_W_o=False) @ W.T


def one_head(g):
    """One head over the whole width (no split), then ·W_O: ordinary attention, scaled by √d_model."""
    if g.n_heads == 1:
        return None
    Q, K, V = _projections(g)
    return _attend(Q, K, V, np.sqrt(Q.shape[-1])) @ g.W_o


# ---------------------------------------------------------------- the whole layer: one step of a head gone wrong


def _split_every_h_th(M, h):
    """Head k takes columns k, k + h, k + 2h, …: a reshape to (n, d_head, h)."""
    n, width = M.shape[-2:]
    return np.moveaxis(M.reshape(n, width // h, h), -1, 0)


def _merge_interleaved(O):
    """The heads' columns interleaved: column c·h + k is head k's column c."""
    h, n, d = O.shape
    return np.moveaxis(O, 0, -1).reshape(n, d * h)


def _layer_with(g, *, axis=-1, keys_first=False, values="V"):
    """The layer with one step of every head changed: softmax along ``axis``, K·Qᵀ (``keys_first``), or the
    weights times the keys (``values="K"``)."""
    Q, K, V = (multihead.split_heads(M, g.n_heads) for M in _projections(g))
    S = (K @ np.swapaxes(Q, -1, -2) if keys_first else Q @ np.swapaxes(K, -1, -2)) / np.sqrt(Q.shape[-1])
    E = np.exp(S - S.max(axis=axis, keepdims=True))
    A = E / E.sum(axis=axis, keepdims=True)
    return multihead.merge_heads(A @ (K if values == "K" else V)) @ g.W_o


def layer_softmax_down_the_columns(g):
    """softmax along axis 1 of the (h, n, n) scores: each head's columns sum to 1."""
    return _layer_with(g, axis=1)


def layer_keys_times_queries(g):
    """K·Qᵀ instead of Q·Kᵀ in every head."""
    return _layer_with(g, keys_first=True)


def layer_keys_as_values(g):
    """Every head's weights times its keys instead of its values (runs when d_k = d_v)."""
    return _layer_with(g, values="K") if g.W_k.shape == g.W_v.shape else None


def layer_merged_interleaved(g):
    """The heads split right, merged with their columns interleaved."""
    return _layer(g, merge_fn=_merge_interleaved) if g.n_heads > 1 else None


def layer_split_every_h_th(g):
    """Each head made of every h-th column (and merged back the same way): the heads are other heads."""
    return _layer(g, split_fn=_split_every_h_th, merge_fn=_merge_interleaved) if g.n_heads > 1 else None


def one_head_scaled_by_d_head(g):
    """One head over the whole width, scaled by √d_head as the heads would be."""
    if g.n_heads == 1:
        return None
    Q, K, V = _projections(g)
    return _attend(Q, K, V, np.sqrt(Q.shape[-1] // g.n_heads)) @ g.W_o
