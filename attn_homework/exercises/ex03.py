"""ex03: / √d_k.

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

from ..task_data import four_word_inputs, fresh, with_tokens
from .model import Exercise, Task

EXERCISE = Exercise("ex03_scaling", "03_scaling.ipynb", "除以 √d_k", "Dividing by √d_k")

TASKS = (
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
)
