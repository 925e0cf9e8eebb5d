"""The class report and the similarity hints as a teacher opens them: ``class_report.html`` and
``similarity.html`` in headless Chromium, in both languages, for a class of 40 made here as grading results
(no kernel: the pages are built from results and evidence as ``attn-grade`` writes them). No character is
drawn as a box, axe-core finds no serious or critical violation, and the print media renders: no dark
background, table headers repeated on every page, a PDF of more than one page.
"""

import json
import re

import pytest

from attn_homework import exercises
from attn_homework.grading import classreport, similarity
from attn_homework.grading.checking import TaskResult
from attn_homework.grading.marks import LateRule, Points
from attn_homework.grading.results import Graded, Note
from attn_homework.grading.roster import Student

from .accessibility import axe_problems
from .jupyterlab import JS_TOFU

pytestmark = pytest.mark.browser

DEADLINE = "2026-12-08 23:59"
COPIED = "rows = A.shape[0]\nfor i in range(rows):\n    e = np.exp(S[i] - S[i].max())\n    A[i] = e / e.sum()\n" * 2
ODD = {"kind": "array", "type": "ndarray", "dtype": "<f8", "shape": [2, 2], "data": [0.1, 0.9, 0.25, 0.75]}


def _class(folder, lang):
    """Grading results of 40 students of ex04 (per-task codes cycling through the usual mistakes, a timeout,
    a late file, the teacher's notebook, a classmate's data) and their evidence, then both pages."""
    from attn_core import set_lang

    set_lang(lang)
    tasks = exercises.tasks("ex04_softmax")
    codes = ["correct", "correct", "softmax_axis", "correct", "not_normalized", "correct", "keepdims", "overflow"]
    records, evidence = [], []
    late = LateRule.parse(DEADLINE, "10")
    for n in range(40):
        number = f"S{n:02d}"
        student = Student(number, number, f"学生{n:02d}" if n % 2 else f"Student {n:02d}", in_roster=True)
        results = [
            TaskResult(t.id, codes[(n + i) % len(codes)] if i < 4 else "correct", "提示 hint")
            for i, t in enumerate(tasks)
        ]
        notes = [Note("completed")]
        if n == 3:
            notes = [Note("timeout", (12,))]
        if n == 4:
            notes.append(Note("teacher_version"))
        if n == 5:
            notes.append(Note("other_students_data", detail="S06: 4.1"))
        submitted = late.deadline + 86400 * 1.5 if n == 6 else late.deadline - 3600
        record = Graded(
            f"mail/{number}_ex04_softmax.ipynb",
            f"sha{n}",
            "ex04_softmax",
            student,
            "zh" if n % 2 else "en",
            submitted,
            data_id=number,
            tasks=results,
            notes=notes,
        )
        records.append(record)
        code = ["import numpy as np", f'homework.set_student_id("{number}")', "A = softmax(S)"]
        wrong = {}
        if n in (7, 8):
            code.append(COPIED.replace("rows", "n_rows" if n == 8 else "rows"))
        if n in (9, 10):
            record.tasks[0] = TaskResult("4.1", "wrong_values", "提示 hint")
            wrong["4.1"] = ODD
        evidence.append(
            {
                "sha256": record.sha256,
                "exercise": "ex04_softmax",
                "student": number,
                "label": record.label,
                "data_id": number,
                "code": code,
                "wrong": wrong,
            }
        )
    with open(folder / similarity.EVIDENCE, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(e, ensure_ascii=False) + "\n" for e in evidence)
    report = classreport.write(folder, records, Points(), late)
    hints = similarity.write(folder, records)
    return report, hints


@pytest.fixture(scope="module", params=["zh", "en"])
def pages(request, tmp_path_factory, browser):
    from attn_core import get_lang, set_lang

    saved = get_lang()
    folder = tmp_path_factory.mktemp(f"report_{request.param}")
    try:
        paths = _class(folder, request.param)
    finally:
        set_lang(saved)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    yield request.param, paths, page
    page.close()


JS_CHARS = """() => {
  const fam = e => getComputedStyle(e).fontFamily;
  const body = [...new Set(document.body.innerText.replace(/\\s/g, ''))].join('');
  const svgs = [...document.querySelectorAll('svg')];
  const texts = svgs.map(s => [...s.querySelectorAll('text')].map(t => t.textContent).join(''));
  const svgText = [...new Set(texts.join('').replace(/\\s/g, ''))].join('');
  return [body, fam(document.body), svgText, svgs.length ? svgs[0].getAttribute('font-family') : 'sans-serif'];
}"""

JS_DARK = """() => {
  const lum = c => { const m = c.match(/[\\d.]+/g); if (!m || (m.length > 3 && +m[3] === 0)) return 1;
    const [r, g, b] = m.slice(0, 3).map(v => +v / 255); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  return [...document.querySelectorAll('*')].filter(e => lum(getComputedStyle(e).backgroundColor) < 0.6)
    .map(e => e.tagName + ' ' + getComputedStyle(e).backgroundColor).slice(0, 5);
}"""


def test_the_pages_draw_every_character_and_pass_axe(pages):
    lang, paths, page = pages
    for path in paths:
        page.goto(path.as_uri())
        assert page.evaluate("document.documentElement.lang") == ("zh-CN" if lang == "zh" else "en")
        body, body_font, svg_text, svg_font = page.evaluate(JS_CHARS)
        for chars, family in ((body, body_font), (svg_text, svg_font)):
            tofu = page.evaluate(JS_TOFU, [chars, family])
            assert not tofu, f"{path.name}: drawn as boxes in {family}: {''.join(tofu)}"
        assert axe_problems(page, "body") == [], path.name


def test_the_report_shows_its_figures_with_alt_text(pages):
    lang, (report, _), page = pages
    page.goto(report.as_uri())
    figures = page.locator("figure svg[role=img]")
    assert figures.count() == 2  # the share right per task of ex04, the histogram of totals
    for i in range(figures.count()):
        box = figures.nth(i).bounding_box()
        assert box["width"] > 300 and box["height"] > 100
        assert figures.nth(i).locator("title").text_content() and figures.nth(i).locator("desc").text_content()
    assert page.locator("a.lesson").count() >= 4
    first = page.locator("h2").nth(0).text_content()
    assert first == ("先看这些：需要留意的提交" if lang == "zh" else "Look at these first: flagged submissions")


def test_the_hints_show_both_sides(pages):
    _, (_, hints), page = pages
    page.goto(hints.as_uri())
    kinds = [
        page.locator("section.pair").nth(i).get_attribute("data-kind")
        for i in range(page.locator("section.pair").count())
    ]
    assert sorted(kinds) == ["code", "data", "wrong"]
    code = page.locator('section.pair[data-kind="code"] .sides > div')
    assert code.count() == 2 and all(code.nth(i).locator("mark").count() > 0 for i in range(2))
    left, right = (code.nth(i).bounding_box() for i in range(2))
    assert left["x"] + left["width"] <= right["x"] and abs(left["y"] - right["y"]) < 2  # side by side


def test_print_media_renders_light_and_in_pages(pages, tmp_path):
    _, paths, page = pages
    page.emulate_media(media="print")
    try:
        for path in paths:
            page.goto(path.as_uri())
            assert page.evaluate(JS_DARK) == [], path.name
            assert page.evaluate("getComputedStyle(document.querySelector('thead')).display") == "table-header-group"
            pdf = page.pdf(format="A4", print_background=True)
            pages_printed = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
            assert pdf.startswith(b"%PDF") and pages_printed >= (2 if path.name == classreport.HTML_NAME else 1)
    finally:
        page.emulate_media(media="screen")
