"""The small schema the agent tests repair: three functions that print with DBMS_OUTPUT, their
scenarios and an authored Oracle transcript."""

from __future__ import annotations

from pathlib import Path

import yaml

SOURCE = {
    "tables.sql": """CREATE TABLE items (id NUMBER(5) PRIMARY KEY, qty NUMBER(5), name VARCHAR2(30));
INSERT INTO items VALUES (1, 10, 'bolt');
INSERT INTO items VALUES (2, 0, 'nut');
""",
    "funcs.fnc": """CREATE OR REPLACE FUNCTION stock_note (p_id IN NUMBER) RETURN VARCHAR2 IS
  v_qty items.qty%TYPE;
BEGIN
  SELECT qty INTO v_qty FROM items WHERE id = p_id;
  DBMS_OUTPUT.PUT_LINE('checked ' || p_id);
  RETURN CASE WHEN v_qty > 0 THEN 'in stock' ELSE 'empty' END;
END stock_note;
/
CREATE OR REPLACE FUNCTION item_label (p_id IN NUMBER) RETURN VARCHAR2 IS
  v_name items.name%TYPE;
BEGIN
  SELECT name INTO v_name FROM items WHERE id = p_id;
  DBMS_OUTPUT.PUT_LINE('label ' || p_id);
  RETURN UPPER(v_name);
END item_label;
/
CREATE OR REPLACE FUNCTION double_qty (p_id IN NUMBER) RETURN NUMBER IS
  v_qty items.qty%TYPE;
BEGIN
  SELECT qty INTO v_qty FROM items WHERE id = p_id;
  DBMS_OUTPUT.PUT_LINE('double ' || p_id);
  RETURN v_qty * 2;
END double_qty;
/
""",
}

SCENARIOS = {
    "schema": "app",
    "scenarios": [
        {
            "id": "note",
            "units": ["function:app.stock_note"],
            "steps": [
                {"name": "full", "oracle": "SELECT stock_note(1) FROM dual", "postgres": "SELECT stock_note(1)"},
                {"name": "empty", "oracle": "SELECT stock_note(2) FROM dual", "postgres": "SELECT stock_note(2)"},
                {"name": "missing", "oracle": "SELECT stock_note(9) FROM dual", "postgres": "SELECT stock_note(9)"},
            ],
        },
        {
            "id": "label",
            "units": ["function:app.item_label"],
            "steps": [
                {"name": "bolt", "oracle": "SELECT item_label(1) FROM dual", "postgres": "SELECT item_label(1)"},
                {"name": "missing", "oracle": "SELECT item_label(9) FROM dual", "postgres": "SELECT item_label(9)"},
            ],
        },
        {
            "id": "double",
            "units": ["function:app.double_qty"],
            "steps": [{"name": "ten", "oracle": "SELECT double_qty(1) FROM dual", "postgres": "SELECT double_qty(1)"}],
        },
    ],
}
NDF = {"error": {"code": "ORA-01403", "message": "no data found"}}
# SELECT f(...) FROM dual prints the DBMS_OUTPUT lines only when the client reads them; the
# recorder does, so they are part of Oracle's outcome.
TRANSCRIPT = {
    "schema": "app",
    "provenance": {"kind": "authored", "author": "test", "basis": "Oracle PL/SQL semantics"},
    "outcomes": {
        "note": {
            "full": {"rows": [["in stock"]], "output": ["checked 1"]},
            "empty": {"rows": [["empty"]], "output": ["checked 2"]},
            "missing": NDF,
        },
        "label": {"bolt": {"rows": [["BOLT"]], "output": ["label 1"]}, "missing": NDF},
        "double": {"ten": {"rows": [[20]], "output": ["double 1"]}},
    },
}


def write_schema(tmp_path: Path) -> Path:
    """tmp_path/app (the source), tmp_path/scen.yaml, tmp_path/trans.yaml; returns tmp_path."""
    src = tmp_path / "app"
    src.mkdir()
    for name, text in SOURCE.items():
        (src / name).write_text(text)
    (tmp_path / "scen.yaml").write_text(yaml.safe_dump(SCENARIOS))
    (tmp_path / "trans.yaml").write_text(yaml.safe_dump(TRANSCRIPT))
    return tmp_path
