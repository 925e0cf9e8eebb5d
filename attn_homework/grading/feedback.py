"""Feedback a student can read: one HTML page per submission, in the language of the submission's edition.

The page opens in any browser without a network (no script, no external file): the exercise, the
student, the mark, what the grader noticed (timeout in cell N, cells changed, late, …) and one row per
task with ✅ / ❌ / ⏳ and the checker's hint, the same sentence ``check("2.1")`` prints in the notebook.
It never shows an expected answer: the checker's messages never contain one.
"""

import html
from pathlib import Path

from .. import exercises
from ..messages import msg
from .checking import language
from .collect import MAX_KEPT, MAX_NOTEBOOK
from .marks import rounded
from .reports import mark, note_text, safe_name, with_late_note

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei",
       sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.6; color: #1f2328; }
h1 { font-size: 1.5rem; margin-bottom: .25rem; }
.mark { font-size: 1.25rem; margin: .5rem 0 1rem; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #d0d7de; padding: .5rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.icon { font-size: 1.2rem; width: 2rem; }
th, td.nowrap { white-space: nowrap; }
.notes li { margin: .25rem 0; }
footer { margin-top: 2rem; color: #59636e; font-size: .9rem; }
"""


def _icon(result):
    if result.ok:
        return "✅"
    return "⏳" if result.code == "not_attempted" else "❌"


def _explained(note):
    """A status as a student reads it: what happened, and what it means for the mark."""
    key = f"fb_why_{note.code}"
    if key not in msg:
        return note_text(note)
    limits = {"file_limit": f"{MAX_NOTEBOOK >> 20} MiB", "kept_limit": f"{MAX_KEPT >> 20} MiB"}
    return msg("fb_explained", status=note_text(note), why=msg(key, **limits))


def page(record, points, late):
    """The feedback page of one graded submission, as an HTML string in its edition's language."""
    esc = html.escape
    with language(record.edition):
        exercise = exercises.EXERCISES.get(record.exercise)
        title = f"{record.exercise}" + (f" · {exercise.title}" if exercise else "")
        m = mark(record, points, late)
        student = record.student
        who = " ".join(part for part in (student.name, student.id) if part) or student.key
        notes = [n for n in with_late_note(record, late) if n.code != "completed"]
        rows = []
        for result in record.tasks:
            task = exercises.TASKS.get(result.id)
            worth = rounded(points.of(result.id))
            got = worth if result.ok else "0"
            rows.append(
                "<tr>"
                f'<td class="icon">{_icon(result)}</td>'
                f'<td class="nowrap">{esc(result.id)}</td>'
                f"<td>{esc(task.title if task else '')}</td>"
                f'<td class="nowrap">{got} / {worth}</td>'
                f"<td>{esc(result.message)}</td>"
                "</tr>"
            )
        score = msg("fb_mark", earned=rounded(m.earned), possible=rounded(m.possible), percent=rounded(m.percent))
        if m.final != m.percent:
            score += " " + msg("fb_after_late", final=rounded(m.final))
        notes_html = ""
        if notes:
            items = "".join(f"<li>{esc(_explained(n))}</li>" for n in notes)
            notes_html = f'<h2>{esc(msg("fb_notes"))}</h2><ul class="notes">{items}</ul>'
        lang_attr = "zh-CN" if record.edition == "zh" else "en"
        return f"""<!DOCTYPE html>
<html lang="{lang_attr}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(msg("fb_title", exercise=title))}</title><style>{_STYLE}</style></head>
<body>
<h1>{esc(msg("fb_title", exercise=title))}</h1>
<p>{esc(msg("fb_student", student=who))}</p>
<p class="mark">{esc(score)}</p>
{notes_html}
<table>
<thead><tr><th></th><th>{esc(msg("fb_task"))}</th><th>{esc(msg("fb_task_title"))}</th><th>{esc(msg("fb_points"))}</th>
<th>{esc(msg("fb_hint"))}</th></tr></thead>
<tbody>
{"".join(rows)}
</tbody>
</table>
<footer>{esc(msg("fb_footer"))}</footer>
</body>
</html>
"""


def write(records, folder, points, late):
    """One page per record with a known exercise, named ``<student>_<exercise>.html`` (a second submission
    of the same student and exercise, held for review, gets its file's name too); returns {label: path}."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths, used = {}, set()
    for record in records:
        if not record.exercise:
            continue
        name = f"{safe_name(record.student.key)}_{record.exercise}"
        if name in used:
            name += "_" + safe_name(Path(record.label).stem)
        used.add(name)
        path = folder / f"{name}.html"
        path.write_text(page(record, points, late), encoding="utf-8")
        paths[record.label] = path
    return paths
