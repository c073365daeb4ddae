/*
 * fdl_admin.c: the command lines of rocklake-admin's commands on published versions
 * (admin/fdl_admin.h). Each parses its own options, opens the repository and calls
 * fdl_retention.c or fdl_dataset.c (and, with --server, fdl_server.c for the pins
 * of versions); what they print on success goes to stdout,
 * errors to stderr as "rocklake-admin: ..." with exit status 1, bad usage 2.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "admin/fdl_admin.h"
#include "admin/fdl_dataset.h"
#include "admin/fdl_retention.h"
#include "admin/fdl_server.h"

#define MAX_REDACT 8

static const char *const fdl_commands[] = {"versions", "expire", "withdraw", "dataset-check", NULL};

bool
fdl_admin_is_command(const char *command)
{
	for (int i = 0; fdl_commands[i]; i++)
		if (strcmp(command, fdl_commands[i]) == 0)
			return true;
	return false;
}

static int
usage(FILE *out)
{
	fprintf(out,
			"Usage: rocklake-admin versions REPO [--server CONNINFO]\n"
			"       rocklake-admin expire REPO VERSION_ID [--reason TEXT] [--server CONNINFO]\n"
			"       rocklake-admin withdraw REPO VERSION_ID [--reason TEXT] [--redact KEY]...\n"
			"                               [--server CONNINFO]\n"
			"       rocklake-admin dataset-check DIR --catalog FILE\n"
			"REPO is a directory or s3://bucket/prefix; --redact takes message, inputs, changes\n"
			"or annotations out of the version's version.json. --server is a libpq connection\n"
			"string of the lake's database (a superuser): versions shows the snapshot each\n"
			"version pins there and the pins of no complete version; expire and withdraw\n"
			"remove the version's pin.\n");
	return out == stdout ? 0 : 2;
}

static int
error(const char *msg)
{
	fprintf(stderr, "rocklake-admin: %s\n", msg);
	return 1;
}

static ObjectStore *
open_repo(const char *location)
{
	struct stat st;
	ObjectStore *os;

	/* opening a directory makes it: a mistyped repository is an error, not a new one */
	if (strncmp(location, "s3://", 5) != 0 && (stat(location, &st) != 0 || !S_ISDIR(st.st_mode)))
	{
		fprintf(stderr, "rocklake-admin: repository \"%s\" does not exist\n", location);
		return NULL;
	}
	os = objstore_open_url(location);
	if (os == NULL)
		fprintf(stderr, "rocklake-admin: cannot open repository %s: %s\n", location, rl_last_error());
	return os;
}

/* an integer (seq, snapshot id) as text, or "-" */
static const char *
integer_text(json_t *value, char *buf, size_t size)
{
	if (!json_is_integer(value))
		return "-";
	snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(value));
	return buf;
}

/*
 * the versions of the repository; with the server's pins (not NULL), the snapshot
 * each pins, then the pins of no complete version here: publications cut short
 * (withdraw them) or versions of another repository of the same lake
 */
static int
cmd_versions(ObjectStore *os, json_t *pins)
{
	char	   *err;
	json_t	   *list = fdl_list_versions(os, &err),
			   *v;
	size_t		i;
	const char *id;

	if (list == NULL)
	{
		int			rc = error(err);

		free(err);
		return rc;
	}
	/* the state padded only when the pins follow it */
	printf("%-36s  %6s  %-20s  %10s  %-*s%s\n", "id", "seq", "created_at", "snapshot", pins ? 10 : 0, "state",
		   pins ? "  pinned" : "");
	json_array_foreach(list, i, v)
	{
		char		seqs[24],
					snaps[24],
					pinned[24];

		id = json_string_value(json_object_get(v, "id"));
		printf("%-36s  %6s  %-20s  %10s  %-*s%s%s\n", id,
			   integer_text(json_object_get(v, "seq"), seqs, sizeof(seqs)),
			   json_string_value(json_object_get(v, "created_at")) ?: "-",
			   integer_text(json_object_get(v, "snapshot"), snaps, sizeof(snaps)), pins ? 10 : 0,
			   json_string_value(json_object_get(v, "state")), pins ? "  " : "",
			   pins ? integer_text(json_object_get(pins, id), pinned, sizeof(pinned)) : "");
		/* what is left of pins: those of no complete version */
		if (pins && json_object_get(v, "seq"))
			json_object_del(pins, id);
	}
	printf("(%zu versions)\n", json_array_size(list));
	json_decref(list);
	json_object_foreach(pins, id, v)
		printf("pin of snapshot %" JSON_INTEGER_FORMAT " by %s: no complete version here "
			   "(a publication cut short: withdraw it with --server)\n", json_integer_value(v), id);
	return 0;
}

