"""The teacher's cycle: a release students can use with the zip alone (its README's commands, its links, no
repository-only instruction) and that holds no answer key, a partial release whose links stay whole and whose
untouched notebooks grade with no changed cell, per-student data, a student command that refuses an unknown
task, and (with kernels) a class graded from LMS-style folders and a zip with a roster into one gradebook row
per student and the LMS files, in both editions."""

import csv
import json
import os
import re
import subprocess
import sys
import zipfile
from datetime import datetime, timedelta

import nbformat
import numpy as np
import pytest
from nbformat.v4 import new_code_cell, new_notebook

import attn_homework as homework
from attn_core import set_lang
from attn_homework import release, student, task_data
from attn_homework.grading.handout import Handouts, fingerprint, handout_cells
from attn_homework.grading.reports import TOTAL_COLUMN
from attn_homework.student import BEGIN, END

from .repo import NOTEBOOKS, ROOT
from .submissions import EX02, EX02_IDS, fill

PARTIAL = ["ex02_scores", "ex06_full_pipeline"]
# What a student who has only the zip cannot follow: the repository's make targets and its README's sections.
REPOSITORY_ONLY = re.compile(
    r"\bmake (lab|lab-en|demo|demo-en|test|student|release|lint|bench)\b|给老师|For teachers|课堂上|In class"
    r"|CONTRIBUTING|requirements-dev|voila|demo\.ipynb"
)


def _unzipped(archive, tmp_path_factory):
    """The zip unpacked into a fresh folder: what a student has."""
    where = tmp_path_factory.mktemp("unzipped")
    with zipfile.ZipFile(archive) as z:
        z.extractall(where)
    (folder,) = where.iterdir()
    return folder


@pytest.fixture(scope="module", params=["zh", "en"])
def released(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"release_{request.param}")
    folder, archive, manifest = release.build(
        NOTEBOOKS, ROOT, out, "test", request.param, list(homework.EXERCISES), per_student=request.param == "en"
    )
    return request.param, folder, archive, json.loads(manifest.read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=["zh", "en"])
def partial(request, tmp_path_factory):
    """``--exercises ex02 ex06``, unzipped: (edition, the student's folder, the release folder)."""
    out = tmp_path_factory.mktemp(f"partial_{request.param}")
    _, archive, manifest = release.build(NOTEBOOKS, ROOT, out, "week", request.param, PARTIAL, per_student=False)
    return request.param, _unzipped(archive, tmp_path_factory), manifest.parent


def test_release_holds_what_students_need_and_never_an_answer(released):
    edition, folder, archive, _ = released
    with zipfile.ZipFile(archive) as z:
        names = z.namelist()
    top = f"self-attention-{edition}/"
    assert all(name.startswith(top) for name in names)
    for needed in (
        "README.md",
        "requirements.txt",
        "pyproject.toml",
        "attn_core/core.py",
        "attn_viz/plots.py",
        "attn_homework/verdicts.py",
        "notebooks/00_setup_check.ipynb",
        f"jupyterlab-settings/{edition}/overrides.json",
    ):
        assert top + needed in names, needed
    assert not [n for n in names if n.startswith(top + "jupyterlab-settings/") and f"/{edition}/" not in n]
    exercises = sorted(n.removeprefix(top + "notebooks/exercises/") for n in names if "/notebooks/exercises/" in n)
    assert exercises == sorted(f"{name}.ipynb" for name in homework.EXERCISES)
    lessons = sorted(n.removeprefix(top + "notebooks/") for n in names if re.fullmatch(top + r"notebooks/[^/]+", n))
    assert lessons == sorted(p.name for p in (NOTEBOOKS if edition == "zh" else NOTEBOOKS / "en").glob("[0-9]*.ipynb"))
    assert top + "notebooks/demo.ipynb" not in names, "the classroom board stays with the teacher"
    assert not [n for n in names if "teacher" in n.split("/")], "a teacher folder must never be handed out"
    for path in folder.rglob("*.ipynb"):
        text = path.read_text(encoding="utf-8")
        assert BEGIN not in text and END not in text and "teacher-only" not in text, path
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert ("装好环境" in readme) == (edition == "zh")


