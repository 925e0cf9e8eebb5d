"""The mask, head, position and KV-cache explorers: the page's math (attn_viz/explorers/js/*.js, run by node)
gives attn_core's numbers on a grid of every control's values, and the Python side behaves as a learner
expects.

node is needed for the grid tests: they are skipped without it on a developer's machine and fail in CI
(CI=true), where .ci/run installs it."""

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from attn_core import decoding
from attn_core.core import causal_mask
from attn_core.examples import coreference, four_words
from attn_core.multihead import multi_head_attention
from attn_core.positions import (
    ENCODINGS,
    attention_with_positions,
    positioned_qkv,
    sinusoidal_positions,
    with_even_width,
)
from attn_viz.svg import FONT_FAMILY  # noqa: E402

JS = Path(__file__).resolve().parents[1] / "attn_viz" / "explorers" / "js"
NODE = shutil.which("node")
RAW = 1e-12  # the raw numbers: float64 in both, the same operations in nearly the same order


def node(module: str, body: str, data) -> object:
    """Run ``body`` (JavaScript, an ES module with ``m`` = the module's exports and ``data`` = the JSON
    given) in node and return what it prints as JSON."""
    if NODE is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is missing: .ci/run installs nodejs in CI")
        pytest.skip("node is not installed")
    # draw.js reads PAGE_CONFIG, which esm.py writes in before the modules; set it first (a dynamic import
    # runs after this line, a static one would run before it)
    config = f"globalThis.PAGE_CONFIG = {json.dumps({'fontFamily': FONT_FAMILY})};\n"
    script = (
        config + f"const m = await import({json.dumps((JS / module).as_uri())});\n"
        f"const data = JSON.parse(require_stdin());\n{body}\n"
    ).replace(
        "require_stdin()",
        "await new Promise((ok) => { let s = ''; process.stdin.on('data', (c) => (s += c)); "
        "process.stdin.on('end', () => ok(s)); })",
    )
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def close(js, py, tol=RAW):
    js, py = np.asarray(js, dtype=float), np.asarray(py, dtype=float)
    assert js.shape == py.shape
    np.testing.assert_allclose(js, py, rtol=tol, atol=tol)


def matrices(example):
    return {name: np.asarray(getattr(example, name)).tolist() for name in ("X", "W_q", "W_k", "W_v")}


# ---------------------------------------------------------------- masks (lesson 07)


def test_mask_math_in_the_page_is_attn_cores_on_every_setting():
    ex = four_words()
    n = len(ex.tokens)
    Q, K, _ = (np.asarray(M) for M in (ex.X @ ex.W_q, ex.X @ ex.W_k, ex.X @ ex.W_v))
    grid = [("none", 0)] + [(mode, p) for mode in ("causal", "padding") for p in range(n + 1)]
    out = node(
        "masks.js",
        "console.log(JSON.stringify(data.grid.map(([mode, p]) => m.maskState(data.Q, data.K, mode, p))));",
        {"Q": Q.tolist(), "K": K.tolist(), "grid": grid},
    )
    for (mode, p), got in zip(grid, out):
        mask = None if mode == "none" else np.arange(n)[None, :] < n - p  # key side: the last p are padding
        if mode == "causal":
            mask = mask & causal_mask(n)
        mask = None if mask is None else np.broadcast_to(mask, (n, n))
        assert got["mask"] == (None if mask is None else mask.tolist())
        assert got["masked"] == (0 if mask is None else int((~mask).sum()))
        if p == n:  # every key is padding: attn_core refuses, the page names the rows
            with pytest.raises(ValueError):
                ex.attention(mask=mask)
            assert got["emptyRows"] == list(range(n))
            continue
        assert got["emptyRows"] == []
        close(got["A"], ex.attention(mask=mask).A)
        if mask is not None:  # masked cells are exactly 0, as attn_core's −∞ makes them
            assert all(got["A"][i][j] == 0 for i in range(n) for j in range(n) if not mask[i, j])


# ---------------------------------------------------------------- heads (lesson 08)


@pytest.mark.parametrize("n_heads", [1, 2, 4])
def test_head_math_in_the_page_is_multi_head_attention(n_heads):
    cr = coreference()
    rng = np.random.default_rng(0)
    W_q, W_k, W_v, W_o = (rng.normal(0.0, 2.0, (4, 4)) for _ in range(4))
    out = node(
        "heads.js",
        "const A = m.headWeights(data.X, data.W_q, data.W_k, data.h);"
        "console.log(JSON.stringify({A, avg: m.averageHeads(A), fav: A.map((a) => a.map(m.favourite))}));",
        {"X": np.asarray(cr.X).tolist(), "W_q": W_q.tolist(), "W_k": W_k.tolist(), "h": n_heads},
    )
    A = multi_head_attention(cr.X, cr.X, W_q, W_k, W_v, W_o, n_heads).A
    close(out["A"], A)
    close(out["avg"], A.mean(axis=0))
    assert out["fav"] == A.argmax(axis=-1).tolist()


# ---------------------------------------------------------------- positions (lesson 12)


