"""The output directory: one file per unit, the preamble, deploy.sql, and the resume journal.

Layout::

    OUT/<kind>/<schema>.<name>.sql   one PostgreSQL file per unit (names made file-safe)
    OUT/support/00_extensions.sql    CREATE EXTENSION for what the support library needs (by hand only)
    OUT/support/00_preamble.sql      schema, search_path, support libraries (deployed first)
    OUT/deploy.sql                   psql -f deploy.sql: extensions, preamble, every unit in order
    OUT/report.json, OUT/report.md   the run report
    OUT/steps.json                   every scenario step's outcomes (verified runs)
    OUT/review/                      the review site (`migrator review OUT`)
    OUT/.migrator/journal.jsonl      one line per finished unit, for --resume
    OUT/.migrator/written.txt        every file a run wrote (what --force may remove)

Source and output never overlap (a run would read its own output, or --force would delete the
user's source), and --force removes only files listed in written.txt: anything else stays.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
from pathlib import Path
from typing import TextIO

from harness.quoting import comment_text, pg_string, quote_ident
from migrator.convert.context import Conversion, Unconverted
from migrator.errors import MigratorError
from migrator.source.units import Unit

STATE_DIR = ".migrator"
JOURNAL = "journal.jsonl"
WRITTEN = "written.txt"
PREAMBLE = "support/00_preamble.sql"
EXTENSIONS_FILE = "support/00_extensions.sql"
REVIEW_DIR = "review"  # `migrator review OUT` writes its static site here
STEPS_FILE = "steps.json"  # every scenario step's outcomes (migrator.batch.steps_file)

# Support libraries shipped with the rules (module, attribute). They define functions the
# converted code calls (schema `oracompat`); each is deployed once, before any unit.
_SUPPORT_MODULES = (
    ("migrator.convert.oracompat.support", "SUPPORT_SQL"),
    ("migrator.convert.oracompat.runtime", "RUNTIME_SQL"),
    ("migrator.convert.oracompat.packages", "PACKAGES_SQL"),
    ("migrator.convert.oracompat.constraint_state", "CONSTRAINT_STATE_SQL"),
    ("migrator.convert.oracompat.dictionary", "DICTIONARY_SQL"),
    ("migrator.convert.oracompat.spatial", "SPATIAL_SQL"),
    ("migrator.convert.oracompat.object_refs", "OBJECT_REFS_SQL"),
)
_SAFE_FILE = re.compile(r"[^A-Za-z0-9_.-]")


class OutputDirError(MigratorError):
    """OUT cannot be used as asked (non-empty without --force, not a directory, overlaps SRC)."""


def unit_path(unit: Unit) -> str:
    """OUT-relative file of a unit. Names are untrusted (a quoted Oracle name may hold `/`, `;`,
    quotes or a line break) and the path is written into deploy.sql: anything but letters,
    digits, `_`, `.` and `-` becomes `_`, and a short hash of the exact name keeps two names that
    differ only there apart."""
    name = f"{unit.schema}.{unit.name}"
    suffix = unit.id.split("#", 1)[1] if "#" in unit.id else ""
    safe = _SAFE_FILE.sub("_", name).lstrip(".") or "_"
    if safe != name:
        safe = f"{safe[:80]}-{hashlib.sha256(name.encode('utf-8')).hexdigest()[:8]}"
    if suffix:
        safe = f"{safe}__{_SAFE_FILE.sub('_', suffix)}"
    return f"{unit.kind.value}/{safe}.sql"


def check_overlap(src: Path, out: Path) -> None:
    """SRC and OUT must be apart: OUT inside SRC makes every run read its own output; SRC inside
    OUT (or equal) puts the user's files where --force removes things."""
    s, o = src.resolve(), out.resolve()
    if o == s or o.is_relative_to(s) or s.is_relative_to(o):
        raise OutputDirError(
            f"the output directory {out} and the source directory {src} overlap; "
            "choose an --out outside the source (and not containing it)"
        )


def check_writable(out: Path) -> None:
    """OUT, or the nearest folder above it that exists (where it will be made), must be a folder
    this process may write: found before any work, not after a run's reading and converting."""
    place = out.absolute()
    while not place.exists() and place != place.parent:
        place = place.parent
    if not place.is_dir():
        where = "exists" if place == out.absolute() else f"is inside {place}, which exists"
        raise OutputDirError(f"the output directory {out} {where} and is not a directory")
    if not os.access(place, os.W_OK | os.X_OK):
        readonly = os.statvfs(place).f_flag & os.ST_RDONLY
        reason = "it is on a read-only file system" if readonly else "permission denied"
        raise OutputDirError(f"cannot write the output directory {out}: {place}: {reason}")


