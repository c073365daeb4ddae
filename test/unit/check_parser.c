/*
 * check_parser.c: statements that differ only in their literals share one parse
 * (literals.h). For pairs of texts of one shape, the tree ParseQuery gives the second
 * (the first's tree with the second's values and locations) must be, byte for byte
 * once packed, the tree libpg_query parses from the second itself; and texts whose
 * literals the scan cannot vouch for must still parse right. The pairs include every
 * statement DuckDB 1.5.5 sent in the DuckLake 1.0 migration and use that
 * test/duckdb/data/ducklake_1_0_statements.sql holds, each with all its literals changed.
 */
#include <pg_query.h>

#include "parser/literals.h"
#include "parser/parser.h"
#include "test_util.h"
#include "utils/mcxt.h"

/* packed -- a node's protobuf bytes, to compare trees */
static char *
packed(const PgQuery__Node *node, size_t *len)
{
	*len = pg_query__node__get_packed_size(node);
	char	   *out = palloc(*len + 1);

	pg_query__node__pack(node, (uint8_t *) out);
	return out;
}

/* assert_parses_as_itself -- ParseQuery(text), however it got there, is libpg_query's tree */
static void
assert_parses_as_itself(const char *text)
{
	ParsedQuery *pq = ParseQuery(text);
	PgQueryProtobufParseResult fresh = pg_query_parse_protobuf(text);

	ck_assert_msg(fresh.error == NULL, "%s", text);
	PgQuery__ParseResult *tree = pg_query__parse_result__unpack(NULL, fresh.parse_tree.len,
																(const uint8_t *) fresh.parse_tree.data);

	ck_assert_int_eq(pq->nstmts, (int) tree->n_stmts);
	for (int i = 0; i < pq->nstmts; i++)
	{
		size_t		got_len,
					want_len;
		char	   *got = packed(pq->stmts[i].node, &got_len);
		char	   *want = packed(tree->stmts[i]->stmt, &want_len);

		ck_assert_msg(got_len == want_len && memcmp(got, want, got_len) == 0,
					  "statement %d of \"%s\" differs from its own parse", i, text);
		ck_assert_int_eq(pq->stmts[i].location, tree->stmts[i]->stmt_location);
		ck_assert_int_eq(pq->stmts[i].length, tree->stmts[i]->stmt_len);
	}
	pg_query__parse_result__free_unpacked(tree, NULL);
	pg_query_free_protobuf_parse_result(fresh);
}

static bool
shareable(const char *text)
{
	LiteralScan scan;

	literals_scan(text, &scan);
	return scan.ok;
}

/* the first of each pair is parsed, then the second takes its tree */
static const char *const pairs[][2] = {
	{"INSERT INTO t VALUES (1, 'a', 2.5, NULL, true)",
	 "INSERT INTO t VALUES (123456, 'it''s longer', 12.75e3, NULL, true)"},
	{"SELECT snapshot_id FROM s WHERE snapshot_id = (SELECT max(x) FROM s) AND a > -5 AND b = - 7 LIMIT 10",
	 "SELECT snapshot_id FROM s WHERE snapshot_id = (SELECT max(x) FROM s) AND a > -51234 AND b = - 70 LIMIT 1"},
	{"UPDATE \"public\".ducklake_table_stats SET record_count=73, file_size_bytes=0, next_row_id=73 WHERE table_id=1;"
	 "INSERT INTO \"public\".ducklake_snapshot VALUES (5, NOW(), 1, 2, 3);",
	 "UPDATE \"public\".ducklake_table_stats SET record_count=74000, file_size_bytes=10, next_row_id=74000 WHERE table_id=12;"
	 "INSERT INTO \"public\".ducklake_snapshot VALUES (51, NOW(), 10, 2, 300);"},
	{"SELECT 'x'::uuid, CAST('2020-01-01' AS date), x IN (1, 2, 3), c1, t0.\"c 2\" FROM t0 WHERE y LIKE 'a%' ORDER BY 1",
	 "SELECT 'yy'::uuid, CAST('2021-12-31' AS date), x IN (10, 20, 3000), c1, t0.\"c 2\" FROM t0 WHERE y LIKE 'bb%' ORDER BY 2"},
	{"SELECT 9999999999, 2147483647, 1.5, .5, 1e10 FROM t WHERE a = $1",
	 "SELECT 8888888888, 2000000000, 10.25, .75, 2e10 FROM t WHERE a = $1"},
	{"CREATE TABLE x (a varchar(10), b numeric(10, 2) DEFAULT 5)",
	 "CREATE TABLE x (a varchar(200), b numeric(12, 4) DEFAULT 123)"},
	{"SELECT 1; SELECT 'a'; SELECT 22", "SELECT 100; SELECT 'bcd'; SELECT 2"},
};

