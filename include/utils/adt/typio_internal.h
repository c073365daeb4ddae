/*
 * typio_internal.h: what the type I/O files of utils/adt share (typio.c, datetime.c,
 * numeric.c): the input errors, in PostgreSQL's words, and the text forms each
 * file provides for typio_input / typio_output.
 */
#ifndef RL_TYPIO_INTERNAL_H
#define RL_TYPIO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/rl_buffer.h"
#include "libpq/pqformat.h"
#include "utils/adt/typio.h"

#define NBASE				10000	/* numeric's binary digits */

/* input errors (typio.c) */
void		invalid_syntax(Oid type, const char *str) __attribute__((noreturn));
void		out_of_range(Oid type, const char *str);
/* PostgreSQL's date/time input errors name time and timestamp without their "without time zone" */
void		invalid_datetime(Oid type, const char *str) __attribute__((noreturn));
void		datetime_out_of_range(const char *str);
void		bad_binary(Oid type);
const char *skip_space(const char *s);

/* numeric's text and binary forms (numeric.c) */
Value		numeric_in(const char *str, int32_t typmod);
Value		numeric_recv(const uint8_t *data, size_t len);
void		numeric_send(PqMsgBuilder *msg, const char *s);

/* inet's text and binary forms (network.c) */
Value		inet_in(const char *str);
Value		inet_recv(const uint8_t *data, size_t len);
void		inet_send(PqMsgBuilder *msg, const char *text);

/* dates, times and intervals as text (datetime.c) */
Value		date_in(const char *str);
Value		time_in(const char *str);
Value		timetz_in(const char *str);
Value		timestamp_in(Oid type, const char *str);
Value		interval_in(const char *str);
void		format_date(RlBuf *out, int64_t days);
void		format_time(RlBuf *out, int64_t usecs);
void		format_zone(RlBuf *out, int32_t zone);
void		format_timestamp(RlBuf *out, int64_t ts, bool with_zone);
void		format_interval(RlBuf *out, const Interval *iv);

#endif
