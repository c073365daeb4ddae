/*
 * parse_expr.c: expressions and their types: literals typed by their
 * context, coercions and the common type of operands, operators, functions,
 * casts, CASE, subqueries and arrays (analyze_internal.h).
 */

#include "parser/analyze_internal.h"

/* ---------- types ---------- */

bool
is_numeric(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t && t->category == TYPCATEGORY_NUMERIC;
}

int
numeric_rank(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t ? t->numeric_rank : 0;
}

static bool
is_array(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t && t->category == TYPCATEGORY_ARRAY;
}

bool
is_string(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t && t->category == TYPCATEGORY_STRING;
}

Expr *
make_expr(ExprKind kind, Oid type, int location)
{
	Expr	   *e = palloc0(sizeof(Expr));

	e->kind = kind;
	e->type = type;
	e->typmod = -1;
	e->location = location;
	return e;
}

Expr *
make_const(Value v, int location)
{
	Expr	   *e = make_expr(EXPR_CONST, v.type, location);

	e->constval = v;
	return e;
}

/*
 * both_arrays -- whether from and to are array types, their element types in *from_elem
 * and *to_elem: an array is cast element by element, as its elements may be
 */
static bool
both_arrays(Oid from, Oid to, Oid *from_elem, Oid *to_elem)
{
	const TypeInfo *f = typio_lookup(from),
			   *t = typio_lookup(to);

	if (f == NULL || t == NULL || f->category != TYPCATEGORY_ARRAY || t->category != TYPCATEGORY_ARRAY)
		return false;
	*from_elem = f->elem;
	*to_elem = t->elem;
	return true;
}

/* can_cast -- the explicit casts PostgreSQL has between these types */
static bool
can_cast(Oid from, Oid to)
{
	const TypeInfo *f = typio_lookup(from),
			   *t = typio_lookup(to);
	Oid			from_elem,
				to_elem;

	if (f == NULL || t == NULL)
		return false;
	if (from == to || from == UNKNOWNOID || is_string(from) || is_string(to))
		return true;
	if (both_arrays(from, to, &from_elem, &to_elem))
		return can_cast(from_elem, to_elem);
	/* an oid is made from an integer, and read as an int4 or an int8 */
	if (typio_is_oid(from) != typio_is_oid(to))
		return typio_is_oid(to) ? from == INT2OID || from == INT4OID || from == INT8OID
			: to == INT4OID || to == INT8OID;
	if ((from == TIMEOID && to == INTERVALOID) || (from == INTERVALOID && to == TIMEOID))
		return true;
	if (from == TIMETZOID || to == TIMETZOID)
		return from == TIMEOID || to == TIMEOID || from == TIMESTAMPTZOID;
	if (f->category == t->category && f->category != TYPCATEGORY_USER && f->category != TYPCATEGORY_ARRAY)
		return !(from == TIMEOID && to != TIMEOID && to != INTERVALOID) &&
			!(to == TIMEOID && from == DATEOID);
	if ((from == BOOLOID && to == INT4OID) || (from == INT4OID && to == BOOLOID))
		return true;
	return (from == JSONOID || from == JSONBOID) && (to == JSONOID || to == JSONBOID);
}

/*
 * can_coerce_implicitly -- widening inside a category (arrays: their elements), and unknown
 * to anything
 */
static bool
can_coerce_implicitly(Oid from, Oid to)
{
	Oid			from_elem,
				to_elem;

	if (from == to || from == UNKNOWNOID)
		return true;
	if (both_arrays(from, to, &from_elem, &to_elem))
		return can_coerce_implicitly(from_elem, to_elem);
	if (typio_is_oid(from) && typio_is_oid(to))
		return true;			/* oid and the reg* types are binary-compatible */
	if (is_numeric(from) && is_numeric(to))
		return numeric_rank(from) <= numeric_rank(to) && !typio_is_oid(from);
	if (is_string(from) && is_string(to))
		return to == TEXTOID || to == VARCHAROID;
	if (is_array(from) && is_array(to))
		return can_coerce_implicitly(typio_lookup(from)->elem, typio_lookup(to)->elem);
	if (from == TIMEOID && (to == TIMETZOID || to == INTERVALOID))
		return true;
	if (from == DATEOID && (to == TIMESTAMPOID || to == TIMESTAMPTZOID))
		return true;
	return from == TIMESTAMPOID && to == TIMESTAMPTZOID;
}

/*
 * can_coerce_assignment -- PostgreSQL's assignment casts (a value for a column): the
 * implicit ones, the narrowing ones pg_cast marks for assignment (between numbers, between
 * date/time types, json and jsonb), and any type to a string type through its output. A
 * string becomes another type only by an explicit cast (but regclass, which text reaches
 * implicitly), and bool and int4 only by one both ways.
 */
static bool
can_coerce_assignment(Oid from, Oid to)
{
	Oid			from_elem,
				to_elem;

	if (can_coerce_implicitly(from, to))
		return true;
	if (both_arrays(from, to, &from_elem, &to_elem))
		return can_coerce_assignment(from_elem, to_elem);
	if (is_string(from) && !is_string(to))
		return to == REGCLASSOID;
	return can_cast(from, to) && (is_string(to) || (from != BOOLOID && to != BOOLOID));
}

/*
 * literal_position -- an input error's position: the literal's, unless it has one
 * (counted here, not for every literal: a statement of a million literals would count
 * its characters a million times)
 */
static void
literal_position(void *arg)
{
	ErrorData  *e = CurrentErrorData();
	const LiteralAt *at = arg;

	if (e->cursorpos == 0)
		e->cursorpos = char_position(at->ps, at->location);
}

