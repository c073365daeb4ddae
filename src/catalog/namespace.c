/*
 * namespace.c: schemas and the search path (namespace.h).
 *
 * Nothing here is kept between calls: a schema made or dropped by another session
 * changes a row of rl_namespace and not SQLite's schema cookie, which is what keeps
 * the relations analysis looked up (cache.c), so a schema's name is looked up in
 * the transaction's snapshot every time, one kept statement's step.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/acl.h"
#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "catalog/namespace.h"
#include "common/rl_buffer.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

Oid
NamespaceOid(const char *name)
{
	if (strcmp(name, "public") == 0)
		return PG_PUBLIC_NAMESPACE;
	if (strcmp(name, "pg_catalog") == 0)
		return PG_CATALOG_NAMESPACE;
	if (strcmp(name, "information_schema") == 0)
		return INFORMATION_SCHEMA_NAMESPACE;

	Value		key = typio_string(TEXTOID, name, strlen(name));
	char	   *found = CacheLookupText("SELECT nspid FROM main." CACHE_NAMESPACE_TABLE " WHERE nspname = ?1", &key);

	return found ? (Oid) strtoul(found, NULL, 10) : InvalidOid;
}

Oid
NamespaceOwner(Oid nsp)
{
	Value		key = typio_int(OIDOID, nsp);
	char	   *found;

	if (nsp == PG_PUBLIC_NAMESPACE)
		return ROLE_PG_DATABASE_OWNER;
	found = CacheLookupText("SELECT nspowner FROM main." CACHE_NAMESPACE_TABLE " WHERE nspid = ?1", &key);
	return found ? (Oid) strtoul(found, NULL, 10) : BOOTSTRAP_SUPERUSERID;
}

char *
NamespaceDefaultAcl(Oid nsp, Oid owner)
{
	bool		everyone = nsp == PG_PUBLIC_NAMESPACE || nsp == PG_CATALOG_NAMESPACE || nsp == INFORMATION_SCHEMA_NAMESPACE;

	return everyone ? psprintf("%s,=U/%u", acl_default(ACL_ALL_RIGHTS_NAMESPACE, owner), owner)
		: acl_default(ACL_ALL_RIGHTS_NAMESPACE, owner);
}

char *
NamespaceAcl(Oid nsp)
{
	Value		key = typio_int(OIDOID, nsp);
	char	   *acl = CacheLookupText("SELECT nspacl FROM main." CACHE_NAMESPACE_ACL_TABLE " WHERE nspid = ?1", &key);

	return acl ? acl : NamespaceDefaultAcl(nsp, NamespaceOwner(nsp));
}

const char *
CacheTableName(Oid nsp, const char *name)
{
	if (nsp == PG_PUBLIC_NAMESPACE)
		return CacheSqliteName(name);
	return psprintf("%u" CACHE_SCHEMA_SEPARATOR "%s", nsp, CacheSqliteName(name));
}

int
NamespaceTables(Oid nsp, char ***tables)
{
	Value		oid = typio_int(OIDOID, nsp);
	/* each name as its length in bytes, ':' and the name */
	const char *list = CacheLookupText("SELECT group_concat(length(CAST(relname AS BLOB)) || ':' || relname, '')"
									   " FROM (SELECT relname FROM main." CACHE_RELATION_TABLE
									   " WHERE rl_nspid(relname) = ?1 ORDER BY relid)", &oid);
	int			n = 0;

	*tables = palloc(sizeof(char *) * (list ? strlen(list) / 2 + 1 : 1));
	for (const char *p = list; p && *p;)
	{
		char	   *end;
		size_t		len = strtoul(p, &end, 10);

		(*tables)[n++] = pnstrdup(end + 1, len);
		p = end + 1 + len;
	}
	return n;
}

/*
 * search_path_names -- search_path's names in order, as PostgreSQL's
 * SplitIdentifierString reads them ("$user" the session user's name); a list it
 * cannot read names nothing, as PostgreSQL would have refused to set it
 */
