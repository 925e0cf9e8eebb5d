"""Find-the-bug tasks: the learner hands in a fixed function, and the checker judges what it returned when
called on data of the checker's own choosing (``FunctionCalls``), never the data the notebook shows and
never anything else computed where the function ran.

Each call's result is compared with the right function's output on the same arguments. When every
result is what a known buggy version returns on those arguments (raising where it raises), that bug is
named: its evidence is the whole set of calls, on several shapes. Otherwise the first call that went
wrong is described: it raised, returned None, returned the same array whatever it was given (a hard-coded
answer), or returned the wrong shape or numbers. Before any of that: a function that calls attn_core's
reference (or the checker's own functions) is not the learner's code ("delegates"), and one that writes
into the arrays it is given (``S -= S.max(…)``) changes its caller's data ("changes_input"): neither is ✅,
whatever it returns. The probes include large scores, so a softmax without its maximum subtracted
overflows there.

    FUNCTION_STEPS["fix_scores"]      FunctionStep(right, parameters, bugs, axes)
    judge(name, step, calls, label)   -> (code, message key, fields)
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from attn_core import core, multihead

from ..messages import msg
from . import decoding, evidence, learned
from .compare import close, largest_difference, read_numbers, rounded_to, rounded_within, same
from .mistakes import softmax_rows
from .wording import factor_text, place, shape_text

# ---------------------------------------------------------------- what a function answer is


@dataclass(frozen=True)
class CallFailed:
    """What a call of the learner's function raised, by name and message (a find-the-bug task)."""

    type_name: str
    message: str


@dataclass(frozen=True)
class FunctionCalls:
    """A find-the-bug answer as the checker sees it: the learner's function called once per argument tuple.
    ``results[i]`` is what the call with ``arguments[i]`` returned, or a ``CallFailed``. The grader builds
    this from values returned by the submission's kernel; nothing else computed there is trusted."""

    arguments: tuple
    results: tuple
    changed: tuple = ()  # the indices of the calls after which an argument held other numbers
    delegates: str = ""  # the reference function it calls ("attn_core.softmax"), if it calls one
    changed_arguments: tuple = ()  # which arguments (their indices) the first of those calls changed
    changed_form: bool = False  # that call changed an argument's shape or dtype (``M.shape = …``), not its numbers
    arrays_read: str = ""  # the notebook's global arrays its code reads ("K_demo"), where a parameter belongs


@dataclass(frozen=True)
class Said:
    """A message field that is itself a message, said once the labels (``{sym}``) are known: a bug's words
    inside another message."""

    key: str
    fields: dict | None = None

    def text(self, **labels):
        fields = {k: v.text(**labels) if isinstance(v, Said) else v for k, v in (self.fields or {}).items()}
        return msg(self.key, **labels, **fields)


@dataclass(frozen=True)
class Bug:
    """A known buggy version: its diagnosis code, the function itself and the message key naming the bug."""

    code: str
    makes: Callable[..., np.ndarray]
    message: str


@dataclass(frozen=True)
class FunctionStep:
    """A function the learner fixes: the right version, its parameters' names (for the messages), the
    buggy versions it recognises, and the message key that says what the result's axes are."""

    right: Callable[..., np.ndarray]
    parameters: tuple[str, ...]
    bugs: tuple[Bug, ...]
    axes: str
    step: str = ""  # the data step whose mistakes a returned value is tried against ("output")
    givens: Callable[..., dict] | None = None  # that step's givens from one call's arguments
    may_call: tuple[str, ...] = ()  # the course's functions the fix may use: the notebook hands them out as tools
    family: "BugFamily | None" = None  # a bug with a number in it (a typed-in position), tried after ``bugs``


@dataclass(frozen=True)
class BugFamily:
    """Buggy versions that differ by one number (``makes(value)`` is one of them): the first value whose
    version the learner's results reproduce on every call is named (``message`` with ``{value}`` and the
    call's ``{sizes}``)."""

    code: str
    makes: Callable[[int], Callable[..., np.ndarray]]
    values: tuple[int, ...]
    message: str
    sizes: Callable[..., str]  # what the varying size was on each call ("1, 2, 4, 6")


# ---------------------------------------------------------------- the right functions and the bugs


def scores(Q, K):
    """QKᵀ."""
    return Q @ K.T


def scores_k_not_transposed(Q, K):
    """Q·K (runs only when d_k = n_k)."""
    return Q @ K


def scores_k_q(Q, K):
    """K·Qᵀ."""
    return K @ Q.T


def scores_scaled(Q, K):
    """QKᵀ/√d_k, in a function that must not scale."""
    return Q @ K.T / np.sqrt(Q.shape[-1])


def softmax(S):
    """softmax of each row."""
    return core.softmax(S)


def softmax_down_columns(S):
    """softmax of each column (axis 0): the bug the notebook shows."""
    return softmax_rows(S, axis=0)


