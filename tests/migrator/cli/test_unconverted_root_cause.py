"""Code that needs Oracle package members with no PostgreSQL equivalent (HTP's and HTF's tag
generators: the library holds only the Web Toolkit's page buffer) fails to
deploy because of the marker the rules leave; the console and report.md say the reason, with the
Oracle source's file:line, not `syntax error at or near "MIGRATOR_UNCONVERTED"`; no marker stands
above the unit's CREATE; a deploy error's line is the unit file's (issue #30, item 8)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from migrator.cli.main import main

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
UNIT = "procedure:utilities.web_report"


def test_the_reason_a_unit_cannot_deploy_is_shown_where_it_is_read(tmp_path, pg_engine, capsys):
    out = tmp_path / "out"
    code = main(
        ["migrate", str(FIXTURES / "schemas" / "utilities"), "--out", str(out), "--pg-dsn", pg_engine.admin_dsn()]
    )
    printed = capsys.readouterr().out
    assert code == 1
    line = next(ln for ln in printed.splitlines() if ln.startswith(f"  {UNIT} ("))
    assert "MIGRATOR_UNCONVERTED" not in line, line
    htp = "HTP beyond the page buffer (PRINT, P, PRN, PRINTS, PS, INIT)"
    for package, where in ((htp, "web_report.prc:5"), ("HTF beyond ESCAPE_SC", "web_report.prc:6")):
        assert f"no PostgreSQL equivalent: {package} at {where} (" in line, line
    md_row = next(ln for ln in (out / "report.md").read_text().splitlines() if ln.startswith(f"| `{UNIT}`"))
    assert f"not converted: needs an Oracle-supplied package with no PostgreSQL equivalent: {htp}" in md_row

    report = json.loads((out / "report.json").read_text())
    unit = next(u for u in report["units"] if u["id"] == UNIT)
    lines = (out / unit["output"]).read_text().splitlines()
    code_lines = [ln for ln in lines if not ln.startswith("--")]
    assert code_lines[0].startswith("CREATE OR REPLACE PROCEDURE"), code_lines[:2]  # nothing above the CREATE
    assert "HTF.BOLD" in "\n".join(code_lines).upper()  # the nested call is still shown, in its caller's marker
    at = int(re.search(r"\(line (\d+)\)$", unit["deploy_error"]).group(1))
    assert "MIGRATOR_UNCONVERTED" in lines[at - 1]  # the unit file's line, where the marker is
