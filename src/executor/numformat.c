/*
 * numformat.c: to_char of numbers (integer, numeric, real, double precision) as
 * PostgreSQL 15's formatting.c writes them, in its C locale.
 *
 * A template is read into its items: 9 (a digit, or a space before the number), 0 (a
 * digit, or a zero), . and D (the decimal point), , and G (a group separator, or a
 * space before the number), FM (no padding: neither the spaces before the number nor
 * the trailing zeros its 9s after the point would give), S (the sign, anchored to
 * the number), MI PL SG (the sign where they stand), PR (angle brackets around a
 * negative number), L (the currency symbol, a space in the C locale), V (times 10 to
 * the power of the 9s after it), and any other character, or "quoted text", as it
 * is. The value is rounded to the template's digits after the point and written as
 * text (a float with at most DBL_DIG / FLT_DIG significant digits); one that has
 * more digits before the point than the template is all #. The items then take
 * their characters from it left to right, with formatting.c's rules for where the
 * sign goes and which leading and trailing characters are padding. EEEE, RN, TH, SP
 * and B are refused (0A000); the template's errors are PostgreSQL's (42601).
 *
 * to_number reads a string by the same template, as formatting.c reads it: each item
 * takes at most one character (a 9 or 0 a digit, after a space it skips, a sign before
 * the first digit or one S anchors after the last; the point a point; a group separator
 * a comma if there is one, none under FM; MI PL SG a sign; any other character of the
 * template one character, whatever it is), digits beyond the template's after the point
 * are ignored, and the result has as many decimals as were read. V is 0A000 there.
 */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "common/rl_buffer.h"
#include "executor/numformat.h"
#include "utils/adt/numeric.h"
#include "utils/adt/typio.h"
#include "utils/elog.h"
#include "utils/mcxt.h"

typedef enum NumItem
{
	N_LITERAL, N_9, N_0, N_DEC, N_D, N_COMMA, N_G, N_L, N_MI, N_PL, N_SG, N_S, N_PR, N_FM, N_V
} NumItem;

#define F_DECIMAL	0x01
#define F_ZERO		0x02
#define F_BRACKET	0x04
#define F_MINUS		0x08
#define F_PLUS		0x10
#define F_LSIGN		0x20
#define F_FILLMODE	0x40
#define F_MULTI		0x80

#define LSIGN_NONE 0
#define LSIGN_PRE 1
#define LSIGN_POST 2

typedef struct NumNode
{
	NumItem		item;
	const char *text;			/* N_LITERAL */
	size_t		len;
} NumNode;

typedef struct NumDesc
{
	int			pre,			/* digits before the point */
				post,			/* ... and after it */
				multi,			/* the 9s after V */
				zero_start,		/* where the first 0 before the point is (1-based), 0 none */
				zero_end,
				lsign,			/* S: before or after the number */
				pre_lsign_num,
				flag;
} NumDesc;

static const struct
{
	const char *name;
	NumItem		item;
}			keywords[] = {
	{"FM", N_FM}, {"fm", N_FM}, {"MI", N_MI}, {"mi", N_MI}, {"PL", N_PL}, {"pl", N_PL},
	{"PR", N_PR}, {"pr", N_PR}, {"SG", N_SG}, {"sg", N_SG}, {"S", N_S}, {"s", N_S},
	{"D", N_D}, {"d", N_D}, {"G", N_G}, {"g", N_G}, {"L", N_L}, {"l", N_L}, {"V", N_V}, {"v", N_V},
	{"9", N_9}, {"0", N_0}, {".", N_DEC}, {",", N_COMMA},
};

/* the patterns PostgreSQL has for numbers that are not written here */
static const char *const refused[] = {"EEEE", "eeee", "RN", "rn", "TH", "th", "SP", "sp", "B", "b", "C", "c"};

static void
template_error(const char *message)
{
	ereport(ERROR,
			errcode(ERRCODE_SYNTAX_ERROR),
			errmsg("%s", message));
}

