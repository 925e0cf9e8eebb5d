"""Lesson 14: how big the KV cache gets, and what one generated token costs with it and without it.

Three published configurations (lesson 14, section 4, gives their sources): GPT-2 small, Llama 2 7B (every
query head has its own K/V head) and Llama 3 8B (32 query heads share 8 K/V heads). The learner picks the
model, how many K/V heads it keeps (any divisor of its query heads: 1 is MQA, all of them multi-head),
the context length and the bytes per stored number. The picture: the cache of one sequence for every
K/V-head choice of that model (the chosen one in orange), and one generated token's time with the cache
and without it (every row of every layer recomputed from the activations, no cache read), both from
attn_core.decoding's counts and the Roofline model: the longer of 2·multiply-adds ÷ peak FLOP/s and
bytes read ÷ bandwidth, drawn on one logarithmic scale for every setting (``TIME_AXIS``) so that a longer
time is a longer bar. The two rates are the learner's assumption (by default the A100 80GB SXM
datasheet's, as in lesson 14, and the note says which); attention layers only. Choosing a model sets the
K/V heads to its own (``linked``); the heading says when the learner has changed them.
"""

import math
import re

from attn_core.decoding import decode_token_cost, kv_cache_bytes, roofline_seconds

from .. import svg as draw
from .base import MARGIN, PANEL_TITLE_SIZE, PANELS_TOP, Explorer, Frame, Text, choice, describe

# name: (layers, query heads, K/V heads, d_head, d_model, longest context in tokens): lesson 14's table.
# Longest contexts: GPT-2 1,024 (Radford et al. 2019, Section 2.3); Llama 2 4,096 (Touvron et al. 2023b,
# Table 1); Llama 3 8B 8,192 (Meta's Llama 3 model card, April 2024, "context length 8k"; the later
# Llama 3.1 models of Grattafiori et al. 2024, The Llama 3 Herd of Models, are extended to 128K).
MODELS = {
    "GPT-2 small": (12, 12, 12, 64, 768, 1024),
    "Llama 2 7B": (32, 32, 32, 128, 4096, 4096),
    "Llama 3 8B": (32, 32, 8, 128, 4096, 8192),
}
KV_HEADS = tuple(sorted({d for m in MODELS.values() for d in range(1, m[1] + 1) if m[1] % d == 0}))
CONTEXTS = (1, 16, 64, 256, 512, 1024, 2048, 4096, 8192)  # tokens: up to the longest limit in MODELS
DEFAULT_CONTEXT = 4096  # lesson 14's numbers (or the model's limit if that is shorter)
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
NOTE_SIZE = 14
AXIS_H = 24  # the time bars' decade ticks and their labels, under the two bars


def _time_axis() -> tuple[int, int]:
    """The time bars' one scale, the same for every setting so that a longer time is a longer bar (a bar
    scaled to the slower of the two was always full width): whole decades 10^lo … 10^hi seconds around the
    fastest and the slowest time any setting gives (times grow with the context, the bytes and the K/V heads
    and shrink with the rates; both ways of decoding, every model). Logarithmic: the times span 10^6."""
    times = []
    for layers, n_heads, _, d_head, d_model, _ in MODELS.values():
        corners = (
            (1, 1, 1, BANDWIDTHS[-1], PEAKS[-1]),
            (n_heads, CONTEXTS[-1], BYTES_PER_VALUE[-1], BANDWIDTHS[0], PEAKS[0]),
        )
        for kv, t, b, band, peak in corners:
            for cached in (True, False):
                mads, reads = decode_token_cost(t, layers, n_heads, kv, d_head, d_model, b, cached=cached)
                times.append(roofline_seconds(mads, reads, peak * 1e12, band * 1e9))
    return math.floor(math.log10(min(times))), math.ceil(math.log10(max(times)))


TIME_AXIS = _time_axis()  # (lo, hi): 10^lo s at the bars' start, 10^hi s at BAR_MAX


def time_bar(seconds: float, axis: tuple[int, int] = TIME_AXIS) -> float:
    """The length (px) of a time bar on the one logarithmic scale (kv.js ``timeBar``)."""
    lo, hi = axis
    return BAR_MAX * (math.log10(seconds) - lo) / (hi - lo)


