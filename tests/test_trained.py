"""Lesson 15's trained model: attn_core runs it exactly as PyTorch trained it, and training afresh finds the
same two heads (a slow test: it retrains, about a minute or two)."""

import importlib.util

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_core import trained

from .repo import ROOT

_spec = importlib.util.spec_from_file_location("train_induction_heads", ROOT / "tools" / "train_induction_heads.py")
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)

MODEL = trained.load()


def _torch_forward(model, tokens):
    """The same model written the way the training script writes it, in PyTorch."""
    torch = pytest.importorskip("torch")
    w = {k: torch.tensor(v) for k, v in model.weights.items()}
    x = w["E"][torch.tensor(tokens)] + w["P"][: len(tokens)]
    n, heads, d_head = len(tokens), tool.N_HEADS, tool.D_HEAD
    causal = torch.tril(torch.ones(n, n, dtype=torch.bool))
    weights = []
    for layer in range(2):
        q, k, v = ((x @ w[f"{m}{layer}"]).view(n, heads, d_head).transpose(0, 1) for m in ("W_q", "W_k", "W_v"))
        a = (q @ k.transpose(-1, -2) / d_head**0.5).masked_fill(~causal, float("-inf")).softmax(-1)
        weights.append(a.numpy())
        x = x + (a @ v).transpose(0, 1).reshape(n, heads * d_head) @ w[f"W_o{layer}"]
    return (x @ w["U"]).numpy(), weights


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, tool.VOCAB - 1), min_size=1, max_size=tool.LENGTH - 1))
def test_attn_core_runs_the_model_as_it_was_trained(body):
    tokens = [0, *body]
    logits, A = trained.forward(MODEL, tokens)
    ref_logits, ref_A = _torch_forward(MODEL, tokens)
    np.testing.assert_allclose(logits, ref_logits, atol=1e-10)
    for mine, ref in zip(A, ref_A):
        np.testing.assert_allclose(mine, ref, atol=1e-12)


def test_the_shipped_model_has_a_previous_token_head_and_an_induction_head():
    found = tool.heads_found(MODEL.weights, MODEL.curve)
    assert found["ok"], found
    assert max(found["previous_token"]) > 0.5 and max(found["induction"]) > 0.5
    assert found["loss_second"] < 0.5 * found["loss_first"]


def test_switching_off_the_previous_token_head_breaks_the_induction_head():
    seq, length, start = tool.probe(batch=16)
    prev_head = int(np.argmax(tool.heads_found(MODEL.weights, MODEL.curve)["previous_token"]))
    before, after = [], []
    for row in seq:
        logits, _ = trained.forward(MODEL, row[:-1])
        off, _ = trained.forward(MODEL, row[:-1], ablate=[(0, prev_head)])
        span = slice(start + length, start + 2 * length - 1)
        before.append(trained.next_token_loss(logits, row[:-1])[span].mean())
        after.append(trained.next_token_loss(off, row[:-1])[span].mean())
    assert np.mean(after) > 2 * np.mean(before)


def test_ablating_a_head_leaves_the_callers_weights_alone():
    W_o = MODEL.weights["W_o0"].copy()
    trained.forward(MODEL, [0, 1, 2, 3], ablate=[(0, 0), (0, 1)])
    assert np.array_equal(MODEL.weights["W_o0"], W_o)


@pytest.mark.kernel
def test_training_afresh_finds_an_induction_head():
    """What holds for every seed we tried (0 to 3): the second copy is learned and a layer-2 head attends to
    the token after the earlier occurrence. A clean previous-token head formed for seeds 1 and 2 only (seeds
    0 and 3 found another way), so that part is checked on the shipped weights, not here: on another CPU the
    run's last bits differ and it may take the other road."""
    pytest.importorskip("torch")
    weights, curve = tool.train(log=lambda line: None)
    found = tool.heads_found(weights, curve)
    assert max(found["induction"]) > 0.5, found
    assert found["loss_second"] < 0.5 * found["loss_first"], found
    first, second = curve[:, 1], curve[:, 2]
    assert second[0] > 0.8 * first[0], "before training, the second copy is as hard as the first"
    assert second[-1] < 0.5 * first[-1], "after it, the second copy is predicted far better"


def test_without_the_previous_token_head_in_layer_2s_keys_the_induction_head_fails():
    """K-composition: the previous-token head's output matters through layer 2's keys."""
    seq, length, start = tool.probe(batch=8)
    prev_head = int(np.argmax(tool.heads_found(MODEL.weights, MODEL.curve)["previous_token"]))
    plain, same = trained.forward(MODEL, seq[0][:-1]), trained.forward(MODEL, seq[0][:-1], keys_without=[])
    np.testing.assert_array_equal(plain[0], same[0])
    scores = [
        trained.induction_score(trained.forward(MODEL, row[:-1], keys_without=[prev_head])[1][1], start, length)
        for row in seq
    ]
    full = [trained.induction_score(trained.forward(MODEL, row[:-1])[1][1], start, length) for row in seq]
    assert np.max(np.mean(scores, axis=0)) < 0.5 * np.max(np.mean(full, axis=0))
