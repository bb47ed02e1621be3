"""Boundary records: frozen, extra fields refused, rule forms validated, one text serialization."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from knowledge_base import Approval, Correction, Experience, KBConfig, Rule
from knowledge_base.records import entry_text


def test_records_are_frozen_and_strict():
    e = Experience(polarity="+", context="c")
    with pytest.raises(ValidationError):
        e.context = "changed"
    with pytest.raises(ValidationError):
        Experience(polarity="+", context="c", reference_text="the target itself")
    with pytest.raises(ValidationError):
        Experience(polarity="0", context="c")
    with pytest.raises(ValidationError):
        Experience(polarity="+", context="c", tier="G4")
    with pytest.raises(ValidationError):
        KBConfig(dense_weight=0.8, lexical_weight=0.25)
    with pytest.raises(ValidationError):
        KBConfig(surprise=1)


def test_rule_forms_and_approval():
    with pytest.raises(ValidationError):
        Rule(construct_id="c", idiom="i", form="rule_id")
    with pytest.raises(ValidationError):
        Rule(construct_id="c", idiom="i")
    assert Rule(construct_id="c", idiom="i", form="rule_id", rule_id="expr.nvl").status == "candidate"
    with pytest.raises(ValidationError):
        Approval(approved_by="", approved_at="now", reference="FIX-1")
    with pytest.raises(ValidationError):
        Approval(approved_by="a", approved_at="now", reference="FIX-1", decision="hold")


def test_entry_text_is_the_one_serialization():
    rule = Rule(construct_id="c1", idiom="i1", paragraph="para", failure_type="ft")
    assert entry_text(rule) == "ft\nc1\ni1\npara"
    corr = Correction(construct_id="c2", context="ctx", fix="fx")
    assert entry_text(corr) == "c2\nctx\nfx"
    exp = Experience(polarity="-", context="ctx", output="out", constructs=("a", "b"), strategy="s")
    assert entry_text(exp) == "a b\ns\nctx\nout"
