// Lessons 03–04: why the scores are divided by √d_k (attn_viz/explorers/dk.py is the reference).
// A query q and four keys are the first d_k columns of one fixed draw (made in Python); the raw scores
// q·k spread like √d_k. The score axis is the same for every d_k and both modes (data.tops holds one
// value twice), so the growth shows and dividing by √d_k shrinks the bars instead of changing the axis.

import { entropy, jacobianNorm, scale, scores, softmaxRow, std } from "./attention.js";
import * as draw from "./draw.js";

// layout (px), as dk.py
const WIDTH = 820;
const HEIGHT = 470;
const SCORE_BARS = { x: draw.MARGIN, y: draw.PANELS_TOP, width: 370, height: 310 };
const WEIGHT_BARS = { x: 420, y: draw.PANELS_TOP, width: 390, height: 310 };
const AXIS_NOTE = { dx: 52, dy: 44 }; // "the same axis for every d_k", under the scores' title
const GAUGE_WIDTH = 300;
const ENTROPY_GAUGE_TOP = 362;
const GRADIENT_GAUGE_TOP = 414;
const STUCK_WEIGHT = 0.95;
const STUCK_GRADIENT = 0.05;

// data: draws (1 + n, widest d_k): row 0 is q, rows 1… the keys; grad_uniform = ‖J‖ at uniform weights
export function compute(data, values) {
  const d_k = Number(values.d_k);
  const scaled = Boolean(values.scaled);
  const q = [data.draws[0].slice(0, d_k)];
  const K = data.draws.slice(1).map((row) => row.slice(0, d_k));
  const raw = scores(q, K); // (1, n)
  const s = scaled ? scale(raw, d_k) : raw;
  const a = softmaxRow(s[0]);
  const grad = jacobianNorm(a);
  return {
    d_k,
    scaled,
    raw: raw[0],
    s: s[0],
    a,
    grad,
    grad_ratio: grad / data.grad_uniform,
    entropy: entropy(a),
    entropy_max: Math.log(data.tokens.length),
    std: std(raw[0]),
    sqrt: Math.sqrt(d_k),
  };
}

// a ratio as a percentage: one decimal below 10% (dk.percent)
export function percent(r) {
  return r < 0.1 ? `${draw.pyFixed(r * 100, 1)}%` : `${draw.pyFixed(r * 100, 0)}%`;
}

export function render(data, values, state, t) {
  const { tokens, labels, glosses } = data;
  const a = state.a;
  const mode = state.scaled ? t("mode_scaled") : t("mode_unscaled");
  const heading = t("dk_heading", { query: labels[data.qi], d_k: state.d_k, mode });
  const pic = draw.picture(data.title, heading, WIDTH, HEIGHT);
  const top = data.tops[state.scaled ? "scaled" : "unscaled"];
  draw.bars(pic, SCORE_BARS.x, SCORE_BARS.y, state.s, tokens, {
    width: SCORE_BARS.width,
    height: SCORE_BARS.height,
    vmin: -top,
    vmax: top,
    ticks: [-top, 0, top],
    title: t("dk_scores", { formula: state.scaled ? "q·k/√d_k" : "q·k" }),
    glosses,
  });
  pic.text(SCORE_BARS.x + AXIS_NOTE.dx, SCORE_BARS.y + AXIS_NOTE.dy, t("dk_axis_fixed", { top: draw.fmt(top, 1) }), { size: 14, fill: draw.MUTED });
  draw.bars(pic, WEIGHT_BARS.x, WEIGHT_BARS.y, a, tokens, {
    width: WEIGHT_BARS.width,
    height: WEIGHT_BARS.height,
    title: t("dk_weights"),
    glosses,
  });
  draw.gauge(pic, draw.MARGIN, ENTROPY_GAUGE_TOP, {
    width: GAUGE_WIDTH,
    value: state.entropy,
    vmax: state.entropy_max,
    label: t("dk_entropy_gauge"),
    text: `${draw.fmt(state.entropy)} / ln 4 = ${draw.fmt(state.entropy_max)}`,
  });
  draw.gauge(pic, draw.MARGIN, GRADIENT_GAUGE_TOP, {
    width: GAUGE_WIDTH,
    value: state.grad_ratio,
    vmax: 1,
    label: t("dk_gradient_gauge"),
    text: draw.fmt(state.grad, 3) + t("in_brackets", { text: percent(state.grad_ratio) }),
  });
  const maxWeight = Math.max(...a);
  const lines = [
    t("dk_max_weight", { weight: draw.fmt(maxWeight) }),
    t("dk_entropy", { entropy: draw.fmt(state.entropy), most: draw.fmt(state.entropy_max) }),
    t("dk_gradient", { gradient: draw.fmt(state.grad, 3), percent: percent(state.grad_ratio) }),
    t("dk_spread", { std: draw.fmt(state.std, 1), d_k: state.d_k, sqrt_d_k: draw.fmt(state.sqrt, 1) }),
  ];
  if (maxWeight > STUCK_WEIGHT && state.grad_ratio < STUCK_GRADIENT) lines.push(t("dk_stuck"));
  const sep = t("list_sep");
  const tokenValues = (vals) => tokens.map((tok, k) => t("token_value", { token: tok, value: draw.fmt(vals[k]) })).join(sep);
  const body = t("dk_desc", {
    scores: tokenValues(state.s),
    weights: tokenValues(a),
    entropy: draw.fmt(state.entropy),
    most: draw.fmt(state.entropy_max),
    percent: percent(state.grad_ratio),
  });
  return { picture: pic, lines, description: t("desc_sentences", { first: heading, second: body }) };
}

export const explorer = { compute, render };
