/*
 * executor.h: the SQL path every statement takes: parse (libpg_query), analyse,
 * execute.
 *
 *   ParseQuery        query string -> raw statements (42601 with the cursor position)
 *   AnalyzeStatement  raw statement -> AnalyzedStmt: its kind, the types of its
 *                     parameters and result columns (known before execution, so
 *                     Describe works), and a plan of typed expressions
 *   ExecutorStart/Next/CommandTag   run it: rows of Values, then a command tag
 *
 * The protocol layer (simple and extended query, COPY) only sees AnalyzedStmt and
 * ExecState. A statement without relations is evaluated here; one that reads or
 * writes relations is translated by the analyser into SQLite SQL (SqlStatement)
 * over the catalog cache, run by cache.c inside the transaction's snapshot, its
 * writes captured as a changeset. Unsupported statements fail at analysis with
 * 0A000 naming the construct.
 */
#ifndef RL_EXECUTOR_H
#define RL_EXECUTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "copyfmt.h"
#include "rl_buffer.h"
#include "rl_status.h"
#include "typio.h"

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

typedef struct ResultColumn
{
	const char *name;
	Oid			type;
	int32_t		typmod;
} ResultColumn;

typedef enum StatementKind
{
	STMT_ROWS,					/* returns rows: SELECT, VALUES, SHOW */
	STMT_UTILITY,				/* SET, BEGIN, DISCARD, ...: a command tag only */
	STMT_COPY_OUT,				/* COPY (query) TO STDOUT */
	STMT_COPY_IN				/* COPY table FROM STDIN */
} StatementKind;

/* A typed expression tree, the analyser's output. */
typedef enum ExprKind
{
	EXPR_CONST,
	EXPR_PARAM,
	EXPR_OP,
	EXPR_FUNC,
	EXPR_CAST,
	EXPR_AND,
	EXPR_OR,
	EXPR_NOT,
	EXPR_CASE,
	EXPR_COALESCE,
	EXPR_NULLIF,
	EXPR_GREATEST,
	EXPR_LEAST,
	EXPR_IS_NULL,
	EXPR_IS_NOT_NULL,
	EXPR_BOOLTEST,
	EXPR_SRF_VALUE,				/* the current value of the statement's set-returning function */
	EXPR_VAR,					/* a column of a relation: sql is its SQLite reference */
	EXPR_AGG,					/* an aggregate: sql is SQLite's function name */
	EXPR_SUBLINK,				/* a subquery: sql is its SQLite text */
	EXPR_SUBSCRIPT,				/* args[0][args[1]]: an array's element (from 1) */
	EXPR_ARRAY,					/* ARRAY[args...] of type */
	EXPR_SCALAR_ARRAY			/* args[0] op ANY / ALL (args[1], an array) */
} ExprKind;

typedef enum SubLinkKind
{
	SUBLINK_EXISTS,
	SUBLINK_IN,					/* args[0] IN (subquery) */
	SUBLINK_EXPR,				/* (subquery) as a value */
	SUBLINK_ARRAY				/* ARRAY(subquery) */
} SubLinkKind;

typedef enum ExprOp
{
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_NEG,
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
	OP_DISTINCT, OP_NOT_DISTINCT,
	OP_CONCAT, OP_LIKE, OP_NOT_LIKE, OP_ILIKE, OP_NOT_ILIKE,
	OP_REGEX, OP_NOT_REGEX, OP_REGEX_CI, OP_NOT_REGEX_CI	/* ~ !~ ~* !~* (POSIX ERE) */
} ExprOp;

struct ExecState;
typedef Value (*BuiltinFn) (struct ExecState *es, const Value *args, int nargs);

/*
 * A builtin function. argtypes may be ANYARRAYOID (any array); rettype
 * ANYELEMENTOID is then that array's element type. A function that reads the
 * catalog has no fn: it is a lookup, in the system relation catalog, of the
 * column catalog_column of the row whose catalog_keys columns equal its first
 * arguments (the others, such as pg_get_constraintdef's "pretty", change
 * nothing), so it runs only in a query over the cache.
 */
#define FUNC_VARIADIC_ANY (-1)	/* FuncDesc.nargs: VARIADIC "any" after argtypes[0] if set */

typedef struct FuncDesc
{
	const char *name;
	int			nargs;
	Oid			argtypes[3];
	Oid			rettype;
	bool		strict;			/* NULL in any argument gives NULL */
	bool		returns_set;	/* fn returns the whole set as an array of rettype */
	BuiltinFn	fn;
	const char *catalog;
	const char *catalog_column;
	const char *catalog_keys[2];
} FuncDesc;

