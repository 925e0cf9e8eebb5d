"""Grader speed: re-grading one notebook, and a class of submissions of one exercise, side by side with
another checkout's grader (e.g. main's) in one run.

    .venv/bin/python benchmarks/bench_grader.py                          # this checkout: one notebook, 200 of ex06
    .venv/bin/python benchmarks/bench_grader.py --compare ../main        # and main's grader, interleaved
    .venv/bin/python benchmarks/bench_grader.py --n 40 --jobs 1 --repeat 5

``--compare DIR`` runs the grader of another checkout (``git worktree add /tmp/main main`` makes one) the
same way: its folder first on PYTHONPATH and as the working directory; the runs alternate, so a change
in the shared machine's load falls on both. Re-grading one notebook is measured as a teacher does it
(``attn-grade FILE --out FOLDER --regrade``), with its phases: the command's imports (``python -c "import
attn_homework.grading.cli"``), the confinement self-test, the submission itself (its worker, kernel and
cells: ``seconds`` in results.jsonl) and the rest (reading, reports, feedback pages). Goals: one notebook
under 2 s wall; 200 submissions under 60 s on 2 cores; "CPU per submission" says what the second needs
(2 cores × 60 s / 200 = 0.6 s of CPU per submission at most).

The submissions are made here from the teacher notebook of ``ex06_full_pipeline`` (the exercise with the
most code): most of them right, some with the classic mistakes (K·Qᵀ, no scaling, softmax along the
wrong axis), some with a cell that raises. The grader runs as a teacher runs it (the command, in a
subprocess, with its default limits and write confinement), into a fresh grading folder. Printed: the
class time, the time per submission, and the goal (200 submissions in under 5 minutes on this project's
2-core machine). A figure, not a test: the machine is shared, so the time varies with its load.
"""

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

import attn_homework as homework
from attn_homework.student import make_student

ROOT = Path(__file__).resolve().parent.parent
EXERCISE = "ex06_full_pipeline"
TEACHER = ROOT / "notebooks" / "exercises" / "teacher"
GOAL_SECONDS, GOAL_CLASS, GOAL_ONE = 60, 200, 2.0

RIGHT = {
    "6.1": "S = Q @ K.T / np.sqrt(3)\nE = np.exp(S - S.max(axis=1, keepdims=True))\n"
    "O = E / E.sum(axis=1, keepdims=True) @ V",
    "6.2": "S = Q_new @ K_new.T / 2\nE = np.exp(S - S.max(axis=1, keepdims=True))\n"
    "O_new = E / E.sum(axis=1, keepdims=True) @ V_new",
    "6.3": "S = (X_new @ W_q_new) @ (X_new @ W_k_new).T / np.sqrt(3)\nE = np.exp(S - S.max(axis=1, keepdims=True))\n"
    "A_x = E / E.sum(axis=1, keepdims=True)",
    "6.4": "O_x = A_x @ (X_new @ W_v_new)",
}
WRONG = {
    "6.1": "S = K @ Q.T / np.sqrt(3)\nE = np.exp(S)\nO = E / E.sum(axis=1, keepdims=True) @ V",
    "6.2": "S = Q_new @ K_new.T\nE = np.exp(S)\nO_new = E / E.sum(axis=1, keepdims=True) @ V_new",
    "6.3": "S = (X_new @ W_q_new) @ (X_new @ W_k_new).T / np.sqrt(3)\nE = np.exp(S)\n"
    "A_x = E / E.sum(axis=0, keepdims=True)",
    "6.4": "O_x = A_x @ (X_new @ W_v_new)\nraise ValueError('oops')",
}


def submission(answers):
    """The handed-out notebook with the answer cells replaced (task id -> code)."""
    teacher = nbformat.read(TEACHER / f"{EXERCISE}.ipynb", as_version=4)
    by_var = {t.var: t.id for t in homework.tasks(EXERCISE)}
    nb = make_student(teacher, TEACHER, TEACHER.parent)
    for cell in nb.cells:
        match = re.search(r"^(\w+) = \.\.\.", cell.source, re.M) if cell.cell_type == "code" else None
        if match and by_var.get(match.group(1)) in answers:
            cell.source = answers[by_var[match.group(1)]]
    return nb


def make_class(folder, n):
    for i in range(n):
        wrong = {task for k, task in enumerate(RIGHT) if (i * 7 + k * 3) % 10 < 2}  # about 1 task in 5 wrong
        answers = {task: (WRONG if task in wrong else RIGHT)[task] for task in RIGHT}
        nbformat.write(submission(answers), folder / f"student{i:03d}_{EXERCISE}.ipynb")


def _timed(command, cwd, env):
    """(wall seconds, CPU seconds of the command and its children, the completed process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    run = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env)
    seconds = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu, run


def _env(checkout):
    return {**os.environ, "PYTHONPATH": str(checkout)}


def grade(checkout, folder, out, jobs, regrade=False):
    """(wall, CPU, submission seconds from results.jsonl) of one ``attn-grade`` run with ``checkout``'s grader."""
    command = [sys.executable, "-m", "attn_homework.grade", str(folder), "--out", str(out), "--jobs", str(jobs)]
    command += ["--lang", "en"] + (["--regrade"] if regrade else [])
    seconds, cpu, run = _timed(command, checkout, _env(checkout))
    if run.returncode != 0:
        raise RuntimeError(run.stderr[-3000:])
    records = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    return seconds, cpu, [r.get("seconds", 0.0) for r in records]


