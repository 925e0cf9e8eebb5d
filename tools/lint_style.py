"""Check the course's Chinese (and English) text against docs/terminology.md.

What is read:
- the Chinese edition's notebooks (``notebooks/*.ipynb``, ``notebooks/exercises/**``): markdown cells, the
  string literals and comments of code cells, and saved text outputs (stream, text/plain, and the words of
  text/html and SVG outputs);
- every message catalog (``attn_core.messages``, ``attn_viz.messages``, ``attn_homework.messages``): the
  Chinese strings for the Chinese rules, both languages for the operator rule;
- the English edition (``notebooks/en/**``): markdown cells, for one term per concept and the operator rule;
- the README's Chinese lines: the term, register and quote rules (prose), the term rules (comments in code).

Code spans, fenced code, formulas ($…$), URLs and HTML tags are not prose: the term, quote and spacing rules
skip them, and the operator rule looks only at them (and at code cells and copyable fragments of messages).

Each hit prints as ``file:where: [rule] text — fix``; the exit status is 1 when anything is found.
``--summary`` adds the count per rule and per file. A variant quoted on purpose goes into ALLOW below
(file, cell index or message key, rule, the text, and why).

Usage: python tools/lint_style.py [--summary] [--root DIR] [paths...]
"""

import argparse
import importlib
import io
import json
import re
import sys
import tokenize
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ("attn_core.messages", "attn_viz.messages", "attn_homework.messages")

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
HAN_RE = re.compile(f"[{HAN}]")


@dataclass(frozen=True)
class Hit:
    file: str  # a path relative to the repository, or a catalog module
    where: str  # "cell 12 (markdown)", "cell 3 (output)", "key mask_dtype"
    rule: str
    text: str  # the offending text with a little context
    fix: str

    def line(self):
        return f"{self.file}:{self.where}: [{self.rule}] {self.text!r} — {self.fix}"


@dataclass(frozen=True)
class Allow:
    """A hit kept on purpose: ``where`` is the cell index (int) or the message key, ``text`` a substring of
    the hit's text."""

    file: str
    where: object
    rule: str
    text: str
    reason: str


# Variants quoted on purpose. Keep it short: each entry needs a reason a reviewer can check.
ALLOW = tuple(
    Allow("notebooks/00_setup_check.ipynb", cell, "term", "内核", "lesson 0 checks the Jupyter kernel itself")
    for cell in (10, 11, 20)
) + (
    Allow(
        "notebooks/01_qkv_projection.ipynb",
        16,
        "term",
        "注意力汇聚",
        "Nadaraya–Watson: names d2l-zh's own term 注意力汇聚 (attention pooling), which that section introduces",
    ),
    Allow(
        "notebooks/05_weighted_sum.ipynb",
        25,
        "term",
        "注意力汇聚",
        "the note that 注意力汇点 (attention sink) is not d2l-zh's 注意力汇聚 (attention pooling)",
    ),
    Allow(
        "notebooks/exercises/teacher/ex01_projection.ipynb",
        16,
        "term",
        "分数表",
        "“分数表达不了” is 分数 + 表达 (scores cannot express), not the term 分数表",
    ),
)


# ---------------------------------------------------------------------------------------------- the rules
@dataclass(frozen=True)
class Term:
    pattern: str  # a regular expression over prose (code, formulas and URLs already removed)
    fix: str
    rule: str = "term"
    unless: str | None = None  # a regular expression over the 24 characters around the hit that excuses it
    start_ok: bool = False  # the variant is right at the start of a sentence, a heading, a list item or a table cell


