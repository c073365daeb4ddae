/*
 * writer.h: the writer process (postmaster/writer.c), a child of the postmaster and
 * the one process that writes to the object store. What it speaks is
 * catalog/writer.h's.
 */
#ifndef RL_POSTMASTER_WRITER_H
#define RL_POSTMASTER_WRITER_H

#include "catalog/writer.h"

typedef struct WriterConfig
{
	const char *store_location; /* a directory or s3://bucket/prefix */
	const char *socket_path;	/* where to listen */
	const char *data_directory; /* where the catalog caches live (catalog_cache_path) */
	int			ready_fd;		/* write end of a pipe: one byte once serving */
	int			startup_delay_ms;	/* debug_startup_delay (tests) */
	int			visible_delay_ms;	/* debug_visible_delay (tests): between a group's
									 * acknowledgement and its cache commit */
	int			store_check_timeout_ms; /* store_check_timeout: stores are checked every
										 * third of it, at most every 5 s */
	int64_t		gc_grace_ms;	/* store_gc_grace: what GC keeps that no manifest needs */
	int			standby_poll_ms;	/* a standby looks for new commits this often ... */
	int			standby_poll_max_ms;	/* ... doubling while none come, up to this */
} WriterConfig;

/* Run the writer; exits 0 on SIGTERM, 1 on FATAL, WRITER_EXIT_FENCED, 2 on SIGQUIT. */
void		WriterMain(const WriterConfig *config) __attribute__((noreturn));

#endif
