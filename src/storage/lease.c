/*
 * lease.c: the writer lease (storage/lease.h): the local store's writer lock, or
 * an object other stores renew.
 *
 * Taking the object form as a tool: read it with its etag; if it is live and not
 * ours, refuse; else replace exactly that version (IF_MATCH its etag, or
 * IF_NONE_MATCH if there was none), so of two tools racing one loses with
 * RL_PRECONDITION and reads the winner. The server's writer overwrites it: it
 * takes the store over in any case (fencing), and the lease must name it at once.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/ulid.h"
#include "storage/lease.h"

void
lease_holder_self(LeaseHolder *self, const char *program)
{
	memset(self, 0, sizeof(*self));
	if (gethostname(self->host, sizeof(self->host) - 1) != 0)
		snprintf(self->host, sizeof(self->host), "unknown");
	self->pid = (long) getpid();
	snprintf(self->program, sizeof(self->program), "%s", program);
	self->since_ms = rl_now_ms();
}

/* a value may not hold a newline: it would end the line */
static void
put_line(RlBuf *out, const char *name, const char *value)
{
	rlbuf_printf(out, "%s=", name);
	for (const char *p = value; *p; p++)
		rlbuf_append(out, *p == '\n' ? " " : p, 1);
	rlbuf_append_str(out, "\n");
}

void
lease_encode(const LeaseHolder *h, RlBuf *out)
{
	put_line(out, "program", h->program);
	put_line(out, "host", h->host);
	rlbuf_printf(out, "pid=%ld\n", h->pid);
	put_line(out, "data_directory", h->data_directory);
	put_line(out, "address", h->address);
	rlbuf_printf(out, "epoch=%" PRIu64 "\nsince_ms=%" PRId64 "\nrenewed_ms=%" PRId64 "\n",
				 h->epoch, h->since_ms, h->renewed_ms);
}

RlStatus
lease_decode(const char *text, size_t len, LeaseHolder *h)
{
	const char *p = text,
			   *end = text + len;
	bool		has_pid = false;

	memset(h, 0, sizeof(*h));
	while (p < end)
	{
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		const char *eq = memchr(p, '=', (size_t) ((nl ? nl : end) - p));
		size_t		vlen;
		char		value[512];

		if (eq == NULL)
			return rl_error(RL_CORRUPT, "writer lease line without '=': \"%.*s\"",
							(int) ((nl ? nl : end) - p), p);
		vlen = (size_t) ((nl ? nl : end) - (eq + 1));
		snprintf(value, sizeof(value), "%.*s", (int) vlen, eq + 1);
#define COPY_TO(field) snprintf(field, sizeof(field), "%.*s", (int) sizeof(field) - 1, value)
#define FIELD_IS(name) ((size_t) (eq - p) == strlen(name) && strncmp(p, name, strlen(name)) == 0)
		if (FIELD_IS("program"))
			COPY_TO(h->program);
		else if (FIELD_IS("host"))
			COPY_TO(h->host);
		else if (FIELD_IS("pid"))
			has_pid = (h->pid = strtol(value, NULL, 10)) > 0;
		else if (FIELD_IS("data_directory"))
			COPY_TO(h->data_directory);
		else if (FIELD_IS("address"))
			COPY_TO(h->address);
		else if (FIELD_IS("epoch"))
			h->epoch = strtoull(value, NULL, 10);
		else if (FIELD_IS("since_ms"))
			h->since_ms = strtoll(value, NULL, 10);
		else if (FIELD_IS("renewed_ms"))
			h->renewed_ms = strtoll(value, NULL, 10);
		/* a field this version does not know is a later version's: skip it */
#undef FIELD_IS
#undef COPY_TO
		p = nl ? nl + 1 : end;
	}
	if (!has_pid)
		return rl_error(RL_CORRUPT, "writer lease without a pid");
	return RL_OK;
}

