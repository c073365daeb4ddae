/*
 * guc.h: settings ("Grand Unified Configuration", after PostgreSQL).
 *
 * One table of named settings with a type, a default, a context saying when it may
 * change (postmaster start only, SIGHUP reload, or per session with SET) and a flag
 * for the ones reported to clients as ParameterStatus (server_version,
 * client_encoding, DateStyle, ...). Values come, lowest priority first, from the
 * built-in default, rocklake.conf (PostgreSQL's syntax: name = value, # comments,
 * quoted strings, include), -c name=value on the command line, and for session
 * settings the StartupMessage options and SET. SHOW and current_setting() read them.
 */
#ifndef RL_GUC_H
#define RL_GUC_H

#include <stdbool.h>

typedef enum GucContext
{
	PGC_INTERNAL,				/* read-only: SHOW only (server_version, ...) */
	PGC_POSTMASTER,				/* at server start only */
	PGC_SIGHUP,					/* in the config file; a reload applies it */
	PGC_SUSET,					/* SET by a superuser's session only (is_superuser) */
	PGC_USERSET					/* any session, with SET */
} GucContext;

typedef enum GucSource
{
	PGC_S_DEFAULT,
	PGC_S_FILE,
	PGC_S_ARGV,
	PGC_S_GLOBAL,				/* ALTER ROLE ALL SET, at login (tcop/role_settings.h) */
	PGC_S_DATABASE,				/* ALTER DATABASE SET */
	PGC_S_USER,					/* ALTER ROLE SET */
	PGC_S_DATABASE_USER,		/* ALTER ROLE IN DATABASE SET */
	PGC_S_CLIENT,				/* StartupMessage options */
	PGC_S_OVERRIDE,				/* the server itself (is_superuser, session_authorization) */
	PGC_S_SESSION				/* SET */
} GucSource;

#define GUC_REPORT 0x01			/* sent as ParameterStatus at startup and on change */

/* The PostgreSQL release we present ourselves as (server_version, --version). */
#define PG_MAJORVERSION "15"
#define PG_VERSION "15.20"
#define PG_VERSION_NUM 150020

/* Paths every process knows; set by the postmaster before it reads the config. */
extern char *DataDir;			/* absolute data directory (data_directory) */
extern char *ConfigFileName;	/* DataDir/rocklake.conf unless config_file says otherwise */

/* Mirrors of settings read on every statement. */
extern int	log_min_duration_statement;	/* ms; -1: off, 0: every statement */
extern int	log_statement;	/* 0 none, then LogStmtLevel's ddl, mod, all (parser.h) */
extern char *application_name;	/* the session's application_name */
extern bool log_slow_plans;		/* rocklake.log_slow_plans */
extern int	StatementTimeout;	/* statement_timeout, ms; 0: off */
extern int	StoreCheckTimeout;	/* store_check_timeout, s; 0: off */
extern bool DefaultXactReadOnly;	/* default_transaction_read_only */
extern bool XactReadOnly;		/* transaction_read_only: the transaction's, set as it starts */

/* Set every setting to its built-in default; call once per process, first. */
void		InitializeGUCOptions(void);

/*
 * Set a setting by name from text. A source lower than the one that set the
 * current value is ignored (true is returned): -c on the command line wins over
 * rocklake.conf, also on reload. PGC_S_DEFAULT .. PGC_S_CLIENT also move the value
 * RESET returns to; PGC_S_SESSION (SET) does not. errmsg points to a static
 * buffer valid until the next call. Returns false (with the error in *errmsg) if the
 * name is unknown (42704), the value invalid (22023) or the context forbids it (55P02;
 * 42501 for a superuser's setting set by another's session).
 */
bool		set_config_option(const char *name, const char *value, GucSource source,
							  bool is_reload, const char **errmsg, const char **sqlstate);
