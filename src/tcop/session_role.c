/*
 * session_role.c: the session user and the current user (tcop/session_role.h),
 * after PostgreSQL's miscinit.c and the role settings' hooks of its variable.c.
 *
 * The settings hold names; the hooks resolve them to roles when they change, so a
 * role renamed later keeps being the session's (a role dropped since, met only
 * when a rollback brings its name back, leaves the session user current).
 */
#include <stdio.h>
#include <string.h>

#include "catalog/authid.h"
#include "catalog/cache.h"
#include "catalog/pg_auth_members.h"
#include "catalog/pg_authid.h"
#include "tcop/session_role.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

static char authenticated_name[64];
static bool authenticated_superuser;
static char session_name[64];
static char current_name[64];

/* a role by name (a predefined one has no attributes); false if there is none */
static bool
lookup_role(const char *name, uint32_t *oid, bool *superuser)
{
	RoleInfo	role;
	RlStatus	rc = catalog_find_role(DataDir, name, &role);

	if (rc != RL_OK && rc != RL_NOT_FOUND)
		ereport(ERROR, errcode(ERRCODE_IO_ERROR), errmsg("could not read the roles' registry: %s", rl_last_error()));
	*superuser = rc == RL_OK && role.rolsuper;
	*oid = rc == RL_OK ? role.oid : RoleOidByName(name);
	role_info_free(&role);
	return *oid != 0;
}

/*
 * make the settings' names current: the session user from session_authorization,
 * the current user from role ("none": the session user), is_superuser from it
 */
static void
apply_identity(void)
{
	const char *session = GetConfigOption("session_authorization");
	const char *role = GetConfigOption("role");
	uint32_t	oid = AuthenticatedUserId;
	bool		superuser = authenticated_superuser;

	if (strcmp(session, authenticated_name) != 0 && !lookup_role(session, &oid, &superuser))
	{
		oid = AuthenticatedUserId;
		superuser = authenticated_superuser;
		session = authenticated_name;
	}
	SessionUserId = oid;
	snprintf(session_name, sizeof(session_name), "%s", session);
	if (strcmp(role, "none") == 0 || !lookup_role(role, &oid, &superuser))
		role = session_name;
	MyRoleId = oid;
	snprintf(current_name, sizeof(current_name), "%s", role);
	set_config_option("is_superuser", superuser ? "on" : "off", PGC_S_OVERRIDE, false, NULL, NULL);
}

static void
assign_identity(const char *newval)
{
	(void) newval;
	if (AuthenticatedUserId != 0)
		apply_identity();
}

/* SET ROLE: a role the session user is a member of (any, for a superuser), or none */
static void
check_role(const char *newval)
{
	uint32_t	oid;
	bool		superuser;

	if (strcmp(newval, "none") == 0)
		return;
	if (!lookup_role(newval, &oid, &superuser))
		ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("role \"%s\" does not exist", newval));
	if (!RoleReaches(SessionUserId, oid, ROLERECURSE_MEMBERS, true, 0))
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied to set role \"%s\"", newval));
}

/* SET SESSION AUTHORIZATION: any role for a superuser who logged in, else only that role; ends SET ROLE */
static void
check_session_authorization(const char *newval)
{
	uint32_t	oid;
	bool		superuser;

	if (!lookup_role(newval, &oid, &superuser))
		ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("role \"%s\" does not exist", newval));
	if (oid != AuthenticatedUserId && !authenticated_superuser)
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("permission denied to set session authorization \"%s\"", newval));
	if (strcmp(GetConfigOption("role"), "none") != 0)
		set_config_option("role", "none", PGC_S_SESSION, false, NULL, NULL);
}

void
InitSessionUser(uint32_t role, const char *name, bool superuser)
{
	snprintf(authenticated_name, sizeof(authenticated_name), "%s", name);
	authenticated_superuser = superuser;
	AuthenticatedUserId = SessionUserId = MyRoleId = role;
	snprintf(session_name, sizeof(session_name), "%s", name);
	snprintf(current_name, sizeof(current_name), "%s", name);
	SessionUserName = session_name;
	MyUserName = current_name;
	SetConfigHooks("role", check_role, assign_identity);
	SetConfigHooks("session_authorization", check_session_authorization, assign_identity);
}
