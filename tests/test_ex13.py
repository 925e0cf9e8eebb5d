"""ex13 (lesson 13, PyTorch) is checked without PyTorch: attn_homework and its checker import in a Python where
``import torch`` fails, and the teacher's answers of every ex13 task pass there; the porting mistakes the
exercise is about get their codes."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import attn_homework as homework
from attn_homework import diagnose_task

from .repo import ROOT

NO_TORCH = textwrap.dedent(
    """
    import sys
    sys.modules["torch"] = None  # import torch raises ImportError from here on
    import numpy as np
    import attn_homework as homework
    from attn_homework import diagnose_task
    from attn_homework.checker import torch_port

    W_q, W_k, W_v = homework.data("13.1")
    Q, K, padding = homework.data("13.2")
    S = np.where(~padding, Q @ K.T / np.sqrt(3), -np.inf)
    E = np.exp(S - S.max(axis=1, keepdims=True))
    answers = {
        "13.1": np.concatenate([W_q.T, W_k.T, W_v.T]),
        "13.2": E / E.sum(axis=1, keepdims=True),
        "13.3": 50,
        "13.4": lambda allowed: np.where(allowed, 0.0, -np.inf),
    }
    codes = [diagnose_task(task_id, answer).code for task_id, answer in answers.items()]
    assert "torch" not in [name for name in sys.modules if sys.modules[name] is not None], "torch was imported"
    print(codes)
    """
)


@pytest.mark.kernel
def test_ex13_is_checked_without_pytorch():
    run = subprocess.run(
        [sys.executable, "-c", NO_TORCH], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "['ok', 'ok', 'ok', 'ok']"


def test_the_porting_mistakes_get_their_codes():
    W_q, W_k, W_v = homework.data("13.1")
    Q, K, padding = homework.data("13.2")
    S = np.where(padding, Q @ K.T / np.sqrt(3), -np.inf)  # PyTorch's key_padding_mask used as it is
    E = np.exp(S - S.max(axis=1, keepdims=True))
    cases = [
        ("13.1", np.concatenate([W_q, W_k, W_v]), "in_proj_not_transposed"),
        ("13.1", np.concatenate([W_q, W_k, W_v], axis=1), "wrong_shape"),
        ("13.2", E / E.sum(axis=1, keepdims=True), "mask_inverted"),
        ("13.3", 200, "wrong_prediction"),  # one matrix per head: average_attn_weights=False
        ("13.4", lambda allowed: np.where(allowed, -np.inf, 0.0), "mask_inverted"),
    ]
    for task_id, answer, code in cases:
        d = (
            diagnose_task(task_id, answer, rng=np.random.default_rng(0))
            if callable(answer)
            else diagnose_task(task_id, answer)
        )
        assert (d.ok, d.code) == (False, code), (task_id, d.message)


def test_the_prediction_hints_never_say_the_number():
    for wrong in (200, 25, 100, 80, 7):
        assert "50" not in diagnose_task("13.3", wrong).message
