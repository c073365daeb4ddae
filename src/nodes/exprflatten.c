/*
 * exprflatten.c: a subtree of executor-evaluated operators as one rl_eval tree
 * (exprflatten.h tells why).
 *
 * ExprFlatten copies the nodes the analyser keeps in the tree; each argument is asked
 * of the caller's FlattenLeafFn, which gives leaves their slots (it writes their SQLite
 * text as rl_eval's arguments and may give two equal ones one slot). ExprFillSlots
 * makes, per call of rl_eval, a copy in which the slots are constants; the statement's
 * tree itself is never changed, so a cached statement runs it again as it was. Both
 * recurse once a level, as the executor does over the same tree (a backend's stack
 * takes the parse tree's deepest, see "Statement sizes" in doc/design.md), and check
 * for interrupts so that statement_timeout and cancel reach a huge expression.
 */
#include <string.h>

#include "nodes/exprflatten.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

/* copy_node -- a copy of e with room for its arguments, filled by the caller */
static Expr *
copy_node(const Expr *e)
{
	Expr	   *n = palloc(sizeof(Expr));

	*n = *e;
	n->args = palloc(sizeof(Expr *) * (size_t) (e->nargs ? e->nargs : 1));
	return n;
}

Expr *
ExprFlatten(Expr *e, FlattenLeafFn leaf, void *arg)
{
	Expr	   *n = copy_node(e);

	CHECK_FOR_INTERRUPTS();
	for (int i = 0; i < e->nargs; i++)
	{
		Expr	   *a = e->args[i];
		int			slot = leaf(arg, a);

		if (slot == FLATTEN_FULL)
			return NULL;
		if (slot == FLATTEN_IN_TREE)
		{
			n->args[i] = a->kind == EXPR_CONST ? a : ExprFlatten(a, leaf, arg);
			if (n->args[i] == NULL)
				return NULL;
			continue;
		}
		Expr	   *s = palloc0(sizeof(Expr));

		s->kind = EXPR_PARAM;
		s->type = a->type;
		s->typmod = a->typmod;
		s->location = a->location;
		s->paramno = slot;
		n->args[i] = s;
	}
	return n;
}

Expr *
ExprFillSlots(const Expr *tree, FlattenSlotFn value, void *arg)
{
	if (tree->kind == EXPR_PARAM)
	{
		Expr	   *c = palloc0(sizeof(Expr));

		c->kind = EXPR_CONST;
		c->type = tree->type;
		c->typmod = tree->typmod;
		c->location = tree->location;
		c->constval = value(arg, tree->paramno, tree->type, tree->typmod);
		return c;
	}
	if (tree->nargs == 0)
		return (Expr *) tree;

	Expr	   *n = copy_node(tree);

	CHECK_FOR_INTERRUPTS();
	for (int i = 0; i < tree->nargs; i++)
		n->args[i] = ExprFillSlots(tree->args[i], value, arg);
	return n;
}
