// The course's "enlarge one key twofold" exercise (attn_viz/explorers/keys.py is the reference).
// One slider per key multiplies that token's row of K; the query's weights are drawn as bars, the
// default weights (every key ×1) as a dashed ghost. The weights compete: they always sum to 1.

import { attention, scaleRows, sum } from "./attention.js";
import * as draw from "./draw.js";

// layout (px), as keys.py
const WIDTH = 760;
const HEIGHT = 380;
const BARS = { x: draw.MARGIN, y: draw.PANELS_TOP, width: 740, height: 330 };

// data: tokens, qi (the query's row), Q, K, V (n, d) of the example, default (the row with every key ×1)
export function compute(data, values) {
  const mult = data.tokens.map((tok) => Number(values[tok]));
  const trace = attention(data.Q, scaleRows(data.K, mult), data.V);
  return { mult, w: trace.A[data.qi], s: trace.S[data.qi], d_k: trace.d_k, A: trace.A, qi: data.qi };
}

// "+0.12", "−0.05", "0.00": a change with its sign (keys.signed)
export function signed(x) {
  const s = draw.fmt(x);
  return s.startsWith("−") || x <= 0 || s === draw.fmt(0) ? s : "+" + s;
}

export function render(data, values, state, t) {
  const { tokens, labels, glosses } = data;
  const { w, mult, s } = state;
  const base = data.default;
  const heading = t("key_heading", { query: labels[data.qi] });
  const pic = draw.picture(data.title, heading, WIDTH, HEIGHT);
  draw.bars(pic, BARS.x, BARS.y, w, tokens, {
    width: BARS.width,
    height: BARS.height,
    ghost: base,
    sublabels: mult.map((m, j) => `×${draw.fmt(m, 1)} · S ${draw.fmt(s[j])}`),
    ghostLabel: t("key_ghost"),
    glosses,
  });
  const change = w.map((x, j) => x - base[j]);
  const sep = t("list_sep");
  const weights = tokens.map((tok, j) => `${tok} ${draw.fmt(w[j])}` + t("in_brackets", { text: signed(change[j]) })).join("  ");
  const lines = [t("key_weights", { weights }), t("key_sum", { total: draw.fmt(sum(w)) })];
  tokens.forEach((tok, j) => {
    if (mult[j] > 1 && s[j] < 0) lines.push(t("key_negative", { token: labels[j] }));
  });
  const tokenValues = (vals, notes) =>
    tokens.map((tok, k) => t("token_value", { token: tok, value: draw.fmt(vals[k]) }) + (notes ? t("in_brackets", { text: notes[k] }) : "")).join(sep);
  const body = t("key_desc", {
    query: labels[data.qi],
    weights: tokenValues(w, mult.map((m) => `×${draw.fmt(m, 1)}`)),
    defaults: tokenValues(base),
  });
  return { picture: pic, lines, description: t("desc_sentences", { first: heading, second: body }) };
}

export const explorer = { compute, render };
