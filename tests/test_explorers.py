"""The explorers behave as a learner moving the controls would expect (no timing here: see benchmarks/).

A live explorer (:class:`Explorer`, an anywidget computed in the page) is checked here through its Python
side: the reference numbers, the static picture and the page state it hands to the page; that the page
draws the same is tests/test_explorers_js.py's job. Explorers still in the old design
(:class:`WidgetExplorer`) are checked as before.
"""

import html
import json
import re

import anywidget
import ipywidgets as widgets
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attn_core import lang
from attn_core.examples import coreference, four_words
from attn_core.positions import rope, with_even_width
from attn_viz import svg as draw
from attn_viz.explorers import (
    DK_OPTIONS,
    Explorer,
    WidgetExplorer,
    dk_explorer,
    head_explorer,
    key_explorer,
    mask_explorer,
    pipeline_explorer,
    position_explorer,
)
from attn_viz.explorers.heads import shown_token

FACTORIES = [dk_explorer, key_explorer, pipeline_explorer, mask_explorer, head_explorer, position_explorer]
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
TOKENS = four_words().tokens


@pytest.fixture(params=FACTORIES, ids=lambda f: f.__name__)
def explorer(request):
    ex = request.param()
    yield ex
    ex.close()


def font_sizes(svg):
    return [float(x) for x in re.findall(r'font-size="([\d.]+)"', svg)]


def live(ex):
    return isinstance(ex, Explorer)


def choices_of(w):
    """The values a choice control can take, or None for a slider or a switch."""
    if getattr(w, "kind", None) == "choice" or (not live_control(w) and hasattr(w, "options")):
        return [o[1] if isinstance(o, tuple) else o for o in w.options]
    return None


def live_control(w):
    return hasattr(w, "kind") and hasattr(w, "spec")


def is_switch(w):
    return getattr(w, "kind", None) == "toggle" or isinstance(w, widgets.Checkbox)


def next_value(w):
    """One step away from the control's value, as a learner would move it."""
    values = choices_of(w)
    if values is not None:
        return values[(values.index(w.value) + 1) % len(values)]
    if is_switch(w):
        return not w.value
    if isinstance(w, widgets.FloatSlider) or (live_control(w) and isinstance(w.step, float)):
        return 2.0
    return w.value + 1 if w.value + 1 <= w.max else w.value - 1


# ---------------------------------------------------------------- common behaviour


def test_builds_with_picture_readouts_and_text(explorer):
    assert explorer.svg.startswith("<svg") and explorer.svg.endswith("</svg>")
    assert explorer.readouts and all(type(v) is float for v in explorer.readouts.values())
    assert explorer.error is None
    if live(explorer):  # one anywidget: the page draws the controls and the picture from its state
        assert isinstance(explorer, anywidget.AnyWidget) and not isinstance(explorer, widgets.Box)
        assert explorer.choices == explorer.values and set(explorer.values) == set(explorer.controls)
        specs = explorer.data["controls"]
        assert [s["name"] for s in specs] == list(explorer.controls) and all(s["label"] for s in specs)
        assert explorer.data["title"] == explorer.title and "error_line" in explorer.words
        assert explorer.kind in explorer._esm and "export default" in explorer._esm
        json.dumps(explorer.page_state())  # the page state is plain JSON
        return
    assert isinstance(explorer, WidgetExplorer) and isinstance(explorer, widgets.VBox)
    shown = [c.value for c in explorer.children if isinstance(c, widgets.HTML)]
    assert explorer.svg in shown  # the picture is in the widget
    assert any(explorer.lines[0] in v for v in shown)  # and so are the numbers, as text
    assert not any(isinstance(w, widgets.Output) for w in explorer._descendants())


def test_every_control_changes_picture_and_readouts(explorer):
    """Move each control one step away from its default: the picture and the numbers follow."""
    items = list(explorer.controls.items())
    if explorer.name == "mask_explorer":
        explorer.set(mode="padding")  # the padding slider only matters in padding mode: move it first
        items.reverse()
    for name, w in items:
        before_svg, before = explorer.svg, dict(explorer.readouts)
        new = next_value(w)
        w.value = new  # as the browser does: the observer redraws
        assert explorer.svg != before_svg, name
        assert explorer.readouts != before, name
        assert explorer.values[name] == new


def test_a_choice_made_in_the_page_reaches_python(explorer):
    """The page writes the learner's values into ``choices``: the readouts and the static picture follow."""
    if not live(explorer):
        pytest.skip("old design: the controls are ipywidgets")
    # the last control (the mask explorer's padding matters only in padding mode: its first, the mode)
    name, w = list(explorer.controls.items())[0 if explorer.name == "mask_explorer" else -1]
    before_svg, before = explorer.svg, dict(explorer.readouts)
    explorer.choices = {**explorer.choices, name: next_value(w)}  # what the front end's save_changes does
    assert explorer.svg != before_svg and explorer.readouts != before


def test_text_is_projector_sized_and_heatmaps_name_queries_and_keys(explorer):
    assert min(font_sizes(explorer.svg)) >= 14
    if explorer.name in ("pipeline_explorer", "mask_explorer", "head_explorer"):
        assert "查询（谁在问）" in explorer.svg and "键（被问的词）" in explorer.svg


