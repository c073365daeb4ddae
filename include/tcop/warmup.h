/*
 * warmup.h: the warm-up hint one session leaves for the next (warmup.c).
 */
#ifndef RL_WARMUP_H
#define RL_WARMUP_H

/*
 * A session's statements outlive it as a hint: at its end the texts of the
 * SQLite statements it kept and of the client's queries it kept parse trees of go
 * to DATADIR/CACHE_WARM_FILE (the last session to end wins), and a pre-forked
 * backend, while it waits for a client, opens that database's cache, compiles the
 * statements and parses the queries (CacheWarm). A client of DuckDB opens a
 * session per pooled connection and per retried commit, and compiling DuckLake's
 * statements, its pg_catalog batch first, and parsing the batch were most of
 * each session's first queries. Nothing but compiled statements and parse
 * trees carries over.
 */
#define CACHE_WARM_FILE "rl_warm_statements"
void		CacheRememberStatements(void);
void		CacheWarm(const char *data_directory);
/* After a transaction's end: leave the hint now if the session compiled enough. */
void		CacheLeaveHintEarly(void);

#endif
