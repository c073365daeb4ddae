/*
 * changeset_apply.c: a changeset applied to a cache connection as
 * sqlite3changeset_apply does (cache_apply_changeset, catalog_cache.h): a
 * backend re-applying its transaction's writes, and the writer its groups'.
 */
#include "catalog/catalog_cache_internal.h"

/* ---------------------------------------------------------------- applying a changeset */

static void
table_apply_free(StmtCache *stmts, TableApply *t)
{
	free(t->table);
	table_columns_free(&t->loaded);
	for (int i = 0; i < APPLY_NSTMTS; i++)
		stmt_cache_release(stmts, t->stmt[i], false);
	memset(t, 0, sizeof(*t));
}

static char *
buf_detach(RlBuf *buf)
{
	char	   *text = strdup(rlbuf_cstr(buf));

	rlbuf_reset(buf);
	return text;
}

/*
 * table_apply_plan -- the statements for the changes the iterator is on, made into
 * columns' plan unless it has them already; t->skip if the table cannot take them
 */

/*
 * append_and -- " AND " before the k-th comparison of a row's columns, in groups of
 * APPLY_AND_GROUP in parentheses (the caller closes the last): SQLite counts an AND
 * chain's length in its expression depth (at most 1000), and a table has up to
 * 1 600 columns.
 */
static void
append_and(RlBuf *sql, int k)
{
	if (k > 0 && k % APPLY_AND_GROUP == 0)
		rlbuf_append_str(sql, ")");
	rlbuf_append_str(sql, k % APPLY_AND_GROUP == 0 ? " AND (" : " AND ");
}

