"""Decode one export file: UTF-8, UTF-8 with BOM, or a legacy single-byte code page.

Oracle exports made on Windows clients are often cp1252 (smart quotes, €, é in comments and
literals). A file that is not valid UTF-8 is read as cp1252; the five bytes cp1252 leaves
undefined (0x81 0x8D 0x8F 0x90 0x9D) are read as latin-1 would read them (U+0081 ...), so every
byte still maps to exactly one character and nothing is dropped or replaced.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

UTF8 = "utf-8"
UTF8_BOM = "utf-8-sig"
CP1252 = "cp1252"
LATIN1 = "latin-1"

_ERROR_HANDLER = "migrator-cp1252-latin1"


def _latin1_fallback(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    undefined = exc.object[exc.start : exc.end]
    return undefined.decode(LATIN1), exc.end


codecs.register_error(_ERROR_HANDLER, _latin1_fallback)


@dataclass(frozen=True)
class Decoded:
    text: str  # without the BOM; spans index this text
    encoding: str  # UTF8, UTF8_BOM, CP1252 or LATIN1
    note: str  # why this encoding was chosen ("" for plain UTF-8)


def decode_bytes(data: bytes) -> Decoded:
    """Detect and decode; never fails and never replaces a byte."""
    if data.startswith(codecs.BOM_UTF8):
        try:
            return Decoded(data[3:].decode(UTF8), UTF8_BOM, "UTF-8 with byte-order mark")
        except UnicodeDecodeError as exc:
            return _legacy(data, f"starts with a UTF-8 BOM but is not valid UTF-8 ({exc.reason})")
    try:
        return Decoded(data.decode(UTF8), UTF8, "")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return _legacy(data, f"not valid UTF-8 (first bad byte on line {line})")


def _legacy(data: bytes, why: str) -> Decoded:
    try:
        return Decoded(data.decode(CP1252), CP1252, f"{why}; decoded as cp1252")
    except UnicodeDecodeError:
        undefined = sum(data.count(bytes([b])) for b in (0x81, 0x8D, 0x8F, 0x90, 0x9D))
        text = data.decode(CP1252, errors=_ERROR_HANDLER)
        note = f"{why}; decoded as cp1252 with {undefined} byte(s) undefined there read as latin-1"
        return Decoded(text, LATIN1, note)


# Control characters other than whitespace, mapped to None (deleted) for a fast count.
_CONTROLS = {c: None for c in range(32) if chr(c) not in "\t\n\r\f\v"}


def looks_binary(text: str) -> bool:
    """Many control characters (NUL among them): not a text script at all. A stray NUL in a
    script is not enough: the reader rejects only the statement that holds it."""
    sample = text[:8192]
    if not sample:
        return False
    controls = len(sample) - len(sample.translate(_CONTROLS))
    return controls / len(sample) > 0.05
