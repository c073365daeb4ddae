/*
 * pqformat.c: building and parsing PostgreSQL v3 protocol messages.
 *
 * Messages are built directly in an output buffer (the connection's send buffer,
 * or a scratch buffer for tests and pre-built packets) so that sending a row costs
 * no copy; the length word is patched when the message ends. Incoming messages are
 * read through PqMsgReader, whose getters check every access against the message
 * length: a client can make a backend report 08P01, never read past a buffer.
 * The error texts are PostgreSQL's (pqformat.c there).
 */
#include <stdio.h>
#include <string.h>

#include "libpq/pqformat.h"
#include "utils/elog.h"
#include "utils/mb/encoding.h"

/*
 * pq_beginmessage -- start a message of type msgtype at the end of buf
 *
 * msgtype 0 starts an untyped packet (startup phase: just the length word).
 */
void
pq_beginmessage(PqMsgBuilder *msg, RlBuf *buf, char msgtype)
{
	msg->buf = buf;
	if (msgtype != 0)
		rlbuf_put_u8(buf, (uint8_t) msgtype);
	msg->start = buf->len;
	rlbuf_put_u32be(buf, 0);
}

void
pq_sendbyte(PqMsgBuilder *msg, uint8_t v)
{
	rlbuf_put_u8(msg->buf, v);
}

void
pq_sendint16(PqMsgBuilder *msg, uint16_t v)
{
	uint8_t		b[2] = {(uint8_t) (v >> 8), (uint8_t) v};

	rlbuf_append(msg->buf, b, 2);
}

void
pq_sendint32(PqMsgBuilder *msg, uint32_t v)
{
	rlbuf_put_u32be(msg->buf, v);
}

void
pq_sendint64(PqMsgBuilder *msg, uint64_t v)
{
	rlbuf_put_u64be(msg->buf, v);
}

/* pq_sendstring -- append s with its terminating NUL */
void
pq_sendstring(PqMsgBuilder *msg, const char *s)
{
	rlbuf_append(msg->buf, s, strlen(s) + 1);
}

void
pq_sendbytes(PqMsgBuilder *msg, const void *data, size_t len)
{
	rlbuf_append(msg->buf, data, len);
}

/*
 * pq_sendint32_placeholder -- append an Int32 whose value is known only later
 *
 * Returns its offset for pq_patchint32 (a DataRow column's length, written
 * after the value itself).
 */
size_t
pq_sendint32_placeholder(PqMsgBuilder *msg)
{
	size_t		offset = msg->buf->len;

	rlbuf_put_u32be(msg->buf, 0);
	return offset;
}

void
pq_patchint32(PqMsgBuilder *msg, size_t offset, uint32_t v)
{
	uint8_t    *p = msg->buf->data + offset;

	p[0] = (uint8_t) (v >> 24);
	p[1] = (uint8_t) (v >> 16);
	p[2] = (uint8_t) (v >> 8);
	p[3] = (uint8_t) v;
}

/* pq_endmessage -- patch the length word: it counts itself and the body */
void
pq_endmessage(PqMsgBuilder *msg)
{
	pq_patchint32(msg, msg->start, (uint32_t) (msg->buf->len - msg->start));
}

void
pq_initreader(PqMsgReader *r, char type, const void *data, size_t len)
{
	r->type = type;
	r->data = data;
	r->len = len;
	r->cursor = 0;
}

/* need -- raise 08P01 unless n more bytes are left */
static void
need(PqMsgReader *r, size_t n)
{
	if (r->len - r->cursor < n)
		ereport(ERROR,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("insufficient data left in message"));
}

uint8_t
pq_getmsgbyte(PqMsgReader *r)
{
	need(r, 1);
	return r->data[r->cursor++];
}

int16_t
pq_getmsgint16(PqMsgReader *r)
{
	need(r, 2);
	const uint8_t *p = r->data + r->cursor;

	r->cursor += 2;
	return (int16_t) (((uint16_t) p[0] << 8) | p[1]);
}