def test_every_instruction_in_the_zip_is_one_a_student_can_follow(released, tmp_path_factory):
    """No make target, no section of the repository's README, no board: in the notebooks (sources and
    outputs), the README and the requirements."""
    folder = _unzipped(released[2], tmp_path_factory)
    found = []
    for path in folder.rglob("*"):
        parts = path.relative_to(folder).parts
        if (
            path.is_file()
            and not {"attn_core", "attn_viz", "attn_homework"} & set(parts)
            and path.name != "pyproject.toml"
        ):
            text = path.read_text(encoding="utf-8")
            found += [(path.relative_to(folder).as_posix(), m.group(0)) for m in REPOSITORY_ONLY.finditer(text)]
    assert found == []
    setup_check = nbformat.read(folder / "notebooks" / "00_setup_check.ipynb", as_version=4)
    assert "README" in setup_check.cells[2].source  # the fix still points to the README's command


def test_the_requirements_are_the_students(released, tmp_path_factory):
    edition = released[0]
    text = (_unzipped(released[2], tmp_path_factory) / "requirements.txt").read_text(encoding="utf-8")
    assert text.startswith("# -*- coding: utf-8 -*-\n")  # pip reads it on a Chinese Windows too
    kept = [line.split("#")[0].strip() for line in text.splitlines() if line.split("#")[0].strip()]
    ours = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    wanted = [line.split("#")[0].strip() for line in ours if line.split("#")[0].strip()]
    assert kept == [r for r in wanted if not r.startswith("voila")]
    assert "jupyterlab-language-pack-zh-CN" in text and "-e .[all]" in kept
    comments = [line.split("#", 1)[1] for line in text.splitlines()[1:] if "#" in line]
    assert comments and all(bool(re.search(r"[\u4e00-\u9fff]", c)) == (edition == "zh") for c in comments)


