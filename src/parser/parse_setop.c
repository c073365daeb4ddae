/*
 * parse_setop.c: PostgreSQL's set operations as SQLite's compound SELECTs
 * (analyze_internal.h). analyze_query gathers a chain of one operation (a left-deep
 * tree, a UNION b UNION c ...) into its arms' SELECTs, each in the result's types;
 * this file joins them within SQLite's limits -- at most SQLITE_COMPOUND_TERMS terms
 * in one compound, a parser stack of 100 entries -- and with the operations SQLite
 * lacks, INTERSECT ALL and EXCEPT ALL, made of those it has.
 */

#include "parser/analyze_internal.h"

/* SQLite's set operations, by PgQuery__SetOperation */
static const char *const set_ops[] = {"", "", " UNION ", " INTERSECT ", " EXCEPT "};

/*
 * A chain of one set operation, its terms (each arm's SELECT in the result's types)
 * joined by op, in SQLite's compound SELECT of at most SQLITE_COMPOUND_TERMS terms.
 * A longer chain is a tree of compounds whose terms are `SELECT * FROM (compound)`
 * of up to SQLITE_COMPOUND_TERMS^k arms each, so the text nests log500(n) levels of
 * SQLite's parser stack, not n/500: (a UNION b) UNION (c UNION d) is a UNION b UNION
 * c UNION d, and so for UNION ALL and INTERSECT; a chain of EXCEPT takes away the
 * UNION of all but its first arm.
 */
static void
append_compound(RlBuf *out, char **terms, int n, const char *op, bool except)
{
	int			size = SQLITE_COMPOUND_TERMS;

	if (n <= SQLITE_COMPOUND_TERMS)
	{
		for (int i = 0; i < n; i++)
			rlbuf_printf(out, "%s%s", i ? op : "", terms[i]);
		return;
	}
	if (except)
	{
		rlbuf_printf(out, "%s%sSELECT * FROM (", terms[0], op);
		append_compound(out, terms + 1, n - 1, " UNION ", false);
		rlbuf_append_str(out, ")");
		return;
	}
	while (n / size > SQLITE_COMPOUND_TERMS)
		size *= SQLITE_COMPOUND_TERMS;
	for (int i = 0; i < n; i += size)
	{
		rlbuf_printf(out, "%sSELECT * FROM (", i ? op : "");
		append_compound(out, terms + i, n - i < size ? n - i : size, op, false);
		rlbuf_append_str(out, ")");
	}
}

/*
 * append_set_operation -- a chain of op's n terms (of ncolumns "_rl_c<n>" each) as one
 * query: `SELECT * FROM (compound)`, or, for a recursive WITH query, which SQLite
 * reads only as one compound of SELECTs naming it, that compound, flat. SQLite has no
 * INTERSECT ALL or EXCEPT ALL: the
 * k-th copy of a row is told apart by k beside it (row_number() among its equals),
 * the rows so numbered are intersected or taken away as sets, and k is left out. A
 * chain of EXCEPT ALL takes away the later arms numbered together (a UNION ALL), so
 * that a copy of a row is kept count(a) - count(b) - count(c) times as in PostgreSQL.
 */
void
append_set_operation(RlBuf *out, char **terms, int n, int ncolumns, PgQuery__SetOperation op, bool all,
					 bool recursive)
{
	RlBuf		compound;
	RlBuf		columns;

	if (recursive)
	{
		for (int i = 0; i < n; i++)
			rlbuf_printf(out, "%s%s%s", i ? set_ops[op] : "", i && all ? "ALL " : "", terms[i]);
		return;
	}
	rlbuf_init_in(&compound, CurrentMemoryContext);
	/*
	 * Of rows equal but not alike (2 and 2.0 under rl_numeric) SQLite's UNION keeps the
	 * last it reads, PostgreSQL the first: the arms go to SQLite in reverse, which
	 * changes nothing else (SQLite returns a UNION's rows in the order of their values)
	 */
	if (!all && op == PG_QUERY__SET_OPERATION__SETOP_UNION)
		for (int i = 0; i < n / 2; i++)
		{
			char	   *swap = terms[i];

			terms[i] = terms[n - 1 - i];
			terms[n - 1 - i] = swap;
		}
	if (!all || op == PG_QUERY__SET_OPERATION__SETOP_UNION)
	{
		append_compound(&compound, terms, n, all ? " UNION ALL " : set_ops[op],
						op == PG_QUERY__SET_OPERATION__SETOP_EXCEPT);
		rlbuf_printf(out, "SELECT * FROM (%s)", rlbuf_cstr(&compound));
		rlbuf_free(&compound);
		return;
	}
	rlbuf_init_in(&columns, CurrentMemoryContext);
	for (int c = 0; c < ncolumns; c++)
		rlbuf_printf(&columns, "%s\"_rl_c%d\"", c ? ", " : "", c + 1);
	if (op == PG_QUERY__SET_OPERATION__SETOP_EXCEPT && n > 2)
	{
		append_compound(&compound, terms + 1, n - 1, " UNION ALL ", false);
		terms[1] = pstrdup(rlbuf_cstr(&compound));
		rlbuf_reset(&compound);
		n = 2;
	}
	for (int i = 0; i < n; i++)
		terms[i] = psprintf("SELECT *, row_number() OVER (%s%s) AS \"_rl_n\" FROM (%s)",
							ncolumns ? "PARTITION BY " : "", rlbuf_cstr(&columns), terms[i]);
	append_compound(&compound, terms, n, set_ops[op], false);
	rlbuf_printf(out, "SELECT %s FROM (%s)", ncolumns ? rlbuf_cstr(&columns) : "NULL", rlbuf_cstr(&compound));
	rlbuf_free(&columns);
	rlbuf_free(&compound);
}
