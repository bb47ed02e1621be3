"""Candidate scenarios for one target, in the order worth trying: the typical call first, then
the call without its defaulted parameters, a positional call, then one parameter at a time across
its candidate values (round-robin, so every parameter's second value comes before any third).

A target that writes (or commits, or runs dynamic SQL) gets one scenario per candidate, so each
runs on a fresh copy of the data and its written tables can be read back; a read-only target gets
all its candidates as steps of one scenario (one database copy), selected step by step."""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from harness.ground_truth.scenarios import Scenario, Statement, Step
from harness.quoting import quote_ident
from migrator.evidence.seed_rows import largest_number
from migrator.evidence.steps import (
    READS_ERROR,
    PgArg,
    call_step,
    dml_step,
    in_handler,
    method_step,
    oracle_ident,
    table_check,
    variable_step,
    view_step,
)
from migrator.evidence.targets import Target
from migrator.evidence.values import FIXED_DATE, NULL, DataView, Value, boundaries, candidates, literal
from migrator.oracle_types import NUMBER_SPELLINGS


@dataclass
class Candidate:
    """A call (or DML, or query), the checks that follow it, and the data changes made first."""

    step: Step
    checks: list[Step] = field(default_factory=list)
    setup: list[Statement] = field(default_factory=list)
    # Kept whatever coverage it adds: a call form (named, positional, without the defaulted
    # parameters) or an input class (NULL, a number written as text) where conversions differ
    # without a branch to show it — coverage is measured on the conversion, which may be wrong.
    keep: bool = False
    values: dict[str, Value] | None = None  # a routine call's inputs (None: DML, a query)
    # kept for a result no kept step returned, although it changes data first (a data change
    # the code's bounds show in, e.g. more stock than a warehouse holds: a percentage clamped)
    by_result: bool = False
    # may be the centre of the second phase's calls one parameter away, and lend its data changes
    # to them: not a call on a row made in a rare state (a FROZEN account), whose neighbours
    # all stop where it does
    centre: bool = True


def routine_candidates(
    target: Target, data: DataView, pg_args: list[PgArg], budget: int, families=lambda t: {}, oracle_types=lambda t: {}
) -> list[Candidate]:
    inputs = [p for p in target.params if p.mode != "OUT"]
    options = {p.name: candidates(p, target, data) or [NULL] for p in inputs}
    _distinct_keys(inputs, options, data, target.deep_words)
    _apart_from_row(target, data, inputs, options)
    base = {name: vals[0] for name, vals in options.items()}
    calls: list[tuple[dict[str, Value], bool, bool]] = [(base, True, True)]
    defaulted = [p.name for p in inputs if p.has_default]
    if defaulted:
        calls.append(({k: v for k, v in base.items() if k not in defaulted}, True, True))
    if len(inputs) > 1 and not defaulted:
        calls.append((base, False, True))
    numbers = [v for v in target.literals if isinstance(v, Decimal)]
    calls += [(v, True, True) for v in _input_classes(inputs, options, base, numbers)]
    calls += [(v, True, True) for v in _equal_pairs(target, inputs, options, base)]
    keyed = {p.name for p in inputs if data.column_for(p, target.deep_words) in _key_columns(data)}
    calls += [(v, True, True) for v in _beyond_precision([p for p in inputs if p.name not in keyed], base,
                                                         target, oracle_types)]  # fmt: skip
    calls += [(v, True, True) for v in _finer([p for p in inputs if p.name not in keyed], base, target.scales)]
    depth = max((len(v) for v in options.values()), default=1)
    for k in range(1, depth):  # one parameter at a time, round-robin
        for name, vals in options.items():
            if k < len(vals):
                calls.append(({**base, name: vals[k]}, True, False))
    plans: list[tuple[dict[str, Value], bool, list[Statement], bool]] = [
        (values, named, [], keep) for values, named, keep in calls if keep
    ]
    # the hierarchy flattened, with the typical call and without its defaulted parameters (a
    # walk from every root when the root is left out): tried first and kept, as a call form is
    forms = [values for values, _named, keep in calls[:2] if keep]
    plans += [(values, True, [s], True) for s in _flattened(target, data) for values in forms]
    # a number left to its default (a limit, a count) with the data copied once: kept, as a call form is
    if len(forms) > 1 and any(p.has_default and p.family == "number" for p in inputs):
        copied = copies(target, data, families)
        if copied:
            plans.append((forms[1], True, copied, True))
    # the dates of the data just either side of the frozen SYSDATE moved by the body's numbers
    # (a cutoff `ADD_MONTHS(SYSDATE, -p_months)`, p_months DEFAULT 24): with the defaults in play
    plans += [(forms[-1], True, [s], True) for s in around_frozen_date(target, data, families)]
    if target.writes:  # the typical call made twice: the second finds what the first wrote (a duplicate)
        first = call_step("again", target, base, pg_args, named=True)
        plans.append(
            (base, True, [Statement(oracle=first.oracle, postgres=first.postgres, out_call=first.out_call)], False)
        )
    # (read-only code) a number column set large: tried first, as the kept candidates are, and
    # kept for a new result
    large = [] if target.writes else _large(target, data, families)
    plans += [(base, True, [s], False) for s in large]
    plans += [(base, True, [s], False) for s in _ambiguous(inputs, base, data, target.deep_words)]
    rows_dated = _dated_rows(target, data, inputs, base)
    # kept whatever coverage they add (a window one period too long shows only where the right
    # one finds nothing): a routine that writes (a database copy each) the first two only
    plans += [(values, True, [], True) for values in rows_dated[: ROW_DATED_WRITES if target.mutates else None]]
    if not target.mutates:
        plans += [(values, True, [], True) for values in _spans(target, data, inputs, options, base)]
    at = len(plans)  # the one-parameter variations next, before the data perturbations
    plans += [(base, True, [s], False) for s in _perturbations(target, data, families)]  # the data, not the inputs
    plans[at:at] = [(values, named, [], False) for values, named, keep in calls if not keep]
    plans += [(v, True, [], False) for v in _pairs(options, base)]
    out = []
    for n, (values, named, setup, keep) in enumerate(plans[:budget], 1):
        step = call_step(f"call_{n}", target, values, pg_args, named=named)
        checks = [table_check(f"after_{n}_{t}", t) for t in sorted(target.writes)]
        out.append(Candidate(step, checks, setup, keep, values, by_result=any(s in large for s in setup)))
    if READS_ERROR & target.words and out:  # the typical call from a handler: the error it reads
        n = len(out) + 1
        step = in_handler(call_step(f"call_{n}", target, base, pg_args, named=True, block=True))
        checks = [table_check(f"after_{n}_{t}", t) for t in sorted(target.writes)]
        out.insert(1, Candidate(step, checks, [], True, base))
    # inputs a branch's condition asks for, tried beyond the budget (they take no place of the
    # others'; a budget full of kept classes would leave them out): a parameter compared with a
    # column of the row another parameter selects, at and near that row's own value; a row in
    # each state the body compares a column with (or its CHECK allows) that no row holds, the
    # call made on it
    derived: list[tuple[dict[str, Value], list[Statement]]] = [
        (values, []) for values in _row_relative(target, data, inputs, base)
    ]
    derived += [(values, [s]) for values, s in _in_state(target, data, inputs, base, families)]
    for values, setup in derived:
        n = len(out) + 1
        step = call_step(f"call_{n}", target, values, pg_args, named=True)
        checks = [table_check(f"after_{n}_{t}", t) for t in sorted(target.writes)]
        out.append(Candidate(step, checks, setup, False, values, centre=not setup))
    return out


