"""The homework checker: what is wrong with one step of attention, said without giving the answer away.

    diagnose("scores", QKT, Q=Q, K=K)   -> Diagnosis(ok, code, message, step)
    report("scores", QKT, Q=Q, K=K)     prints one line: "✅ …", "❌ …" or "⏳ 还没作答 …"

The right array is computed from the givens with attn_core's own functions. An answer is then tested in
this order: placeholder (``...`` / None) → type → NaN/∞ → equal to the right array → equal to what a known
mistake gives (each mistake recomputed from the givens, in its step's table order) → shape → rules (each
row sums to 1, masked weights are 0) → wrong values (where the largest difference is). Messages say what
is wrong, why, and the fix in words; never the expected numbers or solution code.

Equal means |answer − right| ≤ ATOL + RTOL·(|right| + max|right|) entry by entry, so a right answer
computed another way (loops, einsum, float32) passes, near-zero entries included.

Degenerate givens can make a mistake give the right array: d_k = 1 (scaled = unscaled), Q = K (QKᵀ is
symmetric, so KQᵀ = QKᵀ), n = 1 (all triangles of a causal mask agree), a mask that hides nothing. The
right array is tested first, so such an answer is reported correct, as it is for those givens. When two
mistakes give the same array, the first in the table is named (e.g. a strict upper triangle mask is both
"inverted" and "upper": it is reported as mask_inverted). Some other ways are simply right and pass:
softmax without subtracting the row maximum (when nothing overflows), −1e9 instead of −∞ before softmax,
and "softmax, zero the masked weights, renormalise each row" (= softmax of the masked scores).

``diagnose`` never raises and never writes into the answer or the givens. Givens that attn_core rejects
give code "bad_task" (an exercise author's bug); an error inside the checker itself "checker_error".
"""

import warnings
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from .. import _validate as v
from .. import core
from ..lang import tr

RTOL, ATOL = 1e-5, 1e-8


@dataclass(frozen=True)
class Diagnosis:
    """One checked answer: ``ok``, ``code`` ("ok", "not_attempted", "wrong_shape", "unscaled", …),
    ``message`` (learner-facing, in the current language) and the ``step`` checked."""
    ok: bool
    code: str
    message: str
    step: str

    def __str__(self):
        icon = "✅" if self.ok else "⏳" if self.code == "not_attempted" else "❌"
        return f"{icon} {self.message}"


def report(step, answer, **given):
    """Print the one-line verdict of ``diagnose`` (for a one-line check cell)."""
    print(diagnose(step, answer, **given))


def diagnose(step, answer, **given):
    """Check ``answer`` for ``step`` (one of STEPS), the right array being computed from ``given``."""
    name = step if isinstance(step, str) else repr(step)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return _diagnose(name, answer, given)
    except Exception as e:  # pragma: no cover - a checker bug must not break a learner's cell
        return _dx("checker_error", name, "checker_error", e=f"{type(e).__name__}: {e}")


# ---------------------------------------------------------------- the flow

def _text(key, **labels):
    """A message in the current language; "O:key" is an output mistake caused by the weights."""
    prefix, key = (_text("O:"), key[2:]) if key.startswith("O:") and key != "O:" else ("", key)
    return prefix + tr(*_MSG[key]).format(**labels)


def _dx(code, step, key, **labels):
    return Diagnosis(code == "ok", code, _text(key, **labels), step)


