/*
 * fuzz_sql.c: libFuzzer target for the SQL path (issue 16): an input is a query
 * string, sent as one simple Query to a backend of the fuzzing process
 * (fuzz_backend.h), so it is parsed by libpg_query, analysed, translated into
 * SQLite SQL and run over a catalog cache with DuckLake's tables. SQL that SQLite
 * refuses to compile, and any other internal error, is XX000 and aborts.
 */
#include <string.h>

#include "common/rl_buffer.h"
#include "fuzz_backend.h"
#include "libpq/pqformat.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the text up to its first NUL, as a Query message: the type, the length, the string */
	const uint8_t *nul = memchr(data, '\0', size);
	size_t		len = nul ? (size_t) (nul - data) : size;
	RlBuf		msg;
	PqMsgBuilder b;

	rlbuf_init(&msg);
	pq_beginmessage(&b, &msg, PqMsg_Query);
	pq_sendbytes(&b, data, len);
	pq_sendbyte(&b, 0);
	pq_endmessage(&b);
	fuzz_backend_serve(msg.data, msg.len, false);
	rlbuf_free(&msg);
	return 0;
}
