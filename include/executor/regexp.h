/*
 * regexp.h: PostgreSQL's regular expressions over glibc's POSIX ones (executor/regexp.c):
 * the ~ family of operators (execute.c) and the regexp_* builtins of funcs.c.
 */
#ifndef RL_REGEXP_H
#define RL_REGEXP_H

#include <stdbool.h>

#include "executor/executor.h"

bool		rl_regex_match(const char *s, const char *pattern, bool ci);
Value		f_regexp_replace(ExecState *es, const Value *args, int nargs);
Value		f_regexp_replace_nth(ExecState *es, const Value *args, int nargs);
Value		f_regexp_match(ExecState *es, const Value *args, int nargs);
Value		f_regexp_matches(ExecState *es, const Value *args, int nargs);
Value		f_regexp_split_to_array(ExecState *es, const Value *args, int nargs);
Value		f_substring_regex(ExecState *es, const Value *args, int nargs);
Value		f_similar_to_escape(ExecState *es, const Value *args, int nargs);

#endif							/* RL_REGEXP_H */
