/*
 * utility.c: utility statements, which the session runs itself (PostgreSQL's
 * ProcessUtility): SET, RESET, transaction control, savepoints, DISCARD,
 * DEALLOCATE, CREATE and DROP DATABASE, ALTER SYSTEM, CHECKPOINT (asked of the
 * writer: catalog/maintenance.h). They change the session, its transaction or
 * the registry of databases, never rows of the catalog, so the executor does not
 * see them; a statement over the cache (UTIL_CACHE) is the executor's.
 */
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

static void
config_error(const char *errmsg_text, const char *sqlstate)
{
	ereport(ERROR,
			errcode(sqlstate ? sqlstate : ERRCODE_INVALID_PARAMETER_VALUE),
			errmsg("%s", errmsg_text ? errmsg_text : "invalid configuration change"));
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
			if (!set_config_option(stmt->name, stmt->value, PGC_S_SESSION, false, &msg, &sqlstate))
				config_error(msg, sqlstate);
			break;
		case UTIL_SET_LOCAL:
			if (!IsTransactionBlock())
				ereport(WARNING, errcode(ERRCODE_NO_ACTIVE_SQL_TRANSACTION),
						errmsg("SET LOCAL can only be used in transaction blocks"));
			if (!set_config_option_local(stmt->name, stmt->value, &msg, &sqlstate))
				config_error(msg, sqlstate);
			break;
		case UTIL_RESET:
			if (!ResetConfigOption(stmt->name))
				UnrecognizedConfigOption(stmt->name);
			break;
		case UTIL_RESET_ALL:
			ResetAllSessionOptions();
			break;
		case UTIL_SET_IGNORED:
		case UTIL_DISCARD_OTHER:
			break;
		case UTIL_BEGIN:
			BeginTransactionBlock();
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
