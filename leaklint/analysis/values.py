"""Abstract values the dataflow pass binds to names.

A value is what the analysis knows about a runtime object: which rows of which
dataset it holds, which learned statistics reached it, whether it is time-ordered,
or that it is a library reference, an estimator, a splitter's folds.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Optional

from .specs import Mapping, Opaque


@dataclass(frozen=True)
class Side:
    """One side of a split: ``kind`` is train, test, fold-train or fold-test."""

    kind: str
    split: int

    @property
    def held_out(self) -> bool:
        return self.kind in ("test", "fold-test")


@dataclass(frozen=True)
class Rows:
    """Rows of dataset ``root`` (an origin id); ``side`` is None before any split."""

    root: int
    side: Optional[Side] = None


@dataclass(frozen=True)
class TimeMark:
    """Why a value is known to be time-ordered, and where that was shown."""

    line: int
    reason: str
    date: bool = False  # dates themselves (pd.to_datetime), not yet shown to order the rows
    derived: bool = False  # shown only by lag, difference or window features the code built
    path: Optional[str] = None  # shown in another module of the project


class Value:
    """Base of all abstract values."""


@dataclass(frozen=True)
class Data(Value):
    rows: frozenset = frozenset()
    learned: frozenset = frozenset()  # ids of LearnEvents whose output reached this value
    time: Optional[TimeMark] = None
    column: Optional[str] = None  # the single column this value is, when known
    grouped: Optional[tuple] = None  # (selected column, *group keys) of a pending groupby selection
    indexer: bool = False  # .iloc / .loc accessor of a frame
    window: bool = False  # a rolling/expanding/ewm/resample window: its mean is per row
    scores: frozenset = frozenset()  # ids of the Evaluations this value is a score of
    size_of: frozenset = frozenset()  # ``len(df)`` / ``df.shape[0]``: the Rows counted
    positions: frozenset = frozenset()  # ``range(len(df))``: the positions of these Rows
    texts: frozenset = frozenset()  # the string constants this value may be
    made_by: Optional[str] = None  # built by a capitalised callable outside the ML packages
    # Learned ids that live only in one named column (``df["z"] = scaler.fit_transform(...)``):
    # selecting other columns leaves them behind. ``learned`` still holds them all.
    by_column: tuple = ()  # ((column, frozenset of ids), ...)
    dated: tuple = ()  # ((column, TimeMark), ...): columns of parsed dates
    subset: bool = False  # rows chosen by a condition (``df[df["y"] == 0]``): one class, say
    # One sample of a collection (a row, an image, one entity's rows) met in a loop over
    # it: a statistic of it describes that sample alone, not the rows to be split.
    element: bool = False
    counter: bool = False  # a loop index (``for i in range(len(X))``) or a test of one sample
    distinct: bool = False  # one row per value (``unique()``, ``drop_duplicates()``): ids, not rows of entities
    complete: bool = False  # no value is missing: every gap was dropped or filled with a constant
    tuning: frozenset = frozenset()  # ids of the searches whose best cross-validated score this is
    tuned: frozenset = frozenset()  # ids of the searches whose chosen settings this is (best_params)
    # Evaluations whose predictions were taken from labels (``y - pred``) and not yet
    # summed up: residuals to plot are not a score, their mean square is
    residuals: frozenset = frozenset()
    noise: bool = False  # random draws (np.random.normal, rng.normal): they describe no row
    own: Optional[str] = None  # a trailing window over this column's values, the current row's included
    shuffled: object = None  # the Span where the rows were put in random order (df.sample(frac=1))
    # columns chosen by names the analysis cannot read (``df[predictors]``): which of the
    # frame's columns it holds is a guess (all of them are assumed)
    unsure: bool = False
    archive: bool = False  # ``np.load("a.npz")``: each key is an array of its own rows
    stacked: bool = False  # ``np.stack([p1, p2])``: arrays stacked on a new first axis, rows on the second
    listed: bool = False  # ``[load(n) for n in ("a", "b")]``: one array per item of a display, not rows
    split_labels: bool = False  # a label part as train_test_split(X, y) made it (y_train, y_test)
    # ((column, text, rows), ...): ``df.loc[train_idx, "part"] = "train"`` wrote "train" into
    # column "part" on the rows of a split's side; ``df[df.part == "train"]`` takes them again
    tags: tuple = ()
    # ((column, ids), ...): columns written after those learned ids reached the frame, with
    # a value that holds none of them (``df["y"] = y_saved`` after ``df = pd.DataFrame(
    # scaler.fit_transform(df), ...)``): selecting only such columns leaves the ids behind
    cleared: tuple = ()
    # Statistics by hand that reached these values only as a shift or a scale of their own
    # columns (``(X - X.mean()) / X.std()``): a tree splits the same, a standardizer refitted
    # later undoes them. Kept through selections; anything else derived forgets them.
    rescaled: frozenset = frozenset()
    # ``(value,)``: the literal syntax this name was bound to (``n = 200``), read by the
    # runtime checker's specs; anything derived from it is no longer that literal
    literal: Optional[tuple] = field(default=None, hash=False)


@dataclass(frozen=True)
class Ref(Value):
    """An imported module, class or function, by qualified name."""

    qualname: str


@dataclass(frozen=True)
class ModuleRef(Value):
    """A module of the project itself (``import features``), by its file."""

    path: str
    name: str  # as imported, for the names of what cannot be followed


@dataclass(frozen=True)
class Imported(Value):
    """A name imported from a project module, looked up in it when it is used."""

    path: str
    name: str
    module: str  # the module as written, for the names of what cannot be followed


@dataclass(frozen=True)
class Estimator(Value):
    """An object built from a known library class; ``fits`` are its FitEvent ids.

    ``unknown``: an object whose class the file does not show (a parameter, the result
    of an unknown call) that is fitted; ``qualname`` is then the code that names it.
    """

    qualname: str
    node: object = field(compare=False, hash=False)
    steps: tuple = ()  # qualnames of the steps of a Pipeline / ColumnTransformer
    fits: frozenset = frozenset()
    spec: object = field(default=None, compare=False, hash=False)
    shuffled: Optional[bool] = None  # for splitters
    inner: object = field(default=None, compare=False, hash=False)  # a search's estimator
    cv: object = field(default=None, compare=False, hash=False)  # a search's cv= value
    unknown: bool = False
    one_setting: bool = False  # a search over a single setting: its best score is a plain CV score
    grid_size: Optional[int] = None  # the configurations a search's grid display names
    tuned: frozenset = frozenset()  # ids of the searches whose chosen settings built it
    # A standardizer's: ids of the shift-and-scale steps in the rows it was fitted on; its
    # own shift and scale, learned from those same rows, undo them in what it transforms.
    undoes: frozenset = frozenset()
    # The spec of what predicts: its own, a Pipeline's last step's, a search's estimator's
    # (None for a transformer-only composite or a class the file does not show).
    predictor: object = field(default=None, compare=False, hash=False)
    predictor_span: object = field(default=None, compare=False, hash=False)  # where that predictor was built


@dataclass(frozen=True)
class Factory(Value):
    """``defaultdict(LabelEncoder)``: every key read gets an object of that library class
    (one encoder per column, ``d[col].fit_transform(df[col])``)."""

    qualname: str


@dataclass(frozen=True)
class Folds(Value):
    """The iterator returned by ``splitter.split(X)``: yields (train, test) indices."""

    split: int


@dataclass(frozen=True)
class FoldIndex(Value):
    side: Side


@dataclass(frozen=True)
class Seq(Value):
    """A tuple, list or dict display whose items are tracked one by one."""

    items: tuple
    keys: tuple = ()  # a dict display's constant keys, one per item
    literal: Optional[tuple] = field(default=None, hash=False)  # as Data.literal (a list or dict display)


@dataclass(frozen=True)
class Function(Value):
    """A function or lambda of the analysed file (with ``functools.partial``'s bound arguments)."""

    node: object = field(compare=False, hash=False)
    scope: object = field(compare=False, hash=False)
    key: int = 0
    bound_args: tuple = field(default=(), compare=False, hash=False)
    bound_kwargs: tuple = field(default=(), compare=False, hash=False)


@dataclass(frozen=True)
class LocalClass(Value):
    """A class defined in the analysed file: its methods are inlined like functions."""

    node: object = field(compare=False, hash=False)
    scope: object = field(compare=False, hash=False)
    key: int = 0


@dataclass(frozen=True)
class Instance(Value):
    """An object of a LocalClass; its attributes live in the interpreter's heap."""

    cls: LocalClass
    key: int


class Enumerated(Value):
    """``enumerate(x)``: yields (index, item)."""

    def __init__(self, inner):
        self.inner = inner


class Items(Value):
    """``d.items()``: yields (key, value)."""

    def __init__(self, inner):
        self.inner = inner


class Zipped(Value):
    """``zip(a, b)``: yields one item of each."""

    def __init__(self, items):
        self.items = items


UNKNOWN = Data()


def _settings(seq: "Seq"):
    """A dict's literal settings (a Mapping), None when it has none, False when its literal
    is not a dict's."""
    if seq.literal is None:
        return None
    return seq.literal[0] if isinstance(seq.literal[0], Mapping) else False


def _joined_settings(ours: Mapping, theirs: Mapping, keys: tuple) -> Mapping:
    """The settings a dict holds on either of two paths: a key one path sets keeps its
    value, a key the paths set differently is known only to be set."""
    mine, other = dict(ours.items), dict(theirs.items)
    joined = {}
    for key in keys:
        if key in mine and key in other:
            joined[key] = mine[key] if mine[key] == other[key] else Opaque("either of two settings")
        else:
            joined[key] = mine.get(key, other.get(key))
    return Mapping(tuple(joined.items()))


def join(a: Optional[Value], b: Optional[Value]) -> Value:
    """The least value that may be either ``a`` or ``b`` (branches, loops)."""
    if a is None:
        return b if b is not None else UNKNOWN
    if b is None or a is b or a == b:
        return a
    if isinstance(a, Data) and isinstance(b, Data):
        return Data(
            rows=a.rows | b.rows,
            learned=a.learned | b.learned,
            time=a.time or b.time,
            column=a.column if a.column == b.column else None,
            scores=a.scores | b.scores,
            size_of=a.size_of if a.size_of == b.size_of else frozenset(),
            texts=a.texts | b.texts if a.texts and b.texts else frozenset(),
            by_column=a.by_column if a.by_column == b.by_column else _joined_columns(a, b),
            dated=_union(a.dated, b.dated),
            element=(a.element or b.element) and all(d.element or _blank(d) for d in (a, b)),
            counter=a.counter and b.counter,
            distinct=a.distinct and b.distinct,
            tuning=a.tuning | b.tuning,
            tuned=a.tuned | b.tuned,
            residuals=a.residuals | b.residuals,
            cleared=_joined_cleared(a, b),
            rescaled=(a.rescaled | b.rescaled) - (a.learned - a.rescaled) - (b.learned - b.rescaled),
        )
    if isinstance(a, Estimator) and isinstance(b, Estimator) and a.qualname == b.qualname:
        return replace(a, fits=a.fits | b.fits)
    if isinstance(a, Seq) and isinstance(b, Seq) and len(a.items) == len(b.items) and a.keys == b.keys:
        return Seq(tuple(join(x, y) for x, y in zip(a.items, b.items)), a.keys)
    if isinstance(a, Seq) and isinstance(b, Seq) and a.keys and b.keys and len(a.keys) == len(a.items) \
            and len(b.keys) == len(b.items) and _settings(a) is not False and _settings(b) is not False:
        # models["q"] = ... in one branch only: the entries both paths wrote are joined, the others kept
        mine, theirs = dict(zip(a.keys, a.items)), dict(zip(b.keys, b.items))
        keys = a.keys + tuple(k for k in b.keys if k not in mine)
        items = tuple(join(mine[k], theirs[k]) if k in mine and k in theirs else mine.get(k, theirs.get(k)) for k in keys)
        settings = (_settings(a), _settings(b))
        if None in settings:
            return Seq(items, keys)
        return Seq(items, keys, literal=(_joined_settings(*settings, keys),))
    if isinstance(a, Seq) and isinstance(b, Seq) and not a.keys and not b.keys:
        short, long = sorted((a, b), key=lambda s: len(s.items))
        if short.items == long.items[:len(short.items)] and any(isinstance(i, Estimator) for i in short.items):
            return long  # callbacks = [early_stopping(50)], appended to in one branch: its items, and maybe more
    for seq, other in ((a, b), (b, a)):
        if isinstance(seq, Seq) and (seq.items or seq.keys) and (
                other == UNKNOWN or isinstance(other, Data) and not other.rows and not other.learned and not other.scores):
            # best = None, then best = (train_idx, test_idx) in a loop: the pair, kept apart (an
            # empty list given values it cannot name, cols.append(f"x_{w}"), is no longer empty)
            return seq
        if isinstance(seq, Seq) and seq.keys and isinstance(other, Seq) and not other.items:
            return seq  # results = {}, then results[name] = ... in a loop: its entries, kept apart
        if isinstance(seq, Seq) and seq.items and all(isinstance(i, Seq) and i.items for i in seq.items) \
                and isinstance(other, Seq) and not other.items:
            return seq  # splits = [], then splits.append(train_test_split(...)) in a loop: each tuple's parts apart
    if isinstance(a, (Data, Seq)) and isinstance(b, (Data, Seq)):
        return join(as_data(a), as_data(b))
    for model, other in ((a, b), (b, a)):  # a new model or the search's tuned one: either is the tuned model
        if isinstance(model, Estimator) and isinstance(other, Data) and other.tuned:
            return replace(model, tuned=model.tuned | other.tuned)
    if isinstance(a, Data) and not a.rows and not a.learned:
        return b
    if isinstance(b, Data) and not b.rows and not b.learned:
        return a
    return a


def _joined_cleared(a: Data, b: Data) -> tuple:
    """A column is free of an id after either path only if both paths left it free."""
    theirs = dict(b.cleared)
    return tuple((c, ids & theirs[c]) for c, ids in a.cleared if c in theirs and ids & theirs[c])


def _blank(data: Data) -> bool:
    """A constant (``comps = []`` in an ``except``): joined with one sample's values, the
    value is still that sample's alone."""
    return not data.rows and not data.learned and not data.scores


def _joined_columns(a: Data, b: Data) -> tuple:
    """The columns each learned id lives only in, on either path (a loop's first pass
    and the frame before it): an id either path holds outside named columns is no longer
    confined to them, nor is one in a column named in a loop (``df[f"x_{w}"]``), which
    stands for several, unless its name keeps a fixed part (``df[f"{c}_scaled"]``): the
    columns it stands for are those the pattern matches."""
    def confined(data):
        return frozenset().union(*(ids for c, ids in data.by_column if named(c)))

    def named(column):
        return not column.startswith("<") or column_pattern(column) is not None

    wide = (a.learned - confined(a)) | (b.learned - confined(b))
    columns = {}
    for column, ids in a.by_column + b.by_column:
        if named(column):
            columns[column] = columns.get(column, frozenset()) | ids
    return tuple((column, ids - wide) for column, ids in columns.items() if ids - wide)


def as_data(value: Optional[Value]) -> Data:
    """View any value as data (an estimator's attributes carry what it learned)."""
    if isinstance(value, Data):
        return value
    if isinstance(value, Estimator):
        return Data(learned=value.fits, tuned=value.tuned)  # (clone(tuned): its settings stay chosen)
    if isinstance(value, Seq):
        out = UNKNOWN
        for item in value.items:
            out = join(out, as_data(item))
        return out
    if isinstance(value, (Items, Enumerated)):  # list(d.items()): the values it yields
        return as_data(value.inner)
    return UNKNOWN


def indexed_sides(base: Data, key: Data) -> frozenset:
    """``df.loc[X_train.index]``, ``df.iloc[train_positions]``: the key holds sides of
    splits of the frame's own rows, so the rows selected are those sides (several when a
    loop over splits joined their indices: each pass selects one of them)."""
    sides = frozenset(r.side for r in key.rows)
    if not sides or None in sides or not base.rows or any(r.side is not None for r in base.rows):
        return frozenset()
    return sides if {r.root for r in key.rows} <= {r.root for r in base.rows} else frozenset()


def merge_data(values, drop_learned=frozenset()) -> Data:
    """Data derived from several inputs: union of rows and learned events."""
    rows, learned, scores, time, dated, tuning, tuned = frozenset(), frozenset(), frozenset(), None, (), frozenset(), frozenset()
    residuals = frozenset()
    elements, distinct, counter = [], [], False
    for value in values:
        data = as_data(value)
        rows |= data.rows
        learned |= data.learned
        scores |= data.scores
        time = time or data.time
        dated = _union(dated, data.dated)
        counter = counter or data.counter
        tuning |= data.tuning
        tuned |= data.tuned
        residuals |= data.residuals
        if data.rows and not data.noise:  # (random draws added to one sample keep it one sample)
            elements.append(data.element)
        if data.rows:
            distinct.append(data.distinct)
    return Data(
        rows=rows, learned=learned - drop_learned, time=time, scores=scores, dated=dated,
        element=bool(elements) and all(elements), counter=counter,
        distinct=bool(distinct) and all(distinct), tuning=tuning, tuned=tuned, residuals=residuals,
    )


def _union(a: tuple, b: tuple) -> tuple:
    if not b or a == b:
        return a
    known = {column for column, _ in a}
    return a + tuple(item for item in b if item[0] not in known)


def texts_of(value) -> frozenset:
    """The string constants a value or the items of a list of them may be (``"date"``,
    ``["a", "b"]``): column names given to a method."""
    items = value.items if isinstance(value, Seq) else (value,)
    return frozenset(t for item in items for t in as_data(item).texts)


def order_mark(data: Data) -> Optional[TimeMark]:
    """What shows ``data``'s rows are time-ordered: its own mark, or the parsed dates of
    one column still in it. Rows that carry parsed dates of two columns or more (acquired
    and established, opened and closed) are records with dates among their attributes, not
    points of one series, until the code orders them by one."""
    if data.time is not None:
        return data.time
    return data.dated[0][1] if len({column for column, _ in data.dated}) == 1 else None


@lru_cache(maxsize=256)
def column_pattern(placeholder: str):
    """The names a column named in a loop by an f-string with a fixed part may take
    (``<f'{col}_scaled'>``: any name ending in "_scaled"), or None."""
    try:
        node = ast.parse(placeholder[1:-1], mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(node, ast.JoinedStr) or not any(isinstance(v, ast.Constant) and v.value for v in node.values):
        return None
    return re.compile("".join(re.escape(v.value) if isinstance(v, ast.Constant) else ".+" for v in node.values))


def select_columns(data: Data, columns) -> Data:
    """``df[["a", "b"]]``: what lives only in other columns is left behind. A column
    ``"a_x"`` may be one of the indicators ``pd.get_dummies`` made of ``"a"``."""
    if not data.by_column and not data.dated and not data.cleared:
        return data
    wanted = set(columns)
    heads = {w[:i] for w in wanted for i, ch in enumerate(w) if ch == "_"}  # "a" of "a_x"

    def picked(column):
        pattern = column_pattern(column) if column.startswith("<") else None
        if pattern is not None:
            return any(pattern.fullmatch(w) for w in wanted)
        return column in wanted or column in heads

    column_only = frozenset().union(*(ids for _, ids in data.by_column)) if data.by_column else frozenset()
    kept = frozenset().union(*(ids for c, ids in data.by_column if picked(c))) if data.by_column else frozenset()
    cleared = dict(data.cleared)
    absent = frozenset.intersection(*(cleared[w] for w in wanted)) if wanted and wanted <= cleared.keys() else frozenset()
    return replace(
        data,
        learned=((data.learned - column_only) | kept) - absent,
        by_column=tuple(item for item in data.by_column if picked(item[0])),
        dated=tuple(item for item in data.dated if item[0] in wanted),
        cleared=tuple(item for item in data.cleared if item[0] in wanted),
    )


def set_column(frame: Data, column: Optional[str], value: "Data", possible: Optional[tuple] = None) -> Data:
    """``df[column] = value``: the frame now holds what the value holds, in that column,
    and no longer what that column held before (a column overwritten in a later cell).

    Parsed dates put in a column do not order the rows; they are kept as a dated column,
    also when a subscript names a column not known (``df[c]`` in a loop over names:
    ``possible`` holds the names it may be, maybe none). Set on the index (``column`` and
    ``possible`` None), they order the rows.
    """
    learned, by_column, dated, time = frame.learned, frame.by_column, frame.dated, frame.time or value.time
    cleared = frame.cleared
    if column is not None:
        others = tuple(i for i in by_column if i[0] != column)
        column_only = frozenset().union(*(ids for _, ids in others))
        learned = learned - (dict(by_column).get(column, frozenset()) - column_only)  # what lives in no other column
        by_column = others
        # new ids, and ids of other columns the value was computed from: they now live here too
        only_here = value.learned - (learned - column_only)
        by_column = by_column + (((column, only_here),) if only_here else ())
        if value.time is not None and value.time.date and frame.time is None:
            dated, time = _union(dated, ((column, value.time),)), None
        held = (learned | value.learned) - value.learned
        cleared = tuple(item for item in cleared if item[0] != column) + (((column, held),) if held else ())
    elif possible:  # df[c] = f(df[c]) for c in a list of names: what the value holds lives in those columns
        placed = value.learned - (learned - frozenset().union(*(ids for _, ids in by_column)))
        known = dict(by_column)
        by_column = tuple((c, ids | placed) if c in possible else (c, ids) for c, ids in by_column) + tuple(
            (c, placed) for c in possible if c not in known and placed)
    else:  # columns not known: what the value holds no longer lives only in named columns
        by_column = tuple((c, ids - value.learned) for c, ids in by_column if ids - value.learned)
    if column is None:  # the value may be in any column named (any column, when none is)
        reached = [(c, ids - value.learned if possible is None or c in possible else ids) for c, ids in cleared]
        cleared = tuple((c, ids) for c, ids in reached if ids)
    if column is None and possible is not None and value.time is not None and value.time.date and frame.time is None:
        dated, time = _union(dated, tuple((c, value.time) for c in possible or ("<a column>",))), None
    return Data(
        rows=frame.rows,
        learned=learned | value.learned,
        time=time,
        scores=frame.scores | value.scores,
        by_column=by_column,
        dated=dated,
        element=frame.element,
        distinct=frame.distinct,
        tuning=frame.tuning | value.tuning,
        complete=frame.complete and value.complete,  # (a column with gaps put in puts gaps back)
        cleared=cleared,
        rescaled=(frame.rescaled | value.rescaled) - (frame.learned - frame.rescaled) - (value.learned - value.rescaled),
    )
