/*
 * analyze.c: from libpg_query's parse tree to an AnalyzedStmt (analyze.h): the
 * dispatch by statement; each kind's analysis is in the parser's other files
 * (analyze_internal.h).
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
#include "parser/analyze_internal.h"

/* ---------- errors ---------- */

/* char_position -- PostgreSQL's cursor positions count characters from 1 */
int
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

void
not_supported(ParseState *ps, const char *what, int location)
{
	ereport(ERROR,
			errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			errmsg("%s is not supported yet", what),
			errposition(char_position(ps, location)));
}

/* node_name -- the protobuf message name of a node ("SubLink", "CreateStmt") */
const char *
node_name(const Node *node)
{
	const ProtobufCMessage *msg = (const ProtobufCMessage *) node->select_stmt;

	return msg ? msg->descriptor->short_name : "this construct";
}

/* is_set -- protobuf-c gives absent strings as "" rather than NULL */
bool
is_set(const char *s)
{
	return s != NULL && s[0] != '\0';
}

const char *
string_value(const Node *node)
{
	return node && node->node_case == PG_QUERY__NODE__NODE_STRING ? node->string->sval : "";
}

/* statement_uses_cache -- whether analysing node reads the catalog */
static bool
statement_uses_cache(Node *node)
{
	switch (node->node_case)
	{
		case PG_QUERY__NODE__NODE_SELECT_STMT:
			return needs_cache(node->select_stmt);
		case PG_QUERY__NODE__NODE_INSERT_STMT:
		case PG_QUERY__NODE__NODE_UPDATE_STMT:
		case PG_QUERY__NODE__NODE_DELETE_STMT:
		case PG_QUERY__NODE__NODE_CREATE_STMT:
		case PG_QUERY__NODE__NODE_DROP_STMT:
		case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
		case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
		case PG_QUERY__NODE__NODE_RENAME_STMT:
		case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT:
		case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
		case PG_QUERY__NODE__NODE_LOCK_STMT:
			return true;
		case PG_QUERY__NODE__NODE_COPY_STMT:
			return node->copy_stmt->relation != NULL ||
				(node->copy_stmt->query->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
				 needs_cache(node->copy_stmt->query->select_stmt));
		default:
			return false;
	}
}

void
analyze_select(ParseState *ps, PgQuery__SelectStmt *sel, AnalyzedStmt *stmt)
{
	Plan	   *plan = palloc0(sizeof(Plan));

	if (needs_cache(sel))
	{
		analyze_select_sql(ps, sel, stmt);
		return;
	}
	if (sel->into_clause)
		not_supported(ps, "SELECT INTO", -1);
	if (sel->n_window_clause)
		not_supported(ps, "WINDOW", -1);
	if (sel->n_locking_clause)
		not_supported(ps, "FOR UPDATE/SHARE", -1);
	stmt->kind = STMT_ROWS;
	stmt->command_tag = "SELECT";
	stmt->plan = plan;
	if (sel->n_values_lists > 0)
		analyze_values(ps, sel, stmt, plan);
	else
	{
		check_column_limit(sel->n_target_list, MAX_TARGET_ENTRIES, "target lists", "entries");
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
				e = coerce_expr(ps, e, TEXTOID, -1, COERCE_IMPLICIT);
			plan->targets[i] = e;
			stmt->columns[i].name = is_set(rt->name) ? rt->name : figure_colname(rt->val);
			stmt->columns[i].type = e->type;
			stmt->columns[i].typmod = e->typmod;
		}
		if (sel->where_clause)
			plan->where = transform_clause(ps, sel->where_clause, BOOLOID, "WHERE", "WHERE");
	}
	plan->limit = transform_limit(ps, sel->limit_count, "LIMIT");
	plan->offset = transform_limit(ps, sel->limit_offset, "OFFSET");
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
		{PG_QUERY__NODE__NODE_MERGE_STMT, "MERGE"},
		{PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT, "CREATE TABLE AS"},
		{PG_QUERY__NODE__NODE_INDEX_STMT, "CREATE INDEX"},
		{PG_QUERY__NODE__NODE_VIEW_STMT, "CREATE VIEW"},
		{PG_QUERY__NODE__NODE_CREATE_SEQ_STMT, "CREATE SEQUENCE"},
		{PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT, "CREATE FUNCTION"},
		{PG_QUERY__NODE__NODE_DO_STMT, "DO"},
		{PG_QUERY__NODE__NODE_PREPARE_STMT, "PREPARE"},
		{PG_QUERY__NODE__NODE_EXECUTE_STMT, "EXECUTE"},
		{PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT, "DECLARE CURSOR"},
		{PG_QUERY__NODE__NODE_FETCH_STMT, "FETCH"},
		{PG_QUERY__NODE__NODE_CLOSE_PORTAL_STMT, "CLOSE CURSOR"},
		{PG_QUERY__NODE__NODE_LISTEN_STMT, "LISTEN"},
		{PG_QUERY__NODE__NODE_NOTIFY_STMT, "NOTIFY"},
		{PG_QUERY__NODE__NODE_UNLISTEN_STMT, "UNLISTEN"},
		{PG_QUERY__NODE__NODE_VACUUM_STMT, "VACUUM"},
		{PG_QUERY__NODE__NODE_GRANT_STMT, "GRANT"},
		{PG_QUERY__NODE__NODE_COMMENT_STMT, "COMMENT"},
		{PG_QUERY__NODE__NODE_CALL_STMT, "CALL"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].node_case == node->node_case)
			not_supported(ps, names[i].name, -1);
	/* DROP TABLE, VIEW, INDEX and SCHEMA have their analysis: this is another kind's */
	if (node->node_case == PG_QUERY__NODE__NODE_DROP_STMT)
		not_supported(ps, "DROP", -1);
	not_supported(ps, node_name(node), -1);
}

