"""What the exercise notebooks call to check a task: ``check("2.1")`` and ``progress("ex02")``, and the
``diagnose_task`` behind them (the grader's too).

    check("2.1")          reads the variable ``QKT`` from the notebook and prints one line:
                          ✅ correct / ❌ what is wrong and a hint / ⏳ not attempted yet.
                          It never raises, even if ``QKT`` is not defined.
    diagnose_task(id, x)  the Diagnosis of answer ``x`` for task ``id`` (what check prints).
    progress("ex02_scores")  one line per task of a notebook, read from the notebook's variables.
    predicted("4.5")      whether a predict task's answer is written down (the cell showing it runs only then).
"""

import ast
import contextlib
import dataclasses
import decimal
import difflib
import dis
import fractions
import hashlib
import inspect
import os
import re
import sys
import unicodedata
import warnings

import numpy as np

from . import checker
from .checker import CallFailed, FunctionCalls
from .checker.compare import read_number
from .checker.functions import ASYNC, TOO_LARGE
from .checker.wording import shape_text
from .exercises import TASKS, task, tasks
from .messages import msg
from .pinned import Pinned

__all__ = [
    "MISSING",
    "CallFailed",
    "FunctionCalls",
    "call_function",
    "check",
    "diagnose_task",
    "line",
    "judge_prediction",
    "predicted",
    "progress",
    "revealed_predictions",
    "right_for_earlier_answer",
]


class _Missing:
    """Stands for an answer variable that does not exist in the notebook."""


MISSING = _Missing()

# Codes that say only what is wrong, not why: an answer that another task's step gives (on this task's data,
# or another task's data left in a variable) gets a hint naming the formula it holds instead ("crossed_*").
# It never says that the array is another task's right answer: that would confirm a task not yet done.
_UNEXPLAINED = ("wrong_shape", "wrong_values", "not_normalized", "wrong_mask", "negative_weight")

# What a step computes, said as its formula (message keys): the evidence an answer equal to another step's
# result gives is only that it holds that formula.
_FORMULA = {
    "scores": "formula_scores",
    "scaled_scores": "formula_scaled_scores",
    "softmax": "formula_softmax",
    "weights": "formula_weights",
    "masked_weights": "formula_weights",
    "weighted_sum": "formula_output",
    "output": "formula_output",
    "grad_V": "formula_grad_V",
    "grad_A": "formula_grad_A",
    "softmax_backward": "formula_grad_S",
    "grad_Q": "formula_grad_Q",
    "grad_K": "formula_grad_K",
    "block_max": "formula_block_max",
    "block_sum": "formula_block_sum",
    "online_sum": "formula_online_sum",
    "online_acc": "formula_online_acc",
    "online_output": "formula_online_output",
}

# Lesson 10's gradients: an answer that holds another gradient's product is told the product it holds and
# the reasoning of the one asked, never the asked formula (that would be the answer) nor "that is task Y's".
_GRADIENTS = {
    "grad_V": "grad_V",
    "grad_A": "grad_A",
    "softmax_backward": "grad_S",
    "grad_Q": "grad_Q",
    "grad_K": "grad_K",
}

# Pairs of tasks (this one, the one whose step the answer is) with a hint of their own.
_CROSSED = {
    ("4.4", "4.1"): "crossed_key_not_doubled",
    ("6.3", "6.4"): "crossed_output_not_weights",
    # lesson 1: a projection made with another projection's weight matrix (the data are shared: X is X)
    ("1.2", "1.1"): ("crossed_wrong_weight", {"used": "W_Q", "w": "W_K"}),
    ("1.3", "1.1"): ("crossed_wrong_weight", {"used": "W_Q", "w": "W_V"}),
    ("1.3", "1.2"): ("crossed_wrong_weight", {"used": "W_K", "w": "W_V"}),
    ("1.5", "1.4"): ("crossed_wrong_weight", {"used": "W_Q", "w": "W_V"}),
    ("1.4", "1.5"): ("crossed_wrong_weight", {"used": "W_V", "w": "W_Q"}),  # both weights are loaded for 1.4
}


# How long one call of a learner's function may take (seconds): the checker's calls are on a few small
# arrays, so a right function returns in milliseconds; one that loops forever must not hang the check cell.
TIME_LIMIT = 5.0


class _TookTooLong(Exception):
    """A learner's function did not return within TIME_LIMIT seconds."""


# The names a call that never returned is reported under (``CallFailed.type_name``; the checker's messages).
_STOPPED = {_TookTooLong: "TimeLimit", KeyboardInterrupt: "KeyboardInterrupt", SystemExit: "SystemExit"}


def _stop_detail(e):
    if isinstance(e, _TookTooLong):
        return str(e)
    return f"{type(e).__name__}({e})" if str(e) else type(e).__name__


def _within_time_limit(function, args, seconds=None):
    """``function(*args)``, raising ``_TookTooLong`` if it has not returned after ``seconds`` (TIME_LIMIT).
    Where a signal can interrupt it (SIGALRM, the main thread: Linux and macOS, the Jupyter kernel), it is
    stopped. Elsewhere (Windows) it runs in a thread that is waited for that long: a function that never
    returns is reported the same way but cannot be stopped, and goes on running until the kernel restarts
    (the message says so)."""
    import signal
    import threading

    seconds = TIME_LIMIT if seconds is None else seconds
    if hasattr(signal, "SIGALRM") and threading.current_thread() is threading.main_thread():

        def alarm(signum, frame):
            if _importing(frame):  # never stop an import half-way: it would leave the module broken
                signal.setitimer(signal.ITIMER_REAL, 0.2)
                return
            raise _TookTooLong(f"{seconds:g}")

        previous = signal.signal(signal.SIGALRM, alarm)
        try:
            signal.setitimer(signal.ITIMER_REAL, seconds)
            return function(*args)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    box = {}

    def run():
        try:
            box["value"] = function(*args)
        except BaseException as e:  # handed to the caller's thread below
            box["error"] = e

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise _TookTooLong(f"{seconds:g} still running")
    if "error" in box:
        raise box["error"]
    return box["value"]


def _importing(frame):
    """Whether ``frame`` (or a frame it was called from) is inside Python's import machinery."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _import_what_it_imports(function, depth=0):
    """Import, before any call is timed, the modules ``function``'s code imports (``import torch`` inside the
    function): a first import can take seconds, which is not the function's own time. Errors are left for the
    call to raise, as the learner's."""
    import dis
    import importlib

    code = getattr(function, "__code__", None)
    stack = [code] if code is not None else []
    while stack:
        c = stack.pop()
        stack.extend(k for k in c.co_consts if hasattr(k, "co_code"))
        for instruction in dis.get_instructions(c):
            if instruction.opname == "IMPORT_NAME" and isinstance(instruction.argval, str):
                try:
                    importlib.import_module(instruction.argval)
                except Exception:
                    pass


