/*
 * typio.c: text and binary I/O of the PostgreSQL types RockLake serves.
 *
 * Clients are strict about these formats: psql compares booleans with "t",
 * pgjdbc and asyncpg decode binary int/float/numeric/date/timestamp values
 * byte by byte, DuckDB's postgres scanner reads binary COPY. Each type therefore
 * gets PostgreSQL's exact text form (DateStyle ISO, IntervalStyle postgres,
 * bytea_output hex, shortest exact floats) and its exact binary form (network
 * byte order; numeric in base-10000 digits; dates and timestamps counted from
 * 2000-01-01). Input is as tolerant as PostgreSQL's where clients rely on it
 * (whitespace around numbers, boolean spellings, ISO dates with or without time
 * and zone) and fails with PostgreSQL's SQLSTATE and wording otherwise.
 *
 * Session time zone: timestamptz values are shown in UTC ("+00"); the server
 * reports TimeZone as its setting says, and a later issue converts.
 *
 * This file holds the type table, the dispatch of typio_input / typio_output /
 * typio_receive / typio_send and the simple types; numeric's text and binary forms
 * are numeric.c's, the dates' and times' text forms datetime.c's
 * (typio_internal.h is what the three share).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "utils/adt/numeric.h"
#include "utils/adt/pgjson.h"
#include "utils/adt/typio.h"
#include "utils/adt/typio_internal.h"
#include "utils/elog.h"
#include "utils/mb/encoding.h"
#include "utils/mcxt.h"

/* the largest zone displacement PostgreSQL takes, 15:59:59 */
#define TIMETZ_ZONE_LIMIT	(15 * 3600 + 59 * 60 + 59)

#define TYPE_INDEX_SIZE 8192

