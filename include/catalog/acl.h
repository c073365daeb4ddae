/*
 * acl.h: access control lists of databases (PostgreSQL's datacl), in the form the
 * registry keeps them (acl.c).
 *
 * Stored form: items separated by ',', each "grantee=privileges/grantor" with the
 * roles as OIDs in decimal (an empty grantee is PUBLIC), so that a role renamed
 * keeps its privileges; privileges are PostgreSQL's letters (C create, T temporary,
 * c connect). NULL stands for the default, as in PostgreSQL: PUBLIC may connect and
 * make temporary tables, the owner may do everything. acl_text gives PostgreSQL's
 * aclitem[] text with the roles' names.
 */
#ifndef RL_ACL_H
#define RL_ACL_H

#include <stdbool.h>
#include <stdint.h>

#define ACL_ID_PUBLIC 0
/* a database's privileges, in the order PostgreSQL prints them */
#define ACL_ALL_RIGHTS_DATABASE "CTc"

/* The stored ACL (palloc'd) of acl, NULL being the default of a database owned by owner. */
char	   *acl_database(const char *acl, uint32_t owner);
/*
 * acl with privileges (letters) granted to or revoked from grantee by grantor
 * (palloc'd); an item left without privileges goes, a new one comes last, as in
 * PostgreSQL's aclupdate.
 */
char	   *acl_update(const char *acl, uint32_t grantee, uint32_t grantor, const char *privileges,
					   bool grant);
/* Whether role, or PUBLIC, holds the privilege (a letter) in the stored acl. */
bool		acl_allows(const char *acl, uint32_t role, char privilege);
/* PostgreSQL's text of a stored acl: "{=Tc/alice,alice=CTc/alice}" (palloc'd); NULL for NULL. */
char	   *acl_text(const char *acl);

#endif
