"""Which submissions count, and what about them a teacher must see: one file per student and exercise, a
file superseding another only when every source says they are the same student's; the integrity notes
read from a notebook before it runs (``integrity``) and the one read from its answers (another student's
data).
"""

import re
from pathlib import PurePosixPath

from .. import exercises
from .checking import check_answers
from .handout import cell_hash, cells_from_record
from .integrity import SEPARATE, check_cells_changed, reference_code
from .results import Note
from .roster import _name_key

MAX_OTHERS = 400  # rostered students whose data a per-student submission is compared with
_NEUTRAL = re.compile(r"(?i)copy|final|副本|最终|提交|homework|作业|v\d+|\d+")


def _rank(entry):
    """Which of two submissions of a student and exercise counts: a gradable one, then the latest, then by name."""
    submission, reading = entry[0], entry[1]
    return (reading.nb is not None, submission.submitted or 0, submission.label)


def file_dissent(submission, exercise, student):
    """The file name's own words when they name someone else than ``student`` (a loose file, not from an
    LMS folder, called ``lisi_ex02.ipynb`` that is 2024002's by its ID cell); "" when the name says nothing
    about its student or names them."""
    if submission.lms is not None:
        return ""
    stem = PurePosixPath(submission.file_name).stem
    rest = stem
    if exercise:
        for part in (exercise, exercise.split("_")[0]):
            rest = re.sub(re.escape(part), " ", rest, flags=re.I)
    words = _name_key(_NEUTRAL.sub(" ", rest))
    if not words:
        return ""
    for known in (student.name, student.login, student.id, student.key):
        key = _name_key(known)
        if key and (key in _name_key(stem) or words in key):
            return ""
    return stem


def choose(candidates, roster=None):
    """(the candidates that count, [(a superseded submission, (the label of the one that counts, whether
    that one is gradable))]). Candidates are (submission, reading, student, sha256, notes). A submission may
    supersede another of the same student and exercise only when neither has an identity problem and no
    file name names someone else; otherwise both are kept, the one in doubt noted ``identity_conflict`` and
    held for review in a place of its own (never replacing the other)."""
    groups, order = {}, []
    for entry in candidates:
        submission, reading, student = entry[0], entry[1], entry[2]
        slot = (student.key, reading.exercise) if reading.exercise is not None else ("?", submission.label)
        if slot not in groups:
            order.append(slot)
        groups.setdefault(slot, []).append(entry)
    kept, superseded = [], []
    for slot in order:
        group = groups[slot]
        if len(group) == 1:
            kept.append(group[0])
            continue
        agreeing, doubtful = [], []
        for entry in group:
            submission, reading, student, _, notes = entry
            dissent = file_dissent(submission, reading.exercise, student)
            if any(n.code in SEPARATE for n in notes):
                doubtful.append(entry)
            elif dissent:
                sources = [f"file_name={dissent}"] + ([f"id_cell={reading.id_cell}"] if reading.id_cell else [])
                notes.append(Note("identity_conflict", detail="; ".join(sources)))
                doubtful.append(entry)
            else:
                agreeing.append(entry)
        if agreeing:
            best = max(agreeing, key=_rank)
            kept.append(best)
            for entry in agreeing:
                if entry is not best:
                    superseded.append((entry[0], (best[0].label, best[1].nb is not None)))
        kept.extend(doubtful)
    return kept, superseded


def handed_out_hashes(nb, handouts, exercise):
    """The hashes of every cell of every known handed-out version of ``exercise`` (releases, teacher
    notebooks, the notebook's own record): a cell with one of them was not written by the student."""
    hashes = set()
    for fp, meta in handouts.releases.items():
        if meta[0] == exercise:
            hashes |= {c.hash for c in handouts.by_fingerprint[fp]}
    try:
        for cells in handouts.teacher(exercise):
            hashes |= {c.hash for c in cells}
    except Exception:  # a broken teacher copy: what the release says is enough
        pass
    meta = nb.metadata.get("attn_core", {})
    meta = meta.get("handout") if isinstance(meta, dict) else None
    if isinstance(meta, dict):
        hashes |= {c.hash for c in cells_from_record(meta) or ()}
    return hashes


def integrity_notes(nb, changes, handouts, exercise):
    """The review notes read before a submission runs: check cells changed, the course's own functions used."""
    notes = []
    edited = check_cells_changed(changes)
    if edited:
        notes.append(Note("check_cells_changed", tuple(edited)))
    found = reference_code(nb, handed_out_hashes(nb, handouts, exercise), cell_hash)
    if found:
        notes.append(Note("reference_code", tuple(n for n, _ in found), "; ".join(what for _, what in found)))
    return notes


def _numbers_in(entry):
    """How many numbers an answer entry from the kernel holds (0 unless it is an array)."""
    if not isinstance(entry, dict) or entry.get("kind") != "array":
        return 0
    count = 1
    for n in entry.get("shape") or ():
        count *= int(n) if isinstance(n, int) else 0
    return count


def other_students_data(exercise, answers, probes, data_id, edition, roster, own):
    """A Note ``other_students_data`` naming the rostered student whose data the answers fit better than
    their own student's (``own``: the TaskResults for ``data_id``), or None.

    Task by task: an answer of several numbers (an array of 4 or more) that is wrong for its own student's
    data and right for another's counts for that other student; the one with the most such tasks is named.
    (Counting whole submissions missed a classmate's 4.2 numbers pasted into an otherwise honest notebook:
    every other task, right on its own data, is wrong on the classmate's.)"""
    if roster is None or data_id is None:
        return None
    tasks = exercises.tasks(exercise)
    wrong = {r.id for r in own if not r.ok}
    candidates = {t.id for t in tasks if t.id in wrong and _numbers_in(answers.get(t.var)) >= 4}
    if not candidates:
        return None
    best, best_fits = None, 0
    for student in roster.students[:MAX_OTHERS]:
        if not student.id or student.id == data_id:
            continue
        results = check_answers(exercise, answers, probes, student.id, edition)
        fits = sum(1 for r in results if r.id in candidates and r.ok)
        if fits > best_fits:
            best, best_fits = student, fits
    if best is None:
        return None
    fitted = [r.id for r in check_answers(exercise, answers, probes, best.id, edition) if r.id in candidates and r.ok]
    return Note("other_students_data", detail=f"{best.id}: {', '.join(fitted)}")
