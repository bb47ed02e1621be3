"""Verification on a local Ray cluster against the local executor, in the same run (issue #31).

Generates an export (`gen_schema.py --modules N`), synthesizes scenarios and records ground truth on
the migration's own output (as bench_synth.py), then judges it twice: with the local executor and on
a Ray cluster started here (a head and W worker nodes on this machine, each with its own embedded
PostgreSQL). Prints units/s for both, units/s per node on the cluster, the overhead per shard (a
shard's round trip beyond the time its node spent on it), the template export, and whether the two
reports agree in categories, steps and coverage.

    python benchmarks/bench_cluster.py [--modules 23] [--workers 2] [--budget 8]

On one 2-core machine the cluster cannot be faster than the local executor (its nodes share the same
two cores); what this measures is what the cluster costs, so the gain on real nodes can be read off.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modules", type=int, default=23)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--budget", type=int, default=8, help="synthesis budget (steps tried per target)")
    ap.add_argument("--work", type=Path, help="working folder (default: a temporary one)")
    args = ap.parse_args()
    import ray
    from ray.cluster_utils import Cluster

    from harness.cluster.ray_executor import RayExecutor
    from tests.harness.test_cluster_executor import make_evidence, same, verified

    work = args.work or Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    print(f"load: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; work: {work}")
    t0 = time.perf_counter()
    src = make_evidence(work, args.modules, args.budget)
    print(f"evidence (synthesis + recording, local): {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    local = verified(src, work / "local")
    local_s = time.perf_counter() - t0
    units = len(local.units)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    for _ in range(args.workers):
        cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
    try:
        executor = RayExecutor(None)
        t0 = time.perf_counter()
        verified(src, work / "ray", executor)
        ray_s = time.perf_counter() - t0
        stats = dict(executor.stats)
    finally:
        ray.shutdown()
        cluster.shutdown()
    try:
        same(work / "local", work / "ray")
        agree = "identical"
    except AssertionError:
        agree = "DIFFERENT"
    shards = max(1, stats["shards"])
    print(f"{units} units, {stats['scenarios']} scenarios per verification run")
    print(f"  local executor        {local_s:7.1f} s   {units / local_s:6.2f} units/s")
    print(f"  Ray, {args.workers} worker nodes  {ray_s:7.1f} s   {units / ray_s:6.2f} units/s   "
          f"{units / ray_s / args.workers:6.2f} units/s per node")  # fmt: skip
    print(f"  shards {stats['shards']} (rerun {stats['shards_rerun']}), overhead per shard "
          f"{stats['overhead_seconds'] / shards:.2f} s, node time per shard {stats['node_seconds'] / shards:.2f} s; "
          f"template exports {stats['template_exports']} in {stats['export_seconds']:.1f} s")  # fmt: skip
    print(f"  reports: {agree} (categories, steps, coverage)")
    print(json.dumps({"units": units, "local_s": local_s, "ray_s": ray_s, **stats}))


if __name__ == "__main__":
    main()
