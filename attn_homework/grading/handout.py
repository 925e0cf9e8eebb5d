"""What was handed out, and which of its cells a submission changed.

A release (``attn-release``) records in each handed-out notebook's metadata which version it is:
``metadata.attn_core.handout = {"release", "edition", "fingerprint", "per_student", "cells": [[id, hash,
editable], …]}``, one entry per cell (the answer cells are the editable ones), and keeps the same record in
its ``release.json``. The grader compares a submission with the version it came from: the release whose
fingerprint it carries (``--release``), else the record in its own metadata, else (a notebook from the
repository, not from a release) the teacher notebooks of both editions, whichever is closest. A fixed cell
(every cell but the answer cells) that is missing, edited or out of order is named by its number in the
handed-out notebook; cells a student adds are fine.
"""

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import nbformat

from ..student import TEACHER_FOLDER, edition_dirs, has_solution, make_student


def normal(source):
    """A cell's source compared without trailing spaces and blank lines at either end."""
    return "\n".join(line.rstrip() for line in str(source).strip().splitlines())


def cell_hash(cell):
    text = f"{cell.get('cell_type')}\n{normal(cell.get('source', ''))}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class HandoutCell:
    """One cell of a handed-out notebook: its id, the hash of its content, whether it is an answer cell,
    and its first line (to name it)."""

    id: str
    hash: str
    editable: bool
    first_line: str = ""


def handout_cells(student_nb, editable_ids):
    """The HandoutCell of each cell of a student notebook; ``editable_ids`` are its answer cells' ids."""
    return [
        HandoutCell(str(c.get("id", "")), cell_hash(c), str(c.get("id", "")) in editable_ids, _first_line(c.source))
        for c in student_nb.cells
    ]


def _first_line(source):
    line = next((line.strip() for line in str(source).splitlines() if line.strip()), "")
    return line[:60] + ("…" if len(line) > 60 else "")


def fingerprint(cells):
    return hashlib.sha256(json.dumps([[c.id, c.hash, c.editable] for c in cells]).encode()).hexdigest()[:20]


def record(cells, release, edition, per_student):
    """The ``handout`` metadata a release writes into a notebook."""
    return {
        "release": release,
        "edition": edition,
        "fingerprint": fingerprint(cells),
        "per_student": bool(per_student),
        "cells": [[c.id, c.hash, c.editable, c.first_line] for c in cells],
    }


def cells_from_record(data):
    """The HandoutCells of a ``handout`` record (from a notebook or a release.json); None if malformed."""
    try:
        return [HandoutCell(str(i), str(h), bool(e), str(rest[0]) if rest else "") for i, h, e, *rest in data["cells"]]
    except (KeyError, TypeError, ValueError):
        return None


@dataclass(frozen=True)
class Change:
    """A fixed cell of the handout that the submission does not have as handed out."""

    number: int  # its position in the handed-out notebook, from 1
    kind: str  # "edited", "deleted" or "moved"
    first_line: str


def changes(submission_cells, handout):
    """The fixed cells of ``handout`` (HandoutCells) missing, edited or out of order in the submission."""
    seen = [(str(c.get("id", "")), cell_hash(c)) for c in submission_cells]
    by_hash = {}
    for position, (_, h) in enumerate(seen):
        by_hash.setdefault(h, []).append(position)
    by_id = {cid: position for position, (cid, _) in enumerate(seen) if cid}
    found, result = [], []
    for number, cell in enumerate(handout, start=1):
        if cell.editable:
            continue
        same_id = by_id.get(cell.id) if cell.id else None
        if same_id is not None and seen[same_id][1] == cell.hash:
            found.append((number, same_id, cell))
        elif by_hash.get(cell.hash):
            found.append((number, by_hash[cell.hash][0], cell))
        elif same_id is not None:
            result.append(Change(number, "edited", cell.first_line))
        else:
            result.append(Change(number, "deleted", cell.first_line))
    in_order = _longest_increasing([position for _, position, _ in found])
    result += [
        Change(number, "moved", cell.first_line) for i, (number, _, cell) in enumerate(found) if i not in in_order
    ]
    return sorted(result, key=lambda change: change.number)


def _longest_increasing(values):
    """Indices of one longest strictly increasing subsequence of ``values``."""
    best = []  # best[i]: (length, previous index)
    for i, v in enumerate(values):
        options = [(best[j][0] + 1, j) for j in range(i) if values[j] < v]
        best.append(max(options) if options else (1, -1))
    if not best:
        return set()
    i = max(range(len(best)), key=lambda k: best[k][0])
    chosen = set()
    while i >= 0:
        chosen.add(i)
        i = best[i][1]
    return chosen


