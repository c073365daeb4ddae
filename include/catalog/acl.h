/*
 * acl.h: access control lists of databases, relations and schemas (PostgreSQL's
 * datacl, relacl, nspacl), in the form the registry and the caches keep them (acl.c).
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
/* a table's: SELECT r, INSERT a, UPDATE w, DELETE d, TRUNCATE D, REFERENCES x, TRIGGER t */
#define ACL_ALL_RIGHTS_RELATION "arwdDxt"
/* a schema's: USAGE U, CREATE C */
#define ACL_ALL_RIGHTS_NAMESPACE "UC"

/*
 * What a statement may need beside privileges (nodes/parsenodes.h RequiredPrivilege):
 * ownership ("must be owner of table t"), or ownership to GRANT ("permission denied
 * for table t" without it).
 */
#define ACL_PRIVILEGE_OWNER ""
#define ACL_PRIVILEGE_GRANT "*"

/* The stored ACL (palloc'd) of acl, NULL being the default of a database owned by owner. */
char	   *acl_database(const char *acl, uint32_t owner);
/*
 * acl with privileges (letters) granted to or revoked from grantee by grantor
 * (palloc'd); an item left without privileges goes, a new one comes last, as in
 * PostgreSQL's aclupdate.
 */
char	   *acl_update(const char *acl, uint32_t grantee, uint32_t grantor, const char *privileges,
					   bool grant);
/* The default ACL of an object owned by owner whose privileges are all_rights: all the owner's. */
char	   *acl_default(const char *all_rights, uint32_t owner);
/* The grantees (ACL_ID_PUBLIC for PUBLIC) that hold privilege in the stored acl, palloc'd; their number */
int			acl_grantees(const char *acl, char privilege, uint32_t **grantees);
/* Whether role, or PUBLIC, holds the privilege (a letter) in the stored acl. */
bool		acl_allows(const char *acl, uint32_t role, char privilege);
/* PostgreSQL's text of a stored acl: "{=Tc/alice,alice=CTc/alice}" (palloc'd); NULL for NULL. */
char	   *acl_text(const char *acl);

#endif
