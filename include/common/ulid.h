/*
 * ulid.h: wall-clock and monotonic milliseconds, and ULIDs (26-character, time-ordered unique ids).
 * Compacted SSTs are named by ULID so their names never collide and GC can read
 * their age from the name.
 */
#ifndef RL_ULID_H
#define RL_ULID_H

#include <stdint.h>

#define ULID_LEN 26

int64_t		rl_now_ms(void);
/* For timeouts and waits: never jumps with the wall clock. */
int64_t		rl_monotonic_ms(void);
/* Writes ULID_LEN characters and a NUL. */
void		ulid_generate(char out[ULID_LEN + 1], int64_t ms);
/* Milliseconds encoded in a ULID, or -1 if it is not one. */
int64_t		ulid_time_ms(const char *ulid);
/* A random hex tag of 2*nbytes characters + NUL (for put ids, db uuids). */
void		rl_random_hex(char *out, int nbytes);

#endif
