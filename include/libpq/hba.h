/*
 * hba.h: client authentication rules, read from DATADIR/rocklake_hba.conf in
 * pg_hba.conf's syntax:
 *
 *   # TYPE     DATABASE   USER      ADDRESS          METHOD
 *   local      all        all                        trust
 *   host       all        all       127.0.0.1/32     scram-sha-256
 *   hostssl    app,lake   alice     10.0.0.0 255.0.0.0  md5
 *   hostnossl  all        all       all              reject
 *
 * Types local, host, hostssl, hostnossl; database and user lists (all, sameuser,
 * comma-separated names, double-quoted names); addresses as CIDR, address plus
 * mask, or "all"; methods trust, reject, password, md5, scram-sha-256. The first
 * line that matches decides; no match is FATAL 28000. Without the file the server
 * trusts local and loopback connections only (initdb's default with trust).
 */
#ifndef RL_HBA_H
#define RL_HBA_H

#include <stdbool.h>

typedef enum UserAuth
{
	uaReject,
	uaTrust,
	uaPassword,
	uaMD5,
	uaSCRAM
} UserAuth;

typedef struct HbaConnInfo
{
	bool		is_unix;
	bool		ssl;
	const char *remote_host;	/* numeric address for TCP */
	const char *user;
	const char *database;
} HbaConnInfo;

typedef struct HbaRules HbaRules;

/* Parse rules from text; NULL with *errmsg (palloc'd, names the line) on a bad line. */
HbaRules   *hba_parse(const char *text, const char *filename, char **errmsg);
/* Read the file (the built-in default when it does not exist); FATAL if it is bad. */
HbaRules   *hba_load(const char *path);
/* The method of the first matching line; false when no line matches. */
bool		hba_lookup(const HbaRules *rules, const HbaConnInfo *conn, UserAuth *method);
const char *hba_method_name(UserAuth method);

#endif
