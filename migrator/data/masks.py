"""Oracle datetime format masks (`TO_DATE('01/09/2018', 'DD/MM/YYYY')`) read into PostgreSQL's
ISO text, which COPY takes for `timestamp`, `timestamptz` and `date` columns alike.

A mask compiles once into a regular expression (cached per mask). Oracle matches separators
loosely (any punctuation for any punctuation, `FX` aside), and so does this. What is not a valid
date (month 13, 30 February) raises `BadValue`: the row is rejected with that reason, never loaded
as something else.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache

from migrator.errors import MigratorError


class BadValue(MigratorError):
    """A literal that cannot become a value of its column (bad date, bad number): the row is rejected."""


# Oracle's default NLS_DATE_FORMAT; TO_DATE without a mask reads its string with it.
DEFAULT_DATE_MASK = "DD-MON-RR"
DEFAULT_TIMESTAMP_MASK = "DD-MON-RR HH.MI.SSXFF AM"
DEFAULT_TIMESTAMP_TZ_MASK = "DD-MON-RR HH.MI.SSXFF AM TZR"
_MONTHS = ["JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER",
           "NOVEMBER", "DECEMBER"]  # fmt: skip
_MONTH_NUMBER = {m[:3]: i + 1 for i, m in enumerate(_MONTHS)} | {m: i + 1 for i, m in enumerate(_MONTHS)}
# Mask elements, longest first so that `HH24` is not read as `HH` + `24`.
_ELEMENTS = [
    ("SYYYY", r"(?P<year>-?\d{1,4})"), ("YYYY", r"(?P<year>\d{1,4})"), ("RRRR", r"(?P<year>\d{1,4})"),
    ("YYY", r"(?P<year3>\d{1,3})"), ("YY", r"(?P<yy>\d{1,2})"), ("RR", r"(?P<rr>\d{1,2})"),
    ("MONTH", r"(?P<mon>[A-Za-z]+)"), ("MON", r"(?P<mon>[A-Za-z]{3})"), ("MM", r"(?P<month>\d{1,2})"),
    ("DDD", r"(?P<doy>\d{1,3})"), ("DAY", r"[A-Za-z]+"), ("DY", r"[A-Za-z]{2,3}"), ("DD", r"(?P<day>\d{1,2})"),
    ("HH24", r"(?P<hour24>\d{1,2})"), ("HH12", r"(?P<hour12>\d{1,2})"), ("HH", r"(?P<hour12>\d{1,2})"),
    ("MI", r"(?P<minute>\d{1,2})"), ("SSSSS", r"(?P<sssss>\d{1,5})"), ("SS", r"(?P<second>\d{1,2})"),
    ("FF", r"(?P<frac>\d{1,9})"), ("X", r"[.,]"),
    ("A.M.", r"(?P<ampm>[AaPp]\.?[Mm]\.?)"), ("P.M.", r"(?P<ampm>[AaPp]\.?[Mm]\.?)"),
    ("AM", r"(?P<ampm>[AaPp]\.?[Mm]\.?)"), ("PM", r"(?P<ampm>[AaPp]\.?[Mm]\.?)"),
    ("TZH", r"(?P<tzh>[+-]?\d{1,2})"), ("TZM", r"(?P<tzm>\d{2})"),
    ("TZR", r"(?P<tzr>[A-Za-z][A-Za-z0-9_/+-]*|[+-]\d{1,2}:\d{2})"), ("TZD", r"(?:[A-Za-z]{2,5})?"),
]  # fmt: skip
_PUNCT = re.compile(r"[^A-Za-z0-9\"]+")


@lru_cache(maxsize=256)
def _compile(mask: str) -> re.Pattern[str]:
    parts: list[str] = []
    seen: set[str] = set()
    i, up = 0, mask.upper()
    while i < len(mask):
        if up.startswith(("FM", "FX"), i):
            i += 2
            continue
        if mask[i] == '"':  # quoted literal text
            end = mask.find('"', i + 1)
            end = len(mask) if end < 0 else end
            parts.append(re.escape(mask[i + 1 : end]))
            i = end + 1
            continue
        if (m := _PUNCT.match(mask, i)) is not None:
            parts.append(r"[^A-Za-z0-9]*" if m.group().strip() else r"\s*")
            i = m.end()
            continue
        for name, pattern in _ELEMENTS:
            if up.startswith(name, i):
                i += len(name)
                if name == "FF" and i < len(mask) and mask[i].isdigit():
                    i += 1
                group = re.search(r"\?P<(\w+)>", pattern)
                if group and group.group(1) in seen:  # the same field twice: match it, keep the first
                    pattern = re.sub(r"\?P<\w+>", "?:", pattern)
                elif group:
                    seen.add(group.group(1))
                parts.append(pattern)
                break
        else:
            raise BadValue(f"format mask {mask!r}: element at {mask[i:]!r} is not supported")
    return re.compile(r"\s*" + "".join(parts) + r"\s*", re.IGNORECASE)


# The fast path: masks made only of these elements (and literal separators) read text that is
# written exactly as the mask says — every field at its full width, the separators the mask's
# own — with one strict expression whose groups are already the output's digits. It accepts a
# subset of what the general expression accepts and gives the same text for it (the general
# expression is greedy and these are its widest matches); anything else takes the general path.
_FAST_FIELDS = {
    "YYYY": ("year", r"(\d{4})"), "RRRR": ("year", r"(\d{4})"), "RR": ("rr", r"(\d{2})"),
    "MM": ("month", r"(0[1-9]|1[0-2])"), "MON": ("mon", r"([A-Za-z]{3})"), "DD": ("day", r"(0[1-9]|[12]\d|3[01])"),
    "HH24": ("hour", r"([01]\d|2[0-3])"), "MI": ("minute", r"([0-5]\d)"), "SS": ("second", r"([0-5]\d)"),
    "FF": ("frac", r"(\d{1,9})"), "TZH": ("tzh", r"([+-]\d\d)"), "TZM": ("tzm", r"([0-5]\d)"),
}  # fmt: skip
_MONTH_DIGITS = {m[:3]: f"{i + 1:02d}" for i, m in enumerate(_MONTHS)}
_DAYS_IN = (0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


@lru_cache(maxsize=256)
def _fast_plan(mask: str) -> tuple[re.Pattern[str], dict[str, int]] | None:
    """The strict expression of `mask` and the group of each field, or None (not a simple mask)."""
    parts: list[str] = []
    fields: dict[str, int] = {}
    i, up = 0, mask.upper()
    while i < len(mask):
        if up.startswith(("FM", "FX"), i):
            i += 2
            continue
        if (m := _PUNCT.match(mask, i)) is not None:
            if '"' in m.group():
                return None
            parts.append(re.escape(m.group()))
            i = m.end()
            continue
        name = next((n for n, _ in _ELEMENTS if up.startswith(n, i)), None)
        if name is None or name not in _FAST_FIELDS:
            return None
        i += len(name)
        if name == "FF" and i < len(mask) and mask[i].isdigit():
            i += 1
        field, pattern = _FAST_FIELDS[name]
        if field in fields or (field in ("year", "rr") and ("year" in fields or "rr" in fields)):
            return None
        fields[field] = len(fields) + 1
        parts.append(pattern)
    if "year" not in fields and "rr" not in fields:
        return None  # the current year: the general path
    return re.compile("".join(parts)), fields


def _read_fast(text: str, mask: str, with_zone: bool) -> str | None:
    reader = _fast_reader(mask, with_zone)
    return reader(text) if reader is not None else None


@lru_cache(maxsize=256)
def _fast_reader(mask: str, with_zone: bool):
    """The fast path of one mask as a function of the text (None: not a simple mask): the plan's
    group numbers are looked up once here, not at every value (a large export reads millions)."""
    plan = _fast_plan(mask)
    if plan is None:
        return None
    fullmatch, f = plan[0].fullmatch, plan[1]
    year_at, rr_at = f.get("year"), f.get("rr", 0)  # a plan has one of the two (_fast_plan)
    mon_at, month_at = f.get("mon"), f.get("month")
    day_at, hour_at, minute_at, second_at = f.get("day"), f.get("hour"), f.get("minute"), f.get("second")
    frac_at, tzh_at, tzm_at = f.get("frac"), f.get("tzh"), f.get("tzm")
    months, days_in = _MONTH_DIGITS, _DAYS_IN

    def read(text: str) -> str | None:
        m = fullmatch(text)
        if m is None:
            return None
        g = m.group
        if year_at is not None:
            year = g(year_at)
            if year == "0000":
                return None
        else:
            rr = int(g(rr_at))
            year = str((2000 if rr < 50 else 1900) + rr)
        if mon_at is not None:
            month = months.get(g(mon_at).upper())
            if month is None:
                return None
        else:
            month = g(month_at) if month_at is not None else "01"
        day = g(day_at) if day_at is not None else "01"
        if day > "28":
            n, d, y = int(month), int(day), int(year)
            if d > days_in[n] or (n == 2 and d == 29 and not (y % 4 == 0 and (y % 100 != 0 or y % 400 == 0))):
                return None  # the general path says why
        out = (f"{year}-{month}-{day} {g(hour_at) if hour_at is not None else '00'}:"
               f"{g(minute_at) if minute_at is not None else '00'}:{g(second_at) if second_at is not None else '00'}")  # fmt: skip
        if frac_at is not None:
            out += "." + g(frac_at)
        if with_zone:
            if tzh_at is not None:
                out += f" {g(tzh_at)}:{g(tzm_at) if tzm_at is not None else '00'}"
            else:
                out += " UTC"
        return out

    return read


def read_datetime(text: str, mask: str, with_zone: bool = False) -> str:
    """The ISO text of `text` read with Oracle mask `mask`: 'YYYY-MM-DD HH:MI:SS[.ffffff][ zone]'."""
    reader = _fast_reader(mask, with_zone)
    if reader is not None and (fast := reader(text)) is not None:
        return fast
    m = _compile(mask).fullmatch(text)
    if m is None:
        raise BadValue(f"{text!r} does not match the format {mask!r}")
    g = {k: v for k, v in m.groupdict().items() if v is not None}
    year = _year(g)
    month = int(g["month"]) if "month" in g else 1
    if "mon" in g:
        month = _MONTH_NUMBER.get(g["mon"].upper(), 0)
        if not month:
            raise BadValue(f"{g['mon']!r} is not a month name")
    day = int(g.get("day", 1))
    hour = int(g.get("hour24", 0))
    if "hour12" in g:
        hour = int(g["hour12"]) % 12
        if not 1 <= int(g["hour12"]) <= 12:
            raise BadValue(f"hour {g['hour12']} is not between 1 and 12")
        if g.get("ampm", "a")[0].lower() == "p":
            hour += 12
    minute, second = int(g.get("minute", 0)), int(g.get("second", 0))
    if "sssss" in g:
        secs = int(g["sssss"])
        hour, minute, second = secs // 3600, secs // 60 % 60, secs % 60
    try:
        when = dt.datetime(year, month, day, hour, minute, second)
        if "doy" in g:
            when = dt.datetime(year, 1, 1, hour, minute, second) + dt.timedelta(days=int(g["doy"]) - 1)
    except ValueError as exc:
        raise BadValue(f"{text!r} read with {mask!r}: {exc}") from None
    out = when.strftime("%Y-%m-%d %H:%M:%S") if year >= 1000 else f"{year:04d}" + when.strftime("-%m-%d %H:%M:%S")
    if "frac" in g:
        out += "." + g["frac"]
    if with_zone:
        out += " " + _zone(g)
    return out


def _year(g: dict[str, str]) -> int:
    if "year" in g:
        year = int(g["year"])
    elif "year3" in g:
        year = 2000 + int(g["year3"]) % 1000
    elif "rr" in g:  # RR: 00-49 is this century, 50-99 the last (for a current year below 2050)
        rr = int(g["rr"])
        year = (2000 if rr < 50 else 1900) + rr if len(g["rr"]) <= 2 else rr
    elif "yy" in g:
        year = 2000 + int(g["yy"])
    else:
        year = dt.date.today().year
    if year <= 0 or year > 9999:
        raise BadValue(f"year {year} is out of range")
    return year


def _zone(g: dict[str, str]) -> str:
    if "tzr" in g:
        return g["tzr"]
    if "tzh" in g:
        h = int(g["tzh"])
        sign = "-" if g["tzh"].startswith("-") else "+"
        return f"{sign}{abs(h):02d}:{int(g.get('tzm', 0)):02d}"
    return "UTC"  # Oracle takes the session zone; the export's session is not known, UTC is said in the docs
