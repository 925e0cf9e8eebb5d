"""ex01: Q = X·W_Q, K = X·W_K, V = X·W_V.

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

from ..task_data import four_word_inputs, fresh, with_tokens
from .model import Exercise, Task

EXERCISE = Exercise("ex01_projection", "01_qkv_projection.ipynb", "投影出 Q、K、V", "Projecting Q, K, V")

TASKS = (
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
        given_from=lambda d: {"X": d["X_new"], "W": d["W_q_new"], "name": "Q_new"},
    ),
    Task(
        "1.5",
        "ex01_projection",
        var="V_new",
        step="projection",
        title_zh="新数据：d_v = 2 的值",
        title_en="Fresh data: values with d_v = 2",
        inputs=fresh(101, X_new=(5, 4), W_q_new=(4, 3), W_v_new=(4, 2)),
        given_from=lambda d: {"X": d["X_new"], "W": d["W_v_new"], "name": "V_new"},
    ),
)
