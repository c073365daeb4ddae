/*
 * mcxt.h: memory contexts, PostgreSQL-style: arenas with a lifetime.
 *
 * Every allocation of the server goes into a context and is freed when the context
 * is reset or deleted, never one by one; an error path therefore frees nothing by
 * hand. A backend has TopMemoryContext (process), SessionContext (the connection:
 * prepared statements, settings), TransactionContext (reset at commit/abort),
 * MessageContext (reset at the top of every iteration of the message loop) and one
 * context per portal. palloc never returns NULL: running out of memory is a FATAL.
 */
#ifndef RL_MCXT_H
#define RL_MCXT_H

#include <stdarg.h>
#include <stddef.h>

typedef struct MemoryContextData *MemoryContext;

extern MemoryContext TopMemoryContext;
extern MemoryContext SessionContext;
extern MemoryContext TransactionContext;
extern MemoryContext MessageContext;
extern MemoryContext CurrentMemoryContext;

/* Creates TopMemoryContext and the standard children; call once per process. */
void		MemoryContextInit(void);

MemoryContext AllocSetContextCreate(MemoryContext parent, const char *name);
/*
 * Free everything allocated in the context and delete its children, as PostgreSQL
 * does (a statement's per-row context made under the message context goes with it).
 */
void		MemoryContextReset(MemoryContext context);
/* Free the context, its children and everything in them. */
void		MemoryContextDelete(MemoryContext context);
/* Make context current; returns the previous one. */
MemoryContext MemoryContextSwitchTo(MemoryContext context);
size_t		MemoryContextMemAllocated(MemoryContext context, int recurse);

void	   *MemoryContextAlloc(MemoryContext context, size_t size);
void	   *MemoryContextAllocZero(MemoryContext context, size_t size);
void	   *palloc(size_t size);
void	   *palloc0(size_t size);
/* Grows in the chunk's own context. */
void	   *repalloc(void *pointer, size_t size);
/* Frees early (optional: a reset frees it anyway). */
void		pfree(void *pointer);
char	   *pstrdup(const char *s);
/* A copy of s in context, whatever context is current. */
char	   *MemoryContextStrdup(MemoryContext context, const char *s);
char	   *pnstrdup(const char *s, size_t len);
char	   *psprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char	   *pvsprintf(const char *fmt, va_list ap);

/*
 * A buffer (common/rl_buffer.h) whose memory belongs to context: it goes when the
 * context is reset, so an ERROR that jumps out of the code building it leaks
 * nothing. Its data must not be passed to free().
 */
struct RlBuf;
void		rlbuf_init_in(struct RlBuf *buf, MemoryContext context);

#endif
