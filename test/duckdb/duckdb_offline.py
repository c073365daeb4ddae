"""DuckDB 1.4.4 with the ducklake and postgres extensions from PyPI, loaded offline.

The wheels duckdb-ext-ducklake and duckdb-ext-postgres hold no Python code, only the
signed extension binaries, laid out as DuckDB's extension directory expects:
site-packages/duckdb_ext/extensions/v1.4.4/linux_amd64/{ducklake,postgres_scanner}.duckdb_extension.
Pointing extension_directory there makes LOAD (and autoload, e.g. of postgres_scanner by
ATTACH 'ducklake:postgres:...') find them; autoinstall is off and the repository is an
empty local path, so DuckDB never goes to the network for an extension.
"""

import importlib.metadata
import pathlib

import duckdb

EXTENSIONS = {"ducklake": "duckdb-ext-ducklake", "postgres_scanner": "duckdb-ext-postgres"}


def extension_directory() -> pathlib.Path:
    """The directory that holds v<version>/<platform>/*.duckdb_extension."""
    dist = importlib.metadata.distribution(EXTENSIONS["ducklake"])
    binary = next(f for f in dist.files or () if f.name == "ducklake.duckdb_extension")
    return pathlib.Path(dist.locate_file(binary)).resolve().parents[2]


def config() -> dict:
    return {
        "extension_directory": str(extension_directory()),
        "autoinstall_known_extensions": False,
        "autoload_known_extensions": True,  # from extension_directory only
        "allow_community_extensions": False,
        "custom_extension_repository": "/nonexistent",
    }


def connect(database: str = ":memory:") -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with ducklake and postgres loaded from the installed wheels."""
    con = duckdb.connect(database, config=config())
    for name in EXTENSIONS:
        con.execute(f"LOAD {name}")
    return con
