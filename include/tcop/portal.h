/*
 * portal.h: prepared statements and portals of the extended query protocol.
 *
 * A prepared statement (Parse) owns its parse tree and analysis in its own memory
 * context; a portal (Bind) owns the parameter values, the result formats and the
 * execution state, also in its own context, so Close frees either in one step.
 * The unnamed statement and portal are replaced by the next Parse/Bind of "";
 * named statements live until Close, DEALLOCATE or DISCARD ALL; every portal ends
 * with its transaction (except the one running the statement that ends it).
 */
#ifndef RL_PORTAL_H
#define RL_PORTAL_H

#include <stdbool.h>
#include <stdint.h>

#include "executor/executor.h"
#include "utils/mcxt.h"

typedef struct PreparedStatement
{
	char	   *name;
	char	   *query_string;
	AnalyzedStmt *stmt;			/* NULL for an empty query string */
	MemoryContext context;
	struct PreparedStatement *next;
} PreparedStatement;

typedef struct Portal
{
	char	   *name;
	PreparedStatement *source;
	bool		owns_source;	/* the statement was dropped while this portal ran it */
	AnalyzedStmt *stmt;			/* NULL for an empty query string */
	Value	   *params;
	int16_t    *formats;		/* one per result column */
	ExecState  *exec;			/* started by the first Execute */
	bool		done;
	MemoryContext context;
	struct Portal *next;
} Portal;

/* The portal an Execute is running (spared by AtEOXact_Portals). */
extern Portal *ActivePortal;

/* A new statement with a fresh context (42P05 if a named one exists). */
PreparedStatement *CreatePreparedStatement(const char *name, const char *query_string);
/* 26000 'prepared statement "x" does not exist' unless missing_ok. */
PreparedStatement *FetchPreparedStatement(const char *name, bool missing_ok);
void		DropPreparedStatement(const char *name, bool missing_ok);
void		DropAllPreparedStatements(void);

/* A new portal on stmt (the unnamed one replaces its predecessor; 42P03 for a duplicate name). */
Portal	   *CreatePortal(const char *name, PreparedStatement *source);
/* NULL if there is none. */
Portal	   *GetPortalByName(const char *name);
void		PortalDrop(Portal *portal);
void		AtEOXact_Portals(void);

#endif