def static_image(bundle_html):
    """The SVG and the alt text of the static picture (an <img> with the SVG as a data: URL)."""
    src, alt = re.search(r'<img src="data:image/svg\+xml;charset=utf-8,([^"]*)" alt="([^"]*)"', bundle_html).groups()
    return html.unescape(src).replace("%23", "#").replace("%25", "%"), html.unescape(alt)


def page_state_in(bundle_html):
    """The JSON state that a static page's ``mountAll`` reads from the [data-attn-explorer] element."""
    kind, state = re.search(
        r'<div class="attn-explorer" data-attn-explorer="([a-z_]+)"><script type="application/json">(.*?)</script>',
        bundle_html,
    ).groups()
    return kind, json.loads(state)


def test_static_bundle_shows_default_picture_deterministically(explorer):
    bundle = explorer._repr_mimebundle_()
    assert WIDGET_MIME in bundle  # JupyterLab shows the live widget
    svg, alt = static_image(bundle["text/html"])
    assert svg == explorer.svg and "<svg" not in bundle["text/html"]  # sanitizers keep an <img>, drop <svg>
    if live(explorer):  # and a page that loads bundle() makes it live: the state is in the element
        kind, state = page_state_in(bundle["text/html"])
        assert kind == explorer.kind and state == json.loads(json.dumps(explorer.page_state()))
        assert "</" not in re.search(r"<script[^>]*>(.*?)</script>", bundle["text/html"]).group(1)
    assert alt.startswith(explorer.title) and explorer.description in alt
    assert "交互图" in bundle["text/plain"] and len(bundle["text/plain"]) < 80
    factory = {f.__name__: f for f in FACTORIES}[explorer.name]
    other = factory()
    try:
        other_bundle = other._repr_mimebundle_()
        assert other_bundle["text/html"] == bundle["text/html"]
        assert other_bundle["text/plain"] == bundle["text/plain"]
        assert other_bundle[WIDGET_MIME]["model_id"] != bundle[WIDGET_MIME]["model_id"]
        assert other_bundle[WIDGET_MIME]["model_id"] not in other_bundle["text/html"]
    finally:
        other.close()


def test_every_picture_has_a_title_and_a_description_with_its_numbers(explorer):
    """A screen reader reads the SVG's <title> and <desc>: what is shown, with the numbers of the readouts."""
    title = re.search(r"<title>([^<]+)</title>", explorer.svg).group(1)
    desc = html.unescape(re.search(r"<desc>([^<]+)</desc>", explorer.svg).group(1))
    assert title == explorer.title and desc == explorer.description
    weights = {k: v for k, v in explorer.readouts.items() if k.startswith("weight[")}
    if explorer.name == "mask_explorer":  # no weight readouts: the last row (causal: sees every key)
        weights = {f"weight[{tok}]": explorer.state["A"][-1, j] for j, tok in enumerate(TOKENS)}
    assert weights, explorer.readouts
    for key, value in weights.items():  # every weight readout is in the words, as the picture prints it
        token = key[len("weight[") : -1]
        if explorer.name == "head_explorer":  # a punctuation token quoted there: “，” 0.00
            token = shown_token(token)
        assert f"{token} {draw.fmt(value)}" in desc, (key, desc)
    name, w = next(iter(explorer.controls.items()))
    values = choices_of(w) or []
    explorer.set(**{name: values[0] if values and values[0] != w.value else (values or [w.max])[-1]})
    assert html.unescape(re.search(r"<desc>([^<]+)</desc>", explorer.svg).group(1)) == explorer.description != desc


def test_descriptions_speak_the_explorers_language(english):
    for factory in FACTORIES:
        ex = factory()
        try:
            assert not re.search(
                r"[\u4e00-\u9fff]", re.sub("|".join([*TOKENS, *coreference().tokens]), "", ex.description)
            )
        finally:
            ex.close()


def test_text_on_heatmap_cells_meets_wcag_aa_contrast():
    """White or black, whichever reads better, on every colour of the scale; masked cells likewise."""
    levels = [k / 255 for k in range(256)]
    assert min(draw.contrast(draw.ink_on(t), draw.viridis(t)) for t in levels) >= draw.AA_CONTRAST
    assert draw.contrast(draw.MASKED_INK, draw.MASKED) >= draw.AA_CONTRAST
    for colour in (draw.INK, draw.MUTED, draw.ERROR):  # text on the white picture
        assert draw.contrast(colour, "#ffffff") >= draw.AA_CONTRAST


def test_going_back_restores_the_same_picture(explorer):
    default_svg = explorer.svg
    name, w = next(iter(explorer.controls.items()))
    start = w.value
    values = choices_of(w) or [w.max]
    explorer.set(**{name: values[-1] if values[-1] != start else values[0]})
    explorer.set(**{name: start})
    assert explorer.svg == default_svg


