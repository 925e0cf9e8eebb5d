"""Every learner-facing message of the homework, Chinese and English side by side: the checker's verdicts,
what is wrong and why, its hints, the places it names, the errors of a wrongly set-up task, the task
lookups and the lines ``check`` and ``progress`` print. Use: ``from .messages import msg`` then
``msg("key", ...)``.

The verdicts are compared with the committed notebook outputs (nbval): change a text here only together
with the notebooks that print it. The mistake messages say what is wrong, why, and the fix in words; never
the expected numbers or solution code.
"""

from ..lang import Catalog

msg = Catalog(
    {
        # ---------------------------------------------------------------- the checker's verdicts
        "ok": ("{sym} 正确！形状 {shape}，每个数都对。", "{sym} is correct: shape {shape}, every number right."),
        "not_attempted": (
            "还没作答：把 ... 换成你算出的 {sym}，再运行这一格。",
            "Not answered yet: replace ... with your {sym} and run this cell again.",
        ),
        "bad_task": (
            "这道题的设置有误（不是你的错），请把这一行告诉老师：{e}",
            "This exercise is set up wrongly (not your fault); please show this line to your teacher: {e}",
        ),
        "checker_error": (
            "检查程序自己出错了（不是你的错），请告诉老师：{e}",
            "The checker itself failed (not your fault); please tell your teacher: {e}",
        ),
        "wrong_type": ("{sym} 应当是{kind}，你给的是 {got}。{hint}", "{sym} must be {kind}; you gave {got}. {hint}"),
        "kind_numbers": (
            "数字数组（numpy 数组，或每行一样长的嵌套列表）",
            "an array of numbers (a numpy array, or nested lists with rows of equal length)",
        ),
        "kind_boolean": ("布尔数组（True / False）", "a boolean array (True / False)"),
        "mask_type": (
            "创建时写 dtype=bool，或对 0/1 数组用 .astype(bool)。",
            "Create it with dtype=bool, or use .astype(bool) on a 0/1 array.",
        ),
        "ragged": ("（各行长短不一）", " (rows of different lengths)"),
        "not_finite": (
            "{sym} 里有 {count} 个 NaN 或 ∞，第一个在 {where}。{hint}",
            "{sym} contains {count} NaN or ∞, the first at {where}. {hint}",
        ),
        "finite": ("检查是否除以了 0，或者数大到溢出了。", "Look for a division by zero or an overflow."),
        "finite_A": (
            "softmax 之后不该有 NaN 或 ∞：先减去每行的最大值再取 exp 可避免溢出；"
            "−∞ 只属于 softmax 之前被遮住的分数，softmax 之后那里的权重是 0。",
            "After softmax there must be no NaN or ∞: subtract each row's maximum before exp to avoid overflow; "
            "−∞ belongs only to masked scores before softmax, whose weights are then 0.",
        ),
        "wrong_shape": (
            "{sym} 的形状应为 {expected}（{axes}），你的是 {got}。{hint}",
            "{sym} should have shape {expected} ({axes}); yours is {got}. {hint}",
        ),
        "fewer_axes": (
            "你的答案维数太少：需要一个完整的矩阵，而不是一个数或一行。",
            "Your answer has too few axes: a whole matrix is needed, not one number or one row.",
        ),
        "more_axes": (
            "你的答案多了维度：检查是否多套了一层方括号。",
            "Your answer has extra axes: look for extra brackets.",
        ),
        "shape": (
            "检查矩阵乘法的顺序，以及哪里需要转置。",
            "Check the order of the matrix product and where to transpose.",
        ),
        "wrong_values": (
            "{sym} 的形状对了，但有的数不对，差得最多的在 {where}。{entry}",
            "{sym} has the right shape but some numbers are off, most at {where}. {entry}",
        ),
        # ---------------------------------------------------------------- what the axes and one entry of a step mean
        "axes_XW": ("n × d：每行对应一个词", "n × d: one row per word"),
        "axes_S": ("n_q × n_k：行 = 查询，列 = 键", "n_q × n_k: rows = queries, columns = keys"),
        "axes_O": ("n_q × d_v：行 = 查询，列 = 值的特征", "n_q × d_v: rows = queries, columns = value features"),
        "axes_mask": (
            "n × n：行 = 提问的位置，列 = 被关注的位置",
            "n × n: rows = asking positions, columns = attended ones",
        ),
        "entry_XW": (
            "这个数是第 {i} 个词的输入行与 {w} 第 {j} 列的点积。",
            "This is token {i}'s input row dotted with column {j} of {w}.",
        ),
        "entry_QKT": ("这个数应是查询 {i} 与键 {j} 的点积。", "This should be query {i} dotted with key {j}."),
        "entry_S": (
            "这个数应是查询 {i} 与键 {j} 的点积除以 √d_k。",
            "This should be query {i} dotted with key {j}, over √d_k.",
        ),
        "entry_A": (
            "这个数是查询 {i} 分给键 {j} 的权重：检查这一行的分数和 softmax。",
            "This is the weight query {i} gives key {j}: check this row's scores and its softmax.",
        ),
        "entry_O": (
            "O 的第 {i} 行是用 A 的第 {i} 行对 V 的各行加权求和。",
            "Row {i} of O is V's rows mixed by row {i} of A.",
        ),
        "entry_mask": (
            "第 {i} 行说明位置 {i} 可以关注哪些位置：它自己和它之前的位置。",
            "Row {i} says which positions position {i} may attend to: itself and the ones before it.",
        ),
        # ---------------------------------------------------------------- places: "[2, 1]（第 2 行“学习”、第 1 列“喜欢”；从 0 数起）"
        "the_number": ("这个数", "the number"),
        "row": ("第 {i} 行", "row {i}"),
        "column": ("第 {j} 列", "column {j}"),
        "token": ("“{token}”", " “{token}”"),
        "place": ("[{index}]（{row}、{column}；从 0 数起）", "[{index}] ({row}, {column}; counting from 0)"),
        # ---------------------------------------------------------------- the mistakes: what is wrong, why, the fix
        "because_of_weights": ("O 不对，问题出在权重上：", "O is off because of the weights. "),
        "transposed_XW": (
            "你的 {sym} 是所要求矩阵的转置：应是 X 乘以 {w}，每行对应一个词。",
            "Your {sym} is the transpose of the required matrix: it is X times {w}, one row per word.",
        ),
        "weight_transposed": ("{w} 被转置了：直接用 X 乘以 {w}。", "{w} got transposed: multiply X by {w} as it is."),
        "transposed_qk": (
            "行列颠倒了：分数的行对应查询、列对应键，所以要用 Q 乘以 K 的转置（QKᵀ），而不是 K 乘以 Q 的转置。",
            "Rows and columns are swapped: score rows belong to queries and columns to keys, so use Q "
            "times K transposed (QKᵀ), not K times Q transposed.",
        ),
        "transposed": (
            "你的 {sym} 是所要求矩阵的转置：第 i 行应对应第 i 个查询，列对应键。",
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
        "scale_multiplied": (
            "缩放反了：应当除以 √d_k，你乘了 √d_k。",
            "Scaled the wrong way: divide by √d_k, not multiply.",
        ),
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
        "mask_after_softmax": (
            "遮罩加晚了：要在 softmax 之前把被遮住的分数设为 −∞；softmax 之后再清零，每行之和就不再是 1。",
            "The mask comes too late: set masked scores to −∞ before softmax; zeroing weights after "
            "softmax leaves rows that no longer sum to 1.",
        ),
        "mask_ignored": (
            "没有用上遮罩：mask 为 False 的位置要在 softmax 之前设为 −∞，这样它们的权重才是 0。",
            "The mask is not used: where mask is False the score must become −∞ before softmax, so that "
            "its weight is 0.",
        ),
        "mask_inverted": (
            "遮罩用反了：True 表示可以关注、要保留；应设为 −∞ 的是 mask 为 False 的位置。",
            "The mask is inverted: True means may attend (keep it); −∞ goes where mask is False.",
        ),
        "mask_zero": (
            "被遮住的分数要设为 −∞，不是 0：exp(0) = 1，这些位置仍会分到权重。",
            "Masked scores must become −∞, not 0: exp(0) = 1, so those positions would still get weight.",
        ),
        "no_softmax": (
            "这还是分数，不是权重：还要对每一行做 softmax，让权重非负、每行之和为 1。",
            "These are still scores, not weights: apply softmax to each row so the weights are non-negative "
            "and each row sums to 1.",
        ),
        "wrong_mask": (
            "被遮住的位置（例如 {where}）权重应当是 0：在 softmax 之前把这些分数设为 −∞。",
            "A masked position (e.g. {where}) must get weight 0: set those scores to −∞ before softmax.",
        ),
        "wrong_mask_S": (
            "被遮住的位置（例如 {where}）分数应为 −∞，不是 0 或很大的负数：这样 softmax 后权重正好是 0。",
            "A masked position (e.g. {where}) must hold −∞, not 0 or a large negative number, so that its "
            "weight after softmax is exactly 0.",
        ),
        "not_normalized": (
            "每一行的权重加起来应为 1，{where}不是：softmax 要把每个 exp 除以它所在这一行的 exp 之和"
            "（不是整列或整个矩阵的和）。",
            "Each row of weights must sum to 1, {where} does not: softmax divides each exp by the sum of "
            "its own row (not of a column or of the whole matrix).",
        ),
        "not_normalized_O": (
            "权重没有归一化：exp 之后还要除以每一行的和，再乘以 V。",
            "The weights are not normalised: after exp, divide by each row's sum, then multiply by V.",
        ),
        "used_scores": (
            "你用分数乘了 V：要先对分数的每一行做 softmax 得到权重 A，再用 A 乘以 V。",
            "You multiplied the scores by V: first turn each row of scores into weights A with softmax, "
            "then multiply A by V.",
        ),
        "used_keys": (
            "你乘的是 K 而不是 V：加权求和取回的是值 V，键 K 只用来打分。",
            "You multiplied by K instead of V: the weighted sum fetches the values V; the keys K are only for scoring.",
        ),
        "transposed_O": (
            "你的 O 行列颠倒了：每一行对应一个查询，是 A 乘以 V，不要转置结果。",
            "Your O has rows and columns swapped: each row belongs to a query; it is A times V, untransposed.",
        ),
        "transposed_A": (
            "你用了 A 的转置：A 的第 i 行就是第 i 个查询的权重，直接用 A 乘以 V。",
            "You used A transposed: row i of A already holds query i's weights; multiply A itself by V.",
        ),
        "causal_inverted": (
            "True/False 颠倒了：True 表示“可以关注”。每个位置可以看自己和前面的位置，你的 True 却在未来（右上方）。",
            "True and False are swapped: True means may attend. Each position sees itself and earlier "
            "ones, but your True marks the future (upper right).",
        ),
        "causal_upper": (
            "你取的是上三角：第 i 行是位置 i 在提问，它只能看第 0 到 i 列，应当用 np.tril 取下三角（含对角线）。",
            "That is the upper triangle: row i is position i asking and it may only see columns 0 to i; "
            "take the lower triangle (np.tril, diagonal included).",
        ),
        "causal_no_diagonal": (
            "对角线也应为 True：每个位置都可以关注它自己。",
            "The diagonal must be True too: every position may attend to itself.",
        ),
        "causal_all_true": (
            "全是 True 就等于没有遮罩：位置 i 不能看到它后面的位置。",
            "All True is no mask at all: position i must not see the positions after it.",
        ),
        # ---------------------------------------------------------------- wrong shapes: what usually produces them
        "hint_transposed_XW": (
            "这是转置后的形状：每行应对应一个词。",
            "That is the transposed shape: one row per word.",
        ),
        "hint_Xt": (
            "这是 X 转置后的形状：X 不需要转置，它的每一行就是一个词。",
            "That is the shape of X transposed: X needs no transpose, each row is a word.",
        ),
        "hint_X_shape": ("这是 X 本身的形状：别忘了乘以 {w}。", "That is the shape of X: multiply it by {w}."),
        "hint_transposed_S": (
            "这是转置后的形状：行应对应查询（Q 的行），列对应键（K 的行）。",
            "That is the transposed shape: rows belong to queries (rows of Q), columns to keys.",
        ),
        "hint_Q_shape": (
            "这和 Q 的形状一样：可能用了逐元素乘法 *，或者没有转置 K；分数要用矩阵乘法：Q 乘以 K 的转置。",
            "That is the shape of Q: perhaps an element-wise * or K not transposed; scores need the matrix "
            "product Q times K transposed.",
        ),
        "hint_QtK": (
            "这是“特征 × 特征”的形状：Q 的转置乘以 K 比较的是特征而不是词；应是 Q 乘以 K 的转置。",
            "That is a features × features shape: Q transposed times K compares features, not tokens; use Q "
            "times K transposed.",
        ),
        "hint_A_shape": (
            "这是权重 A 的形状：最后还要乘以 V。",
            "That is the shape of the weights A: multiply by V at the end.",
        ),
        "hint_K_width": (
            "宽度是 d_k：你可能乘的是 K 而不是 V。",
            "The width is d_k: perhaps you multiplied by K, not V.",
        ),
        "hint_transposed_O": (
            "这是转置后的形状：O 的每一行对应一个查询，宽度是 d_v。",
            "That is the transposed shape: each row of O belongs to a query and is d_v wide.",
        ),
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
            "{name} 至少要有 2 个维度（行 × 特征），得到的形状是 {shape}",
            "{name} must have at least 2 axes (rows × features), got shape {shape}",
        ),
        "given_mask": (
            "mask 必须是布尔数组（True = 可以关注），得到的是 dtype {dtype}",
            "mask must be boolean (True = may attend), got dtype {dtype}",
        ),
        "given_d_k": ("d_k 必须是正数，得到的是 {got!r}", "d_k must be a positive number, got {got!r}"),
        "given_scaled": ("scaled 必须是 True 或 False，得到的是 {got!r}", "scaled must be True or False, got {got!r}"),
        "given_n": ("n 必须是正整数，得到的是 {got!r}", "n must be a positive integer, got {got!r}"),
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
            "频率的指数写错了：ω_k = 1 / base^(2k/d)，指数是 2k/d（k 是第几对），你用的是 k/d，频率降得只有应有的一半快。",
            "The frequency's exponent is off: ω_k = 1 / base^(2k/d), exponent 2k/d (k is the pair); you used k/d, so "
            "the frequencies fall only half as fast as they should.",
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
        "scores_not_rotated": (
            "这是没旋转时的点积 q·k：先把 q、k 按各自的位置旋转，再做点积。",
            "This is the dot product q·k before rotation: rotate q and k by their positions first, then take the "
            "dot product.",
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
            "order 必须是 0 … {n} − 1 的一个排列（X 有 {n} 行），得到的是 {got!r}",
            "order must be a permutation of 0 … {n} − 1 (X has {n} rows), got {got!r}",
        ),
        # ---------------------------------------------------------------- tasks, check() and progress()
        "no_task": ("没有编号为 {task_id!r} 的题目；已有的编号：{ids}", "no task {task_id!r}; the tasks are {ids}"),
        "no_exercise": (
            "没有名为 {exercise!r} 的练习；已有：{names}",
            "no exercise {exercise!r}; the exercises are {names}",
        ),
        "no_variable": (
            "还没有变量 {var}：运行上面的答案格子（把 ... 换成你的答案）。",
            "there is no variable {var} yet: run the answer cell above (replace ... with your answer).",
        ),
        "check_failed": (
            "{task_id} ❌ 检查时出了意外（{error}），请把这一行告诉老师。",
            "{task_id} ❌ the check itself failed ({error}); please tell your teacher.",
        ),
        "progress_summary": ("共 {total} 题，已通过 {done} 题。", "{done} of {total} tasks passed."),
        "progress_failed": ("❌ 统计时出了意外（{error}）。", "❌ progress failed ({error})."),
    }
)
