"""One submission, run: the worker process the grader starts for each submission.

    python attn_homework/grading/worker.py   (a job as JSON on standard input; started by the grader)

It is run as a script, importing nothing of attn_core (only the standard library and zmq), so that it
starts in a tenth of a second. It starts a fresh kernel through the ``confine`` launcher (limits; on Linux
with bubblewrap a sandbox of its own, see ``confine.sandbox_command``; else write confinement) in an empty
temporary working folder, and talks to it over local sockets (IPC) in its connection folder rather than TCP
ports, so kernels started side by side never race for a port. In the sandbox those two folders are all the
kernel sees of this machine's files besides the system and Python, so no kernel finds another's sockets.
It runs the submission's code cells in order,
continuing past cells that raise; after each cell that mentions an answer variable it reads the answers
(the code for that comes with the job, see ``answers.DUMP``) and reports them at once, so a crash, a hang
or a killed worker later costs only what came after.

The worker speaks the Jupyter messaging protocol on the kernel's shell channel only. It never subscribes to
the kernel's output stream, so whatever a submission prints never reaches the grader: its memory stays
flat. It reports to the grader as lines on standard output, each starting with the job's nonce (so nothing
else that reaches that pipe is taken for a report): ``{"event": "kernel", "pid": …}``, ``{"event": "cell",
"number": …}``, ``{"event": "error", "cell": …, "ename": …, "evalue": …}`` (a cell that raised),
``{"event": "note", "code": …, "cells": […], "detail": …}``, ``{"event": "answers", …}``,
``{"event": "done"}``. The kernel's standard streams go to /dev/null. The grader, not the worker, ends every
process the submission started and checks the answers.
"""

import ast
import contextlib
import hashlib
import hmac
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

import zmq

INTERRUPT_GRACE = 3.0  # seconds a kernel gets to answer an interrupt before it counts as hung
START_SECONDS = 60.0  # seconds a kernel may take to start
DUMP_SECONDS = 10.0  # the longest one read of the answers may take (function probes included)
MAX_MESSAGE = 64 << 20  # bytes: a longer reply from the kernel is dropped by the socket
SYNTAX_ERRORS = ("SyntaxError", "IndentationError", "TabError")
DELIMITER = b"<IDS|MSG>"
CONFINE = Path(__file__).with_name("confine.py")
KERNEL_ENV = {
    # one thread per numeric library: kernels graded side by side share the cores, and a thread pool
    # would reserve address space that the memory limit counts
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "MALLOC_ARENA_MAX": "2",
    "PYTHONDONTWRITEBYTECODE": "1",
    "MPLBACKEND": "Agg",
}


def peak_memory_mib():
    """This process's own peak resident memory in MiB (0 where the platform does not say).

    Linux's ``ru_maxrss`` carries over the peak of the process that started this one (it survives
    fork and exec), so a grader launched from a large process would report that process's memory.
    ``VmHWM`` in /proc/self/status counts only this program; ``ru_maxrss`` is the fallback (macOS).
    """
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) // 1024  # kB
    try:
        import resource
    except ImportError:  # Windows
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // (1 << 20 if sys.platform == "darwin" else 1 << 10)


def become_subreaper():
    """Linux: orphans of the kernel's descendants become this worker's children (PR_SET_CHILD_SUBREAPER)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)
        except (OSError, AttributeError):
            pass


class Reporter:
    """Writes the worker's reports to the grader, one line each, prefixed with the nonce."""

    def __init__(self, nonce, stream):
        self.nonce, self.stream = nonce, stream

    def __call__(self, event, **fields):
        self.stream.write(self.nonce + json.dumps({"event": event, **fields}) + "\n")
        self.stream.flush()


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _descendants(root):
    """The processes below ``root`` (Linux, /proc), bubblewrap's own excepted."""
    children = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{name}/stat", "rb") as f:
                    text = f.read().decode("ascii", "replace")
                comm, fields = text[text.find("(") + 1 : text.rfind(")")], text[text.rfind(")") + 2 :].split()
                children.setdefault(int(fields[1]), []).append((int(name), comm))
    found, frontier = [], [root]
    while frontier:
        for pid, comm in children.get(frontier.pop(), ()):
            frontier.append(pid)
            if comm != "bwrap":
                found.append(pid)
    return found


class KernelStartError(Exception):
    """A kernel that did not start: a code the grader puts in words (``kernel_stopped``, ``kernel_silent:<s>``),
    or another exception's name and message."""