def test_position_math_in_the_page_is_attn_cores_on_every_setting():
    wide = with_even_width(four_words())
    tokens = wide.tokens
    qi, ki = tokens.index("学习"), tokens.index("语言")
    positions = list(range(16))
    out = node(
        "positions.js",
        """
        const {X, W_q, W_k, W_v, qi, ki, positions} = data;
        const res = {};
        for (const e of m.ENCODINGS) {
          res[e] = {
            A: m.weightsWithPositions(X, W_q, W_k, W_v, e),
            orders: m.reorderings(X.length),
            reordered: m.reorderings(X.length).map((o) => m.reorderedByWord(X, o, W_q, W_k, W_v, e)),
            curves: positions.map((i) => positions.map((j) => m.scoreCurve(X[qi], X[ki], W_q, W_k, W_v, e, i, j, 20))),
            hands: positions.map((i) => positions.map((j) => m.hands(X[qi], X[ki], W_q, W_k, W_v, e, i, j))),
          };
        }
        res.pe = positions.map((p) => m.sinusoidalAt(p, X[0].length));
        console.log(JSON.stringify(res));
        """,
        {**matrices(wide), "qi": qi, "ki": ki, "positions": positions},
    )
    W = (wide.W_q, wide.W_k, wide.W_v)
    close(out["pe"], sinusoidal_positions(16, wide.X.shape[1]))
    shifts = np.arange(21)
    for e in ENCODINGS:
        got = out[e]
        close(got["A"], attention_with_positions(wide.X, *W, e).A)
        for order, A_js in zip(got["orders"], got["reordered"]):
            back = np.argsort(order)
            close(A_js, attention_with_positions(wide.X[list(order)], *W, e).A[np.ix_(back, back)])
        for i in positions:
            for j in positions:
                Q, _, _ = positioned_qkv(np.repeat(wide.X[qi : qi + 1], 21, 0), *W, i + shifts, e)
                _, K, _ = positioned_qkv(np.repeat(wide.X[ki : ki + 1], 21, 0), *W, j + shifts, e)
                close(got["curves"][i][j], (Q * K).sum(axis=1))
        Q, K, _ = positioned_qkv(wide.X[[qi, ki]], *W, np.array([3, 11]), e)
        want = sinusoidal_positions(12, wide.X.shape[1])[[3, 11], :2] if e == "sinusoidal" else [Q[0, :2], K[1, :2]]
        close(got["hands"][3][11], want)
    assert out["none"]["orders"] == [[3, 2, 1, 0], [3, 0, 1, 2], [1, 0, 3, 2]]


# ---------------------------------------------------------------- the KV cache (lesson 14)

CONFIGS = {"GPT-2 small": (12, 12, 64, 768), "Llama 2 7B": (32, 32, 128, 4096), "Llama 3 8B": (32, 32, 128, 4096)}


def test_kv_math_in_the_page_is_attn_cores_on_every_setting():
    grid = []
    for _name, (layers, n_heads, d_head, d_model) in CONFIGS.items():
        for kv in [d for d in range(1, n_heads + 1) if n_heads % d == 0]:
            for context in (1, 16, 128, 1024, 4096):
                for bpv in (1, 2, 4):
                    for band, peak in ((2039, 312), (100, 10), (3000, 1000)):
                        grid.append(
                            (
                                dict(layers=layers, nHeads=n_heads, dHead=d_head, dModel=d_model),
                                dict(
                                    kv_heads=kv,
                                    context=context,
                                    bytes_per_value=bpv,
                                    bandwidth_gb_s=band,
                                    peak_tflop_s=peak,
                                ),
                            )
                        )
    out = node("kv.js", "console.log(JSON.stringify(data.map(([c, v]) => m.kvState(c, v))));", grid)
    for (c, values), got in zip(grid, out):
        args = (values["context"], c["layers"], c["nHeads"], values["kv_heads"], c["dHead"], c["dModel"])
        for cached, key in ((True, "Cached"), (False, "Recompute")):
            mads, reads = decoding.decode_token_cost(*args, values["bytes_per_value"], cached=cached)
            assert (got[f"mads{key}"], got[f"bytes{key}"]) == (mads, reads)  # exact integers
            seconds = decoding.roofline_seconds(
                mads, reads, values["peak_tflop_s"] * 1e12, values["bandwidth_gb_s"] * 1e9
            )
            close(got[f"seconds{key}"], seconds)
        per = decoding.kv_cache_bytes(c["layers"], values["kv_heads"], c["dHead"], values["bytes_per_value"])
        assert got["perToken"] == per and got["cache"] == per * values["context"]


