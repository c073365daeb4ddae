/*
 * analyze.c: from libpg_query's parse tree to an AnalyzedStmt (executor.h).
 *
 * Every statement is parsed by the PostgreSQL 15 grammar (libpg_query) and then
 * analysed here, never matched as text. Analysis resolves what the statement
 * means and fixes every type before execution, as PostgreSQL's parse analysis
 * does: literals start as "unknown" and take the type their context asks for,
 * parameters without a type from Parse take it from their first use (or become
 * text), operators pick a common type, result columns get PostgreSQL's names
 * ("?column?", the function's name, the cast's type name). That is what lets
 * Describe answer before Execute. Statements and expressions RockLake cannot run
 * yet are refused here with 0A000 naming the construct.
 */
#include <string.h>

#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>

#include "elog.h"
#include "executor.h"
#include "mcxt.h"

typedef PgQuery__Node Node;

typedef struct ParseState
{
	const char *query;
	Oid		   *paramtypes;		/* grows as $n are seen; UNKNOWNOID until resolved */
	int			nparams;
	Expr	  **params_seen;	/* first use of each parameter, to retype it */
	Expr	   *srf;			/* the set-returning function seen, if any */
	bool		params_allowed; /* false for a simple Query */
} ParseState;

/* ---------- parsing ---------- */

static void *
pb_alloc(void *data, size_t size)
{
	return palloc(size);
}

static void
pb_free(void *data, void *pointer)
{
	pfree(pointer);
}

ParsedQuery *
ParseQuery(const char *query_string)
{
	PgQueryProtobufParseResult result = pg_query_parse_protobuf(query_string);

	if (result.error != NULL)
	{
		char	   *message = pstrdup(result.error->message);
		int			cursorpos = result.error->cursorpos;

		pg_query_free_protobuf_parse_result(result);
		ereport(ERROR,
				errcode(ERRCODE_SYNTAX_ERROR),
				errmsg("%s", message),
				errposition(cursorpos));
	}
	ProtobufCAllocator allocator = {.alloc = pb_alloc, .free = pb_free};
	PgQuery__ParseResult *tree =
		pg_query__parse_result__unpack(&allocator, result.parse_tree.len,
									   (const uint8_t *) result.parse_tree.data);

	pg_query_free_protobuf_parse_result(result);
	if (tree == NULL)
		elog(ERROR, "could not decode the parse tree");

	ParsedQuery *pq = palloc0(sizeof(ParsedQuery));

	pq->nstmts = (int) tree->n_stmts;
	pq->stmts = palloc0(sizeof(RawStatement) * (tree->n_stmts ? tree->n_stmts : 1));
	for (size_t i = 0; i < tree->n_stmts; i++)
	{
		pq->stmts[i].node = tree->stmts[i]->stmt;
		pq->stmts[i].location = tree->stmts[i]->stmt_location;
		pq->stmts[i].length = tree->stmts[i]->stmt_len;
	}
	return pq;
}

bool
IsTransactionExitStatement(const RawStatement *raw)
{
	if (raw->node->node_case != PG_QUERY__NODE__NODE_TRANSACTION_STMT)
		return false;
	switch (raw->node->transaction_stmt->kind)
	{
		case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT:
		case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK:
		case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO:
			return true;
		default:
			return false;
	}
}

/* ---------- errors ---------- */

/* char_position -- PostgreSQL's cursor positions count characters from 1 */
static int
char_position(ParseState *ps, int location)
{
	if (location < 0)
		return 0;
	int			chars = 0;

	for (int i = 0; i < location && ps->query[i]; i++)
		if (((unsigned char) ps->query[i] & 0xC0) != 0x80)
			chars++;
	return chars + 1;
}

static void
not_supported(ParseState *ps, const char *what, int location)
{
	ereport(ERROR,
			errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			errmsg("%s is not supported yet", what),
			errposition(char_position(ps, location)));
}

/* node_name -- the protobuf message name of a node ("SubLink", "CreateStmt") */
static const char *
node_name(const Node *node)
{
	const ProtobufCMessage *msg = (const ProtobufCMessage *) node->select_stmt;

	return msg ? msg->descriptor->short_name : "this construct";
}

/* is_set -- protobuf-c gives absent strings as "" rather than NULL */
static bool
is_set(const char *s)
{
	return s != NULL && s[0] != '\0';
}

static const char *
string_value(const Node *node)
{
	return node && node->node_case == PG_QUERY__NODE__NODE_STRING ? node->string->sval : "";
}

/* ---------- types ---------- */

static bool
is_numeric(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t && t->category == TYPCATEGORY_NUMERIC;
}

static int
numeric_rank(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t ? t->numeric_rank : 0;
}

static bool
is_string(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t && t->category == TYPCATEGORY_STRING;
}

static Expr *
make_expr(ExprKind kind, Oid type, int location)
{
	Expr	   *e = palloc0(sizeof(Expr));

	e->kind = kind;
	e->type = type;
	e->typmod = -1;
	e->location = location;
	return e;
}

static Expr *
make_const(Value v, int location)
{
	Expr	   *e = make_expr(EXPR_CONST, v.type, location);

	e->constval = v;
	return e;
}

/* can_cast -- the explicit casts PostgreSQL has between these types */
static bool
can_cast(Oid from, Oid to)
{
	const TypeInfo *f = typio_lookup(from),
			   *t = typio_lookup(to);

	if (f == NULL || t == NULL)
		return false;
	if (from == to || from == UNKNOWNOID || is_string(from) || is_string(to))
		return true;
	if (f->category == t->category && f->category != TYPCATEGORY_USER)
		return !(from == TIMEOID && to != TIMEOID && to != INTERVALOID) &&
			!(to == TIMEOID && from == DATEOID);
	if ((from == BOOLOID && to == INT4OID) || (from == INT4OID && to == BOOLOID))
		return true;
	return (from == JSONOID || from == JSONBOID) && (to == JSONOID || to == JSONBOID);
}

/* can_coerce_implicitly -- widening inside a category, and unknown to anything */
static bool
can_coerce_implicitly(Oid from, Oid to)
{
	if (from == to || from == UNKNOWNOID)
		return true;
	if (is_numeric(from) && is_numeric(to))
		return numeric_rank(from) <= numeric_rank(to) && from != OIDOID;
	if (is_string(from) && is_string(to))
		return to == TEXTOID || to == VARCHAROID;
	if (from == DATEOID && (to == TIMESTAMPOID || to == TIMESTAMPTZOID))
		return true;
	return from == TIMESTAMPOID && to == TIMESTAMPTZOID;
}

