/*
 * funcs_string.c: the builtin functions on strings (funcs_internal.h; the table of
 * builtins is funcs.c's): lengths and positions count characters, UTF-8's, not
 * bytes, as PostgreSQL's do in a UTF8 database.
 */
#include "executor/funcs_internal.h"

/* ---------- strings (UTF-8: a character starts at every byte but 10xxxxxx) ---------- */

/* utf8_chars -- the characters of len bytes */
static int64_t
utf8_chars(const char *s, size_t len)
{
	int64_t		n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char) s[i] & 0xC0) != 0x80;
	return n;
}

/* utf8_bytes -- the bytes of the first n characters of s (all of it if fewer) */
static size_t
utf8_bytes(const char *s, size_t len, int64_t n)
{
	size_t		i = 0;

	for (int64_t c = 0; i < len && c < n; c++)
		while (++i < len && ((unsigned char) s[i] & 0xC0) == 0x80)
			;
	return i;
}

/* text_of -- len bytes as text (s may be an empty buffer's NULL) */
Value
text_of(const char *s, size_t len)
{
	return typio_string(TEXTOID, len ? s : "", len);
}

/* f_length -- length, char_length, character_length: characters */
Value
f_length(ExecState *es, const Value *args, int nargs)
{
	return typio_int(INT4OID, utf8_chars(args[0].u.s.data, args[0].u.s.len));
}

Value
f_octet_length(ExecState *es, const Value *args, int nargs)
{
	return typio_int(INT4OID, (int64_t) args[0].u.s.len);
}

/* f_substring -- substring(s, start [, count]), substr: characters from start (1-based) */
Value
f_substring(ExecState *es, const Value *args, int nargs)
{
	const Value *s = &args[0];
	int64_t		start = args[1].u.i,
				end = INT64_MAX;

	if (nargs == 3)
	{
		if (args[2].u.i < 0)
			ereport(ERROR,
					errcode(ERRCODE_SUBSTRING_ERROR),
					errmsg("negative substring length not allowed"));
		end = start + args[2].u.i;	/* int4 arguments: no overflow in 64 bits */
	}
	if (start < 1)
		start = 1;
	if (end <= start)
		return text_of("", 0);

	size_t		from = utf8_bytes(s->u.s.data, s->u.s.len, start - 1);
	size_t		to = end == INT64_MAX ? s->u.s.len
		: from + utf8_bytes(s->u.s.data + from, s->u.s.len - from, end - start);

	return text_of(s->u.s.data + from, to - from);
}

/*
 * f_like_escape -- like_escape(pattern, escape), which LIKE ... ESCAPE 'c' calls: the
 * pattern with backslash as its escape character, which is what LIKE reads. ESCAPE ''
 * doubles every backslash (none escapes); 'c' becomes a backslash, and a backslash
 * not escaped by c is doubled. The escape must be one character (22025).
 */
Value
f_like_escape(ExecState *es, const Value *args, int nargs)
{
	const char *p = args[0].u.s.data,
			   *e = args[1].u.s.data;
	size_t		plen = args[0].u.s.len,
				elen = args[1].u.s.len;
	RlBuf		out;
	bool		after_escape = false;

	if (elen > 0 && utf8_bytes(e, elen, 1) != elen)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_ESCAPE_SEQUENCE),
				errmsg("invalid escape string"),
				errhint("Escape string must be empty or one character."));
	if (elen == 1 && e[0] == '\\')
		return args[0];
	rlbuf_init_in(&out, CurrentMemoryContext);
	for (size_t i = 0; i < plen;)
	{
		size_t		n = utf8_bytes(p + i, plen - i, 1);

		if (elen > 0 && n == elen && memcmp(p + i, e, n) == 0 && !after_escape)
		{
			rlbuf_append_str(&out, "\\");
			after_escape = true;
		}
		else
		{
			if (p[i] == '\\' && (elen == 0 || !after_escape))
				rlbuf_append_str(&out, "\\");
			rlbuf_append(&out, p + i, n);
			after_escape = false;
		}
		i += n;
	}

	Value		v = text_of((const char *) out.data, out.len);

	rlbuf_free(&out);
	return v;
}

