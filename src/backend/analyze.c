/*
 * analyze.c: from libpg_query's parse tree to an AnalyzedStmt (executor.h).
 *
 * Every statement is parsed by the PostgreSQL 15 grammar (libpg_query) and then
 * analysed here, never matched as text. Analysis resolves what the statement
 * means and fixes every type before execution, as PostgreSQL's parse analysis
 * does: literals start as "unknown" and take the type their context asks for,
 * parameters without a type from Parse take it from their first use (or become
 * text), operators pick a common type, result columns get PostgreSQL's names
 * ("?column?", the function's name, the cast's type name). That is what lets
 * Describe answer before Execute. Statements and expressions RockLake cannot run
 * yet are refused here with 0A000 naming the construct.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>

#include "catalog_cache.h"
#include "rl_buffer.h"
#include "elog.h"
#include "executor.h"
#include "exprflatten.h"
#include "literals.h"
#include "mcxt.h"
#include "miscadmin.h"
#include "namespace.h"
#include "numeric.h"

typedef PgQuery__Node Node;

/*
 * PostgreSQL's limits on a table's columns and a query's result columns
 * (MaxHeapAttributeNumber, MaxTupleAttributeNumber), checked here with its errors:
 * SQLite's own limit is higher (2000) and would fail the statement later with its text,
 * or not at all.
 */
#define MAX_TABLE_COLUMNS	1600
#define MAX_TARGET_ENTRIES	1664
/* PostgreSQL's limits of type modifiers: numeric's precision, varchar's and char's length */
#define NUMERIC_MAX_PRECISION 1000
#define MAX_CHAR_LENGTH		10485760

typedef struct ParseState
{
	const char *query;
	Oid		   *paramtypes;		/* grows as $n are seen; UNKNOWNOID until resolved */
	int			nparams;
	Expr	  **params_seen;	/* first use of each parameter, to retype it */
	Expr	   *srf;			/* the set-returning function seen, if any */
	bool		srf_lockstep;	/* transforming a select list over the cache, where ... */
	int			nmore_srfs;		/* ... more of them run in lockstep with it: these */
	Expr	  **more_srfs;
	bool		params_allowed; /* false for a simple Query */
	struct Scope *scope;		/* the relations column references see (innermost) */
	struct CteItem *ctes;		/* WITH queries in scope */
	int			nbinds;			/* the SqlStatement being generated: ?1..?nbinds */
	Expr	  **binds;
	bool		setop_leaf;		/* the next query is a branch of a set operation */
	const char *agg_refused;	/* the clause being transformed, if it may hold no aggregate */
	bool		in_aggregate;	/* transforming an aggregate's arguments */
	/* subqueries hoisted into a WITH of the next SqlStatement (analyze_subquery) */
	int			min_ref_level;	/* the outermost scope level a column reference used */
	bool		cte_ref;		/* a WITH query was referenced */
	int			sub_nest;		/* subqueries nested in the SQL made so far, at most */
	int			nhoisted;		/* named so far: _rl_h1.._rl_hN */
	RlBuf		hoisted;		/* "_rl_hN" AS (...), ... for the next add_sql */
	bool		folded_aggregate;	/* this query level computes an aggregate that a
									 * constant (pg_typeof) or a window's clause left
									 * out of its select list's aggregates */
	PgQuery__SelectStmt *select;	/* the query being transformed (its WINDOW clause) */
	bool		eval_unflattened;	/* a tree of rl_eval had too many leaves: rl_eval
									 * one operator a call from now on (deparse_eval) */
} ParseState;

/* ---------- parsing ---------- */

static void *
pb_alloc(void *data, size_t size)
{
	return palloc(size);
}

static void
pb_free(void *data, void *pointer)
{
	pfree(pointer);
}

/*
 * Parse trees deeper than parse_tree_depth_limit() message levels are refused before
 * they are unpacked: protobuf-c's unpacking, like the analyser and the executor,
 * recurses once per nested message, and a statement such as SELECT 1+1+...+1 with
 * tens of thousands of terms would overflow the stack. Two message levels make one
 * level of expression nesting. PostgreSQL (max_stack_depth 2MB) takes about 4 090
 * terms of 1+1+... and 7 270 UNION arms; 8 000 levels overflowed a backend's 8 MB
 * stack here. So the backend raises its stack's soft limit to STACK_WANTED (the kernel
 * keeps at least 128 MB free below a process's stack, and pages are only used when
 * touched), and allows as many levels as STACK_PER_LEVEL each fit in what it has,
 * at most MAX_PARSE_TREE_DEPTH: 8 192 levels of nesting with the 64 MB.
 */
#define MAX_PARSE_TREE_DEPTH 16384
#define STACK_WANTED		((rlim_t) 64 * 1024 * 1024)
#define STACK_RESERVED		((rlim_t) 2 * 1024 * 1024)
#define STACK_PER_LEVEL		2048

static int
parse_tree_depth_limit(void)
{
	static int	limit;
	struct rlimit rl;
	rlim_t		have = 8 * 1024 * 1024;

	if (limit > 0)
		return limit;
	if (getrlimit(RLIMIT_STACK, &rl) == 0)
	{
		if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < STACK_WANTED && rl.rlim_max > rl.rlim_cur)
		{
			rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > STACK_WANTED ? STACK_WANTED : rl.rlim_max;
			if (setrlimit(RLIMIT_STACK, &rl) != 0)
				getrlimit(RLIMIT_STACK, &rl);
		}
		have = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > STACK_WANTED ? STACK_WANTED : rl.rlim_cur;
	}
	limit = have > STACK_RESERVED + 64 * STACK_PER_LEVEL ? (int) ((have - STACK_RESERVED) / STACK_PER_LEVEL) : 64;
	if (limit > MAX_PARSE_TREE_DEPTH)
		limit = MAX_PARSE_TREE_DEPTH;
	return limit;
}

/*
 * parse_tree_too_deep -- walk the serialised tree without recursion, with the
 * message descriptors telling which length-delimited fields are nested messages
 */
static bool
parse_tree_too_deep(const uint8_t *data, size_t len)
{
	struct
	{
		const ProtobufCMessageDescriptor *desc;
		size_t		end;
	}		   *stack;
	int			limit = parse_tree_depth_limit();

	stack = palloc(sizeof(*stack) * (size_t) (limit + 1));
	int			depth = 0;
	RlReader	r;

	rlreader_init(&r, data, len);
	stack[0].desc = &pg_query__parse_result__descriptor;
	stack[0].end = len;
	while (rlreader_remaining(&r) > 0)
	{
		size_t		pos = len - rlreader_remaining(&r);

		while (depth > 0 && pos >= stack[depth].end)
			depth--;
		uint64_t	tag = rlreader_varint(&r);
		uint32_t	field_id = (uint32_t) (tag >> 3);
		const ProtobufCFieldDescriptor *field =
			protobuf_c_message_descriptor_get_field(stack[depth].desc, field_id);

		switch (tag & 7)
		{
			case 0:
				rlreader_varint(&r);
				break;
			case 1:
				rlreader_bytes(&r, 8);
				break;
			case 5:
				rlreader_bytes(&r, 4);
				break;
			case 2:
				{
					uint64_t	n = rlreader_varint(&r);

					if (field && field->type == PROTOBUF_C_TYPE_MESSAGE && n <= rlreader_remaining(&r))
					{
						if (++depth > limit)
							return true;
						stack[depth].desc = field->descriptor;
						stack[depth].end = len - rlreader_remaining(&r) + (size_t) n;
					}
					else
						rlreader_bytes(&r, (size_t) n);
					break;
				}
			default:
				return false;	/* malformed: let the unpacker report it */
		}
		if (r.failed)
			return false;
	}
	return false;
}

/*
 * libpg_query's own conversion of a parse tree to protobuf recurses once per level
 * too, before our depth check can run: a statement of hundreds of thousands of
 * nested terms overflows the stack inside it. The parse therefore runs with a
 * SIGSEGV handler on an alternate stack that jumps back here; the session then
 * ends with a clean FATAL error instead of a crash that would reset the server.
 */
static sigjmp_buf parse_overflow;
static volatile sig_atomic_t parsing;

static void
parse_overflow_handler(int signo)
{
	if (parsing)
		siglongjmp(parse_overflow, 1);
	signal(signo, SIG_DFL);		/* not ours: crash as we would have */
	raise(signo);
}

static PgQueryProtobufParseResult
parse_guarded(const char *text)
{
	static bool handler_installed;
	PgQueryProtobufParseResult result;

	if (!handler_installed)
	{
		static char alt_stack[64 * 1024];
		stack_t		alt = {.ss_sp = alt_stack, .ss_size = sizeof(alt_stack)};
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = parse_overflow_handler;
		sa.sa_flags = SA_ONSTACK;
		sigemptyset(&sa.sa_mask);
		if (sigaltstack(&alt, NULL) == 0 && sigaction(SIGSEGV, &sa, NULL) == 0)
			handler_installed = true;
	}
	if (sigsetjmp(parse_overflow, 1) != 0)
	{
		parsing = 0;
		/* the parser's state was abandoned mid-way: end without cleaning up after it */
		FatalSkipsCleanup = true;
		ereport(FATAL,
				errcode(ERRCODE_STATEMENT_TOO_COMPLEX),
				errmsg("stack depth limit exceeded"),
				errhint("The statement nests expressions or subqueries too deeply to be parsed."));
	}
	parsing = 1;
	result = pg_query_parse_protobuf(text);
	parsing = 0;
	return result;
}

/*
 * The parse trees of the last few statements, by shape (literals.h): clients send the
 * same statements again and again, most with new values (DuckLake's commit batch, its
 * snapshot query), and libpg_query's parse and protobuf packing is a sixth of what a
 * DuckLake statement costs. A text whose literals the scan cannot vouch for is kept by
 * its text. Only trees that parsed and passed the depth check are kept, each in a
 * memory context of its own, and handed out as copies (copy_message): unpacking one
 * from its bytes every time was a fifth of a backend's time in DuckLake's 40-row
 * INSERTs.
 */
#define PARSE_CACHE_SIZE 32
#define PARSE_CACHE_MAX_TEXT 16384
typedef struct ParseCacheEntry
{
	char	   *key;			/* the shape, or the text if not shared by shape */
	char	   *text;			/* the text parsed */
	MemoryContext context;		/* holds tree */
	PgQuery__ParseResult *tree;
	bool		by_shape;
	LiteralScan scan;			/* of text (malloc'd literals) */
	int		   *locations;		/* of each literal's constant in tree */
	bool	   *negated;
} ParseCacheEntry;
static ParseCacheEntry parse_cache[PARSE_CACHE_SIZE];
static int	parse_cache_next;

static void
parse_cache_entry_free(ParseCacheEntry *e)
{
	free(e->key);
	free(e->text);
	if (e->context)
		MemoryContextDelete(e->context);
	free(e->scan.literals);
	free(e->locations);
	free(e->negated);
	memset(e, 0, sizeof(*e));
}

static void *
copy_out(const void *data, size_t len)
{
	void	   *p = malloc(len ? len : 1);

	if (p == NULL)
		elog(ERROR, "out of memory");
	memcpy(p, data, len);
	return p;
}

/* element_size -- the size of one element of a repeated field of type */
static size_t
element_size(ProtobufCType type)
{
	switch (type)
	{
		case PROTOBUF_C_TYPE_INT64:
		case PROTOBUF_C_TYPE_SINT64:
		case PROTOBUF_C_TYPE_SFIXED64:
		case PROTOBUF_C_TYPE_UINT64:
		case PROTOBUF_C_TYPE_FIXED64:
		case PROTOBUF_C_TYPE_DOUBLE:
			return 8;
		case PROTOBUF_C_TYPE_BOOL:
			return sizeof(protobuf_c_boolean);
		case PROTOBUF_C_TYPE_STRING:
		case PROTOBUF_C_TYPE_MESSAGE:
			return sizeof(void *);
		case PROTOBUF_C_TYPE_BYTES:
			return sizeof(ProtobufCBinaryData);
		default:
			return 4;			/* the 32-bit integers, float, enum */
	}
}

/* given each message of a copy once its children are copied, if set */
typedef struct CopyVisit
{
	void		(*fn) (ProtobufCMessage *copy, void *arg);
	void	   *arg;
} CopyVisit;

static ProtobufCMessage *copy_message(const ProtobufCMessage *src, const CopyVisit *visit);

/* copy_value -- what a value of type at from points to, copied for the one at to */
static void
copy_value(ProtobufCType type, const void *from, void *to, const CopyVisit *visit)
{
	if (type == PROTOBUF_C_TYPE_MESSAGE)
	{
		const ProtobufCMessage *m = *(ProtobufCMessage * const *) from;

		*(ProtobufCMessage **) to = m ? copy_message(m, visit) : NULL;
	}
	else if (type == PROTOBUF_C_TYPE_STRING)
	{
		const char *str = *(char *const *) from;

		*(char **) to = str ? pstrdup(str) : NULL;
	}
	else if (type == PROTOBUF_C_TYPE_BYTES)
	{
		const ProtobufCBinaryData *b = from;
		ProtobufCBinaryData *c = to;

		c->data = b->len ? memcpy(palloc(b->len), b->data, b->len) : NULL;
	}
}

/* copy_field -- a field of src (set) copied into dst, which has src's bytes */
static void
copy_field(const ProtobufCFieldDescriptor *f, const ProtobufCMessage *src, ProtobufCMessage *dst,
		   const CopyVisit *visit)
{
	const char *from = (const char *) src + f->offset;
	char	   *to = (char *) dst + f->offset;

	if (f->label != PROTOBUF_C_LABEL_REPEATED)
	{
		copy_value(f->type, from, to, visit);
		return;
	}

	size_t		n = *(const size_t *) ((const char *) src + f->quantifier_offset);
	size_t		size = element_size(f->type);
	const char *items = *(char *const *) from;
	char	   *copy = n ? memcpy(palloc(n * size), items, n * size) : NULL;

	for (size_t k = 0; k < n; k++)
		copy_value(f->type, items + k * size, copy + k * size, visit);
	*(char **) to = copy;
}

/*
 * copy_message -- a deep copy of an unpacked message in the current memory
 * context, each of its messages given to visit (if set) once copied; of a Node,
 * only its member (node_member_field)
 */
static ProtobufCMessage *
copy_message(const ProtobufCMessage *src, const CopyVisit *visit)
{
	const ProtobufCMessageDescriptor *d = src->descriptor;
	ProtobufCMessage *dst = memcpy(palloc(d->sizeof_message), src, d->sizeof_message);

	dst->n_unknown_fields = 0;
	dst->unknown_fields = NULL;
	if (d == &pg_query__node__descriptor)
	{
		const ProtobufCFieldDescriptor *f = node_member_field((const PgQuery__Node *) src);

		if (f)
			copy_field(f, src, dst, visit);
	}
	else
		for (unsigned i = 0; i < d->n_fields; i++)
		{
			const ProtobufCFieldDescriptor *f = &d->fields[i];

			if (!(f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) ||
				*(const uint32_t *) ((const char *) src + f->quantifier_offset) == f->id)
				copy_field(f, src, dst, visit);
		}
	if (visit)
		visit->fn(dst, visit->arg);
	return dst;
}

/*
 * parse_cache_add -- keep a tree that parsed: by shape if its literals are each one
 * of its constants, else by text; texts too long to repeat are not kept
 */
static void
parse_cache_add(const char *query_string, const LiteralScan *scan, PgQuery__ParseResult *tree)
{
	size_t		text_len = strlen(query_string);

	if (text_len > PARSE_CACHE_MAX_TEXT)
		return;

	int			n = scan->nliterals;
	int		   *locations = palloc(sizeof(int) * (size_t) (n + 1));
	bool	   *negated = palloc(sizeof(bool) * (size_t) (n + 1));
	bool		by_shape = scan->ok && literals_find_constants(tree, query_string, scan, locations, negated);

	ParseCacheEntry *e = &parse_cache[parse_cache_next];

	parse_cache_next = (parse_cache_next + 1) % PARSE_CACHE_SIZE;
	parse_cache_entry_free(e);
	e->by_shape = by_shape;
	e->text = copy_out(query_string, text_len + 1);
	e->key = by_shape ? copy_out(scan->shape.data, scan->shape.len + 1) : copy_out(query_string, text_len + 1);
	e->context = AllocSetContextCreate(TopMemoryContext, "parse cache entry");

	MemoryContext old = MemoryContextSwitchTo(e->context);

	e->tree = (PgQuery__ParseResult *) copy_message(&tree->base, NULL);
	MemoryContextSwitchTo(old);
	if (by_shape)
	{
		e->scan.literals = copy_out(scan->literals, sizeof(Literal) * (size_t) n);
		e->scan.nliterals = n;
		e->locations = copy_out(locations, sizeof(int) * (size_t) n);
		e->negated = copy_out(negated, sizeof(bool) * (size_t) n);
	}
}

static PgQuery__ParseResult *
unpack_tree(const uint8_t *data, size_t len)
{
	ProtobufCAllocator allocator = {.alloc = pb_alloc, .free = pb_free};
	PgQuery__ParseResult *tree = pg_query__parse_result__unpack(&allocator, len, data);

	if (tree == NULL)
		elog(ERROR, "could not decode the parse tree");
	return tree;
}

/* cache_entry -- the parse cache's entry for query_string (scanned into scan), or NULL */
static ParseCacheEntry *
cache_entry(const char *query_string, LiteralScan *scan)
{
	for (int i = 0; i < PARSE_CACHE_SIZE; i++)
	{
		ParseCacheEntry *e = &parse_cache[i];

		if (e->key && strcmp(e->key, e->by_shape && scan->ok ? rlbuf_cstr(&scan->shape) : query_string) == 0)
			return e;
	}
	return NULL;
}

/* cached_tree -- a copy of the kept tree of query_string (scanned into scan), or NULL */
static PgQuery__ParseResult *
cached_tree(const char *query_string, LiteralScan *scan)
{
	ParseCacheEntry *e = cache_entry(query_string, scan);
	CopyVisit	rebind = {literals_rebind_node, NULL};

	if (e == NULL)
		return NULL;
	if (e->by_shape && strcmp(e->text, query_string) != 0)
		rebind.arg = literals_rebind_start(&e->scan, e->locations, e->negated, query_string, scan);
	return (PgQuery__ParseResult *) copy_message(&e->tree->base, rebind.arg ? &rebind : NULL);
}

/*
 * parse_and_keep -- parse query_string (scanned into scan) and keep its tree in the
 * cache; a syntax error or a tree too deep is an ERROR, or NULL if !report
 */
static PgQuery__ParseResult *
parse_and_keep(const char *query_string, const LiteralScan *scan, bool report)
{
	PgQuery__ParseResult *tree = NULL;
	const char *quiet = literals_quiet_comments(query_string);
	PgQueryProtobufParseResult result = parse_guarded(quiet);

	if (result.error != NULL)
	{
		char	   *message = literals_unquiet_message(result.error->message, query_string, quiet);
		int			cursorpos = result.error->cursorpos;

		/*
		 * The text was checked to be UTF-8 when it arrived; an escape in an E''
		 * string can still make an invalid byte, which the scanner refuses
		 * through PostgreSQL's report_invalid_encoding: that is 22021, not 42601.
		 */
		bool		bad_encoding = result.error->funcname != NULL &&
			strcmp(result.error->funcname, "report_invalid_encoding") == 0;

		pg_query_free_protobuf_parse_result(result);
		if (!report)
			return NULL;
		ereport(ERROR,
				errcode(bad_encoding ? ERRCODE_CHARACTER_NOT_IN_REPERTOIRE : ERRCODE_SYNTAX_ERROR),
				errmsg("%s", message),
				errposition(cursorpos));
	}
	if (parse_tree_too_deep((const uint8_t *) result.parse_tree.data, result.parse_tree.len))
	{
		pg_query_free_protobuf_parse_result(result);
		if (!report)
			return NULL;
		ereport(ERROR,
				errcode(ERRCODE_STATEMENT_TOO_COMPLEX),
				errmsg("stack depth limit exceeded"),
				errhint("The statement nests expressions or subqueries more than %d levels deep.",
						parse_tree_depth_limit() / 2));
	}
	if (report)
		tree = unpack_tree((const uint8_t *) result.parse_tree.data, result.parse_tree.len);
	else
	{
		ProtobufCAllocator allocator = {.alloc = pb_alloc, .free = pb_free};

		tree = pg_query__parse_result__unpack(&allocator, result.parse_tree.len,
											  (const uint8_t *) result.parse_tree.data);
	}
	if (tree)
		parse_cache_add(query_string, scan, tree);
	pg_query_free_protobuf_parse_result(result);
	return tree;
}

/* parsed_tree -- the parse tree of query_string: from the cache, or parsed now; or ERROR */
static PgQuery__ParseResult *
parsed_tree(const char *query_string)
{
	LiteralScan scan;
	PgQuery__ParseResult *tree;

	literals_scan(query_string, &scan);
	tree = cached_tree(query_string, &scan);
	return tree ? tree : parse_and_keep(query_string, &scan, true);
}

void
ParseCacheForeachText(void (*fn) (const char *text, void *arg), void *arg)
{
	for (int i = 0; i < PARSE_CACHE_SIZE; i++)
		if (parse_cache[i].text)
			fn(parse_cache[i].text, arg);
}

void
ParseCacheWarm(const char *query_string)
{
	MemoryContext warm = AllocSetContextCreate(TopMemoryContext, "parse cache warming");
	MemoryContext old = MemoryContextSwitchTo(warm);
	LiteralScan scan;

	literals_scan(query_string, &scan);
	if (cache_entry(query_string, &scan) == NULL)
		parse_and_keep(query_string, &scan, false);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(warm);
}

ParsedQuery *
ParseQuery(const char *query_string)
{
	PgQuery__ParseResult *tree = parsed_tree(query_string);
	ParsedQuery *pq = palloc0(sizeof(ParsedQuery));

	pq->nstmts = (int) tree->n_stmts;
	pq->stmts = palloc0(sizeof(RawStatement) * (tree->n_stmts ? tree->n_stmts : 1));
	for (size_t i = 0; i < tree->n_stmts; i++)
	{
		pq->stmts[i].node = tree->stmts[i]->stmt;
		pq->stmts[i].location = tree->stmts[i]->stmt_location;
		pq->stmts[i].length = tree->stmts[i]->stmt_len;
	}
	return pq;
}

bool
IsTransactionExitStatement(const RawStatement *raw)
{
	if (raw->node->node_case != PG_QUERY__NODE__NODE_TRANSACTION_STMT)
		return false;
	switch (raw->node->transaction_stmt->kind)
	{
		case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT:
		case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK:
		case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO:
			return true;
		default:
			return false;
	}
}

/* ---------- errors ---------- */

/* char_position -- PostgreSQL's cursor positions count characters from 1 */
static int
char_position(ParseState *ps, int location)
{
	if (location < 0)
		return 0;
	int			chars = 0;

	for (int i = 0; i < location && ps->query[i]; i++)
		if (((unsigned char) ps->query[i] & 0xC0) != 0x80)
			chars++;
	return chars + 1;
}

static void
not_supported(ParseState *ps, const char *what, int location)
{
	ereport(ERROR,
			errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			errmsg("%s is not supported yet", what),
			errposition(char_position(ps, location)));
}

/* node_name -- the protobuf message name of a node ("SubLink", "CreateStmt") */
static const char *
node_name(const Node *node)
{
	const ProtobufCMessage *msg = (const ProtobufCMessage *) node->select_stmt;

	return msg ? msg->descriptor->short_name : "this construct";
}

/* is_set -- protobuf-c gives absent strings as "" rather than NULL */
static bool
is_set(const char *s)
{
	return s != NULL && s[0] != '\0';
}

static const char *
string_value(const Node *node)
{
	return node && node->node_case == PG_QUERY__NODE__NODE_STRING ? node->string->sval : "";
}

/* ---------- types ---------- */

static bool
is_numeric(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t && t->category == TYPCATEGORY_NUMERIC;
}

static int
numeric_rank(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t ? t->numeric_rank : 0;
}

static bool
is_array(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t && t->category == TYPCATEGORY_ARRAY;
}

static bool
is_string(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t && t->category == TYPCATEGORY_STRING;
}

static Expr *
make_expr(ExprKind kind, Oid type, int location)
{
	Expr	   *e = palloc0(sizeof(Expr));

	e->kind = kind;
	e->type = type;
	e->typmod = -1;
	e->location = location;
	return e;
}

static Expr *
make_const(Value v, int location)
{
	Expr	   *e = make_expr(EXPR_CONST, v.type, location);

	e->constval = v;
	return e;
}

/*
 * both_arrays -- whether from and to are array types, their element types in *from_elem
 * and *to_elem: an array is cast element by element, as its elements may be
 */
static bool
both_arrays(Oid from, Oid to, Oid *from_elem, Oid *to_elem)
{
	const TypeInfo *f = typio_lookup(from),
			   *t = typio_lookup(to);

	if (f == NULL || t == NULL || f->category != TYPCATEGORY_ARRAY || t->category != TYPCATEGORY_ARRAY)
		return false;
	*from_elem = f->elem;
	*to_elem = t->elem;
	return true;
}

/* can_cast -- the explicit casts PostgreSQL has between these types */
static bool
can_cast(Oid from, Oid to)
{
	const TypeInfo *f = typio_lookup(from),
			   *t = typio_lookup(to);
	Oid			from_elem,
				to_elem;

	if (f == NULL || t == NULL)
		return false;
	if (from == to || from == UNKNOWNOID || is_string(from) || is_string(to))
		return true;
	if (both_arrays(from, to, &from_elem, &to_elem))
		return can_cast(from_elem, to_elem);
	/* an oid is made from an integer, and read as an int4 or an int8 */
	if (typio_is_oid(from) != typio_is_oid(to))
		return typio_is_oid(to) ? from == INT2OID || from == INT4OID || from == INT8OID
			: to == INT4OID || to == INT8OID;
	if ((from == TIMEOID && to == INTERVALOID) || (from == INTERVALOID && to == TIMEOID))
		return true;
	if (from == TIMETZOID || to == TIMETZOID)
		return from == TIMEOID || to == TIMEOID || from == TIMESTAMPTZOID;
	if (f->category == t->category && f->category != TYPCATEGORY_USER && f->category != TYPCATEGORY_ARRAY)
		return !(from == TIMEOID && to != TIMEOID && to != INTERVALOID) &&
			!(to == TIMEOID && from == DATEOID);
	if ((from == BOOLOID && to == INT4OID) || (from == INT4OID && to == BOOLOID))
		return true;
	return (from == JSONOID || from == JSONBOID) && (to == JSONOID || to == JSONBOID);
}

/*
 * can_coerce_implicitly -- widening inside a category (arrays: their elements), and unknown
 * to anything
 */
static bool
can_coerce_implicitly(Oid from, Oid to)
{
	Oid			from_elem,
				to_elem;

	if (from == to || from == UNKNOWNOID)
		return true;
	if (both_arrays(from, to, &from_elem, &to_elem))
		return can_coerce_implicitly(from_elem, to_elem);
	if (typio_is_oid(from) && typio_is_oid(to))
		return true;			/* oid and the reg* types are binary-compatible */
	if (is_numeric(from) && is_numeric(to))
		return numeric_rank(from) <= numeric_rank(to) && !typio_is_oid(from);
	if (is_string(from) && is_string(to))
		return to == TEXTOID || to == VARCHAROID;
	if (is_array(from) && is_array(to))
		return can_coerce_implicitly(typio_lookup(from)->elem, typio_lookup(to)->elem);
	if (from == TIMEOID && (to == TIMETZOID || to == INTERVALOID))
		return true;
	if (from == DATEOID && (to == TIMESTAMPOID || to == TIMESTAMPTZOID))
		return true;
	return from == TIMESTAMPOID && to == TIMESTAMPTZOID;
}

/*
 * can_coerce_assignment -- PostgreSQL's assignment casts (a value for a column): the
 * implicit ones, the narrowing ones pg_cast marks for assignment (between numbers, between
 * date/time types, json and jsonb), and any type to a string type through its output. A
 * string becomes another type only by an explicit cast (but regclass, which text reaches
 * implicitly), and bool and int4 only by one both ways.
 */
static bool
can_coerce_assignment(Oid from, Oid to)
{
	Oid			from_elem,
				to_elem;

	if (can_coerce_implicitly(from, to))
		return true;
	if (both_arrays(from, to, &from_elem, &to_elem))
		return can_coerce_assignment(from_elem, to_elem);
	if (is_string(from) && !is_string(to))
		return to == REGCLASSOID;
	return can_cast(from, to) && (is_string(to) || (from != BOOLOID && to != BOOLOID));
}

/* LiteralAt -- where a literal is, its character position counted only for an error */
typedef struct LiteralAt
{
	ParseState *ps;
	int			location;
} LiteralAt;

/*
 * literal_position -- an input error's position: the literal's, unless it has one
 * (counted here, not for every literal: a statement of a million literals would count
 * its characters a million times)
 */
static void
literal_position(void *arg)
{
	ErrorData  *e = CurrentErrorData();
	const LiteralAt *at = arg;

	if (e->cursorpos == 0)
		e->cursorpos = char_position(at->ps, at->location);
}

/*
 * literal_input -- a literal's text as a value of type, its input error pointing at
 * the literal (location) as PostgreSQL's does
 */
static Value
literal_input(ParseState *ps, Oid type, const char *text, int32_t typmod, int location)
{
	sigjmp_buf *save = PG_exception_stack;
	LiteralAt	at = {ps, location};
	ErrorContextCallback callback = {.previous = error_context_stack, .callback = literal_position,
	.arg = &at};
	sigjmp_buf	local;

	if (save == NULL || location < 0)
		return typio_input(type, text, typmod);
	if (sigsetjmp(local, 0) != 0)
	{
		/* the report, sent with its position, stands: on to the recovery point */
		error_context_stack = callback.previous;
		PG_exception_stack = save;
		siglongjmp(*save, 1);
	}
	error_context_stack = &callback;
	PG_exception_stack = &local;

	Value		v = typio_input(type, text, typmod);

	error_context_stack = callback.previous;
	PG_exception_stack = save;
	return v;
}

/*
 * coerce_expr -- make e of type target
 *
 * Unknown literals are converted now (their input errors point at them);
 * parameters of unknown type simply become target. Returns NULL when the
 * coercion is not allowed in mode: implicit, assignment (a value for a column:
 * can_coerce_assignment) or explicit (can_cast). A too long varchar(n) fails in an
 * assignment where the explicit cast cuts it (PostgreSQL's length coercion).
 */
typedef enum CoercionMode
{
	COERCE_IMPLICIT,
	COERCE_ASSIGNMENT,
	COERCE_EXPLICIT
} CoercionMode;

