"""Loading the rule modules and the small vocabulary they share.

A rule module (in the ``leaklint.rules`` package) declares CODE, NAME, SUMMARY,
MESSAGE (what is wrong), HELP (the remedy), CATALOG (qualified names it matches,
``pkg.*`` for a whole package), DEFAULT (in the default selection), SEVERITY ("error"
for a leak that routinely moves a score, "warning" for one that rarely does; its
"What it does" section says why) and a ``check(ctx)`` predicate over the dataflow
facts. Its docstring is its documentation, in ruff's sections; the Example and Use
instead blocks double as tests and as the runtime checker's fallback procedure.
"""
from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Optional

from .analysis.facts import Facts, LearnEvent, Span, SplitEvent, disjoint_rows, saw_held_out
from .analysis.values import Side
from .analysis.libraries import NATIVE_TRAIN, OLD_SPLITTER_MODULE, SHIFT_AND_SCALE_CLASSES, lib_key, short
from .analysis.networks import as_mlp, softmax_classes
from .analysis.specs import CallSpec, Opaque
from .analysis.reach import POSITIONAL, watched_model

SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "Known limitations", "References")
_CODE_BLOCK = re.compile(r"```(?:python)?\n(.*?)```", re.S)


@dataclass(frozen=True)
class Hit:
    """What a rule reports: where, what, and the related split/evaluation sites."""

    span: Span
    message: str
    related: tuple = ()  # ((Span, message), ...)
    procedure: dict = field(default_factory=dict, compare=False, hash=False)
    # The facts a fix is planned from (leaklint/fix/plan.py): "learn" (a LearnEvent id),
    # "split" (a SplitEvent id), "search" ...
    basis: dict = field(default_factory=dict, compare=False, hash=False)


class Catalog:
    """A rule's qualified names, matched by package root and last component."""

    def __init__(self, names):
        self.names = tuple(sorted(set(names)))
        self._keys = {lib_key(n) for n in self.names}

    def extended(self, extra) -> "Catalog":
        return Catalog(self.names + tuple(extra))

    def __contains__(self, qualname: str) -> bool:
        root, name = lib_key(qualname)
        # ``pkg.A|B``: a class picked by name among several; held when each one is
        return all((root, one) in self._keys or (root, "*") in self._keys for one in name.split("|"))


@dataclass
class Context:
    facts: Facts
    catalog: Catalog
    where: Callable[[Span], str]  # "line 12" or "cell 4, line 2"


@dataclass(frozen=True)
class Rule:
    module: object

    @property
    def code(self) -> str:
        return self.module.CODE

    @property
    def name(self) -> str:
        return self.module.NAME

    @property
    def summary(self) -> str:
        return self.module.SUMMARY

    @property
    def help(self) -> str:
        return self.module.HELP

    @property
    def default(self) -> bool:
        return getattr(self.module, "DEFAULT", True)

    @property
    def severity(self) -> str:
        return self.module.SEVERITY

    @property
    def catalog(self) -> Catalog:
        return Catalog(self.module.CATALOG)

    @property
    def doc(self) -> str:
        return (self.module.__doc__ or "").strip()

    def section(self, title: str) -> Optional[str]:
        pattern = re.compile(r"^## " + re.escape(title) + r"\s*\n(.*?)(?=^## |\Z)", re.S | re.M)
        match = pattern.search(self.doc)
        return match.group(1).strip() if match else None

    def code_block(self, title: str) -> Optional[str]:
        text = self.section(title)
        match = _CODE_BLOCK.search(text or "")
        return match.group(1) if match else None

    def check(self, ctx: Context):
        return self.module.check(ctx)


@lru_cache(maxsize=1)
def all_rules() -> tuple:
    from . import rules

    found = []
    for info in pkgutil.iter_modules(rules.__path__):
        if info.name.startswith("ll"):
            found.append(Rule(importlib.import_module(f"{rules.__name__}.{info.name}")))
    return tuple(sorted(found, key=lambda r: r.code))


