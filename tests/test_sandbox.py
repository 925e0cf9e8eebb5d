"""One submission must never reach another: the grader's sandbox under attack, and its watchdog under faults.

The hostile batch is graded as a teacher grades it (the command, ``--jobs 2``) with the sandbox the machine
offers (bubblewrap on Linux). Each attack is a cell added to an otherwise right submission: take a neighbour
kernel's HMAC key from its connection file and overwrite its answers over its shell socket, read another
submission's notebook, read the repository's teacher notebook, open a TCP connection to a listener this test
holds on 127.0.0.1, connect to a UNIX socket outside the kernel's folder. Every honest neighbour keeps full
marks; every attack is an error in the attacker's own notebook, and the listeners saw no one.

Each hostile test fails when the sandbox is off: run this file with ``ATTN_GRADE_TEST_NO_SANDBOX=1`` (the
grader's test-only switch: no bubblewrap, Landlock alone as before, ``--jobs`` kept) and every one of them
fails. (Landlock ABI 4 refuses TCP too, so there the TCP test fails only on the error's name, PermissionError
instead of the sandbox's ConnectionRefusedError: tests/test_gradescope.py tests that refusal on its own.)
Without bubblewrap on the machine they are skipped, saying why.
"""

import contextlib
import csv
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat
import pytest

from attn_homework.grading import batch
from attn_homework.grading.batch import Limits, Watchdog, _Running
from attn_homework.grading.processes import Proc, Tracker

from .repo import ROOT, TEACHER_DIR
from .submissions import EX02, submission

TIMEOUT = 20  # seconds per notebook: the neighbour attack scans for 10 of them


