"""Lesson 14 (decoding with a KV cache): one cached step, heads sharing K and V (GQA), the cache's size in
bytes, and RoPE with a cache (find the bug). Each mistake says what is wrong, why, and the fix in words.

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
    # ---------------------------------------------------------------- one step with the cache
    "axes_cached_o": (
        "1 × d_v：新词元的一行输出，列 = 值的特征",
        "1 × d_v: the new token's one output row, columns = value features",
    ),
    "entry_cached_o": (
        "o 是新词元的 q 对缓存里全部键（包括它自己的 k）打分、softmax 之后，对全部值（包括它自己的 v）的加权求和。",
        "o is the mix of all values (its own v included) by the softmax of the new token's q scored against all "
        "cached keys (its own k included).",
    ),
    "cache_not_appended": (
        "新词元自己的位置得到的权重是 0，它没有看到它自己：你的 o 只混合了旧缓存里的值。两种写法都会这样：它的 k、v 没有接到 "
        "K_cache、V_cache 的末尾；或者接上了，却把它自己的分数挡成了 −∞（比如 S[:, -1] = -np.inf）。因果掩码里，"
        "每个位置都可以看它自己：把 k、v 接到缓存末尾，用 q 对全部的键做注意力，什么也不挡。",
        "The new token's own position got weight 0, so it never saw itself: your o mixes the old cache's values only. Two things do "
        "this: its k and v were not appended to the end of K_cache and V_cache, or they were and its own score "
        "was then masked to −∞ (such as S[:, -1] = -np.inf). Under the causal mask every position may see "
        "itself: append k and v to the cache, attend with q over all keys, and mask nothing.",
    ),
    "kv_misaligned": (
        "键和值没有对齐：k 和 v 接在了缓存的不同两端，于是第 j 个键配上了另一个词元的值。"
        "k 和 v 要接在同一端（末尾），让第 j 行的键和第 j 行的值属于同一个词元。",
        "The keys and the values no longer pair up: k and v were appended at opposite ends of the cache, so "
        "key j is matched with another token's value. Append both at the same end (the end), so that row j "
        "of the keys and row j of the values belong to the same token.",
    ),
    "cached_key_as_query": (
        "分数是用新词元的 k 去打的：提问的是它的查询 q（q·Kᵀ），k 是接进缓存、让之后的词元来匹配的键。",
        "The scores were made with the new token's k: the one asking is its query q (q·Kᵀ); k is the key that "
        "goes into the cache for later tokens to match.",
    ),
    "cached_first_key_only": (
        "o 正好是缓存里第一个词元的值：全部权重都落在了键 0 上。像是给这一行分数加了因果掩码——"
        "对 (1, t + 1) 的一行用 np.tril，只留下第 0 列。解码的这一步不需要掩码：新词元是最后一个位置，"
        "缓存里的每个键都在它之前，它自己的 k 也可以看。",
        "o is exactly the first cached token's value: all the weight fell on key 0. It looks as if a causal mask "
        "was laid on this row of scores (np.tril of a (1, t + 1) row keeps only column 0). This decoding step "
        "needs no mask: the new token is the last position, every cached key comes before it, and it may see "
        "its own k.",
    ),
    # ---------------------------------------------------------------- predict: the cache's bytes per token
    "explain_cache_bytes": (
        "每个词元在每一层、每个 K/V 头里各存一个 k 和一个 v，各 d_head 个数，每个数占 bytes_per_value 个字节："
        "把这几个因子乘起来。查询 q 不进缓存。",
        "Each token stores one k and one v in every layer and every K/V head, d_head numbers each, each number "
        "bytes_per_value bytes: multiply these factors. The query q is not cached.",
    ),
    "predict_k_only_or_half_bytes": (
        "有两种写法会得到同一个数：只算了 K（缓存里还有同样多的 V），或者每个数按 2 个字节（float16）算了。"
        "缓存里 K 和 V 都要存，而这个模型每个数占 bytes_per_value 个字节。",
        "Two reasonings give this number: K counted alone (the cache holds as many numbers of V), or each number "
        "counted at 2 bytes (float16). The cache stores both K and V, and this model stores each number in "
        "bytes_per_value bytes.",
    ),
    "predict_numbers_or_a_smaller_factor": (
        "有两种写法会得到这个数：缓存里数的个数（没有乘上每个数的字节数），或者某一个因子只取了应有值的 1/bytes_per_value"
        "（比如 d_head 取错）。每个数要占 bytes_per_value 个字节；再把每个因子和这个模型的大小对一遍。",
        "Two reasonings give this number: the count of the numbers cached (their bytes not counted), or a count with "
        "one factor bytes_per_value times too small (a different d_head, say). Each number takes bytes_per_value "
        "bytes; check each factor against this model's sizes too.",
    ),
    "predict_bytes_query_heads": (
        "这是按查询头数算的：缓存里存的是 K/V 头的 k 和 v，查询头共用它们（GQA），所以要用 K/V 头数。",
        "That counts the query heads: the cache stores the k and v of the K/V heads, which the query heads "
        "share (GQA), so count the K/V heads.",
    ),
    "predict_one_layer": (
        "这只是一层的缓存：每一层都有自己的 K 和 V，要乘上层数。",
        "That is one layer's cache: every layer has its own K and V, so multiply by the number of layers.",
    ),
    # ---------------------------------------------------------------- heads sharing K and V
    "axes_gqa": (
        "n_heads × n × d_v：每个查询头一块，行 = 位置，列 = 值的特征",
        "n_heads × n × d_v: one block per query head, rows = positions, columns = value features",
    ),
    "entry_gqa": (
        "第 h 块是查询头 h 的注意力输出，它用的是它那一组共用的 K/V 头。",
        "Block h is the attention output of query head h, computed with the K/V head its group shares.",
    ),
    "kv_heads_tiled": (
        "K/V 头分给查询头的顺序不对：你把整组 K/V 头轮流重复（像 np.tile），查询头 h 用了 K/V 头 h mod n_kv_heads。"
        "分组查询注意力里，相邻的 n_heads / n_kv_heads 个查询头共用一个 K/V 头：每个 K/V 头要连着重复"
        "（像 np.repeat 沿头的轴），这也是 PyTorch 的 repeat_interleave 和 enable_gqa 的顺序。",
        "The K/V heads go to the wrong query heads: the whole set of K/V heads was repeated in turn (as np.tile "
        "does), so query head h used K/V head h mod n_kv_heads. In grouped-query attention, n_heads / n_kv_heads "
        "neighbouring query heads share one K/V head: repeat each K/V head in place (as np.repeat along the "
        "heads axis does), the order of PyTorch's repeat_interleave and enable_gqa.",
    ),
    "v_heads_tiled": (
        "K 头分对了，V 头却分错了：V 头是整组轮流重复的（像 np.tile），查询头 h 用了 V 头 h mod n_kv_heads，"
        "和它的键不是同一组。V 头要和 K 头一样连着重复：每个查询头的键和值来自同一个 K/V 头。",
        "The K heads are shared right, the V heads are not: the whole set of V heads was repeated in turn (as "
        "np.tile does), so query head h used V head h mod n_kv_heads, not the group of its keys. Repeat the V "
        "heads in place, as the K heads: each query head's keys and values come from the same K/V head.",
    ),
    "k_heads_tiled": (
        "V 头分对了，K 头却分错了：K 头是整组轮流重复的（像 np.tile），查询头 h 用了 K 头 h mod n_kv_heads，"
        "和它的值不是同一组。K 头要和 V 头一样连着重复：每个查询头的键和值来自同一个 K/V 头。",
        "The V heads are shared right, the K heads are not: the whole set of K heads was repeated in turn (as "
        "np.tile does), so query head h used K head h mod n_kv_heads, not the group of its values. Repeat the K "
        "heads in place, as the V heads: each query head's keys and values come from the same K/V head.",
    ),
    "softmax_across_heads": (
        "softmax 沿着头的轴（轴 0）算了：每个头、每个查询的权重要各自沿键的方向（最后一个轴）加起来为 1，"
        "不同的头之间互不相干。",
        "softmax ran along the heads axis (axis 0): each head's weights of each query must add up to 1 along "
        "the keys (the last axis); the heads have nothing to do with one another there.",
    ),
    "gqa_first_kv_head_only": (
        "每个查询头都用了第 0 个 K/V 头：查询头按组共用 K/V 头，第 h 个查询头读它所在那一组的 K/V 头"
        "（每组 n_heads / n_kv_heads 个相邻的查询头）。",
        "Every query head used K/V head 0: the query heads share K/V heads by group, and query head h reads "
        "the K/V head of its own group (n_heads / n_kv_heads neighbouring query heads per group).",
    ),
    "hint_gqa_kv_shape": (
        "你的答案每个 K/V 头一块；输出应该每个查询头一块：每个 K/V 头先重复给它那一组查询头，再做注意力。",
        "Your answer has one block per K/V head; the output has one block per query head: repeat each K/V "
        "head for its group of query heads first, then attend.",
    ),
    "max_down_columns_one_row": (
        "{sym} 正好是所有值向量（V_cache 的各行和新的 v）的平均：每个键分到的权重都一样。"
        "沿列取最大值（axis=0 或 axis=-2）会这样：只有一行查询时，每列的最大值就是该列唯一的分数，减去后分数全是 0。"
        "如果你是这样写的：一整行减去同一个数，softmax 不变；每列减去不同的数，分数之间的差别就没了。"
        "请写 .max(axis=-1, keepdims=True)。",
        "{sym} is exactly the mean of all the values (the rows of V_cache and the new v): every key got the same "
        "weight. A maximum taken down the columns (axis=0 or axis=-2) does this: with one query row, each "
        "column's maximum is that column's only score, so every score becomes 0. If that is what you wrote: "
        "one number subtracted from a whole row leaves its softmax unchanged; a different number for each "
        "column wipes out the differences between the scores. Write .max(axis=-1, keepdims=True).",
    ),
    # ---------------------------------------------------------------- find the bug: RoPE with a cache
    "bug_max_down_columns": (
        "q 和 k 转对了，但函数返回的正好是所有值向量（缓存里的和新的 v）的平均：每个键分到的权重都一样。"
        "沿列取最大值（axis=0 或 axis=-2）会这样：q 只有一行，每列的最大值就是该列唯一的分数，减去后分数全是 0。"
        "如果你是这样写的：一整行减去同一个数，softmax 不变；每列减去不同的数，分数之间的差别就没了。"
        "请写 .max(axis=-1, keepdims=True)。",
        "q and k are turned right, but your function returns exactly the mean of all the values (the cached ones "
        "and the new v): every key got the same weight. A maximum taken down the columns (axis=0 or axis=-2) "
        "does this: q has one row, so each column's maximum is that column's only score, and every score "
        "becomes 0. If that is what you wrote: one number subtracted from a whole row leaves its softmax "
        "unchanged; a different number for each column wipes out the differences between the scores. "
        "Write .max(axis=-1, keepdims=True).",
    ),
    "bug_rope_zero_or_none": (
        "你的函数算出的是 q、k 都没有转过时的结果，所以你的解码相当于没有位置编码，只有第一个词元碰巧是对的。"
        "原因要么是按位置 0 转了（转 0 度等于没转；只有一行的 q、k 若按自己的行号算位置，得到的就是 0），"
        "要么是根本没有调用 rope，两者结果一样。新词元的位置是它前面已有的词元数，也就是缓存的长度，"
        "q 和新的 k 都要按这个位置转（缓存里的键已经转过）。",
        "Your function returns what q and k give unturned, so it decodes as if there were no position encoding "
        "(only the first token happens to be right): either they were turned at position 0 (which turns nothing; "
        "q and k have one row, and counting positions by their own rows gives 0) or not turned at all (both give "
        "these numbers). The new token's position is the number of tokens before it, the length of the cache: "
        "turn q and the new k there (the cached keys are turned already).",
    ),
    "bug_rope_fixed_position": (
        "你的函数每次都按位置 {value} 转 q 和 k，不管缓存里有多少个词元：检查程序的几次调用里，缓存分别有 {sizes} 个词元。"
        "位置不能写成一个固定的数，要从这次调用的缓存里读出来。",
        "Your function turns q and k at position {value} on every call, whatever the cache holds: on the "
        "checker's calls the cache held {sizes} tokens. The position cannot be a number typed in; read it from "
        "the cache of the call.",
    ),
    "bug_rope_after_append": (
        "新词元的位置多算了一个：缓存的长度要在接上新的 k 之前读，那时它正是新词元前面的词元数；"
        "接上之后再读，就多了新词元自己。",
        "The new token's position is one too many: read the cache's length before appending the new k, when it "
        "is the number of tokens before the new one; read after, it counts the new token too.",
    ),
    "bug_rope_turned_backwards": (
        "q 和 k 转反了方向：你按位置的负数转（转过 −p·ω_k），而缓存里的键是按各自的位置 +p 转的。"
        "新词元的 q 和 k 也要按它的位置本身转，不取负号。",
        "q and k are turned the wrong way: by minus the position (−p·ω_k), while the cached keys were turned by "
        "their positions, +p. Turn the new token's q and k by its position itself, without the minus sign.",
    ),
    "bug_rope_key_one_ahead": (
        "q 和新的 k 转在了不同的位置上：k 比 q 多转了一个位置。它们属于同一个新词元，要在同一个位置、用同一个 rope 转。",
        "q and the new k are turned at different positions: k one position further than q. They belong to the "
        "same new token: turn them at the same position, with the same rope.",
    ),
    "bug_scaled_by_root_d_v": (
        "缩放的数不对：你的分数除以的是 v 的宽度 d_v 的平方根。缩放用的是 √d_k，d_k 是 q 和 k 的宽度（每个点积有几项）。",
        "The scale is off: your scores are divided by the square root of v's width d_v. The scale is √d_k, d_k "
        "being the width of q and k (the number of terms in each dot product).",
    ),
    "bug_rope_one_too_few": (
        "新词元的位置少算了一个：len(K_cache) - 1 是缓存里最后一个词元的位置，不是新词元的。"
        "新词元前面有 len(K_cache) 个词元，从 0 数起，它的位置就是这个数。",
        "The new token's position is one too few: len(K_cache) - 1 is the position of the last cached token, not "
        "of the new one. There are len(K_cache) tokens before the new one; counting from 0, that number is its "
        "position.",
    ),
    "bug_rope_cache_turned_again": (
        "缓存里的键又按位置转了一遍：题目说 K_cache 的第 r 行已经按位置 r 转过了，再转一次，转过的角度就成了应有的 2 倍。"
        "只转新词元的 q 和 k。",
        "The cached keys were turned by their positions once more: the task says row r of K_cache is already "
        "turned by position r, so turning it again turns it by twice the angle. Turn only the new token's q and k.",
    ),
    "bug_rope_query_not_turned": (
        "新的 k 按位置转了，q 却没有转：分数要只取决于两个位置之差，查询和键都得按各自的位置转。"
        "q 和 k 在同一个位置、用同一个 rope 转。",
        "The new k was turned by its position but q was not: for the scores to depend only on the difference "
        "of positions, queries and keys must both be turned by their own positions. Turn q at the same position "
        "as k, with the same rope.",
    ),
    "bug_rope_key_not_turned": (
        "q 按位置转了，新的 k 却没有转就接进了缓存。缓存里每个键都要按它自己的位置转过，"
        "分数才只取决于两个位置之差：k 和 q 在同一个位置、用同一个 rope 转。",
        "q was turned by its position but the new k went into the cache unturned. Every cached key must be "
        "turned by its own position for the scores to depend only on the difference of positions: turn k at "
        "the same position as q, with the same rope.",
    ),
}