def prepare_out_dir(out: Path, *, force: bool, resume: bool, rewrites: frozenset[str] = frozenset()) -> list[str]:
    """Make OUT ready. With --force, remove what earlier runs wrote (written.txt) and nothing else;
    returns the OUT-relative paths of files that stay because no run of ours wrote them.

    `rewrites`: unit files this run writes again at the same path. They are left in place to be
    overwritten: a file created afresh costs the kernel far more than one rewritten (on ext4
    without a journal a new inode is not taken from those freed in the last minute, and a run
    that just deleted 1,500 files makes every one of its creations skip them: 0.7 ms instead of
    0.06 ms each here). Only unit files qualify: they mean something only through deploy.sql and
    the report, which are removed here and written last, so a run that stops half-way never
    leaves an old deploy.sql pointing at a mix of old and new unit files."""
    if out.exists() and not out.is_dir():
        raise OutputDirError(f"{out} exists and is not a directory")
    if not out.exists() or not any(out.iterdir()) or resume:
        out.mkdir(parents=True, exist_ok=True)
        return []
    if not force:
        raise OutputDirError(f"{out} is not empty; use --force to overwrite or --resume to continue")
    previous = written_files(out)
    for rel in sorted(previous - rewrites, reverse=True):
        target = _inside(out, rel)
        if target is not None and (target.is_file() or target.is_symlink()):
            target.unlink()
            _prune_empty_dirs(out, target.parent)
    for rel in (JOURNAL, WRITTEN):
        (out / STATE_DIR / rel).unlink(missing_ok=True)
    # the files left to be rewritten stay in the manifest (a run stopped before rewriting them
    # must not leave a file of ours that a later --force would not remove)
    present = _files_under(out)
    kept_ours = sorted(previous & rewrites & present)
    record_written(out, kept_ours)
    return sorted(present - set(kept_ours))


def _files_under(out: Path) -> set[str]:
    """OUT-relative paths of the files and symbolic links under OUT, state folders left out
    (one directory listing per folder: no system call per file)."""
    found: set[str] = set()
    for folder, dirs, files in os.walk(out):
        rel = Path(folder).relative_to(out)
        dirs[:] = [d for d in dirs if d != STATE_DIR]
        links = [d for d in dirs if os.path.islink(os.path.join(folder, d))]  # listed, never entered
        found.update((rel / name).as_posix() for name in (*files, *links))
    return found


def _inside(out: Path, rel: str) -> Path | None:
    """`rel` from the manifest, only if it stays inside OUT (the manifest is a file anyone can edit)."""
    target = out / rel
    try:
        target.resolve().relative_to(out.resolve())
    except ValueError:
        return None
    return target


def _prune_empty_dirs(out: Path, folder: Path) -> None:
    root = out.resolve()
    while folder.resolve() != root and folder.resolve().is_relative_to(root):
        try:
            folder.rmdir()  # only when empty
        except OSError:
            return
        folder = folder.parent


def written_files(out: Path) -> set[str]:
    path = out / STATE_DIR / WRITTEN
    if not path.exists():
        return set()
    return {line for line in path.read_text(encoding="utf-8").splitlines() if line}


def write_output(out: Path, rel: str, text: str) -> Path:
    """Write OUT/rel, recording it in the manifest first (a crash between the two must never
    leave a file of ours that a later --force would not remove)."""
    manifest = out / STATE_DIR / WRITTEN
    if rel not in written_files(out):
        manifest.parent.mkdir(parents=True, exist_ok=True)
        with manifest.open("a", encoding="utf-8") as fh:
            fh.write(rel + "\n")
    return write_recorded(out, rel, text)


def write_recorded(out: Path, rel: str, text: str) -> Path:
    """Write OUT/rel, already in the manifest (record_written)."""
    target = out / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    overwrite_text(target, text)
    return target


def overwrite_text(path: Path, text: str) -> None:
    """Write `text` (UTF-8) to `path`, reusing the blocks of a file already there: its start is
    overwritten and only what is left beyond the new end is cut off. Opening with O_TRUNC (what
    `write_text` does) frees every block of the old file and allocates them again, which on this
    ext4 (mounted with `discard`) cost ~0.15 ms per file, 0.21 s for the 1,467 unit files that a
    re-run with --force rewrites in place, against 0.015 s overwritten. The file ends up the same.
    Elsewhere than POSIX, `write_text` as before (its newline translation included)."""
    if os.name != "posix":
        path.write_text(text, encoding="utf-8")
        return
    data = text.encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if os.fstat(fd).st_size > len(data):
            os.ftruncate(fd, len(data))
    finally:
        os.close(fd)


