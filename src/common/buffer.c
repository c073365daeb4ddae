/*
 * buffer.c: RlBuf (growable byte buffer with fixed-width and varint writers) and
 * RlReader (bounds-checked cursor). All encoders and decoders go through these, so
 * a malformed object can only ever make a reader fail, not read past its end.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rl_buffer.h"

void
rlbuf_init(RlBuf *buf)
{
	rlbuf_init_with(buf, NULL, NULL);
}

void
rlbuf_init_with(RlBuf *buf, const RlBufMemory *memory, void *context)
{
	buf->data = NULL;
	buf->len = 0;
	buf->cap = 0;
	buf->memory = memory;
	buf->context = context;
}

void
rlbuf_free(RlBuf *buf)
{
	if (buf->memory == NULL)
		free(buf->data);
	else if (buf->data)
		buf->memory->free(buf->data);
	rlbuf_init_with(buf, buf->memory, buf->context);
}

void
rlbuf_reset(RlBuf *buf)
{
	buf->len = 0;
}

void
rlbuf_grow(RlBuf *buf, size_t need)
{
	size_t		cap = buf->cap ? buf->cap : 64;

	while (cap < need)
		cap *= 2;
	uint8_t    *p;

	if (buf->memory)
		p = buf->memory->realloc(buf->context, buf->data, cap);
	else
		p = realloc(buf->data, cap);
	if (p == NULL)
		abort();				/* out of memory: no sane way to continue */
	buf->data = p;
	buf->cap = cap;
}

void
rlbuf_append_str(RlBuf *buf, const char *s)
{
	rlbuf_append(buf, s, strlen(s));
}

void
rlbuf_append_int(RlBuf *buf, int64_t v)
{
	char		digits[24];
	int			at = (int) sizeof(digits);
	uint64_t	magnitude = v < 0 ? 0 - (uint64_t) v : (uint64_t) v;

	do
	{
		digits[--at] = (char) ('0' + magnitude % 10);
		magnitude /= 10;
	} while (magnitude);
	if (v < 0)
		digits[--at] = '-';
	rlbuf_append(buf, digits + at, sizeof(digits) - (size_t) at);
}

void
rlbuf_printf(RlBuf *buf, const char *fmt, ...)
{
	va_list		ap;
	int			n;

	rlbuf_reserve(buf, 64);
	va_start(ap, fmt);
	n = vsnprintf((char *) buf->data + buf->len, buf->cap - buf->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t) n >= buf->cap - buf->len)
	{
		rlbuf_reserve(buf, (size_t) n);
		va_start(ap, fmt);
		vsnprintf((char *) buf->data + buf->len, (size_t) n + 1, fmt, ap);
		va_end(ap);
	}
	buf->len += (size_t) n;
}

void
rlbuf_put_u8(RlBuf *buf, uint8_t v)
{
	rlbuf_append(buf, &v, 1);
}

void
rlbuf_put_utf8(RlBuf *buf, uint32_t cp)
{
	uint8_t		b[4];
	size_t		n;

	if (cp < 0x80)
	{
		b[0] = (uint8_t) cp;
		n = 1;
	}
	else if (cp < 0x800)
	{
		b[0] = (uint8_t) (0xC0 | (cp >> 6));
		n = 2;
	}
	else if (cp < 0x10000)
	{
		b[0] = (uint8_t) (0xE0 | (cp >> 12));
		n = 3;
	}
	else
	{
		b[0] = (uint8_t) (0xF0 | (cp >> 18));
		n = 4;
	}
	for (size_t i = 1; i < n; i++)	/* six bits each, the last ones last */
		b[i] = (uint8_t) (0x80 | ((cp >> (6 * (n - 1 - i))) & 0x3F));
	rlbuf_append(buf, b, n);
}

void
rlbuf_put_u16le(RlBuf *buf, uint16_t v)
{
	uint8_t		b[2] = {(uint8_t) v, (uint8_t) (v >> 8)};

	rlbuf_append(buf, b, 2);
}

void
rlbuf_put_u32le(RlBuf *buf, uint32_t v)
{
	uint8_t		b[4];

	rl_store_u32le(b, v);
	rlbuf_append(buf, b, 4);
}

void
rlbuf_put_u64le(RlBuf *buf, uint64_t v)
{
	rlbuf_put_u32le(buf, (uint32_t) v);
	rlbuf_put_u32le(buf, (uint32_t) (v >> 32));
}

