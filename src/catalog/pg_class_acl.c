/*
 * pg_class_acl.c: relations' and schemas' owners and privileges
 * (catalog/pg_class_acl.h).
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/acl.h"
#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "catalog/namespace.h"
#include "catalog/pg_auth_members.h"
#include "catalog/pg_class_acl.h"
#include "utils/mcxt.h"

/* a relation's owner, and its stored ACL (the default if it has none) */
static Oid
relation_acl(const char *table, char **acl)
{
	Value		key = typio_string(TEXTOID, table, strlen(table));
	char	   *owner = CacheLookupText("SELECT relowner FROM main." CACHE_CLASS_ACL_TABLE " WHERE relname = ?1", &key);
	Oid			oid = owner ? (Oid) strtoul(owner, NULL, 10) : CurrentDatabaseOwner();

	*acl = CacheLookupText("SELECT relacl FROM main." CACHE_CLASS_ACL_TABLE " WHERE relname = ?1", &key);
	if (*acl == NULL)
		*acl = acl_default(ACL_ALL_RIGHTS_RELATION, oid);
	return oid;
}

bool
RoleHasPrivilege(Oid role, const char *table, Oid nsp, const char *privilege)
{
	char	   *acl;
	Oid			owner = table ? relation_acl(table, &acl) : NamespaceOwner(nsp);
	Oid			dba = CurrentDatabaseOwner();

	if (privilege[0] == '\0' || strcmp(privilege, ACL_PRIVILEGE_GRANT) == 0)
		return owner == role || RoleReaches(role, owner, ROLERECURSE_PRIVS, false, dba);
	if (table == NULL)
		acl = NamespaceAcl(nsp);
	return AclPermits(acl, role, privilege[0], dba);
}

