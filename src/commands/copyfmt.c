/*
 * copyfmt.c: COPY's text, CSV and binary formats (copyfmt.h), byte-compatible with
 * PostgreSQL's copyto.c / copyfromparse.c for what clients send and expect:
 * psql's "\copy" and COPY FROM STDIN (text, with the in-band "\." line psql sends
 * inside the data), DuckDB's binary COPY TO STDOUT (it checks the PGCOPY
 * signature), CSV with HEADER.
 */
#include <string.h>

#include "commands/copyfmt.h"
#include "utils/elog.h"
#include "utils/mb/encoding.h"
#include "utils/mcxt.h"

static const uint8_t binary_signature[11] = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', 0xff, '\r', '\n', 0};

void
copy_options_init(CopyOptions *opts, CopyFormat format)
{
	memset(opts, 0, sizeof(*opts));
	opts->format = format;
	opts->delim = format == COPY_FORMAT_CSV ? ',' : '\t';
	opts->quote = '"';
	opts->escape = '"';
	opts->null_string = format == COPY_FORMAT_CSV ? "" : "\\N";
}

/* ---------- COPY TO ---------- */

static void
put_text_field(RlBuf *out, const CopyOptions *opts, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
	{
		char		c = s[i];
		const char *esc = NULL;

		switch (c)
		{
			case '\\':
				esc = "\\\\";
				break;
			case '\b':
				esc = "\\b";
				break;
			case '\f':
				esc = "\\f";
				break;
			case '\n':
				esc = "\\n";
				break;
			case '\r':
				esc = "\\r";
				break;
			case '\t':
				esc = "\\t";
				break;
			case '\v':
				esc = "\\v";
				break;
		}
		if (esc)
			rlbuf_append_str(out, esc);
		else
		{
			if (c == opts->delim)
				rlbuf_put_u8(out, '\\');
			rlbuf_put_u8(out, (uint8_t) c);
		}
	}
}

/* put_csv_field -- quoted when it holds a delimiter, quote, newline, or looks like NULL */
static void
put_csv_field(RlBuf *out, const CopyOptions *opts, const char *s, size_t len)
{
	bool		quote = len == 0 || strcmp(s, opts->null_string) == 0;

	for (size_t i = 0; i < len && !quote; i++)
		quote = s[i] == opts->delim || s[i] == opts->quote || s[i] == '\n' || s[i] == '\r';
	if (!quote)
	{
		rlbuf_append(out, s, len);
		return;
	}
	rlbuf_put_u8(out, (uint8_t) opts->quote);
	for (size_t i = 0; i < len; i++)
	{
		if (s[i] == opts->quote || s[i] == opts->escape)
			rlbuf_put_u8(out, (uint8_t) opts->escape);
		rlbuf_put_u8(out, (uint8_t) s[i]);
	}
	rlbuf_put_u8(out, (uint8_t) opts->quote);
}

static void
put_field(RlBuf *out, const CopyOptions *opts, const char *s, size_t len)
{
	if (opts->format == COPY_FORMAT_CSV)
		put_csv_field(out, opts, s, len);
	else
		put_text_field(out, opts, s, len);
}

void
copy_encode_start(RlBuf *out, const CopyOptions *opts, int ncolumns, const char *const *names)
{
	if (opts->format == COPY_FORMAT_BINARY)
	{
		rlbuf_append(out, binary_signature, sizeof(binary_signature));
		rlbuf_put_u32be(out, 0);	/* flags */
		rlbuf_put_u32be(out, 0);	/* header extension length */
		return;
	}
	if (!opts->header)
		return;
	for (int i = 0; i < ncolumns; i++)
	{
		if (i > 0)
			rlbuf_put_u8(out, (uint8_t) opts->delim);
		put_field(out, opts, names[i], strlen(names[i]));
	}
	rlbuf_put_u8(out, '\n');
}

