/*
 * regexp.c: PostgreSQL's regular expressions (the ~ ~* !~ !~* operators, regexp_replace,
 * regexp_match, regexp_matches, regexp_split_to_array and substring(x FROM pattern)) over glibc's POSIX
 * extended expressions, which Debian 12 has without another library.
 *
 * regexp_replace takes PostgreSQL 15's start and n arguments too (the nth match only).
 *
 * regexp_matches is set-returning: each match's text[] a row (the flag g: every match).
 * x SIMILAR TO p [ESCAPE e] is PostgreSQL's x ~ similar_to_escape(p [, e]).
 *
 * PostgreSQL's expressions are Henry Spencer's "advanced" ones (ARE). A pattern is
 * written as the POSIX expression that means the same: the class escapes \d \s \w
 * (and \D \S \W outside brackets) become bracket expressions, \y \Y \m \M glibc's
 * word boundaries \b \B \< \>, \n \t \r \f \v their characters, and an escaped
 * punctuation character stays escaped. A non-capturing group (?:...) is a plain group,
 * which the matches then leave out (Regex.group maps PostgreSQL's groups to glibc's,
 * for the results and the back references). What POSIX cannot say is refused with
 * 0A000 rather than answered differently: non-greedy quantifiers (*? +? ?? {m,n}?),
 * the other (?...) constructs (lookahead, embedded options), the other
 * letter escapes, \] \^ \- inside brackets (POSIX has no escapes there), and the
 * options that change the syntax (b q x) or make newlines half-sensitive (p w).
 * Errors a pattern has are 2201B with PostgreSQL's messages: the translation finds
 * unbalanced parentheses and brackets and repetition counts over 255 (PostgreSQL's
 * limit, which POSIX does not share), glibc the rest.
 *
 * Matching follows POSIX's leftmost-longest rule where PostgreSQL's follows the
 * greediness of the first quantifier; the two agree whenever the whole match is
 * what counts and on the usual capture groups. Patterns and strings are UTF-8: glibc
 * compiles and runs them in the C.UTF-8 locale, so . and bracket expressions take a
 * character, and i matches cases beyond ASCII, as in a UTF8 database. The last
 * REGEX_CACHE patterns compiled are kept, as PostgreSQL keeps its last 32.
 */
#include <locale.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/rl_buffer.h"
#include "executor/regexp.h"
#include "utils/adt/typio.h"
#include "utils/elog.h"
#include "utils/mcxt.h"

#define REGEX_CACHE 16
#define REGEX_DUP_MAX 255		/* PostgreSQL's largest repetition count */

#define MAX_BACKREF 9			/* glibc's back references are \1 to \9 */

/* a compiled pattern: glibc's expression and where PostgreSQL's groups are in it */
typedef struct Regex
{
	regex_t		re;
	size_t		ngroups;		/* PostgreSQL's: the capturing ones */
	int		   *group;			/* PostgreSQL's group i (from 1) is glibc's group[i - 1] (malloc'd) */
} Regex;

typedef struct CachedRegex
{
	char	   *pattern;		/* as PostgreSQL wrote it (malloc'd) */
	int			cflags;
	Regex		rx;
} CachedRegex;

static CachedRegex cache[REGEX_CACHE];
static int	ncached,
			cache_next;
static locale_t utf8_locale;

static void
regex_error(int rc)
{
	static const struct
	{
		int			rc;
		const char *message;
	}			messages[] = {
		{REG_EPAREN, "parentheses () not balanced"},
		{REG_EBRACK, "brackets [] not balanced"},
		{REG_EBRACE, "braces {} not balanced"},
		{REG_BADBR, "invalid repetition count(s)"},
		{REG_BADRPT, "quantifier operand invalid"},
		{REG_EESCAPE, "invalid escape \\ sequence"},
		{REG_ERANGE, "invalid character range"},
		{REG_ECTYPE, "invalid character class"},
		{REG_ESUBREG, "invalid backreference number"},
		{REG_ECOLLATE, "invalid collating element"},
		{REG_ESPACE, "out of memory"},
	};
	const char *message = "invalid regular expression";

	for (size_t i = 0; i < sizeof(messages) / sizeof(messages[0]); i++)
		if (messages[i].rc == rc)
			message = messages[i].message;
	ereport(ERROR,
			errcode(ERRCODE_INVALID_REGULAR_EXPRESSION),
			errmsg("invalid regular expression: %s", message));
}

