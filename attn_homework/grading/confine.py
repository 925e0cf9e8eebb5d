"""Start a submission's kernel inside its limits: the launcher the worker puts in front of the kernel command.

    python -m attn_homework.grading.confine [--memory BYTES] [--file-size BYTES] [--writable DIR]... -- CMD...
    python -m attn_homework.grading.confine --self-test --writable DIR --forbidden DIR

It sets the limits on itself, then replaces itself with ``CMD`` (``exec``: the same process, so the
kernel and everything it starts inherit them):

- memory: an address-space limit (RLIMIT_AS; Linux; macOS does not enforce it, the grader's watchdog
  counts resident memory there); no core files; no file larger than ``--file-size``; on Linux and macOS, at
  most a few hundred more processes for this user (RLIMIT_NPROC; not for root, whom it does not bind);
- writes (where the platform allows it cheaply): Linux ≥ 5.13, Landlock: the kernel may write only inside
  the ``--writable`` folders (its temporary working folder and its connection folder) and to devices such
  as /dev/null; from Linux 6.12 (Landlock ABI 6) it can neither signal processes outside its own sandbox
  nor reach their abstract sockets. macOS: ``sandbox-exec`` with a profile that denies writes elsewhere.

``--self-test`` applies the same confinement to a short Python check (imports what a kernel imports, writes
inside the writable folder, must fail to write into the forbidden one) and prints what held, as JSON data
(``confinement``: "landlock", with ``abi`` and ``scoped``, or "sandbox-exec", or null; the grader words it): the
grader runs it once per batch and grades without write confinement, saying so, if the platform breaks it.
"""

import argparse
import contextlib
import ctypes
import json
import os
import resource
import sys
from pathlib import Path

# Landlock (linux/landlock.h): the write rights a sandboxed kernel keeps only inside the writable folders
_WRITE_FILE, _REMOVE_DIR, _REMOVE_FILE = 1 << 1, 1 << 4, 1 << 5
_MAKE = sum(1 << bit for bit in range(6, 13))  # MAKE_CHAR, _DIR, _REG, _SOCK, _FIFO, _BLOCK, _SYM
_REFER, _TRUNCATE = 1 << 13, 1 << 14  # ABI 2, ABI 3
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446  # the same number on every architecture
_PR_SET_NO_NEW_PRIVS = 38
_NPROC_MARGIN = 512


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi():
    """The Landlock ABI version this Linux kernel offers (0: none)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        abi = libc.syscall(ctypes.c_long(_SYS_CREATE_RULESET), None, ctypes.c_long(0), ctypes.c_long(1))
    except (OSError, AttributeError):
        return 0
    return max(abi, 0)


def _landlock(writable):
    """Allow writes only beneath ``writable`` (and writing to devices); returns what holds
    (``{"confinement": "landlock", "abi": N, "scoped": …}``: scoped, it cannot signal processes outside its
    sandbox nor reach their abstract sockets) or None."""
    abi = landlock_abi()
    if abi < 1:
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    access = _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE
    access |= (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0)
    scoped = _SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL if abi >= 6 else 0
    attr = _RulesetAttr(access, 0, scoped)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8  # older kernels refuse fields they do not know
    ruleset = libc.syscall(
        ctypes.c_long(_SYS_CREATE_RULESET), ctypes.byref(attr), ctypes.c_long(size), ctypes.c_long(0)
    )
    if ruleset < 0:
        return None
    try:
        rules = [(folder, access) for folder in writable] + [("/dev", _WRITE_FILE | (_TRUNCATE if abi >= 3 else 0))]
        for folder, allowed in rules:
            fd = os.open(folder, os.O_PATH | os.O_CLOEXEC)
            try:
                beneath = _PathBeneath(allowed, fd)
                if libc.syscall(
                    ctypes.c_long(_SYS_ADD_RULE),
                    ctypes.c_long(ruleset),
                    ctypes.c_long(1),
                    ctypes.byref(beneath),
                    ctypes.c_long(0),
                ):
                    return None
            finally:
                os.close(fd)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) or libc.syscall(
            ctypes.c_long(_SYS_RESTRICT_SELF), ctypes.c_long(ruleset), ctypes.c_long(0)
        ):
            return None
    finally:
        os.close(ruleset)
    return {"confinement": "landlock", "abi": abi, "scoped": bool(scoped)}


def _sandbox_profile(writable):
    """A macOS ``sandbox-exec`` profile: everything allowed except writing outside ``writable``."""
    paths = " ".join(f'(subpath "{os.path.realpath(folder)}")' for folder in writable)
    return (
        "(version 1)(allow default)(deny file-write*)"
        f"(allow file-write* {paths} "
        '(literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))'
    )


def _set_limit(kind, value):
    with contextlib.suppress(ValueError, OSError, AttributeError):
        soft, hard = resource.getrlimit(kind)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(kind, (value, value))
        return True
    return False


def _user_processes():
    """How many processes this user has now (Linux and macOS), or None."""
    uid = os.getuid()
    if sys.platform.startswith("linux"):
        count = 0
        for name in os.listdir("/proc"):
            if name.isdigit():
                with contextlib.suppress(OSError):
                    count += os.stat(f"/proc/{name}").st_uid == uid
        return count
    import subprocess

    with contextlib.suppress(OSError, subprocess.SubprocessError):
        out = subprocess.run(["ps", "-U", str(uid), "-o", "pid="], capture_output=True, text=True, timeout=10).stdout
        return len(out.split())
    return None


def limit(memory=None, file_size=None):
    """Set this process's limits (inherited across exec and by children); return which held."""
    held = {"core": _set_limit(resource.RLIMIT_CORE, 0)}
    if memory and sys.platform.startswith("linux"):
        held["memory"] = _set_limit(resource.RLIMIT_AS, int(memory))
    if file_size:
        held["file_size"] = _set_limit(resource.RLIMIT_FSIZE, int(file_size))
    if os.getuid() != 0 and hasattr(resource, "RLIMIT_NPROC"):
        count = _user_processes()
        if count is not None:
            held["processes"] = _set_limit(resource.RLIMIT_NPROC, count + _NPROC_MARGIN)
    return held


