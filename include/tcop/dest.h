/*
 * dest.h: the backend messages that carry results and state to the client
 * (PostgreSQL's dest.c and printtup.c): RowDescription, DataRow in text or binary
 * per column, CommandComplete, EmptyQueryResponse, ReadyForQuery,
 * ParameterStatus, ErrorResponse/NoticeResponse, and the one-byte-type replies of
 * the extended protocol. All go into the send buffer; pq_flush sends them.
 */
#ifndef RL_DEST_H
#define RL_DEST_H

#include "nodes/parsenodes.h"
#include "utils/elog.h"

/* formats: one per column, NULL for all text (Describe of a statement). */
void		SendRowDescription(const AnalyzedStmt *stmt, const int16_t *formats);
void		SendDataRow(int ncolumns, const Value *row, const int16_t *formats);
void		SendParameterDescription(int nparams, const Oid *types);
void		SendCopyResponse(char msgtype, CopyFormat format, int ncolumns);
void		EndCommand(const char *tag);
/* A message with no body: ParseComplete, BindComplete, NoData, EmptyQueryResponse, ... */
void		SendEmptyMessage(char msgtype);
void		ReadyForQuery(char status);
/* GucReportFn-compatible: one ParameterStatus. */
void		SendParameterStatus(const char *name, const char *value, void *arg);
/* The elog client sink: ErrorResponse or NoticeResponse with every field set. */
void		SendErrorToClient(const ErrorData *edata);

#endif
