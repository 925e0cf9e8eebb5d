"""ex08: multi-head attention (n = 5 positions, d_model = 6, 3 heads of d_head = 2).

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

from ..task_data import fresh, heads_to_split, multi_head_layer, probe_split
from .model import Exercise, Task, _no_givens

EXERCISE = Exercise("ex08_multi_head", "08_multi_head.ipynb", "多头注意力", "Multi-head attention")

TASKS = (
    Task(
        "8.1",
        "ex08_multi_head",
        var="Q_heads",
        step="split_heads",
        title_zh="拆成 3 个头：(5, 6) → (3, 5, 2)",
        title_en="Split into 3 heads: (5, 6) → (3, 5, 2)",
        inputs=heads_to_split,
        given_from=lambda d: {"Q": d["Q"], "n_heads": d["n_heads"]},
    ),
    Task(
        "8.2",
        "ex08_multi_head",
        var="under_the_root",
        step="predict_head_scale",
        title_zh="先预测：每个头的分数除以根号几？",
        title_en="Predict: each head's scores are divided by the root of what?",
        inputs=heads_to_split,
        given_from=lambda d: {"n": d["Q"].shape[0], "n_heads": d["n_heads"], "d_model": d["Q"].shape[1]},
        answer_kind="number",
    ),
    Task(
        "8.3",
        "ex08_multi_head",
        var="O_heads",
        step="output",
        title_zh="3 个头各自做注意力",
        title_en="Attention in each of the 3 heads",
        inputs=fresh(803, Q_h=(3, 5, 2), K_h=(3, 5, 2), V_h=(3, 5, 2)),
        given_from=lambda d: {"Q": d["Q_h"], "K": d["K_h"], "V": d["V_h"], "d_model": 6},
    ),
    Task(
        "8.4",
        "ex08_multi_head",
        var="merged",
        step="merge_heads",
        title_zh="把 3 个头拼回去：(3, 5, 2) → (5, 6)",
        title_en="Merge the 3 heads: (3, 5, 2) → (5, 6)",
        inputs=fresh(804, O_h=(3, 5, 2)),
        given_from=lambda d: {"heads": d["O_h"]},
    ),
    Task(
        "8.5",
        "ex08_multi_head",
        var="Y",
        step="multi_head",
        title_zh="从 X 出发的完整多头注意力",
        title_en="The whole multi-head layer, from X",
        inputs=multi_head_layer,
        given_from=lambda d: dict(d),
    ),
    Task(
        "8.6",
        "ex08_multi_head",
        var="fixed_split_heads",
        step="fix_split",
        title_zh="找错：修好 buggy_split_heads",
        title_en="Find the bug: fix buggy_split_heads",
        inputs=fresh(806, M_demo=(4, 6)),
        given_from=_no_givens,
        answer_kind="function",
        probe_arguments=probe_split,
    ),
)