static Expr *
coerce_expr(ParseState *ps, Expr *e, Oid target, int32_t typmod, CoercionMode mode)
{
	bool		char_length = (target == VARCHAROID || target == BPCHAROID) && typmod >= 4;
	bool		array_typmod = typmod >= 0 && is_array(target);	/* its elements' */

	if (e->type == target && (typmod < 0 || e->typmod == typmod))
		return e;
	if (e->kind == EXPR_PARAM && e->type == UNKNOWNOID)
	{
		ps->paramtypes[e->paramno] = target;
		e->type = target;
		if (typmod < 0)
			return e;
	}
	else if (e->kind == EXPR_CONST && e->type == UNKNOWNOID)
	{
		Value		v = e->constval.isnull ? typio_null(target)
			: literal_input(ps, target, e->constval.u.s.data, char_length || array_typmod ? -1 : typmod,
							e->location);

		/* an explicit cast cuts a string to its length, an assignment refuses it */
		if (char_length && !v.isnull)
			v = typio_char_length(&v, typmod, mode == COERCE_EXPLICIT);
		else if (array_typmod && !v.isnull)
			v = ExecCastValue(&v, target, typmod, mode == COERCE_EXPLICIT);

		Expr	   *c = make_const(v, e->location);

		c->typmod = typmod;
		return c;
	}
	else if (!(mode == COERCE_EXPLICIT ? can_cast(e->type, target)
			   : mode == COERCE_ASSIGNMENT ? can_coerce_assignment(e->type, target)
			   : can_coerce_implicitly(e->type, target)))
		return NULL;
	Expr	   *cast = make_expr(EXPR_CAST, target, e->location);

	cast->typmod = typmod;
	cast->cast_explicit = mode == COERCE_EXPLICIT;
	cast->nargs = 1;
	cast->args = palloc(sizeof(Expr *));
	cast->args[0] = e;
	return cast;
}

static Expr *
coerce_or_fail(ParseState *ps, Expr *e, Oid target, const char *context)
{
	Expr	   *r = coerce_expr(ps, e, target, -1, COERCE_IMPLICIT);

	if (r == NULL)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("argument of %s must be type %s, not type %s", context,
					   typio_format_type(target), typio_format_type(e->type)),
				errposition(char_position(ps, e->location)));
	return r;
}

/*
 * select_common_type -- PostgreSQL's rule for CASE, COALESCE, VALUES columns:
 * unknowns follow the others, numbers widen, otherwise all must agree.
 */
static Oid
select_common_type(ParseState *ps, Expr **exprs, int n, const char *context)
{
	Oid			common = UNKNOWNOID;

	for (int i = 0; i < n; i++)
	{
		Oid			t = exprs[i]->type;

		if (t == UNKNOWNOID)
			continue;
		if (common == UNKNOWNOID || can_coerce_implicitly(common, t))
			common = t;
		else if (!can_coerce_implicitly(t, common))
			ereport(ERROR,
					errcode(ERRCODE_DATATYPE_MISMATCH),
					errmsg("%s types %s and %s cannot be matched", context,
						   typio_format_type(common), typio_format_type(t)),
					errposition(char_position(ps, exprs[i]->location)));
	}
	return common == UNKNOWNOID ? TEXTOID : common;
}

static void
coerce_all(ParseState *ps, Expr **exprs, int n, Oid type, const char *context)
{
	for (int i = 0; i < n; i++)
		exprs[i] = coerce_or_fail(ps, exprs[i], type, context);
}

/* ---------- expressions ---------- */

static Expr *transform_expr(ParseState *ps, Node *node);
static Expr *transform_column_ref(ParseState *ps, PgQuery__ColumnRef *cr);
static Expr *transform_sublink(ParseState *ps, PgQuery__SubLink *sl);
static Expr *transform_aggregate(ParseState *ps, PgQuery__FuncCall *fc, const char *name);

/* is_aggregate -- whether fc calls one of the aggregates RockLake has */
static bool
is_aggregate(const PgQuery__FuncCall *fc)
{
	static const char *const aggs[] = {"count", "sum", "avg", "min", "max", "bool_and", "bool_or",
	"every", "string_agg", "array_agg"};
	const char *name = string_value(fc->funcname[fc->n_funcname - 1]);

	if (fc->n_funcname > 1 && strcmp(string_value(fc->funcname[0]), "pg_catalog") != 0)
		return false;
	for (size_t i = 0; i < sizeof(aggs) / sizeof(aggs[0]); i++)
		if (strcmp(name, aggs[i]) == 0)
			return true;
	return false;
}
static Expr *transform_window(ParseState *ps, PgQuery__FuncCall *fc, const char *name);
/* contains_aggregate -- whether e computes an aggregate of this query level */
static bool contains_aggregate(const Expr *e);
static bool expr_equal(const Expr *a, const Expr *b);
static Expr *transform_array(ParseState *ps, PgQuery__AArrayExpr *a, Oid array_type);

static Expr **
transform_list(ParseState *ps, Node **nodes, size_t n)
{
	Expr	  **out = palloc(sizeof(Expr *) * (n ? n : 1));

	for (size_t i = 0; i < n; i++)
		out[i] = transform_expr(ps, nodes[i]);
	return out;
}

static Expr *
transform_const(ParseState *ps, PgQuery__AConst *c)
{
	if (c->isnull)
		return make_const(typio_null(UNKNOWNOID), c->location);
	switch (c->val_case)
	{
		case PG_QUERY__A__CONST__VAL_IVAL:
			return make_const(typio_int(INT4OID, c->ival->ival), c->location);
		case PG_QUERY__A__CONST__VAL_FVAL:
			{
				/*
				 * an integer too long for int4 is int8 if it fits, else numeric; one the
				 * grammar negated (-2147483648) is int4 again if it fits, as PostgreSQL's
				 * make_const
				 */
				const char *s = c->fval->fval;
				char	   *end;

				errno = 0;
				long long	v = strtoll(s, &end, 10);

				if (*end == '\0' && errno == 0)
					return make_const(v >= INT32_MIN && v <= INT32_MAX ? typio_int(INT4OID, v)
									  : typio_input(INT8OID, s, -1), c->location);
				return make_const(typio_input(NUMERICOID, s, -1), c->location);
			}
		case PG_QUERY__A__CONST__VAL_BOOLVAL:
			return make_const(typio_bool(c->boolval->boolval), c->location);
		case PG_QUERY__A__CONST__VAL_SVAL:
			return make_const(typio_string(UNKNOWNOID, c->sval->sval, strlen(c->sval->sval)),
							  c->location);
		default:
			not_supported(ps, "bit string literal", c->location);
			return NULL;
	}
}

/* type_from_typename -- the OID and typmod a TypeName spells */
static Oid
type_from_typename(ParseState *ps, PgQuery__TypeName *tn, int32_t *typmod)
{
	const char *name = string_value(tn->names[tn->n_names - 1]);

	if (tn->n_names > 1 && strcmp(string_value(tn->names[0]), "pg_catalog") != 0)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_OBJECT),
				errmsg("type \"%s.%s\" does not exist", string_value(tn->names[0]), name),
				errposition(char_position(ps, tn->location)));
	Oid			type = typio_type_by_name(name);

	if (type == InvalidOid || type == UNKNOWNOID)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_OBJECT),
				errmsg("type \"%s\" does not exist", name),
				errposition(char_position(ps, tn->location)));
	*typmod = -1;
	if (tn->n_typmods > 0)
	{
		int			mods[2] = {0, 0};

		for (size_t i = 0; i < tn->n_typmods && i < 2; i++)
		{
			Node	   *m = tn->typmods[i];

			if (m->node_case != PG_QUERY__NODE__NODE_A_CONST ||
				m->a_const->val_case != PG_QUERY__A__CONST__VAL_IVAL)
				ereport(ERROR,
						errcode(ERRCODE_SYNTAX_ERROR),
						errmsg("type modifiers must be simple constants or identifiers"),
						errposition(char_position(ps, tn->location)));
			mods[i] = m->a_const->ival->ival;
		}
		/* PostgreSQL's limits (numeric_typmod_in, anychar_typmod_in), before any arithmetic */
		if (type == NUMERICOID && (mods[0] < 1 || mods[0] > NUMERIC_MAX_PRECISION))
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("NUMERIC precision %d must be between 1 and %d", mods[0], NUMERIC_MAX_PRECISION),
					errposition(char_position(ps, tn->location)));
		if (type == NUMERICOID && (mods[1] < 0 || mods[1] > mods[0]))
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("NUMERIC scale %d outside 0 to the precision %d is not supported", mods[1], mods[0]),
					errposition(char_position(ps, tn->location)));
		if ((type == VARCHAROID || type == BPCHAROID) && (mods[0] < 1 || mods[0] > MAX_CHAR_LENGTH))
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					mods[0] < 1 ? errmsg("length for type %s must be at least 1", type == VARCHAROID ? "varchar" : "char")
					: errmsg("length for type %s cannot exceed %d", type == VARCHAROID ? "varchar" : "char",
							 MAX_CHAR_LENGTH),
					errposition(char_position(ps, tn->location)));
		if (type == NUMERICOID)
			*typmod = ((mods[0] << 16) | mods[1]) + 4;
		else if (type == VARCHAROID || type == BPCHAROID)
			*typmod = mods[0] + 4;
	}
	else if (type == BPCHAROID && strcmp(name, "bpchar") != 0)
		*typmod = 1 + 4;		/* plain "char" / "character" is character(1) */
	if (tn->n_array_bounds > 0)
	{
		Oid			array = typio_array_type(type);

		if (array == InvalidOid || tn->n_array_bounds > 1)
			not_supported(ps, psprintf("arrays of type %s", typio_format_type(type)), tn->location);
		return array;			/* an array's typmod is its elements', as in PostgreSQL */
	}
	return type;
}

static Expr *
transform_cast(ParseState *ps, PgQuery__TypeCast *tc)
{
	int32_t		typmod;
	Oid			target = type_from_typename(ps, tc->type_name, &typmod);
	Expr	   *arg = tc->arg->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR && is_array(target)
		? transform_array(ps, tc->arg->a_array_expr, target) : transform_expr(ps, tc->arg);
	Expr	   *r = coerce_expr(ps, arg, target, typmod, COERCE_EXPLICIT);

	if (r == NULL)
		ereport(ERROR,
				errcode(ERRCODE_CANNOT_COERCE),
				errmsg("cannot cast type %s to %s", typio_format_type(arg->type),
					   typio_format_type(target)),
				errposition(char_position(ps, tc->location)));
	if (r->kind == EXPR_CAST || r->kind == EXPR_CONST)
		r->location = tc->location;
	return r;
}

static void
no_operator(ParseState *ps, const char *opname, Expr *l, Expr *r, int location)
{
	if (l == NULL)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("operator does not exist: %s %s", opname, typio_format_type(r->type)),
				errhint("No operator matches the given name and argument type. "
						"You might need to add an explicit type cast."),
				errposition(char_position(ps, location)));
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_FUNCTION),
			errmsg("operator does not exist: %s %s %s", typio_format_type(l->type), opname,
				   typio_format_type(r->type)),
			errhint("No operator matches the given name and argument types. "
					"You might need to add explicit type casts."),
			errposition(char_position(ps, location)));
}

static const struct
{
	const char *name;
	ExprOp		op;
}			operators[] = {
	{"+", OP_ADD}, {"-", OP_SUB}, {"*", OP_MUL}, {"/", OP_DIV}, {"%", OP_MOD},
	{"=", OP_EQ}, {"<>", OP_NE}, {"!=", OP_NE}, {"<", OP_LT}, {"<=", OP_LE},
	{">", OP_GT}, {">=", OP_GE}, {"||", OP_CONCAT}, {"~~", OP_LIKE},
	{"!~~", OP_NOT_LIKE}, {"~~*", OP_ILIKE}, {"!~~*", OP_NOT_ILIKE},
	{"~", OP_REGEX}, {"!~", OP_NOT_REGEX}, {"~*", OP_REGEX_CI}, {"!~*", OP_NOT_REGEX_CI},
};

static Expr *
op_expr(ExprOp op, Oid result, Expr *l, Expr *r, int location)
{
	Expr	   *e = make_expr(EXPR_OP, result, location);

	e->op = op;
	e->nargs = l ? 2 : 1;
	e->args = palloc(sizeof(Expr *) * 2);
	e->args[0] = l ? l : r;
	e->args[1] = l ? r : NULL;
	return e;
}

/* datetime_arith_result -- the result type of +/- on date/time types, or 0 */
static Oid
datetime_arith_result(ExprOp op, Oid lt, Oid rt)
{
	bool		lts = lt == TIMESTAMPOID || lt == TIMESTAMPTZOID;

	if (op == OP_ADD && rt != INTERVALOID && lt == INTERVALOID)
		return datetime_arith_result(op, rt, lt);
	if (op != OP_ADD && op != OP_SUB)
		return InvalidOid;
	if (lt == DATEOID && (rt == INT4OID || rt == INT2OID))
		return DATEOID;
	if (lt == DATEOID && rt == DATEOID && op == OP_SUB)
		return INT4OID;
	if ((lts || lt == TIMEOID || lt == INTERVALOID) && rt == INTERVALOID)
		return lt;
	if (lt == DATEOID && rt == INTERVALOID)
		return TIMESTAMPOID;
	if (lts && rt == lt && op == OP_SUB)
		return INTERVALOID;
	return InvalidOid;
}

/*
 * make_op -- resolve a binary (l != NULL) or prefix operator
 *
 * Unknown operands take the other side's type; numbers widen to the larger
 * type; strings compare and concatenate as text; date/time arithmetic has its
 * own table. Everything else is 42883, as PostgreSQL reports it.
 */
static Expr *
make_op(ParseState *ps, const char *opname, Expr *l, Expr *r, int location)
{
	ExprOp		op = OP_ADD;
	bool		found = false;

	for (size_t i = 0; i < sizeof(operators) / sizeof(operators[0]); i++)
		if (strcmp(operators[i].name, opname) == 0)
		{
			op = operators[i].op;
			found = true;
		}
	if (!found)
		no_operator(ps, opname, l, r, location);
	if (l == NULL)
	{
		/* oids and the reg* types are numbers without a negative */
		if (op != OP_SUB || (!is_numeric(r->type) && r->type != INTERVALOID) || typio_is_oid(r->type))
			no_operator(ps, opname, l, r, location);
		return op_expr(OP_NEG, r->type, NULL, r, location);
	}

	bool		comparison = op >= OP_EQ && op <= OP_NOT_DISTINCT;
	bool		textual = op == OP_CONCAT || op >= OP_LIKE;

	if (l->type == UNKNOWNOID && r->type == UNKNOWNOID && (comparison || textual))
	{
		l = coerce_expr(ps, l, TEXTOID, -1, COERCE_IMPLICIT);
		r = coerce_expr(ps, r, TEXTOID, -1, COERCE_IMPLICIT);
	}
	else if (l->type == UNKNOWNOID)
		l = coerce_expr(ps, l, op == OP_CONCAT && !is_string(r->type) && !is_array(r->type) ? TEXTOID : r->type,
						-1, COERCE_IMPLICIT);
	else if (r->type == UNKNOWNOID)
		r = coerce_expr(ps, r, op == OP_CONCAT && !is_string(l->type) && !is_array(l->type) ? TEXTOID : l->type,
						-1, COERCE_IMPLICIT);

	if (op == OP_CONCAT && (is_array(l->type) || is_array(r->type)))
	{
		if (l->type != r->type)
			no_operator(ps, opname, l, r, location);
		return op_expr(op, l->type, l, r, location);
	}
	if (op == OP_CONCAT)
	{
		if (!is_string(l->type) && !is_string(r->type))
			no_operator(ps, opname, l, r, location);
		/* character(n) is concatenated as text: without its trailing spaces */
		if (l->type == BPCHAROID)
			l = coerce_expr(ps, l, TEXTOID, -1, COERCE_IMPLICIT);
		if (r->type == BPCHAROID)
			r = coerce_expr(ps, r, TEXTOID, -1, COERCE_IMPLICIT);
		return op_expr(op, TEXTOID, l, r, location);
	}
	if (textual)
	{
		if (!is_string(l->type) || !is_string(r->type))
			no_operator(ps, opname, l, r, location);
		return op_expr(op, BOOLOID, l, r, location);
	}
	if (is_numeric(l->type) && is_numeric(r->type))
	{
		Oid			common = numeric_rank(l->type) >= numeric_rank(r->type) ? l->type : r->type;

		/* oids compare as oids; arithmetic takes them as bigint */
		if (common == OIDOID && !comparison)
			common = INT8OID;
		/* real with anything but real: double precision, PostgreSQL's preferred type */
		if (common == FLOAT4OID && (l->type != FLOAT4OID || r->type != FLOAT4OID))
			common = FLOAT8OID;
		if (op == OP_MOD && (common == FLOAT4OID || common == FLOAT8OID))
			no_operator(ps, opname, l, r, location);
		l = coerce_expr(ps, l, common, -1, l->type == OIDOID ? COERCE_EXPLICIT : COERCE_IMPLICIT);
		r = coerce_expr(ps, r, common, -1, r->type == OIDOID ? COERCE_EXPLICIT : COERCE_IMPLICIT);
		return op_expr(op, comparison ? BOOLOID : common, l, r, location);
	}
	if (comparison)
	{
		if (is_string(l->type) && is_string(r->type))
		{
			l = coerce_expr(ps, l, TEXTOID, -1, COERCE_IMPLICIT);
			r = coerce_expr(ps, r, TEXTOID, -1, COERCE_IMPLICIT);
		}
		else if (l->type != r->type)
		{
			/* date < timestamp and the like: widen one side */
			Expr	   *lw = coerce_expr(ps, l, r->type, -1, COERCE_IMPLICIT);
			Expr	   *rw = lw ? NULL : coerce_expr(ps, r, l->type, -1, COERCE_IMPLICIT);

			if (lw == NULL && rw == NULL)
				no_operator(ps, opname, l, r, location);
			l = lw ? lw : l;
			r = rw ? rw : r;
		}
		return op_expr(op, BOOLOID, l, r, location);
	}
	Oid			result = datetime_arith_result(op, l->type, r->type);

	if (result == InvalidOid)
		no_operator(ps, opname, l, r, location);
	if (op == OP_ADD && l->type == INTERVALOID && r->type != INTERVALOID)
		return op_expr(op, result, r, l, location);	/* keep the datetime first */
	return op_expr(op, result, l, r, location);
}

static Expr *
make_bool_expr(ExprKind kind, Expr *a, Expr *b, int location)
{
	Expr	   *e = make_expr(kind, BOOLOID, location);

	e->nargs = b ? 2 : 1;
	e->args = palloc(sizeof(Expr *) * 2);
	e->args[0] = a;
	e->args[1] = b;
	return e;
}

/*
 * make_scalar_array -- scalar op ANY / ALL (array): the scalar compared with each
 * element as op would compare it with a value of the element type. An unknown array
 * (a literal, $1) takes the array type of the scalar's.
 */
static Expr *
make_scalar_array(ParseState *ps, const char *opname, Expr *l, Expr *r, bool all, int location)
{
	if (r->type == UNKNOWNOID)
	{
		Oid			array = typio_array_type(l->type == UNKNOWNOID ? TEXTOID : l->type);

		if (array == InvalidOid)
			no_operator(ps, opname, l, r, location);
		r = coerce_expr(ps, r, array, -1, COERCE_IMPLICIT);
	}
	if (!is_array(r->type))
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("op ANY/ALL (array) requires array on right side"),
				errposition(char_position(ps, location)));
	/* type the comparison with an element standing in for the array */
	Expr	   *cmp = make_op(ps, opname, l, make_expr(EXPR_CONST, typio_lookup(r->type)->elem, r->location),
							  location);

	if (cmp->type != BOOLOID)
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("op ANY/ALL (array) requires operator to yield boolean"),
				errposition(char_position(ps, location)));

	Expr	   *e = op_expr(cmp->op, BOOLOID, cmp->args[0], r, location);

	e->kind = EXPR_SCALAR_ARRAY;
	e->array_all = all;
	e->element_type = cmp->args[1]->type;
	return e;
}

static void
multidimensional(ParseState *ps, int location)
{
	ereport(ERROR,
			errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			errmsg("multidimensional arrays are not supported yet"),
			errposition(char_position(ps, location)));
}

/*
 * transform_array -- ARRAY[...]: of the elements' common type (text if all are
 * unknown), or, under a cast to an array type (array_type), of its element type,
 * each element cast as an explicit cast would. Arrays have one dimension here.
 */
static Expr *
transform_array(ParseState *ps, PgQuery__AArrayExpr *a, Oid array_type)
{
	Expr	   *e = make_expr(EXPR_ARRAY, array_type, a->location);
	Oid			elem;

	for (size_t i = 0; i < a->n_elements; i++)
		if (a->elements[i]->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR)
			multidimensional(ps, a->elements[i]->a_array_expr->location);
	e->nargs = (int) a->n_elements;
	e->args = transform_list(ps, a->elements, a->n_elements);
	if (array_type != InvalidOid)
	{
		elem = typio_lookup(array_type)->elem;
		for (int i = 0; i < e->nargs; i++)
		{
			Expr	   *c = coerce_expr(ps, e->args[i], elem, -1, COERCE_EXPLICIT);

			if (c == NULL)
				ereport(ERROR,
						errcode(ERRCODE_CANNOT_COERCE),
						errmsg("cannot cast type %s to %s", typio_format_type(e->args[i]->type),
							   typio_format_type(elem)),
						errposition(char_position(ps, e->args[i]->location)));
			e->args[i] = c;
		}
		return e;
	}
	if (e->nargs == 0)
		ereport(ERROR,
				errcode(ERRCODE_INDETERMINATE_DATATYPE),
				errmsg("cannot determine type of empty array"),
				errhint("Explicitly cast to the desired type, for example ARRAY[]::integer[]."),
				errposition(char_position(ps, a->location)));
	elem = select_common_type(ps, e->args, e->nargs, "ARRAY");
	if (is_array(elem))
		multidimensional(ps, a->location);
	e->type = typio_array_type(elem);
	if (e->type == InvalidOid)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_OBJECT),
				errmsg("could not find array type for data type %s", typio_format_type(elem)),
				errposition(char_position(ps, a->location)));
	coerce_all(ps, e->args, e->nargs, elem, "ARRAY");
	return e;
}

/*
 * Row comparisons, (a, b) op (c, d) (opname; NULL for IS [NOT] DISTINCT FROM, op), made of their fields' comparisons as PostgreSQL
 * defines them: = is every pair equal, <> any pair unequal, IS [NOT] DISTINCT FROM
 * the same of each pair's, and < <= > >= order by the first pair that differs, the
 * row being null where that pair has a null: a1 < c1 OR (a1 = c1 AND (a2 < c2 OR
 * ...)), whose three values are PostgreSQL's. (a, b) IN ((..), (..)) is the OR of
 * the rows' = . Each is an AND or OR of plain comparisons, so it translates as those
 * do; a row nests only as deep as it has fields.
 */
static Expr *
row_compare(ParseState *ps, const char *opname, ExprOp op, Expr **l, int n, Node *rnode, int location)
{
	if (rnode->node_case != PG_QUERY__NODE__NODE_ROW_EXPR)
		not_supported(ps, "this row comparison", location);

	PgQuery__RowExpr *r = rnode->row_expr;

	if ((int) r->n_args != n)
		ereport(ERROR,
				errcode(ERRCODE_SYNTAX_ERROR),
				errmsg("unequal number of entries in row expressions"),
				errposition(char_position(ps, location)));
	if (n == 0)
		not_supported(ps, "comparison of empty rows", location);

	Expr	  **rf = transform_list(ps, r->args, r->n_args);
	bool		ordering = opname && (strcmp(opname, "<") == 0 || strcmp(opname, "<=") == 0 ||
		strcmp(opname, ">") == 0 || strcmp(opname, ">=") == 0);

	if (ordering)
	{
		const char *strict = opname[0] == '<' ? "<" : ">";
		Expr	   *e = make_op(ps, opname, l[n - 1], rf[n - 1], location);

		for (int i = n - 2; i >= 0; i--)
			e = make_bool_expr(EXPR_OR, make_op(ps, strict, l[i], rf[i], location),
							   make_bool_expr(EXPR_AND, make_op(ps, "=", l[i], rf[i], location), e, location),
							   location);
		return e;
	}

	bool		any = opname ? strcmp(opname, "<>") == 0 : op == OP_DISTINCT;
	Expr	   *e = make_expr(any ? EXPR_OR : EXPR_AND, BOOLOID, location);

	e->nargs = n;
	e->args = palloc(sizeof(Expr *) * (size_t) n);
	for (int i = 0; i < n; i++)
	{
		e->args[i] = make_op(ps, opname ? opname : "=", l[i], rf[i], location);
		if (opname == NULL)
			e->args[i]->op = op;
	}
	/* an operator of the fields' types that is no comparison: PostgreSQL's refusal */
	if (opname && strcmp(opname, "=") != 0 && strcmp(opname, "<>") != 0)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("could not determine interpretation of row comparison operator %s", opname),
				errposition(char_position(ps, location)));
	return e;
}

/* transform_row_aexpr -- an operator whose left operand is a row: row_compare */
static Expr *
transform_row_aexpr(ParseState *ps, PgQuery__AExpr *a, const char *opname)
{
	PgQuery__RowExpr *row = a->lexpr->row_expr;
	Expr	  **l = transform_list(ps, row->args, row->n_args);
	int			n = (int) row->n_args;

	switch (a->kind)
	{
		case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
			return row_compare(ps, opname, OP_EQ, l, n, a->rexpr, a->location);
		case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
		case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT:
			return row_compare(ps, NULL, a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT
							   ? OP_DISTINCT : OP_NOT_DISTINCT, l, n, a->rexpr, a->location);
		case PG_QUERY__A__EXPR__KIND__AEXPR_IN:
			{
				PgQuery__List *list = a->rexpr->list;
				bool		in = strcmp(opname, "=") == 0;
				Expr	   *e = make_expr(in ? EXPR_OR : EXPR_AND, BOOLOID, a->location);

				e->nargs = (int) list->n_items;
				e->args = palloc(sizeof(Expr *) * list->n_items);
				for (size_t i = 0; i < list->n_items; i++)
					e->args[i] = row_compare(ps, opname, OP_EQ, l, n, list->items[i], a->location);
				return e;
			}
		default:
			not_supported(ps, "this row comparison", a->location);
			return NULL;
	}
}

static Expr *
transform_aexpr(ParseState *ps, PgQuery__AExpr *a)
{
	const char *opname = a->n_name ? string_value(a->name[a->n_name - 1]) : "";

	if (a->lexpr && a->lexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR)
		return transform_row_aexpr(ps, a, opname);

	Expr	   *l = a->lexpr ? transform_expr(ps, a->lexpr) : NULL;

	switch (a->kind)
	{
		case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
		case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
		case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE:
			return make_op(ps, opname, l, transform_expr(ps, a->rexpr), a->location);
		case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
		case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL:
			return make_scalar_array(ps, opname, l, transform_expr(ps, a->rexpr),
									 a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL, a->location);
		case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
		case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT:
			{
				Expr	   *e = make_op(ps, "=", l, transform_expr(ps, a->rexpr), a->location);

				e->op = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT ? OP_DISTINCT : OP_NOT_DISTINCT;
				return e;
			}
		case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF:
			{
				Expr	   *eq = make_op(ps, "=", l, transform_expr(ps, a->rexpr), a->location);
				Expr	   *e = make_expr(EXPR_NULLIF, eq->args[0]->type, a->location);

				e->nargs = 2;
				e->args = eq->args;
				return e;
			}
		case PG_QUERY__A__EXPR__KIND__AEXPR_IN:
		case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
		case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN:
			{
				/*
				 * x IN (a, b) = x = a OR x = b; x BETWEEN a AND b = x >= a AND x <= b. One
				 * AND or OR of all the terms, not a chain of pairs: an IN list of 100 000
				 * items must not make a tree 100 000 deep for the executor to recurse into.
				 */
				PgQuery__List *list = a->rexpr->list;
				bool		in = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_IN;
				bool		not_between = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN;
				ExprKind	join = in ? (strcmp(opname, "=") == 0 ? EXPR_OR : EXPR_AND)
					: (not_between ? EXPR_OR : EXPR_AND);
				static const char *const between_ops[2][2] = {{">=", "<="}, {"<", ">"}};

				if (list->n_items == 1)
					return make_op(ps, in ? opname : ">=", l, transform_expr(ps, list->items[0]), a->location);

				Expr	   *result = make_expr(join, BOOLOID, a->location);

				result->nargs = (int) list->n_items;
				result->args = palloc(sizeof(Expr *) * list->n_items);
				for (size_t i = 0; i < list->n_items; i++)
				{
					const char *cmp = in ? opname : between_ops[not_between][i > 0];

					result->args[i] = make_op(ps, cmp, l, transform_expr(ps, list->items[i]), a->location);
				}
				return result;
			}
		default:
			not_supported(ps, "this operator form", a->location);
			return NULL;
	}
}

static Expr *
transform_func(ParseState *ps, PgQuery__FuncCall *fc)
{
	const char *name = string_value(fc->funcname[fc->n_funcname - 1]);

	if (fc->over)
		return transform_window(ps, fc, name);

	Expr	   *agg = transform_aggregate(ps, fc, name);

	if (agg != NULL)
		return agg;
	if (fc->agg_star || fc->agg_distinct || fc->n_agg_order || fc->agg_filter)
		not_supported(ps, "aggregate functions", fc->location);
	Expr	  **args = transform_list(ps, fc->args, fc->n_args);
	Oid		   *argtypes = palloc0(sizeof(Oid) * (fc->n_args + 1));

	for (size_t i = 0; i < fc->n_args; i++)
		argtypes[i] = args[i]->type;
	/* pg_typeof(any): its argument's type, known now */
	if (strcmp(name, "pg_typeof") == 0 && fc->n_args == 1 &&
		(fc->n_funcname == 1 || strcmp(string_value(fc->funcname[0]), "pg_catalog") == 0))
	{
		ps->folded_aggregate |= contains_aggregate(args[0]);
		return make_const(typio_int(REGTYPEOID, args[0]->type), fc->location);
	}
	const FuncDesc *f = NULL;

	if (fc->n_funcname == 1 ||
		(fc->n_funcname == 2 && strcmp(string_value(fc->funcname[0]), "pg_catalog") == 0))
		f = LookupBuiltinFunction(name, (int) fc->n_args, argtypes);
	if (f == NULL)
	{
		RlBuf		sig;

		rlbuf_init_in(&sig, CurrentMemoryContext);
		for (size_t i = 0; i < fc->n_args; i++)
			rlbuf_printf(&sig, "%s%s", i ? ", " : "", typio_format_type(args[i]->type));
		char	   *sigtext = pstrdup(rlbuf_cstr(&sig));

		rlbuf_free(&sig);
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("function %s(%s) does not exist", name, sigtext),
				errhint("No function matches the given name and argument types. "
						"You might need to add explicit type casts."),
				errposition(char_position(ps, fc->location)));
	}
	Expr	   *e = make_expr(EXPR_FUNC, f->rettype, fc->location);

	e->func = f;
	e->nargs = (int) fc->n_args;
	e->args = args;
	for (int i = 0; i < e->nargs; i++)
	{
		if (f->nargs == FUNC_VARIADIC_ANY)
			e->args[i] = coerce_expr(ps, args[i], args[i]->type == UNKNOWNOID ? TEXTOID : args[i]->type, -1,
									 COERCE_IMPLICIT);
		else if (f->argtypes[i] != ANYARRAYOID)
			e->args[i] = coerce_expr(ps, args[i], f->argtypes[i], -1, COERCE_IMPLICIT);
		else if (f->rettype == ANYELEMENTOID)
			e->type = typio_lookup(args[i]->type)->elem;	/* unnest(text[]) is text */
	}
	if (f->returns_set)
	{
		if (ps->srf != NULL && !ps->srf_lockstep)
			not_supported(ps, "more than one set-returning function", fc->location);
		if (ps->srf == NULL)
			ps->srf = e;
		else
		{
			ps->more_srfs = ps->more_srfs
				? repalloc(ps->more_srfs, sizeof(Expr *) * (size_t) (ps->nmore_srfs + 1))
				: palloc(sizeof(Expr *));
			ps->more_srfs[ps->nmore_srfs++] = e;
		}
	}
	return e;
}

