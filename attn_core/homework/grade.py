"""Grade a class's exercise notebooks.

    python -m attn_core.homework.grade SUBMISSION.ipynb ... | FOLDER ... [--csv report.csv] [--timeout S]

Each submission runs top to bottom in a fresh kernel of its own (nbclient), in a temporary
working folder, continuing past cells that raise. A last cell then serialises the answer
variables (JSON of the numbers plus dtype and shape, or just a type name); nothing else is taken
from the kernel. The answers are checked here, in the grading process, with
``attn_core.homework.checker.diagnose`` and data rebuilt from the registry in ``attn_core.homework``, so a
submission that redefines ``check``, patches numpy or replaces ``attn_core.homework.checker.diagnose`` in
its kernel changes nothing but its own printout.

Every submission gets a status: ``ok``, ``error in cell N`` (cells count from 1, markdown
included), ``timeout in cell N`` (the whole notebook gets ``--timeout`` seconds), ``kernel died in
cell N``, ``answers unreadable``, ``invalid notebook`` (not JSON / not a notebook),
``unknown exercise``, and ``cells changed`` when cells of the handed-out notebook were deleted,
edited or reordered (added cells are fine; answer cells are the learner's to edit). The exercise is
read from the notebook's metadata, else the file name (``…ex02…``), else its ``check("2.1")`` cells.
A bad submission never stops the batch (a fault of the grader itself shows as ``grader error``).

The table has one block per exercise: a row per submission, a column per task (``✓`` or the
checker's code, e.g. ``transposed``), the score and the status; ``--csv`` writes the same
(UTF-8 with BOM, for Excel).

Caution: grading runs the students' code with your permissions. For an untrusted class,
run the grader inside a container or a throw-away account.
"""

import argparse
import ast
import csv
import json
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import numpy as np

from ..lang import display_width
from . import checker as _checker  # noqa: F401  (loaded before any submission runs)
from . import exercises
from .student import TEACHER_FOLDER, edition_dirs, has_solution, make_student
from .verdicts import MISSING, diagnose_task

PASS = "✓"
_MARKER = "ATTN_CORE_GRADE_ANSWERS"
_MAX_ELEMENTS = 100_000
_TIMEOUT = {"ename": "GradeTimeout", "evalue": "the notebook ran out of time", "traceback": []}

# The cell run after a submission: it reads the answer variables and returns one JSON string.
# Everything it uses is imported inside the function, so names a submission rebinds in its
# globals (np, json, print, ...) do not matter; what it returns is only data, checked here.
_DUMP = """
def __attn_core_dump(names, limit):
    import json as _json
    import sys as _sys

    import numpy as _np
    g = _sys._getframe(0).f_globals
    out = {}
    for name in names:
        if name not in g:
            out[name] = {"kind": "missing"}
            continue
        value = g[name]
        if value is Ellipsis:
            out[name] = {"kind": "ellipsis"}
            continue
        entry = {"kind": "other", "type": type(value).__name__}
        try:
            if isinstance(value, (_np.ndarray, _np.generic, list, tuple, int, float, bool)):
                a = _np.asarray(value)
                if a.dtype.kind in "biuf" and a.size <= limit:
                    entry = {"kind": "array", "type": type(value).__name__, "dtype": a.dtype.str,
                             "shape": list(a.shape), "data": a.ravel().tolist()}
        except Exception:
            pass
        out[name] = entry
    return "%s" + _json.dumps(out)
__attn_core_dump(%r, %d)
"""


@dataclass
class TaskResult:
    task_id: str
    ok: bool
    code: str
    message: str


@dataclass
class Result:
    """One submission: its exercise, status notes and one TaskResult per task of the exercise."""

    path: Path
    exercise: str = None
    status: list = field(default_factory=list)
    tasks: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def score(self):
        return sum(t.ok for t in self.tasks)

    @property
    def total(self):
        return len(exercises.tasks(self.exercise)) if self.exercise else 0

    @property
    def status_text(self):
        return "; ".join(self.status) if self.status else "ok"


# ---------------------------------------------------------------- reading a submission