/* prepare -- one item of the template into the description (formatting.c's NUMDesc_prepare) */
static void
prepare(NumDesc *num, NumItem item)
{
	if (num->flag & F_BRACKET && (item == N_9 || item == N_0))
		template_error(item == N_9 ? "\"9\" must be ahead of \"PR\"" : "\"0\" must be ahead of \"PR\"");
	switch (item)
	{
		case N_9:
			if (num->flag & F_MULTI)
				num->multi++;
			else if (num->flag & F_DECIMAL)
				num->post++;
			else
				num->pre++;
			break;
		case N_0:
			if (!(num->flag & (F_ZERO | F_DECIMAL)))
			{
				num->flag |= F_ZERO;
				num->zero_start = num->pre + 1;
			}
			if (num->flag & F_DECIMAL)
				num->post++;
			else
				num->pre++;
			num->zero_end = num->pre + num->post;
			break;
		case N_DEC:
		case N_D:
			if (num->flag & F_DECIMAL)
				template_error("multiple decimal points");
			if (num->flag & F_MULTI)
				template_error("cannot use \"V\" and decimal point together");
			num->flag |= F_DECIMAL;
			break;
		case N_FM:
			num->flag |= F_FILLMODE;
			break;
		case N_S:
			if (num->flag & F_LSIGN)
				template_error("cannot use \"S\" twice");
			if (num->flag & (F_PLUS | F_MINUS | F_BRACKET))
				template_error("cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together");
			if (!(num->flag & F_DECIMAL))
			{
				num->lsign = LSIGN_PRE;
				num->pre_lsign_num = num->pre;
			}
			else if (num->lsign == LSIGN_NONE)
				num->lsign = LSIGN_POST;
			num->flag |= F_LSIGN;
			break;
		case N_MI:
		case N_PL:
		case N_SG:
			if (num->flag & F_LSIGN)
				template_error(item == N_MI ? "cannot use \"S\" and \"MI\" together"
							   : item == N_PL ? "cannot use \"S\" and \"PL\" together"
							   : "cannot use \"S\" and \"SG\" together");
			num->flag |= item == N_MI ? F_MINUS : item == N_PL ? F_PLUS : F_MINUS | F_PLUS;
			break;
		case N_PR:
			if (num->flag & (F_LSIGN | F_PLUS | F_MINUS))
				template_error("cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together");
			num->flag |= F_BRACKET;
			break;
		case N_V:
			if (num->flag & F_DECIMAL)
				template_error("cannot use \"V\" and decimal point together");
			num->flag |= F_MULTI;
			break;
		default:
			break;
	}
}

/* parse_template -- the template's items (n of them), described in num */
static NumNode *
parse_template(const char *f, size_t len, NumDesc *num, int *n)
{
	NumNode    *nodes = palloc(sizeof(NumNode) * (len + 1));
	const char *end = f + len;

	*n = 0;
	memset(num, 0, sizeof(*num));
	while (f < end)
	{
		size_t		k = 0;

		if (*f == '"')
		{
			const char *start = ++f;

			while (f < end && *f != '"')
				f++;
			nodes[(*n)++] = (NumNode) {N_LITERAL, start, (size_t) (f - start)};
			f += f < end;
			continue;
		}
		for (size_t r = 0; r < sizeof(refused) / sizeof(refused[0]); r++)
			if ((size_t) (end - f) >= strlen(refused[r]) && memcmp(f, refused[r], strlen(refused[r])) == 0)
				ereport(ERROR,
						errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						errmsg("to_char pattern \"%s\" is not supported", refused[r]));
		while (k < sizeof(keywords) / sizeof(keywords[0]) &&
			   ((size_t) (end - f) < strlen(keywords[k].name) ||
				memcmp(f, keywords[k].name, strlen(keywords[k].name)) != 0))
			k++;
		if (k == sizeof(keywords) / sizeof(keywords[0]))
		{
			/* a character as it is (UTF-8: all its bytes) */
			const char *start = f;

			while (++f < end && ((unsigned char) *f & 0xC0) == 0x80)
				;
			nodes[(*n)++] = (NumNode) {N_LITERAL, start, (size_t) (f - start)};
			continue;
		}
		prepare(num, keywords[k].item);
		nodes[(*n)++] = (NumNode) {keywords[k].item, NULL, 0};
		f += strlen(keywords[k].name);
	}
	return nodes;
}

