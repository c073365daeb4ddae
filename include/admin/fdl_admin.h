/*
 * fdl_admin.h: rocklake-admin's commands on published versions and their
 * descriptions (doc/rocklake-admin.1, doc/publishing.md):
 *
 *   versions      REPO                              list the versions and their state
 *   expire        REPO VERSION_ID [--reason TEXT]   retire a version past its retention
 *   withdraw      REPO VERSION_ID [--reason TEXT] [--redact KEY]...
 *                                                   retire a version that must not be read
 *   dataset-check DIR --catalog FILE                check a dataset description offline and
 *                                                   print the dataset.json it makes
 *
 * REPO is a directory or s3://bucket/prefix (admin/fdl_retention.h has what the
 * commands change); DIR holds dataset.yml and *.table.yml (admin/fdl_dataset.h).
 */
#ifndef RL_FDL_ADMIN_H
#define RL_FDL_ADMIN_H

#include <stdbool.h>

/* one of the commands above */
bool		fdl_admin_is_command(const char *command);

/* run one: argv[0] is the command; returns the exit status (2: bad usage) */
int			fdl_admin_main(int argc, char **argv);

#endif
