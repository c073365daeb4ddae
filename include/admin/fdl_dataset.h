/*
 * fdl_dataset.h: dataset.json, the description of a published version
 * (doc/publishing.md, "Describing a version: dataset.json").
 *
 * The author writes dataset.yml (the whole description, its "tables" optional)
 * and, if they like, one <schema.>name.table.yml per table (one "tables" entry
 * each) in a directory; fdl_dataset_build checks them against the frozen catalog
 * and completes them from it:
 *   - only name and title are required; a key FDL 0.1 does not define is refused
 *     (annotations, at the top, per table and per field, are free-form and kept as
 *     written; extensions, their older name, are read as annotations);
 *   - licenses are SPDX ids or {id, spdx, url, title} objects;
 *   - a table or column the catalog does not have is refused, naming it; rows,
 *     type, nullable and kind come from the catalog and may not be written;
 *   - every table at the snapshot is listed, in the catalog's order (undescribed
 *     ones added), with its rows and, per column in the catalog's order, its type
 *     (the DuckLake type name) and nullable; a COMMENT ON text is the description
 *     where the author wrote none;
 *   - views follow the tables with "kind": "view" and the catalog's SQL; their
 *     fields are as the author wrote them, with no type, nullable or rows.
 * A message names the file, and the key within it ("dataset.yml: tables[1].fields[0]:
 * ...") or, for a YAML error, the line (admin/fdl_yaml.h).
 */
#ifndef RL_FDL_DATASET_H
#define RL_FDL_DATASET_H

#include <jansson.h>

/* dir: the --dataset directory (dataset.yml + *.table.yml) or NULL; catalog:
 * {"tables":[{"schema":"main","name":"t","rows":N,"comment":str|null,"columns":[{"name":..,
 * "type":<DuckLake type name>,"nullable":bool,"comment":str|null}]}],
 * "views":[{"schema":..,"name":..,"sql":..,"comment":..}]}
 * Returns the dataset.json object (new ref) or NULL with *errmsg (malloc'd, user-facing).
 * dir NULL: {name, title} = the database name passed as catalog's "database" key. */
json_t	   *fdl_dataset_build(const char *dir, const json_t *catalog, char **errmsg);

#endif