static const TypeInfo types[] = {
	{BOOLOID, "bool", "boolean", 1, TYPCATEGORY_BOOLEAN, 0, 0},
	{BYTEAOID, "bytea", "bytea", -1, TYPCATEGORY_USER, 0, 0},
	{CHAROID, "char", "\"char\"", 1, TYPCATEGORY_STRING, 0, 0},
	{NAMEOID, "name", "name", NAMEDATALEN, TYPCATEGORY_STRING, 0, 0},
	{INT8OID, "int8", "bigint", 8, TYPCATEGORY_NUMERIC, 3, 0},
	{INT2OID, "int2", "smallint", 2, TYPCATEGORY_NUMERIC, 1, 0},
	{INT4OID, "int4", "integer", 4, TYPCATEGORY_NUMERIC, 2, 0},
	{TEXTOID, "text", "text", -1, TYPCATEGORY_STRING, 0, 0},
	{OIDOID, "oid", "oid", 4, TYPCATEGORY_NUMERIC, 3, 0},
	{JSONOID, "json", "json", -1, TYPCATEGORY_USER, 0, 0},
	{FLOAT4OID, "float4", "real", 4, TYPCATEGORY_NUMERIC, 5, 0},
	{FLOAT8OID, "float8", "double precision", 8, TYPCATEGORY_NUMERIC, 6, 0},
	{UNKNOWNOID, "unknown", "unknown", -2, TYPCATEGORY_PSEUDO, 0, 0},
	{BPCHAROID, "bpchar", "character", -1, TYPCATEGORY_STRING, 0, 0},
	{VARCHAROID, "varchar", "character varying", -1, TYPCATEGORY_STRING, 0, 0},
	{DATEOID, "date", "date", 4, TYPCATEGORY_DATETIME, 0, 0},
	{TIMEOID, "time", "time without time zone", 8, TYPCATEGORY_DATETIME, 0, 0},
	{TIMETZOID, "timetz", "time with time zone", 12, TYPCATEGORY_DATETIME, 0, 0},
	{TIMESTAMPOID, "timestamp", "timestamp without time zone", 8, TYPCATEGORY_DATETIME, 0, 0},
	{TIMESTAMPTZOID, "timestamptz", "timestamp with time zone", 8, TYPCATEGORY_DATETIME, 0, 0},
	{INTERVALOID, "interval", "interval", 16, TYPCATEGORY_TIMESPAN, 0, 0},
	{NUMERICOID, "numeric", "numeric", -1, TYPCATEGORY_NUMERIC, 4, 0},
	{VOIDOID, "void", "void", 4, TYPCATEGORY_PSEUDO, 0, 0},
	{UUIDOID, "uuid", "uuid", 16, TYPCATEGORY_USER, 0, 0},
	{JSONBOID, "jsonb", "jsonb", -1, TYPCATEGORY_USER, 0, 0},
	{TIDOID, "tid", "tid", 6, TYPCATEGORY_USER, 0, 0},
	{XIDOID, "xid", "xid", 4, TYPCATEGORY_USER, 0, 0},
	{INETOID, "inet", "inet", -1, TYPCATEGORY_USER, 0, 0},
	{PGNODETREEOID, "pg_node_tree", "pg_node_tree", -1, TYPCATEGORY_STRING, 0, 0},
	{ACLITEMOID, "aclitem", "aclitem", 16, TYPCATEGORY_USER, 0, 0},
	/* the reg* types are OIDs: they compare and convert as oid does */
	{REGCLASSOID, "regclass", "regclass", 4, TYPCATEGORY_NUMERIC, 3, 0},
	{REGTYPEOID, "regtype", "regtype", 4, TYPCATEGORY_NUMERIC, 3, 0},
	{REGNAMESPACEOID, "regnamespace", "regnamespace", 4, TYPCATEGORY_NUMERIC, 3, 0},
	{REGPROCOID, "regproc", "regproc", 4, TYPCATEGORY_NUMERIC, 3, 0},
	{REGPROCEDUREOID, "regprocedure", "regprocedure", 4, TYPCATEGORY_NUMERIC, 3, 0},
	{BOOLARRAYOID, "_bool", "boolean[]", -1, TYPCATEGORY_ARRAY, 0, BOOLOID},
	{NAMEARRAYOID, "_name", "name[]", -1, TYPCATEGORY_ARRAY, 0, NAMEOID},
	{CHARARRAYOID, "_char", "\"char\"[]", -1, TYPCATEGORY_ARRAY, 0, CHAROID},
	{INT2ARRAYOID, "_int2", "smallint[]", -1, TYPCATEGORY_ARRAY, 0, INT2OID},
	{INT4ARRAYOID, "_int4", "integer[]", -1, TYPCATEGORY_ARRAY, 0, INT4OID},
	{TEXTARRAYOID, "_text", "text[]", -1, TYPCATEGORY_ARRAY, 0, TEXTOID},
	{VARCHARARRAYOID, "_varchar", "character varying[]", -1, TYPCATEGORY_ARRAY, 0, VARCHAROID},
	{INT8ARRAYOID, "_int8", "bigint[]", -1, TYPCATEGORY_ARRAY, 0, INT8OID},
	{FLOAT8ARRAYOID, "_float8", "double precision[]", -1, TYPCATEGORY_ARRAY, 0, FLOAT8OID},
	{OIDARRAYOID, "_oid", "oid[]", -1, TYPCATEGORY_ARRAY, 0, OIDOID},
	{ACLITEMARRAYOID, "_aclitem", "aclitem[]", -1, TYPCATEGORY_ARRAY, 0, ACLITEMOID},
	/* the arrays of the other types, which ARRAY[...] of them makes */
	{1001, "_bytea", "bytea[]", -1, TYPCATEGORY_ARRAY, 0, BYTEAOID},
	{1010, "_tid", "tid[]", -1, TYPCATEGORY_ARRAY, 0, TIDOID},
	{1014, "_bpchar", "character[]", -1, TYPCATEGORY_ARRAY, 0, BPCHAROID},
	{1021, "_float4", "real[]", -1, TYPCATEGORY_ARRAY, 0, FLOAT4OID},
	{1115, "_timestamp", "timestamp without time zone[]", -1, TYPCATEGORY_ARRAY, 0, TIMESTAMPOID},
	{1182, "_date", "date[]", -1, TYPCATEGORY_ARRAY, 0, DATEOID},
	{1183, "_time", "time without time zone[]", -1, TYPCATEGORY_ARRAY, 0, TIMEOID},
	{1185, "_timestamptz", "timestamp with time zone[]", -1, TYPCATEGORY_ARRAY, 0, TIMESTAMPTZOID},
	{1187, "_interval", "interval[]", -1, TYPCATEGORY_ARRAY, 0, INTERVALOID},
	{1231, "_numeric", "numeric[]", -1, TYPCATEGORY_ARRAY, 0, NUMERICOID},
	{1270, "_timetz", "time with time zone[]", -1, TYPCATEGORY_ARRAY, 0, TIMETZOID},
	{2951, "_uuid", "uuid[]", -1, TYPCATEGORY_ARRAY, 0, UUIDOID},
	{199, "_json", "json[]", -1, TYPCATEGORY_ARRAY, 0, JSONOID},
	{3807, "_jsonb", "jsonb[]", -1, TYPCATEGORY_ARRAY, 0, JSONBOID},
	{1008, "_regproc", "regproc[]", -1, TYPCATEGORY_ARRAY, 0, REGPROCOID},
	{2207, "_regprocedure", "regprocedure[]", -1, TYPCATEGORY_ARRAY, 0, REGPROCEDUREOID},
	{2210, "_regclass", "regclass[]", -1, TYPCATEGORY_ARRAY, 0, REGCLASSOID},
	{2211, "_regtype", "regtype[]", -1, TYPCATEGORY_ARRAY, 0, REGTYPEOID},
	{4090, "_regnamespace", "regnamespace[]", -1, TYPCATEGORY_ARRAY, 0, REGNAMESPACEOID},
	/* after int2[] and oid[], which are the arrays of int2 and oid (typio_array_type) */
	{INT2VECTOROID, "int2vector", "int2vector", -1, TYPCATEGORY_ARRAY, 0, INT2OID},
	{OIDVECTOROID, "oidvector", "oidvector", -1, TYPCATEGORY_ARRAY, 0, OIDOID},
	{ANYARRAYOID, "anyarray", "anyarray", -1, TYPCATEGORY_PSEUDO, 0, 0},
	{ANYELEMENTOID, "anyelement", "anyelement", 4, TYPCATEGORY_PSEUDO, 0, 0},
};
_Static_assert(sizeof(types) / sizeof(types[0]) < 255, "typio_lookup indexes types[] in a byte");

TypioRegHooks typio_reg_hooks;

/* SQL spellings that are not a pg_type name */
static const struct
{
	const char *name;
	Oid			type;
}			type_aliases[] = {
	{"int", INT4OID}, {"integer", INT4OID}, {"smallint", INT2OID},
	{"bigint", INT8OID}, {"real", FLOAT4OID}, {"float", FLOAT8OID},
	{"double precision", FLOAT8OID}, {"decimal", NUMERICOID},
	{"boolean", BOOLOID}, {"character varying", VARCHAROID},
	{"character", BPCHAROID},
	{"timestamp without time zone", TIMESTAMPOID},
	{"timestamp with time zone", TIMESTAMPTZOID},
	{"time without time zone", TIMEOID},
	{"time with time zone", TIMETZOID},
};

const TypeInfo *
typio_lookup(Oid type)
{
	/* types[] by OID (all of them are below TYPE_INDEX_SIZE): every value sent looks here */
	static uint8_t index[TYPE_INDEX_SIZE];	/* position in types[] + 1, 0: none */
	static bool indexed;

	if (!indexed)
	{
		for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (types[i].oid < TYPE_INDEX_SIZE)
				index[types[i].oid] = (uint8_t) (i + 1);
		indexed = true;
	}
	if (type < TYPE_INDEX_SIZE)
		return index[type] ? &types[index[type] - 1] : NULL;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].oid == type)
			return &types[i];
	return NULL;
}

