"""Scenarios on a Ray cluster (issue #31), on a real local cluster: a head and two worker nodes on
this machine (Ray's own `cluster_utils.Cluster`), each worker node with its own embedded
PostgreSQL. The verdicts, steps and coverage must equal the local executor's; a node killed in the
middle of a run must lose nothing; an unreachable address is a usage error before any work."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.cluster.shards import make_shards, unit_groups
from harness.ground_truth.scenarios import Scenario

ray = pytest.importorskip("ray", reason="the `cluster` extra (Ray) is not installed")

ROOT = Path(__file__).resolve().parents[2]


def _scenario(sid: str, units: list[str], steps: int) -> Scenario:
    return Scenario.model_validate(
        {
            "id": sid,
            "units": units,
            "steps": [{"name": f"s{i}", "oracle": "SELECT 1 FROM dual", "postgres": "SELECT 1"} for i in range(steps)],
        }
    )


def test_shards_keep_a_unit_s_scenarios_together_and_balance_by_cost():
    scenarios = [
        _scenario("a1", ["u:a"], 6),
        _scenario("a2", ["u:a", "u:b"], 1),
        _scenario("b1", ["u:b"], 1),
        _scenario("c1", ["u:c"], 3),
        _scenario("d1", ["u:d"], 3),
        _scenario("e1", ["u:e"], 1),
    ]
    assert [sorted(g) for g in unit_groups(scenarios)] == [[0, 1, 2], [3], [4], [5]]
    shards = make_shards(scenarios, 2)
    placed = sorted(i for s in shards for i in s.members)
    assert placed == list(range(6))  # every scenario once
    assert any({0, 1, 2} <= set(s.members) for s in shards)  # a unit group is never split
    costs = sorted(s.cost for s in shards)
    assert costs[-1] - costs[0] <= 4  # LPT: the heavy group alone, the rest together


def test_a_template_travels_to_another_server_with_its_settings(pg_engine):
    import psycopg

    from harness.cluster.template_image import export_template, import_template
    from migrator.batch.sandboxing import open_engine

    name = pg_engine.sandbox.new_name("tplsrc")
    pg_engine.sandbox.create_database(name)
    try:
        with psycopg.connect(pg_engine.dsn(name), autocommit=True) as c:
            c.execute("CREATE SCHEMA s; CREATE TABLE s.t(x int PRIMARY KEY); INSERT INTO s.t VALUES (1), (2)")
            c.execute("CREATE FUNCTION s.f(a int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN a + 1; END $$")
            c.execute(f"ALTER DATABASE {name} SET search_path = s, public")
        gate = None
        with psycopg.connect(psycopg.conninfo.make_conninfo(pg_engine.admin_dsn(), dbname=name), autocommit=True) as a:
            gate = a.execute("SELECT to_regclass('oracompat_fs.directory')").fetchone()[0]
            if gate is not None:  # a directory object the template's CREATE DIRECTORY registered
                a.execute("INSERT INTO oracompat_fs.directory (name, path, asked_path) VALUES ('LOGS', '/x', '/x')")
        image = export_template(pg_engine, name)
    finally:
        pg_engine.sandbox.drop_database(name)
    with open_engine("embedded") as other:
        copy = import_template(other, image)
        clone = other.sandbox.clone(copy)
        with psycopg.connect(other.dsn(copy), autocommit=True) as c:
            assert c.execute("SELECT f(1), (SELECT count(*) FROM t)").fetchone() == (2, 2)
        if gate is not None:  # the file gate is the target admin's own; its directory objects came along
            admin = psycopg.conninfo.make_conninfo(other.admin_dsn(), dbname=copy)
            with psycopg.connect(admin, autocommit=True) as a:
                assert a.execute("SELECT name, asked_path FROM oracompat_fs.directory").fetchall() == [("LOGS", "/x")]
        assert clone.settings == [("search_path", "s, public")]  # a clone replays them as locally


@pytest.fixture(scope="module")
def cluster():
    from ray.cluster_utils import Cluster

    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    workers = [c.add_node(num_cpus=1) for _ in range(2)]
    c.wait_for_nodes()
    ray.init(address=c.address, include_dashboard=False, log_to_driver=False)
    try:
        yield c, workers
    finally:
        ray.shutdown()
        c.shutdown()


def make_evidence(work: Path, modules: int, budget: int) -> Path:
    """A generated export, scenarios synthesized from it and ground truth recorded on the
    migration's own output as the trusted port (as benchmarks/bench_synth.py does)."""
    from harness.ground_truth.scenarios import dump_scenarios, dump_transcript
    from harness.ground_truth.trusted_port import record_reference
    from migrator.batch.output import preamble_sql
    from migrator.batch.pipeline import MigrateOptions, migrate
    from migrator.batch.sandboxing import open_engine
    from migrator.evidence.synth import SynthOptions, synthesize

    src = work / "src"
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "gen_schema.py"), str(src), "--modules", str(modules)],
        check=True,
        capture_output=True,
    )
    with open_engine("embedded") as engine:
        result = synthesize(src, SynthOptions(engine=engine.admin_dsn(), progress=False, budget_steps=budget))
        converted = migrate(src, work / "port-out", MigrateOptions(force=True, progress=False))
        port = work / "port"
        port.mkdir()
        for n, u in enumerate(converted.units, 1):
            (port / f"{n:04d}.sql").write_text((work / "port-out" / u.output).read_text(encoding="utf-8"))
        packages = sorted({u.name for u in converted.units if u.kind == "package_spec"})
        rec = record_reference(engine, port, result.scenarios, preamble=preamble_sql(converted.schema_name, packages))
    dump_scenarios(result.scenarios, work / "s.yaml")
    dump_transcript(rec.transcript, work / "t.yaml")
    return src


