"""The answers, as data: what the grader reads out of a submission's kernel, and how it reads them back.

``DUMP`` is the code the worker runs in the kernel after each answer cell: it reads the answer variables
and returns one JSON string. An array of numbers comes back as its dtype, shape and numbers; anything else
as its type name; a find-the-bug task's function is called there on the grader's own probe arguments
(sent in as JSON numbers), each call guarded (an exception or a call over its time limit is a failed call),
and only the returned numbers come back, with whether a call wrote into its arguments and the attn_core
reference the function calls, if any (``verdicts.delegated_to``). Everything the code uses is imported
inside its function, so names a submission rebinds (``np``, ``json``, ``print``) change nothing. What comes
back is only data: the grader checks it in its own process (``decode``), and trusts nothing else from the
kernel.
"""

import json

import numpy as np

from ..verdicts import MISSING, CallFailed, FunctionCalls

MAX_ELEMENTS = 100_000  # numbers read back per answer; a larger answer is read as its type only

DUMP = r"""
def __attn_core_dump(names, probes, limit, call_seconds):
    import json as _json
    import signal as _signal
    import sys as _sys

    import numpy as _np

    g = _sys._getframe(0).f_globals
    probes = _json.loads(probes)

    def encode(value, depth=0):
        if value is Ellipsis:
            return {"kind": "ellipsis"}
        entry = {"kind": "other", "type": type(value).__name__}
        try:
            if isinstance(value, (_np.ndarray, _np.generic, list, tuple, int, float, bool)):
                try:
                    a = _np.asarray(value)
                except Exception:
                    a = None
                if a is not None and a.dtype.kind in "biuf" and a.size <= limit:
                    return {"kind": "array", "type": type(value).__name__, "dtype": a.dtype.str,
                            "shape": list(a.shape), "data": a.ravel().tolist()}
                if isinstance(value, (list, tuple)) and depth == 0 and 0 < len(value) <= 8:
                    return {"kind": "items", "type": type(value).__name__,
                            "items": [encode(item, 1) for item in value]}
        except Exception:
            pass
        return entry

    def argument(spec):
        if isinstance(spec, dict):
            return _np.array(spec["data"], dtype=spec["dtype"]).reshape(spec["shape"])
        return spec

    def on_alarm(signum, frame):
        raise TimeoutError("the call took longer than %s s" % call_seconds)

    def call(function, spec):
        arguments = [argument(a) for a in spec]
        copies = [a.copy() if isinstance(a, _np.ndarray) else a for a in arguments]
        timed = hasattr(_signal, "setitimer")
        if timed:
            previous = _signal.signal(_signal.SIGALRM, on_alarm)
            _signal.setitimer(_signal.ITIMER_REAL, call_seconds)
        try:
            entry = encode(function(*arguments))
        except Exception as e:
            entry = {"kind": "failed", "type": type(e).__name__, "message": str(e)[:300]}
        finally:
            if timed:
                _signal.setitimer(_signal.ITIMER_REAL, 0)
                _signal.signal(_signal.SIGALRM, previous)
        def form(a, c):
            return a.shape != c.shape or a.dtype != c.dtype
        touched = [i for i, (a, c) in enumerate(zip(arguments, copies))
                   if isinstance(a, _np.ndarray) and (form(a, c) or not _np.array_equal(a, c, equal_nan=True))]
        if touched:
            entry["changed"] = touched  # the function wrote into these arguments
            if any(form(arguments[i], copies[i]) for i in touched):
                entry["changed_form"] = True  # ... their shape or dtype, not (only) their numbers
        return entry

    def delegates(function):
        try:
            from attn_homework.verdicts import delegated_to
            return str(delegated_to(function))[:80]
        except Exception:
            return ""

    def arrays_read(function):
        try:
            from attn_homework.verdicts import arrays_read
            return str(arrays_read(function))[:80]
        except Exception:
            return ""

    out = {}
    for name in names:
        if name not in g:
            out[name] = {"kind": "missing"}
        elif name in probes and callable(g[name]):
            out[name] = {"kind": "calls", "results": [call(g[name], spec) for spec in probes[name]],
                         "delegates": delegates(g[name]), "arrays_read": arrays_read(g[name])}
        else:
            out[name] = encode(g[name])
    return _json.dumps(out)
"""


