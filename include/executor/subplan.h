/*
 * subplan.h: rl_subplan, the SQLite function that runs a subquery nested deep in a
 * statement as a statement of its own (subplan.c; primnodes.h, SubPlan).
 */
#ifndef RL_SUBPLAN_H
#define RL_SUBPLAN_H

#include <sqlite3.h>

/* rl_subplan(?k, args...): ?k's SubPlan run with args, its one value (NULL if no row) */
void		ExecSubPlan(sqlite3_context *ctx, int argc, sqlite3_value **argv);

#endif
