/*
 * funcs_acl.c: the builtin functions that ask about privileges: pg_has_role in its
 * six forms (a role by name or OID, the user too or the current user), with
 * PostgreSQL's privilege strings: a comma-separated list of USAGE, MEMBER and
 * either WITH ADMIN OPTION (or WITH GRANT OPTION), in any case, each true if the
 * user has it (catalog/pg_auth_members.h).
 */
#include <ctype.h>
#include <strings.h>

#include "catalog/authid.h"
#include "catalog/pg_auth_members.h"
#include "catalog/pg_authid.h"
#include "executor/funcs_internal.h"

/* what a privilege string asks */
#define ROLE_PRIV_USAGE		0x01
#define ROLE_PRIV_MEMBER	0x02
#define ROLE_PRIV_ADMIN		0x04

/* the privileges of a string of pg_has_role's; 22023 for a word it does not know */
static int
role_privileges(const Value *text)
{
	static const struct
	{
		const char *name;
		int			mask;
	}			privs[] = {
		{"USAGE", ROLE_PRIV_USAGE}, {"USAGE WITH GRANT OPTION", ROLE_PRIV_ADMIN},
		{"USAGE WITH ADMIN OPTION", ROLE_PRIV_ADMIN}, {"MEMBER", ROLE_PRIV_MEMBER},
		{"MEMBER WITH GRANT OPTION", ROLE_PRIV_ADMIN}, {"MEMBER WITH ADMIN OPTION", ROLE_PRIV_ADMIN},
	};
	char	   *s = pnstrdup(text->u.s.data, text->u.s.len);
	int			mask = 0;

	for (char *chunk = s, *next; chunk != NULL; chunk = next)
	{
		size_t		len;
		size_t		i;

		if ((next = strchr(chunk, ',')) != NULL)
			*next++ = '\0';
		while (isspace((unsigned char) *chunk))
			chunk++;
		for (len = strlen(chunk); len > 0 && isspace((unsigned char) chunk[len - 1]); len--)
			chunk[len - 1] = '\0';
		for (i = 0; i < sizeof(privs) / sizeof(privs[0]) && strcasecmp(privs[i].name, chunk) != 0; i++)
			;
		if (i == sizeof(privs) / sizeof(privs[0]))
			ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("unrecognized privilege type: \"%s\"", chunk));
		mask |= privs[i].mask;
	}
	return mask;
}

/* a role argument: an OID as it is, a name looked up (42704 if there is none, public included) */
static Oid
role_arg(const Value *v, Oid type)
{
	Oid			oid;

	if (type == OIDOID)
		return (Oid) v->u.i;
	if ((oid = RoleOidByName(v->u.s.data)) == 0)
		ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("role \"%s\" does not exist", v->u.s.data));
	return oid;
}

/* pg_role_aclcheck: whether user has any of the privileges of mask on role */
static Value
has_role(Oid user, Oid role, int mask)
{
	uint32_t	dba = 0;
	char	   *acl = NULL;

	if ((mask & ROLE_PRIV_ADMIN) && RoleIsAdminOf(user, role))
		return typio_bool(true);
	if (mask & (ROLE_PRIV_MEMBER | ROLE_PRIV_USAGE))
	{
		if (catalog_database_owner(DataDir, MyDatabaseName, &dba, &acl) != RL_OK)
			dba = 0;
		free(acl);
	}
	if ((mask & ROLE_PRIV_MEMBER) && RoleReaches(user, role, ROLERECURSE_MEMBERS, true, dba))
		return typio_bool(true);
	return typio_bool((mask & ROLE_PRIV_USAGE) && RoleReaches(user, role, ROLERECURSE_PRIVS, true, dba));
}

/* pg_has_role(user, role, privileges), each role a name or an OID */
Value
f_pg_has_role(ExecState *es, const Value *args, int nargs)
{
	Oid			user = role_arg(&args[0], args[0].type);
	Oid			role = role_arg(&args[1], args[1].type);

	return has_role(user, role, role_privileges(&args[2]));
}

/* pg_has_role(role, privileges): the current user's */
Value
f_pg_has_role_current(ExecState *es, const Value *args, int nargs)
{
	Oid			role = role_arg(&args[0], args[0].type);

	return has_role(MyRoleId, role, role_privileges(&args[1]));
}
