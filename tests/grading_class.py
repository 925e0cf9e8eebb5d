"""A realistic class for the grader, built from the real releases (``attn_homework.release.build``), never
committed: two exercises (ex02, ex03), five releases (per-student and plain, both editions, and one the
grader is not given), a roster, a Moodle "download all submissions" zip, a Canvas ``submissions.zip`` and
e-mailed loose files; the cases of issue #25 and #32 each made once. ``DESIGN`` is what each student × exercise
must come out as: the final percentage and whether it is held for review (with its reason)."""

import csv
import json
import os
import shutil
import zipfile
from datetime import datetime, timedelta
from pathlib import Path

import nbformat

import attn_homework as homework
from attn_homework import release
from attn_homework.task_data import student_data

from .repo import ROOT
from .submissions import EX02, fill

NOTEBOOKS = ROOT / "notebooks"
EX03 = {
    "3.1": "S = Q @ K.T / np.sqrt(Q.shape[1])",
    "3.2": "S_new = Q_new @ K_new.T / np.sqrt(Q_new.shape[1])",
}
DEADLINE = datetime(2026, 12, 8, 23, 59)
BEFORE = DEADLINE - timedelta(days=1)

ROSTER = [  # 学号, 姓名, 邮箱, login, canvas_id
    ("2024001", "陈一", "chen1@example.edu", "", ""),
    ("20240007", "王伟", "wangwei7@example.edu", "", ""),
    ("20240023", "王伟", "wangwei23@example.edu", "", ""),
    ("2024004", "Wei Chen", "weichen@example.edu", "", ""),
    ("2024005", "李四", "lisi@example.edu", "", ""),
    ("2024006", "张三", "zhangsan@example.edu", "zhangsan", "54006"),
    ("2024008", "赵六", "zhaoliu@example.edu", "zhaoliu", ""),
    ("2024009", "孙七", "sunqi@example.edu", "", ""),
    ("2024010", "周八", "zhouba@example.edu", "", ""),
    ("2024011", "吴九", "wujiu@example.edu", "", ""),
    ("2024012", "郑十", "zhengshi@example.edu", "", ""),
    ("2024013", "王五", "wangwu@example.edu", "", ""),
    ("2024014", "冯十一", "feng@example.edu", "", ""),
    ("2024015", "陈十五", "chen15@example.edu", "", ""),
    ("2024016", "褚十六", "chu@example.edu", "", ""),  # hands in nothing
]
# Moodle's participant numbers (≠ the student numbers), as its grading worksheet lists them
PARTICIPANTS = {
    "2024001": "1849301",
    "20240007": "1849307",
    "20240023": "1849323",
    "2024009": "1849309",
    "2024011": "1849311",
    "2024012": "1849312",
    "2024016": "1849316",
}
EXTENSIONS = {"2024008": DEADLINE + timedelta(days=3)}
LATE_RULE = "10"  # percentage points per day

# student number (or key) -> exercise -> (final percent, review reason or "")
DESIGN = {
    "2024001": {"ex02_scores": ("100", "")},
    "20240007": {"ex02_scores": ("100", "")},
    "20240023": {"ex02_scores": ("66.7", "")},  # 2.3 not attempted
    "2024004": {"ex02_scores": ("100", ""), "ex03_scaling": ("100", "")},  # plain release among per-student ones
    "2024005": {"ex03_scaling": ("100", "teacher_version")},
    "2024006": {"ex03_scaling": ("90", "")},  # Canvas _LATE, time before the deadline: one day, 10 off
    "2024008": {"ex02_scores": ("100", "")},  # resubmission 2 days after the deadline, extension of 3
    "2024009": {"ex02_scores": ("100", "identity_conflict")},  # 陈一's notebook in 孙七's Moodle folder
    "2024010": {"ex02_scores": ("66.7", "")},  # ID cell left as "...": 2.2's data never drawn
    "2024011": {"ex02_scores": ("100", "")},  # mistyped ID cell (2024101): graded with that number's data
    "2024012": {"ex02_scores": ("66.7", "other_students_data")},  # 陈一's 2.2 numbers pasted in
    "2024013": {"ex02_scores": ("100", "reference_code")},  # attn_core.scores instead of own code
    "2024014": {"ex03_scaling": ("100", "check_cells_changed")},
    "2024015": {"ex03_scaling": ("100", "unknown_release")},  # a release the grader was not given
    "=1+2": {"ex02_scores": ("100", "")},  # the auditing 路人甲, a formula in the ID cell
}
HELD = {key for key, exercises in DESIGN.items() if any(reason for _, reason in exercises.values())}


