/*
 * pg_proc.h: the builtin functions as pg_proc lists them (pg_proc.c).
 */
#ifndef RL_PG_PROC_H
#define RL_PG_PROC_H

#include <stdbool.h>

#include "utils/adt/typio.h"

/*
 * A builtin function as pg_proc lists it (pg_proc.c): PostgreSQL 15's OID, texts and
 * properties of the function of that signature.
 */
typedef struct BuiltinProc
{
	Oid			oid;
	const char *name;
	const char *regproc;		/* its regproc text: qualified if PostgreSQL has more of the name */
	const char *regprocedure;	/* its regprocedure text: name(type,type) */
	const char *arguments;		/* pg_get_function_arguments */
	const char *result;			/* pg_get_function_result */
	Oid			rettype;
	const char *argtypes;		/* proargtypes' text: "23 23" */
	bool		retset;
	char		volatility;		/* provolatile: i, s, v */
	char		parallel;		/* proparallel: s, r, u */
	bool		strict;
	Oid			lang;			/* 12 internal, 14 sql */
	const char *src;			/* prosrc */
	const char *description;	/* "" if none */
	const char *functiondef;	/* pg_get_functiondef */
} BuiltinProc;
int			BuiltinProcCount(void);
const BuiltinProc *BuiltinProcAt(int i);
const BuiltinProc *BuiltinProcByOid(Oid oid);
/* pg_proc as a SQLite query; and the functions' descriptions alone (oid, description) */
char	   *BuiltinProcSql(void);
char	   *BuiltinProcDescriptionSql(void);

#endif
