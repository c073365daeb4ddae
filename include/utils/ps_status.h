/*
 * ps_status.h: the process title that ps and top show, as PostgreSQL sets it
 * (its ps_status.c): "rocklake: writer", "rocklake: spare backend",
 * "rocklake: USER DATABASE HOST(PORT) ACTIVITY" with ACTIVITY idle, idle in
 * transaction, idle in transaction (aborted) or the command's tag (SELECT, ...).
 * The postmaster keeps its command line, as PostgreSQL's does.
 */
#ifndef RL_PS_STATUS_H
#define RL_PS_STATUS_H

#include <stdbool.h>

/*
 * main() first: takes note of the memory argv and environ occupy (the title is
 * written there) and moves environ elsewhere; returns a copy of argv for main to use.
 */
char	  **save_ps_display_args(int argc, char **argv);
/* A child: "rocklake: " and the fixed part (who it serves), no activity yet. */
void		init_ps_display(const char *fixed_part);
/* The activity after the fixed part; only while update_process_title is on (force: always). */
void		set_ps_display(const char *activity, bool force);

#endif
