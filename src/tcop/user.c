/*
 * user.c: CREATE ROLE / USER, ALTER ROLE / USER, ALTER ROLE ... RENAME TO and DROP
 * ROLE (tcop/user.h), with PostgreSQL 15's rules, SQLSTATEs and wording.
 *
 * Roles are rows of the registry rl_authid in the postgres database's catalog
 * (catalog/authid.h); each command is a commit to it through the writer, as CREATE
 * DATABASE is (tcop/dbcommands.h), whatever database the session is connected to.
 * The registry is not transactional with the session's catalog, so, as CREATE
 * DATABASE, these commands refuse to run inside a transaction block (25001) where
 * PostgreSQL would let a ROLLBACK take them back.
 *
 * Privileges are PostgreSQL's: a superuser may do anything; a role with CREATEROLE
 * may create, alter and drop roles that are not superusers; any role may change its
 * own password. A password is kept as a verifier: one given already as an md5 or
 * SCRAM-SHA-256 verifier (psql's \password sends one) is stored as it is, any other
 * is hashed as password_encryption says. The checks read the session user's row
 * afresh, so an ALTER ROLE by another session applies to the next command.
 */
#include <stdio.h>
#include <string.h>

#include <pg_query/pg_query.pb-c.h>

#include "catalog/authid.h"
#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "common/rl_buffer.h"
#include "libpq/auth.h"
#include "tcop/aclchk.h"
#include "tcop/dbcommands.h"
#include "tcop/rolemembers.h"
#include "tcop/user.h"
#include "tcop/xact.h"
#include "utils/adt/typio.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

/* The options of CREATE / ALTER ROLE, each with whether it was given. */
typedef struct RoleOptions
{
	const PgQuery__DefElem *password;	/* arg NULL: PASSWORD NULL */
	const PgQuery__DefElem *superuser;
	const PgQuery__DefElem *createrole;
	const PgQuery__DefElem *createdb;
	const PgQuery__DefElem *canlogin;
	const PgQuery__DefElem *connlimit;
	const PgQuery__DefElem *validuntil;
	const PgQuery__DefElem *inherit;
	const PgQuery__DefElem *addroleto;	/* IN ROLE */
	const PgQuery__DefElem *rolemembers;	/* ROLE; ALTER GROUP's USER */
	const PgQuery__DefElem *adminmembers;	/* ADMIN */
} RoleOptions;

/* whether a lookup found its role: false if there is none; ERROR if the registry cannot be read */
static bool
role_found(RlStatus rc)
{
	if (rc != RL_OK && rc != RL_NOT_FOUND)
		ereport(ERROR, errcode(ERRCODE_IO_ERROR),
				errmsg("could not read the roles' registry: %s", rl_last_error()));
	return rc == RL_OK;
}

static bool
find_role(const char *name, RoleInfo *role)
{
	return role_found(catalog_find_role(DataDir, name, role));
}

/* the current user's role, as the registry has it now (all false if it was dropped) */
static RoleInfo
session_role(void)
{
	RoleInfo	role;

	role_found(catalog_find_role_oid(DataDir, MyRoleId, &role));
	return role;
}

/* the name a RoleSpec names (CURRENT_USER and the like: the session's user) */
static const char *
role_spec_name(const PgQuery__RoleSpec *spec)
{
	switch (spec->roletype)
	{
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING:
			return spec->rolename;
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_PUBLIC:
			ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("role \"public\" does not exist"));
		default:
			return MyUserName;
	}
}

/* PostgreSQL's check of a new role's name (CREATE and RENAME) */
static void
check_role_name(const char *name)
{
	if (strncmp(name, "pg_", 3) == 0)
		ereport(ERROR, errcode(ERRCODE_RESERVED_NAME),
				errmsg("role name \"%s\" is reserved", name),
				errdetail("Role names starting with \"pg_\" are reserved."));
}

static bool
option_bool(const PgQuery__DefElem *opt)
{
	return opt->arg && opt->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN && opt->arg->boolean->boolval;
}

