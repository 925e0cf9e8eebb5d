"""The homework registry and its wiring into the exercise notebooks.

The checker's own diagnoses are tested in the checker's tests; here: every task in the notebooks is
registered (and vice versa), each check cell is one line, the teacher's solutions pass, the
placeholder is "not attempted", ``check`` never raises, and the data the grader rebuilds are the
data the notebook shows.
"""

import contextlib
import io
import re

import nbformat
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import attn_homework as homework
from attn_core import core
from attn_homework import MISSING, check, diagnose_task, verdicts
from attn_homework.student import has_solution

from .repo import TEACHER_DIR

EXERCISES_DIR = TEACHER_DIR.parent
CHECK_LINE = re.compile(r'^check\("(\d+\.\d+)"\)$')
ALL_IDS = list(homework.TASKS)


def _teacher(name):
    return nbformat.read(TEACHER_DIR / f"{name}.ipynb", as_version=4)


def _check_cells(nb):
    """Task ids of the cells that call check(...), in order."""
    return [m.group(1) for c in nb.cells if c.cell_type == "code" and (m := CHECK_LINE.match(c.source))]


def _printed(fn, *args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn(*args)
    return out.getvalue()


def _run_cells(nb):
    """Execute a notebook's code cells in one namespace, in process (fast; no kernel); return it."""
    ns = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in nb.cells:
            if cell.cell_type == "code":
                exec(compile(cell.source, "<cell>", "exec"), ns)
    return ns


# ---------------------------------------------------------------- the registry


def test_there_are_enough_tasks_and_every_step_has_its_exercise():
    assert len(homework.TASKS) >= 15
    for name in homework.EXERCISES:
        assert homework.tasks(name), f"{name} has no task"
    steps = {t.step for t in homework.tasks()}
    assert {"projection", "scores", "scaled_scores", "softmax", "weighted_sum", "output", "causal_mask"} <= steps


def test_task_ids_and_answer_variables_are_unique_per_exercise():
    for name in homework.EXERCISES:
        variables = [t.var for t in homework.tasks(name)]
        assert len(variables) == len(set(variables)), name
        assert all(t.id.startswith(f"{int(name[2:4])}.") for t in homework.tasks(name))


def test_some_tasks_use_fresh_data_with_unequal_sizes():
    """Square four-word matrices hide transposes; the fresh data have n_q ≠ n_k and d_k ≠ d_v."""
    uneven_n, uneven_d = [], []
    for t in homework.tasks():
        g = t.given()
        if "Q" in g and "K" in g and g["Q"].shape[0] != g["K"].shape[0]:
            uneven_n.append(t.id)
        if "K" in g and "V" in g and g["K"].shape[1] != g["V"].shape[1]:
            uneven_d.append(t.id)
    assert len(uneven_n) >= 2 and len(uneven_d) >= 2, (uneven_n, uneven_d)


@pytest.mark.parametrize("task_id", ALL_IDS)
def test_data_are_rebuilt_identically_and_never_shared(task_id):
    first, second = homework.data(task_id), homework.data(task_id)
    assert first.names() == second.names()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    before = homework.task(task_id).given()
    for a in first:  # a learner scribbling on the data changes nothing the grader uses
        if isinstance(a, np.ndarray):
            a[...] = 7
    after = homework.task(task_id).given()
    for key, value in before.items():
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(value, after[key])


def test_data_unpacks_in_order_and_reads_by_name():
    Q, K = homework.data("2.2")
    d = homework.data("2.2")
    assert d.names() == ("Q_new", "K_new")
    assert Q.shape == (3, 4) and K.shape == (5, 4)
    np.testing.assert_array_equal(d.Q_new, Q)
    np.testing.assert_array_equal(d["K_new"], d[1])
    assert repr(d) == "Q_new: 3 × 4\nK_new: 5 × 4"
    with pytest.raises(AttributeError):
        _ = d.V


def test_four_word_data_are_the_course_example():
    from attn_core.examples import four_words

    ex = four_words()
    trace = ex.attention()
    Q, K = homework.data("2.1")
    # the same numbers as the lesson's; the task's are exact, the lesson's come from BLAS (last bits may differ)
    np.testing.assert_allclose(Q, trace.Q, rtol=1e-13)
    np.testing.assert_allclose(K, trace.K, rtol=1e-13)
    np.testing.assert_allclose(homework.data("4.1").S, trace.S, rtol=1e-13)
    np.testing.assert_allclose(homework.data("5.1").A, trace.A, atol=1e-6)


def test_huge_scores_really_overflow_a_naive_softmax():
    S = homework.data("4.3").S_big
    with np.errstate(all="ignore"):
        naive = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
    assert np.isnan(naive).all()
    assert np.isfinite(core.softmax(S)).all()


def test_unknown_ids_are_reported_with_the_known_ones():
    with pytest.raises(KeyError, match="2.1"):
        homework.task("99.1")
    with pytest.raises(KeyError, match="9.1, 9.2"):
        homework.task("9.9")
    with pytest.raises(KeyError, match="ex01_projection"):
        homework.tasks("ex99")
    assert homework.exercise_name("ex04") == "ex04_softmax"
    assert diagnose_task("9.9", 1).code == "bad_task"


# ---------------------------------------------------------------- the classic mistakes reach the checker


def _softmax_rows(S, axis=1):
    E = np.exp(S - S.max(axis=axis, keepdims=True))
    return E / E.sum(axis=axis, keepdims=True)


def _naive_softmax(S):
    with np.errstate(all="ignore"):
        return np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)


