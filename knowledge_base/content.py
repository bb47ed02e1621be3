"""Content hashes: what an entry says, independent of the id it got and of its later lifecycle.

Import uses them to be idempotent: an entry whose hash is already stored is not added again, so
importing a file twice, or retrying an import that failed half-way, adds only what is missing.

- Lifecycle fields are left out: a rule's status, advisory flag, confidence and approval are
  decisions taken about it, `provenance.finalized` flips when its episode ends, and an experience's
  contraindications are learned later; none changes what it says.
- A rule's evidence ids are replaced by the evidence's own hashes: ids differ between stores, the
  evidence they point at does not.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from knowledge_base.records import Rule

RULE_LIFECYCLE = frozenset({"status", "advisory", "confidence", "approval"})


def content_hash(record, evidence_hash: Callable[[int], str]) -> str:
    """sha256 of the record's canonical JSON without lifecycle fields; `evidence_hash(id)` gives the
    hash of a rule's supporting or opposing entry (and raises KeyError for an unknown id)."""
    data = record.model_dump(mode="json")
    if isinstance(record, Rule):
        data = {k: v for k, v in data.items() if k not in RULE_LIFECYCLE}
        data["supporting"] = [evidence_hash(i) for i in record.supporting]
        data["opposing"] = [evidence_hash(i) for i in record.opposing]
    elif "contraindications" in data:
        data["contraindications"] = []  # as when it was written (hashes of older stores stay valid)
    if isinstance(data.get("provenance"), dict):
        data["provenance"] = {k: v for k, v in data["provenance"].items() if k != "finalized"}
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
