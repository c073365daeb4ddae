/*
 * numformat.h: to_char of numbers as PostgreSQL 15 writes them (executor/numformat.c),
 * builtins of funcs.c
 */
#ifndef RL_NUMFORMAT_H
#define RL_NUMFORMAT_H

#include "executor/executor.h"

Value		f_to_char_int(ExecState *es, const Value *args, int nargs);
Value		f_to_char_numeric(ExecState *es, const Value *args, int nargs);
Value		f_to_char_float(ExecState *es, const Value *args, int nargs);

#endif							/* RL_NUMFORMAT_H */