def test_one_token_costs_what_lesson_14_counts():
    # Llama 3 8B, one layer, 4,096 tokens, float16: lesson 14's projections (read once) plus attention_traffic
    mads, reads = decoding.decode_token_cost(4096, 1, 32, 8, 128, 4096)
    weights = 4096 * (2 * 32 + 2 * 8) * 128
    assert mads == weights + 2 * 32 * 4096 * 128
    assert reads == 2 * weights + decoding.kv_cache_bytes(1, 8, 128, tokens=4096)
    # 32 layers: 32 times one layer; with one token of context the cache changes nothing
    assert decoding.decode_token_cost(4096, 32, 32, 8, 128, 4096) == (32 * mads, 32 * reads)
    # with one token of context both do the same multiply-adds; recomputing reads no cache
    one_cached = decoding.decode_token_cost(1, 12, 12, 12, 64, 768)
    one_recomputed = decoding.decode_token_cost(1, 12, 12, 12, 64, 768, cached=False)
    assert one_recomputed == (one_cached[0], one_cached[1] - decoding.kv_cache_bytes(12, 12, 64, tokens=1))
    # without the cache every row is recomputed from the activations: projections t times, the t × t block
    # of scores, and only the weights read (K and V are computed again, not read from a cache)
    slow, slow_reads = decoding.decode_token_cost(4096, 1, 32, 8, 128, 4096, cached=False)
    assert slow == 4096 * weights + 2 * 32 * 4096 * 4096 * 128 and slow_reads == 2 * weights
    with pytest.raises(ValueError):
        decoding.decode_token_cost(4096, 32, 32, 3, 128, 4096)  # 32 query heads cannot share 3 K/V heads


def test_the_roofline_time_is_the_slower_of_computing_and_reading():
    # A100 80GB SXM datasheet numbers (lesson 14): decoding with the cache is memory-bound ...
    mads, reads = decoding.decode_token_cost(4096, 32, 32, 8, 128, 4096)
    assert decoding.roofline_seconds(mads, reads, 312e12, 2039e9) == reads / 2039e9
    # ... recomputing 4,096 rows is compute-bound, and slower
    slow, slow_reads = decoding.decode_token_cost(4096, 32, 32, 8, 128, 4096, cached=False)
    assert decoding.roofline_seconds(slow, slow_reads, 312e12, 2039e9) == 2 * slow / 312e12 > reads / 2039e9
    assert decoding.roofline_seconds(10, 0, 20, 1) == 1.0  # 2 FLOPs per multiply-add
    with pytest.raises(ValueError):
        decoding.roofline_seconds(1, 1, 0, 1)


# ================================================================ the explorers: the page's numbers and words
# For every setting on a grid of every control's values, node runs the explorer's module as the page does
# (compute, then render through runtime.frame) on the data and words Python sent, and the test compares
# with the Python explorer after ``.set(**values)``: the raw numbers to 1e-12, the printed lines and the
# picture's description word for word (so every printed digit agrees).

PAGE = """
const { frame, translator } = await import(%s);
const { data: page, words, grid, numbers } = data;
const t = translator(words);
const out = grid.map((values) => {
  const state = m.compute(page, values);
  const f = frame(m.explorer, page, values, t);
  const picked = {};
  for (const k of numbers) picked[k] = state[k] === undefined ? null : state[k];
  return { lines: f.lines, description: f.description, error: f.error, numbers: picked };
});
console.log(JSON.stringify(out));
"""


def page_frames(explorer, grid, numbers):
    """What the page computes and prints for each values dict of ``grid`` (node, the explorer's module)."""
    body = PAGE % json.dumps((JS / "runtime.js").as_uri())
    data = {"data": explorer.data, "words": explorer.words, "grid": grid, "numbers": numbers}
    return node(f"{explorer.kind}.js", body, data)


def nan_close(js, py):
    js = np.array([[np.nan if x is None else x for x in row] for row in js], dtype=float)
    np.testing.assert_allclose(js, np.asarray(py, dtype=float), rtol=RAW, atol=RAW, equal_nan=True)


def compare(explorer, grid, got, check):
    for values, page in zip(grid, got):
        explorer.set(**values)
        assert page["error"] is None, (values, page["error"])
        assert page["lines"] == explorer.lines, values
        assert page["description"] == explorer.description, values
        check(page["numbers"], explorer.state)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_mask_explorer_in_the_page_prints_what_attn_core_gives(lang):
    from attn_core import set_lang
    from attn_viz.explorers import mask_explorer

    set_lang(lang)
    try:
        ex = mask_explorer()
    finally:
        set_lang("zh")
    grid = [dict(mode=m, padding=p) for m in ("none", "causal", "padding") for p in range(5)]

    def check(page, state):
        nan_close(page["A"], state["A"])
        assert page["emptyRows"] == state["empty_rows"]

    compare(ex, grid, page_frames(ex, grid, ["A", "emptyRows"]), check)
    ex.close()


@pytest.mark.parametrize("n_heads", [1, 2, 4])
def test_head_explorer_in_the_page_prints_what_attn_core_gives(n_heads):
    from attn_viz.explorers import head_explorer

    ex = head_explorer(n_heads=n_heads)
    tokens = ex.data["tokens"]
    grid = [
        dict(projections=p, head=h, query=q)
        for p in ("designed", "random")
        for h in range(1, n_heads + 1)
        for q in tokens
    ]

    def check(page, state):
        close(page["A"], state["A_heads"])
        close(page["avg"], state["A_avg"])

    compare(ex, grid, page_frames(ex, grid, ["A", "avg"]), check)
    ex.close()