/* how the statement spells an option RockLake does not keep */
static const char *
role_option_sql(const char *defname)
{
	static const char *const names[][2] = {
		{"isreplication", "REPLICATION"}, {"bypassrls", "BYPASSRLS"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(defname, names[i][0]) == 0)
			return names[i][1];
	return defname;
}

/* sort a statement's options out; a repeated one is 42601 as in PostgreSQL */
static RoleOptions
role_options(PgQuery__Node **options, size_t n)
{
	RoleOptions o = {0};

	for (size_t i = 0; i < n; i++)
	{
		const PgQuery__DefElem *d = options[i]->def_elem;
		const PgQuery__DefElem **slot = NULL;

		if (strcmp(d->defname, "password") == 0)
			slot = &o.password;
		else if (strcmp(d->defname, "superuser") == 0)
			slot = &o.superuser;
		else if (strcmp(d->defname, "createrole") == 0)
			slot = &o.createrole;
		else if (strcmp(d->defname, "createdb") == 0)
			slot = &o.createdb;
		else if (strcmp(d->defname, "canlogin") == 0)
			slot = &o.canlogin;
		else if (strcmp(d->defname, "connectionlimit") == 0)
			slot = &o.connlimit;
		else if (strcmp(d->defname, "validUntil") == 0)
			slot = &o.validuntil;
		else if (strcmp(d->defname, "inherit") == 0)
			slot = &o.inherit;
		else if (strcmp(d->defname, "addroleto") == 0)
			slot = &o.addroleto;
		else if (strcmp(d->defname, "rolemembers") == 0)
			slot = &o.rolemembers;
		else if (strcmp(d->defname, "adminmembers") == 0)
			slot = &o.adminmembers;
		else if ((strcmp(d->defname, "isreplication") == 0 || strcmp(d->defname, "bypassrls") == 0) &&
				 !option_bool(d))
			continue;			/* the defaults */
		else if (strcmp(d->defname, "sysid") == 0)
		{
			ereport(NOTICE, errmsg("SYSID can no longer be specified"));
			continue;
		}
		else
			ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("%s is not supported", role_option_sql(d->defname)),
					errposition(d->location + 1));
		if (*slot != NULL)
			ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR), errmsg("conflicting or redundant options"),
					errposition(d->location + 1));
		*slot = d;
	}
	if (o.connlimit && o.connlimit->arg->integer->ival < -1)
		ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("invalid connection limit: %d", o.connlimit->arg->integer->ival));
	return o;
}

/*
 * The SQL value of the password option for role name: NULL, a verifier given as
 * one, or the password hashed per password_encryption; an empty password clears
 * it, as PostgreSQL does, with its NOTICE
 */
static char *
password_sql(const PgQuery__DefElem *opt, const char *name)
{
	const char *password = opt->arg ? opt->arg->string->sval : NULL;
	char	   *verifier;

	if (password != NULL && password[0] == '\0')
	{
		ereport(NOTICE, errmsg("empty string is not a valid password, clearing password"));
		password = NULL;
	}
	if (password == NULL)
		return pstrdup("NULL");
	verifier = password_is_verifier(password) ? pstrdup(password)
		: make_password_verifier(GetConfigOption("password_encryption"), name, password);
	char	   *q = sqlite3_mprintf("%Q", verifier);
	char	   *sql = pstrdup(q);

	sqlite3_free(q);
	return sql;
}

/* VALID UNTIL's value as the registry keeps it (timestamptz's microseconds) */
static char *
valid_until_sql(const PgQuery__DefElem *opt)
{
	Value		v = typio_input(TIMESTAMPTZOID, opt->arg->string->sval, -1);

	return psprintf("%lld", (long long) v.u.i);
}

/* the statement of INHERIT / NOINHERIT (rl_authid_noinherit) for the role named ?1 */
static void
set_inherit(RlBuf *sql, const PgQuery__DefElem *opt)
{
	if (opt)
		rlbuf_append_str(sql, option_bool(opt)
						 ? "DELETE FROM " CACHE_NOINHERIT_TABLE " WHERE oid = (SELECT oid FROM " CACHE_AUTHID_TABLE
						 " WHERE rolname = ?1);"
						 : "INSERT OR IGNORE INTO " CACHE_NOINHERIT_TABLE " SELECT oid FROM " CACHE_AUTHID_TABLE
						 " WHERE rolname = ?1;");
}