/* the state of writing a number (formatting.c's NUMProc) */
typedef struct NumOut
{
	NumDesc    *num;
	RlBuf	   *out;
	char		sign;			/* '+' or '-' */
	bool		sign_wrote;
	const char *number;			/* its digits and point, no sign */
	const char *number_p;		/* the next one to write */
	const char *last_relevant;	/* FM: the last digit after the point worth writing */
	int			num_count,
				num_curr,
				out_pre_spaces;
	bool		num_in;			/* a digit has been written */
} NumOut;

#define IS_FILLMODE(np) ((np)->num->flag & F_FILLMODE)
#define IS_ZERO(np) ((np)->num->flag & F_ZERO)
/* a 0 before the point that the template has no 0 for: "9.9" writes 0.1 as " .1" */
#define IS_PREDEC_SPACE(np) (!IS_ZERO(np) && (np)->number == (np)->number_p && \
							 *(np)->number == '0' && (np)->num->post != 0)

/* last_relevant_decimal -- FM: the last digit after the point that is not a zero (or the point) */
static const char *
last_relevant_decimal(const char *num)
{
	const char *p = strchr(num, '.'),
			   *result = p;

	if (p == NULL)
		return NULL;
	while (*++p)
		if (*p != '0')
			result = p;
	return result;
}

static void
write_sign_before(NumOut *np)
{
	if (np->num->flag & F_LSIGN)
	{
		if (np->num->lsign == LSIGN_PRE)
		{
			rlbuf_append(np->out, &np->sign, 1);
			np->sign_wrote = true;
		}
	}
	else if (np->num->flag & F_BRACKET)
	{
		rlbuf_append_str(np->out, np->sign == '+' ? " " : "<");
		np->sign_wrote = true;
	}
	else if (np->sign == '+')
	{
		if (!IS_FILLMODE(np))
			rlbuf_append_str(np->out, " ");
		np->sign_wrote = true;
	}
	else
	{
		rlbuf_append_str(np->out, "-");
		np->sign_wrote = true;
	}
}

/* numpart -- a 9, 0 or decimal point (formatting.c's NUM_numpart_to_char) */
static void
numpart(NumOut *np, NumItem item)
{
	if (!np->sign_wrote &&
		(np->num_curr >= np->out_pre_spaces || (IS_ZERO(np) && np->num->zero_start == np->num_curr)) &&
		(!IS_PREDEC_SPACE(np) || (np->last_relevant && *np->last_relevant == '.')))
		write_sign_before(np);

	if (np->num_curr < np->out_pre_spaces && (np->num->zero_start > np->num_curr || !IS_ZERO(np)))
	{
		if (!IS_FILLMODE(np))
			rlbuf_append_str(np->out, " ");
	}
	else if (IS_ZERO(np) && np->num_curr < np->out_pre_spaces && np->num->zero_start <= np->num_curr)
	{
		rlbuf_append_str(np->out, "0");
		np->num_in = true;
	}
	else
	{
		if (*np->number_p == '.')
		{
			if (!np->last_relevant || *np->last_relevant != '.' || IS_FILLMODE(np))
				rlbuf_append_str(np->out, ".");
		}
		else
		{
			if (np->last_relevant && np->number_p > np->last_relevant && item != N_0)
				;
			else if (IS_PREDEC_SPACE(np))
			{
				if (!IS_FILLMODE(np))
					rlbuf_append_str(np->out, " ");
				else if (np->last_relevant && *np->last_relevant == '.')
					rlbuf_append_str(np->out, "0");
			}
			else if (*np->number_p)
			{
				rlbuf_append(np->out, np->number_p, 1);
				np->num_in = true;
			}
		}
		if (*np->number_p)
			np->number_p++;
	}

	int			end = np->num_count + (np->out_pre_spaces ? 1 : 0) + (np->num->flag & F_DECIMAL ? 1 : 0);

	if (np->last_relevant && np->last_relevant == np->number_p)
		end = np->num_curr;
	if (np->num_curr + 1 == end)
	{
		if (np->sign_wrote && np->num->flag & F_BRACKET)
			rlbuf_append_str(np->out, np->sign == '+' ? " " : ">");
		else if (np->num->flag & F_LSIGN && np->num->lsign == LSIGN_POST)
			rlbuf_append(np->out, &np->sign, 1);
	}
	np->num_curr++;
}

