"""attn_core against PyTorch (lesson 13): the same numbers from torch.nn.functional.scaled_dot_product_attention
and torch.nn.MultiheadAttention, with attn_core's weights loaded, its masks translated to each convention, and
any number of heads. Skipped when PyTorch is not installed (it is optional: requirements-torch.txt)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_core import causal_mask, multi_head_attention, self_attention
from attn_core.examples import four_words

torch = pytest.importorskip("torch")
F = torch.nn.functional

TOL = 1e-12  # float64
FEW = settings(max_examples=30)  # each example builds PyTorch layers: slower than numpy alone


def tensor(a):
    return torch.from_numpy(np.array(a, dtype=np.float64))


def layer(W_q, W_k, W_v, W_o, n_heads, **options):
    """nn.MultiheadAttention in evaluation mode holding attn_core's weights (PyTorch computes X @ W.T), zero biases."""
    mha = torch.nn.MultiheadAttention(W_q.shape[0], n_heads, batch_first=True, dtype=torch.float64, **options)
    with torch.no_grad():
        mha.in_proj_weight.copy_(tensor(np.concatenate([W_q.T, W_k.T, W_v.T])))
        mha.out_proj.weight.copy_(tensor(W_o.T))
        mha.in_proj_bias.zero_()
        mha.out_proj.bias.zero_()
    return mha.eval()


def close(ours, theirs):
    return np.allclose(ours, theirs.detach().numpy(), rtol=0, atol=TOL)


