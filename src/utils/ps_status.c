/*
 * ps_status.c: the process title (utils/ps_status.h), the way PostgreSQL does it
 * on Linux: ps reads /proc/PID/cmdline, which is the memory the kernel laid the
 * argument strings out in, followed by the environment strings. That area is
 * ours to overwrite once nothing points into it any more: save_ps_display_args
 * copies the environment elsewhere (getenv keeps working) and hands main a copy
 * of argv, and a title is then written over the whole area, the rest of it
 * cleared, so ps shows just the title.
 *
 * A title is one string: "rocklake: " and a fixed part set once per process (who
 * the backend serves), then the activity, rewritten in place at each change
 * while update_process_title is on (a strcpy; no system call).
 */
#include <stdlib.h>
#include <string.h>

#include "utils/guc.h"
#include "utils/ps_status.h"

extern char **environ;

static char *ps_buffer;			/* the area: argv[0] up to the end of the last string */
static size_t ps_buffer_size;
static size_t ps_fixed_size;	/* "rocklake: " and the fixed part */
static size_t ps_last_len;		/* what the last title wrote, to clear no more than that */

/*
 * the environment's copy: setenv() (TimeZone sets TZ) moves environ to an array of
 * its own, and this keeps the copy reachable rather than leaked
 */
static char **volatile ps_environ;	/* volatile: a store nothing reads is kept */

char	  **
save_ps_display_args(int argc, char **argv)
{
	char	   *end_of_area = NULL;
	char	  **new_argv;
	int			n;

	/* the argument strings, then the environment's, back to back */
	for (int i = 0; i < argc; i++)
		if (i == 0 || end_of_area + 1 == argv[i])
			end_of_area = argv[i] + strlen(argv[i]);
	for (n = 0; end_of_area != NULL && environ[n] != NULL; n++)
		if (end_of_area + 1 == environ[n])
			end_of_area = environ[n] + strlen(environ[n]);

	new_argv = malloc(sizeof(char *) * ((size_t) argc + 1));
	char	  **new_environ = malloc(sizeof(char *) * ((size_t) n + 1));

	if (new_argv == NULL || new_environ == NULL || end_of_area == NULL)
		return argv;			/* no title then */
	for (int i = 0; i < n; i++)
		new_environ[i] = strdup(environ[i]);
	new_environ[n] = NULL;
	environ = ps_environ = new_environ;
	for (int i = 0; i < argc; i++)
		new_argv[i] = strdup(argv[i]);
	new_argv[argc] = NULL;

	ps_buffer = argv[0];
	ps_buffer_size = (size_t) (end_of_area - argv[0]);
	ps_last_len = ps_buffer_size;	/* the first title clears the whole area */
	return new_argv;
}

/* put -- text at offset at, cut to the area; the offset after it */
static size_t
put(size_t at, const char *text)
{
	size_t		n = strlen(text);

	if (at >= ps_buffer_size - 1)
		return at;
	if (n > ps_buffer_size - 1 - at)
		n = ps_buffer_size - 1 - at;
	memcpy(ps_buffer + at, text, n);
	return at + n;
}

/* write_title -- the title ends at len: clear what the last one left after it */
static void
write_title(size_t len)
{
	if (ps_last_len > len)
		memset(ps_buffer + len, 0, ps_last_len - len);
	ps_buffer[len] = '\0';
	ps_last_len = len;
}

void
init_ps_display(const char *fixed_part)
{
	if (ps_buffer == NULL || ps_buffer_size < 2)
		return;
	ps_fixed_size = put(put(0, "rocklake: "), fixed_part);
	write_title(ps_fixed_size);
}

void
set_ps_display(const char *activity, bool force)
{
	if (ps_buffer == NULL || ps_fixed_size == 0 || (!force && !GetConfigBool("update_process_title")))
		return;
	write_title(put(activity[0] ? put(ps_fixed_size, " ") : ps_fixed_size, activity));
}