def call_function(function, arguments):
    """``function`` called on each argument tuple (copies, so the learner cannot change the data), as
    ``FunctionCalls``; an exception becomes a ``CallFailed`` and the next call goes on. The calls after
    which a copy held other numbers (the function wrote into its arguments) are listed in ``changed``, and
    a function that calls attn_core's reference is named in ``delegates``."""
    results, changed, which, form = [], [], (), False
    try:
        _import_what_it_imports(function)
    except Exception:
        pass
    stopped = None  # a call that did not return (too slow, interrupted, exit): the rest are not made
    for index, args in enumerate(arguments):
        copies = [np.array(a) if isinstance(a, np.ndarray) else a for a in args]
        if stopped is not None:
            results.append(stopped)
            continue
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")  # an overflow in the learner's function is a verdict, not a warning
                results.append(_within_time_limit(function, copies))
        except (_TookTooLong, KeyboardInterrupt, SystemExit) as e:  # never a traceback, never the kernel's exit
            stopped = CallFailed(_STOPPED.get(type(e), type(e).__name__), _stop_detail(e))
            results.append(stopped)
        except Exception as e:  # the learner's bug, reported by the checker, never raised
            results.append(CallFailed(type(e).__name__, str(e)))
        except BaseException as e:  # ``class _X(BaseException)``: still the learner's, still named, never raised
            results.append(CallFailed(type(e).__name__, str(e)))
        if inspect.iscoroutine(results[-1]):  # ``async def``: closed, so no "never awaited" warning leaks
            results[-1].close()
            results[-1] = CallFailed(ASYNC, "")
        results[-1] = _not_too_large(results[-1])
        touched = tuple(i for i, (a, c) in enumerate(zip(args, copies)) if isinstance(a, np.ndarray) and _changed(a, c))
        if touched:
            form = form or (not which and any(_changed_form(args[i], copies[i]) for i in touched))
            which = which or touched
            changed.append(index)
    calls = FunctionCalls(tuple(arguments), tuple(results), tuple(changed), delegated_to(function), which)
    return dataclasses.replace(calls, changed_form=form, arrays_read=arrays_read(function))


def _changed_form(argument, copy):
    """The caller's array has another shape or dtype (``M.shape = …``, ``M.resize(…)``, ``x.dtype = …``)."""
    return argument.shape != copy.shape or argument.dtype != copy.dtype


def _changed(argument, copy):
    """The caller's array is not what it was: other numbers, another shape or another dtype (a bool mask
    viewed as uint8 compares equal number by number)."""
    return _changed_form(argument, copy) or not np.array_equal(argument, copy, equal_nan=True)


# The most numbers a learner's function may return to be judged: the checker's probes are a few small arrays,
# so a right result has at most a few thousand; a result of np.zeros((10**5, 10**4)) is reported by its shape
# before any of its 10⁹ numbers is read (reading them would take minutes and gigabytes).
MAX_RESULT_SIZE = 10**6


def _not_too_large(result):
    """``result``, or a CallFailed(TOO_LARGE, its shape) when it holds more than MAX_RESULT_SIZE numbers."""
    shape = getattr(result, "shape", None)
    try:
        size = int(np.prod([int(n) for n in shape], dtype=object)) if isinstance(shape, tuple) else 0
    except (TypeError, ValueError):
        return result
    return CallFailed(TOO_LARGE, shape_text(tuple(int(n) for n in shape))) if size > MAX_RESULT_SIZE else result


_REFERENCES = ("attn_core", "attn_homework")  # the packages whose functions a find-the-bug fix may not call


def _reference_name(value):
    """The name of ``value`` when it is itself one of attn_core's (or attn_homework's) functions, classes or
    modules, or a ``functools.partial`` or bound method of one, said as the learner may use it:
    "attn_core.split_heads", "attn_core.trained.induction_score"; "" otherwise."""
    for _ in range(3):  # partial(partial(f, ...)), a bound method
        inner = getattr(value, "func", None) or getattr(value, "__func__", None)
        if inner is None or inner is value:
            break
        value = inner
    if inspect.ismodule(value):
        name = getattr(value, "__name__", "") or ""
        return name if name.split(".")[0] in _REFERENCES else ""
    if not (inspect.isroutine(value) or inspect.isclass(value)):
        return ""
    module = getattr(value, "__module__", "") or ""
    if module.split(".")[0] not in _REFERENCES:
        return ""
    name = getattr(value, "__name__", "") or ""
    package = sys.modules.get(module.split(".")[0])
    if package is not None and getattr(package, name, None) is value:
        return f"{module.split('.')[0]}.{name}"
    return f"{module}.{name}"


# the instructions that take a name from a module (``from attn_core import rope``, ``attn_core.rope``)
_TAKEN_FROM_A_MODULE = {"IMPORT_FROM", "LOAD_ATTR", "LOAD_METHOD"}


def delegated_to(function, depth=0, seen=None):
    """The attn_core (or attn_homework) functions or modules ``function``'s code uses, looking into the
    functions of the notebook it calls too: their names joined by ", " ("attn_core.attention"); "" if none.
    Which of them a task allows (lesson 14's fix may call ``rope``) is the checker's to say."""
    seen = set() if seen is None else seen
    reference = _reference_name(function)
    if reference:  # the reference itself handed in (``from attn_core import split_heads as fixed_split_heads``)
        return reference
    code = getattr(function, "__code__", None)
    if code is None or depth > 3 or code in seen:
        return ""
    seen.add(code)
    namespace = dict(getattr(function, "__globals__", {}))
    closure = getattr(function, "__closure__", None) or ()
    for name, cell in zip(code.co_freevars, closure):
        try:
            namespace[name] = cell.cell_contents
        except ValueError:
            pass
    names, texts, taken = set(), set(), set()
    stack = [code]
    while stack:  # the code of nested functions and comprehensions too
        c = stack.pop()
        names |= set(c.co_names) | set(c.co_freevars)
        texts |= {k for k in c.co_consts if isinstance(k, str)}
        taken |= {i.argval for i in dis.get_instructions(c) if i.opname in _TAKEN_FROM_A_MODULE}
        stack.extend(k for k in c.co_consts if hasattr(k, "co_names"))
    names -= _imported_never_read(code)
    found = []
    for imported in sorted(n for n in names | texts if n.split(".")[0] in _REFERENCES):
        module = sys.modules.get(imported)  # ``import attn_core`` / ``from attn_core import …`` in the function
        # what is imported from it or read as its attribute: not one's own ``softmax`` that shares a name
        used = sorted(n for n in names & taken if module is not None and n != imported and hasattr(module, n))
        found += [f"{imported}.{u}" for u in used] or [imported]
    for name in sorted(names):
        if name not in namespace:
            continue
        value = namespace[name]
        if not (inspect.ismodule(value) or inspect.isroutine(value) or inspect.isclass(value)):
            continue  # data (an array, a task) is not a function it delegates to
        module = getattr(value, "__name__", "") if inspect.ismodule(value) else getattr(value, "__module__", "") or ""
        if module.split(".")[0] in _REFERENCES:
            if inspect.ismodule(value):
                used = sorted(n for n in names if n != name and hasattr(value, n))
                found += [f"{module}.{u}" for u in used] or [module]
            else:
                found.append(f"{module.split('.')[0]}.{getattr(value, '__name__', name)}")
        elif inspect.isfunction(value) and value is not function:
            inner = delegated_to(value, depth + 1, seen)
            if inner:
                found += inner.split(", ")
    return ", ".join(dict.fromkeys(found))


def arrays_read(function):
    """The notebook's global arrays ``function``'s code reads (``K_demo`` where its parameter K belongs),
    nested functions and comprehensions included, their names joined by ", "; "" if none. Only what the
    code loads as a global name counts (an attribute such as ``.T`` is no global), and only an array with
    at least one axis (a number such as ``eps`` is no data)."""
    code = getattr(function, "__code__", None)
    namespace = getattr(function, "__globals__", None)
    if code is None or not isinstance(namespace, dict):
        return ""
    found, stack = [], [code]
    while stack:
        c = stack.pop()
        stack.extend(k for k in c.co_consts if hasattr(k, "co_code"))
        for instruction in dis.get_instructions(c):
            name = instruction.argval
            if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME") and isinstance(name, str) and name in namespace:
                value = namespace[name]
                if isinstance(value, np.ndarray) and value.ndim >= 1:
                    found.append(name)
    return ", ".join(dict.fromkeys(found))


