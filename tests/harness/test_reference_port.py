"""Ground truth from a trusted PostgreSQL port, recorded on the real embedded server.

The port's first file needs its second file first (only retry rounds deploy it), one statement
never deploys (reported with file, line and PostgreSQL's error), one scenario's setup fails on
the port (left out), one step fails with an error Oracle has no code for (not recorded). The
recorded transcript then judges two conversions: the faithful one is `correct` but only G2, the
deliberately wrong one `wrong`.
"""

from __future__ import annotations

import hashlib

import pytest
import yaml

from harness.ground_truth.oracle_errors import BY_CODE
from harness.ground_truth.scenarios import ScenarioFile, dump_transcript, load_transcript
from harness.ground_truth.trusted_port import content_hash, port_statements, record_reference
from harness.ground_truth.trusted_port_outcomes import ora_code
from harness.judge.verify import UnitToVerify, verify
from migrator.cli.main import main

PORT = {
    # Needs items from 02_tables.sql: deploys in the second round.
    "01_views.sql": "CREATE VIEW v_items AS SELECT id, upper(name) AS name FROM items;\n",
    "02_tables.sql": """-- the trusted port's tables and code
CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL, added date);
INSERT INTO items VALUES (1, 'bolt', DATE '2024-01-02'), (2, 'nut', NULL);

CREATE FUNCTION label(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE v text;
BEGIN
  SELECT name INTO v FROM items WHERE id = p;
  IF v IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'O2001', MESSAGE = 'no item ' || p;
  END IF;
  RAISE NOTICE 'label %', p;
  RETURN initcap(v);
END $$;

CREATE FUNCTION strict_name(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE v text; BEGIN SELECT name INTO STRICT v FROM items WHERE id = p; RETURN v; END $$;
""",
    "sub/03_broken.sql": "\n\nCREATE INDEX broken_ix ON no_such_table (x);\n",
}

SCENARIOS = ScenarioFile.model_validate(
    {
        "schema": "app",
        "scenarios": [
            {
                "id": "label",
                "units": ["function:app.label"],
                "steps": [
                    {"name": "bolt", "oracle": "SELECT label(1) FROM dual", "postgres": "SELECT label(1)"},
                    {"name": "missing", "oracle": "SELECT label(9) FROM dual", "postgres": "SELECT label(9)"},
                    {
                        "name": "strict",
                        "oracle": "SELECT strict_name(9) FROM dual",
                        "postgres": "SELECT strict_name(9)",
                    },
                    {
                        "name": "duplicate",
                        "oracle": "INSERT INTO items VALUES (1, 'x', NULL)",
                        "postgres": "INSERT INTO items VALUES (1, 'x', NULL)",
                    },
                ],
            },
            {
                "id": "view",
                "units": ["table:app.items"],
                "steps": [
                    {
                        "name": "rows",
                        "oracle": "SELECT id, name, added, 1.50 FROM v_items JOIN items USING (id) ORDER BY id",
                        "postgres": "SELECT id, v_items.name, added, 1.50 FROM v_items JOIN items USING (id) ORDER BY id",
                    },
                ],
            },
            {
                "id": "unmappable",
                "units": ["view:app.elsewhere"],
                "steps": [
                    {"name": "no_oracle_code", "oracle": "SELECT * FROM nowhere", "postgres": "SELECT * FROM nowhere"}
                ],
            },
            {
                "id": "bad_setup",
                "units": ["function:app.label"],
                "setup": [{"oracle": "INSERT INTO nowhere VALUES (1)", "postgres": "INSERT INTO nowhere VALUES (1)"}],
                "steps": [{"name": "one", "oracle": "SELECT label(1) FROM dual", "postgres": "SELECT label(1)"}],
            },
        ],
    }
)

TABLE = """CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL, added timestamp(0));
INSERT INTO items VALUES (1, 'bolt', '2024-01-02'), (2, 'nut', NULL);
CREATE VIEW v_items AS SELECT id, upper(name) AS name FROM items;"""
LABEL = """CREATE FUNCTION label(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE v text;
BEGIN
  SELECT name INTO STRICT v FROM items WHERE id = p;
  RAISE NOTICE 'label %', p;
  RETURN initcap(v);
EXCEPTION WHEN no_data_found THEN RAISE EXCEPTION USING ERRCODE = 'O2001', MESSAGE = 'no item ' || p;
END $$;
CREATE FUNCTION strict_name(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE v text; BEGIN SELECT name INTO STRICT v FROM items WHERE id = p; RETURN v; END $$;"""
WRONG = LABEL.replace("RETURN initcap(v)", "RETURN lower(v)")  # a deliberately wrong conversion


@pytest.fixture
def port(tmp_path):
    root = tmp_path / "port"
    for rel, text in PORT.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.fixture
def recording(port, pg_engine):
    return record_reference(pg_engine, port, SCENARIOS)


def test_statements_are_read_in_name_order_with_their_lines(port):
    statements = port_statements(port)
    assert [(s.file, s.line) for s in statements][:3] == [
        ("01_views.sql", 1),
        ("02_tables.sql", 2),
        ("02_tables.sql", 3),
    ]
    assert statements[-1].file == "sub/03_broken.sql" and statements[-1].line == 3


def test_retry_rounds_deploy_what_needs_a_later_file_and_report_what_never_deploys(recording):
    assert len(recording.not_deployed) == 1
    assert recording.not_deployed[0].startswith("sub/03_broken.sql:3: ")
    assert "no_such_table" in recording.not_deployed[0]
    assert recording.transcript.outcomes["view"]["rows"].rows  # the view from 01_views.sql exists
    assert recording.rounds == 2


