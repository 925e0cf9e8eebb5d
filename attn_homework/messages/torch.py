"""Lesson 13 (the same numbers in PyTorch): the messages of ex13's steps (checker/torch_port.py).

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
    # ---------------------------------------------------------------- in_proj_weight
    "axes_in_proj": (
        "3·d_model × d_model：先是 q 的 d_model 行，再是 k 的、v 的；每一行是一个输出特征，每一列是一个输入特征",
        "3·d_model × d_model: first the d_model rows of q, then those of k and of v; one row per output feature, "
        "one column per input feature",
    ),
    "entry_in_proj": (
        "这个数在第 {i} 行、第 {j} 列：第 {i} 行属于 q、k、v 中的一块，块里的每一行是那个投影的一个输出特征，"
        "也就是原来矩阵的一列。",
        "This is row {i}, column {j}: row {i} belongs to the q, k or v block, and each row of a block is one output "
        "feature of that projection, that is one column of the original matrix.",
    ),
    "in_proj_not_transposed": (
        "三个投影没有转置就叠在了一起。PyTorch 的线性层（in_proj_weight 也一样）算的是 X @ W.T，而前几课的 "
        "W_Q 是按 X @ W_Q 用的，所以每一块都要放它的转置。方阵忘了转置，形状照样对得上，数却全错。",
        "The three projections are stacked without being transposed. PyTorch's linear layers (in_proj_weight too) "
        "compute X @ W.T, while the course's W_Q is used as X @ W_Q, so each block must be its transpose. With square "
        "matrices the shape still fits when the transpose is forgotten; the numbers do not.",
    ),
    "in_proj_wrong_order": (
        "三块都转置了，可顺序不对：in_proj_weight 从上到下依次是 q、k、v 的投影。",
        "All three blocks are transposed, but in the wrong order: from top to bottom in_proj_weight holds the "
        "projections of q, then k, then v.",
    ),
    "hint_in_proj_side_by_side": (
        "你把三个投影左右并排了：这是 X @ W 的布局（Hugging Face 的 GPT-2 的 c_attn 就这样存）。"
        "in_proj_weight 要的是上下叠起来的三块，每一块是一个投影的转置。",
        "You put the three projections side by side: that is the X @ W layout (Hugging Face's GPT-2 keeps its "
        "c_attn so). in_proj_weight wants three blocks stacked on top of each other, each the transpose of one "
        "projection.",
    ),
    # ---------------------------------------------------------------- predict: the weights nn.MultiheadAttention returns
    "explain_mha_weight_count": (
        "默认（need_weights=True、average_attn_weights=True）返回的权重是各头权重的平均：想一想平均之后还剩哪几个轴，"
        "每个轴有多长，再相乘。",
        "By default (need_weights=True, average_attn_weights=True) the returned weights are the heads' weights "
        "averaged: work out which axes are left after the average and how long each is, then multiply.",
    ),
    "predict_count_per_head": (
        "这是每个头各一份权重时的个数（average_attn_weights=False 才这样返回）。默认返回的是各头的平均，头这个轴没有了。",
        "That is the count with one set of weights per head (what average_attn_weights=False returns). By default "
        "the heads are averaged, so there is no heads axis.",
    ),
    "predict_count_without_batch": (
        "批量里的每个序列各有自己的权重矩阵：批量这个轴还在。",
        "Every sequence of the batch has its own matrix of weights: the batch axis is still there.",
    ),
    "predict_count_of_output": (
        "那是输出 O（批量 × n_q × d_model）的个数。权重的每一行是一个查询对各个键的分配，列数是键的个数，不是特征数。",
        "That is the size of the output O (batch × n_q × d_model). Each row of the weights shares one query's attention "
        "among the keys: its length is the number of keys, not of features.",
    ),
    # ---------------------------------------------------------------- find the bug: the additive mask
    "axes_additive": (
        "和 allowed 同样的形状：每个元素加在对应的分数上，0 = 可以看，−∞ = 挡住",
        "the shape of allowed: each entry is added to its score, 0 = may attend, −∞ = blocked",
    ),
    "bug_additive_inverted": (
        "掩码反了：allowed 里 True 表示可以看（attn_core 和 SDPA 的约定），那里要加 0；−∞ 要加在 False 的位置。"
        "反了以后，每个位置只看得见原来要挡住的键，原来能看见所有键的行就一个也看不见了。",
        "The mask is inverted: in allowed, True means may attend (the convention of attn_core and SDPA), and 0 goes "
        "there; −∞ goes where it is False. Inverted, every position sees only the keys that were to be blocked, and a "
        "row that could see every key now sees none.",
    ),
    "bug_additive_transposed": (
        "掩码被转置了（.T）：第 i 行属于查询 i，第 j 列属于键 j；转置之后查询 i 拿到的是键 i 那一列的规则，"
        "因果掩码就变成了只看未来。0 和 −∞ 放得对，只是别转置：结果和 allowed 同样形状，逐个元素对应。",
        "The mask is transposed (.T): row i belongs to query i and column j to key j; transposed, query i gets the "
        "rule of key i's column, and a causal mask lets each position see only the future. The 0 and −∞ are right; "
        "just do not transpose: the result has the shape of allowed, entry by entry.",
    ),
    "bug_additive_inverted_transposed": (
        "两处不对：−∞ 放在了 allowed 为 True（可以看）的位置，而且结果被转置了（.T）。"
        "转置只是让因果掩码的错看起来不那么明显，并没有修好它：0 放在 True 处，−∞ 放在 False 处，形状和 allowed 一样，不转置。",
        "Two things are off: −∞ sits where allowed is True (may attend), and the result is transposed (.T). On a "
        "causal mask the transpose hides the inversion, it does not fix it: 0 goes where allowed is True, −∞ where it "
        "is False, entry by entry in the shape of allowed, with no transpose.",
    ),
    "bug_additive_plus_inf": (
        "挡住的位置是 +∞，应该是 −∞：加上 +∞，被挡住的分数反而最大（softmax 里 ∞ − ∞ 得 NaN）。"
        "这里的 ∞ 是你写进去的，不是溢出。",
        "The blocked entries are +∞; they must be −∞: with +∞ added, the blocked scores become the largest ones "
        "(and softmax meets ∞ − ∞ = NaN). This ∞ is the one you wrote, not an overflow.",
    ),
    "bug_additive_zero_one": (
        "加性掩码（浮点掩码）是加在分数上的：把布尔掩码变成 0 和 1，只是让可以看的分数多了 1，要挡住的分数没有变，什么也挡不住。"
        "挡住要加 −∞。",
        "A float mask is added to the scores: the boolean mask as 0 and 1 only adds 1 to the scores that may be "
        "attended to and leaves the ones to block as they are, so nothing is blocked. Blocking takes −∞.",
    ),
    "bug_additive_minus_one": (
        "−1 只让要挡住的分数小了一点，softmax 之后它们的权重还不是 0：挡住要加 −∞。",
        "−1 only lowers the scores to be blocked a little; after softmax their weights are not 0. Blocking takes −∞.",
    ),
    "bug_additive_minus_1e9": (
        "-1e9 不是 −∞：一行里还有能看到的键时，它确实把被挡住的权重压成 0；可是整行都被挡住时（一个键也不许看的位置），"
        "-1e9 加到整行上什么也挡不住：整行加上同一个数，softmax 不变，这一行得到的是不加掩码的权重。"
        "这就是题后“想一想”问的情形。这道题的加性掩码在挡住处是 −∞，SDPA 和 nn.MultiheadAttention 都这样读。",
        "-1e9 is not −∞: in a row that still sees some key it does push the blocked weights to 0, but added to a "
        "whole row (a position that may see no key) it blocks nothing: softmax does not change when the same "
        "number is added to a whole row, so that row gets its unmasked weights. This is the case the task's "
        '"Think about it" asks about. This task\'s float mask is −∞ where blocked, as SDPA and '
        "nn.MultiheadAttention read it.",
    ),
}