def rule_by_code(code: str) -> Optional[Rule]:
    for rule in all_rules():
        if rule.code == code.upper():
            return rule
    return None


# ---------------------------------------------------------------- shared wording
SPLIT_VERBS = {
    "split": "split by {name}",
    "cv": "cross-validated by {name}",
    "folds": "split into folds by {name}.split",
    "slice": "split by position ({name})",
    "mask": "split by a condition ({name})",
}


def split_phrase(split: SplitEvent, ctx: Context) -> str:
    name = split.qualname if split.kind in POSITIONAL else split.qualname.rsplit(".", 1)[-1]
    if name == "cv":  # xgboost.cv / lightgbm.cv
        name = split.qualname.split(".", 1)[0] + ".cv"
    verb = SPLIT_VERBS[split.kind]
    if split.qualname.startswith(OLD_SPLITTER_MODULE):
        verb = verb.replace("{name}.split", "{name}")  # iterated itself (scikit-learn before 0.18)
    return verb.format(name=name) + f" at {ctx.where(split.span)}"


def split_clause(event: LearnEvent, split: SplitEvent, ctx: Context) -> str:
    """When the rows were split, seen from where ``event`` learned: "before the rows are
    split by ...", or, for a fit the module's code runs after a split its code made, on
    rows that split divided (the table the parts came from), "after the rows were split
    by ..." (inside helpers, lines do not tell the order)."""
    at, cut = event.span, split.span
    if event.site is None and split.top_level and at.path is None and cut.path is None \
            and (at.line, at.column) > (cut.end_line, cut.end_column):
        return f"after the rows were {split_phrase(split, ctx)}"
    return f"before the rows are {split_phrase(split, ctx)}"


UNKNOWN_CLASS = (
    "; its class is not shown in this file (a parameter or the result of an unknown call), "
    "so this rests on weaker evidence: ignore it if that object learns nothing from the rows"
)


def step_name(event: LearnEvent, catalog: Catalog) -> str:
    """The catalogued class named in a message (a Pipeline names its matching step)."""
    if event.qualname in catalog:
        return short(event.qualname)
    for step in event.steps:
        if step in catalog:
            return f"{short(step)} (in a {short(event.qualname)})"
    return short(event.qualname)


# what a file may build beside the trees without reading the scale
SCALE_FREE_STEPS = frozenset(("OneHotEncoder", "OrdinalEncoder", "LabelEncoder", "LabelBinarizer", *SHIFT_AND_SCALE_CLASSES))
SCALE_FREE_MODULES = ("sklearn.model_selection.", "sklearn.pipeline.", "sklearn.compose.", "sklearn.metrics.")
# models that split each column at thresholds between its values
THRESHOLD_MODELS = re.compile(
    r"\.(DecisionTree|RandomForest|ExtraTrees?|GradientBoosting|HistGradientBoosting|XGB|LGBM|CatBoost)"
    r"(Classifier|Regressor|Ranker)?$")


def only_trees_learn(learn_id: int, facts: Facts, rescaled: bool = False) -> bool:
    """Only tree models learn from what ``learn_id`` (a per-column shift and scale) reached
    (with ``rescaled``: reached only as a shift and scale of the columns, a z-score by hand),
    and every other object the file builds leaves the scale alone (an encoder, a splitter, a
    pipeline): a model tried in a loop beside the trees, a clustering or a sampler that
    measures distances would see the scale."""
    users = [t for t in facts.trainings if learn_id in t.features]
    return bool(users) and all(_tree_model(t.model, facts) and (not rescaled or learn_id in t.rescaled)
                               for t in users) and all(
        THRESHOLD_MODELS.search(built) or built.startswith(SCALE_FREE_MODULES)
        or built.rsplit(".", 1)[-1] in SCALE_FREE_STEPS for built in facts.built)


