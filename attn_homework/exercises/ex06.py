"""ex06: all five steps.

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

from ..task_data import four_word_inputs, fresh, probe_attention, with_tokens
from .model import BuildsOn, Exercise, Task, _no_givens

EXERCISE = Exercise("ex06_full_pipeline", "06_full_pipeline.ipynb", "完整五步", "All five steps")

TASKS = (
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
            "d_model": d["X_new"].shape[-1],
            "d_v": d["W_v_new"].shape[-1],  # labels √d_v, as 6.4 names it
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
            "d_model": d["X_new"].shape[-1],  # labels √d_model, as 6.3 names it
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
)