static void
regex_not_supported(const char *what)
{
	ereport(ERROR,
			errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			errmsg("regular expression %s is not supported", what));
}

/* check_bounds -- PostgreSQL's limit on the counts of a {m,n} at p (after its brace) */
static void
check_bounds(const char *p)
{
	while (*p && *p != '}')
	{
		if (*p >= '0' && *p <= '9')
		{
			char	   *end;

			if (strtol(p, &end, 10) > REGEX_DUP_MAX)
				regex_error(REG_BADBR);
			p = end;
		}
		else if (*p++ != ',')
			return;				/* not a bound: glibc judges it */
	}
}

/* bracket_escape -- an escape inside a bracket expression */
static void
bracket_escape(RlBuf *out, char e)
{
	switch (e)
	{
		case 'd':
			rlbuf_append_str(out, "0-9");
			break;
		case 's':
			rlbuf_append_str(out, "[:space:]");
			break;
		case 'w':
			rlbuf_append_str(out, "[:alnum:]_");
			break;
		case 'D':
		case 'S':
		case 'W':
			regex_error(REG_ERANGE);
			break;
		case 'n':
			rlbuf_append_str(out, "\n");
			break;
		case 't':
			rlbuf_append_str(out, "\t");
			break;
		case ']':
		case '^':
		case '-':
			/* POSIX has no escapes in brackets: these would have to move */
			regex_not_supported(psprintf("escape \\%c in brackets", e));
			break;
		default:
			if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z'))
				regex_not_supported(psprintf("escape \\%c", e));
			rlbuf_append(out, &e, 1);	/* a backslash is itself inside brackets */
	}
}

/* escape -- an escape outside brackets: its POSIX form (back references renumbered by group) */
static void
escape(RlBuf *out, char e, const int *group, int ngroups)
{
	static const char *const forms[][2] = {
		{"d", "[0-9]"}, {"D", "[^0-9]"}, {"s", "[[:space:]]"}, {"S", "[^[:space:]]"},
		{"w", "[[:alnum:]_]"}, {"W", "[^[:alnum:]_]"}, {"y", "\\b"}, {"Y", "\\B"},
		{"m", "\\<"}, {"M", "\\>"}, {"n", "\n"}, {"t", "\t"}, {"r", "\r"}, {"f", "\f"}, {"v", "\v"},
	};

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		if (forms[i][0][0] == e)
		{
			rlbuf_append_str(out, forms[i][1]);
			return;
		}
	if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || e == '0')
		regex_not_supported(psprintf("escape \\%c", e));
	if (e >= '1' && e <= '9')
	{
		if (e - '0' > ngroups)
			regex_error(REG_ESUBREG);
		if (group[e - '1'] > MAX_BACKREF)
			regex_not_supported("back reference after (?: beyond the ninth group");
		e = (char) ('0' + group[e - '1']);
	}
	rlbuf_append_str(out, "\\");
	rlbuf_append(out, &e, 1);	/* a punctuation character, or a back reference \1-\9 */
}

/*
 * translate -- PostgreSQL's pattern p as glibc's extended expression (the header); a
 * non-capturing group (?:...) is a plain group there, so rx->group says which of
 * glibc's groups are PostgreSQL's (and back references count only those)
 */
