/*
 * authid.h: the roles of the server, read from their registry.
 *
 * Roles are cluster-wide, as in PostgreSQL: their registry is rl_authid in the
 * postgres database's catalog (catalog_cache.h), beside rl_database, written only by
 * commits through the writer (tcop/user.h) and so kept in the store like any
 * relation. The bootstrap superuser, OID 10 as PostgreSQL's, is the first row a new
 * store's writer commits (catalog_bootstrap_superuser). Every process reads the
 * registry on its own read-only connection to the postgres cache file, so a role
 * created or changed is seen by the next connection and the next statement.
 */
#ifndef RL_AUTHID_H
#define RL_AUTHID_H

#include <stdbool.h>
#include <stdint.h>

#include "common/rl_status.h"

/* a timestamp with time zone, microseconds since 2000-01-01 UTC; and none */
#define ROLE_NO_VALID_UNTIL INT64_MIN

/* A row of rl_authid (pg_authid's columns RockLake keeps). */
typedef struct RoleInfo
{
	uint32_t	oid;
	char		rolname[64];
	bool		rolsuper;
	bool		rolcreaterole;
	bool		rolcreatedb;
	bool		rolcanlogin;
	int32_t		rolconnlimit;
	char	   *rolpassword;	/* the verifier (palloc'd: an ERROR does not leak it), or NULL */
	int64_t		rolvaliduntil;	/* ROLE_NO_VALID_UNTIL if none */
} RoleInfo;

/*
 * A read-only connection to the registry (the postgres database's cache file), set
 * up as the cache's are; NULL with the error recorded (rl_last_error) if it cannot
 * be opened. Close it with sqlite3_close.
 */
struct sqlite3 *catalog_open_registry(const char *data_directory);

/*
 * Look a role up by name in the registry: RL_OK with *role filled (free it with
 * role_info_free), RL_NOT_FOUND if there is none.
 */
RlStatus	catalog_find_role(const char *data_directory, const char *name, RoleInfo *role);
/* The same by OID (a session's role, whatever it has been renamed to since). */
RlStatus	catalog_find_role_oid(const char *data_directory, uint32_t oid, RoleInfo *role);
void		role_info_free(RoleInfo *role);

/*
 * A database's owner and stored ACL (catalog/acl.h; malloc'd, NULL for the default)
 * from the registry: those of the bootstrap superuser for a database without them.
 */
RlStatus	catalog_database_owner(const char *data_directory, const char *datname, uint32_t *datdba,
								   char **acl);

/*
 * The name of the bootstrap superuser a new store registers: the one "rocklake
 * --init -U NAME" recorded in DATADIR/rocklake_superuser, else the operating-system
 * user running the server (initdb's default). malloc'd.
 */
char	   *catalog_bootstrap_superuser(const char *data_directory);

/* The file that records the bootstrap superuser's name (datadir.c writes it). */
#define BOOTSTRAP_SUPERUSER_FILE "rocklake_superuser"

#endif
