// Lesson 12's position explorer, the math: sinusoidal encodings and RoPE, as in attn_core/positions.py.
// Frequencies ω_k = base^(−2k/d), k = 0 … d/2 − 1: pair k turns by ω_k radians per position.

export const ENCODINGS = ["none", "sinusoidal", "rope"];
export const BASE = 10000;

// positionFrequencies(d) -> (d/2,): ω_k = base^(−2k/d). d must be even.
export function positionFrequencies(d, base = BASE) {
  const out = [];
  for (let k = 0; k < d; k += 2) out.push(base ** (-k / d));
  return out;
}

// sinusoidalAt(p, d) -> (d,): PE[2k] = sin(p·ω_k), PE[2k + 1] = cos(p·ω_k) (position p counted from 0).
export function sinusoidalAt(p, d, base = BASE) {
  const pe = [];
  for (const w of positionFrequencies(d, base)) pe.push(Math.sin(p * w), Math.cos(p * w));
  return pe;
}

// ropeRow(x, p) -> (d,): pair k = features (2k, 2k + 1) turned by p·ω_k (the interleaved layout).
export function ropeRow(x, p, base = BASE) {
  const out = x.slice();
  positionFrequencies(x.length, base).forEach((w, k) => {
    const c = Math.cos(p * w);
    const s = Math.sin(p * w);
    out[2 * k] = x[2 * k] * c - x[2 * k + 1] * s;
    out[2 * k + 1] = x[2 * k] * s + x[2 * k + 1] * c;
  });
  return out;
}

function project(x, W) {
  return W[0].map((_, c) => x.reduce((acc, v, r) => acc + v * W[r][c], 0));
}

// positionedRow(x, W_q, W_k, W_v, p, encoding) -> {q, k, v}: one row x (d_model,) at position p.
// "sinusoidal": PE(p) added to x before the projections (d_model even); "rope": the first
// d_k − d_k mod 2 features of q and k rotated after them (v never); "none": the plain projections.
export function positionedRow(x, W_q, W_k, W_v, p, encoding) {
  const xp = encoding === "sinusoidal" ? x.map((a, t) => a + sinusoidalAt(p, x.length)[t]) : x;
  let q = project(xp, W_q);
  let k = project(xp, W_k);
  const v = project(xp, W_v);
  if (encoding === "rope") {
    const r = q.length - (q.length % 2);
    q = ropeRow(q.slice(0, r), p).concat(q.slice(r));
    k = ropeRow(k.slice(0, r), p).concat(k.slice(r));
  }
  return { q, k, v };
}

function dot(a, b) {
  return a.reduce((acc, x, t) => acc + x * b[t], 0);
}

// weightsWithPositions(X, W_q, W_k, W_v, encoding) -> A (n × n): row r of X at position r, then
// softmax(QKᵀ/√d_k) row by row (max subtracted), as attn_core.positions.attention_with_positions.
export function weightsWithPositions(X, W_q, W_k, W_v, encoding) {
  const rows = X.map((x, p) => positionedRow(x, W_q, W_k, W_v, p, encoding));
  const dK = rows[0].q.length;
  return rows.map(({ q }) => {
    const s = rows.map(({ k }) => dot(q, k) / Math.sqrt(dK));
    const top = Math.max(...s);
    const e = s.map((x) => Math.exp(x - top));
    const total = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / total);
  });
}

// scoreCurve(xq, xk, W_q, W_k, W_v, encoding, i, j, shifts) -> (shifts + 1,): q·k (not scaled) with the
// query word at i + s and the key word at j + s, s = 0 … shifts. Flat for RoPE and for "none".
export function scoreCurve(xq, xk, W_q, W_k, W_v, encoding, i, j, shifts) {
  const out = [];
  for (let s = 0; s <= shifts; s++) {
    const q = positionedRow(xq, W_q, W_k, W_v, i + s, encoding).q;
    const k = positionedRow(xk, W_q, W_k, W_v, j + s, encoding).k;
    out.push(dot(q, k));
  }
  return out;
}

// reorderedByWord(X, order, ...) -> A (n × n) of the sentence X[order], rows and columns put back in the
// original word order: cell [w][u] is word w's weight on word u wherever the reordering put them.
export function reorderedByWord(X, order, W_q, W_k, W_v, encoding) {
  const A = weightsWithPositions(
    order.map((w) => X[w]),
    W_q,
    W_k,
    W_v,
    encoding,
  );
  const back = [];
  order.forEach((w, r) => (back[w] = r));
  return back.map((r) => back.map((c) => A[r][c]));
}

// reorderings(n) -> [[order], …]: reversed, the last word first, neighbours swapped (duplicates dropped),
// as attn_viz/explorers/positions.py's reorderings.
export function reorderings(n) {
  const candidates = [
    [...Array(n).keys()].reverse(),
    [n - 1, ...Array(n - 1).keys()],
    [...Array(n).keys()].map((k) => ((k ^ 1) < n ? k ^ 1 : k)),
  ];
  const seen = new Set();
  return candidates.filter((o) => !seen.has(o.join()) && seen.add(o.join()));
}

// hands(xq, xk, W_q, W_k, W_v, encoding, i, j) -> [[x, y], [x, y]]: pair 0 of what the dial shows.
// Sinusoidal: the encodings themselves, (sin p, cos p) at p = i and j; otherwise pair 0 of q at i, k at j.
export function hands(xq, xk, W_q, W_k, W_v, encoding, i, j) {
  if (encoding === "sinusoidal") return [i, j].map((p) => sinusoidalAt(p, xq.length).slice(0, 2));
  return [
    positionedRow(xq, W_q, W_k, W_v, i, encoding).q.slice(0, 2),
    positionedRow(xk, W_q, W_k, W_v, j, encoding).k.slice(0, 2),
  ];
}
