"""The processes a submission starts, found and ended: the grader's watchdog.

A submission runs as: grader → worker (its own session) → kernel (its own session again, started by
jupyter_client) → whatever the submission starts. Any of those may detach itself (``setsid``, a double
fork), kill its parent, or allocate memory in many processes. So the grader does not rely on process
groups alone: ``Tracker`` remembers every process it has ever seen below a submission's worker (by pid and
start time, so a reused pid is never mistaken for one of ours), adds up their memory, and ends all of them
when the submission is done. On Linux, where a process's environment can be read, it also ends any process
that still carries the submission's marker variable, wherever it has moved in the process tree.

    snapshot()          {pid: Proc} of the machine's processes (Linux: /proc; macOS: ps; elsewhere: {})
    Tracker(marker)     one submission's processes; ``watch(snapshot)``, ``memory()``, ``end()``
    become_subreaper()  Linux: orphans of this process's descendants are re-parented to it, not to init
"""

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

MARKER = "ATTN_GRADE_JOB"  # the environment variable that tags every process of one submission
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


@dataclass(frozen=True)
class Proc:
    """One process as a snapshot saw it. ``start`` tells a process from a later one that got its pid."""

    pid: int
    ppid: int
    pgid: int
    start: str
    rss: int  # bytes
    zombie: bool = False


def snapshot():
    """The machine's processes, {pid: Proc}; {} where the platform offers no cheap way to list them."""
    if sys.platform.startswith("linux"):
        return _linux_snapshot()
    if sys.platform == "darwin":
        return _ps_snapshot()
    return {}


def _linux_snapshot():
    procs = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        proc = _linux_proc(int(name))
        if proc is not None:
            procs[proc.pid] = proc
    return procs


def _linux_proc(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read().decode("ascii", "replace")
    except OSError:
        return None
    # "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses, so split after the last ")"
    fields = text[text.rfind(")") + 2 :].split()
    try:
        return Proc(
            pid=pid,
            ppid=int(fields[1]),
            pgid=int(fields[2]),
            start=fields[19],
            rss=int(fields[21]) * _PAGE,
            zombie=fields[0] in ("Z", "X"),
        )
    except (IndexError, ValueError):
        return None


def _ps_snapshot():
    try:
        out = subprocess.run(
            ["ps", "-axo", "pid=,ppid=,pgid=,rss=,state=,lstart="],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    procs = {}
    for line in out.splitlines():
        parts = line.split(None, 5)
        if len(parts) < 6:
            continue
        try:
            pid, ppid, pgid, rss = (int(p) for p in parts[:4])
        except ValueError:
            continue
        procs[pid] = Proc(pid, ppid, pgid, parts[5].strip(), rss * 1024, parts[4].startswith("Z"))
    return procs


def carries_marker(pid, token):
    """Whether process ``pid`` has ``ATTN_GRADE_JOB=token`` in its environment (Linux; False elsewhere)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return f"{MARKER}={token}".encode() in f.read().split(b"\0")
    except OSError:
        return False


def become_subreaper():
    """Linux: make orphaned descendants children of this process (PR_SET_CHILD_SUBREAPER), so none
    escapes to init. Returns whether it worked; elsewhere False."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def reap(pids):
    """Collect the exit status of those of ``pids`` that are this process's finished children (orphans
    re-parented to a subreaper), so none stays a zombie. Never waits."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, os.WNOHANG)


class Tracker:
    """Every process of one submission: those below ``root`` (its worker), those that share a process
    group with one of them, and, on Linux, those that carry its marker. Processes once seen stay
    tracked after they detach. The watchdog's thread and the submission's own share it: every method
    holds its lock (re-entrant: ``end`` calls ``watch``)."""

    def __init__(self, token):
        self.token = token
        self.roots = set()
        self.seen = {}  # pid -> start
        self.lock = threading.RLock()

    def add_root(self, pid):
        with self.lock:
            self.roots.add(pid)

    def watch(self, procs):
        """Update the tracked set from a snapshot; return the live tracked processes."""
        with self.lock:
            return self._watch(procs)

    def _watch(self, procs):
        children = {}
        for p in procs.values():
            children.setdefault(p.ppid, []).append(p.pid)
        alive = {pid for pid, start in self.seen.items() if pid in procs and procs[pid].start == start}
        frontier = [pid for pid in self.roots | alive if pid in procs]
        mine = set()
        while frontier:
            pid = frontier.pop()
            if pid in mine:
                continue
            mine.add(pid)
            frontier.extend(children.get(pid, ()))
        groups = {procs[pid].pgid for pid in mine if procs[pid].pgid > 1} - {os.getpgid(0)}
        mine |= {p.pid for p in procs.values() if p.pgid in groups}
        for pid in mine:
            self.seen.setdefault(pid, procs[pid].start)
        return [procs[pid] for pid in mine if self.seen.get(pid) == procs[pid].start]

    def memory(self, procs):
        """Bytes resident in all the submission's live processes."""
        return sum(p.rss for p in self.watch(procs) if not p.zombie)

    def end(self, rounds=20):
        """Stop, then kill, every tracked process (and, on Linux, every one carrying the marker) until none
        is left; return how many were killed. Processes are stopped first so that none can fork meanwhile."""
        if not hasattr(os, "killpg"):  # Windows: the grader ends the worker itself
            return 0
        with self.lock:
            return self._end(rounds)

    def _end(self, rounds):
        killed = set()
        for _ in range(rounds):
            procs = snapshot()
            targets = [p for p in self.watch(procs) if not p.zombie and p.pid != os.getpid()]
            if sys.platform.startswith("linux"):
                known = {p.pid for p in targets}
                targets += [
                    p
                    for p in procs.values()
                    if p.pid not in known
                    and not p.zombie
                    and p.pid != os.getpid()
                    and carries_marker(p.pid, self.token)
                ]
            if not procs and self.roots:  # no process table here: the roots' groups are all we can reach
                for pid in list(self.roots):
                    with contextlib.suppress(OSError):
                        os.killpg(pid, signal.SIGKILL)
                return len(self.roots)
            if not targets:
                break
            for sig in (signal.SIGSTOP, signal.SIGKILL):
                for p in targets:
                    with contextlib.suppress(OSError):
                        os.kill(p.pid, sig)
            killed |= {p.pid for p in targets}
            reap(killed)
            time.sleep(0.02)
        reap(killed)
        return len(killed)
