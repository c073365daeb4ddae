/*
 * check_guc.c: unit tests for the settings (guc.c): defaults and the ParameterStatus
 * set PostgreSQL 15 sends, in its order; SET/RESET with source priorities; units;
 * DateStyle canonicalisation; contexts and their SQLSTATEs; rocklake.conf parsing
 * (quotes, comments, include, errors) and reload semantics.
 */
#include <check.h>

#include "test_util.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"

static void
setup(void)
{
	MemoryContextInit();
	InitializeGUCOptions();
	/* the file errors below are expected: keep them out of the test log */
	ck_assert(set_config_option("log_min_messages", "panic", PGC_S_ARGV, false, NULL, NULL));
}

/* collects ReportGucs output as "name=value;" */
static void
collect(const char *name, const char *value, void *arg)
{
	char	   *out = arg;

	strcat(out, name);
	strcat(out, "=");
	strcat(out, value);
	strcat(out, ";");
}

static void
write_file(const char *path, const char *text)
{
	FILE	   *fp = fopen(path, "w");

	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

START_TEST(test_report_set)
{
	char		out[4096] = "";

	ReportGucs(collect, out);
	ck_assert_str_eq(out,
					 "application_name=;client_encoding=UTF8;DateStyle=ISO, MDY;"
					 "default_transaction_read_only=off;in_hot_standby=off;integer_datetimes=on;"
					 "IntervalStyle=postgres;is_superuser=off;server_encoding=UTF8;"
					 "server_version=" PG_VERSION " (RockLake " PACKAGE_VERSION ");"
					 "session_authorization=;standard_conforming_strings=on;TimeZone=Etc/UTC;");
	/* nothing changed since: nothing to report */
	out[0] = '\0';
	ReportChangedGucs(collect, out);
	ck_assert_str_eq(out, "");
	ck_assert(set_config_option("application_name", "psql", PGC_S_SESSION, false, NULL, NULL));
	ck_assert(set_config_option("datestyle", "German", PGC_S_SESSION, false, NULL, NULL));
	ReportChangedGucs(collect, out);
	ck_assert_str_eq(out, "application_name=psql;DateStyle=German, DMY;");
}
END_TEST

START_TEST(test_defaults)
{
	ck_assert_int_eq(GetConfigInt("port"), 5432);
	ck_assert_int_eq(GetConfigInt("max_connections"), 100);
	ck_assert_int_eq(GetConfigInt("spare_backends"), 4);
	ck_assert(!GetConfigBool("ssl"));
	ck_assert_str_eq(GetConfigOption("listen_addresses"), "localhost");
	ck_assert_str_eq(GetConfigOption("unix_socket_directories"), "/tmp");
	ck_assert_str_eq(GetConfigOption("password_encryption"), "scram-sha-256");
	ck_assert_str_eq(GetConfigOption("log_line_prefix"), "%m [%p] ");
	ck_assert_str_eq(Log_line_prefix, "%m [%p] ");
	ck_assert_str_eq(GetConfigOption("store"), "store");
	ck_assert_str_eq(GetConfigOption("search_path"), "\"$user\", public");
	ck_assert_str_eq(GetConfigOption("server_version_num"), "150020");
	ck_assert_str_eq(GetConfigOption("authentication_timeout"), "1min");
	ck_assert_int_eq(GetConfigInt("authentication_timeout"), 60);
	ck_assert_ptr_null(GetConfigOption("no_such_setting"));
	/* names are case-insensitive */
	ck_assert_str_eq(GetConfigOption("DATESTYLE"), "ISO, MDY");
}
END_TEST

START_TEST(test_set_reset_units)
{
	const char *msg,
			   *state;

	ck_assert(set_config_option("statement_timeout", "5s", PGC_S_SESSION, false, &msg, &state));
	ck_assert_str_eq(GetConfigOption("statement_timeout"), "5s");
	ck_assert_int_eq(GetConfigInt("statement_timeout"), 5000);
	ck_assert(set_config_option("statement_timeout", "90000", PGC_S_SESSION, false, NULL, NULL));
	ck_assert_str_eq(GetConfigOption("statement_timeout"), "90s");
	ck_assert(set_config_option("statement_timeout", "2min", PGC_S_SESSION, false, NULL, NULL));
	ck_assert_str_eq(GetConfigOption("statement_timeout"), "2min");
	ck_assert(set_config_option("work_mem", "64MB", PGC_S_SESSION, false, NULL, NULL));
	ck_assert_int_eq(GetConfigInt("work_mem"), 65536);
	ck_assert_str_eq(GetConfigOption("work_mem"), "64MB");
	ck_assert(!set_config_option("statement_timeout", "5 parsecs", PGC_S_SESSION, false, &msg, &state));
	ck_assert_str_eq(state, "22023");
	ck_assert(!set_config_option("extra_float_digits", "4", PGC_S_SESSION, false, &msg, &state));
	ck_assert_str_eq(state, "22023");
	ck_assert_ptr_nonnull(strstr(msg, "outside the valid range"));
	ck_assert(set_config_option("extra_float_digits", "3", PGC_S_SESSION, false, NULL, NULL));

	/* booleans take PostgreSQL's spellings */
	ck_assert(set_config_option("standard_conforming_strings", "of", PGC_S_SESSION, false, NULL, NULL));
	ck_assert_str_eq(GetConfigOption("standard_conforming_strings"), "off");
	ck_assert(!set_config_option("standard_conforming_strings", "o", PGC_S_SESSION, false, &msg, &state));
	ck_assert(set_config_option("default_transaction_read_only", "TRUE", PGC_S_SESSION, false, NULL, NULL));
	ck_assert_str_eq(GetConfigOption("default_transaction_read_only"), "on");
	ck_assert(!set_config_option("default_transaction_read_only", "maybe", PGC_S_SESSION, false, &msg, &state));
	ck_assert_str_eq(msg, "parameter \"default_transaction_read_only\" requires a Boolean value");

	/* enums are canonical and case-insensitive */
	ck_assert(set_config_option("default_transaction_isolation", "REPEATABLE READ", PGC_S_SESSION, false, NULL, NULL));
	ck_assert_str_eq(GetConfigOption("default_transaction_isolation"), "repeatable read");

	/* RESET goes back to the startup packet's value, not the default */
	ck_assert(set_config_option("application_name", "from_startup", PGC_S_CLIENT, false, NULL, NULL));
	ck_assert(set_config_option("application_name", "from_set", PGC_S_SESSION, false, NULL, NULL));
	ck_assert(ResetConfigOption("application_name"));
	ck_assert_str_eq(GetConfigOption("application_name"), "from_startup");
	ResetAllSessionOptions();
	ck_assert_str_eq(GetConfigOption("statement_timeout"), "0");
	ck_assert_str_eq(GetConfigOption("default_transaction_read_only"), "off");
	ck_assert(!ResetConfigOption("no_such_setting"));
}
END_TEST

START_TEST(test_contexts)
{
	const char *msg,
			   *state;

	ck_assert(!set_config_option("foo", "bar", PGC_S_CLIENT, false, &msg, &state));
	ck_assert_str_eq(state, "42704");
	ck_assert_str_eq(msg, "unrecognized configuration parameter \"foo\"");
	ck_assert(!set_config_option("port", "5433", PGC_S_SESSION, false, &msg, &state));
	ck_assert_str_eq(state, "55P02");
	ck_assert_str_eq(msg, "parameter \"port\" cannot be changed without restarting the server");
	ck_assert(!set_config_option("log_connections", "on", PGC_S_SESSION, false, &msg, &state));
	ck_assert_str_eq(msg, "parameter \"log_connections\" cannot be changed now");
	ck_assert(!set_config_option("server_version", "16.0", PGC_S_SESSION, false, &msg, &state));
	ck_assert_str_eq(msg, "parameter \"server_version\" cannot be changed");
	/* the server itself sets the internal ones */
	ck_assert(set_config_option("is_superuser", "on", PGC_S_OVERRIDE, false, NULL, NULL));
	ck_assert_str_eq(GetConfigOption("is_superuser"), "on");
	/* -c beats the file */
	ck_assert(set_config_option("port", "6000", PGC_S_ARGV, false, NULL, NULL));
	ck_assert(set_config_option("port", "7000", PGC_S_FILE, false, NULL, NULL));
	ck_assert_int_eq(GetConfigInt("port"), 6000);
}
END_TEST

START_TEST(test_datestyle_and_encoding)
{
	const char *msg,
			   *state;

	ck_assert(set_config_option("DateStyle", "sql", PGC_S_SESSION, false, NULL, NULL));
	ck_assert_str_eq(GetConfigOption("DateStyle"), "SQL, MDY");
	ck_assert(set_config_option("DateStyle", "ISO, DMY", PGC_S_SESSION, false, NULL, NULL));
	ck_assert_str_eq(GetConfigOption("DateStyle"), "ISO, DMY");
	ck_assert(set_config_option("DateStyle", "postgres", PGC_S_SESSION, false, NULL, NULL));
	ck_assert_str_eq(GetConfigOption("DateStyle"), "Postgres, DMY");
	ck_assert(set_config_option("DateStyle", "US", PGC_S_SESSION, false, NULL, NULL));
	ck_assert_str_eq(GetConfigOption("DateStyle"), "Postgres, MDY");
	ck_assert(!set_config_option("DateStyle", "ISO, SQL", PGC_S_SESSION, false, &msg, &state));
	ck_assert(!set_config_option("DateStyle", "Klingon", PGC_S_SESSION, false, &msg, &state));
	ck_assert_str_eq(state, "22023");

	ck_assert(set_config_option("client_encoding", "utf-8", PGC_S_CLIENT, false, NULL, NULL));
	ck_assert_str_eq(GetConfigOption("client_encoding"), "UTF8");
	ck_assert(!set_config_option("client_encoding", "LATIN1", PGC_S_SESSION, false, &msg, &state));
	ck_assert(set_config_option("TimeZone", "UTC", PGC_S_SESSION, false, NULL, NULL));
	ck_assert(!set_config_option("TimeZone", "../../etc/passwd", PGC_S_SESSION, false, NULL, NULL));
	ck_assert(!set_config_option("TimeZone", "Mars/Olympus_Mons", PGC_S_SESSION, false, NULL, NULL));
}
END_TEST

START_TEST(test_config_file)
{
	char	   *dir = test_mkdtemp();
	char		conf[512],
				inc[512];

	snprintf(conf, sizeof(conf), "%s/rocklake.conf", dir);
	snprintf(inc, sizeof(inc), "%s/extra.conf", dir);
	write_file(inc, "spare_backends 7\n");
	write_file(conf,
			   "# a comment\n"
			   "\n"
			   "  port = 6543   # trailing comment\n"
			   "listen_addresses = '127.0.0.1, ::1'\n"
			   "log_line_prefix = '%m [%p] it''s '\n"
			   "statement_timeout = 10s\n"
			   "log_connections = on\n"
			   "include 'extra.conf'\n"
			   "include_if_exists 'missing.conf'\n");
	ck_assert(ProcessConfigFile(conf, false));
	ck_assert_int_eq(GetConfigInt("port"), 6543);
	ck_assert_str_eq(GetConfigOption("listen_addresses"), "127.0.0.1, ::1");
	ck_assert_str_eq(Log_line_prefix, "%m [%p] it's ");
	ck_assert_int_eq(GetConfigInt("statement_timeout"), 10000);
	ck_assert(GetConfigBool("log_connections"));
	ck_assert_int_eq(GetConfigInt("spare_backends"), 7);

	/* reload: SIGHUP settings change, postmaster ones do not, removed ones revert */
	write_file(conf, "port = 7777\nspare_backends = 2\n");
	ck_assert(ProcessConfigFile(conf, true));
	ck_assert_int_eq(GetConfigInt("port"), 6543);
	ck_assert_int_eq(GetConfigInt("spare_backends"), 2);
	ck_assert(!GetConfigBool("log_connections"));
	ck_assert_int_eq(GetConfigInt("statement_timeout"), 0);

	/* a file with any error applies nothing on reload */
	write_file(conf, "spare_backends = 9\nno_such_thing = 1\n");
	ck_assert(!ProcessConfigFile(conf, true));
	ck_assert_int_eq(GetConfigInt("spare_backends"), 2);
	write_file(conf, "spare_backends = 'unterminated\n");
	ck_assert(!ProcessConfigFile(conf, true));
	write_file(conf, "max_connections = lots\n");
	ck_assert(!ProcessConfigFile(conf, false));
	unlink(conf);
	ck_assert(!ProcessConfigFile(conf, false));
	unlink(inc);
	test_rmdir(dir);
}
END_TEST

/* every setting can be shown, and the table is in name order */
static void
check_order(const GucInfo *info, void *arg)
{
	char	   *prev = arg;

	ck_assert_int_lt(strcasecmp(prev, info->name), 0);
	ck_assert_ptr_nonnull(info->setting);
	ck_assert_ptr_nonnull(info->short_desc);
	snprintf(prev, 64, "%s", info->name);
}

START_TEST(test_describe)
{
	char		prev[64] = "";

	DescribeConfigOptions(check_order, prev);
	ck_assert_str_eq(prev, "xmloption");
}
END_TEST

int
main(void)
{
	Suite	   *s = suite_create("guc");
	TCase	   *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_report_set);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_set_reset_units);
	tcase_add_test(tc, test_contexts);
	tcase_add_test(tc, test_datestyle_and_encoding);
	tcase_add_test(tc, test_config_file);
	tcase_add_test(tc, test_describe);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
