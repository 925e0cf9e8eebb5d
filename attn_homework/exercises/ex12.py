"""ex12: word order (steps in checker/positions.py).

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

import numpy as np

from ..task_data import a_query_and_a_key, fresh, one_query_at_a_position, shuffled_sentence
from .model import Exercise, Task

EXERCISE = Exercise("ex12_positions", "12_positions.ipynb", "词序与位置编码", "Word order and positions")

TASKS = (
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
