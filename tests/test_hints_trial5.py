"""The fifth student trial (1446 cases, student notebooks only): each wrong answer accepted, each right answer
rejected, each confidently wrong hint, the leak and the traceback it found, as a test with the student's own
code, in both languages where the text differs. In the order of harm."""

import contextlib
import io
import sys
import textwrap
import time

import numpy as np
import pytest

import attn_core
import attn_homework as homework
from attn_core import rope, trained
from attn_core.lang import set_lang
from attn_homework import diagnose_task, verdicts


@pytest.fixture(params=["zh", "en"])
def lang(request):
    set_lang(request.param)
    yield request.param
    set_lang("zh")


@pytest.fixture(autouse=True)
def _fresh_state():
    verdicts._REVEALED.clear()
    verdicts._LAST_CHECKED.clear()
    yield
    verdicts._REVEALED.clear()
    verdicts._LAST_CHECKED.clear()


def words(lang, zh, en):
    return {"zh": zh, "en": en}[lang]


def softmax(S, axis=-1):
    E = np.exp(S - S.max(axis=axis, keepdims=True))
    return E / E.sum(axis=axis, keepdims=True)


@pytest.fixture
def shell():
    from IPython.core.interactiveshell import InteractiveShell

    sh = InteractiveShell.instance()
    sh.run_cell("import numpy as np\nimport attn_homework as homework\nfrom attn_homework import check")
    yield sh
    InteractiveShell.clear_instance()


def run_in_shell(shell, cells):
    """Run cells in an IPython shell as a notebook would; the printed output of the last one."""
    out = io.StringIO()
    for source in cells[:-1]:
        shell.run_cell(source, store_history=True, silent=False)
    with contextlib.redirect_stdout(out):
        shell.run_cell(cells[-1], store_history=True)
    return out.getvalue().strip()


def checked(shell, task_id, code):
    """The line ``check(task_id)`` prints after the task's data and the student's answer cell ``code``."""
    shell.user_ns.update(homework.TASKS[task_id].inputs())
    return run_in_shell(shell, [code, f'check("{task_id}")'])


# ---------------------------------------------------------------- (a) attn_core's reference is not one's own code

REFERENCE_IN_A_CELL = [  # (task, the student's answer cell, the reference it names)
    ("12.3", "from attn_core import rope\nq_rot = rope(q_new[None], np.array([p]))[0]", "attn_core.rope"),
    ("12.3", "from attn_core import rope\nq_rot = rope(q_new, p)", "attn_core.rope"),
    ("12.4", "from attn_core import rope\nK_rot = rope(K_new, np.arange(5), layout='half')", "attn_core.rope"),
    (
        "12.6",
        "from attn_core import rope\n"
        "scores_shifted = np.array([rope(q[None], [i + s])[0] @ rope(k[None], [j + s])[0] for s in shifts])",
        "attn_core.rope",
    ),
    (
        "15.1",
        "from attn_core import trained\nprev_scores = trained.previous_token_score(A_heads)",
        "previous_token_score",
    ),
    (
        "5.2",
        "import attn_core\n"
        "O_new = [getattr(attn_core, a) for a in dir(attn_core) if 'weight' in a.lower()][0](A_new, V_new)",
        "attn_core",
    ),
    (
        "12.2",
        "import attn_core\nPE = [getattr(attn_core, a) for a in dir(attn_core) if 'sinus' in a.lower()][0](n, d)",
        "attn_core",
    ),
]


@pytest.mark.parametrize("task_id, code, name", REFERENCE_IN_A_CELL)
def test_a_cell_computed_by_the_reference_in_any_spelling_is_not_a_tick(lang, shell, task_id, code, name):
    out = checked(shell, task_id, code)
    assert out.startswith("❌") and name in out, out
    assert words(lang, "现成的", "ready-made") in out, out


def test_the_tools_a_notebook_hands_out_stay_allowed_in_its_own_cells():
    """Lesson 14 hands out rope, lesson 15 the trained model: using them is not delegating."""
    ns = {"rope": rope, "trained": trained, "np": np}
    assert verdicts.delegated_in_cell("q = rope(q_new, p)", ns, verdicts._handed_out("12.3")) == "attn_core.rope"
    assert verdicts.delegated_in_cell("k_rot = rope(k, [t])", ns, verdicts._handed_out("14.3")) == ""
    code = "logits, A = trained.forward(trained.load(), tokens)"
    assert verdicts.delegated_in_cell(code, ns, verdicts._handed_out("15.1")) == ""
    code = "s = trained.induction_score(A, 6, 10)"
    assert "induction_score" in verdicts.delegated_in_cell(code, ns, verdicts._handed_out("15.2"))
    assert verdicts.delegated_in_cell("x = attn_core.set_lang", {"attn_core": attn_core}) == ""