START_TEST(test_same_shape_same_tree)
{
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
	{
		ck_assert_msg(shareable(pairs[i][0]), "%s", pairs[i][0]);
		assert_parses_as_itself(pairs[i][0]);
		assert_parses_as_itself(pairs[i][1]);
		assert_parses_as_itself(pairs[i][0]);
	}
}
END_TEST

/* texts the scan declines, or whose literals are not plain constants, still parse right */
START_TEST(test_other_texts)
{
	static const char *const texts[] = {
		"SELECT E'a\\nb', B'101', X'1F', U&'d\\0061t' -- comment 5",
		"SELECT 1 /* 2 */ + 3",
		"SELECT $$x$$, $tag$y$tag$",
		"SELECT 'a'\n'b'",
		"COPY t TO STDOUT (FORMAT 'csv', DELIMITER ',')",
		"SELECT INTERVAL '1' YEAR, extract(year FROM now()), 'a\\b'",
		"SET search_path TO 'public'",
		"SELECT x1, t2.y3 FROM t1 AS t2",
	};

	ck_assert(!shareable(texts[0]));
	ck_assert(!shareable(texts[1]));
	ck_assert(!shareable(texts[2]));
	ck_assert(!shareable(texts[3]));
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
			assert_parses_as_itself(texts[i]);
	/* the COPY options are not constants: another delimiter must not share the tree */
	assert_parses_as_itself("COPY t TO STDOUT (FORMAT 'csv', DELIMITER ';')");
	assert_parses_as_itself("SET search_path TO 'other'");
}
END_TEST

/*
 * variant -- text with every literal changed, each keeping its kind: integers grow a
 * digit (or lose one, to stay an int4), floats a trailing zero, strings two characters
 */
static char *
variant(const char *text, const LiteralScan *scan)
{
	RlBuf		out;
	int			at = 0;

	rlbuf_init_in(&out, CurrentMemoryContext);
	for (int i = 0; i < scan->nliterals; i++)
	{
		const Literal *l = &scan->literals[i];

		rlbuf_append(&out, text + at, (size_t) (l->start - at));
		if (l->kind == LITERAL_STRING)
		{
			rlbuf_append_str(&out, "'ab");
			rlbuf_append(&out, text + l->start + 1, (size_t) (l->len - 1));
		}
		else if (l->kind == LITERAL_FLOAT)
		{
			rlbuf_append(&out, text + l->start, (size_t) l->len);
			rlbuf_append_str(&out, strpbrk(text + l->start, "eE") < text + l->start + l->len ? "1" : "0");
		}
		else
			rlbuf_append_str(&out, l->len < 9 ? "7" : "");
		if (l->kind == LITERAL_INTEGER)
			rlbuf_append(&out, text + l->start, (size_t) (l->len < 9 ? l->len : 1));
		at = l->start + l->len;
	}
	rlbuf_append_str(&out, text + at);
	return (char *) rlbuf_cstr(&out);
}

/* DuckDB 1.5.5's DuckLake statements (test/duckdb/data), each parsed, then with other values */
START_TEST(test_ducklake_statements)
{
	const char *top = getenv("top_srcdir");
	char	   *path = psprintf("%s/test/duckdb/data/ducklake_1_0_statements.sql", top ? top : "../..");
	FILE	   *f = fopen(path, "r");
	RlBuf		text;
	char		line[65536];
	int			statements = 0,
				shared = 0;

	ck_assert_msg(f != NULL, "%s", path);
	rlbuf_init_in(&text, CurrentMemoryContext);
	while (fgets(line, sizeof(line), f))
	{
		bool		end = strcmp(line, "-- ---\n") == 0;

		if (!end && !(text.len == 0 && strncmp(line, "-- ", 3) == 0))
			rlbuf_append_str(&text, line);
		if (!end && !feof(f))
			continue;

		char	   *sql = pstrdup(rlbuf_cstr(&text));
		LiteralScan scan;

		rlbuf_reset(&text);

		PgQueryParseResult parsed = pg_query_parse(sql);
		bool		parses = parsed.error == NULL;

		pg_query_free_parse_result(parsed);
		if (!parses)
			continue;			/* kept as DuckDB sent it; not ours to parse */
		literals_scan(sql, &scan);
		assert_parses_as_itself(sql);
		statements++;
		if (scan.ok && scan.nliterals > 0)
		{
			assert_parses_as_itself(variant(sql, &scan));
			shared++;
		}
	}
	fclose(f);
	ck_assert_int_gt(statements, 150);
	ck_assert_int_gt(shared, 50);
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("parser");
	TCase	   *tc = tcase_create("literals");

	tcase_add_checked_fixture(tc, test_contexts_setup, test_contexts_teardown);
	tcase_add_test(tc, test_same_shape_same_tree);
	tcase_add_test(tc, test_other_texts);
	tcase_add_test(tc, test_ducklake_statements);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
