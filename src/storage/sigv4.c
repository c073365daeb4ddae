/*
 * sigv4.c: AWS Signature Version 4 (header form) with OpenSSL's SHA-256 and
 * HMAC-SHA256, plus the RFC 3986 encoders the canonical request is built from.
 *
 * S3 authenticates every request by recomputing this signature, so any deviation
 * (a header value not trimmed, a query parameter out of order, '+' not encoded in a
 * continuation token) shows up as 403 SignatureDoesNotMatch. The code follows the
 * published algorithm step by step so each step can be compared with AWS's test
 * vectors: canonical request, string to sign, signing key, signature.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "storage/sigv4.h"

#define SIGV4_ALGORITHM "AWS4-HMAC-SHA256"

static const char hex_lower[] = "0123456789abcdef";

static void
hex_encode(const unsigned char *bytes, size_t len, char *out)
{
	for (size_t i = 0; i < len; i++)
	{
		out[2 * i] = hex_lower[bytes[i] >> 4];
		out[2 * i + 1] = hex_lower[bytes[i] & 15];
	}
	out[2 * len] = '\0';
}

void
sigv4_sha256_hex(const void *data, size_t len, char out[SIGV4_SHA256_HEX_LEN + 1])
{
	unsigned char digest[EVP_MAX_MD_SIZE];
	unsigned int digest_len = 0;

	if (EVP_Digest(data, len, digest, &digest_len, EVP_sha256(), NULL) != 1)
		abort();				/* SHA-256 is always available in libcrypto */
	hex_encode(digest, digest_len, out);
}

static void
hmac_sha256(const void *key, size_t key_len, const char *msg, unsigned char out[32])
{
	unsigned int out_len = 0;

	if (HMAC(EVP_sha256(), key, (int) key_len, (const unsigned char *) msg, strlen(msg),
			 out, &out_len) == NULL || out_len != 32)
		abort();
}

static bool
is_unreserved(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		c == '-' || c == '_' || c == '.' || c == '~';
}

void
sigv4_uri_encode(RlBuf *out, const char *s, bool keep_slash)
{
	static const char hex_upper[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *) s; *p; p++)
	{
		if (is_unreserved(*p) || (keep_slash && *p == '/'))
			rlbuf_put_u8(out, *p);
		else
		{
			char		esc[3] = {'%', hex_upper[*p >> 4], hex_upper[*p & 15]};

			rlbuf_append(out, esc, 3);
		}
	}
}

typedef struct EncodedParam
{
	char	   *name;
	char	   *value;
} EncodedParam;

static int
compare_encoded_params(const void *a, const void *b)
{
	const EncodedParam *pa = a;
	const EncodedParam *pb = b;
	int			c = strcmp(pa->name, pb->name);

	return c != 0 ? c : strcmp(pa->value, pb->value);
}

static char *
encode_to_string(const char *s)
{
	RlBuf		buf;

	rlbuf_init(&buf);
	sigv4_uri_encode(&buf, s ? s : "", false);
	rlbuf_cstr(&buf);
	return (char *) rlbuf_steal(&buf, NULL);
}

void
sigv4_canonical_query(RlBuf *out, const SigV4QueryParam *params, int nparams)
{
	EncodedParam *encoded;

	if (nparams <= 0)
		return;
	encoded = calloc((size_t) nparams, sizeof(EncodedParam));
	if (encoded == NULL)
		abort();
	for (int i = 0; i < nparams; i++)
	{
		encoded[i].name = encode_to_string(params[i].name);
		encoded[i].value = encode_to_string(params[i].value);
	}
	qsort(encoded, (size_t) nparams, sizeof(EncodedParam), compare_encoded_params);
	for (int i = 0; i < nparams; i++)
	{
		rlbuf_printf(out, "%s%s=%s", i ? "&" : "", encoded[i].name, encoded[i].value);
		free(encoded[i].name);
		free(encoded[i].value);
	}
	free(encoded);
}

void
sigv4_format_amz_date(int64_t unix_seconds, char out[SIGV4_AMZ_DATE_LEN + 1])
{
	time_t		t = (time_t) unix_seconds;
	struct tm	tm;

	gmtime_r(&t, &tm);
	strftime(out, SIGV4_AMZ_DATE_LEN + 1, "%Y%m%dT%H%M%SZ", &tm);
}

/* One header as it is signed: lower-case name, normalised value, original position. */
typedef struct CanonicalHeader
{
	char	   *name;
	char	   *value;
	int			position;
} CanonicalHeader;

static int
compare_canonical_headers(const void *a, const void *b)
{
	const CanonicalHeader *ha = a;
	const CanonicalHeader *hb = b;
	int			c = strcmp(ha->name, hb->name);

	/* equal names keep their request order: their values are joined in that order */
	return c != 0 ? c : ha->position - hb->position;
}

static char *
lowercase_copy(const char *s)
{
	char	   *copy = strdup(s);

	if (copy == NULL)
		abort();
	for (char *p = copy; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char) (*p - 'A' + 'a');
	return copy;
}

/* Trim leading/trailing whitespace and collapse inner runs to one space. */
static char *
normalise_header_value(const char *s)
{
	RlBuf		buf;
	bool		pending_space = false;

	rlbuf_init(&buf);
	for (; *s; s++)
	{
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		{
			pending_space = buf.len > 0;
			continue;
		}
		if (pending_space)
			rlbuf_put_u8(&buf, ' ');
		pending_space = false;
		rlbuf_put_u8(&buf, (uint8_t) *s);
	}
	rlbuf_cstr(&buf);
	return (char *) rlbuf_steal(&buf, NULL);
}