ZH_TERMS = (
    # mask: the noun is 掩码, the verb 挡住
    Term(r"不遮挡", "无掩码"),
    Term(r"因果遮挡", "因果掩码"),
    Term(r"填充遮挡", "填充掩码"),
    Term(r"遮罩|(?<!不)(?<!因果)(?<!填充)遮挡", "掩码（名词）；动词用“挡住”"),
    Term(r"遮住|挡掉|遮掉", "挡住"),
    # softmax
    Term(r"Softmax|SoftMax|SOFTMAX", "softmax（总是小写）"),
    Term(r"(?:按行|每行|每一行)(?:做|地|进行|取)?\s*softmax", "逐行 softmax"),
    # scores
    Term(r"相关性矩阵", "分数矩阵（QKᵀ）或注意力分数（概念）"),
    Term(r"分数表", "分数矩阵"),
    # d and axes
    Term(r"维度", "d 的大小用“维数”（“d 维”）；数组的轴用“轴”"),
    Term(r"最后一维|批量维|个维(?![数度])", "轴（数组的轴），例如“最后一个轴”“批量轴”"),
    Term(r"长度\s*d_model|d_model\s*的?长度", "维数 d_model（“长度”只指向量的范数）"),
    # kernel, cell
    Term(
        r"内核",
        "“内核”只指 Jupyter 内核；注意力的计算写“注意力的计算”，BLAS 写“OpenBLAS 的计算核心”",
        unless=r"Jupyter|Python|ipykernel|kernel|重启|启动|崩溃|中断|应答|运行中|全新|停止|Kernel",
    ),
    Term(r"格子", "单元格（笔记本的格）或元素 / 方格（矩阵的一项）"),
    Term(
        r"每格|(?:偏|差|少了|多了|往回|往前|往后)\s*(?:\d+|[一两几])\s*格",
        "“格”只指单元格：矩阵的一项写“元素”或“方格”，序列里的距离写“个位置”或“列”",
    ),
    # the grader's words (a handed-in notebook is a submission; the homework itself is 课后练习)
    Term(
        r"作业",
        "交上来的一本笔记本是“提交”（一份提交）；课后练习本身是“课后练习”（LMS 里的“作业”活动除外）",
        unless=r"(?i)Moodle|Canvas|Gradescope|LMS|→|课后作业",
    ),
    Term(r"读不出|读不了", "无法读取"),
    Term(r"老师版", "教师版（与“学生版”相对）"),
    # glosses and words of one kind
    Term(r"运行最大值", "当前最大值（running max）"),
    Term(r"一袋词", "词袋"),
    Term(r"填充词(?!元)", "填充词元"),
    Term(r"真词", "有效词元"),
    Term(r"功能词", "虚词 / 代词"),
    Term(r"\bet al\.?", "等人"),
    Term(r"配套练习|课后作业|练习题", "课后练习"),
    Term(r"份量", "分量"),
    Term(
        r"(?:\d+|[一二三四五六七八九十两几每这那])\s*条"
        r"[^\s，。；：、！？“”‘’（）()\[\]$是在对把给和与让被从向里上中到也都就要会能的]{0,4}序列",
        "个序列（“序列”的量词用“个”，中间有修饰语时也一样：“一个检验序列”）",
    ),
    # the additive mask (0 = may look, −∞ = masked, added to the scores): one name; the gloss 加性掩码（浮点掩码） once
    Term(r"加法掩码|(?<!加性掩码（)浮点掩码", "加性掩码（只在第 7 课首次出现时注一次：加性掩码（浮点掩码））"),
    # the English word batch in Chinese prose (code spans, formulas, batch_first, a field {batch}, a gloss
    # （batch）, a printed shape (batch=2, …) excepted)
    Term(
        r"(?<![\w.（{-])[Bb]atch(?![\w}-])",
        "批量（批量轴、批量大小）；英文轴名只写在代码或公式里，首次出现可注“批量轴（batch）”",
        unless=r"[(,]\s*[Bb]atch\b|\b[Bb]atch\s*[=,)]",
    ),
    Term(r"[这那每一]根轴", "个轴（“轴”的量词用“个”）"),
    Term(r"[一两几每]只指针", "根指针"),
    Term(r"注意力汇聚", "注意力汇点（attention sink）；d2l-zh 的“注意力汇聚”是 pooling"),
    Term(
        r"(?<!层归一化（)LayerNorm(?!\()",
        "正文写“层归一化”（LayerNorm 只用在公式和代码名里，或首次出现时的“层归一化（LayerNorm）”）",
    ),
    Term(r"相对均匀权重", "“与均匀权重相比”（“相对均匀”读成“比较均匀”）"),
    Term(r"你应当能够", "你应该能够"),
    # register
    Term(r"课程说", "直接陈述事实（课程不谈论自己）", rule="register"),
    Term(r"数字是编的", "“这些数是手工设定的”", rule="register"),
    Term(r"人人都受影响", "说清楚谁、受什么影响", rule="register"),
    Term(r"写死的结果过不了", "“直接写出的结果通不过检查”", rule="register"),
    Term(r"要(?:诚实|如实)地说", "直接陈述事实", rule="register"),
    Term(r"换人", "说清楚换的是什么（例如“换一个查询”）", rule="register"),
    Term(r"真话", "“更通顺的句子”之类的确切说法", rule="register"),
    Term(r"两头", "“两个头”", rule="register"),
    Term(r"拆头", "“拆成多个头”", rule="register"),
    Term(r"手设", "“手工设定的”（“手设”是生造的缩略词）", rule="register"),
    Term(r"全押|押在|押定", "“全部集中在……上”“锁定”（不用赌博的说法）", rule="register"),
    Term(r"拷贝", "“副本”（名词）或“复制”（动词）", rule="register"),
    Term(r"(?<![误相偏时温落])差在", "“区别在于……”“在……上有差别”（“差在”是口语）", rule="register"),
    Term(
        r"(?<![\w.])\d+, \d+, (?:\d+, )*(?:…|\.\.\.)",
        "中文里列举数字用顿号：0、1、…、5（或写成公式 $0, 1, \\dots, 5$）",
        rule="punct",
    ),
    Term(r"写死结果", "“直接写出固定结果”", rule="register"),
    Term(r"搞|啥|咋|说白了|其实就是", "教材语体：直接陈述（“弄清”→“分清”，“啥”→“什么”）", rule="register"),
    Term(
        r"弄(?:清|懂|明白|反|错|乱|成|出|好)|挺(?=[好多大小难快慢长短重要])|蛮(?=[好多大小难快])|一下子",
        "教材语体：“分清”“写反”“相当”“很”“突然 / 全部”",
        rule="register",
    ),
    Term(
        r"本课程的讲义",
        "写出是哪一篇：讲义《注意力机制总览：Query、Key 与 Value》或讲义《Self-Attention 怎么计算》",
        rule="register",
    ),
)