def test_set_rejects_unknown_names_and_out_of_range_values(english):
    ex = dk_explorer()
    with pytest.raises(ValueError, match="no control named 'dk'.*'d_k'"):
        ex.set(dk=3)
    with pytest.raises(ValueError, match="not one of the choices"):
        ex.set(d_k=100)
    with pytest.raises(ValueError, match="True or False"):
        ex.set(scaled="yes")
    ex2 = key_explorer()
    with pytest.raises(ValueError, match="outside the slider's range 0.0 … 3.0"):
        ex2.set(我=5)
    assert ex2.controls["我"].value == 1.0  # nothing half-applied
    ex.close()
    ex2.close()


def test_set_errors_speak_the_explorers_language():
    ex = dk_explorer()  # Chinese, the default
    with pytest.raises(ValueError, match="没有名为 'dk' 的控件.*'d_k'"):
        ex.set(dk=3)
    with pytest.raises(ValueError, match="不是可选的值"):
        ex.set(d_k=100)
    ex.close()
    lang.set_lang("en")
    try:
        ex = mask_explorer()
    finally:
        lang.set_lang("zh")
    with pytest.raises(ValueError, match=r"padding=1.5 is not one of the choices \[0, 1, 2, 3, 4\]"):
        ex.set(padding=1.5)
    ex.set(mode="padding", padding=len(TOKENS))  # no key left: said in the picture, in the explorer's language
    words = " ".join(re.sub(r"<[^>]+>", " ", ex.svg).split())  # the notice is wrapped beside the grid
    assert ex.error is None and "every key of these rows is masked" in words
    ex.close()


def test_close_closes_every_widget():
    ex = pipeline_explorer()
    ex.close()
    assert ex.comm is None
    ex.close()  # safe twice
    ex = mask_explorer()
    parts = [ex, *ex._descendants()] if not live(ex) else [ex]
    ex.close()
    assert all(w.comm is None for w in parts)


def test_language_is_read_when_built():
    lang.set_lang("en")
    try:
        ex = mask_explorer()
    finally:
        lang.set_lang("zh")
    ex.set(mode="none")  # redrawn after the global language went back to Chinese
    assert "queries (who asks)" in ex.svg and "查询" not in ex.svg
    assert "interactive figure" in ex._repr_mimebundle_()["text/plain"]
    ex.close()


@pytest.mark.parametrize("factory", FACTORIES, ids=lambda f: f.__name__)
def test_english_edition_builds(factory):
    lang.set_lang("en")
    try:
        ex = factory()
    finally:
        lang.set_lang("zh")
    assert "interactive figure" in ex._repr_mimebundle_()["text/plain"]
    assert not any("查询" in line or "权重" in line for line in ex.lines)
    ex.close()


def test_other_examples_work():
    ex = head_explorer(n_heads=3, example=four_words())  # d_model = 3, no 它: the first token asks
    assert ex.controls["query"].value == "我" and "max_weight[3]" in ex.readouts
    ex.close()
    ex = key_explorer(example=coreference(), query="它")
    ex.set(累了=2.0)  # 它·累了 is positive
    assert ex.readouts["change[累了]"] > 0
    ex.close()


def test_bad_arguments_name_the_choices(english):
    with pytest.raises(ValueError, match="choose one of"):
        key_explorer(query="猫")
    with pytest.raises(ValueError, match=r"choose one of \[1, 2, 4\]"):
        head_explorer(n_heads=3)
    with pytest.raises(ValueError, match="seed must be an integer"):
        dk_explorer(seed=1.5)
    with pytest.raises(TypeError, match="Example"):
        mask_explorer(example=np.eye(3))


def test_bad_arguments_in_chinese():
    with pytest.raises(ValueError, match="请从 .* 中选一个"):
        key_explorer(query="猫")
    with pytest.raises(ValueError, match=r"必须能整除 d_model = 4.*\[1, 2, 4\]"):
        head_explorer(n_heads=3)
    with pytest.raises(TypeError, match="Example"):
        mask_explorer(example=np.eye(3))


# ---------------------------------------------------------------- 1. d_k


def test_dk_unscaled_sharpens_and_gradient_vanishes_with_d_k():
    ex = dk_explorer()
    ex.set(scaled=False, d_k=1)
    small = dict(ex.readouts)
    ex.set(d_k=512)
    big = dict(ex.readouts)
    assert big["max_weight"] > small["max_weight"] + 0.5 and big["max_weight"] > 0.99
    assert big["grad_norm"] < small["grad_norm"] / 100 and big["grad_ratio"] < 0.01
    assert big["entropy"] < small["entropy"] <= small["entropy_max"] == pytest.approx(np.log(4))
    assert big["score_std"] > 10 * small["score_std"]
    assert big["sqrt_d_k"] == pytest.approx(np.sqrt(512))
    ex.close()


def test_dk_scaled_stays_in_a_working_range():
    ex = dk_explorer()
    for d_k in DK_OPTIONS:
        ex.set(d_k=d_k, scaled=True)
        scaled = dict(ex.readouts)
        ex.set(scaled=False)
        assert scaled["grad_ratio"] > 0.2, d_k
        assert scaled["max_weight"] <= ex.readouts["max_weight"] + 1e-12, d_k
    ex.close()