/* transform_sqlvalue -- CURRENT_USER, CURRENT_TIMESTAMP, ... as builtin calls */
static Expr *
transform_sqlvalue(ParseState *ps, PgQuery__SQLValueFunction *svf)
{
	static const struct
	{
		PgQuery__SQLValueFunctionOp op;
		const char *func;
	}			map[] = {
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE, "current_date"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME, "localtime"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME_N, "localtime"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP, "now"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N, "now"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME, "localtime"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N, "localtime"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP, "localtimestamp"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N, "localtimestamp"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE, "current_user"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER, "current_user"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER, "current_user"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER, "current_user"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_CATALOG, "current_database"},
		{PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_SCHEMA, "current_schema"},
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].op == svf->op)
		{
			const FuncDesc *f = LookupBuiltinFunction(map[i].func, 0, NULL);
			Expr	   *e = make_expr(EXPR_FUNC, f->rettype, svf->location);

			e->func = f;
			return e;
		}
	not_supported(ps, "this SQL value function", svf->location);
	return NULL;
}

static Expr *
transform_case(ParseState *ps, PgQuery__CaseExpr *c)
{
	Expr	   *arg = c->arg ? transform_expr(ps, c->arg) : NULL;
	Expr	   *e = make_expr(EXPR_CASE, UNKNOWNOID, c->location);
	int			n = (int) c->n_args;
	Expr	  **results = palloc(sizeof(Expr *) * ((size_t) n + 1));

	e->nargs = n * 2;
	e->args = palloc(sizeof(Expr *) * (size_t) e->nargs);
	for (int i = 0; i < n; i++)
	{
		PgQuery__CaseWhen *w = c->args[i]->case_when;
		Expr	   *cond = transform_expr(ps, w->expr);

		if (arg != NULL)
			cond = make_op(ps, "=", arg, cond, w->location);
		e->args[2 * i] = coerce_or_fail(ps, cond, BOOLOID, "CASE/WHEN");
		results[i] = transform_expr(ps, w->result);
	}
	results[n] = c->defresult ? transform_expr(ps, c->defresult)
		: make_const(typio_null(UNKNOWNOID), c->location);
	e->type = select_common_type(ps, results, n + 1, "CASE");
	coerce_all(ps, results, n + 1, e->type, "CASE");
	for (int i = 0; i < n; i++)
		e->args[2 * i + 1] = results[i];
	e->defresult = results[n];
	return e;
}

/* transform_list_expr -- COALESCE / GREATEST / LEAST: a list of one common type */
static Expr *
transform_list_expr(ParseState *ps, ExprKind kind, Node **nodes, size_t n,
					const char *context, int location)
{
	Expr	   *e = make_expr(kind, UNKNOWNOID, location);

	e->nargs = (int) n;
	e->args = transform_list(ps, nodes, n);
	e->type = select_common_type(ps, e->args, e->nargs, context);
	coerce_all(ps, e->args, e->nargs, e->type, context);
	return e;
}

static Expr *
transform_param(ParseState *ps, PgQuery__ParamRef *p)
{
	int			n = p->number;

	if (n < 1 || n > 65535 || !ps->params_allowed)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_PARAMETER),
				errmsg("there is no parameter $%d", n),
				errposition(char_position(ps, p->location)));
	if (n > ps->nparams)
	{
		Oid		   *types = palloc0(sizeof(Oid) * (size_t) n);
		Expr	  **seen = palloc0(sizeof(Expr *) * (size_t) n);

		memcpy(types, ps->paramtypes, sizeof(Oid) * (size_t) ps->nparams);
		memcpy(seen, ps->params_seen, sizeof(Expr *) * (size_t) ps->nparams);
		ps->paramtypes = types;
		ps->params_seen = seen;
		ps->nparams = n;
	}
	if (ps->paramtypes[n - 1] == InvalidOid)
		ps->paramtypes[n - 1] = UNKNOWNOID;
	/* every use of $n shares one node, so the first context's type holds for all */
	if (ps->params_seen[n - 1] == NULL)
	{
		Expr	   *e = make_expr(EXPR_PARAM, ps->paramtypes[n - 1], p->location);

		e->paramno = n - 1;
		ps->params_seen[n - 1] = e;
	}
	return ps->params_seen[n - 1];
}

/* transform_indirection -- array[i]: one subscript, no slices, no field selection */
static Expr *
transform_indirection(ParseState *ps, PgQuery__AIndirection *ind)
{
	Expr	   *array = transform_expr(ps, ind->arg);
	Node	   *sub = ind->n_indirection == 1 ? ind->indirection[0] : NULL;

	if (sub == NULL || sub->node_case != PG_QUERY__NODE__NODE_A_INDICES || sub->a_indices->is_slice)
		not_supported(ps, "this indirection (slices, fields)", -1);
	if (!is_array(array->type))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("cannot subscript type %s because it does not support subscripting",
					   typio_format_type(array->type)),
				errposition(char_position(ps, array->location)));
	Expr	   *e = make_expr(EXPR_SUBSCRIPT, typio_lookup(array->type)->elem, array->location);

	e->nargs = 2;
	e->args = palloc(sizeof(Expr *) * 2);
	e->args[0] = array;
	e->args[1] = coerce_or_fail(ps, transform_expr(ps, sub->a_indices->uidx), INT4OID, "array subscript");
	return e;
}

static Expr *
transform_expr(ParseState *ps, Node *node)
{
	switch (node->node_case)
	{
		case PG_QUERY__NODE__NODE_A_CONST:
			return transform_const(ps, node->a_const);
		case PG_QUERY__NODE__NODE_TYPE_CAST:
			return transform_cast(ps, node->type_cast);
		case PG_QUERY__NODE__NODE_A_EXPR:
			return transform_aexpr(ps, node->a_expr);
		case PG_QUERY__NODE__NODE_BOOL_EXPR:
			{
				PgQuery__BoolExpr *b = node->bool_expr;
				ExprKind	kind = b->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR ? EXPR_AND
					: b->boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR ? EXPR_OR : EXPR_NOT;
				const char *context = kind == EXPR_AND ? "AND" : kind == EXPR_OR ? "OR" : "NOT";
				Expr	   *e = make_expr(kind, BOOLOID, b->location);

				e->nargs = (int) b->n_args;
				e->args = transform_list(ps, b->args, b->n_args);
				coerce_all(ps, e->args, e->nargs, BOOLOID, context);
				return e;
			}
		case PG_QUERY__NODE__NODE_NULL_TEST:
			{
				PgQuery__NullTest *t = node->null_test;
				Expr	   *arg = transform_expr(ps, t->arg);

				if (arg->type == UNKNOWNOID)
					arg = coerce_expr(ps, arg, TEXTOID, -1, COERCE_IMPLICIT);
				return make_bool_expr(t->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NULL
									  ? EXPR_IS_NULL : EXPR_IS_NOT_NULL, arg, NULL, t->location);
			}
		case PG_QUERY__NODE__NODE_BOOLEAN_TEST:
			{
				PgQuery__BooleanTest *t = node->boolean_test;
				Expr	   *arg = coerce_or_fail(ps, transform_expr(ps, t->arg), BOOLOID, "IS TRUE");
				Expr	   *e = make_bool_expr(EXPR_BOOLTEST, arg, NULL, t->location);

				e->booltest = t->booltesttype;
				return e;
			}
		case PG_QUERY__NODE__NODE_CASE_EXPR:
			return transform_case(ps, node->case_expr);
		case PG_QUERY__NODE__NODE_COALESCE_EXPR:
			return transform_list_expr(ps, EXPR_COALESCE, node->coalesce_expr->args,
									   node->coalesce_expr->n_args, "COALESCE",
									   node->coalesce_expr->location);
		case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
			{
				PgQuery__MinMaxExpr *m = node->min_max_expr;
				bool		greatest = m->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST;

				return transform_list_expr(ps, greatest ? EXPR_GREATEST : EXPR_LEAST, m->args,
										   m->n_args, greatest ? "GREATEST" : "LEAST", m->location);
			}
		case PG_QUERY__NODE__NODE_FUNC_CALL:
			return transform_func(ps, node->func_call);
		case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
			return transform_sqlvalue(ps, node->sqlvalue_function);
		case PG_QUERY__NODE__NODE_PARAM_REF:
			return transform_param(ps, node->param_ref);
		case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
			return transform_expr(ps, node->collate_clause->arg);	/* C collation only */
		case PG_QUERY__NODE__NODE_COLUMN_REF:
			return transform_column_ref(ps, node->column_ref);
		case PG_QUERY__NODE__NODE_SUB_LINK:
			return transform_sublink(ps, node->sub_link);
		case PG_QUERY__NODE__NODE_A_INDIRECTION:
			return transform_indirection(ps, node->a_indirection);
		case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
			return transform_array(ps, node->a_array_expr, InvalidOid);
		case PG_QUERY__NODE__NODE_SET_TO_DEFAULT:
			/* the grammar takes DEFAULT as any expression; only VALUES and SET mean it */
			ereport(ERROR,
					errcode(ERRCODE_SYNTAX_ERROR),
					errmsg("DEFAULT is not allowed in this context"),
					errposition(char_position(ps, node->set_to_default->location)));
			return NULL;
		default:
			not_supported(ps, node_name(node), -1);
			return NULL;
	}
}

/*
 * figure_colname_strength -- PostgreSQL's FigureColnameInternal: the name a
 * result column gets, and how strongly (2 a real name, 1 a cast's type or
 * "case", which an outer name overrides, 0 none: "?column?")
 */
static const char *
figure_colname_strength(Node *node, int *strength)
{
	*strength = 2;
	switch (node->node_case)
	{
		case PG_QUERY__NODE__NODE_COLUMN_REF:
			return string_value(node->column_ref->fields[node->column_ref->n_fields - 1]);
		case PG_QUERY__NODE__NODE_FUNC_CALL:
			return string_value(node->func_call->funcname[node->func_call->n_funcname - 1]);
		case PG_QUERY__NODE__NODE_TYPE_CAST:
			{
				const char *inner = figure_colname_strength(node->type_cast->arg, strength);
				PgQuery__TypeName *tn = node->type_cast->type_name;

				if (*strength > 1)
					return inner;
				*strength = 1;
				return string_value(tn->names[tn->n_names - 1]);
			}
		case PG_QUERY__NODE__NODE_CASE_EXPR:
			{
				const char *result = node->case_expr->defresult
					? figure_colname_strength(node->case_expr->defresult, strength) : NULL;

				if (result && *strength > 1)
					return result;
				*strength = 1;
				return "case";
			}
		case PG_QUERY__NODE__NODE_COALESCE_EXPR:
			return "coalesce";
		case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
			return "array";
		case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
			return node->min_max_expr->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST ? "greatest" : "least";
		case PG_QUERY__NODE__NODE_A_EXPR:
			if (node->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF)
				return "nullif";
			break;
		case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
			return figure_colname_strength(node->collate_clause->arg, strength);
		case PG_QUERY__NODE__NODE_SUB_LINK:
			if (node->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK)
				return "array";
			if (node->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK)
				return "exists";
			if (node->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK &&
				node->sub_link->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT)
			{
				/* (SELECT ...): the name of its first result column */
				PgQuery__SelectStmt *sel = node->sub_link->subselect->select_stmt;

				while (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE && sel->larg)
					sel = sel->larg;
				if (sel->n_target_list && sel->target_list[0]->node_case == PG_QUERY__NODE__NODE_RES_TARGET)
				{
					PgQuery__ResTarget *rt = sel->target_list[0]->res_target;

					return is_set(rt->name) ? rt->name : figure_colname_strength(rt->val, &(int) {0});
				}
			}
			break;
		case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
			{
				static const char *const names[] = {
					"?column?", "current_date", "current_time", "current_time",
					"current_timestamp", "current_timestamp", "localtime", "localtime",
					"localtimestamp", "localtimestamp", "current_role", "current_user",
					"user", "session_user", "current_catalog", "current_schema"};
				int			op = node->sqlvalue_function->op;

				if (op > 0 && op < (int) (sizeof(names) / sizeof(names[0])))
					return names[op];
				break;
			}
		default:
			break;
	}
	*strength = 0;
	return "?column?";
}

/* figure_colname -- PostgreSQL's FigureColname: the name a result column gets */
static const char *
figure_colname(Node *node)
{
	int			strength;

	return figure_colname_strength(node, &strength);
}

/* finish_params -- every parameter must have a type by now (unknown: text) */
static void
finish_params(ParseState *ps, AnalyzedStmt *stmt)
{
	for (int i = 0; i < ps->nparams; i++)
	{
		if (ps->paramtypes[i] == UNKNOWNOID && ps->params_seen[i] != NULL)
			coerce_expr(ps, ps->params_seen[i], TEXTOID, -1, COERCE_IMPLICIT);
		else if (ps->paramtypes[i] == UNKNOWNOID || ps->paramtypes[i] == InvalidOid)
			ereport(ERROR,
					errcode(ERRCODE_INDETERMINATE_DATATYPE),
					errmsg("could not determine data type of parameter $%d", i + 1));
	}
	stmt->nparams = ps->nparams;
	stmt->paramtypes = ps->paramtypes;
}

/*
 * transform_no_aggregates -- an expression of a clause that may hold no aggregate
 * (WHERE, JOIN ... ON, LIMIT, VALUES, UPDATE's SET), refused as PostgreSQL does: SQLite,
 * which would only call it a misuse, never sees one there
 */
static Expr *
transform_no_aggregates(ParseState *ps, Node *node, const char *clause)
{
	const char *saved = ps->agg_refused;

	ps->agg_refused = clause;
	Expr	   *e = transform_expr(ps, node);

	ps->agg_refused = saved;
	return e;
}

/* transform_clause -- such a clause's expression, of the type context asks for */
static Expr *
transform_clause(ParseState *ps, Node *node, Oid type, const char *context, const char *clause)
{
	return coerce_or_fail(ps, transform_no_aggregates(ps, node, clause), type, context);
}

/* transform_values_row -- the items of one VALUES list */
static Expr **
transform_values_row(ParseState *ps, PgQuery__List *row)
{
	Expr	  **out = palloc(sizeof(Expr *) * (row->n_items ? row->n_items : 1));

	for (size_t i = 0; i < row->n_items; i++)
		out[i] = transform_no_aggregates(ps, row->items[i], "VALUES");
	return out;
}

static Expr *
transform_limit(ParseState *ps, Node *node, const char *clause)
{
	if (node == NULL)
		return NULL;
	return transform_clause(ps, node, INT8OID, clause, clause);
}

static void
analyze_values(ParseState *ps, PgQuery__SelectStmt *sel, AnalyzedStmt *stmt, Plan *plan)
{
	int			nrows = (int) sel->n_values_lists;
	int			ncols = (int) sel->values_lists[0]->list->n_items;

	plan->nvalues_rows = nrows;
	plan->values_rows = palloc(sizeof(Expr **) * (size_t) nrows);
	for (int r = 0; r < nrows; r++)
	{
		PgQuery__List *row = sel->values_lists[r]->list;

		if ((int) row->n_items != ncols)
			ereport(ERROR,
					errcode(ERRCODE_SYNTAX_ERROR),
					errmsg("VALUES lists must all be the same length"));
		plan->values_rows[r] = transform_values_row(ps, row);
	}
	stmt->ncolumns = ncols;
	stmt->columns = palloc0(sizeof(ResultColumn) * (size_t) ncols);
	Expr	  **column = palloc(sizeof(Expr *) * (size_t) nrows);

	for (int c = 0; c < ncols; c++)
	{
		for (int r = 0; r < nrows; r++)
			column[r] = plan->values_rows[r][c];
		Oid			type = select_common_type(ps, column, nrows, "VALUES");

		for (int r = 0; r < nrows; r++)
			plan->values_rows[r][c] = coerce_or_fail(ps, plan->values_rows[r][c], type, "VALUES");
		stmt->columns[c].name = psprintf("column%d", c + 1);
		stmt->columns[c].type = type;
		stmt->columns[c].typmod = -1;
	}
}

/* ---------- relations: SQL for the catalog cache ---------- */

/*
 * A statement that reads or writes relations is generated as SQLite SQL while
 * it is analysed: expressions are typed as above, then written out by
 * deparse(), constants and parameters as bound values (?n) and whatever SQLite
 * cannot compute as PostgreSQL does through rl_eval(?n, args...) (cache.c).
 */

typedef struct RangeItem
{
	const char *alias;			/* what column references qualify with */
	const char *sql_alias;		/* what the SQL qualifies with, if not alias (two tables
								 * of one name in two schemas) */
	const char *relation;		/* a table: its cache name, or a system catalog's name */
	Oid			nsp;			/* ... and its schema */
	bool		aliased;		/* named by an alias of its own */
	int			ncolumns;
	ResultColumn *columns;
	bool		is_table;		/* has ctid (its _rl_rowid) */
	bool		catalog;		/* a system catalog: a query, whose rows have no ctid */
	bool		bare;			/* columns unqualified (SQLite's RETURNING) */
	bool	   *merged_away;	/* per column: a USING join's merged column stands for it
								 * in unqualified references and * (NULL: none) */
	Expr	  **computed;		/* per column: its expression (a USING join's merged
								 * columns), or NULL */
	const char **column_sql;	/* each column's SQLite expression; NULL: "alias"."column" */
	const char *main_table;		/* a table of the catalog (not temporary, not a system
								 * catalog): its name */
	int			npkey;			/* a table: its primary key's columns */
	const int  *pkey;
} RangeItem;

typedef struct Scope
{
	int			nitems;
	RangeItem **items;
	struct Scope *parent;
	int			level;			/* parent's + 1: tells a subquery's outer references */
} Scope;

typedef struct CteItem
{
	const char *name;
	int			ncolumns;
	ResultColumn *columns;
	struct CteItem *next;
} CteItem;

/* The analysed query: its SQLite text and its result columns. */
typedef struct Query
{
	char	   *sql;
	int			ncolumns;
	ResultColumn *columns;
	const RangeItem *scan;		/* a plain scan of this item (AnalyzedStmt's scan_table) ... */
	bool		scan_filtered;	/* ... with a WHERE ... */
	const char *scan_where;		/* ... this one, in parentheses */
	const char *heap_order;		/* to insert at heap_order_at in a statement's own query */
	size_t		heap_order_at;	/* (heap_order_of) */
} Query;

static void analyze_subquery(ParseState *ps, PgQuery__SelectStmt *sel, Query *q);
static void analyze_query(ParseState *ps, PgQuery__SelectStmt *sel, const ResultColumn *targets,
						  Query *q);

/* the most terms SQLite takes in one compound SELECT (its SQLITE_MAX_COMPOUND_SELECT, 500) */
#define SQLITE_COMPOUND_TERMS 500

/*
 * put_quoted -- name in the cache's form (catalog_cache.h, "Names"), in double quotes
 * (each one inside doubled), at out; returns the end
 */
static char *
put_quoted(char *out, const char *name)
{
	*out++ = '"';
	for (const char *p = name; *p; p++)
	{
		if (*p == '"')
			*out++ = '"';
		else if (cache_name_escaped(*p))
			*out++ = '^';
		*out++ = *p;
	}
	*out++ = '"';
	return out;
}

/* quoted_len -- the length of what put_quoted writes */
static size_t
quoted_len(const char *name)
{
	size_t		len = 2;

	for (const char *p = name; *p; p++)
		len += *p == '"' || cache_name_escaped(*p) ? 2 : 1;
	return len;
}

/*
 * quote_qualified -- a SQLite identifier in double quotes, after the qualifier (if
 * not NULL) quoted and a dot. Written out by hand: the analyser quotes every column
 * it names, and sqlite3_mprintf's "%w" was a tenth of the analysis of a DuckLake
 * commit.
 */
static char *
quote_qualified(const char *qualifier, const char *name)
{
	char	   *q = palloc((qualifier ? quoted_len(qualifier) + 1 : 0) + quoted_len(name) + 1),
			   *end = q;

	if (qualifier)
	{
		end = put_quoted(end, qualifier);
		*end++ = '.';
	}
	*put_quoted(end, name) = '\0';
	return q;
}

static char *
quote_ident(const char *name)
{
	return quote_qualified(NULL, name);
}

/* append_ident -- quote_ident's text, after sep (if not NULL), appended to sql */
static void
append_ident(RlBuf *sql, const char *sep, const char *name)
{
	if (sep)
		rlbuf_append_str(sql, sep);
	rlbuf_reserve(sql, quoted_len(name));
	sql->len = (size_t) (put_quoted((char *) sql->data + sql->len, name) - (char *) sql->data);
}

/* append_aliased -- "source AS alias" appended to sql */
static void
append_aliased(RlBuf *sql, const char *source, const char *alias)
{
	rlbuf_append_str(sql, source);
	append_ident(sql, " AS ", alias);
}

static int
add_bind(ParseState *ps, Expr *e)
{
	ps->binds = repalloc(ps->binds, sizeof(Expr *) * (size_t) (ps->nbinds + 1));
	ps->binds[ps->nbinds++] = e;
	return ps->nbinds;
}

/*
 * native_compare -- whether SQLite compares the canonical forms of type as PostgreSQL
 * does (numeric's texts under the rl_numeric collation: deparse_collated)
 */
static bool
native_compare(Oid type)
{
	return type != INTERVALOID && type != JSONOID && type != JSONBOID &&
		type != BPCHAROID;
}

/* same_canonical_form -- a cast SQLite need not do (varchar to text, int4 to int8, ...) */
static bool
same_canonical_form(Oid from, Oid to, int32_t typmod)
{
	if (typmod >= 0)
		return false;
	/* character(n) to text drops its trailing spaces */
	if (is_string(from) && is_string(to))
		return from != BPCHAROID && (to == TEXTOID || to == VARCHAROID);
	if (typio_is_oid(from) && typio_is_oid(to))
		return true;
	return (from == INT2OID || from == INT4OID) && (to == INT4OID || to == INT8OID) &&
		numeric_rank(from) <= numeric_rank(to);
}

static void deparse(ParseState *ps, RlBuf *out, Expr *e);
static void deparse_window(ParseState *ps, RlBuf *out, const WindowSpec *w);

/*
 * deparse_collated -- e, and for a numeric its collation: SQLite compares, sorts,
 * groups and takes min() and max() of the canonical texts by value only under it,
 * which a column declares but an expression has to say
 */
static void
deparse_collated(ParseState *ps, RlBuf *out, Expr *e)
{
	deparse(ps, out, e);
	if (e->type == NUMERICOID)
		rlbuf_append_str(out, " COLLATE " NUMERIC_COLLATION);
}

static void
deparse_list(ParseState *ps, RlBuf *out, Expr **args, int n, const char *sep)
{
	for (int i = 0; i < n; i++)
	{
		if (i > 0)
			rlbuf_append_str(out, sep);
		deparse(ps, out, args[i]);
	}
}

/*
 * deparse_in_list -- x = a OR x = b ... as "x IN (a, b ...)", and x <> a AND x <> b ...
 * as "x NOT IN (...)", when every term compares the same x natively: SQLite parses an OR
 * of n terms into a tree n deep and refuses one deeper than 1000, and IN lists and OR
 * chains of thousands of items are what DuckLake and ORMs send. Both forms have SQL's
 * three-valued logic, so the result is the same, NULLs included.
 */
/* same_column -- whether a and b are one column, or one cast of one column */
static bool
same_column(const Expr *a, const Expr *b)
{
	if (a == b)
		return true;
	if (a->kind != b->kind || a->type != b->type || a->typmod != b->typmod)
		return false;
	if (a->kind == EXPR_VAR)
		return strcmp(a->sql, b->sql) == 0;
	return a->kind == EXPR_CAST && same_column(a->args[0], b->args[0]);
}

static bool
deparse_in_list(ParseState *ps, RlBuf *out, Expr *e)
{
	ExprOp		op = e->kind == EXPR_OR ? OP_EQ : OP_NE;
	Expr	   *x = e->args[0]->kind == EXPR_OP ? e->args[0]->args[0] : NULL;

	if (e->nargs < 3 || x == NULL || !native_compare(x->type))
		return false;
	for (int i = 0; i < e->nargs; i++)
	{
		Expr	   *t = e->args[i];

		if (t->kind != EXPR_OP || t->op != op || !same_column(t->args[0], x))
			return false;
	}
	rlbuf_append_str(out, "(");
	deparse_collated(ps, out, x);
	rlbuf_append_str(out, op == OP_EQ ? " IN (" : " NOT IN (");
	for (int i = 0; i < e->nargs; i++)
	{
		if (i > 0)
			rlbuf_append_str(out, ", ");
		deparse(ps, out, e->args[i]->args[1]);
	}
	rlbuf_append_str(out, "))");
	return true;
}

/*
 * deparse_bool_chain -- args joined by sep (" AND " or " OR ") in parentheses: up to
 * BOOL_CHAIN_FLAT of them as they are, more as two halves, each such a chain. SQLite
 * parses a AND b AND c ... into a tree as deep as the list is long and refuses one
 * deeper than 1000 (generated conditions and ORMs' filters are that long); halves keep
 * it as deep as the list's logarithm. AND and OR are associative in SQL's three-valued
 * logic, and the terms keep their order, so the value is the same.
 */
#define BOOL_CHAIN_FLAT 64

static void
deparse_bool_chain(ParseState *ps, RlBuf *out, Expr **args, int n, const char *sep)
{
	rlbuf_append_str(out, "(");
	if (n <= BOOL_CHAIN_FLAT)
		deparse_list(ps, out, args, n, sep);
	else
	{
		deparse_bool_chain(ps, out, args, n / 2, sep);
		rlbuf_append_str(out, sep);
		deparse_bool_chain(ps, out, args + n / 2, n - n / 2, sep);
	}
	rlbuf_append_str(out, ")");
}

/* deparse_catalog_lookup -- a function that reads the catalog, as a scalar subquery (FuncDesc) */
static void
deparse_catalog_lookup(ParseState *ps, RlBuf *out, Expr *e)
{
	const FuncDesc *f = e->func;

	rlbuf_printf(out, "(SELECT %s FROM (%s) WHERE ", quote_ident(f->catalog_column),
				 CatalogFunctionRelation(f->catalog)->sql);
	for (int i = 0; i < 2 && f->catalog_keys[i] != NULL; i++)
	{
		rlbuf_printf(out, "%s%s = ", i ? " AND " : "", quote_ident(f->catalog_keys[i]));
		deparse(ps, out, e->args[i]);
	}
	rlbuf_append_str(out, ")");
}

/* the variables (?N) one SQLite statement binds at most; below every build's limit */
#define BINDS_MAX 30000

/* executor_evaluates -- whether e is computed by rl_eval, not written as SQLite's */
static bool
executor_evaluates(const Expr *e)
{
	switch (e->kind)
	{
		case EXPR_CONST:
		case EXPR_PARAM:
		case EXPR_VAR:
		case EXPR_AND:
		case EXPR_OR:
		case EXPR_NOT:
		case EXPR_IS_NULL:
		case EXPR_IS_NOT_NULL:
		case EXPR_BOOLTEST:
		case EXPR_CASE:
		case EXPR_COALESCE:
		case EXPR_AGG:
		case EXPR_SUBLINK:
		case EXPR_SRF_VALUE:
			return false;
		case EXPR_OP:
			return !(e->op >= OP_EQ && e->op <= OP_NOT_DISTINCT && native_compare(e->args[0]->type));
		case EXPR_CAST:
			return !same_canonical_form(e->args[0]->type, e->type, e->typmod);
		case EXPR_FUNC:
			return e->func->catalog == NULL;
		default:
			return true;
	}
}

/* The leaves of a tree for rl_eval (deparse_eval): their SQLite text, ", "-separated. */
typedef struct EvalLeaves
{
	ParseState *ps;
	bool		one_level;		/* every argument a leaf */
	int			nleaves;
	const char *vars[FLATTEN_SLOTS_MAX];	/* a column's reference, to read it once */
	RlBuf		sql;
} EvalLeaves;

/* eval_leaf -- a FlattenLeafFn: the slot of a, written as SQLite's, or FLATTEN_IN_TREE */
static int
eval_leaf(void *arg, Expr *a)
{
	EvalLeaves *leaves = arg;

	if (!leaves->one_level && (a->kind == EXPR_CONST || executor_evaluates(a)))
		return FLATTEN_IN_TREE;
	for (int i = 0; a->kind == EXPR_VAR && i < leaves->nleaves && i < FLATTEN_SLOTS_MAX; i++)
		if (leaves->vars[i] && strcmp(leaves->vars[i], a->sql) == 0)
			return i;
	if (leaves->nleaves == FLATTEN_SLOTS_MAX && !leaves->one_level)
		return FLATTEN_FULL;
	if (leaves->nleaves < FLATTEN_SLOTS_MAX)
		leaves->vars[leaves->nleaves] = a->kind == EXPR_VAR ? a->sql : NULL;
	rlbuf_append_str(&leaves->sql, ", ");
	deparse(leaves->ps, &leaves->sql, a);
	return leaves->nleaves++;
}

/*
 * deparse_eval -- e, which the executor evaluates, as rl_eval(?k, leaves...) of the
 * largest tree around it (exprflatten.h); once a tree of the statement has more
 * distinct leaves than SQLite passes a function, each of its operators is a call of
 * its own as before, its arguments computed by SQLite
 */
