/*
 * pg_attribute.c: pg_attribute as an SQLite virtual table that reads one relation's
 * columns when the query names its attrelid.
 *
 * Clients look up a relation's columns by joining pg_class, filtered by relname, to
 * pg_attribute on attrelid: DuckDB's postgres extension does so on a session's first
 * read of each catalog table, psql's \d with attrelid = 'oid'. RockLake keeps no
 * pg_attribute: its rows come from SQLite's table_info and index_info pragmas, each of
 * which compiles a PRAGMA, and a subquery over every relation's pragmas cost as much as
 * the catalog has relations (DuckLake 1.0 makes an inlined-data table of some forty
 * columns with every table) whatever the query asked for.
 *
 * So pg_attribute is this eponymous virtual table (syscat.c puts "SELECT * FROM
 * main.rl_pg_attribute" where the client names pg_attribute). Its xBestIndex takes an
 * equality on attrelid (SQLite presents each value of an IN list as one) and prices it
 * as a few dozen rows, so SQLite's planner puts pg_class outside and looks up
 * pg_attribute by each of its OIDs. A scan is priced dear but said to give a thousand
 * rows, not its cost: with both figures at its cost, a join with pg_type (a VALUES
 * list) cost the same either way round, and SQLite put pg_type's rows outside and
 * scanned every relation's columns once for each type (the postgres extension's schema
 * load at ATTACH took forty times as long as one scan). xFilter then runs
 * SystemAttributeSql's query for that one OID, which searches rl_relation by its key and
 * runs the pragmas of that relation (or of the index's table) only. Without such an
 * equality it runs the query over every relation, as the subquery did. Both queries
 * are syscat.c's SQL on the same connection, so they see the transaction's snapshot
 * and give the rows the subquery gave, bit for bit; SQLite still tests attrelid = x
 * itself (the constraint is not omitted), so its comparison rules are unchanged.
 *
 * The two queries are built once per connection (PgAttributeRegister, outside SQLite's
 * callbacks, where palloc may raise an error) and compiled when a statement first names
 * the table; the virtual table keeps one prepared statement of each kind between uses,
 * so a lookup compiles nothing.
 */
#include <string.h>

#include "catalog/pg_attribute.h"
#include "catalog/syscat.h"
#include "utils/mcxt.h"

/* SystemAttributeSql's two queries: every relation's columns, one OID's */
enum
{
	ATTR_ALL,
	ATTR_ONE,
	ATTR_NQUERIES
};

/* the query's columns that name a row: attrelid (what xBestIndex looks up) and attnum */
#define ATTRELID_COLUMN		0
#define ATTNUM_COLUMN		3

/* the relations' columns a scan reads, as xBestIndex prices it */
#define ATTR_SCAN_COST		100000
#define ATTR_SCAN_ROWS		1000
#define ATTR_RELATION_ROWS	40

typedef struct AttrQueries
{
	char	   *sql[ATTR_NQUERIES];
} AttrQueries;

typedef struct AttrVtab
{
	sqlite3_vtab base;
	sqlite3    *db;
	const AttrQueries *queries;
	sqlite3_stmt *kept[ATTR_NQUERIES];	/* idle prepared statements, or NULL */
} AttrVtab;

typedef struct AttrCursor
{
	sqlite3_vtab_cursor base;
	sqlite3_stmt *stmt;			/* the query being read, or NULL */
	int			kind;			/* which of the queries stmt is */
	int			rc;				/* SQLITE_ROW while stmt has a row */
} AttrCursor;