def _identify(nb, path):
    """Which exercise a submission is: notebook metadata, then file name, then its check cells."""
    names = exercises.EXERCISES
    if nb is not None:
        meta = nb.get("metadata", {}).get("attn_core", {})
        if isinstance(meta, dict) and meta.get("exercise") in names:
            return meta["exercise"]
    stem = Path(path).name.lower()
    for name in names:
        if name in stem:
            return name
    for name in names:
        if re.search(rf"(?<![0-9a-z]){name.split('_')[0]}(?![0-9])", stem):
            return name
    if nb is not None:
        found = [
            exercises.TASKS[t].exercise
            for cell in nb.cells
            if cell.cell_type == "code"
            for t in re.findall(r"""check\(\s*["']([0-9.]+)["']""", cell.source)
            if t in exercises.TASKS
        ]
        if found:
            return max(set(found), key=found.count)
    return None


def _normal(source):
    return "\n".join(line.rstrip() for line in source.strip().splitlines())


def _reference_cells(exercise, teacher_dir):
    """(source, editable) of each cell of the handed-out notebook; None if the teacher version is absent."""
    path = Path(teacher_dir) / f"{exercise}.ipynb"
    if not path.is_file():
        return None
    teacher = nbformat.read(path, as_version=4)
    editable = {c.get("id") for c in teacher.cells if c.cell_type == "code" and has_solution(c.source)}
    student = make_student(teacher, path.parent, path.parent.parent)  # handed out from exercises/
    return [(_normal(c.source), c.get("id") in editable) for c in student.cells]


def _changed_cells(nb, reference):
    """How many fixed cells of the handed-out notebook (all but the answer cells) are not found,
    unchanged and in their order, in the submission (longest common subsequence)."""
    fixed = [source for source, editable in reference if not editable]
    seen = [_normal(c.source) for c in nb.cells]
    row = [0] * (len(seen) + 1)
    for source in fixed:
        prev_diag, new = 0, [0]
        for j, s in enumerate(seen, start=1):
            new.append(prev_diag + 1 if source == s else max(row[j], new[j - 1]))
            prev_diag = row[j]
        row = new
    return len(fixed) - row[-1]


def _decode(entry):
    """A value for the checker from the kernel's JSON entry; never raises."""
    if not isinstance(entry, dict) or entry.get("kind") == "missing":
        return MISSING
    kind = entry.get("kind")
    if kind == "ellipsis":
        return ...
    if kind == "array":
        try:
            dtype = np.dtype(entry["dtype"])
            shape = tuple(int(n) for n in entry["shape"])
            if dtype.kind not in "biuf" or dtype.fields is not None:
                raise ValueError(dtype)
            a = np.array(entry["data"], dtype=dtype).reshape(shape)
            pytype = entry.get("type")
            if pytype == "list":
                return a.tolist()
            if pytype == "tuple":
                return tuple(a.tolist())
            if pytype in ("int", "float", "bool") and a.ndim == 0:
                return a.item()
            return a
        except Exception:
            return _Opaque("unreadable")
    return _Opaque(str(entry.get("type", "unknown")))


class _Opaque:
    """Stands for a non-numeric answer (a string, a function, None, ...): the checker sees its type."""

    def __init__(self, type_name):
        self.type_name = type_name

    def __repr__(self):
        return f"<{self.type_name}>"


# ---------------------------------------------------------------- running one submission