/*
 * coerce_expr -- make e of type target
 *
 * Unknown literals are converted now (their input errors point at them);
 * parameters of unknown type simply become target. Returns NULL when an
 * implicit coercion is not allowed.
 */
static Expr *
coerce_expr(ParseState *ps, Expr *e, Oid target, int32_t typmod, bool explicit)
{
	if (e->type == target && (typmod < 0 || e->typmod == typmod))
		return e;
	if (e->kind == EXPR_PARAM && e->type == UNKNOWNOID)
	{
		ps->paramtypes[e->paramno] = target;
		e->type = target;
		if (typmod < 0)
			return e;
	}
	else if (e->kind == EXPR_CONST && e->type == UNKNOWNOID)
	{
		Value		v = e->constval.isnull ? typio_null(target)
			: typio_input(target, e->constval.u.s.data, typmod);

		Expr	   *c = make_const(v, e->location);

		c->typmod = typmod;
		return c;
	}
	else if (!(explicit ? can_cast(e->type, target) : can_coerce_implicitly(e->type, target)))
		return NULL;
	Expr	   *cast = make_expr(EXPR_CAST, target, e->location);

	cast->typmod = typmod;
	cast->nargs = 1;
	cast->args = palloc(sizeof(Expr *));
	cast->args[0] = e;
	return cast;
}

static Expr *
coerce_or_fail(ParseState *ps, Expr *e, Oid target, const char *context)
{
	Expr	   *r = coerce_expr(ps, e, target, -1, false);

	if (r == NULL)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("argument of %s must be type %s, not type %s", context,
					   typio_format_type(target), typio_format_type(e->type)),
				errposition(char_position(ps, e->location)));
	return r;
}

/*
 * select_common_type -- PostgreSQL's rule for CASE, COALESCE, VALUES columns:
 * unknowns follow the others, numbers widen, otherwise all must agree.
 */
static Oid
select_common_type(ParseState *ps, Expr **exprs, int n, const char *context)
{
	Oid			common = UNKNOWNOID;

	for (int i = 0; i < n; i++)
	{
		Oid			t = exprs[i]->type;

		if (t == UNKNOWNOID)
			continue;
		if (common == UNKNOWNOID || can_coerce_implicitly(common, t))
			common = t;
		else if (!can_coerce_implicitly(t, common))
			ereport(ERROR,
					errcode(ERRCODE_DATATYPE_MISMATCH),
					errmsg("%s types %s and %s cannot be matched", context,
						   typio_format_type(common), typio_format_type(t)),
					errposition(char_position(ps, exprs[i]->location)));
	}
	return common == UNKNOWNOID ? TEXTOID : common;
}

static void
coerce_all(ParseState *ps, Expr **exprs, int n, Oid type, const char *context)
{
	for (int i = 0; i < n; i++)
		exprs[i] = coerce_or_fail(ps, exprs[i], type, context);
}

/* ---------- expressions ---------- */

static Expr *transform_expr(ParseState *ps, Node *node);

static Expr **
transform_list(ParseState *ps, Node **nodes, size_t n)
{
	Expr	  **out = palloc(sizeof(Expr *) * (n ? n : 1));

	for (size_t i = 0; i < n; i++)
		out[i] = transform_expr(ps, nodes[i]);
	return out;
}

static Expr *
transform_const(ParseState *ps, PgQuery__AConst *c)
{
	if (c->isnull)
		return make_const(typio_null(UNKNOWNOID), c->location);
	switch (c->val_case)
	{
		case PG_QUERY__A__CONST__VAL_IVAL:
			return make_const(typio_int(INT4OID, c->ival->ival), c->location);
		case PG_QUERY__A__CONST__VAL_FVAL:
			{
				/* an integer too long for int4 is int8 if it fits, else numeric */
				const char *s = c->fval->fval;

				if (strpbrk(s, ".eE") == NULL && strlen(s) < 19)
					return make_const(typio_input(INT8OID, s, -1), c->location);
				return make_const(typio_input(NUMERICOID, s, -1), c->location);
			}
		case PG_QUERY__A__CONST__VAL_BOOLVAL:
			return make_const(typio_bool(c->boolval->boolval), c->location);
		case PG_QUERY__A__CONST__VAL_SVAL:
			return make_const(typio_string(UNKNOWNOID, c->sval->sval, strlen(c->sval->sval)),
							  c->location);
		default:
			not_supported(ps, "bit string literal", c->location);
			return NULL;
	}
}

/* type_from_typename -- the OID and typmod a TypeName spells */
static Oid
type_from_typename(ParseState *ps, PgQuery__TypeName *tn, int32_t *typmod)
{
	const char *name = string_value(tn->names[tn->n_names - 1]);

	if (tn->n_array_bounds > 0)
		not_supported(ps, "array types", tn->location);
	if (tn->n_names > 1 && strcmp(string_value(tn->names[0]), "pg_catalog") != 0)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_OBJECT),
				errmsg("type \"%s.%s\" does not exist", string_value(tn->names[0]), name),
				errposition(char_position(ps, tn->location)));
	Oid			type = typio_type_by_name(name);

	if (type == InvalidOid || type == UNKNOWNOID)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_OBJECT),
				errmsg("type \"%s\" does not exist", name),
				errposition(char_position(ps, tn->location)));
	*typmod = -1;
	if (tn->n_typmods > 0)
	{
		int			mods[2] = {0, 0};

		for (size_t i = 0; i < tn->n_typmods && i < 2; i++)
		{
			Node	   *m = tn->typmods[i];

			if (m->node_case != PG_QUERY__NODE__NODE_A_CONST ||
				m->a_const->val_case != PG_QUERY__A__CONST__VAL_IVAL)
				ereport(ERROR,
						errcode(ERRCODE_SYNTAX_ERROR),
						errmsg("type modifiers must be simple constants or identifiers"),
						errposition(char_position(ps, tn->location)));
			mods[i] = m->a_const->ival->ival;
		}
		if (type == NUMERICOID)
			*typmod = ((mods[0] << 16) | mods[1]) + 4;
		else if (type == VARCHAROID || type == BPCHAROID)
			*typmod = mods[0] + 4;
	}
	else if (type == BPCHAROID && strcmp(name, "bpchar") != 0)
		*typmod = 1 + 4;		/* plain "char" / "character" is character(1) */
	return type;
}

static Expr *
transform_cast(ParseState *ps, PgQuery__TypeCast *tc)
{
	int32_t		typmod;
	Oid			target = type_from_typename(ps, tc->type_name, &typmod);
	Expr	   *arg = transform_expr(ps, tc->arg);
	Expr	   *r = coerce_expr(ps, arg, target, typmod, true);

	if (r == NULL)
		ereport(ERROR,
				errcode(ERRCODE_CANNOT_COERCE),
				errmsg("cannot cast type %s to %s", typio_format_type(arg->type),
					   typio_format_type(target)),
				errposition(char_position(ps, tc->location)));
	if (r->kind == EXPR_CAST || r->kind == EXPR_CONST)
		r->location = tc->location;
	return r;
}

