"""Class time: how long ``attn-grade`` takes for a class of submissions of one exercise, with ``--jobs``.

    .venv/bin/python benchmarks/bench_grader.py                  # 200 submissions of ex06, --jobs = cores
    .venv/bin/python benchmarks/bench_grader.py --n 40 --jobs 1  # a smaller class, one at a time

The submissions are made here from the teacher notebook of ``ex06_full_pipeline`` (the exercise with the
most code): most of them right, some with the classic mistakes (K·Qᵀ, no scaling, softmax along the
wrong axis), some with a cell that raises. The grader runs as a teacher runs it (the command, in a
subprocess, with its default limits and write confinement), into a fresh grading folder. Printed: the
class time, the time per submission, and the goal (200 submissions in under 5 minutes on this project's
2-core machine). A figure, not a test: the machine is shared, so the time varies with its load.
"""

import argparse
import os
import re
import resource
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
GOAL_SECONDS, GOAL_CLASS = 300, 200

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=GOAL_CLASS, help="submissions in the class (default 200)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="attn-grade --jobs (default: cores)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_grader_") as tmp:
        folder, out = Path(tmp, "class"), Path(tmp, "grading")
        folder.mkdir()
        make_class(folder, args.n)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        run = subprocess.run(
            [sys.executable, "-m", "attn_homework.grade", str(folder), "--out", str(out)]
            + ["--jobs", str(args.jobs), "--lang", "en"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        seconds = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if run.returncode != 0:
            print(run.stderr[-3000:], file=sys.stderr)
            return 1
        rows = (out / "submissions.csv").read_text(encoding="utf-8-sig").splitlines()[1:]
    per = seconds / args.n
    cores = os.cpu_count() or 1
    print(f"class time: {args.n} submissions of {EXERCISE}, --jobs {args.jobs}, {cores} cores: {seconds:.0f} s")
    print(f"  {per:.2f} s per submission; {len(rows)} rows in submissions.csv")
    print(f"  CPU time of the grader, its workers and kernels: {cpu:.0f} s ({cpu / args.n:.2f} s per submission)")
    load = os.getloadavg()[0]
    print(f"  load average at the end: {load:.1f} (a shared machine: above {cores}, processes wait for a core)")
    projected = per * GOAL_CLASS
    verdict = "met" if projected < GOAL_SECONDS else "not met"
    print(f"goal: {GOAL_CLASS} submissions in under {GOAL_SECONDS} s: {projected:.0f} s at this rate ({verdict});")
    bound = cpu / args.n * GOAL_CLASS / min(cores, args.jobs)
    print(f"  on {min(cores, args.jobs)} idle cores the CPU time alone would take {bound:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
