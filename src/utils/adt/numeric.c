/*
 * numeric.c: PostgreSQL's NUMERIC arithmetic and order, exact at any precision
 * (numeric.h), and its text and binary forms (typio_internal.h).
 *
 * Values are canonical texts; an operator parses its operands into Decimal
 * (the parser at the end of this file, shared with numeric input), works on their magnitudes as
 * little-endian arrays of decimal digits, and formats the result. Schoolbook
 * methods suffice: the precisions the catalog holds are tens of digits, and
 * PostgreSQL's limit of a column's precision is 1000 digits, whose product or
 * quotient is a few million digit steps.
 *
 * Result scales are PostgreSQL's: the larger of the operands' for + - and %, their
 * sum for * (rounded to 16383 digits, NUMERIC_DSCALE_MAX), and for / its
 * select_div_scale: at least 16 significant digits, measured in base-10000 digits
 * of the operands as PostgreSQL stores them, and no fewer than either operand's
 * scale, at most 1000. A quotient is rounded half away from zero from its exact
 * value.
 *
 * The order (numeric_cmp, and the cache's rl_numeric collation over it) compares
 * texts without converting them: sign class first, then the position of the
 * leading significant digit, then the digits. So "1.50" equals "1.5", as the
 * numbers are equal in PostgreSQL, and no allocation happens in a comparison,
 * which SQLite makes for every step of a sort or an index search.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils/adt/numeric.h"
#include "utils/adt/typio_internal.h"
#include "utils/elog.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

/* PostgreSQL's limits: digits before the point, digits after it, a quotient's scale */
#define NUMERIC_WEIGHT_DIGITS	131072
#define NUMERIC_DSCALE_MAX		16383
#define NUMERIC_MAX_DISPLAY_SCALE 1000
#define NUMERIC_MIN_SIG_DIGITS	16

/* ---------- special values ---------- */

typedef enum
{
	NUM_FINITE,
	NUM_NAN,
	NUM_PINF,
	NUM_NINF
} NumKind;

static NumKind
num_kind(const Value *v)
{
	const char *s = v->u.s.data;

	if (strcmp(s, "NaN") == 0)
		return NUM_NAN;
	if (strcmp(s, "Infinity") == 0)
		return NUM_PINF;
	if (strcmp(s, "-Infinity") == 0)
		return NUM_NINF;
	return NUM_FINITE;
}

static Value
num_special(NumKind k)
{
	return k == NUM_NAN ? typio_string(NUMERICOID, "NaN", 3)
		: k == NUM_PINF ? typio_string(NUMERICOID, "Infinity", 8)
		: typio_string(NUMERICOID, "-Infinity", 9);
}

static Value
decimal_value(const Decimal *d)
{
	char	   *s = decimal_format(d);

	return typio_string(NUMERICOID, s, strlen(s));
}

static Decimal
num_parse(const Value *v)
{
	Decimal		d;

	if (!decimal_parse(v->u.s.data, &d))
		elog(ERROR, "invalid numeric value \"%s\"", v->u.s.data);
	return d;
}

/* sign of a finite value or an infinity: -1, 0, 1 */
static int
num_sign(NumKind k, const Decimal *d)
{
	if (k == NUM_PINF)
		return 1;
	if (k == NUM_NINF)
		return -1;
	return d->digits[0] == '\0' ? 0 : d->neg ? -1 : 1;
}

static void __attribute__((noreturn))
numeric_overflow(void)
{
	ereport(ERROR,
			errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			errmsg("value overflows numeric format"));
}

static void __attribute__((noreturn))
division_by_zero(void)
{
	ereport(ERROR,
			errcode(ERRCODE_DIVISION_BY_ZERO),
			errmsg("division by zero"));
}

/* ---------- magnitudes: little-endian decimal digits, no high zeros ---------- */

typedef struct Mag
{
	int			n;
	uint8_t    *d;
} Mag;

static void
mag_trim(Mag *m)
{
	while (m->n > 0 && m->d[m->n - 1] == 0)
		m->n--;
}

