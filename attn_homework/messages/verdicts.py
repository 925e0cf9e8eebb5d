"""The checker's verdicts, what the axes and one entry of each step mean, how a place in a matrix is named, and the lines ``check()`` and ``progress()`` print.

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
    # ---------------------------------------------------------------- the checker's verdicts
    "ok": ("{sym} 正确！形状 {shape}，每个数都对。", "{sym} is correct: shape {shape}, every number right."),
    "ok_number": ("{sym} 预测对了！", "{sym}: right prediction!"),
    "not_attempted_var": (
        "还没作答：把 ... 换成你的答案（{var}），再运行这一格。",
        "Not answered yet: replace ... with your answer ({var}) and run this cell again.",
    ),
    "not_attempted_function": (
        "还没作答：把 ... 换成你修好的函数（def {var}(...): ...），再运行这一格。",
        "Not answered yet: replace ... with your fixed function (def {var}(...): ...) and run this cell again.",
    ),
    "not_attempted_prediction": (
        "还没作答：把 ... 换成你的预测（{var}，一个数），再运行这一格。",
        "Not answered yet: replace ... with your prediction ({var}, one number) and run this cell again.",
    ),
    "not_attempted": (
        "还没作答：把 ... 换成你的答案（{sym}），再运行这一格。",
        "Not answered yet: replace ... with your {sym} and run this cell again.",
    ),
    "is_none": (
        "{sym} 是 None，不是{kind}：通常是函数最后忘了写 return，或者把 print(...) 之类不返回结果的调用赋给了变量。",
        "{sym} is None, not {kind}: usually a function that ends without return, or a variable assigned "
        "the result of a call that returns nothing, such as print(...).",
    ),
    "bad_task": (
        "这道题的设置出了问题：{e}。如果你在这个 Jupyter 内核里改过 numpy 或课程的函数（比如给 numpy.exp 赋了值），"
        "先重启内核（Kernel → Restart）再从头运行；否则请把这一行告诉老师。",
        "This exercise could not be set up: {e}. If you changed numpy or the course's functions in this Jupyter kernel "
        "(assigned to numpy.exp, say), restart the kernel (Kernel → Restart) and run from the top; otherwise "
        "please show this line to your teacher.",
    ),
    "checker_error": (
        "检查程序出错了：{e}。如果你在这个 Jupyter 内核里改过 numpy 或课程的函数，先重启内核（Kernel → Restart）再从头"
        "运行；否则请告诉老师。",
        "The checker failed: {e}. If you changed numpy or the course's functions in this Jupyter kernel, restart the "
        "kernel (Kernel → Restart) and run from the top; otherwise please tell your teacher.",
    ),
    "wrong_type": ("{sym} 应当是{kind}，你给的是 {got}。{hint}", "{sym} must be {kind}; you gave {got}. {hint}"),
    "kind_numbers": (
        "数字数组（numpy 数组，或每行一样长的嵌套列表）",
        "an array of numbers (a numpy array, or nested lists with rows of equal length)",
    ),
    "kind_boolean": ("布尔数组（True / False）", "a boolean array (True / False)"),
    "kind_number": ("一个数（整数或小数）", "one number (an int or a float)"),
    "kind_numbers_real": ("实数数组", "an array of real numbers"),
    "kind_number_real": ("一个实数（整数或小数）", "one real number (an int or a float)"),
    "complex_not_real": (
        "复数不行，虚部是 0 也不行：numpy 把它们当作复数，而这里要的是实数。",
        "Complex numbers are not accepted, even with an imaginary part of 0: numpy keeps them complex, and real "
        "numbers are asked for here.",
    ),
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
        "创建时写 dtype=bool（True 表示可以看）。",
        "Create it with dtype=bool (True where a position may be seen).",
    ),
    "mask_type_01": (
        "这是 0/1 数组：如果 1 表示可以看，用 M.astype(bool) 或 M == 1 得到布尔掩码（或创建时就写 dtype=bool）。",
        'This is a 0/1 array: if 1 means "may be seen", M.astype(bool) or M == 1 gives the boolean mask '
        "(or create it with dtype=bool).",
    ),
    "mask_type_additive": (
        "这是加性掩码（可以看的位置为 0，其余为 −∞ 或很大的负数，加到分数上）；这道题要布尔掩码：M == 0（True 表示可以看）。"
        "不要用 .astype(bool)：它把 −∞ 变成 True，掩码就反了。",
        "This is an additive mask (0 where a position may be seen, −∞ or a large negative number elsewhere, "
        "added to the scores); this task asks for a boolean one: M == 0 (True where a position may be seen). "
        "Not .astype(bool): that turns −∞ into True, an inverted mask.",
    ),
    "prediction_out_of_range": (
        "{sym} 不在可选的范围里：这里的编号从 0 数起，只有 0 到 {last}。",
        "{sym} is outside the valid range: the numbering here counts from 0, from 0 to {last} only.",
    ),
    "prediction_after_the_query": (
        "{sym} 不在可选的范围里：这个头带因果掩码，查询只能看到它自己和它前面的位置，也就是 0 到 {last}；"
        "比它晚的词元它看不到，不会分到权重。",
        "{sym} is outside the valid range: this head is causal, so the query sees only itself and the positions "
        "before it, 0 to {last}; it cannot see a later token, which gets no weight.",
    ),
    "prediction_not_whole": (
        "{sym} = {got} 不是整数：这里要预测的是一个数目（或一个位置），只能是整数，写下你认为的那个整数。",
        "{sym} = {got} is not a whole number: what you predict here is a count (or a position), so it is a whole "
        "number; write down the whole number you expect.",
    ),
    "prediction_not_finite": (
        "{sym} = {got} 不是一个预测：想一想会得到哪个有限的数（整数或小数），把它写下来。",
        "{sym} = {got} is not a prediction: work out which finite number (an int or a float) it will be, and "
        "write that down.",
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
        "层归一化的结果不会有 NaN：NaN 来自 0/0，比如一行的数全都相等、方差为 0 时又没有加 ε。",
        "LayerNorm gives no NaN: NaN comes from 0/0, e.g. a row whose numbers are all equal (variance 0) "
        "divided without ε.",
    ),
    "overflow_zeroed": (
        "每个权重都是 0，可 softmax 的每一行加起来应是 1。这些分数很大：不先减去行最大值，e^1000 会溢出成 ∞，"
        "再用 np.nan_to_num 修补正好得到全 0。如果你是这样做的，先从每一行减去这一行的最大值再取 exp；"
        "如果不是，找一找是哪一步把权重变成了 0。",
        "Every weight is 0, yet each row of softmax weights adds up to 1. These scores are large: without the "
        "row maximum subtracted, e^1000 overflows to ∞, and np.nan_to_num turns the result into exactly all "
        "zeros. If that is what you did, subtract each row's maximum before exp; if not, look for the step that "
        "turned the weights into 0.",
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
        "{sym} 的{row}整行都是 NaN：在你用的掩码下，这个位置一个键也看不到（这一行的分数全是 −∞），"
        "softmax 只能算 0/0。第 7 课讲过：每个位置至少要能看到一个键，因果掩码要保留对角线（自己）。"
        "检查你的掩码。",
        "{row} of {sym} is NaN throughout: with the mask you used, that position sees no key at all (every "
        "score of the row is −∞) and softmax computes 0/0. As lesson 7 shows, each position must see at "
        "least one key; a causal mask keeps the diagonal (the position itself). Check your mask.",
    ),
    "empty_row_column_max": (
        "{sym} 的{row}整行都是 NaN，可是按这道题的掩码，这个位置能看到键：减去的最大值是沿列取的。"
        "被挡住的键那一列全是 −∞，它的“最大值”也是 −∞，−∞ − (−∞) 得到 NaN，再经过求和传到整行。"
        "每一行要减去它自己这一行的最大值。",
        "{row} of {sym} is NaN throughout, yet under this task's mask that position does see keys: the maximum "
        'you subtracted was taken down the columns. The blocked key\'s column is all −∞, so its "maximum" is −∞ '
        "too, −∞ − (−∞) is NaN, and the sum carries it into the whole row. Each row must subtract its own maximum.",
    ),
    "mask_inf_or_nan_fill": (
        "{sym} 的{row}整行都是 NaN：被挡住的分数填成了 NaN 或 +∞，而不是 −∞。填 +∞ 时，softmax 里会算出 ∞ − ∞（减去最大值时）"
        "或 ∞/∞（不减时），都得到 NaN；NaN 参与的运算结果都是 NaN，一行里只要有一个 NaN，这一行的总和就是 NaN。"
        "被挡住的位置要填 −∞：np.where(keep, S, -np.inf)，keep 在能看到的键上为 True。",
        "{row} of {sym} is NaN throughout: the blocked scores were filled with NaN or +∞, not −∞. With +∞, softmax "
        "meets ∞ − ∞ (the maximum subtracted) or ∞/∞ (not subtracted), both NaN; anything computed with NaN is "
        "NaN, so one NaN in a row makes that row's sum NaN. Fill the blocked positions with −∞: "
        "np.where(keep, S, -np.inf), keep being True where a key may be seen.",
    ),
    "mask_zero_times_inf": (
        "{sym} 的{row}整行都是 NaN：掩码是用 0/1 乘以 −∞ 做的，而 0·(−∞) = NaN，于是保留下来的位置（乘的是 0）"
        "成了 NaN。要用 np.where 选：np.where(keep, S, -np.inf)（keep 在能看到的键上为 True），不要用乘法。",
        "{row} of {sym} is NaN throughout: the mask was made by multiplying 0/1 by −∞, and 0·(−∞) = NaN, so "
        "the kept positions (multiplied by 0) became NaN. Choose with np.where instead: np.where(keep, S, "
        "-np.inf), keep being True where a key may be seen, not a product.",
    ),
    "empty_every_row": (
        "{sym} 每一行都是 NaN，可是按这道题的掩码，每个查询都能看到一些键。常见的原因：被挡住的位置填了 +∞"
        "（应该填 −∞：填 +∞ 时，被挡住的分数反而最大，softmax 里会算出 ∞ − ∞，得到 NaN）；或者掩码挡住了所有的键"
        "（比如整个掩码变成了一个 True 或 False：看看你传进去的掩码的形状和值）{also}。",
        "Every row of {sym} is NaN, yet under this task's mask every query sees some keys. The usual causes: "
        "the blocked entries filled with +∞ (they must be −∞: with +∞ the blocked scores become the "
        "largest, and ∞ − ∞ is NaN in softmax), or a mask that blocks every key (for instance one turned "
        "into a single True/False: look at the shape and values of the mask you pass){also}.",
    ),
    "empty_every_row_column_max": (
        "；减去的最大值是沿列取的（被挡住的那一列全是 −∞）也会这样",
        "; a maximum taken down the columns (the blocked key's column is all −∞) gives it too",
    ),
    "mask_inf_or_nan_fill_also": (  # +∞ is the empty-every-row message's own first cause
        "；把被挡住的分数填成 NaN（而不是 −∞）也会这样",
        "; blocked scores filled with NaN (not −∞) give it too",
    ),
    "mask_zero_times_inf_also": (
        "；用 0/1 的掩码乘以 −∞ 也会这样：0·(−∞) = NaN，保留下来的位置成了 NaN（要用 np.where 选，不要用乘法）",
        "; a 0/1 mask multiplied by −∞ gives it too: 0·(−∞) = NaN on the kept positions (choose with np.where, "
        "not a product)",
    ),
    "empty_row_any_mask": (
        "{sym} 的{row}整行都是 NaN：在你用的掩码下，这个位置一个键也看不到（这一行的分数全是 −∞），"
        "softmax 只能算 0/0。每个位置至少要能看到一个键：检查你的掩码挡住的是哪些键（列）。",
        "{row} of {sym} is NaN throughout: with the mask you used, that position sees no key at all (every "
        "score of the row is −∞) and softmax computes 0/0. Each position must see at least one key: check "
        "which keys (columns) your mask hides.",
    ),
    "int_dtype": (
        "{sym} 的 dtype 是 {dtype}，只能存整数，小数部分被截掉了：通常是先用 np.zeros(..., dtype=int) "
        "或整数数组建好再往里填。建成浮点数组（不写 dtype=int），或者一个表达式直接算出来。",
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
        "每个数都是正确值四舍五入到 {decimals} 位小数的结果。检查允许每个数最多差约 {tolerance}，而四舍五入到 "
        "{decimals} 位小数会让一个数变动多达 {change}，超出了这个误差：别在答案里取整（np.round 只用来打印）。",
        "Every number is the right one rounded to {decimals} decimals. The check allows each number to be off by "
        "about {tolerance} at most, and rounding to {decimals} decimals moves a number by up to {change}, beyond "
        "that: do not round the answer (np.round is for printing).",
    ),
    "almost_rounded_within": (
        "每个数都是正确值四舍五入到 {decimals} 位小数的结果。这些数碰巧还在检查允许的误差之内，但换一组数就不一定了："
        "别在答案里取整（np.round 只用来打印）。",
        "Every number is the right one rounded to {decimals} decimals. With these numbers that happens to stay "
        "within the check's tolerance, but with others it would not: do not round the answer (np.round is for "
        "printing).",
    ),
    "almost_rounded_whole": (
        "每个数都是正确值四舍五入到整数的结果。检查允许每个数最多差约 {tolerance}，而取整会让一个数变动多达半个单位，"
        "超出了这个误差：别在答案里取整（np.round 只用来打印）。",
        "Every number is the right one rounded to a whole number. The check allows each number to be off by about "
        "{tolerance} at most, and rounding to whole numbers moves a number by up to half a unit, beyond that: do "
        "not round the answer (np.round is for printing).",
    ),
    "almost_rounded_one": (
        "每个数都是正确值四舍五入到 1 位小数的结果。检查允许每个数最多差约 {tolerance}，而四舍五入到 1 位小数"
        "会让一个数变动多达 {change}，超出了这个误差：别在答案里取整（np.round 只用来打印）。",
        "Every number is the right one rounded to 1 decimal. The check allows each number to be off by about "
        "{tolerance} at most, and rounding to 1 decimal moves a number by up to {change}, beyond that: do not "
        "round the answer (np.round is for printing).",
    ),
    "almost_float16": (
        "非常接近了，但 {sym} 是 float16：它只有大约 3 位有效数字，不够精确。保留 float64（或 float32）。",
        "Very close, but {sym} is float16, which keeps only about 3 significant digits: too coarse. "
        "Keep float64 (or float32).",
    ),
    "almost_finite_mask": (
        "非常接近了，但被掩码挡住的位置权重不是 0，而是很小的正数：被挡住的分数看来填成了一个有限的数{about}，"
        "而不是 −∞。exp 一个有限的数永远不是 0，所以被挡住的键还留着一点权重；这个数离其他分数越近，留下的越多。"
        "被挡住的分数要填 −∞，softmax 之后它的权重才恰好是 0。",
        "Very close, but the weights the mask blocks are not 0, only small: the blocked scores seem to have been "
        "set to a finite number{about} instead of −∞. exp of a finite number is never 0, so a blocked "
        "key keeps a little weight, the more the closer that number is to the other scores. A blocked score "
        "must be −∞ for its weight after softmax to be exactly 0.",
    ),
    "fill_about": ("（约 {value}）", " (about {value})"),
    "finite_mask_fill": (
        "被掩码挡住的分数看来填成了一个有限的数{about}，而不是 −∞。exp 一个有限的数永远不是 0，所以被挡住的键"
        "还留着权重；这个数离其他分数越近，留下的越多。被挡住的分数要填 −∞，softmax 之后它的权重才恰好是 0。",
        "The blocked scores seem to have been set to a finite number{about} instead of −∞. exp of a finite "
        "number is never 0, so a blocked key keeps some weight, the more the closer that number is to the other "
        "scores. A blocked score must be −∞ for its weight after softmax to be exactly 0.",
    ),
    "almost_blocked_not_zero": (
        "非常接近了，但被掩码挡住的位置权重不是 0：例如 {where} 是 {value}。这不是取整造成的。被挡住的分数要是 −∞"
        "（不是一个有限的负数，也不是加上一个有限的负数），softmax 之后它的权重才恰好是 0。",
        "Very close, but a weight the mask blocks is not 0: {where} is {value}, for example. That is not rounding. "
        "A blocked score must be −∞ (not a finite negative number, nor one added to the score) for its weight "
        "after softmax to be exactly 0.",
    ),
    "almost_near": (
        "非常接近了：每个数与正确值相差都不到 0.1%，但并不相等。常见的原因：中间有数被取整了，换成了精度较低的类型，"
        "或者某一步多加了一个很小的数（比如 softmax 分母里的 ε）。",
        "Very close: every number is within 0.1 % of the right one, but not equal. The usual causes: something "
        "rounded on the way, converted to a lower precision, or a small number added in a step (an ε in softmax's "
        "denominator, say).",
    ),
    "almost_rows_scaled": (
        "非常接近了，但这不是取整造成的：你的每一行都正好是正确的那一行乘以一个接近 1 的数，而且各行乘的数不同。"
        "softmax 的分母是不是多加了一点什么，比如 + ε？分母就是这一行所有 exp 的和，不用再加别的。",
        "Very close, but not because of rounding: each of your rows is exactly the right row times a number near 1, "
        "a different number for each row. Was something added to softmax's denominator, such as + ε? The "
        "denominator is the sum of the row's exps, nothing more.",
    ),
    "almost_rows_low_precision": (
        "非常接近了：你的每一行都正好是正确的那一行乘以一个接近 1 的数，而且各行乘的数不同。每一行的分母看来换成了"
        "精度较低的类型（如 float16 或 float32），取整后变了一点。分母就是这一行所有 exp 的和，保留 float64，不要转换类型。",
        "Very close: each of your rows is exactly the right row times a number near 1, a different number for each "
        "row. Each row's denominator looks converted to a lower precision (float16 or float32, say) and rounded on "
        "the way. The denominator is the sum of the row's exps: keep it float64, with no conversion.",
    ),
    "almost_near_masked": (
        "非常接近了：每个数与正确值相差都不到 0.1%，但并不相等。被挡住的分数是不是填成了一个有限的负数，而不是 −∞？"
        "那样被挡住的键还会留下一点权重。也可能是中间有数被取整了，或者换成了精度较低的类型。",
        "Very close: every number is within 0.1 % of the right one, but not equal. Were the blocked scores set to a "
        "finite negative number instead of −∞? Then a blocked key keeps a little weight. Or something was rounded "
        "on the way, or converted to a lower precision.",
    ),
    "hint_reversed_axes": (
        "你的形状正好是要求的形状倒过来：对有三个或更多轴的数组，.T 会把所有轴的顺序都倒过来（三个轴时等于 "
        ".transpose(2, 1, 0)），不只是交换最后两个轴。只交换最后两个轴要写 np.swapaxes(x, -1, -2)"
        "（三个轴时也可以写 .transpose(0, 2, 1)）。",
        "Your shape is the one asked for in reverse: on an array with three or more axes, .T reverses the order "
        "of every axis (with three axes it is .transpose(2, 1, 0)), not only the last two. To swap only the "
        "last two, write np.swapaxes(x, -1, -2) (with three axes also .transpose(0, 2, 1)).",
    ),
    "wrong_shape": (
        "{sym} 的形状应为 {expected}（{axes}），你的是 {got}。{hint}",
        "{sym} should have shape {expected} ({axes}); yours is {got}. {hint}",
    ),
    "fewer_axes": (
        "你的答案少了轴：要的是 {want} 个轴的数组，你的只有 {have} 个（是不是只算了其中一块、一行或一个数？）。",
        "Your answer has too few axes: an array with {want} axes is asked for, yours has {have} (only one block, "
        "one row or one number computed?).",
    ),
    "more_axes": (
        "你的答案多了轴：要的是 {want} 个轴的数组，你的有 {have} 个。检查是否多套了一层方括号，或多留了一个长度为 1 的轴。",
        "Your answer has extra axes: an array with {want} axes is asked for, yours has {have}. Look for extra "
        "brackets or a leftover axis of length 1.",
    ),
    "hint_fewer_rows": (
        "你的只有 {length} 行，要的是 {wanted} 行：少了几行。是不是某个切片（例如 [:{length}]）或范围少取了几行？",
        "Yours has {length} rows where {wanted} are asked: some rows are left out. Does a slice (such as "
        "[:{length}]) or a range stop early?",
    ),
    "hint_fewer_columns": (
        "你的只有 {length} 列，要的是 {wanted} 列：少了几列。是不是某个切片或范围少取了几列？",
        "Yours has {length} columns where {wanted} are asked: some columns are left out. Does a slice or a range "
        "stop early?",
    ),
    "hint_fewer_columns_as_wide": (
        "你的只有 {length} 列，要的是 {wanted} 列；{length} 正好是 {names} 的列数。是不是多乘了一个矩阵，或者乘错了矩阵"
        "（乘积的列数来自右边那个矩阵）？也可能是某个切片或范围少取了几列。",
        "Yours has {length} columns where {wanted} are asked, and {length} is the width of {names}. Is there an "
        "extra matrix product, or a product by the wrong matrix (a product is as wide as its right-hand matrix)? "
        "Or does a slice or a range stop early?",
    ),
    "hint_fewer_columns_unsliced": (
        "你的只有 {length} 列，要的是 {wanted} 列。可能是多了或少了一次矩阵乘法，或者乘错了矩阵（乘积的列数来自右边那个矩阵），"
        "也可能是某个切片或范围少取了几列。在纸上写出每一步的形状：(a × b) 乘 (b × c) 得 (a × c)。",
        "Yours has {length} columns where {wanted} are asked. A matrix product may be extra or missing, or by the "
        "wrong matrix (a product is as wide as its right-hand matrix); or a slice or a range may stop early. Write "
        "down the shape of each step: (a × b) times (b × c) gives (a × c).",
    ),
    "hint_fewer_rows_unsliced": (
        "你的只有 {length} 行，要的是 {wanted} 行。可能是多了或少了一次矩阵乘法，或者乘错了矩阵（乘积的行数来自左边那个矩阵），"
        "也可能是某个切片或范围少取了几行。在纸上写出每一步的形状：(a × b) 乘 (b × c) 得 (a × c)。",
        "Yours has {length} rows where {wanted} are asked. A matrix product may be extra or missing, or by the "
        "wrong matrix (a product has as many rows as its left-hand matrix); or a slice or a range may stop early. "
        "Write down the shape of each step: (a × b) times (b × c) gives (a × c).",
    ),
    "division_before_product": (
        "另外注意：@ 和 /、* 一样，从左往右算：a / b @ c 是 (a / b) @ c，不是 a / (b @ c)。要先算乘积，就加上括号。",
        " Note: @ binds as tightly as / and *, from left to right: a / b @ c is (a / b) @ c, not a / (b @ c). "
        "For the product first, add brackets.",
    ),
    "hint_fewer_entries": (
        "你的只有 {length} 个数，要的是 {wanted} 个：少了几个。是不是某个切片或范围少取了？",
        "Yours has {length} numbers where {wanted} are asked: some are left out. Does a slice or a range stop early?",
    ),
    "hint_shorter_axis": (
        "你的第 {axis} 个轴（从 0 数起）只有 {length} 个，要的是 {wanted} 个：这个轴上少了几块。是不是某个切片或范围少取了？",
        "Your axis {axis} (counting from 0) has {length} where {wanted} are asked: some are left out along it. "
        "Does a slice or a range stop early?",
    ),
    "hint_axes_permuted": (
        "你的形状是要求的那些轴换了顺序：对照每一次 transpose、swapaxes 或 reshape 之后各轴的顺序。",
        "Your shape has the axes asked for in another order: check the order of the axes after each "
        "transpose, swapaxes or reshape.",
    ),
    "shape": (
        "在纸上写出每一次矩阵乘法的形状：(a × b) 乘 (b × c) 得 (a × c)。",
        "Write down the shape of each matrix product on paper: (a × b) times (b × c) gives (a × c).",
    ),
    "shape_reduced": (
        "对一行求和或取最大值会去掉这个轴；keepdims=True 把它保留为长度 1：每个查询行一个数，(n_q, 1)。",
        "A sum or a maximum over a row removes that axis; keepdims=True keeps it with length 1: one number per "
        "query row, (n_q, 1).",
    ),
    "shape_table": (
        "每个位置一行、每个特征一列：先写出位置（一列）和频率（一行）的形状，再看它们广播成什么形状。",
        "One row per position, one column per feature: write down the shapes of the positions (a column) and "
        "of the frequencies (a row), and what they broadcast to.",
    ),
    "shape_elementwise": (
        "这一步逐元素计算（没有矩阵乘法），结果和输入的形状一样。",
        "This step works entry by entry (no matrix product): the result has the shape of its input.",
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
    "offset_above": ("多出同一个数", "the same amount above"),
    "offset_below": ("少了同一个数", "the same amount below"),
    "an_offset": (
        "{sym} 的形状对了，但每个数都正好比正确值{shift}（处处相差一样多）：像是在某一步给所有数加了或减了同一个数。"
        "看看这一格里，除了这道题要求的运算，是不是还加了或减了什么。",
        "{sym} has the right shape, and every number is exactly {shift} the right one (the same difference "
        "everywhere): as if one number were added to or subtracted from all of them at some step. Check whether "
        "this cell adds or subtracts anything besides what the task asks for.",
    ),
    "a_multiple_plain": (
        "{sym} 的形状对了，每个数都正好是正确值的同一个倍数：差一个共同的因子。"
        "看看这一格里，除了这道题要求的运算，是不是还乘了或除了什么，或者乘、除的数不对（比如根号下面的数）。",
        "{sym} has the right shape, and every number is exactly the same multiple of the right one (the same "
        "ratio everywhere): they differ by one common factor. Check whether this cell multiplies or divides by "
        "anything besides what the task asks for, or by the wrong number (the one under a root, say).",
    ),
    "a_multiple": (
        "{sym} 的形状对了，每个数都正好是正确值的 {factor} 倍：差一个共同的因子。"
        "看看这一格里，除了这道题要求的运算，是不是还乘了或除了什么，或者乘、除的数不对（比如根号下面的数）。",
        "{sym} has the right shape, and every number is exactly {factor} times the right one (the same ratio "
        "everywhere): they differ by one common factor. Check whether this cell multiplies or divides by "
        "anything besides what the task asks for, or by the wrong number (the one under a root, say).",
    ),
    "wrong_values": (
        "{sym} 的形状对了，但有的数不对，差得最多的在 {where}。{entry}",
        "{sym} has the right shape but some numbers are off, most at {where}. {entry}",
    ),
    # ---------------------------------------------------------------- what the axes and one entry of a step mean
    "axes_XW": ("n × d：每行对应一个词", "n × d: one row per word"),
    "axes_S": ("n_q × n_k：行 = 查询，列 = 键", "n_q × n_k: rows = queries, columns = keys"),
    "axes_O": ("n_q × d_v：行 = 查询，列 = 值的特征", "n_q × d_v: rows = queries, columns = value features"),
    "axes_number": ("一个数", "one number"),
    "axes_stacked": ("前面多一个轴，其中每一块都是 {axes}", "one more axis in front; each block along it is {axes}"),
    "axes_heads": (
        "h × n × d_head：每个头一块，行 = 位置，列 = 这个头的特征",
        "h × n × d_head: one block per head, rows = positions, columns = that head's features",
    ),
    "axes_merged": (
        "n × (h × d_head)：行 = 位置，先是头 0 的列，再是头 1 的列……",
        "n × (h × d_head): rows = positions, head 0's columns first, then head 1's, …",
    ),
    "axes_running": ("n_q × 1：每个查询行一个数", "n_q × 1: one number per query row"),
    "axes_dV": ("n_k × d_v：和 V 一样", "n_k × d_v: the shape of V"),
    "axes_dQ": ("n_q × d_k：和 Q 一样", "n_q × d_k: the shape of Q"),
    "axes_dK": ("n_k × d_k：和 K 一样", "n_k × d_k: the shape of K"),
    "axes_mask": (
        "n × n：行 = 提问的位置，列 = 可以看的位置",
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
        "第 {i} 行是位置 {i} 的输出：拆成多个头、每个头各做一次注意力、拼接，再乘以 W_O；逐步检查形状。",
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
        "这一行要用这一行的权重 A 和 dA 算：softmax 的雅可比矩阵逐行作用。",
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
        "第 {i} 行说明位置 {i} 可以看哪些位置：它自己和它之前的位置。",
        "Row {i} says which positions position {i} may attend to: itself and the ones before it.",
    ),
    # ---------------------------------------------------------------- places: "[2, 1]（第 2 行“学习”、第 1 列“喜欢”；从 0 数起）"
    "the_number": ("这个数", "the number"),
    "row": ("第 {i} 行", "row {i}"),
    "column": ("第 {j} 列", "column {j}"),
    "token": ("“{token}”", " “{token}”"),
    "place": ("[{index}]（{row}、{column}；从 0 数起）", "[{index}] ({row}, {column}; counting from 0)"),
    "of_head": ("，头 {h}", " of head {h}"),
    # ---------------------------------------------------------------- tasks, check() and progress()
    "no_task_near": (
        "没有编号为 {task_id!r} 的题目；练习 {ex} 的题目编号是 {ids}",
        "no task {task_id!r}; exercise {ex}'s tasks are {ids}",
    ),
    "no_task": ("没有编号为 {task_id!r} 的题目；已有的编号：{ids}", "no task {task_id!r}; the tasks are {ids}"),
    "no_exercise": (
        "没有名为 {exercise!r} 的练习；已有：{names}",
        "no exercise {exercise!r}; the exercises are {names}",
    ),
    "no_variable": (
        "还没有变量 {var}：运行上面的答案单元格（把 ... 换成你的答案）；如果已经运行过，检查变量名是不是正好写成 {var}。",
        "there is no variable {var} yet: run the answer cell above (replace ... with your answer); if you "
        "did, check that the variable is spelt {var}.",
    ),
    "no_variable_typo": (
        "还没有变量 {var}，但有一个 {close}：检查程序读取的变量名是 {var}，要一字不差。",
        "there is no variable {var}, but there is {close}: the check reads {var}, spelt exactly so.",
    ),
    "no_variable_failed": (
        "还没有变量 {var}：在这之前运行的那一格出错停下了，改好那里的错误，再运行一次。",
        "there is no variable {var}: the cell run just before this one stopped with an error; fix it and run it again.",
    ),
    "answer_cell_failed": (
        "在这之前运行的那一格出错停下了（{error}），所以 {var} 还是 ...：看那一格下面的报错，改好后再运行它，然后再检查。",
        "The cell run just before this one stopped with an error ({error}), so {var} is still ...: read the "
        "error under that cell, fix it, run it again, then check.",
    ),
    "right_before_cell_failed": (
        "在这之前运行的那一格出错停下了（{error}）：{var} 里还是出错之前的值。那个旧值是对的，但现在这一格算不出它："
        "改好那一格的错误，再运行它，然后再检查。",
        "The cell run just before this one stopped with an error ({error}): {var} still holds its value from "
        "before. That earlier value is right, but the cell as it is now does not compute it: fix that cell's error, "
        "run it again, then check.",
    ),
    "long_double": (
        "{var} 在这台电脑上算对了，只是因为 np.longdouble 在这里装得下 e^1000；在 Windows 上 np.longdouble 就是 float64，"
        "不减最大值的 softmax 在那里会溢出（得到 NaN）：先减去每行的最大值。",
        "{var} passes only because long double reaches e^1000 on this machine; on Windows long double is float64 "
        "and a softmax without the maximum subtracted overflows there (NaN): subtract the row maximum.",
    ),
    "shifted_by_another_number": (
        "{var} 的数对了，可你的代码从每行减去的是{what}，不是最大值。只要某一行的最大分数比减去的数高出约 709，"
        "exp 在 float64 里就会溢出成 inf；这组分数没有高出那么多，所以这里没溢出。"
        "减去每行的最大值，exp 的指数最大是 0，才不会溢出。",
        "{var} has the right numbers, but your code subtracts {what} from each row, not its maximum. As soon as a "
        "row's largest score lies more than about 709 above the number subtracted, exp overflows to inf in "
        "float64; these scores do not, so nothing overflowed here. Subtract each row's maximum: the largest "
        "exponent is then 0 and nothing can overflow.",
    ),
    "shift_min": ("每行的最小值", "the row's minimum"),
    "shift_mean": ("每行的均值（或中位数）", "the row's mean (or median)"),
    "shifts_not_read": (
        "另外，答案单元格里没有用到 shifts。题目要你对每个平移量各算一遍再比较；只算一次 (i, j) 的分数再重复 6 遍，"
        "数也会一样，但那样就没有比较。",
        " Note: your answer cell does not use shifts. If you computed the score at (i, j) once and repeated "
        "it 6 times, the numbers would be the same too — that is what the task asks you to find by computing "
        "each shift and comparing.",
    ),
    "cell_delegates": (
        "{var} 的数对了，但它是用现成的 {name} 算出来的（在答案单元格里，或在它取值的那个单元格里）。这些练习要你"
        "用 numpy 自己写出每一步，参考实现算出的结果不算你的答案；想对照，可以把参考结果打印出来看。"
        "用 numpy 重写算出 {var} 的代码，再检查。",
        "{var} has the right numbers, but it is computed with the ready-made {name} (in the answer cell, or in the "
        "cell it takes its value from): these exercises ask you to write each step yourself in numpy (as in the "
        "find-the-bug tasks, the checker cannot take the reference's result for your answer; to compare, print "
        "the reference's result: the answer must be your own numpy). Rewrite the code that computes {var} in "
        "numpy, then check.",
    ),
    "not_a_prediction": (
        "⏳ 题 {task_id} 不是预测题，没有要揭晓的答案：homework.predicted 只用于预测题。"
        '要检查题 {task_id}，运行 check("{task_id}")。',
        "⏳ Task {task_id} is not a predict task and has no answer to reveal: homework.predicted is only for "
        'predict tasks. To check task {task_id}, run check("{task_id}").',
    ),
    "prediction_delegates": (
        "{var} 是调用现成的 {name} 算出来的，这不是预测。预测题要的是你在看到答案之前自己想出的数（手算、心算都"
        "可以），所以这个数不算。把你预测的数直接写进 {var}，再检查。",
        "{var} was computed by calling the ready-made {name}, and that is not a prediction: a predict task asks "
        "for the number you expect before you see the answer (working it out by hand is fine). All the checker "
        "can see is that this cell calls {name}, so the number does not count. Write your own predicted number "
        "into {var}, then check.",
    ),
    "fixed_under_old_name": (
        "（你的 {old} 现在是对的：看来你是在它里面改的。把改好的函数命名为 {var}，def {var}(...)，再运行这一格。）",
        " (Your {old} is right now: it looks as if the fix was made in it. Name the fixed function {var}, "
        "def {var}(...), and run this cell again.)",
    ),
    "an_error": ("一个错误", "an error"),
    "stale_failed": (
        "（在这之前运行的那一格出错停下了：{error}。{var} 可能还是更早一次运行留下的值，下面说的是这个值，"
        "不一定是你刚改的代码：先改好错误，再运行一次。）",
        "(The cell run just before this one stopped with an error ({error}), so {var} may still hold a value "
        "from an earlier run; what follows is about that value, not necessarily about the code you just "
        "changed: fix the error and run it again.) ",
    ),
    "carried_forward_check": (
        "{var} 按你在 {earlier} 里自己算的 {earlier_var} 是对的，但 {earlier} 本身不对：先改好 {earlier}，再运行这一格。"
        "批改时这一题照样计分（一个错误只扣一次分）。",
        "{var} is right for your own {earlier_var} from {earlier}, which is wrong: fix {earlier} first, then run "
        "this cell again. Graded, this task would still get its points (error carried forward: one mistake costs "
        "marks only once).",
    ),
    "stale_unchanged": (
        "（{var} 和上次检查时完全一样：改了答案单元格之后运行过它吗？运行过的话，新写法算出的数和上次相同。）",
        "({var} is exactly as it was at your last check: did you run the answer cell after editing it? If "
        "you did, the new version gives the same numbers as the last one.) ",
    ),
    "predict_other_row_factor": (
        "如果这个数是从别的行读来的：题目问的是第 {row} 行（从 0 数起），换算因子只由这一行自己的旧最大值"
        "（S1 的第 {row} 行）和新最大值（再算上 S2 的第 {row} 行）决定，别的行最大值不同，因子也不同。"
        "先找出第 {row} 行的这两个最大值，再算。",
        "If this number was read off another row: the task asks about row {row} (counting from 0), and the factor "
        "depends only on that row's own old maximum (row {row} of S1) and its new maximum (with row {row} of S2 "
        "too); other rows have other maxima, so other factors. Find those two maxima of row {row} first, then "
        "work it out.",
    ),
    "several_reasons": (
        "这个数可以有不止一种来历。",
        "This number can come from more than one line of reasoning. ",
    ),
    "or_perhaps": ("或者：", " Or: "),
    "crossed_formula": (
        "{var} 算的是{what}；题 {task_id} 要的是{asked}。",
        "{var} holds {what}; task {task_id} asks for {asked}.",
    ),
    "crossed_data": (
        "而且用的是题 {other} 的数据：是不是沿用了那道题的变量？",
        " It is also computed from the data of task {other}: was a variable of that task reused?",
    ),
    "crossed_data_only": (
        "{var} 是用题 {other} 的数据算的，不是题 {task_id} 自己的数据：是不是沿用了那道题的变量？",
        "{var} is computed from the data of task {other}, not from task {task_id}'s own: was a variable of "
        "that task reused?",
    ),
    "crossed_other_data": (
        '{var} 不是用题 {task_id} 自己的数据算的：用这道题载入的数据（homework.data("{task_id}")）。',
        "{var} is not computed from task {task_id}'s own data: use the data this task loads "
        '(homework.data("{task_id}")).',
    ),
    "crossed_key_not_doubled": (
        "{var} 是原来那些键的权重：“语言”的键还没有放大到 2 倍。先把 K 里“语言”那一行乘以 2，再算权重。",
        "{var} holds the weights of the original keys: the key of 语言 is not doubled yet. Multiply the row of "
        "K for 语言 by 2 first, then compute the weights.",
    ),
    "crossed_wrong_weight": (
        "{var} 是 X 乘以 {used} 得到的，不是乘以 {w}：查询、键、值各有自己的权重矩阵，这道题要的是用 {w} 投影。",
        "{var} is X times {used}, not times {w}: queries, keys and values each have their own weight matrix, and "
        "this task asks for the projection by {w}.",
    ),
    "crossed_output_not_weights": (
        "{var} 是输出的行（权重再乘以 V），不是权重：这道题停在 softmax 之后，不乘 V。",
        "{var} holds output rows (the weights times V), not the weights: this task stops after softmax, "
        "before multiplying by V.",
    ),
    "formula_scores": ("未缩放的分数 QKᵀ", "the unscaled scores QKᵀ"),
    "formula_scaled_scores": ("缩放后的分数 QKᵀ/√d_k", "the scaled scores QKᵀ/√d_k"),
    "formula_softmax": ("分数的逐行 softmax", "the row-by-row softmax of the scores"),
    "formula_weights": ("注意力权重 A = softmax(QKᵀ/√d_k)", "the attention weights A = softmax(QKᵀ/√d_k)"),
    "formula_output": ("输出 O = A·V", "the output O = A·V"),
    "formula_grad_V": ("梯度 dV 的公式 Aᵀ·dO", "dV's formula, Aᵀ·dO"),
    "formula_grad_A": ("梯度 dA 的公式 dO·Vᵀ", "dA's formula, dO·Vᵀ"),
    "formula_grad_S": ("梯度 dS 的公式 A ⊙ (dA − rowsum(dA ⊙ A))", "dS's formula, A ⊙ (dA − rowsum(dA ⊙ A))"),
    "formula_grad_Q": ("梯度 dQ 的公式 dS·K/√d_k", "dQ's formula, dS·K/√d_k"),
    "formula_grad_K": ("梯度 dK 的公式 dSᵀ·Q/√d_k", "dK's formula, dSᵀ·Q/√d_k"),
    "formula_block_max": ("每一行的最大值", "each row's maximum"),
    "formula_block_sum": ("一块里每一行 exp 的和", "the row sums of exp over one block"),
    "formula_online_sum": ("合并两块后的行和", "the row sums after both blocks"),
    "formula_online_acc": ("合并两块后的累计分子 acc", "the accumulator acc after both blocks"),
    "formula_online_output": (
        "最后的输出（累计分子 acc 除以行和）",
        "the final output (the accumulator acc divided by the row sums)",
    ),
    "check_which_task": (
        '❌ check 要知道检查哪一题{got}：写题号，加引号，例如 check("2.1")。',
        '❌ check needs the task to check{got}: give its number in quotes, e.g. check("2.1").',
    ),
    "how_to_call": (
        "❌ {name} 的调用方式是 {example}：只写{what}，不用写 {extra}（答案会按变量名自动读取）。",
        "❌ Call {name} as {example}: give only {what}, not {extra} (your answers are read by their variable names).",
    ),
    "call_what_task": ("题号（加引号）", "the task number (in quotes)"),
    "call_what_exercise": ("练习名（加引号）", "the exercise name (in quotes)"),
    "you_gave": ("（你给的是 {what}）", " (you gave {what})"),
    "progress_which_exercise": (
        '❌ progress 要知道是哪一个练习：例如 progress("ex02")。',
        '❌ progress needs the exercise: e.g. progress("ex02").',
    ),
    "check_failed": (
        "{task_id} ❌ 检查时出了意外（{error}）。如果你在这个 Jupyter 内核里改过 numpy 或课程的函数，先重启内核"
        "（Kernel → Restart）再从头运行；否则请把这一行告诉老师。",
        "{task_id} ❌ the check itself failed ({error}). If you changed numpy or the course's functions in this "
        "kernel, restart the kernel (Kernel → Restart) and run from the top; otherwise please tell your teacher.",
    ),
    "predict_first": (
        "⏳ 先在上面写下你的预测（{var}），运行题 {task_id} 的检查，再运行这一格。",
        "⏳ Write your prediction ({var}) above and run the check of task {task_id} first, then run this cell.",
    ),
    "predict_a_number": (
        "⏳ {var} 要写成一个数（不加引号，不是列表，也不是 None），你写的是 {got}。写好后运行题 {task_id} 的检查，再运行这一格。",
        "⏳ Write {var} as one number (no quotes, not a list, not None); it holds {got}. Then run the check of "
        "task {task_id}, then this cell.",
    ),
    "prediction_recorded": (
        "📌 {var} = {value} · 揭晓前记下的预测：计分的就是它，之后再改不算。",
        "📌 {var} = {value} · the prediction recorded before the reveal: this is the one that counts; a change "
        "after it does not.",
    ),
    "prediction_checked": (
        "📌 {var} = {value} · 第一次检查时记下的预测：计分的就是它，之后再改不算。",
        "📌 {var} = {value} · the prediction recorded at its first check: this is the one that counts; a change "
        "after it does not.",
    ),
    "prediction_changed": (
        "📌 {var} = {value} · 揭晓前记下的预测。你之后改成了 {now}：这个改动不计分。",
        "📌 {var} = {value} · the prediction recorded before the reveal. You changed it to {now} afterwards: "
        "that change does not count.",
    ),
    "prediction_not_counted": (
        "你最先记下的预测是 {var} = {value}，{now}{also}；计分的是最先记下的那个预测：",
        "The prediction first recorded was {var} = {value}; {now}, which does not count{also}. The prediction "
        "as first recorded: ",
    ),
    "now_text": ("之后改成了 {now}，这个改动不计分", "you changed it to {now} afterwards"),
    "now_other": ("之后改成了别的值，这个改动不计分", "you changed it afterwards"),
    "now_not_possible": ("（改后的值本身也不符合要求：{why}）", " (and the new value would not do either: {why})"),
    "progress_summary": ("共 {total} 题，已通过 {done} 题。", "{done} of {total} tasks passed."),
    "progress_failed": ("❌ 统计时出了意外（{error}）。", "❌ progress failed ({error})."),
}
