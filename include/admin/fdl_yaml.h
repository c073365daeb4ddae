/*
 * fdl_yaml.h: a small, strict reader of the YAML that describes a published
 * version (dataset.yml and *.table.yml, doc/publishing.md), into jansson values.
 *
 * It reads the subset such descriptions need and refuses the rest, naming the
 * file and line, rather than guess: a file it accepts means what any YAML 1.2
 * reader would make of it.
 *
 * Read: block mappings and sequences (by indentation with spaces), a mapping
 * started on a sequence item's line ("- name: x"), a sequence at its key's
 * indentation ("key:" then "- a"); flow sequences [a, b] and mappings {k: v},
 * nested, over several lines; plain, 'single-quoted' and "double-quoted" scalars
 * (each on one line; the double-quoted with YAML's escapes); comments; literal (|)
 * and folded (>) block scalars with their chomping (- +) and indentation (1-9)
 * indicators; one leading "---". Plain scalars resolve as YAML 1.2's core schema:
 * null (~, null, empty), booleans (true, false), integers (decimal, 0o, 0x),
 * floats; anything else, and every quoted scalar, is a string.
 *
 * Refused, with "FILE:LINE: message": anchors, aliases, tags, directives, several
 * documents and "...", complex (?) and flow keys, duplicate keys, tabs in
 * indentation, plain scalars continued on the next line, quoted scalars over
 * several lines, ".inf" and ".nan" (JSON has no such numbers), integers beyond 64
 * bits, text that is not UTF-8, NUL bytes and a carriage return not before a
 * line feed.
 */
#ifndef RL_FDL_YAML_H
#define RL_FDL_YAML_H

#include <stddef.h>

#include <jansson.h>

/*
 * Parse text (len bytes) read from the file named filename (used in messages).
 * Returns the document's value (new reference; json null for a document with no
 * node), or NULL with *errmsg set (malloc'd "FILE:LINE: message").
 */
json_t	   *fdl_yaml_parse(const char *text, size_t len, const char *filename, char **errmsg);

/* fdl_yaml_parse on the file at path; a file that cannot be read is an error too. */
json_t	   *fdl_yaml_load(const char *path, const char *filename, char **errmsg);

#endif
