"""A task set up wrongly (shown after ``bad_task``): what the notebook or the registry gets wrong, for the teacher.

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
    # ---------------------------------------------------------------- a task set up wrongly (shown after "bad_task")
    "unknown_step": ("没有名为 {step!r} 的检查步骤（已有：{steps}）", "unknown step {step!r} (steps: {steps})"),
    "step_givens": (
        "步骤 {step!r} 需要 {needs}，还可以接受 {optional}；缺少 {missing}，多出 {extra}",
        "step {step!r} needs {needs}, may take {optional}; missing {missing}, unexpected {extra}",
    ),
    "given_not_real": (
        "{name} 必须是实数数组，得到的是 {type}，dtype 为 {dtype}",
        "{name} must be an array of real numbers, got {type} of dtype {dtype}",
    ),
    "given_few_axes": (
        "{name} 至少要有 {axes} 个轴，得到的形状是 {shape}",
        "{name} must have at least {axes} axes, got shape {shape}",
    ),
    "given_mask": (
        "mask 必须是布尔数组（True 表示可以看），得到的是 dtype {dtype}",
        "mask must be boolean (True = may attend), got dtype {dtype}",
    ),
    "given_d_k": ("d_k 必须是正数，得到的是 {got!r}", "d_k must be a positive number, got {got!r}"),
    "given_scaled": ("scaled 必须是 True 或 False，得到的是 {got!r}", "scaled must be True or False, got {got!r}"),
    "given_n": ("{name} 必须是正整数，得到的是 {got!r}", "{name} must be a positive integer, got {got!r}"),
    "given_index": (
        "{name} 必须是从 0 数起的下标，得到的是 {got!r}",
        "{name} must be an index counting from 0, got {got!r}",
    ),
    "given_eps": ("eps 必须是正数，得到的是 {got!r}", "eps must be a positive number, got {got!r}"),
    "given_factor": ("factor 必须是一个实数，得到的是 {got!r}", "factor must be a real number, got {got!r}"),
    "given_name": (
        "name 必须是字符串，例如 'Q'，得到的是 {got!r}",
        "name must be a string such as 'Q', got {got!r}",
    ),
    # ================================================================ lesson 12: word order (checker/positions.py)
    # ---- what the axes and one entry mean
    "axes_reordered": (
        "n × d_v：第 r 行属于新句子第 r 个位置上的词",
        "n × d_v: row r belongs to the word at position r of the new sentence",
    ),
    "entry_reordered": (
        "第 {i} 行是新句子第 {i} 个位置上的词（X[order] 的第 {i} 行）的输出。",
        "Row {i} is the output of the word at position {i} of the new sentence (row {i} of X[order]).",
    ),
    "axes_PE": (
        "n × d：第 p 行是位置 p（从 0 数起），列两两一对",
        "n × d: row p is position p (counted from 0), the columns in pairs",
    ),
    "entry_PE": (
        "这个数属于位置 {i}、第 {j} 列：第 2k 列是 sin(p·ω_k)，第 2k + 1 列是 cos(p·ω_k)，ω_k = 1 / base^(2k/d)。",
        "This is position {i}, column {j}: column 2k holds sin(p·ω_k), column 2k + 1 holds cos(p·ω_k), "
        "ω_k = 1 / base^(2k/d).",
    ),
    "axes_rope": ("和被旋转的向量（或矩阵）形状相同", "the shape of the vector (or rows) being rotated"),
    "entry_rope": (
        "每一对特征转过 p·ω_k 弧度：检查哪两个特征配成一对（题目说的写法）、角度的正负和 ω_k。",
        "Each pair of features turns by p·ω_k radians: check which two features form a pair (the layout the "
        "task names), the sign of the angle and ω_k.",
    ),
    "entry_S_pos": (
        "这个数应是 (x_{i} + PE_{i})·W_Q 与 (x_{j} + PE_{j})·W_K 的点积除以 √d_k。",
        "This should be (x_{i} + PE_{i})·W_Q dotted with (x_{j} + PE_{j})·W_K, over √d_k.",
    ),
    "axes_shifted": ("每个平移 s 一个分数", "one score per shift s"),
    "entry_shifted": (
        "每个数是 RoPE(q, i + s) 与 RoPE(k, j + s) 的点积，s 是它对应的平移。",
        "Each entry is RoPE(q, i + s) dotted with RoPE(k, j + s), for its shift s.",
    ),
    # ---- the mistakes: what is wrong, why, the fix
    "not_reordered": (
        "这是原句顺序的输出：第 r 行应属于新句子第 r 个位置上的词。先按 order 重排 X 的行（X[order]），再做五步；"
        "或者把原句输出的行按同样方式重排。",
        "This is the output in the original order: row r must belong to the word at position r of the new "
        "sentence. Reorder the rows of X first (X[order]), then run the five steps; or reorder the rows of the "
        "original output the same way.",
    ),
    "inverse_order": (
        "重排的方向反了：order[r] 是新句子第 r 个位置放的原句词号，新句子的输入是 X[order]；"
        "你把原句第 r 个词放到了第 order[r] 个位置。",
        "The shuffle goes the wrong way: order[r] is the original word at position r of the new sentence, so "
        "the new input is X[order]; you sent word r to position order[r] instead.",
    ),
    "sin_cos_swapped": (
        "sin 和 cos 放反了：每一对的第一列（偶数列 2k）是 sin，第二列（奇数列 2k + 1）是 cos。",
        "sin and cos are swapped: the first column of each pair (even, 2k) is sin, the second (odd, 2k + 1) is cos.",
    ),
    "sin_cos_halves": (
        "你把所有 sin 放在前一半、所有 cos 放在后一半：有的代码这样排，但这道题用论文的排法，"
        "sin 和 cos 交替：第 2k 列 sin，第 2k + 1 列 cos。",
        "You put every sin in the first half and every cos in the second: some code does that, but this task "
        "uses the paper's layout, sin and cos alternating: column 2k sin, column 2k + 1 cos.",
    ),
    "exponent_pair_index": (
        "频率的指数不对：ω_k = 1 / base^(2k/d)，指数是 2k/d（k 是第几对，d 是这道题的宽度），你的数相当于指数 k/d，"
        "频率降得只有应有的一半快。两种写法都会这样：指数写成了 k/d；或者公式里的 d 用成了这道题宽度的两倍"
        "（比如按宽度 2d 算好编码，再截取前 d 列）。",
        "The frequency's exponent is off: ω_k = 1 / base^(2k/d), exponent 2k/d (k is the pair, d this task's "
        "width); your numbers amount to the exponent k/d, so the frequencies fall only half as fast as they should. "
        "Two ways of writing it do this: the exponent written as k/d, or d in the formula taken twice this task's "
        "width (the encodings computed for width 2d and then cut to the first d columns, say).",
    ),
    "exponent_column_index": (
        "频率的指数写错了：同一对的 sin 和 cos 用同一个频率 ω_k = 1 / base^(2k/d)（k = 列号 // 2）；"
        "你按列号 c 用了 base^(c/d)，所以 cos 那些列的频率不对。",
        "The frequency's exponent is off: the sin and cos of one pair share one frequency ω_k = 1 / base^(2k/d) "
        "(k = column // 2); you used base^(c/d) with the column number c, so the cos columns are off.",
    ),
    "frequency_inverted": (
        "频率用反了：角度是 p 除以 base^(2k/d)（即 p·ω_k），你乘了 base^(2k/d)。",
        "The frequency is upside down: the angle is p divided by base^(2k/d) (that is p·ω_k); you multiplied.",
    ),
    "pe_one_side": (
        "位置编码只加在了一边（只在查询这边，或只在键这边）：位置编码加在输入 X 上，Z = X + PE，"
        "查询和键都从同一个 Z 投影出来。",
        "The encoding was added on one side only (the queries' or the keys'): it is added to the input, "
        "Z = X + PE, and the queries and the keys are both projected from that same Z.",
    ),
    "pe_shifted": (
        "位置编码错开了一行：你的第 r 行用的是位置 r − 1 的编码（第 0 行什么也没加）。第 r 行在位置 r，"
        "加的是 PE 的第 r 行，位置 0 的编码也要加（它不是全 0）。",
        "The encodings are one row off: your row r got the encoding of position r − 1 (row 0 got none). Row r "
        "is at position r and gets row r of PE; position 0 has an encoding too (it is not all 0).",
    ),
    "softmax_not_asked": (
        "你做了 softmax：这道题停在分数上（除以 √d_k 之后），不做 softmax。",
        "You applied softmax: this task stops at the scores (after dividing by √d_k), with no softmax.",
    ),
    "mask_not_asked": (
        "你加了因果掩码：这道题是普通的自注意力，每个词都看句子里的全部词，没有掩码。",
        "You applied a causal mask: this task is plain self-attention, where every word sees every word of the "
        "sentence, with no mask.",
    ),
    "rope_position_off_by_one": (
        "转的角度属于另一个位置：这个向量在位置 p = {p}，每一对特征转 p·ω_k；你的数是在位置 {used} 转出来的。"
        "位置从 0 数起，直接用 p，不加也不减。",
        "The turn belongs to another position: this vector is at position p = {p}, so each pair turns by p·ω_k; "
        "your numbers are the turn at position {used}. Positions count from 0: use p itself, adding or "
        "subtracting nothing.",
    ),
    "positions_from_1": (
        "位置从 1 数起了：第一个位置是 0（np.arange(n)），第 r 行在位置 r，不是 r + 1。",
        "Positions start at 1 here: the first position is 0 (np.arange(n)); row r is at position r, not r + 1.",
    ),
    "rope_wants_interleaved": (
        "配对方式不对：这道题用相邻配对（interleaved），特征 (0, 1)、(2, 3)……各是一对；你用了前后两半配对（rotate_half）。",
        "The pairs are wrong: this task pairs neighbours (interleaved), features (0, 1), (2, 3), …; you paired "
        "the two halves (rotate_half).",
    ),
    "rope_wants_half": (
        "配对方式不对：这道题用前后两半配对（half，rotate_half），特征 k 和 k + d/2 是一对；你用了相邻配对。",
        "The pairs are wrong: this task pairs the two halves (half, rotate_half), features k and k + d/2; you "
        "paired neighbours.",
    ),
    "layout_interleaved": ("相邻配对（特征 (0, 1)、(2, 3)……）", "neighbouring pairs (features (0, 1), (2, 3), …)"),
    "layout_half": ("前后两半配对（特征 k 和 k + d/2）", "the two halves paired (features k and k + d/2)"),
    "rope_layouts_mixed": (
        "每一对都转了，但转完后放错了位置：你按一种配对方式取出特征对，却按另一种方式把结果放回去"
        "（把相邻的一对放回到前后两半的位置上，或者反过来）。这道题用{asked}；"
        "转完的 x'、y' 要放回它们原来所在的那两个特征。",
        "The pairs are turned, but put back in the wrong place: you took the pairs out in one layout and wrote "
        "the results back in the other (neighbouring pairs written back as two halves, or the halves' pairs "
        "written side by side). This task uses {asked}; a turned x', y' goes back into the two features it "
        "came from.",
    ),
    "rope_negative_angle": (
        "转反了方向：每一对 (x, y) 转过 +p·ω_k，x' = x·cos − y·sin，y' = x·sin + y·cos；你转的是 −p·ω_k（sin 的符号反了）。",
        "Turned the wrong way: each pair (x, y) turns by +p·ω_k, x' = x·cos − y·sin, y' = x·sin + y·cos; you "
        "turned by −p·ω_k (the sine's sign is flipped).",
    ),
    "rope_not_rotated": (
        "这还是没旋转的向量：每一对特征要按位置 p 转过 p·ω_k 弧度。",
        "This is the vector before rotation: each pair of features must turn by p·ω_k radians at position p.",
    ),
    "pe_after_projection": (
        "位置编码加晚了：要先把 PE 加到 X 上，再乘 W_Q 和 W_K；你把它加在了投影之后的 Q、K 上。",
        "The encoding comes too late: add PE to X first, then multiply by W_Q and W_K; you added it to Q and K "
        "after the projections.",
    ),
    "pe_not_added": (
        "没有加位置编码：先算 X + PE（正弦编码，位置从 0 数起），再投影、打分。",
        "No position encoding was added: compute X + PE first (the sinusoidal encoding, positions from 0), then "
        "project and score.",
    ),
    "query_shifted_only": (
        "只挪了查询：两个位置要一起后移 s，查询在 i + s，键在 j + s。",
        "Only the query moved: both positions move on by s, the query to i + s and the key to j + s.",
    ),
    "key_shifted_only": (
        "只挪了键：两个位置要一起后移 s，查询在 i + s，键在 j + s。",
        "Only the key moved: both positions move on by s, the query to i + s and the key to j + s.",
    ),
    "key_not_rotated": (
        "键没有转：查询按 i + s 转了，键 k 却直接拿来点积。键也要按它自己的位置 j + s 旋转，再做点积。",
        "The key was never turned: the query was turned by i + s, but k went into the dot product as it is. Turn "
        "the key by its own position j + s too, then take the dot product.",
    ),
    "shifted_scaled_not_asked": (
        "你把点积除以了 √d：这道题要的就是两个转过的向量的点积本身，不缩放。",
        "You divided the dot products by √d: this task asks for the dot product of the two turned vectors "
        "itself, unscaled.",
    ),
    "scores_not_rotated": (
        "每个平移 s 都得到同一个数 q·k：这是没旋转时的点积，也是把 q、k 转过同一个角度后的点积（同样的旋转不改变点积）。"
        "查询要按它自己的位置 i + s 旋转，键按 j + s 旋转，再做点积。",
        "Every shift s gives the same number, q·k: the dot product before rotation, and also after turning q "
        "and k by the same angle (one rotation applied to both leaves a dot product unchanged). Turn the query "
        "by its own position i + s and the key by j + s, then take the dot product.",
    ),
    "scores_negative_angle": (
        "角度的符号反了：这些分数相当于把查询和键的相对位置取了相反数。可能是旋转转反了方向（sin 的符号反了，转的是 −p·ω_k），"
        "也可能是查询和键的位置对调了（查询放在 j + s，键放在 i + s）；两者算出的数一样。查询在 i + s，键在 j + s。",
        "The angle has the opposite sign: these are the scores for the query-key offset negated. Either the "
        "rotation turns the wrong way (the sine's sign flipped, −p·ω_k), or the query and the key swapped "
        "positions (the query at j + s, the key at i + s); both give the same numbers. The query is at i + s, "
        "the key at j + s.",
    ),
    "scores_other_layout": (
        "配对方式和题目要求的不一样（interleaved 与 half 换了）：按题目说的写法配对再旋转。",
        "The pairs are not the task's (interleaved and half swapped): pair the features the way the task says, "
        "then rotate.",
    ),
    # ---- wrong shapes
    "hint_PE_transposed": (
        "这是转置后的形状：每一行是一个位置，每一列是一个特征。",
        "That is the transposed shape: one row per position, one column per feature.",
    ),
    "hint_PE_half": (
        "列只有一半：每个频率占两列，一列 sin、一列 cos。",
        "Only half the columns: each frequency takes two columns, a sin and a cos.",
    ),
    "hint_rope_transposed": (
        "这是转置后的形状：每一行是一个位置上的向量，旋转不改变形状。",
        "That is the transposed shape: each row is the vector at one position, and a rotation keeps the shape.",
    ),
    "hint_one_score": (
        "只有一个数：对每个平移 s 各算一个分数，排成一个向量。",
        "Just one number: compute one score for every shift s, as a vector.",
    ),
    # ---- a task set up wrongly (shown after "bad_task")
    "given_base": ("base 必须是大于 1 的数，得到的是 {got!r}", "base must be a number above 1, got {got!r}"),
    "given_layout": (
        "layout 必须是 'interleaved' 或 'half'，得到的是 {got!r}",
        "layout must be 'interleaved' or 'half', got {got!r}",
    ),
    "given_not_finite": ("{name} 含有 NaN 或 ∞", "{name} contains NaN or ∞"),
    "given_whole": ("{name} 必须是非负整数，得到的是 {got!r}", "{name} must be a whole number ≥ 0, got {got!r}"),
    "given_order": (
        "order 必须是 0 到 {n} − 1 的一个排列（X 有 {n} 行），得到的是 {got!r}",
        "order must be a permutation of 0 … {n} − 1 (X has {n} rows), got {got!r}",
    ),
}
