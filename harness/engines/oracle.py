"""Oracle engines and the transcript recorder: Oracle's own behaviour is the ground truth.

Engines: **testcontainers** Oracle Free (`gvenzl/oracle-free`, needs a Docker engine), **DSN**
(`user/password@host:port/service`, python-oracledb in thin mode: no Oracle client install), and
**recorded transcripts** (replay; the default and what CI uses — see `harness.ground_truth.scenarios`).
Neither live engine can run on machines without Docker and without an Oracle; their tests are
skipped there with that reason.

Recording (`migrator record`): for every scenario, drop the recording user's objects and deploy
the Oracle source of every unit in dependency order, then run the setup and the steps with
DBMS_OUTPUT enabled, capturing rows, output lines and errors. Redeploying per scenario mirrors the
PostgreSQL side, where each scenario runs in a fresh clone of the deployed database: sequences
restart, package state is new, and COMMITs or autonomous transactions of one scenario cannot leak
into the next. It is slow on Oracle (a full deploy per scenario) and that is the price of
comparable evidence. Use a dedicated, empty Oracle user: everything it owns is dropped.
"""

from __future__ import annotations

import datetime as dt
import decimal
import platform
import time
from collections.abc import Iterable
from typing import Any, Protocol

from harness.engines.postgres import EngineUnavailable, docker_available
from harness.ground_truth.scenarios import OraErrorOutcome, Outcome, Provenance, ScenarioFile, TranscriptFile

RECORDER_VERSION = "migrator-recorder/1"
ORACLE_IMAGE = "gvenzl/oracle-free:23-slim"


class OracleEngine(Protocol):
    name: str

    def __enter__(self) -> OracleEngine: ...
    def __exit__(self, *exc: object) -> None: ...
    def connect(self): ...


def _oracledb():
    try:
        import oracledb  # thin mode by default: pure Python
    except ImportError as exc:
        raise EngineUnavailable("python-oracledb is not installed (pip install '.[containers]')") from exc
    return oracledb


class DsnOracle:
    name = "oracle-dsn"

    def __init__(self, dsn: str):
        user_pw, _, self._dsn = dsn.rpartition("@")
        self._user, _, self._password = user_pw.partition("/")
        if not (self._user and self._password and self._dsn):
            raise EngineUnavailable("Oracle DSN must look like user/password@host:port/service")

    def __enter__(self) -> DsnOracle:
        self.connect().close()
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def connect(self):
        return _oracledb().connect(user=self._user, password=self._password, dsn=self._dsn)


class ContainerOracle:
    name = "oracle-testcontainers"

    def __init__(self, image: str = ORACLE_IMAGE):
        self._image = image
        self._container = None

    def __enter__(self) -> ContainerOracle:
        try:
            from testcontainers.oracle import OracleDbContainer
        except ImportError as exc:
            raise EngineUnavailable("testcontainers is not installed (pip install '.[containers]')") from exc
        if not docker_available():
            raise EngineUnavailable("no Docker engine answers on this machine: Oracle Free cannot start")
        self._container = OracleDbContainer(self._image).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._container is not None:
            self._container.stop()

    def connect(self):
        c = self._container
        assert c is not None
        url = c.get_connection_url()  # oracle+oracledb://user:pw@host:port/?service_name=FREEPDB1
        creds, _, rest = url.split("://", 1)[1].rpartition("@")
        user, _, password = creds.partition(":")
        host_port = rest.split("/", 1)[0]
        service = rest.rsplit("service_name=", 1)[-1] if "service_name=" in rest else "FREEPDB1"
        return _oracledb().connect(user=user, password=password, dsn=f"{host_port}/{service}")


def oracle_engine(spec: str) -> OracleEngine:
    return ContainerOracle() if spec == "testcontainers" else DsnOracle(spec)


def to_transcript_value(value: Any) -> Any:
    """Oracle driver values → YAML scalars in the transcript's documented forms."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        text = value.strftime("%Y-%m-%d %H:%M:%S")
        return text + (f".{value.microsecond:06d}".rstrip("0") if value.microsecond else "")
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    if hasattr(value, "read"):  # LOB
        return to_transcript_value(value.read())
    return value


def _read_output(cursor) -> list[str]:
    lines: list[str] = []
    line_var, status_var = cursor.var(str), cursor.var(int)
    while True:
        cursor.callproc("dbms_output.get_line", (line_var, status_var))
        if status_var.getvalue() != 0:
            return lines
        lines.append(line_var.getvalue() or "")


def run_step(cursor, sql: str) -> Outcome:
    oracledb = _oracledb()
    try:
        cursor.execute(sql)
        rows = [[to_transcript_value(v) for v in r] for r in cursor.fetchall()] if cursor.description else None
        return Outcome(rows=rows, output=_read_output(cursor))
    except oracledb.DatabaseError as exc:
        err = exc.args[0]
        message = getattr(err, "message", str(err)).split("\n", 1)[0]
        code = f"ORA-{abs(err.code):05d}"
        text = message.split(": ", 1)[1] if message.startswith(code) and ": " in message else message
        return Outcome(error=OraErrorOutcome(code=code, message=text), output=_read_output(cursor))


_DROP_ALL = """
BEGIN
  FOR o IN (SELECT object_name, object_type FROM user_objects
            WHERE object_type IN ('TABLE','VIEW','SEQUENCE','FUNCTION','PROCEDURE','PACKAGE','TYPE','SYNONYM',
                                  'MATERIALIZED VIEW')) LOOP
    BEGIN
      EXECUTE IMMEDIATE 'DROP ' || o.object_type || ' "' || o.object_name || '"'
        || CASE o.object_type WHEN 'TABLE' THEN ' CASCADE CONSTRAINTS PURGE' WHEN 'TYPE' THEN ' FORCE' END;
    EXCEPTION WHEN OTHERS THEN NULL;  -- already dropped with its table / package
    END;
  END LOOP;
