/*
 * fdl_retention.c: expiring and withdrawing published versions, and listing them
 * (admin/fdl_retention.h has the layout and the order of the steps).
 *
 * Every step is idempotent and goes through the object store (a directory or
 * S3): expired.json is written before anything is deleted or rewritten, and what
 * a rerun must still do is read back from it (the keys to redact), so a command
 * cut short anywhere is finished by running it again. Only keys a version owns
 * are deleted, found by listing versions/<id>/: the catalogs and files.json.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "admin/fdl_retention.h"

const char *const fdl_redactable_keys[] = {"message", "inputs", "changes", "annotations", NULL};

bool
fdl_version_id_is_valid(const char *id)
{
	if (strlen(id) != 36)
		return false;
	for (int i = 0; i < 36; i++)
		if (i == 8 || i == 13 || i == 18 || i == 23 ? id[i] != '-' : !strchr("0123456789abcdef", id[i]))
			return false;
	return true;
}

static bool
failf(char **errmsg, const char *fmt,...) __attribute__((format(printf, 2, 3)));

static bool
failf(char **errmsg, const char *fmt,...)
{
	va_list		ap;
	char	   *msg = NULL;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = strdup("out of memory");
	va_end(ap);
	*errmsg = msg;
	return false;
}

/* the JSON object at key: RL_NOT_FOUND if absent, RL_CORRUPT if not an object */
static RlStatus
get_json(ObjectStore *os, const char *key, json_t **out)
{
	RlBuf		bytes;
	json_error_t jerr;
	RlStatus	rc;

	*out = NULL;
	rlbuf_init(&bytes);
	rc = obj_get(os, key, &bytes);
	if (rc == RL_OK)
	{
		*out = json_loadb(bytes.data ? (const char *) bytes.data : "", bytes.len, 0, &jerr);
		if (*out == NULL || !json_is_object(*out))
		{
			json_decref(*out);
			*out = NULL;
			rc = rl_error(RL_CORRUPT, "%s is not a JSON object (%s)", key, jerr.text);
		}
	}
	rlbuf_free(&bytes);
	return rc;
}