/* mag_of -- |x| * 10^(scale - x->scale), scale >= x->scale */
static Mag
mag_of(const Decimal *x, int scale)
{
	int			nd = (int) strlen(x->digits);
	int			shift = scale - x->scale;
	Mag			m = {nd + shift, palloc((size_t) (nd + shift) + 1)};

	memset(m.d, 0, (size_t) shift);
	for (int i = 0; i < nd; i++)
		m.d[shift + i] = (uint8_t) (x->digits[nd - 1 - i] - '0');
	mag_trim(&m);
	return m;
}

/* m's digits, most significant first ("" for zero) */
static char *
mag_digits(const Mag *m)
{
	char	   *digits = palloc((size_t) m->n + 1);

	for (int i = 0; i < m->n; i++)
		digits[i] = (char) ('0' + m->d[m->n - 1 - i]);
	digits[m->n] = '\0';
	return digits;
}

/* the value m * 10^-scale, negative if neg, as canonical text */
static Value
mag_value(const Mag *m, bool neg, int scale)
{
	Decimal		d = {.neg = neg && m->n > 0, .digits = mag_digits(m), .scale = scale};

	if (m->n - scale > NUMERIC_WEIGHT_DIGITS)
		numeric_overflow();
	return decimal_value(&d);
}

static int
mag_cmp(const Mag *a, const Mag *b)
{
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (int i = a->n - 1; i >= 0; i--)
		if (a->d[i] != b->d[i])
			return a->d[i] < b->d[i] ? -1 : 1;
	return 0;
}

static Mag
mag_add(const Mag *a, const Mag *b)
{
	int			n = (a->n > b->n ? a->n : b->n) + 1;
	Mag			r = {n, palloc((size_t) n)};
	int			carry = 0;

	for (int i = 0; i < n; i++)
	{
		int			s = (i < a->n ? a->d[i] : 0) + (i < b->n ? b->d[i] : 0) + carry;

		r.d[i] = (uint8_t) (s % 10);
		carry = s / 10;
	}
	mag_trim(&r);
	return r;
}

/* a -= b in place, a >= b */
static void
mag_sub_in_place(Mag *a, const Mag *b)
{
	int			borrow = 0;

	for (int i = 0; i < a->n; i++)
	{
		int			s = a->d[i] - (i < b->n ? b->d[i] : 0) - borrow;

		borrow = s < 0;
		a->d[i] = (uint8_t) (s + (borrow ? 10 : 0));
	}
	mag_trim(a);
}

static Mag
mag_mul(const Mag *a, const Mag *b)
{
	int			n = a->n + b->n;
	Mag			r = {n, palloc0((size_t) n + 1)};
	uint32_t   *acc = palloc0(sizeof(uint32_t) * ((size_t) n + 1));

	for (int i = 0; i < a->n; i++)
	{
		CHECK_FOR_INTERRUPTS();	/* a product of 100000-digit numbers takes seconds */
		if (a->d[i] == 0)
			continue;
		for (int j = 0; j < b->n; j++)
			acc[i + j] += (uint32_t) a->d[i] * b->d[j];
		/* carry now and then, so no cell can overflow */
		if ((i & 0x3fffff) == 0x3fffff)
			for (int k = 0; k < n; k++)
			{
				acc[k + 1] += acc[k] / 10;
				acc[k] %= 10;
			}
	}
	for (int k = 0; k < n; k++)
	{
		acc[k + 1] += acc[k] / 10;
		r.d[k] = (uint8_t) (acc[k] % 10);
	}
	pfree(acc);
	mag_trim(&r);
	return r;
}

/* mag_divmod -- a / b (b nonzero), truncated; the remainder in *rem if not NULL */
static Mag
mag_divmod(const Mag *a, const Mag *b, Mag *rem)
{
	Mag			q = {a->n, palloc0((size_t) a->n + 1)};
	Mag			r = {0, palloc0((size_t) b->n + 2)};

	for (int i = a->n - 1; i >= 0; i--)
	{
		CHECK_FOR_INTERRUPTS();
		/* r = r * 10 + a[i] */
		memmove(r.d + 1, r.d, (size_t) r.n);
		r.d[0] = a->d[i];
		r.n++;
		mag_trim(&r);
		uint8_t		digit = 0;

		while (mag_cmp(&r, b) >= 0)
		{
			mag_sub_in_place(&r, b);
			digit++;
		}
		q.d[i] = digit;
	}
	mag_trim(&q);
	if (rem)
		*rem = r;
	return q;
}