def _imported_never_read(code):
    """The names of a function's imports that its code (nested code included) never reads, with the modules
    they come from when nothing else is read from them: a leftover ``from attn_core import rope`` that is
    never called is no delegation (the function is judged by what its calls return)."""
    imports, loaded = [], set()
    stack = [code]
    while stack:
        c = stack.pop()
        ins = list(dis.get_instructions(c))
        for k, i in enumerate(ins):
            if i.opname == "IMPORT_NAME":
                module, bound, j = i.argval, [], k + 1
                while j < len(ins) and ins[j].opname in (
                    "IMPORT_FROM",
                    "STORE_FAST",
                    "STORE_NAME",
                    "STORE_GLOBAL",
                    "STORE_DEREF",
                    "POP_TOP",
                ):
                    if ins[j].opname != "POP_TOP":  # the name imported and the name it is bound to
                        bound.append(ins[j].argval)
                    j += 1
                imports.append((module, bound))
            elif i.opname.startswith("LOAD_") and isinstance(i.argval, str):
                loaded.add(i.argval)
        stack.extend(k for k in c.co_consts if hasattr(k, "co_names"))
    never = set()
    for module, bound in imports:
        if bound and not any(n in loaded for n in bound):
            never |= {module, module.split(".")[0], *bound}
    return never - loaded


# numpy's comparisons as imported: a notebook that rebinds them (``np.allclose = lambda *a, **k: True``) rebinds
# them for the checker too, which shares the kernel's numpy; ``diagnose_task`` puts these back while it judges
_NUMPYS_OWN = {name: getattr(np, name) for name in ("isclose", "allclose", "array_equal", "array_equiv")}


@contextlib.contextmanager
def _numpys_own_comparisons():
    """numpy's own comparison functions for the time of a check, the notebook's (if it rebound any) after."""
    rebound = {name: getattr(np, name, None) for name in _NUMPYS_OWN}
    rebound = {name: f for name, f in rebound.items() if f is not _NUMPYS_OWN[name]}
    for name in rebound:
        setattr(np, name, _NUMPYS_OWN[name])
    try:
        yield
    finally:
        for name, f in rebound.items():
            setattr(np, name, f)


def diagnose_task(task_id, answer, rng=None):
    """The Diagnosis of ``answer`` for task ``task_id``, judged with numpy's own comparisons (see
    ``_judged``)."""
    with _numpys_own_comparisons():
        return _judged(task_id, answer, rng)


def _judged(task_id, answer, rng=None):
    """The Diagnosis of ``answer`` for task ``task_id``: ``attn_homework.checker.diagnose`` with the
    task's step and freshly built data. ``MISSING`` (variable not defined) counts as not attempted.

    For a "function" task ``answer`` is the learner's function (called here, on argument tuples drawn by
    ``task.probe_arguments(rng)``; ``rng`` defaults to a fresh generator) or a ``FunctionCalls`` made
    elsewhere (by the grader)."""
    try:
        t = task(task_id)
    except KeyError as e:
        return checker.Diagnosis(False, "bad_task", e.args[0], None)
    if answer is MISSING:
        return checker.Diagnosis(False, "not_attempted", msg("no_variable", var=t.var), t.step)
    if t.answer_kind == "function" and callable(answer):
        answer = call_function(answer, t.probe_arguments(rng if rng is not None else np.random.default_rng()))
    diagnosis = checker.diagnose(t.step, answer, **t.given())
    if diagnosis.code == "not_attempted":  # named by the notebook's variable, as what it is
        key = {"function": "not_attempted_function", "number": "not_attempted_prediction"}.get(t.answer_kind)
        return checker.Diagnosis(False, "not_attempted", msg(key or "not_attempted_var", var=t.var), t.step)
    if diagnosis.code in _UNEXPLAINED and t.answer_kind == "array":
        message = _crossed(t, answer)
        if message is not None:
            return checker.Diagnosis(False, "crossed", message, t.step)
    return diagnosis


_LONG_DOUBLE = re.compile(r"\b(longdouble|longfloat|float128|float96|clongdouble)\b")


def _passes_by_long_double(t, value, diagnosis, source=""):
    """A right softmax of scores that overflow exp in float64 (4.3's, near 1000), computed in np.longdouble:
    on x86 long double reaches e^1000 and the softmax without the maximum subtracted passes; on Windows long
    double is float64 and it overflows. Not ✅ when the evidence shows it: the answer cell's code (``source``)
    names an extended float and takes no maximum (a stable softmax
    in long double is right everywhere: a cell that subtracts a maximum is never told this)."""
    if t.answer_kind != "array" or not diagnosis.ok or not source or re.search(r"max\b|max\(", source):
        return diagnosis
    scores = t.given().get("S")
    if scores is None:
        return diagnosis
    with np.errstate(all="ignore"):
        overflows = not np.isfinite(np.exp(np.asarray(scores, dtype=np.float64))).all()
    if not overflows or not _LONG_DOUBLE.search(source):
        return diagnosis
    return checker.Diagnosis(False, "overflow", msg("long_double", var=t.var), t.step)


_OTHER_SHIFT = re.compile(r"\b(min|amin|nanmin|mean|median|average)\b")


def _shifted_by_another_number(t, diagnosis, source=""):
    """A right softmax of scores that overflow exp in float64 (4.3's) whose answer cell shifts each row by its
    minimum or mean, not its maximum: right for these scores (no row spreads over about 709), yet
    exp(S − min) overflows wherever a row does. Not ✅ when the cell's code shows it (it names min or mean
    and no max, nor logsumexp, which takes the maximum itself)."""
    if t.answer_kind != "array" or not diagnosis.ok or not source or re.search(r"max|logsumexp", source):
        return diagnosis
    scores = t.given().get("S")
    found = _OTHER_SHIFT.search(source)
    if scores is None or found is None:
        return diagnosis
    with np.errstate(all="ignore"):
        overflows = not np.isfinite(np.exp(np.asarray(scores, dtype=np.float64))).all()
    if not overflows:
        return diagnosis
    what = msg("shift_min") if "min" in found.group(1) else msg("shift_mean")
    return checker.Diagnosis(False, "overflow", msg("shifted_by_another_number", var=t.var, what=what), t.step)


def _shifts_not_read(t, diagnosis, source=""):
    """A right answer to a task that gives ``shifts`` (12.6) whose answer cell names neither ``shifts`` nor a
    range: still ✅ (the numbers are right), with a note that they would be the same without the shifts."""
    if not diagnosis.ok or "shifts" not in t.given() or not source:
        return diagnosis
    if re.search(r"\b(shifts|range|arange)\b", source):
        return diagnosis
    note = msg("shifts_not_read", var=t.var)
    return checker.Diagnosis(True, diagnosis.code, diagnosis.message + note, diagnosis.step)


def _division_before_product(t, diagnosis, source=""):
    """A wrong array answer whose cell assigns it ``a / b @ c``: Python reads that as ``(a / b) @ c`` (``@``
    binds as tightly as ``/``, left to right), and ``np.exp(S) / np.exp(S) @ ones`` was perhaps meant as
    ``E / (E @ ones)``. Said as a note after the hint, which stays as it is."""
    if diagnosis.ok or diagnosis.code not in ("wrong_shape", "wrong_values") or "@" not in source:
        return diagnosis
    for value in _assigned_from(source, {t.var}).get(t.var, []):
        for node in ast.walk(value):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
                if isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Div):
                    note = msg("division_before_product")
                    return checker.Diagnosis(False, diagnosis.code, diagnosis.message + note, diagnosis.step)
    return diagnosis