static void
no_operator(ParseState *ps, const char *opname, Expr *l, Expr *r, int location)
{
	if (l == NULL)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("operator does not exist: %s %s", opname, typio_format_type(r->type)),
				errhint("No operator matches the given name and argument type. "
						"You might need to add an explicit type cast."),
				errposition(char_position(ps, location)));
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_FUNCTION),
			errmsg("operator does not exist: %s %s %s", typio_format_type(l->type), opname,
				   typio_format_type(r->type)),
			errhint("No operator matches the given name and argument types. "
					"You might need to add explicit type casts."),
			errposition(char_position(ps, location)));
}

static const struct
{
	const char *name;
	ExprOp		op;
}			operators[] = {
	{"+", OP_ADD}, {"-", OP_SUB}, {"*", OP_MUL}, {"/", OP_DIV}, {"%", OP_MOD},
	{"=", OP_EQ}, {"<>", OP_NE}, {"!=", OP_NE}, {"<", OP_LT}, {"<=", OP_LE},
	{">", OP_GT}, {">=", OP_GE}, {"||", OP_CONCAT}, {"~~", OP_LIKE},
	{"!~~", OP_NOT_LIKE}, {"~~*", OP_ILIKE}, {"!~~*", OP_NOT_ILIKE},
};

static Expr *
op_expr(ExprOp op, Oid result, Expr *l, Expr *r, int location)
{
	Expr	   *e = make_expr(EXPR_OP, result, location);

	e->op = op;
	e->nargs = l ? 2 : 1;
	e->args = palloc(sizeof(Expr *) * 2);
	e->args[0] = l ? l : r;
	e->args[1] = l ? r : NULL;
	return e;
}

/* datetime_arith_result -- the result type of +/- on date/time types, or 0 */
static Oid
datetime_arith_result(ExprOp op, Oid lt, Oid rt)
{
	bool		lts = lt == TIMESTAMPOID || lt == TIMESTAMPTZOID;

	if (op == OP_ADD && rt != INTERVALOID && lt == INTERVALOID)
		return datetime_arith_result(op, rt, lt);
	if (op != OP_ADD && op != OP_SUB)
		return InvalidOid;
	if (lt == DATEOID && (rt == INT4OID || rt == INT2OID))
		return DATEOID;
	if (lt == DATEOID && rt == DATEOID && op == OP_SUB)
		return INT4OID;
	if ((lts || lt == TIMEOID || lt == INTERVALOID) && rt == INTERVALOID)
		return lt;
	if (lt == DATEOID && rt == INTERVALOID)
		return TIMESTAMPOID;
	if (lts && rt == lt && op == OP_SUB)
		return INTERVALOID;
	return InvalidOid;
}

/*
 * make_op -- resolve a binary (l != NULL) or prefix operator
 *
 * Unknown operands take the other side's type; numbers widen to the larger
 * type; strings compare and concatenate as text; date/time arithmetic has its
 * own table. Everything else is 42883, as PostgreSQL reports it.
 */
static Expr *
make_op(ParseState *ps, const char *opname, Expr *l, Expr *r, int location)
{
	ExprOp		op = OP_ADD;
	bool		found = false;

	for (size_t i = 0; i < sizeof(operators) / sizeof(operators[0]); i++)
		if (strcmp(operators[i].name, opname) == 0)
		{
			op = operators[i].op;
			found = true;
		}
	if (!found)
		no_operator(ps, opname, l, r, location);
	if (l == NULL)
	{
		if (op != OP_SUB || (!is_numeric(r->type) && r->type != INTERVALOID))
			no_operator(ps, opname, l, r, location);
		return op_expr(OP_NEG, r->type, NULL, r, location);
	}

	bool		comparison = op >= OP_EQ && op <= OP_NOT_DISTINCT;
	bool		textual = op == OP_CONCAT || op >= OP_LIKE;

	if (l->type == UNKNOWNOID && r->type == UNKNOWNOID && (comparison || textual))
	{
		l = coerce_expr(ps, l, TEXTOID, -1, false);
		r = coerce_expr(ps, r, TEXTOID, -1, false);
	}
	else if (l->type == UNKNOWNOID)
		l = coerce_expr(ps, l, op == OP_CONCAT && !is_string(r->type) ? TEXTOID : r->type, -1, false);
	else if (r->type == UNKNOWNOID)
		r = coerce_expr(ps, r, op == OP_CONCAT && !is_string(l->type) ? TEXTOID : l->type, -1, false);

	if (op == OP_CONCAT)
	{
		if (!is_string(l->type) && !is_string(r->type))
			no_operator(ps, opname, l, r, location);
		return op_expr(op, TEXTOID, l, r, location);
	}
	if (textual)
	{
		if (!is_string(l->type) || !is_string(r->type))
			no_operator(ps, opname, l, r, location);
		return op_expr(op, BOOLOID, l, r, location);
	}
	if (is_numeric(l->type) && is_numeric(r->type))
	{
		Oid			common = numeric_rank(l->type) >= numeric_rank(r->type) ? l->type : r->type;

		if (common == OIDOID)
			common = INT8OID;
		if (op == OP_MOD && (common == FLOAT4OID || common == FLOAT8OID))
			no_operator(ps, opname, l, r, location);
		l = coerce_expr(ps, l, common, -1, false);
		r = coerce_expr(ps, r, common, -1, false);
		return op_expr(op, comparison ? BOOLOID : common, l, r, location);
	}
	if (comparison)
	{
		if (is_string(l->type) && is_string(r->type))
		{
			l = coerce_expr(ps, l, TEXTOID, -1, false);
			r = coerce_expr(ps, r, TEXTOID, -1, false);
		}
		else if (l->type != r->type)
		{
			/* date < timestamp and the like: widen one side */
			Expr	   *lw = coerce_expr(ps, l, r->type, -1, false);
			Expr	   *rw = lw ? NULL : coerce_expr(ps, r, l->type, -1, false);

			if (lw == NULL && rw == NULL)
				no_operator(ps, opname, l, r, location);
			l = lw ? lw : l;
			r = rw ? rw : r;
		}
		return op_expr(op, BOOLOID, l, r, location);
	}
	Oid			result = datetime_arith_result(op, l->type, r->type);

	if (result == InvalidOid)
		no_operator(ps, opname, l, r, location);
	if (op == OP_ADD && l->type == INTERVALOID && r->type != INTERVALOID)
		return op_expr(op, result, r, l, location);	/* keep the datetime first */
	return op_expr(op, result, l, r, location);
}

