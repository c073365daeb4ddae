/*
 * analyze.h: parse analysis, raw statement -> AnalyzedStmt (nodes/parsenodes.h).
 *
 * A statement without relations is evaluated by the executor; one that reads or
 * writes relations is translated by the analyser into SQLite SQL (SqlStatement)
 * over the catalog cache, run inside the transaction's snapshot, its writes
 * captured as a changeset. Unsupported statements fail at analysis with 0A000
 * naming the construct.
 */
#ifndef RL_ANALYZE_H
#define RL_ANALYZE_H

#include "nodes/parsenodes.h"
#include "parser/parser.h"

/*
 * Analyse a raw statement of query_string. paramtypes (nparams of them, 0 =
 * unspecified) come from Parse; the result's paramtypes cover every $n the
 * statement uses, each resolved (unknown ones to text). nparams -1: a simple
 * Query, where any $n is 42P02.
 */
AnalyzedStmt *AnalyzeStatement(const RawStatement *raw, const char *query_string,
							   const Oid *paramtypes, int nparams);

/*
 * The OID of a GRANT's grantee, a libpg_query RoleSpec (parse_acl.c): PUBLIC is
 * ACL_ID_PUBLIC (catalog/acl.h), CURRENT_USER and SESSION_USER the session's;
 * 42704 for a role there is none of.
 */
Oid			GranteeOid(const void *rolespec);

#endif
