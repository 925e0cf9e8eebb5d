"""Grading a batch: each submission in a worker process of its own, several at a time, under a watchdog.

For every submission the grader starts the worker (``worker.py``, run as a script) in a new session,
with a private temporary folder and a marker variable in its environment, and hands it the notebook's code
cells on standard input (the notebook was read into memory before anything ran). The worker reports as
it goes (``worker``); this process keeps the latest answers it reported, so a worker that is killed, or a
kernel that crashes or hangs, costs only what came after them.

The watchdog (one thread) looks at the process table every quarter second: it remembers every process
below each worker (``processes.Tracker``), kills a submission whose processes together hold more memory
than the limit or that outlives its time, and, when the grader runs as the ``attn-grade`` command on
Linux, kills any orphan that was re-parented to the grader. When a submission is done, everything it
started is killed and its temporary folder removed. A limit hit is a status of that submission; a batch
always ends with every submission in the results.
"""

import contextlib
import hashlib
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

from attn_core import lang

from .. import exercises
from ..messages import msg
from ..messages.grading import MESSAGES
from ..verdicts import revealed_predictions
from .answers import RESULT_NAME, dump_code
from .checking import check_answers, draw_probes, not_graded, point_at_id_cell
from .collect import Skipped, Submission, lms_name
from .handout import Handouts, per_student_release
from .integrity import REVIEW, is_teacher_version
from .processes import MARKER, Tracker, reap, snapshot
from .reading import binding_cells, identify_exercise, job_cells, read, saved_outputs
from .results import RUN_ENDED, Graded, Note
from .roster import Roster, identify
from .selection import choose, integrity_notes, other_students_data

WORKER = Path(__file__).with_name("worker.py")  # run as scripts: they import nothing of attn_core, so start fast
CONFINE = Path(__file__).with_name("confine.py")
SANDBOX_OFF = "ATTN_GRADE_TEST_NO_SANDBOX"  # tests only: no bubblewrap, --jobs kept (confine.OFF_SWITCH)
START_ALLOWANCE = 90.0  # seconds a worker gets beyond --timeout: its kernel's start and the last reads
MAX_REPORT_LINE = 64 << 20
WATCH_INTERVAL = 0.25
INFORMATIONAL = ("cells_changed", "late", "id_mismatch", "no_student_id", "not_in_roster", *REVIEW)


@dataclass(frozen=True)
class Limits:
    """What one submission may use. ``memory`` is bytes: the address space of each of its processes on
    Linux, and the memory of all of them together everywhere (the watchdog)."""

    timeout: float = 60.0
    memory: int = 2 << 30
    file_size: int = 256 << 20
    confine: bool = True
    sandbox: bool = False  # each kernel in a bubblewrap sandbox (set by ``confinement_check``)
    disk: int = 256 << 20  # in the sandbox: all it writes in its working folder together (a tmpfs that size)


@dataclass
class Settings:
    """How a batch is graded."""

    limits: Limits = field(default_factory=Limits)
    jobs: int = 1
    regrade: bool = False
    roster: Roster | None = None
    handouts: Handouts = field(default_factory=Handouts)
    subreaper: bool = False  # the grader is the command itself: orphans re-parented to it are killed


@dataclass
class _Running:
    token: str
    tracker: Tracker
    deadline: float
    process: subprocess.Popen | None = None
    killed: str = ""  # "memory_limit" or "timeout" when the watchdog ended it


class Watchdog(threading.Thread):
    """Watches the running submissions' processes: memory, time, orphans."""

    def __init__(self, limits, subreaper):
        super().__init__(daemon=True, name="attn-grade-watchdog")
        self.limits, self.subreaper = limits, subreaper
        self.running = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.our_children = set()

    def add(self, running):
        with self.lock:
            self.running[running.token] = running

    def remove(self, token):
        with self.lock:
            self.running.pop(token, None)

    def run(self):
        """Until stopped: whatever goes wrong in one round (a process table read mid-change, a bug) is
        written to standard error and the next round runs; the watchdog never ends before the batch."""
        failures = 0
        while not self.stopping.wait(WATCH_INTERVAL):
            try:
                self.round()
            except Exception as e:
                failures += 1
                if failures <= 5 or failures % 100 == 0:  # said, but a repeated fault cannot flood the terminal
                    with contextlib.suppress(Exception):
                        print(f"attn-grade watchdog: {type(e).__name__}: {e} (#{failures})", file=sys.stderr)

    def round(self):
        """One look at the process table: memory, time, orphans."""
        procs = snapshot()
        now = time.monotonic()
        with self.lock:
            jobs = list(self.running.values())
            ours = set(self.our_children)
        for job in jobs:
            if job.killed:
                continue
            try:
                if procs and job.tracker.memory(procs) > self.limits.memory:
                    self.kill(job, "memory_limit")
                elif now > job.deadline:
                    self.kill(job, "timeout")
            except Exception:
                if now > job.deadline:  # whatever failed, a submission past its time is ended
                    self.kill(job, "timeout")
                raise
        if self.subreaper and procs:
            strays = [p.pid for p in procs.values() if p.ppid == os.getpid() and p.pid not in ours]
            for pid in strays:
                if not procs[pid].zombie:
                    try:
                        os.kill(pid, 9)
                    except OSError:
                        pass
            reap(strays)

    def kill(self, job, reason):
        job.killed = reason
        try:
            job.tracker.end()
        finally:
            if job.process is not None and job.process.poll() is None:
                job.process.kill()


