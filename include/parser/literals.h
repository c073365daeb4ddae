/*
 * literals.h: statements that differ only in their literals share one parse.
 *
 * Clients send the same statement shapes with new values again and again (every
 * DuckLake commit inserts the next snapshot with the same INSERTs), and libpg_query's
 * parse with its conversion to protobuf is a sixth of what such a statement costs
 * RockLake. A scan finds the literals of a text (numbers and plain '...' strings) and
 * gives its shape: the text with each literal replaced by its kind. A parse tree of
 * one text can then serve another of the same shape: its constants take the other
 * text's values and every location moves by the literals' change in length, which
 * gives exactly the tree the parser would have built (test/unit/check_parser.c).
 * Texts the scan is not sure about (comments, dollar quotes, E'' strings, a literal
 * the tree does not hold as one constant) are only shared verbatim.
 */
#ifndef RL_LITERALS_H
#define RL_LITERALS_H

#include <stdbool.h>
#include <stddef.h>

#include <pg_query/pg_query.pb-c.h>

#include "common/rl_buffer.h"

/*
 * The field of a Node that holds its member: a Node is a oneof of some 250 node
 * kinds, found by its case rather than by trying each field. NULL for an empty Node.
 */
const ProtobufCFieldDescriptor *node_member_field(const PgQuery__Node *node);

typedef enum LiteralKind
{
	LITERAL_INTEGER = 'I',		/* digits that fit an int4: an Integer constant */
	LITERAL_FLOAT = 'F',		/* other numbers: a Float constant, kept as written */
	LITERAL_STRING = 'S'		/* '...' without backslashes: a String constant */
} LiteralKind;

typedef struct Literal
{
	int			start;			/* byte offset in the text */
	int			len;
	LiteralKind kind;
} Literal;

typedef struct LiteralScan
{
	bool		ok;				/* false: share the text only verbatim */
	RlBuf		shape;			/* the text with each literal as \x01 and its kind */
	Literal    *literals;
	int			nliterals;
} LiteralScan;

/* Scan text (in the current memory context). */
void		literals_scan(const char *text, LiteralScan *scan);

/*
 * text with the inside of each comment (slash-star to star-slash, nested ones
 * included) made spaces, its newlines kept: for the parser, the same tokens at the same offsets. text
 * itself if it has no comment. PostgreSQL's lexer takes time quadratic in a run of
 * operator characters that holds comment starts (it matches the run, then backs
 * up), which a few hundred kilobytes of nested comments make minutes inside
 * libpg_query, where nothing can interrupt it; spaces it reads at once.
 */
const char *literals_quiet_comments(const char *text);
/* A parse error's message on quiet (text's literals_quiet_comments), as on text. */
char	   *literals_unquiet_message(const char *message, const char *text, const char *quiet);

/*
 * The constant of each literal of text in tree, by position in the scan: out[i] is
 * the location of literal i's A_Const (at the literal, or at a minus sign before it
 * for a negative number), negated[i] says which. False if some literal is not exactly
 * one constant holding its value: then the tree must not be shared.
 */
bool		literals_find_constants(PgQuery__ParseResult *tree, const char *text, const LiteralScan *scan,
									int *out, bool *negated);

/*
 * Rebinding a tree parsed from a text with scan old (its constants at locations,
 * negated) to new_text (scan new, of the same shape): literals_rebind_node, given
 * each message of a copy of that tree once its children are copied, makes the copy
 * new_text's tree. The rebind lives in the current memory context.
 */
typedef struct LiteralRebind LiteralRebind;

LiteralRebind *literals_rebind_start(const LiteralScan *old, const int *locations, const bool *negated,
									 const char *new_text, const LiteralScan *new);
void		literals_rebind_node(ProtobufCMessage *msg, void *rebind);

#endif
