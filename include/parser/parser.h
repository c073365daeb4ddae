/*
 * parser.h: libpg_query's parse of a query string into raw statements, and the
 * parse trees the backend keeps (parser.c).
 *
 *   ParseQuery        query string -> raw statements (42601 with the cursor position)
 */
#ifndef RL_PARSER_H
#define RL_PARSER_H

#include <stdbool.h>

struct PgQuery__Node;

typedef struct RawStatement
{
	struct PgQuery__Node *node;
	int			location;		/* byte offset in the query string */
	int			length;			/* bytes; 0 means up to the end */
} RawStatement;

typedef struct ParsedQuery
{
	int			nstmts;
	RawStatement *stmts;
} ParsedQuery;

/* The parse tree is allocated in the current memory context. */
ParsedQuery *ParseQuery(const char *query_string);

/*
 * The backend keeps the trees of the last query texts it parsed (by their shape, the
 * literals aside). Foreach gives each kept text; Warm parses a text and keeps its
 * tree, quietly doing nothing if it does not parse (CACHE_WARM_FILE).
 */
void		ParseCacheForeachText(void (*fn) (const char *text, void *arg), void *arg);
void		ParseCacheWarm(const char *query_string);

/* COMMIT, ROLLBACK, ROLLBACK TO: what a failed transaction block still accepts. */
bool		IsTransactionExitStatement(const RawStatement *raw);

/*
 * Which log_statement setting logs the statement (PostgreSQL's GetCommandLogLevel):
 * ddl for definitions, mod for changes of rows as well, all for every statement.
 */
typedef enum LogStmtLevel
{
	LOGSTMT_DDL = 1,			/* log_statement's values, "none" being 0 */
	LOGSTMT_MOD,
	LOGSTMT_ALL
} LogStmtLevel;
LogStmtLevel RawStatementLogLevel(const RawStatement *raw);

#endif
