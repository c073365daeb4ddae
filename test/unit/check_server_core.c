/*
 * check_server_core.c: unit tests for the server's memory contexts (reset and delete
 * free whole trees; repalloc and pfree keep the accounting right) and for ereport:
 * levels routed to the client sink and to the server log, ERROR jumping to the
 * recovery point with the report intact, log_line_prefix escapes.
 */
#include <unistd.h>

#include "elog.h"
#include "mcxt.h"
#include "test_util.h"

START_TEST(test_contexts)
{
	MemoryContextInit();
	MemoryContext parent = AllocSetContextCreate(TopMemoryContext, "parent");
	MemoryContext child = AllocSetContextCreate(parent, "child");
	MemoryContext old = MemoryContextSwitchTo(child);
	char	   *s = pstrdup("hello");

	ck_assert_str_eq(s, "hello");
	ck_assert_str_eq(psprintf("%s-%d-%s", "a", 42, "long enough to pass the small buffer of pvsprintf, really"),
					 "a-42-long enough to pass the small buffer of pvsprintf, really");
	int		   *v = palloc0(10 * sizeof(int));

	v = repalloc(v, 1000 * sizeof(int));
	v[999] = 7;
	ck_assert_int_eq(v[0], 0);
	ck_assert_uint_ge(MemoryContextMemAllocated(parent, 1), 4000);
	ck_assert_uint_eq(MemoryContextMemAllocated(parent, 0), 0);
	pfree(v);
	ck_assert_uint_lt(MemoryContextMemAllocated(child, 0), 4000);
	MemoryContextReset(parent);		/* deletes the child, which was current */
	ck_assert_ptr_eq(CurrentMemoryContext, parent);
	ck_assert_uint_eq(MemoryContextMemAllocated(parent, 1), 0);
	ck_assert_str_eq(pnstrdup("abcdef", 3), "abc");
	child = AllocSetContextCreate(parent, "child");
	MemoryContextSwitchTo(old);
	MemoryContextDelete(parent);	/* and its children with it */
	ck_assert_ptr_eq(CurrentMemoryContext, old);
}
END_TEST

static int	sink_calls;
static char sink_last[256];

static void
test_sink(const ErrorData *e)
{
	sink_calls++;
	snprintf(sink_last, sizeof(sink_last), "%s %s %s", error_severity(e->elevel), e->sqlstate, e->message);
}

START_TEST(test_ereport_levels_and_recovery)
{
	sigjmp_buf	recover;
	char		path[] = "/tmp/rocklake-elog-XXXXXX";
	int			fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	elog_set_log_file(path);
	Log_line_prefix = "[%p] %e %u@%d %% ";
	MyLogIdentity.user_name = "alice";
	MyLogIdentity.database_name = "lake";
	elog_set_client_sink(test_sink);
	client_min_messages = NOTICE;
	log_min_messages = WARNING;

	sink_calls = 0;
	ereport(DEBUG1, errmsg("not shown anywhere"));
	ereport(NOTICE, errmsg("a notice %d", 1));
	ck_assert_int_eq(sink_calls, 1);
	ck_assert_str_eq(sink_last, "NOTICE 00000 a notice 1");
	ereport(LOG, errmsg("server only"));
	ck_assert_int_eq(sink_calls, 1);

	volatile int reached = 0;

	PG_exception_stack = &recover;
	if (sigsetjmp(recover, 1) == 0)
	{
		debug_query_string = "select boom";
		ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("relation \"%s\" does not exist", "t"), errhint("Create it first."), errposition(8));
		reached = 1;
	}
	ck_assert_int_eq(reached, 0);
	ErrorData  *e = CopyErrorData();

	ck_assert_str_eq(e->sqlstate, "42P01");
	ck_assert_str_eq(e->message, "relation \"t\" does not exist");
	ck_assert_int_eq(e->cursorpos, 8);
	ck_assert_str_eq(sink_last, "ERROR 42P01 relation \"t\" does not exist");
	FlushErrorState();
	ck_assert_ptr_null(CopyErrorData());
	PG_exception_stack = NULL;
	debug_query_string = NULL;
	elog_set_client_sink(NULL);
	elog_set_log_file(NULL);

	FILE	   *f = fopen(path, "r");
	char		log[2048] = {0};

	ck_assert_uint_gt(fread(log, 1, sizeof(log) - 1, f), 0);
	fclose(f);
	unlink(path);
	char		expect[128];

	snprintf(expect, sizeof(expect), "[%d] 00000 alice@lake %% LOG:  server only\n", (int) getpid());
	ck_assert_msg(strstr(log, expect) != NULL, "log was:\n%s", log);
	ck_assert_ptr_nonnull(strstr(log, "42P01 alice@lake % ERROR:  relation \"t\" does not exist\n"));
	ck_assert_ptr_nonnull(strstr(log, "HINT:  Create it first.\n"));
	ck_assert_ptr_nonnull(strstr(log, "STATEMENT:  select boom\n"));
	ck_assert_ptr_null(strstr(log, "a notice"));	/* below log_min_messages */
	ck_assert_ptr_null(strstr(log, "not shown"));
}
END_TEST

START_TEST(test_fatal_exits)
{
	ereport(FATAL, errcode(ERRCODE_ADMIN_SHUTDOWN), errmsg("terminating connection due to administrator command"));
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("server-core");
	TCase	   *tc = tcase_create("core");

	tcase_add_test(tc, test_contexts);
	tcase_add_test(tc, test_ereport_levels_and_recovery);
	tcase_add_exit_test(tc, test_fatal_exits, 1);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
