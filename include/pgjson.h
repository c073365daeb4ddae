/*
 * pgjson.h -- json and jsonb input as PostgreSQL 15 reads them
 *
 * json keeps its text once it is known to be JSON by PostgreSQL's grammar (numbers of
 * any size, \u0000, duplicate keys); jsonb is normalised as PostgreSQL stores it: keys
 * sorted (shorter first, then bytewise) with the last of duplicates kept, numbers in
 * numeric's canonical text, escapes decoded, and written back with PostgreSQL's
 * spacing ({"a": 1, "b": [1, 2]}). Errors are PostgreSQL's: 22P02 for bad syntax,
 * 22P05 for \u0000 in jsonb.
 */
#ifndef PGJSON_H
#define PGJSON_H

#include <stdbool.h>

/*
 * How the cache declares a json or jsonb column: "json_text", "jsonb_text". The
 * suffix gives the column TEXT affinity: under SQLite's NUMERIC affinity, which the
 * bare names have, a document that is a number ('0.0', '12345678901234567890')
 * would be kept as a number and come back changed. Columns made before (declared
 * "json") keep that affinity.
 */
#define JSON_CACHE_SUFFIX "_text"

/* str checked as json (the result is str itself) or normalised as jsonb (palloc'd) */
const char *pgjson_input(const char *str, bool jsonb);

#endif
