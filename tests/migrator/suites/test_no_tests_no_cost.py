"""`migrate` without `--tests` spends nothing on test suites: no module of `migrator.suites` is
imported (so none of its work can run) and no tests output is written. Run in a fresh
interpreter, where nothing else has imported the package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import json, sys
from pathlib import Path
from migrator.batch.pipeline import MigrateOptions, migrate
migrate(Path(sys.argv[1]), Path(sys.argv[2]), MigrateOptions(progress=False))
print(json.dumps(sorted(m for m in sys.modules if m.startswith("migrator.suites"))))
"""


def test_migrate_without_tests_imports_no_suite_code(tmp_path):
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROOT / "fixtures" / "schemas" / "utilities"), str(out)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
        check=True,
    )
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
    assert (out / "report.json").exists()
    assert not (out / "tests.json").exists() and not (out / "junit.xml").exists()
    assert json.loads((out / "report.json").read_text(encoding="utf-8")).get("tests") is None