def _mask_of_another_shape(t, diagnosis, source, namespace):
    """The weights of unmasked scores ("mask_ignored") from a cell that does pass a mask to ``np.where``, one
    of another shape than the scores' ((4, 1): it broadcasts, and here blocks nothing): its shape named. The
    mask is read as the variable the cell names (``np.where(mask, …)``) or an expression of the data and numpy
    (``np.tril(np.ones((4, 4), bool))[:, :1]``), evaluated without builtins; anything else is not read."""
    if diagnosis.code != "mask_ignored" or t.answer_kind != "array" or "where" not in source:
        return diagnosis
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return diagnosis
    wanted = getattr(checker.STEP_TABLE[t.step].givens(t.given()), "mask", None)
    if wanted is None:
        return diagnosis
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args and _called_name(node.func) == "where"):
            continue
        mask = _plain_value(node.args[0], namespace)
        if not isinstance(mask, np.ndarray) or mask.dtype.kind not in "biuf" or mask.ndim > 2:
            continue
        if mask.shape != wanted.shape:
            fields = {"got": shape_text(mask.shape), "expected": shape_text(wanted.shape)}
            return checker.Diagnosis(False, "mask_ignored", msg("mask_of_another_shape", **fields), diagnosis.step)
    return diagnosis


def _called_name(func):
    """``where`` for ``np.where``, ``numpy.where`` or ``where``: the last name of what a call calls."""
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


_PLAIN_CALLS = {"tril", "triu", "ones", "ones_like", "eye", "astype", "reshape", "logical_not", "array", "asarray"}


def _plain_value(node, namespace):
    """The value of the expression ``node`` when it is made of names, constants, indexing, comparisons and
    numpy's array-making calls only (``np.tril(np.ones((4, 4), bool))[:, :1]``, ``mask``, ``m == 0``), or None:
    nothing with effects is run again."""
    allowed = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Slice, ast.Tuple, ast.List, ast.Load)
    allowed += (ast.Compare, ast.UnaryOp, ast.BinOp, ast.operator, ast.unaryop, ast.cmpop, ast.keyword, ast.Call)
    names = {"__builtins__": {}, "bool": bool, "int": int, "float": float}

    def run(expression):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return eval(compile(ast.Expression(expression), "<mask>", "eval"), names, dict(namespace))

    try:
        for part in ast.walk(node):
            if not isinstance(part, allowed) or (isinstance(part, ast.Attribute) and part.attr.startswith("_")):
                return None
            if isinstance(part, ast.Call):  # numpy's own function or an array's method, of a plain name
                if _called_name(part.func) not in _PLAIN_CALLS:
                    return None
                if not all(isinstance(n, (ast.Name, ast.Attribute, ast.Load)) for n in ast.walk(part.func)):
                    return None
                f = run(part.func)
                if not (isinstance(getattr(f, "__self__", None), np.ndarray) or _of_numpy(f)):
                    return None
        return run(node)
    except Exception:
        return None


def _of_numpy(f):
    """``f`` is numpy's own function (``np.tril``), not one of the notebook's."""
    return (getattr(f, "__module__", None) or "").split(".")[0] == "numpy"


def right_for_earlier_answer(t, answer, earlier_answer):
    """Whether ``answer`` to task ``t`` is right when computed from the learner's own ``earlier_answer`` to
    the task it builds on (``Task.builds_on``: 6.4's output from the weights of 6.3): error carried forward,
    for the grader's marks and for ``check``. False when ``t`` builds on nothing, or either answer is missing or
    not an array of finite numbers."""
    if t.builds_on is None or any(a is MISSING or a is Ellipsis for a in (answer, earlier_answer)):
        return False
    try:
        earlier = np.asarray(earlier_answer, dtype=float)
    except (TypeError, ValueError):
        return False
    if earlier.ndim < 2 or not np.all(np.isfinite(earlier)) or not _plausible_attempt(t.builds_on, earlier):
        return False
    given = t.builds_on.given_from(t.inputs(), earlier)
    return bool(checker.diagnose(t.builds_on.step, answer, **given).ok)


def _plausible_attempt(builds_on, earlier):
    """The earlier answer is an attempt at the earlier task, not a stand-in for it: it has that task's shape and
    is not a matrix of only 0s and 1s (the identity, a matrix of ones, one-hot rows), which is typed or picked,
    never what the earlier task's computation gives on its data (a softmax of finite scores has no exact 0 or 1
    in a row of several keys). Only such an attempt carries its error forward: otherwise any 0/1 matrix would
    earn the later task's points with no work on either."""
    earlier_task = task(builds_on.task_id)
    right = checker.STEP_TABLE[earlier_task.step].givens(earlier_task.given()).expected
    if earlier.shape != np.shape(right):
        return False
    return not np.isin(earlier, (0.0, 1.0)).all()


def _carried_forward(t, answer, earlier_answer, diagnosis):
    """``diagnosis`` of a wrong ``answer``, or, when the earlier task it builds on is wrong too and ``answer``
    is right for that wrong earlier answer, a ❌ that says so (fix the earlier task first; graded, this one
    counts)."""
    if t.builds_on is None or diagnosis.ok or diagnosis.code in ("not_attempted", "bad_task"):
        return diagnosis
    earlier = task(t.builds_on.task_id)
    if diagnose_task(earlier.id, earlier_answer).ok or not right_for_earlier_answer(t, answer, earlier_answer):
        return diagnosis
    message = msg("carried_forward_check", var=t.var, earlier=earlier.id, earlier_var=earlier.var)
    return checker.Diagnosis(False, "carried_forward", message, diagnosis.step)


def _crossed(t, answer):
    """The hint for an answer to ``t`` that is what another array task of the same notebook computes, or
    None: the formula it holds (its evidence: equal to that formula on the data it was given), and, when
    it was computed from an earlier task's own data, that a variable was reused. Never "this is task Y's
    answer", and nothing about a later task computed on data this task does not have."""
    order = [other.id for other in tasks(t.exercise)]
    for other in tasks(t.exercise):
        if other.id == t.id or other.answer_kind != "array":
            continue
        if not checker.diagnose(other.step, answer, **other.given()).ok:
            continue
        shared = _shares_data(t, other)
        earlier = order.index(other.id) < order.index(t.id)
        crossed = _CROSSED.get((t.id, other.id))
        if crossed is not None:
            key, fields = crossed if isinstance(crossed, tuple) else (crossed, {})
            return msg(key, var=t.var, **fields)
        if other.step in _GRADIENTS and t.step in _GRADIENTS:  # said by its product, never by the asked formula
            product, why = msg(f"product_{_GRADIENTS[other.step]}"), msg(f"why_{_GRADIENTS[t.step]}")
            return msg("crossed_gradient", var=t.var, product=product, task_id=t.id, why=why)
        what, asked = _FORMULA.get(other.step), _FORMULA.get(t.step)
        if what is not None and asked is not None and what != asked:
            text = msg("crossed_formula", var=t.var, what=msg(what), asked=msg(asked), task_id=t.id)
            return text + ("" if shared or not earlier else msg("crossed_data", other=other.id))
        if not shared:
            if earlier:
                return msg("crossed_data_only", var=t.var, task_id=t.id, other=other.id)
            return msg("crossed_other_data", var=t.var, task_id=t.id)
    return None


