"""Find-the-bug tasks: what is wrong with the learner's fixed function.

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
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
    "fn_scores_transposed": (
        "行列颠倒了：用 (Q, K) 调用时，你的函数返回的是 KQᵀ，也就是分数矩阵的转置。有两种可能：乘积写成了 K 乘以 Q 的转置，"
        "或者 def 里参数的顺序和调用时的不一样（调用时先给 Q，后给 K）。分数的行对应查询、列对应键。",
        "Rows and columns are swapped: called with (Q, K), your function returns KQᵀ, the scores transposed. "
        "Either the product is K times Q transposed, or the parameters in def are in another order than the "
        "call's (Q first, then K). Score rows belong to queries and columns to keys.",
    ),
    "fn_uses_global": (
        "你的 {sym} 用到了笔记本里的全局数组 {names}：检查程序会用自己的数据调用函数，函数要算的数都得从它的参数"
        "（{parameters}）里来。",
        "Your {sym} reads the notebook's global array {names}: the checker calls it with data of its own, so "
        "everything it computes must come from its parameters ({parameters}).",
    ),
    "fn_broadcast_keepdims": (
        "（{full} 和 {flat} 广播不到一起：按行求和或取最大值时少了 keepdims=True？写 .sum(axis=-1, keepdims=True)、"
        ".max(axis=-1, keepdims=True)，结果的形状才会保留最后一个轴，成为可以广播的长度 1。）",
        " ({full} and {flat} do not broadcast: was a row sum or maximum taken without keepdims=True? Write "
        ".sum(axis=-1, keepdims=True), .max(axis=-1, keepdims=True): the last axis is then kept, with length 1, "
        "and broadcasts.)",
    ),
    "fn_broadcast_fixed_size": (
        "（这次调用的数据里没有 {size} 个位置的序列：是不是把大小固定写成了某个数，比如 np.ones(({size}, {size}))，"
        "或者从别的数组、别的轴上取了大小？检查程序会用不同形状的数据调用函数，大小要从参数里取，例如 Q.shape[0]。）",
        " (No sequence in this call's data has {size} positions: is a size written into the function, such as "
        "np.ones(({size}, {size})), or taken from another array or axis? The checker calls the function with data "
        "of other shapes: take sizes from the arguments, e.g. Q.shape[0].)",
    ),
    "fn_broadcast_size_of": (
        "（这次调用的数据里没有 {size} 个位置的序列，但参数的 {names} 正好是 {size}：大小是不是从别的数组或别的轴上取的，"
        "或者固定写成了 {size}？检查程序会用不同形状的数据调用函数，位置数要从参数里取，例如 Q.shape[0]。）",
        " (No sequence in this call's data has {size} positions, but the arguments have {size} at {names}: was a "
        "size taken from another array or axis, or written into the function as {size}? The checker calls the "
        "function with data of other shapes: take the number of positions from the arguments, e.g. Q.shape[0].)",
    ),
    "fn_reshape_sizes": (
        "（{size} 个数排不成形状 {shape}：reshape 里的大小是不是固定写成了某个数（比如头数或每个头的宽度），"
        "或者是用不对的大小算出来的？检查程序会用不同形状的数据调用函数，大小要从参数（{parameters}）里算出来。）",
        " ({size} numbers do not fill shape {shape}: is a size in the reshape written in as a number (the number "
        "of heads, say, or a head's width), or worked out from the wrong sizes? The checker calls the function with "
        "data of other shapes: work the sizes out from the parameters ({parameters}).)",
    ),
    "fn_float_size": (
        "（一个形状或下标是小数：Python 3 里 / 总是得到 float，整除要用 //。）",
        " (A size or an index is a float: in Python 3, / always gives a float; whole-number division is //.)",
    ),
    "fn_matmul_sizes": (
        "（一次矩阵乘法 @ 的两边对不上：左边矩阵的最后一个轴长 {left}，右边矩阵的倒数第二个轴长 {right}，"
        "两者要相等。把每个乘积两边的形状写下来，看是哪一边少了或多了 .T，或者是不是把一个数组用在了另一个该用的地方。）",
        " (A matrix product @ whose sides do not fit: the last axis of the left matrix is {left} long, the "
        "second-to-last axis of the right one {right}; they must be equal. Write down the shapes on both sides "
        "of each product to see which side lacks or has an extra .T, or whether one array is used where another "
        "belongs.)",
    ),
    "fn_two_names": ("{a} 和 {b}", "{a} and {b}"),
    "fn_arguments_swapped": (
        "你的 {sym} 算出的，正是把 {names} 对调之后的结果：是 def 里参数的顺序和调用时的（{parameters}）不一样，"
        "还是把参数传给另一个函数时顺序对调了？（也可能是函数体里把其中一个用在了另一个该用的地方。）{also}",
        "Your {sym} gives the result with {names} exchanged: are the parameters in def in another order than the "
        "call's ({parameters}), or swapped in the arguments it passes on to another function? (Or is one of them "
        "used in its body where the other belongs?){also}",
    ),
    "fn_and_then": (
        "如果是这样，对调回来之后还有一处错：{said}",
        " If so, with them in order one more thing is off: {said}",
    ),
    "fn_arguments_in_another_order": (
        "用 {call} 等数据调用你的 {sym}，每一次都在一次矩阵乘法 @ 上出错，两边对不上的正是两个参数的宽度："
        "是不是 def 里参数的顺序和调用时的（{parameters}）不一样，或者把参数传给另一个函数时顺序对调了？"
        "也可能是函数体里把一个数组用在了另一个该用的地方。",
        "Called with {call} and the other data, your {sym} fails on a matrix product @ every time, and the sizes "
        "that do not fit are two arguments' widths: are the parameters in def in another order than the call's "
        "({parameters}), or swapped in the arguments it passes on to another function? Or is one array used in "
        "its body where another belongs?",
    ),
    "fn_number_as_array": (
        "用 {call} 调用你的 {sym} 时，它抛出了 {error}：{detail}。这是把一个数（比如 {number}）当成了数组来用："
        "def 里参数的顺序和调用时的（{parameters}）一样吗？也可能是函数体里把 {number} 用在了数组该用的地方。",
        "Called with {call}, your {sym} raised {error}: {detail}. A number ({number}, say) is used as an array: "
        "are the parameters in def in the call's order ({parameters})? Or is {number} used in its body where an "
        "array belongs?",
    ),
    "fn_too_slow": (
        "用 {call} 调用你的 {sym}，{seconds} 秒内没有返回，检查程序不再等它{still}。这道题调用一次只要几毫秒"
        "（首次导入模块的时间不算）：看看函数里有没有停不下来的循环（如 while True，或一个始终成立的条件），"
        "或者远超题目所需的计算或等待（如 time.sleep）。",
        "Called with {call}, your {sym} did not return within {seconds} s, and the checker stopped waiting{still}. "
        "One call of this task takes milliseconds (the first import of a module is not counted): look for a loop "
        "that never ends (while True, a condition that stays true), or for far more work or waiting (such as "
        "time.sleep) than the task needs.",
    ),
    "fn_still_running": (
        "（在这台电脑上它停不下来，还在后台运行：请在菜单里重启内核，即 Kernel → Restart）",
        " (on this computer it cannot be stopped and goes on running in the background: restart the kernel, "
        "Kernel → Restart)",
    ),
    "fn_interrupted": (
        "用 {call} 调用你的 {sym} 时，它被中断了（Kernel → Interrupt，或 Ctrl+C），没有返回结果：是不是有一个停不下来的循环？",
        "Called with {call}, your {sym} was interrupted (Kernel → Interrupt, or Ctrl+C) before it returned: is "
        "there a loop that never ends?",
    ),
    "fn_exits": (
        "用 {call} 调用你的 {sym} 时，它调用了 sys.exit()（或 exit()、quit()），想结束整个程序：函数要用 return 交出结果。",
        "Called with {call}, your {sym} called sys.exit() (or exit(), quit()), which ends the whole program: a "
        "function hands back its result with return.",
    ),
    "fn_returned_none": (
        "用 {call} 调用你的 {sym}，它返回了 None：函数最后有 return 吗？",
        "Called with {call}, your {sym} returned None: does it end with return?",
    ),
    "fn_wrong_type": (
        "用 {call} 调用你的 {sym}，它返回了 {got}：应当返回一个数字数组。",
        "Called with {call}, your {sym} returned {got}: it must return an array of numbers.",
    ),
    "fn_long_double": (
        "用 {call} 调用你的 {sym}，结果里有 NaN 或 ∞。它在分数接近 1000 时算对了，只是因为 np.longdouble 在这台电脑上"
        "装得下 e^1000；在 Windows 上 np.longdouble 就是 float64，那里已经溢出了，而分数再大一些（这里约 12000）"
        "这台电脑上也会溢出：先减去每行的最大值。",
        "Called with {call}, your {sym} gives NaN or ∞. It was right on scores near 1000 only because long double "
        "reaches e^1000 on this machine; on Windows long double is float64 and it overflows there, and on larger "
        "scores (about 12000 here) it overflows on this machine too: subtract the row maximum.",
    ),
    "fn_async": (
        "用 {call} 调用你的 {sym}，它返回了一个协程（coroutine）而不是数组：你的函数是 async 的，去掉 def 前面的 async。",
        "Called with {call}, your {sym} returned a coroutine, not an array: your function is async (returns a "
        "coroutine): remove async before def.",
    ),
    "fn_same_output": (
        "不管给它什么数据，你的 {sym} 都返回同一个数组：要用参数来算，不要用笔记本里的数据或固定不变的结果。",
        "Your {sym} returns the same array whatever it is given: compute the result from the arguments, not "
        "from the notebook's data or a fixed answer.",
    ),
    "fn_returned_number": (
        "用 {call} 调用你的 {sym}，它返回的是一个数（{got}），不是数组：应当返回形状为 {expected} 的数组。"
        "看看 return 那一行：是不是返回了某个和、某个元素或一个常数？",
        "Called with {call}, your {sym} returned one number ({got}), not an array: it should return an array of "
        "shape {expected}. Look at the return line: does it return a sum, one entry or a constant?",
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
    "fn_wrong_entry": (
        "用 {call}（检查程序自己选的数据）调用你的 {sym}，形状对了，但有的元素不对：{where} 是 {got}，应该是 {expected}。",
        "Called with {call} (data of the checker's choosing), your {sym} returns the right shape, but some entries "
        "are off: {where} holds {got} where {expected} belongs.",
    ),
    "bug_global_max": (
        "你减去的是整个矩阵的最大值（S.max()），不是每一行自己的最大值。两行相差很大时（检查程序的一组数据里有一行"
        "分数比其他行高出约 1000 或更多），低的那一行 exp 全部下溢成 0，算出来是 0/0 = NaN。每一行要减去它自己的最大值"
        "（沿最后一个轴，keepdims=True），这样每一行最大的那一项正好是 exp(0) = 1。",
        "You subtracted the whole matrix's maximum (S.max()), not each row's own. When rows lie far apart (one of "
        "the checker's calls has a row of scores about 1000 or more above the others), every exp of the lower row underflows to 0 and it "
        "becomes 0/0 = NaN. Subtract each row's own maximum (along the last axis, dimensions kept): then each row's "
        "largest entry is exactly exp(0) = 1.",
    ),
    "bug_row_mean": (
        "你减去的是每一行的平均值，不是最大值。平均值挡不住溢出：一行的分数分布很宽时（检查程序的一组数据从 −1000 到 1000），"
        "比平均值大很多的那一项 exp 仍然溢出成 ∞，算出来是 ∞/∞ = NaN。减去每一行的最大值，exp 的每一项才都不超过 1。",
        "You subtracted each row's mean, not its maximum. The mean does not prevent the overflow: in a row spread "
        "wide (one of the checker's calls runs from −1000 to 1000), the entry far above the mean still overflows "
        "exp to ∞, and it becomes ∞/∞ = NaN. Subtract each row's maximum: then no exp exceeds 1.",
    ),
    "bug_symptom_patched": (
        "第 0 行现在对了，但只是因为它被直接设成了 V[0]；其余各行还是原来那个错误函数的结果：掩码仍然加在 softmax 之后"
        "（未来的权重清零了，可每一行没有重新归一化）。要改的是病因，而不是症状：在 softmax 之前把被挡住的分数设为 −∞，"
        "第 0 行自然就等于 V[0]。",
        "Row 0 is right now, but only because it was set to V[0] by hand; the other rows are still what the buggy "
        "function returns: the mask still comes after softmax (the future weights zeroed, each row no longer adding "
        "up to 1). Fix the cause, not the symptom: set the blocked scores to −∞ before softmax, and row 0 equals "
        "V[0] by itself.",
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
        "{sym} 的掩码没有起作用：每个位置都看到了未来。是根本没有用掩码，还是掩码的形状不对（比如 (n, 1)），"
        "广播之后哪里都没挡住？在 softmax 之前把右上方的分数设为 −∞，掩码和分数一样是 n × n。",
        "{sym}'s mask has no effect, so every position sees the future: is no mask used at all, or is its shape "
        "another one ((n, 1), say) that broadcasts so that nothing is blocked? Set the scores above the diagonal to "
        "−∞ before softmax, with a mask of the scores' shape, n × n.",
    ),
    "fn_mistake": (
        "用 {call} 调用你的 {sym}，它返回的结果是这样错的：{said}",
        "Called with {call}, your {sym} returns a result that is off this way: {said}",
    ),
    "fn_int_dtype": (
        "用 {call} 调用你的 {sym}，它返回的数组 dtype 是 {dtype}，只能存整数，而正确结果有小数：小数部分没有了。"
        "返回之前不要把结果转成整数（如 .astype(int)），也不要把它填进一个整数数组。",
        "Called with {call}, your {sym} returns an array of dtype {dtype}, which holds only whole numbers, while "
        "the right result has fractions: they are lost. Do not turn the result into integers before returning it "
        "(.astype(int), say), nor fill it into an integer array.",
    ),
    "fn_delegates": (
        "{sym} 调用了现成的 {name}：这道题要你用 numpy 自己写出修好的函数，参考实现不能当作你的修正。",
        "{sym} calls the ready-made {name}: this task asks you to write the fixed function yourself in numpy; "
        "the checker cannot take the reference for your fix.",
    ),
    "fn_rounded": (
        "你的 {sym} 在检查程序的每次调用里，返回的都是正确结果四舍五入到 {decimals} 位小数：别在函数里取整"
        "（np.round 只用来打印），返回算出来的数本身。",
        "On every one of the checker's calls your {sym} returns the right result rounded to {decimals} decimals: "
        "do not round inside the function (np.round is for printing); return the numbers as computed.",
    ),
    "fn_multiple": (
        "你的 {sym} 在检查程序的每次调用里，返回的都正好是正确结果的 {factor} 倍：差一个共同的因子。"
        "看看函数里，除了要求的运算，是不是还乘了或除了什么，或者乘、除的数不对（比如根号下面的数）。",
        "On every one of the checker's calls your {sym} returns exactly {factor} times the right result: "
        "one common factor apart. Check whether the function multiplies or divides by anything besides "
        "what it should, or by the wrong number (the one under a root, say).",
    ),
    "fn_multiple_varies": (
        "你的 {sym} 在检查程序的每次调用里，返回的都正好是正确结果的某个倍数，而这个倍数随调用的形状变化："
        "函数里多乘或多除了一个与形状有关的数（比如某个宽度或它的平方根）。看看函数里，除了要求的运算，还乘了或除了什么。",
        "On every one of the checker's calls your {sym} returns exactly a multiple of the right result, and the "
        "multiple changes with the call's shapes: the function multiplies or divides by a number that depends on "
        "the shapes (a width, or its square root, say). Check what it multiplies or divides by besides what it "
        "should.",
    ),
    "fn_multiple_plain": (
        "你的 {sym} 在检查程序的每次调用里，返回的都正好是正确结果的同一个倍数：差一个共同的因子。"
        "看看函数里，除了要求的运算，是不是还乘了或除了什么，或者乘、除的数不对（比如根号下面的数）。",
        "On every one of the checker's calls your {sym} returns exactly the same multiple of the right result: "
        "one common factor apart. Check whether the function multiplies or divides by anything "
        "besides what it should, or by the wrong number (the one under a root, say).",
    ),
    "fn_offset": (
        "你的 {sym} 在检查程序的每次调用里，返回的每个数都比正确结果多出（或少了）同一个数。"
        "看看函数里，除了要求的运算，是不是还加了或减了什么。",
        "On every one of the checker's calls every number your {sym} returns is the right one plus (or minus) "
        "the same amount. Check whether the function adds or subtracts anything besides what it should.",
    ),
    "fn_changes_input_form": (
        "用 {call} 调用你的 {sym} 之后，传进去的 {names} 的形状或数据类型变了：给 .shape 或 .dtype 赋值、调用 .resize() "
        "都会改掉调用者的数组。改用 .reshape(...) 或 .astype(...)，它们返回新数组，原来的数组不变。",
        "Called with {call}, your {sym} changed the shape or dtype of the array it was given ({names}): assigning "
        "to .shape or .dtype, or calling .resize(), changes the caller's array. Use .reshape(...) or .astype(...) "
        "instead: they return a new array and leave the old one as it was.",
    ),
    "fn_changes_input": (
        "用 {call} 调用你的 {sym} 之后，传进去的 {names} 里的数变了：像 x -= ...、x[...] = ... 这样的原地写法会改写调用者的数组。"
        "改成 x = x - ...（得到一个新数组）。",
        "Called with {call}, your {sym} changed the numbers of the array it was given ({names}): an in-place "
        "x -= ... or x[...] = ... writes into the caller's array. Write x = x - ... (a new array) instead.",
    ),
}