def test_position_explorer_in_the_page_prints_what_attn_core_gives():
    from attn_viz.explorers import position_explorer

    ex = position_explorer()
    orders = list(ex.data["orders"])
    grid = [dict(encoding=e, i=i, j=j, order=orders[0]) for e in ENCODINGS for i in range(16) for j in range(16)]
    grid += [dict(encoding=e, i=2, j=3, order=o) for e in ENCODINGS for o in orders]

    def check(page, state):
        close(page["curve"], state["curve"])
        close(page["A"], state["A"])
        close(page["AByWord"], state["A_by_word"])
        close(page["hands"], state["hands"])

    compare(ex, grid, page_frames(ex, grid, ["curve", "A", "AByWord", "hands"]), check)
    ex.close()


def test_kv_cache_explorer_in_the_page_prints_what_attn_core_gives():
    from attn_viz.explorers.kv import A100, BANDWIDTHS, CONTEXTS, KV_HEADS, MODELS, PEAKS, kv_cache_explorer

    ex = kv_cache_explorer()
    grid = [
        dict(model=m, kv_heads=g, context=c, bytes_per_value=b, **A100)
        for m in MODELS
        for g in KV_HEADS
        for c in CONTEXTS
        for b in (1, 2, 4)
        if MODELS[m][1] % g == 0
    ]
    grid += [
        dict(model="Llama 3 8B", kv_heads=8, context=4096, bytes_per_value=2, bandwidth_gb_s=w, peak_tflop_s=p)
        for w in BANDWIDTHS
        for p in PEAKS
    ]
    names = ["madsCached", "bytesCached", "secondsCached", "madsRecompute", "bytesRecompute", "secondsRecompute"]

    def check(page, state):
        for name in names:
            key = name[:-6].lower() + "_" + name[-6:].lower() if name.endswith("Cached") else None
            key = key or name.replace("Recompute", "").lower() + "_recompute"
            if name.startswith("seconds"):
                close(page[name], state[key])
            else:
                assert page[name] == state[key], name  # exact integers

    compare(ex, grid, page_frames(ex, grid, names), check)
    ex.close()


def test_the_speedup_line_says_what_the_ratio_means_in_the_page_and_in_python():
    """While recomputing is memory-bound its bytes leave out the activations, so the two times are not
    compared (a "0.999×" told a newcomer the cache makes it slower); compute-bound, the ratio is said,
    and where recomputing comes out faster, with the model's blind spot. Page and Python print the same."""
    ex = english_kv_explorer()
    grid = [
        dict(model="Llama 3 8B", kv_heads=8, context=16, bytes_per_value=2, bandwidth_gb_s=2039, peak_tflop_s=312),
        dict(model="Llama 3 8B", kv_heads=8, context=4096, bytes_per_value=2, bandwidth_gb_s=2039, peak_tflop_s=312),
        dict(model="GPT-2 small", kv_heads=12, context=4096, bytes_per_value=2, bandwidth_gb_s=100, peak_tflop_s=1000),
        dict(model="GPT-2 small", kv_heads=12, context=1024, bytes_per_value=2, bandwidth_gb_s=100, peak_tflop_s=312),
    ]
    compare(ex, grid, page_frames(ex, grid, []), lambda page, state: None)
    said = []
    for values in grid:
        ex.set(**values)
        said.append(ex.lines[-1])
        assert ex.state["memory_bound_recompute"] == ("cannot tell" in said[-1]), values
    assert "cannot tell which is faster" in said[0] and "0.99" not in said[0]
    assert said[1] == "under this model recomputing takes 40.2× as long"
    assert said[2].startswith("under this model recomputing is faster (0.41× the cached time)")
    assert "not counted" in said[2]
    ex.close()


def test_one_token_and_one_k_v_head_are_singular_and_the_chinese_time_has_no_space_before_its_bracket():
    ex = english_kv_explorer()
    ((svg, _),) = same_in_the_page(ex, [("context", 1)])
    assert "1 token (max" in svg and "the cache of one sequence of 1 token<" in svg and "1 tokens" not in svg
    ((svg, _),) = same_in_the_page(ex, [("kv_heads", 1)])
    assert "1 K/V head (own 8)" in svg and "1 K/V heads" not in ex.description
    assert "32: 2 GiB" in kv_cache_explorer_desc(ex, kv_heads=8, context=4096)
    ex.close()
    from attn_viz.explorers.kv import kv_cache_explorer

    zh = kv_cache_explorer()
    assert "ms（受内存带宽限制）" in zh.svg and "ms （" not in zh.svg
    zh.close()


def kv_cache_explorer_desc(ex, **values):
    ex.set(**values)
    return ex.description


CLICKS = """
const { afterInput, frame, translator } = await import(%s);
const t = translator(data.words);
let choices = data.choices;
const out = data.clicks.map(([name, value]) => {
  choices = afterInput(m.explorer, data.data, choices, name, value);
  const f = frame(m.explorer, data.data, choices, t);
  return { choices, svg: f.svg, error: f.error };
});
console.log(JSON.stringify(out));
"""


