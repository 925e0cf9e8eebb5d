"""Start a submission's kernel inside its limits: the launcher the worker puts in front of the kernel command.

    python -m attn_homework.grading.confine [--memory B] [--file-size B] [--writable DIR]...
        [--sandbox [--disk B]] -- CMD
    python -m attn_homework.grading.confine --self-test [--sandbox] --writable DIR --forbidden DIR

With ``--sandbox`` (Linux, bubblewrap installed): it sets the limits below, then runs ``CMD`` under
bubblewrap (``sandbox_command``): new mount, PID, network, IPC, UTS and user namespaces, every capability
dropped (as root too) and no user namespace inside; /usr and the other system folders, a few files of /etc,
the Python install, the virtual environment and the course's packages read-only; an empty /tmp; only the
``--writable`` folders (the kernel's working folder and its connection folder, where its UNIX sockets are)
visible and writable: no other submission, no other kernel's connection file, no teacher notebook, no home
folder. No network: the kernel talks to its worker over those UNIX sockets only. Its environment is reduced
to what a kernel needs (``sandbox_env``). The self-test then also checks that a read outside and a TCP
connection to a listener on 127.0.0.1 fail; the grader uses the sandbox only if all of it holds.

Without it (no bubblewrap, macOS), it sets the limits on itself, then replaces itself with ``CMD``
(``exec``: the same process, so the kernel and everything it starts inherit them), with the same reduced
environment as in the sandbox (``sandbox_env``: no token or credential of the grader's reaches the kernel):

- memory: an address-space limit (RLIMIT_AS; Linux; macOS does not enforce it, the grader's watchdog
  counts resident memory there); no core files; no file larger than ``--file-size``; on Linux and macOS, at
  most a few hundred more processes for this user (RLIMIT_NPROC; not for root, whom it does not bind);
- writes (where the platform allows it cheaply): Linux ≥ 5.13, Landlock: the kernel may write only inside
  the ``--writable`` folders (its temporary working folder and its connection folder) and to devices such
  as /dev/null; from Landlock ABI 4 (Linux 6.7) it can neither bind nor connect a TCP socket (UDP is not
  Landlock's to refuse); from Linux 6.12 (Landlock ABI 6) it can neither signal processes outside its own
  sandbox nor reach their abstract sockets. In the bubblewrap sandbox, ``--disk`` bytes for everything it writes in
  its working folder together (a tmpfs of that size: more fails with "No space left on device"). macOS:
  ``sandbox-exec`` with a profile that denies writes elsewhere.

``--self-test`` applies the same confinement to a short Python check (imports what a kernel imports, writes
inside the writable folder, must fail to write into the forbidden one) and prints what held, as JSON data
(``confinement``: "landlock", with ``abi`` and ``scoped``, or "sandbox-exec", or null; the grader words it): the
grader runs it once per batch and grades without write confinement, saying so, if the platform breaks it.
"""

import argparse
import contextlib
import ctypes
import importlib.util
import json
import os
import resource
import shutil
import socket
import sys
from pathlib import Path

# Tests only: set to "1", the grader runs kernels without bubblewrap (Landlock alone, as before) and keeps
# --jobs, so that a test of the sandbox can show that it fails without it. Never for grading a class.
OFF_SWITCH = "ATTN_GRADE_TEST_NO_SANDBOX"
PACKAGES = ("attn_core", "attn_homework", "attn_viz")  # visible (read-only) in the sandbox: the course's code
_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "passwd", "group", "nsswitch.conf", "alternatives")
_ENV_NAMES = {"PATH", "PYTHONPATH", "LANG", "LANGUAGE", "TERM", "TZ", "MPLBACKEND", "TMPDIR", "TEMP", "TMP"}
_ENV_PREFIXES = ("LC_", "PYTHON", "OPENBLAS_", "OMP_", "MKL_", "NPY_", "MALLOC_", "ATTN_", "COVERAGE_", "IPYTHON")
_TMPFS_SIZE = 64 << 20  # the sandbox's own /tmp and /dev/shm (its temporary folder is its working folder)

