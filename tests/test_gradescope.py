"""The Gradescope autograder: the zip ``attn-release --gradescope`` writes, and its ``run_autograder`` run
against a simulated ``/autograder`` tree (``ATTN_GRADESCOPE_ROOT``), for a right, a wrong, a crashing and a
hostile submission, the wrong exercise and the teacher's notebook. Every results.json is checked against
the format of Gradescope's "Autograder Specifications"
(https://gradescope-autograders.readthedocs.io/en/latest/specs/, "Output format"), written below as a JSON
schema: fields not in the specification are refused, so a misspelt one fails here rather than on Gradescope.
"""

import json
import os
import re
import socket
import stat
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import jsonschema
import nbformat
import pytest
from nbformat.v4 import new_code_cell

import attn_homework as homework
from attn_homework import release
from attn_homework.grading import gradescope
from attn_homework.grading.checking import check_answers, language
from attn_homework.messages import msg

from .repo import ROOT, TEACHER_DIR
from .submissions import EX02, fill, handout

pytestmark = pytest.mark.skipif(os.name != "posix", reason="run_autograder is a bash script (Gradescope: Ubuntu)")

VISIBILITY = {"enum": ["hidden", "after_due_date", "after_published", "visible"]}
FORMAT = {"enum": ["text", "html", "simple_format", "md", "ansi"]}
RESULTS_SCHEMA = {
    "type": "object",
    "required": ["score", "tests"],
    "additionalProperties": False,
    "properties": {
        "score": {"type": "number"},
        "execution_time": {"type": "number"},
        "output": {"type": "string"},
        "output_format": FORMAT,
        "test_output_format": FORMAT,
        "test_name_format": FORMAT,
        "visibility": VISIBILITY,
        "stdout_visibility": VISIBILITY,
        "extra_data": {"type": "object"},
        "leaderboard": {"type": "array"},
        "tests": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "score", "max_score", "visibility", "output"],
                "additionalProperties": False,
                "properties": {
                    "score": {"type": "number"},
                    "max_score": {"type": "number"},
                    "status": {"enum": ["passed", "failed"]},
                    "name": {"type": "string"},
                    "name_format": FORMAT,
                    "number": {"type": "string"},
                    "output": {"type": "string"},
                    "output_format": FORMAT,
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "visibility": VISIBILITY,
                    "extra_data": {"type": "object"},
                },
            },
        },
    },
}
EXERCISE = "ex02_scores"
SECRET = "teacher-only-7f3a9c"


@pytest.fixture(scope="module")
def autograder(tmp_path_factory):
    """(the zip, the release's student notebook of ex02) of a Chinese release of ex02."""
    out = tmp_path_factory.mktemp("gradescope")
    archive = out / "autograder.zip"
    code = release.main(
        ["--edition", "zh", "--exercises", "ex02", "--out", str(out / "releases"), "--name", "r"]
        + ["--notebooks", str(ROOT / "notebooks"), "--project", str(ROOT), "--gradescope", str(archive)]
    )
    assert code == 0
    student = out / "releases" / "r" / "self-attention-zh" / "notebooks" / "exercises" / f"{EXERCISE}.ipynb"
    return archive, nbformat.read(student, as_version=4)


def run_autograder(archive, tmp_path, notebooks):
    """Extract the zip into ``tmp_path``/source as Gradescope does, put the submission in place, run
    run_autograder there; returns (results.json as a dict, its text, the process)."""
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    with zipfile.ZipFile(archive) as z:
        z.extractall(root / "source")
    (root / "source" / "teacher_secret.txt").write_text(SECRET)  # what a hostile kernel tries to read
    for name, nb in notebooks.items():
        nbformat.write(nb, root / "submission" / name)
    env = {**os.environ, gradescope.ROOT_VARIABLE: str(root), gradescope.PYTHON_VARIABLE: sys.executable}
    env["PYTHONPATH"] = str(ROOT)
    run = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True, timeout=600
    )
    text = (root / "results" / "results.json").read_text(encoding="utf-8")
    results = json.loads(text)
    jsonschema.validate(results, RESULTS_SCHEMA)
    return results, text, run


def filled(student, answers):
    """A copy of the handed-out notebook with answer cells replaced (the fixture's stays as handed out)."""
    return fill(nbformat.from_dict(json.loads(json.dumps(student))), answers, EXERCISE)


def by_number(results):
    return {t["number"]: t for t in results["tests"]}


def zh(text):
    return re.search(r"[\u4e00-\u9fff]", text) is not None


