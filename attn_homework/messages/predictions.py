"""Predict tasks (lessons 4, 5, 7 and later): a prediction is judged before its answer is shown.

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
    # ---------------------------------------------------------------- predictions in the exercises of lessons 4, 5, 7
    "explain_top_key": (
        "权重最大的键就是分数最高的键。分数是点积 q·k，把一个键乘以某个数，它参与的每个分数也乘以这个数："
        "算出（或估计）改动之后这一行的各个分数，再比较。",
        "The key with the most weight is the key with the highest score. A score is the dot product q·k, so "
        "multiplying a key by a number multiplies every score it takes part in by that number: work out (or "
        "estimate) the row's scores after the change, then compare.",
    ),
    "predict_top_before": (
        "改动之前，权重最大的是这个键；可是键乘以一个数，它的分数也乘以这个数：比一比改动之后的分数（不是权重）。",
        "That key had the most weight before the change; but multiplying a key multiplies its score too: "
        "compare the scores after the change (not the weights).",
    ),
    "predict_changed_key": (
        "被改动的键不一定得到最多的权重：看改动之后它的分数和别的分数谁大。",
        "The changed key does not necessarily get the most weight: compare its score after the change with the others.",
    ),
    "explain_output_width": (
        "O = A·V：O 的每一行是 V 的各行按权重混合出来的，所以它和一个值向量一样宽。",
        "O = A·V: each row of O is a mix of V's rows, so it is as wide as one value vector.",
    ),
    "predict_width_n_k": (
        "那是键的个数 n_k，也就是 A 的列数：A·V 沿着键把各个值加起来，这个轴在乘法里消掉了。",
        "That is the number of keys n_k, the width of A: A·V adds the values up over the keys, so that axis "
        "disappears in the product.",
    ),
    "predict_width_d_k": (
        "那是查询和键的宽度 d_k：它只在打分时用到；输出取回的是值 V。",
        "That is the width of the queries and keys d_k: it only matters for scoring; the output fetches the values V.",
    ),
    "predict_width_n_q": (
        "那是查询的个数，也就是 O 的行数：问的是 O 有几列。",
        "That is the number of queries, the number of rows of O: the question asks for its columns.",
    ),
    "explain_masked_row_sum": (
        "掩码在 softmax 之前：被挡住的分数是 −∞，权重正好是 0；softmax 只在剩下的键之间分配。",
        "The mask comes before softmax: masked scores are −∞ and get weight exactly 0; softmax shares the "
        "row out among the keys that are left.",
    ),
    "predict_masked_after": (
        "那是先 softmax、后掩码时剩下的权重之和；这里掩码在 softmax 之前，softmax 会在可见的键之间重新分配。",
        "That is what is left if the mask is applied after softmax; here it comes before, and softmax shares "
        "the row out among the visible keys.",
    ),
    "predict_count": (
        "那是这一行能看到的键的个数（或所占比例）：可见的键的权重之和是多少？",
        "That is how many keys the row may see (or their share): what do the visible keys' weights add up to?",
    ),
}
