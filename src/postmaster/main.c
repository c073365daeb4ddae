/*-------------------------------------------------------------------------
 *
 * main.c
 *	  The rocklake program: the command line, the data directory and the
 *	  configuration, then the postmaster.
 *
 * The command line follows the postgres program's, because pg_ctl and init
 * scripts drive us with it: pg_ctl start runs "<binary> -D <datadir> <-o
 * options>" and expects that very process to become the server (no
 * daemonizing). Settings given here (-p, -k, -h, -c name=value, --name=value)
 * take precedence over rocklake.conf, also across reloads. A missing or empty
 * data directory is initialized on first start, so "rocklake -D DIR" is all a
 * new installation needs; --init does only that.
 *
 * IDENTIFICATION
 *	  src/postmaster/main.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "postmaster/datadir.h"
#include "postmaster/postmaster.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/ps_status.h"

static const char *progname = "rocklake";

/*
 * usage -- --help
 */
static void
usage(void)
{
	printf("%s is the RockLake server: a DuckLake catalog server that speaks the\n"
		   "PostgreSQL protocol and keeps its catalog on object storage.\n\n", progname);
	printf("Usage:\n  %s [OPTION]...\n\n", progname);
	printf("Options:\n"
		   "  -c NAME=VALUE      set a run-time parameter\n"
		   "  -D DATADIR         data directory (default: $PGDATA); created if missing\n"
		   "  -h HOSTNAME        host name or IP address(es) to listen on\n"
		   "  -k DIRECTORY       Unix-domain socket location\n"
		   "  -p PORT            port number to listen on\n"
		   "  -U NAME            bootstrap superuser of a new data directory\n"
		   "                     (default: the operating-system user)\n"
		   "  --NAME=VALUE       set a run-time parameter\n"
		   "  --init             initialize the data directory and exit\n"
		   "  -V, --version      output version information, then exit\n"
		   "  -?, --help         show this help, then exit\n\n");
	printf("Signals: SIGTERM smart shutdown, SIGINT fast shutdown, SIGQUIT immediate\n"
		   "shutdown, SIGHUP reload the configuration files.\n\n"
		   "See rocklake(1) and doc/configuration.md.\n");
}

/*
 * bad_usage -- complain like the postgres program does and exit
 */
static void __attribute__((noreturn, format(printf, 1, 2)))
bad_usage(const char *fmt,...)
{
	va_list		ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry \"%s --help\" for more information.\n", progname);
	exit(1);
}

/*
 * set_from_command_line -- one setting, with its value; exits on error
 */
static void
set_from_command_line(const char *name, const char *value)
{
	const char *msg;

	if (!set_config_option(name, value, PGC_S_ARGV, false, &msg, NULL))
		bad_usage("%s", msg);
}

/*
 * set_name_value -- "name=value" (-c and --name=value); dashes in the name
 * become underscores, as in PostgreSQL
 */
static void
set_name_value(const char *arg)
{
	const char *eq = strchr(arg, '=');
	char		name[256];

	if (eq == NULL || eq == arg || (size_t) (eq - arg) >= sizeof(name))
	{
		if (eq == NULL)
			bad_usage("--%s requires a value", arg);
		bad_usage("invalid option \"%s\"", arg);
	}
	memcpy(name, arg, eq - arg);
	name[eq - arg] = '\0';
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	set_from_command_line(name, eq + 1);
}

/*
 * make_absolute -- the data directory as an absolute path without a trailing
 * slash (malloc'd); the directory need not exist yet
 */
static char *
make_absolute(const char *path)
{
	char		cwd[PATH_MAX];
	char	   *result;
	size_t		len;

	if (path[0] == '/')
		result = strdup(path);
	else
	{
		if (getcwd(cwd, sizeof(cwd)) == NULL)
		{
			fprintf(stderr, "%s: could not identify current directory: %s\n", progname,
					strerror(errno));
			exit(1);
		}
		len = strlen(cwd) + strlen(path) + 2;
		result = malloc(len);
		if (result)
			snprintf(result, len, "%s/%s", cwd, path);
	}
	if (result == NULL)
	{
		fprintf(stderr, "%s: out of memory\n", progname);
		exit(1);
	}
	len = strlen(result);
	while (len > 1 && result[len - 1] == '/')
		result[--len] = '\0';
	if (len > 2 && strcmp(result + len - 2, "/.") == 0)
		result[len - 2] = '\0';
	return result;
}

/*
 * set_default_path -- "DataDir/name" for a path setting left empty
 */
static void
set_default_path(const char *setting, const char *filename)
{
	char		path[PATH_MAX];

	if (GetConfigOption(setting)[0] != '\0')
		return;
	snprintf(path, sizeof(path), "%s/%s", DataDir, filename);
	set_config_option(setting, path, PGC_S_OVERRIDE, false, NULL, NULL);
}