static Expr *
make_bool_expr(ExprKind kind, Expr *a, Expr *b, int location)
{
	Expr	   *e = make_expr(kind, BOOLOID, location);

	e->nargs = b ? 2 : 1;
	e->args = palloc(sizeof(Expr *) * 2);
	e->args[0] = a;
	e->args[1] = b;
	return e;
}

static Expr *
transform_aexpr(ParseState *ps, PgQuery__AExpr *a)
{
	const char *opname = a->n_name ? string_value(a->name[a->n_name - 1]) : "";
	Expr	   *l = a->lexpr ? transform_expr(ps, a->lexpr) : NULL;

	switch (a->kind)
	{
		case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
		case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
		case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE:
			return make_op(ps, opname, l, transform_expr(ps, a->rexpr), a->location);
		case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
		case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT:
			{
				Expr	   *e = make_op(ps, "=", l, transform_expr(ps, a->rexpr), a->location);

				e->op = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT ? OP_DISTINCT : OP_NOT_DISTINCT;
				return e;
			}
		case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF:
			{
				Expr	   *eq = make_op(ps, "=", l, transform_expr(ps, a->rexpr), a->location);
				Expr	   *e = make_expr(EXPR_NULLIF, eq->args[0]->type, a->location);

				e->nargs = 2;
				e->args = eq->args;
				return e;
			}
		case PG_QUERY__A__EXPR__KIND__AEXPR_IN:
		case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
		case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN:
			{
				/* x IN (a, b) = x = a OR x = b; x BETWEEN a AND b = x >= a AND x <= b */
				PgQuery__List *list = a->rexpr->list;
				bool		in = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_IN;
				bool		not_between = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN;
				ExprKind	join = in ? (strcmp(opname, "=") == 0 ? EXPR_OR : EXPR_AND)
					: (not_between ? EXPR_OR : EXPR_AND);
				static const char *const between_ops[2][2] = {{">=", "<="}, {"<", ">"}};
				Expr	   *result = NULL;

				for (size_t i = 0; i < list->n_items; i++)
				{
					const char *cmp = in ? opname : between_ops[not_between][i > 0];
					Expr	   *term = make_op(ps, cmp, l, transform_expr(ps, list->items[i]), a->location);

					result = result ? make_bool_expr(join, result, term, a->location) : term;
				}
				return result;
			}
		default:
			not_supported(ps, "this operator form", a->location);
			return NULL;
	}
}

static Expr *
transform_func(ParseState *ps, PgQuery__FuncCall *fc)
{
	const char *name = string_value(fc->funcname[fc->n_funcname - 1]);

	if (fc->agg_star || fc->agg_distinct || fc->n_agg_order || fc->agg_filter)
		not_supported(ps, "aggregate functions", fc->location);
	if (fc->over)
		not_supported(ps, "window functions", fc->location);
	Expr	  **args = transform_list(ps, fc->args, fc->n_args);
	Oid			argtypes[3] = {0, 0, 0};

	for (size_t i = 0; i < fc->n_args && i < 3; i++)
		argtypes[i] = args[i]->type;
	const FuncDesc *f = NULL;

	if (fc->n_funcname == 1 ||
		(fc->n_funcname == 2 && strcmp(string_value(fc->funcname[0]), "pg_catalog") == 0))
		f = fc->n_args <= 3 ? LookupBuiltinFunction(name, (int) fc->n_args, argtypes) : NULL;
	if (f == NULL)
	{
		RlBuf		sig;

		rlbuf_init(&sig);
		for (size_t i = 0; i < fc->n_args; i++)
			rlbuf_printf(&sig, "%s%s", i ? ", " : "", typio_format_type(args[i]->type));
		char	   *sigtext = pstrdup(rlbuf_cstr(&sig));

		rlbuf_free(&sig);
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("function %s(%s) does not exist", name, sigtext),
				errhint("No function matches the given name and argument types. "
						"You might need to add explicit type casts."),
				errposition(char_position(ps, fc->location)));
	}
	Expr	   *e = make_expr(EXPR_FUNC, f->rettype, fc->location);

	e->func = f;
	e->nargs = (int) fc->n_args;
	e->args = args;
	for (int i = 0; i < e->nargs; i++)
		e->args[i] = coerce_expr(ps, args[i], f->argtypes[i], -1, false);
	if (f->returns_set)
	{
		if (ps->srf != NULL)
			not_supported(ps, "more than one set-returning function", fc->location);
		ps->srf = e;
	}
	return e;
}

/* transform_sqlvalue -- CURRENT_USER, CURRENT_TIMESTAMP, ... as builtin calls */
static Expr *
transform_sqlvalue(ParseState *ps, PgQuery__SQLValueFunction *svf)
{
	static const struct
	{
		PgQuery__SQLValueFunctionOp op;
		const char *func;
	}			map[] = {
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE, "current_date"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME, "localtime"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME_N, "localtime"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP, "now"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N, "now"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME, "localtime"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N, "localtime"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP, "localtimestamp"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N, "localtimestamp"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE, "current_user"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER, "current_user"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER, "current_user"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER, "current_user"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_CATALOG, "current_database"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_SCHEMA, "current_schema"},
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].op == svf->op)
		{
			const FuncDesc *f = LookupBuiltinFunction(map[i].func, 0, NULL);
			Expr	   *e = make_expr(EXPR_FUNC, f->rettype, svf->location);

			e->func = f;
			return e;
		}
	not_supported(ps, "this SQL value function", svf->location);
	return NULL;
}

static Expr *
transform_case(ParseState *ps, PgQuery__CaseExpr *c)
{
	Expr	   *arg = c->arg ? transform_expr(ps, c->arg) : NULL;
	Expr	   *e = make_expr(EXPR_CASE, UNKNOWNOID, c->location);
	int			n = (int) c->n_args;
	Expr	  **results = palloc(sizeof(Expr *) * ((size_t) n + 1));

	e->nargs = n * 2;
	e->args = palloc(sizeof(Expr *) * (size_t) e->nargs);
	for (int i = 0; i < n; i++)
	{
		PgQuery__CaseWhen *w = c->args[i]->case_when;
		Expr	   *cond = transform_expr(ps, w->expr);

		if (arg != NULL)
			cond = make_op(ps, "=", arg, cond, w->location);
		e->args[2 * i] = coerce_or_fail(ps, cond, BOOLOID, "CASE/WHEN");
		results[i] = transform_expr(ps, w->result);
	}
	results[n] = c->defresult ? transform_expr(ps, c->defresult)
		: make_const(typio_null(UNKNOWNOID), c->location);
	e->type = select_common_type(ps, results, n + 1, "CASE");
	coerce_all(ps, results, n + 1, e->type, "CASE");
	for (int i = 0; i < n; i++)
		e->args[2 * i + 1] = results[i];
	e->defresult = results[n];
	return e;
}

