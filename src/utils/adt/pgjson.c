/*
 * pgjson.c -- json and jsonb input as PostgreSQL 15 reads them (pgjson.h)
 *
 * One recursive-descent reader serves both types. It follows PostgreSQL's JSON
 * lexer: whitespace is space, tab, CR and LF; a number is -?(0|[1-9][0-9]*)
 * (.[0-9]+)?([eE][+-]?[0-9]+)? of any size, which no letter or digit may follow;
 * strings hold no control character unescaped; \u escapes are four hex digits, and
 * surrogates must pair. While it reads, it writes the value the way jsonb prints it,
 * so that for jsonb the result is the normalised text: an object's members are
 * written each to a text of its own, then sorted and the duplicates dropped. For json
 * that text is thrown away and the input kept as it is.
 *
 * Nesting deeper than JSON_MAX_DEPTH is 54001, where PostgreSQL's stack limit
 * stops it (at a depth that depends on its stack; this one is within ours).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/rl_buffer.h"
#include "utils/adt/pgjson.h"
#include "utils/adt/typio.h"
#include "utils/elog.h"
#include "utils/errcodes.h"
#include "utils/mcxt.h"

#define JSON_MAX_DEPTH 10000

typedef struct JsonReader
{
	const char *p;
	bool		jsonb;
	int			depth;
} JsonReader;

typedef struct JsonMember
{
	const char *key;			/* the decoded key, which orders the members */
	size_t		keylen;
	const char *text;			/* "key": value, as jsonb writes it */
	size_t		order;
} JsonMember;

static void read_value(JsonReader *r, RlBuf *out);

static void __attribute__((noreturn))
json_syntax_error(JsonReader *r)
{
	if (*r->p == '\0')
		ereport(ERROR,
				errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for type json"),
				errdetail("The input string ended unexpectedly."));
	size_t		n = 1;

	while (isalnum((unsigned char) r->p[n]) || r->p[n] == '_' || (r->p[n] & 0x80))
		n++;
	ereport(ERROR,
			errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			errmsg("invalid input syntax for type json"),
			errdetail("Token \"%.*s\" is invalid.", (int) n, r->p));
}

static void
skip_json_space(JsonReader *r)
{
	while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
		r->p++;
}

static int
hex4(const char *s)
{
	int			v = 0;

	for (int i = 0; i < 4; i++)
	{
		int			c = (unsigned char) s[i];

		if (!isxdigit(c))
			return -1;
		v = v * 16 + (isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10));
	}
	return v;
}

/* put_escaped -- a decoded character as PostgreSQL's escape_json writes it */
static void
put_escaped(RlBuf *out, unsigned cp)
{
	static const char *const named[32] = {['\b'] = "\\b", ['\f'] = "\\f", ['\n'] = "\\n",
	['\r'] = "\\r", ['\t'] = "\\t"};

	if (cp == '"' || cp == '\\')
	{
		rlbuf_put_u8(out, '\\');
		rlbuf_put_u8(out, (uint8_t) cp);
	}
	else if (cp < 0x20)
	{
		if (named[cp])
			rlbuf_append_str(out, named[cp]);
		else
			rlbuf_printf(out, "\\u%04x", cp);
	}
	else
		rlbuf_put_utf8(out, cp);
}

/* read_string -- a string at r->p written quoted to out, and decoded to decoded */
static void
read_string(JsonReader *r, RlBuf *out, RlBuf *decoded)
{
	int			high = -1;		/* a high surrogate waiting for its pair */

	r->p++;
	rlbuf_put_u8(out, '"');
	for (;;)
	{
		unsigned char c = (unsigned char) *r->p;
		unsigned	cp;

		if (c == '\0' || c < 0x20)
			json_syntax_error(r);
		if (c == '"')
			break;
		if (c != '\\')
		{
			if (high != -1)
				goto lone_surrogate;
			/* copy a whole (valid: checked on arrival) UTF-8 character */
			size_t		n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;

			if (c < 0x80)
				put_escaped(out, c);
			else
				rlbuf_append(out, r->p, n);
			rlbuf_append(decoded, r->p, n);
			r->p += n;
			continue;
		}
		r->p++;
		c = (unsigned char) *r->p;
		if (c == 'u')
		{
			int			v = hex4(r->p + 1);

			if (v < 0)
				ereport(ERROR,
						errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						errmsg("invalid input syntax for type json"),
						errdetail("\"\\u\" must be followed by four hexadecimal digits."));
			r->p += 5;
			if (v >= 0xD800 && v <= 0xDBFF)
			{
				if (high != -1)
					goto lone_surrogate;
				high = v;
				continue;
			}
			if (v >= 0xDC00 && v <= 0xDFFF)
			{
				if (high == -1)
					goto lone_surrogate;
				v = 0x10000 + ((high - 0xD800) << 10) + (v - 0xDC00);
				high = -1;
			}
			else if (high != -1)
				goto lone_surrogate;
			if (v == 0 && r->jsonb)
				ereport(ERROR,
						errcode(ERRCODE_UNTRANSLATABLE_CHARACTER),
						errmsg("unsupported Unicode escape sequence"),
						errdetail("\\u0000 cannot be converted to text."));
			cp = (unsigned) v;
		}
		else
		{
			static const char from[] = "\"\\/bfnrt",
						to[] = "\"\\/\b\f\n\r\t";
			const char *at = c ? strchr(from, c) : NULL;

			if (high != -1)
				goto lone_surrogate;
			if (at == NULL)
				ereport(ERROR,
						errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						errmsg("invalid input syntax for type json"),
						errdetail("Escape sequence \"\\%.*s\" is invalid.", c ? 1 : 0, r->p));
			cp = (unsigned char) to[at - from];
			r->p++;
		}
		put_escaped(out, cp);
		rlbuf_put_utf8(decoded, cp);
	}
	if (high != -1)
		goto lone_surrogate;
	r->p++;
	rlbuf_put_u8(out, '"');
	return;

lone_surrogate:
	ereport(ERROR,
			errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			errmsg("invalid input syntax for type json"),
			errdetail("Unicode low surrogate must follow a high surrogate."));
}

