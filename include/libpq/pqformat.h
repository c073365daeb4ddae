/*
 * pqformat.h: the PostgreSQL v3 wire format: message-type bytes, request codes,
 * a packet builder and a bounds-checked message reader.
 *
 * Every protocol message RockLake sends is built in place in an output buffer
 * (PgBouncer's pktbuf style): pq_beginmessage writes the type byte and a length
 * placeholder, the pq_send* calls append the body, pq_endmessage patches the
 * length. Every message read from a client is parsed with a PqMsgReader whose
 * getters never read past the end: malformed input raises ERROR 08P01 instead.
 */
#ifndef RL_PQFORMAT_H
#define RL_PQFORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/rl_buffer.h"

/* Message types sent by the frontend (PostgreSQL's protocol.h names) */
#define PqMsg_Bind					'B'
#define PqMsg_Close					'C'
#define PqMsg_Describe				'D'
#define PqMsg_Execute				'E'
#define PqMsg_FunctionCall			'F'
#define PqMsg_Flush					'H'
#define PqMsg_Parse					'P'
#define PqMsg_Query					'Q'
#define PqMsg_Sync					'S'
#define PqMsg_Terminate				'X'
#define PqMsg_CopyFail				'f'
#define PqMsg_GSSResponse			'p'
#define PqMsg_PasswordMessage		'p'
#define PqMsg_SASLInitialResponse	'p'
#define PqMsg_SASLResponse			'p'

/* Message types sent by the backend */
#define PqMsg_ParseComplete			'1'
#define PqMsg_BindComplete			'2'
#define PqMsg_CloseComplete			'3'
#define PqMsg_NotificationResponse	'A'
#define PqMsg_CommandComplete		'C'
#define PqMsg_DataRow				'D'
#define PqMsg_ErrorResponse			'E'
#define PqMsg_CopyInResponse		'G'
#define PqMsg_CopyOutResponse		'H'
#define PqMsg_EmptyQueryResponse	'I'
#define PqMsg_BackendKeyData		'K'
#define PqMsg_NoticeResponse		'N'
#define PqMsg_AuthenticationRequest 'R'
#define PqMsg_ParameterStatus		'S'
#define PqMsg_RowDescription		'T'
#define PqMsg_FunctionCallResponse	'V'
#define PqMsg_CopyBothResponse		'W'
#define PqMsg_ReadyForQuery			'Z'
#define PqMsg_NoData				'n'
#define PqMsg_PortalSuspended		's'
#define PqMsg_ParameterDescription	't'
#define PqMsg_NegotiateProtocolVersion 'v'

/* Sent by both */
#define PqMsg_CopyData				'd'
#define PqMsg_CopyDone				'c'

/* Describe and Close name a statement or a portal */
#define PqDescribe_Statement		'S'
#define PqDescribe_Portal			'P'

/* ReadyForQuery transaction status */
#define PqTrans_Idle				'I'
#define PqTrans_InBlock				'T'
#define PqTrans_Failed				'E'

/* AuthenticationRequest codes */
#define AUTH_REQ_OK					0
#define AUTH_REQ_PASSWORD			3
#define AUTH_REQ_MD5				5
#define AUTH_REQ_SASL				10
#define AUTH_REQ_SASL_CONT			11
#define AUTH_REQ_SASL_FIN			12

/* ErrorResponse / NoticeResponse field codes */
#define PG_DIAG_SEVERITY			'S'
#define PG_DIAG_SEVERITY_NONLOCALIZED 'V'
#define PG_DIAG_SQLSTATE			'C'
#define PG_DIAG_MESSAGE_PRIMARY		'M'
#define PG_DIAG_MESSAGE_DETAIL		'D'
#define PG_DIAG_MESSAGE_HINT		'H'
#define PG_DIAG_STATEMENT_POSITION	'P'
#define PG_DIAG_CONTEXT				'W'
#define PG_DIAG_SCHEMA_NAME			's'
#define PG_DIAG_TABLE_NAME			't'
#define PG_DIAG_COLUMN_NAME			'c'
#define PG_DIAG_CONSTRAINT_NAME		'n'
#define PG_DIAG_SOURCE_FILE			'F'
#define PG_DIAG_SOURCE_LINE			'L'
#define PG_DIAG_SOURCE_FUNCTION		'R'