/*
 * literal_input -- a literal's text as a value of type, its input error pointing at
 * the literal (location) as PostgreSQL's does
 */
static Value
literal_input(ParseState *ps, Oid type, const char *text, int32_t typmod, int location)
{
	sigjmp_buf *save = PG_exception_stack;
	LiteralAt	at = {ps, location};
	ErrorContextCallback callback = {.previous = error_context_stack, .callback = literal_position,
	.arg = &at};
	sigjmp_buf	local;

	if (save == NULL || location < 0)
		return typio_input(type, text, typmod);
	if (sigsetjmp(local, 0) != 0)
	{
		/* the report, sent with its position, stands: on to the recovery point */
		error_context_stack = callback.previous;
		PG_exception_stack = save;
		siglongjmp(*save, 1);
	}
	error_context_stack = &callback;
	PG_exception_stack = &local;

	Value		v = typio_input(type, text, typmod);

	error_context_stack = callback.previous;
	PG_exception_stack = save;
	return v;
}

/*
 * coerce_expr -- make e of type target
 *
 * Unknown literals are converted now (their input errors point at them);
 * parameters of unknown type simply become target. Returns NULL when the
 * coercion is not allowed in mode: implicit, assignment (a value for a column:
 * can_coerce_assignment) or explicit (can_cast). A too long varchar(n) fails in an
 * assignment where the explicit cast cuts it (PostgreSQL's length coercion).
 */
Expr *
coerce_expr(ParseState *ps, Expr *e, Oid target, int32_t typmod, CoercionMode mode)
{
	bool		char_length = (target == VARCHAROID || target == BPCHAROID) && typmod >= 4;
	bool		array_typmod = typmod >= 0 && is_array(target);	/* its elements' */

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
			: literal_input(ps, target, e->constval.u.s.data, char_length || array_typmod ? -1 : typmod,
							e->location);

		/* an explicit cast cuts a string to its length, an assignment refuses it */
		if (char_length && !v.isnull)
			v = typio_char_length(&v, typmod, mode == COERCE_EXPLICIT);
		else if (array_typmod && !v.isnull)
			v = ExecCastValue(&v, target, typmod, mode == COERCE_EXPLICIT);

		Expr	   *c = make_const(v, e->location);

		c->typmod = typmod;
		return c;
	}
	else if (!(mode == COERCE_EXPLICIT ? can_cast(e->type, target)
			   : mode == COERCE_ASSIGNMENT ? can_coerce_assignment(e->type, target)
			   : can_coerce_implicitly(e->type, target)))
		return NULL;
	Expr	   *cast = make_expr(EXPR_CAST, target, e->location);

	cast->typmod = typmod;
	cast->cast_explicit = mode == COERCE_EXPLICIT;
	cast->nargs = 1;
	cast->args = palloc(sizeof(Expr *));
	cast->args[0] = e;
	return cast;
}

Expr *
coerce_or_fail(ParseState *ps, Expr *e, Oid target, const char *context)
{
	Expr	   *r = coerce_expr(ps, e, target, -1, COERCE_IMPLICIT);

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
Oid
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

void
coerce_all(ParseState *ps, Expr **exprs, int n, Oid type, const char *context)
{
	for (int i = 0; i < n; i++)
		exprs[i] = coerce_or_fail(ps, exprs[i], type, context);
}

/* ---------- expressions ---------- */

/* is_aggregate -- whether fc calls one of the aggregates RockLake has */
bool
is_aggregate(const PgQuery__FuncCall *fc)
{
	static const char *const aggs[] = {"count", "sum", "avg", "min", "max", "bool_and", "bool_or",
	"every", "string_agg", "array_agg", "json_agg", "jsonb_agg", "json_object_agg"};
	const char *name = string_value(fc->funcname[fc->n_funcname - 1]);

	if (fc->n_funcname > 1 && strcmp(string_value(fc->funcname[0]), "pg_catalog") != 0)
		return false;
	for (size_t i = 0; i < sizeof(aggs) / sizeof(aggs[0]); i++)
		if (strcmp(name, aggs[i]) == 0)
			return true;
	return false;
}
/* contains_aggregate -- whether e computes an aggregate of this query level */
static Expr *transform_array(ParseState *ps, PgQuery__AArrayExpr *a, Oid array_type);

Expr **
transform_list(ParseState *ps, Node **nodes, size_t n)
{
	Expr	  **out = palloc(sizeof(Expr *) * (n ? n : 1));

	for (size_t i = 0; i < n; i++)
		out[i] = transform_expr(ps, nodes[i]);
	return out;
}

Expr *
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
				/*
				 * an integer too long for int4 is int8 if it fits, else numeric; one the
				 * grammar negated (-2147483648) is int4 again if it fits, as PostgreSQL's
				 * make_const
				 */
				const char *s = c->fval->fval;
				char	   *end;

				errno = 0;
				long long	v = strtoll(s, &end, 10);

				if (*end == '\0' && errno == 0)
					return make_const(v >= INT32_MIN && v <= INT32_MAX ? typio_int(INT4OID, v)
									  : typio_input(INT8OID, s, -1), c->location);
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
Oid
type_from_typename(ParseState *ps, PgQuery__TypeName *tn, int32_t *typmod)
{
	const char *name = string_value(tn->names[tn->n_names - 1]);

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
		/* PostgreSQL's limits (numeric_typmod_in, anychar_typmod_in), before any arithmetic */
		if (type == NUMERICOID && (mods[0] < 1 || mods[0] > NUMERIC_MAX_PRECISION))
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("NUMERIC precision %d must be between 1 and %d", mods[0], NUMERIC_MAX_PRECISION),
					errposition(char_position(ps, tn->location)));
		if (type == NUMERICOID && (mods[1] < 0 || mods[1] > mods[0]))
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("NUMERIC scale %d outside 0 to the precision %d is not supported", mods[1], mods[0]),
					errposition(char_position(ps, tn->location)));
		if ((type == VARCHAROID || type == BPCHAROID) && (mods[0] < 1 || mods[0] > MAX_CHAR_LENGTH))
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					mods[0] < 1 ? errmsg("length for type %s must be at least 1", type == VARCHAROID ? "varchar" : "char")
					: errmsg("length for type %s cannot exceed %d", type == VARCHAROID ? "varchar" : "char",
							 MAX_CHAR_LENGTH),
					errposition(char_position(ps, tn->location)));
		if (type == NUMERICOID)
			*typmod = ((mods[0] << 16) | mods[1]) + 4;
		else if (type == VARCHAROID || type == BPCHAROID)
			*typmod = mods[0] + 4;
	}
	else if (type == BPCHAROID && strcmp(name, "bpchar") != 0)
		*typmod = 1 + 4;		/* plain "char" / "character" is character(1) */
	if (tn->n_array_bounds > 0)
	{
		Oid			array = typio_array_type(type);

		if (array == InvalidOid || tn->n_array_bounds > 1)
			not_supported(ps, psprintf("arrays of type %s", typio_format_type(type)), tn->location);
		return array;			/* an array's typmod is its elements', as in PostgreSQL */
	}
	return type;
}