def _shares_data(t, other):
    """The two tasks' data have an array in common (the same numbers): one set of data, two questions."""

    def arrays(task_):
        return [np.asarray(v) for v in task_.given().values() if isinstance(v, np.ndarray)]

    mine = arrays(t)
    return any(a.shape == b.shape and np.array_equal(a, b) for a in arrays(other) for b in mine)


def line(task_id, diagnosis, note=""):
    """One printed line for a task: ``✅ 2.1 · QKᵀ 正确！…``; a ``note`` (the value may be stale) goes first."""
    icon, _, message = str(diagnosis).partition(" ")
    return f"{icon} {task_id} · {note}{message}"


def _lookup(frame, name):
    """The value of ``name`` in a caller's frame (locals, then globals), or MISSING."""
    if name in frame.f_locals:
        return frame.f_locals[name]
    return frame.f_globals.get(name, MISSING)


def _wrong_call(name, example, what, extra_args=(), unexpected=None):
    """True (after printing how to call ``name``) when it was called with arguments it does not take:
    ``check("7.1", mask=mask)``, ``check(task="2.1")``, ``progress("ex02", x)``. Never a TypeError."""
    extra = [repr(a)[:20] if isinstance(a, str) else type(a).__name__ for a in extra_args]
    extra += [f"{k}=…" for k in unexpected or {}]
    if not extra:
        return False
    print(msg("how_to_call", name=name, example=example, what=msg(what), extra=", ".join(extra)))
    if os.environ.get("NBGRADER_EXECUTION"):
        raise AssertionError(f"{name}() called with arguments it does not take: {', '.join(extra)}")
    return True


def _task_number(task_id):
    """A task number as the registry spells it: a typed "6.1 " or a full-width "６．１" (a Chinese input
    method) is "6.1"; anything else is returned unchanged, to be reported as it was given."""
    if isinstance(task_id, str):
        normal = unicodedata.normalize("NFKC", task_id).strip().replace("。", ".")
        return normal if normal in TASKS else task_id
    return task_id


def check(task_id=None, *answer, **unexpected):
    """Print one line about task ``task_id``: ✅ / ❌ with a hint / ⏳ not attempted.

    Without ``answer`` the task's variable (e.g. ``QKT`` for "2.1") is read from the caller's
    namespace, so an undefined variable gives ⏳ rather than a NameError (naming a variable of a close
    spelling, if there is one). A ❌ says so when the value may be stale: the cell run just before raised,
    or the value is the one the previous check already found wrong. A task built on an earlier one (6.4 on
    6.3) that is right for the learner's own wrong earlier answer is still ❌, and the line says so. Never
    raises, not even when called with arguments it does not take (``check(task="2.1")``)."""
    named = task_id if isinstance(task_id, str) else unexpected.get("task", unexpected.get("task_number"))
    example = f'check("{named.strip()[:8]}")' if isinstance(named, str) and named.strip() else 'check("2.1")'
    if _wrong_call("check", example, "call_what_task", answer[1:], unexpected):
        return
    task_id = _task_number(task_id)
    if task_id is None or not isinstance(task_id, (str, int, float)) or isinstance(task_id, bool):
        print(msg("check_which_task", got="" if task_id is None else msg("you_gave", what=type(task_id).__name__)))
        if os.environ.get("NBGRADER_EXECUTION"):
            raise AssertionError("check() without a task number")
        return
    try:
        frame = inspect.currentframe().f_back
        try:
            names = set(frame.f_locals) | set(frame.f_globals)
            namespace = {**frame.f_globals, **frame.f_locals}
            t = TASKS.get(str(task_id))
            if answer:
                value = answer[0]
            else:
                value = _lookup(frame, t.var) if t is not None else None
            earlier = _lookup(frame, task(t.builds_on.task_id).var) if t is not None and t.builds_on else MISSING
        finally:
            del frame
        diagnosis = diagnose_task(task_id, value)
        if value is MISSING:
            diagnosis = _missing_variable(task(task_id).var, names, diagnosis)
        elif t is not None:
            diagnosis = _carried_forward(t, value, earlier, diagnosis)
            if not answer:  # the learner's own variable, not a value handed to check() to try
                _record_first_prediction(t, value, diagnosis, namespace)
            diagnosis = judge_prediction(t, value, diagnosis, _REVEALED.get(t.id))
            diagnosis = _after_a_failed_cell(t, value, diagnosis)
            diagnosis = _computed_by_the_reference(t, diagnosis, namespace)
            diagnosis = _passes_by_long_double(t, value, diagnosis, _answer_cell(t.var, namespace))
            diagnosis = _shifted_by_another_number(t, diagnosis, _answer_cell(t.var, namespace))
            diagnosis = _shifts_not_read(t, diagnosis, _answer_cell(t.var, namespace))
            diagnosis = _division_before_product(t, diagnosis, _answer_cell(t.var, namespace))
            diagnosis = _mask_of_another_shape(t, diagnosis, _answer_cell(t.var, namespace), namespace)
            diagnosis = _fixed_under_the_old_name(t, value, diagnosis, namespace)
        print(line(task_id, diagnosis, _stale_note(str(task_id), value, diagnosis)))
    except Exception as e:  # a check must never show a traceback
        print(msg("check_failed", task_id=task_id, error=f"{type(e).__name__}: {e}"))
        diagnosis = None
    # Under nbgrader's autograder or validator a check cell is a test: it must fail to lose its points.
    if os.environ.get("NBGRADER_EXECUTION") and not (diagnosis is not None and diagnosis.ok):
        raise AssertionError(f"{task_id}: {diagnosis.message if diagnosis is not None else 'check failed'}")


def predicted(task_id=None, *extra, **unexpected):
    """Whether the prediction of predict task ``task_id`` is written down as a number (its variable holds
    one number, not ``...``, a string, None or a list). If not, prints one line asking for it and returns
    False. The cell that shows a predict task's answer starts ``if homework.predicted("4.5"):``, so the
    answer stays hidden until the learner commits to a prediction (also in the committed student
    notebooks). The first time it opens (unless a check recorded one first), the prediction is recorded
    and printed (``📌 top_key = 3 · …``): that is the prediction that counts, for ``check``, ``progress``
    and the grader (which reads the printed line from the saved notebook, ``revealed_predictions``); run
    again after a change, it says that the change does not count. Never raises."""
    if _wrong_call("predicted", 'predicted("4.5")', "call_what_task", extra, unexpected):
        return False
    task_id = _task_number(task_id)
    if task_id is None or str(task_id) not in TASKS:
        print(msg("check_which_task", got="" if task_id is None else msg("you_gave", what=repr(task_id)[:40])))
        return False
    try:
        frame = inspect.currentframe().f_back
        try:
            var = task(task_id).var
            value = _lookup(frame, var)
            namespace = {**frame.f_globals, **frame.f_locals}
        finally:
            del frame
        if task(task_id).answer_kind != "number":  # 1.1's Q is a matrix: nothing to predict, nothing to reveal
            print(msg("not_a_prediction", task_id=task_id))
            return False
        if value is MISSING or value is Ellipsis:
            print(msg("predict_first", var=var, task_id=task_id))
            return False
        number = _as_number(value) if _is_one_number(value) else None
        if number is None and _not_finite_number(value):
            print(line(str(task_id), diagnose_task(str(task_id), value)))  # NaN or ∞: the check's own words
            return False
        if number is None:
            got = "None" if value is None else type(value).__name__
            print(msg("predict_a_number", var=var, task_id=task_id, got=got))
            return False
        task_id = str(task_id)
        form = diagnose_task(task_id, value)  # NaN, ∞, 2.5 for an index: the check's words, and no reveal
        not_yet = form.code in _NOT_A_PREDICTION_YET or _outside_the_range(task(task_id), number)
        if task_id not in _REVEALED and not_yet:
            print(line(task_id, form))
            return False
        name = delegated_in_cell(_answer_cell(var, namespace), namespace, _handed_out(task_id), var)
        if name and task_id not in _REVEALED:  # computed by the reference the reveal uses: not a prediction
            print(msg("prediction_delegates", var=var, name=name))
            return False
        first = _REVEALED.setdefault(task_id, number)
        if first == number:
            print(msg("prediction_recorded", var=var, value=_number_text(first)))
        else:
            print(msg("prediction_changed", var=var, value=_number_text(first), now=_number_text(number)))
        return True
    except Exception as e:  # a notebook cell must never show a traceback
        print(msg("check_failed", task_id=task_id, error=f"{type(e).__name__}: {e}"))
        return False


