/*
 * strformat.c: format(formatstr text [, VARIADIC "any"]) as PostgreSQL 15 has it.
 *
 * A specifier is %[position$][-][width]type: type s (the argument's text, NULL as
 * nothing), I (an identifier, quoted as PostgreSQL's quote_ident quotes it: unless it
 * is lower-case letters, digits and underscores and no keyword but an unreserved one;
 * NULL is refused) or L (a literal as quote_literal writes it, NULL as NULL); %% is a
 * percent sign. The width is a number, * (the next argument) or *n$ (argument n); a
 * negative width, or -, aligns left; widths count characters. Arguments without a
 * position are taken after the last one used. Every malformed specifier has
 * PostgreSQL's error (22023), and a NULL format string gives NULL.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "utils/elog.h"
#include "utils/mcxt.h"
#include "common/rl_buffer.h"
#include "executor/strformat.h"
#include "utils/adt/typio.h"

/* libpg_query's keyword list: the parser's own, so %I quotes what it would refuse */
struct ScanKeywordList;
extern const struct ScanKeywordList ScanKeywords;
extern const uint8_t ScanKeywordCategories[];
extern int	ScanKeywordLookup(const char *str, const struct ScanKeywordList *keywords);
#define UNRESERVED_KEYWORD 0

#define FORMAT_HINT "For a single \"%%\" use \"%%%%\"."

static void
advance(const char **cp, const char *end)
{
	if (++*cp >= end)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("unterminated format() type specifier"),
				errhint(FORMAT_HINT));
}

/* parse_digits -- a decimal number at *cp, if there is one */
static bool
parse_digits(const char **cp, const char *end, int *n)
{
	bool		found = false;
	int64_t		v = 0;

	while (**cp >= '0' && **cp <= '9')
	{
		v = v * 10 + (**cp - '0');
		if (v > INT_MAX)
			ereport(ERROR,
					errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("number is out of range"));
		advance(cp, end);
		found = true;
	}
	*n = (int) v;
	return found;
}

static void
check_position(int n)
{
	if (n == 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("format specifies argument 0, but arguments are numbered from 1"));
}

