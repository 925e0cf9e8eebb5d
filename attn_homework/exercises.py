"""The homework registry: every exercise notebook and every auto-checked task of them, in one place.

A task (e.g. "2.1") names its notebook, the learner's answer variable, the checker step
(see ``attn_homework.checker``) and how its data are built, deterministically (``task_data``). The
notebooks fetch their data here (``Q, K = homework.data("2.1")``) and check an answer with one line
(``check("2.1")``, in ``verdicts``); the grader (``python -m attn_homework.grade``) rebuilds the
same data in its own process. So every number has one source, and what a notebook shows is what the
grader checks against.

    data("2.1")           the task's inputs, unpackable: ``Q, K = homework.data("2.1")``.
    task("2.1")           the Task; ``tasks("ex02")`` those of one notebook, in order.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from attn_core import core
from attn_core.lang import tr

from .messages import msg
from .task_data import (
    RESCALE_ROW,
    XUEXI,
    YUYAN,
    a_query_and_a_key,
    attention_gradients,
    big_scores,
    doubled,
    feed_forward,
    four_word_inputs,
    four_word_pool,
    fresh,
    fresh_scores,
    fresh_weights,
    heads_to_split,
    layer_inputs,
    multi_head_layer,
    one_query_at_a_position,
    probe_attention,
    probe_causal,
    probe_scores,
    probe_softmax,
    probe_split,
    score_gradient,
    shuffled_sentence,
    softmax_gradient,
    two_blocks,
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
        Exercise("ex04_softmax", "04_softmax.ipynb", "逐行 softmax", "Row-wise softmax"),
        Exercise("ex05_weighted_sum", "05_weighted_sum.ipynb", "加权求和 A·V", "The weighted sum A·V"),
        Exercise("ex06_full_pipeline", "06_full_pipeline.ipynb", "完整五步", "All five steps"),
        Exercise("ex07_causal_mask", "07_masks_and_cross_attention.ipynb", "因果掩码", "The causal mask"),
        Exercise("ex08_multi_head", "08_multi_head.ipynb", "多头注意力", "Multi-head attention"),
        Exercise("ex09_online_softmax", "09_complexity.ipynb", "分块的在线 softmax", "The online softmax"),
        Exercise("ex10_backward", "10_learning_qkv.ipynb", "反向传播", "The backward pass"),
        Exercise("ex11_block", "11_transformer_block.ipynb", "层归一化、残差与前馈网络", "LayerNorm, residual, FFN"),
        # ---- lesson 12
        Exercise("ex12_positions", "12_positions.ipynb", "词序与位置编码", "Word order and positions"),
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
    ``given_from(inputs)`` turns them into the keyword arguments of ``attn_homework.checker.diagnose``."""

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
#               for four-word data, so the messages name the words;
#   answer_kind "number" for a predict task (one number or index; its check cell comes before the cell that
#               shows the answer), "function" for a find-the-bug task (the fixed function; ``step`` is one
#               of ``checker.functions.FUNCTION_STEPS`` and ``probe_arguments`` draws the checker's own
#               arguments from an rng; ``inputs`` are the example data the notebook shows).
# The teacher notebook (notebooks/exercises/teacher/) then has, per task, a data cell
# ``Q, K = homework.data("N.k")``, an answer cell ``QKT = ...`` with its solution between the markers,
# and a one-line check cell ``check("N.k")``; tests/test_homework.py checks that wiring.


