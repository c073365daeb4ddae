/*
 * role_settings.h: the settings ALTER ROLE ... [IN DATABASE d] SET / RESET and ALTER
 * DATABASE d SET / RESET give sessions, PostgreSQL's pg_db_role_setting
 * (role_settings.c), kept in the registry's rl_db_role_setting (catalog_cache.h) and
 * applied at login.
 */
#ifndef RL_ROLE_SETTINGS_H
#define RL_ROLE_SETTINGS_H

#include <stdint.h>

/*
 * Run ALTER ROLE / ALTER DATABASE ... SET or RESET: node is the statement's parse
 * tree node, name the setting (NULL: RESET ALL), value its value as SET would take
 * it (NULL: RESET). PostgreSQL's checks: a superuser for a superuser role's settings
 * or every role's, CREATEROLE or the role itself for another's, the owner for a
 * database's; 42704 for a setting there is none of.
 */
void		AlterRoleSetting(const void *node, const char *name, const char *value);

/*
 * At login, before the startup packet's options: the settings of role in database
 * datname, for both, for the role, for the database, for everyone, each with its
 * source so the more specific wins (PostgreSQL's order); a bad one is a WARNING.
 */
void		ApplyRoleSettings(const char *datname, uint32_t role);

#endif
