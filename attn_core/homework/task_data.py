"""How the tasks' data are built: from the four-word example (我 / 喜欢 / 学习 / 语言) or from a seeded random
generator, the same bytes on every machine. ``exercises.TASKS`` names a builder for each task.

A builder of inputs takes no argument and returns ``{name: array}`` in the order the notebook unpacks them
(``Q, K = homework.data("2.1")``); it is called afresh for every ``data`` and every check, so a learner
who scribbles on the arrays changes nothing the checker uses.
"""

import hashlib
from contextlib import contextmanager

import numpy as np

from .. import core
from ..examples import four_words
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
