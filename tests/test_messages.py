"""Each layer's message catalog: every entry in both languages, with the same {fields} in each."""

import importlib
import re
import string

import pytest

CATALOGS = ["attn_core.messages", "attn_viz.messages", "attn_homework.messages"]
HANZI = re.compile(r"[\u4e00-\u9fff]")
EXAMPLE_WORDS = set("我喜欢学习语言那只动物没过街因为它太累了宽")  # the course's example sentences


def _entries():
    for module in CATALOGS:
        catalog = importlib.import_module(module).msg
        for key, pair in catalog.messages.items():
            yield pytest.param(module, key, pair, id=f"{module.split('.')[-2]}:{key}")


def _fields(template):
    return sorted({name for _, name, _, _ in string.Formatter().parse(template) if name})


@pytest.mark.parametrize("module, key, pair", list(_entries()))
def test_entry_has_both_languages_with_the_same_fields(module, key, pair):
    assert isinstance(pair, tuple) and len(pair) == 2, f"{key}: (zh, en)"
    zh, en = pair
    assert _fields(zh) == _fields(en), f"{key}: the two languages fill in different fields"
    assert not set(HANZI.findall(en)) - EXAMPLE_WORDS, f"{key}: Chinese in the English text: {en!r}"
    prose = re.sub(r"\{[^}]*\}", "", en)  # words outside the fields
    if re.search(r"[a-z]{3,} [a-z]{3,}", prose):
        assert HANZI.search(zh), f"{key}: the Chinese text has no Chinese: {zh!r}"


# Code a learner may copy out of a message: a `code span`, a method or numpy call (``.sum(axis=-1)``,
# ``np.where(...)``), a keyword argument (``axis=-1``). Python reads only ASCII operators there: U+2212 (−),
# × and · make a SyntaxError or a different expression (issue 27).
CODE = re.compile(r"`[^`]+`|(?:\bnp)?\.[A-Za-z_]\w*\([^()]*\)|\b(?:axis|keepdims|dtype|n_heads|ord)=[^\s，。；：）)]+")
NOT_ASCII_OPERATORS = re.compile("[−×·÷∗⁄]")  # minus sign, times, middle dot, division, asterisk, slash


def _copyable_code(text):
    return [span for span in CODE.findall(text) if NOT_ASCII_OPERATORS.search(span)]


@pytest.mark.parametrize("module, key, pair", list(_entries()))
def test_no_code_in_a_message_holds_a_non_ascii_operator(module, key, pair):
    for text in pair:
        assert not _copyable_code(text), f"{key}: {_copyable_code(text)} in {text!r}"


def test_the_scan_finds_a_minus_sign_in_code():
    assert _copyable_code("LayerNorm 对每一行（axis=−1）单独归一化")
    assert _copyable_code("use `x × 2`") and _copyable_code("E.sum(axis=1 − 0)")
    assert not _copyable_code("dS = A ⊙ (dA − rowsum(dA ⊙ A)), axis=-1, `M == 0`")