# The prediction each predict task had when it was first checked or its answer first shown: this kernel's,
# and in a notebook Jupyter opened also kept across a restart (``pinned``).
_REVEALED = Pinned()

# A check that says nothing about the prediction itself: a slip of form, not a prediction to hold on to.
_NOT_A_PREDICTION_YET = ("not_attempted", "bad_task", "not_whole", "not_finite", "wrong_type", "is_none")


def _record_first_prediction(t, value, diagnosis, namespace):
    """The first number a predict task's check judges is recorded as its prediction, as the reveal cell
    records it, and printed (``📌 top_key = 3 · …``, the line the grader reads): a prediction changed after
    its check said ❌ is not credited, or four tries would find any index. A slip of form (2.5 for an
    index, text, NaN) is not recorded, nor an index outside the range (top_key = 4 of keys 0 to 3); nor is a
    number the answer cell computed with attn_core's reference."""
    if t.answer_kind != "number" or t.id in _REVEALED or diagnosis.code in _NOT_A_PREDICTION_YET:
        return
    if _outside_the_range(t, _as_number(value)):
        return
    if not _is_one_number(value) or delegated_in_cell(
        _answer_cell(t.var, namespace), namespace, _handed_out(t.id), t.var
    ):
        return
    _REVEALED[t.id] = _as_number(value)
    print(msg("prediction_checked", var=t.var, value=_number_text(_REVEALED[t.id])))


def _outside_the_range(t, number):
    """``number`` is an index no key or position of predict task ``t`` has (4 or −1 where keys are 0 to 3): like
    2.5 for an index, no prediction yet, neither recorded nor opening the reveal (for the grader too)."""
    if number is None or t.answer_kind != "number":
        return False
    last = checker.last_index(t.step, **t.given())
    return last is not None and not 0 <= number <= last


RECORDED = re.compile(r"📌 ([A-Za-z_][A-Za-z0-9_]*) = (\S+) ·")  # the line ``predicted`` prints, as data


def revealed_predictions(texts):
    """{variable: the number} of the ``📌 var = n ·`` lines in ``texts`` (a saved notebook's outputs): the
    predictions made before their answers were shown; the first line of each variable counts (but an index
    outside its task's range, which a check no longer records: ``_outside_the_range``)."""
    predicts = {t.var: t for t in TASKS.values() if t.answer_kind == "number"}
    found = {}
    for text in texts:
        for var, number in RECORDED.findall(text):
            value = _as_number(number)
            if value is not None and not (var in predicts and _outside_the_range(predicts[var], value)):
                found.setdefault(var, value)
    return found


