/*
 * lease.h: the writer lease, which says who writes a store now, so that a tool
 * can refuse to disturb a live server instead of fencing it.
 *
 * Fencing (lsm.h) is what keeps two writers from both committing, and it stays
 * the only safety: a writer that opens a store takes it over whatever a lease
 * says. The lease is the courtesy on top: the server's writer holds it while it
 * runs, and rocklake-admin takes it before any command that writes the store,
 * refusing (RL_CONTENDED) while someone else's is live.
 *
 * A lease is a few "name=value" lines: host, pid, data_directory, address,
 * epoch, since_ms, renewed_ms (wall clock, milliseconds since 1970). Two forms:
 *   - the local store: the store's writer lock (objstore.h, lock_take), which
 *     dies with its process; live exactly while held;
 *   - any other store (S3): the object LEASE_OBJECT_KEY, which the writer
 *     rewrites every LEASE_RENEW_MS; live while renewed_ms is within LEASE_TTL_MS
 *     of the reader's clock (clocks are assumed to agree to well within that).
 *     A tool writes it only with a conditional put, so two tools never both
 *     believe they hold it. A holder that dies leaves it to expire.
 */
#ifndef RL_LEASE_H
#define RL_LEASE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/rl_status.h"
#include "storage/objstore.h"

#define LEASE_OBJECT_KEY	"writer.lease"
#define LEASE_RENEW_MS		5000
#define LEASE_TTL_MS		30000
#define LEASE_TEXT_MAX		1024

typedef struct LeaseHolder
{
	char		host[256];
	long		pid;
	char		data_directory[512];	/* "" for a tool */
	char		address[256];	/* where it listens ("" for a tool) */
	char		program[64];	/* "rocklake" or "rocklake-admin" */
	uint64_t	epoch;			/* its writer epoch (0: not known yet) */
	int64_t		since_ms;
	int64_t		renewed_ms;
} LeaseHolder;

/* The holder that describes this process (host, pid, since_ms now). */
void		lease_holder_self(LeaseHolder *self, const char *program);

/*
 * Take or renew the lease as self (renewed_ms is set now). takeover (the server's
 * writer): take it whoever holds it (RL_CONTENDED for a lock another process
 * still holds: try again at the next renewal). !takeover (a tool): RL_CONTENDED,
 * with *other filled, while another's lease is live.
 */
RlStatus	lease_take(ObjectStore *os, LeaseHolder *self, bool takeover, LeaseHolder *other);

/* The live lease's holder: RL_OK with *holder, RL_NOT_FOUND if there is none. */
RlStatus	lease_holder(ObjectStore *os, LeaseHolder *holder);

/* Give up a lease self took (the lock goes with the store's close). */
void		lease_drop(ObjectStore *os, const LeaseHolder *self);

/* Encoding (exposed for the unit tests). */
void		lease_encode(const LeaseHolder *h, RlBuf *out);
RlStatus	lease_decode(const char *text, size_t len, LeaseHolder *h);
/* "rocklake on host h, pid p, data directory d, address a, writer epoch e, since
 * <UTC time>"; a holder of pid 0 is one whose lease could not be read */
void		lease_describe(const LeaseHolder *h, RlBuf *out);

#endif
