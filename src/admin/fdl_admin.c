/*
 * fdl_admin.c: the command lines of rocklake-admin's commands on published versions
 * (admin/fdl_admin.h). Each parses its own options, opens the repository and calls
 * fdl_retention.c or fdl_dataset.c; what they print on success goes to stdout,
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
			"Usage: rocklake-admin versions REPO\n"
			"       rocklake-admin expire REPO VERSION_ID [--reason TEXT]\n"
			"       rocklake-admin withdraw REPO VERSION_ID [--reason TEXT] [--redact KEY]...\n"
			"       rocklake-admin dataset-check DIR --catalog FILE\n"
			"REPO is a directory or s3://bucket/prefix; --redact takes message, inputs, changes\n"
			"or annotations out of the version's version.json.\n");
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

static int
cmd_versions(ObjectStore *os)
{
	char	   *err;
	json_t	   *list = fdl_list_versions(os, &err),
			   *v;
	size_t		i;

	if (list == NULL)
	{
		int			rc = error(err);

		free(err);
		return rc;
	}
	printf("%-36s  %6s  %-20s  %10s  %s\n", "id", "seq", "created_at", "snapshot", "state");
	json_array_foreach(list, i, v)
	{
		json_t	   *seq = json_object_get(v, "seq"),
				   *snap = json_object_get(v, "snapshot");
		char		seqs[24] = "-",
					snaps[24] = "-";

		if (json_is_integer(seq))
			snprintf(seqs, sizeof(seqs), "%" JSON_INTEGER_FORMAT, json_integer_value(seq));
		if (json_is_integer(snap))
			snprintf(snaps, sizeof(snaps), "%" JSON_INTEGER_FORMAT, json_integer_value(snap));
		printf("%-36s  %6s  %-20s  %10s  %s\n", json_string_value(json_object_get(v, "id")), seqs,
			   json_string_value(json_object_get(v, "created_at")) ?: "-", snaps,
			   json_string_value(json_object_get(v, "state")));
	}
	printf("(%zu versions)\n", json_array_size(list));
	json_decref(list);
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

int
fdl_admin_main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{"reason", required_argument, NULL, 'r'},
		{"redact", required_argument, NULL, 'x'},
		{"catalog", required_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0}
	};
	const char *command = argv[0],
			   *reason = NULL,
			   *catalog = NULL;
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
		else
			return usage(stderr);
	}
	if (argc - optind != (retire ? 2 : 1) || (strcmp(command, "dataset-check") == 0 && catalog == NULL))
		return usage(stderr);
	if (strcmp(command, "dataset-check") == 0)
		return cmd_dataset_check(argv[optind], catalog);

	ObjectStore *os = open_repo(argv[optind]);
	int			result = 0;

	if (os == NULL)
		return 1;
	if (!retire)
		result = cmd_versions(os);
	else
	{
		RlBuf		report;
		char	   *err = NULL;

		rlbuf_init(&report);
		if (fdl_retire_version(os, argv[optind + 1], strcmp(command, "expire") == 0 ? FDL_EXPIRE : FDL_WITHDRAW,
							   reason, redact, &report, &err))
			printf("%sversion %s: done\n", rlbuf_cstr(&report), argv[optind + 1]);
		else
		{
			fputs(rlbuf_cstr(&report), stdout);
			result = error(err);
			free(err);
		}
		rlbuf_free(&report);
	}
	obj_close(os);
	return result;
}