Oid
typio_type_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(types[i].name, name) == 0)
			return types[i].oid;
	for (size_t i = 0; i < sizeof(type_aliases) / sizeof(type_aliases[0]); i++)
		if (strcmp(type_aliases[i].name, name) == 0)
			return type_aliases[i].type;
	return InvalidOid;
}

Oid
typio_type_by_sql_name(const char *text, char *shown)
{
	char		name[TYPIO_SQL_NAME_MAX];
	size_t		n = 0;
	bool		quoted = false;
	int			arrays = 0;
	const char *p = text;
	Oid			type;

	while (isspace((unsigned char) *p))
		p++;
	if (strncasecmp(p, "pg_catalog.", 11) == 0)
		p += 11;
	if (*p == '"')
	{
		const char *end = strchr(p + 1, '"');

		if (end == NULL || (size_t) (end - p) > sizeof(name))
			return InvalidOid;
		n = (size_t) (end - p - 1);
		memcpy(name, p + 1, n);
		quoted = true;
		p = end + 1;
	}
	for (; *p && *p != '['; p++)
	{
		if (*p == '(')
		{
			if ((p = strchr(p, ')')) == NULL)
				return InvalidOid;
		}
		else if (quoted && !isspace((unsigned char) *p))
			return InvalidOid;	/* a quoted name is the whole name */
		else if (isspace((unsigned char) *p))
		{
			if (n > 0 && name[n - 1] != ' ')
				name[n++] = ' ';
		}
		else
			name[n++] = (char) tolower((unsigned char) *p);
		if (n >= sizeof(name) - 1)
			return InvalidOid;
	}
	while (n > 0 && name[n - 1] == ' ')
		n--;
	name[n] = '\0';
	if (shown)
		strcpy(shown, name);
	for (; *p; p++)
		if (*p == '[' && (p = strchr(p, ']')) != NULL)
			arrays++;
		else if (p == NULL || !isspace((unsigned char) *p))
			return InvalidOid;
	type = !quoted && strcmp(name, "char") == 0 ? BPCHAROID
		: !quoted && strcmp(name, "char varying") == 0 ? VARCHAROID
		: typio_type_by_name(name);
	return arrays > 0 && type != InvalidOid ? typio_array_type(type) : type;
}

const char *
typio_format_type(Oid type)
{
	const TypeInfo *t = typio_lookup(type);

	return t ? t->sql_name : psprintf("type %u", type);
}

bool
typio_is_oid(Oid type)
{
	return type == OIDOID || type == REGCLASSOID || type == REGTYPEOID || type == REGNAMESPACEOID ||
		type == REGPROCOID || type == REGPROCEDUREOID;
}

Oid
typio_array_type(Oid elem)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].elem == elem && types[i].category == TYPCATEGORY_ARRAY)
			return types[i].oid;
	return InvalidOid;
}

char *
typio_format_type_typmod(Oid type, int32_t typmod)
{
	const char *name = typio_format_type(type);
	const TypeInfo *t = typio_lookup(type);

	if (typmod < 4)
		return pstrdup(name);
	if (t != NULL && t->category == TYPCATEGORY_ARRAY && t->elem != InvalidOid)
		return psprintf("%s[]", typio_format_type_typmod(t->elem, typmod));	/* numeric(38,6)[] */
	switch (type)
	{
		case NUMERICOID:
			return psprintf("%s(%d,%d)", name, (typmod - 4) >> 16, (typmod - 4) & 0xffff);
		case VARCHAROID:
		case BPCHAROID:
			return psprintf("%s(%d)", name, typmod - 4);
		default:
			return pstrdup(name);
	}
}

Value
typio_char_length(const Value *v, int32_t typmod, bool explicit)
{
	size_t		max = typmod >= 4 ? (size_t) typmod - 4 : SIZE_MAX;
	size_t		chars = 0,
				cut = v->u.s.len;

	/* UTF-8: a character starts at every byte that is not a continuation byte */
	for (size_t i = 0; i < v->u.s.len; i++)
		if (((uint8_t) v->u.s.data[i] & 0xc0) != 0x80 && chars++ == max)
			cut = i;
	if (chars > max && !explicit)
		for (size_t i = cut; i < v->u.s.len; i++)
			if (v->u.s.data[i] != ' ')
				ereport(ERROR,
						errcode(ERRCODE_STRING_DATA_RIGHT_TRUNCATION),
						errmsg("value too long for type %s(%zu)",
							   v->type == BPCHAROID ? "character" : "character varying", max));
	if (chars > max)
		return typio_string(v->type, v->u.s.data, cut);
	if (v->type != BPCHAROID || chars == max || max == SIZE_MAX)
		return *v;

	/* character(n): padded to n characters */
	Value		padded = typio_string(BPCHAROID, v->u.s.data, v->u.s.len);

	padded.u.s.data = repalloc(padded.u.s.data, v->u.s.len + (max - chars) + 1);
	memset(padded.u.s.data + v->u.s.len, ' ', max - chars);
	padded.u.s.len = v->u.s.len + (max - chars);
	padded.u.s.data[padded.u.s.len] = '\0';
	return padded;
}

Value
typio_string(Oid type, const char *data, size_t len)
{
	Value		v = {.type = type};

	v.u.s.data = palloc(len + 1);
	if (len > 0)				/* data may be NULL then (SQLite's empty blob) */
		memcpy(v.u.s.data, data, len);
	v.u.s.data[len] = '\0';
	v.u.s.len = len;
	return v;
}

/* ---------- input errors ---------- */

void __attribute__((noreturn))
invalid_syntax(Oid type, const char *str)
{
	ereport(ERROR,
			errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			errmsg("invalid input syntax for type %s: \"%s\"", typio_format_type(type), str));
}

void
out_of_range(Oid type, const char *str)
{
	ereport(ERROR,
			errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			errmsg("value \"%s\" is out of range for type %s", str, typio_format_type(type)));
}

