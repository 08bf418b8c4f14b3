"""Recording facts: what was learned from which rows, where rows were split,
cross-validated or scored, and where learned information reached held-out rows.

A mixin of the Interpreter (interpreter.py), which it shares state with.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from typing import Optional

from . import libraries as lib
from .facts import (
    Choice,
    Contamination,
    EarlyStop,
    Evaluation,
    LearnEvent,
    Repeats,
    Sink,
    SplitEvent,
    Training,
    TuningReport,
    saw_held_out,
)
from .specs import CallSpec, Mapping, Opaque, to_spec
from .syntax import (
    along_first,
    keyword_node,
    keyword_true,
    names_validation_metric,
    one_column,
    row_wise,
    span_of,
    string_constants,
    text_of,
    training_side,
    truthy_const,
)
from .values import (
    UNKNOWN,
    Data,
    Estimator,
    Folds,
    Rows,
    Seq,
    Side,
    Value,
    as_data,
    merge_data,
    order_mark,
)


HELD_OUT_WORDS = re.compile(r"\btest|valid|hold.?out|left.?out|unseen|out.of.sample|generali")
TRAINING_WORDS = re.compile(r"train|\bin.?sample|resubstitution|\bno.?cv\b|without.?(cv|cross)")


# the bounds of a column of parsed dates: an origin or an end of the calendar
DATE_BOUNDS = frozenset(("min", "max", "amin", "amax", "nanmin", "nanmax"))


class RecordingMixin:
    def _name_correlated_column(self, matrix: Data, column: str) -> None:
        for learn_id in matrix.learned:
            event = self.facts.learns[learn_id]
            if event.kind == "selection" and event.qualname == "corr" and event.column is None:
                event.column = column

    def _positional_side(self, node, base: Data, pairs=None, split_kind="slice") -> Side:
        """The side of a positional split (``X[:n]`` / ``X[n:]``) this slice selects, or of
        a split by a condition (``df[df.date < cutoff]`` / ``df[df.date >= cutoff]``)."""
        pairs = pairs if pairs is not None else self._slices
        bound, kind = pairs[id(node)]
        return Side(kind, self._cut_at(node, base, pairs, split_kind, bound).id)

    def _cut_at(self, node, base: Data, pairs, split_kind: str, bound: str):
        """The split a positional bound makes; a bound that cuts the held-out rest of an
        earlier bound (``X[a:b]`` / ``X[b:]`` after ``X[:a]``) splits that rest."""
        parent = getattr(pairs, "parents", {}).get(bound)
        if parent is not None:
            rest = Side("test", self._cut_at(node, base, pairs, split_kind, parent).id)
            base = replace(base, rows=frozenset(Rows(r.root, rest) for r in base.rows))
        split = self._slice_splits.get((split_kind, bound))
        if split is None:
            name = f"[:{bound}] / [{bound}:]" if split_kind == "slice" else bound
            # the rows were put in random order first (df.sample(frac=1)): a shuffled split
            frame = node.value.value if isinstance(node.value, ast.Attribute) and node.value.attr in ("iloc", "loc") else node.value
            split = self._new_split(split_kind, name, node, base, frame, base.shuffled is not None, base.shuffled, {})
            self._slice_splits[(split_kind, bound)] = split
        elif not base.rows <= split.rows:
            split.rows = split.rows | base.rows
        self._split_inputs(split, [base])
        return split

    def _choice(self, values, node, keyed=False) -> None:
        """Scores (not per-row predictions) ordered to pick a winner; ``keyed``:
        ``sorted(pairs, key=lambda p: p[1])`` orders (candidate, score) pairs, whatever
        else the pairs hold."""
        merged = merge_data(values)
        if merged.scores and (keyed or not merged.rows):
            self.facts.choices.append(Choice(span_of(node), merged.scores))

    # ------------------------------------------------------ learned things
    def _learn(self, kind, qualname, node, data: Data, data_node, **extra) -> LearnEvent:
        site, handed = self._site_of(data.rows)
        event = LearnEvent(
            id=self.new_id(),
            kind=kind,
            qualname=qualname,
            span=span_of(node),
            rows=data.rows,
            data=handed or text_of(data_node),
            site=site,
            time=data.time,
            subset=data.subset,
            **extra,
        )
        self.facts.learns[event.id] = event
        if kind == "fit":
            self.facts.trained_at.append(event.id)
        return event

    def _site_of(self, rows) -> tuple:
        """Inside a helper handed rows, the finding is at the outermost call (in the
        analysed file) that handed it the rows learned from, named by that argument; for
        a call into another module that hands no rows, at that call. Rows no argument
        carried keep the name the helper gives them (an argument holding other rows, or
        a path, does not name them)."""
        for span, handed in self._sites:
            if span.path is None:
                text = next((t for t, r in handed if r and r == rows), None) or next((t for t, r in handed if r & rows), None)
                if text is not None:
                    return span, text
        for span, handed in reversed(self._sites):
            if handed and span.path is None:
                return span, None
        return None, None

    def _statistic(self, name, value, node, axis_position=None, data_node=None) -> Data:
        data = as_data(value)
        if not data.rows or data.grouped is not None or data.element or row_wise(node, axis_position):
            return replace(data, column=None, indexer=False)
        if data_node is None:
            data_node = node.args[0] if node.args else getattr(node.func, "value", None)
        if name in DATE_BOUNDS and ((data.column is not None and data.column in {c for c, _ in data.dated})
                                    or _calendar_field(data_node)):
            # df.day - df.day.min(): the earliest (or latest) date is an origin for elapsed
            # time, one constant shift of every row; it learns nothing a model can use (nor
            # does the latest year, df.day.dt.year.max() - df.birth_year: an age)
            return Data()
        if (data.stacked or data.listed or (value.__class__ is Seq and value.items)) and along_first(node, axis_position):
            # np.mean([p1, p2], axis=0), np.stack(preds).std(axis=0): across the arrays, per row
            return replace(data, column=None, indexer=False, stacked=False)
        event = self._learn("stat", name, node, data, data_node, column=data.column)
        return Data(learned=data.learned | {event.id}, scores=data.scores)  # np.mean(errors): still that model's score

    def _made_by(self, labels: Data) -> list:
        """The Evaluations (predictions or scores) that ``labels`` came out of."""
        return [e for e in self.facts.evaluations if e.id in labels.scores]

    def _predicted(self, labels: Data) -> bool:
        """Labels that are only a model's predictions (``y_blackbox = model.predict(X_test)``),
        not a column of the data nor true labels with predicted ones added (pseudo-labels)."""
        made = self._made_by(labels)
        predicted = frozenset(r for e in made for r in e.rows)
        return bool(made) and labels.column is None and labels.rows <= predicted

    def _learning_function(self, qualname, kind, node, args, kwargs) -> Value:
        data = as_data(args[0]) if args else UNKNOWN
        if kind == "resample" and keyword_node(node, "replace") is not None and not keyword_true(node, "replace"):
            return self.derive(args, node)  # drawn without replacement (sklearn's default is with)
        if lib.lib_key(qualname)[1] == "normalize" and truthy_const(keyword_node(node, "axis")) is not False:
            return self.derive(args, node)  # each row by its own norm
        if not data.rows or (lib.lib_key(qualname)[1] == "corrcoef" and len(args) != 2):
            return self.derive(args, node)  # np.corrcoef(X.T): the features among themselves
        labels = as_data(args[1]).column if len(args) > 1 else None
        name = lib.lib_key(qualname)[1]
        has_labels = len(args) > 1
        if name in lib.CORRELATIONS and _columns_of_one_table(node):
            # two columns of one table, either of which may be the label: it is one when a
            # model later learns that column as its labels (the rule checks it), not otherwise
            labels, has_labels = labels or as_data(args[0]).column, False
        procedure = {}
        if name in lib.FUNCTION_FORMS:  # for the runtime checker: the estimator it stands for
            settings = tuple(
                (kw.arg, _setting(kw.value, kwargs.get(kw.arg)))
                for kw in node.keywords if kw.arg and kw.arg not in lib.FUNCTION_ONLY_KEYWORDS
            )
            step = CallSpec(f"sklearn.preprocessing.{lib.FUNCTION_FORMS[name]}", (), settings)
            procedure = {"step": step, "by_hand": f"the function {name}", "fit_method": "fit_transform",
                         "origins": {"step": span_of(node)}}
        event = self._learn(
            kind, qualname, node, data, node.args[0] if node.args else None,
            method=name, has_labels=has_labels, column=labels, procedure=procedure,
        )
        if lib.lib_key(qualname) in lib.SELECTING_FUNCTIONS:
            return replace(data, learned=merge_data(args).learned | {event.id})  # select_features(X, y): X's chosen columns
        if kind == "selection":
            # per-feature scores: they choose columns, they are not rows; a person reads them
            self._inspected.append(event.id)
            return Data(learned=merge_data(args).learned | {event.id})
        out = [replace(as_data(a), learned=as_data(a).learned | {event.id}) for a in args]
        return out[0] if len(out) == 1 else Seq(tuple(out))

    def fit(self, est: Estimator, method, args, kwargs, node, x_node=None) -> tuple:
        # (Keras names the inputs ``x``: model.fit(x=train_ds, validation_data=val_ds); TabNet
        # ``X_train``, ``y_train``)
        x_key = next((k for k in ("X", "x", "X_train") if k in kwargs), "X")
        x_val = args[0] if args else kwargs.get(x_key, kwargs.get("raw_documents", UNKNOWN))
        y_val = args[1] if len(args) > 1 else kwargs.get("y", kwargs.get("y_train"))
        if x_node is None:
            x_node = node.args[0] if node.args else keyword_node(node, x_key)
        data = as_data(x_val)
        if not data.rows and method in lib.OUTPUT_FIT_METHODS:
            # rows nothing named before (lines of a file read by hand): the rows returned are the
            # rows learned from, so a later split of the output finds this step
            data = replace(data, rows=self.fresh_rows())
        built = span_of(est.node) if isinstance(est.node, ast.Call) else span_of(node)
        procedure = {"step": est.spec, "fit_method": method, "origins": {"step": built}}
        if est.grid_size:
            procedure["candidates"] = est.grid_size
        event = self._learn(
            "fit",
            est.qualname,
            node,
            data,
            x_node,
            method=method,
            steps=est.steps,
            has_labels=y_val is not None,
            mimics=y_val is not None and self._predicted(as_data(y_val)),
            feature=data.column or one_column(x_node, self._single_bindings()),
            procedure=procedure,
            unknown=est.unknown,
            tuned=est.tuned,
            model=est.predictor if est.predictor is not None or est.steps else est.spec,
            built=est.predictor_span or built,
            complete=data.complete,
        )
        if y_val is not None:
            self._note_labels(y_val)
            if method not in lib.RESAMPLE_METHODS:
                self._sink([data, y_val])
                self._training(node, data, y_val, est)
        watched = next((kwargs[k] for k in lib.EVAL_KEYWORDS if k in kwargs), None)
        if watched is not None:
            event.watched = as_data(watched).rows
        how = self._keeps_best(est, kwargs, node) if watched is not None else None
        if how and (not self._standalone or self._split_here(watched)):
            # (a function nothing calls stops nothing, unless it split the watched rows itself
            # and so holds the whole procedure)
            stop = EarlyStop(event.id, as_data(watched).rows, how, trial=bool(self._objective))
            if "ModelCheckpoint" in how:
                self._checkpointed.append(stop)  # the model in memory is the last epoch until the best is reloaded
            else:
                self.facts.early_stops.append(stop)
        self._check_applied(data.learned, data.rows)
        if "validation_split" in kwargs and data.rows and truthy_const(keyword_node(node, "validation_split")) is not False \
                and not (self._standalone and {r.root for r in data.rows} <= self._parameter_roots):
            # Keras holds out the last fraction of the rows it is given for validation (none at
            # 0); not of the parameters of a function nothing calls, the rows a caller would
            # give it (its training rows)
            split = self._new_split("split", "validation_split", node, data, x_node, False, None, {})
            if truthy_const(keyword_node(node, "verbose")) is False and not names_validation_metric(self._tree):
                self.facts.quiet_validations.add(split.id)
            self._split_inputs(split, [x_val, y_val])
        return event, data, as_data(y_val) if y_val is not None else None

    def _sink(self, values) -> None:
        """A model is fitted or scored on these values, or they are cross-validated."""
        data = merge_data(values)
        self.facts.sinks.append(Sink(data.rows, data.learned))

    def _mark_scored(self, scores) -> None:
        """Predictions compared with labels (a metric, ``pred == y``): the model was scored."""
        if not scores:
            return
        for evaluation in self.facts.evaluations:
            if evaluation.id in scores:
                evaluation.scored = True

    def _note_score_label(self, values) -> None:
        """What a printed or logged score is called: ``print("training accuracy:", s)`` is
        honest about it, ``print("test accuracy:", s)`` claims rows the model never saw."""
        labels = " ".join(t.lower() for v in values if isinstance(v, Data) for t in v.texts if isinstance(t, str))
        label = "train" if TRAINING_WORDS.search(labels) else ("held-out" if HELD_OUT_WORDS.search(labels) else None)
        if label is None:
            return
        shown = merge_data(values).scores
        for evaluation in self.facts.evaluations:
            if evaluation.id in shown:
                evaluation.label = label

    def _note_labels(self, y_val) -> None:
        column = as_data(y_val).column
        if column:
            self.facts.label_columns.add(column)
        self.facts.label_learned |= as_data(y_val).learned

    def _training(self, node, x_val, y_val, est=None) -> None:
        """A model fitted (or cross-validated) with labels: what its features carry."""
        x = as_data(x_val)
        model = est.predictor if isinstance(est, Estimator) else None
        self.facts.stacked |= x.scores  # predictions that are features of this model (stacking)
        self.facts.trainings.append(Training(span_of(node), x.learned, order_mark(x), x.rows, x.unsure,
                                             as_data(y_val).column, model, x.rescaled & x.learned))

    def _keeps_best(self, est: Estimator, kwargs, node) -> Optional[str]:
        """How a fit watching rows keeps what scored best on them: early stopping, a best
        checkpoint, CatBoost's best model; None when it only monitors them."""
        built = est.node if isinstance(est.node, ast.Call) else None
        rounds = keyword_node(node, "early_stopping_rounds") or keyword_node(built, "early_stopping_rounds")
        if rounds is not None and truthy_const(rounds) is not False:
            return "early stopping"
        # its literal settings, Model(**params) included; a setting the code computes
        # (``"early_stopping_rounds": args.rounds``) counts as a keyword written so does
        written = est.spec.kwargs if isinstance(est.spec, CallSpec) else ()
        unpacked = getattr(kwargs.get("**"), "literal", None)  # fit(..., **fit_params) of a literal dict
        if unpacked is not None and isinstance(unpacked[0], Mapping):
            written = tuple(written) + unpacked[0].items
        settings = {k: v for k, v in written if not isinstance(v, Opaque)}
        if any(k in ("early_stopping_rounds", "early_stopping_round") and (isinstance(v, Opaque) or v) for k, v in written):
            return "early stopping"
        if lib.lib_key(est.qualname)[0] == "catboost" and (
            any(keyword_node(built, k) is not None for k in ("od_type", "od_wait")) or "od_type" in settings or "od_wait" in settings
        ):
            return "early stopping (CatBoost's overfitting detector)"
        patience = keyword_node(node, "patience")
        if lib.lib_key(est.qualname)[0] == "pytorch_tabnet" and truthy_const(patience) is not False:
            epochs = ("10 epochs by default" if patience is None else f"{patience.value} epochs"
                      if isinstance(patience, ast.Constant) else ast.unparse(patience))
            return f"early stopping (TabNet's patience, {epochs}, then its best weights)"
        callbacks = kwargs.get("callbacks")
        kept = []  # (a best checkpoint saved to a file counts only when no callback keeps the best in memory)
        for callback in callbacks.items if isinstance(callbacks, Seq) else (callbacks,):
            if not isinstance(callback, Estimator):
                continue
            key = lib.lib_key(callback.qualname)
            if key in lib.EARLY_STOPPING_CALLBACKS:
                return "early stopping"
            needed = lib.BEST_KEEPING_CALLBACKS.get(key)
            call = callback.node if isinstance(callback.node, ast.Call) else None
            if needed and truthy_const(keyword_node(call, needed)) is True:
                kept.append(f"{key[1]}({needed}=True)")
        if kept:
            return min(kept, key=lambda how: "ModelCheckpoint" in how)
        if lib.lib_key(est.qualname)[0] == "catboost":
            keep = keyword_node(node, "use_best_model") or keyword_node(built, "use_best_model")
            unpacked = settings.get("use_best_model")
            if (keep is None and unpacked is not False) or (keep is not None and truthy_const(keep) is not False):
                return "CatBoost's best model (use_best_model)"
        return None

    # ------------------------------------------------------- derived data
    def derive(self, inputs, node) -> Data:
        data = merge_data(inputs)
        self._check_applied(data.learned, data.rows)
        return data

    def _check_applied(self, learned, rows) -> None:
        """Learned information applied to a side of a split it had already seen."""
        if not learned:
            return
        if rows:
            for learn_id in learned:
                self.facts.learns[learn_id].applied = True
        sides = {r.side.split for r in rows if r.side is not None}
        for split_id in sides:
            split = self.facts.splits.get(split_id)
            if split is None:
                continue
            for learn_id in learned:
                if saw_held_out(self.facts.learns[learn_id].rows, split):
                    self._contaminate(learn_id, split_id, "applied")

    def _contaminate(self, learn_id, split_id, via) -> None:
        if self.facts.learns[learn_id].kind in ("ahead", "own"):
            return  # a look-ahead feature reads later rows (or the row's own); it learns nothing from held-out ones
        fact = Contamination(learn_id, split_id, via)
        seen = self.__dict__.setdefault("_contaminated", set())  # the list test was quadratic
        if fact not in seen:
            seen.add(fact)
            self.facts.contaminations.append(fact)

    # ------------------------------------------------------------ splits
    def _new_split(self, kind, qualname, node, data: Data, data_node, shuffled, shuffle_span, procedure, labels=None):
        split = SplitEvent(
            id=self.new_id(),
            kind=kind,
            qualname=qualname,
            span=span_of(node),
            rows=data.rows,
            data=text_of(data_node),
            shuffled=shuffled,
            shuffle_span=shuffle_span,
            time=order_mark(data),  # (parsed dates still in the rows being split show their order too)
            labels=labels,
            procedure=procedure,
            distinct=data.distinct,
            top_level=not self._stack,
        )
        self.facts.splits[split.id] = split
        return split

    def _split_inputs(self, split, values, labels=None) -> None:
        """``labels``: the value given as the labels (y), when one is."""
        wholes = [self.facts.named_parts[r.root][1] for r in split.rows if r.root in self.facts.named_parts]
        for value in [*values, *([labels] if labels is not None else [])]:
            data = as_data(value)
            learned = data.learned
            if value is labels and any(lib.lib_key(self.facts.learns[i].qualname) in lib.CLUSTERERS for i in learned):
                # labels made by a clustering (and what it clustered): they define the task, and
                # the same assignment labels both sides; nothing learned reaches the inputs
                continue
            if value is labels:
                learned = self._beyond_the_task(learned)
            for learn_id in learned:
                learned_rows = self._subsampled(self.facts.learns[learn_id].rows)
                # (or learned from all rows of which code the analysis cannot read cut the part split here)
                if saw_held_out(learned_rows, split) or any(
                        r.side is None and r.root in whole for whole in wholes for r in learned_rows):
                    self._contaminate(learn_id, split.id, "output")
                elif data.rows and learned_rows and data.rows <= learned_rows and training_side(learned_rows):
                    # learned from the training side, which is now split again (a CV of X_train)
                    self._contaminate(learn_id, split.id, "resplit")

    def _beyond_the_task(self, learned: frozenset) -> frozenset:
        """What the labels learned, less the statistics that made them (price classes cut at
        quantiles of all rows): those define the task, as a threshold does, and reach no input."""
        return frozenset(i for i in learned if self.facts.learns[i].kind != "stat")

    def _subsampled(self, rows: frozenset) -> frozenset:
        """``df = df.sample(frac=0.05)`` with the rest never taken: the rows drawn are the
        population's rows, not a training side, for a split made of them later."""
        def whole(row):
            split = self.facts.splits.get(row.side.split) if row.side is not None else None
            return split is not None and split.subsample
        return frozenset(Rows(r.root, None) if whole(r) else r for r in rows)

    def _train_test_split(self, qualname, node, args, kwargs) -> Value:
        nodes = [n for n in node.args if not isinstance(n, ast.Starred)]
        arrays = [a for a, n in zip(args, node.args) if not isinstance(n, ast.Starred)]
        # train_test_split(range(len(df))): positions of df's rows, split as its rows are
        arrays = [Data(rows=as_data(a).positions) if as_data(a).positions and not as_data(a).rows else a for a in arrays]
        data = merge_data(arrays)
        shuffled = self._shuffle_flag(node, position=10**6, default=True)
        labels = as_data(arrays[1]).column if len(arrays) > 1 else None
        if len(arrays) > 1:
            self._note_labels(arrays[1])
        # the split's settings (test_size, shuffle, ...), not the data it split; a name
        # bound to a literal (test_size=TEST_SIZE) is that literal
        # (stratify= names the labels: kept as Opaque, only whether it is given is read)
        settings = tuple(
            (kw.arg, _setting(kw.value, kwargs.get(kw.arg)) if kw.arg != "stratify" else to_spec(kw.value, lambda e: None))
            for kw in node.keywords if kw.arg
        )
        procedure = {"split": CallSpec(qualname, (), settings), "origins": {"split": span_of(node)}}
        split = self._new_split(
            "split", qualname, node, data, node.args[0] if node.args else None, shuffled, span_of(node), procedure, labels
        )
        # an array split only to stratify a second split of its parts (price deciles, given as
        # ``stratify=`` too) is a label of the split, not a feature
        strata = keyword_node(node, "stratify")
        strata = ast.unparse(strata) if strata is not None else None
        inputs = [a for position, a in enumerate(arrays) if position != 1
                  and not (position < len(nodes) and ast.unparse(nodes[position]) == strata)]
        self._split_inputs(split, inputs, arrays[1] if len(arrays) > 1 else None)
        split.handed_out = True
        split.labelled = len(arrays) == 2
        outs = []
        for position, array in enumerate(arrays):
            part = as_data(array)
            for side in ("train", "test"):
                outs.append(
                    Data(
                        rows=frozenset(Rows(r.root, Side(side, split.id)) for r in part.rows),
                        learned=self._beyond_the_task(part.learned) if position == 1 else part.learned,
                        time=part.time,
                        column=part.column,
                        by_column=part.by_column,
                        dated=part.dated,
                        split_labels=split.labelled and position == 1,
                        cleared=part.cleared,
                        rescaled=part.rescaled,
                    )
                )
        return Seq(tuple(outs))

    def _dataset_split(self, qualname, node, data: Data, lengths) -> Seq:
        """``random_split(ds, [0.8, 0.2])``: a shuffled split; the first part trains."""
        split = self._new_split("split", qualname, node, data, node.args[0], True, span_of(node), {})
        self._split_inputs(split, [data])
        split.handed_out = True
        parts = len(lengths.elts) if isinstance(lengths, (ast.List, ast.Tuple)) else 2
        return Seq(
            tuple(
                replace(data, rows=frozenset(Rows(r.root, Side("train" if i == 0 else "test", split.id)) for r in data.rows))
                for i in range(parts)
            )
        )

    def _cv_setting(self, cv_value, cv_node):
        if isinstance(cv_value, Estimator) and cv_value.shuffled is not None:
            return cv_value.shuffled, span_of(cv_value.node), cv_value.spec
        if cv_node is not None and isinstance(cv_node, ast.Constant):
            return False, None, cv_node.value
        literal = getattr(cv_value, "literal", None)  # cv=N_FOLDS
        if literal is not None and isinstance(literal[0], int) and not isinstance(literal[0], bool):
            return False, None, literal[0]
        return False, None, None

    def _cross_validation(self, qualname, node, args, kwargs, scope) -> Value:
        est_at, x_at, y_at = lib.CV_FUNCTIONS[lib.lib_key(qualname)]
        x_name = "X" if est_at is not None else ("dtrain" if lib.lib_key(qualname)[0] == "xgboost" else "train_set")
        est = args[est_at] if est_at is not None and len(args) > est_at else kwargs.get("estimator")
        x_val = args[x_at] if len(args) > x_at else kwargs.get(x_name)
        y_val = args[y_at] if y_at is not None and len(args) > y_at else kwargs.get("y")
        x_node = node.args[x_at] if len(node.args) > x_at else keyword_node(node, x_name)
        cv_node = keyword_node(node, "cv")
        shuffled, shuffle_span, cv_spec = self._cv_setting(kwargs.get("cv"), cv_node)
        scoring = keyword_node(node, "scoring")
        procedure = {
            "model": est.predictor if isinstance(est, Estimator) else None,
            "cv": cv_spec,
            "scoring": to_spec(scoring, self._resolve(scope), self._bound(scope)) if scoring is not None else None,
            "origins": _cv_origins(est, node, scoring),
        }
        labels = as_data(y_val).column if y_val is not None else None
        if labels:
            self.facts.label_columns.add(labels)
        data = merge_data([x_val, y_val])
        self._sink([data])
        if y_val is not None:
            self._note_labels(y_val)
            self._training(node, x_val, y_val, est)
        if isinstance(est, Estimator) and lib.lib_key(est.qualname) in lib.SEARCH_CLASSES and est.node is not None:
            self.facts.nested[span_of(est.node)] = (est.predictor, data.rows)  # a search cross-validated whole: nested CV
        split = self._new_split("cv", qualname, node, data, x_node, shuffled, shuffle_span, procedure, labels)
        self._split_inputs(split, [x_val], y_val)
        if lib.lib_key(qualname)[1] == "cross_val_predict":
            # out-of-fold predictions: an evaluation once set against the labels (a metric),
            # stacking features or a submission while nothing scores them
            evaluation = Evaluation(self.new_id(), span_of(node), frozenset(), as_data(x_val).rows, text_of(x_node),
                                    in_loop=self._loops > 0, learned=as_data(x_val).learned)
            self.facts.evaluations.append(evaluation)
            self.facts.out_of_fold[split.id] = evaluation.id
            return Data(learned=as_data(x_val).learned, scores=frozenset({evaluation.id}))
        return Data(learned=as_data(x_val).learned)

    def _search(self, est: Estimator, data: Data, y_data, node, scope, fit_id: int) -> None:
        shuffled, shuffle_span, cv_spec = self._cv_setting(est.cv, keyword_node(est.node, "cv"))
        inner = est.inner
        built = est.node if isinstance(est.node, ast.Call) else node
        procedure = {
            "model": inner.predictor if isinstance(inner, Estimator) else None,
            "cv": cv_spec,
            "scoring": est.spec.kwarg("scoring") if est.spec is not None and hasattr(est.spec, "kwarg") else None,
            "origins": _cv_origins(inner, built, keyword_node(built, "scoring")),
        }
        labels = y_data.column if y_data is not None else None
        whole = merge_data([data, y_data])
        x_node = node.args[0] if node.args else None
        split = self._new_split("cv", est.qualname, node, whole, x_node, shuffled, shuffle_span, procedure, labels)
        self._split_inputs(split, [data], y_data)
        if est.qualname.rsplit(".", 1)[-1] != "RFECV":  # RFECV's folds choose the features it keeps
            split.search = fit_id

    def _folds(self, splitter: Estimator, args, kwargs, node) -> Folds:
        x_val = args[0] if args else kwargs.get("X", UNKNOWN)
        data = merge_data(args[:2])
        split = self._new_split(
            "folds",
            splitter.qualname,
            node,
            data,
            node.args[0] if node.args else None,
            splitter.shuffled,
            span_of(splitter.node) if splitter.node is not None else None,
            {"cv": splitter.spec, "origins": {"split": span_of(splitter.node if splitter.node is not None else node)}},
        )
        self._split_inputs(split, [x_val], args[1] if len(args) > 1 else None)
        if len(args) > 1:
            self._note_labels(args[1])
        return Folds(split.id)

    # -------------------------------------------------- look-ahead, entities, reports
    def _look_ahead(self, data: Data, reason, node, column=None, data_node=None, lead=0) -> int:
        """A value computed from rows after each row (``shift(-1)``, a centred window, a
        backward fill): returns the id of the "ahead" event it carries."""
        one = data.column is not None or (data.grouped is not None and data.grouped[0] is not None)
        event = self._learn(
            "ahead", reason, node, data, data_node or getattr(node.func, "value", None), column=column,
            method="series" if one else "frame", lead=lead,
        )
        return event.id

    def _entity_repeats(self, rows, column, node, reason) -> None:
        """The code shows that ``column`` (an entity) has several rows in these datasets."""
        for root in {r.root for r in rows}:
            self.facts.repeats.setdefault(root, Repeats(column, span_of(node), reason))

    def _reload_checkpoints(self, node, fits=None) -> frozenset:
        """``model.load_weights(path)``: the best epoch a ModelCheckpoint of that model's fits
        kept is now the model, from here on. ``load_model(path)`` (``fits`` None): the file of
        the latest fit whose checkpoint no earlier load took (the path is rarely a literal)."""
        if fits is not None:
            reloaded = [s for s in self._checkpointed if s.fit in fits]
        else:
            taken = {s.fit for s in self.facts.early_stops if s.since is not None}
            waiting = [s for s in self._checkpointed if s.fit not in taken] or self._checkpointed
            reloaded = waiting[-1:]
        for stop in reloaded:
            stop = replace(stop, since=span_of(node))
            if stop not in self.facts.early_stops:
                self.facts.early_stops.append(stop)
        return frozenset(s.fit for s in reloaded)

    def _split_here(self, value) -> bool:
        """Every row of ``value`` is a side of a split made by the function analysed alone."""
        rows = as_data(value).rows
        return bool(rows) and all(r.side is not None and r.side.split > self._standalone_from for r in rows)

    def _report(self, values, node, how, since: int = 0) -> None:
        """Scores shown or kept as a result: a search's best score among them is reported."""
        if how != "stored":  # (kept in a list or dict, a score is shown only if the container is)
            self.facts.shown_scores |= merge_data(values).scores
        if self._standalone or not self._searches:
            return  # (a function no code here calls reports nothing unless a caller runs it)
        claims = HELD_OUT_WORDS.search(string_constants([node]).lower()) is not None
        for search in merge_data(values).tuning:
            if search in self._searches and search > since:
                self.facts.tuning_reports.append(TuningReport(search, span_of(node), how, self._searches[search], claims))


