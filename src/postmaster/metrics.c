/*
 * metrics.c: the Prometheus endpoint (postmaster/metrics.h): its shared counters,
 * the listening socket the postmaster binds, and the process that answers scrapes.
 *
 * The process serves one connection at a time with short socket timeouts: a
 * scrape is a few kilobytes, and a client that does not send its request or read
 * the answer within them is dropped. It only reads shared memory, never writes
 * it, so killing it at any moment leaves nothing to repair.
 */
#define _GNU_SOURCE				/* accept4 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "catalog/commit_horizon.h"
#include "common/rl_buffer.h"
#include "postmaster/metrics.h"
#include "utils/backend_status.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/recovery.h"

/* how long a scraper may take to send its request or read the answer */
#define METRICS_IO_TIMEOUT_S 5
/* the longest request read; the rest of a longer one is not looked at */
#define METRICS_REQUEST_MAX 8192

SharedMetrics *Metrics;

const uint64_t group_size_bounds[GROUP_SIZE_BOUNDS] = {1, 2, 4, 8, 16, 32, 64, 128, 256};

void
MetricsShmemInit(void)
{
	void	   *p;

	if (Metrics != NULL)
		return;
	p = mmap(NULL, sizeof(SharedMetrics), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY),
				errmsg("could not create shared memory for the metrics: %s", strerror(errno)));
	Metrics = p;
}

void
metrics_count_conflict(const char *sqlstate)
{
	uint64_t	code = 0;

	if (Metrics == NULL || strlen(sqlstate) != 5)
		return;
	memcpy(&code, sqlstate, 5);
	for (int i = 0; i < METRICS_CONFLICT_SLOTS; i++)
	{
		ConflictCount *c = &Metrics->conflicts[i];
		uint64_t	expected = 0;

		if (__atomic_load_n(&c->code, __ATOMIC_ACQUIRE) == code ||
			__atomic_compare_exchange_n(&c->code, &expected, code, false, __ATOMIC_SEQ_CST,
										__ATOMIC_SEQ_CST) || expected == code)
		{
			__atomic_add_fetch(&c->count, 1, __ATOMIC_RELAXED);
			return;
		}
	}
}

/* ---------------------------------------------------------------- the socket */

int
MetricsListen(void)
{
	const char *setting = GetConfigOption("metrics_listen_address");
	char		host[256];
	const char *colon = strrchr(setting, ':');
	const char *port;
	size_t		hostlen;
	struct addrinfo hints = {0},
			   *res;
	int			rc;
	int			sock = -1;
	int			err = 0;

	if (setting[0] == '\0')
		return -1;
	/* host:port, [v6-address]:port */
	hostlen = colon ? (size_t) (colon - setting) : 0;
	if (hostlen >= 2 && setting[0] == '[' && setting[hostlen - 1] == ']')
	{
		setting++;
		hostlen -= 2;
	}
	port = colon ? colon + 1 : "";
	if (colon == NULL || hostlen == 0 || hostlen >= sizeof(host) || port[0] == '\0' ||
		strspn(port, "0123456789") != strlen(port))
		ereport(FATAL, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("invalid value for parameter \"metrics_listen_address\": \"%s\"",
					   GetConfigOption("metrics_listen_address")),
				errdetail("The value must be host:port, for example 127.0.0.1:9187."));
	memcpy(host, setting, hostlen);
	host[hostlen] = '\0';
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	rc = getaddrinfo(strcmp(host, "*") == 0 ? NULL : host, port, &hints, &res);
	if (rc != 0)
		ereport(FATAL, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("could not translate host name \"%s\", service \"%s\" to address: %s",
					   host, port, gai_strerror(rc)));
	for (struct addrinfo *ai = res; ai && sock < 0; ai = ai->ai_next)
	{
		int			one = 1;

		sock = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (sock < 0)
		{
			err = errno;
			continue;
		}
		setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(sock, ai->ai_addr, ai->ai_addrlen) < 0 || listen(sock, 16) < 0)
		{
			err = errno;
			close(sock);
			sock = -1;
		}
	}
	freeaddrinfo(res);
	if (sock < 0)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR),
				errmsg("could not bind metrics address \"%s\": %s",
					   GetConfigOption("metrics_listen_address"), strerror(err)));
	ereport(LOG, errmsg("metrics endpoint listening on \"%s\"", GetConfigOption("metrics_listen_address")));
	return sock;
}

/* ---------------------------------------------------------------- the text format */

