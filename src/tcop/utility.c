/*
 * utility.c: utility statements, which the session runs itself (PostgreSQL's
 * ProcessUtility): SET, RESET, transaction control, savepoints, DISCARD,
 * DEALLOCATE, CREATE and DROP DATABASE, ALTER SYSTEM, CHECKPOINT (asked of the
 * writer: catalog/maintenance.h). They change the session, its transaction or
 * the registry of databases, never rows of the catalog, so the executor does not
 * see them; a statement over the cache (UTIL_CACHE) is the executor's.
 */
#include <string.h>

#include "catalog/maintenance.h"
#include "catalog/writer.h"
#include "nodes/parsenodes.h"
#include "tcop/aclchk.h"
#include "tcop/dbcommands.h"
#include "tcop/portal.h"
#include "tcop/role_settings.h"
#include "tcop/user.h"
#include "tcop/utility.h"
#include "tcop/xact.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/recovery.h"

static void
config_error(const char *errmsg_text, const char *sqlstate)
{
	ereport(ERROR,
			errcode(sqlstate ? sqlstate : ERRCODE_INVALID_PARAMETER_VALUE),
			errmsg("%s", errmsg_text ? errmsg_text : "invalid configuration change"));
}

/*
 * set_variable -- SET [LOCAL] name = value, SET name TO DEFAULT, RESET name
 *
 * transaction_read_only is the transaction's mode, which each transaction sets
 * afresh: any SET of it is SetTransactionReadOnly's, with its checks.
 */
static void
set_variable(const AnalyzedStmt *stmt)
{
	const char *msg = NULL,
			   *sqlstate = NULL;
	bool		ok;

	if (stmt->utility == UTIL_SET && strcmp(stmt->name, "transaction_read_only") == 0)
	{
		bool		was = XactReadOnly;

		/* the value parsed as the setting's, then applied with the transaction's checks */
		if (!set_config_option_local(stmt->name, stmt->value, &msg, &sqlstate))
			config_error(msg, sqlstate);
		ok = XactReadOnly;
		set_config_option_local(stmt->name, was ? "on" : "off", NULL, NULL);
		SetTransactionReadOnly(ok);
		return;
	}
	if (stmt->set_local)
	{
		WarnNoTransactionBlock("SET LOCAL");
		ok = set_config_option_local(stmt->name, stmt->utility == UTIL_SET ? stmt->value : NULL,
									 &msg, &sqlstate);
	}
	else if (stmt->utility == UTIL_SET)
		ok = set_config_option(stmt->name, stmt->value, PGC_S_SESSION, false, &msg, &sqlstate);
	else if (!ResetConfigOption(stmt->name))
		UnrecognizedConfigOption(stmt->name);
	else
		ok = true;
	if (!ok)
		config_error(msg, sqlstate);
}

void
CheckStatementReadOnly(const AnalyzedStmt *stmt)
{
	static const char *const dml[] = {"INSERT", "UPDATE", "DELETE", "MERGE"};
	static const char *const read_only[] = {"SELECT", "SHOW", "LOCK TABLE"};
	const char *tag = stmt->command_tag;

	if (stmt->explain)
	{
		XactQueryStarted();
		if (stmt->explain->analyze)
			CheckStatementReadOnly(stmt->explain->query);
		return;
	}
	if (stmt->kind == STMT_UTILITY && stmt->utility != UTIL_CACHE)
	{
		/* the session's own commands run in any transaction; these change shared state */
		if (stmt->utility == UTIL_CREATE_DATABASE || stmt->utility == UTIL_DROP_DATABASE ||
			stmt->utility == UTIL_ROLE || stmt->utility == UTIL_ROLE_SETTING || stmt->utility == UTIL_GRANT)
			PreventCommandIfReadOnly(tag);
		return;
	}
	if (strcmp(tag, "SHOW") != 0)
		XactQueryStarted();
	if (stmt->kind == STMT_COPY_IN)
	{
		if (stmt->target == CACHE_WRITE_MAIN)
			PreventCommandIfReadOnly("COPY FROM");
		return;
	}
	if (stmt->kind == STMT_COPY_OUT)
		return;
	for (size_t i = 0; i < sizeof(dml) / sizeof(dml[0]); i++)
		if (strcmp(tag, dml[i]) == 0)
		{
			if (stmt->target == CACHE_WRITE_MAIN)
				PreventCommandIfReadOnly(tag);
			return;
		}
	for (size_t i = 0; i < sizeof(read_only) / sizeof(read_only[0]); i++)
		if (strcmp(tag, read_only[i]) == 0)
			return;
	PreventCommandIfReadOnly(tag);	/* DDL, TRUNCATE: temporary objects too */
}