static void
table_apply_plan(const ChangesetIter *it, TableColumns *columns, TableApply *t)
{
	const uint8_t *pk = it->pk;
	int			n = it->ncolumns;
	RlBuf		sql,
				where;
	char	  **names = columns->names;

	t->table = strdup(it->table);
	t->ncolumns = n;
	t->sql = columns->plan_sql;
	/* as sqlite3changeset_apply: a table that is gone or has fewer columns is skipped */
	t->skip = columns->n < n;
	if (t->skip || (columns->plan_ncolumns == n && memcmp(columns->plan_pk, pk, (size_t) n) == 0))
		return;
	free(columns->plan_pk);
	for (int i = 0; i < APPLY_NSTMTS; i++)
		free(columns->plan_sql[i]);
	columns->plan_ncolumns = n;
	columns->plan_pk = malloc((size_t) n);
	memcpy(columns->plan_pk, pk, (size_t) n);
	rlbuf_init(&sql);
	rlbuf_init(&where);
	for (int i = 0; i < n; i++)
		if (pk[i])
		{
			rlbuf_append_str(&where, where.len ? " AND " : " WHERE ");
			append_identifier(&where, names[i]);
			rlbuf_append_str(&where, " = ?");
			rlbuf_append_int(&where, i + 1);
		}
	/* INSERT: the changeset's columns; a table with more gives the rest their defaults */
	rlbuf_append_str(&sql, "INSERT INTO main.");
	append_identifier(&sql, columns->table);
	for (int i = 0; i < n; i++)
	{
		rlbuf_append_str(&sql, i ? ", " : " (");
		append_identifier(&sql, names[i]);
	}
	rlbuf_append_str(&sql, ") VALUES (");
	for (int i = 0; i < n; i++)
	{
		rlbuf_append_str(&sql, i ? ", ?" : "?");
		rlbuf_append_int(&sql, n + i + 1);
	}
	rlbuf_append_str(&sql, ")");
	columns->plan_sql[APPLY_INSERT] = buf_detach(&sql);

	/* DELETE: the row as the changeset last saw it */
	rlbuf_append_str(&sql, "DELETE FROM main.");
	append_identifier(&sql, columns->table);
	rlbuf_append_str(&sql, rlbuf_cstr(&where));
	int			k = 0;

	for (int i = 0; i < n; i++)
		if (!pk[i])
		{
			append_and(&sql, k++);
			append_identifier(&sql, names[i]);
			rlbuf_append_str(&sql, " IS ?");
			rlbuf_append_int(&sql, i + 1);
		}
	if (k > 0)
		rlbuf_append_str(&sql, ")");
	columns->plan_sql[APPLY_DELETE] = buf_detach(&sql);

	/* UPDATE: the changed columns, if they still hold their old values */
	rlbuf_append_str(&sql, "UPDATE main.");
	append_identifier(&sql, columns->table);
	rlbuf_append_str(&sql, " SET ");
	bool		first = true;

	for (int i = 0; i < n; i++)
		if (!pk[i])
		{
			if (!first)
				rlbuf_append_str(&sql, ", ");
			first = false;
			append_identifier(&sql, names[i]);
			rlbuf_append_str(&sql, " = CASE WHEN ?");
			rlbuf_append_int(&sql, 2 * n + i + 1);
			rlbuf_append_str(&sql, " THEN ?");
			rlbuf_append_int(&sql, n + i + 1);
			rlbuf_append_str(&sql, " ELSE ");
			append_identifier(&sql, names[i]);
			rlbuf_append_str(&sql, " END");
		}
	rlbuf_append_str(&sql, rlbuf_cstr(&where));
	k = 0;
	for (int i = 0; i < n; i++)
		if (!pk[i])
		{
			append_and(&sql, k++);
			rlbuf_append_str(&sql, "(NOT ?");
			rlbuf_append_int(&sql, 2 * n + i + 1);
			rlbuf_append_str(&sql, " OR ");
			append_identifier(&sql, names[i]);
			rlbuf_append_str(&sql, " IS ?");
			rlbuf_append_int(&sql, i + 1);
			rlbuf_append_str(&sql, ")");
		}
	if (k > 0)
		rlbuf_append_str(&sql, ")");
	columns->plan_sql[APPLY_UPDATE] = first ? NULL : buf_detach(&sql);

	rlbuf_reset(&sql);
	rlbuf_append_str(&sql, "SELECT 1 FROM main.");
	append_identifier(&sql, columns->table);
	rlbuf_append_str(&sql, rlbuf_cstr(&where));
	columns->plan_sql[APPLY_EXISTS] = buf_detach(&sql);
	rlbuf_free(&sql);
	rlbuf_free(&where);
}

/*
 * bind_change -- the change's old and new values and changed flags, as TableApply's
 * parameters. Every parameter is bound, undefined values as NULL: the values point
 * into the changeset (SQLITE_STATIC), and a kept statement must not hold a pointer
 * into an earlier one.
 */
static void
bind_change(sqlite3_stmt *stmt, const ChangesetIter *it, int n, bool old_as_new)
{
	int			nparams = sqlite3_bind_parameter_count(stmt);

	for (int i = 0; i < n; i++)
	{
		const KvDatum *old = changeset_old(it, i),
				   *new = changeset_new(it, i);

		if (old_as_new && old == NULL)
			old = new;			/* an INSERT's primary key, for exists_sql */
		if (i + 1 <= nparams)
			bind_datum(stmt, i + 1, old);
		if (n + i + 1 <= nparams)
			bind_datum(stmt, n + i + 1, new);
		if (2 * n + i + 1 <= nparams)
			sqlite3_bind_int(stmt, 2 * n + i + 1, new != NULL);
	}
}

/* run_change -- step TableApply statement which for the change: SQLITE_DONE or an error code */
static int
run_change(sqlite3 *db, StmtCache *stmts, TableApply *t, int which, const ChangesetIter *it, bool *row)
{
	if (t->stmt[which] == NULL && (t->stmt[which] = stmt_cache_get(stmts, t->sql[which])) == NULL)
		return sqlite3_errcode(db);

	sqlite3_stmt *stmt = t->stmt[which];

	bind_change(stmt, it, t->ncolumns, which == APPLY_EXISTS);
	int			rc = sqlite3_step(stmt);

	if (row)
		*row = rc == SQLITE_ROW;
	if (rc == SQLITE_ROW)
		rc = SQLITE_DONE;
	if (rc != SQLITE_DONE)
		rc = sqlite3_extended_errcode(db);
	sqlite3_reset(stmt);
	return rc;
}

