"""What was handed in: every submission read into memory before any of them runs, and every file left out
with the reason.

The grader takes files and folders; a folder is read with its subfolders (the way an LMS downloads
submissions: ``陈十二_12345_assignsubmission_file_/ex06_full_pipeline.ipynb``), and a zip file as the folder
it holds (zips inside it too, two levels deep). Notebooks are read one at a time and kept in memory without
their saved outputs (``without_outputs``: the grader runs every notebook afresh, so what a student printed and
saved is worth nothing to it), so nothing a submission does to the folder while it runs changes another's
grade, and a notebook saved with a hundred megabytes of printing costs the grader no more than its code.
A notebook up to ``MAX_NOTEBOOK`` as handed in is graded; a larger one, one that cannot be read, or one whose
cells alone exceed ``MAX_KEPT`` is still a submission, with its problem (``Submission.problem``), so that it
stands for its student in every report. Everything else is listed as skipped with its reason: not a notebook,
hidden or system file (``.DS_Store``, ``__MACOSX/``), a JupyterLab checkpoint copy, an unreadable zip.

The LMS's own names are kept, for the roster and the late rule: Moodle's
``Full Name_<participant>_assignsubmission_file_`` and Canvas's ``name[_LATE]_<user id>_<attachment id>_file``
(``_late`` in lower case is read the same: both are seen in downloads).
The submission time is the zip entry's time or the file's modification time.
"""

import hashlib
import mmap
import re
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

MAX_NOTEBOOK = 256 << 20  # bytes: the largest notebook file graded, as handed in (the same as Limits.file_size)
MAX_KEPT = 20 << 20  # bytes: the largest notebook once its outputs are dropped (its cells' code and text)
MAX_ZIP_TOTAL = 2 << 30  # bytes read out of zip files in all (a zip bomb stops there)
ZIP_DEPTH = 2
CHUNK = 1 << 20  # bytes: a large file is hashed, copied and given back to the system this much at a time

_MOODLE = re.compile(r"^(?P<name>.+?)_(?P<participant>\d+)_assignsubmission_[a-z]+_")
_CANVAS = re.compile(r"^(?P<name>[^_/]+?)(?P<late>_(?i:late))?_(?P<user>\d+)_(?P<attachment>\d+)_(?P<file>.+)$")


@dataclass(frozen=True)
class LmsName:
    """What an LMS wrote into a submission's folder or file name."""

    system: str  # "moodle" or "canvas"
    name: str  # Moodle: the full name; Canvas: the name as it writes it (lastfirst, lower case)
    participant: str = ""  # Moodle: the participant number of the grading worksheet
    user_id: str = ""  # Canvas: the user ID of the gradebook
    late: bool = False  # Canvas marks late submissions in the file name


@dataclass(frozen=True)
class Submission:
    """One handed-in notebook: its bytes without saved outputs, how to name it, when it was handed in, what the
    LMS called it, the SHA-256 of the file as handed in. ``problem`` is "too_large" or "unreadable" when the
    file cannot be graded (``data`` is then empty), and ``detail`` says why: a size, or a code (``not_json``,
    ``read_error:<exception>``, ``without_outputs:<size>``) that ``detail_<code>`` in the messages puts in words."""

    label: str
    data: bytes
    submitted: float | None = None  # POSIX time
    lms: LmsName | None = None
    sha256: str = ""
    problem: str = ""
    detail: str = ""
    revealed: tuple = ()  # the "📌 var = n ·" lines of its saved outputs: predictions recorded at their reveal

    @property
    def file_name(self):
        name = PurePosixPath(self.label).name
        match = _CANVAS.match(name)
        return match.group("file") if match and self.lms and self.lms.system == "canvas" else name


@dataclass(frozen=True)
class Skipped:
    """A file that is not graded: its name, a reason code (see ``REASONS``) and a detail (a size, a file
    extension, an exception's name, or a code that ``detail_<code>`` in the messages puts in words)."""

    label: str
    reason: str
    detail: str = ""


