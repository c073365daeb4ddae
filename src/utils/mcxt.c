/*
 * mcxt.c: memory contexts (see mcxt.h).
 *
 * A context carves its chunks out of blocks it mallocs, as PostgreSQL's AllocSet
 * does, because a malloc and a free per chunk were a fifth of a backend's CPU in
 * DuckLake's INSERT loop. Small requests are rounded up to a power of two and cut
 * from the current block; pfree puts a small chunk on its context's free list for
 * its size, where the next request of that size finds it. Requests above
 * CHUNK_LIMIT get a block of their own, which pfree gives back to malloc at once.
 * Blocks start small and double up to BLOCK_MAX, so a context holding a few strings
 * costs a kilobyte; a reset frees every block but the last (largest) one, so a
 * context reset per message stops calling malloc after its first few messages.
 *
 * Every chunk starts with a header naming its context, so pfree and repalloc need
 * no context argument. Contexts form a tree: resetting or deleting one deletes its
 * children. Under AddressSanitizer the free parts of blocks and freed chunks are
 * poisoned and a chunk is addressable only up to the size asked for, so overflows
 * and use after free or reset are still caught inside a block.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rl_buffer.h"
#include "utils/elog.h"
#include "utils/mcxt.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(addr, size) ASAN_POISON_MEMORY_REGION((addr), (size))
#define UNPOISON(addr, size) ASAN_UNPOISON_MEMORY_REGION((addr), (size))
#else
#define POISON(addr, size) ((void) (addr), (void) (size))
#define UNPOISON(addr, size) ((void) (addr), (void) (size))
#endif

#define ALIGN16(n) (((n) + 15) & ~(size_t) 15)

#define CHUNK_MIN_SHIFT 4		/* the smallest chunk holds 16 bytes */
#define CHUNK_CLASSES 10		/* 16, 32, ... 8192 */
#define CHUNK_LIMIT ((size_t) 1 << (CHUNK_MIN_SHIFT + CHUNK_CLASSES - 1))
#define BLOCK_INIT ((size_t) 1024)
#define BLOCK_MAX ((size_t) 64 * 1024)

/*
 * Precedes every chunk. A free chunk's context field links it into its free
 * list. size is the size asked for; a small chunk's capacity is that rounded up
 * to its class.
 */
typedef struct ChunkHeader
{
	union
	{
		struct MemoryContextData *context;
		struct ChunkHeader *next_free;
	};
	size_t		size;
} ChunkHeader;

#define CHUNK_HEADER_SIZE ALIGN16(sizeof(ChunkHeader))

/* A block: its header, then chunks from start to free, then free space to end. */
typedef struct Block
{
	struct Block *next;
	char	   *free;
	char	   *end;
} Block;

#define BLOCK_HEADER_SIZE ALIGN16(sizeof(Block))

/* A chunk above CHUNK_LIMIT: on its own in a list, so pfree and reset can find it. */
typedef struct LargeChunk
{
	struct LargeChunk *prev;
	struct LargeChunk *next;
} LargeChunk;

#define LARGE_HEADER_SIZE ALIGN16(sizeof(LargeChunk))

typedef struct MemoryContextData
{
	const char *name;
	struct MemoryContextData *parent;
	struct MemoryContextData *first_child;
	struct MemoryContextData *next_sibling;
	Block	   *blocks;			/* the current block first */
	size_t		next_block_size;
	LargeChunk *large;
	ChunkHeader *free_lists[CHUNK_CLASSES];
	size_t		allocated;		/* bytes of blocks and large chunks */
} MemoryContextData;

MemoryContext TopMemoryContext = NULL;
MemoryContext SessionContext = NULL;
MemoryContext TransactionContext = NULL;
MemoryContext MessageContext = NULL;
MemoryContext CurrentMemoryContext = NULL;

static ChunkHeader *
header_of(void *pointer)
{
	return (ChunkHeader *) ((char *) pointer - CHUNK_HEADER_SIZE);
}

static void *
payload_of(ChunkHeader *chunk)
{
	return (char *) chunk + CHUNK_HEADER_SIZE;
}

static LargeChunk *
large_of(ChunkHeader *chunk)
{
	return (LargeChunk *) ((char *) chunk - LARGE_HEADER_SIZE);
}

static void
out_of_memory(size_t size)
{
	/* the report itself must not need much memory: elog uses its own buffers */
	ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"),
			errdetail("Failed on request of size %zu.", size));
}

/* The free-list index of a small request: 0 for 16 bytes or less. */
static int
size_class(size_t size)
{
	if (size <= ((size_t) 1 << CHUNK_MIN_SHIFT))
		return 0;
	return (int) (sizeof(unsigned long) * 8) - __builtin_clzl(size - 1) - CHUNK_MIN_SHIFT;
}

static size_t
class_size(int class)
{
	return (size_t) 1 << (class + CHUNK_MIN_SHIFT);
}

static size_t
capacity_of(ChunkHeader *chunk)
{
	return class_size(size_class(chunk->size));
}

