"""The checker's part for lesson 15 (attention that was learned): the givens of its steps, their right
answers, the mistakes people make when they score heads (the previous-token score of each head, the key an
induction head reads) and the find-the-bug step of the induction score (its right function and bugs; the
step is in ``functions.FUNCTION_STEPS``). The steps are entries of ``steps.STEP_TABLE``; every text is in
``attn_homework/messages/learned.py``.

Every mistake returns what a learner who makes it hands in, recomputed from the givens, or None when it
cannot be made with these givens (or would be the right answer). A mistake is named only when the answer
equals it: that equality is its evidence. ``tests/test_check_learned.py`` gives, for each code, an answer
that gets it and a near miss that must not.
"""

from dataclasses import dataclass

import numpy as np

from attn_core import trained

from ..messages import msg
from .givens import OwnGivens, labels, unless_right, whole

WHOLE = ("query", "start", "length")


@dataclass(frozen=True, eq=False)
class LearnedGivens(OwnGivens):
    """The inputs of a lesson-15 check (float64 copies; None when the step does not take them).

    ``weights`` (heads, n, n): causal attention weights of one layer, one block per head. ``query``,
    ``start``, ``length``: a position in the second copy of a sequence whose tokens start..start+length-1
    repeat right after."""

    weights: np.ndarray | None = None
    query: int | None = None
    start: int | None = None
    length: int | None = None


def read_givens(given):
    """The ``LearnedGivens`` of a check. Raises TypeError / ValueError (with a message from the catalog)
    for givens that make no task: the check reports "bad_task"."""
    fields = {}
    if "weights" in given:
        fields["weights"] = _weights(given["weights"])
    fields |= {key: whole(given[key], key) for key in WHOLE if key in given}
    return LearnedGivens(**fields, **labels(given))


def _weights(x):
    a = np.array(x)  # a copy: the task's arrays are never touched
    if a.dtype.kind not in "iuf" or a.ndim != 3 or a.shape[-1] != a.shape[-2]:
        raise TypeError(msg("given_not_real", name="weights", type=type(x).__name__, dtype=a.dtype))
    a = a.astype(np.float64)
    if not np.isfinite(a).all():
        raise ValueError(msg("given_not_finite", name="weights"))
    return a


# ---------------------------------------------------------------- the previous-token score of each head


def previous_token_score(g):
    """Per head, the mean over queries 1 … n-1 of the weight on the position just before: (heads,)."""
    return trained.previous_token_score(g.weights)


def on_the_diagonal(g):
    """The weight each query puts on itself (the main diagonal), over queries 1 … n-1 or over all n."""
    n = g.weights.shape[-1]
    diagonal = g.weights[:, np.arange(n), np.arange(n)]
    made = [diagonal[:, 1:].mean(axis=-1), diagonal.mean(axis=-1)]
    return [x for x in (unless_right(g.expected, m) for m in made) if x is not None]


def above_the_diagonal(g):
    """The entry right of the diagonal (query i, key i + 1): the next position, which the causal mask hides."""
    n = g.weights.shape[-1]
    return unless_right(g.expected, g.weights[:, np.arange(n - 1), np.arange(1, n)].mean(axis=-1))


def divided_by_n(g):
    """The weights on the previous position summed and divided by n, as if query 0 had a previous one."""
    n = g.weights.shape[-1]
    return unless_right(g.expected, g.weights[:, np.arange(1, n), np.arange(n - 1)].sum(axis=-1) / n)


def summed_not_averaged(g):
    """The weights on the previous position added up over queries 1 … n-1, not averaged."""
    n = g.weights.shape[-1]
    return unless_right(g.expected, g.weights[:, np.arange(1, n), np.arange(n - 1)].sum(axis=-1))


def averaged_over_heads(g):
    """The previous-position weights averaged over the heads (axis 0) instead of over the queries."""
    n = g.weights.shape[-1]
    per_query = g.weights[:, np.arange(1, n), np.arange(n - 1)]
    return unless_right(g.expected, per_query.mean(axis=0))


def per_query_shape(g):
    """The shape of an answer that keeps one weight per query instead of averaging them."""
    heads, n, _ = g.weights.shape
    return (heads, n - 1)


# ---------------------------------------------------------------- predict: the key an induction head reads


def _number(x):
    return np.asarray(float(x))


def _other(g, x):
    return None if float(x) == float(g.expected) else _number(x)


def induction_key(g):
    """The position right after the earlier occurrence of the query's token: query - length + 1."""
    return _number(g.query - g.length + 1)


def counted_from_one(g):
    """The right position counted from 1, not from 0: query - length + 2."""
    return _other(g, g.query - g.length + 2)


def earlier_occurrence(g):
    """The earlier occurrence of the query's token itself: query - length."""
    return _other(g, g.query - g.length)


