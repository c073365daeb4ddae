"""DuckDB (1.4.4 or 1.5.5, whichever the running virtualenv holds) with the ducklake and
postgres extensions from PyPI, loaded offline.

The extension wheels hold the signed extension binaries and no code that matters; their
layout differs by release:
- 1.4.4, duckdb-ext-ducklake, duckdb-ext-postgres and duckdb-ext-httpfs:
  duckdb_ext/extensions/v1.4.4/linux_amd64/<name>.duckdb_extension
- 1.5.5, duckdb-extension-ducklake, duckdb-extension-postgres-scanner and
  duckdb-extension-httpfs:
  duckdb_extension_<name>/extensions/v1.5.5/<name>.duckdb_extension
Each binary is found through its distribution's file list and loaded by path (LOAD
'<path>'); autoinstall and autoload are off and the repository is an empty local path, so
DuckDB never goes to the network for an extension, nor loads one from anywhere else.
"""

import importlib.metadata
import pathlib

import duckdb

# extension name -> the distributions that may hold it (1.4.4's, 1.5.5's)
EXTENSIONS = {
    "ducklake": ("duckdb-ext-ducklake", "duckdb-extension-ducklake"),
    "postgres_scanner": ("duckdb-ext-postgres", "duckdb-extension-postgres-scanner"),
    # S3 and HTTP(S) files: readers of versions published to S3 (test_publish.py)
    "httpfs": ("duckdb-ext-httpfs", "duckdb-extension-httpfs"),
}

VERSION = duckdb.__version__


def at_least(version: str) -> bool:
    """Whether this DuckDB is version ("1.5") or later."""
    def parts(v: str) -> tuple:
        return tuple(int(p) for p in v.split(".")[:3])
    return parts(VERSION) >= parts(version)


def extension_path(name: str) -> pathlib.Path:
    """The installed binary of extension name for this DuckDB."""
    for dist_name in EXTENSIONS[name]:
        try:
            dist = importlib.metadata.distribution(dist_name)
        except importlib.metadata.PackageNotFoundError:
            continue
        for f in dist.files or ():
            if f.name == f"{name}.duckdb_extension" and f"v{VERSION}" in f.parts:
                return pathlib.Path(dist.locate_file(f)).resolve()
    raise RuntimeError(f"no {name} extension for DuckDB {VERSION} installed ({', '.join(EXTENSIONS[name])})")


def config() -> dict:
    return {
        "autoinstall_known_extensions": False,
        "autoload_known_extensions": False,
        "allow_community_extensions": False,
        "custom_extension_repository": "/nonexistent",
    }


def connect(database: str = ":memory:") -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with ducklake and postgres loaded from the installed wheels."""
    con = duckdb.connect(database, config=config())
    for name in EXTENSIONS:
        path = str(extension_path(name)).replace("'", "''")
        con.execute(f"LOAD '{path}'")
    return con
