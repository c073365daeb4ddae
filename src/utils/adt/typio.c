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
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "utils/elog.h"
#include "utils/mb/encoding.h"
#include "utils/mcxt.h"
#include "utils/adt/numeric.h"
#include "utils/adt/pgjson.h"
#include "utils/adt/typio.h"

/* the largest zone displacement PostgreSQL takes, 15:59:59 */
#define TIMETZ_ZONE_LIMIT	(15 * 3600 + 59 * 60 + 59)
#define NBASE				10000

#define TYPE_INDEX_SIZE 8192

static const TypeInfo types[] = {
	{BOOLOID, "bool", "boolean", 1, TYPCATEGORY_BOOLEAN, 0, 0},
	{BYTEAOID, "bytea", "bytea", -1, TYPCATEGORY_USER, 0, 0},
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
	{"character", BPCHAROID}, {"char", BPCHAROID},
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

static void __attribute__((noreturn))
invalid_syntax(Oid type, const char *str)
{
	ereport(ERROR,
			errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			errmsg("invalid input syntax for type %s: \"%s\"", typio_format_type(type), str));
}

static void
out_of_range(Oid type, const char *str)
{
	ereport(ERROR,
			errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			errmsg("value \"%s\" is out of range for type %s", str, typio_format_type(type)));
}

/* PostgreSQL's date/time input errors name time and timestamp without their "without time zone" */
static void
invalid_datetime(Oid type, const char *str)
{
	ereport(ERROR,
			errcode(ERRCODE_INVALID_DATETIME_FORMAT),
			errmsg("invalid input syntax for type %s: \"%s\"",
				   type == TIMEOID ? "time" : type == TIMESTAMPOID ? "timestamp" : typio_format_type(type), str));
}

static void
datetime_out_of_range(const char *str)
{
	ereport(ERROR,
			errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			errmsg("date/time field value out of range: \"%s\"", str));
}

static void
bad_binary(Oid type)
{
	ereport(ERROR,
			errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			errmsg("incorrect binary data format for type %s", typio_format_type(type)));
}

static const char *
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

/* ---------- numeric ---------- */

/* Decimal, the form numeric text is parsed into, is numeric.h's; its arithmetic is numeric.c's */

char *
decimal_format(const Decimal *d)
{
	int			nd = (int) strlen(d->digits);
	int			intdigits = nd - d->scale;
	RlBuf		out;

	rlbuf_init_in(&out, CurrentMemoryContext);
	if (d->neg && nd > 0)
		rlbuf_put_u8(&out, '-');
	if (intdigits <= 0)
		rlbuf_put_u8(&out, '0');
	else
		rlbuf_append(&out, d->digits, (size_t) intdigits);
	if (d->scale > 0)
	{
		rlbuf_put_u8(&out, '.');
		for (int i = intdigits; i < 0; i++)
			rlbuf_put_u8(&out, '0');
		rlbuf_append_str(&out, d->digits + (intdigits > 0 ? intdigits : 0));
	}
	char	   *s = pstrdup(rlbuf_cstr(&out));

	rlbuf_free(&out);
	return s;
}

bool
decimal_parse(const char *s, Decimal *d)
{
	RlBuf		digits;
	bool		any = false;
	int			scale = 0;

	s = skip_space(s);
	d->neg = false;
	if (*s == '+' || *s == '-')
		d->neg = *s++ == '-';
	rlbuf_init_in(&digits, CurrentMemoryContext);
	for (; isdigit((unsigned char) *s); s++, any = true)
		rlbuf_put_u8(&digits, (uint8_t) *s);
	if (*s == '.')
		for (s++; isdigit((unsigned char) *s); s++, any = true, scale++)
			rlbuf_put_u8(&digits, (uint8_t) *s);
	if (any && (*s == 'e' || *s == 'E'))
	{
		char	   *end;
		long		e = strtol(s + 1, &end, 10);

		if (end == s + 1 || e > 1000 || e < -1000)
			any = false;		/* and no arithmetic with it: it may not fit an int */
		else
			scale -= (int) e;
		s = end;
	}
	if (!any || *skip_space(s) != '\0')
	{
		rlbuf_free(&digits);
		return false;
	}
	/* a negative scale becomes trailing zeros */
	for (; scale < 0; scale++)
		rlbuf_put_u8(&digits, '0');
	const char *p = rlbuf_cstr(&digits);

	while (*p == '0')
		p++;
	d->digits = pstrdup(p);
	d->scale = scale;
	rlbuf_free(&digits);
	return true;
}

void
decimal_round(Decimal *d, int scale, RoundMode mode)
{
	int			nd = (int) strlen(d->digits);

	if (scale >= d->scale)
	{
		char	   *padded = palloc((size_t) (nd + scale - d->scale) + 1);

		memcpy(padded, d->digits, (size_t) nd);
		memset(padded + nd, '0', (size_t) (scale - d->scale));
		padded[nd + scale - d->scale] = '\0';
		d->digits = nd ? padded : d->digits;
		d->scale = scale;
		return;
	}
	int			keep = nd - (d->scale - scale);
	bool		round_up = mode == ROUND_HALF && keep >= 0 && keep < nd && d->digits[keep] >= '5';

	for (int i = keep > 0 ? keep : 0; mode == ROUND_UP && i < nd; i++)
		round_up |= d->digits[i] != '0';
	char	   *out = palloc((size_t) (keep > 0 ? keep : 0) + 2);

	out[0] = '0';				/* room for a carry */
	if (keep > 0)
		memcpy(out + 1, d->digits, (size_t) keep);
	int			len = (keep > 0 ? keep : 0) + 1;

	out[len] = '\0';
	for (int i = len - 1; round_up && i >= 0; i--)
	{
		if (out[i] == '9')
			out[i] = '0';
		else
		{
			out[i]++;
			round_up = false;
		}
	}
	while (*out == '0')
		out++;
	d->digits = out;
	d->scale = scale;
	if (scale < 0 && *out)
	{
		/* round(x, -2): to hundreds, written with no digits after the point */
		size_t		n = strlen(out);
		char	   *whole = palloc(n + (size_t) -scale + 1);

		memcpy(whole, out, n);
		memset(whole + n, '0', (size_t) -scale);
		whole[n + (size_t) -scale] = '\0';
		d->digits = whole;
	}
	if (scale < 0)
		d->scale = 0;
}

static Value
numeric_special(const char *s)
{
	if (strcasecmp(s, "NaN") == 0)
		return typio_string(NUMERICOID, "NaN", 3);
	if (strcasecmp(s, "Infinity") == 0 || strcasecmp(s, "+Infinity") == 0 ||
		strcasecmp(s, "inf") == 0)
		return typio_string(NUMERICOID, "Infinity", 8);
	if (strcasecmp(s, "-Infinity") == 0 || strcasecmp(s, "-inf") == 0)
		return typio_string(NUMERICOID, "-Infinity", 9);
	return typio_null(NUMERICOID);
}

/* numeric_apply_typmod -- numeric(p,s): round to s, then check the precision */
static void
numeric_apply_typmod(Decimal *d, int32_t typmod)
{
	if (typmod < 4)
		return;
	int			precision = ((typmod - 4) >> 16) & 0xffff;
	int			scale = (typmod - 4) & 0xffff;

	decimal_round(d, scale, ROUND_HALF);
	int			intdigits = (int) strlen(d->digits) - d->scale;

	if (intdigits > precision - scale)
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("numeric field overflow"),
				errdetail("A field with precision %d, scale %d must round to an absolute value less than %s%d.",
						  precision, scale, precision - scale > 0 ? "10^" : "",
						  precision - scale > 0 ? precision - scale : 1));
}

