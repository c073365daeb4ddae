/*
 * check_extended.c: the extended query protocol through libpq, as drivers use it:
 * unnamed and named statements, Describe of a statement, parameters and results
 * in text and binary, duplicate and unknown statement names, the empty query,
 * pipeline mode with an error in the middle (everything up to Sync is skipped),
 * COPY TO STDOUT in text, CSV and binary, and COPY FROM STDIN in text and binary
 * with the client ending it with CopyFail. Connects with the PG* environment
 * (test/scripts/extended.sh starts the server); exit status 0 means all passed.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

static int	failures;

#define CHECK(cond, ...) \
	do { \
		if (!(cond)) \
		{ \
			fprintf(stderr, "FAIL line %d: %s: ", __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__); \
			fprintf(stderr, "\n"); \
			failures++; \
		} \
	} while (0)

static const char *
sqlstate(const PGresult *res)
{
	const char *s = PQresultErrorField(res, PG_DIAG_SQLSTATE);

	return s ? s : "";
}

static void
test_unnamed_and_named(PGconn *conn)
{
	const char *params[1] = {"7"};
	PGresult   *res = PQexecParams(conn, "select $1::int * 6", 1, NULL, params, NULL, NULL, 0);

	CHECK(PQresultStatus(res) == PGRES_TUPLES_OK, "%s", PQresultErrorMessage(res));
	CHECK(PQftype(res, 0) == 23 && strcmp(PQgetvalue(res, 0, 0), "42") == 0, "got %s", PQgetvalue(res, 0, 0));
	PQclear(res);

	res = PQprepare(conn, "st1", "select $1::text || 'x'", 0, NULL);
	CHECK(PQresultStatus(res) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(res));
	PQclear(res);
	res = PQdescribePrepared(conn, "st1");
	CHECK(PQnparams(res) == 1 && PQparamtype(res, 0) == 25, "nparams %d", PQnparams(res));
	CHECK(PQnfields(res) == 1 && PQftype(res, 0) == 25, "nfields %d", PQnfields(res));
	PQclear(res);
	res = PQexecPrepared(conn, "st1", 1, params, NULL, NULL, 1);
	CHECK(PQresultStatus(res) == PGRES_TUPLES_OK && PQfformat(res, 0) == 1 &&
		  PQgetlength(res, 0, 0) == 2 && memcmp(PQgetvalue(res, 0, 0), "7x", 2) == 0,
		  "%s", PQresultErrorMessage(res));
	PQclear(res);

	res = PQprepare(conn, "st1", "select 1", 0, NULL);
	CHECK(strcmp(sqlstate(res), "42P05") == 0, "duplicate: %s", PQresultErrorMessage(res));
	PQclear(res);
	res = PQdescribePrepared(conn, "nope");
	CHECK(strcmp(sqlstate(res), "26000") == 0, "unknown: %s", PQresultErrorMessage(res));
	PQclear(res);
	res = PQdescribePortal(conn, "nope");
	CHECK(strcmp(sqlstate(res), "34000") == 0, "unknown portal: %s", PQresultErrorMessage(res));
	PQclear(res);
	res = PQexec(conn, "DEALLOCATE st1");
	CHECK(PQresultStatus(res) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(res));
	PQclear(res);
	res = PQprepare(conn, "st1", "select 1", 0, NULL);
	CHECK(PQresultStatus(res) == PGRES_COMMAND_OK, "re-prepare: %s", PQresultErrorMessage(res));
	PQclear(res);

	res = PQexecParams(conn, "", 0, NULL, NULL, NULL, NULL, 0);
	CHECK(PQresultStatus(res) == PGRES_EMPTY_QUERY, "empty: %s", PQresStatus(PQresultStatus(res)));
	PQclear(res);
	res = PQprepare(conn, "", "select 1; select 2", 0, NULL);
	CHECK(strcmp(sqlstate(res), "42601") == 0, "multiple: %s", PQresultErrorMessage(res));
	PQclear(res);
}

static void
test_binary(PGconn *conn)
{
	uint32_t	i4 = htonl(41);
	uint32_t	i8[2] = {htonl(1), htonl(0)};	/* 2^32, big-endian */
	const char *values[4] = {(const char *) &i4, (const char *) i8, "hello", NULL};
	int			lengths[4] = {4, 8, 5, 0};
	int			formats[4] = {1, 1, 0, 0};
	Oid			types[4] = {23, 20, 0, 25};
	PGresult   *res = PQexecParams(conn,
								   "select $1 + 1, $2, $3 || '!', $4 is null, 1.50::numeric, "
								   "'2000-01-02'::date, 2.5::float8, true",
								   4, types, values, lengths, formats, 1);

	CHECK(PQresultStatus(res) == PGRES_TUPLES_OK, "%s", PQresultErrorMessage(res));
	if (PQresultStatus(res) == PGRES_TUPLES_OK)
	{
		static const unsigned char num[] = {0, 2, 0, 0, 0, 0, 0, 2, 0, 1, 0x13, 0x88};
		static const unsigned char f8[] = {0x40, 0x04, 0, 0, 0, 0, 0, 0};

		CHECK(ntohl(*(uint32_t *) PQgetvalue(res, 0, 0)) == 42, "int4");
		CHECK(PQgetlength(res, 0, 1) == 8 && memcmp(PQgetvalue(res, 0, 1), i8, 8) == 0, "int8");
		CHECK(PQgetlength(res, 0, 2) == 6 && memcmp(PQgetvalue(res, 0, 2), "hello!", 6) == 0, "text");
		CHECK(PQgetlength(res, 0, 3) == 1 && PQgetvalue(res, 0, 3)[0] == 1, "bool");
		CHECK(PQgetlength(res, 0, 4) == 12 && memcmp(PQgetvalue(res, 0, 4), num, 12) == 0, "numeric");
		CHECK(ntohl(*(uint32_t *) PQgetvalue(res, 0, 5)) == 1, "date");
		CHECK(memcmp(PQgetvalue(res, 0, 6), f8, 8) == 0, "float8");
		CHECK(PQftype(res, 4) == 1700 && PQftype(res, 5) == 1082 && PQftype(res, 6) == 701, "types");
	}
	PQclear(res);

	/* a binary value of the wrong width is 22P03 */
	lengths[0] = 2;
	res = PQexecParams(conn, "select $1", 1, types, values, lengths, formats, 0);
	CHECK(strcmp(sqlstate(res), "22P03") == 0, "bad binary: %s", PQresultErrorMessage(res));
	PQclear(res);
}