@st.composite
def problems(draw):
    """A batch of sequences with d_model = n_heads * d_head, their projections and a random boolean mask
    (True = may attend) in which every query may attend to at least one key (its own position)."""
    batch, n, n_heads, d_head = (draw(st.integers(1, k)) for k in (3, 6, 4, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    d = n_heads * d_head
    X = rng.normal(size=(batch, n, d))
    W_q, W_k, W_v, W_o = (rng.normal(size=(d, d)) / np.sqrt(d) for _ in range(4))
    mask = rng.random((batch, n, n)) < 0.6
    mask |= np.eye(n, dtype=bool)
    return X, W_q, W_k, W_v, W_o, n_heads, mask


def test_sdpa_reproduces_the_four_word_example():
    t = four_words().attention()
    assert close(t.O, F.scaled_dot_product_attention(tensor(t.Q), tensor(t.K), tensor(t.V)))


def test_sdpa_in_float32_agrees_only_to_float32_precision():
    t = four_words().attention()
    O = F.scaled_dot_product_attention(*(tensor(a).float() for a in (t.Q, t.K, t.V))).double()
    assert np.allclose(t.O, O.numpy(), rtol=0, atol=1e-6) and not close(t.O, O)


def test_multihead_layer_reproduces_the_four_word_example_with_one_and_three_heads():
    ex = four_words()
    X = tensor(ex.X)[None]
    for n_heads, W_o in ((1, np.eye(3)), (3, np.arange(9.0).reshape(3, 3) / 10 - 0.4)):
        ours = multi_head_attention(ex.X, ex.X, ex.W_q, ex.W_k, ex.W_v, W_o, n_heads)
        O, A_heads = layer(ex.W_q, ex.W_k, ex.W_v, W_o, n_heads)(X, X, X, average_attn_weights=False)
        assert close(ours.O, O[0]) and close(ours.A, A_heads[0])


def test_the_untransposed_weights_run_without_error_and_give_other_numbers():
    ex = four_words()
    X = tensor(ex.X)[None]
    wrong = layer(ex.W_q.T, ex.W_k.T, ex.W_v.T, np.eye(3), 1)
    O, _ = wrong(X, X, X)
    assert O.shape == (1, 4, 3) and not close(ex.attention().O, O[0])


@FEW
@given(problems())
def test_sdpa_boolean_mask_means_may_attend_like_attn_core(problem):
    X, W_q, W_k, W_v, _, _, mask = problem
    t = self_attention(X, W_q, W_k, W_v, mask=mask)
    O = F.scaled_dot_product_attention(tensor(t.Q), tensor(t.K), tensor(t.V), attn_mask=torch.from_numpy(mask))
    assert close(t.O, O)


@FEW
@given(problems())
def test_multihead_layer_agrees_with_attn_core_for_any_shape_and_mask(problem):
    X, W_q, W_k, W_v, W_o, n_heads, mask = problem
    ours = multi_head_attention(X, X, W_q, W_k, W_v, W_o, n_heads, mask=mask)
    mha = layer(W_q, W_k, W_v, W_o, n_heads)
    blocked = torch.from_numpy(~mask).repeat_interleave(n_heads, dim=0)  # (batch * heads, n, n), True = blocked
    O, A_heads = mha(tensor(X), tensor(X), tensor(X), attn_mask=blocked, average_attn_weights=False)
    assert close(ours.O, O) and close(ours.A, A_heads)
    _, A_mean = mha(tensor(X), tensor(X), tensor(X), attn_mask=blocked)
    assert close(ours.A.mean(axis=1), A_mean)  # the default: weights averaged over the heads


@FEW
@given(problems())
def test_a_float_mask_of_zero_and_minus_infinity_means_the_same_to_both(problem):
    X, W_q, W_k, W_v, W_o, n_heads, mask = problem
    ours = multi_head_attention(X, X, W_q, W_k, W_v, W_o, n_heads, mask=mask)
    additive = torch.from_numpy(np.where(mask, 0.0, -np.inf)).repeat_interleave(n_heads, dim=0)
    O, _ = layer(W_q, W_k, W_v, W_o, n_heads)(tensor(X), tensor(X), tensor(X), attn_mask=additive)
    assert close(ours.O, O)
    t = self_attention(X, W_q, W_k, W_v, mask=mask)
    O_sdpa = F.scaled_dot_product_attention(tensor(t.Q), tensor(t.K), tensor(t.V), attn_mask=additive[::n_heads])
    assert close(t.O, O_sdpa)


@FEW
@given(st.integers(1, 8), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_causal_masks_in_every_convention(n, d, seed):
    rng = np.random.default_rng(seed)
    X, W_q, W_k, W_v = rng.normal(size=(n, d)), *(rng.normal(size=(d, d)) for _ in range(3))
    allowed = causal_mask(n)
    t = self_attention(X, W_q, W_k, W_v, mask=allowed)
    Q, K, V = tensor(t.Q), tensor(t.K), tensor(t.V)
    M = torch.from_numpy(allowed)
    assert close(t.O, F.scaled_dot_product_attention(Q, K, V, is_causal=True))
    assert close(t.O, F.scaled_dot_product_attention(Q, K, V, attn_mask=M))
    mha = layer(W_q, W_k, W_v, np.eye(d), 1)
    x = tensor(X)[None]
    assert close(t.O, mha(x, x, x, attn_mask=~M)[0][0])
    assert close(t.O, mha(x, x, x, attn_mask=~M, is_causal=True)[0][0])


@FEW
@given(st.integers(1, 3), st.integers(2, 6), st.integers(0, 2**32 - 1))
def test_key_padding_mask_true_blocks_the_key(batch, n, seed):
    rng = np.random.default_rng(seed)
    d = 4
    X, W_q, W_k, W_v = rng.normal(size=(batch, n, d)), *(rng.normal(size=(d, d)) for _ in range(3))
    lengths = rng.integers(1, n + 1, size=batch)
    real = np.arange(n) < lengths[:, None]  # (batch, n_k), True = a real word
    O, A = layer(W_q, W_k, W_v, np.eye(d), 2)(
        tensor(X), tensor(X), tensor(X), key_padding_mask=torch.from_numpy(~real), average_attn_weights=False
    )
    assert np.all(A.detach().numpy()[~np.broadcast_to(real[:, None, None, :], A.shape)] == 0)
    heads = multi_head_attention(X, X, W_q, W_k, W_v, np.eye(d), 2, mask=real[:, None, :])
    assert close(heads.O, O) and close(heads.A, A)


def test_the_inverted_mask_looks_only_ahead_and_blocks_the_last_row():
    ex = four_words()
    X = tensor(ex.X)[None]
    M = torch.from_numpy(causal_mask(4))
    _, A = layer(ex.W_q, ex.W_k, ex.W_v, np.eye(3), 1)(X, X, X, attn_mask=M)  # True = may attend, given as it is
    A = A[0].detach().numpy()
    assert np.isnan(A[-1]).all()
    assert np.all(np.tril(A[:-1]) == 0) and np.allclose(A[:-1].sum(axis=1), 1)


def test_the_key_bias_changes_nothing_and_the_value_bias_shifts_every_row():
    ex = four_words()
    X = tensor(ex.X)[None]
    W_o = np.eye(3)
    b = np.array([0.5, -0.3, 0.2])
    reference = ex.attention().O
    for slot, expected in ((1, reference), (2, reference + b @ W_o)):
        mha = layer(ex.W_q, ex.W_k, ex.W_v, W_o, 1)
        with torch.no_grad():
            mha.in_proj_bias[3 * slot : 3 * slot + 3] = tensor(b)
        assert close(expected, mha(X, X, X)[0][0])


def test_dropout_acts_in_training_mode_only():
    ex = four_words()
    X = tensor(ex.X)[None]
    torch.manual_seed(0)
    mha = layer(ex.W_q, ex.W_k, ex.W_v, np.eye(3), 1, dropout=0.5)
    A_ref = ex.attention().A
    assert close(A_ref, mha(X, X, X)[1][0])
    mha.train()
    A = mha(X, X, X)[1][0].detach().numpy()
    kept = A != 0
    assert not kept.all() and np.allclose(A[kept], 2 * A_ref[kept], rtol=0, atol=TOL)
