"""leaklint: find data leakage in machine-learning code."""
__version__ = "0.1.0"
