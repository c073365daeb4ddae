/*
 * dbcommands.h: CREATE DATABASE and DROP DATABASE, and commits to the registry.
 */
#ifndef RL_DBCOMMANDS_H
#define RL_DBCOMMANDS_H

#include <stdbool.h>

/*
 * ERROR 42P04 if it exists; 25001 inside a transaction block; 42501 without
 * CREATEDB. Owned by owner (a role's name; NULL: the session's role).
 */
void		CreateDatabase(const char *name, const char *owner);
/* ERROR 3D000 if missing (NOTICE with missing_ok), 55006 for the current database. */
void		DropDatabase(const char *name, bool missing_ok);
/*
 * Commit sql (statements on the postgres database's catalog, ?1 bound to name in
 * each that has a parameter) to the registry of databases and roles through the
 * writer: ERROR with the writer's SQLSTATE if it refuses it.
 */
void		commit_to_registry(const char *sql, const char *name);

#endif
