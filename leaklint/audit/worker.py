"""The audit worker: one separate process runs every audit of a leaklint run.

One process for the whole run because importing scikit-learn costs seconds; separate
so a time limit can kill it and a memory cap can stop it without touching the user's
process. BLAS is pinned to one thread: these fits are small, and more threads make
them several times slower. Messages are pickled frames on stdin/stdout; the worker's
own stdout is moved to stderr so that a library's print cannot corrupt them.
"""
from __future__ import annotations

import os
import sys
import warnings

from leaklint.audit.messages import read_message, write_message

MEMORY_LIMIT = 4 * 2**30


def _limit_memory() -> None:
    try:
        import resource
    except ImportError:  # not on Windows
        return
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        soft = MEMORY_LIMIT if hard == resource.RLIM_INFINITY else min(MEMORY_LIMIT, hard)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    except (ValueError, OSError):  # macOS refuses RLIMIT_AS
        pass


def main() -> None:
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    _limit_memory()
    warnings.simplefilter("ignore")
    from threadpoolctl import threadpool_limits

    from leaklint.audit.execute import execute
    from leaklint.audit.rebuild import Unsupported

    threadpool_limits(1)
    write_message(out, ("ready",))
    while (job := read_message(sys.stdin.buffer)) is not None:
        try:
            execute(job, lambda message: write_message(out, message))
            write_message(out, ("done",))
        except Unsupported as exc:
            write_message(out, ("unsupported", _one_line(exc)))
        except MemoryError:
            write_message(out, ("error", f"ran out of memory (the audit is limited to {MEMORY_LIMIT // 2**30} GiB)"))
        except Exception as exc:
            write_message(out, ("error", f"{type(exc).__name__}: {_one_line(exc)}"))


def _one_line(exc: Exception) -> str:
    """A library's message, cut to its first line (scikit-learn's add advice on more)."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else ""


if __name__ == "__main__":
    main()
