"""The same questions judged on PostgreSQL (each db_id a schema), for users whose databases live
there: portable gold loads, SQLite-only gold is reported per entry, and a system runs end to end."""

from __future__ import annotations

import json
import shutil

import psycopg

from migrator.agent.tasks.text_to_sql.run import RunRequest, run_system
from tests.migrator.agent.text_to_sql.t2s_support import FIXTURE, SCRIPT


def test_merit_on_postgres(tmp_path, pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as con:
        for db in ("company", "library", "weather"):
            script = (FIXTURE / "database" / db / f"{db}.sql").read_text()
            con.execute(f"CREATE SCHEMA {db}; SET search_path TO {db};")
            con.execute(script)
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(FIXTURE / "dev.json", data / "dev.json")
    req = RunRequest(data=data, out=tmp_path / "out", model=f"scripted:{SCRIPT}", pg_dsn=pg_dsn, embedder="hashing")
    manifest = run_system(req)
    assert manifest.dialect == "postgres" and manifest.status == "finished"
    reasons = {b.index: b.reason for b in manifest.bad_entries}
    rows = json.loads((FIXTURE / "dev.json").read_text())
    julian = next(i for i, r in enumerate(rows) if "julianday" in r["query"])
    assert "julianday" in reasons[julian]  # SQLite-only gold: reported, not fatal
    t = manifest.totals
    assert t.judged == 60 - len(reasons) and t.correct > t.initially_correct > 20
    prompts = [
        json.loads(p.read_text())["request"]["messages"][0]["content"]
        for p in (req.out / "model-cache").rglob("*.json")
    ]
    assert prompts and all("PostgreSQL" in p.splitlines()[0] for p in prompts if not p.startswith("### Reflect"))