def _mistakes():
    """(task, wrong answer, code the learner should see): one classic mistake per step."""
    Q, K = homework.data("2.2")
    S4 = homework.data("4.2").S_new
    A, K5, V = homework.data("5.1")
    Qc, Kc = homework.data("7.2")
    causal = np.tril(np.ones((4, 4), dtype=bool))
    Q3, K3 = homework.data("3.2")
    X, W_q, _ = homework.data("1.4")
    Q6, K6, V6 = homework.data("6.2")
    return [
        ("1.4", W_q.T @ X.T, "transposed"),
        ("2.2", K @ Q.T, "transposed"),
        ("3.2", Q3 @ K3.T / 16, "scaled_by_dk"),
        ("3.2", Q3 @ K3.T, "unscaled"),
        ("4.2", _softmax_rows(S4, axis=0), "softmax_axis"),
        ("4.2", np.exp(S4), "not_normalized"),
        ("4.3", _naive_softmax(homework.data("4.3").S_big), "overflow"),
        ("5.1", A @ K5, "used_keys_not_values"),
        ("5.1", homework.data("4.1").S @ V, "used_scores_not_weights"),
        ("6.2", (Q6 @ K6.T / 2) @ V6, "used_scores_not_weights"),
        ("7.1", ~causal, "mask_inverted"),
        ("7.1", causal.T, "mask_upper"),
        ("7.1", np.tril(causal, -1), "mask_no_diagonal"),
        ("7.2", _softmax_rows(Qc @ Kc.T / np.sqrt(3)) * causal, "mask_after_softmax"),
    ]


@pytest.mark.parametrize("task_id, answer, code", _mistakes(), ids=lambda x: x if isinstance(x, str) else "")
def test_classic_mistakes_get_their_diagnosis(task_id, answer, code):
    with np.errstate(all="ignore"):
        d = diagnose_task(task_id, answer)
    assert (d.ok, d.code) == (False, code), d.message


# ---------------------------------------------------------------- check()


@pytest.mark.parametrize("task_id", ALL_IDS)
def test_placeholder_and_missing_variable_are_not_attempted(task_id):
    assert diagnose_task(task_id, ...).code == "not_attempted"
    assert diagnose_task(task_id, MISSING).code == "not_attempted"


def test_check_reads_the_variable_from_the_caller_and_never_raises():
    def notebook_scope(**variables):
        ns = {"check": check, **variables}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec('check("2.1")', ns)
        return out.getvalue()

    Q, K = homework.data("2.1")
    assert notebook_scope().startswith("⏳ 2.1 · ") and "QKT" in notebook_scope()
    assert notebook_scope(QKT=...).startswith("⏳ 2.1 · ")
    assert notebook_scope(QKT=Q @ K.T).startswith("✅ 2.1 · ")
    assert notebook_scope(QKT=K @ Q.T).startswith("❌ 2.1 · ")
    for odd in (None, "QKT", {"a": 1}, [[1, 2], [3]], object(), np.zeros((0, 4)), 3.0, True):
        text = notebook_scope(QKT=odd)
        assert text.count("\n") == 1 and text[0] in "❌⏳", (odd, text)
    unknown = _printed(check, "9.9")
    assert unknown.startswith("❌ 9.9 · ") and unknown.count("\n") == 1


def test_check_with_an_explicit_answer():
    Q, K = homework.data("2.2")
    assert _printed(check, "2.2", Q @ K.T).startswith("✅ 2.2 · QKT_new")


@given(
    task_id=st.sampled_from(ALL_IDS),
    shape=st.lists(st.integers(0, 6), min_size=0, max_size=3),
    fill=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 5), st.booleans()),
)
def test_check_prints_one_line_for_any_array(task_id, shape, fill):
    text = _printed(check, task_id, np.full(shape, fill))
    assert text.count("\n") == 1 and text[0] in "✅❌⏳"