static void
deparse_eval(ParseState *ps, RlBuf *out, Expr *e)
{
	EvalLeaves	leaves = {.ps = ps, .one_level = ps->eval_unflattened};
	int			nbinds = ps->nbinds;
	Expr	   *tree;

	rlbuf_init_in(&leaves.sql, CurrentMemoryContext);
	tree = ExprFlatten(e, eval_leaf, &leaves);
	if (tree == NULL)
	{
		/* the leaves' constants written so far are bound no more */
		ps->nbinds = nbinds;
		ps->eval_unflattened = true;
		deparse_eval(ps, out, e);
		return;
	}
	rlbuf_printf(out, "rl_eval(?%d%s)", add_bind(ps, tree), rlbuf_cstr(&leaves.sql));
	rlbuf_free(&leaves.sql);
}

/* deparse -- e as a SQLite expression */
static void
deparse(ParseState *ps, RlBuf *out, Expr *e)
{
	static const char *const cmp[] = {"=", "<>", "<", "<=", ">", ">=", "IS NOT", "IS"};

	if (executor_evaluates(e))
	{
		deparse_eval(ps, out, e);
		return;
	}
	switch (e->kind)
	{
		case EXPR_CONST:
			/*
			 * past BINDS_MAX variables (SQLite's builds allow from 32 766 to 250 000 a
			 * statement, PostgreSQL has no limit: a DuckLake commit inlining thousands
			 * of rows of a wide table sends more), a constant is written into the SQL
			 */
			if (ps->nbinds >= BINDS_MAX && CacheSqlLiteral(out, &e->constval))
				return;
			/* FALLTHROUGH */
		case EXPR_PARAM:
			rlbuf_append_str(out, "?");
			rlbuf_append_int(out, add_bind(ps, e));
			return;
		case EXPR_VAR:
			rlbuf_append_str(out, e->sql);
			return;
		case EXPR_AND:
		case EXPR_OR:
			if (!deparse_in_list(ps, out, e))
				deparse_bool_chain(ps, out, e->args, e->nargs, e->kind == EXPR_AND ? " AND " : " OR ");
			return;
		case EXPR_NOT:
			rlbuf_append_str(out, "(NOT ");
			deparse(ps, out, e->args[0]);
			rlbuf_append_str(out, ")");
			return;
		case EXPR_IS_NULL:
		case EXPR_IS_NOT_NULL:
			rlbuf_append_str(out, "(");
			deparse(ps, out, e->args[0]);
			rlbuf_append_str(out, e->kind == EXPR_IS_NULL ? " IS NULL)" : " IS NOT NULL)");
			return;
		case EXPR_BOOLTEST:
			{
				static const char *const tests[] = {"", " IS 1", " IS NOT 1", " IS 0", " IS NOT 0",
				" IS NULL", " IS NOT NULL"};

				rlbuf_append_str(out, "(");
				deparse(ps, out, e->args[0]);
				rlbuf_printf(out, "%s)", tests[e->booltest >= 1 && e->booltest <= 6 ? e->booltest : 0]);
				return;
			}
		case EXPR_CASE:
			{
				/*
				 * a CASE in ELSE goes on with this one's WHENs, the same test in the same
				 * order: an IF ... ELSIF chain then nests no deeper in SQLite's parser,
				 * whose stack a few hundred nested CASEs overflow
				 */
				Expr	   *c = e;

				rlbuf_append_str(out, "CASE");
				for (; c->kind == EXPR_CASE; c = c->defresult)
					for (int i = 0; i < c->nargs; i += 2)
					{
						rlbuf_append_str(out, " WHEN ");
						deparse(ps, out, c->args[i]);
						rlbuf_append_str(out, " THEN ");
						deparse(ps, out, c->args[i + 1]);
					}
				rlbuf_append_str(out, " ELSE ");
				deparse(ps, out, c);
				rlbuf_append_str(out, " END");
				return;
			}
		case EXPR_COALESCE:
			rlbuf_append_str(out, e->nargs > 1 ? "coalesce(" : "(");
			deparse_list(ps, out, e->args, e->nargs, ", ");
			rlbuf_append_str(out, ")");
			return;
		case EXPR_AGG:
			rlbuf_printf(out, "%s(%s", e->sql, e->agg_distinct ? "DISTINCT " : "");
			if (e->agg_star)
				rlbuf_append_str(out, "*");
			else if (e->nargs == 1)
				deparse_collated(ps, out, e->args[0]);	/* min, max, DISTINCT */
			else
				deparse_list(ps, out, e->args, e->nargs, ", ");
			rlbuf_append_str(out, ")");
			if (e->defresult)
			{
				rlbuf_append_str(out, " FILTER (WHERE ");
				deparse(ps, out, e->defresult);
				rlbuf_append_str(out, ")");
			}
			if (e->window)
				deparse_window(ps, out, e->window);
			return;
		case EXPR_SUBLINK:
			if (e->sublink == SUBLINK_IN)
			{
				rlbuf_append_str(out, "(");
				deparse(ps, out, e->args[0]);
				rlbuf_append_str(out, " IN (");
				if (e->nargs == 2)
				{
					rlbuf_append_str(out, "SELECT ");
					deparse(ps, out, e->args[1]);
					rlbuf_printf(out, " FROM (%s)))", e->sql);
				}
				else
					rlbuf_printf(out, "%s))", e->sql);
			}
			else if (e->sublink == SUBLINK_EXISTS)
				rlbuf_printf(out, "EXISTS (%s)", e->sql);
			else if (e->sublink == SUBLINK_ARRAY)
			{
				rlbuf_append_str(out, "(SELECT rl_array_agg(");
				deparse(ps, out, e->args[0]);
				rlbuf_printf(out, ", %u) FROM (%s))", e->type, e->sql);
			}
			else
				rlbuf_printf(out, "(SELECT rl_scalar(\"_rl_c1\") FROM (%s))", e->sql);
			return;
		case EXPR_OP:			/* a native comparison (executor_evaluates) */
			rlbuf_append_str(out, "(");
			deparse(ps, out, e->args[0]);
			rlbuf_printf(out, " %s ", cmp[e->op - OP_EQ]);
			deparse_collated(ps, out, e->args[1]);
			rlbuf_append_str(out, ")");
			return;
		case EXPR_CAST:			/* to the same canonical form */
			deparse(ps, out, e->args[0]);
			return;
		case EXPR_FUNC:			/* one that reads the catalog */
			deparse_catalog_lookup(ps, out, e);
			return;
		case EXPR_SRF_VALUE:
			not_supported(ps, "set-returning functions in queries over tables", e->location);
			return;
		default:				/* the executor's (executor_evaluates) */
			return;
	}
}

static char *
deparse_to_string(ParseState *ps, Expr *e)
{
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	deparse(ps, &b, e);
	char	   *s = pstrdup(rlbuf_cstr(&b));

	rlbuf_free(&b);
	return s;
}

/* ---------- names ---------- */

static RangeItem *
make_range_item(const char *alias, int ncolumns, ResultColumn *columns, PgQuery__Alias *a)
{
	RangeItem  *item = palloc0(sizeof(RangeItem));

	item->alias = a && is_set(a->aliasname) ? a->aliasname : alias;
	item->ncolumns = ncolumns;
	item->columns = palloc(sizeof(ResultColumn) * (size_t) (ncolumns ? ncolumns : 1));
	memcpy(item->columns, columns, sizeof(ResultColumn) * (size_t) ncolumns);
	for (size_t i = 0; a && i < a->n_colnames && (int) i < ncolumns; i++)
		item->columns[i].name = string_value(a->colnames[i]);
	return item;
}

static void
scope_add(Scope *scope, RangeItem *item)
{
	scope->items = repalloc(scope->items, sizeof(RangeItem *) * (size_t) (scope->nitems + 1));
	scope->items[scope->nitems++] = item;
}

static Expr *
make_var(const RangeItem *item, const char *column, Oid type, int32_t typmod, int location)
{
	Expr	   *e = make_expr(EXPR_VAR, type, location);

	e->typmod = typmod;
	e->sql = quote_qualified(item->bare ? NULL : item->sql_alias ? item->sql_alias : item->alias, column);
	e->range = item;
	e->column = -1;
	return e;
}

/* visible_column -- whether column i answers to its bare name (not merged into a USING column) */
static bool
visible_column(const RangeItem *item, int i)
{
	return item->merged_away == NULL || !item->merged_away[i];
}

/* column_expr -- column i of item as an expression */
static Expr *
column_expr(const RangeItem *item, int i, int location)
{
	if (item->computed && item->computed[i])
	{
		Expr	   *e = palloc(sizeof(Expr));

		*e = *item->computed[i];
		e->location = location;
		return e;
	}

	Expr	   *e = make_var(item, item->columns[i].name, item->columns[i].type, item->columns[i].typmod,
							 location);

	e->column = i;
	if (item->column_sql)
		e->sql = item->column_sql[i];
	return e;
}

/*
 * item_column -- a column of item by name (ctid for tables, tableoid for system
 * catalogs), or NULL; qualified or bare
 */
static Expr *
item_column(ParseState *ps, const RangeItem *item, const char *name, bool bare, int location)
{
	for (int i = 0; i < item->ncolumns; i++)
		if (strcmp(item->columns[i].name, name) == 0 && (!bare || visible_column(item, i)))
			return column_expr(item, i, location);
	if (item->catalog && strcmp(name, "tableoid") == 0 && SystemCatalogOid(item->relation) != InvalidOid)
		return make_const(typio_int(OIDOID, SystemCatalogOid(item->relation)), location);
	if (item->is_table && strcmp(name, "ctid") == 0)
	{
		if (item->catalog)
			not_supported(ps, "ctid of system catalogs", location);
		return make_var(item, CACHE_ROWID_COLUMN, TIDOID, -1, location);
	}
	return NULL;
}

/* input_column -- whether a FROM item in scope has a column of that bare name */
static bool
input_column(ParseState *ps, const char *name)
{
	for (Scope *s = ps->scope; s != NULL; s = s->parent)
		for (int i = 0; i < s->nitems; i++)
			for (int c = 0; c < s->items[i]->ncolumns; c++)
				if (strcmp(s->items[i]->columns[c].name, name) == 0 && visible_column(s->items[i], c))
					return true;
	return false;
}

/*
 * find_item -- the range item a column reference qualifies with alias (and, if not
 * NULL, schema: a table of that schema); 42P09 if two of one scope answer to it
 */
static const RangeItem *
find_item(ParseState *ps, const char *schema, const char *alias, int location)
{
	Oid			nsp = schema ? NamespaceOid(schema) : InvalidOid;
	bool		other_schema = false;	/* an item of that name, of another schema */

	for (Scope *s = ps->scope; s != NULL; s = s->parent)
	{
		const RangeItem *found = NULL;

		for (int i = 0; i < s->nitems; i++)
		{
			if (strcmp(s->items[i]->alias, alias) != 0)
				continue;
			other_schema |= schema && s->items[i]->nsp != nsp;
			if (schema && s->items[i]->nsp != nsp)
				continue;
			if (found)
				ereport(ERROR,
						errcode(ERRCODE_AMBIGUOUS_ALIAS),
						errmsg("table reference \"%s\" is ambiguous", alias),
						errposition(char_position(ps, location)));
			found = s->items[i];
		}
		if (found)
		{
			if (s->level < ps->min_ref_level)
				ps->min_ref_level = s->level;
			return found;
		}
	}
	if (other_schema)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("invalid reference to FROM-clause entry for table \"%s\"", alias),
				errhint("There is an entry for table \"%s\", but it cannot be referenced from this part of the query.",
						alias),
				errposition(char_position(ps, location)));
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_TABLE),
			errmsg("missing FROM-clause entry for table \"%s\"", alias),
			errposition(char_position(ps, location)));
	return NULL;
}

static Expr *
transform_column_ref(ParseState *ps, PgQuery__ColumnRef *cr)
{
	Node	   *last = cr->fields[cr->n_fields - 1];
	const char *name = string_value(last);

	if (last->node_case == PG_QUERY__NODE__NODE_A_STAR)
		ereport(ERROR,
				errcode(ERRCODE_SYNTAX_ERROR),
				errmsg(ps->scope ? "row expressions with * are not supported"
					   : "SELECT * with no tables specified is not valid"),
				errposition(char_position(ps, cr->location)));
	if (cr->n_fields >= 2)
	{
		const char *alias = string_value(cr->fields[cr->n_fields - 2]);
		const char *schema = cr->n_fields >= 3 ? string_value(cr->fields[cr->n_fields - 3]) : NULL;
		Expr	   *e = item_column(ps, find_item(ps, schema, alias, cr->location), name, false, cr->location);

		if (e == NULL)
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_COLUMN),
					errmsg("column %s.%s does not exist", alias, name),
					errposition(char_position(ps, cr->location)));
		return e;
	}
	for (Scope *s = ps->scope; s != NULL; s = s->parent)
	{
		Expr	   *found = NULL;

		for (int i = 0; i < s->nitems; i++)
		{
			Expr	   *e = item_column(ps, s->items[i], name, true, cr->location);

			if (e != NULL && found != NULL)
				ereport(ERROR,
						errcode(ERRCODE_AMBIGUOUS_COLUMN),
						errmsg("column reference \"%s\" is ambiguous", name),
						errposition(char_position(ps, cr->location)));
			found = found ? found : e;
		}
		if (found)
		{
			if (s->level < ps->min_ref_level)
				ps->min_ref_level = s->level;
			return found;
		}
	}
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_COLUMN),
			errmsg("column \"%s\" does not exist", name),
			errposition(char_position(ps, cr->location)));
	return NULL;
}

/* ---------- window functions ---------- */

/* PostgreSQL's frameOptions bits (nodes/parsenodes.h) */
#define FRAMEOPTION_NONDEFAULT 0x00001
#define FRAMEOPTION_RANGE 0x00002
#define FRAMEOPTION_ROWS 0x00004
#define FRAMEOPTION_GROUPS 0x00008
#define FRAMEOPTION_BETWEEN 0x00010
#define FRAMEOPTION_START_UNBOUNDED_PRECEDING 0x00020
#define FRAMEOPTION_START_UNBOUNDED_FOLLOWING 0x00080
#define FRAMEOPTION_END_UNBOUNDED_FOLLOWING 0x00100
#define FRAMEOPTION_START_CURRENT_ROW 0x00200
#define FRAMEOPTION_END_CURRENT_ROW 0x00400
#define FRAMEOPTION_START_OFFSET_PRECEDING 0x00800
#define FRAMEOPTION_END_OFFSET_PRECEDING 0x01000
#define FRAMEOPTION_START_OFFSET_FOLLOWING 0x02000
#define FRAMEOPTION_END_OFFSET_FOLLOWING 0x04000
#define FRAMEOPTION_EXCLUDE_CURRENT_ROW 0x08000
#define FRAMEOPTION_EXCLUDE_GROUP 0x10000
#define FRAMEOPTION_EXCLUDE_TIES 0x20000

/* deparse_frame_bound -- one end of a frame; start: the first one's bits (else the end's, one bit up) */
static void
deparse_frame_bound(ParseState *ps, RlBuf *out, int options, bool start, Expr *offset)
{
	int			shift = start ? 0 : 1;

	if (options & (FRAMEOPTION_START_UNBOUNDED_PRECEDING << shift))
		rlbuf_append_str(out, "UNBOUNDED PRECEDING");
	else if (options & (FRAMEOPTION_START_UNBOUNDED_FOLLOWING << shift))
		rlbuf_append_str(out, "UNBOUNDED FOLLOWING");
	else if (options & (FRAMEOPTION_START_CURRENT_ROW << shift))
		rlbuf_append_str(out, "CURRENT ROW");
	else
	{
		deparse(ps, out, offset);
		rlbuf_append_str(out, options & (FRAMEOPTION_START_OFFSET_PRECEDING << shift) ? " PRECEDING" : " FOLLOWING");
	}
}

/*
 * deparse_window -- OVER (PARTITION BY ... ORDER BY ... frame) for SQLite, whose
 * default frame is PostgreSQL's (RANGE UNBOUNDED PRECEDING to the current row's last
 * peer); the sort keys spell PostgreSQL's NULLs order, which SQLite's default is not
 */
static void
deparse_window(ParseState *ps, RlBuf *out, const WindowSpec *w)
{
	int			o = w->frame_options;

	rlbuf_append_str(out, " OVER (");
	for (int i = 0; i < w->npartition; i++)
	{
		rlbuf_append_str(out, i ? ", " : "PARTITION BY ");
		deparse_collated(ps, out, w->partition[i]);
	}
	for (int i = 0; i < w->norder; i++)
	{
		rlbuf_append_str(out, i ? ", " : w->npartition ? " ORDER BY " : "ORDER BY ");
		deparse_collated(ps, out, w->order[i]);
		rlbuf_printf(out, " %s NULLS %s", w->order_flags[i] & AGG_ORDER_DESC ? "DESC" : "ASC",
					 w->order_flags[i] & AGG_ORDER_NULLS_FIRST ? "FIRST" : "LAST");
	}
	if (o & FRAMEOPTION_NONDEFAULT)
	{
		rlbuf_append_str(out, o & FRAMEOPTION_ROWS ? " ROWS " : o & FRAMEOPTION_GROUPS ? " GROUPS " : " RANGE ");
		if (o & FRAMEOPTION_BETWEEN)
			rlbuf_append_str(out, "BETWEEN ");
		deparse_frame_bound(ps, out, o, true, w->start_offset);
		if (o & FRAMEOPTION_BETWEEN)
		{
			rlbuf_append_str(out, " AND ");
			deparse_frame_bound(ps, out, o, false, w->end_offset);
		}
		if (o & FRAMEOPTION_EXCLUDE_CURRENT_ROW)
			rlbuf_append_str(out, " EXCLUDE CURRENT ROW");
		else if (o & FRAMEOPTION_EXCLUDE_GROUP)
			rlbuf_append_str(out, " EXCLUDE GROUP");
		else if (o & FRAMEOPTION_EXCLUDE_TIES)
			rlbuf_append_str(out, " EXCLUDE TIES");
	}
	rlbuf_append_str(out, ")");
}

/* window_def -- the window an OVER names or writes, one named in WINDOW completed by what OVER adds */
static PgQuery__WindowDef
window_def(ParseState *ps, PgQuery__WindowDef *over)
{
	const char *ref = is_set(over->refname) ? over->refname : is_set(over->name) ? over->name : NULL;
	PgQuery__WindowDef def = *over;

	if (ref == NULL)
		return def;
	for (size_t i = 0; ps->select && i < ps->select->n_window_clause; i++)
	{
		PgQuery__WindowDef *named = ps->select->window_clause[i]->window_def;

		if (strcmp(named->name, ref) != 0)
			continue;
		def = *named;
		if (over->n_order_clause)
		{
			def.n_order_clause = over->n_order_clause;
			def.order_clause = over->order_clause;
		}
		if (over->frame_options & FRAMEOPTION_NONDEFAULT)
		{
			def.frame_options = over->frame_options;
			def.start_offset = over->start_offset;
			def.end_offset = over->end_offset;
		}
		return def;
	}
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_OBJECT),
			errmsg("window \"%s\" does not exist", ref),
			errposition(char_position(ps, over->location)));
	return def;
}

/* window_expr -- an expression of OVER's clauses, whose aggregates are its query's */
static Expr *
window_expr(ParseState *ps, Node *node)
{
	Expr	   *e = transform_expr(ps, node);

	ps->folded_aggregate |= contains_aggregate(e);
	return e;
}

/*
 * transform_window -- f(...) OVER (...): the aggregates and PostgreSQL's window
 * functions SQLite 3.40 has, with PostgreSQL's result types
 */
static Expr *
transform_window(ParseState *ps, PgQuery__FuncCall *fc, const char *name)
{
	static const struct
	{
		const char *name;
		int			min_args,
					max_args;
		Oid			type;		/* InvalidOid: the first argument's */
	}			functions[] = {
		{"row_number", 0, 0, INT8OID}, {"rank", 0, 0, INT8OID}, {"dense_rank", 0, 0, INT8OID},
		{"percent_rank", 0, 0, FLOAT8OID}, {"cume_dist", 0, 0, FLOAT8OID}, {"ntile", 1, 1, INT4OID},
		{"lag", 1, 3, InvalidOid}, {"lead", 1, 3, InvalidOid}, {"first_value", 1, 1, InvalidOid},
		{"last_value", 1, 1, InvalidOid}, {"nth_value", 2, 2, InvalidOid},
	};
	PgQuery__FuncCall plain = *fc;
	Expr	   *e = NULL;

	if (ps->agg_refused)
		ereport(ERROR,
				errcode(ERRCODE_WINDOWING_ERROR),
				errmsg("window functions are not allowed in %s", ps->agg_refused),
				errposition(char_position(ps, fc->location)));
	if (ps->in_aggregate)
		ereport(ERROR,
				errcode(ERRCODE_GROUPING_ERROR),
				errmsg("aggregate function calls cannot contain window function calls"),
				errposition(char_position(ps, fc->location)));
	if (fc->agg_distinct)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("DISTINCT is not implemented for window functions"),
				errposition(char_position(ps, fc->location)));
	if (fc->n_agg_order)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("aggregate ORDER BY is not implemented for window functions"),
				errposition(char_position(ps, fc->location)));
	plain.over = NULL;
	e = transform_aggregate(ps, &plain, name);
	/* the cache's own aggregates have window forms (cache.c) */
	if (e != NULL && strncmp(e->sql, "rl_", 3) == 0)
		e->sql = psprintf("%s_window", e->sql);
	if (e == NULL)
	{
		size_t		f = 0;

		while (f < sizeof(functions) / sizeof(functions[0]) && strcmp(functions[f].name, name) != 0)
			f++;
		if (f == sizeof(functions) / sizeof(functions[0]) || fc->agg_star ||
			(int) fc->n_args < functions[f].min_args || (int) fc->n_args > functions[f].max_args ||
			(fc->n_funcname > 1 && strcmp(string_value(fc->funcname[0]), "pg_catalog") != 0))
			not_supported(ps, psprintf("%s as a window function", name), fc->location);
		e = make_expr(EXPR_AGG, functions[f].type, fc->location);
		e->sql = functions[f].name;
		e->nargs = (int) fc->n_args;
		e->args = transform_list(ps, fc->args, fc->n_args);
		if (fc->agg_filter)
			e->defresult = transform_clause(ps, fc->agg_filter, BOOLOID, "FILTER", "FILTER");
		if (e->nargs && e->args[0]->type == UNKNOWNOID)
			e->args[0] = coerce_expr(ps, e->args[0], TEXTOID, -1, COERCE_IMPLICIT);
		if (functions[f].type == InvalidOid)
			e->type = e->args[0]->type;
		for (int i = 1; i < e->nargs; i++)
			e->args[i] = i == 2 ? coerce_or_fail(ps, e->args[i], e->type, name)	/* lag/lead's default */
				: coerce_or_fail(ps, e->args[i], INT4OID, name);
		if (functions[f].type == INT4OID)
			e->args[0] = coerce_or_fail(ps, e->args[0], INT4OID, name);
	}

	PgQuery__WindowDef def = window_def(ps, fc->over);
	WindowSpec *w = palloc0(sizeof(WindowSpec));

	w->npartition = (int) def.n_partition_clause;
	w->partition = palloc(sizeof(Expr *) * (def.n_partition_clause + 1));
	for (size_t i = 0; i < def.n_partition_clause; i++)
		w->partition[i] = window_expr(ps, def.partition_clause[i]);
	w->norder = (int) def.n_order_clause;
	w->order = palloc(sizeof(Expr *) * (def.n_order_clause + 1));
	w->order_flags = palloc(sizeof(int) * (def.n_order_clause + 1));
	for (size_t i = 0; i < def.n_order_clause; i++)
	{
		PgQuery__SortBy *sb = def.order_clause[i]->sort_by;
		bool		desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
		bool		nulls_first = sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT ? desc
			: sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST;

		if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
			not_supported(ps, "ORDER BY USING", sb->location);
		w->order[i] = window_expr(ps, sb->node);
		w->order_flags[i] = (desc ? AGG_ORDER_DESC : 0) | (nulls_first ? AGG_ORDER_NULLS_FIRST : 0);
	}
	w->frame_options = def.frame_options;
	if (def.start_offset)
		w->start_offset = window_expr(ps, def.start_offset);
	if (def.end_offset)
		w->end_offset = window_expr(ps, def.end_offset);
	e->window = w;
	return e;
}

/*
 * aggregate_order -- an aggregate's ORDER BY as arguments of the cache's sorting
 * aggregates: each key, then its flags (descending, NULLs first: PostgreSQL's default
 * puts NULLs last ascending, first descending)
 */
static void
aggregate_order(ParseState *ps, PgQuery__FuncCall *fc, Expr *e)
{
	size_t		nkeys = fc->n_agg_order ? fc->n_agg_order : e->agg_distinct;

	e->args = repalloc(e->args, sizeof(Expr *) * (size_t) (e->nargs + 2 * (int) nkeys + 1));
	for (size_t i = 0; i < nkeys; i++)
	{
		PgQuery__SortBy *sb = fc->n_agg_order ? fc->agg_order[i]->sort_by : NULL;
		bool		desc = sb && sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
		bool		nulls_first = sb == NULL || sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT
			? desc : sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST;
		Expr	   *key = e->args[0];

		if (sb)
		{
			ps->in_aggregate = true;
			key = transform_expr(ps, sb->node);
			ps->in_aggregate = false;
		}
		/* DISTINCT sorts by the value and keeps one of equal ones: it must lead the order */
		if (e->agg_distinct && !expr_equal(key, e->args[0]))
			ereport(ERROR,
					errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
					errmsg("in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list"),
					errposition(char_position(ps, key->location)));
		e->args[e->nargs++] = key;
		e->args[e->nargs++] = make_const(typio_int(INT4OID, (desc ? AGG_ORDER_DESC : 0) |
												   (nulls_first ? AGG_ORDER_NULLS_FIRST : 0)), fc->location);
	}
	/* the cache's sorting aggregates keep one row of equal values themselves */
	if (e->agg_distinct)
		e->sql = psprintf("%s_distinct", e->sql);
	e->agg_distinct = false;
}

/* transform_aggregate -- count, sum, avg, min, max, bool_and/or, string_agg; NULL if name is none */
static Expr *
transform_aggregate(ParseState *ps, PgQuery__FuncCall *fc, const char *name)
{
	if (!is_aggregate(fc) || fc->over)
		return NULL;
	if (ps->in_aggregate)
		ereport(ERROR,
				errcode(ERRCODE_GROUPING_ERROR),
				errmsg("aggregate function calls cannot be nested"),
				errposition(char_position(ps, fc->location)));
	if (ps->agg_refused)
		ereport(ERROR,
				errcode(ERRCODE_GROUPING_ERROR),
				errmsg("aggregate functions are not allowed in %s", ps->agg_refused),
				errposition(char_position(ps, fc->location)));
	bool		array_agg = strcmp(name, "array_agg") == 0;

	for (size_t i = 0; i < fc->n_agg_order; i++)
		if (fc->agg_order[i]->sort_by->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
			not_supported(ps, "ORDER BY USING in aggregates", fc->location);

	Expr	   *e = make_expr(EXPR_AGG, INT8OID, fc->location);

	e->agg_star = fc->agg_star;
	e->agg_distinct = fc->agg_distinct;
	e->nargs = (int) fc->n_args;
	ps->in_aggregate = true;
	e->args = transform_list(ps, fc->args, fc->n_args);
	ps->in_aggregate = false;
	if (fc->agg_filter)
		e->defresult = transform_clause(ps, fc->agg_filter, BOOLOID, "FILTER", "FILTER");
	/* the order of the rows changes nothing but array_agg's and string_agg's results */
	if (!array_agg && strcmp(name, "string_agg") != 0)
		for (size_t i = 0; i < fc->n_agg_order; i++)
		{
			ps->in_aggregate = true;
			(void) transform_expr(ps, fc->agg_order[i]->sort_by->node);
			ps->in_aggregate = false;
		}
	e->sql = name;
	int			want = strcmp(name, "string_agg") == 0 ? 2 : strcmp(name, "count") == 0 && fc->agg_star ? 0 : 1;

	if (e->nargs != want)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("function %s with %d arguments does not exist", name, e->nargs),
				errposition(char_position(ps, fc->location)));
	for (int i = 0; i < e->nargs; i++)
		if (e->args[i]->type == UNKNOWNOID)
			e->args[i] = coerce_expr(ps, e->args[i], TEXTOID, -1, COERCE_IMPLICIT);
	Oid			t = e->nargs ? e->args[0]->type : InvalidOid;

	if (strcmp(name, "count") == 0)
		return e;
	if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0)
		e->type = t;
	else if (strcmp(name, "sum") == 0 || strcmp(name, "avg") == 0)
	{
		if (!is_numeric(t))
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_FUNCTION),
					errmsg("function %s(%s) does not exist", name, typio_format_type(t)),
					errposition(char_position(ps, fc->location)));
		e->type = t == FLOAT4OID || t == FLOAT8OID ? (name[0] == 's' ? t : FLOAT8OID)
			: name[0] == 's' && (t == INT2OID || t == INT4OID) ? INT8OID : NUMERICOID;
		/* PostgreSQL's float arithmetic: NaN, Infinity - Infinity, overflow (cache.c) */
		if (t == FLOAT4OID || t == FLOAT8OID)
			e->sql = name[0] == 'a' ? "rl_float_avg" : t == FLOAT4OID ? "rl_float4_sum" : "rl_float_sum";
		/* numeric results, exact, with PostgreSQL's scales (cache.c) */
		else if (e->type == NUMERICOID)
			e->sql = name[0] == 'a' ? "rl_numeric_avg" : "rl_numeric_sum";
	}
	else if (array_agg)
	{
		/* rl_array_agg(x, array type [, sort key, flags]...) (cache.c) */
		e->type = typio_array_type(t);
		if (e->type == InvalidOid)
			multidimensional(ps, fc->location);
		e->args = repalloc(e->args, sizeof(Expr *) * 2);
		e->args[e->nargs++] = make_const(typio_int(INT4OID, e->type), fc->location);
		e->sql = "rl_array_agg";
		aggregate_order(ps, fc, e);
	}
	else if (strcmp(name, "string_agg") == 0)
	{
		/* group_concat, or rl_string_agg(x, delimiter, sort key, flags...) sorting (cache.c) */
		e->args[0] = coerce_or_fail(ps, e->args[0], TEXTOID, "string_agg");
		e->args[1] = coerce_or_fail(ps, e->args[1], TEXTOID, "string_agg");
		e->sql = fc->n_agg_order || e->agg_distinct ? "rl_string_agg" : "group_concat";
		if (fc->n_agg_order || e->agg_distinct)
			aggregate_order(ps, fc, e);
		e->type = TEXTOID;
	}
	else
	{
		e->args[0] = coerce_or_fail(ps, e->args[0], BOOLOID, name);
		e->sql = strcmp(name, "bool_or") == 0 ? "max" : "min";
		e->type = BOOLOID;
	}
	return e;
}

