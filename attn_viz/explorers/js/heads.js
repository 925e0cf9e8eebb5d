// Lesson 08's head explorer: several heads look at the same sentence, each with its own budget of weight.
// attn_viz/explorers/heads.py is the reference (attn_core.multihead computes; svg.py draws the static picture).
// Two sets of projections: lesson 08's designed heads (section 5: head 1 matches the pronoun's query with
// "animate" keys, head 2 with "state" keys) and seeded random ones (untrained: what each favours is chance).
// Head h uses columns h·d_head … (h + 1)·d_head − 1 of Q and K and divides by √d_head (split_heads).

import { argmax, matmul, scale, softmax, transpose } from "./attention.js";
import * as draw from "./draw.js";

// layout (px), as heads.py
const SMALL_CELL = 46;
const LARGE_CELL = 60;
const SHORT_SENTENCE = 6;
const LONG_LABELS = 20; // the tick labels of the small cells' maps
const MAP_GAP = 24;
const SHARED_ROWS_W = 8; // the second map's rows are the first map's, not labelled again
const LEGEND_GAP = 14;
const LEGEND_WIDTH = 200;
const BELOW_GRID = 54;
const NOTE_H = 28;
const PAGE_WIDTH = 860; // the picture's room on the page (a row of its own: data.wide), as heads.py
const MIN_PAGE_TEXT = 12;
const UNIFORM_TOLERANCE = 1e-9;

// numberSize(width, cell) -> the cells' number size (px), ≥ MIN_PAGE_TEXT once scaled to PAGE_WIDTH, or 0
export function numberSize(width, cell) {
  const size = Math.max(15, Math.ceil((MIN_PAGE_TEXT * Math.max(width, PAGE_WIDTH)) / PAGE_WIDTH));
  return draw.textWidth("0.00", size) + 8 <= cell ? size : 0;
}

// shownToken(token) -> a punctuation token quoted (“，”) in a list of weights, as heads.shown_token
export function shownToken(token) {
  return token && /^\p{P}+$/u.test(token) ? `“${token}”` : token;
}

// rowLabelWidth(tokens, glosses, rowTitle, size) -> the room left of the first map, as heads.row_label_width
function rowLabelWidth(tokens, glosses, rowTitle, size) {
  const widths = tokens.map((tok) => draw.textWidth(tok, size)).concat([draw.textWidth(rowTitle + " ↓", size - 2)]);
  return Math.max(...widths, ...(glosses || []).map((g) => draw.textWidth(g, size - 2))) + 14;
}

// rowLine(t, who, query, row, tokens) -> the key a row attends to most, or that the row is uniform
function rowLine(t, who, query, row, tokens) {
  if (Math.max(...row) - Math.min(...row) <= UNIFORM_TOLERANCE) {
    return t("head_uniform", { who, query, weight: draw.fmt(Math.max(...row)) });
  }
  const f = favourite(row);
  return t("head_favourite", { who, query, favourite: tokens[f], weight: draw.fmt(row[f]) });
}

// headWeights(X, W_q, W_k, nHeads) -> A (nHeads, n, n): X (n, d_model), W_q and W_k (d_model, d), d
// divisible by nHeads. Q = X·W_q and K = X·W_k cut into nHeads slices of width d_head; per head
// softmax(Q_h K_hᵀ / √d_head). V and W_O do not change the weights.
export function headWeights(X, W_q, W_k, nHeads) {
  const Q = matmul(X, W_q);
  const K = matmul(X, W_k);
  const dHead = Q[0].length / nHeads;
  return Array.from({ length: nHeads }, (_, h) => {
    const slice = (M) => M.map((row) => row.slice(h * dHead, (h + 1) * dHead));
    return softmax(scale(matmul(slice(Q), transpose(slice(K))), dHead));
  });
}

// averageHeads(A) -> (n, n): the mean of the heads' maps, cell by cell (the "average" panel)
export function averageHeads(A) {
  return A[0].map((row, i) => row.map((_, j) => A.reduce((acc, head) => acc + head[i][j], 0) / A.length));
}

