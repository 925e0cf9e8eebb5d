"""attn_core: scaled dot-product attention in five steps, for the self-attention notebooks.

The math, and only the math, lives in this package's modules:

    core.py            the five steps (project, scores, scale, softmax, weighted_sum), masks, and
                       attention / self_attention composing them
    multihead.py       multi-head attention (split_heads, merge_heads, multi_head_attention)
    online_softmax.py  attention over blocks of keys with a running softmax (exact, less memory)
    gradients.py       the backward pass through the five steps and a toy training task
    positions.py       word order: sinusoidal position encodings and rotary embeddings (RoPE)
    decoding.py        generating token by token: the KV cache, grouped-query attention (MQA, GQA), cache size
    cost.py            what one Transformer layer costs in multiply-adds, and where n² takes over
    examples.py        the running examples (我 / 喜欢 / 学习 / 语言 and the two coreference sentences)
    _validate.py       input checks: clear errors instead of wrong answers
    lang.py, messages.py   the language switch (zh / en) and the learner-facing messages

Two layers sit on top and are never imported from here: ``attn_viz`` (fonts, plots, the SVG
explorers) and ``attn_homework`` (tasks, the checker, the grader, student versions).
"""

from .core import (
    Trace,
    apply_mask,
    attention,
    causal_mask,
    project,
    scale,
    scores,
    self_attention,
    softmax,
    weighted_sum,
)
from .decoding import KVCache, decode_cached, decode_recompute, decode_step, grouped_query_attention, kv_cache_bytes
from .lang import get_lang, set_lang
from .multihead import MultiHeadTrace, merge_heads, multi_head_attention, split_heads
from .positions import rope, sinusoidal_positions

__version__ = "0.2.0"

__all__ = [
    "KVCache",
    "MultiHeadTrace",
    "Trace",
    "apply_mask",
    "attention",
    "causal_mask",
    "decode_cached",
    "decode_recompute",
    "decode_step",
    "get_lang",
    "grouped_query_attention",
    "kv_cache_bytes",
    "merge_heads",
    "multi_head_attention",
    "project",
    "rope",
    "scale",
    "scores",
    "self_attention",
    "set_lang",
    "sinusoidal_positions",
    "softmax",
    "split_heads",
    "weighted_sum",
]
