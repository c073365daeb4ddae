/*
 * crc32c.c: CRC-32C (Castagnoli polynomial 0x82F63B78, reflected), the checksum of
 * every stored object. Uses the SSE4.2 crc32 instruction when the CPU has it and a
 * slicing table otherwise; both give identical results (the unit test checks the
 * standard check value and compares the two paths).
 */
#include <pthread.h>
#include <string.h>

#include "common/crc32c.h"

static uint32_t crc_table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;	/* the local store checksums in two threads */

static void
crc32c_init_table(void)
{
	for (uint32_t i = 0; i < 256; i++)
	{
		uint32_t	c = i;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0x82F63B78U : c >> 1;
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
}

static uint32_t
crc32c_sw(uint32_t crc, const uint8_t *p, size_t len)
{
	pthread_once(&table_once, crc32c_init_table);
	while (len >= 8)
	{
		uint32_t	lo = crc ^ ((uint32_t) p[0] | ((uint32_t) p[1] << 8) | ((uint32_t) p[2] << 16) | ((uint32_t) p[3] << 24));
		uint32_t	hi = (uint32_t) p[4] | ((uint32_t) p[5] << 8) | ((uint32_t) p[6] << 16) | ((uint32_t) p[7] << 24);

		crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
			crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
			crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
			crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
	return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t
crc32c_hw(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t	c = crc;

	while (len >= 8)
	{
		uint64_t	v;

		memcpy(&v, p, 8);
		c = __builtin_ia32_crc32di(c, v);
		p += 8;
		len -= 8;
	}
	uint32_t	c32 = (uint32_t) c;

	while (len--)
		c32 = __builtin_ia32_crc32qi(c32, *p++);
	return c32;
}
#endif

uint32_t
crc32c_extend(uint32_t crc, const void *data, size_t len)
{
	crc = ~crc;
#if defined(__x86_64__)
	if (__builtin_cpu_supports("sse4.2"))
		return ~crc32c_hw(crc, data, len);
#endif
	return ~crc32c_sw(crc, data, len);
}

uint32_t
crc32c(const void *data, size_t len)
{
	return crc32c_extend(0, data, len);
}
