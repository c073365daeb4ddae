/*
 * pg_cast.c: the casts between the types RockLake has, as PostgreSQL's pg_cast lists them.
 *
 * psql's \dC and tools that ask which casts exist read pg_cast. Its rows are PostgreSQL
 * 15's own, taken from its catalog: each cast whose source and target are both types
 * of RockLake's pg_type (PostgreSQL has 229 casts; the others involve types RockLake
 * does not have, such as money, bit or cidr). A cast by a function names it by OID
 * (castfunc), and pg_proc lists those functions (pg_proc.c), so \dC shows their names
 * as PostgreSQL does. The table describes PostgreSQL's casts; it does not drive the
 * analyser's, whose rules are its own (parse_expr.c). castcontext is i (implicit), a
 * (in assignment) or e (explicit only), castmethod f (a function), b (binary
 * coercible) or i (through the types' text forms).
 */
#include <stddef.h>

#include "catalog/pg_cast.h"
#include "common/rl_buffer.h"
#include "utils/mcxt.h"

typedef struct BuiltinCast
{
	Oid			oid;
	Oid			source;
	Oid			target;
	Oid			func;			/* 0 if none */
	char		context;
	char		method;
} BuiltinCast;

static const BuiltinCast casts[] = {
	{10000, 20, 21, 714, 'a', 'f'}, {10001, 20, 23, 480, 'a', 'f'}, {10002, 20, 700, 652, 'i', 'f'}, {10003, 20, 701, 482, 'i', 'f'},
	{10004, 20, 1700, 1781, 'i', 'f'}, {10005, 21, 20, 754, 'i', 'f'}, {10006, 21, 23, 313, 'i', 'f'}, {10007, 21, 700, 236, 'i', 'f'},
	{10008, 21, 701, 235, 'i', 'f'}, {10009, 21, 1700, 1782, 'i', 'f'}, {10010, 23, 20, 481, 'i', 'f'}, {10011, 23, 21, 314, 'a', 'f'},
	{10012, 23, 700, 318, 'i', 'f'}, {10013, 23, 701, 316, 'i', 'f'}, {10014, 23, 1700, 1740, 'i', 'f'}, {10015, 700, 20, 653, 'a', 'f'},
	{10016, 700, 21, 238, 'a', 'f'}, {10017, 700, 23, 319, 'a', 'f'}, {10018, 700, 701, 311, 'i', 'f'}, {10019, 700, 1700, 1742, 'a', 'f'},
	{10020, 701, 20, 483, 'a', 'f'}, {10021, 701, 21, 237, 'a', 'f'}, {10022, 701, 23, 317, 'a', 'f'}, {10023, 701, 700, 312, 'a', 'f'},
	{10024, 701, 1700, 1743, 'a', 'f'}, {10025, 1700, 20, 1779, 'a', 'f'}, {10026, 1700, 21, 1783, 'a', 'f'}, {10027, 1700, 23, 1744, 'a', 'f'},
	{10028, 1700, 700, 1745, 'i', 'f'}, {10029, 1700, 701, 1746, 'i', 'f'}, {10034, 23, 16, 2557, 'e', 'f'}, {10035, 16, 23, 2558, 'e', 'f'},
	{10037, 20, 26, 1287, 'i', 'f'}, {10038, 21, 26, 313, 'i', 'f'}, {10039, 23, 26, 0, 'i', 'b'}, {10040, 26, 20, 1288, 'a', 'f'},
	{10041, 26, 23, 0, 'a', 'b'}, {10042, 26, 24, 0, 'i', 'b'}, {10043, 24, 26, 0, 'i', 'b'}, {10044, 20, 24, 1287, 'i', 'f'},
	{10045, 21, 24, 313, 'i', 'f'}, {10046, 23, 24, 0, 'i', 'b'}, {10047, 24, 20, 1288, 'a', 'f'}, {10048, 24, 23, 0, 'a', 'b'},
	{10049, 24, 2202, 0, 'i', 'b'}, {10050, 2202, 24, 0, 'i', 'b'}, {10051, 26, 2202, 0, 'i', 'b'}, {10052, 2202, 26, 0, 'i', 'b'},
	{10053, 20, 2202, 1287, 'i', 'f'}, {10054, 21, 2202, 313, 'i', 'f'}, {10055, 23, 2202, 0, 'i', 'b'}, {10056, 2202, 20, 1288, 'a', 'f'},
	{10057, 2202, 23, 0, 'a', 'b'}, {10074, 26, 2205, 0, 'i', 'b'}, {10075, 2205, 26, 0, 'i', 'b'}, {10076, 20, 2205, 1287, 'i', 'f'},
	{10077, 21, 2205, 313, 'i', 'f'}, {10078, 23, 2205, 0, 'i', 'b'}, {10079, 2205, 20, 1288, 'a', 'f'}, {10080, 2205, 23, 0, 'a', 'b'},
	{10088, 26, 2206, 0, 'i', 'b'}, {10089, 2206, 26, 0, 'i', 'b'}, {10090, 20, 2206, 1287, 'i', 'f'}, {10091, 21, 2206, 313, 'i', 'f'},
	{10092, 23, 2206, 0, 'i', 'b'}, {10093, 2206, 20, 1288, 'a', 'f'}, {10094, 2206, 23, 0, 'a', 'b'}, {10109, 25, 2205, 1079, 'i', 'f'},
	{10110, 1043, 2205, 1079, 'i', 'f'}, {10118, 26, 4089, 0, 'i', 'b'}, {10119, 4089, 26, 0, 'i', 'b'}, {10120, 20, 4089, 1287, 'i', 'f'},
	{10121, 21, 4089, 313, 'i', 'f'}, {10122, 23, 4089, 0, 'i', 'b'}, {10123, 4089, 20, 1288, 'a', 'f'}, {10124, 4089, 23, 0, 'a', 'b'},
	{10125, 25, 1042, 0, 'i', 'b'}, {10126, 25, 1043, 0, 'i', 'b'}, {10127, 1042, 25, 401, 'i', 'f'}, {10128, 1042, 1043, 401, 'i', 'f'},
	{10129, 1043, 25, 0, 'i', 'b'}, {10130, 1043, 1042, 0, 'i', 'b'}, {10134, 19, 25, 406, 'i', 'f'}, {10135, 19, 1042, 408, 'a', 'f'},
	{10136, 19, 1043, 1401, 'a', 'f'}, {10140, 25, 19, 407, 'i', 'f'}, {10141, 1042, 19, 409, 'i', 'f'}, {10142, 1043, 19, 1400, 'i', 'f'},
	{10145, 194, 25, 0, 'i', 'b'}, {10152, 1082, 1114, 2024, 'i', 'f'}, {10153, 1082, 1184, 1174, 'i', 'f'}, {10154, 1083, 1186, 1370, 'i', 'f'},
	{10155, 1083, 1266, 2047, 'i', 'f'}, {10156, 1114, 1082, 2029, 'a', 'f'}, {10157, 1114, 1083, 1316, 'a', 'f'}, {10158, 1114, 1184, 2028, 'i', 'f'},
	{10159, 1184, 1082, 1178, 'a', 'f'}, {10160, 1184, 1083, 2019, 'a', 'f'}, {10161, 1184, 1114, 2027, 'a', 'f'}, {10162, 1184, 1266, 1388, 'a', 'f'},
	{10163, 1186, 1083, 1419, 'a', 'f'}, {10164, 1266, 1083, 2046, 'a', 'f'}, {10190, 869, 25, 730, 'a', 'f'}, {10191, 16, 25, 2971, 'a', 'f'}, {10195, 869, 1043, 730, 'a', 'f'}, {10196, 16, 1043, 2971, 'a', 'f'},
	{10200, 869, 1042, 730, 'a', 'f'}, {10201, 16, 1042, 2971, 'a', 'f'}, {10204, 1042, 1042, 668, 'i', 'f'}, {10205, 1043, 1043, 669, 'i', 'f'}, {10206, 1083, 1083, 1968, 'i', 'f'},
	{10207, 1114, 1114, 1961, 'i', 'f'}, {10208, 1184, 1184, 1967, 'i', 'f'}, {10209, 1186, 1186, 1200, 'i', 'f'}, {10210, 1266, 1266, 1969, 'i', 'f'},
	{10213, 1700, 1700, 1703, 'i', 'f'}, {10214, 114, 3802, 0, 'a', 'i'}, {10215, 3802, 114, 0, 'a', 'i'}, {10216, 3802, 16, 3556, 'e', 'f'},
	{10217, 3802, 1700, 3449, 'e', 'f'}, {10218, 3802, 21, 3450, 'e', 'f'}, {10219, 3802, 23, 3451, 'e', 'f'}, {10220, 3802, 20, 3452, 'e', 'f'},
	{10221, 3802, 700, 3453, 'e', 'f'}, {10222, 3802, 701, 2580, 'e', 'f'},
};

/* BuiltinCastSql -- pg_cast as a SQLite query (once per backend) */
char *
BuiltinCastSql(void)
{
	static char *sql;

	if (sql == NULL)
	{
		RlBuf		b;

		rlbuf_init_in(&b, CurrentMemoryContext);
		rlbuf_append_str(&b, "SELECT column1 AS oid, column2 AS castsource, column3 AS casttarget, column4 AS castfunc,"
						 " column5 AS castcontext, column6 AS castmethod FROM (VALUES ");
		for (size_t i = 0; i < sizeof(casts) / sizeof(casts[0]); i++)
			rlbuf_printf(&b, "%s(%u, %u, %u, %u, '%c', '%c')", i ? ", " : "", casts[i].oid, casts[i].source,
						 casts[i].target, casts[i].func, casts[i].context, casts[i].method);
		rlbuf_append_str(&b, ")");
		sql = MemoryContextStrdup(TopMemoryContext, rlbuf_cstr(&b));
		rlbuf_free(&b);
	}
	return sql;
}