def test_dk_same_d_k_same_vectors_and_seed_matters():
    a, b, c = dk_explorer(), dk_explorer(), dk_explorer(seed=1)
    for ex in (a, b, c):
        ex.set(d_k=8)
    assert a.readouts == b.readouts and a.svg == b.svg
    assert c.readouts["score_std"] != a.readouts["score_std"]
    for ex in (a, b, c):
        ex.close()


# ---------------------------------------------------------------- 2. keys


@given(query=st.sampled_from(TOKENS), key=st.sampled_from(TOKENS), tenths=st.integers(11, 30))
def test_enlarging_a_key_moves_its_weight_with_the_sign_of_its_score(query, key, tenths):
    ex = key_explorer(query=query)
    default = dict(ex.readouts)
    score = four_words().attention().S[TOKENS.index(query), TOKENS.index(key)]
    ex.set(**{key: tenths / 10})
    w = ex.readouts
    assert w["sum"] == pytest.approx(1.0, abs=1e-12)
    sign = np.sign(score)
    for tok in TOKENS:
        moved = w[f"weight[{tok}]"] - default[f"weight[{tok}]"]
        assert w[f"change[{tok}]"] == pytest.approx(moved, abs=1e-15)
        if tok == key:
            assert np.sign(moved) == sign
        else:
            assert np.sign(moved) == -sign
    ex.close()


def test_course_exercise_enlarge_one_key_twofold():
    ex = key_explorer()  # query 学习; its score with 语言 is positive
    ex.set(语言=2.0)
    assert ex.readouts["change[语言]"] > 0.1
    assert all(ex.readouts[f"change[{t}]"] < 0 for t in ("我", "喜欢", "学习"))
    assert 'stroke-dasharray="6 4"' in ex.svg  # the default weights stay visible as a ghost
    ex.set(语言=1.0, 我=2.0)  # 学习·我 is negative: enlarging 我 lowers its weight, and the text says why
    assert ex.readouts["change[我]"] < 0
    assert any("负" in line for line in ex.lines)
    ex.close()


def test_a_shrunk_weights_number_sits_on_its_bar_not_on_the_dashed_default():
    # newcomer trial 2: with 我 and 喜欢 at ×3, 语言's "0.10" stood at its ghost's height (0.35)
    ex = key_explorer()
    ex.set(我=3.0, 喜欢=3.0)
    w = ex.readouts["weight[语言]"]
    assert 0.05 < w < ex.state["default"][3] - 0.15  # the bar far below its dashed default

    def bar_tops(svg):  # the bars' rects (filled, no stroke): their top edges by x centre
        rects = re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="[^n]', svg)
        return {round(float(x) + float(wd) / 2): float(y) for x, y, wd, h in rects}

    tops = bar_tops(ex.svg)
    labels = re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*font-weight="bold"[^>]*>([\d.]+)</text>', ex.svg)
    spots = {text: (round(float(x)), float(y)) for x, y, text in labels}
    x, y = spots[draw.fmt(w)]
    assert tops[x] - 24 <= y <= tops[x]  # just above its own bar
    ex.close()


# ---------------------------------------------------------------- 3. pipeline


def test_pipeline_starts_at_the_example_numbers():
    ex = pipeline_explorer()
    A = four_words().attention().A
    np.testing.assert_allclose(ex.state["A"], A, rtol=0, atol=1e-15)
    ex.set(query="我")
    assert ex.readouts["weight[学习]"] == pytest.approx(A[0, 2])
    assert ex.labels["favourite"] in TOKENS
    ex.close()


@pytest.mark.parametrize("english", [False, True])
def test_pipeline_names_its_favourite_with_the_decimals_that_tell_it_from_the_runner_up(english):
    # newcomer trial 2: 最关注“语言”(0.35) while 喜欢 also showed 0.35
    from attn_core import set_lang
    from attn_viz.explorers.pipeline import telling_digits

    set_lang("en" if english else "zh")
    try:
        ex = pipeline_explorer()
        ex.set(query="喜欢")  # 喜欢 0.338, 语言 0.337: both 0.34 at two decimals
        assert "0.338" in ex.lines[0] and "0.337" in ex.lines[0] and "0.338" in ex.lines[1]
        ex.set(query="学习")  # 语言 0.354, 喜欢 0.347: both 0.35
        assert "0.354" in ex.lines[1] and "0.347" in ex.lines[0]
        ex.set(query="我")
        assert re.search(r"\d\.\d\d(?!\d)", ex.lines[1])  # no tie: two decimals, as the picture
        ex.close()
    finally:
        set_lang("zh")
    assert telling_digits([0.25] * 4) == (4, [0, 1, 2, 3])  # equal at any precision: all of them, tied
    assert telling_digits([0.5, 0.2, 0.3]) == (2, [0])
    text = pipeline_explorer().text
    assert text("pipeline_favourite_tied", tied="“我”、“喜欢”", weight="0.5000", total="1.00").startswith(
        "最关注的词并列"
    )