typedef struct Expr
{
	ExprKind	kind;
	Oid			type;
	int32_t		typmod;
	int			location;		/* byte offset in the query, -1 if none */
	Value		constval;		/* EXPR_CONST */
	int			paramno;		/* EXPR_PARAM: 0-based */
	ExprOp		op;				/* EXPR_OP (operand type: args[0]->type), EXPR_SCALAR_ARRAY */
	bool		array_all;		/* EXPR_SCALAR_ARRAY: ALL (else ANY) ... */
	Oid			element_type;	/* ... with each element read as this type */
	int			booltest;		/* EXPR_BOOLTEST: libpg_query's BoolTestType */
	const FuncDesc *func;		/* EXPR_FUNC */
	int			nargs;
	struct Expr **args;			/* CASE: WHEN/THEN pairs; COALESCE etc.: the list */
	struct Expr *defresult;		/* CASE: ELSE (NULL const if absent); EXPR_AGG: FILTER */
	const char *sql;			/* EXPR_VAR, EXPR_AGG, EXPR_SUBLINK */
	const void *range;			/* EXPR_VAR: the analyser's FROM item it reads (NULL: none) */
	int			column;			/* EXPR_VAR of a range: the column's index (-1: ctid) */
	SubLinkKind sublink;		/* EXPR_SUBLINK */
	bool		agg_star;		/* EXPR_AGG: count(*) */
	bool		agg_distinct;	/* EXPR_AGG: f(DISTINCT x) */
	bool		cast_explicit;	/* EXPR_CAST: written (CAST, ::), not an assignment's */
	const struct WindowSpec *window;	/* EXPR_AGG: its OVER (...), NULL for an aggregate */
} Expr;

/* A window function's OVER (...), deparsed as SQLite's (analyze.c, transform_window). */
typedef struct WindowSpec
{
	int			npartition;
	struct Expr **partition;
	int			norder;
	struct Expr **order;
	int		   *order_flags;	/* AGG_ORDER_DESC | AGG_ORDER_NULLS_FIRST each */
	int			frame_options;	/* PostgreSQL's FRAMEOPTION_ bits; 0: the default frame */
	struct Expr *start_offset;	/* n PRECEDING / FOLLOWING, or NULL */
	struct Expr *end_offset;
} WindowSpec;

#define AGG_ORDER_DESC 1
#define AGG_ORDER_NULLS_FIRST 2

/*
 * A statement for SQLite. Its ?1..?n are binds[0..n-1]: an EXPR_CONST or
 * EXPR_PARAM is bound by value (in the canonical SQLite form of its type), any
 * other expression by pointer, for rl_eval(?k, args...) to evaluate it with
 * PostgreSQL's semantics (cache.c).
 */
typedef struct SqlStatement
{
	const char *sql;
	int			nbinds;
	struct Expr **binds;
} SqlStatement;

/* What a statement writes, which decides how cache.c runs it. */
typedef enum CacheTarget
{
	CACHE_READ,					/* nothing: the transaction's snapshot */
	CACHE_WRITE_MAIN,			/* the catalog: captured as a changeset */
	CACHE_WRITE_TEMP,			/* the session's temporary tables only */
	CACHE_ANALYZE				/* the catalog's shape, for analysis: not yet the
								 * transaction's snapshot, which PostgreSQL takes when
								 * the statement runs (a writing one's is its capture) */
} CacheTarget;

/* The executable part of an analysed SELECT / VALUES. */
typedef struct Plan
{
	int			ntargets;
	Expr	  **targets;
	int			nvalues_rows;	/* VALUES: rows of ntargets expressions */
	Expr	 ***values_rows;
	Expr	   *srf;			/* set-returning function feeding EXPR_SRF_VALUE */
	Expr	   *where;
	Expr	   *limit;
	Expr	   *offset;
} Plan;

typedef enum UtilityKind
{
	UTIL_SET,
	UTIL_RESET,
	UTIL_RESET_ALL,
	UTIL_SET_IGNORED,			/* SET TRANSACTION ..., SET SESSION CHARACTERISTICS ... */
	UTIL_SHOW,
	UTIL_SHOW_ALL,
	UTIL_BEGIN,
	UTIL_COMMIT,
	UTIL_ROLLBACK,
	UTIL_SAVEPOINT,
	UTIL_RELEASE,
	UTIL_ROLLBACK_TO,
	UTIL_DISCARD_ALL,
	UTIL_DISCARD_OTHER,
	UTIL_DEALLOCATE,
	UTIL_DEALLOCATE_ALL,
	UTIL_CREATE_DATABASE,
	UTIL_DROP_DATABASE,
	UTIL_CACHE					/* DML / DDL: the statements in sql */
} UtilityKind;

