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