static Value
numeric_in(const char *str, int32_t typmod)
{
	char	   *trimmed = pstrdup(skip_space(str));
	size_t		len = strlen(trimmed);

	while (len > 0 && isspace((unsigned char) trimmed[len - 1]))
		trimmed[--len] = '\0';
	Value		special = numeric_special(trimmed);

	/* numeric(p,s) holds NaN but no infinity, as in PostgreSQL 15 */
	if (!special.isnull && typmod >= 4 && special.u.s.data[0] != 'N')
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("numeric field overflow"),
				errdetail("A field with precision %d, scale %d cannot hold an infinite value.",
						  ((typmod - 4) >> 16) & 0xffff, (typmod - 4) & 0xffff));
	if (!special.isnull)
		return special;
	Decimal		d;

	if (!decimal_parse(trimmed, &d))
		invalid_syntax(NUMERICOID, str);
	numeric_apply_typmod(&d, typmod);
	char	   *s = decimal_format(&d);

	return typio_string(NUMERICOID, s, strlen(s));
}

Value
numeric_round(const Value *v, int scale)
{
	Decimal		d;

	if (!decimal_parse(v->u.s.data, &d))
		return *v;				/* NaN and infinities stay as they are */
	decimal_round(&d, scale, ROUND_HALF);
	char	   *s = decimal_format(&d);

	return typio_string(NUMERICOID, s, strlen(s));
}

Value
numeric_trunc(const Value *v, int scale, int direction)
{
	Decimal		d;

	if (!decimal_parse(v->u.s.data, &d))
		return *v;
	decimal_round(&d, scale, direction != 0 && (direction < 0) == d.neg ? ROUND_UP : ROUND_DOWN);
	if (d.digits[0] == '\0')
		d.neg = false;			/* no -0 */
	char	   *s = decimal_format(&d);

	return typio_string(NUMERICOID, s, strlen(s));
}