# Landlock (linux/landlock.h): the write rights a sandboxed kernel keeps only inside the writable folders
_WRITE_FILE, _REMOVE_DIR, _REMOVE_FILE = 1 << 1, 1 << 4, 1 << 5
_MAKE = sum(1 << bit for bit in range(6, 13))  # MAKE_CHAR, _DIR, _REG, _SOCK, _FIFO, _BLOCK, _SYM
_REFER, _TRUNCATE = 1 << 13, 1 << 14  # ABI 2, ABI 3
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4: handled with no rule, no TCP port at all
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
    """Allow writes only beneath ``writable`` (and writing to devices), and (ABI 4) no TCP bind or connect
    at all: the kernel talks to its worker over UNIX sockets. Returns what holds (``{"confinement":
    "landlock", "abi": N, "scoped": …, "tcp_blocked": …}``: scoped, it cannot signal processes outside its
    sandbox nor reach their abstract sockets) or None. UDP and reads are not Landlock's to refuse here."""
    abi = landlock_abi()
    if abi < 1:
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    access = _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE
    access |= (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0)
    scoped = _SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL if abi >= 6 else 0
    network = _NET_BIND_TCP | _NET_CONNECT_TCP if abi >= 4 else 0
    attr = _RulesetAttr(access, network, scoped)
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
    return {"confinement": "landlock", "abi": abi, "scoped": bool(scoped), "tcp_blocked": bool(network)}


def _sandbox_profile(writable):
    """A macOS ``sandbox-exec`` profile: everything allowed except writing outside ``writable``."""
    paths = " ".join(f'(subpath "{os.path.realpath(folder)}")' for folder in writable)
    return (
        "(version 1)(allow default)(deny file-write*)"
        f"(allow file-write* {paths} "
        '(literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))'
    )


def bwrap():
    """The bubblewrap program, or None (not Linux, not installed, or switched off for a test)."""
    if not sys.platform.startswith("linux") or os.environ.get(OFF_SWITCH) == "1":
        return None
    return shutil.which("bwrap")


def _python_folders():
    """What the kernel's Python needs to see (read-only): its install, the virtual environment, the
    site-packages folders on its path and the course's packages. Other folders on the path (a repository
    put there with PYTHONPATH: its teacher notebooks) stay out; only the packages inside them are shown."""
    folders = {sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix}
    folders.add(os.path.dirname(os.path.realpath(sys.executable)))
    prefixes = tuple(os.path.join(os.path.realpath(f), "") for f in folders)
    for entry in sys.path:
        if not entry or not os.path.exists(entry):
            continue
        real = os.path.realpath(entry)
        site = os.path.basename(real) in ("site-packages", "dist-packages")
        if site or os.path.isfile(real) or real.startswith(prefixes):
            folders.add(entry)
    for name in PACKAGES:
        with contextlib.suppress(ImportError, ValueError, AttributeError):
            spec = importlib.util.find_spec(name)
            folders.update(spec.submodule_search_locations or ())
    folders.add(os.path.dirname(os.path.abspath(__file__)))  # this launcher and the worker
    found = set()
    for folder in folders:
        found |= {folder, os.path.realpath(folder)}
    return sorted((f for f in found if os.path.exists(f)), key=len)


def sandbox_command(program, writable, command, disk=None):
    """The bubblewrap command that runs ``command`` in a sandbox of its own: new mount, PID, network, IPC,
    UTS and user namespaces, no capabilities (root too), no new user namespaces inside; the system and the
    Python install read-only; an empty /tmp; only the ``writable`` folders (its working folder, then its
    connection folder) writable, and nothing else of this machine's files visible; its own session; it dies
    with the worker. The kernel talks to the worker over UNIX sockets inside its connection folder. With
    ``disk`` (bytes) the working folder is a tmpfs of that size, so everything the submission writes there
    counts against one limit (the files already in it are bound into it read-only)."""
    args = [program, "--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
    args += ["--die-with-parent", "--new-session", "--hostname", "sandbox"]
    for path in _SYSTEM:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for name in _ETC:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    args += ["--proc", "/proc", "--dev", "/dev", "--size", str(_TMPFS_SIZE), "--tmpfs", "/dev/shm"]
    args += ["--size", str(_TMPFS_SIZE), "--tmpfs", "/tmp"]
    for folder in _python_folders():
        args += ["--ro-bind", folder, folder]
    for index, folder in enumerate(writable):
        if index == 0 and disk:
            args += ["--size", str(int(disk)), "--tmpfs", folder]
            for name in sorted(os.listdir(folder)):
                args += ["--ro-bind", os.path.join(folder, name), os.path.join(folder, name)]
        else:
            args += ["--bind", folder, folder]
    args += ["--chdir", writable[0], "--"]
    return args + list(command)


def sandbox_env(environ, home, sandboxed=True):
    """The kernel's environment, in the sandbox and out of it: the settings a kernel needs, nothing else of
    the grader's (no tokens, no credentials a teacher or Gradescope has in the environment); HOME is its
    working folder. In the sandbox no JPY_PARENT_PID either: its parent is the sandbox's own first process."""
    env = {k: v for k, v in environ.items() if k in _ENV_NAMES or k.startswith(_ENV_PREFIXES)}
    if sandboxed or "JPY_PARENT_PID" not in environ:
        env.pop("JPY_PARENT_PID", None)
    else:
        env["JPY_PARENT_PID"] = environ["JPY_PARENT_PID"]
    marker = environ.get("ATTN_GRADE_JOB")
    if marker:
        env["ATTN_GRADE_JOB"] = marker
    env.update(HOME=home, PATH=environ.get("PATH") or "/usr/bin:/bin")
    return env


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
report = {"writes_blocked": blocked, "signals_blocked": signals}
if len(sys.argv) > 4:  # reads outside (the sandbox) and TCP (the sandbox; Landlock ABI 4) must fail too
    try:
        open(os.path.join(forbidden, "secret")).read()
        report["reads_blocked"] = False
    except OSError:
        report["reads_blocked"] = True
    import socket
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[4])), timeout=5).close()
        report["network_blocked"] = False
    except OSError:
        report["network_blocked"] = True
