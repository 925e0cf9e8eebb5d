"""The English edition (notebooks/en/) kept in step with the Chinese one (notebooks/).

Both editions run the same code: every code cell has the same source, token for token, except the text
a learner reads (string literals and comments holding Chinese prose, which the English edition
translates) and the one ``set_lang("zh")`` line that picks the language of attn_core's own messages.
The cells line up one to one, the headings have the same levels, and the outputs agree: the same kinds
of output and the same numbers in the printed text. The English edition keeps the Chinese example
sentences but no other Chinese.
"""

import io
import json
import re
import tokenize
from collections import Counter
from pathlib import Path

import pytest

from attn_core.examples import coreference, coreference_wide, four_words

NB_DIR = Path(__file__).resolve().parents[1] / "notebooks"
EN_DIR = NB_DIR / "en"
ZH = sorted(
    p.relative_to(NB_DIR)
    for p in NB_DIR.rglob("*.ipynb")
    if EN_DIR not in p.parents and ".ipynb_checkpoints" not in p.parts
)
EN = sorted(p.relative_to(EN_DIR) for p in EN_DIR.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
IDS = [p.as_posix() for p in ZH]

CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
# Chinese the English edition may show: the example sentences (kept in Chinese, glossed in English), and
# the ideographic space that lines up columns of hanzi.
EXAMPLE_WORDS = four_words().tokens + coreference().tokens + coreference_wide().tokens
EXAMPLE_CJK = set(CJK.findall("".join(EXAMPLE_WORDS))) | {"\u3000"}
NUMBER = re.compile(r"(?<![A-Za-z0-9_.])[-−]?\d+(?:[.,]\d+)*(?:e[-+]?\d+)?")


def load(relative, root):
    return json.loads((root / relative).read_text(encoding="utf-8"))


def source(cell):
    return "".join(cell["source"])


def code_cells(nb):
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def skeleton(source_text, lang):
    """The tokens of a code cell with the learner-readable text replaced by a placeholder.

    A run of adjacent string literals (implicit concatenation, perhaps over several lines) is one item:
    ``TEXT`` if the Chinese edition's run holds Chinese, so the English edition may say it its own way
    (and split it differently); otherwise the literal text, which must match exactly. Comments likewise.
    """
    items, strings = [], []
    last_name = []

    def flush():
        if strings:
            text = "".join(strings)
            if last_name[-2:] == ["set_lang", "("] and text.strip("'\"") in ("zh", "en"):
                items.append(("LANG",))
            else:
                items.append(("TEXT",) if lang == "zh" and CJK.search(text) else ("STRING", text))
            strings.clear()

    for tok in tokenize.generate_tokens(io.StringIO(source_text).readline):
        if tok.type in (tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER):
            continue
        if tok.type == tokenize.STRING:
            strings.append(tok.string)
            continue
        flush()
        if tok.type == tokenize.COMMENT:
            items.append(("TEXT",) if lang == "zh" and CJK.search(tok.string) else ("COMMENT", tok.string))
        else:
            items.append((tokenize.tok_name[tok.type], tok.string))
            last_name.append(tok.string)
    flush()
    return items


def matches(zh_items, en_items):
    """Where the two skeletons first differ (None if they agree), reading ``TEXT`` as any string/comment."""
    if len(zh_items) != len(en_items):
        return f"{len(zh_items)} tokens in zh, {len(en_items)} in en"
    for k, (a, b) in enumerate(zip(zh_items, en_items)):
        if a == ("TEXT",):
            if b[0] not in ("STRING", "COMMENT"):
                return f"token {k}: text in zh, {b} in en"
        elif a != b:
            return f"token {k}: {a} in zh, {b} in en"
    return None


def headings(cell):
    """Heading levels of a markdown cell, code fences skipped."""
    levels, fenced = [], False
    for line in source(cell).splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"(#{1,6}) ", line)):
            levels.append(len(m.group(1)))
    return levels


def output_text(output):
    if output["output_type"] == "stream":
        return "".join(output["text"])
    data = output.get("data", {})
    text = "".join("".join(data.get(mime, "")) for mime in ("text/plain", "text/markdown") if mime in data)
    return FIGURE_SIZE.sub("", text)  # an English figure grows to fit its glossed labels: not a number taught


FIGURE_SIZE = re.compile(r"<Figure size [\d.]+x[\d.]+ with \d+ Axes>")