Value
numeric_from_scaled(__int128 mantissa, int scale)
{
	char		digits[48];
	int			n = 0;
	bool		neg = mantissa < 0;
	unsigned __int128 m = neg ? -(unsigned __int128) mantissa : (unsigned __int128) mantissa;

	while (m > 0)
	{
		digits[n++] = (char) ('0' + (int) (m % 10));
		m /= 10;
	}
	Decimal		d = {.neg = neg, .scale = scale};

	d.digits = palloc((size_t) n + 1);
	for (int i = 0; i < n; i++)
		d.digits[i] = digits[n - 1 - i];
	d.digits[n] = '\0';
	char	   *s = decimal_format(&d);

	return typio_string(NUMERICOID, s, strlen(s));
}

/* numeric_send -- base-10000 digits with weight, sign and display scale */
static void
numeric_send(PqMsgBuilder *msg, const char *s)
{
	uint16_t	sign = 0;

	if (strcmp(s, "NaN") == 0 || strcmp(s, "Infinity") == 0 || strcmp(s, "-Infinity") == 0)
	{
		sign = s[0] == 'N' ? 0xC000 : s[0] == 'I' ? 0xD000 : 0xF000;
		pq_sendint16(msg, 0);
		pq_sendint16(msg, 0);
		pq_sendint16(msg, sign);
		/* PostgreSQL reads the display scale of a special value out of its header
		 * as if it were a short numeric's: 32 for the infinities, 0 for NaN */
		pq_sendint16(msg, (sign & 0x1F80) >> 7);
		return;
	}
	Decimal		d;

	if (!decimal_parse(s, &d))
		elog(ERROR, "invalid numeric value \"%s\"", s);
	int			nd = (int) strlen(d.digits);
	int			intdigits = nd - d.scale;

	/* align the digit string to base-10000 groups around the decimal point */
	int			lead = ((intdigits % 4) + 4) % 4;
	int			pad_front = lead ? 4 - lead : 0;
	int			total = pad_front + nd;
	int			ngroups = (total + 3) / 4;
	char	   *aligned = palloc0((size_t) ngroups * 4 + 1);

	memset(aligned, '0', (size_t) ngroups * 4);
	memcpy(aligned + pad_front, d.digits, (size_t) nd);
	int			weight = (intdigits + pad_front) / 4 - 1;
	int			first = 0,
				last = ngroups - 1;
	int16_t    *groups = palloc(sizeof(int16_t) * (size_t) (ngroups ? ngroups : 1));

	for (int g = 0; g < ngroups; g++)
	{
		const char *p = aligned + g * 4;

		groups[g] = (int16_t) ((p[0] - '0') * 1000 + (p[1] - '0') * 100 + (p[2] - '0') * 10 + (p[3] - '0'));
	}
	while (first <= last && groups[first] == 0)
	{
		first++;
		weight--;
	}
	while (last >= first && groups[last] == 0)
		last--;
	int			ndigits = last >= first ? last - first + 1 : 0;

	if (ndigits == 0)
		weight = 0;
	pq_sendint16(msg, (uint16_t) ndigits);
	pq_sendint16(msg, (uint16_t) (int16_t) weight);
	pq_sendint16(msg, d.neg && ndigits ? 0x4000 : 0);
	pq_sendint16(msg, (uint16_t) d.scale);
	for (int g = first; g <= last; g++)
		pq_sendint16(msg, (uint16_t) groups[g]);
}

static Value
numeric_recv(const uint8_t *data, size_t len)
{
	if (len < 8)
		bad_binary(NUMERICOID);
	int			ndigits = (int16_t) ((data[0] << 8) | data[1]);
	int			weight = (int16_t) ((data[2] << 8) | data[3]);
	uint16_t	sign = (uint16_t) ((data[4] << 8) | data[5]);
	int			dscale = (int16_t) ((data[6] << 8) | data[7]);

	if (ndigits < 0 || dscale < 0 || len != 8 + (size_t) ndigits * 2)
		bad_binary(NUMERICOID);
	if (sign == 0xC000)
		return typio_string(NUMERICOID, "NaN", 3);
	if (sign == 0xD000)
		return typio_string(NUMERICOID, "Infinity", 8);
	if (sign == 0xF000)
		return typio_string(NUMERICOID, "-Infinity", 9);
	if (sign != 0 && sign != 0x4000)
		bad_binary(NUMERICOID);

	/* digits * 10000^(weight - ndigits + 1), as a decimal digit string */
	RlBuf		digits;

	rlbuf_init_in(&digits, CurrentMemoryContext);
	for (int i = 0; i < ndigits; i++)
	{
		int			g = (data[8 + 2 * i] << 8) | data[9 + 2 * i];

		if (g >= NBASE)
		{
			rlbuf_free(&digits);
			bad_binary(NUMERICOID);
		}
		rlbuf_printf(&digits, "%04d", g);
	}
	int			scale = (ndigits - weight - 1) * 4;

	for (; scale < 0; scale++)
		rlbuf_put_u8(&digits, '0');
	const char *p = rlbuf_cstr(&digits);

	while (*p == '0')
		p++;
	Decimal		d = {.neg = sign == 0x4000, .digits = pstrdup(p), .scale = scale};

	rlbuf_free(&digits);
	decimal_round(&d, dscale, ROUND_HALF);
	char	   *s = decimal_format(&d);

	return typio_string(NUMERICOID, s, strlen(s));
}