def _releases(folder):
    out = {}
    for name, edition, per_student in (
        ("week1-zh", "zh", True),
        ("week1-en", "en", True),
        ("plain-zh", "zh", False),
        ("plain-en", "en", False),
    ):
        release.build(NOTEBOOKS, ROOT, folder, name, edition, ["ex02_scores", "ex03_scaling"], per_student)
        out[name] = folder / name
    # last term's release: the teacher has since reworded ex03's introduction
    older = folder / "last_term_notebooks"
    shutil.copytree(NOTEBOOKS, older, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    teacher = older / "exercises" / "teacher" / "ex03_scaling.ipynb"
    nb = nbformat.read(teacher, as_version=4)
    intro = next(c for c in nb.cells if c.cell_type == "markdown" and c.source.startswith("# "))
    intro.source += "\n\n（上学期的版本）"
    nbformat.write(nb, teacher)
    release.build(older, ROOT, folder, "week0-zh", "zh", ["ex03_scaling"], False)
    out["week0-zh"] = folder / "week0-zh"
    return out


def _handout(releases, name, exercise):
    edition = "en" if name.endswith("-en") else "zh"
    return nbformat.read(
        releases[name] / f"self-attention-{edition}" / "notebooks" / "exercises" / f"{exercise}.ipynb", as_version=4
    )


def _notebook(releases, name, exercise, answers, student_id=None, keep=None):
    nb = fill(_handout(releases, name, exercise), answers, exercise)
    for cell in nb.cells:
        if cell.get("id") == release.ID_CELL_ID and student_id is not None:
            cell.source = cell.source.replace('set_student_id("...")', f'set_student_id("{student_id}")')
    if keep is not None:
        keep(nb)
    return nbformat.writes(nb).encode("utf-8")


def _pasted_2_2(student_id):
    """Another student's 2.2 answer as pasted numbers (their data, their result)."""
    with student_data(student_id):
        q, k = homework.data("2.2")
    return "QKT_new = np.array(" + json.dumps((q @ k.T).tolist()) + ")"


def _zip(path, entries):
    with zipfile.ZipFile(path, "w") as z:
        for name, data, when in entries:
            info = zipfile.ZipInfo(name, date_time=when.timetuple()[:6])
            z.writestr(info, data)


def build(folder):
    """Write the class into ``folder``; returns {"releases": […], "roster": path, "extensions": path,
    "worksheet": path (the roster with Moodle's participant numbers), "submissions": [paths]}."""
    folder = Path(folder)
    releases = _releases(folder / "releases")
    part = {k: v for k, v in EX02.items() if k != "2.3"}

    def edit_check(nb):
        cell = next(c for c in nb.cells if c.cell_type == "code" and c.source.strip() == 'check("3.2")')
        cell.source = 'print("checked")'

    moodle = [
        (
            "陈一_1849301_assignsubmission_file_/ex02_scores.ipynb",
            _notebook(releases, "week1-zh", "ex02_scores", EX02, "2024001"),
            BEFORE,
        ),
        (
            "王伟_1849307_assignsubmission_file_/ex02_scores.ipynb",
            _notebook(releases, "week1-zh", "ex02_scores", EX02, "20240007"),
            BEFORE,
        ),
        (
            "王伟_1849323_assignsubmission_file_/ex02_scores.ipynb",
            _notebook(releases, "week1-zh", "ex02_scores", part, "20240023"),
            BEFORE,
        ),
        (
            "孙七_1849309_assignsubmission_file_/ex02_scores.ipynb",
            _notebook(releases, "week1-zh", "ex02_scores", EX02, "2024001"),
            BEFORE,
        ),
        (
            "吴九_1849311_assignsubmission_file_/ex02_scores.ipynb",
            _notebook(releases, "week1-en", "ex02_scores", EX02, "2024101"),
            BEFORE,
        ),
        (
            "郑十_1849312_assignsubmission_file_/ex02_scores.ipynb",
            _notebook(releases, "week1-zh", "ex02_scores", {**EX02, "2.2": _pasted_2_2("2024001")}, "2024012"),
            BEFORE,
        ),
    ]
    canvas = [
        (
            "zhangsan_LATE_54006_880306_ex03_scaling.ipynb",
            _notebook(releases, "week1-zh", "ex03_scaling", EX03, "2024006"),
            DEADLINE - timedelta(hours=1),
        ),
        (
            "zhaoliu_80008_880308_ex02_scores.ipynb",
            _notebook(releases, "week1-zh", "ex02_scores", part, "2024008"),
            DEADLINE - timedelta(days=2),
        ),
        (
            "zhaoliu_80008_880309_ex02_scores-1.ipynb",
            _notebook(releases, "week1-zh", "ex02_scores", EX02, "2024008"),
            DEADLINE + timedelta(days=2),
        ),
    ]
    reference = {**EX02, "2.1": "from attn_core import scores\n\nQKT = scores(Q, K)"}
    teacher = (NOTEBOOKS / "exercises" / "teacher" / "ex03_scaling.ipynb").read_bytes()
    loose = {
        "2024004_ex02_scores.ipynb": _notebook(releases, "plain-en", "ex02_scores", EX02),
        "WeiChen_ex03_scaling.ipynb": _notebook(releases, "plain-en", "ex03_scaling", EX03),
        "李四_ex03_scaling.ipynb": teacher,
        "周八_ex02_scores.ipynb": _notebook(releases, "week1-zh", "ex02_scores", EX02),  # ID cell left as "..."
        "2024013_ex02.ipynb": _notebook(releases, "week1-zh", "ex02_scores", reference, "2024013"),
        "2024014_ex03_scaling.ipynb": _notebook(releases, "week1-zh", "ex03_scaling", EX03, "2024014", edit_check),
        "2024015_ex03_scaling.ipynb": _notebook(releases, "week0-zh", "ex03_scaling", EX03),
        "路人甲_ex02_scores.ipynb": _auditor(releases),
    }
    submissions = folder / "handed_in"
    submissions.mkdir(parents=True)
    _zip(submissions / "moodle_download.zip", moodle)
    _zip(submissions / "submissions.zip", canvas)
    mail = submissions / "mail"
    mail.mkdir()
    for name, data in loose.items():
        (mail / name).write_bytes(data)
        os.utime(mail / name, (BEFORE.timestamp(), BEFORE.timestamp()))
    roster = folder / "roster.csv"
    with open(roster, "w", newline="", encoding="utf-8-sig") as f:
        writer = csv.writer(f)
        writer.writerow(["学号", "姓名", "邮箱", "login", "canvas_id"])
        writer.writerows(ROSTER)
    worksheet = folder / "worksheet_roster.csv"
    with open(worksheet, "w", newline="", encoding="utf-8-sig") as f:
        writer = csv.writer(f)
        writer.writerow(["Identifier", "ID number", "Full name", "Email address", "login", "canvas_id"])
        for number, name, email, login, canvas_id in ROSTER:
            participant = PARTICIPANTS.get(number)
            writer.writerow(
                [f"Participant {participant}" if participant else "", number, name, email, login, canvas_id]
            )
    extensions = folder / "extensions.csv"
    extensions.write_text(
        "student,deadline\n" + "".join(f"{k},{v:%Y-%m-%d %H:%M}\n" for k, v in EXTENSIONS.items()), encoding="utf-8"
    )
    return {
        "releases": [releases[n] for n in ("week1-zh", "week1-en", "plain-zh", "plain-en")],
        "roster": roster,
        "worksheet": worksheet,
        "extensions": extensions,
        "submissions": [submissions / "moodle_download.zip", submissions / "submissions.zip", mail],
    }


def _auditor(releases):
    """路人甲 audits the course: a plain-release notebook, all right, a formula typed into an added ID cell."""
    data = _notebook(releases, "plain-zh", "ex02_scores", EX02)
    nb = nbformat.reads(data.decode("utf-8"), as_version=4)
    first = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")
    nb.cells.insert(first + 1, nbformat.v4.new_code_cell('homework.set_student_id("=1+2")'))
    return nbformat.writes(nb).encode("utf-8")


# ---------------------------------------------------------------- a class of 40 and more (the class report)
# ``build_large`` adds 30 students to the class above, every one handing in through e-mail (loose files named
# with the student number), so the class report and the similarity hints see a class of realistic size:
# common mistakes several students make, one resubmission, a late file, an error, a timeout, and the three
# planted similarities that ``PLANTED`` lists (the base class's 郑十, who pasted 陈一's 2.2 numbers, is one).

EXTRA_ROSTER = [(f"2025{n:03d}", f"同学{n:02d}", f"s{n:02d}@example.edu", "", "") for n in range(1, 31)]
EX02_WAYS = (  # right answers written the usual ways: the same right answer must never make a pair
    EX02,
    {"2.1": "QKT = np.dot(Q, K.T)", "2.2": "QKT_new = np.dot(Q_new, K_new.T)", "2.3": EX02["2.3"]},
    {"2.1": "QKT = np.matmul(Q, K.T)", "2.2": "QKT_new = np.matmul(Q_new, K_new.T)", "2.3": EX02["2.3"]},
    {**EX02, "2.1": "QKT = Q.dot(K.T)"},
)
EX03_WAYS = (
    EX03,
    {"3.1": "S = Q @ K.T / Q.shape[1] ** 0.5", "3.2": "S_new = Q_new @ K_new.T / Q_new.shape[1] ** 0.5"},
    {"3.1": "d_k = K.shape[1]\nS = Q @ K.T / np.sqrt(d_k)", "3.2": EX03["3.2"]},
)
LOOPS = {  # 2025017's own solution: loops, unlike anyone else's
    "2.1": "n_queries, n_keys = Q.shape[0], K.shape[0]\nQKT = np.zeros((n_queries, n_keys))\n"
    "for i in range(n_queries):\n    for j in range(n_keys):\n        total = 0.0\n"
    "        for d in range(Q.shape[1]):\n            total += Q[i, d] * K[j, d]\n        QKT[i, j] = total",
    "2.2": "n_queries, n_keys = Q_new.shape[0], K_new.shape[0]\nQKT_new = np.zeros((n_queries, n_keys))\n"
    "for i in range(n_queries):\n    for j in range(n_keys):\n        total = 0.0\n"
    "        for d in range(Q_new.shape[1]):\n            total += Q_new[i, d] * K_new[j, d]\n"
    "        QKT_new[i, j] = total",
    "2.3": "def fixed_scores(Q, K):\n    out = np.zeros((Q.shape[0], K.shape[0]))\n"
    "    for i in range(Q.shape[0]):\n        for j in range(K.shape[0]):\n"
    "            out[i, j] = sum(Q[i, d] * K[j, d] for d in range(Q.shape[1]))\n    return out",
}
RENAMED = {"n_queries": "rows", "n_keys": "cols", "total": "acc", "out": "result", "i": "a", "j": "b", "d": "t"}
ODD_3_1 = "S = np.tanh(Q @ K.T / np.sqrt(Q.shape[1]))"  # wrong, and no known mistake makes these numbers
# (not "+ 0.5": the checker names that one, an offset, and the same named mistake on the same data is no sign)
# the planted similarities: (kind, exercise, task, one student, the other)
PLANTED = {
    ("code", "ex02_scores", "", "2025017", "2025018"),
    ("wrong", "ex03_scaling", "3.1", "2025023", "2025024"),
    ("data", "ex02_scores", "2.2", "2025019", "2025005"),
    ("data", "ex02_scores", "2.2", "2024012", "2024001"),
}


def _renamed(code):
    import re

    return re.sub(r"\b(" + "|".join(RENAMED) + r")\b", lambda m: RENAMED[m.group(1)], code)


def _timeout_cell(nb):
    nb.cells.insert(len(nb.cells) - 1, nbformat.v4.new_code_cell("while True:\n    pass"))


def large_design():
    """{(student number, exercise): (answers, keep, file time)} of the 30 added students."""
    design = {}
    for n in range(1, 13):  # right, the usual ways
        design[f"2025{n:03d}", "ex02_scores"] = (EX02_WAYS[n % len(EX02_WAYS)], None, BEFORE)
    for n in range(13, 17):  # 2.1 transposed: a named mistake, the same numbers for all four (not a hint)
        design[f"2025{n:03d}", "ex02_scores"] = ({**EX02, "2.1": "QKT = K @ Q.T"}, None, BEFORE)
    design["2025017", "ex02_scores"] = (LOOPS, None, BEFORE)
    design["2025018", "ex02_scores"] = ({k: _renamed(v) for k, v in LOOPS.items()}, None, BEFORE)
    design["2025019", "ex02_scores"] = ({**EX02, "2.2": _pasted_2_2("2025005")}, None, BEFORE)
    design["2025020", "ex02_scores"] = (EX02, _timeout_cell, BEFORE)
    design["2025021", "ex02_scores"] = ({**EX02, "2.3": "raise RuntimeError('not done yet')"}, None, BEFORE)
    design["2025022", "ex02_scores"] = (EX02, None, DEADLINE + timedelta(days=1, hours=2))  # late: 2 days
    for n in range(1, 11):
        design[f"2025{n:03d}", "ex03_scaling"] = (EX03_WAYS[n % len(EX03_WAYS)], None, BEFORE)
    for n in range(11, 14):
        design[f"2025{n:03d}", "ex03_scaling"] = ({**EX03, "3.1": "S = Q @ K.T"}, None, BEFORE)  # unscaled
    for n in (14, 15):
        design[f"2025{n:03d}", "ex03_scaling"] = ({**EX03, "3.1": "S = Q @ K.T / Q.shape[1]"}, None, BEFORE)
    design["2025016", "ex03_scaling"] = (EX03, None, BEFORE)  # the resubmission (the first: below)
    for n in range(25, 28):  # ex03 only
        design[f"2025{n:03d}", "ex03_scaling"] = (EX03_WAYS[n % len(EX03_WAYS)], None, BEFORE)
    for n in (23, 24):
        design[f"2025{n:03d}", "ex03_scaling"] = ({**EX03, "3.1": ODD_3_1}, None, BEFORE)
    return design


def build_large(folder):
    """The class of ``build`` and 30 more students (``large_design``): returns what ``build`` does, the roster
    holding every student and the submissions a fourth entry, the added students' folder."""
    built = build(folder)
    folder = Path(folder)
    releases = {name: folder / "releases" / name for name in ("week1-zh", "week1-en")}
    more = folder / "handed_in" / "more"
    more.mkdir()
    for (number, exercise), (answers, keep, when) in large_design().items():
        release_name = "week1-en" if number.endswith(("3", "7")) else "week1-zh"
        path = more / f"{number}_{exercise}.ipynb"
        path.write_bytes(_notebook(releases, release_name, exercise, answers, number, keep))
        os.utime(path, (when.timestamp(), when.timestamp()))
    first = more / "2025016_ex03_scaling_first.ipynb"  # handed in before, wrong: replaced by the later one
    first.write_bytes(_notebook(releases, "week1-zh", "ex03_scaling", {**EX03, "3.1": "S = Q @ K.T"}, "2025016"))
    early = (BEFORE - timedelta(days=2)).timestamp()
    os.utime(first, (early, early))
    roster = folder / "roster_large.csv"
    with open(roster, "w", newline="", encoding="utf-8-sig") as f:
        writer = csv.writer(f)
        writer.writerow(["学号", "姓名", "邮箱", "login", "canvas_id"])
        writer.writerows(ROSTER + EXTRA_ROSTER)
    return {**built, "roster": roster, "submissions": [*built["submissions"], more]}


_graded_large = {}


def grade_large(folder, lang="en"):
    """``build_large`` into ``folder`` graded by one ordinary ``attn-grade`` run (deadline, late rule,
    extensions, the releases given, a 15 s timeout), once per test process: later calls return the first
    run's (completed process, grading folder, what ``build_large`` returned)."""
    import subprocess
    import sys

    if "run" not in _graded_large:
        built = build_large(folder)
        out = Path(folder) / "grading"
        releases = [arg for r in built["releases"] for arg in ("--release", r)]
        run = subprocess.run(
            [sys.executable, "-m", "attn_homework.grade", *map(str, built["submissions"]), "--out", str(out)]
            + ["--roster", str(built["roster"]), *map(str, releases)]
            + ["--deadline", DEADLINE.strftime("%Y-%m-%d %H:%M"), "--late", LATE_RULE]
            + ["--extensions", str(built["extensions"]), "--timeout", "15", "--jobs", "2", "--lang", lang],
            capture_output=True,
            text=True,
            timeout=1200,
            cwd=ROOT,
        )
        _graded_large["run"] = (run, out, built)
    return _graded_large["run"]