/* transform_list_expr -- COALESCE / GREATEST / LEAST: a list of one common type */
static Expr *
transform_list_expr(ParseState *ps, ExprKind kind, Node **nodes, size_t n,
					const char *context, int location)
{
	Expr	   *e = make_expr(kind, UNKNOWNOID, location);

	e->nargs = (int) n;
	e->args = transform_list(ps, nodes, n);
	e->type = select_common_type(ps, e->args, e->nargs, context);
	coerce_all(ps, e->args, e->nargs, e->type, context);
	return e;
}

static Expr *
transform_param(ParseState *ps, PgQuery__ParamRef *p)
{
	int			n = p->number;

	if (n < 1 || n > 65535 || !ps->params_allowed)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_PARAMETER),
				errmsg("there is no parameter $%d", n),
				errposition(char_position(ps, p->location)));
	if (n > ps->nparams)
	{
		Oid		   *types = palloc0(sizeof(Oid) * (size_t) n);
		Expr	  **seen = palloc0(sizeof(Expr *) * (size_t) n);

		memcpy(types, ps->paramtypes, sizeof(Oid) * (size_t) ps->nparams);
		memcpy(seen, ps->params_seen, sizeof(Expr *) * (size_t) ps->nparams);
		ps->paramtypes = types;
		ps->params_seen = seen;
		ps->nparams = n;
	}
	if (ps->paramtypes[n - 1] == InvalidOid)
		ps->paramtypes[n - 1] = UNKNOWNOID;
	/* every use of $n shares one node, so the first context's type holds for all */
	if (ps->params_seen[n - 1] == NULL)
	{
		Expr	   *e = make_expr(EXPR_PARAM, ps->paramtypes[n - 1], p->location);

		e->paramno = n - 1;
		ps->params_seen[n - 1] = e;
	}
	return ps->params_seen[n - 1];
}

static Expr *
transform_expr(ParseState *ps, Node *node)
{
	switch (node->node_case)
	{
		case PG_QUERY__NODE__NODE_A_CONST:
			return transform_const(ps, node->a_const);
		case PG_QUERY__NODE__NODE_TYPE_CAST:
			return transform_cast(ps, node->type_cast);
		case PG_QUERY__NODE__NODE_A_EXPR:
			return transform_aexpr(ps, node->a_expr);
		case PG_QUERY__NODE__NODE_BOOL_EXPR:
			{
				PgQuery__BoolExpr *b = node->bool_expr;
				ExprKind	kind = b->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR ? EXPR_AND
					: b->boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR ? EXPR_OR : EXPR_NOT;
				const char *context = kind == EXPR_AND ? "AND" : kind == EXPR_OR ? "OR" : "NOT";
				Expr	   *e = make_expr(kind, BOOLOID, b->location);

				e->nargs = (int) b->n_args;
				e->args = transform_list(ps, b->args, b->n_args);
				coerce_all(ps, e->args, e->nargs, BOOLOID, context);
				return e;
			}
		case PG_QUERY__NODE__NODE_NULL_TEST:
			{
				PgQuery__NullTest *t = node->null_test;
				Expr	   *arg = transform_expr(ps, t->arg);

				if (arg->type == UNKNOWNOID)
					arg = coerce_expr(ps, arg, TEXTOID, -1, false);
				return make_bool_expr(t->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NULL
									  ? EXPR_IS_NULL : EXPR_IS_NOT_NULL, arg, NULL, t->location);
			}
		case PG_QUERY__NODE__NODE_BOOLEAN_TEST:
			{
				PgQuery__BooleanTest *t = node->boolean_test;
				Expr	   *arg = coerce_or_fail(ps, transform_expr(ps, t->arg), BOOLOID, "IS TRUE");
				Expr	   *e = make_bool_expr(EXPR_BOOLTEST, arg, NULL, t->location);

				e->booltest = t->booltesttype;
				return e;
			}
		case PG_QUERY__NODE__NODE_CASE_EXPR:
			return transform_case(ps, node->case_expr);
		case PG_QUERY__NODE__NODE_COALESCE_EXPR:
			return transform_list_expr(ps, EXPR_COALESCE, node->coalesce_expr->args,
									   node->coalesce_expr->n_args, "COALESCE",
									   node->coalesce_expr->location);
		case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
			{
				PgQuery__MinMaxExpr *m = node->min_max_expr;
				bool		greatest = m->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST;

				return transform_list_expr(ps, greatest ? EXPR_GREATEST : EXPR_LEAST, m->args,
										   m->n_args, greatest ? "GREATEST" : "LEAST", m->location);
			}
		case PG_QUERY__NODE__NODE_FUNC_CALL:
			return transform_func(ps, node->func_call);
		case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
			return transform_sqlvalue(ps, node->sqlvalue_function);
		case PG_QUERY__NODE__NODE_PARAM_REF:
			return transform_param(ps, node->param_ref);
		case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
			return transform_expr(ps, node->collate_clause->arg);	/* C collation only */
		case PG_QUERY__NODE__NODE_COLUMN_REF:
			{
				PgQuery__ColumnRef *cr = node->column_ref;
				Node	   *last = cr->fields[cr->n_fields - 1];

				if (last->node_case == PG_QUERY__NODE__NODE_A_STAR)
					ereport(ERROR,
							errcode(ERRCODE_SYNTAX_ERROR),
							errmsg("SELECT * with no tables specified is not valid"),
							errposition(char_position(ps, cr->location)));
				ereport(ERROR,
						errcode(ERRCODE_UNDEFINED_COLUMN),
						errmsg("column \"%s\" does not exist", string_value(last)),
						errposition(char_position(ps, cr->location)));
				return NULL;
			}
		case PG_QUERY__NODE__NODE_SUB_LINK:
			not_supported(ps, "subqueries", node->sub_link->location);
			return NULL;
		default:
			not_supported(ps, node_name(node), -1);
			return NULL;
	}
}

