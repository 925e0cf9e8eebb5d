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
from attn_homework import diagnose_task, verdicts

from . import hints_common

lang = hints_common.lang
_fresh_state = hints_common.fresh_state
words = hints_common.words
softmax = hints_common.softmax


shell = hints_common.shell


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
    # the sixth trial: the module reached by its name as a string
    ("4.1", "import sys\nA = sys.modules['attn_core'].softmax(S)", "attn_core"),
    ("4.1", "import importlib\nA = importlib.import_module('attn_core').softmax(S)", "attn_core"),
    ("4.1", "A = __import__('attn_core').softmax(S)", "attn_core"),
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
    message = diagnose_task(task_id, softmax(np.where(keep, S, -1.0))).message  # far off: named all the same
    assert "-1" in message and "−∞" in message and words(lang, "取整", "rounded") not in message, message


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


# ---------------------------------------------------------------- (f) unhelpful: mistakes named elsewhere, named here

CODES_OF_THE_FIFTH_TRIAL = {
    "cached_key_as_query",
    "cached_first_key_only",
    "gqa_first_kv_head_only",
    "rope_cache_turned_again",
    "rope_query_not_turned",
    "induction_wrong_column",
    "induction_summed",
    "induction_wrong_queries",
    "rope_position_off_by_one",
    "residual_added_twice",
    "sublayer_left_out",
    "only_centred",
    "pe_one_side",
    "pe_shifted",
    "softmax_not_asked",
    "mask_not_asked",
    "key_not_rotated",
    "prev_summed",
}

SM = (
    "def sm(S, ax=-1):\n    E = np.exp(S - S.max(axis=ax, keepdims=True))\n"
    "    return E / E.sum(axis=ax, keepdims=True)\n"
)
CACHE = "K_all = np.vstack([K_cache, k_new]); V_all = np.vstack([V_cache, v_new])\n"
GQA = "def att(Q, K, V):\n    return sm(Q @ np.swapaxes(K, -1, -2) / np.sqrt(2)) @ V\n"
REP = "np.repeat(K_heads, 2, axis=0)"

LN = (
    "def ln(Z, eps=1e-5):\n"
    "    return (Z - Z.mean(axis=1, keepdims=True)) / np.sqrt(Z.var(axis=1, keepdims=True) + eps)\n"
)

SPLIT = (
    "def split(M):\n    return M.reshape(5, 3, 2).transpose(1, 0, 2)\n"
    "Qh, Kh, Vh = split(X @ W_q), split(X @ W_k), split(X @ W_v)\n"
)
SHUFFLED = "Xs = X_new[order]\nQ, K, V = Xs @ W_q_new, Xs @ W_k_new, Xs @ W_v_new\n"
PE = (
    "def pe(n, d):\n    pos = np.arange(n)[:, None]; w = 1 / 10000 ** (np.arange(0, d, 2) / d)\n"
    "    P = np.zeros((n, d)); P[:, 0::2] = np.sin(pos * w); P[:, 1::2] = np.cos(pos * w)\n    return P\n"
)

ROTATE = (
    "def rotate(x, position, d=8):\n    w = 1 / 10000 ** (np.arange(0, d, 2) / d)\n    th = position * w\n"
    "    a, b = x[0::2], x[1::2]\n"
    "    out = np.empty(d); out[0::2] = a * np.cos(th) - b * np.sin(th); out[1::2] = a * np.sin(th) + b * np.cos(th)\n"
    "    return out\n"
)

