"""ex02: QKᵀ.

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

from ..task_data import four_word_inputs, fresh, probe_scores, with_tokens
from .model import Exercise, Task, _no_givens

EXERCISE = Exercise("ex02_scores", "02_scores_qkt.ipynb", "分数矩阵 QKᵀ", "The score matrix QKᵀ")

TASKS = (
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
)
