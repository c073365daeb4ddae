/*
 * datadir.h: creating a data directory, the part of initdb RockLake needs.
 *
 * A data directory holds rocklake.conf, rocklake_hba.conf, PG_VERSION (pg_ctl
 * refuses a directory without it), the local store (store/, unless the store
 * setting points elsewhere) and, while a server runs, postmaster.pid,
 * postmaster.opts and the writer's socket.
 */
#ifndef RL_DATADIR_H
#define RL_DATADIR_H

#include <stdbool.h>

/* Whether datadir holds a RockLake data directory (PG_VERSION and rocklake.conf). */
bool		DataDirectoryIsInitialized(const char *datadir);

/*
 * Create datadir (mode 0700) if missing and write the files an empty one needs.
 * Refuses (FATAL) a directory that is neither empty nor initialized. superuser
 * (-U), if not NULL, names the bootstrap superuser (catalog/authid.h).
 */
void		InitDataDirectory(const char *datadir, const char *superuser);

#endif