def test_progress_lists_every_task_of_the_notebook():
    Q, K = homework.data("2.1")
    ns = {"homework": homework, "QKT": Q @ K.T}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec('homework.progress("ex02_scores")', ns)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("✅ 2.1") and lines[1].startswith("⏳ 2.2") and lines[2].startswith("⏳ 2.3")
    assert lines[3] == "共 3 题，已通过 1 题。"


# ---------------------------------------------------------------- the notebooks


def test_every_check_cell_is_a_registered_task_and_every_task_has_one():
    seen = {}
    for name in homework.EXERCISES:
        nb = _teacher(name)
        assert nb.metadata["attn_core"]["exercise"] == name
        ids = _check_cells(nb)
        assert ids == [t.id for t in homework.tasks(name)], name
        for task_id in ids:
            seen[task_id] = seen.get(task_id, 0) + 1
    assert seen == {task_id: 1 for task_id in homework.TASKS}


@pytest.mark.parametrize("name", list(homework.EXERCISES))
def test_check_cells_are_one_line_and_follow_their_answer_cell(name):
    nb = _teacher(name)
    code = [c for c in nb.cells if c.cell_type == "code"]
    for i, cell in enumerate(code):
        if "check(" in cell.source:
            assert CHECK_LINE.match(cell.source), cell.source
            task = homework.task(CHECK_LINE.match(cell.source).group(1))
            answer = code[i - 1].source
            assert has_solution(answer), f"the cell before check('{task.id}') holds no solution"
            placeholder = answer.split("### BEGIN SOLUTION")[0]
            assert re.search(rf"^{task.var} = \.\.\.", placeholder, re.M), placeholder
            assert f'homework.data("{task.id}")' in code[i - 2].source, "the data cell comes before the answer"


@pytest.mark.parametrize("name", list(homework.EXERCISES))
def test_teacher_solutions_pass_every_task(name):
    ns = _run_cells(_teacher(name))
    for task in homework.tasks(name):
        d = diagnose_task(task.id, ns.get(task.var, MISSING))
        assert d.ok, f"{task.id}: {d}"


@pytest.mark.parametrize("name", list(homework.EXERCISES))
def test_student_version_runs_and_every_task_is_not_attempted(name):
    nb = nbformat.read(EXERCISES_DIR / f"{name}.ipynb", as_version=4)
    ns = _run_cells(nb)
    assert [diagnose_task(t.id, ns.get(t.var, MISSING)).code for t in homework.tasks(name)] == ["not_attempted"] * len(
        homework.tasks(name)
    )


@pytest.mark.parametrize("name", list(homework.EXERCISES))
def test_notebook_opens_with_its_lesson_and_ends_with_a_summary(name):
    nb = _teacher(name)
    first, last = nb.cells[0].source, nb.cells[-1].source
    assert first.startswith(f"# 练习 {int(name[2:4])} · ")
    assert f"](../../{homework.EXERCISES[name].lesson})" in first  # from teacher/; rebased for students
    assert last.startswith("## 小结")
    for folder, book in ((TEACHER_DIR, nb), (EXERCISES_DIR, nbformat.read(EXERCISES_DIR / f"{name}.ipynb", 4))):
        for cell in book.cells:  # links work from where each version lives
            if cell.cell_type == "markdown":
                for target in re.findall(r"\]\(([^)#]+\.ipynb)\)", cell.source):
                    assert (folder / target).resolve().is_file(), f"{name}: broken link {target} in {folder}"


def test_notebook_text_is_chinese():
    for name in homework.EXERCISES:
        prose = "".join(c.source for c in _teacher(name).cells if c.cell_type == "markdown")
        hanzi = sum("\u4e00" <= ch <= "\u9fff" for ch in prose)
        assert hanzi > 200, name


# ---------------------------------------------------------------- predict and find-the-bug tasks in the notebooks

KINDS = {t.id: t.answer_kind for t in homework.tasks()}


@pytest.mark.parametrize("name", list(homework.EXERCISES))
def test_predict_tasks_show_their_answer_only_after_the_check_and_the_prediction(name):
    """The check cell comes before the cell that reveals the answer, and that cell reveals nothing until the
    prediction is written down (the committed student notebook shows no answer)."""
    code = [c.source for c in _teacher(name).cells if c.cell_type == "code"]
    for i, source in enumerate(code):
        m = CHECK_LINE.match(source)
        if m and KINDS[m.group(1)] == "number":
            assert code[i + 1].startswith(f'if homework.predicted("{m.group(1)}"):'), code[i + 1]
            assert re.search(rf"^{homework.task(m.group(1)).var} = \d", code[i - 1], re.M), "the answer is one number"