def routine_options(target: Target, data: DataView) -> dict[str, list[Value]]:
    """Every input parameter's candidate values (as routine_candidates orders them)."""
    inputs = [p for p in target.params if p.mode != "OUT"]
    options = {p.name: candidates(p, target, data) or [NULL] for p in inputs}
    _distinct_keys(inputs, options, data, target.deep_words)
    _apart_from_row(target, data, inputs, options)
    return options


def neighbours(target: Target, centre: Candidate, options: dict[str, list[Value]], pg_args: list[PgArg],
               seen: set, first: int, setups: Sequence[list[Statement]] = ()) -> list[Candidate]:  # fmt: skip
    """Calls one parameter away from `centre` (the kept call that executed the most), with its
    data changes: a branch deep in the body needs the inputs that got that far, and one more
    (a raise percentage above 0 once the transfer reached another department). Round-robin over
    the parameters; calls already tried (`seen`: their values) are left out."""
    assert centre.values is not None
    out: list[Candidate] = []

    def add(values: dict[str, Value], setup: list[Statement]) -> None:
        sig = call_signature(values, setup)
        if sig in seen:
            return
        seen.add(sig)
        n = first + len(out)
        step = call_step(f"call_{n}", target, values, pg_args, named=True)
        checks = [table_check(f"after_{n}_{t}", t) for t in sorted(target.writes)]
        out.append(Candidate(step, checks, list(setup), False, values))

    defaulted = {p.name for p in target.params if p.has_default}
    if defaulted & set(centre.values):  # ... its defaulted parameters left out (the defaults in play)
        add({k: v for k, v in centre.values.items() if k not in defaulted}, centre.setup)
    for setup in setups:  # the data changes tried with the typical call, now with this one
        add(centre.values, setup)
    depth = max((len(v) for v in options.values()), default=0)
    for k in range(depth):
        for name, vals in options.items():
            if k < len(vals) and not (name in centre.values and vals[k].oracle == centre.values[name].oracle):
                add({**centre.values, name: vals[k]}, centre.setup)
    return out


def call_signature(values: dict[str, Value], setup: list[Statement]) -> tuple:
    return tuple(sorted((k, v.oracle) for k, v in values.items())), tuple(st.postgres for st in setup)


def _input_classes(inputs, options: dict[str, list[Value]], base: dict[str, Value],
                   target_numbers: Sequence = ()) -> list[dict[str, Value]]:  # fmt: skip
    """The base call with one parameter NULL, with a text parameter holding a number (where
    Oracle's implicit conversions and '' = NULL meet the converted code), and with each of the
    first values the body compares that parameter's kind with (a CASE inside one SQL statement
    has no statement of its own for coverage to see)."""
    out = []
    for p in inputs:
        if not base[p.name].is_null:
            out.append({**base, p.name: NULL})
        if p.family == "text":
            digits = next((v for v in options[p.name] if v.oracle.strip("'").isdigit()), literal("1", "text"))
            if digits.oracle != base[p.name].oracle:
                out.append({**base, p.name: digits})
        compared = [v for v in options[p.name] if v.source == "literal" and v.oracle != base[p.name].oracle]
        # the numbers the body itself writes first (`p_days < 30` differs from `< 31` at 30
        # only), then their neighbours
        exact = {literal(n, "number").oracle for n in target_numbers}
        compared = [v for v in compared if v.oracle in exact][:3] + [v for v in compared if v.oracle not in exact]
        out += [{**base, p.name: v} for v in compared[: 4 if p.family == "number" else 3]]
    return out


def _beyond_precision(inputs, base: dict[str, Value], target: Target, oracle_types) -> list[dict[str, Value]]:
    """For a body that writes a table with NUMBER(p) columns: the base call with each number
    parameter one past the largest value such a column holds (10^p for NUMBER(p)), the smallest
    and the largest p first. Oracle refuses it (ORA-01438, or VALUE_ERROR in a variable anchored
    to the column) where a wider type would take it; no branch shows that to coverage."""
    limits: set[Decimal] = set()
    for table in sorted(target.writes):
        for spelling in (oracle_types(table) or {}).values():
            if (top := largest_number(str(spelling))) is not None and top > 0:
                limits.add(top + 1)
    chosen = sorted(limits)
    chosen = _unique_list([chosen[0], chosen[-1]]) if chosen else []
    return [{**base, p.name: literal(v, "number")} for p in inputs if p.family == "number" for v in chosen]


def _unique_list(values: list) -> list:
    return list(dict.fromkeys(values))


def _finer(inputs, base: dict[str, Value], scales: Sequence[int]) -> list[dict[str, Value]]:
    """For a body that rounds to n places (`ROUND(p_salary * 1.03, 2)`): the base call with each
    number parameter of an unconstrained decimal type (NUMBER, not INTEGER, not through %TYPE)
    holding more decimals than the largest n, so that what is rounded has digits beyond every
    scale (a scale of 3 in place of 2 shows there only)."""
    if not scales:
        return []
    defaulted = {p.name for p in inputs if p.has_default}
    tail = Decimal("0." + ("1234567890" * 4)[: max(scales) + 3])
    out = []
    for p in inputs:
        if p.family != "number" or p.column is not None or p.element is not None:
            continue
        if p.oracle_type.strip().upper() not in NUMBER_SPELLINGS:
            continue
        start = base[p.name]
        try:
            number = Decimal(start.oracle) if not start.is_null else Decimal(1)
        except ArithmeticError:
            number = Decimal(1)
        finer = literal(number.to_integral_value() + tail, "number")
        out.append({**base, p.name: finer})
        # ... and with the defaulted parameters left out (a cap the typical call sets low hides it)
        rest = {k: v for k, v in base.items() if k == p.name or k not in defaulted}
        if len(rest) < len(base):
            out.append({**rest, p.name: finer})
    return out


def _perturbations(target: Target, data: DataView, families) -> list[Statement]:
    """Data changes before the typical call, for branches that depend on the data rather than
    the arguments (every account emptied: the fee cannot be charged): each column of a table the
    code names, that the code (or a routine it calls) also names, set in every row to what its
    type suggests — 0 for a number, the texts the body compares that column with (a status no
    row holds) then its first text literals for a text, the frozen SYSDATE for a date no row
    fills (a product never discontinued), NULL for any — and, for two such number columns of one
    table, both to 0 (no balance and no overdraft either)."""
    out: list[Statement] = []
    texts = [v for v in target.literals if isinstance(v, str) and 0 < len(v) <= 20][:3]
    for table in sorted(target.reads):
        keys, fams = set(data.keys.get(table, [])), families(table)
        cols = [
            c for c in data.columns.get(table, []) if c not in keys and c in target.deep_words and not c.endswith("_id")
        ]  # fmt: skip  (foreign keys only break the join)
        numbers = [c for c in cols if fams.get(c) == "number"]
        for column in cols:
            fam = fams.get(column, "other")
            values = [literal(0, "number")] if fam == "number" else []
            if fam == "text":
                values += _unique_values([literal(v, "text") for v in target.states.get(column, []) + texts])
            if fam == "date" and not data.values(table, column):
                values.append(literal(FIXED_DATE, "date"))
            out += [_set(table, {column: v}) for v in values + [NULL]]
        out += [_set(table, {a: literal(0, "number"), b: literal(0, "number")})
                for i, a in enumerate(numbers) for b in numbers[i + 1 :]]  # fmt: skip
    # a table of detail rows the code reads emptied (an order without lines): one whose foreign
    # key points at another table the code reads, and that no table refers to
    parents = {t for fks in data.foreign.values() for _c, t, _p in fks}
    for table in sorted(target.reads):
        if table not in parents and any(parent in target.reads for _c, parent, _p in data.foreign.get(table, [])):
            out.append(
                Statement(oracle=f"DELETE FROM {oracle_ident(table)}", postgres=f"DELETE FROM {quote_ident(table)}")
            )
    return out