EN_TERMS = (
    Term(r"\bscores? tables?\b", "score matrix"),
    Term(r"\b(?:masking|mask) matri(?:x|ces)\b", "mask"),
    Term(r"\b(?:correlation|similarity) matri(?:x|ces)\b", "score matrix"),
    Term(r"\blayer norm\b|\blayer normali[sz]ation\b(?<!normalization\b)", "layer normalization"),
    Term(r"\b(?:batch|last|feature|first) dimension\b", "axis (an array's axes): “batch axis”, “last axis”"),
    Term(r"\bSoftmax\b", "softmax (lower case except at a sentence start)", start_ok=True),
    Term(
        r"\battention \*?kernel\b|\bsame \*{0,2}kernel\b|\boutside the kernel\b",
        "“kernel” is the Jupyter kernel: say “the attention function” / “the same computation”",
    ),
)

CROSS_REF = (
    (r"第[一二三四五六七八九十]+节", "第 N 节（阿拉伯数字，数字两边留空格）"),
    (r"第[一二三四五六七八九十]+课", "第 N 课（阿拉伯数字，数字两边留空格）"),
    (r"第\d+[节课]|第\s\d+[节课]|第\d+\s[节课]", "“第 N 节”“第 N 课”：数字两边各一个空格"),
    (r"(?<![\w.])[一二三四五六七八九十]+、(?=节|小节|部分)", "第 N 节"),
)

OPERATORS = {"\u2212": "U+2212 MINUS SIGN → ASCII '-'", "\u00d7": "× → '*' or '@'", "\u00b7": "· → '*' or '@'"}
OPERATOR_RE = re.compile("[\u2212\u00d7\u00b7]")
# In a message, a comment or a printed label, an operator is in copyable code when it stands in a fragment that
# reads as Python: a keyword argument (axis=−1), a call or subscript written in ASCII (x[−1], np.max(x, −1)), or a
# number literal (−1e9, −inf). Formulas such as O = A·V, sin(p·ω_k) or −∞ are mathematics and stay.
CODE_FRAGMENTS = (
    re.compile(r"[A-Za-z_][\w.]*=[^\s，。；、）)]+"),
    re.compile(r"[A-Za-z_][\w.]+[(\[][^\s，。；、]*?[)\]]"),
    re.compile(r"(?<![\w.])\u2212(?:\d+(?:\.\d+)?e[+-]?\d+|inf\b|np\.)"),
)
ASCII_CODE = re.compile(r"^[\x20-\x7e\u2212\u00d7\u00b7]+$")

# ------------------------------------------------------------------------------------- prose extraction
FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.S | re.M)
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
MATH = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$(?!\s)[^$\n]+?(?<!\s)\$|\\\(.+?\\\)|\\\[.+?\\\]", re.S)
URL = re.compile(r"\]\([^)\s]*\)|<https?://[^>]*>|https?://[^\s)>\]，。]*")
HTML_TAG = re.compile(r"<[^>\n]+>")


def _blank(text, pattern, fill="C"):
    """Replace each match by a neutral placeholder (keeps the words apart)."""
    return pattern.sub(lambda m: fill, text)


def markdown_parts(source):
    """(prose, [code fragments]) of a markdown cell: fenced code and code spans are code; formulas, URLs and
    HTML tags are neither."""
    code = [m.group(0) for m in FENCE.finditer(source)]
    text = _blank(source, FENCE)
    code += [m.group(2) for m in CODE_SPAN.finditer(text)]
    text = _blank(text, CODE_SPAN)
    text = _blank(text, MATH, "M")
    text = _blank(text, URL, "U")
    text = _blank(text, HTML_TAG, " ")
    return text, code


