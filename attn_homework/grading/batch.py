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
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

from attn_core import lang

from .. import exercises
from ..verdicts import revealed_predictions
from .answers import RESULT_NAME, dump_code
from .checking import check_answers, draw_probes, not_graded
from .collect import Skipped, Submission, lms_name
from .handout import Handouts, per_student_release
from .processes import MARKER, Tracker, reap, snapshot
from .reading import binding_cells, identify_exercise, job_cells, read, saved_outputs
from .results import RUN_ENDED, Graded, Note
from .roster import Roster, identify

WORKER = Path(__file__).with_name("worker.py")  # run as scripts: they import nothing of attn_core, so start fast
CONFINE = Path(__file__).with_name("confine.py")
START_ALLOWANCE = 90.0  # seconds a worker gets beyond --timeout: its kernel's start and the last reads
MAX_REPORT_LINE = 64 << 20
WATCH_INTERVAL = 0.25
INFORMATIONAL = ("cells_changed", "late", "id_mismatch", "no_student_id", "not_in_roster")


@dataclass(frozen=True)
class Limits:
    """What one submission may use. ``memory`` is bytes: the address space of each of its processes on
    Linux, and the memory of all of them together everywhere (the watchdog)."""

    timeout: float = 60.0
    memory: int = 2 << 30
    file_size: int = 256 << 20
    confine: bool = True


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
        while not self.stopping.wait(WATCH_INTERVAL):
            procs = snapshot()
            now = time.monotonic()
            with self.lock:
                jobs = list(self.running.values())
                ours = set(self.our_children)
            for job in jobs:
                if job.killed:
                    continue
                if procs and job.tracker.memory(procs) > self.limits.memory:
                    self.kill(job, "memory_limit")
                elif now > job.deadline:
                    self.kill(job, "timeout")
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
        job.tracker.end()
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
        spec.update(timeout=limits.timeout, memory=limits.memory, file_size=limits.file_size, confine=limits.confine)
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
        watchdog.remove(token)
        running.tracker.end()
        with watchdog.lock:
            watchdog.our_children.discard(getattr(running.process, "pid", None))
        if running.process is not None and running.process.poll() is None:
            running.process.kill()
            running.process.wait()
        tail = ""
        try:
            tail = log_path.read_bytes()[-600:].decode("utf-8", "replace")
        except OSError:
            pass
        shutil.rmtree(base, ignore_errors=True)
    return events, running.killed, time.monotonic() - start, tail


def confinement_check(limits):
    """Run the confine launcher's self-test; returns (limits to use, a description of the confinement)."""
    if not limits.confine or os.name != "posix":
        return Limits(limits.timeout, limits.memory, limits.file_size, False), None
    with tempfile.TemporaryDirectory(prefix="attn_grade_check_") as folder:
        writable, forbidden = Path(folder, "w"), Path(folder, "f")
        writable.mkdir()
        forbidden.mkdir()
        try:
            run = subprocess.run(
                [sys.executable, str(CONFINE), "--self-test"]
                + ["--writable", str(writable), "--forbidden", str(forbidden)],
                capture_output=True,
                text=True,
                timeout=120,
            )
            report = json.loads(run.stdout.strip().splitlines()[-1])
        except (OSError, subprocess.SubprocessError, ValueError, IndexError):
            report = {}
    if report.get("confinement") and report.get("writes_blocked"):
        return limits, report
    return Limits(limits.timeout, limits.memory, limits.file_size, False), report or None


