/*
 * publish.h: the server's side of publishing (doc/publishing.md, "The expiry guard").
 *
 * rocklake-admin publish pins the snapshot it publishes with
 * rocklake_publish_pin(snapshot_id, version_id); withdrawing or expiring the version
 * unpins it with rocklake_publish_unpin(version_id). A pin is a row of the registry
 * table rl_publish_pin (catalog/catalog_cache.h), of the database by name, which
 * DuckLake never sees. While a snapshot is pinned, a DELETE from the database's
 * ducklake_snapshot (what ducklake_expire_snapshots runs) that would remove it fails
 * with 55000 naming the version: the analyser adds rocklake_publish_guard(snapshot_id)
 * to the DELETE's condition (parser/parse_modify.c).
 *
 * The registry is written through tcop's commit to the registry, which the executor
 * does not call: tcop hands the writing function over at backend start.
 */
#ifndef RL_PUBLISH_H
#define RL_PUBLISH_H

#include <stdbool.h>
#include <stdint.h>

/* insert (pin) or delete the pin of version_id of the session's database, or ERROR */
typedef void (*PublishPinWriter) (int64_t snapshot_id, const char *version_id, bool pin);

void		SetPublishPinWriter(PublishPinWriter writer);

/* the name of the guard function the analyser calls on each deleted snapshot row */
#define PUBLISH_GUARD_FUNCTION "rocklake_publish_guard"

#endif
