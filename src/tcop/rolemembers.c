/*
 * rolemembers.c: GRANT and REVOKE of roles, and the memberships CREATE ROLE and
 * ALTER GROUP make (tcop/rolemembers.h), as PostgreSQL 15's AddRoleMems and
 * DelRoleMems do them.
 *
 * Granting or revoking a membership in a role takes a superuser for a superuser
 * role, else CREATEROLE or the ADMIN OPTION on the role (is_admin_of_role); a
 * grantor other than the current user (GRANTED BY) a superuser. pg_database_owner
 * has exactly one, implicit, member and is a member of nothing. A membership that
 * would make a loop (a role a member of itself, at any depth) is refused; one that
 * exists is a NOTICE unless the grant adds the ADMIN OPTION, one that does not
 * exist a WARNING when revoked. Every check is made first; all the changes of a
 * statement are then one commit to the registry, so a statement changes all or
 * nothing (as a transaction, these commands are not: tcop/user.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pg_query/pg_query.pb-c.h>

#include "catalog/authid.h"
#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "catalog/pg_auth_members.h"
#include "catalog/pg_authid.h"
#include "tcop/dbcommands.h"
#include "tcop/rolemembers.h"
#include "tcop/xact.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

/* a role a statement names: its name and OID (0: the role CREATE ROLE makes, ?1 in SQL) */
typedef struct RoleRef
{
	const char *name;
	Oid			oid;
} RoleRef;

/* a list of RoleSpec nodes, as libpg_query gives one */
typedef struct RoleSpecList
{
	size_t		n;
	PgQuery__Node **items;
} RoleSpecList;

/* the role a RoleSpec names; 42704 if there is none */
static RoleRef
role_spec_ref(const PgQuery__RoleSpec *spec)
{
	RoleRef		ref;

	switch (spec->roletype)
	{
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING:
			ref.name = spec->rolename;
			break;
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_SESSION_USER:
			return (RoleRef) {SessionUserName, SessionUserId};
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_PUBLIC:
			ref.name = "public";
			break;
		default:
			return (RoleRef) {MyUserName, MyRoleId};
	}
	if ((ref.oid = spec->roletype == PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_PUBLIC ? 0 : RoleOidByName(ref.name)) == 0)
		ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("role \"%s\" does not exist", ref.name));
	return ref;
}

/* the roles of a list of RoleSpec nodes, in its order */
static RoleRef *
role_refs(RoleSpecList list)
{
	RoleRef    *refs = palloc0(sizeof(RoleRef) * (list.n + 1));

	for (size_t i = 0; i < list.n; i++)
		refs[i] = role_spec_ref(list.items[i]->role_spec);
	return refs;
}

/* role's attributes from the registry (all false for a predefined role or the role being made) */
static RoleInfo
role_info(Oid oid)
{
	RoleInfo	role;
	RlStatus	rc = catalog_find_role_oid(DataDir, oid, &role);

	if (rc != RL_OK && rc != RL_NOT_FOUND)
		ereport(ERROR, errcode(ERRCODE_IO_ERROR), errmsg("could not read the roles' registry: %s", rl_last_error()));
	role_info_free(&role);
	return role;
}

/* a role's OID as SQL: its number, or the new role's looked up by name (?1) */
static const char *
role_sql(RoleRef role)
{
	return role.oid ? psprintf("%u", role.oid)
		: "(SELECT oid FROM " CACHE_AUTHID_TABLE " WHERE rolname = ?1)";
}

/* the check common to granting and revoking memberships in role (by grantor on a grant) */
static void
check_role_admin(RoleRef role, Oid grantor)
{
	RoleInfo	me = role_info(MyRoleId);

	if (role.oid && role_info(role.oid).rolsuper)
	{
		if (!me.rolsuper)
			ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be superuser to alter superusers"));
	}
	else if (role.oid && !me.rolsuper && !me.rolcreaterole && !RoleIsAdminOf(grantor, role.oid))
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("must have admin option on role \"%s\"", role.name));
}

