/*
 * writer_client.c: the writer's client library and the frame codec both sides use
 * (catalog/writer.h, whose head states the frames' contract). Backends, the
 * postmaster's CREATE/DROP DATABASE path and rocklake-admin talk to the writer
 * process (postmaster/writer.c) through these.
 */
#define _GNU_SOURCE				/* accept4, ppoll */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "catalog/catalog_cache.h"
#include "catalog/commit_horizon.h"
#include "catalog/writer.h"
#include "common/ulid.h"
#include "storage/lsm.h"
#include "storage/objstore.h"
#include "utils/elog.h"
#include "utils/rl_signal.h"

/* ---------------------------------------------------------------- framing, both sides */

/*
 * frame_begin -- start a frame of the given type in buf; returns its offset
 */
size_t
frame_begin(RlBuf *buf, char type)
{
	size_t		start = buf->len;

	rlbuf_put_u8(buf, (uint8_t) type);
	rlbuf_put_u32be(buf, 0);
	return start;
}

/*
 * frame_end -- patch the length word of the frame that starts at start
 */
void
frame_end(RlBuf *buf, size_t start)
{
	uint32_t	len = (uint32_t) (buf->len - start - 1);

	buf->data[start + 1] = (uint8_t) (len >> 24);
	buf->data[start + 2] = (uint8_t) (len >> 16);
	buf->data[start + 3] = (uint8_t) (len >> 8);
	buf->data[start + 4] = (uint8_t) len;
}

/*
 * frame_complete -- whether buf starts with a whole frame
 *
 * Returns 1 with *type, *body and *body_len set, 0 if more bytes are needed,
 * -1 for a length word outside 4 .. WRITER_MAX_FRAME.
 */
int
frame_complete(const RlBuf *buf, char *type, const uint8_t **body, size_t *body_len)
{
	uint32_t	len;

	if (buf->len < FRAME_HEADER_LEN)
		return 0;
	len = rl_load_u32be(buf->data + 1);
	if (len < 4 || len > WRITER_MAX_FRAME)
		return -1;
	if (buf->len < (size_t) len + 1)
		return 0;
	*type = (char) buf->data[0];
	*body = buf->data + FRAME_HEADER_LEN;
	*body_len = len - 4;
	return 1;
}

/*
 * frame_consume -- drop the first n bytes of buf
 */
void
frame_consume(RlBuf *buf, size_t n)
{
	memmove(buf->data, buf->data + n, buf->len - n);
	buf->len -= n;
}

/*
 * read_be64 -- a big-endian integer through an RlReader
 */
static uint64_t
read_be64(RlReader *r)
{
	const uint8_t *p = rlreader_bytes(r, 8);

	return p ? rl_load_u64be(p) : 0;
}

/* ---------------------------------------------------------------- the client library */

struct WriterConn
{
	int			sock;
	RlBuf		in;
	uint64_t	newest_seq;
};

/*
 * writer_connect -- connect to the writer's socket
 */
bool		(*writer_wait_interrupted) (void) = NULL;

/* wait_given_up -- whether a wait for the writer is to end now (writer_wait_interrupted) */
static bool
wait_given_up(void)
{
	return writer_wait_interrupted != NULL && writer_wait_interrupted();
}

WriterConn *
writer_connect(const char *socket_path)
{
	struct sockaddr_un addr;
	WriterConn *conn;
	int			sock;

	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	if (strlen(socket_path) >= sizeof(addr.sun_path))
	{
		rl_error(RL_INVALID, "writer socket path \"%s\" is too long", socket_path);
		return NULL;
	}
	strcpy(addr.sun_path, socket_path);
	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock < 0 || connect(sock, (struct sockaddr *) &addr, sizeof(addr)) < 0)
	{
		rl_error(RL_IO_ERROR, "could not connect to the writer at \"%s\": %s", socket_path,
				 strerror(errno));
		if (sock >= 0)
			close(sock);
		return NULL;
	}
	conn = calloc(1, sizeof(WriterConn));
	if (conn == NULL)
	{
		close(sock);
		rl_error(RL_IO_ERROR, "out of memory");
		return NULL;
	}
	conn->sock = sock;
	rlbuf_init(&conn->in);
	return conn;
}

/*
 * writer_disconnect -- close and free
 */
void
writer_disconnect(WriterConn *conn)
{
	if (conn == NULL)
		return;
	close(conn->sock);
	rlbuf_free(&conn->in);
	free(conn);
}

int
writer_conn_fd(const WriterConn *conn)
{
	return conn->sock;
}