def test_pipeline_d_k_scaling_and_shape_table():
    ex = pipeline_explorer()
    ex.set(d_k=256, scaled=False)
    assert "4 × 256" in ex.svg  # Q and K widened, from the Trace's shape table
    assert "未缩放" in ex.svg
    unscaled = ex.readouts["max_weight"]
    ex.set(scaled=True)
    assert unscaled > ex.readouts["max_weight"]
    assert ex.readouts["row_sum"] == pytest.approx(1.0)
    ex.close()


# ---------------------------------------------------------------- 4. masks


def test_causal_mask_zeroes_the_future_exactly():
    ex = mask_explorer()
    ex.set(mode="causal")
    A, n = ex.state["A"], len(TOKENS)
    assert (A[np.triu_indices(n, 1)] == 0).all()
    assert (A[np.tril_indices(n)] > 0).all()
    assert ex.readouts["masked"] == ex.readouts["zero_weights"] == n * (n - 1) / 2
    assert ex.svg.count('fill="#e3e3e3"') >= n * (n - 1) / 2  # masked cells are marked
    ex.close()


@given(p=st.integers(0, len(TOKENS) - 1))
def test_padding_mask_zeroes_the_padded_keys(p):
    ex = mask_explorer()
    ex.set(mode="padding", padding=p)
    A, n = ex.state["A"], len(TOKENS)
    assert (A[:, n - p :] == 0).all() and (A[:, : n - p] > 0).all()
    assert ex.readouts["masked"] == n * p
    for tok in TOKENS:
        assert ex.readouts[f"row_sum[{tok}]"] == pytest.approx(1.0, abs=1e-12)
    ex.close()


def test_padding_combines_with_the_causal_mask_and_not_with_none():
    ex = mask_explorer()
    causal = ex.svg
    ex.set(padding=1)  # causal and padding: the last token is hidden from every query as well
    assert ex.svg != causal and ex.readouts["masked"] == 6 + 1  # causal hid the last key from all but itself
    ex.set(mode="none")
    assert ex.readouts["padding"] == 0 and ex.readouts["masked"] == 0
    ex.set(mode="padding")
    assert ex.readouts["padding"] == 1 and ex.readouts["masked"] == 4
    ex.close()
    # a row that sees no key: tests/test_explorers_b.py (a message in the picture, not an error)


# ---------------------------------------------------------------- 5. heads


@pytest.mark.parametrize("n_heads", [1, 2, 4])
def test_heads_readouts_per_head(n_heads):
    ex = head_explorer(n_heads=n_heads)
    tokens, it = coreference().tokens, coreference().index("它")
    A_heads, A_avg = ex.state["A_heads"], ex.state["A_avg"]
    assert A_heads.shape == (n_heads, len(tokens), len(tokens))
    np.testing.assert_allclose(A_heads.sum(axis=-1), 1.0)
    np.testing.assert_allclose(A_avg, A_heads.mean(axis=0))
    for h in range(1, n_heads + 1):
        assert ex.readouts[f"max_weight[{h}]"] == pytest.approx(A_heads[h - 1, it].max())
        assert ex.labels[f"favourite[{h}]"] == tokens[int(np.argmax(A_heads[h - 1, it]))]
    assert ex.readouts["max_weight[avg]"] <= max(ex.readouts[f"max_weight[{h}]"] for h in range(1, n_heads + 1))
    ex.close()


def test_head_slider_switches_the_heatmap_not_the_average():
    ex = head_explorer(n_heads=2)
    first = ex.readouts["weight[动物]"]
    ex.set(head=2)
    assert ex.readouts["weight[动物]"] == pytest.approx(ex.state["A_heads"][1, 7, 1]) != first
    assert "头 2" in ex.svg and "2 个头的平均" in ex.svg
    ex.close()


def test_heads_differ_and_depend_on_the_seed():
    a, b = head_explorer(seed=0), head_explorer(seed=1)
    a.set(projections="random")  # the designed heads (the default) do not use the seed
    b.set(projections="random")
    assert a.labels["favourite[1]"] != a.labels["favourite[2]"]  # seed 0: 它 vs 累了 (see docstring)
    assert not np.allclose(a.state["A_heads"], b.state["A_heads"])
    a.close()
    b.close()


# ---------------------------------------------------------------- 6. positions


def _q_and_k(query="学习", key="语言"):
    """The query row of one word and the key row of another, projected from the widened example."""
    ex = with_even_width(four_words())
    return ex.X[TOKENS.index(query)] @ ex.W_q, ex.X[TOKENS.index(key)] @ ex.W_k


@given(i=st.integers(0, 15), j=st.integers(0, 15))
def test_with_rope_the_score_is_flat_as_both_positions_move_and_is_the_rotated_dot_product(i, j):
    ex = position_explorer()
    ex.set(encoding="rope", i=i, j=j)
    q, k = _q_and_k()
    turned = np.concatenate([rope(q[:2], i), q[2:]]) @ np.concatenate([rope(k[:2], j), k[2:]])  # d_k = 3: pair 0 turns
    assert ex.readouts["score"] == pytest.approx(turned, abs=1e-12)
    assert ex.readouts["shift_spread"] < 1e-9 and ex.readouts["offset"] == j - i
    ex.close()


