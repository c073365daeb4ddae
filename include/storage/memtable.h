/*
 * memtable.h: the in-memory sorted table of recent writes, a skip list ordered by
 * internal key (user key ascending, seq descending). The writer inserts a batch only
 * after its WAL object is durable; a follower inserts what it replays from the WAL.
 * It is flushed to an L0 SST and then dropped.
 */
#ifndef RL_MEMTABLE_H
#define RL_MEMTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "storage/sst.h"

typedef struct Memtable Memtable;
typedef struct MemtableNode MemtableNode;

Memtable   *memtable_new(void);
void		memtable_free(Memtable *mt);
void		memtable_insert(Memtable *mt, const void *key, size_t key_len, uint64_t seq,
							SstKind kind, const void *value, size_t value_len);
size_t		memtable_count(const Memtable *mt);
size_t		memtable_bytes(const Memtable *mt);
uint64_t	memtable_min_seq(const Memtable *mt);
uint64_t	memtable_max_seq(const Memtable *mt);

/* The newest entry for key with seq <= max_seq; false if none. */
bool		memtable_get(const Memtable *mt, const void *key, size_t key_len, uint64_t max_seq,
						 SstEntry *entry);

/* Iteration in internal-key order. */
const MemtableNode *memtable_first(const Memtable *mt);
const MemtableNode *memtable_seek(const Memtable *mt, const void *key, size_t key_len);
const MemtableNode *memtable_next(const MemtableNode *node);
void		memtable_node_entry(const MemtableNode *node, SstEntry *entry);

/* Compare internal keys: user key ascending, then seq descending. */
int			internal_key_compare(const void *a, size_t alen, uint64_t aseq,
								 const void *b, size_t blen, uint64_t bseq);
int			user_key_compare(const void *a, size_t alen, const void *b, size_t blen);

#endif
