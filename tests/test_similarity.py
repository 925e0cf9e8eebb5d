"""The similarity hints (``grading/similarity.py``): in the class of ``grading_class.build_large`` the hints
are exactly the planted pairs (a copied notebook with its variables renamed, two students sharing an unusual
wrong answer, two students whose answers use a classmate's data), never a pair of honest students with the
same right answer or the same well-known mistake; the evidence is on the page; nothing is loaded or sent.
"""

import csv
import html
import re
import shutil
import subprocess
import sys

import nbformat
import pytest

from attn_homework.grading import similarity
from attn_homework.grading.classreport import lesson_folder

from . import grading_class as cls
from .repo import ROOT


def rows_of(path):
    with open(path, encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def number(student):
    return student.split()[-1].lstrip("'")


def found(rows):
    """The hints as ``PLANTED`` writes them: a pair of copies or of equal wrong answers in either order, the
    student who used the data and the student it belongs to, in that order."""
    out = set()
    for r in rows:
        a, b = number(r["student_a"]), number(r["student_b"])
        if r["kind"] != "data":
            a, b = sorted((a, b))
        out.add((r["kind"], r["exercise"], r["task"], a, b))
    return out


def planted():
    return {(k, e, t, *((a, b) if k == "data" else sorted((a, b)))) for k, e, t, a, b in cls.PLANTED}


# ---------------------------------------------------------------- what the task forces (no kernel)


def test_the_teachers_solution_and_the_starter_code_are_not_a_students_own_code():
    forced = similarity.template("ex02_scores")
    teacher = nbformat.read(lesson_folder("zh") / "exercises" / "teacher" / "ex02_scores.ipynb", as_version=4)
    code = [c.source for c in teacher.cells if c.cell_type == "code"]
    assert similarity.answer_text(code, forced) == ""  # the teacher's notebook itself
    solution_only = ["QKT = Q @ K.T", "def fixed_scores(Q, K):\n    return Q @ K.T"]
    assert similarity.answer_text(solution_only, forced) == ""
    id_cell = '# 学号：本练习的新数据按你的学号生成\nhomework.set_student_id("2025017")  # ← 把 ... 换成你的学号'
    own = "rows = Q.shape[0]\nQKT = np.zeros((rows, rows))"
    assert similarity.answer_text([id_cell, own], forced) == own


# ---------------------------------------------------------------- a graded class


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    run, out, built = cls.grade_large(tmp_path_factory.mktemp("similarity"))
    assert run.returncode == 0, run.stderr[-3000:]
    return run, out, built


@pytest.mark.kernel
def test_the_hints_are_exactly_the_planted_pairs(graded):
    _, out, _ = graded
    assert found(rows_of(out / similarity.CSV_NAME)) == planted()


@pytest.mark.kernel
def test_no_pair_among_honest_students_with_the_same_answer(graded):
    _, out, _ = graded
    rows = rows_of(out / similarity.CSV_NAME)
    design = cls.large_design()
    same_right = [
        n for (n, e), (answers, keep, _) in design.items() if e == "ex03_scaling" and answers == cls.EX03_WAYS[2]
    ]
    transposed = [n for (n, e), (answers, _, _) in design.items() if e == "ex02_scores" and "K @ Q.T" in answers["2.1"]]
    assert len(same_right) >= 3 and len(transposed) == 4  # the cases are in the class...
    involved = {number(r["student_a"]) for r in rows} | {number(r["student_b"]) for r in rows}
    owners = {p[4] for p in cls.PLANTED if p[0] == "data"}  # whose data a classmate used: in a pair, rightly
    assert not involved & (set(same_right + transposed) - owners)  # ...and make no pair


@pytest.mark.kernel
def test_the_evidence_is_side_by_side(graded):
    _, out, _ = graded
    page = html.unescape(re.sub(r"</?mark>", "", (out / similarity.HTML_NAME).read_text(encoding="utf-8")))
    sections = {
        m.group(1): m.group(0)
        for m in re.finditer(r'<section class="pair" data-kind="(\w+)">.*?</section>', page, re.S)
        if m.group(1) != "data"
    }
    copied = sections["code"]
    assert "n_queries, n_keys = Q.shape[0], K.shape[0]" in copied and "rows, cols = Q.shape[0], K.shape[0]" in copied
    assert "set_student_id" not in copied  # the ID cell is the release's, not the student's
    wrong = sections["wrong"]
    assert wrong.count(cls.ODD_3_1) == 2
    shared = next(r for r in rows_of(out / similarity.CSV_NAME) if r["kind"] == "wrong")["numbers"]
    shared = shared.removeprefix("'").split()  # a leading minus is quoted for spreadsheets (no formula)
    assert ", ".join(shared) in wrong
    data = [s for s in re.findall(r'<section class="pair" data-kind="data">.*?</section>', page, re.S)]
    assert any("陈一 2024001" in s and "郑十 2024012" in s for s in data)


@pytest.mark.kernel
def test_nothing_is_loaded_or_sent_and_no_mark_changes(graded):
    _, out, _ = graded
    for name in (similarity.HTML_NAME, "class_report.html"):
        page = (out / name).read_text(encoding="utf-8")
        assert "<script" not in page and "<link" not in page and "@import" not in page
        assert not re.search(r"""(?:src|href|url)\s*[=(]\s*["']?https?:""", page)  # only the SVG namespace names a URL
    page = (out / similarity.HTML_NAME).read_text(encoding="utf-8")
    assert "takes no marks off and uploads nothing" in page
    assert "Common short answers" in page and "worked together legitimately" in page and "Paraphrased" in page
    # the hints are not statuses: the submissions of the copied pair are not held, their marks are theirs
    rows = {r["student_id"]: r for r in rows_of(out / "submissions.csv")}
    assert rows["2025017"]["final_percent"] == rows["2025018"]["final_percent"] == "100"
    assert "2025017" not in {r["student_id"] for r in rows_of(out / "review.csv")}


@pytest.mark.kernel
def test_both_languages_and_without_copydetect(graded, tmp_path):
    _, out, _ = graded
    run = subprocess.run(
        [sys.executable, "-m", "attn_homework.grade", "--report", str(out), "--lang", "zh"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    page = (out / similarity.HTML_NAME).read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in page and "相似提示（不是结论）" in page and "合法的合作" in page
    assert found(rows_of(out / similarity.CSV_NAME)) == planted()
    subprocess.run([sys.executable, "-m", "attn_homework.grade", "--report", str(out), "--lang", "en"], cwd=ROOT)
    # without copydetect: said on the page, the other kinds as before
    copy = tmp_path / "grading"
    shutil.copytree(out, copy)
    script = (
        "import sys; from attn_homework.grading import similarity as s, cli; s._copydetect = lambda: None; "
        f"sys.exit(cli.main(['--report', {str(copy)!r}, '--lang', 'en']))"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "copydetect is not installed" in (copy / similarity.HTML_NAME).read_text(encoding="utf-8")
    assert found(rows_of(copy / similarity.CSV_NAME)) == {p for p in planted() if p[0] != "code"}


# ---------------------------------------------------------------- hints from kept evidence (no kernel)

from attn_homework.grading.checking import TaskResult  # noqa: E402
from attn_homework.grading.results import Graded  # noqa: E402
from attn_homework.grading.roster import Student  # noqa: E402
from attn_homework.student import BEGIN, END  # noqa: E402


def _in_place(source):
    """A teacher cell as a student writes it: the solution replacing the starter's ``...`` line in place."""
    lines = [line for line in source.splitlines() if line.strip() not in (BEGIN, END) and " = ...  #" not in line]
    return "\n".join(lines)


def _ex06(change=None, edition="zh"):
    """The teacher's ex06 written in place; ``change`` (old, new) made once, in the first answer it fits."""
    teacher = nbformat.read(lesson_folder(edition) / "exercises" / "teacher" / "ex06_full_pipeline.ipynb", as_version=4)
    cells = [_in_place(c.source) if BEGIN in c.source else c.source for c in teacher.cells if c.cell_type == "code"]
    if change:
        i = next(i for i, c in enumerate(cells) if change[0] in c and "### BEGIN" not in c and "O = " in c)
        cells[i] = cells[i].replace(*change, 1)
    return cells


def _class(codes, exercise="ex06_full_pipeline", tasks=()):
    group, evidence = [], {}
    for i, code in enumerate(codes):
        number = f"20260{i + 1:02d}"
        record = Graded(f"m/{number}/{exercise}.ipynb", f"h{i}", exercise, Student(number, number, f"S{i}"))
        record.tasks = list(tasks[i]) if tasks else []
        group.append(record)
        evidence[(record.sha256, exercise)] = {"code": code, "wrong": {}, "data_id": None}
    return group, evidence


def test_students_who_all_wrote_the_teachers_solution_in_place_make_no_pair():
    """Class trial 4: ten students' ex06 was the teacher's solution written over the ``...`` (three with one
    line changed, one in the English edition); 45 pairs were listed at 100 %. None is a student's own code."""
    pytest.importorskip("copydetect")
    one_line = ("S.max(axis=1", "np.max(S, axis=1")
    codes = [_ex06(), _ex06(), _ex06(), _ex06(edition="en"), _ex06(one_line), _ex06(one_line)]
    group, evidence = _class(codes)
    assert similarity.code_hints(group, evidence) == []


def test_a_one_line_common_mistake_is_never_a_code_pair():
    pytest.importorskip("copydetect")
    wrong = ("E.sum(axis=1, keepdims=True)", "E.sum(axis=0, keepdims=True)")
    group, evidence = _class([_ex06(wrong), _ex06(wrong), _ex06()])
    assert similarity.code_hints(group, evidence) == []


def test_a_renamed_helper_copied_between_two_students_is_still_found():
    pytest.importorskip("copydetect")
    helper = (
        "def {f}({a}, {b}, {c}):\n    {d} = {a}.shape[1]\n    {s} = ({a} @ {b}.T) / np.sqrt({d})\n"
        "    {m} = {s}.max(axis=1, keepdims=True)\n    {e} = np.exp({s} - {m})\n"
        "    {t} = {e}.sum(axis=1, keepdims=True)\n    {w} = {e} / {t}\n    return {w} @ {c}\n"
        "O = ...  # ← 把 ... 换成你的答案\nO = {f}(Q, K, V)\n"
    )
    first = dict(f="attend", a="q", b="k", c="v", d="dk", s="scores", m="top", e="ex", t="tot", w="wts")
    second = dict(f="my_attn", a="qq", b="kk", c="vv", d="dim", s="sc", m="mx", e="ee", t="ss", w="ww")
    codes = [_ex06(), _ex06(), _ex06()]
    codes[1][2], codes[2][2] = helper.format(**first), helper.format(**second)
    group, evidence = _class(codes)
    (hint,) = similarity.code_hints(group, evidence)
    assert {hint.a.student.id, hint.b.student.id} == {"2026002", "2026003"}
    assert "O = ..." not in hint.left and "set_lang" not in hint.left  # the handout's lines are not evidence


def _wrong(task_id, code, data):
    return TaskResult(task_id, code, "", None), {"kind": "array", "shape": [len(data)], "data": data}


def test_a_shared_unusual_wrong_answer_is_flagged_even_with_a_symptom_label_but_never_for_nan_only():
    """Class trial 4: 梁宇 and 谢婷 share ``E / (E.sum(...) + 1)`` on the same data; the checker calls it
    ``not_normalized`` (a symptom, not a mechanism that forces everyone's numbers), and the pair was missed.
    冯刚 and 魏来's overflow gives only NaN: listed as a shared answer, wrongly."""
    numbers = [[0.1, 0.2, 0.3], [0.1, 0.2, 0.3], [float("nan")] * 3, [float("nan")] * 3, [0.5, 0.5, 0.0]]
    labels = ["not_normalized", "not_normalized", "wrong_values", "wrong_values", "ok"]
    group, evidence = _class([[]] * 5, "ex04_softmax")
    for record, code, data in zip(group, labels, numbers):
        result, answer = _wrong("4.1", code, data)
        record.tasks = [result]
        if code != "ok":
            evidence[(record.sha256, record.exercise)]["wrong"] = {"4.1": answer}
    group += _class([[]] * 20, "ex04_softmax")[0][5:]  # 25 submissions: 10 % is 2
    pairs = {(h.a.student.id, h.b.student.id) for h in similarity.wrong_hints(group, evidence)}
    assert pairs == {("2026001", "2026002")}