def record_written(out: Path, rels: list[str]) -> None:
    """Record many files in the manifest at once, before they are written (write_output's rule,
    without re-reading the manifest per file: a review site of 10,000 units is 10,000 pages)."""
    known = written_files(out)
    new = [rel for rel in dict.fromkeys(rels) if rel not in known]
    if new:
        manifest = out / STATE_DIR / WRITTEN
        manifest.parent.mkdir(parents=True, exist_ok=True)
        with manifest.open("a", encoding="utf-8") as fh:
            fh.write("".join(rel + "\n" for rel in new))


def remove_written_under(out: Path, folder: str, keep: frozenset[str] = frozenset()) -> int:
    """Remove the files an earlier run of ours wrote under OUT/folder/ (except `keep`); returns how
    many. Nothing else there is touched, as with --force."""
    prefix = folder.rstrip("/") + "/"
    removed = 0
    for rel in sorted(written_files(out)):
        if not rel.startswith(prefix) or rel in keep:
            continue  # only the files under folder are resolved (a system call per path part)
        target = _inside(out, rel)
        if target is not None and target.is_file():
            target.unlink()
            removed += 1
    return removed


def remove_output(out: Path, rel: str) -> None:
    """Remove a file an earlier run of ours wrote and this run does not (e.g. a stale report)."""
    if rel in written_files(out):
        (out / rel).unlink(missing_ok=True)


def support_sql() -> list[tuple[str, str]]:
    parts = []
    for module_name, attr in _SUPPORT_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        parts.append((module_name, getattr(module, attr)))
    return parts


def required_extensions() -> tuple[str, ...]:
    """Extensions the support libraries need; installed by an admin before the preamble runs."""
    from migrator.convert.oracompat.runtime import EXTENSIONS

    return EXTENSIONS


def extensions_sql(directories: dict[str, str] | None = None) -> str:
    """What an administrator installs before the preamble: the extensions, and the file gate
    UTL_FILE and BFILE go through (harness/engines/file_gate.py) with the run's --directory mapping."""
    from harness.engines.file_gate import GATE_SQL, directories_sql

    lines = [
        "-- Extensions the oracompat support library needs. They need a superuser (or a trusted",
        "-- extension): the migrator harness installs them with its admin connection, never as the",
        "-- role that runs converted code.",
    ]
    lines += [f"CREATE EXTENSION IF NOT EXISTS {quote_ident(e)};" for e in required_extensions()]
    lines += [
        "",
        "-- The file gate: server files for UTL_FILE and BFILE. Run by a superuser (or a role in",
        "-- pg_read_server_files and pg_write_server_files that may EXECUTE lo_export and lo_from_bytea):",
        "-- converted code reaches only the folders mapped below (--directory NAME=PATH), through",
        "-- SECURITY DEFINER functions. FREMOVE / FRENAME also need: CREATE EXTENSION adminpack;",
        "-- (psql: created once; the mapping written by a role that may write it.)",
        "SELECT to_regnamespace('oracompat_fs') IS NULL AS migrator_need_gate \\gset",
        "\\if :migrator_need_gate",
        GATE_SQL.strip(),
        "\\endif",
    ]
    mapping = directories_sql(directories or {}).strip()
    if mapping:
        lines += [
            "SELECT has_table_privilege('oracompat_fs.directory', 'INSERT') AS migrator_may_map \\gset",
            "\\if :migrator_may_map",
            mapping,
            "\\endif",
        ]
    return "\n".join(lines).rstrip() + "\n"


