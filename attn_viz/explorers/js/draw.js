// The SVG kit for the page: a port of attn_viz/svg.py (what the explorers need), drawing the same
// pictures with the same colours and sizes. Every function adds elements to an Svg; Svg.render() gives
// the document as one string (the page sets it as the picture's markup; node can print it).
// Rules kept from svg.py: no text under 14 px (a projected figure stays readable), every text colour
// meets WCAG AA contrast (4.5:1) on what it is drawn on, the picture carries a <title> and a <desc>.
// Every attention-weight heatmap uses one fixed 0–1 scale (viridis) with the same colour bar; a masked
// cell is drawn as masked (hatched, "−∞ → 0"), never as a dark "0.00".

export const FONT_FAMILY = PAGE_CONFIG.fontFamily; // svg.FONT_FAMILY, written in by esm.py (one list of fonts)
export const MIN_FONT = 14;
export const INK = "#222222";
export const MUTED = "#666666"; // 5.7:1 on white
export const GRID = "#d0d0d0";
export const BAR = "#31688e"; // viridis 0.35
export const GHOST = "#444444";
export const MASKED = "#e3e3e3";
export const MASKED_INK = "#555555"; // 5.8:1 on MASKED
export const HATCH = "#a0a0a0";
export const HIGHLIGHT = "#000000";
export const ERROR = "#b00020"; // 7.2:1 on white
export const ACCENT = "#c05a00";
export const WHITE = "#ffffff";
export const BLACK = "#000000";

// viridis sampled at 0, 1/16, …, 1 (matplotlib's table), interpolated to 256 levels as svg.py does
const VIRIDIS = [
  "#440154", "#48186a", "#472d7b", "#424086", "#3b528b", "#33638d", "#2c728e", "#26828e", "#21918c",
  "#1fa088", "#28ae80", "#3fbc73", "#5ec962", "#84d44b", "#addc30", "#d8e219", "#fde725",
].map((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));

// Python's round(): to nearest, ties to even (svg.py formats colours with int(round(c)))
function roundHalfEven(x) {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

function viridisExact(t) {
  t *= VIRIDIS.length - 1;
  const i = Math.min(Math.floor(t), VIRIDIS.length - 2);
  const rgb = VIRIDIS[i].map((c, k) => c + (t - i) * (VIRIDIS[i + 1][k] - c));
  return "#" + rgb.map((c) => roundHalfEven(c).toString(16).padStart(2, "0")).join("");
}

const LUT = Array.from({ length: 256 }, (_, k) => viridisExact(k / 255));
const level = (t) => Math.floor(Math.min(Math.max(t, 0), 1) * 255 + 0.5);

// colour for t in [0, 1] (clipped) as "#rrggbb"
export function viridis(t) {
  return LUT[level(t)];
}

// WCAG 2.x relative luminance and contrast ratio (1 … 21) of "#rrggbb" colours
export function relativeLuminance(colour) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(colour.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a, b) {
  const [lo, hi] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => x - y);
  return (hi + 0.05) / (lo + 0.05);
}

const INK_LUT = LUT.map((c) => (contrast(WHITE, c) >= contrast(BLACK, c) ? WHITE : BLACK));

// text colour on a cell of viridis(t): white or black, whichever contrasts more (never under 4.6:1)
export function inkOn(t) {
  return INK_LUT[level(t)];
}

// Python's f"{x:.{digits}f}": the exact value rounded, an exact tie to the even neighbour (toFixed would
// round it up), so that the page prints what attn_viz/svg.py prints
export function pyFixed(x, digits) {
  const a = Math.abs(x);
  let s = a.toFixed(digits);
  const p = 10 ** digits;
  const lower = Math.floor(a * p);
  if (a * p - lower === 0.5 && (lower + 0.5) / p === a && lower % 2 === 0) s = (lower / p).toFixed(digits);
  return x < 0 || Object.is(x, -0) ? "-" + s : s;
}

// fixed-point text with a true minus sign; never "−0.00" (svg.fmt)
export function fmt(x, digits = 2) {
  x = Number(x);
  const s = pyFixed(x, digits);
  if (!s.startsWith("-")) return s;
  return Number(s) === 0 ? s.slice(1) : "−" + s.slice(1);
}

// "1.5" for a slider value such as ×1.5, Python's :g for short numbers
export function num(x) {
  return String(Number(x));
}