/* PostgreSQL's date/time input errors name time and timestamp without their "without time zone" */
void
invalid_datetime(Oid type, const char *str)
{
	ereport(ERROR,
			errcode(ERRCODE_INVALID_DATETIME_FORMAT),
			errmsg("invalid input syntax for type %s: \"%s\"",
				   type == TIMEOID ? "time" : type == TIMESTAMPOID ? "timestamp" : typio_format_type(type), str));
}

void
datetime_out_of_range(const char *str)
{
	ereport(ERROR,
			errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			errmsg("date/time field value out of range: \"%s\"", str));
}

void
bad_binary(Oid type)
{
	ereport(ERROR,
			errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			errmsg("incorrect binary data format for type %s", typio_format_type(type)));
}

const char *
skip_space(const char *s)
{
	while (isspace((unsigned char) *s))
		s++;
	return s;
}

/* ---------- bool ---------- */

static Value
bool_in(const char *str)
{
	static const struct
	{
		const char *word;
		bool		value;
	}			words[] = {
		{"true", true}, {"yes", true}, {"on", true}, {"1", true},
		{"false", false}, {"no", false}, {"off", false}, {"0", false},
	};
	const char *s = skip_space(str);
	size_t		len = strlen(s);

	while (len > 0 && isspace((unsigned char) s[len - 1]))
		len--;
	/* unique prefixes, as PostgreSQL's parse_bool ("o" alone is ambiguous) */
	if (len >= 1 && !(len == 1 && tolower((unsigned char) s[0]) == 'o'))
		for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (len <= strlen(words[i].word) && strncasecmp(s, words[i].word, len) == 0 &&
				(len > 1 || isalpha((unsigned char) s[0]) || strlen(words[i].word) == 1))
				return typio_bool(words[i].value);
	invalid_syntax(BOOLOID, str);
	return typio_null(BOOLOID);
}

/* ---------- integers ---------- */

static Value
int_in(Oid type, const char *str)
{
	const char *s = skip_space(str);
	char	   *end;

	if (*s == '\0')
		invalid_syntax(type, str);
	errno = 0;
	long long	v = strtoll(s, &end, 10);

	if (end == s || !(isdigit((unsigned char) end[-1])))
		invalid_syntax(type, str);
	if (*skip_space(end) != '\0')
		invalid_syntax(type, str);
	if (errno == ERANGE ||
		(type == INT2OID && (v < INT16_MIN || v > INT16_MAX)) ||
		(type == INT4OID && (v < INT32_MIN || v > INT32_MAX)) ||
		(type == OIDOID && (v < INT32_MIN || v > UINT32_MAX)))
		out_of_range(type, str);
	if (type == OIDOID)
		v = (uint32_t) v;
	return typio_int(type, v);
}

/* ---------- floats ---------- */

static Value
float_in(Oid type, const char *str)
{
	const char *s = skip_space(str);
	char	   *end;
	double		v;

	if (strncasecmp(s, "NaN", 3) == 0)
	{
		v = NAN;
		end = (char *) s + 3;
	}
	else if (strncasecmp(s, "Infinity", 8) == 0 || strncasecmp(s, "+Infinity", 9) == 0)
	{
		v = INFINITY;
		end = (char *) s + (s[0] == '+' ? 9 : 8);
	}
	else if (strncasecmp(s, "-Infinity", 9) == 0)
	{
		v = -INFINITY;
		end = (char *) s + 9;
	}
	else
	{
		/*
		 * A float4 is read by strtof, not rounded from a double (twice rounded, it
		 * could differ in its last bit). Overflow and underflow to zero are out of
		 * range; a subnormal result, for which ERANGE may be set too, is kept.
		 */
		errno = 0;
		v = type == FLOAT4OID ? strtof(s, &end) : strtod(s, &end);
		if (end == s)
			invalid_syntax(type, str);
		if (errno == ERANGE && (v == 0 || isinf(v)))
			ereport(ERROR,
					errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("\"%s\" is out of range for type %s", str, typio_format_type(type)));
	}
	if (*skip_space(end) != '\0')
		invalid_syntax(type, str);
	if (type == FLOAT4OID)
		v = (float) v;
	return typio_float(type, v);
}

/*
 * float_out -- the shortest text that reads back as the same value
 *
 * PostgreSQL's format: plain notation for decimal exponents from -4 up to the
 * type's digit count (15 for float8, 6 for float4), scientific beyond, with at
 * least two exponent digits ("1e+15", "1.5e-05").
 */
