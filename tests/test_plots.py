"""The lesson figures: right axes, tokens on the ticks, masked cells marked, readable labels, no boxes."""

import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra.numpy import arrays  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from attn_core import causal_mask
from attn_core.examples import coreference, four_words  # noqa: E402
from attn_core.lang import tr  # noqa: E402
from attn_viz import fonts, plots  # noqa: E402

MINUS = "\u2212"


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def draw(fig):
    """Render the figure; fail on any missing-glyph warning (a hanzi drawn as a box)."""
    assert isinstance(fig, Figure)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig.canvas.draw()
    glyphs = [str(w.message) for w in caught if "Glyph" in str(w.message)]
    assert glyphs == []
    return fig


def ticks(labels):
    return [t.get_text() for t in labels]


def images(fig):
    return [ax for ax in fig.axes if ax.images]


def cell_texts(ax):
    return [t for t in ax.texts]


def luminance(rgba):
    r, g, b = matplotlib.colors.to_rgb(rgba)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_import_sets_a_projector_style_and_the_chinese_font():
    assert matplotlib.rcParams["font.family"] == [fonts.family(), "DejaVu Sans"]
    for key in ("font.size", "xtick.labelsize", "ytick.labelsize", "axes.labelsize", "legend.fontsize"):
        assert matplotlib.rcParams[key] >= 12, key
    assert matplotlib.rcParams["axes.titlesize"] > matplotlib.rcParams["xtick.labelsize"]
    assert matplotlib.rcParams["image.cmap"] in ("viridis", "cividis")
    assert matplotlib.rcParams["axes.unicode_minus"] is True


def test_heatmap_of_weights_has_tokens_titles_and_one_annotation_per_cell():
    ex = four_words()
    A = ex.attention().A
    fig = draw(plots.heatmap(A, ex.tokens, ex.tokens, title="注意力权重"))
    (ax,) = images(fig)
    assert len(fig.axes) == 2  # the matrix and its colour bar
    assert ticks(ax.get_xticklabels()) == list(ex.tokens)
    assert ticks(ax.get_yticklabels()) == list(ex.tokens)
    assert ax.get_ylabel() == tr("查询（谁在问）", "query (who asks)")
    assert ax.get_xlabel() == tr("键（被问的词）", "key (who is asked)")
    assert ax.get_title() == "注意力权重"
    assert [t.get_text() for t in cell_texts(ax)] == [f"{v:.2f}" for v in A.ravel()]


def colour_bars(fig):
    return [ax for ax in fig.axes if hasattr(ax, "_colorbar")]


def weight_figures():
    """The weight maps the lessons draw, called as the lessons call them."""
    ex, co = four_words(), coreference()
    A, tokens = ex.attention().A, list(ex.tokens)
    A_col = np.exp(ex.attention().S) / np.exp(ex.attention().S).sum(axis=0)  # 04: softmax down the columns
    rng = np.random.default_rng(0)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5), layout="constrained")
    plots.heatmap(A, tokens, tokens, ax=left)
    plots.heatmap(A_col, tokens, tokens, ax=right, kind="weights")
    numbers = [str(k) for k in range(16)]
    return {
        "04 one map": plots.heatmap(A, tokens, tokens),
        "04 side by side": fig,
        "06 ten words": plots.heatmap(co.attention().A, co.tokens, co.tokens, annotate=False),
        "07 masked": plots.heatmaps(
            [A, ex.attention(mask=causal_mask(4)).A], ["a", "b"], tokens, tokens, masks=[None, causal_mask(4)]
        ),
        "07 cross": plots.heatmap(
            rng.dirichlet(np.ones(3), size=2), ["it", "was"], ["那只", "动物", "街"], vmin=0, vmax=1
        ),
        "10 sixteen words": plots.heatmaps(
            list(rng.dirichlet(np.ones(16), size=(3, 16))), ["0", "10", "300"], numbers, numbers
        ),
    }


@pytest.mark.parametrize("language", ["zh", "en"])
def test_every_weight_map_is_on_the_one_fixed_scale_with_the_one_label(language, request):
    if language == "en":
        request.getfixturevalue("english")
    label = tr("注意力权重", "attention weight")
    for name, fig in weight_figures().items():
        draw(fig)
        assert images(fig), name
        for ax in images(fig):
            assert ax.images[0].get_clim() == (0, 1), name
            assert ax.images[0].cmap.name.startswith("viridis"), name
        bars = colour_bars(fig)
        assert bars and all(ax.get_ylabel() == label for ax in bars), name
        assert all(ax.get_ylim() == (0, 1) for ax in bars), name


def test_weights_cannot_be_given_another_scale_or_label_and_scores_are_not_weights():
    ex = four_words()
    trace = ex.attention()
    with pytest.raises(ValueError, match="vmax"):
        plots.heatmap(trace.A, ex.tokens, ex.tokens, vmin=0, vmax=0.35)
    with pytest.raises(ValueError, match="vmin"):
        plots.heatmaps([trace.A], ["a"], ex.tokens, ex.tokens, vmin=0.1)
    with pytest.raises(ValueError, match="分数"):
        plots.heatmap(trace.A, ex.tokens, ex.tokens, label="分数")
    with pytest.raises(ValueError, match="scores"):
        plots.heatmap(trace.S, ex.tokens, ex.tokens, kind="weights")  # negative scores are not weights
    with pytest.raises(ValueError, match="kind"):
        plots.heatmap(trace.A, ex.tokens, ex.tokens, kind="weight")