static Expr *
transform_cast(ParseState *ps, PgQuery__TypeCast *tc)
{
	int32_t		typmod;
	Oid			target = type_from_typename(ps, tc->type_name, &typmod);
	Expr	   *arg = tc->arg->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR && is_array(target)
		? transform_array(ps, tc->arg->a_array_expr, target) : transform_expr(ps, tc->arg);
	Expr	   *r = coerce_expr(ps, arg, target, typmod, COERCE_EXPLICIT);

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

void
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
	{"~", OP_REGEX}, {"!~", OP_NOT_REGEX}, {"~*", OP_REGEX_CI}, {"!~*", OP_NOT_REGEX_CI},
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
/*
 * json_operator -- json and jsonb's -> ->> #> #>> as calls of the functions behind them
 * (executor/funcs_json.c): a text (or unknown) key, an integer element number, a text[]
 * path; NULL if opname is none of them
 */
static Expr *
json_operator(ParseState *ps, const char *opname, Expr *l, Expr *r, int location)
{
	static const char *const ops[] = {"->", "->>", "#>", "#>>"};
	int			k = 0;

	while (k < 4 && strcmp(opname, ops[k]) != 0)
		k++;
	if (k == 4 || l == NULL)
		return NULL;
	if (l->type != JSONOID && l->type != JSONBOID)
		no_operator(ps, opname, l, r, location);

	bool		path = k >= 2;
	bool		element = !path && (r->type == INT2OID || r->type == INT4OID);
	Oid			want = path ? TEXTARRAYOID : element ? INT4OID : TEXTOID;
	Expr	  **args = palloc(sizeof(Expr *) * 2);

	args[0] = l;
	if ((args[1] = coerce_expr(ps, r, want, -1, COERCE_IMPLICIT)) == NULL)
		no_operator(ps, opname, l, r, location);
	return make_func_call(ps, psprintf("%s_%s%s", l->type == JSONOID ? "json" : "jsonb",
									   path ? "extract_path" : element ? "array_element" : "object_field",
									   k % 2 ? (path ? "_text_op" : "_text") : (path ? "_op" : "")),
						  args, 2, location);
}

Expr *
make_func_call(ParseState *ps, const char *name, Expr **args, int nargs, int location)
{
	Oid		   *argtypes = palloc(sizeof(Oid) * (size_t) (nargs + 1));

	for (int i = 0; i < nargs; i++)
		argtypes[i] = args[i]->type;

	const FuncDesc *f = LookupBuiltinFunction(name, nargs, argtypes);
	Expr	   *e = make_expr(EXPR_FUNC, f->rettype, location);

	e->func = f;
	e->nargs = nargs;
	e->args = args;
	return e;
}

Expr *
make_op(ParseState *ps, const char *opname, Expr *l, Expr *r, int location)
{
	ExprOp		op = OP_ADD;
	bool		found = false;
	Expr	   *json = json_operator(ps, opname, l, r, location);

	if (json != NULL)
		return json;

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
		/* oids and the reg* types are numbers without a negative */
		if (op != OP_SUB || (!is_numeric(r->type) && r->type != INTERVALOID) || typio_is_oid(r->type))
			no_operator(ps, opname, l, r, location);
		return op_expr(OP_NEG, r->type, NULL, r, location);
	}

	bool		comparison = op >= OP_EQ && op <= OP_NOT_DISTINCT;
	bool		textual = op == OP_CONCAT || op >= OP_LIKE;

	if (l->type == UNKNOWNOID && r->type == UNKNOWNOID && (comparison || textual))
	{
		l = coerce_expr(ps, l, TEXTOID, -1, COERCE_IMPLICIT);
		r = coerce_expr(ps, r, TEXTOID, -1, COERCE_IMPLICIT);
	}
	else if (l->type == UNKNOWNOID)
		l = coerce_expr(ps, l, op == OP_CONCAT && !is_string(r->type) && !is_array(r->type) ? TEXTOID : r->type,
						-1, COERCE_IMPLICIT);
	else if (r->type == UNKNOWNOID)
		r = coerce_expr(ps, r, op == OP_CONCAT && !is_string(l->type) && !is_array(l->type) ? TEXTOID : l->type,
						-1, COERCE_IMPLICIT);

	if (op == OP_CONCAT && (is_array(l->type) || is_array(r->type)))
	{
		if (l->type != r->type)
			no_operator(ps, opname, l, r, location);
		return op_expr(op, l->type, l, r, location);
	}
	if (op == OP_CONCAT)
	{
		if (!is_string(l->type) && !is_string(r->type))
			no_operator(ps, opname, l, r, location);
		/* character(n) is concatenated as text: without its trailing spaces */
		if (l->type == BPCHAROID)
			l = coerce_expr(ps, l, TEXTOID, -1, COERCE_IMPLICIT);
		if (r->type == BPCHAROID)
			r = coerce_expr(ps, r, TEXTOID, -1, COERCE_IMPLICIT);
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

		/* oids compare as oids; arithmetic takes them as bigint */
		if (common == OIDOID && !comparison)
			common = INT8OID;
		/* real with anything but real: double precision, PostgreSQL's preferred type */
		if (common == FLOAT4OID && (l->type != FLOAT4OID || r->type != FLOAT4OID))
			common = FLOAT8OID;
		if (op == OP_MOD && (common == FLOAT4OID || common == FLOAT8OID))
			no_operator(ps, opname, l, r, location);
		l = coerce_expr(ps, l, common, -1, l->type == OIDOID ? COERCE_EXPLICIT : COERCE_IMPLICIT);
		r = coerce_expr(ps, r, common, -1, r->type == OIDOID ? COERCE_EXPLICIT : COERCE_IMPLICIT);
		return op_expr(op, comparison ? BOOLOID : common, l, r, location);
	}
	if (comparison)
	{
		if (is_string(l->type) && is_string(r->type))
		{
			l = coerce_expr(ps, l, TEXTOID, -1, COERCE_IMPLICIT);
			r = coerce_expr(ps, r, TEXTOID, -1, COERCE_IMPLICIT);
		}
		else if (l->type != r->type)
		{
			/* date < timestamp and the like: widen one side */
			Expr	   *lw = coerce_expr(ps, l, r->type, -1, COERCE_IMPLICIT);
			Expr	   *rw = lw ? NULL : coerce_expr(ps, r, l->type, -1, COERCE_IMPLICIT);

			if (lw == NULL && rw == NULL)
				no_operator(ps, opname, l, r, location);
			l = lw ? lw : l;
			r = rw ? rw : r;
		}
		return op_expr(op, BOOLOID, l, r, location);
	}
	/* interval * number, number * interval, interval / number: by a float8 */
	if ((op == OP_MUL || op == OP_DIV) && (l->type == INTERVALOID || (op == OP_MUL && r->type == INTERVALOID)))
	{
		Expr	   *iv = l->type == INTERVALOID ? l : r;
		Expr	   *n = iv == l ? r : l;

		if (!is_numeric(n->type) || typio_is_oid(n->type))
			no_operator(ps, opname, l, r, location);
		return op_expr(op, INTERVALOID, iv, coerce_expr(ps, n, FLOAT8OID, -1, COERCE_IMPLICIT), location);
	}
	Oid			result = datetime_arith_result(op, l->type, r->type);

	if (result == InvalidOid)
		no_operator(ps, opname, l, r, location);
	if (op == OP_ADD && l->type == INTERVALOID && r->type != INTERVALOID)
		return op_expr(op, result, r, l, location);	/* keep the datetime first */
	return op_expr(op, result, l, r, location);
}

