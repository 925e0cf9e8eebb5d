"""The shapes of the registry: an ``Exercise`` (one notebook), a ``Task`` (one auto-checked answer), the
``Bundle`` a task hands out and ``BuildsOn`` (error carried forward). The tasks themselves are one module per
exercise beside this one (``ex01.py`` … ``ex12.py``)."""

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from attn_core.lang import tr


@dataclass(frozen=True)
class Exercise:
    """One exercise notebook: its file stem, the lesson it practises and a Chinese/English title."""

    name: str
    lesson: str
    title_zh: str
    title_en: str

    @property
    def title(self):
        return tr(self.title_zh, self.title_en)


class Bundle:
    """A task's inputs: named arrays in a fixed order.

    Unpack it (``Q, K = homework.data("2.1")``) or read a field (``d.Q``, ``d["Q"]``).
    Every call of ``data`` builds fresh arrays, so changing them changes nothing elsewhere."""

    def __init__(self, items):
        self._items = dict(items)

    def __iter__(self):
        return iter(self._items.values())

    def __len__(self):
        return len(self._items)

    def __getitem__(self, key):
        if isinstance(key, int):
            return list(self._items.values())[key]
        return self._items[key]

    def __getattr__(self, name):
        try:
            return self.__dict__["_items"][name]
        except KeyError:
            raise AttributeError(name) from None

    def names(self):
        return tuple(self._items)

    def __repr__(self):
        return "\n".join(f"{name}: {_shape_text(value)}" for name, value in self._items.items())


def _shape_text(value):
    shape = np.shape(value)
    return " × ".join(map(str, shape)) if shape else repr(value)


@dataclass(frozen=True)
class BuildsOn:
    """Error carried forward: a task computed from the learner's own answer to an earlier task (6.4 uses
    the weights of 6.3). Where that earlier answer is wrong, the grader also accepts this task's answer
    when it is right for it: the checker's ``step`` with the givens ``given_from(inputs, earlier_answer)``."""

    task_id: str
    step: str
    given_from: Callable[[dict, np.ndarray], dict] = field(repr=False)


@dataclass(frozen=True)
class Task:
    """One auto-checked task.

    ``inputs()`` builds the data the notebook shows (names as the learner sees them);
    ``given_from(inputs)`` turns them into the keyword arguments of ``attn_homework.checker.diagnose``."""

    id: str
    exercise: str
    var: str
    step: str
    title_zh: str
    title_en: str
    inputs: Callable[[], dict] = field(repr=False)
    given_from: Callable[[dict], dict] = field(repr=False)
    # What the learner hands in: "array" (the default), "number" (a predict task: a number or an index) or
    # "function" (a find-the-bug task: the fixed function, which the checker calls on data of its own).
    answer_kind: str = "array"
    # For a "function" task: argument tuples to call the learner's function with, drawn from the rng the
    # caller gives (the notebook's check draws afresh each time; the grader draws at grading time).
    probe_arguments: Callable[[np.random.Generator], list[tuple]] | None = field(default=None, repr=False)
    # The grader's marks: points for this task (a teacher may override them), and error carried forward.
    points: float = 1.0
    builds_on: BuildsOn | None = None

    @property
    def title(self):
        return tr(self.title_zh, self.title_en)

    def data(self):
        return Bundle(self.inputs())

    def given(self):
        """The checker's keyword arguments, rebuilt from scratch on every call. Messages name the
        learner's variable (``QKT_new``), except for projections, where the name also labels W (W_Q)."""
        given = self.given_from(self.inputs())
        return given if "name" in given else {**given, "name": self.var}


# To add an exercise: an ``Exercise`` above (its notebook's file stem, the lesson, the titles), then one
# block of ``Task``s below, numbered "N.1", "N.2", … in the order the notebook checks them:
#   var         the variable the learner's answer cell assigns (``QKT = ...``); check("N.k") reads it;
#   step        what the checker tests: one of ``checker.STEPS``;
#   inputs      a builder from ``task_data``: what ``homework.data("N.k")`` hands out, in unpacking order;
#   given_from  inputs -> the checker's keyword arguments (the step's givens); wrap it in ``with_tokens``
#               for four-word data, so the messages name the words;
#   answer_kind "number" for a predict task (one number or index; its check cell comes before the cell that
#               shows the answer), "function" for a find-the-bug task (the fixed function; ``step`` is one
#               of ``checker.functions.FUNCTION_STEPS`` and ``probe_arguments`` draws the checker's own
#               arguments from an rng; ``inputs`` are the example data the notebook shows).
# The teacher notebook (notebooks/exercises/teacher/) then has, per task, a data cell
# ``Q, K = homework.data("N.k")``, an answer cell ``QKT = ...`` with its solution between the markers,
# and a one-line check cell ``check("N.k")``; tests/test_homework.py checks that wiring.


def _no_givens(inputs):
    """A find-the-bug task's checker takes no givens: it judges the function on its own probe arguments."""
    return {}