def test_scores_get_their_own_diverging_scale_centred_on_zero_and_label():
    ex = four_words()
    trace = ex.attention()
    fig = draw(plots.heatmaps([trace.QKT, trace.S], ["QKᵀ", "S"], ex.tokens, ex.tokens))
    top = float(np.abs(trace.QKT).max())  # 1.85, rounded up to the round bound 2.5
    assert 1.5 < top < 2.5
    for ax in images(fig):
        assert ax.images[0].get_clim() == pytest.approx((-2.5, 2.5))
        assert ax.images[0].cmap.name.startswith(plots.SCORE_CMAP)
    (bar,) = colour_bars(fig)
    assert bar.get_ylabel() == "分数"
    fig = draw(plots.heatmap(trace.A, ex.tokens, ex.tokens, kind="scores", label="reach"))
    assert colour_bars(fig)[0].get_ylabel() == "reach"
    assert 0.25 < trace.A.max() < 0.5 and images(fig)[0].images[0].get_clim() == pytest.approx((-0.5, 0.5))


def test_tick_labels_are_at_least_12_pt_and_never_overlap_and_many_are_thinned_not_rotated():
    """Counting labels (0, 1, 2, ...) may be thinned; words never (lesson 08's 10 words: 动物 and 累了 were
    dropped when every other label was written): they stay, slanted when crowded."""
    words = ["the", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "tired"]
    six = ["I", "like", "studying", "languages", "and", "maths"]  # 11 (en): three panels, long words
    A = np.random.default_rng(1).dirichlet(np.ones(10), size=10)
    R = (np.abs(np.arange(6)[:, None] - np.arange(6)) <= 1).astype(float)
    figures = {
        **weight_figures(),
        "english words": plots.heatmap(A, words, words, annotate=False),
        "english panels": plots.heatmaps([R, R, R], ["1", "2", "3"], six, six, label="1 = changes it"),
    }
    for name, fig in figures.items():
        draw(fig)
        renderer = fig.canvas.get_renderer()
        for ax in images(fig):
            for labels, lo, hi in ((ax.get_xticklabels(), "x0", "x1"), (ax.get_yticklabels(), "y0", "y1")):
                written = [t for t in labels if t.get_text()]
                assert all(t.get_fontsize() >= 12 for t in written), name
                if len(labels) > 8 or name != "english panels":
                    assert all(t.get_rotation() == 0 for t in written), name
                    boxes = sorted(
                        (getattr(b, lo), getattr(b, hi)) for b in (t.get_window_extent(renderer) for t in written)
                    )
                    assert all(a[1] < b[0] for a, b in zip(boxes, boxes[1:])), (name, [t.get_text() for t in written])
    first = images(figures["10 sixteen words"])[0]
    shown = ticks(first.get_xticklabels())
    assert shown[0] == "0" and "" in shown  # crowded: every other label, starting from the first
    assert ticks(figures["english words"].axes[0].get_xticklabels()) == words  # room enough: every word
    crowded = ["那只", "动物", "没", "过", "街", "因为", "它", "太", "累", "了了了"]
    fig = draw(plots.heatmaps([A, A, A, A], list("abcd"), crowded, crowded))
    for ax in images(fig):
        assert ticks(ax.get_xticklabels()) == crowded  # every word written, none thinned away
    permuted = draw(
        plots.heatmaps([A] * 4, list("abcd"), [str(k) for k in range(10)], [str((3 * k) % 10) for k in range(10)])
    )
    assert ticks(images(permuted)[0].get_xticklabels()) == [str((3 * k) % 10) for k in range(10)]
    for ax in images(figures["english panels"]):  # a few long words: every one stays, slanted
        assert ticks(ax.get_xticklabels()) == six
        assert all(t.get_rotation() == 45 for t in ax.get_xticklabels())


def test_masked_scores_are_grey_hatched_and_marked_minus_infinity():
    ex = four_words()
    trace = ex.attention(mask=causal_mask(4))
    fig = draw(plots.heatmap(trace.S, ex.tokens, ex.tokens))
    (ax,) = images(fig)
    texts = [t.get_text() for t in cell_texts(ax)]
    masked = ~causal_mask(4)
    assert [t == plots.NEG_INF for t in texts] == list(masked.ravel())
    assert np.array_equal(np.ma.getmaskarray(ax.images[0].get_array()), masked)
    assert sum(1 for p in ax.patches if p.get_hatch()) == masked.sum()
    negative = [t for t, v in zip(texts, trace.S.ravel()) if np.isfinite(v) and v < 0]
    assert negative and all(t.startswith(MINUS) for t in negative)


def test_masked_weights_are_hatched_and_marked_not_drawn_as_zero():
    ex = four_words()
    mask = causal_mask(4)
    A = ex.attention(mask=mask).A
    fig = draw(plots.heatmap(A, ex.tokens, ex.tokens, mask=mask))
    (ax,) = images(fig)
    texts = [t.get_text() for t in cell_texts(ax)]
    assert [t == plots.MASKED_WEIGHT for t in texts] == list((~mask).ravel())
    assert "0.00" not in texts
    assert np.array_equal(np.ma.getmaskarray(ax.images[0].get_array()), ~mask)
    hatched = [p for p in ax.patches if p.get_hatch()]
    assert sorted((round(p.get_y() + 0.5), round(p.get_x() + 0.5)) for p in hatched) == sorted(
        map(tuple, np.argwhere(~mask).tolist())
    )
    im = ax.images[0]
    for t, v, m in zip(cell_texts(ax), A.ravel(), mask.ravel()):  # numbers stay readable on their cells
        if m:
            assert abs(luminance(t.get_color()) - luminance(im.cmap(im.norm(v)))) > 0.4, t.get_text()


