"""catalog_scan_bench.py: the catalog scans a DuckLake read sends, on RockLake and on
PostgreSQL 15 started in the same run (doc/performance.md, "Catalog scans").

Each server gets a DuckLake catalog made by DuckDB 1.4.4's ATTACH, then TABLES tables'
worth of data files (FILES each, COLUMNS column statistics per file) copied straight into
ducklake_data_file and ducklake_file_column_stats with COPY (commits through DuckDB would
take hours at this size and measure something else). Then, per server, the two scans
DuckDB's postgres extension sends to plan a read of one table, with the filters it
pushes down, as DuckDB 1.4.4 sends them (doc/ducklake-wire.md):
  files: COPY (SELECT ... FROM ducklake_data_file WHERE table_id = T AND begin_snapshot <= S)
  stats: COPY (SELECT ... FROM ducklake_file_column_stats WHERE column_id = C AND table_id = T)
each run REPEAT times over different tables; the median and p95 are printed with the
ratio RockLake / PostgreSQL.

usage: catalog_scan_bench.py [--tables N] [--files N] [--columns N] [--repeat N]
Run by bench/run-catalog-scan-bench.sh, which builds RockLake and sets top_srcdir and
top_builddir for test/duckdb/servers.py.
"""

import argparse
import contextlib
import io
import pathlib
import statistics
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "test" / "duckdb"))

import duckdb_offline  # noqa: E402
from servers import Server  # noqa: E402

FILES_SCAN = ('COPY (SELECT "data_file_id", "table_id", "begin_snapshot", "end_snapshot", "path", '
              '"path_is_relative", "file_size_bytes", "footer_size", "row_id_start", '
              '"partial_file_info", "mapping_id" FROM "public"."ducklake_data_file" '
              'WHERE "table_id" = \'{table}\' AND "begin_snapshot" <= \'{snapshot}\') '
              'TO STDOUT (FORMAT "binary")')
STATS_SCAN = ('COPY (SELECT "column_id", "table_id", "data_file_id", "max_value", "min_value" '
              'FROM "public"."ducklake_file_column_stats" WHERE "column_id" = \'{column}\' '
              'AND "table_id" = \'{table}\') TO STDOUT (FORMAT "binary")')


def populate(server: Server, dbname: str, data: pathlib.Path, args) -> float:
    """A DuckLake catalog made by DuckDB, then the file rows copied in: the seconds the
    copies took."""
    con = duckdb_offline.connect()
    con.execute(f"ATTACH 'ducklake:postgres:{server.dsn(dbname)}' AS lake (DATA_PATH '{data}/')")
    con.close()
    files, stats = io.StringIO(), io.StringIO()
    file_id = 0
    for table in range(1, args.tables + 1):
        for n in range(args.files):
            files.write(f"{file_id}\t{table}\t{n + 1}\t\\N\t{n}\tf{file_id}.parquet\tt\tparquet\t100\t"
                        f"1000\t200\t{n * 100}\t\\N\t\\N\t\\N\t\\N\n")
            for column in range(1, args.columns + 1):
                stats.write(f"{file_id}\t{table}\t{column}\t100\t0\t0\t{n}\t{n + 99}\t\\N\t\\N\n")
            file_id += 1
    start = time.perf_counter()
    with server.connect(dbname) as conn:
        with conn.cursor().copy("COPY ducklake_data_file FROM STDIN") as copy:
            copy.write(files.getvalue())
        with conn.cursor().copy("COPY ducklake_file_column_stats FROM STDIN") as copy:
            copy.write(stats.getvalue())
    return time.perf_counter() - start


def timed_scans(server: Server, dbname: str, template: str, args) -> list[float]:
    """Seconds per scan, REPEAT scans over tables taken in turn."""
    times = []
    with server.connect(dbname, autocommit=True) as conn:
        cur = conn.cursor()
        for i in range(args.repeat):
            table = 1 + (i * 7919) % args.tables
            query = template.format(table=table, snapshot=args.files + 1, column=1 + i % args.columns)
            start = time.perf_counter()
            with cur.copy(query) as copy:
                while copy.read():
                    pass
            times.append(time.perf_counter() - start)
    return times


@contextlib.contextmanager
def both_servers(prefix: str):
    """A RockLake and a PostgreSQL 15 server in a temporary directory, stopped at the end:
    (the directory, {kind: Server})"""
    with tempfile.TemporaryDirectory(prefix=prefix) as work:
        work = pathlib.Path(work)
        for kind in ("rocklake", "postgres"):
            (work / kind).mkdir()
        servers = {kind: Server(kind, work / kind) for kind in ("rocklake", "postgres")}
        try:
            yield work, servers
        finally:
            for server in servers.values():
                server.stop()


def print_header(label: str, width: int) -> None:
    print(f"{label:{width}} {'RockLake p50 ms':>16} {'PostgreSQL p50 ms':>18} {'ratio':>6} "
          f"{'RockLake p95 ms':>16} {'PostgreSQL p95 ms':>18} {'ratio':>6}")


def print_ratios(name: str, width: int, rl: list, pg: list) -> None:
    """p50 and p95 of both servers' times (seconds) in ms, and RockLake's ratio"""
    p50 = (statistics.median(rl) * 1e3, statistics.median(pg) * 1e3)
    p95 = (statistics.quantiles(rl, n=20)[-1] * 1e3, statistics.quantiles(pg, n=20)[-1] * 1e3)
    print(f"{name:{width}} {p50[0]:16.3f} {p50[1]:18.3f} {p50[0] / p50[1]:6.2f} "
          f"{p95[0]:16.3f} {p95[1]:18.3f} {p95[0] / p95[1]:6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--columns", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    with both_servers("rl-scanbench.") as (work, servers):
        copied = {kind: populate(server, server.create_database("scanbench"), work / f"{kind}-data", args)
                  for kind, server in servers.items()}
        print(f"catalog: {args.tables} tables x {args.files} data files, "
              f"{args.columns} column statistics per file "
              f"({args.tables * args.files} + {args.tables * args.files * args.columns} rows)")
        print(f"COPY of those rows in one transaction: RockLake {copied['rocklake']:.2f} s, "
              f"PostgreSQL {copied['postgres']:.2f} s, ratio {copied['rocklake'] / copied['postgres']:.2f}")
        print_header("scan", 8)
        for name, template in (("files", FILES_SCAN), ("stats", STATS_SCAN)):
            # alternate the servers in rounds, so a slow spell of the machine hits both
            runs = {kind: [] for kind in servers}
            for _ in range(4):
                for kind, server in servers.items():
                    runs[kind] += timed_scans(server, "scanbench_1", template,
                                              argparse.Namespace(**{**vars(args), "repeat": args.repeat // 4}))
            print_ratios(name, 8, runs["rocklake"], runs["postgres"])

if __name__ == "__main__":
    main()
