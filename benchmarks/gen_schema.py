"""A generator of varied, realistic Oracle schema exports for the conversion benchmark.

Every object is distinct (names, columns, types, literals, statement mix and order differ from
module to module), so no per-run memo or cache sees the same text twice. Each file holds one kind
of object, named like a real export (`.tab .seq .vw .pks .pkb .fnc .prc .trg .typ`), so a peer tool
can be told each file's object type. A module is what one application area of an ERP-style schema
looks like: 2-4 tables with keys, checks and indexes, a sequence per table, views with joins,
NVL/DECODE and outer joins, a package (spec and body: cursors, loops, SELECT INTO, DML, exceptions,
%TYPE/%ROWTYPE, DBMS_OUTPUT, dynamic SQL), standalone functions and procedures, triggers, and now
and then an object type. Deterministic for a seed.

    python benchmarks/gen_schema.py OUT_DIR [--modules 60] [--seed 17]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

WORDS = (
    "order invoice payment customer supplier item stock ledger account journal shipment carrier route "
    "contract budget project task employee payroll claim policy asset lease tariff quota region branch "
    "campaign lead ticket warranty batch lot recipe plant machine sensor reading alert"
).split()
ATTRS = (
    "code name status amount qty price total balance rate score weight volume note descr city country "
    "phone email ref_no priority category currency discount tax_rate due_date start_date end_date "
    "created_on updated_on created_by approved_by version flag level"
).split()
STATUSES = ["NEW", "OPEN", "HOLD", "DONE", "CLOSED", "VOID", "SENT", "PAID"]


def col_type(rng: random.Random, attr: str) -> str:
    if attr.endswith(("_date", "_on")):
        return rng.choice(["DATE", "DATE", "TIMESTAMP"])
    if attr in ("amount", "price", "total", "balance", "discount", "tax_rate", "rate", "weight", "volume"):
        return f"NUMBER({rng.choice([10, 12, 14, 18])},{rng.choice([2, 2, 3, 4])})"
    if attr in ("qty", "score", "priority", "version", "level"):
        return f"NUMBER({rng.choice([3, 5, 9])})"
    if attr == "flag":
        return "CHAR(1)"
    if attr == "note":
        return rng.choice(["VARCHAR2(4000)", "CLOB"])
    return f"VARCHAR2({rng.choice([10, 20, 30, 40, 60, 100, 200])})"


class Module:
    def __init__(self, rng: random.Random, index: int):
        self.rng, self.i = rng, index
        base = rng.choice(WORDS)
        self.prefix = f"{base[:6]}{index:03d}"
        self.tables: list[tuple[str, list[tuple[str, str]]]] = []
        for t in range(rng.randint(2, 4)):
            name = f"{self.prefix}_{rng.choice(WORDS)}{t}"
            attrs = rng.sample(ATTRS, rng.randint(5, 13))
            cols = [(f"{name[-12:]}_id".replace(f"{self.prefix}_", "") or "id", "NUMBER(12)")]
            cols = [("id", "NUMBER(12)")] + [(a, col_type(rng, a)) for a in attrs]
            if t:
                cols.insert(1, (f"parent{t - 1}_id", "NUMBER(12)"))
            self.tables.append((name, cols))

    # -- files ---------------------------------------------------------------------------------
    def tables_sql(self) -> str:
        out = []
        for t, (name, cols) in enumerate(self.tables):
            lines = []
            for col, typ in cols:
                extra = ""
                if col == "id":
                    extra = " NOT NULL"
                elif col == "status":
                    extra = f" DEFAULT '{self.rng.choice(STATUSES)}' NOT NULL"
                elif col in ("created_on", "updated_on"):
                    extra = " DEFAULT SYSDATE"
                elif col == "flag":
                    extra = " DEFAULT 'N'"
                lines.append(f"  {col:<14} {typ}{extra}")
            lines.append(f"  CONSTRAINT {name[:24]}_pk PRIMARY KEY (id)")
            if t:
                parent = self.tables[t - 1][0]
                lines.append(f"  CONSTRAINT {name[:24]}_fk FOREIGN KEY (parent{t - 1}_id) REFERENCES {parent} (id)")
            if any(c == "flag" for c, _ in cols):
                lines.append(f"  CONSTRAINT {name[:24]}_ck CHECK (flag IN ('Y', 'N'))")
            out.append(f"CREATE TABLE {name} (\n" + ",\n".join(lines) + "\n)\nTABLESPACE users;\n")
            indexed = [c for c, _ in cols[1:] if c not in ("note",)][: self.rng.randint(1, 3)]
            for k, col in enumerate(indexed):
                out.append(f"CREATE INDEX {name[:22]}_ix{k} ON {name} ({col});\n")
            out.append(f"COMMENT ON TABLE {name} IS '{self.rng.choice(WORDS)} records of module {self.i}';\n")
        return "\n".join(out)

    def sequences_sql(self) -> str:
        return "".join(
            f"CREATE SEQUENCE {name}_seq START WITH {self.rng.randint(1, 5000)} INCREMENT BY 1 "
            f"CACHE {self.rng.choice([20, 50, 100])} NOCYCLE;\n"
            for name, _ in self.tables
        )

    def _numeric(self, cols) -> list[str]:
        return [c for c, t in cols if t.startswith("NUMBER") and c != "id" and not c.startswith("parent")] or ["id"]

    def _text(self, cols) -> list[str]:
        return [c for c, t in cols if t.startswith("VARCHAR2")] or ["id"]

    def views_sql(self) -> str:
        rng, out = self.rng, []
        head, hcols = self.tables[0]
        for v, (name, cols) in enumerate(self.tables[1:], start=1):
            parent = self.tables[v - 1][0]
            num, txt = rng.choice(self._numeric(cols)), rng.choice(self._text(cols))
            status = "c.status" if any(c == "status" for c, _ in cols) else "'NEW'"
            out.append(
                f"CREATE OR REPLACE VIEW {name[:26]}_v AS\n"
                f"SELECT c.id, c.{txt}, NVL(c.{num}, 0) AS {num}_nz,\n"
                f"       DECODE({status}, 'NEW', 'open', 'DONE', 'closed', 'other') AS state,\n"
                f"       p.id AS parent_id, TO_CHAR(SYSDATE, 'YYYY-MM-DD') AS as_of\n"
                f"  FROM {name} c, {parent} p\n"
                f" WHERE c.parent{v - 1}_id = p.id(+)\n"
                f"   AND NVL(c.{num}, 0) >= {rng.randint(0, 50)};\n"
            )
        num = rng.choice(self._numeric(hcols))
        out.append(
            f"CREATE OR REPLACE VIEW {head[:22]}_top_v AS\n"
            f"SELECT * FROM (SELECT id, {num} FROM {head} ORDER BY {num} DESC NULLS LAST)\n"
            f" WHERE ROWNUM <= {rng.randint(5, 50)};\n"
        )
        return "\n".join(out)

    def package_names(self) -> list[str]:
        return [f"p_{n[-14:]}" for n, _ in self.tables] + ["summarize", "purge_old", "report"]

    def package_spec(self) -> str:
        head = self.tables[0][0]
        lines = [f"CREATE OR REPLACE PACKAGE {self.prefix}_pkg AS"]
        lines.append(f"  c_version CONSTANT VARCHAR2(10) := '{self.rng.randint(1, 9)}.{self.rng.randint(0, 30)}';")
        lines.append(f"  e_not_found EXCEPTION;\n  PRAGMA EXCEPTION_INIT(e_not_found, -{20000 + self.i % 900});")
        for name, _ in self.tables:
            lines.append(f"  PROCEDURE add_{name[-14:]}(p_id IN NUMBER, p_note IN VARCHAR2 DEFAULT NULL);")
        lines.append(f"  FUNCTION summarize(p_id IN {head}.id%TYPE) RETURN NUMBER;")
        lines.append("  PROCEDURE purge_old(p_days IN NUMBER DEFAULT 30);")
        lines.append("  FUNCTION report(p_from IN DATE, p_to IN DATE) RETURN VARCHAR2;")
        lines.append(f"END {self.prefix}_pkg;\n/\n")
        return "\n".join(lines)

    def package_body(self) -> str:
        rng = self.rng
        head, hcols = self.tables[0]
        lines = [f"CREATE OR REPLACE PACKAGE BODY {self.prefix}_pkg AS", "  g_calls PLS_INTEGER := 0;", ""]
        for t, (name, cols) in enumerate(self.tables):
            txt = rng.choice(self._text(cols))
            parent = f", parent{t - 1}_id" if t else ""
            pval = ", p_id" if t else ""
            lines += [
                f"  PROCEDURE add_{name[-14:]}(p_id IN NUMBER, p_note IN VARCHAR2 DEFAULT NULL) IS",
                "    v_id NUMBER;",
                f"    v_txt {name}.{txt}%TYPE;",
                "  BEGIN",
                "    g_calls := g_calls + 1;",
                f"    SELECT {name}_seq.NEXTVAL INTO v_id FROM dual;",
                f"    v_txt := SUBSTR(NVL(p_note, 'auto {rng.choice(WORDS)}'), 1, {rng.randint(8, 20)});",
                f"    INSERT INTO {name} (id, {txt}{parent}) VALUES (v_id, v_txt{pval});",
                "    IF SQL%ROWCOUNT = 0 THEN",
                "      RAISE e_not_found;",
                "    END IF;",
                "  EXCEPTION",
                "    WHEN DUP_VAL_ON_INDEX THEN",
                f"      UPDATE {name} SET {txt} = v_txt WHERE id = v_id;",
                "  END;",
                "",
            ]
        num = rng.choice(self._numeric(hcols))
        lines += [
            f"  FUNCTION summarize(p_id IN {head}.id%TYPE) RETURN NUMBER IS",
            f"    v_row {head}%ROWTYPE;",
            "    v_total NUMBER := 0;",
            f"    CURSOR c_items IS SELECT id, {num} FROM {head} WHERE id >= p_id ORDER BY id;",
            "  BEGIN",
            f"    SELECT * INTO v_row FROM {head} WHERE id = p_id;",
            "    FOR r IN c_items LOOP",
            f"      v_total := v_total + NVL(r.{num}, 0) * {rng.choice(['1.5', '2', '0.25', '3'])};",
            f"      EXIT WHEN v_total > {rng.randint(1000, 99999)};",
            "    END LOOP;",
            "    RETURN ROUND(v_total, 2);",
            "  EXCEPTION",
            "    WHEN NO_DATA_FOUND THEN",
            "      RETURN -1;",
            "  END summarize;",
            "",
            "  PROCEDURE purge_old(p_days IN NUMBER DEFAULT 30) IS",
            "    v_count PLS_INTEGER := 0;",
            "  BEGIN",
        ]
        for name, cols in reversed(self.tables):
            date_col = next((c for c, t in cols if t in ("DATE", "TIMESTAMP")), None)
            if date_col:
                lines += [
                    f"    DELETE FROM {name} WHERE {date_col} < SYSDATE - p_days;",
                    "    v_count := v_count + SQL%ROWCOUNT;",
                ]
        lines += [
            f"    DBMS_OUTPUT.PUT_LINE('{self.prefix}: purged ' || v_count || ' rows');",
            "    COMMIT;",
            "  END purge_old;",
            "",
            "  FUNCTION report(p_from IN DATE, p_to IN DATE) RETURN VARCHAR2 IS",
            "    v_out VARCHAR2(4000);",
            "    v_n NUMBER;",
            "  BEGIN",
            f"    EXECUTE IMMEDIATE 'SELECT COUNT(*) FROM {head} WHERE id > :1' INTO v_n USING {rng.randint(0, 100)};",
            "    v_out := 'rows: ' || v_n || ' from ' || TO_CHAR(p_from, 'DD.MM.YYYY') || ' to ' ||",
            "             TO_CHAR(p_to, 'DD.MM.YYYY');",
            "    CASE",
            f"      WHEN v_n > {rng.randint(100, 1000)} THEN v_out := v_out || ' (large)';",
            "      WHEN v_n = 0 THEN v_out := v_out || ' (empty)';",
            "      ELSE NULL;",
            "    END CASE;",
            "    RETURN v_out;",
            "  END report;",
            f"END {self.prefix}_pkg;\n/\n",
        ]
        return "\n".join(lines)

    def function_sql(self) -> str:
        rng = self.rng
        name, cols = rng.choice(self.tables)
        txt = rng.choice(self._text(cols))
        return "\n".join(
            [
                f"CREATE OR REPLACE FUNCTION {self.prefix}_label(p_id IN NUMBER, p_lang IN VARCHAR2 DEFAULT 'EN')",
                "  RETURN VARCHAR2",
                "IS",
                "  v_txt VARCHAR2(200);",
                "  v_pos PLS_INTEGER;",
                "BEGIN",
                f"  SELECT {txt} INTO v_txt FROM {name} WHERE id = p_id;",
                f"  v_pos := INSTR(v_txt, '{rng.choice('-_/.:')}');",
                "  IF v_pos > 0 THEN",
                "    v_txt := SUBSTR(v_txt, 1, v_pos - 1);",
                "  ELSIF p_lang = 'DE' THEN",
                f"    v_txt := UPPER(v_txt) || ' ({rng.choice(WORDS)})';",
                "  ELSE",
                "    v_txt := INITCAP(LOWER(v_txt));",
                "  END IF;",
                "  RETURN NVL2(v_txt, TRIM(v_txt), 'n/a');",
                "EXCEPTION",
                "  WHEN NO_DATA_FOUND THEN",
                "    RETURN NULL;",
                "  WHEN TOO_MANY_ROWS THEN",
                f"    RAISE_APPLICATION_ERROR(-{20100 + self.i % 800}, 'duplicate id ' || p_id);",
                f"END {self.prefix}_label;\n/\n",
            ]
        )

    def procedure_sql(self) -> str:
        rng = self.rng
        name, cols = self.tables[-1]
        num = rng.choice(self._numeric(cols))
        return "\n".join(
            [
                f"CREATE OR REPLACE PROCEDURE {self.prefix}_recalc(p_factor IN NUMBER, p_done OUT NUMBER) AS",
                f"  CURSOR c_rows(p_min NUMBER) IS SELECT id, {num} FROM {name} WHERE {num} >= p_min FOR UPDATE;",
                "  v_new NUMBER;",
                "BEGIN",
                "  p_done := 0;",
                f"  FOR r IN c_rows({rng.randint(0, 10)}) LOOP",
                f"    v_new := ROUND(NVL(r.{num}, 0) * p_factor, {rng.randint(0, 3)});",
                f"    IF v_new <> NVL(r.{num}, 0) THEN",
                f"      UPDATE {name} SET {num} = v_new WHERE CURRENT OF c_rows;",
                "      p_done := p_done + 1;",
                "    END IF;",
                "  END LOOP;",
                f"  IF p_done > {rng.randint(10, 500)} THEN",
                "    COMMIT;",
                "  END IF;",
                "EXCEPTION",
                "  WHEN OTHERS THEN",
                "    ROLLBACK;",
                "    RAISE;",
                f"END {self.prefix}_recalc;\n/\n",
            ]
        )

    def triggers_sql(self) -> str:
        out = []
        for name, cols in self.tables:
            names = {c for c, _ in cols}
            body = [f"  IF :NEW.id IS NULL THEN\n    SELECT {name}_seq.NEXTVAL INTO :NEW.id FROM dual;\n  END IF;"]
            if "updated_on" in names:
                body.append("  :NEW.updated_on := SYSDATE;")
            if "status" in names:
                body.append(
                    f"  IF INSERTING THEN\n    :NEW.status := NVL(:NEW.status, '{self.rng.choice(STATUSES)}');\n  END IF;"
                )
            out.append(
                f"CREATE OR REPLACE TRIGGER {name[:24]}_biu\n"
                f"  BEFORE INSERT OR UPDATE ON {name}\n  FOR EACH ROW\nBEGIN\n" + "\n".join(body) + "\nEND;\n/\n"
            )
        return "\n".join(out)

    def type_sql(self) -> str:
        name, cols = self.tables[0]
        attrs = ",\n".join(f"  {c} {t.replace('CLOB', 'VARCHAR2(4000)')}" for c, t in cols[:5])
        return f"CREATE OR REPLACE TYPE {self.prefix}_rec AS OBJECT (\n{attrs}\n);\n/\n"

    def files(self) -> dict[str, str]:
        files = {
            f"{self.prefix}_tables.tab": self.tables_sql(),
            f"{self.prefix}_seq.seq": self.sequences_sql(),
            f"{self.prefix}_views.vw": self.views_sql(),
            f"{self.prefix}_pkg.pks": self.package_spec(),
            f"{self.prefix}_pkg.pkb": self.package_body(),
            f"{self.prefix}_label.fnc": self.function_sql(),
            f"{self.prefix}_recalc.prc": self.procedure_sql(),
            f"{self.prefix}_triggers.trg": self.triggers_sql(),
        }
        if self.i % 4 == 0:
            files[f"{self.prefix}_rec.typ"] = self.type_sql()
        return files


# ora2pg's -t for each file kind
ORA2PG_TYPE = {
    ".tab": "TABLE",
    ".seq": "SEQUENCE",
    ".vw": "VIEW",
    ".pks": "PACKAGE",
    ".pkb": "PACKAGE",
    ".fnc": "FUNCTION",
    ".prc": "PROCEDURE",
    ".trg": "TRIGGER",
    ".typ": "TYPE",
}


def generate(out: Path, modules: int, seed: int = 17) -> dict[str, int]:
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    counts = {"files": 0, "lines": 0}
    for i in range(modules):
        for name, text in Module(rng, i).files().items():
            (out / name).write_text(text, encoding="utf-8")
            counts["files"] += 1
            counts["lines"] += sum(1 for line in text.splitlines() if line.strip())
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--modules", type=int, default=60)
    ap.add_argument("--seed", type=int, default=17)
    args = ap.parse_args()
    counts = generate(args.out, args.modules, args.seed)
    print(f"{args.out}: {counts['files']} files, {counts['lines']} non-blank lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