static int
cmd_dataset_check(const char *dir, const char *catalog_file)
{
	json_error_t jerr;
	json_t	   *catalog = json_load_file(catalog_file, 0, &jerr),
			   *dataset;
	char	   *err = NULL;

	if (catalog == NULL)
	{
		fprintf(stderr, "rocklake-admin: %s:%d: %s\n", catalog_file, jerr.line, jerr.text);
		return 1;
	}
	dataset = fdl_dataset_build(dir, catalog, &err);
	json_decref(catalog);
	if (dataset == NULL)
	{
		int			rc = error(err);

		free(err);
		return rc;
	}
	json_dumpf(dataset, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	printf("\n");
	json_decref(dataset);
	return 0;
}

/*
 * expire or withdraw version id; with the server (conn not NULL), then remove its
 * pin there, which a rerun finds gone
 */
static int
cmd_retire(ObjectStore *os, PGconn *conn, json_t *pins, const char *id, FdlRetirement how,
		   const char *reason, const char *const *redact)
{
	RlBuf		report;
	char	   *err = NULL;
	json_t	   *pin = json_object_get(pins, id);
	bool		ok;

	rlbuf_init(&report);
	ok = fdl_retire_version(os, id, how, reason, redact, pin != NULL, &report, &err);
	if (ok && conn)
	{
		int			found = fdl_server_unpin(conn, id, &err);
		char		snap[24];

		ok = found >= 0;
		if (found > 0)
			rlbuf_printf(&report, "removed the server's pin of snapshot %s\n",
						 integer_text(pin, snap, sizeof(snap)));
		else if (found == 0)
			rlbuf_printf(&report, "the server holds no pin of version %s\n", id);
	}
	fputs(rlbuf_cstr(&report), stdout);
	rlbuf_free(&report);
	if (ok)
		printf("version %s: done\n", id);
	else
	{
		error(err);
		free(err);
	}
	return ok ? 0 : 1;
}

int
fdl_admin_main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{"reason", required_argument, NULL, 'r'},
		{"redact", required_argument, NULL, 'x'},
		{"catalog", required_argument, NULL, 'c'},
		{"server", required_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0}
	};
	const char *command = argv[0],
			   *reason = NULL,
			   *catalog = NULL,
			   *server = NULL;
	const char *redact[MAX_REDACT + 1] = {NULL};
	int			nredact = 0,
				c;
	bool		retire = strcmp(command, "expire") == 0 || strcmp(command, "withdraw") == 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", long_options, NULL)) != -1)
	{
		if (c == 'h')
			return usage(stdout);
		if (c == 'r' && retire)
			reason = optarg;
		else if (c == 'x' && strcmp(command, "withdraw") == 0 && nredact < MAX_REDACT)
			redact[nredact++] = optarg;
		else if (c == 'c' && strcmp(command, "dataset-check") == 0)
			catalog = optarg;
		else if (c == 's' && strcmp(command, "dataset-check") != 0)
			server = optarg;
		else
			return usage(stderr);
	}
	if (argc - optind != (retire ? 2 : 1) || (strcmp(command, "dataset-check") == 0 && catalog == NULL))
		return usage(stderr);
	if (strcmp(command, "dataset-check") == 0)
		return cmd_dataset_check(argv[optind], catalog);

	ObjectStore *os = open_repo(argv[optind]);
	PGconn	   *conn = NULL;
	json_t	   *pins = NULL;
	char	   *err = NULL;
	int			result;

	if (os == NULL)
		return 1;
	/* the server first: a wrong CONNINFO changes nothing in the repository */
	if (server && ((conn = fdl_server_connect(server, &err)) == NULL ||
				   (pins = fdl_server_pins(conn, &err)) == NULL))
	{
		result = error(err);
		free(err);
	}
	else if (!retire)
		result = cmd_versions(os, pins);
	else
		result = cmd_retire(os, conn, pins, argv[optind + 1],
							strcmp(command, "expire") == 0 ? FDL_EXPIRE : FDL_WITHDRAW, reason, redact);
	json_decref(pins);
	PQfinish(conn);
	obj_close(os);
	return result;
}