def _large(target: Target, data: DataView, families, most: int = 3) -> list[Statement]:
    """For code that only reads: each number column the code names of a table it reads (no key)
    set in every row to the type's largest boundary — beyond what the code's bounds expect (a
    fill percentage above 100 is clamped). A column too narrow for it refuses the change and the
    candidate is dropped. At most `most`, tried whatever the others cover (they are few)."""
    big = boundaries("number")[-1]
    out = []
    for table in sorted(target.reads):
        keys, fams = set(data.keys.get(table, [])), families(table)
        out += [_set(table, {c: big}) for c in data.columns.get(table, []) if c not in keys and c in target.deep_words
                and not c.endswith("_id") and fams.get(c) == "number"]  # fmt: skip
    return out[:most]


ROW_DATED_WRITES = 2  # dated-row calls of a routine that writes (a database copy each)
ROW_DATED_READS = 12  # ... of one that only reads (steps of one scenario)
_MONTHLY = {"add_months", "last_day", "months_between"}


def _dated_rows(target: Target, data: DataView, inputs, base: dict[str, Value]) -> list[dict[str, Value]]:
    """Calls whose key and date come from the same rows: a routine that takes a key (an
    account) and a date (a month) filters a table it reads by both (the account's postings of
    that month), and a date picked apart from the key finds no row of it. For a key parameter,
    a table the code reads that holds the key's column and a date column the code names: per key
    value (those with the most rows first), its first row's date (a period that holds rows), the
    period after its last row (every row lies before it: an opening balance, the latest of
    several) and the period before its first one (a window one period too long reaches it) — a
    month apart when the code counts in months (ADD_MONTHS, LAST_DAY, MONTHS_BETWEEN), else a day. Each
    date parameter in turn, the other parameters as in the typical call."""
    dates = [p for p in inputs if p.family == "date" and p.element is None]
    if not dates:
        return []
    monthly = bool(_MONTHLY & target.deep_words)
    out: list[dict[str, Value]] = []
    for key in inputs:
        column = data.column_for(key, target.deep_words) if key.family in ("number", "text") else None
        if column is None:
            continue
        home, col = column
        tables = [t for t in sorted(target.reads) if t != home] + ([home] if home in target.reads else [])
        for table in tables:
            rows = data.rows.get(table, []) if data.rows else []
            if col not in data.columns.get(table, []):
                continue
            stamp = next((c for c in data.columns[table] if c in target.deep_words and c != col
                          and any(isinstance(r.get(c), dt.date) for r in rows)), None)  # fmt: skip
            if stamp is None:
                continue
            held: dict[str, tuple[object, list]] = {}
            for r in rows:
                if r.get(col) is not None and isinstance(r.get(stamp), dt.date):
                    held.setdefault(repr(r[col]), (r[col], []))[1].append(r[stamp])
            keys = sorted(held.values(), key=lambda kv: -len(kv[1]))[:4]
            # a routine that writes gets the first two only: the period after the busiest key's
            # rows first (it finds the most history before it), then its first row's
            picks = (_after, min, _before) if target.mutates else (min, _after, _before)
            for pick in picks:
                for value, stamps in keys[:1] if target.mutates else keys:
                    when = pick(stamps) if pick is min else pick(stamps, monthly)
                    for p in dates:
                        out.append({**base, key.name: _tag_data(literal(value, key.family)),
                                    p.name: _tag_data(literal(when, "date"))})  # fmt: skip
            break  # the first such table
    seen: set = set()
    unique = []
    for values in out:
        sig = call_signature(values, [])
        if sig not in seen:
            seen.add(sig)
            unique.append(values)
    return unique[:ROW_DATED_READS]


def _spans(target: Target, data: DataView, inputs, options: dict[str, list[Value]],
           base: dict[str, Value]) -> list[dict[str, Value]]:  # fmt: skip
    """Two date parameters (from / until) set apart, in order: the typical call often has them
    the wrong way round or equal, and a loop over the periods between them (a month at a time)
    runs no more than once. Half a year up to the latest date they are tried with, for each of
    the first existing values of the parameter about a key (an account whose product earns
    interest, one that does not); then, with the first key, from the earliest date to the latest
    and back."""
    dates = [p for p in inputs if p.family == "date" and p.element is None]
    if len(dates) < 2:
        return []
    a, b = dates[0].name, dates[1].name
    known = sorted({v.label: v for p in (a, b) for v in options[p] if not v.is_null and v.source}.items())
    if len(known) < 2:
        return []
    lo, hi = known[0][1], known[-1][1]
    try:
        recent = _tag_data(literal(_shift(dt.date.fromisoformat(hi.label), -6, True), "date"))
    except ValueError:
        return []
    keys: list[Value] = []
    keyed = None
    for p in inputs:  # the first parameter about a key column, and that column's first values
        column = data.column_for(p, target.deep_words) if p.family in ("number", "text") else None
        if column is not None and column in _key_columns(data):
            keyed, keys = p.name, [_tag_data(literal(v, p.family)) for v in (data.values(*column) or [])[:3]]
            break
    out = [{**base, a: hi, b: recent} | ({keyed: key} if keyed else {}) for key in keys]
    first = {keyed: keys[0]} if keyed and keys else {}
    return (out or [{**base, a: hi, b: recent}]) + [{**base, a: hi, b: lo} | first, {**base, a: lo, b: hi} | first]


def _key_columns(data: DataView) -> set[tuple[str, str]]:
    return {(t, k[0]) for t, k in data.keys.items() if len(k) == 1}


def _shift(when, months: int, monthly: bool):
    if not monthly:
        return when + dt.timedelta(days=months)
    month = when.month - 1 + months
    year, month = when.year + month // 12, month % 12 + 1
    last = calendar.monthrange(year, month)[1]
    return when.replace(year=year, month=month, day=min(when.day, last))


def _after(stamps: list, monthly: bool):
    return _shift(max(stamps), 1, monthly)


def _before(stamps: list, monthly: bool):
    return _shift(min(stamps), -1, monthly)


def _tag_data(value: Value) -> Value:
    return Value(value.oracle, value.pg, value.label, "data")


def _flattened(target: Target, data: DataView) -> list[Statement]:
    """A hierarchy flattened: a column the code names that refers to its own table's key (a
    manager, a parent category) set NULL in every row, so that every row is a root. A tree walk
    from the roots (START WITH manager_id IS NULL) then meets several, and the order it visits
    them in (ORDER SIBLINGS BY last_name) shows in what it prints or returns; with one root it
    cannot."""
    out = []
    for table in sorted(target.reads):
        for cols, parent, _pcols in data.foreign.get(table, []):
            if parent == table and len(cols) == 1 and cols[0] in target.deep_words:
                out.append(_set(table, {cols[0]: NULL}))
    return out


def _in_state(target: Target, data: DataView, inputs, base: dict[str, Value], families,
              most: int = 6) -> list[tuple[dict[str, Value], Statement]]:  # fmt: skip
    """For a parameter about a table's key (`p_part_id`) and a text the body compares a column of
    that table with (`v_state = 'RETIRED'`, `CASE v_state WHEN 'ON_HOLD'`) that no row holds: a
    copy of the table's first row with a new key and that text, inserted first, and the typical
    call made with the new key. Inserted, not updated: an update of the column may fire the very
    rules (a trigger: a part with stock cannot retire) the branch stands behind."""
    out: list[tuple[dict[str, Value], Statement]] = []
    for p in inputs:
        column = data.column_for(p, target.deep_words) if p.family in ("number", "text") else None
        if column is None or data.keys.get(column[0]) != [column[1]]:
            continue
        table, key = column
        rows = data.rows.get(table, []) if data.rows else []
        fams = families(table)
        for col, texts in target.states.items():
            if col == key or col not in data.columns.get(table, []) or fams.get(col) != "text" or not rows:
                continue
            held = {r.get(col) for r in rows}
            # ... and the states its CHECK allows that the body names not (a CASE's ELSE arm)
            for text in _unique_list(texts + data.checks.get((table, col), [])):
                if text in held:
                    continue
                row = _copy_row(rows, table, [key], fams, data)
                row[col] = literal(text, "text")
                ins = dml_step("setup", table, "INSERT", row, {})
                out.append(({**base, p.name: _tag_data(row[key])},
                            Statement(oracle=ins.oracle, postgres=ins.postgres)))  # fmt: skip
    return out[:most]


