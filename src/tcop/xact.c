/*
 * xact.c: transaction-block states (xact.h), after PostgreSQL's xact.c.
 *
 * The state a client can see: what ReadyForQuery reports, which commands are
 * refused in a failed block, the warnings for BEGIN inside a block and COMMIT
 * outside one, savepoint names, the timestamp now() returns. The catalog's side
 * of a transaction (its snapshot and its changeset) is cache.c's: committing
 * sends the changeset to the writer, every end releases the snapshot. Ending a
 * transaction drops every portal but the one running the statement, and frees
 * TransactionContext.
 */
#include <string.h>
#include <sys/time.h>

#include "catalog/cache.h"
#include "libpq/pqformat.h"
#include "tcop/portal.h"
#include "tcop/xact.h"
#include "utils/backend_status.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"
#include "utils/recovery.h"

typedef enum TBlockState
{
	TBLOCK_DEFAULT,				/* idle, no transaction */
	TBLOCK_STARTED,				/* running a single-statement transaction */
	TBLOCK_IMPLICIT_INPROGRESS, /* inside a multi-statement Query */
	TBLOCK_INPROGRESS,			/* inside BEGIN ... COMMIT */
	TBLOCK_ABORT				/* failed block, waiting for ROLLBACK */
} TBlockState;

typedef struct Savepoint
{
	char	   *name;
	struct Savepoint *parent;
} Savepoint;

static TBlockState blockState = TBLOCK_DEFAULT;
static Savepoint *savepoints;
static bool query_started;		/* a query ran in the transaction (PostgreSQL's first snapshot) */
static bool hot_standby;		/* what in_hot_standby says */

/* end_transaction -- forget the transaction: portals, savepoints, its memory, its snapshot */
static void
end_transaction(void)
{
	CacheAbortTransaction();
	AtEOXact_GUC(false);
	blockState = TBLOCK_DEFAULT;
	savepoints = NULL;
	query_started = false;
	AtEOXact_Portals();
	MemoryContextReset(TransactionContext);
}

void
StartTransactionCommand(void)
{
	if (blockState != TBLOCK_DEFAULT)
		return;
	struct timeval tv;

	gettimeofday(&tv, NULL);
	SetCurrentTransactionStartTimestamp(((int64_t) tv.tv_sec - UNIX_EPOCH_SECS) * USECS_PER_SEC + tv.tv_usec);
	blockState = TBLOCK_STARTED;
	UpdateHotStandby();
	AtStart_GUC();
	/* transaction_read_only starts as default_transaction_read_only says; on a standby, on */
	bool		read_only = DefaultXactReadOnly || RecoveryInProgress();

	if (XactReadOnly != read_only)
		set_config_option_local("transaction_read_only", read_only ? "on" : "off", NULL, NULL);
}

/*
 * commit_transaction -- send the transaction's writes to the writer, then end it
 *
 * If the writer refuses, the ERROR finds the transaction in TBLOCK_STARTED, so
 * it ends rather than becoming a failed block, as a failed COMMIT does.
 */
static void
commit_transaction(void)
{
	blockState = TBLOCK_STARTED;
	CacheCommitTransaction();
	AtEOXact_GUC(true);
	pgstat_report_xact_end(true);
	end_transaction();
}

void
CommitTransactionCommand(void)
{
	if (blockState == TBLOCK_STARTED)
		commit_transaction();
}

void
BeginImplicitTransactionBlock(void)
{
	if (blockState == TBLOCK_STARTED)
		blockState = TBLOCK_IMPLICIT_INPROGRESS;
}

void
EndImplicitTransactionBlock(void)
{
	if (blockState == TBLOCK_IMPLICIT_INPROGRESS)
		blockState = TBLOCK_STARTED;
}

void
AbortCurrentTransaction(void)
{
	CacheAbortStatement();
	AtEOXact_GUC(false);		/* settings revert at the error, as in PostgreSQL */
	switch (blockState)
	{
		case TBLOCK_INPROGRESS:
		case TBLOCK_ABORT:
			blockState = TBLOCK_ABORT;
			break;
		default:
			if (blockState != TBLOCK_DEFAULT)
				pgstat_report_xact_end(false);
			end_transaction();
			break;
	}
}

static void
warn_no_transaction(void)
{
	ereport(WARNING,
			errcode(ERRCODE_NO_ACTIVE_SQL_TRANSACTION),
			errmsg("there is no transaction in progress"));
}

void
BeginTransactionBlock(void)
{
	if (blockState == TBLOCK_INPROGRESS)
		ereport(WARNING,
				errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				errmsg("there is already a transaction in progress"));
	else
		blockState = TBLOCK_INPROGRESS;
}

bool
EndTransactionBlock(void)
{
	bool		committed = blockState != TBLOCK_ABORT;

	if (blockState != TBLOCK_INPROGRESS && blockState != TBLOCK_ABORT)
		warn_no_transaction();
	if (committed)
		commit_transaction();
	else
	{
		pgstat_report_xact_end(false);
		end_transaction();
	}
	return committed;
}

