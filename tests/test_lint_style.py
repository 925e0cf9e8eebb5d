"""tools/lint_style.py: each rule of docs/terminology.md fires on a bad example and stays quiet on a good one
(quotes and operators inside code spans, formulas and URLs included), and the allow-list keeps what it names."""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("lint_style", ROOT / "tools" / "lint_style.py")
lint = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lint)


def md(source):
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def code(source, outputs=()):
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": list(outputs), "execution_count": 1}


def stream(text):
    return {"output_type": "stream", "name": "stdout", "text": text}


def nb(*cells):
    return {"cells": list(cells), "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def zh_rules(*cells, titles=None):
    return [(h.rule, h.where) for h in lint.lint_zh_notebook("notebooks/99_x.ipynb", nb(*cells), titles)]


def rules(*cells, **kw):
    return sorted({rule for rule, _ in zh_rules(*cells, **kw)})


def en_rules(*cells):
    return sorted({h.rule for h in lint.lint_en_notebook("notebooks/en/99_x.ipynb", nb(*cells))})


def catalog_rules(zh, en="An English text."):
    return sorted({h.rule for h in lint.lint_catalog("some.messages", {"k": (zh, en)})})


# ---------------------------------------------------------------------------------------------- terms
@pytest.mark.parametrize(
    "bad",
    [
        "先用遮罩挡住未来。",
        "切换到因果遮挡。",
        "被遮住的键权重为 0。",
        "对分数做 Softmax。",
        "每行 softmax 之后和为 1。",
        "第 2 课的相关性矩阵。",
        "沿最后一维求和。",
        "这一步是注意力的内核。",
        "被挡住的格子。",
        "运行最大值随块更新。",
        "Vaswani et al. 2017。",
        "这是配套练习。",
        "你应当能够说出形状。",
        "两条序列。",
        "每批 64 条序列。",
        "在第一条检验序列上。",
        "64 条长序列。",
        "用加法掩码挡住未来。",
        "浮点掩码加在分数上。",
        "8 个头、batch 为 16。",
        "多了 heads = 3 这根轴。",
        "两只指针都不动。",
        "这个文件读不出一本笔记本。",
        "跳过读不了的 zip。",
        "老师版在这里有一段小结。",
        "每份作业一页反馈。",
        "收上来的作业用 attn-grade 批改。",
        "多数方格颜色相近，所以每格都标了数字。",
        "权重落在向左偏 9 格的斜线上。",
        "打分函数的列号差一格。",
    ],
)
def test_a_banned_variant_in_prose_is_named(bad):
    assert rules(md(bad)) == ["term"]


@pytest.mark.parametrize(
    "good",
    [
        "先用掩码挡住未来：因果掩码。",
        "逐行 softmax 之后每行和为 1。",
        "分数矩阵 $QK^\\top$ 与注意力分数。",
        "沿最后一个轴求和；批量轴在前。",
        "需要运行中的 Jupyter 内核。",
        "`Softmax` 只是一个类名，公式 $\\mathrm{Softmax}(x)$ 也不算正文。",
        "层归一化（LayerNorm）：H = `LayerNorm(X + F)`。",
        "Vaswani 等人（2017）。",
        "每批 64 个序列，多了一个轴，两根指针都不动。",
        "在第一个检验序列上；这条规则对序列都成立。",
        "加性掩码（浮点掩码）加在分数上；之后只写加性掩码。",
        "批量轴（batch）；`batch` 与 $(\\text{batch}, n)$；batch_first=True 的层；批量大小为 16。",
        "无法读取的 zip；教师版与学生版；每份提交一页反馈；这是第 7 课的课后练习。",
        "Moodle：作业 → 查看所有提交；Canvas 里已有的作业；在 Gradescope 作业里上传。",
        "每个方格都标了数字；向左偏 9 列；列号差 1；再运行这一格；第 3 格被修改。",
    ],
)
def test_the_chosen_terms_and_code_spans_pass(good):
    assert rules(md(good)) == []


def test_terms_are_checked_in_code_strings_comments_and_saved_outputs():
    cell = code('print("被遮住的方格")  # 遮罩\n', [stream("被遮住的格子：6 个\n")])
    wheres = {where for rule, where in zh_rules(cell) if rule == "term"}
    assert wheres == {"cell 0 (code)", "cell 0 (output)"}
    assert rules(code('print("被挡住的方格")\n', [stream("被挡住的方格：6 个\n")])) == []


# ---------------------------------------------------------------------------------------------- printed Chinese
@pytest.mark.parametrize(
    "printed",
    [
        "每行之和： [1. 1. 1. 1.]\n",  # print("每行之和：", x) puts a space after the colon
        "Q   一致： True\n",
        "每行之和: [1. 1.]\n",  # an ASCII colon after Chinese
        "共5行，第 0 行\n",  # no space between Chinese and a digit
        "与trace.O 一致：True\n",  # nor between Chinese and Latin letters
        "分数 × 1: [1. 2. 3.]\n",  # a Chinese label that ends in a digit
        "正确的 O: (4, 3)\n",  # ... or in a Latin letter
        "批量 2：RuntimeError: The size of tensor a\n",  # an English label right after a Chinese one
    ],
)
def test_printed_chinese_takes_a_full_width_colon_and_spaces_around_latin(printed):
    assert zh_rules(code("print(x)\n", [stream(printed)])) == [("printed", "cell 0 (output)")]


def test_printed_chinese_that_follows_the_rules_passes():
    good = "每行之和：[1. 1. 1. 1.]\nQ   一致：True\n分数的梯度 dS：\n [[ 0.48 -0.48]]\n共 5 行，第 0 行\n"
    assert zh_rules(code("print(x)\n", [stream(good)])) == []
    assert rules(md("**怎么做**：每道题先运行“数据”单元格。")) == []  # prose is not a printed output


def test_an_ascii_colon_in_code_english_comparisons_and_quoted_warnings_is_not_a_chinese_label():
    good = (
        "b_q：O 不变吗？ allclose=False, max|diff| < 1e-12: False\n"  # the label after ", " is English
        "numpy 警告 → RuntimeWarning: overflow encountered in exp\n"  # numpy's own words after an arrow
        "MHA  key_padding_mask=~real: allclose=True\n"  # no Chinese in the line
        "时间 07:40\n"  # no space after the colon
    )
    assert zh_rules(code("print(x)\n", [stream(good)])) == []
    assert catalog_rules("写成一个函数（def {name}(...): ...），再运行检查。") == []


def test_messages_follow_the_printed_rules_and_their_fields_count_as_neither():
    assert catalog_rules("形状： {shape}") == ["printed"]
    assert catalog_rules("形状:{shape}") == ["printed"]
    assert catalog_rules("共{n}行") == []  # a field may be a Chinese word
    assert catalog_rules("{tokens}：这些行的每个键都被挡住了，共 {n} 行；attn_core 在这里报 ValueError。") == []


# ---------------------------------------------------------------------------------------------- quotes
@pytest.mark.parametrize("bad", ['"学习"的输出最大。', "「学习」的输出最大。", "点积越'野'，softmax 越尖。"])
def test_ascii_and_corner_quotes_around_chinese_are_named(bad):
    assert rules(md(bad)) == ["quotes"]


@pytest.mark.parametrize(
    "good",
    [
        "“学习”的输出最大，里面再引用用‘我’。",
        '写成 `layout="half"` 或 `print("学习")`。',
        '公式 $f("学习")$ 不是正文。',
        '见 [文档](https://example.org/a"学习"b)。',
        '取值 "interleaved"（相邻两个特征一对）或 "half"。',
    ],
)
def test_quotes_in_code_spans_formulas_urls_and_around_english_pass(good):
    assert rules(md(good)) == []


def test_a_python_list_of_chinese_tokens_in_an_output_is_not_a_quote():
    assert rules(code("print(tokens)\n", [stream("['我', '喜欢', '学习', '语言']\n")])) == []
    assert rules(code("print(x)\n", [stream("S 的'学习'行\n")])) == ["quotes"]


# ---------------------------------------------------------------------------------------------- spacing
def test_a_word_marked_by_spaces_is_named_but_token_lists_and_formulas_are_not():
    assert rules(code('print(f"学习 的输出 = {o}")\n')) == ["spacing"]
    assert rules(md("例句写成词元（token）：我 喜欢 学习 语言。")) == []
    assert rules(md("除以 √方差 会把噪声放大；d 维的向量。")) == []


# ---------------------------------------------------------------------------------------------- sections
def test_section_headings_use_arabic_numerals_and_a_full_stop():
    assert rules(md("## 一、因果掩码")) == ["section"]
    assert rules(md("## 1、因果掩码")) == ["section"]
    assert rules(md("## 1. 因果掩码")) == []
    assert rules(md("## 学习目标\n\n学完这一课，你应该能够：\n\n1. 说出形状。")) == []


def test_cross_references_use_arabic_numerals_and_name_a_section_that_exists():
    heading = md("## 3. 填充掩码")
    assert rules(heading, md("见第三节。")) == ["xref"]
    assert rules(heading, md("见第 3 节。")) == []
    assert rules(heading, md("见第 4 节。")) == ["xref"]
    assert rules(heading, md("论文第 4 节就是这样说的；第 5 课第 2 节也是。")) == []
    lessons = {9: {1, 2, 3, 4, 5}}
    found = lint.lint_zh_notebook(
        "notebooks/exercises/ex09.ipynb", nb(md("见第 9 课第 5 节和第 9 课第 6 节。")), None, lessons
    )
    assert [h.text for h in found] == ["第 9 课第 6 节"]


def test_links_agree_with_the_lesson_they_open():
    titles = {"notebooks/05_weighted_sum.ipynb": "第 5 课 · 加权求和：O = AV"}
    assert rules(md("[下一课：加权求和：O = AV →](05_weighted_sum.ipynb)"), titles=titles) == []
    assert rules(md("[下一课：加权求和 →](05_weighted_sum.ipynb)"), titles=titles) == []
    assert rules(md("[下一课：加权求和 O = AV →](05_weighted_sum.ipynb)"), titles=titles) == ["link"]
    assert rules(md("[第 4 课](05_weighted_sum.ipynb)"), titles=titles) == ["link"]
    assert rules(md("[第 5 课](05_weighted_sum.ipynb)"), titles=titles) == []


# ---------------------------------------------------------------------------------------------- goals
def test_learning_goals_have_the_one_lead_in_and_one_point_per_line():
    assert rules(md("## 学习目标\n\n1. 说出形状。")) == ["goals"]
    long_goal = (
        "写出数值稳定的 softmax，并解释朴素写法为什么会溢出，以及它在 GPU 常用的 float16 里为什么更早溢出，"
        "还要说出它和对数域的关系、它的代价以及在训练中什么时候会真正出问题。"
    )
    assert len(long_goal) > lint.GOAL_MAX
    assert rules(md(f"## 学习目标\n\n学完这一课，你应该能够：\n\n1. {long_goal}")) == ["goals"]
    assert (
        rules(
            md("## 学习目标\n\n学完这一课，你应该能够：\n\n1. 写出数值稳定的 softmax；\n2. 解释朴素写法为什么会溢出。")
        )
        == []
    )


def test_a_term_is_glossed_at_its_first_use_in_a_lesson():
    assert rules(md("权重接近独热。"), md("独热（one-hot）向量。")) == ["gloss"]
    assert rules(md("注意力 dropout 用在哪里。")) == ["gloss"]
    assert rules(md("权重接近独热（one-hot）。"), md("还是独热。")) == []
    assert rules(md("“注意力汇点”（attention sink）不是注意力汇聚……")) == ["term"]  # the note needs the allow-list


def test_register_phrases_are_named():
    assert rules(md("课程说缩放事关训练成败。")) == ["register"]
    assert rules(md("缩放让训练保持在梯度不为零的区间。")) == []
    for phrase in (
        "本课程的讲义里也这样写。",
        "权重是手设的。",
        "全押在一个键上时为 1。",
        "只是押在了错误的键上。",
        "紧跟着它的一份拷贝。",
        "先弄清分数矩阵的行和列。",
        "行列一旦弄反就能看出来。",
        "说白了就是加权平均。",
        "这一步其实就是查表。",
        "权重不会一下子挤到一个键上。",
    ):
        assert rules(md(phrase)) == ["register"], phrase
    assert rules(md("权重是手工设定的；全部集中在一个键上时为 1；紧跟着它的一个副本。")) == []
    assert rules(md("讲义《注意力机制总览：Query、Key 与 Value》也这样写。")) == []


# ---------------------------------------------------------------------------------------------- the README
def test_the_readme_s_chinese_lines_are_read_and_its_english_ones_are_not(tmp_path):
    readme = "\n".join(
        [
            "# Title · 标题",  # line 1
            "逐行 Softmax，以「我」为例。",  # 2: a term and corner quotes
            "We take the Softmax of each row; LayerNorm, 「x」.",  # 3: English only, not read
            "| 第 11 课 · 层归一化 | Exercise 11 · LayerNorm, residual |",  # 4: the English cell is not read
            "```bash",
            "make test  # 换一种 BLAS 内核再跑一遍",  # 6: a term in a comment of code
            "```",
            "| 7 | `mask_explorer`：遮挡 | Switch to the causal mask |",  # 8
        ]
    )
    (tmp_path / "README.md").write_text(readme, encoding="utf-8")
    hits = lint.lint_paths(tmp_path, catalogs=(), allow_list=())
    assert sorted((h.where, h.rule) for h in hits) == [
        ("line 2", "quotes"),
        ("line 2", "term"),
        ("line 6", "term"),
        ("line 8", "term"),
    ]
    fixed = readme.replace("Softmax，以「我」", "softmax，以“我”").replace("BLAS 内核", "OpenBLAS 计算核心")
    (tmp_path / "README.md").write_text(fixed.replace("遮挡", "掩码"), encoding="utf-8")
    assert lint.lint_paths(tmp_path, catalogs=(), allow_list=()) == []


def test_the_repository_readme_follows_the_table():
    assert [h.line() for h in lint.lint_paths(ROOT, [Path("README.md")], catalogs=())] == []


# ---------------------------------------------------------------------------------------------- operators
@pytest.mark.parametrize(
    "cell",
    [
        code("A = softmax(S, axis=\u22121)\n"),
        code("# use axis=\u22121 here\nA = softmax(S, axis=-1)\n"),
        md("沿 `axis=\u22121` 做 softmax。"),
        md("```python\nx = a \u00d7 b\n```"),
        code('scores[mask] = float("\u22121e6")  # \u22121e6\n'),
    ],
)
def test_a_non_ascii_operator_in_copyable_code_is_named(cell):
    assert rules(cell) == ["operator"]


@pytest.mark.parametrize(
    "cell",
    [
        md("被挡住的分数设为 \u2212\u221e；4 \u00d7 256 的矩阵；输出 A\u00b7V；公式 $a \u2212 b$。"),
        code("O = A @ V  # O = A\u00b7V, one row per query\n"),
        code('print("每个分数都是 \u2212\u221e")\n'),
    ],
)
def test_operators_in_prose_formulas_and_printed_math_pass(cell):
    assert rules(cell) == []


def test_operators_in_messages_are_checked_in_both_languages():
    hits = lint.lint_catalog("m", {"norm_axis": ("沿 axis=\u22121 归一化。", "normalise along axis=\u22121.")})
    assert {(h.rule, h.where) for h in hits} == {("operator", "key norm_axis (zh)"), ("operator", "key norm_axis (en)")}
    assert catalog_rules("O = A\u00b7V：每个查询一行；被挡住处为 \u2212\u221e。", "O = A\u00b7V") == []


# ---------------------------------------------------------------------------------------------- English left in Chinese
def test_english_left_in_a_chinese_message_is_named():
    assert catalog_rules("mask 必须是布尔数组，True = 可以关注（True = may attend）。") == ["english"]
    assert catalog_rules("mask 必须是布尔数组（True 表示可以关注）；投影时用 make demo 打开，见 RoFormer 论文。") == []


# ---------------------------------------------------------------------------------------------- English edition
def test_the_english_edition_uses_one_term_and_lower_case_softmax():
    assert en_rules(md("Then the score table becomes symmetric.")) == ["term"]
    assert en_rules(md("We take the Softmax of each row.")) == ["term"]
    assert en_rules(md("The batch dimension is real.")) == ["term"]
    assert en_rules(md("Both call the same kernel.")) == ["term"]
    assert en_rules(md("Restart the kernel; OpenBLAS's compute kernel differs.")) == []
    assert (
        en_rules(md("## Softmax along rows\n\nSoftmax turns scores into weights. A `Softmax` class; | Softmax taken |"))
        == []
    )
    assert en_rules(md("The score matrix, the last axis, softmax of each row.")) == []


# ---------------------------------------------------------------------------------------------- allow-list and output
def test_the_allow_list_keeps_only_the_hit_it_names(tmp_path):
    (tmp_path / "notebooks").mkdir()
    quoted = "d2l-zh 的注意力汇聚是 pooling，不是这里的注意力汇点（attention sink）。"
    (tmp_path / "notebooks" / "12_x.ipynb").write_text(json.dumps(nb(md(quoted), md(quoted))), encoding="utf-8")
    everything = lint.lint_paths(tmp_path, catalogs=(), allow_list=())
    assert [h.where for h in everything] == ["cell 0 (markdown)", "cell 1 (markdown)"]
    allow = (lint.Allow("notebooks/12_x.ipynb", 0, "term", "注意力汇聚", "the note that names d2l-zh's term"),)
    kept = lint.lint_paths(tmp_path, catalogs=(), allow_list=allow)
    assert [h.where for h in kept] == ["cell 1 (markdown)"]
    by_key = (lint.Allow("m", "k", "term", "遮罩", "quoted on purpose"),)
    hits = [
        h for h in lint.lint_catalog("m", {"k": ("遮罩", "mask"), "j": ("遮罩", "mask")}) if not lint.allowed(h, by_key)
    ]
    assert [h.where for h in hits] == ["key j"]


def test_a_hit_prints_file_place_rule_text_and_fix(tmp_path, capsys):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "07_x.ipynb").write_text(json.dumps(nb(md("切换到因果遮挡。"))), encoding="utf-8")
    assert lint.main(["--root", str(tmp_path), "--no-catalogs"]) == 1
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith("notebooks/07_x.ipynb:cell 0 (markdown): [term] ")
    assert "因果遮挡" in line and "因果掩码" in line
    (tmp_path / "notebooks" / "07_x.ipynb").write_text(json.dumps(nb(md("切换到因果掩码。"))), encoding="utf-8")
    assert lint.main(["--root", str(tmp_path), "--no-catalogs"]) == 0


