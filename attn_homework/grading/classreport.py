"""The class report: what the whole class got right and wrong, written with every grading run into the
grading folder (and by ``attn-grade --report FOLDER`` from an existing one), in the teacher's language.

- ``class_report.html``: the flagged submissions first (held for review, crashed, timed out, raised an error,
  late); per exercise the median and the spread of the final percentages (interquartile range, 25th–75th
  percentile by linear interpolation, and min–max), a bar chart of the share right per task and a table of the
  most common diagnoses with counts, shares and students; a histogram of the gradebook totals; "what to say
  in class next time": every diagnosed mistake with the lesson section that explains it (``LESSON_SECTIONS``).
  The figures are plain SVG (``attn_viz.svg``) with a title and a description a screen reader reads; the page
  loads nothing from the network and has a print stylesheet.
- ``class_report_tasks.csv``: exercise, task, submissions, right, right_percent, diagnosis, count, percent,
  students (one row per task and diagnosis; a task all right has one row with an empty diagnosis).
- ``class_report_exercises.csv``: exercise, submissions, median, q1, q3, min, max (final percentages).
- ``class_report_totals.csv``: bin_from, bin_to, students (bins of 10, the last one 90–100 inclusive), then
  a row ``held`` with the students without a total yet.

The counts are over the records every other report uses (``reports.current`` after the review decisions):
one per student and exercise, the latest. A share is the count over that exercise's submissions. Every CSV
is written as ``reports._write`` writes them (UTF-8 with a byte-order mark, cells neutralised).
"""

import html
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import numpy as np

from attn_core import lang
from attn_viz import svg as kit

from .. import exercises
from ..messages import msg
from ..messages.grading import MESSAGES
from . import reports
from .integrity import REVIEW, needs_review
from .marks import rounded

HTML_NAME = "class_report.html"
TASKS_CSV = "class_report_tasks.csv"
EXERCISES_CSV = "class_report_exercises.csv"
TOTALS_CSV = "class_report_totals.csv"
NOT_MISTAKES = ("correct", "carried_forward", "not_attempted", "cell_error")
CRASH = ("crashed", "worker_died", "memory_limit", "could_not_start", "grader_error")
UNREADABLE = ("unreadable", "too_large")  # never run: not a crash
ERROR = ("syntax_error", "runtime_error")
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
EDITION_FOLDER = {"zh": "", "en": "en"}

