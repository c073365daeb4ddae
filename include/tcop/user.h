/*
 * user.h: role commands (CREATE / ALTER / DROP ROLE and USER, ALTER ROLE ... RENAME
 * TO) and the role privileges other commands check; roles are kept in the registry
 * (catalog/authid.h).
 */
#ifndef RL_USER_H
#define RL_USER_H

#include <stdint.h>

/*
 * Run a role statement: node is its libpg_query parse tree node (a CreateRoleStmt,
 * AlterRoleStmt, DropRoleStmt or a RenameStmt of a role). ERROR 42501 without the
 * privilege, 42710 / 42704 for a role that exists / does not, 25001 inside a
 * transaction block.
 */
void		RoleCommand(const void *node);

/* ERROR 42501 "permission denied to create database" unless SUPERUSER or CREATEDB */
void		CheckCreatedbPrivilege(void);

#endif