static int
attr_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **vtab, char **err)
{
	const AttrQueries *queries = aux;
	sqlite3_stmt *stmt = NULL;
	sqlite3_str *decl = sqlite3_str_new(db);
	int			rc;

	/* the columns are the query's: the same names, and no declared type (no affinity) */
	rc = sqlite3_prepare_v3(db, queries->sql[ATTR_ALL], -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL);
	sqlite3_str_appendall(decl, "CREATE TABLE x(");
	for (int i = 0; rc == SQLITE_OK && i < sqlite3_column_count(stmt); i++)
		sqlite3_str_appendf(decl, "%s\"%w\"", i ? ", " : "", sqlite3_column_name(stmt, i));
	sqlite3_str_appendall(decl, ")");

	char	   *sql = sqlite3_str_finish(decl);

	if (rc == SQLITE_OK)
		rc = sql ? sqlite3_declare_vtab(db, sql) : SQLITE_NOMEM;
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
	{
		*err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
		sqlite3_finalize(stmt);
		return rc;
	}

	AttrVtab   *v = sqlite3_malloc(sizeof(AttrVtab));

	if (v == NULL)
	{
		sqlite3_finalize(stmt);
		return SQLITE_NOMEM;
	}
	memset(v, 0, sizeof(*v));
	v->db = db;
	v->queries = queries;
	/*
	 * both queries compiled now, with the statement that names the table: a backend
	 * that warms its statements up before its client comes (design.md) has them ready
	 * (a failure here is xFilter's to report)
	 */
	v->kept[ATTR_ALL] = stmt;
	sqlite3_prepare_v3(db, queries->sql[ATTR_ONE], -1, SQLITE_PREPARE_PERSISTENT, &v->kept[ATTR_ONE], NULL);
	*vtab = &v->base;
	return SQLITE_OK;
}

static int
attr_disconnect(sqlite3_vtab *vtab)
{
	AttrVtab   *v = (AttrVtab *) vtab;

	for (int i = 0; i < ATTR_NQUERIES; i++)
		sqlite3_finalize(v->kept[i]);
	sqlite3_free(v);
	return SQLITE_OK;
}

/* an equality on attrelid is a lookup of one relation's columns */
static int
attr_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info)
{
	for (int i = 0; i < info->nConstraint; i++)
	{
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];

		if (c->usable && c->iColumn == ATTRELID_COLUMN && c->op == SQLITE_INDEX_CONSTRAINT_EQ)
		{
			info->aConstraintUsage[i].argvIndex = 1;
			info->idxNum = ATTR_ONE;
			info->estimatedCost = ATTR_RELATION_ROWS;
			info->estimatedRows = ATTR_RELATION_ROWS;
			return SQLITE_OK;
		}
	}
	info->idxNum = ATTR_ALL;
	info->estimatedCost = ATTR_SCAN_COST;
	info->estimatedRows = ATTR_SCAN_ROWS;
	return SQLITE_OK;
}

static int
attr_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **cursor)
{
	AttrCursor *c = sqlite3_malloc(sizeof(AttrCursor));

	if (c == NULL)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	c->rc = SQLITE_DONE;
	*cursor = &c->base;
	return SQLITE_OK;
}

/* release -- the cursor's statement back to the table's keeping, or finalized */
static void
release(AttrCursor *c)
{
	AttrVtab   *v = (AttrVtab *) c->base.pVtab;

	if (c->stmt == NULL)
		return;
	sqlite3_reset(c->stmt);
	sqlite3_clear_bindings(c->stmt);
	if (v->kept[c->kind] == NULL)
		v->kept[c->kind] = c->stmt;
	else
		sqlite3_finalize(c->stmt);
	c->stmt = NULL;
}

static int
attr_close(sqlite3_vtab_cursor *cursor)
{
	release((AttrCursor *) cursor);
	sqlite3_free(cursor);
	return SQLITE_OK;
}

/* step -- the query's next row; its error becomes the table's */
static int
step(AttrCursor *c)
{
	c->rc = sqlite3_step(c->stmt);
	if (c->rc == SQLITE_ROW || c->rc == SQLITE_DONE)
		return SQLITE_OK;

	AttrVtab   *v = (AttrVtab *) c->base.pVtab;

	sqlite3_free(v->base.zErrMsg);
	v->base.zErrMsg = sqlite3_mprintf("%s", sqlite3_errmsg(v->db));
	return c->rc;
}

