"""Every figure of the course carries alt text that says what it shows and its key numbers, in the
notebook's language, built when the figure is shown (so labels changed after plotting are the ones read)."""

import base64
import html
import re

import matplotlib.pyplot as plt
import numpy as np
import pytest

from attn_core.examples import four_words
from attn_viz import alt_text, plots

EX = four_words()
A = EX.attention().A


@pytest.fixture(autouse=True)
def close_figures():
    """Every test starts in Chinese (the default; a test elsewhere in the same worker may have left English
    set: the module's expectations are the Chinese texts) and closes its figures."""
    from attn_core import set_lang

    set_lang("zh")
    yield
    plt.close("all")


def test_a_small_heatmap_is_read_row_by_row_with_every_value():
    words = alt_text.describe_figure(plots.heatmap(A, EX.tokens, EX.tokens, title="权重 $QK^\\top$"))
    assert words.startswith("图：热力图“权重 QKᵀ”，行 = 查询（谁在问），列 = 键（被问的词）")
    for i, query in enumerate(EX.tokens):
        row = "、".join(f"{key} {A[i, j]:.2f}" for j, key in enumerate(EX.tokens))
        assert f"{query} → {row}" in words


def test_a_large_heatmap_gives_each_rows_largest_value():
    M = np.random.default_rng(0).dirichlet(np.ones(8), size=8)
    labels = [f"t{k}" for k in range(8)]
    words = alt_text.describe_figure(plots.heatmap(M, labels, labels))
    assert "每一行最大的值" in words
    j = int(np.argmax(M[3]))
    assert f"t3 → t{j} {M[3, j]:.2f}；" in words
    assert words.count("→") == 8
    thinned = [label if k % 4 == 0 else "" for k, label in enumerate(labels)]  # as lesson 15 labels its ticks
    words = alt_text.describe_figure(plots.heatmap(M, thinned, thinned))
    assert f"3 → {j} {M[3, j]:.2f}；" in words


def test_a_uniform_row_is_said_to_be_uniform_not_to_prefer_its_first_key(english):
    """Lesson 8's two heads: a word with a zero query has every score 0, so its weights are exactly 1/n on
    every key; naming the first key as its "largest value" would read as a preference."""
    M = np.random.default_rng(0).dirichlet(np.ones(10), size=10)
    M[1] = 0.1
    M[4] = np.full(10, 0.1) + 1e-12 * np.arange(10)  # equal up to rounding: still uniform
    labels = [f"t{k}" for k in range(10)]
    words = alt_text.describe_figure(plots.heatmap(M, labels, labels, kind="weights"))
    assert "t1 → uniform, 0.10 on every key; " in words and "t4 → uniform, 0.10 on every key; " in words
    assert "t1 → t0" not in words and words.count("uniform") == 2
    j = int(np.argmax(M[3]))
    assert f"t3 → t{j} {M[3, j]:.2f}; " in words  # the other rows still name their largest value
    from attn_core import set_lang

    set_lang("zh")
    words = alt_text.describe_figure(plots.heatmap(M, labels, labels, kind="weights"))
    assert "t1 → 均匀，每个键都是 0.10；" in words
    S = np.zeros((10, 10))
    S[2, 5] = 1.0
    words = alt_text.describe_figure(plots.heatmap(S, labels, labels))  # scores: columns, not "keys"
    assert "t0 → 每一列都是 0.00；" in words and "t2 → t5 1.00；" in words


def test_histogram_outlines_are_read_by_their_samples_not_by_the_noise_of_their_bins(english):
    """Lesson 3's scaled dot products: the curves' peaks sit in whichever bin the noise favours, so the alt
    text gives each set of samples' mean and standard deviation and the curve's highest value."""
    rng = np.random.default_rng(0)
    samples = {f"$d_k$ = {d}": rng.standard_normal((5000, d)).sum(axis=1) / np.sqrt(d) for d in (4, 64)}
    edges = np.linspace(-4, 4, 33)
    curves = {label: np.histogram(x, bins=edges, density=True)[0] for label, x in samples.items()}
    centers = (edges[:-1] + edges[1:]) / 2
    words = alt_text.describe_figure(plots.line(centers, curves, samples=samples, ylabel="density"))
    x = samples["$d_k$ = 64"]
    assert "density: each curve outlines the histogram of a set of samples; “d_k = 4”: samples with mean " in words
    assert f"“d_k = 64”: samples with mean {x.mean():.2f} and std {x.std():.2f}" in words
    assert f"the curve's highest value {curves['$d_k$ = 64'].max():.2f}." in words
    assert "peaks at" not in words
    with pytest.raises(ValueError, match="samples"):
        plots.line(centers, curves, samples={"other": x})


def test_labels_changed_after_plotting_are_the_ones_read_and_panels_share_them():
    fig = plots.heatmaps([A, A], ["左", "右"], EX.tokens, EX.tokens)
    fig.axes[0].set_ylabel("输出位置")
    words = alt_text.describe_figure(fig)
    assert words.count("行 = 输出位置") == 2  # the right panel has no y label of its own
    assert "热力图“左”" in words and "热力图“右”" in words


def test_masked_scores_are_read_as_minus_infinity():
    S = np.where(np.tri(4, dtype=bool), A, -np.inf)
    words = alt_text.describe_figure(plots.heatmap(S, EX.tokens, EX.tokens))
    assert "喜欢 −∞" in words and "6 个被掩码挡住的方格画斜线（−∞）" in words
    assert "分数，蓝色为负、白色为 0、红色为正" in words


