/*-------------------------------------------------------------------------
 *
 * guc.c
 *	  The settings of the server: one table, a parser for rocklake.conf, and
 *	  SET / SHOW / RESET semantics, after PostgreSQL's guc.c.
 *
 * Every setting has a type (bool, integer with an optional unit, string, enum),
 * a built-in default, a context saying when it may change and a source saying
 * where its value came from. A value from a lower-priority source never replaces
 * one from a higher-priority source, which is what makes "-c port=5433" survive a
 * reload of a rocklake.conf that says "port = 5432". The value RESET returns to is
 * kept separately from the current one, so SET in a session is undone by RESET
 * without re-reading anything. Inside a transaction (AtStart_GUC .. AtEOXact_GUC)
 * SET, SET LOCAL and RESET remember the value they replace, so that an abort
 * undoes them and a commit ends SET LOCAL, as in PostgreSQL; savepoints do not
 * nest these (a ROLLBACK TO keeps the settings changed after the savepoint).
 *
 * Values are kept with malloc, not palloc: they live as long as the process and
 * must survive every memory-context reset (PostgreSQL's guc_malloc does the same).
 * Each value is held canonically as text (what SHOW prints and ParameterStatus
 * sends) and, for bools, integers and enums, as a number; settings the logger or
 * the postmaster read on every use are also mirrored into C variables.
 *
 * The file is a little over 1 500 lines because of the settings table, every
 * setting a PostgreSQL client can SHOW, which is kept in one list in name order.
 *
 * IDENTIFICATION
 *	  src/utils/guc.c
 *
 *-------------------------------------------------------------------------
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "utils/adt/timezone.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"

/* unit flags of integer settings: the base unit the number is kept in */
#define GUC_UNIT_MS		0x10
#define GUC_UNIT_S		0x20
#define GUC_UNIT_KB		0x40
#define GUC_UNIT_MASK	(GUC_UNIT_MS | GUC_UNIT_S | GUC_UNIT_KB)
#define GUC_NO_RESET_ALL	0x02	/* RESET ALL leaves it alone (role, session_authorization) */

#define CppAsString(x)	#x
#define CppAsString2(x) CppAsString(x)

typedef enum GucType
{
	GUC_BOOL,
	GUC_INT,
	GUC_STRING,
	GUC_ENUM
} GucType;

/*
 * What the current transaction did to a setting, as in PostgreSQL's GucStack:
 * at commit SET keeps its value, SET LOCAL reverts to the value before the
 * transaction, SET then SET LOCAL reverts to the SET's value; an abort reverts
 * everything.
 */
typedef enum GucXactState
{
	GUC_XACT_NONE,				/* untouched in this transaction */
	GUC_XACT_SET,
	GUC_XACT_LOCAL,
	GUC_XACT_SET_LOCAL
} GucXactState;

/* Canonicalises a string value in place (a malloc'd copy); false: invalid. */
typedef bool (*GucCheckHook) (char **newval);

typedef struct ConfigOption
{
	/* the table */
	const char *name;
	GucContext	context;
	GucType		vartype;
	int			flags;
	const char *short_desc;
	const char *boot_val;
	int			min;			/* GUC_INT */
	int			max;
	const char *const *enumvals;	/* GUC_ENUM: NULL-terminated, canonical spelling */
	GucCheckHook check_hook;	/* GUC_STRING */
	void	   *variable;		/* optional mirror: bool *, int *, char ** */
	GucSetHook	set_hook;		/* SetConfigHooks */
	GucAssignHook assign_hook;

	/* the state */
	char	   *value;			/* canonical text of the current value */
	int			ival;			/* bool/int/enum index of the current value */
	GucSource	source;
	char	   *reset_value;	/* what RESET goes back to */
	GucSource	reset_source;
	char	   *reported;		/* last value sent as ParameterStatus */
	bool		in_file;		/* seen by the config file pass under way */

	/* changes in the current transaction (PostgreSQL's GucStack, one level) */
	GucXactState xact_state;
	char	   *prior_value;	/* the value before the transaction's first change */
	GucSource	prior_source;
	char	   *masked_value;	/* GUC_XACT_SET_LOCAL: the SET value SET LOCAL hides */
	GucSource	masked_source;
} ConfigOption;

char	   *DataDir = NULL;
char	   *ConfigFileName = NULL;
int			log_min_duration_statement = -1;
int			log_statement = 0;
char	   *application_name = "";
bool		log_slow_plans = false;
int			StatementTimeout = 0;
int			StoreCheckTimeout = 30;
bool		DefaultXactReadOnly = false;
bool		XactReadOnly = false;

/* between AtStart_GUC and AtEOXact_GUC: SET and RESET remember what they change */
static bool GucInTransaction;

/* C mirrors of settings the server reads often */
static int	log_min_messages_index;
static int	client_min_messages_index;

static bool check_application_name(char **newval);
static bool check_datestyle(char **newval);
static bool check_client_encoding(char **newval);
static bool check_timezone(char **newval);
static bool check_table_access_method(char **newval);
static bool check_default_tablespace(char **newval);

static const char *const bool_words[] = {"off", "on", NULL};
static const char *const message_levels[] = {
	"debug5", "debug4", "debug3", "debug2", "debug1", "info", "notice", "warning",
	"error", "log", "fatal", "panic", NULL
};
static const char *const client_message_levels[] = {
	"debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning",
	"error", NULL
};
static const char *const isolation_levels[] = {
	"serializable", "repeatable read", "read committed", "read uncommitted", NULL
};
static const char *const password_encryptions[] = {"md5", "scram-sha-256", NULL};
static const char *const interval_styles[] = {
	"postgres", "postgres_verbose", "sql_standard", "iso_8601", NULL
};
static const char *const bytea_outputs[] = {"escape", "hex", NULL};
static const char *const log_statements[] = {"none", "ddl", "mod", "all", NULL};
static const char *const replication_roles[] = {"origin", "replica", "local", NULL};
static const char *const xml_options[] = {"content", "document", NULL};
static const char *const backslash_quotes[] = {"safe_encoding", "on", "off", NULL};
static const char *const sync_commits[] = {"local", "remote_write", "remote_apply", "on", "off", NULL};

#define BOOL(n, ctx, fl, desc, boot, var) \
	{.name = n, .context = ctx, .vartype = GUC_BOOL, .flags = fl, .short_desc = desc, \
	 .boot_val = boot, .max = 1, .enumvals = bool_words, .variable = var}
#define INT(n, ctx, fl, desc, boot, lo, hi, var) \
	{.name = n, .context = ctx, .vartype = GUC_INT, .flags = fl, .short_desc = desc, \
	 .boot_val = boot, .min = lo, .max = hi, .variable = var}
#define STRING(n, ctx, fl, desc, boot, hook, var) \
	{.name = n, .context = ctx, .vartype = GUC_STRING, .flags = fl, .short_desc = desc, \
	 .boot_val = boot, .check_hook = hook, .variable = var}
#define ENUM(n, ctx, fl, desc, boot, vals, var) \
	{.name = n, .context = ctx, .vartype = GUC_ENUM, .flags = fl, .short_desc = desc, \
	 .boot_val = boot, .enumvals = vals, .variable = var}

/*
 * The settings, in name order (case-insensitive): DescribeConfigOptions and SHOW
 * ALL list them in this order. doc/configuration.md describes each one.
 */