static uint64_t
load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static void
family(RlBuf *out, const char *name, const char *type, const char *help)
{
	rlbuf_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/*
 * a counter or gauge without labels; a counter's HELP and TYPE name it in full,
 * _total included, as the 0.0.4 format has it
 */
static void
scalar(RlBuf *out, const char *name, const char *type, const char *help, uint64_t value)
{
	family(out, name, type, help);
	rlbuf_printf(out, "%s %llu\n", name, (unsigned long long) value);
}

/* a histogram; scale divides values and bounds (1e6: microseconds shown as seconds) */
static void
histogram(RlBuf *out, const char *name, const char *help, const StatsHistogram *h,
		  const uint64_t *bounds, int nbounds, double scale)
{
	uint64_t	cumulative = 0;

	family(out, name, "histogram", help);
	for (int i = 0; i <= nbounds; i++)
	{
		cumulative += load(&h->bucket[i]);
		if (i < nbounds)
			rlbuf_printf(out, "%s_bucket{le=\"%g\"} %llu\n", name, (double) bounds[i] / scale,
						 (unsigned long long) cumulative);
		else
			rlbuf_printf(out, "%s_bucket{le=\"+Inf\"} %llu\n", name, (unsigned long long) cumulative);
	}
	/* the count is the buckets' total, so that a scrape in mid-observation agrees with itself */
	rlbuf_printf(out, "%s_sum %.6f\n%s_count %llu\n", name, (double) load(&h->sum) / scale, name,
				 (unsigned long long) cumulative);
}

static void
connections(RlBuf *out)
{
	static const char *const states[] = {
		[STATE_IDLE] = "idle", [STATE_RUNNING] = "active",
		[STATE_IDLEINTRANSACTION] = "idle_in_transaction",
		[STATE_IDLEINTRANSACTION_ABORTED] = "idle_in_transaction_aborted"
	};
	int			counts[STATE_IDLEINTRANSACTION_ABORTED + 1] = {0};
	int			max = BackendStatusSlots();
	BackendStatus *st = malloc(sizeof(BackendStatus) * (size_t) (max > 0 ? max : 1));
	int			n = st ? BackendStatusSnapshot(st, max) : 0;

	for (int i = 0; i < n; i++)
		if (st[i].kind == BACKEND_KIND_CLIENT && st[i].state <= STATE_IDLEINTRANSACTION_ABORTED)
			counts[st[i].state]++;
	free(st);
	family(out, "rocklake_connections", "gauge", "Client connections by state.");
	for (int s = STATE_IDLE; s <= STATE_IDLEINTRANSACTION_ABORTED; s++)
		rlbuf_printf(out, "rocklake_connections{state=\"%s\"} %d\n", states[s], counts[s]);
}

static void
render(RlBuf *out)
{
	const SharedMetrics *m = Metrics;
	const StorageStats *s = &m->storage;

	scalar(out, "rocklake_commits_total", "counter", "Transactions the writer committed.", load(&m->commits));
	histogram(out, "rocklake_commit_group_size", "Transactions committed together in one WAL object.",
			  &m->group_size, group_size_bounds, GROUP_SIZE_BOUNDS, 1);
	histogram(out, "rocklake_commit_duration_seconds",
			  "Time the writer took to commit a group: cache apply, store write and cache commit.",
			  &m->commit_us, latency_bounds_us, LATENCY_BOUNDS, 1e6);
	histogram(out, "rocklake_store_write_duration_seconds", "Time to write a group to the store.",
			  &m->store_write_us, latency_bounds_us, LATENCY_BOUNDS, 1e6);
	histogram(out, "rocklake_cache_lag_seconds",
			  "Time from a group's write to the store until new snapshots see it in the catalog cache.",
			  &m->cache_lag_us, latency_bounds_us, LATENCY_BOUNDS, 1e6);
	histogram(out, "rocklake_wal_put_duration_seconds",
			  "Time of the WAL object's PUT in a store write (with its fsync in a local store).",
			  &s->wal_put_us, latency_bounds_us, LATENCY_BOUNDS, 1e6);
	family(out, "rocklake_commit_conflicts_total", "counter", "Commits the writer refused, by SQLSTATE.");
	for (int i = 0; i < METRICS_CONFLICT_SLOTS; i++)
	{
		uint64_t	code = __atomic_load_n(&m->conflicts[i].code, __ATOMIC_ACQUIRE);
		char		sqlstate[9] = {0};

		if (code == 0)
			continue;
		memcpy(sqlstate, &code, 8);
		rlbuf_printf(out, "rocklake_commit_conflicts_total{sqlstate=\"%.5s\"} %llu\n", sqlstate,
					 (unsigned long long) load(&m->conflicts[i].count));
	}
	connections(out);
	family(out, "rocklake_objstore_requests_total", "counter", "Object-store requests, by operation.");
	for (int op = 0; op < OBJ_OP_COUNT; op++)
		rlbuf_printf(out, "rocklake_objstore_requests_total{op=\"%s\"} %llu\n", obj_op_name(op),
					 (unsigned long long) load(&s->requests[op]));
	family(out, "rocklake_objstore_errors_total", "counter",
		   "Object-store requests that did not answer OK, by operation and kind (not_found and precondition are expected answers too).");
	for (int op = 0; op < OBJ_OP_COUNT; op++)
		for (int st = RL_OK + 1; st < RL_STATUS_COUNT; st++)
			if (load(&s->errors[op][st]) > 0)
				rlbuf_printf(out, "rocklake_objstore_errors_total{op=\"%s\",kind=\"%s\"} %llu\n",
							 obj_op_name(op), rl_status_label(st), (unsigned long long) load(&s->errors[op][st]));
	scalar(out, "rocklake_objstore_retries_total", "counter",
		   "S3 requests sent again after a transient failure (409, 5xx, network, clock skew).",
		   load(&s->s3_retries));
	scalar(out, "rocklake_store_ssts", "gauge", "SSTs the stores' current manifests reference.",
		  load(&m->store_ssts));
	scalar(out, "rocklake_store_sst_bytes", "gauge", "Bytes of the SSTs the stores' current manifests reference.",
		  load(&m->store_sst_bytes));
	scalar(out, "rocklake_store_wal_objects", "gauge", "WAL objects (commits, and the fence a writer leaves at open) newer than the last flush into SSTs.",
		  load(&m->store_wal_objects));
	scalar(out, "rocklake_store_flushes_total", "counter", "Memtables written to the store as SSTs.", load(&s->flushes));
	scalar(out, "rocklake_store_compactions_total", "counter", "Compactions of the store's SSTs.", load(&s->compactions));
	scalar(out, "rocklake_store_gc_runs_total", "counter", "Garbage collections of the store.", load(&s->gc_runs));
	scalar(out, "rocklake_store_gc_objects_deleted_total", "counter", "Objects garbage collection deleted.",
			load(&s->gc_deleted));
	scalar(out, "rocklake_in_recovery", "gauge", "1 while the server is a standby (pg_is_in_recovery).",
		   RecoveryInProgress() ? 1 : 0);
	family(out, "rocklake_standby_last_replay_timestamp_seconds", "gauge",
		   "A standby: when the newest commit it has applied was written, seconds since 1970 (0: none yet).");
	rlbuf_printf(out, "rocklake_standby_last_replay_timestamp_seconds %.3f\n",
				 commit_horizon_replay_ms(0) / 1000.0);
}

/* ---------------------------------------------------------------- the process */

static void
send_all(int sock, const void *buf, size_t len)
{
	const char *data = buf;

	while (len > 0)
	{
		ssize_t		n = send(sock, data, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;				/* gone or too slow: drop it */
		data += n;
		len -= (size_t) n;
	}
}

static void
respond(int sock, const char *status, const char *type, const RlBuf *body)
{
	RlBuf		head;

	rlbuf_init(&head);
	rlbuf_printf(&head, "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n%s\r\n",
				 status, type, body->len,
				 strncmp(status, "405", 3) == 0 ? "Allow: GET, HEAD\r\n" : "");
	send_all(sock, head.data, head.len);
	rlbuf_free(&head);
}

/* serve one connection: read its request line, answer, close */
static void
serve(int sock)
{
	struct timeval timeout = {METRICS_IO_TIMEOUT_S, 0};
	char		req[METRICS_REQUEST_MAX + 1];
	size_t		len = 0;
	char		method[16],
				path[256];
	RlBuf		body;
	bool		head_only;

	setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
	setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
	while (len < METRICS_REQUEST_MAX)
	{
		ssize_t		n = recv(sock, req + len, METRICS_REQUEST_MAX - len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t) n;
		req[len] = '\0';
		if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n"))
			break;
	}
	req[len] = '\0';
	rlbuf_init(&body);
	if (sscanf(req, "%15s %255s HTTP/", method, path) != 2)
	{
		rlbuf_append_str(&body, "bad request\n");
		respond(sock, "400 Bad Request", "text/plain; charset=utf-8", &body);
	}
	else if (strcmp(path, "/metrics") != 0 && strncmp(path, "/metrics?", 9) != 0)
	{
		rlbuf_append_str(&body, "not found: the metrics are at /metrics\n");
		respond(sock, "404 Not Found", "text/plain; charset=utf-8", &body);
	}
	else if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
	{
		rlbuf_append_str(&body, "method not allowed\n");
		respond(sock, "405 Method Not Allowed", "text/plain; charset=utf-8", &body);
	}
	else
	{
		head_only = strcmp(method, "HEAD") == 0;
		render(&body);
		respond(sock, "200 OK", "text/plain; version=0.0.4; charset=utf-8", &body);
		if (head_only)
			body.len = 0;
	}
	send_all(sock, body.data, body.len);
	rlbuf_free(&body);
	shutdown(sock, SHUT_WR);
	close(sock);
}

void
MetricsMain(int sock)
{
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	for (;;)
	{
		struct pollfd pfd = {sock, POLLIN, 0};
		int			client;

		if (poll(&pfd, 1, 1000) <= 0)
			continue;
		client = accept4(sock, NULL, NULL, SOCK_CLOEXEC);
		if (client >= 0)
			serve(client);
	}
}
