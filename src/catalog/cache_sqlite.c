/*
 * cache_sqlite.c: the SQLite side of the catalog cache's connection (cache_sqlite.h):
 * SQLite's errors as PostgreSQL's, with the DETAIL of the row a constraint refused;
 * values into and out of SQLite in their canonical forms (catalog_cache.h); catching
 * an ERROR raised inside a SQLite callback, since longjmp must not cross SQLite; and
 * the functions the cache registers for pg_catalog (syscat.c): rl_pg_name for the
 * names the cache writes in its own form, rl_nspid for the schema of a table by its
 * name there, rl_search_rank for a schema's place in search_path, rl_quote_ident,
 * rl_default_expr for pg_attrdef, and rl_type_oid / rl_type_typmod for a column's
 * declared type. The connection itself, its snapshots and captures are cache.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/cache.h"
#include "catalog/cache_sqlite.h"
#include "catalog/catalog_cache.h"
#include "catalog/namespace.h"
#include "utils/adt/numeric.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

/* ---------- errors ---------- */

bool		callback_failed;

/*
 * SQLite's own limits on the statements it compiles, met by SQL the analyser made from
 * a statement PostgreSQL would run (or refuse at its own, lower, limit), and the misuses
 * of aggregates the analyser does not check: SQLite reports them as SQLITE_ERROR, told
 * apart only by the message's start. The analyser checks PostgreSQL's limits and rules
 * first and writes its SQL so that SQLite's limits are rarely reached (parser/); what
 * still reaches them gets the SQLSTATE PostgreSQL gives, with its message at its limit.
 */