STUDENT_MISTAKES = [  # (task, the student's code, the code it gets, words of the message in zh and en)
    ("14.1", SM + CACHE + "o_new = sm(q_new @ K_all.T / 4) @ V_all", "scaled_by_dk", ("√d_k", "√d_k")),
    ("14.1", SM + CACHE + "o_new = sm(q_new @ K_all.T / np.sqrt(3)) @ V_all", "scaled_wrong_width", ("d_v", "d_v")),
    ("14.1", SM + CACHE + "o_new = sm(q_new @ K_all.T / 2, 0) @ V_all", "softmax_axis", ("方向", "axis")),
    ("14.1", SM + CACHE + "o_new = sm(k_new @ K_all.T / 2) @ V_all", "cached_key_as_query", ("k", "k")),
    (
        "14.1",
        SM
        + CACHE
        + "S = q_new @ K_all.T / 2\no_new = sm(np.where(np.tril(np.ones((1, 6), bool)), S, -np.inf)) @ V_all",
        "cached_first_key_only",
        ("不需要掩码", "no mask"),
    ),
    (
        "14.3",
        SM + GQA + f"O_gqa = sm(Q_heads @ np.swapaxes({REP}, -1, -2) / np.sqrt(3)) @ np.repeat(V_heads, 2, axis=0)",
        "scaled_wrong_width",
        ("d_v", "d_v"),
    ),
    (
        "14.3",
        SM + GQA + "O_gqa = att(Q_heads, np.repeat(K_heads[:1], 4, axis=0), np.repeat(V_heads[:1], 4, axis=0))",
        "gqa_first_kv_head_only",
        ("第 0 个 K/V 头", "K/V head 0"),
    ),
    (
        "14.3",
        SM + GQA + f"O_gqa = sm(Q_heads @ np.swapaxes({REP}, -1, -2) / np.sqrt(2), 1) @ np.repeat(V_heads, 2, axis=0)",
        "softmax_axis",
        ("方向", "axis"),
    ),
    (
        "14.3",
        SM + GQA + f"O_gqa = sm(Q_heads @ np.swapaxes({REP}, -1, -2) / np.sqrt(2), 0) @ np.repeat(V_heads, 2, axis=0)",
        "softmax_axis",
        ("头的轴", "heads axis"),
    ),
    (
        "14.3",
        SM + GQA + f"O_gqa = sm({REP} @ np.swapaxes(Q_heads, -1, -2) / np.sqrt(2)) @ np.repeat(V_heads, 2, axis=0)",
        "transposed",
        ("QKᵀ", "QKᵀ"),
    ),
    (
        "12.3",
        "w = 1 / 10000 ** (np.arange(0, 6, 2) / 6)\nth = (p - 1) * w\nx, y = q_new[0::2], q_new[1::2]\n"
        "q_rot = np.empty(6); q_rot[0::2] = x * np.cos(th) - y * np.sin(th); "
        "q_rot[1::2] = x * np.sin(th) + y * np.cos(th)",
        "rope_position_off_by_one",
        ("位置 2", "position 2"),
    ),
    (
        "12.3",
        "w = 1 / 10000 ** (np.arange(0, 6, 2) / 6)\nth = (p + 1) * w\nx, y = q_new[0::2], q_new[1::2]\n"
        "q_rot = np.empty(6); q_rot[0::2] = x * np.cos(th) - y * np.sin(th); "
        "q_rot[1::2] = x * np.sin(th) + y * np.cos(th)",
        "rope_position_off_by_one",
        ("位置 4", "position 4"),
    ),
    (
        "12.3",
        "w = 10000 ** (np.arange(0, 6, 2) / 6)\nth = p * w\nx, y = q_new[0::2], q_new[1::2]\n"
        "q_rot = np.empty(6); q_rot[0::2] = x * np.cos(th) - y * np.sin(th); "
        "q_rot[1::2] = x * np.sin(th) + y * np.cos(th)",
        "frequency_inverted",
        ("频率用反了", "upside down"),
    ),
    ("11.1", "X_norm = (X - X.mean(axis=1, keepdims=True))", "only_centred", ("只减去了均值", "subtracted the mean")),
    ("11.2", LN + "H = ln(X)", "sublayer_left_out", ("F 没有加进去", "F is not in it")),
    ("11.2", LN + "H = ln(X + F) + X", "residual_added_twice", ("残差加了两次", "added twice")),
    ("11.2", LN + "H = X + ln(X + F)", "residual_added_twice", ("残差加了两次", "added twice")),
    ("11.3", "F_out = np.maximum(0, H_in @ W1 + b1) @ W2 + b2 + H_in", "residual_added", ("残差连接", "residual")),
    (
        "8.5",
        SM + "S = (X @ W_q) @ (X @ W_k).T / np.sqrt(2)\nY = sm(S) @ (X @ W_v) @ W_o",
        "single_head",
        ("单头", "one head"),
    ),
    (
        "8.5",
        SM
        + SPLIT
        + "Oh = sm(Qh @ Kh.transpose(0, 2, 1) / np.sqrt(2), 1) @ Vh\nY = Oh.transpose(1, 0, 2).reshape(5, 6) @ W_o",
        "softmax_axis",
        ("方向", "axis"),
    ),
    (
        "8.5",
        SM
        + SPLIT
        + "Oh = sm(Qh @ Kh.transpose(0, 2, 1) / np.sqrt(2)) @ Vh\nY = Oh.transpose(1, 2, 0).reshape(5, 6) @ W_o",
        "merge_interleaved",
        ("交错", "interleaved"),
    ),
    (
        "8.5",
        SM
        + SPLIT
        + "Oh = sm(Kh @ Qh.transpose(0, 2, 1) / np.sqrt(2)) @ Vh\nY = Oh.transpose(1, 0, 2).reshape(5, 6) @ W_o",
        "transposed",
        ("QKᵀ", "QKᵀ"),
    ),
    (
        "8.5",
        SM + "Qh = (X @ W_q).reshape(5, 2, 3).transpose(2, 0, 1); Kh = (X @ W_k).reshape(5, 2, 3).transpose(2, 0, 1); "
        "Vh = (X @ W_v).reshape(5, 2, 3).transpose(2, 0, 1)\n"
        "Oh = sm(Qh @ Kh.transpose(0, 2, 1) / np.sqrt(2)) @ Vh\nY = Oh.transpose(1, 2, 0).reshape(5, 6) @ W_o",
        "split_interleaved",
        ("每隔 h 列", "every h-th column"),
    ),
    (
        "8.5",
        SM
        + SPLIT
        + "Oh = sm(Qh @ Kh.transpose(0, 2, 1) / np.sqrt(2)) @ Kh\nY = Oh.transpose(1, 0, 2).reshape(5, 6) @ W_o",
        "used_keys_not_values",
        ("K 而不是 V", "K instead of V"),
    ),
    ("12.1", SM + SHUFFLED + "O_shuffled = sm(Q @ K.T / np.sqrt(4)) @ V", "scaled_wrong_width", ("d_model", "d_model")),
    (
        "12.1",
        SM + SHUFFLED + "S = Q @ K.T / np.sqrt(3)\nE = np.exp(S - S.max(0, keepdims=True))\n"
        "O_shuffled = E / E.sum(0, keepdims=True) @ V",
        "softmax_axis",
        ("方向", "axis"),
    ),
    (
        "12.1",
        SM + SHUFFLED + "O_shuffled = sm(np.where(np.tril(np.ones((5, 5), bool)), Q @ K.T / np.sqrt(3), -np.inf)) @ V",
        "mask_not_asked",
        ("因果掩码", "causal mask"),
    ),
    ("12.5", PE + "Z = X_pe + pe(5, 4)\nS_pos = (Z @ W_k_pe) @ (Z @ W_q_pe).T / 2", "transposed", ("QKᵀ", "QKᵀ")),
    ("12.5", PE + "Z = X_pe + pe(5, 4)\nS_pos = ((Z @ W_q_pe) @ (Z @ W_k_pe).T / 2).T", "transposed", ("QKᵀ", "QKᵀ")),
    (
        "12.5",
        PE + "Z = X_pe + pe(5, 4)\nS_pos = (Z @ W_q_pe) @ (X_pe @ W_k_pe).T / 2",
        "pe_one_side",
        ("一边", "one side"),
    ),
    (
        "12.5",
        PE + "Z = X_pe + np.vstack([np.zeros(4), pe(5, 4)[:-1]])\nS_pos = (Z @ W_q_pe) @ (Z @ W_k_pe).T / 2",
        "pe_shifted",
        ("错开了一行", "one row off"),
    ),
    (
        "12.5",
        PE + "Z = X_pe + pe(5, 4)\nE = (Z @ W_q_pe) @ (Z @ W_k_pe).T / 2\n"
        "S_pos = np.exp(E - E.max(1, keepdims=True)) / np.exp(E - E.max(1, keepdims=True)).sum(1, keepdims=True)",
        "softmax_not_asked",
        ("softmax", "softmax"),
    ),
    (
        "12.6",
        ROTATE + "scores_shifted = np.array([rotate(q, i) @ rotate(k, j + s) for s in shifts])",
        "query_shifted_only",
        ("只挪了键", "Only the key moved"),
    ),
    (
        "12.6",
        ROTATE + "scores_shifted = np.array([rotate(q, i + s) @ rotate(k, j + s) for s in shifts]) / np.sqrt(8)",
        "scaled_not_asked",
        ("√d", "√d"),
    ),
    (
        "12.6",
        ROTATE + "scores_shifted = np.array([rotate(q, i + s) @ k for s in shifts])",
        "key_not_rotated",
        ("键没有转", "never turned"),
    ),
    (
        "15.1",
        "prev_scores = np.array([np.diagonal(A_heads[h], offset=-1).sum() for h in range(2)])",
        "prev_summed",
        ("没有取平均", "instead of averaging"),
    ),
    (
        "9.2",
        "m1 = S1.max(axis=1, keepdims=True)\nl1 = np.exp(S1 - S1.max()).sum(axis=1, keepdims=True)",
        "max_whole_block",
        ("整块的一个最大值", "one maximum of the whole block"),
    ),
    ("1.2", "K = X @ W_q", "crossed", ("W_Q", "W_Q")),
    ("1.2", "K = Q", "crossed", ("W_Q", "W_Q")),
    ("1.3", "V = X @ W_k", "crossed", ("W_K", "W_K")),
    ("1.3", "V = X @ W_q", "crossed", ("W_Q", "W_Q")),
]


