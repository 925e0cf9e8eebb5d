"""ex10: the backward pass (3 queries, 4 keys, d_k = 4, d_v = 2).

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

from ..task_data import attention_gradients, score_gradient, softmax_gradient
from .model import Exercise, Task

EXERCISE = Exercise("ex10_backward", "10_learning_qkv.ipynb", "反向传播", "The backward pass")

TASKS = (
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
)
