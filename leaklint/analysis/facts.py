"""The dataflow facts of one file: what was learned from which rows, where rows were
split, cross-validated or scored, and where learned information reached held-out rows.

Rules are predicates over these facts; they never look at the syntax tree.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .values import TimeMark


@dataclass(frozen=True)
class Span:
    line: int
    column: int  # 0-based, as in ast
    end_line: int
    end_column: int
    path: Optional[str] = None  # another module of the project (absolute); None: the analysed file


@dataclass
class LearnEvent:
    """A statistic learned from rows: an estimator fit, a fitting function, a hand stat.

    ``kind``: "fit" (estimator method), "call" (a library function that learns from
    its input, e.g. sklearn.preprocessing.scale), "stat" (mean/std/... by hand),
    "group-stat" (a groupby aggregate of ``column``), "resample" (hand-rolled
    sampling with replacement).
    """

    id: int
    kind: str
    qualname: str  # estimator class, function, or statistic name
    span: Span
    rows: frozenset  # of Rows the step learned from
    data: str  # source text of the data it learned from
    method: str = ""  # fit / fit_transform / fit_resample ...
    column: Optional[str] = None
    steps: tuple = ()  # qualnames inside a Pipeline
    has_labels: bool = False  # a y was passed to the fit
    applied: bool = False  # a statistic combined with rows (not only printed)
    procedure: dict = field(default_factory=dict)
    unknown: bool = False  # fitted on an object whose class the file does not show
    # The call that handed a helper (a function or method of the file) the rows it
    # learned from: the finding belongs there, the fit inside the helper is related.
    site: Optional[Span] = None
    # Its scores were read and then columns were typed in by hand (at this span) from the
    # same rows: the person reading the scores carried what it learned.
    typed: Optional[Span] = None
    overwrites: bool = False  # its output replaced the rows it learned from (X_test = s.fit_transform(X_test))
    time: Optional[TimeMark] = None  # the rows it learned from were already shown to be time-ordered
    subset: bool = False  # learned from rows chosen by a condition (a date cutoff), not all of them
    tuned: frozenset = frozenset()  # ids of the searches whose chosen settings the fitted model has
    watched: frozenset = frozenset()  # Rows of its evaluation set (validation_data=, eval_set=)
    lead: int = 0  # a look-ahead of this many rows (shift(-2): 2); 0 when unbounded or unknown
    keys: tuple = ()  # the columns a group statistic groups by
    fills: bool = False  # a group statistic that fills gaps (``fillna(groupby(...).transform("median"))``)
    complete: bool = False  # fitted on data with no missing value left (dropped or filled before)
    mimics: bool = False  # its labels are another model's predictions (a surrogate, a student)
    feature: Optional[str] = None  # the one column a model learned from (``df["x"].values.reshape(-1, 1)``)
    # A fit's estimator as a model (its spec, a Pipeline's last step's, a search's
    # estimator's), and where that object was built: the runtime checker's model piece.
    model: object = None
    built: Optional[Span] = None

    @property
    def reported(self) -> Span:
        return self.site or self.span

    @property
    def before_split(self) -> bool:
        return any(r.side is None for r in self.rows)

    @property
    def rows_phrase(self) -> str:
        if self.before_split:
            return "all rows"
        if self.held_out_sides:
            return "training and held-out rows"
        return "all of its rows"

    @property
    def held_out_sides(self) -> list:
        return [r.side for r in self.rows if r.side is not None and r.side.held_out]


@dataclass
class SplitEvent:
    """Rows divided into training and held-out parts.

    ``kind``: "split" (train_test_split), "folds" (splitter.split loop), "cv" (a
    cross-validation function or a search's fit).
    """

    id: int
    kind: str
    qualname: str
    span: Span
    rows: frozenset
    data: str
    shuffled: Optional[bool]
    shuffle_span: Optional[Span]  # where the shuffling splitter was built
    time: Optional[TimeMark]
    labels: Optional[str] = None  # column name of the labels, when known
    procedure: dict = field(default_factory=dict)
    # "evaluation": a model is fitted or scored on its sides (or it is a cross-validation);
    # "other": only statistics by hand use its sides (out-of-fold encodings); "unknown":
    # nothing in the file shows what its sides are for (the model may be elsewhere).
    use: str = "unknown"
    reached: frozenset = frozenset()  # ids of LearnEvents that reached a model through its rows
    distinct: bool = False  # what was split holds one row per value (unique ids), not entities' rows
    handed_out: bool = False  # its parts are values the code holds (train_test_split), not a library's own
    labelled: bool = False  # it split labels given on their own (train_test_split(X, y)): their parts are y_train, y_test
    search: Optional[int] = None  # the fit id of the search whose folds these are
    top_level: bool = False  # made by the module's own code, not inside a function
    complemented: bool = False  # a df.sample(frac=...) whose rest was taken (df.drop(train.index))
    # (fit id, Evaluation) of each model fitted on its training side and used on its
    # held-out side, the one the code most plainly reports first (reach.settle)
    evaluated: tuple = ()

    @property
    def subsample(self) -> bool:
        """A df.sample(frac=...) whose rest no code took: a subsample of the rows, standing
        for all of them, not a division of them."""
        return self.qualname == "sample" and not self.complemented


@dataclass(frozen=True)
class Contamination:
    """Learned information from rows that include the held-out rows of ``split``."""

    learn: int
    split: int
    via: str  # "output" (its output was split), "applied" (applied to a side of the split),
    # "resplit" (learned from a training side that is then split again, e.g. a CV of X_train)


@dataclass
class Evaluation:
    """A model scored on rows: ``fits`` are the model's FitEvent ids."""

    id: int
    span: Span
    fits: frozenset
    rows: frozenset
    data: str
    in_loop: bool = False  # inside a loop: one of several candidates
    learned: frozenset = frozenset()  # ids of the LearnEvents that reached the scored rows
    scored: bool = False  # a score (``.score``, a metric of its predictions), not only predictions
    label: Optional[str] = None  # printed as a "train" score, or as a "held-out" one (test, validation)
    compared_with: frozenset = frozenset()  # Evaluations whose scores were set against this one's
    # The first metric function applied to its output: a CallSpec of its literal settings
    # (``f1_score(average="macro")``), and where it was called.
    metric: object = None
    metric_span: Optional[Span] = None


@dataclass
class Choice:
    """Scores compared to pick a winner: ``max``, ``argmax``, ``sorted``, ``if s > best``."""

    span: Span
    evaluations: frozenset


@dataclass(frozen=True)
class Training:
    """A model fitted with labels (or cross-validated): what reached its features."""

    span: Span
    features: frozenset  # ids of LearnEvents in the features
    time: Optional[TimeMark]  # the features are time-ordered (shown before or after)
    rows: frozenset = frozenset()  # the rows of the features
    unsure: bool = False  # the features were chosen by column names the analysis cannot read
    label: Optional[str] = None  # the column the model predicts, when its labels are one
    model: object = None  # the CallSpec of what predicts (None when the file does not show it)
    rescaled: frozenset = frozenset()  # statistics by hand that reached the features only as a shift or scale


@dataclass(frozen=True)
class Repeats:
    """The code shows that an entity (patient, user, ...) has several rows of a dataset."""

    column: str
    span: Span
    reason: str


@dataclass(frozen=True)
class EarlyStop:
    """A fit whose stopping point or kept checkpoint is chosen on ``rows``."""

    fit: int  # the LearnEvent of the fit
    rows: frozenset  # the rows of the eval set / validation data
    how: str  # "early stopping on eval_set", ...
    # where a checkpoint of the best epoch was loaded back: only scores after it are of that epoch
    since: Optional[Span] = None
    trial: bool = False  # inside a tuning objective: one trial's fit, its score ranks trials


@dataclass(frozen=True)
class KeptBest:
    """``if val_loss < best: best = val_loss; torch.save(model.state_dict(), ...)`` in a
    loop: a model's state kept, by hand, at each better score of ``rows``."""

    id: int
    span: Span  # the ``if``
    rows: frozenset  # the rows the compared score was computed on
    best: str  # the name of the running best score
    score: str  # the compared score as written
    # in a function nothing calls, on a part it split from rows it was handed (a trainer's
    # own validation part: the caller holds the evaluation)
    handed: bool = False


@dataclass(frozen=True)
class Printed:
    """A ``print(...)`` (or ``display``) call: what it shows."""

    order: int
    span: Span
    names: frozenset  # the names its arguments read
    rows: frozenset  # the rows of its arguments' values
    words: str  # its string constants


@dataclass(frozen=True)
class TuningReport:
    """A search's best cross-validated score shown as a result (printed, logged, returned, stored)."""

    search: int  # the LearnEvent of the search's fit
    span: Span
    how: str  # "printed", "returned", ...
    built: Optional[Span]  # where the search was built
    held_out: bool = False  # its words call it a score of held-out rows ("test", "left-out")


@dataclass
class Facts:
    learns: dict = field(default_factory=dict)  # id -> LearnEvent
    splits: dict = field(default_factory=dict)  # id -> SplitEvent
    contaminations: list = field(default_factory=list)
    evaluations: list = field(default_factory=list)
    choices: list = field(default_factory=list)
    looped_scores: set = field(default_factory=set)  # evaluations whose metric was computed in a loop
    label_columns: set = field(default_factory=set)
    sinks: list = field(default_factory=list)  # Sink: what models were fitted or scored on
    depends: dict = field(default_factory=dict)  # project module path -> content digest, as followed
    trainings: list = field(default_factory=list)  # Training
    stacked: frozenset = frozenset()  # ids of Evaluations whose predictions some model is fitted on
    built: set = field(default_factory=set)  # qualnames of the library classes the code builds objects of
    repeats: dict = field(default_factory=dict)  # dataset root -> Repeats
    early_stops: list = field(default_factory=list)  # EarlyStop
    tuning_reports: list = field(default_factory=list)  # TuningReport
    # where each search cross-validated whole (nested CV) was built -> (its model, the rows
    # cross-validated)
    nested: dict = field(default_factory=dict)
    label_learned: set = field(default_factory=set)  # LearnEvent ids that reached some labels (y)
    metric_rows: list = field(default_factory=list)  # (order, rows, span) of each metric function's call
    kept_bests: list = field(default_factory=list)  # KeptBest
    printed: list = field(default_factory=list)  # Printed
    # ids of Evaluations whose score is shown: printed, logged, returned, charted or written out
    shown_scores: set = field(default_factory=set)
    trained_at: list = field(default_factory=list)  # orders of fits and of hand-written training steps (loss.backward())
    handed_models: list = field(default_factory=list)  # (order, fits, rows, texts): a fitted model (or its predictions) and data given to a library or unfollowed function
    read_sides: set = field(default_factory=set)  # Sides of splits whose rows some later code read
    read_label_sides: set = field(default_factory=set)  # Sides of splits whose own label part later code read
    kept_label_sides: set = field(default_factory=set)  # of those label parts, the ones module-level names still hold
    runs_strings: bool = False  # the file calls exec / eval: code built as text may read anything
    kept_sides: set = field(default_factory=set)  # Sides still held by module-level names at the end
    search_scores: set = field(default_factory=set)  # fit ids of searches whose CV scores code read
    out_of_fold: dict = field(default_factory=dict)  # cross_val_predict's split id -> the Evaluation of its predictions
    lagged_ahead: set = field(default_factory=set)  # look-ahead ids a lag (shift(k > 0)) carried on without undoing
    unread_lines: frozenset = frozenset()  # lines of code the analysis could not read (syntax errors, skipped cells)
    unread_names: frozenset = frozenset()  # the identifiers on those lines
    # dataset root -> (the part a name says it holds: "train", "test", "val"; the roots it was
    # cut from), for each side of a split the analysis cannot read (``make_time_split(df)``)
    named_parts: dict = field(default_factory=dict)
    part_files: dict = field(default_factory=dict)  # root -> the split part its file's name says it is (X_train.csv)
    file_roots: set = field(default_factory=set)  # roots of the tables read from files
    typed_roots: set = field(default_factory=set)  # roots of tables typed into the code (rows of number literals)
    set_aside: set = field(default_factory=set)  # roots of named held-out parts bound only to ``_names``
    # root -> the split part a name the file never binds says it is (``X_train`` of a
    # fragment whose data another file or cell made; ``train_df`` imported from code the
    # analysis cannot read)
    free_parts: dict = field(default_factory=dict)
    early_roots: set = field(default_factory=set)  # roots of names read before the file binds them
    # ids of Keras validation_split parts whose scores nothing prints or reads (verbose=0, no "val_loss")
    quiet_validations: set = field(default_factory=set)
    side_names: Optional[dict] = field(default_factory=dict)  # Side -> names that held its rows (None: a skipped line may read any)


@dataclass(frozen=True)
class Sink:
    """Rows a model was fitted on, scored on, or cross-validated with, and what they carried."""

    rows: frozenset
    learned: frozenset


def holds_held_out(rows, split_id: int) -> bool:
    """Some of ``rows`` are the held-out side of split ``split_id``."""
    return any(r.side is not None and r.side.split == split_id and r.side.held_out for r in rows)


def saw_held_out(learned: frozenset, split: "SplitEvent") -> bool:
    """True when rows learned from include ``split``'s held-out rows and some others.

    Rows from before the split hold both sides; a concatenation of the training and
    held-out sides does too. Rows that are only the held-out side are fit-on-test.
    """
    roots = {r.root for r in split.rows}
    mine = [r for r in learned if r.root in roots]
    if any(r.side is None for r in mine):
        return True
    held = any(r.side.split == split.id and r.side.held_out for r in mine)
    other = any(not (r.side.split == split.id and r.side.held_out) for r in mine)
    return held and other


def disjoint_rows(fitted, scored) -> bool:
    """No scored row can be a fitted row: other datasets, or other parts of one split
    (a model fitted on the first split's training side, scored on a part of its rest)."""
    return not any(
        a.root == b.root and (a.side is None or b.side is None or a.side == b.side) for a in fitted for b in scored
    )