def test_a_mask_broadcasts_per_panel_and_must_match_the_weights():
    ex = four_words()
    real = np.array([True, True, True, False])[None, :]  # a key-side (padding) mask, shape (1, n_k)
    A = ex.attention(mask=real).A
    fig = draw(
        plots.heatmaps([ex.attention().A, A], ["无掩码", "键一侧掩码"], ex.tokens, ex.tokens, masks=[None, real])
    )
    left, right = images(fig)
    assert not any(p.get_hatch() for p in left.patches)
    assert sum(1 for p in right.patches if p.get_hatch()) == 4
    assert [t.get_text() for t in cell_texts(right)].count(plots.MASKED_WEIGHT) == 4
    with pytest.raises(ValueError, match="0"):
        plots.heatmap(ex.attention().A, ex.tokens, ex.tokens, mask=causal_mask(4))  # weights where it says masked
    with pytest.raises(ValueError, match=r"\(2, 2\)"):
        plots.heatmap(A, ex.tokens, ex.tokens, mask=np.ones((2, 2), bool))
    with pytest.raises(ValueError, match="masks"):
        plots.heatmaps([A, A], ["a", "b"], ex.tokens, ex.tokens, masks=[real])


def test_rectangular_heatmap_for_cross_attention_and_drawing_into_given_axes():
    M = np.arange(6.0).reshape(2, 3) / 6
    fig, ax = plt.subplots()
    n_figures = len(plt.get_fignums())
    out = draw(plots.heatmap(M, ["它", "累了"], ["那只", "动物", "街"], ax=ax, row_title="解码器", col_title="编码器"))
    assert out is fig and len(plt.get_fignums()) == n_figures
    assert ax.images[0].get_array().shape == (2, 3)
    assert ticks(ax.get_xticklabels()) == ["那只", "动物", "街"]
    assert (ax.get_ylabel(), ax.get_xlabel()) == ("解码器", "编码器")


def test_heatmap_without_annotations_and_with_ten_tokens():
    ex = coreference()
    fig = draw(plots.heatmap(ex.attention().A, ex.tokens, ex.tokens, annotate=False, vmin=0, vmax=1))
    (ax,) = images(fig)
    assert cell_texts(ax) == []
    assert ax.images[0].get_clim() == (0, 1)


def test_heatmap_rejects_bad_input_clearly_and_leaves_the_caller_array_alone():
    M = np.array([[0.5, 0.5], [1.0, 0.0]])
    before = M.copy()
    draw(plots.heatmap(M, ["a", "b"], ["c", "d"]))
    assert np.array_equal(M, before)
    with pytest.raises(ValueError, match="3"):
        plots.heatmap(M, ["a", "b", "c"], ["c", "d"])
    with pytest.raises(ValueError, match="heatmaps"):
        plots.heatmap(np.zeros((2, 2, 2)), ["a", "b"], ["c", "d"])
    with pytest.raises(ValueError, match="NaN"):
        plots.heatmap([[np.nan, 1.0]], ["a"], ["c", "d"])


def test_heatmaps_draw_one_panel_per_head_on_one_scale():
    ex = four_words()
    A = np.random.default_rng(0).dirichlet(np.ones(4), size=(5, 4))
    titles = [f"头 {h + 1}" for h in range(5)]
    fig = draw(plots.heatmaps(A, titles, ex.tokens, ex.tokens, ncols=3, suptitle="多头"))
    panels = images(fig)
    assert [ax.get_title() for ax in panels] == titles
    assert len(fig.axes) == 6  # 5 panels (the sixth grid cell removed) + 1 shared colour bar
    assert all(ax.images[0].get_clim() == (0, 1) for ax in panels)
    assert all(ticks(ax.get_xticklabels()) == list(ex.tokens) for ax in panels)
    assert ticks(panels[0].get_yticklabels()) == list(ex.tokens)
    assert all(len(cell_texts(ax)) == 16 for ax in panels)
    assert fig.get_suptitle() == "多头"
    with pytest.raises(ValueError, match="titles"):
        plots.heatmaps(A, titles[:2], ex.tokens, ex.tokens)


def test_bars_label_every_bar_and_emphasise_the_highlight():
    ex = four_words()
    a = ex.attention().A[ex.index("学习")]
    fig = draw(plots.bars(a, ex.tokens, highlight="学习", title="学习 看向谁", ylabel="权重"))
    (ax,) = fig.axes
    assert ticks(ax.get_xticklabels()) == list(ex.tokens)
    assert [t.get_text() for t in ax.texts] == [f"{v:.2f}" for v in a]
    colours = [p.get_facecolor() for p in ax.patches]
    assert len(colours) == 4 and colours[2] != colours[0] and colours[0] == colours[1] == colours[3]
    assert ax.get_ylim()[0] == 0 and ax.get_ylim()[1] > a.max()
    assert ax.get_ylabel() == "权重"


def test_bars_show_negative_and_masked_scores():
    ex = four_words()
    s = ex.attention(mask=causal_mask(4)).S[1]
    fig = draw(plots.bars(s, ex.tokens, highlight=1))
    (ax,) = fig.axes
    labels = [t.get_text() for t in ax.texts]
    assert labels[0].startswith(MINUS) and labels[2:] == [plots.NEG_INF] * 2
    assert ax.get_ylim()[0] < s[0]
    with pytest.raises(ValueError, match="highlight"):
        plots.bars(s, ex.tokens, highlight="猫")