AnalyzedStmt *
AnalyzeStatement(const RawStatement *raw, const char *query_string,
				 const Oid *paramtypes, int nparams)
{
	ParseState	ps = {.query = query_string, .params_allowed = nparams >= 0,
	.binds = palloc(sizeof(Expr *)), .min_ref_level = INT_MAX};
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
	bool		uses_cache = statement_uses_cache(node);

	/* the catalog as the transaction sees it, its own writes included */
	if (uses_cache)
		CacheStatementBegin(CACHE_ANALYZE);
	switch (node->node_case)
	{
		case PG_QUERY__NODE__NODE_SELECT_STMT:
			analyze_select(&ps, node->select_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
			analyze_set(&ps, node->variable_set_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_ALTER_SYSTEM_STMT:
			analyze_alter_system(&ps, node->alter_system_stmt, stmt);
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
		case PG_QUERY__NODE__NODE_INSERT_STMT:
			analyze_insert(&ps, node->insert_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_UPDATE_STMT:
			analyze_update(&ps, node->update_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_DELETE_STMT:
			analyze_delete(&ps, node->delete_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_CREATE_STMT:
			analyze_create_table(&ps, node->create_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
			analyze_alter_table(&ps, node->alter_table_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
			analyze_create_schema(&ps, node->create_schema_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
			analyze_truncate(&ps, node->truncate_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_LOCK_STMT:
			analyze_lock(&ps, node->lock_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_DROP_STMT:
			if (node->drop_stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA)
				analyze_drop_schema(&ps, node->drop_stmt, stmt);
			else if (node->drop_stmt->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE &&
					 node->drop_stmt->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_VIEW &&
					 node->drop_stmt->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_INDEX)
				unsupported_statement(&ps, node);
			else
				analyze_drop(&ps, node->drop_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_RENAME_STMT:
			if (node->rename_stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_ROLE)
			{
				stmt->utility = UTIL_ROLE;
				stmt->command_tag = "ALTER ROLE";
				stmt->utility_node = node;
				break;
			}
			if (node->rename_stmt->rename_type != PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA)
				unsupported_statement(&ps, node);
			analyze_rename_schema(&ps, node->rename_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_GRANT_STMT:
			if ((node->grant_stmt->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE &&
				 node->grant_stmt->targtype != PG_QUERY__GRANT_TARGET_TYPE__ACL_TARGET_DEFAULTS) ||
				(node->grant_stmt->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA &&
				 node->grant_stmt->targtype == PG_QUERY__GRANT_TARGET_TYPE__ACL_TARGET_OBJECT))
			{
				analyze_grant(&ps, node->grant_stmt, stmt);
				break;
			}
			if (node->grant_stmt->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_DATABASE ||
				node->grant_stmt->targtype != PG_QUERY__GRANT_TARGET_TYPE__ACL_TARGET_OBJECT)
				unsupported_statement(&ps, node);
			stmt->utility = UTIL_GRANT;
			stmt->command_tag = node->grant_stmt->is_grant ? "GRANT" : "REVOKE";
			stmt->utility_node = node;
			break;
		case PG_QUERY__NODE__NODE_ALTER_ROLE_SET_STMT:
		case PG_QUERY__NODE__NODE_ALTER_DATABASE_SET_STMT:
			{
				/* the SET it holds, as ALTER SYSTEM's */
				PgQuery__AlterSystemStmt as = PG_QUERY__ALTER_SYSTEM_STMT__INIT;

				as.setstmt = node->node_case == PG_QUERY__NODE__NODE_ALTER_ROLE_SET_STMT
					? node->alter_role_set_stmt->setstmt : node->alter_database_set_stmt->setstmt;
				analyze_alter_system(&ps, &as, stmt);
			}
			stmt->utility = UTIL_ROLE_SETTING;
			stmt->command_tag = node->node_case == PG_QUERY__NODE__NODE_ALTER_ROLE_SET_STMT
				? "ALTER ROLE" : "ALTER DATABASE";
			stmt->utility_node = node;
			break;
		case PG_QUERY__NODE__NODE_GRANT_ROLE_STMT:
			stmt->utility = UTIL_ROLE;
			stmt->command_tag = node->grant_role_stmt->is_grant ? "GRANT ROLE" : "REVOKE ROLE";
			stmt->utility_node = node;
			break;
		case PG_QUERY__NODE__NODE_CREATE_ROLE_STMT:
		case PG_QUERY__NODE__NODE_ALTER_ROLE_STMT:
		case PG_QUERY__NODE__NODE_DROP_ROLE_STMT:
			stmt->utility = UTIL_ROLE;
			stmt->command_tag = node->node_case == PG_QUERY__NODE__NODE_CREATE_ROLE_STMT ? "CREATE ROLE"
				: node->node_case == PG_QUERY__NODE__NODE_ALTER_ROLE_STMT ? "ALTER ROLE" : "DROP ROLE";
			stmt->utility_node = node;
			break;
		case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT:
			if (node->alter_owner_stmt->object_type != PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA)
				unsupported_statement(&ps, node);
			analyze_schema_owner(&ps, node->alter_owner_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_CREATEDB_STMT:
			stmt->utility = UTIL_CREATE_DATABASE;
			stmt->command_tag = "CREATE DATABASE";
			stmt->name = node->createdb_stmt->dbname;
			for (size_t i = 0; i < node->createdb_stmt->n_options; i++)
			{
				const PgQuery__DefElem *d = node->createdb_stmt->options[i]->def_elem;

				if (strcmp(d->defname, "owner") == 0 && d->arg != NULL)
					stmt->value = string_value(d->arg);
			}
			break;
		case PG_QUERY__NODE__NODE_CHECK_POINT_STMT:
			stmt->utility = UTIL_CHECKPOINT;
			stmt->command_tag = "CHECKPOINT";
			break;
		case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
			/* the statement explained has its own analysis, parameters and cache */
			analyze_explain(&ps, node->explain_stmt, raw, stmt);
			return stmt;
		case PG_QUERY__NODE__NODE_DROPDB_STMT:
			stmt->utility = UTIL_DROP_DATABASE;
			stmt->command_tag = "DROP DATABASE";
			stmt->name = node->dropdb_stmt->dbname;
			stmt->missing_ok = node->dropdb_stmt->missing_ok;
			break;
		default:
			unsupported_statement(&ps, node);
	}
	finish_params(&ps, stmt);
	stmt->nrelations = ps.nrelations;
	stmt->relations = ps.relations;
	stmt->nprivileges = ps.nprivileges;
	stmt->privileges = ps.privileges;
	if (stmt->copy_query)
	{
		stmt->copy_query->nrelations = ps.nrelations;
		stmt->copy_query->relations = ps.relations;
	}
	if (uses_cache)
		CacheStatementEnd();
	return stmt;
}
