/*
 * listen.c: the postmaster's listening sockets (postmaster_internal.h): one per
 * address listen_addresses resolves to on port, and the Unix-domain socket in each
 * of unix_socket_directories, with its lock file; all non-blocking, polled by the
 * postmaster's event loop.
 */
#define _GNU_SOURCE				/* accept4, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "catalog/catalog_cache.h"
#include "catalog/commit_horizon.h"
#include "catalog/writer.h"
#include "common/ulid.h"
#include "libpq/auth.h"
#include "libpq/pqcomm.h"
#include "libpq/pqformat.h"
#include "postmaster/pidfile.h"
#include "postmaster/postmaster.h"
#include "postmaster/postmaster_internal.h"
#include "tcop/backend.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/miscadmin.h"
#include "utils/rl_signal.h"

int			ListenSockets[MAXLISTEN];
bool		ListenIsUnix[MAXLISTEN];
int			NumListenSockets;

/* ---------------------------------------------------------------- listen sockets */

/*
 * add_listen_socket -- remember a listening socket (non-blocking)
 */
static void
add_listen_socket(int sock, bool is_unix)
{
	if (NumListenSockets >= MAXLISTEN)
		ereport(FATAL, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("too many listen sockets (maximum %d)", MAXLISTEN));
	fcntl(sock, F_SETFL, O_NONBLOCK);
	ListenSockets[NumListenSockets] = sock;
	ListenIsUnix[NumListenSockets] = is_unix;
	NumListenSockets++;
}

/*
 * listen_tcp -- bind every address one listen_addresses entry resolves to;
 * returns how many sockets were made
 */
static int
listen_tcp(const char *host, int port, int backlog)
{
	struct addrinfo hints,
			   *res,
			   *ai;
	char		portstr[16];
	int			made = 0;
	int			rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	snprintf(portstr, sizeof(portstr), "%d", port);
	rc = getaddrinfo(strcmp(host, "*") == 0 ? NULL : host, portstr, &hints, &res);
	if (rc != 0)
	{
		ereport(WARNING, errmsg("could not translate host name \"%s\", service \"%s\" to address: %s",
								host, portstr, gai_strerror(rc)));
		return 0;
	}
	for (ai = res; ai; ai = ai->ai_next)
	{
		const char *family = ai->ai_family == AF_INET6 ? "IPv6" : "IPv4";
		char		addr[NI_MAXHOST];
		int			one = 1;
		int			sock;

		if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6)
			continue;
		getnameinfo(ai->ai_addr, ai->ai_addrlen, addr, sizeof(addr), NULL, 0, NI_NUMERICHOST);
		sock = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (sock < 0)
		{
			ereport(LOG, errmsg("could not create %s socket for address \"%s\": %s",
								family, addr, strerror(errno)));
			continue;
		}
		setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6)
			setsockopt(sock, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
		if (bind(sock, ai->ai_addr, ai->ai_addrlen) < 0 || listen(sock, backlog) < 0)
		{
			ereport(WARNING, errmsg("could not bind %s address \"%s\": %s", family, addr,
									strerror(errno)),
					errhint("Is another postmaster already running on port %d?", port));
			close(sock);
			continue;
		}
		ereport(LOG, errmsg("listening on %s address \"%s\", port %d", family, addr, port));
		add_listen_socket(sock, false);
		made++;
	}
	freeaddrinfo(res);
	return made;
}

/*
 * listen_unix -- the socket .s.PGSQL.<port> in one directory, with its lock file
 */
static bool
listen_unix(const char *dir, int port, int backlog)
{
	struct sockaddr_un addr;
	char		path[sizeof(addr.sun_path) + 64];
	int			sock;

	snprintf(path, sizeof(path), "%s/.s.PGSQL.%d", dir, port);
	if (strlen(path) >= sizeof(addr.sun_path))
	{
		ereport(LOG, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("Unix-domain socket path \"%s\" is too long (maximum %d bytes)", path,
					   (int) sizeof(addr.sun_path) - 1));
		return false;
	}
	CreateSocketLockFile(path, dir);
	unlink(path);				/* stale: the lock file is ours */
	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	strcpy(addr.sun_path, path);
	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock < 0 || bind(sock, (struct sockaddr *) &addr, sizeof(addr)) < 0)
	{
		ereport(LOG, errmsg("could not bind Unix address \"%s\": %s", path, strerror(errno)));
		if (sock >= 0)
			close(sock);
		return false;
	}
	RememberSocketFile(path);
	if (chmod(path, (mode_t) GetConfigInt("unix_socket_permissions")) < 0 ||
		listen(sock, backlog) < 0)
	{
		ereport(LOG, errmsg("could not listen on Unix socket \"%s\": %s", path, strerror(errno)));
		close(sock);
		return false;
	}
	ereport(LOG, errmsg("listening on Unix socket \"%s\"", path));
	add_listen_socket(sock, true);
	return true;
}

/*
 * next_list_item -- split a comma-separated list in place; NULL at the end
 */
static char *
next_list_item(char **cursor)
{
	char	   *item;
	char	   *end;

	while (**cursor == ' ' || **cursor == ',' || **cursor == '\t')
		(*cursor)++;
	if (**cursor == '\0')
		return NULL;
	item = *cursor;
	end = item + strcspn(item, ",");
	*cursor = *end ? end + 1 : end;
	*end = '\0';
	while (end > item && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return item;
}

/*
 * OpenListenSockets -- TCP per listen_addresses, Unix per unix_socket_directories
 */
void
OpenListenSockets(int port)
{
	char	   *addrs = strdup(GetConfigOption("listen_addresses"));
	char	   *dirs = strdup(GetConfigOption("unix_socket_directories"));
	char	   *cursor,
			   *item;
	char		first_addr[256] = "";
	char		first_dir[PATH_MAX] = "";
	int			backlog = GetConfigInt("max_connections") * 2;
	bool		want_tcp = false,
				want_unix = false;
	int			tcp_made = 0,
				unix_made = 0;

	if (addrs == NULL || dirs == NULL)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	if (backlog < 128)
		backlog = 128;

	cursor = dirs;
	while ((item = next_list_item(&cursor)) != NULL)
	{
		want_unix = true;
		if (listen_unix(item, port, backlog))
		{
			if (unix_made++ == 0)
				snprintf(first_dir, sizeof(first_dir), "%s", item);
		}
		else
			ereport(WARNING, errmsg("could not create Unix-domain socket in directory \"%s\"", item));
	}
	if (want_unix && unix_made == 0)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR), errmsg("could not create any Unix-domain sockets"));
	AddToDataDirLockFile(LOCK_FILE_LINE_SOCKET_DIR, first_dir);

	cursor = addrs;
	while ((item = next_list_item(&cursor)) != NULL)
	{
		int			made;

		want_tcp = true;
		made = listen_tcp(item, port, backlog);
		if (made > 0 && tcp_made == 0)
			snprintf(first_addr, sizeof(first_addr), "%s", item);
		tcp_made += made;
	}
	if (want_tcp && tcp_made == 0)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR), errmsg("could not create any TCP/IP sockets"));
	if (NumListenSockets == 0)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR), errmsg("no socket created for listening"));
	AddToDataDirLockFile(LOCK_FILE_LINE_LISTEN_ADDR, first_addr);
	free(addrs);
	free(dirs);
}
