/*
 * fdl_yaml.c: the strict YAML-subset reader of dataset descriptions
 * (admin/fdl_yaml.h has what it reads and what it refuses).
 *
 * A recursive descent over one NUL-terminated copy of the text (carriage returns
 * before line feeds dropped). Block structure goes by lines: every block parser
 * leaves the position at the start of a line, and skip_blank() moves it over
 * blank and comment-only lines to the next line with content, returning that
 * line's indentation. A mapping or sequence at indentation n takes the lines at n
 * that continue it, ends at a smaller indentation and refuses a larger one (which
 * is also how a plain scalar continued on the next line is refused). Flow
 * collections go by characters and may cross lines. The first error wins: it is
 * kept with its line (counted from the position only then) and every parser
 * returns NULL from then on.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/fdl_yaml.h"
#include "common/rl_buffer.h"

typedef struct Yaml
{
	char	   *s;				/* the text, NUL-terminated */
	size_t		pos;
	const char *file;
	char	   *err;			/* the first error, "FILE:LINE: message" */
	bool		in_body;		/* past the document's start: "---" is a second document */
} Yaml;

static json_t *parse_block(Yaml *y, int indent);
static json_t *parse_flow(Yaml *y);

static void
yerr_at(Yaml *y, size_t at, const char *fmt,...) __attribute__((format(printf, 3, 4)));

static void
yerr_at(Yaml *y, size_t at, const char *fmt,...)
{
	RlBuf		msg;
	va_list		ap;
	int			line = 1;

	if (y->err)
		return;
	for (size_t i = 0; i < at && y->s[i]; i++)
		line += y->s[i] == '\n';
	rlbuf_init(&msg);
	rlbuf_printf(&msg, "%s:%d: ", y->file, line);
	va_start(ap, fmt);

	char		text[512];

	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	rlbuf_append_str(&msg, text);
	y->err = strdup(rlbuf_cstr(&msg));
	rlbuf_free(&msg);
}

static bool
at_eol(const Yaml *y, size_t p)
{
	return y->s[p] == '\n' || y->s[p] == '\0';
}

/* a comment starts at p: '#' at a line's start or after a space */
static bool
at_comment(const Yaml *y, size_t p)
{
	return y->s[p] == '#' && (p == 0 || y->s[p - 1] == ' ' || y->s[p - 1] == '\t' ||
							  y->s[p - 1] == '\n');
}

static size_t
column(const Yaml *y, size_t p)
{
	size_t		c = 0;

	while (c < p && y->s[p - c - 1] != '\n')
		c++;
	return c;
}

/* the rest of the line must be blank or a comment; then move to the next line */
static void
end_line(Yaml *y)
{
	while (y->s[y->pos] == ' ' || y->s[y->pos] == '\t')
		y->pos++;
	if (at_comment(y, y->pos))
		while (!at_eol(y, y->pos))
			y->pos++;
	if (!at_eol(y, y->pos))
	{
		yerr_at(y, y->pos, "unexpected text after a value: \"%.*s\"",
				(int) strcspn(y->s + y->pos, "\n") < 20 ? (int) strcspn(y->s + y->pos, "\n") : 20,
				y->s + y->pos);
		return;
	}
	if (y->s[y->pos] == '\n')
		y->pos++;
}

/*
 * skip_blank -- from a line's start, move over blank and comment-only lines to the
 * next line with content (position left at its start); return its indentation, or
 * -1 at the end of the text or on an error.
 */
static int
skip_blank(Yaml *y)
{
	for (;;)
	{
		size_t		p = y->pos;

		while (y->s[p] == ' ')
			p++;
		size_t		q = p;

		while (y->s[q] == ' ' || y->s[q] == '\t')
			q++;
		if (y->s[q] == '\0')
		{
			y->pos = q;
			return -1;
		}
		if (y->s[q] == '\n' || at_comment(y, q))
		{
			while (!at_eol(y, q))
				q++;
			y->pos = y->s[q] == '\n' ? q + 1 : q;
			continue;
		}
		if (q != p)
		{
			yerr_at(y, p, "tabs are not allowed in indentation");
			return -1;
		}
		if (y->in_body && p == y->pos &&
			(strncmp(y->s + p, "---", 3) == 0 || strncmp(y->s + p, "...", 3) == 0) &&
			(y->s[p + 3] == ' ' || at_eol(y, p + 3)))
		{
			yerr_at(y, p, "several documents in one file (\"---\" or \"...\") are not supported");
			return -1;
		}
		return (int) (p - y->pos);
	}
}

