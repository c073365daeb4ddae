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
#include <stdint.h>

/* str checked as json (the result is str itself) or normalised as jsonb (palloc'd) */
const char *pgjson_input(const char *str, bool jsonb);

/*
 * Reading a valid document (a json or jsonb value's text): pgjson_get is the member
 * key of an object (key set; the last of duplicates) or the element index of an array
 * (negative: from the end), as its text in the document (palloc'd), NULL if doc is not
 * such a container or has no such member; pgjson_array_length the elements of an
 * array, -1 for an object and -2 for a scalar; pgjson_text a value as ->> gives it:
 * NULL for null, a string decoded, anything else its text.
 */
char	   *pgjson_get(const char *doc, const char *key, int64_t index);
int64_t		pgjson_array_length(const char *doc);
const char *pgjson_text(const char *value);

#endif