def page_clicks(explorer, clicks):
    """The page after each of ``clicks`` ((control, value), one after another from the explorer's
    choices, as the learner's inputs): its choices and its picture."""
    body = CLICKS % json.dumps((JS / "runtime.js").as_uri())
    data = {"data": explorer.data, "words": explorer.words, "choices": explorer.choices, "clicks": clicks}
    return node(f"{explorer.kind}.js", body, data)


def english_kv_explorer(**kwargs):
    from attn_core import set_lang
    from attn_viz.explorers.kv import kv_cache_explorer

    set_lang("en")
    try:
        return kv_cache_explorer(**kwargs)
    finally:
        set_lang("zh")


def same_in_the_page(ex, clicks):
    """Each click in the page and, one after another, ``ex.set`` of the same control in Python: the same
    choices and the very same picture. Returns Python's pictures and choices, click by click."""
    pictures = []
    for (name, value), page in zip(clicks, page_clicks(ex, clicks)):
        ex.set(**{name: value})
        assert page["error"] is None and ex.error is None, (name, value, page["error"], ex.error)
        assert page["choices"] == ex.choices, (name, value)
        assert page["svg"] == ex.svg, (name, value)
        pictures.append((ex.svg, dict(ex.choices)))
    return pictures


def test_choosing_a_model_sets_its_own_kv_heads_in_the_page_and_in_python():
    from attn_viz.explorers.kv import MODELS

    ex = english_kv_explorer()
    clicks = [("model", m) for m in ("GPT-2 small", "Llama 2 7B", "Llama 3 8B", "GPT-2 small", "Llama 3 8B")]
    for (_, m), (svg, choices) in zip(clicks, same_in_the_page(ex, clicks)):
        assert "cannot be shared" not in svg and "changed" not in svg, m  # the newcomer's one click: no error box
        assert choices["kv_heads"] == MODELS[m][2], m
    ex.set(model="GPT-2 small", kv_heads=3)  # given together, the learner's own count stays
    assert ex.values["kv_heads"] == 3
    ex.close()


def test_the_heading_gives_the_models_own_context_limit():
    ex = english_kv_explorer()
    assert "4,096 tokens (max 8,192)" in ex.svg  # Llama 3 8B: 8k
    ((svg, _),) = same_in_the_page(ex, [("model", "GPT-2 small")])
    assert ex.values["context"] == 1024 and "1,024 tokens (max 1,024)" in svg  # GPT-2's n_ctx
    assert "4,096" not in ex.description
    ex.set(context=4096)  # the learner may go past it: the limit stays GPT-2's, and the note says so
    assert "(max 1,024)" in ex.svg and "takes at most 1,024 tokens" in ex.svg
    ex.close()
    gpt2 = english_kv_explorer(model="GPT-2 small")
    assert gpt2.values["context"] == 1024 and "takes at most" not in gpt2.svg
    gpt2.close()


def test_the_context_slider_reaches_the_limit_the_heading_names():
    # newcomer trial 2: the slider stopped at 4,096 under a heading saying "上限 8,192"
    from attn_viz.explorers.kv import MODELS, kv_cache_explorer

    ex = kv_cache_explorer()
    assert ex.values["context"] == 4096  # lesson 14's numbers to start with
    assert "上限 8,192" in ex.svg and max(ex.controls["context"].options) == 8192
    assert max(ex.controls["context"].options) >= max(m[5] for m in MODELS.values())
    ex.set(context=8192)
    assert ex.error is None and ex.readouts["cache_bytes"] == 2**30 and "8,192" in ex.svg
    ex.close()


def test_the_heading_says_when_the_kv_heads_are_not_the_models_own():
    ex = english_kv_explorer()
    assert "Llama 3 8B: 32 query heads, 8 K/V heads" in ex.svg
    svgs = [svg for svg, _ in same_in_the_page(ex, [("kv_heads", 32), ("kv_heads", 8), ("kv_heads", 1)])]
    assert "Llama 3 8B, changed: 32 K/V heads (own 8)," in svgs[0] and "changed" not in svgs[1]
    assert "Llama 3 8B, changed: 1 K/V head (own 8)," in svgs[2]
    assert "Llama 3 8B: 32 query heads, 8 K/V heads" not in svgs[0] + svgs[2]
    ex.close()


def test_with_k_v_heads_the_model_cannot_share_every_other_control_still_changes_the_picture():
    """A keyboard walk moves the K/V heads from Llama 3 8B's 8 to 12 (no divisor of 32): the picture says
    so in the time panel's place, and the cache bars (context, bytes) and the notes (the chip's rates)
    still follow their controls, in the page as in Python."""
    ex = english_kv_explorer()
    clicks = [("kv_heads", 12), ("context", 2048), ("bytes_per_value", 4)]
    clicks += [("bandwidth_gb_s", 3000), ("peak_tflop_s", 1000)]
    pictures = [svg for svg, _ in same_in_the_page(ex, clicks)]
    for svg in pictures:
        assert "32 query heads cannot be shared equally by 12 K/V heads" in svg
        assert "one generated token, a lower bound" not in svg  # no time without a valid grouping
    assert len(set(pictures)) == len(pictures), "a control left the picture as it was"
    assert "2,048 tokens" in pictures[1] and "3,000 GB/s" in pictures[3]
    assert ex.readouts == {}
    ex.close()


