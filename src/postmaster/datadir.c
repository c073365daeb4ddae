/*-------------------------------------------------------------------------
 *
 * datadir.c
 *	  Creating a data directory: what initdb does for PostgreSQL, reduced to
 *	  the few files RockLake keeps there.
 *
 * "rocklake -D DIR" on a missing or empty directory, and "rocklake --init -D
 * DIR", create it. The sample rocklake.conf is generated from the settings
 * table itself (every setting a user may change, commented out at its default,
 * with its description), so it can never drift from the code. Authentication
 * starts as initdb's default does without --auth: trust for local and loopback
 * connections, said loudly in the log.
 *
 * IDENTIFICATION
 *	  src/postmaster/datadir.c
 *
 *-------------------------------------------------------------------------
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/authid.h"
#include "postmaster/datadir.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/recovery.h"

#define CONFIG_FILENAME		"rocklake.conf"
#define HBA_FILENAME		"rocklake_hba.conf"
#define VERSION_FILENAME	"PG_VERSION"

static const char hba_sample[] =
"# rocklake_hba.conf: client authentication, in PostgreSQL's pg_hba.conf format.\n"
"#\n"
"# TYPE  DATABASE  USER  ADDRESS       METHOD\n"
"#\n"
"# TYPE is local (Unix socket), host, hostssl or hostnossl; METHOD is trust,\n"
"# reject, password, md5 or scram-sha-256. The first line that matches the\n"
"# connection decides. A reload (SIGHUP, pg_ctl reload) re-reads this file.\n"
"#\n"
"# Created with \"trust\" for local and loopback connections: anyone who can\n"
"# connect from this machine is let in as any user. Change METHOD to\n"
"# scram-sha-256 before letting untrusted users on this machine.\n"
"\n"
"local   all       all                 trust\n"
"host    all       all   127.0.0.1/32  trust\n"
"host    all       all   ::1/128       trust\n";

/*
 * path_in -- "dir/name" into buf
 */
static const char *
path_in(char *buf, size_t size, const char *dir, const char *name)
{
	if ((size_t) snprintf(buf, size, "%s/%s", dir, name) >= size)
		ereport(FATAL, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("data directory path \"%s\" is too long", dir));
	return buf;
}

/*
 * write_new_file -- create a file that must not exist yet
 */
static void
write_new_file(const char *path, const char *contents)
{
	FILE	   *fp = fopen(path, "wx");

	if (fp == NULL)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR),
				errmsg("could not create file \"%s\": %s", path, strerror(errno)));
	if (fputs(contents, fp) == EOF || fflush(fp) != 0 || fsync(fileno(fp)) != 0 || fclose(fp) != 0)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR),
				errmsg("could not write file \"%s\": %s", path, strerror(errno)));
}

/*
 * sample_line -- one commented-out "name = default" line of rocklake.conf
 */
static void
sample_line(const GucInfo *info, void *arg)
{
	FILE	   *fp = arg;
	char		value[300];
	int			width;

	if (strcmp(info->context, "internal") == 0 || strcmp(info->name, "data_directory") == 0 ||
		strncmp(info->name, "debug_", 6) == 0)
		return;
	if (strcmp(info->vartype, "string") == 0 || strcmp(info->vartype, "enum") == 0)
	{
		/* a quoted string doubles its quotes */
		size_t		o = 0;

		value[o++] = '\'';
		for (const char *p = info->setting; *p && o < sizeof(value) - 3; p++)
		{
			if (*p == '\'')
				value[o++] = '\'';
			value[o++] = *p;
		}
		value[o++] = '\'';
		value[o] = '\0';
	}
	else
		snprintf(value, sizeof(value), "%s", info->setting);
	width = fprintf(fp, "#%s = %s", info->name, value);
	fprintf(fp, "%*s# %s%s\n", width < 48 ? 48 - width : 1, "", info->short_desc,
			strcmp(info->context, "postmaster") == 0 ? " (change requires restart)" : "");
}

/*
 * write_sample_config -- rocklake.conf with every setting at its default
 */
