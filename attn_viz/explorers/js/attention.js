// The arithmetic of attention, for the page: the five steps of attn_core/core.py on small matrices.
//
// A matrix is an array of rows (arrays of numbers); shapes are written (rows, columns) as in core.py.
// Each function does what its namesake in attn_core does, in the same order of operations, so that the
// numbers agree with numpy's to about 1e-15 (tests/test_explorers_js.py checks them on every control).
// attn_core stays the reference: this file is a port, not a second definition.

// (n, m) -> (m, n)
export function transpose(M) {
  return M.length ? M[0].map((_, j) => M.map((row) => row[j])) : [];
}

// (n, k) · (k, m) -> (n, m), each entry a plain left-to-right sum
export function matmul(A, B) {
  const m = B.length ? B[0].length : 0;
  return A.map((row) =>
    Array.from({ length: m }, (_, j) => {
      let s = 0;
      for (let k = 0; k < row.length; k++) s += row[k] * B[k][j];
      return s;
    }),
  );
}

// the first `d` columns of M (n, >= d) -> (n, d): a narrower W_Q keeps the wider one's first columns
export function columns(M, d) {
  return M.map((row) => row.slice(0, d));
}

// row i of M multiplied by f[i]: (n, m), (n,) -> (n, m); the key sliders scale rows of K this way
export function scaleRows(M, f) {
  return M.map((row, i) => row.map((x) => x * f[i]));
}

// Step 1. X (n, d_model) with W_q, W_k (d_model, d_k) and W_v (d_model, d_v) -> Q, K (n, d_k), V (n, d_v)
export function project(X, W_q, W_k, W_v) {
  return { Q: matmul(X, W_q), K: matmul(X, W_k), V: matmul(X, W_v) };
}

// Step 2. Q (n_q, d_k) and K (n_k, d_k) -> QKᵀ (n_q, n_k)
export function scores(Q, K) {
  return matmul(Q, transpose(K));
}

// Step 3. scores (n_q, n_k) -> the same divided by √d_k
export function scale(S, d_k) {
  const r = Math.sqrt(d_k);
  return S.map((row) => row.map((x) => x / r));
}

// Step 4 on one row: subtract the row's max (so exp never overflows), exponentiate, divide by the sum.
// A row whose every score is −∞ (every key masked) has no weights: this throws, as core.softmax raises.
export function softmaxRow(s) {
  const max = Math.max(...s);
  if (max === -Infinity) throw new RangeError("every key of this row is masked");
  const e = s.map((x) => Math.exp(x - max));
  let sum = 0;
  for (const x of e) sum += x;
  return e.map((x) => x / sum);
}

// Step 4. scores (n_q, n_k) -> weights A (n_q, n_k), each row summing to 1
export function softmax(S) {
  return S.map(softmaxRow);
}

// mask (n_q, n_k) of booleans, true = may attend: a masked score becomes −∞ (its weight then is 0)
export function applyMask(S, mask) {
  return S.map((row, i) => row.map((x, j) => (mask[i][j] ? x : -Infinity)));
}

// the query rows whose every key is masked (they have no weights): [] when every row sees some key
export function fullyMaskedRows(mask) {
  return mask.flatMap((row, i) => (row.some(Boolean) ? [] : [i]));
}

// Step 4 with a mask: softmax(applyMask(S, mask)); rows that see no key at all are left as null
export function maskedSoftmax(S, mask) {
  return applyMask(S, mask).map((row, i) => (mask[i].some(Boolean) ? softmaxRow(row) : null));
}

// Step 5. weights A (n_q, n_k) and V (n_k, d_v) -> O (n_q, d_v)
export function weightedSum(A, V) {
  return matmul(A, V);
}

// Steps 2–5 as core.attention: Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v) -> {QKT, S, A, O, d_k, shapes}
export function attention(Q, K, V, { mask = null, scaled = true } = {}) {
  const d_k = Q[0].length;
  const QKT = scores(Q, K);
  let S = scaled ? scale(QKT, d_k) : QKT;
  if (mask) S = applyMask(S, mask);
  const A = softmax(S);
  return { Q, K, V, QKT, S, A, O: weightedSum(A, V), d_k };
}

// the shape (rows, columns) of a matrix
export function shape(M) {
  return [M.length, M.length ? M[0].length : 0];
}

// entropy −Σ a·ln a of one row of weights (0·ln 0 = 0), as base.entropy
export function entropy(a) {
  let h = 0;
  for (const x of a) if (x > 0) h -= x * Math.log(x);
  return h;
}

// Frobenius norm of softmax's Jacobian at weights a (n,): J = diag(a) − a aᵀ (gradients.softmax_jacobian)
export function jacobianNorm(a) {
  let s = 0;
  for (let i = 0; i < a.length; i++)
    for (let j = 0; j < a.length; j++) {
      const x = (i === j ? a[i] : 0) - a[i] * a[j];
      s += x * x;
    }
  return Math.sqrt(s);
}

// the index of the largest entry (the first one on a tie, as numpy.argmax)
export function argmax(a) {
  let best = 0;
  for (let i = 1; i < a.length; i++) if (a[i] > a[best]) best = i;
  return best;
}

// the population standard deviation (numpy.std's default)
export function std(a) {
  let m = 0;
  for (const x of a) m += x;
  m /= a.length;
  let v = 0;
  for (const x of a) v += (x - m) * (x - m);
  return Math.sqrt(v / a.length);
}

export function sum(a) {
  let s = 0;
  for (const x of a) s += x;
  return s;
}