export function esc(text) {
  return String(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}

// d_k, d_v, d_model, d_head, d_ff are drawn with a real subscript (svg.SUBSCRIPTED, svg.marked_up)
const SUBSCRIPTED = /(?<![A-Za-z0-9_])d_(k|v|model|head|ff)(?![A-Za-z0-9_])/g;
const SUBSCRIPT_DROP = 0.3; // em below the baseline
const RADICAL_PULL = 0.3; // em: how much closer to √ the next character is drawn (svg.RADICAL_PULL)

// `text` escaped for SVG, the subscript of d_k in a <tspan> lowered by dy (at least MIN_FONT px) and the
// rest of the text raised back to the baseline (svg.marked_up)
export function markedUp(text, size) {
  // the font's √ is 1 em wide, its bar ending at the right edge: pull what follows in (svg.marked_up)
  const escaped = esc(text).replaceAll("√", `<tspan letter-spacing="-${pyFixed(size * RADICAL_PULL, 1)}">√</tspan>`);
  const drop = pyFixed(size * SUBSCRIPT_DROP, 1);
  const small = Math.max(MIN_FONT, roundHalfEven(0.8 * size));
  let out = "";
  let start = 0;
  let lowered = false;
  for (const m of escaped.matchAll(SUBSCRIPTED)) {
    const before = escaped.slice(start, m.index);
    out += lowered && before ? `<tspan dy="-${drop}">${before}</tspan>` : before;
    out += `d<tspan dy="${drop}" font-size="${small}">${m[1]}</tspan>`;
    start = m.index + m[0].length;
    lowered = true;
  }
  const rest = escaped.slice(start);
  out += lowered && rest ? `<tspan dy="-${drop}">${rest}</tspan>` : rest;
  return out;
}

// rough rendered width in px: a hanzi/fullwidth char ≈ 1 em, other chars ≈ 0.6 em (as svg.text_width)
export function textWidth(text, size) {
  let w = 0;
  for (const ch of String(text)) w += ch.codePointAt(0) > 0x2e80 ? size : 0.6 * size;
  return w;
}

const f1 = (x) => pyFixed(Number(x), 1);

// collects SVG elements; render() returns the document as one string
export class Svg {
  constructor(width, height, title = "", description = "") {
    this.width = width;
    this.height = height;
    this.title = title;
    this.description = description;
    this.parts = [];
  }

  rect(x, y, w, h, { fill = "none", stroke = null, sw = 1, dash = null, opacity = null } = {}) {
    let a = `x="${f1(x)}" y="${f1(y)}" width="${f1(Math.max(w, 0))}" height="${f1(Math.max(h, 0))}" fill="${fill}"`;
    if (stroke) a += ` stroke="${stroke}" stroke-width="${sw}"`;
    if (dash) a += ` stroke-dasharray="${dash}"`;
    if (opacity !== null) a += ` fill-opacity="${opacity}"`;
    this.parts.push(`<rect ${a}/>`);
  }

  line(x1, y1, x2, y2, { stroke = GRID, sw = 1, dash = null } = {}) {
    let a = `x1="${f1(x1)}" y1="${f1(y1)}" x2="${f1(x2)}" y2="${f1(y2)}" stroke="${stroke}" stroke-width="${sw}"`;
    if (dash) a += ` stroke-dasharray="${dash}"`;
    this.parts.push(`<line ${a}/>`);
  }

  text(x, y, s, { size = 16, anchor = "start", fill = INK, bold = false, rotate = null } = {}) {
    if (size < MIN_FONT) throw new RangeError(`font size ${size}px is below the projector minimum of ${MIN_FONT}px.`);
    let a = `x="${f1(x)}" y="${f1(y)}" font-size="${size}" fill="${fill}"`;
    if (anchor !== "start") a += ` text-anchor="${anchor}"`;
    if (bold) a += ' font-weight="bold"';
    if (rotate !== null) a += ` transform="rotate(${rotate} ${f1(x)} ${f1(y)})"`;
    this.parts.push(`<text ${a}>${markedUp(s, size)}</text>`);
  }

  // the document: <title> names the picture and <desc> says what it shows, with its key numbers
  render() {
    const w = roundHalfEven(this.width);
    const h = roundHalfEven(this.height);
    const head =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" ` +
      `font-family="${FONT_FAMILY}" role="img" style="max-width:100%;height:auto;background:#ffffff">`;
    const title = this.title ? `<title>${esc(this.title)}</title>` : "";
    const desc = this.description ? `<desc>${esc(this.description)}</desc>` : "";
    return head + title + desc + this.parts.join("") + "</svg>";
  }
}

// vertical bars at (x, y) inside a width × height box (title and labels included), as svg.bars:
// ghost = a dashed outline at other values (e.g. the default setting); sublabels = a second label line
export function bars(svg, x, y, values, labels, o) {
  const { width, height, ghost = null, sublabels = null, title = "", vmin = 0, vmax = 1 } = o;
  const { ticks = [0, 0.5, 1], colors = null, ghostLabel = null, tickDigits = 1, glosses = null } = o;
  const n = values.length;
  const top = y + (title ? 30 : 8);
  const labelH = 26 + (sublabels ? 22 : 0) + (glosses ? 20 : 0);
  const plotH = height - (top - y) - labelH - 20;
  const axisW = 46;
  const slot = (width - axisW) / Math.max(n, 1);
  const barW = Math.min(slot * 0.62, 80);
  const span = vmax - vmin;
  const ypos = (v) => top + 20 + (plotH * (vmax - Math.min(Math.max(v, vmin), vmax))) / span;
  if (title) svg.text(x, y + 20, title, { size: 17, bold: true });
  for (const t of ticks) {
    svg.line(x + axisW, ypos(t), x + width, ypos(t), { stroke: GRID });
    svg.text(x + axisW - 6, ypos(t) + 5, fmt(t, tickDigits), { size: 14, anchor: "end", fill: MUTED });
  }
  const zero = ypos(0);
  svg.line(x + axisW, zero, x + width, zero, { stroke: MUTED, sw: 1.5 });
  values.forEach((val, j) => {
    const cx = x + axisW + slot * (j + 0.5);
    const [y0, y1] = [zero, ypos(val)].sort((a, b) => a - b);
    svg.rect(cx - barW / 2, y0, barW, y1 - y0, { fill: colors ? colors[j] : BAR });
    if (ghost) {
      const [g0, g1] = [zero, ypos(ghost[j])].sort((a, b) => a - b);
      svg.rect(cx - barW / 2 - 4, g0, barW + 8, g1 - g0, { stroke: GHOST, sw: 2, dash: "6 4" });
    }
    let labelY;
    if (val < 0) labelY = y1 + 18;
    else {
      // above the bar itself, inside a taller ghost; above a ghost's edge it would cross (svg.bars)
      labelY = y0 - 7;
      if (ghost && ghost[j] > 0 && y0 - 24 < ypos(ghost[j]) && ypos(ghost[j]) <= y0) labelY = ypos(ghost[j]) - 7;
    }
    if (val > vmax) labelY = Math.max(labelY, top + 14); // off the top of a fixed axis: the value still shows
    if (val < vmin) labelY = Math.min(labelY, top + 20 + plotH - 4);
    svg.text(cx, labelY, fmt(val), { size: 15, anchor: "middle", bold: true });
    const base = top + 20 + plotH + 22;
    svg.text(cx, base, labels[j], { size: 16, anchor: "middle" });
    if (glosses) svg.text(cx, base + 19, glosses[j], { size: 14, anchor: "middle", fill: MUTED });
    if (sublabels) svg.text(cx, base + 21 + (glosses ? 20 : 0), sublabels[j], { size: 14, anchor: "middle", fill: MUTED });
  });
  if (ghost && ghostLabel) {
    const lx = x + width - textWidth(ghostLabel, 14) - 30;
    svg.rect(lx, y + 8, 22, 14, { stroke: GHOST, sw: 2, dash: "6 4" });
    svg.text(lx + 28, y + 20, ghostLabel, { size: 14, fill: MUTED });
  }
}

// a masked cell: grey, hatched, "−∞ → 0" (or "−∞" when the cell is small): the weight is 0 because the
// score was set to −∞, not because the two words ignore each other
export function maskedCell(svg, cx, cy, cell, size) {
  svg.rect(cx, cy, cell, cell, { fill: MASKED, stroke: WHITE, sw: 1 });
  for (const f of [0.25, 0.5, 0.75, 1]) {
    svg.line(cx + 3, cy + cell * f - 3 + 3 * f, cx + cell * f - 3 + 3 * f, cy + 3, { stroke: HATCH, sw: 1 });
  }
  const label = cell >= 60 ? "−∞ → 0" : "−∞";
  const pad = 6; // the hatching stops clear of the label (svg.masked_cell)
  svg.rect(cx + cell / 2 - textWidth(label, size) / 2 - pad, cy + cell / 2 - size / 2 - 3, textWidth(label, size) + 2 * pad, size + 6, { fill: MASKED });
  svg.text(cx + cell / 2, cy + cell / 2 + 5, label, { size, anchor: "middle", fill: MASKED_INK });
}

// the room heatmap leaves for its row labels and the row title (px), as svg.row_label_width
export function rowLabelWidth(rows, rowTitle = "") {
  return Math.max(...rows.map((r) => textWidth(r, 16)), textWidth(rowTitle + " ↓", 15)) + 14;
}

// weights A (n_q × n_k) as coloured cells with their values, rows = queries, columns = keys, on the fixed
// 0–1 scale; mask (true = may attend) draws masked cells as masked. Returns [width, height] used.
export function heatmap(svg, x, y, A, rows, cols, o = {}) {
  const { cell = 56, title = "", rowTitle = "", colTitle = "", highlightRow = null, mask = null } = o;
  const { mutedRows = [], mutedCols = [], colGlosses = null, numberSize = null, droppedRows = [] } = o;
  const { highlightCell = null } = o; // [row, column]: one cell the text talks about, outlined in ACCENT
  // labelSize: the row and column labels at this size (the axis titles 2 px smaller), as svg.heatmap's
  // label_size; rowGlosses: a second, smaller line under each row label; rows all "" and no rowTitle: none
  const { labelSize: labelSizeOption = null, rowGlosses = null } = o;
  const nq = A.length;
  const nk = cols.length;
  const rowLabelW = o.rowLabelW ?? rowLabelWidth(rows, rowTitle);
  const size = cell < 52 ? 14 : 15;
  const numbers = numberSize !== 0; // numberSize: the cells' numbers at this size, 0 = colours only
  const lift = numberSize ? Math.floor((numberSize * 7) / 20) : 5; // baseline below the cell's centre (px)
  const nSize = numberSize || size;
  const gx = x + rowLabelW;
  const ty = y + (title ? 26 : 0);
  const labelSize = labelSizeOption || (cell >= 44 ? 16 : 14);
  const titleSize = labelSizeOption ? labelSize - 2 : 15;
  const glossSize = Math.max(MIN_FONT, labelSize - 2);
  if (title) svg.text(x, y + 19, title, { size: 17, bold: true });
  svg.text(gx, ty + 20, colTitle, { size: titleSize, fill: MUTED });
  if (rowTitle) svg.text(gx - 8, ty + 44, rowTitle + " ↓", { size: titleSize, fill: MUTED, anchor: "end" });
  const glossH = colGlosses ? glossSize + 6 : 0;
  const gy = ty + 52 + 10 + glossH + Math.max(0, labelSize - 16);
  cols.forEach((c, j) => {
    const fill = mutedCols.includes(j) ? MUTED : INK;
    svg.text(gx + cell * (j + 0.5), gy - 8 - glossH, c, { size: labelSize, anchor: "middle", fill });
    if (colGlosses) svg.text(gx + cell * (j + 0.5), gy - 8, colGlosses[j], { size: glossSize, anchor: "middle", fill: MUTED });
  });
  for (let i = 0; i < nq; i++) {
    const cy = gy + cell * i;
    const fill = mutedRows.includes(i) ? MUTED : INK;
    if (rowGlosses) {
      // the token over its gloss, both inside the row's height
      svg.text(gx - 8, cy + cell / 2 - 2, rows[i], { size: labelSize, anchor: "end", fill });
      svg.text(gx - 8, cy + cell / 2 + glossSize, rowGlosses[i], { size: glossSize, anchor: "end", fill: MUTED });
    } else {
      svg.text(gx - 8, cy + cell / 2 + 6, rows[i], { size: labelSize, anchor: "end", fill });
    }
    for (let j = 0; j < nk; j++) {
      const cx = gx + cell * j;
      if (mask && !mask[i][j]) {
        maskedCell(svg, cx, cy, cell, size);
        continue;
      }
      const t = A[i] ? A[i][j] : NaN;
      if (!Number.isFinite(t)) {
        svg.rect(cx, cy, cell, cell, { fill: WHITE, stroke: GRID, sw: 1 });
        continue;
      }
      const dropped = droppedRows.includes(i); // a padding query's row: grey, its weights in grey (never used)
      svg.rect(cx, cy, cell, cell, { fill: dropped ? MASKED : viridis(t), stroke: WHITE, sw: 1 });
      if (numbers) svg.text(cx + cell / 2, cy + cell / 2 + lift, fmt(t), { size: nSize, anchor: "middle", fill: dropped ? MASKED_INK : inkOn(t) });
    }
  }
  if (highlightRow !== null && highlightRow !== undefined) {
    const hy = gy + cell * highlightRow;
    svg.rect(gx - 2, hy - 2, cell * nk + 4, cell + 4, { stroke: HIGHLIGHT, sw: 3.5 });
    svg.rect(gx + 1, hy + 1, cell * nk - 2, cell - 2, { stroke: WHITE, sw: 1.5 });
  }
  if (highlightCell !== null && highlightCell !== undefined) {
    const cx = gx + cell * highlightCell[1];
    const cy = gy + cell * highlightCell[0];
    svg.rect(cx + 2.5, cy + 2.5, cell - 5, cell - 5, { stroke: ACCENT, sw: 3.5 });
    svg.rect(cx + 5, cy + 5, cell - 10, cell - 10, { stroke: WHITE, sw: 1 });
  }
  return [rowLabelW + cell * nk, gy - y + cell * nq];
}

// the legend of the 0–1 weight scale, the same in every explorer (label: "attention weight"); with
// maskedLabel, the masked swatch beside it. Returns the height used.
export function colorbar(svg, x, y, { width = 220, label = "", maskedLabel = null, droppedLabel = null, size = 14 } = {}) {
  // size: the legend's text (a wide picture, scaled down on the board, passes 15 to stay legible there)
  const steps = 10;
  for (let k = 0; k < steps; k++) {
    svg.rect(x + (width * k) / steps, y, width / steps + 0.5, 14, { fill: viridis((k + 0.5) / steps) });
  }
  svg.text(x, y + 32, "0", { size, anchor: "middle", fill: MUTED });
  svg.text(x + width / 2, y + 32, "0.5", { size, anchor: "middle", fill: MUTED });
  svg.text(x + width, y + 32, "1", { size, anchor: "middle", fill: MUTED });
  if (label) svg.text(x + width + 14, y + 13, label, { size, fill: MUTED });
  if (maskedLabel) {
    const mx = x + width + 24 + textWidth(label, size);
    svg.rect(mx, y, 18, 14, { fill: MASKED, stroke: HATCH });
    svg.line(mx + 2, y + 12, mx + 16, y + 2, { stroke: HATCH, sw: 1.5 });
    svg.text(mx + 24, y + 13, maskedLabel, { size, fill: MUTED });
  }
  if (droppedLabel) {
    // the grey of a dropped row (a padding query), on the line under the scale's numbers
    svg.rect(x, y + 44, 18, 14, { fill: MASKED, stroke: GRID });
    svg.text(x + 24, y + 57, droppedLabel, { size, fill: MUTED });
    return 62;
  }
  return 36;
}

// a labelled horizontal meter: track 0..vmax, filled up to value, text on the right
export function gauge(svg, x, y, { width, value, vmax, label, text }) {
  svg.text(x, y + 15, label, { size: 15 });
  const ty = y + 24;
  svg.rect(x, ty, width, 16, { fill: "#eeeeee", stroke: GRID });
  const frac = vmax > 0 ? Math.min(Math.max(value / vmax, 0), 1) : 0;
  svg.rect(x, ty, width * frac, 16, { fill: BAR });
  svg.text(x + width + 10, ty + 14, text, { size: 15, bold: true });
}

// rows of text cells at the given column offsets; the first row bold when header. Returns the height.
export function table(svg, x, y, rows, colX, { header = true, size = 15, lineH = 22 } = {}) {
  rows.forEach((cells, r) =>
    cells.forEach((cell, c) =>
      svg.text(x + colX[c], y + lineH * (r + 1), cell, {
        size,
        bold: header && r === 0,
        fill: r === 0 || c !== cells.length - 1 ? INK : MUTED,
      }),
    ),
  );
  return lineH * rows.length + 6;
}

// a teaching message drawn in the picture (e.g. "this row sees no key"), in a framed box; returns height
export function notice(svg, x, y, width, lines, { fill = "#fff4e5", stroke = ACCENT, size = 16 } = {}) {
  const h = 14 + lines.length * (size + 8);
  svg.rect(x, y, width, h, { fill, stroke, sw: 1.5 });
  lines.forEach((line, k) => svg.text(x + 12, y + 8 + (k + 1) * (size + 8) - 6, line, { size, fill: INK }));
  return h;
}

// the layout every picture shares (px), as attn_viz/explorers/base.py
export const MARGIN = 10; // left edge of the heading and of the first panel
export const HEADING_BASELINE = 24;
export const HEADING_SIZE = 18;
export const PANELS_TOP = 40; // panels start under the heading
export const PANEL_TITLE_SIZE = 17;

// a new picture titled `title` with its bold heading line drawn (base.Explorer.picture)
export function picture(title, heading, width = 0, height = 0) {
  const pic = new Svg(width, height, title);
  pic.text(MARGIN, HEADING_BASELINE, heading, { size: HEADING_SIZE, bold: true });
  return pic;
}
