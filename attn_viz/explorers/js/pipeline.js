// Lesson 06: the five steps at once (attn_viz/explorers/pipeline.py is the reference and the static picture).
// Controls: query (which token asks), one key slider per token (×0 … ×3 on its row of K), scaled, d_k.
// d_k takes the first d_k columns of fixed wider W_Q, W_K (the example's own columns first, then seeded
// random ones, made in Python): moving d_k adds columns and never swaps the projections.

import { attention, argmax, columns, entropy, project, scaleRows, shape, sum } from "./attention.js";
import * as draw from "./draw.js";

// layout (px), as pipeline.py
const WIDTH = 860;
const CELL = 64;
const LEGEND_GAP = 14;
const LEGEND_WIDTH = 200;
const BARS_GAP = 40;
const BARS_BELOW_GRID = 10;
const SHAPES_GAP = 82;
const SHAPE_COLUMNS = [0, 60, 140, 240];
const TABLE_BELOW_TITLE = 4;
const SPACE_UNDER_TABLE = 10;
const NOTE_GAP = 22; // the note on the extra columns, under the colour bar

// data: tokens, X (n, d_model), W_q and W_k (d_model, widest d_k), W_v (d_model, d_v)
export function compute(data, values) {
  const { tokens, X } = data;
  const d_k = Number(values.d_k);
  const scaled = Boolean(values.scaled);
  const qi = tokens.indexOf(values.query);
  const mult = tokens.map((tok) => Number(values[tok]));
  const { Q, K, V } = project(X, columns(data.W_q, d_k), columns(data.W_k, d_k), data.W_v);
  const trace = attention(Q, scaleRows(K, mult), V, { scaled });
  const ghost = attention(Q, K, V, { scaled }).A[qi];
  const shapes = { X: shape(X), Q: shape(Q), K: shape(K), V: shape(V), QKT: shape(trace.QKT), S: shape(trace.S), A: shape(trace.A), O: shape(trace.O) };
  return { A: trace.A, O: trace.O, qi, mult, ghost, d_k, scaled, shapes };
}

// tellingDigits(row) -> [digits, tied]: the decimals (2 … most) the readout needs so that the largest weight
// does not print as the runner-up's, and the words still tied for it at that many (pipeline.telling_digits)
export function tellingDigits(row, most = 4) {
  let digits = 2;
  const top = (d) => draw.fmt(Math.max(...row), d);
  while (digits < most && row.filter((x) => draw.fmt(x, digits) === top(digits)).length > 1) digits += 1;
  return [digits, row.map((x, k) => k).filter((k) => draw.fmt(row[k], digits) === top(digits))];
}

export function render(data, values, state, t) {
  const { tokens, labels, glosses } = data;
  const { A, qi } = state;
  const n = tokens.length;
  const row = A[qi];
  const query = labels[qi];
  const mode = state.scaled ? t("mode_scaled") : t("mode_unscaled");
  const heading = t("pipeline_heading", { d_k: state.d_k, mode, query });
  const pic = draw.picture(data.title, heading, WIDTH);
  const [heatW, heatH] = draw.heatmap(pic, draw.MARGIN, draw.PANELS_TOP, A, labels, tokens, {
    cell: CELL,
    title: t("pipeline_weights"),
    rowTitle: t("axis_queries"),
    colTitle: t("axis_keys"),
    highlightRow: qi, // the rows carry the glosses (我 “I”); the columns are the same tokens
  });
  const gridLeft = draw.MARGIN + heatW - n * CELL;
  const legendTop = draw.PANELS_TOP + heatH + LEGEND_GAP;
  draw.colorbar(pic, gridLeft, legendTop, { width: LEGEND_WIDTH, label: t("legend_weight") });
  const sub = state.mult.map((m) => `×${draw.fmt(m, 1)}`);
  draw.bars(pic, heatW + draw.MARGIN + BARS_GAP, draw.PANELS_TOP, row, tokens, {
    width: WIDTH - heatW - (2 * draw.MARGIN + BARS_GAP),
    height: heatH + BARS_BELOW_GRID,
    ghost: state.ghost,
    title: t("pipeline_row", { query }),
    ghostLabel: t("pipeline_ghost"),
    sublabels: sub,
    glosses,
  });
  const steps = data.steps[state.scaled ? "scaled" : "unscaled"];
  let shapesTop = draw.PANELS_TOP + heatH + SHAPES_GAP;
  const extra = state.d_k - data.d0;
  if (extra > 0) {
    pic.text(draw.MARGIN, shapesTop - 14, t("pipeline_extra_columns", { own: data.d0, extra }), { size: 15, fill: draw.MUTED });
    shapesTop += NOTE_GAP;
  }
  pic.height = shapesTop - draw.PANEL_TITLE_SIZE;
  if (data.shape_table) {
    pic.text(draw.MARGIN, shapesTop, t("pipeline_shapes"), { size: draw.PANEL_TITLE_SIZE, bold: true });
    const rows = [t("pipeline_shapes_header").split("|")];
    for (const [step, sym, meaning, name] of steps) rows.push([step, sym, state.shapes[name].join(" × "), meaning]);
    const tableH = draw.table(pic, draw.MARGIN, shapesTop + TABLE_BELOW_TITLE, rows, SHAPE_COLUMNS);
    pic.height = Math.trunc(shapesTop + SPACE_UNDER_TABLE + tableH);
  }

  const favourite = argmax(row);
  const sep = t("list_sep");
  const tokenValues = (vals, notes) =>
    tokens.map((tok, k) => t("token_value", { token: tok, value: draw.fmt(vals[k]) }) + (notes ? t("in_brackets", { text: notes[k] }) : "")).join(sep);
  const [digits, tied] = tellingDigits(row);
  const lines = [
    t("pipeline_row_weights", { query, weights: tokens.map((tok, k) => `${tok} ${draw.fmt(row[k], digits)}`).join("  ") }),
    t(tied.length > 1 ? "pipeline_favourite_tied" : "pipeline_favourite", {
      favourite: labels[favourite],
      tied: tied.map((k) => t("pipeline_tied_word", { word: labels[k] })).join(sep),
      weight: draw.fmt(row[favourite], digits),
      total: draw.fmt(sum(row)),
    }),
  ];
  let body = t("pipeline_desc", { n, query, weights: tokenValues(row, sub), ghost: tokenValues(state.ghost) });
  if (data.shape_table) {
    const shapes = steps.map(([, sym, , name]) => `${sym} ${state.shapes[name].join(" × ")}`).join(sep);
    body = t("desc_sentences", { first: body, second: t("pipeline_desc_shapes", { shapes }) });
  }
  const description = t("desc_sentences", { first: heading, second: body });
  return { picture: pic, lines, description, numbers: { entropy: entropy(row) } };
}

export const explorer = { compute, render };
