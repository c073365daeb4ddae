/*
 * publish_pin.c: pins of published snapshots written to the registry
 * (tcop/publish_pin.h, executor/publish.h).
 */
#include <inttypes.h>

#include "catalog/catalog_cache.h"
#include "executor/publish.h"
#include "tcop/dbcommands.h"
#include "tcop/publish_pin.h"
#include "tcop/xact.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

/* the session database's name as a SQL literal */
static char *
database_literal(void)
{
	char	   *quoted = sqlite3_mprintf("%Q", MyDatabaseName);
	char	   *out = pstrdup(quoted);

	sqlite3_free(quoted);
	return out;
}

static void
write_pin(int64_t snapshot_id, const char *version_id, bool pin)
{
	PreventInTransactionBlock(pin ? "rocklake_publish_pin()" : "rocklake_publish_unpin()");
	if (pin)
		commit_to_registry(psprintf("INSERT INTO " CACHE_PUBLISH_PIN_TABLE " (datname, snapshot_id, version_id)"
									" VALUES (%s, %" PRId64 ", ?1)", database_literal(), snapshot_id), version_id);
	else
		commit_to_registry(psprintf("DELETE FROM " CACHE_PUBLISH_PIN_TABLE " WHERE datname = %s AND version_id = ?1",
									database_literal()), version_id);
}

void
InitPublishPins(void)
{
	SetPublishPinWriter(write_pin);
}
