/*
 * portal.c: the session's prepared statements and portals (portal.h).
 *
 * Both are kept in short linked lists: a session has a handful of each (psycopg
 * and pgjdbc prepare a statement after five executions of it, asyncpg prepares
 * every query it runs, pgbench -M prepared one per script line). Each owns a
 * memory context under SessionContext; dropping one deletes its context.
 */
#include <string.h>

#include "tcop/portal.h"
#include "utils/elog.h"

static PreparedStatement *statements;
static Portal *portals;
Portal	   *ActivePortal;

PreparedStatement *
CreatePreparedStatement(const char *name, const char *query_string)
{
	if (name[0] == '\0')
		DropPreparedStatement("", true);
	else if (FetchPreparedStatement(name, true) != NULL)
		ereport(ERROR,
				errcode(ERRCODE_DUPLICATE_PREPARED_STATEMENT),
				errmsg("prepared statement \"%s\" already exists", name));
	MemoryContext context = AllocSetContextCreate(SessionContext, "PreparedStatement");
	PreparedStatement *ps = MemoryContextAllocZero(context, sizeof(PreparedStatement));

	ps->context = context;
	ps->name = MemoryContextAlloc(context, strlen(name) + 1);
	strcpy(ps->name, name);
	ps->query_string = MemoryContextAlloc(context, strlen(query_string) + 1);
	strcpy(ps->query_string, query_string);
	ps->next = statements;
	statements = ps;
	return ps;
}

PreparedStatement *
FetchPreparedStatement(const char *name, bool missing_ok)
{
	for (PreparedStatement *ps = statements; ps != NULL; ps = ps->next)
		if (strcmp(ps->name, name) == 0)
			return ps;
	if (!missing_ok)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_SQL_STATEMENT_NAME),
				errmsg("prepared statement \"%s\" does not exist", name));
	return NULL;
}

/* drop_statement -- unlink ps, end the portals still running it, free it */
static void
drop_statement(PreparedStatement *ps)
{
	for (PreparedStatement **p = &statements; *p != NULL; p = &(*p)->next)
		if (*p == ps)
		{
			*p = ps->next;
			break;
		}
	for (Portal *portal = portals, *next; portal != NULL; portal = next)
	{
		next = portal->next;
		if (portal->source == ps && portal != ActivePortal)
			PortalDrop(portal);
	}
	if (ActivePortal != NULL && ActivePortal->source == ps)
		ActivePortal->owns_source = true;	/* freed with the running portal */
	else
		MemoryContextDelete(ps->context);
}

void
DropPreparedStatement(const char *name, bool missing_ok)
{
	PreparedStatement *ps = FetchPreparedStatement(name, missing_ok);

	if (ps != NULL)
		drop_statement(ps);
}

void
DropAllPreparedStatements(void)
{
	while (statements != NULL)
		drop_statement(statements);
}

Portal *
CreatePortal(const char *name, PreparedStatement *source)
{
	Portal	   *old = GetPortalByName(name);

	if (old != NULL && name[0] != '\0')
		ereport(ERROR,
				errcode(ERRCODE_DUPLICATE_CURSOR),
				errmsg("cursor \"%s\" already exists", name));
	if (old != NULL)
		PortalDrop(old);
	MemoryContext context = AllocSetContextCreate(SessionContext, "Portal");
	Portal	   *portal = MemoryContextAllocZero(context, sizeof(Portal));

	portal->context = context;
	portal->name = MemoryContextAlloc(context, strlen(name) + 1);
	strcpy(portal->name, name);
	portal->source = source;
	portal->stmt = source->stmt;
	portal->next = portals;
	portals = portal;
	return portal;
}

Portal *
GetPortalByName(const char *name)
{
	for (Portal *portal = portals; portal != NULL; portal = portal->next)
		if (strcmp(portal->name, name) == 0)
			return portal;
	return NULL;
}

void
PortalDrop(Portal *portal)
{
	for (Portal **p = &portals; *p != NULL; p = &(*p)->next)
		if (*p == portal)
		{
			*p = portal->next;
			break;
		}
	if (ActivePortal == portal)
		ActivePortal = NULL;
	if (portal->owns_source)
		MemoryContextDelete(portal->source->context);
	MemoryContextDelete(portal->context);
}

void
AtEOXact_Portals(void)
{
	for (Portal *portal = portals, *next; portal != NULL; portal = next)
	{
		next = portal->next;
		if (portal != ActivePortal)
			PortalDrop(portal);
	}
}
