"""Similarity hints, never verdicts: pairs of submissions of the same exercise worth a second look, written
into the grading folder as ``similarity.html`` (the evidence side by side) and ``similarity.csv``, in the
teacher's language. Nothing takes marks off and nothing leaves the machine.

Three kinds:

- ``code``: answer cells near-identical beyond what the task forces. Each submission's code cells that are
  not a cell of the handout (the starter code, every edition) or of the teacher's notebook (solution
  included) are compared with ``copydetect`` (Stein, copydetect; the winnowing of Schleimer, Wilkerson &
  Aiken 2003, "Winnowing: local algorithms for document fingerprinting", the method of MOSS), with the
  handout's and the solution's fingerprints as its boilerplate: what equals them does not count. The lines
  of the handout and the solution are first taken out of each cell (``own_cells``), so a solution written
  in place of the starter's ``...`` is the teacher's, not the student's, and no fingerprint spans two
  cells' boilerplate. A submission with fewer than ``MIN_LINES`` lines or ``MIN_OVERLAP`` characters of its
  own code is never compared (a one-line ``axis=0`` is everyone's mistake). copydetect
  replaces names and strings before fingerprinting, so renamed variables still match. A pair is listed when
  it shares at least ``MIN_OVERLAP`` characters of filtered code and the higher of its two overlap shares is
  at least ``MIN_SIMILARITY``: a one-line answer is below that, whoever wrote it.
- ``wrong``: the same wrong answer, the same diagnosis and the same numbers (to 6 significant digits), that
  few others have (at most ``max(2, 10 %)`` of the exercise's submissions), when the numbers are not forced:
  the checker could name no known mistake that makes them (none, or only a symptom such as
  ``not_normalized``: ``UNNAMED``), or the two students' data differ. Answers of only NaN or inf are never
  one (overflow makes them from anyone's data).
- ``data``: an answer wrong for its student's own data and right for another student's (the grader knows
  every student's data: ``task_data.student_data``): tried against the data of every other student graded
  for the exercise, and the grader's own ``other_students_data`` status (the roster's students).

The answers and cells compared are kept, as each submission is graded, in ``similarity_evidence.jsonl``
(``Evidence``, appended by ``Batch``), so ``attn-grade --report FOLDER`` rebuilds the hints without the
notebooks.
"""

import contextlib
import hashlib
import html
import io
import json
import os
import re
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import nbformat
import numpy as np

from .. import exercises
from ..checker.steps import STEP_TABLE
from ..messages import msg
from ..student import BEGIN, END, TEACHER_FOLDER, strip_solutions
from ..task_data import student_data
from .checking import check_answers
from .classreport import NOT_MISTAKES, NOTEBOOKS, STYLE, _table, lesson_folder, page, student_label
from .reports import _write

EVIDENCE = "similarity_evidence.jsonl"
HTML_NAME = "similarity.html"
CSV_NAME = "similarity.csv"
K = 25  # copydetect's noise threshold: k-grams of 25 characters of filtered code (its default)
WINDOW = 4  # winnowing window: every common run of K + WINDOW - 1 characters is found
MIN_OVERLAP = 60  # characters of filtered code two submissions must share
MIN_SIMILARITY = 0.6  # and the higher of the two overlap shares
MIN_LINES = 3  # lines of a submission's own code (beyond the handout and the solution) before it is compared
# wrong, with no known mistake that makes these numbers: either no diagnosis at all, or one that names a
# symptom of the result (rows not summing to 1, a wrong dtype), not a mechanism that forces the same numbers
UNNAMED = ("wrong_values", "wrong_shape", "crossed", "not_normalized", "int_dtype", "wrong_type")
MAX_NUMBERS = 4096  # numbers of one answer kept as evidence
MAX_CODE = 200_000  # characters of a submission's code cells kept
SHOWN_NUMBERS = 12


# ---------------------------------------------------------------- what grading keeps


