/*
 * dest.c: result and status messages to the client (dest.h).
 *
 * Text values go out as typio's output, binary ones as typio's send format, each
 * behind its Int32 length (-1 for NULL). Errors and notices carry every field a
 * client may show: severity twice (localized S, fixed V), SQLSTATE, message,
 * detail, hint, cursor position, context, and our source location; they are
 * flushed at once, so a client learns why even if the backend then exits.
 */
#include <stdio.h>
#include <string.h>

#include "libpq/pqcomm.h"
#include "tcop/dest.h"

/* typlen as RowDescription reports it */
static int16_t
type_length(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t ? t->typlen : -1;
}

void
SendRowDescription(const AnalyzedStmt *stmt, const int16_t *formats)
{
	PqMsgBuilder msg;

	pq_beginmsg(&msg, PqMsg_RowDescription);
	pq_sendint16(&msg, (uint16_t) stmt->ncolumns);
	for (int i = 0; i < stmt->ncolumns; i++)
	{
		const ResultColumn *col = &stmt->columns[i];

		pq_sendstring(&msg, col->name);
		pq_sendint32(&msg, 0);	/* table OID */
		pq_sendint16(&msg, 0);	/* column number */
		pq_sendint32(&msg, col->type);
		pq_sendint16(&msg, (uint16_t) type_length(col->type));
		pq_sendint32(&msg, (uint32_t) col->typmod);
		pq_sendint16(&msg, (uint16_t) (formats ? formats[i] : PQ_FORMAT_TEXT));
	}
	pq_endmsg(&msg);
}

void
SendDataRow(int ncolumns, const Value *row, const int16_t *formats)
{
	PqMsgBuilder msg;

	pq_beginmsg(&msg, PqMsg_DataRow);
	pq_sendint16(&msg, (uint16_t) ncolumns);
	for (int i = 0; i < ncolumns; i++)
	{
		if (row[i].isnull)
		{
			pq_sendint32(&msg, (uint32_t) -1);
			continue;
		}
		if (formats && formats[i] == PQ_FORMAT_BINARY)
		{
			size_t		lenpos = pq_sendint32_placeholder(&msg);

			typio_send(&msg, &row[i]);
			pq_patchint32(&msg, lenpos, (uint32_t) (msg.buf->len - lenpos - 4));
		}
		else
		{
			size_t		len;
			char	   *text = typio_output(&row[i], &len);

			pq_sendint32(&msg, (uint32_t) len);
			pq_sendbytes(&msg, text, len);
		}
	}
	pq_endmsg(&msg);
}

void
SendParameterDescription(int nparams, const Oid *types)
{
	PqMsgBuilder msg;

	pq_beginmsg(&msg, PqMsg_ParameterDescription);
	pq_sendint16(&msg, (uint16_t) nparams);
	for (int i = 0; i < nparams; i++)
		pq_sendint32(&msg, types[i]);
	pq_endmsg(&msg);
}

void
SendCopyResponse(char msgtype, CopyFormat format, int ncolumns)
{
	PqMsgBuilder msg;
	int			f = format == COPY_FORMAT_BINARY ? PQ_FORMAT_BINARY : PQ_FORMAT_TEXT;

	pq_beginmsg(&msg, msgtype);
	pq_sendbyte(&msg, (uint8_t) f);
	pq_sendint16(&msg, (uint16_t) ncolumns);
	for (int i = 0; i < ncolumns; i++)
		pq_sendint16(&msg, (uint16_t) f);
	pq_endmsg(&msg);
}

void
EndCommand(const char *tag)
{
	PqMsgBuilder msg;

	pq_beginmsg(&msg, PqMsg_CommandComplete);
	pq_sendstring(&msg, tag);
	pq_endmsg(&msg);
}

void
SendEmptyMessage(char msgtype)
{
	PqMsgBuilder msg;

	pq_beginmsg(&msg, msgtype);
	pq_endmsg(&msg);
}

void
ReadyForQuery(char status)
{
	PqMsgBuilder msg;

	pq_beginmsg(&msg, PqMsg_ReadyForQuery);
	pq_sendbyte(&msg, (uint8_t) status);
	pq_endmsg(&msg);
	pq_flush();
}

void
SendParameterStatus(const char *name, const char *value, void *arg)
{
	PqMsgBuilder msg;

	pq_beginmsg(&msg, PqMsg_ParameterStatus);
	pq_sendstring(&msg, name);
	pq_sendstring(&msg, value);
	pq_endmsg(&msg);
}

void
SendErrorToClient(const ErrorData *edata)
{
	PqMsgBuilder msg;

	pq_abort_partial_message();
	pq_beginmsg(&msg, edata->elevel >= ERROR ? PqMsg_ErrorResponse : PqMsg_NoticeResponse);
	pq_send_error_fields(&msg, edata);
	pq_endmsg(&msg);
	pq_flush();
}