/* ---------- the operators ---------- */

/* a + b, or a - b with subtract; both finite */
static Value
add_finite(const Decimal *a, const Decimal *b, bool subtract)
{
	int			scale = a->scale > b->scale ? a->scale : b->scale;
	Mag			ma = mag_of(a, scale),
				mb = mag_of(b, scale);
	bool		bneg = b->neg != subtract;

	if (a->neg == bneg)
	{
		Mag			sum = mag_add(&ma, &mb);

		return mag_value(&sum, a->neg, scale);
	}
	if (mag_cmp(&ma, &mb) >= 0)
	{
		mag_sub_in_place(&ma, &mb);
		return mag_value(&ma, a->neg, scale);
	}
	mag_sub_in_place(&mb, &ma);
	return mag_value(&mb, bneg, scale);
}

static Value
add_or_sub(const Value *a, const Value *b, bool subtract)
{
	NumKind		ka = num_kind(a),
				kb = num_kind(b);

	if (ka == NUM_NAN || kb == NUM_NAN)
		return num_special(NUM_NAN);
	if (subtract && kb != NUM_FINITE)
		kb = kb == NUM_PINF ? NUM_NINF : NUM_PINF;
	if (ka != NUM_FINITE && kb != NUM_FINITE)
		return num_special(ka == kb ? ka : NUM_NAN);	/* Infinity - Infinity is NaN */
	if (ka != NUM_FINITE || kb != NUM_FINITE)
		return num_special(ka != NUM_FINITE ? ka : kb);
	Decimal		da = num_parse(a),
				db = num_parse(b);

	return add_finite(&da, &db, subtract);
}

Value
numeric_add(const Value *a, const Value *b)
{
	return add_or_sub(a, b, false);
}

Value
numeric_sub(const Value *a, const Value *b)
{
	return add_or_sub(a, b, true);
}

Value
numeric_mul(const Value *a, const Value *b)
{
	NumKind		ka = num_kind(a),
				kb = num_kind(b);

	if (ka == NUM_NAN || kb == NUM_NAN)
		return num_special(NUM_NAN);
	Decimal		da = {0},
				db = {0};

	if (ka == NUM_FINITE)
		da = num_parse(a);
	if (kb == NUM_FINITE)
		db = num_parse(b);
	if (ka != NUM_FINITE || kb != NUM_FINITE)
	{
		/* an infinity times zero is NaN, else an infinity of the signs' product */
		int			sign = num_sign(ka, &da) * num_sign(kb, &db);

		return num_special(sign == 0 ? NUM_NAN : sign > 0 ? NUM_PINF : NUM_NINF);
	}
	Mag			ma = mag_of(&da, da.scale),
				mb = mag_of(&db, db.scale);
	Mag			r = mag_mul(&ma, &mb);
	int			scale = da.scale + db.scale;

	if (scale <= NUMERIC_DSCALE_MAX)
		return mag_value(&r, da.neg != db.neg, scale);
	Value		exact = mag_value(&r, da.neg != db.neg, scale);
	Decimal		d = num_parse(&exact);

	decimal_round(&d, NUMERIC_DSCALE_MAX, ROUND_HALF);
	return decimal_value(&d);
}

/*
 * base10000_lead -- PostgreSQL's weight and first digit of d in base 10000 (the
 * group of four decimal places, aligned at the point, holding its leading digit)
 */
static void
base10000_lead(const Decimal *d, int *weight, int *first)
{
	int			nd = (int) strlen(d->digits);
	int			intdigits = nd - d->scale;
	int			place = intdigits - 1;	/* the leading digit's power of ten */

	*weight = 0;
	*first = 0;
	if (nd == 0)
		return;
	*weight = place >= 0 ? place / 4 : -((-place + 3) / 4);
	for (int p = *weight * 4 + 3; p >= *weight * 4; p--)
	{
		int			idx = intdigits - 1 - p;

		*first = *first * 10 + (idx >= 0 && idx < nd ? d->digits[idx] - '0' : 0);
	}
}