def test_the_readme_starts_jupyterlab_as_make_lab_does(released, tmp_path_factory):
    """The commands for Windows and for macOS/Linux, with the edition's JupyterLab settings shipped beside."""
    edition = released[0]
    folder = _unzipped(released[2], tmp_path_factory)
    readme = (folder / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```[a-z]*\n(.*?)```", readme, re.S)
    commands = [line for block in blocks for line in block.splitlines() if line.strip()]
    # the course's fonts, served as make lab serves them (the folder is in the release: attn_viz/fonts)
    fonts = re.search(r"^LAB_FONTS := (.*)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M).group(1)
    assert (folder / "attn_viz" / "fonts" / "custom.css").is_file()
    assert commands == [
        "python -m venv .venv",
        r".venv\Scripts\python -m pip install -r requirements.txt",
        "python3 -m venv .venv",
        ".venv/bin/python -m pip install -r requirements.txt",
        rf".venv\Scripts\python -m jupyter lab notebooks --LabApp.app_settings_dir=jupyterlab-settings\{edition}"
        f" {fonts}",
        f".venv/bin/python -m jupyter lab notebooks --LabApp.app_settings_dir=jupyterlab-settings/{edition} {fonts}",
    ]
    assert readme.index("**Windows**") < readme.index("**macOS / Linux**")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = "lab" if edition == "zh" else "lab-en"
    recipe = re.search(rf"^{target}:.*\n\t(.*)$", makefile, re.M).group(1)
    assert f'--LabApp.app_settings_dir="$(CURDIR)/jupyterlab-settings/{edition}"' in recipe and "$(LAB_FONTS)" in recipe
    overrides = json.loads((folder / "jupyterlab-settings" / edition / "overrides.json").read_text(encoding="utf-8"))
    assert overrides == json.loads((ROOT / "jupyterlab-settings" / edition / "overrides.json").read_text())
    assert overrides["@jupyterlab/translation-extension:plugin"]["locale"] == ("zh_CN" if edition == "zh" else "en")


def _links(folder):
    """(file, link) of every relative link in the release's notebooks (markdown cells) and README."""
    for path in sorted(folder.rglob("*.ipynb")) + [folder / "README.md"]:
        if path.suffix == ".ipynb":
            texts = [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown"]
        else:
            texts = [path.read_text(encoding="utf-8")]
        for text in texts:
            for link in re.findall(r"\]\(([^)\s#]+)", text):
                if not re.match(r"[a-z]+:", link):
                    yield path, link


def test_every_link_in_a_release_resolves_inside_it(released, tmp_path_factory):
    folder = _unzipped(released[2], tmp_path_factory)
    links = list(_links(folder))
    assert len(links) > 50
    assert [(p.relative_to(folder).as_posix(), link) for p, link in links if not (p.parent / link).exists()] == []


def test_a_partial_release_unlinks_what_it_does_not_hand_out(partial):
    """ex02 and ex06 only: "Next exercise" (ex03, ex07) and lesson 12's ex12 become text; the rest resolves."""
    edition, folder, _ = partial
    broken = [(p.relative_to(folder).as_posix(), link) for p, link in _links(folder) if not (p.parent / link).exists()]
    assert broken == []
    assert sorted(p.name for p in (folder / "notebooks" / "exercises").iterdir()) == [f"{n}.ipynb" for n in PARTIAL]
    for exercise, next_one in (("ex02_scores", "ex03_scaling"), ("ex06_full_pipeline", "ex07_causal_mask")):
        last = nbformat.read(folder / "notebooks" / "exercises" / f"{exercise}.ipynb", as_version=4).cells[-1].source
        words = "下一个练习：" if edition == "zh" else "Next exercise: "
        assert words in last and next_one not in last and "](" not in last.split(words)[1], last
        assert "→" not in last.split(words)[1], last  # plain text promises no link
    lesson_12 = nbformat.read(folder / "notebooks" / "12_positions.ipynb", as_version=4).cells[-1].source
    assert "ex12_positions" in lesson_12 and "exercises/ex12_positions.ipynb" not in lesson_12
    lesson_06 = "".join(
        c.source for c in nbformat.read(folder / "notebooks" / "06_full_pipeline.ipynb", as_version=4).cells
    )
    assert "](exercises/ex06_full_pipeline.ipynb)" in lesson_06  # a handed-out exercise keeps its link
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "ex02_scores.ipynb" in readme and "ex03_scaling" not in readme


def test_an_untouched_partial_release_shows_no_changed_cell(partial):
    """The fingerprint is of the cells as handed out (links unlinked): the grader, comparing a notebook with
    its release or with its own metadata, finds nothing changed; edit a handed-out cell and it does."""
    _, folder, release_dir = partial
    with_release, with_metadata = Handouts([release_dir]), Handouts()
    for exercise in PARTIAL:
        nb = nbformat.read(folder / "notebooks" / "exercises" / f"{exercise}.ipynb", as_version=4)
        record = nb.metadata["attn_core"]["handout"]
        editable = {cell_id for cell_id, _, is_answer, *_ in record["cells"] if is_answer}
        assert record["fingerprint"] == fingerprint(handout_cells(nb, editable))
        assert with_release.compare(nb, exercise) == ([], "release")
        assert with_metadata.compare(nb, exercise) == ([], "metadata")
        nb.cells[-1].source += " (edited)"
        changes, _ = with_release.compare(nb, exercise)
        assert [(c.number, c.kind) for c in changes] == [(len(nb.cells), "edited")]


@pytest.mark.kernel
def test_the_grader_finds_no_changed_cell_in_an_untouched_release(partial, tmp_path):
    edition, folder, release_dir = partial
    out = tmp_path / "grading"
    run = subprocess.run(
        [sys.executable, "-m", "attn_homework.grade", str(folder / "notebooks" / "exercises"), "--out", str(out)]
        + ["--release", str(release_dir), "--timeout", "60", "--jobs", "1", "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
        env={**os.environ, "LANG": "C"},
    )
    assert run.returncode == 0, run.stderr
    with open(out / "submissions.csv", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    assert sorted(r["exercise"] for r in rows) == PARTIAL
    assert [r["status"] for r in rows] == ["blank", "blank"], [(r["status"], r["details"]) for r in rows]
    assert not any("cells_changed" in r["details"] for r in rows)


def test_each_handed_out_notebook_records_its_fingerprint(released):
    edition, folder, _, manifest = released
    assert manifest["edition"] == edition and len(manifest["notebooks"]) == len(homework.EXERCISES)
    for entry in manifest["notebooks"]:
        nb = nbformat.read(folder / entry["path"], as_version=4)
        record = nb.metadata["attn_core"]["handout"]
        assert record == entry["handout"] and record["edition"] == edition
        assert nb.metadata["attn_core"]["exercise"] == entry["exercise"]


def test_a_per_student_release_asks_for_the_student_number_first(released):
    edition, folder, _, manifest = released
    nb = nbformat.read(folder / "notebooks" / "exercises" / "ex02_scores.ipynb", as_version=4)
    codes = [c for c in nb.cells if c.cell_type == "code"]
    if edition == "en":
        assert manifest["per_student"] and 'set_student_id("...")' in codes[1].source
        assert all(not c.get("outputs") for c in codes)
    else:
        assert not any("set_student_id" in c.source for c in codes)


def test_a_release_with_a_solution_is_refused(tmp_path):
    (tmp_path / "notebooks" / "exercises" / "teacher").mkdir(parents=True)
    with pytest.raises(release.ReleaseError, match="teacher folder"):
        release.check_no_answers(tmp_path)
    nb = new_notebook(cells=[new_code_cell(f"x = ...\n{BEGIN}\nx = 1\n{END}")])
    nbformat.write(nb, tmp_path / "leak.ipynb")
    (tmp_path / "notebooks" / "exercises" / "teacher").rmdir()
    with pytest.raises(release.ReleaseError, match="solution region"):
        release.check_no_answers(tmp_path)


def test_the_command_will_not_overwrite_a_release(tmp_path, capsys, english):
    args = ["--edition", "zh", "--exercises", "ex02", "--name", "r1", "--out", str(tmp_path), "--lang", "en"]
    args += ["--notebooks", str(NOTEBOOKS), "--project", str(ROOT)]
    assert release.main(args) == 0
    assert "for the students" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        release.main(args)
    assert exit_.value.code == 2 and "--force" in capsys.readouterr().err
    set_lang("zh")  # the command set its language for the process


# ---------------------------------------------------------------- per-student data


def test_per_student_data_differs_between_students_and_is_the_same_each_time():
    with task_data.student_data("2024001"):
        mine, again = homework.data("2.2"), homework.data("2.2")
        four_words = homework.data("2.1")
    with task_data.student_data("2024002"):
        theirs = homework.data("2.2")
    shared = homework.data("2.2")
    assert np.array_equal(mine.Q_new, again.Q_new) and not np.array_equal(mine.Q_new, theirs.Q_new)
    assert not np.array_equal(mine.Q_new, shared.Q_new)
    np.testing.assert_array_equal(four_words.Q, homework.data("2.1").Q)  # the course example stays
    assert np.array_equal(mine.Q_new, np.round(mine.Q_new, 1))  # drawn and rounded at the source


def test_an_id_cell_left_blank_stops_the_data_with_a_clear_message(capsys):
    try:
        task_data.set_student_id("...")
        assert "写上你的学号" in capsys.readouterr().out
        with pytest.raises(ValueError, match="学号"):
            homework.data("2.2")
        homework.data("2.1")  # the four words need no number
        task_data.set_student_id(2024001)
        assert "2024001" in capsys.readouterr().out
        with task_data.student_data("2024001"):
            expected = homework.data("2.2").Q_new
        np.testing.assert_array_equal(homework.data("2.2").Q_new, expected)
    finally:
        task_data._student_id, task_data._id_required = None, False


# ---------------------------------------------------------------- the student command and unknown tasks


def test_the_student_command_refuses_a_check_of_an_unknown_task(tmp_path, capsys):
    teacher = tmp_path / "teacher" / "ex99_mine.ipynb"
    teacher.parent.mkdir()
    nb = new_notebook(
        cells=[new_code_cell("x = ...\n### BEGIN SOLUTION\nx = 1\n### END SOLUTION"), new_code_cell('check("9.9")')]
    )
    nbformat.write(nb, teacher)
    assert student.main([str(teacher), "--out", str(tmp_path / "out"), "--no-execute"]) == 1
    err = capsys.readouterr().err
    assert 'check("9.9")' in err and "attn_homework/exercises/" in err
    assert not (tmp_path / "out" / teacher.name).exists()


# ---------------------------------------------------------------- a class, graded from an LMS download


@pytest.mark.kernel
def test_a_class_from_an_lms_download_becomes_one_gradebook_row_per_student(tmp_path):
    """Per-student data in both editions, Moodle folders and a Canvas zip, a roster, a late rule: the whole
    cycle from the release to the files an LMS imports."""
    releases = tmp_path / "releases"
    zh, _, _ = release.build(NOTEBOOKS, ROOT, releases, "zh", "zh", ["ex02_scores"], per_student=True)
    en, _, _ = release.build(NOTEBOOKS, ROOT, releases, "en", "en", ["ex02_scores"], per_student=True)

    def handed(folder, number, answers):
        nb = nbformat.read(folder / "notebooks" / "exercises" / "ex02_scores.ipynb", as_version=4)
        nb = fill(nb, answers, "ex02_scores")
        for cell in nb.cells:
            cell.source = cell.source.replace('set_student_id("...")', f'set_student_id("{number}")')
        return nbformat.writes(nb)

    with task_data.student_data("2024001"):
        copied = (homework.data("2.2").Q_new @ homework.data("2.2").K_new.T).round(6).tolist()
    download = tmp_path / "download"
    moodle = download / "陈十二_12345_assignsubmission_file_"
    moodle.mkdir(parents=True)
    (moodle / "ex02_scores.ipynb").write_text(handed(zh, "2024001", EX02), encoding="utf-8")
    with zipfile.ZipFile(download / "canvas.zip", "w") as z:  # Zhang San copied 陈十二's numbers
        z.writestr(
            "zhangsan_4321_77_ex02_scores.ipynb",
            handed(en, "2024002", {**EX02, "2.2": f"QKT_new = np.array({copied})"}),
        )
        z.writestr("zhangsan_4321_78_notes.txt", "my notes")
    (download / "2024003_ex02.ipynb").write_text(handed(zh, "...", EX02), encoding="utf-8")  # no number filled in
    roster = tmp_path / "名单.csv"
    roster.write_text(
        "学号,姓名,邮箱,canvas_id\n2024001,陈十二,chen@example.edu,\n2024002,Zhang San,zs@example.edu,4321\n"
        "2024003,王五,wang@example.edu,\n2024004,赵六,zhao@example.edu,\n",
        encoding="utf-8",
    )
    deadline = (datetime.now() - timedelta(hours=1)).isoformat(sep=" ", timespec="minutes")
    out = tmp_path / "grading"
    run = subprocess.run(
        [sys.executable, "-m", "attn_homework.grade", str(download), "--out", str(out), "--roster", str(roster)]
        + ["--release", str(releases / "zh"), "--release", str(releases / "en"), "--deadline", deadline, "--late", "10"]
        + ["--timeout", "20", "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,  # not the repository: the releases are the handouts
        env={**os.environ, "LANG": "C"},
    )
    assert run.returncode == 0, run.stderr
    assert "zhangsan_4321_78_notes.txt: not a notebook (.txt)" in run.stderr

    def table(name):
        with open(out / name, encoding="utf-8-sig") as f:
            return list(csv.DictReader(f))

    rows = {r["student_id"]: r for r in table("submissions.csv")}
    assert rows["2024001"]["2.2"] == "correct" and rows["2024001"]["status"] == "completed; late"
    assert rows["2024002"]["2.2"] != "correct" and rows["2024002"]["edition"] == "en"  # a copied array fails
    assert rows["2024003"]["2.1"] == "correct" and "no_student_id" in rows["2024003"]["status"]
    gradebook = {r["student_id"]: r for r in table("gradebook.csv")}
    assert list(gradebook) == ["2024001", "2024002", "2024003", "2024004"]  # the roster's order, everyone
    one_wrong = format(round(100 * (len(EX02_IDS) - 1) / len(EX02_IDS) - 10, 1), "g")
    totals = {number: row[TOTAL_COLUMN] for number, row in gradebook.items()}
    assert totals["2024001"] == "90"  # 1 day late: -10
    # Zhang San's 2.2 is 陈十二's numbers: held for review, with its mark, out of the LMS files until decided
    assert rows["2024002"]["final_percent"] == one_wrong and "other_students_data" in rows["2024002"]["status"]
    assert totals["2024002"] == "" and gradebook["2024002"]["held_for_review"] == "ex02"
    assert gradebook["2024004"]["missing"] == "ex02" and totals["2024004"] == "0"
    worksheet = table("moodle_worksheet.csv")
    assert [(r["Identifier"], r["Grade"]) for r in worksheet] == [("Participant 12345", "90")]
    canvas = {r["SIS User ID"]: r for r in table("canvas_grades.csv")}
    assert "2024002" not in canvas and canvas["2024001"]["Self-attention exercises"] == "90"
    assert {p.name for p in (out / "feedback").iterdir()} == {
        f"{n}_ex02_scores.html" for n in ("2024001", "2024002", "2024003")
    }
    assert 'lang="en"' in (out / "feedback" / "2024002_ex02_scores.html").read_text(encoding="utf-8")