@pytest.mark.parametrize("task_id, code, expected, said", STUDENT_MISTAKES)
def test_a_mistake_named_in_one_task_is_named_in_the_next(lang, task_id, code, expected, said):
    namespace = {"np": np, "rope": rope}
    for other in ("1.1", "1.2", "1.3") if task_id.startswith("1.") else ():
        namespace |= homework.TASKS[other].inputs()
    namespace |= homework.TASKS[task_id].inputs()
    if task_id == "1.2":
        namespace["Q"] = namespace["X"] @ namespace["W_q"]
    exec(code, namespace)
    d = diagnose_task(task_id, namespace[homework.TASKS[task_id].var])
    assert d.code == expected, d.message
    assert words(lang, *said) in d.message, d.message


ROPE_STEP = "def fixed_rope_step(q, k, v, K_cache, V_cache):\n    t = len(K_cache)\n"
ATTEND = (
    "    s = q @ K_all.T / np.sqrt(q.shape[1])\n    e = np.exp(s - s.max(axis=1, keepdims=True))\n"
    "    return (e / e.sum(axis=1, keepdims=True)) @ V_all\n"
)
INDUCTION = (
    "def fixed_induction_score(A, start, length):\n    queries = np.arange(start + length, start + 2 * length - 1)\n"
)

