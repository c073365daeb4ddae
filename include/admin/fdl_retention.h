/*
 * fdl_retention.h: retention and withdrawal of published versions, and their list
 * (doc/publishing.md, "Retention and withdrawal").
 *
 * A repository (a directory or s3://bucket/prefix) holds each version under
 * versions/<id>/, written once. Past its retention a version is expired; a
 * version that must not be read any more is withdrawn. Either way the only
 * changes are:
 *   1. versions/<id>/expired.json is written first:
 *        {"expired_at": "<UTC, ISO 8601>", "reason": "expired" | "withdrawn",
 *         "message": "<why, --reason>" (if given),
 *         "redacted": ["<version.json key>", ...] (a withdrawal that took data
 *                                                  out of version.json)}
 *      A reader treats a version with expired.json as gone, so a crash after this
 *      step leaves a version that is gone, and running the command again
 *      finishes the rest;
 *   2. on withdrawal, the keys named in "redacted" are taken out of version.json
 *      (message is emptied, being required; inputs, changes and annotations are
 *      removed) and version.json.sig, which signed the old text, is deleted;
 *   3. the version's catalogs (ducklake.duckdb, catalogs/<format>.duckdb) and
 *      files.json are deleted.
 * Nothing else is touched: version.json, dataset.json and the data files stay
 * (other versions read the same data files). A withdrawn version stays withdrawn:
 * expiring it again changes nothing but finishing the deletions.
 */
#ifndef RL_FDL_RETENTION_H
#define RL_FDL_RETENTION_H

#include <stdbool.h>

#include <jansson.h>

#include "common/rl_buffer.h"
#include "storage/objstore.h"

typedef enum FdlRetirement
{
	FDL_EXPIRE,
	FDL_WITHDRAW
} FdlRetirement;

/* a version id: a lower-case, hyphenated UUID (FDL 0.1 writes UUIDv7s) */
bool		fdl_version_id_is_valid(const char *id);

/* the version.json keys a withdrawal may take out, NULL-terminated */
extern const char *const fdl_redactable_keys[];

/*
 * Expire or withdraw version id in the repository os. message: the --reason text
 * or NULL; redact: version.json keys to take out (withdrawal only), NULL or
 * NULL-terminated; pinned: whether the server holds a pin of id (the caller
 * unpins it after). What was done is appended to report, a line each. false with
 * *errmsg (malloc'd) on failure; nothing is changed when the version is not
 * there or its version.json names another id.
 *
 * Withdrawing a version that has no version.json (a publication cut short) writes
 * its expired.json and deletes every other key of versions/<id>/, and nothing
 * else; one with no key at all is refused unless pinned. Expiry refuses it.
 */
bool		fdl_retire_version(ObjectStore *os, const char *id, FdlRetirement how,
							   const char *message, const char *const *redact, bool pinned,
							   RlBuf *report, char **errmsg);

/*
 * Every version of the repository, by id: [{"id", "seq", "created_at",
 * "snapshot", "state"}], state one of "published" (version.json and its catalog
 * there), "expired", "withdrawn" (expired.json's reason) or "incomplete"
 * (version.json or the catalog missing: a publication under way or cut short).
 * NULL with *errmsg on failure.
 */
json_t	   *fdl_list_versions(ObjectStore *os, char **errmsg);

#endif
