// Lesson 07's mask explorer, the math: which cells are masked, and the weights with those cells at −∞.
// Reads next to attn_core/core.py (causal_mask, masked softmax) and attn_viz/explorers/masks.py (compute).
// Convention (attn_core's): true = may attend; a masked score becomes −∞ before softmax, so its weight is 0.

export const MASK_MODES = ["none", "causal", "padding"];

// maskCells(mode, n, padding) -> n × n booleans (true = may attend), or null for "none".
// "causal": query i sees keys 0 … i. "padding": the last `padding` tokens are padding, hidden on the
// key side from every query (their own rows are kept: a real model ignores them at the output).
export function maskCells(mode, n, padding = 0) {
  if (mode === "none") return null;
  const cells = [];
  for (let i = 0; i < n; i++) {
    const row = [];
    for (let j = 0; j < n; j++) row.push(mode === "causal" ? j <= i : j < n - padding);
    cells.push(row);
  }
  return cells;
}

// maskedWeights(S, mask) -> {A, emptyRows}: S (n_q × n_k) scaled scores; mask (n_q × n_k) or null.
// Row softmax with max subtraction over the cells that may attend; masked cells get weight exactly 0.
// A row with no cell left cannot sum to 1 (attn_core raises ValueError): its index goes into emptyRows
// and its weights are left as NaN, so the picture can say why instead of drawing numbers.
export function maskedWeights(S, mask) {
  const A = [];
  const emptyRows = [];
  S.forEach((row, i) => {
    const keep = row.map((_, j) => (mask ? mask[i][j] : true));
    if (!keep.some(Boolean)) {
      emptyRows.push(i);
      A.push(row.map(() => NaN));
      return;
    }
    const top = Math.max(...row.filter((_, j) => keep[j]));
    const e = row.map((s, j) => (keep[j] ? Math.exp(s - top) : 0));
    const total = e.reduce((a, b) => a + b, 0);
    A.push(e.map((x) => x / total));
  });
  return { A, emptyRows };
}

// maskState(Q, K, mode, padding) -> {mask, S, A, emptyRows, masked}: Q (n × d_k), K (n × d_k).
// S = QKᵀ/√d_k, then the masked softmax; `masked` counts the cells that may not attend.
export function maskState(Q, K, mode, padding) {
  const n = Q.length;
  const dK = Q[0].length;
  const p = mode === "padding" ? padding : 0;
  const mask = maskCells(mode, n, p);
  const S = Q.map((q) => K.map((k) => q.reduce((acc, x, t) => acc + x * k[t], 0) / Math.sqrt(dK)));
  const { A, emptyRows } = maskedWeights(S, mask);
  const masked = mask ? mask.flat().filter((x) => !x).length : 0;
  return { mode, padding: p, mask, S, A, emptyRows, masked };
}
