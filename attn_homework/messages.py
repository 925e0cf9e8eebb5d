"""Every learner-facing message of the homework, Chinese and English side by side: the checker's verdicts,
what is wrong and why, its hints, the places it names, the errors of a wrongly set-up task, the task
lookups and the lines ``check`` and ``progress`` print. Use: ``from .messages import msg`` then
``msg("key", ...)``.

The verdicts are compared with the committed notebook outputs (nbval): change a text here only together
with the notebooks that print it. The mistake messages say what is wrong, why, and the fix in words; never
the expected numbers or solution code.
"""

from attn_core.lang import Catalog

msg = Catalog(
    {
        # ---------------------------------------------------------------- the checker's verdicts
        "ok": ("{sym} 正确！形状 {shape}，每个数都对。", "{sym} is correct: shape {shape}, every number right."),
        "ok_number": ("{sym} 预测对了！", "{sym}: right prediction!"),
        "not_attempted": (
            "还没作答：把 ... 换成你算出的 {sym}，再运行这一格。",
            "Not answered yet: replace ... with your {sym} and run this cell again.",
        ),
        "is_none": (
            "{sym} 是 None，不是{kind}：通常是函数最后忘了写 return，或者把 print(...) 之类不返回结果的调用赋给了变量。",
            "{sym} is None, not {kind}: usually a function that ends without return, or a variable assigned "
            "the result of a call that returns nothing, such as print(...).",
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
        "kind_number": ("一个数（整数或小数）", "one number (an int or a float)"),
        "kind_function": ("一个函数", "a function"),
        "number_type": (
            "写一个数本身（int 或 float），不加引号，也不是列表或数组。",
            "Write the number itself (an int or a float), without quotes, not a list or an array.",
        ),
        "index_type": (
            "写一个数本身（键的位置，从 0 数起），不加引号，也不是词、列表或数组。",
            "Write the number itself (the key's position, counting from 0), without quotes, not a word, a list or "
            "an array.",
        ),
        "mask_type": (
            "创建时写 dtype=bool，或对 0/1 数组用 .astype(bool)。",
            "Create it with dtype=bool, or use .astype(bool) on a 0/1 array.",
        ),
        "ragged": ("（各行长短不一）", " (rows of different lengths)"),
        "not_finite": (
            "{sym} 里有 {count} 个 NaN 或 ∞，第一个在 {where}。{hint}",
            "{sym} contains {count} NaN or ∞, the first at {where}. {hint}",
        ),
        "finite": (
            "NaN 来自 0/0 或 ∞ − ∞，∞ 来自除以 0 或溢出：看看那个位置是怎么算出来的。",
            "NaN comes from 0/0 or ∞ − ∞, ∞ from a division by 0 or an overflow: look at how that entry was computed.",
        ),
        "finite_A": (
            "softmax 之后的权重都在 0 到 1 之间，不会有 NaN 或 ∞：NaN 来自 0/0 或 ∞ − ∞，看看那一行是怎么算出来的。",
            "Weights after softmax all lie between 0 and 1, never NaN or ∞: NaN comes from 0/0 or ∞ − ∞; "
            "look at how that row was computed.",
        ),
        "finite_norm": (
            "LayerNorm 的结果不会有 NaN：NaN 来自 0/0，比如一行的数全都相等、方差为 0 时又没有加 ε。",
            "LayerNorm gives no NaN: NaN comes from 0/0, e.g. a row whose numbers are all equal (variance 0) "
            "divided without ε.",
        ),
        "overflow": (
            "exp 溢出了：这些分数很大，e^1000 超出浮点数范围变成 ∞，∞/∞ 是 NaN（用 np.nan_to_num 把它换成 0 也救不回权重）。"
            "先从每一行减去这一行的最大值，再取 exp：结果不变，最大的指数变成 e^0 = 1。",
            "exp overflowed: these scores are large, e^1000 is beyond floating point and becomes ∞, and ∞/∞ is NaN "
            "(np.nan_to_num turns that into 0 but cannot bring the weights back). Subtract each row's maximum "
            "before exp: the result is the same and the largest exponent becomes e^0 = 1.",
        ),
        "overflow_unexplained": (
            "{sym} 在 {where} 有 NaN 或 ∞，而这道题的分数大到 exp 会溢出（e^710 已是 ∞）："
            "先从每一行减去这一行的最大值，再取 exp。",
            "{sym} has NaN or ∞ at {where}, and the scores of this task are large enough for exp to overflow "
            "(e^710 is already ∞): subtract each row's maximum before exp.",
        ),
        "empty_row": (
            "{sym} 的{row}整行都是 NaN：在你用的遮罩下，这个位置一个键也看不到（这一行的分数全是 −∞），"
            "softmax 只能算 0/0。第 7 课讲过：每个位置至少要能看到一个键，因果掩码要保留对角线（自己）。"
            "检查你的遮罩。",
            "{row} of {sym} is NaN throughout: with the mask you used, that position sees no key at all (every "
            "score of the row is −∞) and softmax computes 0/0. As lesson 7 shows, each position must see at "
            "least one key; a causal mask keeps the diagonal (the position itself). Check your mask.",
        ),
        "int_dtype": (
            "{sym} 的 dtype 是 {dtype}，只能存整数，小数部分被截掉了：通常是先用 np.zeros(..., dtype=int) "
            "或整数数组建好再往里填。建成小数数组（不写 dtype=int），或者一个表达式直接算出来。",
            "{sym} has dtype {dtype}, which holds whole numbers only, so every fraction was cut off: usually "
            "an array made with np.zeros(..., dtype=int) or from integers and then filled in. Make it a float "
            "array (leave out dtype=int), or compute it in one expression.",
        ),
        "int_dtype_values": (
            "{sym} 的 dtype 是 {dtype}，里面只有整数，而正确答案有小数，所以它不可能对。看看它是怎么来的："
            "要的是数值本身，不是位置或下标（例如 argmax 给的是位置，max 给的才是数值），数组也不能建成整数类型。",
            "{sym} has dtype {dtype}: it holds whole numbers only, while the right answer has fractions, so it "
            "cannot be right. Look at how it was made: the values themselves are asked for, not positions or "
            "indices (argmax gives a position, max the value), and the array must not be of an integer type.",
        ),
        "almost_rounded": (
            "非常接近了：每个数都是正确值四舍五入到 {decimals} 位小数的结果。检查会比较全部精度，别在答案里取整"
            "（np.round 只用来打印）。",
            "Very close: every number is the right one rounded to {decimals} decimals. The check compares "
            "full precision, so do not round the answer (np.round is for printing).",
        ),
        "almost_float16": (
            "非常接近了，但 {sym} 是 float16：它只有大约 3 位有效数字，不够精确。保留 float64（或 float32）。",
            "Very close, but {sym} is float16, which keeps only about 3 significant digits: too coarse. "
            "Keep float64 (or float32).",
        ),
        "almost_near": (
            "非常接近了：每个数与正确值相差都不到 0.1%，但并不相等。中间是不是有数被取整了，或者换成了精度较低的类型？",
            "Very close: every number is within 0.1 % of the right one, but not equal. Was something rounded "
            "on the way, or converted to a lower precision?",
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
            "在纸上写出每一次矩阵乘法的形状：(a × b) 乘 (b × c) 得 (a × c)。",
            "Write down the shape of each matrix product on paper: (a × b) times (b × c) gives (a × c).",
        ),
        "shape_kept": (
            "softmax 不改变形状：每个分数对应一个权重。",
            "softmax keeps the shape: one weight for every score.",
        ),
        "shape_mask": (
            "掩码每个位置占一行、一列：n × n，n 是位置的个数。",
            "A mask has a row and a column for every position: n × n, n being the number of positions.",
        ),
        "shape_reshape": (
            "在纸上写出每一次 reshape 和转置之后的形状，再和要求的形状对照。",
            "Write down the shape after each reshape and transpose on paper, and compare it with the one asked for.",
        ),
        "wrong_prediction": ("{sym}：不是这个数。{explain}", "{sym}: not this one. {explain}"),
        "wrong_values": (
            "{sym} 的形状对了，但有的数不对，差得最多的在 {where}。{entry}",
            "{sym} has the right shape but some numbers are off, most at {where}. {entry}",
        ),
        # ---------------------------------------------------------------- what the axes and one entry of a step mean
        "axes_XW": ("n × d：每行对应一个词", "n × d: one row per word"),
        "axes_S": ("n_q × n_k：行 = 查询，列 = 键", "n_q × n_k: rows = queries, columns = keys"),
        "axes_O": ("n_q × d_v：行 = 查询，列 = 值的特征", "n_q × d_v: rows = queries, columns = value features"),
        "axes_number": ("一个数", "one number"),
        "axes_heads": (
            "h × n × d_head：每个头一块，行 = 位置，列 = 这个头的特征",
            "h × n × d_head: one block per head, rows = positions, columns = that head's features",
        ),
        "axes_merged": (
            "n × (h·d_head)：行 = 位置，先是头 0 的列，再是头 1 的列……",
            "n × (h·d_head): rows = positions, head 0's columns first, then head 1's, …",
        ),
        "axes_running": ("n_q × 1：每个查询行一个数", "n_q × 1: one number per query row"),
        "axes_dV": ("n_k × d_v：和 V 一样", "n_k × d_v: the shape of V"),
        "axes_dQ": ("n_q × d_k：和 Q 一样", "n_q × d_k: the shape of Q"),
        "axes_dK": ("n_k × d_k：和 K 一样", "n_k × d_k: the shape of K"),
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
        "entry_heads": (
            "这个数属于某个头、某个位置：每个头应当拿到 Q 的全部 n 行，以及相邻的 d_head 列。",
            "This entry belongs to one head and one position: each head must get all n rows of Q and a block "
            "of d_head neighbouring columns.",
        ),
        "entry_merged": (
            "第 {i} 行应当是位置 {i} 在各个头里的输出，按头的顺序并排。",
            "Row {i} should be position {i}'s outputs from every head, side by side in head order.",
        ),
        "entry_multi_head": (
            "第 {i} 行是位置 {i} 的输出：拆头、逐头注意力、拼接，再乘以 W_O；逐步检查形状。",
            "Row {i} is position {i}'s output: split into heads, attention per head, merge, then W_O; check "
            "each step's shape.",
        ),
        "entry_running": (
            "第 {i} 行是查询 {i} 看完第 1 块之后的累计量：只用 S1 的第 {i} 行，第 2 块的分数这时还没见到。",
            "Row {i} is query {i}'s running quantity after block 1: it uses row {i} of S1 only; block 2's scores "
            "have not been seen yet.",
        ),
        "entry_running_both": (
            "第 {i} 行是查询 {i} 看完两块之后的分母：两块里这一行的分数都算在内，每一项都以新的最大值 m2 为基准。",
            "Row {i} is query {i}'s denominator after both blocks: that row's scores in both blocks count, each "
            "term measured against the new maximum m2.",
        ),
        "entry_acc": (
            "第 {i} 行是查询 {i} 的累计分子：两块各自的 exp(分数 − m2) 乘以各自的值，再相加。",
            "Row {i} is query {i}'s running numerator: each block's exp(score − m2) times that block's values, added.",
        ),
        "entry_online_O": (
            "第 {i} 行应当与稠密注意力的第 {i} 行完全相同：acc2 除以 l2。",
            "Row {i} should equal row {i} of dense attention exactly: acc2 divided by l2.",
        ),
        "entry_dV": (
            "第 {i} 行是值 {i} 的梯度：所有查询对键 {i} 的权重，乘以各自输出的梯度再相加。",
            "Row {i} is the gradient of value {i}: every query's weight on key {i} times that query's output "
            "gradient, added up.",
        ),
        "entry_dA": (
            "这个数是查询 {i} 的输出梯度与值 {j} 的点积。",
            "This is query {i}'s output gradient dotted with value {j}.",
        ),
        "entry_dS": (
            "这一行要用这一行的权重 A 和 dA 算：softmax 的雅可比逐行作用。",
            "This row comes from this row's weights A and dA: the softmax Jacobian acts row by row.",
        ),
        "entry_dQ": (
            "第 {i} 行是查询 {i} 的梯度：dS 的第 {i} 行把各个键混合起来，再乘以 1/√d_k。",
            "Row {i} is query {i}'s gradient: row {i} of dS mixes the keys, then the factor 1/√d_k.",
        ),
        "entry_dK": (
            "第 {i} 行是键 {i} 的梯度：dS 的第 {i} 列把各个查询混合起来，再乘以 1/√d_k。",
            "Row {i} is key {i}'s gradient: column {i} of dS mixes the queries, then the factor 1/√d_k.",
        ),
        "entry_norm": (
            "第 {i} 行要用这一行自己的均值和方差来归一化。",
            "Row {i} is normalised with its own mean and variance.",
        ),
        "entry_residual": (
            "第 {i} 行是 X 与 F 的第 {i} 行相加之后，再按这一行归一化。",
            "Row {i} is row {i} of X plus row {i} of F, then normalised along that row.",
        ),
        "entry_ffn": (
            "第 {i} 行只由 H 的第 {i} 行算出：乘 W1、加 b1、取 max(0, ·)、乘 W2、加 b2。",
            "Row {i} comes from row {i} of H alone: times W1, plus b1, max(0, ·), times W2, plus b2.",
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
        "of_head": ("，头 {h}", " of head {h}"),
        # ---------------------------------------------------------------- the mistakes: what is wrong, why, the fix
        "because_of_weights": ("{sym} 不对，问题出在权重上：", "{sym} is off because of the weights. "),
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
        "scaled_wrong_width": (
            "除错了数：你除的是 {root}，也就是{what}的平方根；缩放用的是 √d_k，d_k 是每个查询和键的宽度"
            "（Q、K 的列数，也就是每个点积有几项）。",
            "Divided by the wrong number: you divided by {root}, the square root of {what}; the scale is √d_k, "
            "d_k being the width of each query and key (the number of columns of Q and K, the number of terms "
            "in each dot product).",
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
        "keepdims": (
            "少了 keepdims=True：按行求和（或取最大值）得到形状 (n,) 的向量，除法时它沿着错误的方向广播，"
            "第 j 列被第 j 行的和去除。写 .sum(axis=1, keepdims=True)，得到 (n, 1)，才是每行除以自己的和。",
            "keepdims=True is missing: the row sums (or maxima) come out as an (n,) vector, which broadcasts "
            "along the wrong axis, so column j is divided by row j's sum. Write .sum(axis=1, keepdims=True) to "
            "get (n, 1): then each row is divided by its own sum.",
        ),
        "exp_not_divided": (
            "取了 exp，但还没有除以每一行的和：softmax 要让每一行加起来为 1。",
            "You took exp but never divided by each row's sum: softmax makes every row add up to 1.",
        ),
        "divided_by_total": (
            "你除的是整个矩阵的和：要除以每一行自己的和（.sum(axis=1, keepdims=True)）。",
            "You divided by the sum of the whole matrix: divide by each row's own sum (.sum(axis=1, keepdims=True)).",
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
        "mask_upper": (
            "遮罩取成了上三角：第 i 行是位置 i 在提问，它只能看第 0 到 i 列，也就是下三角（np.tril，含对角线）。",
            "The mask is the upper triangle: row i is position i asking, and it may see columns 0 to i only, "
            "the lower triangle (np.tril, diagonal included).",
        ),
        "mask_no_diagonal": (
            "对角线也被遮住了：每个位置都可以关注它自己。于是第 0 行一个键也看不到，这一行才会是 NaN"
            "（用很大的负数代替 −∞ 时，则变成平均分配）。",
            "The diagonal is masked too: every position may attend to itself. Row 0 is then left with no key "
            "to see, which is why that row is NaN (or spread evenly, with a large negative number instead of −∞).",
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
            "{where}是被遮住的位置（mask 为 False），它的权重应当正好是 0，你的不是。",
            "{where} is masked (mask False), so its weight must be exactly 0; yours is not.",
        ),
        "negative_weight": (
            "{where}的权重是负数：softmax 的权重是 e^s 除以正数之和，永远不会小于 0。",
            "The weight at {where} is negative: a softmax weight is e^s over a positive sum, never below 0.",
        ),
        "wrong_mask_S": (
            "被遮住的位置（例如 {where}）分数应为 −∞，不是 0 或很大的负数：这样 softmax 后权重正好是 0。",
            "A masked position (e.g. {where}) must hold −∞, not 0 or a large negative number, so that its "
            "weight after softmax is exactly 0.",
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
            "你用分数乘了 V：要先对分数的每一行做 softmax 得到权重 A，再用 A 乘以 V。",
            "You multiplied the scores by V: first turn each row of scores into weights A with softmax, "
            "then multiply A by V.",
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
        # ---------------------------------------------------------------- lesson 8: multi-head attention
        "split_reshape_alone": (
            "只用了 reshape：reshape(h, n, d_head) 把数一行一行地倒进新形状，一个“头”里混着好几个位置的数。"
            "先 reshape 成 (n, h, d_head)，再把头这一维移到最前面（转置）。",
            "A reshape alone: reshape(h, n, d_head) pours the numbers into the new shape row by row, so one "
            '"head" holds pieces of several positions. Reshape to (n, h, d_head) first, then move the heads axis '
            "to the front (a transpose).",
        ),
        "split_not_moved": (
            "这是 (n, h, d_head)：拆对了，但头这一维要移到最前面，成为 (h, n, d_head)，每个头才是一个 n × d_head 的矩阵。",
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
            "只用了 reshape：(h, n, d_head) 直接 reshape 成 (n, h·d_head) 会把不同位置的数拼进同一行。"
            "先把头这一维移到位置之后 (n, h, d_head)，再 reshape。",
            "A reshape alone: reshaping (h, n, d_head) straight to (n, h·d_head) puts numbers of different "
            "positions into one row. Move the heads axis after the positions first, (n, h, d_head), then reshape.",
        ),
        "merge_interleaved": (
            "各个头的列交错在一起了：拼接后应当先是头 0 的全部 d_head 列，再是头 1 的……",
            "The heads' columns are interleaved: after merging, head 0's d_head columns come first, then head 1's, …",
        ),
        "merge_reversed": (
            "头的顺序反了：拼接时头 0 在最左边，然后是头 1、头 2……（这个顺序要和拆头时一致，W_O 才对得上）。",
            "The heads are in reverse order: head 0 goes on the left, then head 1, head 2, … (the order of the "
            "split, so that W_O lines up).",
        ),
        "merge_summed": (
            "你把各个头加起来（或平均）了：多头的输出是并排拼接，宽度变成 h·d_head，不是相加。",
            "You added (or averaged) the heads: their outputs are put side by side, h·d_head wide, not added.",
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
            "Divided by the wrong number: each head's dot products have d_head terms, so divide by √d_head, "
            "not √d_model.",
        ),
        "unscaled_heads": (
            "忘了缩放：每个头的分数都要先除以 √d_head，再做 softmax。",
            "Scaling is missing: every head's scores are divided by √d_head before softmax.",
        ),
        "layer_split_by_reshape": (
            "拆头时只用了 reshape：一个“头”里混进了好几个位置。先 reshape 成 (n, h, d_head)，再把头这一维移到前面。",
            'The heads were made by a reshape alone, so a "head" mixes several positions: reshape to '
            "(n, h, d_head), then move the heads axis to the front.",
        ),
        "layer_merged_by_reshape": (
            "合并时只用了 reshape：不同位置的数被拼进了同一行。先把头这一维移到位置之后，再 reshape。",
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
        "sum_not_shifted": (
            "l 要相对于 m 来算：对 exp(分数 − m1) 求和，而不是 exp(分数)。",
            "l is measured against m: sum exp(score − m1), not exp(score).",
        ),
        "never_shifted": (
            "没有减去最大值：累计量要相对于运行最大值 m2 来算，用 exp(分数 − m2)；不减的话，分数一大 exp 就会溢出（最后除出来的 O 倒是一样）。",
            "No maximum subtracted: the running sums are measured against the running maximum m2, with "
            "exp(score − m2); without it exp overflows on large scores (the final O would come out the same).",
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
        "explain_rescale": (
            "运行最大值只有在新块带来更大的分数时才会变；这个因子把旧的和换算到新的最大值上。新块的最大值更小时，运行最大值变了吗？",
            "The running maximum only changes when a block brings a larger score; the factor re-expresses the old "
            "sums against the new maximum. If the new block's maximum is smaller, does the running maximum change?",
        ),
        "predict_zero_factor": (
            "旧的和并不会被扔掉：它们已经包含了前面所有键的 exp，只需换算到新的最大值上。",
            "The old sums are never thrown away: they hold the exps of all the earlier keys and only need "
            "re-expressing against the new maximum.",
        ),
        "predict_block_factor": (
            "那是拿新块自己的最大值来换算：可是运行最大值是 max(旧的 m, 新块的最大值)。",
            "That re-expresses against the new block's own maximum: but the running maximum is max(old m, the "
            "block's maximum).",
        ),
        # ---------------------------------------------------------------- lesson 10: gradients
        "transposed_grad": (
            "你的 {sym} 行列颠倒了：梯度的形状和它所对应的矩阵一样，检查乘法里哪一个该转置。",
            "Your {sym} has rows and columns swapped: a gradient has the shape of its matrix; check which factor "
            "of the product is transposed.",
        ),
        "hint_transposed_grad": (
            "这是转置后的形状：梯度的形状和它所对应的矩阵一样。",
            "That is the transposed shape: a gradient has the shape of its matrix.",
        ),
        "dV_no_transpose": (
            "A 没有转置：O = A·V 中，V 的第 j 行被每个查询按权重 A[i, j] 取用，所以 dV = Aᵀ·dO。",
            "A is not transposed: in O = A·V, row j of V is used by every query i with weight A[i, j], so dV = Aᵀ·dO.",
        ),
        "dA_no_transpose": (
            "V 没有转置：A[i, j] 乘的是 V 的第 j 行，所以它的梯度是 dO 的第 i 行与 V 的第 j 行的点积：dA = dO·Vᵀ。",
            "V is not transposed: A[i, j] multiplies row j of V, so its gradient is row i of dO dotted with row j "
            "of V: dA = dO·Vᵀ.",
        ),
        "jacobian_forgotten": (
            "dS = dA 把 softmax 当成了什么都不做：每个权重都依赖整行的分数，要乘以 softmax 的雅可比："
            "dS = A ⊙ (dA − rowsum(dA ⊙ A))。",
            "dS = dA treats softmax as if it did nothing: each weight depends on the whole row of scores, so "
            "apply the softmax Jacobian: dS = A ⊙ (dA − rowsum(dA ⊙ A)).",
        ),
        "jacobian_diagonal": (
            "只用了雅可比的对角线 a_i(1 − a_i)：非对角线上的 −a_i·a_j（一个权重升高，其他权重降低）也要算进来。",
            "Only the Jacobian's diagonal a_i(1 − a_i) is used: the off-diagonal −a_i·a_j (one weight rising "
            "lowers the others) counts too.",
        ),
        "jacobian_first_term": (
            "只算了 A ⊙ dA：还要减去每一行的 rowsum(dA ⊙ A)，它来自雅可比的 −a_i·a_j 部分（预算是固定的）。",
            "Only A ⊙ dA: subtract each row's rowsum(dA ⊙ A) too; it comes from the Jacobian's −a_i·a_j part "
            "(the budget is fixed).",
        ),
        "jacobian_without_A": (
            "括号里对了，但最后还要逐元素乘以 A：dS = A ⊙ (dA − rowsum(dA ⊙ A))。",
            "The bracket is right, but it must be multiplied by A, entry by entry: dS = A ⊙ (dA − rowsum(dA ⊙ A)).",
        ),
        "jacobian_sign": (
            "符号反了：是 dA 减去 rowsum(dA ⊙ A)，不是反过来。",
            "The sign is flipped: it is dA minus rowsum(dA ⊙ A), not the other way round.",
        ),
        "jacobian_columns": (
            "求和取错了轴：rowsum 是沿每一行（axis=1）加，不是沿列。",
            "The sum runs along the wrong axis: rowsum adds along each row (axis=1), not down the columns.",
        ),
        "keepdims_grad": (
            "少了 keepdims=True：每行的和成了 (n,) 的向量，沿错误的方向广播。用 .sum(axis=1, keepdims=True)。",
            "keepdims=True is missing: the row sums became an (n,) vector that broadcasts along the wrong axis. "
            "Use .sum(axis=1, keepdims=True).",
        ),
        "grad_unscaled": (
            "忘了 1/√d_k：前向时 S = QKᵀ/√d_k，所以反向传到 Q、K 时也要乘以 1/√d_k。",
            "The factor 1/√d_k is missing: the forward pass has S = QKᵀ/√d_k, so the gradient flowing back to Q "
            "and K is scaled by 1/√d_k too.",
        ),
        "dQ_K_transposed": (
            "K 被转置了：S[i, j] = q_i·k_j/√d_k，对 q_i 求导得到 k_j/√d_k，所以 dQ = dS·K/√d_k（K 不转置）。",
            "K is transposed: S[i, j] = q_i·k_j/√d_k, whose derivative in q_i is k_j/√d_k, so dQ = dS·K/√d_k "
            "(K as it is).",
        ),
        "dK_no_transpose": (
            "dS 没有转置：键 j 出现在 dS 的第 j 列，所以 dK = dSᵀ·Q/√d_k。",
            "dS is not transposed: key j appears in column j of dS, so dK = dSᵀ·Q/√d_k.",
        ),
        "explain_grad_row_sum": (
            "想一想：给一整行分数都加上同一个数，权重会变吗？那么 dS 这一行各项加起来，意味着什么？",
            "Think: if you add the same number to a whole row of scores, do the weights change? Then what does "
            "the sum of that row of dS measure?",
        ),
        "predict_one": (
            "加起来为 1 的是权重本身；这里问的是权重的变化（梯度）：预算固定，一个升高，其他的就要降低。",
            "It is the weights themselves that add up to 1; this asks about their changes (the gradient): the "
            "budget is fixed, so one rising means others falling.",
        ),
        "predict_sum_dA": (
            "那是 dA 这一行的和：softmax 把 dA 变成 dS 时，会减去每一行的加权平均。",
            "That is the sum of dA's row: on the way to dS, softmax subtracts each row's weighted mean.",
        ),
        # ---------------------------------------------------------------- lesson 11: LayerNorm, residual, FFN
        "norm_axis": (
            "归一化取错了轴：你沿着列（位置，axis=0）算均值和方差；LayerNorm 对每一行（一个位置的特征，axis=−1）单独归一化。",
            "Normalised along the wrong axis: your mean and variance run down the columns (over positions, "
            "axis=0); LayerNorm normalises each row (one position's features, axis=−1) on its own.",
        ),
        "eps_forgotten": (
            "根号里没有 ε：一行的数几乎相等时方差几乎是 0，除以 √方差 会把噪声放大（全相等时是 0/0 = NaN）。ε 加在根号里：√(方差 + ε)。",
            "There is no ε under the square root: when a row's numbers are nearly equal, its variance is nearly 0 "
            "and dividing by √variance blows up the noise (0/0 = NaN if they are all equal). ε goes under the "
            "root: √(variance + ε).",
        ),
        "eps_value": (
            "ε 的大小不对：你用的 ε 是 {eps}，题目给的是 ε = {task_eps}。这一行的方差和 ε 差不多大，ε 取多少在这里看得出来。",
            "ε has the wrong size: you used ε = {eps}, the task gives ε = {task_eps}. This row's variance is about "
            "as small as ε, so the size of ε shows there.",
        ),
        "eps_misplaced": (
            "ε 放错了地方：它加在根号里面，√(方差 + ε)，不是加在根号外面，也不是加在结果上。",
            "ε is in the wrong place: it goes under the square root, √(variance + ε), not after the root and "
            "not onto the result.",
        ),
        "unbiased_variance": (
            "方差除以了 d − 1（ddof=1）：LayerNorm 的方差除以 d（np.var 的默认）。",
            "The variance is divided by d − 1 (ddof=1): LayerNorm's variance divides by d (np.var's default).",
        ),
        "not_centred": (
            "忘了减去均值：先减去这一行的均值，再除以 √(方差 + ε)。",
            "The mean is not subtracted: subtract the row's mean first, then divide by √(variance + ε).",
        ),
        "no_square_root": (
            "除的是方差本身：应除以标准差，√(方差 + ε)。",
            "Divided by the variance itself: divide by the standard deviation, √(variance + ε).",
        ),
        "residual_after_norm": (
            "残差加晚了：题目要的是 LayerNorm(X + F)，先把 X 加到 F 上再归一化；你是先把 F 归一化再加 X，"
            "LayerNorm(F) + X。（这也不是 pre-LN：pre-LN 归一化的是子层的输入，X + 子层(LayerNorm(X))。）",
            "The residual comes too late: the task asks for LayerNorm(X + F), adding X to F before normalising; "
            "you normalised F, then added X: LayerNorm(F) + X. (Nor is that pre-LN, which normalises the "
            "sublayer's input: X + sublayer(LayerNorm(X)).)",
        ),
        "input_normed": (
            "你归一化的是 X，再加上 F：题目要的是 LayerNorm(X + F)，先相加再归一化。",
            "You normalised X and then added F: the task asks for LayerNorm(X + F), add first, then normalise.",
        ),
        "no_residual": (
            "忘了残差：先把输入 X 加到子层的输出 F 上，再做 LayerNorm。",
            "The residual is missing: add the input X to the sublayer's output F, then apply LayerNorm.",
        ),
        "no_norm": (
            "这是 X + F：还要对每一行做 LayerNorm。",
            "This is X + F: apply LayerNorm to each row as well.",
        ),
        "no_relu": (
            "忘了 max(0, ·)（ReLU）：没有它，两层线性变换合起来还是一个线性变换。",
            "max(0, ·) (ReLU) is missing: without it, the two linear layers together are still one linear map.",
        ),
        "relu_on_output": (
            "ReLU 用在了输出上：它只作用在隐藏层 H·W1 + b1 上，输出层 ·W2 + b2 之后不再取 max(0, ·)。",
            "ReLU is applied to the output: it acts on the hidden layer H·W1 + b1 only; no max(0, ·) after ·W2 + b2.",
        ),
        "bias_forgotten": (
            "漏了偏置：隐藏层要加 b1，输出层要加 b2。",
            "A bias is missing: the hidden layer adds b1 and the output layer adds b2.",
        ),
        "relu_before_bias": (
            "b1 加晚了：先加 b1，再取 max(0, ·)：max(0, H·W1 + b1)。",
            "b1 comes too late: add b1 first, then take max(0, ·): max(0, H·W1 + b1).",
        ),
        "explain_rows_changed": (
            "前馈网络对每一行（每个位置）用同一组参数单独计算：改了 H 的一行，哪些行的输入变了？",
            "The feed-forward network works on each row (position) on its own, with the same parameters: when "
            "one row of H changes, which rows' inputs have changed?",
        ),
        "predict_every_row": (
            "会影响每一行的是注意力，它把各个位置混合起来；前馈网络里，每一行只用它自己的输入。",
            "Attention is what affects every row, since it mixes positions; in the feed-forward network each row "
            "uses only its own input.",
        ),
        "predict_no_row": (
            "那一行自己的输入变了：它的输出会变吗？",
            "That row's own input changed: does its output?",
        ),
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
            "The changed key does not necessarily get the most weight: compare its score after the change with "
            "the others.",
        ),
        "explain_output_width": (
            "O = A·V：O 的每一行是 V 的各行按权重混合出来的，所以它和一个值向量一样宽。",
            "O = A·V: each row of O is a mix of V's rows, so it is as wide as one value vector.",
        ),
        "predict_width_n_k": (
            "那是键的个数 n_k，也就是 A 的列数：A·V 沿着键把各个值加起来，这一维在乘法里消掉了。",
            "That is the number of keys n_k, the width of A: A·V adds the values up over the keys, so that axis "
            "disappears in the product.",
        ),
        "predict_width_d_k": (
            "那是查询和键的宽度 d_k：它只在打分时用到；输出取回的是值 V。",
            "That is the width of the queries and keys d_k: it only matters for scoring; the output fetches the "
            "values V.",
        ),
        "predict_width_n_q": (
            "那是查询的个数，也就是 O 的行数：问的是 O 有几列。",
            "That is the number of queries, the number of rows of O: the question asks for its columns.",
        ),
        "explain_masked_row_sum": (
            "遮罩在 softmax 之前：被遮住的分数是 −∞，权重正好是 0；softmax 只在剩下的键之间分配。",
            "The mask comes before softmax: masked scores are −∞ and get weight exactly 0; softmax shares the "
            "row out among the keys that are left.",
        ),
        "predict_masked_after": (
            "那是先 softmax、后遮罩时剩下的权重之和；这里遮罩在 softmax 之前，softmax 会在可见的键之间重新分配。",
            "That is what is left if the mask is applied after softmax; here it comes before, and softmax shares "
            "the row out among the visible keys.",
        ),
        "predict_count": (
            "那是这一行能看到的键的个数（或所占比例）：可见的键的权重之和是多少？",
            "That is how many keys the row may see (or their share): what do the visible keys' weights add up to?",
        ),
        # ---------------------------------------------------------------- find the bug: the learner's fixed function
        "fn_ok": (
            "{sym} 修好了：检查程序用它自己的 {count} 组数据调用它，结果全对。",
            "{sym} is fixed: right on all {count} calls with the checker's own data.",
        ),
        "fn_not_function": (
            "{sym} 应当是一个函数（def {sym}(...): ...），你给的是 {got}。",
            "{sym} must be a function (def {sym}(...): ...); you gave {got}.",
        ),
        "fn_raised": (
            "用 {call} 调用你的 {sym} 时，它抛出了 {error}：{detail}{hint}",
            "Called with {call}, your {sym} raised {error}: {detail}{hint}",
        ),
        "fn_float_size": (
            "（一个形状或下标是小数：Python 3 里 / 总是得到 float，整除要用 //。）",
            " (A size or an index is a float: in Python 3, / always gives a float; whole-number division is //.)",
        ),
        "fn_returned_none": (
            "用 {call} 调用你的 {sym}，它返回了 None：函数最后有 return 吗？",
            "Called with {call}, your {sym} returned None: does it end with return?",
        ),
        "fn_wrong_type": (
            "用 {call} 调用你的 {sym}，它返回了 {got}：应当返回一个数字数组。",
            "Called with {call}, your {sym} returned {got}: it must return an array of numbers.",
        ),
        "fn_same_output": (
            "不管给它什么数据，你的 {sym} 都返回同一个数组：要用参数来算，不要用笔记本里的数据或写死的结果。",
            "Your {sym} returns the same array whatever it is given: compute the result from the arguments, not "
            "from the notebook's data or a fixed answer.",
        ),
        "fn_wrong_shape": (
            "用 {call} 调用你的 {sym}，它返回的形状是 {got}，应当是 {expected}。",
            "Called with {call}, your {sym} returned shape {got}; it should be {expected}.",
        ),
        "fn_wrong_values": (
            "用 {call}（检查程序自己选的数据）调用你的 {sym}，形状对了，但有的数不对，差得最多的在 {where}。",
            "Called with {call} (data of the checker's choosing), your {sym} returns the right shape but some "
            "numbers are off, most at {where}.",
        ),
        "fn_not_finite": (
            "用 {call} 调用你的 {sym}，结果里有 NaN 或 ∞：NaN 来自 0/0 或 ∞ − ∞，∞ 来自溢出或除以 0。",
            "Called with {call}, your {sym} returned NaN or ∞: NaN comes from 0/0 or ∞ − ∞, ∞ from an overflow "
            "or a division by 0.",
        ),
        "bug_k_not_transposed": (
            "{sym} 还在算 Q 乘以 K：只有 d_k 恰好等于键的个数时它才能运行，而且结果不对。分数是 Q 乘以 K 的转置。",
            "{sym} still computes Q times K, which runs only when d_k happens to equal the number of keys, and "
            "gives the wrong numbers then: scores are Q times K transposed.",
        ),
        "bug_max_axis": (
            "softmax 的方向修了一半：和是沿行求的，但最大值还是沿列取的。从每一行减去它自己的最大值。",
            "The softmax is half fixed: the sum runs along the rows, but the maximum is still taken down the "
            "columns. Subtract each row's own maximum.",
        ),
        "bug_overflow": (
            "方向对了，但没有先减去每行的最大值：分数很大时 exp 溢出，结果成了 NaN。先减去这一行的最大值再取 exp。",
            "The axis is right, but each row's maximum is not subtracted: with large scores exp overflows and the "
            "result is NaN. Subtract the row's maximum before exp.",
        ),
        "bug_mask_ignored": (
            "{sym} 根本没有用遮罩：每个位置都看到了未来。在 softmax 之前把右上方的分数设为 −∞。",
            "{sym} uses no mask at all, so every position sees the future: set the scores above the diagonal to "
            "−∞ before softmax.",
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
            "These are the numbers of Q transposed times K, which compares features, not tokens; use Q times K "
            "transposed.",
        ),
        "hint_A_shape": (
            "这就是权重 A：最后还要乘以 V。",
            "These are the weights A: multiply them by V at the end.",
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
            "{name} 至少要有 {axes} 个维度，得到的形状是 {shape}",
            "{name} must have at least {axes} axes, got shape {shape}",
        ),
        "given_mask": (
            "mask 必须是布尔数组（True = 可以关注），得到的是 dtype {dtype}",
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
            "还没有变量 {var}：运行上面的答案格子（把 ... 换成你的答案）；如果已经运行过，检查变量名是不是正好写成 {var}。",
            "there is no variable {var} yet: run the answer cell above (replace ... with your answer); if you "
            "did, check that the variable is spelt {var}.",
        ),
        "no_variable_typo": (
            "还没有变量 {var}，但有一个 {close}：检查读取的是 {var}，名字要一字不差。",
            "there is no variable {var}, but there is {close}: the check reads {var}, spelt exactly so.",
        ),
        "no_variable_failed": (
            "还没有变量 {var}：在这之前运行的那一格出错停下了，改好那里的错误，再运行一次。",
            "there is no variable {var}: the cell run just before this one stopped with an error; fix it and "
            "run it again.",
        ),
        "stale_failed": (
            "（在这之前运行的那一格出错停下了，{var} 可能还是之前的值：改好错误后再运行一次。）",
            "(The cell run just before this one stopped with an error, so {var} may still hold an earlier "
            "value: fix the error and run it again.) ",
        ),
        "carried_forward_check": (
            "{var} 按你在 {earlier} 里自己算的 {earlier_var} 是对的，但 {earlier} 本身不对：先改好 {earlier}，再运行这一格。"
            "批改时这一题照样计分（一个错误只扣一次分）。",
            "{var} is right for your own {earlier_var} from {earlier}, which is wrong: fix {earlier} first, then run "
            "this cell again. Graded, this task would still get its points (error carried forward: one mistake costs "
            "marks only once).",
        ),
        "stale_unchanged": (
            "（{var} 和上次检查时完全一样：改了答案格子之后运行过它吗？运行过的话，新写法算出的数和上次相同。）",
            "({var} is exactly as it was at your last check: did you run the answer cell after editing it? If "
            "you did, the new version gives the same numbers as the last one.) ",
        ),
        "predict_other_row_factor": (
            "这是第 {r} 行（从 0 数起）的换算因子，题目问的是第 {row} 行：用第 {row} 行的旧最大值和新最大值。",
            "That is the factor of row {r} (counting from 0); the task asks about row {row}: use row {row}'s old "
            "and new maxima.",
        ),
        "several_reasons": (
            "这个数可以有不止一种来历。",
            "This number can come from more than one line of reasoning. ",
        ),
        "or_perhaps": ("或者：", " Or: "),
        "other_task": (
            "{var} 正好是题 {other} 的答案（{other_var}）：是不是沿用了那道题的变量或数据？题 {task_id} 用的是它自己的数据。",
            "{var} is exactly the answer of task {other} ({other_var}): was a variable or the data of that task "
            "reused? Task {task_id} uses its own data.",
        ),
        "check_failed": (
            "{task_id} ❌ 检查时出了意外（{error}），请把这一行告诉老师。",
            "{task_id} ❌ the check itself failed ({error}); please tell your teacher.",
        ),
        "predict_first": (
            "⏳ 先在上面写下你的预测（{var}），运行题 {task_id} 的检查，再运行这一格。",
            "⏳ Write your prediction ({var}) above and run the check of task {task_id} first, then run this cell.",
        ),
        "progress_summary": ("共 {total} 题，已通过 {done} 题。", "{done} of {total} tasks passed."),
        "progress_failed": ("❌ 统计时出了意外（{error}）。", "❌ progress failed ({error})."),
    }
)

# ---------------------------------------------------------------- the grader, its feedback pages, the release and
# the ID cell (attn-grade, attn-release, set_student_id): a block of its own, added to the same catalog.
msg.messages.update(
    {
        # ---- the ID cell of a per-student assignment (task_data.set_student_id)
        "student_id_set": (
            "学号 {student_id}：本练习的新数据按你的学号生成，和同学的不一样。",
            "Student number {student_id}: this exercise's fresh data are drawn from it, different from your classmates'.",
        ),
        "student_id_missing": (
            "请在这一格的引号里写上你的学号，再运行它：本练习的新数据要按你的学号生成。",
            "Write your student number between the quotes in this cell and run it again: this exercise's fresh data are drawn from it.",
        ),
        "student_id_needed": (
            "先在学号格（第二个代码格）的引号里写上你的学号并运行它：这道题的新数据按你的学号生成。",
            "First write your student number between the quotes of the ID cell (the second code cell) and run it: this task's fresh data are drawn from it.",
        ),
        # ---- statuses (the table, submissions.csv's details, the feedback pages); {cells} reads "in cell 5"
        "cells": ("（第 {numbers} 格）", "in cell {numbers}"),
        "status_completed": ("运行完毕", "completed"),
        "status_blank": ("空白：一题也没有作答", "blank: no task attempted"),
        "status_syntax_error": ("语法错误{cells}", "syntax error {cells}"),
        "status_runtime_error": ("运行出错{cells}：{detail}", "error {cells}: {detail}"),
        "status_timeout": ("超时{cells}", "timeout {cells}"),
        "status_crashed": ("内核崩溃{cells}", "kernel died {cells}"),
        "status_memory_limit": ("超出内存上限{cells}", "memory limit reached {cells}"),
        "status_worker_died": ("批改它的进程被终止了{cells}", "grader worker died {cells}"),
        "status_could_not_start": ("内核没能启动：{detail}", "the kernel could not start: {detail}"),
        "status_unreadable": ("读不了的文件：{detail}", "unreadable file: {detail}"),
        "status_too_large": ("文件太大，没有批改（{detail}）", "too large to grade ({detail})"),
        "status_unknown_exercise": ("认不出是哪个练习", "exercise not recognised"),
        "status_cells_changed": ("改动了发下去的单元格：{detail}", "handed-out cells changed: {detail}"),
        "change_edited": ("第 {number} 格被修改", "cell {number} edited"),
        "change_deleted": ("第 {number} 格被删除", "cell {number} deleted"),
        "change_moved": ("第 {number} 格被移动", "cell {number} moved"),
        "status_late": ("迟交 {detail} 天", "late by {detail} day(s)"),
        "status_id_mismatch": (
            "学号格写的是 {detail}，不是这位学生的学号",
            "the ID cell says {detail}, not this student's number",
        ),
        "status_no_student_id": ("学号格没有填写", "no student number in the ID cell"),
        "status_not_in_roster": ("名单里找不到这位学生", "student not found in the roster"),
        "status_grader_error": ("批改程序自己出错了：{detail}", "the grader itself failed: {detail}"),
        # ---- the details of a status or of a skipped file, given as codes (reports.detail_text)
        "detail_not_utf8": ("不是 UTF-8 文本", "not UTF-8 text"),
        "detail_not_json": ("不是 JSON", "not JSON"),
        "detail_json_not_notebook": ("是 JSON，但不是笔记本", "JSON but not a notebook"),
        "detail_invalid_notebook": ("笔记本格式不对（{value}）", "not a valid notebook ({value})"),
        "detail_read_error": ("读文件时出错（{value}）", "error reading the file ({value})"),
        "detail_not_notebook": ("不是笔记本（{value}）", "not a notebook ({value})"),
        "detail_bad_zip": ("zip 文件读不了（{value}）", "unreadable zip file ({value})"),
        "detail_no_extension": ("没有扩展名", "no extension"),
        "detail_without_outputs": ("去掉保存的输出后仍有 {value}", "{value} even without its saved outputs"),
        "detail_handout_unreadable": (
            "发下去的版本读不了（{value}）",
            "the handed-out version is unreadable ({value})",
        ),
        "detail_kernel_stopped": ("内核在启动时停止了", "the kernel stopped while starting"),
        "detail_kernel_silent": ("内核 {value} 秒内没有应答", "the kernel did not answer within {value} s"),
        "detail_no_answer_to_interrupt": ("内核对中断没有应答", "the kernel did not answer the interrupt"),
        "file_not_graded": (
            "没有批改：这份文件没能运行（原因见上面“批改时注意到”）。",
            "Not graded: this file could not be run (see “What the grader noticed” above).",
        ),
        "cell_error": (
            "第 {cell} 格运行时出错停下了（{error}），{var} 没有算出来：改好那一格的错误，再运行它和下面的检查。",
            "cell {cell} stopped with an error ({error}) before {var} was assigned: fix that error, then run that "
            "cell and the check below it again.",
        ),
        "carried_forward": (
            "按你在 {task_id} 里自己的答案算，这一题是对的：照样计分（一个错误只扣一次分）。",
            "Right for your own answer to {task_id}: this task counts (one mistake costs marks only once).",
        ),
        # ---- the table and the command's lines
        "col_student": ("学生", "student"),
        "col_points": ("得分", "points"),
        "col_percent": ("百分制", "percent"),
        "col_status": ("状态", "status"),
        "exercise_unknown": ("（认不出的练习）", "(exercise not recognised)"),
        "lms_item": ("自注意力练习", "Self-attention exercises"),
        "g_limits": (
            "每份作业：最多 {timeout} 秒、内存 {memory}；{writes}；同时批改 {jobs} 份。",
            "Each submission: at most {timeout} s and {memory} of memory; {writes}; {jobs} graded at a time.",
        ),
        "g_confined": ("只能在自己的临时文件夹里写文件（{how}）", "writes only in its own temporary folder ({how})"),
        "confined_landlock": ("Linux Landlock，ABI {abi}", "Linux Landlock, ABI {abi}"),
        "confined_scoped": (
            "；也不能给外面的进程发信号、连外面的抽象套接字",
            "; it cannot signal processes outside or reach their abstract sockets",
        ),
        "g_not_confined": (
            "写文件不受限制（这台机器上做不到，或用了 --no-confine）",
            "writes not confined (not available here, or --no-confine)",
        ),
        "g_no_handout": (
            "注意：没有找到发出去的版本（--release 或 --teacher-dir），不比对单元格是否被改动。",
            "note: no handed-out version found (--release or --teacher-dir): cells are not compared.",
        ),
        "g_bad_limits": (
            "--timeout 要大于 0，--jobs 至少 1，--memory 至少 256（MiB）",
            "--timeout must be positive, --jobs at least 1, --memory at least 256 (MiB)",
        ),
        "g_no_folder": ("{folder}：没有这个文件夹", "{folder}: no such folder"),
        "g_no_release": (
            "{folder} 里没有 release.json：请给 attn-release 写出的那个文件夹",
            "{folder}: no release.json (give the folder attn-release wrote)",
        ),
        "g_nothing": ("在 {paths} 里没有找到可以批改的 .ipynb 文件", "no .ipynb files to grade in {paths}"),
        "g_progress": (
            "[{done}/{total}] {student} · {exercise} · {points} · {status} · {seconds} 秒",
            "[{done}/{total}] {student} · {exercise} · {points} · {status} · {seconds} s",
        ),
        "g_skipped": ("跳过了 {n} 个文件：", "{n} file(s) skipped:"),
        "skip_not_notebook": ("不是笔记本（{detail}）", "not a notebook ({detail})"),
        "skip_hidden": ("隐藏文件或系统文件", "hidden or system file"),
        "skip_checkpoint": ("JupyterLab 自动保存的副本", "a JupyterLab checkpoint copy"),
        "skip_bad_zip": ("zip 文件读不了（{detail}）", "unreadable zip file ({detail})"),
        "skip_superseded": (
            "同一位学生、同一个练习还有更新的一份：{detail}",
            "a newer submission of the same student and exercise: {detail}",
        ),
        "skip_duplicate": ("与另一份完全相同：{detail}", "identical to another file: {detail}"),
        "skip_unreadable": ("读不了（{detail}）", "cannot be read ({detail})"),
        "skip_too_large": ("文件太大（{detail}）", "too large ({detail})"),
        "skip_not_found": ("找不到这个文件或文件夹", "no such file or folder"),
        "g_reused": (
            "另有 {n} 份以前批改过、内容没变，沿用原来的结果（要重新批改请加 --regrade）。",
            "{n} more were graded before and have not changed: their results are kept (--regrade grades them again).",
        ),
        "g_done": (
            "批改了 {n} 份，用时 {seconds} 秒（同时 {jobs} 份，平均每份 {each} 秒）。",
            "{n} submission(s) graded in {seconds} s ({jobs} at a time, {each} s each on average).",
        ),
        "g_memory": (
            "批改程序自身的内存峰值：{own} MiB；单个批改进程最多 {worker} MiB（作业打印多少都不影响它们）。",
            "peak memory of the grader: {own} MiB itself, {worker} MiB for the largest worker (whatever a submission prints).",
        ),
        "g_written": ("结果写在：{path}", "results written to: {path}"),
        "g_remembered": (
            "沿用上次批改记在 {file} 里的设置：{settings}（命令行上给出的选项优先）",
            "settings from the earlier run, kept in {file}: {settings} (an option given on the command line overrides them)",
        ),
        "g_remembered_gone": (
            "{file} 记着上次批改用的 {option} {path}，但它已经不存在了：请用 {option} 给出它现在的位置",
            "{file} remembers {option} {path} from the earlier run, but it no longer exists: give its new place with {option}",
        ),
        "g_settings_unreadable": (
            "{file} 读不了（不是批改程序写的设置文件）：修好它，或删掉它从头设置",
            "{file} cannot be read (not a settings file the grader wrote): repair it, or delete it to start afresh",
        ),
        "g_lms_not_in_roster": (
            "名单外的 {n} 位学生没有写进 moodle_grades.csv、moodle_worksheet.csv 和 canvas_grades.csv（{students}）："
            "Moodle 导入成绩时遇到找不到的用户会整个中止。他们仍在 submissions.csv 和 gradebook.csv 里，状态 not_in_roster。",
            "{n} student(s) not in the roster left out of moodle_grades.csv, moodle_worksheet.csv and canvas_grades.csv "
            "({students}): Moodle's grade import stops altogether at a user it cannot find. They stay in "
            "submissions.csv and gradebook.csv, status not_in_roster.",
        ),
        "g_lms_no_identifier": (
            "{file} 里没有写 {n} 位学生（{students}）：没有 {columns}，LMS 认不出他们。用 --roster 给出名单，或让学生填学号格。",
            "{n} student(s) left out of {file} ({students}): no {columns}, so the LMS cannot match them. Give a "
            "--roster, or have the ID cell filled in.",
        ),
        "list_separator": ("、", ", "),
        "g_exercise_points": ("{exercise} {points} 分", "{exercise} {points}"),
        "g_total_legend": (
            "gradebook.csv 的 {column}：各练习得分（按迟交规则扣分后）之和 ÷ 这些练习的满分之和 × 100，"
            "没交的练习记 0 分；满分：{weights}。",
            "gradebook.csv's {column}: the points earned (after the late rule) over the points possible across these "
            "exercises, × 100; an exercise not handed in counts 0; points possible: {weights}.",
        ),
        # ---- a points file, a late rule or a roster that cannot be used (attn-grade stops with it)
        "marks_no_task": (
            "{path} 第 {row} 行：没有题号 {task_id!r}（已有：{ids}）",
            "{path}, row {row}: no task {task_id!r} (tasks: {ids})",
        ),
        "marks_not_number": (
            "{path} 第 {row} 行：{task_id} 的分值要是一个数",
            "{path}, row {row}: points for {task_id} must be a number",
        ),
        "marks_negative": (
            "{path} 第 {row} 行：{task_id} 的分值不能是负数",
            "{path}, row {row}: points for {task_id} must be 0 or more",
        ),
        "marks_deadline": (
            "--deadline {deadline!r}：请写成 2026-12-08 23:59 这样（本地时间）",
            "--deadline {deadline!r}: write it as 2026-12-08 23:59 (local time)",
        ),
        "marks_late": (
            "--late {rule!r}：只能是 none、zero 或每晚一天扣几分（如 10，百分制）",
            "--late {rule!r}: none, zero, or a penalty per day such as 10 (percentage points)",
        ),
        "roster_encoding": ("{path}：不是 UTF-8 或 GBK 文本", "{path}: not UTF-8 or GBK text"),
        "roster_no_id": (
            "{path}：前几行里没有学号列（列名是其中之一：{columns}）",
            "{path}: no student number column in the first rows (one of: {columns})",
        ),
        # ---- attn-grade --help
        "ga_description": (
            "批改练习笔记本：每份作业在自己的进程和全新内核里运行，同时批改好几份。",
            "Grade exercise notebooks, each in a process and a fresh kernel of its own, several at a time.",
        ),
        "ga_submissions": (
            "笔记本、文件夹（连同子文件夹）和 zip 文件",
            "notebooks, folders (with subfolders) and zip files",
        ),
        "ga_out": (
            "批改文件夹：结果、CSV、LMS 导入文件、反馈页都写在这里；它记下这次的设置（settings.json），以后批改到这里时沿用",
            "grading folder: results, CSV files, LMS files, feedback pages; it remembers this run's settings "
            "(settings.json) for later runs into it",
        ),
        "ga_csv": (
            "每份作业一行的 CSV（默认 OUT/submissions.csv）",
            "the submissions CSV (default: OUT/submissions.csv)",
        ),
        "ga_feedback": (
            "反馈页写到这个文件夹（默认 OUT/feedback）",
            "folder for the feedback pages (default: OUT/feedback)",
        ),
        "ga_roster": ("全班名单 CSV：一列学号、一列姓名", "CSV of the class: a student number and a name column"),
        "ga_points": (
            "每行“题号,分值”的 CSV，覆盖登记表里的分值",
            "CSV of task,points rows overriding the registry's points",
        ),
        "ga_release": (
            "attn-release 写出的发布文件夹（可以给好几个）",
            "a release folder written by attn-release (repeatable)",
        ),
        "ga_teacher_dir": (
            "没有发布文件夹时，拿来比对的教师版文件夹（可以给好几个；默认两种版本的 notebooks/…/exercises/teacher）",
            "a folder of teacher notebooks to compare with when there is no release (repeatable; default: both editions')",
        ),
        "ga_deadline": (
            '截止时间（本地时间），例如 "2026-12-08 23:59"；none：不设截止时间',
            'the deadline, local time, e.g. "2026-12-08 23:59"; none: no deadline',
        ),
        "ga_late": (
            "迟交怎么算：none（只标出）、zero（记 0 分）或每晚一天扣几分（如 10）",
            "late work: none (only reported), zero, or points off per day late (e.g. 10)",
        ),
        "ga_exercises": ("没人交的练习也在成绩册里占一列", "gradebook columns even if no one handed them in"),
        "ga_lms_item": ("Moodle 和 Canvas 文件里成绩项的名字", "the grade item's name in the Moodle and Canvas files"),
        "ga_jobs": (
            "同时批改几份（默认：CPU 核数，内存允许的话）",
            "submissions graded at a time (default: the cores, as memory allows)",
        ),
        "ga_timeout": ("每本笔记本总共最多运行的秒数（默认 60）", "seconds each notebook may run in all (default 60)"),
        "ga_memory": ("每份作业最多用的内存，MiB（默认 2048）", "MiB of memory each submission may use (default 2048)"),
        "ga_regrade": ("结果文件里已有的也重新批改", "grade again what the results file already has"),
        "ga_lang": ("表格和提示的语言（默认看系统语言）", "language of the table and messages (default: the system's)"),
        "ga_no_confine": ("不限制写文件（只在调试批改程序时用）", "do not confine writes (for debugging the grader)"),
        # ---- the feedback page
        "fb_title": ("{exercise} · 批改反馈", "{exercise} · feedback"),
        "fb_student": ("学生：{student}", "Student: {student}"),
        "fb_mark": (
            "得分：{earned} / {possible}（百分制 {percent} 分）",
            "Mark: {earned} / {possible} ({percent} out of 100)",
        ),
        "fb_after_late": ("，按迟交规则记 {final} 分", "; {final} after the late rule"),
        "fb_explained": ("{status}：{why}", "{status}: {why}"),
        "fb_why_syntax_error": (
            "这一格不是合法的 Python（括号、引号、缩进？），整格都没有运行",
            "that cell is not valid Python (brackets, quotes, indentation?), so none of it ran",
        ),
        "fb_why_runtime_error": (
            "这一格运行时报错；它后面的格子照常运行，也照常计分",
            "that cell raised an error; the cells after it still ran and count",
        ),
        "fb_why_timeout": (
            "笔记本在这一格用完了运行时间，之后的格子没有运行，之后的题也就没有计分；检查有没有死循环",
            "the notebook ran out of time in that cell: nothing after it ran, so later tasks were not graded; look for an endless loop",
        ),
        "fb_why_crashed": (
            "Python 内核在这一格停止了（例如调用了 os._exit），之后的题没有计分",
            "the Python kernel stopped in that cell (os._exit, for example), so later tasks were not graded",
        ),
        "fb_why_memory_limit": (
            "这一格要的内存超过了上限，没有算完",
            "that cell asked for more memory than allowed and did not finish",
        ),
        "fb_why_worker_died": (
            "运行这本笔记本的进程在这一格被终止了，之后的题没有计分",
            "the process running your notebook was stopped in that cell, so later tasks were not graded",
        ),
        "fb_why_cells_changed": (
            "发下去的格子被改动、删除或挪了位置；批改照常进行，老师会看这些格子",
            "cells of the handed-out notebook were changed, deleted or moved; grading went on, and your teacher will look at them",
        ),
        "fb_why_unreadable": (
            "这个文件读不出一本笔记本（不是 .ipynb，或者保存时损坏了），没有批改：确认它在 JupyterLab 里能打开，再交一次",
            "the file could not be read as a notebook (not an .ipynb, or damaged when saved), so it was not graded: "
            "check that it opens in JupyterLab and hand it in again",
        ),
        "fb_why_too_large": (
            "笔记本文件太大，没有运行，也没有计分（上限：整个文件 {file_limit}；去掉保存的输出后 {kept_limit}）：清除所有输出、删掉贴进去的大图片，保存后再交一次",
            "the notebook file is too large, so it was not run or graded (the limits: {file_limit} for the file, "
            "{kept_limit} without its saved outputs): clear all outputs, remove large pasted pictures, save and hand "
            "it in again",
        ),
        "fb_why_no_student_id": (
            "学号格没有填，新数据没有按你的学号生成",
            "the ID cell was left empty, so the fresh data were not drawn from your number",
        ),
        "fb_why_late": ("按老师定的迟交规则计分", "marked by your teacher's rule for late work"),
        "fb_notes": ("批改时注意到", "What the grader noticed"),
        "fb_task": ("题号", "Task"),
        "fb_task_title": ("题目", "Title"),
        "fb_points": ("得分", "Points"),
        "fb_hint": ("检查结果与提示", "Check and hint"),
        "fb_footer": (
            "这页只说哪里对、哪里错、为什么，不给答案：提示就是笔记本里 check(...) 会说的话；按你自己前一题的答案算对的题，笔记本里仍是 ❌（先改好前一题），这里照样计分。",
            "This page says what is right, what is wrong and why, never the answer: each hint is what check(...) says in the notebook; a task right for your own earlier answer is still ❌ there (fix the earlier task first), and counts here.",
        ),
        # ---- attn-release and attn-student
        "rel_written": ("发给学生的文件夹：{folder}", "for the students, the folder: {folder}"),
        "rel_zip": ("以及压缩包：{zip}", "and the zip: {zip}"),
        "rel_manifest": (
            "留给自己（批改时用 --release {folder}）：{manifest}",
            "keep for yourself (grade with --release {folder}): {manifest}",
        ),
        "rel_exists": (
            "{folder} 已经存在：换一个 --name，或加 --force 覆盖",
            "{folder} exists: choose another --name, or --force",
        ),
        "rel_missing": (
            "{folder} 里没有 {names}：请在仓库文件夹里运行，或用 --notebooks 指明",
            "{folder}: no {names} (run this in the repository's folder, or give --notebooks)",
        ),
        "rel_no_exercise": ("没有练习 {name}（已有：{names}）", "no exercise {name} (exercises: {names})"),
        "rel_exercises": ("发出的练习：{names}", "exercises handed out: {names}"),
        "rel_readme_per_student": (
            "\n\n**学号**：每个练习的第二个代码格要你写上学号，新数据按学号生成，和同学的不一样。先填学号，再做题。",
            "\n\n**Student number**: the second code cell of each exercise asks for your student number; the fresh data are drawn from it, different from your classmates'. Fill it in first.",
        ),
        "rel_readme": (
            "# 自注意力 · 课程与练习\n\n"
            "老师发给你的这个文件夹里有课程笔记本（`notebooks/`）和练习（`notebooks/exercises/`）。"
            "下面的命令都在这个文件夹（README.md 所在的文件夹）里的终端运行。\n\n"
            "## 装好环境（只需一次）\n\n"
            "需要 Python ≥ 3.10。\n\n"
            "**Windows**（命令提示符或 PowerShell；提示找不到 `python` 时，把第一条里的 `python` 换成 `py`）：\n\n"
            "```\n"
            "python -m venv .venv\n"
            ".venv\\Scripts\\python -m pip install -r requirements.txt\n"
            "```\n\n"
            "**macOS / Linux**：\n\n"
            "```bash\n"
            "python3 -m venv .venv\n"
            ".venv/bin/python -m pip install -r requirements.txt\n"
            "```\n\n"
            "## 打开课程（每次）\n\n"
            "**Windows**：\n\n"
            "```\n"
            ".venv\\Scripts\\python -m jupyter lab notebooks --LabApp.app_settings_dir=jupyterlab-settings\\zh\n"
            "```\n\n"
            "**macOS / Linux**：\n\n"
            "```bash\n"
            ".venv/bin/python -m jupyter lab notebooks --LabApp.app_settings_dir=jupyterlab-settings/zh\n"
            "```\n\n"
            "JupyterLab 在浏览器里打开，菜单是中文：`--LabApp.app_settings_dir=jupyterlab-settings/zh` 只为这次启动把界面语言设成中文，"
            "不改你自己的 JupyterLab 设置（想换语言：菜单「设置 → 语言」）。用完在终端里连按两次 Ctrl+C 关掉它。\n\n"
            "先打开 `00_setup_check.ipynb`：它检查环境，并告诉你哪里需要修。\n\n"
            "## 内容\n\n"
            "{contents}\n\n"
            "## 做练习\n\n"
            '每道题：先运行“数据”格子，在答案格子里把 `...` 换成你的代码并运行，再运行下面那一行 `check("…")`：'
            "✅ 正确；❌ 哪里错、为什么；⏳ 还没作答。它不会告诉你答案。{per_student}\n\n"
            "做完后保存笔记本，按老师的要求上交 `notebooks/exercises/` 里的 `.ipynb` 文件（不要改文件名）。\n",
            "# Self-attention · lessons and exercises\n\n"
            "This folder from your teacher holds the lesson notebooks (`notebooks/`) and the exercises (`notebooks/exercises/`). "
            "Run the commands below in a terminal in this folder (the one holding this README.md).\n\n"
            "## Set up (once)\n\n"
            "You need Python ≥ 3.10.\n\n"
            "**Windows** (Command Prompt or PowerShell; if `python` is not found, write `py` instead in the first command):\n\n"
            "```\n"
            "python -m venv .venv\n"
            ".venv\\Scripts\\python -m pip install -r requirements.txt\n"
            "```\n\n"
            "**macOS / Linux**:\n\n"
            "```bash\n"
            "python3 -m venv .venv\n"
            ".venv/bin/python -m pip install -r requirements.txt\n"
            "```\n\n"
            "## Open the course (each time)\n\n"
            "**Windows**:\n\n"
            "```\n"
            ".venv\\Scripts\\python -m jupyter lab notebooks --LabApp.app_settings_dir=jupyterlab-settings\\en\n"
            "```\n\n"
            "**macOS / Linux**:\n\n"
            "```bash\n"
            ".venv/bin/python -m jupyter lab notebooks --LabApp.app_settings_dir=jupyterlab-settings/en\n"
            "```\n\n"
            "JupyterLab opens in your browser with English menus: `--LabApp.app_settings_dir=jupyterlab-settings/en` sets the "
            "language for this launch only and never changes your own JupyterLab settings (to switch: Settings → Language). "
            "When you are done, press Ctrl+C twice in the terminal to stop it.\n\n"
            "Start with `00_setup_check.ipynb`: it checks your setup and says what to fix.\n\n"
            "## Contents\n\n"
            "{contents}\n\n"
            "## The exercises\n\n"
            "For each task: run its data cell, replace `...` in the answer cell with your code and run it, then run the one-line "
            '`check("…")` below it: ✅ correct; ❌ what is wrong and why; ⏳ not answered yet. It never shows the answer.{per_student}\n\n'
            "When you are done, save the notebook and hand in the `.ipynb` files of `notebooks/exercises/` as your teacher asks (keep their file names).\n",
        ),
        "rel_req_header": (
            "# 课程用到的 Python 包。安装：按 README.md「装好环境」里的命令（python -m pip install -r requirements.txt）",
            "# The Python packages of the course. To install them, follow README.md, Set up (python -m pip install -r requirements.txt)",
        ),
        "rel_req_anywidget": ("让读屏软件读出探索器控件的名字", "names the explorers' controls for screen readers"),
        "rel_req_language_pack": (
            "JupyterLab 的中文界面（README.md 里打开课程的命令会用到；菜单「设置 → 语言」可以切换）",
            "JupyterLab's menus in Chinese, if you want them (Settings → Language)",
        ),
        "rel_req_attn_core": (
            "这个文件夹里的三个包：attn_core（笔记本里的数字）、attn_viz（图和探索器）、attn_homework（check()）",
            "the three packages in this folder: attn_core (the notebooks' numbers), attn_viz (pictures and explorers), attn_homework (check())",
        ),
        "unknown_task_in_notebook": (
            "第 {cell} 格调用了 {call}，但没有编号为 {task_id} 的题目（已有：{ids}）：先在 attn_homework/exercises.py 里登记这道题，见 CONTRIBUTING.md 的“加一道题”。",
            'cell {cell} calls {call}, but there is no task {task_id} (tasks: {ids}): register the task in attn_homework/exercises.py first (CONTRIBUTING.md, "A task").',
        ),
    }
)