Expr *
make_bool_expr(ExprKind kind, Expr *a, Expr *b, int location)
{
	Expr	   *e = make_expr(kind, BOOLOID, location);

	e->nargs = b ? 2 : 1;
	e->args = palloc(sizeof(Expr *) * 2);
	e->args[0] = a;
	e->args[1] = b;
	return e;
}

/*
 * make_scalar_array -- scalar op ANY / ALL (array): the scalar compared with each
 * element as op would compare it with a value of the element type. An unknown array
 * (a literal, $1) takes the array type of the scalar's.
 */
Expr *
make_scalar_array(ParseState *ps, const char *opname, Expr *l, Expr *r, bool all, int location)
{
	if (r->type == UNKNOWNOID)
	{
		Oid			array = typio_array_type(l->type == UNKNOWNOID ? TEXTOID : l->type);

		if (array == InvalidOid)
			no_operator(ps, opname, l, r, location);
		r = coerce_expr(ps, r, array, -1, COERCE_IMPLICIT);
	}
	if (!is_array(r->type))
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("op ANY/ALL (array) requires array on right side"),
				errposition(char_position(ps, location)));
	/* type the comparison with an element standing in for the array */
	Expr	   *cmp = make_op(ps, opname, l, make_expr(EXPR_CONST, typio_lookup(r->type)->elem, r->location),
							  location);

	if (cmp->type != BOOLOID)
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("op ANY/ALL (array) requires operator to yield boolean"),
				errposition(char_position(ps, location)));

	Expr	   *e = op_expr(cmp->op, BOOLOID, cmp->args[0], r, location);

	e->kind = EXPR_SCALAR_ARRAY;
	e->array_all = all;
	e->element_type = cmp->args[1]->type;
	return e;
}

