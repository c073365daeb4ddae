"""Assignment casts: a value of each type put into a column of each type, by INSERT and by
UPDATE, on RockLake and on PostgreSQL 15, which must answer alike (the value stored, as
text, or the SQLSTATE and message). PostgreSQL assigns a value to a column through the
implicit casts, the narrowing ones it marks for assignment and the output of any type
to a string type; a string goes to another type only through an explicit cast. DuckDB
1.5.5 writes into the inlined-data tables DuckDB 1.4.4 made with string values CAST AS
VARCHAR, which PostgreSQL refuses (42804) for a DATE column: RockLake must refuse it too.
The values stored also show the casts themselves (oid and integers, interval and time,
bool to name, arrays element by element) and date/time input errors.
"""

import itertools

import pytest

import answers

COLUMNS = ["int2", "int4", "int8", "float4", "float8", "numeric", "bool", "text", "varchar(5)",
           "character(3)", "name", "date", "time", "timetz", "timestamp", "timestamptz", "interval",
           "json", "jsonb", "uuid", "bytea", "oid", "int4[]", "int8[]", "float8[]", "text[]"]

VALUES = ["1::int2", "70000", "5000000000", "1.5::float4", "2.5e10::float8", "12.345::numeric",
          "true", "'abc'::text", "'2024-01-02'::varchar", "'12'::text", "'t'::character(1)",
          "CAST('2025-01-01' AS VARCHAR)", "date '2024-01-02'", "time '10:00'", "'10:00+02'::timetz",
          "timestamp '2024-01-02 03:04:05'", "timestamptz '2024-01-02 03:04:05+00'",
          "interval '1 day 02:00'", "'{\"a\": 1}'::json", "'{\"a\": 1}'::jsonb",
          "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid", "'\\x01'::bytea", "1::oid",
          "'{1,2}'::int4[]", "'{1.5,NULL}'::float8[]", "'{a}'::text[]", "'{1}'::text[]::text",
          "NULL::text", "'12'", "NULL"]


@pytest.fixture(scope="module")
def both(rocklake_server, postgres_server):
    columns = ", ".join(f"c{i} {t}" for i, t in enumerate(COLUMNS))
    with rocklake_server.connect(autocommit=True) as rl, postgres_server.connect(autocommit=True) as pg:
        for conn in (rl, pg):
            conn.execute("SET TimeZone = 'UTC'")
            conn.execute("DROP TABLE IF EXISTS assigned")
            conn.execute(f"CREATE TABLE assigned (id int, {columns})")
        yield rl, pg
        for conn in (rl, pg):
            conn.execute("DROP TABLE assigned")


def assign(conn, column: int, value: str) -> tuple:
    """What INSERT and UPDATE of value into column answer, and what the column holds."""
    conn.execute("DELETE FROM assigned")
    got = (answers.answer(conn, f"INSERT INTO assigned (id, c{column}) VALUES (1, {value})", with_message=True),
           answers.answer(conn, "INSERT INTO assigned (id) VALUES (2)"),
           answers.answer(conn, f"UPDATE assigned SET c{column} = {value} WHERE id = 2", with_message=True))
    return got + (answers.answer(conn, f"SELECT id, c{column}::text FROM assigned ORDER BY id"),)


@pytest.mark.parametrize("column", range(len(COLUMNS)), ids=COLUMNS)
def test_assignment(both, column):
    rl, pg = both
    different = [(value, got, expected) for value in VALUES
                 for got, expected in [(assign(rl, column, value), assign(pg, column, value))]
                 if got != expected]
    assert not different, f"{COLUMNS[column]}:\n" + "\n".join(map(str, different))


# explicit casts of arrays, element by element (not yet: an element type's modifier,
# varchar(2)[], which RockLake does not keep, nor arrays of numeric or date/time types)
ARRAY_CASTS = [
    "SELECT '{1.5,2.5,NULL}'::float8[]::int4[], '{1,2}'::int4[]::int8[] = '{1,2}'::int8[]",
    "SELECT '{1,0}'::int4[]::bool[], '{t,f}'::bool[]::text[], '{1,NULL}'::int8[]::float8[]",
    "SELECT '{a,b}'::text[]::int4[]",
    "SELECT '{t}'::bool[]::int8[]",
]


@pytest.mark.parametrize("sql", ARRAY_CASTS)
def test_array_cast(both, sql):
    rl, pg = both
    assert answers.answer(rl, sql, with_message=True) == answers.answer(pg, sql, with_message=True)