def code_parts(source):
    """(strings, comments, code-only source) of a code cell, via tokenize; IPython magics are dropped."""
    lines = [line if not line.lstrip().startswith(("%", "!")) else "\n" for line in source.splitlines(True)]
    strings, comments, code = [], [], []
    fstring_middle = getattr(tokenize, "FSTRING_MIDDLE", None)  # Python 3.12+: f-strings come in pieces
    try:
        for tok in tokenize.generate_tokens(io.StringIO("".join(lines)).readline):
            if tok.type in (tokenize.STRING, fstring_middle):
                strings.append(tok.string)
            elif tok.type == tokenize.COMMENT:
                comments.append(tok.string)
            else:
                code.append(tok.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return [source], [], ""
    return strings, comments, " ".join(code)


def output_texts(cell, printed_only=False):
    """The saved text of a code cell's outputs (HTML and SVG reduced to their words); ``printed_only``: only
    what the cell printed (streams and text/plain), the lines a learner reads as the cell's answer."""
    texts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            texts.append("".join(out.get("text", "")))
        data = out.get("data", {})
        for mime in ("text/plain",) if printed_only else ("text/plain", "text/html", "image/svg+xml", "text/markdown"):
            if mime in data:
                value = data[mime]
                value = "".join(value) if isinstance(value, list) else value
                if mime != "text/plain":
                    value = re.sub(r"<style.*?</style>|<script.*?</script>", " ", value, flags=re.S)
                    value = HTML_TAG.sub(" ", value)
                    value = value.replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&")
                texts.append(value)
    return texts


# ------------------------------------------------------------------------------------------ the checks
def _context(text, start, end, width=12):
    return text[max(0, start - width) : end + width].replace("\n", " ")


SENTENCE_START = re.compile(r"(?:^|[.!?:|·—]|\(\w\)|\n[ \t]*\n)\s*$")


def check_terms(text, terms=ZH_TERMS):
    for term in terms:
        for m in re.finditer(term.pattern, text, flags=re.M):
            around = text[max(0, m.start() - 24) : m.end() + 24]
            if term.unless and re.search(term.unless, around):
                continue
            if term.start_ok and SENTENCE_START.search(text[: m.start()]):
                continue
            yield term.rule, _context(text, m.start(), m.end()), f"“{m.group(0)}” → {term.fix}"


CORNER = re.compile("「([^」]*)」|『([^』]*)』")


def ascii_double_pairs(text):
    """The ASCII double-quoted stretches of ``text`` on one line, paired from the left (1–2, 3–4, …)."""
    for line_match in re.finditer(r"[^\n]+", text):
        line, offset = line_match.group(0), line_match.start()
        quotes = [i for i, ch in enumerate(line) if ch == '"']
        for a, b in zip(quotes[::2], quotes[1::2]):
            yield offset + a, offset + b + 1, line[a + 1 : b]


# ASCII single quotes around Chinese, when touching Chinese outside (a Python repr ['我', '喜欢'] does not)
SINGLE = re.compile(f"(?<=[{HAN}])'([^'\\n,]*[{HAN}][^'\\n,]*)'|'([^'\\n,]*[{HAN}][^'\\n,]*)'(?=[{HAN}])")
SPACED_WORD = re.compile(f"(?<=[{HAN}]) (?=[{HAN}])")
# The example sentences written token by token (我 喜欢 学习 语言) are tokens, not spaced words.
EXAMPLE_TOKENS = set("我 喜欢 学习 语言 那 那只 只 动物 没 过 没过 街 过街 因为 它 太 累 了 累了 太累了".split())
TOKEN_RUN = re.compile(f"[{HAN}]+(?: [{HAN}]+)+")


def check_quotes(text, singles=True):
    for start, end, inner in ascii_double_pairs(text):
        if HAN_RE.search(inner):
            yield "quotes", text[start:end], f"ASCII 双引号 → “{inner}”（GB/T 15834-2011；引号里再引用用 ‘’）"
    for m in CORNER.finditer(text):
        inner = m.group(1) if m.group(1) is not None else m.group(2)
        yield "quotes", m.group(0), f"「」 → “{inner}”（GB/T 15834-2011；引号里再引用用 ‘’）"
    if singles:
        for m in SINGLE.finditer(text):
            inner = m.group(1) or m.group(2)
            yield "quotes", _context(text, m.start(), m.end(), 4), f"ASCII 单引号 → “{inner}”（或引号内的 ‘{inner}’）"


def check_spaced_words(text):
    tokens = [m.span() for m in TOKEN_RUN.finditer(text) if set(m.group(0).split()) <= EXAMPLE_TOKENS]
    for m in SPACED_WORD.finditer(text):
        if any(a <= m.start() < b for a, b in tokens):
            continue
        left = re.split(r"\s", text[: m.start()])[-1]
        if re.search(r"[√∑‖^_A-Za-z0-9]", left):  # the space closes a formula (除以 √方差 会…)
            continue
        yield (
            "spacing",
            _context(text, m.start(), m.end(), 6),
            "汉字之间不留空格；要突出一个词，给它加引号：“学习”的输出",
        )


PRINTED = (
    (re.compile(r"：[ \t]+(?=\S)"), "全角冒号“：”后不留空格"),
    (re.compile(f"(?<=[{HAN}]):(?![/\\\\])"), "中文后面用全角冒号“：”，不用英文冒号"),
    (re.compile(f"[{HAN}][A-Za-z0-9]|[A-Za-z0-9][{HAN}]"), "汉字与数字、拉丁字母之间留一个空格"),
)


# An ASCII colon that ends a label (a space or the line's end after it) in a line that already holds Chinese:
# "分数 × 1: [1. 2.]", "正确的 O: (4, 3)", "批量 2：RuntimeError: …". PRINTED's colon rule sees only a colon
# right after a hanzi, so a label ending in a digit, a Latin letter or an English word slipped through. The
# label is the text since the last separator (punctuation, an arrow, ", "); it is Chinese when it holds a hanzi
# or follows a full-width colon. A code fragment (`def f(...): ...`, a colon after ")") and an English
# comparison after a comma (", max|diff| < 1e-12: True") are not labels.
LABEL_COLON = re.compile(r"(?<![{HAN})]):(?=[ \t]|$)".replace("{HAN}", HAN), re.M)
LABEL_START = re.compile(r"[：，；？。|→←\n]|, ")


def _label_colons(text):
    for m in LABEL_COLON.finditer(text):
        starts = [s.end() for s in LABEL_START.finditer(text, 0, m.start())]
        start = starts[-1] if starts else 0
        label = text[start : m.start()]
        if label.strip() and (HAN_RE.search(label) or text[start - 1 : start] == "："):
            yield m


def check_printed(text):
    """Printed Chinese (a saved output, a message): a full-width colon with nothing after it, one space between
    Chinese and digits or Latin letters, a full-width colon after a Chinese label even when the label ends in a
    digit or a Latin word. Fields of a message ({name}) count as neither."""
    text = re.sub(r"\{[^{}]*\}", "\u25a1", text)
    for pattern, fix in PRINTED:
        for m in pattern.finditer(text):
            yield "printed", _context(text, m.start(), m.end(), 8), fix
    for m in _label_colons(text):
        yield "printed", _context(text, m.start(), m.end(), 8), "中文标签后用全角冒号“：”（标签以数字或英文结尾也一样）"


# A link between two hanzi with a space on one side: "[第 10.3 节](…) 讲" renders as "节 讲".
LINK_SPACE = re.compile(r"[{HAN}]\]\([^)\s]*\)[ \t]+(?=[{HAN}])".replace("{HAN}", HAN))


def check_link_spacing(source):
    for m in LINK_SPACE.finditer(source):
        yield "spacing", _context(source, m.start(), m.end(), 8), "链接与两边的汉字之间不留空格：…](…)讲"


def section_list(nb):
    """The section numbers `## N.` of a notebook in order, repeats kept."""
    numbers = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            numbers += [int(n) for n in re.findall(r"^## (\d+)\. ", source, re.M)]
    return numbers


def check_duplicate_sections(nb):
    """Each section number `## N.` once per notebook (a second `## 7.` makes “第 7 节” ambiguous)."""
    for number, count in sorted(Counter(section_list(nb)).items()):
        if count > 1:
            yield "section", f"## {number}. ×{count}", f"节号 {number} 出现了 {count} 次：每个 `## N.` 在一课里只用一次"


def check_cross_refs(text):
    for pattern, fix in CROSS_REF:
        for m in re.finditer(pattern, text):
            yield "xref", _context(text, m.start(), m.end(), 6), f"“{m.group(0)}” → {fix}"


HEADING = re.compile(r"^(#{2,3})\s+(.*)$", re.M)
NUMBERED_OK = re.compile(r"^\d+\. \S")
NUMBERED_OTHER = re.compile(r"^(?:[一二三四五六七八九十]+[、.．]|\d+[、．]|\d+\.(?=\S)|\(\d+\)|（\d+）|第\s*\S+\s*节)")


def check_headings(source):
    for m in HEADING.finditer(source):
        title = m.group(2).strip()
        if m.group(1) == "##" and NUMBERED_OTHER.match(title) and not NUMBERED_OK.match(title):
            yield "section", m.group(0), "节标题写成 `## 1. 标题`（阿拉伯数字、英文句点、空格）"


def check_goal_lead(source):
    if re.search(r"^##\s*学习目标", source, re.M) and not re.search("你应[该当]能够", source):
        yield "goals", source.strip().splitlines()[0], "学习目标的引语用“学完这一课，你应该能够：”"


GOAL_SECTIONS = re.compile(r"^##\s*(学习目标|小结)\s*$", re.M)
GOAL_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.、])\s+(.+)$", re.M)
GOAL_MAX = 80  # characters of one goal or summary line, formulas counted as one


