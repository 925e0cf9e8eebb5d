"""The course's diagrams (attn_viz.diagrams): SVG that parses, says what it shows to a screen reader, takes its
numbers and shapes from attn_core, keeps the figure rules (text ≥ 14 px inside the picture, WCAG AA contrast on
what each text is drawn on) and draws the same elements in both languages."""

import html
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from attn_core import causal_mask, multi_head_attention
from attn_core.examples import coreference, four_words
from attn_viz import columns, diagrams, fonts, svgfont
from attn_viz import svg as draw
from attn_viz.messages import msg

NS = "{http://www.w3.org/2000/svg}"
HANZI = re.compile(r"[\u4e00-\u9fff]")
EXAMPLE_WORDS = set("".join(four_words().tokens) + "".join(coreference().tokens))
NUMBER = re.compile(r"^[\[\]\d.,×→−÷√ ]+$")

DIAGRAMS = {
    "steps": lambda lang: diagrams.steps(lang=lang),
    "steps lit": lambda lang: diagrams.steps(current=3, lang=lang),
    "query row": lambda lang: diagrams.query_row(lang=lang),
    "multi-head": lambda lang: diagrams.multi_head(lang=lang),
    "encoder block": lambda lang: diagrams.encoder_block(lang=lang),
    "causal mask": lambda lang: diagrams.causal(lang=lang),
}


def parse(diagram):
    return ET.fromstring(diagram.svg)


def spelled(text):
    """The words of a <text> as typed: a subscript (d_k's k, a lowered <tspan>) written back after an "_"."""
    out = text.text or ""
    for span in text:
        lowered = span.get("dy") is not None and not span.get("dy").startswith("-")  # (√'s pull has no dy)
        out += ("_" if lowered else "") + (span.text or "") + (span.tail or "")
    return out


def texts(diagram):
    """(x, y, size, anchor, fill, text) of every <text>, in drawing order."""
    return [
        (
            float(t.get("x")),
            float(t.get("y")),
            float(t.get("font-size")),
            t.get("text-anchor", "start"),
            t.get("fill"),
            spelled(t),
        )
        for t in parse(diagram).iter(NS + "text")
    ]


def words(diagram):
    return [t[-1] for t in texts(diagram)]


def rects(diagram):
    return [
        (float(r.get("x")), float(r.get("y")), float(r.get("width")), float(r.get("height")), r.get("fill"))
        for r in parse(diagram).iter(NS + "rect")
    ]


def extent(x, size, anchor, text):
    width = draw.text_width(text, size)
    start = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return start, start + width


def background(diagram, x, y):
    """The fill of the last rect drawn under (x, y), else the picture's white."""
    under = [fill for rx, ry, w, h, fill in rects(diagram) if rx <= x <= rx + w and ry <= y <= ry + h]
    under = [fill for fill in under if fill and fill != "none"]
    return under[-1] if under else draw.WHITE


@pytest.fixture(params=list(DIAGRAMS))
def name(request):
    return request.param


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_diagram_is_svg_with_a_title_and_a_description_in_its_language(name, lang):
    diagram = DIAGRAMS[name](lang)
    root = parse(diagram)
    assert root.tag == NS + "svg" and root.get("role") == "img"
    # the embedded subset of the course font first, then the course's CJK-first family
    assert root.get("font-family") == f"'{svgfont.FAMILY}', {draw.FONT_FAMILY}"
    title, desc = root.find(NS + "title").text, root.find(NS + "desc").text
    assert title == diagram.title and desc == diagram.description and len(desc) > 60
    foreign = set(HANZI.findall(title + desc + "".join(words(diagram)))) - EXAMPLE_WORDS
    assert bool(foreign) == (lang == "zh"), foreign  # Chinese words only in the Chinese picture
    assert ' id="' not in diagram.svg  # deterministic text: nothing that changes from run to run
    assert DIAGRAMS[name](lang).svg == diagram.svg


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_text_is_at_least_14px_inside_the_picture_and_meets_aa_contrast_on_what_it_is_drawn_on(name, lang):
    diagram = DIAGRAMS[name](lang)
    width = float(parse(diagram).get("width"))
    for x, y, size, anchor, fill, text in texts(diagram):
        assert size >= draw.MIN_FONT, text
        left, right = extent(x, size, anchor, text)
        assert left >= 0 and right <= width, f"{text!r} runs off the picture ({left:.0f}–{right:.0f} of {width:.0f})"
        behind = background(diagram, (left + right) / 2, y - 0.35 * size)
        assert draw.contrast(fill, behind) >= draw.AA_CONTRAST, f"{text!r}: {fill} on {behind}"


