"""The names `migrator` exports are the library's entry points, and they work end to end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import migrator

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "schemas" / "hr_payroll"


def test_every_exported_name_resolves():
    assert sorted(migrator.__all__) == sorted(migrator._EXPORTS)
    for name in migrator.__all__:
        assert getattr(migrator, name) is not None, name


def test_read_prepare_convert_through_the_public_api():
    source = migrator.read_schema_dir(FIXTURE)
    ctx = migrator.prepare_context(source)
    unit = next(u for u in source.units if u.kind is migrator.UnitKind.FUNCTION)
    conversion = migrator.convert_unit(unit, ctx)
    assert conversion.error is None and "CREATE OR REPLACE FUNCTION" in conversion.output


def test_importing_the_package_loads_no_converter():
    code = "import sys, migrator; print('migrator.convert.dispatch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