def _copy_row(rows: list[dict], table: str, keys: list[str], families: dict[str, str],
              data: DataView | None) -> dict[str, Value]:  # fmt: skip
    """A copy of the first row with a new key and new values in its unique columns."""
    new = {c: literal(v, families.get(c, "text")) for c, v in rows[0].items()}
    for k in keys:
        new[k] = _fresh_key(rows, k, families.get(k, "text"))
    for cols in data.uniques.get(table, []) if data is not None else []:
        for c in cols:  # a copy of the row would break a unique constraint
            new[c] = _fresh_value(rows, c, families.get(c, "text"))
    return new


def _ambiguous(inputs, base: dict[str, Value], data: DataView, hint: set[str]) -> list[Statement]:
    """Every row given the value the typical call looks up, in a column a parameter is about that
    is no key (a last name): the lookup finds too many rows (TOO_MANY_ROWS). A unique column
    refuses the change, and the candidate is dropped."""
    out = []
    for p in inputs:
        column = data.column_for(p, hint)
        if column is None or base[p.name].is_null or column[1] in data.keys.get(column[0], []):
            continue
        if column[1] in data.columns.get(column[0], []):
            out.append(_set(column[0], {column[1]: base[p.name]}))
    return out


def _set(table: str, values: dict[str, Value]) -> Statement:
    ora = ", ".join(f"{oracle_ident(c)} = {v.oracle}" for c, v in values.items())
    pg = ", ".join(f"{quote_ident(c)} = {v.pg}" for c, v in values.items())
    return Statement(oracle=f"UPDATE {oracle_ident(table)} SET {ora}", postgres=f"UPDATE {quote_ident(table)} SET {pg}")


def _distinct_keys(inputs, options: dict[str, list[Value]], data: DataView, hint: set[str]) -> None:
    """Two parameters about the same key column (from/to account, old/new department) start from
    different existing rows: with the same one, most calls stop at a "same account" check."""
    used: dict[tuple[str, str], set[str]] = {}
    for p in inputs:
        column = data.column_for(p, hint)
        vals = options[p.name]
        if column is None or len(vals) < 2:
            continue
        taken = used.setdefault(column, set())
        fresh = next((v for v in vals if not v.is_null and v.oracle not in taken), None)
        if fresh is not None and fresh is not vals[0]:
            vals.remove(fresh)
            vals.insert(0, fresh)
        taken.add(vals[0].oracle)


def _equal_pairs(
    target: Target, inputs, options: dict[str, list[Value]], base: dict[str, Value]
) -> list[dict[str, Value]]:
    """Two parameters the body compares, given one value (a transfer to the same account, a move
    within one department) and each other's (`p_from < p_to` from the other side): the typical
    call with the second set to the first's value, then with the two swapped."""
    family = {p.name: p.family for p in inputs}
    out = []
    for a, b in target.compared:
        if a not in base or b not in base or family[a] != family[b]:
            continue
        value = next((v for v in [base[a], *options[a]] if not v.is_null), None)
        if value is not None:
            out.append({**base, a: value, b: value})
        if not base[a].is_null and not base[b].is_null and base[a].oracle != base[b].oracle:
            out.append({**base, a: base[b], b: base[a]})
    return out


def _apart_from_row(target: Target, data: DataView, inputs, options: dict[str, list[Value]]) -> None:
    """The typical call does not give a parameter the value the body compares it with in the row
    another parameter selects (a transfer into the department the employee is in already): with
    it, most calls stop at that check, and every one-parameter variation of the rest does too.
    That call is made by `_row_relative`; the typical one takes the parameter's next value."""
    base = {name: vals[0] for name, vals in options.items()}
    for p, call, value in _row_values(target, data, inputs, base, held_only=True):
        vals = options[p.name]
        if call != base or literal(value, p.family).oracle != base[p.name].oracle:
            continue  # (another key's row, or the typical value differs already)
        others = [v for v in vals[1:] if not v.is_null and v.oracle != base[p.name].oracle]
        # another value the data holds (an existing department), not a missing one
        other = next((v for v in others if v.source == "data"), None)
        if other is not None:
            vals.remove(other)
            vals.insert(0, other)
            base[p.name] = other


def _row_values(target: Target, data: DataView, inputs, base: dict[str, Value], held_only: bool = False):
    """(parameter, the call with the row's key, the row's value): for a parameter the body
    compares with a column of the row another parameter selects by its table's key — the
    typical key's row when it was read, else the first row read (the call then takes its key).
    `held_only`: only columns compared through a variable holding the row's value (a check in
    the code; `WHERE dept_id = p_from_dept` is a match the typical call should make)."""
    for p in inputs:
        if p.family not in ("number", "text", "date") or not p.compared_with:
            continue
        for k in inputs:
            column = data.column_for(k, target.deep_words) if k is not p else None
            if column is None or data.keys.get(column[0]) != [column[1]] or base[k.name].is_null:
                continue
            table, key = column
            rows = [r for r in (data.rows.get(table, []) if data.rows else []) if r.get(key) is not None]
            row = next((r for r in rows if literal(r[key], k.family).oracle == base[k.name].oracle), None)
            call = dict(base)
            if row is None and rows:
                row = rows[0]
                call[k.name] = _tag_data(literal(row[key], k.family))
            for col in p.held_with if held_only else p.compared_with:
                value = row.get(col) if row is not None and col != key else None
                if value is not None:
                    yield p, call, value


def _row_relative(target: Target, data: DataView, inputs, base: dict[str, Value],
                  most: int = 8) -> list[dict[str, Value]]:  # fmt: skip
    """A parameter the body compares with a column of the row another parameter selects
    (`SELECT wage INTO v_now ... WHERE crew_id = p_member; IF p_amount = v_now`, a transfer into
    the department the employee is in): that row's own value; for a number also 1 % either side
    of it, and it times each factor the body writes (a cap at `v_now * 1.1`) and just past that —
    other rows' values fall on either side only by chance."""
    factors = sorted({v for v in target.literals if isinstance(v, Decimal) and 0 < v < 10 and v != 1})
    out: list[dict[str, Value]] = []
    for p, call, value in _row_values(target, data, inputs, base):
        if p.family != "number" or not isinstance(value, (int, Decimal)):
            out.append({**call, p.name: _tag_data(literal(value, p.family))})
            continue
        own = Decimal(value)
        numbers = [own, *_either_side(own)]
        for f in factors:
            scaled = own * f
            numbers += [scaled, *_either_side(scaled)]
        out += [{**call, p.name: literal(v, "number")} for v in _unique_list(numbers)]
    return out[:most]


def _pairs(options: dict[str, list[Value]], base: dict[str, Value], width: int = 3) -> list[dict[str, Value]]:
    """Two parameters changed at once: branches guarded by two conditions on the data (two
    accounts in different currencies, an account and an amount it cannot cover). Alternatives
    from the export's data come first, then the others."""

    def alternatives(name: str) -> list[Value]:
        vals = options[name][1:]
        return ([v for v in vals if v.source == "data"] + [v for v in vals if v.source != "data"])[:width]

    names = list(options)
    return [{**base, a: va, b: vb} for i, a in enumerate(names) for b in names[i + 1 :]
            for va in alternatives(a) for vb in alternatives(b)]  # fmt: skip


