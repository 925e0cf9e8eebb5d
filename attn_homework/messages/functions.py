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
        "不管给它什么数据，你的 {sym} 都返回同一个数组：要用参数来算，不要用笔记本里的数据或固定不变的结果。",
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
    "fn_wrong_entry": (
        "用 {call}（检查程序自己选的数据）调用你的 {sym}，形状对了，但有的元素不对：{where} 是 {got}，应该是 {expected}。",
        "Called with {call} (data of the checker's choosing), your {sym} returns the right shape, but some entries "
        "are off: {where} holds {got} where {expected} belongs.",
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
        "{sym} 根本没有用掩码：每个位置都看到了未来。在 softmax 之前把右上方的分数设为 −∞。",
        "{sym} uses no mask at all, so every position sees the future: set the scores above the diagonal to "
        "−∞ before softmax.",
    ),
    "fn_mistake": (
        "用 {call} 调用你的 {sym}，它返回的结果是这样错的：{said}",
        "Called with {call}, your {sym} returns a result that is off this way: {said}",
    ),
    "fn_delegates": (
        "{sym} 调用了现成的 {name}：这道题要你用 numpy 自己写出修好的函数，检查程序不能把参考答案当成你的修正。",
        "{sym} calls the ready-made {name}: this task asks you to write the fixed function yourself in numpy; "
        "the checker cannot take the reference for your fix.",
    ),
    "fn_changes_input": (
        "用 {call} 调用你的 {sym} 之后，传进去的 {names} 里的数变了：像 `x -= ...`、`x[...] = ...` 这样的原地写法会改写调用者的数组。"
        "改成 `x = x - ...`（得到一个新数组）。",
        "Called with {call}, your {sym} changed the numbers of the array it was given ({names}): an in-place "
        "`x -= ...` or `x[...] = ...` writes into the caller's array. Write `x = x - ...` (a new array) instead.",
    ),
}