/* select_div_scale -- PostgreSQL's scale of a quotient */
static int
select_div_scale(const Decimal *a, const Decimal *b)
{
	int			w1,
				f1,
				w2,
				f2;

	base10000_lead(a, &w1, &f1);
	base10000_lead(b, &w2, &f2);
	int			qweight = w1 - w2 - (f1 <= f2 ? 1 : 0);
	int			rscale = NUMERIC_MIN_SIG_DIGITS - qweight * 4;

	if (rscale < a->scale)
		rscale = a->scale;
	if (rscale < b->scale)
		rscale = b->scale;
	if (rscale < 0)
		rscale = 0;
	return rscale > NUMERIC_MAX_DISPLAY_SCALE ? NUMERIC_MAX_DISPLAY_SCALE : rscale;
}

/* div_or_mod's answer for special operands; false when both are finite */
static bool
special_quotient(NumKind ka, NumKind kb, const Value *a, const Value *b, bool mod, Value *out)
{
	if (ka == NUM_FINITE && kb == NUM_FINITE)
		return false;
	if (ka == NUM_NAN || kb == NUM_NAN)
	{
		*out = num_special(NUM_NAN);
		return true;
	}
	if (ka != NUM_FINITE)
	{
		if (kb != NUM_FINITE)
			*out = num_special(NUM_NAN);	/* Infinity / Infinity */
		else
		{
			Decimal		db = num_parse(b);
			int			sign = num_sign(kb, &db);

			if (sign == 0)
				division_by_zero();
			/* Infinity % x is NaN; Infinity / x an infinity of the signs' product */
			*out = num_special(mod ? NUM_NAN : (ka == NUM_PINF) == (sign > 0) ? NUM_PINF : NUM_NINF);
		}
		return true;
	}
	/* x / Infinity is zero, x % Infinity is x */
	*out = mod ? *a : typio_string(NUMERICOID, "0", 1);
	return true;
}

/* div_or_mod -- a / b, or a % b with mod */
static Value
div_or_mod(const Value *a, const Value *b, bool mod)
{
	Value		special;

	if (special_quotient(num_kind(a), num_kind(b), a, b, mod, &special))
		return special;
	Decimal		da = num_parse(a),
				db = num_parse(b);

	if (db.digits[0] == '\0')
		division_by_zero();
	if (mod)
	{
		/* the remainder of the truncated quotient, at the larger scale, with a's sign */
		int			scale = da.scale > db.scale ? da.scale : db.scale;
		Mag			ma = mag_of(&da, scale),
					mb = mag_of(&db, scale),
					rem;

		mag_divmod(&ma, &mb, &rem);
		return mag_value(&rem, da.neg, scale);
	}
	int			rscale = select_div_scale(&da, &db);

	/* |a| / |b| at rscale + 1 digits, truncated, then rounded on its last digit */
	int			scale = da.scale > db.scale + rscale + 1 ? da.scale : db.scale + rscale + 1;
	Mag			num = mag_of(&da, scale),
				den = mag_of(&db, db.scale);
	Mag			q = mag_divmod(&num, &den, NULL);

	/* q = floor(|a / b| * 10^(scale - db.scale)); scale - db.scale >= rscale + 1 */
	Decimal		d = {.neg = false, .scale = scale - db.scale};

	d.digits = mag_digits(&q);
	decimal_round(&d, rscale + 1, ROUND_DOWN);
	decimal_round(&d, rscale, ROUND_HALF);
	d.neg = da.neg != db.neg && d.digits[0] != '\0';
	return decimal_value(&d);
}

Value
numeric_div(const Value *a, const Value *b)
{
	return div_or_mod(a, b, false);
}

Value
numeric_mod(const Value *a, const Value *b)
{
	return div_or_mod(a, b, true);
}

Value
numeric_neg(const Value *a)
{
	NumKind		k = num_kind(a);

	if (k != NUM_FINITE)
		return num_special(k == NUM_PINF ? NUM_NINF : k == NUM_NINF ? NUM_PINF : NUM_NAN);
	Decimal		d = num_parse(a);

	d.neg = !d.neg && d.digits[0] != '\0';
	return decimal_value(&d);
}

/* ---------- order ---------- */

