// Lesson 12's position explorer: word order, with no position encoding, sinusoidal encodings or RoPE.
// attn_viz/explorers/positions.py is the reference (attn_core.positions computes; svg.py draws the static
// picture). Frequencies ω_k = base^(−2k/d), k = 0 … d/2 − 1: pair k turns by ω_k radians per position.
// Positions are counted from 0, as the heatmaps' labels 学习（2）, 语言（3） count them. The heatmaps follow
// the sliders: the query word at i, the key word at j, the others at their places (slotPositions).

import { matmul, scale, softmax, transpose } from "./attention.js";
import * as draw from "./draw.js";

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

// weightsWithPositions(X, W_q, W_k, W_v, encoding, positions) -> A (n × n): row r of X at positions[r]
// (by default r), then softmax(QKᵀ/√d_k) row by row (max subtracted), as attn_core's
// attention(*positioned_qkv(X, …, positions, encoding)) (attention_with_positions when positions = 0 … n − 1).
export function weightsWithPositions(X, W_q, W_k, W_v, encoding, positions = null) {
  const rows = X.map((x, r) => positionedRow(x, W_q, W_k, W_v, positions ? positions[r] : r, encoding));
  const Q = rows.map((r) => r.q);
  const K = rows.map((r) => r.k);
  return softmax(scale(matmul(Q, transpose(K)), Q[0].length));
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

// reorderedByWord(X, order, ..., positions) -> A (n × n) of the sentence X[order] (slot r, at positions[r],
// by default r, holds word order[r]), rows and columns put back in the original word order: cell [w][u] is
// word w's weight on word u wherever the reordering put them.
export function reorderedByWord(X, order, W_q, W_k, W_v, encoding, positions = null) {
  const A = weightsWithPositions(
    order.map((w) => X[w]),
    W_q,
    W_k,
    W_v,
    encoding,
    positions,
  );
  const back = [];
  order.forEach((w, r) => (back[w] = r));
  return back.map((r) => back.map((c) => A[r][c]));
}

// slotPositions(n, qi, ki, i, j) -> (n,): slot r at position r, but the query word's slot qi at i and the
// key word's ki at j (positions.slot_positions): word w sits in slot w, a reordering puts order[r] in slot r
export function slotPositions(n, qi, ki, i, j) {
  const slots = [...Array(n).keys()];
  slots[qi] = i;
  slots[ki] = j;
  return slots;
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

// ---------------------------------------------------------------- the explorer

export const SHIFTS = 20; // the curve moves both positions on by s = 0 … SHIFTS

// layout (px), as positions.py: the curve and the dial on top, the two heatmaps side by side below
const WIDTH = 920;
const CURVE = { x: draw.MARGIN, y: draw.PANELS_TOP, width: 500, height: 220 };
const DIAL_TITLE_X = 540;
const DIAL_CX = 650;
const DIAL_CY = draw.PANELS_TOP + 120;
const DIAL_RADIUS = 66;
const NOTE_LINE = 19;
const HEATMAPS_TOP = draw.PANELS_TOP + 262;
const SMALL_CELL = 34;
const LARGE_CELL = 48;
const GLOSSED_CELL = 72; // a short sentence's cells in the English edition: room for the column glosses
const SHORT_SENTENCE = 6;
const MAP_GAP = 40;
const LEGEND_GAP = 14;
const LEGEND_WIDTH = 200;
const BELOW_GRID = 54;

// data: tokens, labels, X (n, even d_model), W_q, W_k, W_v, qi, ki (the query and key words), orders
// {name: order}, y_range [low, high] (one fixed axis for every setting), ticks
export function compute(data, values) {
  const { X, W_q, W_k, W_v, qi, ki } = data;
  const encoding = values.encoding;
  const i = Number(values.i);
  const j = Number(values.j);
  const order = data.orders[values.order];
  const curve = scoreCurve(X[qi], X[ki], W_q, W_k, W_v, encoding, i, j, SHIFTS);
  const slots = slotPositions(X.length, qi, ki, i, j);
  const A = weightsWithPositions(X, W_q, W_k, W_v, encoding, slots);
  const AByWord = reorderedByWord(X, order, W_q, W_k, W_v, encoding, slots);
  const hs = hands(X[qi], X[ki], W_q, W_k, W_v, encoding, i, j);
  const ghosts =
    encoding === "rope"
      ? [positionedRow(X[qi], W_q, W_k, W_v, 0, "none").q.slice(0, 2), positionedRow(X[ki], W_q, W_k, W_v, 0, "none").k.slice(0, 2)]
      : null;
  return { encoding, i, j, order, slots, curve, A, AByWord, hands: hs, ghosts };
}

// SVG shapes draw.js does not have, written exactly as svg.py's Svg writes them (same attributes, same
// one-decimal rounding), so the page's picture is the very SVG of the static one
const f1 = (x) => draw.pyFixed(Number(x), 1);

function circle(pic, cx, cy, r, { fill = "none", stroke = draw.GRID, sw = 1, dash = null } = {}) {
  let a = `cx="${f1(cx)}" cy="${f1(cy)}" r="${f1(Math.max(r, 0))}" fill="${fill}" stroke="${stroke}" stroke-width="${sw}"`;
  if (dash) a += ` stroke-dasharray="${dash}"`;
  pic.parts.push(`<circle ${a}/>`);
}

function polyline(pic, points, { stroke = draw.BAR, sw = 2, dash = null } = {}) {
  const coords = points.map(([x, y]) => `${f1(x)},${f1(y)}`).join(" ");
  let a = `points="${coords}" fill="none" stroke="${stroke}" stroke-width="${sw}" stroke-linejoin="round"`;
  if (dash) a += ` stroke-dasharray="${dash}"`;
  pic.parts.push(`<polyline ${a}/>`);
}

function polygon(pic, points, fill) {
  pic.parts.push(`<polygon points="${points.map(([x, y]) => `${f1(x)},${f1(y)}`).join(" ")}" fill="${fill}"/>`);
}

function path(pic, d, { stroke = draw.INK, sw = 1.5, fill = "none" } = {}) {
  pic.parts.push(`<path d="${d}" fill="${fill}" stroke="${stroke}" stroke-width="${sw}"/>`);
}

// the curve ys(xs) in a box on a fixed y range [vmin, vmax] (svg.line_chart); mark = an index to circle
function lineChart(pic, box, xs, ys, o) {
  const { vmin, vmax, title, xLabel, mark, ticks, tickDigits = 0, color = draw.BAR } = o;
  const axisW = 56;
  const top = box.y + (title ? 30 : 8);
  const x0 = box.x + axisW;
  const x1 = box.x + box.width - 10;
  const y0 = top + 10;
  const y1 = box.y + box.height - (xLabel ? 46 : 26);
  const spanX = xs[xs.length - 1] - xs[0] || 1;
  const spanY = vmax - vmin || 1;
  const px = (v) => x0 + ((x1 - x0) * (v - xs[0])) / spanX;
  const py = (v) => y1 - ((y1 - y0) * (Math.min(Math.max(v, vmin), vmax) - vmin)) / spanY;
  if (title) pic.text(box.x, box.y + 20, title, { size: 17, bold: true });
  for (const tk of ticks) {
    pic.line(x0, py(tk), x1, py(tk), { stroke: tk !== 0 ? draw.GRID : draw.MUTED, sw: tk !== 0 ? 1 : 1.5 });
    pic.text(x0 - 6, py(tk) + 5, draw.fmt(tk, tickDigits), { size: 14, anchor: "end", fill: draw.MUTED });
  }
  for (const v of [xs[0], xs[Math.floor(xs.length / 2)], xs[xs.length - 1]]) {
    pic.text(px(v), y1 + 20, draw.fmt(v, 0), { size: 14, anchor: "middle", fill: draw.MUTED });
  }
  if (xLabel) pic.text((x0 + x1) / 2, y1 + 40, xLabel, { size: 14, anchor: "middle", fill: draw.MUTED });
  polyline(
    pic,
    xs.map((a, k) => [px(a), py(ys[k])]),
    { stroke: color, sw: 2.5 },
  );
  if (mark !== null && mark !== undefined) circle(pic, px(xs[mark]), py(ys[mark]), 6, { fill: color, stroke: "#ffffff", sw: 2 });
}

// hands [x, y, colour, label, dashed] from the centre of a circle, in units of the radius (svg.dial);
// the hands' names go in a legend beside the dial, so two hands at one angle (i = j) never hide them
function dial(pic, cx, cy, radius, hs, arc) {
  circle(pic, cx, cy, radius, { stroke: draw.GRID, sw: 1.5 });
  pic.line(cx - radius - 8, cy, cx + radius + 8, cy);
  pic.line(cx, cy - radius - 8, cx, cy + radius + 8);
  if (arc) {
    const a = Math.atan2(hs[arc[0]][1], hs[arc[0]][0]);
    const b = Math.atan2(hs[arc[1]][1], hs[arc[1]][0]);
    const turn = ((((b - a + Math.PI) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)) - Math.PI;
    const r = radius * 0.32;
    const sweep = turn > 0 ? 0 : 1; // counter-clockwise on screen is sweep 0 (y points down)
    const [x1, y1] = [cx + r * Math.cos(a), cy - r * Math.sin(a)];
    const [x2, y2] = [cx + r * Math.cos(a + turn), cy - r * Math.sin(a + turn)];
    path(pic, `M ${f1(x1)} ${f1(y1)} A ${f1(r)} ${f1(r)} 0 0 ${sweep} ${f1(x2)} ${f1(y2)}`, { stroke: draw.INK, sw: 1.5 });
  }
  const labels = [];
  for (const [hx, hy, colour, label, dashed] of hs) {
    const length = Math.hypot(hx, hy);
    if (length <= 1e-9) continue;
    const tipX = cx + radius * hx;
    const tipY = cy - radius * hy;
    const ux = hx / length;
    const uy = -hy / length;
    const bx = tipX - 12 * ux;
    const by = tipY - 12 * uy;
    pic.line(cx, cy, bx, by, { stroke: colour, sw: dashed ? 2 : 3, dash: dashed ? "6 4" : null });
    if (!dashed) {
      polygon(pic, [[tipX, tipY], [bx - 6 * uy, by + 6 * ux], [bx + 6 * uy, by - 6 * ux]], colour);
    }
    if (label) labels.push([colour, label]);
  }
  // the hands' names in a legend beside the dial: two hands at one angle (i = j) cannot hide each other's
  labels.forEach(([colour, label], k) => {
    const ly = cy - radius + 10 + 24 * k;
    pic.line(cx + radius + 18, ly - 5, cx + radius + 38, ly - 5, { stroke: colour, sw: 3 });
    pic.text(cx + radius + 44, ly, label, { size: 15, fill: colour, bold: true });
  });
}

export function render(data, values, state, t) {
  const { tokens, labels, qi, ki } = data;
  const { encoding, i, j, curve } = state;
  const query = tokens[qi]; // words in the text; the glossed labels on the axes
  const key = tokens[ki];
  const heading = t(`pos_heading_${encoding}`, { query, key_word: key, i, j });
  const pic = draw.picture(data.title, heading, WIDTH);
  const xs = Array.from({ length: SHIFTS + 1 }, (_, s) => s);
  lineChart(pic, CURVE, xs, curve, {
    vmin: data.y_range[0],
    vmax: data.y_range[1],
    title: t("pos_curve_title", { query, key_word: key }),
    xLabel: t("pos_curve_axis"),
    mark: 0,
    ticks: data.ticks,
  });

  pic.text(DIAL_TITLE_X, draw.PANELS_TOP + 20, t(`pos_dial_${encoding}`), { size: draw.PANEL_TITLE_SIZE, bold: true });
  const vectors = state.hands.concat(state.ghosts || []);
  const longest = Math.max(...vectors.map(([x, y]) => Math.hypot(x, y))) || 1;
  const [nameQ, nameK] = encoding === "sinusoidal" ? ["PE", "PE"] : ["q", "k"];
  const [q, k] = state.hands.map(([x, y]) => [x / longest, y / longest]);
  const hs = [
    [q[0], q[1], draw.BAR, t("pos_hand", { name: nameQ, position: i }), false],
    [k[0], k[1], draw.ACCENT, t("pos_hand", { name: nameK, position: j }), false],
  ];
  if (state.ghosts) state.ghosts.forEach(([x, y], g) => hs.push([x / longest, y / longest, g ? draw.ACCENT : draw.BAR, "", true]));
  dial(pic, DIAL_CX, DIAL_CY, DIAL_RADIUS, hs, [0, 1]);
  const note = t(`pos_dial_note_${encoding}`, { offset: draw.fmt(j - i, 0) });
  note.split("\n").forEach((line, n) =>
    pic.text(DIAL_TITLE_X, DIAL_CY + DIAL_RADIUS + 46 + NOTE_LINE * n, line, { size: 14, fill: draw.MUTED }),
  );

  const n = tokens.length;
  const cell = n > SHORT_SENTENCE ? SMALL_CELL : data.glosses ? GLOSSED_CELL : LARGE_CELL;
  const colGlosses = n > SHORT_SENTENCE ? null : data.glosses; // a long sentence's cells have no room
  const back = [];
  state.order.forEach((w, r) => (back[w] = r));
  const axes = { cell, highlightRow: qi, highlightCell: [qi, ki], rowTitle: t("axis_queries"), colGlosses };
  const at = (w, p) => t("pos_token_at", { token: labels[w], position: p }); // glossed in English
  const [beforeW, heatH] = draw.heatmap(pic, draw.MARGIN, HEATMAPS_TOP, state.A, tokens.map((_, w) => at(w, state.slots[w])), tokens, {
    ...axes,
    title: t("pos_before", { sentence: tokens.join(" ") }),
    colTitle: t("axis_keys"),
  });
  const sentence = state.order.map((w) => tokens[w]).join(" ");
  const [afterW] = draw.heatmap(pic, draw.MARGIN + beforeW + MAP_GAP, HEATMAPS_TOP, state.AByWord, tokens.map((_, w) => at(w, state.slots[back[w]])), tokens, {
    ...axes,
    title: t("pos_after", { sentence }),
    colTitle: t("pos_axis_keys_by_word"),
  });
  draw.colorbar(pic, draw.MARGIN + beforeW - cell * n, HEATMAPS_TOP + heatH + LEGEND_GAP, { width: LEGEND_WIDTH, label: t("legend_weight") });
  pic.width = Math.max(WIDTH, draw.MARGIN + beforeW + MAP_GAP + afterW + draw.MARGIN);
  pic.height = HEATMAPS_TOP + heatH + BELOW_GRID;

  const low = Math.min(...curve);
  const high = Math.max(...curve);
  let change = 0;
  state.A.forEach((row, a) => row.forEach((x, b) => (change = Math.max(change, Math.abs(state.AByWord[a][b] - x)))));
  const score = curve[0];
  const lines = [
    t("pos_score", { query, key_word: key, i, j, score: draw.fmt(score), offset: draw.fmt(j - i, 0) }),
    t(`pos_shift_${encoding}`, { shifts: SHIFTS, score: draw.fmt(score), low: draw.fmt(low), high: draw.fmt(high) }),
    t(encoding === "none" ? "pos_reorder_same" : "pos_reorder_differs", { sentence, change: draw.fmt(change) }),
  ];
  const scores =
    draw.fmt(low) === draw.fmt(high) ? t("pos_desc_constant", { score: draw.fmt(low) }) : t("pos_desc_range", { low: draw.fmt(low), high: draw.fmt(high) });
  const tokenValues = (row) => tokens.map((tok, w) => t("token_value", { token: tok, value: draw.fmt(row[w]) })).join(t("list_sep"));
  const body = t("pos_desc", {
    query,
    key_word: key,
    shifts: SHIFTS,
    scores,
    sentence,
    before: tokenValues(state.A[qi]),
    after: tokenValues(state.AByWord[qi]),
  });
  return { picture: pic, lines, description: t("desc_sentences", { first: heading, second: body }) };
}

export const explorer = { compute, render };