/* figure_colname -- PostgreSQL's FigureColname: the name a result column gets */
static const char *
figure_colname(Node *node)
{
	switch (node->node_case)
	{
		case PG_QUERY__NODE__NODE_COLUMN_REF:
			return string_value(node->column_ref->fields[node->column_ref->n_fields - 1]);
		case PG_QUERY__NODE__NODE_FUNC_CALL:
			return string_value(node->func_call->funcname[node->func_call->n_funcname - 1]);
		case PG_QUERY__NODE__NODE_TYPE_CAST:
			{
				const char *inner = figure_colname(node->type_cast->arg);
				PgQuery__TypeName *tn = node->type_cast->type_name;

				return strcmp(inner, "?column?") != 0 ? inner
					: string_value(tn->names[tn->n_names - 1]);
			}
		case PG_QUERY__NODE__NODE_CASE_EXPR:
			return "case";
		case PG_QUERY__NODE__NODE_COALESCE_EXPR:
			return "coalesce";
		case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
			return node->min_max_expr->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST ? "greatest" : "least";
		case PG_QUERY__NODE__NODE_A_EXPR:
			return node->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF ? "nullif" : "?column?";
		case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
			return figure_colname(node->collate_clause->arg);
		case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
			{
				static const char *const names[] = {
					"?column?", "current_date", "current_time", "current_time",
					"current_timestamp", "current_timestamp", "localtime", "localtime",
					"localtimestamp", "localtimestamp", "current_role", "current_user",
					"user", "session_user", "current_catalog", "current_schema"};
				int			op = node->sqlvalue_function->op;

				return op >= 0 && op < (int) (sizeof(names) / sizeof(names[0])) ? names[op] : "?column?";
			}
		default:
			return "?column?";
	}
}

/* finish_params -- every parameter must have a type by now (unknown: text) */
static void
finish_params(ParseState *ps, AnalyzedStmt *stmt)
{
	for (int i = 0; i < ps->nparams; i++)
	{
		if (ps->paramtypes[i] == UNKNOWNOID && ps->params_seen[i] != NULL)
			coerce_expr(ps, ps->params_seen[i], TEXTOID, -1, false);
		else if (ps->paramtypes[i] == UNKNOWNOID || ps->paramtypes[i] == InvalidOid)
			ereport(ERROR,
					errcode(ERRCODE_INDETERMINATE_DATATYPE),
					errmsg("could not determine data type of parameter $%d", i + 1));
	}
	stmt->nparams = ps->nparams;
	stmt->paramtypes = ps->paramtypes;
}

static Expr *
transform_limit(ParseState *ps, Node *node)
{
	if (node == NULL)
		return NULL;
	Expr	   *e = transform_expr(ps, node);

	return coerce_or_fail(ps, e, INT8OID, "LIMIT");
}

static void
analyze_values(ParseState *ps, PgQuery__SelectStmt *sel, AnalyzedStmt *stmt, Plan *plan)
{
	int			nrows = (int) sel->n_values_lists;
	int			ncols = (int) sel->values_lists[0]->list->n_items;

	plan->nvalues_rows = nrows;
	plan->values_rows = palloc(sizeof(Expr **) * (size_t) nrows);
	for (int r = 0; r < nrows; r++)
	{
		PgQuery__List *row = sel->values_lists[r]->list;

		if ((int) row->n_items != ncols)
			ereport(ERROR,
					errcode(ERRCODE_SYNTAX_ERROR),
					errmsg("VALUES lists must all be the same length"));
		plan->values_rows[r] = transform_list(ps, row->items, row->n_items);
	}
	stmt->ncolumns = ncols;
	stmt->columns = palloc0(sizeof(ResultColumn) * (size_t) ncols);
	Expr	  **column = palloc(sizeof(Expr *) * (size_t) nrows);

	for (int c = 0; c < ncols; c++)
	{
		for (int r = 0; r < nrows; r++)
			column[r] = plan->values_rows[r][c];
		Oid			type = select_common_type(ps, column, nrows, "VALUES");

		for (int r = 0; r < nrows; r++)
			plan->values_rows[r][c] = coerce_or_fail(ps, plan->values_rows[r][c], type, "VALUES");
		stmt->columns[c].name = psprintf("column%d", c + 1);
		stmt->columns[c].type = type;
		stmt->columns[c].typmod = -1;
	}
}

static void
analyze_select(ParseState *ps, PgQuery__SelectStmt *sel, AnalyzedStmt *stmt)
{
	Plan	   *plan = palloc0(sizeof(Plan));

	if (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE)
		not_supported(ps, "UNION/INTERSECT/EXCEPT", -1);
	if (sel->with_clause)
		not_supported(ps, "WITH", sel->with_clause->location);
	if (sel->into_clause)
		not_supported(ps, "SELECT INTO", -1);
	if (sel->n_distinct_clause)
		not_supported(ps, "DISTINCT", -1);
	if (sel->n_group_clause || sel->having_clause)
		not_supported(ps, "GROUP BY", -1);
	if (sel->n_window_clause)
		not_supported(ps, "WINDOW", -1);
	if (sel->n_sort_clause)
		not_supported(ps, "ORDER BY", -1);
	if (sel->n_locking_clause)
		not_supported(ps, "FOR UPDATE/SHARE", -1);
	for (size_t i = 0; i < sel->n_from_clause; i++)
	{
		Node	   *item = sel->from_clause[i];

		if (item->node_case == PG_QUERY__NODE__NODE_RANGE_VAR)
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_TABLE),
					errmsg("relation \"%s\" does not exist", item->range_var->relname),
					errposition(char_position(ps, item->range_var->location)));
		not_supported(ps, "this FROM clause", -1);
	}
	stmt->kind = STMT_ROWS;
	stmt->command_tag = "SELECT";
	stmt->plan = plan;
	if (sel->n_values_lists > 0)
		analyze_values(ps, sel, stmt, plan);
	else
	{
		plan->ntargets = (int) sel->n_target_list;
		plan->targets = palloc(sizeof(Expr *) * (sel->n_target_list ? sel->n_target_list : 1));
		stmt->ncolumns = plan->ntargets;
		stmt->columns = palloc0(sizeof(ResultColumn) * (sel->n_target_list ? sel->n_target_list : 1));
		for (int i = 0; i < plan->ntargets; i++)
		{
			PgQuery__ResTarget *rt = sel->target_list[i]->res_target;
			Expr	   *srf_before = ps->srf;
			Expr	   *e = transform_expr(ps, rt->val);

			if (ps->srf != srf_before)
			{
				if (e != ps->srf)
					not_supported(ps, "a set-returning function inside an expression", rt->location);
				plan->srf = e;
				e = make_expr(EXPR_SRF_VALUE, e->type, e->location);
			}
			if (e->type == UNKNOWNOID)
				e = coerce_expr(ps, e, TEXTOID, -1, false);
			plan->targets[i] = e;
			stmt->columns[i].name = is_set(rt->name) ? rt->name : figure_colname(rt->val);
			stmt->columns[i].type = e->type;
			stmt->columns[i].typmod = e->typmod;
		}
		if (sel->where_clause)
			plan->where = coerce_or_fail(ps, transform_expr(ps, sel->where_clause), BOOLOID, "WHERE");
	}
	plan->limit = transform_limit(ps, sel->limit_count);
	plan->offset = transform_limit(ps, sel->limit_offset);
}

