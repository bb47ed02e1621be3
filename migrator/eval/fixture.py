"""The PL/SQL evaluation fixture: a schema generated from templates, for checking the protocol.

`migrator eval make-fixture --out fixtures/eval/plsql` writes it (the committed copy is checked
against this generator by a test). Many small functions share a few constructs; the configs switch
the rules for four of them off, so rules-only fails those families (DBMS_OUTPUT and
RAISE_APPLICATION_ERROR are not converted, NVL is left to a function PostgreSQL lacks, SUBSTR with a
negative start computes the wrong thing), while a fifth family (LPAD) the rules get right. A few
*twins* repeat another unit's behaviour under another name: they share an expected output, so the
reference-grouped split keeps each pair on one side.

Besides the schema: scenarios, an authored transcript (Oracle semantics written out by hand, so at
most G2), `reference.yaml` (the trusted target per unit: the full rule set's output) and the two
test models — memory-sensitive (repairs a family only when memory shows it a verified repair of
that family, or the unit is one of the few it knows directly) and memory-blind (the same repairs
whatever memory shows, with a prompt-hash flakiness that does not depend on memory).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

SCHEMA = "evalapp"
Part = tuple[int, int | None, str | None, str, str | None]
PARTS: list[Part] = [(1, 10, "2.5", "bolt", "BX"), (2, None, "1.25", "nut", "NT"), (3, 0, None, "washer", "WS")]
PARTS += [(4, 7, "9.99", "gear", None), (5, 3, "4", "spring", "SP")]
QTY = {p[0]: p[1] for p in PARTS}
NAME = {p[0]: p[3] for p in PARTS}
WORDS = ["stock", "count", "level", "on hand", "tally", "units", "pieces", "amount"]
DISABLED = ("plsql.dbms_output", "expr.nvl", "plsql.raise_application_error", "expr.substr")
SKILLS = [  # name, unit-id pattern, evidence in a verified memory block, units known without memory
    ("dbms-output", r"\.out_", r"constructs=[^\n]*\bDBMS_OUTPUT\b", r"\.out_[12]$"),
    ("nvl", r"\.nvl_", r"constructs=[^\n]*\bNVL\b", r"\.nvl_[12]$"),
    ("raise-application-error", r"\.rae_", r"constructs=[^\n]*\bRAISE_APPLICATION_ERROR\b", r"\.rae_[12]$"),
    ("substr", r"\.sub_", r"constructs=[^\n]*\bSUBSTR\b", r"\.sub_1$"),
]
TWINS = {"out": 3, "nvl": 4, "rae": 5, "sub": 2}


@dataclass
class Fn:
    name: str
    returns: str
    var: str
    body: str
    steps: list[tuple[str, dict]]  # (argument, Oracle outcome)

    def source(self) -> str:
        column = self.var.split("_", 1)[1]
        return (
            f"CREATE OR REPLACE FUNCTION {self.name} (p_id IN NUMBER) RETURN {self.returns} IS\n"
            f"  {self.var} parts.{column}%TYPE;\nBEGIN\n"
            f"  SELECT {column} INTO {self.var} FROM parts WHERE id = p_id;\n{self.body}\nEND {self.name};\n/\n"
        )


def _out(k: int, name: str) -> Fn:
    arg, word = [1, 4, 5][k % 3], WORDS[k - 1]
    qty = QTY[arg]
    assert qty is not None  # these rows have a quantity
    body = f"  DBMS_OUTPUT.PUT_LINE('{word} ' || p_id || ' has ' || v_qty);\n  RETURN v_qty * {k};"
    return Fn(name, "NUMBER", "v_qty", body, [(str(arg), {"rows": [[qty * k]], "output": [f"{word} {arg} has {qty}"]})])


def _nvl(k: int, name: str) -> Fn:
    d = 50 + k
    body = f"  RETURN NVL(v_qty, {d}) + {k};"
    return Fn(name, "NUMBER", "v_qty", body, [("2", {"rows": [[d + k]]}), ("1", {"rows": [[10 + k]]})])


def _rae(k: int, name: str) -> Fn:
    t, code = k + 2, 20000 + k
    body = (
        f"  IF v_qty IS NULL OR v_qty < {t} THEN\n"
        f"    RAISE_APPLICATION_ERROR(-{code}, 'part ' || p_id || ' below {t}');\n  END IF;\n  RETURN v_qty - {t};"
    )
    error = {"error": {"code": f"ORA-{code}", "message": f"part 3 below {t}"}}
    return Fn(name, "NUMBER", "v_qty", body, [("1", {"rows": [[10 - t]]}), ("3", error)])


def _sub(k: int, name: str) -> Fn:
    n, arg = 2 + k % 3, [1, 3, 5, 4][k % 4]
    body = f"  RETURN SUBSTR(v_name, -{n}) || '-{k}';"
    return Fn(name, "VARCHAR2", "v_name", body, [(str(arg), {"rows": [[NAME[arg][-n:] + f"-{k}"]]})])


def _pad(k: int, name: str) -> Fn:
    w, c, arg = 8 + k, "*#.-+=~_"[k - 1], [1, 2, 3, 4, 5, 1, 3, 5][k - 1]
    body = f"  RETURN LPAD(v_name, {w}, '{c}');"
    return Fn(name, "VARCHAR2", "v_name", body, [(str(arg), {"rows": [[NAME[arg].rjust(w, c)]]})])


FAMILIES = {"out": (_out, 8), "nvl": (_nvl, 8), "rae": (_rae, 8), "sub": (_sub, 6), "pad": (_pad, 8)}


def functions() -> list[Fn]:
    out = []
    for family, (make, count) in FAMILIES.items():
        for k in range(1, count + 1):
            out.append(make(k, f"{family}_{k}"))
            if TWINS.get(family) == k:
                out.append(make(k, f"{family}_{k}_twin"))
    return out


def _tables() -> str:
    def lit(v):
        return "NULL" if v is None else (f"'{v}'" if isinstance(v, str) and not v[0].isdigit() else str(v))

    rows = "".join(f"INSERT INTO parts VALUES ({', '.join(lit(v) for v in p)});\n" for p in PARTS)
    return (
        "CREATE TABLE parts (id NUMBER(5) PRIMARY KEY, qty NUMBER(5), price NUMBER(8,2), "
        "name VARCHAR2(30), code VARCHAR2(4));\n" + rows
    )


def _documents(fns: list[Fn]) -> tuple[dict, dict]:
    scenarios, outcomes = [], {}
    for fn in fns:
        steps = [
            {"name": f"id{arg}", "oracle": f"SELECT {fn.name}({arg}) FROM dual", "postgres": f"SELECT {fn.name}({arg})"}
            for arg, _ in fn.steps
        ]
        scenarios.append({"id": fn.name, "units": [f"function:{SCHEMA}.{fn.name}"], "steps": steps})
        outcomes[fn.name] = {f"id{arg}": outcome for arg, outcome in fn.steps}
    provenance = {
        "kind": "authored",
        "author": "migrator eval make-fixture",
        "basis": "Oracle semantics of NVL, SUBSTR, LPAD, DBMS_OUTPUT and RAISE_APPLICATION_ERROR, written out",
    }
    return (
        {"schema": SCHEMA, "scenarios": scenarios},
        {"schema": SCHEMA, "provenance": provenance, "outcomes": outcomes},
    )


def _reference(schema_dir: Path) -> dict[str, str]:
    """The trusted target per function: what the full rule set produces."""
    from migrator.convert.dispatch import convert_unit, prepare_context
    from migrator.source.reader import read_schema_dir

    source = read_schema_dir(schema_dir)
    ctx = prepare_context(source)
    return {u.id: convert_unit(u, ctx).output for u in source.units if u.id.startswith("function:")}


def _model(memory: str, flaky: float) -> dict:
    return {
        "memory": memory,
        "answers": "../reference.yaml",
        "skills": [{"name": n, "units": u, "evidence": e, "direct": d} for n, u, e, d in SKILLS],
        "default": "I cannot repair this unit.",
        "flaky": flaky,
    }


# The retrieval arm each family needs with the arm-sensitive model: no single fixed arm serves all.
ARM_OF = {"dbms-output": "failure", "nvl": "structure", "raise-application-error": "skill", "substr": "failure"}


def _arm_model(memory: str) -> dict:
    """Arm-sensitive (`required`) or arm-blind (`ignored`) test model of the retrieval controller."""
    return {
        "memory": memory,
        "context": "exclusive" if memory == "required" else "any",
        "answers": "../reference.yaml",
        "skills": [{"name": n, "units": u, "evidence": e, "direct": d, "via": ARM_OF[n]} for n, u, e, d in SKILLS],
        "default": "I cannot repair this unit.",
        "flaky": 0.0,
    }


def _config(folder: str, kind: str, title: str) -> dict:
    return {
        "task": "plsql",
        "title": title,
        "data": {
            "schema": f"{folder}/schema/{SCHEMA}",
            "scenarios": f"{folder}/scenarios.yaml",
            "transcript": f"{folder}/transcript.yaml",
            "reference": f"{folder}/reference.yaml",
            "disabled_rules": list(DISABLED),
        },
        "model": f"scripted:{folder}/models/{kind}.yaml",
        "attempts": 2,
        "embedder": "hashing",
        "systems": ["M0", "M1", "M2", "M3", "rules-only", "agent-no-memory", "agent-memory"],
        "orders": [0, 1, 2],
        "split": {"test_share": 0.4, "seed": 1},
        "statistics": {"resamples": 10000, "seed": 1, "sei": 2.0},
        "checkpoints": 4,
    }


def _bandit_config(folder: str, kind: str, title: str) -> dict:
    arms = [f"agent-arm-{a}" for a in ("none", "failure", "structure", "skill", "mix")]
    return {
        **_config(folder, kind, title),
        "attempts": 3,
        "systems": ["M0", "M1", "M2", "M3", "rules-only", "agent-bandit", *arms],
        "contrasts": [["agent-bandit", a] for a in arms],
    }


def _dump(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110), encoding="utf-8")


def write_fixture(out: Path) -> list[Path]:
    """Write the PL/SQL fixture under `out` (e.g. fixtures/eval/plsql) and the two configs beside it."""
    fns = functions()
    schema_dir = out / "schema" / SCHEMA
    schema_dir.mkdir(parents=True, exist_ok=True)
    (schema_dir / "tables.sql").write_text(_tables(), encoding="utf-8")
    (schema_dir / "functions.fnc").write_text("".join(fn.source() for fn in fns), encoding="utf-8")
    scenarios, transcript = _documents(fns)
    files = {
        out / "scenarios.yaml": scenarios,
        out / "transcript.yaml": transcript,
        out / "reference.yaml": _reference(schema_dir),
        out / "models" / "memory-sensitive.yaml": _model("required", 0.0),
        out / "models" / "memory-blind.yaml": _model("ignored", 0.0),
        out / "models" / "bandit-sensitive.yaml": _arm_model("required"),
        out / "models" / "bandit-blind.yaml": _arm_model("ignored"),
        out.parent / "plsql-memory-sensitive.yaml": _config(
            out.name, "memory-sensitive", "Power check: a model that repairs a family only with memory of it"
        ),
        out.parent / "plsql-memory-blind.yaml": _config(
            out.name, "memory-blind", "False-positive check: the same repairs whatever memory shows"
        ),
        out.parent / "plsql-bandit-sensitive.yaml": _bandit_config(
            out.name, "bandit-sensitive", "Retrieval controller: a model that needs one kind of context per family"
        ),
        out.parent / "plsql-bandit-blind.yaml": _bandit_config(
            out.name, "bandit-blind", "Retrieval controller, false-positive check: the same repairs whatever context"
        ),
    }
    for path, data in files.items():
        _dump(path, data)
    return [schema_dir / "tables.sql", schema_dir / "functions.fnc", *files]
