"""`migrator kb ...`: a thin command line over the knowledge-base library.

The host CLI calls `add_kb_parser(subparsers)` and dispatches `args.command == "kb"` to `run_kb(args)`.
Exit codes: 0 ok, 1 not found / refused, 2 bad usage or unreadable input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ENV_KB = "MIGRATOR_KB"
READ_ONLY = ("stats", "search", "show", "export")

EXAMPLES = {
    "stats": "migrator kb stats --kb out/kb",
    "search": 'migrator kb search "XMLTABLE shred xml column" --kb out/kb --failure-type unsupported --k 3',
    "show": "migrator kb show 42 --kb out/kb",
    "snapshot": "migrator kb snapshot ck-003 --kb out/kb",
    "export": "migrator kb export kb.jsonl --kb out/kb",
    "import": "migrator kb import kb.jsonl --kb new/kb --embedder minilm",
}
HELP = {
    "stats": "counts, generation, embedder, index state and every threshold",
    "search": "run one retrieval (eligibility, pools, hybrid ranking) and print the hits",
    "show": "print one entry and its event history",
    "snapshot": "freeze a read-only checkpoint copy under snapshots/NAME",
    "export": "write every entry as JSON lines (vectors are not exported)",
    "import": "add the entries of an export that are not already present (by content hash; "
    "re-embedded with this knowledge base's embedder)",
}


def add_kb_parser(subparsers) -> argparse.ArgumentParser:
    kb = subparsers.add_parser(
        "kb",
        help="inspect and operate the experience knowledge base",
        description="Inspect and operate the experience knowledge base.",
        epilog="examples:\n  " + "\n  ".join(EXAMPLES.values()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = kb.add_subparsers(dest="kb_command", required=True)
    for name in EXAMPLES:
        p = sub.add_parser(
            name,
            help=HELP[name],
            description=HELP[name].capitalize() + ".",
            epilog=f"example:\n  {EXAMPLES[name]}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.add_argument(
            "--kb", type=Path, default=None, help=f"knowledge-base directory (default: ${ENV_KB}, else ./kb)"
        )
        p.add_argument("--json", action="store_true", help="machine-readable output")
        _arguments(name, p)
    return kb


def _arguments(name: str, p: argparse.ArgumentParser) -> None:
    if name == "search":
        p.add_argument("query", help="query text")
        p.add_argument("--failure-type", help="failure type for type conditioning")
        p.add_argument("--task", help="current task id (excluded)")
        p.add_argument("--group", help="current task group (excluded)")
        p.add_argument("--position", type=int, help="current stream position (only earlier entries)")
        p.add_argument(
            "--held-out",
            action="append",
            default=[],
            metavar="TARGET",
            help="a held-out reference target id; repeatable",
        )
        p.add_argument("--k", type=int, default=None, help="positives to return (default 3)")
    elif name == "show":
        p.add_argument("id", type=int, help="entry id")
    elif name == "snapshot":
        p.add_argument("name", help="checkpoint name, e.g. ck-003")
    elif name in ("export", "import"):
        p.add_argument("file", type=Path, help="JSON-lines file")
    if name in ("search", "import"):
        p.add_argument(
            "--embedder",
            default=None,
            help="hashing | minilm | bge-m3:PATH (default: the one the KB was built with; "
            "for a new KB: minilm when installed, else hashing)",
        )


def _open(args, must_exist: bool = True):
    from knowledge_base.embedders import make_embedder
    from knowledge_base.store import KnowledgeBase

    root = args.kb or Path(os.environ.get(ENV_KB, "kb"))
    if must_exist and not (root / "kb.sqlite").is_file():
        raise FileNotFoundError(f"no knowledge base at {root} (use --kb or ${ENV_KB})")
    spec = getattr(args, "embedder", None)
    embedder = make_embedder(spec) if spec else None
    if (root / "manifest.json").is_file():  # a snapshot folder: read-only
        return KnowledgeBase(root, embedder=embedder, read_only=True, snapshot=root.name)
    # Looking never writes: an agent may be writing this store right now, and a reader must not
    # repair or persist its index behind the writer's back (a stale index is repaired in memory).
    return KnowledgeBase(root, embedder=embedder, read_only=args.kb_command in READ_ONLY)


def run_kb(args) -> int:
    from knowledge_base.embedders import EmbedderUnavailable
    from knowledge_base.imports import ImportFileError, read_export
    from knowledge_base.lock import StoreBusy

    try:
        if args.kb_command == "import":  # a bad file is refused before the store is even created
            args.entries = read_export(args.file)
        with _open(args, must_exist=args.kb_command != "import") as kb:
            return COMMANDS[args.kb_command](kb, args)
    except ImportFileError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"kb import: {len(exc.problems)} bad line(s) in {exc.path}; nothing imported", file=sys.stderr)
        return 2
    except (FileNotFoundError, FileExistsError, EmbedderUnavailable, ValueError, PermissionError) as exc:
        print(f"kb {args.kb_command}: {exc}", file=sys.stderr)
        return 2
    except (KeyError, StoreBusy) as exc:
        print(f"kb {args.kb_command}: {exc.args[0]}", file=sys.stderr)
        return 1


def _stats(kb, args) -> int:
    from knowledge_base.monitor import monitor

    stats = kb.stats()
    stats["checkpoints"] = [m.model_dump() for m in monitor(kb)]
    if args.json:
        print(json.dumps(stats, indent=2, sort_keys=True))
        return 0
    print(f"{stats['path']}: generation {stats['generation']}, embedder {stats['embedder']}")
    for key, value in stats["state"].items():
        print(f"  {key}: {value}")
    print(
        f"  held-out targets: {stats['held_out_targets']}; index: {stats['index']['mode']}; "
        f"bm25 base {stats['bm25']['base']} + delta {stats['bm25']['delta']}"
    )
    cfg = stats["config"]
    print(
        f"  admission: c >= {cfg['admit_confidence']}, support >= {cfg['admit_support']}, "
        f"alpha={cfg['alpha']} beta={cfg['beta']} weights={cfg['tier_weights']}"
    )
    print(
        f"  retrieval: {cfg['dense_weight']}*dense + {cfg['lexical_weight']}*bm25, type_min={cfg['type_min']}, "
        f"k+={cfg['k_positive']} k-={cfg['k_negative']} mmr={cfg['mmr_lambda']}"
    )
    for m in stats["checkpoints"]:
        churn = "-" if m["churn"] is None else f"{m['churn']:.3f}"
        print(
            f"  checkpoint {m['checkpoint']}: {m['queries']} queries, verified {m['verified_entries']}, "
            f"admitted rules {m['admitted_rules']}, distinct positives shown {m['distinct_positive_shown']}, "
            f"same top positive {m['top_positive_share']:.0%}, churn {churn}"
        )
    return 0


def _search(kb, args) -> int:
    from knowledge_base.records import RetrievalQuery

    query = RetrievalQuery(
        text=args.query,
        failure_type=args.failure_type,
        task_id=args.task,
        task_group=args.group,
        stream_position=args.position,
        held_out_targets=frozenset(args.held_out),
        k_positive=args.k,
    )
    result = kb.retrieve(query)
    if args.json:
        print(result.model_dump_json(indent=2))
        return 0
    print(
        f"embedder: {result.embedder}; eligible: "
        + ", ".join(
            f"{p} {r.eligible} (searched {r.searched}{', typed' if r.type_conditioned else ''})"
            for p, r in result.pools.items()
        )
    )
    for hit in result.positives + result.negatives:
        first = " | ".join(hit.text.splitlines())
        print(
            f"  {hit.polarity} #{hit.id} {hit.kind:<10} score {hit.score:.3f} (dense {hit.dense:.3f}, "
            f"bm25 {hit.lexical:.3f}){' advisory' if hit.advisory else ''}  {first[:70]}"
        )
    if not (result.positives or result.negatives):
        print("  no eligible entries")
    return 0


def _show(kb, args) -> int:
    entry = kb.get(args.id)
    out = {"entry": entry.model_dump(mode="json"), "events": kb.events(args.id)}
    print(json.dumps(out, indent=2, sort_keys=True))
    return 0


def _snapshot(kb, args) -> int:
    snap = kb.snapshot(args.name)
    print(f"snapshot {args.name}: {snap.root} (generation {snap.sql.generation()}, {len(snap)} entries)")
    snap.close()
    return 0


def _export(kb, args) -> int:
    from knowledge_base.checkpoints import export_records

    print(f"exported {export_records(kb, args.file)} entries to {args.file}")
    return 0


def _import(kb, args) -> int:
    from knowledge_base.imports import import_records

    result = import_records(kb, args.entries)
    print(
        f"imported {args.file} into {kb.root}: {result.new} new, {result.present} already present "
        f"(embedder {kb.embedder_name})"
    )
    return 0


COMMANDS = {
    "stats": _stats,
    "search": _search,
    "show": _show,
    "snapshot": _snapshot,
    "export": _export,
    "import": _import,
}
