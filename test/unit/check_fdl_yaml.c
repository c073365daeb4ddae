/*
 * check_fdl_yaml.c: the strict YAML-subset reader of dataset descriptions
 * (admin/fdl_yaml.h): every construct it reads gives what a YAML 1.2 reader gives
 * (compared as JSON text), and every construct it refuses is refused with the file
 * and the line where it is.
 */
#include "admin/fdl_yaml.h"
#include "test_util.h"

/* text parses to the JSON value expected (compact, keys in order) */
static void
expect_json(const char *text, const char *expected)
{
	char	   *err = NULL;
	json_t	   *v = fdl_yaml_parse(text, strlen(text), "t.yml", &err);

	ck_assert_msg(v != NULL, "refused %s: %s", text, err ? err : "");

	char	   *got = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);

	ck_assert_msg(strcmp(got, expected) == 0, "%s\n gave %s\n not  %s", text, got, expected);
	free(got);
	json_decref(v);
}

/* text is refused with exactly this message */
static void
expect_error(const char *text, size_t len, const char *message)
{
	char	   *err = NULL;
	json_t	   *v = fdl_yaml_parse(text, len, "t.yml", &err);

	ck_assert_msg(v == NULL, "accepted %s", text);
	ck_assert_msg(err && strcmp(err, message) == 0, "%s\n gave  %s\n not   %s", text, err, message);
	free(err);
}

#define REFUSED(text, message) expect_error(text, strlen(text), message)

START_TEST(test_block_structure)
{
	expect_json("# a comment\nname: population   # trailing\ntitle: Population by town\n",
				"{\"name\":\"population\",\"title\":\"Population by town\"}");
	expect_json("---\na:\n  b:\n    c: 1\n  d: 2\ne: 3\n", "{\"a\":{\"b\":{\"c\":1},\"d\":2},\"e\":3}");
	/* a sequence at its key's indentation, then the mapping goes on */
	expect_json("tables:\n- name: t\n  fields:\n    - name: a\n    - name: b\nlast: x\n",
				"{\"tables\":[{\"name\":\"t\",\"fields\":[{\"name\":\"a\"},{\"name\":\"b\"}]}],\"last\":\"x\"}");
	expect_json("- - a\n  - b\n-\n  - c\n- d\n", "[[\"a\",\"b\"],[\"c\"],\"d\"]");
	expect_json("a:\nb:   # nothing\nc: x\n", "{\"a\":null,\"b\":null,\"c\":\"x\"}");
	expect_json("\n\n  # only comments and blank lines\n\n", "null");
	expect_json("key:\n  just a scalar below\n", "{\"key\":\"just a scalar below\"}");
	expect_json("a: 1\r\nb: 2\r\n", "{\"a\":1,\"b\":2}");
	expect_json("\xEF\xBB\xBF" "a: 1\n", "{\"a\":1}");
	expect_json("url: http://example.org/x#frag\n", "{\"url\":\"http://example.org/x#frag\"}");
	expect_json("\"quoted key\": 1\n'it''s': 2\n", "{\"quoted key\":1,\"it's\":2}");
}
END_TEST

START_TEST(test_scalars)
{
	expect_json("[~, null, NULL, true, False, 12, -5, +3, 007, 0x1F, 0o17, 1.5, .5, 1e3, -2.5E-1]",
				"[null,null,null,true,false,12,-5,3,7,31,15,1.5,0.5,1000.0,-0.25]");
	expect_json("[1.2.3, 2026-10-30, yes, no, on, 0x, '12', \"true\", 1_000]",
				"[\"1.2.3\",\"2026-10-30\",\"yes\",\"no\",\"on\",\"0x\",\"12\",\"true\",\"1_000\"]");
	expect_json("a: 'it''s # not a comment'\n", "{\"a\":\"it's # not a comment\"}");
	expect_json("a: \"tab\\tnl\\nq\\\"bs\\\\sl\\/\\u00e9\\x41\\U0001F600\\N\\_\"\n",
				"{\"a\":\"tab\\tnl\\nq\\\"bs\\\\sl/\\u00E9A\\uD83D\\uDE00\\u0085\\u00A0\"}");
	expect_json("a: héllo wörld\n", "{\"a\":\"h\\u00E9llo w\\u00F6rld\"}");
	expect_json("a: x:y\n", "{\"a\":\"x:y\"}");
}
END_TEST

START_TEST(test_flow)
{
	expect_json("k: [population, census, \"x, y\"]\n", "{\"k\":[\"population\",\"census\",\"x, y\"]}");
	expect_json("k: {start: '2025', end: 2025}\n", "{\"k\":{\"start\":\"2025\",\"end\":2025}}");
	expect_json("k: [a,\n   b,   # comment\n   {c: [d, e], f: },\n]\n",
				"{\"k\":[\"a\",\"b\",{\"c\":[\"d\",\"e\"],\"f\":null}]}");
	expect_json("k: []\nm: {}\n", "{\"k\":[],\"m\":{}}");
	expect_json("{\"a\":1, \"b\": [true]}\n", "{\"a\":1,\"b\":[true]}");
}
END_TEST

START_TEST(test_block_scalars)
{
	expect_json("lit: |\n  line1\n    more\n\n  line3\nnext: 1\n",
				"{\"lit\":\"line1\\n  more\\n\\nline3\\n\",\"next\":1}");
	expect_json("fold: >\n  a\n  b\n\n  c\n   indented\n  d\n",
				"{\"fold\":\"a b\\nc\\n indented\\nd\\n\"}");
	expect_json("s: |-\n  x\n\n\n", "{\"s\":\"x\"}");
	expect_json("k: |+\n  x\n\n\nn: 1\n", "{\"k\":\"x\\n\\n\\n\",\"n\":1}");
	expect_json("k: |2\n    x\n   y\n", "{\"k\":\"  x\\n y\\n\"}");
	expect_json("- >-\n  folded\n  item\n- after\n", "[\"folded item\",\"after\"]");
	expect_json("empty: |\nnext: 1\n", "{\"empty\":\"\",\"next\":1}");
	expect_json("k: | # a comment\n  text\n", "{\"k\":\"text\\n\"}");
}
END_TEST

