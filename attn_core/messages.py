"""Every learner-facing message of the math layer, Chinese and English side by side.

Errors name the shapes or values involved and the likely fix; a test checks that each entry has both
languages with the same {fields}. Use: ``from .messages import msg`` then ``msg("qk_width", Q=..., K=...)``.
"""

from .lang import Catalog

msg = Catalog(
    {
        # ---------------------------------------------------------------- argument guards (_validate)
        "positive_int": (
            "{name} 必须是正整数{meaning}，得到的是 {got!r}。",
            "{name} must be a positive integer{meaning}, got {got!r}.",
        ),
        "positive_number": (
            "{name} 必须是正数{meaning}，得到的是 {got!r}。",
            "{name} must be a positive number{meaning}, got {got!r}.",
        ),
        "meaning_d_k": ("（Q 和 K 的宽度）", " (the width of Q and K)"),
        "meaning_block": ("（每块的位置数）", " (a number of positions per block)"),
        "meaning_eps": ("（差分的步长，一个很小的数）", " (the small step of the difference)"),
        "meaning_lr": ("（梯度下降的步长）", " (the gradient-descent step)"),
        "meaning_init_scale": ("（W_Q、W_K 初始值的缩放倍数）", " (the factor on the initial W_Q and W_K)"),
        "meaning_none": ("", ""),
        "list_sep": ("、", ", "),  # between the items of a list printed in a message (divisors)
        "meaning_base": ("（位置编码的底数，通常是 10000）", " (the base of the position encoding, usually 10000)"),
        "meaning_positions": ("（位置的个数）", " (the number of positions)"),
        # ---------------------------------------------------------------- arrays (_validate)
        "not_rectangular": (
            "{name} 不是规整的数字数组（各行长度不一？）：{error}",
            "{name} is not a rectangular array of numbers ({error}).",
        ),
        "not_real": (
            "{name} 必须是实数数组，得到的是 dtype {dtype}（类型 {type}）。请用 np.array([...], dtype=float) 构造。",
            "{name} must be an array of real numbers, got dtype {dtype} (type {type}). "
            "Build it with np.array([...], dtype=float).",
        ),
        "too_few_axes": (
            "{name} 至少要有 {min_ndim} 个轴（行 × 特征），得到的形状是 {shape}。"
            "单个向量 v 可以写成一行的矩阵：v[None, :]。",
            "{name} must have at least {min_ndim} axes (rows × features), got shape {shape}. "
            "A single vector v can be written as a one-row matrix: v[None, :].",
        ),
        "not_finite": (
            "{name}（形状 {shape}）含有 {count} 个 NaN 或 ∞，第一个在下标 {where}。"
            "注意力只能处理有限的数：检查 {name} 是怎么算出来的。",
            "{name} (shape {shape}) contains {count} NaN/inf value(s), the first at index {where}. "
            "Attention needs finite numbers: check how {name} was computed.",
        ),
        "W_not_2d": (
            "{w} 必须是二维矩阵（d_in × d_out），得到的形状是 {shape}。",
            "{w} must be a 2-D matrix (d_in × d_out), got shape {shape}.",
        ),
        "W_rows": (
            "{x} 的形状是 {x_shape}，{w} 的形状是 {w_shape}：{x} @ {w} 要求 {w} 有 {rows} 行"
            "（{x} 的每个特征一行，即 d_model）。{w} 是不是转置了，或者是按另一个 d_model 建的？",
            "{x} has shape {x_shape} but {w} has shape {w_shape}: {x} @ {w} needs {w} to have {rows} rows "
            "(one per feature of {x}, d_model). Is {w} transposed, or built for another d_model?",
        ),
        "qk_width": (
            "Q 的形状是 {Q}，K 的形状是 {K}：QKᵀ 要拿每个查询和每个键做点积，两者最后一个轴的大小 d_k 必须相同"
            "（现在是 {d_q} 和 {d_k}）。W_Q 和 W_K 要投影到同一个宽度 d_k。",
            "Q has shape {Q} and K has shape {K}: Q·Kᵀ compares each query with each key, so both need the "
            "same last axis d_k (got {d_q} and {d_k}). W_Q and W_K must project to the same width d_k.",
        ),
        "av_shape": (
            "A 的形状是 {A}，V 的形状是 {V}：A·V 要求每个键对应一行值，A 的列数必须等于 V 的行数，"
            "现在分别是 {cols} 和 {rows}。是不是把 V 转置了，或者把两个参数的顺序写反了（V·A）？",
            "A has shape {A} and V has shape {V}: A·V needs one value row per key, so A's number of columns must "
            "equal V's number of rows; here they are {cols} and {rows}. Is V transposed, or are the two arguments "
            "swapped (V·A)?",
        ),
        "kv_rows": (
            "K 的形状是 {K}，V 的形状是 {V}：每个键都要有自己的值，所以 K 和 V 的行数 n_k 必须相同"
            "（现在是 {n_k} 和 {n_v}）。在 Transformer 里，K 和 V 通常从同一个序列投影出来。",
            "K has shape {K} and V has shape {V}: every key needs its value, so K and V must have the same "
            "number of rows n_k (got {n_k} and {n_v}). In a Transformer, K and V are usually projected from "
            "the same sequence.",
        ),
        "batch_axes": (
            "{a} 的形状是 {a_shape}，{b} 的形状是 {b_shape}：前面的批量轴 {a_batch} 和 {b_batch} 无法广播。",
            "{a} has shape {a_shape} and {b} has shape {b_shape}: their leading (batch) axes {a_batch} and "
            "{b_batch} do not broadcast.",
        ),
        "mask_dtype": (
            "mask 必须是布尔数组（True 表示可以看），得到的是 dtype {dtype}。"
            "0/1 数组用 mask.astype(bool)；0/−∞ 的加性掩码用 (mask == 0)。",
            "mask must be boolean with True = may attend, got dtype {dtype}. "
            "From 0/1 use mask.astype(bool); from an additive 0/−∞ mask use (mask == 0).",
        ),
        "mask_shape": (
            "mask 的形状是 {mask}，而分数的形状是 {scores}（n_q × n_k）：掩码必须能广播到分数上。"
            "因果自注意力可用 causal_mask(n)；只挡住键的填充掩码用形状 (1, n_k)。",
            "mask has shape {mask} but the scores have shape {scores} (n_q × n_k): the mask must broadcast "
            "to the scores. For self-attention use causal_mask(n); for a padding mask over keys use shape "
            "(1, n_k).",
        ),
        "mask_empty_row": (
            "掩码让第 {row} 行查询{batch}一个键都看不到（共 {count} 行如此），这一行的 softmax 没有定义（权重会是 NaN）。"
            "每行至少允许一个键，例如查询自己。",
            "mask leaves query row {row}{batch} with no key to attend to ({count} such row(s) in all): "
            "softmax over no key is undefined (its weights would be NaN). Allow at least one key per row, e.g. "
            "the query itself.",
        ),
        "at_batch": ("（批量下标 {where}）", " (at batch index {where})"),
        # ---------------------------------------------------------------- the five steps (core)
        "softmax_empty_row": (
            "softmax 收到一整行都是 −∞（所有键都被挡住）：这一行的权重会是 NaN。让每个查询至少能看一个键。",
            "softmax got a row that is −∞ everywhere (every key masked): its weights would be NaN. "
            "Let every query attend to at least one key.",
        ),
        "trace_header": ("步骤|符号|形状|含义", "step|symbol|shape|meaning"),
        "trace_X": ("输入，每行一个词", "input, one row per word"),
        "trace_Q": ("查询：谁在问", "queries: who asks"),
        "trace_K": ("键：供匹配的标签", "keys: labels to match"),
        "trace_V": ("值：要取回的内容", "values: content to fetch"),
        "trace_QKT": ("原始分数：行 = 谁在问，列 = 问谁", "raw scores: row = who asks, column = who is asked"),
        "trace_S": ("缩放后的分数 QKᵀ/√d_k", "scaled scores QKᵀ/√d_k"),
        "trace_S_head": ("缩放后的分数 QKᵀ/√d_head", "scaled scores QKᵀ/√d_head"),
        "trace_S_unscaled": ("未缩放：S = QKᵀ", "unscaled: S = QKᵀ"),
        "trace_masked": ("，被挡住处为 −∞", ", −∞ where masked"),
        "trace_A": ("注意力权重，每行和为 1", "attention weights, each row sums to 1"),
        "trace_O": ("输出 A·V，宽度 d_v", "output A·V, width d_v"),
        # ---------------------------------------------------------------- multi-head
        "heads_each": ("{n} 个头，每个头：", "{n} heads, each:"),
        "heads_concat": ("拼接 concat {concat} → 乘 W_O → O {O}", "concat {concat} → times W_O → O {O}"),
        "split_heads": (
            "宽度 {width}（形状 {shape}）无法平均切成 {n_heads} 个头。split_heads 把一个宽 d_model 的投影"
            "平均切成 n_heads 段，所以它要求 d_model 能被 n_heads 整除。这是 attn_core（和大多数模型）的约定，"
            "不是注意力本身的要求（见第 8 课）。"
            "在这里，请从 {width} 的约数中选 n_heads：{divisors}。",
            "cannot split width {width} (shape {shape}) into {n_heads} equal heads. split_heads cuts a "
            "d_model-wide projection into n_heads equal slices, so it needs d_model divisible by n_heads. "
            "That is a convention of attn_core (and of most models), not a law of attention (lesson 8). Here, choose n_heads among the "
            "divisors of {width}: {divisors}.",
        ),
        "W_O_rows": (
            "W_O 的形状是 {shape}，但拼接后的多头输出宽 {width}：W_O 需要 {width} 行（n_heads * d_v）。",
            "W_O has shape {shape} but the concatenated heads are {width} wide: W_O needs {width} rows (n_heads * d_v).",
        ),
        # ---------------------------------------------------------------- decoding: heads sharing K and V
        "kv_heads": (
            "n_heads = {n_heads} 个查询头无法平均分给 n_kv_heads = {n_kv_heads} 个 K/V 头：分组查询注意力（GQA）"
            "里每个 K/V 头服务同样多的查询头，所以 n_kv_heads 必须整除 n_heads。"
            "请从 {n_heads} 的约数中选 n_kv_heads：{divisors}（1 是 MQA，{n_heads} 是普通的多头注意力）。",
            "n_heads = {n_heads} query heads cannot be shared out evenly among n_kv_heads = {n_kv_heads} K/V heads: "
            "in grouped-query attention (GQA) every K/V head serves the same number of query heads, so n_kv_heads "
            "must divide n_heads. Choose n_kv_heads among the divisors of {n_heads}: {divisors} "
            "(1 is MQA, {n_heads} is ordinary multi-head attention).",
        ),
        "kv_head_width": (
            "查询头宽 {d_q}，K 头宽 {d_k}：q·k 要求两者相同。W_Q 的宽度应是 n_heads * d_head（{n_heads} * d_head），"
            "W_K、W_V 的宽度应是 n_kv_heads * d_head（{n_kv} * d_head）。",
            "query heads are {d_q} wide but key heads {d_k}: q·k needs the same width. W_Q must be "
            "n_heads * d_head wide ({n_heads} * d_head), W_K and W_V n_kv_heads * d_head ({n_kv} * d_head).",
        ),
        # ---------------------------------------------------------------- online softmax
        "one_row": (
            "online_softmax_steps 只接受一行分数（一维），得到的形状是 {shape}。",
            "online_softmax_steps takes one row of scores (1-D), got shape {shape}.",
        ),
        "causal_empty_row": (
            "mask 加上 causal=True 之后，第 {row} 行查询{batch}没有任何键可以看（共 {count} 行如此）："
            "它只能看键 0 到 {row}，而 mask 把它们全挡住了。每行至少要留下一个不在它之后的键，例如查询自己。",
            "mask together with causal=True leaves query row {row}{batch} with no key to attend to "
            "({count} such row(s) in all): it may only see keys 0..{row} and the mask hides all of "
            "them. Allow at least one key per row at or before the query, e.g. the query itself.",
        ),
        # ---------------------------------------------------------------- positions (lesson 12)
        "odd_width": (
            "{name} = {d} 是奇数：正弦位置编码和 RoPE 都把特征两两配对（一个 sin 配一个 cos，或一次旋转的两个坐标），"
            "所以宽度必须是偶数，例如 {even}。宽度为奇数的例子可以先补一个全 0 的特征：positions.with_even_width(example)。",
            "{name} = {d} is odd: sinusoidal encodings and RoPE pair the features up (a sine with a cosine, or the "
            "two coordinates of one rotation), so the width must be even, e.g. {even}. For an example of odd width, "
            "append a feature of zeros first: positions.with_even_width(example).",
        ),
        "rope_layout": (
            'layout 必须是 "interleaved"（相邻两个特征一对：(0, 1)、(2, 3)……，RoFormer 论文和 GPT-J 的写法）'
            '或 "half"（前后两半对应：(k, k + d/2)，即 rotate_half，GPT-NeoX 和 Hugging Face 的 LLaMA 的写法），'
            "得到的是 {layout!r}。",
            'layout must be "interleaved" (neighbouring features pair up: (0, 1), (2, 3), …, as in the RoFormer '
            'paper and GPT-J) or "half" (the two halves pair up: (k, k + d/2), rotate_half, as in GPT-NeoX and '
            "Hugging Face's LLaMA), got {layout!r}.",
        ),
        "positions_not_real": (
            "positions 必须是实数（通常是整数 0、1、2、…），得到的是 dtype {dtype}（类型 {type}）。",
            "positions must be real numbers (usually the integers 0, 1, 2, …), got dtype {dtype} (type {type}).",
        ),
        "positions_shape": (
            "positions 的形状是 {shape}，而 X 的形状是 {x_shape}：X 的每一行需要一个位置，形状应为 {want}"
            "（从位置 t 开始的各行：np.arange(t, t + {n})）。",
            "positions has shape {shape} but X has shape {x_shape}: every row of X needs one position, shape {want} "
            "(rows from position t on: np.arange(t, t + {n})).",
        ),
        "positions_one_vector": (
            "X 是一个向量（形状 {x_shape}），只需要一个位置，也就是一个数；但得到的 positions 形状是 {shape}。",
            "X is one vector (shape {x_shape}), so it takes one position, a single number; got positions of shape {shape}.",
        ),
        "unknown_encoding": (
            "encoding={encoding!r} 不是可选的位置编码；可选：{encodings}。",
            "encoding={encoding!r} is not a position encoding; choose one of {encodings}.",
        ),
        # ---------------------------------------------------------------- gradients
        "grad_shape": (
            "{grad} 的形状是 {grad_shape}，但 {value} 的形状是 {shape}：梯度和它对应的量形状必须相同。",
            "{grad} has shape {grad_shape} but {value} has shape {shape}: a gradient has one entry per "
            "entry of {value}, so the shapes must be equal.",
        ),
        "partner_n": (
            "n 至少为 2（每个词需要一个不是自己的搭档），得到的是 {n}。",
            "n must be at least 2 (each token needs a partner other than itself), got {n}.",
        ),
    }
)