void
multidimensional(ParseState *ps, int location)
{
	ereport(ERROR,
			errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			errmsg("multidimensional arrays are not supported yet"),
			errposition(char_position(ps, location)));
}

/*
 * transform_array -- ARRAY[...]: of the elements' common type (text if all are
 * unknown), or, under a cast to an array type (array_type), of its element type,
 * each element cast as an explicit cast would. Arrays have one dimension here.
 */
static Expr *
transform_array(ParseState *ps, PgQuery__AArrayExpr *a, Oid array_type)
{
	Expr	   *e = make_expr(EXPR_ARRAY, array_type, a->location);
	Oid			elem;

	for (size_t i = 0; i < a->n_elements; i++)
		if (a->elements[i]->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR)
			multidimensional(ps, a->elements[i]->a_array_expr->location);
	e->nargs = (int) a->n_elements;
	e->args = transform_list(ps, a->elements, a->n_elements);
	if (array_type != InvalidOid)
	{
		elem = typio_lookup(array_type)->elem;
		for (int i = 0; i < e->nargs; i++)
		{
			Expr	   *c = coerce_expr(ps, e->args[i], elem, -1, COERCE_EXPLICIT);

			if (c == NULL)
				ereport(ERROR,
						errcode(ERRCODE_CANNOT_COERCE),
						errmsg("cannot cast type %s to %s", typio_format_type(e->args[i]->type),
							   typio_format_type(elem)),
						errposition(char_position(ps, e->args[i]->location)));
			e->args[i] = c;
		}
		return e;
	}
	if (e->nargs == 0)
		ereport(ERROR,
				errcode(ERRCODE_INDETERMINATE_DATATYPE),
				errmsg("cannot determine type of empty array"),
				errhint("Explicitly cast to the desired type, for example ARRAY[]::integer[]."),
				errposition(char_position(ps, a->location)));
	elem = select_common_type(ps, e->args, e->nargs, "ARRAY");
	if (is_array(elem))
		multidimensional(ps, a->location);
	e->type = typio_array_type(elem);
	if (e->type == InvalidOid)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_OBJECT),
				errmsg("could not find array type for data type %s", typio_format_type(elem)),
				errposition(char_position(ps, a->location)));
	coerce_all(ps, e->args, e->nargs, elem, "ARRAY");
	return e;
}

/*
 * Row comparisons, (a, b) op (c, d) (opname; NULL for IS [NOT] DISTINCT FROM, op), made of their fields' comparisons as PostgreSQL
 * defines them: = is every pair equal, <> any pair unequal, IS [NOT] DISTINCT FROM
 * the same of each pair's, and < <= > >= order by the first pair that differs, the
 * row being null where that pair has a null: a1 < c1 OR (a1 = c1 AND (a2 < c2 OR
 * ...)), whose three values are PostgreSQL's. (a, b) IN ((..), (..)) is the OR of
 * the rows' = . Each is an AND or OR of plain comparisons, so it translates as those
 * do; a row nests only as deep as it has fields.
 */
static Expr *
row_compare(ParseState *ps, const char *opname, ExprOp op, Expr **l, int n, Node *rnode, int location)
{
	if (rnode->node_case != PG_QUERY__NODE__NODE_ROW_EXPR)
		not_supported(ps, "this row comparison", location);

	PgQuery__RowExpr *r = rnode->row_expr;

	if ((int) r->n_args != n)
		ereport(ERROR,
				errcode(ERRCODE_SYNTAX_ERROR),
				errmsg("unequal number of entries in row expressions"),
				errposition(char_position(ps, location)));
	if (n == 0)
		not_supported(ps, "comparison of empty rows", location);

	Expr	  **rf = transform_list(ps, r->args, r->n_args);
	bool		ordering = opname && (strcmp(opname, "<") == 0 || strcmp(opname, "<=") == 0 ||
		strcmp(opname, ">") == 0 || strcmp(opname, ">=") == 0);

	if (ordering)
	{
		const char *strict = opname[0] == '<' ? "<" : ">";
		Expr	   *e = make_op(ps, opname, l[n - 1], rf[n - 1], location);

		for (int i = n - 2; i >= 0; i--)
			e = make_bool_expr(EXPR_OR, make_op(ps, strict, l[i], rf[i], location),
							   make_bool_expr(EXPR_AND, make_op(ps, "=", l[i], rf[i], location), e, location),
							   location);
		return e;
	}

	bool		any = opname ? strcmp(opname, "<>") == 0 : op == OP_DISTINCT;
	Expr	   *e = make_expr(any ? EXPR_OR : EXPR_AND, BOOLOID, location);

	e->nargs = n;
	e->args = palloc(sizeof(Expr *) * (size_t) n);
	for (int i = 0; i < n; i++)
	{
		e->args[i] = make_op(ps, opname ? opname : "=", l[i], rf[i], location);
		if (opname == NULL)
			e->args[i]->op = op;
	}
	/* an operator of the fields' types that is no comparison: PostgreSQL's refusal */
	if (opname && strcmp(opname, "=") != 0 && strcmp(opname, "<>") != 0)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("could not determine interpretation of row comparison operator %s", opname),
				errposition(char_position(ps, location)));
	return e;
}

