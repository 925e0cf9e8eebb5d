"""ex05: O = A·V (K and S are given too, so using them by mistake is named).

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

from ..task_data import four_word_inputs, four_word_pool, fresh, fresh_weights, with_tokens
from .model import Exercise, Task

EXERCISE = Exercise("ex05_weighted_sum", "05_weighted_sum.ipynb", "加权求和 A·V", "The weighted sum A·V")

TASKS = (
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
)