void
UserAbortTransactionBlock(void)
{
	if (blockState != TBLOCK_INPROGRESS && blockState != TBLOCK_ABORT)
		warn_no_transaction();
	pgstat_report_xact_end(false);
	end_transaction();
}

/* require_block -- savepoint commands exist only inside BEGIN ... COMMIT */
static void
require_block(const char *stmt_name)
{
	if (blockState != TBLOCK_INPROGRESS && blockState != TBLOCK_ABORT)
		ereport(ERROR,
				errcode(ERRCODE_NO_ACTIVE_SQL_TRANSACTION),
				errmsg("%s can only be used in transaction blocks", stmt_name));
}

static Savepoint *
find_savepoint(const char *name)
{
	for (Savepoint *s = savepoints; s != NULL; s = s->parent)
		if (strcmp(s->name, name) == 0)
			return s;
	ereport(ERROR,
			errcode(ERRCODE_S_E_INVALID_SPECIFICATION),
			errmsg("savepoint \"%s\" does not exist", name));
	return NULL;
}

void
DefineSavepoint(const char *name)
{
	require_block("SAVEPOINT");
	Savepoint  *s = MemoryContextAlloc(TransactionContext, sizeof(Savepoint));

	s->name = MemoryContextAlloc(TransactionContext, strlen(name) + 1);
	strcpy(s->name, name);
	s->parent = savepoints;
	savepoints = s;
}

void
ReleaseSavepoint(const char *name)
{
	require_block("RELEASE SAVEPOINT");
	savepoints = find_savepoint(name)->parent;
}

void
RollbackToSavepoint(const char *name)
{
	require_block("ROLLBACK TO SAVEPOINT");
	savepoints = find_savepoint(name);
	blockState = TBLOCK_INPROGRESS;
}

void
PreventInTransactionBlock(const char *stmt_name)
{
	if (blockState == TBLOCK_INPROGRESS || blockState == TBLOCK_ABORT ||
		blockState == TBLOCK_IMPLICIT_INPROGRESS)
		ereport(ERROR,
				errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				errmsg("%s cannot run inside a transaction block", stmt_name));
}

/* check_transaction_block -- 25P01 at elevel unless in a block, implicit included */
static void
check_transaction_block(const char *stmt_name, int elevel)
{
	if (blockState != TBLOCK_INPROGRESS && blockState != TBLOCK_ABORT &&
		blockState != TBLOCK_IMPLICIT_INPROGRESS)
		ereport(elevel,
				errcode(ERRCODE_NO_ACTIVE_SQL_TRANSACTION),
				errmsg("%s can only be used in transaction blocks", stmt_name));
}

void
RequireTransactionBlock(const char *stmt_name)
{
	check_transaction_block(stmt_name, ERROR);
}

void
WarnNoTransactionBlock(const char *stmt_name)
{
	check_transaction_block(stmt_name, WARNING);
}

void
UpdateHotStandby(void)
{
	if (hot_standby != RecoveryInProgress())
	{
		hot_standby = !hot_standby;
		set_config_option("in_hot_standby", hot_standby ? "on" : "off", PGC_S_OVERRIDE, false, NULL, NULL);
	}
}

void
XactQueryStarted(void)
{
	query_started = true;
}

/*
 * SetTransactionReadOnly -- BEGIN READ ONLY / READ WRITE, SET TRANSACTION and SET
 * transaction_read_only: the mode lasts until the transaction ends, and a read-only
 * transaction may become read-write only before its first query and outside any
 * savepoint, with PostgreSQL's errors (check_transaction_read_only)
 */
void
SetTransactionReadOnly(bool read_only)
{
	if (!read_only && XactReadOnly && blockState != TBLOCK_DEFAULT)
	{
		if (savepoints != NULL)
			ereport(ERROR,
					errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
					errmsg("cannot set transaction read-write mode inside a read-only transaction"));
		if (query_started)
			ereport(ERROR,
					errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
					errmsg("transaction read-write mode must be set before any query"));
		if (RecoveryInProgress())
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("cannot set transaction read-write mode during recovery"));
	}
	set_config_option_local("transaction_read_only", read_only ? "on" : "off", NULL, NULL);
}

void
PreventCommandIfReadOnly(const char *cmdname)
{
	if (XactReadOnly)
		ereport(ERROR,
				errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				errmsg("cannot execute %s in a read-only transaction", cmdname));
}

bool
IsTransactionBlock(void)
{
	return blockState == TBLOCK_INPROGRESS || blockState == TBLOCK_ABORT;
}

bool
IsAbortedTransactionBlockState(void)
{
	return blockState == TBLOCK_ABORT;
}

char
TransactionBlockStatusCode(void)
{
	switch (blockState)
	{
		case TBLOCK_INPROGRESS:
			return PqTrans_InBlock;
		case TBLOCK_ABORT:
			return PqTrans_Failed;
		default:
			return PqTrans_Idle;
	}
}