typedef struct AnalyzedStmt
{
	StatementKind kind;
	const char *command_tag;	/* "SELECT", "SET", "BEGIN", "START TRANSACTION", ... */
	int			nparams;
	Oid		   *paramtypes;
	int			ncolumns;
	ResultColumn *columns;
	Plan	   *plan;			/* STMT_ROWS from SELECT / VALUES */
	UtilityKind utility;		/* STMT_UTILITY and SHOW */
	const char *name;			/* SET/SHOW parameter, savepoint, statement; COPY FROM's table */
	const char *value;			/* SET value */
	struct AnalyzedStmt *copy_query;	/* STMT_COPY_OUT */
	CopyOptions copy;
	CacheTarget target;
	int			nsql;			/* run in order on the cache; the last yields the rows */
	SqlStatement *sql;			/* (STMT_COPY_IN: one INSERT, $n = column n) */
	bool		missing_ok;		/* DROP DATABASE IF EXISTS */
	const char **notices;		/* IF [NOT] EXISTS: the NOTICE of each object skipped, in
								 * order, before the statement runs what it has left ... */
	const char **notice_codes;	/* ... their SQLSTATEs ... */
	int			nnotices;		/* ... and how many */
	const char *run_notice;		/* a NOTICE before running (DROP SCHEMA CASCADE) ... */
	const char *run_notice_detail;	/* ... and its DETAIL, if any */
	const char *alter_table;	/* ALTER TABLE of a table of the catalog: its cache name */
	const char *temp_table;		/* CREATE TEMP TABLE: its name ... */
	bool		on_commit_drop; /* ... and whether COMMIT drops it */
	const char **dropped;		/* DROP TABLE: the catalog tables it drops (cache names) ... */
	int			ndropped;		/* ... and how many */
	const char *scan_table;		/* SELECT: this DuckLake table (cache name) row by row (keptscan.h) ... */
	const char *scan_alias;		/* ... read under this (quoted) name in sql ... */
	const char *scan_from;		/* ... as its FROM says: main."table" AS alias ... */
	bool		scan_filtered;	/* ... with a WHERE of its columns and constants ... */
	const char *scan_where;		/* ... this one, in parentheses (its binds are sql's) */
} AnalyzedStmt;

/*
 * Analyse a raw statement of query_string. paramtypes (nparams of them, 0 =
 * unspecified) come from Parse; the result's paramtypes cover every $n the
 * statement uses, each resolved (unknown ones to text). nparams -1: a simple
 * Query, where any $n is 42P02.
 */
AnalyzedStmt *AnalyzeStatement(const RawStatement *raw, const char *query_string,
							   const Oid *paramtypes, int nparams);

typedef struct ExecState ExecState;

/*
 * Start running stmt with params (one Value per parameter, already typed);
 * to_completion: the caller reads every row before anything else runs (a read
 * over the cache then streams instead of collecting its rows first).
 */
ExecState  *ExecutorStart(AnalyzedStmt *stmt, const Value *params, bool to_completion);
/*
 * COPY FROM: insert the rows (stmt->ncolumns Values each); returns how many. *at is
 * the row being inserted meanwhile (for an error's context), -1 once done.
 */
int64_t		ExecutorInsertRows(AnalyzedStmt *stmt, const Value *rows, int64_t nrows, int64_t *at);
/* The next row (ncolumns Values valid until the next call), or false at the end. */
bool		ExecutorNext(ExecState *es, Value **row);
/* The CommandComplete tag once done; nrows is what this run returned. */
char	   *ExecutorCommandTag(ExecState *es, uint64_t nrows);

/* The builtin functions (name lookup ignores a pg_catalog qualification). */
const FuncDesc *LookupBuiltinFunction(const char *name, int nargs, const Oid *argtypes);
/* Whether a function of that name runs only in a query over the cache (reads the catalog or returns a set SQLite iterates). */
bool		FunctionNeedsCache(const char *name);
/* Evaluate an analysed expression (used by the executor and by functions). */
Value		ExecEvalExpr(ExecState *es, const Expr *expr);
/* Cast a value to another type as CAST(... AS type) does. */
/* explicit: a cast the query wrote, which cuts a too long varchar(n) rather than fail */
Value		ExecCastValue(const Value *v, Oid target, int32_t typmod, bool explicit);

/* ---------- the catalog cache (cache.c) ---------- */

