"""ex09: the online softmax over two blocks of keys (3 queries, 4 keys per block, d_v = 2).

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

from ..task_data import RESCALE_ROW, two_blocks
from .model import Exercise, Task

EXERCISE = Exercise("ex09_online_softmax", "09_complexity.ipynb", "分块的在线 softmax", "The online softmax")

TASKS = (
    Task(
        "9.1",
        "ex09_online_softmax",
        var="m1",
        step="block_max",
        title_zh="第 1 块之后的运行最大值 m1",
        title_en="The running maximum m1 after block 1",
        inputs=two_blocks,
        given_from=lambda d: {"S1": d["S1"], "S2": d["S2"]},  # S2: the evidence of a maximum over both blocks
    ),
    Task(
        "9.2",
        "ex09_online_softmax",
        var="l1",
        step="block_sum",
        title_zh="第 1 块之后的分母 l1",
        title_en="The denominator l1 after block 1",
        inputs=two_blocks,
        given_from=lambda d: {"S1": d["S1"], "S2": d["S2"]},  # S2: the evidence of a maximum over both blocks
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
)
