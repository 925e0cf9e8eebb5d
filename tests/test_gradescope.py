"""The Gradescope autograder: the zip ``attn-release --gradescope`` writes, and its ``run_autograder`` run
against a simulated ``/autograder`` tree (``ATTN_GRADESCOPE_ROOT``), for a right, a wrong, a crashing and a
hostile submission, the wrong exercise and the teacher's notebook. Every results.json is checked against
the format of Gradescope's "Autograder Specifications"
(https://gradescope-autograders.readthedocs.io/en/latest/specs/, "Output format"), written below as a JSON
schema: fields not in the specification are refused, so a misspelt one fails here rather than on Gradescope.
"""

import contextlib
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import jsonschema
import nbformat
import pytest
from nbformat.v4 import new_code_cell

import attn_homework as homework
from attn_homework import release
from attn_homework.grading import batch, gradescope
from attn_homework.grading.checking import check_answers, language
from attn_homework.messages import msg

from .repo import ROOT, TEACHER_DIR
from .submissions import EX02, fill, handout
from .test_sandbox import _bwrap_works

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
TOKEN = "env-token-51b2e8"  # in the grader's environment: a credential the container might hold


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


def run_autograder(archive, tmp_path, notebooks, sandbox=True, timeout=None):
    """Extract the zip into ``tmp_path``/source as Gradescope does, put the submission in place, run
    run_autograder there (``sandbox=False``: bubblewrap switched off, Landlock alone, as in a container that
    refuses user namespaces; ``timeout``: the configuration's seconds per notebook); returns (results.json as
    a dict, its text, the process). The grader's environment holds ``TOKEN``, as a container's might."""
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    with zipfile.ZipFile(archive) as z:
        z.extractall(root / "source")
    (root / "source" / "teacher_secret.txt").write_text(SECRET)  # what a hostile kernel tries to read
    if timeout is not None:
        config = json.loads((root / "source" / gradescope.CONFIG).read_text())
        (root / "source" / gradescope.CONFIG).write_text(json.dumps({**config, "timeout": float(timeout)}))
    for name, nb in notebooks.items():
        nbformat.write(nb, root / "submission" / name)
    env = {**os.environ, gradescope.ROOT_VARIABLE: str(root), gradescope.PYTHON_VARIABLE: sys.executable}
    env["PYTHONPATH"] = str(ROOT)
    env["GRADESCOPE_API_TOKEN"] = TOKEN
    if sandbox:
        env.pop(batch.SANDBOX_OFF, None)
    else:
        env[batch.SANDBOX_OFF] = "1"
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


# ---------------------------------------------------------------- the attacker's side of run_autograder
# Each attack is a cell added to an otherwise right submission (``hostile``). The only way out of the kernel a
# submission has is its own first error's message, which results.json shows (the top-level output): the
# attacks that look for something raise with what they found, so a find would be seen there.

SEARCH = """\
import glob, os
found = []
wanted = ({secret!r}, {token!r})
def look(where, text):
    found.extend(f"{{where}}:{{w}}" for w in wanted if w in text)
look("environ", repr(dict(os.environ)))
for path in glob.glob({source!r} + "/**", recursive=True):
    try:
        look(path, open(path, errors="replace").read())
    except OSError:
        pass
for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
    for part in ("environ", "cmdline"):
        try:
            look(f"/proc/{{pid}}/{{part}}", open(f"/proc/{{pid}}/{{part}}", "rb").read().decode("utf-8", "replace"))
        except OSError:
            pass
raise ValueError(f"searched, found: {{sorted(set(found))}}"[:250])
"""


def hostile(student, *cells, answers=None):
    """The handed-out notebook with ``answers`` (right ones by default) and ``cells`` added before its last."""
    nb = filled(student, answers or EX02)
    for cell in cells:
        nb.cells.insert(len(nb.cells) - 1, new_code_cell(cell))
    return nb


def search(tmp_path):
    return SEARCH.format(secret=SECRET, token=TOKEN, source=str(tmp_path / "autograder" / "source"))


def sandboxed(run):
    return "sandbox=True" in run.stdout


@pytest.mark.skipif(not _bwrap_works(), reason="no bubblewrap (bwrap) that runs here")
def test_in_the_sandbox_a_kernel_finds_no_secret_in_the_source_its_environment_or_proc(autograder, tmp_path):
    """Defence: bubblewrap (confine.sandbox_command: a mount namespace that shows neither /autograder nor the
    grader's files, a PID namespace whose /proc holds only the sandbox's processes) and sandbox_env. Fails
    with the sandbox off (run_autograder(..., sandbox=False)): the secret file and the grader's
    /proc/PID/environ are read."""
    archive, student = autograder
    results, text, run = run_autograder(archive, tmp_path, {"ex02.ipynb": hostile(student, search(tmp_path))})
    assert sandboxed(run)  # bubblewrap runs here, so the grader must have chosen it
    assert "searched, found: []" in results["output"]
    assert SECRET not in text and TOKEN not in text and results["score"] == 3


