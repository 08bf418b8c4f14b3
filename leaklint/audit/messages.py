"""The worker's wire format: pickled messages, each framed by its length.

Only the leaklint process and the worker it started ever read these frames.
"""
from __future__ import annotations

import pickle
import struct

# Set in the worker's environment before numpy loads: one BLAS/OpenMP thread.
THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)
_HEADER = struct.Struct(">I")


def write_message(stream, message) -> None:
    data = pickle.dumps(message)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def read_message(stream):
    """The next message, or None at the end of the stream."""
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    return pickle.loads(stream.read(_HEADER.unpack(header)[0]))
