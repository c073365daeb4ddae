/*
 * keptscan.h: a backend's copies of DuckLake's table scans, brought up to date by
 * reading only the rows added since.
 *
 * DuckLake reads its catalog by DuckDB's postgres scanner, which fetches tables with
 * COPY (SELECT columns FROM table [WHERE filter]) TO STDOUT (FORMAT binary), and does so
 * again at every new snapshot: before each CREATE TABLE, all of ducklake_column (40 rows
 * more each time); for every query on a table, its file list. A backend keeps the
 * CopyData messages of such a scan (one that reads the table row by row:
 * AnalyzedStmt.scan_table), named by its SQLite text and constants, with the snapshot
 * and the largest row id they reflect; the writer notes, per table, the first commit
 * that changed it other than by appending rows with larger row ids
 * (CACHE_SCAN_BASE_TABLE); while there is none since the copy, the rows above its row
 * id that pass the filter are all it lacks (the scans have no order of their own:
 * they come after the copy's). Only transactions that wrote nothing use or update copies; a copy
 * larger than KEPT_SCAN_MAX_BYTES is not kept, and what the copies of a backend hold in
 * memory stays within KEPT_SCANS_MAX_BYTES (the least recently used go first), so that a
 * backend stays small whatever the catalog's size. Copies are published to the data
 * directory for the backends of later sessions, which check them the same way; a
 * published copy is sent from its file (keptscan.c).
 */
#ifndef RL_KEPTSCAN_H
#define RL_KEPTSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "commands/copyfmt.h"
#include "nodes/parsenodes.h"

#define KEPT_SCAN_MAX_BYTES		(16 * 1024 * 1024)
#define KEPT_SCANS_MAX_BYTES	(16 * 1024 * 1024)
#define KEPT_SCANS				32

typedef struct KeptScanRun KeptScanRun;

/*
 * COPY (query) TO STDOUT with options from a kept copy, when query is a plain scan of
 * a DuckLake table (AnalyzedStmt.scan_table) and the transaction can use one: the
 * query for the rows the copy lacks is started. NULL: run the query instead.
 */
KeptScanRun *KeptScanStart(const AnalyzedStmt *query, const Value *params, const CopyOptions *options);

/*
 * The copy, brought up to date, to the client as CopyData messages (the first one
 * beginning with the binary header); returns the number of rows.
 */
uint64_t	KeptScanSend(KeptScanRun *run);

/*
 * Publish the copies KeptScanSend found worth publishing (for other backends, see
 * keptscan.c): called once the client has its answer, whose wait writing a copy of
 * megabytes was part of.
 */
void		KeptScanPublishDue(void);

/* Forget every copy: the cache they came from is no longer this backend's. */
void		KeptScanForgetAll(void);

#endif