def test_the_scale_of_a_weight_map_and_its_masked_cells_are_said(english):
    mask = np.tri(4, dtype=bool)
    words = alt_text.describe_figure(plots.heatmap(EX.attention(mask=mask).A, EX.tokens, EX.tokens, mask=mask))
    assert (
        "attention weights, brighter = larger (fixed scale 0 to 1), 6 masked cells hatched (score −∞, weight 0)"
        in words
    )
    words = alt_text.describe_figure(plots.heatmap(A, EX.tokens, EX.tokens))
    assert "(fixed scale 0 to 1);" in words and "masked" not in words
    reach = np.tri(4)  # not weights: read with the label it was given
    words = alt_text.describe_figure(plots.heatmap(reach, EX.tokens, EX.tokens, label="1 = changes it"))
    assert "1 = changes it, blue = negative, white = 0, red = positive (−1.00 to 1.00)" in words


def test_bars_histograms_contributions_and_curves(english):
    words = alt_text.describe_figure(plots.bars(A[2], EX.tokens, highlight="喜欢", title="weights"))
    values = ", ".join(f"{t} {x:.2f}" for t, x in zip(EX.tokens, A[2]))
    assert words == f"Figure: bar chart “weights”: {values}; highlighted: 喜欢."
    rng = np.random.default_rng(0)
    samples = {d: rng.standard_normal((2000, d)).sum(axis=1) for d in (4, 16)}
    words = alt_text.describe_figure(plots.dot_product_histograms(samples))
    assert words.count("histograms") == 1 and f"d_k = 16: std {samples[16].std():.2f}, √d_k = 4.00" in words
    words = alt_text.describe_figure(plots.contributions(A[2], EX.attention().V, EX.tokens))
    assert words.startswith("Figure: grouped bar chart") and "stacked" not in words
    assert "the black bar after them is their sum, the output O_i: dim 0 " in words
    xs = np.array([1.0, 2.0, 4.0, 8.0])
    curves = {"up": xs**2, "down": 1 / xs, "flat": np.ones(4), "hill": np.array([1.0, 5.0, 2.0, 1.0])}
    words = alt_text.describe_figure(plots.line(xs, curves, logx=True, xlabel="$n$", title="growth"))
    assert "x axis n (1 to 8, log scale)" in words
    assert "“up” rises, “down” falls, “flat” stays about level, “hill” peaks at 2" in words
    words = alt_text.describe_figure(plots.line(xs, {"up": xs**2}, marks=[4]))
    assert words.endswith("“up” rises; marked points: 16.00 at 4.")


def test_a_curve_that_goes_up_and_down_or_jumps_and_then_gets_stuck_is_not_said_to_just_fall(english):
    xs = np.arange(50.0)
    wavy = 8 - xs / 10 + np.cos(xs)  # falls overall, with ups and downs of about 2 on the way
    stuck = np.concatenate([[12.0, 9.0, 11.0, 8.5, 10.5], np.full(45, 10.3)])
    smooth = 7 * np.exp(-xs / 5)
    words = alt_text.describe_figure(plots.line(xs, {"wavy": wavy, "stuck": stuck, "smooth": smooth}))
    assert "“wavy” falls overall, but goes up and down on the way" in words
    assert "“stuck” jumps up and down at first, then stays about level from about 4 on" in words
    assert "“smooth” falls." in words
    assert alt_text.trend(xs, 5 + 0.01 * np.cos(xs)) == "stays about level"  # wiggles smaller than the tolerance


def test_a_staircase_is_described_as_one_jump_and_neq_is_read_as_not_equal(english):
    ts = np.linspace(0, 1, 51)
    hard = np.where(ts < 0.595, 1.0, 0.1)  # lesson 1's hard retrieval: flat, one drop, flat
    words = alt_text.describe_figure(plots.line(ts, {"hard": hard, "soft": 1 - 0.9 * ts**2}))
    assert "“hard” flat at 1.00, then a single jump to 0.10 near 0.59, flat again after" in words
    assert "“soft” falls." in words
    assert alt_text.plain("$W_K \\neq W_Q$") == "W_K ≠ W_Q"


def test_a_figure_drawn_without_plots_is_described_by_its_titles_and_labels():
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    ax.set(title="损失", xlabel="步数", ylabel="loss")
    assert alt_text.describe_figure(fig) == "图：坐标图“损失”（横轴 步数，纵轴 loss）。"


def test_a_kernel_shows_the_figure_as_an_image_with_its_alt_text():
    """In IPython the PNG is published as is, plus an <img alt=…> of the same PNG (what JupyterLab shows)."""
    from IPython.core.displaypub import CapturingDisplayPublisher
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.core.pylabtools import select_figure_formats
    from IPython.display import display

    shell = InteractiveShell.instance()
    select_figure_formats(shell, {"png"})
    shell.display_pub = CapturingDisplayPublisher()
    alt_text.install()
    fig = plots.heatmap(A, EX.tokens, EX.tokens)
    display(fig)
    (output,) = shell.display_pub.outputs
    data, metadata = output["data"], output["metadata"]
    assert data["text/plain"].startswith("<Figure size")  # unchanged: nbval compares it
    png = data["image/png"]
    src, alt = re.fullmatch(r'<img src="data:image/png;base64,([^"]+)" alt="([^"]+)"/>', data["text/html"]).groups()
    assert src == (png if isinstance(png, str) else base64.b64encode(png).decode())  # the same PNG
    assert html.unescape(alt) == metadata["image/png"]["alt"] == alt_text.describe_figure(fig)