/* apply_changeset -- cache_apply_changeset, with the writer's kept table shapes if kept is set */
int
apply_changeset(sqlite3 *db, StmtCache *stmts, CatalogCache *kept, const void *changeset, size_t len,
				int (*filter) (void *arg, const char *table),
				int (*conflict) (void *arg, int reason, const ChangesetIter *it), void *arg)
{
	ChangesetIter it;
	ChangesetStep next = CHANGESET_DONE;
	TableApply	t = {0};
	int			rc = SQLITE_OK;

	changeset_begin(&it, changeset, len);
	while (rc == SQLITE_OK && (next = changeset_next(&it)) == CHANGESET_ROW)
	{
		const char *table = it.table;
		int			n = it.ncolumns,
					op = it.op,
					step,
					reason = 0;
		bool		found;

		if (t.table == NULL || strcmp(t.table, table) != 0 || t.ncolumns != n)
		{
			table_apply_free(stmts, &t);
			if (filter && !filter(arg, table))
			{
				t.table = strdup(table);
				t.ncolumns = n;
				t.skip = true;
			}
			else
			{
				TableColumns *columns = &t.loaded;
				RlStatus	crc = kept ? table_columns(kept, table, &columns)
					: load_columns(db, stmts, table, &t.loaded);

				if (crc != RL_OK)
				{
					rc = sqlite3_errcode(db);
					break;
				}
				table_apply_plan(&it, columns, &t);
			}
		}
		if (t.skip || (op == SQLITE_UPDATE && t.sql[APPLY_UPDATE] == NULL))
			continue;
		switch (op)
		{
			case SQLITE_INSERT:
				step = run_change(db, stmts, &t, APPLY_INSERT, &it, NULL);
				if ((step & 0xff) == SQLITE_CONSTRAINT)
				{
					step = run_change(db, stmts, &t, APPLY_EXISTS, &it, &found);
					reason = found ? SQLITE_CHANGESET_CONFLICT : SQLITE_CHANGESET_CONSTRAINT;
				}
				break;
			default:
				step = run_change(db, stmts, &t, op == SQLITE_DELETE ? APPLY_DELETE : APPLY_UPDATE, &it, NULL);
				if (step == SQLITE_DONE && sqlite3_changes(db) == 0)
				{
					step = run_change(db, stmts, &t, APPLY_EXISTS, &it, &found);
					reason = found ? SQLITE_CHANGESET_DATA : SQLITE_CHANGESET_NOTFOUND;
				}
				else if ((step & 0xff) == SQLITE_CONSTRAINT)
				{
					step = SQLITE_DONE;
					reason = SQLITE_CHANGESET_CONSTRAINT;
				}
				break;
		}
		if (step != SQLITE_DONE)
			rc = step;
		else if (reason && conflict(arg, reason, &it) != SQLITE_CHANGESET_OMIT)
			rc = SQLITE_ABORT;
	}
	if (rc == SQLITE_OK && next == CHANGESET_CORRUPT)
		rc = SQLITE_CORRUPT;
	table_apply_free(stmts, &t);
	changeset_end(&it);
	return rc;
}

int
cache_apply_changeset(sqlite3 *db, StmtCache *stmts, const void *changeset, size_t len,
					  int (*filter) (void *arg, const char *table),
					  int (*conflict) (void *arg, int reason, const ChangesetIter *it), void *arg)
{
	return apply_changeset(db, stmts, NULL, changeset, len, filter, conflict, arg);
}