def check_goal_items(source):
    """One point per learning goal or summary line: a line longer than GOAL_MAX packs several."""
    if not GOAL_SECTIONS.search(source):
        return
    prose, _ = markdown_parts(source)
    for m in GOAL_ITEM.finditer(prose):
        item = re.sub(r"\*\*|__", "", m.group(1)).strip()
        if len(item) > GOAL_MAX:
            yield "goals", item[:40] + "…", f"一条目标（小结）只写一点：这一条 {len(item)} 个字符，拆成两条或删去从句"


LINK = re.compile(r"\[([^\]]+)\]\(([^)#\s]*?([^/)]+\.ipynb))[^)]*\)")


def notebook_title(nb):
    for cell in nb["cells"]:
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        m = re.search(r"^# (.+)$", source, re.M)
        if cell["cell_type"] == "markdown" and m:
            return m.group(1).strip()
    return ""


def _plain(title):
    return re.sub(r"[$\\{}]|\^\\?top|\s+", "", title).replace("sqrt", "√").replace("top", "ᵀ")


def check_links(source, here, titles):
    """A link names its target as the target names itself: 第 N 课 and the title agree with the lesson."""
    for m in LINK.finditer(source):
        text, target, name = m.group(1), m.group(2), m.group(3)
        path = (here.parent / target).as_posix() if not target.startswith("/") else target
        title = titles.get(re.sub(r"(^|/)[^/]+/\.\./", r"\1", path)) or titles.get(name)
        number = re.match(r"(?:ex)?(\d+)_", name)
        said = re.search(r"第 (\d+) 课", text)
        if said and number and int(said.group(1)) != int(number.group(1)):
            yield "link", m.group(0), f"链接写“第 {said.group(1)} 课”，目标是 {name}"
        if title is None:
            continue
        own = re.sub(r"^(?:第 \d+ 课|练习 \d+|课后练习 \d+)\s*·\s*", "", title)
        named = re.sub(r"^(?:下一课|下一个练习|上一课)：|\s*→\s*$|^第 \d+ 课\s*·?\s*", "", text).strip()
        if not named or named == text.strip() and not text.startswith(("下一", "上一", "第")):
            continue
        if named and _plain(named) not in (_plain(own), _plain(own.split("：")[0])):
            yield "link", m.group(0), f"链接里的标题要与目标一致：“{own}”"