# Where a lesson explains a diagnosis: code -> [(lesson notebook, words in its zh heading, words in its en
# heading)], the first entry whose lesson is the task's own lesson, else the first. Found by its heading's
# text when the report is written (``explain``), so a cell that moved is still found; a heading renamed is
# caught by tests/test_classreport.py, and until then the report points at the whole lesson.
LESSON_SECTIONS = {
    "transposed": [
        ("02_scores_qkt.ipynb", "谁问 × 问谁", "who asks × who is asked"),
        ("01_qkv_projection.ipynb", "三个投影", "Three projections"),
        ("05_weighted_sum.ipynb", "一行输出 = 值向量的混合", "One output row = a mix of value vectors"),
        ("06_full_pipeline.ipynb", "经典错误清单", "The classic mistakes"),
    ],
    "weight_transposed": [("01_qkv_projection.ipynb", "三个投影", "Three projections")],
    "missing_transpose": [
        ("02_scores_qkt.ipynb", "为什么是 $K^\\top$", "Why $K^\\top$"),
        ("06_full_pipeline.ipynb", "经典错误清单", "The classic mistakes"),
    ],
    # 06's "classic mistakes" table covers the transpose, the axis and d_v, not the missing √d_k
    "unscaled": [
        ("03_scaling.ipynb", "分数太大，softmax 会怎样", "What does softmax do when the scores are too large")
    ],
    "scaled_by_dk": [("03_scaling.ipynb", "在例子上算出", "Computing $S = QK^\\top / \\sqrt{d_k}$")],
    "scale_multiplied": [("03_scaling.ipynb", "在例子上算出", "Computing $S = QK^\\top / \\sqrt{d_k}$")],
    "scaled_wrong_width": [("03_scaling.ipynb", "在例子上算出", "Computing $S = QK^\\top / \\sqrt{d_k}$")],
    "scaled_fixed_width": [("03_scaling.ipynb", "在例子上算出", "Computing $S = QK^\\top / \\sqrt{d_k}$")],
    "softmax_axis": [
        ("04_softmax.ipynb", "方向做错了", "What if you go the wrong way"),
        ("06_full_pipeline.ipynb", "经典错误清单", "The classic mistakes"),
    ],
    # keepdims: no lesson section explains it (04's stable version only uses it in a line): the whole lesson
    "overflow": [("04_softmax.ipynb", "数值稳定的写法", "The numerically stable version")],
    "not_normalized": [("04_softmax.ipynb", "一行分数 → 一个分布", "One row of scores → one distribution")],
    "negative_weight": [("04_softmax.ipynb", "一行分数 → 一个分布", "One row of scores → one distribution")],
    "no_softmax": [
        ("04_softmax.ipynb", "一行分数 → 一个分布", "One row of scores → one distribution"),
        ("02_scores_qkt.ipynb", "分数不是概率", "Scores are not probabilities"),
    ],
    "used_keys_not_values": [("05_weighted_sum.ipynb", "决定“取回什么”", 'decides "what to fetch"')],
    "used_scores_not_weights": [
        ("05_weighted_sum.ipynb", "一行输出 = 值向量的混合", "One output row = a mix of value vectors")
    ],
    "mask_inverted": [("07_masks_and_cross_attention.ipynb", "因果掩码", "The causal mask")],
    "mask_upper": [("07_masks_and_cross_attention.ipynb", "因果掩码", "The causal mask")],
    "mask_no_diagonal": [("07_masks_and_cross_attention.ipynb", "因果掩码", "The causal mask")],
    "mask_all_true": [("07_masks_and_cross_attention.ipynb", "因果掩码", "The causal mask")],
    "mask_ignored": [("07_masks_and_cross_attention.ipynb", "因果掩码", "The causal mask")],
    "mask_zero": [("07_masks_and_cross_attention.ipynb", "一行什么都看不见", "when a row can see nothing")],
    "wrong_mask": [("07_masks_and_cross_attention.ipynb", "因果掩码", "The causal mask")],
    "key_mask_on_queries": [("07_masks_and_cross_attention.ipynb", "填充掩码", "Padding masks")],
    "mask_after_softmax": [("07_masks_and_cross_attention.ipynb", "先 softmax，再掩码", "softmax first, mask second")],
}


# ---------------------------------------------------------------- where a lesson explains a mistake


@dataclass(frozen=True)
class Section:
    """A lesson's section: the notebook (a path), its heading's text, the heading cell's number (from 1) and the
    anchor JupyterLab gives the heading; ``heading`` is "" when the report points at the whole lesson."""

    path: Path
    heading: str
    cell: int
    anchor: str


def lesson_folder(edition, notebooks=NOTEBOOKS):
    return Path(notebooks) / EDITION_FOLDER.get(edition, "")


def headings(path):
    """[(cell number from 1, heading text without the #s)] of a notebook's markdown headings."""
    nb = nbformat.read(path, as_version=4)
    found = []
    for number, cell in enumerate(nb.cells, start=1):
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            if line.startswith("#"):
                found.append((number, line.lstrip("#").strip()))
    return found


def _anchor(heading):
    return heading.replace(" ", "-")


def explain(code, exercise, edition, notebooks=NOTEBOOKS):
    """The Section explaining ``code`` in the lesson of ``edition``: the table's entry for the task's own
    lesson, else its first entry, found by heading text; else the exercise's lesson as a whole; None when
    neither is known."""
    lesson = exercises.EXERCISES[exercise].lesson if exercise in exercises.EXERCISES else None
    entries = LESSON_SECTIONS.get(code, [])
    entries = sorted(entries, key=lambda e: e[0] != lesson)
    for file, zh, en in entries:
        path = lesson_folder(edition, notebooks) / file
        words = zh if edition == "zh" else en
        if path.is_file():
            for number, text in headings(path):
                if words in text:
                    return Section(path, text, number, _anchor(text))
    if lesson:
        path = lesson_folder(edition, notebooks) / lesson
        if path.is_file():
            return Section(path, "", 1, "")
    return None


