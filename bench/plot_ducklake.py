"""plot_ducklake.py: PNG plots of a DuckLake benchmark run (bench/run-ducklake-bench.sh
--json FILE) for doc/performance.md: the commit latency distributions of P1 and P3 as
cumulative distributions, RockLake against PostgreSQL 15 of the same run, and P4's
concurrent readers (reads/s and p95 against the number of readers).

usage: plot_ducklake.py RUN.json OUTDIR
"""

import json
import pathlib
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = {"rocklake": "tab:blue", "postgres": "tab:orange"}
LABELS = {"rocklake": "RockLake", "postgres": "PostgreSQL 15"}


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def latency_cdf(name: str, samples: dict, outdir: pathlib.Path) -> pathlib.Path:
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for server, values in samples.items():
        values = sorted(values)
        if values:
            ax.step(values, [(i + 1) / len(values) for i in range(len(values))], where="post",
                    color=COLOURS[server], label=f"{LABELS[server]} (n={len(values)})")
    ax.set_xscale("log")
    ax.set_xlabel("commit latency, ms (log scale)")
    ax.set_ylabel("fraction of commits")
    ax.set_title(name)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    path = outdir / f"{slug(name)}.png"
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def readers_scaling(rows: list[dict], outdir: pathlib.Path) -> list[pathlib.Path]:
    paths = []
    pattern = re.compile(r"(\d+) readers \((\d+) files\): (reads/s|p95)")
    series: dict = {}
    for row in rows:
        m = pattern.fullmatch(row["metric"])
        if row["phase"] == "P4" and m:
            readers, files, what = int(m.group(1)), m.group(2), m.group(3)
            for server, value in (("rocklake", row["rocklake"]), ("postgres", row["baseline"])):
                series.setdefault((files, what), {}).setdefault(server, []).append((readers, value))
    for (files, what), by_server in series.items():
        fig, ax = plt.subplots(figsize=(6, 3.6))
        for server, points in by_server.items():
            points.sort()
            ax.plot([p[0] for p in points], [p[1] for p in points], marker="o",
                    color=COLOURS[server], label=LABELS[server])
        ax.set_xscale("log", base=2)
        ax.set_xlabel("concurrent DuckDB readers")
        ax.set_ylabel("pruned reads per second" if what == "reads/s" else "read latency p95, ms")
        ax.set_title(f"P4 concurrent pruned reads, {files} data files")
        ax.grid(True, alpha=0.3)
        ax.legend()
        path = outdir / f"p4-readers-{files}-{'throughput' if what == 'reads/s' else 'p95'}.png"
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths


def main() -> None:
    run = json.loads(pathlib.Path(sys.argv[1]).read_text())
    outdir = pathlib.Path(sys.argv[2])
    outdir.mkdir(parents=True, exist_ok=True)
    for name, samples in run.get("samples", {}).items():
        print(latency_cdf(name, samples, outdir))
    for path in readers_scaling(run["rows"], outdir):
        print(path)


if __name__ == "__main__":
    main()
