"""In-memory columns of entry metadata, aligned with the FAISS and BM25 positions.

Eligibility is evaluated on these numpy columns before any scoring, so the causal and leakage
filters cost microseconds per thousand entries instead of a Python loop over records. Strings are
interned to int codes; -1 means "none", and a query value never seen gets -2 so it matches nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

KIND_CODES = {"experience": 0, "rule": 1, "correction": 2}
NONE = -1
UNSEEN = -2


class Column:
    """A growable numpy array (capacity doubling) so appends do not copy the whole column."""

    def __init__(self, dtype, fill=0):
        self._data = np.full(16, fill, dtype=dtype)
        self._fill = fill
        self.size = 0

    def append(self, value) -> None:
        if self.size == len(self._data):
            grown = np.full(2 * len(self._data), self._fill, dtype=self._data.dtype)
            grown[: self.size] = self._data[: self.size]
            self._data = grown
        self._data[self.size] = value
        self.size += 1

    def extend(self, values) -> None:
        for value in values:
            self.append(value)

    def __setitem__(self, index, value) -> None:
        self.view[index] = value

    @property
    def view(self) -> np.ndarray:
        return self._data[: self.size]


@dataclass
class Interner:
    codes: dict[str, int] = field(default_factory=dict)

    def code(self, value: str | None) -> int:
        if value is None or value == "":
            return NONE
        return self.codes.setdefault(value, len(self.codes))

    def lookup(self, value: str | None) -> int:
        """Code of a query value; never creates one."""
        if value is None or value == "":
            return NONE
        return self.codes.get(value, UNSEEN)


@dataclass
class EntryMeta:
    """What eligibility and pooling need to know about one entry."""

    id: int
    kind: str
    polarity: str
    retrievable: bool
    advisory: bool
    stream_position: int | None
    task_id: str | None
    task_group: str | None
    reference_target_id: str | None
    failure_type: str


class EntryColumns:
    """One numpy column per metadata field of the entries, row i being FAISS/BM25 position i."""

    def __init__(self):
        self.ids = Column(np.int64)
        self.kind = Column(np.int8)
        self.positive = Column(np.bool_)
        self.retrievable = Column(np.bool_)
        self.advisory = Column(np.bool_)
        self.bound = Column(np.bool_)  # has a stream position
        self.position = Column(np.int64)
        self.task = Column(np.int32)
        self.group = Column(np.int32)
        self.target = Column(np.int32)
        self.ftype = Column(np.int32)
        self.strings = Interner()
        self.ftypes = Interner()

    def __len__(self) -> int:
        return self.ids.size

    def append(self, m: EntryMeta) -> int:
        row = self.ids.size
        if row and m.id <= self.ids.view[-1]:
            raise ValueError(f"entry ids must increase: {m.id} after {self.ids.view[-1]}")
        self.ids.append(m.id)
        self.kind.append(KIND_CODES[m.kind])
        self.positive.append(m.polarity == "+")
        self.retrievable.append(m.retrievable)
        self.advisory.append(m.advisory)
        self.bound.append(m.stream_position is not None)
        self.position.append(-1 if m.stream_position is None else m.stream_position)
        self.task.append(self.strings.code(m.task_id))
        self.group.append(self.strings.code(m.task_group))
        self.target.append(self.strings.code(m.reference_target_id))
        self.ftype.append(self.ftypes.code(m.failure_type))
        return row

    def row(self, entry_id: int) -> int:
        """Row of an entry id (ids are SQLite rowids, appended in increasing order)."""
        row = int(np.searchsorted(self.ids.view, entry_id))
        if row >= self.ids.size or self.ids.view[row] != entry_id:
            raise KeyError(entry_id)
        return row

    def set_state(self, entry_id: int, retrievable: bool, advisory: bool) -> None:
        row = self.row(entry_id)
        self.retrievable[row] = retrievable
        self.advisory[row] = advisory
