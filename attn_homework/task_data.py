"""How the tasks' data are built: from the four-word example (我 / 喜欢 / 学习 / 语言) or from a seeded random
generator, the same bytes on every machine. ``exercises.TASKS`` names a builder for each task.

A builder of inputs takes no argument and returns ``{name: array}`` in the order the notebook unpacks them
(``Q, K = homework.data("2.1")``); it is called afresh for every ``data`` and every check, so a learner
who scribbles on the arrays changes nothing the checker uses.
"""

import hashlib
from contextlib import contextmanager

import numpy as np

from attn_core import core
from attn_core.examples import four_words

from .messages import msg

# Every number a task hands out is the same, to the last bit, on every machine: it is drawn from a
# seeded generator and rounded there (at the source), or computed from such numbers in exact arithmetic
# (integer products, then one correctly rounded division). Nothing here rounds the result of a BLAS call:
# another BLAS kernel or thread count changes a matrix product's last bits, and a value that lands on a
# rounding boundary (2.025) would print as 2.02 on one laptop and 2.03 on another. Weights need exp,
# whose last bit differs between libm and SIMD versions; they are rounded to 6 decimals, and ``_rounded``
# refuses any value close enough to a rounding boundary for such a difference to flip it.

XUEXI, YUYAN = 2, 3  # rows of 学习 and 语言 in the four-word example


# ---------------------------------------------------------------- per-student data (opt-in per assignment)
# One context value: the student id. While it is set, every builder that draws from a seeded generator
# (``_rand``, ``fresh``, and every builder written with them) mixes the id into its seed, so each student
# gets numbers of their own, the same bytes on every machine; the four-word example never changes. A
# notebook sets it with ``homework.set_student_id("…")`` (its ID cell); the grader with ``student_data``.
_student_id: str | None = None
_id_required = False  # an ID cell ran without an id: the drawn data would not be the student's own


def _student_text(student_id):
    """The id as text, or None for a placeholder (``...``, "", "..."): the ID cell is not filled in yet."""
    if student_id is None or student_id is Ellipsis:
        return None
    text = str(student_id).strip()
    return None if text in ("", "...", "…") else text


def set_student_id(student_id):
    """Draw every task's fresh data from ``student_id`` (a notebook's ID cell); prints one line."""
    global _student_id, _id_required
    _student_id, _id_required = _student_text(student_id), True
    print(msg("student_id_set", student_id=_student_id) if _student_id else msg("student_id_missing"))


@contextmanager
def student_data(student_id):
    """Within the block, tasks' data are those of ``student_id`` (None: the course's shared data)."""
    global _student_id, _id_required
    saved = _student_id, _id_required
    _student_id, _id_required = _student_text(student_id), False
    try:
        yield
    finally:
        _student_id, _id_required = saved


def _generator(seed):
    """``np.random.default_rng(seed)``, with the student id (if any) mixed into the seed."""
    if _student_id is None:
        if _id_required:
            raise ValueError(msg("student_id_needed"))
        return np.random.default_rng(seed)
    words = np.frombuffer(hashlib.sha256(_student_id.encode("utf-8")).digest(), dtype="<u4").tolist()
    return np.random.default_rng(np.random.SeedSequence([seed, *words]))


def _rand(seed, shape, scale=1.0, decimals=1):
    """Seeded normal numbers rounded to ``decimals``: readable when printed, reproducible everywhere."""
    return np.round(_generator(seed).normal(0.0, scale, size=shape), decimals)


def _decimals(a):
    """The fewest decimals (at most 6) that write every entry of ``a`` exactly."""
    for k in range(7):
        scaled = np.asarray(a, dtype=np.float64) * 10.0**k
        if np.all(np.abs(scaled - np.rint(scaled)) < 1e-6):
            return k
    raise ValueError("expected short decimals (at most 6 places)")


def exact_matmul(a, b):
    """``a @ b`` for arrays of short decimals, computed exactly: integer products and sums (numpy's integer
    matmul, no BLAS), then one division by a power of ten. The same bytes on every machine."""
    da, db = _decimals(a), _decimals(b)
    ia = np.rint(np.asarray(a, dtype=np.float64) * 10.0**da).astype(np.int64)
    ib = np.rint(np.asarray(b, dtype=np.float64) * 10.0**db).astype(np.int64)
    return (ia @ ib) / 10.0 ** (da + db)


