"""The homework package's structure: every message a step names is in the catalog, every function a step
table names says what it is, and no module hides a function the package exports."""

import importlib
import inspect
import pkgutil

import numpy as np
import pytest

import attn_homework as homework
from attn_homework import checker
from attn_homework.checker.functions import FUNCTION_STEPS
from attn_homework.checker.givens import Givens, read_givens
from attn_homework.checker.steps import STEP_TABLE
from attn_homework.messages import msg


def _message_keys(step):
    yield from (step.axes, step.entry, step.finite_hint, step.answer.kind)
    yield from ([step.answer.type_hint] if step.answer.type_hint else [])
    yield from (entry.message for entry in step.mistakes + step.shape_hints + step.rules)


def _functions(step):
    yield from (step.right_answer, step.unmasked, step.answer.read)
    yield from (mistake.makes for mistake in step.mistakes)
    yield from (hint.shape for hint in step.shape_hints)
    yield from (rule.broken_at for rule in step.rules)


@pytest.mark.parametrize("name", list(STEP_TABLE))
def test_every_message_a_step_names_is_in_the_catalog(name):
    assert [key for key in _message_keys(STEP_TABLE[name]) if key not in msg] == []


@pytest.mark.parametrize("name", list(STEP_TABLE))
def test_every_function_of_a_step_says_what_it_is(name):
    assert [f.__name__ for f in _functions(STEP_TABLE[name]) if not inspect.getdoc(f)] == []


def test_the_public_steps_are_the_tables():
    assert checker.STEPS == tuple(STEP_TABLE) + tuple(FUNCTION_STEPS)


@pytest.mark.parametrize("package", ["attn_homework", "attn_homework.checker"])
def test_no_module_is_named_after_an_exported_name(package):
    """``from . import data`` must give a module only if ``data`` is not also an exported function."""
    module = importlib.import_module(package)
    submodules = {info.name for info in pkgutil.iter_modules(module.__path__)}
    assert submodules & set(module.__all__) == set()
    for name in submodules:
        importlib.import_module(f"{package}.{name}")
    for name in module.__all__:  # importing every submodule rebinds nothing
        assert not inspect.ismodule(getattr(module, name)), name


def test_the_notebook_api_is_functions():
    for name in ("data", "check", "progress", "tasks", "task", "diagnose_task", "exercise_name", "line"):
        assert inspect.isfunction(getattr(homework, name)), name


def test_givens_are_read_once_and_frozen():
    Q = np.ones((2, 3))
    g = read_givens({"Q": Q, "K": Q})
    assert isinstance(g, Givens) and g.d_k == 3.0 and g.scaled and g.mask is None and g.tokens == ()
    assert g.Q is not Q  # a copy
    with pytest.raises(AttributeError):
        g.scaled = False