STUDENT_FUNCTIONS = [  # (task, the student's function, the code it gets, words of the message in zh and en)
    (
        "14.4",
        ROPE_STEP + "    q, k = rope(q, np.array([t])), rope(k, np.array([t]))\n"
        "    K_all, V_all = np.vstack([rope(K_cache, np.arange(t)), k]), np.vstack([V_cache, v])\n" + ATTEND,
        "rope_cache_turned_again",
        ("又按位置转了一遍", "once more"),
    ),
    (
        "14.4",
        ROPE_STEP
        + "    k = rope(k, np.array([t]))\n    K_all, V_all = np.vstack([K_cache, k]), np.vstack([V_cache, v])\n"
        + ATTEND,
        "rope_query_not_turned",
        ("q 却没有转", "q was not"),
    ),
    (
        "14.4",
        ROPE_STEP + "    q, k = rope(q, np.array([t])), rope(k, np.array([t]))\n"
        "    K_all, V_all = np.vstack([K_cache, k]), np.vstack([V_cache, v])\n"
        "    s = q @ K_all.T / np.sqrt(q.shape[1])\n    e = np.exp(s)\n"
        "    return (e / e.sum(axis=0, keepdims=True)) @ V_all\n",
        "softmax_axis",
        ("方向", "axis"),
    ),
    (
        "15.3",
        INDUCTION + "    return A[:, queries, queries - length - 1].mean(axis=-1)\n",
        "induction_wrong_column",
        ("往回多走", "too far back"),
    ),
    (
        "15.3",
        INDUCTION + "    return A[:, queries, queries + 1].mean(axis=-1)\n",
        "induction_wrong_column",
        ("之后的位置", "after each query"),
    ),
    (
        "15.3",
        INDUCTION + "    return A[:, queries - length + 1, queries].mean(axis=-1)\n",
        "induction_wrong_column",
        ("对调", "swapped"),
    ),
    (
        "15.3",
        INDUCTION + "    return A[:, queries, queries - length + 1].sum(axis=-1)\n",
        "induction_summed",
        ("平均", "averaging"),
    ),
    (
        "15.3",
        "def fixed_induction_score(A, start, length):\n    queries = np.arange(start, start + length - 1)\n"
        "    return A[:, queries, queries - length + 1].mean(axis=-1)\n",
        "induction_wrong_queries",
        ("第一遍", "first copy"),
    ),
    (
        "15.3",
        "def fixed_induction_score(A, start, length):\n"
        "    queries = np.arange(start + length - 1, start + 2 * length - 1)\n"
        "    return A[:, queries, queries - length + 1].mean(axis=-1)\n",
        "induction_wrong_queries",
        ("差了一个位置", "one position off"),
    ),
    (
        "15.3",
        "def fixed_induction_score(A, start, length):\n"
        "    queries = np.arange(start + length + 1, start + 2 * length)\n"
        "    return A[:, queries, queries - length + 1].mean(axis=-1)\n",
        "induction_wrong_queries",
        ("差了一个位置", "one position off"),
    ),
    (
        "2.3",
        "def fixed_scores(Q, K):\n    return (Q @ K.T).astype(int)\n",
        "int_dtype",
        ("dtype 是 int", "dtype int"),
    ),
    (
        "2.3",
        "def fixed_scores(Q, K):\n    return (Q @ K.T).astype(np.int32)\n",
        "int_dtype",
        ("dtype 是 int32", "dtype int32"),
    ),
    (
        "4.6",
        "def fixed_softmax(S):\n    E = np.exp(S - S.max(axis=1, keepdims=True))\n"
        "    return (E / E.sum(axis=1, keepdims=True)).astype(int)\n",
        "int_dtype",
        ("只能存整数", "whole numbers"),
    ),
]


