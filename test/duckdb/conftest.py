"""Fixtures for the DuckDB end-to-end tests: one RockLake and one PostgreSQL 15 server
per test session, a fresh lake (database + DATA_PATH) per scenario run, and the
differential check of every RockLake transcript against PostgreSQL's.

A session runs one DuckDB client, the one its virtualenv holds; RL_DUCKDB_CLIENT, when
set (test/scripts/duckdb.sh sets it), names the version that run expects.
"""

import os
import re
from typing import Callable

import duckdb
import pytest

from lakes import Lake
from servers import Server


def pytest_configure(config):
    expected = os.environ.get("RL_DUCKDB_CLIENT")
    if expected and expected != duckdb.__version__:
        raise pytest.UsageError(f"RL_DUCKDB_CLIENT is {expected}, this virtualenv's DuckDB {duckdb.__version__}")


def pytest_report_header(config):
    return f"DuckDB client {duckdb.__version__}"


def _server(kind: str, tmp_path_factory) -> Server:
    server = Server(kind, tmp_path_factory.mktemp(kind))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory):
    yield from _server("postgres", tmp_path_factory)


@pytest.fixture(scope="session")
def rocklake_server(tmp_path_factory):
    yield from _server("rocklake", tmp_path_factory)


@pytest.fixture
def new_lake(request, tmp_path_factory) -> Callable[[str], Lake]:
    """new_lake(backend): an empty lake on that backend's session server."""
    def make(backend: str) -> Lake:
        server = request.getfixturevalue(f"{backend}_server")
        name = re.sub(r"\W+", "_", request.node.name).strip("_").lower()[:40]
        return Lake(server, server.create_database(name), tmp_path_factory.mktemp("data"))
    return make


@pytest.fixture(scope="session")
def reference_transcripts() -> dict:
    return {}


@pytest.fixture
def run_scenario(new_lake, reference_transcripts):
    """run_scenario(scenario, backend): run it on a new lake and return the transcript;
    on RockLake, first check that it equals PostgreSQL's (run on demand)."""
    def run(scenario: Callable[[Lake], None], backend: str) -> list:
        if backend == "postgres" or scenario not in reference_transcripts:
            lake = new_lake("postgres")
            scenario(lake)
            reference_transcripts[scenario] = lake.transcript
        if backend == "postgres":
            return reference_transcripts[scenario]
        lake = new_lake(backend)
        scenario(lake)
        assert_same_transcript(lake.transcript, reference_transcripts[scenario], backend)
        return lake.transcript
    return run


def assert_same_transcript(got: list, expected: list, backend: str) -> None:
    for step, (g, e) in enumerate(zip(got, expected)):
        assert g == e, f"step {step}: {backend} differs from postgres\n  {backend}: {g!r}\n  postgres: {e!r}"
    assert len(got) == len(expected), f"{backend} ran {len(got)} steps, postgres {len(expected)}"
