"""attn_core: scaled dot-product attention in five steps, for the self-attention notebooks.

The computation lives in ``attn_core.core`` (re-exported here); the running examples in
``attn_core.examples``; teaching helpers (fonts, plots, explorers, checks) in modules of their own.
"""

from .core import (
    MultiHeadTrace,
    Trace,
    apply_mask,
    attention,
    causal_mask,
    merge_heads,
    multi_head_attention,
    project,
    scale,
    scores,
    self_attention,
    softmax,
    split_heads,
    weighted_sum,
)
from .lang import get_lang, set_lang

__version__ = "0.1.0"

__all__ = [
    "MultiHeadTrace", "Trace", "apply_mask", "attention", "causal_mask", "get_lang", "merge_heads",
    "multi_head_attention", "project", "scale", "scores", "self_attention", "set_lang", "softmax",
    "split_heads", "weighted_sum",
]