def output_kinds(cell):
    """The kinds of a cell's outputs; consecutive prints to one stream count once (nbval merges them too,
    and how the kernel happens to split them depends on timing)."""
    kinds = []
    for o in cell["outputs"]:
        kind = (o["output_type"], o.get("name"), sorted(o.get("data", {})))
        if not (kind[0] == "stream" and kinds and kinds[-1] == kind):
            kinds.append(kind)
    return kinds


def ignores_output(cell):
    return "NBVAL_IGNORE_OUTPUT" in source(cell) or "nbval-ignore-output" in cell["metadata"].get("tags", [])


def test_every_notebook_has_an_english_edition_and_nothing_else():
    assert ZH, "no Chinese notebooks found"
    assert EN == ZH, f"missing in en/: {sorted(set(ZH) - set(EN))}; only in en/: {sorted(set(EN) - set(ZH))}"


@pytest.fixture(params=ZH, ids=IDS)
def pair(request):
    if not (EN_DIR / request.param).exists():
        pytest.fail(f"notebooks/en/{request.param.as_posix()} is missing")
    return request.param, load(request.param, NB_DIR), load(request.param, EN_DIR)


def test_same_cells_in_the_same_order(pair):
    name, zh, en = pair
    shape = [(c["cell_type"], sorted(c["metadata"].get("tags", []))) for c in zh["cells"]]
    assert [(c["cell_type"], sorted(c["metadata"].get("tags", []))) for c in en["cells"]] == shape, (
        f"{name}: the cells (type and tags, in order) differ between the editions"
    )
    assert zh["metadata"].get("attn_core") == en["metadata"].get("attn_core")


def test_same_code(pair):
    name, zh, en = pair
    zh_code, en_code = code_cells(zh), code_cells(en)
    assert len(en_code) == len(zh_code), f"{name}: {len(zh_code)} code cells in zh, {len(en_code)} in en"
    for k, (a, b) in enumerate(zip(zh_code, en_code), start=1):
        if not CJK.search(source(a)):
            assert re.sub(r"set_lang\((['\"])en", r"set_lang(\1zh", source(b)) == source(a), (
                f"{name}, code cell {k}: differs although it has no Chinese text"
            )
        problem = matches(skeleton(source(a), "zh"), skeleton(source(b), "en"))
        assert problem is None, f"{name}, code cell {k}: the code differs ({problem})"
    langs = [re.findall(r"set_lang\(\s*['\"](\w+)", source(c)) for c in zh_code + en_code]
    zh_langs, en_langs = sum(langs[: len(zh_code)], []), sum(langs[len(zh_code) :], [])
    assert zh_langs == ["zh"] and en_langs == ["en"], f"{name}: set_lang calls zh {zh_langs}, en {en_langs}"


def test_same_headings(pair):
    name, zh, en = pair
    for k, (a, b) in enumerate(zip(zh["cells"], en["cells"]), start=1):
        if a["cell_type"] == "markdown":
            assert headings(b) == headings(a), f"{name}, cell {k}: heading levels {headings(a)} in zh, {headings(b)}"


def test_same_outputs(pair):
    """Same kinds of output, and the same numbers in the printed text (in whatever order the prose puts them)."""
    name, zh, en = pair
    for k, (a, b) in enumerate(zip(code_cells(zh), code_cells(en)), start=1):
        assert output_kinds(b) == output_kinds(a), f"{name}, code cell {k}: different outputs"
        if ignores_output(a):
            continue
        numbers = [Counter(NUMBER.findall("".join(output_text(o) for o in c["outputs"]))) for c in (a, b)]
        assert numbers[0] == numbers[1], (
            f"{name}, code cell {k}: numbers only in zh {numbers[0] - numbers[1]}, only in en {numbers[1] - numbers[0]}"
        )


@pytest.mark.parametrize("name", EN, ids=[p.as_posix() for p in EN])
def test_english_edition_has_no_chinese_beyond_the_examples(name):
    nb = load(name, EN_DIR)
    found = {}
    for k, cell in enumerate(nb["cells"], start=1):
        texts = [source(cell)] + [output_text(o) for o in cell.get("outputs", [])]
        stray = set(CJK.findall("".join(texts))) - EXAMPLE_CJK
        if stray:
            found[k] = "".join(sorted(stray))
    assert not found, f"en/{name}: Chinese outside the example sentences, by cell: {found}"
