/*
 * sigv4.h: AWS Signature Version 4 for header-authenticated requests, and the RFC
 * 3986 encoding rules it depends on.
 *
 * The S3 backend builds each request from a method, an encoded path, a list of
 * query parameters and the headers it sends; this module turns those into the
 * canonical request, the string to sign and the Authorization header value. It is
 * kept apart from the HTTP code so the AWS published test vectors can check it
 * byte for byte without a server.
 */
#ifndef RL_SIGV4_H
#define RL_SIGV4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/rl_buffer.h"

#define SIGV4_SHA256_HEX_LEN 64
#define SIGV4_AMZ_DATE_LEN 16	/* "20150830T123600Z" */

/* SHA-256 of the empty body, the payload hash of GET, HEAD, DELETE and LIST. */
#define SIGV4_EMPTY_PAYLOAD_HASH \
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

typedef struct SigV4Header
{
	const char *name;			/* any case; signed in lower case */
	const char *value;			/* trimmed, inner runs of spaces collapsed */
} SigV4Header;

typedef struct SigV4QueryParam
{
	const char *name;			/* unencoded */
	const char *value;			/* unencoded; NULL or "" for a valueless parameter */
} SigV4QueryParam;

typedef struct SigV4Request
{
	const char *method;
	const char *canonical_uri;	/* already encoded, e.g. from sigv4_uri_encode_path */
	const char *canonical_query;	/* from sigv4_canonical_query, "" if none */
	const SigV4Header *headers; /* every header to sign; must include host and x-amz-date */
	int			nheaders;
	const char *payload_hash;	/* hex SHA-256 of the body, or "UNSIGNED-PAYLOAD" */
	const char *amz_date;		/* the x-amz-date value, yyyymmddThhmmssZ */
	const char *region;
	const char *service;
	const char *access_key;
	const char *secret_key;
} SigV4Request;

/* Lower-case hex SHA-256 of data: SIGV4_SHA256_HEX_LEN characters and a NUL. */
void		sigv4_sha256_hex(const void *data, size_t len, char out[SIGV4_SHA256_HEX_LEN + 1]);

/*
 * Append s percent-encoded per RFC 3986: everything but A-Z a-z 0-9 - _ . ~ becomes
 * %XX (upper-case hex, byte by byte, so UTF-8 is encoded as its bytes). keep_slash
 * leaves '/' alone, which is how S3 wants object paths; query components encode it.
 */
void		sigv4_uri_encode(RlBuf *out, const char *s, bool keep_slash);

/*
 * Append the canonical query string: each name and value encoded, sorted by name
 * then value, joined as "a=1&b=&c=3". The result is also a valid URL query.
 */
void		sigv4_canonical_query(RlBuf *out, const SigV4QueryParam *params, int nparams);

/* Format a Unix time (seconds) as an x-amz-date value. */
void		sigv4_format_amz_date(int64_t unix_seconds, char out[SIGV4_AMZ_DATE_LEN + 1]);

/* Append the canonical request and the string to sign (exposed for the tests). */
void		sigv4_canonical_request(RlBuf *out, const SigV4Request *req);
void		sigv4_string_to_sign(RlBuf *out, const SigV4Request *req);

/*
 * Append the Authorization header value:
 * "AWS4-HMAC-SHA256 Credential=AKID/date/region/service/aws4_request,
 * SignedHeaders=a;b, Signature=hex". signature_out (may be NULL) receives the bare
 * signature.
 */
void		sigv4_authorization(RlBuf *out, const SigV4Request *req,
								char signature_out[SIGV4_SHA256_HEX_LEN + 1]);

#endif
