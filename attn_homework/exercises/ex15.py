"""ex15: attention that was learned, scoring heads (steps in checker/learned.py).

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

from ..task_data import INDUCTION_QUERY, an_induction_head, probe_induction, two_heads_of_layer_1
from .model import Exercise, Task, _no_givens

EXERCISE = Exercise("ex15_learned_heads", "15_learned_heads.ipynb", "学出来的注意力", "Attention that was learned")

TASKS = (
    Task(
        "15.1",
        "ex15_learned_heads",
        var="prev_scores",
        step="previous_token_scores",
        title_zh="每个头的前一词元分数",
        title_en="The previous-token score of each head",
        inputs=two_heads_of_layer_1,
        given_from=lambda d: {"weights": d["A_heads"]},
    ),
    Task(
        "15.2",
        "ex15_learned_heads",
        var="induction_key",
        step="predict_induction_key",
        title_zh="先预测：归纳头从位置 18 看哪个位置",
        title_en="Predict first: which position the induction head reads from position 18",
        inputs=lambda: dict(INDUCTION_QUERY),
        given_from=lambda d: dict(d),
        answer_kind="number",
    ),
    Task(
        "15.3",
        "ex15_learned_heads",
        var="fixed_induction_score",
        step="fix_induction_score",
        title_zh="找错：修好归纳分数",
        title_en="Find the bug: fix the induction score",
        inputs=an_induction_head,
        given_from=_no_givens,
        answer_kind="function",
        probe_arguments=probe_induction,
    ),
)