def test_dot_product_histograms_show_std_next_to_sqrt_dk():
    rng = np.random.default_rng(0)
    samples = {d: (rng.standard_normal((2000, d)) * rng.standard_normal((2000, d))).sum(axis=1) for d in (4, 16, 64)}
    fig = draw(plots.dot_product_histograms(samples, bins=40))
    assert len(fig.axes) == 3
    assert len({ax.get_xlim() for ax in fig.axes}) == 1  # one x scale: the spread can be compared
    # each panel its own count scale, so that the flattest (largest d_k) fills its panel too and still reads
    for ax in fig.axes:
        tallest = max(p.get_height() for p in ax.patches)
        assert 0.7 * ax.get_ylim()[1] <= tallest <= ax.get_ylim()[1]
    assert all(ticks(ax.get_yticklabels()) for ax in fig.axes)  # and every panel keeps its numbers
    for ax, (d, x) in zip(fig.axes, sorted(samples.items())):
        (note,) = ax.texts
        assert f"{x.std():.2f}" in note.get_text()
        assert r"$\sqrt{d_k}$" in note.get_text() and f"{np.sqrt(d):.2f}" in note.get_text()
        assert str(d) in ax.get_title()
        assert sum(p.get_height() for p in ax.patches) == x.size
    with pytest.raises(ValueError, match="d_k"):
        plots.dot_product_histograms({0: [1.0, 2.0]})


def test_contributions_are_grouped_bars_from_zero_with_the_output_as_its_own_bar():
    ex = four_words()
    trace = ex.attention()
    i = ex.index("学习")
    fig = draw(plots.contributions(trace.A[i], trace.V, ex.tokens))
    (ax,) = fig.axes
    assert len(ax.get_legend().get_texts()) == 5
    assert [t.get_text() for t in ax.get_xticklabels()] == [tr(f"第 {d} 个分量", f"dim {d}") for d in range(3)]
    _assert_grouped(ax, trace.A[i], trace.V)
    assert [t.get_text() for t in ax.texts] == [f"{o:.2f}".replace("-", MINUS) for o in trace.O[i]]


def _assert_grouped(ax, a, V):
    """No stacking: every bar starts at 0 and no two bars overlap; per dimension, left to right, the
    bars are a_j·V_j for each value row j and then the black output bar Σ_j a_j·V_j."""
    bars = sorted(ax.patches, key=lambda p: p.get_x())
    assert all(p.get_y() == 0 for p in bars)
    assert all(p.get_x() + p.get_width() <= q.get_x() + 1e-12 for p, q in zip(bars, bars[1:]))
    n, d_v = a.size, V.shape[1]
    heights = np.array([p.get_height() for p in bars]).reshape(d_v, n + 1)
    np.testing.assert_allclose(heights[:, :n], (a[:, None] * V).T, atol=1e-12)
    np.testing.assert_allclose(heights[:, n], a @ V, atol=1e-9)
    black = [p for p in bars if matplotlib.colors.to_hex(p.get_facecolor()) == "#000000"]
    assert [round(p.get_x() + p.get_width() / 2) for p in black] == list(range(d_v))


@settings(max_examples=10, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda n: st.tuples(
            arrays(float, n, elements=st.floats(0, 1)), arrays(float, (n, 3), elements=st.floats(-5, 5))
        )
    )
)
def test_contributions_always_show_every_weighted_value_row_and_their_sum(case):
    a, V = case
    fig = plots.contributions(a, V, [f"词{j}" for j in range(a.size)], dim_labels=["x", "y", "z"], title="混合")
    _assert_grouped(fig.axes[0], a, V)
    plt.close(fig)


def test_line_draws_one_curve_per_label_on_log_axes():
    n = np.array([64, 128, 256, 512])
    fig = draw(
        plots.line(
            n,
            {"稠密": n**2 / 1e3, "分块": n / 10.0},
            logx=True,
            logy=True,
            xlabel="序列长度 n",
            ylabel="时间",
            title="时间与 n",
        )
    )
    (ax,) = fig.axes
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["稠密", "分块"]
    assert len(ax.lines) == 2 and ax.get_xlabel() == "序列长度 n"
    n_figures = len(plt.get_fignums())
    with pytest.raises(ValueError, match="logy"):
        plots.line(n, {"a": n - 64}, logy=True)
    with pytest.raises(ValueError, match="3"):
        plots.line(n, {"a": [1, 2, 3]})
    assert len(plt.get_fignums()) == n_figures  # a rejected call leaves no half-drawn figure


def test_position_heatmap_labels_pairs_and_positions_on_a_fixed_scale(english):
    from attn_core import sinusoidal_positions

    PE = sinusoidal_positions(50, 16)
    fig = draw(plots.position_heatmap(PE, title="PE"))
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()][:4] == ["sin 0", "cos 0", "sin 1", "cos 1"]
    assert ax.get_ylabel() == "position p (counted from 0)" and "pair k" in ax.get_xlabel()
    assert ax.images[0].get_clim() == (-1, 1)
    with pytest.raises(ValueError, match="NaN"):
        plots.position_heatmap(np.full((3, 4), np.nan))


def test_position_heatmap_outlines_the_positions_the_text_talks_about(english):
    from matplotlib.patches import Rectangle

    from attn_core import sinusoidal_positions

    PE = sinusoidal_positions(50, 16)
    ax = draw(plots.position_heatmap(PE, highlight=[0, 23])).axes[0]
    outlines = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert sorted((p.get_y() + 0.5, p.get_width()) for p in outlines) == [(0, 16), (23, 16)]  # every feature
    assert all(p.get_edgecolor()[:3] == matplotlib.colors.to_rgb(plots.HIGHLIGHT_COLOUR) for p in outlines)
    ticks = {t.get_text(): t for t in ax.get_yticklabels()}
    assert "23" in ticks and "25" not in ticks and "20" in ticks  # 23 written, its too-close neighbour 25 left out
    assert ticks["23"].get_fontweight() == plots._bold() and ticks["0"].get_color() == plots.HIGHLIGHT_TEXT
    assert ticks["20"].get_fontweight() != "bold"
    assert not [p for p in draw(plots.position_heatmap(PE)).axes[0].patches if isinstance(p, Rectangle)]
    with pytest.raises(ValueError, match="0 … 49"):
        plots.position_heatmap(PE, highlight=[50])