# the words the page draws with (attn_viz.messages), besides base.BASE_WORDS
WORDS = tuple(
    f"kv_{key}"
    for key in (
        "heading",
        "heading_changed",
        "source_a100",
        "source_own",
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
        "speedup_even",
        "speedup_slower",
        "speedup_unknown",
        "tokens",
        "tokens_one",
        "kv_heads",
        "kv_heads_one",
        "bar_value",
        "time_bound",
        "time_scale",
        "desc",
        "not_divisor",
    )
)


def kv_cache_explorer(model: str = "Llama 3 8B", context: int | None = None) -> Explorer:
    """Lesson 14: K/V heads and context length -> the cache's size and a lower bound on the time per token.

    ``model`` is one of "GPT-2 small", "Llama 2 7B", "Llama 3 8B" (lesson 14's published configurations,
    sources there); ``context`` the tokens a new token's query sees (itself included), one of 1, 16, 64,
    256, 512, 1024, 2048, 4096, 8192 (by default 4,096, or the model's limit if that is shorter; the slider
    reaches 8,192, Llama 3 8B's limit that the heading names). Controls:
    ``model``, ``kv_heads`` (1 … 32; it must divide the model's query heads, else the picture says which
    counts can share them; it starts at the model's own, and choosing a model sets it to that model's own
    and the context to at most the model's limit: ``linked``; the heading says when it is changed),
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
    context = min(DEFAULT_CONTEXT, MODELS[model][5]) if context is None else context
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
    models = {  # the page's copy (kv.js), plus the A100 figures the note compares the rates with
        name: dict(layers=m[0], nHeads=m[1], kvHeads=m[2], dHead=m[3], dModel=m[4], maxContext=m[5])
        for name, m in MODELS.items()
    }
    return Explorer(
        "kv_cache_explorer",
        "kv",
        specs,
        dict(models=models, a100=A100, bandwidths=list(BANDWIDTHS), peaks=list(PEAKS), timeAxis=list(TIME_AXIS)),
        WORDS,
        compute,
        render,
        text=text,
        title=text("kv_title"),
        linked=linked,
    )


def linked(name: str, value, choices: dict) -> dict:
    """The controls a choice fixes (as kv.js ``linked``): a model sets the K/V heads to its own and the
    context to at most its limit, so a preset shows the model as published."""
    if name != "model":
        return {}
    _, _, kv_heads, _, _, max_context = MODELS[value]
    return dict(kv_heads=kv_heads, context=min(choices["context"], max_context))  # each limit is in CONTEXTS or above


def kv_options(model: str) -> tuple[int, ...]:
    """The K/V-head counts a model's query heads can be grouped into: the divisors of its query heads."""
    n_heads = MODELS[model][1]
    return tuple(d for d in range(1, n_heads + 1) if n_heads % d == 0)


# ---------------------------------------------------------------- compute: the numbers, from attn_core


def compute(values: dict) -> dict:
    layers, n_heads, own_kv, d_head, d_model, max_context = MODELS[values["model"]]
    kv, t, b = int(values["kv_heads"]), int(values["context"]), int(values["bytes_per_value"])
    state = dict(model=values["model"], kv_heads=kv, context=t, bytes_per_value=b, n_heads=n_heads, layers=layers)
    state.update(
        own_kv_heads=own_kv,
        max_context=max_context,
        bandwidth_gb_s=values["bandwidth_gb_s"],
        peak_tflop_s=values["peak_tflop_s"],
    )
    state["caches"] = {g: kv_cache_bytes(layers, g, d_head, b, t) for g in kv_options(values["model"])}
    state["error"] = "kv_not_divisor" if n_heads % kv else None
    if state["error"]:  # a learner's setting, said in the picture (attn_core's group_size would raise)
        return state
    peak, band = values["peak_tflop_s"] * 1e12, values["bandwidth_gb_s"] * 1e9
    state["per_token"] = kv_cache_bytes(layers, kv, d_head, b)
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