/* ---------- dates and times ---------- */

/* days_from_civil -- Howard Hinnant's algorithm, days since 1970-01-01 */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t		era = (y >= 0 ? y : y - 399) / 400;
	int64_t		yoe = y - era * 400;
	int64_t		doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t		doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

#define POSTGRES_EPOCH_DAYS 10957	/* 2000-01-01 counted from 1970-01-01 */

int64_t
date_from_ymd(int year, int month, int day)
{
	return days_from_civil(year, month, day) - POSTGRES_EPOCH_DAYS;
}

void
date_to_ymd(int64_t days, int *year, int *month, int *day)
{
	int64_t		z = days + POSTGRES_EPOCH_DAYS + 719468;
	int64_t		era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t		doe = z - era * 146097;
	int64_t		yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t		doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t		mp = (5 * doy + 2) / 153;

	*day = (int) (doy - (153 * mp + 2) / 5 + 1);
	*month = (int) (mp < 10 ? mp + 3 : mp - 9);
	*year = (int) (yoe + era * 400 + (*month <= 2));
}

static bool
is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
days_in_month(int y, int m)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	return m == 2 && is_leap(y) ? 29 : mdays[m - 1];
}

/* parse_number -- n digits or more at *s; -1 when there are none */
static long
parse_number(const char **s, int *ndigits)
{
	long		v = 0;
	int			n = 0;

	while (isdigit((unsigned char) **s) && n < 12)
	{
		v = v * 10 + (**s - '0');
		(*s)++;
		n++;
	}
	if (ndigits)
		*ndigits = n;
	return n ? v : -1;
}

/*
 * parse_time_of_day -- "HH:MM[:SS[.ffffff]]" at *s into microseconds
 *
 * Returns false on bad syntax; an out-of-range field raises 22008. A time of day
 * goes up to 24:00:00 (and a leap second); an interval's time field has any number
 * of hours, as PostgreSQL's, and its output (25:10:32) must read back; one too big
 * is 22015, or bad syntax when signed_interval (it had a sign before it).
 */
static void interval_field_overflow(const char *str) __attribute__((noreturn));
static void invalid_datetime(Oid type, const char *str) __attribute__((noreturn));

static bool
parse_time_of_day(const char **s, int64_t *usecs, const char *orig, bool interval, bool signed_interval)
{
	long		h = parse_number(s, NULL),
				m = 0,
				sec = 0;
	int64_t		frac = 0;

	if (h < 0 || **s != ':')
		return false;
	(*s)++;
	if ((m = parse_number(s, NULL)) < 0)
		return false;
	if (**s == ':')
	{
		(*s)++;
		if ((sec = parse_number(s, NULL)) < 0)
			return false;
		if (**s == '.')
		{
			/* as PostgreSQL rounds a fraction to microseconds: rint of a double's */
			size_t		n = 1 + strspn(*s + 1, "0123456789");
			char	   *digits = pnstrdup(*s, n);

			frac = (int64_t) rint(strtod(digits, NULL) * USECS_PER_SEC);
			pfree(digits);
			*s += n;
		}
	}
	if (interval)
	{
		if (m > 59 || sec > 60 || __builtin_mul_overflow((int64_t) h, USECS_PER_HOUR, usecs) ||
			__builtin_add_overflow(*usecs, m * USECS_PER_MINUTE + sec * USECS_PER_SEC + frac, usecs))
		{
			/* PostgreSQL reads a signed time it cannot hold as a number, and fails */
			if (signed_interval)
				invalid_datetime(INTERVALOID, orig);
			interval_field_overflow(orig);
		}
		return true;
	}
	/* as PostgreSQL's time_overflows: 24 hours or a leap second, but never past 24:00:00 */
	if (h > 24 || m > 59 || sec > 60)
		datetime_out_of_range(orig);
	*usecs = h * USECS_PER_HOUR + m * USECS_PER_MINUTE + sec * USECS_PER_SEC + frac;
	if (*usecs > USECS_PER_DAY)
		datetime_out_of_range(orig);
	return true;
}