def _no_givens(inputs):
    """A find-the-bug task's checker takes no givens: it judges the function on its own probe arguments."""
    return {}


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
        Task(
            "2.3",
            "ex02_scores",
            var="fixed_scores",
            step="fix_scores",
            title_zh="找错：修好 buggy_scores",
            title_en="Find the bug: fix buggy_scores",
            inputs=fresh(203, Q_demo=(3, 4), K_demo=(4, 4)),
            given_from=_no_givens,
            answer_kind="function",
            probe_arguments=probe_scores,
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
            title_zh="新数据：3 × 5 的分数逐行 softmax",
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
        Task(
            "4.5",
            "ex04_softmax",
            var="top_key",
            step="predict_top_key",
            title_zh="先预测：“语言”的键减半后，“学习”最关注谁？",
            title_en="Predict: halve the key of 语言; which key gets most from 学习?",
            inputs=four_word_inputs("Q", "K"),
            given_from=with_tokens(
                lambda d: {"Q": d["Q"], "K": d["K"], "row": XUEXI, "key": YUYAN, "factor": 0.5, "d_k": 3}
            ),
            answer_kind="number",
        ),
        Task(
            "4.6",
            "ex04_softmax",
            var="fixed_softmax",
            step="fix_softmax",
            title_zh="找错：修好 buggy_softmax",
            title_en="Find the bug: fix buggy_softmax",
            inputs=fresh(406, S_demo=(3, 3)),
            given_from=_no_givens,
            answer_kind="function",
            probe_arguments=probe_softmax,
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
        Task(
            "5.3",
            "ex05_weighted_sum",
            var="columns_of_O",
            step="predict_output_width",
            title_zh="先预测：d_v = 5 时 O 有几列？",
            title_en="Predict: how many columns has O when d_v = 5?",
            inputs=fresh(530, Q_5=(3, 2), K_5=(4, 2), V_5=(4, 5)),
            given_from=lambda d: {"Q": d["Q_5"], "K": d["K_5"], "V": d["V_5"]},
            answer_kind="number",
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
        Task(
            "6.5",
            "ex06_full_pipeline",
            var="fixed_attention",
            step="fix_attention",
            title_zh="找错：修好 buggy_attention",
            title_en="Find the bug: fix buggy_attention",
            inputs=fresh(650, Q_demo=(2, 3), K_demo=(4, 3), V_demo=(4, 3)),
            given_from=_no_givens,
            answer_kind="function",
            probe_arguments=probe_attention,
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
        Task(
            "7.4",
            "ex07_causal_mask",
            var="row_sum",
            step="predict_masked_row_sum",
            title_zh="先预测：6 个位置的因果权重，第 2 行加起来是多少？",
            title_en="Predict: what does row 2 of the causal weights of 6 positions add up to?",
            inputs=fresh(703, Q_new=(6, 4), K_new=(6, 4), V_new=(6, 2)),
            given_from=lambda d: {"Q": d["Q_new"], "K": d["K_new"], "mask": core.causal_mask(6), "row": 2},
            answer_kind="number",
        ),
        Task(
            "7.5",
            "ex07_causal_mask",
            var="fixed_causal_attention",
            step="fix_causal",
            title_zh="找错：修好 buggy_causal_attention",
            title_en="Find the bug: fix buggy_causal_attention",
            inputs=fresh(750, Q_demo=(4, 3), K_demo=(4, 3), V_demo=(4, 2)),
            given_from=_no_givens,
            answer_kind="function",
            probe_arguments=probe_causal,
        ),
        # ---- ex08: multi-head attention (n = 5 positions, d_model = 6, 3 heads of d_head = 2)
        Task(
            "8.1",
            "ex08_multi_head",
            var="Q_heads",
            step="split_heads",
            title_zh="拆成 3 个头：(5, 6) → (3, 5, 2)",
            title_en="Split into 3 heads: (5, 6) → (3, 5, 2)",
            inputs=heads_to_split,
            given_from=lambda d: {"Q": d["Q"], "n_heads": d["n_heads"]},
        ),
        Task(
            "8.2",
            "ex08_multi_head",
            var="under_the_root",
            step="predict_head_scale",
            title_zh="先预测：每个头的分数除以根号几？",
            title_en="Predict: each head's scores are divided by the root of what?",
            inputs=heads_to_split,
            given_from=lambda d: {"n": d["Q"].shape[0], "n_heads": d["n_heads"], "d_model": d["Q"].shape[1]},
            answer_kind="number",
        ),
        Task(
            "8.3",
            "ex08_multi_head",
            var="O_heads",
            step="output",
            title_zh="3 个头各自做注意力",
            title_en="Attention in each of the 3 heads",
            inputs=fresh(803, Q_h=(3, 5, 2), K_h=(3, 5, 2), V_h=(3, 5, 2)),
            given_from=lambda d: {"Q": d["Q_h"], "K": d["K_h"], "V": d["V_h"], "d_model": 6},
        ),
        Task(
            "8.4",
            "ex08_multi_head",
            var="merged",
            step="merge_heads",
            title_zh="把 3 个头拼回去：(3, 5, 2) → (5, 6)",
            title_en="Merge the 3 heads: (3, 5, 2) → (5, 6)",
            inputs=fresh(804, O_h=(3, 5, 2)),
            given_from=lambda d: {"heads": d["O_h"]},
        ),
        Task(
            "8.5",
            "ex08_multi_head",
            var="Y",
            step="multi_head",
            title_zh="从 X 出发的完整多头注意力",
            title_en="The whole multi-head layer, from X",
            inputs=multi_head_layer,
            given_from=lambda d: dict(d),
        ),
        Task(
            "8.6",
            "ex08_multi_head",
            var="fixed_split_heads",
            step="fix_split",
            title_zh="找错：修好 buggy_split_heads",
            title_en="Find the bug: fix buggy_split_heads",
            inputs=fresh(806, M_demo=(4, 6)),
            given_from=_no_givens,
            answer_kind="function",
            probe_arguments=probe_split,
        ),
        # ---- ex09: the online softmax over two blocks of keys (3 queries, 4 keys per block, d_v = 2)
        Task(
            "9.1",
            "ex09_online_softmax",
            var="m1",
            step="block_max",
            title_zh="第 1 块之后的运行最大值 m1",
            title_en="The running maximum m1 after block 1",
            inputs=two_blocks,
            given_from=lambda d: {"S1": d["S1"]},
        ),
        Task(
            "9.2",
            "ex09_online_softmax",
            var="l1",
            step="block_sum",
            title_zh="第 1 块之后的分母 l1",
            title_en="The denominator l1 after block 1",
            inputs=two_blocks,
            given_from=lambda d: {"S1": d["S1"]},
        ),
        Task(
            "9.3",
            "ex09_online_softmax",
            var="factor",
            step="predict_rescale",
            title_zh="先预测：第 1 行的旧累计量要乘以多少？",
            title_en="Predict: what are row 1's old sums multiplied by?",
            inputs=two_blocks,
            given_from=lambda d: {"S1": d["S1"], "S2": d["S2"], "row": RESCALE_ROW},
            answer_kind="number",
        ),
        Task(
            "9.4",
            "ex09_online_softmax",
            var="l2",
            step="online_sum",
            title_zh="第 2 块之后的分母 l2",
            title_en="The denominator l2 after block 2",
            inputs=two_blocks,
            given_from=lambda d: {"S1": d["S1"], "S2": d["S2"]},
        ),
        Task(
            "9.5",
            "ex09_online_softmax",
            var="acc2",
            step="online_acc",
            title_zh="第 2 块之后的累计分子 acc2",
            title_en="The accumulator acc2 after block 2",
            inputs=two_blocks,
            given_from=lambda d: dict(d),
        ),
        Task(
            "9.6",
            "ex09_online_softmax",
            var="O",
            step="online_output",
            title_zh="输出 O，与稠密注意力完全相同",
            title_en="The output O, exactly dense attention",
            inputs=two_blocks,
            given_from=lambda d: dict(d),
        ),
        # ---- ex10: the backward pass (3 queries, 4 keys, d_k = 4, d_v = 2)
        Task(
            "10.1",
            "ex10_backward",
            var="dV",
            step="grad_V",
            title_zh="值的梯度 dV",
            title_en="The gradient of the values dV",
            inputs=attention_gradients,
            given_from=lambda d: {"A": d["A"], "dO": d["dO"]},
        ),
        Task(
            "10.2",
            "ex10_backward",
            var="dA",
            step="grad_A",
            title_zh="权重的梯度 dA",
            title_en="The gradient of the weights dA",
            inputs=attention_gradients,
            given_from=lambda d: {"dO": d["dO"], "V": d["V"]},
        ),
        Task(
            "10.3",
            "ex10_backward",
            var="row_sum",
            step="predict_grad_row_sum",
            title_zh="先预测：dS 的一行加起来是多少？",
            title_en="Predict: what does a row of dS add up to?",
            inputs=softmax_gradient,
            given_from=lambda d: {"A": d["A"], "dA": d["dA_given"], "row": 0},
            answer_kind="number",
        ),
        Task(
            "10.4",
            "ex10_backward",
            var="dS",
            step="softmax_backward",
            title_zh="穿过 softmax：分数的梯度 dS",
            title_en="Through softmax: the gradient of the scores dS",
            inputs=softmax_gradient,
            given_from=lambda d: {"A": d["A"], "dA": d["dA_given"]},
        ),
        Task(
            "10.5",
            "ex10_backward",
            var="dQ",
            step="grad_Q",
            title_zh="查询的梯度 dQ（别忘了 1/√d_k）",
            title_en="The gradient of the queries dQ (mind 1/√d_k)",
            inputs=score_gradient,
            given_from=lambda d: {"dS": d["dS_given"], "K": d["K"], "d_k": 4},
        ),
        Task(
            "10.6",
            "ex10_backward",
            var="dK",
            step="grad_K",
            title_zh="键的梯度 dK",
            title_en="The gradient of the keys dK",
            inputs=score_gradient,
            given_from=lambda d: {"dS": d["dS_given"], "Q": d["Q"], "d_k": 4},
        ),
        # ---- ex11: LayerNorm, the residual, the feed-forward network (4 positions, d_model = 6)
        Task(
            "11.1",
            "ex11_block",
            var="X_norm",
            step="layer_norm",
            title_zh="每一行做 LayerNorm（ε = 1e-5）",
            title_en="LayerNorm of each row (ε = 1e-5)",
            inputs=layer_inputs,
            given_from=lambda d: {"X": d["X"], "eps": 1e-5},
        ),
        Task(
            "11.2",
            "ex11_block",
            var="H",
            step="residual_norm",
            title_zh="残差之后归一化：H = LayerNorm(X + F)",
            title_en="Residual, then LayerNorm: H = LayerNorm(X + F)",
            inputs=layer_inputs,
            given_from=lambda d: {"X": d["X"], "F": d["F"], "eps": 1e-5},
        ),
        Task(
            "11.3",
            "ex11_block",
            var="F_out",
            step="ffn",
            title_zh="前馈网络 FFN(H)",
            title_en="The feed-forward network FFN(H)",
            inputs=feed_forward,
            given_from=lambda d: {"H": d["H_in"], "W1": d["W1"], "b1": d["b1"], "W2": d["W2"], "b2": d["b2"]},
        ),
        Task(
            "11.4",
            "ex11_block",
            var="rows_changed",
            step="predict_rows_changed",
            title_zh="先预测：改动 H 的一行，FFN 的输出有几行会变？",
            title_en="Predict: change one row of H; how many rows of the FFN's output change?",
            inputs=feed_forward,
            given_from=lambda d: {
                "H": d["H_in"],
                **{name: d[name] for name in ("W1", "b1", "W2", "b2")},
                "row": 2,
                "factor": -1.0,
            },
            answer_kind="number",
        ),
        # ---- ex12: word order (steps in checker/positions.py)
        Task(
            "12.1",
            "ex12_positions",
            var="O_shuffled",
            step="reordered_output",
            title_zh="打乱句子后的自注意力输出",
            title_en="Self-attention output of the shuffled sentence",
            inputs=shuffled_sentence,
            given_from=lambda d: {
                "X": d["X_new"],
                "W_q": d["W_q_new"],
                "W_k": d["W_k_new"],
                "W_v": d["W_v_new"],
                "order": d["order"],
            },
        ),
        Task(
            "12.2",
            "ex12_positions",
            var="PE",
            step="sinusoidal",
            title_zh="前 6 个位置的正弦位置编码，d = 8",
            title_en="Sinusoidal encoding of the first 6 positions, d = 8",
            inputs=lambda: {"n": 6, "d": 8},
            given_from=lambda d: {"n": d["n"], "d": d["d"]},
        ),
        Task(
            "12.3",
            "ex12_positions",
            var="q_rot",
            step="rope",
            title_zh="RoPE：位置 3 上的 q，相邻配对（interleaved）",
            title_en="RoPE: q at position 3, neighbouring pairs (interleaved)",
            inputs=one_query_at_a_position,
            given_from=lambda d: {"X": d["q_new"], "positions": d["p"], "layout": "interleaved"},
        ),
        Task(
            "12.4",
            "ex12_positions",
            var="K_rot",
            step="rope",
            title_zh="RoPE：5 个键在位置 0 … 4，前后两半配对（rotate_half）",
            title_en="RoPE: 5 keys at positions 0 … 4, the two halves paired (rotate_half)",
            inputs=fresh(1204, K_new=(5, 6)),
            given_from=lambda d: {"X": d["K_new"], "positions": np.arange(5), "layout": "half"},
        ),
        Task(
            "12.5",
            "ex12_positions",
            var="S_pos",
            step="positioned_scores",
            title_zh="加上正弦位置编码后的缩放分数",
            title_en="Scaled scores with the sinusoidal encoding added",
            inputs=fresh(1205, X_pe=(5, 4), W_q_pe=(4, 4), W_k_pe=(4, 4)),
            given_from=lambda d: {"X": d["X_pe"], "W_q": d["W_q_pe"], "W_k": d["W_k_pe"]},
        ),
        Task(
            "12.6",
            "ex12_positions",
            var="scores_shifted",
            step="shifted_scores",
            title_zh="RoPE：两个位置一起后移时的分数",
            title_en="RoPE: the score as both positions move on",
            inputs=a_query_and_a_key,
            given_from=lambda d: {"q": d["q"], "k": d["k"], "i": d["i"], "j": d["j"], "shifts": d["shifts"]},
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