@pytest.mark.parametrize("task_id, code, expected, said", STUDENT_FUNCTIONS)
def test_a_fix_with_a_mistake_named_elsewhere_is_named(lang, task_id, code, expected, said):
    namespace = {"np": np, "rope": rope}
    exec(code, namespace)
    function = namespace[homework.TASKS[task_id].var]
    for seed in range(3):
        d = diagnose_task(task_id, function, np.random.default_rng(seed))
        assert d.code == expected, d.message
        assert words(lang, *said) in d.message, d.message


# ---------------------------------------------------------------- the sixth trial: a mask added, not set


@pytest.mark.parametrize("added", [-10.0, -100.0])
def test_a_finite_mask_added_to_the_scores_is_not_called_rounding(lang, added):
    """Trial 6, 7.2: `S + np.where(mask, 0, -10)` (an additive mask of −10, not a fill) and blocked weights
    set by hand to 1e-3 were told "was something rounded?"; the blocked weights are not 0, and it says so."""
    d = homework.TASKS["7.2"].inputs()
    mask = np.tril(np.ones((4, 4), dtype=bool))
    S = d["Q"] @ d["K"].T / np.sqrt(3)
    Sm = S + np.where(mask, 0, added)
    E = np.exp(Sm - Sm.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    diagnosis = diagnose_task("7.2", A)
    if added == -100.0 and diagnosis.ok:  # e^-100 is below the tolerance: the same numbers as the right ones
        return
    assert not diagnosis.ok
    assert words(lang, "被取整了", "Was something rounded") not in diagnosis.message, diagnosis.message
    assert "[0, 1]" in diagnosis.message and "−∞" in diagnosis.message, diagnosis.message


def test_blocked_weights_set_by_hand_are_named_not_rounding(lang):
    d = homework.TASKS["7.2"].inputs()
    mask = np.tril(np.ones((4, 4), dtype=bool))
    A = softmax(np.where(mask, d["Q"] @ d["K"].T / np.sqrt(3), -np.inf))
    A = np.where(mask, A, 1e-3)
    message = diagnose_task("7.2", A).message
    assert words(lang, "被取整了", "Was something rounded") not in message and "0.001" in message, message


def test_a_check_inside_the_answer_cell_reads_that_cell_not_an_earlier_attempt(lang, shell):
    """Trial 6, 4.1: an earlier attempt used attn_core.softmax; the student's new numpy cell ends with
    check("4.1") itself, and was told its numbers came from attn_core.softmax (the earlier cell's)."""
    shell.user_ns.update(homework.TASKS["4.1"].inputs())
    out = run_in_shell(
        shell,
        [
            "import attn_core\nA = attn_core.softmax(S)",
            'E = np.exp(S - S.max(axis=-1, keepdims=True))\nA = E / E.sum(axis=-1, keepdims=True)\ncheck("4.1")',
        ],
    )
    assert out.startswith("✅"), out


def test_a_wrong_15_2_prediction_is_told_why_without_the_rule_that_gives_the_answer(lang):
    """Trial 6: guessing 8 (the earlier occurrence) was told "the head reads the position right after it",
    which is 9, the answer, before the reveal. The hints for wrong guesses now end in a question."""
    right = [k for k in range(40) if diagnose_task("15.2", k).ok]
    assert len(right) == 1
    for guess in range(40):
        if guess in right:
            continue
        message = diagnose_task("15.2", guess).message
        for giveaway in words(lang, ("之后", "后面", "紧跟", "跟在"), ("after", "followed")):
            assert giveaway not in message, (guess, message)