def test_without_positions_nothing_depends_on_position_or_order():
    ex = position_explorer()
    q, k = _q_and_k()
    for order in ex.controls["order"].options:
        ex.set(encoding="none", order=order, i=7, j=1)
        assert ex.readouts["score"] == pytest.approx(q @ k, abs=1e-12)
        assert ex.readouts["shift_spread"] < 1e-12 and ex.readouts["weight_change"] < 1e-12
        np.testing.assert_allclose(ex.state["A"], four_words().attention().A, atol=1e-15)
        assert any("没变" in line for line in ex.lines)
    ex.close()


def test_with_positions_the_order_matters_and_sinusoidal_scores_move_with_the_shift():
    ex = position_explorer()
    for encoding in ("sinusoidal", "rope"):
        for order in ex.controls["order"].options:
            ex.set(encoding=encoding, order=order)
            assert ex.readouts["weight_change"] > 0.01, (encoding, order)
            assert any("变了" in line for line in ex.lines)
    ex.set(encoding="sinusoidal")
    assert ex.readouts["shift_spread"] > 0.5
    ex.close()


def test_the_description_names_a_constant_score_once_and_a_moving_one_by_its_range():
    ex = position_explorer()
    for encoding in ("none", "rope"):
        ex.set(encoding=encoding)
        score = draw.fmt(ex.readouts["score"])
        assert f"后移 0 到 20 步时始终是 {score}；" in ex.description and "之间" not in ex.description
    ex.set(encoding="sinusoidal")
    assert re.search(r"后移 0 到 20 步时在 (−?[0-9.]+) 到 (−?[0-9.]+) 之间；", ex.description)
    low, high = re.search(r"在 (−?[0-9.]+) 到 (−?[0-9.]+) 之间", ex.description).groups()
    assert low != high
    ex.close()


def test_the_reordered_weights_are_lined_up_word_by_word():
    ex = position_explorer()
    ex.set(encoding="rope", order="语言 学习 喜欢 我")
    A_by_word = ex.state["A_by_word"]
    np.testing.assert_allclose(A_by_word.sum(axis=1), 1.0)
    assert "学习（1）" in ex.svg and "我（3）" in ex.svg  # the new positions, by word
    assert ex.readouts["reordered_weight[语言]"] == pytest.approx(A_by_word[2, 3])
    ex.close()


def test_position_explorer_takes_other_examples_and_names_bad_words(english):
    ex = position_explorer(example=coreference(), query="它", key="动物")
    assert ex.error is None and "它" in ex.svg
    ex.set(encoding="sinusoidal", i=15, j=0)
    assert ex.readouts["offset"] == -15 and "−15" in ex.lines[0]
    ex.close()
    with pytest.raises(ValueError, match="key='猫'.*choose one of"):
        position_explorer(key="猫")


# ---------------------------------------------------------------- the newcomer trial's findings (issue #30)


def tick_labels(svg):
    """The numbers on the score axis (left of the first bar chart): the texts drawn right-aligned in grey."""
    return re.findall(
        r'<text x="[\d.]+" y="[\d.]+" font-size="14" fill="#666666" text-anchor="end">([^<]+)</text>', svg
    )


@pytest.mark.parametrize("scaled", [False, True])
def test_dk_score_axis_stays_fixed_as_d_k_grows_so_the_growth_shows(scaled):
    ex = dk_explorer()
    ticks, tallest = set(), []
    for d_k in DK_OPTIONS:
        ex.set(d_k=d_k, scaled=scaled)
        ticks.add(tuple(tick_labels(ex.svg)[:3]))  # the score chart's axis comes first
        tallest.append(float(np.abs(ex.state["s"]).max()))
        assert "±" in ex.svg  # the picture says that the axis is the same for every d_k
    assert len(ticks) == 1, ticks
    top = float(next(iter(ticks))[0].replace("−", "-"))
    if not scaled:  # raw scores: from a small fraction of the axis at d_k = 1 to most of it at 512
        assert tallest[0] < 0.05 * abs(top) and tallest[-1] > 0.3 * abs(top)
    assert max(tallest) <= abs(top)  # every bar stays inside the fixed axis
    ex.close()


def test_dk_score_axis_stays_the_same_when_scaling_is_switched_on_or_off():
    ex = dk_explorer()
    axes = set()
    for d_k in (1, 64, 512):
        for scaled in (False, True):
            ex.set(d_k=d_k, scaled=scaled)
            axes.add(tuple(tick_labels(ex.svg)[:3]))
    assert len(axes) == 1, axes  # dividing by √d_k shrinks the bars; the axis does not move
    ex.close()


def test_pipeline_keeps_its_projections_when_d_k_changes_and_says_so_on_the_picture():
    ex = pipeline_explorer()
    W_q, W_k = np.array(ex.data["W_q"]), np.array(ex.data["W_k"])
    example = four_words()
    np.testing.assert_array_equal(W_q[:, :3], example.W_q)  # the example's own columns come first
    np.testing.assert_array_equal(W_k[:, :3], example.W_k)
    ex.set(d_k=8)
    A8 = ex.state["A"].copy()
    ex.set(d_k=64)
    ex.set(d_k=8)  # back: the same random columns, the same weights
    np.testing.assert_array_equal(ex.state["A"], A8)
    assert "前 3 列是例子自己的 W_Q、W_K，其余 5 列是随机补上的" in ex.svg  # on the picture, not only below
    ex.set(d_k=3)
    assert "随机补上" not in ex.svg
    ex.close()


