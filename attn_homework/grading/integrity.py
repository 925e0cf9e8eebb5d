"""What a teacher must look at before a mark goes to the LMS: the submissions *held for review*.

A submission is held (its mark is computed and shown, but it is left out of ``moodle_grades.csv``,
``moodle_worksheet.csv`` and ``canvas_grades.csv`` until the teacher decides) when:

- ``teacher_version``: it is the teacher's notebook (solution markers, or a cell only the teacher version has);
- ``identity_conflict``: two sources (ID cell, LMS number, LMS name, file name) name two different students;
- ``ambiguous_name``: its only source is a name two roster rows share;
- ``other_students_data``: its answers are wrong for its own student's data but right for another rostered
  student's (a per-student assignment: someone else's notebook with the ID cell changed);
- ``check_cells_changed``: a handed-out ``check(...)`` cell was edited or deleted;
- ``reference_code``: a cell the student wrote imports the checker's internals (``attn_homework.checker``, …)
  or calls ``attn_core``'s functions (``attention``, ``softmax``, …): the tasks ask for one's own code; or
  reaches code without an import these checks read (``__import__``, ``importlib``, ``sys.modules``,
  ``f.__globals__``, ``exec``, …: ``_hidden_reach``). A static reading: it sees what the cell's text says;
  code built at run time from pieces it cannot name it finds only by those means of building it;
- ``unknown_release``: it says it comes from a release the grader was not given (or matches two), so the
  data it was graded with are not known for sure.

The teacher decides in ``review.csv`` in the grading folder (``review``): the grader writes a row per held
submission, with an empty ``decision``; ``accept`` lets the mark go, ``reject`` drops the submission (the
student's other submission of that exercise counts, if any), a number is the percentage to give instead.
"""

import ast
import re

REVIEW = (
    "teacher_version",
    "identity_conflict",
    "ambiguous_name",
    "other_students_data",
    "check_cells_changed",
    "reference_code",
    "unknown_release",
)
# A held submission that may not take the place of another submission of its student and exercise.
SEPARATE = ("identity_conflict", "ambiguous_name")

# What a student's own cells may use of the course's packages: the public homework calls and set_lang.
ALLOWED_HOMEWORK = {"check", "data", "progress", "predicted", "set_student_id", "tasks", "exercise_names"}
ALLOWED_CORE = {"set_lang", "get_lang", "lang"}
_TEACHER_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")
# Ways to reach a module, a function's globals or the checker without naming them in an import, which the
# import and call checks above would see: no task needs any of them, so a cell using one is held too.
_HIDDEN_CALLS = {"__import__", "exec", "eval", "compile", "globals", "vars", "breakpoint"}
_HIDDEN_MODULES = {"importlib", "ctypes", "gc", "inspect", "builtins", "pickle", "marshal", "types"}
_HIDDEN_ATTRIBUTES = {
    "modules",  # sys.modules
    "__dict__", "__globals__", "__builtins__", "__code__", "__closure__", "__wrapped__", "__self__",
    "__func__", "__subclasses__", "__bases__", "__mro__", "__getattribute__", "__loader__", "__spec__",
}  # fmt: skip


def needs_review(record):
    """The review codes of a record's notes, in ``REVIEW``'s order."""
    codes = {n.code for n in record.notes}
    return [code for code in REVIEW if code in codes]


def ambiguous_candidates(record):
    """The student numbers an ``ambiguous_name`` record may be the submission of (its note's detail,
    "王伟: 2026014, 2026015[; id_cell=…]"); () for any other record."""
    for note in record.notes:
        if note.code == "ambiguous_name" and ": " in note.detail:
            numbers = note.detail.split("; ")[0].rpartition(": ")[2]
            return tuple(n.strip() for n in numbers.split(",") if n.strip())
    return ()


def is_teacher_version(nb):
    """True for the teacher's notebook: solution markers in a code cell, or a cell tagged teacher-only."""
    for cell in nb.cells:
        if cell.cell_type == "code" and any(m in cell.source for m in _TEACHER_MARKERS):
            return True
        if "teacher-only" in (cell.get("metadata", {}).get("tags") or []):
            return True
    return False