/* quote_identifier -- PostgreSQL's quoting of an identifier */
static void
append_identifier(RlBuf *out, const char *s)
{
	bool		safe = (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_';

	for (const char *p = s; safe && *p; p++)
		safe = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
	if (safe)
	{
		int			kw = ScanKeywordLookup(s, &ScanKeywords);

		safe = kw < 0 || ScanKeywordCategories[kw] == UNRESERVED_KEYWORD;
	}
	if (safe)
	{
		rlbuf_append_str(out, s);
		return;
	}
	rlbuf_append_str(out, "\"");
	for (const char *p = s; *p; p++)
	{
		rlbuf_append(out, p, 1);
		if (*p == '"')
			rlbuf_append(out, p, 1);
	}
	rlbuf_append_str(out, "\"");
}

/* append_literal -- quote_literal: quotes doubled, backslashes doubled after an E */
static void
append_literal(RlBuf *out, const char *s)
{
	if (strchr(s, '\\') != NULL)
		rlbuf_append_str(out, "E");
	rlbuf_append_str(out, "'");
	for (const char *p = s; *p; p++)
	{
		rlbuf_append(out, p, 1);
		if (*p == '\'' || *p == '\\')
			rlbuf_append(out, p, 1);
	}
	rlbuf_append_str(out, "'");
}

/* append_padded -- s in width characters, spaces before it or (left) after it */
static void
append_padded(RlBuf *out, const char *s, size_t len, int width, bool left)
{
	int64_t		chars = 0;

	for (size_t i = 0; i < len; i++)
		chars += ((unsigned char) s[i] & 0xC0) != 0x80;
	if (left)
		rlbuf_append(out, s, len);
	for (int64_t i = chars; i < width; i++)
		rlbuf_append_str(out, " ");
	if (!left)
		rlbuf_append(out, s, len);
}

/* quote_literal -- append_literal as a function (quote_literal(text) is strict) */
Value
f_quote_literal(ExecState *es, const Value *args, int nargs)
{
	RlBuf		out;

	rlbuf_init_in(&out, CurrentMemoryContext);
	append_literal(&out, pnstrdup(args[0].u.s.data, args[0].u.s.len));
	return typio_string(TEXTOID, (const char *) out.data, out.len);
}

/* quote_ident -- append_identifier as a function */
Value
f_quote_ident(ExecState *es, const Value *args, int nargs)
{
	RlBuf		out;

	rlbuf_init_in(&out, CurrentMemoryContext);
	append_identifier(&out, pnstrdup(args[0].u.s.data, args[0].u.s.len));
	return typio_string(TEXTOID, (const char *) out.data, out.len);
}

Value
f_format(ExecState *es, const Value *args, int nargs)
{
	if (args[0].isnull)
		return typio_null(TEXTOID);

	const char *cp = args[0].u.s.data,
			   *end = cp + args[0].u.s.len;
	int			arg = 0;
	RlBuf		out;

	rlbuf_init_in(&out, CurrentMemoryContext);
	for (; cp < end; cp++)
	{
		int			argpos = -1,
					widthpos = -1,
					width = 0,
					n;
		bool		left = false,
					digits;

		if (*cp != '%')
		{
			rlbuf_append(&out, cp, 1);
			continue;
		}
		advance(&cp, end);
		if (*cp == '%')
		{
			rlbuf_append_str(&out, "%");
			continue;
		}
		digits = parse_digits(&cp, end, &n);
		if (digits && *cp != '$')
			width = n;			/* just a width: the type follows */
		else
		{
			if (digits)
			{
				check_position(n);
				argpos = n;
				advance(&cp, end);
			}
			for (; *cp == '-'; advance(&cp, end))
				left = true;
			if (*cp == '*')
			{
				advance(&cp, end);
				widthpos = 0;
				if (parse_digits(&cp, end, &n))
				{
					if (*cp != '$')
						ereport(ERROR,
								errcode(ERRCODE_INVALID_PARAMETER_VALUE),
								errmsg("width argument position must be ended by \"$\""));
					check_position(n);
					widthpos = n;
					advance(&cp, end);
				}
			}
			else if (parse_digits(&cp, end, &n))
				width = n;
		}
		if (*cp != 's' && *cp != 'I' && *cp != 'L')
		{
			int			mblen = 1;

			while (cp + mblen < end && ((unsigned char) cp[mblen] & 0xC0) == 0x80)
				mblen++;
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("unrecognized format() type specifier \"%.*s\"", mblen, cp),
					errhint(FORMAT_HINT));
		}
		if (widthpos >= 0)
		{
			arg = widthpos > 0 ? widthpos : arg + 1;
			if (arg >= nargs)
				ereport(ERROR,
						errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("too few arguments for format()"));
			width = 0;
			if (!args[arg].isnull)
			{
				Value		w = ExecCastValue(&args[arg], INT4OID, -1, false);

				if (w.u.i == INT_MIN)
					ereport(ERROR,
							errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
							errmsg("number is out of range"));
				left = left || w.u.i < 0;
				width = (int) (w.u.i < 0 ? -w.u.i : w.u.i);
			}
		}
		arg = argpos > 0 ? argpos : arg + 1;
		if (arg >= nargs)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("too few arguments for format()"));

		const Value *v = &args[arg];
		RlBuf		conv;

		if (v->isnull && *cp == 'I')
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("null values cannot be formatted as an SQL identifier"));
		rlbuf_init_in(&conv, CurrentMemoryContext);
		if (v->isnull)
			rlbuf_append_str(&conv, *cp == 'L' ? "NULL" : "");
		else if (*cp == 's')
		{
			size_t		len;
			char	   *text = typio_output(v, &len);

			rlbuf_append(&conv, text, len);
		}
		else if (*cp == 'I')
			append_identifier(&conv, typio_output(v, NULL));
		else
			append_literal(&conv, typio_output(v, NULL));
		append_padded(&out, (const char *) conv.data, conv.len, width, left);
		rlbuf_free(&conv);
	}

	Value		r = typio_string(TEXTOID, out.len ? (const char *) out.data : "", out.len);

	rlbuf_free(&out);
	return r;
}