def test_the_note_calls_changed_rates_the_learners_assumption():
    ex = english_kv_explorer()
    assert "the A100 80GB SXM datasheet" in ex.svg and "your assumption" not in ex.svg
    clicks = [("bandwidth_gb_s", 1000), ("bandwidth_gb_s", 2039), ("peak_tflop_s", 100)]
    svgs = [svg for svg, _ in same_in_the_page(ex, clicks)]
    for svg in (svgs[0], svgs[2]):
        assert "your assumption, not the A100 80GB SXM datasheet" in svg_words(svg)
    assert "your assumption" not in svgs[1]
    ex.close()


def svg_words(svg: str) -> str:
    """The picture's text as one line (a note wrapped over two lines reads as one sentence)."""
    return " ".join(re.sub(r"<[^>]+>", " ", svg).split())


def test_every_note_line_fits_in_the_picture_in_both_languages():
    """The notes are wrapped to the picture's width (the third line ran off the right edge, in both
    editions, with the A100's rates and more so with the learner's own), page and Python alike."""
    from attn_core import set_lang
    from attn_viz.explorers.kv import BANDWIDTHS, MARGIN, NOTE_SIZE, WIDTH, kv_cache_explorer
    from attn_viz.svg import text_width

    for lang in ("zh", "en"):
        set_lang(lang)
        try:
            ex = kv_cache_explorer(model="GPT-2 small")
        finally:
            set_lang("zh")
        clicks = [("context", 4096), ("bandwidth_gb_s", 3000), ("peak_tflop_s", 1000)]
        clicks += [("model", m) for m in ("Llama 2 7B", "Llama 3 8B")]
        heights = set()
        for svg, _ in same_in_the_page(ex, clicks):
            lines = re.findall(r'<text x="10.0" y="[0-9.]+" font-size="14" fill="#666666">([^<]*)</text>', svg)
            assert len(lines) >= 3, (lang, svg[-400:])
            for line in lines:
                assert MARGIN + text_width(html.unescape(line), NOTE_SIZE) <= WIDTH - MARGIN, (lang, line)
            heights.add(re.search(r'height="([0-9.]+)"', svg).group(1))
        ex.close()
        assert len(heights) == 1, (lang, heights)  # six bars in every model: the picture never jumps
    assert BANDWIDTHS[-1] == max(BANDWIDTHS)


# ================================================================ what a learner sees (Python side)


@pytest.fixture
def built():
    made = []

    def build(factory, *args, **kwargs):
        ex = factory(*args, **kwargs)
        made.append(ex)
        return ex

    yield build
    for ex in made:
        ex.close()


def explorers():
    from attn_viz.explorers import head_explorer, mask_explorer, position_explorer
    from attn_viz.explorers.kv import kv_cache_explorer

    return [mask_explorer, head_explorer, position_explorer, kv_cache_explorer]


@pytest.mark.parametrize("index", range(4))
def test_the_saved_picture_becomes_live_from_its_own_state(built, index):
    ex = built(explorers()[index])
    html = ex.static_html()  # the text/html of its display bundle
    assert f'data-attn-explorer="{ex.kind}"' in html
    state = html.split('<script type="application/json">', 1)[1].split("</script>", 1)[0]
    assert json.loads(state) == json.loads(json.dumps(ex.page_state()))
    assert "<img " in html and "alt=" in html  # the static picture, described, where no JavaScript runs
    height = float(ex.svg.split('height="', 1)[1].split('"', 1)[0])
    assert height <= 700  # with the controls beside it, the picture fits a 1440 × 900 laptop screen


def test_a_row_that_sees_no_key_is_a_message_in_the_picture_not_an_error(built):
    from attn_viz.explorers import mask_explorer

    ex = built(mask_explorer)
    height = ex.svg.split('height="', 1)[1].split('"', 1)[0]
    ex.set(mode="padding", padding=4)
    assert ex.error is None and ex.state["empty_rows"] == [0, 1, 2, 3]
    assert "ValueError" in ex.svg and "NaN" in ex.svg  # the teaching message (what attn_core and −∞ do), drawn
    assert ex.svg.split('height="', 1)[1].split('"', 1)[0] == height  # the picture does not jump
    assert ex.svg.count("−∞ → 0") >= 16  # every cell drawn as masked, none as a dark 0.00
    ex.set(padding=3)
    assert ex.state["empty_rows"] == [] and ex.readouts["row_sum[我]"] == pytest.approx(1.0)