/* AddRoleMems: members made members of role by grantor, WITH ADMIN OPTION if admin */
static void
add_role_members(RlBuf *sql, RoleRef role, const RoleRef *members, size_t n, Oid grantor, bool admin)
{
	Oid			dba = CurrentDatabaseOwner();

	check_role_admin(role, grantor);
	/* PostgreSQL 15 raises these two without a SQLSTATE (XX000); 16 gives them this one */
	if (role.oid == ROLE_PG_DATABASE_OWNER)
		ereport(ERROR, errcode(ERRCODE_INVALID_GRANT_OPERATION),
				errmsg("role \"%s\" cannot have explicit members", role.name));
	if (grantor != MyRoleId && !role_info(MyRoleId).rolsuper)
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be superuser to set grantor"));
	for (size_t i = 0; i < n; i++)
	{
		bool		had_admin = false;

		if (members[i].oid == ROLE_PG_DATABASE_OWNER)
			ereport(ERROR, errcode(ERRCODE_INVALID_GRANT_OPERATION),
					errmsg("role \"%s\" cannot be a member of any role", members[i].name));
		if (role.oid && members[i].oid && RoleReaches(role.oid, members[i].oid, ROLERECURSE_MEMBERS, false, dba))
			ereport(ERROR, errcode(ERRCODE_INVALID_GRANT_OPERATION),
					errmsg("role \"%s\" is a member of role \"%s\"", role.name, members[i].name));
		if (role.oid && members[i].oid && RoleDirectMember(role.oid, members[i].oid, &had_admin) &&
			(!admin || had_admin))
		{
			ereport(NOTICE, errmsg("role \"%s\" is already a member of role \"%s\"", members[i].name, role.name));
			continue;
		}
		rlbuf_printf(sql, "INSERT INTO " CACHE_AUTH_MEMBERS_TABLE " (roleid, member, grantor, admin_option)"
					 " VALUES (%s, %s, %u, %d) ON CONFLICT (roleid, member) DO UPDATE SET grantor = excluded.grantor,"
					 " admin_option = excluded.admin_option;", role_sql(role), role_sql(members[i]), grantor, admin);
	}
}

/* DelRoleMems: members no longer members of role, or (admin) only without the ADMIN OPTION */
static void
del_role_members(RlBuf *sql, RoleRef role, const RoleRef *members, size_t n, bool admin)
{
	check_role_admin(role, MyRoleId);
	for (size_t i = 0; i < n; i++)
	{
		bool		had_admin;

		if (!RoleDirectMember(role.oid, members[i].oid, &had_admin))
		{
			ereport(WARNING, errmsg("role \"%s\" is not a member of role \"%s\"", members[i].name, role.name));
			continue;
		}
		rlbuf_printf(sql, admin ? "UPDATE " CACHE_AUTH_MEMBERS_TABLE " SET admin_option = 0"
					 " WHERE roleid = %u AND member = %u;"
					 : "DELETE FROM " CACHE_AUTH_MEMBERS_TABLE " WHERE roleid = %u AND member = %u;",
					 role.oid, members[i].oid);
	}
}

static void
commit_memberships(RlBuf *sql)
{
	if (sql->len)
		commit_to_registry(rlbuf_cstr(sql), NULL);
}

void
GrantRole(const void *node)
{
	const PgQuery__GrantRoleStmt *g = ((const PgQuery__Node *) node)->grant_role_stmt;
	Oid			grantor = g->grantor ? role_spec_ref(g->grantor).oid : MyRoleId;
	RoleRef    *grantees = role_refs((RoleSpecList) {g->n_grantee_roles, g->grantee_roles});
	RlBuf		sql;

	PreventInTransactionBlock(g->is_grant ? "GRANT" : "REVOKE");
	rlbuf_init_in(&sql, CurrentMemoryContext);
	for (size_t i = 0; i < g->n_granted_roles; i++)
	{
		const PgQuery__AccessPriv *priv = g->granted_roles[i]->access_priv;
		RoleRef		role = {priv->priv_name, 0};

		if (priv->priv_name == NULL || priv->priv_name[0] == '\0' || priv->n_cols > 0)
			ereport(ERROR, errcode(ERRCODE_INVALID_GRANT_OPERATION),
					errmsg("column names cannot be included in GRANT/REVOKE ROLE"));
		if ((role.oid = RoleOidByName(role.name)) == 0)
			ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("role \"%s\" does not exist", role.name));
		if (g->is_grant)
			add_role_members(&sql, role, grantees, g->n_grantee_roles, grantor, g->admin_opt);
		else
			del_role_members(&sql, role, grantees, g->n_grantee_roles, g->admin_opt);
	}
	commit_memberships(&sql);
}

/* a DefElem's list of RoleSpec nodes (none for NULL) */
static RoleSpecList
spec_list(const void *opt)
{
	const PgQuery__DefElem *d = opt;

	return d ? (RoleSpecList) {d->arg->list->n_items, d->arg->list->items} : (RoleSpecList) {0, NULL};
}

void
CreateRoleMembershipsSql(RlBuf *sql, const char *name, const void *addroleto, const void *rolemembers,
						 const void *adminmembers)
{
	RoleSpecList in_roles = spec_list(addroleto);
	RoleSpecList admins = spec_list(adminmembers);
	RoleSpecList members = spec_list(rolemembers);
	RoleRef		self = {name, 0};

	for (size_t i = 0; i < in_roles.n; i++)
		add_role_members(sql, role_spec_ref(in_roles.items[i]->role_spec), &self, 1, MyRoleId, false);
	add_role_members(sql, self, role_refs(admins), admins.n, MyRoleId, true);
	add_role_members(sql, self, role_refs(members), members.n, MyRoleId, false);
}

void
AlterGroupMembersSql(RlBuf *sql, const char *name, const void *members, bool add)
{
	RoleSpecList list = spec_list(members);
	RoleRef		group = {name, RoleOidByName(name)};

	if (add)
		add_role_members(sql, group, role_refs(list), list.n, MyRoleId, false);
	else
		del_role_members(sql, group, role_refs(list), list.n, false);
}