/*
 * strip_trailing_bc -- PostgreSQL writes BC last ("0001-02-03 00:00:00+00 BC"): str
 * without that word (a copy) and *bc set, or str itself
 */
static const char *
strip_trailing_bc(const char *str, bool *bc)
{
	size_t		len = strlen(str);

	while (len > 0 && isspace((unsigned char) str[len - 1]))
		len--;
	*bc = len > 2 && strncasecmp(str + len - 2, "BC", 2) == 0 && isspace((unsigned char) str[len - 3]);
	return *bc ? pnstrdup(str, len - 2) : str;
}

/*
 * parse_date_part -- "YYYY-MM-DD" at *s into days (BC right after it, or bc: the
 * input ended with BC); false on bad syntax. There is no year 0, as in PostgreSQL.
 */
static bool
parse_date_part(const char **s, int64_t *days, const char *orig, bool bc)
{
	long		y = parse_number(s, NULL),
				m,
				d;

	if (y < 0 || **s != '-')
		return false;
	(*s)++;
	if ((m = parse_number(s, NULL)) < 0 || **s != '-')
		return false;
	(*s)++;
	if ((d = parse_number(s, NULL)) < 0)
		return false;
	const char *rest = skip_space(*s);

	if (!bc && strncasecmp(rest, "BC", 2) == 0)
	{
		bc = true;
		*s = rest + 2;
	}
	if (y == 0)
		datetime_out_of_range(orig);
	if (bc)
		y = 1 - y;
	if (m < 1 || m > 12 || d < 1 || d > days_in_month((int) y, (int) m))
		datetime_out_of_range(orig);
	*days = date_from_ymd((int) y, (int) m, (int) d);
	return true;
}

/*
 * parse_zone -- "Z", "UTC", "+HH", "+HH:MM", "+HH:MM:SS", "+HHMM" into seconds east of UTC; more
 * than 15 hours is 22009 for orig, as PostgreSQL says
 */
static bool
parse_zone(const char **s, int64_t *offset, const char *orig)
{
	const char *p = skip_space(*s);

	if (*p == 'Z' || *p == 'z')
	{
		*offset = 0;
		*s = p + 1;
		return true;
	}
	if (strncasecmp(p, "UTC", 3) == 0 || strncasecmp(p, "GMT", 3) == 0)
	{
		*offset = 0;
		*s = p + 3;
		return true;
	}
	if (*p != '+' && *p != '-')
		return false;
	int			sign = *p == '-' ? -1 : 1;
	int			n;

	p++;
	long		hh = parse_number(&p, &n),
				mm = 0,
				ss = 0;

	if (hh < 0)
		return false;
	if (n == 4)
	{
		mm = hh % 100;
		hh /= 100;
	}
	else if (*p == ':')
	{
		p++;
		if ((mm = parse_number(&p, NULL)) < 0)
			return false;
		if (*p == ':')
		{
			p++;
			if ((ss = parse_number(&p, NULL)) < 0)
				return false;
		}
	}
	if (mm > 59 || ss > 59)
		return false;
	if (hh > 15)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_TIME_ZONE_DISPLACEMENT_VALUE),
				errmsg("time zone displacement out of range: \"%s\"", orig));
	*offset = sign * (hh * 3600 + mm * 60 + ss);
	*s = p;
	return true;
}

static bool
special_word(const char *str, const char *word)
{
	const char *s = skip_space(str);
	size_t		n = strlen(word);

	return strncasecmp(s, word, n) == 0 && *skip_space(s + n) == '\0';
}

static Value
date_in(const char *str)
{
	bool		bc;
	const char *s = skip_space(strip_trailing_bc(str, &bc));
	int64_t		days;

	if (special_word(str, "infinity"))
		return typio_int(DATEOID, DATE_NOEND);
	if (special_word(str, "-infinity"))
		return typio_int(DATEOID, DATE_NOBEGIN);
	if (special_word(str, "epoch"))
		return typio_int(DATEOID, date_from_ymd(1970, 1, 1));
	if (!parse_date_part(&s, &days, str, bc))
		invalid_datetime(DATEOID, str);
	/* a time of day (and zone) after the date is accepted and ignored */
	if (*s == 'T' || *s == ' ')
	{
		const char *t = skip_space(*s == 'T' ? s + 1 : s);
		int64_t		usecs,
					offset;

		if (*t && parse_time_of_day(&t, &usecs, str, false, false))
		{
			s = t;
			parse_zone(&s, &offset, str);
		}
	}
	if (*skip_space(s) != '\0')
		invalid_datetime(DATEOID, str);
	/* PostgreSQL's range: 4714-11-24 BC (Julian day 0) up to 5874897-12-31 */
	if (days < DATE_MIN || days >= DATE_END)
		ereport(ERROR,
				errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				errmsg("date out of range: \"%s\"", str));
	return typio_int(DATEOID, days);
}