/*
 * Subqueries nested in SQLite's text take SQLite's parser stack, which is fixed at 100
 * entries (YYSTACKDEPTH): a scalar subquery in a scalar subquery takes about ten, so
 * the SQL of a statement nesting them nine deep failed to compile. A subquery that
 * refers to nothing outside itself (no column of an outer query, no WITH query) is
 * therefore, once HOIST_NESTING subqueries are nested in its SQL, moved into a WITH
 * query of the statement, "_rl_hN", and read from there: WITH's list is flat, so the
 * text nests at most HOIST_NESTING deep whatever the statement's nesting. SQLite
 * inlines such a WITH query where it is read, so the plan is the one it made before.
 * What still limits the nesting is SQLite's expression depth (1000), which counts
 * through a scalar, EXISTS or IN subquery's WITH query too (about two per level), and
 * correlated subqueries, which stay in place. Statements nesting fewer subqueries
 * are made as before.
 */
#define HOIST_NESTING 3

/* hoistable -- whether the query analysed since min_ref_level and cte_ref were reset
 * refers to nothing outside itself (its scopes being deeper than outer_level) */
static bool
hoistable(ParseState *ps, int outer_level)
{
	return !ps->cte_ref && ps->min_ref_level > outer_level;
}

/* hoist -- sql as a WITH query of the statement; the query that reads it */
static char *
hoist(ParseState *ps, const char *sql)
{
	if (ps->hoisted.context == NULL)
		rlbuf_init_in(&ps->hoisted, CurrentMemoryContext);
	ps->nhoisted++;
	rlbuf_printf(&ps->hoisted, "%s\"_rl_h%d\" AS (%s)", ps->hoisted.len ? ", " : "", ps->nhoisted, sql);
	return psprintf("SELECT * FROM \"_rl_h%d\"", ps->nhoisted);
}

static void
analyze_subquery(ParseState *ps, PgQuery__SelectStmt *sel, Query *q)
{
	int			saved_level = ps->min_ref_level;
	bool		saved_cte_ref = ps->cte_ref;
	int			saved_nest = ps->sub_nest;
	int			outer_level = ps->scope ? ps->scope->level : 0;

	ps->min_ref_level = INT_MAX;
	ps->cte_ref = false;
	ps->sub_nest = 0;
	analyze_query(ps, sel, NULL, q);
	int			nest = ps->sub_nest + 1;

	if (nest > HOIST_NESTING && hoistable(ps, outer_level))
	{
		q->sql = hoist(ps, q->sql);
		nest = 1;
	}
	if (saved_level < ps->min_ref_level)
		ps->min_ref_level = saved_level;
	ps->cte_ref |= saved_cte_ref;
	ps->sub_nest = saved_nest > nest ? saved_nest : nest;
}

static Expr *
transform_sublink(ParseState *ps, PgQuery__SubLink *sl)
{
	Query		q;
	Expr	   *e = make_expr(EXPR_SUBLINK, BOOLOID, sl->location);

	if (sl->subselect->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		not_supported(ps, "this subquery", sl->location);
	analyze_subquery(ps, sl->subselect->select_stmt, &q);
	e->sql = q.sql;
	switch (sl->sub_link_type)
	{
		case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK:
			e->sublink = SUBLINK_EXISTS;
			return e;
		case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK:
			if (q.ncolumns != 1)
				ereport(ERROR,
						errcode(ERRCODE_SYNTAX_ERROR),
						errmsg("subquery must return only one column"),
						errposition(char_position(ps, sl->location)));
			e->sublink = SUBLINK_EXPR;
			e->type = q.columns[0].type;
			return e;
		case PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK:
			{
				if (q.ncolumns != 1)
					ereport(ERROR,
							errcode(ERRCODE_SYNTAX_ERROR),
							errmsg("subquery must return only one column"),
							errposition(char_position(ps, sl->location)));
				Expr	   *column = make_expr(EXPR_VAR, q.columns[0].type, sl->location);

				e->type = typio_array_type(column->type);
				if (e->type == InvalidOid)
					not_supported(ps, psprintf("arrays of type %s", typio_format_type(column->type)),
								  sl->location);
				/* the elements go to rl_array_agg() in their text form */
				column->sql = "\"_rl_c1\"";
				e->sublink = SUBLINK_ARRAY;
				e->nargs = 1;
				e->args = palloc(sizeof(Expr *));
				e->args[0] = coerce_expr(ps, column, TEXTOID, -1, COERCE_EXPLICIT);
				return e;
			}
		case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK:
			if (sl->n_oper_name == 0 || strcmp(string_value(sl->oper_name[0]), "=") == 0)
			{
				Expr	   *test = transform_expr(ps, sl->testexpr);

				if (q.ncolumns != 1)
					ereport(ERROR,
							errcode(ERRCODE_SYNTAX_ERROR),
							errmsg("subquery has too many columns"),
							errposition(char_position(ps, sl->location)));
				/*
				 * an integer compares with an integer of another width as it is; else
				 * the side that casts implicitly to the other's type is cast (numeric
				 * IN (SELECT int) compares numerics), the subquery's column by a
				 * SELECT around it
				 */
				Expr	   *column = make_expr(EXPR_VAR, q.columns[0].type, sl->location);

				column->sql = "\"_rl_c1\"";
				e->sublink = SUBLINK_IN;
				e->nargs = 1;
				e->args = palloc(sizeof(Expr *) * 2);
				if (!same_canonical_form(q.columns[0].type, test->type, -1))
				{
					Expr	   *cast = coerce_expr(ps, test, q.columns[0].type, -1, COERCE_IMPLICIT);

					if (cast == NULL && (column = coerce_expr(ps, column, test->type, -1, COERCE_IMPLICIT)) != NULL)
						e->args[e->nargs++] = column;
					else if (cast == NULL)
						no_operator(ps, "=", test, make_expr(EXPR_CONST, q.columns[0].type, -1), sl->location);
					else
						test = cast;
				}
				e->args[0] = test;
				return e;
			}
			/* fall through */
		default:
			not_supported(ps, "this kind of subquery", sl->location);
			return NULL;
	}
}

/* ---------- FROM ---------- */

/* quote_table -- a name in double quotes as it is: a table's cache name (namespace.h), a search_path entry */
static char *
quote_table(const char *table)
{
	char	   *sql = sqlite3_mprintf("\"%w\"", table);
	char	   *quoted = pstrdup(sql);

	sqlite3_free(sql);
	return quoted;
}

static const char *
relation_sql(const CacheRelation *rel)
{
	if (rel->sql)
		return psprintf("(%s)", rel->sql);
	return psprintf("%s.%s", rel->temp ? "temp" : "main", quote_table(rel->table));
}

/* check_writable -- 42501 for a system catalog, which only reads */
static void
check_writable(ParseState *ps, const CacheRelation *rel, int location)
{
	if (rel->sql)
		ereport(ERROR,
				errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("permission denied: \"%s\" is a system catalog", rel->name),
				errposition(char_position(ps, location)));
}

/* lookup_relation -- a table by RangeVar: 42P01 if there is none */
static CacheRelation *
lookup_relation(ParseState *ps, PgQuery__RangeVar *rv)
{
	const char *schema = is_set(rv->schemaname) ? rv->schemaname : NULL;
	CacheRelation *rel = CacheLookupRelation(schema, rv->relname);

	if (rel == NULL)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("relation \"%s%s%s\" does not exist", schema ? schema : "", schema ? "." : "",
					   rv->relname),
				errposition(char_position(ps, rv->location)));
	return rel;
}

static void transform_from_item(ParseState *ps, Node *node, Scope *scope, RlBuf *sql);

/*
 * check_refname -- a table item of FROM against those before it in scope: one of the
 * same name is 42712, as in PostgreSQL, unless both are tables without aliases and
 * different tables (of two schemas), which the SQL then tells apart by an alias of
 * the later one's own
 */
static void
check_refname(ParseState *ps, const Scope *scope, RangeItem *item, int location)
{
	for (int i = 0; i < scope->nitems; i++)
	{
		const RangeItem *other = scope->items[i];

		if (strcmp(other->alias, item->alias) != 0)
			continue;
		if (item->aliased || other->aliased || other->relation == NULL ||
			strcmp(other->relation, item->relation) == 0)
			ereport(ERROR,
					errcode(ERRCODE_DUPLICATE_ALIAS),
					errmsg("table name \"%s\" specified more than once", item->alias),
					errposition(char_position(ps, location)));
		item->sql_alias = psprintf("%s^%d", item->alias, scope->nitems);
	}
}

/*
 * using_column -- the column a USING join names, in the items [from, to) of one
 * side, where it must be found exactly once; it is merged away from then on
 */
static Expr *
using_column(ParseState *ps, Scope *scope, int from, int to, const char *name, const char *side)
{
	Expr	   *found = NULL;

	for (int k = from; k < to; k++)
	{
		RangeItem  *item = scope->items[k];

		for (int i = 0; i < item->ncolumns; i++)
		{
			if (strcmp(item->columns[i].name, name) != 0 || !visible_column(item, i))
				continue;
			if (found)
				ereport(ERROR,
						errcode(ERRCODE_DUPLICATE_COLUMN),
						errmsg("common column name \"%s\" appears more than once in %s table", name, side));
			found = column_expr(item, i, -1);
			if (item->merged_away == NULL)
				item->merged_away = palloc0(sizeof(bool) * (size_t) item->ncolumns);
			item->merged_away[i] = true;
		}
	}
	if (found == NULL)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_COLUMN),
				errmsg("column \"%s\" specified in USING clause does not exist in %s table", name, side));
	return found;
}

/*
 * join_using -- JOIN ... USING (columns): its ON condition, and a range item of
 * the merged columns (the left one, the right one for RIGHT JOIN, COALESCE of
 * both for FULL JOIN) placed before the joined items, where PostgreSQL lists them
 * for *. The merged item's alias is empty, which no quoted identifier can be.
 */
static Expr *
join_using(ParseState *ps, PgQuery__JoinExpr *j, Scope *scope, int first, int middle)
{
	int			n = (int) j->n_using_clause;
	int			right_end = scope->nitems;
	RangeItem  *merged = palloc0(sizeof(RangeItem));
	Expr	   *on = NULL;

	merged->alias = "";
	merged->ncolumns = n;
	merged->columns = palloc(sizeof(ResultColumn) * (size_t) n);
	merged->computed = palloc(sizeof(Expr *) * (size_t) n);
	for (int k = 0; k < n; k++)
	{
		const char *name = string_value(j->using_clause[k]);
		Expr	   *l = using_column(ps, scope, first, middle, name, "left");
		Expr	   *r = using_column(ps, scope, middle, right_end, name, "right");
		Expr	   *eq = make_op(ps, "=", l, r, -1);
		Expr	   *value = j->jointype == PG_QUERY__JOIN_TYPE__JOIN_RIGHT ? r : l;

		on = on ? make_bool_expr(EXPR_AND, on, eq, -1) : eq;
		if (j->jointype == PG_QUERY__JOIN_TYPE__JOIN_FULL)
		{
			value = make_expr(EXPR_COALESCE, UNKNOWNOID, -1);
			value->nargs = 2;
			value->args = palloc(sizeof(Expr *) * 2);
			value->args[0] = l;
			value->args[1] = r;
			value->type = select_common_type(ps, value->args, 2, "JOIN/USING");
			coerce_all(ps, value->args, 2, value->type, "JOIN/USING");
		}
		merged->columns[k] = (ResultColumn) {.name = name, .type = value->type, .typmod = value->typmod};
		merged->computed[k] = value;
	}
	scope_add(scope, merged);
	memmove(&scope->items[first + 1], &scope->items[first], sizeof(RangeItem *) * (size_t) (right_end - first));
	scope->items[first] = merged;
	return on;
}

/*
 * set_source -- the SQLite FROM item iterating a set-returning function call:
 * the function returns its whole set as an array, rl_array_json() turns that
 * into JSON in the elements' canonical SQLite forms, and json_each() yields
 * them (value, and key counting from 0).
 */
static char *
set_source(ParseState *ps, Expr *srf, const char *alias)
{
	return psprintf("json_each(rl_array_json(%s, %u)) AS %s", deparse_to_string(ps, srf), srf->type,
					quote_ident(alias));
}

/*
 * transform_range_function -- f(args) [WITH ORDINALITY] [AS alias(columns)] in
 * FROM; its arguments may refer to earlier FROM items, as PostgreSQL's implicit
 * LATERAL allows
 */
static void
transform_range_function(ParseState *ps, PgQuery__RangeFunction *rf, Scope *scope, RlBuf *sql)
{
	Node	   *call = rf->n_functions == 1 && rf->functions[0]->list->n_items > 0
		? rf->functions[0]->list->items[0] : NULL;

	if (rf->is_rowsfrom || rf->n_coldeflist || call == NULL ||
		call->node_case != PG_QUERY__NODE__NODE_FUNC_CALL)
		not_supported(ps, "ROWS FROM and column definition lists", -1);
	Scope	   *saved_scope = ps->scope;
	Expr	   *saved_srf = ps->srf;

	ps->scope = scope;
	ps->srf = NULL;
	Expr	   *f = transform_expr(ps, call);

	if (f != ps->srf)
		not_supported(ps, "functions in FROM that do not return a set", call->func_call->location);
	ps->scope = saved_scope;
	ps->srf = saved_srf;

	const char *name = rf->alias && is_set(rf->alias->aliasname) ? rf->alias->aliasname : f->func->name;
	ResultColumn columns[2] = {{name, f->type, -1}, {"ordinality", INT8OID, -1}};
	RangeItem  *item = make_range_item(name, rf->ordinality ? 2 : 1, columns, rf->alias);
	const char *q = quote_ident(item->alias);

	item->column_sql = palloc(sizeof(char *) * 2);
	item->column_sql[0] = psprintf("%s.value", q);
	item->column_sql[1] = psprintf("(%s.key + 1)", q);
	rlbuf_append_str(sql, set_source(ps, f, item->alias));
	scope_add(scope, item);
}

static void
transform_from_item(ParseState *ps, Node *node, Scope *scope, RlBuf *sql)
{
	switch (node->node_case)
	{
		case PG_QUERY__NODE__NODE_RANGE_VAR:
			{
				PgQuery__RangeVar *rv = node->range_var;

				if (!is_set(rv->schemaname))
					for (CteItem *c = ps->ctes; c != NULL; c = c->next)
						if (strcmp(c->name, rv->relname) == 0)
						{
							RangeItem  *item = make_range_item(rv->relname, c->ncolumns, c->columns, rv->alias);

							ps->cte_ref = true;
							append_aliased(sql, quote_ident(c->name), item->alias);
							scope_add(scope, item);
							return;
						}
				CacheRelation *rel = lookup_relation(ps, rv);
				RangeItem  *item = make_range_item(rel->name, rel->ncolumns, rel->columns, rv->alias);

				item->is_table = true;
				item->catalog = rel->sql != NULL;
				item->npkey = rel->npkey;
				item->pkey = rel->pkey;
				item->relation = rel->sql ? rel->name : rel->table;
				/* a system relation is pg_catalog's unless named in information_schema */
				item->nsp = rel->temp ? InvalidOid
					: rel->sql ? (rv->schemaname && rv->schemaname[0] ? NamespaceOid(rv->schemaname) : PG_CATALOG_NAMESPACE)
					: cache_name_namespace(rel->table) ? (Oid) cache_name_namespace(rel->table) : PG_PUBLIC_NAMESPACE;
				item->aliased = rv->alias != NULL;
				if (!rel->temp && rel->sql == NULL)
					item->main_table = rel->table;
				check_refname(ps, scope, item, rv->location);
				append_aliased(sql, relation_sql(rel), item->sql_alias ? item->sql_alias : item->alias);
				scope_add(scope, item);
				return;
			}
		case PG_QUERY__NODE__NODE_RANGE_SUBSELECT:
			{
				PgQuery__RangeSubselect *rs = node->range_subselect;
				Query		q;

				if (rs->lateral)
					not_supported(ps, "LATERAL", -1);
				if (rs->alias == NULL)
					ereport(ERROR,
							errcode(ERRCODE_SYNTAX_ERROR),
							errmsg("subquery in FROM must have an alias"));
				analyze_subquery(ps, rs->subquery->select_stmt, &q);
				RangeItem  *item = make_range_item(rs->alias->aliasname, q.ncolumns, q.columns, rs->alias);

				/* the query's SQL names its columns _rl_cN: give them the names outer references use */
				rlbuf_append_str(sql, "(SELECT ");
				for (int i = 0; i < item->ncolumns; i++)
					rlbuf_printf(sql, "%s\"_rl_c%d\" AS %s", i ? ", " : "", i + 1,
								 quote_ident(item->columns[i].name));
				if (item->ncolumns == 0)
					rlbuf_append_str(sql, "NULL");
				rlbuf_printf(sql, " FROM (%s)) AS %s", q.sql, quote_ident(item->alias));
				scope_add(scope, item);
				return;
			}
		case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
			transform_range_function(ps, node->range_function, scope, sql);
			return;
		case PG_QUERY__NODE__NODE_JOIN_EXPR:
			{
				PgQuery__JoinExpr *j = node->join_expr;
				static const char *const joins[] = {"", " JOIN ", " LEFT JOIN ", " FULL JOIN ", " RIGHT JOIN "};
				int			first = scope->nitems;

				if (j->is_natural || j->alias ||
					j->jointype < PG_QUERY__JOIN_TYPE__JOIN_INNER || j->jointype > PG_QUERY__JOIN_TYPE__JOIN_RIGHT)
					not_supported(ps, "NATURAL and aliased joins", -1);
				rlbuf_append_str(sql, "(");
				transform_from_item(ps, j->larg, scope, sql);
				int			middle = scope->nitems;

				rlbuf_append_str(sql, joins[j->jointype]);
				transform_from_item(ps, j->rarg, scope, sql);

				Scope	   *saved = ps->scope;
				Expr	   *on = NULL;

				ps->scope = scope;
				if (j->n_using_clause)
					on = join_using(ps, j, scope, first, middle);
				else if (j->quals)
					on = transform_clause(ps, j->quals, BOOLOID, "JOIN/ON", "JOIN conditions");
				ps->scope = saved;
				if (on)
					rlbuf_printf(sql, " ON %s", deparse_to_string(ps, on));
				rlbuf_append_str(sql, ")");
				return;
			}
		default:
			not_supported(ps, node_name(node), -1);
	}
}

/* transform_from -- the FROM list into scope (a new level) and its SQL */
static Scope *
transform_from(ParseState *ps, Node **items, size_t n, RlBuf *sql)
{
	Scope	   *scope = palloc0(sizeof(Scope));

	scope->items = palloc(sizeof(RangeItem *));
	scope->parent = ps->scope;
	scope->level = ps->scope ? ps->scope->level + 1 : 1;
	for (size_t i = 0; i < n; i++)
	{
		if (i > 0)
			rlbuf_append_str(sql, ", ");
		transform_from_item(ps, items[i], scope, sql);
	}
	return scope;
}

