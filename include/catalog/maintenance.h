/*
 * maintenance.h: the session's requests for maintenance of its database's store,
 * which only the writer may do (catalog/writer.h, Maintain): CHECKPOINT,
 * rocklake_compact(), rocklake_gc().
 */
#ifndef RL_MAINTENANCE_H
#define RL_MAINTENANCE_H

/*
 * Run task (MAINTAIN_CHECKPOINT, _COMPACT or _GC) in the writer on the session's
 * database and wait for it; the JSON summary of what it did (palloc'd), or ERROR.
 */
char	   *RequestStoreMaintenance(char task);

#endif