def test_both_languages_draw_the_same_elements_and_numbers(name):
    zh, en = DIAGRAMS[name]("zh"), DIAGRAMS[name]("en")

    def shapes(diagram):  # every element but the text, whose line breaks differ between the languages
        return [(el.tag, el.get("fill")) for el in parse(diagram).iter() if el.tag != NS + "text"]

    assert shapes(zh) == shapes(en)
    assert [w for w in words(zh) if NUMBER.match(w)] == [w for w in words(en) if NUMBER.match(w)]


def test_the_strip_shows_each_matrix_with_the_shape_attn_core_computes_and_lights_one_step():
    for example in (four_words(), coreference()):
        t = example.attention()
        shown = words(diagrams.steps(example=example))
        for M in (t.X, t.Q, t.K, t.V, t.QKT, t.S, t.A, t.O):
            assert "×".join(map(str, M.shape)) in shown
        assert f"÷√{t.d_k}" in shown
    assert "10×10" in words(diagrams.steps(example=coreference()))  # n × n for ten words

    def lit(diagram):
        return sum(fill == diagrams.LIT for *_, fill in rects(diagram))

    assert lit(diagrams.steps()) == 0
    assert lit(diagrams.steps(current=1)) == 3  # Q, K and V
    assert [lit(diagrams.steps(current=k)) for k in (2, 3, 4, 5)] == [1, 1, 1, 1]
    assert "本课：第 4 步（softmax）" in words(diagrams.steps(current=4, lang="zh"))
    with pytest.raises(ValueError):
        diagrams.steps(current=6)


@pytest.mark.parametrize("token", ["学习", "我"])
def test_the_query_row_prints_attn_cores_scores_weights_and_output(token):
    ex = four_words()
    t, i = ex.attention(), ex.index(token)
    shown = words(diagrams.query_row(token))
    for j in range(len(ex.tokens)):
        for value in (t.QKT[i, j], t.S[i, j], t.A[i, j]):
            assert draw.fmt(value) in shown
    assert "[" + ", ".join(draw.fmt(x) for x in t.O[i]) + "]" in shown
    assert "[" + ", ".join(draw.fmt(x) for x in t.Q[i]) + "]" in " ".join(shown)
    desc = diagrams.query_row(token, lang="en").description
    assert f"{ex.tokens[0]} {draw.fmt(t.A[i, 0])}" in desc and "√3" in desc


def test_the_query_row_says_its_printed_parts_are_rounded_when_they_do_not_add_up_to_the_sum():
    # 学习's third components: the printed parts add up to 0.09, the printed (unrounded) sum is 0.08
    ex = four_words()
    t, i = ex.attention(), ex.index("学习")
    parts = [float(draw.fmt(x).replace("−", "-")) for x in t.A[i] * t.V[:, 2]]  # fmt prints a true minus
    assert draw.fmt(sum(parts)) != draw.fmt(t.O[i, 2])
    assert "rounded to 2 decimals" in " ".join(words(diagrams.query_row("学习", lang="en")))
    assert "四舍五入到两位小数" in "".join(words(diagrams.query_row("学习", lang="zh")))


