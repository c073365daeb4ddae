/*
 * pg_class_acl.h: relations' and schemas' owners and privileges (pg_class_acl.c).
 *
 * A relation's owner and ACL are its rl_class_acl row (catalog_cache.h), read in the
 * session's snapshot; a relation without one (made before owners were kept) is the
 * database owner's, with the default ACL (everything for the owner, nothing for
 * others), as PostgreSQL's NULL relacl. A schema's ACL is its rl_namespace_acl row,
 * else PostgreSQL's default (namespace.h): everything for its owner, and USAGE for
 * PUBLIC on public (owned by pg_database_owner, whose one member is the database's
 * owner). A role has a privilege an item of the ACL gives PUBLIC, itself, or a role
 * whose privileges it has (pg_auth_members.h); ownership is having the owner's
 * privileges, and with it every grant option. Superusers are the callers' to let
 * through.
 */
#ifndef RL_PG_CLASS_ACL_H
#define RL_PG_CLASS_ACL_H

#include <stdbool.h>

#include "utils/adt/typio.h"

/*
 * Whether role has privilege (an ACL letter) on the relation of that cache name
 * (table) or, table NULL, on schema nsp; "" (ACL_PRIVILEGE_OWNER) or
 * ACL_PRIVILEGE_GRANT ask whether it owns it.
 */
bool		RoleHasPrivilege(Oid role, const char *table, Oid nsp, const char *privilege);

#endif