const char *
ProcessUtility(const AnalyzedStmt *stmt)
{
	const char *tag = stmt->command_tag;
	const char *msg = NULL,
			   *sqlstate = NULL;

	switch (stmt->utility)
	{
		case UTIL_SET:
		case UTIL_RESET:
			set_variable(stmt);
			break;
		case UTIL_RESET_ALL:
			ResetAllSessionOptions();
			break;
		case UTIL_SET_TRANSACTION:
			if (strcmp(stmt->name, "TRANSACTION") == 0)
			{
				WarnNoTransactionBlock("SET TRANSACTION");
				if (stmt->value)
					SetTransactionReadOnly(strcmp(stmt->value, "on") == 0);
			}
			else if (stmt->value &&
					 !set_config_option("default_transaction_read_only", stmt->value, PGC_S_SESSION, false,
										&msg, &sqlstate))
				config_error(msg, sqlstate);
			break;
		case UTIL_DISCARD_OTHER:
			break;
		case UTIL_BEGIN:
			BeginTransactionBlock();
			if (stmt->value)
				SetTransactionReadOnly(strcmp(stmt->value, "on") == 0);
			break;
		case UTIL_COMMIT:
			if (!EndTransactionBlock())
				tag = "ROLLBACK";
			break;
		case UTIL_ROLLBACK:
			UserAbortTransactionBlock();
			break;
		case UTIL_SAVEPOINT:
			DefineSavepoint(stmt->name);
			break;
		case UTIL_RELEASE:
			ReleaseSavepoint(stmt->name);
			break;
		case UTIL_ROLLBACK_TO:
			RollbackToSavepoint(stmt->name);
			break;
		case UTIL_DISCARD_ALL:
			PreventInTransactionBlock("DISCARD ALL");
			ResetConfigOption("session_authorization");	/* RESET ALL leaves it, and role */
			ResetAllSessionOptions();
			DropAllPreparedStatements();
			AtEOXact_Portals();
			break;
		case UTIL_DEALLOCATE:
			DropPreparedStatement(stmt->name, false);
			break;
		case UTIL_DEALLOCATE_ALL:
			DropAllPreparedStatements();
			break;
		case UTIL_CREATE_DATABASE:
			CreateDatabase(stmt->name, stmt->value);
			break;
		case UTIL_DROP_DATABASE:
			DropDatabase(stmt->name, stmt->missing_ok);
			break;
		case UTIL_ALTER_SYSTEM:
			PreventInTransactionBlock("ALTER SYSTEM");
			AlterSystemSetConfigFile(stmt->name, stmt->value);
			break;
		case UTIL_CHECKPOINT:
			if (!GetConfigBool("is_superuser"))
				ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						errmsg("must be superuser or have privileges of pg_checkpoint to do CHECKPOINT"));
			if (!RecoveryInProgress())	/* a standby's is a restartpoint: nothing to write */
				RequestStoreMaintenance(MAINTAIN_CHECKPOINT);
			break;
		case UTIL_LOCK:
			RequireTransactionBlock("LOCK TABLE");
			break;
		case UTIL_ROLE:
			RoleCommand(stmt->utility_node);
			break;
		case UTIL_ROLE_SETTING:
			AlterRoleSetting(stmt->utility_node, stmt->name, stmt->value);
			break;
		case UTIL_GRANT:
			ExecuteGrantOnDatabase(stmt->utility_node);
			break;
		case UTIL_SHOW:
		case UTIL_SHOW_ALL:
		case UTIL_CACHE:		/* the executor's (ExecutorStart) */
			break;
	}
	return tag;
}