static void
write_sample_config(const char *path)
{
	FILE	   *fp = fopen(path, "wx");

	if (fp == NULL)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR),
				errmsg("could not create file \"%s\": %s", path, strerror(errno)));
	fputs("# rocklake.conf: RockLake server settings, in PostgreSQL's postgresql.conf syntax.\n"
		  "#\n"
		  "#   name = value     # comment\n"
		  "#\n"
		  "# Strings are single-quoted; times take ms, s, min, h, d; sizes kB, MB, GB.\n"
		  "# \"include 'file'\" reads another file. Every setting below is shown at its\n"
		  "# default; uncomment and change it. Settings marked \"change requires restart\"\n"
		  "# take effect at the next start, the others at a reload (SIGHUP, pg_ctl reload).\n"
		  "# -c name=value on the command line overrides this file. doc/configuration.md\n"
		  "# describes each setting.\n\n", fp);
	DescribeConfigOptions(sample_line, fp);
	if (fflush(fp) != 0 || fsync(fileno(fp)) != 0 || fclose(fp) != 0)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR),
				errmsg("could not write file \"%s\": %s", path, strerror(errno)));
}

/*
 * DataDirectoryIsInitialized -- PG_VERSION and rocklake.conf are both there
 */
bool
DataDirectoryIsInitialized(const char *datadir)
{
	char		path[4096];
	struct stat st;

	return stat(path_in(path, sizeof(path), datadir, VERSION_FILENAME), &st) == 0 &&
		stat(path_in(path, sizeof(path), datadir, CONFIG_FILENAME), &st) == 0;
}

/*
 * directory_is_empty -- true if dir has no entries but . and .. and a standby.signal
 * (a new standby's directory: the file says what the server is to be)
 */
static bool
directory_is_empty(const char *dir)
{
	DIR		   *d = opendir(dir);
	struct dirent *de;
	bool		empty = true;

	if (d == NULL)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR),
				errmsg("could not open directory \"%s\": %s", dir, strerror(errno)));
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 &&
			strcmp(de->d_name, STANDBY_SIGNAL_FILE) != 0)
		{
			empty = false;
			break;
		}
	closedir(d);
	return empty;
}

/*
 * InitDataDirectory -- create an empty data directory's files; superuser, if not
 * NULL, is recorded as the name of the bootstrap superuser a new store registers
 */
void
InitDataDirectory(const char *datadir, const char *superuser)
{
	char		path[4096];

	if (mkdir(datadir, 0700) != 0)
	{
		if (errno != EEXIST)
			ereport(FATAL, errcode(ERRCODE_IO_ERROR),
					errmsg("could not create directory \"%s\": %s", datadir, strerror(errno)));
		if (!directory_is_empty(datadir))
			ereport(FATAL, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("directory \"%s\" exists but is not empty", datadir),
					errhint("Use an empty directory, or an existing RockLake data directory."));
	}
	write_sample_config(path_in(path, sizeof(path), datadir, CONFIG_FILENAME));
	write_new_file(path_in(path, sizeof(path), datadir, HBA_FILENAME), hba_sample);
	if (mkdir(path_in(path, sizeof(path), datadir, "store"), 0700) != 0 && errno != EEXIST)
		ereport(FATAL, errcode(ERRCODE_IO_ERROR),
				errmsg("could not create directory \"%s\": %s", path, strerror(errno)));
	if (superuser != NULL)
		write_new_file(path_in(path, sizeof(path), datadir, BOOTSTRAP_SUPERUSER_FILE),
					   psprintf("%s\n", superuser));
	/* last: its presence says the directory is complete */
	write_new_file(path_in(path, sizeof(path), datadir, VERSION_FILENAME), PG_MAJORVERSION "\n");
	ereport(LOG, errmsg("initialized data directory \"%s\"", datadir));
	ereport(LOG, errmsg("enabling \"trust\" authentication for local connections"),
			errhint("You can change this by editing %s/%s.", datadir, HBA_FILENAME));
}
