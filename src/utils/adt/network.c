/*
 * network.c: the inet type (an IPv4 or IPv6 host address, optionally with a
 * netmask length), as pg_stat_activity.client_addr and inet_client_addr() give it.
 *
 * A Value holds the text PostgreSQL would print: the address in its canonical form
 * (inet_ntop's), "/bits" only when bits is not the whole address, as PostgreSQL's
 * inet_out. The binary form is PostgreSQL's: family (2 for IPv4, 3 for IPv6), bits,
 * is_cidr (0), the address's length in bytes, then its bytes.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "utils/adt/typio_internal.h"
#include "utils/elog.h"
#include "utils/mcxt.h"

#define PGSQL_AF_INET	(AF_INET + 0)
#define PGSQL_AF_INET6	(AF_INET + 1)

/* inet_format -- the canonical text of an address of family af with bits */
static Value
inet_format(int af, const uint8_t *addr, int bits)
{
	char		text[INET6_ADDRSTRLEN + 8];
	int			maxbits = af == AF_INET ? 32 : 128;

	inet_ntop(af, addr, text, sizeof(text));
	if (bits != maxbits)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "/%d", bits);
	return typio_string(INETOID, text, strlen(text));
}

/* inet_parse -- the family, address bytes and bits of an inet's text; false if it is none */
static bool
inet_parse(const char *str, int *af, uint8_t *addr, int *bits)
{
	char		host[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(str, '/');
	size_t		len = slash ? (size_t) (slash - str) : strlen(str);

	if (len == 0 || len >= sizeof(host))
		return false;
	memcpy(host, str, len);
	host[len] = '\0';
	*af = strchr(host, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(*af, host, addr) != 1)
		return false;
	*bits = *af == AF_INET ? 32 : 128;
	if (slash != NULL)
	{
		char	   *end;
		long		b = strtol(slash + 1, &end, 10);

		if (end == slash + 1 || *end != '\0' || b < 0 || b > *bits)
			return false;
		*bits = (int) b;
	}
	return true;
}

Value
inet_in(const char *str)
{
	uint8_t		addr[16];
	int			af,
				bits;

	if (!inet_parse(skip_space(str), &af, addr, &bits))
		ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for type inet: \"%s\"", str));
	return inet_format(af, addr, bits);
}

void
inet_send(PqMsgBuilder *msg, const char *text)
{
	uint8_t		addr[16];
	int			af,
				bits;

	if (!inet_parse(text, &af, addr, &bits))
		ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for type inet: \"%s\"", text));
	pq_sendbyte(msg, af == AF_INET ? PGSQL_AF_INET : PGSQL_AF_INET6);
	pq_sendbyte(msg, (uint8_t) bits);
	pq_sendbyte(msg, 0);
	pq_sendbyte(msg, af == AF_INET ? 4 : 16);
	pq_sendbytes(msg, addr, af == AF_INET ? 4 : 16);
}

Value
inet_recv(const uint8_t *data, size_t len)
{
	int			af = len >= 4 && data[0] == PGSQL_AF_INET ? AF_INET
		: len >= 4 && data[0] == PGSQL_AF_INET6 ? AF_INET6 : 0;
	size_t		nbytes = af == AF_INET ? 4 : 16;

	if (af == 0)
		ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				errmsg("invalid address family in external \"inet\" value"));
	if (data[1] > nbytes * 8)
		ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				errmsg("invalid bits in external \"inet\" value"));
	if (data[3] != nbytes || len != 4 + nbytes)
		ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				errmsg("invalid length in external \"inet\" value"));
	return inet_format(af, data + 4, data[1]);
}
