"""ex14: generating text with a KV cache (steps in checker/decoding.py).

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

from ..task_data import CACHE_SIZES, fresh, probe_rope_cache
from .model import Exercise, Task, _no_givens

EXERCISE = Exercise("ex14_decoding", "14_decoding.ipynb", "KV 缓存与解码", "Decoding with a KV cache")

TASKS = (
    Task(
        "14.1",
        "ex14_decoding",
        var="o_new",
        step="cached_output",
        title_zh="用缓存生成一步：新词元的输出",
        title_en="One step with the cache: the new token's output",
        inputs=fresh(1401, q_new=(1, 4), k_new=(1, 4), v_new=(1, 3), K_cache=(5, 4), V_cache=(5, 3)),
        given_from=lambda d: {
            "q": d["q_new"],
            "k": d["k_new"],
            "v": d["v_new"],
            "K_cache": d["K_cache"],
            "V_cache": d["V_cache"],
        },
    ),
    Task(
        "14.2",
        "ex14_decoding",
        var="cache_bytes_per_token",
        step="predict_cache_bytes",
        title_zh="先预测：每个词元的缓存有多少字节",
        title_en="Predict first: the cache's bytes per token",
        inputs=lambda: dict(CACHE_SIZES),
        given_from=lambda d: dict(d),
        answer_kind="number",
    ),
    Task(
        "14.3",
        "ex14_decoding",
        var="O_gqa",
        step="gqa_output",
        title_zh="分组查询注意力：4 个查询头共用 2 个 K/V 头",
        title_en="Grouped-query attention: 4 query heads sharing 2 K/V heads",
        inputs=fresh(1403, Q_heads=(4, 3, 2), K_heads=(2, 3, 2), V_heads=(2, 3, 3)),
        given_from=lambda d: {"Q_heads": d["Q_heads"], "K_heads": d["K_heads"], "V_heads": d["V_heads"]},
    ),
    Task(
        "14.4",
        "ex14_decoding",
        var="fixed_rope_step",
        step="fix_rope_cache",
        title_zh="找错：修好带缓存的 RoPE 一步",
        title_en="Find the bug: fix one RoPE step with a cache",
        inputs=fresh(1404, q_demo=(1, 4), k_demo=(1, 4), v_demo=(1, 3), K_cache_demo=(3, 4), V_cache_demo=(3, 3)),
        given_from=_no_givens,
        answer_kind="function",
        probe_arguments=probe_rope_cache,
    ),
)