@pytest.mark.parametrize("module", ["attn_core.messages", "attn_viz.messages"])
def test_the_math_and_picture_catalogs_follow_the_table(module):
    messages = importlib.import_module(module).msg.messages
    assert [h.line() for h in lint.lint_catalog(module, messages) if not lint.allowed(h)] == []


# ---------------------------------------------------------------------------------------------- added with issue 27
def test_a_section_number_used_twice_is_named_in_both_editions():
    twice = (md("## 7. 代价\n"), md("## 7. 下一步去哪\n"))
    assert ("section", "headings") in zh_rules(*twice)
    assert zh_rules(md("## 7. 代价\n"), md("## 8. 下一步去哪\n")) == []
    assert en_rules(md("## 7. The price\n"), md("## 7. Where to go next\n")) == ["section"]
    assert en_rules(md("## 7. The price\n"), md("## 8. Where to go next\n")) == []


@pytest.mark.parametrize(
    "bad",
    [
        "[d2l-zh 第 10.3 节](https://zh.d2l.ai/x.html) 讲缩放点积注意力时",
        "[第 2 课](02_scores_qkt.ipynb) 讲过。",
    ],
)
def test_a_space_between_a_link_and_a_hanzi_is_named(bad):
    assert rules(md(bad)) == ["spacing"]


