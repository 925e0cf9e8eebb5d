"""Every learner-facing message of the homework, Chinese and English side by side: the checker's verdicts,
what is wrong and why, its hints, the places it names, the errors of a wrongly set-up task, the task
lookups and the lines ``check`` and ``progress`` print. Use: ``from .messages import msg`` then
``msg("key", ...)``.

One module per concern, each a dict ``MESSAGES`` (key → (Chinese, English)): ``verdicts`` (what ``check`` and
``progress`` print), ``mistakes`` (the five steps), ``heads``, ``online``, ``backward``, ``block`` (lessons 8–11),
``predictions``, ``functions`` (find the bug), ``torch`` (lesson 13), ``decoding`` (lesson 14), ``learned`` (lesson 15), ``setup`` (a task set up wrongly), ``grading`` (``attn-grade``), ``classreport`` (its class report and similarity hints) and
``release`` (``attn-release``, ``attn-student``). A key lives in exactly one of them.

The verdicts are compared with the committed notebook outputs (nbval): change a text here only together
with the notebooks that print it. The mistake messages say what is wrong, why, and the fix in words; never
the expected numbers or solution code.
"""

from attn_core.lang import Catalog

from . import (
    backward,
    block,
    classreport,
    decoding,
    functions,
    gradescope,
    grading,
    heads,
    learned,
    mistakes,
    online,
    predictions,
    release,
    setup,
    torch,
    verdicts,
)

_MODULES = (
    verdicts,
    mistakes,
    heads,
    online,
    backward,
    block,
    predictions,
    functions,
    torch,
    decoding,
    learned,
    setup,
    grading,
    classreport,
    gradescope,
    release,
)


def _merged(modules):
    merged = {}
    for module in modules:
        twice = merged.keys() & module.MESSAGES.keys()
        if twice:
            raise KeyError(f"message keys defined twice: {sorted(twice)} (in {module.__name__})")
        merged.update(module.MESSAGES)
    return merged


msg = Catalog(_merged(_MODULES))

__all__ = ["msg"]