def test_line_rings_the_marked_points_and_writes_their_values(english):
    xs = np.arange(10.0)
    ys = {"a": (xs - 4) ** 2, "b": xs}
    ax = draw(plots.line(xs, ys, marks=[2, 7], mark_label="Δ = {x}: {y}", fmt="{:.1f}")).axes[0]
    rings = [line for line in ax.lines if line.get_marker() == "o" and line.get_markerfacecolor() == "none"]
    assert sorted((float(r.get_xdata()[0]), float(r.get_ydata()[0])) for r in rings) == [
        (2, 2),
        (2, 4),
        (7, 7),
        (7, 9),
    ]
    labels = sorted(t.get_text() for t in ax.texts)
    assert labels == ["Δ = 2: 2.0", "Δ = 2: 4.0", "Δ = 7: 7.0", "Δ = 7: 9.0"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b"]  # the rings are not in the legend
    assert not draw(plots.line(xs, ys)).axes[0].texts
    with pytest.raises(ValueError, match="2.5"):
        plots.line(xs, ys, marks=[2.5])


# ---------------------------------------------------------------- a newcomer's screenshots (issue 29)


def test_a_long_sentence_heatmap_fits_a_projector_screen_with_readable_labels():
    """Lesson 06's 10 × 10 coreference map was 8.6 in (861 px) tall: now ≤ 600 px (cells wider than tall), and
    the numbers and token labels keep their sizes and fit."""
    ex = coreference()
    fig = draw(plots.heatmap(ex.attention().A, ex.tokens, ex.tokens, title="那只动物没过街，因为它太累了"))
    width, height = fig.get_size_inches()
    assert height <= plots.MAX_HEIGHT and width <= plots.MAX_WIDTH
    fig.canvas.draw()
    shown = fig.get_tightbbox(fig.canvas.get_renderer()).height + 2 * 0.1  # as the inline backend crops it
    assert shown * 100 <= 600  # px at the notebook's 100 dpi
    (ax,) = images(fig)
    box = ax.get_window_extent()
    assert min(t.get_fontsize() for t in ax.texts) >= 12
    assert min(t.get_fontsize() for t in ax.get_xticklabels() + ax.get_yticklabels()) >= plots.MIN_TICK_SIZE
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    numbers = [t.get_window_extent(renderer) for t in ax.texts]
    assert max(b.width for b in numbers) < box.width / 10 and max(b.height for b in numbers) < box.height / 10


def test_both_candidate_referents_are_highlighted_alike_in_the_heatmap_and_the_bars():
    ex = coreference()
    it, animal, street = ex.index("它"), ex.index("动物"), ex.index("街")
    A = ex.attention().A
    fig = draw(plots.heatmap(A, ex.tokens, ex.tokens, highlight=[("它", "动物"), ("它", street)]))
    (ax,) = images(fig)
    outlined = [p for p in ax.patches if p.get_edgecolor()[:3] == matplotlib.colors.to_rgb(plots.HIGHLIGHT_COLOUR)]
    assert sorted((round(p.get_x() + 0.5), round(p.get_y() + 0.5)) for p in outlined) == [(animal, it), (street, it)]
    coloured = {t.get_text() for t in ax.get_xticklabels() if t.get_color() == plots.HIGHLIGHT_TEXT}
    assert coloured == {"动物", "街"}
    fig = draw(plots.bars(A[it], ex.tokens, highlight=["动物", "街"]))
    colours = [matplotlib.colors.to_hex(p.get_facecolor()) for p in fig.axes[0].patches]
    assert [k for k, c in enumerate(colours) if c == plots.HIGHLIGHT_COLOUR.lower()] == [animal, street]
    with pytest.raises(ValueError, match="猫"):
        plots.heatmap(A, ex.tokens, ex.tokens, highlight=[("它", "猫")])


def test_bars_compared_side_by_side_share_one_y_range_and_titles_keep_apart():
    ex = coreference()
    A = ex.attention().A
    low, high = A[ex.index("街")], A[ex.index("它")]  # a flat row and a peaked one
    fig = draw(plots.compared_bars([low, high], ex.tokens, ["平的一行", "尖的一行"], highlight=["动物", "街"]))
    top, bottom = fig.axes
    assert top.get_ylim() == bottom.get_ylim() and top.get_ylim()[1] >= high.max()
    renderer = fig.canvas.get_renderer()
    labels_bottom = min(t.get_window_extent(renderer).y0 for t in top.get_xticklabels())
    assert labels_bottom - bottom.title.get_window_extent(renderer).y1 >= 10  # px between the panels


def test_the_same_score_matrix_gets_the_same_symmetric_range_alone_and_beside_another():
    """Lesson 01 drew the example's QKᵀ beside the shared-projection scores (±2.25), lesson 02 alone (±1.85)."""
    ex = four_words()
    X, QKT = ex.X, ex.attention().QKT
    shared = (X @ ex.W_q) @ (X @ ex.W_q).T
    alone = draw(plots.heatmap(QKT, ex.tokens, ex.tokens))
    beside = draw(plots.heatmaps([shared, QKT], ["共用", "各用各的"], ex.tokens, ex.tokens))
    (lo, hi), *_ = {ax.images[0].get_clim() for ax in images(alone)}
    assert {ax.images[0].get_clim() for ax in images(beside)} == {(lo, hi)} and lo == -hi
    assert np.abs(shared).max() > np.abs(QKT).max()  # although the shared scores are larger


def test_a_reach_map_has_two_colours_and_a_two_entry_legend_not_the_score_bar():
    R = np.triu(np.ones((4, 4), dtype=bool))
    fig = draw(plots.heatmaps([R, R.T], ["1 层", "2 层"], list("abcd"), list("abcd"), kind="reach"))
    assert colour_bars(fig) == [] and len(images(fig)) == 2
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["能到达", "不能到达"]
    for ax in images(fig):
        assert cell_texts(ax) == []  # the colours say it; no "1.00" / "0.00"
        assert len({tuple(ax.images[0].cmap(ax.images[0].norm(v))) for v in (0, 1)}) == 2
    fig = draw(plots.heatmap(R.astype(float), list("abcd"), list("abcd"), kind="reach", label=("会", "不会")))
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["会", "不会"]
    with pytest.raises(ValueError, match="reach"):
        plots.heatmap(R * 0.5, list("abcd"), list("abcd"), kind="reach")


def test_a_title_wider_than_its_heatmap_is_broken_into_lines_so_it_never_reaches_the_colour_bar():
    A = four_words().attention().A
    fig, (left, right) = plt.subplots(1, 2, figsize=(10.5, 4.6), layout="constrained")
    plots.heatmap(A, list("abcd"), list("abcd"), ax=left, title="short")
    plots.heatmap(A, list("abcd"), list("abcd"), ax=right, title="By column (wrong): each column sums to 1")
    draw(fig)
    renderer = fig.canvas.get_renderer()
    assert left.get_title() == "short"
    assert right.get_title() == "By column (wrong):\neach column sums to 1"  # broken at the space nearest the middle
    for ax in (left, right):
        title = ax.title.get_window_extent(renderer)
        assert ax.bbox.x0 - 1 <= title.x0 and title.x1 <= ax.bbox.x1 + 1  # within its axes: not over the colour bar
    fig = plots.heatmap(
        A, list("abcd"), list("abcd"), title="Scaled $S = QK^\\top / \\sqrt{d_k}$ and a long tail of words"
    )
    assert "$S = QK^\\top / \\sqrt{d_k}$" in fig.axes[0].get_title()  # never broken inside $…$
    plt.close("all")


def test_a_padding_querys_row_is_greyed_in_every_panel_its_numbers_kept_and_said_in_the_legend():
    ex = four_words()
    A = ex.attention().A
    mask = np.array([True, True, True, False])
    masked = ex.attention(mask=mask).A
    fig = draw(
        plots.heatmaps(
            [A, masked],
            ["no mask", "key mask"],
            list(ex.tokens),
            list(ex.tokens),
            masks=[None, mask],
            dropped_rows=[ex.tokens[3]],
        )
    )
    for ax in fig.axes[:2]:
        veils = [p for p in ax.patches if p.get_facecolor()[:3] == matplotlib.colors.to_rgb(plots.DROPPED_COLOUR)]
        assert [p.get_y() for p in veils] == [2.5]  # the last row only
        row = [t for t in ax.texts if round(t.get_position()[1]) == 3]
        assert row and all(t.get_color() == plots.DROPPED_INK for t in row)  # its numbers stay, in dark grey
    assert fig.axes[0].get_yticklabels()[3].get_color() == plots.DROPPED_INK
    assert any(t.get_text() == plots.msg("plot_dropped_rows") for leg in fig.legends for t in leg.get_texts())
    plt.close("all")


def test_the_english_edition_glosses_the_example_tokens_on_both_axes(english):
    """en01 c31, en04 c10/c15 and en08 c29 drew 我 / 喜欢 … alone; the explorers' rows already said 我 “I”."""
    ex = four_words()
    tokens = list(ex.tokens)
    A = np.full((4, 4), 0.25)
    for fig in (plots.heatmap(A, tokens, tokens), plots.heatmaps([A, A], ["a", "b"], tokens, tokens)):
        ax = draw(fig).axes[0]
        one_line = [f"{t} “{g}”" for t, g in zip(ex.tokens, ex.gloss)]
        two_lines = [f"{t}\n{g}" for t, g in zip(ex.tokens, ex.gloss)]  # the gloss under its token
        for axis in (ax.get_yticklabels(), ax.get_xticklabels()):
            assert [t.get_text() for t in axis] in (one_line, two_lines)
    co = coreference()
    ax = draw(plots.heatmaps([np.full((10, 10), 0.1)] * 2, ["a", "b"], co.tokens, co.tokens)).axes[0]
    assert {"它 “it”", "它\nit"} & {t.get_text() for t in ax.get_xticklabels()}
    words = ["the", "cat"]  # no example token: as given
    ax = draw(plots.heatmap(np.eye(2), words, words)).axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == words


def test_the_chinese_edition_keeps_the_tokens_alone():
    tokens = list(four_words().tokens)
    ax = draw(plots.heatmap(np.full((4, 4), 0.25), tokens, tokens)).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == tokens


def test_a_colour_bar_keeps_its_distance_from_the_next_panels_y_label():
    """Lesson 04 c15: the left colour bar's label 注意力权重 ran into the right panel's 查询（谁在问）."""
    tokens = list(four_words().tokens)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10.5, 4.6), layout="constrained")
    plots.heatmap(np.full((4, 4), 0.25), tokens, tokens, ax=left, title="by row")
    plots.heatmap(np.full((4, 4), 0.25), tokens, tokens, ax=right, title="by column", kind="weights")
    draw(fig)
    renderer = fig.canvas.get_renderer()
    bar = fig.axes[2]  # the left panel's colour bar (added after the two panels)
    gap = right.yaxis.label.get_window_extent(renderer).x0 - bar.yaxis.label.get_window_extent(renderer).x1
    assert gap >= 0.25 * fig.dpi, gap  # a quarter of an inch at least (it was a few pixels)


