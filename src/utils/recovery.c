/*
 * recovery.c: the standby flag every process reads, and the control file pg_ctl
 * reads (utils/recovery.h).
 *
 * The flag is one word in an anonymous shared mapping the postmaster makes before
 * it forks, as PostgreSQL keeps its recovery state in shared memory: the writer
 * clears it once it writes the stores, and every backend's next transaction is
 * read-write. It only ever goes from true to false while the server runs.
 *
 * RockLake keeps no PostgreSQL cluster files, but `pg_ctl promote` reads
 * global/pg_control (it checks the state and the CRC-32C of the struct's first 288
 * bytes, PostgreSQL 15's layout) before and after it signals, so the file holds just
 * what pg_ctl and pg_controldata read: pg_control_version 1300, catalog_version_no
 * 202209061, the state (in archive recovery, or in production), the build constants
 * pg_controldata checks (a 16 MB WAL segment, 8 kB blocks ...) and the CRC.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/crc32c.h"
#include "common/rl_buffer.h"
#include "utils/elog.h"
#include "utils/recovery.h"

/* PostgreSQL 15's pg_control: its size on disk, its versions, where the CRC is */
#define PG_CONTROL_FILE_SIZE	8192
#define PG_CONTROL_VERSION		1300
#define CATALOG_VERSION_NO		202209061
#define PG_CONTROL_CRC_OFFSET	288
/* DBState */
#define DB_IN_ARCHIVE_RECOVERY	5
#define DB_IN_PRODUCTION		6
/* where the build constants begin: maxAlign, then floatFormat (a double) at +4 */
#define PG_CONTROL_CONSTANTS	204

static volatile uint32_t *in_recovery_word;

void
RecoveryShmemInit(bool in_recovery)
{
	if (in_recovery_word == NULL)
	{
		void	   *p = mmap(NULL, sizeof(uint32_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY),
					errmsg("could not create shared memory for the recovery state: %s", strerror(errno)));
		in_recovery_word = p;
	}
	__atomic_store_n(in_recovery_word, in_recovery ? 1 : 0, __ATOMIC_RELEASE);
}

bool
RecoveryInProgress(void)
{
	return in_recovery_word != NULL && __atomic_load_n(in_recovery_word, __ATOMIC_ACQUIRE) != 0;
}

void
RecoveryEnd(void)
{
	if (in_recovery_word != NULL)
		__atomic_store_n(in_recovery_word, 0, __ATOMIC_RELEASE);
}

/* put_u32le, put_u64le -- PostgreSQL writes the struct in the machine's order (x86: little) */
static void
put_u32le(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

static void
put_u64le(uint8_t *p, uint64_t v)
{
	put_u32le(p, (uint32_t) v);
	put_u32le(p + 4, (uint32_t) (v >> 32));
}

bool
WriteControlFile(const char *data_directory, bool in_recovery)
{
	uint8_t		buf[PG_CONTROL_FILE_SIZE] = {0};
	char		dir[4096],
				path[4200],
				tmp[4300];
	int			fd;
	bool		ok;

	/* system_identifier 0: no cluster; then the versions, the state and its time */
	put_u32le(buf + 8, PG_CONTROL_VERSION);
	put_u32le(buf + 12, CATALOG_VERSION_NO);
	put_u32le(buf + 16, in_recovery ? DB_IN_ARCHIVE_RECOVERY : DB_IN_PRODUCTION);
	put_u64le(buf + 24, (uint64_t) time(NULL));
	{
		/* maxAlign; floatFormat 1234567.0; BLCKSZ, RELSEG_SIZE, XLOG_BLCKSZ, the WAL
		 * segment size, NAMEDATALEN, INDEX_MAX_KEYS, TOAST_MAX_CHUNK_SIZE,
		 * LOBLKSIZE; float8ByVal */
		static const uint32_t sizes[] = {8192, 131072, 8192, 16 * 1024 * 1024, 64, 32, 1996, 2048, 1};
		double		float_format = 1234567.0;
		uint64_t	bits;

		put_u32le(buf + PG_CONTROL_CONSTANTS, 8);
		memcpy(&bits, &float_format, sizeof(bits));
		put_u64le(buf + PG_CONTROL_CONSTANTS + 4, bits);
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			put_u32le(buf + PG_CONTROL_CONSTANTS + 12 + 4 * i, sizes[i]);
	}
	put_u32le(buf + PG_CONTROL_CRC_OFFSET, crc32c(buf, PG_CONTROL_CRC_OFFSET));
	snprintf(dir, sizeof(dir), "%s/global", data_directory);
	snprintf(path, sizeof(path), "%s/pg_control", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return false;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return false;
	ok = write(fd, buf, sizeof(buf)) == (ssize_t) sizeof(buf) && fsync(fd) == 0;
	ok = close(fd) == 0 && ok;
	return ok && rename(tmp, path) == 0;
}