/*
 * Sorted, normalised headers; duplicates are merged into the first occurrence
 * ("a,b") and their name set to NULL. Returns the array (caller frees with
 * free_canonical_headers).
 */
static CanonicalHeader *
canonicalise_headers(const SigV4Request *req)
{
	CanonicalHeader *hdrs = calloc((size_t) (req->nheaders > 0 ? req->nheaders : 1),
								   sizeof(CanonicalHeader));

	if (hdrs == NULL)
		abort();
	for (int i = 0; i < req->nheaders; i++)
	{
		hdrs[i].name = lowercase_copy(req->headers[i].name);
		hdrs[i].value = normalise_header_value(req->headers[i].value);
		hdrs[i].position = i;
	}
	qsort(hdrs, (size_t) req->nheaders, sizeof(CanonicalHeader), compare_canonical_headers);
	for (int i = 1, first = 0; i < req->nheaders; i++)
	{
		if (strcmp(hdrs[i].name, hdrs[first].name) != 0)
		{
			first = i;
			continue;
		}
		RlBuf		merged;

		rlbuf_init(&merged);
		rlbuf_printf(&merged, "%s,%s", hdrs[first].value, hdrs[i].value);
		rlbuf_cstr(&merged);
		free(hdrs[first].value);
		hdrs[first].value = (char *) rlbuf_steal(&merged, NULL);
		free(hdrs[i].name);
		hdrs[i].name = NULL;
		free(hdrs[i].value);
		hdrs[i].value = NULL;
	}
	return hdrs;
}

static void
free_canonical_headers(CanonicalHeader *hdrs, int n)
{
	for (int i = 0; i < n; i++)
	{
		free(hdrs[i].name);
		free(hdrs[i].value);
	}
	free(hdrs);
}

static void
append_signed_headers(RlBuf *out, const CanonicalHeader *hdrs, int n)
{
	bool		first = true;

	for (int i = 0; i < n; i++)
	{
		if (hdrs[i].name == NULL)
			continue;
		rlbuf_printf(out, "%s%s", first ? "" : ";", hdrs[i].name);
		first = false;
	}
}

void
sigv4_canonical_request(RlBuf *out, const SigV4Request *req)
{
	CanonicalHeader *hdrs = canonicalise_headers(req);

	rlbuf_printf(out, "%s\n%s\n%s\n", req->method, req->canonical_uri,
				 req->canonical_query ? req->canonical_query : "");
	for (int i = 0; i < req->nheaders; i++)
		if (hdrs[i].name)
			rlbuf_printf(out, "%s:%s\n", hdrs[i].name, hdrs[i].value);
	rlbuf_append_str(out, "\n");
	append_signed_headers(out, hdrs, req->nheaders);
	rlbuf_printf(out, "\n%s", req->payload_hash);
	free_canonical_headers(hdrs, req->nheaders);
}

/* "20150830/us-east-1/service/aws4_request" */
static void
append_credential_scope(RlBuf *out, const SigV4Request *req)
{
	rlbuf_printf(out, "%.8s/%s/%s/aws4_request", req->amz_date, req->region, req->service);
}

void
sigv4_string_to_sign(RlBuf *out, const SigV4Request *req)
{
	RlBuf		creq;
	char		creq_hash[SIGV4_SHA256_HEX_LEN + 1];

	rlbuf_init(&creq);
	sigv4_canonical_request(&creq, req);
	sigv4_sha256_hex(creq.data, creq.len, creq_hash);
	rlbuf_free(&creq);

	rlbuf_printf(out, "%s\n%s\n", SIGV4_ALGORITHM, req->amz_date);
	append_credential_scope(out, req);
	rlbuf_printf(out, "\n%s", creq_hash);
}

void
sigv4_authorization(RlBuf *out, const SigV4Request *req,
					char signature_out[SIGV4_SHA256_HEX_LEN + 1])
{
	RlBuf		secret;
	RlBuf		to_sign;
	char		date[9];
	unsigned char date_key[32];
	unsigned char region_key[32];
	unsigned char service_key[32];
	unsigned char key[32];
	unsigned char signature[32];
	char		signature_hex[SIGV4_SHA256_HEX_LEN + 1];
	CanonicalHeader *hdrs;

	/* signing key: HMAC chain over date, region, service, "aws4_request" */
	rlbuf_init(&secret);
	rlbuf_printf(&secret, "AWS4%s", req->secret_key);
	snprintf(date, sizeof(date), "%.8s", req->amz_date);
	hmac_sha256(secret.data, secret.len, date, date_key);
	hmac_sha256(date_key, sizeof(date_key), req->region, region_key);
	hmac_sha256(region_key, sizeof(region_key), req->service, service_key);
	hmac_sha256(service_key, sizeof(service_key), "aws4_request", key);
	OPENSSL_cleanse(secret.data, secret.len);
	rlbuf_free(&secret);

	rlbuf_init(&to_sign);
	sigv4_string_to_sign(&to_sign, req);
	hmac_sha256(key, sizeof(key), rlbuf_cstr(&to_sign), signature);
	rlbuf_free(&to_sign);
	OPENSSL_cleanse(key, sizeof(key));
	hex_encode(signature, sizeof(signature), signature_hex);

	rlbuf_printf(out, "%s Credential=%s/", SIGV4_ALGORITHM, req->access_key);
	append_credential_scope(out, req);
	rlbuf_append_str(out, ", SignedHeaders=");
	hdrs = canonicalise_headers(req);
	append_signed_headers(out, hdrs, req->nheaders);
	free_canonical_headers(hdrs, req->nheaders);
	rlbuf_printf(out, ", Signature=%s", signature_hex);
	if (signature_out)
		memcpy(signature_out, signature_hex, sizeof(signature_hex));
}