@pytest.mark.parametrize("n, d_model, n_heads", [(5, 12, 3), (3, 8, 2), (6, 12, 4)])
def test_multi_head_shapes_are_those_of_multi_head_attention(n, d_model, n_heads):
    X = np.ones((n, d_model))
    mh = multi_head_attention(X, X, np.eye(d_model), np.eye(d_model), np.eye(d_model), np.eye(d_model), n_heads)
    d = diagrams.multi_head(n, d_model, n_heads)
    shown = words(d)
    d_head = d_model // n_heads
    assert shown.count(f"{n}×{d_head}") == 2 * n_heads  # each head's Q, K, V and its output
    assert shown.count(f"{n}×{n}") == n_heads  # each head's weights
    assert "×".join(map(str, mh.concat.shape)) in shown and "×".join(map(str, mh.O.shape)) in shown
    assert sum(w.startswith("A") and w[1:].isdigit() for w in shown) == n_heads
    # Q, K, V are n × h·d_head in general; d_model only because these W are d_model × d_model
    assert shown.count("n×h·d_head") == 2 and "n×d_model" in " ".join(shown)
    assert "(= n×d_model here)" in " ".join(words(diagrams.multi_head(n, d_model, n_heads, lang="en")))
    with pytest.raises(ValueError):
        diagrams.multi_head(n_heads=5, d_model=20)


def test_the_encoder_block_draws_post_ln_and_pre_ln_with_their_residuals():
    d = diagrams.encoder_block(n=4, d_model=8, d_ff=32, lang="zh")
    shown = words(d)
    # two per layout, and the pre-LN stack's final one after its last block
    assert shown.count("层归一化") == 5 and shown.count("残差") == 4
    assert shown.count("4×8") == 6 and shown.count("前馈网络 8→32→8") == 2
    assert "16×64" in words(diagrams.encoder_block(n=16, d_model=64, d_ff=256))
    # post-LN: LayerNorm after the sum; pre-LN: LayerNorm before each sublayer
    order = [w for w in shown if w in ("层归一化", "多头自注意力（2 头）", "前馈网络 8→32→8")]
    assert order[:4] == ["多头自注意力（2 头）", "层归一化", "前馈网络 8→32→8", "层归一化"]
    assert order[4:] == ["层归一化", "多头自注意力（2 头）", "层归一化", "前馈网络 8→32→8", "层归一化"]
    assert "整个堆叠只做一次：" in shown and "在最后一层之后" in shown  # the final one: once, after the last block
    assert words(diagrams.encoder_block(lang="en")).count("LayerNorm") == 5  # the English edition's name
    assert "after its last block" in words(diagrams.encoder_block(lang="en"))


@pytest.mark.parametrize("tokens", [None, ("a", "b", "c", "d", "e", "f")])
def test_the_causal_mask_cells_are_attn_cores_mask_and_the_shift_pairs_each_word_with_the_next(tokens):
    d = diagrams.causal(tokens, lang="en")
    tokens = list(tokens or four_words().tokens)
    n = len(tokens)
    cells = [(x, y, w) for x, y, _, _, _, w in texts(d) if w in ("True", "False")]
    xs, ys = sorted({x for x, _, _ in cells}), sorted({y for _, y, _ in cells})
    assert len(xs) == len(ys) == n
    grid = np.array([[w == "True" for x, y, w in sorted(cells, key=lambda c: (c[1], c[0]))]]).reshape(n, n)
    assert np.array_equal(grid, causal_mask(n))
    for a, b in zip(tokens[:-1], tokens[1:]):
        assert f"{a} → {b}" in d.description


def test_a_notebook_shows_the_svg_and_an_image_whose_alt_is_the_description():
    d = diagrams.steps(current=2, lang="en")
    bundle = d._repr_mimebundle_()
    assert bundle["image/svg+xml"] == d.svg and bundle["text/plain"] == d.alt_text()
    src, alt = re.fullmatch(r'<img src="([^"]+)" alt="([^"]+)" style="[^"]+"/>', bundle["text/html"]).groups()
    assert html.unescape(src) == draw.data_uri(d.svg)
    assert html.unescape(alt) == f"{d.title}. {d.description}"


# ---------------------------------------------------------------- printed rows that line up (attn_viz.columns)


def widths(text):
    """Width of ``text`` in a terminal (a hanzi = 2 columns) and in a browser's monospace output, where a
    hanzi comes from a CJK font at 1 em and a Latin character is 0.6 em."""
    narrow, wide = columns.counts(text)
    return narrow + 2 * wide, round(0.6 * narrow + 1.0 * wide, 6)


