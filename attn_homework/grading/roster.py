"""Who handed a submission in: the optional roster, and the student found from the ID cell, the LMS's
folder or file name, or the file name.

A roster is a CSV file (UTF-8, or the GBK that Chinese Excel writes) with a header row: a student number
column (``id``, ``学号``, ``student_id``, ``ID number``, ``SIS User ID``) and a name column (``name``, ``姓名``,
``Full name``, ``Student``); optional ``email`` / ``邮箱``, ``login`` / ``SIS Login ID``, ``canvas_id`` / ``ID``
(Canvas's own user ID), ``section`` / ``班级``, ``Identifier`` (Moodle's "Participant 123") and ``Last
modified (submission)`` (the time Moodle recorded the submission: it is used, before the zip's or the file's
time, for what came through the LMS). A Moodle grading worksheet or a Canvas gradebook export can serve as the
roster as it is.

Reports name students as the roster knows them when the report is written (``Roster.resolve``), so a
result graded before a roster was given gets its name, e-mail and class once one is.

A submission's student, in this order: the number in its ID cell (``homework.set_student_id("…")``) if the
roster has it; the LMS's participant or user ID; the LMS's name for the student; a roster number, then a
roster name, inside the file name; a name matches only when exactly one roster row has it (two students
called 王伟 are told apart by their numbers, never by taking the first). When two sources name two rostered
students, the submission is held for review (``identity_conflict``). Without a roster: the ID cell's number,
else the LMS's name, else the file name without the exercise's name (the name kept in every case).
"""

import csv
import io
import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path, PurePosixPath

from ..messages import msg

_COLUMNS = {
    "id": (
        "id",
        "学号",
        "student_id",
        "student id",
        "student number",
        "id number",
        "idnumber",
        "sis user id",
        "number",
    ),
    "name": ("name", "姓名", "full name", "fullname", "student", "student name", "名字"),
    "email": ("email", "email address", "e-mail", "邮箱", "电子邮件", "电子邮箱"),
    "login": ("login", "sis login id", "username", "用户名"),
    "canvas_id": ("canvas_id", "canvas id", "canvas user id"),
    "section": ("section", "班级", "class"),
    "participant": ("identifier", "participant", "标识符"),
    "submitted": ("last modified (submission)", "submitted", "submitted at", "最后修改（提交）", "提交时间"),
}
# How an LMS writes a submission time: ISO, Moodle's English ("Tuesday, 8 December 2026, 11:59 PM"), Chinese.
_TIME_FORMATS = ("%A, %d %B %Y, %I:%M %p", "%A, %d %B %Y, %H:%M", "%d %B %Y, %I:%M %p", "%d/%m/%Y %H:%M")
_ZH_TIME = re.compile(r"(\d{4})年\s*(\d{1,2})月\s*(\d{1,2})日.*?(\d{1,2}):(\d{2})")


def parse_time(text):
    """A submission time as an LMS export writes it, as POSIX time (local time); None if it cannot be read."""
    text = str(text).strip()
    if not text or text == "-":
        return None
    try:
        return datetime.fromisoformat(text.replace("/", "-")).timestamp()
    except ValueError:
        pass
    for pattern in _TIME_FORMATS:
        try:
            return datetime.strptime(text, pattern).timestamp()
        except ValueError:
            continue
    match = _ZH_TIME.search(text)
    if match:
        year, month, day, hour, minute = map(int, match.groups())
        hour += 12 if ("下午" in text or "晚上" in text) and hour < 12 else 0
        return datetime(year, month, day, hour, minute).timestamp()
    return None


class RosterError(ValueError):
    """A roster file that cannot be read: which file and what is missing."""


@dataclass(frozen=True)
class Student:
    """A student as the gradebook knows them; ``key`` is unique in the class (the student number when known)."""

    key: str
    id: str = ""
    name: str = ""
    email: str = ""
    login: str = ""
    canvas_id: str = ""
    section: str = ""
    participant: str = ""
    in_roster: bool = False

    def to_json(self):
        return {k: v for k, v in self.__dict__.items() if v not in ("", False)}

    @classmethod
    def from_json(cls, data):
        fields = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**fields)


def _clean_header(text):
    return re.sub(r"\s+", " ", str(text).strip().lstrip("\ufeff")).lower()


def _decode(data, path):
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise RosterError(msg("roster_encoding", path=path))