class Kernel:
    """A kernel process and a client for its shell channel (the Jupyter protocol, signed with HMAC-SHA256)."""

    def __init__(self, job, base):
        self.conn, self.work = base / "conn", base / "work"
        self.conn.mkdir(exist_ok=True)
        self.work.mkdir(exist_ok=True)
        self.key = os.urandom(16).hex().encode()
        self.session = uuid.uuid4().hex
        if os.name == "posix":  # local sockets: no ports to race for
            ports = dict(zip(("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port"), range(1, 6)))
            info = {"transport": "ipc", "ip": str(self.conn / "k"), **ports}
            self.address = f"ipc://{self.conn / 'k'}-1"
        else:
            ports = {
                name: _free_port() for name in ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")
            }
            info = {"transport": "tcp", "ip": "127.0.0.1", **ports}
            self.address = f"tcp://127.0.0.1:{ports['shell_port']}"
        info.update(key=self.key.decode(), signature_scheme="hmac-sha256", kernel_name="python3")
        connection_file = self.conn / "kernel.json"
        connection_file.write_text(json.dumps(info))
        command = []
        self.sandboxed = bool(job.get("sandbox")) and os.name == "posix"
        if os.name == "posix":  # the launcher sets the limits (Windows has neither rlimits nor these sandboxes)
            command = [sys.executable, str(CONFINE)]
            if job.get("memory"):
                command += ["--memory", str(int(job["memory"]))]
            if job.get("file_size"):
                command += ["--file-size", str(int(job["file_size"]))]
            command += ["--writable", str(self.work), "--writable", str(self.conn)]
            if self.sandboxed:  # bubblewrap: only these two folders exist for the kernel, no network
                command.append("--sandbox")
                if job.get("disk"):
                    command += ["--disk", str(int(job["disk"]))]
            elif not job.get("confine", True):
                command.append("--no-confine")
            command.append("--")
        command += [sys.executable, "-m", "ipykernel_launcher", "-f", str(connection_file)]
        command += ["--HistoryManager.enabled=False"]
        env = {**os.environ, **KERNEL_ENV, "TMPDIR": str(self.work), "TEMP": str(self.work), "TMP": str(self.work)}
        env["IPYTHONDIR"] = str(self.work / ".ipython")
        env["JPY_PARENT_PID"] = str(os.getpid())
        self.process = subprocess.Popen(
            command,
            cwd=self.work,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=os.name == "posix",
        )
        self.context = zmq.Context()
        self.context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE)
        self.context.setsockopt(zmq.LINGER, 0)
        self.shell = self.context.socket(zmq.DEALER)
        self.shell.connect(self.address)

    @property
    def pid(self):
        return self.process.pid

    def alive(self):
        return self.process.poll() is None

    def interrupt(self):
        if self.sandboxed:  # the kernel is in a session of its own below bubblewrap, which passes no signal on
            for pid in _descendants(self.process.pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGINT)
            return
        try:
            if os.name == "posix":
                os.killpg(self.process.pid, signal.SIGINT)
            else:
                self.process.kill()
        except OSError:
            pass

    def send(self, msg_type, content):
        msg_id = uuid.uuid4().hex
        header = {
            "msg_id": msg_id,
            "username": "attn-grade",
            "session": self.session,
            "date": datetime.now(timezone.utc).isoformat(),
            "msg_type": msg_type,
            "version": "5.3",
        }
        parts = [json.dumps(part).encode() for part in (header, {}, {}, content)]
        signature = hmac.new(self.key, b"".join(parts), hashlib.sha256).hexdigest().encode()
        self.shell.send_multipart([DELIMITER, signature, *parts])
        return msg_id

    def reply(self, msg_id, timeout_ms):
        """The content of the reply to ``msg_id`` if it comes within ``timeout_ms``, else None."""
        if not self.shell.poll(timeout_ms):
            return None
        parts = self.shell.recv_multipart()
        try:
            at = parts.index(DELIMITER)
            signature, header, parent, _, content = parts[at + 1 : at + 6]
        except ValueError:
            return None
        expected = hmac.new(self.key, b"".join(parts[at + 2 : at + 6]), hashlib.sha256).hexdigest().encode()
        if not hmac.compare_digest(signature, expected):
            return None
        try:
            if json.loads(parent).get("msg_id") != msg_id:
                return None
            return json.loads(content)
        except ValueError:
            return None

    def wait_ready(self):
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            msg_id = self.send("kernel_info_request", {})
            until = time.monotonic() + 1.0
            while time.monotonic() < until:
                if self.reply(msg_id, 100) is not None:
                    return
                if not self.alive():
                    raise KernelStartError("kernel_stopped")
        raise KernelStartError(f"kernel_silent:{START_SECONDS:.0f}")

    def close(self):
        try:
            self.shell.close(0)
            self.context.term()
        except zmq.ZMQError:
            pass


def start_kernel(job, base, report, tries=3):
    """A started kernel; its pid is reported first, so that the grader tracks it from its first moment."""
    last = None
    for _ in range(tries):
        kernel = Kernel(job, base)
        report("kernel", pid=kernel.pid)
        try:
            kernel.wait_ready()
            return kernel
        except Exception as e:  # a slow or failed start: try once more with a fresh kernel
            last = e
            kernel.process.kill()
            kernel.close()
    raise KernelStartError(str(last) if isinstance(last, KernelStartError) else f"{type(last).__name__}: {last}")


