"""Lesson 15: a tiny Transformer that was trained, run with the five steps (multi-head, as in lesson 08).

Two layers of causal multi-head self-attention and nothing else (no feed-forward network, no LayerNorm),
trained by ``tools/train_induction_heads.py`` to predict the next token of random sequences in which one
segment repeats. The weights ship in ``data/induction_heads.npz``.

    model = load()                       the weights and the training curve
    logits, A = forward(model, tokens)   tokens (n,) ints -> logits (n, vocab); A[layer] (heads, n, n)
    previous_token_score(A[0])           per head: mean weight on the token just before
    induction_score(A[1], start, length) per head: mean weight on the token after the earlier copy
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .core import attention, causal_mask
from .multihead import merge_heads, split_heads

WEIGHTS = Path(__file__).with_name("data") / "induction_heads.npz"


@dataclass(repr=False)
class Model:
    """The trained weights: E (vocab, d) token embeddings, P (n_max, d) position embeddings, per layer
    W_q, W_k, W_v (d, heads·d_head) and W_o (heads·d_head, d), U (d, vocab) the unembedding;
    ``curve`` rows (step, loss on the first copy, loss on the second copy) saved while training."""

    weights: dict
    curve: np.ndarray

    def __repr__(self):
        shapes = ", ".join(f"{k} {'×'.join(map(str, v.shape))}" for k, v in self.weights.items())
        return f"Model({shapes})"


def load(path=WEIGHTS):
    with np.load(path) as f:
        weights = {k: f[k].astype(np.float64) for k in f.files if k not in ("config", "curve")}
        return Model(weights, f["curve"])


def forward(model, tokens, n_heads=2, ablate=(), keys_without=()):
    """tokens (n,) -> logits (n, vocab) and the weights of each layer [(n_heads, n, n), …].
    ``ablate``: (layer, head) pairs whose output is replaced by zeros (the head is switched off).
    ``keys_without``: layer-0 heads whose output layer 1 does not see in its keys only (its queries and
    values still see it): the test of K-composition."""
    w = model.weights
    tokens = np.asarray(tokens)
    x = w["E"][tokens] + w["P"][: len(tokens)]
    mask = causal_mask(len(tokens))
    weights, x_keys = [], x
    for layer in range(2):
        W_o = w[f"W_o{layer}"].copy()
        d_head = W_o.shape[0] // n_heads
        for off_layer, head in ablate:
            if off_layer == layer:
                W_o[head * d_head : (head + 1) * d_head] = 0.0  # that head's rows of W_O: its output is dropped
        Q = split_heads(x @ w[f"W_q{layer}"], n_heads)
        K, V = split_heads(x_keys @ w[f"W_k{layer}"], n_heads), split_heads(x @ w[f"W_v{layer}"], n_heads)
        t = attention(Q, K, V, mask=mask)
        weights.append(t.A)
        out = merge_heads(t.O) @ W_o
        if layer == 0 and keys_without:  # the same output without those heads, for layer 1's keys
            kept = np.ones(n_heads, dtype=bool)
            kept[list(keys_without)] = False
            x_keys = x + merge_heads(t.O * kept[:, None, None]) @ W_o
        else:
            x_keys = x + out
        x = x + out  # the residual stream: each layer adds its output to what was there
    return x @ w["U"], weights


def previous_token_score(A):
    """A (heads, n, n) -> (heads,): the mean weight each query puts on the position just before it."""
    n = A.shape[-1]
    return A[:, np.arange(1, n), np.arange(n - 1)].mean(axis=-1)


def induction_score(A, start, length):
    """A (heads, n, n) of a sequence whose tokens start..start+length-1 repeat right after -> (heads,):
    the mean weight a query in the second copy puts on the token that followed its earlier occurrence."""
    queries = np.arange(start + length, start + 2 * length - 1)
    return A[:, queries, queries - length + 1].mean(axis=-1)


def next_token_loss(logits, tokens):
    """Cross-entropy of predicting tokens[i+1] from logits[i] -> (n-1,) in nats."""
    z = logits[:-1] - logits[:-1].max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return -log_p[np.arange(len(tokens) - 1), np.asarray(tokens)[1:]]
