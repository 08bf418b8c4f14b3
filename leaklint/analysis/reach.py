"""Which learned information reaches a model, and which splits evaluate one.

A leak needs both ends: something learned from rows that are (or become) held out,
and a path from it into what a model is fitted on or scored on. A statistic that only
reaches a metric, a log line, a chart or a split setting is a measurement. This pass
runs once the whole file has been interpreted: it gives each split's sides the roles
the code shows (the side a model is fitted on trains), marks each split by its use, and
keeps only the contaminations whose learned information reached a model that the
split's rows were fitted or scored on.
"""
from __future__ import annotations

from typing import Optional

from .facts import Facts, LearnEvent, Sink, holds_held_out, saw_held_out
from .values import Rows, Side

# Learned by hand from a split's sides with no model in sight: an out-of-fold encoding
# loop, a statistic checked on each part. Estimator fits without labels (a scaler fitted
# on the training side) suggest a model elsewhere, so they leave the split's use unknown.
ENCODING_KINDS = frozenset(("stat", "group-stat"))
POSITIONAL = frozenset(("slice", "mask"))  # splits the code cuts itself: a split only when scored there


def settle(facts: Facts, complete: bool = True, alone: bool = False, modelless: bool = False) -> None:
    """``complete``: every line of the file was analysed (none neutralised, no cell
    skipped), so code that reads no part of a split shows that nothing is scored on it.
    ``alone``: a notebook, or a script with a ``__main__`` guard: it is run, and no other
    file takes the data its code makes (it may import its functions, which are followed
    there), so a split no model uses in it evaluates nothing (an unguarded script's split
    may feed a model in the module that imports it). ``modelless``: the file fits and scores
    no model and writes no data out: a split at its top level whose parts it reads itself,
    learning nothing from them, evaluates nothing either."""
    _whole_subsamples(facts)
    _swap_named_roles(facts)
    touched = {}  # split id -> learned ids that reached a model through its rows
    for sink in facts.sinks:
        for split_id in {r.side.split for r in sink.rows if r.side is not None}:
            touched[split_id] = touched.get(split_id, frozenset()) | sink.learned
    kinds = {}  # split id -> kinds of what was learned from its sides
    encoding = {}  # split id -> kinds of what was learned from its training sides
    for event in facts.learns.values():
        for side in {r.side for r in event.rows if r.side is not None}:
            kinds.setdefault(side.split, set()).add(event.kind)
            if not side.held_out:
                encoding.setdefault(side.split, set()).add(event.kind)
    trained = {r.side.split for sink in facts.sinks for r in sink.rows if r.side is not None and not r.side.held_out}
    for split in facts.splits.values():
        split.reached = touched.get(split.id, frozenset())
        if split.kind == "folds" and split.id not in trained and encoding.get(split.id, {"fit"}) <= ENCODING_KINDS:
            # an out-of-fold encoding: statistics learn from the training folds and only the
            # encoded held-out folds, put together, reach a model (fitted on all of them)
            split.use = "other"
        elif split.kind == "cv" or split.id in touched:
            split.use = "evaluation"
        elif split.kind in POSITIONAL or (split.id in kinds and kinds[split.id] <= ENCODING_KINDS):
            # two slices at one bound (box[:2] / box[2:], plot colours) are a split only
            # when a model is fitted or scored on them
            split.use = "other"
        if (alone and complete and split.use == "unknown" and split.kind in ("split", "folds")
                and not _metric_reads_held_out(facts, split.id)):
            split.use = "other"  # a preprocessing notebook or script: split, but no model or metric in it
        if (modelless and complete and split.use == "unknown" and split.top_level and split.kind in ("split", "folds")
                and {Side("train", split.id), Side("test", split.id)} & facts.read_sides and split.id not in kinds
                and not _metric_reads_held_out(facts, split.id)):
            # a script that models nothing and reads the parts itself (a chart of their sizes),
            # learning nothing from them: not left for another module to import (those are read
            # nowhere here), nor prepared for a model (a scaler fitted on the training part)
            split.use = "other"
        if split.search is not None and split.search not in facts.search_scores:
            split.use = "other"  # a search's folds only chose settings: no score of them is read
        if split.id in facts.out_of_fold and not any(
                ev.scored for ev in facts.evaluations if ev.id == facts.out_of_fold[split.id]):
            split.use = "other"  # out-of-fold predictions no metric reads: stacking features, not a score
        if split.kind in POSITIONAL and not any(_on_the_tail(ev.rows, split, facts) and (ev.scored or split.kind == "slice")
                                                for ev in facts.evaluations):
            # x[:n] / x[n:] with nothing scored on the tail: a second training part; a part
            # taken by a condition only predicted: the competition's test rows of one table
            split.use = "other"
        if split.kind == "mask" and any(e.kind == "fit" and e.has_labels and holds_held_out(e.rows, split.id)
                                        for e in facts.learns.values()):
            split.use = "other"  # a model learns from the part taken for held out: the two are not train and test
        readable = _all_read(facts, split, complete)
        unread = readable and split.handed_out and Side("test", split.id) not in facts.read_sides
        if unread and split.use == "evaluation":
            # a model is fitted on the training side and no code reads the held-out side:
            # nothing is evaluated on it (a model predicting new inputs, a final fit)
            split.use = "other"
        elif readable and _labels_unread(facts, split, alone) and split.use == "evaluation":
            # the held-out labels are never read and nothing is scored there: the held-out
            # rows are only predicted (for a submission, a chart), nothing is evaluated
            split.use = "other"
        elif readable and _only_watched(facts, split, alone) and split.use == "evaluation":
            # the held-out rows only chose a boosting round or an epoch (eval_set with early
            # stopping) and nothing predicts or scores them: nothing is evaluated on them
            split.use = "other"
        elif unread and split.use == "unknown" and split.top_level and Side("test", split.id) not in facts.kept_sides:
            # no model, and the held-out side is neither read nor left for another module
            # to import (its names were bound again): nothing can evaluate on it
            split.use = "other"
    for split in facts.splits.values():
        split.evaluated = evaluated_models(facts, split)
    kept = []
    for fact in facts.contaminations:
        split = facts.splits[fact.split]
        if split.use == "other":
            continue
        if split.use == "evaluation" and split.kind != "cv" and fact.learn not in split.reached:
            continue
        kept.append(fact)
    facts.contaminations = kept


