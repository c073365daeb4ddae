/*
 * fuzz_types.c: libFuzzer target for the type input and receive functions (typio.c)
 * that a Bind's parameters and COPY's fields meet (issue 16). The first byte of an
 * input picks a type and the format, the next two a type modifier; the rest is the
 * value, as text (up to a NUL) or binary. A value that reads must also read back:
 * its text output read as text, or its binary output received again, must give the
 * same text output, as PostgreSQL's types do. An ERROR is the input's refusal; one
 * on the way back, or any other outcome, is a bug and aborts.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils/adt/typio.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mb/encoding.h"
#include "utils/mcxt.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const Oid fuzz_types[] = {
	BOOLOID, BYTEAOID, NAMEOID, INT8OID, INT2OID, INT4OID, TEXTOID, OIDOID, TIDOID, JSONOID,
	FLOAT4OID, FLOAT8OID, UNKNOWNOID, BPCHAROID, VARCHAROID, DATEOID, TIMEOID, TIMESTAMPOID,
	TIMESTAMPTZOID, INTERVALOID, NUMERICOID, VOIDOID, UUIDOID, JSONBOID, PGNODETREEOID, ACLITEMOID,
	REGCLASSOID, REGTYPEOID, REGNAMESPACEOID, BOOLARRAYOID, NAMEARRAYOID, INT2ARRAYOID, INT4ARRAYOID,
	TEXTARRAYOID, VARCHARARRAYOID, INT8ARRAYOID, FLOAT8ARRAYOID, OIDARRAYOID, ACLITEMARRAYOID,
};

#define NTYPES (sizeof(fuzz_types) / sizeof(fuzz_types[0]))

/* typmod_for -- a modifier for type from two bytes: -1, or one PostgreSQL could give it */
static int32_t
typmod_for(Oid type, uint8_t a, uint8_t b)
{
	int			precision = a % 40 + 1;

	if (a == 0)
		return -1;
	if (type == NUMERICOID)
		return ((precision << 16) | (b % (precision + 1))) + 4;
	return a + 4;
}

/* mismatch -- the way back gave another value: report and crash */
static void
mismatch(Oid type, const char *first, const char *again)
{
	fprintf(stderr, "type %u: \"%s\" read back as \"%s\"\n", type, first, again ? again : "(an ERROR)");
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool initialised;
	sigjmp_buf	jump;
	volatile bool returning = false;
	char	   *volatile first = NULL;

	if (!initialised)
	{
		MemoryContextInit();
		InitializeGUCOptions();
		set_config_option("log_min_messages", "panic", PGC_S_ARGV, false, NULL, NULL);
		MemoryContextSwitchTo(MessageContext);
		initialised = true;
	}
	if (size < 3)
		return 0;

	Oid			type = fuzz_types[(data[0] >> 1) % NTYPES];
	bool		binary = data[0] & 1;
	int32_t		typmod = typmod_for(type, data[1], data[2]);
	const uint8_t *value = data + 3;
	size_t		len = size - 3;

	if (sigsetjmp(jump, 1) == 0)
	{
		PG_exception_stack = &jump;
		if (binary)
		{
			Value		v = typio_receive(type, value, len);
			RlBuf		sent;
			PqMsgBuilder msg;

			first = typio_output(&v, NULL);
			returning = true;
			rlbuf_init_in(&sent, CurrentMemoryContext);
			pq_beginmessage(&msg, &sent, 'd');
			typio_send(&msg, &v);
			v = typio_receive(type, sent.data + 5, sent.len - 5);
			if (strcmp(first, typio_output(&v, NULL)) != 0)
				mismatch(type, first, typio_output(&v, NULL));
		}
		else
		{
			char	   *text = pnstrdup((const char *) value, strnlen((const char *) value, len));

			pg_verify_utf8(text, strlen(text));	/* as Bind checks it first */
			Value		v = typio_input(type, text, typmod);

			first = typio_output(&v, NULL);
			returning = true;
			v = typio_input(type, first, typmod);
			if (strcmp(first, typio_output(&v, NULL)) != 0)
				mismatch(type, first, typio_output(&v, NULL));
		}
	}
	else if (returning)
		mismatch(type, first, NULL);
	PG_exception_stack = NULL;
	FlushErrorState();
	MemoryContextReset(MessageContext);
	return 0;
}