MemoryContext
AllocSetContextCreate(MemoryContext parent, const char *name)
{
	MemoryContext context = calloc(1, sizeof(MemoryContextData));

	if (context == NULL)
		out_of_memory(sizeof(MemoryContextData));
	context->name = name;
	context->parent = parent;
	context->next_block_size = BLOCK_INIT;
	if (parent)
	{
		context->next_sibling = parent->first_child;
		parent->first_child = context;
	}
	return context;
}

void
MemoryContextInit(void)
{
	if (TopMemoryContext)
		return;
	TopMemoryContext = AllocSetContextCreate(NULL, "TopMemoryContext");
	SessionContext = AllocSetContextCreate(TopMemoryContext, "SessionContext");
	TransactionContext = AllocSetContextCreate(TopMemoryContext, "TransactionContext");
	MessageContext = AllocSetContextCreate(TopMemoryContext, "MessageContext");
	CurrentMemoryContext = TopMemoryContext;
}

static size_t
block_size(Block *block)
{
	return (size_t) (block->end - (char *) block);
}

static void
free_block(Block *block)
{
	UNPOISON(block, block_size(block));
	free(block);
}

/* Free the large chunks and every block but the current one, which is emptied. */
static void
free_contents(MemoryContext context, bool keep_block)
{
	while (context->large)
	{
		LargeChunk *next = context->large->next;

		free(context->large);
		context->large = next;
	}
	Block	   *kept = keep_block ? context->blocks : NULL;
	Block	   *block = kept ? kept->next : context->blocks;

	while (block)
	{
		Block	   *next = block->next;

		free_block(block);
		block = next;
	}
	memset(context->free_lists, 0, sizeof(context->free_lists));
	context->blocks = kept;
	context->allocated = 0;
	if (kept)
	{
		kept->next = NULL;
		kept->free = (char *) kept + BLOCK_HEADER_SIZE;
		POISON(kept->free, (size_t) (kept->end - kept->free));
		context->allocated = block_size(kept);
	}
}

void
MemoryContextReset(MemoryContext context)
{
	while (context->first_child)
		MemoryContextDelete(context->first_child);
	free_contents(context, true);
}

void
MemoryContextDelete(MemoryContext context)
{
	while (context->first_child)
		MemoryContextDelete(context->first_child);
	free_contents(context, false);
	if (context->parent)
	{
		MemoryContext *link = &context->parent->first_child;

		while (*link != context)
			link = &(*link)->next_sibling;
		*link = context->next_sibling;
	}
	if (CurrentMemoryContext == context)
		CurrentMemoryContext = context->parent;
	free(context);
}

MemoryContext
MemoryContextSwitchTo(MemoryContext context)
{
	MemoryContext old = CurrentMemoryContext;

	CurrentMemoryContext = context;
	return old;
}

size_t
MemoryContextMemAllocated(MemoryContext context, int recurse)
{
	size_t		total = context->allocated;

	if (recurse)
		for (MemoryContext child = context->first_child; child; child = child->next_sibling)
			total += MemoryContextMemAllocated(child, recurse);
	return total;
}

static void
link_large(MemoryContext context, LargeChunk *large, size_t size)
{
	large->prev = NULL;
	large->next = context->large;
	if (context->large)
		context->large->prev = large;
	context->large = large;
	context->allocated += size;
}

static void
unlink_large(MemoryContext context, LargeChunk *large, size_t size)
{
	if (large->prev)
		large->prev->next = large->next;
	else
		context->large = large->next;
	if (large->next)
		large->next->prev = large->prev;
	context->allocated -= size;
}

static void *
alloc_large(MemoryContext context, size_t size)
{
	LargeChunk *large = malloc(LARGE_HEADER_SIZE + CHUNK_HEADER_SIZE + size);

	if (large == NULL)
		out_of_memory(size);
	link_large(context, large, size);

	ChunkHeader *chunk = (ChunkHeader *) ((char *) large + LARGE_HEADER_SIZE);

	chunk->context = context;
	chunk->size = size;
	return payload_of(chunk);
}

/* Put what is left of the current block on the free lists, largest pieces first. */
static void
retire_block_space(MemoryContext context, Block *block)
{
	for (int class = CHUNK_CLASSES - 1; class >= 0; class--)
	{
		size_t		need = CHUNK_HEADER_SIZE + class_size(class);

		while ((size_t) (block->end - block->free) >= need)
		{
			ChunkHeader *chunk = (ChunkHeader *) block->free;

			UNPOISON(chunk, CHUNK_HEADER_SIZE);
			chunk->next_free = context->free_lists[class];
			context->free_lists[class] = chunk;
			block->free += need;
		}
	}
}