def verified(src: Path, out: Path, executor=None):
    from migrator.batch.pipeline import MigrateOptions, migrate

    work = src.parent
    report = migrate(src, out, MigrateOptions(force=True, deploy="embedded", verify=True, progress=False,
                                              scenarios=work / "s.yaml", transcript=work / "t.yaml",
                                              executor=executor))  # fmt: skip
    return report


def same(a: Path, b: Path) -> None:
    """Categories, steps and coverage byte for byte, timings left out."""

    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if "second" not in k}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    ra, rb = (json.loads((d / "report.json").read_text()) for d in (a, b))
    assert ra["units"] == rb["units"]
    assert strip(json.loads((a / "steps.json").read_text())) == strip(json.loads((b / "steps.json").read_text()))


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    work = tmp_path_factory.mktemp("cluster-small")
    src = make_evidence(work, modules=2, budget=16)
    verified(src, work / "local")
    return src


def test_the_cluster_judges_exactly_as_this_machine_does(cluster, small):
    from harness.cluster.ray_executor import RayExecutor

    executor = RayExecutor(None)
    verified(small, small.parent / "ray", executor)
    same(small.parent / "local", small.parent / "ray")
    assert executor.stats["shards"] >= 2 and executor.stats["shards_rerun"] == 0
    assert executor.stats["template_exports"] >= 1


def test_a_node_lost_in_the_middle_of_a_run_loses_nothing(cluster, small):
    from harness.cluster.ray_executor import RayExecutor

    c, workers = cluster
    killed: list[str] = []

    def kill_a_busy_node(executor, busy: set[str]) -> None:
        if killed or not busy:
            return
        victim = next(w for w in workers if w.node_id in busy)
        c.remove_node(victim, allow_graceful=False)
        killed.append(victim.node_id)

    executor = RayExecutor(None, on_shard=kill_a_busy_node)
    verified(small, small.parent / "ray-killed", executor)
    assert killed, "no node was busy when a shard finished: nothing was killed"
    assert executor.stats["shards_rerun"] >= 1  # the dead node's shard ran again elsewhere
    same(small.parent / "local", small.parent / "ray-killed")
    workers.remove(next(w for w in workers if w.node_id == killed[0]))
    workers.append(c.add_node(num_cpus=1))  # later tests get two workers again
    c.wait_for_nodes()


def test_an_unreachable_cluster_is_refused_before_any_work(tmp_path):
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "migrator.cli.main", "migrate", str(ROOT / "fixtures" / "schemas" / "utilities"),
         "--out", str(tmp_path / "out"), "--verify", "--executor", "ray:127.0.0.1:9"],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Ray cluster at 127.0.0.1:9 is unreachable" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists() and time.perf_counter() - started < 60


@pytest.mark.slow
def test_a_generated_500_unit_schema_is_judged_on_the_cluster_as_locally(cluster, tmp_path_factory):
    from harness.cluster.ray_executor import RayExecutor

    work = tmp_path_factory.mktemp("cluster-500")
    src = make_evidence(work, modules=23, budget=8)
    local = verified(src, work / "local")
    assert len(local.units) >= 500
    executor = RayExecutor(None)
    verified(src, work / "ray", executor)
    same(work / "local", work / "ray")
    assert executor.stats["shards"] >= 2
