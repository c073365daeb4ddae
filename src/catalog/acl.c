/*
 * acl.c: databases' access control lists in their stored form (catalog/acl.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/acl.h"
#include "catalog/pg_authid.h"
#include "common/rl_buffer.h"
#include "utils/mcxt.h"

/* every privilege letter, in the order PostgreSQL's aclitemout writes them */
#define ACL_LETTERS "arwdDxtXUCTc"

typedef struct AclItem
{
	uint32_t	grantee;
	uint32_t	grantor;
	char		privileges[sizeof(ACL_LETTERS)];
} AclItem;

/* parse a stored acl into items (palloc'd), their number in *n */
static AclItem *
acl_parse(const char *acl, int *n)
{
	AclItem    *items = palloc0(sizeof(AclItem) * (strlen(acl) / 4 + 2));
	const char *p = acl;

	*n = 0;
	while (*p != '\0')
	{
		AclItem    *item = &items[*n];
		char	   *end;
		size_t		len;

		item->grantee = *p == '=' ? ACL_ID_PUBLIC : (uint32_t) strtoul(p, &end, 10);
		p = strchr(p, '=') + 1;
		len = strcspn(p, "/");
		snprintf(item->privileges, sizeof(item->privileges), "%.*s", (int) len, p);
		item->grantor = (uint32_t) strtoul(p + len + 1, &end, 10);
		p = *end == ',' ? end + 1 : end;
		(*n)++;
	}
	return items;
}

/* privileges in PostgreSQL's order, those of a and (if grant) b, or a without b */
static void
merge_privileges(char *out, const char *a, const char *b, bool grant)
{
	char	   *o = out;

	for (const char *l = ACL_LETTERS; *l; l++)
		if (grant ? (strchr(a, *l) || strchr(b, *l)) : (strchr(a, *l) && !strchr(b, *l)))
			*o++ = *l;
	*o = '\0';
}

char *
acl_database(const char *acl, uint32_t owner)
{
	return acl ? pstrdup(acl)
		: psprintf("=Tc/%u,%u=" ACL_ALL_RIGHTS_DATABASE "/%u", owner, owner, owner);
}

char *
acl_update(const char *acl, uint32_t grantee, uint32_t grantor, const char *privileges, bool grant)
{
	int			n;
	AclItem    *items = acl_parse(acl, &n);
	bool		found = false;
	RlBuf		b;

	for (int i = 0; i < n; i++)
		if (items[i].grantee == grantee && items[i].grantor == grantor)
		{
			merge_privileges(items[i].privileges, pstrdup(items[i].privileges), privileges, grant);
			found = true;
		}
	if (!found && grant)
	{
		items[n].grantee = grantee;
		items[n].grantor = grantor;
		merge_privileges(items[n++].privileges, "", privileges, true);
	}
	rlbuf_init_in(&b, CurrentMemoryContext);
	for (int i = 0; i < n; i++)
	{
		if (items[i].privileges[0] == '\0')
			continue;
		if (b.len)
			rlbuf_append_str(&b, ",");
		if (items[i].grantee != ACL_ID_PUBLIC)
			rlbuf_printf(&b, "%u", items[i].grantee);
		rlbuf_printf(&b, "=%s/%u", items[i].privileges, items[i].grantor);
	}
	return pstrdup(rlbuf_cstr(&b));
}

char *
acl_default(const char *all_rights, uint32_t owner)
{
	return psprintf("%u=%s/%u", owner, all_rights, owner);
}

int
acl_grantees(const char *acl, char privilege, uint32_t **grantees)
{
	int			n,
				found = 0;
	AclItem    *items = acl_parse(acl, &n);

	*grantees = palloc(sizeof(uint32_t) * (size_t) (n + 1));
	for (int i = 0; i < n; i++)
		if (strchr(items[i].privileges, privilege) != NULL)
			(*grantees)[found++] = items[i].grantee;
	return found;
}

bool
acl_allows(const char *acl, uint32_t role, char privilege)
{
	int			n;
	AclItem    *items = acl_parse(acl, &n);

	for (int i = 0; i < n; i++)
		if ((items[i].grantee == role || items[i].grantee == ACL_ID_PUBLIC) &&
			strchr(items[i].privileges, privilege) != NULL)
			return true;
	return false;
}

char *
acl_text(const char *acl)
{
	int			n;
	AclItem    *items;
	RlBuf		b;

	if (acl == NULL)
		return NULL;
	items = acl_parse(acl, &n);
	rlbuf_init_in(&b, CurrentMemoryContext);
	rlbuf_append_str(&b, "{");
	for (int i = 0; i < n; i++)
		rlbuf_printf(&b, "%s%s=%s/%s", i ? "," : "",
					 items[i].grantee == ACL_ID_PUBLIC ? "" : RoleNameById(items[i].grantee),
					 items[i].privileges, RoleNameById(items[i].grantor));
	rlbuf_append_str(&b, "}");
	return pstrdup(rlbuf_cstr(&b));
}
