/*
 * fdl_dataset.c: dataset.json from the author's dataset.yml and *.table.yml and
 * the frozen catalog (admin/fdl_dataset.h has the rules).
 *
 * The keys FDL 0.1 defines are tables of KeySpec, one per kind of object: what
 * each key holds, whether it is required, and the order dataset.json writes them
 * in. check_object() checks the author's objects against them, dropping keys
 * left empty (null), turning integers written where text is wanted into text
 * ("start: 2025") and renaming extensions to annotations, and refuses anything
 * else that does not fit, naming the file and the key's path. The output is then
 * built in the tables' order from the checked object and what the catalog adds
 * (put_in_order), so that a dataset.json does not depend on how its YAML was
 * laid out.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/fdl_dataset.h"
#include "admin/fdl_yaml.h"
#include "common/rl_buffer.h"

#define TABLE_FILE_SUFFIX ".table.yml"

typedef struct ObjSpec ObjSpec;

/*
 * What a key holds: 's' text, 'S' a list of texts, 'p' an SPDX id, 'a'
 * annotations (a mapping of anything), 'o' a mapping of sub, 'O' a list of them,
 * 'l' licenses (SPDX ids or mappings of sub), 'c' taken from the catalog (the
 * author may not write it).
 */
typedef struct KeySpec
{
	const char *key;
	char		type;
	bool		required;
	const ObjSpec *sub;
} KeySpec;

struct ObjSpec
{
	const char *what;
	const KeySpec *keys;		/* ends with a NULL key */
};

#define KEY(k, t) {.key = k, .type = t}
#define REQUIRED(k, t) {.key = k, .type = t, .required = true}
#define NESTED(k, t, s) {.key = k, .type = t, .sub = s}
#define END_KEYS {.key = NULL}

static const KeySpec license_keys[] = {
	REQUIRED("id", 's'), KEY("spdx", 'p'), KEY("url", 's'), KEY("title", 's'), END_KEYS
};
static const ObjSpec license_spec = {"license", license_keys};
static const KeySpec source_keys[] = {KEY("title", 's'), KEY("path", 's'), END_KEYS};
static const ObjSpec source_spec = {"source", source_keys};
static const KeySpec contributor_keys[] = {KEY("title", 's'), KEY("roles", 'S'), END_KEYS};
static const ObjSpec contributor_spec = {"contributor", contributor_keys};
static const KeySpec coverage_keys[] = {KEY("start", 's'), KEY("end", 's'), END_KEYS};
static const ObjSpec coverage_spec = {"temporal coverage", coverage_keys};
static const KeySpec schema_keys[] = {REQUIRED("name", 's'), KEY("title", 's'), END_KEYS};
static const ObjSpec schema_spec = {"schema", schema_keys};
static const KeySpec field_keys[] = {
	REQUIRED("name", 's'), KEY("title", 's'), KEY("description", 's'), KEY("type", 'c'),
	KEY("nullable", 'c'),
	KEY("annotations", 'a'), KEY("extensions", 'a'), END_KEYS
};
static const ObjSpec field_spec = {"field", field_keys};
static const KeySpec table_keys[] = {
	KEY("schema", 's'), REQUIRED("name", 's'), KEY("kind", 'c'), KEY("title", 's'), KEY("description", 's'),
	KEY("primary_key", 'S'), KEY("depends_on", 'S'), KEY("sql", 's'), KEY("rows", 'c'),
	NESTED("fields", 'O', &field_spec), KEY("annotations", 'a'), KEY("extensions", 'a'), END_KEYS
};
static const ObjSpec table_spec = {"table", table_keys};
static const KeySpec dataset_keys[] = {
	REQUIRED("name", 's'), REQUIRED("title", 's'), KEY("description", 's'), KEY("keywords", 'S'),
	KEY("language", 's'), KEY("homepage", 's'), KEY("issued", 's'), KEY("update_frequency", 's'),
	NESTED("licenses", 'l', &license_spec), NESTED("sources", 'O', &source_spec),
	NESTED("contributors", 'O', &contributor_spec),
	NESTED("temporal_coverage", 'o', &coverage_spec), KEY("spatial_coverage", 'S'),
	NESTED("schemas", 'O', &schema_spec), NESTED("tables", 'O', &table_spec),
	KEY("annotations", 'a'), KEY("extensions", 'a'), END_KEYS
};
static const ObjSpec dataset_spec = {"dataset", dataset_keys};

