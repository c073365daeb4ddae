/*
 * fuzz_backend.h: a backend inside the fuzzing process, for the libFuzzer targets
 * (fuzz_protocol.c, fuzz_sql.c).
 *
 * The backend is the server's own code, run as a session would run it: its memory
 * contexts and settings, signals and statement timers, the message loop, the
 * analyser and the executor over a catalog cache holding DuckLake's tables and an
 * ordinary one. Each input is a client's byte stream, sent on a new socket that is
 * closed after it; what the backend answers is read and dropped by a thread. There
 * is no writer process, so a COMMIT of writes fails as it would with the writer
 * gone. Between inputs the session is put back as it began: the transaction
 * rolled back, prepared statements dropped, settings reset, and temporary tables
 * dropped by reopening the cache.
 */
#ifndef RL_FUZZ_BACKEND_H
#define RL_FUZZ_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Serve one client's bytes: with startup, a StartupMessage (or SSLRequest, ...)
 * first, as a new connection sends; then the messages until Terminate or the end.
 * An ERROR or FATAL is a normal outcome; an internal error (XX000), which means
 * the server failed to say what was wrong, aborts as a crash.
 */
void		fuzz_backend_serve(const uint8_t *data, size_t len, bool startup);

#endif
