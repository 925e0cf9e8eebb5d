"""The grader (``attn-grade``): a class's notebooks graded safely, several at a time, with marks, a
gradebook, LMS files and a feedback page per student.

The parts, in the order a batch goes through them:

- ``collect``   what was handed in: folders, subfolders and zips read into memory, without saved outputs;
                skipped files and why
- ``reading``   a submission without running it: its exercise, edition, ID cell, the cells to run and the
                cells that define each answer
- ``roster``    who handed it in: the roster, the ID cell, the LMS's folder or file name
- ``handout``   what was handed out (a release's fingerprints, or the teacher notebooks); changed cells
- ``batch``     each submission in a worker process under a watchdog (``processes``), ``--jobs`` at a time
- ``worker``    (its own process) the kernel, started through ``confine`` (limits, write confinement)
- ``answers``   the answers as data: read in the kernel, decoded here
- ``selection`` which file counts per student and exercise (a file supersedes only one of the same identity)
- ``integrity`` what holds a mark for the teacher's review (teacher version, someone else's work, …)
- ``checking``  the checker, in the grader's process, with per-student data and error carried forward
- ``results``   a graded submission and the results file it is appended to at once
- ``marks``     points, percentages, the total out of 100, the late rule
- ``reports``   the table, submissions.csv, gradebook.csv, the Moodle and Canvas files
- ``review``    the teacher's decisions on held submissions (``review.csv``)
- ``feedback``  one HTML page per submission, in its edition's language
- ``remembered`` the settings a grading folder keeps (``settings.json``) for the runs after the first
- ``cli``       the ``attn-grade`` command
"""

import sys

# jsonschema (imported by nbformat) imports rfc3987_syntax when it is installed (JupyterLab's dependencies
# bring it), and that package builds a Lark parser at import: about 2 s of CPU at every start of the grader,
# measured here, for the "iri" format check that nbformat's validation never asks for. Unimportable here, so
# jsonschema skips that one check; nothing the grader does changes.
sys.modules.setdefault("rfc3987_syntax", None)
