/*
 * numeric.h: PostgreSQL's NUMERIC, exact at any precision.
 *
 * A numeric Value is its canonical text ("1.50", "-3", "NaN", "Infinity",
 * "-Infinity"): the digits PostgreSQL's numeric_out shows, so the number of
 * digits after the point is the value's display scale, as PostgreSQL keeps it.
 * The same text is what the catalog cache stores (a numeric column has TEXT
 * affinity and the rl_numeric collation, which orders such texts by value), so a
 * value stored comes back digit for digit. Arithmetic works on Decimal, a sign,
 * a string of decimal digits and a scale, with no limit of its own below
 * PostgreSQL's (131072 digits before the point, 16383 after): the executor's
 * operators and the cache's sum() and avg() use it alike.
 */
#ifndef RL_NUMERIC_H
#define RL_NUMERIC_H

#include <stdbool.h>
#include <stddef.h>

#include "utils/adt/typio.h"

/* value = digits * 10^-scale; digits has no leading zeros (empty means zero) */
typedef struct Decimal
{
	bool		neg;
	char	   *digits;
	int			scale;
} Decimal;

/* rounding of decimal_round: half away from zero, toward zero, away from zero */
typedef enum
{
	ROUND_HALF,
	ROUND_DOWN,
	ROUND_UP
} RoundMode;

/* decimal_parse -- false unless s is [sign]digits[.digits][e[sign]digits] */
bool		decimal_parse(const char *s, Decimal *d);
/* decimal_format -- the canonical text of d (palloc'd) */
char	   *decimal_format(const Decimal *d);
/* decimal_round -- to scale digits after the point (a negative scale rounds to tens, hundreds ...) */
void		decimal_round(Decimal *d, int scale, RoundMode mode);

/*
 * Operators on numeric Values, with PostgreSQL's result scales, its rules for NaN
 * and the infinities, 22012 for a division by zero and 22003 "value overflows
 * numeric format" beyond its limits.
 */
Value		numeric_add(const Value *a, const Value *b);
Value		numeric_sub(const Value *a, const Value *b);
Value		numeric_mul(const Value *a, const Value *b);
Value		numeric_div(const Value *a, const Value *b);
Value		numeric_mod(const Value *a, const Value *b);
Value		numeric_neg(const Value *a);

/*
 * numeric_cmp -- -1, 0, 1 as PostgreSQL orders numerics (-Infinity, the numbers,
 * Infinity, NaN; equal numbers are equal whatever their scales) of two texts.
 * Besides canonical texts it reads an exponent ("1e+20", as SQLite writes a REAL
 * made text) and orders any other text after NaN, bytewise, so it is a total order.
 */
int			numeric_cmp(const char *a, size_t alen, const char *b, size_t blen);

/*
 * How the cache declares a numeric column: "numeric_text(p,s) COLLATE rl_numeric".
 * The type's name gives it TEXT affinity (SQLite's NUMERIC affinity would keep a
 * number as a double), and the cache reads it back as numeric(p,s); the collation,
 * numeric_cmp as sqlite3_create_collation wants it, is registered on every
 * connection to a cache, and orders, groups, compares and indexes the column.
 */
#define NUMERIC_CACHE_TYPE "numeric_text"
#define NUMERIC_COLLATION "rl_numeric"
int			numeric_collate(void *arg, int alen, const void *a, int blen, const void *b);

#endif
