/*
 * funcs_admin.c: the builtin functions that describe the server rather than
 * compute on values: the size of a database (the bytes of its catalog cache file
 * and that file's write-ahead log: what the database takes on this server), the
 * postmaster's start, and both ends of the session's connection (NULL on a Unix
 * socket, as PostgreSQL gives them). The sizes of relations are lookups in the
 * relation_size relation (catalog/pg_stat.h), in funcs.c's table.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "catalog/catalog_cache.h"
#include "executor/funcs_internal.h"
#include "libpq/pqcomm.h"
#include "utils/backend_status.h"

/* database_size -- the bytes of datid's cache and its WAL; -1 if it has no cache */
static int64_t
database_size(uint32_t datid)
{
	char		path[4096];
	struct stat st;
	int64_t		size;

	catalog_cache_path(path, sizeof(path), DataDir, datid);
	if (stat(path, &st) != 0)
		return -1;
	size = (int64_t) st.st_size;
	if (strlen(path) + 5 <= sizeof(path) && stat(strcat(path, "-wal"), &st) == 0)
		size += (int64_t) st.st_size;
	return size;
}

Value
f_pg_database_size_name(ExecState *es, const Value *args, int nargs)
{
	uint32_t	datid;
	RlStatus	rc = catalog_find_database(DataDir, args[0].u.s.data, &datid);
	int64_t		size;

	if (rc == RL_NOT_FOUND)
		ereport(ERROR, errcode(ERRCODE_INVALID_CATALOG_NAME),
				errmsg("database \"%s\" does not exist", args[0].u.s.data));
	if (rc != RL_OK)
		ereport(ERROR, errcode(ERRCODE_IO_ERROR),
				errmsg("could not read the database registry: %s", rl_last_error()));
	size = database_size(datid);
	return size < 0 ? typio_null(INT8OID) : typio_int(INT8OID, size);
}

Value
f_pg_database_size_oid(ExecState *es, const Value *args, int nargs)
{
	int64_t		size = args[0].u.i > 0 && args[0].u.i <= UINT32_MAX ? database_size((uint32_t) args[0].u.i) : -1;

	return size < 0 ? typio_null(INT8OID) : typio_int(INT8OID, size);
}

Value
f_pg_postmaster_start_time(ExecState *es, const Value *args, int nargs)
{
	return typio_int(TIMESTAMPTZOID, PostmasterStartTimestamp());
}

/* connection_end -- the session's address (the server's end: local) as inet, or its port */
static Value
connection_end(bool local, bool port)
{
	struct sockaddr_storage addr;
	socklen_t	len = sizeof(addr);
	char		host[INET6_ADDRSTRLEN];
	int			rc;

	if (MyProcPort == NULL || MyProcPort->is_unix)
		return typio_null(port ? INT4OID : INETOID);
	rc = local ? getsockname(MyProcPort->sock, (struct sockaddr *) &addr, &len)
		: getpeername(MyProcPort->sock, (struct sockaddr *) &addr, &len);
	if (rc != 0 || (addr.ss_family != AF_INET && addr.ss_family != AF_INET6))
		return typio_null(port ? INT4OID : INETOID);
	if (addr.ss_family == AF_INET)
	{
		struct sockaddr_in *in = (struct sockaddr_in *) &addr;

		if (port)
			return typio_int(INT4OID, ntohs(in->sin_port));
		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
	}
	else
	{
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) &addr;

		if (port)
			return typio_int(INT4OID, ntohs(in6->sin6_port));
		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
	}
	return typio_input(INETOID, host, -1);
}

Value
f_inet_client_addr(ExecState *es, const Value *args, int nargs)
{
	return connection_end(false, false);
}

Value
f_inet_client_port(ExecState *es, const Value *args, int nargs)
{
	return connection_end(false, true);
}

Value
f_inet_server_addr(ExecState *es, const Value *args, int nargs)
{
	return connection_end(true, false);
}

Value
f_inet_server_port(ExecState *es, const Value *args, int nargs)
{
	return connection_end(true, true);
}
