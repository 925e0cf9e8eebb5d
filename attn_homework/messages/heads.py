"""Lesson 8: multi-head attention (split, merge, per-head weights).

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
    # ---------------------------------------------------------------- lesson 8: multi-head attention
    "split_reshape_alone": (
        "只用了 reshape：reshape(h, n, d_head) 把数一行一行地倒进新形状，一个“头”里混着好几个位置的数。"
        "先 reshape 成 (n, h, d_head)，再把头这个轴移到最前面（转置）。",
        "A reshape alone: reshape(h, n, d_head) pours the numbers into the new shape row by row, so one "
        '"head" holds pieces of several positions. Reshape to (n, h, d_head) first, then move the heads axis '
        "to the front (a transpose).",
    ),
    "split_not_moved": (
        "这是 (n, h, d_head)：拆对了，但头这个轴要移到最前面，成为 (h, n, d_head)，每个头才是一个 n × d_head 的矩阵。",
        "That is (n, h, d_head): split right, but the heads axis must move to the front, (h, n, d_head), so "
        "that each head is an n × d_head matrix.",
    ),
    "split_interleaved": (
        "你的头 k 拿的是每隔 h 列的一列：每个头应当拿相邻的 d_head 列（头 0 拿第 0 到 d_head − 1 列）。"
        "reshape 成 (n, h, d_head)，不是 (n, d_head, h)。",
        "Your head k takes every h-th column: each head must get a block of d_head neighbouring columns (head "
        "0 columns 0 to d_head − 1). Reshape to (n, h, d_head), not (n, d_head, h).",
    ),
    "transposed_heads": (
        "每个头都被转置了：每个头应是 n × d_head，行 = 位置，列 = 特征。",
        "Each head is transposed: a head is n × d_head, rows = positions, columns = features.",
    ),
    "merge_reshape_alone": (
        "只用了 reshape：(h, n, d_head) 直接 reshape 成 (n, h * d_head) 会把不同位置的数拼进同一行。"
        "先把头这个轴移到位置之后 (n, h, d_head)，再 reshape。",
        "A reshape alone: reshaping (h, n, d_head) straight to (n, h * d_head) puts numbers of different "
        "positions into one row. Move the heads axis after the positions first, (n, h, d_head), then reshape.",
    ),
    "merge_interleaved": (
        "各个头的列交错在一起了：拼接后应当先是头 0 的全部 d_head 列，再是头 1 的……",
        "The heads' columns are interleaved: after merging, head 0's d_head columns come first, then head 1's, …",
    ),
    "split_reversed": (
        "头的顺序反了：头 0 是 Q 最左边的 d_head 列，然后是头 1、头 2……（拆成多个头和拼接要用同一个顺序，W_O 才对得上）。",
        "The heads are in reverse order: head 0 is the leftmost d_head columns of Q, then head 1, head 2, … (the "
        "split and the merge use one order, so that W_O lines up).",
    ),
    "layer_split_merged_by_reshape": (
        "拆成多个头和拼接都只用了 reshape：两步都没有移动头这个轴，于是一个“头”里混着好几个位置的数，拼回去时又混了一次"
        "（只做了一步时，检查程序会单独指出那一步）。拆成多个头时：先 reshape 成 (n, h, d_head)，再把头的轴移到最前面；"
        "拼接：先把头的轴移回位置之后，再 reshape。",
        'Both the split and the merge are a reshape alone: neither moves the heads axis, so one "head" holds '
        "pieces of several positions, and the merge mixes them again. Split: reshape to (n, h, d_head), then move "
        "the heads axis to the front; merge: move it back after the positions, then reshape.",
    ),
    "layer_residual_added": (
        "你的结果是多头注意力的输出再加上 X：这道题只要注意力层本身，残差连接（加上输入）是第 11 课编码器层里的事。",
        "Your numbers are the multi-head output plus X: this task asks for the attention layer alone; the residual "
        "connection (adding the input) belongs to the encoder layer of lesson 11.",
    ),
    "layer_W_o_transposed": (
        "W_O 被转置了：拼接后的 (n, h * d_head) 直接右乘 W_O，它的第 i 行对应拼接结果的第 i 列。",
        "W_O is transposed: the merged (n, h * d_head) is multiplied on the right by W_O itself, whose row i meets "
        "column i of the merged heads.",
    ),
    "merge_reversed": (
        "头的顺序反了：拼接时头 0 在最左边，然后是头 1、头 2……（这个顺序要和拆成多个头时一致，W_O 才对得上）。",
        "The heads are in reverse order: head 0 goes on the left, then head 1, head 2, … (the order of the "
        "split, so that W_O lines up).",
    ),
    "merge_summed": (
        "你把各个头加起来（或平均）了：多头的输出是并排拼接，宽度变成 h * d_head，不是相加。",
        "You added (or averaged) the heads: their outputs are put side by side, h * d_head wide, not added.",
    ),
    "merge_stacked": (
        "你把各个头上下叠在一起了：应当左右并排，每一行仍是一个位置。",
        "You stacked the heads under each other: put them side by side, each row still one position.",
    ),
    "no_W_O": (
        "忘了 W_O：各个头拼接之后，还要乘以 W_O，把各个头的结果混合起来。",
        "W_O is missing: after merging the heads, multiply by W_O, which mixes the heads' results.",
    ),
    "scaled_by_d_model": (
        "除错了数：每个头的点积只有 d_head 项，所以除以 √d_head，不是 √d_model。",
        "Divided by the wrong number: each head's dot products have d_head terms, so divide by √d_head, not √d_model.",
    ),
    "scaled_by_n_heads": (
        "除错了数：你的结果等于每个头的分数除以 √n_heads（头数的平方根）。每个头的点积只有 d_head 项，所以除以 √d_head，"
        "与头数无关。",
        "Divided by the wrong number: your numbers are every head's scores divided by √n_heads (the square root of "
        "the number of heads). Each head's dot products have d_head terms, so divide by √d_head; the number of "
        "heads plays no part.",
    ),
    "unscaled_heads": (
        "忘了缩放：每个头的分数都要先除以 √d_head，再做 softmax。",
        "Scaling is missing: every head's scores are divided by √d_head before softmax.",
    ),
    "layer_split_by_reshape": (
        "拆成多个头时只用了 reshape：一个“头”里混进了好几个位置。先 reshape 成 (n, h, d_head)，再把头这个轴移到前面。",
        'The heads were made by a reshape alone, so a "head" mixes several positions: reshape to '
        "(n, h, d_head), then move the heads axis to the front.",
    ),
    "layer_merged_by_reshape": (
        "合并时只用了 reshape：不同位置的数被拼进了同一行。先把头这个轴移到位置之后，再 reshape。",
        "The heads were merged by a reshape alone, putting different positions into one row: move the heads "
        "axis after the positions first, then reshape.",
    ),
    "single_head": (
        "这是一个占满全部宽度的单头注意力：要把 Q、K、V 各拆成 n_heads 份，每个头单独做五步。",
        "This is one head over the whole width: cut Q, K and V into n_heads slices and run the five steps "
        "on each head separately.",
    ),
    "explain_head_scale": (
        "每个头只用自己那一份 Q 和 K：数一数一个头的点积有几项。",
        "Each head uses only its own slice of Q and K: count how many terms one head's dot product has.",
    ),
    "predict_d_model": (
        "那是整个投影的宽度 d_model：可是每个头只拿到其中的一份，它的点积项数少得多。",
        "That is the width of the whole projection, d_model: but each head gets only its slice, so its dot "
        "products have far fewer terms.",
    ),
    "predict_n_heads": (
        "那是头的个数：缩放看的是每个点积有几项（特征的个数），而不是有几个头。",
        "That is the number of heads: the scale depends on how many terms each dot product has (features), "
        "not on how many heads there are.",
    ),
    "predict_n": (
        "那是位置的个数：缩放看的是每个点积有几项（特征的个数），不是有多少个键。",
        "That is the number of positions: the scale depends on how many terms each dot product has (features), "
        "not on how many keys there are.",
    ),
    "predict_root_itself": (
        "你给的是根号本身：问的是根号下面的那个数。",
        "You gave the square root itself: the question asks for the number under the root.",
    ),
}