def _run(nb, names, timeout, result):
    """Execute ``nb`` in a fresh kernel, then the dump cell; return {name: entry} or None."""
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    timed_out = set()

    def note_timeout(cell, cell_index, execute_reply):
        if execute_reply and execute_reply.get("content", {}).get("ename") == _TIMEOUT["ename"]:
            timed_out.add(cell_index)

    with tempfile.TemporaryDirectory(prefix="attn_grade_") as cwd:
        # On timeout nbclient interrupts the kernel and answers at once with _TIMEOUT (so a kernel
        # that ignores the interrupt cannot hang the batch); the dump cell then reads what is there.
        client = NotebookClient(
            nb,
            kernel_name="python3",
            allow_errors=True,
            record_timing=False,
            interrupt_on_timeout=True,
            error_on_timeout=_TIMEOUT,
            iopub_timeout=5,
            shutdown_kernel="immediate",
            startup_timeout=120,
            on_cell_executed=note_timeout,
            resources={"metadata": {"path": cwd}},
        )
        errors = []
        with client.setup_kernel(stderr=subprocess.DEVNULL):  # the kernel's own start-up chatter
            deadline = time.monotonic() + timeout
            client.timeout_func = lambda cell: max(0.5, deadline - time.monotonic())
            for index, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                try:
                    client.execute_cell(cell, index)
                except DeadKernelError:
                    result.status.append(f"kernel died in cell {index + 1}")
                    return None
                if index in timed_out or time.monotonic() >= deadline:
                    result.status.append(f"timeout in cell {index + 1}")
                    break
                if any(out.get("output_type") == "error" for out in cell.get("outputs", [])):
                    errors.append(index + 1)
            if errors:
                cells = ", ".join(map(str, errors[:5])) + (", …" if len(errors) > 5 else "")
                result.status.insert(0, f"error in cell{'s' if len(errors) > 1 else ''} {cells}")
            dump = nbformat.v4.new_code_cell(_DUMP % (_MARKER, list(names), _MAX_ELEMENTS))
            nb.cells.append(dump)
            client.timeout_func = lambda cell: 10
            try:
                client.execute_cell(dump, len(nb.cells) - 1, store_history=False)
            except DeadKernelError:
                return None
    for out in dump.get("outputs", []):
        if out.get("output_type") == "execute_result":
            try:
                text = ast.literal_eval(out["data"]["text/plain"])
                if isinstance(text, str) and text.startswith(_MARKER):
                    answers = json.loads(text[len(_MARKER) :])
                    if isinstance(answers, dict):
                        return answers
            except Exception:
                return None
    return None


def handout_dirs(notebooks="notebooks"):
    """The default folders of handed-out (teacher) notebooks, each edition's, that exist under ``notebooks``."""
    return [
        folder / TEACHER_FOLDER for folder in edition_dirs(notebooks).values() if (folder / TEACHER_FOLDER).is_dir()
    ]


def grade_notebook(path, timeout=60, teacher_dirs=()):
    """Grade one submission; never raises for anything wrong with the submission."""
    path, start = Path(path), time.monotonic()
    try:
        return _grade(path, timeout, teacher_dirs, start)
    except Exception as e:  # a grader bug or a broken teacher folder: report it, go on with the batch
        result = Result(path, exercise=_identify(None, path), status=[f"grader error ({type(e).__name__}: {e})"])
        return _finish(result, {}, start)


def _grade(path, timeout, teacher_dirs, start):
    result = Result(path)
    nb = None
    try:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
    except Exception as e:
        result.status.append(f"invalid notebook ({type(e).__name__})")
        nb = None
    result.exercise = _identify(nb, path)
    if result.exercise is None:
        if nb is not None:
            result.status.append("unknown exercise")
        return _finish(result, {}, start)
    if nb is None:
        return _finish(result, {}, start)

    # Compared with the handed-out notebook of its edition: the one (Chinese or English) it is closest to.
    try:
        references = [r for r in (_reference_cells(result.exercise, d) for d in teacher_dirs) if r is not None]
    except Exception as e:  # the teacher's copy is broken: still grade, without the comparison
        references = []
        result.status.append(f"cells not compared (teacher version unreadable: {type(e).__name__})")
    if references:
        changed = min(_changed_cells(nb, reference) for reference in references)
        if changed:
            result.status.append(f"cells changed ({changed} deleted, edited or moved)")
    for cell in nb.cells:  # only the students' sources run, from a clean slate
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    names = [t.var for t in exercises.tasks(result.exercise)]
    try:
        answers = _run(nb, names, timeout, result)
    except Exception as e:  # kernel failed to start, ...: report, never stop the batch
        result.status.append(f"could not run ({type(e).__name__}: {e})")
        answers = None
    if answers is None and not any(s.startswith(("could not", "kernel died")) for s in result.status):
        result.status.append("answers unreadable")
    return _finish(result, answers or {}, start)


def _finish(result, answers, start):
    if result.exercise:
        for t in exercises.tasks(result.exercise):
            d = diagnose_task(t.id, _decode(answers.get(t.var)))
            result.tasks.append(TaskResult(t.id, bool(d.ok), d.code, d.message))
    result.seconds = time.monotonic() - start
    return result