static void
test_pipeline(PGconn *conn)
{
	static const char *const queries[] = {"select 1", "select 1/0", "select 3"};
	PGresult   *res;

	CHECK(PQenterPipelineMode(conn) == 1, "pipeline");
	for (int i = 0; i < 3; i++)
		CHECK(PQsendQueryParams(conn, queries[i], 0, NULL, NULL, NULL, NULL, 0) == 1, "send");
	CHECK(PQpipelineSync(conn) == 1, "sync");
	res = PQgetResult(conn);
	CHECK(PQresultStatus(res) == PGRES_TUPLES_OK, "first: %s", PQresStatus(PQresultStatus(res)));
	PQclear(res);
	PQclear(PQgetResult(conn));
	res = PQgetResult(conn);
	CHECK(strcmp(sqlstate(res), "22012") == 0, "second: %s", PQresultErrorMessage(res));
	PQclear(res);
	PQclear(PQgetResult(conn));
	res = PQgetResult(conn);
	CHECK(PQresultStatus(res) == PGRES_PIPELINE_ABORTED, "third: %s", PQresStatus(PQresultStatus(res)));
	PQclear(res);
	PQclear(PQgetResult(conn));
	res = PQgetResult(conn);
	CHECK(PQresultStatus(res) == PGRES_PIPELINE_SYNC, "sync: %s", PQresStatus(PQresultStatus(res)));
	PQclear(res);
	CHECK(PQexitPipelineMode(conn) == 1, "exit pipeline");
	CHECK(PQtransactionStatus(conn) == PQTRANS_IDLE, "idle after sync");
}

/* copy_out -- run a COPY TO STDOUT and return everything it sent */
static char *
copy_out(PGconn *conn, const char *sql, int *total)
{
	PGresult   *res = PQexec(conn, sql);
	static char out[4096];
	char	   *buf;
	int			n;

	*total = 0;
	CHECK(PQresultStatus(res) == PGRES_COPY_OUT, "%s: %s", sql, PQresultErrorMessage(res));
	PQclear(res);
	while ((n = PQgetCopyData(conn, &buf, 0)) > 0)
	{
		if (*total + n < (int) sizeof(out))
			memcpy(out + *total, buf, (size_t) n);
		*total += n;
		PQfreemem(buf);
	}
	res = PQgetResult(conn);
	CHECK(PQresultStatus(res) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(res));
	CHECK(strncmp(PQcmdStatus(res), "COPY ", 5) == 0, "tag %s", PQcmdStatus(res));
	PQclear(res);
	PQclear(PQgetResult(conn));
	out[*total < (int) sizeof(out) ? *total : 0] = '\0';
	return out;
}