def test_weight_bars_have_the_weight_axis_and_its_label():
    """Lesson 06 c48/c57: the 它 bars ran 0–0.40 and 0–0.5 with no y label; weights are read on 0 … 1."""
    a = np.array([0.1, 0.4, 0.2, 0.3])
    ax = draw(plots.bars(a, list(four_words().tokens))).axes[0]
    assert ax.get_ylim() == plots.WEIGHT_YLIM and ax.get_ylabel() == "注意力权重"
    assert ax.get_yticks()[0] == 0 and ax.get_yticks()[-1] == 1
    fig = draw(plots.compared_bars([a, a[::-1]], list(four_words().tokens), ["x", "y"]))
    assert all(ax.get_ylim() == plots.WEIGHT_YLIM and ax.get_ylabel() == "注意力权重" for ax in fig.axes)
    scores = draw(plots.bars(np.array([-1.0, 2.0]), ["a", "b"])).axes[0]
    assert scores.get_ylabel() == "" and scores.get_ylim()[1] < 3  # scores keep their own range


def test_a_marks_label_does_not_sit_on_the_curve():
    """Lesson 12 c17: "Δ = 3: 5.54" was drawn across the falling curve."""
    from attn_core.positions import sinusoidal_positions

    PE = sinusoidal_positions(50, 16)
    G = PE @ PE.T
    fig = draw(plots.line(np.arange(50), {"PE": G[0]}, marks=[3, 19], mark_label="Δ = {x}: {y}"))
    ax = fig.axes[0]
    renderer = fig.canvas.get_renderer()
    xs = np.linspace(0, 49, 2000)
    curve = ax.transData.transform(np.column_stack([xs, np.interp(xs, np.arange(50), G[0])]))
    notes = [t for t in ax.texts if t.get_text().startswith("Δ")]
    assert len(notes) == 2
    for note in notes:
        box = note.get_window_extent(renderer)
        inside = (curve[:, 0] >= box.x0) & (curve[:, 0] <= box.x1) & (curve[:, 1] >= box.y0) & (curve[:, 1] <= box.y1)
        assert not inside.any(), note.get_text()