def _diagnose(step, answer, given):
    spec = _STEPS.get(step)
    if spec is None:
        return _dx("bad_task", step, "bad_task", e=f"unknown step {step!r} (steps: {', '.join(STEPS)})")
    missing = [k for k in spec.needs if k not in given]
    extra = [k for k in given if k not in spec.needs + spec.optional + ("name", "tokens")]
    if missing or extra:
        return _dx("bad_task", step, "bad_task", e=f"step {step!r} needs {list(spec.needs)}, may take "
                   f"{list(spec.optional)}; missing {missing}, unexpected {extra}")
    try:
        g = {**_prepare(given), **spec.fixed}
        g["expected"] = expected = spec.expected(g)
    except Exception as e:
        return _dx("bad_task", step, "bad_task", e=f"{type(e).__name__}: {e}")
    labels = {"sym": g["name"] or spec.sym, "w": f"W_{g['name']}" if g["name"] else "W"}
    if answer is None or answer is Ellipsis:
        return _dx("not_attempted", step, "not_attempted", **labels)

    a, got = _as_answer(answer, spec.boolean)
    if a is None:
        return _dx("wrong_type", step, "wrong_type", got=got, kind=_text(f"kind_{spec.boolean}"),
                   hint=_text("mask_type") if spec.boolean else "", **labels)
    if not spec.boolean:
        bad = np.isnan(a) | np.isposinf(a) | (np.isneginf(a) & ~np.isneginf(expected).any())
        if bad.any():
            return _dx("not_finite", step, "not_finite", count=int(bad.sum()), hint=_text(spec.finite_hint),
                       where=_where(np.argwhere(bad)[0], a.shape, g, spec), **labels)

    if _close(a, expected):
        return _dx("ok", step, "ok", shape=_shape(a.shape), **labels)
    for code, make, key in spec.mistakes:
        wrong = _try(make, g)
        if wrong is not None and _close(a, np.asarray(wrong)):
            return _dx(code, step, key, **labels)
    if a.shape != expected.shape:
        hint = next((key for shape_of, key in spec.hints if a.shape == _try(lambda g, f=shape_of: tuple(f(g)), g)),
                    "fewer_axes" if a.ndim < expected.ndim else "more_axes" if a.ndim > expected.ndim else "shape")
        return _dx("wrong_shape", step, "wrong_shape", expected=_shape(expected.shape), got=_shape(a.shape),
                   axes=_text(spec.axes), hint=_text(hint, **labels), **labels)
    for code, rule, key in spec.checks:
        idx = rule(a, g)
        if idx is not None:
            return _dx(code, step, key, where=_where(idx, a.shape, g, spec), **labels)
    idx = _worst(a, expected)
    return _dx("wrong_values", step, "wrong_values", where=_where(idx, a.shape, g, spec),
               entry=_text(spec.entry, i=idx[-2], j=idx[-1], **labels), **labels)


def _try(fn, g):
    try:
        return fn(g)
    except Exception:  # e.g. this mistake cannot be made with these shapes
        return None


def _shape(shape):
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _as_answer(answer, boolean):
    """(a float64 copy of the answer — a bool copy for a mask — or None, what the learner gave)."""
    got = type(answer).__name__
    if isinstance(answer, (str, bytes, dict, set, frozenset)):
        return None, got
    try:
        arr = np.array(answer)  # a copy: the learner's array is never touched
    except Exception:
        return None, got + tr("（各行长短不一）", " (rows of different lengths)")
    got += f", dtype {arr.dtype}" if arr.dtype != object else ""
    if boolean:
        return (arr if arr.dtype == bool else None), got
    return (arr.astype(np.float64) if arr.dtype.kind in "iuf" else None), got


def _tol(b):
    finite = np.abs(b[np.isfinite(b)])
    return ATOL + RTOL * (finite.max() if finite.size else 0.0)


def _close(a, b):
    if a.shape != b.shape or (a.dtype == bool) != (b.dtype == bool):
        return False
    return bool(np.array_equal(a, b) if a.dtype == bool else np.isclose(a, b, rtol=RTOL, atol=_tol(b)).all())


def _worst(a, b):
    """Index of the largest difference between two arrays of the same shape."""
    if a.dtype == bool:
        diff = (a != b).astype(float)
    else:
        diff = np.where(np.isclose(a, b, rtol=RTOL, atol=_tol(b)), -1.0,
                        np.nan_to_num(np.abs(a - b), nan=np.inf, posinf=np.inf))
    return tuple(int(i) for i in np.unravel_index(np.argmax(diff), a.shape))


def _where(idx, shape, g, spec):
    """"[2, 1]（第 2 行“学习”、第 1 列“喜欢”；从 0 数起）"; an index one short of the shape names a row."""
    idx, tok = tuple(int(i) for i in idx), g["tokens"]
    if not shape:
        return tr("这个数", "the number")
    if len(shape) < 2:
        return "[" + ", ".join(map(str, idx)) + "]"

    def token(i, n):
        return tr("", " ") + f"“{tok[i]}”" if len(tok) == n else ""

    def row(i):
        return tr(f"第 {i} 行", f"row {i}") + token(i, shape[-2])
    if len(idx) < len(shape):
        return row(idx[-1])
    j = idx[-1]
    col = tr(f"第 {j} 列", f"column {j}") + (token(j, shape[-1]) if spec.key_cols else "")
    return f"[{', '.join(map(str, idx))}]" + tr(f"（{row(idx[-2])}、{col}；从 0 数起）",
                                                 f" ({row(idx[-2])}, {col}; counting from 0)")