def _on_the_tail(rows, split, facts: Facts) -> bool:
    """Some of ``rows`` are the split's held-out side, or a part of it that a later cut
    divides (``X[a:b]`` and ``X[b:]`` after ``X[:a]``: a validation and a test part)."""
    if holds_held_out(rows, split.id):
        return True
    cuts = {r.side.split for r in rows if r.side is not None}
    return any(holds_held_out(facts.splits[cut].rows, split.id) for cut in cuts if cut in facts.splits)


def _all_read(facts: Facts, split, complete: bool) -> bool:
    """Every read of the split's held-out side is seen: its parts carry rows (the reads of
    rows the analysis could not follow are not seen), no ``exec`` of code built as text,
    and the file is complete or no line the analysis skipped names what held that side
    (nor calls the file's own functions, which may)."""
    if facts.runs_strings or not split.rows:
        return False
    if complete:
        return True
    return facts.side_names is not None and not facts.side_names.get(Side("test", split.id), set()) & facts.unread_names


def _labels_unread(facts: Facts, split, alone: bool) -> bool:
    """``train_test_split(X, y)`` whose ``y_test`` no code reads (nor another module can
    import: a notebook or a guarded script, or the name bound again by the end) and on
    whose held-out side no model is scored."""
    held_out = Side("test", split.id)
    return (split.labelled and held_out not in facts.read_label_sides
            and (alone or held_out not in facts.kept_label_sides)
            and not any(ev.scored and holds_held_out(ev.rows, split.id) for ev in facts.evaluations))


def _only_watched(facts: Facts, split, alone: bool) -> bool:
    """The held-out side is read only as the rows a fit stops on: no model predicts or
    scores them, no metric reads them, and no other module can import them."""
    held_out = Side("test", split.id)
    stops = {stop.fit for stop in facts.early_stops if holds_held_out(stop.rows, split.id)}
    return (split.handed_out and bool(stops)
            and (alone or held_out not in facts.kept_sides)
            and not any(holds_held_out(ev.rows, split.id) for ev in facts.evaluations)
            and not _metric_reads_held_out(facts, split.id)
            and not any(holds_held_out(e.rows, split.id) for e in facts.learns.values() if e.id not in stops))