typedef struct Ctx
{
	const char *file;			/* the file being checked, for messages */
	char	   *err;
} Ctx;

static bool
fail(Ctx *cx, const char *path, const char *fmt,...) __attribute__((format(printf, 3, 4)));

static bool
fail(Ctx *cx, const char *path, const char *fmt,...)
{
	RlBuf		msg;
	char		text[512];
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	rlbuf_init(&msg);
	rlbuf_printf(&msg, "%s: %s%s%s", cx->file, path, path[0] ? ": " : "", text);
	free(cx->err);
	cx->err = strdup(rlbuf_cstr(&msg));
	rlbuf_free(&msg);
	return false;
}

/* text where text is wanted: a string, or an integer written as one */
static bool
check_text(Ctx *cx, json_t **v, const char *path)
{
	if (json_is_integer(*v))
	{
		json_t	   *s = json_sprintf("%" JSON_INTEGER_FORMAT, json_integer_value(*v));

		json_decref(*v);
		*v = s;
	}
	if (!json_is_string(*v))
		return fail(cx, path, "must be text");
	return true;
}

static bool
is_spdx_id(const char *s)
{
	return s[0] != '\0' && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.+-") ==
		strlen(s);
}

static bool check_object(Ctx *cx, json_t *obj, const ObjSpec *spec, const char *path);

/* the value of one key (a new reference in *v, replaced when turned into text) */
static bool
check_value(Ctx *cx, const KeySpec *ks, json_t **v, const char *path)
{
	size_t		i;
	json_t	   *item;
	RlBuf		sub;
	bool		ok = true;

	switch (ks->type)
	{
		case 's':
			return check_text(cx, v, path);
		case 'p':
			if (!check_text(cx, v, path))
				return false;
			if (!is_spdx_id(json_string_value(*v)))
				return fail(cx, path, "\"%s\" is not an SPDX license identifier", json_string_value(*v));
			return true;
		case 'a':
			if (!json_is_object(*v))
				return fail(cx, path, "must be a mapping (keyed by the name of the reader it is for)");
			return true;
		case 'o':
			return json_is_object(*v) ? check_object(cx, *v, ks->sub, path) :
				fail(cx, path, "must be a mapping (a %s)", ks->sub->what);
		case 'c':
			return fail(cx, path, "is taken from the catalog: do not write it");
		default:
			break;
	}
	/* 'S', 'O', 'l': lists */
	if (!json_is_array(*v))
		return fail(cx, path, "must be a list");
	rlbuf_init(&sub);
	json_array_foreach(*v, i, item)
	{
		rlbuf_reset(&sub);
		rlbuf_printf(&sub, "%s[%zu]", path, i);

		const char *p = rlbuf_cstr(&sub);

		json_incref(item);
		if (ks->type == 'S')
			ok = check_text(cx, &item, p);
		else if (ks->type == 'l' && !json_is_object(item))
		{
			ok = json_is_string(item) || json_is_integer(item) ?
				check_text(cx, &item, p) : fail(cx, p, "must be an SPDX id or a mapping with an id");
			if (ok && !is_spdx_id(json_string_value(item)))
				ok = fail(cx, p, "\"%s\" is not an SPDX license identifier (write a mapping with "
						  "an id to name another license)", json_string_value(item));
		}
		else
			ok = json_is_object(item) ? check_object(cx, item, ks->sub, p) :
				fail(cx, p, "must be a mapping (a %s)", ks->sub->what);
		if (ok)
			json_array_set(*v, i, item);
		json_decref(item);
		if (!ok)
			break;
	}
	rlbuf_free(&sub);
	return ok;
}

/*
 * check_object -- obj against spec, in place: keys left empty dropped, integers
 * made text, extensions renamed annotations
 */