REASONS = (
    "not_notebook",
    "hidden",
    "checkpoint",
    "too_large",
    "bad_zip",
    "superseded",
    "duplicate",
    "unreadable",
    "not_found",
)


def lms_name(label):
    """The Moodle or Canvas name in a submission's path (folders and file name), or None."""
    for part in reversed(PurePosixPath(label).parts):  # the nearest folder, file or zip that carries one
        match = _MOODLE.match(part)
        if match:
            return LmsName("moodle", match.group("name").strip(), participant=match.group("participant"))
        match = _CANVAS.match(part)
        if match:
            return LmsName("canvas", match.group("name"), user_id=match.group("user"), late=bool(match.group("late")))
    return None


def _hidden(part):
    return part.startswith(".") or part in ("__MACOSX", "Thumbs.db", "desktop.ini")


def _mib(size):
    return f"{size / 2**20:.1f} MiB"


def _classify(label):
    """None for a notebook to read, else the Skipped entry for it."""
    parts = PurePosixPath(label).parts
    if ".ipynb_checkpoints" in parts:
        return Skipped(label, "checkpoint")
    if any(_hidden(part) for part in parts):
        return Skipped(label, "hidden")
    if not label.lower().endswith(".ipynb"):
        return Skipped(label, "not_notebook", PurePosixPath(label).suffix.lower() or "no_extension")
    return None


# ---------------------------------------------------------------- a notebook without its outputs

# A JSON string (escapes included), or a bare quote (a string that never ends), or a structural character.
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|"|[\[\]{}:,]')
_DROPPED = (b'"outputs"', b'"attachments"')  # emptied in every cell: the grader runs the code afresh
_CELLS = b'"cells"'
_QUOTE, _COLON, _COMMA = ord('"'), ord(":"), ord(",")
_OPEN = {ord("["): ord("]"), ord("{"): ord("}")}
_CLOSE = set(_OPEN.values())


def without_outputs(buffer):
    """The notebook JSON in ``buffer`` (bytes, or a memory map of the file) with every cell's ``outputs``
    emptied (``[]``) and its ``attachments`` too (``{}``): the same notebook for the grader, which runs it
    afresh. It is scanned once, token by token, without building the JSON: memory is the copy it returns,
    whatever the outputs held. Raises ValueError on what cannot be JSON (a string that never ends, a bracket
    that closes nothing); anything else is left for the JSON parser to judge."""
    tokens = _TOKEN.finditer(buffer)
    pieces, kept_from = [], 0
    stack = []  # per open container: (its opening byte, the key it is the value of)
    key = candidate = None  # the key whose value comes next; the last short string (a key if ":" follows)
    release = _Release(buffer)
    for match in tokens:
        at = match.start()
        first = buffer[at]
        release(at)
        if first == _QUOTE:
            if match.end() - at == 1:
                raise ValueError("not_json")
            candidate = buffer[at : match.end()] if match.end() - at <= 32 else None
            continue
        if first == _COLON:
            key, candidate = candidate, None
            continue
        if first == _COMMA:
            key = candidate = None
            continue
        if first in _OPEN:
            if key in _DROPPED and len(stack) >= 2 and stack[-1][0] == ord("{") and stack[-2] == (ord("["), _CELLS):
                end = _matching(buffer, tokens, release)
                pieces.append(buffer[kept_from : at + 1])
                kept_from = end
            else:
                stack.append((first, key))
            key = candidate = None
            continue
        if not stack or _OPEN[stack.pop()[0]] != first:
            raise ValueError("not_json")
        key = candidate = None
    pieces.append(buffer[kept_from:])
    return b"".join(pieces)


def _matching(buffer, tokens, release):
    """The position of the bracket that closes the one just opened (strings inside skipped whole)."""
    depth = 1
    for match in tokens:
        at = match.start()
        first = buffer[at]
        release(at)
        if first == _QUOTE:
            if match.end() - at == 1:
                raise ValueError("not_json")
        elif first in _OPEN:
            depth += 1
        elif first in _CLOSE:
            depth -= 1
            if depth == 0:
                return at
    raise ValueError("not_json")