static RlStatus
put_json(ObjectStore *os, const char *key, const json_t *value)
{
	char	   *text = json_dumps(value, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	RlStatus	rc;
	size_t		len = strlen(text);

	text = realloc(text, len + 2);
	text[len++] = '\n';
	rc = obj_put(os, key, text, len, OBJ_PUT_OVERWRITE, NULL, NULL);
	free(text);
	return rc;
}

typedef struct KeyList
{
	json_t	   *keys;			/* array of strings */
} KeyList;

static bool
collect_key(const ObjInfo *info, void *arg)
{
	json_array_append_new(((KeyList *) arg)->keys, json_string(info->key));
	return true;
}

/* a key of a version, after "versions/<id>/", that retirement deletes */
static bool
is_catalog_key(const char *rest)
{
	size_t		len = strlen(rest);

	if (strcmp(rest, "ducklake.duckdb") == 0 || strcmp(rest, "files.json") == 0)
		return true;
	return strncmp(rest, "catalogs/", 9) == 0 && strchr(rest + 9, '/') == NULL &&
		len > 9 + 7 && strcmp(rest + len - 7, ".duckdb") == 0;
}

/* a key of an incomplete version, after "versions/<id>/", that withdrawal deletes */
static bool
is_not_expired_json(const char *rest)
{
	return strcmp(rest, "expired.json") != 0;
}

static void
utc_now(char *out, size_t size)
{
	time_t		t = time(NULL);
	struct tm	tm;

	gmtime_r(&t, &tm);
	strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * the expired.json to write: the one there if it already says as much (a withdrawn
 * version stays withdrawn), else a new one; keys to redact added to it
 */
static json_t *
expired_record(json_t *existing, FdlRetirement how, const char *message, const char *const *redact)
{
	json_t	   *rec;
	char		now[32];

	if (existing && (how == FDL_EXPIRE ||
					 strcmp(json_string_value(json_object_get(existing, "reason")) ?: "", "withdrawn") == 0))
		rec = json_deep_copy(existing);
	else
	{
		utc_now(now, sizeof(now));
		rec = json_pack("{s:s, s:s}", "expired_at", now, "reason",
						how == FDL_EXPIRE ? "expired" : "withdrawn");
		if (existing && json_object_get(existing, "message"))
			json_object_set(rec, "message", json_object_get(existing, "message"));
	}
	if (message)
		json_object_set_new(rec, "message", json_string(message));
	for (size_t i = 0; how == FDL_WITHDRAW && redact && redact[i]; i++)
	{
		json_t	   *list = json_object_get(rec, "redacted"),
				   *k;
		size_t		j;
		bool		have = false;

		if (!json_is_array(list))
		{
			list = json_array();
			json_object_set_new(rec, "redacted", list);
		}
		json_array_foreach(list, j, k)
			have |= json_is_string(k) && strcmp(json_string_value(k), redact[i]) == 0;
		if (!have)
			json_array_append_new(list, json_string(redact[i]));
	}
	return rec;
}

/* take the keys expired.json lists out of version.json; its signature goes too */
static bool
redact_version(ObjectStore *os, const char *prefix, json_t *version, json_t *redacted, RlBuf *report,
			   char **errmsg)
{
	json_t	   *k;
	size_t		i;
	bool		changed = false;
	RlBuf		key;
	RlStatus	rc = RL_OK;

	if (json_array_size(redacted) == 0)
		return true;
	json_array_foreach(redacted, i, k)
	{
		const char *name = json_string_value(k);
		json_t	   *v = name ? json_object_get(version, name) : NULL;

		if (v == NULL || (strcmp(name, "message") == 0 && json_is_string(v) &&
						  json_string_length(v) == 0))
			continue;
		if (strcmp(name, "message") == 0)
			json_object_set_new(version, name, json_string(""));
		else
			json_object_del(version, name);
		rlbuf_printf(report, "took \"%s\" out of %sversion.json\n", name, prefix);
		changed = true;
	}
	rlbuf_init(&key);
	rlbuf_printf(&key, "%sversion.json", prefix);
	if (changed)
		rc = put_json(os, rlbuf_cstr(&key), version);
	if (rc == RL_OK)
	{
		ObjInfo		info;

		rlbuf_append_str(&key, ".sig");
		if (obj_head(os, rlbuf_cstr(&key), &info) == RL_OK)
		{
			rc = obj_delete(os, rlbuf_cstr(&key));
			if (rc == RL_OK)
				rlbuf_printf(report, "deleted %s (it signed the text before the withdrawal)\n",
							 rlbuf_cstr(&key));
		}
	}
	if (rc != RL_OK)
		failf(errmsg, "cannot rewrite %s: %s", rlbuf_cstr(&key), rl_last_error());
	rlbuf_free(&key);
	return rc == RL_OK;
}

/*
 * step 1: expired.json at key as it must be for how, written unless it already is;
 * *rec the record (new ref, NULL on failure)
 */
static bool
write_expired(ObjectStore *os, const char *key, FdlRetirement how, const char *message,
			  const char *const *redact, json_t **rec, RlBuf *report, char **errmsg)
{
	json_t	   *existing = NULL;
	RlStatus	rc = get_json(os, key, &existing);
	bool		ok = false;

	*rec = NULL;
	if (rc != RL_OK && rc != RL_NOT_FOUND)
		failf(errmsg, "cannot read %s: %s", key, rl_last_error());
	else
	{
		*rec = expired_record(existing, how, message, redact);
		ok = existing != NULL && json_equal(existing, *rec);
		if (ok)
			rlbuf_printf(report, "%s already says %s at %s\n", key,
						 json_string_value(json_object_get(*rec, "reason")),
						 json_string_value(json_object_get(*rec, "expired_at")) ?: "?");
		else if (put_json(os, key, *rec) != RL_OK)
			failf(errmsg, "cannot write %s: %s", key, rl_last_error());
		else
		{
			rlbuf_printf(report, "wrote %s (%s)\n", key, json_string_value(json_object_get(*rec, "reason")));
			ok = true;
		}
	}
	json_decref(existing);
	return ok;
}

/* the keys under prefix ("versions/<id>/"), in *keys (new ref) */
static bool
list_keys(ObjectStore *os, const char *prefix, json_t **keys, char **errmsg)
{
	KeyList		list = {json_array()};

	*keys = list.keys;
	if (obj_list(os, prefix, NULL, collect_key, &list) == RL_OK)
		return true;
	return failf(errmsg, "cannot list %s: %s", prefix, rl_last_error());
}

/* step 3: delete the keys under prefix that deletable() says retirement deletes */
static bool
delete_keys(ObjectStore *os, const char *prefix, bool (*deletable) (const char *rest), RlBuf *report,
			char **errmsg)
{
	json_t	   *keys,
			   *k;
	size_t		i;
	bool		ok = list_keys(os, prefix, &keys, errmsg);

	json_array_foreach(keys, i, k)
	{
		const char *name = json_string_value(k);

		if (!ok || !deletable(name + strlen(prefix)))
			continue;
		if (obj_delete(os, name) != RL_OK)
			ok = failf(errmsg, "cannot delete %s: %s", name, rl_last_error());
		else
			rlbuf_printf(report, "deleted %s\n", name);
	}
	json_decref(keys);
	return ok;
}

/*
 * withdraw a version that has no version.json, a publication cut short (or still
 * under way): expired.json first, so that it is gone even if its publisher is
 * still running and writes version.json after, then every other key of its
 * folder; nothing outside it (the data files it copied may be another version's)
 */
static bool
withdraw_incomplete(ObjectStore *os, const char *prefix, const char *message, bool pinned, RlBuf *report,
					char **errmsg)
{
	json_t	   *keys,
			   *rec = NULL;
	char		key[128];
	bool		ok = list_keys(os, prefix, &keys, errmsg);

	if (ok && json_array_size(keys) == 0 && !pinned)
		ok = failf(errmsg, "version %.36s is not in the repository (nothing under %s)",
				   prefix + strlen("versions/"), prefix);
	json_decref(keys);
	if (!ok)
		return false;
	rlbuf_printf(report, "%sversion.json is missing: a publication cut short\n", prefix);
	snprintf(key, sizeof(key), "%sexpired.json", prefix);
	ok = write_expired(os, key, FDL_WITHDRAW, message, NULL, &rec, report, errmsg) &&
		delete_keys(os, prefix, is_not_expired_json, report, errmsg);
	json_decref(rec);
	return ok;
}

bool
fdl_retire_version(ObjectStore *os, const char *id, FdlRetirement how, const char *message,
				   const char *const *redact, bool pinned, RlBuf *report, char **errmsg)
{
	char		prefix[64],
				key[128];
	json_t	   *version = NULL,
			   *rec = NULL;
	bool		ok = false;
	RlStatus	rc;

	*errmsg = NULL;
	if (!fdl_version_id_is_valid(id))
	{
		failf(errmsg, "\"%s\" is not a version id (a lower-case UUID such as "
			  "019a3c4e-7b21-7f3a-9c55-2f0d8e1a4b6c)", id);
		goto out;
	}
	for (size_t i = 0; how == FDL_WITHDRAW && redact && redact[i]; i++)
	{
		size_t		j = 0;

		while (fdl_redactable_keys[j] && strcmp(fdl_redactable_keys[j], redact[i]) != 0)
			j++;
		if (fdl_redactable_keys[j] == NULL)
		{
			failf(errmsg, "version.json's \"%s\" cannot be redacted (only message, inputs, changes "
				  "and annotations can)", redact[i]);
			goto out;
		}
	}
	snprintf(prefix, sizeof(prefix), "versions/%s/", id);
	snprintf(key, sizeof(key), "%sversion.json", prefix);
	rc = get_json(os, key, &version);
	if (rc == RL_NOT_FOUND && how == FDL_WITHDRAW)
	{
		ok = withdraw_incomplete(os, prefix, message, pinned, report, errmsg);
		goto out;
	}
	if (rc == RL_NOT_FOUND)
	{
		failf(errmsg, "version %s is not in the repository (no %s)%s", id, key,
			  pinned ? "; withdraw it to remove what its publication left" : "");
		goto out;
	}
	if (rc != RL_OK)
	{
		failf(errmsg, "cannot read %s: %s", key, rl_last_error());
		goto out;
	}
	if (!json_is_string(json_object_get(version, "id")) ||
		strcmp(json_string_value(json_object_get(version, "id")), id) != 0)
	{
		failf(errmsg, "%s names version \"%s\", not its directory's %s: refusing to change it", key,
			  json_string_value(json_object_get(version, "id")) ?: "(none)", id);
		goto out;
	}
	snprintf(key, sizeof(key), "%sexpired.json", prefix);

	/*
	 * 1. expired.json: from now on the version is gone for every reader; 2. the data
	 * withdrawn from version.json itself; 3. the catalogs and files.json
	 */
	ok = write_expired(os, key, how, message, redact, &rec, report, errmsg) &&
		redact_version(os, prefix, version, json_object_get(rec, "redacted"), report, errmsg) &&
		delete_keys(os, prefix, is_catalog_key, report, errmsg);
out:
	json_decref(version);
	json_decref(rec);
	return ok;
}

/* one version's line of the list, from the keys under its directory */
static json_t *
describe_version(ObjectStore *os, const char *id, bool has_version, bool has_catalog, bool has_expired)
{
	json_t	   *row = json_pack("{s:s}", "id", id),
			   *doc = NULL;
	char		key[128];
	const char *state = has_version && has_catalog ? "published" : "incomplete";

	snprintf(key, sizeof(key), "versions/%s/version.json", id);
	if (has_version && get_json(os, key, &doc) == RL_OK)
	{
		json_object_set(row, "seq", json_object_get(doc, "seq"));
		json_object_set(row, "created_at", json_object_get(doc, "created_at"));
		json_object_set(row, "snapshot", json_object_get(json_object_get(doc, "ducklake"), "snapshot_id"));
		json_decref(doc);
		doc = NULL;
	}
	snprintf(key, sizeof(key), "versions/%s/expired.json", id);
	if (has_expired && get_json(os, key, &doc) == RL_OK)
		state = strcmp(json_string_value(json_object_get(doc, "reason")) ?: "", "withdrawn") == 0 ?
			"withdrawn" : "expired";
	json_object_set_new(row, "state", json_string(state));
	json_decref(doc);
	return row;
}

json_t *
fdl_list_versions(ObjectStore *os, char **errmsg)
{
	KeyList		keys = {json_array()};
	json_t	   *out = json_array(),
			   *k;
	size_t		i;
	char		id[37] = "";
	bool		has_version = false,
				has_catalog = false,
				has_expired = false;

	*errmsg = NULL;
	if (obj_list(os, "versions/", NULL, collect_key, &keys) != RL_OK)
	{
		failf(errmsg, "cannot list versions/: %s", rl_last_error());
		json_decref(keys.keys);
		json_decref(out);
		return NULL;
	}
	/* keys come in order, so a version's keys are together */
	json_array_foreach(keys.keys, i, k)
	{
		const char *name = json_string_value(k) + strlen("versions/");
		const char *slash = strchr(name, '/');
		char		this_id[37] = "";

		if (slash && slash - name == 36)
			memcpy(this_id, name, 36);
		if (!fdl_version_id_is_valid(this_id))
			continue;			/* not a version's directory */
		if (strcmp(this_id, id) != 0)
		{
			if (id[0])
				json_array_append_new(out, describe_version(os, id, has_version, has_catalog, has_expired));
			memcpy(id, this_id, sizeof(id));
			has_version = has_catalog = has_expired = false;
		}
		has_version |= strcmp(slash, "/version.json") == 0;
		has_catalog |= strcmp(slash, "/ducklake.duckdb") == 0;
		has_expired |= strcmp(slash, "/expired.json") == 0;
	}
	if (id[0])
		json_array_append_new(out, describe_version(os, id, has_version, has_catalog, has_expired));
	json_decref(keys.keys);
	return out;
}