END;"""


def _deploy(cur, units: list[tuple[str, str]]) -> list[str]:
    problems = []
    cur.execute(_DROP_ALL)
    for unit_id, text in units:
        try:
            cur.execute(text)
        except _oracledb().DatabaseError as exc:
            problems.append(f"{unit_id}: {exc}")
    cur.connection.commit()
    return problems


# A second run of every scenario, this long after the first began, tells apart the steps whose
# answer moves with a clock FIXED_DATE does not hold: it freezes SYSDATE only (SYSTIMESTAMP,
# CURRENT_DATE, CURRENT_TIMESTAMP, LOCALTIMESTAMP keep running), and where ALTER SYSTEM is not
# granted nothing is frozen at all.
SECOND_RUN_AFTER_S = 1.1


def _run_scenario(cur, conn, units, scenario, problems: list[str]) -> tuple[dict[str, Outcome], str | None, bool]:
    """Redeploy, run `scenario`; returns its outcomes, the SYSDATE it read (the instant the judge
    must use when FIXED_DATE could not be set) and whether its clock was frozen."""
    found = _deploy(cur, units)
    problems.extend(p for p in found if p not in problems)
    cur.callproc("dbms_output.enable", (None,))
    frozen = False
    if scenario.fixed_date:  # needs ALTER SYSTEM privilege; reset below whatever happens
        try:
            cur.execute(f"ALTER SYSTEM SET FIXED_DATE = '{scenario.fixed_date.replace(' ', '-')}'")
            frozen = True
        except _oracledb().DatabaseError as exc:  # ORA-01031: the clock runs; the judge follows it
            problems.append(f"{scenario.id}: FIXED_DATE not set ({exc}); recorded on the real clock")
    try:
        read = cur.execute("SELECT TO_CHAR(SYSDATE, 'YYYY-MM-DD HH24:MI:SS') FROM dual").fetchone()[0]
        for stmt in scenario.setup:
            cur.execute(stmt.oracle)
        outcomes = {step.name: run_step(cur, step.oracle) for step in scenario.steps}
    finally:
        conn.rollback()
        if frozen:
            cur.execute("ALTER SYSTEM SET FIXED_DATE = NONE")
    return outcomes, read, frozen


def record(
    engine: OracleEngine, units: Iterable[tuple[str, str]], scenarios: ScenarioFile
) -> tuple[TranscriptFile, list[str]]:
    """Per scenario: redeploy (unit_id, oracle source) in order into the empty user, run it —
    twice, a moment apart: a step that answers differently the second time read a clock nothing
    froze and is recorded `clock_dependent` (never compared). A scenario whose FIXED_DATE could
    not be set keeps the SYSDATE it read (`TranscriptFile.clocks`): the judge runs the converted
    code at that instant. Returns the transcript and the problems (a unit Oracle itself refuses
    is a fixture bug worth knowing; they are reported once)."""
    units = list(units)
    conn = engine.connect()
    problems: list[str] = []
    clocks: dict[str, str] = {}
    with conn.cursor() as cur:
        banner = cur.execute("SELECT banner_full FROM v$version").fetchone()[0]
        outcomes: dict[str, dict[str, Outcome]] = {}
        for scenario in scenarios.scenarios:
            started = time.monotonic()
            first, read, frozen = _run_scenario(cur, conn, units, scenario, problems)
            time.sleep(max(0.0, SECOND_RUN_AFTER_S - (time.monotonic() - started)))
            again, _read, _frozen = _run_scenario(cur, conn, units, scenario, problems)
            outcomes[scenario.id] = {
                name: o.model_copy(update={"clock_dependent": True}) if again.get(name, o) != o else o
                for name, o in first.items()
            }
            if scenario.fixed_date and not frozen and read:
                clocks[scenario.id] = read
    provenance = Provenance(
        kind="oracle",
        banner=banner,
        version=conn.version,
        recorded_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        recorder=f"{RECORDER_VERSION} python-{platform.python_version()}",
        clock="FIXED_DATE per scenario (SYSDATE); each scenario run twice, a moment apart",
    )
    conn.close()
    transcript = TranscriptFile(
        schema=scenarios.schema_name, provenance=provenance, outcomes=outcomes, clocks=clocks or None
    )
    return transcript, problems