static char *
translate(const char *p, Regex *rx)
{
	RlBuf		out;
	int			depth = 0,
				posix_groups = 0;

	rx->ngroups = 0;
	rx->group = palloc(sizeof(int) * (strlen(p) + 1));

	rlbuf_init_in(&out, CurrentMemoryContext);
	for (; *p; p++)
	{
		if (*p == '[')
		{
			/* a bracket expression: [^]...] with [:class:] [.coll.] [=equiv=] inside */
			const char *first = ++p;

			rlbuf_append_str(&out, "[");
			if (*p == '^')
				rlbuf_append(&out, p++, 1), first++;
			for (; *p && (*p != ']' || p == first); p++)
			{
				if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '='))
				{
					const char *close = strstr(p + 2, (char[]) {p[1], ']', '\0'});

					if (close == NULL)
						regex_error(REG_EBRACK);
					rlbuf_append(&out, p, (size_t) (close + 2 - p));
					p = close + 1;
				}
				else if (*p == '\\')
				{
					if (*++p == '\0')
						regex_error(REG_EESCAPE);
					bracket_escape(&out, *p);
				}
				else
					rlbuf_append(&out, p, 1);
			}
			if (*p == '\0')
				regex_error(REG_EBRACK);
			rlbuf_append_str(&out, "]");
			continue;
		}
		if (*p == '\\')
		{
			if (*++p == '\0')
				regex_error(REG_EESCAPE);
			escape(&out, *p, rx->group, (int) rx->ngroups);
			continue;
		}
		if (*p == '(' && p[1] == '?' && p[2] == ':')
		{
			posix_groups++;
			p += 2;
			depth++;
			rlbuf_append_str(&out, "(");
			continue;
		}
		if (*p == '(' && p[1] == '?')
			regex_not_supported("construct (?");
		if (*p == '(')
			rx->group[rx->ngroups++] = ++posix_groups;
		if ((*p == '*' || *p == '+' || *p == '?' || *p == '}') && p[1] == '?')
			regex_not_supported("non-greedy quantifier");
		if (*p == '{')
			check_bounds(p + 1);
		depth += *p == '(';
		if (*p == ')' && depth-- == 0)
			regex_error(REG_EPAREN);
		rlbuf_append(&out, p, 1);
	}
	if (depth > 0)
		regex_error(REG_EPAREN);
	return (char *) rlbuf_cstr(&out);
}

/* compile -- pattern compiled with cflags (REG_EXTENDED added), from the cache if there */
static Regex *
compile(const char *pattern, int cflags)
{
	for (int i = 0; i < ncached; i++)
		if (cache[i].cflags == cflags && strcmp(cache[i].pattern, pattern) == 0)
			return &cache[i].rx;

	Regex		rx;
	char	   *posix = translate(pattern, &rx);
	CachedRegex *slot = &cache[cache_next];
	int		   *group = malloc(sizeof(int) * (rx.ngroups + 1));

	if (utf8_locale == (locale_t) 0)
		utf8_locale = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t) 0);

	locale_t	saved = uselocale(utf8_locale ? utf8_locale : LC_GLOBAL_LOCALE);
	int			rc = regcomp(&rx.re, posix, REG_EXTENDED | cflags);
	char	   *copy;

	uselocale(saved);
	if (rc != 0)
	{
		free(group);
		regex_error(rc);
	}
	if ((copy = strdup(pattern)) == NULL || group == NULL)
	{
		free(copy);
		free(group);
		regfree(&rx.re);
		regex_error(REG_ESPACE);
	}
	memcpy(group, rx.group, sizeof(int) * rx.ngroups);
	rx.group = group;
	if (cache_next < ncached)
	{
		regfree(&slot->rx.re);
		free(slot->rx.group);
		free(slot->pattern);
	}
	else
		ncached++;
	*slot = (CachedRegex) {copy, cflags, rx};
	cache_next = (cache_next + 1) % REGEX_CACHE;
	return &slot->rx;
}

/* new_matches -- room for a match of rx and all of glibc's groups */
static regmatch_t *
new_matches(const Regex *rx)
{
	return palloc(sizeof(regmatch_t) * (rx->re.re_nsub + 1));
}

/*
 * search -- the first match in s[from, len); false if none. m[0] is the whole match,
 * m[1..ngroups] PostgreSQL's groups (glibc's, the non-capturing ones taken out).
 */
static bool
search(Regex *rx, const char *s, size_t from, size_t len, regmatch_t *m)
{
	m[0].rm_so = (regoff_t) from;
	m[0].rm_eo = (regoff_t) len;
	locale_t	saved = uselocale(utf8_locale ? utf8_locale : LC_GLOBAL_LOCALE);
	int			rc = regexec(&rx->re, s, rx->re.re_nsub + 1, m, REG_STARTEND);

	uselocale(saved);
	for (size_t g = 0; rc == 0 && g < rx->ngroups; g++)
		m[g + 1] = m[rx->group[g]];
	return rc == 0;
}

bool
rl_regex_match(const char *s, const char *pattern, bool ci)
{
	Regex	   *rx = compile(pattern, ci ? REG_ICASE : 0);

	return search(rx, s, 0, strlen(s), new_matches(rx));
}

/*
 * parse_flags -- a flags argument's options as regcomp's flags; g is *global's if
 * given, else refused as PostgreSQL refuses it for function fn
 */