print(json.dumps(report))
"""


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m attn_homework.grading.confine")
    parser.add_argument("--memory", type=int, default=None, help="address-space limit in bytes (Linux)")
    parser.add_argument("--file-size", type=int, default=None, help="largest file the kernel may write, bytes")
    parser.add_argument("--disk", type=int, default=None, help="(sandbox) total bytes the kernel may write")
    parser.add_argument("--writable", action="append", default=[], help="a folder the kernel may write in")
    parser.add_argument("--no-confine", action="store_true", help="limits only, no write confinement")
    parser.add_argument("--sandbox", action="store_true", help="run the command under bubblewrap (Linux)")
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--forbidden", help="(self-test) a folder the confined check must fail to write in")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    limit(args.memory, args.file_size)
    if args.sandbox:
        program = bwrap()
        if program is None:
            parser.error("bubblewrap is not available")
        if args.self_test:
            return _sandbox_self_test(program, args.writable, args.forbidden)
        if not command:
            parser.error("no command to run")
        argv = sandbox_command(program, args.writable, command, args.disk)
        os.execve(program, argv, sandbox_env(os.environ, args.writable[0]))
    listener = None
    if args.self_test:  # opened before the confinement, which refuses this process TCP too
        Path(args.forbidden, "secret").write_text("teacher", encoding="utf-8")
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
    how, prefix = (None, None) if args.no_confine else confine_writes(args.writable)
    if args.self_test:
        command = [sys.executable, "-c", _SELF_TEST, args.writable[0], args.forbidden, str(os.getppid())]
        command.append(str(listener.getsockname()[1]))
        if prefix:
            command = prefix + command
        import subprocess

        run = subprocess.run(command, capture_output=True, text=True, timeout=120)
        try:
            report = json.loads(run.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            report = {"error": (run.stderr or run.stdout)[-500:]}
        listener.close()
        print(json.dumps({"confinement": None, **(how or {}), **report}))
        return 0
    if not command:
        parser.error("no command to run")
    if prefix:
        command = prefix + command
    home = args.writable[0] if args.writable else os.environ.get("HOME", "/")
    os.execve(command[0], command, sandbox_env(os.environ, home, sandboxed=False))
    return 1  # pragma: no cover - execv does not return


def _sandbox_self_test(program, writable, forbidden):
    """The self-test in the sandbox: writes inside, and no write, read or TCP connection outside."""
    import subprocess

    Path(forbidden, "secret").write_text("teacher", encoding="utf-8")
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        code = [sys.executable, "-c", _SELF_TEST, writable[0], forbidden, str(os.getpid()), str(port)]
        try:
            run = subprocess.run(
                sandbox_command(program, writable, code),
                env=sandbox_env(os.environ, writable[0]),
                capture_output=True,
                text=True,
                timeout=120,
            )
            report = json.loads(run.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError, OSError, subprocess.SubprocessError) as e:
            report = {"error": (locals().get("run") and (run.stderr or run.stdout)[-500:]) or str(e)}
    print(json.dumps({"confinement": "bubblewrap", **report}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
