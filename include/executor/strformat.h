/*
 * strformat.h: PostgreSQL's format(text [, VARIADIC "any"]), quote_literal and
 * quote_ident, builtins of funcs.c
 */
#ifndef STRFORMAT_H
#define STRFORMAT_H

#include "executor/executor.h"

Value		f_format(ExecState *es, const Value *args, int nargs);
/* quote_literal(text), quote_ident(text): the quoting format's %L and %I do */
Value		f_quote_literal(ExecState *es, const Value *args, int nargs);
Value		f_quote_ident(ExecState *es, const Value *args, int nargs);

#endif							/* STRFORMAT_H */