def test_a_link_next_to_latin_text_or_punctuation_keeps_its_space():
    assert rules(md("[d2l-zh 第 10.3 节](https://zh.d2l.ai/x.html)讲缩放点积注意力时。")) == []
    assert rules(md("见 [*Attention Is All You Need*](https://arxiv.org/abs/1706.03762) 的表 1。")) == []


def test_batch_in_a_field_or_a_printed_shape_is_not_prose():
    printed = "Q 的形状：(batch=2, heads=3, n=5, d_head=4)\n"
    assert rules(code('print(f"批量 {batch}：不报错")\n', [stream(printed)])) == []
    assert catalog_rules("第 {row} 行查询{batch}没有任何键可以看。") == []


def test_cha_zai_is_named_but_wu_cha_zai_and_xiang_cha_zai_pass():
    assert rules(md("两边只差在层归一化放在哪里。")) == ["register"]
    assert rules(md("误差在 1e-9 以内，两者相差在舍入误差之内。")) == []


def test_a_list_of_numbers_in_chinese_prose_takes_the_enumeration_comma():
    assert rules(md("从 0 数起：0, 1, …, 5。")) == ["punct"]
    assert catalog_rules("通常是整数 0, 1, 2, …") == ["punct"]
    assert rules(md("从 0 数起：0、1、…、5，形状 (6, 8)，公式 $0, 1, \\dots, 5$。")) == []
