"""Gradescope: an autograder zip that grades a submission with this grader, and the script it runs there.

    attn-release --edition zh --exercises ex02 ex06 --gradescope autograder.zip   (the teacher: make the zip)
    python -m attn_homework.grading.gradescope                                   (Gradescope: run_autograder)

The format is Gradescope's "Autograder Specifications" (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
the zip holds ``setup.sh`` (run once, as root, when Gradescope builds the image on its Ubuntu base) and
``run_autograder`` (run for every submission with the working directory ``/autograder``) at its root; its
contents are extracted to ``/autograder/source``, the student's files are in ``/autograder/submission``, and
``/autograder/results/results.json`` is what Gradescope reads: a top-level ``score``, ``output``,
``stdout_visibility``, ``execution_time`` and ``extra_data``, and ``tests``, each with ``name``, ``score``,
``max_score``, ``status``, ``visibility`` and ``output``. ``/autograder/results/stdout`` (everything
``run_autograder`` prints) is for the teacher only: ``stdout_visibility`` is "hidden".

Why from ``attn-release``: the zip carries the release's ``release.json`` (each handed-out notebook's
fingerprint and cells, no answer), so a submission is compared with the exact version it was made from and a
per-student release is known as such, and it carries the packages exactly as handed out; it carries no teacher
notebook, so there is no solution in the container for a submission to find.

What is kept of the grader's isolation: every submission runs in a worker process and a fresh kernel of its
own, under the same watchdog (memory, time, every process it starts ended), with the same rlimits; bubblewrap
where the container allows a user namespace (then the kernel sees only the system, Python and two folders),
else Landlock where the kernel allows it (writes only in its folders, no TCP from ABI 4, no signal outside
from ABI 6; reads are not confined), else only the rlimits; in every case the kernel gets only the environment
a kernel needs (``confine.sandbox_env``). What a hostile submission can still do in each case is in
docs/grading-howto.md. What the container replaces:
the machine around the submission (a fresh container per submission, discarded after), so a kernel graded
beside it cannot exist. Each test's ``output`` is the checker's diagnosis in the language of the submission's
edition, the same sentence as on the feedback page; the top-level ``output`` says what the grader noticed.

``ATTN_GRADESCOPE_ROOT`` (default ``/autograder``) moves the whole tree, so a test can run ``run_autograder``
against a simulated one.
"""

import json
import os
import shutil
import stat
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from attn_core import lang

from .. import exercises
from ..messages import msg
from .batch import Batch, Limits, Settings, confinement_check
from .checking import language
from .collect import collect
from .feedback import _explained
from .handout import Handouts
from .marks import Points, rounded
from .processes import become_subreaper
from .results import Store

ROOT_VARIABLE = "ATTN_GRADESCOPE_ROOT"
PYTHON_VARIABLE = "ATTN_GRADESCOPE_PYTHON"  # tests: the interpreter run_autograder uses
VENV = "/opt/attn-grade"  # where setup.sh installs the grader on Gradescope's image
CONFIG = "gradescope.json"
RELEASE = "release"  # folder in the zip holding release.json
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")  # the specification's values
DEFAULT_TIMEOUT = 60.0
DEFAULT_MEMORY_MIB = 2048

SETUP_SH = f"""#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (its Ubuntu base image; it has run
# apt-get update already). It installs Python 3 with venv and pip, and bubblewrap (the grader's sandbox, used
# when the container allows a user namespace), then this package with its homework extra (numpy, matplotlib,
# ipywidgets, anywidget, nbformat, nbclient, ipykernel, pyzmq) into {VENV}; nothing else of the course
# (no JupyterLab, no Voila, no teacher tooling).
set -euo pipefail
apt-get install -y --no-install-recommends python3 python3-venv python3-pip bubblewrap
python3 -m venv {VENV}
{VENV}/bin/python -m pip install --no-cache-dir --upgrade pip
{VENV}/bin/python -m pip install --no-cache-dir "/autograder/source[homework]"
"""

RUN_AUTOGRADER = f"""#!/usr/bin/env bash
# Gradescope runs this for every submission: it grades /autograder/submission/*.ipynb (and zips of them)
# with attn-grade's worker, watchdog and checker, and writes /autograder/results/results.json.
# {ROOT_VARIABLE} (default /autograder) and {PYTHON_VARIABLE} move the tree and the interpreter (tests).
set -uo pipefail
ROOT="${{{ROOT_VARIABLE}:-/autograder}}"
cd "$ROOT" || exit 1
export {ROOT_VARIABLE}="$ROOT"
exec "${{{PYTHON_VARIABLE}:-{VENV}/bin/python}}" -m attn_homework.grading.gradescope "$@"
"""


def _add(z, name, data, executable=False):
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = ((0o755 if executable else 0o644) | stat.S_IFREG) << 16
    z.writestr(info, data)