void
lease_describe(const LeaseHolder *h, RlBuf *out)
{
	time_t		since = (time_t) (h->since_ms / 1000);
	struct tm	tm;
	char		when[64];

	if (h->pid == 0)
	{
		rlbuf_append_str(out, "a process whose lease could not be read");
		return;
	}
	gmtime_r(&since, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	rlbuf_printf(out, "%s on host %s, pid %ld", h->program[0] ? h->program : "a writer",
				 h->host, h->pid);
	if (h->data_directory[0])
		rlbuf_printf(out, ", data directory %s", h->data_directory);
	if (h->address[0])
		rlbuf_printf(out, ", address %s", h->address);
	if (h->epoch)
		rlbuf_printf(out, ", writer epoch %" PRIu64, h->epoch);
	rlbuf_printf(out, ", since %s", when);
}

static bool
same_holder(const LeaseHolder *a, const LeaseHolder *b)
{
	return a->pid == b->pid && a->since_ms == b->since_ms && strcmp(a->host, b->host) == 0;
}

/* the lease object as it is: RL_NOT_FOUND if absent; etag "" then */
static RlStatus
read_lease_object(ObjectStore *os, LeaseHolder *h, char *etag)
{
	ObjInfo		info;
	RlBuf		text;
	RlStatus	rc = obj_head(os, LEASE_OBJECT_KEY, &info);

	etag[0] = '\0';
	if (rc != RL_OK)
		return rc;
	snprintf(etag, OBJ_ETAG_MAX, "%s", info.etag);
	rlbuf_init(&text);
	rc = obj_get(os, LEASE_OBJECT_KEY, &text);
	if (rc == RL_OK)
		rc = lease_decode((const char *) text.data, text.len, h);
	if (rc == RL_NOT_FOUND)
		etag[0] = '\0';		/* deleted since the HEAD */
	rlbuf_free(&text);
	return rc;
}

static bool
lease_is_live(const LeaseHolder *h)
{
	return h->renewed_ms > rl_now_ms() - LEASE_TTL_MS;
}

RlStatus
lease_take(ObjectStore *os, LeaseHolder *self, bool takeover, LeaseHolder *other)
{
	RlBuf		text;
	RlStatus	rc;

	self->renewed_ms = rl_now_ms();
	rlbuf_init(&text);
	lease_encode(self, &text);
	if (os->ops->lock_take)
	{
		rc = os->ops->lock_take(os, rlbuf_cstr(&text));
		if (rc == RL_CONTENDED && other && os->ops->lock_holder)
		{
			RlBuf		held;

			rlbuf_init(&held);
			if (os->ops->lock_holder(os, &held) != RL_OK ||
				lease_decode((const char *) held.data, held.len, other) != RL_OK)
				memset(other, 0, sizeof(*other));
			rlbuf_free(&held);
		}
	}
	else if (takeover)
		rc = obj_put(os, LEASE_OBJECT_KEY, text.data, text.len, OBJ_PUT_OVERWRITE, NULL, NULL);
	else
	{
		LeaseHolder found;
		char		etag[OBJ_ETAG_MAX];

		rc = read_lease_object(os, &found, etag);
		if (rc == RL_OK && lease_is_live(&found) && !same_holder(&found, self))
		{
			if (other)
				*other = found;
			rc = rl_error(RL_CONTENDED, "the writer lease is held");
		}
		else if (rc == RL_OK || rc == RL_NOT_FOUND || rc == RL_CORRUPT)
		{
			rc = obj_put(os, LEASE_OBJECT_KEY, text.data, text.len,
						 etag[0] ? OBJ_PUT_IF_MATCH : OBJ_PUT_IF_NONE_MATCH, etag[0] ? etag : NULL, NULL);
			/* another took it between our read and write: it is theirs */
			if (rc == RL_PRECONDITION || rc == RL_NOT_FOUND)
			{
				if (other && read_lease_object(os, other, etag) != RL_OK)
					memset(other, 0, sizeof(*other));
				rc = rl_error(RL_CONTENDED, "the writer lease was taken meanwhile");
			}
		}
	}
	rlbuf_free(&text);
	return rc;
}

RlStatus
lease_holder(ObjectStore *os, LeaseHolder *holder)
{
	RlStatus	rc;

	if (os->ops->lock_holder)
	{
		RlBuf		text;

		rlbuf_init(&text);
		rc = os->ops->lock_holder(os, &text);
		if (rc == RL_OK)
			rc = lease_decode((const char *) text.data, text.len, holder);
		rlbuf_free(&text);
		return rc;
	}
	char		etag[OBJ_ETAG_MAX];

	rc = read_lease_object(os, holder, etag);
	if (rc == RL_OK && !lease_is_live(holder))
		rc = RL_NOT_FOUND;
	return rc;
}

void
lease_drop(ObjectStore *os, const LeaseHolder *self)
{
	LeaseHolder found;
	char		etag[OBJ_ETAG_MAX];

	if (os->ops->lock_take == NULL && read_lease_object(os, &found, etag) == RL_OK &&
		same_holder(&found, self))
		obj_delete(os, LEASE_OBJECT_KEY);
}
