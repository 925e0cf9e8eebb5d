"""Train lesson 15's toy model and write its weights: a two-layer, attention-only Transformer on random
tokens with a repeated segment, in which a previous-token head and an induction head appear.

    python tools/train_induction_heads.py            # writes attn_core/data/induction_heads.npz
    python tools/train_induction_heads.py --check    # trains afresh, checks the heads, writes nothing

Why PyTorch here and numpy in the lesson: training needs gradients through embeddings, two layers and
the unembedding, which attn_core (the reference for one attention layer) does not have; PyTorch's autograd
does it in a few lines. The lesson only *runs* the trained model, with attn_core's multi_head_attention
(attn_core.trained.forward); tests/test_trained.py holds the two forward passes equal.

Deterministic: the data come from numpy's seeded generator, the initial weights from a seeded torch
generator, everything in float64 on one thread. On another CPU the last bits can differ (another BLAS
kernel), so the test that retrains checks the heads' properties, not the bits. About 1 to 2 minutes here.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "attn_core" / "data" / "induction_heads.npz"

VOCAB, LENGTH, D_MODEL, N_HEADS, D_HEAD = 24, 32, 32, 2, 16  # token 0 starts every sequence
SEGMENT = (5, 12)  # the repeated segment's length, drawn per sequence: no fixed offset to learn
STEPS, BATCH, LR, LOG_EVERY = 1200, 64, 1e-2, 50
# The seed of the shipped run. With seed 0 the model found another way to use the repeat (no clean
# previous-token head: 0.01 and 0.01), and so did seed 3; seeds 1 and 2 give the two heads the lesson shows.
SEED = 1


def sequences(rng, batch):
    """Random tokens 1..VOCAB-1 after a start token 0, one segment of random length copied right after itself."""
    seq = rng.integers(1, VOCAB, size=(batch, LENGTH + 1))
    seq[:, 0] = 0
    for row in seq:
        length = rng.integers(SEGMENT[0], SEGMENT[1] + 1)
        start = rng.integers(1, LENGTH + 2 - 2 * length)
        row[start + length : start + 2 * length] = row[start : start + length]
    return seq


def probe(length=10, start=6, batch=256, seed=99):
    """Evaluation sequences with the segment at a known place: tokens start..start+length-1 repeat."""
    rng = np.random.default_rng(seed)
    seq = rng.integers(1, VOCAB, size=(batch, LENGTH + 1))
    seq[:, 0] = 0
    seq[:, start + length : start + 2 * length] = seq[:, start : start + length]
    return seq, length, start


def train(steps=STEPS, seed=SEED, log=print):
    import torch

    torch.set_num_threads(1)
    gen = torch.Generator().manual_seed(seed)

    def init(*shape, scale):
        return (torch.randn(*shape, generator=gen, dtype=torch.float64) * scale).requires_grad_()

    params = {"E": init(VOCAB, D_MODEL, scale=1.0), "P": init(LENGTH, D_MODEL, scale=1.0)}
    for layer in range(2):
        for name in ("W_q", "W_k", "W_v"):
            params[f"{name}{layer}"] = init(D_MODEL, N_HEADS * D_HEAD, scale=D_MODEL**-0.5)
        params[f"W_o{layer}"] = init(N_HEADS * D_HEAD, D_MODEL, scale=(N_HEADS * D_HEAD) ** -0.5)
    params["U"] = init(D_MODEL, VOCAB, scale=D_MODEL**-0.5)
    causal = torch.tril(torch.ones(LENGTH, LENGTH, dtype=torch.bool))

    def forward(tokens):
        x = params["E"][tokens] + params["P"][: tokens.shape[1]]
        weights = []
        for layer in range(2):
            b, n, _ = x.shape

            q, k, v = (
                (x @ params[f"{name}{layer}"]).view(b, n, N_HEADS, D_HEAD).transpose(1, 2)
                for name in ("W_q", "W_k", "W_v")
            )
            s = (q @ k.transpose(-1, -2) / D_HEAD**0.5).masked_fill(~causal[:n, :n], float("-inf"))
            a = s.softmax(-1)
            weights.append(a)
            x = x + (a @ v).transpose(1, 2).reshape(b, n, N_HEADS * D_HEAD) @ params[f"W_o{layer}"]
        return x @ params["U"], weights

    def losses(seq):
        logits, _ = forward(torch.tensor(seq[:, :-1]))
        ce = torch.nn.functional.cross_entropy(
            logits.reshape(-1, VOCAB), torch.tensor(seq[:, 1:]).reshape(-1), reduction="none"
        )
        return ce.view(seq.shape[0], -1)

    opt = torch.optim.Adam(params.values(), lr=LR)
    rng = np.random.default_rng(seed)
    test, length, start = probe()
    curve = []
    t0 = time.perf_counter()
    for step in range(steps + 1):
        if step % LOG_EVERY == 0:
            with torch.no_grad():
                ce = losses(test)
                first = ce[:, start : start + length - 1].mean().item()
                second = ce[:, start + length : start + 2 * length - 1].mean().item()
            curve.append((step, first, second))
            log(f"step {step:5d}  loss on the first copy {first:.3f}, on the second {second:.3f}")
        if step == steps:
            break
        loss = losses(sequences(rng, BATCH)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    log(f"{steps} steps in {time.perf_counter() - t0:.0f} s")
    weights = {name: p.detach().numpy().copy() for name, p in params.items()}
    return weights, np.array(curve)


def heads_found(weights, curve):
    """What the lesson claims of the trained model, measured with attn_core on the probe sequences: a
    layer-1 head that looks one token back, a layer-2 head that looks at the token after the earlier copy,
    and a second copy predicted far better than the first (whose tokens are random)."""
    from attn_core import trained

    model = trained.Model(weights, curve)
    seq, length, start = probe(batch=32)
    prev, ind, first, second = [], [], [], []
    for row in seq:
        logits, A = trained.forward(model, row[:-1])
        prev.append(trained.previous_token_score(A[0]))
        ind.append(trained.induction_score(A[1], start, length))
        loss = trained.next_token_loss(logits, row[:-1])
        first.append(loss[start : start + length - 1].mean())
        second.append(loss[start + length : start + 2 * length - 1].mean())
    prev, ind = np.mean(prev, axis=0), np.mean(ind, axis=0)
    found = {
        "previous_token": prev.round(2).tolist(),
        "induction": ind.round(2).tolist(),
        "loss_first": round(float(np.mean(first)), 2),
        "loss_second": round(float(np.mean(second)), 2),
    }
    found["ok"] = bool(prev.max() > 0.5 and ind.max() > 0.5 and np.mean(second) < 0.5 * np.mean(first))
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="train afresh and check the heads; write nothing")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    weights, curve = train()
    if args.check:
        found = heads_found(weights, curve)
        print(found)
        return 0 if found["ok"] else 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    config = np.array([VOCAB, LENGTH, D_MODEL, N_HEADS, D_HEAD, STEPS, BATCH, SEED])
    np.savez_compressed(args.out, config=config, curve=curve, **weights)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
