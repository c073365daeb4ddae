/*
 * parser.c: libpg_query's parse of a query string (parser.h): the protobuf
 * tree unpacked into the current memory context, the guards against trees too deep
 * to analyse, and the parse cache of recent query texts.
 */

#include "parser/analyze_internal.h"

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

LogStmtLevel
RawStatementLogLevel(const RawStatement *raw)
{
	switch (raw->node->node_case)
	{
		case PG_QUERY__NODE__NODE_INSERT_STMT:
		case PG_QUERY__NODE__NODE_UPDATE_STMT:
		case PG_QUERY__NODE__NODE_DELETE_STMT:
		case PG_QUERY__NODE__NODE_MERGE_STMT:
		case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
			return LOGSTMT_MOD;
		case PG_QUERY__NODE__NODE_COPY_STMT:
			return raw->node->copy_stmt->is_from ? LOGSTMT_MOD : LOGSTMT_ALL;
		case PG_QUERY__NODE__NODE_SELECT_STMT:
			/* SELECT INTO makes a table */
			return raw->node->select_stmt->into_clause ? LOGSTMT_DDL : LOGSTMT_ALL;
		case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
		case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
		case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
		case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
		case PG_QUERY__NODE__NODE_PREPARE_STMT:
		case PG_QUERY__NODE__NODE_EXECUTE_STMT:
		case PG_QUERY__NODE__NODE_DEALLOCATE_STMT:
		case PG_QUERY__NODE__NODE_DISCARD_STMT:
		case PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT:
		case PG_QUERY__NODE__NODE_FETCH_STMT:
		case PG_QUERY__NODE__NODE_CLOSE_PORTAL_STMT:
		case PG_QUERY__NODE__NODE_LISTEN_STMT:
		case PG_QUERY__NODE__NODE_UNLISTEN_STMT:
		case PG_QUERY__NODE__NODE_NOTIFY_STMT:
		case PG_QUERY__NODE__NODE_LOCK_STMT:
		case PG_QUERY__NODE__NODE_VACUUM_STMT:
		case PG_QUERY__NODE__NODE_CHECK_POINT_STMT:
		case PG_QUERY__NODE__NODE_DO_STMT:
		case PG_QUERY__NODE__NODE_CALL_STMT:
		case PG_QUERY__NODE__NODE_LOAD_STMT:
		case PG_QUERY__NODE__NODE_CLUSTER_STMT:
		case PG_QUERY__NODE__NODE_REINDEX_STMT:
		case PG_QUERY__NODE__NODE_CONSTRAINTS_SET_STMT:
			return LOGSTMT_ALL;
		default:
			return LOGSTMT_DDL;
	}
}
