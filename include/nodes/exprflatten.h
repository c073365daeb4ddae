/*
 * exprflatten.h: one rl_eval call for a whole subtree of executor-evaluated operators.
 *
 * What SQLite cannot compute as PostgreSQL does (arithmetic with overflow checks, casts,
 * most functions) the analyser hands to the executor through rl_eval(?k, leaves...): ?k
 * is bound to a tree of such operators whose leaves -- the values SQLite computes
 * (columns, parameters, subqueries, natively compared terms) -- are slots, EXPR_PARAM
 * nodes numbered from 0 in the order of the call's arguments. Constants stay in the
 * tree. One call per maximal subtree keeps SQLite's expression depth (1000) and parser
 * stack (100 entries) out of the way of `x+x+...+x` or `abs(abs(...(x)))` over a column,
 * which PostgreSQL takes some 4 000 deep. SQLite allows a function at most
 * FLATTEN_ARGS_MAX arguments besides ?k: a tree of more leaves passes them in packs,
 * each argument rl_pack(leaves...) of per = FLATTEN_ARGS_MAX leaves (packs of packs,
 * per = FLATTEN_ARGS_MAX^k, past FLATTEN_ARGS_MAX^2 leaves; the last argument may hold
 * fewer), so slot s is leaf s % per of argument s / per, and the text nests log126(n)
 * calls, not n / 126. FLATTEN_SLOTS_MAX bounds the distinct leaves of one tree.
 */
#ifndef RL_EXPRFLATTEN_H
#define RL_EXPRFLATTEN_H

#include "nodes/primnodes.h"

/* SQLite's SQLITE_MAX_FUNCTION_ARG (127) less rl_eval's first argument */
#define FLATTEN_ARGS_MAX 126

/* the most leaves of one tree: rl_eval's arguments, each a pack of as many */
#define FLATTEN_SLOTS_MAX (FLATTEN_ARGS_MAX * FLATTEN_ARGS_MAX)

/* what a FlattenLeafFn answers for an argument that is no leaf but part of the tree */
#define FLATTEN_IN_TREE (-1)
/* ... and when the tree has as many slots as it may */
#define FLATTEN_FULL (-2)

/* the slot (0, 1, ...) of the leaf a, or FLATTEN_IN_TREE, or FLATTEN_FULL */
typedef int (*FlattenLeafFn) (void *arg, Expr *a);

/*
 * e as a tree for rl_eval: a copy of e and of the arguments leaf() keeps in the tree,
 * the others slots; NULL when leaf() answered FLATTEN_FULL.
 */
Expr	   *ExprFlatten(Expr *e, FlattenLeafFn leaf, void *arg);

/* the value of slot k, as a constant of type (typmod) */
typedef Value (*FlattenSlotFn) (void *arg, int slot, Oid type, int32_t typmod);

/* The tree with its slots filled: a copy in which each slot is the constant value() gives. */
Expr	   *ExprFillSlots(const Expr *tree, FlattenSlotFn value, void *arg);

#endif