/* transform_row_aexpr -- an operator whose left operand is a row: row_compare */
static Expr *
transform_row_aexpr(ParseState *ps, PgQuery__AExpr *a, const char *opname)
{
	PgQuery__RowExpr *row = a->lexpr->row_expr;
	Expr	  **l = transform_list(ps, row->args, row->n_args);
	int			n = (int) row->n_args;

	switch (a->kind)
	{
		case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
			return row_compare(ps, opname, OP_EQ, l, n, a->rexpr, a->location);
		case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
		case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT:
			return row_compare(ps, NULL, a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT
							   ? OP_DISTINCT : OP_NOT_DISTINCT, l, n, a->rexpr, a->location);
		case PG_QUERY__A__EXPR__KIND__AEXPR_IN:
			{
				PgQuery__List *list = a->rexpr->list;
				bool		in = strcmp(opname, "=") == 0;
				Expr	   *e = make_expr(in ? EXPR_OR : EXPR_AND, BOOLOID, a->location);

				e->nargs = (int) list->n_items;
				e->args = palloc(sizeof(Expr *) * list->n_items);
				for (size_t i = 0; i < list->n_items; i++)
					e->args[i] = row_compare(ps, opname, OP_EQ, l, n, list->items[i], a->location);
				return e;
			}
		default:
			not_supported(ps, "this row comparison", a->location);
			return NULL;
	}
}

static Expr *
transform_aexpr(ParseState *ps, PgQuery__AExpr *a)
{
	const char *opname = a->n_name ? string_value(a->name[a->n_name - 1]) : "";

	if (a->lexpr && a->lexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR)
		return transform_row_aexpr(ps, a, opname);

	Expr	   *l = a->lexpr ? transform_expr(ps, a->lexpr) : NULL;

	switch (a->kind)
	{
		case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
		case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
		case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE:
		case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR:	/* ~ similar_to_escape(p [, e]) */
			return make_op(ps, opname, l, transform_expr(ps, a->rexpr), a->location);
		case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
		case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL:
			return make_scalar_array(ps, opname, l, transform_expr(ps, a->rexpr),
									 a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL, a->location);
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
				/*
				 * x IN (a, b) = x = a OR x = b; x BETWEEN a AND b = x >= a AND x <= b. One
				 * AND or OR of all the terms, not a chain of pairs: an IN list of 100 000
				 * items must not make a tree 100 000 deep for the executor to recurse into.
				 */
				PgQuery__List *list = a->rexpr->list;
				bool		in = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_IN;
				bool		not_between = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN;
				ExprKind	join = in ? (strcmp(opname, "=") == 0 ? EXPR_OR : EXPR_AND)
					: (not_between ? EXPR_OR : EXPR_AND);
				static const char *const between_ops[2][2] = {{">=", "<="}, {"<", ">"}};

				if (list->n_items == 1)
					return make_op(ps, in ? opname : ">=", l, transform_expr(ps, list->items[0]), a->location);

				Expr	   *result = make_expr(join, BOOLOID, a->location);

				result->nargs = (int) list->n_items;
				result->args = palloc(sizeof(Expr *) * list->n_items);
				for (size_t i = 0; i < list->n_items; i++)
				{
					const char *cmp = in ? opname : between_ops[not_between][i > 0];

					result->args[i] = make_op(ps, cmp, l, transform_expr(ps, list->items[i]), a->location);
				}
				return result;
			}
		default:
			not_supported(ps, "this operator form", a->location);
			return NULL;
	}
}

/* undefined_function -- PostgreSQL's error for a function of no such name and argument types */
void
undefined_function(ParseState *ps, const char *name, const Oid *argtypes, int nargs, int location)
{
	RlBuf		sig;

	rlbuf_init_in(&sig, CurrentMemoryContext);
	for (int i = 0; i < nargs; i++)
		rlbuf_printf(&sig, "%s%s", i ? ", " : "", typio_format_type(argtypes[i]));
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_FUNCTION),
			errmsg("function %s(%s) does not exist", name, rlbuf_cstr(&sig)),
			errhint("No function matches the given name and argument types. "
					"You might need to add explicit type casts."),
			errposition(char_position(ps, location)));
}