def _answers(events):
    found = {}
    for event in events:
        if event.get("event") == "answers" and isinstance(event.get("answers"), dict):
            found = event["answers"]
    return found


class Evidence:
    """``similarity_evidence.jsonl`` in a grading folder: per graded submission its code cells and its wrong
    answers' numbers (one JSON line, appended when it is graded)."""

    def __init__(self, path):
        self.path = Path(path)

    def add(self, record, nb, events):
        try:
            self._add(record, nb, events)
        except (OSError, TypeError, ValueError, AttributeError):
            pass  # a hint lost, never a grading run

    def _add(self, record, nb, events):
        if not record.exercise or nb is None:
            return
        answers = _answers(events)
        by_id = {t.id: t.var for t in exercises.tasks(record.exercise)}
        wrong = {}
        for t in record.tasks:
            entry = answers.get(by_id.get(t.id))
            if t.ok or t.code in NOT_MISTAKES or not isinstance(entry, dict) or entry.get("kind") != "array":
                continue
            if len(entry.get("data") or ()) <= MAX_NUMBERS:
                wrong[t.id] = entry
        code, size = [], 0
        for cell in nb.cells:
            if cell.cell_type == "code" and size < MAX_CODE:
                code.append(str(cell.source)[: MAX_CODE - size])
                size += len(code[-1])
        line = {
            "sha256": record.sha256,
            "exercise": record.exercise,
            "student": record.student.key,
            "label": record.label,
            "data_id": record.data_id,
            "code": code,
            "wrong": wrong,
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")


def read_evidence(folder):
    """{(sha256, exercise): entry}, the latest line of each."""
    path = Path(folder) / EVIDENCE
    found = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                entry = json.loads(line)
                found[entry["sha256"], entry["exercise"]] = entry
            except (ValueError, KeyError, TypeError):
                continue
    return found


# ---------------------------------------------------------------- what the task forces


def _normal(source):
    return "\n".join(line.rstrip() for line in str(source).strip().splitlines())


def _solution_parts(source):
    """The lines inside a cell's solution regions."""
    inside, lines = False, []
    for line in source.splitlines():
        if line.strip() == BEGIN:
            inside = True
        elif line.strip() == END:
            inside = False
        elif inside:
            lines.append(line)
    return "\n".join(lines)


def template(exercise, notebooks=NOTEBOOKS):
    """The code every submission of ``exercise`` may share: each teacher notebook's code cells (both editions),
    their student versions (the starter code) and their solutions alone."""
    cells = []
    for edition in ("zh", "en"):
        path = lesson_folder(edition, notebooks) / "exercises" / TEACHER_FOLDER / f"{exercise}.ipynb"
        if not path.is_file():
            continue
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            cells.append(cell.source)
            try:
                cells.append(strip_solutions(cell.source))
            except ValueError:
                pass
            solution = _solution_parts(cell.source)
            if solution:
                cells.append(solution)
    return cells


ID_CELL = re.compile(r"^(?:\s*#[^\n]*\n|\s*\n)*\s*(?:homework\.)?set_student_id\([^)\n]*\)[^\n]*\s*$")


def _line(text):
    return " ".join(text.split())


def own_cells(code, forced):
    """A submission's own code, cell by cell: its code cells that are not a cell the task hands out or solves,
    nor the ID cell of a per-student release (the same cell with each student's number), each with the lines
    the handout or the solution has (the starter line, its comment, the solution written in place of the
    ``...``, in any edition) taken out. What is left of a cell is what the student wrote."""
    known = {_normal(c) for c in forced}
    lines = {_line(line) for c in forced for line in str(c).splitlines()}
    cells = []
    for c in code:
        if not _normal(c) or _normal(c) in known or ID_CELL.match(c):
            continue
        kept = [line.rstrip() for line in str(c).splitlines() if _line(line) and _line(line) not in lines]
        if kept:
            cells.append("\n".join(kept))
    return cells


def answer_text(code, forced):
    """A submission's own code (``own_cells``), its cells one after another."""
    return "\n\n".join(own_cells(code, forced))


def own_lines(text):
    """The lines of code (not blank, not only a comment) in a submission's own text."""
    return [line for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


# ---------------------------------------------------------------- the hints


@dataclass
class Hint:
    kind: str  # "code", "wrong" or "data"
    exercise: str
    task: str
    a: object  # the Graded records
    b: object
    detail: str
    left: str = ""
    right: str = ""
    numbers: list = field(default_factory=list)
    overlap: int = 0
    shares: tuple = (0.0, 0.0)
    marks: tuple = ((), ())  # copied character ranges of left and right
    other: str = ""  # the other student when only their number is known (kind "data")


def _cell_of(code, var):
    pattern = re.compile(rf"^\s*(?:{re.escape(var)}\s*=|def\s+{re.escape(var)}\b)", re.M)
    found = [c for c in code if pattern.search(c)]
    return found[-1] if found else ""


def _digest(entry):
    data = np.asarray(entry.get("data") or [], dtype=float)
    rounded = [float(f"{x:.6g}") if np.isfinite(x) else str(x) for x in data.tolist()]
    return json.dumps([entry.get("shape"), rounded])


def _numbers(entry):
    return [f"{x:.6g}" for x in (entry.get("data") or [])[:SHOWN_NUMBERS]]


_same_data_cache = {}


def same_data(task_id, id_a, id_b):
    """Whether two students get the same inputs for ``task_id`` (per-student data differ by student)."""
    if id_a == id_b:
        return True
    key = (task_id, id_a, id_b)
    if key not in _same_data_cache:
        with student_data(id_a):
            a = exercises.task(task_id).data()
        with student_data(id_b):
            b = exercises.task(task_id).data()
        _same_data_cache[key] = all(np.array_equal(np.asarray(x), np.asarray(y)) for x, y in zip(a, b))
    return _same_data_cache[key]


def _copydetect():
    try:
        import copydetect

        return copydetect
    except ImportError:
        return None


def _stable_kgrams(string, k):
    """copydetect's ``hashed_kgrams`` with a hash that is the same in every process (it uses Python's
    ``hash``, salted per process, so a report rebuilt later would list other overlaps)."""
    return np.array(
        [
            int.from_bytes(
                hashlib.blake2b(string[i : i + k].encode("utf-8"), digest_size=8).digest(), "big", signed=True
            )
            for i in range(len(string) - k + 1)
        ],
        dtype=np.int64,
    )


@contextlib.contextmanager
def _stable_hashes(cd):
    utils = cd.utils
    saved = utils.hashed_kgrams
    utils.hashed_kgrams = _stable_kgrams
    try:
        yield
    finally:
        utils.hashed_kgrams = saved


def code_hints(group, evidence, notebooks=NOTEBOOKS):
    """The ``code`` hints of one exercise's records (copydetect is imported only when two students have code
    of their own long enough to compare)."""
    if not group:
        return []
    forced = template(group[0].exercise, notebooks)
    texts = []
    for record in group:
        entry = evidence.get((record.sha256, record.exercise))
        text = answer_text(entry["code"], forced) if entry else ""
        code = own_lines(text)
        if len(code) >= MIN_LINES and len("".join(code)) >= MIN_OVERLAP:  # a short answer is never compared
            texts.append((record, text))
    if len({record.student.key for record, _ in texts}) < 2:
        return []
    cd = _copydetect()
    if cd is None:
        return []
    with _stable_hashes(cd):
        return _code_hints(cd, group[0].exercise, texts, forced)


def _code_hints(cd, exercise, texts, forced):
    boilerplate = cd.CodeFingerprint("template.py", K, 1, fp=io.StringIO("\n\n".join(forced)), language="python")
    known = np.array(sorted(boilerplate.hashes))
    prints = []
    for record, text in texts:
        name = f"{len(prints)}.py"
        fp = cd.CodeFingerprint(name, K, WINDOW, boilerplate=known, fp=io.StringIO(text), language="python")
        if fp.token_coverage:
            prints.append((record, text, fp))
    hints = []
    for (ra, ta, fa), (rb, tb, fb) in combinations(prints, 2):
        if ra.student.key == rb.student.key:
            continue
        overlap, shares, slices = cd.compare_files(fa, fb)
        if overlap >= MIN_OVERLAP and max(shares) >= MIN_SIMILARITY:
            pa, pb = (msg("cr_percent", value=f"{100 * s:.0f}") for s in shares)
            hints.append(
                Hint(
                    "code",
                    exercise,
                    "",
                    ra,
                    rb,
                    msg("sm_code_detail", a=pa, b=pb, tokens=int(overlap)),
                    ta,
                    tb,
                    overlap=int(overlap),
                    shares=(float(shares[0]), float(shares[1])),
                    marks=tuple(list(zip(*(s.astype(int).tolist() for s in sl))) for sl in slices),
                )
            )
    return hints


def wrong_hints(group, evidence):
    by_answer = {}
    for record in group:
        entry = evidence.get((record.sha256, record.exercise))
        if not entry:
            continue
        codes = {t.id: t.code for t in record.tasks}
        for task_id, answer in entry.get("wrong", {}).items():
            if codes.get(task_id) in (None, *NOT_MISTAKES):
                continue
            if not np.isfinite(np.asarray(answer.get("data") or [], dtype=float)).any():
                continue  # only NaN or inf: overflow makes them from anyone's data, no sign of a shared answer
            by_answer.setdefault((task_id, codes[task_id], _digest(answer)), []).append((record, entry, answer))
    rare = max(2, len(group) // 10)
    hints = []
    for (task_id, code, _), found in by_answer.items():
        if not 2 <= len(found) <= rare:
            continue
        var = exercises.task(task_id).var
        for (ra, ea, answer), (rb, eb, _) in combinations(found, 2):
            if ra.student.key == rb.student.key:
                continue
            if code not in UNNAMED and same_data(task_id, ra.data_id, rb.data_id):
                continue  # a known mistake on the same data makes the same numbers for everyone who makes it
            detail = msg("sm_wrong_detail", task=task_id, code=code, n=len(group), k=len(found))
            hints.append(
                Hint(
                    "wrong",
                    ra.exercise,
                    task_id,
                    ra,
                    rb,
                    detail,
                    _cell_of(ea["code"], var),
                    _cell_of(eb["code"], var),
                    _numbers(answer),
                )
            )
    return hints


_expected_cache = {}


def _as_array(entry):
    try:
        return np.array(entry["data"], dtype=float).reshape(entry["shape"])
    except (KeyError, TypeError, ValueError):
        return None


def _expected(task_id, data_id):
    """The right answer of an array task for ``data_id``'s data (None when it cannot be had): a first, cheap
    sieve before the checker itself judges an answer against another student's data."""
    key = (task_id, data_id)
    if key not in _expected_cache:
        try:
            t = exercises.task(task_id)
            with student_data(data_id):
                g = STEP_TABLE[t.step].givens(t.given())
            _expected_cache[key] = np.asarray(g.expected, dtype=float)
        except Exception:
            _expected_cache[key] = None
    return _expected_cache[key]


def data_hints(group, evidence):
    hints, seen = [], set()
    by_id = {}
    for record in group:  # whose data a number draws: the student of that number first
        if record.data_id and (record.data_id not in by_id or record.student.id == record.data_id):
            by_id[record.data_id] = record
    for record in group:
        entry = evidence.get((record.sha256, record.exercise))
        if entry and record.data_id:
            for task_id, answer in entry.get("wrong", {}).items():
                if len(answer.get("data") or ()) < 4:
                    continue
                var = exercises.task(task_id).var
                mine = _as_array(answer)
                for other_id, other in by_id.items():
                    if other_id == record.data_id or other.student.key == record.student.key:
                        continue
                    expected = _expected(task_id, other_id)
                    if mine is None or expected is None or mine.shape != expected.shape:
                        continue
                    if not np.allclose(mine, expected, rtol=1e-3, atol=1e-3, equal_nan=True):
                        continue  # far from that student's right answer: the checker need not look
                    results = check_answers(record.exercise, {var: answer}, None, other_id, record.edition)
                    if any(r.id == task_id and r.ok for r in results):
                        seen.add((record.label, other_id, task_id))
                        hints.append(_data_hint(record, entry, other, other_id, task_id, answer, evidence))
        for note in record.notes:  # the grader's own finding, against the roster
            if note.code != "other_students_data":
                continue
            other_id, _, tasks = note.detail.partition(":")
            for task_id in [t.strip() for t in tasks.split(",") if t.strip()]:
                if (record.label, other_id.strip(), task_id) in seen:
                    continue
                seen.add((record.label, other_id.strip(), task_id))
                other = by_id.get(other_id.strip()) or next(
                    (r for r in group if r.student.id == other_id.strip()), None
                )
                answer = (entry or {}).get("wrong", {}).get(task_id, {})
                hints.append(_data_hint(record, entry, other, other_id.strip(), task_id, answer, evidence))
    return hints


def _data_hint(record, entry, other, other_id, task_id, answer, evidence):
    var = exercises.task(task_id).var
    other_entry = evidence.get((other.sha256, other.exercise)) if other is not None else None
    name = student_label(other.student) if other is not None else other_id
    detail = msg("sm_data_detail", student=student_label(record.student), task=task_id, other=name)
    return Hint(
        "data",
        record.exercise,
        task_id,
        record,
        other,
        detail,
        _cell_of(entry["code"], var) if entry else "",
        _cell_of(other_entry["code"], var) if other_entry else "",
        _numbers(answer) if answer else [],
        other=other_id,
    )


def find(records, evidence, notebooks=NOTEBOOKS):
    """Every hint over ``records`` (one per student and exercise, as the reports have them)."""
    groups = {}
    for record in records:
        if record.exercise in exercises.EXERCISES:
            groups.setdefault(record.exercise, []).append(record)
    hints = []
    for group in groups.values():
        hints += code_hints(group, evidence, notebooks) + wrong_hints(group, evidence) + data_hints(group, evidence)
    return hints


# ---------------------------------------------------------------- the page and the CSV

SIDE_STYLE = """
.pair { border: 1px solid #d0d7de; border-radius: 6px; padding: .5rem 1rem 1rem; margin: 1rem 0; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.sides pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; border: 1px solid #d0d7de;
             padding: .5rem; font-size: .85rem; margin: .25rem 0; }
mark { background: #fff3b0; color: #1f2328; }
@media print { .pair { break-inside: avoid; page-break-inside: avoid; } .sides pre { font-size: 8pt; } }
"""


def _marked(text, ranges):
    esc = html.escape
    if not text:
        return esc(msg("sm_no_code"))
    out, at = [], 0
    for start, end in sorted(ranges):
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        out += [esc(text[at:start]), "<mark>", esc(text[start:end]), "</mark>"]
        at = end
    out.append(esc(text[at:]))
    return "".join(out)


def _who(record, other_id=""):
    if record is None:
        return other_id, ""
    return student_label(record.student), record.label


def html_page(hints, evidence_missing, has_copydetect):
    esc = html.escape
    kinds = {"code": msg("sm_kind_code"), "wrong": msg("sm_kind_wrong"), "data": msg("sm_kind_data")}
    parts = [f"<p>{esc(msg('sm_intro'))}</p>", f"<h2>{esc(msg('sm_cannot'))}</h2><ul>"]
    parts += [f"<li>{esc(item)}</li>" for item in msg("sm_cannot_items").split("|")]
    parts.append("</ul>")
    if has_copydetect:
        import copydetect

        similarity = msg("cr_percent", value=f"{100 * MIN_SIMILARITY:.0f}")
        version = copydetect.__version__
        how = msg(
            "sm_how", version=version, k=K, window=WINDOW, tokens=MIN_OVERLAP, similarity=similarity, lines=MIN_LINES
        )
        parts.append(f"<p>{esc(how)}</p>")
    else:
        parts.append(f"<p>{esc(msg('sm_no_copydetect'))}</p>")
    if evidence_missing:
        parts.append(f"<p>{esc(msg('sm_no_evidence', n=evidence_missing))}</p>")
    if not hints:
        parts.append(f"<p>{esc(msg('sm_none'))}</p>")
    rows = []
    for i, h in enumerate(hints, start=1):
        (sa, fa), (sb, fb) = _who(h.a), _who(h.b, h.other)
        pair = f"{esc(sa)} ↔ {esc(sb)}"
        rows.append([str(i), esc(kinds[h.kind]), esc(h.exercise + (f" · {h.task}" if h.task else "")), pair])
    if rows:
        head = ["#", msg("sm_col_kind"), msg("cr_col_exercise"), msg("sm_col_pair")]
        parts.append(_table(head, rows))
    for i, h in enumerate(hints, start=1):
        (sa, fa), (sb, fb) = _who(h.a), _who(h.b, h.other)
        title = f"{i}. {kinds[h.kind]} · {h.exercise}" + (f" · {h.task}" if h.task else "")
        numbers = ""
        if h.numbers:
            numbers = f"<p>{esc(msg('sm_numbers', n=len(h.numbers)))} <code>{esc(', '.join(h.numbers))}</code></p>"
        parts.append(
            f'<section class="pair" data-kind="{h.kind}"><h3>{esc(title)}</h3><p>{esc(h.detail)}</p>{numbers}'
            '<div class="sides">'
            f"<div><p>{esc(msg('sm_left', student=sa, file=fa))}</p><pre>{_marked(h.left, h.marks[0])}</pre></div>"
            f"<div><p>{esc(msg('sm_right', student=sb, file=fb))}</p><pre>{_marked(h.right, h.marks[1])}</pre></div>"
            "</div></section>"
        )
    return page(msg("sm_title"), "\n".join(parts)).replace(STYLE, STYLE + SIDE_STYLE)


def csv_rows(hints):
    rows = [
        [
            "kind",
            "exercise",
            "task",
            "student_a",
            "file_a",
            "student_b",
            "file_b",
            "overlap",
            "share_a",
            "share_b",
            "numbers",
            "detail",
        ]
    ]
    for h in hints:
        (sa, fa), (sb, fb) = _who(h.a), _who(h.b, h.other)
        shares = [f"{s:.2f}" for s in h.shares] if h.kind == "code" else ["", ""]
        rows.append(
            [h.kind, h.exercise, h.task, sa, fa, sb, fb, h.overlap or "", *shares, " ".join(h.numbers), h.detail]
        )
    return rows


def write(folder, records, roster=None, notebooks=NOTEBOOKS):
    """``similarity.html`` and ``similarity.csv`` in ``folder`` from ``records`` and the folder's evidence;
    returns the page's path."""
    folder = Path(folder)
    evidence = read_evidence(folder)
    graded = [r for r in records if r.exercise in exercises.EXERCISES and r.tasks]
    missing = sum(1 for r in graded if (r.sha256, r.exercise) not in evidence and not r.has("unreadable"))
    hints = find(graded, evidence, notebooks)
    _write(folder / CSV_NAME, csv_rows(hints))
    path = folder / HTML_NAME
    partial = path.with_name(path.name + ".partial")
    partial.write_text(html_page(hints, missing, _copydetect() is not None), encoding="utf-8")
    os.replace(partial, path)
    return path
