/*
 * pg_auth_members.h: the roles' memberships (pg_auth_members.c), read from the
 * registry's rl_auth_members (catalog_cache.h) with PostgreSQL 15's built-in ones:
 * pg_monitor is a member of pg_read_all_settings, pg_read_all_stats and
 * pg_stat_scan_tables, and the owner of the current database is, implicitly, a
 * member of pg_database_owner (a member no row records, as in PostgreSQL).
 *
 * A role is a member of a role it was granted, and of every role that one is a
 * member of; it has the privileges of those it reaches through roles that inherit
 * (INHERIT, the default; a NOINHERIT role still may SET ROLE to them). A superuser
 * is a member of every role and has every role's privileges.
 */
#ifndef RL_PG_AUTH_MEMBERS_H
#define RL_PG_AUTH_MEMBERS_H

#include <stdbool.h>

#include "utils/adt/typio.h"

/* How memberships are followed, PostgreSQL's RoleRecurseType. */
typedef enum RoleRecurse
{
	ROLERECURSE_MEMBERS,		/* every membership: is_member_of_role */
	ROLERECURSE_PRIVS			/* through roles that inherit: has_privs_of_role */
} RoleRecurse;

/*
 * Whether member is role or reaches it through memberships followed as how says;
 * with superuser, a superuser member reaches every role. dba is the owner of the
 * database whose pg_database_owner counts (0: none).
 */
bool		RoleReaches(Oid member, Oid role, RoleRecurse how, bool superuser, Oid dba);
/* is_admin_of_role: member is a superuser, or reaches a membership of role WITH ADMIN OPTION */
bool		RoleIsAdminOf(Oid member, Oid role);
/* Whether member is directly a member of role (a row), and with ADMIN OPTION in *admin. */
bool		RoleDirectMember(Oid role, Oid member, bool *admin);
/*
 * Whether role has privilege (an ACL letter) by the stored acl (catalog/acl.h): an
 * item of PUBLIC's, or of a role whose privileges role has. Superusers are the
 * caller's to let through.
 */
bool		AclPermits(const char *acl, Oid role, char privilege, Oid dba);
/*
 * The owner of the session's database (pg_database_owner's member, and the owner of
 * the relations made before owners were kept), read once a session; the bootstrap
 * superuser if the registry cannot say.
 */
Oid			CurrentDatabaseOwner(void);
/* pg_auth_members' rows as a SELECT, for syscat.c */
char	   *BuildPgAuthMembersSql(void);

#endif
