/*
 * fdl_server.c: the pins of published versions, asked of the server through libpq
 * (admin/fdl_server.h). Only rocklake_publish_pins() and rocklake_publish_unpin()
 * are called, so the commands need nothing of the server but a superuser's
 * connection to the lake's database; unpinning twice is harmless (the second
 * finds no pin), which keeps expire and withdraw idempotent.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/fdl_server.h"

/* *errmsg: "what: the server's message" */
static void
server_error(PGconn *conn, const char *what, char **errmsg)
{
	const char *msg = PQerrorMessage(conn);
	size_t		len = strlen(msg);

	while (len > 0 && msg[len - 1] == '\n')
		len--;
	if (asprintf(errmsg, "%s: %.*s", what, (int) len, msg) < 0)
		*errmsg = strdup("out of memory");
}

PGconn *
fdl_server_connect(const char *conninfo, char **errmsg)
{
	PGconn	   *conn = PQconnectdb(conninfo);

	if (PQstatus(conn) == CONNECTION_OK)
		return conn;
	server_error(conn, "could not connect to the server", errmsg);
	PQfinish(conn);
	return NULL;
}

/* the result of a query giving one row of one value, or NULL with *errmsg */
static PGresult *
one_value(PGconn *conn, const char *sql, const char *param, char **errmsg)
{
	PGresult   *res = PQexecParams(conn, sql, param ? 1 : 0, NULL, &param, NULL, NULL, 0);

	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 && PQnfields(res) == 1)
		return res;
	server_error(conn, sql, errmsg);
	PQclear(res);
	return NULL;
}

json_t *
fdl_server_pins(PGconn *conn, char **errmsg)
{
	PGresult   *res = one_value(conn, "SELECT rocklake_publish_pins()", NULL, errmsg);
	json_t	   *list,
			   *pin,
			   *out;
	json_error_t jerr;
	size_t		i;

	if (res == NULL)
		return NULL;
	list = json_loads(PQgetvalue(res, 0, 0), 0, &jerr);
	PQclear(res);
	if (!json_is_array(list))
	{
		json_decref(list);
		*errmsg = strdup("rocklake_publish_pins() did not return a JSON array");
		return NULL;
	}
	out = json_object();
	json_array_foreach(list, i, pin)
	{
		const char *id = json_string_value(json_object_get(pin, "version_id"));

		if (id)
			json_object_set(out, id, json_object_get(pin, "snapshot_id"));
	}
	json_decref(list);
	return out;
}

int
fdl_server_unpin(PGconn *conn, const char *id, char **errmsg)
{
	PGresult   *res = one_value(conn, "SELECT rocklake_publish_unpin($1::text)", id, errmsg);
	int			found;

	if (res == NULL)
		return -1;
	found = strcmp(PQgetvalue(res, 0, 0), "t") == 0;
	PQclear(res);
	return found;
}