def _bwrap_works():
    program = shutil.which("bwrap")
    if not sys.platform.startswith("linux") or program is None:
        return False
    command = [program, "--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
    command += ["--ro-bind", "/", "/", "--", "/bin/true"]
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        return subprocess.run(command, capture_output=True, timeout=30).returncode == 0
    return False


needs_sandbox = pytest.mark.skipif(not _bwrap_works(), reason="no bubblewrap (bwrap) that runs here")

# The neighbour attack: every connection file of another worker that shows up within 10 s is read, and its
# kernel is sent (signed with its own key) code that keeps overwriting its answers from a thread.
NEIGHBOUR = """\
import glob, hashlib, hmac, json, os, time, uuid
import zmq
mine = os.path.dirname(os.getcwd()) + os.sep
spoil = '''
import threading, time
_ns = get_ipython().user_ns
def _spoil():
    while True:
        _ns['QKT'] = _ns['QKT_new'] = 0
        time.sleep(0.001)
threading.Thread(target=_spoil, daemon=True).start()
'''
context = zmq.Context()
attacked = set()
end = time.monotonic() + 10
while time.monotonic() < end:
    for path in glob.glob({pattern!r}):
        if path in attacked or path.startswith(mine):
            continue
        try:
            with open(path) as f:
                info = json.load(f)
        except (OSError, ValueError):
            continue
        attacked.add(path)
        shell = context.socket(zmq.DEALER)
        shell.setsockopt(zmq.LINGER, 1000)
        shell.connect(f"ipc://{{info['ip']}}-{{info['shell_port']}}")
        header = {{"msg_id": uuid.uuid4().hex, "username": "x", "session": uuid.uuid4().hex,
                  "date": "2026-01-01T00:00:00Z", "msg_type": "execute_request", "version": "5.3"}}
        content = {{"code": spoil, "silent": True, "store_history": False, "user_expressions": {{}},
                   "allow_stdin": False, "stop_on_error": False}}
        parts = [json.dumps(p).encode() for p in (header, {{}}, {{}}, content)]
        signature = hmac.new(info["key"].encode(), b"".join(parts), hashlib.sha256).hexdigest().encode()
        shell.send_multipart([b"<IDS|MSG>", signature, *parts])
    time.sleep(0.1)
"""
READ = "stolen = open({path!r}, encoding='utf-8').read()"
TCP = "import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=3).close()"
UNIX = "import socket\ns = socket.socket(socket.AF_UNIX)\ns.settimeout(3)\ns.connect({path!r})\ns.close()"
# More than the sandbox's disk quota (Limits.disk, 256 MiB) in files each under the 256 MiB file-size limit.
DISK = """\
import os
for i in range(10):
    with open(f"fill{i}.bin", "wb") as f:
        for _ in range(4):
            f.write(os.urandom(1) * (8 << 20))
raise RuntimeError("wrote 320 MiB")
"""
ESCAPE = 'raise ValueError("\\x1b[2J\\x1b[32mgrader OK\\r\\x9b1A")'  # clear screen, colour, overwrite
HONEST = ("b_honest1", "b_honest2", "b_honest3")


def _queued(listener):
    """Whether anyone connected to ``listener`` (a connection waits in its queue until accepted)."""
    listener.setblocking(False)
    try:
        connection, _ = listener.accept()
    except BlockingIOError:
        return False
    connection.close()
    return True


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    tcp.listen(8)
    unix_folder = Path(tempfile.mkdtemp(prefix="attn_sock_"))  # short: a UNIX socket path has 107 bytes at most
    unix_path = str(unix_folder / "outside.sock")
    unix = socket.socket(socket.AF_UNIX)
    unix.bind(unix_path)
    unix.listen(8)
    pattern = os.path.join(tempfile.gettempdir(), "attn_grade_*", "conn", "kernel.json")
    subs = {
        "a_neighbour": submission(EX02, extra=[(3, NEIGHBOUR.format(pattern=pattern))]),
        **{key: submission(EX02) for key in HONEST},
        "c_reader": submission(EX02, extra=[(3, READ.format(path=str(folder / "b_honest1_ex02.ipynb")))]),
        "c_teacher": submission(EX02, extra=[(3, READ.format(path=str(TEACHER_DIR / "ex02_scores.ipynb")))]),
        "c_tcp": submission(EX02, extra=[(3, TCP.format(port=tcp.getsockname()[1]))]),
        "c_unix": submission(EX02, extra=[(3, UNIX.format(path=unix_path))]),
        "c_disk": submission(EX02, extra=[(3, DISK)]),
        "c_escape": submission(EX02, extra=[(3, ESCAPE)]),
    }
    for key, nb in subs.items():
        nbformat.write(nb, folder / f"{key}_ex02.ipynb")
    csv_path = folder.parent / "hostile.csv"
    run = subprocess.run(
        [sys.executable, "-m", "attn_homework.grade", str(folder), "--csv", str(csv_path)]
        + ["--timeout", str(TIMEOUT), "--jobs", "2", "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=ROOT,
    )
    with open(csv_path, encoding="utf-8-sig") as f:
        rows = {Path(r["file"]).name.removesuffix("_ex02.ipynb"): r for r in csv.DictReader(f)}
    connected = {"tcp": _queued(tcp), "unix": _queued(unix)}
    tcp.close()
    unix.close()
    shutil.rmtree(unix_folder, ignore_errors=True)
    yield run, rows, connected


def _blocked(row, *errors):
    return row["status"].startswith("runtime_error") and any(e in row["details"] for e in errors)


pytestmark = [pytest.mark.kernel]


@needs_sandbox
def test_the_grader_says_each_kernel_is_sandboxed_and_grades_two_at_a_time(hostile):
    run, rows, _ = hostile
    assert run.returncode == 0, run.stderr
    first = run.stderr.splitlines()[0]
    assert "bubblewrap" in first and "2 graded at a time" in first, first
    assert len(rows) == 10  # 5 attacks, 3 honest, the disk filler, the escape sequences


@needs_sandbox
@pytest.mark.parametrize("key", HONEST)
def test_a_neighbour_with_the_connection_files_cannot_change_honest_marks(hostile, key):
    rows = hostile[1]
    assert (rows[key]["percent"], rows[key]["status"]) == ("100", "completed"), rows[key]
    assert rows["a_neighbour"]["status"] == "completed" and rows["a_neighbour"]["percent"] == "100"


@needs_sandbox
def test_a_submission_cannot_read_another_submissions_file(hostile):
    row = hostile[1]["c_reader"]
    assert _blocked(row, "FileNotFoundError", "PermissionError"), row
    assert row["2.1"] == "correct"


@needs_sandbox
def test_a_submission_cannot_read_the_teacher_notebooks(hostile):
    row = hostile[1]["c_teacher"]
    assert TEACHER_DIR.joinpath("ex02_scores.ipynb").is_file()
    assert _blocked(row, "FileNotFoundError", "PermissionError"), row


@needs_sandbox
def test_a_submission_has_no_network(hostile):
    _, rows, connected = hostile
    assert _blocked(rows["c_tcp"], "ConnectionRefusedError", "OSError", "Network", "TimeoutError"), rows["c_tcp"]
    assert not connected["tcp"]


@needs_sandbox
def test_a_submission_cannot_reach_a_unix_socket_outside_its_folder(hostile):
    _, rows, connected = hostile
    assert _blocked(rows["c_unix"], "FileNotFoundError", "PermissionError", "ConnectionRefusedError"), rows["c_unix"]
    assert not connected["unix"]


@needs_sandbox
def test_an_exception_message_cannot_send_control_characters_to_the_console_or_the_csv(hostile):
    run, rows, _ = hostile
    details = rows["c_escape"]["details"]
    assert "ValueError" in details and "\\x1b[2J" in details and "grader OK\\r" in details, details
    for text in (run.stdout, run.stderr, details):
        assert not any(ch in text for ch in "\x1b\r\x9b"), repr(text[:300])


@needs_sandbox
def test_a_submission_cannot_write_more_than_its_disk_quota(hostile):
    _, rows, _ = hostile
    assert _blocked(rows["c_disk"], "No space left on device"), rows["c_disk"]
    for key in HONEST:
        assert rows[key]["percent"] == "100", rows[key]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="bubblewrap is Linux's")
def test_without_a_sandbox_the_grader_says_so_and_grades_one_at_a_time(tmp_path):
    for key in ("one", "two"):
        nbformat.write(submission(EX02), tmp_path / f"{key}_ex02.ipynb")
    env = {k: v for k, v in os.environ.items() if k != "ATTN_GRADE_TEST_NO_SANDBOX"}
    env["PATH"] = str(tmp_path)  # no bwrap to be found
    run = subprocess.run(
        [sys.executable, "-m", "attn_homework.grade", str(tmp_path), "--csv", str(tmp_path / "r.csv")]
        + ["--jobs", "2", "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    assert "note: no sandbox here (bubblewrap on Linux)" in run.stderr and "one at a time" in run.stderr
    assert "bubblewrap)" not in run.stderr.splitlines()[0]


# ---------------------------------------------------------------- the watchdog under faults


def _hang(watchdog, seconds=0.5):
    """A submission that hangs (a `sleep` in a session of its own), past its time after ``seconds``."""
    process = subprocess.Popen(["sleep", "60"], start_new_session=True)
    token = f"test{process.pid}"
    running = _Running(token, Tracker(token), time.monotonic() + seconds, process)
    running.tracker.add_root(process.pid)
    watchdog.add(running)
    return running


def _ended(running, within=15):
    try:
        running.process.wait(timeout=within)
    except subprocess.TimeoutExpired:
        running.process.kill()
        running.process.wait()
        return False
    return True


def test_the_watchdog_survives_an_exception_and_still_kills_a_hang(monkeypatch, capsys):
    real, calls = batch.snapshot, []

    def failing_snapshot():
        calls.append(1)
        if len(calls) <= 3:
            raise RuntimeError("dictionary changed size during iteration")
        return real()

    monkeypatch.setattr(batch, "snapshot", failing_snapshot)
    watchdog = Watchdog(Limits(timeout=1), subreaper=False)
    watchdog.start()
    try:
        running = _hang(watchdog)
        assert _ended(running), "the watchdog died at the injected exception and the hang ran on"
        assert running.killed == "timeout" and watchdog.is_alive()
    finally:
        watchdog.stopping.set()
        watchdog.join(5)
    assert "RuntimeError: dictionary changed size" in capsys.readouterr().err  # said, not swallowed


def test_the_tracker_shared_with_the_watchdog_holds_under_a_tiny_switch_interval(capsys):
    """The watchdog's thread and two of a worker's threads use one tracker while its submission keeps forking
    (process tables made up here: a root with 50 new children at each look)."""
    token = "forker"
    shared = _Running(token, Tracker(token), time.monotonic() + 3600)
    root = 3_900_000  # made up, and so are the start times: no real process is ever taken for one of these
    shared.tracker.add_root(root)
    counter = iter(range(root + 1, root + 10_000_000))
    errors = []

    def forking_table():
        procs = {root: Proc(root, 1, root, "made-up", 0)}
        for _ in range(50):
            pid = next(counter)
            procs[pid] = Proc(pid, root, root, "made-up", 4096)
        return procs

    def worker_side():
        end = time.monotonic() + 4
        while time.monotonic() < end:
            try:
                shared.tracker.memory(forking_table())
            except Exception as e:
                errors.append(e)

    watchdog = Watchdog(Limits(timeout=3600, memory=1 << 50), subreaper=False)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    watchdog.start()
    try:
        watchdog.add(shared)
        threads = [threading.Thread(target=worker_side) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        sys.setswitchinterval(interval)
        watchdog.remove(token)
        running = _hang(watchdog)
        assert _ended(running), "the watchdog stopped watching"
        assert watchdog.is_alive()
    finally:
        sys.setswitchinterval(interval)
        watchdog.stopping.set()
        watchdog.join(5)
    assert not errors, errors[:3]
    assert "watchdog:" not in capsys.readouterr().err