/* Protocol versions and the special request codes of the first packet */
#define PG_PROTOCOL(m, n)			(((uint32_t) (m) << 16) | (uint32_t) (n))
#define PG_PROTOCOL_MAJOR(v)		((v) >> 16)
#define PG_PROTOCOL_MINOR(v)		((v) & 0xffff)
#define PG_PROTOCOL_LATEST			PG_PROTOCOL(3, 0)
#define CANCEL_REQUEST_CODE			PG_PROTOCOL(1234, 5678)
#define NEGOTIATE_SSL_CODE			PG_PROTOCOL(1234, 5679)
#define NEGOTIATE_GSS_CODE			PG_PROTOCOL(1234, 5680)

/* Format codes of parameters and result columns */
#define PQ_FORMAT_TEXT				0
#define PQ_FORMAT_BINARY			1

/*
 * A message under construction inside buf. type 0 builds an untyped
 * startup-phase packet (length word only); the builder never owns buf.
 */
typedef struct PqMsgBuilder
{
	RlBuf	   *buf;
	size_t		start;			/* offset of the length word */
} PqMsgBuilder;

void		pq_beginmessage(PqMsgBuilder *msg, RlBuf *buf, char msgtype);
void		pq_sendbyte(PqMsgBuilder *msg, uint8_t v);
void		pq_sendint16(PqMsgBuilder *msg, uint16_t v);
void		pq_sendint32(PqMsgBuilder *msg, uint32_t v);
void		pq_sendint64(PqMsgBuilder *msg, uint64_t v);
void		pq_sendstring(PqMsgBuilder *msg, const char *s);
void		pq_sendbytes(PqMsgBuilder *msg, const void *data, size_t len);
/* Reserve room for an Int32 to be patched later (DataRow column lengths). */
size_t		pq_sendint32_placeholder(PqMsgBuilder *msg);
void		pq_patchint32(PqMsgBuilder *msg, size_t offset, uint32_t v);
void		pq_endmessage(PqMsgBuilder *msg);

struct ErrorData;

/*
 * The body of an ErrorResponse or NoticeResponse for edata (S, V, C, M, then D, H,
 * P, W and F/L/R where set) and its terminating zero byte.
 */
void		pq_send_error_fields(PqMsgBuilder *msg, const struct ErrorData *edata);

/* A received message body; the getters raise ERROR 08P01 on malformed input. */
typedef struct PqMsgReader
{
	char		type;			/* the message type byte, 0 for startup packets */
	const uint8_t *data;
	size_t		len;
	size_t		cursor;
} PqMsgReader;

void		pq_initreader(PqMsgReader *r, char type, const void *data, size_t len);
uint8_t		pq_getmsgbyte(PqMsgReader *r);
int16_t		pq_getmsgint16(PqMsgReader *r);
int32_t		pq_getmsgint32(PqMsgReader *r);
int64_t		pq_getmsgint64(PqMsgReader *r);
/*
 * A NUL-terminated string inside the message (no copy): text, checked to be valid
 * UTF-8 (ERROR 22021, encoding.h), or raw bytes (passwords, the startup packet).
 */
const char *pq_getmsgstring(PqMsgReader *r);
const char *pq_getmsgrawstring(PqMsgReader *r);
const uint8_t *pq_getmsgbytes(PqMsgReader *r, size_t len);
size_t		pq_getmsgremaining(const PqMsgReader *r);
/* The message must be consumed exactly. */
void		pq_getmsgend(PqMsgReader *r);

#endif
