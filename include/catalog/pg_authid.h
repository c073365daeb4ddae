/*
 * pg_authid.h: pg_authid, pg_roles, pg_user and pg_shadow (pg_authid.c), the
 * roles' registry (catalog/authid.h) with PostgreSQL 15's predefined roles, as the
 * SQL syscat.c's relations are made of.
 */
#ifndef RL_PG_AUTHID_H
#define RL_PG_AUTHID_H

#include "utils/adt/typio.h"

/* pg_authid's rows; ERROR 42501 for a session that is not a superuser's, as PostgreSQL */
char	   *BuildPgAuthidSql(void);
/* pg_roles: pg_authid's rows for everyone, the password shown as ******** */
char	   *BuildPgRolesSql(void);
/* pg_user (the roles that can log in, for everyone) and pg_shadow (superusers only) */
char	   *BuildPgUserSql(void);
char	   *BuildPgShadowSql(void);
/*
 * pg_db_role_setting's rows (the registry's rl_db_role_setting, setconfig as text[]);
 * pg_roles' rolconfig and pg_user's useconfig are its rows for every database
 */
char	   *BuildPgDbRoleSettingSql(void);
/* The OID of the role of that name in the registry or a predefined role's, 0 if there is none. */
Oid			RoleOidByName(const char *name);
/* pg_get_userbyid's text: the role's name, or "unknown (OID=n)" (palloc'd) */
char	   *RoleNameById(Oid oid);

#endif
