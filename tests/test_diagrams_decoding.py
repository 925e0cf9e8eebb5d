"""The diagrams of lessons 13 and 14 (attn_viz.diagrams_decoding): SVG with a title and a description in its
language, the figure rules of tests/test_diagrams.py (text ≥ 14 px inside the picture, AA contrast on what it
is drawn on, the same elements in both languages), and the numbers and shapes attn_core gives."""

import numpy as np
import pytest

from attn_core import KVCache, decode_step, kv_cache_bytes
from attn_core.decoding import repeat_kv_heads
from attn_core.examples import four_words
from attn_viz import diagrams_decoding as dd
from attn_viz import svg as draw
from tests.test_diagrams import HANZI, NUMBER, background, extent, parse, texts, words

EXAMPLE_WORDS = set("".join(four_words().tokens))
NS = "{http://www.w3.org/2000/svg}"

DIAGRAMS = {
    "in_proj": lambda lang: dd.in_proj(lang=lang),
    "in_proj one head": lambda lang: dd.in_proj(n_heads=1, lang=lang),
    "kv cache": lambda lang: dd.kv_cache(lang=lang),
    "gqa": lambda lang: dd.gqa(lang=lang),
    "gqa 32": lambda lang: dd.gqa(n_heads=12, kv_heads=(12, 4, 1), lang=lang),
}


@pytest.fixture(params=list(DIAGRAMS))
def name(request):
    return request.param


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_diagram_is_svg_with_a_title_and_a_description_in_its_language(name, lang):
    diagram = DIAGRAMS[name](lang)
    root = parse(diagram)
    assert root.tag == NS + "svg" and root.get("role") == "img"
    title, desc = root.find(NS + "title").text, root.find(NS + "desc").text
    assert title == diagram.title and desc == diagram.description and len(desc) > 60
    assert diagram.alt_text().startswith(title) and desc in diagram.alt_text()  # the <img>'s alt
    foreign = set(HANZI.findall(title + desc + "".join(words(diagram)))) - EXAMPLE_WORDS
    assert bool(foreign) == (lang == "zh"), foreign
    assert ' id="' not in diagram.svg and DIAGRAMS[name](lang).svg == diagram.svg


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_text_is_at_least_14px_inside_the_picture_and_meets_aa_contrast(name, lang):
    diagram = DIAGRAMS[name](lang)
    root = parse(diagram)
    width, height = float(root.get("width")), float(root.get("height"))
    for x, y, size, anchor, fill, text in texts(diagram):
        assert size >= draw.MIN_FONT, text
        left, right = extent(x, size, anchor, text)
        assert left >= 0 and right <= width, f"{text!r} runs off the picture ({left:.0f}–{right:.0f} of {width:.0f})"
        assert size <= y <= height - 2, f"{text!r} runs off the top or bottom"
        behind = background(diagram, (left + right) / 2, y - 0.35 * size)
        assert draw.contrast(fill, behind) >= draw.AA_CONTRAST, f"{text!r}: {fill} on {behind}"


def test_no_two_texts_overlap(name):
    for lang in ("zh", "en"):
        boxes = []
        for x, y, size, anchor, _, text in texts(DIAGRAMS[name](lang)):
            left, right = extent(x, size, anchor, text)
            boxes.append((left, right, y - 0.8 * size, y + 0.2 * size, text))
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                apart = a[1] <= b[0] + 1 or b[1] <= a[0] + 1 or a[3] <= b[2] + 1 or b[3] <= a[2] + 1
                assert apart, (lang, a[-1], b[-1])


def test_both_languages_draw_the_same_elements_and_numbers(name):
    zh, en = DIAGRAMS[name]("zh"), DIAGRAMS[name]("en")

    def shapes(diagram):
        return [(el.tag, el.get("fill")) for el in parse(diagram).iter() if el.tag != NS + "text"]

    assert shapes(zh) == shapes(en)
    assert [w for w in words(zh) if NUMBER.match(w)] == [w for w in words(en) if NUMBER.match(w)]


def test_in_proj_weight_is_the_examples_w_q_w_k_w_v_transposed_and_stacked():
    ex = four_words()
    stacked = np.concatenate([ex.W_q.T, ex.W_k.T, ex.W_v.T])
    d = dd.in_proj(lang="en")
    shown = words(d)
    cells = [w for w in shown if NUMBER.match(w) and "." in w]
    expected = [draw.fmt(x) for x in stacked.ravel()] + [draw.fmt(x) for x in ex.W_q.ravel()]
    assert cells == expected  # in_proj_weight row by row, then the course's W_Q = in_proj_weight[:3].T
    assert f"in_proj_weight  {stacked.shape[0]}×{stacked.shape[1]}" in shown
    assert "W_Q = in_proj_weight[:3].T  3×3" in shown
    blocks = [w for w in shown if w.startswith("in_proj_weight[")][:3]
    assert blocks == [f"in_proj_weight[{a}:{a + 3}]" for a in (0, 3, 6)]
    assert shown.count("head 3") == 4 and "head 2" not in words(dd.in_proj(n_heads=1, lang="en"))


def test_the_cache_grows_a_row_a_step_as_decode_step_makes_it_and_recomputing_scores_t_by_t():
    ex = four_words()
    d = dd.kv_cache(lang="en")
    shown = words(d)
    cache = KVCache.empty(3, 3)
    for t in range(4):
        _, cache = decode_step(ex.X[t : t + 1], ex.W_q, ex.W_k, ex.W_v, cache)
        assert f"cache K {t + 1}×3, V {t + 1}×3" in shown and cache.K.shape == (t + 1, 3)
        assert f"q·Kᵀ → scores 1×{t + 1}" in shown and f"scores {t + 1}×{t + 1}" in shown
    assert "step 4 (语言): the cache K becomes 4×3" in d.description
    # lit: each step's q, its new k and v, and the last row (t cells) of each recomputed t × t grid
    lit = sum(r.get("fill") == dd.NEW for r in parse(d).iter(NS + "rect"))
    assert lit == 4 + 2 * 4 + (1 + 2 + 3 + 4)
    again = sum(r.get("fill") == dd.AGAIN for r in parse(d).iter(NS + "rect"))
    assert again == sum(t * t - t for t in range(1, 5))  # every earlier row recomputed, masked scores too


def test_gqa_joins_each_query_head_to_the_k_v_head_repeat_kv_heads_gives_it_and_sizes_the_cache():
    d = dd.gqa(lang="en")
    shown = words(d)
    for g in (8, 2, 1):
        serves = repeat_kv_heads(np.arange(g).reshape(g, 1, 1), 8).ravel()
        assert list(serves) == sorted(serves) and len(set(serves)) == g
    assert "4 KiB" in shown and "1 KiB (1/4 of multi-head)" in shown and "512 B (1/8 of multi-head)" in shown
    assert kv_cache_bytes(1, 2, 128) == 1024 and kv_cache_bytes(1, 1, 128) == 512
    lines = list(parse(d).iter(NS + "line"))
    assert len(lines) == 3 * 8  # one line per query head per row
    assert "GQA: 2 K/V heads, each serving 4 query heads, cache 1 KiB" in d.description
    with pytest.raises(ValueError):
        dd.gqa(n_heads=8, kv_heads=(3,))