# ---------------------------------------------------------------- where the handout comes from


def teacher_handout(exercise, teacher_dir):
    """The HandoutCells of the student version derived from a teacher notebook; None if it is absent."""
    path = Path(teacher_dir) / f"{exercise}.ipynb"
    if not path.is_file():
        return None
    teacher = nbformat.read(path, as_version=4)
    editable = {str(c.get("id", "")) for c in teacher.cells if c.cell_type == "code" and has_solution(c.source)}
    return handout_cells(make_student(teacher, path.parent, path.parent.parent), editable)


def handout_dirs(notebooks="notebooks"):
    """Each edition's folder of teacher notebooks under ``notebooks``, those that exist."""
    return [d / TEACHER_FOLDER for d in edition_dirs(notebooks).values() if (d / TEACHER_FOLDER).is_dir()]


class Handouts:
    """Every known version of every handed-out notebook: releases (by fingerprint) and teacher folders."""

    def __init__(self, releases=(), teacher_dirs=()):
        self.by_fingerprint = {}
        self.per_student = {}  # exercise -> True when a known release of it hands out per-student data
        self.releases = {}  # fingerprint -> (exercise, per_student, release name, edition)
        for folder in releases:
            manifest = json.loads((Path(folder) / "release.json").read_text(encoding="utf-8"))
            for entry in manifest.get("notebooks", []):
                cells = cells_from_record(entry["handout"])
                if cells is not None:
                    fp = entry["handout"]["fingerprint"]
                    self.by_fingerprint[fp] = cells
                    per_student = bool(entry["handout"].get("per_student"))
                    self.releases[fp] = (
                        entry["exercise"],
                        per_student,
                        manifest.get("name", ""),
                        manifest.get("edition"),
                    )
                    if per_student:
                        self.per_student[entry["exercise"]] = True
        self.teacher_dirs = list(teacher_dirs)
        self._teacher = {}

    def teacher(self, exercise):
        if exercise not in self._teacher:
            self._teacher[exercise] = [c for c in (teacher_handout(exercise, d) for d in self.teacher_dirs) if c]
        return self._teacher[exercise]

    def compare(self, nb, exercise):
        """(changes, source) for a submission: ``source`` says what it was compared with: "release",
        "metadata", "teacher" or None (nothing to compare with)."""
        meta = (
            nb.metadata.get("attn_core", {}).get("handout") if isinstance(nb.metadata.get("attn_core"), dict) else None
        )
        if isinstance(meta, dict):
            known = self.by_fingerprint.get(meta.get("fingerprint"))
            if known is not None:
                return changes(nb.cells, known), "release"
            cells = cells_from_record(meta)
            if cells is not None:
                return changes(nb.cells, cells), "metadata"
        candidates = self.teacher(exercise)
        if not candidates:
            return [], None
        return min((changes(nb.cells, cells) for cells in candidates), key=len), "teacher"

    def of_exercise(self, exercise):
        """[(fingerprint, per_student)] of the given releases' versions of ``exercise``."""
        return [(fp, meta[1]) for fp, meta in self.releases.items() if meta[0] == exercise]

    def origin(self, nb, exercise):
        """Which handed-out version a submission comes from: (per_student, problem). Its own fingerprint
        decides when a given release has it; a fingerprint no given release has (when releases are given) is
        ``unknown_release`` (the notebook's own record says whether it was per-student); a notebook without a
        record is matched with the given releases of its exercise by its cells, and is per-student when the
        versions it fits equally well agree (else None: its ID cell decides); with no release given, None."""
        meta = nb.metadata.get("attn_core", {})
        meta = meta.get("handout") if isinstance(meta, dict) else None
        own = bool(isinstance(meta, dict) and meta.get("per_student"))
        if isinstance(meta, dict) and meta.get("fingerprint"):
            if meta["fingerprint"] in self.releases:
                return self.releases[meta["fingerprint"]][1], ""
            return own, ("unknown_release" if self.releases else "")
        versions = self.of_exercise(exercise)
        if not versions:
            return None, ""
        scored = sorted((len(changes(nb.cells, self.by_fingerprint[fp])), per) for fp, per in versions)
        best = [per for n, per in scored if n == scored[0][0]]
        if len(set(best)) == 1:
            return best[0], ""
        return None, ""  # a per-student and a plain version fit as well: its ID cell decides


def per_student_release(nb):
    """Whether the notebook says it was handed out with per-student data."""
    meta = nb.metadata.get("attn_core", {})
    return bool(isinstance(meta, dict) and isinstance(meta.get("handout"), dict) and meta["handout"].get("per_student"))