def check_cells_changed(changes):
    """The cell numbers of handed-out ``check(…)`` cells that were edited or deleted (``handout.Change``)."""
    return [c.number for c in changes if c.kind in ("edited", "deleted") and c.first_line.startswith("check(")]


def _aliases(tree):
    """(names bound to attn_core functions, names bound to attn_core / attn_homework modules) by imports."""
    functions, modules, homework = set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top == "attn_core":
                    modules.add(alias.asname or top)
                elif top == "attn_homework":
                    (homework if alias.name == "attn_homework" else modules).add(alias.asname or top)
        elif isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".")[0]
            if top == "attn_core":
                for alias in node.names:
                    if node.module != "attn_core" or alias.name not in ALLOWED_CORE:
                        functions.add(alias.asname or alias.name)
    return functions, modules, homework


def _uses(tree, functions, modules, homework):
    """The course functions a cell's code uses: ``what`` strings such as ``attn_core.softmax``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".")[0]
            if top == "attn_homework" and (
                node.module != "attn_homework" or any(a.name not in ALLOWED_HOMEWORK for a in node.names)
            ):
                found.append(node.module)
            elif top == "attn_core" and not (
                node.module == "attn_core" and all(a.name in ALLOWED_CORE for a in node.names)
            ):
                found.append(node.module + "." + ",".join(a.name for a in node.names))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("attn_homework.") or alias.name.startswith("attn_core."):
                    found.append(alias.name)
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in functions:
                found.append(func.id)
            elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                if func.value.id in modules:
                    found.append(f"{func.value.id}.{func.attr}")
                elif func.value.id in homework and func.attr not in ALLOWED_HOMEWORK:
                    found.append(f"{func.value.id}.{func.attr}")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in homework and node.attr not in ALLOWED_HOMEWORK and not node.attr.startswith("__"):
                found.append(f"{node.value.id}.{node.attr}")
    return found


def _hidden_reach(tree):
    """The dynamic imports and introspection in a cell's code (``__import__``, ``importlib``, ``sys.modules``,
    ``f.__globals__``, ``exec``, …): what a cell would use to reach the course's functions or patch the
    checker without an import the checks above read."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in _HIDDEN_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in _HIDDEN_MODULES:
            found.append(node.module)
        elif isinstance(node, ast.Name) and node.id in _HIDDEN_CALLS | {"__builtins__"}:
            found.append(node.id)
        elif isinstance(node, ast.Attribute) and node.attr in _HIDDEN_ATTRIBUTES:
            if node.attr != "modules" or (isinstance(node.value, ast.Name) and node.value.id == "sys"):
                found.append(("sys." if node.attr == "modules" else ".") + node.attr)
    return found


def reference_code(nb, handed_out_hashes, cell_hash):
    """[(cell number, what it uses)] for the code cells the student wrote (not exactly as handed out) that
    import the checker's internals or call attn_core's functions; names imported in any cell count."""
    trees = []
    for number, cell in enumerate(nb.cells, start=1):
        if cell.cell_type != "code" or not cell.source.strip():
            continue
        try:
            trees.append((number, cell, ast.parse(cell.source)))
        except (SyntaxError, ValueError):
            continue
    functions, modules, homework = set(), set(), {"homework"}
    for _, _, tree in trees:
        f, m, h = _aliases(tree)
        functions |= f
        modules |= m
        homework |= h
    found = []
    for number, cell, tree in trees:
        if cell_hash(cell) in handed_out_hashes:
            continue
        uses = sorted(set(_uses(tree, functions, modules, homework) + _hidden_reach(tree)))
        if uses:
            found.append((number, ", ".join(uses)[:200]))
    return found


_NUMBER = re.compile(r"^\s*-?\d+(?:\.\d+)?\s*%?\s*$")


def decision_percent(decision):
    """The percentage a review decision gives (a number, "85" or "85%"), else None."""
    if decision and _NUMBER.match(decision):
        return max(0.0, min(100.0, float(decision.strip().rstrip("%"))))
    return None