/* f_strpos -- strpos(s, sub), position(sub IN s): the character where sub starts, 0 if nowhere */
Value
f_strpos(ExecState *es, const Value *args, int nargs)
{
	const Value *s = &args[0],
			   *sub = &args[1];

	for (size_t i = 0; i + sub->u.s.len <= s->u.s.len; i++)
		if (memcmp(s->u.s.data + i, sub->u.s.data, sub->u.s.len) == 0)
			return typio_int(INT4OID, utf8_chars(s->u.s.data, i) + 1);
	return typio_int(INT4OID, 0);
}

Value
f_replace(ExecState *es, const Value *args, int nargs)
{
	const Value *s = &args[0],
			   *from = &args[1],
			   *to = &args[2];
	RlBuf		out;

	if (from->u.s.len == 0)
		return *s;
	rlbuf_init_in(&out, CurrentMemoryContext);
	for (size_t i = 0; i < s->u.s.len;)
	{
		if (i + from->u.s.len <= s->u.s.len && memcmp(s->u.s.data + i, from->u.s.data, from->u.s.len) == 0)
		{
			rlbuf_append(&out, to->u.s.data, to->u.s.len);
			i += from->u.s.len;
		}
		else
			rlbuf_append(&out, s->u.s.data + i++, 1);
	}
	return text_of((const char *) out.data, out.len);
}

/* in_set -- whether the character at s (of n bytes) is one of set's characters */
static bool
in_set(const char *s, size_t n, const Value *set)
{
	for (size_t i = 0; i < set->u.s.len;)
	{
		size_t		k = utf8_bytes(set->u.s.data + i, set->u.s.len - i, 1);

		if (k == n && memcmp(set->u.s.data + i, s, n) == 0)
			return true;
		i += k;
	}
	return false;
}

/* trim -- btrim, ltrim, rtrim: the characters of set (a space if none given) off its ends */
static Value
trim(const Value *args, int nargs, bool left, bool right)
{
	static const Value space = {.type = TEXTOID, .u.s = {.data = (char *) " ", .len = 1}};
	const Value *set = nargs > 1 ? &args[1] : &space;
	const char *s = args[0].u.s.data;
	size_t		from = 0,
				to = args[0].u.s.len;

	while (left && from < to)
	{
		size_t		n = utf8_bytes(s + from, to - from, 1);

		if (!in_set(s + from, n, set))
			break;
		from += n;
	}
	while (right && from < to)
	{
		size_t		last = to - 1;

		while (last > from && ((unsigned char) s[last] & 0xC0) == 0x80)
			last--;
		if (!in_set(s + last, to - last, set))
			break;
		to = last;
	}
	return text_of(s + from, to - from);
}

Value
f_btrim(ExecState *es, const Value *args, int nargs)
{
	return trim(args, nargs, true, true);
}

Value
f_ltrim(ExecState *es, const Value *args, int nargs)
{
	return trim(args, nargs, true, false);
}

Value
f_rtrim(ExecState *es, const Value *args, int nargs)
{
	return trim(args, nargs, false, true);
}

/* f_left -- left(s, n): the first n characters; n < 0: all but the last -n */
Value
f_left(ExecState *es, const Value *args, int nargs)
{
	int64_t		chars = utf8_chars(args[0].u.s.data, args[0].u.s.len),
				n = args[1].u.i < 0 ? chars + args[1].u.i : args[1].u.i;

	return text_of(args[0].u.s.data, utf8_bytes(args[0].u.s.data, args[0].u.s.len, n < 0 ? 0 : n));
}

/* f_right -- right(s, n): the last n characters; n < 0: all but the first -n */
Value
f_right(ExecState *es, const Value *args, int nargs)
{
	int64_t		chars = utf8_chars(args[0].u.s.data, args[0].u.s.len),
				skip = args[1].u.i < 0 ? -args[1].u.i : chars - args[1].u.i;
	size_t		from = utf8_bytes(args[0].u.s.data, args[0].u.s.len, skip < 0 ? 0 : skip);

	return text_of(args[0].u.s.data + from, args[0].u.s.len - from);
}