/* A relation as the analyser sees it: its columns without the hidden row id. */
typedef struct CacheRelation
{
	const char *name;
	const char *table;			/* a user table: its name in the cache (namespace.h) */
	bool		temp;
	int			ncolumns;
	ResultColumn *columns;
	const char *sql;			/* a system catalog: the SQLite query computing it */
	int			npkey;			/* its primary key's columns (indexes into columns) */
	int		   *pkey;
} CacheRelation;

/* Fixed OIDs of pg_catalog (PostgreSQL's) that syscat.c and the functions share. */
#define PG_CATALOG_NAMESPACE	11
#define PG_PUBLIC_NAMESPACE		2200
#define INFORMATION_SCHEMA_NAMESPACE 13183
#define BOOTSTRAP_SUPERUSERID	10	/* pg_roles: the session's user */
#define ROLE_PG_DATABASE_OWNER	6171	/* owns public, as in PostgreSQL 15 */
#define PG_UTF8_ENCODING		6
#define FirstNormalObjectId		16384

/*
 * Open DATADIR's cache for this backend (at session start); kept if it is the one
 * CacheWarm opened.
 */
void		CacheOpen(const char *path);

/*
 * A session's statements outlive it as a hint: at its end the texts of the
 * SQLite statements it kept and of the client's queries it kept parse trees of go
 * to DATADIR/CACHE_WARM_FILE (the last session to end wins), and a pre-forked
 * backend, while it waits for a client, opens that database's cache, compiles the
 * statements and parses the queries (CacheWarm). A client of DuckDB opens a
 * session per pooled connection and per retried commit, and compiling DuckLake's
 * statements, its pg_catalog batch first, took 7 ms of each session's first
 * queries; parsing the batch, 2 ms more. Nothing but compiled statements and parse
 * trees carries over.
 */
#define CACHE_WARM_FILE "rl_warm_statements"
void		CacheRememberStatements(void);
void		CacheWarm(const char *data_directory);
/*
 * the cache's form of a PostgreSQL name (catalog_cache.h, "Names"): name itself when
 * it has nothing to escape, as nearly every name
 */
const char *CacheSqliteName(const char *name);
/* a constant written into the SQL as SQLite reads it back; false where it cannot be */
bool		CacheSqlLiteral(RlBuf *out, const Value *v);
/* NULL if there is none; schema NULL searches pg_temp, pg_catalog, then search_path (namespace.h). */
CacheRelation *CacheLookupRelation(const char *schema, const char *name);
/* the relation of that name in schema nsp (a pg_namespace OID), or NULL */
CacheRelation *CacheLookupRelationIn(Oid nsp, const char *name);
/* A pg_catalog relation (syscat.c); NULL if there is none of that name. */
CacheRelation *SystemRelationLookup(const char *name);
/* The relation a function that reads the catalog looks in (FuncDesc.catalog; syscat.c). */
CacheRelation *CatalogFunctionRelation(const char *name);
/* An information_schema relation (schemata, tables, columns; syscat.c), or NULL. */
CacheRelation *InformationSchemaLookup(const char *name);
/*
 * A builtin function as pg_proc lists it (pg_proc.c): PostgreSQL 15's OID, texts and
 * properties of the function of that signature.
 */
typedef struct BuiltinProc
{
	Oid			oid;
	const char *name;
	const char *regproc;		/* its regproc text: qualified if PostgreSQL has more of the name */
	const char *regprocedure;	/* its regprocedure text: name(type,type) */
	const char *arguments;		/* pg_get_function_arguments */
	const char *result;			/* pg_get_function_result */
	Oid			rettype;
	const char *argtypes;		/* proargtypes' text: "23 23" */
	bool		retset;
	char		volatility;		/* provolatile: i, s, v */
	char		parallel;		/* proparallel: s, r, u */
	bool		strict;
	Oid			lang;			/* 12 internal, 14 sql */
	const char *src;			/* prosrc */
	const char *description;	/* "" if none */
	const char *functiondef;	/* pg_get_functiondef */
} BuiltinProc;
int			BuiltinProcCount(void);
const BuiltinProc *BuiltinProcAt(int i);
const BuiltinProc *BuiltinProcByOid(Oid oid);
/* pg_proc as a SQLite query; and the functions' descriptions alone (oid, description) */
char	   *BuiltinProcSql(void);
char	   *BuiltinProcDescriptionSql(void);
/* A system catalog's OID, as PostgreSQL gives it (its rows' tableoid), or InvalidOid. */
Oid			SystemCatalogOid(const char *name);
/* The reg* types' text forms: typio_reg_hooks (syscat.c). */
char	   *SystemRegOutput(Oid type, Oid value);
Oid			SystemRegInput(Oid type, const char *name);
/* SystemRegInput's lookup without the error: InvalidOid when there is no such object */
Oid			SystemRegLookup(Oid type, const char *name);
/* The first column of the first row of a query with one parameter ?1 as text, or NULL. */
char	   *CacheLookupText(const char *sql, const Value *param);
/* Whether a temporary table of that name exists. */
bool		CacheTempRelationExists(const char *name);
/* The running statement is about to drop catalog table table (its cache name; cache_capture_dropping). */
void		CacheTableDropping(const char *table);