static int
search_path_names(char ***names)
{
	const char *p = GetConfigOption("search_path");
	int			n = 0;

	*names = palloc(sizeof(char *) * (strlen(p ? p : "") / 2 + 2));
	while (p && *p)
	{
		RlBuf		name;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		rlbuf_init_in(&name, CurrentMemoryContext);
		if (*p == '"')
		{
			for (p++; *p && (*p != '"' || p[1] == '"'); p++)
				rlbuf_append(&name, p += *p == '"', 1);
			if (*p != '"')
				return 0;
			p++;
		}
		else
			for (; *p && *p != ',' && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r'; p++)
			{
				char		c = *p >= 'A' && *p <= 'Z' ? (char) (*p + 'a' - 'A') : *p;

				rlbuf_append(&name, &c, 1);
			}
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (name.len == 0 || (*p != ',' && *p != '\0'))
			return 0;
		p += *p == ',';
		(*names)[n++] = strcmp(rlbuf_cstr(&name), "$user") == 0 ? pstrdup(MyUserName) : pstrdup(rlbuf_cstr(&name));
		rlbuf_free(&name);
	}
	return n;
}

int
SearchPathNamespaces(Oid **oids)
{
	char	  **names;
	int			n = search_path_names(&names),
				found = 0;

	*oids = palloc(sizeof(Oid) * (size_t) (n + 1));
	for (int i = 0; i < n; i++)
	{
		Oid			nsp = strcmp(names[i], "pg_temp") == 0 ? InvalidOid : NamespaceOid(names[i]);
		bool		again = false;

		for (int k = 0; k < found; k++)
			again |= (*oids)[k] == nsp;
		if (nsp != InvalidOid && !again)
			(*oids)[found++] = nsp;
	}
	return found;
}

int
SearchPathRank(const char *schema)
{
	char	  **names;
	int			n = search_path_names(&names);

	for (int i = 0; i < n; i++)
		if (strcmp(names[i], schema) == 0)
			return i + 1;
	return strcmp(schema, "pg_catalog") == 0 ? 0 : -1;
}

char *
NamespaceName(Oid nsp)
{
	Value		oid = typio_int(OIDOID, nsp);

	if (nsp == PG_PUBLIC_NAMESPACE || nsp == PG_CATALOG_NAMESPACE || nsp == INFORMATION_SCHEMA_NAMESPACE)
		return pstrdup(nsp == PG_PUBLIC_NAMESPACE ? "public" : nsp == PG_CATALOG_NAMESPACE ? "pg_catalog"
					   : "information_schema");
	return CacheLookupText("SELECT nspname FROM main." CACHE_NAMESPACE_TABLE " WHERE nspid = ?1", &oid);
}

bool
IdentifierIsSafe(const char *name)
{
	bool		safe = (name[0] >= 'a' && name[0] <= 'z') || name[0] == '_';

	for (const char *p = name; safe && *p; p++)
		safe = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '$';
	return safe;
}

Value
CurrentSchemaValue(void)
{
	Oid		   *oids;

	if (SearchPathNamespaces(&oids) == 0)
		return typio_null(NAMEOID);

	char	   *name = NamespaceName(oids[0]);

	return typio_string(NAMEOID, name, strlen(name));
}

Value
CurrentSchemasValue(bool implicit)
{
	Oid		   *oids;
	int			n = SearchPathNamespaces(&oids);
	bool		has_catalog = false;
	ArrayElements elems = {.n = 0, .items = palloc(sizeof(char *) * (size_t) (n + 1))};

	for (int i = 0; i < n; i++)
		has_catalog |= oids[i] == PG_CATALOG_NAMESPACE;
	if (implicit && !has_catalog)
		elems.items[elems.n++] = "pg_catalog";
	for (int i = 0; i < n; i++)
		elems.items[elems.n++] = NamespaceName(oids[i]);
	return typio_array_build(NAMEARRAYOID, &elems);
}
