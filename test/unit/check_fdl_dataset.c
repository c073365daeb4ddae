/*
 * check_fdl_dataset.c: dataset.json from a description and a catalog
 * (admin/fdl_dataset.h): with no description, the database names the dataset;
 * a description is completed from the catalog (every table in its order, rows,
 * types, nullability, comments where no description was written, views after the
 * tables with their SQL), kept as written where the catalog has nothing to add
 * (annotations, view fields), and every rule it breaks is refused with the file
 * and the key's path.
 */
#include "admin/fdl_dataset.h"
#include "test_util.h"

static const char catalog_text[] =
"{\"database\": \"lake\", \"tables\": ["
"  {\"schema\": \"main\", \"name\": \"population\", \"rows\": 120000, \"comment\": \"Census counts\","
"   \"columns\": ["
"    {\"name\": \"town_code\", \"type\": \"varchar\", \"nullable\": false, \"comment\": null},"
"    {\"name\": \"age_group\", \"type\": \"int32\", \"nullable\": true, \"comment\": \"five-year bands\"},"
"    {\"name\": \"n\", \"type\": \"int64\", \"nullable\": true, \"comment\": null}]},"
"  {\"schema\": \"stats\", \"name\": \"towns\", \"rows\": 0, \"comment\": null,"
"   \"columns\": [{\"name\": \"code\", \"type\": \"varchar\", \"nullable\": true, \"comment\": null}]}],"
" \"views\": [{\"schema\": \"main\", \"name\": \"by_town\", \"comment\": \"Totals per town\","
"   \"sql\": \"SELECT town_code, sum(n) FROM population GROUP BY 1\"}]}";

static json_t *catalog;
static char *dir;

static void
setup(void)
{
	json_error_t jerr;

	catalog = json_loads(catalog_text, 0, &jerr);
	if (catalog == NULL)
	{
		fprintf(stderr, "catalog_text: %s\n", jerr.text);
		abort();
	}
	dir = test_mkdtemp();
}

static void
teardown(void)
{
	json_decref(catalog);
	test_rmdir(dir);
}

static void
write_file(const char *name, const char *text)
{
	char		path[512];
	FILE	   *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void
expect_dataset(const char *d, const char *expected)
{
	char	   *err = NULL;
	json_t	   *out = fdl_dataset_build(d, catalog, &err);

	ck_assert_msg(out != NULL, "refused: %s", err ? err : "");

	char	   *got = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);

	ck_assert_msg(strcmp(got, expected) == 0, "\n gave %s\n not  %s", got, expected);
	free(got);
	json_decref(out);
}

static void
expect_refusal(const char *expected)
{
	char	   *err = NULL;
	json_t	   *out = fdl_dataset_build(dir, catalog, &err);

	ck_assert_msg(out == NULL, "accepted");
	ck_assert_msg(strcmp(err, expected) == 0, "\n gave %s\n not  %s", err, expected);
	free(err);
}

#define POPULATION_FIELDS \
	"[{\"name\":\"town_code\",\"type\":\"varchar\",\"nullable\":false}," \
	"{\"name\":\"age_group\",\"description\":\"five-year bands\",\"type\":\"int32\",\"nullable\":true}," \
	"{\"name\":\"n\",\"type\":\"int64\",\"nullable\":true}]"
#define TOWNS_TABLE \
	"{\"schema\":\"stats\",\"name\":\"towns\",\"rows\":0," \
	"\"fields\":[{\"name\":\"code\",\"type\":\"varchar\",\"nullable\":true}]}"
#define VIEW_SQL "\"sql\":\"SELECT town_code, sum(n) FROM population GROUP BY 1\""

START_TEST(test_no_description)
{
	expect_dataset(NULL,
				   "{\"name\":\"lake\",\"title\":\"lake\",\"tables\":["
				   "{\"schema\":\"main\",\"name\":\"population\",\"description\":\"Census counts\","
				   "\"rows\":120000,\"fields\":" POPULATION_FIELDS "}," TOWNS_TABLE ","
				   "{\"schema\":\"main\",\"name\":\"by_town\",\"kind\":\"view\","
				   "\"description\":\"Totals per town\"," VIEW_SQL "}]}");
	/* a description naming nothing but the dataset: the catalog is all listed too */
	write_file("dataset.yml", "title: Population by town\nname: population\n");
	expect_dataset(dir,
				   "{\"name\":\"population\",\"title\":\"Population by town\",\"tables\":["
				   "{\"schema\":\"main\",\"name\":\"population\",\"description\":\"Census counts\","
				   "\"rows\":120000,\"fields\":" POPULATION_FIELDS "}," TOWNS_TABLE ","
				   "{\"schema\":\"main\",\"name\":\"by_town\",\"kind\":\"view\","
				   "\"description\":\"Totals per town\"," VIEW_SQL "}]}");
}
END_TEST

