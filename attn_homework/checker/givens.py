"""The givens of one check: the task's arrays and settings, read and validated once, plus what the step
derives from them (the right answer, where it is masked). Every mistake, shape hint and rule reads them
from here; nothing is written back."""

from dataclasses import dataclass
from enum import Enum

import numpy as np

from attn_core import _validate as v

from ..messages import msg

# The arrays a step may take, by name. Each is read as a float64 copy with at least two axes (rows ×
# features); VECTORS may have one (a bias). S may hold −∞ (a masked score).
MATRICES = (
    *("X", "W", "Q", "K", "V", "A", "S"),  # attention (lessons 1–7)
    *("W_q", "W_k", "W_v", "W_o", "heads"),  # multi-head attention (lesson 8); heads: (h, n, d_head)
    *("S1", "S2", "V1", "V2"),  # two blocks of keys, for the online softmax (lesson 9)
    *("dO", "dA", "dS"),  # gradients flowing back (lesson 10)
    *("F", "H", "W1", "W2"),  # the Transformer block (lesson 11): a sublayer's output, the FFN
)
VECTORS = ("b1", "b2")
COUNTS = ("n", "n_heads", "d_model", "d_v")  # positive integers
INDICES = ("row", "key")  # a row or a key, counting from 0
LABELS = ("name", "tokens")  # taken by every step: they only label the messages


class Stage(Enum):
    """How far along scaled dot-product attention a step's answer is. A mistake made on the way to the
    scores or the weights is carried on to it (softmax, then ·V): see ``mistakes``."""

    SCORES = "scores"
    WEIGHTS = "weights"
    OUTPUT = "output"


@dataclass(frozen=True, eq=False)
class Givens:
    """The task's inputs (float64 copies; None when the step does not take them) and what is derived.

    ``d_k`` defaults to the width of Q (or K; 1 without either), ``scaled`` to True (the scores steps fix it),
    ``eps`` to 1e-5 (LayerNorm), ``tokens`` to ``()``: given, they name the rows and columns in the
    messages. ``d_model`` (and ``d_v`` where V is not given) only labels a mistake (dividing by √d_model
    instead of √d_k)."""

    X: np.ndarray | None = None
    W: np.ndarray | None = None
    Q: np.ndarray | None = None
    K: np.ndarray | None = None
    V: np.ndarray | None = None
    A: np.ndarray | None = None
    S: np.ndarray | None = None  # scores; −∞ marks a masked one
    mask: np.ndarray | None = None  # boolean, True = may attend
    d_k: float = 1.0
    scaled: bool = True
    n: int | None = None  # the number of positions of a causal mask
    # multi-head attention
    W_q: np.ndarray | None = None
    W_k: np.ndarray | None = None
    W_v: np.ndarray | None = None
    W_o: np.ndarray | None = None
    heads: np.ndarray | None = None  # the heads' outputs (h, n, d_head), to be merged
    n_heads: int | None = None
    d_model: int | None = None
    d_v: int | None = None  # the values' width where V is not given (6.3's weights): it only labels a mistake
    # the online softmax: scores and values of two blocks of keys
    S1: np.ndarray | None = None
    S2: np.ndarray | None = None
    V1: np.ndarray | None = None
    V2: np.ndarray | None = None
    # gradients
    dO: np.ndarray | None = None
    dA: np.ndarray | None = None
    dS: np.ndarray | None = None
    # the Transformer block
    F: np.ndarray | None = None  # a sublayer's output, added to its input by the residual
    H: np.ndarray | None = None  # the FFN's input
    W1: np.ndarray | None = None
    b1: np.ndarray | None = None
    W2: np.ndarray | None = None
    b2: np.ndarray | None = None
    eps: float = 1e-5
    # a prediction's subject
    row: int | None = None
    key: int | None = None
    factor: float | None = None
    # labels
    name: str | None = None  # the learner's variable, e.g. "QKT_new" ("Q" also labels W_Q)
    tokens: tuple[str, ...] = ()
    # derived by the step (Step.givens)
    stage: Stage | None = None  # None: the step is not one of scores → weights → output
    expected: np.ndarray | None = None  # the right answer, computed with attn_core
    unmasked: np.ndarray | None = None  # True where the answer is not masked out (a score that is not −∞,
    #                                     a weight that may be non-zero); None: no masked entry to check


