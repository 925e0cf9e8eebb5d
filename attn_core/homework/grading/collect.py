"""What was handed in: every submission read into memory before any of them runs, and every file left out
with the reason.

The grader takes files and folders; a folder is read with its subfolders (the way an LMS downloads
submissions: ``陈十二_12345_assignsubmission_file_/ex06_full_pipeline.ipynb``), and a zip file as the folder
it holds (zips inside it too, two levels deep). Notebooks are read whole into memory first, so nothing a
submission does to the folder while it runs changes another's grade. Everything else is listed as skipped
with its reason: not a notebook, hidden or system file (``.DS_Store``, ``__MACOSX/``), a JupyterLab
checkpoint copy, too large, an unreadable zip.

The LMS's own names are kept, for the roster and the late rule: Moodle's
``Full Name_<participant>_assignsubmission_file_`` and Canvas's ``name[_LATE]_<user id>_<attachment id>_file``.
The submission time is the zip entry's time or the file's modification time.
"""

import re
import time
import zipfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path, PurePosixPath

MAX_NOTEBOOK = 20 << 20  # bytes: a larger "notebook" is skipped (an exercise notebook is well under 1 MB)
MAX_ZIP_TOTAL = 2 << 30  # bytes read out of zip files in all (a zip bomb stops there)
ZIP_DEPTH = 2

_MOODLE = re.compile(r"^(?P<name>.+?)_(?P<participant>\d+)_assignsubmission_[a-z]+_")
_CANVAS = re.compile(r"^(?P<name>[^_/]+?)(?P<late>_LATE)?_(?P<user>\d+)_(?P<attachment>\d+)_(?P<file>.+)$")


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
    """One handed-in notebook: its bytes, how to name it, when it was handed in, what the LMS called it."""

    label: str
    data: bytes
    submitted: float | None = None  # POSIX time
    lms: LmsName | None = None

    @property
    def file_name(self):
        name = PurePosixPath(self.label).name
        match = _CANVAS.match(name)
        return match.group("file") if match and self.lms and self.lms.system == "canvas" else name


@dataclass(frozen=True)
class Skipped:
    """A file that is not graded: its name, a reason code (see ``REASONS``) and a detail."""

    label: str
    reason: str
    detail: str = ""


REASONS = ("not_notebook", "hidden", "checkpoint", "too_large", "bad_zip", "superseded", "duplicate", "unreadable")


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


def _classify(label, size):
    """None for a notebook to grade, else the Skipped entry for it."""
    parts = PurePosixPath(label).parts
    if ".ipynb_checkpoints" in parts:
        return Skipped(label, "checkpoint")
    if any(_hidden(part) for part in parts):
        return Skipped(label, "hidden")
    if not label.lower().endswith(".ipynb"):
        return Skipped(label, "not_notebook", PurePosixPath(label).suffix.lower() or "(no extension)")
    if size > MAX_NOTEBOOK:
        return Skipped(label, "too_large", f"{size / 2**20:.1f} MiB")
    return None


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
        size = path.stat().st_size
        skip = _classify(label, size)
        if skip:
            self.skipped.append(skip)
            return
        try:
            data = path.read_bytes()
        except OSError as e:
            self.skipped.append(Skipped(label, "unreadable", type(e).__name__))
            return
        self.submissions.append(Submission(label, data, path.stat().st_mtime, lms_name(label)))

    def archive(self, archive, label, depth):
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            if info.is_dir():
                continue
            member = f"{label}/{info.filename}"
            if info.filename.lower().endswith(".zip") and depth < ZIP_DEPTH:
                data = self.read_member(archive, info, member, limit=MAX_ZIP_TOTAL)
                if data is None:
                    continue
                try:
                    with zipfile.ZipFile(BytesIO(data)) as inner:
                        self.archive(inner, member, depth + 1)
                except (zipfile.BadZipFile, RuntimeError, NotImplementedError, EOFError) as e:
                    self.skipped.append(Skipped(member, "bad_zip", type(e).__name__))
                continue
            skip = _classify(member, info.file_size)
            if skip:
                self.skipped.append(skip)
                continue
            data = self.read_member(archive, info, member, limit=MAX_NOTEBOOK)
            if data is not None:
                when = _zip_time(info)
                self.submissions.append(Submission(member, data, when, lms_name(info.filename) or lms_name(member)))

    def read_member(self, archive, info, label, limit):
        if info.file_size > limit or self.zip_bytes + info.file_size > MAX_ZIP_TOTAL:
            self.skipped.append(Skipped(label, "too_large", f"{info.file_size / 2**20:.1f} MiB"))
            return None
        try:
            with archive.open(info) as f:
                data = f.read(limit + 1)  # the size in the directory may lie; read no more than the limit
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as e:
            self.skipped.append(Skipped(label, "bad_zip", type(e).__name__))
            return None
        if len(data) > limit:
            self.skipped.append(Skipped(label, "too_large", f"> {limit / 2**20:.0f} MiB"))
            return None
        self.zip_bytes += len(data)
        return data


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
            reader.skipped.append(Skipped(str(given), "unreadable", "no such file or folder"))
    return reader.submissions, reader.skipped
