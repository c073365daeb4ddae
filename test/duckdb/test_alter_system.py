"""ALTER SYSTEM and pg_reload_conf(), answered by RockLake as PostgreSQL 15 answers them in
the same run: a change is checked as SET checks it, written to the data directory's
auto.conf (rocklake.auto.conf; postgresql.auto.conf on PostgreSQL), applied by
pg_reload_conf(), refused inside a transaction block or for settings that cannot change,
and RESET / RESET ALL take it out again.
"""

import time

from test_parity import same_answers, both  # noqa: F401  (both: the fixture)


def reload_and_wait(both):
    """pg_reload_conf() on both; the postmaster re-reads the file and signals the
    backends, which apply it at their next idle point"""
    same_answers(both, ["SELECT pg_reload_conf()"])
    time.sleep(1.0)


def test_alter_system(both):
    try:
        same_answers(both, [
            "ALTER SYSTEM SET log_min_duration_statement = 250",
            "ALTER SYSTEM SET application_name = 'it''s'",
            "ALTER SYSTEM SET work_mem = '8MB'",
            "ALTER SYSTEM SET work_mem = '9MB'",
            "ALTER SYSTEM SET nosuch_setting = 1",
            "ALTER SYSTEM SET work_mem = 'lots'",
            "ALTER SYSTEM SET server_version = '1'",
            "ALTER SYSTEM SET data_directory = '/elsewhere'",
            "BEGIN",
            "ALTER SYSTEM SET work_mem = '10MB'",
            "ROLLBACK",
        ])
        reload_and_wait(both)
        same_answers(both, ["SHOW log_min_duration_statement", "SHOW work_mem"])
        same_answers(both, ["ALTER SYSTEM RESET log_min_duration_statement"])
        reload_and_wait(both)
        same_answers(both, ["SHOW log_min_duration_statement", "SHOW work_mem"])
    finally:
        same_answers(both, ["ALTER SYSTEM RESET ALL"])
        reload_and_wait(both)
    same_answers(both, ["SHOW log_min_duration_statement", "SHOW work_mem"])