void
rlbuf_put_varint(RlBuf *buf, uint64_t v)
{
	uint8_t		b[10];
	int			n = 0;

	while (v >= 0x80)
	{
		b[n++] = (uint8_t) (v | 0x80);
		v >>= 7;
	}
	b[n++] = (uint8_t) v;
	rlbuf_append(buf, b, (size_t) n);
}

void
rlbuf_append_hex(RlBuf *buf, const void *data, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const uint8_t *p = data;

	rlbuf_reserve(buf, len * 2);
	for (size_t i = 0; i < len; i++)
	{
		buf->data[buf->len++] = (uint8_t) digits[p[i] >> 4];
		buf->data[buf->len++] = (uint8_t) digits[p[i] & 15];
	}
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool
rlbuf_append_unhex(RlBuf *buf, const char *hex)
{
	size_t		n = strlen(hex);

	if (n % 2)
		return false;
	for (size_t i = 0; i < n; i++)
		if (hex_digit(hex[i]) < 0)
			return false;
	rlbuf_reserve(buf, n / 2);
	for (size_t i = 0; i < n; i += 2)
		buf->data[buf->len++] = (uint8_t) (hex_digit(hex[i]) << 4 | hex_digit(hex[i + 1]));
	return true;
}

const char *
rlbuf_cstr(RlBuf *buf)
{
	rlbuf_reserve(buf, 0);
	buf->data[buf->len] = '\0';
	return (const char *) buf->data;
}

uint8_t *
rlbuf_steal(RlBuf *buf, size_t *len)
{
	uint8_t    *p = buf->data;

	if (len)
		*len = buf->len;
	rlbuf_init(buf);
	return p;
}

uint16_t
rl_load_u16le(const uint8_t *p)
{
	return (uint16_t) (p[0] | (p[1] << 8));
}

uint32_t
rl_load_u32le(const uint8_t *p)
{
	return (uint32_t) p[0] | ((uint32_t) p[1] << 8) | ((uint32_t) p[2] << 16) | ((uint32_t) p[3] << 24);
}

uint64_t
rl_load_u64le(const uint8_t *p)
{
	return (uint64_t) rl_load_u32le(p) | ((uint64_t) rl_load_u32le(p + 4) << 32);
}

uint32_t
rl_load_u32be(const uint8_t *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) | ((uint32_t) p[2] << 8) | (uint32_t) p[3];
}

uint64_t
rl_load_u64be(const uint8_t *p)
{
	return ((uint64_t) rl_load_u32be(p) << 32) | (uint64_t) rl_load_u32be(p + 4);
}

void
rl_store_u32le(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t) v;
	p[1] = (uint8_t) (v >> 8);
	p[2] = (uint8_t) (v >> 16);
	p[3] = (uint8_t) (v >> 24);
}

void
rl_store_u64be(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--)
	{
		p[i] = (uint8_t) v;
		v >>= 8;
	}
}

void
rlreader_init(RlReader *r, const void *data, size_t len)
{
	r->p = data;
	r->end = r->p + len;
	r->failed = false;
}

const uint8_t *
rlreader_bytes(RlReader *r, size_t len)
{
	if (r->failed || (size_t) (r->end - r->p) < len)
	{
		r->failed = true;
		return NULL;
	}
	const uint8_t *p = r->p;

	r->p += len;
	return p;
}

uint8_t
rlreader_u8(RlReader *r)
{
	const uint8_t *p = rlreader_bytes(r, 1);

	return p ? p[0] : 0;
}

uint32_t
rlreader_u32le(RlReader *r)
{
	const uint8_t *p = rlreader_bytes(r, 4);

	return p ? rl_load_u32le(p) : 0;
}

uint64_t
rlreader_u64le(RlReader *r)
{
	const uint8_t *p = rlreader_bytes(r, 8);

	return p ? rl_load_u64le(p) : 0;
}

uint64_t
rlreader_varint(RlReader *r)
{
	uint64_t	v = 0;

	for (int shift = 0; shift < 64; shift += 7)
	{
		uint8_t		b = rlreader_u8(r);

		if (r->failed)
			return 0;
		v |= (uint64_t) (b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	r->failed = true;
	return 0;
}

size_t
rlreader_remaining(const RlReader *r)
{
	return r->failed ? 0 : (size_t) (r->end - r->p);
}
