"""Explorer update time vs the naive "new matplotlib figure per update" pattern, in one run.

    .venv/bin/python benchmarks/bench_explorers.py              # in a real ipykernel (default, ~1 minute)
    .venv/bin/python benchmarks/bench_explorers.py --here       # in this process (no kernel, no comm)
    .venv/bin/python benchmarks/bench_explorers.py -n 20        # a quick smoke run

What is timed, per explorer, 200 times (settings cycle through every control):
  explorer  ``ex.set(...)``: control values set → numbers recomputed with attn_core → SVG string built →
            the ``widgets.HTML`` value replaced (in a kernel this includes serialising and sending the
            comm update message). That is the moment the new picture is ready for the browser.
  naive     what ``interact`` re-plotting does: the same numbers (the explorer's own compute step), a new
            matplotlib ``Figure`` with the same panels (bars / annotated heatmaps / text), rendered to PNG
            with Agg and put into a ``widgets.Image``. Measured interleaved with the explorer updates,
            once after every ``--naive-every`` (10) explorer updates (20 samples), so the whole run stays under
            2 minutes even on a busy machine.

Goal (printed per explorer): median ≤ 30 ms and ≥ 5× faster than naive (ratio of medians).
"""

import argparse
import io
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GOAL_MS, GOAL_RATIO = 30.0, 5.0


# ---------------------------------------------------------------- settings to cycle through


def _settings():
    from attn_core.examples import coreference, four_words
    from attn_viz.explorers import DK_OPTIONS, PIPELINE_DK

    toks, coref = four_words().tokens, coreference().tokens
    mults = [round(0.1 * k, 1) for k in range(31)]
    dk = [dict(d_k=d, scaled=s) for s in (False, True) for d in DK_OPTIONS]
    key = [{tok: m, **{o: 1.0 for o in toks if o != tok}} for tok in toks for m in mults[::2]]
    pipe = [
        dict(
            query=toks[i % 4],
            d_k=([3] + list(PIPELINE_DK))[i % 8],
            scaled=i % 3 != 0,
            **{tok: mults[(7 * i + 3 * j) % 31] for j, tok in enumerate(toks)},
        )
        for i in range(40)
    ]
    mask = [dict(mode=m, padding=p) for p in (1, 2, 3, 0) for m in ("none", "causal", "padding")]
    head = [dict(head=h, query=q) for q in coref for h in (1, 2)]
    orders = ["语言 学习 喜欢 我", "语言 我 喜欢 学习", "喜欢 我 语言 学习"]
    position = [
        dict(encoding=e, i=(3 * k) % 16, j=(5 * k + 2) % 16, order=orders[k % 3])
        for k in range(16)
        for e in ("rope", "sinusoidal", "none")
    ]
    return {
        "dk_explorer": dk,
        "key_explorer": key,
        "pipeline_explorer": pipe,
        "mask_explorer": mask,
        "head_explorer": head,
        "position_explorer": position,
    }


# ---------------------------------------------------------------- the naive pattern


def _annotated(ax, A, tokens, masked=None, highlight=None):
    ax.imshow(A, cmap="viridis", vmin=0, vmax=1)
    n_q, n_k = A.shape
    for i in range(n_q):
        for j in range(n_k):
            if masked is not None and not masked[i, j]:
                ax.add_patch(_rect((j - 0.5, i - 0.5), 1, 1, color="#e3e3e3"))
                ax.text(j, i, "0", ha="center", va="center", fontsize=11, color="#666666")
            else:
                ax.text(
                    j,
                    i,
                    f"{A[i, j]:.2f}",
                    ha="center",
                    va="center",
                    fontsize=11,
                    color="white" if A[i, j] < 0.55 else "black",
                )
    ax.set_xticks(range(n_k), tokens)
    ax.set_yticks(range(n_q), tokens)
    ax.set_xlabel("键（被问的词）")
    ax.set_ylabel("查询（谁在问）")
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    if highlight is not None:
        ax.add_patch(_rect((-0.5, highlight - 0.5), n_k, 1, fill=False, lw=3, color="black"))


