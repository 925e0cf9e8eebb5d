"""Lesson 10: the backward pass.

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
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
    "jacobian_forgotten": (
        "dS = dA 把 softmax 当成了什么都不做：每个权重都依赖整行的分数，要乘以 softmax 的雅可比矩阵："
        "dS = A ⊙ (dA − rowsum(dA ⊙ A))。",
        "dS = dA treats softmax as if it did nothing: each weight depends on the whole row of scores, so "
        "apply the softmax Jacobian: dS = A ⊙ (dA − rowsum(dA ⊙ A)).",
    ),
    "jacobian_diagonal": (
        "只用了雅可比矩阵的对角线 a_i(1 − a_i)：非对角线上的 −a_i·a_j（一个权重升高，其他权重降低）也要算进来。",
        "Only the Jacobian's diagonal a_i(1 − a_i) is used: the off-diagonal −a_i·a_j (one weight rising "
        "lowers the others) counts too.",
    ),
    "jacobian_first_term": (
        "只算了 A ⊙ dA：还要减去每一行的 rowsum(dA ⊙ A)，它来自雅可比矩阵的 −a_i·a_j 部分（预算是固定的）。",
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
        "求和取错了轴：rowsum 是沿每一行（axis=-1）加，不是沿列。",
        "The sum runs along the wrong axis: rowsum adds along each row (axis=-1), not down the columns.",
    ),
    "keepdims_grad": (
        "少了 keepdims=True：每行的和成了 (n,) 的向量，沿错误的方向广播。用 .sum(axis=-1, keepdims=True)。",
        "keepdims=True is missing: the row sums became an (n,) vector that broadcasts along the wrong axis. "
        "Use .sum(axis=-1, keepdims=True).",
    ),
    "grad_unscaled": (
        "你的结果正好是少乘 1/√d_k 时的数：前向时 S = QKᵀ/√d_k，所以反向传到 Q、K 时也要乘以 1/√d_k。"
        "如果你乘过了，看看是不是有一项算了两次。",
        "Your result is what you get without the factor 1/√d_k: the forward pass has S = QKᵀ/√d_k, so the "
        "gradient flowing back to Q and K is scaled by 1/√d_k too. If you did scale it, check whether a term "
        "was counted twice.",
    ),
    # The gradient mistakes are said by their reasoning, never by the right formula (the task's answer).
    "dV_A_not_transposed": (
        "A 没有转置：O = A·V 中，V 的第 j 行被每个查询 i 按权重 A[i, j] 取用，所以 dV 的第 j 行要把这些查询的 dO 行"
        "按 A 的第 j 列加起来：想一想哪一个因子要转置。",
        "A is not transposed: in O = A·V, row j of V is used by every query i with weight A[i, j], so row j of dV "
        "adds up those queries' rows of dO weighted by column j of A: think about which factor is transposed.",
    ),
    "dA_V_not_transposed": (
        "V 没有转置：A[i, j] 乘的是 V 的第 j 行，所以它的梯度是 dO 的第 i 行与 V 的第 j 行的点积：想一想这要哪一个因子转置。",
        "V is not transposed: A[i, j] multiplies row j of V, so its gradient is row i of dO dotted with row j of "
        "V: think about which factor that transposes.",
    ),
    "dQ_K_was_transposed": (
        "K 被转置了：S[i, j] = q_i·k_j/√d_k，对 q_i 求导得到 k_j/√d_k——那是 K 的一行，不是一列。",
        "K is transposed: S[i, j] = q_i·k_j/√d_k, whose derivative in q_i is k_j/√d_k — a row of K, not a column.",
    ),
    "dK_dS_not_transposed": (
        "dS 没有转置：键 j 出现在 dS 的第 j 列，所以 dK 的第 j 行要按 dS 的第 j 列把各个查询混合起来。",
        "dS is not transposed: key j appears in column j of dS, so row j of dK mixes the queries by column j of dS.",
    ),
    "crossed_gradient": (
        "{var} 算的是 {product}，不是题 {task_id} 要的梯度。{why}",
        "{var} holds {product}, which is not the gradient task {task_id} asks for. {why}",
    ),
    "product_grad_V": ("Aᵀ·dO", "Aᵀ·dO"),
    "product_grad_A": ("dO·Vᵀ", "dO·Vᵀ"),
    "product_grad_S": ("softmax 的反向 A ⊙ (dA − rowsum(dA ⊙ A))", "softmax's backward A ⊙ (dA − rowsum(dA ⊙ A))"),
    "product_grad_Q": ("dS·K/√d_k", "dS·K/√d_k"),
    "product_grad_K": ("dSᵀ·Q/√d_k", "dSᵀ·Q/√d_k"),
    "why_grad_V": (
        "dV 的第 j 行是值 j 的梯度：O = A·V 中，V 的第 j 行被每个查询 i 按权重 A[i, j] 取用。",
        "Row j of dV is value j's gradient: in O = A·V, row j of V is used by every query i with weight A[i, j].",
    ),
    "why_grad_A": (
        "dA[i, j] 是损失随 A[i, j] 的变化：A[i, j] 把 V 的第 j 行带进 O 的第 i 行。",
        "dA[i, j] is how the loss changes with A[i, j]: A[i, j] carries row j of V into row i of O.",
    ),
    "why_grad_S": (
        "dS 要把 dA 经过 softmax 的雅可比矩阵逐行传回分数。",
        "dS carries dA back through the softmax Jacobian, row by row, to the scores.",
    ),
    "why_grad_Q": (
        "dQ 的第 i 行是查询 i 的梯度：S[i, j] = q_i·k_j/√d_k，对 q_i 求导得到 k_j/√d_k。",
        "Row i of dQ is query i's gradient: S[i, j] = q_i·k_j/√d_k, whose derivative in q_i is k_j/√d_k.",
    ),
    "why_grad_K": (
        "dK 的第 j 行是键 j 的梯度：S[i, j] = q_i·k_j/√d_k，对 k_j 求导得到 q_i/√d_k，键 j 出现在 dS 的第 j 列。",
        "Row j of dK is key j's gradient: S[i, j] = q_i·k_j/√d_k, whose derivative in k_j is q_i/√d_k, and key j "
        "appears in column j of dS.",
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
}