def _rounded(x, decimals, margin=1e-9):
    """``x`` rounded to ``decimals``, refusing (ValueError) any entry within ``margin`` (in units of the
    last decimal) of a rounding boundary, where a last-bit difference between machines could flip it."""
    scaled = np.asarray(x, dtype=np.float64) * 10.0**decimals
    if np.any(np.abs(np.abs(scaled - np.floor(scaled)) - 0.5) < margin):
        raise ValueError(f"a value sits on a rounding boundary at {decimals} decimals; choose other data")
    return np.round(x, decimals)


def _weights(S):
    """softmax of each row of ``S``, rounded to 6 decimals (see ``_rounded``); the largest entry of each row
    is then set so that the row's decimals add up to exactly 1."""
    A = _rounded(core.softmax(S), 6)
    units = np.rint(A * 1e6).astype(np.int64)
    top = units.argmax(axis=-1)
    rows = np.arange(units.shape[0])
    units[rows, top] += 1_000_000 - units.sum(axis=-1)
    return units / 1e6


def four_word_pool():
    """The four-word example's X, W and the intermediates a task hands out, all bit-identical everywhere:
    Q, K, V and QKᵀ exactly (short decimals), S = QKᵀ/√3 by one correctly rounded division, A rounded."""
    ex = four_words()
    Q, K, V = (exact_matmul(ex.X, W) for W in (ex.W_q, ex.W_k, ex.W_v))
    S = exact_matmul(Q, K.T) / np.sqrt(3.0)
    return {"X": ex.X, "W_q": ex.W_q, "W_k": ex.W_k, "W_v": ex.W_v, "Q": Q, "K": K, "V": V, "S": S, "A": _weights(S)}


def four_word_inputs(*names):
    """A builder of inputs taken from the four-word example's pool, e.g. ``four_word_inputs("Q", "K")``."""

    def build():
        pool = four_word_pool()
        return {name: np.array(pool[name]) for name in names}

    return build


def fresh(seed, **shapes):
    """A builder of inputs drawn from ``np.random.default_rng(seed)``, one array per keyword, in order
    (numbers with one decimal): ``fresh(202, Q_new=(3, 4), K_new=(5, 4))``."""

    def build():
        rng = _generator(seed)
        return {name: np.round(rng.normal(0.0, 1.0, size=shape), 1) for name, shape in shapes.items()}

    return build


def fresh_weights():
    """3 × 5 attention weights (rows sum to 1) and the keys and values they were computed with."""
    d = fresh(503, Q_new=(3, 4), K_new=(5, 4), V_new=(5, 2))()
    A = _weights(exact_matmul(d["Q_new"], d["K_new"].T) / 2.0)  # d_k = 4: √4 = 2 exactly
    return {"A_new": A, "K_new": d["K_new"], "V_new": d["V_new"]}


def big_scores():
    """3 × 4 scores near 1000: np.exp overflows on them unless the row maximum is subtracted first."""
    return {"S_big": 1000.0 + _rand(404, (3, 4), scale=2.0)}


def fresh_scores():
    """3 × 5 scores, drawn with two decimals."""
    return {"S_new": _rand(402, (3, 5), decimals=2)}


def with_tokens(given):
    """A given-builder for a four-word task: the checker also gets the tokens, so its hints name the words."""
    return lambda d: {**given(d), "tokens": four_words().tokens}


def doubled(K, row):
    """A copy of ``K`` with one row doubled."""
    K = np.array(K, dtype=float)
    K[row] *= 2
    return K


# ---------------------------------------------------------------- lessons 8–11


def heads_to_split():
    """Q of 5 positions × d_model = 6, to be cut into 3 heads (d_head = 2)."""
    return {**fresh(801, Q=(5, 6))(), "n_heads": 3}


def multi_head_layer():
    """X (5 × 6), the four projections (6 × 6) and the number of heads (3, so d_head = 2)."""
    d = fresh(805, X=(5, 6), W_q=(6, 6), W_k=(6, 6), W_v=(6, 6), W_o=(6, 6))()
    return {**d, "n_heads": 3}


