"""The homework registry: every auto-checked task of the exercise notebooks, in one place.

A task (e.g. "2.1") names its notebook, the learner's answer variable, the checker step
(see ``attn_core.homework.checker``) and how its data are built, deterministically: from the four-word
example or from a seeded random generator. The notebooks fetch their data here
(``Q, K = homework.data("2.1")``) and check an answer with one line (``check("2.1")``); the
grader (``python -m attn_core.homework.grade``) rebuilds the same data in its own process. So every number
has one source, and what a notebook shows is what the grader checks against.

    check("2.1")          reads the variable ``QKT`` from the notebook and prints one line:
                          ✅ correct / ❌ what is wrong and a hint / ⏳ not attempted yet.
                          It never raises, even if ``QKT`` is not defined.
    data("2.1")           the task's inputs, unpackable: ``Q, K = homework.data("2.1")``.
    diagnose_task(id, x)  the Diagnosis of answer ``x`` for task ``id`` (what check prints).
    progress("ex02_scores")  one line per task of a notebook, read from the notebook's variables.
"""

import inspect
from dataclasses import dataclass, field

import numpy as np

from .. import core
from ..examples import four_words
from ..lang import tr

# ---------------------------------------------------------------- notebooks

@dataclass(frozen=True)
class Exercise:
    """One exercise notebook: its file stem, the lesson it practises and a Chinese/English title."""
    name: str
    lesson: str
    title_zh: str
    title_en: str

    @property
    def title(self):
        return tr(self.title_zh, self.title_en)


EXERCISES = {e.name: e for e in (
    Exercise("ex01_projection", "01_qkv_projection.ipynb", "投影出 Q、K、V", "Projecting Q, K, V"),
    Exercise("ex02_scores", "02_scores_qkt.ipynb", "分数矩阵 QKᵀ", "The score matrix QKᵀ"),
    Exercise("ex03_scaling", "03_scaling.ipynb", "除以 √d_k", "Dividing by √d_k"),
    Exercise("ex04_softmax", "04_softmax.ipynb", "按行 softmax", "Softmax along rows"),
    Exercise("ex05_weighted_sum", "05_weighted_sum.ipynb", "加权求和 A·V", "The weighted sum A·V"),
    Exercise("ex06_full_pipeline", "06_full_pipeline.ipynb", "完整五步", "All five steps"),
    Exercise("ex07_causal_mask", "07_masks_and_cross_attention.ipynb", "因果掩码", "The causal mask"),
)}


# ---------------------------------------------------------------- data

class Bundle:
    """A task's inputs: named arrays in a fixed order.

    Unpack it (``Q, K = homework.data("2.1")``) or read a field (``d.Q``, ``d["Q"]``).
    Every call of ``data`` builds fresh arrays, so changing them changes nothing elsewhere."""

    def __init__(self, items):
        self._items = dict(items)

    def __iter__(self):
        return iter(self._items.values())

    def __len__(self):
        return len(self._items)

    def __getitem__(self, key):
        if isinstance(key, int):
            return list(self._items.values())[key]
        return self._items[key]

    def __getattr__(self, name):
        try:
            return self.__dict__["_items"][name]
        except KeyError:
            raise AttributeError(name) from None

    def names(self):
        return tuple(self._items)

    def __repr__(self):
        return "\n".join(f"{name}: {_shape_text(value)}" for name, value in self._items.items())


def _shape_text(value):
    shape = np.shape(value)
    return " × ".join(map(str, shape)) if shape else repr(value)


# Every number a task hands out is the same, to the last bit, on every machine: it is drawn from a
# seeded generator and rounded there (at the source), or computed from such numbers in exact arithmetic
# (integer products, then one correctly rounded division). Nothing here rounds the result of a BLAS call:
# another BLAS kernel or thread count changes a matrix product's last bits, and a value that lands on a
# rounding boundary (2.025) would print as 2.02 on one laptop and 2.03 on another. Weights need exp,
# whose last bit differs between libm and SIMD versions; they are rounded to 6 decimals, and ``_rounded``
# refuses any value close enough to a rounding boundary for such a difference to flip it.

def _rand(seed, shape, scale=1.0, decimals=1):
    """Seeded normal numbers rounded to ``decimals``: readable when printed, reproducible everywhere."""
    return np.round(np.random.default_rng(seed).normal(0.0, scale, size=shape), decimals)