/*
 * check_root -- as PostgreSQL's: the server (and --init, which makes the files it
 * owns) never runs as root, nor with real and effective user IDs that differ; --help
 * and --version still do
 */
static void
check_root(void)
{
	if (geteuid() == 0)
	{
		fprintf(stderr, "\"root\" execution of the RockLake server is not permitted.\n"
				"The server must be started under an unprivileged user ID to prevent\n"
				"possible system security compromise.  See the documentation for\n"
				"more information on how to properly start the server.\n");
		exit(1);
	}
	if (getuid() != geteuid())
	{
		fprintf(stderr, "%s: real and effective user IDs must match\n", progname);
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	const char *datadir = getenv("PGDATA");
	bool		init_only = false;
	const char *superuser = NULL;	/* -U: the bootstrap superuser of a new directory */
	char		config_path[PATH_MAX];

	argv = save_ps_display_args(argc, argv);
	/* everything we create in the data directory is the server owner's only */
	umask(S_IRWXG | S_IRWXO);
	MemoryContextInit();
	InitializeGUCOptions();
	/* SQLite's allocation statistics take a global mutex on every malloc; nothing reads them */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);

	/*
	 * SQLITE_CONFIG_STMTJRNL_SPILL is left at SQLite's default (64 KiB) on purpose. A
	 * larger value (4 MiB, set once to save the writer a temporary file per commit) makes
	 * SQLite 3.40's in-memory statement journal fail when it does spill: an UPDATE of
	 * every row, a DELETE of half, a DROP TABLE or a cache rebuild of a table of a few MB
	 * inside a savepoint fails with SQLITE_FULL ("database or disk is full"), for any
	 * spill size above 128 KiB (a standalone program on Debian's 3.40.1 shows it). The
	 * default, always-on-disk (0) and never-spill (-1) give identical databases under
	 * random savepoint workloads; the default is the one SQLite's own tests run.
	 */

	for (int i = 1; i < argc; i++)
	{
		const char *arg = argv[i];
		const char *optarg = NULL;

		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-?") == 0)
		{
			usage();
			exit(0);
		}
		if (strcmp(arg, "--version") == 0 || strcmp(arg, "-V") == 0)
		{
			printf("%s (PostgreSQL) %s (RockLake %s)\n", progname, PG_VERSION, PACKAGE_VERSION);
			exit(0);
		}
		if (strcmp(arg, "--init") == 0)
		{
			init_only = true;
			continue;
		}
		if (strncmp(arg, "--", 2) == 0)
		{
			set_name_value(arg + 2);
			continue;
		}
		if (arg[0] != '-' || strchr("cDhkpU", arg[1]) == NULL)
			bad_usage("invalid argument: \"%s\"", arg);
		/* -xVALUE or -x VALUE */
		if (arg[2] != '\0')
			optarg = arg + 2;
		else if (i + 1 < argc)
			optarg = argv[++i];
		else
			bad_usage("option requires an argument -- '%c'", arg[1]);
		switch (arg[1])
		{
			case 'c':
				set_name_value(optarg);
				break;
			case 'D':
				datadir = optarg;
				break;
			case 'h':
				set_from_command_line("listen_addresses", optarg);
				break;
			case 'k':
				set_from_command_line("unix_socket_directories", optarg);
				break;
			case 'p':
				set_from_command_line("port", optarg);
				break;
			case 'U':
				superuser = optarg;
				break;
		}
	}

	check_root();
	if (datadir == NULL || datadir[0] == '\0')
	{
		fprintf(stderr, "%s does not know where to find the data directory.\n"
				"You must specify the -D invocation option or set the PGDATA environment variable.\n",
				progname);
		exit(1);
	}
	DataDir = make_absolute(datadir);
	set_config_option("data_directory", DataDir, PGC_S_OVERRIDE, false, NULL, NULL);

	if (init_only || !DataDirectoryIsInitialized(DataDir))
		InitDataDirectory(DataDir, superuser);
	if (init_only)
		exit(0);

	set_default_path("config_file", "rocklake.conf");
	snprintf(config_path, sizeof(config_path), "%s", GetConfigOption("config_file"));
	ConfigFileName = strdup(config_path);
	if (ConfigFileName == NULL || !ProcessConfigFile(ConfigFileName, false))
		ereport(FATAL, errcode(ERRCODE_CONFIG_FILE_ERROR),
				errmsg("configuration file \"%s\" contains errors", config_path));
	set_default_path("hba_file", "rocklake_hba.conf");

	PostmasterMain(argc, argv);
}