def _metric_reads_held_out(facts: Facts, split_id: int) -> bool:
    """A metric function's arguments hold the split's held-out rows."""
    return any(holds_held_out(rows, split_id) for _, rows, _ in facts.metric_rows)


def _swap_named_roles(facts: Facts) -> None:
    """``X_test, X_train, y_test, y_train = train_test_split(...)``: whatever the names say
    (and the positions), the side a model is fitted on is the training side and the side
    it is scored on is held out."""
    for split in facts.splits.values():
        if split.kind != "split":
            continue
        fitted = {
            r.side.kind for e in facts.learns.values() if e.kind == "fit" and e.has_labels
            for r in e.rows if r.side is not None and r.side.split == split.id
        }
        scored = {r.side.kind for ev in facts.evaluations for r in ev.rows if r.side is not None and r.side.split == split.id}
        if fitted != {"test"} or "train" not in scored:
            continue
        _remap_sides(facts, {
            Side(kind, split.id): Side(other, split.id) for kind, other in (("train", "test"), ("test", "train"))
        })


def _whole_subsamples(facts: Facts) -> None:
    """``df = df.sample(frac=0.05)`` whose rest no code took: the rows drawn stand for the
    whole population, so what is learned from them is learned from all rows of any split
    made of them later."""
    drawn = {Side("train", split.id): None for split in facts.splits.values() if split.subsample}
    if drawn:
        _remap_sides(facts, drawn)
        for split in facts.splits.values():
            split.rows = frozenset(Rows(r.root, drawn.get(r.side, r.side)) for r in split.rows)


def _remap_sides(facts: Facts, sides: dict) -> None:
    """Rows of the sides in ``sides`` are rows of the side it maps them to, everywhere."""
    def mapped(rows):
        return frozenset(Rows(r.root, sides.get(r.side, r.side)) for r in rows)

    for event in facts.learns.values():
        event.rows = mapped(event.rows)
    for evaluation in facts.evaluations:
        evaluation.rows = mapped(evaluation.rows)
    facts.read_sides = {sides.get(side, side) for side in facts.read_sides} - {None}
    facts.read_label_sides = {sides.get(side, side) for side in facts.read_label_sides} - {None}
    facts.sinks = [Sink(mapped(sink.rows), sink.learned) for sink in facts.sinks]


def evaluated_models(facts: Facts, split) -> tuple:
    """(fit id, Evaluation) of each model fitted on ``split``'s training side and used on
    its held-out side (predicted, scored, a metric of its predictions): the model the
    split evaluates. The plainest report comes first: outside a loop, scored, the first."""
    if split.kind == "cv":
        return ()  # its model is the cross-validation call's own argument
    found = []
    for evaluation in facts.evaluations:
        if not holds_held_out(evaluation.rows, split.id):
            continue
        for fit_id in sorted(evaluation.fits):
            event = facts.learns.get(fit_id)
            if event is None or event.kind != "fit" or not event.has_labels:
                continue
            trained = any(r.side is not None and r.side.split == split.id and not r.side.held_out for r in event.rows)
            if trained and not saw_held_out(event.rows, split):
                found.append((fit_id, evaluation))
    found.sort(key=lambda pair: (pair[1].in_loop, not pair[1].scored, pair[1].metric is None, pair[1].id))
    return tuple(found)


def watched_model(facts: Facts, split) -> Optional[LearnEvent]:
    """The first model fitted on ``split``'s training side that reports its score on the
    held-out side each epoch or round (``validation_data=(X_test, y_test)``)."""
    watching = [e for e in facts.learns.values() if e.kind == "fit" and e.has_labels and e.watched]
    for event in sorted(watching, key=lambda e: e.id):
        trained = any(r.side is not None and r.side.split == split.id and not r.side.held_out for r in event.rows)
        if trained and holds_held_out(event.watched, split.id):
            return event
    return None