def test_padded_labels_are_as_wide_in_a_terminal_and_in_a_browser():
    labels = ["矩阵乘法得到的“学习”行：", "手算的四个数：", "QKᵀ 的对角线：", "M", "weights (by hand):"]
    padded = columns.pad(labels)
    assert [p.rstrip(" \u3000") for p in padded] == [label.rstrip() for label in labels]
    assert len({widths(p) for p in padded}) == 1
    # display width alone (what a terminal needs) is not enough in the browser
    by_display = [label + " " * (26 - (columns.counts(label)[0] + 2 * columns.counts(label)[1])) for label in labels]
    assert len({widths(p)[0] for p in by_display}) == 1 and len({widths(p)[1] for p in by_display}) > 1


def test_aligned_rows_start_every_value_and_every_matrix_line_in_one_column():
    row = np.array([-0.348, 1.799, 0.823, 1.834])
    text = columns.aligned(("矩阵乘法得到的“学习”行：", row), ("手算的四个数：", row), ("I", np.eye(2)))
    lines = text.split("\n")
    assert len(lines) == 4 and lines[0].endswith(str(row)) and lines[1].endswith(str(row))
    starts = [widths(line[: line.index("[")]) for line in lines]
    assert starts[0] == starts[1] == starts[2] and widths(lines[3][: lines[3].index("[")]) == widths(
        lines[2][: lines[2].index("[") + 1]
    )
    assert columns.aligned() == ""


def test_chinese_labels_ending_in_a_colon_are_right_aligned_with_nothing_after_the_colon():
    row = np.array([0.1, 0.9])
    text = columns.aligned(("核权重：", row), ("softmax 权重：", row), ("I：", np.eye(2)))
    lines = text.split("\n")
    assert [line.lstrip(" \u3000")[: line.lstrip(" \u3000").index("：") + 2] for line in lines[:3]] == [
        "核权重：[",
        "softmax 权重：[",
        "I：[",
    ]
    ends = [widths(line[: line.index("：") + 1]) for line in lines[:3]]
    assert len(set(ends)) == 1
    assert widths(lines[3][: lines[3].index("[")]) == widths(lines[2][: lines[2].index("[") + 1])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_diagram_carries_a_font_with_every_character_it_draws(name, lang):
    """As an <img> the SVG sees no page font: on a machine without a CJK font its hanzi are boxes unless
    the picture brings their glyphs (checked in Chromium with only DejaVu visible: boxes without it)."""
    import base64
    import io

    from fontTools.ttLib import TTFont

    svg = DIAGRAMS[name](lang).svg
    assert svg.startswith("<svg") and f"font-family=\"'{svgfont.FAMILY}'," in svg[: svg.index(">")]
    data = re.search(r"url\(data:font/otf;base64,([A-Za-z0-9+/=]+)\)", svg)
    assert data, "no embedded font"
    cmap = TTFont(io.BytesIO(base64.b64decode(data.group(1)))).getBestCmap()
    drawn = {
        c
        for t in re.findall(r"<text[^>]*>(.*?)</text>", svg, flags=re.S)
        for c in html.unescape(re.sub(r"<[^>]+>", "", t))  # a subscript's <tspan> is markup
    }
    bundled = TTFont(fonts.BUNDLED_PATH).getBestCmap()
    # every character the course font has is embedded; one it lacks (ᵀ) is drawn by a system font
    missing = sorted(c for c in drawn if not c.isspace() and ord(c) in bundled and ord(c) not in cmap)
    assert all(ord(c) in bundled for c in drawn if "\u4e00" <= c <= "\u9fff"), "a hanzi the course font lacks"
    assert not missing, f"{name}: the embedded font lacks {missing}"
    assert svgfont.subset_font("学习") == svgfont.subset_font("学习")  # the same bytes every time


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_strips_step_names_are_one_line_each_and_their_numbers_one_row_under_the_heading(lang):
    shown = texts(diagrams.steps(current=5, lang=lang))
    numbers = [(y, size) for x, y, size, anchor, fill, text in shown if text in {"1", "2", "3", "4", "5"}]
    assert len(numbers) == 5 and len({y for y, _ in numbers}) == 1  # one row, none pushed up into the heading
    heading_y = shown[0][1]
    assert numbers[0][0] - numbers[0][1] > heading_y + 8
    names = [msg.text(f"dg_step_{k}", lang) for k in diagrams.STEPS]
    assert all("\n" not in name for name in names)
    assert msg.text("dg_steps_lit", lang, step=5, name=names[4]) in [t[-1] for t in shown]


