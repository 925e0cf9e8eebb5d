// Lesson 14's KV-cache explorer, the math: the cache's size and one generated token's work, as
// attn_core/decoding.py counts them (kv_cache_bytes, attention_traffic, decode_token_cost, roofline_seconds).
// Exact integers up to 2^53: the largest count here (Llama 2 7B, 4,096 tokens, no cache) is about 9·10^12.

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
// is projected and attends to `context` cached positions; without it all `context` rows are recomputed.
export function decodeTokenCost(c) {
  const rows = c.cached ? 1 : c.context;
  const weights = c.dModel * (2 * c.nHeads + 2 * c.nKvHeads) * c.dHead;
  const [mads, kvBytes] = attentionTraffic(rows, c.context, c.nHeads, c.nKvHeads, c.dHead, c.bytesPerValue);
  return [c.layers * (rows * weights + mads), c.layers * (weights * c.bytesPerValue + kvBytes)];
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
