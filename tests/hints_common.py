"""What the hint-trial test modules share: both languages as a fixture, a fresh checker state around each
test, a notebook-like IPython shell, the phrase a test expects in each language, and a plain row softmax to
build answers with.

A module takes them as ``lang = hints_common.lang`` (pytest finds a fixture by its module-level name)."""

import contextlib
import io

import numpy as np
import pytest

import attn_homework as homework
from attn_core.lang import set_lang
from attn_homework import verdicts


@pytest.fixture(params=["zh", "en"])
def lang(request):
    """The test in each language, Chinese restored afterwards."""
    set_lang(request.param)
    yield request.param
    set_lang("zh")


@pytest.fixture(autouse=True)
def fresh_state():
    """No reveal or last check carried from one test into the next."""
    verdicts._REVEALED.clear()
    verdicts._LAST_CHECKED.clear()
    yield
    verdicts._REVEALED.clear()
    verdicts._LAST_CHECKED.clear()


@pytest.fixture
def shell():
    """An IPython shell with numpy, the homework and ``check`` imported, as a student notebook has them."""
    from IPython.core.interactiveshell import InteractiveShell

    sh = InteractiveShell.instance()
    sh.run_cell("import numpy as np\nimport attn_homework as homework\nfrom attn_homework import check")
    yield sh
    InteractiveShell.clear_instance()


def run_cells(shell, task_id, cells):
    """The task's data, then ``cells`` as a notebook runs them; what the last one (a check) prints."""
    shell.user_ns.update(homework.TASKS[task_id].inputs())
    out = io.StringIO()
    for source in cells[:-1]:
        shell.run_cell(source, store_history=True)
    with contextlib.redirect_stdout(out):
        shell.run_cell(cells[-1], store_history=True)
    return out.getvalue().strip()


def words(lang, zh, en):
    """The phrase a test looks for, in the language of the run."""
    return {"zh": zh, "en": en}[lang]


def softmax(S, axis=-1):
    E = np.exp(S - S.max(axis=axis, keepdims=True))
    return E / E.sum(axis=axis, keepdims=True)
