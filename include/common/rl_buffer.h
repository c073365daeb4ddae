/*
 * rl_buffer.h: a growable byte buffer with big/little-endian and varint writers and
 * a bounds-checked reader. Every encoder in RockLake (SSTs, manifests, keys, wire
 * messages) builds into an RlBuf, and every decoder reads through an RlReader, so
 * overruns are caught in one place instead of in each format.
 */
#ifndef RL_BUFFER_H
#define RL_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Where a buffer's memory comes from when it is not malloc's: realloc(context,
 * NULL, size) allocates. The server's memory contexts provide one (rlbuf_init_in,
 * utils/mcxt.h), so that this library tier knows nothing of them.
 */
typedef struct RlBufMemory
{
	void	   *(*realloc) (void *context, void *ptr, size_t size);
	void		(*free) (void *ptr);
} RlBufMemory;

typedef struct RlBuf
{
	uint8_t    *data;
	size_t		len;
	size_t		cap;
	const RlBufMemory *memory;	/* NULL: malloc; else this, in ... */
	void	   *context;		/* ... this context */
} RlBuf;

void		rlbuf_init(RlBuf *buf);
void		rlbuf_init_with(RlBuf *buf, const RlBufMemory *memory, void *context);
void		rlbuf_free(RlBuf *buf);
void		rlbuf_reset(RlBuf *buf);
/* Room for extra more bytes (and a NUL). Inline: wire rows call it per field. */
void		rlbuf_grow(RlBuf *buf, size_t need);
static inline void
rlbuf_reserve(RlBuf *buf, size_t extra)
{
	if (buf->len + extra + 1 > buf->cap)
		rlbuf_grow(buf, buf->len + extra + 1);
}
static inline void
rlbuf_append(RlBuf *buf, const void *data, size_t len)
{
	rlbuf_reserve(buf, len);
	if (len)
		__builtin_memcpy(buf->data + buf->len, data, len);
	buf->len += len;
}
void		rlbuf_append_str(RlBuf *buf, const char *s);
/* v in decimal, as "%lld" would write it, without printf's cost */
void		rlbuf_append_int(RlBuf *buf, int64_t v);
void		rlbuf_printf(RlBuf *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void		rlbuf_put_u8(RlBuf *buf, uint8_t v);
/* code point cp (at most U+10FFFF) in UTF-8 */
void		rlbuf_put_utf8(RlBuf *buf, uint32_t cp);
void		rlbuf_put_u16le(RlBuf *buf, uint16_t v);
void		rlbuf_put_u32le(RlBuf *buf, uint32_t v);
void		rlbuf_put_u64le(RlBuf *buf, uint64_t v);
/* Inline too: a binary row puts one or two of these per field. */
static inline void
rlbuf_put_u32be(RlBuf *buf, uint32_t v)
{
	uint8_t		b[4] = {(uint8_t) (v >> 24), (uint8_t) (v >> 16), (uint8_t) (v >> 8), (uint8_t) v};

	rlbuf_append(buf, b, 4);
}
static inline void
rlbuf_put_u64be(RlBuf *buf, uint64_t v)
{
	rlbuf_put_u32be(buf, (uint32_t) (v >> 32));
	rlbuf_put_u32be(buf, (uint32_t) v);
}
void		rlbuf_put_varint(RlBuf *buf, uint64_t v);
/* Append data as lowercase hex digits. */
void		rlbuf_append_hex(RlBuf *buf, const void *data, size_t len);
/* Append the bytes hex digits spell; false (buf unchanged) if hex is not pairs of hex digits. */
bool		rlbuf_append_unhex(RlBuf *buf, const char *hex);
/* NUL-terminate without counting the NUL in len. */
const char *rlbuf_cstr(RlBuf *buf);
/* Hand the bytes to the caller (who frees them) and leave buf empty. */
uint8_t    *rlbuf_steal(RlBuf *buf, size_t *len);

/* Little-/big-endian loads from raw memory. */
uint16_t	rl_load_u16le(const uint8_t *p);
uint32_t	rl_load_u32le(const uint8_t *p);
uint64_t	rl_load_u64le(const uint8_t *p);
uint32_t	rl_load_u32be(const uint8_t *p);
uint64_t	rl_load_u64be(const uint8_t *p);
void		rl_store_u32le(uint8_t *p, uint32_t v);
void		rl_store_u64be(uint8_t *p, uint64_t v);

/* A cursor over read-only bytes; any overrun sets failed and returns zeros. */
typedef struct RlReader
{
	const uint8_t *p;
	const uint8_t *end;
	bool		failed;
} RlReader;

void		rlreader_init(RlReader *r, const void *data, size_t len);
uint8_t		rlreader_u8(RlReader *r);
uint32_t	rlreader_u32le(RlReader *r);
uint64_t	rlreader_u64le(RlReader *r);
uint64_t	rlreader_varint(RlReader *r);
/* Returns a pointer to len bytes inside the input, or NULL on overrun. */
const uint8_t *rlreader_bytes(RlReader *r, size_t len);
size_t		rlreader_remaining(const RlReader *r);

#endif