static void
format_date(RlBuf *out, int64_t days)
{
	int			y,
				m,
				d;

	date_to_ymd(days, &y, &m, &d);
	if (y > 0)
		rlbuf_printf(out, "%04d-%02d-%02d", y, m, d);
	else
		rlbuf_printf(out, "%04d-%02d-%02d BC", 1 - y, m, d);
}

/* format_time -- HH:MM:SS[.ffffff] with trailing zeros of the fraction dropped */
static void
format_time(RlBuf *out, int64_t usecs)
{
	int64_t		frac = usecs % USECS_PER_SEC;
	int64_t		secs = usecs / USECS_PER_SEC;

	rlbuf_printf(out, "%02d:%02d:%02d", (int) (secs / 3600), (int) (secs / 60 % 60), (int) (secs % 60));
	if (frac)
	{
		char		f[8];
		int			n = 6;

		snprintf(f, sizeof(f), "%06d", (int) frac);
		while (n > 0 && f[n - 1] == '0')
			n--;
		f[n] = '\0';
		rlbuf_printf(out, ".%s", f);
	}
}

/* timetz_in -- a time of day and a zone (+00, the session's, when none is written) */
static Value
timetz_in(const char *str)
{
	const char *s = skip_space(str);
	int64_t		usecs,
				east = 0;

	if (!parse_time_of_day(&s, &usecs, str, false, false) || (*skip_space(s) != '\0' && !parse_zone(&s, &east, str)) ||
		*skip_space(s) != '\0')
		invalid_datetime(TIMETZOID, str);
	return typio_int(TIMETZOID, timetz_pack(usecs, (int32_t) -east));
}

/* format_zone -- a zone (seconds west of UTC) as PostgreSQL shows it: +02, -08, +05:30 */
static void
format_zone(RlBuf *out, int32_t zone)
{
	int32_t		east = zone < 0 ? -zone : zone;

	rlbuf_printf(out, "%c%02d", zone <= 0 ? '+' : '-', east / 3600);
	if (east % 3600)
		rlbuf_printf(out, ":%02d", east / 60 % 60);
	if (east % 60)
		rlbuf_printf(out, ":%02d", east % 60);
}

static Value
time_in(const char *str)
{
	const char *s = skip_space(str);
	int64_t		usecs;

	if (!parse_time_of_day(&s, &usecs, str, false, false) || *skip_space(s) != '\0')
		invalid_datetime(TIMEOID, str);
	return typio_int(TIMEOID, usecs);
}

static Value
timestamp_in(Oid type, const char *str)
{
	bool		bc;
	const char *s = skip_space(strip_trailing_bc(str, &bc));
	int64_t		days,
				usecs = 0,
				offset = 0;

	if (special_word(str, "infinity"))
		return typio_int(type, DT_NOEND);
	if (special_word(str, "-infinity"))
		return typio_int(type, DT_NOBEGIN);
	if (special_word(str, "epoch"))
		return typio_int(type, date_from_ymd(1970, 1, 1) * USECS_PER_DAY);
	if (!parse_date_part(&s, &days, str, bc))
		invalid_datetime(type, str);
	if (*s == 'T' || *s == ' ')
	{
		const char *t = skip_space(*s == 'T' ? s + 1 : s);

		if (*t && !parse_time_of_day(&t, &usecs, str, false, false))
			invalid_datetime(type, str);
		s = t;
	}
	if (*skip_space(s) != '\0' && !parse_zone(&s, &offset, str))
		invalid_datetime(type, str);
	if (*skip_space(s) != '\0')
		invalid_datetime(type, str);
	int64_t		ts;

	/* a zone in timestamp-without-zone input is ignored, as PostgreSQL does */
	if (__builtin_mul_overflow(days, USECS_PER_DAY, &ts) || __builtin_add_overflow(ts, usecs, &ts) ||
		(type == TIMESTAMPTZOID && __builtin_sub_overflow(ts, offset * USECS_PER_SEC, &ts)) ||
		ts < MIN_TIMESTAMP || ts >= END_TIMESTAMP)
		ereport(ERROR,
				errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				errmsg("timestamp out of range: \"%s\"", str));
	return typio_int(type, ts);
}

