"""Who handed a submission in: the optional roster, and the student found from the ID cell, the LMS's
folder or file name, or the file name.

A roster is a CSV file (UTF-8, or the GBK that Chinese Excel writes) with a header row: a student number
column (``id``, ``学号``, ``student_id``, ``ID number``, ``SIS User ID``) and a name column (``name``, ``姓名``,
``Full name``, ``Student``); optional ``email`` / ``邮箱``, ``login`` / ``SIS Login ID``, ``canvas_id`` / ``ID``
(Canvas's own user ID), ``section`` / ``班级``, and ``Identifier`` (Moodle's "Participant 123"). A Moodle
grading worksheet or a Canvas gradebook export can serve as the roster as it is.

Reports name students as the roster knows them when the report is written (``Roster.resolve``), so a
result graded before a roster was given gets its name, e-mail and class once one is.

A submission's student, in this order: the number in its ID cell (``homework.set_student_id("…")``) if the
roster has it; the LMS's participant or user ID; the LMS's name for the student; a roster number, then a
roster name, inside the file name. Without a roster: the ID cell's number, else the LMS's name, else the
file name without the exercise's name.
"""

import csv
import io
import re
from dataclasses import dataclass, field, replace
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
}


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

    @classmethod
    def read(cls, path):
        path = Path(path)
        text = _decode(path.read_bytes(), path)
        rows = list(csv.reader(io.StringIO(text)))
        header_at = next((i for i, row in enumerate(rows[:5]) if _header_columns(row).get("id") is not None), None)
        if header_at is None:
            raise RosterError(msg("roster_no_id", path=path, columns=", ".join(_COLUMNS["id"][:6])))
        columns = _header_columns(rows[header_at])
        students, seen = [], set()
        for row in rows[header_at + 1 :]:

            def cell(kind, row=row):
                index = columns.get(kind)
                return row[index].strip() if index is not None and index < len(row) else ""

            number = cell("id")
            if not number or number in seen or "points possible" in " ".join(row).lower():
                continue
            seen.add(number)
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
        return cls(students)

    def by(self, attribute, value):
        if not value:
            return None
        for student in self.students:
            if getattr(student, attribute) == value:
                return student
        return None

    def by_name(self, name):
        wanted = _name_key(name)
        if not wanted:
            return None
        for student in self.students:
            if _name_key(student.name) == wanted or (student.login and _name_key(student.login) == wanted):
                return student
        return None

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
        names = [s for s in self.students if len(_name_key(s.name)) >= 2 and _name_key(s.name) in _name_key(stem)]
        return names[0] if len(names) == 1 else None


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


def identify(roster, lms, id_cell, file_name, exercise):
    """(Student, problem) for a submission; problem is "" or "id_mismatch" (the ID cell names another
    student than the LMS or the roster does) or "not_in_roster"."""
    roster = roster or Roster()
    from_id = roster.by("id", id_cell)
    from_lms = None
    if lms is not None:
        from_lms = (
            roster.by("participant", lms.participant) or roster.by("canvas_id", lms.user_id) or roster.by_name(lms.name)
        )
    stem = file_stem_without_exercise(file_name, exercise)
    student = from_lms or from_id or roster.in_file_name(stem) or roster.in_file_name(PurePosixPath(file_name).stem)
    if student is not None:
        problem = ""
        if id_cell and student.id != id_cell:
            problem = "id_mismatch"
        if lms is not None:
            student = replace(
                student,
                participant=student.participant or lms.participant,
                canvas_id=student.canvas_id or lms.user_id,
            )
        return student, problem
    name = lms.name if lms is not None else ""
    if id_cell:
        student = Student(key=id_cell, id=id_cell, name=name, participant=getattr(lms, "participant", ""))
    elif lms is not None:
        student = Student(key=f"{lms.system}:{lms.participant or lms.user_id or lms.name}", name=lms.name)
        student = replace(student, participant=lms.participant, canvas_id=lms.user_id)
    else:
        student = Student(key=stem, name=stem)
    return student, ("not_in_roster" if roster.students else "")