# ---------------------------------------------------------------- givens

def _matrix(x, name, neg_inf=False):
    a = np.array(x)  # a copy
    if a.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be an array of real numbers, got {type(x).__name__} of dtype {a.dtype}")
    if a.ndim < 2:
        raise ValueError(f"{name} must have at least 2 axes (rows × features), got shape {a.shape}")
    a = a.astype(np.float64)
    v.check_finite(a, name, allow_neg_inf=neg_inf)
    return a


def _prepare(given):
    g = {k: _matrix(x, k, neg_inf=k == "S") for k, x in given.items() if k in ("X", "W", "Q", "K", "V", "A", "S")}
    g["mask"] = None if given.get("mask") is None else np.array(given["mask"])
    if g["mask"] is not None and g["mask"].dtype != bool:
        raise TypeError(f"mask must be boolean (True = may attend), got dtype {g['mask'].dtype}")
    d_k, scaled, n = given.get("d_k", g["Q"].shape[-1] if "Q" in g else 1), given.get("scaled", True), given.get("n")
    if isinstance(d_k, bool) or not isinstance(d_k, (int, float, np.integer, np.floating)) or not 0 < d_k < np.inf:
        raise ValueError(f"d_k must be a positive number, got {d_k!r}")
    if not isinstance(scaled, (bool, np.bool_)):
        raise TypeError(f"scaled must be True or False, got {scaled!r}")
    if "n" in given and (isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1):
        raise ValueError(f"n must be a positive integer, got {n!r}")
    name, tokens = given.get("name"), given.get("tokens")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a string such as 'Q', got {name!r}")
    return {**g, "d_k": float(d_k), "scaled": bool(scaled), "n": n, "name": name,
            "tokens": () if tokens is None else tuple(str(t) for t in tokens)}


# ---------------------------------------------------------------- steps and their mistakes

def _T(x):
    return np.swapaxes(x, -1, -2)


def _scores_expected(g):
    S = core.scores(g["Q"], g["K"])
    S = core.scale(S, g["d_k"]) if g["scaled"] else S
    if g["mask"] is not None:
        S = core.apply_mask(S, g["mask"])
        g["keep"] = np.broadcast_to(g["mask"], S.shape)  # where weights may be non-zero
    return S


def _softmax_expected(g):
    if np.isneginf(g["S"]).any():
        g["keep"] = ~np.isneginf(g["S"])
    return core.softmax(g["S"])


def _pipe(g, upto, qk=None, div=None, mask="ok", axis=-1):
    """Scores (upto="S"), weights ("A") or output ("O") recomputed with one thing changed."""
    S = (core.scores(g["Q"], g["K"]) if qk is None else qk) / (
        (np.sqrt(g["d_k"]) if g["scaled"] else 1.0) if div is None else div)
    m = g["mask"]
    if m is not None and mask == "after":
        A = core.softmax(S, axis=axis) * m
    else:
        if m is not None and mask != "none":
            S = np.where(~m if mask == "inverted" else m, S, 0.0 if mask == "zero" else -np.inf)
        A = S if upto == "S" else core.softmax(S, axis=axis)
    return A if upto in "SA" else A @ g["V"]