def test_the_zip_holds_the_two_scripts_at_its_root_and_no_solution(autograder, tmp_path):
    archive, _ = autograder
    with zipfile.ZipFile(archive) as z:
        names = z.namelist()
        modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
        z.extractall(tmp_path)
    for script in ("setup.sh", "run_autograder"):
        assert script in names and modes[script] & stat.S_IXUSR
    commands = [line for line in (tmp_path / "setup.sh").read_text().splitlines() if not line.startswith("#")]
    assert any('"/autograder/source[homework]"' in line for line in commands)
    assert not any(tool in "\n".join(commands).lower() for tool in ("jupyterlab", "voila", "nbgrader"))
    assert not any("teacher" in Path(n).parts for n in names)
    release.check_no_answers(tmp_path)  # raises on a teacher folder or a solution region
    config = json.loads((tmp_path / gradescope.CONFIG).read_text())
    assert config["exercises"] == [EXERCISE] and config["edition"] == "zh"


def test_a_right_submission_gets_every_point_with_the_checkers_words(autograder, tmp_path):
    archive, student = autograder
    results, _, _ = run_autograder(archive, tmp_path, {"ex02.ipynb": filled(student, EX02)})
    tests = by_number(results)
    assert list(tests) == [t.id for t in homework.tasks(EXERCISE)]
    assert results["score"] == 3 and all(t["score"] == t["max_score"] == 1 for t in tests.values())
    assert all(t["status"] == "passed" and zh(t["output"]) for t in tests.values())
    assert results["stdout_visibility"] == "hidden"


def test_a_wrong_answer_fails_its_test_with_the_diagnosis_and_not_the_answer(autograder, tmp_path):
    archive, student = autograder
    right, _, _ = run_autograder(archive, tmp_path / "right", {"ex02.ipynb": filled(student, EX02)})
    wrong_nb = filled(student, {**EX02, "2.1": "QKT = K @ Q.T"})
    wrong, _, _ = run_autograder(archive, tmp_path / "wrong", {"ex02.ipynb": wrong_nb})
    test = by_number(wrong)["2.1"]
    assert test["score"] == 0 and test["status"] == "failed" and wrong["score"] == 2
    assert zh(test["output"]) and test["output"] != by_number(right)["2.1"]["output"]
    assert "Q @ K.T" not in json.dumps(wrong)
    assert wrong["extra_data"][EXERCISE]["codes"]["2.1"] not in ("correct", "not_attempted")


def test_a_crashing_submission_keeps_what_it_answered_before(autograder, tmp_path):
    archive, student = autograder
    nb = filled(student, EX02)
    after = next(i for i, c in enumerate(nb.cells) if c.source.startswith("QKT = "))
    nb.cells.insert(after + 1, new_code_cell("import os\nos._exit(1)"))
    results, _, _ = run_autograder(archive, tmp_path, {"ex02.ipynb": nb})
    tests = by_number(results)
    assert tests["2.1"]["score"] == 1 and tests["2.2"]["score"] == 0 and tests["2.3"]["score"] == 0
    assert "crashed" in results["extra_data"][EXERCISE]["notes"][0]
    with language("zh"):
        assert msg("status_crashed", cells="").split("（")[0].strip() in results["output"]


def test_a_hostile_submission_cannot_write_the_results_read_the_teachers_files_or_connect(autograder, tmp_path):
    archive, student = autograder
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    listener.settimeout(0.2)
    seen, stop = [], threading.Event()

    def accept():
        while not stop.is_set():
            try:
                seen.append(listener.accept())
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    root = tmp_path / "autograder"
    fake = {"score": 1000, "tests": []}
    attacks = [
        f"import json, os\nos.makedirs({str(root / 'results')!r}, exist_ok=True)\n"
        f"json.dump({fake!r}, open({str(root / 'results' / 'results.json')!r}, 'w'))",
        f"raise ValueError(open({str(root / 'source' / 'teacher_secret.txt')!r}).read())",
        f"import socket\nsocket.create_connection(('127.0.0.1', {listener.getsockname()[1]}), timeout=3)",
        "import subprocess\nsubprocess.Popen(['sleep', '600'], start_new_session=True)",
    ]
    nb = filled(student, EX02)
    for attack in attacks:
        nb.cells.insert(len(nb.cells) - 1, new_code_cell(attack))
    try:
        results, text, run = run_autograder(archive, tmp_path, {"ex02.ipynb": nb})
    finally:
        stop.set()
        thread.join(timeout=5)
        listener.close()
    sandboxed = "sandbox=True" in run.stdout
    assert results["score"] != 1000 and len(results["tests"]) == 3
    if not sandboxed:
        pytest.skip("no bubblewrap sandbox here: the reads and the connection are not blocked (write confinement only)")
    assert SECRET not in text and SECRET not in run.stdout
    assert seen == []
    assert results["score"] == 3  # the answers are still right; the attacks were errors of its own cells