def test_a_matrixs_y_label_keeps_its_distance_from_the_tick_labels_after_the_caller_renames_it():
    """Lesson 11 c31 sets its own y label (输出位置) on a heatmaps() figure: it sat tight against 喜欢 / 学习."""
    words = ["我", "喜欢", "学习", "语言", "和", "数学"]
    R = (np.abs(np.arange(6)[:, None] - np.arange(6)[None, :]) <= 1).astype(float)
    fig = plots.heatmaps([R, R], ["1", "2"], words, words, kind="reach")
    ax = fig.axes[0]
    ax.set_ylabel("输出位置")
    draw(fig)
    renderer = fig.canvas.get_renderer()
    ticks = min(t.get_window_extent(renderer).x0 for t in ax.get_yticklabels())
    assert ticks - ax.yaxis.label.get_window_extent(renderer).x1 >= plots.AXIS_LABEL_PAD * fig.dpi / 72 - 1
    assert plots.AXIS_LABEL_PAD >= 10


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_masked_cells_labels_stay_inside_their_cells_in_both_editions(lang):
    """Lesson 07's key-side mask in the English edition: glossed ticks make the panels narrower, and the
    "−∞→0" of the masked cells ran into each other, their grey box over the neighbouring numbers."""
    from attn_core.lang import get_lang, set_lang

    before = get_lang()
    set_lang(lang)
    try:
        tokens = ["我", "喜欢", "语言", "<pad>"]
        real = np.array([True, True, True, False])
        A = np.tile([0.27, 0.35, 0.38, 0.0], (4, 1))
        fig = plots.heatmaps([np.full((4, 4), 0.25), A], ["a", "b"], tokens, tokens, masks=[None, real[None, :]])
        fig.draw_without_rendering()
        renderer = fig.canvas.get_renderer()
        ax = images(fig)[1]
        w, h = ax.bbox.width / 4, ax.bbox.height / 4
        masked = [t for t in cell_texts(ax) if getattr(t, "_attn_masked", False) and t.get_text()]
        assert masked or lang == "en"
        for t in masked:
            box = t.get_bbox_patch().get_window_extent(renderer)
            x, y = ax.transData.transform(t.get_position())
            assert box.width <= w and box.height <= h, (t.get_text(), box.width, w)
            assert abs(box.x0 + box.width / 2 - x) < 1 and abs(box.y0 + box.height / 2 - y) < 1
            assert t.get_text().replace("\n", "") == plots.MASKED_WEIGHT
        plt.close(fig)
    finally:
        set_lang(before)


# ---------------------------------------------------------------- newcomer trial 2: English sizes, legends


def cell_px(ax):
    n_q, n_k = ax.images[0].get_array().shape
    return min(ax.bbox.width / n_k, ax.bbox.height / n_q)


def in_chinese(build):
    from attn_core.lang import get_lang, set_lang

    before = get_lang()
    set_lang("zh")
    try:
        return draw(build())
    finally:
        set_lang(before)


@pytest.mark.parametrize("example", [four_words, coreference])
def test_english_heatmaps_are_as_large_as_the_chinese_ones(english, example):
    """en08 c29's 10×10 heads and en04 c10's map were much smaller than the Chinese ones: the glossed labels
    took their room from the map. The figure grows instead (up to MAX_WIDTH)."""
    ex = example()
    n = len(ex.tokens)
    A = np.full((n, n), 1 / n)
    for build in (
        lambda: plots.heatmap(A, ex.tokens, ex.tokens),
        lambda: plots.heatmaps([A, A], ["head 1", "head 2"], ex.tokens, ex.tokens),
    ):
        en = draw(build())
        zh = in_chinese(build)
        assert en.get_size_inches()[0] <= max(plots.MAX_WIDTH, zh.get_size_inches()[0]) + 1e-6
        # ten glossed words beside a second panel at MAX_WIDTH: the figure cannot grow wider, so a little less
        share = 0.9 if n <= 4 else 0.75
        assert cell_px(images(en)[0]) >= share * cell_px(images(zh)[0]), (
            cell_px(images(en)[0]),
            cell_px(images(zh)[0]),
        )
        plt.close("all")


