// Lesson 08's head explorer, the math: multi-head attention's weights, one n × n map per head.
// Reads next to attn_core/multihead.py (split_heads, multi_head_attention): head h uses columns
// h·d_head … (h + 1)·d_head − 1 of Q and K, and scales by √d_head.

// headWeights(X, W_q, W_k, nHeads) -> A (nHeads × n × n): X (n × d_model), W_q and W_k (d_model × d).
// d must be divisible by nHeads (the explorer only offers divisors). V, W_O do not change the weights.
export function headWeights(X, W_q, W_k, nHeads) {
  const Q = X.map((x) => W_q[0].map((_, c) => x.reduce((acc, v, r) => acc + v * W_q[r][c], 0)));
  const K = X.map((x) => W_k[0].map((_, c) => x.reduce((acc, v, r) => acc + v * W_k[r][c], 0)));
  const dHead = Q[0].length / nHeads;
  const out = [];
  for (let h = 0; h < nHeads; h++) {
    const cols = [...Array(dHead).keys()].map((c) => h * dHead + c);
    out.push(
      Q.map((q) => {
        const s = K.map((k) => cols.reduce((acc, c) => acc + q[c] * k[c], 0) / Math.sqrt(dHead));
        const top = Math.max(...s);
        const e = s.map((x) => Math.exp(x - top));
        const total = e.reduce((a, b) => a + b, 0);
        return e.map((x) => x / total);
      }),
    );
  }
  return out;
}

// averageHeads(A) -> n × n: the mean of the heads' maps, cell by cell (what the "average" panel shows).
export function averageHeads(A) {
  return A[0].map((row, i) => row.map((_, j) => A.reduce((acc, head) => acc + head[i][j], 0) / A.length));
}

// favourite(row) -> the index of the largest weight (the first one on a tie, like numpy's argmax).
export function favourite(row) {
  return row.reduce((best, x, j) => (x > row[best] ? j : best), 0);
}
