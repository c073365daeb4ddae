/*
 * literals.c: the literals of a statement text, and a parse tree of one text turned
 * into the tree of another that differs only in them (literals.h).
 *
 * The scan knows just enough of PostgreSQL's lexer to be sure where literals are:
 * quoted identifiers, parameters, identifiers (whose digits are not numbers), plain
 * strings and numbers. Anything it does not follow (comments, dollar quotes, escape
 * and bit strings, a string continued on the next line, a number run into a word)
 * makes the text shareable only verbatim. The trees are walked generically through
 * protobuf-c's descriptors, so every node's location is moved, whatever its type.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parser/literals.h"
#include "utils/mcxt.h"

static bool
ident_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

/*
 * add_literal -- the literal at start: the text since *copied goes into the shape, then
 * the literal's mark; the shape takes the text between literals in one piece
 */
static void
add_literal(LiteralScan *scan, const char *text, int *copied, int start, int len, LiteralKind kind, int *cap)
{
	if (scan->nliterals == *cap)
		scan->literals = repalloc(scan->literals, sizeof(Literal) * (size_t) (*cap *= 2));
	scan->literals[scan->nliterals++] = (Literal) {.start = start, .len = len, .kind = kind};
	rlbuf_append(&scan->shape, text + *copied, (size_t) (start - *copied));
	rlbuf_put_u8(&scan->shape, 1);
	rlbuf_put_u8(&scan->shape, (uint8_t) kind);
	*copied = start + len;
}

/* number_kind -- an Integer if the digits fit an int4, as PostgreSQL's lexer decides */
static LiteralKind
number_kind(const char *p, int len)
{
	long long	v = 0;

	for (int i = 0; i < len; i++)
	{
		if (!isdigit((unsigned char) p[i]))
			return LITERAL_FLOAT;
		v = v * 10 + (p[i] - '0');
		if (v > 2147483647LL)
			return LITERAL_FLOAT;
	}
	return LITERAL_INTEGER;
}

void
literals_scan(const char *text, LiteralScan *scan)
{
	int			cap = 16;
	int			i = 0;
	int			copied = 0;		/* text before this is in the shape */
	bool		after_string = false;	/* only spaces since a string literal */

	scan->ok = true;
	scan->nliterals = 0;
	scan->literals = palloc(sizeof(Literal) * (size_t) cap);
	rlbuf_init_in(&scan->shape, CurrentMemoryContext);
	while (text[i] && scan->ok)
	{
		unsigned char c = (unsigned char) text[i];
		int			start = i;

		if (c == 1)
			break;				/* the byte that marks literals in a shape */

		if (c == '\'')
		{
			/* E'', B'', X'', U&'' and N'' are other literals; 'a' 'b' is one string */
			if (after_string || (i > 0 && (ident_char((unsigned char) text[i - 1]) || text[i - 1] == '&')))
				break;
			for (i++;; i++)
			{
				if (text[i] == '\0' || text[i] == '\\')
					break;
				if (text[i] == '\'' && text[i + 1] == '\'')
					i++;
				else if (text[i] == '\'')
					break;
			}
			if (text[i] != '\'')
				break;
			i++;
			add_literal(scan, text, &copied, start, i - start, LITERAL_STRING, &cap);
			after_string = true;
			continue;
		}
		if (!isspace(c))
			after_string = false;
		if (c == '"')
		{
			for (i++; text[i] && !(text[i] == '"' && text[i + 1] != '"'); i++)
				if (text[i] == '"')
					i++;
			if (text[i] != '"')
				break;
			i++;
		}
		else if ((c == '-' && text[i + 1] == '-') || (c == '/' && text[i + 1] == '*'))
			break;
		else if (c == '$')
		{
			if (!isdigit((unsigned char) text[i + 1]))
				break;			/* a dollar quote */
			for (i++; isdigit((unsigned char) text[i]); i++)
				;
		}
		else if (ident_char(c) && !isdigit(c))
		{
			while (ident_char((unsigned char) text[i]))
				i++;
		}
		else if (isdigit(c) || (c == '.' && isdigit((unsigned char) text[i + 1]) &&
								!(i > 0 && ident_char((unsigned char) text[i - 1]))))
		{
			while (isdigit((unsigned char) text[i]))
				i++;
			if (text[i] == '.' && text[i + 1] != '.')
				for (i++; isdigit((unsigned char) text[i]); i++)
					;
			if ((text[i] == 'e' || text[i] == 'E') &&
				(isdigit((unsigned char) text[i + 1]) ||
				 ((text[i + 1] == '+' || text[i + 1] == '-') && isdigit((unsigned char) text[i + 2]))))
				for (i += 2; isdigit((unsigned char) text[i]); i++)
					;
			if (ident_char((unsigned char) text[i]) || text[i] == '.')
				break;			/* 1abc, 1.2.3: not what it looks like */
			add_literal(scan, text, &copied, start, i - start, number_kind(text + start, i - start), &cap);
			continue;
		}
		else
			i++;
	}
	rlbuf_append(&scan->shape, text + copied, (size_t) (i - copied));
	if (text[i] != '\0')
		scan->ok = false;
	rlbuf_cstr(&scan->shape);
}