static const struct
{
	const char *prefix;			/* of sqlite3_errmsg() */
	const char *sqlstate;
	const char *message;		/* NULL: SQLite's, already PostgreSQL's words */
}			sqlite_limits[] =
{
	{"parser stack overflow", ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded"},
	{"Expression tree is too large", ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded"},
	{"too many terms in compound SELECT", ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded"},
	{"too many columns", ERRCODE_TOO_MANY_COLUMNS, "target lists can have at most 1664 entries"},
	{"too many SQL variables", ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many constants and parameters in one statement"},
	{"at most 64 tables in a join", ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many tables in one join"},
	/* the analyser's checks come first; these remain as a guard */
	{"misuse of aggregate", ERRCODE_GROUPING_ERROR, NULL},
	{"aggregate functions are not allowed in", ERRCODE_GROUPING_ERROR, NULL},
};


/* pg_name -- a name of the cache read back as PostgreSQL's, palloc'd */
char *
pg_name(const char *name)
{
	return cache_pg_name(palloc(strlen(name) + 1), name);
}



/*
 * The row a failed INSERT or UPDATE was writing when SQLite refused it (a UNIQUE or NOT
 * NULL constraint), for the DETAIL PostgreSQL gives: SQLite checks constraints before
 * anything but a BEFORE trigger sees the row, so probe_failing_row runs the statement
 * again with temporary triggers calling rl_probe_row(NEW's columns), which keeps the
 * last row here. Only on that error path; the statement's effects go with the error.
 */
static struct
{
	const char *message;		/* SQLite's message (palloc'd), NULL if no probe ran */
	const char *table;			/* SQLite's name of the table */
	int			ncolumns;		/* the row: its columns without the row id ... */
	char	  **names;
	char	  **values;			/* ... as PostgreSQL's output, NULL for a NULL */
	sqlite3_value **probed;		/* what rl_probe_row saw last (sqlite3_value_dup'd) */
	int			nprobed;
} failing;



/* quoted -- a name as an SQLite identifier */
static char *
quoted(const char *name)
{
	RlBuf		q;

	rlbuf_init_in(&q, CurrentMemoryContext);
	rlbuf_append_str(&q, "\"");
	for (const char *c = name; *c; c++)
		rlbuf_append_str(&q, *c == '"' ? "\"\"" : (char[2]) {*c, 0});
	rlbuf_append_str(&q, "\"");
	return pstrdup(rlbuf_cstr(&q));
}


static void
rl_probe_row(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	for (int i = 0; i < failing.nprobed; i++)
		sqlite3_value_free(failing.probed[i]);
	free(failing.probed);
	failing.nprobed = 0;
	if ((failing.probed = calloc((size_t) argc + 1, sizeof(sqlite3_value *))) == NULL)
		return;
	for (int i = 0; i < argc; i++)
		failing.probed[i] = sqlite3_value_dup(argv[i]);
	failing.nprobed = argc;
}


/* probe_failing_row -- failing's row for stmt, which SQLite just refused (its message in msg) */
void
probe_failing_row(sqlite3_stmt *stmt, const char *msg)
{
	const char *colon = strchr(msg, ':');
	const char *dot = colon ? strchr(cache_unqualified_name(colon + 2), '.') : NULL;
	sqlite3_stmt *cols = NULL;
	RlBuf		sql,
				args;
	Oid		   *types = NULL;
	int32_t    *typmods = NULL;

	failing.message = pstrdup(msg);
	if (dot == NULL)
		return;
	failing.table = pnstrdup(colon + 2, (size_t) (dot - colon - 2));
	if (sqlite3_prepare_v2(cache_db, "SELECT name, type FROM pragma_table_info(?1) WHERE name <> '"
						   CACHE_ROWID_COLUMN "' ORDER BY cid", -1, &cols, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(cols, 1, failing.table, -1, SQLITE_STATIC);
	rlbuf_init_in(&args, CurrentMemoryContext);
	failing.names = palloc(sizeof(char *));
	while (sqlite3_step(cols) == SQLITE_ROW)
	{
		int			n = failing.ncolumns++;

		failing.names = repalloc(failing.names, sizeof(char *) * (size_t) (n + 1));
		types = types ? repalloc(types, sizeof(Oid) * (size_t) (n + 1)) : palloc(sizeof(Oid));
		typmods = typmods ? repalloc(typmods, sizeof(int32_t) * (size_t) (n + 1)) : palloc(sizeof(int32_t));
		failing.names[n] = pstrdup((const char *) sqlite3_column_text(cols, 0));
		types[n] = decl_type((const char *) sqlite3_column_text(cols, 1), &typmods[n]);
		rlbuf_printf(&args, "%sNEW.%s", n ? ", " : "", quoted(failing.names[n]));
	}
	sqlite3_finalize(cols);
	if (failing.ncolumns == 0)
		return;
	rlbuf_init_in(&sql, CurrentMemoryContext);
	for (int i = 0; i < 2; i++)
		rlbuf_printf(&sql, "CREATE TEMP TRIGGER _rl_probe_%d BEFORE %s ON main.%s BEGIN SELECT rl_probe_row(%s); END;",
					 i, i ? "UPDATE" : "INSERT", quoted(failing.table), rlbuf_cstr(&args));
	if (sqlite3_exec(cache_db, rlbuf_cstr(&sql), NULL, NULL, NULL) == SQLITE_OK)
	{
		sqlite3_reset(stmt);
		(void) sqlite3_step(stmt);	/* refused again, at the same row */
		sqlite3_reset(stmt);
	}
	exec_quietly("DROP TRIGGER IF EXISTS temp._rl_probe_0; DROP TRIGGER IF EXISTS temp._rl_probe_1");
	if (failing.nprobed != failing.ncolumns)
		return;
	failing.values = palloc(sizeof(char *) * (size_t) failing.ncolumns);
	for (int i = 0; i < failing.ncolumns; i++)
	{
		Value		v = from_sqlite(failing.probed[i], types[i], typmods[i], false);

		failing.values[i] = v.isnull ? NULL : pstrdup(typio_output(&v, NULL));
	}
}


/* failing_value -- the failing row's value of a column as a DETAIL shows it, cut at limit bytes if limit > 0 */
static const char *
failing_value(const char *column, size_t limit)
{
	for (int i = 0; i < failing.ncolumns; i++)
		if (strcmp(failing.names[i], column) == 0)
		{
			const char *v = failing.values[i];
			size_t		cut = limit;

			if (v == NULL)
				return "null";
			if (limit == 0 || strlen(v) <= limit)
				return pstrdup(v);
			while (cut > 0 && ((unsigned char) v[cut] & 0xC0) == 0x80)
				cut--;
			return psprintf("%.*s...", (int) cut, v);
		}
	return "?";
}


/* failing_schema -- the schema of the failing row's table, as PostgreSQL names it */
static const char *
failing_schema(void)
{
	int64_t		nsp = cache_name_namespace(failing.table);
	sqlite3_stmt *stmt;
	const char *name = "public";

	if (nsp == 0)
		return name;
	if (sqlite3_prepare_v2(cache_db, "SELECT nspname FROM main." CACHE_NAMESPACE_TABLE " WHERE nspid = ?1",
						   -1, &stmt, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(stmt, 1, nsp);
	name = sqlite3_step(stmt) == SQLITE_ROW ? pstrdup((const char *) sqlite3_column_text(stmt, 0)) : NULL;
	sqlite3_finalize(stmt);
	return name;
}


/* sqlite_error -- an ERROR for a failed SQLite call, with PostgreSQL's SQLSTATE where one fits */
void
sqlite_error(int rc, const char *what)
{
	const char *msg = failing.message ? failing.message : sqlite3_errmsg(cache_db);
	const char *err_schema = NULL,	/* errtableconstraint's */
			   *err_table = NULL,
			   *err_column = NULL,
			   *err_constraint = NULL;

	if (callback_failed)
	{
		/* the report stands (elog.h): resume its recovery now that SQLite is out of the way */
		callback_failed = false;
		siglongjmp(*PG_exception_stack, 1);
	}
	const char *sqlstate = ERRCODE_INTERNAL_ERROR;
	char	   *text = NULL;
	const char *detail = NULL;
	const char *hint = NULL;

	if ((rc & 0xff) == SQLITE_INTERRUPT)
		ProcessInterrupts();	/* cache_progress stopped it: raise what it saw */
	switch (rc)
	{
		case SQLITE_CONSTRAINT_UNIQUE:
		case SQLITE_CONSTRAINT_PRIMARYKEY:
			{
				/* "UNIQUE constraint failed: t.a, t.b" -> t_a_b_key or t_pkey (catalog_cache.c) */
				char	   *table = NULL;
				char	   *name = cache_unique_violation(cache_db, msg, &table);
				const char *dot = table ? msg + strlen("UNIQUE constraint failed: ") + strlen(table) : NULL;

				sqlstate = ERRCODE_UNIQUE_VIOLATION;
				err_constraint = name ? pstrdup(name) : "?";
				text = psprintf("duplicate key value violates unique constraint \"%s\"", err_constraint);
				free(name);
				if (table)
				{
					char	   *copy = pstrdup(table);

					free(table);
					table = copy;
				}
				if (failing.values && table)
				{
					RlBuf		keys,
								values;

					rlbuf_init_in(&keys, CurrentMemoryContext);
					rlbuf_init_in(&values, CurrentMemoryContext);
					for (const char *c = dot; c != NULL; c = strstr(c + 1, ", "))
					{
						const char *col = strchr(c[0] == '.' ? c : cache_unqualified_name(c + 2), '.') + 1;
						char	   *colname = pnstrdup(col, strcspn(col, ","));

						rlbuf_printf(&keys, "%s%s", keys.len ? ", " : "", colname);
						rlbuf_printf(&values, "%s%s", values.len ? ", " : "", failing_value(colname, 0));
					}
					detail = psprintf("Key (%s)=(%s) already exists.", rlbuf_cstr(&keys), rlbuf_cstr(&values));
					err_schema = failing_schema();
					err_table = pg_name(table);
				}
				break;
			}
		case SQLITE_CONSTRAINT_NOTNULL:
			{
				/* "NOT NULL constraint failed: t.a" */
				const char *colon = strchr(msg, ':');
				const char *dot = colon ? strchr(cache_unqualified_name(colon + 2), '.') : NULL;

				sqlstate = ERRCODE_NOT_NULL_VIOLATION;
				text = psprintf("null value in column \"%s\" of relation \"%s\" violates not-null constraint",
								pg_name(dot ? dot + 1 : ""),
								pg_name(dot ? pnstrdup(colon + 2, (size_t) (dot - colon - 2)) : ""));
				if (failing.values && dot)
				{
					RlBuf		row;

					rlbuf_init_in(&row, CurrentMemoryContext);
					for (int i = 0; i < failing.ncolumns; i++)
						rlbuf_printf(&row, "%s%s", i ? ", " : "", failing_value(failing.names[i], 64));
					detail = psprintf("Failing row contains (%s).", rlbuf_cstr(&row));
					err_schema = failing_schema();
					err_table = pg_name(failing.table);
					err_column = dot + 1;
				}
				break;
			}
		case SQLITE_BUSY_SNAPSHOT:
			sqlstate = ERRCODE_T_R_SERIALIZATION_FAILURE;
			text = pstrdup("could not serialize access due to concurrent update");
			break;
		case SQLITE_CONSTRAINT_CHECK:
			{
				/* "CHECK constraint failed: t_x_check" */
				const char *name = strchr(msg, ':');

				sqlstate = ERRCODE_CHECK_VIOLATION;
				text = psprintf("new row violates check constraint \"%s\"", name ? name + 2 : msg);
				break;
			}
		case SQLITE_BUSY:
		case SQLITE_LOCKED:
			sqlstate = ERRCODE_LOCK_NOT_AVAILABLE;
			text = pstrdup("could not obtain lock on the catalog cache");
			break;
		default:
			switch (rc & 0xff)
			{
				case SQLITE_FULL:
					sqlstate = ERRCODE_DISK_FULL;
					text = pstrdup("could not write to the catalog cache: No space left on device");
					hint = "Check free disk space.";
					break;
				case SQLITE_NOMEM:
					sqlstate = ERRCODE_OUT_OF_MEMORY;
					text = pstrdup("out of memory");
					break;
				case SQLITE_TOOBIG:
					/* a string or bytea longer than SQLite holds, as PostgreSQL's repeat() says */
					sqlstate = ERRCODE_PROGRAM_LIMIT_EXCEEDED;
					text = pstrdup("requested length too large");
					break;
				case SQLITE_ERROR:
					for (size_t i = 0; i < sizeof(sqlite_limits) / sizeof(sqlite_limits[0]) && !text; i++)
						if (strncmp(msg, sqlite_limits[i].prefix, strlen(sqlite_limits[i].prefix)) == 0)
						{
							sqlstate = sqlite_limits[i].sqlstate;
							text = pstrdup(sqlite_limits[i].message ? sqlite_limits[i].message : msg);
							if (sqlite_limits[i].message)
								detail = psprintf("The catalog cache refused the statement: %s.", msg);
						}
					break;
			}
			if (text == NULL)
				text = psprintf("catalog cache: could not %s: %s", what, msg);
			break;
	}
	failing.message = NULL;
	failing.values = NULL;
	failing.ncolumns = 0;
	ereport(ERROR,
			errcode(sqlstate),
			errmsg("%s", text),
			detail ? errdetail("%s", detail) : 0,
			hint ? errhint("%s", hint) : 0,
			err_table ? errtableconstraint(err_schema, err_table, err_column, err_constraint) : 0);
}


/* ---------- values ---------- */

/* integer_form -- the types held as Value.u.i, and as INTEGER in SQLite */
bool
integer_form(Oid type)
{
	switch (type)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case OIDOID:
		case XIDOID:
		case TIDOID:
		case DATEOID:
		case TIMEOID:
		case TIMETZOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			return true;
		default:
			return typio_is_oid(type);
	}
}


/* SqliteForm -- a Value's canonical SQLite form: NULL, INTEGER, REAL, TEXT or BLOB */
typedef struct SqliteForm
{
	int			type;			/* SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB */
	int64_t		i;
	double		f;
	const char *bytes;
	size_t		len;
} SqliteForm;

static SqliteForm
sqlite_form(const Value *v)
{
	SqliteForm	f = {.type = SQLITE_TEXT};

	if (v->isnull || v->type == VOIDOID)
		return (SqliteForm) {.type = SQLITE_NULL};
	switch (integer_form(v->type) ? INT8OID : v->type)
	{
		case BOOLOID:
			return (SqliteForm) {.type = SQLITE_INTEGER, .i = v->u.b};
		case INT8OID:
			return (SqliteForm) {.type = SQLITE_INTEGER, .i = v->u.i};
		case FLOAT4OID:
		case FLOAT8OID:
			/* SQLite makes a NaN REAL NULL: it is the text NaN (catalog_cache.h) */
			if (isnan(v->u.f))
				return (SqliteForm) {.type = SQLITE_TEXT, .bytes = "NaN", .len = 3};
			return (SqliteForm) {.type = SQLITE_FLOAT, .f = v->u.f};
		case UUIDOID:
			return (SqliteForm) {.type = SQLITE_BLOB, .bytes = (const char *) v->u.uuid, .len = 16};
		case BYTEAOID:
			return (SqliteForm) {.type = SQLITE_BLOB, .bytes = v->u.s.data, .len = v->u.s.len};
		case INTERVALOID:
			f.bytes = typio_output(v, &f.len);
			return f;
		default:
			f.bytes = v->u.s.data;
			f.len = v->u.s.len;
			return f;
	}
}

void
to_sqlite(const SqliteSink *sink, const Value *v)
{
	SqliteForm	f = sqlite_form(v);

	switch (f.type)
	{
		case SQLITE_NULL:
			if (sink->ctx)
				sqlite3_result_null(sink->ctx);
			else
				sqlite3_bind_null(sink->stmt, sink->index);
			break;
		case SQLITE_INTEGER:
			if (sink->ctx)
				sqlite3_result_int64(sink->ctx, f.i);
			else
				sqlite3_bind_int64(sink->stmt, sink->index, f.i);
			break;
		case SQLITE_FLOAT:
			if (sink->ctx)
				sqlite3_result_double(sink->ctx, f.f);
			else
				sqlite3_bind_double(sink->stmt, sink->index, f.f);
			break;
		case SQLITE_BLOB:
			if (sink->ctx)
				sqlite3_result_blob64(sink->ctx, f.bytes, f.len, SQLITE_TRANSIENT);
			else
				sqlite3_bind_blob64(sink->stmt, sink->index, f.bytes, f.len, SQLITE_TRANSIENT);
			break;
		default:
			if (sink->ctx)
				sqlite3_result_text64(sink->ctx, f.bytes, f.len, SQLITE_TRANSIENT, SQLITE_UTF8);
			else
				sqlite3_bind_text64(sink->stmt, sink->index, f.bytes, f.len, SQLITE_TRANSIENT, SQLITE_UTF8);
			break;
	}
}

/*
 * CacheSqlLiteral -- append to out a SQLite literal that SQLite reads as the value
 * to_sqlite would bind for v; false (nothing appended) where there is none: a REAL
 * (the text of a double need not read back bit for bit) and INT64_MIN (SQLite reads
 * -9223372036854775808 as a minus applied to a REAL). For statements with more
 * constants than SQLite has variables (parser/deparse.c).
 */
bool
CacheSqlLiteral(RlBuf *out, const Value *v)
{
	static const char hex[] = "0123456789ABCDEF";
	SqliteForm	f = sqlite_form(v);

	switch (f.type)
	{
		case SQLITE_NULL:
			rlbuf_append_str(out, "NULL");
			return true;
		case SQLITE_INTEGER:
			if (f.i == INT64_MIN)
				return false;
			rlbuf_printf(out, "%lld", (long long) f.i);
			return true;
		case SQLITE_FLOAT:
			return false;
		case SQLITE_BLOB:
			rlbuf_append_str(out, "X'");
			for (size_t k = 0; k < f.len; k++)
			{
				rlbuf_append(out, &hex[(unsigned char) f.bytes[k] >> 4], 1);
				rlbuf_append(out, &hex[(unsigned char) f.bytes[k] & 15], 1);
			}
			rlbuf_append_str(out, "'");
			return true;
		default:
			/* a NUL would end SQLite's reading of the literal: bind such a value */
			if (memchr(f.bytes, '\0', f.len) != NULL)
				return false;
			rlbuf_append_str(out, "'");
			for (size_t k = 0; k < f.len; k++)
				rlbuf_append(out, f.bytes[k] == '\'' ? "''" : &f.bytes[k], f.bytes[k] == '\'' ? 2 : 1);
			rlbuf_append_str(out, "'");
			return true;
	}
}

/*
 * from_sqlite -- a SQLite value as a Value of type
 *
 * The canonical form is read directly; anything else (an integer SQLite computed
 * for a numeric, the text of a double that a numeric column of an older store held)
 * goes through its text form. With borrow, a string points
 * into sv itself instead of a copy: valid until the statement steps again.
 */
Value
from_sqlite(sqlite3_value *sv, Oid type, int32_t typmod, bool borrow)
{
	int			st = sqlite3_value_type(sv);

	if (st == SQLITE_NULL)
		return typio_null(type);
	if (integer_form(type) && st == SQLITE_INTEGER)
		return typio_int(type, sqlite3_value_int64(sv));
	switch (type)
	{
		case BOOLOID:
			if (st == SQLITE_INTEGER)
				return typio_bool(sqlite3_value_int64(sv) != 0);
			break;
		case FLOAT4OID:
		case FLOAT8OID:
			if (st == SQLITE_INTEGER || st == SQLITE_FLOAT)
				return typio_float(type, sqlite3_value_double(sv));
			break;
		case UUIDOID:
			if (st == SQLITE_BLOB && sqlite3_value_bytes(sv) == 16)
			{
				Value		v = {.type = UUIDOID};

				memcpy(v.u.uuid, sqlite3_value_blob(sv), 16);
				return v;
			}
			break;
		case BYTEAOID:
			if (st == SQLITE_BLOB)
				return typio_string(type, sqlite3_value_blob(sv), (size_t) sqlite3_value_bytes(sv));
			break;
		default:
			break;
	}
	if (st == SQLITE_FLOAT && type == NUMERICOID)
		return typio_input(type, psprintf("%.15g", sqlite3_value_double(sv)), typmod);
	const char *text = (const char *) sqlite3_value_text(sv);
	size_t		len = (size_t) sqlite3_value_bytes(sv);
	const TypeInfo *t = typio_lookup(type);

	if (t != NULL && t->category == TYPCATEGORY_STRING && type != NAMEOID && type != BPCHAROID)
	{
		if (!borrow)
			return typio_string(type, text, len);

		Value		v = {.type = type};

		v.u.s.data = (char *) text; /* SQLite's text ends with a NUL too */
		v.u.s.len = len;
		return v;
	}
	if (st == SQLITE_INTEGER && type == BOOLOID)
		return typio_bool(sqlite3_value_int64(sv) != 0);
	return typio_input(type, text, typmod);
}


/* callback_caught -- an ERROR inside a SQLite callback: SQLite's error now, ours after it */
void
callback_caught(sqlite3_context *ctx, sigjmp_buf *save, MemoryContext context)
{
	PG_exception_stack = save;
	MemoryContextSwitchTo(context);
	callback_failed = true;
	sqlite3_result_error(ctx, CopyErrorData()->message, -1);
}


/*
 * call_catching_errors -- run a SQLite function's body that may raise an ERROR
 * (caught as rl_eval does) and returns its result as text, NULL for NULL
 */
void
call_catching_errors(sqlite3_context *ctx, char *(*body) (sqlite3_value **argv), sqlite3_value **argv)
{
	sigjmp_buf *save = PG_exception_stack;
	MemoryContext context = CurrentMemoryContext;
	sigjmp_buf	local;

	if (sigsetjmp(local, 0) != 0)
	{
		callback_caught(ctx, save, context);
		return;
	}
	PG_exception_stack = &local;

	char	   *result = body(argv);

	if (result)
		sqlite3_result_text(ctx, result, -1, SQLITE_TRANSIENT);
	else
		sqlite3_result_null(ctx);
	PG_exception_stack = save;
}


/* decl_type -- the type a column's declared type names ("varchar(10)", "numeric_text(12,2)",
 * "jsonb_text", "float8_blob") */
Oid
decl_type(const char *decl, int32_t *typmod)
{
	const char *paren = strchr(decl, '(');
	char	   *base = paren ? pnstrdup(decl, (size_t) (paren - decl)) : pstrdup(decl);
	size_t		blen = strlen(base);

	/* jsonb_text, float8_blob (catalog_cache.h): jsonb, float8 */
	for (int i = 0; i < 2; i++)
	{
		const char *suffix = i ? CACHE_BLOB_SUFFIX : CACHE_TEXT_SUFFIX;
		size_t		slen = strlen(suffix);

		if (blen > slen && strcmp(base + blen - slen, suffix) == 0)
			base[blen - slen] = '\0';
	}
	Oid			type = strcmp(base, NUMERIC_CACHE_TYPE) == 0 ? NUMERICOID : typio_type_by_name(base);
	int			mods[2] = {0, 0};

	*typmod = -1;
	if (type == InvalidOid)
		return TEXTOID;
	Oid			elem = typio_lookup(type) ? typio_lookup(type)->elem : InvalidOid;

	/* an array's typmod is its elements': _numeric(38,6), _bpchar(5) */
	if (paren && sscanf(paren, "(%d,%d)", &mods[0], &mods[1]) >= 1)
		*typmod = (type == NUMERICOID || elem == NUMERICOID) ? ((mods[0] << 16) | mods[1]) + 4 : mods[0] + 4;
	return type;
}


/* rl_type_oid(decl), rl_type_typmod(decl) -- decl_type for pg_attribute (syscat.c) */
static void
rl_type_oid(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	int32_t		typmod;

	sqlite3_result_int64(ctx, decl_type((const char *) sqlite3_value_text(argv[0]), &typmod));
}


static void
rl_type_typmod(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	int32_t		typmod;

	decl_type((const char *) sqlite3_value_text(argv[0]), &typmod);
	sqlite3_result_int(ctx, typmod);
}


/* rl_pg_name(name) -- a name of the cache as PostgreSQL's (catalog_cache.h, "Names") */
static void
rl_pg_name(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *name = (const char *) sqlite3_value_text(argv[0]);
	size_t		len = (size_t) sqlite3_value_bytes(argv[0]);

	if (name == NULL || cache_name_len(name) == len)
		sqlite3_result_value(ctx, argv[0]);
	else
		sqlite3_result_text(ctx, cache_pg_name(sqlite3_malloc64(len + 1), name), -1, sqlite3_free);
}


/* rl_nspid(name) -- the rl_namespace id of a table's schema by its cache name, 0 for public */
static void
rl_nspid(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *name = (const char *) sqlite3_value_text(argv[0]);

	sqlite3_result_int64(ctx, name ? cache_name_namespace(name) : 0);
}


/* rl_search_rank(nspname) -- the schema's place in search_path (SearchPathRank) */
static void
rl_search_rank(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *name = (const char *) sqlite3_value_text(argv[0]);

	sqlite3_result_int(ctx, name ? SearchPathRank(name) : -1);
}


/* rl_quote_ident(name) -- PostgreSQL's quote_ident (without its keyword list) for pg_catalog's texts */
static void
rl_quote_ident(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *name = (const char *) sqlite3_value_text(argv[0]);

	if (name == NULL)
		sqlite3_result_null(ctx);
	else if (IdentifierIsSafe(name))
		sqlite3_result_value(ctx, argv[0]);
	else
		sqlite3_result_text(ctx, sqlite3_mprintf("\"%w\"", name), -1, sqlite3_free);
}


/*
 * default_value -- a column default as the cache declares it (parse_utility.c's
 * sqlite_literal: a number, 'text', or X'hex') in its PostgreSQL text form
 */
static char *
default_value(const char *literal, Oid type)
{
	size_t		len = strlen(literal);

	if (literal[0] == '\'')
	{
		RlBuf		b;

		rlbuf_init_in(&b, CurrentMemoryContext);
		for (size_t i = 1; i + 1 < len; i++)
			if (literal[i] != '\'' || literal[++i] == '\'')
				rlbuf_append(&b, &literal[i], 1);
		return pstrdup(rlbuf_cstr(&b));
	}
	if ((literal[0] == 'X' || literal[0] == 'x') && literal[1] == '\'')
	{
		Value		v = typio_input(BYTEAOID, psprintf("\\x%.*s", (int) len - 3, literal + 2), -1);

		if (type == UUIDOID && v.u.s.len == 16)
		{
			Value		u = {.type = UUIDOID};

			memcpy(u.u.uuid, v.u.s.data, 16);
			return typio_output(&u, NULL);
		}
		return typio_output(&v, NULL);
	}
	if (type == BOOLOID)
		return pstrdup(strcmp(literal, "0") == 0 ? "false" : "true");
	if (integer_form(type) && type != INT2OID && type != INT4OID && type != INT8OID)
	{
		Value		v = typio_int(type, strtoll(literal, NULL, 10));

		return typio_output(&v, NULL);
	}
	if (type == FLOAT4OID || type == FLOAT8OID)
	{
		Value		v = typio_float(type, strtod(literal, NULL));

		return typio_output(&v, NULL);
	}
	return pstrdup(literal);
}


/*
 * rl_default_expr(literal, declared_type) -- pg_attrdef.adbin: the default as
 * pg_get_expr shows it, a number bare when it is not negative and a literal
 * with its type otherwise ('x'::text, '-1'::integer, true)
 */
static char *
default_expr(sqlite3_value **argv)
{
	const char *literal = (const char *) sqlite3_value_text(argv[0]);
	int32_t		typmod;

	if (literal == NULL || strcmp(literal, "NULL") == 0)
		return NULL;
	Oid			type = decl_type((const char *) sqlite3_value_text(argv[1]), &typmod);
	char	   *text = default_value(literal, type);
	const TypeInfo *t = typio_lookup(type);

	for (size_t n = strlen(text); type == BPCHAROID && n > 0 && text[n - 1] == ' '; n--)
		text[n - 1] = '\0';	/* the literal before it was padded to the column's length */

	if (type == BOOLOID ||
		(t->category == TYPCATEGORY_NUMERIC && text[0] != '-' &&
		 !(type == INT8OID && strtoll(text, NULL, 10) > INT32_MAX)))
		return text;
	char	   *quoted = sqlite3_mprintf("%Q", text);
	char	   *expr = psprintf("%s::%s", quoted, type == BPCHAROID ? "bpchar"
								: t->category == TYPCATEGORY_NUMERIC && type != INT8OID && type != NUMERICOID
								? "integer" : typio_format_type(type));

	sqlite3_free(quoted);
	return expr;
}


static void
rl_default_expr(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	call_catching_errors(ctx, default_expr, argv);
}

/* cache_register_functions -- the cache's own SQLite functions on db (cache_sqlite.h) */
void
cache_register_functions(sqlite3 *db)
{
	sqlite3_create_function(db, "rl_probe_row", -1, SQLITE_UTF8, NULL, rl_probe_row, NULL, NULL);
	sqlite3_create_function(db, "rl_pg_name", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, rl_pg_name,
							NULL, NULL);
	sqlite3_create_function(db, "rl_nspid", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, rl_nspid, NULL, NULL);
	sqlite3_create_function(db, "rl_search_rank", 1, SQLITE_UTF8, NULL, rl_search_rank, NULL, NULL);
	sqlite3_create_function(db, "rl_quote_ident", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, rl_quote_ident,
							NULL, NULL);
	sqlite3_create_function(db, "rl_default_expr", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
							rl_default_expr, NULL, NULL);
	sqlite3_create_function(db, "rl_type_oid", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, rl_type_oid,
							NULL, NULL);
	sqlite3_create_function(db, "rl_type_typmod", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
							rl_type_typmod, NULL, NULL);
}