@pytest.mark.parametrize("factory", [dk_explorer, key_explorer, pipeline_explorer], ids=lambda f: f.__name__)
def test_the_english_edition_shows_glosses_and_chinese_shows_none(factory, english):
    ex = factory()
    try:
        assert "“I”" in ex.svg and "“language”" in ex.svg and "我" in ex.svg
        if factory is not dk_explorer:  # and the controls name the tokens with them
            assert any("“study”" in str(s.get("labels", s["label"])) for s in ex.data["controls"])
    finally:
        ex.close()
    lang.set_lang("zh")
    try:
        ex = factory()
    finally:
        lang.set_lang("en")
    assert "“I”" not in ex.svg
    ex.close()


@pytest.mark.parametrize("factory", [dk_explorer, key_explorer, pipeline_explorer], ids=lambda f: f.__name__)
def test_pictures_fit_beside_their_controls_on_a_laptop_screen(factory):
    """1440 × 900: the controls (≈ 250 px) beside the picture, the picture no taller than the screen."""
    ex = factory()
    width, height = (int(x) for x in re.search(r'<svg[^>]* width="(\d+)" height="(\d+)"', ex.svg).groups())
    assert width <= 1440 - 300 and height <= 760, (width, height)
    ex.close()


def test_the_weight_heatmap_colour_bar_is_labelled_attention_weight(english):
    ex = pipeline_explorer()
    assert ">attention weight<" in ex.svg and ">0.5<" in ex.svg
    ex.close()
    lang.set_lang("zh")
    try:
        ex = pipeline_explorer()
    finally:
        lang.set_lang("en")
    assert ">注意力权重<" in ex.svg
    ex.close()


def test_a_masked_cell_is_drawn_as_masked_never_as_a_dark_zero():
    pic = draw.Svg(300, 300)
    A = np.array([[1.0, 0.0], [0.4, 0.6]])
    draw.heatmap(pic, 0, 0, A, ["a", "b"], ["a", "b"], cell=64, masked=np.array([[True, False], [True, True]]))
    svg = pic.render()
    assert "−∞ → 0" in svg and svg.count("0.00") == 0 and svg.count(draw.MASKED) >= 1
    assert draw.contrast(draw.MASKED_INK, draw.MASKED) >= draw.AA_CONTRAST


# ---------------------------------------------------------------- a newcomer's screenshots (issue 29)

MARKUP = re.compile(r"[`_]")  # code markup a reader would see as such: `Trace`, ‖J‖_F, d_k


@pytest.mark.parametrize("language", ["zh", "en"])
def test_readout_lines_and_control_labels_read_as_text_not_markup(language):
    """The lines under a picture are read as sentences: no backticks, no ‖J‖_F or √d_k; and a control's
    label is a phrase ("multiply key 我 by"), not one ending in a bare "×"."""
    lang.set_lang(language)
    try:
        for factory in FACTORIES:
            ex = factory()
            states = [{}]
            if factory is dk_explorer:
                states += [dict(d_k=d, scaled=s) for d in (1, 64, 512) for s in (False, True)]
            for values in states:
                if values:
                    ex.set(**values)
                for line in ex.lines:
                    assert not MARKUP.search(line), (ex.name, line)
            if live(ex):
                for spec in ex.data["controls"]:
                    assert not spec["label"].rstrip().endswith("×"), (ex.name, spec["label"])
            ex.close()
    finally:
        lang.set_lang("zh")


def cell_numbers(svg):
    """The font sizes of the numbers written in heatmap cells ("0.96")."""
    return [float(s) for s, _ in re.findall(r'<text [^>]*font-size="([\d.]+)"[^>]*>(\d\.\d\d)</text>', svg)]


def picture_width(svg):
    return float(re.search(r'<svg[^>]* width="(\d+)"', svg).group(1))


def test_head_explorer_cell_numbers_are_at_least_12px_on_the_page_or_left_out_and_said():
    """Lesson 08: the 1078-px picture, scaled to the page (≈ 640 px beside its controls), had 8-px numbers."""
    from attn_viz.explorers.heads import MIN_PAGE_TEXT, PAGE_WIDTH

    small = head_explorer(n_heads=1, example=four_words())
    big = head_explorer()
    try:
        for ex in (small, big):
            scale = min(1.0, PAGE_WIDTH / picture_width(ex.svg))
            assert all(size * scale >= MIN_PAGE_TEXT >= 12 for size in cell_numbers(ex.svg)), ex.svg[:200]
        assert len(cell_numbers(small.svg)) == 2 * 16  # 4 × 4: numbers in both maps
        assert cell_numbers(big.svg) == [] and "方格太小，不写数字（10 × 10）" in big.svg
        assert any(line.startswith("头 1，“它”这一行：") and "动物 0.96" in line for line in big.lines)
    finally:
        small.close()
        big.close()