/* a block sequence item starts at p: "-" then a space or the line's end */
static bool
is_seq_item(const Yaml *y, size_t p)
{
	return y->s[p] == '-' && (y->s[p + 1] == ' ' || at_eol(y, p + 1));
}

/* refuse the indicators of what this reader does not support, at p */
static bool
refuse_indicator(Yaml *y, size_t p)
{
	switch (y->s[p])
	{
		case '&':
			yerr_at(y, p, "anchors (&) are not supported");
			return true;
		case '*':
			yerr_at(y, p, "aliases (*) are not supported");
			return true;
		case '!':
			yerr_at(y, p, "tags (!) are not supported");
			return true;
		case '%':
			yerr_at(y, p, "directives (%%) are not supported");
			return true;
		case '@':
		case '`':
			yerr_at(y, p, "a plain scalar cannot start with the reserved character '%c'", y->s[p]);
			return true;
		case '?':
			if (y->s[p + 1] == ' ' || at_eol(y, p + 1))
			{
				yerr_at(y, p, "complex mapping keys (?) are not supported");
				return true;
			}
			return false;
		default:
			return false;
	}
}

/* the hex escape of ndigits digits at p into *cp */
static bool
read_hex(const Yaml *y, size_t p, int ndigits, uint32_t *cp)
{
	*cp = 0;
	for (int i = 0; i < ndigits; i++)
	{
		char		c = y->s[p + i];
		int			v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (v < 0)
			return false;
		*cp = *cp * 16 + (uint32_t) v;
	}
	return true;
}

