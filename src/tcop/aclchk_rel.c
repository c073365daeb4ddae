/*
 * aclchk_rel.c: relations' and schemas' privileges, checked when a statement runs
 * (tcop/aclchk.h), as PostgreSQL's ExecCheckPermissions and its object checks; the
 * privileges themselves are catalog/pg_class_acl.h's. Superusers are never checked.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/acl.h"
#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "catalog/namespace.h"
#include "catalog/pg_class_acl.h"
#include "nodes/parsenodes.h"
#include "tcop/aclchk.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

/* whether the current user has every privilege of letters on the relation or schema */
static bool
has_all(const char *table, Oid nsp, const char *letters)
{
	if (letters[0] == '\0' || strcmp(letters, ACL_PRIVILEGE_GRANT) == 0)
		return RoleHasPrivilege(MyRoleId, table, nsp, letters);
	for (const char *l = letters; *l; l++)
		if (!RoleHasPrivilege(MyRoleId, table, nsp, (char[2]) {*l, '\0'}))
			return false;
	return true;
}

/* whether the current user has any privilege on the relation or schema */
static bool
has_any(const char *table, Oid nsp)
{
	for (const char *l = table ? ACL_ALL_RIGHTS_RELATION : ACL_ALL_RIGHTS_NAMESPACE; *l; l++)
		if (RoleHasPrivilege(MyRoleId, table, nsp, (char[2]) {*l, '\0'}))
			return true;
	return false;
}

bool
ExecCheckPrivileges(const AnalyzedStmt *stmt)
{
	bool		run = true;

	if (stmt->nprivileges == 0 || GetConfigBool("is_superuser"))
		return true;
	for (int i = 0; i < stmt->nprivileges; i++)
	{
		const RequiredPrivilege *p = &stmt->privileges[i];
		const char *kind = p->table ? "table" : "schema";

		/* a relation's schema must be usable first */
		if (p->table && !has_all(NULL, p->nsp, "U"))
			ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					errmsg("permission denied for schema %s", NamespaceName(p->nsp)),
					p->position ? errposition(p->position) : 0);
		if (has_all(p->table, p->nsp, p->privileges))
			continue;
		if (p->privileges[0] == '\0')
			ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be owner of %s %s", kind, p->name));
		if (strcmp(p->privileges, ACL_PRIVILEGE_GRANT) != 0 || !has_any(p->table, p->nsp))
			ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied for %s %s", kind, p->name),
					p->position && !p->table ? errposition(p->position) : 0);
		/* privileges without the grant option, which only owners hold here */
		if (strncmp(stmt->command_tag, "GRANT", 5) == 0)
			ereport(WARNING, errcode(ERRCODE_WARNING_PRIVILEGE_NOT_GRANTED),
					errmsg("no privileges were granted for \"%s\"", p->name));
		else
			ereport(WARNING, errcode(ERRCODE_WARNING_PRIVILEGE_NOT_REVOKED),
					errmsg("no privileges could be revoked for \"%s\"", p->name));
		run = false;
	}
	return run;
}
