"""Lesson 11: LayerNorm, the residual, the feed-forward network.

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
    # ---------------------------------------------------------------- lesson 11: LayerNorm, residual, FFN
    "norm_axis": (
        "归一化取错了轴：你沿着列（位置，axis=0）算均值和方差；层归一化对每一行（一个位置的特征，axis=-1）单独归一化。",
        "Normalised along the wrong axis: your mean and variance run down the columns (over positions, "
        "axis=0); LayerNorm normalises each row (one position's features, axis=-1) on its own.",
    ),
    "eps_forgotten": (
        "你的结果和根号里不加 ε 时一样，题目给的是 ε = {task_eps}。可能是：根号里没有 ε；ε 的大小不对，比题目的小得多"
        "（如 1e-10，在这些数上和没有 ε 看不出区别）；或者做了两次层归一化（第二次几乎抵消了第一次的 ε）。"
        "一行的数几乎相等时方差接近 0，ε 太小就会把噪声放大（全相等时是 0/0 = NaN）。"
        "每一行只归一化一次，ε 加在根号里：√(方差 + ε)。",
        "Your numbers are those with no ε under the square root, while the task gives ε = {task_eps}. It may be "
        "no ε under the root; ε has the wrong size, far smaller than the task's (1e-10 cannot be told from none on these "
        "numbers); or LayerNorm applied twice (normalised twice: the second pass almost cancels the first one's ε). When a row's "
        "numbers are nearly equal its variance is nearly 0, and too small an ε lets the division blow up the "
        "noise (0/0 = NaN if they are all equal). Normalise each row once, with ε under the root: "
        "√(variance + ε).",
    ),
    "eps_value": (
        "ε 的大小不对：你用的 ε 是 {eps}，题目给的是 ε = {task_eps}。这一行的方差和 ε 差不多大，ε 取多少在这里看得出来。",
        "ε has the wrong size: you used ε = {eps}, the task gives ε = {task_eps}. This row's variance is about "
        "as small as ε, so the size of ε shows there.",
    ),
    "eps_misplaced": (
        "ε 放错了地方：本题按 PyTorch 的约定把它加在根号里面，√(方差 + ε)。加在根号外面（σ + ε，"
        "The Annotated Transformer 的写法）同样能让分母离开 0，但不是本题的约定；加在结果上则挡不住 0/0。",
        "ε is in the wrong place: this exercise follows PyTorch's convention and puts it under the square root, "
        "√(variance + ε). Adding it after the root (σ + ε, as The Annotated Transformer does) also keeps the "
        "denominator away from 0 but is not this exercise's convention; adding it onto the result does not stop 0/0.",
    ),
    "unbiased_variance": (
        "方差除以了 d − 1（ddof=1）：层归一化的方差除以 d（np.var 的默认）。",
        "The variance is divided by d − 1 (ddof=1): LayerNorm's variance divides by d (np.var's default).",
    ),
    "not_centred": (
        "忘了减去均值（RMSNorm 就不减，但这里要的是层归一化）：先减去这一行的均值，再除以 √(方差 + ε)。",
        "The mean is not subtracted (as in RMSNorm, which LayerNorm is not): subtract the row's mean first, then "
        "divide by √(variance + ε).",
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
    "residual_added_twice": (
        "残差加了两次：LayerNorm(X + F) 里已经加过 X 了，归一化之后又加了一次 X。题目要的就是 LayerNorm(X + F)，"
        "归一化之后不再加什么。",
        "The residual is added twice: LayerNorm(X + F) already holds X, and X was added once more after the norm. "
        "The task asks for LayerNorm(X + F) itself, with nothing added after the norm.",
    ),
    "sublayer_left_out": (
        "你只归一化了 X，子层的输出 F 没有加进去：残差连接是 X + F，再对这个和做层归一化。",
        "You normalised X alone and the sublayer's output F is not in it: the residual connection is X + F, and "
        "LayerNorm is applied to that sum.",
    ),
    "only_centred": (
        "只减去了均值，没有再除以 √(方差 + ε)：层归一化之后每一行的均值为 0、方差约为 1，你的每一行还保留着原来的大小。",
        "You subtracted the mean but never divided by √(variance + ε): after LayerNorm each row has mean 0 and "
        "variance about 1; your rows keep their original spread.",
    ),
    "ffn_residual_added": (
        "你在前馈网络的输出上加了它的输入 H：那是残差连接，属于“加上残差再层归一化”那一步，不属于前馈网络。这道题只要前馈网络本身，"
        "ReLU(H·W1 + b1)·W2 + b2。",
        "You added the FFN's input H to its output: that is the residual connection, which belongs to the "
        "add-and-norm step, not to the FFN. This task asks for the FFN alone, ReLU(H·W1 + b1)·W2 + b2.",
    ),
    "no_residual": (
        "忘了残差：先把输入 X 加到子层的输出 F 上，再做层归一化。",
        "The residual is missing: add the input X to the sublayer's output F, then apply LayerNorm.",
    ),
    "no_norm": (
        "这是 X + F：还要对每一行做层归一化。",
        "This is X + F: apply LayerNorm to each row as well.",
    ),
    "no_relu": (
        "忘了 max(0, ·)（ReLU）：没有它，两层线性变换合起来还是一个线性变换。",
        "max(0, ·) (ReLU) is missing: without it, the two linear layers together are still one linear map.",
    ),
    "relu_on_output": (
        "ReLU 用在了输出上：它只作用在隐藏层 H·W1 + b1 上，输出层乘 W2、加 b2 之后不再取 max(0, ·)。",
        "ReLU is applied to the output: it acts on the hidden layer H·W1 + b1 only; no max(0, ·) after the output layer multiplies by W2 and adds b2.",
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
}