static void
CreateRole(const PgQuery__CreateRoleStmt *stmt)
{
	RoleOptions o = role_options(stmt->options, stmt->n_options);
	RoleInfo	me = session_role();
	RoleInfo	existing;
	bool		issuper = o.superuser && option_bool(o.superuser);
	RlBuf		sql;
	bool		canlogin = o.canlogin ? option_bool(o.canlogin)
		: stmt->stmt_type == PG_QUERY__ROLE_STMT_TYPE__ROLESTMT_USER;

	if (issuper && !me.rolsuper)
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be superuser to create superusers"));
	if (!me.rolsuper && !me.rolcreaterole)
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied to create role"));
	role_info_free(&me);
	check_role_name(stmt->role);
	if (find_role(stmt->role, &existing))
		ereport(ERROR, errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("role \"%s\" already exists", stmt->role));
	PreventInTransactionBlock(stmt->stmt_type == PG_QUERY__ROLE_STMT_TYPE__ROLESTMT_USER ? "CREATE USER" : "CREATE ROLE");
	rlbuf_init_in(&sql, CurrentMemoryContext);
	rlbuf_printf(&sql, "INSERT INTO " CACHE_AUTHID_TABLE " SELECT max(coalesce(max(oid), 0), %d) + 1,"
				 " ?1, %d, %d, %d, %d, %d, %s, %s FROM " CACHE_AUTHID_TABLE ";",
				 FirstNormalObjectId - 1, issuper,
				 o.createrole && option_bool(o.createrole),
				 o.createdb && option_bool(o.createdb), canlogin,
				 o.connlimit ? o.connlimit->arg->integer->ival : -1,
				 o.password ? password_sql(o.password, stmt->role) : "NULL",
				 o.validuntil ? valid_until_sql(o.validuntil) : "NULL");
	set_inherit(&sql, o.inherit);
	CreateRoleMembershipsSql(&sql, stmt->role, o.addroleto, o.rolemembers, o.adminmembers);
	commit_to_registry(rlbuf_cstr(&sql), stmt->role);
}

/* ", column = value" into set when the option was given */
static void
set_flag(RlBuf *set, const char *column, const PgQuery__DefElem *opt)
{
	if (opt)
		rlbuf_printf(set, ", %s = %d", column, option_bool(opt));
}

static void
AlterRole(const PgQuery__AlterRoleStmt *stmt)
{
	const char *name = role_spec_name(stmt->role);
	RoleOptions o = role_options(stmt->options, stmt->n_options);
	RoleInfo	me = session_role();
	RoleInfo	role;
	RlBuf		set;

	if (!find_role(name, &role))
		ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("role \"%s\" does not exist", name));
	if (role.rolsuper || o.superuser)
	{
		if (!me.rolsuper)
			ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					errmsg("must be superuser to alter superuser roles or change superuser attribute"));
	}
	else if (!me.rolcreaterole && !me.rolsuper &&
			 (o.createrole || o.createdb || o.canlogin || o.connlimit || o.validuntil || o.inherit ||
			  o.rolemembers || !o.password || role.oid != me.oid))
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied"));
	role_info_free(&me);
	role_info_free(&role);
	rlbuf_init_in(&set, CurrentMemoryContext);
	rlbuf_append_str(&set, "oid = oid");
	set_flag(&set, "rolsuper", o.superuser);
	set_flag(&set, "rolcreaterole", o.createrole);
	set_flag(&set, "rolcreatedb", o.createdb);
	set_flag(&set, "rolcanlogin", o.canlogin);
	if (o.connlimit)
		rlbuf_printf(&set, ", rolconnlimit = %d", o.connlimit->arg->integer->ival);
	if (o.password)
		rlbuf_printf(&set, ", rolpassword = %s", password_sql(o.password, name));
	if (o.validuntil)
		rlbuf_printf(&set, ", rolvaliduntil = %s", valid_until_sql(o.validuntil));
	PreventInTransactionBlock("ALTER ROLE");
	rlbuf_printf(&set, " WHERE rolname = ?1;");
	set_inherit(&set, o.inherit);
	if (o.rolemembers)
		AlterGroupMembersSql(&set, name, o.rolemembers, stmt->action > 0);
	commit_to_registry(psprintf("UPDATE " CACHE_AUTHID_TABLE " SET %s", rlbuf_cstr(&set)), name);
}

static void
RenameRole(const char *oldname, const char *newname)
{
	RoleInfo	me = session_role();
	RoleInfo	role;
	RoleInfo	other;
	bool		md5;

	if (!find_role(oldname, &role))
		ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("role \"%s\" does not exist", oldname));
	if (role.oid == SessionUserId)
		ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("session user cannot be renamed"));
	if (role.oid == MyRoleId)
		ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("current user cannot be renamed"));
	check_role_name(newname);
	if (find_role(newname, &other))
		ereport(ERROR, errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("role \"%s\" already exists", newname));
	if (role.rolsuper && !me.rolsuper)
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be superuser to rename superusers"));
	if (!me.rolsuper && !me.rolcreaterole)
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied to rename role"));
	md5 = role.rolpassword && strncmp(role.rolpassword, "md5", 3) == 0;
	role_info_free(&me);
	role_info_free(&role);
	PreventInTransactionBlock("ALTER ROLE");
	/* an md5 verifier is salted with the role's name: it no longer matches */
	char	   *q = sqlite3_mprintf("UPDATE " CACHE_AUTHID_TABLE " SET rolname = %Q%s WHERE rolname = ?1",
									newname, md5 ? ", rolpassword = NULL" : "");

	commit_to_registry(q, oldname);
	sqlite3_free(q);
	if (md5)
		ereport(NOTICE, errmsg("MD5 password cleared because of role rename"));
}