def test_the_wrong_exercise_and_the_teachers_notebook_get_no_mark_and_say_why(autograder, tmp_path):
    archive, _ = autograder
    other, _, _ = run_autograder(archive, tmp_path / "other", {"ex01.ipynb": handout("ex01_projection")})
    assert other["score"] == 0 and all(t["score"] == 0 for t in other["tests"])
    assert "ex01_projection" in other["output"] and EXERCISE in other["output"]
    with language("zh"):
        assert all(t["output"] == msg("gs_not_submitted") for t in other["tests"])
    teacher = nbformat.read(TEACHER_DIR / f"{EXERCISE}.ipynb", as_version=4)
    held, _, _ = run_autograder(archive, tmp_path / "teacher", {"ex02.ipynb": teacher})
    assert held["score"] == 0 and held["extra_data"][EXERCISE]["held"]
    assert "teacher_version" in held["extra_data"][EXERCISE]["notes"]
    with language("zh"):
        assert msg("gs_held") in held["output"]


def test_a_grader_failure_still_writes_results_for_the_student(tmp_path):
    root = tmp_path / "autograder"
    (root / "source").mkdir(parents=True)
    (root / "source" / gradescope.CONFIG).write_text(json.dumps({"exercises": ["no_such_exercise"], "edition": "en"}))
    gradescope.run(root)
    results = json.loads((root / "results" / "results.json").read_text())
    jsonschema.validate(results, RESULTS_SCHEMA)
    assert results["score"] == 0 and "tell your teacher" in results["output"]


@pytest.fixture(scope="module", params=["zh", "en"])
def per_student_autograder(request, tmp_path_factory):
    """(the zip, the handed-out notebook of ex02, the edition) of a per-student release of ex02 in each edition."""
    edition = request.param
    out = tmp_path_factory.mktemp(f"gradescope_{edition}")
    archive = out / "autograder.zip"
    code = release.main(
        ["--edition", edition, "--exercises", "ex02", "--per-student", "--out", str(out / "releases"), "--name", "r"]
        + ["--notebooks", str(ROOT / "notebooks"), "--project", str(ROOT), "--gradescope", str(archive)]
    )
    assert code == 0
    folder = out / "releases" / "r" / f"self-attention-{edition}" / "notebooks" / "exercises"
    return archive, nbformat.read(folder / f"{EXERCISE}.ipynb", as_version=4), edition


def test_an_untouched_per_student_notebook_is_blank_with_every_task_0_in_its_language(per_student_autograder, tmp_path):
    """The released notebook handed in unchanged (its ID cell empty, so its data cells raise): every test 0
    with the checker's words for an unanswered task, the top-level output saying nothing was answered, in
    the edition's language; its status is blank, not runtime_error, and it is not held."""
    archive, student, edition = per_student_autograder
    results, _, _ = run_autograder(archive, tmp_path, {"ex02.ipynb": student})
    tests = by_number(results)
    assert results["score"] == 0 and list(tests) == [t.id for t in homework.tasks(EXERCISE)]
    unanswered = check_answers(
        EXERCISE, {t.var: {"kind": "ellipsis"} for t in homework.tasks(EXERCISE)}, edition=edition
    )
    for result in unanswered:
        assert result.code == "not_attempted"
        assert tests[result.id]["score"] == 0 and tests[result.id]["status"] == "failed"
        assert tests[result.id]["output"] == result.message
    extra = results["extra_data"][EXERCISE]
    assert extra["notes"][0] == "blank" and not any(n.startswith("runtime_error") for n in extra["notes"])
    assert not extra["held"] and set(extra["codes"].values()) == {"not_attempted"}
    with language(edition):
        assert msg("status_blank") in results["output"] and msg("fb_why_blank") in results["output"]
        assert msg("gs_held") not in results["output"]
    assert zh(results["output"]) == (edition == "zh")


def test_an_untouched_shared_notebook_is_blank(autograder, tmp_path):
    """The plain release's notebook handed in unchanged: blank, every test 0."""
    archive, student = autograder
    results, _, _ = run_autograder(archive, tmp_path, {"ex02.ipynb": student})
    assert results["score"] == 0 and results["extra_data"][EXERCISE]["notes"] == ["blank"]
    with language("zh"):
        assert msg("fb_why_blank") in results["output"]