static ConfigOption ConfigOptions[] = {
	STRING("application_name", PGC_USERSET, GUC_REPORT,
		   "Sets the application name to be reported in statistics and logs.", "", check_application_name,
		   &application_name),
	INT("authentication_timeout", PGC_SIGHUP, GUC_UNIT_S,
		"Sets the maximum allowed time to complete client authentication.", "60", 1, 600, NULL),
	ENUM("backslash_quote", PGC_USERSET, 0,
		 "Sets whether \"\\'\" is allowed in string literals.", "safe_encoding", backslash_quotes, NULL),
	ENUM("bytea_output", PGC_USERSET, 0,
		 "Sets the output format for bytea.", "hex", bytea_outputs, NULL),
	BOOL("check_function_bodies", PGC_USERSET, 0,
		 "Check routine bodies during CREATE FUNCTION and CREATE PROCEDURE.", "on", NULL),
	STRING("client_encoding", PGC_USERSET, GUC_REPORT,
		   "Sets the client's character set encoding.", "UTF8", check_client_encoding, NULL),
	ENUM("client_min_messages", PGC_USERSET, 0,
		 "Sets the message levels that are sent to the client.", "notice", client_message_levels,
		 &client_min_messages_index),
	STRING("config_file", PGC_POSTMASTER, 0,
		   "Sets the server's main configuration file.", "", NULL, NULL),
	STRING("data_directory", PGC_POSTMASTER, 0,
		   "Sets the server's data directory.", "", NULL, NULL),
	STRING("DateStyle", PGC_USERSET, GUC_REPORT,
		   "Sets the display format for date and time values.", "ISO, MDY", check_datestyle, NULL),
	INT("debug_startup_delay", PGC_POSTMASTER, GUC_UNIT_MS,
		"Testing only: the writer waits this long before reporting ready.", "0", 0, 3600000, NULL),
	INT("debug_visible_delay", PGC_POSTMASTER, GUC_UNIT_MS,
		"Testing only: the writer waits this long between acknowledging commits and making them visible.",
		"0", 0, 3600000, NULL),
	STRING("default_table_access_method", PGC_USERSET, 0,
		   "Sets the default table access method for new tables.", "heap", check_table_access_method, NULL),
	STRING("default_tablespace", PGC_USERSET, 0,
		   "Sets the default tablespace to create tables and indexes in.", "", check_default_tablespace, NULL),
	BOOL("default_transaction_deferrable", PGC_USERSET, 0,
		 "Sets the default deferrable status of new transactions.", "off", NULL),
	ENUM("default_transaction_isolation", PGC_USERSET, 0,
		 "Sets the transaction isolation level of each new transaction.", "read committed",
		 isolation_levels, NULL),
	BOOL("default_transaction_read_only", PGC_USERSET, GUC_REPORT,
		 "Sets the default read-only status of new transactions.", "off", &DefaultXactReadOnly),
	BOOL("escape_string_warning", PGC_USERSET, 0,
		 "Warn about backslash escapes in ordinary string literals.", "on", NULL),
	INT("extra_float_digits", PGC_USERSET, 0,
		"Sets the number of digits displayed for floating-point values.", "1", -15, 3, NULL),
	STRING("hba_file", PGC_POSTMASTER, 0,
		   "Sets the server's \"hba\" configuration file.", "", NULL, NULL),
	INT("idle_in_transaction_session_timeout", PGC_USERSET, GUC_UNIT_MS,
		"Sets the maximum allowed idle time between queries, when in a transaction.", "0",
		0, INT_MAX, NULL),
	INT("idle_session_timeout", PGC_USERSET, GUC_UNIT_MS,
		"Sets the maximum allowed idle time between queries, when not in a transaction.", "0",
		0, INT_MAX, NULL),
	BOOL("in_hot_standby", PGC_INTERNAL, GUC_REPORT,
		 "Shows whether hot standby is currently active.", "off", NULL),
	BOOL("integer_datetimes", PGC_INTERNAL, GUC_REPORT,
		 "Shows whether datetimes are integer based.", "on", NULL),
	ENUM("IntervalStyle", PGC_USERSET, GUC_REPORT,
		 "Sets the display format for interval values.", "postgres", interval_styles, NULL),
	BOOL("is_superuser", PGC_INTERNAL, GUC_REPORT,
		 "Shows whether the current user is a superuser.", "off", NULL),
	STRING("lc_messages", PGC_SUSET, 0, "Sets the language in which messages are displayed.",
		   "C", NULL, NULL),
	STRING("lc_monetary", PGC_USERSET, 0, "Sets the locale for formatting monetary amounts.",
		   "C", NULL, NULL),
	STRING("lc_numeric", PGC_USERSET, 0, "Sets the locale for formatting numbers.", "C", NULL, NULL),
	STRING("lc_time", PGC_USERSET, 0, "Sets the locale for formatting date and time values.",
		   "C", NULL, NULL),
	STRING("listen_addresses", PGC_POSTMASTER, 0,
		   "Sets the host name or IP address(es) to listen to.", "localhost", NULL, NULL),
	INT("lock_timeout", PGC_USERSET, GUC_UNIT_MS,
		"Sets the maximum allowed duration of any wait for a lock.", "0", 0, INT_MAX, NULL),
	BOOL("log_connections", PGC_SIGHUP, 0, "Logs each successful connection.", "off", NULL),
	BOOL("log_disconnections", PGC_SIGHUP, 0, "Logs end of a session, including duration.",
		 "off", NULL),
	STRING("log_file", PGC_SIGHUP, 0,
		   "Appends the server log to this file; empty: standard error.", "", NULL, NULL),
	STRING("log_line_prefix", PGC_SIGHUP, 0,
		   "Controls information prefixed to each log line.", "%m [%p] ", NULL, &Log_line_prefix),
	INT("log_min_duration_statement", PGC_SUSET, GUC_UNIT_MS,
		"Sets the minimum execution time above which statements will be logged.", "-1",
		-1, INT_MAX, &log_min_duration_statement),
	ENUM("log_min_messages", PGC_SIGHUP, 0,
		 "Sets the message levels that are logged.", "warning", message_levels,
		 &log_min_messages_index),
	ENUM("log_statement", PGC_SUSET, 0, "Sets the type of statements logged.", "none",
		 log_statements, &log_statement),
	INT("maintenance_work_mem", PGC_USERSET, GUC_UNIT_KB,
		"Sets the maximum memory to be used for maintenance operations.", "65536", 1024, INT_MAX, NULL),
	INT("max_connections", PGC_POSTMASTER, 0,
		"Sets the maximum number of concurrent connections.", "100", 1, 10000, NULL),
	INT("max_identifier_length", PGC_INTERNAL, 0,
		"Shows the maximum identifier length.", "63", 63, 63, NULL),
	STRING("metrics_listen_address", PGC_POSTMASTER, 0,
		   "Sets the host:port of the Prometheus metrics endpoint; empty: none.", "", NULL, NULL),
	ENUM("password_encryption", PGC_USERSET, 0,
		 "Chooses the algorithm for encrypting passwords.", "scram-sha-256", password_encryptions, NULL),
	INT("port", PGC_POSTMASTER, 0, "Sets the TCP port the server listens on.", "5432",
		1, 65535, NULL),
	BOOL("quote_all_identifiers", PGC_USERSET, 0,
		 "When generating SQL fragments, quote all identifiers.", "off", NULL),
	BOOL("restart_after_crash", PGC_SIGHUP, 0,
		 "Reinitialize server after backend crash.", "on", NULL),
	BOOL("rocklake.log_slow_plans", PGC_USERSET, 0,
		 "Logs the plan of each statement log_min_duration_statement logs.", "off", &log_slow_plans),
	STRING("role", PGC_USERSET, GUC_NO_RESET_ALL, "Sets the current role.", "none", NULL, NULL),
	BOOL("row_security", PGC_USERSET, 0, "Enable row security.", "on", NULL),
	STRING("search_path", PGC_USERSET, 0,
		   "Sets the schema search order for names that are not schema-qualified.",
		   "\"$user\", public", NULL, NULL),
	STRING("server_encoding", PGC_INTERNAL, GUC_REPORT,
		   "Shows the server (database) character set encoding.", "UTF8", NULL, NULL),
	STRING("server_version", PGC_INTERNAL, GUC_REPORT, "Shows the server version.",
		   PG_VERSION " (RockLake " PACKAGE_VERSION ")", NULL, NULL),
	INT("server_version_num", PGC_INTERNAL, 0, "Shows the server version as an integer.",
		CppAsString2(PG_VERSION_NUM), PG_VERSION_NUM, PG_VERSION_NUM, NULL),
	STRING("session_authorization", PGC_USERSET, GUC_REPORT | GUC_NO_RESET_ALL,
		   "Sets the session user name.", "", NULL, NULL),
	ENUM("session_replication_role", PGC_SUSET, 0,
		 "Sets the session's behavior for triggers and rewrite rules.", "origin",
		 replication_roles, NULL),
	INT("spare_backends", PGC_SIGHUP, 0,
		"Sets the number of idle pre-forked backends kept ready for new connections.", "4",
		0, 1000, NULL),
	BOOL("ssl", PGC_SIGHUP, 0, "Enables SSL connections.", "off", NULL),
	STRING("ssl_cert_file", PGC_SIGHUP, 0, "Location of the SSL server certificate file.",
		   "server.crt", NULL, NULL),
	STRING("ssl_key_file", PGC_SIGHUP, 0, "Location of the SSL server private key file.",
		   "server.key", NULL, NULL),
	BOOL("standard_conforming_strings", PGC_USERSET, GUC_REPORT,
		 "Causes '...' strings to treat backslashes literally.", "on", NULL),
	INT("standby_poll_interval", PGC_POSTMASTER, GUC_UNIT_MS,
		"Sets how often a standby looks for new commits in the store.", "100", 10, 3600000, NULL),
	INT("standby_poll_max_interval", PGC_POSTMASTER, GUC_UNIT_MS,
		"Sets the longest interval a standby's polls grow to while no commit comes.", "1000", 10, 3600000,
		NULL),
	INT("statement_timeout", PGC_USERSET, GUC_UNIT_MS,
		"Sets the maximum allowed duration of any statement.", "0", 0, INT_MAX, &StatementTimeout),
	STRING("store", PGC_POSTMASTER, 0,
		   "Sets the catalog's object store: a directory (relative to the data directory) or s3://bucket/prefix.",
		   "store", NULL, NULL),
	INT("store_check_timeout", PGC_POSTMASTER, GUC_UNIT_S,
		"Sets how long reads are served without the writer having confirmed that it still owns the store.",
		"30", 0, 3600, &StoreCheckTimeout),
	INT("store_gc_grace", PGC_POSTMASTER, GUC_UNIT_S,
		"Sets how long garbage collection keeps what no manifest needs any more: old manifests, SSTs and WAL objects that standbys and tools may still be reading.",
		"3600", 1, 604800, NULL),
	INT("superuser_reserved_connections", PGC_POSTMASTER, 0,
		"Sets the number of connection slots reserved for superusers.", "3", 0, 10000, NULL),
	BOOL("synchronize_seqscans", PGC_USERSET, 0,
		 "Enable synchronized sequential scans.", "on", NULL),
	ENUM("synchronous_commit", PGC_USERSET, 0,
		 "Sets the current transaction's synchronization level.", "on", sync_commits, NULL),
	INT("tcp_keepalives_count", PGC_USERSET, 0,
		"Maximum number of TCP keepalive retransmits.", "0", 0, INT_MAX, NULL),
	INT("tcp_keepalives_idle", PGC_USERSET, GUC_UNIT_S,
		"Time between issuing TCP keepalives.", "0", 0, INT_MAX, NULL),
	INT("tcp_keepalives_interval", PGC_USERSET, GUC_UNIT_S,
		"Time between TCP keepalive retransmits.", "0", 0, INT_MAX, NULL),
	STRING("TimeZone", PGC_USERSET, GUC_REPORT,
		   "Sets the time zone for displaying and interpreting time stamps.", "Etc/UTC",
		   check_timezone, &session_timezone),
	BOOL("transaction_deferrable", PGC_USERSET, 0,
		 "Whether to defer a read-only serializable transaction until it can be executed with no possible serialization failures.",
		 "off", NULL),
	ENUM("transaction_isolation", PGC_USERSET, 0,
		 "Sets the current transaction's isolation level.", "read committed", isolation_levels, NULL),
	BOOL("transaction_read_only", PGC_USERSET, 0,
		 "Sets the current transaction's read-only status.", "off", &XactReadOnly),
	STRING("unix_socket_directories", PGC_POSTMASTER, 0,
		   "Sets the directories where Unix-domain sockets will be created.", "/tmp", NULL, NULL),
	INT("unix_socket_permissions", PGC_POSTMASTER, 0,
		"Sets the access permissions of the Unix-domain socket.", "511", 0, 0777, NULL),
	BOOL("update_process_title", PGC_USERSET, 0,
		 "Updates the process title to show the active SQL command.", "on", NULL),
	INT("work_mem", PGC_USERSET, GUC_UNIT_KB,
		"Sets the maximum memory to be used for query workspaces.", "4096", 64, INT_MAX, NULL),
	ENUM("xmloption", PGC_USERSET, 0,
		 "Sets whether XML data in implicit parsing and serialization operations is to be considered as documents or content fragments.",
		 "content", xml_options, NULL),
};

