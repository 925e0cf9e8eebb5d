// Lesson 14's KV-cache explorer: K/V heads and context length -> the cache's size and one generated token's
// time, with the cache and without it. attn_viz/explorers/kv.py is the reference; the counts are those of
// attn_core/decoding.py (kv_cache_bytes, attention_traffic, decode_token_cost, roofline_seconds). They are
// exact integers (below 2^53: the largest here, Llama 2 7B at 4,096 tokens without a cache, is about 10^13).
// The time is a model, not a measurement: the Roofline lower bound under the learner's assumed peak and
// bandwidth (by default the A100 80GB SXM datasheet's, as in lesson 14), attention layers only.

import * as draw from "./draw.js";

// kvCacheBytes(layers, kvHeads, dHead, bytesPerValue, tokens) -> bytes:
// 2 (K and V) · layers · kvHeads · dHead · bytesPerValue · tokens.
export function kvCacheBytes(layers, kvHeads, dHead, bytesPerValue = 2, tokens = 1) {
  return 2 * layers * kvHeads * dHead * bytesPerValue * tokens;
}

// attentionTraffic(nNew, nContext, nHeads, nKvHeads, dHead, bytesPerValue) -> [multiply-adds, bytes]:
// one layer's QKᵀ and A·V for nNew queries over nContext positions, and its K and V read once.
export function attentionTraffic(nNew, nContext, nHeads, nKvHeads, dHead, bytesPerValue = 2) {
  return [2 * nHeads * nNew * nContext * dHead, kvCacheBytes(1, nKvHeads, dHead, bytesPerValue, nContext)];
}

// decodeTokenCost(c) -> [multiply-adds, bytes] of one generated token over every attention layer;
// c = {context, layers, nHeads, nKvHeads, dHead, dModel, bytesPerValue, cached}. With the cache one row
// is projected and attends to `context` cached positions; without it all `context` rows are recomputed
// and no cache is read (K and V come from the activations, which are not counted).
export function decodeTokenCost(c) {
  const rows = c.cached ? 1 : c.context;
  const weights = c.dModel * (2 * c.nHeads + 2 * c.nKvHeads) * c.dHead;
  const [mads, kvBytes] = attentionTraffic(rows, c.context, c.nHeads, c.nKvHeads, c.dHead, c.bytesPerValue);
  return [c.layers * (rows * weights + mads), c.layers * (weights * c.bytesPerValue + (c.cached ? kvBytes : 0))];
}

// rooflineSeconds(mads, bytes, peakFlops, bandwidth) -> seconds: max(2·mads / peak, bytes / bandwidth),
// a lower bound (Williams et al. 2009) under the learner's stated peak (FLOP/s) and bandwidth (bytes/s).
export function rooflineSeconds(mads, bytes, peakFlops, bandwidth) {
  return Math.max((2 * mads) / peakFlops, bytes / bandwidth);
}

// kvState(config, values) -> every number the picture shows. config = {layers, nHeads, dHead, dModel};
// values = {kv_heads, context, bytes_per_value, bandwidth_gb_s, peak_tflop_s}.
export function kvState(config, values) {
  const base = {
    context: values.context,
    layers: config.layers,
    nHeads: config.nHeads,
    nKvHeads: values.kv_heads,
    dHead: config.dHead,
    dModel: config.dModel,
    bytesPerValue: values.bytes_per_value,
  };
  const peak = values.peak_tflop_s * 1e12;
  const band = values.bandwidth_gb_s * 1e9;
  const [madsCached, bytesCached] = decodeTokenCost({ ...base, cached: true });
  const [madsRecompute, bytesRecompute] = decodeTokenCost({ ...base, cached: false });
  const perToken = kvCacheBytes(config.layers, values.kv_heads, config.dHead, values.bytes_per_value);
  const perTokenFull = kvCacheBytes(config.layers, config.nHeads, config.dHead, values.bytes_per_value);
  return {
    perToken,
    perTokenFull,
    cache: perToken * values.context,
    cacheFull: perTokenFull * values.context,
    madsCached,
    bytesCached,
    madsRecompute,
    bytesRecompute,
    secondsCached: rooflineSeconds(madsCached, bytesCached, peak, band),
    secondsRecompute: rooflineSeconds(madsRecompute, bytesRecompute, peak, band),
    memoryBoundCached: bytesCached / band >= (2 * madsCached) / peak,
    memoryBoundRecompute: bytesRecompute / band >= (2 * madsRecompute) / peak,
  };
}

// ---------------------------------------------------------------- the explorer