class _Release:
    """Gives a memory map's pages back once the scan has passed them (Linux, macOS), so that the grader's
    resident memory does not grow with the file; does nothing for bytes."""

    def __init__(self, buffer):
        self.buffer = buffer if isinstance(buffer, mmap.mmap) and hasattr(buffer, "madvise") else None
        self.done = 0

    def __call__(self, at):
        if self.buffer is not None and at - self.done >= CHUNK:
            upto = at - at % mmap.ALLOCATIONGRANULARITY
            try:
                self.buffer.madvise(mmap.MADV_DONTNEED, self.done, upto - self.done)
            except (OSError, ValueError, AttributeError):
                self.buffer = None
            self.done = upto


# The line ``verdicts.predicted`` prints when a prediction's answer is first shown, as saved in a notebook's
# outputs (UTF-8 as Jupyter writes it, or JSON-escaped): the one thing of the outputs the grader keeps.
_RECORDED = (
    re.compile(rb"\xf0\x9f\x93\x8c ([A-Za-z_][A-Za-z0-9_]{0,60}) = ([0-9eE.+\-]{1,30}) \xc2\xb7"),
    re.compile(rb"\\ud83d\\udccc ([A-Za-z_][A-Za-z0-9_]{0,60}) = ([0-9eE.+\-]{1,30}) \\u00b7"),
)


_OVERLAP = 256  # longer than a recorded line: one cut by a chunk's end is found whole in the next chunk


def _recorded_predictions(buffer, found=None):
    """The prediction lines saved in a notebook's outputs, as text (the first of each variable, at most 50);
    ``found`` carries what earlier chunks of the same file gave."""
    found = {} if found is None else found
    for pattern in _RECORDED:
        for match in pattern.finditer(buffer):
            var = match.group(1).decode()
            found.setdefault(var, f"📌 {var} = {match.group(2).decode()} ·")
    return tuple(list(found.values())[:50])


def _read_notebook_file(f, size):
    """(the notebook without outputs, SHA-256 of the file, problem, detail, the predictions recorded in its
    outputs) from an open file of ``size`` bytes."""
    digest = hashlib.sha256()
    if size == 0:
        return b"", digest.hexdigest(), "", "", ()
    with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        release, found, tail = _Release(mapped), {}, b""
        for start in range(0, size, CHUNK):  # one pass: each chunk is hashed, scanned, then let go
            chunk = mapped[start : start + CHUNK]
            digest.update(chunk)
            _recorded_predictions(tail + chunk[:_OVERLAP], found)  # a line cut by the chunks' border
            revealed = _recorded_predictions(chunk, found)
            tail = chunk[-_OVERLAP:]
            release(start + CHUNK)
        try:
            data = without_outputs(mapped)
        except ValueError as e:  # not JSON: a small file is kept whole for the parser to say what is wrong
            if size > MAX_KEPT:
                return b"", digest.hexdigest(), "unreadable", str(e), ()
            data = mapped[:]
    if len(data) > MAX_KEPT:
        return b"", digest.hexdigest(), "too_large", f"without_outputs:{_mib(len(data))}", ()
    return data, digest.hexdigest(), "", "", revealed


