/*
 * mcxt.c: memory contexts (see mcxt.h).
 *
 * A context owns a list of chunks; each chunk starts with a header naming its
 * context, so pfree and repalloc need no context argument, and a reset walks the
 * list and frees everything at once. Contexts form a tree: resetting or deleting one
 * deletes its children. The point is lifetimes, not speed: nothing in
 * the backend frees per-message or per-transaction memory one object at a time, and
 * an ereport(ERROR) that jumps out of the middle of a statement leaks nothing,
 * because the message context is reset at the top of the loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elog.h"
#include "mcxt.h"

typedef struct ChunkHeader
{
	struct MemoryContextData *context;
	struct ChunkHeader *prev;
	struct ChunkHeader *next;
	size_t		size;
} ChunkHeader;

/* keep the payload aligned for any type */
#define CHUNK_HEADER_SIZE ((sizeof(ChunkHeader) + 15) & ~(size_t) 15)

typedef struct MemoryContextData
{
	const char *name;
	struct MemoryContextData *parent;
	struct MemoryContextData *first_child;
	struct MemoryContextData *next_sibling;
	ChunkHeader *chunks;
	size_t		allocated;
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

static void
out_of_memory(size_t size)
{
	/* the report itself must not need much memory: elog uses its own buffers */
	ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"),
			errdetail("Failed on request of size %zu.", size));
}

MemoryContext
AllocSetContextCreate(MemoryContext parent, const char *name)
{
	MemoryContext context = calloc(1, sizeof(MemoryContextData));

	if (context == NULL)
		out_of_memory(sizeof(MemoryContextData));
	context->name = name;
	context->parent = parent;
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

static void
free_chunks(MemoryContext context)
{
	ChunkHeader *chunk = context->chunks;

	while (chunk)
	{
		ChunkHeader *next = chunk->next;

		free(chunk);
		chunk = next;
	}
	context->chunks = NULL;
	context->allocated = 0;
}

void
MemoryContextReset(MemoryContext context)
{
	while (context->first_child)
		MemoryContextDelete(context->first_child);
	free_chunks(context);
}

void
MemoryContextDelete(MemoryContext context)
{
	while (context->first_child)
		MemoryContextDelete(context->first_child);
	free_chunks(context);
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
link_chunk(MemoryContext context, ChunkHeader *chunk, size_t size)
{
	chunk->context = context;
	chunk->size = size;
	chunk->prev = NULL;
	chunk->next = context->chunks;
	if (context->chunks)
		context->chunks->prev = chunk;
	context->chunks = chunk;
	context->allocated += size;
}

static void
unlink_chunk(ChunkHeader *chunk)
{
	MemoryContext context = chunk->context;

	if (chunk->prev)
		chunk->prev->next = chunk->next;
	else
		context->chunks = chunk->next;
	if (chunk->next)
		chunk->next->prev = chunk->prev;
	context->allocated -= chunk->size;
}

void *
MemoryContextAlloc(MemoryContext context, size_t size)
{
	ChunkHeader *chunk = malloc(CHUNK_HEADER_SIZE + size);

	if (chunk == NULL)
		out_of_memory(size);
	link_chunk(context, chunk, size);
	return (char *) chunk + CHUNK_HEADER_SIZE;
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

void *
repalloc(void *pointer, size_t size)
{
	ChunkHeader *chunk = header_of(pointer);
	MemoryContext context = chunk->context;

	unlink_chunk(chunk);
	ChunkHeader *moved = realloc(chunk, CHUNK_HEADER_SIZE + size);

	if (moved == NULL)
	{
		link_chunk(context, chunk, chunk->size);
		out_of_memory(size);
	}
	link_chunk(context, moved, size);
	return (char *) moved + CHUNK_HEADER_SIZE;
}

void
pfree(void *pointer)
{
	ChunkHeader *chunk = header_of(pointer);

	unlink_chunk(chunk);
	free(chunk);
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