// layout (px), as kv.py
const WIDTH = 720;
const LABEL_W = 210;
const BAR_MAX = 300;
const ROW_H = 26;
const BAR_H = 18;
const GAP = 28;
const NOTE_LINE = 19;

const NOTE_SIZE = 14;
const AXIS_H = 24; // the time bars' decade ticks and their labels

// the length (px) of a time bar on the one logarithmic scale, 10^lo … 10^hi s (data.timeAxis, kv.time_bar):
// the same for every setting, so a longer time is a longer bar
export function timeBar(seconds, [lo, hi]) {
  return (BAR_MAX * (Math.log10(seconds) - lo)) / (hi - lo);
}

// the time bars' scale under them (kv.time_axis): a tick at every decade, labelled every third and at its end
function timeAxis(pic, y, axis, t) {
  const [lo, hi] = axis;
  const x0 = draw.MARGIN + LABEL_W;
  pic.line(x0, y, x0 + BAR_MAX, y, { stroke: draw.MUTED });
  for (let e = lo; e <= hi; e++) {
    const seconds = Number(`1e${e}`);
    const x = x0 + timeBar(seconds, axis);
    pic.line(x, y, x, y + 5, { stroke: draw.MUTED });
    const end = e === hi && ((hi % 3) + 3) % 3 >= 2; // the end's label, when two decades or more past the last
    if (e % 3 === 0 || end) pic.text(x, y + 19, timeText(seconds, t), { size: 14, anchor: "middle", fill: draw.MUTED });
  }
  pic.text(x0 - 22, y + 19, t("kv_time_scale"), { size: 14, anchor: "end", fill: draw.MUTED }); // clear of "1 µs"
}

// a token of a note line: one hanzi (or full-width mark), or a run of other characters up to its spaces
const TOKEN = /[^\u0000-\u2e80]|[\u0000-\u2e80]+?(?:\s+|(?=[^\u0000-\u2e80])|$)/gu;
const CLOSING = new Set("，。；：、）"); // never at the start of a line

// `line` broken into lines at most `width` px wide (draw.textWidth's estimate), between words or between
// two hanzi (kv.wrap): the notes stay inside the picture in both languages
export function wrap(line, size = NOTE_SIZE, width = WIDTH - 2 * draw.MARGIN) {
  const lines = [];
  let current = "";
  for (const token of line.match(TOKEN) || []) {
    if (current.trim() && !CLOSING.has(token) && draw.textWidth((current + token).trimEnd(), size) > width) {
      lines.push(current.trimEnd());
      current = token.trimStart();
    } else {
      current += token;
    }
  }
  lines.push(current.trimEnd());
  return lines;
}

// the notes under the bars, wrapped (kv.note_lines)
function noteLines(t, data, model, bandwidth, peak, source, beyond) {
  const notes = t("kv_assumption", { bandwidth, peak, source }).split("\n");
  if (beyond) notes.push(t("kv_beyond", { model, max: grouped(data.models[model].maxContext) }));
  return notes.flatMap((line) => wrap(line));
}

// the most note lines any setting has: the widest rates, the learner's own, past the limit (kv.most_note_lines)
function mostNoteLines(t, data) {
  const source = t("kv_source_own");
  const widest = [grouped(Math.max(...data.bandwidths)), grouped(Math.max(...data.peaks))];
  return Math.max(...Object.keys(data.models).map((m) => noteLines(t, data, m, ...widest, source, true).length));
}

// the picture's height with `bars` K/V-head bars and room for `notes` note lines: every setting of a model keeps it
function fullHeight(bars, notes) {
  return draw.PANELS_TOP + 20 + 12 + bars * ROW_H + GAP + 12 + 2 * ROW_H + AXIS_H + 16 + NOTE_LINE * notes + 6;
}

// K/V-head counts a model's query heads can be grouped into: the divisors of nHeads
export function kvOptions(nHeads) {
  return Array.from({ length: nHeads }, (_, k) => k + 1).filter((d) => nHeads % d === 0);
}

// "512 MiB", "36 KiB", "2 GiB": three significant digits in the largest binary unit that leaves ≥ 1 (kv.size_text)
export function sizeText(bytes, t) {
  for (const [unit, scale] of [["GiB", 2 ** 30], ["MiB", 2 ** 20], ["KiB", 2 ** 10]]) {
    if (bytes >= scale) return t("kv_size", { value: digits(bytes / scale), unit });
  }
  return t("kv_size", { value: digits(bytes), unit: "B" });
}

