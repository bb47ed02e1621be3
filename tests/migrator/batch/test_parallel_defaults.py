"""How many conversion processes `migrate` starts by default: by the units' count or their text.
A real library of 100 large packages is as much work as a generated export of 1,000 small units;
counting units alone kept it in one process (issue #26). Speed itself is measured in benchmarks/."""

from __future__ import annotations

from types import SimpleNamespace

from migrator.batch import parallel
from migrator.batch.parallel import MIN_CHARS_FOR_WORKERS, MIN_UNITS_FOR_WORKERS, default_workers, worth_workers
from migrator.forked import core_workers


def _units(n: int, chars_each: int) -> list:
    return [SimpleNamespace(text="x" * chars_each) for _ in range(n)]


def test_few_small_units_stay_in_this_process():
    assert default_workers(10, 10 * 500) == 1
    assert not worth_workers(_units(10, 500))


def test_many_units_or_much_text_get_one_process_per_core():
    assert default_workers(MIN_UNITS_FOR_WORKERS) == core_workers()
    assert default_workers(100, MIN_CHARS_FOR_WORKERS) == core_workers()
    assert worth_workers(_units(MIN_UNITS_FOR_WORKERS, 10))
    assert worth_workers(_units(100, MIN_CHARS_FOR_WORKERS // 100))
    assert not worth_workers(_units(100, MIN_CHARS_FOR_WORKERS // 100 - 1))


def test_the_pipeline_passes_the_text_of_what_it_converts(tmp_path, monkeypatch):
    from migrator.batch.pipeline import MigrateOptions, migrate

    seen = []
    real = parallel.default_workers

    def spy(n_units, chars=0):
        seen.append((n_units, chars))
        return real(n_units, chars)

    monkeypatch.setattr("migrator.batch.pipeline.default_workers", spy)
    src = tmp_path / "src"
    src.mkdir()
    body = "CREATE OR REPLACE FUNCTION f RETURN NUMBER IS BEGIN RETURN 1; END;\n/\n"
    (src / "f.sql").write_text(body)
    migrate(src, tmp_path / "out", MigrateOptions(deploy=None))
    assert seen and seen[0][0] == 1 and seen[0][1] > 0
