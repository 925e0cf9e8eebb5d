"""ex07: the causal mask.

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

from attn_core import core

from ..task_data import four_word_inputs, fresh, probe_causal, with_tokens
from .model import Exercise, Task, _no_givens

EXERCISE = Exercise("ex07_causal_mask", "07_masks_and_cross_attention.ipynb", "因果掩码", "The causal mask")

TASKS = (
    Task(
        "7.1",
        "ex07_causal_mask",
        var="mask",
        step="causal_mask",
        title_zh="4 个位置的因果掩码",
        title_en="Causal mask for 4 positions",
        inputs=lambda: {"n": 4},
        given_from=with_tokens(lambda d: {"n": d["n"]}),
    ),
    Task(
        "7.2",
        "ex07_causal_mask",
        var="A_causal",
        step="weights",
        title_zh="四个词的因果注意力权重",
        title_en="Causal attention weights of the four words",
        inputs=four_word_inputs("Q", "K"),
        given_from=with_tokens(
            lambda d: {"Q": d["Q"], "K": d["K"], "mask": core.causal_mask(4), "d_k": 3, "scaled": True}
        ),
    ),
    Task(
        "7.3",
        "ex07_causal_mask",
        var="O_causal",
        step="output",
        title_zh="新数据：6 个位置的因果自注意力输出",
        title_en="Fresh data: causal self-attention output, 6 positions",
        inputs=fresh(703, Q_new=(6, 4), K_new=(6, 4), V_new=(6, 2)),
        given_from=lambda d: {"Q": d["Q_new"], "K": d["K_new"], "V": d["V_new"], "mask": core.causal_mask(6)},
    ),
    Task(
        "7.4",
        "ex07_causal_mask",
        var="row_sum",
        step="predict_masked_row_sum",
        title_zh="先预测：6 个位置的因果权重，第 2 行加起来是多少？",
        title_en="Predict: what does row 2 of the causal weights of 6 positions add up to?",
        inputs=fresh(703, Q_new=(6, 4), K_new=(6, 4), V_new=(6, 2)),
        given_from=lambda d: {"Q": d["Q_new"], "K": d["K_new"], "mask": core.causal_mask(6), "row": 2},
        answer_kind="number",
    ),
    Task(
        "7.5",
        "ex07_causal_mask",
        var="fixed_causal_attention",
        step="fix_causal",
        title_zh="找错：修好 buggy_causal_attention",
        title_en="Find the bug: fix buggy_causal_attention",
        inputs=fresh(750, Q_demo=(4, 3), K_demo=(4, 3), V_demo=(4, 2)),
        given_from=_no_givens,
        answer_kind="function",
        probe_arguments=probe_causal,
    ),
)
