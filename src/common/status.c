/*
 * status.c: names for RlStatus codes and the per-process last-error message.
 *
 * The storage layer reports failures as a code plus a detail string; callers turn
 * the code into a retry, a fence or a SQLSTATE and show the string to the user.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/rl_status.h"

static char last_error[1024];

const char *
rl_status_name(RlStatus status)
{
	switch (status)
	{
		case RL_OK: return "ok";
		case RL_NOT_FOUND: return "not found";
		case RL_PRECONDITION: return "precondition failed";
		case RL_FENCED: return "fenced by a newer writer";
		case RL_UNKNOWN_OUTCOME: return "unknown outcome";
		case RL_CONTENDED: return "contended";
		case RL_UNSUPPORTED_BACKEND: return "unsupported object store";
		case RL_CORRUPT: return "corrupt data";
		case RL_UNAVAILABLE: return "unavailable";
		case RL_IO_ERROR: return "I/O error";
		case RL_NO_SPACE: return "no space left";
		case RL_INVALID: return "invalid argument";
		case RL_CRASHED: return "crashed (fault injection)";
		case RL_INTERRUPTED: return "interrupted";
	}
	return "unknown status";
}

RlStatus
rl_error(RlStatus status, const char *fmt, ...)
{
	va_list		ap;
	char		text[sizeof(last_error)];

	/* through a copy: callers pass rl_last_error() to wrap the error they got */
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	memcpy(last_error, text, sizeof(last_error));
	return status;
}

const char *
rl_last_error(void)
{
	return last_error;
}

void
rl_clear_error(void)
{
	last_error[0] = '\0';
}
