"""ex13: the same numbers in PyTorch (steps in checker/torch_port.py and the masked weights of lesson 7).

The answers are numpy arrays laid out as PyTorch wants them (and one function), so nothing here or in the
checker needs PyTorch; the notebook runs PyTorch only in the cell that reveals a prediction.
The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

import numpy as np

from attn_core import core

from ..task_data import four_word_inputs, fresh, with_tokens
from .model import Exercise, Task, _no_givens

EXERCISE = Exercise("ex13_pytorch", "13_pytorch.ipynb", "同样的数，在 PyTorch 里", "The same numbers in PyTorch")

PADDING = (False, False, False, True)  # nn.MultiheadAttention's key_padding_mask: True = padding (blocked)


def _padded_four_words():
    """The four words' Q and K, and a key_padding_mask (PyTorch's convention) that makes 语言 the padding."""
    return {**four_word_inputs("Q", "K")(), "key_padding_mask": np.array(PADDING)}


def _a_batch_for_four_heads():
    """A batch of 2 sequences of 5 positions, d_model = 8, for a layer of 4 heads."""
    return {**fresh(1303, X_batch=(2, 5, 8))(), "n_heads": 4}


def probe_masks(rng):
    """(allowed,): boolean masks (True = may attend) of several shapes, each row allowing at least one key:
    a causal one, a random (n_q, n_k) one, one key-side padding row, a batch of random ones and a wide one
    (3 × 8)."""
    n = int(rng.integers(3, 7))
    n_q, n_k = (int(x) for x in rng.integers(2, 6, size=2))
    random = rng.random((n_q, n_k)) < 0.5
    random[np.arange(n_q), rng.integers(0, n_k, size=n_q)] = True
    padding = np.arange(n_k) < int(rng.integers(1, n_k))
    batch = rng.random((2, n, n)) < 0.5
    batch |= np.eye(n, dtype=bool)
    wide = rng.random((3, 8)) < 0.5  # wider than any drawn above: a mask cut to its first columns shows
    wide[:, 0] = True
    return [(core.causal_mask(n),), (random,), (padding[None, :],), (batch,), (wide,)]


TASKS = (
    Task(
        "13.1",
        "ex13_pytorch",
        var="in_proj_weight",
        step="torch_in_proj",
        title_zh="四个词的 W_Q、W_K、W_V 放进 in_proj_weight",
        title_en="The four words' W_Q, W_K, W_V as in_proj_weight",
        inputs=four_word_inputs("W_q", "W_k", "W_v"),
        given_from=lambda d: {"W_q": d["W_q"], "W_k": d["W_k"], "W_v": d["W_v"]},
    ),
    Task(
        "13.2",
        "ex13_pytorch",
        var="A_padded",
        step="masked_weights",
        title_zh="PyTorch 的 key_padding_mask，用 attn_core 的约定算权重",
        title_en="PyTorch's key_padding_mask, the weights in attn_core's convention",
        inputs=_padded_four_words,
        given_from=with_tokens(
            lambda d: {
                "Q": d["Q"],
                "K": d["K"],
                "mask": np.broadcast_to(~d["key_padding_mask"], (4, 4)).copy(),
                "d_k": 3,
                "scaled": True,
            }
        ),
    ),
    Task(
        "13.3",
        "ex13_pytorch",
        var="n_weights",
        step="predict_mha_weight_count",
        title_zh="先预测：nn.MultiheadAttention 默认返回多少个权重？",
        title_en="Predict: how many weights does nn.MultiheadAttention return by default?",
        inputs=_a_batch_for_four_heads,
        given_from=lambda d: {"Q": d["X_batch"], "K": d["X_batch"], "n_heads": d["n_heads"]},
        answer_kind="number",
    ),
    Task(
        "13.4",
        "ex13_pytorch",
        var="fixed_additive_mask",
        step="fix_additive_mask",
        title_zh="找错：修好 buggy_additive_mask",
        title_en="Find the bug: fix buggy_additive_mask",
        inputs=four_word_inputs("S"),
        given_from=_no_givens,
        answer_kind="function",
        probe_arguments=probe_masks,
    ),
)