/* set_value_text -- the value of SET name = a, b as GUC text ("a, b") */
static const char *
set_value_text(ParseState *ps, PgQuery__VariableSetStmt *vs)
{
	RlBuf		buf;

	rlbuf_init(&buf);
	for (size_t i = 0; i < vs->n_args; i++)
	{
		Node	   *arg = vs->args[i];

		if (arg->node_case == PG_QUERY__NODE__NODE_TYPE_CAST)
			arg = arg->type_cast->arg;	/* SET x = interval '1s' and the like */
		if (arg->node_case != PG_QUERY__NODE__NODE_A_CONST)
			not_supported(ps, "this SET value", -1);
		Expr	   *c = transform_const(ps, arg->a_const);

		rlbuf_printf(&buf, "%s%s", i ? ", " : "", typio_output(&c->constval, NULL));
	}
	char	   *s = pstrdup(rlbuf_cstr(&buf));

	rlbuf_free(&buf);
	return s;
}

static void
analyze_set(ParseState *ps, PgQuery__VariableSetStmt *vs, AnalyzedStmt *stmt)
{
	stmt->name = vs->name;
	switch (vs->kind)
	{
		case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE:
			stmt->utility = UTIL_SET;
			stmt->value = set_value_text(ps, vs);
			break;
		case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT:
		case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET:
			stmt->utility = UTIL_RESET;
			break;
		case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL:
			stmt->utility = UTIL_RESET_ALL;
			break;
		case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI:
			if (strcmp(vs->name, "TRANSACTION SNAPSHOT") == 0)
				not_supported(ps, "SET TRANSACTION SNAPSHOT", -1);
			stmt->utility = UTIL_SET_IGNORED;
			break;
		default:
			not_supported(ps, "SET FROM CURRENT", -1);
	}
	stmt->command_tag = vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE ||
		vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI ? "SET" : "RESET";
	if (vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT)
		stmt->command_tag = "SET";
}

static void
analyze_transaction(ParseState *ps, PgQuery__TransactionStmt *ts, AnalyzedStmt *stmt)
{
	static const struct
	{
		PgQuery__TransactionStmtKind kind;
		UtilityKind utility;
		const char *tag;
	}			map[] = {
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN, UTIL_BEGIN, "BEGIN"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START, UTIL_BEGIN, "START TRANSACTION"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT, UTIL_COMMIT, "COMMIT"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK, UTIL_ROLLBACK, "ROLLBACK"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT, UTIL_SAVEPOINT, "SAVEPOINT"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE, UTIL_RELEASE, "RELEASE"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO, UTIL_ROLLBACK_TO, "ROLLBACK"},
	};

	if (ts->chain)
		not_supported(ps, "AND CHAIN", -1);
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].kind == ts->kind)
		{
			stmt->utility = map[i].utility;
			stmt->command_tag = map[i].tag;
			stmt->name = ts->savepoint_name;
			return;
		}
	not_supported(ps, "two-phase commit", -1);
}

static void
analyze_copy(ParseState *ps, PgQuery__CopyStmt *cs, AnalyzedStmt *stmt)
{
	if (cs->relation)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("relation \"%s\" does not exist", cs->relation->relname),
				errposition(char_position(ps, cs->relation->location)));
	if (is_set(cs->filename) || cs->is_program)
		not_supported(ps, "COPY to or from a file or program", -1);
	if (cs->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		not_supported(ps, "COPY of this statement", -1);

	CopyFormat	format = COPY_FORMAT_TEXT;

	for (size_t i = 0; i < cs->n_options; i++)
	{
		PgQuery__DefElem *d = cs->options[i]->def_elem;

		if (strcmp(d->defname, "format") == 0)
		{
			const char *f = string_value(d->arg);

			if (strcmp(f, "csv") == 0)
				format = COPY_FORMAT_CSV;
			else if (strcmp(f, "binary") == 0)
				format = COPY_FORMAT_BINARY;
			else if (strcmp(f, "text") != 0)
				ereport(ERROR,
						errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("COPY format \"%s\" not recognized", f),
						errposition(char_position(ps, d->location)));
		}
	}
	copy_options_init(&stmt->copy, format);
	for (size_t i = 0; i < cs->n_options; i++)
	{
		PgQuery__DefElem *d = cs->options[i]->def_elem;
		const char *v = d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_STRING ? d->arg->string->sval : NULL;

		if (strcmp(d->defname, "format") == 0)
			continue;
		else if (strcmp(d->defname, "header") == 0)
			stmt->copy.header = d->arg == NULL ||
				(d->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN && d->arg->boolean->boolval) ||
				(d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER && d->arg->integer->ival) ||
				(v && (strcmp(v, "true") == 0 || strcmp(v, "on") == 0));
		else if (strcmp(d->defname, "delimiter") == 0 && v && strlen(v) == 1)
			stmt->copy.delim = v[0];
		else if (strcmp(d->defname, "null") == 0 && v)
			stmt->copy.null_string = v;
		else if (strcmp(d->defname, "quote") == 0 && v && strlen(v) == 1)
			stmt->copy.quote = v[0];
		else if (strcmp(d->defname, "escape") == 0 && v && strlen(v) == 1)
			stmt->copy.escape = v[0];
		else
			ereport(ERROR,
					errcode(ERRCODE_SYNTAX_ERROR),
					errmsg("option \"%s\" not recognized", d->defname),
					errposition(char_position(ps, d->location)));
	}
	stmt->kind = STMT_COPY_OUT;
	stmt->command_tag = "COPY";
	stmt->copy_query = palloc0(sizeof(AnalyzedStmt));
	analyze_select(ps, cs->query->select_stmt, stmt->copy_query);
}