def test_outcomes_are_written_in_oracle_terms(recording):
    label = recording.transcript.outcomes["label"]
    assert label["bolt"].rows == [["Bolt"]] and label["bolt"].output == ["label 1"]
    assert (label["missing"].error.code, label["missing"].error.message) == ("ORA-20001", "no item 9")
    assert label["strict"].error.code == "ORA-01403"
    assert label["duplicate"].error.code == "ORA-00001"
    assert recording.transcript.outcomes["view"]["rows"].rows == [
        [1, "BOLT", "2024-01-02 00:00:00", 1.5],
        [2, "NUT", None, 1.5],
    ]


def test_setup_failures_and_unmappable_errors_are_reported_not_recorded(recording):
    assert [x.split(":")[0] for x in recording.left_out] == ["bad_setup"]
    assert "bad_setup" not in recording.transcript.outcomes
    assert recording.transcript.outcomes["unmappable"] == {}
    assert any(x.startswith("unmappable/no_oracle_code: SQLSTATE 42P01") for x in recording.unrecorded)


def test_the_transcript_validates_and_carries_the_port_hash(recording, port, tmp_path):
    path = tmp_path / "t.yaml"
    dump_transcript(recording.transcript, path)
    loaded = load_transcript(path)
    assert loaded == recording.transcript
    digest = hashlib.sha256()
    for rel in sorted(PORT):
        data = (port / rel).read_bytes()
        digest.update(rel.encode() + b"\x00" + str(len(data)).encode() + b"\x00" + data)
    p = loaded.provenance
    assert p.kind == "reference" and p.content_hash == digest.hexdigest() == content_hash(port)
    assert (
        p.recorder.startswith("migrator-reference-recorder/1") and p.recorded_at and p.version.startswith("PostgreSQL")
    )
    (port / "01_views.sql").write_text(PORT["01_views.sql"] + "-- edited\n")
    assert content_hash(port) != p.content_hash


@pytest.mark.parametrize(("label", "category"), [(LABEL, "correct"), (WRONG, "wrong")])
def test_a_conversion_judged_against_the_reference(recording, pg_engine, label, category):
    units = [UnitToVerify("table:app.items", TABLE, (), True), UnitToVerify("function:app.label", label, (), True)]
    # The scenario left out of the transcript is left out of the judgement too.
    kept = SCENARIOS.model_copy(update={"scenarios": [s for s in SCENARIOS.scenarios if s.id != "bad_setup"]})
    result = verify(pg_engine, "SELECT 1;", units, kept, recording.transcript, do_nothing=False)
    verdict = {x.unit_id: x for x in result.agent.verdicts}["function:app.label"]
    assert result.provenance == "reference"
    assert verdict.category == category, verdict.reason
    assert verdict.tier == "G2"  # agreement with a PostgreSQL port is never G3
    if category == "wrong":
        assert verdict.reason.startswith("label/bolt: rows: expected (Bolt); got (bolt)")


def test_record_reference_on_the_command_line(port, tmp_path, pg_engine, capsys):
    src = tmp_path / "app"
    src.mkdir()
    (src / "items.sql").write_text("CREATE TABLE items (id NUMBER PRIMARY KEY, name VARCHAR2(20), added DATE);\n")
    scen = tmp_path / "scen.yaml"
    scen.write_text(yaml.safe_dump(SCENARIOS.model_dump(by_alias=True)))
    out = tmp_path / "reference.yaml"
    args = ["record", str(src), "--reference", str(port), "--scenarios", str(scen), "--out", str(out)]
    code = main([*args, "--pg-dsn", pg_engine.admin_dsn(), "--no-progress"])
    printed = capsys.readouterr().out
    assert code == 1  # the broken statement, the left-out scenario, the unmappable step
    assert "not deployed on the reference: sub/03_broken.sql:3:" in printed
    assert "provenance reference" in printed
    assert load_transcript(out).provenance.content_hash == content_hash(port)
    assert main([*args[:2], "--reference", str(tmp_path / "nope"), *args[4:]]) == 2
    assert "nope: not a directory" in capsys.readouterr().err
    unwritable = [*args[:-1], str(tmp_path / "no" / "such" / "t.yaml"), "--pg-dsn", pg_engine.admin_dsn()]
    assert main([*unwritable, "--no-progress"]) == 2
    assert "cannot write" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main([*args, "--oracle", "testcontainers"])
    assert exc.value.code == 2


@pytest.mark.parametrize(
    ("sqlstate", "message", "code"),
    [
        ("O2042", "custom text", (-20042, "custom text")),
        ("P0001", "ORA-20001: from a hand port", (-20001, "from a hand port")),
        ("P0001", "plain raise", None),  # no Oracle code: never guessed
        ("P0002", "query returned no rows", (100, "no data found")),
        ("P0003", "query returned more than one row", (-1422, BY_CODE[-1422].message)),
        ("23505", "duplicate key", (-1, "unique constraint violated")),
        ("23503", 'insert or update on table "c" violates foreign key', (-2291, BY_CODE[-2291].message)),
        ("23503", 'update or delete on table "p" violates foreign key', (-2292, BY_CODE[-2292].message)),
        ("22001", "value too long for type character varying(4)", (-6502, BY_CODE[-6502].message)),
        ("OU1AB", "e_custom", (-6510, "unhandled user-defined exception")),
        ("42P01", 'relation "x" does not exist', None),
    ],
)
def test_sqlstates_map_to_oracle_codes_through_the_one_table(sqlstate, message, code):
    assert ora_code(sqlstate, message) == code