static void
test_copy(PGconn *conn)
{
	int			len;
	char	   *out = copy_out(conn, "copy (select generate_series(1,3), 'a\tb') to stdout", &len);

	CHECK(strcmp(out, "1\ta\\tb\n2\ta\\tb\n3\ta\\tb\n") == 0, "text: %s", out);
	out = copy_out(conn, "copy (select 1 as id, 'x\"y' as s) to stdout with (format csv, header true)", &len);
	CHECK(strcmp(out, "id,s\n1,\"x\"\"y\"\n") == 0, "csv: %s", out);
	out = copy_out(conn, "copy (select 1::int4, null::text) to stdout (format \"binary\")", &len);
	static const unsigned char binary[] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\2\0\0\0\4\0\0\0\1\377\377\377\377\377\377";

	CHECK(len == (int) sizeof(binary) - 1 && memcmp(out, binary, (size_t) len) == 0, "binary: %d bytes", len);

	PGresult   *res = PQexec(conn, "copy no_such_table from stdin");

	CHECK(strcmp(sqlstate(res), "42P01") == 0, "copy from: %s", PQresultErrorMessage(res));
	PQclear(res);
	res = PQexec(conn, "copy (select 1) to '/tmp/x'");
	CHECK(strcmp(sqlstate(res), "0A000") == 0, "copy to file: %s", PQresultErrorMessage(res));
	PQclear(res);
}

/* copy_in -- COPY FROM STDIN with data, ended by CopyDone (fail NULL) or CopyFail */
static PGresult *
copy_in(PGconn *conn, const char *sql, const void *data, int len, const char *fail)
{
	PGresult   *res = PQexec(conn, sql);

	CHECK(PQresultStatus(res) == PGRES_COPY_IN, "%s: %s", sql, PQresultErrorMessage(res));
	PQclear(res);
	CHECK(PQputCopyData(conn, data, len) == 1, "put: %s", PQerrorMessage(conn));
	CHECK(PQputCopyEnd(conn, fail) == 1, "end: %s", PQerrorMessage(conn));
	res = PQgetResult(conn);
	PQclear(PQgetResult(conn));
	return res;
}

static void
test_copy_in(PGconn *conn)
{
	/* header, one row (int4 7, text "seven"), trailer */
	static const unsigned char binary[] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\2\0\0\0\4\0\0\0\7"
		"\0\0\0\5seven\377\377";
	PGresult   *res = PQexec(conn, "create table copied (id int4, name text)");

	CHECK(PQresultStatus(res) == PGRES_COMMAND_OK, "create: %s", PQresultErrorMessage(res));
	PQclear(res);
	res = copy_in(conn, "copy copied from stdin", "1\tone\n2\t\\N\n", 11, NULL);
	CHECK(PQresultStatus(res) == PGRES_COMMAND_OK && strcmp(PQcmdStatus(res), "COPY 2") == 0,
		  "text in: %s %s", PQcmdStatus(res), PQresultErrorMessage(res));
	PQclear(res);
	res = copy_in(conn, "copy copied (id, name) from stdin (format binary)", binary, (int) sizeof(binary) - 1, NULL);
	CHECK(PQresultStatus(res) == PGRES_COMMAND_OK && strcmp(PQcmdStatus(res), "COPY 1") == 0,
		  "binary in: %s %s", PQcmdStatus(res), PQresultErrorMessage(res));
	PQclear(res);
	/* CopyFail: the statement fails with the client's reason and inserts nothing */
	res = copy_in(conn, "copy copied from stdin", "3\tthree\n", 8, "client gave up");
	CHECK(strcmp(sqlstate(res), "57014") == 0 && strstr(PQresultErrorMessage(res), "client gave up") != NULL,
		  "copy fail: %s %s", sqlstate(res), PQresultErrorMessage(res));
	PQclear(res);
	res = PQexec(conn, "select count(*), count(name), sum(id) from copied");
	CHECK(PQresultStatus(res) == PGRES_TUPLES_OK && strcmp(PQgetvalue(res, 0, 0), "3") == 0 &&
		  strcmp(PQgetvalue(res, 0, 1), "2") == 0 && strcmp(PQgetvalue(res, 0, 2), "10") == 0,
		  "copied rows: %s", PQresultErrorMessage(res));
	PQclear(res);
	PQclear(PQexec(conn, "drop table copied"));
}

int
main(void)
{
	PGconn	   *conn = PQconnectdb("");

	if (PQstatus(conn) != CONNECTION_OK)
	{
		fprintf(stderr, "FAIL: connection: %s", PQerrorMessage(conn));
		return 1;
	}
	CHECK(PQserverVersion(conn) >= 150000 && PQserverVersion(conn) < 160000, "server version %d",
		  PQserverVersion(conn));
	test_unnamed_and_named(conn);
	test_binary(conn);
	test_pipeline(conn);
	test_copy(conn);
	test_copy_in(conn);
	PQfinish(conn);
	if (failures)
		return 1;
	printf("PASS: check_extended\n");
	return 0;
}