// favourite(row) -> the index of the largest weight (the first one on a tie, like numpy's argmax)
export function favourite(row) {
  return argmax(row);
}

// data: tokens, labels (glossed in English: the query slider), glosses (under the first map's row labels),
// X, n_heads, d_model,
// projections: {name: {W_q, W_k}} ("designed" with the default example, and "random")
export function compute(data, values) {
  const W = data.projections[values.projections];
  const A = headWeights(data.X, W.W_q, W.W_k, data.n_heads);
  return { A, avg: averageHeads(A), head: Number(values.head), qi: data.tokens.indexOf(values.query) };
}

export function render(data, values, state, t) {
  const { tokens, glosses, n_heads: nHeads, d_model: dModel } = data;
  const { A, avg, head: h, qi } = state;
  const n = tokens.length;
  const cell = n > SHORT_SENTENCE ? SMALL_CELL : LARGE_CELL;
  const labelSize = n > SHORT_SENTENCE ? LONG_LABELS : 16;
  const query = tokens[qi]; // words in the text; the glosses on a line under the row labels
  const heading = t("head_heading", { n_heads: nHeads, width: dModel / nHeads, query });
  const pic = draw.picture(data.title, heading);
  const rowTitle = t("axis_queries");
  const rowsW = rowLabelWidth(tokens, glosses, rowTitle, labelSize);
  const width = 2 * draw.MARGIN + MAP_GAP + rowsW + SHARED_ROWS_W + 2 * cell * n;
  const numbers = numberSize(width, cell);
  const axes = { cell, highlightRow: qi, colTitle: t("axis_keys"), numberSize: numbers, labelSize };
  const which = t(`head_projections_${values.projections}`);
  const [headW, heatH] = draw.heatmap(pic, draw.MARGIN, draw.PANELS_TOP, A[h - 1], tokens, tokens, {
    ...axes,
    title: t("head_panel", { head: h, which }),
    rowTitle,
    rowLabelW: rowsW,
    rowGlosses: glosses, // the English edition's “it” under 它; the columns plain
  });
  const [avgW] = draw.heatmap(pic, draw.MARGIN + headW + MAP_GAP, draw.PANELS_TOP, avg, tokens.map(() => ""), tokens, {
    ...axes,
    title: t("head_average", { n_heads: nHeads }),
    rowLabelW: SHARED_ROWS_W,
  });
  draw.colorbar(pic, draw.MARGIN + headW - cell * n, draw.PANELS_TOP + heatH + LEGEND_GAP, {
    width: LEGEND_WIDTH,
    label: t("legend_weight"),
    size: 15,
  });
  pic.width = draw.MARGIN + headW + MAP_GAP + avgW + draw.MARGIN;
  pic.height = draw.PANELS_TOP + heatH + BELOW_GRID;
  if (!numbers) {
    pic.text(draw.MARGIN, pic.height + 14, t("head_no_numbers", { n, query }), { size: 15, fill: draw.MUTED });
    pic.height += NOTE_H;
  }

  const lines = [];
  const rows = A.map((a, k) => [t("head_name", { head: k + 1 }), a[qi]]).concat([[t("head_average_name"), avg[qi]]]);
  for (const [who, row] of rows) lines.push(rowLine(t, who, query, row, tokens));
  const tokenValues = (row) => tokens.map((tok, k) => t("token_value", { token: shownToken(tok), value: draw.fmt(row[k]) })).join(t("list_sep"));
  if (!numbers) {
    for (const [who, row] of [[t("head_name", { head: h }), A[h - 1][qi]], [t("head_average_name"), avg[qi]]]) {
      lines.push(t("head_row_weights", { who, query, weights: tokenValues(row) }));
    }
  }
  const body = t("head_desc", { head: h, n_heads: nHeads, query, weights: tokenValues(A[h - 1][qi]), average: tokenValues(avg[qi]) });
  return { picture: pic, lines, description: t("desc_sentences", { first: heading, second: body }) };
}

export const explorer = { compute, render };
