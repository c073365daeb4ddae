/*
 * hba.c: rocklake_hba.conf (hba.h), a subset of pg_hba.conf with its syntax and
 * its first-match-wins semantics. The file is read by each backend when a client
 * connects, so an edit applies to the next connection without a reload.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rl_buffer.h"
#include "libpq/hba.h"
#include "utils/elog.h"
#include "utils/mcxt.h"

typedef enum ConnType
{
	ctLocal,
	ctHost,
	ctHostSSL,
	ctHostNoSSL
} ConnType;

typedef struct HbaLine
{
	ConnType	conntype;
	char	  **databases;
	int			ndatabases;
	char	  **users;
	int			nusers;
	bool		addr_all;
	int			family;			/* AF_INET or AF_INET6 */
	uint8_t		addr[16];
	uint8_t		mask[16];
	UserAuth	method;
} HbaLine;

struct HbaRules
{
	int			nlines;
	HbaLine    *lines;
};

/* used when the file does not exist: initdb's defaults, with trust */
static const char default_rules[] =
	"local all all trust\n"
	"host all all 127.0.0.1/32 trust\n"
	"host all all ::1/128 trust\n";

static const struct
{
	const char *name;
	UserAuth	method;
}			methods[] = {
	{"reject", uaReject}, {"trust", uaTrust}, {"password", uaPassword},
	{"md5", uaMD5}, {"scram-sha-256", uaSCRAM},
};

const char *
hba_method_name(UserAuth method)
{
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (methods[i].method == method)
			return methods[i].name;
	return "unknown";
}

/* next_token -- a whitespace-separated token; double quotes keep spaces and commas */
static char *
next_token(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (**p == '\0' || **p == '#')
		return NULL;
	RlBuf		tok;
	bool		quoted = false;

	rlbuf_init(&tok);
	for (; **p && (quoted || (**p != ' ' && **p != '\t' && **p != '#')); (*p)++)
	{
		if (**p == '"')
			quoted = !quoted;
		rlbuf_put_u8(&tok, (uint8_t) **p);
	}
	char	   *s = pstrdup(rlbuf_cstr(&tok));

	rlbuf_free(&tok);
	return s;
}

/* split_list -- "a,b,\"C\"" into items; quotes mark a literal name ("all" quoted is a name) */
static char **
split_list(const char *token, int *n)
{
	char	  **items = palloc(sizeof(char *) * (strlen(token) + 1));
	const char *p = token;

	*n = 0;
	while (*p)
	{
		RlBuf		item;
		bool		quoted = *p == '"';

		rlbuf_init(&item);
		if (quoted)
			rlbuf_put_u8(&item, '"');	/* remembered as a literal marker */
		for (; *p && (quoted || *p != ','); p++)
			if (*p == '"')
				quoted = !quoted;
			else
				rlbuf_put_u8(&item, (uint8_t) *p);
		items[(*n)++] = pstrdup(rlbuf_cstr(&item));
		rlbuf_free(&item);
		if (*p == ',')
			p++;
	}
	return items;
}

/* parse_address -- "addr/bits", "addr" + separate mask, or "all" */
static bool
parse_address(HbaLine *line, const char *addr, const char **p)
{
	char	   *copy = pstrdup(addr);
	char	   *slash = strchr(copy, '/');

	if (strcmp(addr, "all") == 0)
	{
		line->addr_all = true;
		return true;
	}
	if (slash)
		*slash = '\0';
	line->family = strchr(copy, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(line->family, copy, line->addr) != 1)
		return false;
	int			maxbits = line->family == AF_INET ? 32 : 128;

	if (slash)
	{
		char	   *end;
		long		bits = strtol(slash + 1, &end, 10);

		if (*end != '\0' || bits < 0 || bits > maxbits)
			return false;
		for (int i = 0; i < bits; i++)
			line->mask[i / 8] |= (uint8_t) (0x80 >> (i % 8));
		return true;
	}
	char	   *mask = next_token(p);

	return mask != NULL && inet_pton(line->family, mask, line->mask) == 1;
}

