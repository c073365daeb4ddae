/*
 * check_server_core.c: unit tests for the server's memory contexts (reset and delete
 * free whole trees; chunks carved from blocks keep their contents, freed chunks are
 * reused by size, large chunks go back at once, and under AddressSanitizer what was
 * not asked for or was freed is poisoned) and for ereport:
 * levels routed to the client sink and to the server log, ERROR jumping to the
 * recovery point with the report intact, log_line_prefix escapes.
 */
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#include "test_util.h"
#include "utils/elog.h"
#include "utils/mcxt.h"

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

	/* a large chunk is given back at once */
	size_t		before = MemoryContextMemAllocated(child, 0);
	char	   *big = palloc(100000);

	ck_assert_uint_eq(MemoryContextMemAllocated(child, 0), before + 100000);
	big = repalloc(big, 200000);
	big[199999] = 1;
	ck_assert_uint_eq(MemoryContextMemAllocated(child, 0), before + 200000);
	pfree(big);
	ck_assert_uint_eq(MemoryContextMemAllocated(child, 0), before);

	/* a freed chunk is what the next request of its size gets */
	pfree(v);
	ck_assert_ptr_eq(palloc(3900), v);
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

/* Many chunks of every size across many blocks keep their own bytes. */
START_TEST(test_context_blocks)
{
	MemoryContextInit();
	MemoryContext context = AllocSetContextCreate(TopMemoryContext, "blocks");
	enum
	{
		N = 3000
	};
	unsigned char *chunks[N];
	size_t		sizes[N];

	for (int round = 0; round < 3; round++)
	{
		for (int i = 0; i < N; i++)
		{
			sizes[i] = (size_t) ((i * 7919) % 20000) + 1;
			chunks[i] = MemoryContextAlloc(context, sizes[i]);
			memset(chunks[i], i & 0xff, sizes[i]);
			if (i % 3 == 0)
			{
				sizes[i] = sizes[i] / 2 + 1;
				chunks[i] = repalloc(chunks[i], sizes[i]);
			}
			else if (i % 5 == 0)
			{
				pfree(chunks[i]);
				chunks[i] = NULL;
			}
		}
		for (int i = 0; i < N; i++)
		{
			size_t		same = 0;

			while (chunks[i] && same < sizes[i] && chunks[i][same] == (i & 0xff))
				same++;
			ck_assert_uint_eq(same, chunks[i] ? sizes[i] : 0);
		}
		MemoryContextReset(context);
		/* a reset keeps one block, no more than the largest */
		ck_assert_uint_le(MemoryContextMemAllocated(context, 0), 64 * 1024);
	}
#if defined(__SANITIZE_ADDRESS__)
	char	   *p = MemoryContextAlloc(context, 20);

	ck_assert(!__asan_address_is_poisoned(p + 19));
	ck_assert(__asan_address_is_poisoned(p + 20));	/* the rest of its 32 bytes */
	p = repalloc(p, 30);
	ck_assert(!__asan_address_is_poisoned(p + 29));
	pfree(p);
	ck_assert(__asan_address_is_poisoned(p));
	MemoryContextAlloc(context, 8);
	MemoryContextReset(context);
	ck_assert(__asan_address_is_poisoned(p));
#endif
	MemoryContextDelete(context);
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
	tcase_add_test(tc, test_context_blocks);
	tcase_add_test(tc, test_ereport_levels_and_recovery);
	tcase_add_exit_test(tc, test_fatal_exits, 1);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
