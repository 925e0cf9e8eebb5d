"""The rest of a Transformer block (lesson 11): LayerNorm, the residual and the feed-forward network. The
right answers and the known mistakes; each function takes the givens ``g``.

    layer_norm      (X − mean) / √(var + ε), mean and variance along each row (the features)
    residual_norm   LayerNorm(X + F): the residual added before LayerNorm (post-LN, as lesson 11 builds it)
    ffn             max(0, H·W1 + b1)·W2 + b2, the same for every row

The mistakes are the ones lesson 11 warns about: normalised along the wrong axis (down the positions), ε
forgotten, in the wrong place or of another size, the residual added after LayerNorm where the task says before.
"""

import numpy as np

from .mistakes import Made


def norm(x, eps, axis=-1, ddof=0):
    """LayerNorm along ``axis`` (a learner's variants pass another axis or ddof)."""
    mean = x.mean(axis=axis, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=axis, ddof=ddof, keepdims=True) + eps)


def _relu(x):
    return np.maximum(x, 0.0)


# ---------------------------------------------------------------- right answers


def layer_norm(g):
    """Each row of X normalised to mean 0 and variance 1 (with ε under the square root)."""
    return norm(g.X, g.eps)


def residual_norm(g):
    """LayerNorm(X + F)."""
    return norm(g.X + g.F, g.eps)


def ffn(g):
    """max(0, H·W1 + b1)·W2 + b2."""
    return _relu(g.H @ g.W1 + g.b1) @ g.W2 + g.b2


# ---------------------------------------------------------------- LayerNorm of X or (residual_norm) of X + F


def _normed(g):
    """What the step normalises: X, or X + F."""
    return g.X if g.F is None else g.X + g.F


def wrong_axis(g):
    """Mean and variance taken down each column (over the positions, axis 0) instead of along each row, with
    ε or without."""
    return [norm(_normed(g), g.eps, axis=-2), norm(_normed(g), 0.0, axis=-2)]


def eps_forgotten(g):
    """(x − mean) / √var: no ε (a row of equal numbers then gives 0/0 = NaN), an ε far smaller than the
    task's (1e-10, BERT's 1e-12), or LayerNorm applied to its own result (the second pass divides by about
    √(1 + ε), undoing the first pass's ε): these numbers cannot tell the three apart, so the message says all."""
    x = _normed(g)
    made = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True))
    return Made(made, {"task_eps": _power_of_ten(g.eps)})


def eps_outside_root(g):
    """ε added after the square root, (x − mean) / (√var + ε), or to the result, (x − mean)/√var + ε."""
    x = _normed(g)
    centred, std = x - x.mean(axis=-1, keepdims=True), np.sqrt(x.var(axis=-1, keepdims=True))
    return [centred / (std + g.eps), centred / std + g.eps]


# Sizes of ε tried: 1, 2, 3 and 5 times each power of ten from 1e-1 to 1e-9 (the libraries' and tutorials'
# 1e-3 … 1e-8 among them; PyTorch's is 1e-5), each named only when the answer is LayerNorm with it.
OTHER_EPS = tuple(float(f"{m}e-{p}") for p in range(1, 10) for m in (1, 2, 3, 5))


def _power_of_ten(x):
    """1e-05 as "1e-5", as the task writes it."""
    mantissa, exponent = f"{x:.0e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def eps_of_another_size(g):
    """√(var + ε') with an ε' other than the task's (1e-3 … 1e-8). Evidence: the answer equals LayerNorm
    with that ε' (the nearly constant row, whose variance is about ε, tells the sizes apart)."""
    return [
        Made(norm(_normed(g), eps), {"eps": _power_of_ten(eps), "task_eps": _power_of_ten(g.eps)})
        for eps in OTHER_EPS
        if eps != g.eps
    ]


def unbiased_variance(g):
    """The variance divided by d − 1 (``ddof=1``, the sample variance) instead of d."""
    return norm(_normed(g), g.eps, ddof=1)


def not_centred(g):
    """x / √(var + ε), or RMSNorm's x / √(mean(x²) + ε): the mean never subtracted (neither from x nor, for
    RMSNorm, inside the variance)."""
    x = _normed(g)
    return [
        x / np.sqrt(x.var(axis=-1, keepdims=True) + g.eps),
        x / np.sqrt((x**2).mean(axis=-1, keepdims=True) + g.eps),
    ]


def no_square_root(g):
    """(x − mean) / (var + ε): divided by the variance instead of its square root."""
    x = _normed(g)
    return (x - x.mean(axis=-1, keepdims=True)) / (x.var(axis=-1, keepdims=True) + g.eps)


# ---------------------------------------------------------------- the residual


def residual_after_norm(g):
    """LayerNorm(F) + X: the residual added after LayerNorm, where the task adds it before. (Not pre-LN,
    which is X + sublayer(LayerNorm(X)).)"""
    return norm(g.F, g.eps) + g.X


def input_normed(g):
    """LayerNorm(X) + F: X normalised, then the sublayer's output added."""
    return norm(g.X, g.eps) + g.F


def no_residual(g):
    """LayerNorm(F): the residual forgotten."""
    return norm(g.F, g.eps)


def residual_added_twice(g):
    """LayerNorm(X + F) + X (the same, X + LayerNorm(X + F)): the residual added once more after the norm."""
    return norm(g.X + g.F, g.eps) + g.X


def sublayer_left_out(g):
    """LayerNorm(X): the sublayer's output F never added."""
    return norm(g.X, g.eps)


def only_centred(g):
    """x − mean, never divided by √(variance + ε)."""
    x = _normed(g)
    return x - x.mean(axis=-1, keepdims=True)


def ffn_with_residual(g):
    """The FFN's output plus its input H: a residual, which is the next step's (lesson 11's add & norm)."""
    return ffn(g) + g.H


def not_normed(g):
    """X + F: LayerNorm forgotten."""
    return g.X + g.F


# ---------------------------------------------------------------- the feed-forward network


def no_relu(g):
    """H·W1 + b1 never passed through max(0, ·)."""
    return (g.H @ g.W1 + g.b1) @ g.W2 + g.b2


def relu_on_output(g):
    """max(0, ·) applied to the output too, or only to the output."""
    return [_relu(ffn(g)), _relu(no_relu(g))]


def bias_forgotten(g):
    """b1, b2 or both left out."""
    return [
        _relu(g.H @ g.W1) @ g.W2 + g.b2,
        _relu(g.H @ g.W1 + g.b1) @ g.W2,
        _relu(g.H @ g.W1) @ g.W2,
    ]


def relu_before_bias(g):
    """max(0, H·W1) + b1: the bias added after max(0, ·) instead of before."""
    return (_relu(g.H @ g.W1) + g.b1) @ g.W2 + g.b2