/* pad -- lpad, rpad: s filled to n characters with fill (a space if none), or cut to n */
static Value
pad(const Value *args, int nargs, bool left)
{
	const Value *s = &args[0];
	int64_t		n = args[1].u.i < 0 ? 0 : args[1].u.i,
				chars = utf8_chars(s->u.s.data, s->u.s.len);
	const char *fill = nargs > 2 ? args[2].u.s.data : " ";
	size_t		fill_len = nargs > 2 ? args[2].u.s.len : 1;
	RlBuf		out;

	if (chars >= n || fill_len == 0)
		return text_of(s->u.s.data, utf8_bytes(s->u.s.data, s->u.s.len, n));
	rlbuf_init_in(&out, CurrentMemoryContext);
	if (!left)
		rlbuf_append(&out, s->u.s.data, s->u.s.len);
	for (int64_t c = chars; c < n;)
		for (size_t i = 0; i < fill_len && c < n; c++)
		{
			size_t		k = utf8_bytes(fill + i, fill_len - i, 1);

			rlbuf_append(&out, fill + i, k);
			i += k;
		}
	if (left)
		rlbuf_append(&out, s->u.s.data, s->u.s.len);
	return text_of((const char *) out.data, out.len);
}

Value
f_lpad(ExecState *es, const Value *args, int nargs)
{
	return pad(args, nargs, true);
}

Value
f_rpad(ExecState *es, const Value *args, int nargs)
{
	return pad(args, nargs, false);
}

/* f_split_part -- split_part(s, delimiter, n): field n (from the end if n < 0) */
Value
f_split_part(ExecState *es, const Value *args, int nargs)
{
	const Value *s = &args[0],
			   *d = &args[1];
	int64_t		n = args[2].u.i,
				fields = 1;

	if (n == 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("field position must not be zero"));
	if (d->u.s.len == 0)
		return n == 1 || n == -1 ? *s : text_of("", 0);
	for (size_t i = 0; i + d->u.s.len <= s->u.s.len; i++)
		if (memcmp(s->u.s.data + i, d->u.s.data, d->u.s.len) == 0)
		{
			fields++;
			i += d->u.s.len - 1;
		}
	if (n < 0)
		n += fields + 1;
	if (n < 1 || n > fields)
		return text_of("", 0);

	size_t		start = 0;

	for (int64_t f = 1;; f++)
	{
		size_t		end = start;

		while (end + d->u.s.len <= s->u.s.len && memcmp(s->u.s.data + end, d->u.s.data, d->u.s.len) != 0)
			end++;
		if (end + d->u.s.len > s->u.s.len)
			end = s->u.s.len;
		if (f == n)
			return text_of(s->u.s.data + start, end - start);
		start = end + d->u.s.len;
	}
}

Value
f_repeat(ExecState *es, const Value *args, int nargs)
{
	RlBuf		out;

	if (args[1].u.i > 0 && args[0].u.s.len > (size_t) (1 << 30) / (size_t) args[1].u.i)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("requested length too large"));
	rlbuf_init_in(&out, CurrentMemoryContext);
	for (int64_t i = 0; i < args[1].u.i; i++)
		rlbuf_append(&out, args[0].u.s.data, args[0].u.s.len);
	return text_of((const char *) out.data, out.len);
}

Value
f_reverse(ExecState *es, const Value *args, int nargs)
{
	const Value *s = &args[0];
	Value		r = text_of(s->u.s.data, s->u.s.len);
	size_t		at = s->u.s.len;

	for (size_t i = 0; i < s->u.s.len;)
	{
		size_t		k = utf8_bytes(s->u.s.data + i, s->u.s.len - i, 1);

		at -= k;
		memcpy(r.u.s.data + at, s->u.s.data + i, k);
		i += k;
	}
	return r;
}

Value
f_starts_with(ExecState *es, const Value *args, int nargs)
{
	return typio_bool(args[1].u.s.len <= args[0].u.s.len &&
					  memcmp(args[0].u.s.data, args[1].u.s.data, args[1].u.s.len) == 0);
}

Value
change_case(const Value *v, bool upper)
{
	Value		r = typio_string(TEXTOID, v->u.s.data, v->u.s.len);

	for (size_t i = 0; i < r.u.s.len; i++)
	{
		char		c = r.u.s.data[i];

		if (upper && c >= 'a' && c <= 'z')
			r.u.s.data[i] = (char) (c - 'a' + 'A');
		else if (!upper && c >= 'A' && c <= 'Z')
			r.u.s.data[i] = (char) (c - 'A' + 'a');
	}
	return r;
}

Value
f_lower(ExecState *es, const Value *args, int nargs)
{
	return change_case(&args[0], false);
}

Value
f_upper(ExecState *es, const Value *args, int nargs)
{
	return change_case(&args[0], true);
}