#define NUM_CONFIG_OPTIONS ((int) (sizeof(ConfigOptions) / sizeof(ConfigOptions[0])))

/* error text handed back by set_config_option */
static char guc_errbuf[512];

/* the elog levels, in message_levels' order */
static const int message_level_codes[] = {
	DEBUG5, DEBUG5 + 1, DEBUG5 + 2, DEBUG5 + 3, DEBUG1, INFO, NOTICE, WARNING,
	ERROR, LOG, FATAL, PANIC
};
static const int client_message_level_codes[] = {
	DEBUG5, DEBUG5 + 1, DEBUG5 + 2, DEBUG5 + 3, DEBUG1, LOG, NOTICE, WARNING, ERROR
};

/*
 * guc_strdup -- strdup that treats running out of memory as fatal
 */
static char *
guc_strdup(const char *s)
{
	char	   *copy = strdup(s);

	if (copy == NULL)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	return copy;
}

/*
 * replace_string -- free *slot and put a copy of s there
 */
static void
replace_string(char **slot, const char *s)
{
	char	   *copy = guc_strdup(s);

	free(*slot);
	*slot = copy;
}

/*
 * find_option -- the table entry for a name, case-insensitively; NULL if none
 */
static ConfigOption *
find_option(const char *name)
{
	for (int i = 0; i < NUM_CONFIG_OPTIONS; i++)
		if (strcasecmp(ConfigOptions[i].name, name) == 0)
			return &ConfigOptions[i];
	return NULL;
}

/*
 * guc_error -- record an error for set_config_option's caller; returns false
 */
static bool __attribute__((format(printf, 4, 5)))
guc_error(const char **errmsg_out, const char **sqlstate_out, const char *sqlstate,
		  const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(guc_errbuf, sizeof(guc_errbuf), fmt, ap);
	va_end(ap);
	if (errmsg_out)
		*errmsg_out = guc_errbuf;
	if (sqlstate_out)
		*sqlstate_out = sqlstate;
	return false;
}