static bool
parse_line(HbaLine *line, const char *text)
{
	const char *p = text;
	char	   *type = next_token(&p);
	char	   *db = next_token(&p);
	char	   *user = next_token(&p);

	memset(line, 0, sizeof(*line));
	if (type == NULL || db == NULL || user == NULL)
		return false;
	if (strcmp(type, "local") == 0)
		line->conntype = ctLocal;
	else if (strcmp(type, "host") == 0)
		line->conntype = ctHost;
	else if (strcmp(type, "hostssl") == 0)
		line->conntype = ctHostSSL;
	else if (strcmp(type, "hostnossl") == 0)
		line->conntype = ctHostNoSSL;
	else
		return false;
	line->databases = split_list(db, &line->ndatabases);
	line->users = split_list(user, &line->nusers);
	if (line->conntype != ctLocal)
	{
		char	   *addr = next_token(&p);

		if (addr == NULL || !parse_address(line, addr, &p))
			return false;
	}
	char	   *method = next_token(&p);

	if (method == NULL || next_token(&p) != NULL)
		return false;
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (strcmp(methods[i].name, method) == 0)
		{
			line->method = methods[i].method;
			return true;
		}
	return false;
}

HbaRules *
hba_parse(const char *text, const char *filename, char **errmsg)
{
	HbaRules   *rules = palloc0(sizeof(HbaRules));
	int			lineno = 0;

	rules->lines = palloc(sizeof(HbaLine) * (strlen(text) / 8 + 1));
	for (const char *p = text; *p;)
	{
		size_t		len = strcspn(p, "\n");
		char	   *line = pnstrdup(p, len);
		const char *probe = line;

		lineno++;
		p += len + (p[len] == '\n');
		if (len > 0 && line[len - 1] == '\r')
			line[len - 1] = '\0';
		char	   *first = next_token(&probe);

		if (first == NULL)
			continue;
		if (!parse_line(&rules->lines[rules->nlines], line))
		{
			*errmsg = psprintf("invalid line %d of configuration file \"%s\": \"%s\"",
							   lineno, filename, line);
			return NULL;
		}
		rules->nlines++;
	}
	return rules;
}

HbaRules *
hba_load(const char *path)
{
	FILE	   *f = fopen(path, "r");
	char	   *parse_error = NULL;
	HbaRules   *rules;

	if (f == NULL)
	{
		if (errno != ENOENT)
			ereport(FATAL,
					errcode(ERRCODE_CONFIG_FILE_ERROR),
					errmsg("could not open configuration file \"%s\": %s", path, strerror(errno)));
		return hba_parse(default_rules, "(built-in rules)", &parse_error);
	}
	RlBuf		text;
	char		chunk[4096];
	size_t		n;

	rlbuf_init(&text);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		rlbuf_append(&text, chunk, n);
	fclose(f);
	rules = hba_parse(rlbuf_cstr(&text), path, &parse_error);
	rlbuf_free(&text);
	if (rules == NULL)
		ereport(FATAL,
				errcode(ERRCODE_CONFIG_FILE_ERROR),
				errmsg("%s", parse_error),
				errhint("Fix the authentication rules in \"%s\".", path));
	return rules;
}

/* name_matches -- a list entry: all, sameuser (databases), or a name */
static bool
name_matches(char **items, int n, const char *name, const char *user, bool is_db)
{
	for (int i = 0; i < n; i++)
	{
		const char *item = items[i];

		if (item[0] == '"')
		{
			if (strcmp(item + 1, name) == 0)
				return true;
		}
		else if (strcmp(item, "all") == 0 ||
				 (is_db && strcmp(item, "sameuser") == 0 && strcmp(name, user) == 0) ||
				 strcmp(item, name) == 0)
			return true;
	}
	return false;
}

static bool
address_matches(const HbaLine *line, const char *host)
{
	uint8_t		addr[16];

	if (line->addr_all)
		return true;
	if (inet_pton(line->family, host, addr) != 1)
		return false;
	for (int i = 0; i < (line->family == AF_INET ? 4 : 16); i++)
		if ((addr[i] & line->mask[i]) != (line->addr[i] & line->mask[i]))
			return false;
	return true;
}

bool
hba_lookup(const HbaRules *rules, const HbaConnInfo *conn, UserAuth *method)
{
	for (int i = 0; i < rules->nlines; i++)
	{
		const HbaLine *line = &rules->lines[i];

		if (conn->is_unix != (line->conntype == ctLocal))
			continue;
		if ((line->conntype == ctHostSSL && !conn->ssl) ||
			(line->conntype == ctHostNoSSL && conn->ssl))
			continue;
		if (!conn->is_unix && !address_matches(line, conn->remote_host))
			continue;
		if (!name_matches(line->databases, line->ndatabases, conn->database, conn->user, true) ||
			!name_matches(line->users, line->nusers, conn->user, conn->user, false))
			continue;
		*method = line->method;
		return true;
	}
	return false;
}
