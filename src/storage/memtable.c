/*
 * memtable.c: a skip list of (key, seq, kind, value) in internal-key order. Small
 * and single-threaded: the writer process owns its memtable and every change to it
 * happens on the writer's one thread, so no locking is needed.
 */
#include <stdlib.h>
#include <string.h>

#include "storage/memtable.h"

#define MAX_HEIGHT 16

struct MemtableNode
{
	uint64_t	seq;
	SstKind		kind;
	uint32_t	key_len;
	uint32_t	value_len;
	int			height;
	uint8_t    *bytes;			/* key then value */
	MemtableNode *next[];
};

struct Memtable
{
	MemtableNode *head;
	int			height;
	size_t		count;
	size_t		bytes;
	uint64_t	min_seq;
	uint64_t	max_seq;
	uint32_t	rand_state;
};

int
user_key_compare(const void *a, size_t alen, const void *b, size_t blen)
{
	int			c = memcmp(a, b, alen < blen ? alen : blen);

	if (c != 0)
		return c;
	return alen < blen ? -1 : alen > blen ? 1 : 0;
}

int
internal_key_compare(const void *a, size_t alen, uint64_t aseq,
					 const void *b, size_t blen, uint64_t bseq)
{
	int			c = user_key_compare(a, alen, b, blen);

	if (c != 0)
		return c;
	return aseq > bseq ? -1 : aseq < bseq ? 1 : 0;
}

static MemtableNode *
node_new(int height)
{
	MemtableNode *n = calloc(1, sizeof(MemtableNode) + (size_t) height * sizeof(MemtableNode *));

	n->height = height;
	return n;
}

Memtable *
memtable_new(void)
{
	Memtable   *mt = calloc(1, sizeof(Memtable));

	mt->head = node_new(MAX_HEIGHT);
	mt->height = 1;
	mt->rand_state = 0x9e3779b9U;
	mt->min_seq = UINT64_MAX;
	return mt;
}

void
memtable_free(Memtable *mt)
{
	if (mt == NULL)
		return;
	MemtableNode *n = mt->head;

	while (n)
	{
		MemtableNode *next = n->next[0];

		free(n->bytes);
		free(n);
		n = next;
	}
	free(mt);
}

static int
random_height(Memtable *mt)
{
	int			h = 1;

	/* xorshift32; branching factor 4 */
	while (h < MAX_HEIGHT)
	{
		mt->rand_state ^= mt->rand_state << 13;
		mt->rand_state ^= mt->rand_state >> 17;
		mt->rand_state ^= mt->rand_state << 5;
		if ((mt->rand_state & 3) != 0)
			break;
		h++;
	}
	return h;
}

static int
node_compare(const MemtableNode *n, const void *key, size_t key_len, uint64_t seq)
{
	return internal_key_compare(n->bytes, n->key_len, n->seq, key, key_len, seq);
}

/* Fill prev[] with the last node at each level that sorts before (key, seq). */
static MemtableNode *
find_greater_or_equal(const Memtable *mt, const void *key, size_t key_len, uint64_t seq,
					  MemtableNode **prev)
{
	MemtableNode *x = mt->head;

	for (int level = mt->height - 1; level >= 0; level--)
	{
		while (x->next[level] && node_compare(x->next[level], key, key_len, seq) < 0)
			x = x->next[level];
		if (prev)
			prev[level] = x;
	}
	return x->next[0];
}

void
memtable_insert(Memtable *mt, const void *key, size_t key_len, uint64_t seq,
				SstKind kind, const void *value, size_t value_len)
{
	MemtableNode *prev[MAX_HEIGHT];
	MemtableNode *found = find_greater_or_equal(mt, key, key_len, seq, prev);

	if (found && node_compare(found, key, key_len, seq) == 0)
	{
		/* same key in the same batch: the last write wins */
		mt->bytes -= found->key_len + found->value_len;
		free(found->bytes);
		found->bytes = malloc(key_len + value_len + 1);
		memcpy(found->bytes, key, key_len);
		if (value_len)
			memcpy(found->bytes + key_len, value, value_len);
		found->value_len = (uint32_t) value_len;
		found->kind = kind;
		mt->bytes += key_len + value_len;
		return;
	}
	int			h = random_height(mt);

	for (int level = mt->height; level < h; level++)
		prev[level] = mt->head;
	if (h > mt->height)
		mt->height = h;
	MemtableNode *n = node_new(h);

	n->seq = seq;
	n->kind = kind;
	n->key_len = (uint32_t) key_len;
	n->value_len = (uint32_t) value_len;
	n->bytes = malloc(key_len + value_len + 1);
	memcpy(n->bytes, key, key_len);
	if (value_len)
		memcpy(n->bytes + key_len, value, value_len);
	for (int level = 0; level < h; level++)
	{
		n->next[level] = prev[level]->next[level];
		prev[level]->next[level] = n;
	}
	mt->count++;
	mt->bytes += key_len + value_len + sizeof(MemtableNode) + (size_t) h * sizeof(void *);
	if (seq < mt->min_seq)
		mt->min_seq = seq;
	if (seq > mt->max_seq)
		mt->max_seq = seq;
}

size_t
memtable_count(const Memtable *mt)
{
	return mt->count;
}

size_t
memtable_bytes(const Memtable *mt)
{
	return mt->bytes;
}

uint64_t
memtable_min_seq(const Memtable *mt)
{
	return mt->count ? mt->min_seq : 0;
}

uint64_t
memtable_max_seq(const Memtable *mt)
{
	return mt->max_seq;
}

void
memtable_node_entry(const MemtableNode *node, SstEntry *entry)
{
	entry->key = node->bytes;
	entry->key_len = node->key_len;
	entry->value = node->bytes + node->key_len;
	entry->value_len = node->value_len;
	entry->seq = node->seq;
	entry->kind = node->kind;
}

bool
memtable_get(const Memtable *mt, const void *key, size_t key_len, uint64_t max_seq,
			 SstEntry *entry)
{
	const MemtableNode *n = find_greater_or_equal(mt, key, key_len, max_seq, NULL);

	if (n == NULL || user_key_compare(n->bytes, n->key_len, key, key_len) != 0)
		return false;
	memtable_node_entry(n, entry);
	return true;
}

const MemtableNode *
memtable_first(const Memtable *mt)
{
	return mt->head->next[0];
}

const MemtableNode *
memtable_seek(const Memtable *mt, const void *key, size_t key_len)
{
	return find_greater_or_equal(mt, key, key_len, UINT64_MAX, NULL);
}

const MemtableNode *
memtable_next(const MemtableNode *node)
{
	return node->next[0];
}