def _as_number(value):
    """``value`` as a float when it is one number (an int, a float, a numpy scalar, or text of one), else None."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    reading = read_number(value)
    return None if reading.array is None else float(reading.array)


def _not_finite_number(value):
    """``value`` is one number, NaN or ±∞ (what a check calls no prediction)."""
    if isinstance(value, (bool, np.bool_, str)) or not isinstance(value, (float, np.floating, np.ndarray)):
        return False
    try:
        return np.ndim(value) == 0 and not bool(np.isfinite(value))
    except TypeError:
        return False


def _is_one_number(value):
    """An int, a float or a numpy number (or a 0-d array of one), finite: what opens a reveal. Not text, not
    a list, not None, not True/False, not NaN or ∞."""
    if isinstance(value, (bool, np.bool_, str)):
        return False
    if isinstance(value, (int, float, np.integer, np.floating, fractions.Fraction, decimal.Decimal)):
        try:
            return bool(np.isfinite(float(value)))  # NaN and ∞ are no prediction
        except OverflowError:  # an int beyond float's range is no prediction either
            return False
    return isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf" and bool(np.isfinite(value))


def _number_text(number):
    return str(int(number)) if float(number).is_integer() and abs(number) < 1e15 else repr(float(number))


def judge_prediction(t, value, diagnosis, before=None):
    """The verdict on predict task ``t`` given the prediction recorded before its answer was shown
    (``before``; None: not shown yet, ``diagnosis`` stands). A prediction changed since is judged as it was
    then, and the line says it changed: a change after the reveal is never credited."""
    if t.answer_kind != "number" or before is None or diagnosis.code in ("not_attempted", "bad_task"):
        return diagnosis
    now = _as_number(value)
    if now is not None and now == before:
        return diagnosis
    then = checker.diagnose(t.step, before, **t.given())
    changed_to = msg("now_text", now=_number_text(now)) if now is not None else msg("now_other")
    also = ""
    if _not_a_possible_answer(t, now, diagnosis):  # the change would not have done either: say why
        also = msg("now_not_possible", why=diagnosis.message.rstrip("。."))
    note = msg("prediction_not_counted", var=t.var, value=_number_text(before), now=changed_to, also=also)
    return checker.Diagnosis(then.ok, then.code if then.ok else "changed_after_reveal", note + then.message, then.step)


def _not_a_possible_answer(t, now, diagnosis):
    """The changed prediction is no possible answer at all: not one number, not whole where a count or an
    index is asked, NaN or ∞, or an index outside the range (4.5's keys, 15.2's positions)."""
    if diagnosis.code in ("wrong_type", "not_whole", "not_finite", "is_none"):
        return True
    last = checker.last_index(t.step, **t.given()) if now is not None else None
    return last is not None and not 0 <= now <= last


def _missing_variable(var, names, diagnosis):
    """The "not answered" verdict for a variable that does not exist: naming a close spelling if one exists
    (A_nwe, a_new for A_new), else asking to check the spelling too; said first if the last cell failed."""
    close_names = difflib.get_close_matches(var, [n for n in names if not n.startswith("_")], n=1, cutoff=0.75)
    close_names = close_names or [n for n in names if n.lower() == var.lower()]
    if _previous_cell_failed():
        message = msg("no_variable_failed", var=var)
    elif close_names:
        message = msg("no_variable_typo", var=var, close=close_names[0])
    else:
        message = diagnosis.message
    return checker.Diagnosis(False, "not_attempted", message, diagnosis.step)


# What each task's variable held at its last check, and whether that check passed (this kernel only).
_LAST_CHECKED = {}


def _stale_note(task_id, value, diagnosis):
    """A few words to put before a ❌ whose value may be stale, or ""."""
    fingerprint = _fingerprint(value)
    before = _LAST_CHECKED.get(task_id)
    _LAST_CHECKED[task_id] = fingerprint
    if diagnosis.ok or diagnosis.code in ("not_attempted", "bad_task", "carried_forward", "cell_failed", "delegates"):
        return ""
    if value is MISSING:
        return ""
    var = task(task_id).var
    if _previous_cell_failed():
        return msg("stale_failed", var=var, error=_previous_cell_error())
    if fingerprint is not None and fingerprint == before:
        return msg("stale_unchanged", var=var)
    return ""


def _fingerprint(value):
    """A short digest of an answer (its numbers, or a function's code), or None when there is none."""
    try:
        if callable(value):
            code = value.__code__
            data = code.co_code + repr(code.co_consts).encode() + repr(code.co_names).encode()
        else:
            a = np.asarray(value)
            if a.dtype == object:
                return None
            data = a.dtype.str.encode() + repr(a.shape).encode() + a.tobytes()
        return hashlib.sha256(data).hexdigest()
    except Exception:
        return None


def _after_a_failed_cell(t, value, diagnosis):
    """``diagnosis``, or, when the cell run just before this check raised, what that means for the answer:
    still the placeholder ``...`` is not "not answered yet" but "that cell stopped with this error"; a right
    value is one from before the failed run, so it is not ✅ (the notebook as it stands would not compute it)."""
    if not _previous_cell_failed():
        return diagnosis
    error = _previous_cell_error()
    if value is Ellipsis or diagnosis.code == "not_attempted":
        return checker.Diagnosis(False, "not_attempted", msg("answer_cell_failed", var=t.var, error=error), t.step)
    if diagnosis.ok:
        return checker.Diagnosis(False, "cell_failed", msg("right_before_cell_failed", var=t.var, error=error), t.step)
    return diagnosis


def _handed_out(task_id):
    """attn_core's functions an answer cell of task ``task_id`` may call: the language switch everywhere, and the
    tools its notebook hands out (lesson 14's ``rope``; lesson 15's trained model, ``trained.load`` and
    ``trained.forward``, but not its scoring functions). Lesson 12 asks for RoPE itself: ``rope`` is not one."""
    import attn_core
    from attn_core import trained

    allowed = [attn_core.set_lang, attn_core.get_lang]
    exercise = str(task_id).split(".")[0]
    if exercise == "14":
        allowed.append(attn_core.rope)
    if exercise == "15":
        allowed += [trained.load, trained.forward, trained.Model]
    return allowed


def _chain(node):
    """``a.b.c`` of a Name/Attribute node as ["a", "b", "c"], or None for any other expression."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


def _resolve(parts, namespace):
    """The value ``a.b.c`` names in ``namespace``, following attributes only through modules (nothing is
    called, no property run); None when it names nothing there."""
    if parts[0] not in namespace:
        return None
    value = namespace[parts[0]]
    for attribute in parts[1:]:
        if not inspect.ismodule(value):
            return None
        value = getattr(value, attribute, None)
    return value


def delegated_in_cell(source, namespace, allowed=(), answer=""):
    """The attn_core function or module that the code ``source`` (an answer cell) uses to compute its answer,
    by the names it uses and what they are in ``namespace`` (identity: ``rope`` imported ``from attn_core``,
    ``trained.previous_token_score``, ``attn_core.attention``, a notebook function that calls one, the module
    itself handed to ``getattr``): "attn_core.attention"; "" if none. ``allowed``: the functions this task's
    notebook hands out (``_handed_out``). The same rule as a find-the-bug function's (``delegated_to``), but a
    reference used only to compare with one's own result (``_only_compared``; never the ``answer`` variable
    itself) is no delegation."""
    import attn_core

    allowed_ids = {id(f) for f in (attn_core.set_lang, attn_core.get_lang, *allowed)}
    allowed_names = {_reference_name(f) for f in allowed} | {"attn_core.set_lang", "attn_core.get_lang"}
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ""
    for code in _code_in_strings(tree):  # exec("O = attention(Q, K, V).O"): the string is code too
        name = delegated_in_cell(code, namespace, allowed, answer)
        if name:
            return name
    bases = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    compared = _only_compared(tree, answer)
    for node in ast.walk(tree):
        if id(node) in compared:
            continue
        named = _module_named(node, namespace)  # sys.modules["attn_core"], importlib.import_module("attn_core")
        if named.startswith("attn_core"):
            return named
        if not isinstance(node, (ast.Name, ast.Attribute)) or not isinstance(node.ctx, ast.Load):
            continue
        parts = _chain(node)
        if parts is None:
            continue
        value = _resolve(parts, namespace)
        if value is None or id(value) in allowed_ids:
            continue
        if inspect.ismodule(value):
            if id(node) not in bases and _reference_name(value).startswith("attn_core"):
                return _reference_name(value)  # the module itself used (``getattr(attn_core, name)``, ``dir``)
            continue
        name = _reference_name(value)
        if name.startswith("attn_core"):
            return name
        if inspect.isfunction(value) and getattr(value, "__module__", "") == "__main__":  # the notebook's own
            inner = [n for n in delegated_to(value).split(", ") if n.startswith("attn_core")]
            inner = [n for n in inner if n not in allowed_names and n.rsplit(".", 1)[0] not in allowed_names]
            if inner:
                return inner[0]
    return ""


# the calls that compare two arrays or show one: a reference used inside one checks one's own answer (the
# delegate message itself says to print the reference's result to compare), it does not make it
_COMPARERS = {
    "print",
    "display",
    "allclose",
    "isclose",
    "array_equal",
    "array_equiv",
    "assert_allclose",
    "assert_array_equal",
    "assert_array_almost_equal",
    "assert_almost_equal",
    "assert_equal",
}


# names that can hand a value on from inside a print or a comparison (``print(np.copyto(A, ref))``,
# ``display(globals().update(A=ref))``): a comparison that holds one of them is no comparison
_HANDS_ON = {
    "globals",
    "locals",
    "vars",
    "setattr",
    "exec",
    "eval",
    "copyto",
    "update",
    "__setitem__",
    "put",
    "place",
    "putmask",
    "setdefault",
    "append",
    "extend",
    "fill",
    "itemset",
}


def _hands_on(node):
    """Whether ``node`` may hand a value on: a walrus, or a name or attribute of ``_HANDS_ON``."""
    if isinstance(node, ast.NamedExpr):
        return True
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
    return name in _HANDS_ON


def _only_compared(tree, answer=""):
    """The ids of the nodes of ``tree`` that only compare (``print(np.allclose(q_rot, rope(q, p)))``, ``a == b``,
    and a name assigned only to be compared: ``ref = rope(q, p)`` read nowhere but in a comparison). Nothing
    that may hand a value on (a walrus, ``np.copyto``, ``globals()``: ``_HANDS_ON``) counts."""
    compared = set()
    for node in ast.walk(tree):
        comparing = isinstance(node, ast.Compare) or (
            isinstance(node, ast.Call) and (_chain(node.func) or [""])[-1] in _COMPARERS
        )
        if comparing and not any(_hands_on(n) for n in ast.walk(node)):
            compared |= {id(n) for n in ast.walk(node)}
    reads = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
            names = {t.id for t in node.targets}
            if answer in names:
                continue
            used = [n for n in reads if n.id in names]
            if used and all(id(n) in compared for n in used):
                compared |= {id(n) for n in ast.walk(node)}
    return compared


_RUNS_TEXT = ("exec", "eval", "compile")  # the builtins that run a string as code


def _code_in_strings(tree):
    """The strings of a cell that runs text as code (it names exec, eval or compile): each string constant
    and all of them joined (``exec("O = atten" + "tion(Q, K, V).O")``); none for any other cell."""
    if not any(isinstance(n, ast.Name) and n.id in _RUNS_TEXT for n in ast.walk(tree)):
        return []
    texts = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return [t for t in [*texts, "".join(texts)] if t.strip()]


def _module_named(node, namespace):
    """The module a node reaches by its name as a string: ``sys.modules["attn_core"]``,
    ``importlib.import_module("attn_core")``, ``__import__("attn_core")``; "" for any other node."""
    import builtins
    import importlib

    if isinstance(node, ast.Subscript):
        target, key = node.value, node.slice
        parts = _chain(target)
        if parts is None or _resolve(parts, namespace) is not sys.modules:
            return ""
    elif isinstance(node, ast.Call) and node.args:
        parts, key = _chain(node.func), node.args[0]
        functions = (importlib.import_module, builtins.__import__)
        value = None if parts is None else (_resolve(parts, namespace) or getattr(builtins, parts[-1], None))
        if value is None or not any(value is f for f in functions):
            return ""
    else:
        return ""
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else ""


def _answer_cell(var, namespace):
    """The code of the last notebook cell run before this check that assigns ``var`` (IPython's input
    history), or ""."""
    history = namespace.get("_ih") or namespace.get("In") or []
    assigns = re.compile(rf"(^|[;\s,(]){re.escape(var)}\s*(,[^=\n]*)?:?=(?!=)", re.MULTILINE)  # := too
    # the last entry is the cell running this check: the answer's own cell when it assigns ``var`` too
    for source in reversed(list(history)):
        if isinstance(source, str) and (assigns.search(source) or any(map(assigns.search, _strings_run(source)))):
            return source
    return ""


def _strings_run(source):
    """The code strings of a cell that runs text (``exec("O = ...")``), or [] (also when it does not parse)."""
    if not any(name in source for name in _RUNS_TEXT):
        return []
    try:
        return _code_in_strings(ast.parse(source))
    except SyntaxError:
        return []


def _assigned_from(source, names):
    """The expressions that the cell ``source`` assigns to any of ``names`` (``S = _tmp``: {"S": [_tmp]}),
    as AST nodes; {} when it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name) and leaf.id in names:
                        found.setdefault(leaf.id, []).append(node.value)
    return found