int32_t
pq_getmsgint32(PqMsgReader *r)
{
	need(r, 4);
	uint32_t	v = rl_load_u32be(r->data + r->cursor);

	r->cursor += 4;
	return (int32_t) v;
}

int64_t
pq_getmsgint64(PqMsgReader *r)
{
	need(r, 8);
	uint64_t	v = rl_load_u64be(r->data + r->cursor);

	r->cursor += 8;
	return (int64_t) v;
}

/*
 * pq_getmsgrawstring -- a NUL-terminated string at the cursor, bytes as they came
 *
 * The string stays inside the message buffer; a string without its NUL before
 * the end of the message is a protocol violation.
 */
const char *
pq_getmsgrawstring(PqMsgReader *r)
{
	const uint8_t *start = r->data + r->cursor;
	const uint8_t *nul = memchr(start, '\0', r->len - r->cursor);

	if (nul == NULL)
		ereport(ERROR,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("invalid string in message"));
	r->cursor += (size_t) (nul - start) + 1;
	return (const char *) start;
}

/* pq_getmsgstring -- the same, text in the server encoding (ERROR 22021 if not) */
const char *
pq_getmsgstring(PqMsgReader *r)
{
	size_t		start = r->cursor;
	const char *s = pq_getmsgrawstring(r);

	pg_verify_utf8(s, r->cursor - start - 1);
	return s;
}

const uint8_t *
pq_getmsgbytes(PqMsgReader *r, size_t len)
{
	need(r, len);
	const uint8_t *p = r->data + r->cursor;

	r->cursor += len;
	return p;
}

size_t
pq_getmsgremaining(const PqMsgReader *r)
{
	return r->len - r->cursor;
}

void
pq_getmsgend(PqMsgReader *r)
{
	if (r->cursor != r->len)
		ereport(ERROR,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("invalid message format"));
}

static void
send_error_field(PqMsgBuilder *msg, char code, const char *value)
{
	if (value == NULL)
		return;
	pq_sendbyte(msg, (uint8_t) code);
	pq_sendstring(msg, value);
}

void
pq_send_error_fields(PqMsgBuilder *msg, const ErrorData *edata)
{
	char		number[16];
	const char *severity = error_severity(edata->elevel);

	send_error_field(msg, PG_DIAG_SEVERITY, severity);
	send_error_field(msg, PG_DIAG_SEVERITY_NONLOCALIZED, severity);
	send_error_field(msg, PG_DIAG_SQLSTATE, edata->sqlstate ? edata->sqlstate :
					 edata->elevel >= ERROR ? ERRCODE_INTERNAL_ERROR : ERRCODE_SUCCESSFUL_COMPLETION);
	send_error_field(msg, PG_DIAG_MESSAGE_PRIMARY, edata->message ? edata->message : "missing error text");
	send_error_field(msg, PG_DIAG_MESSAGE_DETAIL, edata->detail);
	send_error_field(msg, PG_DIAG_MESSAGE_HINT, edata->hint);
	if (edata->cursorpos > 0)
	{
		snprintf(number, sizeof(number), "%d", edata->cursorpos);
		send_error_field(msg, PG_DIAG_STATEMENT_POSITION, number);
	}
	send_error_field(msg, PG_DIAG_CONTEXT, edata->context);
	send_error_field(msg, PG_DIAG_SCHEMA_NAME, edata->schema_name);
	send_error_field(msg, PG_DIAG_TABLE_NAME, edata->table_name);
	send_error_field(msg, PG_DIAG_COLUMN_NAME, edata->column_name);
	send_error_field(msg, PG_DIAG_CONSTRAINT_NAME, edata->constraint_name);
	if (edata->filename)
	{
		const char *base = strrchr(edata->filename, '/');

		send_error_field(msg, PG_DIAG_SOURCE_FILE, base ? base + 1 : edata->filename);
		snprintf(number, sizeof(number), "%d", edata->lineno);
		send_error_field(msg, PG_DIAG_SOURCE_LINE, number);
		send_error_field(msg, PG_DIAG_SOURCE_FUNCTION, edata->funcname);
	}
	pq_sendbyte(msg, 0);
}