/*
 * SET LOCAL: as set_config_option with PGC_S_SESSION, but the value lasts until
 * the end of the transaction; outside one it changes nothing (PostgreSQL warns).
 * A NULL value is the setting's reset value (SET LOCAL name TO DEFAULT).
 */
bool		set_config_option_local(const char *name, const char *value,
									const char **errmsg, const char **sqlstate);

/*
 * Transaction boundaries (called by xact.c): from AtStart_GUC on, session
 * changes are remembered; AtEOXact_GUC(false) undoes them all, (true) keeps SET
 * and reverts SET LOCAL. A second AtEOXact_GUC without AtStart_GUC does nothing.
 */
void		AtStart_GUC(void);
void		AtEOXact_GUC(bool isCommit);

/* A setting's name as the table spells it (DateStyle), or NULL for an unknown name. */
const char *GetConfigOptionName(const char *name);
/* The current value as text (SHOW), or NULL for an unknown name. */
const char *GetConfigOption(const char *name);
/* ERROR 42704 "unrecognized configuration parameter" (SET, RESET, SHOW). */
void		UnrecognizedConfigOption(const char *name) __attribute__((noreturn));
/* RESET name / RESET ALL: back to the value before the session's SET. */
bool		ResetConfigOption(const char *name);
void		ResetAllSessionOptions(void);

/* Read rocklake.conf; on reload only PGC_SIGHUP settings change. false: error logged. */
bool		ProcessConfigFile(const char *path, bool is_reload);

/* ALTER SYSTEM's file in the data directory, read after the configuration file */
#define AUTOCONF_FILENAME "rocklake.auto.conf"
/* ALTER SYSTEM SET name = value; RESET name (value NULL); RESET ALL (name NULL) */
void		AlterSystemSetConfigFile(const char *name, const char *value);

/* Iterate the settings flagged GUC_REPORT (for the startup ParameterStatus set). */
typedef void (*GucReportFn) (const char *name, const char *value, void *arg);
void		ReportGucs(GucReportFn fn, void *arg);
/* Settings whose reported value changed since the last call (to send after SET). */
void		ReportChangedGucs(GucReportFn fn, void *arg);

/*
 * Hooks of a setting the session's identity follows (role, session_authorization:
 * tcop/session_role.h). set_hook sees the value a SET (or a startup option) or a
 * RESET is about to give, and may refuse it with an ERROR; assign_hook sees every
 * value made current, whatever made it (SET, RESET, a transaction's end).
 */
typedef void (*GucSetHook) (const char *newval);
typedef void (*GucAssignHook) (const char *newval);
void		SetConfigHooks(const char *name, GucSetHook set_hook, GucAssignHook assign_hook);

/* Typed accessors for the server's own use (ints in the setting's base unit: ms, s, kB). */
int			GetConfigInt(const char *name);
bool		GetConfigBool(const char *name);

/* Everything SHOW ALL and pg_settings show about one setting. */
typedef struct GucInfo
{
	const char *name;
	const char *setting;		/* current value, as SHOW prints it */
	const char *unit;			/* "ms", "s", "kB" or NULL */
	const char *short_desc;
	const char *context;		/* "internal", "postmaster", "sighup", "user" */
	const char *vartype;		/* "bool", "integer", "string", "enum" */
	const char *source;			/* "default", "configuration file", ... */
	const char *boot_val;
	const char *reset_val;
	/* the three values as pg_settings shows them: an integer with a unit in that unit ("5000") */
	const char *setting_in_unit;
	const char *boot_val_in_unit;
	const char *reset_val_in_unit;
	char		in_unit[3][16];
	int			min_val;		/* integers only */
	int			max_val;
	const char *const *enumvals;	/* enums only: NULL-terminated */
} GucInfo;

typedef void (*GucDescribeFn) (const GucInfo *info, void *arg);
/* Every setting, in name order. */
void		DescribeConfigOptions(GucDescribeFn fn, void *arg);

#endif