static void
DropRoles(const PgQuery__DropRoleStmt *stmt)
{
	RoleInfo	me = session_role();
	RlBuf		sql;
	RlBuf		members;		/* the OIDs of the roles dropped */

	if (!me.rolsuper && !me.rolcreaterole)
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied to drop role"));
	PreventInTransactionBlock("DROP ROLE");
	/* every role checked first, then all dropped in one commit, as one statement should */
	rlbuf_init_in(&sql, CurrentMemoryContext);
	rlbuf_init_in(&members, CurrentMemoryContext);
	rlbuf_append_str(&sql, "DELETE FROM " CACHE_AUTHID_TABLE " WHERE 0");
	for (size_t i = 0; i < stmt->n_roles; i++)
	{
		const PgQuery__RoleSpec *spec = stmt->roles[i]->role_spec;
		const char *name;
		RoleInfo	role;
		char	   *detail;

		if (spec->roletype != PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING)
			ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("cannot use special role specifier in DROP ROLE"));
		name = spec->rolename;
		if (!find_role(name, &role))
		{
			if (!stmt->missing_ok)
				ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("role \"%s\" does not exist", name));
			ereport(NOTICE, errmsg("role \"%s\" does not exist, skipping", name));
			continue;
		}
		if (role.oid == me.oid)
			ereport(ERROR, errcode(ERRCODE_OBJECT_IN_USE), errmsg("current user cannot be dropped"));
		if (role.oid == SessionUserId)
			ereport(ERROR, errcode(ERRCODE_OBJECT_IN_USE), errmsg("session user cannot be dropped"));
		if (role.oid == BOOTSTRAP_SUPERUSERID)
			ereport(ERROR, errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
					errmsg("cannot drop role %s because it is required by the database system", name));
		if (role.rolsuper && !me.rolsuper)
			ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be superuser to drop superusers"));
		if ((detail = RoleDatabaseDependencies(role.oid)) != NULL)
			ereport(ERROR, errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
					errmsg("role \"%s\" cannot be dropped because some objects depend on it", name),
					errdetail("%s", detail));
		role_info_free(&role);
		rlbuf_printf(&sql, " OR oid = %u", role.oid);
		rlbuf_printf(&members, "%s%u", members.len ? ", " : "", role.oid);
	}
	role_info_free(&me);
	/* and their memberships, both ways, as PostgreSQL's DROP ROLE */
	rlbuf_printf(&sql, "; DELETE FROM " CACHE_AUTH_MEMBERS_TABLE " WHERE roleid IN (%s) OR member IN (%s);"
				 " DELETE FROM " CACHE_NOINHERIT_TABLE " WHERE oid IN (%s);"
				 " DELETE FROM " CACHE_DB_ROLE_SETTING_TABLE " WHERE setrole IN (%s)",
				 rlbuf_cstr(&members), rlbuf_cstr(&members), rlbuf_cstr(&members), rlbuf_cstr(&members));
	if (members.len)
		commit_to_registry(rlbuf_cstr(&sql), NULL);
}

void
RoleCommand(const void *node)
{
	const PgQuery__Node *n = node;

	switch (n->node_case)
	{
		case PG_QUERY__NODE__NODE_CREATE_ROLE_STMT:
			CreateRole(n->create_role_stmt);
			break;
		case PG_QUERY__NODE__NODE_ALTER_ROLE_STMT:
			AlterRole(n->alter_role_stmt);
			break;
		case PG_QUERY__NODE__NODE_DROP_ROLE_STMT:
			DropRoles(n->drop_role_stmt);
			break;
		case PG_QUERY__NODE__NODE_RENAME_STMT:
			RenameRole(n->rename_stmt->subname, n->rename_stmt->newname);
			break;
		case PG_QUERY__NODE__NODE_GRANT_ROLE_STMT:
			GrantRole(n);
			break;
		default:
			elog(ERROR, "unexpected role statement %d", (int) n->node_case);
	}
}

void
CheckCreatedbPrivilege(void)
{
	RoleInfo	me = session_role();
	bool		allowed = me.rolsuper || me.rolcreatedb;

	role_info_free(&me);
	if (!allowed)
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied to create database"));
}