// "1.58 ms", "46.3 µs", "1.2 s" (kv.time_text)
export function timeText(seconds, t) {
  for (const [unit, scale] of [["s", 1], ["ms", 1e-3], ["µs", 1e-6]]) {
    if (seconds >= scale) return t("kv_size", { value: digits(seconds / scale), unit });
  }
  return t("kv_size", { value: digits(seconds / 1e-9), unit: "ns" });
}

// recomputing's time over the cached one, said as what it means (kv.speedup_text): not comparable while
// recomputing is memory-bound; else the cache's gain (1.05 and more), no real difference (within 5 %), or
// recomputing faster under this model (0.95 and less)
export function speedupText(ratio, recomputeMemoryBound, t) {
  let key = ratio >= 1.05 ? "kv_speedup" : ratio <= 0.95 ? "kv_speedup_slower" : "kv_speedup_even";
  if (recomputeMemoryBound) key = "kv_speedup_unknown"; // its bytes leave out the activations
  return t(key, { ratio: digits(ratio) });
}

// "1 token", "4,096 tokens" (kv.tokens_text)
export function tokensText(n, t) {
  return n === 1 ? t("kv_tokens_one") : t("kv_tokens", { n: grouped(n) });
}

// "1 K/V head", "8 K/V heads" (kv.kv_heads_text)
export function kvHeadsText(n, t) {
  return n === 1 ? t("kv_kv_heads_one") : t("kv_kv_heads", { n });
}

// "2.42 G", "9.9 T" (kv.count_text)
export function countText(n) {
  for (const [unit, scale] of [["T", 1e12], ["G", 1e9], ["M", 1e6], ["k", 1e3]]) {
    if (n >= scale) return `${digits(n / scale)} ${unit}`;
  }
  return String(n);
}

// three significant digits below 1,000 ("2.6", "46.3", "512"), whole numbers with commas above, rounded
// half to even as Python's f"{x:.3g}" and round() (kv._digits): draw.fmt does the rounding
export function digits(x) {
  if (x >= 1000) return grouped(Number(draw.fmt(x, 0)));
  const r = Number(draw.fmt(x, Math.max(0, 2 - Math.floor(Math.log10(x)))));
  return r >= 1000 ? grouped(r) : String(r);
}