/* transform_with -- WITH queries: their SQL prefix, and names for FROM */
static void
transform_with(ParseState *ps, PgQuery__WithClause *with, RlBuf *sql)
{
	if (with == NULL)
		return;
	if (with->recursive)
		not_supported(ps, "WITH RECURSIVE", with->location);
	rlbuf_append_str(sql, "WITH ");
	for (size_t i = 0; i < with->n_ctes; i++)
	{
		PgQuery__CommonTableExpr *cte = with->ctes[i]->common_table_expr;
		Query		q;

		if (cte->ctequery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
			not_supported(ps, "data-modifying statements in WITH", cte->location);
		analyze_query(ps, cte->ctequery->select_stmt, NULL, &q);
		CteItem    *c = palloc0(sizeof(CteItem));

		c->name = cte->ctename;
		c->ncolumns = q.ncolumns;
		c->columns = q.columns;
		for (size_t k = 0; k < cte->n_aliascolnames && (int) k < q.ncolumns; k++)
			c->columns[k].name = string_value(cte->aliascolnames[k]);
		c->next = ps->ctes;
		ps->ctes = c;
		append_ident(sql, i ? ", " : NULL, c->name);
		rlbuf_append_str(sql, "(");
		for (int k = 0; k < c->ncolumns; k++)
			append_ident(sql, k ? ", " : NULL, c->columns[k].name);
		rlbuf_printf(sql, ") AS (%s)", q.sql);
	}
	rlbuf_append_str(sql, " ");
}

/* ---------- SELECT ---------- */

/* target_expr -- a result column, coerced to the target's type when there is one */
static Expr *
finish_target(ParseState *ps, Expr *e, const ResultColumn *target)
{
	if (target != NULL)
	{
		Expr	   *c = coerce_expr(ps, e, target->type, target->typmod, COERCE_ASSIGNMENT);

		if (c == NULL)
			ereport(ERROR,
					errcode(ERRCODE_DATATYPE_MISMATCH),
					errmsg("column \"%s\" is of type %s but expression is of type %s", target->name,
						   typio_format_type(target->type), typio_format_type(e->type)),
					errhint("You will need to rewrite or cast the expression."),
					errposition(char_position(ps, e->location)));
		return c;
	}
	return e->type == UNKNOWNOID ? coerce_expr(ps, e, TEXTOID, -1, COERCE_IMPLICIT) : e;
}

/* Result columns being built. */
typedef struct TargetList
{
	int			n;
	Expr	  **exprs;
	ResultColumn *columns;
} TargetList;

static void
add_target(TargetList *tl, Expr *e, const char *name)
{
	tl->exprs = repalloc(tl->exprs, sizeof(Expr *) * (size_t) (tl->n + 1));
	tl->columns = repalloc(tl->columns, sizeof(ResultColumn) * (size_t) (tl->n + 1));
	tl->exprs[tl->n] = e;
	tl->columns[tl->n] = (ResultColumn) {name, e->type, e->typmod};
	tl->n++;
}

/*
 * check_column_limit -- 54011 past one of PostgreSQL's limits: "what can have at most
 * limit items" (its target lists' entries, its tables' columns)
 */
static void
check_column_limit(size_t n, int limit, const char *what, const char *items)
{
	if (n > (size_t) limit)
		ereport(ERROR,
				errcode(ERRCODE_TOO_MANY_COLUMNS),
				errmsg("%s can have at most %d %s", what, limit, items));
}

static void
transform_targets(ParseState *ps, Node **nodes, size_t n, TargetList *tl)
{
	tl->exprs = palloc(sizeof(Expr *));
	tl->columns = palloc(sizeof(ResultColumn));
	for (size_t i = 0; i < n; i++)
	{
		PgQuery__ResTarget *rt = nodes[i]->res_target;
		Node	   *val = rt->val;

		if (val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
			val->column_ref->fields[val->column_ref->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR)
		{
			PgQuery__ColumnRef *cr = val->column_ref;
			const char *alias = cr->n_fields >= 2 ? string_value(cr->fields[cr->n_fields - 2]) : NULL;

			if (ps->scope == NULL)
				transform_column_ref(ps, cr);
			for (int k = 0; k < ps->scope->nitems; k++)
			{
				RangeItem  *item = ps->scope->items[k];

				if (alias && strcmp(alias, item->alias) != 0)
					continue;
				for (int c = 0; c < item->ncolumns; c++)
					if (alias || visible_column(item, c))
						add_target(tl, column_expr(item, c, cr->location), item->columns[c].name);
			}
			if (alias)
				find_item(ps, NULL, alias, cr->location);
			continue;
		}
		add_target(tl, transform_expr(ps, val), is_set(rt->name) ? rt->name : figure_colname(val));
	}
	check_column_limit((size_t) tl->n, MAX_TARGET_ENTRIES, "target lists", "entries");
}

static bool
contains_aggregate(const Expr *e)
{
	if (e == NULL)
		return false;
	if (e->kind == EXPR_AGG && e->window == NULL)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (contains_aggregate(e->args[i]))
			return true;
	return contains_aggregate(e->defresult);
}

/* sort_expr -- ORDER BY / GROUP BY item: an output position, an output name, or an expression */
static Expr *
sort_expr(ParseState *ps, Node *node, TargetList *tl, bool by_name)
{
	if (node->node_case == PG_QUERY__NODE__NODE_A_CONST &&
		node->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL)
	{
		int			pos = node->a_const->ival->ival;

		if (pos < 1 || pos > tl->n)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
					errmsg("ORDER BY position %d is not in select list", pos),
					errposition(char_position(ps, node->a_const->location)));
		return tl->exprs[pos - 1];
	}
	if (by_name && node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && node->column_ref->n_fields == 1)
	{
		const char *name = string_value(node->column_ref->fields[0]);

		for (int i = 0; i < tl->n; i++)
			if (strcmp(tl->columns[i].name, name) == 0)
				return tl->exprs[i];
	}
	return transform_expr(ps, node);
}

/* append_order_by -- ORDER BY's SQLite text; its expressions (palloc'd) in sorts, if not NULL */
static void
append_order_by(ParseState *ps, RlBuf *sql, PgQuery__SelectStmt *sel, TargetList *tl, bool positions,
				Expr ***sorts)
{
	if (sorts)
		*sorts = palloc(sizeof(Expr *) * (sel->n_sort_clause ? sel->n_sort_clause : 1));
	for (size_t i = 0; i < sel->n_sort_clause; i++)
	{
		PgQuery__SortBy *sb = sel->sort_clause[i]->sort_by;
		bool		desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
		bool		nulls_first = sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT ? desc
			: sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST;

		if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
			not_supported(ps, "ORDER BY USING", sb->location);
		rlbuf_append_str(sql, i ? ", " : " ORDER BY ");
		Expr	   *e = sort_expr(ps, sb->node, tl, true);

		if (sorts)
			(*sorts)[i] = e;

		if (positions)
		{
			int			pos = 0;

			for (int k = 0; k < tl->n && pos == 0; k++)
				if (tl->exprs[k] == e)
					pos = k + 1;
			if (pos == 0)
				not_supported(ps, "ORDER BY on expressions of a UNION", sb->location);
			rlbuf_printf(sql, "%d", pos);
		}
		else
			deparse_collated(ps, sql, e);
		rlbuf_printf(sql, " %s NULLS %s", desc ? "DESC" : "ASC", nulls_first ? "FIRST" : "LAST");
	}
}

static void
append_limit(ParseState *ps, RlBuf *sql, PgQuery__SelectStmt *sel)
{
	Scope	   *saved = ps->scope;

	ps->scope = NULL;
	if (sel->limit_count || sel->limit_offset)
	{
		rlbuf_append_str(sql, " LIMIT ");
		if (sel->limit_count)
			rlbuf_printf(sql, "coalesce(%s, -1)",
						 deparse_to_string(ps, transform_limit(ps, sel->limit_count, "LIMIT")));
		else
			rlbuf_append_str(sql, "-1");
		if (sel->limit_offset)
			rlbuf_printf(sql, " OFFSET %s", deparse_to_string(ps, transform_limit(ps, sel->limit_offset, "OFFSET")));
	}
	ps->scope = saved;
}

/*
 * analyze_values_query -- VALUES (...), (...) as SQLite VALUES, columns typed in common;
 * a VALUES read as a query (not INSERT's) names its columns _rl_cN as every query's SQL
 * does, where SQLite's are column1, column2 ...: a reference to "_rl_c1" that names no
 * column would be read by SQLite as the string '_rl_c1'
 */
static void
analyze_values_query(ParseState *ps, PgQuery__SelectStmt *sel, const ResultColumn *targets, Query *q,
					 RlBuf *sql)
{
	AnalyzedStmt tmp = {0};
	Plan		plan = {0};

	if (targets)
	{
		/* INSERT: each value goes straight to its column's type */
		int			ncols = (int) sel->values_lists[0]->list->n_items;

		plan.nvalues_rows = (int) sel->n_values_lists;
		plan.values_rows = palloc(sizeof(Expr **) * sel->n_values_lists);
		for (size_t r = 0; r < sel->n_values_lists; r++)
		{
			PgQuery__List *row = sel->values_lists[r]->list;

			if ((int) row->n_items != ncols)
				ereport(ERROR,
						errcode(ERRCODE_SYNTAX_ERROR),
						errmsg("VALUES lists must all be the same length"));
			plan.values_rows[r] = transform_values_row(ps, row);
		}
		tmp.ncolumns = ncols;
		tmp.columns = palloc(sizeof(ResultColumn) * (size_t) (ncols ? ncols : 1));
	}
	else
		analyze_values(ps, sel, &tmp, &plan);
	q->ncolumns = tmp.ncolumns;
	q->columns = tmp.columns;
	if (targets == NULL)
	{
		rlbuf_append_str(sql, "SELECT ");
		for (int c = 0; c < q->ncolumns; c++)
			rlbuf_printf(sql, "%scolumn%d AS \"_rl_c%d\"", c ? ", " : "", c + 1, c + 1);
		rlbuf_append_str(sql, " FROM (");
	}
	rlbuf_append_str(sql, "VALUES ");
	for (int r = 0; r < plan.nvalues_rows; r++)
	{
		rlbuf_append_str(sql, r ? ", (" : "(");
		for (int c = 0; c < q->ncolumns; c++)
		{
			Expr	   *e = finish_target(ps, plan.values_rows[r][c], targets ? &targets[c] : NULL);

			if (c)
				rlbuf_append_str(sql, ", ");
			deparse(ps, sql, e);
			if (targets)
				q->columns[c] = targets[c];
		}
		rlbuf_append_str(sql, ")");
	}
	if (targets == NULL)
		rlbuf_append_str(sql, ")");
}

/* row_operand -- a column or a constant */
static bool
row_operand(const Expr *e)
{
	return e->kind == EXPR_VAR || e->kind == EXPR_CONST;
}

/*
 * row_predicate -- whether e is a condition on the row's columns and constants alone
 * that no setting of the session changes: comparisons of a column or constant with a
 * column or constant, IS [NOT] NULL of one, AND, OR and NOT of such (a cast, an
 * operator on timestamps or a function could depend on TimeZone or DateStyle)
 */
static bool
row_predicate(const Expr *e)
{
	switch (e->kind)
	{
		case EXPR_AND:
		case EXPR_OR:
		case EXPR_NOT:
			for (int i = 0; i < e->nargs; i++)
				if (!row_predicate(e->args[i]))
					return false;
			return true;
		case EXPR_IS_NULL:
		case EXPR_IS_NOT_NULL:
			return e->nargs == 1 && row_operand(e->args[0]);
		case EXPR_OP:
			switch (e->op)
			{
				case OP_EQ:
				case OP_NE:
				case OP_LT:
				case OP_LE:
				case OP_GT:
				case OP_GE:
				case OP_DISTINCT:
				case OP_NOT_DISTINCT:
					return e->nargs == 2 && row_operand(e->args[0]) && row_operand(e->args[1]);
				default:
					return false;
			}
		default:
			return false;
	}
}

/*
 * plain_scan -- the one FROM item of sel when sel reads a DuckLake table of the
 * catalog row by row: no WITH, DISTINCT, GROUP BY, HAVING, ORDER BY, LIMIT or OFFSET,
 * only the table's columns in the select list, and a WHERE (where, if any) of its
 * columns and constants alone (row_predicate). Every row of such a query is a function
 * of one row of the table and the constants, so a copy of its result can be brought up
 * to date by reading the rows added since (keptscan.h).
 */
static const RangeItem *
plain_scan(ParseState *ps, PgQuery__SelectStmt *sel, const TargetList *tl, const Expr *where)
{
	const RangeItem *item = ps->scope && ps->scope->nitems == 1 ? ps->scope->items[0] : NULL;

	if (item == NULL || item->main_table == NULL || item->bare ||
		strncmp(cache_unqualified_name(item->main_table), "ducklake_", 9) != 0 ||
		sel->with_clause || sel->n_distinct_clause || sel->n_group_clause ||
		sel->having_clause || sel->n_sort_clause || sel->limit_count || sel->limit_offset ||
		sel->n_from_clause != 1 || sel->from_clause[0]->node_case != PG_QUERY__NODE__NODE_RANGE_VAR ||
		(where && !row_predicate(where)))
		return NULL;
	for (int i = 0; i < tl->n; i++)
		if (tl->exprs[i]->kind != EXPR_VAR)
			return NULL;
	return item;
}

/*
 * heap_order_of -- what makes a statement's query over one table return its rows in
 * the order PostgreSQL's sequential scan of a fresh table would: the row id order,
 * in which a table's rows lie in SQLite (an insert takes the next row id, an update
 * the next after all: rl_row_after), as PostgreSQL's lie in their heap. SQLite reads
 * a query without WHERE from the table unless an index holds every column it needs,
 * which it would read instead, in the index's order: NOT INDEXED forbids that. With a
 * WHERE, SQLite may serve the filter from an index, in its order: the rows are sorted
 * by row id, except for DuckLake's tables, whose filtered scans (keptscan.h) are the
 * catalog's hot path and must not sort (doc/design.md, "Row order"). Not for queries
 * whose order PostgreSQL does not take from the heap alone (grouped, DISTINCT, ORDER
 * BY, a set-returning function in the select list: passed as grouped) nor for joins.
 */
static void
heap_order_of(ParseState *ps, PgQuery__SelectStmt *sel, bool grouped, bool filtered, Query *q)
{
	const RangeItem *item = ps->scope && ps->scope->nitems == 1 ? ps->scope->items[0] : NULL;

	if (item == NULL || !item->is_table || item->catalog || grouped || sel->n_distinct_clause ||
		sel->n_sort_clause || sel->n_from_clause != 1 ||
		sel->from_clause[0]->node_case != PG_QUERY__NODE__NODE_RANGE_VAR)
		return;
	if (!filtered)
		q->heap_order = " NOT INDEXED";
	else if (item->main_table == NULL || strncmp(cache_unqualified_name(item->main_table), "ducklake_", 9) != 0)
		q->heap_order = " ORDER BY " CACHE_ROWID_COLUMN;
}

/* expr_equal -- whether a and b are the same expression (GROUP BY's matching) */
static bool
expr_equal(const Expr *a, const Expr *b)
{
	if (a == b)
		return true;
	if (a == NULL || b == NULL || a->kind != b->kind || a->type != b->type || a->nargs != b->nargs ||
		a->op != b->op || a->func != b->func || a->booltest != b->booltest || a->sublink != b->sublink ||
		a->agg_star != b->agg_star || a->agg_distinct != b->agg_distinct || a->range != b->range ||
		a->array_all != b->array_all || a->element_type != b->element_type ||
		a->column != b->column || (a->sql == NULL) != (b->sql == NULL) || (a->sql && strcmp(a->sql, b->sql) != 0) ||
		a->window != b->window)
		return false;
	if (a->kind == EXPR_PARAM && a->paramno != b->paramno)
		return false;
	if (a->kind == EXPR_CONST &&
		(a->constval.isnull != b->constval.isnull ||
		 (!a->constval.isnull && strcmp(typio_output(&a->constval, NULL), typio_output(&b->constval, NULL)) != 0)))
		return false;
	for (int i = 0; i < a->nargs; i++)
		if (!expr_equal(a->args[i], b->args[i]))
			return false;
	return expr_equal(a->defresult, b->defresult);
}

/* A grouped query's GROUP BY expressions, and the FROM items of its own level. */
typedef struct Grouping
{
	Expr	  **groups;
	int			ngroups;
	const Scope *scope;
} Grouping;

/* grouped_by -- whether GROUP BY holds e itself */
static bool
grouped_by(const Grouping *g, const Expr *e)
{
	for (int i = 0; i < g->ngroups; i++)
		if (expr_equal(g->groups[i], e))
			return true;
	return false;
}

/*
 * depends_on_key -- whether GROUP BY holds every column of the primary key of the
 * table var reads, so that var's value is one per group (PostgreSQL's functional
 * dependency)
 */
static bool
depends_on_key(const Grouping *g, const Expr *var)
{
	const RangeItem *item = var->range;

	for (int k = 0; k < item->npkey; k++)
	{
		bool		found = false;

		for (int i = 0; i < g->ngroups && !found; i++)
			found = g->groups[i]->kind == EXPR_VAR && g->groups[i]->range == item &&
				g->groups[i]->column == item->pkey[k];
		if (!found)
			return false;
	}
	return item->npkey > 0;
}

/*
 * ungrouped_column -- a column of the query's own FROM that e uses outside an
 * aggregate and outside the GROUP BY expressions, or NULL. A subquery's uses are
 * not looked into (its text is made already).
 */
static const Expr *
ungrouped_column(const Grouping *g, const Expr *e)
{
	if (e == NULL || e->kind == EXPR_AGG || e->kind == EXPR_SUBLINK || grouped_by(g, e))
		return NULL;
	if (e->kind == EXPR_VAR)
	{
		for (int i = 0; e->range && g->scope && i < g->scope->nitems; i++)
			if (g->scope->items[i] == e->range)
				return depends_on_key(g, e) ? NULL : e;
		return NULL;
	}
	for (int i = 0; i < e->nargs; i++)
	{
		const Expr *found = ungrouped_column(g, e->args[i]);

		if (found)
			return found;
	}
	return ungrouped_column(g, e->defresult);
}

/*
 * check_grouped -- PostgreSQL's rule for the select list, HAVING and ORDER BY of a
 * grouped query: 42803 for a column of its FROM used outside an aggregate that GROUP
 * BY neither holds nor determines (by its table's primary key)
 */
static void
check_grouped(ParseState *ps, const Grouping *g, Expr *const *exprs, int n)
{
	for (int i = 0; i < n; i++)
	{
		const Expr *var = ungrouped_column(g, exprs[i]);

		if (var)
		{
			const RangeItem *item = var->range;

			ereport(ERROR,
					errcode(ERRCODE_GROUPING_ERROR),
					errmsg("column \"%s.%s\" must appear in the GROUP BY clause or be used in an aggregate function",
						   item->alias, var->column >= 0 ? item->columns[var->column].name : "ctid"),
					errposition(char_position(ps, var->location)));
		}
	}
}

/*
 * analyze_query -- a SELECT (or VALUES, or a set operation) as SQLite SQL
 *
 * targets, if given, are the columns the result must have (INSERT's), one per
 * output column.
 */
/*
 * select_list_srfs -- f(...) in the select list of a query over the cache: a FROM item
 * joined to the rest, its value the column. Several run in lockstep, as PostgreSQL runs
 * them: as many rows as the longest set has elements (json_each of an array of that
 * many zeros numbers them), each set joined by its position, NULL past its end.
 */
static void
select_list_srfs(ParseState *ps, TargetList *tl, RlBuf *from)
{
	int			n = 1 + ps->nmore_srfs;
	Expr	  **srfs = palloc(sizeof(Expr *) * (size_t) n);

	srfs[0] = ps->srf;
	for (int k = 1; k < n; k++)
		srfs[k] = ps->more_srfs[k - 1];
	if (n > 1)
	{
		/* CROSS JOIN: SQLite keeps it after the items its arguments read */
		rlbuf_printf(from, "%sjson_each('[' || rtrim(replace(hex(zeroblob(max(", from->len ? " CROSS JOIN " : "");
		for (int k = 0; k < n; k++)
			rlbuf_printf(from, "%sjson_array_length(rl_array_json(%s, %u))", k ? ", " : "",
						 deparse_to_string(ps, srfs[k]), srfs[k]->type);
		rlbuf_append_str(from, "))), '00', '0,'), ',') || ']') AS \"_rl_srf\"");
	}
	for (int k = 0; k < n; k++)
	{
		int			i = 0;
		char	   *alias = n > 1 ? psprintf("_rl_srf%d", k) : "_rl_srf";

		while (i < tl->n && tl->exprs[i] != srfs[k])
			i++;
		if (i == tl->n)
			not_supported(ps, "a set-returning function inside an expression", srfs[k]->location);
		if (n == 1)
			rlbuf_printf(from, "%s%s", from->len ? ", " : "", set_source(ps, srfs[k], alias));
		else
			rlbuf_printf(from, " LEFT JOIN %s ON %s.key = \"_rl_srf\".key", set_source(ps, srfs[k], alias),
						 quote_ident(alias));
		tl->exprs[i] = make_expr(EXPR_VAR, srfs[k]->type, srfs[k]->location);
		tl->exprs[i]->sql = psprintf("%s.value", quote_ident(alias));
	}
	ps->srf = NULL;
	ps->nmore_srfs = 0;
}

static void
analyze_query(ParseState *ps, PgQuery__SelectStmt *sel, const ResultColumn *targets, Query *q)
{
	RlBuf		sql;
	CteItem    *saved_ctes = ps->ctes;
	Scope	   *saved_scope = ps->scope;
	Expr	   *saved_srf = ps->srf;
	bool		saved_lockstep = ps->srf_lockstep;
	bool		leaf = ps->setop_leaf;
	const char *saved_agg_refused = ps->agg_refused;
	bool		saved_in_aggregate = ps->in_aggregate;
	bool		saved_folded_aggregate = ps->folded_aggregate;
	PgQuery__SelectStmt *saved_select = ps->select;

	/* a subquery's aggregates are its own (those of outer columns are not told apart) */
	ps->agg_refused = NULL;
	ps->in_aggregate = false;
	ps->folded_aggregate = false;
	ps->select = sel;
	ps->srf = NULL;
	ps->srf_lockstep = false;
	q->scan = NULL;
	q->scan_where = NULL;
	q->heap_order = NULL;

	ps->setop_leaf = false;
	rlbuf_init_in(&sql, CurrentMemoryContext);
	if (sel->into_clause)
		not_supported(ps, "SELECT INTO", -1);
	if (sel->n_locking_clause)
		not_supported(ps, "FOR UPDATE/SHARE", -1);
	transform_with(ps, sel->with_clause, &sql);
	if (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE)
	{
		static const char *const ops[] = {"", "", " UNION ", " INTERSECT ", " EXCEPT "};
		static const char *const opnames[] = {"", "", "UNION", "INTERSECT", "EXCEPT"};
		Query		l;
		TargetList	tl = {0};

		if (sel->op > PG_QUERY__SET_OPERATION__SETOP_EXCEPT)
			not_supported(ps, "this set operation", -1);

		/*
		 * a chain of one operation (a UNION ALL b UNION ALL c ..., a left-deep tree)
		 * is one compound SELECT, as SQLite reads it left to right: nested, each
		 * link would take a level of SQLite's parser stack. SQLite takes at most
		 * SQLITE_COMPOUND_TERMS terms in one compound, so a longer one is nested
		 * that often.
		 */
		int			narms = 0,
					cap = 8;
		PgQuery__SelectStmt **arms = palloc(sizeof(PgQuery__SelectStmt *) * (size_t) cap);
		PgQuery__SelectStmt *link = sel;

		for (;;)
		{
			if (narms == cap)
				arms = repalloc(arms, sizeof(PgQuery__SelectStmt *) * (size_t) (cap *= 2));
			arms[narms++] = link->rarg;
			link = link->larg;
			if (link->op != sel->op || link->all != sel->all || link->n_sort_clause || link->limit_count ||
				link->limit_offset || link->with_clause)
				break;
		}
		if (narms == cap)
			arms = repalloc(arms, sizeof(PgQuery__SelectStmt *) * (size_t) (cap + 1));
		arms[narms++] = link;
		for (int i = 0; i < narms / 2; i++)
		{
			PgQuery__SelectStmt *swap = arms[i];

			arms[i] = arms[narms - 1 - i];
			arms[narms - 1 - i] = swap;
		}
		Query	   *arm = palloc(sizeof(Query) * (size_t) narms);

		for (int a = 0; a < narms; a++)
		{
			ps->setop_leaf = true;
			analyze_query(ps, arms[a], targets, &arm[a]);
			if (arm[a].ncolumns != arm[0].ncolumns)
				ereport(ERROR,
						errcode(ERRCODE_SYNTAX_ERROR),
						errmsg("each %s query must have the same number of columns", opnames[sel->op]));
			for (int c = 0; a > 0 && c < arm[0].ncolumns; c++)
			{
				Expr	   *pair[2] = {make_expr(EXPR_CONST, arm[0].columns[c].type, -1),
				make_expr(EXPR_CONST, arm[a].columns[c].type, -1)};
				Oid			type = select_common_type(ps, pair, 2, opnames[sel->op]);

				if (type != arm[a].columns[c].type)
					arm[0].columns[c].typmod = -1;
				arm[0].columns[c].type = type;
			}
		}
		l = arm[0];
		q->ncolumns = l.ncolumns;
		q->columns = l.columns;

		/* each arm's columns in the result's types */
		RlBuf		compound;
		int			terms = 0;

		rlbuf_init_in(&compound, CurrentMemoryContext);
		for (int a = 0; a < narms; a++)
		{
			if (terms == SQLITE_COMPOUND_TERMS)
			{
				char	   *inner = pstrdup(rlbuf_cstr(&compound));

				rlbuf_reset(&compound);
				rlbuf_printf(&compound, "SELECT * FROM (%s)", inner);
				terms = 1;
			}
			if (a > 0)
				rlbuf_printf(&compound, "%s%s", ops[sel->op], sel->all ? "ALL " : "");
			rlbuf_append_str(&compound, "SELECT ");
			for (int c = 0; c < l.ncolumns; c++)
			{
				Expr	   *column = make_expr(EXPR_VAR, arm[a].columns[c].type, -1);
				char	   *name = psprintf("\"_rl_c%d\"", c + 1);

				column->sql = name;
				if (!same_canonical_form(arm[a].columns[c].type, l.columns[c].type, -1))
					column = coerce_expr(ps, column, l.columns[c].type, -1, COERCE_IMPLICIT);
				if (c)
					rlbuf_append_str(&compound, ", ");
				deparse(ps, &compound, column);
				rlbuf_printf(&compound, " AS %s", name);
			}
			rlbuf_printf(&compound, "%s FROM (%s)", l.ncolumns ? "" : "NULL", arm[a].sql);
			terms++;
		}
		tl.exprs = palloc(sizeof(Expr *) * (size_t) (l.ncolumns ? l.ncolumns : 1));
		tl.columns = q->columns;
		tl.n = l.ncolumns;
		for (int c = 0; c < l.ncolumns; c++)
		{
			tl.exprs[c] = make_var(&(RangeItem) {.alias = "_rl_set"}, q->columns[c].name,
								   q->columns[c].type, q->columns[c].typmod, -1);
			tl.exprs[c]->range = NULL;	/* no FROM item of this query's */
		}
		rlbuf_printf(&sql, "SELECT * FROM (%s)", rlbuf_cstr(&compound));
		rlbuf_free(&compound);
		append_order_by(ps, &sql, sel, &tl, true, NULL);
		append_limit(ps, &sql, sel);
	}
	else if (sel->n_values_lists > 0)
	{
		if (sel->n_sort_clause || sel->limit_count || sel->limit_offset)
			not_supported(ps, "ORDER BY or LIMIT on VALUES", -1);
		analyze_values_query(ps, sel, targets, q, &sql);
	}
	else
	{
		RlBuf		from;
		TargetList	tl = {0};

		rlbuf_init_in(&from, CurrentMemoryContext);
		if (sel->n_distinct_clause && sel->distinct_clause[0] != NULL &&
			sel->distinct_clause[0]->node_case != PG_QUERY__NODE__NODE__NOT_SET)
			not_supported(ps, "DISTINCT ON", -1);
		if (sel->n_from_clause)
			ps->scope = transform_from(ps, sel->from_clause, sel->n_from_clause, &from);
		ps->srf_lockstep = true;
		ps->nmore_srfs = 0;
		transform_targets(ps, sel->target_list, sel->n_target_list, &tl);
		ps->srf_lockstep = false;
		bool		targets_srf = ps->srf != NULL;

		if (targets_srf)
			select_list_srfs(ps, &tl, &from);
		rlbuf_append_str(&sql, sel->n_distinct_clause ? "SELECT DISTINCT " : "SELECT ");
		size_t		first_at = sql.len,
					first_end = sql.len + strlen("NULL");

		for (int i = 0; i < tl.n; i++)
		{
			/* a set operation resolves its branches' unknown columns together */
			if (!leaf || targets || tl.exprs[i]->type != UNKNOWNOID)
				tl.exprs[i] = finish_target(ps, tl.exprs[i], targets ? &targets[i] : NULL);
			tl.columns[i].type = tl.exprs[i]->type;
			tl.columns[i].typmod = tl.exprs[i]->typmod;
			if (targets)
				tl.columns[i].name = targets[i].name;
			if (i)
				rlbuf_append_str(&sql, ", ");
			deparse_collated(ps, &sql, tl.exprs[i]);	/* DISTINCT, set operations, outer queries */
			if (i == 0)
				first_end = sql.len;
			/* for rl_scalar(): AS "_rl_c<n>" */
			rlbuf_append_str(&sql, " AS \"_rl_c");
			rlbuf_append_int(&sql, i + 1);
			rlbuf_append_str(&sql, "\"");
		}
		if (tl.n == 0)
			rlbuf_append_str(&sql, "NULL");
		if (from.len)
		{
			rlbuf_append_str(&sql, " FROM ");
			rlbuf_append(&sql, from.data, from.len);
		}
		rlbuf_free(&from);
		size_t		from_end = sql.len;
		Expr	   *where = sel->where_clause
			? transform_clause(ps, sel->where_clause, BOOLOID, "WHERE", "WHERE") : NULL;

		/* in parentheses: a kept scan adds its own condition after it (keptscan.c) */
		size_t		where_at = sql.len + strlen(" WHERE ");

		if (where)
		{
			rlbuf_append_str(&sql, " WHERE (");
			deparse(ps, &sql, where);
			rlbuf_append_str(&sql, ")");
		}
		size_t		where_end = sql.len;
		Grouping	grouping = {.groups = palloc(sizeof(Expr *) * (sel->n_group_clause ? sel->n_group_clause : 1)),
		.scope = ps->scope};

		ps->agg_refused = "GROUP BY";
		for (size_t i = 0; i < sel->n_group_clause; i++)
		{
			/* a bare name is an input column's, else a result column's (PostgreSQL's rule) */
			Node	   *node = sel->group_clause[i];
			bool		output = node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
				node->column_ref->n_fields == 1 &&
				node->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
				!input_column(ps, string_value(node->column_ref->fields[0]));
			Expr	   *g = sort_expr(ps, node, &tl, output);

			/* GROUP BY 1 names a result column, which may be an aggregate */
			if (contains_aggregate(g))
				ereport(ERROR,
						errcode(ERRCODE_GROUPING_ERROR),
						errmsg("aggregate functions are not allowed in GROUP BY"),
						errposition(char_position(ps, g->location)));
			rlbuf_append_str(&sql, i ? ", " : " GROUP BY ");
			deparse_collated(ps, &sql, g);
			grouping.groups[grouping.ngroups++] = g;
		}
		ps->agg_refused = NULL;
		Expr	   *having = sel->having_clause
			? coerce_or_fail(ps, transform_expr(ps, sel->having_clause), BOOLOID, "HAVING") : NULL;
		Expr	  **sorts;

		if (having)
			rlbuf_printf(&sql, " HAVING %s", deparse_to_string(ps, having));
		append_order_by(ps, &sql, sel, &tl, sel->n_distinct_clause > 0, &sorts);

		/* a grouped query: GROUP BY, HAVING or an aggregate anywhere */
		bool		aggregated_targets = false;
		bool		grouped = sel->n_group_clause || having || ps->folded_aggregate;

		for (int i = 0; i < tl.n; i++)
			aggregated_targets |= contains_aggregate(tl.exprs[i]);
		for (size_t i = 0; i < sel->n_sort_clause; i++)
			grouped |= contains_aggregate(sorts[i]);
		if (grouped || aggregated_targets)
		{
			check_grouped(ps, &grouping, tl.exprs, tl.n);
			check_grouped(ps, &grouping, &having, 1);
			check_grouped(ps, &grouping, sorts, (int) sel->n_sort_clause);
		}
		if (grouped && !sel->n_group_clause && !aggregated_targets)
		{
			/*
			 * SQLite groups a query without GROUP BY only for an aggregate in its
			 * select list: the first result gets one that changes nothing
			 */
			char	   *text = psprintf("%.*scoalesce(%.*s, max(NULL))%s", (int) first_at, rlbuf_cstr(&sql),
										(int) (first_end - first_at), rlbuf_cstr(&sql) + first_at,
										rlbuf_cstr(&sql) + first_end);

			rlbuf_reset(&sql);
			rlbuf_append_str(&sql, text);
			where_at += strlen("coalesce(, max(NULL))");
		}
		append_limit(ps, &sql, sel);
		if (ps->srf != NULL)
			not_supported(ps, "set-returning functions outside the select list and FROM", ps->srf->location);
		q->ncolumns = tl.n;
		q->columns = tl.columns;
		q->scan = plain_scan(ps, sel, &tl, where);
		q->scan_filtered = where != NULL;
		heap_order_of(ps, sel, grouped || aggregated_targets || targets_srf, where != NULL, q);
		q->heap_order_at = where ? where_end : from_end;
		/* a plain scan has nothing after its WHERE */
		q->scan_where = where && q->scan ? pstrdup(rlbuf_cstr(&sql) + where_at) : NULL;
	}
	q->sql = pstrdup(rlbuf_cstr(&sql));
	rlbuf_free(&sql);
	ps->ctes = saved_ctes;
	ps->scope = saved_scope;
	ps->srf = saved_srf;
	ps->srf_lockstep = saved_lockstep;
	ps->agg_refused = saved_agg_refused;
	ps->in_aggregate = saved_in_aggregate;
	ps->folded_aggregate = saved_folded_aggregate;
	ps->select = saved_select;
}

/* add_sql -- stmt runs sql with the binds collected so far */
static void
add_sql(ParseState *ps, AnalyzedStmt *stmt, const char *sql)
{
	stmt->sql = stmt->sql ? repalloc(stmt->sql, sizeof(SqlStatement) * (size_t) (stmt->nsql + 1))
		: palloc(sizeof(SqlStatement));
	/* the subqueries hoisted out of sql (analyze_subquery) join its WITH, or make one */
	if (ps->hoisted.len > 0)
	{
		bool		with = strncmp(sql, "WITH ", 5) == 0;

		sql = psprintf("WITH %s%s%s", rlbuf_cstr(&ps->hoisted), with ? ", " : " ", with ? sql + 5 : sql);
		rlbuf_reset(&ps->hoisted);
	}
	stmt->sql[stmt->nsql++] = (SqlStatement) {pstrdup(sql), ps->nbinds, ps->binds};
	ps->nbinds = 0;
	ps->binds = palloc(sizeof(Expr *));
}

/* skip_notice -- the NOTICE of an object IF [NOT] EXISTS skipped, given when stmt runs */
static void
skip_notice(AnalyzedStmt *stmt, const char *code, const char *message)
{
	stmt->notices = stmt->notices ? repalloc(stmt->notices, sizeof(char *) * (size_t) (stmt->nnotices + 1))
		: palloc(sizeof(char *));
	stmt->notice_codes = stmt->notice_codes
		? repalloc(stmt->notice_codes, sizeof(char *) * (size_t) (stmt->nnotices + 1)) : palloc(sizeof(char *));
	stmt->notices[stmt->nnotices] = message;
	stmt->notice_codes[stmt->nnotices++] = code;
}

/*
 * node_contains -- whether a parse tree has a node of kind anywhere (protobuf
 * reflection) for which match, if given, is true
 */
static bool
node_contains(const ProtobufCMessage *msg, PgQuery__Node__NodeCase kind, bool (*match) (const Node *))
{
	if (msg == NULL)
		return false;
	if (msg->descriptor == &pg_query__node__descriptor)
	{
		const Node *node = (const Node *) msg;
		const ProtobufCFieldDescriptor *f = node_member_field(node);

		if (node->node_case == kind && (match == NULL || match(node)))
			return true;
		return f && node_contains(*(ProtobufCMessage * const *) ((const char *) msg + f->offset), kind, match);
	}
	for (unsigned i = 0; i < msg->descriptor->n_fields; i++)
	{
		const ProtobufCFieldDescriptor *f = &msg->descriptor->fields[i];
		const char *base = (const char *) msg + f->offset;

		if (f->type != PROTOBUF_C_TYPE_MESSAGE)
			continue;
		if (f->label == PROTOBUF_C_LABEL_REPEATED)
		{
			size_t		n = *(const size_t *) ((const char *) msg + f->quantifier_offset);
			ProtobufCMessage *const *items = *(ProtobufCMessage * const **) base;

			for (size_t k = 0; k < n; k++)
				if (node_contains(items[k], kind, match))
					return true;
		}
		else if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
		{
			if (*(const uint32_t *) ((const char *) msg + f->quantifier_offset) == f->id &&
				node_contains(*(ProtobufCMessage * const *) base, kind, match))
				return true;
		}
		else if (node_contains(*(ProtobufCMessage * const *) base, kind, match))
			return true;
	}
	return false;
}

/*
 * calls_cache_function -- a call of a function that runs only over the cache
 * (FunctionNeedsCache), or of an aggregate or window function (SQLite's, also
 * without FROM)
 */
static bool
calls_cache_function(const Node *node)
{
	const PgQuery__FuncCall *fc = node->func_call;

	return fc->over != NULL || is_aggregate(fc) ||
		FunctionNeedsCache(string_value(fc->funcname[fc->n_funcname - 1]));
}

/*
 * values_have_default -- a DEFAULT among the items of sel's VALUES lists, where it
 * means the column's default (one nested deeper is an expression transform_expr
 * refuses); not a walk of the whole tree: a DuckLake commit's 40-row VALUES is two
 * thousand nodes
 */
static bool
values_have_default(const PgQuery__SelectStmt *sel)
{
	if (sel == NULL)
		return false;
	for (size_t i = 0; i < sel->n_values_lists; i++)
	{
		const PgQuery__List *row = sel->values_lists[i]->list;

		for (size_t k = 0; k < row->n_items; k++)
			if (row->items[k]->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
				return true;
	}
	return values_have_default(sel->larg) || values_have_default(sel->rarg);
}

/* needs_cache -- a SELECT the expression evaluator cannot run alone */
static bool
needs_cache(PgQuery__SelectStmt *sel)
{
	return sel->n_from_clause || sel->with_clause || sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE ||
		sel->n_sort_clause || sel->n_group_clause || sel->having_clause || sel->n_distinct_clause ||
		node_contains((const ProtobufCMessage *) sel, PG_QUERY__NODE__NODE_SUB_LINK, NULL) ||
		node_contains((const ProtobufCMessage *) sel, PG_QUERY__NODE__NODE_FUNC_CALL, calls_cache_function);
}

static void
analyze_select_sql(ParseState *ps, PgQuery__SelectStmt *sel, AnalyzedStmt *stmt)
{
	Query		q;

	analyze_query(ps, sel, NULL, &q);
	stmt->kind = STMT_ROWS;
	stmt->command_tag = "SELECT";
	stmt->ncolumns = q.ncolumns;
	stmt->columns = q.columns;
	stmt->target = CACHE_READ;
	if (q.heap_order)
		q.sql = psprintf("%.*s%s%s", (int) q.heap_order_at, q.sql, q.heap_order, q.sql + q.heap_order_at);
	add_sql(ps, stmt, q.sql);
	if (q.scan)
	{
		stmt->scan_table = pstrdup(q.scan->main_table);	/* the relation may be forgotten first */
		stmt->scan_alias = quote_ident(q.scan->sql_alias ? q.scan->sql_alias : q.scan->alias);
		stmt->scan_from = psprintf("main.%s AS %s", quote_table(q.scan->main_table), stmt->scan_alias);
		stmt->scan_filtered = q.scan_filtered;
		stmt->scan_where = q.scan_where;
	}
}

/* ---------- INSERT, UPDATE, DELETE ---------- */

/* target_relation -- the relation a DML statement writes, as the one item of a new scope */
static CacheRelation *
target_relation(ParseState *ps, PgQuery__RangeVar *rv, AnalyzedStmt *stmt, RlBuf *sql)
{
	CacheRelation *rel = lookup_relation(ps, rv);
	RangeItem  *item = make_range_item(rel->name, rel->ncolumns, rel->columns, rv->alias);
	Scope	   *scope = palloc0(sizeof(Scope));

	check_writable(ps, rel, rv->location);
	item->is_table = true;
	item->relation = rel->table;
	item->aliased = rv->alias != NULL;
	scope->items = palloc(sizeof(RangeItem *));
	scope->parent = ps->scope;
	scope->level = ps->scope ? ps->scope->level + 1 : 1;
	scope_add(scope, item);
	ps->scope = scope;
	stmt->target = rel->temp ? CACHE_WRITE_TEMP : CACHE_WRITE_MAIN;
	append_aliased(sql, relation_sql(rel), item->alias);
	return rel;
}

static const ResultColumn *
relation_column(ParseState *ps, const CacheRelation *rel, const char *name, int location)
{
	for (int i = 0; i < rel->ncolumns; i++)
		if (strcmp(rel->columns[i].name, name) == 0)
			return &rel->columns[i];
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_COLUMN),
			errmsg("column \"%s\" of relation \"%s\" does not exist", name, rel->name),
			errposition(char_position(ps, location)));
	return NULL;
}

/* reads_only -- whether e reads no column but those of item's */
static bool
reads_only(const Expr *e, const RangeItem *item)
{
	if (e == NULL)
		return true;
	if (e->kind == EXPR_VAR && e->range != NULL && e->range != item)
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!reads_only(e->args[i], item))
			return false;
	return reads_only(e->defresult, item);
}

/*
 * finish_dml -- RETURNING, and the statement's shape. ps->scope holds the target and,
 * after UPDATE's FROM or DELETE's USING, those relations, whose columns SQLite's
 * RETURNING cannot read (0A000 rather than another answer than PostgreSQL's)
 */