/* ---------- walking a parse tree ---------- */

typedef void (*Visit) (ProtobufCMessage *msg, void *arg);

const ProtobufCFieldDescriptor *
node_member_field(const PgQuery__Node *node)
{
	return node->node_case
		? protobuf_c_message_descriptor_get_field(&pg_query__node__descriptor, (unsigned) node->node_case)
		: NULL;
}

/* walk -- visit msg and every message under it */
static void
walk(ProtobufCMessage *msg, Visit visit, void *arg)
{
	const ProtobufCMessageDescriptor *d = msg->descriptor;

	visit(msg, arg);
	if (d == &pg_query__node__descriptor)
	{
		const ProtobufCFieldDescriptor *f = node_member_field((PgQuery__Node *) msg);
		ProtobufCMessage *member = f ? *(ProtobufCMessage **) ((char *) msg + f->offset) : NULL;

		if (member)
			walk(member, visit, arg);
		return;
	}
	for (unsigned i = 0; i < d->n_fields; i++)
	{
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		char	   *member = (char *) msg + f->offset;

		if (f->type != PROTOBUF_C_TYPE_MESSAGE)
			continue;
		if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
			*(uint32_t *) ((char *) msg + f->quantifier_offset) != f->id)
			continue;
		if (f->label == PROTOBUF_C_LABEL_REPEATED)
		{
			size_t		n = *(size_t *) ((char *) msg + f->quantifier_offset);
			ProtobufCMessage **items = *(ProtobufCMessage ***) member;

			for (size_t k = 0; k < n; k++)
				if (items[k])
					walk(items[k], visit, arg);
		}
		else if (*(ProtobufCMessage **) member)
			walk(*(ProtobufCMessage **) member, visit, arg);
	}
}

/* ---------- a literal's value ---------- */

/* string_value -- a string literal's text without its quotes, '' undoubled */
static char *
string_value(const char *p, int len)
{
	char	   *out = palloc((size_t) len);
	int			n = 0;

	for (int i = 1; i < len - 1; i++)
	{
		out[n++] = p[i];
		if (p[i] == '\'')
			i++;
	}
	out[n] = '\0';
	return out;
}

static char *
float_value(const char *p, int len, bool negated)
{
	return psprintf("%s%.*s", negated ? "-" : "", len, p);
}

/* integer_value -- the digits' value (they fit an int4: LITERAL_INTEGER) */
static int32_t
integer_value(const char *p, int len, bool negated)
{
	int32_t		v = 0;

	for (int i = 0; i < len; i++)
		v = v * 10 + (p[i] - '0');
	return negated ? -v : v;
}

/* constant_holds -- whether c is literal l of text, as the grammar builds it */
static bool
constant_holds(const PgQuery__AConst *c, const char *text, const Literal *l, bool negated)
{
	const char *p = text + l->start;

	switch (l->kind)
	{
		case LITERAL_INTEGER:
			return c->val_case == PG_QUERY__A__CONST__VAL_IVAL && c->ival &&
				c->ival->ival == integer_value(p, l->len, negated);
		case LITERAL_FLOAT:
			return c->val_case == PG_QUERY__A__CONST__VAL_FVAL && c->fval &&
				strcmp(c->fval->fval, float_value(p, l->len, negated)) == 0;
		case LITERAL_STRING:
			return !negated && c->val_case == PG_QUERY__A__CONST__VAL_SVAL && c->sval &&
				strcmp(c->sval->sval, string_value(p, l->len)) == 0;
	}
	return false;
}

/* ---------- finding the constants ---------- */

typedef struct FindState
{
	const char *text;
	const LiteralScan *scan;
	int		   *locations;
	bool	   *negated;
	int		   *found;			/* constants seen per literal */
	bool		ok;
} FindState;

