"""Lesson 14: how big the KV cache gets, and what one generated token costs with it and without it.

Three published configurations (lesson 14, section 4, gives their sources): GPT-2 small, Llama 2 7B (every
query head has its own K/V head) and Llama 3 8B (32 query heads share 8 K/V heads). The learner picks the
model, how many K/V heads it keeps (any divisor of its query heads: 1 is MQA, all of them multi-head),
the context length and the bytes per stored number. The picture: the cache of one sequence for every
K/V-head choice of that model (the chosen one in orange), and one generated token's time with the cache
and without it (every row of every layer recomputed), both from attn_core.decoding's counts and the
Roofline model: the longer of 2·multiply-adds ÷ peak FLOP/s and bytes read ÷ bandwidth. The two rates are
the learner's assumption (by default the A100 80GB SXM datasheet's, as in lesson 14); attention layers only.
"""

from attn_core.decoding import decode_token_cost, kv_cache_bytes, roofline_seconds

from .. import svg as draw
from .base import MARGIN, PANEL_TITLE_SIZE, PANELS_TOP, Explorer, Frame, Text, choice, describe

# name: (layers, query heads, K/V heads, d_head, d_model, longest context in tokens): lesson 14's table
MODELS = {
    "GPT-2 small": (12, 12, 12, 64, 768, 1024),
    "Llama 2 7B": (32, 32, 32, 128, 4096, 4096),
    "Llama 3 8B": (32, 32, 8, 128, 4096, 4096),
}
KV_HEADS = tuple(sorted({d for m in MODELS.values() for d in range(1, m[1] + 1) if m[1] % d == 0}))
CONTEXTS = (1, 16, 64, 256, 512, 1024, 2048, 4096)  # tokens
BYTES_PER_VALUE = (1, 2, 4)  # 8-bit, float16 / bfloat16, float32
A100 = dict(bandwidth_gb_s=2039, peak_tflop_s=312)  # A100 80GB SXM datasheet: HBM2e, dense fp16 tensor cores
BANDWIDTHS = (100, 200, 500, 1000, 2039, 3000)  # GB/s (10^9 bytes/s)
PEAKS = (10, 50, 100, 312, 1000)  # TFLOP/s (10^12 FLOP/s)

# ---------------------------------------------------------------- layout (px), the same in kv.js
WIDTH = 720
LABEL_W = 210  # the bars' labels on the left
BAR_MAX = 300  # the longest bar
ROW_H = 26  # one bar and its gap
BAR_H = 18
GAP = 28  # between the two panels
NOTE_LINE = 19  # the assumptions under the bars

# the words the page draws with (attn_viz.messages), besides base.BASE_WORDS
WORDS = tuple(
    f"kv_{key}"
    for key in (
        "heading",
        "cache_panel",
        "heads_mha",
        "heads_gqa",
        "heads_mqa",
        "time_panel",
        "time_cached",
        "time_recompute",
        "memory_bound",
        "compute_bound",
        "assumption",
        "beyond",
        "size",
        "cache_line",
        "cost_line_cached",
        "cost_line_recompute",
        "speedup",
        "desc",
        "not_divisor",
    )
)


def kv_cache_explorer(model: str = "Llama 3 8B", context: int = 4096) -> Explorer:
    """Lesson 14: K/V heads and context length -> the cache's size and a lower bound on the time per token.

    ``model`` is one of "GPT-2 small", "Llama 2 7B", "Llama 3 8B" (lesson 14's published configurations,
    sources there); ``context`` the tokens a new token's query sees (itself included), one of 1, 16, 64,
    256, 512, 1024, 2048, 4096. Controls: ``model``, ``kv_heads`` (1 … 32; it must divide the model's
    query heads, else the picture says which counts can share them; it starts at the model's own),
    ``context``, ``bytes_per_value`` (1, 2 or 4), ``bandwidth_gb_s`` and ``peak_tflop_s`` (the chip: an
    assumption, by default the A100 80GB SXM datasheet's 2,039 GB/s and 312 TFLOP/s).
    The time is the Roofline lower bound (``decoding.roofline_seconds``) of ``decoding.decode_token_cost``:
    attention layers only, with the cache and recomputing every row. Readouts: ``cache_bytes`` (one
    sequence), ``per_token_bytes``, ``mads_*``, ``bytes_*``, ``seconds_*`` for "cached" and "recompute".
    Computed and drawn in the page (``js/kv.js``); attn_core here.
    """
    text = Text()
    if model not in MODELS:
        raise ValueError(text("not_a_choice", name="model", value=model, allowed=list(MODELS)))
    if context not in CONTEXTS:
        raise ValueError(text("not_a_choice", name="context", value=context, allowed=list(CONTEXTS)))
    specs = [
        choice("model", text("kv_control_model"), list(MODELS), model),
        choice("kv_heads", text("kv_control_kv_heads"), KV_HEADS, MODELS[model][2], slider=True),
        choice("context", text("kv_control_context"), CONTEXTS, context, slider=True),
        choice(
            "bytes_per_value",
            text("kv_control_bytes"),
            BYTES_PER_VALUE,
            2,
            labels=[text(f"kv_bytes_{b}") for b in BYTES_PER_VALUE],
        ),
        choice("bandwidth_gb_s", text("kv_control_bandwidth"), BANDWIDTHS, A100["bandwidth_gb_s"], slider=True),
        choice("peak_tflop_s", text("kv_control_peak"), PEAKS, A100["peak_tflop_s"], slider=True),
    ]
    models = {
        name: dict(layers=m[0], nHeads=m[1], kvHeads=m[2], dHead=m[3], dModel=m[4], maxContext=m[5])
        for name, m in MODELS.items()
    }
    return Explorer(
        "kv_cache_explorer", "kv", specs, dict(models=models), WORDS, compute, render, text=text, title=text("kv_title")
    )