def test_without_the_sandbox_the_kernel_still_gets_none_of_the_graders_environment(autograder, tmp_path):
    """Defence: confine.main runs the kernel with sandbox_env(…, sandboxed=False) when there is no bubblewrap
    (Landlock alone, the likely case in a container): only the variables a kernel needs. Fails with
    ``os.execv`` (the grader's whole environment) in its place."""
    archive, student = autograder
    cell = f"import os\nraise ValueError(str({TOKEN!r} in repr(dict(os.environ))) + ' token')"
    results, text, _ = run_autograder(archive, tmp_path, {"ex02.ipynb": hostile(student, cell)}, sandbox=False)
    assert "False token" in results["output"] and TOKEN not in text and results["score"] == 3


def _listener():
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
    return listener, seen, lambda: (stop.set(), thread.join(timeout=5), listener.close())


def test_without_the_sandbox_landlock_refuses_the_kernel_any_tcp_connection(autograder, tmp_path):
    """Defence: Landlock ABI 4 network rules (confine._landlock handles TCP bind and connect with no rule
    allowing any), so a kernel outside bubblewrap cannot reach a TCP listener, here or on the internet.
    Fails with ``network = 0`` in _landlock. Skipped where Landlock has no network rules (ABI < 4)."""
    from attn_homework.grading import confine

    if confine.landlock_abi() < 4:
        pytest.skip("Landlock without network rules here (ABI < 4)")
    archive, student = autograder
    listener, seen, close = _listener()
    cell = f"import socket\nsocket.create_connection(('127.0.0.1', {listener.getsockname()[1]}), timeout=3)"
    try:
        results, _, run = run_autograder(archive, tmp_path, {"ex02.ipynb": hostile(student, cell)}, sandbox=False)
    finally:
        close()
    assert "landlock" in run.stdout and "PermissionError" in results["output"]
    assert seen == [] and results["score"] == 3


def test_a_results_json_the_submission_left_is_replaced_whatever_it_is(tmp_path):
    """Defence: write_results writes last and atomically (a temporary file, then ``os.replace``, which
    replaces a symlink rather than writing through it; a directory is removed first). Fails if the file is
    written with ``open(target, "w")`` (the symlink is followed: the file it points at gets the results and
    a directory stays) or without the rmtree."""
    results = {"score": 3.0, "tests": []}
    for kind in ("file", "symlink", "directory"):
        folder = tmp_path / kind / "results"
        folder.mkdir(parents=True)
        outside = tmp_path / kind / "outside.json"
        outside.write_text('{"score": 1000}')
        target = folder / "results.json"
        if kind == "file":
            target.write_text('{"score": 1000, "tests": []}')
        elif kind == "symlink":
            target.symlink_to(outside)
        else:
            (target / "inner").mkdir(parents=True)
        gradescope.write_results(folder, results)
        assert target.is_file() and not target.is_symlink(), kind
        assert json.loads(target.read_text()) == results and outside.read_text() == '{"score": 1000}', kind
        assert [p.name for p in folder.iterdir()] == ["results.json"], kind


def test_fake_check_marks_and_a_patched_numpy_give_no_point_to_a_wrong_answer(autograder, tmp_path):
    """A wrong 2.1, the kernel's ``check`` replaced by one that prints ✅, numpy's comparisons made to say
    "equal" before the answers are read, fake ✅ lines and a forged worker report printed: 2.1 still gets 0
    and its diagnosis, the right answers their points, no ✅ reaches results.json. Defence (structural, no
    switch to remove): the grader checks the answers in its own process from the numbers the kernel holds
    (checking.check_answers), never from anything the kernel prints or computes, and the worker never reads
    the kernel's output (it is not subscribed to iopub; its reports carry a nonce the kernel never sees)."""
    archive, student = autograder
    patch = (
        "import numpy as np\n"
        "np.allclose = np.array_equal = np.isclose = lambda *a, **k: True\n"
        "check = lambda *a, **k: print('✅ 2.1 正确')\n"
        "print('✅ 2.1 正确 ✅ 2.2 正确 ✅ 2.3 正确')\n"
        'print(\'@@0123456789abcdef01234567@@{"event": "answers", "answers": {}}\')'
    )
    nb = hostile(student, patch, answers={**EX02, "2.1": "QKT = K @ Q.T"})
    results, text, _ = run_autograder(archive, tmp_path, {"ex02.ipynb": nb})
    tests = by_number(results)
    assert tests["2.1"]["score"] == 0 and tests["2.2"]["score"] == tests["2.3"]["score"] == 1
    assert results["extra_data"][EXERCISE]["codes"]["2.1"] not in ("correct", "not_attempted")
    assert "✅" not in text