/*
 * write_number -- the template's items over number (digits and point, no sign) of
 * sign, with out_pre_spaces places of the template before its first digit
 */
static Value
write_number(const NumNode *nodes, int n, NumDesc *num, const char *number, char sign, int out_pre_spaces)
{
	RlBuf		out;
	NumOut		np = {num, &out, sign, false, number, number, NULL, 0, 0, out_pre_spaces, false};

	rlbuf_init_in(&out, CurrentMemoryContext);
	if (num->flag & (F_PLUS | F_MINUS))
		np.sign_wrote = !(num->flag & F_PLUS && !(num->flag & F_MINUS));
	else
	{
		if (sign != '-' && num->flag & F_FILLMODE)
			num->flag &= ~F_BRACKET;
		np.sign_wrote = sign == '+' && num->flag & F_FILLMODE && !(num->flag & F_LSIGN);
		if (num->lsign == LSIGN_PRE && num->pre == num->pre_lsign_num)
			num->lsign = LSIGN_POST;
	}
	np.num_count = num->post + num->pre - 1;
	if (num->zero_start)
		num->zero_start--;		/* from here on counted from 0, as num_curr is */
	if (num->flag & F_FILLMODE && num->flag & F_DECIMAL)
	{
		np.last_relevant = last_relevant_decimal(number);
		/* digits the template gives 0 for stay */
		if (np.last_relevant && num->zero_end > out_pre_spaces)
		{
			int			last_zero = (int) strlen(number) - 1;

			if (num->zero_end - out_pre_spaces < last_zero)
				last_zero = num->zero_end - out_pre_spaces;
			if (np.last_relevant < number + last_zero)
				np.last_relevant = number + last_zero;
		}
	}
	if (!np.sign_wrote && out_pre_spaces == 0)
		np.num_count++;

	for (int i = 0; i < n; i++)
		switch (nodes[i].item)
		{
			case N_9:
			case N_0:
			case N_DEC:
			case N_D:
				numpart(&np, nodes[i].item);
				break;
			case N_COMMA:
			case N_G:
				if (np.num_in)
					rlbuf_append_str(&out, ",");
				else if (!IS_FILLMODE(&np))
					rlbuf_append_str(&out, " ");
				break;
			case N_L:
				rlbuf_append_str(&out, " ");	/* the C locale's currency symbol */
				break;
			case N_MI:
				if (sign == '-' || !IS_FILLMODE(&np))
					rlbuf_append_str(&out, sign == '-' ? "-" : " ");
				break;
			case N_PL:
				if (sign == '+' || !IS_FILLMODE(&np))
					rlbuf_append_str(&out, sign == '+' ? "+" : " ");
				break;
			case N_SG:
				rlbuf_append(&out, &sign, 1);
				break;
			case N_LITERAL:
				rlbuf_append(&out, nodes[i].text, nodes[i].len);
				break;
			default:
				break;
		}

	Value		r = typio_string(TEXTOID, out.len ? (const char *) out.data : "", out.len);

	rlbuf_free(&out);
	return r;
}

/*
 * finish -- text (the rounded value, a sign perhaps first) against the template:
 * spaces before it if the template has more digits before the point, all # if fewer
 */
