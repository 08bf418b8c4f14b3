"""Running a job's seeds on two cores: the worker forks a helper for every other seed.

The seeds are independent (each draws its own data and seeds its own estimators), so
the helper's results are exactly those the worker would compute. Forking after the
imports costs milliseconds, where a second worker would cost seconds of imports. The
helper is forked only on Linux, where the worker's BLAS and OpenMP pools hold a single
thread (see ``messages.THREAD_VARIABLES``) so forking is safe, and it is killed with
its parent: a time limit that kills the worker kills the helper too.

Set ``LEAKLINT_AUDIT_PROCESSES=1`` to run every seed in the worker itself.
"""
from __future__ import annotations

import os
import pickle
import signal
import sys
from typing import Callable, Iterator

from leaklint.audit.messages import read_message, write_message

PROCESSES_VARIABLE = "LEAKLINT_AUDIT_PROCESSES"
_PR_SET_PDEATHSIG = 1


def processes() -> int:
    """How many processes may run seeds: 2 on Linux with two usable cores, else 1."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return 1
    try:
        wanted = int(os.environ.get(PROCESSES_VARIABLE, "2"))
    except ValueError:
        wanted = 2
    return max(1, min(2, wanted, len(os.sched_getaffinity(0))))


def run_seeds(repeats: int, run_seed: Callable[[int], tuple]) -> Iterator[tuple]:
    """Yield ``run_seed(r)`` for r = 0 .. repeats-1, in order; odd seeds run in a helper.

    An exception of any seed is raised when that seed's turn comes.
    """
    if repeats < 2 or processes() < 2:
        for repeat in range(repeats):
            yield run_seed(repeat)
        return
    helper = _Helper(range(1, repeats, 2), run_seed)
    try:
        for repeat in range(repeats):
            yield helper.result(repeat) if repeat % 2 else run_seed(repeat)
    finally:
        helper.stop()


class _Helper:
    def __init__(self, seeds, run_seed):
        parent = os.getpid()
        read_end, write_end = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the helper
            os.close(read_end)
            _die_with(parent)
            _serve(os.fdopen(write_end, "wb"), seeds, run_seed)
        os.close(write_end)
        self._stream = os.fdopen(read_end, "rb")

    def result(self, repeat: int):
        message = read_message(self._stream)
        if message is None:
            raise RuntimeError("the audit's helper process stopped")
        done, kind, value = message
        if kind == "raise":
            raise value
        assert done == repeat, (done, repeat)
        return value

    def stop(self) -> None:
        self._stream.close()
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)


def _serve(out, seeds, run_seed) -> None:
    code = 0
    try:
        for repeat in seeds:
            try:
                message = (repeat, "ok", run_seed(repeat))
            except BaseException as exc:  # sent to the worker, which reports it
                message = (repeat, "raise", _picklable(exc))
            write_message(out, message)
            if message[1] == "raise":
                break
    except BaseException:  # the worker stopped reading: nothing left to tell it
        code = 1
    finally:
        os._exit(code)


def _picklable(exc: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def _die_with(parent: int) -> None:
    """Ask Linux to kill this process when its parent dies (a timeout kills the worker)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except Exception:
        pass
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)