static int
parse_flags(const Value *flags, bool *global, const char *fn)
{
	int			cflags = 0;

	for (size_t i = 0; flags && i < flags->u.s.len; i++)
	{
		char		c = flags->u.s.data[i];

		switch (c)
		{
			case 'g':
				if (global == NULL)
					ereport(ERROR,
							errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							errmsg("%s() does not support the \"global\" option", fn),
							strcmp(fn, "regexp_match") == 0
							? errhint("Use the regexp_matches function instead.") : 0);
				*global = true;
				break;
			case 'i':
				cflags |= REG_ICASE;
				break;
			case 'c':
				cflags &= ~REG_ICASE;
				break;
			case 'n':
			case 'm':
				cflags |= REG_NEWLINE;
				break;
			case 's':
				cflags &= ~REG_NEWLINE;
				break;
			case 'e':
			case 't':
				break;
			case 'b':
			case 'q':
			case 'x':
			case 'p':
			case 'w':
				regex_not_supported(psprintf("option \"%c\"", c));
				break;
			default:
				{
					size_t		n = 1;

					while (i + n < flags->u.s.len && ((unsigned char) flags->u.s.data[i + n] & 0xC0) == 0x80)
						n++;
					ereport(ERROR,
							errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							errmsg("invalid regular expression option: \"%.*s\"", (int) n, flags->u.s.data + i));
				}
		}
	}
	return cflags;
}

/* char_end -- where the UTF-8 character at s[i] ends */
static size_t
char_end(const char *s, size_t i, size_t len)
{
	while (++i < len && ((unsigned char) s[i] & 0xC0) == 0x80)
		;
	return i;
}

/* append_replacement -- PostgreSQL's replacement text: \1..\9 a group, \& the match, \\ a backslash */
static void
append_replacement(RlBuf *out, const char *s, const Value *repl, const regmatch_t *m, size_t ngroups)
{
	const char *r = repl->u.s.data,
			   *end = r + repl->u.s.len;

	for (; r < end; r++)
	{
		int			group = -1;

		if (*r == '\\' && r + 1 < end)
		{
			if (r[1] >= '1' && r[1] <= '9')
				group = r[1] - '0';
			else if (r[1] == '&')
				group = 0;
			else if (r[1] == '\\')
				r++;
		}
		if (group < 0)
		{
			rlbuf_append(out, r, 1);
			continue;
		}
		r++;
		if ((size_t) group <= ngroups && m[group].rm_so >= 0)
			rlbuf_append(out, s + m[group].rm_so, (size_t) (m[group].rm_eo - m[group].rm_so));
	}
}

static Value
text_value(const char *s, size_t len)
{
	return typio_string(TEXTOID, len ? s : "", len);
}

/*
 * regexp_replace -- source with the matches of pattern from character start on
 * replaced: the nth only (n > 0), all (n == 0, or the flag g when n is not given,
 * N_NOT_GIVEN), or else the first
 */
#define N_NOT_GIVEN INT64_MIN

static Value
regexp_replace(const Value *args, int64_t start, int64_t n, const Value *flags)
{
	bool		global = false;
	int			cflags = parse_flags(flags, &global, "regexp_replace");
	Regex	   *re = compile(args[1].u.s.data, cflags);
	regmatch_t *m = new_matches(re);
	const char *s = args[0].u.s.data;
	size_t		len = args[0].u.s.len,
				copied = 0,
				from = 0;
	RlBuf		out;

	if (start < 1)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("invalid value for parameter \"%s\": %lld", "start", (long long) start));
	if (n < 0 && n != N_NOT_GIVEN)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("invalid value for parameter \"%s\": %lld", "n", (long long) n));
	if (n == N_NOT_GIVEN)
		n = global ? 0 : 1;
	for (int64_t c = 1; c < start && from <= len; c++)
		from = from < len ? char_end(s, from, len) : len + 1;
	rlbuf_init_in(&out, CurrentMemoryContext);
	for (int64_t found = 1; from <= len && search(re, s, from, len, m); found++)
	{
		if (n == 0 || found == n)
		{
			rlbuf_append(&out, s + copied, (size_t) m[0].rm_so - copied);
			append_replacement(&out, s, &args[2], m, re->ngroups);
			copied = (size_t) m[0].rm_eo;
			if (n != 0)
				break;
		}
		/* after an empty match the next search starts a character later */
		from = m[0].rm_so == m[0].rm_eo ? ((size_t) m[0].rm_eo < len ? char_end(s, (size_t) m[0].rm_eo, len) : len + 1)
			: (size_t) m[0].rm_eo;
	}
	rlbuf_append(&out, s + copied, len - copied);
	return text_value((const char *) out.data, out.len);
}

