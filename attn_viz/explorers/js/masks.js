// Lesson 07's mask explorer: no mask, a causal mask, or a padding mask on the four-word example.
// attn_viz/explorers/masks.py is the reference (attn_core computes, svg.py draws the static picture).
// Convention (attn_core's): true = may attend; a masked score becomes −∞ before softmax, so its weight is
// exactly 0, drawn as a hatched "−∞ → 0" cell, never as a dark 0.00. A row that sees no key at all has no
// weights (attn_core raises ValueError): the picture says so in words instead of drawing numbers.

import { applyMask, project, scale, scores, softmaxRow } from "./attention.js";
import * as draw from "./draw.js";
import { wrap } from "./kv.js";

export const MASK_MODES = ["none", "causal", "padding"];

// layout (px), as masks.py
const WIDTH = 780;
const CELL = 72;
const LEGEND_GAP = 16;
const LEGEND_WIDTH = 180;
const BELOW_GRID = 58;
const DROPPED_LEGEND_H = 26; // the legend's second line: the grey of a padding query's row
const NOTICE_GAP = 24; // the notice: beside the grid, so no room is kept under it
const NOTICE_TOP = 40;
const NOTICE_SIZE = 15;

// maskCells(mode, n, padding) -> n × n booleans (true = may attend), or null for "none" (masks.mask_cells).
// The last `padding` tokens are padding, hidden on the key side from every query (their own rows are
// kept: a real model drops them at the output); "causal" adds: query i sees keys 0 … i only.
export function maskCells(mode, n, padding = 0) {
  if (mode === "none") return null;
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => j < n - padding && (mode !== "causal" || j <= i)),
  );
}

// maskedWeights(S, mask) -> {A, emptyRows}: S (n_q × n_k) scaled scores; mask (n_q × n_k) or null.
// Each row: −∞ where masked, then softmax with max subtraction (attention.softmaxRow); masked cells get
// weight exactly 0. A row with no key left goes into emptyRows, its weights NaN.
export function maskedWeights(S, mask) {
  const emptyRows = [];
  const masked = mask ? applyMask(S, mask) : S;
  const A = masked.map((row, i) => {
    if (mask && !mask[i].some(Boolean)) {
      emptyRows.push(i);
      return row.map(() => NaN);
    }
    return softmaxRow(row);
  });
  return { A, emptyRows };
}

// maskState(Q, K, mode, padding) -> {mode, padding, mask, S, A, emptyRows, masked}: Q, K (n × d_k).
// S = QKᵀ/√d_k, then the masked softmax; `masked` counts the cells that may not attend.
export function maskState(Q, K, mode, padding) {
  const n = Q.length;
  const p = mode !== "none" ? padding : 0;
  const mask = maskCells(mode, n, p);
  const S = scale(scores(Q, K), Q[0].length);
  const { A, emptyRows } = maskedWeights(S, mask);
  const masked = mask ? mask.flat().filter((x) => !x).length : 0;
  return { mode, padding: p, mask, S, A, emptyRows, masked };
}

// data: tokens, labels (glossed in English), glosses, X (n, d_model), W_q, W_k, W_v
export function compute(data, values) {
  const { Q, K } = project(data.X, data.W_q, data.W_k, data.W_v);
  return maskState(Q, K, values.mode, Number(values.padding));
}

export function render(data, values, state, t) {
  const { tokens, labels } = data;
  const n = tokens.length;
  const { A, mask, padding: p, masked, emptyRows } = state;
  const heading = t(`mask_heading_${state.mode}` + (state.mode === "causal" && p ? "_padding" : ""), { padding: p });
  const pic = draw.picture(data.title, heading, WIDTH);
  const padded = Array.from({ length: p }, (_, k) => n - p + k);
  const [heatW, heatH] = draw.heatmap(pic, draw.MARGIN, draw.PANELS_TOP, A, labels, tokens, {
    cell: CELL,
    rowTitle: t("axis_queries"),
    colTitle: t("axis_keys"),
    mask,
    mutedRows: padded,
    mutedCols: padded, // the rows carry the glosses; the columns are the same tokens, as in every heatmap
    droppedRows: padded, // a padding query's row is computed, then thrown away: grey
    colGlosses: data.glosses, // the English edition's “I” under 我, as the rows' 我 “I”
  });
  let y = draw.PANELS_TOP + heatH + LEGEND_GAP;
  const dropped = p > 0 && !emptyRows.length;
  draw.colorbar(pic, 20, y, {
    width: LEGEND_WIDTH,
    label: t("legend_weight"),
    maskedLabel: masked ? t("mask_legend_masked") : null,
    droppedLabel: dropped ? t("mask_legend_dropped") : null,
  });
  y += BELOW_GRID - LEGEND_GAP + (dropped ? DROPPED_LEGEND_H : 0);
  pic.height = y;
  if (emptyRows.length) {
    // beside the grid (masks.py): the picture keeps its height and no blank band waits under it
    const words = emptyRows.map((i) => labels[i]).join(t("list_sep"));
    const x = draw.MARGIN + heatW + NOTICE_GAP;
    const width = WIDTH - draw.MARGIN - x;
    const lines = t("mask_no_key", { tokens: words }).split("\n").flatMap((par) => wrap(par, NOTICE_SIZE, width - 24));
    const h = draw.notice(pic, x, draw.PANELS_TOP + NOTICE_TOP, width, lines, { size: NOTICE_SIZE });
    pic.height = Math.max(pic.height, draw.PANELS_TOP + NOTICE_TOP + h + 8);
  }

  const sums = A.map((row) => row.reduce((a, b) => a + b, 0));
  const sumText = (s) => (Number.isFinite(s) ? draw.fmt(s) : "—");
  const lines = [
    t("mask_masked_cells", { count: masked }),
    t("mask_row_sums", { sums: tokens.map((tok, i) => `${tok} ${sumText(sums[i])}`).join("  ") }),
  ];
  if (p) lines.push(t("mask_padding_rows"));
  const full = mask || A.map((row) => row.map(() => true));
  const rows = tokens.map((tok, i) => {
    if (emptyRows.includes(i)) return t("row_values", { query: tok, values: t("mask_row_empty") });
    const seen = tokens.flatMap((u, j) => (full[i][j] ? [t("token_value", { token: u, value: draw.fmt(A[i][j]) })] : []));
    return t("row_values", { query: tok, values: seen.join(t("list_sep")) });
  });
  const body = t("mask_desc", { n, count: masked, rows: rows.join(t("row_sep")) });
  return { picture: pic, lines, description: t("desc_sentences", { first: heading, second: body }) };
}

export const explorer = { compute, render };
