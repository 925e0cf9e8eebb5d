"""ex11: LayerNorm, the residual, the feed-forward network (4 positions, d_model = 6).

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

from ..task_data import feed_forward, layer_inputs
from .model import Exercise, Task

EXERCISE = Exercise("ex11_block", "11_transformer_block.ipynb", "层归一化、残差与前馈网络", "LayerNorm, residual, FFN")

TASKS = (
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
)