class Outcome:
    """How one execute request ended: ``status`` "ok", "error", "timeout" (answered the interrupt),
    "hung" (did not), "dead" (the kernel died); the error's name and value; the reply's user expressions."""

    def __init__(self, status, ename="", evalue="", expressions=None):
        self.status, self.ename, self.evalue = status, ename, evalue
        self.expressions = expressions or {}


def execute(kernel, code, deadline, silent=False, user_expressions=None):
    """Run ``code`` and wait for its reply; at the deadline, interrupt the kernel and give it
    ``INTERRUPT_GRACE`` seconds to answer."""
    msg_id = kernel.send(
        "execute_request",
        {
            "code": code,
            "silent": silent,
            "store_history": not silent,
            "user_expressions": user_expressions or {},
            "allow_stdin": False,
            "stop_on_error": False,
        },
    )
    interrupted_at = None
    while True:
        now = time.monotonic()
        if interrupted_at is None and now >= deadline:
            kernel.interrupt()
            interrupted_at = now
        if interrupted_at is not None and now >= interrupted_at + INTERRUPT_GRACE:
            return Outcome("hung")
        reply = kernel.reply(msg_id, 200)
        if reply is not None:
            error = (str(reply.get("ename", ""))[:80], str(reply.get("evalue", ""))[:300])
            if interrupted_at is not None:
                return Outcome("timeout", *error)
            return Outcome("error" if reply.get("status") == "error" else "ok", *error, reply.get("user_expressions"))
        if not kernel.alive():
            return Outcome("dead")


def read_answers(kernel, job):
    """The answers now in the kernel, as {name: entry}; None when they could not be read."""
    outcome = execute(
        kernel, job["dump"], time.monotonic() + DUMP_SECONDS, silent=True, user_expressions={"a": job["result_name"]}
    )
    value = outcome.expressions.get("a", {})
    if outcome.status != "ok" or not isinstance(value, dict) or value.get("status") != "ok":
        return None, outcome
    try:
        answers = json.loads(ast.literal_eval(value["data"]["text/plain"]))
    except Exception:
        return None, outcome
    return (answers if isinstance(answers, dict) else None), outcome


def run(job, report):
    """Run the job's cells and report as it goes (everything is reported)."""
    try:
        kernel = start_kernel(job, Path(job["base"]), report)
    except Exception as e:
        report("note", code="could_not_start", detail=str(e)[:300])
        return
    deadline = time.monotonic() + float(job["timeout"])
    runtime_errors, syntax_errors = [], []
    try:
        for cell in job["cells"]:
            number = cell["number"]
            report("cell", number=number)
            outcome = execute(kernel, cell["source"], deadline)
            if outcome.status == "dead":
                report("note", code="crashed", cells=[number])
                return
            if outcome.status == "hung":
                report("note", code="timeout", cells=[number], detail="no_answer_to_interrupt")
                return
            if outcome.status == "error":
                report("error", cell=number, ename=outcome.ename, evalue=outcome.evalue)
                if outcome.ename == "MemoryError":
                    report("note", code="memory_limit", cells=[number], detail=outcome.ename)
                elif outcome.ename in SYNTAX_ERRORS:
                    syntax_errors.append(number)
                else:
                    runtime_errors.append((number, f"{outcome.ename}: {outcome.evalue}"))
            stopped = outcome.status == "timeout"
            if stopped:
                report("note", code="timeout", cells=[number])
            if cell.get("dump") or stopped:
                answers, dumped = read_answers(kernel, job)
                if answers is not None:
                    report("answers", cell=number, answers=answers)
                elif dumped.status in ("dead", "hung"):  # reading the answers (a probed function) stopped it
                    report("note", code="crashed" if dumped.status == "dead" else "timeout", cells=[number])
                    return
            if stopped:
                return
        answers, _ = read_answers(kernel, job)
        if answers is not None:
            report("answers", cell=None, answers=answers)
    finally:
        if syntax_errors:
            report("note", code="syntax_error", cells=syntax_errors)
        if runtime_errors:
            report("note", code="runtime_error", cells=[n for n, _ in runtime_errors], detail=runtime_errors[0][1])
        if os.name == "posix":
            try:
                os.killpg(kernel.pid, signal.SIGKILL)
            except OSError:
                pass
        else:
            kernel.process.kill()
        try:
            kernel.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        kernel.close()


def main():
    become_subreaper()
    job = json.loads(sys.stdin.buffer.read())
    report = Reporter(job["nonce"], sys.stdout)
    try:
        run(job, report)
    except Exception as e:  # a fault of the worker itself: the grader reports it for this submission only
        report("note", code="grader_error", detail=f"{type(e).__name__}: {e}"[:300])
    peak = peak_memory_mib()
    report("done", peak_mib=peak)
    sys.stdout.flush()
    os._exit(0)  # anything the kernel left behind is ended by the grader


if __name__ == "__main__":
    main()
