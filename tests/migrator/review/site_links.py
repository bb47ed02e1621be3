"""Every link of a static site resolves: files exist, anchors name an element, table states point
at a page with the unit table. Shared by the review tests (static and in the browser)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)
            if name == "id" and value is not None:
                self.ids.add(value)


def parse(page: Path) -> _Collect:
    collect = _Collect()
    collect.feed(page.read_text(encoding="utf-8"))
    return collect


def broken_links(page: Path, cache: dict[Path, set[str]] | None = None) -> list[str]:
    """The links of `page` that do not resolve (empty when all do)."""
    cache = {} if cache is None else cache
    bad = []
    for link in parse(page).links:
        problem = check(page, link, cache)
        if problem:
            bad.append(f"{page.name}: {link}: {problem}")
    return bad


def check(page: Path, link: str, cache: dict[Path, set[str]]) -> str | None:
    parts = urlsplit(link)
    if parts.scheme or parts.netloc:
        return "leaves the site" if parts.scheme != "file" else None
    target = (page.parent / unquote(parts.path)).resolve() if parts.path else page.resolve()
    if not target.is_file():
        return "no such file"
    if not parts.fragment or target.suffix != ".html":
        return None
    if "=" in parts.fragment:  # a unit-table state, read by review.js
        return None if 'id="unit-table"' in target.read_text(encoding="utf-8") else "no unit table there"
    if target not in cache:
        cache[target] = parse(target).ids
    return None if unquote(parts.fragment) in cache[target] else "no such anchor"