def _delegated_behind(t, namespace):
    """``delegated_in_cell`` of the answer cell, following the names its assignment to ``t.var`` reads back to
    the earlier cells that assigned them (``_tmp = ac.scale(...)`` in a scratch cell, then ``S = _tmp``): only
    the expressions assigned to those names are read, never a whole scratch cell, and the task's own data are
    not followed."""
    allowed = _handed_out(t.id)
    source = _answer_cell(t.var, namespace)
    name = delegated_in_cell(source, namespace, allowed, t.var)
    history = [s for s in (namespace.get("_ih") or namespace.get("In") or []) if isinstance(s, str)]
    if name or not source or source not in history:
        return name
    earlier = history[: len(history) - 1 - history[::-1].index(source)]
    given = set(t.inputs()) if callable(getattr(t, "inputs", None)) else set()
    values = _assigned_from(source, {t.var}).get(t.var, [])
    seen = {t.var}
    for _ in range(4):  # a short chain of renamings: _o -> tmp -> O
        wanted = {n.id for v in values for n in ast.walk(v) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        wanted -= seen | given
        seen |= wanted
        values = []
        for variable in wanted:
            for cell in reversed(earlier):
                assigned = _assigned_from(cell, {variable}).get(variable)
                if assigned:
                    values += assigned
                    break
        for value in values:
            name = delegated_in_cell(ast.unparse(value), namespace, allowed, t.var)
            if name:
                return name
        if not values:
            break
    return ""


def _computed_by_the_reference(t, diagnosis, namespace):
    """A right array answer whose cell computed it with attn_core's reference (``attention(Q, K, V).O``) is
    not ✅: the notebooks ask for one's own numpy, as a find-the-bug fix that calls it is told (6.5). Nor is a
    prediction computed by the reference the reveal cell uses (14.2's ``kv_cache_bytes``): a number worked out
    by hand cannot be told from a guess, a call can. The evidence is the answer cell's code, so this is said
    only where the check can read it (a notebook)."""
    if t.answer_kind not in ("array", "number") or diagnosis.code in ("not_attempted", "bad_task"):
        return diagnosis
    if t.answer_kind == "array" and not diagnosis.ok:
        return diagnosis
    name = _delegated_behind(t, namespace)
    if not name:
        return diagnosis
    key = "cell_delegates" if t.answer_kind == "array" else "prediction_delegates"
    return checker.Diagnosis(False, "delegates", msg(key, var=t.var, name=name), t.step)


def _fixed_under_the_old_name(t, value, diagnosis, namespace):
    """A find-the-bug task still at ``...`` while the notebook's buggy function (``buggy_scores`` for
    ``fixed_scores``) now passes the task's check: the fix was written under the old name (the evidence: the
    function under that name is right), so the message says how to hand it in."""
    if t.answer_kind != "function" or value is not Ellipsis or diagnosis.code != "not_attempted":
        return diagnosis
    old = "buggy_" + t.var.removeprefix("fixed_")
    if old == t.var or not callable(namespace.get(old)) or not diagnose_task(t.id, namespace[old]).ok:
        return diagnosis
    note = msg("fixed_under_old_name", old=old, var=t.var)
    return checker.Diagnosis(False, "not_attempted", diagnosis.message + note, diagnosis.step)


def _previous_cell_error():
    """The error the last failed cell raised, as "NameError: name 'x' is not defined" (IPython keeps it in
    ``sys.last_value``; ``sys.last_exc`` from Python 3.12), or a general phrase when it is not known."""
    error = getattr(sys, "last_exc", None) or getattr(sys, "last_value", None)
    if not isinstance(error, BaseException):
        return msg("an_error")
    detail = str(error).splitlines()[0] if str(error) else ""
    detail = detail if len(detail) <= 120 else detail[:117] + "…"
    return f"{type(error).__name__}: {detail}" if detail else type(error).__name__


def _previous_cell_failed():
    """The notebook cell run just before this one raised (IPython only; False elsewhere)."""
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except Exception:
        return False
    return shell is not None and getattr(shell, "last_execution_succeeded", True) is False


def progress(exercise=None, *extra, **unexpected):
    """Print one line per task of an exercise notebook, reading the answers from the caller's namespace.
    Never raises, not even when called with arguments it does not take."""
    if _wrong_call("progress", 'progress("ex02")', "call_what_exercise", extra, unexpected):
        return
    if exercise is None:
        print(msg("progress_which_exercise"))
        return
    try:
        frame = inspect.currentframe().f_back
        try:
            values = [(t.id, _lookup(frame, t.var)) for t in tasks(exercise)]
        finally:
            del frame
        by_id = dict(values)
        diagnoses = [
            judge_prediction(
                t,
                value,
                _carried_forward(
                    t, value, by_id.get(t.builds_on.task_id) if t.builds_on else MISSING, diagnose_task(t.id, value)
                ),
                _REVEALED.get(t.id),
            )
            for t, (_, value) in zip(tasks(exercise), values)
        ]
        for (task_id, _), d in zip(values, diagnoses):
            print(line(task_id, d))
        print(msg("progress_summary", total=len(diagnoses), done=sum(d.ok for d in diagnoses)))
    except Exception as e:
        print(msg("progress_failed", error=f"{type(e).__name__}: {e}"))