/* classes in PostgreSQL's order, and text that is no number after them all */
typedef enum
{
	KEY_NINF,
	KEY_NEG,
	KEY_ZERO,
	KEY_POS,
	KEY_PINF,
	KEY_NAN,
	KEY_OTHER
} KeyClass;

/*
 * A number's text as its sign class, the power of ten of its leading significant
 * digit, and where its digits are: the integer part [ip, ie) and the fraction
 * [fp, fe), the leading digit at lead.
 */
typedef struct NumKey
{
	KeyClass	cls;
	long		exp;
	const char *lead,
			   *ie,
			   *fp,
			   *fe;
} NumKey;

static bool
text_is(const char *s, size_t len, const char *word)
{
	return len == strlen(word) && memcmp(s, word, len) == 0;
}

static NumKey
num_key(const char *s, size_t len)
{
	NumKey		k = {.cls = KEY_OTHER};
	const char *p = s,
			   *end = s + len;
	bool		neg = false;

	if (text_is(s, len, "NaN"))
		return (NumKey) {.cls = KEY_NAN};
	if (text_is(s, len, "Infinity"))
		return (NumKey) {.cls = KEY_PINF};
	if (text_is(s, len, "-Infinity"))
		return (NumKey) {.cls = KEY_NINF};
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	const char *ip = p;

	while (p < end && *p >= '0' && *p <= '9')
		p++;
	const char *ie = p,
			   *fp = p,
			   *fe = p;

	if (p < end && *p == '.')
	{
		fp = ++p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		fe = p;
	}
	if (ie == ip && fe == fp)
		return k;				/* no digits */
	long		exp10 = 0;

	if (p < end && (*p == 'e' || *p == 'E'))
	{
		bool		eneg = false;

		if (++p < end && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		if (p == end)
			return k;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if (exp10 < 100000000)
				exp10 = exp10 * 10 + (*p - '0');
		exp10 = eneg ? -exp10 : exp10;
	}
	if (p != end)
		return k;
	/* the leading significant digit */
	const char *q = ip;

	while (q < ie && *q == '0')
		q++;
	if (q < ie)
	{
		k.lead = q;
		k.exp = (long) (ie - q) + exp10;
	}
	else
	{
		q = fp;
		while (q < fe && *q == '0')
			q++;
		if (q == fe)
			return (NumKey) {.cls = KEY_ZERO};
		k.lead = q;
		k.exp = -(long) (q - fp) + exp10;
	}
	k.cls = neg ? KEY_NEG : KEY_POS;
	k.ie = ie;
	k.fp = fp;
	k.fe = fe;
	return k;
}

/* key_next -- the next of a key's significant digits from *p into *digit; false past the last */
static bool
key_next(const NumKey *k, const char **p, char *digit)
{
	if (*p == k->ie)
		*p = k->fp;				/* over the point */
	if (*p >= k->fe)
		return false;
	*digit = *(*p)++;
	return true;
}

int
numeric_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	NumKey		ka = num_key(a, alen),
				kb = num_key(b, blen);

	if (ka.cls != kb.cls)
		return ka.cls < kb.cls ? -1 : 1;
	if (ka.cls == KEY_OTHER)
	{
		int			c = memcmp(a, b, alen < blen ? alen : blen);

		return c ? (c < 0 ? -1 : 1) : alen < blen ? -1 : alen > blen;
	}
	if (ka.cls != KEY_NEG && ka.cls != KEY_POS)
		return 0;
	int			sign = ka.cls == KEY_NEG ? -1 : 1;

	if (ka.exp != kb.exp)
		return ka.exp < kb.exp ? -sign : sign;
	const char *pa = ka.lead,
			   *pb = kb.lead;

	for (;;)
	{
		char		da = '0',
					db = '0';
		bool		more_a = key_next(&ka, &pa, &da),
					more_b = key_next(&kb, &pb, &db);

		if (!more_a && !more_b)
			return 0;
		if (da != db)
			return da < db ? -sign : sign;
	}
}

int
numeric_collate(void *arg, int alen, const void *a, int blen, const void *b)
{
	(void) arg;
	return numeric_cmp(a, (size_t) alen, b, (size_t) blen);
}

/* ---------- text and binary forms (typio.h) ---------- */

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

Value
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
void
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

Value
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
