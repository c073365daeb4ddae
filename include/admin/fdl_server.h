/*
 * fdl_server.h: what rocklake-admin's commands on a repository (versions, expire,
 * withdraw with --server CONNINFO) ask the server, through libpq, about the pins of
 * published versions (doc/publishing.md, "The expiry guard").
 *
 * A publisher pins its snapshot before it writes anything; a version whose
 * publisher was killed therefore may hold a pin and have no version.json, or no
 * folder at all. rocklake_publish_pins() lists the pins of the connection's
 * database, so CONNINFO names the lake's database, as a superuser.
 */
#ifndef RL_FDL_SERVER_H
#define RL_FDL_SERVER_H

#include <jansson.h>
#include <libpq-fe.h>

/* a connection to conninfo; NULL with *errmsg (malloc'd) if none */
PGconn	   *fdl_server_connect(const char *conninfo, char **errmsg);

/* the database's pins as {version id: snapshot id}; NULL with *errmsg */
json_t	   *fdl_server_pins(PGconn *conn, char **errmsg);

/* remove version id's pin: 1 if there was one, 0 if not, -1 with *errmsg */
int			fdl_server_unpin(PGconn *conn, const char *id, char **errmsg);

#endif
