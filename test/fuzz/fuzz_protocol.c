/*
 * fuzz_protocol.c: libFuzzer target for what a client's bytes go through first (issue
 * 16): the first packet (SSLRequest, GSSENCRequest, CancelRequest, the StartupMessage
 * and its options), the framing of the typed messages that follow, each message's
 * body (Query, Parse, Bind with its format codes and its parameters in text and
 * binary, Describe, Execute, Close, Sync, Flush, CopyData, CopyDone, CopyFail) and the
 * type input and receive functions the parameters meet (typio.c), in a backend of
 * the fuzzing process (fuzz_backend.h). An input is the bytes of one connection.
 */
#include "fuzz_backend.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_backend_serve(data, size, true);
	return 0;
}