def two_blocks():
    """The scaled scores of one key block after another (S1, S2: 3 queries × 4 keys each) and their values
    (V1, V2: 4 × 2). Block 2 raises the running maximum of rows 0 and 2, not of row 1."""
    return {
        "S1": _rand(933, (3, 4), scale=1.5),
        "S2": _rand(1033, (3, 4), scale=1.5),
        "V1": _rand(934, (4, 2)),
        "V2": _rand(1034, (4, 2)),
    }


RESCALE_ROW = 1  # the row of two_blocks() whose maximum block 2 does not raise


def attention_gradients():
    """Weights A (3 × 4, rows summing to exactly 1 in 6 decimals), values V (4 × 2) and the output's
    gradient dO (3 × 2), all exact."""
    d = fresh(1001, Q=(3, 4), K=(4, 4), V=(4, 2), dO=(3, 2))()
    A = _weights(exact_matmul(d["Q"], d["K"].T) / 2.0)  # d_k = 4: √4 = 2 exactly
    return {"A": A, "V": d["V"], "dO": d["dO"]}


def softmax_gradient():
    """The weights A of attention_gradients() and dA = dO·Vᵀ, computed exactly (named dA_given: the learner's
    own dA of the task before keeps its name)."""
    g = attention_gradients()
    return {"A": g["A"], "dA_given": exact_matmul(g["dO"], g["V"].T)}


def score_gradient():
    """dS = A ⊙ (dA − rowsum(dA ⊙ A)) for softmax_gradient(), computed in integers (A has 6 decimals,
    dA 2) and rounded to 6 decimals, with the queries Q (3 × 4) and keys K (4 × 4) it flows back to."""
    g = softmax_gradient()
    A = np.rint(g["A"] * 1e6).astype(np.int64)
    dA = np.rint(g["dA_given"] * 1e2).astype(np.int64)
    centred = dA * 1_000_000 - (dA * A).sum(axis=-1, keepdims=True)  # units of 1e-8
    dS = _rounded((A * centred) / 1e14, 6)
    d = fresh(1001, Q=(3, 4), K=(4, 4))()
    return {"dS_given": dS, "Q": d["Q"], "K": d["K"]}


def layer_inputs():
    """X (4 × 6) and a sublayer's output F (4 × 6) whose last rows are nearly constant, so that the last row
    of X and of X + F has a variance comparable with ε = 1e-5: where ε goes, and its size, show there."""
    X = np.vstack([_rand(1101, (3, 6)), _rand(1102, (1, 6), scale=0.002, decimals=4)])
    F = np.vstack([_rand(1103, (4, 6))[:3], _rand(1105, (1, 6), scale=0.002, decimals=4)])
    return {"X": X, "F": F}


def feed_forward():
    """The FFN's input H_in (4 × 6) and a feed-forward network 6 -> 8 -> 6: W1, b1, W2, b2."""
    return fresh(1104, H_in=(4, 6), W1=(6, 8), b1=(8,), W2=(8, 6), b2=(6,))()


# ---------------------------------------------------------------- probes for find-the-bug tasks
# The checker's own arguments for a learner's fixed function, drawn from the rng it is given (the notebook
# draws afresh at every check; the grader at grading time). Each set mixes shapes on which the notebook's
# buggy version runs (and gives wrong numbers) with shapes on which it cannot run.


def _draw(rng, shape, offset=0.0):
    return offset + np.round(rng.normal(0.0, 1.0, size=shape), 2)


def probe_scores(rng):
    """(Q, K): one pair with d_k = n_k (Q·K then runs), three with d_k ≠ n_k, a larger one (6 to 9 queries
    and keys), and two of fixed shapes: one query, and three queries with d_k = n_k: "right for any Q" is
    judged on edge shapes too, whatever the draw."""
    n_k = int(rng.integers(2, 6))
    calls = [((int(rng.integers(1, 5)), n_k), (n_k, n_k))]
    for _ in range(3):
        n_q, n_k, d_k = (int(x) for x in rng.integers(1, 6, size=3))
        d_k = d_k if d_k != n_k else d_k + 1
        calls.append(((n_q, d_k), (n_k, d_k)))
    n_q, n_k, d_k = int(rng.integers(6, 10)), int(rng.integers(6, 10)), int(rng.integers(2, 6))
    calls.append(((n_q, d_k), (n_k, d_k)))
    calls += [((1, 3), (4, 3)), ((3, 4), (4, 4))]  # one query (a squeeze shows), and Q·K runnable at n_q = 3 too
    return [(_draw(rng, q), _draw(rng, k)) for q, k in calls]