def collect(paths):
    """Submission files from files and folders (a folder gives its *.ipynb, sorted)."""
    files = []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(q for q in p.glob("*.ipynb") if q.is_file())
        else:
            files.append(p)
    return files


def grade_all(paths, timeout=60, teacher_dirs=(), log=None):
    results = []
    for path in collect(paths):
        if log:
            print(f"grading {path} …", file=log, flush=True)
        results.append(grade_notebook(path, timeout=timeout, teacher_dirs=teacher_dirs))
    return results


# ---------------------------------------------------------------- reporting


def _task_ids(results):
    ids = []
    for r in results:
        for t in r.tasks:
            if t.task_id not in ids:
                ids.append(t.task_id)
    return sorted(ids, key=lambda i: tuple(int(x) for x in i.split(".")))


def format_table(results):
    """One table per exercise: a row per submission, a column per task (✓ or the checker's code)."""
    blocks = []
    groups = {}
    for r in results:
        groups.setdefault(r.exercise, []).append(r)
    for exercise, group in sorted(groups.items(), key=lambda kv: (kv[0] is None, kv[0] or "")):
        ids = _task_ids(group)
        header = ["submission"] + ids + ["score", "status"]
        rows = [header]
        for r in group:
            codes = {t.task_id: PASS if t.ok else t.code for t in r.tasks}
            rows.append([r.path.name] + [codes.get(i, "") for i in ids] + [f"{r.score}/{r.total}", r.status_text])
        widths = [max(display_width(row[c]) for row in rows) for c in range(len(header))]
        title = exercise or "(exercise not recognised)"
        lines = [title] + [
            "  ".join(cell + " " * (w - display_width(cell)) for cell, w in zip(row, widths)).rstrip() for row in rows
        ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def write_csv(results, target):
    """One row per submission; UTF-8 with a BOM, so that Excel shows Chinese file names correctly."""
    ids = _task_ids(results)
    with open(target, "w", newline="", encoding="utf-8-sig") as f:
        w = csv.writer(f)
        w.writerow(["submission", "exercise", "score", "total", "status"] + ids)
        for r in results:
            codes = {t.task_id: "ok" if t.ok else t.code for t in r.tasks}
            w.writerow(
                [str(r.path), r.exercise or "", r.score, r.total, r.status_text] + [codes.get(i, "") for i in ids]
            )


def main(argv=None):
    parser = argparse.ArgumentParser(prog="attn-grade", description="Grade exercise notebooks, each in a fresh kernel.")
    parser.add_argument("submissions", nargs="+", help="submitted .ipynb files or folders of them")
    parser.add_argument("--csv", type=Path, help="also write the results to this CSV file")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds each notebook may run in all (default 60)")
    parser.add_argument(
        "--teacher-dir",
        type=Path,
        action="append",
        default=None,
        help="a folder of handed-out teacher versions, to notice changed cells; repeat it for "
        "several editions (default: ./notebooks/exercises/teacher and "
        "./notebooks/en/exercises/teacher, whichever the submission is closest to)",
    )
    args = parser.parse_args(argv)
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    files = collect(args.submissions)
    if not files:
        parser.error("no .ipynb files found in " + ", ".join(args.submissions))
    teacher_dirs = args.teacher_dir or handout_dirs()
    missing = [d for d in teacher_dirs if not d.is_dir()]
    if missing:
        parser.error(f"--teacher-dir {missing[0]}: no such folder")
    if not teacher_dirs:
        print(
            "note: cells not compared with the handed-out notebooks: none found in ./notebooks/exercises/teacher "
            "or ./notebooks/en/exercises/teacher (give --teacher-dir).",
            file=sys.stderr,
        )
    start = time.monotonic()
    results = grade_all(files, timeout=args.timeout, teacher_dirs=teacher_dirs, log=sys.stderr)
    print(format_table(results))
    if args.csv:
        write_csv(results, args.csv)
        print(f"\nCSV: {args.csv}")
    print(f"\n{len(results)} submission(s) graded in {time.monotonic() - start:.0f} s.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
