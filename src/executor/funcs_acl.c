/*
 * funcs_acl.c: the builtin functions that ask about privileges, each in its forms
 * with a user (by name or OID) or for the current user, the object by name or OID:
 * pg_has_role, has_table_privilege and has_schema_privilege. Their privilege
 * strings are PostgreSQL's: a comma-separated list of privilege names, in any case,
 * each optionally WITH GRANT OPTION (WITH ADMIN OPTION too for roles); the answer is
 * whether the user has any of them (catalog/pg_auth_members.h, pg_class_acl.h). A
 * superuser has every privilege; only an owner holds grant options.
 */
#include <ctype.h>
#include <strings.h>

#include "catalog/acl.h"
#include "catalog/authid.h"
#include "catalog/catalog_cache.h"
#include "catalog/namespace.h"
#include "catalog/pg_auth_members.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_class_acl.h"
#include "executor/funcs_internal.h"

/* a privilege name and its ACL letter (roles': U usage, M member) */
typedef struct PrivilegeName
{
	const char *name;
	char		letter;
} PrivilegeName;

static const PrivilegeName role_privilege_names[] = {{"USAGE", 'U'}, {"MEMBER", 'M'}, {NULL, 0}};
static const PrivilegeName table_privilege_names[] = {
	{"SELECT", 'r'}, {"INSERT", 'a'}, {"UPDATE", 'w'}, {"DELETE", 'd'}, {"TRUNCATE", 'D'},
	{"REFERENCES", 'x'}, {"TRIGGER", 't'}, {NULL, 0},
};
static const PrivilegeName schema_privilege_names[] = {{"USAGE", 'U'}, {"CREATE", 'C'}, {NULL, 0}};

/* whether word ends s (after a space), case aside; if so s is cut before it */
static bool
strip_suffix(char *s, const char *word)
{
	size_t		len = strlen(s),
				wlen = strlen(word);

	if (len <= wlen || s[len - wlen - 1] != ' ' || strcasecmp(s + len - wlen, word) != 0)
		return false;
	s[len - wlen - 1] = '\0';
	return true;
}

/*
 * The letters a privilege string asks for (palloc'd), and in *options whether any
 * asks for a grant option (the ADMIN OPTION of roles when admin); 22023 for a word
 * it does not know
 */
static char *
privilege_letters(const Value *text, const PrivilegeName *names, bool admin, bool *options)
{
	char	   *s = pnstrdup(text->u.s.data, text->u.s.len);
	char	   *letters = palloc0(text->u.s.len + 1);
	size_t		n = 0;

	*options = false;
	for (char *chunk = s, *next; chunk != NULL; chunk = next)
	{
		size_t		len;
		const PrivilegeName *p;

		if ((next = strchr(chunk, ',')) != NULL)
			*next++ = '\0';
		while (isspace((unsigned char) *chunk))
			chunk++;
		for (len = strlen(chunk); len > 0 && isspace((unsigned char) chunk[len - 1]); len--)
			chunk[len - 1] = '\0';

		char	   *word = pstrdup(chunk);
		bool		option = strip_suffix(word, "WITH GRANT OPTION") || (admin && strip_suffix(word, "WITH ADMIN OPTION"));

		for (p = names; p->name && strcasecmp(p->name, word) != 0; p++)
			;
		if (p->name == NULL)
			ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("unrecognized privilege type: \"%s\"", chunk));
		if (option)
			*options = true;
		else
			letters[n++] = p->letter;
	}
	return letters;
}

/* a role argument: an OID as it is, a name looked up (42704 if there is none, public included) */
static Oid
role_arg(const Value *v)
{
	Oid			oid;

	if (v->type == OIDOID)
		return (Oid) v->u.i;
	if ((oid = RoleOidByName(v->u.s.data)) == 0)
		ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("role \"%s\" does not exist", v->u.s.data));
	return oid;
}

/* pg_role_aclcheck: whether user has any of the privileges asked of role */
static Value
has_role(Oid user, Oid role, const Value *privileges)
{
	bool		admin;
	char	   *letters = privilege_letters(privileges, role_privilege_names, true, &admin);
	Oid			dba = CurrentDatabaseOwner();

	if (admin && RoleIsAdminOf(user, role))
		return typio_bool(true);
	if (strchr(letters, 'M') && RoleReaches(user, role, ROLERECURSE_MEMBERS, true, dba))
		return typio_bool(true);
	return typio_bool(strchr(letters, 'U') && RoleReaches(user, role, ROLERECURSE_PRIVS, true, dba));
}

