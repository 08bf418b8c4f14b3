"""The shared dataflow pass: parse once, interpret once, hand facts to every rule."""
from .facts import Contamination, Evaluation, Facts, LearnEvent, Span, SplitEvent
from .interpreter import analyze

__all__ = ["Contamination", "Evaluation", "Facts", "LearnEvent", "Span", "SplitEvent", "analyze"]
