/*
 * encoding.c: UTF-8 validation of client text (encoding.h).
 *
 * Most of what clients send is ASCII (SQL text, DuckLake's paths and names), so
 * the check runs over eight bytes at a time while they are ASCII and not NUL, and
 * only a byte with its high bit set is looked at as the start of a multibyte
 * character, against the table of RFC 3629 section 4:
 *
 *   first byte   second     third and fourth
 *   C2..DF       80..BF
 *   E0           A0..BF     80..BF             (no overlong 3-byte form)
 *   E1..EC       80..BF     80..BF
 *   ED           80..9F     80..BF             (no surrogates)
 *   EE..EF       80..BF     80..BF
 *   F0           90..BF     80..BF 80..BF      (no overlong 4-byte form)
 *   F1..F3       80..BF     80..BF 80..BF
 *   F4           80..8F     80..BF 80..BF      (nothing above U+10FFFF)
 *
 * 80..C1 and F5..FF never start a character.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "utils/elog.h"
#include "utils/mb/encoding.h"

#define HIGH_BITS	UINT64_C(0x8080808080808080)
#define LOW_SEVENS	UINT64_C(0x7f7f7f7f7f7f7f7f)

/*
 * ascii_run -- how many of the next bytes, a multiple of eight, are ASCII and not
 * NUL. Adding 0x7f to a byte below 0x80 sets its high bit unless the byte is 0 and
 * never carries into the next byte, so a chunk passes when no byte has its high bit
 * set and every byte plus 0x7f has.
 */
static size_t
ascii_run(const unsigned char *s, size_t len)
{
	size_t		i = 0;

	for (; i + 8 <= len; i += 8)
	{
		uint64_t	chunk;

		memcpy(&chunk, s + i, 8);
		if (((chunk | ~(chunk + LOW_SEVENS)) & HIGH_BITS) != 0)
			break;
	}
	return i;
}

/* utf8_char_length -- the length of the valid character at s, 0 if there is none */
static int
utf8_char_length(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80,
				hi = 0xbf;		/* the range of the second byte */
	int			n;

	if (c < 0x80)
		return c != 0 ? 1 : 0;
	if (c < 0xc2)
		return 0;
	else if (c < 0xe0)
		n = 2;
	else if (c < 0xf0)
	{
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	}
	else if (c < 0xf5)
	{
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	}
	else
		return 0;
	if (len < (size_t) n || s[1] < lo || s[1] > hi)
		return 0;
	for (int k = 2; k < n; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	return n;
}

size_t
pg_utf8_valid_prefix(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *) str;
	size_t		i = 0;

	while (i < len)
	{
		i += ascii_run(s + i, len - i);
		if (i == len)
			break;
		int			n = utf8_char_length(s + i, len - i);

		if (n == 0)
			break;
		i += (size_t) n;
	}
	return i;
}

/*
 * report_invalid_utf8 -- the error for the bad character at s: its bytes as far as
 * its first byte claims (a lead byte of a 2, 3 or 4-byte character, else one byte),
 * cut at the end of the text, as PostgreSQL lists them
 */
static void __attribute__((noreturn))
report_invalid_utf8(const unsigned char *s, size_t len)
{
	char		buf[4 * 5 + 1];
	size_t		n = (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
		: (s[0] & 0xf8) == 0xf0 ? 4 : 1;
	char	   *p = buf;

	if (n > len)
		n = len;
	for (size_t k = 0; k < n; k++)
		p += sprintf(p, k == 0 ? "0x%02x" : " 0x%02x", s[k]);
	ereport(ERROR,
			errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
			errmsg("invalid byte sequence for encoding \"UTF8\": %s", buf));
}

void
pg_verify_utf8(const char *s, size_t len)
{
	size_t		ok = pg_utf8_valid_prefix(s, len);

	if (ok != len)
		report_invalid_utf8((const unsigned char *) s + ok, len - ok);
}