def _decimals(a):
    """The fewest decimals (at most 6) that write every entry of ``a`` exactly."""
    for k in range(7):
        scaled = np.asarray(a, dtype=np.float64) * 10.0 ** k
        if np.all(np.abs(scaled - np.rint(scaled)) < 1e-6):
            return k
    raise ValueError("expected short decimals (at most 6 places)")


def exact_matmul(a, b):
    """``a @ b`` for arrays of short decimals, computed exactly: integer products and sums (numpy's integer
    matmul, no BLAS), then one division by a power of ten. The same bytes on every machine."""
    da, db = _decimals(a), _decimals(b)
    ia = np.rint(np.asarray(a, dtype=np.float64) * 10.0 ** da).astype(np.int64)
    ib = np.rint(np.asarray(b, dtype=np.float64) * 10.0 ** db).astype(np.int64)
    return (ia @ ib) / 10.0 ** (da + db)


def _rounded(x, decimals, margin=1e-9):
    """``x`` rounded to ``decimals``, refusing (ValueError) any entry within ``margin`` (in units of the
    last decimal) of a rounding boundary, where a last-bit difference between machines could flip it."""
    scaled = np.asarray(x, dtype=np.float64) * 10.0 ** decimals
    if np.any(np.abs(np.abs(scaled - np.floor(scaled)) - 0.5) < margin):
        raise ValueError(f"a value sits on a rounding boundary at {decimals} decimals; choose other data")
    return np.round(x, decimals)


def _weights(S):
    """softmax of each row of ``S``, rounded to 6 decimals (see ``_rounded``); the largest entry of each row
    is then set so that the row's decimals add up to exactly 1."""
    A = _rounded(core.softmax(S), 6)
    units = np.rint(A * 1e6).astype(np.int64)
    top = units.argmax(axis=-1)
    rows = np.arange(units.shape[0])
    units[rows, top] += 1_000_000 - units.sum(axis=-1)
    return units / 1e6


def _four_words_pool():
    """The four-word example's X, W and the intermediates a task hands out, all bit-identical everywhere:
    Q, K, V and QKᵀ exactly (short decimals), S = QKᵀ/√3 by one correctly rounded division, A rounded."""
    ex = four_words()
    Q, K, V = (exact_matmul(ex.X, W) for W in (ex.W_q, ex.W_k, ex.W_v))
    S = exact_matmul(Q, K.T) / np.sqrt(3.0)
    return {"X": ex.X, "W_q": ex.W_q, "W_k": ex.W_k, "W_v": ex.W_v, "Q": Q, "K": K, "V": V, "S": S,
            "A": _weights(S)}


def _fw_inputs(*names):
    """Inputs taken from the four-word example (我 / 喜欢 / 学习 / 语言)."""
    def build():
        pool = _four_words_pool()
        return {name: np.array(pool[name]) for name in names}
    return build


def _fresh(seed, **shapes):
    """Inputs drawn from ``np.random.default_rng(seed)``, one array per keyword, in order."""
    def build():
        rng = np.random.default_rng(seed)
        return {name: np.round(rng.normal(0.0, 1.0, size=shape), 1) for name, shape in shapes.items()}
    return build


def _fresh_weights():
    """3 × 5 attention weights (rows sum to 1) and the keys and values they were computed with."""
    d = _fresh(503, Q_new=(3, 4), K_new=(5, 4), V_new=(5, 2))()
    A = _weights(exact_matmul(d["Q_new"], d["K_new"].T) / 2.0)  # d_k = 4: √4 = 2 exactly
    return {"A_new": A, "K_new": d["K_new"], "V_new": d["V_new"]}


def _big_scores():
    """3 × 4 scores near 1000: np.exp overflows on them unless the row maximum is subtracted first."""
    return {"S_big": 1000.0 + _rand(404, (3, 4), scale=2.0)}


def _fresh_scores():
    """3 × 5 scores, drawn with two decimals."""
    return {"S_new": _rand(402, (3, 5), decimals=2)}


def _fw(given):
    """A given-builder for a four-word task: the checker also gets the tokens, so its hints name the words."""
    return lambda d: {**given(d), "tokens": four_words().tokens}