def preamble_sql(
    schema: str, package_schemas: list[str], owners: list[str] | None = None, directories: dict[str, str] | None = None
) -> str:
    """Schemas, the support libraries, and a search_path that makes unqualified names resolve
    as they did in Oracle (own schema first), for this session and every later one. Names are
    untrusted (a package may be called anything): each goes through quote_ident, and the
    database default is taken FROM CURRENT so no name is ever pasted into a string."""
    # a multi-schema run: its owners (the schemas of its units) instead of the run's one schema
    owners = owners or [schema]
    schemas = list(dict.fromkeys([*owners, *package_schemas]))
    lines = [
        f"-- Generated by migrator for Oracle schema {comment_text(schema)}.",
        "CREATE SCHEMA IF NOT EXISTS oracompat;",
    ]
    lines += [f"CREATE SCHEMA IF NOT EXISTS {quote_ident(s)};" for s in schemas if s != "oracompat"]
    for module_name, text in support_sql():
        lines += [f"-- support library from {module_name}", text.strip()]
    # the converted packages (one schema each), for the data dictionary views; in a multi-schema run
    # they are recorded as the run's default schema's (the preamble does not know each one's owner)
    packages = ", ".join(pg_string(s) for s in package_schemas if s not in owners)
    lines.append(
        f"INSERT INTO oracompat.dict_package (pkg_schema, owner) SELECT p, {pg_string(schema)}"
        f" FROM unnest(ARRAY[{packages}]::name[]) AS p ON CONFLICT (pkg_schema) DO UPDATE SET owner = EXCLUDED.owner;"
    )
    if directories:  # the --directory mapping where the gate is (kept as the administrator made it)
        lines += [
            f"DO $migrator$ BEGIN IF to_regnamespace('oracompat_fs') IS NOT NULL THEN PERFORM"
            f" oracompat_fs.create_directory({pg_string(name)}, {pg_string(path)}, true); END IF; END $migrator$;"
            for name, path in sorted(directories.items())
        ]
    path = ", ".join(quote_ident(s) for s in dict.fromkeys([*owners, "oracompat", "public"]))
    lines += [
        f"SET search_path = {path};",
        "DO $migrator$ BEGIN",
        "  EXECUTE format('ALTER DATABASE %I SET search_path FROM CURRENT', current_database());",
        "END $migrator$;",
    ]
    return "\n".join(lines) + "\n"


def deploy_script(paths: list[str]) -> str:
    """psql script; every path comes from unit_path (file-safe characters only)."""
    lines = [
        "-- psql -v ON_ERROR_STOP=1 -f deploy.sql   (run from any directory: includes are relative)",
        "\\set ON_ERROR_STOP on",
        f"\\ir {EXTENSIONS_FILE}",
        f"\\ir {PREAMBLE}",
    ]
    lines += [f"\\ir {p}" for p in paths]
    return "\n".join(lines) + "\n"


def unit_file_text(unit: Unit, conversion: Conversion, repaired: bool = False) -> str:
    """The unit's file: where it came from, what the rules could not do, and the PostgreSQL text.
    `repaired`: the text is the repair agent's, judged by execution, not the rules' output; what
    the rules left undone is then history, not a reason the file fails."""
    header = [f"-- {comment_text(unit.id)}  from {comment_text(str(unit.span))}"]
    if repaired:
        header.append("-- REPAIRED by the repair agent (judged by execution; report.json has its verdict)")
    lead = "-- the rules had not converted: " if repaired else "-- NOT CONVERTED: "
    header += [f"{lead}{comment_text(u.construct)}: {comment_text(u.message)}" for u in conversion.unconverted]
    if conversion.error:
        lead = "-- the rules had failed: " if repaired else "-- CONVERSION FAILED: "
        header.append(lead + comment_text(conversion.error.splitlines()[0]))
    return "\n".join(header) + "\n" + conversion.output.rstrip() + "\n"


def source_hash(unit: Unit, config: str) -> str:
    return hashlib.sha256(f"{config}\0{unit.kind.value}\0{unit.text}".encode("utf-8")).hexdigest()


class Journal:
    """Append-only record of finished units; a crash loses at most the unit in flight."""

    def __init__(self, out: Path):
        self.path = out / STATE_DIR / JOURNAL
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh: TextIO | None = None  # open between __enter__ and __exit__ (one open per run)

    def __enter__(self) -> Journal:
        self._fh = self.path.open("a", encoding="utf-8")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def load(self) -> dict[str, dict]:
        done: dict[str, dict] = {}
        if not self.path.exists():
            return done
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # a torn last line from a crash: that unit is simply redone
            done[record["unit_id"]] = record
        return done

    def append(self, unit: Unit, digest: str, conversion: Conversion) -> None:
        record = {
            "unit_id": unit.id,
            "hash": digest,
            "output": conversion.output,
            "applied_rules": conversion.applied_rules,
            "unconverted": [u.__dict__ for u in conversion.unconverted],
            "notes": conversion.notes,
            "error": conversion.error,
        }
        line = json.dumps(record) + "\n"
        if self._fh is not None:
            self._fh.write(line)
            self._fh.flush()  # on disk as each unit finishes, as when the file was opened per line
            return
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()


def conversion_from_record(record: dict) -> Conversion:
    return Conversion(
        unit_id=record["unit_id"],
        output=record["output"],
        applied_rules=record["applied_rules"],
        unconverted=[Unconverted(**u) for u in record["unconverted"]],
        notes=record["notes"],
        error=record["error"],
    )