def read_givens(given):
    """The ``Givens`` of a ``diagnose(step, answer, **given)`` call. Raises TypeError / ValueError (with a
    message from the catalog) for givens that attn_core would reject: the check reports "bad_task"."""
    arrays = {key: _matrix(x, key) for key, x in given.items() if key in MATRICES}
    arrays |= {key: _matrix(x, key, min_ndim=1) for key, x in given.items() if key in VECTORS}
    counts = {key: _count(given[key], key, smallest=1) for key in COUNTS if key in given}
    counts |= {key: _count(given[key], key, smallest=0) for key in INDICES if key in given}
    mask = _mask(given.get("mask"))
    width = arrays["Q"] if "Q" in arrays else arrays.get("K")
    d_k = given.get("d_k", 1 if width is None else width.shape[-1])
    scaled, name, tokens = given.get("scaled", True), given.get("name"), given.get("tokens")
    eps, factor = given.get("eps", 1e-5), given.get("factor")
    if not _positive(d_k):
        raise ValueError(msg("given_d_k", got=d_k))
    if not _positive(eps):
        raise ValueError(msg("given_eps", got=eps))
    if factor is not None and not _real(factor):
        raise ValueError(msg("given_factor", got=factor))
    if not isinstance(scaled, (bool, np.bool_)):
        raise TypeError(msg("given_scaled", got=scaled))
    if name is not None and not isinstance(name, str):
        raise TypeError(msg("given_name", got=name))
    return Givens(
        **arrays,
        **counts,
        mask=mask,
        d_k=float(d_k),
        scaled=bool(scaled),
        eps=float(eps),
        factor=None if factor is None else float(factor),
        name=name,
        tokens=() if tokens is None else tuple(str(t) for t in tokens),
    )


def _real(x):
    return not isinstance(x, bool) and isinstance(x, (int, float, np.integer, np.floating)) and np.isfinite(x)


def _positive(x):
    return _real(x) and x > 0


def _count(x, name, smallest):
    """A given integer (a count, at least 1, or an index, at least 0)."""
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < smallest:
        raise ValueError(msg("given_n" if smallest else "given_index", name=name, got=x))
    return int(x)


def _matrix(x, name, min_ndim=2):
    """A float64 copy of a given array of real numbers with rows × features; S may hold −∞ (masked)."""
    a = np.array(x)  # a copy: the task's arrays are never touched
    if a.dtype.kind not in "iuf":
        raise TypeError(msg("given_not_real", name=name, type=type(x).__name__, dtype=a.dtype))
    if a.ndim < min_ndim:
        raise ValueError(msg("given_few_axes", name=name, shape=a.shape, axes=min_ndim))
    a = a.astype(np.float64)
    v.check_finite(a, name, allow_neg_inf=name == "S")
    return a


def _mask(mask):
    """A copy of a given boolean mask, or None."""
    if mask is None:
        return None
    mask = np.array(mask)
    if mask.dtype != bool:
        raise TypeError(msg("given_mask", dtype=mask.dtype))
    return mask


# ---------------------------------------------------------------- the givens of the lessons 12, 14 and 15 checkers


@dataclass(frozen=True, eq=False)
class OwnGivens:
    """What the lessons 12, 14 and 15 givens share: the labels, what the step derives, and the fields the
    checks every step shares read (evidence.py), which these steps never have: no scores, weights or mask."""

    name: str | None = None
    tokens: tuple[str, ...] = ()
    # derived by the step
    expected: np.ndarray | None = None
    unmasked: np.ndarray | None = None  # nothing is masked in these steps
    # read by the checks every step shares (evidence.py)
    stage: None = None
    Q: None = None
    K: None = None
    S: None = None
    A: None = None
    mask: None = None
    d_k: float = 1.0
    scaled: bool = True


# reading one given (same for the three)
# Their steps take givens of their own (positions, a cache, trained weights) and keep their own dataclass;
# the reading of one given is the same for all three and lives here.


def real_copy(x, name, min_ndim=1):
    """A float64 copy of a given array of finite real numbers with at least ``min_ndim`` axes."""
    a = np.array(x)  # a copy: the task's arrays are never touched
    if a.dtype.kind not in "iuf" or a.ndim < min_ndim:
        raise TypeError(msg("given_not_real", name=name, type=type(x).__name__, dtype=a.dtype))
    a = a.astype(np.float64)
    if not np.isfinite(a).all():
        raise ValueError(msg("given_not_finite", name=name))
    return a


def whole(x, name):
    """A given whole number (0, 1, 2, ...): a position, a count of layers or heads, a byte width."""
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 0:
        raise ValueError(msg("given_whole", name=name, got=x))
    return int(x)


def labels(given):
    """The ``name`` and ``tokens`` every step takes (they only label the messages)."""
    name, tokens = given.get("name"), given.get("tokens")
    if name is not None and not isinstance(name, str):
        raise TypeError(msg("given_name", got=name))
    return {"name": name, "tokens": () if tokens is None else tuple(str(t) for t in tokens)}


def unless_right(expected, answer):
    """``answer`` as a mistake's array, or None when it is the right answer (then it is no mistake here)."""
    answer = np.asarray(answer, dtype=np.float64)
    if answer.shape == expected.shape and np.allclose(answer, expected, rtol=1e-12, atol=1e-12):
        return None
    return answer