def _doubled(K, row):
    K = np.array(K, dtype=float)
    K[row] *= 2
    return K


# ---------------------------------------------------------------- tasks

@dataclass(frozen=True)
class Task:
    """One auto-checked task.

    ``inputs()`` builds the data the notebook shows (names as the learner sees them);
    ``given(inputs)`` turns them into the keyword arguments of ``attn_core.homework.checker.diagnose``."""
    id: str
    exercise: str
    var: str
    step: str
    title_zh: str
    title_en: str
    inputs: callable = field(repr=False)
    given_from: callable = field(repr=False)

    @property
    def title(self):
        return tr(self.title_zh, self.title_en)

    def data(self):
        return Bundle(self.inputs())

    def given(self):
        """The checker's keyword arguments, rebuilt from scratch on every call. Messages name the
        learner's variable (``QKT_new``), except for projections, where the name also labels W (W_Q)."""
        given = self.given_from(self.inputs())
        return given if "name" in given else {**given, "name": self.var}


def _task(id, exercise, var, step, title_zh, title_en, inputs, given):
    return Task(id, exercise, var, step, title_zh, title_en, inputs, given)


_XUEXI, _YUYAN = 2, 3  # rows of 学习 and 语言 in the four-word example

TASKS = {t.id: t for t in (
    # ex01: Q = X·W_Q, K = X·W_K, V = X·W_V
    _task("1.1", "ex01_projection", "Q", "projection", "四个词的查询 Q = X·W_Q", "Queries of the four words",
          _fw_inputs("X", "W_q"), _fw(lambda d: {"X": d["X"], "W": d["W_q"], "name": "Q"})),
    _task("1.2", "ex01_projection", "K", "projection", "四个词的键 K = X·W_K", "Keys of the four words",
          _fw_inputs("X", "W_k"), _fw(lambda d: {"X": d["X"], "W": d["W_k"], "name": "K"})),
    _task("1.3", "ex01_projection", "V", "projection", "四个词的值 V = X·W_V", "Values of the four words",
          _fw_inputs("X", "W_v"), _fw(lambda d: {"X": d["X"], "W": d["W_v"], "name": "V"})),
    _task("1.4", "ex01_projection", "Q_new", "projection", "新数据：5 个词、d_k = 3 的查询",
          "Fresh data: queries with d_k = 3",
          _fresh(101, X_new=(5, 4), W_q_new=(4, 3), W_v_new=(4, 2)),
          lambda d: {"X": d["X_new"], "W": d["W_q_new"], "name": "Q"}),
    _task("1.5", "ex01_projection", "V_new", "projection", "新数据：d_v = 2 的值", "Fresh data: values with d_v = 2",
          _fresh(101, X_new=(5, 4), W_q_new=(4, 3), W_v_new=(4, 2)),
          lambda d: {"X": d["X_new"], "W": d["W_v_new"], "name": "V"}),
    # ex02: QKᵀ
    _task("2.1", "ex02_scores", "QKT", "scores", "四个词的分数矩阵 QKᵀ", "Score matrix of the four words",
          _fw_inputs("Q", "K"), _fw(lambda d: {"Q": d["Q"], "K": d["K"]})),
    _task("2.2", "ex02_scores", "QKT_new", "scores", "新数据：3 个查询对 5 个键", "Fresh data: 3 queries, 5 keys",
          _fresh(202, Q_new=(3, 4), K_new=(5, 4)), lambda d: {"Q": d["Q_new"], "K": d["K_new"]}),
    # ex03: / √d_k
    _task("3.1", "ex03_scaling", "S", "scaled_scores", "四个词的缩放分数 S", "Scaled scores of the four words",
          _fw_inputs("Q", "K"), _fw(lambda d: {"Q": d["Q"], "K": d["K"], "d_k": 3})),
    _task("3.2", "ex03_scaling", "S_new", "scaled_scores", "新数据：d_k = 16 的缩放分数",
          "Fresh data: scaled scores with d_k = 16",
          _fresh(302, Q_new=(4, 16), K_new=(6, 16)), lambda d: {"Q": d["Q_new"], "K": d["K_new"], "d_k": 16}),
    # ex04: softmax along rows
    _task("4.1", "ex04_softmax", "A", "softmax", "四个词的注意力权重 A", "Attention weights of the four words",
          _fw_inputs("S"), _fw(lambda d: {"S": d["S"]})),
    _task("4.2", "ex04_softmax", "A_new", "softmax", "新数据：3 × 5 的分数按行 softmax",
          "Fresh data: softmax of 3 × 5 scores", _fresh_scores, lambda d: {"S": d["S_new"]}),
    _task("4.3", "ex04_softmax", "A_big", "softmax", "很大的分数：数值稳定的 softmax",
          "Huge scores: a numerically stable softmax", _big_scores, lambda d: {"S": d["S_big"]}),
    _task("4.4", "ex04_softmax", "A_double", "weights", "把“语言”的键放大到 2 倍后的权重",
          "Weights after doubling the key of 语言",
          _fw_inputs("Q", "K"),
          _fw(lambda d: {"Q": d["Q"], "K": _doubled(d["K"], _YUYAN), "d_k": 3, "scaled": True})),
    # ex05: O = A·V (K and S are given too, so using them by mistake is named)
    _task("5.1", "ex05_weighted_sum", "O", "weighted_sum", "四个词的输出 O = A·V", "Output of the four words",
          _fw_inputs("A", "K", "V"),
          _fw(lambda d: {"A": d["A"], "V": d["V"], "K": d["K"], "S": _four_words_pool()["S"]})),
    _task("5.2", "ex05_weighted_sum", "O_new", "weighted_sum", "新数据：n_k = 5、d_v = 2 的加权求和",
          "Fresh data: weighted sum with n_k = 5, d_v = 2",
          _fresh_weights, lambda d: {"A": d["A_new"], "V": d["V_new"], "K": d["K_new"]}),
    # ex06: all five steps
    _task("6.1", "ex06_full_pipeline", "O", "output", "四个词：从 Q、K、V 到输出 O", "Four words: from Q, K, V to O",
          _fw_inputs("Q", "K", "V"), _fw(lambda d: {"Q": d["Q"], "K": d["K"], "V": d["V"]})),
    _task("6.2", "ex06_full_pipeline", "O_new", "output", "新数据：2 个查询、5 个键、d_v = 3",
          "Fresh data: 2 queries, 5 keys, d_v = 3",
          _fresh(602, Q_new=(2, 4), K_new=(5, 4), V_new=(5, 3)),
          lambda d: {"Q": d["Q_new"], "K": d["K_new"], "V": d["V_new"]}),
    _task("6.3", "ex06_full_pipeline", "A_x", "weights", "从 X 出发：注意力权重", "From X: the attention weights",
          _fresh(603, X_new=(4, 5), W_q_new=(5, 3), W_k_new=(5, 3), W_v_new=(5, 2)),
          lambda d: {"Q": d["X_new"] @ d["W_q_new"], "K": d["X_new"] @ d["W_k_new"], "d_k": 3, "scaled": True}),
    _task("6.4", "ex06_full_pipeline", "O_x", "output", "从 X 出发：输出 O", "From X: the output",
          _fresh(603, X_new=(4, 5), W_q_new=(5, 3), W_k_new=(5, 3), W_v_new=(5, 2)),
          lambda d: {"Q": d["X_new"] @ d["W_q_new"], "K": d["X_new"] @ d["W_k_new"],
                     "V": d["X_new"] @ d["W_v_new"]}),
    # ex07: the causal mask
    _task("7.1", "ex07_causal_mask", "mask", "causal_mask", "4 个位置的因果掩码", "Causal mask for 4 positions",
          lambda: {"n": 4}, _fw(lambda d: {"n": d["n"]})),
    _task("7.2", "ex07_causal_mask", "A_causal", "weights", "四个词的因果注意力权重",
          "Causal attention weights of the four words",
          _fw_inputs("Q", "K"),
          _fw(lambda d: {"Q": d["Q"], "K": d["K"], "mask": core.causal_mask(4), "d_k": 3, "scaled": True})),
    _task("7.3", "ex07_causal_mask", "O_causal", "output", "新数据：6 个位置的因果自注意力输出",
          "Fresh data: causal self-attention output, 6 positions",
          _fresh(703, Q_new=(6, 4), K_new=(6, 4), V_new=(6, 2)),
          lambda d: {"Q": d["Q_new"], "K": d["K_new"], "V": d["V_new"], "mask": core.causal_mask(6)}),
)}