@pytest.mark.parametrize("name", list(homework.EXERCISES))
def test_find_the_bug_tasks_show_the_buggy_function_before_the_fix(name):
    code = [c.source for c in _teacher(name).cells if c.cell_type == "code"]
    for i, source in enumerate(code):
        m = CHECK_LINE.match(source)
        if m and KINDS[m.group(1)] == "function":
            var = homework.task(m.group(1)).var
            assert re.search(r"^def buggy_\w+\(", code[i - 2], re.M), "the data cell defines the buggy function"
            assert re.search(rf"^def {var}\(", code[i - 1], re.M), "the solution defines the fixed function"


@pytest.mark.parametrize("name", list(homework.EXERCISES))
def test_no_data_cell_overwrites_an_answer(name):
    """A later task's data must not rebind an earlier task's answer variable (progress would grade the data)."""
    answers = {t.var: t.id for t in homework.tasks(name)}
    for t in homework.tasks(name):
        clash = {n: answers[n] for n in t.data().names() if n in answers and answers[n] != t.id}
        assert not clash, f"task {t.id} hands out {clash}"


@pytest.mark.parametrize("folder", [TEACHER_DIR, TEACHER_DIR.parents[1] / "en" / "exercises" / "teacher"])
@pytest.mark.parametrize("name", list(homework.EXERCISES))
def test_every_think_about_it_prompt_has_a_model_answer_for_the_teacher(folder, name):
    nb = nbformat.read(folder / f"{name}.ipynb", as_version=4)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown" and ("想一想" in cell.source or "Think about it" in cell.source):
            answer = nb.cells[i + 1]
            assert "teacher-only" in answer.metadata.get("tags", []), (
                f"{name}: no model answer after {cell.source[:40]}"
            )
            assert answer.source.startswith(("> **参考答案**", "> **Model answer**"))


def test_predicted_asks_for_the_prediction_first():
    verdicts._REVEALED.clear()  # a check earlier in this process may have recorded one
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        ns = {"homework": homework, "top_key": ...}
        exec('shown = homework.predicted("4.5")', ns)
        assert ns["shown"] is False
        ns["top_key"] = 1
        exec('shown = homework.predicted("4.5")', ns)
        assert ns["shown"] is True
        exec('shown = homework.predicted("9.9")', ns)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("⏳") and "top_key" in lines[0] and len(lines) == 3 and "9.9" in lines[2]
    assert lines[1].startswith("📌 top_key = 1 ·")  # the prediction recorded at its reveal


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_prediction_retried_after_its_check_is_not_credited(lang):
    """Four tries would find any of four keys: the first number checked is the prediction that counts, in the
    kernel and for the grader (which reads the 📌 line the check printed)."""
    from attn_core import set_lang
    from attn_homework.checker.steps import STEP_TABLE

    set_lang(lang)
    verdicts._REVEALED.clear()
    try:
        t = homework.task("4.5")
        right = int(STEP_TABLE[t.step].givens(t.given()).expected)
        wrong = (right + 1) % 4
        ns = {"check": check, "top_key": 2.5}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec('check("4.5")', ns)  # a slip of form is not recorded
            ns["top_key"] = wrong
            exec('check("4.5")', ns)
            ns["top_key"] = right
            exec('check("4.5")', ns)
        lines = out.getvalue().splitlines()
        assert lines[0].startswith("❌") and lines[1].startswith(f"📌 top_key = {wrong} ·"), lines
        assert lines[2].startswith("❌") and lines[3].startswith("❌") and len(lines) == 4, lines
        assert verdicts.revealed_predictions([out.getvalue()]) == {"top_key": wrong}
        assert not verdicts.judge_prediction(t, right, diagnose_task("4.5", right), wrong).ok
    finally:
        verdicts._REVEALED.clear()
        set_lang("zh")


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("root", [3, 6])
def test_a_wrong_scale_in_8_3_does_not_say_8_2s_prediction(lang, root):
    """d_k per head is what 8.2 asks to predict: 8.3's hint about a wrong √ names the learner's root only."""
    from attn_core import set_lang

    set_lang(lang)
    try:
        Q_h, K_h, V_h = homework.data("8.3")
        S = Q_h @ np.swapaxes(K_h, -1, -2) / np.sqrt(root)
        E = np.exp(S - S.max(axis=-1, keepdims=True))
        d = diagnose_task("8.3", E / E.sum(axis=-1, keepdims=True) @ V_h)
        d_k = Q_h.shape[-1]
        assert not d.ok and f"√{root}" in d.message, d.message
        assert f"d_k = {d_k}" not in d.message and f"d_k={d_k}" not in d.message, d.message
    finally:
        set_lang("zh")
