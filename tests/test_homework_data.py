"""Every number a task hands out is the same, to the last bit, on every machine.

A student's laptop and the teacher's grading machine rebuild a task's data independently. If a number
came from a matrix product and was then rounded, another BLAS kernel could round it the other way
(2.025 -> 2.02 here, 2.03 there) and a right answer for the data on the student's screen would be
graded against other data. So the data are built in subprocesses under different OpenBLAS kernels,
thread counts and numpy SIMD paths, and their bytes compared.
"""

import hashlib
import json
import os
import platform
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import attn_homework as homework
from attn_homework.task_data import _decimals, _rounded, exact_matmul

SCRIPT = """
import hashlib, json
import numpy as np
import attn_homework as homework
out = {}
for t in homework.tasks():
    data = t.data()
    for name, value in zip(data.names(), data):
        a = np.ascontiguousarray(value)
        out[t.id + ":" + name] = [a.dtype.str, list(a.shape), hashlib.sha256(a.tobytes()).hexdigest()]
print(json.dumps(out))
"""

# The most different settings numpy's bundled OpenBLAS and numpy itself offer on one x86-64 machine:
# a pre-FMA kernel (Prescott), one thread (another reduction order), and numpy's baseline SIMD for exp.
MACHINES = {
    "this machine": {},
    "OpenBLAS Prescott, 1 thread": {"OPENBLAS_CORETYPE": "Prescott", "OPENBLAS_NUM_THREADS": "1"},
    "OpenBLAS Haswell": {"OPENBLAS_CORETYPE": "Haswell"},
}
if platform.machine().lower() in ("x86_64", "amd64"):
    MACHINES["numpy baseline SIMD"] = {"NPY_DISABLE_CPU_FEATURES": "X86_V4 X86_V3 AVX512_ICL AVX512_SPR"}


def _build(env):
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], env={**os.environ, **env}, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


@pytest.mark.kernel
def test_every_task_builds_the_same_bytes_under_every_kernel():
    reference = _build(MACHINES["this machine"])
    assert len(reference) >= 2 * len(homework.TASKS) - 5  # every task's arrays are in there
    for machine, env in MACHINES.items():
        built = _build(env)
        differ = [key for key in reference if built.get(key) != reference[key]]
        assert not differ, f"{machine}: task data differ from this machine's in {differ}"


@pytest.mark.kernel
def test_the_subprocess_sees_what_this_process_sees():
    reference = _build({})
    for t in homework.tasks():
        data = t.data()
        for name, value in zip(data.names(), data):
            a = np.ascontiguousarray(value)
            assert reference[f"{t.id}:{name}"][2] == hashlib.sha256(a.tobytes()).hexdigest()


# Arrays computed with an irrational factor (S = QKᵀ/√d_k) are exact too, but not short decimals.
IRRATIONAL = {("4.1", "S"), ("13.4", "S")}


@pytest.mark.parametrize("task_id", list(homework.TASKS))
def test_handed_out_numbers_are_short_decimals(task_id):
    data = homework.data(task_id)
    for name, value in zip(data.names(), data):
        a = np.asarray(value)
        if a.dtype.kind != "f" or (task_id, name) in IRRATIONAL:
            continue
        assert _decimals(a) <= 6, f"{task_id} {name}"


def test_weights_handed_out_are_rows_that_sum_to_exactly_one_in_decimals():
    for task_id, name in (("5.1", "A"), ("5.2", "A_new")):
        A = homework.data(task_id)[name]
        assert (np.rint(A * 1e6).astype(np.int64).sum(axis=-1) == 1_000_000).all()
        assert (A >= 0).all()


short = st.integers(-999, 999).map(lambda i: i / 100)


@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 5), st.data())
def test_exact_matmul_is_the_product(n, k, m, data):
    a = np.array(data.draw(st.lists(short, min_size=n * k, max_size=n * k))).reshape(n, k)
    b = np.array(data.draw(st.lists(short, min_size=k * m, max_size=k * m))).reshape(k, m)
    np.testing.assert_allclose(exact_matmul(a, b), a @ b, rtol=1e-12, atol=1e-12)
    assert _decimals(exact_matmul(a, b)) <= 4


def test_rounding_refuses_a_value_on_a_boundary():
    assert _rounded(np.array([0.1234, 2.0249]), 2).tolist() == [0.12, 2.02]
    with pytest.raises(ValueError, match="boundary"):
        _rounded(np.array([2.025]), 2)