def _tree_model(model, facts: Facts) -> bool:
    """A tree model: its class resolved, or, built with settings the code unpacks
    (``RandomForestClassifier(**params)``), a tree class the file builds under that name."""
    if isinstance(model, CallSpec):
        return bool(THRESHOLD_MODELS.search(model.qualname))
    if isinstance(model, Opaque):
        name = model.source.split("(", 1)[0].rsplit(".", 1)[-1]
        return any(built.rsplit(".", 1)[-1] == name and THRESHOLD_MODELS.search(built) for built in facts.built)
    return False


def feeds_a_model(event: LearnEvent, facts: Facts) -> bool:
    """What ``event`` learned is among the features of a model fitted with labels, or the
    file fits none the analysis can see (then nothing says it is not)."""
    return not facts.trainings or any(event.id in t.features for t in facts.trainings)


def fit_rows(evaluation, facts: Facts) -> set:
    """The rows the evaluated model was fitted on."""
    return {r for i in evaluation.fits if i in facts.learns for r in facts.learns[i].rows}


def learned_with_held_out_by_score(ctx: Context, matches: Callable) -> list:
    """(event, evaluation, how its rows are said) for each learn event that ``matches``,
    computed on rows held out by their score alone (rows loaded from their own file, that
    a model fitted on other rows is scored on, with no split naming them so), or on rows
    that include them (``concat([train, test])``), and reaching that score."""
    found = []
    # learned before a split it reached: the split rules report it, at the same call
    split_before = {fact.learn for fact in ctx.facts.contaminations if fact.via != "resplit"}
    for evaluation in ctx.facts.evaluations:
        if not evaluation.scored or not evaluation.rows or any(r.side is not None and r.side.held_out for r in evaluation.rows):
            continue  # (a held-out side of a split is the split rules' business)
        fitted = fit_rows(evaluation, ctx.facts)
        if not fitted or not disjoint_rows(fitted, evaluation.rows):
            continue
        for learn_id in sorted(evaluation.learned):
            event = ctx.facts.learns[learn_id]
            if not event.rows or not matches(event) or learn_id in split_before:
                continue
            if event.rows <= evaluation.rows:
                found.append((event, evaluation, "the held-out rows"))
            elif evaluation.rows < event.rows and disjoint_rows(event.rows - evaluation.rows, evaluation.rows):
                found.append((event, evaluation, "rows that include the held-out rows"))  # concat([train, test])
    return found


def learned_before_split(
    ctx: Context, matches: Callable, explain: Callable, extra: Optional[Callable] = None, resplit: bool = False,
    copies: Optional[Callable] = None,
) -> list:
    """Hits for learn events that ``matches`` and whose information reached held-out rows.

    ``explain(event, split)`` returns the message and ``extra(event)`` procedure pieces
    for the runtime checker. The finding sits at the learning call; every split or
    cross-validation it contaminated is a related location. With ``resplit``, a step
    learned from the training side that is then cross-validated counts too (supervised
    steps bias that cross-validation score badly; unsupervised ones barely). An event
    that ``copies(event)`` says copies rows (oversampling) counts there even when a test
    side judges the model later, if the code reads that cross-validation's scores: copies
    of the same rows sit on both sides of its folds, so every score read from it is
    inflated.
    """
    by_event: dict = {}
    for fact in ctx.facts.contaminations:
        event = ctx.facts.learns[fact.learn]
        if fact.split in ctx.facts.quiet_validations:
            continue  # Keras's own monitoring rows, whose scores nothing prints or reads: no score is inflated
        # learned after the split from both of its sides: that is fit-on-test (LL301)
        if fact.via != "resplit":
            usable = event.before_split
        else:
            copied = copies is not None and copies(event) and _scores_read(ctx.facts.splits[fact.split])
            usable = resplit and (copied or not _judged_later(event, ctx.facts))
        if usable and matches(event):
            by_event.setdefault(fact.learn, []).append(ctx.facts.splits[fact.split])
    hits = []
    for learn_id, splits in by_event.items():
        event = ctx.facts.learns[learn_id]
        # a split its output reached by data flow explains it better than one whose columns were typed in
        splits = sorted({s.id: s for s in splits}.values(), key=lambda s: (typed_in(event, s), s.span.line, s.span.column))
        first = splits[0]
        related = tuple((s.span, f"{s.data} is {split_phrase(s, ctx)}") for s in splits)
        # the runtime checker's pieces: of the first split that evaluates a model, with the step
        evaluations = [split_procedure(ctx.facts, s) for s in splits]
        procedure = next((p for p in evaluations if p.get("model") is not None), evaluations[0])
        if procedure.get("model") is None:
            procedure = combined(procedure, reached_procedure(ctx.facts, event))
        procedure = combined(procedure, event.procedure)
        if extra is not None:
            procedure = combined(procedure, extra(event), keep_none=True)
        basis = {"split": first.id, "splits": tuple(s.id for s in splits)}
        hits.append(learn_hit(event, explain(event, first), related, procedure, ctx, basis))
    return hits


