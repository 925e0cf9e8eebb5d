"""Gradients through the five steps agree with finite differences; the toy task learns its pattern."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_core import causal_mask, self_attention
from attn_core.gradients import (
    numerical_gradient,
    self_attention_backward,
    softmax_backward,
    softmax_jacobian,
    train_retrieval,
)


@pytest.fixture(autouse=True)
def _english(english):
    """These tests read the English messages."""


def rel_err(a, b):
    return np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300)


# ---------------------------------------------------------------- softmax backward


@given(
    seed=st.integers(0, 2**32 - 1),
    rows=st.integers(1, 5),
    n=st.integers(1, 9),
    spread=st.sampled_from([0.1, 1.0, 5.0]),
    masked=st.booleans(),
)
def test_softmax_backward_is_the_jacobian_vector_product(seed, rows, n, spread, masked):
    rng = np.random.default_rng(seed)
    S = spread * rng.standard_normal((rows, n))
    if masked:
        S[rng.random((rows, n)) < 0.3] = -np.inf
        S[:, 0] = 0.0
    E = np.exp(S - S.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    dA = rng.standard_normal((rows, n))
    want = np.stack([softmax_jacobian(a).T @ g for a, g in zip(A, dA)])
    np.testing.assert_allclose(softmax_backward(A, dA), want, rtol=1e-12, atol=1e-12)
    if masked:
        assert (softmax_backward(A, dA)[A == 0] == 0).all()  # hidden keys get no gradient


def test_softmax_backward_keeps_batch_axes_and_checks_shapes():
    rng = np.random.default_rng(0)
    A = rng.dirichlet(np.ones(4), size=(2, 3))
    dA = rng.standard_normal((2, 3, 4))
    J = np.stack([softmax_jacobian(a) for a in A.reshape(-1, 4)]).reshape(2, 3, 4, 4)
    want = (J @ dA[..., None])[..., 0]  # J is symmetric: Jᵀ·dA = J·dA
    np.testing.assert_allclose(softmax_backward(A, dA), want, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="shape"):
        softmax_backward(A, dA[..., :3])


def test_softmax_jacobian_vanishes_near_one_hot():
    assert np.abs(softmax_jacobian([0.999999, 1e-6, 0.0])).max() < 1e-5
    np.testing.assert_allclose(softmax_jacobian([0.5, 0.5]), [[0.25, -0.25], [-0.25, 0.25]])


# ---------------------------------------------------------------- the full backward pass


def problem(seed, n=5, d_model=4, d_k=3, d_v=2, batch=()):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal(batch + (n, d_model))
    W_q, W_k = rng.standard_normal((d_model, d_k)), rng.standard_normal((d_model, d_k))
    W_v = rng.standard_normal((d_model, d_v))
    G = rng.standard_normal(batch + (n, d_v))  # the loss is L = Σ O ⊙ G, so dL/dO = G
    return X, W_q, W_k, W_v, G


def padding(n, n_valid):
    return (np.arange(n) < n_valid)[None, :]


@settings(max_examples=30)
@given(
    seed=st.integers(0, 2**32 - 1),
    scaled=st.booleans(),
    mask_kind=st.sampled_from(["none", "causal", "padding", "both"]),
)
def test_every_gradient_matches_finite_differences(seed, scaled, mask_kind):
    X, W_q, W_k, W_v, G = problem(seed)
    n = X.shape[0]
    mask = {"none": None, "causal": causal_mask(n), "padding": padding(n, 3), "both": causal_mask(n) & padding(n, 3)}[
        mask_kind
    ]
    params = dict(X=X, W_q=W_q, W_k=W_k, W_v=W_v)
    grads = self_attention_backward(X, W_q, W_k, W_v, G, mask=mask, scaled=scaled)
    for name in params:

        def loss(value, name=name):
            args = {**params, name: value}
            return float(
                (self_attention(args["X"], args["W_q"], args["W_k"], args["W_v"], mask=mask, scaled=scaled).O * G).sum()
            )

        numeric = numerical_gradient(loss, params[name], eps=1e-6)
        analytic = getattr(grads, "d" + name)
        assert analytic.shape == params[name].shape
        # central differences err by ~1e-10 absolute; near-saturated rows make some gradients that small too
        assert rel_err(analytic, numeric) < 1e-6 or np.abs(analytic - numeric).max() < 1e-8, name


def test_gradients_with_a_batch_axis_sum_over_the_batch():
    X, W_q, W_k, W_v, G = problem(1, batch=(2,))
    grads = self_attention_backward(X, W_q, W_k, W_v, G, mask=causal_mask(5))
    numeric = numerical_gradient(
        lambda W: float((self_attention(X, W, W_k, W_v, mask=causal_mask(5)).O * G).sum()), W_q
    )
    assert grads.dW_q.shape == W_q.shape and rel_err(grads.dW_q, numeric) < 1e-6
    numeric_X = numerical_gradient(lambda Y: float((self_attention(Y, W_q, W_k, W_v).O * G).sum()), X)
    assert rel_err(self_attention_backward(X, W_q, W_k, W_v, G).dX, numeric_X) < 1e-6


def test_intermediate_gradients_follow_the_five_steps():
    X, W_q, W_k, W_v, G = problem(2)
    g = self_attention_backward(X, W_q, W_k, W_v, G)
    t = g.trace
    np.testing.assert_allclose(g.dA, G @ t.V.T)
    np.testing.assert_allclose(g.dV, t.A.T @ G)
    np.testing.assert_allclose(g.dQKT, g.dS / np.sqrt(3))
    np.testing.assert_allclose(g.dQ, g.dQKT @ t.K)
    np.testing.assert_allclose(g.dW_v, X.T @ g.dV)
    assert "dW_q: (4, 3)" in repr(g)


def test_backward_checks_dO_and_leaves_inputs_alone():
    X, W_q, W_k, W_v, G = problem(3)
    copies = [a.copy() for a in (X, W_q, W_k, W_v, G)]
    self_attention_backward(X, W_q, W_k, W_v, G, mask=causal_mask(5), scaled=False)
    for a, b in zip((X, W_q, W_k, W_v, G), copies):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match=r"dL/dO has shape \(5, 3\) but O has shape \(5, 2\)"):
        self_attention_backward(X, W_q, W_k, W_v, np.ones((5, 3)))


def test_numerical_gradient_of_a_known_function_and_no_side_effects():
    x = np.array([[1.0, -2.0], [0.5, 3.0]])
    before = x.copy()
    g = numerical_gradient(lambda y: float((y**3).sum()), x, eps=1e-5)
    np.testing.assert_allclose(g, 3 * x**2, rtol=1e-8)
    np.testing.assert_array_equal(x, before)
    with pytest.raises(ValueError, match="eps"):
        numerical_gradient(lambda y: 0.0, x, eps=0)


# ---------------------------------------------------------------- the toy retrieval task


def test_training_learns_the_partner_pattern():
    run = train_retrieval(seed=0)
    assert run.losses[-1] < 0.01 * run.losses[0]
    assert run.losses[100] < run.losses[0] and run.losses[-1] < run.losses[100]
    assert run.accuracy() == 1.0 and run.accuracy(0) < 0.5
    assert np.abs(run.A - run.target).max() < 0.1  # the final A is (close to) the permutation pattern
    A0 = run.snapshots[0]
    assert A0.max() < 0.8 and run.partner_weight(0) < 0.2  # it starts spread out, far from the pattern
    np.testing.assert_allclose(run.A.sum(axis=1), 1.0)
    assert sorted(run.snapshots) == [0, 50, 150, 500]


def test_training_is_seeded():
    a, b = train_retrieval(seed=4, steps=30), train_retrieval(seed=4, steps=30)
    np.testing.assert_array_equal(a.losses, b.losses)
    np.testing.assert_array_equal(a.A, b.A)
    assert not np.array_equal(a.losses, train_retrieval(seed=5, steps=30).losses)


def test_without_scaling_learning_stalls_at_large_d_k():
    scaled, unscaled = train_retrieval(seed=0, scaled=True), train_retrieval(seed=0, scaled=False)
    # Same task and start; only step 3 differs. Unscaled rows start almost one-hot (saturated) ...
    assert unscaled.snapshots[0].max(axis=1).mean() > 0.7 > 0.4 > scaled.snapshots[0].max(axis=1).mean()
    # ... and after the same 500 steps most queries still look at the wrong token.
    assert unscaled.losses[-1] > 100 * scaled.losses[-1]
    assert unscaled.accuracy() < 0.5


@pytest.mark.parametrize("d_k", [16, 64, 100])
def test_scaling_is_a_rescaled_start_and_learning_rate(d_k):
    """÷√d_k = W_Q, W_K started d_k^(-1/4) times smaller and a learning rate √d_k times smaller."""
    scaled = train_retrieval(d_k=d_k, steps=60, seed=1, snapshot_steps=(0, 30))
    unscaled = train_retrieval(
        d_k=d_k, steps=60, seed=1, snapshot_steps=(0, 30), scaled=False, init_scale=d_k**-0.25, lr=0.1 / d_k**0.5
    )
    np.testing.assert_allclose(unscaled.losses, scaled.losses, rtol=1e-9, atol=1e-12)
    for step in (0, 30, 60):
        np.testing.assert_allclose(unscaled.snapshots[step], scaled.snapshots[step], atol=1e-12)
    np.testing.assert_allclose(unscaled.W_q, d_k**-0.25 * scaled.W_q, atol=1e-12)
    # the rescaled start alone, with the default learning rate, is another run
    assert not np.allclose(
        train_retrieval(d_k=d_k, steps=60, seed=1, scaled=False, init_scale=d_k**-0.25).losses, scaled.losses
    )


def test_init_scale_multiplies_the_starting_projections():
    a, b = train_retrieval(steps=1, seed=2), train_retrieval(steps=1, seed=2, init_scale=0.5)
    # at step 0 only the start differs: the scores shrink by 0.5² = 0.25, the task is the same
    np.testing.assert_array_equal(a.X, b.X)
    assert b.snapshots[0].max(axis=1).mean() < a.snapshots[0].max(axis=1).mean()


@pytest.mark.parametrize(
    "bad", [dict(n=1), dict(steps=-1), dict(lr=0), dict(d_k=2.5), dict(n=True), dict(init_scale=0)]
)
def test_training_rejects_bad_settings(bad):
    with pytest.raises(ValueError):
        train_retrieval(**bad)