uint64_t
writer_newest_seq(const WriterConn *conn)
{
	return conn->newest_seq;
}

/*
 * send_frame -- write one whole frame (blocking): header, then head and body
 */
static RlStatus
send_frame(WriterConn *conn, char type, const void *head, size_t head_len,
		   const void *body, size_t len)
{
	RlBuf		frame;
	size_t		start;
	size_t		off = 0;
	RlStatus	rc = RL_OK;

	if (head_len + len > WRITER_MAX_FRAME - 4)
		return rl_error(RL_INVALID, "commit request of %zu bytes is too large", head_len + len);
	rlbuf_init(&frame);
	start = frame_begin(&frame, type);
	rlbuf_append(&frame, head, head_len);
	rlbuf_append(&frame, body, len);
	frame_end(&frame, start);
	while (off < frame.len)
	{
		ssize_t		n = send(conn->sock, frame.data + off, frame.len - off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR && wait_given_up())
		{
			rc = rl_error(RL_INTERRUPTED, "gave up sending to the writer");
			break;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
		{
			rc = rl_error(RL_IO_ERROR, "could not send to the writer: %s", strerror(errno));
			break;
		}
		off += (size_t) n;
	}
	rlbuf_free(&frame);
	return rc;
}

/*
 * read_frame -- wait up to timeout_ms for one whole frame into conn->in
 *
 * RL_OK: conn->in starts with a frame. RL_NOT_FOUND: timeout. RL_IO_ERROR:
 * connection closed or broken, or a bad length. RL_INTERRUPTED: given up.
 */
static RlStatus
read_frame(WriterConn *conn, int timeout_ms, char *type, const uint8_t **body,
		   size_t *body_len)
{
	for (;;)
	{
		int			rc = frame_complete(&conn->in, type, body, body_len);
		struct pollfd pfd = {conn->sock, POLLIN, 0};
		ssize_t		n;

		if (rc > 0)
			return RL_OK;
		if (rc < 0)
			return rl_error(RL_IO_ERROR, "invalid frame length from the writer");
		if (wait_given_up())
			return rl_error(RL_INTERRUPTED, "gave up waiting for the writer");
		rc = poll(&pfd, 1, timeout_ms);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc == 0)
			return RL_NOT_FOUND;
		rlbuf_reserve(&conn->in, 4096);
		n = recv(conn->sock, conn->in.data + conn->in.len, conn->in.cap - conn->in.len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return rl_error(RL_IO_ERROR, "lost the connection to the writer%s%s",
							n < 0 ? ": " : "", n < 0 ? strerror(errno) : "");
		conn->in.len += (size_t) n;
	}
}

/* take_notify -- a Notify frame read: the newest commit it names, then the frame is gone */
static void
take_notify(WriterConn *conn, const uint8_t *body, size_t body_len)
{
	RlReader	r;

	rlreader_init(&r, body, body_len);
	conn->newest_seq = read_be64(&r);
	frame_consume(&conn->in, FRAME_HEADER_LEN + body_len);
}

/*
 * read_reply -- the next frame of type want, taking in the Notify frames before it
 */
static RlStatus
read_reply(WriterConn *conn, char want, const uint8_t **body, size_t *body_len)
{
	for (;;)
	{
		char		type;
		RlStatus	rc = read_frame(conn, -1, &type, body, body_len);

		if (rc != RL_OK)
			return rc;
		if (type == want)
			return RL_OK;
		if (type != WriterMsg_Notify)
			return rl_error(RL_IO_ERROR, "unexpected message type %d from the writer", type);
		take_notify(conn, *body, *body_len);
	}
}

/*
 * writer_commit -- send a request and wait for its CommitReply
 */
RlStatus
writer_commit(WriterConn *conn, uint64_t snapshot_seq, const void *changeset,
			  size_t changeset_len, WriterCommitResult *result)
{
	uint8_t		head[8];

	rl_store_u64be(head, snapshot_seq);
	RlStatus	rc = send_frame(conn, WriterMsg_CommitRequest, head, sizeof(head),
								changeset, changeset_len);

	const uint8_t *body;
	size_t		body_len;
	RlReader	r;

	memset(result, 0, sizeof(*result));
	if (rc == RL_OK)
		rc = read_reply(conn, WriterMsg_CommitReply, &body, &body_len);
	if (rc != RL_OK)
		return rc;
	rlreader_init(&r, body, body_len);

	uint8_t		status = rlreader_u8(&r);
	uint64_t	seq = read_be64(&r);
	size_t		rest = rlreader_remaining(&r);
	const char *strings = (const char *) rlreader_bytes(&r, rest);
	size_t		sqlstate_len = strings ? strnlen(strings, rest) : rest;

	if (r.failed || sqlstate_len != 5 || sqlstate_len + 1 >= rest || strings[rest - 1] != '\0')
		return rl_error(RL_IO_ERROR, "malformed commit reply from the writer");
	result->committed = status == COMMIT_STATUS_OK;
	result->commit_seq = seq;
	memcpy(result->sqlstate, strings, 6);

	/* message, then the optional fields in the frame's order; strings[rest - 1] is NUL */
	char	   *fields[] = {result->message, result->detail, result->schema_name, result->table_name,
	result->constraint_name};
	size_t		sizes[] = {sizeof(result->message), sizeof(result->detail), sizeof(result->schema_name),
	sizeof(result->table_name), sizeof(result->constraint_name)};
	const char *s = strings + 6;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]) && s < strings + rest; i++)
	{
		snprintf(fields[i], sizes[i], "%s", s);
		s += strlen(s) + 1;
	}
	if (result->committed && seq > conn->newest_seq)
		conn->newest_seq = seq;
	frame_consume(&conn->in, FRAME_HEADER_LEN + body_len);
	return RL_OK;
}