def probe_softmax(rng):
    """(S,): a square one, a wide and a tall one, a larger one (7 × 6), and one with scores near 1000 (exp
    overflows there)."""
    n = int(rng.integers(2, 6))
    shapes = [(n, n), (2, int(rng.integers(3, 7))), (int(rng.integers(3, 6)), 2)]
    calls = [(_draw(rng, shape) * 2,) for shape in shapes]
    calls.append((_draw(rng, (7, 6)) * 2,))  # more rows than any drawn: a fix that works only for small ones shows
    return calls + [(_draw(rng, (3, 4), offset=1000.0),)]


def _large(Q, K):
    """Q with its first row and every key moved to 30 and more, so that the first query's scores exceed
    1000 (exp overflows there unless the maximum is subtracted first); numbers with two decimals."""
    Q = np.array(Q)
    Q[0] = 30.0 + np.abs(Q[0])
    return Q, 30.0 + np.abs(K)


def probe_attention(rng):
    """(Q, K, V): twice with d_k = d_v (the weights times K then runs), twice with d_k ≠ d_v, once with
    large scores (d_k = d_v), and one larger than any drawn (7 queries, 6 keys)."""
    calls = []
    for equal in (True, False, True, False, True):
        n_q, n_k, d_k, d_v = (int(x) for x in rng.integers(2, 6, size=4))
        d_v = d_k if equal else (d_v if d_v != d_k else d_k + 1)
        calls.append((_draw(rng, (n_q, d_k)), _draw(rng, (n_k, d_k)), _draw(rng, (n_k, d_v))))
    Q, K, V = calls[-1]
    calls[-1] = (*_large(Q, K), V)
    calls.insert(0, (_draw(rng, (7, 3)), _draw(rng, (6, 3)), _draw(rng, (6, 4))))  # larger than any drawn
    return calls


def probe_causal(rng):
    """(Q, K, V): self-attention over 3 to 6 positions, the last call with large scores."""
    calls = []
    for n in rng.permutation([3, 4, 5, 6]):
        d_k, d_v = (int(x) for x in rng.integers(2, 5, size=2))
        calls.append((_draw(rng, (int(n), d_k)), _draw(rng, (int(n), d_k)), _draw(rng, (int(n), d_v))))
    Q, K, V = calls[-1]
    calls[-1] = (*_large(Q, K), V)
    return calls


def probe_split(rng):
    """(M, n_heads): M of n positions × n_heads·d_head features, for several n, n_heads and d_head."""
    calls = []
    for _ in range(4):
        n, h, d_head = int(rng.integers(2, 6)), int(rng.integers(2, 5)), int(rng.integers(1, 4))
        calls.append((_draw(rng, (n, h * d_head)), h))
    calls.append((_draw(rng, (3, 2 * 5)), 2))  # heads 5 wide: wider than any drawn above
    calls.append((np.round(rng.normal(0.0, 1.0, size=(4, 5 * 2)), 4), 5))  # 5 heads, and 4 decimals (not 2)
    return calls


# ---------------------------------------------------------------- lesson 12: word order
# Inputs only: whole numbers and numbers drawn with one decimal. The answers (sines, cosines, softmax) are
# computed by the learner and by the checker, and compared within the checker's tolerance.

SHUFFLE = (1, 3, 4, 0, 2)  # not its own inverse, so shuffling the wrong way round is told apart


def shuffled_sentence():
    """Five words (X_new 5 × 4), the projections (d_k = 3, d_v = 2) and the new order of the words."""
    d = fresh(1201, X_new=(5, 4), W_q_new=(4, 3), W_k_new=(4, 3), W_v_new=(4, 2))()
    return {**d, "order": np.array(SHUFFLE)}


def one_query_at_a_position():
    """A query q_new (width 6) and its position p."""
    return {"q_new": fresh(1203, q_new=(6,))()["q_new"], "p": 3}


def a_query_and_a_key():
    """A query q and a key k (width 8), their positions i and j, and the shifts s = 0 … 5."""
    d = fresh(1206, q=(8,), k=(8,))()
    return {**d, "i": 1, "j": 4, "shifts": np.arange(6)}