START_TEST(test_completed)
{
	write_file("dataset.yml",
			   "# the dataset\n"
			   "annotations: {queria: {category: census}}\n"
			   "name: population\n"
			   "title: Population by town\n"
			   "description: >\n"
			   "  Census population of each town,\n"
			   "  by age group\n"
			   "keywords: [population, census]\n"
			   "issued: 2026-10-30\n"
			   "licenses:\n"
			   "  - CC-BY-4.0\n"
			   "  - id: city-terms\n"
			   "    url: https://example.org/terms\n"
			   "    title: City terms\n"
			   "sources: [{title: 2025 census, path: 'https://example.org/census-2025'}]\n"
			   "contributors:\n"
			   "  - {title: Example City, roles: [publisher]}\n"
			   "temporal_coverage: {start: 2025, end: '2025'}\n"
			   "spatial_coverage: [JP]\n"
			   "schemas: [{name: main, title: Tables}]\n"
			   "update_frequency:\n"
			   "tables:\n"
			   "  - name: population\n"
			   "    title: Population\n"
			   "    description: One row per town and age group\n"
			   "    primary_key: [town_code, age_group]\n"
			   "    sql: SELECT 1\n"
			   "    fields:\n"
			   "      - name: n\n"
			   "        description: people\n"
			   "        extensions: {x: 1}\n"
			   "      - name: town_code\n"
			   "        title: Town code\n"
			   "  - name: by_town\n"
			   "    title: Totals\n"
			   "    fields: [{name: town_code}, {name: total, description: everyone}]\n");
	write_file("stats.towns.table.yml", "title: Towns\nextensions: {tool: {a: [1, 2]}}\n");
	expect_dataset(dir,
				   "{\"name\":\"population\",\"title\":\"Population by town\","
				   "\"description\":\"Census population of each town, by age group\\n\","
				   "\"keywords\":[\"population\",\"census\"],\"issued\":\"2026-10-30\","
				   "\"licenses\":[\"CC-BY-4.0\",{\"id\":\"city-terms\",\"url\":\"https://example.org/terms\","
				   "\"title\":\"City terms\"}],"
				   "\"sources\":[{\"title\":\"2025 census\",\"path\":\"https://example.org/census-2025\"}],"
				   "\"contributors\":[{\"title\":\"Example City\",\"roles\":[\"publisher\"]}],"
				   "\"temporal_coverage\":{\"start\":\"2025\",\"end\":\"2025\"},"
				   "\"spatial_coverage\":[\"JP\"],\"schemas\":[{\"name\":\"main\",\"title\":\"Tables\"}],"
				   "\"tables\":["
				   "{\"schema\":\"main\",\"name\":\"population\",\"title\":\"Population\","
				   "\"description\":\"One row per town and age group\","
				   "\"primary_key\":[\"town_code\",\"age_group\"],\"sql\":\"SELECT 1\",\"rows\":120000,"
				   "\"fields\":[{\"name\":\"town_code\",\"title\":\"Town code\",\"type\":\"varchar\",\"nullable\":false},"
				   "{\"name\":\"age_group\",\"description\":\"five-year bands\",\"type\":\"int32\",\"nullable\":true},"
				   "{\"name\":\"n\",\"description\":\"people\",\"type\":\"int64\",\"nullable\":true,"
				   "\"annotations\":{\"x\":1}}]},"
				   "{\"schema\":\"stats\",\"name\":\"towns\",\"title\":\"Towns\",\"rows\":0,"
				   "\"fields\":[{\"name\":\"code\",\"type\":\"varchar\",\"nullable\":true}],"
				   "\"annotations\":{\"tool\":{\"a\":[1,2]}}},"
				   "{\"schema\":\"main\",\"name\":\"by_town\",\"kind\":\"view\",\"title\":\"Totals\","
				   "\"description\":\"Totals per town\"," VIEW_SQL ","
				   "\"fields\":[{\"name\":\"town_code\"},{\"name\":\"total\",\"description\":\"everyone\"}]}],"
				   "\"annotations\":{\"queria\":{\"category\":\"census\"}}}");
}
END_TEST

