/*
 * warmup.c: the warm-up hint a session leaves for the next (warmup.h): the texts of
 * the SQLite statements it compiled and of the queries it parsed, written to
 * DATADIR/CACHE_WARM_FILE; a pre-forked backend waiting for its client opens that
 * database's cache, compiles the statements and parses the queries. The hint is the
 * session's, not the cache's: it reads the connection's statement cache
 * (catalog/cache.h) and the parse cache (parser/parser.h) and keeps nothing else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "catalog/stmt_cache.h"
#include "parser/parser.h"
#include "tcop/warmup.h"
#include "utils/guc.h"
#include "utils/miscadmin.h"

/*
 * A session that compiled fewer statements than this itself (a health check's
 * SELECT 1, or a session the last one's hint had warmed up for) leaves the hint
 * as it is.
 */
#define WARM_MIN_STATEMENTS 4
/*
 * A session that compiled this many leaves its hint at the end of a transaction, if
 * the hint is for another database, without waiting for its own end: DuckDB keeps
 * its first connection open while its pool opens more, which would otherwise find
 * the spares warmed for another database.
 */
#define WARM_EARLY_STATEMENTS 16
static bool hint_left;			/* this session left its hint early */

/* CACHE_WARM_FILE's kinds of text */
#define WARM_STATEMENT	'S'			/* an SQLite statement to compile */
#define WARM_QUERY		'Q'			/* a client's query to parse */

/*
 * warm_worthy -- whether a kept statement is for the next session: one that reads
 * or changes rows (SQLite runs some pragmas as it compiles them, and DDL is not run
 * twice anyway)
 */
static bool
warm_worthy(const char *sql)
{
	static const char *const kinds[] = {"SELECT ", "INSERT ", "UPDATE ", "DELETE ", "WITH "};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strncmp(sql, kinds[i], strlen(kinds[i])) == 0)
			return true;
	return false;
}

static void
write_warm_text(const char *sql, void *arg)
{
	if (warm_worthy(sql))
		fprintf((FILE *) arg, "%c%zu\n%s\n", WARM_STATEMENT, strlen(sql), sql);
}

/* write_warm_query -- a query text the session kept the parse tree of, for the next session */
static void
write_warm_query(const char *text, void *arg)
{
	fprintf((FILE *) arg, "%c%zu\n%s\n", WARM_QUERY, strlen(text), text);
}

void
CacheRememberStatements(void)
{
	char		path[4096],
				tmp[4200];
	FILE	   *f;
	StmtCache  *statements;

	if ((statements = CacheStatements()) == NULL || CacheCompiledBySession() < WARM_MIN_STATEMENTS)
		return;
	snprintf(path, sizeof(path), "%s/%s", DataDir, CACHE_WARM_FILE);
	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int) getpid());
	if ((f = fopen(tmp, "w")) == NULL)
		return;
	fprintf(f, "%u\n", MyDatabaseId);
	stmt_cache_foreach_text(statements, write_warm_text, f);
	ParseCacheForeachText(write_warm_query, f);
	if (fclose(f) != 0 || rename(tmp, path) != 0)
		unlink(tmp);
}

/*
 * CacheLeaveHintEarly -- CacheRememberStatements once this session compiled enough, if
 * the hint is for another database (one for this database stays till the session ends)
 */
void
CacheLeaveHintEarly(void)
{
	char		path[4096];
	FILE	   *f;
	unsigned int datid = 0;

	if (hint_left || CacheCompiledBySession() < WARM_EARLY_STATEMENTS)
		return;
	hint_left = true;
	snprintf(path, sizeof(path), "%s/%s", DataDir, CACHE_WARM_FILE);
	if ((f = fopen(path, "r")) != NULL)
	{
		if (fscanf(f, "%u", &datid) != 1)
			datid = 0;
		fclose(f);
	}
	if (datid != MyDatabaseId)
		CacheRememberStatements();
}

void
CacheWarm(const char *data_directory)
{
	char		path[4096];
	FILE	   *f;
	unsigned int datid;
	size_t		len;
	char	   *sql;
	char		kind;
	static struct stat warmed_from;	/* the file as it was when last read */
	StmtCache  *statements;
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", data_directory, CACHE_WARM_FILE);
	if (stat(path, &st) != 0 || (st.st_ino == warmed_from.st_ino && st.st_mtim.tv_sec == warmed_from.st_mtim.tv_sec &&
								 st.st_mtim.tv_nsec == warmed_from.st_mtim.tv_nsec))
		return;
	warmed_from = st;
	if ((f = fopen(path, "r")) == NULL)
		return;
	if (fscanf(f, "%u\n", &datid) == 1)
	{
		catalog_cache_path(path, sizeof(path), data_directory, datid);
		if (stat(path, &st) == 0)	/* a dropped database's hint is ignored */
			CacheOpen(path);
	}
	/* each text: its kind, its length and a newline, the text, a newline */
	while (fscanf(f, "%c%zu", &kind, &len) == 2 && fgetc(f) == '\n' && len < 1024 * 1024 &&
		   (sql = malloc(len + 1)) != NULL)
	{
		bool		whole = fread(sql, 1, len, f) == len && fgetc(f) == '\n';
		sqlite3_stmt *stmt;

		sql[len] = '\0';
		if (whole && kind == WARM_STATEMENT && (statements = CacheStatements()) != NULL &&
			(stmt = stmt_cache_get(statements, sql)) != NULL)
			stmt_cache_release(statements, stmt, false);
		else if (whole && kind == WARM_QUERY)
			ParseCacheWarm(sql);
		free(sql);
		if (!whole)
			break;
	}
	fclose(f);
	CacheWarmedUp();
}

