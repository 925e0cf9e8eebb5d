"""The mistakes of the five steps (what is wrong, why, the fix in words) and what usually produces a wrong shape.

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
    # ---------------------------------------------------------------- the mistakes: what is wrong, why, the fix
    "because_of_weights": ("{sym} 不对，问题出在权重上：", "{sym} is off because of the weights. "),
    "transposed_XW": (
        "你的 {sym} 正好是正确结果的转置：应是 X 乘以 {w}，每行对应一个词。",
        "Your {sym} is the transpose of the required matrix: it is X times {w}, one row per word.",
    ),
    "transposed_ffn": (
        "你的 {sym} 正好是正确结果的转置：FFN 对每个词（输入的每一行）分别计算，输出和输入一样每行对应一个词，"
        "即 ReLU(输入 @ W1 + b1) @ W2 + b2，不要再转置。",
        "Your {sym} is the transpose of the required matrix: the FFN works on each word (each row of its input) "
        "on its own, so its output has one row per word, like its input: ReLU(input @ W1 + b1) @ W2 + b2, "
        "with no transpose.",
    ),
    "weight_transposed": ("{w} 被转置了：直接用 X 乘以 {w}。", "{w} got transposed: multiply X by {w} as it is."),
    "x_not_projected": (
        "你的 {sym} 就是 X 本身，一个数都没变：还没有乘以 {w}。",
        "Your {sym} is X itself, not a number changed: it has not been multiplied by {w}.",
    ),
    "transposed_qk": (
        "行列颠倒了：分数的行对应查询、列对应键，所以要用 Q 乘以 K 的转置（QKᵀ），而不是 K 乘以 Q 的转置。",
        "Rows and columns are swapped: score rows belong to queries and columns to keys, so use Q "
        "times K transposed (QKᵀ), not K times Q transposed.",
    ),
    "transposed_qk_projected": (
        "行列颠倒了：这些数是分数矩阵的转置，KQᵀ = (QKᵀ)ᵀ。两种写法都会得到它：算分数时用了 K 乘以 Q 的转置，"
        "或者把 W_Q 和 W_K 用反了（Q 用了 X·W_K，K 用了 X·W_Q）。分数的行对应查询、列对应键："
        "Q = X·W_Q，K = X·W_K，再算 Q 乘以 K 的转置。",
        "Rows and columns are swapped: these are the scores transposed, KQᵀ = (QKᵀ)ᵀ. Two things give them: "
        "K times Q transposed, or W_Q and W_K swapped (Q made with X·W_K and K with X·W_Q). Score rows belong "
        "to queries and columns to keys: Q = X·W_Q, K = X·W_K, then Q times K transposed.",
    ),
    "transposed": (
        "你的 {sym} 正好是正确结果的转置：第 i 行应对应第 i 个查询，列对应键。",
        "Your {sym} is the transpose of the required matrix: row i belongs to query i, columns to keys.",
    ),
    "missing_transpose": (
        "K 没有转置：Q 的每一行要和 K 的每一行做点积，所以是 Q 乘以 K 的转置（QKᵀ），不是 Q 直接乘 K。",
        "K is not transposed: every row of Q is dotted with every row of K, so it is Q times K "
        "transposed (QKᵀ), not Q times K.",
    ),
    "unscaled": (
        "忘了缩放：softmax 之前要把 QKᵀ 除以 √d_k，否则 d_k 越大分数越大，权重会挤到少数几个键上。",
        "Scaling is missing: divide QKᵀ by √d_k before softmax, otherwise scores grow with d_k and the "
        "weights crowd onto a few keys.",
    ),
    "scaled_by_dk": (
        "除错了数：应除以 √d_k（d_k 的平方根），你除的是 d_k 本身。",
        "Divided by the wrong number: divide by √d_k (the square root of d_k), not by d_k itself.",
    ),
    "gqa_scaled_by_dk": (
        "除错了数：应除以 √d_k，你的结果等于分数除以 d_k 本身（d_k 是每个头的宽度，即 Q_heads 最后一个轴的长度）。"
        "如果你除的是查询头数的平方根，结果也一样：这里有 4 个头、每个头宽 2，√4 恰好等于 d_k = 2。缩放只看 d_k，"
        "与头数无关。",
        "Divided by the wrong number: your result is the scores divided by d_k itself (d_k is each head's width, "
        "the last axis of Q_heads); divide by √d_k. If you divided by the square root of the number of query "
        "heads: with 4 heads of width 2, √4 equals d_k = 2, so the result and the mistake are the same; the "
        "number of heads plays no part in the scale.",
    ),
    "scale_multiplied": (
        "缩放反了：应当除以 √d_k，你乘了 √d_k。",
        "Scaled the wrong way: divide by √d_k, not multiply.",
    ),
    "scaled_wrong_width": (
        "缩放的数不对：你的结果等于 QKᵀ 除以 {root}，即{what}的平方根；缩放用的是 √d_k，d_k 是每个查询和键的宽度"
        "（Q、K 的列数，也就是每个点积有几项）。",
        "The scale is off: your numbers are QKᵀ divided by {root}, the square root of {what}; the scale is "
        "√d_k, d_k being the width of each query and key (the number of columns of Q and K, the number of "
        "terms in each dot product).",
    ),
    "scaled_by_a_root_of": (
        "缩放的数不对：你的结果等于 QKᵀ 除以 {root}，而不是除以 √d_k。{root} 正好是{what}的平方根；"
        "如果你用的是它，就错了：缩放用的是 √d_k，d_k 是每个查询和键的宽度（Q、K 的列数，也就是每个点积有几项）。",
        "The scale is off: your numbers are QKᵀ divided by {root}, not by √d_k. {root} is the square root of "
        "{what}; if that is what you used: the scale is √d_k, d_k being the width of each query and key (the "
        "number of columns of Q and K, the number of terms in each dot product).",
    ),
    "size_n_q": ("查询的个数 n_q（Q 的行数）", "the number of queries n_q (rows of Q)"),
    "size_n_k": ("键的个数 n_k（K 的行数）", "the number of keys n_k (rows of K)"),
    "size_d_v": ("值的宽度（d_v）", "the width of the values d_v"),
    "size_d_model": ("输入的宽度（d_model）", "the width of the input d_model"),
    "and": ("、", " and "),
    "scaled_not_asked": (
        "这一题不缩放：直接用 QKᵀ，不要除以 √d_k 或 d_k。",
        "This exercise has no scaling: use QKᵀ as it is, without dividing by √d_k or d_k.",
    ),
    "softmax_axis": (
        "softmax 的方向错了：你让每一列加起来为 1，应当让每一行（一个查询的全部权重）加起来为 1，"
        "也就是沿最后一个轴归一化。",
        "softmax along the wrong axis: your columns sum to 1, but each row (one query's weights) "
        "should, i.e. normalise along the last axis.",
    ),
    "max_down_columns": (
        "减去的最大值取错了轴：你从每个分数里减去的是它所在那一列的最大值（沿倒数第二个轴，{axis} 或 axis=-2），"
        "应该减去它所在那一行的最大值。一整行减去同一个数，这一行的 softmax 不变，所以才可以减去最大值（它只用来防止"
        " exp 溢出）；按列减时，同一行里的分数减去的数各不相同，权重就变了。"
        "写 .max(axis=-1, keepdims=True)，让每一行减去自己的最大值。{also}",
        "The maximum is taken along the wrong axis: from each score you subtracted the maximum of its column "
        "(down the second-to-last axis, {axis} or axis=-2), not the maximum of its row. Subtracting one number "
        "from a whole row leaves that row's softmax unchanged, which is why the maximum may be subtracted at all "
        "(it only keeps exp from overflowing); but a different number for each column shifts the scores of one "
        "row by different amounts, and the weights change. Write .max(axis=-1, keepdims=True): each row then "
        "subtracts its own maximum.{also}",
    ),
    "max_down_columns_or_transposed": (
        "有两种写法会得到这些数，结果完全一样：一是减去的最大值沿列取了（{axis} 或 axis=-2），不是每一行自己的最大值；"
        "二是分数算成了 K 乘以 Q 的转置。在这道题的分数上，两者恰好一致。如果是前者：从一整行减去同一个数，"
        "这一行的 softmax 不变，可每一列减去的数不同，权重就变了，应写 .max(axis=-1, keepdims=True)；"
        "如果是后者：分数的行对应查询、列对应键，要用 Q 乘以 K 的转置。",
        "Two mistakes give exactly these numbers: the maximum subtracted taken down the columns ({axis} or "
        "axis=-2) instead of each row's own, or the scores computed as K times Q transposed; on this task's "
        "scores the two happen to agree. If it is the first: subtracting one number from a whole row leaves that "
        "row's softmax unchanged, but a different number for each column changes the weights; write "
        ".max(axis=-1, keepdims=True). If it is the second: score rows belong to queries and columns to keys, "
        "so the scores are Q times K transposed.",
    ),
    "max_down_columns_or_softmax_axis": (
        "有两种写法会得到这些数，结果完全一样：一是 softmax 整个沿列做了（每一列加起来为 1）；二是只有减去的最大值沿列取了"
        "（{axis} 或 axis=-2），求和还是沿行的。在这道题的分数上，两者恰好一致。不管是哪一种，方向都错了："
        "每个查询的权重在一行里，要做的是逐行 softmax：最大值和求和都沿最后一个轴，"
        "写 .max(axis=-1, keepdims=True) 和 .sum(axis=-1, keepdims=True)。",
        "Two mistakes give exactly these numbers: the whole softmax taken down the columns (each column adding "
        "up to 1), or only the maximum subtracted taken down the columns ({axis} or axis=-2) with the sums along "
        "the rows; on this task's scores the two happen to agree. Either way the axis is wrong: each query's "
        "weights are a row, and softmax goes along each row, the maximum and the sum both along the last axis: "
        ".max(axis=-1, keepdims=True) and .sum(axis=-1, keepdims=True).",
    ),
    "column_max_symmetric": (
        "（这里的分数矩阵是对称的，第 j 列的最大值就是第 j 行的最大值：不带 keepdims=True 的 .max(axis=-1) "
        "得到形状 (n,) 的向量，沿错误的方向广播，也会得到这些数。）",
        " (These scores are symmetric, so column j's maximum is row j's: a .max(axis=-1) without keepdims=True "
        "gives an (n,) vector that broadcasts along the wrong axis and makes these numbers too.)",
    ),
    "column_max_underflow": (
        "（有的行整行都是 NaN：那一行的每个分数都比它所在那一列的最大值小得多，exp 全都下溢成 0，0/0 得到 NaN。）",
        " (Some rows are NaN throughout: every score of such a row is far below its column's maximum, so every "
        "exp underflows to 0, and 0/0 is NaN.)",
    ),
    "keepdims": (
        "每行的和（或最大值）沿着错误的方向广播了：第 j 列都除以了第 j 行的和。形状 (n,) 的向量（求和时少了 keepdims=True）"
        "会这样，形状 (1, n) 的一行（保留了轴，又用 .T 转置了）也会这样。写 .sum(axis=-1, keepdims=True)，不要再转置："
        "最后一个轴保留为长度 1（如 (n, 1)），每行才除以自己的和。",
        "The row sums (or maxima) broadcast along the wrong axis, so column j is divided by row j's sum. An (n,) "
        "vector of sums (keepdims=True missing) does this, and so does a (1, n) row (the axis kept, then "
        "transposed with .T). Write .sum(axis=-1, keepdims=True), with no transpose: the last axis stays, with "
        "length 1 (as in (n, 1)), and each row is divided by its own sum.",
    ),
    "keepdims_max": (
        "减最大值时少了 keepdims=True：按行取的最大值是形状 (n,) 的向量，减法时它沿着错误的方向广播，"
        "第 j 列的每个分数都减去了第 j 行的最大值。每行减去同一个数，softmax 才不变；现在同一行里的分数减去的数各不相同，"
        "权重就变了。写 .max(axis=-1, keepdims=True)。",
        "keepdims=True is missing where the maximum is subtracted: the row maxima come out as an (n,) vector, which "
        "broadcasts along the wrong axis, so every score in column j has row j's maximum subtracted. Subtracting one "
        "number from a whole row leaves its softmax unchanged; here the scores of one row lose different numbers, "
        "and the weights change. Write .max(axis=-1, keepdims=True).",
    ),
    "exp_not_divided": (
        "取了 exp，但还没有除以每一行的和：softmax 要让每一行加起来为 1。",
        "You took exp but never divided by each row's sum: softmax makes every row add up to 1.",
    ),
    "exp_over_row_max": (
        "每一行最大的数正好是 1：这是 exp(S − 行最大值)，也等于 exp(S) 除以每一行 exp 的最大值——两种写法得到同样的数。"
        "不管是哪一种，都没有除以每一行的和：softmax 要让每一行加起来为 1，减去最大值只是为了不溢出。",
        "Each row's largest entry is exactly 1: this is exp(S − row max), which is also exp(S) divided by each "
        "row's largest exp (both give these numbers). Either way, no row was divided by its sum: softmax makes "
        "every row add up to 1; subtracting the maximum only keeps exp from overflowing.",
    ),
    "divided_by_total": (
        "你除的是整个矩阵（或整个头）的和：要除以每一行自己的和（.sum(axis=-1, keepdims=True)）。",
        "You divided by the sum of the whole matrix (or head): divide by each row's own sum (.sum(axis=-1, keepdims=True)).",
    ),
    "floor_division": (
        "你用的是整除 //：它把每个商向下取整成整数（和 np.floor 一样），分数的小数部分全丢了。除以 √d_k 要用 /。",
        "You used floor division //: it rounds every quotient down to a whole number (as np.floor does), and the "
        "scores lose their fractions. Divide by √d_k with /.",
    ),
    "scaled_fixed_width": (
        "你除以的是 {root}，可这不是这道题的 √d_k：d_k 要从这道题的数据里取（Q.shape[-1]）；如果 {root} 里的数"
        "是从别处照搬来的，错就在这里。",
        "You divided by {root}, which is not this task's √d_k: take d_k from this task's data (Q.shape[-1]); if "
        "the number under {root} was kept from elsewhere, that is the mistake.",
    ),
    "mask_after_softmax": (
        "掩码加晚了：要在 softmax 之前把被挡住的分数设为 −∞；softmax 之后再清零，每行之和就不再是 1。",
        "The mask comes too late: set masked scores to −∞ before softmax; zeroing weights after "
        "softmax leaves rows that no longer sum to 1.",
    ),
    "mask_ignored": (
        "掩码没有起作用：结果和不加掩码时一样。是没有用上掩码，还是掩码的形状不对，广播之后哪个位置都没挡住？"
        "mask 为 False 的位置要在 softmax 之前设为 −∞，这样它们的权重才是 0。",
        "The mask has no effect: the result is that of the scores unmasked. Is the mask not used, or is its shape "
        "another one that broadcasts so that nothing is blocked? Where mask is False the score must become −∞ "
        "before softmax, so that its weight is 0.",
    ),
    "mask_of_another_shape": (
        "你传给 np.where 的掩码形状是 {got}，不是分数的形状 {expected}：np.where 把它广播到整个分数矩阵上，"
        "结果这里哪个位置都没挡住，和不加掩码一样。掩码要每个查询、每个键各有一个值，和分数的形状相同；"
        "mask 为 False 的位置在 softmax 之前设为 −∞。",
        "The mask you pass to np.where has shape {got}, not the scores' shape {expected}: np.where broadcasts it "
        "over the whole score matrix, and here that blocks nothing, as if there were no mask. The mask needs one "
        "entry per query and key, the scores' shape; where it is False the score becomes −∞ before softmax.",
    ),
    "mask_inverted": (
        "掩码用反了：该挡住的键拿到了权重，该看的键反而被挡住。有两种写法会这样："
        "一是布尔掩码的意思反了（attn_core 的约定是 True 表示可以看，PyTorch 的 key_padding_mask 是 True 表示填充，要先取反）；"
        "二是把加性掩码（0 和 −∞）当成了 np.where 的条件：np.where 把非零的 −∞ 当作 True、把 0 当作 False，正好反过来。"
        "加性掩码要直接加到分数上（S + M），或者先用 M == 0 变成布尔掩码。",
        "The mask is inverted: the keys to block got the weight and the keys to see were blocked. Two ways of "
        "writing it do this: a boolean mask that means the opposite (in attn_core's convention True means may "
        "attend; a PyTorch key_padding_mask, True = padding, must be inverted first), or an additive mask (0 and "
        "−∞) used as np.where's condition: np.where takes the nonzero −∞ as True and 0 as False, the other way "
        "round. Add an additive mask to the scores (S + M), or turn it into a boolean one with M == 0 first.",
    ),
    "mask_upper": (
        "掩码取成了上三角：第 i 行是位置 i 在提问，它只能看第 0 到 i 列，也就是下三角（np.tril，含对角线）。",
        "The mask is the upper triangle: row i is position i asking, and it may see columns 0 to i only, "
        "the lower triangle (np.tril, diagonal included).",
    ),
    "key_mask_on_queries": (
        "掩码放错了轴：它说的是哪些键能被看到，应沿列（键）起作用、每一行都一样，写成 mask[None, :]；"
        "mask[:, None] 把它放到了行（查询）上，于是被挡住的位置整行都看不到键。",
        "The mask is on the wrong axis: it says which keys may be seen, so it acts along the columns (keys), "
        "the same in every row: mask[None, :]. mask[:, None] puts it on the rows (queries) instead, so a "
        "masked position's whole row sees no key.",
    ),
    "mask_no_diagonal": (
        "对角线也被挡住了：每个位置都可以看它自己。于是第 0 行一个键也看不到，这一行成了 NaN"
        "（用很大的负数代替 −∞ 时，则变成平均分配）。",
        "The diagonal is masked too: every position may attend to itself. Row 0 is then left with no key "
        "to see, which is why that row is NaN (or spread evenly, with a large negative number instead of −∞).",
    ),
    "output_is_V": (
        "你的 O 就是 V 本身，一个数都没变：每一行输出要用 A 的这一行对 V 的各行加权求和（矩阵乘法 A @ V），"
        "而不是把 V 原样交出（A 每一行的和是 1，所以 A.sum(axis=1, keepdims=True) * V 也等于 V）。",
        "Your O is V itself, not a number changed: each output row is the weighted sum of V's rows with that "
        "row of A as weights (the matrix product A @ V), not V handed back as it is (each row of A sums to 1, so "
        "A.sum(axis=1, keepdims=True) * V is V too).",
    ),
    "mask_added_as_numbers": (
        "掩码被当作 0/1 的数加到了分数上（S + {added}）：加 1 只是把分数挪动一点，每个键仍会分到权重。"
        "布尔掩码要用 np.where(mask, S, -np.inf)；加性掩码里可以看的位置是 0，要挡住的位置是 −∞。",
        "The mask was added to the scores as 0/1 numbers (S + {added}): adding 1 only shifts a score a little, "
        "and every key keeps some weight. A boolean mask goes through np.where(mask, S, -np.inf); an additive "
        "mask holds 0 where a key may be seen and −∞ where it may not.",
    ),
    "mask_zero": (
        "被挡住的分数要设为 −∞，不是 0：exp(0) = 1，这些位置仍会分到权重。",
        "Masked scores must become −∞, not 0: exp(0) = 1, so those positions would still get weight.",
    ),
    "no_softmax": (
        "这还是分数，不是权重：还要逐行做 softmax，让权重非负、每行之和为 1。",
        "These are still scores, not weights: apply softmax to each row so the weights are non-negative "
        "and each row sums to 1.",
    ),
    "wrong_mask": (
        "{where}是被挡住的位置（mask 为 False），它的权重应当正好是 0，你的不是。",
        "{where} is masked (mask False), so its weight must be exactly 0; yours is not.",
    ),
    "negative_weight": (
        "{where}的权重是负数：softmax 的权重是 e^s 除以正数之和，永远不会小于 0。",
        "The weight at {where} is negative: a softmax weight is e^s over a positive sum, never below 0.",
    ),
    "wrong_mask_S": (
        "被挡住的位置（例如 {where}）这道题要求填 −∞（不是 0，也不是很大的负数）：这样 softmax 后权重正好是 0。",
        "A masked position (e.g. {where}) must hold −∞ in this task (not 0, nor a large negative "
        "number), so that its weight after softmax is exactly 0.",
    ),
    "not_normalized": (
        "{where}的权重加起来不是 1，而 softmax 之后每一行都应当正好加起来为 1。",
        "The weights of {where} do not add up to 1, as every row of softmax weights does.",
    ),
    "not_normalized_O": (
        "权重没有归一化：exp 之后还要除以每一行的和，再乘以 V。",
        "The weights are not normalised: after exp, divide by each row's sum, then multiply by V.",
    ),
    "used_scores": (
        "你用分数乘了 V：要先对分数逐行做 softmax 得到权重 A，再用 A 乘以 V。",
        "You multiplied the scores by V: first turn each row of scores into weights A with softmax, "
        "then multiply A by V.",
    ),
    "output_is_V_no_attention": (
        "你的 {sym} 就是 V 本身，一个数都没变：还少了注意力这一步。每一行输出要用权重 A 的这一行对 V 的各行加权求和"
        "（A @ V），A 是缩放后的分数经过 softmax 得到的。",
        "Your {sym} is V itself, not a number changed: the attention step is missing. Each output row is the "
        "weighted sum of V's rows with that row of the weights A (A @ V), A being the softmax of the scaled scores.",
    ),
    "scaled_another_key": (
        "你放大的是编号为 {j} 的键{word}，不是题目说的那个键：这里的行号从 0 数起，再数一遍是哪一行。",
        "You scaled key {j}{word}, not the key the task names: rows here count from 0; count again which row it is.",
    ),
    "key_scaled_by_another_factor": (
        "你把那个键乘以的是 {f}，不是题目给的倍数：再读一遍题目。",
        "You multiplied that key by {f}, not by the factor the task gives: read the task again.",
    ),
    "query_scaled_instead": (
        "你放大的是那个词的查询（Q 的那一行），题目要放大的是它的键（K 的那一行）：只改 K，Q 不变。",
        "You scaled that word's query (its row of Q); the task scales its key (its row of K): change K only, "
        "leave Q as it is.",
    ),
    "keys_and_values_swapped": (
        "K 和 V 用反了：你的分数是用 V 算的，加权求和取回的又是 K。分数要用查询和键算（Q 乘以 K 的转置），"
        "加权求和取回的是值 V。",
        "K and V are swapped: your scores are made with V, and the weighted sum fetches K. The scores come from the "
        "queries and the keys (Q times K transposed); the weighted sum fetches the values V.",
    ),
    "used_keys": (
        "你乘的是 K 而不是 V：加权求和取回的是值 V，键 K 只用来打分。",
        "You multiplied by K instead of V: the weighted sum fetches the values V; the keys K are only for scoring.",
    ),
    "transposed_O": (
        "你的 {sym} 行列颠倒了：每一行对应一个查询，是 A 乘以 V，不要转置结果。",
        "Your {sym} has rows and columns swapped: each row belongs to a query; it is A times V, untransposed.",
    ),
    "transposed_A": (
        "你用了 A 的转置：A 的第 i 行就是第 i 个查询的权重，直接用 A 乘以 V。",
        "You used A transposed: row i of A already holds query i's weights; multiply A itself by V.",
    ),
    "scale_on_output": (
        "√d_k 除错了地方：你的结果是不缩放的注意力输出再除以 √d_k。缩放要除在分数上、在 softmax 之前，"
        "它改变的是权重有多“尖”；输出除以一个数只是把每一行缩小。",
        "The √d_k is divided in the wrong place: your numbers are the unscaled attention's output divided by √d_k. "
        "The scale divides the scores, before softmax, where it changes how peaked the weights are; dividing the "
        "output only shrinks each row.",
    ),
    "causal_inverted": (
        "True/False 颠倒了：True 表示可以看。每个位置可以看自己和前面的位置，你的 True 却在未来（右上方）。",
        "True and False are swapped: True means may attend. Each position sees itself and earlier "
        "ones, but your True marks the future (upper right).",
    ),
    "causal_upper": (
        "你取的是上三角：第 i 行是位置 i 在提问，它只能看第 0 到 i 列，应当用 np.tril 取下三角（含对角线）。",
        "That is the upper triangle: row i is position i asking and it may only see columns 0 to i; "
        "take the lower triangle (np.tril, diagonal included).",
    ),
    "causal_no_diagonal": (
        "对角线也应为 True：每个位置都可以看它自己。",
        "The diagonal must be True too: every position may attend to itself.",
    ),
    "causal_all_true": (
        "全是 True 就等于没有掩码：位置 i 不能看到它后面的位置。",
        "All True is no mask at all: position i must not see the positions after it.",
    ),
    # ---------------------------------------------------------------- wrong shapes: what usually produces them
    "hint_transposed_XW": (
        "这是转置后的形状：每行应对应一个词。",
        "That is the transposed shape: one row per word.",
    ),
    "hint_Xt": (
        "这就是 X 的转置：X 不需要转置，它的每一行就是一个词；再乘以 {w}。",
        "This is X transposed: X needs no transpose, each row is a word; then multiply it by {w}.",
    ),
    "hint_X_shape": ("这就是 X 本身：别忘了乘以 {w}。", "This is X itself: multiply it by {w}."),
    "hint_transposed_S": (
        "这是转置后的形状：行应对应查询（Q 的行），列对应键（K 的行）。",
        "That is the transposed shape: rows belong to queries (rows of Q), columns to keys.",
    ),
    "hint_Q_shape": (
        "这些数是 Q * K 逐元素相乘的结果：分数要用矩阵乘法，Q 乘以 K 的转置。",
        "These are the numbers of Q * K, element by element: scores need the matrix product Q times K transposed.",
    ),
    "hint_QtK": (
        "这些数是 Q 的转置乘以 K：那样比较的是特征而不是词；应是 Q 乘以 K 的转置。",
        "These are the numbers of Q transposed times K, which compares features, not tokens; use Q times K transposed.",
    ),
    "hint_A_shape": (
        "这就是权重 A：最后还要乘以 V。",
        "These are the weights A: multiply them by V at the end.",
    ),
    "hint_transposed_O": (
        "这是转置后的形状：O 的每一行对应一个查询，宽度是 d_v。",
        "That is the transposed shape: each row of O belongs to a query and is d_v wide.",
    ),
}