def test_lesson_04s_english_pair_keeps_its_titles_clear_of_the_colour_bars_at_one_size(english):
    """en04 c15: "each row sums to 1" ran into the colour bar, the right title was set smaller, and each 4×4
    map was 38 px a cell beside a colour bar twice its height."""
    ex = four_words()
    A = ex.attention().A
    fig, (left, right) = plt.subplots(1, 2, figsize=(10.5, 4.6), layout="constrained")
    plots.heatmap(A, ex.tokens, ex.tokens, ax=left, title="By row (correct): each row sums to 1")
    plots.heatmap(A.T, ex.tokens, ex.tokens, ax=right, title="By column (wrong): each column sums to 1", kind="weights")
    draw(fig)
    renderer = fig.canvas.get_renderer()
    bars = [ax for ax in fig.axes if not ax.images]
    assert left.title.get_fontsize() == right.title.get_fontsize()
    for ax in (left, right):
        assert cell_px(ax) >= 55
        bar = min(bars, key=lambda b: abs(b.get_window_extent(renderer).x0 - ax.get_window_extent(renderer).x1))
        title = ax.title.get_window_extent(renderer)
        assert title.x1 <= bar.get_window_extent(renderer).x0  # clear of its colour bar
        assert abs(bar.get_window_extent(renderer).height - ax.get_window_extent(renderer).height) <= 4


def test_a_colour_bar_is_as_tall_as_its_map():
    ex = four_words()
    fig = draw(plots.heatmap(ex.attention().A, ex.tokens, ex.tokens, title="A"))
    renderer = fig.canvas.get_renderer()
    heat, bar = fig.axes[0], fig.axes[1]
    assert abs(bar.get_window_extent(renderer).height - heat.get_window_extent(renderer).height) <= 4


def test_a_punctuation_tokens_gloss_is_its_name_not_a_quoted_mark(english):
    """en08 c29: the comma token read ，“，”."""
    co = coreference()
    fig = draw(plots.heatmaps([np.full((10, 10), 0.1)] * 2, ["a", "b"], co.tokens, co.tokens))
    shown = {t.get_text() for ax in images(fig) for t in (*ax.get_xticklabels(), *ax.get_yticklabels())}
    comma = co.tokens[co.gloss.index(",")]
    assert f"{comma} “,”" not in shown and not any("“,”" in t for t in shown)
    assert {f"{comma} (comma)", f"{comma}\n(comma)"} & shown


def test_a_contributions_legend_tells_weights_apart_that_round_alike():
    """zh05 c23: 0.35 × V[喜欢] and 0.35 × V[语言] (0.347 and 0.354) under a title calling 语言's the highest."""
    a = np.array([0.1, 0.347, 0.199, 0.354])
    V = np.ones((4, 3))
    ax = draw(plots.contributions(a, V, list(four_words().tokens))).axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[1].startswith("0.347") and legend[3].startswith("0.354")
    assert "0.347" in plots.alt_text.describe_figure(ax.figure)
    apart = np.array([0.1, 0.3, 0.2, 0.4])  # apart at 2 decimals: 2 decimals
    ax = draw(plots.contributions(apart, V, list(four_words().tokens))).axes[0]
    assert ax.get_legend().get_texts()[1].get_text().startswith("0.30 ")


def test_highlighted_bars_say_what_the_highlight_means():
    """zh06 c48/c57: 动物 and 街 in orange with no legend read as "most attention"."""
    a = np.array([0.1, 0.4, 0.2, 0.3])
    tokens = list(four_words().tokens)
    ax = draw(plots.bars(a, tokens, highlight=[0, 2], highlight_label="候选")).axes[0]
    (text,) = ax.get_legend().get_texts()
    assert text.get_text() == "候选"
    patch = ax.get_legend().legend_handles[0]
    assert matplotlib.colors.to_hex(patch.get_facecolor()) == plots.HIGHLIGHT_COLOUR.lower()
    assert draw(plots.bars(a, tokens, highlight=[0, 2])).axes[0].get_legend() is None
    fig = draw(plots.compared_bars([a, a[::-1]], tokens, ["x", "y"], highlight=[0], highlight_label="候选"))
    assert fig.axes[0].get_legend() is not None and fig.axes[1].get_legend() is None


def test_the_histograms_say_what_the_dashed_lines_are():
    """zh03 c05: the orange dashed lines (± the measured std) were read as ±√d_k."""
    rng = np.random.default_rng(0)
    fig = draw(plots.dot_product_histograms({4: rng.normal(0, 2, 500), 16: rng.normal(0, 4, 500)}))
    texts = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    assert texts == [plots.msg("plot_std_lines")]


def test_a_curve_that_another_runs_on_stays_visible():
    """zh09 c15: the measured memory (×4 per doubling) lay under its reference line (n/256)²."""
    ns = np.array([256, 512, 1024, 2048])
    ref = (ns / 256) ** 2
    fig = draw(plots.line(ns, {"time": ref * 2, "memory": ref * 0.98, "reference": ref}, logx=True, logy=True))
    lines = [ln for ln in fig.axes[0].get_lines() if ln.get_label() in ("memory", "reference")]
    memory, reference = lines
    assert memory.get_markersize() > reference.get_markersize() + 3
    assert memory.get_linewidth() > reference.get_linewidth()
    assert reference.get_zorder() > memory.get_zorder()