static Value
finish(const NumNode *nodes, int n, NumDesc *num, const char *text)
{
	char		sign = *text == '-' ? '-' : '+';
	const char *digits = text + (*text == '-');
	const char *point = strchr(digits, '.');
	int			pre_len = point ? (int) (point - digits) : (int) strlen(digits);
	int			out_pre_spaces = 0;

	if (pre_len < num->pre)
		out_pre_spaces = num->pre - pre_len;
	else if (pre_len > num->pre)
	{
		char	   *hashes = palloc((size_t) (num->pre + num->post + 2));

		memset(hashes, '#', (size_t) (num->pre + num->post + 1));
		hashes[num->pre] = '.';
		hashes[num->pre + num->post + 1] = '\0';
		digits = hashes;
	}
	return write_number(nodes, n, num, digits, sign, out_pre_spaces);
}

/* f_to_char_int -- to_char(integer or bigint, text) */
Value
f_to_char_int(ExecState *es, const Value *args, int nargs)
{
	NumDesc		num;
	int			n;
	NumNode    *nodes = parse_template(args[1].u.s.data, args[1].u.s.len, &num, &n);
	char	   *text = psprintf("%lld", (long long) args[0].u.i);

	if (num.flag & F_MULTI)
	{
		/* times 10^multi: zeros after the digits */
		if (args[0].u.i != 0)
			text = psprintf("%s%0*d", text, num.multi, 0);
		num.pre += num.multi;
	}
	if (num.post)
	{
		/* the digits after the point are zeros */
		char	   *padded = palloc(strlen(text) + (size_t) num.post + 2);

		strcpy(padded, text);
		strcat(padded, ".");
		memset(padded + strlen(padded), '0', (size_t) num.post);
		padded[strlen(text) + 1 + (size_t) num.post] = '\0';
		text = padded;
	}
	return finish(nodes, n, &num, text);
}

/* f_to_char_numeric -- to_char(numeric, text): rounded half away from zero to the template's digits */
Value
f_to_char_numeric(ExecState *es, const Value *args, int nargs)
{
	NumDesc		num;
	int			n;
	NumNode    *nodes = parse_template(args[1].u.s.data, args[1].u.s.len, &num, &n);
	Value		v = args[0];

	if (num.flag & F_MULTI)
	{
		for (int i = 0; i < num.multi; i++)
			v = numeric_mul(&v, &(Value) {.type = NUMERICOID, .u.s = {"10", 2}});
		num.pre += num.multi;
	}
	v = numeric_round(&v, num.post);
	return finish(nodes, n, &num, pnstrdup(v.u.s.data, v.u.s.len));
}

/* f_to_char_float -- to_char(real or double precision, text): as printf rounds, at most FLT_DIG / DBL_DIG digits */
Value
f_to_char_float(ExecState *es, const Value *args, int nargs)
{
	NumDesc		num;
	int			n;
	NumNode    *nodes = parse_template(args[1].u.s.data, args[1].u.s.len, &num, &n);
	double		val = args[0].u.f;
	int			max_digits = args[0].type == FLOAT4OID ? FLT_DIG : DBL_DIG;

	if (!isfinite(val))
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("to_char of an infinite or NaN float is not supported"));
	if (num.flag & F_MULTI)
	{
		val *= pow(10, num.multi);
		num.pre += num.multi;
	}

	int			pre_len = (int) strlen(psprintf("%.0f", fabs(val)));

	if (pre_len >= max_digits)
		num.post = 0;
	else if (pre_len + num.post > max_digits)
		num.post = max_digits - pre_len;
	return finish(nodes, n, &num, psprintf("%.*f", num.post, val));
}

/* the state of reading a number (formatting.c's NUMProc, reading) */
typedef struct NumIn
{
	const NumDesc *num;
	const char *in,
			   *end;
	char	   *number;			/* number[0] the sign (' ' none), then digits and point */
	size_t		len;
	int			read_pre,
				read_post;
	bool		read_dec;
} NumIn;

