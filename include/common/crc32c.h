/*
 * crc32c.h: CRC-32C (Castagnoli), the checksum on every SST block, SST trailer,
 * manifest and WAL object. Hardware (SSE4.2) when the CPU has it, a table otherwise.
 */
#ifndef RL_CRC32C_H
#define RL_CRC32C_H

#include <stddef.h>
#include <stdint.h>

uint32_t	crc32c_extend(uint32_t crc, const void *data, size_t len);
uint32_t	crc32c(const void *data, size_t len);

#endif
