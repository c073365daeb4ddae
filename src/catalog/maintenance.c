/*
 * maintenance.c: the session's requests for maintenance of its store.
 *
 * CHECKPOINT and the functions rocklake_compact() and rocklake_gc() are how a live
 * store is maintained: rocklake-admin refuses to take over a store a running
 * server writes (storage/lease.h), so the work is asked of that server's writer,
 * on a connection of its own attached to the session's database. PostgreSQL
 * allows CHECKPOINT to superusers and pg_checkpoint members only; RockLake has no
 * roles yet, so every session may ask (doc/design.md, section 4).
 */
#include "catalog/maintenance.h"
#include "catalog/writer.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

char *
RequestStoreMaintenance(char task)
{
	WriterConn *conn = writer_connect(psprintf("%s/%s", DataDir, WRITER_SOCKET_NAME));
	WriterMaintainResult result;
	RlStatus	rc = conn ? writer_attach(conn, MyDatabaseId) : RL_IO_ERROR;

	if (rc == RL_OK)
		rc = writer_maintain(conn, task, &result);
	if (conn)
		writer_disconnect(conn);
	if (rc == RL_INTERRUPTED)
		ProcessInterrupts();
	if (rc != RL_OK)
		ereport(ERROR, errcode(ERRCODE_CONNECTION_FAILURE),
				errmsg("could not reach the writer process: %s", rl_last_error()));
	if (!result.done)
		ereport(ERROR, errcode(result.sqlstate), errmsg("%s", result.message));
	return pstrdup(result.message);
}