def speedup_text(ratio: float, recompute_memory_bound: bool, text: Text) -> str:
    """Recomputing's time over the cached one, said as what it means. While recomputing is memory-bound
    the model cannot compare them (its bytes leave out the activations); else the cache's gain (1.05 and
    more), no real difference (within 5 %), or recomputing faster under this model (0.95 and less)."""
    if recompute_memory_bound:
        key = "kv_speedup_unknown"
    else:
        key = "kv_speedup" if ratio >= 1.05 else "kv_speedup_slower" if ratio <= 0.95 else "kv_speedup_even"
    return text(key, ratio=_digits(ratio))


def tokens_text(n: int, text: Text) -> str:
    """ "1 token", "4,096 tokens" (Chinese: "1 个词元", "4,096 个词元")."""
    return text("kv_tokens_one") if n == 1 else text("kv_tokens", n=f"{n:,}")


def kv_heads_text(n: int, text: Text) -> str:
    """ "1 K/V head", "8 K/V heads"."""
    return text("kv_kv_heads_one") if n == 1 else text("kv_kv_heads", n=n)


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


# a token of a note line: one hanzi (or full-width mark), or a run of other characters up to its spaces
TOKEN = re.compile(r"[^\x00-\u2e80]|[\x00-\u2e80]+?(?:\s+|(?=[^\x00-\u2e80])|$)")
CLOSING = frozenset("，。；：、）")  # never at the start of a line


def wrap(line: str, size: float = NOTE_SIZE, width: float = WIDTH - 2 * MARGIN) -> list[str]:
    """``line`` broken into lines at most ``width`` px wide (``svg.text_width``'s estimate), between
    words or between two hanzi (kv.js ``wrap``): the notes stay inside the picture in both languages."""
    lines, current = [], ""
    for token in TOKEN.findall(line):
        if current.strip() and token not in CLOSING and draw.text_width((current + token).rstrip(), size) > width:
            lines.append(current.rstrip())
            current = token.lstrip()
        else:
            current += token
    lines.append(current.rstrip())
    return lines


def note_lines(text: Text, model: str, bandwidth: str, peak: str, source: str, beyond: bool) -> list[str]:
    """The notes under the bars, wrapped: the assumptions (the chip's rates and where they come from)
    and, past the model's context limit, that the formula is only carried on."""
    notes = text("kv_assumption", bandwidth=bandwidth, peak=peak, source=source).split("\n")
    if beyond:
        notes.append(text("kv_beyond", model=model, max=f"{MODELS[model][5]:,}"))
    return [part for line in notes for part in wrap(line)]


def most_note_lines(text: Text) -> int:
    """The most note lines any setting has (the widest rates, the learner's own, past the limit)."""
    source = text("kv_source_own")
    return max(len(note_lines(text, m, f"{BANDWIDTHS[-1]:,}", f"{PEAKS[-1]:,}", source, True)) for m in MODELS)


def full_height(bars: int, notes: int) -> float:
    """The picture's height with ``bars`` K/V-head bars and room for ``notes`` note lines: every
    setting of a model keeps it, so the picture does not jump."""
    return PANELS_TOP + 20 + 12 + bars * ROW_H + GAP + 12 + 2 * ROW_H + AXIS_H + 16 + NOTE_LINE * notes + 6


def time_axis(pic, y: float, text: Text) -> None:
    """The time bars' scale under them (kv.js ``timeAxis``): a tick at every decade, labelled every third
    (1 µs, 1 ms, 1 s) and at its end when that is two decades or more past the last label ("1 s" and
    "10 s" one decade apart almost touched), and the words "log scale" at its left."""
    lo, hi = TIME_AXIS
    x0 = MARGIN + LABEL_W
    pic.line(x0, y, x0 + BAR_MAX, y, stroke=draw.MUTED)
    for e in range(lo, hi + 1):
        x = x0 + time_bar(float(f"1e{e}"))
        pic.line(x, y, x, y + 5, stroke=draw.MUTED)
        if e % 3 == 0 or (e == hi and hi % 3 >= 2):
            pic.text(x, y + 19, time_text(float(f"1e{e}"), text), size=14, anchor="middle", fill=draw.MUTED)
    pic.text(x0 - 22, y + 19, text("kv_time_scale"), size=14, anchor="end", fill=draw.MUTED)  # clear of "1 µs"


