"""Dense attention close to the speed of its two matrix products (for the complexity benchmark).

``attn_core.attention`` is the readable reference: every step makes a new array and the exponentials run
on one core. Here the same O = softmax(QKᵀ/√d_k)·V is computed with the full n_q × n_k score matrix
(it is still *dense*: memory grows with n²), but with the elementwise work cut to one pass:

* The stabilising shift comes out of the first matrix product. Softmax does not change when a row
  is shifted by any constant c_i; softmax subtracts the row maximum, which needs a pass of its own.
  By Cauchy–Schwarz, c_i = |q_i|·max_j |k_j| is never below any score in row i, so exp never
  overflows, and appending the column −c to Q and a column of ones to K gives QKᵀ − c in one BLAS call.
* The exponentials run in place, on cache-sized row chunks, split across threads (numpy releases
  the GIL inside ufuncs); the masked entries are set to −∞ there too.
* The row sums come out of the second product: a column of ones appended to V makes P·[V, 1]
  return both the unnormalised output and each row's sum.

A bound can overshoot the true maximum by a lot; if it does by more than 40 (in units of the
scores), the row's largest weight before normalising would be below e⁻⁴⁰ and small ones could
underflow. Those rows are detected from their sums and recomputed exactly with the usual max shift,
so the result always equals ``attention(Q, K, V, mask, scaled).O`` up to rounding.
"""

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from attn_core import _validate as v
from attn_core.core import apply_mask, softmax
from attn_core.online_softmax import _check_causal_rows

_MAX_OVERSHOOT = 40.0  # allowed gap between the bound c_i and the true row maximum (see above)
_CHUNK_BYTES = 1 << 18  # rows per exp chunk chosen so a chunk (~256 KiB) stays in the L2 cache


def dense_attention(Q, K, V, mask=None, causal=False, scaled=True, threads=None):
    """O (n_q, d_v) = softmax(QKᵀ/√d_k, masked)·V for 2-D Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v).

    Same result as ``attention(Q, K, V, mask, scaled).O`` (``causal=True`` adds the lower-triangle
    mask: query i sees keys 0..i). Works in the inputs' dtype (float32 stays float32) and holds the
    full score matrix. ``threads`` (default: the number of CPUs) share the exponentials."""
    Q, K, V = v.as_matrix(Q, "Q"), v.as_matrix(K, "K"), v.as_matrix(V, "V")
    for name, M in (("Q", Q), ("K", K), ("V", V)):
        if M.ndim != 2:
            raise ValueError(
                f"dense_attention takes 2-D matrices, but {name} has shape {M.shape}. "
                f"For batches or heads use attention() or blocked_attention()."
            )
    v.check_qk(Q, K)
    v.check_kv(K, V)
    n_q, n_k = Q.shape[0], K.shape[0]
    if mask is not None:
        mask = np.broadcast_to(v.as_mask(mask, (n_q, n_k)), (n_q, n_k))
    if causal and mask is not None:  # without a mask, row i always sees key 0
        _check_causal_rows(mask, (n_q, n_k))
    threads = (os.cpu_count() or 1) if threads is None else threads
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}.")

    dtype = np.result_type(Q, K, V)
    d_k = Q.shape[1]
    Qs = Q * dtype.type(1 / np.sqrt(d_k)) if scaled else Q.astype(dtype, copy=False)
    c = np.linalg.norm(Qs, axis=1) * np.linalg.norm(K, axis=1).max()  # c_i ≥ every score in row i
    S = _with_column(Qs, -c, dtype) @ _with_column(K, 1, dtype).T  # S = QKᵀ/√d_k − c, one product

    _exp_in_place(S, mask, causal, threads)  # S becomes P = exp(S), masked entries 0
    OL = S @ _with_column(V, 1, dtype)  # [P·V, row sums of P]
    O, l = OL[:, :-1], OL[:, -1:]
    with np.errstate(divide="ignore", invalid="ignore"):  # a sum of 0 only in rows redone below
        O /= l
    # Rows whose bound overshot too far (tiny sums) are redone exactly with the usual max shift.
    bad = np.flatnonzero(~(l[:, 0] >= n_k * np.exp(-_MAX_OVERSHOOT)))
    if bad.size:
        Sb = Qs[bad] @ K.T
        if mask is not None or causal:
            allowed = np.ones((bad.size, n_k), bool) if mask is None else mask[bad]
            if causal:
                allowed = allowed & (np.arange(n_k)[None, :] <= bad[:, None])
            Sb = apply_mask(Sb, allowed)
        O[bad] = softmax(Sb) @ V
    return np.ascontiguousarray(O)


def _with_column(M, col, dtype):
    """[M, col]: M with one more column (a scalar col fills it)."""
    out = np.empty((M.shape[0], M.shape[1] + 1), dtype=dtype)
    out[:, :-1] = M
    out[:, -1] = col
    return out


def _exp_in_place(S, mask, causal, threads):
    """exp of S in place, chunk by chunk of rows; thread t takes chunks t, t + threads, ..."""
    rows = max(1, _CHUNK_BYTES // (S.shape[1] * S.itemsize))
    chunks = [(a, min(a + rows, S.shape[0])) for a in range(0, S.shape[0], rows)]

    def work(mine):
        for a, b in mine:
            _exp_rows(S, a, b, mask, causal)

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(work, [chunks[t::threads] for t in range(threads)]))


def _exp_rows(S, a, b, mask, causal):
    """exp, in place, of rows a..b-1 of S, after setting their masked entries to −∞."""
    block = S[a:b]
    if mask is not None:
        np.copyto(block, -np.inf, where=~mask[a:b])
    if causal:
        np.copyto(block, -np.inf, where=np.arange(S.shape[1])[None, :] > np.arange(a, b)[:, None])
    np.exp(block, out=block)