def softmax_column_max(S):
    """The maximum taken down the columns, the sum along the rows."""
    E = np.exp(S - S.max(axis=0, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def softmax_unstable(S):
    """No maximum subtracted: exp overflows on large scores (∞/∞ = NaN)."""
    E = np.exp(S)
    return E / E.sum(axis=1, keepdims=True)


def softmax_global_max(S):
    """The whole matrix's maximum subtracted, not each row's: a row far below it underflows to 0/0."""
    E = np.exp(S - S.max())
    return E / E.sum(axis=-1, keepdims=True)


def softmax_row_mean(S):
    """Each row's mean subtracted, not its maximum: a row spread wide still overflows (∞/∞)."""
    E = np.exp(S - S.mean(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def softmax_not_divided(S):
    """exp(S − row max) never divided by the row sums (each row's largest entry 1)."""
    return np.exp(S - S.max(axis=-1, keepdims=True))


def softmax_exp_not_divided(S):
    """exp(S) never divided (overflows on large scores)."""
    with np.errstate(all="ignore"):
        return np.exp(S)


def softmax_no_keepdims(S):
    """The row sums without keepdims (runs on square scores only)."""
    E = np.exp(S - S.max(axis=1, keepdims=True))
    return E / E.sum(axis=1)


def attention(Q, K, V):
    """softmax(QKᵀ/√d_k)·V."""
    return core.attention(Q, K, V).O


def attention_unstable(Q, K, V):
    """No maximum subtracted before exp: NaN once the scores are large (∞/∞)."""
    return softmax_unstable(Q @ K.T / np.sqrt(Q.shape[-1])) @ V


def attention_global_max(Q, K, V):
    """The whole score matrix's maximum subtracted, not each row's: a row far below it underflows to 0/0."""
    with np.errstate(all="ignore"):
        return softmax_global_max(Q @ K.T / np.sqrt(Q.shape[-1])) @ V


def causal_global_max(Q, K, V):
    """Masked before softmax, but the whole matrix's maximum subtracted: a row far below it is 0/0."""
    S = Q @ K.T / np.sqrt(Q.shape[-1])
    with np.errstate(all="ignore"):
        return softmax_global_max(np.where(np.tril(np.ones(S.shape, dtype=bool)), S, -np.inf)) @ V


def attention_keys_as_values(Q, K, V):
    """The weights times K: the bug the notebook shows (runs only when d_k = d_v)."""
    return core.attention(Q, K, V).A @ K


def attention_unscaled(Q, K, V):
    """No division by √d_k."""
    return core.attention(Q, K, V, scaled=False).O


def attention_columns(Q, K, V):
    """softmax down the columns."""
    return softmax_rows(Q @ K.T / np.sqrt(Q.shape[-1]), axis=0) @ V


def attention_columns_unstable(Q, K, V):
    """softmax down the columns, no maximum subtracted either (the axis is named first)."""
    E = np.exp(Q @ K.T / np.sqrt(Q.shape[-1]))
    return E / E.sum(axis=0, keepdims=True) @ V


def causal_attention(Q, K, V):
    """Causal self-attention: mask (−∞ above the diagonal) before softmax, then ·V."""
    return core.attention(Q, K, V, mask=core.causal_mask(len(Q))).O


def causal_mask_after_softmax(Q, K, V):
    """softmax first, the future weights zeroed after: the bug the notebook shows."""
    A = core.softmax(Q @ K.T / np.sqrt(Q.shape[-1]))
    return (A * np.tril(np.ones(A.shape, dtype=bool))) @ V


def causal_row_0_patched(Q, K, V):
    """The notebook's bug with its symptom patched: row 0 set to V[0] by hand, the mask still after softmax."""
    out = causal_mask_after_softmax(Q, K, V)
    out[0] = V[0]
    return out


def causal_upper(Q, K, V):
    """The upper triangle kept: each position sees the future."""
    S = Q @ K.T / np.sqrt(Q.shape[-1])
    return softmax_rows(np.where(np.triu(np.ones(S.shape, dtype=bool)), S, -np.inf)) @ V


def causal_no_mask(Q, K, V):
    """No mask at all."""
    return core.attention(Q, K, V).O


def causal_unstable(Q, K, V):
    """Masked before softmax, but no maximum subtracted: NaN once the scores are large."""
    S = Q @ K.T / np.sqrt(Q.shape[-1])
    return softmax_unstable(np.where(np.tril(np.ones(S.shape, dtype=bool)), S, -np.inf)) @ V


def split_heads(M, n_heads):
    """(n, d_model) -> (h, n, d_head)."""
    return multihead.split_heads(M, n_heads)


def split_reshape_alone(M, n_heads):
    """M.reshape(h, n, d_head): the bug the notebook shows."""
    n, width = M.shape
    return M.reshape(n_heads, n, width // n_heads)


def split_not_moved(M, n_heads):
    """M.reshape(n, h, d_head), the heads axis never moved to the front."""
    n, width = M.shape
    return M.reshape(n, n_heads, width // n_heads)


def split_every_hth_column(M, n_heads):
    """Head k takes every h-th column."""
    n, width = M.shape
    return np.moveaxis(M.reshape(n, width // n_heads, n_heads), -1, 0)


FUNCTION_STEPS = {
    "fix_scores": FunctionStep(
        scores,
        ("Q", "K"),
        (
            Bug("missing_transpose", scores_k_not_transposed, "bug_k_not_transposed"),
            Bug("transposed", scores_k_q, "fn_scores_transposed"),  # K·Qᵀ, or def fixed_scores(K, Q)
            Bug("scaled_not_asked", scores_scaled, "scaled_not_asked"),
        ),
        "axes_S",
        "scores",
        lambda Q, K: {"Q": Q, "K": K},
    ),
    "fix_softmax": FunctionStep(
        softmax,
        ("S",),
        (
            Bug("softmax_axis", softmax_down_columns, "softmax_axis"),
            Bug("max_axis", softmax_column_max, "bug_max_axis"),
            Bug("keepdims", softmax_no_keepdims, "keepdims"),
            Bug("overflow", softmax_unstable, "bug_overflow"),
            Bug("max_global", softmax_global_max, "bug_global_max"),
            Bug("mean_not_max", softmax_row_mean, "bug_row_mean"),
            Bug("not_normalized", softmax_not_divided, "exp_over_row_max"),
            Bug("not_normalized", softmax_exp_not_divided, "exp_not_divided"),
        ),
        "axes_S",
        "softmax",
        lambda S: {"S": S},
    ),
    "fix_attention": FunctionStep(
        attention,
        ("Q", "K", "V"),
        (
            Bug("used_keys_not_values", attention_keys_as_values, "used_keys"),
            Bug("unscaled", attention_unscaled, "unscaled"),
            Bug("softmax_axis", attention_columns, "softmax_axis"),
            Bug("softmax_axis", attention_columns_unstable, "softmax_axis"),
            Bug("overflow", attention_unstable, "bug_overflow"),
            Bug("max_global", attention_global_max, "bug_global_max"),
        ),
        "axes_O",
        "output",
        lambda Q, K, V: {"Q": Q, "K": K, "V": V},
    ),
    "fix_causal": FunctionStep(
        causal_attention,
        ("Q", "K", "V"),
        (
            Bug("mask_after_softmax", causal_mask_after_softmax, "mask_after_softmax"),
            Bug("mask_after_softmax", causal_row_0_patched, "bug_symptom_patched"),
            Bug("mask_upper", causal_upper, "mask_upper"),
            Bug("mask_ignored", causal_no_mask, "bug_mask_ignored"),
            Bug("overflow", causal_unstable, "bug_overflow"),
            Bug("max_global", causal_global_max, "bug_global_max"),
        ),
        "axes_O",
        "output",
        lambda Q, K, V: {"Q": Q, "K": K, "V": V, "mask": core.causal_mask(len(Q))},
    ),
    "fix_split": FunctionStep(
        split_heads,
        ("M", "n_heads"),
        (
            Bug("split_no_transpose", split_reshape_alone, "split_reshape_alone"),
            Bug("split_no_transpose", split_not_moved, "split_not_moved"),
            Bug("split_interleaved", split_every_hth_column, "split_interleaved"),
        ),
        "axes_heads",
        "split_heads",
        lambda M, n_heads: {"Q": M, "n_heads": n_heads},
    ),
    "fix_rope_cache": FunctionStep(  # lesson 14: the right function and the bugs are in checker/decoding.py
        decoding.rope_cached_step,
        ("q", "k", "v", "K_cache", "V_cache"),
        (
            Bug("rope_position_zero", decoding.rope_at_zero, "bug_rope_zero_or_none"),
            Bug("rope_after_append", decoding.rope_after_append, "bug_rope_after_append"),
            Bug("rope_key_not_turned", decoding.rope_key_not_turned, "bug_rope_key_not_turned"),
            Bug("rope_before_append", decoding.rope_before_cache_end, "bug_rope_one_too_few"),
            Bug("kv_misaligned", decoding.rope_k_at_the_front, "kv_misaligned"),
            Bug("kv_misaligned", decoding.rope_v_at_the_front, "kv_misaligned"),
            Bug("unscaled", decoding.rope_unscaled, "unscaled"),
            Bug("max_axis", decoding.rope_column_max, "bug_max_down_columns"),
            Bug("rope_cache_turned_again", decoding.rope_cache_turned_again, "bug_rope_cache_turned_again"),
            Bug("rope_query_not_turned", decoding.rope_query_not_turned, "bug_rope_query_not_turned"),
            Bug("used_keys_not_values", decoding.rope_keys_as_values, "used_keys"),
            Bug("softmax_axis", decoding.rope_softmax_down_the_column, "softmax_axis"),
            Bug("rope_negative_angle", decoding.rope_turned_backwards, "bug_rope_turned_backwards"),
            Bug("rope_key_one_ahead", decoding.rope_key_one_ahead, "bug_rope_key_one_ahead"),
            Bug("scaled_wrong_width", decoding.rope_scaled_by_root_d_v, "bug_scaled_by_root_d_v"),
        ),
        "axes_cached_o",
        may_call=("attn_core.rope", "attn_core.positions.rope", "attn_core.positions"),  # lesson 12's rope
        family=BugFamily(
            "rope_fixed_position",
            decoding.rope_at_a_fixed_position,
            tuple(range(1, 33)),
            "bug_rope_fixed_position",
            lambda q, k, v, K_cache, V_cache: str(len(K_cache)),
        ),
    ),
    "fix_induction_score": FunctionStep(  # lesson 15: the right function and the bugs are in checker/learned.py
        learned.induction_score,
        ("A", "start", "length"),
        (
            Bug("induction_at_occurrence", learned.induction_at_occurrence, "bug_induction_at_occurrence"),
            Bug("induction_previous_token", learned.induction_previous_token, "bug_induction_previous_token"),
            Bug("induction_over_heads", learned.induction_over_heads, "bug_induction_over_heads"),
            Bug("induction_wrong_column", learned.induction_column_too_far_back, "bug_induction_too_far_back"),
            Bug("induction_wrong_column", learned.induction_next_position, "bug_induction_next_position"),
            Bug("induction_wrong_column", learned.induction_rows_and_columns_swapped, "bug_induction_next_position"),
            Bug("induction_summed", learned.induction_summed, "bug_induction_summed"),
            Bug("induction_wrong_queries", learned.induction_first_copy, "bug_induction_first_copy"),
            Bug("induction_wrong_queries", learned.induction_queries_one_early, "bug_induction_queries_shifted"),
            Bug("induction_wrong_queries", learned.induction_queries_one_late, "bug_induction_queries_shifted"),
            Bug("induction_wrong_queries", learned.induction_queries_ending_late, "bug_induction_queries_shifted"),
            Bug("induction_wrong_queries", learned.induction_queries_ending_early, "bug_induction_queries_shifted"),
            Bug("induction_wrong_queries", learned.induction_queries_starting_late, "bug_induction_queries_shifted"),
            Bug("induction_max", learned.induction_max, "bug_induction_max"),
            Bug("induction_every_pair", learned.induction_every_pair, "bug_induction_every_pair"),
        ),
        "axes_induction_score",
        family=BugFamily(
            "induction_fixed_place",
            learned.induction_at_fixed_place,
            learned.FIXED_PLACES,
            "bug_induction_fixed_place",
            lambda A, start, length: f"({start}, {length})",
        ),
    ),
}


# ---------------------------------------------------------------- judging the calls


def _run(function, arguments):
    """``function(*arguments)`` on copies, or a CallFailed: the checker's own functions may raise too
    (a buggy version that cannot run on these shapes)."""
    try:
        return np.asarray(function(*(np.array(a, dtype=float) if _is_array(a) else a for a in arguments)))
    except Exception as e:
        return CallFailed(type(e).__name__, str(e))


def _is_array(a):
    return isinstance(a, (np.ndarray, list, tuple))


def describe(step, arguments):
    """The call, for a message: "Q (3, 4), K (5, 4)" or "M (5, 6), n_heads = 2"."""
    parts = []
    for name, value in zip(step.parameters, arguments):
        parts.append(f"{name} {shape_text(np.shape(value))}" if _is_array(value) else f"{name} = {value!r}")
    return ", ".join(parts)


def _reproduces(makes, calls):
    """The learner's results are what ``makes`` returns on every call (failing where it fails), and it ran
    at least once: the evidence for naming that bug."""
    ran = False
    for arguments, result in zip(calls.arguments, calls.results):
        made = _run(makes, arguments)
        if isinstance(made, CallFailed):
            if not isinstance(result, CallFailed):
                return False
            continue
        got = read_numbers(result).array if not isinstance(result, CallFailed) else None
        if got is None or not same(got, made.astype(np.float64)):
            return False
        ran = True
    return ran


def _exchanged(function, i, j):
    """``function`` with its arguments ``i`` and ``j`` exchanged."""

    def made(*arguments):
        order = list(arguments)
        order[i], order[j] = order[j], order[i]
        return function(*order)

    return made


NUMBER_AS_ARRAY = re.compile(
    r"'(int|float)' object (has no attribute|is not subscriptable)|type '(int|float)' has no len"
)


def _arguments_swapped(step, calls):
    """(code, key, fields) when the evidence is that the learner's function takes its arguments in another
    order than the call's (``def fixed_attention(Q, V, K)``, or ``buggy_attention(Q, V, K)`` passed on), else
    None. The evidence: its results are the right function's (or a known bug's) with two arguments exchanged,
    on every call (failing where that fails, and running at least once); or every call fails on a product
    whose sides are two arguments' widths and the right function with two arguments exchanged fails on every
    call too (which two is not told: the parameters' order is asked about); or every call treats a number
    argument as an array (``'int' object has no attribute 'shape'``: ``def fixed_split_heads(n_heads, M)``)."""
    names = step.parameters
    if len(calls.arguments[0]) != len(names) or len(names) < 2:
        return None
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    parameters = msg("list_separator").join(names)
    for i, j in pairs:
        fields = {"names": msg("fn_two_names", a=names[i], b=names[j]), "parameters": parameters, "also": ""}
        if _reproduces(_exchanged(step.right, i, j), calls):
            return "arguments_swapped", "fn_arguments_swapped", fields
        for bug in step.bugs:
            if _reproduces(_exchanged(bug.makes, i, j), calls):
                also = Said("fn_and_then", {"said": Said(bug.message)})
                return "arguments_swapped", "fn_arguments_swapped", fields | {"also": also}
    failures = [r for r in calls.results if isinstance(r, CallFailed)]
    if len(failures) != len(calls.results):
        return None
    first = describe(step, calls.arguments[0])
    if all(_a_product_of_two_widths(failed, arguments) for failed, arguments in zip(failures, calls.arguments)):
        if any(
            all(isinstance(_run(_exchanged(step.right, i, j), arguments), CallFailed) for arguments in calls.arguments)
            for i, j in pairs
        ):
            return "arguments_swapped", "fn_arguments_in_another_order", {"call": first, "parameters": parameters}
    numbers = [k for k, value in enumerate(calls.arguments[0]) if not _is_array(value)]
    if numbers and all(
        f.type_name in ("AttributeError", "TypeError") and NUMBER_AS_ARRAY.search(f.message) for f in failures
    ):
        fields = {"call": first, "parameters": parameters, "error": failures[0].type_name, "number": names[numbers[0]]}
        return "arguments_swapped", "fn_number_as_array", fields | {"detail": failures[0].message[:160]}
    return None


def _a_product_of_two_widths(failed, arguments):
    """``failed`` is numpy's "matmul: … mismatch" whose two sizes are the widths (last axes) of two of the
    call's arguments, of different widths: one array where the other belongs, perhaps."""
    found = MATMUL_SIZES.search(failed.message) if failed.type_name == "ValueError" else None
    if not found:
        return False
    widths = [int(np.shape(a)[-1]) for a in arguments if _is_array(a) and np.ndim(a) >= 2]
    left, right = int(found.group(2)), int(found.group(1))
    return left != right and left in widths and right in widths


def _right(reading, right, step, arguments):
    """The learner's result equals the right one; for a float32 result, the right one of the arguments as
    float32 holds them (scores near 1000 keep only about 4 decimals in float32: computing in float32 is a
    right way that cannot do better)."""
    if close(reading.array, right):
        return True
    if reading.dtype != np.float32:
        return False
    low = tuple(np.asarray(a, dtype=np.float32).astype(np.float64) if _is_array(a) else a for a in arguments)
    again = _run(step.right, low)
    return not isinstance(again, CallFailed) and bool(
        np.isclose(reading.array, again, rtol=1e-4, atol=1e-6).all() and reading.array.shape == again.shape
    )


GENERAL = ("wrong_values", "wrong_shape", "wrong_type", "not_finite", "int_dtype", "bad_task")


def _named_on_every_wrong_call(step, calls, arrays, rights, diagnose_value, codes_made=None):
    """("fn_mistake", its message) when the data step's checker names one and the same mistake for every
    call whose result is wrong (a hard-coded √3 is right where d_k = 3 and named everywhere else); None
    when a call has no named mistake, or two calls name different ones that no one mistake makes on all of
    them (``codes_made(step name, value, givens)``: every mistake that makes a value; QKᵀ/d_k is also
    QKᵀ/√d_v where d_v = d_k², and √d_v named on the other calls is then named)."""
    if diagnose_value is None or not step.step:
        return None
    named = []
    for arguments, a, right in zip(calls.arguments, arrays, rights):
        if a.shape == right.shape and close(a, right):
            continue
        d = diagnose_value(step.step, a, step.givens(*arguments))
        if a.size < 2 and d.code == "wrong_values":
            continue  # one number shows no pattern either way (rounded? scaled?): the other calls decide
        if d.code in EITHER:
            continue  # numbers two mistakes make alike: the other calls decide
        if d.code in ("a_multiple", "an_offset"):
            return None  # the data step's words ("this cell", its variable): the function's own say it
        if d.ok or d.code in GENERAL or d.code.startswith(("not_", "masked_", "negative_")):
            return None
        named.append((d, arguments))
    families = {SAME_MISTAKE.get(d.code, d.code) for d, _ in named}
    if len(families) > 1 and codes_made is not None:
        shared = set(families)
        for _, arguments in named:
            a = next(x for x, args in zip(arrays, calls.arguments) if args is arguments)
            shared &= {SAME_MISTAKE.get(c, c) for c in codes_made(step.step, a, step.givens(*arguments))}
        if len(shared) == 1:
            named = [(d, arguments) for d, arguments in named if SAME_MISTAKE.get(d.code, d.code) in shared]
            families = shared
    if len(families) != 1:
        return None
    d, arguments = min(named, key=lambda item: item[0].code not in SAME_MISTAKE.values())  # the general words
    return d.code, "fn_mistake", {"call": describe(step, arguments), "said": d.message}


# Codes of numbers that two mistakes make alike (the column max and K·Qᵀ on some 2 × 2 scores, or softmax down
# the columns on scores far apart): such a call shows neither, and the function's other calls decide.
EITHER = {"max_axis_or_transposed", "max_axis_or_softmax_axis"}

# Codes that name one mistake said two ways: a hard-coded √3 is "√n_q" where n_q happens to be 3, and
# "a fixed number" everywhere else; the general one is said.
SAME_MISTAKE = {"scaled_wrong_width": "scaled_fixed_width"}


# A call that never returned (``attn_homework.verdicts.call_function``): its CallFailed name -> the code.
STOPPED = {"TimeLimit": "too_slow", "KeyboardInterrupt": "interrupted", "SystemExit": "exits"}
TOO_LARGE = "TooLarge"  # the CallFailed name of a result too large to read (its message: the shape)
ASYNC = "coroutine"  # the CallFailed name of a call that handed back a coroutine (``async def``), closed unrun


FLOAT_AS_INT = ("cannot be interpreted as an integer", "integer argument expected, got float", "must be integers")


MATMUL_SIZES = re.compile(
    r"^matmul: Input operand 1 has a mismatch in its core dimension 0.*\(size (\d+) is different from (\d+)\)"
)


def _matmul_sizes(failed):
    """numpy's words for ``A @ B`` whose inner sizes differ, as a hint naming them ("" for any other error):
    the gufunc signature in numpy's message says nothing to a learner."""
    found = MATMUL_SIZES.search(failed.message) if failed.type_name == "ValueError" else None
    return msg("fn_matmul_sizes", right=found.group(1), left=found.group(2)) if found else ""


BROADCAST_SHAPES = re.compile(r"operands could not be broadcast together with shapes ((?:\([0-9, ]*\) ?)+)")


def _broadcast_shapes(failed):
    """The shapes numpy's "could not be broadcast" names, or [] for any other error."""
    found = BROADCAST_SHAPES.search(failed.message) if failed.type_name == "ValueError" else None
    if not found:
        return []
    return [tuple(int(n) for n in s.split(",") if n.strip()) for s in re.findall(r"\(([0-9, ]*)\)", found.group(1))]


def _foreign_size(failed, arguments):
    """The size of an n × n array in a broadcast error beside one of the call's positions, when no argument has
    that many positions (``np.ones((4, 4))`` called with 5), or None."""
    shapes = _broadcast_shapes(failed)
    sizes = {int(np.shape(x)[-2]) for x in arguments if _is_array(x) and np.ndim(x) >= 2}  # positions (rows)
    square = {s[0] for s in shapes if len(s) == 2 and s[0] == s[1]}  # an n × n mask beside the n × n scores
    foreign = sorted(square - sizes)
    return foreign[0] if foreign and square & sizes else None


def _size_taken_from(step, calls):
    """The axes of the arguments ("V.shape[1]") whose length is the foreign size (``_foreign_size``) on every
    call that failed with one and the number of positions on every call that did not fail, and that is not the
    same on every call: the size taken from another array or axis (``n = V.shape[1]``), not written in (a
    written-in 4 does not follow an axis from call to call). [] when no axis does."""
    wanted = []  # per call: the length the axis must have, or None (a call that failed otherwise)
    for arguments, result in zip(calls.arguments, calls.results):
        positions = [int(np.shape(x)[-2]) for x in arguments if _is_array(x) and np.ndim(x) >= 2]
        if isinstance(result, CallFailed):
            wanted.append(_foreign_size(result, arguments))
        else:
            wanted.append(positions[0] if positions else None)
    if not any(isinstance(r, CallFailed) and w is not None for r, w in zip(calls.results, wanted)):
        return []
    found = []
    for k, name in enumerate(step.parameters):
        ndims = {np.ndim(arguments[k]) for arguments in calls.arguments if k < len(arguments)}
        if len(ndims) != 1 or not all(k < len(arguments) and _is_array(arguments[k]) for arguments in calls.arguments):
            continue
        for i in range(ndims.pop()):
            lengths = [int(np.shape(arguments[k])[i]) for arguments in calls.arguments]
            fits = all(w is None or n == w for n, w in zip(lengths, wanted))
            if fits and len(set(lengths)) > 1:
                found.append(f"{name}.shape[{i}]")
    return found


def _broadcast_sizes(failed, arguments, taken_from=()):
    """A hint for numpy's "could not be broadcast" ("" when there is none to give): one shape the other
    without its last axis is a row sum or maximum taken without keepdims; a size no argument has as its
    number of positions is one written into the function (``np.ones((4, 4))`` called with 5 positions) or,
    when the same axis of an argument holds it on every such call (``taken_from``), taken from that axis
    (``n = V.shape[1]``): both are then said."""
    shapes = _broadcast_shapes(failed)
    for a in shapes:
        for b in shapes:
            if len(a) >= 2 and b == a[:-1]:
                return msg("fn_broadcast_keepdims", full=shape_text(a), flat=shape_text(b))
    size = _foreign_size(failed, arguments)
    if size is None:
        return ""
    if taken_from:
        return msg("fn_broadcast_size_of", size=size, names=msg("list_separator").join(taken_from))
    return msg("fn_broadcast_fixed_size", size=size)


RESHAPE_SIZES = re.compile(r"cannot reshape array of size (\d+) into shape (\([^)]*\))")


def _reshape_sizes(failed, step):
    """A hint for numpy's "cannot reshape array of size N into shape (…)" ("" for any other error): the
    checker's calls have other shapes than the notebook's, so a size written into the reshape (2 heads, a
    head width of 3) or read from another array no longer fits; the sizes come from the parameters."""
    found = RESHAPE_SIZES.search(failed.message) if failed.type_name == "ValueError" else None
    if not found:
        return ""
    return msg(
        "fn_reshape_sizes",
        size=found.group(1),
        shape=found.group(2).replace("newaxis", "-1").replace(",", ", ").replace(",  ", ", "),
        parameters=msg("list_separator").join(step.parameters),
    )


def _a_float_where_an_int_belongs(failed):
    """The evidence that a size or an index was a float (``d_model / n_heads``): Python's own words for it."""
    return failed.type_name == "TypeError" and any(words in failed.message for words in FLOAT_AS_INT)


def _number(x):
    """An entry as a message says it: −∞, +∞, NaN or the number to 4 significant digits."""
    x = float(x)
    if np.isnan(x):
        return "NaN"
    if np.isinf(x):
        return "−∞" if x < 0 else "+∞"
    return f"{x:.4g}"


LONG_DOUBLE_EXP = 11356.0  # x86's 80-bit long double overflows e^x just above this; float64 above 709.78


def _long_double_only(calls, arrays, rights, step, failed_arguments):
    """The evidence of a softmax without the maximum subtracted, computed in np.longdouble on a machine where
    that is 80-bit: it is right on every call, also on scores near 1000 (which overflow float64), and not
    finite only where the scores pass e^11356 (``failed_arguments``)."""

    def largest(arguments):
        return max((np.abs(a).max() for a in arguments if _is_array(a) and np.size(a)), default=0.0)

    if largest(failed_arguments) <= LONG_DOUBLE_EXP:
        return False
    below = [
        (a, right)
        for arguments, a, right in zip(calls.arguments, arrays, rights)
        if largest(arguments) <= LONG_DOUBLE_EXP
    ]
    overflowing = [
        right
        for arguments, _, right in zip(calls.arguments, arrays, rights)
        if 709.78 < largest(arguments) <= LONG_DOUBLE_EXP
    ]
    return bool(overflowing) and all(a.shape == right.shape and close(a, right) for a, right in below)


def _columns_sum_to_1(calls, arrays, rights):
    """The arguments of a wrong call when, on every wrong call, the right answer is weights (each row sums to
    1) and the function's result has each column summing to 1 instead (but a column that is NaN throughout, 0/0
    where exp underflowed down it), some row not: normalised down the columns, whatever was subtracted before
    exp. None otherwise."""
    wrong = []
    for arguments, a, right in zip(calls.arguments, arrays, rights):
        if a.shape == right.shape and close(a, right):
            continue
        if a.shape != right.shape or a.ndim < 2 or a.shape[-2] < 2 or a.dtype == bool:
            return None
        with np.errstate(all="ignore"):
            weights = bool(np.abs(right.sum(axis=-1) - 1).max() < 1e-6)
            sums = a.sum(axis=-2)  # a column that is 0/0 (exp underflowed all down it) is NaN: the others decide
            columns = bool(np.isfinite(sums).any() and np.abs(sums[np.isfinite(sums)] - 1).max() < 1e-6)
            rows = bool(np.abs(np.nan_to_num(a.sum(axis=-1), nan=np.inf) - 1).max() < 1e-6)
        if not (weights and columns and not rows):
            return None
        wrong.append(arguments)
    return wrong[0] if wrong else None


@dataclass(frozen=True)
class _Right:
    expected: np.ndarray  # what evidence.multiple and evidence.offset read of the givens


def _alike_on_every_wrong_call(calls, arrays, rights):
    """(code, key, fields) when every wrong call is the right result rounded to the same number of decimals,
    times the same factor, or plus the same number (the evidence of one step too many, whatever the task);
    None otherwise. The calls that can tell (two or more different numbers) decide, and every other wrong
    call must fit what they found. The factor is named only as a whole number or a root (never a decimal
    that, with the learner's numbers, gives the right ones away); the number added is not named."""
    wrong = [(a, r) for a, r in zip(arrays, rights) if not (a.shape == r.shape and close(a, r))]
    if not wrong or any(a.shape != r.shape or a.dtype == bool or not np.isfinite(a).all() for a, r in wrong):
        return None
    decimals = {rounded_to(a, r) for a, r in wrong} - {None}
    if len(decimals) == 1:
        d = decimals.pop()
        if all(np.allclose(a, np.round(r, d), rtol=0, atol=1e-9) for a, r in wrong):
            return "almost_right", "fn_rounded", {"decimals": d}
    factors = {round(f, 9) for f in (evidence.multiple(a, _Right(r)) for a, r in wrong) if f is not None}
    if len(factors) == 1:
        c = factors.pop()
        if all(np.allclose(a, c * r, rtol=1e-6, atol=1e-9) for a, r in wrong):
            named = factor_text(c)
            return "a_multiple", *(("fn_multiple", {"factor": named}) if named else ("fn_multiple_plain", {}))
    each = [evidence.multiple(a, _Right(r)) for a, r in wrong]
    if len(factors) > 1 and all(
        f is not None and np.allclose(a, f * r, rtol=1e-6, atol=1e-9) for f, (a, r) in zip(each, wrong)
    ):
        return "a_multiple", "fn_multiple_varies", {}  # a factor that follows the shapes (√d_head)
    shifts = {round(c, 9) for c in (evidence.offset(a, _Right(r)) for a, r in wrong) if c is not None}
    if len(shifts) == 1:
        c = shifts.pop()
        if all(np.allclose(a, r + c, rtol=0, atol=1e-9 * (1 + np.abs(r).max())) for a, r in wrong):
            return "an_offset", "fn_offset", {}
    return None


def judge(step, calls, diagnose_value=None, codes_made=None):
    """(code, message key, fields) for ``calls`` of the learner's function (``FunctionCalls``).
    ``diagnose_value(step name, value, givens)`` is the checker's ``Diagnosis`` of one returned value for
    the data step behind the function (``FunctionStep.step``): a mistake it names on every call that went
    wrong is named for the function too (``codes_made``: every mistake that makes a value, for calls where
    two mistakes make the same numbers)."""
    if not calls.arguments or len(calls.arguments) != len(calls.results):
        return "bad_task", "bad_task", {"e": "no calls"}
    # the notebook asks for one's own numpy code, not the reference it is checked against (a helper the
    # notebook hands out, such as lesson 12's rope in 14.4, excepted)
    delegates = [n for n in calls.delegates.split(", ") if n and n not in step.may_call]
    if delegates:
        return "delegates", "fn_delegates", {"name": delegates[0]}
    if calls.changed:
        index = calls.changed[0]
        changed = [
            name
            for i, (name, value) in enumerate(zip(step.parameters, calls.arguments[index]))
            if _is_array(value) and (not calls.changed_arguments or i in calls.changed_arguments)
        ]
        fields = {"call": describe(step, calls.arguments[index]), "names": ", ".join(changed)}
        return "changes_input", "fn_changes_input_form" if calls.changed_form else "fn_changes_input", fields
    rights = [_run(step.right, arguments) for arguments in calls.arguments]
    failed = next((r for r in rights if isinstance(r, CallFailed)), None)
    if failed is not None:  # the task's own probes do not fit its function: the author's bug
        return "bad_task", "bad_task", {"e": f"{failed.type_name}: {failed.message}"}
    readings = [None if isinstance(r, CallFailed) else read_numbers(r) for r in calls.results]
    if all(
        r is not None and r.array is not None and _right(r, right, step, arguments)
        for r, right, arguments in zip(readings, rights, calls.arguments)
    ):
        for arguments, r in zip(calls.arguments, readings) if diagnose_value is not None and step.step else ():
            d = diagnose_value(step.step, r.array, step.givens(*arguments))
            if d.code == "finite_fill":  # right within the tolerance, but a blocked key keeps a weight (−20)
                return d.code, "fn_mistake", {"call": describe(step, arguments), "said": d.message}
        rounded = {rounded_within(r.array, right) for r, right in zip(readings, rights)}
        if len(rounded) == 1 and None not in rounded:  # within the tolerance on every call only by luck
            return "almost_right", "fn_rounded", {"decimals": rounded.pop()}
        return "ok", "fn_ok", {"count": len(rights)}
    for bug in step.bugs:
        if _reproduces(bug.makes, calls):
            return bug.code, bug.message, {}
    family = step.family
    for value in family.values if family is not None else ():
        if _reproduces(family.makes(value), calls):
            sizes = msg("list_separator").join(family.sizes(*arguments) for arguments in calls.arguments)
            return family.code, family.message, {"value": value, "sizes": sizes}
    swapped = _arguments_swapped(step, calls)
    if swapped is not None:
        return swapped
    if calls.arrays_read:  # K_demo where K belongs: the notebook's data, not the checker's
        names = msg("list_separator").join(calls.arrays_read.split(", "))
        return (
            "uses_global",
            "fn_uses_global",
            {"names": names, "parameters": msg("list_separator").join(step.parameters)},
        )
    for arguments, result, reading, right in zip(calls.arguments, calls.results, readings, rights):
        call = describe(step, arguments)
        if isinstance(result, CallFailed) and result.type_name in STOPPED:
            seconds, _, running = result.message.partition(" ")
            fields = {"call": call, "seconds": seconds, "still": msg("fn_still_running") if running else ""}
            return STOPPED[result.type_name], f"fn_{STOPPED[result.type_name]}", fields
        if isinstance(result, CallFailed) and result.type_name == ASYNC:
            return "wrong_type", "fn_async", {"call": call}
        if isinstance(result, CallFailed) and result.type_name == TOO_LARGE:
            fields = {"call": call, "got": result.message, "expected": shape_text(np.shape(right))}
            return "wrong_shape", "fn_wrong_shape", fields
        if isinstance(result, CallFailed):
            detail = result.message.split(", with gufunc signature")[0]  # numpy's internals, then the sizes
            detail = detail if len(detail) <= 160 else detail[:157] + "…"
            hint = (
                msg("fn_float_size")
                if _a_float_where_an_int_belongs(result)
                else _matmul_sizes(result)
                or _broadcast_sizes(result, arguments, _size_taken_from(step, calls))
                or _reshape_sizes(result, step)
            )
            fields = {"call": call, "error": result.type_name, "detail": detail, "hint": hint}
            return "function_raised", "fn_raised", fields
        if result is None:
            return "is_none", "fn_returned_none", {"call": call}
        if reading.array is None:
            return "wrong_type", "fn_wrong_type", {"call": call, "got": reading.got}
    for arguments, result, reading, right in zip(calls.arguments, calls.results, readings, rights):
        if reading.array.ndim == 0 and np.ndim(right) > 0:  # ``return 3``: one number, whatever its dtype
            got = type(result).__name__ if not isinstance(result, np.ndarray) else f"0-d {result.dtype}"
            fields = {"call": describe(step, arguments), "got": got, "expected": shape_text(np.shape(right))}
            return "wrong_shape", "fn_returned_number", fields
    for arguments, reading, right in zip(calls.arguments, readings, rights):
        fractions = np.isfinite(right) & (right != np.rint(right))
        if reading.dtype is not None and reading.dtype.kind in "iu" and fractions.any():
            return "int_dtype", "fn_int_dtype", {"call": describe(step, arguments), "dtype": str(reading.dtype)}
    arrays = [r.array for r in readings]
    for arguments, a in zip(calls.arguments, arrays):  # before the overflow every wrong call shows: why only here
        if not np.isfinite(a).all() and _long_double_only(calls, arrays, rights, step, arguments):
            return "overflow", "fn_long_double", {"call": describe(step, arguments)}
    named = _named_on_every_wrong_call(step, calls, arrays, rights, diagnose_value, codes_made)
    if named is not None:
        return named
    alike = _alike_on_every_wrong_call(calls, arrays, rights)
    if alike is not None:
        return alike
    columns = _columns_sum_to_1(calls, arrays, rights)
    if columns is not None:  # 4.1's words for the same evidence (E.sum(axis=0) after the row maximum)
        return "softmax_axis", "fn_mistake", {"call": describe(step, columns), "said": msg("softmax_axis")}
    if len(arrays) > 1 and all(a.shape == arrays[0].shape and np.array_equal(a, arrays[0]) for a in arrays):
        if not all(right.shape == rights[0].shape and close(right, rights[0]) for right in rights):
            return "hard_coded", "fn_same_output", {}
    for arguments, a, right in zip(calls.arguments, arrays, rights):
        call = describe(step, arguments)
        if a.shape != right.shape:
            fields = {"call": call, "got": shape_text(a.shape), "expected": shape_text(right.shape)}
            return "wrong_shape", "fn_wrong_shape", fields
        if not close(a, right):
            if not np.isfinite(right).all():  # ∞ is part of the right answer (an additive mask's −∞): no overflow
                index = largest_difference(a, right)
                fields = {"call": call, "where": place(index, a.shape, (), True)}
                fields |= {"got": _number(a[index]), "expected": _number(right[index])}
                return "wrong_values", "fn_wrong_entry", fields
            if not np.isfinite(a).all():
                return "not_finite", "fn_not_finite", {"call": call}
            where = place(largest_difference(a, right), a.shape, (), True)
            return "wrong_values", "fn_wrong_values", {"call": call, "where": where}
    return "wrong_values", "fn_wrong_values", {"call": describe(step, calls.arguments[0]), "where": "?"}