/* literal_at -- the literal a constant at location stands for, or -1 */
static int
literal_at(const char *text, const LiteralScan *scan, int location, bool *negated)
{
	int			lo = 0,
				hi = scan->nliterals - 1;
	int			at = location;

	*negated = false;
	if (text[location] == '-')
	{
		/* doNegate: -5 is one constant, located at its minus sign */
		for (at++; isspace((unsigned char) text[at]); at++)
			;
		*negated = true;
	}
	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;

		if (scan->literals[mid].start == at)
			return mid;
		if (scan->literals[mid].start < at)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static void
find_visit(ProtobufCMessage *msg, void *arg)
{
	FindState  *st = arg;

	if (msg->descriptor != &pg_query__a__const__descriptor)
		return;
	PgQuery__AConst *c = (PgQuery__AConst *) msg;
	bool		negated;
	int			i;

	if (c->location < 0 || c->isnull || c->val_case == PG_QUERY__A__CONST__VAL_BOOLVAL)
		return;
	i = literal_at(st->text, st->scan, c->location, &negated);
	if (i < 0 || !constant_holds(c, st->text, &st->scan->literals[i], negated))
	{
		st->ok = false;
		return;
	}
	st->found[i]++;
	st->locations[i] = c->location;
	st->negated[i] = negated;
}

bool
literals_find_constants(PgQuery__ParseResult *tree, const char *text, const LiteralScan *scan,
						int *locations, bool *negated)
{
	FindState	st = {.text = text, .scan = scan, .locations = locations, .negated = negated,
	.found = palloc0(sizeof(int) * (size_t) (scan->nliterals + 1)),.ok = true};

	walk(&tree->base, find_visit, &st);
	for (int i = 0; st.ok && i < scan->nliterals; i++)
		st.ok = st.found[i] == 1;
	return st.ok;
}

/* ---------- rebinding ---------- */

struct LiteralRebind
{
	const LiteralScan *old;
	const LiteralScan *new;
	const int  *locations;
	const bool *negated;
	const char *new_text;
	int32_t    *shift;			/* shift[i]: how much literals 0..i-1 grew */
};

/* moved -- an offset of the old text in the new one: literals before it changed length */
static int32_t
moved(const LiteralRebind *st, int32_t offset)
{
	int			lo = 0,
				hi = st->old->nliterals;	/* the number of literals starting before offset */

	if (offset < 0)
		return offset;
	while (lo < hi)
	{
		int			mid = (lo + hi) / 2;

		if (st->old->literals[mid].start < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return offset + st->shift[lo];
}

static void
rebind_constant(const LiteralRebind *st, PgQuery__AConst *c)
{
	int			lo = 0,
				hi = st->old->nliterals - 1;

	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;

		if (st->locations[mid] == c->location)
		{
			const Literal *l = &st->new->literals[mid];
			const char *p = st->new_text + l->start;

			if (l->kind == LITERAL_INTEGER)
				c->ival->ival = integer_value(p, l->len, st->negated[mid]);
			else if (l->kind == LITERAL_FLOAT)
				c->fval->fval = float_value(p, l->len, st->negated[mid]);
			else
				c->sval->sval = string_value(p, l->len);
			return;
		}
		if (st->locations[mid] < c->location)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
}

/*
 * location_offset -- where a message of type d keeps its int32 "location", or -1
 *
 * Found by name in d's fields once per type and kept: looking through the fields
 * of every node by name was most of a rebind's time.
 */
#define LOCATION_TYPES 512		/* a power of two above libpg_query's ~260 message types */
static int
location_offset(const ProtobufCMessageDescriptor *d)
{
	static struct
	{
		const ProtobufCMessageDescriptor *type;
		int			offset;
	}			kept[LOCATION_TYPES];
	unsigned	slot = (unsigned) (((uintptr_t) d >> 4) * 2654435761U) & (LOCATION_TYPES - 1);

	while (kept[slot].type != NULL && kept[slot].type != d)
		slot = (slot + 1) & (LOCATION_TYPES - 1);
	if (kept[slot].type == NULL)
	{
		kept[slot].type = d;
		kept[slot].offset = -1;
		for (unsigned i = 0; i < d->n_fields; i++)
		{
			const ProtobufCFieldDescriptor *f = &d->fields[i];

			if (f->type == PROTOBUF_C_TYPE_INT32 && f->label != PROTOBUF_C_LABEL_REPEATED &&
				strcmp(f->name, "location") == 0)
				kept[slot].offset = (int) f->offset;
		}
	}
	return kept[slot].offset;
}

void
literals_rebind_node(ProtobufCMessage *msg, void *rebind)
{
	const LiteralRebind *st = rebind;
	const ProtobufCMessageDescriptor *d = msg->descriptor;

	if (d == &pg_query__a__const__descriptor)
		rebind_constant(st, (PgQuery__AConst *) msg);
	if (d == &pg_query__raw_stmt__descriptor)
	{
		PgQuery__RawStmt *raw = (PgQuery__RawStmt *) msg;

		if (raw->stmt_len > 0)
			raw->stmt_len = moved(st, raw->stmt_location + raw->stmt_len) - moved(st, raw->stmt_location);
		raw->stmt_location = moved(st, raw->stmt_location);
		return;
	}

	int			offset = location_offset(d);

	if (offset >= 0)
	{
		int32_t    *location = (int32_t *) ((char *) msg + offset);

		*location = moved(st, *location);
	}
}

LiteralRebind *
literals_rebind_start(const LiteralScan *old, const int *locations, const bool *negated,
					  const char *new_text, const LiteralScan *new)
{
	LiteralRebind *st = palloc(sizeof(LiteralRebind));

	*st = (LiteralRebind) {.old = old, .new = new, .locations = locations, .negated = negated,
		.new_text = new_text, .shift = palloc(sizeof(int32_t) * (size_t) (old->nliterals + 1))};
	st->shift[0] = 0;
	for (int i = 0; i < old->nliterals; i++)
		st->shift[i + 1] = st->shift[i] + new->literals[i].len - old->literals[i].len;
	return st;
}

/* dollar_quote_tag -- the length of the tag of a dollar quote at p ($$, $tag$), 0 if none */
static size_t
dollar_quote_tag(const char *p)
{
	size_t		n = 1;

	if (isdigit((unsigned char) p[1]))
		return 0;				/* $1: a parameter */
	while (ident_char((unsigned char) p[n]) && p[n] != '$')
		n++;
	return p[n] == '$' ? n + 1 : 0;
}

/*
 * literals_quiet_comments -- the lexer's view of quotes, as PostgreSQL's: '...' with
 * '' (and backslash escapes after an E that starts a token), "..." with "", $tag$
 * quotes, -- comments to the end of the line; a slash-star comment nests and ends at its
 * matching star-slash. An unterminated quote is left as it is, for the parser's error;
 * an unterminated comment is quieted to the end too (the lexer is as slow in it), and
 * the parser's error, which quotes it, is given its text back by
 * literals_unquiet_message.
 */
const char *
literals_quiet_comments(const char *text)
{
	char	   *out;
	size_t		i = 0;

	if (strstr(text, "/*") == NULL)
		return text;
	out = pstrdup(text);
	while (out[i])
	{
		unsigned char c = (unsigned char) out[i];

		if (c == '\'')
		{
			bool		escapes = i > 0 && (out[i - 1] == 'e' || out[i - 1] == 'E') &&
				(i < 2 || !ident_char((unsigned char) out[i - 2]));

			for (i++; out[i]; i++)
			{
				if (escapes && out[i] == '\\' && out[i + 1])
					i++;
				else if (out[i] == '\'' && out[i + 1] == '\'')
					i++;
				else if (out[i] == '\'')
					break;
			}
		}
		else if (c == '"')
		{
			for (i++; out[i] && !(out[i] == '"' && out[i + 1] != '"'); i++)
				if (out[i] == '"')
					i++;
		}
		else if (c == '-' && out[i + 1] == '-')
		{
			while (out[i + 1] && out[i + 1] != '\n' && out[i + 1] != '\r')
				i++;
		}
		else if (c == '$' && !(i > 0 && ident_char((unsigned char) out[i - 1])) && dollar_quote_tag(out + i) > 0)
		{
			size_t		n = dollar_quote_tag(out + i);
			char	   *tag = pnstrdup(out + i, n);
			const char *end = strstr(out + i + n, tag);

			pfree(tag);
			if (end == NULL)
				break;
			i = (size_t) (end - out) + n - 1;
		}
		else if (c == '/' && out[i + 1] == '*')
		{
			size_t		j = i + 2;
			int			depth = 1;

			while (out[j] && depth > 0)
			{
				if ((out[j] == '/' && out[j + 1] == '*') || (out[j] == '*' && out[j + 1] == '/'))
				{
					depth += out[j] == '/' ? 1 : -1;
					j++;
				}
				j++;
			}
			for (size_t k = i + 2; k < (depth > 0 ? j : j - 2); k++)
				if (out[k] != '\n' && out[k] != '\r')
					out[k] = ' ';
			if (depth > 0)
				break;
			i = j - 1;
		}
		if (out[i] == '\0')
			break;
		i++;
	}
	return out;
}

/*
 * literals_unquiet_message -- a parse error's message on quiet, as on text
 *
 * Only the error of an unterminated comment quotes what was quieted: its "at or
 * near" is the rest of the text from the comment on, which is the end of quiet; the
 * same bytes of text (quieting keeps offsets) replace it.
 */
char *
literals_unquiet_message(const char *message, const char *text, const char *quiet)
{
	const char *near = strstr(message, " at or near \"");
	size_t		len = strlen(message);
	size_t		quiet_len = strlen(quiet);

	if (quiet == text || near == NULL || message[len - 1] != '"')
		return pstrdup(message);

	const char *quote = near + strlen(" at or near \"");
	size_t		quote_len = (size_t) (message + len - 1 - quote);

	if (quote_len > quiet_len || memcmp(quote, quiet + quiet_len - quote_len, quote_len) != 0)
		return pstrdup(message);
	return psprintf("%.*s%s\"", (int) (quote - message), message, text + quiet_len - quote_len);
}
