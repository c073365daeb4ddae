/*
 * ulid.c: wall-clock time in milliseconds, ULIDs for compacted SST names (sortable by
 * creation time, so GC can tell an SST's age from its name), and random hex tags for
 * put ids and database uuids. Randomness comes from the kernel (getrandom): OpenSSL's
 * RAND_bytes set up a generator for every thread that asked, and the writer's local
 * store names a temporary file from a new thread at every commit.
 */
#include <string.h>
#include <time.h>

#include <sys/random.h>

#include "common/ulid.h"

static const char ulid_alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

int64_t
rl_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
rl_monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
random_bytes(unsigned char *out, int n)
{
	if (getrandom(out, (size_t) n, 0) != n)
	{
		/* fall back to time-seeded bytes; uniqueness still comes from the time part */
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		for (int i = 0; i < n; i++)
			out[i] = (unsigned char) ((ts.tv_nsec >> (i % 8)) ^ (i * 131));
	}
}

void
ulid_generate(char out[ULID_LEN + 1], int64_t ms)
{
	unsigned char rnd[10];
	uint64_t	t = (uint64_t) ms;

	random_bytes(rnd, sizeof(rnd));
	/* 48-bit time in 10 characters, most significant first */
	for (int i = 9; i >= 0; i--)
	{
		out[i] = ulid_alphabet[t & 31];
		t >>= 5;
	}
	/* 80 random bits in 16 characters */
	for (int i = 0; i < 16; i++)
	{
		int			bit = i * 5;
		int			byte = bit / 8,
					shift = bit % 8;
		unsigned	v = (unsigned) rnd[byte] << 8 | (byte + 1 < 10 ? rnd[byte + 1] : 0);

		out[10 + i] = ulid_alphabet[(v >> (11 - shift)) & 31];
	}
	out[ULID_LEN] = '\0';
}

int64_t
ulid_time_ms(const char *ulid)
{
	int64_t		t = 0;

	if (strlen(ulid) < ULID_LEN)
		return -1;
	for (int i = 0; i < 10; i++)
	{
		const char *p = strchr(ulid_alphabet, ulid[i]);

		if (p == NULL || ulid[i] == '\0')
			return -1;
		t = t * 32 + (p - ulid_alphabet);
	}
	return t;
}

void
rl_random_hex(char *out, int nbytes)
{
	unsigned char b[64];
	static const char hex[] = "0123456789abcdef";

	if (nbytes > 64)
		nbytes = 64;
	random_bytes(b, nbytes);
	for (int i = 0; i < nbytes; i++)
	{
		out[2 * i] = hex[b[i] >> 4];
		out[2 * i + 1] = hex[b[i] & 15];
	}
	out[2 * nbytes] = '\0';
}