def kv_options(model: str) -> tuple[int, ...]:
    """The K/V-head counts a model's query heads can be grouped into: the divisors of its query heads."""
    n_heads = MODELS[model][1]
    return tuple(d for d in range(1, n_heads + 1) if n_heads % d == 0)


# ---------------------------------------------------------------- compute: the numbers, from attn_core


def compute(values: dict) -> dict:
    layers, n_heads, _, d_head, d_model, max_context = MODELS[values["model"]]
    kv, t, b = int(values["kv_heads"]), int(values["context"]), int(values["bytes_per_value"])
    state = dict(model=values["model"], kv_heads=kv, context=t, bytes_per_value=b, n_heads=n_heads, layers=layers)
    state.update(max_context=max_context, bandwidth_gb_s=values["bandwidth_gb_s"], peak_tflop_s=values["peak_tflop_s"])
    state["error"] = "kv_not_divisor" if n_heads % kv else None
    if state["error"]:  # a learner's setting, said in the picture (attn_core's group_size would raise)
        return state
    peak, band = values["peak_tflop_s"] * 1e12, values["bandwidth_gb_s"] * 1e9
    state["per_token"] = kv_cache_bytes(layers, kv, d_head, b)
    state["caches"] = {g: kv_cache_bytes(layers, g, d_head, b, t) for g in kv_options(values["model"])}
    for cached, key in ((True, "cached"), (False, "recompute")):
        mads, reads = decode_token_cost(t, layers, n_heads, kv, d_head, d_model, b, cached=cached)
        state[f"mads_{key}"], state[f"bytes_{key}"] = mads, reads
        state[f"seconds_{key}"] = roofline_seconds(mads, reads, peak, band)
        state[f"memory_bound_{key}"] = reads / band >= 2 * mads / peak
    return state


# ---------------------------------------------------------------- numbers in words


def size_text(n_bytes: float, text: Text) -> str:
    """Bytes in the largest binary unit that leaves at least 1: "36 KiB", "512 MiB", "2 GiB" (3 digits)."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n_bytes >= scale:
            return text("kv_size", value=_digits(n_bytes / scale), unit=unit)
    return text("kv_size", value=_digits(n_bytes), unit="B")


def time_text(seconds: float, text: Text) -> str:
    """Seconds as "2.6 ms", "85.1 µs" or "1.20 s" (3 significant digits)."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return text("kv_size", value=_digits(seconds / scale), unit=unit)
    return text("kv_size", value=_digits(seconds / 1e-9), unit="ns")


def count_text(n: float) -> str:
    """A large count with three significant digits and an SI prefix: 1.23 G, 45.6 M."""
    for unit, scale in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= scale:
            return f"{_digits(n / scale)} {unit}"
    return f"{n:g}"


def _digits(x: float) -> str:
    """Three significant digits below 1,000 ("2.6", "46.3", "512"), whole numbers with commas above."""
    if x >= 1000:
        return f"{round(x):,}"
    r = float(f"{x:.3g}")
    return f"{r:,.0f}" if r >= 1000 else f"{r:g}"


# ---------------------------------------------------------------- render: the static picture (as kv.js)


def full_height(bars: int) -> float:
    """The picture's height with ``bars`` K/V-head bars and three note lines: every setting of a model
    keeps it, so the picture does not jump."""
    return PANELS_TOP + 20 + 12 + bars * ROW_H + GAP + 12 + 2 * ROW_H + 16 + NOTE_LINE * 3 + 6