/* the escape after a backslash at y->pos (moved past it) into b */
static bool
read_escape(Yaml *y, RlBuf *b)
{
	static const char simple_in[] = "0abtnvfre \"/\\";
	static const char simple_out[] = "\0\a\b\t\n\v\f\r\033 \"/\\";
	size_t		at = y->pos - 1;
	char		c = y->s[y->pos];
	const char *hit = c ? strchr(simple_in, c) : NULL;
	int			ndigits = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
	uint32_t	cp;

	if (hit)
	{
		rlbuf_append(b, &simple_out[hit - simple_in], 1);
		y->pos++;
		return true;
	}
	if (c == 'N' || c == '_' || c == 'L' || c == 'P')
	{
		static const uint32_t named[] = {0x85, 0xA0, 0x2028, 0x2029};

		rlbuf_put_utf8(b, named[strchr("N_LP", c) - "N_LP"]);
		y->pos++;
		return true;
	}
	if (ndigits == 0)
	{
		yerr_at(y, at, "unknown escape \"\\%c\" in a double-quoted scalar", c ? c : ' ');
		return false;
	}
	if (!read_hex(y, y->pos + 1, ndigits, &cp) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
	{
		yerr_at(y, at, "bad \"\\%c\" escape in a double-quoted scalar", c);
		return false;
	}
	rlbuf_put_utf8(b, cp);
	y->pos += 1 + (size_t) ndigits;
	return true;
}

/* a quoted scalar at y->pos, on one line, into b (position moved past it) */
static bool
read_quoted(Yaml *y, RlBuf *b)
{
	char		q = y->s[y->pos];
	size_t		start = y->pos;

	y->pos++;
	for (;;)
	{
		char		c = y->s[y->pos];

		if (at_eol(y, y->pos))
		{
			yerr_at(y, start, "a quoted scalar must end on the line it starts");
			return false;
		}
		y->pos++;
		if (c == q)
		{
			if (q == '\'' && y->s[y->pos] == '\'')
			{
				rlbuf_append(b, "'", 1);
				y->pos++;
				continue;
			}
			return true;
		}
		if (q == '"' && c == '\\')
		{
			if (!read_escape(y, b))
				return false;
			continue;
		}
		rlbuf_append(b, &c, 1);
	}
}

static json_t *
make_string(Yaml *y, size_t at, const char *text, size_t len)
{
	json_t	   *s = json_stringn(text, len);

	if (s == NULL)
		yerr_at(y, at, "a scalar is not valid UTF-8");
	return s;
}

/* a plain scalar's value under YAML 1.2's core schema */
static json_t *
resolve_plain(Yaml *y, size_t at, const char *t, size_t len)
{
	static const char *const nulls[] = {"~", "null", "Null", "NULL"};
	static const char *const trues[] = {"true", "True", "TRUE"};
	static const char *const falses[] = {"false", "False", "FALSE"};
	char		text[64];
	char	   *end;

	for (int i = 0; i < 4; i++)
		if (strlen(nulls[i]) == len && memcmp(t, nulls[i], len) == 0)
			return json_null();
	for (int i = 0; i < 3; i++)
	{
		if (strlen(trues[i]) == len && memcmp(t, trues[i], len) == 0)
			return json_true();
		if (strlen(falses[i]) == len && memcmp(t, falses[i], len) == 0)
			return json_false();
	}
	if (len >= sizeof(text) || strspn(t, "0123456789+-.eEoxabcdfABCDFinINtyY") < len)
		return make_string(y, at, t, len);
	memcpy(text, t, len);
	text[len] = '\0';

	const char *digits = text + (text[0] == '+' || text[0] == '-');
	int			base = 0;

	if (strspn(digits, "0123456789") == strlen(digits) && *digits)
		base = 10;
	else if (strncmp(text, "0o", 2) == 0 && strlen(text) > 2 && strspn(text + 2, "01234567") == strlen(text + 2))
		base = 8;
	else if (strncmp(text, "0x", 2) == 0 && strlen(text) > 2 &&
			 strspn(text + 2, "0123456789abcdefABCDEF") == strlen(text + 2))
		base = 16;
	if (base)
	{
		errno = 0;

		long long	v = strtoll(base == 10 ? text : text + 2, &end, base);

		if (errno == ERANGE)
		{
			yerr_at(y, at, "integer \"%s\" is out of range (quote it to keep it as text)", text);
			return NULL;
		}
		return json_integer(v);
	}
	/* [-+]? ( .digits | digits [. digits?] ) ([eE] [-+]? digits)? */
	size_t		i = text[0] == '+' || text[0] == '-';
	size_t		int_digits = strspn(text + i, "0123456789"),
				frac_digits = 0;

	i += int_digits;
	if (text[i] == '.')
	{
		frac_digits = strspn(text + i + 1, "0123456789");
		i += 1 + frac_digits;
	}
	bool		mantissa = int_digits > 0 || frac_digits > 0;

	if (mantissa && (text[i] == 'e' || text[i] == 'E'))
	{
		size_t		j = i + 1 + (text[i + 1] == '+' || text[i + 1] == '-');
		size_t		exp_digits = strspn(text + j, "0123456789");

		i = exp_digits ? j + exp_digits : i;
	}
	if (mantissa && i == len)
		return json_real(strtod(text, &end));
	const char *inf = text + (text[0] == '+' || text[0] == '-');

	if (strcmp(inf, ".inf") == 0 || strcmp(inf, ".Inf") == 0 || strcmp(inf, ".INF") == 0 ||
		strcmp(text, ".nan") == 0 || strcmp(text, ".NaN") == 0 || strcmp(text, ".NAN") == 0)
	{
		yerr_at(y, at, "\"%s\" cannot be represented in JSON (quote it to keep it as text)", text);
		return NULL;
	}
	return make_string(y, at, t, len);
}

/* a block scalar (| or >) whose indicator is at y->pos, in a node indented past parent */
static json_t *
parse_block_scalar(Yaml *y, int parent)
{
	size_t		start = y->pos;
	bool		folded = y->s[y->pos] == '>';
	char		chomp = 'c';
	int			explicit_indent = 0;

	y->pos++;
	for (int i = 0; i < 2; i++)
	{
		char		c = y->s[y->pos];

		if ((c == '-' || c == '+') && chomp == 'c')
			chomp = c;
		else if (c >= '1' && c <= '9' && explicit_indent == 0)
			explicit_indent = c - '0';
		else
			break;
		y->pos++;
	}
	if (y->s[y->pos] != ' ' && !at_eol(y, y->pos))
	{
		yerr_at(y, start, "bad block scalar header (| or >, then - or +, then a digit 1-9)");
		return NULL;
	}
	end_line(y);
	if (y->err)
		return NULL;

	int			base = parent < 0 ? 0 : parent;
	int			indent = explicit_indent ? base + explicit_indent : -1;
	RlBuf		out;
	int			pending = 0;	/* empty lines since the last content line */
	char		prev = 0;		/* the last content line's kind: 'n'ormal, 'm'ore indented */

	rlbuf_init(&out);
	while (y->s[y->pos] != '\0')
	{
		size_t		line = y->pos;
		int			sp = 0;

		while (y->s[line + sp] == ' ')
			sp++;
		if (at_eol(y, line + sp) && (indent < 0 || sp <= indent))
		{
			pending++;
			y->pos = line + sp + (y->s[line + sp] == '\n');
			continue;
		}
		if (indent < 0)
		{
			if (sp <= parent)
				break;
			indent = sp;
		}
		if (sp < indent)
			break;

		size_t		from = line + indent,
					to = from;

		while (!at_eol(y, to))
			to++;

		char		kind = y->s[from] == ' ' || y->s[from] == '\t' ? 'm' : 'n';

		if (prev == 0 || !folded)
			for (int i = 0; i < pending + (prev != 0); i++)
				rlbuf_append(&out, "\n", 1);
		else if (prev == 'n' && kind == 'n' && pending == 0)
			rlbuf_append(&out, " ", 1);
		else
			for (int i = 0; i < pending + (prev == 'm' || kind == 'm'); i++)
				rlbuf_append(&out, "\n", 1);
		rlbuf_append(&out, y->s + from, to - from);
		pending = 0;
		prev = kind;
		y->pos = y->s[to] == '\n' ? to + 1 : to;
	}
	if (chomp == '+')
		for (int i = 0; i < pending + (prev != 0); i++)
			rlbuf_append(&out, "\n", 1);
	else if (chomp == 'c' && prev != 0)
		rlbuf_append(&out, "\n", 1);

	json_t	   *s = make_string(y, start, out.data ? (const char *) out.data : "", out.len);

	rlbuf_free(&out);
	return s;
}

/* a scalar or flow collection on this line, then the line's end */
static json_t *
parse_inline(Yaml *y, int parent)
{
	size_t		start = y->pos;
	char		c = y->s[y->pos];
	json_t	   *v;

	if (refuse_indicator(y, y->pos))
		return NULL;
	if (c == '|' || c == '>')
		return parse_block_scalar(y, parent);
	if (is_seq_item(y, y->pos))
	{
		yerr_at(y, start, "a sequence cannot start here (put its items on the lines below)");
		return NULL;
	}
	if (c == '[' || c == '{')
		v = parse_flow(y);
	else if (c == '"' || c == '\'')
	{
		RlBuf		b;

		rlbuf_init(&b);
		v = read_quoted(y, &b) ? make_string(y, start, b.data ? (const char *) b.data : "", b.len) : NULL;
		rlbuf_free(&b);
	}
	else
	{
		size_t		end = y->pos;

		while (!at_eol(y, end) && !(y->s[end] == '#' && at_comment(y, end)))
		{
			if (y->s[end] == ':' && (y->s[end + 1] == ' ' || at_eol(y, end + 1)))
			{
				yerr_at(y, end, "a mapping cannot start here (quote a value that holds \": \")");
				return NULL;
			}
			end++;
		}
		y->pos = end;
		while (end > start && (y->s[end - 1] == ' ' || y->s[end - 1] == '\t'))
			end--;
		v = resolve_plain(y, start, y->s + start, end - start);
	}
	if (v)
		end_line(y);
	if (y->err)
	{
		json_decref(v);
		return NULL;
	}
	return v;
}

/*
 * the node of a key or item whose value is on the lines below (or absent: null);
 * seq_here: a sequence may sit at the parent's own indentation (a mapping's value)
 */
static json_t *
parse_below(Yaml *y, int parent, bool seq_here)
{
	int			ind = skip_blank(y);

	if (y->err)
		return NULL;
	if (ind > parent || (seq_here && ind == parent && is_seq_item(y, y->pos + (size_t) ind)))
	{
		y->pos += (size_t) ind;
		return parse_block(y, ind);
	}
	return json_null();
}

/*
 * key_colon -- if the line from y->pos is a block mapping's "key:", where its
 * ':' is; else 0
 */
static size_t
key_colon(const Yaml *y)
{
	size_t		p = y->pos;
	char		q = y->s[p];

	if (q == '"' || q == '\'')
	{
		for (p++; !at_eol(y, p); p++)
		{
			if (q == '"' && y->s[p] == '\\' && !at_eol(y, p + 1))
				p++;
			else if (y->s[p] == q && q == '\'' && y->s[p + 1] == '\'')
				p++;
			else if (y->s[p] == q)
				break;
		}
		if (y->s[p] != q)
			return 0;
		for (p++; y->s[p] == ' '; p++)
			;
		return y->s[p] == ':' && (y->s[p + 1] == ' ' || at_eol(y, p + 1)) ? p : 0;
	}
	if (q == '[' || q == '{')
		return 0;
	for (; !at_eol(y, p) && !at_comment(y, p); p++)
		if (y->s[p] == ':' && (y->s[p + 1] == ' ' || at_eol(y, p + 1)))
			return p;
	return 0;
}

/*
 * next_line_at -- after an entry of a mapping or sequence at indent: whether the
 * next line with content goes on at indent (position moved to its content; else
 * left at its start); deeper is an error
 */
static bool
next_line_at(Yaml *y, int indent)
{
	int			ind = skip_blank(y);

	if (ind > indent)
		yerr_at(y, y->pos, "unexpected indentation (a plain scalar cannot continue on the next "
				"line: quote it, or use | or >)");
	if (y->err || ind < indent)
		return false;
	y->pos += (size_t) ind;
	return true;
}

static json_t *
parse_map(Yaml *y, int indent)
{
	json_t	   *map = json_object();

	for (;;)
	{
		size_t		start = y->pos;
		size_t		colon = key_colon(y);
		RlBuf		key;

		if (colon == 0)
		{
			if (!refuse_indicator(y, start))
				yerr_at(y, start, is_seq_item(y, start) ?
						"a sequence item where a mapping key was expected" :
						"expected \"key: value\" in a mapping");
			break;
		}
		if (refuse_indicator(y, start))
			break;
		rlbuf_init(&key);
		if (y->s[start] == '"' || y->s[start] == '\'')
			read_quoted(y, &key);
		else
		{
			size_t		end = colon;

			while (end > start && y->s[end - 1] == ' ')
				end--;
			rlbuf_append(&key, y->s + start, end - start);
		}
		y->pos = colon + 1;
		while (y->s[y->pos] == ' ')
			y->pos++;

		json_t	   *value = NULL;
		const char *k = rlbuf_cstr(&key);

		if (y->err)
			;
		else if (strlen(k) != key.len)
			yerr_at(y, start, "a mapping key holds a NUL character");
		else if (json_object_get(map, k))
			yerr_at(y, start, "duplicate key \"%s\"", k);
		else if (at_eol(y, y->pos) || at_comment(y, y->pos))
		{
			end_line(y);
			value = parse_below(y, indent, true);
		}
		else
			value = parse_inline(y, indent);
		if (value && json_object_set_new(map, k, value) != 0)
			yerr_at(y, start, "a mapping key is not valid UTF-8");
		rlbuf_free(&key);
		if (y->err)
			break;

		if (!next_line_at(y, indent))
			break;
	}
	if (y->err)
	{
		json_decref(map);
		return NULL;
	}
	return map;
}

static json_t *
parse_seq(Yaml *y, int indent)
{
	json_t	   *seq = json_array();

	for (;;)
	{
		json_t	   *item;

		y->pos++;				/* the '-' */
		while (y->s[y->pos] == ' ')
			y->pos++;
		if (at_eol(y, y->pos) || at_comment(y, y->pos))
		{
			end_line(y);
			item = parse_below(y, indent, false);
		}
		else
		{
			int			col = (int) column(y, y->pos);

			if (y->s[y->pos] == '\t')
				yerr_at(y, y->pos, "tabs are not allowed in indentation");
			item = y->err ? NULL : is_seq_item(y, y->pos) || key_colon(y) ?
				parse_block(y, col) : parse_inline(y, indent);
		}
		if (item == NULL)
			break;
		json_array_append_new(seq, item);

		if (!next_line_at(y, indent))
			break;
		/* what follows at this indentation, not an item, is its mapping's next key */
		if (!is_seq_item(y, y->pos))
		{
			y->pos -= (size_t) indent;
			break;
		}
	}
	if (y->err)
	{
		json_decref(seq);
		return NULL;
	}
	return seq;
}

/* the node starting at y->pos, at column indent */
static json_t *
parse_block(Yaml *y, int indent)
{
	if (is_seq_item(y, y->pos))
		return parse_seq(y, indent);
	if (key_colon(y))
		return parse_map(y, indent);
	return parse_inline(y, indent - 1);
}

/* in a flow collection: spaces, line breaks and comments */
static void
flow_space(Yaml *y)
{
	for (;;)
	{
		char		c = y->s[y->pos];

		if (c == ' ' || c == '\t' || c == '\n')
			y->pos++;
		else if (at_comment(y, y->pos))
			while (!at_eol(y, y->pos))
				y->pos++;
		else
			return;
	}
}

/* a scalar or nested collection inside [] or {}; key: a mapping's key (a string) */
static json_t *
parse_flow_item(Yaml *y, bool key)
{
	size_t		start = y->pos;
	char		c = y->s[start];

	if (refuse_indicator(y, start))
		return NULL;
	if (c == '[' || c == '{')
	{
		if (key)
		{
			yerr_at(y, start, "a collection as a mapping key is not supported");
			return NULL;
		}
		return parse_flow(y);
	}
	if (c == '|' || c == '>')
	{
		yerr_at(y, start, "a block scalar cannot be inside [] or {}");
		return NULL;
	}
	if (c == '"' || c == '\'')
	{
		RlBuf		b;
		json_t	   *v;

		rlbuf_init(&b);
		v = read_quoted(y, &b) ? make_string(y, start, b.data ? (const char *) b.data : "", b.len) : NULL;
		rlbuf_free(&b);
		return v;
	}

	size_t		end = start;

	while (!at_eol(y, end) && !strchr(",[]{}", y->s[end]) && !at_comment(y, end) &&
		   !(y->s[end] == ':' && (strchr(" ,[]{}\n", y->s[end + 1]) || y->s[end + 1] == '\0')))
		end++;
	y->pos = end;
	while (end > start && (y->s[end - 1] == ' ' || y->s[end - 1] == '\t'))
		end--;
	if (end == start)
	{
		yerr_at(y, start, "a value is missing in [] or {}");
		return NULL;
	}
	return key ? make_string(y, start, y->s + start, end - start) :
		resolve_plain(y, start, y->s + start, end - start);
}

/* a flow sequence or mapping whose bracket is at y->pos */
static json_t *
parse_flow(Yaml *y)
{
	size_t		open = y->pos;
	bool		is_map = y->s[open] == '{';
	char		close = is_map ? '}' : ']';
	json_t	   *coll = is_map ? json_object() : json_array();

	y->pos++;
	for (;;)
	{
		flow_space(y);
		if (y->s[y->pos] == close)
		{
			y->pos++;
			break;
		}
		if (y->s[y->pos] == '\0')
		{
			yerr_at(y, open, "'%c' is never closed", y->s[open]);
			break;
		}

		size_t		at = y->pos;
		json_t	   *item = parse_flow_item(y, is_map);

		if (item == NULL)
			break;
		flow_space(y);
		if (!is_map)
		{
			json_array_append_new(coll, item);
			if (y->s[y->pos] == ':')
			{
				yerr_at(y, at, "a mapping inside [] must be written {key: value}");
				break;
			}
		}
		else
		{
			json_t	   *value;
			const char *k = json_string_value(item);

			if (y->s[y->pos] != ':')
				yerr_at(y, at, "expected \"key: value\" in {}");
			else if (json_object_get(coll, k))
				yerr_at(y, at, "duplicate key \"%s\"", k);
			else if (strlen(k) != json_string_length(item))
				yerr_at(y, at, "a mapping key holds a NUL character");
			if (y->err)
			{
				json_decref(item);
				break;
			}
			y->pos++;
			flow_space(y);
			value = y->s[y->pos] == ',' || y->s[y->pos] == '}' ? json_null() : parse_flow_item(y, false);
			if (value)
				json_object_set_new(coll, k, value);
			json_decref(item);
			if (value == NULL)
				break;
			flow_space(y);
		}
		if (y->s[y->pos] == ',')
			y->pos++;
		else if (y->s[y->pos] != close)
		{
			if (y->s[y->pos])
				yerr_at(y, y->pos, "expected ',' or '%c'", close);
			else
				yerr_at(y, open, "'%c' is never closed", y->s[open]);
			break;
		}
	}
	if (y->err)
	{
		json_decref(coll);
		return NULL;
	}
	return coll;
}

json_t *
fdl_yaml_parse(const char *text, size_t len, const char *filename, char **errmsg)
{
	Yaml		y = {.file = filename};
	json_t	   *root = NULL;
	size_t		n = 0;

	*errmsg = NULL;
	y.s = malloc(len + 1);
	if (y.s == NULL)
	{
		*errmsg = strdup("out of memory");
		return NULL;
	}
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
	{
		text += 3;
		len -= 3;
	}
	for (size_t i = 0; i < len; i++)
	{
		if (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n')
			continue;
		y.s[n] = text[i];
		if (text[i] == '\0' || text[i] == '\r')
		{
			y.s[n] = '\0';
			yerr_at(&y, n, text[i] ? "a carriage return not followed by a line feed" :
					"the file holds a NUL byte");
			break;
		}
		n++;
	}
	y.s[n] = '\0';

	int			ind = y.err ? -1 : skip_blank(&y);

	if (ind == 0 && strncmp(y.s + y.pos, "---", 3) == 0 &&
		(y.s[y.pos + 3] == ' ' || at_eol(&y, y.pos + 3)))
	{
		y.pos += 3;
		end_line(&y);
		ind = y.err ? -1 : skip_blank(&y);
	}
	y.in_body = true;
	if (ind >= 0)
	{
		y.pos += (size_t) ind;
		root = parse_block(&y, ind);
		if (root && skip_blank(&y) >= 0)
			yerr_at(&y, y.pos, "unexpected content after the document's top-level node");
	}
	else if (!y.err)
		root = json_null();
	if (y.err)
	{
		json_decref(root);
		root = NULL;
		*errmsg = y.err;
	}
	free(y.s);
	return root;
}

json_t *
fdl_yaml_load(const char *path, const char *filename, char **errmsg)
{
	FILE	   *f = fopen(path, "rb");
	RlBuf		text;
	char		chunk[8192];
	size_t		got;
	json_t	   *root;

	if (f == NULL)
	{
		RlBuf		msg;

		rlbuf_init(&msg);
		rlbuf_printf(&msg, "%s: cannot read: %s", filename, strerror(errno));
		*errmsg = strdup(rlbuf_cstr(&msg));
		rlbuf_free(&msg);
		return NULL;
	}
	rlbuf_init(&text);
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		rlbuf_append(&text, chunk, got);
	fclose(f);
	root = fdl_yaml_parse(text.data ? (const char *) text.data : "", text.len, filename, errmsg);
	rlbuf_free(&text);
	return root;
}
