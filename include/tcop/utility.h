/*
 * utility.h: running a utility statement (utility.c).
 */
#ifndef RL_UTILITY_H
#define RL_UTILITY_H

#include "nodes/parsenodes.h"

/*
 * Run stmt (STMT_UTILITY, not UTIL_CACHE) and return its command tag (COMMIT of a
 * failed block: ROLLBACK).
 */
const char *ProcessUtility(const AnalyzedStmt *stmt);

#endif
