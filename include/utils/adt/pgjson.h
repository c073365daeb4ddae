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

/* str checked as json (the result is str itself) or normalised as jsonb (palloc'd) */
const char *pgjson_input(const char *str, bool jsonb);

#endif