def render(explorer: Explorer, state: dict) -> Frame:
    text = explorer.text
    t, kv, n_heads = state["context"], state["kv_heads"], state["n_heads"]
    heading = text(
        "kv_heading" if kv == state["own_kv_heads"] else "kv_heading_changed",
        model=state["model"],
        kv_heads=kv,
        own=state["own_kv_heads"],
        n_heads=n_heads,
        context=f"{t:,}",
        tokens=tokens_text(t, text),
        kv_heads_text=kv_heads_text(kv, text),
        max=f"{state['max_context']:,}",
    )
    pic = explorer.picture(heading, WIDTH)
    y = PANELS_TOP + 20
    pic.text(MARGIN, y, text("kv_cache_panel", tokens=tokens_text(t, text)), size=PANEL_TITLE_SIZE, bold=True)
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
    message = None
    if state["error"]:  # the time panel's place says why there is no time; the bars and the notes stay live
        divisors = text("list_sep").join(str(d) for d in kv_options(state["model"]))
        message = text("kv_not_divisor", n_heads=n_heads, kv_heads=kv, divisors=divisors).split("\n")
        draw.notice(pic, MARGIN, y - 14, WIDTH - 2 * MARGIN, message)
    else:
        pic.text(MARGIN, y, text("kv_time_panel"), size=PANEL_TITLE_SIZE, bold=True)
        times = [(key, state[f"seconds_{key}"]) for key in ("cached", "recompute")]
        for k, (key, seconds) in enumerate(times):
            row_y = y + 12 + k * ROW_H
            pic.text(MARGIN, row_y + 14, text(f"kv_time_{key}"), size=15)
            length = time_bar(seconds)
            pic.rect(MARGIN + LABEL_W, row_y, length, BAR_H, fill=draw.ACCENT if key == "cached" else draw.BAR)
            bound = text("kv_memory_bound" if state[f"memory_bound_{key}"] else "kv_compute_bound")
            pic.text(
                MARGIN + LABEL_W + length + 6,
                row_y + 14,
                text("kv_time_bound", time=time_text(seconds, text), bound=bound),
                size=15,
            )
        time_axis(pic, y + 12 + 2 * ROW_H, text)
    y = y + 12 + 2 * ROW_H + AXIS_H + 16
    own = (state["bandwidth_gb_s"], state["peak_tflop_s"]) != (A100["bandwidth_gb_s"], A100["peak_tflop_s"])
    source = text(
        "kv_source_own" if own else "kv_source_a100",
        bandwidth=f"{A100['bandwidth_gb_s']:,}",
        peak=f"{A100['peak_tflop_s']:,}",
    )
    rates = f"{state['bandwidth_gb_s']:,}", f"{state['peak_tflop_s']:,}"
    notes = note_lines(text, state["model"], *rates, source, t > state["max_context"])
    for k, line in enumerate(notes):
        pic.text(MARGIN, y + NOTE_LINE * k, line, size=NOTE_SIZE, fill=draw.MUTED)
    pic.height = max(y + NOTE_LINE * len(notes) + 6, full_height(len(caches), most_note_lines(text)))
    if message is not None:
        return Frame(pic, {}, message, describe(heading, " ".join(message), text))

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
            tokens=tokens_text(t, text),
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
        speedup_text(state["seconds_recompute"] / state["seconds_cached"], state["memory_bound_recompute"], text),
    ]
    body = text(
        "kv_desc",
        tokens=tokens_text(t, text),
        caches=text("list_sep").join(
            text("kv_bar_value", kv_heads=g, value=size_text(b, text)) for g, b in sorted(caches.items(), reverse=True)
        ),
        cached=time_text(state["seconds_cached"], text),
        recompute=time_text(state["seconds_recompute"], text),
    )
    return Frame(pic, readouts, lines, describe(heading, body, text))
