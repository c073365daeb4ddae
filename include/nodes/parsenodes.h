/*
 * parsenodes.h: an analysed statement (AnalyzedStmt): its kind, the types of its
 * parameters and result columns (known before execution, so Describe works), and a
 * plan of typed expressions or the SQLite statements to run over the catalog cache.
 * The protocol layer (simple and extended query, COPY) only sees AnalyzedStmt and
 * ExecState (executor/executor.h).
 */
#ifndef RL_PARSENODES_H
#define RL_PARSENODES_H

#include <stdbool.h>
#include <stdint.h>

#include "commands/copyfmt.h"
#include "nodes/primnodes.h"

typedef enum StatementKind
{
	STMT_ROWS,					/* returns rows: SELECT, VALUES, SHOW */
	STMT_UTILITY,				/* SET, BEGIN, DISCARD, ...: a command tag only */
	STMT_COPY_OUT,				/* COPY (query) TO STDOUT */
	STMT_COPY_IN				/* COPY table FROM STDIN */
} StatementKind;

/* What a statement writes, which decides how the cache (catalog/cache.h) runs it. */
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
	UTIL_SET_TRANSACTION,		/* SET TRANSACTION / SESSION CHARACTERISTICS AS TRANSACTION
								 * (name): its read-only mode in value, if given */
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
	UTIL_ALTER_SYSTEM,			/* name NULL: RESET ALL; value NULL: RESET */
	UTIL_CHECKPOINT,
	UTIL_LOCK,					/* LOCK TABLE: checked, nothing to do (parse_utility.c) */
	UTIL_ROLE,					/* CREATE / ALTER / DROP ROLE: utility_node */
	UTIL_ROLE_SETTING,			/* ALTER ROLE / DATABASE ... SET: utility_node, name, value */
	UTIL_GRANT,					/* GRANT / REVOKE ON DATABASE: utility_node */
	UTIL_CACHE					/* DML / DDL: the statements in sql */
} UtilityKind;

/*
 * A relation a statement over the cache reads or writes, as its SQLite text names it:
 * what EXPLAIN shows in SQLite's plan instead of the SQL's names.
 */
typedef struct PlannedRelation
{
	const char *sql_name;		/* the name the SQL gives it (its alias), in the cache's form */
	const char *relname;		/* the relation's PostgreSQL name */
	const char *alias;			/* the query's name for it: its alias, or relname */
	Oid			nsp;			/* its schema (InvalidOid: a temporary table, a WITH query) */
	bool		target;			/* what INSERT, UPDATE or DELETE writes */
	bool		catalog;		/* a system catalog: a subquery of the cache's tables */
	bool		cte;			/* a WITH query */
} PlannedRelation;

/*
 * A privilege a statement needs when it runs (tcop/aclchk.h checks them, as
 * PostgreSQL's ExecCheckPermissions): on a relation of the catalog, by its cache name
 * (its schema's USAGE with it), or on the schema nsp when table is NULL. privileges
 * are ACL letters (catalog/acl.h), every one needed; "" asks for ownership.
 */
typedef struct RequiredPrivilege
{
	const char *table;
	Oid			nsp;
	const char *name;			/* the relation's or the schema's name, as errors show it */
	const char *privileges;
	int			position;		/* where the statement names it (errposition), 0 if nowhere */
} RequiredPrivilege;

/* EXPLAIN: its options (PostgreSQL's ExplainState flags) and the statement it explains */
typedef struct ExplainOptions
{
	struct AnalyzedStmt *query;
	double		planning_ms;	/* the analysis of query, which is RockLake's planning */
	bool		analyze;
	bool		verbose;
	bool		costs;			/* accepted: SQLite's plans have no costs to show */
	bool		buffers;		/* accepted, nothing shown */
	bool		settings;		/* accepted: no setting changes a plan */
	bool		timing;
	bool		summary;
} ExplainOptions;

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
	const char *value;			/* SET value; CREATE DATABASE's OWNER; BEGIN's and SET
								 * TRANSACTION's READ ONLY ("on") or READ WRITE ("off") */
	bool		set_local;		/* SET LOCAL, RESET ... under SET LOCAL */
	struct AnalyzedStmt *copy_query;	/* STMT_COPY_OUT */
	CopyOptions copy;
	CacheTarget target;
	const char *changed_table;	/* INSERT, UPDATE, DELETE, COPY FROM of a catalog table: its
								 * cache name (pg_stat_user_tables' counters) */
	int			nsql;			/* run in order on the cache; the last yields the rows */
	SqlStatement *sql;			/* (STMT_COPY_IN: one INSERT, $n = column n) */
	bool		missing_ok;		/* DROP DATABASE IF EXISTS */
	const void *utility_node;	/* UTIL_ROLE, UTIL_GRANT: the statement's parse tree node */
	const char **notices;		/* IF [NOT] EXISTS: the NOTICE of each object skipped, in
								 * order, before the statement runs what it has left ... */
	const char **notice_codes;	/* ... their SQLSTATEs ... */
	int			nnotices;		/* ... and how many */
	const char *run_notice;		/* a NOTICE before running (DROP SCHEMA CASCADE) ... */
	const char *run_notice_detail;	/* ... and its DETAIL, if any */
	const char *alter_table;	/* ALTER TABLE of a table of the catalog: its cache name */
	const char *add_key;		/* ALTER TABLE ... ADD PRIMARY KEY: its name ... */
	const char **add_key_columns;	/* ... and columns (NULL-terminated) */
	const char *temp_table;		/* CREATE TEMP TABLE: its name ... */
	bool		on_commit_drop; /* ... and whether COMMIT drops it */
	const char **dropped;		/* DROP TABLE: the catalog tables it drops (cache names) ... */
	int			ndropped;		/* ... and how many */
	const char *scan_table;		/* SELECT: this DuckLake table (cache name) row by row (keptscan.h) ... */
	const char *scan_alias;		/* ... read under this (quoted) name in sql ... */
	const char *scan_from;		/* ... as its FROM says: main."table" AS alias ... */
	bool		scan_filtered;	/* ... with a WHERE of its columns and constants ... */
	const char *scan_where;		/* ... this one, in parentheses (its binds are sql's) */
	int			nrelations;		/* the relations sql names (EXPLAIN's names) */
	PlannedRelation *relations;
	ExplainOptions *explain;	/* EXPLAIN (STMT_ROWS, one text column) */
	int			nprivileges;	/* what it needs of relations and schemas to run */
	RequiredPrivilege *privileges;
} AnalyzedStmt;

#endif