def test_a_notebook_helper_that_calls_the_reference_is_seen_through(shell):
    shell.user_ns.update(homework.TASKS["6.1"].inputs())
    code = "from attn_core import attention\ndef mine(Q, K, V):\n    return attention(Q, K, V).O\nO = mine(Q, K, V)"
    out = run_in_shell(shell, [code, 'check("6.1")'])
    assert out.startswith("❌") and "attn_core.attention" in out, out


def test_the_reference_itself_handed_in_as_the_fix_is_named_by_its_own_name(lang, shell):
    """8.6 and 15.3 took the reference assigned as the fix; 2.3 and 4.6 named a private helper it calls."""
    cases = [
        ("8.6", "from attn_core import split_heads as fixed_split_heads", "attn_core.split_heads"),
        ("15.3", "from attn_core.trained import induction_score as fixed_induction_score", "induction_score"),
        ("15.3", "from attn_core import trained\nfixed_induction_score = trained.induction_score", "induction_score"),
        ("2.3", "from attn_core import scores as fixed_scores", "attn_core.scores"),
        ("2.3", "import attn_core\nfixed_scores = attn_core.scores", "attn_core.scores"),
        ("4.6", "from attn_core import softmax as fixed_softmax", "attn_core.softmax"),
    ]
    for task_id, code, name in cases:
        out = checked(shell, task_id, code)
        assert out.startswith("❌") and name in out, out
        assert "_validate" not in out and "Trace" not in out, out


def test_the_reference_as_a_partial_or_a_lambda_is_still_the_reference():
    import functools

    assert "split_heads" in verdicts.delegated_to(functools.partial(attn_core.split_heads))
    assert verdicts.delegated_to(lambda M, h: attn_core.split_heads(M, h)) == "attn_core.split_heads"
    assert verdicts.delegated_to(lambda M, h: M.reshape(M.shape[0], h, -1)) == ""


def test_a_prediction_computed_by_the_reveals_own_function_is_not_a_prediction(lang, shell):
    shell.user_ns.update(homework.TASKS["14.2"].inputs())
    code = (
        "from attn_core import kv_cache_bytes\n"
        "cache_bytes_per_token = kv_cache_bytes(layers, kv_heads, d_head, bytes_per_value)"
    )
    out = run_in_shell(shell, [code, 'check("14.2")'])
    assert out.startswith("❌") and "kv_cache_bytes" in out, out
    assert words(lang, "不是预测", "not a prediction") in out, out
    out = run_in_shell(shell, ['print(homework.predicted("14.2"))'])
    assert out.endswith("False") and "kv_cache_bytes" in out, out
    assert "14.2" not in verdicts._REVEALED, "the computed number is not recorded as the prediction"


def test_fixed_scores_that_gives_up_on_five_queries_is_not_fixed(lang):
    def fixed_scores(Q, K):
        return Q @ K.T if Q.shape[0] < 5 else None

    for seed in range(5):
        assert not diagnose_task("2.3", fixed_scores, np.random.default_rng(seed)).ok


# ---------------------------------------------------------------- (b) right answers rejected