static bool
check_object(Ctx *cx, json_t *obj, const ObjSpec *spec, const char *path)
{
	const char *key;
	json_t	   *v;
	void	   *tmp;
	RlBuf		sub;
	bool		ok = true;

	rlbuf_init(&sub);
	json_object_foreach_safe(obj, tmp, key, v)
	{
		const KeySpec *ks = spec->keys;

		while (ks->key && strcmp(ks->key, key) != 0)
			ks++;
		rlbuf_reset(&sub);
		rlbuf_printf(&sub, "%s%s%s", path, path[0] ? "." : "", key);
		if (ks->key == NULL)
		{
			RlBuf		known;

			rlbuf_init(&known);
			for (ks = spec->keys; ks->key; ks++)
				if (ks->type != 'c')
					rlbuf_printf(&known, "%s%s", known.len ? ", " : "", ks->key);
			ok = fail(cx, path, "unknown key \"%s\" (a %s may have: %s; put other information "
					  "under annotations)", key, spec->what, rlbuf_cstr(&known));
			rlbuf_free(&known);
			break;
		}
		if (json_is_null(v))
		{
			json_object_del(obj, key);
			continue;
		}
		json_incref(v);
		ok = check_value(cx, ks, &v, rlbuf_cstr(&sub));
		if (ok)
			json_object_set(obj, key, v);
		json_decref(v);
		if (!ok)
			break;
	}
	for (const KeySpec *ks = spec->keys; ok && ks->key; ks++)
		if (ks->required && json_object_get(obj, ks->key) == NULL)
			ok = fail(cx, path, "the %s's \"%s\" is missing", spec->what, ks->key);
	if (ok && (v = json_object_get(obj, "extensions")) != NULL)
	{
		if (json_object_get(obj, "annotations"))
			ok = fail(cx, path, "annotations and extensions (their older name) are both given");
		else
		{
			json_object_set(obj, "annotations", v);
			json_object_del(obj, "extensions");
		}
	}
	rlbuf_free(&sub);
	return ok;
}

/*
 * put_in_order -- a new object with spec's keys in spec's order, each from derived
 * if it has it (what the catalog says) and otherwise from src (what the author
 * wrote); description from derived only where the author wrote none
 */
static json_t *
put_in_order(const ObjSpec *spec, json_t *src, json_t *derived)
{
	json_t	   *out = json_object();

	for (const KeySpec *ks = spec->keys; ks->key; ks++)
	{
		json_t	   *d = json_object_get(derived, ks->key),
				   *s = src ? json_object_get(src, ks->key) : NULL;
		json_t	   *v = strcmp(ks->key, "description") == 0 ? (s ? s : d) : (d ? d : s);

		if (v && !json_is_null(v))
			json_object_set(out, ks->key, v);
	}
	return out;
}

/* one author's table description, checked, and where it came from */
typedef struct Described
{
	json_t	   *entry;
	char	   *file;			/* the file it was in */
	char	   *path;			/* its path in that file ("" for a .table.yml) */
	char	   *qualified;		/* schema.name */
	bool		used;
} Described;

typedef struct DescribedList
{
	Described  *items;
	size_t		n;
} DescribedList;

static void
described_free(DescribedList *dl)
{
	for (size_t i = 0; i < dl->n; i++)
	{
		json_decref(dl->items[i].entry);
		free(dl->items[i].file);
		free(dl->items[i].path);
		free(dl->items[i].qualified);
	}
	free(dl->items);
}

static const char *
schema_of(json_t *entry)
{
	const char *s = json_string_value(json_object_get(entry, "schema"));

	return s ? s : "main";
}

/* add a checked table entry; a second description of one table is refused */
static bool
described_add(Ctx *cx, DescribedList *dl, json_t *entry, const char *path)
{
	RlBuf		q;

	rlbuf_init(&q);
	rlbuf_printf(&q, "%s.%s", schema_of(entry), json_string_value(json_object_get(entry, "name")));
	for (size_t i = 0; i < dl->n; i++)
		if (strcmp(dl->items[i].qualified, rlbuf_cstr(&q)) == 0)
		{
			fail(cx, path, "table \"%s\" is described twice (also in %s%s%s)", rlbuf_cstr(&q),
				 dl->items[i].file, dl->items[i].path[0] ? " at " : "", dl->items[i].path);
			rlbuf_free(&q);
			return false;
		}
	dl->items = realloc(dl->items, (dl->n + 1) * sizeof(Described));
	dl->items[dl->n] = (Described)
	{
		json_incref(entry), strdup(cx->file), strdup(path), strdup(rlbuf_cstr(&q)), false
	};
	dl->n++;
	rlbuf_free(&q);
	return true;
}