/*
 * parse_bool -- PostgreSQL's boolean spellings: on/off, true/false, yes/no, 1/0
 * and unique prefixes of these
 */
static bool
parse_bool(const char *value, int *result)
{
	static const struct
	{
		const char *word;
		size_t		min_prefix;
		int			value;
	}			words[] = {
		{"true", 1, 1}, {"false", 1, 0}, {"yes", 1, 1}, {"no", 1, 0},
		{"on", 2, 1}, {"off", 2, 0}, {"1", 1, 1}, {"0", 1, 0}
	};
	size_t		len = strlen(value);

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (len >= words[i].min_prefix && len <= strlen(words[i].word) &&
			strncasecmp(value, words[i].word, len) == 0)
		{
			*result = words[i].value;
			return true;
		}
	return false;
}

/* a unit a value may be written in, and its size in the base unit's terms */
typedef struct UnitConversion
{
	const char *unit;
	int			base_unit;		/* GUC_UNIT_MS, GUC_UNIT_S or GUC_UNIT_KB */
	double		multiplier;		/* how many base units one of this unit is */
} UnitConversion;

/* largest first: format_int_with_unit picks the first that divides exactly */
static const UnitConversion unit_conversions[] = {
	{"TB", GUC_UNIT_KB, 1024.0 * 1024.0 * 1024.0},
	{"GB", GUC_UNIT_KB, 1024.0 * 1024.0},
	{"MB", GUC_UNIT_KB, 1024.0},
	{"kB", GUC_UNIT_KB, 1.0},
	{"d", GUC_UNIT_MS, 1000.0 * 60 * 60 * 24},
	{"h", GUC_UNIT_MS, 1000.0 * 60 * 60},
	{"min", GUC_UNIT_MS, 1000.0 * 60},
	{"s", GUC_UNIT_MS, 1000.0},
	{"ms", GUC_UNIT_MS, 1.0},
	{"us", GUC_UNIT_MS, 1.0 / 1000},
	{"d", GUC_UNIT_S, 60.0 * 60 * 24},
	{"h", GUC_UNIT_S, 60.0 * 60},
	{"min", GUC_UNIT_S, 60.0},
	{"s", GUC_UNIT_S, 1.0},
	{"ms", GUC_UNIT_S, 1.0 / 1000},
	{"us", GUC_UNIT_S, 1.0 / 1000000},
};

/*
 * parse_int -- an integer, optionally followed by a unit the setting accepts
 * ("5s", "1min", "4MB"); a bare number is in the base unit. Fractions are allowed
 * with a unit and rounded, as PostgreSQL does.
 */
static bool
parse_int(const char *value, int flags, int *result)
{
	char	   *end;
	double		val;

	errno = 0;
	val = strtod(value, &end);
	if (end == value || errno == ERANGE)
		return false;
	while (isspace((unsigned char) *end))
		end++;
	if (*end != '\0')
	{
		bool		found = false;
		size_t		ulen = strcspn(end, " \t");

		for (size_t i = 0; i < sizeof(unit_conversions) / sizeof(unit_conversions[0]); i++)
			if ((flags & GUC_UNIT_MASK) == unit_conversions[i].base_unit &&
				strlen(unit_conversions[i].unit) == ulen &&
				strncmp(end, unit_conversions[i].unit, ulen) == 0)
			{
				val *= unit_conversions[i].multiplier;
				found = true;
				break;
			}
		if (!found)
			return false;
		end += ulen;
		while (isspace((unsigned char) *end))
			end++;
		if (*end != '\0')
			return false;
	}
	else if (val != (double) (long long) val && (flags & GUC_UNIT_MASK) == 0)
		return false;			/* "1.5" for a plain integer */
	val = val < 0 ? val - 0.5 : val + 0.5;
	if (val > INT_MAX || val < INT_MIN)
		return false;
	*result = (int) val;
	return true;
}

/*
 * format_int_with_unit -- the way SHOW prints an integer with a unit: in the
 * largest unit that represents it exactly ("5s", "1min", "4MB"), 0 and -1 bare
 */
static void
format_int_with_unit(char *buf, size_t size, int value, int flags)
{
	if ((flags & GUC_UNIT_MASK) == 0)
	{
		snprintf(buf, size, "%d", value);
		return;
	}
	if (value == 0 || value == -1)
	{
		snprintf(buf, size, "%d", value);
		return;
	}
	for (size_t i = 0; i < sizeof(unit_conversions) / sizeof(unit_conversions[0]); i++)
	{
		const UnitConversion *u = &unit_conversions[i];
		long long	m = (long long) u->multiplier;

		if ((flags & GUC_UNIT_MASK) != u->base_unit || u->multiplier < 1.0)
			continue;
		if (value % m == 0)
		{
			snprintf(buf, size, "%lld%s", value / m, u->unit);
			return;
		}
	}
	snprintf(buf, size, "%d", value);
}

/*
 * unit_name -- the base unit of an integer setting, as pg_settings.unit says it
 */
static const char *
unit_name(int flags)
{
	switch (flags & GUC_UNIT_MASK)
	{
		case GUC_UNIT_MS:
			return "ms";
		case GUC_UNIT_S:
			return "s";
		case GUC_UNIT_KB:
			return "kB";
	}
	return NULL;
}

/*
 * check_datestyle -- canonicalise a DateStyle value: an output style (ISO,
 * Postgres, SQL, German) and a field order (DMY, MDY, YMD; also European, US,
 * NonEuropean), each optional, as "Style, ORDER". What is not given is kept
 * from the current value; German alone also means DMY, as in PostgreSQL.
 */
static bool
check_datestyle(char **newval)
{
	const ConfigOption *current = find_option("DateStyle");
	char		style[16] = "ISO";
	char		order[8] = "MDY";
	char		result[32];
	bool		have_style = false,
				have_order = false;
	char	   *copy = guc_strdup(*newval);
	char	   *save = NULL;

	if (current->value != NULL)
		sscanf(current->value, "%15[^,], %7s", style, order);
	for (char *tok = strtok_r(copy, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save))
	{
		static const char *const styles[] = {"ISO", "Postgres", "SQL", "German"};
		bool		matched = false;

		for (size_t i = 0; i < 4; i++)
			if (strcasecmp(tok, styles[i]) == 0)
			{
				if (have_style && strcmp(style, styles[i]) != 0)
					goto conflict;
				snprintf(style, sizeof(style), "%s", styles[i]);
				have_style = matched = true;
				if (i == 3 && !have_order)
					snprintf(order, sizeof(order), "DMY");
			}
		if (!matched)
		{
			const char *o = NULL;

			if (strcasecmp(tok, "DMY") == 0 || strcasecmp(tok, "European") == 0)
				o = "DMY";
			else if (strcasecmp(tok, "MDY") == 0 || strcasecmp(tok, "US") == 0 ||
					 strcasecmp(tok, "NonEuropean") == 0)
				o = "MDY";
			else if (strcasecmp(tok, "YMD") == 0)
				o = "YMD";
			else if (strcasecmp(tok, "DEFAULT") == 0)
				continue;
			else
				goto conflict;
			if (have_order && strcmp(order, o) != 0)
				goto conflict;
			snprintf(order, sizeof(order), "%s", o);
			have_order = true;
		}
	}
	free(copy);
	snprintf(result, sizeof(result), "%s, %s", style, order);
	replace_string(newval, result);
	return true;

conflict:
	free(copy);
	return false;
}

/*
 * check_client_encoding -- we speak UTF-8 only; SQL_ASCII (what psql asks for in
 * the C locale) is a subset we accept as such
 */
