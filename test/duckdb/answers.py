"""answer(): what a server says to one statement, in a form two servers' answers can be
compared by: the command status, the rows as text, or the error's SQLSTATE (and, when
asked, its primary message). A lost connection fails the test: a crashed backend
takes every session with it.
"""

import psycopg


def answer(conn: psycopg.Connection, sql: str, *, sort_rows: bool = False,
           with_message: bool = False) -> tuple:
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            if cur.description is None:
                return ("status", cur.statusmessage)
            rows = [tuple(str(v) for v in row) for row in cur.fetchall()]
            return ("rows", sorted(rows) if sort_rows else rows)
    except psycopg.Error as e:
        assert e.sqlstate is not None and not conn.closed, f"{sql[:80]}: connection lost: {e}"
        return ("error", e.sqlstate, e.diag.message_primary) if with_message else ("error", e.sqlstate)