static void
format_timestamp(RlBuf *out, int64_t ts, bool with_zone)
{
	if (ts == DT_NOEND || ts == DT_NOBEGIN)
	{
		rlbuf_append_str(out, ts == DT_NOEND ? "infinity" : "-infinity");
		return;
	}
	int64_t		days = ts / USECS_PER_DAY;
	int64_t		usecs = ts % USECS_PER_DAY;

	if (usecs < 0)
	{
		usecs += USECS_PER_DAY;
		days--;
	}
	int			y,
				m,
				d;

	date_to_ymd(days, &y, &m, &d);
	rlbuf_printf(out, "%04d-%02d-%02d ", y > 0 ? y : 1 - y, m, d);
	format_time(out, usecs);
	if (with_zone)
		rlbuf_append_str(out, "+00");
	if (y <= 0)
		rlbuf_append_str(out, " BC");
}

/* ---------- interval ---------- */

static void __attribute__((noreturn))
interval_field_overflow(const char *str)
{
	ereport(ERROR,
			errcode(ERRCODE_INTERVAL_FIELD_OVERFLOW),
			errmsg("interval field value out of range: \"%s\"", str));
}

/* interval_add_time -- n units of unit microseconds added to the time part, or 22008 */
static void
interval_add_time(Interval *iv, double n, int64_t unit, const char *str)
{
	double		usecs = rint(n * (double) unit);
	int64_t		r;

	if (!(usecs > -9.2e18 && usecs < 9.2e18) || __builtin_add_overflow(iv->time, (int64_t) usecs, &r))
		interval_field_overflow(str);
	iv->time = r;
}

/* interval_add_field -- n times unit added to a day or month count, or 22008 */
static int32_t
interval_add_field(int32_t field, double n, int unit, const char *str)
{
	double		r = (double) field + trunc(n * unit);

	if (!(r >= INT32_MIN && r <= INT32_MAX))
		interval_field_overflow(str);
	return (int32_t) r;
}

/*
 * iso_interval -- ISO 8601's designator form, "P1Y2M3W4DT5H6M7.5S" (M is months
 * before the T, minutes after it), as PostgreSQL reads it into iv; false if str is
 * not in that form
 */
static bool
iso_interval(const char *str, Interval *iv)
{
	const char *s = skip_space(str);
	bool		time = false;

	if (*s != 'P' || s[1] == '\0')
		return false;
	for (s++; *s && !isspace((unsigned char) *s);)
	{
		char	   *end;
		double		n;

		if (*s == 'T' && !time)
		{
			time = true;
			s++;
			continue;
		}
		if (!isdigit((unsigned char) *s) && *s != '-' && *s != '+' && *s != '.')
			invalid_datetime(INTERVALOID, str);
		n = strtod(s, &end);
		if (end == s || strchr("eEnNiIxX", *end) != NULL)
			invalid_datetime(INTERVALOID, str);
		s = end + 1;
		switch (time ? tolower((unsigned char) *end) : toupper((unsigned char) *end))
		{
			case 'Y':
				iv->month = interval_add_field(iv->month, n, 12, str);
				break;
			case 'M':
				iv->month = interval_add_field(iv->month, n, 1, str);
				break;
			case 'W':
				iv->day = interval_add_field(iv->day, n, 7, str);
				break;
			case 'D':
				iv->day = interval_add_field(iv->day, n, 1, str);
				break;
			case 'h':
				interval_add_time(iv, n, USECS_PER_HOUR, str);
				break;
			case 'm':
				interval_add_time(iv, n, USECS_PER_MINUTE, str);
				break;
			case 's':
				interval_add_time(iv, n, USECS_PER_SEC, str);
				break;
			default:
				invalid_datetime(INTERVALOID, str);
		}
	}
	if (*skip_space(s) != '\0')
		invalid_datetime(INTERVALOID, str);
	return true;
}

