/*
 * bloom.h: the bloom filter stored in data SSTs so a point lookup skips SSTs that
 * cannot hold the key. 10 bits per key, 7 probes, double hashing over one stable
 * 64-bit hash (the seed is stored in the filter, so the format never depends on
 * the process).
 */
#ifndef RL_BLOOM_H
#define RL_BLOOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/rl_buffer.h"

uint64_t	bloom_hash(const void *key, size_t len, uint64_t seed);

typedef struct BloomBuilder BloomBuilder;

BloomBuilder *bloom_builder_new(uint64_t seed);
void		bloom_builder_add(BloomBuilder *b, const void *key, size_t len);
size_t		bloom_builder_count(const BloomBuilder *b);
/* Appends the serialised filter (header + bit array) to out. */
void		bloom_builder_finish(BloomBuilder *b, int bits_per_key, RlBuf *out);
void		bloom_builder_free(BloomBuilder *b);

/* Query a serialised filter in place; a malformed filter answers true (no pruning). */
bool		bloom_may_contain(const uint8_t *filter, size_t filter_len, const void *key, size_t len);
/* true if the bytes look like a well-formed filter. */
bool		bloom_valid(const uint8_t *filter, size_t filter_len);

#endif