def default_jobs(memory):
    """Submissions graded at a time: one per core, no more than the machine's memory holds at ``memory`` each."""
    cores = os.cpu_count() or 1
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return cores
    return max(1, min(cores, total // max(memory, 1)))


def _now():
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _sha(data):
    return hashlib.sha256(data).hexdigest()


def _rank(entry):
    """Which of two submissions of a student and exercise counts: a gradable one, then the latest, then by name."""
    submission, reading = entry[0], entry[1]
    return (reading.nb is not None, submission.submitted or 0, submission.label)


class Batch:
    """Grades submissions into a Store; ``progress(done, total, graded)`` is called as each one is done."""

    def __init__(self, settings, store, progress=None):
        self.settings, self.store = settings, store
        self.progress = progress or (lambda done, total, graded: None)
        self.worker_peak_mib = 0  # the largest resident memory any worker reached (the flood's test)

    def prepare(self, submissions, skipped=()):
        """(jobs to run, records ready without running, skipped files, reused records). A file that cannot be
        graded stands for its student (its status says why) unless a gradable one of the same student and
        exercise was handed in; so does a ``skipped`` zip that cannot be read, or a file named after an
        exercise that is not a notebook, when an LMS folder or file name or the roster says whose it is."""
        settings = self.settings
        jobs, ready, reused = [], [], []
        submissions, skipped = list(submissions), list(skipped)
        claimed, skipped = self.claim(skipped)
        origin = {id(submission): entry for submission, entry in claimed}
        candidates = []
        for submission in submissions + [submission for submission, _ in claimed]:
            reading = read(submission, edition=lang.get_lang())
            exercise = reading.exercise
            student, problem = identify(
                settings.roster, submission.lms, reading.id_cell, submission.file_name, exercise
            )
            notes = [Note(problem)] if problem else []
            if reading.id_cell and problem == "id_mismatch":
                notes = [Note("id_mismatch", detail=reading.id_cell)]
            candidates.append((submission, reading, student, submission.sha256 or _sha(submission.data), notes))
        # one submission per student and exercise: a gradable one before one that is not, then the latest (by
        # submission time, then by name)
        best = {}
        for entry in candidates:
            submission, reading, student, _, _ = entry
            if reading.exercise is not None:
                slot = (student.key, reading.exercise)
                if slot not in best or _rank(entry) > _rank(best[slot]):
                    best[slot] = entry
        for submission, reading, student, sha, notes in candidates:
            kept = best.get((student.key, reading.exercise))
            if kept is not None and kept[0] is not submission:
                if reading.nb is None and kept[1].nb is not None:  # listed with the reason it could not be graded
                    skipped.append(
                        origin.get(id(submission)) or Skipped(submission.label, reading.status, reading.problem)
                    )
                else:
                    skipped.append(Skipped(submission.label, "superseded", kept[0].label))
                continue
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
            per_student = (
                settings.handouts.per_student.get(reading.exercise)
                or per_student_release(reading.nb)
                or reading.has_id_cell
            )
            data_id = None
            if per_student:
                data_id = reading.id_cell
                if data_id is None:
                    notes.append(Note("no_student_id"))
                    if settings.handouts.per_student.get(reading.exercise) and student.id:
                        data_id = student.id
            try:
                changes, _ = settings.handouts.compare(reading.nb, reading.exercise)
            except Exception as e:  # a broken teacher copy: grade without the comparison, and say so
                changes = []
                notes.append(Note("grader_error", detail=f"handout_unreadable:{type(e).__name__}"))
            if changes:
                detail = ", ".join(f"{c.number} {c.kind}" for c in changes[:8]) + (", …" if len(changes) > 8 else "")
                notes.append(Note("cells_changed", tuple(c.number for c in changes), detail))
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
        watchdog = Watchdog(limits, self.settings.subreaper)
        watchdog.start()
        try:
            with ThreadPoolExecutor(max_workers=max(1, self.settings.jobs)) as pool:
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
        order = {
            code: i for i, code in enumerate(("syntax_error", "runtime_error", "memory_limit", "timeout", "crashed"))
        }
        run_notes = sorted(notes, key=lambda n: order.get(n.code, 99))
        ran = [n for n in run_notes if n.code not in INFORMATIONAL]
        if not ran:
            attempted = any(t.code != "not_attempted" for t in record.tasks)
            run_notes.insert(0, Note("completed" if attempted else "blank"))
        record.notes = run_notes + job.notes
        return record
