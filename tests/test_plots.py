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


def test_zero_weights_of_masked_cells_stay_readable():
    ex = four_words()
    A = ex.attention(mask=causal_mask(4)).A
    fig = draw(plots.heatmap(A, ex.tokens, ex.tokens))
    (ax,) = images(fig)
    im = ax.images[0]
    for t, v in zip(cell_texts(ax), A.ravel()):
        cell = im.cmap(im.norm(v))
        assert abs(luminance(t.get_color()) - luminance(cell)) > 0.4, (t.get_text(), cell)
    assert [t.get_text() for t in cell_texts(ax)].count("0.00") == 6


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
    for ax, (d, x) in zip(fig.axes, sorted(samples.items())):
        (note,) = ax.texts
        assert f"{x.std():.2f}" in note.get_text()
        assert r"$\sqrt{d_k}$" in note.get_text() and f"{np.sqrt(d):.2f}" in note.get_text()
        assert str(d) in ax.get_title()
        assert sum(p.get_height() for p in ax.patches) == x.size
    with pytest.raises(ValueError, match="d_k"):
        plots.dot_product_histograms({0: [1.0, 2.0]})


def test_contributions_stack_to_the_output_row():
    ex = four_words()
    trace = ex.attention()
    i = ex.index("学习")
    fig = draw(plots.contributions(trace.A[i], trace.V, ex.tokens))
    (ax,) = fig.axes
    assert len(ax.get_legend().get_texts()) == 5
    assert [t.get_text() for t in ax.get_xticklabels()] == [tr(f"第 {d} 个分量", f"dim {d}") for d in range(3)]
    _assert_stacks_sum_to(ax, trace.O[i])


def _assert_stacks_sum_to(ax, O):
    """Per dimension, positive pieces tile upwards from 0 and negative ones downwards, with no gap or
    overlap, so the stack's net height is O; the black marks sit at O."""
    totals = np.zeros(len(O))
    for d in range(len(O)):
        pieces = [p for p in ax.patches if round(p.get_x() + p.get_width() / 2) == d and p.get_height() != 0]
        for sign in (1, -1):
            edge = 0.0
            for p in sorted((p for p in pieces if np.sign(p.get_height()) == sign), key=lambda p: sign * p.get_y()):
                assert p.get_y() == pytest.approx(edge, abs=1e-9)
                edge += p.get_height()
            totals[d] += edge
    np.testing.assert_allclose(totals, O, atol=1e-9)
    (marks,) = ax.collections
    np.testing.assert_allclose([seg[0][1] for seg in marks.get_segments()], O)


@settings(max_examples=10)
@given(
    st.integers(1, 5).flatmap(
        lambda n: st.tuples(
            arrays(float, n, elements=st.floats(0, 1)), arrays(float, (n, 3), elements=st.floats(-5, 5))
        )
    )
)
def test_contributions_always_stack_to_weights_times_values(case):
    a, V = case
    fig = plots.contributions(a, V, [f"词{j}" for j in range(a.size)], dim_labels=["x", "y", "z"], title="混合")
    _assert_stacks_sum_to(fig.axes[0], a @ V)
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