def typed_in(event: LearnEvent, split: SplitEvent) -> bool:
    """The split's rows hold ``event``'s information only through columns typed in by hand
    after its scores were read (the typed list is among the split's arguments)."""
    typed = event.typed
    return typed is not None and split.span.line <= typed.line <= split.span.end_line


# ------------------------------------------------------- the runtime checker's pieces
# A finding's ``procedure`` holds the pieces of the code's own procedure (specs, see
# analysis/specs.py) and, under "origins", the Span each piece was read from.


def combined(base: dict, extra: dict, keep_none: bool = False) -> dict:
    """``base`` updated with ``extra``'s pieces (its None pieces only with ``keep_none``)."""
    out = dict(base)
    origins = dict(base.get("origins", {}))
    for key, value in extra.items():
        if key == "origins":
            origins.update(value)
        elif value is not None or keep_none:
            out[key] = value
    out["origins"] = origins
    return out


def split_procedure(facts: Facts, split: SplitEvent) -> dict:
    """The split or cross-validation as written, with the model fitted on its training
    side and used on its held-out side, and the metric the code reports on it."""
    procedure = combined({}, split.procedure)
    if split.evaluated and procedure.get("model") is None:
        fit_id, evaluation = split.evaluated[0]
        procedure = combined(procedure, model_pieces(facts.learns[fit_id]))
        procedure = combined(procedure, metric_pieces(evaluation))
    elif procedure.get("model") is None:
        watching = watched_model(facts, split)  # fit(X_train, y_train, validation_data=(X_test, y_test))
        if watching is not None:
            procedure = combined(procedure, model_pieces(watching))
    return procedure


def model_pieces(event: LearnEvent) -> dict:
    """A fitted model as the runtime checker's model piece (its spec and where it was built);
    a native booster's training call is read as the library's estimator class."""
    pieces = {"model": event.model, "origins": {"model": event.built or event.span}}
    if lib_key(event.qualname) in NATIVE_TRAIN:
        pieces["model_via"] = f"{event.qualname.split('.', 1)[0]}.train(params, ...) with literal params"
    network = as_mlp(event.model)
    if network is not None:
        pieces.update(model=network, model_via="a Keras Sequential of dense layers")
        if softmax_classes(event.model):
            pieces["classes"] = softmax_classes(event.model)
    return pieces


def metric_pieces(evaluation) -> dict:
    """The metric function applied to an evaluation's output, or its own score."""
    if evaluation.metric is not None:
        return {"scoring": evaluation.metric, "origins": {"metric": evaluation.metric_span}}
    if evaluation.scored:  # ``model.score(...)`` or predictions compared with the labels
        return {"origins": {"metric": evaluation.span}}
    return {}


def evaluated_procedure(facts: Facts, event: LearnEvent, evaluation, split: Optional[SplitEvent]) -> dict:
    """A given model (``event``) scored in a given evaluation, under ``split`` if any."""
    procedure = {}
    if split is not None:
        procedure = {k: v for k, v in split.procedure.items() if k in ("split", "cv")}
        procedure["origins"] = {"split": split.procedure.get("origins", {}).get("split", split.span)}
    procedure = combined(procedure, model_pieces(event))
    return combined(procedure, metric_pieces(evaluation))