void
copy_encode_row(RlBuf *out, const CopyOptions *opts, int ncolumns, const Value *row)
{
	if (opts->format == COPY_FORMAT_BINARY)
	{
		PqMsgBuilder field = {.buf = out};
		uint8_t		count[2] = {(uint8_t) (ncolumns >> 8), (uint8_t) ncolumns};

		rlbuf_append(out, count, 2);
		for (int i = 0; i < ncolumns; i++)
		{
			if (row[i].isnull)
			{
				rlbuf_put_u32be(out, UINT32_MAX);
				continue;
			}
			size_t		lenpos = pq_sendint32_placeholder(&field);

			typio_send(&field, &row[i]);
			pq_patchint32(&field, lenpos, (uint32_t) (out->len - lenpos - 4));
		}
		return;
	}
	for (int i = 0; i < ncolumns; i++)
	{
		if (i > 0)
			rlbuf_put_u8(out, (uint8_t) opts->delim);
		if (row[i].isnull)
			rlbuf_append_str(out, opts->null_string);
		else
		{
			size_t		len;
			char	   *text = typio_output(&row[i], &len);

			put_field(out, opts, text, len);
		}
	}
	rlbuf_put_u8(out, '\n');
}

void
copy_encode_end(RlBuf *out, const CopyOptions *opts)
{
	if (opts->format == COPY_FORMAT_BINARY)
	{
		uint8_t		trailer[2] = {0xff, 0xff};

		rlbuf_append(out, trailer, 2);
	}
}

/* ---------- COPY FROM ---------- */

void
copy_decoder_init(CopyDecoder *dec, const CopyOptions *opts, int ncolumns, const Oid *types)
{
	memset(dec, 0, sizeof(*dec));
	dec->opts = *opts;
	dec->ncolumns = ncolumns;
	dec->types = types;
	dec->pending_cap = 8192;
	dec->pending = palloc(dec->pending_cap);
	dec->header_done = !opts->header && opts->format != COPY_FORMAT_BINARY;
	dec->column = -1;
}

void
copy_decoder_feed(CopyDecoder *dec, const void *data, size_t len)
{
	if (dec->consumed > 0)
	{
		memmove(dec->pending, dec->pending + dec->consumed, dec->pending_len - dec->consumed);
		dec->pending_len -= dec->consumed;
		dec->consumed = 0;
	}
	if (dec->pending_len + len > dec->pending_cap)
	{
		while (dec->pending_len + len > dec->pending_cap)
			dec->pending_cap *= 2;
		dec->pending = repalloc(dec->pending, dec->pending_cap);
	}
	if (len > 0)
		memcpy(dec->pending + dec->pending_len, data, len);
	dec->pending_len += len;
}

void
copy_decoder_free(CopyDecoder *dec)
{
	pfree(dec->pending);
	dec->pending = NULL;
}

/* bad_copy -- 22P04 (its context is the caller's: copy_decoder_context) */
static void
bad_copy(const CopyDecoder *dec, const char *message)
{
	ereport(ERROR,
			errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
			errmsg("%s", message));
}

/* printout -- data shown in a context, cut at 100 bytes (whole characters) with "...", as PostgreSQL's */
static char *
printout(const char *s, size_t len)
{
	const size_t limit = 100;

	if (len <= limit)
		return pnstrdup(s, len);
	size_t		cut = limit;

	while (cut > 0 && ((unsigned char) s[cut] & 0xC0) == 0x80)
		cut--;
	return psprintf("%.*s...", (int) cut, s);
}

char *
copy_decoder_context(const CopyDecoder *dec, const char *relname)
{
	const char *const *names = dec->names;

	if (dec->column >= 0 && dec->column < dec->ncolumns)
	{
		/* a binary tuple counts as a line once read whole */
		if (dec->opts.format == COPY_FORMAT_BINARY)
			return psprintf("COPY %s, line %ld, column %s", relname, dec->lineno + 1, names[dec->column]);
		if (dec->value == NULL)
			return psprintf("COPY %s, line %ld, column %s: null input", relname, dec->lineno, names[dec->column]);
		return psprintf("COPY %s, line %ld, column %s: \"%s\"", relname, dec->lineno, names[dec->column],
						printout(dec->value, strlen(dec->value)));
	}
	if (dec->line != NULL)
		return psprintf("COPY %s, line %ld: \"%s\"", relname, dec->lineno, dec->row_line);
	return psprintf("COPY %s, line %ld", relname, dec->lineno);
}

/*
 * find_line_end -- the end of the next line at the cursor: an unquoted newline
 * for CSV, any newline otherwise. Returns false if it is not all here yet.
 */