def write_zip(path, names, edition, student_folder, manifest, timeout=DEFAULT_TIMEOUT, memory_mib=None):
    """The autograder zip for exercises ``names`` of a release: the packages and pyproject.toml from the
    release's ``student_folder`` (checked to hold no solution), its ``manifest`` (release.json), the
    configuration, setup.sh and run_autograder. Returns the path."""
    path, student_folder = Path(path), Path(student_folder)
    config = {
        "exercises": list(names),
        "edition": edition,
        "timeout": float(timeout),
        "memory_mib": int(memory_mib or DEFAULT_MEMORY_MIB),
        "visibility": "visible",
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        _add(z, "setup.sh", SETUP_SH, executable=True)
        _add(z, "run_autograder", RUN_AUTOGRADER, executable=True)
        _add(z, CONFIG, json.dumps(config, ensure_ascii=False, indent=1) + "\n")
        _add(z, f"{RELEASE}/release.json", Path(manifest).read_text(encoding="utf-8"))
        for name in ("pyproject.toml", "LICENSE", "README.md"):
            if (student_folder / name).is_file():
                _add(z, name, (student_folder / name).read_bytes())
        for package in ("attn_core", "attn_viz", "attn_homework"):
            for file in sorted((student_folder / package).rglob("*")):
                if file.is_file() and "__pycache__" not in file.parts:
                    _add(z, file.relative_to(student_folder).as_posix(), file.read_bytes())
    return path


# ---------------------------------------------------------------- in the container


def _notes_text(record):
    return [_explained(n) for n in record.notes if n.code != "completed"]


def results_for(config, graded, skipped, points=None):
    """The results.json content (a dict) for the records of one submission's files."""
    points = points or Points(config.get("points"))
    visibility = config.get("visibility", "visible")
    wanted = list(config["exercises"])
    edition = config.get("edition", "zh")
    by_exercise = {}
    for record in graded:
        if record.exercise in wanted:
            by_exercise[record.exercise] = record  # choose() keeps one per exercise: the latest wins here too
    editions = [r.edition for r in graded if r.exercise] or [edition]
    tests, lines, extra = [], [], {}
    with language(editions[0]):
        for record in graded:
            if record.exercise not in wanted:
                found = record.exercise or "?"
                lines.append(msg("gs_other_exercise", file=record.label, found=found, wanted=", ".join(wanted)))
        for entry in skipped:
            if entry.reason != "superseded":
                lines.append(msg("gs_skipped", file=entry.label))
    for exercise in wanted:
        record = by_exercise.get(exercise)
        with language(record.edition if record else editions[0]):
            if record is None:
                lines.append(msg("gs_missing", exercise=exercise))
            held = bool(record and record.held)
            if record is not None:
                notes = _notes_text(record)
                head = msg("gs_exercise", exercise=exercise, file=record.label)
                lines.append(head + ("" if not notes else "\n  " + "\n  ".join(notes)))
                if held:
                    lines.append(msg("gs_held"))
                extra[exercise] = {
                    "codes": {t.id: t.csv_text for t in record.tasks},
                    "notes": [n.csv_text() for n in record.notes],
                    "held": held,
                }
            results = {t.id: t for t in record.tasks} if record else {}
            for task in exercises.tasks(exercise):
                worth = float(points.of(task.id))
                result = results.get(task.id)
                ok = bool(result and result.ok and not held)
                if result is None:
                    output = msg("gs_not_submitted")
                else:
                    output = result.message + ("\n" + msg("gs_held") if held else "")
                tests.append(
                    {
                        "name": f"{task.id} · {task.title}",
                        "number": task.id,
                        "score": worth if ok else 0.0,
                        "max_score": worth,
                        "status": "passed" if ok else "failed",
                        "visibility": visibility,
                        "output": output,
                        "output_format": "text",
                    }
                )
    score = sum(t["score"] for t in tests)
    possible = sum(t["max_score"] for t in tests)
    with language(editions[0]):
        lines.insert(0, msg("gs_total", earned=rounded(score), possible=rounded(possible)))
    return {
        "score": score,
        "output": "\n".join(lines),
        "output_format": "text",
        "stdout_visibility": "hidden",
        "visibility": visibility,
        "tests": tests,
        "extra_data": extra,
    }


def failed_results(config, detail):
    """results.json when the grader itself failed: no mark, and a sentence for the student."""
    with language(config.get("edition", "zh")):
        text = msg("gs_grader_failed")
    return {"score": 0.0, "output": text, "stdout_visibility": "hidden", "tests": [], "extra_data": {"error": detail}}


def write_results(results_dir, results):
    """Written last and atomically: whatever a submission wrote there while it ran is replaced."""
    results_dir = Path(results_dir)
    results_dir.mkdir(parents=True, exist_ok=True)
    target = results_dir / "results.json"
    with tempfile.NamedTemporaryFile("w", dir=results_dir, suffix=".tmp", delete=False, encoding="utf-8") as f:
        json.dump(results, f, ensure_ascii=False, indent=1)
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    os.replace(f.name, target)
    return target


def run(root):
    """Grade ``root``/submission as the configuration in ``root``/source says; write ``root``/results/results.json."""
    root = Path(root)
    source, submission, results_dir = root / "source", root / "submission", root / "results"
    config = json.loads((source / CONFIG).read_text(encoding="utf-8"))
    lang.set_lang(config.get("edition", "zh"))
    start = time.monotonic()
    try:
        releases = [source / RELEASE] if (source / RELEASE / "release.json").is_file() else []
        limits = Limits(float(config.get("timeout", DEFAULT_TIMEOUT)), int(config.get("memory_mib", 2048)) << 20)
        limits, confinement = confinement_check(limits)
        print(f"attn-grade on Gradescope: sandbox={limits.sandbox} confine={limits.confine} {confinement}", flush=True)
        settings = Settings(limits, 1, True, None, Handouts(releases, []), become_subreaper())
        files, skipped = collect([submission])
        graded, skipped, _ = Batch(settings, Store(None)).run(files, skipped)
        results = results_for(config, graded, skipped)
        for record in graded:
            print(record.label, record.exercise, [n.csv_text() for n in record.notes], flush=True)
    except Exception as e:  # the student still gets a results.json that says so
        detail = f"{type(e).__name__}: {e}"[:500]
        print(f"attn-grade on Gradescope failed: {detail}", file=sys.stderr, flush=True)
        results = failed_results(config, detail)
    results["execution_time"] = int(round(time.monotonic() - start))
    write_results(results_dir, results)
    return 0


def main():
    return run(os.environ.get(ROOT_VARIABLE, "/autograder"))


if __name__ == "__main__":
    sys.exit(main())