static bool
check_client_encoding(char **newval)
{
	/* PostgreSQL matches encoding names ignoring case and punctuation: 'utf-8' is UTF8 */
	char		name[64];
	size_t		n = 0;
	const char *canonical = NULL;

	for (const char *p = *newval; *p && n + 1 < sizeof(name); p++)
		if (isalnum((unsigned char) *p))
			name[n++] = (char) tolower((unsigned char) *p);
	name[n] = '\0';
	if (strcmp(name, "utf8") == 0 || strcmp(name, "unicode") == 0)
		canonical = "UTF8";
	else if (strcmp(name, "sqlascii") == 0)
		canonical = "SQL_ASCII";
	if (canonical == NULL)
		return false;
	replace_string(newval, canonical);
	return true;
}

/*
 * check_application_name -- printable ASCII only, anything else becomes '?' as in
 * PostgreSQL: the name goes back to the client in ParameterStatus and into every log
 * line, and a client may send it in any encoding, even in the startup packet, which
 * is not checked to be UTF-8 (PostgreSQL's is not either)
 */
static bool
check_application_name(char **newval)
{
	for (unsigned char *p = (unsigned char *) *newval; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			*p = '?';
	return true;
}

/*
 * check_timezone -- a zone the system's tz database knows, UTC/GMT, or hours east of
 * UTC, which become the POSIX zone PostgreSQL shows for them
 */
static bool
check_timezone(char **newval)
{
	char		posix[32];

	if (timezone_from_hours(*newval, posix, sizeof(posix)))
	{
		free(*newval);
		*newval = guc_strdup(posix);
	}
	return timezone_is_known(*newval);
}

/*
 * check_table_access_method -- heap is the one table access method there is
 */
static bool
check_table_access_method(char **newval)
{
	return strcmp(*newval, "heap") == 0;
}

/*
 * check_default_tablespace -- empty (the database's) or pg_default, the one
 * tablespace tables can be in
 */
static bool
check_default_tablespace(char **newval)
{
	return (*newval)[0] == '\0' || strcmp(*newval, "pg_default") == 0;
}

/*
 * parse_value -- check a text value for a setting and produce its canonical
 * text (malloc'd) and number. false with the error recorded if invalid.
 */
static bool
parse_value(ConfigOption *opt, const char *value, char **canonical, int *number,
			const char **errmsg_out, const char **sqlstate_out)
{
	char		buf[64];

	switch (opt->vartype)
	{
		case GUC_BOOL:
			if (!parse_bool(value, number))
				return guc_error(errmsg_out, sqlstate_out, ERRCODE_INVALID_PARAMETER_VALUE,
								 "parameter \"%s\" requires a Boolean value", opt->name);
			*canonical = guc_strdup(*number ? "on" : "off");
			return true;
		case GUC_INT:
			if (!parse_int(value, opt->flags, number))
				return guc_error(errmsg_out, sqlstate_out, ERRCODE_INVALID_PARAMETER_VALUE,
								 "invalid value for parameter \"%s\": \"%s\"", opt->name, value);
			if (*number < opt->min || *number > opt->max)
				return guc_error(errmsg_out, sqlstate_out, ERRCODE_INVALID_PARAMETER_VALUE,
								 "%d%s%s is outside the valid range for parameter \"%s\" (%d .. %d)",
								 *number, unit_name(opt->flags) ? " " : "",
								 unit_name(opt->flags) ? unit_name(opt->flags) : "",
								 opt->name, opt->min, opt->max);
			format_int_with_unit(buf, sizeof(buf), *number, opt->flags);
			*canonical = guc_strdup(buf);
			return true;
		case GUC_ENUM:
			for (int i = 0; opt->enumvals[i]; i++)
				if (strcasecmp(value, opt->enumvals[i]) == 0)
				{
					*number = i;
					*canonical = guc_strdup(opt->enumvals[i]);
					return true;
				}
			return guc_error(errmsg_out, sqlstate_out, ERRCODE_INVALID_PARAMETER_VALUE,
							 "invalid value for parameter \"%s\": \"%s\"", opt->name, value);
		case GUC_STRING:
			*canonical = guc_strdup(value);
			*number = 0;
			if (opt->check_hook && !opt->check_hook(canonical))
			{
				free(*canonical);
				return guc_error(errmsg_out, sqlstate_out, ERRCODE_INVALID_PARAMETER_VALUE,
								 "invalid value for parameter \"%s\": \"%s\"", opt->name, value);
			}
			return true;
	}
	return false;
}

/*
 * assign_value -- make a parsed value current and update the C mirrors
 */
static void
assign_value(ConfigOption *opt, char *canonical, int number)
{
	free(opt->value);
	opt->value = canonical;
	opt->ival = number;
	if (opt->assign_hook)
		opt->assign_hook(opt->value);
	if (opt->variable == NULL)
		return;
	if (opt->variable == &log_min_messages_index)
		log_min_messages = message_level_codes[number];
	else if (opt->variable == &client_min_messages_index)
		client_min_messages = client_message_level_codes[number];
	else if (opt->vartype == GUC_STRING)
		*(char **) opt->variable = opt->value;
	else if (opt->vartype == GUC_BOOL)
		*(bool *) opt->variable = number != 0;
	else
		*(int *) opt->variable = number;
}

/*
 * InitializeGUCOptions -- every setting to its built-in default
 */
void
InitializeGUCOptions(void)
{
	for (int i = 0; i < NUM_CONFIG_OPTIONS; i++)
	{
		ConfigOption *opt = &ConfigOptions[i];
		char	   *canonical;
		int			number;
		const char *msg;

		if (!parse_value(opt, opt->boot_val, &canonical, &number, &msg, NULL))
			elog(PANIC, "invalid default for setting \"%s\": %s", opt->name, msg);
		assign_value(opt, canonical, number);
		replace_string(&opt->reset_value, opt->value);
		opt->source = opt->reset_source = PGC_S_DEFAULT;
		free(opt->reported);
		opt->reported = NULL;
	}
}

/*
 * push_old_value -- a session change (SET, SET LOCAL, RESET) inside a
 * transaction: remember what AtEOXact_GUC may have to restore
 * (PostgreSQL's push_old_value)
 */
static void
push_old_value(ConfigOption *opt, bool is_local)
{
	if (!GucInTransaction)
		return;
	switch (opt->xact_state)
	{
		case GUC_XACT_NONE:
			replace_string(&opt->prior_value, opt->value);
			opt->prior_source = opt->source;
			opt->xact_state = is_local ? GUC_XACT_LOCAL : GUC_XACT_SET;
			break;
		case GUC_XACT_SET:
			if (is_local)
			{
				replace_string(&opt->masked_value, opt->value);
				opt->masked_source = opt->source;
				opt->xact_state = GUC_XACT_SET_LOCAL;
			}
			break;
		case GUC_XACT_LOCAL:
		case GUC_XACT_SET_LOCAL:
			if (!is_local)
				opt->xact_state = GUC_XACT_SET; /* a SET overrides SET LOCAL */
			break;
	}
}

/*
 * restore_value -- make a value that was current before current again
 */
static void
restore_value(ConfigOption *opt, const char *value, GucSource source)
{
	char	   *canonical;
	int			number;

	if (!parse_value(opt, value, &canonical, &number, NULL, NULL))
		elog(ERROR, "saved value of \"%s\" no longer parses", opt->name);
	assign_value(opt, canonical, number);
	opt->source = source;
}

/*
 * set_config_option_action -- set_config_option, for SET LOCAL too
 */
static bool
set_config_option_action(const char *name, const char *value, GucSource source,
						 bool is_local, bool is_reload,
						 const char **errmsg_out, const char **sqlstate_out)
{
	ConfigOption *opt = find_option(name);
	char	   *canonical;
	int			number;

	if (opt == NULL)
		return guc_error(errmsg_out, sqlstate_out, ERRCODE_UNDEFINED_OBJECT,
						 "unrecognized configuration parameter \"%s\"", name);
	switch (opt->context)
	{
		case PGC_INTERNAL:
			if (source != PGC_S_DEFAULT && source != PGC_S_OVERRIDE)
				return guc_error(errmsg_out, sqlstate_out, ERRCODE_CANT_CHANGE_RUNTIME_PARAM,
								 "parameter \"%s\" cannot be changed", opt->name);
			break;
		case PGC_POSTMASTER:
			if (source > PGC_S_ARGV && source != PGC_S_OVERRIDE)
				return guc_error(errmsg_out, sqlstate_out, ERRCODE_CANT_CHANGE_RUNTIME_PARAM,
								 "parameter \"%s\" cannot be changed without restarting the server",
								 opt->name);
			break;
		case PGC_SIGHUP:
			if (source > PGC_S_ARGV && source != PGC_S_OVERRIDE)
				return guc_error(errmsg_out, sqlstate_out, ERRCODE_CANT_CHANGE_RUNTIME_PARAM,
								 "parameter \"%s\" cannot be changed now", opt->name);
			break;
		case PGC_SUSET:
			if (source >= PGC_S_CLIENT && source != PGC_S_OVERRIDE && !GetConfigBool("is_superuser"))
				return guc_error(errmsg_out, sqlstate_out, ERRCODE_INSUFFICIENT_PRIVILEGE,
								 "permission denied to set parameter \"%s\"", opt->name);
			break;
		case PGC_USERSET:
			break;
	}

	if (opt->set_hook && (source == PGC_S_CLIENT || source == PGC_S_SESSION))
		opt->set_hook(value);
	if (!parse_value(opt, value, &canonical, &number, errmsg_out, sqlstate_out))
		return false;

	if (opt->context == PGC_POSTMASTER && is_reload)
	{
		/* the file may name it, but a running server cannot apply it */
		if (strcmp(canonical, opt->value) != 0)
			ereport(LOG,
					errmsg("parameter \"%s\" cannot be changed without restarting the server",
						   opt->name));
		free(canonical);
		return true;
	}

	/* the value RESET returns to follows every source up to the startup packet */
	if (source <= PGC_S_OVERRIDE && source >= opt->reset_source)
	{
		replace_string(&opt->reset_value, canonical);
		opt->reset_source = source;
	}
	if (source < opt->source)
	{
		free(canonical);		/* a higher-priority source set it: keep that */
		return true;
	}
	if (is_reload && strcmp(canonical, opt->value) != 0)
		ereport(LOG, errmsg("parameter \"%s\" changed to \"%s\"", opt->name, canonical));
	if (source == PGC_S_SESSION)
		push_old_value(opt, is_local);
	assign_value(opt, canonical, number);
	opt->source = source;
	return true;
}

/*
 * set_config_option -- set a setting by name from text (see guc.h)
 */
bool
set_config_option(const char *name, const char *value, GucSource source,
				  bool is_reload, const char **errmsg_out, const char **sqlstate_out)
{
	return set_config_option_action(name, value, source, false, is_reload,
									errmsg_out, sqlstate_out);
}

/*
 * set_config_option_local -- SET LOCAL (see guc.h)
 */
bool
set_config_option_local(const char *name, const char *value,
						const char **errmsg_out, const char **sqlstate_out)
{
	ConfigOption *opt = find_option(name);

	if (opt == NULL)
		return guc_error(errmsg_out, sqlstate_out, ERRCODE_UNDEFINED_OBJECT,
						 "unrecognized configuration parameter \"%s\"", name);
	if (!GucInTransaction)
		return true;
	/* a SET's value never moves the reset value, so it may be passed as the value */
	return set_config_option_action(name, value ? value : opt->reset_value, PGC_S_SESSION, true, false,
									errmsg_out, sqlstate_out);
}

/*
 * AtStart_GUC -- a transaction starts
 */
void
AtStart_GUC(void)
{
	GucInTransaction = true;
}

/*
 * AtEOXact_GUC -- a transaction ends: keep or undo what it changed (PostgreSQL's
 * AtEOXact_GUC at nesting level 1)
 */
void
AtEOXact_GUC(bool isCommit)
{
	if (!GucInTransaction)
		return;
	GucInTransaction = false;
	for (int i = 0; i < NUM_CONFIG_OPTIONS; i++)
	{
		ConfigOption *opt = &ConfigOptions[i];

		if (!isCommit || opt->xact_state == GUC_XACT_LOCAL)
		{
			if (opt->xact_state != GUC_XACT_NONE)
				restore_value(opt, opt->prior_value, opt->prior_source);
		}
		else if (opt->xact_state == GUC_XACT_SET_LOCAL)
			restore_value(opt, opt->masked_value, opt->masked_source);
		opt->xact_state = GUC_XACT_NONE;
	}
}

/*
 * GetConfigOption -- the current value as text, or NULL for an unknown name
 */
const char *
GetConfigOptionName(const char *name)
{
	const ConfigOption *opt = find_option(name);

	return opt ? opt->name : NULL;
}

const char *
GetConfigOption(const char *name)
{
	const ConfigOption *opt = find_option(name);

	return opt ? opt->value : NULL;
}

/*
 * GetConfigInt -- the number behind a bool, integer or enum setting
 *
 * Asking for an unknown name is a programming error.
 */
int
GetConfigInt(const char *name)
{
	const ConfigOption *opt = find_option(name);

	if (opt == NULL)
		elog(ERROR, "unknown setting \"%s\"", name);
	return opt->ival;
}

/*
 * GetConfigBool -- a bool setting
 */
bool
GetConfigBool(const char *name)
{
	return GetConfigInt(name) != 0;
}

void
UnrecognizedConfigOption(const char *name)
{
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_OBJECT),
			errmsg("unrecognized configuration parameter \"%s\"", name));
}

