"""Maintenance of a live store through the server: CHECKPOINT answered as PostgreSQL 15
answers it (allowed in a transaction block, refused in an aborted one), and
rocklake_compact() and rocklake_gc(), which the writer runs and which say what they did,
while other sessions commit: nothing committed is lost or changed.
"""

import json
import threading

from test_parity import same_answers, both  # noqa: F401  (both: the fixture)


def test_checkpoint(both):
    """CHECKPOINT's command status, in and out of a transaction block, its syntax and
    its refusal in an aborted transaction"""
    same_answers(both, [
        "CHECKPOINT",
        "BEGIN",
        "CHECKPOINT",
        "COMMIT",
        "CHECKPOINT now",
        "BEGIN",
        "SELECT 1 / 0",
        "CHECKPOINT",
        "ROLLBACK",
    ])


def test_compact_and_gc_under_load(rocklake_server):
    """rocklake_compact() and rocklake_gc() while two sessions insert: each returns its
    summary as json, compaction leaves one sorted run, and every acknowledged row is there"""
    with rocklake_server.connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS mt_rows")
        conn.execute("CREATE TABLE mt_rows (w integer, i integer)")
    errors = []

    def insert(w):
        try:
            with rocklake_server.connect(autocommit=True) as c:
                for i in range(40):
                    c.execute("INSERT INTO mt_rows VALUES (%s, %s)", (w, i))
        except Exception as e:  # noqa: BLE001  (reported below)
            errors.append(e)

    threads = [threading.Thread(target=insert, args=(w,)) for w in range(2)]
    for t in threads:
        t.start()
    with rocklake_server.connect(autocommit=True) as conn:
        summaries = []
        for _ in range(3):
            conn.execute("CHECKPOINT")
            summaries.append(conn.execute("SELECT rocklake_compact()").fetchone()[0])
            summaries.append(conn.execute("SELECT rocklake_gc()").fetchone()[0])
        for t in threads:
            t.join()
        assert not errors, errors
        for s in summaries:
            s = s if isinstance(s, dict) else json.loads(s)
            assert s["task"] in ("compact", "gc")
            assert s["objects_after"] > 0 and s["bytes_after"] > 0 and s["deleted"] >= 0
            if s["task"] == "compact":
                assert s["sorted_runs"] == 1
        assert conn.execute("SELECT count(*), sum(i) FROM mt_rows").fetchone() == (80, 2 * 780)
        assert conn.execute("SELECT pg_typeof(rocklake_gc())").fetchone()[0] == "json"
        conn.execute("DROP TABLE mt_rows")