static Expr *
transform_func(ParseState *ps, PgQuery__FuncCall *fc)
{
	const char *name = string_value(fc->funcname[fc->n_funcname - 1]);

	if (fc->over)
		return transform_window(ps, fc, name);

	Expr	   *agg = transform_aggregate(ps, fc, name);

	if (agg != NULL)
		return agg;
	if (fc->agg_star || fc->agg_distinct || fc->n_agg_order || fc->agg_filter)
		not_supported(ps, "aggregate functions", fc->location);
	Expr	  **args = transform_list(ps, fc->args, fc->n_args);
	Oid		   *argtypes = palloc0(sizeof(Oid) * (fc->n_args + 1));

	for (size_t i = 0; i < fc->n_args; i++)
		argtypes[i] = args[i]->type;
	/* pg_typeof(any): its argument's type, known now */
	if (strcmp(name, "pg_typeof") == 0 && fc->n_args == 1 &&
		(fc->n_funcname == 1 || strcmp(string_value(fc->funcname[0]), "pg_catalog") == 0))
	{
		ps->folded_aggregate |= contains_aggregate(args[0]);
		return make_const(typio_int(REGTYPEOID, args[0]->type), fc->location);
	}
	const FuncDesc *f = NULL;

	if (fc->n_funcname == 1 ||
		(fc->n_funcname == 2 && strcmp(string_value(fc->funcname[0]), "pg_catalog") == 0))
		f = LookupBuiltinFunction(name, (int) fc->n_args, argtypes);
	if (f == NULL)
		undefined_function(ps, name, argtypes, (int) fc->n_args, fc->location);
	Expr	   *e = make_expr(EXPR_FUNC, f->rettype, fc->location);

	e->func = f;
	e->nargs = (int) fc->n_args;
	e->args = args;
	for (int i = 0; i < e->nargs; i++)
	{
		if (f->nargs == FUNC_VARIADIC_ANY)
			e->args[i] = coerce_expr(ps, args[i], args[i]->type == UNKNOWNOID ? TEXTOID : args[i]->type, -1,
									 COERCE_IMPLICIT);
		else if (f->argtypes[i] == ANYELEMENTOID && args[i]->type == UNKNOWNOID)
			ereport(ERROR,
					errcode(ERRCODE_DATATYPE_MISMATCH),
					errmsg("could not determine polymorphic type because input has type unknown"));
		else if (f->argtypes[i] == ANYELEMENTOID)
			continue;
		else if (f->argtypes[i] != ANYARRAYOID)
			e->args[i] = coerce_expr(ps, args[i], f->argtypes[i], -1, COERCE_IMPLICIT);
		else if (f->rettype == ANYELEMENTOID)
			e->type = typio_lookup(args[i]->type)->elem;	/* unnest(text[]) is text */
	}
	if (f->returns_set)
	{
		if (ps->srf != NULL && !ps->srf_lockstep)
			not_supported(ps, "more than one set-returning function", fc->location);
		if (ps->srf == NULL)
			ps->srf = e;
		else
		{
			ps->more_srfs = ps->more_srfs
				? repalloc(ps->more_srfs, sizeof(Expr *) * (size_t) (ps->nmore_srfs + 1))
				: palloc(sizeof(Expr *));
			ps->more_srfs[ps->nmore_srfs++] = e;
		}
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
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER, "session_user"},
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

/* transform_indirection -- array[i]: one subscript, no slices, no field selection */
static Expr *
transform_indirection(ParseState *ps, PgQuery__AIndirection *ind)
{
	Expr	   *array = transform_expr(ps, ind->arg);
	Node	   *sub = ind->n_indirection == 1 ? ind->indirection[0] : NULL;

	if (sub == NULL || sub->node_case != PG_QUERY__NODE__NODE_A_INDICES || sub->a_indices->is_slice)
		not_supported(ps, "this indirection (slices, fields)", -1);
	if (array->type == NAMEOID)
	{
		/* a name is an array of "char" from 0 (pg_dump reads typname[0]): substr(name, i + 1, 1) */
		static const Oid argtypes[] = {TEXTOID, INT4OID, INT4OID};
		Expr	   *i = coerce_or_fail(ps, transform_expr(ps, sub->a_indices->uidx), INT4OID, "array subscript");
		Expr	   *e = make_expr(EXPR_FUNC, TEXTOID, array->location);

		e->func = LookupBuiltinFunction("substr", 3, argtypes);
		e->nargs = 3;
		e->args = palloc(sizeof(Expr *) * 3);
		e->args[0] = coerce_expr(ps, array, TEXTOID, -1, COERCE_IMPLICIT);
		e->args[1] = make_op(ps, "+", i, make_const(typio_int(INT4OID, 1), -1), -1);
		e->args[2] = make_const(typio_int(INT4OID, 1), -1);
		return e;
	}
	if (!is_array(array->type))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("cannot subscript type %s because it does not support subscripting",
					   typio_format_type(array->type)),
				errposition(char_position(ps, array->location)));
	Expr	   *e = make_expr(EXPR_SUBSCRIPT, typio_lookup(array->type)->elem, array->location);

	e->nargs = 2;
	e->args = palloc(sizeof(Expr *) * 2);
	e->args[0] = array;
	e->args[1] = coerce_or_fail(ps, transform_expr(ps, sub->a_indices->uidx), INT4OID, "array subscript");
	return e;
}

Expr *
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
					arg = coerce_expr(ps, arg, TEXTOID, -1, COERCE_IMPLICIT);
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
		case PG_QUERY__NODE__NODE_GROUPING_FUNC:
			return transform_grouping_func(ps, node->grouping_func);
		case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
			return transform_sqlvalue(ps, node->sqlvalue_function);
		case PG_QUERY__NODE__NODE_PARAM_REF:
			return transform_param(ps, node->param_ref);
		case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
			return transform_expr(ps, node->collate_clause->arg);	/* C collation only */
		case PG_QUERY__NODE__NODE_COLUMN_REF:
			return transform_column_ref(ps, node->column_ref);
		case PG_QUERY__NODE__NODE_SUB_LINK:
			return transform_sublink(ps, node->sub_link);
		case PG_QUERY__NODE__NODE_A_INDIRECTION:
			return transform_indirection(ps, node->a_indirection);
		case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
			return transform_array(ps, node->a_array_expr, InvalidOid);
		case PG_QUERY__NODE__NODE_SET_TO_DEFAULT:
			/* the grammar takes DEFAULT as any expression; only VALUES and SET mean it */
			ereport(ERROR,
					errcode(ERRCODE_SYNTAX_ERROR),
					errmsg("DEFAULT is not allowed in this context"),
					errposition(char_position(ps, node->set_to_default->location)));
			return NULL;
		default:
			not_supported(ps, node_name(node), -1);
			return NULL;
	}
}

/*
 * figure_colname_strength -- PostgreSQL's FigureColnameInternal: the name a
 * result column gets, and how strongly (2 a real name, 1 a cast's type or
 * "case", which an outer name overrides, 0 none: "?column?")
 */
