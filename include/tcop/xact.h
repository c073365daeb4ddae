/*
 * xact.h: the session's transaction state, as the protocol sees it.
 *
 * PostgreSQL's transaction-block state machine, reduced to what a client can
 * observe while the catalog is not yet transactional: idle, inside an implicit
 * transaction (one statement, a multi-statement Query, or extended-protocol
 * messages up to Sync), inside an explicit block (BEGIN ... COMMIT), or in a
 * failed block where everything but ROLLBACK / COMMIT / ROLLBACK TO gets 25P02.
 * ReadyForQuery reports it as 'I', 'T' or 'E'. Savepoints nest inside a block;
 * ROLLBACK TO a savepoint leaves the failed state. Ending a transaction drops its
 * portals and resets TransactionContext.
 */
#ifndef RL_XACT_H
#define RL_XACT_H

#include <stdbool.h>
#include <stdint.h>

/* Before and after each statement (simple query) or message (extended). */
void		StartTransactionCommand(void);
void		CommitTransactionCommand(void);
/* A multi-statement simple Query runs as one implicit block. */
void		BeginImplicitTransactionBlock(void);
void		EndImplicitTransactionBlock(void);
/* After an ERROR: a block becomes failed, an implicit transaction ends. */
void		AbortCurrentTransaction(void);

void		BeginTransactionBlock(void);
/* COMMIT / END: false when the block had failed (the command tag is then ROLLBACK). */
bool		EndTransactionBlock(void);
void		UserAbortTransactionBlock(void);
void		DefineSavepoint(const char *name);
void		ReleaseSavepoint(const char *name);
void		RollbackToSavepoint(const char *name);
/* Statements that must run outside a block (DISCARD ALL): 25001 otherwise. */
void		PreventInTransactionBlock(const char *stmt_name);
/* 25P01 unless in a transaction block, implicit (a multi-statement Query) included */
void		RequireTransactionBlock(const char *stmt_name);
/* The same as a WARNING (SET TRANSACTION outside a block). */
void		WarnNoTransactionBlock(const char *stmt_name);

/*
 * Read-only transactions (transaction_read_only, XactReadOnly in guc.h): each
 * transaction starts as default_transaction_read_only says; SetTransactionReadOnly
 * changes the mode until the transaction ends (25001 for READ WRITE after the
 * first query or inside a savepoint); XactQueryStarted marks that first query;
 * PreventCommandIfReadOnly is 25006 "cannot execute CMD in a read-only transaction".
 */
void		SetTransactionReadOnly(bool read_only);
/* in_hot_standby (reported to the client) follows the server's recovery state. */
void		UpdateHotStandby(void);
void		XactQueryStarted(void);
void		PreventCommandIfReadOnly(const char *cmdname);

bool		IsTransactionBlock(void);
bool		IsAbortedTransactionBlockState(void);
/* 'I', 'T' or 'E' for ReadyForQuery. */
char		TransactionBlockStatusCode(void);

#endif
