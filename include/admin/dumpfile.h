/*
 * dumpfile.h: the file format of rocklake-admin dump and restore, a logical dump of
 * one database's catalog as of one commit.
 *
 * A dump is every key/value pair of one database's store, in key order, as a
 * follower saw them at one manifest and commit; restore writes them back as they
 * are, so a value comes back bit for bit. The file is self-checking: a truncated,
 * extended or damaged file is refused before anything is written.
 *
 * Layout (integers big-endian; "str" is a u32 length and that many bytes):
 *   header   "RLDUMP\r\n" (8 bytes: the \r\n catches a text-mode copy), u32 format
 *            version (DUMP_FORMAT_VERSION), str RockLake version, str database name,
 *            u32 database id (datid), str store uuid, u64 commit (the last commit
 *            sequence the dump includes), u64 manifest id, i64 dump time (ms since
 *            1970, UTC)
 *   records  per pair: u8 'K', u32 key length, key, u32 value length, value; keys
 *            strictly ascending
 *   trailer  u8 'E', u64 record count, u32 CRC-32C of every byte before it
 *            (header, records and the trailer's 'E' and count); then the end of file
 * A reader refuses an unknown magic or version, any byte after the trailer, a
 * missing trailer, a count or checksum that does not match and keys out of order
 * (RL_CORRUPT, with the offset in rl_last_error).
 */
#ifndef RL_DUMPFILE_H
#define RL_DUMPFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/rl_buffer.h"
#include "common/rl_status.h"

#define DUMP_MAGIC			"RLDUMP\r\n"
#define DUMP_MAGIC_LEN		8
#define DUMP_FORMAT_VERSION	1
#define DUMP_TRAILER_LEN	13

typedef struct DumpHeader
{
	uint32_t	format_version; /* set by the writer, read by the reader */
	char		rocklake_version[64];
	char		database[128];
	uint32_t	datid;
	char		store_uuid[40];
	uint64_t	commit_seq;
	uint64_t	manifest_id;
	int64_t		dumped_ms;
} DumpHeader;

/*
 * Writing: records go to out as the buffer fills (out NULL: they stay in buf, for
 * the unit tests). dump_writer_finish adds the trailer and flushes: RL_IO_ERROR if
 * any write failed.
 */
typedef struct DumpWriter
{
	RlBuf		buf;
	FILE	   *out;
	uint32_t	crc;			/* of the bytes already written to out */
	uint64_t	count;
	uint64_t	bytes;			/* written so far, buffered ones included */
	bool		failed;
} DumpWriter;

void		dump_writer_begin(DumpWriter *w, FILE *out, const DumpHeader *h);
void		dump_writer_record(DumpWriter *w, const uint8_t *key, size_t key_len,
							   const uint8_t *value, size_t value_len);
RlStatus	dump_writer_finish(DumpWriter *w);
void		dump_writer_free(DumpWriter *w);

/* Return false to stop (dump_read then returns RL_INTERRUPTED). */
typedef bool (*DumpRecordFn) (const uint8_t *key, size_t key_len,
							  const uint8_t *value, size_t value_len, void *arg);

/*
 * Reading a whole dump in memory: checks the trailer's checksum and the layout
 * first, then fills *h and *count and calls fn (if not NULL) for each record;
 * fn sees no record of a file that fails a check.
 */
RlStatus	dump_read(const uint8_t *data, size_t len, DumpHeader *h, uint64_t *count,
					  DumpRecordFn fn, void *arg);

#endif