def _family(upto):
    """The mistakes shared by scores (upto="S"), weights ("A") and output ("O")."""
    p, pre = partial(_pipe, upto=upto), "O:" if upto == "O" else ""
    when = {"": lambda g: True, "scaled": lambda g: g["scaled"], "unscaled": lambda g: not g["scaled"],
            "mask": lambda g: g["mask"] is not None, "A": lambda g: upto != "S" and g["mask"] is not None,
            "axis": lambda g: upto != "S", "SA": lambda g: upto != "O"}
    rows = [
        ("transposed", "", lambda g: p(g, qk=core.scores(g["K"], g["Q"])), "transposed_qk"),
        ("transposed", "SA", lambda g: _T(g["expected"]), "transposed"),
        ("missing_transpose", "", lambda g: p(g, qk=g["Q"] @ g["K"]), "missing_transpose"),
        ("unscaled", "scaled", lambda g: p(g, div=1.0), "unscaled"),
        ("scaled_by_dk", "scaled", lambda g: p(g, div=g["d_k"]), "scaled_by_dk"),
        ("scale_multiplied", "scaled", lambda g: p(g, div=1 / np.sqrt(g["d_k"])), "scale_multiplied"),
        ("scaled_not_asked", "unscaled", lambda g: p(g, div=np.sqrt(g["d_k"])), "scaled_not_asked"),
        ("scaled_not_asked", "unscaled", lambda g: p(g, div=g["d_k"]), "scaled_not_asked"),
        ("softmax_axis", "axis", lambda g: p(g, axis=-2), "softmax_axis"),
        ("mask_after_softmax", "A", lambda g: p(g, mask="after"), "mask_after_softmax"),
        ("mask_ignored", "mask", lambda g: p(g, mask="none"), "mask_ignored"),
        ("mask_inverted", "mask", lambda g: p(g, mask="inverted"), "mask_inverted"),
        ("mask_zero", "mask", lambda g: p(g, mask="zero"), "mask_zero"),
    ]
    rows = [(code, lambda g, f=make, ok=when[w]: f(g) if ok(g) else None, pre + key) for code, w, make, key in rows]
    if upto == "A":
        rows += [("no_softmax", lambda g: _pipe(g, "S", mask="none"), "no_softmax"),
                 ("no_softmax", lambda g: _pipe(g, "S", div=1.0, mask="none"), "no_softmax")]
    if upto == "O":
        rows += [("used_scores_not_weights", lambda g: _pipe(g, "S", mask="none") @ g["V"], "used_scores"),
                 ("used_scores_not_weights", lambda g: _pipe(g, "S", div=1.0, mask="none") @ g["V"], "used_scores"),
                 ("used_keys_not_values", lambda g: _pipe(g, "A") @ g["K"], "used_keys"),
                 ("not_normalized", lambda g: np.exp(_pipe(g, "S")) @ g["V"], "not_normalized_O")]
    return tuple(rows)


def _rows_not_summing_to_1(a, g):
    bad = ~np.isclose(a.sum(axis=-1), 1.0, rtol=RTOL, atol=1e-6)
    return tuple(np.argwhere(bad)[0]) if bad.any() else None


def _masked_not_neg_inf(a, g):
    keep = g.get("keep")
    if keep is None or not np.isclose(a[keep], g["expected"][keep], rtol=RTOL, atol=_tol(g["expected"])).all():
        return None
    bad = ~keep & ~np.isneginf(a)
    return tuple(np.argwhere(bad)[0]) if bad.any() else None


def _masked_not_zero(a, g):
    bad = ~g["keep"] & ~np.isclose(a, 0.0, rtol=0, atol=ATOL) if "keep" in g else np.zeros(0, bool)
    return tuple(np.argwhere(bad)[0]) if bad.any() else None


@dataclass(frozen=True)
class _Step:
    needs: tuple
    optional: tuple
    expected: object       # g -> the right array, computed with attn_core
    sym: str
    axes: str              # message key: what the axes of the right array mean
    entry: str             # message key: what entry [i, j] means (for wrong_values)
    mistakes: tuple = ()   # (code, g -> the array the mistake gives or None if it does not apply, message key)
    hints: tuple = ()      # (g -> a wrong shape, message key: what usually produces it)
    checks: tuple = ()     # (code, (answer, g) -> index where a rule breaks or None, message key)
    fixed: dict = field(default_factory=dict)
    boolean: bool = False
    key_cols: bool = True  # columns are key positions (named after the tokens, if given)
    finite_hint: str = "finite"


_CHECKS = (("wrong_mask", _masked_not_zero, "wrong_mask"), ("not_normalized", _rows_not_summing_to_1, "not_normalized"))
_S_CHECKS = (("wrong_mask", _masked_not_neg_inf, "wrong_mask_S"),)
_QK_HINTS = ((lambda g: _T(g["expected"]).shape, "hint_transposed_S"),
             (lambda g: g["Q"].shape, "hint_Q_shape"),
             (lambda g: g["Q"].shape[:-2] + (g["Q"].shape[-1],) * 2, "hint_QtK"))