static Described *
described_find(DescribedList *dl, const char *schema, const char *name)
{
	for (size_t i = 0; i < dl->n; i++)
	{
		const char *q = dl->items[i].qualified;
		size_t		sl = strlen(schema);

		if (strncmp(q, schema, sl) == 0 && q[sl] == '.' && strcmp(q + sl + 1, name) == 0)
			return &dl->items[i];
	}
	return NULL;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/*
 * read_table_files -- every *.table.yml in dir, in name order: one table entry
 * each, named by the file (schema.name.table.yml or name.table.yml) if it does not
 * name itself, and refused if it names another table
 */
static bool
read_table_files(Ctx *cx, const char *dir, DescribedList *dl)
{
	DIR		   *d = opendir(dir);
	struct dirent *de;
	char	  **names = NULL;
	size_t		n = 0;
	bool		ok = true;

	if (d == NULL)
		return fail(cx, "", "cannot read the directory: %s", strerror(errno));
	while ((de = readdir(d)) != NULL)
	{
		size_t		len = strlen(de->d_name),
					sl = strlen(TABLE_FILE_SUFFIX);

		if (len > sl && strcmp(de->d_name + len - sl, TABLE_FILE_SUFFIX) == 0)
		{
			names = realloc(names, (n + 1) * sizeof(char *));
			names[n++] = strdup(de->d_name);
		}
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(char *), compare_names);
	for (size_t i = 0; i < n; i++)
	{
		RlBuf		path;
		char	   *yerr = NULL;
		json_t	   *entry;

		cx->file = names[i];
		if (!ok)
			continue;
		rlbuf_init(&path);
		rlbuf_printf(&path, "%s/%s", dir, names[i]);
		entry = fdl_yaml_load(rlbuf_cstr(&path), names[i], &yerr);
		rlbuf_free(&path);
		if (entry == NULL)
		{
			free(cx->err);
			cx->err = yerr;
			ok = false;
			continue;
		}

		char	   *stem = strndup(names[i], strlen(names[i]) - strlen(TABLE_FILE_SUFFIX));
		char	   *dot = strchr(stem, '.');

		if (!json_is_object(entry))
			ok = fail(cx, "", "must be a mapping: one table's description");
		else
		{
			/* required by the spec, but a table file may leave it to its name */
			if (json_object_get(entry, "name") == NULL)
				json_object_set_new(entry, "name", json_string(dot ? dot + 1 : stem));
			if (dot && json_object_get(entry, "schema") == NULL)
				json_object_set_new(entry, "schema", json_stringn(stem, (size_t) (dot - stem)));
			ok = check_object(cx, entry, &table_spec, "");
		}
		if (ok)
		{
			const char *name = json_string_value(json_object_get(entry, "name")),
					   *schema = schema_of(entry);

			if (dot ? strlen(schema) != (size_t) (dot - stem) || strncmp(stem, schema, strlen(schema)) != 0 ||
				strcmp(dot + 1, name) != 0 : strcmp(stem, name) != 0)
				ok = fail(cx, "", "describes table \"%s.%s\": name the file %s%s", schema, name, name,
						  TABLE_FILE_SUFFIX);
			else
				ok = described_add(cx, dl, entry, "");
		}
		free(stem);
		json_decref(entry);
	}
	cx->file = "the table files";
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ok;
}

/* a table's fields: every catalog column in order, with what the author wrote */
static json_t *
table_fields(Ctx *cx, Described *dt, json_t *columns, const char *qualified)
{
	json_t	   *written = dt ? json_object_get(dt->entry, "fields") : NULL;
	json_t	   *out = json_array();
	json_t	   *col,
			   *f;
	size_t		i,
				j;

	json_array_foreach(written, i, f)
	{
		const char *name = json_string_value(json_object_get(f, "name"));
		bool		in_catalog = false,
					twice = false;

		json_array_foreach(columns, j, col)
			in_catalog |= strcmp(json_string_value(json_object_get(col, "name")), name) == 0;
		for (j = 0; j < i; j++)
			twice |= strcmp(json_string_value(json_object_get(json_array_get(written, j), "name")), name) == 0;
		if (!in_catalog || twice)
		{
			RlBuf		p;

			rlbuf_init(&p);
			rlbuf_printf(&p, "%s%sfields[%zu]", dt->path, dt->path[0] ? "." : "", i);
			cx->file = dt->file;
			if (twice)
				fail(cx, rlbuf_cstr(&p), "column \"%s\" is described twice", name);
			else
				fail(cx, rlbuf_cstr(&p), "table \"%s\" has no column \"%s\" in the catalog", qualified, name);
			rlbuf_free(&p);
			json_decref(out);
			return NULL;
		}
	}
	json_array_foreach(columns, i, col)
	{
		const char *name = json_string_value(json_object_get(col, "name"));
		json_t	   *mine = NULL,
				   *derived = json_object();

		json_array_foreach(written, j, f)
			if (strcmp(json_string_value(json_object_get(f, "name")), name) == 0)
			mine = f;
		json_object_set_new(derived, "name", json_string(name));
		json_object_set(derived, "description", json_object_get(col, "comment"));
		json_object_set(derived, "type", json_object_get(col, "type"));
		json_object_set(derived, "nullable", json_object_get(col, "nullable"));
		json_array_append_new(out, put_in_order(&field_spec, mine, derived));
		json_decref(derived);
	}
	return out;
}

/* a described table's primary key must name its columns */
static bool
check_primary_key(Ctx *cx, Described *dt, json_t *columns)
{
	json_t	   *key = json_object_get(dt->entry, "primary_key"),
			   *k,
			   *col;
	size_t		i,
				j;

	json_array_foreach(key, i, k)
	{
		bool		found = false;

		json_array_foreach(columns, j, col)
			found |= strcmp(json_string_value(json_object_get(col, "name")), json_string_value(k)) == 0;
		if (!found)
		{
			RlBuf		p;

			rlbuf_init(&p);
			rlbuf_printf(&p, "%s%sprimary_key[%zu]", dt->path, dt->path[0] ? "." : "", i);
			cx->file = dt->file;
			fail(cx, rlbuf_cstr(&p), "table \"%s\" has no column \"%s\" in the catalog",
				 dt->qualified, json_string_value(k));
			rlbuf_free(&p);
			return false;
		}
	}
	return true;
}

/* the tables list: the catalog's tables, then its views, each with its description */
static json_t *
complete_tables(Ctx *cx, DescribedList *dl, const json_t *catalog)
{
	json_t	   *out = json_array();
	json_t	   *t;
	size_t		i;

	json_array_foreach(json_object_get(catalog, "tables"), i, t)
	{
		const char *schema = json_string_value(json_object_get(t, "schema")),
				   *name = json_string_value(json_object_get(t, "name"));
		json_t	   *columns = json_object_get(t, "columns");
		Described  *dt = described_find(dl, schema, name);
		json_t	   *derived = json_object();
		RlBuf		q;

		rlbuf_init(&q);
		rlbuf_printf(&q, "%s.%s", schema, name);

		json_t	   *fields = dt && !check_primary_key(cx, dt, columns) ? NULL :
			table_fields(cx, dt, columns, rlbuf_cstr(&q));

		rlbuf_free(&q);
		if (fields == NULL)
		{
			json_decref(derived);
			json_decref(out);
			return NULL;
		}
		if (dt)
			dt->used = true;
		json_object_set_new(derived, "schema", json_string(schema));
		json_object_set_new(derived, "name", json_string(name));
		json_object_set(derived, "description", json_object_get(t, "comment"));
		json_object_set(derived, "rows", json_object_get(t, "rows"));
		json_object_set_new(derived, "fields", fields);
		json_array_append_new(out, put_in_order(&table_spec, dt ? dt->entry : NULL, derived));
		json_decref(derived);
	}
	json_array_foreach(json_object_get(catalog, "views"), i, t)
	{
		Described  *dt = described_find(dl, json_string_value(json_object_get(t, "schema")),
										json_string_value(json_object_get(t, "name")));
		json_t	   *derived = json_object();

		if (dt && json_object_get(dt->entry, "sql"))
		{
			RlBuf		p;

			rlbuf_init(&p);
			rlbuf_printf(&p, "%s%ssql", dt->path, dt->path[0] ? "." : "");
			cx->file = dt->file;
			fail(cx, rlbuf_cstr(&p), "is taken from the catalog for view \"%s\": do not write it",
				 dt->qualified);
			rlbuf_free(&p);
			json_decref(derived);
			json_decref(out);
			return NULL;
		}
		if (dt)
			dt->used = true;
		json_object_set(derived, "schema", json_object_get(t, "schema"));
		json_object_set(derived, "name", json_object_get(t, "name"));
		json_object_set_new(derived, "kind", json_string("view"));
		json_object_set(derived, "description", json_object_get(t, "comment"));
		json_object_set(derived, "sql", json_object_get(t, "sql"));
		json_array_append_new(out, put_in_order(&table_spec, dt ? dt->entry : NULL, derived));
		json_decref(derived);
	}
	for (size_t k = 0; k < dl->n; k++)
		if (!dl->items[k].used)
		{
			cx->file = dl->items[k].file;
			fail(cx, dl->items[k].path, "table \"%s\" is not in the catalog", dl->items[k].qualified);
			json_decref(out);
			return NULL;
		}
	return out;
}

/* the catalog description is RockLake's own; still, a malformed one is an error, not a crash */
static bool
catalog_is_sound(const json_t *catalog)
{
	json_t	   *t,
			   *c;
	size_t		i,
				j;

	if (!json_is_object(catalog))
		return false;
	json_t	   *tables = json_object_get(catalog, "tables"),
			   *views = json_object_get(catalog, "views");

	if ((tables && !json_is_array(tables)) || (views && !json_is_array(views)))
		return false;
	json_array_foreach(tables, i, t)
	{
		if (!json_is_string(json_object_get(t, "schema")) || !json_is_string(json_object_get(t, "name")) ||
			!json_is_array(json_object_get(t, "columns")))
			return false;
		json_array_foreach(json_object_get(t, "columns"), j, c)
			if (!json_is_string(json_object_get(c, "name")))
			return false;
	}
	json_array_foreach(views, i, t)
		if (!json_is_string(json_object_get(t, "schema")) || !json_is_string(json_object_get(t, "name")))
		return false;
	return true;
}

json_t *
fdl_dataset_build(const char *dir, const json_t *catalog, char **errmsg)
{
	Ctx			cx = {.file = "the catalog"};
	DescribedList dl = {0};
	json_t	   *dataset = NULL,
			   *out = NULL,
			   *derived = json_object(),
			   *entry,
			   *tables;
	bool		ok = true;
	size_t		i;

	*errmsg = NULL;
	if (!catalog_is_sound(catalog))
		ok = fail(&cx, "", "malformed catalog description");
	else if (dir == NULL)
	{
		const char *db = json_string_value(json_object_get(catalog, "database"));

		if (db == NULL)
			ok = fail(&cx, "", "no database name to name the dataset by");
		else
			dataset = json_pack("{s:s, s:s}", "name", db, "title", db);
	}
	else
	{
		RlBuf		path;

		rlbuf_init(&path);
		rlbuf_printf(&path, "%s/dataset.yml", dir);
		cx.file = "dataset.yml";
		dataset = fdl_yaml_load(rlbuf_cstr(&path), "dataset.yml", &cx.err);
		rlbuf_free(&path);
		if (dataset == NULL)
			ok = false;
		else if (!json_is_object(dataset))
			ok = fail(&cx, "", "must be a mapping: the dataset's description");
		else
			ok = check_object(&cx, dataset, &dataset_spec, "");
		json_array_foreach(ok ? json_object_get(dataset, "tables") : NULL, i, entry)
		{
			RlBuf		p;

			rlbuf_init(&p);
			rlbuf_printf(&p, "tables[%zu]", i);
			ok = described_add(&cx, &dl, entry, rlbuf_cstr(&p));
			rlbuf_free(&p);
			if (!ok)
				break;
		}
		if (ok)
			ok = read_table_files(&cx, dir, &dl);
	}
	if (ok && (tables = complete_tables(&cx, &dl, catalog)) != NULL)
	{
		json_object_set_new(derived, "tables", tables);
		out = put_in_order(&dataset_spec, dataset, derived);
	}
	json_decref(derived);
	json_decref(dataset);
	described_free(&dl);
	if (out == NULL)
		*errmsg = cx.err ? cx.err : strdup("the dataset description could not be built");
	else
		free(cx.err);
	return out;
}