def render(explorer: Explorer, state: dict) -> Frame:
    text = explorer.text
    t, kv, n_heads = state["context"], state["kv_heads"], state["n_heads"]
    heading = text("kv_heading", model=state["model"], kv_heads=kv, n_heads=n_heads, context=f"{t:,}")
    pic = explorer.picture(heading, WIDTH)
    if state["error"]:
        divisors = text("list_sep").join(str(d) for d in kv_options(state["model"]))
        message = text("kv_not_divisor", n_heads=n_heads, kv_heads=kv, divisors=divisors).split("\n")
        draw.notice(pic, MARGIN, PANELS_TOP, WIDTH - 2 * MARGIN, message)
        pic.height = full_height(len(kv_options(state["model"])))
        return Frame(pic, {}, message, describe(heading, " ".join(message), text))
    y = PANELS_TOP + 20
    pic.text(MARGIN, y, text("kv_cache_panel", context=f"{t:,}"), size=PANEL_TITLE_SIZE, bold=True)
    caches, top = state["caches"], max(state["caches"].values())
    for k, (g, n_bytes) in enumerate(sorted(caches.items(), reverse=True)):
        row_y = y + 12 + k * ROW_H
        name = text("kv_heads_mha" if g == n_heads else "kv_heads_mqa" if g == 1 else "kv_heads_gqa", kv_heads=g)
        chosen = g == kv
        pic.text(MARGIN, row_y + 14, name, size=15, bold=chosen)
        length = BAR_MAX * n_bytes / top
        pic.rect(MARGIN + LABEL_W, row_y, length, BAR_H, fill=draw.ACCENT if chosen else draw.BAR)
        pic.text(MARGIN + LABEL_W + length + 6, row_y + 14, size_text(n_bytes, text), size=15, bold=chosen)
    y = y + 12 + len(caches) * ROW_H + GAP
    pic.text(MARGIN, y, text("kv_time_panel"), size=PANEL_TITLE_SIZE, bold=True)
    times = [(key, state[f"seconds_{key}"]) for key in ("cached", "recompute")]
    slowest = max(s for _, s in times)
    for k, (key, seconds) in enumerate(times):
        row_y = y + 12 + k * ROW_H
        pic.text(MARGIN, row_y + 14, text(f"kv_time_{key}"), size=15)
        length = BAR_MAX * seconds / slowest
        pic.rect(MARGIN + LABEL_W, row_y, length, BAR_H, fill=draw.ACCENT if key == "cached" else draw.BAR)
        bound = text("kv_memory_bound" if state[f"memory_bound_{key}"] else "kv_compute_bound")
        pic.text(MARGIN + LABEL_W + length + 6, row_y + 14, f"{time_text(seconds, text)} {bound}", size=15)
    y = y + 12 + 2 * ROW_H + 16
    notes = text("kv_assumption", bandwidth=f"{state['bandwidth_gb_s']:,}", peak=f"{state['peak_tflop_s']:,}")
    notes = notes.split("\n")
    if t > state["max_context"]:
        notes.append(text("kv_beyond", model=state["model"], max=f"{state['max_context']:,}"))
    for k, line in enumerate(notes):
        pic.text(MARGIN, y + NOTE_LINE * k, line, size=14, fill=draw.MUTED)
    pic.height = max(y + NOTE_LINE * len(notes) + 6, full_height(len(caches)))

    cache = caches[kv]
    readouts = {
        "per_token_bytes": float(state["per_token"]),
        "cache_bytes": float(cache),
        "full_mha_cache_bytes": float(caches[n_heads]),
    }
    for key in ("cached", "recompute"):
        readouts.update({f"{what}_{key}": float(state[f"{what}_{key}"]) for what in ("mads", "bytes", "seconds")})
    lines = [
        text(
            "kv_cache_line",
            per_token=size_text(state["per_token"], text),
            context=f"{t:,}",
            cache=size_text(cache, text),
            full=size_text(caches[n_heads], text),
            n_heads=n_heads,
        ),
        *(
            text(
                f"kv_cost_line_{key}",
                mads=count_text(state[f"mads_{key}"]),
                bytes=size_text(state[f"bytes_{key}"], text),
                time=time_text(state[f"seconds_{key}"], text),
            )
            for key in ("cached", "recompute")
        ),
        text("kv_speedup", ratio=_digits(state["seconds_recompute"] / state["seconds_cached"])),
    ]
    body = text(
        "kv_desc",
        context=f"{t:,}",
        caches=text("list_sep").join(
            text("token_value", token=str(g), value=size_text(b, text)) for g, b in sorted(caches.items(), reverse=True)
        ),
        cached=time_text(state["seconds_cached"], text),
        recompute=time_text(state["seconds_recompute"], text),
    )
    return Frame(pic, readouts, lines, describe(heading, body, text))
