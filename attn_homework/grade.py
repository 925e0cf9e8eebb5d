"""``python -m attn_homework.grade``: the grader's command, the same as ``attn-grade``.

The grader itself is the package ``attn_homework.grading`` (see its docstring); its command line is
``attn_homework.grading.cli``.
"""

import sys

from .grading.cli import main

if __name__ == "__main__":
    sys.exit(main())