SECTION_REF = re.compile(r"第 (\d+) 节")
LESSON_SECTION_REF = re.compile(r"第 (\d+) 课(?:的)?第 (\d+) 节")


def section_numbers(nb):
    """The numbers of a notebook's sections `## N. …`."""
    numbers = set()
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            numbers |= {int(n) for n in re.findall(r"^## (\d+)\. ", source, re.M)}
    return numbers


def check_section_refs(prose, numbers, lessons=None):
    """第 N 节 inside one lesson names a section `## N.` of that lesson; 第 L 课第 N 节 a section of lesson L
    (``lessons``: lesson number → its section numbers)."""
    for m in LESSON_SECTION_REF.finditer(prose):
        lesson, section = int(m.group(1)), int(m.group(2))
        if lessons and lesson in lessons and section not in lessons[lesson]:
            yield "xref", m.group(0), f"第 {lesson} 课没有 `## {section}.` 这一节：交叉引用要与节标题一致"
    for m in SECTION_REF.finditer(prose):
        if re.search(r"(?:课|论文|原文|文章)\s*的?\s*$", prose[max(0, m.start() - 4) : m.start()]):
            continue  # 第 5 课第 2 节, 论文第 4 节: a section of another text
        if int(m.group(1)) not in numbers:
            yield (
                "xref",
                _context(prose, m.start(), m.end(), 6),
                (f"这一课没有 `## {m.group(1)}.` 这一节：交叉引用要与节标题一致"),
            )


# First use in a lesson: the Chinese term with its English in brackets, 独热（one-hot）.
GLOSSES = (
    ("独热", "one-hot"),
    ("词元", "token"),
    ("暂退法", "dropout"),
    ("当前最大值", "running max"),
    ("循环神经网络", "RNN"),
    ("注意力汇点", "attention sink"),
)


def check_glosses(prose_cells):
    """``prose_cells``: (cell index, prose) of one notebook's markdown cells. Yields (index, hit)."""
    for zh, en in GLOSSES:
        pattern = re.compile(f"{zh}|(?<![A-Za-z-]){re.escape(en)}(?![A-Za-z-])", re.I)
        for index, prose in prose_cells:
            m = pattern.search(prose)
            if not m:
                continue
            glossed = re.compile(f'{zh}[”"]?（{re.escape(en)}', re.I)
            start = max(0, m.start() - len(zh) - 2)
            if not glossed.match(prose, m.start()) and not glossed.search(prose[start : m.end()]):
                fix = f"这一课第一次出现时写“{zh}（{en}）”，之后只写“{zh}”"
                yield index, ("gloss", _context(prose, m.start(), m.end(), 8), fix)
            break


def check_operators_in_code(code, what):
    for m in OPERATOR_RE.finditer(code):
        yield (
            "operator",
            _context(code, m.start(), m.end(), 10),
            f"{what}里不用非 ASCII 运算符：{OPERATORS[m.group(0)]}",
        )


def check_operators_in_words(text, what):
    """Operators inside a fragment of ``text`` that reads as code (``axis=−1``, ``v[−1]``, ``−1e9``)."""
    for pattern in CODE_FRAGMENTS:
        for m in pattern.finditer(text):
            bad = OPERATOR_RE.search(m.group(0))
            if bad and ASCII_CODE.match(m.group(0)):
                yield "operator", m.group(0), f"{what}里可复制的代码不用非 ASCII 运算符：{OPERATORS[bad.group(0)]}"


# English left in a Chinese message: two or more English words in a row that are not code, a name or a field.
ENGLISH_RUN = re.compile(r"(?<![\w.{-])[A-Za-z][a-z]+(?:[ ,;:]+[a-z]{2,}){1,}(?![\w(=.-])")
ENGLISH_OK = re.compile(r"^(?:make [a-z-]+|pip install.*|et al|[a-z]+ -> .*)$")


