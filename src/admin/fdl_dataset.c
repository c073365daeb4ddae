/*
 * fdl_dataset.c: a stand-in for dataset.json's builder (admin/fdl_dataset.h), so
 * that the publisher builds before the real one lands: without --dataset, the
 * database's name as name and title; with it, an error.
 */
#include <stdlib.h>
#include <string.h>

#include "admin/fdl_dataset.h"

json_t *
fdl_dataset_build(const char *dir, const json_t *catalog, char **errmsg)
{
	const char *name = json_string_value(json_object_get(catalog, "database"));

	if (dir != NULL)
	{
		*errmsg = strdup("--dataset is not supported yet");
		return NULL;
	}
	return json_pack("{s:s, s:s}", "name", name ? name : "lake", "title", name ? name : "lake");
}