/*
 * writer_write_intent -- wait for the other writers of the database, then hold writes
 */
RlStatus
writer_write_intent(WriterConn *conn)
{
	const uint8_t *body;
	size_t		body_len;
	RlStatus	rc = send_frame(conn, WriterMsg_WriteIntent, NULL, 0, NULL, 0);

	if (rc == RL_OK)
		rc = read_reply(conn, WriterMsg_WriteIntentAck, &body, &body_len);
	if (rc == RL_OK)
		frame_consume(&conn->in, FRAME_HEADER_LEN + body_len);
	return rc;
}

/*
 * writer_release -- the transaction holds no writes any more
 */
RlStatus
writer_release(WriterConn *conn)
{
	return send_frame(conn, WriterMsg_Release, NULL, 0, NULL, 0);
}

/*
 * writer_attach -- the database this connection's requests are for
 */
RlStatus
writer_attach(WriterConn *conn, uint32_t datid)
{
	uint8_t		body[4];

	body[0] = (uint8_t) (datid >> 24);
	body[1] = (uint8_t) (datid >> 16);
	body[2] = (uint8_t) (datid >> 8);
	body[3] = (uint8_t) datid;
	return send_frame(conn, WriterMsg_Attach, body, sizeof(body), NULL, 0);
}

/*
 * writer_maintain -- a Maintain request and its MaintainReply
 */
RlStatus
writer_maintain(WriterConn *conn, char task, WriterMaintainResult *result)
{
	const uint8_t *body;
	size_t		body_len;
	RlStatus	rc = send_frame(conn, WriterMsg_Maintain, &task, 1, NULL, 0);

	memset(result, 0, sizeof(*result));
	if (rc == RL_OK)
		rc = read_reply(conn, WriterMsg_MaintainReply, &body, &body_len);
	if (rc != RL_OK)
		return rc;
	const char *strings = (const char *) body + 1;
	size_t		rest = body_len > 0 ? body_len - 1 : 0;

	if (rest < 7 || strnlen(strings, rest) != 5 || strings[rest - 1] != '\0')
		return rl_error(RL_IO_ERROR, "malformed maintenance reply from the writer");
	result->done = body[0] == COMMIT_STATUS_OK;
	memcpy(result->sqlstate, strings, 6);
	snprintf(result->message, sizeof(result->message), "%s", strings + 6);
	frame_consume(&conn->in, FRAME_HEADER_LEN + body_len);
	return RL_OK;
}

/*
 * writer_subscribe -- ask for Notify frames on this connection
 */
RlStatus
writer_subscribe(WriterConn *conn)
{
	return send_frame(conn, WriterMsg_Subscribe, NULL, 0, NULL, 0);
}

/*
 * writer_wait_notify -- the next Notify
 */
RlStatus
writer_wait_notify(WriterConn *conn, int timeout_ms, uint64_t *newest)
{
	char		type;
	const uint8_t *body;
	size_t		body_len;
	RlStatus	rc = read_frame(conn, timeout_ms, &type, &body, &body_len);

	if (rc != RL_OK)
		return rc;
	if (type != WriterMsg_Notify)
		return rl_error(RL_IO_ERROR, "unexpected message type %d from the writer", type);
	take_notify(conn, body, body_len);
	*newest = conn->newest_seq;
	return RL_OK;
}