static void
read_number(JsonReader *r, RlBuf *out)
{
	const char *start = r->p,
			   *s = r->p;

	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (isdigit((unsigned char) *s))
		s += strspn(s, "0123456789");
	else
		json_syntax_error(r);
	if (*s == '.')
	{
		if (!isdigit((unsigned char) s[1]))
			json_syntax_error(r);
		s += 1 + strspn(s + 1, "0123456789");
	}
	if (*s == 'e' || *s == 'E')
	{
		const char *e = s + 1 + (s[1] == '+' || s[1] == '-');

		if (!isdigit((unsigned char) *e))
			json_syntax_error(r);
		s = e + strspn(e, "0123456789");
	}
	if (isalnum((unsigned char) *s) || *s == '_' || (*s & 0x80))
		json_syntax_error(r);
	r->p = s;
	if (r->jsonb)
	{
		/* jsonb holds a number as numeric: its canonical text */
		char	   *text = pnstrdup(start, (size_t) (s - start));
		Value		v = typio_input(NUMERICOID, text, -1);

		rlbuf_append(out, v.u.s.data, v.u.s.len);
		pfree(text);
	}
}

static int
member_cmp(const void *a, const void *b)
{
	const JsonMember *x = a,
			   *y = b;

	if (x->keylen != y->keylen)
		return x->keylen < y->keylen ? -1 : 1;
	int			c = memcmp(x->key, y->key, x->keylen);

	if (c != 0)
		return c;
	return x->order > y->order ? -1 : 1;	/* the last of equal keys first */
}

static void
read_object(JsonReader *r, RlBuf *out)
{
	JsonMember *members = NULL;
	size_t		n = 0,
				cap = 0;

	r->p++;
	skip_json_space(r);
	if (*r->p != '}')
	{
		for (;;)
		{
			RlBuf		decoded,
						member;

			skip_json_space(r);
			if (*r->p != '"')
				json_syntax_error(r);
			rlbuf_init_in(&decoded, CurrentMemoryContext);
			rlbuf_init_in(&member, CurrentMemoryContext);
			read_string(r, &member, &decoded);
			skip_json_space(r);
			if (*r->p != ':')
				json_syntax_error(r);
			r->p++;
			rlbuf_append_str(&member, ": ");
			read_value(r, &member);
			if (n == cap)
			{
				cap = cap ? cap * 2 : 8;
				members = members ? repalloc(members, cap * sizeof(JsonMember)) : palloc(cap * sizeof(JsonMember));
			}
			members[n] = (JsonMember) {rlbuf_cstr(&decoded), decoded.len, rlbuf_cstr(&member), n};
			n++;
			skip_json_space(r);
			if (*r->p == ',')
			{
				r->p++;
				continue;
			}
			if (*r->p != '}')
				json_syntax_error(r);
			break;
		}
	}
	r->p++;
	if (!r->jsonb)
		return;
	if (n > 1)
		qsort(members, n, sizeof(JsonMember), member_cmp);
	rlbuf_put_u8(out, '{');
	for (size_t i = 0, written = 0; i < n; i++)
	{
		if (i > 0 && members[i].keylen == members[i - 1].keylen &&
			memcmp(members[i].key, members[i - 1].key, members[i].keylen) == 0)
			continue;			/* a duplicate key: the last one written was kept */
		if (written++)
			rlbuf_append_str(out, ", ");
		rlbuf_append_str(out, members[i].text);
	}
	rlbuf_put_u8(out, '}');
}