_O_HINTS = ((lambda g: g["expected"].shape[:-1] + (g["K"].shape[-2],), "hint_A_shape"),
            (lambda g: g["expected"].shape[:-1] + (g["K"].shape[-1],), "hint_K_width"),
            (lambda g: _T(g["expected"]).shape, "hint_transposed_O"))
_WEIGHTS = dict(sym="A", axes="axes_S", entry="entry_A", mistakes=_family("A"), hints=_QK_HINTS, checks=_CHECKS,
                finite_hint="finite_A")
_STEPS = {
    "projection": _Step(
        ("X", "W"), (), lambda g: v.linear(g["X"], g["W"], "X", "W"), "XW", "axes_XW", "entry_XW",
        (("transposed", lambda g: _T(g["expected"]), "transposed_XW"),
         ("weight_transposed", lambda g: g["X"] @ _T(g["W"]), "weight_transposed")),
        ((lambda g: _T(g["expected"]).shape, "hint_transposed_XW"), (lambda g: _T(g["X"]).shape, "hint_Xt"),
         (lambda g: g["X"].shape, "hint_X_shape")), key_cols=False),
    "scores": _Step(("Q", "K"), ("mask",), _scores_expected, "QKᵀ", "axes_S", "entry_QKT", _family("S"), _QK_HINTS,
                    _S_CHECKS, fixed={"scaled": False}),
    "scaled_scores": _Step(("Q", "K"), ("d_k", "mask"), _scores_expected, "S", "axes_S", "entry_S", _family("S"),
                           _QK_HINTS, _S_CHECKS, fixed={"scaled": True}),
    "softmax": _Step(("S",), (), _softmax_expected, "A", "axes_S", "entry_A",
                     (("softmax_axis", lambda g: core.softmax(g["S"], axis=-2), "softmax_axis"),
                      ("transposed", lambda g: _T(g["expected"]), "transposed"),
                      ("no_softmax", lambda g: g["S"], "no_softmax")), _QK_HINTS[:1], _CHECKS, finite_hint="finite_A"),
    "weights": _Step(("Q", "K"), ("mask", "d_k", "scaled"), lambda g: core.softmax(_scores_expected(g)), **_WEIGHTS),
    "masked_weights": _Step(("Q", "K", "mask"), ("d_k", "scaled"), lambda g: core.softmax(_scores_expected(g)),
                            **_WEIGHTS),
    "weighted_sum": _Step(
        ("A", "V"), ("K", "S"), lambda g: core.weighted_sum(g["A"], g["V"]), "O", "axes_O", "entry_O",
        (("transposed", lambda g: _T(g["expected"]), "transposed_O"),
         ("transposed", lambda g: _T(g["A"]) @ g["V"], "transposed_A"),
         ("used_keys_not_values", lambda g: g["A"] @ g["K"], "used_keys"),
         ("used_scores_not_weights", lambda g: g["S"] @ g["V"], "used_scores")),
        ((lambda g: g["A"].shape, "hint_A_shape"),) + _O_HINTS[1:], key_cols=False),
    "output": _Step(
        ("Q", "K", "V"), ("mask", "d_k", "scaled"), lambda g: core.weighted_sum(core.softmax(_scores_expected(g)),
                                                                                g["V"]),
        "O", "axes_O", "entry_O", _family("O"), _O_HINTS, key_cols=False, finite_hint="finite_A"),
    "causal_mask": _Step(
        ("n",), (), lambda g: core.causal_mask(g["n"]), "mask", "axes_mask", "entry_mask",
        (("mask_inverted", lambda g: ~g["expected"], "causal_inverted"),
         ("mask_upper", lambda g: _T(g["expected"]), "causal_upper"),
         ("mask_no_diagonal", lambda g: np.tril(g["expected"], -1), "causal_no_diagonal"),
         ("mask_all_true", lambda g: np.ones_like(g["expected"]), "causal_all_true")), boolean=True),
}
STEPS = tuple(_STEPS)

