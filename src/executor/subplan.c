/*
 * subplan.c: rl_subplan(?k, args...), a subquery nested deep in a statement run as a
 * statement of its own, as PostgreSQL runs a SubPlan with parameters.
 *
 * SQLite's parser stack (100 entries) and expression depth (1000) refuse the text of
 * a statement that nests subqueries a few dozen deep, where PostgreSQL takes a
 * thousand and more. The analyser therefore writes the subquery that would be the
 * SUBPLAN_NESTING-th nested in a text as a call of rl_subplan (parser/parse_subplan.c):
 * ?k is bound to its EXPR_SUBLINK, whose SubPlan holds a statement that gives the
 * subquery's value as one row of one column (its EXISTS, IN or scalar value, with
 * rl_scalar's 21000 for a second row), and the values it reads from outside (outer
 * queries' columns, parameters, IN's left operand) are the call's further arguments,
 * bound to the statement's binds numbered SUBPLAN_ARG(i). A statement's text then
 * nests fewer than SUBPLAN_NESTING subqueries whatever the nesting; the depth is in
 * C, one rl_subplan call inside another's sqlite3_step per SUBPLAN_NESTING - 1 levels.
 *
 * Invariants:
 *  - the statement comes from the connection's kept statements (cached_statement),
 *    so it is compiled once and reused call after call; one still running (the same
 *    text deeper in the recursion) is not handed out twice, another is prepared. It
 *    is released (reset, or finalized if it failed) before the call returns, an
 *    ERROR included, so nothing outlives the statement that called it.
 *  - the value is SQLite's as the statement computed it (sqlite3_result_value), so
 *    it comes back with the storage class the subquery's column gives, as a
 *    subquery written in place would.
 *  - an ERROR inside (an rl_eval in the subplan, rl_scalar's 21000, a cancel or
 *    statement_timeout seen by the progress handler, SQLite's own) is caught here as
 *    rl_eval catches one: SQLite's error now, the ERROR with its SQLSTATE raised once
 *    the outermost statement returns (callback_failed).
 *  - recursion is bounded by the stack: past the process's stack limit less a
 *    reserve, 54001 "stack depth limit exceeded" with a HINT, as the parser's.
 */
#include <setjmp.h>
#include <stdint.h>
#include <sys/resource.h>

#include "catalog/cache_sqlite.h"
#include "executor/subplan.h"
#include "nodes/primnodes.h"
#include "utils/elog.h"
#include "utils/mcxt.h"

/* the stack left below the deepest call: SQLite's VM and the ERROR's reporting */
#define SUBPLAN_STACK_RESERVE ((rlim_t) 2 * 1024 * 1024)

static int	depth;				/* rl_subplan calls under way */
static uintptr_t stack_base;	/* the address of a local of the outermost one */

/* check_stack -- 54001 once the calls under way took what the stack has */
static void
check_stack(void)
{
	static rlim_t usable;
	char		here;

	if (usable == 0)
	{
		struct rlimit rl;

		usable = getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
			rl.rlim_cur > 2 * SUBPLAN_STACK_RESERVE ? rl.rlim_cur - SUBPLAN_STACK_RESERVE : 8 * 1024 * 1024;
	}
	if (depth == 0)
		stack_base = (uintptr_t) &here;
	else if ((rlim_t) (stack_base - (uintptr_t) &here) > usable)
		ereport(ERROR,
				errcode(ERRCODE_STATEMENT_TOO_COMPLEX),
				errmsg("stack depth limit exceeded"),
				errhint("The statement nests subqueries too deeply to be run."));
}

/* bind -- the SubPlan's binds: constants by value, outer values from args, trees by pointer */
static void
bind(sqlite3_stmt *stmt, const SqlStatement *s, int argc, sqlite3_value **argv)
{
	for (int i = 0; i < s->nbinds; i++)
	{
		const Expr *e = s->binds[i];

		if (e->kind == EXPR_CONST)
			to_sqlite(&(SqliteSink) {.stmt = stmt, .index = i + 1}, &e->constval);
		else if (e->kind == EXPR_PARAM)
		{
			int			arg = SUBPLAN_ARG(e->paramno);

			if (arg < 0 || arg + 1 >= argc)
				ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR),
						errmsg("rl_subplan: no argument %d", arg));
			sqlite3_bind_value(stmt, i + 1, argv[arg + 1]);
		}
		else
			sqlite3_bind_pointer(stmt, i + 1, (void *) e, "rl_expr", NULL);
	}
}

void
ExecSubPlan(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const Expr *e = argc > 0 ? sqlite3_value_pointer(argv[0], "rl_expr") : NULL;
	sigjmp_buf *save = PG_exception_stack;
	MemoryContext context = CurrentMemoryContext;
	sigjmp_buf	local;
	sqlite3_stmt *volatile stmt = NULL;
	int			saved_depth = depth;

	if (e == NULL || e->subplan == NULL)
	{
		sqlite3_result_error(ctx, "rl_subplan: bad arguments", -1);
		return;
	}
	if (sigsetjmp(local, 0) != 0)
	{
		depth = saved_depth;
		release_statement(stmt, true);
		callback_caught(ctx, save, context);
		return;
	}
	PG_exception_stack = &local;
	check_stack();
	depth++;
	stmt = cached_statement(e->subplan->stmt.sql);
	bind(stmt, &e->subplan->stmt, argc, argv);

	int			rc = sqlite3_step(stmt);

	if (rc == SQLITE_ROW)
		sqlite3_result_value(ctx, sqlite3_column_value(stmt, 0));
	else if (rc == SQLITE_DONE)
		sqlite3_result_null(ctx);
	else
		sqlite_error(sqlite3_extended_errcode(cache_db), "run a subquery");
	release_statement(stmt, false);
	depth = saved_depth;
	PG_exception_stack = save;
}