/* numpart_from -- a 9, 0 or decimal point's character (formatting.c's NUM_numpart_from_char) */
static void
numpart_from(NumIn *ni, NumItem item)
{
	bool		isread = false;

	if (*ni->in == ' ')
		ni->in++;
	if (ni->in >= ni->end)
		return;
	/* a sign before the number */
	if (ni->number[0] == ' ' && (item == N_9 || item == N_0) && ni->read_pre + ni->read_post == 0 &&
		(*ni->in == '-' || *ni->in == '+') && !(ni->num->flag & (F_MINUS | F_PLUS)) &&
		!(ni->num->flag & F_LSIGN && ni->num->lsign == LSIGN_POST))
		ni->number[0] = *ni->in++;
	if (ni->in >= ni->end)
		return;
	if (isdigit((unsigned char) *ni->in))
	{
		if (ni->read_dec && ni->read_post == ni->num->post)
			return;
		ni->number[ni->len++] = *ni->in;
		if (ni->read_dec)
			ni->read_post++;
		else
			ni->read_pre++;
		isread = true;
	}
	else if (ni->num->flag & F_DECIMAL && !ni->read_dec && *ni->in == '.')
	{
		ni->number[ni->len++] = '.';
		ni->read_dec = true;
		isread = true;
	}
	if (ni->in >= ni->end)
		return;
	/* a sign behind the last digit */
	if (ni->number[0] == ' ' && ni->read_pre + ni->read_post > 0)
	{
		if (ni->num->flag & F_LSIGN && isread && ni->in + 1 < ni->end && !isdigit((unsigned char) ni->in[1]))
		{
			if (ni->in[1] == '-' || ni->in[1] == '+')
				ni->number[0] = *++ni->in;
		}
		else if (!isread && !(ni->num->flag & F_LSIGN) && ni->num->flag & (F_PLUS | F_MINUS) &&
				 (*ni->in == '-' || *ni->in == '+'))
			ni->number[0] = *ni->in;
	}
}

/* f_to_number -- to_number(text, template): numeric, with as many decimals as were read */
Value
f_to_number(ExecState *es, const Value *args, int nargs)
{
	if (args[1].u.s.len == 0)
		return typio_null(NUMERICOID);

	NumDesc		num;
	int			n;
	NumNode    *nodes = parse_template(args[1].u.s.data, args[1].u.s.len, &num, &n);
	NumIn		ni = {&num, args[0].u.s.data, args[0].u.s.data + args[0].u.s.len,
	palloc(args[0].u.s.len + 2), 1, 0, 0, false};

	if (num.flag & F_MULTI)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("to_number pattern \"V\" is not supported"));
	ni.number[0] = ' ';
	if (num.flag & F_BRACKET && ni.in < ni.end && *ni.in == '<')
	{
		ni.number[0] = '-';
		ni.in++;
	}
	for (int i = 0; i < n && ni.in < ni.end; i++)
	{
		switch (nodes[i].item)
		{
			case N_9:
			case N_0:
			case N_DEC:
			case N_D:
				numpart_from(&ni, nodes[i].item);
				break;
			case N_COMMA:
			case N_G:
				if (num.flag & F_FILLMODE || *ni.in != ',')
					continue;
				break;
			case N_MI:
			case N_PL:
			case N_SG:
				if ((*ni.in == '-' && nodes[i].item != N_PL) || (*ni.in == '+' && nodes[i].item != N_MI))
					ni.number[0] = *ni.in;
				break;
			case N_L:
				break;
			case N_LITERAL:
				for (size_t k = 0; k < nodes[i].len && ni.in < ni.end; k++)
					while (++ni.in < ni.end && ((unsigned char) *ni.in & 0xC0) == 0x80)
						;
				continue;
			default:
				continue;
		}
		ni.in++;
	}
	if (ni.read_dec && ni.number[ni.len - 1] == '.')
		ni.len--;				/* a point last is no part of the number */
	ni.number[ni.len] = '\0';
	if (ni.read_pre + ni.read_post == 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for type numeric: \"%s\"", ni.number[0] == ' ' ? " " : ni.number));
	return typio_input(NUMERICOID, ni.number[0] == ' ' ? ni.number + 1 : ni.number,
					   ((num.pre + ni.read_post) << 16 | ni.read_post) + 4);
}
