"""A memory limit for the tests that ask posenc for more than it allows.

A test that calls a function with the sizes that once took gigabytes would,
if the size cap broke again, take those gigabytes on a machine that others
share. Under :func:`memory_limit` such a call fails with a MemoryError
instead: the address space of the process is limited, for the ``with``
block, to what it holds already plus a margin far below the cap (Linux; a
no-op elsewhere).
"""

from __future__ import annotations

import contextlib
import sys

MARGIN = 64 * 2**20  # bytes: far below the 1 GiB of posenc._checks.MAX_ENTRIES


def vm_size():
    """The address space this process holds now, in bytes (Linux: /proc/self/status)."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize"))


@contextlib.contextmanager
def memory_limit(margin=MARGIN):
    """Limit the process's address space to what it holds now plus ``margin`` bytes."""
    if not sys.platform.startswith("linux"):
        yield
        return
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = vm_size() + margin
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