/* A chunk of the class's size from the current block, after a new block if needed. */
static ChunkHeader *
carve_chunk(MemoryContext context, int class)
{
	size_t		need = CHUNK_HEADER_SIZE + class_size(class);
	Block	   *block = context->blocks;

	if (block == NULL || (size_t) (block->end - block->free) < need)
	{
		size_t		size = context->next_block_size;

		while (size < BLOCK_HEADER_SIZE + need)
			size *= 2;
		if (block)
			retire_block_space(context, block);
		block = malloc(size);
		if (block == NULL)
			out_of_memory(size);
		block->next = context->blocks;
		block->free = (char *) block + BLOCK_HEADER_SIZE;
		block->end = (char *) block + size;
		POISON(block->free, size - BLOCK_HEADER_SIZE);
		context->blocks = block;
		context->allocated += size;
		if (size * 2 <= BLOCK_MAX)
			context->next_block_size = size * 2;
	}

	ChunkHeader *chunk = (ChunkHeader *) block->free;

	block->free += need;
	UNPOISON(chunk, CHUNK_HEADER_SIZE);
	return chunk;
}

void *
MemoryContextAlloc(MemoryContext context, size_t size)
{
	if (size > CHUNK_LIMIT)
		return alloc_large(context, size);

	int			class = size_class(size);
	ChunkHeader *chunk = context->free_lists[class];

	if (chunk)
		context->free_lists[class] = chunk->next_free;
	else
		chunk = carve_chunk(context, class);
	chunk->context = context;
	chunk->size = size;
	UNPOISON(payload_of(chunk), size);
	return payload_of(chunk);
}

void *
MemoryContextAllocZero(MemoryContext context, size_t size)
{
	void	   *p = MemoryContextAlloc(context, size);

	memset(p, 0, size);
	return p;
}

void *
palloc(size_t size)
{
	return MemoryContextAlloc(CurrentMemoryContext, size);
}

void *
palloc0(size_t size)
{
	return MemoryContextAllocZero(CurrentMemoryContext, size);
}

void
pfree(void *pointer)
{
	ChunkHeader *chunk = header_of(pointer);
	MemoryContext context = chunk->context;

	if (chunk->size > CHUNK_LIMIT)
	{
		LargeChunk *large = large_of(chunk);

		unlink_large(context, large, chunk->size);
		free(large);
		return;
	}

	int			class = size_class(chunk->size);

	POISON(pointer, class_size(class));
	chunk->next_free = context->free_lists[class];
	context->free_lists[class] = chunk;
}

void *
repalloc(void *pointer, size_t size)
{
	ChunkHeader *chunk = header_of(pointer);
	MemoryContext context = chunk->context;

	if (chunk->size > CHUNK_LIMIT && size > CHUNK_LIMIT)
	{
		LargeChunk *large = large_of(chunk);
		size_t		old_size = chunk->size;

		unlink_large(context, large, old_size);
		LargeChunk *moved = realloc(large, LARGE_HEADER_SIZE + CHUNK_HEADER_SIZE + size);

		if (moved == NULL)
		{
			link_large(context, large, old_size);
			out_of_memory(size);
		}
		link_large(context, moved, size);
		chunk = (ChunkHeader *) ((char *) moved + LARGE_HEADER_SIZE);
		chunk->size = size;
		return payload_of(chunk);
	}
	if (chunk->size <= CHUNK_LIMIT && size <= capacity_of(chunk))
	{
		/* fits where it is: only the addressable part changes */
		POISON(pointer, capacity_of(chunk));
		UNPOISON(pointer, size);
		chunk->size = size;
		return pointer;
	}

	void	   *moved = MemoryContextAlloc(context, size);
	size_t		old_size = chunk->size;

	memcpy(moved, pointer, old_size < size ? old_size : size);
	pfree(pointer);
	return moved;
}

char *
pnstrdup(const char *s, size_t len)
{
	size_t		n = strnlen(s, len);
	char	   *p = palloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
pstrdup(const char *s)
{
	return pnstrdup(s, strlen(s));
}

char *
MemoryContextStrdup(MemoryContext context, const char *s)
{
	size_t		len = strlen(s);
	char	   *copy = MemoryContextAlloc(context, len + 1);

	memcpy(copy, s, len + 1);
	return copy;
}

char *
pvsprintf(const char *fmt, va_list ap)
{
	va_list		copy;
	char		small[128];

	va_copy(copy, ap);
	int			n = vsnprintf(small, sizeof(small), fmt, copy);

	va_end(copy);
	if (n < 0)
		n = 0;
	char	   *p = palloc((size_t) n + 1);

	if ((size_t) n < sizeof(small))
		memcpy(p, small, (size_t) n + 1);
	else
		vsnprintf(p, (size_t) n + 1, fmt, ap);
	return p;
}

char *
psprintf(const char *fmt, ...)
{
	va_list		ap;

	va_start(ap, fmt);
	char	   *p = pvsprintf(fmt, ap);

	va_end(ap);
	return p;
}

static void *
buffer_realloc(void *context, void *pointer, size_t size)
{
	return pointer ? repalloc(pointer, size) : MemoryContextAlloc(context, size);
}

static const RlBufMemory context_memory = {buffer_realloc, pfree};

void
rlbuf_init_in(RlBuf *buf, MemoryContext context)
{
	rlbuf_init_with(buf, &context_memory, context);
}