typedef struct Refusal
{
	const char *dataset;		/* dataset.yml, NULL: none */
	const char *table_file;		/* a second file's name, or NULL */
	const char *table_text;
	const char *message;
} Refusal;

static const Refusal refusals[] = {
	{NULL, NULL, NULL, "dataset.yml: cannot read: No such file or directory"},
	{"- a\n", NULL, NULL, "dataset.yml: must be a mapping: the dataset's description"},
	{"name: x\n", NULL, NULL, "dataset.yml: the dataset's \"title\" is missing"},
	{"title: x\n", NULL, NULL, "dataset.yml: the dataset's \"name\" is missing"},
	{"name: x\ntitle: y\nversion: 3\n", NULL, NULL,
		"dataset.yml: unknown key \"version\" (a dataset may have: name, title, description, keywords, "
		"language, homepage, issued, update_frequency, licenses, sources, contributors, temporal_coverage, "
		"spatial_coverage, schemas, tables, annotations, extensions; put other information under annotations)"},
	{"name: x\ntitle: y\nissued: 1.5\n", NULL, NULL, "dataset.yml: issued: must be text"},
	{"name: x\ntitle: y\nkeywords: census\n", NULL, NULL, "dataset.yml: keywords: must be a list"},
	{"name: x\ntitle: y\nkeywords: [a, {b: c}]\n", NULL, NULL, "dataset.yml: keywords[1]: must be text"},
	{"name: x\ntitle: y\nlicenses: [CC BY 4.0]\n", NULL, NULL,
		"dataset.yml: licenses[0]: \"CC BY 4.0\" is not an SPDX license identifier (write a mapping with an "
		"id to name another license)"},
	{"name: x\ntitle: y\nlicenses: [{url: u}]\n", NULL, NULL, "dataset.yml: licenses[0]: the license's \"id\" is missing"},
	{"name: x\ntitle: y\nlicenses: [{id: a, spdx: 'not one'}]\n", NULL, NULL,
		"dataset.yml: licenses[0].spdx: \"not one\" is not an SPDX license identifier"},
	{"name: x\ntitle: y\nlicenses: [{id: a, version: 2}]\n", NULL, NULL,
		"dataset.yml: licenses[0]: unknown key \"version\" (a license may have: id, spdx, url, title; put "
		"other information under annotations)"},
	{"name: x\ntitle: y\nannotations: [a]\n", NULL, NULL,
		"dataset.yml: annotations: must be a mapping (keyed by the name of the reader it is for)"},
	{"name: x\ntitle: y\nannotations: {a: 1}\nextensions: {b: 2}\n", NULL, NULL,
		"dataset.yml: annotations and extensions (their older name) are both given"},
	{"name: x\ntitle: y\ntemporal_coverage: 2025\n", NULL, NULL,
		"dataset.yml: temporal_coverage: must be a mapping (a temporal coverage)"},
	{"name: x\ntitle: y\ntables: [{name: nope}]\n", NULL, NULL,
		"dataset.yml: tables[0]: table \"main.nope\" is not in the catalog"},
	{"name: x\ntitle: y\ntables: [{schema: stats, name: population}]\n", NULL, NULL,
		"dataset.yml: tables[0]: table \"stats.population\" is not in the catalog"},
	{"name: x\ntitle: y\ntables: [{title: t}]\n", NULL, NULL, "dataset.yml: tables[0]: the table's \"name\" is missing"},
	{"name: x\ntitle: y\ntables: [{name: population, colour: red}]\n", NULL, NULL,
		"dataset.yml: tables[0]: unknown key \"colour\" (a table may have: schema, name, title, description, "
		"primary_key, depends_on, sql, fields, annotations, extensions; put other information under annotations)"},
	{"name: x\ntitle: y\ntables: [{name: population, rows: 3}]\n", NULL, NULL,
		"dataset.yml: tables[0].rows: is taken from the catalog: do not write it"},
	{"name: x\ntitle: y\ntables: [{name: by_town, kind: view}]\n", NULL, NULL,
		"dataset.yml: tables[0].kind: is taken from the catalog: do not write it"},
	{"name: x\ntitle: y\ntables: [{name: population, fields: [{name: n, type: int64}]}]\n", NULL, NULL,
		"dataset.yml: tables[0].fields[0].type: is taken from the catalog: do not write it"},
	{"name: x\ntitle: y\ntables: [{name: population, fields: [{name: n, nullable: true}]}]\n", NULL, NULL,
		"dataset.yml: tables[0].fields[0].nullable: is taken from the catalog: do not write it"},
	{"name: x\ntitle: y\ntables: [{name: population, fields: [{name: n, unit: people}]}]\n", NULL, NULL,
		"dataset.yml: tables[0].fields[0]: unknown key \"unit\" (a field may have: name, title, description, "
		"annotations, extensions; put other information under annotations)"},
	{"name: x\ntitle: y\ntables: [{name: population, fields: [{name: n}, {name: colour}]}]\n", NULL, NULL,
		"dataset.yml: tables[0].fields[1]: table \"main.population\" has no column \"colour\" in the catalog"},
	{"name: x\ntitle: y\ntables: [{name: population, fields: [{name: n}, {name: n}]}]\n", NULL, NULL,
		"dataset.yml: tables[0].fields[1]: column \"n\" is described twice"},
	{"name: x\ntitle: y\ntables: [{name: population, primary_key: [town_code, zip]}]\n", NULL, NULL,
		"dataset.yml: tables[0].primary_key[1]: table \"main.population\" has no column \"zip\" in the catalog"},
	{"name: x\ntitle: y\ntables: [{name: by_town, sql: SELECT 2}]\n", NULL, NULL,
		"dataset.yml: tables[0].sql: is taken from the catalog for view \"main.by_town\": do not write it"},
	{"name: x\ntitle: y\ntables: [{name: population}, {schema: main, name: population}]\n", NULL, NULL,
		"dataset.yml: tables[1]: table \"main.population\" is described twice (also in dataset.yml at tables[0])"},
	{"name: x\ntitle: y\ntables: [{name: population}]\n", "population.table.yml", "title: P\n",
		"population.table.yml: table \"main.population\" is described twice (also in dataset.yml at tables[0])"},
	{"name: x\ntitle: y\n", "towns.table.yml", "schema: stats\nname: town\n",
		"towns.table.yml: describes table \"stats.town\": name the file town.table.yml"},
	{"name: x\ntitle: y\n", "ghost.table.yml", "title: G\n",
		"ghost.table.yml: table \"main.ghost\" is not in the catalog"},
	{"name: x\ntitle: y\n", "stats.towns.table.yml", "title: T\nfields:\n  - name: code\n  - name: zip\n",
		"stats.towns.table.yml: fields[1]: table \"stats.towns\" has no column \"zip\" in the catalog"},
	{"name: x\ntitle: y\n", "population.table.yml", "title: P\n  oops: 1\n",
		"population.table.yml:2: unexpected indentation (a plain scalar cannot continue on the next line: "
		"quote it, or use | or >)"},
	{"name: x\ntitle: y\n", "population.table.yml", "[a]\n",
		"population.table.yml: must be a mapping: one table's description"},
	{"name: x\ntitle: &a y\n", NULL, NULL, "dataset.yml:2: anchors (&) are not supported"},
};