def phases(checkout):
    """(import wall, import CPU, self-test wall) of ``checkout``'s grader."""
    imported, imported_cpu, _ = _timed(
        [sys.executable, "-c", "import attn_homework.grading.cli"], checkout, _env(checkout)
    )
    code = "from attn_homework.grading.batch import Limits, confinement_check as c; c(Limits())"
    both, _, _ = _timed([sys.executable, "-c", "import attn_homework.grading.cli;" + code], checkout, _env(checkout))
    return imported, imported_cpu, max(0.0, both - imported)


KERNEL_START = r"""
import os, resource, signal, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import worker
cpu = []
for _ in range(3):
    with tempfile.TemporaryDirectory() as folder:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        kernel = worker.start_kernel({"sandbox": False, "memory": 2 << 30}, Path(folder), lambda *a, **k: None)
        os.killpg(kernel.pid, signal.SIGKILL)
        kernel.process.wait()
        kernel.close()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
print(sorted(cpu)[1])
"""


def kernel_start_cpu(checkout):
    """CPU seconds of starting one fresh kernel to its first reply (median of 3, without bubblewrap, whose
    kernels are killed before anyone waits for them, so that the CPU figures above leave them out)."""
    folder = Path(checkout) / "attn_homework" / "grading"
    run = subprocess.run([sys.executable, "-c", KERNEL_START, str(folder)], capture_output=True, text=True)
    return float(run.stdout.strip().splitlines()[-1]) if run.returncode == 0 else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=GOAL_CLASS, help="submissions in the class (default 200; 0: none)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="attn-grade --jobs (default: cores)")
    parser.add_argument("--repeat", type=int, default=3, help="re-grades of one notebook per grader (default 3)")
    parser.add_argument("--compare", type=Path, action="append", default=[], help="another checkout's grader")
    args = parser.parse_args()
    graders = [("this checkout", ROOT)] + [(str(c), c.resolve()) for c in args.compare]
    cores = os.cpu_count() or 1
    print(f"{cores} cores; load average at the start {os.getloadavg()[0]:.1f} (above {cores}: processes wait)")
    with tempfile.TemporaryDirectory(prefix="bench_grader_") as tmp:
        one = Path(tmp, "one")
        one.mkdir()
        make_class(one, 1)
        runs = {label: [] for label, _ in graders}
        for _ in range(args.repeat):
            for label, checkout in graders:
                out = Path(tmp, f"one_{len(runs[label])}_{abs(hash(label))}")
                grade(checkout, one, out, 1)  # the first grading of the folder, then the re-grade measured
                wall, cpu, seconds = grade(checkout, one, out, 1, regrade=True)
                runs[label].append((wall, cpu, seconds[-1], *phases(checkout)))
        print(f"re-grading one notebook of {EXERCISE} (attn-grade FILE --out DIR --regrade), median of {args.repeat}:")
        print("  grader | wall s | CPU s | imports wall (CPU) s | self-test s | the submission s | the rest s")
        for label, _ in graders:
            wall, cpu, sub, imp, imp_cpu, test = (statistics.median(x) for x in zip(*runs[label]))
            rest = max(0.0, wall - imp - test - sub)
            verdict = "met" if wall < GOAL_ONE else "not met"
            print(
                f"  {label} | {wall:.2f} | {cpu:.2f} | {imp:.2f} ({imp_cpu:.2f}) | {test:.2f} | {sub:.2f} | {rest:.2f}"
            )
            print(f"    goal: under {GOAL_ONE:g} s wall: {verdict}")
        kernel = kernel_start_cpu(ROOT)
        print(f"one fresh kernel, started to its first reply: {kernel:.2f} s CPU (not in the CPU figures of a")
        print("  sandboxed run: bubblewrap's kernels are killed, never waited for)")
        if args.n <= 0:
            return 0
        folder = Path(tmp, "class")
        folder.mkdir()
        make_class(folder, args.n)
        for label, checkout in graders:
            wall, cpu, seconds = grade(checkout, folder, Path(tmp, f"class_{abs(hash(label))}"), args.jobs)
            per, per_cpu = wall / args.n, cpu / args.n
            projected = per * GOAL_CLASS
            print(f"class: {args.n} submissions of {EXERCISE}, --jobs {args.jobs} ({label}): {wall:.0f} s wall")
            print(f"  {per:.2f} s per submission; CPU {cpu:.0f} s ({per_cpu:.2f} s per submission; the goal needs")
            print(f"  at most {cores * GOAL_SECONDS / GOAL_CLASS:.2f}); a submission's own time, median")
            print(f"  {statistics.median(seconds):.2f} s; load average now {os.getloadavg()[0]:.1f}")
            bound = (per_cpu + kernel) * GOAL_CLASS / min(cores, args.jobs)
            verdict = "met" if projected < GOAL_SECONDS else "not met"
            print(f"  goal: {GOAL_CLASS} in under {GOAL_SECONDS} s: {projected:.0f} s at this rate ({verdict});")
            print(f"  on {min(cores, args.jobs)} idle cores the CPU time alone, a kernel start each added, would take")
            print(f"  {bound:.0f} s (a fresh kernel per submission alone: {kernel * GOAL_CLASS / cores:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