def test_the_head_explorer_starts_with_lesson_8s_designed_heads(built):
    from attn_viz.explorers import head_explorer
    from attn_viz.explorers.heads import designed_heads

    ex = built(head_explorer)
    assert ex.values["projections"] == "designed"
    assert ex.labels["favourite[1]"] == "动物" and ex.labels["favourite[2]"] == "累了"  # lesson 08 section 5
    cr = coreference()
    np.testing.assert_allclose(ex.state["A_heads"], multi_head_attention(cr.X, cr.X, *designed_heads(), 2).A)
    ex.set(projections="random")  # the seeded random heads lesson 08's entropy cell uses
    rng = np.random.default_rng(0)
    W = [rng.normal(0.0, 2.0, (4, 4)) for _ in range(4)]
    np.testing.assert_allclose(ex.state["A_heads"], multi_head_attention(cr.X, cr.X, *W, 2).A)
    other = built(head_explorer, example=four_words(), n_heads=3)  # another example: random heads only
    assert other.controls["projections"].options == ["random"]


def test_the_position_explorer_counts_positions_as_its_heatmaps(built):
    from attn_viz.explorers import position_explorer

    ex = built(position_explorer)
    assert (ex.values["i"], ex.values["j"]) == (2, 3)  # where 学习 and 语言 are: 学习（2）, 语言（3）
    assert "学习（2）" in ex.svg and "语言（3）" in ex.svg and "i = 2" in ex.svg and "j = 3" in ex.svg
    ex.set(encoding="sinusoidal", i=5, j=5)  # two hands at one angle: both names still readable, apart
    spots = [
        (float(x), float(y)) for x, y in re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>PE（位置 5）</text>', ex.svg)
    ]
    assert len(spots) == 2 and abs(spots[0][1] - spots[1][1]) >= 20


def test_the_position_explorer_outlines_the_query_key_cell_the_lesson_talks_about(built):
    from attn_viz import svg as draw
    from attn_viz.explorers import position_explorer

    ex = built(position_explorer)
    # in both heatmaps, the 学习 → 语言 cell (row 2, column 3) in ACCENT, inside 学习's row outline
    cells = re.findall(rf'<rect x="([\d.]+)" y="([\d.]+)"[^>]*stroke="{draw.ACCENT}" stroke-width="3.5"/>', ex.svg)
    rows = re.findall(rf'<rect x="([\d.]+)" y="([\d.]+)"[^>]*stroke="{draw.HIGHLIGHT}" stroke-width="3.5"/>', ex.svg)
    assert len(cells) == len(rows) == 2
    for (cx, cy), (rx, ry) in zip(cells, rows):
        assert float(cy) - float(ry) == 4.5 and float(cx) > float(rx)  # the same row, a column to the right
    plain, marked = draw.Svg(200, 200), draw.Svg(200, 200)
    draw.heatmap(plain, 0, 0, np.eye(2), ["a", "b"], ["a", "b"])
    draw.heatmap(marked, 0, 0, np.eye(2), ["a", "b"], ["a", "b"], highlight_cell=(1, 0))
    assert draw.ACCENT not in "".join(plain.parts) and "".join(marked.parts).count(draw.ACCENT) == 1


def test_the_position_explorers_heatmaps_follow_the_sliders(built):
    # newcomer trial 2: with i at 6 the heatmaps still said 学习（2） and outlined the weight at position 2
    from attn_core.core import attention
    from attn_viz.explorers import position_explorer

    ex = built(position_explorer)
    wide = with_even_width(four_words())
    W = (wide.W_q, wide.W_k, wide.W_v)
    start = ex.state["A"].copy()
    np.testing.assert_allclose(start, attention_with_positions(wide.X, *W, "rope").A)  # i, j = 2, 3: the sentence
    ex.set(i=6, j=3)
    assert "学习（6）" in ex.svg and "学习（2）" not in ex.svg and "语言（3）" in ex.svg
    want = attention(*positioned_qkv(wide.X, *W, np.array([0, 1, 6, 3]), "rope")).A
    np.testing.assert_allclose(ex.state["A"], want)
    assert abs(ex.state["A"][2, 3] - start[2, 3]) > 0.01  # the outlined 学习 → 语言 weight moved with i
    assert ex.readouts["weight[语言]"] == pytest.approx(want[2, 3])
    # the reordering shuffles the words over the same positions: 语言 学习 喜欢 我 puts 喜欢 in 学习's slot, at 6
    ex.set(order="语言 学习 喜欢 我")
    assert "喜欢（6）" in ex.svg and "语言（0）" in ex.svg and "学习（1）" in ex.svg
    reordered = attention(*positioned_qkv(wide.X[[3, 2, 1, 0]], *W, np.array([0, 1, 6, 3]), "rope")).A
    np.testing.assert_allclose(ex.state["A_by_word"], reordered[np.ix_([3, 2, 1, 0], [3, 2, 1, 0])])
    ex.set(encoding="none")  # without positions nothing moves, wherever the sliders are
    np.testing.assert_allclose(ex.state["A"], four_words().attention().A, atol=1e-15)


def test_the_english_edition_glosses_the_tokens(built):
    from attn_core import set_lang

    set_lang("en")
    try:
        for factory in explorers()[:3]:
            ex = built(factory)
            assert "“I”" in ex.svg or "“it”" in ex.svg, ex.name
    finally:
        set_lang("zh")


