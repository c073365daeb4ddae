/*
 * test_util.h: helpers shared by the check unit tests: scratch directories that are
 * removed afterwards, a fixture with memory contexts for code that pallocs, and a
 * runner that executes a suite and turns failures into the exit status automake's
 * test driver reads.
 */
#ifndef RL_TEST_UTIL_H
#define RL_TEST_UTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "utils/mcxt.h"

/* A fresh empty directory under $TMPDIR; free with test_rmdir(). */
static inline char *
test_mkdtemp(void)
{
	const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	size_t		len = strlen(base) + 32;
	char	   *path = malloc(len);

	if (path == NULL)
		abort();
	snprintf(path, len, "%s/rocklake-test-XXXXXX", base);
	if (mkdtemp(path) == NULL)
	{
		perror("mkdtemp");
		abort();
	}
	return path;
}

static inline void
test_rmdir(char *path)
{
	size_t		len = strlen(path) + 16;
	char	   *cmd = malloc(len);

	if (cmd == NULL)
		abort();
	snprintf(cmd, len, "rm -rf '%s'", path);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", path);
	free(cmd);
	free(path);
}

/* A checked fixture for tests that palloc: memory contexts made, MessageContext current. */
static inline void
test_contexts_setup(void)
{
	MemoryContextInit();
	MemoryContextSwitchTo(MessageContext);
}

static inline void
test_contexts_teardown(void)
{
	MemoryContextReset(MessageContext);
}

static inline int
test_run_suite(Suite *s)
{
	SRunner    *sr = srunner_create(s);

	srunner_run_all(sr, CK_NORMAL);
	int			failed = srunner_ntests_failed(sr);

	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
