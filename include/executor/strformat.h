/*
 * strformat.h: PostgreSQL's format(text [, VARIADIC "any"]), builtin of funcs.c
 */
#ifndef STRFORMAT_H
#define STRFORMAT_H

#include "executor/executor.h"

Value		f_format(ExecState *es, const Value *args, int nargs);

#endif							/* STRFORMAT_H */