def test_the_kv_explorer_reads_lesson_14s_numbers(built):
    from attn_viz.explorers.kv import kv_cache_explorer

    ex = built(kv_cache_explorer)
    assert ex.readouts["per_token_bytes"] == 128 * 2**10  # Llama 3 8B, float16: lesson 14's 128 KiB
    assert ex.readouts["cache_bytes"] == 2**29 and ex.readouts["full_mha_cache_bytes"] == 2**31
    cached = ex.readouts["seconds_cached"]
    assert cached == ex.readouts["bytes_cached"] / 2039e9  # memory-bound at the A100's numbers
    ex.set(kv_heads=32)
    assert ex.readouts["cache_bytes"] == 2**31 and ex.readouts["seconds_cached"] > cached
    ex.set(bandwidth_gb_s=1000)
    assert ex.readouts["seconds_cached"] == ex.readouts["bytes_cached"] / 1000e9
    ex.set(model="GPT-2 small", kv_heads=8)  # 12 query heads cannot share 8 K/V heads: said, not raised
    assert ex.error is None and ex.readouts == {}
    assert "1、2、3、4、6、12" in ex.svg
    ex.set(kv_heads=12, context=1024)
    assert ex.readouts["per_token_bytes"] == 36 * 2**10  # GPT-2 small: lesson 14's 36 KiB
    with pytest.raises(ValueError):
        ex.set(context=1000)
    with pytest.raises(ValueError):
        kv_cache_explorer(model="GPT-5")


def test_mask_explorer_greys_a_padding_querys_row_and_keeps_its_weights_written():
    from attn_viz import svg as draw
    from attn_viz.explorers import mask_explorer

    ex = mask_explorer()
    ex.set(mode="padding", padding=1)
    A = ex.state["A"]
    grey_numbers = re.findall(rf'<text [^>]*fill="{draw.MASKED_INK}"[^>]*>(\d\.\d\d)</text>', ex.svg)
    assert grey_numbers == [draw.fmt(w) for w in A[-1][:-1]]  # the padding query's row: its weights, in grey
    assert ex.svg.count(f'fill="{draw.MASKED}" stroke="#ffffff"') == 3 + 4  # 3 grey cells, 4 masked ones
    assert ex.text("mask_legend_dropped") in html.unescape(ex.svg)
    ex.set(mode="none")
    assert not re.findall(rf'fill="{draw.MASKED_INK}"[^>]*>\d', ex.svg)  # no padding, no grey row
    ex.close()


def test_the_time_bars_share_one_scale_so_a_longer_time_is_a_longer_bar_in_the_page_and_in_python():
    """A newcomer saw both time bars always full width (each scaled to the slower of the two): on the
    one logarithmic scale (kv.TIME_AXIS, every setting's times inside it) a longer context, more bytes or
    a slower chip draws a longer bar, the same in the page as in Python."""
    from attn_viz.explorers.kv import BAR_MAX, LABEL_W, MARGIN, TIME_AXIS, time_bar

    ex = english_kv_explorer()

    def bars(svg):  # the two time bars' lengths (cached, recompute): the rects after the panel's title
        widths = re.findall(rf'<rect x="{MARGIN + LABEL_W:.1f}" y="[0-9.]+" width="([0-9.]+)" height="18.0"', svg)
        return [float(w) for w in widths[-2:]]

    clicks = [("context", 16), ("context", 256), ("context", 4096), ("bytes_per_value", 4), ("bandwidth_gb_s", 100)]
    pictures = same_in_the_page(ex, clicks)
    lengths = [bars(svg) for svg, _ in pictures]
    cached = [c for c, _ in lengths]
    assert cached == sorted(cached) and len(set(cached)) == len(cached), lengths  # every step: a longer bar
    assert all(0 < x < BAR_MAX for pair in lengths for x in pair), lengths  # neither pinned to full width
    assert sum(BAR_MAX - 0.05 <= x for pair in lengths for x in pair) == 0
    ex.set(context=4096)
    assert bars(ex.svg)[0] == pytest.approx(time_bar(ex.state["seconds_cached"]), abs=0.06)
    lo, hi = TIME_AXIS
    assert time_bar(float(f"1e{lo}")) == 0 and time_bar(float(f"1e{hi}")) == BAR_MAX
    assert "log scale" in ex.svg and "1 ms" in ex.svg
    ex.close()


def test_the_time_axis_labels_stand_apart():
    """Lesson 14: "1 s" and "10 s", one decade apart at the axis' end, almost touched: the labels are at
    least two decades apart (every third decade, and the end only when two or more past the last)."""
    from attn_viz.explorers.kv import BAR_MAX, TIME_AXIS

    ex = english_kv_explorer()
    try:
        xs = [
            float(x)
            for x, label in re.findall(r'<text x="([0-9.]+)" y="[0-9.]+" font-size="14"[^>]*>([^<]*)</text>', ex.svg)
            if re.fullmatch(r"1(0|00)? (µs|ms|s|ns)", label)
        ]
        lo, hi = TIME_AXIS
        decade = BAR_MAX / (hi - lo)
        assert len(xs) >= 3 and min(b - a for a, b in zip(xs, xs[1:])) >= 2 * decade - 0.1, xs
    finally:
        ex.close()