def task(task_id):
    """The Task registered under ``task_id`` (a str such as "2.1"); KeyError with the known ids otherwise."""
    try:
        return TASKS[str(task_id)]
    except KeyError:
        raise KeyError(tr(f"没有编号为 {task_id!r} 的题目；已有的编号：{', '.join(TASKS)}",
                          f"no task {task_id!r}; the tasks are {', '.join(TASKS)}")) from None


def tasks(exercise=None):
    """All tasks in order, or those of one exercise notebook (e.g. "ex02_scores" or "ex02")."""
    if exercise is None:
        return list(TASKS.values())
    name = exercise_name(exercise)
    return [t for t in TASKS.values() if t.exercise == name]


def exercise_name(exercise):
    """Full name of an exercise from its name or prefix: "ex02" -> "ex02_scores"."""
    matches = [name for name in EXERCISES if name == exercise or name.split("_")[0] == exercise]
    if not matches:
        raise KeyError(tr(f"没有名为 {exercise!r} 的练习；已有：{', '.join(EXERCISES)}",
                          f"no exercise {exercise!r}; the exercises are {', '.join(EXERCISES)}"))
    return matches[0]


def data(task_id):
    """The inputs of a task, freshly built, in the order the notebook unpacks them."""
    return task(task_id).data()