def test_patching_the_checker_from_the_kernel_holds_the_submission(autograder, tmp_path):
    """A cell that imports the checker's internals to patch them (``attn_homework.verdicts.diagnose_task``
    made to find nothing wrong): the wrong 2.1 gets 0 all the same, and the submission is held for the
    teacher (``reference_code``), every test 0 until then. Defence: integrity.reference_code (a student's
    cell importing ``attn_homework.<anything>`` beyond the public calls). Fails with reference_code
    returning []."""
    archive, student = autograder
    patch = "import attn_homework.verdicts as verdicts\nverdicts.diagnose_task = lambda *a, **k: None"
    nb = filled(student, {**EX02, "2.1": "QKT = K @ Q.T"})
    first_answer = next(i for i, c in enumerate(nb.cells) if c.source.startswith("QKT = "))
    nb.cells.insert(first_answer, new_code_cell(patch))
    results, _, _ = run_autograder(archive, tmp_path, {"ex02.ipynb": nb})
    extra = results["extra_data"][EXERCISE]
    assert extra["held"] and any(n.startswith("reference_code") for n in extra["notes"])
    assert extra["codes"]["2.1"] not in ("correct", "not_attempted") and results["score"] == 0


def test_a_kernel_that_ignores_the_interrupt_and_sleeps_forever_is_ended_in_time(autograder, tmp_path):
    """Defence: the worker's deadline (the configuration's timeout), then SIGINT, then INTERRUPT_GRACE
    seconds before the kernel counts as hung and is killed; the answers reported before stay. Fails (the
    run takes the watchdog's timeout + START_ALLOWANCE, over 90 s) if worker.execute never gives up on
    a kernel that did not answer the interrupt."""
    archive, student = autograder
    cell = "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    time.sleep(1)"
    nb = hostile(student, cell)
    started = time.monotonic()
    results, _, _ = run_autograder(archive, tmp_path, {"ex02.ipynb": nb}, timeout=6)
    assert time.monotonic() - started < 60
    assert results["score"] == 3 and "timeout" in results["extra_data"][EXERCISE]["notes"][0]


def _alive_with(marker):
    """The pids whose command line holds ``marker`` (this test's own leftovers)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{name}/cmdline").read_bytes():
                    found.append(int(name))
            except OSError:
                continue
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_without_the_sandbox_forks_and_orphans_do_not_outlive_the_submission(autograder, tmp_path):
    """A hundred forked children each in a session of its own, and an orphan that would write results.json
    later: none is alive when run_autograder returns, and results.json is the grader's. Defence (Landlock
    alone: no PID namespace to tear down): the watchdog's Tracker, which remembers every process below the
    worker and ends them all (batch._clean_up). Fails with Tracker.end made a no-op."""
    archive, student = autograder
    marker = f"{os.getpid() % 1000 + 6000}.5"  # sleep's seconds: unique enough to find our leftovers
    root = tmp_path / "autograder"
    forks = (
        "import os, time\nfor _ in range(100):\n    if os.fork() == 0:\n        os.setsid()\n"
        f"        os.execvp('sleep', ['sleep', '{marker}'])"
    )
    late = (
        "import subprocess\nsubprocess.Popen(['sh', '-c', "
        f"'sleep {marker}; echo LATE > {root / 'results' / 'results.json'}'], start_new_session=True)"
    )
    try:
        results, text, _ = run_autograder(
            archive, tmp_path, {"ex02.ipynb": hostile(student, forks, late)}, sandbox=False
        )
        left = _alive_with(f"sleep\0{marker}") + _alive_with(f"sleep {marker}")
        assert left == [] and results["score"] == 3
    finally:
        for pid in _alive_with(marker):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    assert (root / "results" / "results.json").read_text(encoding="utf-8") == text


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_without_the_sandbox_the_kernel_cannot_kill_the_grader(autograder, tmp_path):
    """The kernel finds run_autograder's Python in /proc (it can read it without the sandbox) and sends it
    SIGKILL: refused, the grader writes its results. Defence: Landlock ABI 6 signal scoping (the kernel
    cannot signal a process outside its own Landlock domain). Fails with ``_SCOPE_SIGNAL`` left out of
    _landlock (the grader dies and writes no results.json). Skipped where Landlock has no scoping."""
    from attn_homework.grading import confine

    if confine.landlock_abi() < 6:
        pytest.skip("Landlock without signal scoping here (ABI < 6)")
    archive, student = autograder
    cell = (
        "import os, signal\ntried = []\nfor p in [p for p in os.listdir('/proc') if p.isdigit()]:\n"
        "    try:\n        if b'attn_homework.grading.gradescope' in open(f'/proc/{p}/cmdline', 'rb').read():\n"
        "            tried.append(p)\n            os.kill(int(p), signal.SIGKILL)\n"
        "    except OSError as e:\n        tried.append(type(e).__name__)\n"
        "raise ValueError(f'tried {tried}')"
    )
    results, _, run = run_autograder(archive, tmp_path, {"ex02.ipynb": hostile(student, cell)}, sandbox=False)
    assert "PermissionError" in results["output"] and results["score"] == 3 and run.returncode == 0