def check_english_left(zh):
    prose = re.sub(r"\{[^{}]*\}", "F", zh)  # fields
    prose = re.sub(r"“[^”]*”|\"[^\"]*\"|'[^']*'", "Q", prose)  # quoted strings (names, choices)
    prose = re.sub(r"\S*[_=()\[\]<>/\\`]\S*", "C", prose)  # code-like tokens
    prose = re.sub(r"\bmake [a-z-]+|\bpip install \S+|\bjupyter [a-z]+(?: [\w./-]+)?|\S*-\S*", "C", prose)
    for m in ENGLISH_RUN.finditer(prose):
        if not ENGLISH_OK.match(m.group(0)):
            yield "english", m.group(0), "中文消息里不留英文句子：译成中文（代码、名称、命令除外）"


# ------------------------------------------------------------------------------------------ per source
def chinese_prose_checks(prose, singles=True):
    yield from check_terms(prose)
    yield from check_quotes(prose, singles=singles)
    yield from check_spaced_words(prose)
    yield from check_cross_refs(prose)


def _string_content(literal):
    m = re.match(r"(?is)^[rbuf]*('''|\"\"\"|'|\")(.*)\1$", literal)
    return m.group(2) if m else literal


def lint_zh_notebook(path, nb, titles=None, lessons=None):
    titles = titles or {}
    numbers = section_numbers(nb)
    prose_cells = []
    for index, cell in enumerate(nb["cells"]):
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            where = f"cell {index} (markdown)"
            prose, code = markdown_parts(source)
            prose_cells.append((index, prose))
            for hit in chinese_prose_checks(prose):
                yield Hit(path, where, *hit)
            for hit in check_headings(source):
                yield Hit(path, where, *hit)
            for hit in check_goal_lead(source):
                yield Hit(path, where, *hit)
            for hit in check_goal_items(source):
                yield Hit(path, where, *hit)
            for hit in check_links(source, Path(path), titles):
                yield Hit(path, where, *hit)
            for hit in check_section_refs(prose, numbers, lessons):
                yield Hit(path, where, *hit)
            for hit in check_link_spacing(source):
                yield Hit(path, where, *hit)
            for fragment in code:
                for hit in check_operators_in_code(fragment, "代码片段"):
                    yield Hit(path, where, *hit)
        elif cell["cell_type"] == "code":
            where = f"cell {index} (code)"
            strings, comments, code = code_parts(source)
            for hit in check_operators_in_code(code, "代码"):
                yield Hit(path, where, *hit)
            for comment in comments:
                for hit in check_operators_in_words(comment, "注释"):
                    yield Hit(path, where, *hit)
            for literal in strings:
                content = _string_content(literal)
                for hit in check_operators_in_words(content, "字符串"):
                    yield Hit(path, where, *hit)
                if HAN_RE.search(content):
                    for hit in chinese_prose_checks(content):
                        yield Hit(path, where, *hit)
            for comment in comments:
                if HAN_RE.search(comment):
                    for hit in chinese_prose_checks(comment):
                        yield Hit(path, where, *hit)
            for text in output_texts(cell, printed_only=True):
                if HAN_RE.search(text):
                    for hit in check_printed(text):
                        yield Hit(path, f"cell {index} (output)", *hit)
            for text in output_texts(cell):
                if HAN_RE.search(text):
                    for hit in check_terms(text):
                        yield Hit(path, f"cell {index} (output)", *hit)
                    for hit in check_quotes(text, singles=True):
                        yield Hit(path, f"cell {index} (output)", *hit)
    for index, hit in check_glosses(prose_cells):
        yield Hit(path, f"cell {index} (markdown)", *hit)
    for hit in check_duplicate_sections(nb):
        yield Hit(path, "headings", *hit)


