/*
 * encoding.h: the server encoding, UTF8, checked where client bytes become text.
 *
 * RockLake's databases are UTF8 (server_encoding and client_encoding both report
 * it) and, as PostgreSQL does for a UTF8 database, every text a client sends is
 * checked before it is used: the strings of protocol messages (query texts,
 * statement and portal names), Bind parameters in text format, text-like binary
 * values (text, varchar, bpchar, name, json, jsonb), COPY FROM data. Valid is what
 * RFC 3629 allows: no NUL byte, no overlong form, no surrogate (U+D800-DFFF), nothing
 * above U+10FFFF. Anything else is ERROR 22021 with PostgreSQL's message,
 *
 *   invalid byte sequence for encoding "UTF8": 0xc3 0x28
 *
 * listing the bytes of the offending character as far as its first byte says it
 * goes (at most to the end of the text).
 */
#ifndef RL_ENCODING_H
#define RL_ENCODING_H

#include <stdbool.h>
#include <stddef.h>

/* The length of the longest prefix of s[0..len) that is valid UTF-8 without NUL. */
size_t		pg_utf8_valid_prefix(const char *s, size_t len);

/* ERROR 22021 unless s[0..len) is all valid UTF-8 without NUL. */
void		pg_verify_utf8(const char *s, size_t len);

/* The same check without the error. */
static inline bool
pg_utf8_is_valid(const char *s, size_t len)
{
	return pg_utf8_valid_prefix(s, len) == len;
}

#endif
