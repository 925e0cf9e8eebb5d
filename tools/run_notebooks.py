"""Execute notebooks in place, top to bottom in a fresh kernel, the way they are committed.

    python tools/run_notebooks.py notebooks/03_scaling.ipynb notebooks/en/03_scaling.ipynb

Each notebook runs in its own folder (as JupyterLab and nbval run it) and is saved as
`attn_homework.student.execute` leaves it: no widget state, no per-cell timing, each cell's prints as one
stream, so re-running an unchanged notebook changes nothing but measured timings.
Student exercise notebooks are not run this way: `python -m attn_homework.student` derives and runs them.
"""

import sys
from pathlib import Path

import nbformat

from attn_homework.student import execute


def run(path, timeout=600):
    nb = nbformat.read(path, as_version=4)
    execute(nb, Path(path).resolve().parent, timeout=timeout)
    nbformat.write(nb, path)


def main(paths):
    if not paths:
        print(__doc__)
        return 2
    failed = 0
    for path in paths:
        try:
            run(path)
        except Exception as e:  # report and go on with the next notebook
            failed += 1
            print(f"{path}: FAILED: {type(e).__name__}: {str(e)[-2000:]}", file=sys.stderr)
        else:
            print(f"{path}: ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
