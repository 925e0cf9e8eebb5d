"""Lesson 15 (attention that was learned): the previous-token score of each head, the key an induction
head reads (predict), and the induction score (find the bug). Each mistake says what is wrong, why, and
the fix in words.

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
    # ---------------------------------------------------------------- the previous-token score of each head
    "axes_prev_scores": (
        "(heads,)：每个头一个数",
        "(heads,): one number per head",
    ),
    "entry_prev_scores": (
        "第 h 个数是头 h 的前一词元分数：第 1 到 n-1 个查询放在它前一个位置（第 i 行第 i-1 列）上的权重的平均。",
        "Number h is head h's previous-token score: the mean, over queries 1 to n-1, of the weight each puts on "
        "the position just before it (row i, column i-1).",
    ),
    "prev_on_diagonal": (
        "你取的是对角线上的权重（第 i 行第 i 列），也就是每个查询看它自己的权重。前一词元头看的是前一个位置："
        "对角线左边紧挨着的那一条（第 i 行第 i-1 列）。",
        "You took the weights on the diagonal (row i, column i): how much each query looks at itself. A "
        "previous-token head looks at the position before: the line just left of the diagonal (row i, column i-1).",
    ),
    "prev_above_diagonal": (
        "你取的是对角线右边那一条（第 i 行第 i+1 列），那是下一个位置：因果掩码把它挡住了，权重全是 0。"
        "前一个位置在对角线左边（第 i 行第 i-1 列）。",
        "You took the line right of the diagonal (row i, column i+1), the next position: the causal mask hides "
        "it, so every weight there is 0. The previous position is left of the diagonal (row i, column i-1).",
    ),
    "prev_divided_by_n": (
        "平均的分母不对：第 0 个查询前面没有位置，它不参加平均。只对第 1 到 n-1 个查询取平均，一共 n-1 个数。",
        "The mean has the wrong count: query 0 has no position before it and takes no part. Average over "
        "queries 1 to n-1 only, n-1 numbers.",
    ),
    "prev_summed": (
        "你把前一个位置上的权重加了起来，没有取平均：前一词元分数是第 1 到 n-1 个查询的这些权重的平均，"
        "所以在 0 和 1 之间，和序列有多长无关。",
        "You added up the weights on the previous position instead of averaging them: the previous-token score "
        "is the mean of these weights over queries 1 … n-1, so it lies between 0 and 1 whatever the length.",
    ),
    "prev_over_heads": (
        "你沿头的轴（轴 0）取了平均，得到的是每个查询一个数。分数是每个头一个数：沿查询的轴取平均。",
        "You averaged along the heads axis (axis 0) and got one number per query. The score is one number per "
        "head: average along the queries' axis.",
    ),
    "hint_prev_per_query": (
        "你的答案形状是 heads × (n-1)；分数是每个头一个数，形状 (heads,)：每个头对它的 n-1 个查询取平均。",
        "Your answer has shape heads × (n-1); the score is one number per head, shape (heads,): each head "
        "averaged over its n-1 queries.",
    ),
    # ---------------------------------------------------------------- predict: the key an induction head reads
    "explain_induction_key": (
        "第二遍里位置 query（查询所在的位置）上的词元，在第一遍里出现过。归纳头要预测下一个词元："
        "想一想，第一遍里哪个位置上的词元就是接下来要出现的？",
        "The token at position query in the second copy appeared before, in the first copy. The induction head "
        "predicts the next token: which position of the first copy holds the token that comes next?",
    ),
    "predict_earlier_occurrence": (
        "这是当前词元上一次出现的位置本身。那里的词元和当前词元一样，看它预测不出下一个词元。"
        "想一想：第一遍里，哪个位置上的词元才是下一个要预测的？",
        "That is where the current token appeared before. The token there is the current token again and "
        "predicts nothing new. Which position of the first copy holds the token that comes next?",
    ),
    "predict_previous_position": (
        "这是前一个位置：那是第 1 层前一词元头看的地方，不是第 2 层的归纳头要找的。"
        "想一想：第一遍里，哪个位置上的词元能告诉归纳头下一个词元是什么？",
        "That is the position just before, where the previous-token head of layer 1 looks, not what the "
        "induction head of layer 2 looks for. Which position of the first copy holds the token that comes next?",
    ),
    "predict_counted_from_one": (
        "这里的位置从 0 数起（第一个词元是位置 0，不是 1）。位置编号和“第几个”、长度这类个数不是一回事："
        "在纸上把序列的位置一个个标出来，再找一次。",
        "Positions count from 0 here (the first token is position 0, not 1). A position number is not the same "
        'as a count ("the 3rd") or a length: label the sequence\'s positions one by one on paper '
        "and look again.",
    ),
    "predict_query_itself": (
        "这是查询自己的位置。归纳头要到第一遍里去找：想一想，第一遍里哪个位置上的词元是下一个要预测的？",
        "That is the query's own position. The induction head looks back into the first copy: which position "
        "there holds the token that comes next?",
    ),
    # ---------------------------------------------------------------- find the bug: the induction score
    "axes_induction_score": (
        "(heads,)：每个头一个归纳分数",
        "(heads,): one induction score per head",
    ),
    "bug_induction_fixed_place": (
        "你的函数每次都按 (start, length) = {value} 算分数，不管调用时给的是什么：检查程序的几次调用里，(start, length) "
        "分别是 {sizes}。start 和 length 不能写成固定的数，也不能用笔记本里的变量，要从这次调用的参数里读出来。",
        "Your function computes the score at (start, length) = {value} on every call, whatever it is given: on "
        "the checker's calls (start, length) was {sizes}. Neither can be a number typed in or a variable of the "
        "notebook; read them from the call's parameters.",
    ),
    "bug_induction_at_occurrence": (
        "你的函数算的是第二遍的查询放在当前词元上一次出现的位置本身上的权重，列号小了 1。"
        "归纳头看的是那个位置的下一个位置（那里的词元才是下一个要预测的），所以真正的归纳头在这里得分很低。",
        "The function measures the weight the second copy's queries put on the earlier occurrence of their "
        "token itself: the column is one too small. An induction head reads the position after it (its token "
        "is the next one), so a real induction head scores low here.",
    ),
    "bug_induction_previous_token": (
        "你的函数算的是第二遍的查询放在前一个位置上的权重：那是前一词元分数，不是归纳分数。"
        "归纳分数的列要回到第一遍：当前词元上一次出现之后的那个位置。",
        "The function measures the weight the second copy's queries put on the position just before them: "
        "a previous-token score, not an induction score. The induction score's column goes back into the "
        "first copy: the position after the current token's earlier occurrence.",
    ),
    "bug_induction_too_far_back": (
        "函数读的列往回多走了：那是当前词元上一次出现的位置再往前一个位置。归纳头看的是上一次出现之后的那个位置"
        "（它的词元才是下一个要预测的）：在一个小例子上（比如 length = 3）数一数，第二遍的一个查询该看哪一列。",
        "The function's column goes too far back: it is the position before the earlier occurrence of the "
        "current token. An induction head reads the position after that occurrence (its token is the next one): "
        "on a small example (length = 3, say), count which column a query of the second copy should read.",
    ),
    "bug_induction_next_position": (
        "函数读到的权重全是因果掩码设成 0 的那些（所以每个头都得 0 分）。两种写法都会这样：读了每个查询之后的位置"
        "（那是它的未来），或者行和列的下标对调了（A[h, i, j] 是查询 i 放在键 j 上的权重，对调之后读的是上三角）。"
        "归纳分数的列要回到第一遍：当前词元上一次出现之后的那个位置。",
        "The function reads only weights the causal mask sets to 0 (so every head scores 0). Two ways of writing "
        "it do this: reading the position just after each query (its future), or the row and column indices "
        "swapped (A[h, i, j] is the weight query i puts on key j; swapped, it reads the upper triangle). The "
        "induction score's column goes back into the first copy: the position after the current token's earlier "
        "occurrence.",
    ),
    "bug_induction_max": (
        "函数取的是这些权重里最大的一个，不是平均：归纳分数是第二遍各个查询的权重的平均。一个查询看得准，不能说明整个头都这样。",
        "The function takes the largest of these weights, not their mean: the induction score is the mean weight "
        "over the second copy's queries, and one query that happens to look at the right place does not speak "
        "for the whole head.",
    ),
    "bug_induction_every_pair": (
        "函数对每个查询和每一列的所有组合取了平均：A[:, queries][:, :, columns] 是一个 len(queries) × len(columns) 的子矩阵。"
        "每个查询只该看它自己的那一列：A[:, queries, columns] 让 queries 的第 i 个元素和 columns 的第 i 个元素配对。",
        "The function averages over every pair of a query and a column: A[:, queries][:, :, columns] is a "
        "len(queries) × len(columns) submatrix. Each query should be read at its own column only: "
        "A[:, queries, columns] pairs the i-th element of queries with the "
        "i-th column.",
    ),
    "bug_induction_summed": (
        "函数把权重加了起来，没有取平均：归纳分数是第二遍各个查询的权重的平均，所以它在 0 和 1 之间，"
        "和这一遍有多长无关。",
        "The function adds the weights up instead of averaging them: the induction score is the mean weight "
        "over the second copy's queries, so it lies between 0 and 1 whatever the copy's length.",
    ),
    "bug_induction_first_copy": (
        "查询取自第一遍：那里的词元此前还没出现过，没有“上一次出现”可以回看（列号可能算成负数，"
        "numpy 会从末尾倒着数，读到的是别的位置）。归纳头只在第二遍上显出来：查询要取第二遍的位置。",
        "The queries come from the first copy: its tokens have not appeared before, so there is no earlier "
        "occurrence to look back to (the column can come out negative, and numpy counts a negative index from "
        "the end, reading some other position). An induction head shows only on the second copy: take the queries "
        "from its positions.",
    ),
    "bug_induction_queries_shifted": (
        "查询的范围在一端或两端差了一个位置：查询要正好是第二遍里的位置（从 start + length 起），并且每个查询对应的那一列"
        "（上一次出现之后的那个位置）还在第一遍之内。在一个小例子上（比如 start = 1，length = 3）把两端都数一数。",
        "The range of queries is one position off at one end or both: the queries must be exactly the positions of the second copy "
        "(from start + length on) whose column (the position after the earlier occurrence) is still inside the "
        "first copy. Count both ends on a small example (start = 1, length = 3, say).",
    ),
    "bug_induction_over_heads": (
        "函数沿头的轴（轴 0）取了平均，返回的是每个查询一个数。归纳分数是每个头一个数：沿查询的轴取平均。",
        "The function averages along the heads axis (axis 0) and returns one number per query. The induction "
        "score is one number per head: average along the queries' axis.",
    ),
}