static int
attr_filter(sqlite3_vtab_cursor *cursor, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
	AttrCursor *c = (AttrCursor *) cursor;
	AttrVtab   *v = (AttrVtab *) cursor->pVtab;
	int			kind = idxNum == ATTR_ONE && argc == 1 ? ATTR_ONE : ATTR_ALL;

	if (c->stmt != NULL && c->kind != kind)
		release(c);
	if (c->stmt == NULL)
	{
		c->kind = kind;
		c->stmt = v->kept[kind];
		v->kept[kind] = NULL;
	}
	else
		sqlite3_reset(c->stmt);
	if (c->stmt == NULL && sqlite3_prepare_v3(v->db, v->queries->sql[kind], -1, SQLITE_PREPARE_PERSISTENT,
											  &c->stmt, NULL) != SQLITE_OK)
	{
		sqlite3_free(v->base.zErrMsg);
		v->base.zErrMsg = sqlite3_mprintf("%s", sqlite3_errmsg(v->db));
		c->rc = SQLITE_DONE;
		return sqlite3_errcode(v->db);
	}
	if (kind == ATTR_ONE)
		sqlite3_bind_value(c->stmt, 1, argv[0]);
	return step(c);
}

static int
attr_next(sqlite3_vtab_cursor *cursor)
{
	return step((AttrCursor *) cursor);
}

static int
attr_eof(sqlite3_vtab_cursor *cursor)
{
	return ((AttrCursor *) cursor)->rc != SQLITE_ROW;
}

static int
attr_column(sqlite3_vtab_cursor *cursor, sqlite3_context *ctx, int i)
{
	sqlite3_result_value(ctx, sqlite3_column_value(((AttrCursor *) cursor)->stmt, i));
	return SQLITE_OK;
}

/*
 * attr_rowid -- a row's (attrelid, attnum) as one number, the same whichever lookup
 * found it: SQLite tells apart by rowid the rows that the branches of an OR (attrelid = x
 * AND ... OR attrelid = y AND ...), each a lookup, both give
 */
static int
attr_rowid(sqlite3_vtab_cursor *cursor, sqlite3_int64 *rowid)
{
	sqlite3_stmt *stmt = ((AttrCursor *) cursor)->stmt;

	*rowid = sqlite3_column_int64(stmt, ATTRELID_COLUMN) * 65536 + sqlite3_column_int64(stmt, ATTNUM_COLUMN);
	return SQLITE_OK;
}

/* eponymous only: no xCreate or xDestroy, and no writes */
static const sqlite3_module attr_module = {
	.iVersion = 0,
	.xConnect = attr_connect,
	.xBestIndex = attr_best_index,
	.xDisconnect = attr_disconnect,
	.xOpen = attr_open,
	.xClose = attr_close,
	.xFilter = attr_filter,
	.xNext = attr_next,
	.xEof = attr_eof,
	.xColumn = attr_column,
	.xRowid = attr_rowid,
};

static void
free_queries(void *aux)
{
	AttrQueries *queries = aux;

	for (int i = 0; i < ATTR_NQUERIES; i++)
		sqlite3_free(queries->sql[i]);
	sqlite3_free(queries);
}

int
PgAttributeRegister(sqlite3 *db)
{
	AttrQueries *queries = sqlite3_malloc(sizeof(AttrQueries));

	if (queries == NULL)
		return SQLITE_NOMEM;
	for (int i = 0; i < ATTR_NQUERIES; i++)
	{
		char	   *sql = SystemAttributeSql(i == ATTR_ONE);

		queries->sql[i] = sqlite3_mprintf("%s", sql);
		pfree(sql);
	}
	if (queries->sql[ATTR_ALL] == NULL || queries->sql[ATTR_ONE] == NULL)
	{
		free_queries(queries);
		return SQLITE_NOMEM;
	}
	/* the destructor frees the queries when the module goes, or at once on failure */
	return sqlite3_create_module_v2(db, PG_ATTRIBUTE_VTAB, &attr_module, queries, free_queries);
}