def dump_code(names, probes, call_seconds=2.0):
    """The cell the worker runs (silently) to read the answers: it leaves one JSON string in the global
    ``__attn_core_answers``, which the worker reads as a user expression."""
    return (
        DUMP
        + f"\n__attn_core_answers = __attn_core_dump({list(names)!r}, {json.dumps(probes)!r}, {MAX_ELEMENTS}, "
        + f"{float(call_seconds)!r})\ndel __attn_core_dump\n"
    )


RESULT_NAME = "__attn_core_answers"


def encode_argument(value):
    """One probe argument as JSON: an array as dtype, shape and numbers; a number or bool as itself."""
    if isinstance(value, np.ndarray):
        return {"dtype": value.dtype.str, "shape": list(value.shape), "data": value.ravel().tolist()}
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (int, float, bool, str)) or value is None:
        return value
    raise TypeError(f"a probe argument must be an array or a number, not {type(value).__name__}")


class Opaque:
    """Stands for a non-numeric answer (a string, a function, None, …): the checker sees its type name."""

    def __init__(self, type_name):
        self.type_name = type_name

    def __repr__(self):
        return f"<{self.type_name}>"


def decode(entry):
    """A value for the checker from the kernel's JSON entry; never raises."""
    if not isinstance(entry, dict) or entry.get("kind") == "missing":
        return MISSING
    kind = entry.get("kind")
    if kind == "ellipsis":
        return ...
    if kind == "array":
        try:
            dtype = np.dtype(entry["dtype"])
            shape = tuple(int(n) for n in entry["shape"])
            if dtype.kind not in "biuf" or dtype.fields is not None:
                raise ValueError(dtype)
            a = np.array(entry["data"], dtype=dtype).reshape(shape)
            pytype = entry.get("type")
            if pytype == "list":
                return a.tolist()
            if pytype == "tuple":
                return tuple(a.tolist())
            if pytype in ("int", "float", "bool") and a.ndim == 0:
                return a.item()
            return a
        except Exception:
            return Opaque("unreadable")
    if kind == "items" and isinstance(entry.get("items"), list):
        items = [decode(item) for item in entry["items"][:8]]
        return items if entry.get("type") == "list" else tuple(items)
    return Opaque(str(entry.get("type", "unknown"))[:60])


def decode_calls(entry, arguments):
    """A find-the-bug answer: ``FunctionCalls`` of the grader's own ``arguments`` and the values the
    kernel returned for them; anything else as ``decode`` reads it."""
    if not isinstance(entry, dict) or entry.get("kind") != "calls":
        return decode(entry)
    results = entry.get("results")
    if not isinstance(results, list) or len(results) != len(arguments):
        return Opaque("unreadable")
    decoded, changed, which, form = [], [], (), False
    for index, result in enumerate(results):
        touched = result.get("changed") if isinstance(result, dict) else None
        if isinstance(touched, list) and touched:
            changed.append(index)
            form = form or (not which and result.get("changed_form") is True)
            which = which or tuple(i for i in touched[:8] if isinstance(i, int) and not isinstance(i, bool))
        if isinstance(result, dict) and result.get("kind") == "failed":
            decoded.append(CallFailed(str(result.get("type", "Exception"))[:60], str(result.get("message", ""))[:300]))
        else:
            decoded.append(decode(result))
    delegates = entry.get("delegates")
    delegates = delegates[:80] if isinstance(delegates, str) else ""
    read = entry.get("arrays_read")
    read = read[:80] if isinstance(read, str) else ""
    return FunctionCalls(
        tuple(arguments), tuple(decoded), tuple(changed), delegates, which, changed_form=form, arrays_read=read
    )