# ---------------------------------------------------------------- checking

class _Missing:
    """Stands for an answer variable that does not exist in the notebook."""


MISSING = _Missing()


def diagnose_task(task_id, answer):
    """The Diagnosis of ``answer`` for task ``task_id``: ``attn_core.homework.checker.diagnose`` with the
    task's step and freshly built data. ``MISSING`` (variable not defined) counts as not attempted."""
    from . import checker

    try:
        t = task(task_id)
    except KeyError as e:
        return checker.Diagnosis(False, "bad_task", e.args[0], None)
    if answer is MISSING:
        return checker.Diagnosis(False, "not_attempted", tr(
            f"还没有变量 {t.var}：运行上面的答案格子（把 ... 换成你的答案）。",
            f"there is no variable {t.var} yet: run the answer cell above (replace ... with your answer)."), t.step)
    return checker.diagnose(t.step, answer, **t.given())


def line(task_id, diagnosis):
    """One printed line for a task: ``✅ 2.1 · QKᵀ 正确！…``."""
    icon, _, message = str(diagnosis).partition(" ")
    return f"{icon} {task_id} · {message}"


def _lookup(frame, name):
    if name in frame.f_locals:
        return frame.f_locals[name]
    return frame.f_globals.get(name, MISSING)


def check(task_id, *answer):
    """Print one line about task ``task_id``: ✅ / ❌ with a hint / ⏳ not attempted.

    Without ``answer`` the task's variable (e.g. ``QKT`` for "2.1") is read from the caller's
    namespace, so an undefined variable gives ⏳ rather than a NameError. Never raises."""
    try:
        frame = inspect.currentframe().f_back
        try:
            if answer:
                value = answer[0]
            else:
                value = _lookup(frame, task(task_id).var) if str(task_id) in TASKS else None
        finally:
            del frame
        print(line(task_id, diagnose_task(task_id, value)))
    except Exception as e:  # a check must never show a traceback
        print(tr(f"{task_id} ❌ 检查时出了意外（{type(e).__name__}: {e}），请把这一行告诉老师。",
                 f"{task_id} ❌ the check itself failed ({type(e).__name__}: {e}); please tell your teacher."))


def progress(exercise):
    """Print one line per task of an exercise notebook, reading the answers from the caller's namespace."""
    try:
        frame = inspect.currentframe().f_back
        try:
            values = [(t.id, _lookup(frame, t.var)) for t in tasks(exercise)]
        finally:
            del frame
        diagnoses = [diagnose_task(task_id, value) for task_id, value in values]
        done = sum(d.ok for d in diagnoses)
        for (task_id, _), d in zip(values, diagnoses):
            print(line(task_id, d))
        print(tr(f"共 {len(diagnoses)} 题，已通过 {done} 题。", f"{done} of {len(diagnoses)} tasks passed."))
    except Exception as e:
        print(tr(f"❌ 统计时出了意外（{type(e).__name__}: {e}）。", f"❌ progress failed ({type(e).__name__}: {e})."))