_MSG = {  # (zh, en); the mistake messages say what is wrong, why, and the fix in words
    "ok": ("{sym} 正确！形状 {shape}，每个数都对。", "{sym} is correct: shape {shape}, every number right."),
    "not_attempted": ("还没作答：把 ... 换成你算出的 {sym}，再运行这一格。",
                      "Not answered yet: replace ... with your {sym} and run this cell again."),
    "bad_task": ("这道题的设置有误（不是你的错），请把这一行告诉老师：{e}",
                 "This exercise is set up wrongly (not your fault); please show this line to your teacher: {e}"),
    "checker_error": ("检查程序自己出错了（不是你的错），请告诉老师：{e}",
                      "The checker itself failed (not your fault); please tell your teacher: {e}"),
    "wrong_type": ("{sym} 应当是{kind}，你给的是 {got}。{hint}", "{sym} must be {kind}; you gave {got}. {hint}"),
    "kind_False": ("数字数组（numpy 数组，或每行一样长的嵌套列表）",
                   "an array of numbers (a numpy array, or nested lists with rows of equal length)"),
    "kind_True": ("布尔数组（True / False）", "a boolean array (True / False)"),
    "mask_type": ("创建时写 dtype=bool，或对 0/1 数组用 .astype(bool)。",
                  "Create it with dtype=bool, or use .astype(bool) on a 0/1 array."),
    "not_finite": ("{sym} 里有 {count} 个 NaN 或 ∞，第一个在 {where}。{hint}",
                   "{sym} contains {count} NaN or ∞, the first at {where}. {hint}"),
    "finite": ("检查是否除以了 0，或者数大到溢出了。", "Look for a division by zero or an overflow."),
    "finite_A": ("softmax 之后不该有 NaN 或 ∞：先减去每行的最大值再取 exp 可避免溢出；"
                 "−∞ 只属于 softmax 之前被遮住的分数，softmax 之后那里的权重是 0。",
                 "After softmax there must be no NaN or ∞: subtract each row's maximum before exp to avoid overflow; "
                 "−∞ belongs only to masked scores before softmax, whose weights are then 0."),
    "wrong_shape": ("{sym} 的形状应为 {expected}（{axes}），你的是 {got}。{hint}",
                    "{sym} should have shape {expected} ({axes}); yours is {got}. {hint}"),
    "fewer_axes": ("你的答案维数太少：需要一个完整的矩阵，而不是一个数或一行。",
                   "Your answer has too few axes: a whole matrix is needed, not one number or one row."),
    "more_axes": ("你的答案多了维度：检查是否多套了一层方括号。",
                  "Your answer has extra axes: look for extra brackets."),
    "shape": ("检查矩阵乘法的顺序，以及哪里需要转置。",
              "Check the order of the matrix product and where to transpose."),
    "wrong_values": ("{sym} 的形状对了，但有的数不对，差得最多的在 {where}。{entry}",
                     "{sym} has the right shape but some numbers are off, most at {where}. {entry}"),
    "axes_XW": ("n × d：每行对应一个词", "n × d: one row per word"),
    "axes_S": ("n_q × n_k：行 = 查询，列 = 键", "n_q × n_k: rows = queries, columns = keys"),
    "axes_O": ("n_q × d_v：行 = 查询，列 = 值的特征", "n_q × d_v: rows = queries, columns = value features"),
    "axes_mask": ("n × n：行 = 提问的位置，列 = 被关注的位置",
                  "n × n: rows = asking positions, columns = attended ones"),
    "entry_XW": ("这个数是第 {i} 个词的输入行与 {w} 第 {j} 列的点积。",
                 "This is token {i}'s input row dotted with column {j} of {w}."),
    "entry_QKT": ("这个数应是查询 {i} 与键 {j} 的点积。", "This should be query {i} dotted with key {j}."),
    "entry_S": ("这个数应是查询 {i} 与键 {j} 的点积除以 √d_k。",
                "This should be query {i} dotted with key {j}, over √d_k."),
    "entry_A": ("这个数是查询 {i} 分给键 {j} 的权重：检查这一行的分数和 softmax。",
                "This is the weight query {i} gives key {j}: check this row's scores and its softmax."),
    "entry_O": ("O 的第 {i} 行是用 A 的第 {i} 行对 V 的各行加权求和。",
                "Row {i} of O is V's rows mixed by row {i} of A."),
    "entry_mask": ("第 {i} 行说明位置 {i} 可以关注哪些位置：它自己和它之前的位置。",
                   "Row {i} says which positions position {i} may attend to: itself and the ones before it."),
    "O:": ("O 不对，问题出在权重上：", "O is off because of the weights. "),
    "transposed_XW": ("你的 {sym} 是所要求矩阵的转置：应是 X 乘以 {w}，每行对应一个词。",
                      "Your {sym} is the transpose of the required matrix: it is X times {w}, one row per word."),
    "weight_transposed": ("{w} 被转置了：直接用 X 乘以 {w}。", "{w} got transposed: multiply X by {w} as it is."),
    "transposed_qk": ("行列颠倒了：分数的行对应查询、列对应键，所以要用 Q 乘以 K 的转置（QKᵀ），"
                      "而不是 K 乘以 Q 的转置。",
                      "Rows and columns are swapped: score rows belong to queries and columns to keys, so use Q "
                      "times K transposed (QKᵀ), not K times Q transposed."),
    "transposed": ("你的 {sym} 是所要求矩阵的转置：第 i 行应对应第 i 个查询，列对应键。",
                   "Your {sym} is the transpose of the required matrix: row i belongs to query i, columns to keys."),
    "missing_transpose": ("K 没有转置：Q 的每一行要和 K 的每一行做点积，所以是 Q 乘以 K 的转置（QKᵀ），"
                          "不是 Q 直接乘 K。",
                          "K is not transposed: every row of Q is dotted with every row of K, so it is Q times K "
                          "transposed (QKᵀ), not Q times K."),
    "unscaled": ("忘了缩放：softmax 之前要把 QKᵀ 除以 √d_k，否则 d_k 越大分数越大，权重会挤到少数几个键上。",
                 "Scaling is missing: divide QKᵀ by √d_k before softmax, otherwise scores grow with d_k and the "
                 "weights crowd onto a few keys."),
    "scaled_by_dk": ("除错了数：应除以 √d_k（d_k 的平方根），你除的是 d_k 本身。",
                     "Divided by the wrong number: divide by √d_k (the square root of d_k), not by d_k itself."),
    "scale_multiplied": ("缩放反了：应当除以 √d_k，你乘了 √d_k。",
                         "Scaled the wrong way: divide by √d_k, not multiply."),
    "scaled_not_asked": ("这一题不缩放：直接用 QKᵀ，不要除以 √d_k 或 d_k。",
                         "This exercise has no scaling: use QKᵀ as it is, without dividing by √d_k or d_k."),
    "softmax_axis": ("softmax 的方向错了：你让每一列加起来为 1，应当让每一行（一个查询的全部权重）加起来为 1，"
                     "也就是沿最后一个轴归一化。",
                     "softmax along the wrong axis: your columns sum to 1, but each row (one query's weights) "
                     "should, i.e. normalise along the last axis."),
    "mask_after_softmax": ("遮罩加晚了：要在 softmax 之前把被遮住的分数设为 −∞；"
                           "softmax 之后再清零，每行之和就不再是 1。",
                           "The mask comes too late: set masked scores to −∞ before softmax; zeroing weights after "
                           "softmax leaves rows that no longer sum to 1."),
    "mask_ignored": ("没有用上遮罩：mask 为 False 的位置要在 softmax 之前设为 −∞，这样它们的权重才是 0。",
                     "The mask is not used: where mask is False the score must become −∞ before softmax, so that "
                     "its weight is 0."),
    "mask_inverted": ("遮罩用反了：True 表示可以关注、要保留；应设为 −∞ 的是 mask 为 False 的位置。",
                      "The mask is inverted: True means may attend (keep it); −∞ goes where mask is False."),
    "mask_zero": ("被遮住的分数要设为 −∞，不是 0：exp(0) = 1，这些位置仍会分到权重。",
                  "Masked scores must become −∞, not 0: exp(0) = 1, so those positions would still get weight."),
    "no_softmax": ("这还是分数，不是权重：还要对每一行做 softmax，让权重非负、每行之和为 1。",
                   "These are still scores, not weights: apply softmax to each row so the weights are non-negative "
                   "and each row sums to 1."),
    "wrong_mask": ("被遮住的位置（例如 {where}）权重应当是 0：在 softmax 之前把这些分数设为 −∞。",
                   "A masked position (e.g. {where}) must get weight 0: set those scores to −∞ before softmax."),
    "wrong_mask_S": ("被遮住的位置（例如 {where}）分数应为 −∞，不是 0 或很大的负数：这样 softmax 后权重正好是 0。",
                     "A masked position (e.g. {where}) must hold −∞, not 0 or a large negative number, so that its "
                     "weight after softmax is exactly 0."),
    "not_normalized": ("每一行的权重加起来应为 1，{where}不是：softmax 要把每个 exp 除以它所在这一行的 exp 之和"
                       "（不是整列或整个矩阵的和）。",
                       "Each row of weights must sum to 1, {where} does not: softmax divides each exp by the sum of "
                       "its own row (not of a column or of the whole matrix)."),
    "not_normalized_O": ("权重没有归一化：exp 之后还要除以每一行的和，再乘以 V。",
                         "The weights are not normalised: after exp, divide by each row's sum, then multiply by V."),
    "used_scores": ("你用分数乘了 V：要先对分数的每一行做 softmax 得到权重 A，再用 A 乘以 V。",
                    "You multiplied the scores by V: first turn each row of scores into weights A with softmax, "
                    "then multiply A by V."),
    "used_keys": ("你乘的是 K 而不是 V：加权求和取回的是值 V，键 K 只用来打分。",
                  "You multiplied by K instead of V: the weighted sum fetches the values V; the keys K are only "
                  "for scoring."),
    "transposed_O": ("你的 O 行列颠倒了：每一行对应一个查询，是 A 乘以 V，不要转置结果。",
                     "Your O has rows and columns swapped: each row belongs to a query; it is A times V, "
                     "untransposed."),
    "transposed_A": ("你用了 A 的转置：A 的第 i 行就是第 i 个查询的权重，直接用 A 乘以 V。",
                     "You used A transposed: row i of A already holds query i's weights; multiply A itself by V."),
    "causal_inverted": ("True/False 颠倒了：True 表示“可以关注”。每个位置可以看自己和前面的位置，"
                        "你的 True 却在未来（右上方）。",
                        "True and False are swapped: True means may attend. Each position sees itself and earlier "
                        "ones, but your True marks the future (upper right)."),
    "causal_upper": ("你取的是上三角：第 i 行是位置 i 在提问，它只能看第 0 到 i 列，"
                     "应当用 np.tril 取下三角（含对角线）。",
                     "That is the upper triangle: row i is position i asking and it may only see columns 0 to i; "
                     "take the lower triangle (np.tril, diagonal included)."),
    "causal_no_diagonal": ("对角线也应为 True：每个位置都可以关注它自己。",
                           "The diagonal must be True too: every position may attend to itself."),
    "causal_all_true": ("全是 True 就等于没有遮罩：位置 i 不能看到它后面的位置。",
                        "All True is no mask at all: position i must not see the positions after it."),
    "hint_transposed_XW": ("这是转置后的形状：每行应对应一个词。", "That is the transposed shape: one row per word."),
    "hint_Xt": ("这是 X 转置后的形状：X 不需要转置，它的每一行就是一个词。",
                "That is the shape of X transposed: X needs no transpose, each row is a word."),
    "hint_X_shape": ("这是 X 本身的形状：别忘了乘以 {w}。", "That is the shape of X: multiply it by {w}."),
    "hint_transposed_S": ("这是转置后的形状：行应对应查询（Q 的行），列对应键（K 的行）。",
                          "That is the transposed shape: rows belong to queries (rows of Q), columns to keys."),
    "hint_Q_shape": ("这和 Q 的形状一样：可能用了逐元素乘法 *，或者没有转置 K；分数要用矩阵乘法：Q 乘以 K 的转置。",
                     "That is the shape of Q: perhaps an element-wise * or K not transposed; scores need the matrix "
                     "product Q times K transposed."),
    "hint_QtK": ("这是“特征 × 特征”的形状：Q 的转置乘以 K 比较的是特征而不是词；应是 Q 乘以 K 的转置。",
                 "That is a features × features shape: Q transposed times K compares features, not tokens; use Q "
                 "times K transposed."),
    "hint_A_shape": ("这是权重 A 的形状：最后还要乘以 V。",
                     "That is the shape of the weights A: multiply by V at the end."),
    "hint_K_width": ("宽度是 d_k：你可能乘的是 K 而不是 V。", "The width is d_k: perhaps you multiplied by K, not V."),
    "hint_transposed_O": ("这是转置后的形状：O 的每一行对应一个查询，宽度是 d_v。",
                          "That is the transposed shape: each row of O belongs to a query and is d_v wide."),
}