static const char *
figure_colname_strength(Node *node, int *strength)
{
	*strength = 2;
	switch (node->node_case)
	{
		case PG_QUERY__NODE__NODE_COLUMN_REF:
			return string_value(node->column_ref->fields[node->column_ref->n_fields - 1]);
		case PG_QUERY__NODE__NODE_FUNC_CALL:
			return string_value(node->func_call->funcname[node->func_call->n_funcname - 1]);
		case PG_QUERY__NODE__NODE_TYPE_CAST:
			{
				const char *inner = figure_colname_strength(node->type_cast->arg, strength);
				PgQuery__TypeName *tn = node->type_cast->type_name;

				if (*strength > 1)
					return inner;
				*strength = 1;
				return string_value(tn->names[tn->n_names - 1]);
			}
		case PG_QUERY__NODE__NODE_CASE_EXPR:
			{
				const char *result = node->case_expr->defresult
					? figure_colname_strength(node->case_expr->defresult, strength) : NULL;

				if (result && *strength > 1)
					return result;
				*strength = 1;
				return "case";
			}
		case PG_QUERY__NODE__NODE_A_INDIRECTION:
			{
				/* x[1] is named as x, (x).f as f */
				PgQuery__AIndirection *ind = node->a_indirection;

				for (size_t i = ind->n_indirection; i > 0; i--)
					if (ind->indirection[i - 1]->node_case == PG_QUERY__NODE__NODE_STRING)
						return string_value(ind->indirection[i - 1]);
				return figure_colname_strength(ind->arg, strength);
			}
		case PG_QUERY__NODE__NODE_COALESCE_EXPR:
			return "coalesce";
		case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
			return "array";
		case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
			return node->min_max_expr->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST ? "greatest" : "least";
		case PG_QUERY__NODE__NODE_A_EXPR:
			if (node->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF)
				return "nullif";
			break;
		case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
			return figure_colname_strength(node->collate_clause->arg, strength);
		case PG_QUERY__NODE__NODE_SUB_LINK:
			if (node->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK)
				return "array";
			if (node->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK)
				return "exists";
			if (node->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK &&
				node->sub_link->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT)
			{
				/* (SELECT ...): the name of its first result column */
				PgQuery__SelectStmt *sel = node->sub_link->subselect->select_stmt;

				while (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE && sel->larg)
					sel = sel->larg;
				if (sel->n_target_list && sel->target_list[0]->node_case == PG_QUERY__NODE__NODE_RES_TARGET)
				{
					PgQuery__ResTarget *rt = sel->target_list[0]->res_target;

					return is_set(rt->name) ? rt->name : figure_colname_strength(rt->val, &(int) {0});
				}
			}
			break;
		case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
			{
				static const char *const names[] = {
					"?column?", "current_date", "current_time", "current_time",
					"current_timestamp", "current_timestamp", "localtime", "localtime",
					"localtimestamp", "localtimestamp", "current_role", "current_user",
					"user", "session_user", "current_catalog", "current_schema"};
				int			op = node->sqlvalue_function->op;

				if (op > 0 && op < (int) (sizeof(names) / sizeof(names[0])))
					return names[op];
				break;
			}
		default:
			break;
	}
	*strength = 0;
	return "?column?";
}

/* figure_colname -- PostgreSQL's FigureColname: the name a result column gets */
const char *
figure_colname(Node *node)
{
	int			strength;

	return figure_colname_strength(node, &strength);
}

/* finish_params -- every parameter must have a type by now (unknown: text) */
void
finish_params(ParseState *ps, AnalyzedStmt *stmt)
{
	for (int i = 0; i < ps->nparams; i++)
	{
		if (ps->paramtypes[i] == UNKNOWNOID && ps->params_seen[i] != NULL)
			coerce_expr(ps, ps->params_seen[i], TEXTOID, -1, COERCE_IMPLICIT);
		else if (ps->paramtypes[i] == UNKNOWNOID || ps->paramtypes[i] == InvalidOid)
			ereport(ERROR,
					errcode(ERRCODE_INDETERMINATE_DATATYPE),
					errmsg("could not determine data type of parameter $%d", i + 1));
	}
	stmt->nparams = ps->nparams;
	stmt->paramtypes = ps->paramtypes;
}

/*
 * transform_no_aggregates -- an expression of a clause that may hold no aggregate
 * (WHERE, JOIN ... ON, LIMIT, VALUES, UPDATE's SET), refused as PostgreSQL does: SQLite,
 * which would only call it a misuse, never sees one there
 */
Expr *
transform_no_aggregates(ParseState *ps, Node *node, const char *clause)
{
	const char *saved = ps->agg_refused;

	ps->agg_refused = clause;
	Expr	   *e = transform_expr(ps, node);

	ps->agg_refused = saved;
	return e;
}

/* transform_clause -- such a clause's expression, of the type context asks for */
Expr *
transform_clause(ParseState *ps, Node *node, Oid type, const char *context, const char *clause)
{
	return coerce_or_fail(ps, transform_no_aggregates(ps, node, clause), type, context);
}

/* transform_values_row -- the items of one VALUES list */
Expr **
transform_values_row(ParseState *ps, PgQuery__List *row)
{
	Expr	  **out = palloc(sizeof(Expr *) * (row->n_items ? row->n_items : 1));

	for (size_t i = 0; i < row->n_items; i++)
		out[i] = transform_no_aggregates(ps, row->items[i], "VALUES");
	return out;
}

Expr *
transform_limit(ParseState *ps, Node *node, const char *clause)
{
	if (node == NULL)
		return NULL;
	return transform_clause(ps, node, INT8OID, clause, clause);
}

void
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
		plan->values_rows[r] = transform_values_row(ps, row);
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