static bool
find_line_end(const CopyDecoder *dec, size_t *end)
{
	const char *p = (const char *) dec->pending + dec->consumed;
	size_t		n = dec->pending_len - dec->consumed;
	bool		in_quote = false;

	for (size_t i = 0; i < n; i++)
	{
		if (dec->opts.format == COPY_FORMAT_CSV && p[i] == dec->opts.quote)
			in_quote = !in_quote;
		else if (p[i] == '\n' && !in_quote)
		{
			*end = dec->consumed + i;
			return true;
		}
	}
	return false;
}

/*
 * text_unescape -- one text-format field with its backslash escapes resolved
 *
 * The line was checked to be UTF-8; an octal or hex escape can still make a NUL or
 * a byte of a multibyte character, so a field that got one is checked again.
 */
static char *
text_unescape(const char *s, size_t len, size_t *outlen)
{
	char	   *out = palloc(len + 1);
	size_t		n = 0;
	bool		made_non_ascii = false;

	for (size_t i = 0; i < len; i++)
	{
		if (s[i] != '\\' || i + 1 == len)
		{
			out[n++] = s[i];
			continue;
		}
		char		c = s[++i];

		if (c >= '0' && c <= '7')
		{
			int			v = c - '0';

			for (int k = 0; k < 2 && i + 1 < len && s[i + 1] >= '0' && s[i + 1] <= '7'; k++)
				v = v * 8 + (s[++i] - '0');
			made_non_ascii |= v == 0 || v >= 0x80;
			out[n++] = (char) v;
		}
		else if (c == 'x' && i + 1 < len && strchr("0123456789abcdefABCDEF", s[i + 1]))
		{
			int			v = 0;

			for (int k = 0; k < 2 && i + 1 < len && s[i + 1] && strchr("0123456789abcdefABCDEF", s[i + 1]); k++)
			{
				char		h = s[++i];

				v = v * 16 + (h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
			}
			made_non_ascii |= v == 0 || v >= 0x80;
			out[n++] = (char) v;
		}
		else
			out[n++] = c == 'b' ? '\b' : c == 'f' ? '\f' : c == 'n' ? '\n' : c == 'r' ? '\r'
				: c == 't' ? '\t' : c == 'v' ? '\v' : c;
	}
	out[n] = '\0';
	*outlen = n;
	if (made_non_ascii)
		pg_verify_utf8(out, n);
	return out;
}

static void
store_field(CopyDecoder *dec, Value *row, int col, const char *text, bool isnull)
{
	if (col >= dec->ncolumns)
		bad_copy(dec, "extra data after last expected column");
	dec->column = col;
	dec->value = isnull ? NULL : text;
	row[col] = isnull ? typio_null(dec->types[col])
		: typio_input(dec->types[col], text, dec->typmods ? dec->typmods[col] : -1);
	dec->column = -1;
}

/* parse_line -- split one line (without its newline) into row */
static void
parse_line(CopyDecoder *dec, const char *line, size_t len, Value *row)
{
	int			col = 0;
	size_t		i = 0;
	const CopyOptions *o = &dec->opts;

	for (;;)
	{
		char	   *field = palloc(len + 1);
		size_t		flen = 0;
		bool		quoted = false;
		size_t		start = i;

		if (o->format == COPY_FORMAT_CSV)
		{
			bool		in_quote = false;

			for (; i < len && (in_quote || line[i] != o->delim); i++)
			{
				if (in_quote && line[i] == o->escape && i + 1 < len && line[i + 1] == o->quote)
					field[flen++] = line[++i];
				else if (line[i] == o->quote)
				{
					in_quote = !in_quote;
					quoted = true;
				}
				else
					field[flen++] = line[i];
			}
		}
		else
			for (; i < len && line[i] != o->delim; i++)
				if (line[i] == '\\' && i + 1 < len)
					i++;		/* an escaped delimiter belongs to the field */
		field[flen] = '\0';
		if (o->format == COPY_FORMAT_CSV)
			store_field(dec, row, col, field, !quoted && strcmp(field, o->null_string) == 0);
		else
		{
			size_t		rawlen = i - start;
			bool		isnull = rawlen == strlen(o->null_string) &&
				memcmp(line + start, o->null_string, rawlen) == 0;
			size_t		flen;

			store_field(dec, row, col, isnull ? NULL : text_unescape(line + start, rawlen, &flen), isnull);
		}
		col++;
		if (i >= len)
			break;
		i++;					/* the delimiter */
	}
	if (col < dec->ncolumns)
		bad_copy(dec, dec->names ? psprintf("missing data for column \"%s\"", dec->names[col])
				 : psprintf("missing data for column %d", col + 1));
}

static bool
next_text_row(CopyDecoder *dec, Value *row, bool at_eof)
{
	for (;;)
	{
		size_t		end;
		bool		whole = find_line_end(dec, &end);

		if (!whole)
		{
			if (!at_eof || dec->consumed == dec->pending_len)
				return false;
			end = dec->pending_len;	/* a last line without newline */
		}
		const char *line = (const char *) dec->pending + dec->consumed;
		size_t		len = end - dec->consumed;

		dec->consumed = end + (whole ? 1 : 0);
		dec->lineno++;
		pg_verify_utf8(line, len);	/* all of it, the header line too, as PostgreSQL does */
		if (len > 0 && line[len - 1] == '\r')
			len--;
		if (len == 2 && line[0] == '\\' && line[1] == '.')
		{
			dec->finished = true;
			dec->consumed = dec->pending_len;	/* anything after "\." is ignored */
			return false;
		}
		if (!dec->header_done)
		{
			dec->header_done = true;
			continue;
		}
		dec->line = line;
		dec->line_len = len;
		dec->row_line = printout(line, len);
		parse_line(dec, line, len, row);
		dec->line = NULL;
		return true;
	}
}

static bool
next_binary_row(CopyDecoder *dec, Value *row, bool at_eof)
{
	RlReader	r;
	size_t		avail = dec->pending_len - dec->consumed;

	rlreader_init(&r, dec->pending + dec->consumed, avail);
	if (!dec->header_done)
	{
		const uint8_t *sig = rlreader_bytes(&r, sizeof(binary_signature));
		const uint8_t *flags = rlreader_bytes(&r, 4);
		const uint8_t *extlen = rlreader_bytes(&r, 4);

		if (sig && memcmp(sig, binary_signature, sizeof(binary_signature)) != 0)
			bad_copy(dec, "COPY file signature not recognized");
		if (extlen == NULL || rlreader_bytes(&r, rl_load_u32be(extlen)) == NULL)
		{
			if (at_eof)
				bad_copy(dec, "invalid COPY file header (missing length)");
			return false;
		}
		if (rl_load_u32be(flags) & 0x00010000)
			bad_copy(dec, "invalid COPY file header (WITH OIDS)");
		dec->header_done = true;
		dec->consumed += avail - rlreader_remaining(&r);
		avail = rlreader_remaining(&r);
	}
	const uint8_t *countp = rlreader_bytes(&r, 2);

	if (countp == NULL)
	{
		if (at_eof && avail > 0)
			bad_copy(dec, "unexpected EOF in COPY data");
		return false;
	}
	int16_t		count = (int16_t) ((countp[0] << 8) | countp[1]);

	if (count == -1)
	{
		dec->finished = true;
		dec->consumed = dec->pending_len;
		return false;
	}
	if (count != dec->ncolumns)
		bad_copy(dec, psprintf("row field count is %d, expected %d", count, dec->ncolumns));
	for (int i = 0; i < count; i++)
	{
		const uint8_t *lenp = rlreader_bytes(&r, 4);
		int32_t		len = lenp ? (int32_t) rl_load_u32be(lenp) : 0;
		const uint8_t *data = len > 0 ? rlreader_bytes(&r, (size_t) len) : NULL;

		if (lenp == NULL || (len > 0 && data == NULL))
		{
			if (at_eof)
				bad_copy(dec, "unexpected EOF in COPY data");
			return false;		/* the rest of the tuple is in a later CopyData */
		}
		dec->column = i;
		row[i] = len < 0 ? typio_null(dec->types[i])
			: typio_receive(dec->types[i], data ? data : (const uint8_t *) "", (size_t) len);
		dec->column = -1;
	}
	dec->lineno++;
	dec->consumed += avail - rlreader_remaining(&r);
	return true;
}

bool
copy_decoder_next(CopyDecoder *dec, Value *row, bool at_eof)
{
	if (dec->finished)
		return false;
	if (dec->opts.format == COPY_FORMAT_BINARY)
		return next_binary_row(dec, row, at_eof);
	return next_text_row(dec, row, at_eof);
}