/*
 * reset_option -- RESET name, or its part of RESET ALL; false for an unknown name
 */
static bool
reset_option(const char *name, bool reset_all)
{
	ConfigOption *opt = find_option(name);
	char	   *canonical;
	int			number;

	if (opt == NULL)
		return false;
	/* RESET ALL leaves them alone: such a session cannot have set them */
	if (opt->context == PGC_SUSET && !GetConfigBool("is_superuser") && !reset_all)
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("permission denied to set parameter \"%s\"", opt->name));
	if ((opt->context != PGC_USERSET && opt->context != PGC_SUSET) || (reset_all && (opt->flags & GUC_NO_RESET_ALL)))
		return true;
	if (opt->set_hook)
		opt->set_hook(opt->reset_value);
	if (opt->source <= opt->reset_source)
		return true;
	if (!parse_value(opt, opt->reset_value, &canonical, &number, NULL, NULL))
		elog(ERROR, "reset value of \"%s\" no longer parses", opt->name);
	push_old_value(opt, false);
	assign_value(opt, canonical, number);
	opt->source = opt->reset_source;
	return true;
}

/*
 * SetConfigHooks -- the hooks of a setting (see guc.h)
 */
void
SetConfigHooks(const char *name, GucSetHook set_hook, GucAssignHook assign_hook)
{
	ConfigOption *opt = find_option(name);

	opt->set_hook = set_hook;
	opt->assign_hook = assign_hook;
}

/*
 * ResetConfigOption -- RESET name; false for an unknown name
 */
bool
ResetConfigOption(const char *name)
{
	return reset_option(name, false);
}

