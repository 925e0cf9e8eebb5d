"""The checker's part for lesson 13 (the same numbers in PyTorch): the right answers and the mistakes of ex13.

Nothing here imports torch: every answer is a numpy array (or a number, or a function of numpy arrays)
laid out the way PyTorch wants it, so the homework is checked and graded without PyTorch installed.

    "torch_in_proj"            nn.MultiheadAttention's in_proj_weight from W_Q, W_K, W_V (each used as X @ W):
                               the three transposes stacked, (3·d_model, d_model). Its givens are read by
                               ``positions.read_givens`` (W_q, W_k, W_v), as lesson 12's steps are.
    "predict_mha_weight_count" how many numbers nn.MultiheadAttention returns as weights by default (averaged
                               over the heads), for self-attention over Q (batch, n_q, ·) and K (batch, n_k, ·).
    "fix_additive_mask"        a find-the-bug function: attn_core's boolean mask (True = may attend) -> the
                               float mask that F.scaled_dot_product_attention and nn.MultiheadAttention both
                               add to the scores (0 = may attend, −∞ = blocked).

Every mistake returns what a learner who makes it hands in, or None when it cannot be told apart from the
right answer with these givens (its docstring says when the code is named).
"""

import numpy as np

from .functions import Bug, FunctionStep
from .predictions import _number, _other

# ---------------------------------------------------------------- in_proj_weight


def in_proj(g):
    """[W_Qᵀ; W_Kᵀ; W_Vᵀ]: nn.MultiheadAttention computes X @ in_proj_weight.T, so each block is a transpose."""
    return np.concatenate([g.W_q.T, g.W_k.T, g.W_v.T])


def in_proj_not_transposed(g):
    """[W_Q; W_K; W_V], stacked as they are: named when the answer equals it (the W differ from their
    transposes, so it is not the right answer too)."""
    made = np.concatenate([g.W_q, g.W_k, g.W_v])
    return None if made.shape != in_proj(g).shape or np.array_equal(made, in_proj(g)) else made


def in_proj_wrong_order(g):
    """The transposes stacked as K, Q, V or Q, V, K (two blocks swapped): named when the answer equals one."""
    blocks = {"q": g.W_q.T, "k": g.W_k.T, "v": g.W_v.T}
    right = in_proj(g)
    made = [np.concatenate([blocks[x] for x in order]) for order in ("kqv", "qvk", "vkq")]
    return [a for a in made if not np.array_equal(a, right)] or None


def in_proj_side_by_side(g):
    """[W_Q, W_K, W_V] side by side, (d_model, 3·d_model): the X @ W layout of a fused projection
    (Hugging Face's GPT-2 keeps its c_attn so). It is the right answer transposed; the shape hint that
    names it is given only when the answer has these numbers."""
    return np.concatenate([g.W_q, g.W_k, g.W_v], axis=1)


# ---------------------------------------------------------------- predict: how many weights come back


def _sizes(g):
    """(batch, n_q, n_k, n_heads) of the prediction's givens: Q (batch, n_q, ·), K (batch, n_k, ·)."""
    return g.Q.shape[0], g.Q.shape[-2], g.K.shape[-2], g.n_heads


def weight_count(g):
    """The weights returned by default are averaged over the heads: one n_q × n_k matrix per sequence."""
    batch, n_q, n_k, _ = _sizes(g)
    return _number(batch * n_q * n_k)


def count_per_head(g):
    """One matrix per head and sequence (what average_attn_weights=False returns)."""
    batch, n_q, n_k, h = _sizes(g)
    return _other(g, batch * h * n_q * n_k)


def count_without_batch(g):
    """One n_q × n_k matrix for the whole batch, or one per head without the batch."""
    batch, n_q, n_k, h = _sizes(g)
    return [x for x in (_other(g, n_q * n_k), _other(g, h * n_q * n_k)) if x is not None] or None


def count_of_the_output(g):
    """The number of numbers in the output O (batch, n_q, d_model), not in the weights."""
    return _other(g, g.Q.shape[0] * g.Q.shape[-2] * g.Q.shape[-1])


# ---------------------------------------------------------------- find the bug: the additive mask


def additive_mask(allowed):
    """attn_core's boolean mask (True = may attend) -> 0 where it may attend, −∞ where it is blocked."""
    return np.where(allowed, 0.0, -np.inf)


def additive_mask_inverted(allowed):
    """−∞ where the mask says may attend: the bug the notebook shows (attention only where it was blocked)."""
    return np.where(allowed, -np.inf, 0.0)


def additive_mask_zero_one(allowed):
    """The boolean mask as 0/1 numbers: added to the scores, it blocks nothing."""
    return np.asarray(allowed, dtype=np.float64)


def additive_mask_minus_one(allowed):
    """−1 instead of −∞ where blocked: added to the scores, it only lowers them a little."""
    return np.where(allowed, 0.0, -1.0)


def additive_mask_minus_1e9(allowed):
    """−10⁹ instead of −∞ where blocked: it blocks a key in a row that sees another one, but added to a
    whole row (a position that may see no key) it blocks nothing (softmax ignores a constant added to a row)."""
    return np.where(allowed, 0.0, -1e9)


def additive_mask_transposed(allowed):
    """The mask transposed (``allowed.T``): query i gets the row of key i (a causal mask becomes its mirror)."""
    return np.where(np.asarray(allowed).T, 0.0, -np.inf)


def additive_mask_inverted_transposed(allowed):
    """The bug's mask, only transposed: −∞ where may attend, and the rows and columns swapped."""
    return np.where(np.asarray(allowed), -np.inf, 0.0).T


def additive_mask_plus_inf(allowed):
    """+∞ instead of −∞ where blocked: the blocked scores become the largest ones (softmax of them is NaN)."""
    return np.where(allowed, 0.0, np.inf)


FUNCTION_STEPS = {
    "fix_additive_mask": FunctionStep(
        additive_mask,
        ("allowed",),
        (
            Bug("mask_inverted", additive_mask_inverted, "bug_additive_inverted"),
            Bug("mask_zero_one", additive_mask_zero_one, "bug_additive_zero_one"),
            Bug("mask_minus_one", additive_mask_minus_one, "bug_additive_minus_one"),
            Bug("mask_minus_1e9", additive_mask_minus_1e9, "bug_additive_minus_1e9"),
            Bug("mask_transposed", additive_mask_transposed, "bug_additive_transposed"),
            Bug("mask_inverted", additive_mask_inverted_transposed, "bug_additive_inverted_transposed"),
            Bug("mask_plus_inf", additive_mask_plus_inf, "bug_additive_plus_inf"),
        ),
        "axes_additive",
    ),
}
