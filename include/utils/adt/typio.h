/*
 * typio.h: PostgreSQL data types as RockLake holds them, and their text and binary
 * wire formats (input/output and receive/send functions, in PostgreSQL's terms).
 *
 * A Value carries its type OID and a fixed representation per type:
 *   bool                          b
 *   int2, int4, int8, oid, xid    i
 *   tid                           i: (block << 16) | offset
 *   float4, float8                f
 *   date                          i: days since 2000-01-01
 *   time                          i: microseconds since midnight
 *   timestamp, timestamptz        i: microseconds since 2000-01-01 00:00 (UTC for tz)
 *   interval                      iv
 *   uuid                          uuid
 *   numeric                       s: canonical decimal text ("1.50", "-3", "NaN")
 *   text, varchar, bpchar, name,  s: the bytes (NUL-terminated for convenience,
 *   bytea, json, jsonb, unknown      len authoritative)
 *   void                          nothing
 *   regclass, regtype,            i: the object's OID (text: its name, through
 *   regnamespace, regproc,           typio_reg_hooks)
 *   regprocedure
 *   pg_node_tree, aclitem         s: the text
 *   inet                          s: the canonical text (network.c)
 *   arrays (one dimension)        s: the canonical text form ("{a,\"b c\",NULL}")
 *   int2vector, oidvector         s: as an array ("{1,2}"); their text is "1 2"
 * Text output follows DateStyle ISO, IntervalStyle postgres, bytea_output hex and
 * extra_float_digits >= 1 (shortest exact floats), which is what clients expect.
 * Input errors are ERRORs with PostgreSQL's SQLSTATEs and wording (22P02, 22003,
 * 22007, 22008, 22P03).
 */
#ifndef RL_TYPIO_H
#define RL_TYPIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libpq/pqformat.h"

typedef uint32_t Oid;

#define InvalidOid			0
#define BOOLOID				16
#define BYTEAOID			17
#define CHAROID				18		/* "char": one byte, the catalogs' one-letter codes */
#define NAMEOID				19
#define INT8OID				20
#define INT2OID				21
#define INT4OID				23
#define TEXTOID				25
#define OIDOID				26
#define TIDOID				27
#define XIDOID				28		/* a transaction id: RockLake has none to show (NULL) */
#define INETOID				869
#define JSONOID				114
#define FLOAT4OID			700
#define FLOAT8OID			701
#define UNKNOWNOID			705
#define BPCHAROID			1042
#define VARCHAROID			1043
#define DATEOID				1082
#define TIMEOID				1083
#define TIMESTAMPOID		1114
#define TIMETZOID			1266
#define TIMESTAMPTZOID		1184
#define INTERVALOID			1186
#define NUMERICOID			1700
#define VOIDOID				2278
#define UUIDOID				2950
#define JSONBOID			3802
#define PGNODETREEOID		194		/* pg_node_tree: an expression, held as its SQL text */
#define ACLITEMOID			1033
#define REGCLASSOID			2205	/* the reg* types: an OID shown as the object's name */
#define REGTYPEOID			2206
#define REGNAMESPACEOID		4089
#define REGPROCOID			24		/* a function, shown as its name ... */
#define REGPROCEDUREOID		2202	/* ... or as its name and argument types */
#define BOOLARRAYOID		1000
#define NAMEARRAYOID		1003
#define INT2ARRAYOID		1005
#define INT4ARRAYOID		1007
#define TEXTARRAYOID		1009
#define CHARARRAYOID		1002
#define VARCHARARRAYOID		1015
#define INT8ARRAYOID		1016
#define FLOAT8ARRAYOID		1022
#define OIDARRAYOID			1028
#define ACLITEMARRAYOID		1034
#define INT2VECTOROID		22		/* int2vector, oidvector: arrays from 0, text "1 2" */
#define OIDVECTOROID		30
#define ANYARRAYOID			2277	/* pseudo-types of polymorphic functions */
#define ANYELEMENTOID		2283

#define NAMEDATALEN			64