@dataclass
class Roster:
    """The students of a class, looked up by number, Moodle participant, Canvas user ID or name."""

    students: list[Student] = field(default_factory=list)
    submitted: dict = field(default_factory=dict)  # student key -> the LMS's submission time (POSIX)

    @classmethod
    def read(cls, path):
        path = Path(path)
        text = _decode(path.read_bytes(), path)
        rows = list(csv.reader(io.StringIO(text)))
        header_at = next((i for i, row in enumerate(rows[:5]) if _header_columns(row).get("id") is not None), None)
        if header_at is None:
            raise RosterError(msg("roster_no_id", path=path, columns=", ".join(_COLUMNS["id"][:6])))
        columns = _header_columns(rows[header_at])
        students, seen, times = [], set(), {}
        for row in rows[header_at + 1 :]:

            def cell(kind, row=row):
                index = columns.get(kind)
                return row[index].strip() if index is not None and index < len(row) else ""

            number = cell("id")
            if not number or number in seen or "points possible" in " ".join(row).lower():
                continue
            seen.add(number)
            when = parse_time(cell("submitted"))
            if when is not None:
                times[number] = when
            participant = re.sub(r"^\D*", "", cell("participant"))
            students.append(
                Student(
                    key=number,
                    id=number,
                    name=cell("name"),
                    email=cell("email"),
                    login=cell("login"),
                    canvas_id=cell("canvas_id"),
                    section=cell("section"),
                    participant=participant,
                    in_roster=True,
                )
            )
        return cls(students, times)

    def by(self, attribute, value):
        if not value:
            return None
        for student in self.students:
            if getattr(student, attribute) == value:
                return student
        return None

    def by_name_all(self, name):
        """Every roster row whose name (or login) is ``name``, compared without case, spaces or punctuation."""
        wanted = _name_key(name)
        if not wanted:
            return []
        return [s for s in self.students if _name_key(s.name) == wanted or (s.login and _name_key(s.login) == wanted)]

    def by_name(self, name):
        """The one roster row named ``name``; None when none is, or when two or more are (never the first)."""
        found = self.by_name_all(name)
        return found[0] if len(found) == 1 else None

    def resolve(self, student):
        """``student`` (as a graded submission recorded them) as this roster knows them: the roster's entry
        found by student number, Moodle participant, Canvas user ID or name, with the LMS's numbers the
        roster lacks; else ``student`` itself, not in the roster."""
        found = (
            self.by("id", student.id)
            or self.by("participant", student.participant)
            or self.by("canvas_id", student.canvas_id)
            or self.by_name(student.name)
        )
        if found is None:
            return replace(student, in_roster=False)
        return replace(
            found,
            participant=found.participant or student.participant,
            canvas_id=found.canvas_id or student.canvas_id,
        )

    def in_file_name(self, stem):
        """The one student whose number (or else whose name) appears in ``stem``, or None."""
        numbers = [s for s in self.students if len(s.id) >= 3 and re.search(rf"(?<!\d){re.escape(s.id)}(?!\d)", stem)]
        if len(numbers) == 1:
            return numbers[0]
        names = self.names_in_file_name(stem)
        return names[0] if len(names) == 1 else None

    def names_in_file_name(self, stem):
        """Every roster row whose name appears in ``stem`` (two for "王伟_ex02" when two students are 王伟)."""
        return [s for s in self.students if len(_name_key(s.name)) >= 2 and _name_key(s.name) in _name_key(stem)]


def _header_columns(row):
    header = [_clean_header(h) for h in row]
    columns = {}
    for kind, names in _COLUMNS.items():
        for name in names:
            if name in header:
                columns[kind] = header.index(name)
                break
    if columns.get("id") is not None and columns.get("canvas_id") is None and "id" in header and header[0] == "student":
        # a Canvas gradebook export: "Student, ID, SIS User ID, …": ID is Canvas's, the number is SIS User ID
        columns["canvas_id"] = header.index("id")
        if "sis user id" in header:
            columns["id"] = header.index("sis user id")
    return columns


def _name_key(name):
    """A name compared without case, spaces or punctuation ("Zhang San" = "zhangsan"; 陈十二 = 陈十二)."""
    return re.sub(r"[\W_]+", "", str(name)).lower()


def file_stem_without_exercise(file_name, exercise):
    """A file name minus its extension and the exercise's name: "zhangsan_ex02_scores.ipynb" -> "zhangsan"."""
    stem = PurePosixPath(file_name).stem
    if exercise:
        for part in (exercise, exercise.split("_")[0]):
            stem = re.sub(re.escape(part), "", stem, flags=re.I)
    return re.sub(r"^[\W_]+|[\W_]+$", "", stem) or PurePosixPath(file_name).stem


@dataclass(frozen=True)
class Identity:
    """Whose a submission is, and how sure the grader is: ``student``; ``problem`` is "" or a status code
    (``id_mismatch``: the ID cell's number is no rostered student's, ``not_in_roster``, ``identity_conflict``:
    two sources name two rostered students, ``ambiguous_name``: a name that two roster rows share and nothing
    else decides, ``unidentified``: a roster is given and no source names anyone in it); ``detail`` says what
    each source named; ``evidence`` is {source: student key} for every source that named a rostered
    student ("id_cell", "lms_number", "lms_name", "file_name")."""

    student: Student
    problem: str = ""
    detail: str = ""
    evidence: tuple = ()

    def __iter__(self):  # (student, problem), as identify returned before
        return iter((self.student, self.problem))

    def __getitem__(self, index):
        return (self.student, self.problem)[index]

    @property
    def keys(self):
        return {key for _, key in self.evidence}