/* f_regexp_replace -- regexp_replace(source, pattern, replacement [, flags]) */
Value
f_regexp_replace(ExecState *es, const Value *args, int nargs)
{
	return regexp_replace(args, 1, N_NOT_GIVEN, nargs > 3 ? &args[3] : NULL);
}

/* f_regexp_replace_nth -- regexp_replace(source, pattern, replacement, start [, n [, flags]]) */
Value
f_regexp_replace_nth(ExecState *es, const Value *args, int nargs)
{
	return regexp_replace(args, args[3].u.i, nargs > 4 ? args[4].u.i : N_NOT_GIVEN, nargs > 5 ? &args[5] : NULL);
}

/* match_groups -- one match's groups (or the match when there are none) as a text[] */
static Value
match_groups(const Regex *re, const char *s, const regmatch_t *m)
{
	size_t		first = re->ngroups ? 1 : 0;
	ArrayElements elems = {(int) (re->ngroups + 1 - first), palloc(sizeof(char *) * (re->ngroups + 2))};

	for (size_t g = first; g <= re->ngroups; g++)
		elems.items[g - first] = m[g].rm_so < 0 ? NULL
			: pnstrdup(s + m[g].rm_so, (size_t) (m[g].rm_eo - m[g].rm_so));
	return typio_array_build(TEXTARRAYOID, &elems);
}

/* f_regexp_match -- regexp_match(string, pattern [, flags]): the groups (or the match) of the first match */
Value
f_regexp_match(ExecState *es, const Value *args, int nargs)
{
	Regex	   *re = compile(args[1].u.s.data, parse_flags(nargs > 2 ? &args[2] : NULL, NULL, "regexp_match"));
	regmatch_t *m = new_matches(re);

	if (!search(re, args[0].u.s.data, 0, args[0].u.s.len, m))
		return typio_null(TEXTARRAYOID);
	return match_groups(re, args[0].u.s.data, m);
}

/*
 * f_regexp_matches -- regexp_matches(string, pattern [, flags]), set-returning: a text[]
 * of groups per match, the first match only or with g each (after an empty match the
 * next search starts a character later). As every set-returning builtin it returns its
 * rows as one array, here of the rows' text[] texts (funcs.c).
 */
Value
f_regexp_matches(ExecState *es, const Value *args, int nargs)
{
	bool		global = false;
	Regex	   *re = compile(args[1].u.s.data, parse_flags(nargs > 2 ? &args[2] : NULL, &global, "regexp_matches"));
	regmatch_t *m = new_matches(re);
	const char *s = args[0].u.s.data;
	size_t		len = args[0].u.s.len,
				from = 0;
	int			cap = 8;
	ArrayElements rows = {0, palloc(sizeof(char *) * (size_t) cap)};

	while (from <= len && search(re, s, from, len, m))
	{
		if (rows.n + 1 >= cap)
			rows.items = repalloc(rows.items, sizeof(char *) * (size_t) (cap *= 2));
		rows.items[rows.n++] = match_groups(re, s, m).u.s.data;
		if (!global)
			break;
		from = m[0].rm_so == m[0].rm_eo ? ((size_t) m[0].rm_eo < len ? char_end(s, (size_t) m[0].rm_eo, len) : len + 1)
			: (size_t) m[0].rm_eo;
	}
	return typio_array_build(TEXTARRAYOID, &rows);
}

/*
 * f_regexp_split_to_array -- regexp_split_to_array(string, pattern [, flags]): the
 * pieces between matches; as in PostgreSQL an empty match at either end of the string,
 * or right where the previous match ended, splits nothing
 */
