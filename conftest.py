"""Loaded by pytest for every test, the notebooks' cells included.

Two pytest-xdist workers that start kernels at the same moment can pick the same free TCP port (each
process picks its ports by itself, then lets go of them before the kernel binds); the kernel that loses
dies before it answers, and nbval gives up at once. Here a notebook's kernel gets three tries, so a port
race costs a second instead of a red run. Any other start failure still fails after the third try.
"""

import nbval.kernel

_start_new_kernel = nbval.kernel.start_new_kernel


def _start_new_kernel_with_retries(*args, **kwargs):
    for attempt in range(3):
        try:
            return _start_new_kernel(*args, **kwargs)
        except RuntimeError:
            if attempt == 2:
                raise


nbval.kernel.start_new_kernel = _start_new_kernel_with_retries