def identify(roster, lms, id_cell, file_name, exercise):
    """The Identity of a submission (it unpacks as ``(student, problem)``).

    The ID cell's number, when it is a rostered student's, wins; then the LMS's participant or user ID; then
    the LMS's name, the roster number in the file name, the roster name in the file name, each used only when
    exactly one roster row matches (a name two students share decides nothing). When two sources name two
    different rostered students it is ``identity_conflict``, held for the teacher and filed under who handed
    it in (the LMS account, else the ID cell's student); no LMS number of one student is ever attached to
    another's row."""
    roster = roster or Roster()
    evidence = []
    from_id = roster.by("id", id_cell)
    if from_id is not None:
        evidence.append(("id_cell", from_id.key))
    from_number = None
    ambiguous = []
    if lms is not None:
        from_number = roster.by("participant", lms.participant) or roster.by("canvas_id", lms.user_id)
        if from_number is not None:
            evidence.append(("lms_number", from_number.key))
        named = roster.by_name_all(lms.name)
        if len(named) == 1:
            evidence.append(("lms_name", named[0].key))
        elif len(named) > 1:
            ambiguous = named
    stem = file_stem_without_exercise(file_name, exercise)
    in_name = roster.in_file_name(stem) or roster.in_file_name(PurePosixPath(file_name).stem)
    if in_name is not None:
        evidence.append(("file_name", in_name.key))
    by_key = {s.key: s for s in roster.students}
    # the strongest sources first: the ID cell, the LMS's number, then the names
    strong = [key for source, key in evidence if source in ("id_cell", "lms_number")]
    weak = [key for source, key in evidence if source not in ("id_cell", "lms_number")]
    chosen = strong[0] if strong else (weak[0] if weak else None)
    if chosen is None and not ambiguous and in_name is None:
        ambiguous = roster.names_in_file_name(stem)
        ambiguous = ambiguous if len(ambiguous) > 1 else []
    if chosen is None and ambiguous:
        # a name two roster rows share and nothing else decides (an ID cell that is no rostered student's,
        # such as a mistyped 2026O15, decides nothing): held, never an off-roster student of its own
        names = ", ".join(s.id for s in ambiguous)
        if lms is not None:
            name = lms.name or ambiguous[0].name
            student = Student(key=f"?{lms.system}:{lms.participant or lms.user_id or name}", name=name)
            student = replace(student, participant=lms.participant, canvas_id=lms.user_id)
        else:
            name = ambiguous[0].name
            student = Student(key=f"?{stem}", name=name)
        detail = f"{name}: {names}" + (f"; id_cell={id_cell}" if id_cell else "")
        return Identity(student, "ambiguous_name", detail, tuple(evidence))
    if chosen is not None and ambiguous and chosen not in {s.key for s in ambiguous}:
        # the LMS's name is shared by several students, none of them the one the ID cell names
        evidence.append(("lms_name", ambiguous[0].key))
    if chosen is not None:
        student = by_key[chosen]
        named = {key for _, key in evidence}
        if len(named) > 1:
            # held for the teacher, filed under who handed it in: the LMS account, else the ID cell's student
            uploader = [key for source, key in evidence if source in ("lms_number", "lms_name")]
            student = by_key[uploader[0]] if uploader else student
            if lms is not None and (from_number is None or from_number.key == student.key) and uploader:
                student = replace(
                    student,
                    participant=student.participant or lms.participant,
                    canvas_id=student.canvas_id or lms.user_id,
                )
            detail = "; ".join(f"{source}={by_key[key].id}" for source, key in evidence)
            return Identity(student, "identity_conflict", detail, tuple(evidence))
        problem = "id_mismatch" if id_cell and student.id != id_cell else ""
        if lms is not None and (from_number is None or from_number.key == student.key):
            # the LMS's numbers only when the LMS names this same student (or names no one by number)
            student = replace(
                student,
                participant=student.participant or lms.participant,
                canvas_id=student.canvas_id or lms.user_id,
            )
        return Identity(student, problem, id_cell if problem else "", tuple(evidence))
    name = (lms.name if lms is not None else "") or stem
    if id_cell:
        student = Student(key=id_cell, id=id_cell, name=name, participant=getattr(lms, "participant", ""))
        if lms is not None:
            student = replace(student, canvas_id=lms.user_id)
    elif lms is not None:
        student = Student(key=f"{lms.system}:{lms.participant or lms.user_id or lms.name}", name=lms.name)
        student = replace(student, participant=lms.participant, canvas_id=lms.user_id)
    else:
        student = Student(key=stem, name=stem)
    return Identity(student, "not_in_roster" if roster.students else "", "", ())