START_TEST(test_refused)
{
	const Refusal *r = &refusals[_i];
	char		path[512];

	if (r->dataset)
		write_file("dataset.yml", r->dataset);
	if (r->table_file)
		write_file(r->table_file, r->table_text);
	expect_refusal(r->message);
	snprintf(path, sizeof(path), "%s/dataset.yml", dir);
	unlink(path);
	if (r->table_file)
	{
		snprintf(path, sizeof(path), "%s/%s", dir, r->table_file);
		unlink(path);
	}
}
END_TEST

START_TEST(test_bad_catalog)
{
	char	   *err = NULL;
	json_t	   *bad = json_pack("{s:[{s:s}]}", "tables", "name", "t");

	ck_assert_ptr_null(fdl_dataset_build(NULL, bad, &err));
	ck_assert_str_eq(err, "the catalog: malformed catalog description");
	free(err);
	json_decref(bad);
	bad = json_pack("{s:[]}", "tables");
	ck_assert_ptr_null(fdl_dataset_build(NULL, bad, &err));
	ck_assert_str_eq(err, "the catalog: no database name to name the dataset by");
	free(err);
	json_decref(bad);
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("fdl_dataset");
	TCase	   *tc = tcase_create("build");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_no_description);
	tcase_add_test(tc, test_completed);
	tcase_add_loop_test(tc, test_refused, 0, (int) (sizeof(refusals) / sizeof(refusals[0])));
	tcase_add_test(tc, test_bad_catalog);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