/*
 * A kept copy of a plain scan of a catalog table (keptscan.c) can serve the
 * statement about to run: the transaction wrote nothing, so its snapshot is a
 * commit's.
 */
bool		CacheScanUsable(void);

/*
 * For a kept copy of a plain scan of table made at snapshot kept_seq (0: none),
 * holding its rows up to row id kept_rowid: the row id above which the copy lacks
 * rows at the transaction's snapshot, which this takes (kept_rowid while the table
 * changed only by rows appended since, CACHE_SCAN_BASE_TABLE; INT64_MIN when the
 * copy must be read again whole). *seq and *rowid get the snapshot and the table's
 * largest row id at it.
 */
int64_t		CacheScanSince(const char *table, uint64_t kept_seq, int64_t kept_rowid,
						   uint64_t *seq, int64_t *rowid);

/* The cache's identity (CACHE_ID_NAME): what copies published from it are named by. */
int64_t		CacheIdentity(void);

/*
 * Around each statement (analysis and execution): Begin sets the cache up as
 * the transaction sees it (40001 if its snapshot is gone), End finishes a
 * statement on temporary tables; an ERROR in between is cleaned up by
 * CacheAbortStatement. The statements of one message that write the catalog
 * share one capture of their changes (a commit batch of DuckLake is one Query
 * of many statements), which CacheMessageEnd closes, keeping what they wrote:
 * the backend's message loop calls it before it waits for the client again,
 * after the reply (replied: the client has heard the message's outcome, so a
 * failure to take the changes then ends the session, its transaction uncommitted).
 */
void		CacheStatementBegin(CacheTarget target);
void		CacheStatementEnd(void);
void		CacheMessageEnd(bool replied);

/*
 * Around ALTER TABLE of a catalog table: Begin sets the cache up as the transaction
 * sees it without capturing (the statement's SQLite ALTERs are not rows); End
 * records the table's new CREATE statement in rl_relation, which is what carries the
 * change, and adds that to the transaction's changeset. A later capture rebuilds the
 * table from it before it re-applies the transaction's rows.
 */
void		CacheAlterTableBegin(void);
void		CacheAlterTableEnd(const char *table);
/* Whether the transaction has changed rows of table so far. */
bool		CacheTransactionChanged(const char *table);
void		CacheAbortStatement(void);
/* End the transaction: Commit sends its changeset to the writer (may ERROR). */
void		CacheCommitTransaction(void);
/* The ERROR for a commit the writer did not answer (rc: writer_commit's status). */
void		CacheCommitOutcomeUnknown(RlStatus rc) __attribute__((noreturn));
void		CacheAbortTransaction(void);
/* A temporary table created by this transaction (dropped by ROLLBACK, or COMMIT too). */
void		CacheRememberTempTable(const char *name, bool on_commit_drop);

/*
 * Run one statement; rows (ncolumns typed as columns) are collected in the
 * current memory context. Returns the number of rows it changed.
 */
int64_t		CacheExecute(const SqlStatement *stmt, const Value *params, int ncolumns,
						 const ResultColumn *columns, Value **rows, int64_t *nrows);

/*
 * A read run row by row instead, so that a large result (DuckDB's scan of a
 * table's data files) never sits in the backend's memory whole: Open returns NULL
 * when it cannot (inside a capture of the message's writes, whose end would cut
 * it short: collect with CacheExecute then); Next fills row in the current memory
 * context and returns false at the end, when the cursor is gone. Its strings
 * point into the cursor's row, so a row is good until the next call. A cursor must
 * be read to its end within the statement; an ERROR in between closes it.
 */
typedef struct CacheCursor CacheCursor;
CacheCursor *CacheCursorOpen(const SqlStatement *stmt, const Value *params);
bool		CacheCursorNext(CacheCursor *cursor, int ncolumns, const ResultColumn *columns, Value *row);

#endif
