/*
 * namespace.h: schemas (namespaces) as PostgreSQL 15 has them, over the catalog
 * cache: the search path, and which schema an unqualified name means.
 *
 * public, pg_catalog and information_schema always exist; the schemas created over
 * the wire are rows of rl_namespace (catalog_cache.h), their OIDs their nspid, and
 * a table of one is the cache table "<nspid>^.<name>" (CacheTableName). search_path
 * is read as PostgreSQL reads it: a comma-separated list of names, each folded to
 * lower case unless double-quoted, "$user" the session user's name; names of
 * schemas that do not exist are skipped, and pg_catalog is searched first unless
 * the list places it. pg_temp (temporary tables) is searched before everything.
 */
#ifndef RL_NAMESPACE_H
#define RL_NAMESPACE_H

#include <stdbool.h>

#include "utils/adt/typio.h"

/* a schema's pg_namespace OID by name, or InvalidOid if there is no such schema */
Oid			NamespaceOid(const char *name);

/* the owner of schema nsp: pg_database_owner for public, the bootstrap superuser for the catalogs' */
Oid			NamespaceOwner(Oid nsp);
/*
 * a schema's stored ACL (catalog/acl.h) when it has none: the owner's, and PUBLIC's
 * USAGE of public, pg_catalog and information_schema
 */
char	   *NamespaceDefaultAcl(Oid nsp, Oid owner);
/* its stored ACL: rl_namespace_acl's, else the default (palloc'd) */
char	   *NamespaceAcl(Oid nsp);

/* the name of schema nsp (a pg_namespace OID), or NULL if there is none */
char	   *NamespaceName(Oid nsp);
/* the cache's name of the table called name in schema nsp (an OID NamespaceOid gave) */
const char *CacheTableName(Oid nsp, const char *name);

/*
 * The schemas of the search path that exist, in order, as OIDs (pg_catalog only if
 * listed); their number. The first is where CREATE TABLE puts an unqualified name.
 */
int			SearchPathNamespaces(Oid **oids);

/*
 * rl_search_rank(nspname) for pg_class: a schema's place in the search path (0 for
 * pg_catalog unless placed), or -1 if the path does not name it
 */
int			SearchPathRank(const char *schema);

/* the cache names of the tables of schema nsp (not public), oldest first; their number */
int			NamespaceTables(Oid nsp, char ***tables);

/* whether PostgreSQL's quote_identifier (without its keyword list) leaves name as it is */
bool		IdentifierIsSafe(const char *name);

/* current_schema() (NULL if no schema of the path exists) and current_schemas(implicit) */
Value		CurrentSchemaValue(void);
Value		CurrentSchemasValue(bool implicit);

#endif