@dataclass
class _Job:
    """One submission ready to run: what the worker gets, and what the checking needs afterwards."""

    submission: object
    reading: object
    student: object
    sha256: str
    data_id: str | None
    probes: dict
    notes: list


def _worker_env(token):
    env = {**os.environ, MARKER: token, "PYTHONUNBUFFERED": "1"}
    for name in ("JPY_PARENT_PID", "JUPYTER_RUNTIME_DIR"):
        env.pop(name, None)
    return env


def run_worker(job_spec, limits, watchdog, log_dir=None):
    """Run one job in a worker process; returns (events, killed reason, seconds)."""
    token = secrets.token_hex(8)
    nonce = f"@@{secrets.token_hex(12)}@@"
    base = Path(tempfile.mkdtemp(prefix="attn_grade_"))
    running = _Running(token, Tracker(token), time.monotonic() + limits.timeout + START_ALLOWANCE)
    events = []
    start = time.monotonic()
    log_path = base / "worker.log"
    try:
        spec = {**job_spec, "nonce": nonce, "base": str(base)}
        spec.update(
            timeout=limits.timeout,
            memory=limits.memory,
            file_size=limits.file_size,
            disk=limits.disk,
            confine=limits.confine,
        )
        spec.update(sandbox=limits.sandbox)
        # Started under the watchdog's lock: it must never see this worker before knowing it is ours.
        with open(log_path, "wb") as log, watchdog.lock:
            process = subprocess.Popen(
                [sys.executable, str(WORKER)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                cwd=base,
                env=_worker_env(token),
                start_new_session=os.name == "posix",
            )
            watchdog.our_children.add(process.pid)
        running.process = process
        running.tracker.add_root(process.pid)
        watchdog.add(running)
        try:
            process.stdin.write(json.dumps(spec).encode())
            process.stdin.close()
        except OSError:
            pass
        marker = nonce.encode()
        while True:
            line = process.stdout.readline(MAX_REPORT_LINE)
            if not line:
                break
            if not line.endswith(b"\n"):  # longer than any report: skip the rest of it
                while line and not line.endswith(b"\n"):
                    line = process.stdout.readline(MAX_REPORT_LINE)
                continue
            if line.startswith(marker):
                try:
                    event = json.loads(line[len(marker) :])
                except ValueError:
                    continue
                if isinstance(event, dict):
                    events.append(event)
                    if event.get("event") == "kernel" and isinstance(event.get("pid"), int):
                        running.tracker.add_root(event["pid"])
        process.stdout.close()
        process.wait()
    finally:
        tail = _clean_up(watchdog, token, running, log_path, base)
    return events, running.killed, time.monotonic() - start, tail


def _clean_up(watchdog, token, running, log_path, base):
    """End everything a submission started and remove its folder; each step runs whatever the one before
    did (an exception in one is kept and raised after the rest). Returns the tail of the worker's log."""
    process = running.process
    tail, errors = "", []

    def step(action):
        try:
            action()
        except Exception as e:
            errors.append(e)

    def kill_worker():
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()

    def read_tail():
        nonlocal tail
        with contextlib.suppress(OSError):
            tail = log_path.read_bytes()[-600:].decode("utf-8", "replace")

    def forget():
        with watchdog.lock:
            watchdog.our_children.discard(getattr(process, "pid", None))

    step(lambda: watchdog.remove(token))
    step(running.tracker.end)
    step(kill_worker)
    step(running.tracker.end)  # once more: what the worker started while it was being ended
    step(forget)
    step(read_tail)
    step(lambda: shutil.rmtree(base, ignore_errors=True))
    if errors:
        raise errors[0]
    return tail


def _self_test(*flags):
    with tempfile.TemporaryDirectory(prefix="attn_grade_check_") as folder:
        writable, forbidden = Path(folder, "w"), Path(folder, "f")
        writable.mkdir()
        forbidden.mkdir()
        try:
            run = subprocess.run(
                [sys.executable, str(CONFINE), "--self-test", *flags]
                + ["--writable", str(writable), "--forbidden", str(forbidden)],
                capture_output=True,
                text=True,
                timeout=120,
            )
            return json.loads(run.stdout.strip().splitlines()[-1])
        except (OSError, subprocess.SubprocessError, ValueError, IndexError):
            return {}


def confinement_check(limits):
    """Run the confine launcher's self-tests; returns (limits to use, a description of the confinement).
    The sandbox (bubblewrap) counts only when, inside it, writing, reading and connecting outside all fail;
    else Landlock or ``sandbox-exec`` (writes only), else nothing."""
    if not limits.confine or os.name != "posix":
        return replace(limits, confine=False, sandbox=False), None
    if sandbox_program():
        report = _self_test("--sandbox")
        if all(report.get(k) for k in ("writes_blocked", "reads_blocked", "network_blocked")):
            return replace(limits, sandbox=True), report
    report = _self_test()
    if report.get("confinement") and report.get("writes_blocked"):
        return replace(limits, sandbox=False), report
    return replace(limits, confine=False, sandbox=False), report or None


def sandbox_program():
    """bubblewrap where it can be used (Linux, installed, not switched off for a test), else None."""
    if not sys.platform.startswith("linux") or os.environ.get(SANDBOX_OFF) == "1":
        return None
    return shutil.which("bwrap")


def default_jobs(memory):
    """Submissions graded at a time: one per core, no more than the machine's memory holds at ``memory`` each."""
    cores = os.cpu_count() or 1
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return cores
    return max(1, min(cores, total // max(memory, 1)))


def _id_errors():
    """The error a per-student data cell raises when the ID cell is empty (``task_data``), as the worker
    reports it ("ValueError: …"), in either language."""
    return {f"ValueError: {text}" for text in MESSAGES["student_id_needed"]}


def _only_for_want_of_id(notes, errors, job_notes):
    """Whether every error of a run is a data cell that raised because the submission has no student
    number (the grader found none: ``no_student_id``), nothing else: a handed-out per-student notebook
    left untouched raises so in every data cell, which is no code of the student's that failed."""
    raised = [n for n in notes if n.code in ("runtime_error", "syntax_error")]
    if not raised or any(n.code != "runtime_error" for n in raised):
        return False
    if not any(n.code == "no_student_id" for n in job_notes):
        return False
    cells = [cell for n in raised for cell in n.cells]
    return bool(cells) and all(errors.get(cell) in _id_errors() for cell in cells)


def _now():
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _sha(data):
    return hashlib.sha256(data).hexdigest()


class Batch:
    """Grades submissions into a Store; ``progress(done, total, graded)`` is called as each one is done."""

    def __init__(self, settings, store, progress=None):
        self.settings, self.store = settings, store
        self.progress = progress or (lambda done, total, graded: None)
        self.worker_peak_mib = 0  # the largest resident memory any worker reached (the flood's test)
        self.jobs_at_once = max(1, settings.jobs)  # 1 when no sandbox can be had (set by ``run``)
        self.evidence = None  # a similarity.Evidence: what the similarity hints compare, kept as each is graded

    def prepare(self, submissions, skipped=()):
        """(jobs to run, records ready without running, skipped files, reused records). A file that cannot be
        graded stands for its student (its status says why) unless a gradable one of the same student and
        exercise was handed in; so does a ``skipped`` zip that cannot be read, or a file named after an
        exercise that is not a notebook, when an LMS folder or file name or the roster says whose it is."""
        settings = self.settings
        jobs, ready, reused = [], [], []
        submissions, skipped = list(submissions), list(skipped)
        claimed, skipped = self.claim(skipped)
        origin = {submission.label: entry for submission, entry in claimed}
        candidates = []
        for submission in submissions + [submission for submission, _ in claimed]:
            reading = read(submission, edition=lang.get_lang())
            exercise = reading.exercise
            who = identify(settings.roster, submission.lms, reading.id_cell, submission.file_name, exercise)
            student, problem = who
            lms_time = settings.roster.submitted.get(student.key) if settings.roster and submission.lms else None
            if lms_time is not None and problem != "identity_conflict":  # the LMS's time before the file's
                submission = replace(submission, submitted=lms_time)
            notes = [Note(problem, detail=who.detail)] if problem else []
            candidates.append((submission, reading, student, submission.sha256 or _sha(submission.data), notes))
        kept, superseded = choose(candidates, settings.roster)
        for submission, kept_label in superseded:
            reading = next(c[1] for c in candidates if c[0] is submission)
            if reading.nb is None and kept_label[1]:  # listed with the reason it could not be graded
                skipped.append(
                    origin.get(submission.label) or Skipped(submission.label, reading.status, reading.problem)
                )
            else:
                skipped.append(Skipped(submission.label, "superseded", kept_label[0]))
        for submission, reading, student, sha, notes in kept:
            if not settings.regrade and reading.exercise is not None:
                done = self.store.graded(sha, reading.exercise, student.key)
                if done is not None:
                    reused.append(done)
                    continue
            record = Graded(
                submission.label,
                sha,
                reading.exercise,
                student,
                edition=reading.edition,
                submitted=submission.submitted,
                lms_late=bool(submission.lms and submission.lms.late),
            )
            if reading.nb is None or reading.exercise is None:
                record.notes = [Note(reading.status, detail=reading.problem)] if reading.nb is None else []
                if reading.nb is not None:
                    record.notes.append(Note("unknown_exercise"))
                record.notes += notes
                if reading.exercise and reading.nb is None:
                    record.tasks = not_graded(reading.exercise, reading.edition)
                record.graded_at = _now()
                ready.append(record)
                continue
            released, origin_problem = settings.handouts.origin(reading.nb, reading.exercise)
            per_student = released if released is not None else (per_student_release(reading.nb) or reading.has_id_cell)
            data_id = reading.id_cell  # the number the kernel draws the fresh data from, whatever the release
            if per_student and data_id is None:
                notes.append(Note("no_student_id"))
                if released and student.id:
                    data_id = student.id
            if origin_problem:  # what the mark was graded against, said with it
                against = f"graded_with_own:{data_id}" if data_id else "graded_with_none" if per_student else ""
                notes.append(Note(origin_problem, detail=against or "graded_with_shared"))
            if is_teacher_version(reading.nb):
                notes.append(Note("teacher_version"))
            try:
                changes, _ = settings.handouts.compare(reading.nb, reading.exercise)
            except Exception as e:  # a broken teacher copy: grade without the comparison, and say so
                changes = []
                notes.append(Note("grader_error", detail=f"handout_unreadable:{type(e).__name__}"))
            if changes:
                detail = ", ".join(f"{c.number} {c.kind}" for c in changes[:8]) + (", …" if len(changes) > 8 else "")
                notes.append(Note("cells_changed", tuple(c.number for c in changes), detail))
            notes += integrity_notes(reading.nb, changes, settings.handouts, reading.exercise)
            jobs.append(_Job(submission, reading, student, sha, data_id, draw_probes(reading.exercise), notes))
        return jobs, ready, skipped, reused

    def claim(self, skipped):
        """([(a Submission standing for its student, the skipped entry it comes from)], the rest of ``skipped``):
        a zip that cannot be read, or a file named after an exercise that is not a notebook, when an LMS name or
        the roster says whose it is."""
        claimed, rest = [], []
        for entry in skipped:
            name = PurePosixPath(entry.label).name
            lms = lms_name(entry.label)
            exercise = identify_exercise(None, name)
            student = None
            if entry.reason == "bad_zip" or (entry.reason == "not_notebook" and exercise):
                student, _ = identify(self.settings.roster, lms, None, name, exercise)
            if student is None or not (lms or student.in_roster):
                rest.append(entry)
                continue
            detail = f"{entry.reason}:{entry.detail}"
            sha = _sha(f"unreadable\0{entry.label}\0{detail}".encode())
            claimed.append((Submission(entry.label, b"", None, lms, sha, "unreadable", detail), entry))
        return claimed, rest

    def run(self, submissions, skipped=()):
        """Grade every submission; returns (graded records of this run, skipped files, reused records).
        ``skipped`` are the files ``collect`` left out: those that stand for a student are graded as such."""
        jobs, ready, skipped, reused = self.prepare(submissions, skipped)
        total = len(jobs) + len(ready)
        done = 0
        graded = []
        for record in ready:
            self.store.add(record)
            graded.append(record)
            done += 1
            self.progress(done, total, record)
        if not jobs:
            return graded, skipped, reused
        limits = self.settings.limits
        jobs_at_once = max(1, self.settings.jobs)
        if not limits.sandbox and os.environ.get(SANDBOX_OFF) != "1":
            # without a sandbox a kernel could reach the kernels graded beside it: one at a time
            print(msg("g_no_sandbox"), file=sys.stderr, flush=True)
            jobs_at_once = 1
        self.jobs_at_once = jobs_at_once
        watchdog = Watchdog(limits, self.settings.subreaper)
        watchdog.start()
        try:
            with ThreadPoolExecutor(max_workers=jobs_at_once) as pool:
                futures = {pool.submit(self._run_one, job, limits, watchdog): job for job in jobs}
                for future in as_completed(futures):
                    job = futures[future]
                    try:
                        events, killed, seconds, tail = future.result()
                    except Exception as e:  # the grader's own fault: reported for this submission only
                        events, killed, seconds, tail = (
                            [{"event": "note", "code": "grader_error", "detail": str(e)}],
                            "",
                            0.0,
                            "",
                        )
                    record = self._record(job, events, killed, seconds, tail)
                    self.store.add(record)
                    if self.evidence is not None:
                        self.evidence.add(record, job.reading.nb, events)
                    graded.append(record)
                    done += 1
                    self.progress(done, total, record)
        finally:
            watchdog.stopping.set()
            watchdog.join(timeout=5)
        return graded, skipped, reused

    def _run_one(self, job, limits, watchdog):
        names = [t.var for t in exercises.tasks(job.reading.exercise)]
        probes = {var: encoded for var, (_, encoded) in job.probes.items()}
        spec = {"cells": job_cells(job.reading.nb, names), "dump": dump_code(names, probes), "result_name": RESULT_NAME}
        return run_worker(spec, limits, watchdog)

    def _record(self, job, events, killed, seconds, tail):
        reading = job.reading
        answers, notes, last_cell, finished, errors = {}, [], None, False, {}
        for event in events:
            kind = event.get("event")
            if kind == "answers" and isinstance(event.get("answers"), dict):
                answers = event["answers"]
            elif kind == "error" and isinstance(event.get("cell"), int):
                errors[event["cell"]] = f"{str(event.get('ename', ''))[:80]}: {str(event.get('evalue', ''))[:300]}"
            elif kind == "note":
                notes.append(
                    Note(
                        str(event.get("code", "grader_error")),
                        tuple(event.get("cells") or ()),
                        str(event.get("detail", ""))[:300],
                    )
                )
            elif kind == "cell":
                last_cell = event.get("number")
            elif kind == "done":
                finished = True
                if isinstance(event.get("peak_mib"), int):
                    self.worker_peak_mib = max(self.worker_peak_mib, event["peak_mib"])
        cells = (last_cell,) if last_cell else ()
        if killed == "memory_limit":
            notes.append(Note("memory_limit", cells))
        elif killed == "timeout" and not any(n.code == "timeout" for n in notes):
            notes.append(Note("timeout", cells))
        elif not finished and not any(n.code in RUN_ENDED for n in notes):
            notes.append(Note("worker_died", cells, tail.strip().splitlines()[-1][:200] if tail.strip() else ""))
        record = Graded(
            job.submission.label,
            job.sha256,
            reading.exercise,
            job.student,
            edition=reading.edition,
            submitted=job.submission.submitted,
            lms_late=bool(job.submission.lms and job.submission.lms.late),
            data_id=job.data_id,
            graded_at=_now(),
            seconds=seconds,
        )
        raised = {}
        names = [t.var for t in exercises.tasks(reading.exercise)]
        for var, cells in binding_cells(reading.nb, names).items():
            failed = [cell for cell in cells if cell in errors]
            if failed:
                raised[var] = (failed[-1], errors[failed[-1]])
        # the predictions made before their reveals, as the notebook handed in recorded them
        revealed = revealed_predictions(list(job.submission.revealed) + saved_outputs(reading.nb))
        record.tasks = check_answers(
            reading.exercise, answers, job.probes, job.data_id, reading.edition, raised, revealed
        )
        if any(n.code == "no_student_id" for n in job.notes):
            record.tasks = point_at_id_cell(record.tasks, reading.edition)
        other = other_students_data(
            reading.exercise, answers, job.probes, job.data_id, reading.edition, self.settings.roster, record.tasks
        )
        order = {
            code: i for i, code in enumerate(("syntax_error", "runtime_error", "memory_limit", "timeout", "crashed"))
        }
        run_notes = sorted(notes, key=lambda n: order.get(n.code, 99))
        attempted = any(t.code != "not_attempted" for t in record.tasks)
        if not attempted and _only_for_want_of_id(run_notes, errors, job.notes):
            run_notes = [n for n in run_notes if n.code != "runtime_error"]
        ran = [n for n in run_notes if n.code not in INFORMATIONAL]
        if not ran:
            run_notes.insert(0, Note("completed" if attempted else "blank"))
        record.notes = run_notes + job.notes + ([other] if other else [])
        return record