def reached_procedure(facts: Facts, event: LearnEvent) -> dict:
    """The model that predicts rows carrying what ``event`` learned, and its metric, when no
    split shows it (the sides were put back together by hand: ``np.split``, a slice)."""
    evaluations = [ev for ev in facts.evaluations if event.id in ev.learned and _models(facts, ev)]
    if not evaluations:
        return {}
    evaluation = min(evaluations, key=lambda ev: (ev.in_loop, not ev.scored, ev.metric is None, ev.id))
    procedure = combined({}, model_pieces(_models(facts, evaluation)[0]))
    return combined(procedure, metric_pieces(evaluation))


def _models(facts: Facts, evaluation) -> list:
    return [
        facts.learns[i] for i in sorted(evaluation.fits)
        if i in facts.learns and facts.learns[i].kind == "fit" and facts.learns[i].has_labels
    ]


def held_out_procedure(facts: Facts, split: Optional[SplitEvent], evaluation=None, event=None) -> dict:
    """The evaluation a step refitted on held-out rows spoils: the split's, or (rows held out
    without a split) the model scored in ``evaluation``, or that predicts what ``event`` made."""
    if split is not None:
        procedure = split_procedure(facts, split)
        if procedure.get("model") is None and event is not None:
            procedure = combined(procedure, reached_procedure(facts, event))
        return procedure
    if evaluation is None:
        return reached_procedure(facts, event) if event is not None else {}
    fits = [facts.learns[i] for i in sorted(evaluation.fits) if i in facts.learns and facts.learns[i].kind == "fit"]
    procedure = combined({}, model_pieces(fits[0])) if fits else {}
    return combined(procedure, metric_pieces(evaluation))


def learn_hit(event: LearnEvent, message: str, related: tuple, procedure: dict, ctx: Context, basis=None) -> Hit:
    """A finding at the learning call, or at the call that handed a helper the rows (the
    helper's own line then comes first among the related locations)."""
    if event.site is not None:
        inside = f"{short(event.qualname)} learns here, inside the helper called at {ctx.where(event.site)}"
        related = ((event.span, inside),) + tuple(related)
    return Hit(event.reported, message, related, procedure, {"learn": event.id, **(basis or {})})


def _scores_read(split: SplitEvent) -> bool:
    """A cross-validation whose fold scores are the code's to read: a function returning
    them, a search whose ``best_score_`` / ``cv_results_`` is read, a fold loop scoring
    each fold."""
    return split.kind in ("cv", "folds") and split.use == "evaluation"


def _judged_later(event: LearnEvent, facts: Facts) -> bool:
    """The training side the step learned from has a held-out side that a model is
    scored on: the inner cross-validation only tuned, the reported score is honest."""
    outer = {r.side.split for r in event.rows if r.side is not None}
    return any(
        r.side is not None and r.side.held_out and _cut_from_held_out(r.side, outer, facts)
        # (held-out rows only predicted, their labels never read, judge nothing)
        and (evaluation.scored or facts.splits[r.side.split].use == "evaluation")
        for evaluation in facts.evaluations
        for r in evaluation.rows
    )


def _cut_from_held_out(side: Side, outer: set, facts: Facts) -> bool:
    """``side`` is a held-out side of an ``outer`` split, or a held-out part of one split
    again (X_val, X_test = train_test_split(X_temp, ...)): rows the outer training side never held."""
    if side.split in outer:
        return True
    return any(
        r.side is not None and r.side.held_out and r.side.split < side.split
        and _cut_from_held_out(r.side, outer, facts)
        for r in facts.splits[side.split].rows
    )


def overlaps(event: LearnEvent, split: SplitEvent) -> bool:
    return saw_held_out(event.rows, split)