def trigger_candidates(target: Target, data: DataView, rows: list[dict], families: dict[str, str],
                       budget: int) -> list[Candidate]:  # fmt: skip
    """DML that fires the trigger: per event, a new row (from an existing one with a new key and
    with the body's literals put into its columns), an update per column, a delete."""
    trg, table = target.trigger, target.pg_name
    keys = data.keys.get(table) or []
    out: list[Candidate] = []
    extra: list[Candidate] = []  # kept whatever they cover, beyond the budget's quarter for the classes
    nudged: list[Candidate] = []  # tried beyond the budget, kept for what they cover
    mentioned = {c for c in families if c in target.words and c not in keys}
    for event, update_cols in trg.events if trg else []:
        for n, (row, where) in enumerate(_event_rows(event, update_cols, rows, keys, families, target, data), 1):
            step = dml_step(f"{event.lower()}_{n}", table, event, row, where)
            checks = [table_check(f"after_{event.lower()}_{n}_{t}", t) for t in sorted(target.writes)]
            out.append(Candidate(step, checks, keep=n == 1 or _classy(row, rows, mentioned, event)))
        if event == "INSERT" and rows:  # the neighbours of the numbers the body compares, kept
            for n, row in enumerate(_edge_rows(rows, keys, families, target, data), 1):
                step = dml_step(f"insert_edge_{n}", table, event, row, {})
                checks = [table_check(f"after_insert_edge_{n}_{t}", t) for t in sorted(target.writes)]
                extra.append(Candidate(step, checks, keep=True))
        if event == "UPDATE" and rows and keys:  # a row's number moved just up and down, another column set
            moves = _nudged(rows, keys, families, target, update_cols) + _beside(
                rows, keys, families, target, update_cols
            )
            for n, (row, where) in enumerate(moves, 1):
                step = dml_step(f"update_nudge_{n}", table, event, row, where)
                checks = [table_check(f"after_update_nudge_{n}_{t}", t) for t in sorted(target.writes)]
                nudged.append(Candidate(step, checks, keep=False))
        if event == "UPDATE" and rows and keys:  # a row in a state no row holds, updated out of it
            for n, (ins, row, where) in enumerate(_state_moves(rows, keys, families, target, data, update_cols), 1):
                step = dml_step(f"update_state_{n}", table, event, row, where)
                checks = [table_check(f"after_update_state_{n}_{t}", t) for t in sorted(target.writes)]
                setup = [Statement(oracle=ins.oracle, postgres=ins.postgres)]
                nudged.append(Candidate(step, checks, setup, keep=False))
        if event == "DELETE" and rows:  # every row of one group (an order's last line goes too), kept
            for n, where in enumerate(_groups(rows, table, families, data), 1):
                step = dml_step(f"delete_group_{n}", table, event, {}, where)
                checks = [table_check(f"after_delete_group_{n}_{t}", t) for t in sorted(target.writes)]
                extra.append(Candidate(step, checks, keep=True))
        if event == "DELETE" and rows and keys:  # a row inserted first (no other row refers to it yet)
            new = _new_row(rows, keys, families, target, data)
            if all(not new[k].is_null for k in keys):
                ins = dml_step("setup", table, "INSERT", new, {})
                step = dml_step("delete_new", table, "DELETE", {}, {k: new[k] for k in keys})
                checks = [table_check(f"after_delete_new_{t}", t) for t in sorted(target.writes)]
                out.append(Candidate(step, checks, [Statement(oracle=ins.oracle, postgres=ins.postgres)], keep=True))
    # the classes kept whatever they cover take at most a quarter of the budget beyond the first
    # step of each event: the other events' variations need the rest
    firsts = [c for c in out if c.keep and c.step.name.endswith(("_1", "_new"))]
    classy = [c for c in out if c.keep and c not in firsts][: budget // 4]
    for c in out:
        if c.keep and c not in firsts and c not in classy:
            c.keep = False
    kept = firsts + classy + extra
    # (the moves are tried beyond the budget, as the kept classes are: they take nothing from the rest)
    return kept + nudged + _round_robin([c for c in out if not c.keep], max(0, budget - len(kept)))


def _nudged(rows, keys, families, target, update_cols, most_rows: int = 2) -> list[tuple[dict, dict]]:
    """UPDATEs moving a number the trigger reads just above and just below the row's own value.
    A condition between the old and the new value (`:NEW.salary > :OLD.salary`, a raise capped at
    `:OLD.salary * 1.1`) is decided by the row being updated, not by any value another row holds:
    other rows' values sit on one side only when they all lie beyond the cap, or below."""
    mentioned = [c for c in families if c in target.words and c not in keys and families[c] == "number"]
    mentioned = [c for c in mentioned if not update_cols or c in update_cols]
    out = []
    for col in mentioned:
        for r in _distinct_rows([r for r in rows if isinstance(r.get(col), (int, Decimal))], [col])[:most_rows]:
            for v in _either_side(Decimal(r[col])):
                out.append(({col: literal(v, "number")}, _key_of(r, keys, families)))
    return out


def _beside(rows, keys, families, target, update_cols, most: int = 8) -> list[tuple[dict, dict]]:
    """Under UPDATE OF a column, a column the body reads but the event does not name set in the
    same statement (a price changed on a product discontinued at once): the row's state the body
    tests (`:NEW.discontinued_on IS NULL`) where no row of the data holds it."""
    if not update_cols or not rows:
        return []
    mentioned = [c for c in families if c in target.words and c not in keys]
    named = [c for c in mentioned if c in update_cols]
    row = _distinct_rows(rows, named)[0]
    out = []
    for a in named:
        va = next((v for v in _update_values(rows, a, families.get(a, "text"), target)
                   if literal(row.get(a), families.get(a, "text")).oracle != v.oracle), None)  # fmt: skip
        if va is None:
            continue
        for b in [c for c in mentioned if c not in update_cols]:
            fam = families.get(b, "text")
            held = [v for v in _update_values(rows, b, fam, target) if not v.is_null][:1]
            out += [({a: va, b: vb}, _key_of(row, keys, families)) for vb in held + [NULL]
                    if literal(row.get(b), fam).oracle != vb.oracle]  # fmt: skip
    return out[:most]


def _state_moves(rows, keys, families, target, data, update_cols, most: int = 6) -> list[tuple[Step, dict, dict]]:
    """(INSERT, SET, WHERE): a new row in a state the trigger compares a column with and no row
    holds (`:OLD.state = 'RETIRED'`), then updated to each other state it names and to the first
    row's (a retired part brought back)."""
    out = []
    for col, texts in target.states.items():
        if col in keys or col not in families or families[col] != "text" or (update_cols and col not in update_cols):
            continue
        held = {r.get(col) for r in rows}
        allowed = data.checks.get((target.pg_name, col), []) if data is not None else []
        for text in [t for t in _unique_list(texts + allowed) if t not in held]:
            row = _new_row(rows, keys, families, target, data)
            row[col] = literal(text, "text")
            ins = dml_step("setup", target.pg_name, "INSERT", row, {})
            others = [t for t in texts if t != text] + [rows[0].get(col)]
            for other in _unique_list([o for o in others if o is not None])[:2]:
                out.append((ins, {col: literal(other, "text")}, {k: row[k] for k in keys}))
    return out[:most]


def _either_side(value: Decimal) -> list[Decimal]:
    """A value 1 % above and 1 % below `value` at its own scale (whole numbers stay whole), or
    one unit either side where 1 % rounds away."""
    exponent = value.as_tuple().exponent
    unit = Decimal(1).scaleb(min(exponent, 0) if isinstance(exponent, int) else 0)
    step = max(abs(value) / 100, unit).quantize(unit)
    return [value + step, value - step]


def _classy(row: dict[str, Value], rows: list[dict], mentioned: set[str], event: str) -> bool:
    """A new row with NULL in one column the trigger reads (where the row it copies has a value),
    or an update setting one such column NULL:
    kept whatever coverage it adds — a default filled in by the trigger (`NVL(:NEW.x, ...)`) is a
    branch inside one expression, which statement coverage cannot see."""
    if event == "UPDATE":  # ... or a column it reads set NULL by an update (`NVL(:NEW.x, :OLD.x)`)
        return len(row) == 1 and all(c in mentioned and v.is_null for c, v in row.items())
    if event != "INSERT" or not rows:
        return False
    nulled = [c for c in row if c in mentioned and row[c].is_null and rows[0].get(c) is not None]
    return len(nulled) == 1


def _event_rows(event, update_cols, rows, keys, families, target, data=None):
    """(row values, WHERE) pairs for one event. The columns the trigger body mentions are varied
    first, round-robin (every column's first alternative before any second), then the others."""
    if not rows:
        return []
    mentioned = [c for c in families if c in target.words and c not in keys]
    columns = mentioned + [c for c in families if c not in mentioned and c not in keys]
    if event == "DELETE":
        # the first row is often a parent others refer to: try a middle and the last one as well
        picks = [rows[-1], rows[len(rows) // 2], rows[0]]
        # ... after the rows no other row refers to (a child row would refuse the delete)
        free = [r for r in reversed(rows) if data is not None and not _referenced(r, target.pg_name, data)]
        picks = [r for i, r in enumerate(free[:2] + picks) if r not in (free[:2] + picks)[:i]]
        return [({}, _key_of(r, keys, families)) for r in picks if keys] if keys else []
    if event == "INSERT":
        new = _new_row(rows, keys, families, target, data)
        variants = [new] + [{**new, k: NULL} for k in keys]  # a key left for the trigger to fill
        for cols, parent, pcols in data.foreign.get(target.pg_name, []) if data is not None else []:
            if len(cols) == 1 and cols[0] in new:  # a row whose parent does not exist (the failing row)
                parent_rows = data.rows.get(parent, []) if data.rows else []
                orphan = {**new, cols[0]: _fresh_key(parent_rows or rows, pcols[0] if parent_rows else cols[0],
                                                     families.get(cols[0], "text"))}  # fmt: skip
                # ... and with a column the trigger reads left NULL (it looks the parent up to fill it)
                variants += [orphan] + [{**orphan, c: NULL} for c in mentioned if c != cols[0] and c in new]
        mentioned_values = {c: _literal_values(target, families[c])[:3] + [NULL] for c in mentioned if c in families}
        variants += [{**new, c: v} for c, v in _round_robin_values(mentioned_values)]
        # two columns the body reads, each set to a value it compares with or another row holds
        # (an ADJUST of 0 units, an OUT of 0)
        twos = {c: _unique_values([v for v in vals if not v.is_null][:3] + _column_values(rows, c, families[c])[:2])
                for c, vals in mentioned_values.items()}  # fmt: skip
        names = list(twos)
        variants += [{**new, a: va, b: vb} for i, a in enumerate(names) for b in names[i + 1 :]
                     for va in twos[a] for vb in twos[b]]  # fmt: skip
        others = {c: _literal_values(target, families[c])[:3] + [NULL] for c in columns
                  if c not in mentioned and c in families}  # fmt: skip
        variants += [{**new, c: v} for c, v in _round_robin_values(others)]
        return [(v, {}) for v in variants]
    if not keys:
        return []
    allowed = [c for c in columns if not update_cols or c in update_cols]
    targets_rows = _distinct_rows(rows, [c for c in allowed if c in mentioned])
    first = [c for c in allowed if c in mentioned]
    singles = []
    for group in (first, [c for c in allowed if c not in mentioned]):
        options = {c: _update_values(rows, c, families.get(c, "text"), target) for c in group}
        for c, v in _round_robin_values(options):
            singles += [
                ({c: v}, _key_of(r, keys, families))
                for r in targets_rows
                if literal(r.get(c), families.get(c, "text")).oracle != v.oracle
            ]  # not a no-op
    # two columns the body reads at once (close an account and empty it): after the first values
    # of the single-column updates
    pairs = []
    options = {c: _update_values(rows, c, families.get(c, "text"), target)[:3] for c in first}
    for i, a in enumerate(first):
        for b in first[i + 1 :]:
            pairs += [({a: va, b: vb}, _key_of(r, keys, families))
                      for va in options[a] for vb in options[b] for r in targets_rows[:2]]  # fmt: skip
    head = 2 * len(first) * len(targets_rows)
    return singles[:head] + pairs + singles[head:]


def _distinct_rows(rows: list[dict], columns: list[str], most: int = 4) -> list[dict]:
    """Up to `most` rows, the first row first, then rows that bring a value not seen yet in a
    column with few distinct values (an OPEN, a FROZEN and a CLOSED account): the states a
    trigger's conditions tell apart."""
    categorical = [c for c in columns if 1 < len({repr(r.get(c)) for r in rows}) <= 5]
    nullable = [c for c in columns if c not in categorical and len({r.get(c) is None for r in rows}) == 2]

    def state(r: dict) -> set:  # a value of a column with few, or NULL against a value (discontinued)
        return {(c, repr(r.get(c))) for c in categorical} | {(c, r.get(c) is None) for c in nullable}

    picked, seen = rows[:1], state(rows[0]) if rows else set()
    for r in rows[1:]:
        new = state(r) - seen
        if new and len(picked) < most:
            picked.append(r)
            seen |= new
    for r in rows[1:]:  # fill up with the next rows
        if len(picked) >= min(most, 3) or r in picked:
            continue
        picked.append(r)
    return picked


def _column_values(rows: list[dict], col: str, fam: str) -> list[Value]:
    return _unique_values([literal(r.get(col), fam) for r in rows if r.get(col) is not None])


def _unique_values(values: list[Value]) -> list[Value]:
    seen: set[str] = set()
    out = []
    for v in values:
        if v.oracle not in seen:
            seen.add(v.oracle)
            out.append(v)
    return out


def _new_row(rows, keys, families, target, data) -> dict[str, Value]:
    """A copy of the first row with a new key and new values in its unique columns (a copy would
    break a unique constraint before the trigger shows)."""
    return _copy_row(rows, target.pg_name, keys, families, data)


def _referenced(row: dict, table: str, data: DataView) -> bool:
    """Whether a row of another table (among those read) refers to `row` by a foreign key."""
    for child, fks in data.foreign.items():
        for cols, parent, pcols in fks:
            if parent != table:
                continue
            key = tuple(row.get(c) for c in pcols)
            if any(tuple(r.get(c) for c in cols) == key for r in (data.rows or {}).get(child, [])):
                return True
    return False


def _fresh_value(rows: list[dict], col: str, fam: str) -> Value:
    """A value no row holds in `col`, as long as the first row's (a CHAR(8) code stays 8 long)."""
    if fam != "text":
        return _fresh_key(rows, col, fam)
    held = {r.get(col) for r in rows}
    first = str(rows[0].get(col) or "") if rows else ""
    for n in range(1, 100):
        tail = f"Z{n}"
        text = (first[: -len(tail)] + tail) if len(first) > len(tail) else tail
        if text not in held and (not first or len(text) <= len(first) or not first.strip()):
            return literal(text, fam)
    return literal("SYN-KEY", fam)


def _key_of(row: dict, keys: list[str], families: dict[str, str]) -> dict[str, Value]:
    return {k: literal(row.get(k), families.get(k, "text")) for k in keys}


def _round_robin_values(options: dict[str, list[Value]]):
    depth = max((len(v) for v in options.values()), default=0)
    for k in range(depth):
        for column, values in options.items():
            if k < len(values):
                yield column, values[k]


def _fresh_key(rows, key, fam) -> Value:
    values = [r.get(key) for r in rows if r.get(key) is not None]
    if fam == "number" and values:
        return literal(max(values) + 1000, fam)
    return literal("SYN-KEY", fam) if fam == "text" else NULL


def _literal_values(target: Target, fam: str) -> list[Value]:
    if fam == "number":  # RAISE_APPLICATION_ERROR codes are not values the code compares
        return [literal(v, fam) for v in target.literals if not isinstance(v, str) and not -20999 <= v <= -20000]
    if fam == "text":
        return [literal(v, fam) for v in target.literals if isinstance(v, str) and len(v) <= 40]
    return []


def _update_values(rows, col, fam, target) -> list[Value]:
    held = [r.get(col) for r in rows if r.get(col) is not None]
    others = _column_values([r for r in rows if r.get(col) != rows[0].get(col)], col, fam) + _column_values(
        rows[:1], col, fam
    )
    # another row's value (the first row's too: an update of a row that differs), the body's
    # literals, the type's largest and smallest (a raise, a cut where a trigger forbids
    # lowering), NULL, then the rest; a text longer than the column holds only last
    longest = max((len(v) for v in held if isinstance(v, str)), default=0)
    fits = [v for v in boundaries(fam) if fam != "text" or len(v.oracle) - 2 <= max(longest, 1)]
    vals = (
        others[:2]
        + _literal_values(target, fam)[:2]
        + fits[-1:]
        + fits[:1]
        + [NULL]
        + others[2:]
        + boundaries(fam)[-1:]
    )
    seen, out = set(), []
    for v in vals:
        if v.oracle not in seen:
            seen.add(v.oracle)
            out.append(v)
    return out


def _round_robin(cands: list[Candidate], budget: int) -> list[Candidate]:
    """Interleave the events' candidates so a small budget still fires every event."""
    groups: dict[str, list[Candidate]] = {}
    for c in cands:
        groups.setdefault(c.step.name.split("_")[0], []).append(c)
    out: list[Candidate] = []
    while len(out) < budget and any(groups.values()):
        for g in groups.values():
            if g and len(out) < budget:
                out.append(g.pop(0))
    return out


def variable_candidates(target: Target) -> list[Candidate]:
    """A package variable read as it starts (its default, the package's initialisation); a
    variable also set to NULL, to its default's kind of value and to a typical value of its
    family, each read back (a number with decimals, a date with a time: what a text round trip
    of the converted state may lose). All kept: a getter has no branch to tell them apart."""
    out = [Candidate(variable_step("read", target), keep=True)]
    if target.constant:
        return out
    fam = target.return_family or "other"
    values = _unique_values([NULL, *_literal_values(target, fam), *boundaries(fam)[4:6], *boundaries(fam)[:1]])
    for n, v in enumerate(values[:4], 1):
        out.append(Candidate(variable_step(f"set_{n}_{v.label}", target, v), keep=True))
    return out


METHOD_KEPT = 8


def method_candidates(target: Target, data: DataView, budget: int) -> list[Candidate]:
    """An object type method's calls: the typical values of its parameters and, for a MEMBER,
    of the object's attributes; then each input varied alone, round-robin over the inputs
    (every input's first alternative before any second). The first call, and the first with
    each input NULL (an atomically NULL attribute, a NULL argument), are kept whatever they
    cover, and so are the first METHOD_KEPT variations: a method is short, its branches often
    inside one expression (NVL, a SUBSTR bound) where coverage cannot tell calls apart, and its
    calls share one scenario (cheap to keep). Coverage and new results choose among the rest."""
    inputs = list(target.params) + (target.attributes if target.flavour == "MEMBER" else [])
    options = {p.name: candidates(p, target, data) or [NULL] for p in inputs}
    base = {name: vals[0] for name, vals in options.items()}
    out = [Candidate(method_step("call", target, base), keep=True, values=base)]
    for name, value in _round_robin_values({n: vals[1:] for n, vals in options.items()}):
        values = {**base, name: value}
        keep = value.is_null or len(out) < METHOD_KEPT
        out.append(Candidate(method_step(f"call_{len(out)}", target, values), keep=keep, values=values))
    if target.params:  # positional, as most code calls a method
        out.insert(1, Candidate(method_step("positional", target, base, named=False), keep=True, values=base))
    return out[:budget]


def view_candidates(target: Target, data: DataView | None = None) -> list[Candidate]:
    """The view's rows; then, for each table it reads that refers to another one it reads, the
    rows of one parent detached first (a department without employees: an outer join's NULLs,
    a SUM of nothing) — kept whatever they show, a view has no statements to cover."""
    out = [Candidate(view_step("rows", target))]
    if data is None:
        return out
    for child in sorted(target.reads):
        for cols, parent, _pcols in data.foreign.get(child, []):
            held = [r.get(cols[0]) for r in data.rows.get(child, []) if r.get(cols[0]) is not None]
            if len(cols) != 1 or parent not in target.reads or not held:
                continue
            key = literal(held[0], "number" if isinstance(held[0], (int, Decimal)) else "text")
            col = cols[0]
            setup = Statement(oracle=f"UPDATE {oracle_ident(child)} SET {oracle_ident(col)} = NULL WHERE {oracle_ident(col)} = {key.oracle}",
                              postgres=f"UPDATE {quote_ident(child)} SET {quote_ident(col)} = NULL WHERE {quote_ident(col)} = {key.pg}")  # fmt: skip
            out.append(Candidate(view_step(f"rows_without_{child}_{len(out)}", target), setup=[setup], keep=True))
    out = out[:4]
    # a column the view reads through NVL / COALESCE set NULL in every row: the replacement shows
    # (a refused change, NOT NULL, drops the candidate)
    for table in sorted(target.reads):
        keys = set(data.keys.get(table, []))
        for col in sorted(target.defaulted & set(data.columns.get(table, [])) - keys):
            if len(out) < 7:
                out.append(Candidate(view_step(f"rows_{table}_{col}_null", target), setup=[_set(table, {col: NULL})],
                                     keep=True))  # fmt: skip
    return out


def as_scenarios(
    target: Target, cands: list[Candidate], sid: str, user: str | None = None, seed: Sequence[Statement] = ()
) -> list[tuple[Scenario, list[Candidate]]]:
    """The scenarios that run `cands`, each with the candidates it holds: one per candidate for a
    target that writes and for every candidate that changes data first; the other candidates of
    a read-only target share one scenario (one database copy) as its steps. `seed`: set up
    first in every scenario (rows for the export's empty tables, migrator.evidence.seed_rows)."""
    own = [c for c in cands if target.mutates or target.kind == "trigger" or c.setup]
    shared = [c for c in cands if c not in own]
    out = []
    if shared:
        steps = [c.step for c in shared] + [s for c in shared for s in c.checks]
        out.append((Scenario(id=sid, units=list(target.units), fixed_date=FIXED_DATE, session_user=user,
                             setup=list(seed), steps=steps), shared))  # fmt: skip
    for n, c in enumerate(own, 1):
        sc = Scenario(id=f"{sid}.{n}", units=list(target.units), fixed_date=FIXED_DATE, session_user=user, setup=[*seed, *c.setup],
                      steps=[c.step, *c.checks])  # fmt: skip
        out.append((sc, [c]))
    return out


def copies(target: Target, data: DataView, families) -> list[Statement]:
    """Every row of the tables the code names copied once, with new keys (a number key moved up
    by a power of ten above its largest value, a text key's first character made 'Z', the same
    for each UNIQUE constraint's first column when the key does not change) and the foreign keys
    into a copied table moved along with it: twice the data, so that a limit or a count that the
    export's few rows never reach (`p_limit DEFAULT 5` over five products) shows. Parents are
    copied before the tables that refer to them; a table with no rows is left alone."""
    tables = [t for t in sorted(target.reads) if data.rows.get(t) and data.columns.get(t)]
    order: list[str] = []
    pending = list(tables)
    while pending:  # parents first (a cycle: in name order)
        ready = [t for t in pending
                 if not any(p in pending and p != t for _c, p, _pc in data.foreign.get(t, []))]  # fmt: skip
        nxt = ready[0] if ready else pending[0]
        order.append(nxt)
        pending.remove(nxt)
    moved: dict[tuple[str, str], int | None] = {}  # (table, column) -> the number added, None: text 'Z'

    def shift(table: str, column: str) -> int | None:
        """How a number key of `table` is made new: the number added (a text's: None)."""
        if families(table).get(column) != "number":
            return None
        held = [abs(Decimal(str(r[column]))) for r in data.rows[table] if r.get(column) is not None]
        return 10 ** len(str(int(max(held)))) if held else 1000

    def render(column: str, how: int | None, side: str) -> str:
        name = oracle_ident(column) if side == "oracle" else quote_ident(column)
        return f"{name} + {how}" if how is not None else f"'Z' || SUBSTR({name}, 2)"

    out = []
    for table in order:
        exprs: dict[str, int | None] = {}  # column -> how it is made new (a foreign key: as its parent's key)
        for cols, parent, pcols in data.foreign.get(table, []):
            for c, pc in zip(cols, pcols):
                if (parent, pc) in moved and parent != table:
                    exprs[c] = moved[(parent, pc)]
        keys = data.keys.get(table, [])
        for n, group in enumerate([keys] + data.uniques.get(table, [])):
            if group and not any(c in exprs for c in group):
                for c in group if n == 0 else group[:1]:
                    if families(table).get(c) not in ("number", "text"):
                        break  # (a date key: left as it is, the copy refused)
                    exprs[c] = moved[(table, c)] = shift(table, c)
        for c in keys:  # a key moved along with its parent's is moved
            if c in exprs:
                moved.setdefault((table, c), exprs[c])
        cols = data.columns[table]
        ora = [render(c, exprs[c], "oracle") if c in exprs else oracle_ident(c) for c in cols]
        pg = [render(c, exprs[c], "pg") if c in exprs else quote_ident(c) for c in cols]
        out.append(Statement(
            oracle=f"INSERT INTO {oracle_ident(table)} ({', '.join(oracle_ident(c) for c in cols)}) "
                   f"SELECT {', '.join(ora)} FROM {oracle_ident(table)}",
            postgres=f"INSERT INTO {quote_ident(table)} ({', '.join(quote_ident(c) for c in cols)}) "
                     f"SELECT {', '.join(pg)} FROM {quote_ident(table)}",
        ))  # fmt: skip
    return out


def _edges(target: Target) -> list[Value]:
    """The neighbours of the numbers the body writes that are not themselves among them (`<= 0`
    differs from `<= 1` at 1 only): each number's successor first, then its predecessor."""
    numbers = [v for v in target.literals if isinstance(v, Decimal) and not -20999 <= v <= -20000]
    near = [n + 1 for n in numbers] + [n - 1 for n in numbers]
    return _unique_values([literal(n, "number") for n in near if n not in numbers])


def _edge_rows(rows, keys, families, target, data, most: int = 6) -> list[dict[str, Value]]:
    """New rows with a number column the trigger reads set to a neighbour of a number its body
    writes, each with the text values another column it reads takes: the body's literals that
    fit the column, then one the export holds that is none of them (the CASE's ELSE). A trigger
    that checks `quantity <= 0` per movement type shows a mutated bound only with a quantity of
    1 of each type; such a row behaves as others do, so it is kept whatever it covers."""
    edges = _edges(target)
    mentioned = [c for c in families if c in target.words and c not in keys]
    numbers = [c for c in mentioned if families[c] == "number"]
    if not edges or not numbers:
        return []
    new = _new_row(rows, keys, families, target, data)
    partners: list[tuple[str, Value]] = []
    for c in mentioned:
        if families[c] != "text" or c in numbers:
            continue
        held = _column_values(rows, c, "text")
        longest = max((len(v.oracle) for v in held), default=0)
        fits = [v for v in _literal_values(target, "text") if len(v.oracle) <= longest]
        others = [v for v in held if v.oracle not in {f.oracle for f in fits}]
        partners += [(c, v) for v in _unique_values(fits[:3] + others[:1])]
    out: list[dict[str, Value]] = []
    seen: set[tuple] = set()
    for column in numbers:
        for edge in edges:
            for row in [{**new, column: edge}] + [{**new, column: edge, c: v} for c, v in partners]:
                sig = tuple(v.oracle for v in row.values())
                if sig not in seen:
                    seen.add(sig)
                    out.append(row)
    return out[:most]


def _groups(rows: list[dict], table: str, families: dict[str, str], data, most: int = 2) -> list[dict[str, Value]]:
    """WHERE clauses that delete every row sharing one foreign key value (all the lines of an
    order): the values of the last row and of the first, per foreign key, at most `most`."""
    out: list[dict[str, Value]] = []
    for cols, _parent, _pcols in data.foreign.get(table, []) if data is not None else []:
        for r in (rows[-1], rows[0]):
            where = {c: literal(r.get(c), families.get(c, "text")) for c in cols}
            if len(out) < most and where not in out and not any(v.is_null for v in where.values()):
                out.append(where)
    return out


_NOW = {"sysdate", "systimestamp", "current_date", "current_timestamp", "localtimestamp"}


def add_months(day: dt.datetime, months: int) -> dt.datetime:
    """Oracle's ADD_MONTHS: the same day `months` later, the month's last day when it has fewer
    days (or when `day` is the last day of its month)."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    at_end = day.day == calendar.monthrange(day.year, day.month)[1]
    return day.replace(year=year, month=month + 1, day=last if at_end else min(day.day, last))


def around_frozen_date(target: Target, data: DataView, families, most: int = 2) -> list[Statement]:
    """For code that compares the data's dates with SYSDATE (frozen in every scenario) moved by a
    number it writes — a default `p_inactive_months DEFAULT 24` among them: every date column the
    code names of a table it reads set, in every row, to the frozen day moved back by that many
    months (`ADD_MONTHS`) or days, one day before and one day after (24 months and a day is
    dormant, 24 months less a day is not; 25 months would tell neither apart). All the date
    columns of a table at once: `NVL(last_activity, opened_on)` reads the second only when the
    first is NULL. Up to `most` changes, the first numbers first."""
    if not _NOW & target.deep_words:
        return []
    numbers = _unique_values([literal(n, "number") for n in target.literals if isinstance(n, Decimal)
                              and n == int(n) and 1 <= n <= 1200])[:2]  # fmt: skip
    units = (["months"] if "add_months" in target.deep_words else []) + ["days"]
    frozen = dt.datetime.strptime(FIXED_DATE, "%Y-%m-%d %H:%M:%S").replace(hour=0, minute=0, second=0)
    shifts = []
    for n in numbers:
        back = int(n.oracle)
        for unit in units:
            day = add_months(frozen, -back) if unit == "months" else frozen - dt.timedelta(days=back)
            shifts += [day - dt.timedelta(days=1), day + dt.timedelta(days=1)]
    out: list[Statement] = []
    for table in sorted(target.reads):
        keys = set(data.keys.get(table, []))
        cols = [c for c in data.columns.get(table, []) if c in target.deep_words and c not in keys
                and families(table).get(c) == "date"]  # fmt: skip
        if cols:
            out += [_set(table, {c: literal(day, "date") for c in cols}) for day in shifts]
    return out[:most]
