"""Every learner-facing message of the pictures (explorer labels and readouts, plot labels, errors),
Chinese and English side by side. Use: ``from .messages import msg`` then ``msg("key", ...)``; an
explorer uses ``msg.text("key", lang, ...)`` with the language it was built in.

Words live here; notation stays in the code (d_k, q·k, ×1.5, "4 × 256", "/ ln 4 = 1.39"). Numbers come
in already formatted (``svg.fmt``) so that both languages show them alike. A test checks that each
entry has both languages with the same {fields}.
"""

from attn_core.lang import Catalog

msg = Catalog(
    {
        # ================================================================ explorers: every explorer (base)
        "error_line": ("这个设置算不出结果：{error}", "This setting cannot be computed: {error}"),
        "static_note": (
            "静态图：当前设置。在 Jupyter 中运行这个单元格，就可以拖动控件。",
            "Static picture of the current setting. Run this cell in Jupyter to use the controls.",
        ),
        "needs_kernel": (
            "{name}：交互图（需要运行中的 Jupyter 内核）",
            "{name}: interactive figure (needs a running Jupyter kernel)",
        ),
        "in_brackets": ("（{text}）", " ({text})"),
        # ---------------------------------------------------------------- pictures in words (screen readers)
        "alt_text": ("{title}。{description}", "{title}. {description}"),
        "desc_sentences": ("{first}。{second}", "{first}. {second}"),
        "list_sep": ("、", ", "),
        "row_sep": ("；", "; "),
        "token_value": ("{token} {value}", "{token} {value}"),
        "row_values": ("{query} → {values}", "{query} → {values}"),
        # ---------------------------------------------------------------- shared controls and labels
        "control_query": ("查询（谁在问）", "query (who asks)"),
        "control_scaled": ("除以 √d_k", "divide by √d_k"),
        "control_key": ("把键“{token}”乘以", "multiply key {token} by"),  # en: the token with its gloss, 我 “I”
        "mode_scaled": ("除以 √d_k", "divided by √d_k"),
        "mode_unscaled": ("不缩放", "unscaled"),
        "axis_queries": ("查询（谁在问）", "queries (who asks)"),
        "axis_keys": ("键（被问的词）→", "keys (who is asked) →"),
        "legend_weight": ("注意力权重", "attention weight"),  # the one colour bar of every weight heatmap
        # ---------------------------------------------------------------- wrong settings and arguments
        "unknown_control": (
            "{explorer} 没有名为 {unknown} 的控件；它的控件是 {known}。",
            "{explorer} has no control named {unknown}; its controls are {known}.",
        ),
        "not_a_choice": (
            "{name}={value!r} 不是可选的值，可选的值是 {allowed}。",
            "{name}={value!r} is not one of the choices {allowed}.",
        ),
        "not_a_switch": (
            "{name} 是一个开关：请给 True 或 False，得到的是 {value!r}。",
            "{name} is a switch: give True or False, got {value!r}.",
        ),
        "not_a_number": ("{name} 必须是一个数，得到的是 {value!r}。", "{name} must be a number, got {value!r}."),
        "not_whole": ("{name} 必须是整数，得到的是 {value!r}。", "{name} must be a whole number, got {value!r}."),
        "outside_range": (
            "{name}={value!r} 超出了滑块的范围 {low} 到 {high}。",
            "{name}={value!r} is outside the slider's range {low} … {high}.",
        ),
        "not_an_example": (
            "example 必须是一个 attn_core.examples.Example（例如 four_words()），得到的是没有 .{attribute} 的 {type}。",
            "example must be an attn_core.examples.Example (e.g. four_words()), got {type} without .{attribute}.",
        ),
        "tokens_not_distinct": (
            "例子中的词必须互不相同，每个词才能对应一个滑块，得到的是 {tokens}。",
            "the example's tokens must be distinct to name one slider each, got {tokens}.",
        ),
        "not_a_token": (
            "{what}={token!r} 不是例子中的词；请从 {tokens} 中选一个。",
            "{what}={token!r} is not a token of the example; choose one of {tokens}.",
        ),
        "seed_not_int": ("seed 必须是整数，得到的是 {seed!r}。", "seed must be an integer, got {seed!r}."),
        # ================================================================ diagrams (diagrams.py)
        "dg_sentence_sep": ("。", ". "),
        "dg_step_1": ("投影", "project"),
        "dg_step_2": ("打分", "score"),
        "dg_step_3": ("缩放", "scale"),
        "dg_step_4": ("softmax", "softmax"),
        "dg_step_5": ("加权求和", "weighted sum"),
        "dg_steps_title": ("自注意力的五个步骤和每一步的形状", "The five steps of self-attention and their shapes"),
        "dg_steps_heading": (
            "五个步骤（形状来自 {n} 个词的例子）",
            "The five steps (shapes of the {n}-word example)",
        ),
        "dg_steps_lit": ("本课：第 {step} 步（{name}）", "This lesson: step {step}, {name}"),
        "dg_steps_desc": (
            "从左到右：X 经第 1 步投影成 Q、K、V；第 2 步 QKᵀ；第 3 步除以 √{d_k}，得 S；第 4 步 softmax，得 A；"
            "第 5 步 A 乘 V，得 O。形状：{shapes}",
            "Left to right: step 1 projects X to Q, K and V; step 2 QKᵀ; step 3 divides by √{d_k}, giving S; "
            "step 4 softmax, giving A; step 5 multiplies A by V, giving O. Shapes: {shapes}",
        ),
        "dg_row_title": ("“{token}”这一行，一步一步", "The “{token}” row, step by step"),
        "dg_row_heading": ("查询 q_{token} = {q}，问四个键", "query q_{token} = {q} asks the four keys"),
        "dg_row_key": ("键", "key"),
        "dg_row_weighted": ("权重 × v", "weight × v"),
        "dg_row_sum": ("相加 = o_{token}", "sum = o_{token}"),
        "dg_row_sum_one": ("权重之和 {total}", "weights sum to {total}"),
        "dg_row_note": (
            "每一行：q·k 是 {d_k} 对数相乘再相加，再除以 √{d_k} ≈ {sqrt}；\nsoftmax 让权重都为正、和为 1；输出是“权重 × 值向量”之和。\n"
            "数字都四舍五入到两位小数；和是用没有舍入的值算的，\n所以打印出来的各项加起来可能差 0.01。",
            "Each row: q·k adds {d_k} products, then ÷ √{d_k} ≈ {sqrt};\nsoftmax makes the weights positive with sum 1; "
            "the output is the sum of weight × value.\n"
            "Numbers are rounded to 2 decimals; the sum is of the unrounded values,\nso the printed parts may add up to 0.01 more or less.",
        ),
        "dg_row_desc": (
            "查询 q_{token} = {q}。它和四个键的点积 q·k：{scores}；除以 √{d_k} 后做 softmax，权重：{weights}；"
            "权重乘各自的值向量再相加，得到输出 o_{token} = {o}",
            "Query q_{token} = {q}. Its dot products q·k with the four keys: {scores}; divided by √{d_k} and put "
            "through softmax, the weights: {weights}; each weight times its value vector, added up, gives the "
            "output o_{token} = {o}",
        ),
        "dg_mh_title": (
            "多头注意力：切分、每个头各算一遍、拼接、乘 W_O",
            "Multi-head attention: split, attend per head, concat, W_O",
        ),
        "dg_mh_col_0": ("输入", "input"),
        "dg_mh_col_1": ("投影", "project"),
        "dg_mh_col_2": ("切成 {n_heads} 个头", "split into\n{n_heads} heads"),
        "dg_mh_col_3": ("每个头的权重", "weights\nper head"),
        "dg_mh_col_4": ("每个头的输出", "output\nper head"),
        "dg_mh_col_5": ("并排拼接", "concat"),
        "dg_mh_col_6": ("乘 W_O", "times W_O"),
        "dg_mh_qkv_here": ("（这里 = n×d_model）", "(= n×d_model here)"),
        "dg_mh_note": (
            "每个头宽 d_head = {d_model} / {n_heads} = {d_head}，各自走一遍第 2–5 步，缩放除以 √d_head。",
            "Each head is d_head = {d_model} / {n_heads} = {d_head} wide and runs steps 2–5 on its own, "
            "scaled by √d_head.",
        ),
        "dg_mh_desc": (
            "从左到右：X（{X}）投影成 Q、K、V（各 {QKV}）；切成 {n_heads} 个头，每个头的 Q、K、V 是 {head}"
            "（d_head = {d_head}）；每个头算出自己的权重 A（{A}）和输出（{O_head}）；{n_heads} 个输出并排拼接成 "
            "{concat}，再乘 W_O 得到输出 O（{out}），和 X 一样宽 d_model = {d_model}",
            "Left to right: X ({X}) is projected to Q, K, V ({QKV} each); split into {n_heads} heads, each head's "
            "Q, K, V is {head} (d_head = {d_head}); each head computes its own weights A ({A}) and output "
            "({O_head}); the {n_heads} outputs side by side make {concat}, times W_O gives the output O ({out}), "
            "as wide as X, d_model = {d_model}",
        ),
        "dg_block_title": ("一层编码器：post-LN 与 pre-LN", "One encoder layer: post-LN and pre-LN"),
        "dg_block_post": ("post-LN（原始 Transformer）", "post-LN (the original Transformer)"),
        "dg_block_pre": ("pre-LN（例如 GPT-2）", "pre-LN (e.g. GPT-2)"),
        "dg_block_post_formula": ("H = LN(X + MHA(X))，Y = LN(H + FFN(H))", "H = LN(X + MHA(X)), Y = LN(H + FFN(H))"),
        "dg_block_pre_formula": ("H = X + MHA(LN(X))，Y = H + FFN(LN(H))", "H = X + MHA(LN(X)), Y = H + FFN(LN(H))"),
        "dg_block_ln": ("层归一化", "LayerNorm"),
        "dg_block_post_note": ("层归一化在残差相加之后", "LayerNorm after the residual sum"),
        "dg_block_pre_note": (
            "层归一化在子层的输入上，\n残差路上没有归一化",
            "LayerNorm on each sublayer's input,\nnone on the residual path",
        ),
        "dg_block_mha": ("多头自注意力（{n_heads} 头）", "{n_heads}-head self-attention"),
        "dg_block_ffn": ("前馈网络 {d_model}→{d_ff}→{d_model}", "FFN {d_model}→{d_ff}→{d_model}"),
        "dg_block_residual": ("残差", "residual"),
        "dg_block_final_note": ("整个堆叠只做一次：\n在最后一层之后", "once per stack:\nafter its last block"),
        "dg_block_final_desc": (
            "。pre-LN 的堆叠在最后一层之后还有一次层归一化（虚线框），不在每一层里",
            ". A pre-LN stack adds one more LayerNorm after its last block (dashed box), not one per block",
        ),
        "dg_block_desc": (
            "左：post-LN，X 经多头自注意力，加上 X（残差），再做层归一化，得 H；H 经前馈网络，加上 H，再做层归一化，得 Y。"
            "右：pre-LN，先对 X 做层归一化再进多头自注意力，结果加上 X 得 H；先对 H 做层归一化再进前馈网络，结果加上 H 得 Y。"
            "X、H、Y 和两个子层的输出都是 {shape}；只有前馈网络的中间层变宽到 {wide}（d_ff = {d_ff}）",
            "Left: post-LN, X goes through multi-head self-attention, X is added back (residual), then LayerNorm gives H; "
            "H goes through the feed-forward network, H is added back, then LayerNorm gives Y. Right: pre-LN, LayerNorm "
            "first, then multi-head self-attention, plus X gives H; LayerNorm of H, then the feed-forward network, plus H "
            "gives Y. X, H, Y and both sublayers' outputs are {shape}; only the feed-forward network's middle layer is "
            "wider, {wide} (d_ff = {d_ff})",
        ),
        "dg_mask_title": ("因果掩码与输入、目标错开一位", "The causal mask and the input/target shift"),
        "dg_mask_heading": ("因果掩码：True 表示可以看", "Causal mask: True = may look"),
        "dg_mask_keys": ("键（被问的词）→", "keys (who is asked) →"),
        "dg_mask_queries": ("查询 ↓", "queries ↓"),
        "dg_mask_true": ("True：可以看，分数照常", "True: may look, score as is"),
        "dg_mask_false": (
            "False：挡住，分数设为 −∞，softmax 后权重为 0",
            "False: masked, score set to −∞, weight 0 after softmax",
        ),
        "dg_mask_row": ("“{token}”看{sees}", "{token} sees {sees}"),
        "dg_shift_heading": ("训练时输入和目标错开一位", "In training the target is the input shifted by one"),
        "dg_shift_position": ("位置", "position"),
        "dg_shift_input": ("输入", "input"),
        "dg_shift_target": ("要预测", "predict"),
        # ---------------------------------------------------------------- diagrams of lessons 13–14 (diagrams_decoding)
        "dgd_bytes": ("{value} {unit}", "{value} {unit}"),
        "dgd_head": ("头 {h}", "head {h}"),
        "dgd_inproj_title": (
            "nn.MultiheadAttention 的 in_proj_weight：W_Q、W_K、W_V 转置后上下叠放",
            "nn.MultiheadAttention's in_proj_weight: W_Q, W_K, W_V transposed and stacked",
        ),
        "dgd_inproj_heading": (
            "in_proj_weight 的每一行是一个输出特征：先是 q 的，再是 k 的，最后是 v 的",
            "Each row of in_proj_weight is one output feature: q's first, then k's, then v's",
        ),
        "dgd_inproj_rows": ("行 = 输出特征，列 = 输入特征", "rows = output features, columns = input"),
        "dgd_inproj_cols": ("前几课的写法：列 = 输出特征，头切的是列", "the course's way: heads cut the columns"),
        "dgd_inproj_desc": (
            "in_proj_weight（{shape}）从上到下是 W_Qᵀ、W_Kᵀ、W_Vᵀ 三块，每块 {d} 行；每块的行又按 {n_heads} 个头切开，"
            "每个头 {d_head} 行。PyTorch 算 x·Wᵀ，所以前几课的 W_Q（{w_q}）就是 in_proj_weight[:{d}].T，它的列按头切开。"
            "方格里是四个词的例子里的权重",
            "in_proj_weight ({shape}) holds, top to bottom, the blocks W_Qᵀ, W_Kᵀ, W_Vᵀ of {d} rows each; each "
            "block's rows are cut into {n_heads} heads, {d_head} row(s) each. PyTorch computes x·Wᵀ, so the course's W_Q "
            "({w_q}) is in_proj_weight[:{d}].T, whose columns the heads cut. The cells hold the four-word example's "
            "weights",
        ),
        "dgd_inproj_note": (
            "PyTorch 的线性层算 x·Wᵀ，前几课算 x·W：同一个投影，PyTorch 的矩阵一行是一个输出特征，前几课的矩阵一列是一个。\n"
            "方阵忘了转置，形状照样对得上，数却全错（第 2 节）。",
            "PyTorch's linear layers compute x·Wᵀ, the course x·W: one projection, an output feature a row\n"
            "in one, a column in the other. Forget the transpose of a square matrix: no error, wrong numbers.",
        ),
        "dgd_kv_title": (
            "KV 缓存：每一步追加一行 k、v，新词元的 q 只和缓存算分数；旁边是每步重算",
            "The KV cache: each step appends a k, v row and scores the new q against the cache; beside it, recomputing",
        ),
        "dgd_kv_cached_heading": ("用 KV 缓存", "With the KV cache"),
        "dgd_kv_recompute_heading": ("每步重算", "Recomputing every step"),
        "dgd_kv_cached_sub": (
            "只投影新词元，把它的 k、v 接到缓存末尾，\n再用它的 q 对缓存里所有的 k 算分数",
            "project the new token only, append its k and v,\nthen score its q against every cached k",
        ),
        "dgd_kv_recompute_sub": (
            "整个前缀的因果自注意力再做一遍：\nt × t 个分数，只有最后一行是新的",
            "causal self-attention of the whole prefix again:\nt × t scores, only the last row is new",
        ),
        "dgd_position": ("位置", "position"),
        "dgd_step": ("第 {t} 步", "step {t}"),
        "dgd_new_token": ("新词元：{token}", "new token: {token}"),
        "dgd_scores": ("q·Kᵀ → 分数 1×{n}", "q·Kᵀ → scores 1×{n}"),
        "dgd_cache_shape": ("缓存 K {K}，V {V}", "cache K {K}, V {V}"),
        "dgd_append": ("← 追加 k、v", "← k, v appended"),
        "dgd_grid": ("分数 {grid}", "scores {grid}"),
        "dgd_grid_new": ("橙色：新的一行", "orange: the new row"),
        "dgd_grid_again": ("灰色：重算，结果不变", "grey: again, unchanged"),
        "dgd_kv_desc": (
            "逐个生成四个词，左边用 KV 缓存，右边每步重算。{steps}。两边的输出相同",
            "The four words generated one at a time, with the KV cache on the left and recomputing on the right. "
            "{steps}. Both give the same outputs",
        ),
        "dgd_kv_step_desc": (
            "第 {t} 步（{token}）：缓存 K 变成 {K}，新的 q 得到 1×{scores} 个分数，重算得到 {grid} 个分数",
            "step {t} ({token}): the cache K becomes {K}, the new q gets 1×{scores} scores, recomputing {grid}",
        ),
        "dgd_kv_note": (
            "第 t 步：用缓存算 t 个分数，每步重算要算 t×t 个（倍数恰好是 t，第 3 节）。\n"
            "多层模型没有缓存时，除最后一层外每层都要重算所有行：下一层的 k、v 来自这一层每个位置的输出。",
            "Step t: the cache scores t keys, recomputing t×t scores (t times as many, section 3).\n"
            "Without a cache every layer but the last recomputes every row: the next layer's k, v come from "
            "them.",
        ),
        "dgd_gqa_title": ("MQA 与 GQA：查询头共享 K/V 头", "MQA and GQA: query heads sharing K/V heads"),
        "dgd_gqa_heading": (
            "{n_heads} 个查询头；每条线把一个查询头连到为它服务的 K/V 头",
            "{n_heads} query heads; each line joins a query head to the K/V head that serves it",
        ),
        "dgd_gqa_bar_heading": (
            "每个词元每层的缓存\n（d_head = {d_head}，每个数 {bytes} 字节）",
            "cache per token per layer\n(d_head = {d_head}, {bytes} bytes a number)",
        ),
        "dgd_gqa_row_mha": (
            "多头注意力：{g} 个 K/V 头，每个查询头一个",
            "multi-head: {g} K/V heads, one per query head",
        ),
        "dgd_gqa_row_gqa": (
            "GQA：{g} 个 K/V 头，每个服务 {r} 个查询头",
            "GQA: {g} K/V heads, each serving {r} query heads",
        ),
        "dgd_gqa_row_mqa": ("MQA：1 个 K/V 头，{r} 个查询头共用", "MQA: 1 K/V head shared by all {r} query heads"),
        "dgd_gqa_row_desc": ("{row}，缓存 {size}", "{row}, cache {size}"),
        "dgd_gqa_share": ("（多头的 {part}）", " ({part} of multi-head)"),
        "dgd_gqa_desc": (
            "{n_heads} 个查询头配不同个数的 K/V 头：{rows}。每个词元每层的缓存按 d_head = {d_head}、每个数 {bytes} 字节计算",
            "{n_heads} query heads with different numbers of K/V heads: {rows}. The cache per token per layer at "
            "d_head = {d_head}, {bytes} bytes a number",
        ),
        "dgd_gqa_note": (
            "缓存与 K/V 头数成正比，是多头注意力的（K/V 头数 ÷ 查询头数）倍；\n查询头的个数、权重 A 和输出 O 的形状都不变。",
            "The cache is proportional to the K/V heads: (K/V heads ÷ query heads) of multi-head's;\n"
            "the number of query heads and the shapes of the weights A and the output O stay the same.",
        ),
        "dg_shift_note": (
            "位置 i 看得见第 0 到 i 个词；\n它的答案是第 i+1 个词，正是被挡住的第一个",
            "Position i sees words 0…i;\nits answer is word i+1, the first one masked",
        ),
        "dg_mask_desc": (
            "{n} × {n} 的因果掩码，行是查询，列是键：{true} 个 True（可以看），{false} 个 False（挡住，分数设为 −∞，"
            "softmax 后权重为 0）。每一行：{allowed}。右边：训练时位置 i 的输入是第 i 个词，要预测第 i+1 个词：{pairs}",
            "A {n} × {n} causal mask, rows are queries, columns keys: {true} True (may look), {false} False (masked, score "
            "set to −∞, weight 0 after softmax). Each row: {allowed}. Right: in training, position i's input is word i "
            "and its target word i+1: {pairs}",
        ),
        # ================================================================ 1. why divide by √d_k (dk.py)
        "dk_title": ("d_k 与 softmax 的尖锐程度", "d_k and how sharp softmax gets"),
        "dk_heading": (
            "随机向量：查询“{query}”对 4 个键（词只是标签），d_k = {d_k}，{mode}",
            "random vectors: {query} vs 4 keys, d_k = {d_k}, {mode}",
        ),
        "dk_scores": ("进入 softmax 的分数 {formula}", "scores into softmax {formula}"),
        "dk_weights": ("注意力权重（和为 1）", "attention weights (sum 1)"),
        "dk_axis_fixed": (
            "纵轴固定 ±{top}：不随 d_k 和缩放改变",
            "one axis ±{top} for every d_k, scaled or not",
        ),
        "dk_entropy_gauge": ("熵（越小越集中）", "entropy (smaller = more peaked)"),
        "dk_gradient_gauge": ("softmax 梯度大小（与均匀权重时相比）", "softmax gradient size (vs uniform weights)"),
        "dk_max_weight": (
            "最大权重 {weight}（均匀时 0.25，全部集中在一个键上时为 1）",
            "max weight {weight} (0.25 if uniform, 1 if all on one key)",
        ),
        "dk_entropy": ("熵 {entropy}，最大可能值 ln 4 = {most}", "entropy {entropy}, at most ln 4 = {most}"),
        "dk_gradient": (
            "softmax 梯度大小 ‖J‖（Frobenius 范数）= {gradient}，是均匀权重时的 {percent}",
            "softmax gradient size ‖J‖ (Frobenius norm) = {gradient}, {percent} of the uniform-weights value",
        ),
        "dk_spread": (
            "这 4 个原始分数 q·k 的标准差 {std}（只有 4 个数，只能粗看）；维数的平方根 √{d_k} = {sqrt_d_k}",
            "std of these 4 raw scores q·k {std} (only 4 numbers: a rough guide); the square root of the dimension √{d_k} = {sqrt_d_k}",
        ),
        "dk_desc": (
            "查询和键都是随机向量，例词只是标签。左边的条形图是进入 softmax 的分数：{scores}；右边是 softmax 给出的权重：{weights}。下面两条量表：熵 {entropy}（最大 {most}），softmax 梯度大小是均匀权重时的 {percent}。",
            "The query and keys are random vectors; the example's words are only labels. Bars on the left: the scores going into softmax: {scores}; on the right: the weights softmax gives: {weights}. Two meters below: entropy {entropy} (at most {most}), and the softmax gradient at {percent} of its size for uniform weights.",
        ),
        "dk_stuck": (
            "几乎全部权重落在一个键上，梯度接近 0：训练时这一行几乎学不动。",
            "Nearly all weight sits on one key and the gradient is close to 0: this row barely learns.",
        ),
        # ================================================================ 2. enlarge one key (keys.py)
        "key_title": ("放大一个键", "enlarge one key"),
        "key_heading": (
            "“{query}”的注意力权重：每个键乘上滑块的倍数",
            "weights of {query}: each key times its slider",
        ),
        "key_ghost": ("所有键 ×1 时", "all keys ×1"),
        "key_weights": ("权重（与默认相比）：{weights}", "weights (vs default): {weights}"),
        "key_sum": (
            "权重之和 = {total}：一个键多拿，其余的键就少拿。",
            "sum of weights = {total}: when one key takes more, the others get less.",
        ),
        "key_desc": (
            "条形图：“{query}”给每个键的权重（括号里是键的倍数）：{weights}；虚线框是所有键 ×1 时的权重：{defaults}。",
            "Bars: the weight {query} gives each key (its multiplier in brackets): {weights}; dashed outlines: the weights with every key ×1: {defaults}.",
        ),
        "key_negative": (
            "“{token}”的分数是负的：放大这个键让分数更负，它的权重反而变小。",
            "{token} has a negative score: enlarging its key makes the score more negative, so its weight falls.",
        ),
        # ================================================================ 3. the whole pipeline (pipeline.py)
        "pipeline_title": ("自注意力全流程", "self-attention, all steps"),
        "pipeline_heading": (
            "d_k = {d_k}，{mode}；黑框 = 查询“{query}”这一行",
            "d_k = {d_k}, {mode}; black outline = the row of query {query}",
        ),
        "pipeline_weights": ("注意力权重 A", "attention weights A"),
        "pipeline_row": ("“{query}”这一行", "row of {query}"),
        "pipeline_ghost": ("键都 ×1", "keys ×1"),
        "pipeline_shapes": ("每一步的形状（来自轨迹 Trace）", "shape of every step (from the Trace)"),
        "pipeline_shapes_header": ("步骤|符号|形状|含义", "step|symbol|shape|meaning"),
        "pipeline_row_weights": ("“{query}”的权重：{weights}", "weights of {query}: {weights}"),
        "pipeline_favourite": (
            "最关注“{favourite}”（{weight}）；这一行之和 {total}",
            "attends most to {favourite} ({weight}); row sum {total}",
        ),
        "pipeline_favourite_tied": (
            "最关注的词并列：{tied}（都是 {weight}）；这一行之和 {total}",
            "attends most to {tied}, tied ({weight} each); row sum {total}",
        ),
        "pipeline_tied_word": ("“{word}”", "{word}"),
        "pipeline_desc": (
            "热力图：{n}×{n} 的注意力权重 A，行是查询（谁在问），列是键（被问的词），颜色越亮权重越大；黑框标出“{query}”这一行：{weights}。右边的条形图画出同一行（括号里是键的倍数），虚线框是键都 ×1 时：{ghost}",
            "Heatmap: the {n}×{n} attention weights A, rows = queries (who asks), columns = keys (who is asked), brighter = larger; a black outline marks the row of “{query}”: {weights}. The bars on the right show the same row (key multipliers in brackets), dashed outlines with every key ×1: {ghost}",
        ),
        "pipeline_desc_shapes": (
            "下面的表是每一步的形状：{shapes}。",
            "The table below gives the shape of every step: {shapes}.",
        ),
        "pipeline_extra_columns": (
            "前 {own} 列是例子自己的 W_Q、W_K，其余 {extra} 列是随机补上的（固定种子）。",
            "The first {own} columns are the example's W_Q, W_K; the other {extra} are seeded random.",
        ),
        # ================================================================ 4. masks (masks.py)
        "mask_title": ("注意力掩码", "attention masks"),
        "mask_control_mode": ("掩码类型", "mask"),
        "mask_control_padding": ("末尾填充词元数", "padding tokens at the end"),
        "mask_mode_none": ("无掩码", "none"),
        "mask_mode_causal": ("因果掩码", "causal"),
        "mask_mode_padding": ("填充掩码", "padding"),
        "mask_heading_none": ("无掩码：每个词都能看所有词", "no mask: every token sees every token"),
        "mask_heading_causal": ("因果掩码：只能看自己和前面的词", "causal: a token sees itself and earlier ones"),
        "mask_heading_padding": (
            "填充掩码：最后 {padding} 个词是填充，谁都不看它们",
            "padding: the last {padding} tokens are padding, nobody attends to them",
        ),
        "mask_heading_causal_padding": (
            "因果掩码加填充掩码：只能看自己和前面的词，最后 {padding} 个词是填充",
            "causal and padding: a token sees itself and earlier ones; padding tokens at the end: {padding}",
        ),
        "mask_legend_masked": ("被挡住：−∞ → 权重 0", "masked: −∞ → weight 0"),
        "mask_legend_dropped": (
            "灰色的行：填充词元作为查询，照样算出权重，输出被丢弃",
            "grey row: a padding query, its weights computed, its output dropped",
        ),
        "mask_masked_cells": (
            "被挡住的方格：{count} 个（softmax 之前设为 −∞，权重恰好是 0）",
            "masked cells: {count} (set to −∞ before softmax, weight exactly 0)",
        ),
        "mask_row_sums": ("每行之和：{sums}", "row sums: {sums}"),
        "mask_desc": (
            "热力图：{n}×{n} 的注意力权重，行是查询（谁在问），列是键（被问的词），颜色越亮权重越大；灰色划线的方格被挡住（{count} 个，权重为 0）。每一行没被挡住的权重：{rows}。",
            "Heatmap: the {n}×{n} attention weights, rows = queries (who asks), columns = keys (who is asked), brighter = larger; grey struck-through cells are masked ({count} of them, weight 0). The unmasked weights of each row: {rows}.",
        ),
        "mask_padding_rows": (
            "灰色的词是填充词元。它们作为查询的那几行照样会算出来，但之后会被丢弃。",
            "Grey tokens are padding. Their own rows (as queries) are computed but thrown away later.",
        ),
        "mask_no_key": (
            "{tokens}：这些行的每个键都被挡住了，attn_core 在这里报 ValueError。\n"
            "如果照常计算，全是 −∞ 会得到 NaN，换成很大的负数（如 -1e9）则悄悄变成均匀权重。\n"
            "实际的实现要么让每一行至少看得到一个键（例如它自己），要么用很大的负数并丢弃这些行的输出。",
            "{tokens}: every key of these rows is masked.\n"
            "attn_core raises ValueError; by hand, all −∞ gives NaN and -1e9 equal weights.\n"
            "Real models leave each row a key (e.g. itself), or use -1e9 and drop the rows.",
        ),
        "mask_row_empty": ("没有可看的键", "no key to attend to"),
        # ================================================================ 5. heads (heads.py)
        "head_title": ("多头注意力", "multi-head attention"),
        "head_control": ("头", "head"),
        "head_heading": (
            "{n_heads} 个头，每个头宽 {width}；黑框 = 查询“{query}”",
            "{n_heads} heads of width {width}; black outline = query “{query}”",
        ),
        "head_name": ("头 {head}", "head {head}"),
        "head_average": ("{n_heads} 个头的平均", "average of {n_heads} heads"),
        "head_average_name": ("平均", "average"),
        "head_favourite": (
            "{who}：“{query}”最关注“{favourite}”（{weight}）",
            "{who}: “{query}” attends most to “{favourite}” ({weight})",
        ),
        "head_uniform": (
            "{who}：“{query}”这一行是均匀的，每个键都是 {weight}",
            "{who}: the row of “{query}” is uniform, {weight} on every key",
        ),
        "head_no_numbers": (
            "方格太小，不写数字（{n} × {n}）；“{query}”这一行的权重写在图下",
            "no numbers in the cells ({n} × {n} is too small to read them); the row of “{query}” is written below",
        ),
        "head_row_weights": ("{who}，“{query}”这一行：{weights}", "{who}, the row of “{query}”: {weights}"),
        "head_desc": (
            "两张热力图，行是查询（谁在问），列是键（被问的词），颜色越亮权重越大：左边是头 {head}，右边是 {n_heads} 个头的平均；黑框标出“{query}”这一行。头 {head} 里“{query}”的权重：{weights}。平均：{average}。",
            "Two heatmaps, rows = queries (who asks), columns = keys (who is asked), brighter = larger: head {head} on the left, the average of {n_heads} heads on the right; a black outline marks the row of “{query}”. In head {head}, “{query}” gives: {weights}. Average: {average}.",
        ),
        "heads_not_divisor": (
            "n_heads={n_heads!r} 必须能整除 d_model = {d_model}：这个探索器按 attn_core 的约定，把宽 d_model 的投影"
            "平分给各个头（这是约定，不是注意力本身的要求，见第 8 课）；请从 {divisors} 中选一个。",
            "n_heads={n_heads!r} must divide d_model = {d_model}: following attn_core's convention, this explorer "
            "shares a projection of width d_model equally among the heads (a convention, not something attention "
            "itself requires; see Lesson 8); choose one of {divisors}.",
        ),
        "head_panel": ("头 {head}（{which}）", "head {head} ({which})"),
        "head_projections_designed": ("第 8 课设计的头", "lesson 8's designed heads"),
        "head_projections_random": ("随机投影", "random projections"),
        "head_control_projections": ("投影", "projections"),
        # ================================================================ 6. word order (positions.py)
        "pos_title": ("词序与位置编码", "word order and position encodings"),
        "pos_control_encoding": ("位置编码", "encoding"),
        "pos_encoding_none": ("不加位置", "none"),
        "pos_encoding_sinusoidal": ("正弦编码", "sinusoidal"),
        "pos_encoding_rope": ("RoPE 旋转", "RoPE"),
        "pos_control_i": (
            "“{token}”的位置 i（句中是 {position}）",
            "position i of “{token}” (in the sentence: {position})",
        ),
        "pos_control_j": (
            "“{token}”的位置 j（句中是 {position}）",
            "position j of “{token}” (in the sentence: {position})",
        ),
        "pos_control_order": ("打乱成", "reorder to"),
        "pos_heading_none": (
            "不加位置：“{query}”在原句的位置 i = {i} 提问，“{key_word}”在 j = {j}（从 0 数起）",
            "no positions: “{query}” asks at i = {i} in the sentence, “{key_word}” answers at j = {j} (from 0)",
        ),
        "pos_heading_sinusoidal": (
            "正弦位置编码：“{query}”在原句的位置 i = {i} 提问，“{key_word}”在 j = {j}（从 0 数起）",
            "sinusoidal: “{query}” asks at i = {i} in the sentence, “{key_word}” answers at j = {j} (from 0)",
        ),
        "pos_heading_rope": (
            "RoPE：“{query}”在原句的位置 i = {i} 提问，“{key_word}”在 j = {j}（从 0 数起）",
            "RoPE: “{query}” asks at i = {i} in the sentence, “{key_word}” answers at j = {j} (from 0)",
        ),
        "pos_curve_title": (
            "q·k（未缩放）：“{query}”在 i + s，“{key_word}”在 j + s",
            "q·k (unscaled): “{query}” at i + s, “{key_word}” at j + s",
        ),
        "pos_curve_axis": ("s：两个位置一起后移的步数", "s: both positions moved on by s"),
        "pos_dial_none": ("第 0 对特征：不转", "feature pair 0: no turning"),
        "pos_dial_sinusoidal": ("位置编码的第 0 对 (sin p, cos p)", "pair 0 of the encoding (sin p, cos p)"),
        "pos_dial_rope": ("q、k 的第 0 对：按位置旋转", "pair 0 of q and k, turned by position"),
        "pos_hand": ("{name}（位置 {position}）", "{name} at {position}"),
        "pos_dial_note_none": ("i、j 怎么变，两根指针都不动", "the hands stay put whatever i and j"),
        "pos_dial_note_sinusoidal": (
            "位置 p 的指针转到 p 弧度，\n夹角只看 j − i = {offset}",
            "the hand of position p points at p radians:\nthe angle is set by j − i = {offset}",
        ),
        "pos_dial_note_rope": (
            "q 转 i 弧度，k 转 j 弧度（虚线：转之前），\n夹角只随 j − i = {offset} 变",
            "q turns by i radians, k by j (dashed: before);\nthe angle moves only with j − i = {offset}",
        ),
        "pos_token_at": ("{token}（{position}）", "{token} ({position})"),
        "pos_before": ("原句：{sentence}", "original: {sentence}"),
        "pos_after": ("打乱后：{sentence}（按原来的词序排好）", "reordered: {sentence} (in the original word order)"),
        "pos_axis_keys_by_word": ("键（按原来的词序）→", "keys (original word order) →"),
        "pos_score": (
            "“{query}”在位置 {i}、“{key_word}”在位置 {j}（j − i = {offset}）：q·k = {score}",
            "“{query}” at position {i}, “{key_word}” at {j} (j − i = {offset}): q·k = {score}",
        ),
        "pos_shift_none": (
            "两个位置一起后移 0 到 {shifts} 步，分数一直是 {score}：不加位置，分数和位置毫无关系。",
            "Moving both positions on by 0 … {shifts}, the score stays {score}: without positions it ignores them.",
        ),
        "pos_shift_sinusoidal": (
            "两个位置一起后移 0 到 {shifts} 步，分数在 {low} 与 {high} 之间变：正弦编码加在投影之前，q·k 不只取决于 j − i。",
            "Moving both positions on by 0 … {shifts}, the score goes between {low} and {high}: the encoding is added "
            "before the projections, so q·k depends on more than j − i.",
        ),
        "pos_shift_rope": (
            "两个位置一起后移 0 到 {shifts} 步，分数一直是 {score}：RoPE 让 q·k 只取决于 j − i。",
            "Moving both positions on by 0 … {shifts}, the score stays {score}: with RoPE, q·k depends only on j − i.",
        ),
        "pos_reorder_same": (
            "打乱成“{sentence}”：每个词的权重都没变（最大变化 {change}），只是行和列换了位置。",
            "Reordered to “{sentence}”: no word's weights change (largest change {change}); only rows and columns moved.",
        ),
        "pos_reorder_differs": (
            "打乱成“{sentence}”：每个词的权重都变了（最大变化 {change}）：现在注意力看得见词序。",
            "Reordered to “{sentence}”: the words' weights change (largest change {change}): attention now sees the order.",
        ),
        # ================================================================ 7. the KV cache (kv.py, helper explorers-b)
        "kv_title": ("KV 缓存的大小与每个词元的时间", "the KV cache's size and the time per token"),
        "kv_control_model": ("模型", "model"),
        "kv_control_kv_heads": ("K/V 头数", "K/V heads"),
        "kv_control_context": ("上下文长度（词元）", "context (tokens)"),
        "kv_control_bytes": ("每个数的字节数（权重和缓存）", "bytes per value (weights and cache)"),
        "kv_tokens": ("{n} 个词元", "{n} tokens"),
        "kv_tokens_one": ("1 个词元", "1 token"),
        "kv_kv_heads": ("{n} 个 K/V 头", "{n} K/V heads"),
        "kv_kv_heads_one": ("1 个 K/V 头", "1 K/V head"),
        "kv_bar_value": ("{kv_heads} 个头 {value}", "{kv_heads}: {value}"),
        "kv_time_bound": ("{time}{bound}", "{time} {bound}"),
        "kv_time_scale": ("对数刻度（每个刻度 ×10）", "log scale (×10 a tick)"),
        "kv_bytes_1": ("1（8 位）", "1 (8-bit)"),
        "kv_bytes_2": ("2（float16）", "2 (float16)"),
        "kv_bytes_4": ("4（float32）", "4 (float32)"),
        "kv_control_bandwidth": ("假设：内存带宽 GB/s", "assumed memory bandwidth, GB/s"),
        "kv_control_peak": ("假设：峰值 TFLOP/s", "assumed peak, TFLOP/s"),
        "kv_heading": (
            "{model}：{n_heads} 个查询头、{kv_heads} 个 K/V 头，{tokens}（上限 {max}）",
            "{model}: {n_heads} query heads, {kv_heads} K/V heads, {tokens} (max {max})",
        ),
        "kv_heading_changed": (
            "{model}，改动：{kv_heads_text}（原为 {own}），{tokens}（上限 {max}）",
            "{model}, changed: {kv_heads_text} (own {own}), {tokens} (max {max})",
        ),
        "kv_cache_panel": ("一个序列（{tokens}）的缓存", "the cache of one sequence of {tokens}"),
        "kv_heads_mha": ("{kv_heads} 个 K/V 头（多头）", "{kv_heads} K/V heads (multi-head)"),
        "kv_heads_gqa": ("{kv_heads} 个 K/V 头（GQA）", "{kv_heads} K/V heads (GQA)"),
        "kv_heads_mqa": ("1 个 K/V 头（MQA）", "1 K/V head (MQA)"),
        "kv_time_panel": ("生成一个词元的时间下界（Roofline 模型）", "one generated token, a lower bound (Roofline)"),
        "kv_time_cached": ("用缓存", "with the cache"),
        "kv_time_recompute": ("每步重算所有行", "recomputing every row"),
        "kv_memory_bound": ("（受内存带宽限制）", "(memory-bound)"),
        "kv_compute_bound": ("（受算力限制）", "(compute-bound)"),
        "kv_assumption": (
            "假设：带宽 {bandwidth} GB/s、峰值 {peak} TFLOP/s（{source}），计算和访存完全重叠；\n"
            "只计注意力层：用缓存时读四个投影的权重和缓存各一次；重算时读权重一次、不读缓存，\n"
            "K、V 由所有词元的激活值重新乘出来（激活值的读写、前馈网络、归一化、嵌入和 softmax 都不计，所以真实的一步更慢）。",
            "Assumed: {bandwidth} GB/s, {peak} TFLOP/s ({source}), overlapping perfectly;\n"
            "attention layers only: with the cache, the four projections' weights and the cache read once each; recomputing,\n"
            "the weights read once and no cache: K and V are multiplied again from every token's activations (activations, feed-forward, norms, embeddings, softmax not counted, so a real step is slower).",
        ),
        "kv_source_a100": ("A100 80GB SXM 数据手册的数", "the A100 80GB SXM datasheet's"),
        "kv_source_own": (
            "你的假设，不是 A100 80GB SXM 数据手册的数",
            "your assumption, not the A100 80GB SXM datasheet's",
        ),
        "kv_size": ("{value} {unit}", "{value} {unit}"),
        "kv_cache_line": (
            "每个词元 {per_token}；{tokens} {cache}（{n_heads} 个 K/V 头的多头注意力是 {full}）",
            "per token {per_token}; {tokens} {cache} ({n_heads} K/V heads, multi-head: {full})",
        ),
        "kv_cost_line_cached": (
            "用缓存：{mads} 次乘加，读 {bytes} → 至少 {time}",
            "with the cache: {mads} multiply-adds, {bytes} read → at least {time}",
        ),
        "kv_cost_line_recompute": (
            "每步重算：{mads} 次乘加，读 {bytes} → 至少 {time}",
            "recomputing: {mads} multiply-adds, {bytes} read → at least {time}",
        ),
        "kv_speedup": (
            "按 Roofline 模型估算，重算的时间下界是用缓存的 {ratio} 倍",
            "under this model recomputing takes {ratio}× as long",
        ),
        "kv_speedup_even": (
            "按 Roofline 模型估算，两个时间下界相差不到 5%（重算是用缓存的 {ratio} 倍）：这么短的上下文，缓存省不了多少",
            "under this model the two lower bounds are within 5% (recomputing {ratio}× as long): at this context the cache saves little",
        ),
        "kv_speedup_unknown": (
            "按 Roofline 模型估算，重算受内存带宽限制，而它的字节数没有计入激活值的读写，所以按这个估算判断不了哪个更快",
            "under this model recomputing is memory-bound, and its bytes leave out the activations it reads, so this model cannot tell which is faster",
        ),
        "kv_speedup_slower": (
            "按 Roofline 模型估算，重算反而更快（时间下界是用缓存的 {ratio} 倍）：按假设的带宽读缓存，比按假设的峰值重新乘出 K、V 还慢；"
            "重算要读写的激活值没有计入",
            "under this model recomputing is faster ({ratio}× the cached time): reading the cache at the assumed bandwidth takes "
            "longer than multiplying K and V again at the assumed peak; the activations recomputing reads are not counted",
        ),
        "kv_desc": (
            "上面的条形图：一个序列（{tokens}）的缓存，按 K/V 头数：{caches}（橙色是选中的）。下面：生成一个词元的时间下界，用缓存 {cached}，每步重算 {recompute}。",
            "Bars on top: the cache of one sequence of {tokens} by K/V heads: {caches} (orange: the chosen one). Below: a lower bound on one token's time, {cached} with the cache, {recompute} recomputing.",
        ),
        "kv_not_divisor": (
            "{n_heads} 个查询头不能平均分给 {kv_heads} 个 K/V 头：每个 K/V 头要服务同样多的查询头。\n"
            "这个模型可选的 K/V 头数：{divisors}。",
            "{n_heads} query heads cannot be shared equally by {kv_heads} K/V heads: each serves as many query heads.\n"
            "This model can have {divisors} K/V heads.",
        ),
        "kv_beyond": (
            "注意：{model} 最多处理 {max} 个词元；更长的上下文只是按同样的公式算出来的。",
            "Note: {model} takes at most {max} tokens; a longer context is only the same formula carried on.",
        ),
        "board_kv_name": ("KV 缓存", "KV cache"),
        "board_kv_question": (
            "把 K/V 头从 32 减到 8：缓存变成几分之一？把上下文拉长，用缓存的时间为什么主要取决于要读的字节数？",
            "Cut the K/V heads from 32 to 8: what fraction of the cache is left? Lengthen the context: why does the cached time follow the bytes read?",
        ),
        # ================================================================ the classroom board (board.py)
        "board_title": ("自注意力 · 课堂演示板", "Self-attention · classroom board"),
        "board_language": ("语言", "language"),
        "board_tab": ("第 {lesson} 课 · {name}", "Lesson {lesson} · {name}"),
        "board_question": ("问全班：{question}", "Ask the room: {question}"),
        "board_needs_kernel": (
            "课堂演示板：交互图（需要运行中的 Jupyter 内核；用投影仪演示时用 make demo 打开）",
            "classroom board: interactive (needs a running Jupyter kernel; to project it, open it with make demo-en)",
        ),
        "board_bad_lang": (
            "lang={language!r} 不是可选的语言，可选的是 {languages}。",
            "lang={language!r} is not one of the languages {languages}.",
        ),
        "board_dk_name": ("除以 √d_k", "÷ √d_k"),  # tab titles short: seven on one row at 1280 px
        "board_dk_question": (
            "先不勾选“除以 √d_k”。把 d_k 从 1 拖到 512 之前，先猜一猜：最大的权重会变成多少？梯度呢？再勾上它看看。（向量是随机抽的，词只是标签。）",
            "Before dragging d_k from 1 to 512 unscaled, guess: what will the largest weight become, and the gradient? Then tick “divide by √d_k”. (The vectors are random; the words are only labels.)",
        ),
        "board_key_name": ("放大一个键", "scale a key"),
        "board_key_question": (
            "把“喜欢”的键放大到 2 倍：它的权重会翻倍吗？其他词呢？再放大“我”——它的分数是负的。",
            "Enlarge the key of 喜欢 to 2×: does its weight double? What happens to the others? Then enlarge 我, whose score is negative.",
        ),
        "board_pipeline_name": ("五步", "five steps"),
        "board_pipeline_question": (
            "取消“除以 √d_k”，再把 d_k 拖大：“学习”这一行的权重会集中到哪个词上？为什么每一行的和始终是 1？",
            "Untick “divide by √d_k” and drag d_k up: which word does the row of 学习 pile onto? Why does every row still sum to 1?",
        ),
        "board_mask_name": ("掩码", "masks"),
        "board_mask_question": (
            "切换到因果掩码：为什么第一行只剩一个 1.00？把填充词元数拖到 4 会发生什么？",
            "Switch to the causal mask: why is the first row a single 1.00? What happens when the padding reaches 4?",
        ),
        "board_head_name": ("多头", "heads"),
        "board_head_question": (
            "两个头里，“它”最关注的是同一个词吗？取平均之后，哪个头的看法被冲淡了？",
            "Does 它 attend most to the same word in both heads? After averaging, whose view is watered down?",
        ),
        "board_position_name": ("词序", "word order"),
        "board_position_question": (
            "不加位置时，把句子打乱，“学习”的权重会变吗？换成 RoPE 呢？先猜，再拖。",
            "Without positions, does shuffling the sentence change the weights of 学习? And with RoPE? Guess first, then drag.",
        ),
        # ================================================================ plots.py: labels
        "plot_query_axis": ("查询（谁在问）", "query (who asks)"),
        "plot_key_axis": ("键（被问的词）", "key (who is asked)"),
        "plot_std": ("标准差", "std"),
        "plot_std_lines": ("虚线：± 实测标准差", "dashed lines: ± the measured std"),
        "plot_count": ("次数", "count"),
        "plot_dot_product": (r"点积 $q \cdot k$", r"dot product $q \cdot k$"),
        "plot_dimension": ("第 {d} 个分量", "dim {d}"),
        "plot_output": (r"输出 $O_i$（合计）", r"output $O_i$ (sum)"),
        "plot_contribution": (r"贡献 $a_{{ij}}\,V_j$", r"contribution $a_{{ij}}\,V_j$"),
        "plot_contributions_title": ("输出行 = 各值行按权重相加", "output row = value rows mixed by weight"),
        "pos_desc": (
            "上：“{query}”问“{key_word}”的分数 q·k，两个位置一起后移 0 到 {shifts} 步时{scores}；"
            "右上：第 0 对特征画成钟面上的指针；下：打乱前后每个词的注意力权重。“{query}”一行，原句：{before}；"
            "打乱成“{sentence}”后（按原来的词序排好）：{after}。",
            "Top: the score q·k of “{query}” asking “{key_word}” as both positions move on by 0 to {shifts}, "
            "{scores}; top right: feature pair 0 as hands on a dial; below: every word's attention "
            "weights before and after the reordering. The row of “{query}”, original sentence: {before}; "
            "reordered as “{sentence}” (lined up by word): {after}.",
        ),
        "pos_desc_range": ("在 {low} 到 {high} 之间", "between {low} and {high}"),
        "pos_desc_constant": ("始终是 {score}", "always {score}"),
        "plot_position_features": (
            "特征：第 k 对的 sin 和 cos（k 越大转得越慢）",
            "feature: sin and cos of pair k (higher k turns more slowly)",
        ),
        "plot_position_rows": ("位置 p（从 0 数起）", "position p (counted from 0)"),
        "plot_position_value": ("编码的值", "value"),
        "plot_position_highlight": (
            "highlight={highlight} 超出范围：只有位置 0 到 {last}。",
            "highlight={highlight} is out of range: the positions are 0 … {last}.",
        ),
        # ---------------------------------------------------------------- plots.py: colour scales and masks
        "plot_weight_label": ("注意力权重", "attention weight"),
        "plot_dropped_rows": (
            "灰色的行 = 填充词元的查询：权重照算，输出被丢弃",
            "grey row = a padding query: its weights are computed, its output is dropped",
        ),
        "plot_score_label": ("分数", "score"),
        "plot_reach_yes": ("能到达", "reachable"),
        "plot_reach_no": ("不能到达", "not reachable"),
        "plot_reach_key": ("蓝色 = {yes}，浅灰 = {no}", "blue = {yes}, light grey = {no}"),
        "plot_not_reach": (
            '两色图（kind="reach"）只画 0 和 1（或 True/False），但位置 {where} 是 {value}。',
            'a two-colour map (kind="reach") takes only 0 and 1 (or True/False), but {where} is {value}.',
        ),
        "plot_kind": (
            'kind={kind!r} 不是可选的值：请给 "weights"（权重，固定 0 到 1）、"scores"（分数）或 None（自动判断）。',
            'kind={kind!r} is not one of the choices: give "weights" (fixed 0 to 1), "scores" or None (decided from the matrix).',
        ),
        "plot_not_weights": (
            '按权重画（kind="weights"）需要 0 到 1 之间的数，但位置 {where} 是 {value}：分数请用 kind="scores"。',
            'drawn as weights (kind="weights") the values must lie in 0 … 1, but {where} is {value}: for scores use kind="scores".',
        ),
        "plot_weights_scale": (
            "注意力权重总是画在固定的 0 到 1 色标上，以便每张图都能比较：请去掉 vmin={vmin!r} 和 vmax={vmax!r}。",
            "attention weights are always drawn on the fixed 0 … 1 scale, so that every picture compares: leave out vmin={vmin!r} and vmax={vmax!r}.",
        ),
        "plot_weights_label": (
            "权重图的色标名称固定为“{fixed}”，不能改成“{label}”。",
            "a weight map's colour bar is always labelled “{fixed}”, not “{label}”.",
        ),
        "plot_mask_not_bool": (
            "{name} 应该是布尔数组（True 表示可以看），实际的类型是 {dtype}。",
            "{name} must be a boolean array (True = may attend), got dtype {dtype}.",
        ),
        "plot_mask_shape": (
            "{name} 的形状 {shape} 无法广播成矩阵的形状 {target}。",
            "{name} has shape {shape}, which does not broadcast to the matrix's shape {target}.",
        ),
        "plot_mask_not_zero": (
            "掩码挡住了位置 {where}，但那里的权重是 {value}，不是 0：这个掩码不是算出这些权重的那个。",
            "the mask hides {where}, but the weight there is {value}, not 0: this is not the mask these weights were computed with.",
        ),
        # ---------------------------------------------------------------- plots.py: the figure in words (alt text)
        "alt_figure": ("图：{panels}。", "Figure: {panels}."),
        "alt_panel_sep": ("。", ". "),
        "alt_titled": ("“{title}”", " “{title}”"),
        "alt_heatmap": (
            "热力图{title}，行 = {rows}，列 = {cols}，{scale}{masked}；{values}",
            "heatmap{title}, rows = {rows}, columns = {cols}, {scale}{masked}; {values}",
        ),
        "alt_scale_weights": (
            "注意力权重，颜色越亮数值越大（固定色标 {low} 到 {high}）",
            "attention weights, brighter = larger (fixed scale {low} to {high})",
        ),
        "alt_scale_reach": (
            "两种颜色（没有色标）：{label}",
            "two colours (no colour bar): {label}",
        ),
        "alt_scale_scores": (
            "{label}，蓝色为负、白色为 0、红色为正（{low} 到 {high}）",
            "{label}, blue = negative, white = 0, red = positive ({low} to {high})",
        ),
        "alt_masked_weights": (
            "，{count} 个被掩码挡住的方格画斜线（分数 −∞，权重 0）",
            ", {count} masked cells hatched (score −∞, weight 0)",
        ),
        "alt_masked_scores": (
            "，{count} 个被掩码挡住的方格画斜线（−∞）",
            ", {count} masked cells hatched (−∞)",
        ),
        "alt_all_values": ("每一行：{rows}", "each row: {rows}"),
        "alt_row_maxima": ("每一行最大的值：{rows}", "the largest value of each row: {rows}"),
        "alt_row_uniform_weights": ("{query} → 均匀，每个键都是 {value}", "{query} → uniform, {value} on every key"),
        "alt_row_uniform_scores": ("{query} → 每一列都是 {value}", "{query} → {value} in every column"),
        "alt_bars": ("条形图{title}：{values}{highlight}", "bar chart{title}: {values}{highlight}"),
        "alt_highlight": ("；突出显示“{label}”", "; highlighted: {label}"),
        "alt_dropped": (
            "；灰色的行是填充词元 {rows} 的查询：它的权重照样算出来，输出被丢弃",
            "; the greyed row is the padding query {rows}: its weights are computed, its output is dropped",
        ),
        "alt_highlight_sep": ("”、“", ", "),  # between highlighted items, inside alt_highlight's quotes
        "alt_reach_rows": ("每一行能到达的列：{rows}", "the columns each row reaches: {rows}"),
        "alt_histograms": (
            "{count} 个点积 q·k 的直方图，横轴相同：{items}",
            "{count} histograms of the dot products q·k on one x axis: {items}",
        ),
        "alt_histogram": ("d_k = {d_k}：标准差 {std}，√d_k = {sqrt}", "d_k = {d_k}: std {std}, √d_k = {sqrt}"),
        "alt_contributions": (
            "分组条形图{title}：每个分量上，各值行乘以权重的贡献并排画出，各自从 0 起（{weights}）；最后的黑色条形是它们的和，输出 O_i：{outputs}",
            "grouped bar chart{title}: in each dimension one bar per value row times its weight, side by side and each from 0 ({weights}); the black bar after them is their sum, the output O_i: {outputs}",
        ),
        "alt_line": (
            "折线图{title}，横轴 {x}（{first} 到 {last}{xlog}），纵轴 {y}{ylog}：{curves}",
            "line chart{title}, x axis {x} ({first} to {last}{xlog}), y axis {y}{ylog}: {curves}",
        ),
        "alt_log": ("，对数刻度", ", log scale"),
        "alt_marks": ("；标出的点：{points}", "; marked points: {points}"),
        "alt_mark": ("{x} 处为 {y}", "{y} at {x}"),
        "alt_curve": ("“{name}”{trend}", "“{name}” {trend}"),
        "alt_curve_plain": ("{trend}", "{trend}"),
        "alt_samples": (
            "每条曲线是一组样本的直方图轮廓，{curves}",
            "each curve outlines the histogram of a set of samples; {curves}",
        ),
        "alt_sample_curve": (
            "“{name}”的样本均值 {mean}、标准差 {std}，曲线的最高值 {peak}",
            "“{name}”: samples with mean {mean} and std {std}, the curve's highest value {peak}",
        ),
        "alt_rises": ("上升", "rises"),
        "alt_falls": ("下降", "falls"),
        "alt_level": ("基本持平", "stays about level"),
        "alt_step": (
            "先平在 {first}，在 {x} 附近陡然跳到 {last}，之后又是平的",
            "flat at {first}, then a single jump to {last} near {x}, flat again after",
        ),
        "alt_peak": ("在 {x} 处最高", "peaks at {x}"),
        "alt_wavy": ("总体{trend}，但一路起伏、并不单调", "{trend} overall, but goes up and down on the way"),
        "alt_settles": (
            "起初上下跳动，约从 {x} 起基本持平",
            "jumps up and down at first, then stays about level from about {x} on",
        ),
        "alt_axes": ("坐标图{title}（横轴 {x}，纵轴 {y}）", "plot{title} (x axis {x}, y axis {y})"),
        "alt_unlabelled": ("无标签", "unlabelled"),
        # ---------------------------------------------------------------- plots.py: errors
        "plot_not_numbers": (
            "{name} 应该是数字数组，实际是 {type}。",
            "{name} must be an array of numbers, got {type}.",
        ),
        "plot_wrong_ndim": (
            "{name} 应该是 {ndim} 维数组，但形状是 {shape}。{hint}",
            "{name} must be {ndim}-D, got shape {shape}. {hint}",
        ),
        "plot_use_heatmaps": ("多个头请用 plots.heatmaps。", "For several heads use plots.heatmaps."),
        "plot_not_drawable": (
            "{name} 含有无法画出的值（NaN 或 ∞），位置 {where}。",
            "{name} has values that cannot be drawn (NaN or ∞) at {where}.",
        ),
        "plot_label_count": (
            "{name} 有 {count} 个标签，但数据有 {n} 个{what}：每个{what}一个标签。",
            "{name} has {count} labels but the data has {n} ({what}): one label each.",
        ),
        "plot_what_rows": ("行", "rows"),
        "plot_what_columns": ("列", "columns"),
        "plot_what_values": ("值", "values"),
        "plot_what_matrices": ("矩阵", "matrices"),
        "plot_what_value_rows": ("值行", "value rows"),
        "plot_what_dimensions": ("分量", "dimensions"),
        "plot_no_matrices": ("Ms 是空的：至少给一个矩阵。", "Ms is empty: give at least one matrix."),
        "plot_shapes_differ": (
            "所有矩阵形状要相同：Ms[0] 是 {first}，Ms[{k}] 是 {shape}。",
            "all matrices must have one shape: Ms[0] is {first}, Ms[{k}] is {shape}.",
        ),
        "plot_highlight_label": (
            "highlight={highlight!r} 不在 labels {labels} 里。",
            "highlight={highlight!r} is not one of the labels {labels}.",
        ),
        "plot_highlight_range": (
            "highlight={highlight} 超出范围：只有 {n} 个条形。",
            "highlight={highlight} is out of range: there are {n} bars.",
        ),
        "plot_samples_dict": (
            "samples 应该是非空字典：d_k -> 点积数组。",
            "samples must be a non-empty dict d_k -> dot products.",
        ),
        "plot_samples_few": ("samples[{d_k}] 至少需要 2 个值。", "samples[{d_k}] needs at least 2 values."),
        "plot_weights_rows": (
            "weights 有 {n} 个权重，但 V 有 {rows} 行（形状 {shape}）：每个值行一个权重。",
            "weights has {n} entries but V has {rows} rows (shape {shape}): one weight per value row.",
        ),
        "plot_curves_dict": (
            "ys_by_label 应该是非空字典：图例标签 -> y 值。",
            "ys_by_label must be a non-empty dict label -> y values.",
        ),
        "plot_samples_keys": (
            "samples 的键应该和 ys_by_label 的键相同：每条曲线一组样本。",
            "samples must have the keys of ys_by_label: one set of samples per curve.",
        ),
        "plot_curve_length": (
            "“{label}”有 {count} 个 y 值，但 xs 有 {n} 个。",
            "{label!r} has {count} y values but xs has {n}.",
        ),
        "plot_logy": (
            "logy=True 需要正的 y 值，但“{label}”里有 ≤ 0 的值。",
            "logy=True needs positive y values, but {label!r} has values ≤ 0.",
        ),
        "plot_logx": ("logx=True 需要正的 x 值。", "logx=True needs positive x values."),
        "plot_mark_x": (
            "marks 里的 x = {x} 不在 xs 里（{first} 到 {last}）：只能标出画了的点。",
            "marks: x = {x} is not one of xs ({first} … {last}): only a drawn point can be marked.",
        ),
    }
)