static Value
interval_in(const char *str)
{
	const char *s = skip_space(str);
	Interval	iv = {0, 0, 0};
	bool		any = false;

	if (iso_interval(str, &iv))
	{
		Value		v = {.type = INTERVALOID, .u.iv = iv};

		return v;
	}
	if (*s == '@')
		s = skip_space(s + 1);
	while (*s)
	{
		const char *start = s;
		int64_t		usecs;
		bool		neg = *s == '-';

		if (*s == '-' || *s == '+')
			s++;
		size_t		ndigits = strspn(s, "0123456789");

		if (ndigits > 0 && s[ndigits] == ':' && parse_time_of_day(&s, &usecs, str, true, s != start))
		{
			if (__builtin_add_overflow(iv.time, neg ? -usecs : usecs, &iv.time))
				interval_field_overflow(str);
			any = true;
			s = skip_space(s);
			continue;
		}
		s = start;
		/* a decimal number: strtod's "nan", "inf" and hex forms are not interval input */
		const char *digits = s + (*s == '-' || *s == '+');
		size_t		nint = strspn(digits, "0123456789");
		size_t		nfrac = digits[nint] == '.' ? strspn(digits + nint + 1, "0123456789") : 0;
		char	   *end;
		double		n;

		if (nint + nfrac == 0)
			invalid_datetime(INTERVALOID, str);
		n = strtod(s, &end);
		if (end != digits + nint + (digits[nint] == '.' ? 1 + nfrac : 0))
			invalid_datetime(INTERVALOID, str);
		s = skip_space(end);
		const char *unit = s;

		while (isalpha((unsigned char) *s))
			s++;
		size_t		ulen = (size_t) (s - unit);

#define UNIT_IS(word) (ulen > 0 && strncasecmp(unit, word, ulen) == 0 && ulen <= strlen(word))
		if (UNIT_IS("microseconds") || UNIT_IS("usecs") || UNIT_IS("us"))
			interval_add_time(&iv, n, 1, str);
		else if (UNIT_IS("milliseconds") || UNIT_IS("msecs") || UNIT_IS("ms"))
			interval_add_time(&iv, n, 1000, str);
		else if (ulen == 0 || UNIT_IS("seconds") || UNIT_IS("secs"))
			interval_add_time(&iv, n, USECS_PER_SEC, str);
		else if (UNIT_IS("minutes") || UNIT_IS("mins"))
			interval_add_time(&iv, n, USECS_PER_MINUTE, str);
		else if (UNIT_IS("hours") || UNIT_IS("hrs"))
			interval_add_time(&iv, n, USECS_PER_HOUR, str);
		else if (UNIT_IS("days"))
			iv.day = interval_add_field(iv.day, n, 1, str);
		else if (UNIT_IS("weeks"))
			iv.day = interval_add_field(iv.day, n, 7, str);
		else if (UNIT_IS("mons") || UNIT_IS("months"))
			iv.month = interval_add_field(iv.month, n, 1, str);
		else if (UNIT_IS("years"))
			iv.month = interval_add_field(iv.month, n, 12, str);
		else
			invalid_datetime(INTERVALOID, str);
#undef UNIT_IS
		any = true;
		s = skip_space(s);
		if (strncasecmp(s, "ago", 3) == 0 && *skip_space(s + 3) == '\0')
		{
			if (iv.time == INT64_MIN || iv.day == INT32_MIN || iv.month == INT32_MIN)
				interval_field_overflow(str);
			iv.time = -iv.time;
			iv.day = -iv.day;
			iv.month = -iv.month;
			s += 3;
		}
		s = skip_space(s);
	}
	if (!any)
		invalid_datetime(INTERVALOID, str);
	Value		v = {.type = INTERVALOID, .u.iv = iv};

	return v;
}

/*
 * interval_part -- one field of PostgreSQL's interval output: a positive field after
 * a negative one is written with its sign ("-1 years +2 mons"), as PostgreSQL does
 */
static void
interval_part(RlBuf *out, int64_t n, const char *singular, const char *plural, bool *negative_before)
{
	if (n == 0)
		return;
	if (out->len > 0)
		rlbuf_put_u8(out, ' ');
	rlbuf_printf(out, "%s%lld %s", *negative_before && n > 0 ? "+" : "", (long long) n, n == 1 ? singular : plural);
	*negative_before = n < 0;
}

static void
format_interval(RlBuf *out, const Interval *iv)
{
	bool		negative_before = false;

	interval_part(out, iv->month / 12, "year", "years", &negative_before);
	interval_part(out, iv->month % 12, "mon", "mons", &negative_before);
	interval_part(out, iv->day, "day", "days", &negative_before);
	if (iv->time != 0 || out->len == 0)
	{
		/* unsigned, so that the most negative time has a magnitude too */
		uint64_t	t = iv->time < 0 ? 0 - (uint64_t) iv->time : (uint64_t) iv->time;

		if (out->len > 0)
			rlbuf_put_u8(out, ' ');
		if (iv->time < 0 || negative_before)
			rlbuf_put_u8(out, iv->time < 0 ? '-' : '+');
		uint64_t	hours = t / USECS_PER_HOUR;

		rlbuf_printf(out, "%02llu:", (unsigned long long) hours);
		RlBuf		rest;

		rlbuf_init_in(&rest, CurrentMemoryContext);
		format_time(&rest, (int64_t) (t % USECS_PER_HOUR));
		rlbuf_append_str(out, rlbuf_cstr(&rest) + 3);	/* skip the "00:" hours */
		rlbuf_free(&rest);
	}
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
		case REGCLASSOID:
		case REGTYPEOID:
		case REGNAMESPACEOID:
		case REGPROCOID:
		case REGPROCEDUREOID:
			expect_len(type, len, 4);
			return typio_int(type, rl_load_u32be(data));
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
		case REGCLASSOID:
		case REGTYPEOID:
		case REGNAMESPACEOID:
		case REGPROCOID:
		case REGPROCEDUREOID:
		case DATEOID:
			pq_sendint32(msg, (uint32_t) v->u.i);
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
