/*
 * numformat.h: to_char and to_number of numbers as PostgreSQL 15 has them (executor/numformat.c),
 * builtins of funcs.c
 */
#ifndef RL_NUMFORMAT_H
#define RL_NUMFORMAT_H

#include "executor/executor.h"

Value		f_to_char_int(ExecState *es, const Value *args, int nargs);
Value		f_to_char_numeric(ExecState *es, const Value *args, int nargs);
Value		f_to_char_float(ExecState *es, const Value *args, int nargs);
Value		f_to_number(ExecState *es, const Value *args, int nargs);

#endif							/* RL_NUMFORMAT_H */