/* unsupported_statement -- 0A000 naming the statement as its command tag does */
static void
unsupported_statement(ParseState *ps, Node *node)
{
	static const struct
	{
		PgQuery__Node__NodeCase node_case;
		const char *name;
	}			names[] = {
		{PG_QUERY__NODE__NODE_INSERT_STMT, "INSERT"},
		{PG_QUERY__NODE__NODE_UPDATE_STMT, "UPDATE"},
		{PG_QUERY__NODE__NODE_DELETE_STMT, "DELETE"},
		{PG_QUERY__NODE__NODE_MERGE_STMT, "MERGE"},
		{PG_QUERY__NODE__NODE_CREATE_STMT, "CREATE TABLE"},
		{PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT, "CREATE TABLE AS"},
		{PG_QUERY__NODE__NODE_ALTER_TABLE_STMT, "ALTER TABLE"},
		{PG_QUERY__NODE__NODE_INDEX_STMT, "CREATE INDEX"},
		{PG_QUERY__NODE__NODE_VIEW_STMT, "CREATE VIEW"},
		{PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT, "CREATE SCHEMA"},
		{PG_QUERY__NODE__NODE_CREATE_SEQ_STMT, "CREATE SEQUENCE"},
		{PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT, "CREATE FUNCTION"},
		{PG_QUERY__NODE__NODE_TRUNCATE_STMT, "TRUNCATE TABLE"},
		{PG_QUERY__NODE__NODE_DO_STMT, "DO"},
		{PG_QUERY__NODE__NODE_EXPLAIN_STMT, "EXPLAIN"},
		{PG_QUERY__NODE__NODE_PREPARE_STMT, "PREPARE"},
		{PG_QUERY__NODE__NODE_EXECUTE_STMT, "EXECUTE"},
		{PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT, "DECLARE CURSOR"},
		{PG_QUERY__NODE__NODE_FETCH_STMT, "FETCH"},
		{PG_QUERY__NODE__NODE_CLOSE_PORTAL_STMT, "CLOSE CURSOR"},
		{PG_QUERY__NODE__NODE_LISTEN_STMT, "LISTEN"},
		{PG_QUERY__NODE__NODE_NOTIFY_STMT, "NOTIFY"},
		{PG_QUERY__NODE__NODE_UNLISTEN_STMT, "UNLISTEN"},
		{PG_QUERY__NODE__NODE_VACUUM_STMT, "VACUUM"},
		{PG_QUERY__NODE__NODE_LOCK_STMT, "LOCK TABLE"},
		{PG_QUERY__NODE__NODE_CREATEDB_STMT, "CREATE DATABASE"},
		{PG_QUERY__NODE__NODE_DROPDB_STMT, "DROP DATABASE"},
		{PG_QUERY__NODE__NODE_CREATE_ROLE_STMT, "CREATE ROLE"},
		{PG_QUERY__NODE__NODE_ALTER_ROLE_STMT, "ALTER ROLE"},
		{PG_QUERY__NODE__NODE_DROP_ROLE_STMT, "DROP ROLE"},
		{PG_QUERY__NODE__NODE_GRANT_STMT, "GRANT"},
		{PG_QUERY__NODE__NODE_COMMENT_STMT, "COMMENT"},
		{PG_QUERY__NODE__NODE_CHECK_POINT_STMT, "CHECKPOINT"},
		{PG_QUERY__NODE__NODE_CALL_STMT, "CALL"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].node_case == node->node_case)
			not_supported(ps, names[i].name, -1);
	if (node->node_case == PG_QUERY__NODE__NODE_DROP_STMT)
	{
		PgQuery__ObjectType t = node->drop_stmt->remove_type;

		not_supported(ps, t == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE ? "DROP TABLE"
					  : t == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA ? "DROP SCHEMA"
					  : t == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW ? "DROP VIEW"
					  : t == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX ? "DROP INDEX" : "DROP", -1);
	}
	not_supported(ps, node_name(node), -1);
}

AnalyzedStmt *
AnalyzeStatement(const RawStatement *raw, const char *query_string,
				 const Oid *paramtypes, int nparams)
{
	ParseState	ps = {.query = query_string, .params_allowed = nparams >= 0};
	AnalyzedStmt *stmt = palloc0(sizeof(AnalyzedStmt));
	Node	   *node = raw->node;

	if (nparams < 0)
		nparams = 0;
	ps.nparams = nparams;
	ps.paramtypes = palloc0(sizeof(Oid) * (size_t) (nparams ? nparams : 1));
	ps.params_seen = palloc0(sizeof(Expr *) * (size_t) (nparams ? nparams : 1));
	if (nparams)
		memcpy(ps.paramtypes, paramtypes, sizeof(Oid) * (size_t) nparams);
	for (int i = 0; i < nparams; i++)
		if (ps.paramtypes[i] != InvalidOid && typio_lookup(ps.paramtypes[i]) == NULL)
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_OBJECT),
					errmsg("type with OID %u does not exist", ps.paramtypes[i]));
	stmt->kind = STMT_UTILITY;
	switch (node->node_case)
	{
		case PG_QUERY__NODE__NODE_SELECT_STMT:
			analyze_select(&ps, node->select_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
			analyze_set(&ps, node->variable_set_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
			stmt->kind = STMT_ROWS;
			stmt->command_tag = "SHOW";
			stmt->name = node->variable_show_stmt->name;
			stmt->utility = strcmp(stmt->name, "all") == 0 ? UTIL_SHOW_ALL : UTIL_SHOW;
			stmt->ncolumns = stmt->utility == UTIL_SHOW_ALL ? 3 : 1;
			stmt->columns = palloc0(sizeof(ResultColumn) * 3);
			stmt->columns[0] = (ResultColumn) {stmt->utility == UTIL_SHOW_ALL ? "name" : stmt->name, TEXTOID, -1};
			stmt->columns[1] = (ResultColumn) {"setting", TEXTOID, -1};
			stmt->columns[2] = (ResultColumn) {"description", TEXTOID, -1};
			break;
		case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
			analyze_transaction(&ps, node->transaction_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_DISCARD_STMT:
			{
				PgQuery__DiscardMode mode = node->discard_stmt->target;

				stmt->utility = mode == PG_QUERY__DISCARD_MODE__DISCARD_ALL ? UTIL_DISCARD_ALL : UTIL_DISCARD_OTHER;
				stmt->command_tag = mode == PG_QUERY__DISCARD_MODE__DISCARD_ALL ? "DISCARD ALL"
					: mode == PG_QUERY__DISCARD_MODE__DISCARD_PLANS ? "DISCARD PLANS"
					: mode == PG_QUERY__DISCARD_MODE__DISCARD_SEQUENCES ? "DISCARD SEQUENCES"
					: "DISCARD TEMP";
				break;
			}
		case PG_QUERY__NODE__NODE_DEALLOCATE_STMT:
			stmt->name = node->deallocate_stmt->name;
			stmt->utility = is_set(stmt->name) ? UTIL_DEALLOCATE : UTIL_DEALLOCATE_ALL;
			stmt->command_tag = is_set(stmt->name) ? "DEALLOCATE" : "DEALLOCATE ALL";
			break;
		case PG_QUERY__NODE__NODE_COPY_STMT:
			analyze_copy(&ps, node->copy_stmt, stmt);
			break;
		default:
			unsupported_statement(&ps, node);
	}
	finish_params(&ps, stmt);
	return stmt;
}