def previous_position(g):
    """The position just before the query (what a previous-token head reads): query - 1."""
    return _other(g, g.query - 1)


def the_query_itself(g):
    """The query's own position."""
    return _other(g, g.query)


# ---------------------------------------------------------------- find the bug: the induction score


def _score(A, start, length, offset):
    queries = np.arange(start + length, start + 2 * length - 1)
    return np.asarray(A)[:, queries, queries - length + offset].mean(axis=-1)


def induction_score(A, start, length):
    """Per head, the mean weight of the second copy's queries on the token after their earlier occurrence."""
    return _score(A, start, length, 1)


def induction_at_fixed_place(place):
    """A bug of a family: the score of one typed-in copy, (start, length) = ``place`` (the notebook's
    start_demo, length_demo, say), whatever the call's start and length."""

    def score(A, start, length):
        return _score(A, *place, 1)

    return score


# the (start, length) a function may have typed in or read from the notebook
FIXED_PLACES = tuple((start, length) for start in range(9) for length in range(1, 9))


def induction_at_occurrence(A, start, length):
    """The bug the notebook shows: the weight on the earlier occurrence itself."""
    return _score(A, start, length, 0)


def induction_previous_token(A, start, length):
    """The weight on the position just before each query (a previous-token score over the second copy)."""
    queries = np.arange(start + length, start + 2 * length - 1)
    return np.asarray(A)[:, queries, queries - 1].mean(axis=-1)


def _second_copy(start, length, shift=0):
    return np.arange(start + length + shift, start + 2 * length - 1 + shift)


def induction_column_too_far_back(A, start, length):
    """The column two before the right one: query − length − 1 (the position before the earlier occurrence)."""
    return _score(A, start, length, -1)


def induction_next_position(A, start, length):
    """The position just after each query: a key in its future, which the causal mask gives weight 0."""
    queries = _second_copy(start, length)
    return np.asarray(A)[:, queries, queries + 1].mean(axis=-1)


def induction_summed(A, start, length):
    """The right weights added up instead of averaged."""
    queries = _second_copy(start, length)
    return np.asarray(A)[:, queries, queries - length + 1].sum(axis=-1)


def induction_rows_and_columns_swapped(A, start, length):
    """A[:, key, query] instead of A[:, query, key]: the upper triangle, which the causal mask sets to 0."""
    queries = _second_copy(start, length)
    return np.asarray(A)[:, queries - length + 1, queries].mean(axis=-1)


def induction_first_copy(A, start, length):
    """The queries taken from the first copy (start …): their token has not appeared before."""
    queries = np.arange(start, start + length - 1)
    return np.asarray(A)[:, queries, queries - length + 1].mean(axis=-1)


def induction_queries_one_early(A, start, length):
    """The range of queries starting one early (start + length − 1 …)."""
    queries = np.arange(start + length - 1, start + 2 * length - 1)
    return np.asarray(A)[:, queries, queries - length + 1].mean(axis=-1)


def induction_queries_one_late(A, start, length):
    """The range of queries shifted one late (start + length + 1 … start + 2·length − 1)."""
    queries = _second_copy(start, length, shift=1)
    return np.asarray(A)[:, queries, queries - length + 1].mean(axis=-1)


def induction_queries_ending_late(A, start, length):
    """One query too many at the end (… start + 2·length − 1): its column, start + length, is past the first copy."""
    queries = np.arange(start + length, start + 2 * length)
    return np.asarray(A)[:, queries, queries - length + 1].mean(axis=-1)


def induction_queries_ending_early(A, start, length):
    """One query too few at the end (… start + 2·length − 3)."""
    queries = np.arange(start + length, start + 2 * length - 2)
    return np.asarray(A)[:, queries, queries - length + 1].mean(axis=-1)


def induction_queries_starting_late(A, start, length):
    """One query too few at the start (start + length + 1 … start + 2·length − 2)."""
    queries = np.arange(start + length + 1, start + 2 * length - 1)
    return np.asarray(A)[:, queries, queries - length + 1].mean(axis=-1)


def induction_max(A, start, length):
    """The largest of the right weights instead of their mean."""
    queries = _second_copy(start, length)
    return np.asarray(A)[:, queries, queries - length + 1].max(axis=-1)


def induction_every_pair(A, start, length):
    """The mean over the block of every query with every column (two fancy indexes one after the other)."""
    queries = _second_copy(start, length)
    return np.asarray(A)[:, queries][:, :, queries - length + 1].mean(axis=(-2, -1))


def induction_over_heads(A, start, length):
    """The right weights averaged over the heads (axis 0) instead of over the queries: one per query."""
    queries = np.arange(start + length, start + 2 * length - 1)
    return np.asarray(A)[:, queries, queries - length + 1].mean(axis=0)