/*
 * ResetAllSessionOptions -- RESET ALL (and DISCARD ALL)
 */
void
ResetAllSessionOptions(void)
{
	for (int i = 0; i < NUM_CONFIG_OPTIONS; i++)
		reset_option(ConfigOptions[i].name, true);
}

/*
 * ReportGucs -- hand every GUC_REPORT setting to fn, in PostgreSQL's order
 * (name order, case-insensitive), and remember the values as reported
 */
void
ReportGucs(GucReportFn fn, void *arg)
{
	for (int i = 0; i < NUM_CONFIG_OPTIONS; i++)
	{
		ConfigOption *opt = &ConfigOptions[i];

		if (!(opt->flags & GUC_REPORT))
			continue;
		replace_string(&opt->reported, opt->value);
		fn(opt->name, opt->value, arg);
	}
}

/*
 * ReportChangedGucs -- the GUC_REPORT settings whose value differs from the one
 * last reported
 */
void
ReportChangedGucs(GucReportFn fn, void *arg)
{
	for (int i = 0; i < NUM_CONFIG_OPTIONS; i++)
	{
		ConfigOption *opt = &ConfigOptions[i];

		if (!(opt->flags & GUC_REPORT) ||
			(opt->reported != NULL && strcmp(opt->reported, opt->value) == 0))
			continue;
		replace_string(&opt->reported, opt->value);
		fn(opt->name, opt->value, arg);
	}
}

/*
 * in_base_unit -- a value of an integer setting with a unit as a number of that unit
 * (in buf, 16 bytes), as pg_settings shows it where SHOW says "5s"; others as they are
 */
static const char *
in_base_unit(const ConfigOption *opt, const char *value, char *buf)
{
	int			n;

	if ((opt->flags & GUC_UNIT_MASK) == 0 || value == NULL || !parse_int(value, opt->flags, &n))
		return value;
	snprintf(buf, 16, "%d", n);
	return buf;
}

/*
 * DescribeConfigOptions -- everything about every setting, for SHOW ALL and
 * pg_settings
 */
void
DescribeConfigOptions(GucDescribeFn fn, void *arg)
{
	static const char *const context_names[] = {"internal", "postmaster", "sighup", "superuser", "user"};
	static const char *const type_names[] = {"bool", "integer", "string", "enum"};
	static const char *const source_names[] = {
		"default", "configuration file", "command line", "global", "database", "user", "database user",
		"client", "override", "session"
	};

	for (int i = 0; i < NUM_CONFIG_OPTIONS; i++)
	{
		const ConfigOption *opt = &ConfigOptions[i];
		GucInfo		info;

		info.name = opt->name;
		info.setting = opt->value;
		info.unit = unit_name(opt->flags);
		info.short_desc = opt->short_desc;
		info.context = context_names[opt->context];
		info.vartype = type_names[opt->vartype];
		info.source = source_names[opt->source];
		info.boot_val = opt->boot_val;
		info.reset_val = opt->reset_value;
		info.setting_in_unit = in_base_unit(opt, info.setting, info.in_unit[0]);
		info.boot_val_in_unit = in_base_unit(opt, info.boot_val, info.in_unit[1]);
		info.reset_val_in_unit = in_base_unit(opt, info.reset_val, info.in_unit[2]);
		info.min_val = opt->min;
		info.max_val = opt->max;
		info.enumvals = opt->vartype == GUC_ENUM ? opt->enumvals : NULL;
		fn(&info, arg);
	}
}

/* ---------------------------------------------------------------- the config file */

/* one "name = value" line of a config file */
typedef struct ConfigItem
{
	char	   *name;
	char	   *value;
	char	   *filename;
	int			lineno;
	struct ConfigItem *next;
} ConfigItem;

static bool parse_config_file(const char *path, int depth, ConfigItem **head,
							  ConfigItem **tail);

/*
 * free_config_items -- free a list built by parse_config_file
 */
static void
free_config_items(ConfigItem *item)
{
	while (item)
	{
		ConfigItem *next = item->next;

		free(item->name);
		free(item->value);
		free(item->filename);
		free(item);
		item = next;
	}
}

/*
 * resolve_relative -- a path named in a config file, relative to that file's
 * directory; malloc'd
 */
static char *
resolve_relative(const char *base_file, const char *path)
{
	const char *slash = strrchr(base_file, '/');
	size_t		dirlen = slash ? (size_t) (slash - base_file) : 0;
	size_t		len = dirlen + strlen(path) + 2;
	char	   *result;

	if (path[0] == '/' || slash == NULL)
		return guc_strdup(path);
	result = malloc(len);
	if (result == NULL)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	snprintf(result, len, "%.*s/%s", (int) dirlen, base_file, path);
	return result;
}

/*
 * parse_config_line -- split one line into name and value
 *
 * Returns 0 for a blank or comment line, 1 for an item (*name and *value
 * malloc'd), -1 for a syntax error. Syntax (PostgreSQL's): name [=] value
 * [# comment]; the value is a single-quoted string ('' and backslash escapes
 * inside), or a bare word/number/unit run ending at whitespace or '#'.
 */
static int
parse_config_line(const char *line, char **name, char **value)
{
	const char *p = line;
	const char *start;
	char	   *out;

	while (isspace((unsigned char) *p))
		p++;
	if (*p == '\0' || *p == '#')
		return 0;
	start = p;
	while (isalnum((unsigned char) *p) || *p == '_' || *p == '.')
		p++;
	if (p == start)
		return -1;
	*name = strndup(start, p - start);
	while (isspace((unsigned char) *p))
		p++;
	if (*p == '=')
		p++;
	while (isspace((unsigned char) *p))
		p++;
	*value = out = malloc(strlen(p) + 1);
	if (*name == NULL || out == NULL)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	if (*p == '\'')
	{
		for (p++;; p++)
		{
			if (*p == '\0')
				goto syntax_error;	/* unterminated string */
			if (*p == '\'' && p[1] == '\'')
				*out++ = *p++;
			else if (*p == '\'')
			{
				p++;
				break;
			}
			else if (*p == '\\' && p[1] != '\0')
			{
				p++;
				*out++ = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
			}
			else
				*out++ = *p;
		}
	}
	else
	{
		while (*p && *p != '#' && !isspace((unsigned char) *p))
			*out++ = *p++;
		if (out == *value)
			goto syntax_error;	/* "name =" with nothing after it */
	}
	*out = '\0';
	while (isspace((unsigned char) *p))
		p++;
	if (*p != '\0' && *p != '#')
		goto syntax_error;
	return 1;

syntax_error:
	free(*name);
	free(*value);
	return -1;
}

/*
 * parse_config_file -- read one file into the item list, following include,
 * include_if_exists and include_dir (ten levels at most)
 */