START_TEST(test_refused)
{
	REFUSED("a: &x 1\n", "t.yml:1: anchors (&) are not supported");
	REFUSED("a: 1\nb: *x\n", "t.yml:2: aliases (*) are not supported");
	REFUSED("a: !!str 1\n", "t.yml:1: tags (!) are not supported");
	REFUSED("- !tag x\n", "t.yml:1: tags (!) are not supported");
	REFUSED("%YAML 1.2\n---\na: 1\n", "t.yml:1: directives (%) are not supported");
	REFUSED("a: 1\n---\nb: 2\n", "t.yml:2: several documents in one file (\"---\" or \"...\") are not supported");
	REFUSED("a: 1\n...\n", "t.yml:2: several documents in one file (\"---\" or \"...\") are not supported");
	REFUSED("? a\n: b\n", "t.yml:1: complex mapping keys (?) are not supported");
	REFUSED("a: 1\nb: 2\na: 3\n", "t.yml:3: duplicate key \"a\"");
	REFUSED("k: {b: 1, b: 2}\n", "t.yml:1: duplicate key \"b\"");
	REFUSED("a:\n\tb: 1\n", "t.yml:2: tabs are not allowed in indentation");
	REFUSED("a: hello\n  world\n",
			"t.yml:2: unexpected indentation (a plain scalar cannot continue on the next line: "
			"quote it, or use | or >)");
	REFUSED("a: \"x\n  y\"\n", "t.yml:1: a quoted scalar must end on the line it starts");
	REFUSED("a: 1\nb: .inf\n", "t.yml:2: \".inf\" cannot be represented in JSON (quote it to keep it as text)");
	REFUSED("n: 99999999999999999999\n",
			"t.yml:1: integer \"99999999999999999999\" is out of range (quote it to keep it as text)");
	REFUSED("a: \"\\q\"\n", "t.yml:1: unknown escape \"\\q\" in a double-quoted scalar");
	REFUSED("a: \"\\ud800\"\n", "t.yml:1: bad \"\\u\" escape in a double-quoted scalar");
	REFUSED("\n\na: [1,\n 2\n", "t.yml:3: '[' is never closed");
	REFUSED("a: [1 2] x\n", "t.yml:1: unexpected text after a value: \"x\"");
	REFUSED("a: b: c\n", "t.yml:1: a mapping cannot start here (quote a value that holds \": \")");
	REFUSED("a: x\rb\n", "t.yml:1: a carriage return not followed by a line feed");
	REFUSED("a: - b\n", "t.yml:1: a sequence cannot start here (put its items on the lines below)");
	REFUSED("a: {[x]: 1}\n", "t.yml:1: a collection as a mapping key is not supported");
	REFUSED("a: [b: 1]\n", "t.yml:1: a mapping inside [] must be written {key: value}");
	REFUSED("a: [x, , y]\n", "t.yml:1: a value is missing in [] or {}");
	REFUSED("a: [|]\n", "t.yml:1: a block scalar cannot be inside [] or {}");
	REFUSED("a: {b}\n", "t.yml:1: expected \"key: value\" in {}");
	REFUSED("a: |x\n  y\n", "t.yml:1: bad block scalar header (| or >, then - or +, then a digit 1-9)");
	REFUSED("a: @x\n", "t.yml:1: a plain scalar cannot start with the reserved character '@'");
	REFUSED("a:\n  - x\n  b: 1\n",
			"t.yml:3: unexpected indentation (a plain scalar cannot continue on the next line: "
			"quote it, or use | or >)");
	REFUSED("a: 1\n- b\n", "t.yml:2: a sequence item where a mapping key was expected");
	REFUSED("a: 1\njust text\n", "t.yml:2: expected \"key: value\" in a mapping");
	REFUSED("  a: 1\nb: 2\n", "t.yml:2: unexpected content after the document's top-level node");
	REFUSED("a: \"\xff\"\n", "t.yml:1: a scalar is not valid UTF-8");
	expect_error("a: 1\nb\0: 2\n", 11, "t.yml:2: the file holds a NUL byte");
}
END_TEST

START_TEST(test_load)
{
	char	   *dir = test_mkdtemp();
	char		path[512];
	char	   *err = NULL;
	FILE	   *f;
	json_t	   *v;

	snprintf(path, sizeof(path), "%s/x.yml", dir);
	f = fopen(path, "w");
	fputs("a: [1, 2]\n", f);
	fclose(f);
	v = fdl_yaml_load(path, "x.yml", &err);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(json_array_size(json_object_get(v, "a")), 2);
	json_decref(v);
	snprintf(path, sizeof(path), "%s/missing.yml", dir);
	ck_assert_ptr_null(fdl_yaml_load(path, "missing.yml", &err));
	ck_assert_str_eq(err, "missing.yml: cannot read: No such file or directory");
	free(err);
	test_rmdir(dir);
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("fdl_yaml");
	TCase	   *tc = tcase_create("reader");

	tcase_add_test(tc, test_block_structure);
	tcase_add_test(tc, test_scalars);
	tcase_add_test(tc, test_flow);
	tcase_add_test(tc, test_block_scalars);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_load);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
