/*
 * utility.h: running a utility statement (utility.c).
 */
#ifndef RL_UTILITY_H
#define RL_UTILITY_H

#include "nodes/parsenodes.h"

/*
 * Run stmt (STMT_UTILITY, not UTIL_CACHE) and return its command tag (COMMIT of a
 * failed block: ROLLBACK).
 */
const char *ProcessUtility(const AnalyzedStmt *stmt);

/*
 * Before stmt runs: 25006 if it would change the catalog, a database or a role in a
 * read-only transaction (PostgreSQL's ClassifyUtilityCommandAsReadOnly and
 * ExecCheckXactReadOnly): INSERT, UPDATE, DELETE and COPY FROM of a table that is not
 * temporary, and any DDL, GRANT, CREATE or DROP DATABASE and role command, temporary
 * objects included; EXPLAIN ANALYZE as the statement it runs. Also marks the
 * transaction's first query (SetTransactionReadOnly's "before any query").
 */
void		CheckStatementReadOnly(const AnalyzedStmt *stmt);

#endif