static void
read_array(JsonReader *r, RlBuf *out)
{
	r->p++;
	rlbuf_put_u8(out, '[');
	skip_json_space(r);
	if (*r->p != ']')
	{
		for (;;)
		{
			read_value(r, out);
			skip_json_space(r);
			if (*r->p == ',')
			{
				r->p++;
				rlbuf_append_str(out, ", ");
				continue;
			}
			if (*r->p != ']')
				json_syntax_error(r);
			break;
		}
	}
	r->p++;
	rlbuf_put_u8(out, ']');
}

static void
read_value(JsonReader *r, RlBuf *out)
{
	static const char *const words[] = {"true", "false", "null"};
	size_t		len;
	RlBuf		decoded;

	skip_json_space(r);
	switch (*r->p)
	{
		case '{':
		case '[':
			if (++r->depth > JSON_MAX_DEPTH)
				ereport(ERROR,
						errcode(ERRCODE_STATEMENT_TOO_COMPLEX),
						errmsg("stack depth limit exceeded"));
			if (*r->p == '{')
				read_object(r, out);
			else
				read_array(r, out);
			r->depth--;
			return;
		case '"':
			rlbuf_init_in(&decoded, CurrentMemoryContext);
			read_string(r, out, &decoded);
			rlbuf_free(&decoded);
			return;
		case '-':
		case '0' ... '9':
			read_number(r, out);
			return;
		default:
			break;
	}
	len = strspn(r->p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (len == strlen(words[i]) && strncmp(r->p, words[i], len) == 0 && !(r->p[len] & 0x80))
		{
			rlbuf_append_str(out, words[i]);
			r->p += len;
			return;
		}
	json_syntax_error(r);
}

const char *
pgjson_input(const char *str, bool jsonb)
{
	JsonReader	r = {str, jsonb, 0};
	RlBuf		out;

	rlbuf_init_in(&out, CurrentMemoryContext);
	read_value(&r, &out);
	skip_json_space(&r);
	if (*r.p != '\0')
		json_syntax_error(&r);
	if (!jsonb)
	{
		rlbuf_free(&out);
		return str;
	}
	return rlbuf_cstr(&out);
}

/* ---------- reading a value out of a document (the -> ->> #> #>> operators) ---------- */

/* skip_value -- past the value at r->p (a document already known to be valid) */
static void
skip_value(JsonReader *r)
{
	RlBuf		scratch;

	rlbuf_init_in(&scratch, CurrentMemoryContext);
	read_value(r, &scratch);
	rlbuf_free(&scratch);
}

char *
pgjson_get(const char *doc, const char *key, int64_t index)
{
	JsonReader	r = {doc, false, 0};
	const char *found = NULL,
			   *end = NULL;
	int64_t		n = 0;

	skip_json_space(&r);
	if (*r.p != (key ? '{' : '['))
		return NULL;
	if (!key && index < 0)
	{
		int64_t		len = pgjson_array_length(doc);

		if (len + index < 0)
			return NULL;
		index += len;
	}
	r.p++;
	skip_json_space(&r);
	while (*r.p != '}' && *r.p != ']')
	{
		bool		match = !key && n++ == index;

		if (key)
		{
			RlBuf		quoted,
						decoded;

			rlbuf_init_in(&quoted, CurrentMemoryContext);
			rlbuf_init_in(&decoded, CurrentMemoryContext);
			read_string(&r, &quoted, &decoded);
			match = strcmp(rlbuf_cstr(&decoded), key) == 0;	/* the last of duplicates wins */
			rlbuf_free(&quoted);
			rlbuf_free(&decoded);
			skip_json_space(&r);
			r.p++;				/* ':' */
		}
		skip_json_space(&r);
		const char *start = r.p;

		skip_value(&r);
		if (match)
		{
			found = start;
			end = r.p;
		}
		skip_json_space(&r);
		if (*r.p == ',')
			r.p++;
		skip_json_space(&r);
	}
	return found ? pnstrdup(found, (size_t) (end - found)) : NULL;
}

int64_t
pgjson_array_length(const char *doc)
{
	JsonReader	r = {doc, false, 0};
	int64_t		n = 0;

	skip_json_space(&r);
	if (*r.p != '[')
		return *r.p == '{' ? -1 : -2;
	r.p++;
	skip_json_space(&r);
	while (*r.p != ']')
	{
		skip_value(&r);
		n++;
		skip_json_space(&r);
		if (*r.p == ',')
			r.p++;
		skip_json_space(&r);
	}
	return n;
}

const char *
pgjson_text(const char *value)
{
	JsonReader	r = {value, false, 0};
	RlBuf		quoted,
				decoded;

	skip_json_space(&r);
	if (strncmp(r.p, "null", 4) == 0)
		return NULL;
	if (*r.p != '"')
		return pstrdup(r.p);
	rlbuf_init_in(&quoted, CurrentMemoryContext);
	rlbuf_init_in(&decoded, CurrentMemoryContext);
	read_string(&r, &quoted, &decoded);
	rlbuf_free(&quoted);
	return rlbuf_cstr(&decoded);
}
