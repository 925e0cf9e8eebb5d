"""The homework registry: every exercise notebook and every auto-checked task of them, in one place.

A task (e.g. "2.1") names its notebook, the learner's answer variable, the checker step
(see ``attn_core.homework.checker``) and how its data are built, deterministically (``task_data``). The
notebooks fetch their data here (``Q, K = homework.data("2.1")``) and check an answer with one line
(``check("2.1")``, in ``verdicts``); the grader (``python -m attn_core.homework.grade``) rebuilds the
same data in its own process. So every number has one source, and what a notebook shows is what the
grader checks against.

    data("2.1")           the task's inputs, unpackable: ``Q, K = homework.data("2.1")``.
    task("2.1")           the Task; ``tasks("ex02")`` those of one notebook, in order.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .. import core
from ..lang import tr
from .messages import msg
from .task_data import (
    YUYAN,
    big_scores,
    doubled,
    four_word_inputs,
    four_word_pool,
    fresh,
    fresh_scores,
    fresh_weights,
    with_tokens,
)

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


EXERCISES = {
    e.name: e
    for e in (
        Exercise("ex01_projection", "01_qkv_projection.ipynb", "投影出 Q、K、V", "Projecting Q, K, V"),
        Exercise("ex02_scores", "02_scores_qkt.ipynb", "分数矩阵 QKᵀ", "The score matrix QKᵀ"),
        Exercise("ex03_scaling", "03_scaling.ipynb", "除以 √d_k", "Dividing by √d_k"),
        Exercise("ex04_softmax", "04_softmax.ipynb", "按行 softmax", "Softmax along rows"),
        Exercise("ex05_weighted_sum", "05_weighted_sum.ipynb", "加权求和 A·V", "The weighted sum A·V"),
        Exercise("ex06_full_pipeline", "06_full_pipeline.ipynb", "完整五步", "All five steps"),
        Exercise("ex07_causal_mask", "07_masks_and_cross_attention.ipynb", "因果掩码", "The causal mask"),
    )
}


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


# ---------------------------------------------------------------- tasks


@dataclass(frozen=True)
class BuildsOn:
    """Error carried forward: a task computed from the learner's own answer to an earlier task (6.4 uses
    the weights of 6.3). Where that earlier answer is wrong, the grader also accepts this task's answer
    when it is right for it: the checker's ``step`` with the givens ``given_from(inputs, earlier_answer)``."""

    task_id: str
    step: str
    given_from: Callable[[dict, np.ndarray], dict] = field(repr=False)


@dataclass(frozen=True)
class Task:
    """One auto-checked task.

    ``inputs()`` builds the data the notebook shows (names as the learner sees them);
    ``given_from(inputs)`` turns them into the keyword arguments of ``attn_core.homework.checker.diagnose``."""

    id: str
    exercise: str
    var: str
    step: str
    title_zh: str
    title_en: str
    inputs: Callable[[], dict] = field(repr=False)
    given_from: Callable[[dict], dict] = field(repr=False)
    # What the learner hands in: "array" (the default), "number" (a predict task: a number or an index) or
    # "function" (a find-the-bug task: the fixed function, which the checker calls on data of its own).
    answer_kind: str = "array"
    # For a "function" task: argument tuples to call the learner's function with, drawn from the rng the
    # caller gives (the notebook's check draws afresh each time; the grader draws at grading time).
    probe_arguments: Callable[[np.random.Generator], list[tuple]] | None = field(default=None, repr=False)
    # The grader's marks: points for this task (a teacher may override them), and error carried forward.
    points: float = 1.0
    builds_on: BuildsOn | None = None

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


# To add an exercise: an ``Exercise`` above (its notebook's file stem, the lesson, the titles), then one
# block of ``Task``s below, numbered "N.1", "N.2", … in the order the notebook checks them:
#   var         the variable the learner's answer cell assigns (``QKT = ...``); check("N.k") reads it;
#   step        what the checker tests: one of ``checker.STEPS``;
#   inputs      a builder from ``task_data``: what ``homework.data("N.k")`` hands out, in unpacking order;
#   given_from  inputs -> the checker's keyword arguments (the step's givens); wrap it in ``with_tokens``
#               for four-word data, so the messages name the words.
# The teacher notebook (notebooks/exercises/teacher/) then has, per task, a data cell
# ``Q, K = homework.data("N.k")``, an answer cell ``QKT = ...`` with its solution between the markers,
# and a one-line check cell ``check("N.k")``; tests/test_homework.py checks that wiring.