def lint_readme(path, text):
    """The Chinese lines of a markdown file (the README): the term, register and quote rules on its prose,
    and the term rules on the Chinese comments of its fenced code. English-only lines are not read."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if re.match(r"\s*(```|~~~)", line):
            fenced = not fenced
            continue
        if not HAN_RE.search(line):
            continue
        where = f"line {number}"
        if fenced:
            comment = line.split("#", 1)[1] if "#" in line else ""
            for hit in check_terms(comment):
                yield Hit(path, where, *hit)
            continue
        if line.lstrip().startswith("|"):  # a table row: only its Chinese cells (the English column is English)
            line = " | ".join(cell for cell in line.split("|") if HAN_RE.search(cell))
        prose, _ = markdown_parts(line)
        for hit in check_terms(prose):
            yield Hit(path, where, *hit)
        for hit in check_quotes(prose, singles=False):
            yield Hit(path, where, *hit)


def lint_en_notebook(path, nb):
    for index, cell in enumerate(nb["cells"]):
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            where = f"cell {index} (markdown)"
            prose, code = markdown_parts(source)
            prose = re.sub(r"^#+\s*", "", prose, flags=re.M)  # a heading starts a sentence
            prose = re.sub(r"^\s*(?:[-*+]|\d+\.)\s+", "", prose, flags=re.M)  # so does a list item
            prose = re.sub(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)", "", prose)  # emphasis marks
            prose = re.sub(r"\[([^\]]*)\]U", r"\1", prose)  # link text
            prose = re.sub(r"\([^()]*\b(?:19|20)\d\d\b[^()]*\)|“[^”]*”|\"[^\"]*\"", "T", prose)  # titles
            for hit in check_terms(prose, EN_TERMS):
                yield Hit(path, where, *hit)
            for fragment in code:
                for hit in check_operators_in_code(fragment, "a code span "):
                    yield Hit(path, where, *hit)
        elif cell["cell_type"] == "code":
            _, comments, code = code_parts(source)
            for hit in check_operators_in_code(code, "code "):
                yield Hit(path, f"cell {index} (code)", *hit)
            for comment in comments:
                for hit in check_operators_in_words(comment, "a comment "):
                    yield Hit(path, f"cell {index} (code)", *hit)
    for number, count in sorted(Counter(section_list(nb)).items()):
        if count > 1:
            yield Hit(
                path,
                "headings",
                "section",
                f"## {number}. ×{count}",
                f"section {number} appears {count} times: number each `## N.` once",
            )


def lint_catalog(module_name, messages):
    for key, (zh, en) in messages.items():
        where = f"key {key}"
        for hit in chinese_prose_checks(zh):
            yield Hit(module_name, where, *hit)
        for hit in check_english_left(zh):
            yield Hit(module_name, where, *hit)
        for hit in check_printed(zh):
            yield Hit(module_name, where, *hit)
        for lang, text in (("zh", zh), ("en", en)):
            for hit in check_operators_in_words(text, "消息"):
                yield Hit(module_name, f"{where} ({lang})", *hit)


# ------------------------------------------------------------------------------------------ the run
def _where_matches(allow, hit):
    if allow.where is None:
        return True
    if isinstance(allow.where, int):
        return hit.where.startswith(f"cell {allow.where} ")
    if allow.where.startswith("line "):
        return hit.where == allow.where
    return hit.where == f"key {allow.where}"


def allowed(hit, allow_list=ALLOW):
    return any(
        a.file == hit.file and a.rule == hit.rule and a.text in hit.text and _where_matches(a, hit) for a in allow_list
    )


def notebook_paths(root):
    zh = sorted((root / "notebooks").glob("*.ipynb")) + sorted((root / "notebooks" / "exercises").rglob("*.ipynb"))
    en = sorted((root / "notebooks" / "en").rglob("*.ipynb"))
    return zh, en


def lint_paths(root, paths=None, catalogs=CATALOGS, allow_list=ALLOW):
    """Every hit not on the allow-list, for the given notebooks (default: both editions and the README) and
    catalogs."""
    root = Path(root)
    if paths is None:
        zh, en = notebook_paths(root)
        paths = zh + en + [p for p in (root / "README.md",) if p.exists()]
    titles, lessons = {}, {}
    for nb_path in sum(notebook_paths(root), []):
        rel = nb_path.relative_to(root).as_posix()
        notebook = json.loads(nb_path.read_text(encoding="utf-8"))
        titles[rel] = notebook_title(notebook)
        lesson = re.fullmatch(r"notebooks/(\d+)_\w+\.ipynb", rel)
        if lesson:
            lessons[int(lesson.group(1))] = section_numbers(notebook)
    hits = []
    for path in paths:
        path = Path(path)
        rel = path.resolve().relative_to(root.resolve()).as_posix() if path.is_absolute() else path.as_posix()
        if rel.endswith(".md"):
            hits += lint_readme(rel, (root / rel).read_text(encoding="utf-8"))
            continue
        nb = json.loads((root / rel).read_text(encoding="utf-8"))
        if rel.startswith("notebooks/en/"):
            hits += lint_en_notebook(rel, nb)
        else:
            hits += lint_zh_notebook(rel, nb, titles, lessons)
    for name in catalogs:
        hits += lint_catalog(name, importlib.import_module(name).msg.messages)
    return [hit for hit in dict.fromkeys(hits) if not allowed(hit, allow_list)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "paths", nargs="*", help="notebooks (or README.md) to check (default: both editions, README, every catalog)"
    )
    parser.add_argument("--root", default=str(ROOT))
    parser.add_argument("--summary", action="store_true", help="also print the count per rule and per file")
    parser.add_argument("--no-catalogs", action="store_true")
    args = parser.parse_args(argv)
    root = Path(args.root)
    sys.path.insert(0, str(root))
    hits = lint_paths(root, [Path(p) for p in args.paths] or None, () if args.no_catalogs else CATALOGS)
    for hit in hits:
        print(hit.line())
    if args.summary:
        print("\nhits per rule:")
        for rule, n in Counter(h.rule for h in hits).most_common():
            print(f"  {rule:10} {n}")
        print("hits per file:")
        for file, n in sorted(Counter(h.file for h in hits).items()):
            rules = Counter(h.rule for h in hits if h.file == file)
            print(f"  {file}: {n} ({', '.join(f'{r} {k}' for r, k in rules.most_common())})")
    if hits:
        print(f"\n{len(hits)} style hits; the rules and the table: docs/terminology.md", file=sys.stderr)
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main())