class _Reader:
    def __init__(self):
        self.submissions, self.skipped = [], []
        self.zip_bytes = 0

    def file(self, path, label):
        if path.suffix.lower() == ".zip" and not any(_hidden(p) for p in PurePosixPath(label).parts):
            try:
                with zipfile.ZipFile(path) as archive:
                    self.archive(archive, label, depth=1)
            except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as e:
                self.skipped.append(Skipped(label, "bad_zip", type(e).__name__))
            return
        skip = _classify(label)
        if skip:
            self.skipped.append(skip)
            return
        when = None
        try:
            with open(path, "rb") as f:
                stat = path.stat()
                when = stat.st_mtime
                if stat.st_size > MAX_NOTEBOOK:
                    self.problem(label, when, "too_large", _mib(stat.st_size))
                    return
                data, sha, problem, detail, revealed = _read_notebook_file(f, stat.st_size)
        except OSError as e:
            self.problem(label, when, "unreadable", f"read_error:{type(e).__name__}")
            return
        self.submissions.append(Submission(label, data, when, lms_name(label), sha, problem, detail, revealed))

    def problem(self, label, when, reason, detail, lms=None):
        """A notebook that cannot be graded: still its student's submission, with the reason."""
        sha = hashlib.sha256(f"{reason}\0{label}\0{detail}".encode()).hexdigest()
        self.submissions.append(Submission(label, b"", when, lms or lms_name(label), sha, reason, detail))

    def skip(self, label, reason, detail):
        self.skipped.append(Skipped(label, reason, detail))

    def archive(self, archive, label, depth):
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            if info.is_dir():
                continue
            member = f"{label}/{info.filename}"
            if info.filename.lower().endswith(".zip") and depth < ZIP_DEPTH:
                with tempfile.TemporaryFile() as spool:  # on disk, not in memory
                    if self.extract(archive, info, member, spool, MAX_ZIP_TOTAL, self.skip, "bad_zip", "") is None:
                        continue
                    try:
                        with zipfile.ZipFile(spool) as inner:
                            self.archive(inner, member, depth + 1)
                    except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as e:
                        self.skipped.append(Skipped(member, "bad_zip", type(e).__name__))
                continue
            skip = _classify(member)
            if skip:
                self.skipped.append(skip)
                continue
            when = _zip_time(info)
            lms = lms_name(info.filename) or lms_name(member)

            def problem(label, reason, detail, when=when, lms=lms):
                self.problem(label, when, reason, detail, lms)

            with tempfile.TemporaryFile() as spool:
                size = self.extract(archive, info, member, spool, MAX_NOTEBOOK, problem, "unreadable", "read_error:")
                if size is None:
                    continue
                data, sha, reason, detail, revealed = _read_notebook_file(spool, size)
            self.submissions.append(Submission(member, data, when, lms, sha, reason, detail, revealed))

    def extract(self, archive, info, label, spool, limit, problem, unreadable, prefix):
        """Copy a zip member into ``spool`` (a temporary file), no more than ``limit`` bytes, and return its
        size; or None, calling ``problem(label, reason, detail)``, when it is too large ("too_large") or cannot
        be read (``unreadable``, the detail the exception's name after ``prefix``)."""
        if info.file_size > limit or self.zip_bytes + info.file_size > MAX_ZIP_TOTAL:
            problem(label, "too_large", _mib(info.file_size))
            return None
        copied = 0
        try:
            with archive.open(info) as f:
                while copied <= limit:  # the size in the directory may lie: copy no more than the limit
                    chunk = f.read(min(CHUNK, limit + 1 - copied))
                    if not chunk:
                        break
                    spool.write(chunk)
                    copied += len(chunk)
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as e:
            problem(label, unreadable, prefix + type(e).__name__)
            return None
        if copied > limit:
            problem(label, "too_large", f"> {limit / 2**20:.0f} MiB")
            return None
        self.zip_bytes += copied
        spool.flush()
        spool.seek(0)
        return copied


def _zip_time(info):
    try:
        return time.mktime((*info.date_time, 0, 0, -1))  # zip times are local times
    except (OverflowError, ValueError):
        return None


def collect(paths):
    """(submissions, skipped) from files and folders; a folder is read with its subfolders, a zip as a folder."""
    reader = _Reader()
    for given in map(Path, paths):
        if given.is_dir():
            for path in sorted(p for p in given.rglob("*") if p.is_file()):
                reader.file(path, path.relative_to(given.parent).as_posix())
        elif given.is_file():
            reader.file(given, given.name)
        else:
            reader.skipped.append(Skipped(str(given), "not_found"))
    return reader.submissions, reader.skipped