static void
finish_dml(ParseState *ps, AnalyzedStmt *stmt, const RangeItem *stmt_target_item, Node **returning,
		   size_t n, RlBuf *sql, const char *tag)
{
	stmt->command_tag = tag;
	stmt->kind = STMT_UTILITY;
	stmt->utility = UTIL_CACHE;
	if (n > 0 && ps->scope->nitems > 1)
	{
		TargetList	joined = {0};

		transform_targets(ps, returning, n, &joined);
		for (int i = 0; i < joined.n; i++)
			if (!reads_only(joined.exprs[i], stmt_target_item))
				not_supported(ps, "RETURNING of the FROM or USING relations' columns", joined.exprs[i]->location);
	}
	if (n > 0)
	{
		TargetList	tl = {0};
		Scope		target = {.nitems = 1, .items = palloc(sizeof(RangeItem *))};

		target.items[0] = palloc(sizeof(RangeItem));
		*target.items[0] = *stmt_target_item;
		target.items[0]->bare = true;
		ps->scope = &target;
		transform_targets(ps, returning, n, &tl);
		rlbuf_append_str(sql, " RETURNING ");
		for (int i = 0; i < tl.n; i++)
		{
			tl.exprs[i] = finish_target(ps, tl.exprs[i], NULL);
			tl.columns[i].type = tl.exprs[i]->type;
			if (i)
				rlbuf_append_str(sql, ", ");
			deparse(ps, sql, tl.exprs[i]);
		}
		stmt->kind = STMT_ROWS;
		stmt->ncolumns = tl.n;
		stmt->columns = tl.columns;
		if (strcmp(tag, "INSERT") == 0)
			stmt->command_tag = "INSERT 0";
	}
	add_sql(ps, stmt, rlbuf_cstr(sql));
	rlbuf_free(sql);
}

static void
analyze_insert(ParseState *ps, PgQuery__InsertStmt *ins, AnalyzedStmt *stmt)
{
	RlBuf		sql;

	rlbuf_init_in(&sql, CurrentMemoryContext);
	if (ins->on_conflict_clause)
		not_supported(ps, "ON CONFLICT", -1);
	transform_with(ps, ins->with_clause, &sql);
	rlbuf_append_str(&sql, "INSERT INTO ");
	CacheRelation *rel = target_relation(ps, ins->relation, stmt, &sql);
	PgQuery__SelectStmt *sel = ins->select_stmt ? ins->select_stmt->select_stmt : NULL;
	int			given = sel == NULL ? 0 : sel->n_values_lists ? (int) sel->values_lists[0]->list->n_items
		: sel->op == PG_QUERY__SET_OPERATION__SETOP_NONE &&
		!node_contains((const ProtobufCMessage *) sel, PG_QUERY__NODE__NODE_A_STAR, NULL) ? (int) sel->n_target_list : -1;

	if (sel == NULL)
	{
		/* DEFAULT VALUES (the grammar allows no column list with it) */
		rlbuf_append_str(&sql, " DEFAULT VALUES");
		finish_dml(ps, stmt, ps->scope->items[0], ins->returning_list, ins->n_returning_list, &sql, "INSERT");
		return;
	}

	/* without a column list, the values fill the first columns */
	int			ncols = ins->n_cols ? (int) ins->n_cols
		: given >= 0 && given < rel->ncolumns ? given : rel->ncolumns;
	ResultColumn *targets = palloc(sizeof(ResultColumn) * (size_t) (ncols ? ncols : 1));

	rlbuf_append_str(&sql, " (");
	for (int i = 0; i < ncols; i++)
	{
		if (ins->n_cols)
		{
			PgQuery__ResTarget *rt = ins->cols[i]->res_target;

			if (rt->n_indirection)
				not_supported(ps, "INSERT into subfields", rt->location);
			targets[i] = *relation_column(ps, rel, rt->name, rt->location);
		}
		else
			targets[i] = rel->columns[i];
		append_ident(&sql, i ? ", " : NULL, targets[i].name);
	}
	rlbuf_append_str(&sql, ") ");
	Scope	   *target_scope = ps->scope;
	Query		q;

	if (values_have_default(sel))
		not_supported(ps, "DEFAULT in VALUES", -1);
	if (given > ncols)
		ereport(ERROR,
				errcode(ERRCODE_SYNTAX_ERROR),
				errmsg("INSERT has more expressions than target columns"));
	ps->scope = target_scope->parent;	/* the source does not see the target */
	analyze_query(ps, sel, targets, &q);
	ps->scope = target_scope;
	if (q.ncolumns < ncols)
		ereport(ERROR,
				errcode(ERRCODE_SYNTAX_ERROR),
				errmsg("INSERT has more target columns than expressions"));
	rlbuf_append_str(&sql, q.sql);
	finish_dml(ps, stmt, target_scope->items[0], ins->returning_list, ins->n_returning_list, &sql, "INSERT");
}

/*
 * join_target -- UPDATE's FROM and DELETE's USING: the scope of those relations and
 * the target's item, whose SQL (for a FROM clause) goes to from
 */
static void
join_target(ParseState *ps, Node **from_clause, size_t n, RangeItem *item, RlBuf *from)
{
	Scope	   *scope = transform_from(ps, from_clause, n, from);

	/* the target's name is taken as a FROM item's would be (an unaliased one of another schema's table is not) */
	for (int i = 0; i < scope->nitems; i++)
		if (strcmp(scope->items[i]->alias, item->alias) == 0 &&
			(item->aliased || scope->items[i]->aliased || scope->items[i]->relation == NULL ||
			 strcmp(scope->items[i]->relation, item->relation) == 0))
			ereport(ERROR,
					errcode(ERRCODE_DUPLICATE_ALIAS),
					errmsg("table name \"%s\" specified more than once", item->alias));
	scope_add(scope, item);
	ps->scope = scope;
}

static void
analyze_update(ParseState *ps, PgQuery__UpdateStmt *upd, AnalyzedStmt *stmt)
{
	RlBuf		sql,
				from;

	rlbuf_init_in(&sql, CurrentMemoryContext);
	rlbuf_init_in(&from, CurrentMemoryContext);
	transform_with(ps, upd->with_clause, &sql);
	rlbuf_append_str(&sql, "UPDATE ");
	CacheRelation *rel = target_relation(ps, upd->relation, stmt, &sql);
	RangeItem  *item = ps->scope->items[0];

	if (upd->n_from_clause)
		join_target(ps, upd->from_clause, upd->n_from_clause, item, &from);
	for (size_t i = 0; i < upd->n_target_list; i++)
	{
		PgQuery__ResTarget *rt = upd->target_list[i]->res_target;

		if (rt->n_indirection || rt->val->node_case == PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF)
			not_supported(ps, "UPDATE of subfields or several columns at once", rt->location);
		const ResultColumn *col = relation_column(ps, rel, rt->name, rt->location);

		if (rt->val->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
			not_supported(ps, "SET column = DEFAULT", rt->location);
		Expr	   *e = finish_target(ps, transform_no_aggregates(ps, rt->val, "UPDATE"), col);
		const char *value = deparse_to_string(ps, e);

		append_ident(&sql, i ? ", " : " SET ", col->name);
		rlbuf_append_str(&sql, " = ");
		rlbuf_append_str(&sql, value);
	}
	/* an updated row goes after the others, as PostgreSQL's new row version does */
	rlbuf_printf(&sql, ", %s = rl_row_after((SELECT max(%s) FROM %s))", CACHE_ROWID_COLUMN,
				 CACHE_ROWID_COLUMN, relation_sql(rel));
	if (upd->n_from_clause)
		rlbuf_printf(&sql, " FROM %s", rlbuf_cstr(&from));
	rlbuf_free(&from);
	if (upd->where_clause)
		rlbuf_printf(&sql, " WHERE %s",
					 deparse_to_string(ps, transform_clause(ps, upd->where_clause, BOOLOID, "WHERE", "WHERE")));
	finish_dml(ps, stmt, item, upd->returning_list, upd->n_returning_list, &sql, "UPDATE");
}

static void
analyze_delete(ParseState *ps, PgQuery__DeleteStmt *del, AnalyzedStmt *stmt)
{
	RlBuf		sql,
				using;

	rlbuf_init_in(&sql, CurrentMemoryContext);
	rlbuf_init_in(&using, CurrentMemoryContext);
	transform_with(ps, del->with_clause, &sql);
	rlbuf_append_str(&sql, "DELETE FROM ");
	target_relation(ps, del->relation, stmt, &sql);
	RangeItem  *item = ps->scope->items[0];

	/*
	 * USING (SQLite's DELETE has none): a target row goes when a row of the USING
	 * relations meets the condition with it, a correlated EXISTS
	 */
	if (del->n_using_clause)
		join_target(ps, del->using_clause, del->n_using_clause, item, &using);
	const char *where = del->where_clause
		? deparse_to_string(ps, transform_clause(ps, del->where_clause, BOOLOID, "WHERE", "WHERE")) : NULL;

	if (del->n_using_clause)
		rlbuf_printf(&sql, " WHERE EXISTS (SELECT 1 FROM %s%s%s)", rlbuf_cstr(&using),
					 where ? " WHERE " : "", where ? where : "");
	else if (where)
		rlbuf_printf(&sql, " WHERE %s", where);
	rlbuf_free(&using);
	finish_dml(ps, stmt, item, del->returning_list, del->n_returning_list, &sql, "DELETE");
}

/* ---------- CREATE TABLE, DROP TABLE, CREATE SCHEMA ---------- */

/*
 * declared_type -- a column's PostgreSQL type as the cache declares it ("varchar(10)";
 * numeric as numeric.h's NUMERIC_CACHE_TYPE, with its collation; json and floats
 * with the suffixes of catalog_cache.h that give them the affinity they need)
 */
static char *
declared_type(Oid type, int32_t typmod)
{
	const char *name = typio_lookup(type)->name;
	Oid			elem = typio_lookup(type)->elem;

	if (elem == NUMERICOID && typmod >= 4)	/* an array's typmod is its elements' */
		return psprintf("%s(%d,%d)", name, (typmod - 4) >> 16, (typmod - 4) & 0xffff);
	if (type == NUMERICOID && typmod >= 4)
		return psprintf(NUMERIC_CACHE_TYPE "(%d,%d) COLLATE " NUMERIC_COLLATION,
						(typmod - 4) >> 16, (typmod - 4) & 0xffff);
	if (type == NUMERICOID)
		return pstrdup(NUMERIC_CACHE_TYPE " COLLATE " NUMERIC_COLLATION);
	if ((type == VARCHAROID || type == BPCHAROID || elem == VARCHAROID || elem == BPCHAROID) && typmod >= 4)
		return psprintf("%s(%d)", name, typmod - 4);
	if (type == JSONOID || type == JSONBOID)
		return psprintf("%s" CACHE_TEXT_SUFFIX, name);
	if (type == FLOAT4OID || type == FLOAT8OID)
		return psprintf("%s" CACHE_BLOB_SUFFIX, name);
	return pstrdup(name);
}

/* sqlite_literal -- a constant as a SQLite literal in its canonical form (DEFAULT) */
static char *
sqlite_literal(const Value *v)
{
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	if (v->isnull)
		rlbuf_append_str(&b, "NULL");
	else if (v->type == BOOLOID)
		rlbuf_append_str(&b, v->u.b ? "1" : "0");
	else if (v->type == FLOAT4OID || v->type == FLOAT8OID)
		rlbuf_printf(&b, "%.17g", v->u.f);
	else if (v->type == UUIDOID || v->type == BYTEAOID)
	{
		const uint8_t *p = v->type == UUIDOID ? v->u.uuid : (const uint8_t *) v->u.s.data;
		size_t		n = v->type == UUIDOID ? 16 : v->u.s.len;

		rlbuf_append_str(&b, "X'");
		for (size_t i = 0; i < n; i++)
			rlbuf_printf(&b, "%02x", p[i]);
		rlbuf_append_str(&b, "'");
	}
	else if (typio_lookup(v->type)->typlen == 8 || typio_lookup(v->type)->category == TYPCATEGORY_NUMERIC ||
			 v->type == DATEOID || v->type == TIDOID)
		rlbuf_append_str(&b, v->type == NUMERICOID ? psprintf("'%s'", v->u.s.data)
						 : psprintf("%lld", (long long) v->u.i));
	else
	{
		char	   *text = v->type == INTERVALOID ? typio_output(v, NULL) : v->u.s.data;
		char	   *q = sqlite3_mprintf("%Q", text);

		rlbuf_append_str(&b, q);
		sqlite3_free(q);
	}
	char	   *s = pstrdup(rlbuf_cstr(&b));

	rlbuf_free(&b);
	return s;
}

/*
 * key_list -- ("a", "b") of a PRIMARY KEY / UNIQUE constraint; each named column
 * must exist. A primary key (notnull given: its columns become NOT NULL) has its
 * first column DESC: that is how the cache, which keeps every key as a UNIQUE
 * constraint, tells a primary key (pg_constraint, syscat.c); uniqueness is the same.
 */
static char *
key_list(ParseState *ps, Node **keys, size_t n, const char *colname, RlBuf *names, bool *notnull,
		 PgQuery__CreateStmt *cs)
{
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	rlbuf_append_str(&b, "(");
	for (size_t i = 0; i < (colname ? 1 : n); i++)
	{
		const char *key = colname ? colname : string_value(keys[i]);
		bool		found = false;

		for (size_t c = 0; c < cs->n_table_elts; c++)
			if (cs->table_elts[c]->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF &&
				strcmp(cs->table_elts[c]->column_def->colname, key) == 0)
			{
				found = true;
				if (notnull)
					notnull[c] = true;
			}
		if (!found)
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_COLUMN),
					errmsg("column \"%s\" named in key does not exist", key));
		rlbuf_printf(&b, "%s%s%s", i ? ", " : "", quote_ident(key), notnull && i == 0 ? " DESC" : "");
		rlbuf_printf(names, "_%s", key);
	}
	rlbuf_append_str(&b, ")");
	char	   *s = pstrdup(rlbuf_cstr(&b));

	rlbuf_free(&b);
	return s;
}

static void
add_key(ParseState *ps, PgQuery__Constraint *con, const char *colname, const char *table,
		RlBuf *constraints, bool *notnull, PgQuery__CreateStmt *cs)
{
	RlBuf		names;
	bool		primary = con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY;

	rlbuf_init_in(&names, CurrentMemoryContext);
	char	   *keys = key_list(ps, con->keys, con->n_keys, colname, &names, primary ? notnull : NULL, cs);
	const char *conname = is_set(con->conname) ? con->conname
		: primary ? psprintf("%s_pkey", table) : psprintf("%s%s_key", table, rlbuf_cstr(&names));

	rlbuf_free(&names);
	rlbuf_printf(constraints, ", CONSTRAINT %s UNIQUE %s", quote_ident(conname), keys);
}

/*
 * column_definition -- a column's SQLite definition (name, declared type, NOT NULL,
 * DEFAULT constant) for CREATE TABLE and ALTER TABLE ... ADD COLUMN; not_null: a key
 * makes it so
 */
static char *
column_definition(ParseState *ps, PgQuery__ColumnDef *cd, bool not_null)
{
	int32_t		typmod;
	Oid			type = type_from_typename(ps, cd->type_name, &typmod);
	char	   *def = NULL;

	not_null |= cd->is_not_null;
	for (size_t k = 0; k < cd->n_constraints; k++)
	{
		PgQuery__Constraint *con = cd->constraints[k]->constraint;

		switch (con->contype)
		{
			case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
				not_null = true;
				break;
			case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
			case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
			case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
				break;
			case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
				{
					Expr	   *e = coerce_expr(ps, transform_expr(ps, con->raw_expr), type, typmod,
												COERCE_ASSIGNMENT);

					/* a constant of another type (bigint DEFAULT 5): its value, cast now */
					if (e != NULL && e->kind == EXPR_CAST && e->args[0]->kind == EXPR_CONST)
						e = make_const(ExecCastValue(&e->args[0]->constval, type, typmod, false), e->location);
					if (e == NULL || e->kind != EXPR_CONST)
						not_supported(ps, "DEFAULT expressions other than constants", con->location);
					def = sqlite_literal(&e->constval);
					break;
				}
			default:
				not_supported(ps, "this column constraint", con->location);
		}
	}
	return psprintf("%s %s%s%s%s", quote_ident(cd->colname), declared_type(type, typmod),
					not_null ? " NOT NULL" : "", def ? " DEFAULT " : "", def ? def : "");
}


/*
 * creation_namespace -- the schema CREATE TABLE puts rv in: the one it names, or the
 * first of the search path that exists (3F000 if it names none or none exists)
 */
static Oid
creation_namespace(ParseState *ps, PgQuery__RangeVar *rv)
{
	Oid			nsp;

	if (is_set(rv->schemaname))
		nsp = NamespaceOid(rv->schemaname);
	else
	{
		Oid		   *path;

		nsp = SearchPathNamespaces(&path) > 0 ? path[0] : InvalidOid;
		if (nsp == InvalidOid)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_SCHEMA_NAME),
					errmsg("no schema has been selected to create in"),
					errposition(char_position(ps, rv->location)));
	}
	if (nsp == InvalidOid)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_SCHEMA_NAME),
				errmsg("schema \"%s\" does not exist", rv->schemaname),
				errposition(char_position(ps, rv->location)));
	if (nsp == PG_CATALOG_NAMESPACE)
		ereport(ERROR,
				errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("permission denied to create \"pg_catalog.%s\"", rv->relname),
				errdetail("System catalog modifications are currently disallowed."));
	if (nsp == INFORMATION_SCHEMA_NAMESPACE)
		not_supported(ps, "tables in information_schema", rv->location);
	return nsp;
}

static void
analyze_create_table(ParseState *ps, PgQuery__CreateStmt *cs, AnalyzedStmt *stmt)
{
	PgQuery__RangeVar *rv = cs->relation;
	bool		temp = strcmp(rv->relpersistence, "t") == 0 ||
		(is_set(rv->schemaname) && strcmp(rv->schemaname, "pg_temp") == 0);
	const char *table = rv->relname;
	RlBuf		sql,
				constraints;
	bool	   *notnull = palloc0(sizeof(bool) * (cs->n_table_elts + 1));

	if (cs->n_inh_relations || cs->partspec || cs->partbound || cs->of_typename)
		not_supported(ps, "INHERITS, PARTITION and OF in CREATE TABLE", rv->location);

	Oid			nsp = temp ? InvalidOid : creation_namespace(ps, rv);

	stmt->kind = STMT_UTILITY;
	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "CREATE TABLE";
	stmt->target = temp ? CACHE_WRITE_TEMP : CACHE_WRITE_MAIN;
	if (strncmp(table, "sqlite_", 7) == 0 || strcmp(table, CACHE_RELATION_TABLE) == 0 ||
		strcmp(table, CACHE_META_TABLE) == 0 || strcmp(table, CACHE_SCAN_BASE_TABLE) == 0 ||
		strcmp(table, CACHE_NAMESPACE_TABLE) == 0 ||
		(temp ? CacheTempRelationExists(table) : CacheLookupRelationIn(nsp, table) != NULL))
	{
		if (!cs->if_not_exists)
			ereport(ERROR,
					errcode(ERRCODE_DUPLICATE_TABLE),
					errmsg("relation \"%s\" already exists", table));
		skip_notice(stmt, ERRCODE_DUPLICATE_TABLE, psprintf("relation \"%s\" already exists, skipping", table));
		return;
	}
	rlbuf_init_in(&sql, CurrentMemoryContext);
	rlbuf_init_in(&constraints, CurrentMemoryContext);
	size_t		ncolumns = 0;

	for (size_t i = 0; i < cs->n_table_elts; i++)
		ncolumns += cs->table_elts[i]->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF;
	check_column_limit(ncolumns, MAX_TABLE_COLUMNS, "tables", "columns");
	for (size_t i = 0; i < cs->n_table_elts; i++)
	{
		Node	   *elt = cs->table_elts[i];

		if (elt->node_case == PG_QUERY__NODE__NODE_CONSTRAINT)
		{
			PgQuery__Constraint *con = elt->constraint;

			if (con->contype != PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY &&
				con->contype != PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE)
				not_supported(ps, "this table constraint", con->location);
			add_key(ps, con, NULL, table, &constraints, notnull, cs);
			continue;
		}
		if (elt->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF)
			not_supported(ps, node_name(elt), -1);
		for (size_t k = 0; k < elt->column_def->n_constraints; k++)
		{
			PgQuery__Constraint *con = elt->column_def->constraints[k]->constraint;

			if (con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY ||
				con->contype == PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE)
				add_key(ps, con, elt->column_def->colname, table, &constraints, notnull, cs);
		}
	}
	const char *relname = temp ? CacheSqliteName(table) : CacheTableName(nsp, table);

	rlbuf_printf(&sql, "CREATE %sTABLE %s (%s INTEGER PRIMARY KEY", temp ? "TEMP " : "",
				 quote_table(relname), CACHE_ROWID_COLUMN);
	for (size_t i = 0; i < cs->n_table_elts; i++)
	{
		if (cs->table_elts[i]->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF)
			continue;
		PgQuery__ColumnDef *cd = cs->table_elts[i]->column_def;

		for (size_t k = i + 1; k < cs->n_table_elts; k++)
			if (cs->table_elts[k]->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF &&
				strcmp(cs->table_elts[k]->column_def->colname, cd->colname) == 0)
				ereport(ERROR,
						errcode(ERRCODE_DUPLICATE_COLUMN),
						errmsg("column \"%s\" specified more than once", cd->colname));
		rlbuf_printf(&sql, ", %s", column_definition(ps, cd, notnull[i]));
	}
	rlbuf_printf(&sql, "%s)", rlbuf_cstr(&constraints));
	rlbuf_free(&constraints);
	if (temp)
	{
		stmt->temp_table = table;
		stmt->on_commit_drop = cs->oncommit == PG_QUERY__ON_COMMIT_ACTION__ONCOMMIT_DROP;
	}
	else
	{
		Expr	   *args[2] = {make_const(typio_string(TEXTOID, relname, strlen(relname)), -1),
		make_const(typio_string(TEXTOID, rlbuf_cstr(&sql), sql.len), -1)};

		add_sql(ps, stmt, psprintf("INSERT INTO main.%s (relname, sql) VALUES (%s, %s)", CACHE_RELATION_TABLE,
								   deparse_to_string(ps, args[0]), deparse_to_string(ps, args[1])));
	}
	add_sql(ps, stmt, rlbuf_cstr(&sql));
	rlbuf_free(&sql);
}

/* has_column -- whether rel has a column of that name */
static bool
has_column(const CacheRelation *rel, const char *name)
{
	for (int i = 0; i < rel->ncolumns; i++)
		if (strcmp(rel->columns[i].name, name) == 0)
			return true;
	return false;
}

/*
 * analyze_alter_table -- ALTER TABLE name ADD COLUMN / DROP COLUMN, each action one
 * SQLite ALTER TABLE; the executor runs them outside the capture of changes and then
 * records the table's new CREATE statement in rl_relation (CacheAlterTableEnd), which
 * is what carries the change to the writer. A column is dropped only while the
 * transaction has not changed the table's rows: they would not fit it any more.
 */
static void
analyze_alter_table(ParseState *ps, PgQuery__AlterTableStmt *as, AnalyzedStmt *stmt)
{
	PgQuery__RangeVar *rv = as->relation;
	const char *schema = is_set(rv->schemaname) ? rv->schemaname : NULL;
	CacheRelation *rel = CacheLookupRelation(schema, rv->relname);

	stmt->kind = STMT_UTILITY;
	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "ALTER TABLE";
	stmt->target = CACHE_WRITE_MAIN;
	if (as->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
		not_supported(ps, "ALTER of anything but a table", rv->location);
	if (rel == NULL && as->missing_ok)
	{
		skip_notice(stmt, ERRCODE_SUCCESSFUL_COMPLETION, psprintf("relation \"%s\" does not exist, skipping", rv->relname));
		return;
	}
	if (rel == NULL && schema && strcmp(schema, "pg_temp") != 0 && NamespaceOid(schema) == InvalidOid)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_SCHEMA_NAME),
				errmsg("schema \"%s\" does not exist", schema));
	if (rel == NULL)
		lookup_relation(ps, rv);	/* its error */
	check_writable(ps, rel, rv->location);
	size_t		ncolumns = (size_t) rel->ncolumns;

	for (size_t i = 0; i < as->n_cmds; i++)
		ncolumns += as->cmds[i]->alter_table_cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumn;
	check_column_limit(ncolumns, MAX_TABLE_COLUMNS, "tables", "columns");
	/* PostgreSQL's passes: the drops first, then the rest, each in the order written */
	const char **dropped = palloc(sizeof(char *) * (as->n_cmds + 1));
	size_t		ndropped = 0;

	for (size_t n = 0; n < 2 * as->n_cmds; n++)
	{
		PgQuery__AlterTableCmd *cmd = as->cmds[n % as->n_cmds]->alter_table_cmd;
		const char *action = NULL;

		if ((cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumn) != (n < as->n_cmds))
			continue;

		if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumn)
		{
			PgQuery__ColumnDef *cd = cmd->def->column_def;

			for (size_t k = 0; k < cd->n_constraints; k++)
				if (cd->constraints[k]->constraint->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY ||
					cd->constraints[k]->constraint->contype == PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE)
					not_supported(ps, "ADD COLUMN with a key", cd->location);
			bool		exists = has_column(rel, cd->colname);

			for (size_t k = 0; k < ndropped; k++)
				exists &= strcmp(dropped[k], cd->colname) != 0;
			if (exists)
			{
				if (!cmd->missing_ok)
					ereport(ERROR,
							errcode(ERRCODE_DUPLICATE_COLUMN),
							errmsg("column \"%s\" of relation \"%s\" already exists", cd->colname, rel->name));
				skip_notice(stmt, ERRCODE_DUPLICATE_COLUMN, psprintf("column \"%s\" of relation \"%s\" already exists, skipping",
										cd->colname, rel->name));
				continue;
			}
			action = psprintf("ADD COLUMN %s", column_definition(ps, cd, false));
		}
		else if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumn)
		{
			bool		exists = has_column(rel, cmd->name);

			for (size_t k = 0; k < ndropped; k++)
				exists &= strcmp(dropped[k], cmd->name) != 0;
			if (!exists)
			{
				if (!cmd->missing_ok)
					ereport(ERROR,
							errcode(ERRCODE_UNDEFINED_COLUMN),
							errmsg("column \"%s\" of relation \"%s\" does not exist", cmd->name, rel->name));
				skip_notice(stmt, ERRCODE_SUCCESSFUL_COMPLETION, psprintf("column \"%s\" of relation \"%s\" does not exist, skipping",
										cmd->name, rel->name));
				continue;
			}
			if (!rel->temp && CacheTransactionChanged(rel->table))
				not_supported(ps, "DROP COLUMN of a table whose rows the transaction changed", rv->location);
			action = psprintf("DROP COLUMN %s", quote_ident(cmd->name));
			dropped[ndropped++] = cmd->name;
		}
		else
			not_supported(ps, "this ALTER TABLE action", rv->location);
		add_sql(ps, stmt, psprintf("ALTER TABLE %s %s", relation_sql(rel), action));
	}
	if (stmt->nsql == 0)
		return;					/* only IF [NOT] EXISTS that skipped: the NOTICE */
	if (rel->temp)
		stmt->target = CACHE_WRITE_TEMP;
	else
		stmt->alter_table = rel->table;
}

static void drop_catalog_table(ParseState *ps, AnalyzedStmt *stmt, const char *table);

/*
 * DROP TABLE | VIEW | INDEX [IF EXISTS] name, ...: RockLake has tables only (a key's
 * index goes with its table), so VIEW and INDEX drop nothing but answer as PostgreSQL
 * does for the names they are given: missing (42P01, 42704, or the NOTICE) or of
 * another kind (42809)
 */
static void
analyze_drop(ParseState *ps, PgQuery__DropStmt *ds, AnalyzedStmt *stmt)
{
	CacheRelation **rels = palloc(sizeof(CacheRelation *) * (ds->n_objects + 1));
	bool		view = ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW;
	bool		index = ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX;
	const char *kind = view ? "view" : index ? "index" : "table";

	stmt->kind = STMT_UTILITY;
	stmt->utility = UTIL_CACHE;
	stmt->command_tag = view ? "DROP VIEW" : index ? "DROP INDEX" : "DROP TABLE";
	stmt->target = CACHE_WRITE_MAIN;
	/* every name first (an error drops nothing), each table once, as PostgreSQL's RemoveRelations */
	for (size_t i = 0; i < ds->n_objects; i++)
	{
		PgQuery__List *names = ds->objects[i]->list;
		const char *name = string_value(names->items[names->n_items - 1]);
		const char *schema = names->n_items > 1 ? string_value(names->items[names->n_items - 2]) : NULL;
		CacheRelation *rel = CacheLookupRelation(schema, name);
		bool		no_schema = rel == NULL && schema && strcmp(schema, "pg_temp") != 0 &&
			NamespaceOid(schema) == InvalidOid;
		const char *what = psprintf("%s \"%s\"", no_schema ? "schema" : kind, no_schema ? schema : name);

		rels[i] = rel;
		if (rel != NULL && (view || index))
			ereport(ERROR,
					errcode(ERRCODE_WRONG_OBJECT_TYPE),
					errmsg("\"%s\" is not %s", name, view ? "a view" : "an index"),
					errhint("Use DROP TABLE to remove a table."));
		if (rel == NULL && index && !no_schema &&
			SystemRegLookup(REGCLASSOID, schema ? psprintf("%s.%s", quote_ident(schema), quote_ident(name))
							: quote_ident(name)) != InvalidOid)
			not_supported(ps, "DROP INDEX of a key's index", -1);
		if (rel == NULL)
		{
			if (!ds->missing_ok)
				ereport(ERROR,
						errcode(no_schema ? ERRCODE_INVALID_SCHEMA_NAME : index ? ERRCODE_UNDEFINED_OBJECT
								: ERRCODE_UNDEFINED_TABLE),
						errmsg("%s does not exist", what));
			skip_notice(stmt, ERRCODE_SUCCESSFUL_COMPLETION, psprintf("%s does not exist, skipping", what));
			continue;
		}
		check_writable(ps, rel, -1);
		for (size_t k = 0; k < i; k++)
			if (rels[k] && rels[k]->temp == rel->temp && strcmp(rels[k]->table, rel->table) == 0)
				rels[i] = NULL;
		if (rels[i] == NULL)
			continue;
		if (rel->temp)
			stmt->target = CACHE_WRITE_TEMP;
		else
			drop_catalog_table(ps, stmt, rel->table);
		add_sql(ps, stmt, psprintf("DROP TABLE %s", relation_sql(rel)));
	}
}

/*
 * TRUNCATE [TABLE] [ONLY] name [*], ...: each table's rows deleted, as DELETE without
 * WHERE (no sequences to restart; nothing references a table, so CASCADE changes nothing)
 */
