"""leaklint: find data leakage in machine-learning code."""
__version__ = "0.1.0"


def load_ipython_extension(ipython):
    """``%load_ext leaklint``: lint the session's cells after each one runs (leaklint.jupyter).

    Imported here on demand, so ``import leaklint`` never imports IPython.
    """
    from .jupyter import load

    load(ipython)


def unload_ipython_extension(ipython):
    """``%unload_ext leaklint``: stop linting and remove ``%leaklint``."""
    from .jupyter import unload

    unload(ipython)