/* infinite dates and timestamps, PostgreSQL's values (days and microseconds since 2000) */
#define DT_NOBEGIN			INT64_MIN
/* microseconds, the unit of time, time with time zone, timestamp and interval */
#define USECS_PER_SEC		INT64_C(1000000)
#define USECS_PER_MINUTE	(60 * USECS_PER_SEC)
#define USECS_PER_HOUR		(60 * USECS_PER_MINUTE)
#define USECS_PER_DAY		(24 * USECS_PER_HOUR)
/* seconds from 1970-01-01 (Unix time) to 2000-01-01 (PostgreSQL's epoch) */
#define UNIX_EPOCH_SECS		INT64_C(946684800)
#define DT_NOEND			INT64_MAX
#define DATE_NOBEGIN		((int64_t) INT32_MIN)
#define DATE_NOEND			((int64_t) INT32_MAX)
/* the finite dates PostgreSQL accepts: from 4714-11-24 BC up to before 5874898-01-01 */
#define DATE_MIN			INT64_C(-2451545)
#define DATE_END			INT64_C(2145031949)
#define DATE_IS_FINITE(d)	((d) != DATE_NOBEGIN && (d) != DATE_NOEND)
#define TIMESTAMP_IS_FINITE(t) ((t) != DT_NOBEGIN && (t) != DT_NOEND)
/* the finite timestamps PostgreSQL has: 4714-11-24 BC up to, not including, 294277-01-01 */
#define MIN_TIMESTAMP		INT64_C(-211813488000000000)
#define END_TIMESTAMP		INT64_C(9223371331200000000)

typedef struct Interval
{
	int64_t		time;			/* microseconds */
	int32_t		day;
	int32_t		month;
} Interval;

typedef struct Value
{
	Oid			type;
	bool		isnull;
	union
	{
		bool		b;
		int64_t		i;
		double		f;
		Interval	iv;
		uint8_t		uuid[16];
		struct
		{
			char	   *data;
			size_t		len;
		}			s;
	}			u;
} Value;

/* How a type sorts into PostgreSQL's categories for operator resolution. */
typedef enum TypeCategory
{
	TYPCATEGORY_BOOLEAN,
	TYPCATEGORY_NUMERIC,
	TYPCATEGORY_STRING,
	TYPCATEGORY_DATETIME,
	TYPCATEGORY_TIMESPAN,
	TYPCATEGORY_USER,			/* bytea, uuid, json */
	TYPCATEGORY_ARRAY,
	TYPCATEGORY_PSEUDO			/* void, unknown */
} TypeCategory;

typedef struct TypeInfo
{
	Oid			oid;
	const char *name;			/* pg_type.typname */
	const char *sql_name;		/* as error messages spell it ("integer") */
	int16_t		typlen;			/* -1 varlena, -2 cstring */
	TypeCategory category;
	int			numeric_rank;	/* promotion order inside NUMERIC, 0 elsewhere */
	Oid			elem;			/* an array type's element type, else 0 */
} TypeInfo;

/* NULL if the type is not one RockLake knows. */
const TypeInfo *typio_lookup(Oid type);
/* A type name as written in SQL (int4, integer, "double precision", ...): InvalidOid if unknown. */
Oid			typio_type_by_name(const char *name);
/*
 * A type as SQL text names it (regtype's input): "pg_catalog." optional; a quoted name
 * taken as written ("char", the one-byte type); an unquoted one folded to lower case and
 * read as the grammar reads it (char and character are bpchar, double precision float8),
 * type modifiers in parentheses ignored, each [] an array. InvalidOid if none; the name
 * read (as a message names it) into shown, when not NULL (TYPIO_SQL_NAME_MAX bytes).
 */
#define TYPIO_SQL_NAME_MAX 128
Oid			typio_type_by_sql_name(const char *text, char *shown);
/* The name used in messages: format_type-like ("integer", "text", "timestamp with time zone"). */
const char *typio_format_type(Oid type);
/* format_type(type, typmod): the name with its modifier ("numeric(10,2)", "character varying(20)"). */
char	   *typio_format_type_typmod(Oid type, int32_t typmod);
/* oid and the reg* types (regclass, ...): OIDs, binary-compatible with each other. */
bool		typio_is_oid(Oid type);
/* The array type whose elements are of type elem, or InvalidOid. */
Oid			typio_array_type(Oid elem);

/*
 * The reg* types name catalog objects, which only the backend can look up: it
 * sets these. Without them a reg* value reads and prints as a number.
 */
typedef struct TypioRegHooks
{
	char	   *(*output) (Oid type, Oid value);	/* NULL: no such object, print the number */
	Oid			(*input) (Oid type, const char *name);	/* ERROR if there is none */
} TypioRegHooks;
extern TypioRegHooks typio_reg_hooks;