/* pg_has_role(user, role, privileges), each role a name or an OID */
Value
f_pg_has_role(ExecState *es, const Value *args, int nargs)
{
	Oid			user = role_arg(&args[0]);

	return has_role(user, role_arg(&args[1]), &args[2]);
}

/* pg_has_role(role, privileges): the current user's */
Value
f_pg_has_role_current(ExecState *es, const Value *args, int nargs)
{
	return has_role(MyRoleId, role_arg(&args[0]), &args[1]);
}

/* whether a role is a superuser (an unknown OID is not) */
static bool
is_superuser(Oid role)
{
	RoleInfo	info;
	bool		found = catalog_find_role_oid(DataDir, role, &info) == RL_OK;
	bool		super = found && info.rolsuper;

	if (found)
		role_info_free(&info);
	return super;
}

/*
 * whether user has any of the privileges asked (letters of names) of the relation of
 * that cache name or of schema nsp
 */
static Value
has_privilege(Oid user, const char *table, Oid nsp, const Value *privileges, const PrivilegeName *names)
{
	bool		options;
	char	   *letters = privilege_letters(privileges, names, false, &options);

	if (is_superuser(user))
		return typio_bool(true);
	if (options && RoleHasPrivilege(user, table, nsp, ACL_PRIVILEGE_OWNER))
		return typio_bool(true);
	for (const char *l = letters; *l; l++)
		if (RoleHasPrivilege(user, table, nsp, (char[2]) {*l, '\0'}))
			return typio_bool(true);
	return typio_bool(false);
}

/*
 * has_table_privilege([user,] table, privileges): the table by name (42P01 if there
 * is none) or OID (NULL if there is none); the system catalogs may be read by all
 */
Value
f_has_table_privilege(ExecState *es, const Value *args, int nargs)
{
	const Value *table = &args[nargs - 2];
	Oid			user = nargs == 3 ? role_arg(&args[0]) : MyRoleId;
	Oid			oid = table->type == OIDOID ? (Oid) table->u.i : SystemRegInput(REGCLASSOID, table->u.s.data);
	Value		relid = typio_int(INT8OID, (int64_t) oid - FirstNormalObjectId);
	char	   *name = oid >= FirstNormalObjectId
		? CacheLookupText("SELECT relname FROM main." CACHE_RELATION_TABLE " WHERE relid = ?1", &relid) : NULL;
	bool		options;

	/* no relation has that OID */
	if (name == NULL && SystemRegOutput(REGCLASSOID, oid) == NULL)
		return typio_null(BOOLOID);
	if (name == NULL)			/* a system catalog: SELECT for all, the rest for superusers */
	{
		char	   *letters = privilege_letters(&args[nargs - 1], table_privilege_names, false, &options);

		return typio_bool(is_superuser(user) || (strchr(letters, 'r') != NULL));
	}
	return has_privilege(user, name, cache_name_namespace(name) ? (Oid) cache_name_namespace(name) : PG_PUBLIC_NAMESPACE,
						 &args[nargs - 1], table_privilege_names);
}

/* has_schema_privilege([user,] schema, privileges): by name (3F000 if there is none) or OID */
Value
f_has_schema_privilege(ExecState *es, const Value *args, int nargs)
{
	const Value *schema = &args[nargs - 2];
	Oid			user = nargs == 3 ? role_arg(&args[0]) : MyRoleId;
	Oid			nsp = schema->type == OIDOID ? (Oid) schema->u.i : NamespaceOid(schema->u.s.data);

	if (schema->type != OIDOID && nsp == InvalidOid)
		ereport(ERROR, errcode(ERRCODE_INVALID_SCHEMA_NAME), errmsg("schema \"%s\" does not exist", schema->u.s.data));
	if (NamespaceName(nsp) == NULL)
		return typio_null(BOOLOID);
	return has_privilege(user, NULL, nsp, &args[nargs - 1], schema_privilege_names);
}
