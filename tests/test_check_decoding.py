"""The checker on lesson 14's tasks (a cached step, the cache's bytes, grouped-query attention): right
answers computed other ways pass; each mistake gets its code, with its evidence (the answer is what that
mistake makes) and a near miss that must not; a wrong prediction is explained without the right number.
The find-the-bug task (14.4) is in tests/test_find_the_bug.py."""

import numpy as np
import pytest

import attn_homework as homework
from attn_core import set_lang
from attn_homework import diagnose_task


def softmax(S):
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def cached(q, K, V, scale=True):
    return softmax(q @ K.T / (np.sqrt(q.shape[1]) if scale else 1.0)) @ V


D1 = homework.data("14.1")
D3 = homework.data("14.3")
K_all, V_all = np.vstack([D1.K_cache, D1.k_new]), np.vstack([D1.V_cache, D1.v_new])


def gqa(K_heads, V_heads, scale=True):
    S = np.einsum("hid,hjd->hij", D3.Q_heads, K_heads) / (np.sqrt(2) if scale else 1.0)
    return np.einsum("hij,hjd->hid", softmax(S), V_heads)


REPEATED = np.repeat(D3.K_heads, 2, axis=0), np.repeat(D3.V_heads, 2, axis=0)
TILED = np.tile(D3.K_heads, (2, 1, 1)), np.tile(D3.V_heads, (2, 1, 1))

RIGHT = [
    ("14.1", cached(D1.q_new, K_all, V_all)),
    ("14.1", cached(D1.q_new, K_all[::-1], V_all[::-1]).astype(np.float32)),  # keys and values reordered together
    ("14.3", gqa(*REPEATED)),
    ("14.3", np.stack([cached(D3.Q_heads[h], D3.K_heads[h // 2], D3.V_heads[h // 2]) for h in range(4)])),
    ("14.2", 49152),
    ("14.2", 49152.0),
]


@pytest.mark.parametrize("task_id, answer", RIGHT, ids=[f"{r[0]}-{i}" for i, r in enumerate(RIGHT)])
def test_right_answers_pass_however_computed(task_id, answer):
    d = diagnose_task(task_id, answer)
    assert d.ok, d.message


# (task, answer, code, words the Chinese message must hold): tests/test_hints.py counts these codes as tested
CODES = [
    ("14.1", cached(D1.q_new, D1.K_cache, D1.V_cache), "cache_not_appended", "没有看到它自己"),
    ("14.1", cached(D1.q_new, K_all, np.vstack([D1.v_new, D1.V_cache])), "kv_misaligned", "没有对齐"),
    ("14.1", cached(D1.q_new, np.vstack([D1.k_new, D1.K_cache]), V_all), "kv_misaligned", "没有对齐"),
    ("14.1", cached(D1.q_new, K_all, V_all, scale=False), "unscaled", "√d_k"),
    ("14.3", gqa(*TILED), "kv_heads_tiled", "np.tile"),
    ("14.3", gqa(*REPEATED, scale=False), "unscaled", "√d_k"),
]


@pytest.mark.parametrize("task_id, answer, code, words", CODES, ids=[f"{r[0]}-{r[2]}-{i}" for i, r in enumerate(CODES)])
def test_each_mistake_gets_its_code_and_a_near_miss_does_not(task_id, answer, code, words):
    d = diagnose_task(task_id, answer)
    assert d.code == code and words in d.message, d.message
    near = np.array(answer, dtype=float)
    near.flat[-1] += 0.731
    assert diagnose_task(task_id, near).code != code


def test_keys_used_as_values_only_where_the_widths_allow():
    """d_k = 4, d_v = 3 in 14.1: the weights times K have another width, and no mistake is named for it."""
    d = diagnose_task("14.1", cached(D1.q_new, K_all, K_all))
    assert d.code == "wrong_shape" and "K 而不是 V" not in d.message


def test_one_block_per_kv_head_is_told_the_output_has_one_per_query_head():
    d = diagnose_task("14.3", np.stack([cached(D3.Q_heads[2 * g], D3.K_heads[g], D3.V_heads[g]) for g in range(2)]))
    assert d.code == "wrong_shape" and "每个查询头一块" in d.message, d.message


PREDICTION_MISTAKES = [
    (24576, "只算了 K", "K counted alone"),  # no factor 2, or 2 bytes a number: both are said
    (196608, "查询头数", "counts the query heads"),
    (12288, "缓存里数的个数", "the count of the numbers cached"),  # or a factor 4 times too small: both said
    (2048, "一层的缓存", "one layer's cache"),
]


@pytest.mark.parametrize("guess, zh, en", PREDICTION_MISTAKES, ids=[str(r[0]) for r in PREDICTION_MISTAKES])
def test_each_tempting_cache_size_is_explained_without_the_right_number(guess, zh, en):
    for lang, words in (("zh", zh), ("en", en)):
        set_lang(lang)
        try:
            d = diagnose_task("14.2", guess)
        finally:
            set_lang("zh")
        assert d.code == "wrong_prediction" and words in d.message and "49152" not in d.message, d.message


def test_the_cache_sizes_of_the_task_tell_every_mistake_apart():
    """float32 (4 bytes): with 2 bytes "K only" and "numbers, not bytes" would give the same number."""
    assert len({guess for guess, _, _ in PREDICTION_MISTAKES} | {49152}) == 5