def test_a_uniform_row_is_called_uniform_not_said_to_attend_most_to_a_key(english):
    ex = head_explorer()
    try:
        ex.set(query="动物")  # the designed heads give 动物 the same weight, 0.10, on every key
        assert all("uniform, 0.10 on every key" in line for line in ex.lines[:3]), ex.lines
        assert not any("attends most" in line for line in ex.lines)
        ex.set(query="它")
        assert "attends most to “动物”" in ex.lines[0]
    finally:
        ex.close()


def test_the_english_edition_glosses_every_heatmaps_rows_and_columns(english):
    """One rule for glosses: English edition only, on each heatmap's row labels (我 “I”) and under its
    column labels (“I” under 我; lesson 07 and 12 drew the columns in Chinese only). Lesson 08's 10 × 10
    maps put each row's gloss on a line under its token (the one-line label made the picture too wide to
    read) and leave the narrow columns plain. The Chinese edition draws none."""
    for factory, glossed, columns in (
        (head_explorer, None, 0),
        (mask_explorer, "我 “I”", 4),
        (position_explorer, "我 “I” (0)", 8),
    ):
        ex = factory()
        try:
            texts = [html.unescape(t) for t in re.findall(r"<text [^>]*>([^<]*)</text>", ex.svg)]
            alone = [t for t in texts if re.fullmatch(r"“[^”]*”", t)]
            if factory is head_explorer:  # the 10 rows' glosses, each under its token, in the first map only
                assert len(alone) == 10 and "“it”" in alone and "它" in texts, alone
            else:
                assert glossed in texts, (ex.name, texts)
                assert alone.count("“I”") == columns // 4 and len(alone) == columns, (ex.name, alone)
        finally:
            ex.close()
    lang.set_lang("zh")
    try:
        for factory in (head_explorer, mask_explorer, position_explorer):
            ex = factory()
            assert not re.search(r"“[A-Za-z]", ex.svg), ex.name
            ex.close()
    finally:
        lang.set_lang("en")


def head_label_sizes(svg):
    """The font sizes of the head explorer's tick labels (a token alone) and glosses (“it”)."""
    texts = re.findall(r'<text [^>]*font-size="([\d.]+)"[^>]*>([^<]*)</text>', svg)
    tokens = set(coreference().tokens)
    labels = [float(s) for s, t in texts if html.unescape(t) in tokens]
    glosses = [float(s) for s, t in texts if re.fullmatch(r"“[^”]*”", html.unescape(t))]
    return labels, glosses


@pytest.mark.parametrize("language", ["zh", "en"])
def test_head_explorer_labels_read_at_14px_and_glosses_at_12px_on_the_page(language):
    """Lesson 08: the 10 × 10 maps' tick labels were 9–11 px on the page and the glosses smaller still; the
    picture now takes a row of its own (data["wide"], PAGE_WIDTH) and its labels are sized for that room."""
    from attn_viz.explorers.heads import MIN_PAGE_LABEL, MIN_PAGE_TEXT, PAGE_WIDTH

    lang.set_lang(language)
    try:
        ex = head_explorer()
        scale = min(1.0, PAGE_WIDTH / picture_width(ex.svg))
        labels, glosses = head_label_sizes(ex.svg)
        assert len(labels) == 10 + 2 * 10, labels  # the first map's rows, both maps' columns
        assert min(labels) * scale >= MIN_PAGE_LABEL >= 14, (min(labels), scale)
        assert len(glosses) == (10 if language == "en" else 0)
        assert all(g * scale >= MIN_PAGE_TEXT >= 12 for g in glosses), (glosses, scale)
        assert ex.data["wide"]
        ex.close()
    finally:
        lang.set_lang("zh")


def test_head_explorer_quotes_the_comma_token_in_its_lists_of_weights():
    """“街 0.00、， 0.00” read the comma token as a separator: a punctuation token is quoted there."""
    ex = head_explorer()
    try:
        assert "街 0.00、“，” 0.00、因为" in ex.lines[-1], ex.lines
        assert "“，” 0.00" in ex.description
    finally:
        ex.close()


@pytest.mark.parametrize("language", ["zh", "en"])
def test_padded_positions_labels_meet_wcag_aa_on_their_background(language):
    """Lesson 07: the padding tokens' labels are muted, still at least 4.5:1 on what they are drawn on."""
    lang.set_lang(language)
    try:
        ex = mask_explorer()
        ex.set(mode="padding", padding=2)
        muted = re.findall(r'<text [^>]*fill="(#[0-9a-f]{6})"[^>]*>([^<]*)</text>', ex.svg)
        padded = [fill for fill, t in muted if t.startswith(("学习", "语言"))]
        assert padded and all(fill == draw.MUTED for fill in padded)
        assert draw.contrast(draw.MUTED, draw.WHITE) >= draw.AA_CONTRAST  # the labels sit on the white page
        ex.close()
    finally:
        lang.set_lang("zh")
