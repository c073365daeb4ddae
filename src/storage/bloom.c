/*
 * bloom.c: the bloom filter of data SSTs, so a point lookup can skip an SST that
 * cannot hold the key without loading any of its blocks.
 *
 * The hash is our own (a 64-bit word-at-a-time hash finished with the murmur3
 * fmix64 avalanche), so the stored format never depends on a library or a process;
 * the seed travels in the filter header. Probes use double hashing over that one
 * hash: probe i sets bit (h + i * rotl(h, 32)) mod n_bits.
 *
 * Serialised filter: u64 seed | u32 n_bits | u8 n_probes | bit array (n_bits/8
 * rounded up), all little-endian. A filter that does not parse answers "maybe".
 */
#include <stdlib.h>
#include <string.h>

#include "storage/bloom.h"

#define BLOOM_HEADER_LEN 13
#define BLOOM_MIN_BITS 64
#define BLOOM_MAX_PROBES 30
#define HASH_MUL_1 0x9e3779b97f4a7c15ULL
#define HASH_MUL_2 0xc2b2ae3d27d4eb4fULL

struct BloomBuilder
{
	uint64_t	seed;
	uint64_t   *hashes;
	size_t		n_hashes;
	size_t		cap;
};

static uint64_t
rotl64(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

/* murmur3's fmix64: every input bit affects every output bit. */
static uint64_t
fmix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

uint64_t
bloom_hash(const void *key, size_t len, uint64_t seed)
{
	const uint8_t *p = key;
	uint64_t	h = (seed + HASH_MUL_1) ^ ((uint64_t) len * HASH_MUL_2);
	uint64_t	tail = 0;

	for (; len >= 8; p += 8, len -= 8)
		h = rotl64(h ^ (rl_load_u64le(p) * HASH_MUL_2), 31) * HASH_MUL_1;
	for (size_t i = 0; i < len; i++)
		tail |= (uint64_t) p[i] << (8 * i);
	return fmix64(h ^ (tail * HASH_MUL_2));
}

BloomBuilder *
bloom_builder_new(uint64_t seed)
{
	BloomBuilder *b = calloc(1, sizeof(*b));

	if (b == NULL)
		abort();
	b->seed = seed;
	return b;
}

void
bloom_builder_add(BloomBuilder *b, const void *key, size_t len)
{
	if (b->n_hashes == b->cap)
	{
		b->cap = b->cap ? b->cap * 2 : 256;
		b->hashes = realloc(b->hashes, b->cap * sizeof(uint64_t));
		if (b->hashes == NULL)
			abort();
	}
	b->hashes[b->n_hashes++] = bloom_hash(key, len, b->seed);
}

size_t
bloom_builder_count(const BloomBuilder *b)
{
	return b->n_hashes;
}

void
bloom_builder_finish(BloomBuilder *b, int bits_per_key, RlBuf *out)
{
	uint64_t	n_bits = (uint64_t) b->n_hashes * (uint64_t) (bits_per_key > 0 ? bits_per_key : 1);
	/* k = bits_per_key * ln 2, rounded: 7 for 10 bits per key */
	int			n_probes = (bits_per_key * 69 + 50) / 100;

	n_bits = n_bits < BLOOM_MIN_BITS ? BLOOM_MIN_BITS : n_bits > UINT32_MAX ? UINT32_MAX : n_bits;
	n_probes = n_probes < 1 ? 1 : n_probes > BLOOM_MAX_PROBES ? BLOOM_MAX_PROBES : n_probes;

	size_t		start = out->len;
	size_t		n_bytes = (size_t) ((n_bits + 7) / 8);

	rlbuf_put_u64le(out, b->seed);
	rlbuf_put_u32le(out, (uint32_t) n_bits);
	rlbuf_put_u8(out, (uint8_t) n_probes);
	rlbuf_reserve(out, n_bytes);

	uint8_t    *bits = out->data + start + BLOOM_HEADER_LEN;

	memset(bits, 0, n_bytes);
	out->len += n_bytes;
	for (size_t i = 0; i < b->n_hashes; i++)
	{
		uint64_t	h = b->hashes[i];
		uint64_t	delta = rotl64(h, 32);

		for (int p = 0; p < n_probes; p++, h += delta)
		{
			uint64_t	bit = h % n_bits;

			bits[bit / 8] |= (uint8_t) (1 << (bit % 8));
		}
	}
}

void
bloom_builder_free(BloomBuilder *b)
{
	if (b == NULL)
		return;
	free(b->hashes);
	free(b);
}

bool
bloom_valid(const uint8_t *filter, size_t filter_len)
{
	if (filter == NULL || filter_len < BLOOM_HEADER_LEN)
		return false;

	uint32_t	n_bits = rl_load_u32le(filter + 8);
	uint8_t		n_probes = filter[12];

	return n_bits >= BLOOM_MIN_BITS && n_probes >= 1 && n_probes <= BLOOM_MAX_PROBES &&
		filter_len - BLOOM_HEADER_LEN == ((uint64_t) n_bits + 7) / 8;
}

bool
bloom_may_contain(const uint8_t *filter, size_t filter_len, const void *key, size_t len)
{
	if (!bloom_valid(filter, filter_len))
		return true;

	uint64_t	n_bits = rl_load_u32le(filter + 8);
	const uint8_t *bits = filter + BLOOM_HEADER_LEN;
	uint64_t	h = bloom_hash(key, len, rl_load_u64le(filter));
	uint64_t	delta = rotl64(h, 32);

	for (int p = 0; p < filter[12]; p++, h += delta)
	{
		uint64_t	bit = h % n_bits;

		if (!(bits[bit / 8] & (1 << (bit % 8))))
			return false;
	}
	return true;
}
