"""Strings built to match a source regular expression, Oracle's POSIX classes included."""

from __future__ import annotations

import re
import warnings

import pytest

from migrator.evidence.regex_samples import samples


@pytest.mark.parametrize(
    "pattern",
    [
        "^[[:digit:]]+$",
        "[[:alpha:]][[:alnum:]_]*",
        "^[[:upper:]]{2}-[[:digit:]]{3}$",
        "[[:space:]]+x",
        "^[[:xdigit:]]+$",
    ],
)
def test_posix_classes_give_strings_the_pattern_matches(pattern):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Python's parser warned (and misread) `[[:` as a nested set
        got = samples(pattern)
    python = re.sub(r"\[:digit:\]", "0-9", pattern)
    python = python.replace("[:alpha:]", "A-Za-z").replace("[:alnum:]", "0-9A-Za-z").replace("[:upper:]", "A-Z")
    python = python.replace("[:space:]", r"\s").replace("[:xdigit:]", "0-9A-Fa-f")
    assert got and all(re.search(python, s) for s in got)


def test_dot_is_tried_as_a_newline_and_as_a_letter():
    assert samples("a.b") == ["a\nb", "axb"]