// 4096 -> "4,096"
export function grouped(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

// linked(data, name, value, choices) -> the controls a choice fixes (kv.linked): a model sets the K/V heads
// to its own and the context to at most its limit, so a preset shows the model as published
export function linked(data, name, value, choices) {
  if (name !== "model") return {};
  const config = data.models[value];
  return { kv_heads: config.kvHeads, context: Math.min(Number(choices.context), config.maxContext) };
}

// data: models {name: {layers, nHeads, kvHeads, dHead, dModel, maxContext}}, a100 {bandwidth_gb_s, peak_tflop_s}
export function compute(data, values) {
  const config = data.models[values.model];
  const kv = Number(values.kv_heads);
  const v = {
    kv_heads: kv,
    context: Number(values.context),
    bytes_per_value: Number(values.bytes_per_value),
    bandwidth_gb_s: Number(values.bandwidth_gb_s),
    peak_tflop_s: Number(values.peak_tflop_s),
  };
  const caches = kvOptions(config.nHeads).map((g) => [g, kvCacheBytes(config.layers, g, config.dHead, v.bytes_per_value, v.context)]);
  // a learner's setting, said in the picture (attn_core's group_size would raise); the bars and notes stay live
  if (config.nHeads % kv !== 0) return { ...v, config, caches: caches.reverse(), error: "kv_not_divisor" };
  const state = kvState(config, v);
  return { ...state, ...v, config, caches: caches.reverse(), error: null };
}

export function render(data, values, state, t) {
  const { config } = state;
  const kv = Number(values.kv_heads);
  const context = Number(values.context);
  const heading = t(kv === config.kvHeads ? "kv_heading" : "kv_heading_changed", {
    model: values.model,
    kv_heads: kv,
    own: config.kvHeads,
    n_heads: config.nHeads,
    context: grouped(context),
    tokens: tokensText(context, t),
    kv_heads_text: kvHeadsText(kv, t),
    max: grouped(config.maxContext),
  });
  const pic = draw.picture(data.title, heading, WIDTH);
  let y = draw.PANELS_TOP + 20;
  pic.text(draw.MARGIN, y, t("kv_cache_panel", { tokens: tokensText(context, t) }), { size: draw.PANEL_TITLE_SIZE, bold: true });
  const top = Math.max(...state.caches.map(([, b]) => b));
  state.caches.forEach(([g, bytes], k) => {
    const rowY = y + 12 + k * ROW_H;
    const chosen = g === kv;
    const name = t(g === config.nHeads ? "kv_heads_mha" : g === 1 ? "kv_heads_mqa" : "kv_heads_gqa", { kv_heads: g });
    pic.text(draw.MARGIN, rowY + 14, name, { size: 15, bold: chosen });
    const length = (BAR_MAX * bytes) / top;
    pic.rect(draw.MARGIN + LABEL_W, rowY, length, BAR_H, { fill: chosen ? draw.ACCENT : draw.BAR });
    pic.text(draw.MARGIN + LABEL_W + length + 6, rowY + 14, sizeText(bytes, t), { size: 15, bold: chosen });
  });
  y += 12 + state.caches.length * ROW_H + GAP;
  let message = null;
  if (state.error) {
    // the time panel's place says why there is no time; the bars and the notes stay live
    const divisors = kvOptions(config.nHeads).join(t("list_sep"));
    message = t("kv_not_divisor", { n_heads: config.nHeads, kv_heads: kv, divisors }).split("\n");
    draw.notice(pic, draw.MARGIN, y - 14, WIDTH - 2 * draw.MARGIN, message);
  } else {
    pic.text(draw.MARGIN, y, t("kv_time_panel"), { size: draw.PANEL_TITLE_SIZE, bold: true });
    const times = [["cached", state.secondsCached, state.memoryBoundCached], ["recompute", state.secondsRecompute, state.memoryBoundRecompute]];
    times.forEach(([key, seconds, memoryBound], k) => {
      const rowY = y + 12 + k * ROW_H;
      pic.text(draw.MARGIN, rowY + 14, t(`kv_time_${key}`), { size: 15 });
      const length = timeBar(seconds, data.timeAxis);
      pic.rect(draw.MARGIN + LABEL_W, rowY, length, BAR_H, { fill: key === "cached" ? draw.ACCENT : draw.BAR });
      const bound = t(memoryBound ? "kv_memory_bound" : "kv_compute_bound");
      pic.text(draw.MARGIN + LABEL_W + length + 6, rowY + 14, t("kv_time_bound", { time: timeText(seconds, t), bound }), { size: 15 });
    });
    timeAxis(pic, y + 12 + 2 * ROW_H, data.timeAxis, t);
  }
  y += 12 + 2 * ROW_H + AXIS_H + 16;
  const a100 = data.a100;
  const own = state.bandwidth_gb_s !== a100.bandwidth_gb_s || state.peak_tflop_s !== a100.peak_tflop_s;
  const source = t(own ? "kv_source_own" : "kv_source_a100", { bandwidth: grouped(a100.bandwidth_gb_s), peak: grouped(a100.peak_tflop_s) });
  const rates = [grouped(state.bandwidth_gb_s), grouped(state.peak_tflop_s)];
  const notes = noteLines(t, data, values.model, ...rates, source, context > config.maxContext);
  notes.forEach((line, k) => pic.text(draw.MARGIN, y + NOTE_LINE * k, line, { size: NOTE_SIZE, fill: draw.MUTED }));
  pic.height = Math.max(y + NOTE_LINE * notes.length + 6, fullHeight(state.caches.length, mostNoteLines(t, data)));
  if (message) return { picture: pic, lines: message, description: t("desc_sentences", { first: heading, second: message.join(" ") }) };

  const full = state.caches.find(([g]) => g === config.nHeads)[1];
  const lines = [
    t("kv_cache_line", { per_token: sizeText(state.perToken, t), tokens: tokensText(context, t), cache: sizeText(state.cache, t), full: sizeText(full, t), n_heads: config.nHeads }),
    ...["cached", "recompute"].map((key) => {
      const K = key === "cached" ? "Cached" : "Recompute";
      return t(`kv_cost_line_${key}`, { mads: countText(state[`mads${K}`]), bytes: sizeText(state[`bytes${K}`], t), time: timeText(state[`seconds${K}`], t) });
    }),
    speedupText(state.secondsRecompute / state.secondsCached, state.memoryBoundRecompute, t),
  ];
  const caches = state.caches.map(([g, b]) => t("kv_bar_value", { kv_heads: g, value: sizeText(b, t) })).join(t("list_sep"));
  const body = t("kv_desc", { tokens: tokensText(context, t), caches, cached: timeText(state.secondsCached, t), recompute: timeText(state.secondsRecompute, t) });
  return { picture: pic, lines, description: t("desc_sentences", { first: heading, second: body }) };
}

export const explorer = { compute, render, linked };