Value
f_regexp_split_to_array(ExecState *es, const Value *args, int nargs)
{
	Regex	   *re = compile(args[1].u.s.data,
						   parse_flags(nargs > 2 ? &args[2] : NULL, NULL, "regexp_split_to_array"));
	regmatch_t *m = new_matches(re);
	const char *s = args[0].u.s.data;
	size_t		len = args[0].u.s.len,
				piece = 0,
				from = 0;
	int			cap = 8;
	ArrayElements elems = {0, palloc(sizeof(char *) * (size_t) cap)};

	while (from < len && search(re, s, from, len, m))
	{
		size_t		so = (size_t) m[0].rm_so,
					eo = (size_t) m[0].rm_eo;

		if (so < len && eo > piece)
		{
			if (elems.n + 2 >= cap)
				elems.items = repalloc(elems.items, sizeof(char *) * (size_t) (cap *= 2));
			elems.items[elems.n++] = pnstrdup(s + piece, so - piece);
			piece = eo;
		}
		from = so == eo ? char_end(s, so, len) : eo;
	}
	elems.items[elems.n++] = pnstrdup(s + piece, len - piece);
	return typio_array_build(TEXTARRAYOID, &elems);
}

/* f_substring_regex -- substring(string FROM pattern): the first group's match, or the whole match */
Value
f_substring_regex(ExecState *es, const Value *args, int nargs)
{
	Regex	   *re = compile(args[1].u.s.data, 0);
	regmatch_t *m = new_matches(re);
	int			g = re->ngroups ? 1 : 0;

	if (!search(re, args[0].u.s.data, 0, args[0].u.s.len, m) || m[g].rm_so < 0)
		return typio_null(TEXTOID);
	return text_value(args[0].u.s.data + m[g].rm_so, (size_t) (m[g].rm_eo - m[g].rm_so));
}

/*
 * f_similar_to_escape -- similar_to_escape(pattern [, escape]): SQL's SIMILAR TO pattern
 * as the regular expression PostgreSQL 15 makes of it, which x SIMILAR TO p ESCAPE e
 * matches with ~: anchored and in a non-capturing group, % .* and _ . and ( a
 * non-capturing group, the regular expressions' own specials escaped, the escape
 * character (by default \, none if empty) escaping the character after it, and
 * escaped double quotes separating substring()'s three parts
 */
Value
f_similar_to_escape(ExecState *es, const Value *args, int nargs)
{
	const char *p = args[0].u.s.data,
			   *end = p + args[0].u.s.len,
			   *e = nargs > 1 ? args[1].u.s.data : "\\";
	size_t		elen = nargs > 1 ? args[1].u.s.len : 1;
	bool		afterescape = false,
				incharclass = false;
	int			nquotes = 0;
	RlBuf		out;

	if (elen > 0 && char_end(e, 0, elen) != elen)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_ESCAPE_SEQUENCE),
				errmsg("invalid escape string"),
				errhint("Escape string must be empty or one character."));
	rlbuf_init_in(&out, CurrentMemoryContext);
	rlbuf_append_str(&out, "^(?:");
	while (p < end)
	{
		size_t		n = char_end(p, 0, (size_t) (end - p));
		char		c = n == 1 ? *p : '\0';

		if (afterescape)
		{
			if (c == '"' && !incharclass)
			{
				if (nquotes > 1)
					ereport(ERROR,
							errcode(ERRCODE_INVALID_USE_OF_ESCAPE_CHARACTER),
							errmsg("SQL regular expression may not contain more than two escape-double-quote separators"));
				rlbuf_append_str(&out, nquotes++ == 0 ? "){1,1}?(" : "){1,1}(?:");
			}
			else
			{
				rlbuf_append_str(&out, "\\");
				rlbuf_append(&out, p, n);
			}
			afterescape = false;
		}
		else if (elen > 0 && n == elen && memcmp(p, e, n) == 0)
			afterescape = true;
		else if (incharclass)
		{
			if (c == '\\')
				rlbuf_append_str(&out, "\\");
			rlbuf_append(&out, p, n);
			incharclass = c != ']';
		}
		else if (c == '[')
		{
			rlbuf_append_str(&out, "[");
			incharclass = true;
		}
		else if (c == '%')
			rlbuf_append_str(&out, ".*");
		else if (c == '_')
			rlbuf_append_str(&out, ".");
		else if (c == '(')
			rlbuf_append_str(&out, "(?:");
		else if (c == '\\' || c == '.' || c == '^' || c == '$')
		{
			rlbuf_append_str(&out, "\\");
			rlbuf_append(&out, p, 1);
		}
		else
			rlbuf_append(&out, p, n);
		p += n;
	}
	rlbuf_append_str(&out, ")$");
	return text_value((const char *) out.data, out.len);
}