def _calendar_field(node) -> bool:
    """``dates.dt.year``: a field of a date (the ``.dt`` accessor of a datetime column)."""
    return isinstance(node, ast.Attribute) and node.attr in lib.CALENDAR_FIELDS and isinstance(
        node.value, ast.Attribute) and node.value.attr == "dt"


def _setting(node, value):
    """A split setting as the runtime checker reads it: literal syntax, or the literal a
    name was bound to; anything else is Opaque (never evaluated)."""
    literal = getattr(value, "literal", None)
    if literal is not None and not isinstance(literal[0], Mapping):
        return literal[0]
    return to_spec(node, lambda expr: None)


def _cv_origins(est, node, scoring) -> dict:
    """Where a cross-validation's pieces are written: the call, the model's constructor,
    the scoring argument (or the call, whose default score is the model's own)."""
    origins = {"split": span_of(node), "metric": span_of(scoring if scoring is not None else node)}
    if isinstance(est, Estimator):
        origins["model"] = est.predictor_span or span_of(node)
    return origins


def _columns_of_one_table(node) -> bool:
    """``pearsonr(df[a], df[b])``: both variables are columns of the same table."""
    pair = node.args[:2]
    return len(pair) == 2 and all(isinstance(a, ast.Subscript) for a in pair) and (
        ast.dump(pair[0].value) == ast.dump(pair[1].value))
