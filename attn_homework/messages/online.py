"""Lesson 9: the online softmax over blocks of keys.

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
    # ---------------------------------------------------------------- lesson 9: the online softmax
    "max_axis": (
        "最大值取错了轴：你取的是每一列（axis=0）的最大值。每个查询行要有它自己的最大值，沿这一行（axis=1）取。",
        "The maximum is taken along the wrong axis: yours is each column's (axis=0). Every query row keeps "
        "its own maximum, along the row (axis=1).",
    ),
    "keepdims_running": (
        "数对了，但形状是 (n_q,)：加上 keepdims=True 保持 (n_q, 1)，它才能沿着每一行广播。",
        "The numbers are right, but the shape is (n_q,): keepdims=True keeps it (n_q, 1), so that it "
        "broadcasts along each row.",
    ),
    "max_whole_block": (
        "你取的是整块的一个最大值：每个查询行要有它自己的最大值。",
        "That is one maximum for the whole block: every query row needs its own.",
    ),
    "sum_with_block_max": (
        "你减去的是整块的一个最大值：l1 要相对于这一行自己的最大值 m1 来算，对 exp(分数 − m1) 求和（m1 每行一个）。",
        "You subtracted one maximum of the whole block: l1 is measured against the row's own maximum m1, the sum "
        "of exp(score − m1), with one m1 per row.",
    ),
    "sum_not_shifted": (
        "l 要相对于 m 来算：对 exp(分数 − m1) 求和，而不是 exp(分数)。",
        "l is measured against m: sum exp(score − m1), not exp(score).",
    ),
    "never_shifted": (
        "没有减去最大值：累计量要相对于当前最大值 m2 来算，用 exp(分数 − m2)；不减的话，分数一大 exp 就会溢出（不溢出时，最后得到的 O 在数学上相同）。",
        "No maximum subtracted: the running sums are measured against the running maximum m2, with "
        "exp(score − m2); without it exp overflows on large scores (without overflow, the final O is mathematically the same).",
    ),
    "sum_axis": (
        "求和取错了轴：你沿着列（axis=0）加了；每个查询行只加自己这一行（axis=1）。",
        "The sum runs along the wrong axis: yours adds down the columns (axis=0); each query row adds up its "
        "own row (axis=1).",
    ),
    "not_rescaled": (
        "旧的累计量没有重新缩放：l1 和 acc1 是相对于 m1 算的；新的最大值 m2 更大时，要先乘以 exp(m1 − m2)，"
        "把它们换算成相对于 m2，再加上新块的部分。",
        "The old sums were not rescaled: l1 and acc1 are measured against m1; when the new maximum m2 is "
        "larger, multiply them by exp(m1 − m2) to re-express them against m2, then add the new block's part.",
    ),
    "rescaled_backwards": (
        "缩放因子反了：应当乘以 exp(m1 − m2)（不大于 1），你乘的是 exp(m2 − m1)。",
        "The factor is upside down: multiply by exp(m1 − m2) (at most 1); you multiplied by exp(m2 − m1).",
    ),
    "max_not_running": (
        "m2 只取了第 2 块的最大值：它应当是到目前为止见过的最大值，max(m1, 第 2 块的最大值)。",
        "m2 is block 2's maximum alone: it must be the largest score seen so far, max(m1, block 2's maximum).",
    ),
    "min_not_max": (
        "你取的是每一行的最小值（min）：要减去的是这一行的最大值（max），这样 exp 的结果都不超过 1。",
        "That is each row's minimum (min): subtract the row's maximum (max), so that no exp exceeds 1.",
    ),
    "mean_not_max": (
        "你取的是每一行的平均值：这里要的是这一行的最大值（max），减去它之后 exp 的结果都不超过 1。",
        "That is each row's mean: this asks for the row's maximum (max), so that after subtracting it no exp "
        "exceeds 1.",
    ),
    "new_block_forgotten": (
        "只算了第 1 块：第 2 块的 exp(S2 − m2)（累计分子还要乘以 V2）没有加进来。",
        "Only block 1 is counted: block 2's exp(S2 − m2) (times V2, for the accumulator) is never added.",
    ),
    "old_sums_dropped": (
        "只算了第 2 块：第 1 块的累计量（重新缩放之后）也要加进来。",
        "Only block 2 is counted: the first block's sums (rescaled) must be added too.",
    ),
    "acc_divided": (
        "这已经除以 l2 了，是最终输出 O：acc2 是除以 l2 之前的累计分子。",
        "This is already divided by l2, the final output O: acc2 is the running numerator before dividing.",
    ),
    "divided_early": (
        "在最后一块之前就除以了 l：第 1 块之后把 acc 除以 l1，最后又除以 l2，等于除了两次。"
        "累计分子 acc 和分母 l 一直分开，只在最后一块之后除一次。",
        "Divided by l before the last block: dividing acc by l1 after block 1 and by l2 at the end divides "
        "twice. Keep the numerator acc and the denominator l apart, and divide once, after the last block.",
    ),
    "not_divided": (
        "这是 acc2：最后还要除以 l2，每一行的权重才加起来为 1。",
        "This is acc2: divide it by l2 at the end, so that each row's weights add up to 1.",
    ),
    "max_both_blocks": (
        "你的 m1 是两块合起来的最大值：m1 是看完第 1 块之后的累计量，这时第 2 块的分数还没见到，只用 S1。",
        "Your m1 is the maximum over both blocks: m1 is the running value after block 1, when block 2's scores "
        "have not been seen yet; use S1 alone.",
    ),
    "sum_with_both_blocks_max": (
        "你减去的是两块合起来的最大值：l1 是看完第 1 块之后的累计量，这时第 2 块的分数还没见到，要相对于只用 S1 算的 m1 来算。",
        "You subtracted the maximum over both blocks: l1 is the running value after block 1, when block 2's "
        "scores have not been seen yet; measure it against m1, taken from S1 alone.",
    ),
    "blocks_added": (
        "你把两块各自的注意力输出加起来了：每块的权重只在块内归一化（各自加起来为 1），两块相加，每行的权重和就成了 2。"
        "softmax 要对一整行所有的键一起归一化：用累计的 m、l、acc。",
        "You added each block's own attention output: each block's weights are normalised within the block (each "
        "adds up to 1), so the sum's weights add up to 2 per row. softmax normalises over all the keys of the row "
        "together: use the running m, l and acc.",
    ),
    "first_block_only": (
        "你的 O 只用了第 1 块：这是只对 S1 的键做的注意力，第 2 块的分数和值都没有进来。O 要用看完两块之后的累计量。",
        "Your O uses block 1 alone: it is attention over S1's keys only; block 2's scores and values never came "
        "in. O takes the running values after both blocks.",
    ),
    "blocks_averaged": (
        "你把两块各自的注意力输出平均了：每块的权重只在块内归一化，而 softmax 要对一整行所有的键一起归一化。"
        "用累计的 m、l、acc。",
        "You averaged each block's own attention output: each block's weights are normalised within the block, "
        "but softmax normalises over all the keys of the row together. Use the running m, l and acc.",
    ),
    "last_block_only": (
        "这只是对第 2 块的注意力：第 1 块的键也要算进来。",
        "This is attention over block 2 alone: the keys of block 1 count too.",
    ),
    "hint_keepdims_column": (
        "这是一个扁平的向量：加上 keepdims=True 保持 (n_q, 1) 这一列。",
        "That is a flat vector: keepdims=True keeps the (n_q, 1) column.",
    ),
    "hint_transposed_column": (
        "这是转置后的形状：(1, n_q) 是一行，要的是一列，每个查询行一个数。",
        "That is the transposed shape: (1, n_q) is a row, and a column is asked for, one number per query row.",
    ),
    "hint_one_per_score": (
        "你的结果每个分数对应一个数，要的是每个查询行一个数：沿列（axis=0）取的最大值或和是一行 (1, n_k)，"
        "它和一列 (n_q, 1) 运算时会广播成 (n_q, n_k)；没有求和的 exp 也是这个形状。"
        "每个最大值和每个和都沿着每一行取：axis=-1, keepdims=True。",
        "Yours has a number for every score, where one number per query row is asked: a maximum or sum down "
        "the columns (axis=0) is a row (1, n_k), which broadcasts against an (n_q, 1) column to (n_q, n_k); an "
        "exp left unsummed has this shape too. Take every maximum and every sum along each row: axis=-1, "
        "keepdims=True.",
    ),
    "explain_rescale": (
        "当前最大值只有在新块带来更大的分数时才会变；这个因子把旧的和换算到新的最大值上。新块的最大值更小时，当前最大值变了吗？",
        "The running maximum only changes when a block brings a larger score; the factor re-expresses the old "
        "sums against the new maximum. If the new block's maximum is smaller, does the running maximum change?",
    ),
    "predict_zero_factor": (
        "旧的和并不会被扔掉：它们已经包含了前面所有键的 exp，只需换算到新的最大值上。",
        "The old sums are never thrown away: they hold the exps of all the earlier keys and only need "
        "re-expressing against the new maximum.",
    ),
    "predict_block_factor": (
        "那是拿新块自己的最大值来换算：可是当前最大值是 max(旧的 m, 新块的最大值)。",
        "That re-expresses against the new block's own maximum: but the running maximum is max(old m, the "
        "block's maximum).",
    ),
}
