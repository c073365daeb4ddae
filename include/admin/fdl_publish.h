/*
 * fdl_publish.h: rocklake-admin publish, which publishes a database of a running
 * RockLake server as a frozen version of a lake (FDL 0.1) into a repository, a
 * local directory or s3://bucket/prefix (doc/publishing.md).
 *
 * The publisher is only a client of the server: it reads the lake through SQL (libpq
 * for its own questions, DuckDB's postgres extension for the rows it copies) and
 * never opens the store, so the server stays the store's one writer. It pins the
 * snapshot it publishes with SELECT rocklake_publish_pin(snapshot, version) before
 * reading it, so that the server refuses to expire it (doc/publishing.md, "The
 * expiry guard").
 *
 * A version is the folder versions/<id>/ of the repository, <id> a lowercase
 * UUIDv7; the data files of every version share the repository's data folder.
 * Every file of the version is written first and version.json last, with a
 * create-if-absent put: a folder without version.json is not a version, so a
 * publisher killed at any point leaves nothing a reader takes for one.
 */
#ifndef RL_FDL_PUBLISH_H
#define RL_FDL_PUBLISH_H

/* argv[0] is "publish"; returns the process exit code (0 published, 1 failed, 2 usage) */
int			fdl_publish_main(int argc, char **argv);

#endif