@pytest.fixture
def slow_module(tmp_path, monkeypatch):
    """A module whose import takes 1 s (as torch's first import takes seconds), with the time limit at 0.3 s."""
    name = f"slow_import_{time.monotonic_ns()}"
    (tmp_path / f"{name}.py").write_text("import time\ntime.sleep(1.0)\nDONE = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(verdicts, "TIME_LIMIT", 0.3)
    yield name
    sys.modules.pop(name, None)


def test_a_slow_first_import_inside_the_fix_is_not_its_time(lang, slow_module):
    """2.3: ``import torch`` inside fixed_scores took the 5 s and was told "a loop that never ends"."""
    namespace = {}
    exec(
        textwrap.dedent(f"""
        def fixed_scores(Q, K):
            import {slow_module}
            return Q @ K.T
        """),
        namespace,
    )
    d = diagnose_task("2.3", namespace["fixed_scores"])
    assert d.ok, d.message
    assert sys.modules[slow_module].DONE


def test_an_import_is_never_stopped_half_way(lang, slow_module):
    """The killed import left torch "partially initialized" in the kernel: a later right fix then failed."""
    namespace = {}
    exec(
        textwrap.dedent(f"""
        import importlib
        def fixed_scores(Q, K):
            importlib.import_module("{slow_module}")
            return Q @ K.T
        """),
        namespace,
    )
    diagnose_task("2.3", namespace["fixed_scores"])
    assert getattr(sys.modules.get(slow_module), "DONE", False), "the module was imported to its end"
    assert diagnose_task("2.3", namespace["fixed_scores"]).ok


def test_the_too_slow_message_claims_no_loop_it_cannot_see(lang, monkeypatch):
    monkeypatch.setattr(verdicts, "TIME_LIMIT", 0.3)

    def fixed_scores(Q, K):
        time.sleep(5)
        return Q @ K.T

    d = diagnose_task("2.3", fixed_scores)
    assert d.code == "too_slow"
    assert words(lang, "是不是有一个停不下来的循环", "is there a loop that never ends") not in d.message
    assert "time.sleep" in d.message


def test_a_tensor_that_requires_grad_is_read_as_its_numbers(lang):
    torch = pytest.importorskip("torch")
    d = homework.TASKS["1.1"].inputs()
    assert diagnose_task("1.1", torch.from_numpy(d["X"] @ d["W_q"]).requires_grad_()).ok
    d = homework.TASKS["13.2"].inputs()
    S = torch.from_numpy(d["Q"] @ d["K"].T / np.sqrt(3)).masked_fill(
        torch.from_numpy(d["key_padding_mask"]), float("-inf")
    )
    assert diagnose_task("13.2", torch.softmax(S, -1).requires_grad_()).ok
    d = diagnose_task("1.1", [[1.0, 2.0, 3.0], [4.0]])  # rows of different lengths are still said so
    assert words(lang, "各行长短不一", "rows of different lengths") in d.message


def test_a_fraction_or_a_decimal_is_a_number(lang, shell):
    from decimal import Decimal
    from fractions import Fraction

    right = homework.TASKS["4.5"]
    for number in (Fraction(1), Decimal(1), Fraction(3), Decimal("2.0")):
        assert diagnose_task("4.5", number).code != "wrong_type"
    shell.user_ns.update(right.inputs())
    out = run_in_shell(shell, ["from fractions import Fraction\ntop_key = Fraction(1)", "homework.predicted('4.5')"])
    assert "📌" in out, out


# ---------------------------------------------------------------- (c) confidently wrong


@pytest.mark.parametrize("task_id", ["7.2", "13.2"])
def test_a_finite_mask_fill_is_named_not_rounding(lang, task_id):
    d = homework.TASKS[task_id].inputs()
    S = d["Q"] @ d["K"].T / np.sqrt(3)
    keep = np.tril(np.ones((4, 4), dtype=bool)) if task_id == "7.2" else ~d["key_padding_mask"]
    message = diagnose_task(task_id, softmax(np.where(keep, S, -10.0))).message
    assert words(lang, "取整", "rounded") not in message, message
    assert "-10" in message and "−∞" in message, message
    message = diagnose_task(task_id, softmax(np.where(keep, S, -1.0))).message  # far off: the rule says it
    assert words(lang, "正好是 0", "exactly 0") in message


def test_rounding_is_still_said_where_there_is_no_mask(lang):
    d = homework.TASKS["4.1"].inputs()
    A = softmax(d["S"]) * (1 + 1e-4)
    assert diagnose_task("4.1", A).code in ("almost_right", "not_normalized")


def test_predicted_on_a_task_that_is_not_a_prediction_says_so(lang, shell):
    shell.user_ns.update(homework.TASKS["1.1"].inputs())
    out = run_in_shell(shell, ["Q = X @ W_q", "print(homework.predicted('1.1'))"])
    assert out.endswith("False"), out
    assert words(lang, "不是预测题", "not a predict task") in out and 'check("1.1")' in out, out
    assert words(lang, "写成一个数", "one number") not in out, out


def test_12_5_with_12_2s_width_cut_is_not_asserted_to_be_k_over_d(lang, shell):
    code = textwrap.dedent("""\
        def pe(n, d):
            pos = np.arange(n)[:, None]; w = 1 / 10000 ** (np.arange(0, d, 2) / d)
            P = np.zeros((n, d)); P[:, 0::2] = np.sin(pos * w); P[:, 1::2] = np.cos(pos * w)
            return P
        Z = X_pe + pe(5, 8)[:, :4]
        S_pos = (Z @ W_q_pe) @ (Z @ W_k_pe).T / 2""")
    out = checked(shell, "12.5", code)
    assert out.startswith("❌"), out
    assert words(lang, "你用的是 k/d", "you used k/d") not in out, out
    assert "2d" in out, out


# ---------------------------------------------------------------- (d) a leak


def test_a_guessed_factor_is_not_confirmed_as_another_rows(lang):
    message = diagnose_task("9.3", float(np.exp(-1))).message
    assert words(lang, "第 0 行", "row 0") not in message, message
    assert words(lang, "第 1 行", "row 1") in message, message


# ---------------------------------------------------------------- (e) a traceback


def test_data_of_a_task_that_does_not_exist_is_a_message_not_a_traceback(lang, shell):
    out = run_in_shell(shell, ['homework.data("9.9")'])
    assert "Traceback" not in out and "attn_homework" not in out and "File " not in out, out
    assert "9.9" in out and "9.1, 9.2" in out, out
    with pytest.raises(KeyError):  # still a KeyError for code that catches one
        homework.data("9.9")