# ---------------------------------------------------------------- the numbers


@dataclass
class TaskStats:
    exercise: str
    task: str
    n: int
    right: int
    diagnoses: list  # [(code, count, [student labels])], most frequent first
    messages: dict = field(default_factory=dict)  # code -> an example of what the students were told


@dataclass
class ExerciseStats:
    exercise: str
    n: int
    median: float
    q1: float
    q3: float
    low: float
    high: float
    tasks: list


def percent(count, n):
    return msg("cr_percent", value=rounded(100.0 * count / n)) if n else "–"


def student_label(student):
    return reports._student_label(student)


def _id_messages():
    return {text for pair in [MESSAGES["student_id_needed"], MESSAGES["student_id_missing"]] for text in pair}


def id_only(task):
    """Whether a task's result is only the missing ID cell's doing (its data cell raised, or its numbers were
    drawn, without a student number): no sign of what the student understood."""
    return task is not None and not task.ok and task.message.strip() in _id_messages()


def counted(records):
    """The records the per-task rates and diagnoses are over: none held for review or reviewed (a teacher's
    notebook, a file whose owner is in doubt, another student's data: integrity, not a misconception)."""
    return [r for r in records if not needs_review(r)]


def task_stats(exercise, records):
    """Per task: right and diagnoses over ``counted(records)``, a result due only to a missing ID cell
    (``id_only``) left out of both; an example of what the students were told, from a student of the teacher's
    language only."""
    records = counted(records)
    ids = [t.id for t in exercises.tasks(exercise)] if exercise in exercises.EXERCISES else reports.task_ids(records)
    out = []
    for task_id in ids:
        results = [(r, next((t for t in r.tasks if t.id == task_id), None)) for r in records]
        results = [(r, t) for r, t in results if not id_only(t)]
        right = sum(1 for _, t in results if t is not None and t.ok)
        counts, who, told = Counter(), {}, {}
        for record, t in results:
            code = "not_attempted" if t is None else t.code
            if t is not None and t.ok:
                continue
            counts[code] += 1
            who.setdefault(code, []).append(student_label(record.student))
            if t is not None and t.message and code not in told and record.edition == lang.get_lang():
                told[code] = t.message
        diagnoses = [(code, count, who[code]) for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
        out.append(TaskStats(exercise, task_id, len(results), right, diagnoses, told))
    return out


def exercise_stats(records, points, late):
    groups = {}
    for record in reports.in_order(records):
        if record.exercise:
            groups.setdefault(record.exercise, []).append(record)
    stats = []
    for exercise, group in groups.items():
        finals = np.array([reports.mark(r, points, late).final for r in group], dtype=float)
        q1, median, q3 = np.percentile(finals, [25, 50, 75])  # linear interpolation (numpy's default)
        stats.append(
            ExerciseStats(
                exercise,
                len(group),
                float(median),
                float(q1),
                float(q3),
                float(finals.min()),
                float(finals.max()),
                task_stats(exercise, group),
            )
        )
    return stats


def histogram(totals):
    """Counts of totals in the bins [0, 10), [10, 20), …, [90, 100] (the last one closed)."""
    counts = [0] * 10
    for t in totals:
        counts[min(int(t // 10), 9) if t >= 0 else 0] += 1
    return counts


def flags(record, late, names=None):
    """[(kind, reason)] of a record: integrity (held, or reviewed), unreadable, crash, timeout, error, blank
    (an untouched notebook, even when its data cells raised for want of the ID), late."""
    found = []
    blank = is_blank(record)
    for note in reports.with_late_note(record, late):
        if note.code in REVIEW:
            kind = msg("cr_flag_decided", decision=record.decision) if record.decision else msg("cr_flag_integrity")
        elif note.code in UNREADABLE:
            kind = msg("cr_flag_unreadable")
        elif note.code in CRASH:
            kind = msg("cr_flag_crash")
        elif note.code in ERROR and blank:
            found.append((msg("cr_flag_blank"), msg("cr_blank_why")))
            continue
        elif note.code in ERROR and _id_error(note):
            kind = msg("cr_flag_no_id")
        elif note.code == "timeout":
            kind = msg("cr_flag_timeout")
        elif note.code in ERROR:
            kind = msg("cr_flag_error")
        elif note.code == "late":
            kind = msg("cr_flag_late")
        elif note.code == "blank":
            kind = msg("cr_flag_blank")
        else:
            continue
        found.append((kind, reason(note, names)))
    return found


def is_blank(record):
    """No task attempted, and whatever raised was only the missing ID cell: an untouched notebook (the grader's
    ``blank``), whose data cells raise without a student number; not code of the student's that failed."""
    if not record.tasks or any(t.code != "not_attempted" for t in record.tasks):
        return False
    errors = [n for n in record.notes if n.code in ERROR]
    return bool(errors) and all(_id_error(n) for n in errors)


def _id_error(note):
    """An error status raised only by a data cell wanting the student number."""
    return any(m in note.detail for m in _id_messages())


def reason(note, names=None):
    """A status in words; an identity_conflict names the students its numbers are (``names``: number ->
    "name number"), and a teacher's notebook says what its mark is."""
    if note.code == "identity_conflict":
        parts = dict(part.strip().partition("=")[::2] for part in note.detail.split(";") if "=" in part)
        who = lambda number: (names or {}).get(number, number)  # noqa: E731
        said = []
        if "id_cell" in parts:
            said.append(msg("cr_conflict_id_cell", student=who(parts["id_cell"])))
        lms = parts.get("lms_number") or parts.get("lms_name")
        if lms:
            said.append(msg("cr_conflict_lms", student=who(lms)))
        if "student_id" in parts:
            said.append(msg("cr_conflict_moved", student=who(parts["student_id"])))
        if said:
            return msg("cr_conflict", said=msg("list_separator").join(said))
    if note.code == "teacher_version":
        return reports.note_text(note) + msg("cr_teacher_mark")
    return reports.note_text(note)


# ---------------------------------------------------------------- the figures


def rates_svg(stats):
    """Horizontal bars: the share right of each task of one exercise."""
    rows = stats.tasks
    width, left, bar_w, row_h = 640, 70, 460, 34
    height = 40 + row_h * len(rows) + 30
    items = msg("list_separator").join(f"{t.task} {percent(t.right, t.n)}" for t in rows)
    title = msg("cr_rates_title", exercise=stats.exercise)
    s = kit.Svg(width, height, title, msg("cr_rates_desc", items=items))
    s.text(0, 22, title, size=16, bold=True)
    top = 40
    for tick in (0, 50, 100):
        x = left + bar_w * tick / 100
        s.line(x, top - 4, x, top + row_h * len(rows), stroke=kit.GRID)
        s.text(x, top + row_h * len(rows) + 20, msg("cr_percent", value=tick), size=14, anchor="middle", fill=kit.MUTED)
    for i, t in enumerate(rows):
        y = top + i * row_h
        share = t.right / t.n if t.n else 0.0
        s.text(left - 10, y + 22, t.task, size=15, anchor="end")
        s.rect(left, y + 6, bar_w * share, row_h - 12, fill=kit.BAR)
        s.text(left + bar_w * share + 6, y + 22, percent(t.right, t.n), size=14)
    return s.render()


def histogram_svg(counts):
    width, height, left, bottom = 640, 300, 50, 250
    plot_w, plot_h = 560, 190
    top = max(counts) if counts and max(counts) > 0 else 1
    labels = [f"{10 * i}–{10 * i + 10}" for i in range(10)]
    items = msg("list_separator").join(f"{label}: {c}" for label, c in zip(labels, counts))
    s = kit.Svg(width, height, msg("cr_hist_title"), msg("cr_hist_desc", items=items))
    slot = plot_w / 10
    for step in sorted({0, top // 2, top}):
        y = bottom - plot_h * step / top
        s.line(left, y, left + plot_w, y, stroke=kit.GRID)
        s.text(left - 8, y + 5, str(step), size=14, anchor="end", fill=kit.MUTED)
    for i, c in enumerate(counts):
        h = plot_h * c / top
        s.rect(left + i * slot + 4, bottom - h, slot - 8, h, fill=kit.BAR)
        if c:
            s.text(left + (i + 0.5) * slot, bottom - h - 6, str(c), size=14, anchor="middle", bold=True)
        s.text(left + i * slot, bottom + 20, str(10 * i), size=14, anchor="middle", fill=kit.MUTED)
    s.text(left + plot_w, bottom + 20, "100", size=14, anchor="middle", fill=kit.MUTED)
    s.text(left + plot_w / 2, bottom + 44, msg("cr_hist_axis"), size=14, anchor="middle")
    s.text(14, bottom - plot_h / 2, msg("cr_hist_people"), size=14, anchor="middle", rotate=-90)
    return s.render()


# ---------------------------------------------------------------- the page

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei",
       sans-serif; max-width: 64rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1f2328;
       background: #ffffff; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.3rem; margin-top: 2rem; } h3 { font-size: 1.1rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { border-bottom: 1px solid #d0d7de; padding: .35rem .5rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num { text-align: right; white-space: nowrap; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
.muted { color: #59636e; }
figure { margin: 1rem 0; }
a { color: #0b57d0; }
@media print {
  body { max-width: none; margin: 0; color: #000000; font-size: 10.5pt; }
  a { color: #000000; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  thead { display: table-header-group; }
  tr, figure, li { break-inside: avoid; page-break-inside: avoid; }
  section.exercise { break-before: auto; }
}
"""


def page(title, body):
    lang_attr = "zh-CN" if lang.get_lang() == "zh" else "en"
    esc = html.escape
    return (
        f'<!DOCTYPE html>\n<html lang="{lang_attr}">\n<head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{STYLE}</style></head>\n<body>\n<main>\n<h1>{esc(title)}</h1>\n"
        f"{body}\n</main>\n</body>\n</html>\n"
    )


def _table(head, rows, numeric=()):
    esc = html.escape
    head_html = "".join(f'<th scope="col">{esc(h)}</th>' for h in head)
    body = "".join(
        "<tr>"
        + "".join(f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>" for i, c in enumerate(row))
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head_html}</tr></thead><tbody>{body}</tbody></table>"


_TEX = {"\\top": "ᵀ", "\\sqrt": "√", "\\cdot": "·", "\\times": "×", "\\to": "→", "\\infty": "∞", "\\,": " "}


def plain(heading):
    """A heading's text without its LaTeX: ``$K^\\top$`` reads Kᵀ, ``\\sqrt{d_k}`` √d_k."""
    import re

    def one(m):
        t = m.group(1)
        for tex, text in _TEX.items():
            t = t.replace(tex, text)
        t = re.sub(r"\\(?:mathrm|text|mathbf|operatorname)\{([^{}]*)\}", r"\1", t)
        t = re.sub(r"\^\{?ᵀ\}?", "ᵀ", t).replace("{", "").replace("}", "")
        return re.sub(r"\\([A-Za-z]+)", r"\1", t).replace(" ^", "^").strip()

    return re.sub(r"\$([^$]*)\$", one, heading)


def _link(section, folder):
    esc = html.escape
    try:
        href = Path(os.path.relpath(section.path, folder)).as_posix()
    except ValueError:  # another drive (Windows)
        href = section.path.resolve().as_uri()
    shown = section.path.parent.name + "/" + section.path.name if section.path.parent.name == "en" else None
    lesson = shown or section.path.name
    if section.heading:
        text = msg("cr_lesson", lesson=lesson, cell=section.cell, heading=plain(section.heading))
        href += "#" + section.anchor
    else:
        text = msg("cr_lesson_whole", lesson=lesson)
    return f'<a class="lesson" href="{esc(href, quote=True)}" data-heading="{esc(section.heading)}">{esc(text)}</a>'


@dataclass
class Report:
    records: list
    stats: list
    totals: list
    held: int
    flagged: list  # [(record, [(kind, reason)])]


def compute(records, points, late, roster=None, include=()):
    graded = [r for r in records if r.exercise]
    stats = exercise_stats(graded, points, late)
    rows, _ = reports.gradebook_rows(records, points, late, roster, include)
    counted = [row for row in rows if not row.held and (row.records or row.student.in_roster)]
    totals = [row.total for row in counted]
    held = sum(1 for row in rows if row.held)
    names = {r.student.id: student_label(r.student) for r in records if r.student.id and r.student.in_roster}
    if roster is not None:
        names.update({st.id: student_label(st) for st in getattr(roster, "students", ()) if st.id})
    flagged = [(r, f) for r in reports.in_order(records) for f in [flags(r, late, names)] if f]
    return Report(records, stats, totals, held, flagged)


def html_page(report, folder, points, late, notebooks=NOTEBOOKS):
    esc = html.escape
    parts = []
    students = len({r.student.key for r in report.records})
    parts.append(f"<p>{esc(msg('cr_intro', n=len(report.records), students=students))}</p>")
    parts.append(f'<p class="muted">{esc(msg("cr_print_note"))}</p>')
    # flagged first
    parts.append(f"<h2>{esc(msg('cr_flagged'))}</h2>")
    if report.flagged:
        parts.append(f"<p>{esc(msg('cr_flagged_intro'))}</p>")
        rows = [
            [
                esc(student_label(r.student)),
                esc(r.exercise or "?"),
                esc(msg("list_separator").join(dict.fromkeys(k for k, _ in f))),
                esc("; ".join(reason for _, reason in f)),
                rounded(reports.mark(r, points, late).final) if r.exercise else "",
                f"<code>{esc(r.label)}</code>",
            ]
            for r, f in report.flagged
        ]
        head = [msg(k) for k in ("cr_col_student", "cr_col_exercise", "cr_col_flags", "cr_col_why")]
        head += [msg("cr_col_percent"), msg("cr_col_file")]
        parts.append(_table(head, rows, numeric=(4,)))
    else:
        parts.append(f"<p>{esc(msg('cr_flagged_none'))}</p>")
    # per exercise
    parts.append(f"<h2>{esc(msg('cr_exercises'))}</h2><p>{esc(msg('cr_counted_note'))}</p>")
    for st in report.stats:
        known = exercises.EXERCISES.get(st.exercise)
        title = st.exercise + (f" · {known.title}" if known else "")
        summary = msg(
            "cr_exercise_summary",
            n=st.n,
            median=rounded(st.median),
            q1=rounded(st.q1),
            q3=rounded(st.q3),
            low=rounded(st.low),
            high=rounded(st.high),
        )
        parts.append(f'<section class="exercise"><h3>{esc(title)}</h3><p>{esc(summary)}</p>')
        parts.append(f"<figure>{rates_svg(st)}</figure>")
        rows = []
        for t in st.tasks:
            shares = msg("list_separator").join(
                msg("cr_share", code=code, count=count, percent=percent(count, t.n)) for code, count, _ in t.diagnoses
            )
            who = "<br>".join(
                f"<code>{esc(code)}</code>: {esc(msg('list_separator').join(names))}" for code, _, names in t.diagnoses
            )
            rows.append(
                [
                    esc(t.task),
                    esc(msg("cr_right_of", right=t.right, n=t.n, percent=percent(t.right, t.n))),
                    esc(shares or msg("cr_all_right")),
                    who,
                ]
            )
        head = [msg(k) for k in ("cr_col_task", "cr_col_right", "cr_col_diagnoses", "cr_col_students")]
        parts.append(_table(head, rows) + "</section>")
    # totals
    counts = histogram(report.totals)
    parts.append(f"<h2>{esc(msg('cr_totals'))}</h2><p>{esc(msg('cr_totals_intro', held=report.held))}</p>")
    parts.append(f"<figure>{histogram_svg(counts)}</figure>")
    labels = [f"{10 * i}–{10 * i + 10}" + (")" if i < 9 else "]") for i in range(10)]
    labels = ["[" + label for label in labels]
    parts.append(_table([msg("cr_col_range"), msg("cr_col_count")], list(zip(labels, counts)), numeric=(1,)))
    # what to say next time
    parts.append(f"<h2>{esc(msg('cr_next_time'))}</h2><p>{esc(msg('cr_next_intro'))}</p>")
    mistakes = next_time(report.stats)
    if not mistakes:
        parts.append(f"<p>{esc(msg('cr_next_none'))}</p>")
    items = []
    for code, count, where, told in mistakes:
        tasks = msg("list_separator").join(f"{task} ({n})" for task, n in where)
        sections = []
        for exercise in dict.fromkeys(ex for ex, _ in _task_exercises(where)):
            section = explain(code, exercise, lang.get_lang(), notebooks)
            if section is not None and section not in sections:
                sections.append(section)
        links = "<br>".join(_link(s, folder) for s in sections)
        example = f'<br><span class="muted">{esc(msg("cr_example"))}{esc(told)}</span>' if told else ""
        said = esc(
            msg("cr_next_item", tasks=tasks, count=count, students=msg("cr_student" if count == 1 else "cr_students"))
        )
        items.append(f"<li><code>{esc(code)}</code> — {said}<br>{links}{example}</li>")
    if items:
        parts.append("<ul>" + "".join(items) + "</ul>")
    return page(msg("cr_title"), "\n".join(parts))


def _task_exercises(where):
    return [(exercises.TASKS[task].exercise if task in exercises.TASKS else "", n) for task, n in where]


def next_time(stats):
    """[(code, students, [(task, count)], an example message)] of every diagnosed mistake, most frequent first;
    ``students`` counts each student once, whatever number of tasks they made it in."""
    found = {}
    for st in stats:
        for t in st.tasks:
            for code, count, names in t.diagnoses:
                if code in NOT_MISTAKES:
                    continue
                entry = found.setdefault(code, [set(), [], ""])
                entry[0].update(names)  # a student once per diagnosis, however many tasks
                entry[1].append((t.task, count))
                entry[2] = entry[2] or t.messages.get(code, "")
    ordered = sorted(found.items(), key=lambda kv: (-len(kv[1][0]), kv[0]))
    return [(code, len(who), where, told) for code, (who, where, told) in ordered]


# ---------------------------------------------------------------- the files


def tasks_rows(report):
    rows = [["exercise", "task", "submissions", "right", "right_percent", "diagnosis", "count", "percent", "students"]]
    for st in report.stats:
        for t in st.tasks:
            base = [st.exercise, t.task, t.n, t.right, rounded(100.0 * t.right / t.n) if t.n else ""]
            if not t.diagnoses:
                rows.append([*base, "", 0, 0, ""])
            for code, count, names in t.diagnoses:
                rows.append([*base, code, count, rounded(100.0 * count / t.n), "; ".join(names)])
    return rows


def write(folder, records, points, late, roster=None, include=(), notebooks=NOTEBOOKS):
    """Write the class report's four files into ``folder``; returns the HTML page's path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    report = compute(records, points, late, roster, include)
    reports._write(folder / TASKS_CSV, tasks_rows(report))
    reports._write(
        folder / EXERCISES_CSV,
        [["exercise", "submissions", "median", "q1", "q3", "min", "max"]]
        + [[s.exercise, s.n, *(rounded(v) for v in (s.median, s.q1, s.q3, s.low, s.high))] for s in report.stats],
    )
    counts = histogram(report.totals)
    reports._write(
        folder / TOTALS_CSV,
        [["bin_from", "bin_to", "students"]]
        + [[10 * i, 10 * i + 10, c] for i, c in enumerate(counts)]
        + [["held", "", report.held]],
    )
    path = folder / HTML_NAME
    partial = path.with_name(path.name + ".partial")
    partial.write_text(html_page(report, folder, points, late, notebooks), encoding="utf-8")
    os.replace(partial, path)
    return path


def report_folder(folder, points, late, roster=None, include=()):
    """``attn-grade --report FOLDER``: the class report and the similarity hints from a grading folder's
    results and review decisions, nothing graded and no other file touched; returns the exit status."""
    import sys

    from . import review
    from .results import Store

    store = Store(Path(folder) / "results.jsonl")
    if not store.records:
        print(msg("cr_no_results", folder=folder), file=sys.stderr)
        return 1
    decisions = review.read(folder)
    everything = review.apply(reports.current(store.records, roster), decisions, roster)
    for path in write_all(folder, everything, points, late, roster, include):
        print(msg("cr_written", file=path), file=sys.stderr)
    return 0


def write_all(folder, records, points, late, roster=None, include=()):
    """The class report and the similarity hints (``similarity``) of a grading folder; returns their paths."""
    from . import similarity

    return [write(folder, records, points, late, roster, include), similarity.write(folder, records, roster)]