static void
analyze_truncate(ParseState *ps, PgQuery__TruncateStmt *ts, AnalyzedStmt *stmt)
{
	bool		any_main = false,
				any_temp = false;

	stmt->kind = STMT_UTILITY;
	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "TRUNCATE TABLE";
	for (size_t i = 0; i < ts->n_relations; i++)
	{
		PgQuery__RangeVar rv = *ts->relations[i]->range_var;

		rv.location = -1;		/* PostgreSQL's TRUNCATE errors have no position */

		CacheRelation *rel = lookup_relation(ps, &rv);

		check_writable(ps, rel, -1);
		any_main |= !rel->temp;
		any_temp |= rel->temp;
		add_sql(ps, stmt, psprintf("DELETE FROM %s", relation_sql(rel)));
	}
	if (any_main && any_temp)
		not_supported(ps, "TRUNCATE of temporary and other tables together", -1);
	stmt->target = any_main ? CACHE_WRITE_MAIN : CACHE_WRITE_TEMP;
}

/* text_sql -- a string as a constant of the statement's SQL */
static const char *
text_sql(ParseState *ps, const char *text)
{
	return deparse_to_string(ps, make_const(typio_string(TEXTOID, text, strlen(text)), -1));
}

/* drop_catalog_table -- the catalog's table table (a cache name) goes with its rl_relation row */
static void
drop_catalog_table(ParseState *ps, AnalyzedStmt *stmt, const char *table)
{
	add_sql(ps, stmt, psprintf("DELETE FROM main.%s WHERE relname = %s", CACHE_RELATION_TABLE, text_sql(ps, table)));
	stmt->dropped = stmt->dropped ? repalloc(stmt->dropped, sizeof(char *) * (size_t) (stmt->ndropped + 1))
		: palloc(sizeof(char *));
	stmt->dropped[stmt->ndropped++] = table;
}

/* ---------- schemas ---------- */

/* role_oid -- the role a RoleSpec names (the session's user or pg_database_owner; 42704 else) */
static Oid
role_oid(PgQuery__RoleSpec *role, const char **name)
{
	switch (role->roletype)
	{
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CURRENT_ROLE:
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CURRENT_USER:
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_SESSION_USER:
			*name = MyUserName;
			return BOOTSTRAP_SUPERUSERID;
		case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING:
			*name = role->rolename;
			if (strcmp(role->rolename, MyUserName) == 0)
				return BOOTSTRAP_SUPERUSERID;
			if (strcmp(role->rolename, "pg_database_owner") == 0)
				return ROLE_PG_DATABASE_OWNER;
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_OBJECT),
					errmsg("role \"%s\" does not exist", role->rolename));
		default:
			ereport(ERROR,
					errcode(ERRCODE_RESERVED_NAME),
					errmsg("role name \"public\" is reserved"));
	}
	return InvalidOid;
}

/* check_schema_name -- 42939 for a name PostgreSQL keeps for its own schemas */
static void
check_schema_name(const char *name)
{
	if (strncmp(name, "pg_", 3) == 0)
		ereport(ERROR,
				errcode(ERRCODE_RESERVED_NAME),
				errmsg("unacceptable schema name \"%s\"", name),
				errdetail("The prefix \"pg_\" is reserved for system schemas."));
}

/*
 * schema_of -- the schema of that name that can be altered or dropped: 3F000 if there
 * is none (InvalidOid with missing_ok), 0A000 for public, pg_catalog and
 * information_schema, which RockLake keeps as they are
 */
static Oid
schema_of(ParseState *ps, const char *name, bool missing_ok, const char *command)
{
	Oid			nsp = NamespaceOid(name);

	if (nsp == InvalidOid && !missing_ok)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_SCHEMA_NAME),
				errmsg("schema \"%s\" does not exist", name));
	if (nsp == PG_PUBLIC_NAMESPACE || nsp == PG_CATALOG_NAMESPACE || nsp == INFORMATION_SCHEMA_NAMESPACE)
		not_supported(ps, psprintf("%s of %s", command, name), -1);
	return nsp;
}

/* CREATE SCHEMA [IF NOT EXISTS] [name] [AUTHORIZATION role]: a row of rl_namespace */
static void
analyze_create_schema(ParseState *ps, PgQuery__CreateSchemaStmt *cs, AnalyzedStmt *stmt)
{
	const char *role_name = MyUserName;
	Oid			owner = cs->authrole ? role_oid(cs->authrole, &role_name) : BOOTSTRAP_SUPERUSERID;
	const char *name = is_set(cs->schemaname) ? cs->schemaname : role_name;

	if (cs->n_schema_elts)
		not_supported(ps, "CREATE SCHEMA with elements", -1);
	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "CREATE SCHEMA";
	stmt->target = CACHE_WRITE_MAIN;
	check_schema_name(name);
	if (NamespaceOid(name) != InvalidOid)
	{
		if (!cs->if_not_exists)
			ereport(ERROR,
					errcode(ERRCODE_DUPLICATE_SCHEMA),
					errmsg("schema \"%s\" already exists", name));
		skip_notice(stmt, ERRCODE_DUPLICATE_SCHEMA, psprintf("schema \"%s\" already exists, skipping", name));
		return;
	}
	/* OIDs from FirstNormalObjectId on, as PostgreSQL's; the id is in the tables' names for good */
	add_sql(ps, stmt, psprintf("INSERT INTO main.%s (nspid, nspname, nspowner) SELECT coalesce(max(nspid), %d) + 1,"
							   " %s, %u FROM main.%s", CACHE_NAMESPACE_TABLE, FirstNormalObjectId - 1,
							   text_sql(ps, name), owner, CACHE_NAMESPACE_TABLE));
}

/*
 * DROP SCHEMA [IF EXISTS] name, ... [CASCADE | RESTRICT]: its tables are what depends
 * on a schema; without CASCADE any is 2BP01, with it each goes as DROP TABLE's would
 */
static void
analyze_drop_schema(ParseState *ps, PgQuery__DropStmt *ds, AnalyzedStmt *stmt)
{
	RlBuf		detail;
	int			ndependent = 0,
				nschemas = 0;
	const char *first = NULL;

	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "DROP SCHEMA";
	stmt->target = CACHE_WRITE_MAIN;
	rlbuf_init_in(&detail, CurrentMemoryContext);
	Oid		   *nsps = palloc(sizeof(Oid) * (ds->n_objects + 1));

	for (size_t i = 0; i < ds->n_objects; i++)
		if ((nsps[i] = schema_of(ps, string_value(ds->objects[i]), ds->missing_ok, "DROP SCHEMA")) == InvalidOid)
			skip_notice(stmt, ERRCODE_SUCCESSFUL_COMPLETION,
						psprintf("schema \"%s\" does not exist, skipping", string_value(ds->objects[i])));
	/* PostgreSQL reports what depends on the last schema named first */
	for (size_t i = ds->n_objects; i-- > 0;)
	{
		const char *name = string_value(ds->objects[i]);
		char	  **tables;

		if (nsps[i] == InvalidOid)
			continue;
		nschemas++;
		first = name;
		for (int t = 0, n = NamespaceTables(nsps[i], &tables); t < n; t++)
		{
			char	   *table = pstrdup(cache_unqualified_name(tables[t]));

			table = cache_pg_name(table, table);
			table = IdentifierIsSafe(table) ? table : quote_table(table);
			/* qualified when it is not visible, each name quoted where it must be */
			const char *shown = SearchPathRank(name) > 0 ? table
				: psprintf("%s.%s", IdentifierIsSafe(name) ? name : quote_table(name), table);

			if (ds->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE)
				rlbuf_printf(&detail, "%sdrop cascades to table %s", ndependent++ ? "\n" : "", shown);
			else
				rlbuf_printf(&detail, "%stable %s depends on schema %s", ndependent++ ? "\n" : "", shown, name);
			drop_catalog_table(ps, stmt, tables[t]);
			add_sql(ps, stmt, psprintf("DROP TABLE main.%s", quote_table(tables[t])));
		}
		add_sql(ps, stmt, psprintf("DELETE FROM main.%s WHERE nspid = %u", CACHE_NAMESPACE_TABLE, nsps[i]));
	}
	if (ndependent && ds->behavior != PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE)
		ereport(ERROR,
				errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
				nschemas > 1 ? errmsg("cannot drop desired object(s) because other objects depend on them")
				: errmsg("cannot drop schema %s because other objects depend on it", first),
				errdetail("%s", rlbuf_cstr(&detail)),
				errhint("Use DROP ... CASCADE to drop the dependent objects too."));
	if (ndependent == 1)
		stmt->run_notice = rlbuf_cstr(&detail);
	else if (ndependent)
	{
		stmt->run_notice = psprintf("drop cascades to %d other objects", ndependent);
		stmt->run_notice_detail = rlbuf_cstr(&detail);
	}
	if (stmt->nsql == 0)
		stmt->target = CACHE_READ;
}

/* ALTER SCHEMA name RENAME TO new: the row's name (its tables are named by its id) */
static void
analyze_rename_schema(ParseState *ps, PgQuery__RenameStmt *rs, AnalyzedStmt *stmt)
{
	Oid			nsp = schema_of(ps, rs->subname, false, "ALTER SCHEMA");

	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "ALTER SCHEMA";
	stmt->target = CACHE_WRITE_MAIN;
	if (NamespaceOid(rs->newname) != InvalidOid)
		ereport(ERROR,
				errcode(ERRCODE_DUPLICATE_SCHEMA),
				errmsg("schema \"%s\" already exists", rs->newname));
	check_schema_name(rs->newname);
	add_sql(ps, stmt, psprintf("UPDATE main.%s SET nspname = %s WHERE nspid = %u", CACHE_NAMESPACE_TABLE,
							   text_sql(ps, rs->newname), nsp));
}

/* ALTER SCHEMA name OWNER TO role */
static void
analyze_schema_owner(ParseState *ps, PgQuery__AlterOwnerStmt *os, AnalyzedStmt *stmt)
{
	const char *role_name;
	Oid			nsp = schema_of(ps, string_value(os->object), false, "ALTER SCHEMA");
	Oid			owner = role_oid(os->newowner, &role_name);

	stmt->utility = UTIL_CACHE;
	stmt->command_tag = "ALTER SCHEMA";
	stmt->target = CACHE_WRITE_MAIN;
	add_sql(ps, stmt, psprintf("UPDATE main.%s SET nspowner = %u WHERE nspid = %u", CACHE_NAMESPACE_TABLE,
							   owner, nsp));
}

/* ---------- COPY of a table ---------- */

static void
analyze_copy_table(ParseState *ps, PgQuery__CopyStmt *cs, AnalyzedStmt *stmt)
{
	CacheRelation *rel = lookup_relation(ps, cs->relation);
	int			ncols = cs->n_attlist ? (int) cs->n_attlist : rel->ncolumns;
	ResultColumn *cols = palloc(sizeof(ResultColumn) * (size_t) (ncols ? ncols : 1));
	RlBuf		sql;

	for (int i = 0; i < ncols; i++)
		cols[i] = cs->n_attlist ? *relation_column(ps, rel, string_value(cs->attlist[i]), cs->relation->location)
			: rel->columns[i];
	rlbuf_init_in(&sql, CurrentMemoryContext);
	if (cs->is_from)
	{
		check_writable(ps, rel, cs->relation->location);
		rlbuf_printf(&sql, "INSERT INTO %s (", relation_sql(rel));
		for (int i = 0; i < ncols; i++)
			append_ident(&sql, i ? ", " : NULL, cols[i].name);
		rlbuf_append_str(&sql, ") VALUES (");
		for (int i = 0; i < ncols; i++)
		{
			Expr	   *p = make_expr(EXPR_PARAM, cols[i].type, -1);

			p->paramno = i;
			if (cols[i].typmod >= 0)
			{
				/* varchar(n), numeric(p, s): the value is the column's, as an INSERT's */
				rlbuf_append_str(&sql, i ? ", " : "");
				deparse(ps, &sql, coerce_expr(ps, p, cols[i].type, cols[i].typmod, COERCE_ASSIGNMENT));
			}
			else
				rlbuf_printf(&sql, "%s?%d", i ? ", " : "", add_bind(ps, p));
		}
		rlbuf_append_str(&sql, ")");
		stmt->kind = STMT_COPY_IN;
		stmt->name = rel->name;
		stmt->target = rel->temp ? CACHE_WRITE_TEMP : CACHE_WRITE_MAIN;
		stmt->ncolumns = ncols;
		stmt->columns = cols;
		add_sql(ps, stmt, rlbuf_cstr(&sql));
	}
	else
	{
		AnalyzedStmt *q = palloc0(sizeof(AnalyzedStmt));

		rlbuf_append_str(&sql, "SELECT ");
		for (int i = 0; i < ncols; i++)
			append_ident(&sql, i ? ", " : NULL, cols[i].name);
		rlbuf_printf(&sql, " FROM %s", relation_sql(rel));
		if (rel->sql == NULL)
			rlbuf_printf(&sql, " ORDER BY %s", CACHE_ROWID_COLUMN);
		q->kind = STMT_ROWS;
		q->command_tag = "SELECT";
		q->ncolumns = ncols;
		q->columns = cols;
		q->target = CACHE_READ;
		add_sql(ps, q, rlbuf_cstr(&sql));
		stmt->kind = STMT_COPY_OUT;
		stmt->copy_query = q;
	}
	rlbuf_free(&sql);
}

/* statement_uses_cache -- whether analysing node reads the catalog */
static bool
statement_uses_cache(Node *node)
{
	switch (node->node_case)
	{
		case PG_QUERY__NODE__NODE_SELECT_STMT:
			return needs_cache(node->select_stmt);
		case PG_QUERY__NODE__NODE_INSERT_STMT:
		case PG_QUERY__NODE__NODE_UPDATE_STMT:
		case PG_QUERY__NODE__NODE_DELETE_STMT:
		case PG_QUERY__NODE__NODE_CREATE_STMT:
		case PG_QUERY__NODE__NODE_DROP_STMT:
		case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
		case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
		case PG_QUERY__NODE__NODE_RENAME_STMT:
		case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT:
		case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
			return true;
		case PG_QUERY__NODE__NODE_COPY_STMT:
			return node->copy_stmt->relation != NULL ||
				(node->copy_stmt->query->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
				 needs_cache(node->copy_stmt->query->select_stmt));
		default:
			return false;
	}
}

static void
analyze_select(ParseState *ps, PgQuery__SelectStmt *sel, AnalyzedStmt *stmt)
{
	Plan	   *plan = palloc0(sizeof(Plan));

	if (needs_cache(sel))
	{
		analyze_select_sql(ps, sel, stmt);
		return;
	}
	if (sel->into_clause)
		not_supported(ps, "SELECT INTO", -1);
	if (sel->n_window_clause)
		not_supported(ps, "WINDOW", -1);
	if (sel->n_locking_clause)
		not_supported(ps, "FOR UPDATE/SHARE", -1);
	stmt->kind = STMT_ROWS;
	stmt->command_tag = "SELECT";
	stmt->plan = plan;
	if (sel->n_values_lists > 0)
		analyze_values(ps, sel, stmt, plan);
	else
	{
		check_column_limit(sel->n_target_list, MAX_TARGET_ENTRIES, "target lists", "entries");
		plan->ntargets = (int) sel->n_target_list;
		plan->targets = palloc(sizeof(Expr *) * (sel->n_target_list ? sel->n_target_list : 1));
		stmt->ncolumns = plan->ntargets;
		stmt->columns = palloc0(sizeof(ResultColumn) * (sel->n_target_list ? sel->n_target_list : 1));
		for (int i = 0; i < plan->ntargets; i++)
		{
			PgQuery__ResTarget *rt = sel->target_list[i]->res_target;
			Expr	   *srf_before = ps->srf;
			Expr	   *e = transform_expr(ps, rt->val);

			if (ps->srf != srf_before)
			{
				if (e != ps->srf)
					not_supported(ps, "a set-returning function inside an expression", rt->location);
				plan->srf = e;
				e = make_expr(EXPR_SRF_VALUE, e->type, e->location);
			}
			if (e->type == UNKNOWNOID)
				e = coerce_expr(ps, e, TEXTOID, -1, COERCE_IMPLICIT);
			plan->targets[i] = e;
			stmt->columns[i].name = is_set(rt->name) ? rt->name : figure_colname(rt->val);
			stmt->columns[i].type = e->type;
			stmt->columns[i].typmod = e->typmod;
		}
		if (sel->where_clause)
			plan->where = transform_clause(ps, sel->where_clause, BOOLOID, "WHERE", "WHERE");
	}
	plan->limit = transform_limit(ps, sel->limit_count, "LIMIT");
	plan->offset = transform_limit(ps, sel->limit_offset, "OFFSET");
}

/* set_value_text -- the value of SET name = a, b as GUC text ("a, b") */
static const char *
set_value_text(ParseState *ps, PgQuery__VariableSetStmt *vs)
{
	RlBuf		buf;

	rlbuf_init_in(&buf, CurrentMemoryContext);
	for (size_t i = 0; i < vs->n_args; i++)
	{
		Node	   *arg = vs->args[i];

		if (arg->node_case == PG_QUERY__NODE__NODE_TYPE_CAST)
			arg = arg->type_cast->arg;	/* SET x = interval '1s' and the like */
		if (arg->node_case != PG_QUERY__NODE__NODE_A_CONST)
			not_supported(ps, "this SET value", -1);
		Expr	   *c = transform_const(ps, arg->a_const);
		const char *value = typio_output(&c->constval, NULL);

		/* a list of names, each quoted where it must be (PostgreSQL's GUC_LIST_QUOTE) */
		if (strcmp(vs->name, "search_path") == 0 && arg->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL &&
			!IdentifierIsSafe(value))
			value = quote_table(value);
		rlbuf_printf(&buf, "%s%s", i ? ", " : "", value);
	}
	char	   *s = pstrdup(rlbuf_cstr(&buf));

	rlbuf_free(&buf);
	return s;
}

static void
analyze_set(ParseState *ps, PgQuery__VariableSetStmt *vs, AnalyzedStmt *stmt)
{
	stmt->name = vs->name;
	switch (vs->kind)
	{
		case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE:
			stmt->utility = UTIL_SET;
			stmt->value = set_value_text(ps, vs);
			break;
		case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT:
		case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET:
			stmt->utility = UTIL_RESET;
			break;
		case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL:
			stmt->utility = UTIL_RESET_ALL;
			break;
		case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI:
			if (strcmp(vs->name, "TRANSACTION SNAPSHOT") == 0)
				not_supported(ps, "SET TRANSACTION SNAPSHOT", -1);
			stmt->utility = UTIL_SET_IGNORED;
			break;
		default:
			not_supported(ps, "SET FROM CURRENT", -1);
	}
	stmt->command_tag = vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE ||
		vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI ? "SET" : "RESET";
	if (vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT)
		stmt->command_tag = "SET";
}

static void
analyze_transaction(ParseState *ps, PgQuery__TransactionStmt *ts, AnalyzedStmt *stmt)
{
	static const struct
	{
		PgQuery__TransactionStmtKind kind;
		UtilityKind utility;
		const char *tag;
	}			map[] = {
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN, UTIL_BEGIN, "BEGIN"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START, UTIL_BEGIN, "START TRANSACTION"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT, UTIL_COMMIT, "COMMIT"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK, UTIL_ROLLBACK, "ROLLBACK"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT, UTIL_SAVEPOINT, "SAVEPOINT"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE, UTIL_RELEASE, "RELEASE"},
		{PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO, UTIL_ROLLBACK_TO, "ROLLBACK"},
	};

	if (ts->chain)
		not_supported(ps, "AND CHAIN", -1);
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].kind == ts->kind)
		{
			stmt->utility = map[i].utility;
			stmt->command_tag = map[i].tag;
			stmt->name = ts->savepoint_name;
			return;
		}
	not_supported(ps, "two-phase commit", -1);
}

static void
analyze_copy(ParseState *ps, PgQuery__CopyStmt *cs, AnalyzedStmt *stmt)
{
	if (is_set(cs->filename) || cs->is_program)
		not_supported(ps, "COPY to or from a file or program", -1);
	if (cs->where_clause)
		not_supported(ps, "COPY FROM ... WHERE", -1);
	if (cs->query && cs->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		not_supported(ps, "COPY of this statement", -1);

	CopyFormat	format = COPY_FORMAT_TEXT;

	for (size_t i = 0; i < cs->n_options; i++)
	{
		PgQuery__DefElem *d = cs->options[i]->def_elem;

		if (strcmp(d->defname, "format") == 0)
		{
			const char *f = string_value(d->arg);

			if (strcmp(f, "csv") == 0)
				format = COPY_FORMAT_CSV;
			else if (strcmp(f, "binary") == 0)
				format = COPY_FORMAT_BINARY;
			else if (strcmp(f, "text") != 0)
				ereport(ERROR,
						errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("COPY format \"%s\" not recognized", f),
						errposition(char_position(ps, d->location)));
		}
	}
	copy_options_init(&stmt->copy, format);
	for (size_t i = 0; i < cs->n_options; i++)
	{
		PgQuery__DefElem *d = cs->options[i]->def_elem;
		const char *v = d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_STRING ? d->arg->string->sval : NULL;

		if (strcmp(d->defname, "format") == 0)
			continue;
		else if (strcmp(d->defname, "header") == 0)
			stmt->copy.header = d->arg == NULL ||
				(d->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN && d->arg->boolean->boolval) ||
				(d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER && d->arg->integer->ival) ||
				(v && (strcmp(v, "true") == 0 || strcmp(v, "on") == 0));
		else if (strcmp(d->defname, "delimiter") == 0 && v && strlen(v) == 1)
			stmt->copy.delim = v[0];
		else if (strcmp(d->defname, "null") == 0 && v)
			stmt->copy.null_string = v;
		else if (strcmp(d->defname, "quote") == 0 && v && strlen(v) == 1)
			stmt->copy.quote = v[0];
		else if (strcmp(d->defname, "escape") == 0 && v && strlen(v) == 1)
			stmt->copy.escape = v[0];
		else
			ereport(ERROR,
					errcode(ERRCODE_SYNTAX_ERROR),
					errmsg("option \"%s\" not recognized", d->defname),
					errposition(char_position(ps, d->location)));
	}
	stmt->kind = STMT_COPY_OUT;
	stmt->command_tag = "COPY";
	if (cs->relation)
		analyze_copy_table(ps, cs, stmt);
	else
	{
		stmt->copy_query = palloc0(sizeof(AnalyzedStmt));
		analyze_select(ps, cs->query->select_stmt, stmt->copy_query);
	}
}

/* unsupported_statement -- 0A000 naming the statement as its command tag does */
static void
unsupported_statement(ParseState *ps, Node *node)
{
	static const struct
	{
		PgQuery__Node__NodeCase node_case;
		const char *name;
	}			names[] = {
		{PG_QUERY__NODE__NODE_MERGE_STMT, "MERGE"},
		{PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT, "CREATE TABLE AS"},
		{PG_QUERY__NODE__NODE_INDEX_STMT, "CREATE INDEX"},
		{PG_QUERY__NODE__NODE_VIEW_STMT, "CREATE VIEW"},
		{PG_QUERY__NODE__NODE_CREATE_SEQ_STMT, "CREATE SEQUENCE"},
		{PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT, "CREATE FUNCTION"},
		{PG_QUERY__NODE__NODE_DO_STMT, "DO"},
		{PG_QUERY__NODE__NODE_EXPLAIN_STMT, "EXPLAIN"},
		{PG_QUERY__NODE__NODE_PREPARE_STMT, "PREPARE"},
		{PG_QUERY__NODE__NODE_EXECUTE_STMT, "EXECUTE"},
		{PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT, "DECLARE CURSOR"},
		{PG_QUERY__NODE__NODE_FETCH_STMT, "FETCH"},
		{PG_QUERY__NODE__NODE_CLOSE_PORTAL_STMT, "CLOSE CURSOR"},
		{PG_QUERY__NODE__NODE_LISTEN_STMT, "LISTEN"},
		{PG_QUERY__NODE__NODE_NOTIFY_STMT, "NOTIFY"},
		{PG_QUERY__NODE__NODE_UNLISTEN_STMT, "UNLISTEN"},
		{PG_QUERY__NODE__NODE_VACUUM_STMT, "VACUUM"},
		{PG_QUERY__NODE__NODE_LOCK_STMT, "LOCK TABLE"},
		{PG_QUERY__NODE__NODE_CREATE_ROLE_STMT, "CREATE ROLE"},
		{PG_QUERY__NODE__NODE_ALTER_ROLE_STMT, "ALTER ROLE"},
		{PG_QUERY__NODE__NODE_DROP_ROLE_STMT, "DROP ROLE"},
		{PG_QUERY__NODE__NODE_GRANT_STMT, "GRANT"},
		{PG_QUERY__NODE__NODE_COMMENT_STMT, "COMMENT"},
		{PG_QUERY__NODE__NODE_CHECK_POINT_STMT, "CHECKPOINT"},
		{PG_QUERY__NODE__NODE_CALL_STMT, "CALL"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].node_case == node->node_case)
			not_supported(ps, names[i].name, -1);
	/* DROP TABLE, VIEW, INDEX and SCHEMA have their analysis: this is another kind's */
	if (node->node_case == PG_QUERY__NODE__NODE_DROP_STMT)
		not_supported(ps, "DROP", -1);
	not_supported(ps, node_name(node), -1);
}

AnalyzedStmt *
AnalyzeStatement(const RawStatement *raw, const char *query_string,
				 const Oid *paramtypes, int nparams)
{
	ParseState	ps = {.query = query_string, .params_allowed = nparams >= 0,
	.binds = palloc(sizeof(Expr *)), .min_ref_level = INT_MAX};
	AnalyzedStmt *stmt = palloc0(sizeof(AnalyzedStmt));
	Node	   *node = raw->node;

	if (nparams < 0)
		nparams = 0;
	ps.nparams = nparams;
	ps.paramtypes = palloc0(sizeof(Oid) * (size_t) (nparams ? nparams : 1));
	ps.params_seen = palloc0(sizeof(Expr *) * (size_t) (nparams ? nparams : 1));
	if (nparams)
		memcpy(ps.paramtypes, paramtypes, sizeof(Oid) * (size_t) nparams);
	for (int i = 0; i < nparams; i++)
		if (ps.paramtypes[i] != InvalidOid && typio_lookup(ps.paramtypes[i]) == NULL)
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_OBJECT),
					errmsg("type with OID %u does not exist", ps.paramtypes[i]));
	stmt->kind = STMT_UTILITY;
	bool		uses_cache = statement_uses_cache(node);

	/* the catalog as the transaction sees it, its own writes included */
	if (uses_cache)
		CacheStatementBegin(CACHE_ANALYZE);
	switch (node->node_case)
	{
		case PG_QUERY__NODE__NODE_SELECT_STMT:
			analyze_select(&ps, node->select_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
			analyze_set(&ps, node->variable_set_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
			stmt->kind = STMT_ROWS;
			stmt->command_tag = "SHOW";
			stmt->name = node->variable_show_stmt->name;
			stmt->utility = strcmp(stmt->name, "all") == 0 ? UTIL_SHOW_ALL : UTIL_SHOW;
			stmt->ncolumns = stmt->utility == UTIL_SHOW_ALL ? 3 : 1;
			stmt->columns = palloc0(sizeof(ResultColumn) * 3);
			stmt->columns[0] = (ResultColumn) {stmt->utility == UTIL_SHOW_ALL ? "name" : stmt->name, TEXTOID, -1};
			stmt->columns[1] = (ResultColumn) {"setting", TEXTOID, -1};
			stmt->columns[2] = (ResultColumn) {"description", TEXTOID, -1};
			break;
		case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
			analyze_transaction(&ps, node->transaction_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_DISCARD_STMT:
			{
				PgQuery__DiscardMode mode = node->discard_stmt->target;

				stmt->utility = mode == PG_QUERY__DISCARD_MODE__DISCARD_ALL ? UTIL_DISCARD_ALL : UTIL_DISCARD_OTHER;
				stmt->command_tag = mode == PG_QUERY__DISCARD_MODE__DISCARD_ALL ? "DISCARD ALL"
					: mode == PG_QUERY__DISCARD_MODE__DISCARD_PLANS ? "DISCARD PLANS"
					: mode == PG_QUERY__DISCARD_MODE__DISCARD_SEQUENCES ? "DISCARD SEQUENCES"
					: "DISCARD TEMP";
				break;
			}
		case PG_QUERY__NODE__NODE_DEALLOCATE_STMT:
			stmt->name = node->deallocate_stmt->name;
			stmt->utility = is_set(stmt->name) ? UTIL_DEALLOCATE : UTIL_DEALLOCATE_ALL;
			stmt->command_tag = is_set(stmt->name) ? "DEALLOCATE" : "DEALLOCATE ALL";
			break;
		case PG_QUERY__NODE__NODE_COPY_STMT:
			analyze_copy(&ps, node->copy_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_INSERT_STMT:
			analyze_insert(&ps, node->insert_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_UPDATE_STMT:
			analyze_update(&ps, node->update_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_DELETE_STMT:
			analyze_delete(&ps, node->delete_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_CREATE_STMT:
			analyze_create_table(&ps, node->create_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
			analyze_alter_table(&ps, node->alter_table_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
			analyze_create_schema(&ps, node->create_schema_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
			analyze_truncate(&ps, node->truncate_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_DROP_STMT:
			if (node->drop_stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA)
				analyze_drop_schema(&ps, node->drop_stmt, stmt);
			else if (node->drop_stmt->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE &&
					 node->drop_stmt->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_VIEW &&
					 node->drop_stmt->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_INDEX)
				unsupported_statement(&ps, node);
			else
				analyze_drop(&ps, node->drop_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_RENAME_STMT:
			if (node->rename_stmt->rename_type != PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA)
				unsupported_statement(&ps, node);
			analyze_rename_schema(&ps, node->rename_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT:
			if (node->alter_owner_stmt->object_type != PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA)
				unsupported_statement(&ps, node);
			analyze_schema_owner(&ps, node->alter_owner_stmt, stmt);
			break;
		case PG_QUERY__NODE__NODE_CREATEDB_STMT:
			stmt->utility = UTIL_CREATE_DATABASE;
			stmt->command_tag = "CREATE DATABASE";
			stmt->name = node->createdb_stmt->dbname;
			break;
		case PG_QUERY__NODE__NODE_DROPDB_STMT:
			stmt->utility = UTIL_DROP_DATABASE;
			stmt->command_tag = "DROP DATABASE";
			stmt->name = node->dropdb_stmt->dbname;
			stmt->missing_ok = node->dropdb_stmt->missing_ok;
			break;
		default:
			unsupported_statement(&ps, node);
	}
	finish_params(&ps, stmt);
	if (uses_cache)
		CacheStatementEnd();
	return stmt;
}