def _rect(*args, **kw):
    from matplotlib.patches import Rectangle

    return Rectangle(*args, **kw)


def _circle():
    from matplotlib.patches import Circle

    return Circle((0, 0), 1.5, fill=False, color="#d0d0d0")


def _weight_bars(ax, w, tokens, ghost=None, title=""):
    x = np.arange(len(w))
    ax.bar(x, w, color="#31688e")
    if ghost is not None:
        ax.bar(x, ghost, fill=False, edgecolor="#444444", linestyle="--", linewidth=2, width=0.9)
    for xi, wi in zip(x, w):
        ax.text(xi, wi + 0.02, f"{wi:.2f}", ha="center", fontsize=12)
    ax.set_xticks(x, tokens)
    ax.set_ylim(0, 1.1)
    ax.set_title(title)


def naive_png(name, st, tokens):
    """A new figure with the explorer's panels, drawn by matplotlib and encoded as PNG (Agg)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if name == "dk_explorer":
        fig = Figure(figsize=(8.2, 4.7))
        a1, a2 = fig.subplots(1, 2)
        a1.bar(range(4), st["s"], color="#31688e")
        a1.set_xticks(range(4), tokens)
        a1.set_title("进入 softmax 的分数")
        _weight_bars(a2, st["a"], tokens, title="注意力权重")
        fig.text(0.02, 0.02, f"熵 {st['entropy']:.2f} / log 4   梯度 {st['grad']:.3f} ({st['grad_ratio']:.0%})")
    elif name == "key_explorer":
        fig = Figure(figsize=(7.6, 3.8))
        _weight_bars(
            fig.subplots(),
            st["w"],
            [f"{t}\n×{m:.1f}" for t, m in zip(tokens, st["mult"])],
            ghost=st["default"],
            title="注意力权重",
        )
    elif name == "pipeline_explorer":
        fig = Figure(figsize=(8.6, 6.4))
        a1, a2 = fig.subplots(1, 2)
        _annotated(a1, st["A"], tokens, highlight=st["qi"])
        _weight_bars(a2, st["A"][st["qi"]], tokens, ghost=st["ghost"], title="这一行")
        for r, (step, sym, shape, meaning) in enumerate(st["rows"]):
            fig.text(0.02, 0.3 - 0.035 * r, f"{step}  {sym}  {' × '.join(map(str, shape))}  {meaning}", fontsize=11)
    elif name == "mask_explorer":
        fig = Figure(figsize=(6.4, 4.7))
        _annotated(fig.subplots(), st["A"], tokens, masked=st["mask"])
    elif name == "head_explorer":
        fig = Figure(figsize=(10, 5.5))
        a1, a2 = fig.subplots(1, 2)
        _annotated(a1, st["A_heads"][st["head"] - 1], tokens, highlight=st["qi"])
        _annotated(a2, st["A_avg"], tokens, highlight=st["qi"])
    else:  # position_explorer: the score curve, one pair as arrows, the weights before and after reordering
        fig = Figure(figsize=(9.2, 7.4))
        (a1, a2), (a3, a4) = fig.subplots(2, 2)
        a1.plot(st["shifts"], st["curve"], marker="o")
        a1.set_title("q·k")
        for (x, y), colour in zip(st["hands"], ("#31688e", "#c05a00")):
            a2.annotate("", xy=(x, y), xytext=(0, 0), arrowprops=dict(color=colour, width=2))
        a2.add_patch(_circle())
        a2.set_xlim(-2, 2)
        a2.set_ylim(-2, 2)
        a2.set_aspect("equal")
        _annotated(a3, st["A"], tokens, highlight=2)
        _annotated(a4, st["A_by_word"], tokens, highlight=2)
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return buf.getvalue()


# ---------------------------------------------------------------- measurement (runs in the kernel)


def measure(n=200, naive_every=10, warmup=5):
    import warnings

    import ipywidgets as widgets

    from attn_core.examples import coreference, four_words
    from attn_viz import explorers, fonts

    fonts.setup()
    warnings.filterwarnings("ignore", message="Glyph")
    settings = _settings()
    rows = []
    for name, cycle in settings.items():
        ex = getattr(explorers, name)()
        tokens = (coreference() if name == "head_explorer" else four_words()).tokens
        image = widgets.Image(format="png")
        fast, naive, changed = [], [], 0
        for i in range(-warmup, n):
            setting = cycle[i % len(cycle)]
            before = ex._picture.value
            t0 = time.perf_counter()
            ex.set(**setting)
            t1 = time.perf_counter()
            if ex.error:
                raise RuntimeError(f"{name} {setting}: {ex.error}")
            if i >= 0:
                fast.append(t1 - t0)
                changed += ex._picture.value != before
            if i % naive_every == 0:
                t0 = time.perf_counter()
                st = ex._compute(ex.values)
                image.value = naive_png(name, st, tokens)
                t1 = time.perf_counter()
                if i >= 0:
                    naive.append(t1 - t0)
        ex.close()
        image.close()
        rows.append((name, np.array(fast) * 1e3, np.array(naive) * 1e3, changed))
    return rows


def report(rows, where):
    print(f"Explorer updates vs naive new-figure-per-update (matplotlib Agg → PNG), {where}, ms")
    head = (
        f"{'explorer':<18} {'n':>4} {'median':>7} {'p95':>6} {'naive n':>8} {'median':>7} {'p95':>6} {'ratio':>6}  goal"
    )
    print(head)
    print("-" * len(head))
    for name, fast, naive, changed in rows:
        med, p95 = np.median(fast), np.percentile(fast, 95)
        nmed, np95 = np.median(naive), np.percentile(naive, 95)
        ok = med <= GOAL_MS and nmed / med >= GOAL_RATIO
        print(
            f"{name:<18} {len(fast):>4} {med:>7.2f} {p95:>6.2f} {len(naive):>8} {nmed:>7.1f} {np95:>6.1f} "
            f"{nmed / med:>5.0f}×  {'ok' if ok else 'MISSED'}"
            + ("" if changed == len(fast) else f"  ({len(fast) - changed} updates left the picture unchanged)")
        )
    print(f"goal: median ≤ {GOAL_MS:.0f} ms and ≥ {GOAL_RATIO:.0f}× faster than naive (ratio of medians)")


# ---------------------------------------------------------------- driver


def _in_kernel(n, naive_every):
    """Run measure() inside a fresh ipykernel (the venv's python3 kernel) and relay its output."""
    from jupyter_client.manager import KernelManager

    km = KernelManager(kernel_name="python3", transport="ipc")
    km.start_kernel(cwd=ROOT)
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        code = (
            f"import sys; sys.path.insert(0, {HERE!r})\n"
            "import bench_explorers as b, ipykernel\n"
            f"b.report(b.measure(n={n}, naive_every={naive_every}), "
            "'in an ipykernel ' + ipykernel.__version__ + ' (comm messages sent)')\n"
        )
        msg_id = kc.execute(code)
        status = None
        while True:
            msg = kc.get_iopub_msg(timeout=300)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                print(content["text"], end="", file=sys.stdout if content["name"] == "stdout" else sys.stderr)
            elif kind == "error":
                print("\n".join(content["traceback"]), file=sys.stderr)
                status = "error"
            elif kind == "status" and content["execution_state"] == "idle":
                break
        return 1 if status == "error" else 0
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=200, help="explorer updates per explorer (default 200)")
    p.add_argument("--naive-every", type=int, default=10, help="one naive update after every N (default 10)")
    p.add_argument("--here", action="store_true", help="measure in this process instead of a kernel")
    args = p.parse_args(argv)
    if args.here:
        sys.path.insert(0, ROOT)
        report(measure(args.n, args.naive_every), "in this process (no kernel)")
        return 0
    return _in_kernel(args.n, args.naive_every)


if __name__ == "__main__":
    sys.exit(main())