/* An array's elements: text forms, NULL for a NULL element. */
typedef struct ArrayElements
{
	int			n;
	char	  **items;
} ArrayElements;

/* An array's first subscript: 1, but 0 for int2vector and oidvector. */
static inline int
typio_array_lower(Oid array_type)
{
	return array_type == INT2VECTOROID || array_type == OIDVECTOROID ? 0 : 1;
}

/* Parse a one-dimensional array's text form (22P02 if malformed). */
ArrayElements typio_array_parse(const char *text);
/* The text form of elements (quoted where PostgreSQL quotes) as a Value of type array_type. */
Value		typio_array_build(Oid array_type, const ArrayElements *elems);

static inline Value
typio_null(Oid type)
{
	return (Value) {.type = type, .isnull = true};
}

static inline Value
typio_bool(bool b)
{
	return (Value) {.type = BOOLOID, .u.b = b};
}

static inline Value
typio_int(Oid type, int64_t i)
{
	return (Value) {.type = type, .u.i = i};
}

static inline Value
typio_float(Oid type, double f)
{
	return (Value) {.type = type, .u.f = f};
}
/* A string-represented value (text, numeric, bytea, ...); copies data into the current context. */
Value		typio_string(Oid type, const char *data, size_t len);

/*
 * Text input: parse str (NUL-terminated) as type; typmod -1 when none. str is
 * trusted to be UTF-8: client text is checked where it arrives (encoding.h).
 */
Value		typio_input(Oid type, const char *str, int32_t typmod);
/* Text output, palloc'd, NUL-terminated (and its length in *len if len != NULL). */
char	   *typio_output(const Value *v, size_t *len);
/*
 * Binary input of len bytes (a Bind parameter or a binary COPY field); the text of a
 * text-like type must be UTF-8 without NUL (ERROR 22021), bytea's bytes are any.
 */
Value		typio_receive(Oid type, const uint8_t *data, size_t len);
/* Binary output: append the value's bytes (without the length word) to msg. */
void		typio_send(PqMsgBuilder *msg, const Value *v);

/*
 * varchar(n) and character(n) of a value: PostgreSQL's length coercion. A value
 * longer than n characters is 22001 unless what goes is spaces, or the cast is
 * explicit (then it is cut); character(n) is padded with spaces to n. Text input
 * with a typmod follows the implicit rule, as PostgreSQL's varcharin does.
 */
Value		typio_char_length(const Value *v, int32_t typmod, bool explicit);

/* Numeric helpers (the arithmetic is numeric.h's): a scaled integer as numeric text. */
Value		numeric_from_scaled(__int128 mantissa, int scale);
/* Round to scale digits after the point, half away from zero. */
Value		numeric_round(const Value *v, int scale);
/* Cut to scale digits after the point: toward zero (direction 0), down (< 0, floor), up (> 0, ceil). */
Value		numeric_trunc(const Value *v, int scale, int direction);

/*
 * time with time zone is held as one integer (Value.u.i, INTEGER in SQLite) that
 * orders as PostgreSQL orders timetz: by the time in UTC, then by the zone. zone is
 * PostgreSQL's, seconds west of UTC (within +-15:59:59).
 */
#define TIMETZ_ZONE_SPAN	131072
static inline int64_t
timetz_pack(int64_t usecs, int32_t zone)
{
	return (usecs + zone * USECS_PER_SEC) * TIMETZ_ZONE_SPAN + (zone + TIMETZ_ZONE_SPAN / 2);
}

static inline int32_t
timetz_zone(int64_t packed)
{
	int64_t		r = packed % TIMETZ_ZONE_SPAN;

	return (int32_t) ((r < 0 ? r + TIMETZ_ZONE_SPAN : r) - TIMETZ_ZONE_SPAN / 2);
}

static inline int64_t
timetz_usecs(int64_t packed)
{
	int32_t		zone = timetz_zone(packed);

	return (packed - (zone + TIMETZ_ZONE_SPAN / 2)) / TIMETZ_ZONE_SPAN - zone * USECS_PER_SEC;
}

/* Days since 2000-01-01 <-> calendar date (proleptic Gregorian). */
int64_t		date_from_ymd(int year, int month, int day);
void		date_to_ymd(int64_t days, int *year, int *month, int *day);

#endif