static char *
float_out(double v, bool is_float4)
{
	if (isnan(v))
		return pstrdup("NaN");
	if (isinf(v))
		return pstrdup(v > 0 ? "Infinity" : "-Infinity");
	if (v == 0)
		return pstrdup(signbit(v) ? "-0" : "0");

	char		buf[64];
	int			maxprec = is_float4 ? 9 : 17;
	int			prec;

	for (prec = 1; prec < maxprec; prec++)
	{
		snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
		if (is_float4 ? strtof(buf, NULL) == (float) v : strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);

	/* split "-d.ddde+XX" into sign, digits and exponent */
	bool		neg = buf[0] == '-';
	char		digits[32];
	int			nd = 0;
	const char *p = buf + (neg ? 1 : 0);

	for (; *p && *p != 'e'; p++)
		if (isdigit((unsigned char) *p))
			digits[nd++] = *p;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	int			exp10 = atoi(p + 1);
	int			plain_limit = is_float4 ? 6 : 15;
	RlBuf		out;

	rlbuf_init_in(&out, CurrentMemoryContext);
	if (neg)
		rlbuf_put_u8(&out, '-');
	if (exp10 < -4 || exp10 >= plain_limit)
	{
		rlbuf_put_u8(&out, (uint8_t) digits[0]);
		if (nd > 1)
		{
			rlbuf_put_u8(&out, '.');
			rlbuf_append(&out, digits + 1, (size_t) nd - 1);
		}
		rlbuf_printf(&out, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
	}
	else if (exp10 < 0)
	{
		rlbuf_append_str(&out, "0.");
		for (int i = -1; i > exp10; i--)
			rlbuf_put_u8(&out, '0');
		rlbuf_append(&out, digits, (size_t) nd);
	}
	else
	{
		for (int i = 0; i <= exp10 || i < nd; i++)
		{
			if (i == exp10 + 1)
				rlbuf_put_u8(&out, '.');
			rlbuf_put_u8(&out, (uint8_t) (i < nd ? digits[i] : '0'));
		}
	}
	char	   *result = pstrdup(rlbuf_cstr(&out));

	rlbuf_free(&out);
	return result;
}

/* ---------- uuid and bytea ---------- */

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static Value
uuid_in(const char *str)
{
	Value		v = {.type = UUIDOID};
	const char *s = skip_space(str);
	bool		braces = *s == '{';
	int			n = 0;

	if (braces)
		s++;
	while (n < 32)
	{
		if (*s == '-' && n > 0 && n % 4 == 0)
			s++;
		int			hi = hexval((unsigned char) s[0]);
		int			lo = hi >= 0 ? hexval((unsigned char) s[1]) : -1;

		if (lo < 0)
			invalid_syntax(UUIDOID, str);
		v.u.uuid[n / 2] = (uint8_t) (hi << 4 | lo);
		n += 2;
		s += 2;
	}
	if (braces && *s++ != '}')
		invalid_syntax(UUIDOID, str);
	if (*skip_space(s) != '\0')
		invalid_syntax(UUIDOID, str);
	return v;
}

static Value
bytea_in(const char *str)
{
	size_t		len = strlen(str);
	uint8_t    *out = palloc(len + 1);
	size_t		n = 0;

	if (str[0] == '\\' && str[1] == 'x')
	{
		for (const char *s = str + 2; *s;)
		{
			if (isspace((unsigned char) *s))
			{
				s++;
				continue;
			}
			int			hi = hexval((unsigned char) s[0]);

			if (hi >= 0 && s[1] == '\0')
				ereport(ERROR,
						errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("invalid hexadecimal data: odd number of digits"));

			int			lo = hi >= 0 ? hexval((unsigned char) s[1]) : -1;

			if (lo < 0)
			{
				/* the whole character, as PostgreSQL shows it (the text is UTF-8) */
				const char *bad = hi < 0 ? s : s + 1;
				unsigned char b = (unsigned char) *bad;
				size_t		n = b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : 4;

				ereport(ERROR,
						errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("invalid hexadecimal digit: \"%.*s\"", (int) strnlen(bad, n), bad));
			}
			out[n++] = (uint8_t) (hi << 4 | lo);
			s += 2;
		}
	}
	else
	{
		for (const char *s = str; *s;)
		{
			if (s[0] != '\\')
				out[n++] = (uint8_t) *s++;
			else if (s[1] == '\\')
			{
				out[n++] = '\\';
				s += 2;
			}
			else if (s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7')
			{
				out[n++] = (uint8_t) ((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
				s += 4;
			}
			else
				invalid_syntax(BYTEAOID, str);
		}
	}
	Value		v = {.type = BYTEAOID};

	v.u.s.data = (char *) out;
	v.u.s.len = n;
	out[n] = '\0';
	return v;
}

/* ---------- entry points ---------- */

/*
 * tid_in -- '(block,offset)': a row's ctid, held as (block << 16) | offset, the
 * row identity it is derived from (catalog.c)
 */
static Value
tid_in(const char *str)
{
	long long	block;
	int			offset,
				end = 0;
	/*
	 * As PostgreSQL's tidin: the numbers start after the first '(' and nothing
	 * after the ')' is looked at. DuckDB's UPDATE through a temporary table relies
	 * on it, casting ctid strings it wrote quoted, "'(0,6)'".
	 */
	const char *open = strchr(str, '(');

	if (open == NULL || sscanf(open, "(%lld ,%d )%n", &block, &offset, &end) != 2 || end == 0 ||
		block < 0 || block > UINT32_MAX || offset < 0 || offset > UINT16_MAX)
		invalid_syntax(TIDOID, str);
	return typio_int(TIDOID, ((int64_t) block << 16) | offset);
}

/* json keeps its text once it is known to be JSON; jsonb is normalised (pgjson.h) */
static Value
json_in(Oid type, const char *str)
{
	const char *text = pgjson_input(str, type == JSONBOID);

	return typio_string(type, text, strlen(text));
}

/* ---------- arrays (one dimension) and the reg* types ---------- */

static void
malformed_array(const char *text, const char *detail)
{
	ereport(ERROR,
			errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			errmsg("malformed array literal: \"%s\"", text),
			errdetail("%s", detail));
}

ArrayElements
typio_array_parse(const char *text)
{
	ArrayElements elems = {0, palloc(sizeof(char *))};
	const char *p = text;
	RlBuf		item;

	while (isspace((unsigned char) *p))
		p++;
	if (*p != '{')
		malformed_array(text, "Array value must start with \"{\" or dimension information.");
	p++;
	while (isspace((unsigned char) *p))
		p++;
	if (*p == '}')
		p++;
	else
		for (;;)
		{
			bool		quoted = false,
						any_quoted = false;
			size_t		trimmed = 0;

			rlbuf_init_in(&item, CurrentMemoryContext);
			while (isspace((unsigned char) *p))
				p++;
			if (*p == '{')
				ereport(ERROR,
						errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						errmsg("multidimensional arrays are not supported yet"));
			for (; *p && (quoted || (*p != ',' && *p != '}')); p++)
			{
				if (*p == '"')
				{
					quoted = !quoted;
					any_quoted = true;
					trimmed = item.len;
					continue;
				}
				if (*p == '\\' && p[1])
					p++;
				else if (!quoted && isspace((unsigned char) *p))
				{
					rlbuf_append(&item, p, 1);
					continue;
				}
				rlbuf_append(&item, p, 1);
				trimmed = item.len;
			}
			if (*p == '\0' || quoted)
				malformed_array(text, "Unexpected end of input.");
			elems.items = repalloc(elems.items, sizeof(char *) * (size_t) (elems.n + 1));
			item.len = trimmed;
			elems.items[elems.n++] = !any_quoted && strcasecmp(rlbuf_cstr(&item), "NULL") == 0
				? NULL : pstrdup(rlbuf_cstr(&item));
			rlbuf_free(&item);
			if (*p++ == '}')
				break;
		}
	while (isspace((unsigned char) *p))
		p++;
	if (*p != '\0')
		malformed_array(text, "Junk after closing right brace.");
	return elems;
}

/* element_needs_quotes -- PostgreSQL's array_out quotes these */
static bool
element_needs_quotes(const char *s)
{
	if (*s == '\0' || strcasecmp(s, "NULL") == 0)
		return true;
	for (; *s; s++)
		if (strchr("{},\"\\", *s) || isspace((unsigned char) *s))
			return true;
	return false;
}

Value
typio_array_build(Oid array_type, const ArrayElements *elems)
{
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	rlbuf_append_str(&b, "{");
	for (int i = 0; i < elems->n; i++)
	{
		const char *s = elems->items[i];

		if (i)
			rlbuf_append_str(&b, ",");
		if (s == NULL)
			rlbuf_append_str(&b, "NULL");
		else if (!element_needs_quotes(s))
			rlbuf_append_str(&b, s);
		else
		{
			rlbuf_append_str(&b, "\"");
			for (; *s; s++)
			{
				if (*s == '"' || *s == '\\')
					rlbuf_append_str(&b, "\\");
				rlbuf_append(&b, s, 1);
			}
			rlbuf_append_str(&b, "\"");
		}
	}
	rlbuf_append_str(&b, "}");
	Value		v = typio_string(array_type, rlbuf_cstr(&b), b.len);

	rlbuf_free(&b);
	return v;
}

/* vector_elements -- int2vector and oidvector text: numbers separated by spaces (or an array's) */
static ArrayElements
vector_elements(const char *str)
{
	ArrayElements elems = {0, palloc(sizeof(char *) * (strlen(str) / 2 + 2))};

	for (const char *p = str; *p;)
	{
		size_t		n;

		while (*p == ' ')
			p++;
		if ((n = strcspn(p, " ")) > 0)
			elems.items[elems.n++] = pnstrdup(p, n);
		p += n;
	}
	return elems;
}

/* array_in -- parse, check every element against its type, and keep the canonical text */
static Value
array_in(Oid type, const char *str, int32_t typmod)
{
	ArrayElements elems = (type == INT2VECTOROID || type == OIDVECTOROID) && *str != '{'
		? vector_elements(str) : typio_array_parse(str);
	Oid			elem = typio_lookup(type)->elem;

	for (int i = 0; i < elems.n; i++)
		if (elems.items[i] != NULL)
		{
			Value		v = typio_input(elem, elems.items[i], typmod);

			elems.items[i] = typio_output(&v, NULL);
		}
	return typio_array_build(type, &elems);
}

/* array_send -- PostgreSQL's binary array: header, one dimension (lower bound 1), elements */
static void
array_send(PqMsgBuilder *msg, const Value *v)
{
	ArrayElements elems = typio_array_parse(v->u.s.data);
	Oid			elem = typio_lookup(v->type)->elem;
	bool		has_null = false;

	for (int i = 0; i < elems.n; i++)
		has_null |= elems.items[i] == NULL;
	pq_sendint32(msg, elems.n > 0 ? 1 : 0);
	pq_sendint32(msg, has_null ? 1 : 0);
	pq_sendint32(msg, elem);
	if (elems.n > 0)
	{
		pq_sendint32(msg, (uint32_t) elems.n);
		pq_sendint32(msg, 1);
	}
	for (int i = 0; i < elems.n; i++)
	{
		if (elems.items[i] == NULL)
		{
			pq_sendint32(msg, (uint32_t) -1);
			continue;
		}
		Value		e = typio_input(elem, elems.items[i], -1);
		size_t		len_at = pq_sendint32_placeholder(msg);
		size_t		start = msg->buf->len;

		typio_send(msg, &e);
		pq_patchint32(msg, len_at, (uint32_t) (msg->buf->len - start));
	}
}

/* reg_in -- a reg* value: an OID in digits, or a name the backend looks up */
static Value
reg_in(Oid type, const char *str)
{
	if (strcmp(str, "-") == 0)
		return typio_int(type, InvalidOid);	/* what 0 prints as, as in PostgreSQL */
	if (*str >= '0' && *str <= '9')
		return typio_int(type, int_in(OIDOID, str).u.i);
	if (typio_reg_hooks.input == NULL)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("%s input by name is not supported here", typio_format_type(type)));
	return typio_int(type, typio_reg_hooks.input(type, str));
}

Value
typio_input(Oid type, const char *str, int32_t typmod)
{
	switch (type)
	{
		case BOOLOID:
			return bool_in(str);
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case OIDOID:
			return int_in(type, str);
		case XIDOID:
			{
				Value		v = int_in(OIDOID, str);

				v.type = XIDOID;
				return v;
			}
		case INETOID:
			return inet_in(str);
		case REGCLASSOID:
		case REGTYPEOID:
		case REGNAMESPACEOID:
		case REGPROCOID:
		case REGPROCEDUREOID:
			return reg_in(type, str);
		case FLOAT4OID:
		case FLOAT8OID:
			return float_in(type, str);
		case NUMERICOID:
			return numeric_in(str, typmod);
		case DATEOID:
			return date_in(str);
		case TIMEOID:
			return time_in(str);
		case TIMETZOID:
			return timetz_in(str);
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			return timestamp_in(type, str);
		case INTERVALOID:
			return interval_in(str);
		case UUIDOID:
			return uuid_in(str);
		case TIDOID:
			return tid_in(str);
		case BYTEAOID:
			return bytea_in(str);
		case NAMEOID:
			return typio_string(type, str, strnlen(str, NAMEDATALEN - 1));
		case CHAROID:			/* its first byte, as charin takes it */
			return typio_string(type, str, str[0] != '\0');
		case BPCHAROID:
		case VARCHAROID:
			{
				Value		v = typio_string(type, str, strlen(str));

				return typmod >= 4 ? typio_char_length(&v, typmod, false) : v;
			}
		case VOIDOID:
			return typio_null(VOIDOID);
		case JSONOID:
		case JSONBOID:
			return json_in(type, str);
		default:
			if (typio_lookup(type) != NULL && typio_lookup(type)->category == TYPCATEGORY_ARRAY)
				return array_in(type, str, typmod);
			return typio_string(type, str, strlen(str));
	}
}

char *
typio_output(const Value *v, size_t *len)
{
	RlBuf		out;
	char	   *result;

	rlbuf_init_in(&out, CurrentMemoryContext);
	switch (v->type)
	{
		case BOOLOID:
			rlbuf_append_str(&out, v->u.b ? "t" : "f");
			break;
		case INT2VECTOROID:
		case OIDVECTOROID:
			{
				ArrayElements elems = typio_array_parse(v->u.s.data);

				for (int i = 0; i < elems.n; i++)
					rlbuf_printf(&out, "%s%s", i ? " " : "", elems.items[i] ? elems.items[i] : "");
				break;
			}
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case OIDOID:
		case XIDOID:
			rlbuf_append_int(&out, v->u.i);
			break;
		case REGCLASSOID:
		case REGTYPEOID:
		case REGNAMESPACEOID:
		case REGPROCOID:
		case REGPROCEDUREOID:
			{
				char	   *name = v->u.i != 0 && typio_reg_hooks.output ?
					typio_reg_hooks.output(v->type, (Oid) v->u.i) : NULL;

				if (name)
					rlbuf_append_str(&out, name);
				else
					rlbuf_printf(&out, v->u.i == 0 ? "-" : "%lld", (long long) v->u.i);
				break;
			}
		case FLOAT4OID:
		case FLOAT8OID:
			result = float_out(v->u.f, v->type == FLOAT4OID);
			rlbuf_append_str(&out, result);
			break;
		case DATEOID:
			if (v->u.i == DATE_NOEND || v->u.i == DATE_NOBEGIN)
				rlbuf_append_str(&out, v->u.i == DATE_NOEND ? "infinity" : "-infinity");
			else
				format_date(&out, v->u.i);
			break;
		case TIMEOID:
			format_time(&out, v->u.i);
			break;
		case TIMETZOID:
			format_time(&out, timetz_usecs(v->u.i));
			format_zone(&out, timetz_zone(v->u.i));
			break;
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			format_timestamp(&out, v->u.i, v->type == TIMESTAMPTZOID);
			break;
		case INTERVALOID:
			format_interval(&out, &v->u.iv);
			break;
		case TIDOID:
			rlbuf_printf(&out, "(%lld,%lld)", (long long) (v->u.i >> 16), (long long) (v->u.i & 0xffff));
			break;
		case UUIDOID:
			for (int i = 0; i < 16; i++)
				rlbuf_printf(&out, (i == 4 || i == 6 || i == 8 || i == 10) ? "-%02x" : "%02x",
							 v->u.uuid[i]);
			break;
		case BYTEAOID:
			rlbuf_append_str(&out, "\\x");
			for (size_t i = 0; i < v->u.s.len; i++)
				rlbuf_printf(&out, "%02x", (uint8_t) v->u.s.data[i]);
			break;
		case VOIDOID:
			break;
		default:
			rlbuf_append(&out, v->u.s.data, v->u.s.len);
			break;
	}
	if (len)
		*len = out.len;
	result = palloc(out.len + 1);
	memcpy(result, rlbuf_cstr(&out), out.len + 1);
	rlbuf_free(&out);
	return result;
}

/* expect_len -- a fixed-width binary value must have exactly its width */
static void
expect_len(Oid type, size_t len, size_t want)
{
	if (len != want)
		bad_binary(type);
}

/*
 * array_recv -- PostgreSQL's binary array (what array_send writes): of one dimension or
 * none, its elements' binary forms; the lower bound is not kept (subscripts start at 1)
 */
static Value
array_recv(Oid type, const uint8_t *data, size_t len)
{
	Oid			elem = typio_lookup(type)->elem;
	size_t		at = 12;

	if (len < 12)
		bad_binary(type);

	int32_t		ndim = (int32_t) rl_load_u32be(data);
	uint32_t	flags = rl_load_u32be(data + 4);
	Oid			given = rl_load_u32be(data + 8);

	if (ndim > 1)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("multidimensional arrays are not supported yet"));
	if (ndim < 0 || flags > 1)
		bad_binary(type);
	if (given != elem)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("binary data has array element type %u (%s) instead of expected %u (%s)",
					   given, typio_lookup(given) ? typio_format_type(given) : "???", elem, typio_format_type(elem)));

	uint32_t	n = 0;

	if (ndim == 1)
	{
		if (len < 20 || (n = rl_load_u32be(data + 12)) > (len - 20) / 4)
			bad_binary(type);
		at = 20;
	}

	ArrayElements elems = {(int) n, palloc(sizeof(char *) * (n + 1))};

	for (uint32_t i = 0; i < n; i++)
	{
		if (len - at < 4)
			bad_binary(type);

		int32_t		elen = (int32_t) rl_load_u32be(data + at);

		at += 4;
		if (elen == -1)
		{
			elems.items[i] = NULL;
			continue;
		}
		if (elen < 0 || (size_t) elen > len - at)
			bad_binary(type);

		Value		e = typio_receive(elem, data + at, (size_t) elen);

		elems.items[i] = typio_output(&e, NULL);
		at += (size_t) elen;
	}
	if (at != len)
		bad_binary(type);
	return typio_array_build(type, &elems);
}

Value
typio_receive(Oid type, const uint8_t *data, size_t len)
{
	Value		v = {.type = type};

	switch (type)
	{
		case BOOLOID:
			expect_len(type, len, 1);
			return typio_bool(data[0] != 0);
		case INT2OID:
			expect_len(type, len, 2);
			return typio_int(type, (int16_t) ((data[0] << 8) | data[1]));
		case INT4OID:
		case DATEOID:
			expect_len(type, len, 4);
			return typio_int(type, (int32_t) rl_load_u32be(data));
		case OIDOID:
		case XIDOID:
		case REGCLASSOID:
		case REGTYPEOID:
		case REGNAMESPACEOID:
		case REGPROCOID:
		case REGPROCEDUREOID:
			expect_len(type, len, 4);
			return typio_int(type, rl_load_u32be(data));
		case INETOID:
			return inet_recv(data, len);
		case INT8OID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			expect_len(type, len, 8);
			return typio_int(type, (int64_t) rl_load_u64be(data));
		case TIMETZOID:
			{
				expect_len(type, len, 12);
				int64_t		usecs = (int64_t) rl_load_u64be(data);
				int32_t		zone = (int32_t) rl_load_u32be(data + 8);

				if (usecs < 0 || usecs > USECS_PER_DAY || zone < -TIMETZ_ZONE_LIMIT || zone > TIMETZ_ZONE_LIMIT)
					ereport(ERROR,
							errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
							errmsg("time with time zone out of range"));
				return typio_int(type, timetz_pack(usecs, zone));
			}
		case FLOAT4OID:
			{
				uint32_t	bits;
				float		f;

				expect_len(type, len, 4);
				bits = rl_load_u32be(data);
				memcpy(&f, &bits, 4);
				return typio_float(type, f);
			}
		case FLOAT8OID:
			{
				uint64_t	bits;

				expect_len(type, len, 8);
				bits = rl_load_u64be(data);
				memcpy(&v.u.f, &bits, 8);
				return v;
			}
		case INTERVALOID:
			expect_len(type, len, 16);
			v.u.iv.time = (int64_t) rl_load_u64be(data);
			v.u.iv.day = (int32_t) rl_load_u32be(data + 8);
			v.u.iv.month = (int32_t) rl_load_u32be(data + 12);
			return v;
		case UUIDOID:
			expect_len(type, len, 16);
			memcpy(v.u.uuid, data, 16);
			return v;
		case TIDOID:
			expect_len(type, len, 6);
			return typio_int(type, ((int64_t) rl_load_u32be(data) << 16) | (data[4] << 8) | data[5]);
		case NUMERICOID:
			return numeric_recv(data, len);
		case JSONBOID:
			if (len < 1 || data[0] != 1)
				bad_binary(type);
			data++, len--;
			/* FALLTHROUGH */
		case JSONOID:
			/* the text after jsonb's version byte, read as the text input reads it */
			pg_verify_utf8((const char *) data, len);
			return json_in(type, pnstrdup((const char *) data, len));
		case VOIDOID:
			return typio_null(type);
		case BYTEAOID:
			return typio_string(type, (const char *) data, len);
		default:
			if (typio_lookup(type) != NULL && typio_lookup(type)->category == TYPCATEGORY_ARRAY)
				return array_recv(type, data, len);
			/* text, varchar, bpchar, name, json, unknown: text in the server encoding */
			pg_verify_utf8((const char *) data, len);
			return typio_string(type, (const char *) data, len);
	}
}

void
typio_send(PqMsgBuilder *msg, const Value *v)
{
	switch (v->type)
	{
		case BOOLOID:
			pq_sendbyte(msg, v->u.b ? 1 : 0);
			break;
		case INT2OID:
			pq_sendint16(msg, (uint16_t) v->u.i);
			break;
		case INT4OID:
		case OIDOID:
		case XIDOID:
		case REGCLASSOID:
		case REGTYPEOID:
		case REGNAMESPACEOID:
		case REGPROCOID:
		case REGPROCEDUREOID:
		case DATEOID:
			pq_sendint32(msg, (uint32_t) v->u.i);
			break;
		case INETOID:
			inet_send(msg, v->u.s.data);
			break;
		case INT8OID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			pq_sendint64(msg, (uint64_t) v->u.i);
			break;
		case TIMETZOID:
			pq_sendint64(msg, (uint64_t) timetz_usecs(v->u.i));
			pq_sendint32(msg, (uint32_t) timetz_zone(v->u.i));
			break;
		case FLOAT4OID:
			{
				float		f = (float) v->u.f;
				uint32_t	bits;

				memcpy(&bits, &f, 4);
				pq_sendint32(msg, bits);
				break;
			}
		case FLOAT8OID:
			{
				uint64_t	bits;

				memcpy(&bits, &v->u.f, 8);
				pq_sendint64(msg, bits);
				break;
			}
		case INTERVALOID:
			pq_sendint64(msg, (uint64_t) v->u.iv.time);
			pq_sendint32(msg, (uint32_t) v->u.iv.day);
			pq_sendint32(msg, (uint32_t) v->u.iv.month);
			break;
		case UUIDOID:
			pq_sendbytes(msg, v->u.uuid, 16);
			break;
		case TIDOID:
			pq_sendint32(msg, (uint32_t) (v->u.i >> 16));
			pq_sendint16(msg, (uint16_t) (v->u.i & 0xffff));
			break;
		case NUMERICOID:
			numeric_send(msg, v->u.s.data);
			break;
		case JSONBOID:
			pq_sendbyte(msg, 1);
			pq_sendbytes(msg, v->u.s.data, v->u.s.len);
			break;
		case VOIDOID:
			break;
		default:
			if (typio_lookup(v->type) != NULL && typio_lookup(v->type)->category == TYPCATEGORY_ARRAY)
				array_send(msg, v);
			else
				pq_sendbytes(msg, v->u.s.data, v->u.s.len);
			break;
	}
}
