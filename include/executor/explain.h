/*
 * explain.h: EXPLAIN and the plans the server log shows of slow statements
 * (explain.c; PostgreSQL has it in commands/explain.c).
 *
 *   ExplainQuery      EXPLAIN [ANALYZE] statement: its "QUERY PLAN" lines as rows
 *   ExplainPlanText   the plan of a statement that ran, for the log (rocklake.log_slow_plans)
 */
#ifndef RL_EXPLAIN_H
#define RL_EXPLAIN_H

#include "executor/executor.h"
#include "nodes/parsenodes.h"

/*
 * Run EXPLAIN stmt (stmt->explain; with ANALYZE its statement is executed, as in
 * PostgreSQL, in the transaction it runs in): an ExecState handing out one row per
 * line of the plan, in PostgreSQL's text layout.
 */
ExecState  *ExplainQuery(AnalyzedStmt *stmt, const Value *params);

/*
 * The plan EXPLAIN (COSTS OFF) shows of stmt (a COPY's: its query's), its lines
 * joined by newlines; NULL for a statement without one (SET, BEGIN, DDL). Called
 * inside the statement's transaction, after it ran.
 */
char	   *ExplainPlanText(AnalyzedStmt *stmt, const Value *params);

#endif
