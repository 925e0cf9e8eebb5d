"""What one Transformer layer costs, counted in multiply-adds (lesson 09).

One layer, one sequence of n positions, model width d (= d_model), feed-forward width d_ff, forward pass:

    projections    Q, K, V and the output projection W_O: four (n × d)·(d × d) products     4·n·d²
    scores         QKᵀ, all heads together (their widths add up to d)                        n²·d
    mixing         A·V, all heads together                                                   n²·d
    feed-forward   (n × d)·(d × d_ff), then (n × d_ff)·(d_ff × d)                            2·n·d·d_ff

A multiply-add is two floating-point operations (FLOPs). Left out, because they are small beside these:
softmax and masks (about n²·h operations for h heads), LayerNorm, biases and the activation (about n·d).
The two n² terms overtake the rest once 2·n²·d > 4·n·d² + 2·n·d·d_ff, i.e. once n > 2·d + d_ff
(n > 6·d with the usual d_ff = 4·d).
"""

from . import _validate as v


def layer_multiply_adds(n, d_model, d_ff=None):
    """Multiply-adds of one layer's four parts for a sequence of ``n`` positions (``d_ff`` defaults to
    4·d_model): a dict with "projections", "scores", "mixing", "feed_forward" (ints, exact)."""
    n, d = v.positive_int(n, "n"), v.positive_int(d_model, "d_model")
    d_ff = 4 * d if d_ff is None else v.positive_int(d_ff, "d_ff")
    return {
        "projections": 4 * n * d * d,
        "scores": n * n * d,
        "mixing": n * n * d,
        "feed_forward": 2 * n * d * d_ff,
    }


def quadratic_share(n, d_model, d_ff=None):
    """The fraction of a layer's multiply-adds spent in QKᵀ and A·V (the parts that grow like n²)."""
    parts = layer_multiply_adds(n, d_model, d_ff)
    return (parts["scores"] + parts["mixing"]) / sum(parts.values())


def crossover_length(d_model, d_ff=None):
    """The sequence length at which QKᵀ and A·V cost as much as the projections and the feed-forward
    network together: n = 2·d_model + d_ff (6·d_model with the default d_ff = 4·d_model)."""
    d = v.positive_int(d_model, "d_model")
    d_ff = 4 * d if d_ff is None else v.positive_int(d_ff, "d_ff")
    return 2 * d + d_ff