TASKS = {
    t.id: t
    for t in (
        # ---- ex01: Q = X·W_Q, K = X·W_K, V = X·W_V
        Task(
            "1.1",
            "ex01_projection",
            var="Q",
            step="projection",
            title_zh="四个词的查询 Q = X·W_Q",
            title_en="Queries of the four words",
            inputs=four_word_inputs("X", "W_q"),
            given_from=with_tokens(lambda d: {"X": d["X"], "W": d["W_q"], "name": "Q"}),
        ),
        Task(
            "1.2",
            "ex01_projection",
            var="K",
            step="projection",
            title_zh="四个词的键 K = X·W_K",
            title_en="Keys of the four words",
            inputs=four_word_inputs("X", "W_k"),
            given_from=with_tokens(lambda d: {"X": d["X"], "W": d["W_k"], "name": "K"}),
        ),
        Task(
            "1.3",
            "ex01_projection",
            var="V",
            step="projection",
            title_zh="四个词的值 V = X·W_V",
            title_en="Values of the four words",
            inputs=four_word_inputs("X", "W_v"),
            given_from=with_tokens(lambda d: {"X": d["X"], "W": d["W_v"], "name": "V"}),
        ),
        Task(
            "1.4",
            "ex01_projection",
            var="Q_new",
            step="projection",
            title_zh="新数据：5 个词、d_k = 3 的查询",
            title_en="Fresh data: queries with d_k = 3",
            inputs=fresh(101, X_new=(5, 4), W_q_new=(4, 3), W_v_new=(4, 2)),
            given_from=lambda d: {"X": d["X_new"], "W": d["W_q_new"], "name": "Q"},
        ),
        Task(
            "1.5",
            "ex01_projection",
            var="V_new",
            step="projection",
            title_zh="新数据：d_v = 2 的值",
            title_en="Fresh data: values with d_v = 2",
            inputs=fresh(101, X_new=(5, 4), W_q_new=(4, 3), W_v_new=(4, 2)),
            given_from=lambda d: {"X": d["X_new"], "W": d["W_v_new"], "name": "V"},
        ),
        # ---- ex02: QKᵀ
        Task(
            "2.1",
            "ex02_scores",
            var="QKT",
            step="scores",
            title_zh="四个词的分数矩阵 QKᵀ",
            title_en="Score matrix of the four words",
            inputs=four_word_inputs("Q", "K"),
            given_from=with_tokens(lambda d: {"Q": d["Q"], "K": d["K"]}),
        ),
        Task(
            "2.2",
            "ex02_scores",
            var="QKT_new",
            step="scores",
            title_zh="新数据：3 个查询对 5 个键",
            title_en="Fresh data: 3 queries, 5 keys",
            inputs=fresh(202, Q_new=(3, 4), K_new=(5, 4)),
            given_from=lambda d: {"Q": d["Q_new"], "K": d["K_new"]},
        ),
        # ---- ex03: / √d_k
        Task(
            "3.1",
            "ex03_scaling",
            var="S",
            step="scaled_scores",
            title_zh="四个词的缩放分数 S",
            title_en="Scaled scores of the four words",
            inputs=four_word_inputs("Q", "K"),
            given_from=with_tokens(lambda d: {"Q": d["Q"], "K": d["K"], "d_k": 3}),
        ),
        Task(
            "3.2",
            "ex03_scaling",
            var="S_new",
            step="scaled_scores",
            title_zh="新数据：d_k = 16 的缩放分数",
            title_en="Fresh data: scaled scores with d_k = 16",
            inputs=fresh(302, Q_new=(4, 16), K_new=(6, 16)),
            given_from=lambda d: {"Q": d["Q_new"], "K": d["K_new"], "d_k": 16},
        ),
        # ---- ex04: softmax along rows
        Task(
            "4.1",
            "ex04_softmax",
            var="A",
            step="softmax",
            title_zh="四个词的注意力权重 A",
            title_en="Attention weights of the four words",
            inputs=four_word_inputs("S"),
            given_from=with_tokens(lambda d: {"S": d["S"]}),
        ),
        Task(
            "4.2",
            "ex04_softmax",
            var="A_new",
            step="softmax",
            title_zh="新数据：3 × 5 的分数按行 softmax",
            title_en="Fresh data: softmax of 3 × 5 scores",
            inputs=fresh_scores,
            given_from=lambda d: {"S": d["S_new"]},
        ),
        Task(
            "4.3",
            "ex04_softmax",
            var="A_big",
            step="softmax",
            title_zh="很大的分数：数值稳定的 softmax",
            title_en="Huge scores: a numerically stable softmax",
            inputs=big_scores,
            given_from=lambda d: {"S": d["S_big"]},
        ),
        Task(
            "4.4",
            "ex04_softmax",
            var="A_double",
            step="weights",
            title_zh="把“语言”的键放大到 2 倍后的权重",
            title_en="Weights after doubling the key of 语言",
            inputs=four_word_inputs("Q", "K"),
            given_from=with_tokens(lambda d: {"Q": d["Q"], "K": doubled(d["K"], YUYAN), "d_k": 3, "scaled": True}),
        ),
        # ---- ex05: O = A·V (K and S are given too, so using them by mistake is named)
        Task(
            "5.1",
            "ex05_weighted_sum",
            var="O",
            step="weighted_sum",
            title_zh="四个词的输出 O = A·V",
            title_en="Output of the four words",
            inputs=four_word_inputs("A", "K", "V"),
            given_from=with_tokens(lambda d: {"A": d["A"], "V": d["V"], "K": d["K"], "S": four_word_pool()["S"]}),
        ),
        Task(
            "5.2",
            "ex05_weighted_sum",
            var="O_new",
            step="weighted_sum",
            title_zh="新数据：n_k = 5、d_v = 2 的加权求和",
            title_en="Fresh data: weighted sum with n_k = 5, d_v = 2",
            inputs=fresh_weights,
            given_from=lambda d: {"A": d["A_new"], "V": d["V_new"], "K": d["K_new"]},
        ),
        # ---- ex06: all five steps
        Task(
            "6.1",
            "ex06_full_pipeline",
            var="O",
            step="output",
            title_zh="四个词：从 Q、K、V 到输出 O",
            title_en="Four words: from Q, K, V to O",
            inputs=four_word_inputs("Q", "K", "V"),
            given_from=with_tokens(lambda d: {"Q": d["Q"], "K": d["K"], "V": d["V"]}),
        ),
        Task(
            "6.2",
            "ex06_full_pipeline",
            var="O_new",
            step="output",
            title_zh="新数据：2 个查询、5 个键、d_v = 3",
            title_en="Fresh data: 2 queries, 5 keys, d_v = 3",
            inputs=fresh(602, Q_new=(2, 4), K_new=(5, 4), V_new=(5, 3)),
            given_from=lambda d: {"Q": d["Q_new"], "K": d["K_new"], "V": d["V_new"]},
        ),
        Task(
            "6.3",
            "ex06_full_pipeline",
            var="A_x",
            step="weights",
            title_zh="从 X 出发：注意力权重",
            title_en="From X: the attention weights",
            inputs=fresh(603, X_new=(4, 5), W_q_new=(5, 3), W_k_new=(5, 3), W_v_new=(5, 2)),
            given_from=lambda d: {
                "Q": d["X_new"] @ d["W_q_new"],
                "K": d["X_new"] @ d["W_k_new"],
                "d_k": 3,
                "scaled": True,
            },
        ),
        Task(
            "6.4",
            "ex06_full_pipeline",
            var="O_x",
            step="output",
            title_zh="从 X 出发：输出 O",
            title_en="From X: the output",
            inputs=fresh(603, X_new=(4, 5), W_q_new=(5, 3), W_k_new=(5, 3), W_v_new=(5, 2)),
            given_from=lambda d: {
                "Q": d["X_new"] @ d["W_q_new"],
                "K": d["X_new"] @ d["W_k_new"],
                "V": d["X_new"] @ d["W_v_new"],
            },
            builds_on=BuildsOn("6.3", "weighted_sum", lambda d, A_x: {"A": A_x, "V": d["X_new"] @ d["W_v_new"]}),
        ),
        # ---- ex07: the causal mask
        Task(
            "7.1",
            "ex07_causal_mask",
            var="mask",
            step="causal_mask",
            title_zh="4 个位置的因果掩码",
            title_en="Causal mask for 4 positions",
            inputs=lambda: {"n": 4},
            given_from=with_tokens(lambda d: {"n": d["n"]}),
        ),
        Task(
            "7.2",
            "ex07_causal_mask",
            var="A_causal",
            step="weights",
            title_zh="四个词的因果注意力权重",
            title_en="Causal attention weights of the four words",
            inputs=four_word_inputs("Q", "K"),
            given_from=with_tokens(
                lambda d: {"Q": d["Q"], "K": d["K"], "mask": core.causal_mask(4), "d_k": 3, "scaled": True}
            ),
        ),
        Task(
            "7.3",
            "ex07_causal_mask",
            var="O_causal",
            step="output",
            title_zh="新数据：6 个位置的因果自注意力输出",
            title_en="Fresh data: causal self-attention output, 6 positions",
            inputs=fresh(703, Q_new=(6, 4), K_new=(6, 4), V_new=(6, 2)),
            given_from=lambda d: {"Q": d["Q_new"], "K": d["K_new"], "V": d["V_new"], "mask": core.causal_mask(6)},
        ),
    )
}


def task(task_id):
    """The Task registered under ``task_id`` (a str such as "2.1"); KeyError with the known ids otherwise."""
    try:
        return TASKS[str(task_id)]
    except KeyError:
        raise KeyError(msg("no_task", task_id=task_id, ids=", ".join(TASKS))) from None


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
        raise KeyError(msg("no_exercise", exercise=exercise, names=", ".join(EXERCISES)))
    return matches[0]


def data(task_id):
    """The inputs of a task, freshly built, in the order the notebook unpacks them."""
    return task(task_id).data()