def test_d_k_is_drawn_with_a_real_subscript_in_every_picture():
    svg = diagrams.steps(lang="en").svg
    assert ">n×d_k<" not in svg and 'n×d<tspan dy="4.8" font-size="14">k</tspan>' in svg
    assert draw.marked_up("d_k = 64, d_v", 16) == (
        'd<tspan dy="4.8" font-size="14">k</tspan><tspan dy="-4.8"> = 64, </tspan>'
        'd<tspan dy="4.8" font-size="14">v</tspan>'
    )
    assert draw.marked_up("odd_k & d_kx", 16) == "odd_k &amp; d_kx"  # only the names themselves


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_strips_text_is_at_least_16px_and_nothing_follows_the_root_sign_with_a_gap(lang):
    """Lessons 01–06: the strip's 14-px labels read as about 12 px on a projector, and "√ d_k" had a gap
    (the font's √ is 1 em wide): its text is now 16 px and more, and what follows √ is pulled in."""
    diagram = diagrams.steps(current=3, lang=lang)
    assert min(size for _, _, size, _, _, text in texts(diagram) if text.strip()) >= 16
    assert float(parse(diagram).get("width")) <= 1100  # shown unscaled in JupyterLab's output on a 1280-px screen
    pulled = f'<tspan letter-spacing="-{16 * draw.RADICAL_PULL:.1f}">√</tspan>'
    assert pulled + "3" in diagram.svg and pulled + "d<tspan" in diagram.svg
    assert "S = QKᵀ/√d_k" in words(diagram) and "÷√3" in words(diagram)


# ---------------------------------------------------------------- newcomer trial 2


def test_the_english_causal_mask_glosses_its_tokens_in_the_grid_and_the_shift():
    """en07 c11: 我 / 喜欢 / 学习 / 语言 had no English gloss, where every other English figure has one."""
    ex = four_words()
    shown = [text for *_, text in texts(diagrams.causal(lang="en"))]
    for token, gloss in zip(ex.tokens, ex.gloss):
        # a column header, a row label, and (but the last) an input box; (but the first) a predicted box
        assert shown.count(f"“{gloss}”") == 2 + (token != ex.tokens[-1]) + (token != ex.tokens[0]), gloss
    zh = [text for *_, text in texts(diagrams.causal(lang="zh"))]
    assert not any(text.startswith("“") for text in zh)


def test_the_english_causal_masks_glosses_do_not_run_into_each_other():
    """“study”“language” touched over the 60-px columns: a column is as wide as its widest gloss."""
    ex = four_words()
    headers = [
        (x, text) for x, y, size, anchor, fill, text in texts(diagrams.causal(lang="en")) if text.startswith("“")
    ]
    headers = headers[: len(ex.tokens)]  # the columns' glosses come first
    widest = max(draw.text_width(text, 14) for _, text in headers)
    xs = [x for x, _ in headers]
    assert min(b - a for a, b in zip(xs, xs[1:])) >= widest + 6


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_steps_number_and_name_sit_over_the_box_it_produces(lang):
    """zh02 c03: "2 打分" sat over the arrow, left of the highlighted QKᵀ box it names."""
    d = diagrams.steps(current=2, lang=lang)
    shown = texts(d)
    boxes = {text: x for x, y, size, anchor, fill, text in shown if text in ("QKᵀ", "S", "A", "O") and size == 20}
    numbers = {text: x for x, y, size, anchor, fill, text in shown if text in {"2", "3", "4", "5"} and size == 18}
    assert boxes["QKᵀ"] == numbers["2"] and boxes["S"] == numbers["3"]
    assert boxes["A"] == numbers["4"] and boxes["O"] == numbers["5"]
    name = msg.text("dg_step_2", lang)
    assert [x for x, *_, text in shown if text == name] == [numbers["2"]]