# ---------------------------------------------------------------- lesson 14: decoding with a KV cache
# Inputs drawn with one decimal (``fresh``) or two (the probes); the cached keys are handed out as given
# numbers (standing for keys already turned at their positions), never computed here.

CACHE_SIZES = {"layers": 24, "n_heads": 16, "kv_heads": 4, "d_head": 64, "bytes_per_value": 4}  # float32


def probe_rope_cache(rng):
    """(q, k, v, K_cache, V_cache): a new token after 1 to 6 cached ones, widths d_k in 2, 4, 6 (RoPE pairs
    features up) and d_v 2 to 4. No empty cache: there the position-0 bug is right."""
    calls = []
    for t in rng.permutation([1, 2, 4, 6]):
        d_k, d_v = 2 * int(rng.integers(1, 4)), int(rng.integers(2, 5))
        shapes = [(1, d_k), (1, d_k), (1, d_v), (int(t), d_k), (int(t), d_v)]
        calls.append(tuple(_draw(rng, shape) for shape in shapes))
    return calls


# ---------------------------------------------------------------- lesson 15: attention that was learned
# Attention weights built from whole numbers in integer arithmetic: each row's drawn units are turned into
# thousandths that add up to exactly 1000, then divided by 1000 (one correctly rounded division), so the
# weights are short decimals with the same bytes on every machine. Nothing comes from the trained model
# here: its weights are computed with BLAS and exp, and differ in their last bits between machines.


def _causal_weights(units):
    """Whole-number units (heads, n, n) -> causal weights in thousandths: the units right of the diagonal
    dropped, each row scaled to 1000 (rounded to the nearest whole number, the largest entry taking up
    what the rounding left), divided by 1000."""
    units = np.tril(np.asarray(units, dtype=np.int64))
    total = units.sum(axis=-1, keepdims=True)
    parts = (2000 * units + total) // (2 * total)
    top = parts.argmax(axis=-1)[..., None]
    np.put_along_axis(
        parts, top, np.take_along_axis(parts, top, axis=-1) + 1000 - parts.sum(axis=-1, keepdims=True), -1
    )
    return parts / 1000


def two_heads_of_layer_1():
    """A_heads (2, 6, 6): the weights of two heads over 6 positions; head 0 leans on the previous position,
    head 1 on the first one (the start token)."""
    units = _generator(1501).integers(1, 10, size=(2, 6, 6))
    n = units.shape[-1]
    units[0, np.arange(1, n), np.arange(n - 1)] += 40
    units[1, :, 0] += 30
    return {"A_heads": _causal_weights(units)}


INDUCTION_QUERY = {"query": 18, "start": 6, "length": 10}  # lesson 15's probe sequences: copy at 16–25


def _induction_weights(rng, heads, start, length, extra):
    """Weights (heads, n, n), n = start + 2·length + extra, head ``heads - 1`` leaning on the induction
    diagonal (query i of the second copy on key i - length + 1), the others drawn."""
    n = start + 2 * length + extra
    units = rng.integers(1, 10, size=(heads, n, n))
    queries = np.arange(start + length, start + 2 * length - 1)
    units[heads - 1, queries, queries - length + 1] += 60
    return _causal_weights(units)


def an_induction_head():
    """A_demo (2, 11, 11), start_demo = 2, length_demo = 4: head 1 is an induction head by construction."""
    return {"A_demo": _induction_weights(_generator(1503), 2, 2, 4, 1), "start_demo": 2, "length_demo": 4}


def probe_induction(rng):
    """(A, start, length): 1 to 3 heads, copies of 2 to 6 tokens starting at 1 to 4, 0 to 2 tokens after, and a
    long one (copies of 12 from position 5): a range that stops early is not right by the draw's luck."""
    calls = []
    for heads in rng.permutation([1, 2, 3, 2]):
        start, length, extra = int(rng.integers(1, 5)), int(rng.integers(2, 7)), int(rng.integers(0, 3))
        calls.append((_induction_weights(rng, int(heads), start, length, extra), start, length))
    calls.append((_induction_weights(rng, 5, 5, 12, 1), 5, 12))  # 5 heads, 30 positions, queries up to 27
    return calls