static bool
parse_config_file(const char *path, int depth, ConfigItem **head, ConfigItem **tail)
{
	FILE	   *fp;
	char		line[4096];
	int			lineno = 0;
	bool		ok = true;

	if (depth > 10)
	{
		ereport(LOG, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("could not open configuration file \"%s\": maximum nesting depth exceeded",
					   path));
		return false;
	}
	fp = fopen(path, "r");
	if (fp == NULL)
	{
		ereport(LOG, errcode(ERRCODE_CONFIG_FILE_ERROR),
				errmsg("could not open configuration file \"%s\": %s", path, strerror(errno)));
		return false;
	}
	while (fgets(line, sizeof(line), fp))
	{
		char	   *name,
				   *value;
		int			rc;

		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		rc = parse_config_line(line, &name, &value);
		if (rc == 0)
			continue;
		if (rc < 0)
		{
			ereport(LOG, errcode(ERRCODE_SYNTAX_ERROR),
					errmsg("syntax error in file \"%s\" line %d, near \"%s\"", path, lineno, line));
			ok = false;
			continue;
		}
		if (strcasecmp(name, "include") == 0 || strcasecmp(name, "include_if_exists") == 0)
		{
			char	   *included = resolve_relative(path, value);
			struct stat st;

			if (strcasecmp(name, "include") == 0 || stat(included, &st) == 0)
				ok = parse_config_file(included, depth + 1, head, tail) && ok;
			free(included);
			free(name);
			free(value);
			continue;
		}
		{
			ConfigItem *item = calloc(1, sizeof(ConfigItem));

			if (item == NULL)
				ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
			item->name = name;
			item->value = value;
			item->filename = guc_strdup(path);
			item->lineno = lineno;
			if (*tail)
				(*tail)->next = item;
			else
				*head = item;
			*tail = item;
		}
	}
	fclose(fp);
	return ok;
}

/*
 * ProcessConfigFile -- read rocklake.conf and apply it
 *
 * At startup every error is reported and false returned (the postmaster then
 * refuses to start). On reload the file is first checked whole: if any line is
 * wrong nothing is applied, as in PostgreSQL; settings that were in the file
 * before and are gone now return to their defaults.
 */
bool
ProcessConfigFile(const char *path, bool is_reload)
{
	ConfigItem *head = NULL,
			   *tail = NULL;
	bool		ok = parse_config_file(path, 0, &head, &tail);
	char		autoconf[4096];

	/* what ALTER SYSTEM wrote comes after the file, so it wins, as in PostgreSQL */
	snprintf(autoconf, sizeof(autoconf), "%s/" AUTOCONF_FILENAME, DataDir ? DataDir : ".");
	if (DataDir && access(autoconf, F_OK) == 0)
		ok = parse_config_file(autoconf, 0, &head, &tail) && ok;

	/* check every item before applying any */
	for (ConfigItem *item = head; item; item = item->next)
	{
		ConfigOption *opt = find_option(item->name);
		char	   *canonical;
		int			number;
		const char *msg;

		if (opt == NULL)
		{
			ereport(LOG, errcode(ERRCODE_UNDEFINED_OBJECT),
					errmsg("unrecognized configuration parameter \"%s\" in file \"%s\" line %d",
						   item->name, item->filename, item->lineno));
			ok = false;
		}
		else if (!parse_value(opt, item->value, &canonical, &number, &msg, NULL))
		{
			ereport(LOG, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("%s in file \"%s\" line %d", msg, item->filename, item->lineno));
			ok = false;
		}
		else
			free(canonical);
	}
	if (!ok)
	{
		if (is_reload)
			ereport(LOG, errcode(ERRCODE_CONFIG_FILE_ERROR),
					errmsg("configuration file \"%s\" contains errors; no changes were applied",
						   path));
		free_config_items(head);
		return false;
	}

	for (int i = 0; i < NUM_CONFIG_OPTIONS; i++)
		ConfigOptions[i].in_file = false;
	for (ConfigItem *item = head; item; item = item->next)
	{
		const char *msg;

		find_option(item->name)->in_file = true;
		if (!set_config_option(item->name, item->value, PGC_S_FILE, is_reload, &msg, NULL))
			ereport(LOG, errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
					errmsg("%s in file \"%s\" line %d", msg, item->filename, item->lineno));
	}

	/* a setting removed from the file goes back to its default */
	for (int i = 0; is_reload && i < NUM_CONFIG_OPTIONS; i++)
	{
		ConfigOption *opt = &ConfigOptions[i];

		if (opt->in_file || opt->context == PGC_POSTMASTER || opt->context == PGC_INTERNAL)
			continue;
		if (opt->reset_source == PGC_S_FILE)
			opt->reset_source = PGC_S_DEFAULT;
		if (opt->source == PGC_S_FILE)
		{
			opt->source = PGC_S_DEFAULT;
			set_config_option(opt->name, opt->boot_val, PGC_S_DEFAULT, true, NULL, NULL);
		}
	}
	free_config_items(head);
	return true;
}

/* write_autoconf_item -- one "name = 'value'" line, quotes doubled */
static void
write_autoconf_item(FILE *fp, const char *name, const char *value)
{
	fprintf(fp, "%s = '", name);
	for (const char *c = value; *c; c++)
		fputs(*c == '\'' ? "''" : (char[]) {*c, '\0'}, fp);
	fputs("'\n", fp);
}

/*
 * AlterSystemSetConfigFile -- ALTER SYSTEM SET name = value, or RESET name (value
 * NULL), or RESET ALL (name NULL): check the change as SET would, then rewrite
 * DataDir/rocklake.auto.conf whole (a temporary file renamed over it, so a crash
 * leaves the old file or the new). It applies at the next reload, as in PostgreSQL.
 */
void
AlterSystemSetConfigFile(const char *name, const char *value)
{
	ConfigOption *opt = name ? find_option(name) : NULL;
	ConfigItem *head = NULL,
			   *tail = NULL;
	char	   *path = psprintf("%s/" AUTOCONF_FILENAME, DataDir),
			   *tmp = psprintf("%s.tmp", path),
			   *canonical;
	int			number;
	const char *msg,
			   *sqlstate;
	FILE	   *fp;

	if (name && opt == NULL)
		UnrecognizedConfigOption(name);
	/* PostgreSQL 15 asks for ALTER SYSTEM privilege on the parameter: a superuser's */
	if (!GetConfigBool("is_superuser"))
		ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				name ? errmsg("permission denied to set parameter \"%s\"", opt->name)
				: errmsg("permission denied to perform ALTER SYSTEM RESET ALL"));
	if (opt && (opt->context == PGC_INTERNAL || strcmp(opt->name, "data_directory") == 0 ||
				strcmp(opt->name, "config_file") == 0 || strcmp(opt->name, "hba_file") == 0))
		ereport(ERROR, errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
				errmsg("parameter \"%s\" cannot be changed", opt->name));
	if (opt && value)
	{
		if (!parse_value(opt, value, &canonical, &number, &msg, &sqlstate))
			ereport(ERROR, errcode(sqlstate ? sqlstate : ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", msg));
		free(canonical);
	}
	if (name && access(path, F_OK) == 0 && !parse_config_file(path, 0, &head, &tail))
		ereport(ERROR, errcode(ERRCODE_CONFIG_FILE_ERROR),
				errmsg("could not parse contents of file \"%s\"", path));
	fp = fopen(tmp, "w");
	if (fp == NULL)
		ereport(ERROR, errcode(errno == ENOSPC ? ERRCODE_DISK_FULL : ERRCODE_IO_ERROR),
				errmsg("could not open file \"%s\": %s", tmp, strerror(errno)));
	fputs("# Do not edit this file manually!\n# It will be overwritten by the ALTER SYSTEM command.\n", fp);
	for (ConfigItem *item = head; item; item = item->next)
		if (opt == NULL || strcasecmp(item->name, opt->name) != 0)
			write_autoconf_item(fp, item->name, item->value);
	if (opt && value)
		write_autoconf_item(fp, opt->name, value);
	free_config_items(head);
	bool		written = fflush(fp) == 0 && fsync(fileno(fp)) == 0;

	if (fclose(fp) != 0 || !written || rename(tmp, path) != 0)
	{
		int			err = errno;

		unlink(tmp);
		ereport(ERROR, errcode(err == ENOSPC ? ERRCODE_DISK_FULL : ERRCODE_IO_ERROR),
				errmsg("could not write file \"%s\": %s", path, strerror(err)));
	}
}