def confine_writes(writable):
    """(what confines the writes, as a dict, or None; a prefix to run the command with, or None). Linux:
    Landlock, applied now. macOS: the ``sandbox-exec`` prefix."""
    if sys.platform.startswith("linux"):
        return _landlock(writable), None
    if sys.platform == "darwin" and Path("/usr/bin/sandbox-exec").is_file():
        return {"confinement": "sandbox-exec"}, ["/usr/bin/sandbox-exec", "-p", _sandbox_profile(writable)]
    return None, None


_SELF_TEST = """
import json, os, sys
import numpy, ipykernel.kernelapp, attn_homework
writable, forbidden, outsider = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(os.path.join(writable, "probe"), "w") as f:
    f.write("ok")
try:
    open(os.path.join(forbidden, "probe"), "w").close()
    blocked = False
except OSError:
    blocked = True
signals = None
if sys.platform.startswith("linux"):
    try:
        os.kill(outsider, 0)
        signals = False
    except PermissionError:
        signals = True
    except OSError:
        signals = None
print(json.dumps({"writes_blocked": blocked, "signals_blocked": signals}))
"""


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m attn_homework.grading.confine")
    parser.add_argument("--memory", type=int, default=None, help="address-space limit in bytes (Linux)")
    parser.add_argument("--file-size", type=int, default=None, help="largest file the kernel may write, bytes")
    parser.add_argument("--writable", action="append", default=[], help="a folder the kernel may write in")
    parser.add_argument("--no-confine", action="store_true", help="limits only, no write confinement")
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--forbidden", help="(self-test) a folder the confined check must fail to write in")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    limit(args.memory, args.file_size)
    how, prefix = (None, None) if args.no_confine else confine_writes(args.writable)
    if args.self_test:
        command = [sys.executable, "-c", _SELF_TEST, args.writable[0], args.forbidden, str(os.getppid())]
        if prefix:
            command = prefix + command
        import subprocess

        run = subprocess.run(command, capture_output=True, text=True, timeout=120)
        try:
            report = json.loads(run.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            report = {"error": (run.stderr or run.stdout)[-500:]}
        print(json.dumps({"confinement": None, **(how or {}), **report}))
        return 0
    if not command:
        parser.error("no command to run")
    if prefix:
        command = prefix + command
    os.execv(command[0], command)
    return 1  # pragma: no cover - execv does not return


if __name__ == "__main__":
    sys.exit(main())
