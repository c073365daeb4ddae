/*
 * objstore_s3.c: the S3 object-store backend, over libcurl with SigV4 signing.
 *
 * Fencing rests on S3's conditional writes, so this file is mostly about getting
 * their edge cases right: If-None-Match / If-Match are sent as the interface asks;
 * 409, 5xx and network errors are retried with jittered exponential backoff; every
 * 412 is checked against the random put id we stored in x-amz-meta-putid (if the
 * object carries our id, an attempt whose answer was lost landed and the write
 * succeeded; libcurl may have made that attempt on its own, on a kept-alive
 * connection that died, so it is not enough to check after the attempts we saw
 * fail); a 403 RequestTimeTooSkewed
 * corrects the clock from the server's Date header. One curl easy handle per store
 * keeps the connection alive between requests. ListObjectsV2 responses are
 * scanned with a small hand-written XML reader: the schema is fixed and flat.
 */
#define _GNU_SOURCE				/* memmem, strptime, timegm */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>

#include "common/ulid.h"
#include "storage/objstore.h"
#include "storage/sigv4.h"

#define S3_DEFAULT_REGION "us-east-1"
#define S3_DEFAULT_MAX_ATTEMPTS 6
#define S3_DEFAULT_BASE_BACKOFF_MS 100
#define S3_DEFAULT_MAX_BACKOFF_MS 2000
#define S3_CONNECT_TIMEOUT_MS 3000
#define S3_LOW_SPEED_BYTES 1024 /* abort a transfer slower than this ... */
#define S3_LOW_SPEED_SECONDS 10 /* ... for this long */
#define S3_PUTID_BYTES 16
#define S3_PUTID_HEADER "x-amz-meta-putid"

typedef struct S3Store
{
	ObjectStore base;
	S3Config	cfg;			/* own copy; defaults applied, prefix "" or ending in '/' */
	char	   *origin;			/* "scheme://host[:port]" of every request */
	char	   *host;			/* the Host header, which is signed */
	char	   *bucket_path;	/* "/bucket" for path-style addressing, "" otherwise */
	CURL	   *curl;			/* reused, so the connection is kept alive */
	pthread_mutex_t lock;		/* serialises use of curl and clock_offset_ms */
	int64_t		clock_offset_ms;	/* server clock minus ours */
	unsigned	jitter_seed;
	char		curl_error[CURL_ERROR_SIZE];
} S3Store;

typedef struct S3Request
{
	const char *method;			/* GET, HEAD, PUT or DELETE */
	const char *key;			/* key below the store prefix; NULL addresses the bucket */
	const SigV4QueryParam *query;
	int			nquery;
	const void *body;			/* PUT only */
	size_t		body_len;
	const char *payload_hash;	/* hex SHA-256 of body; NULL for an empty body */
	const char *range;			/* Range header value, or NULL */
	const char *if_none_match;
	const char *if_match;
	const char *putid;			/* x-amz-meta-putid, or NULL */
	RlBuf	   *body_out;		/* the response body is appended here */
} S3Request;

typedef struct S3Response
{
	CURLcode	curl_code;
	long		http_status;	/* 0 if no response arrived */
	size_t		body_start;		/* this response's body starts here in body_out */
	uint64_t	content_length;
	bool		has_content_length;
	char		etag[OBJ_ETAG_MAX];
	char		putid[2 * S3_PUTID_BYTES + 1];
	char		date[64];
	char		last_modified[64];
	char		content_range[96];
} S3Response;

/* What to do after one attempt. */
typedef enum S3Verdict
{
	S3_FINAL,					/* hand the response to the caller */
	S3_RETRY_LATER,				/* transient: back off, then retry */
	S3_RETRY_NOW				/* clock corrected: re-sign and retry at once */
} S3Verdict;

typedef struct UploadCursor
{
	const uint8_t *data;
	size_t		len;
	size_t		pos;
} UploadCursor;

/* ---------------------------------------------------------------------------
 * Minimal XML reading: S3 responses are flat and fixed, so finding an element by
 * its literal open and close tags and decoding entities and CDATA is enough.
 * ------------------------------------------------------------------------- */

/* Find the content of the first <tag>...</tag> in [p, end). */
static bool
xml_find_element(const char *p, const char *end, const char *tag,
				 const char **content, const char **content_end)
{
	char		open[64];
	char		close[64];
	const char *start;
	const char *stop;

	snprintf(open, sizeof(open), "<%s>", tag);
	snprintf(close, sizeof(close), "</%s>", tag);
	start = memmem(p, (size_t) (end - p), open, strlen(open));
	if (start == NULL)
		return false;
	start += strlen(open);
	stop = memmem(start, (size_t) (end - start), close, strlen(close));
	if (stop == NULL)
		return false;
	*content = start;
	*content_end = stop;
	return true;
}

/* Append the text in [p, end) with entities and CDATA sections decoded. */
static void
xml_decode_text(RlBuf *out, const char *p, const char *end)
{
	static const struct
	{
		const char *entity;
		char		ch;
	}			named[] = {
		{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}
	};

	while (p < end)
	{
		size_t		left = (size_t) (end - p);
		bool		decoded = false;

		if (left >= 9 && memcmp(p, "<![CDATA[", 9) == 0)
		{
			const char *stop = memmem(p + 9, left - 9, "]]>", 3);

			if (stop == NULL)
				stop = end;
			rlbuf_append(out, p + 9, (size_t) (stop - (p + 9)));
			p = stop < end ? stop + 3 : end;
			continue;
		}
		if (*p == '&' && left >= 3 && p[1] == '#')
		{
			char	   *num_end;
			bool		hex = p[2] == 'x' || p[2] == 'X';
			unsigned long cp = strtoul(p + (hex ? 3 : 2), &num_end, hex ? 16 : 10);

			if (num_end < end && *num_end == ';' && cp <= 0x10FFFF)
			{
				rlbuf_put_utf8(out, cp);
				p = num_end + 1;
				continue;
			}
		}
		for (size_t i = 0; *p == '&' && i < sizeof(named) / sizeof(named[0]); i++)
		{
			size_t		n = strlen(named[i].entity);

			if (left >= n && memcmp(p, named[i].entity, n) == 0)
			{
				rlbuf_put_u8(out, (uint8_t) named[i].ch);
				p += n;
				decoded = true;
				break;
			}
		}
		if (!decoded)
			rlbuf_put_u8(out, (uint8_t) *p++);
	}
}

/* The decoded text of <tag> in [p, end) as a new string, or NULL if absent. */
static char *
xml_element_string(const char *p, const char *end, const char *tag)
{
	const char *content;
	const char *content_end;
	RlBuf		buf;

	if (!xml_find_element(p, end, tag, &content, &content_end))
		return NULL;
	rlbuf_init(&buf);
	xml_decode_text(&buf, content, content_end);
	rlbuf_cstr(&buf);
	return (char *) rlbuf_steal(&buf, NULL);
}

/* "2009-10-12T17:50:30.000Z" in milliseconds since the epoch; 0 if malformed. */
static int64_t
parse_iso8601_ms(const char *s)
{
	struct tm	tm;
	int			millis = 0;
	int			n;

	memset(&tm, 0, sizeof(tm));
	n = sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &millis);
	if (n < 6)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (int64_t) timegm(&tm) * 1000 + (n == 7 ? millis : 0);
}

/* An HTTP date ("Sun, 06 Nov 1994 08:49:37 GMT") in milliseconds; -1 if malformed. */
static int64_t
parse_http_date_ms(const char *s)
{
	struct tm	tm;

	memset(&tm, 0, sizeof(tm));
	if (strptime(s, "%a, %d %b %Y %H:%M:%S", &tm) == NULL)
		return -1;
	return (int64_t) timegm(&tm) * 1000;
}

void
s3_list_page_free(S3ListPage *page)
{
	for (int i = 0; i < page->nitems; i++)
		free((char *) page->items[i].key);
	free(page->items);
	free(page->next_token);
	memset(page, 0, sizeof(*page));
}

RlStatus
s3_parse_list_page(const char *xml, size_t len, S3ListPage *page)
{
	const char *end = xml + len;
	const char *p;
	const char *content;
	const char *content_end;
	int			cap = 0;
	char	   *truncated;

	memset(page, 0, sizeof(*page));
	if (memmem(xml, len, "<ListBucketResult", 17) == NULL)
		return rl_error(RL_CORRUPT, "S3 LIST response is not a ListBucketResult: %.200s", xml);
	for (p = xml; xml_find_element(p, end, "Contents", &content, &content_end);
		 p = content_end)
	{
		ObjInfo    *info;
		char	   *field;

		if (page->nitems == cap)
		{
			cap = cap ? cap * 2 : 64;
			page->items = realloc(page->items, (size_t) cap * sizeof(ObjInfo));
			if (page->items == NULL)
				abort();
		}
		info = &page->items[page->nitems];
		memset(info, 0, sizeof(*info));
		info->key = xml_element_string(content, content_end, "Key");
		if (info->key == NULL)
		{
			s3_list_page_free(page);
			return rl_error(RL_CORRUPT, "S3 LIST response has a Contents entry without a Key");
		}
		page->nitems++;
		if ((field = xml_element_string(content, content_end, "Size")) != NULL)
			info->size = strtoull(field, NULL, 10);
		free(field);
		if ((field = xml_element_string(content, content_end, "LastModified")) != NULL)
			info->mtime_ms = parse_iso8601_ms(field);
		free(field);
		if ((field = xml_element_string(content, content_end, "ETag")) != NULL)
			snprintf(info->etag, sizeof(info->etag), "%s", field);
		free(field);
	}
	truncated = xml_element_string(xml, end, "IsTruncated");
	page->truncated = truncated != NULL && strcmp(truncated, "true") == 0;
	free(truncated);
	page->next_token = xml_element_string(xml, end, "NextContinuationToken");
	if (page->next_token != NULL && page->next_token[0] == '\0')
	{
		free(page->next_token);
		page->next_token = NULL;
	}
	return RL_OK;
}

/* ---------------------------------------------------------------------------
 * One HTTP exchange
 * ------------------------------------------------------------------------- */

static size_t
on_body(char *ptr, size_t size, size_t nmemb, void *arg)
{
	rlbuf_append((RlBuf *) arg, ptr, size * nmemb);
	return size * nmemb;
}

static size_t
on_upload_read(char *ptr, size_t size, size_t nmemb, void *arg)
{
	UploadCursor *cur = arg;
	size_t		n = cur->len - cur->pos;

	if (n > size * nmemb)
		n = size * nmemb;
	memcpy(ptr, cur->data + cur->pos, n);
	cur->pos += n;
	return n;
}

static int
on_upload_seek(void *arg, curl_off_t offset, int origin)
{
	UploadCursor *cur = arg;

	if (origin != SEEK_SET || offset < 0 || (uint64_t) offset > cur->len)
		return CURL_SEEKFUNC_CANTSEEK;
	cur->pos = (size_t) offset;
	return CURL_SEEKFUNC_OK;
}

/* Copy a header value (trimmed) into a fixed field. */
static void
copy_header_value(char *dst, size_t dstlen, const char *value, size_t len)
{
	while (len > 0 && (*value == ' ' || *value == '\t'))
		value++, len--;
	while (len > 0 && (value[len - 1] == '\r' || value[len - 1] == '\n' ||
					   value[len - 1] == ' '))
		len--;
	snprintf(dst, dstlen, "%.*s", (int) len, value);
}

static size_t
on_header(char *line, size_t size, size_t nitems, void *arg)
{
	S3Response *resp = arg;
	size_t		len = size * nitems;
	const char *colon = memchr(line, ':', len);
	size_t		name_len;
	const char *value;
	size_t		value_len;
	char		number[32];

	if (len >= 5 && memcmp(line, "HTTP/", 5) == 0)
	{
		/* a new response (after 100 Continue, say): forget the previous headers */
		resp->has_content_length = false;
		resp->etag[0] = resp->putid[0] = resp->date[0] = '\0';
		resp->last_modified[0] = resp->content_range[0] = '\0';
		return len;
	}
	if (colon == NULL)
		return len;
	name_len = (size_t) (colon - line);
	value = colon + 1;
	value_len = len - name_len - 1;
#define HEADER_IS(name) (name_len == strlen(name) && strncasecmp(line, name, name_len) == 0)
	if (HEADER_IS("ETag"))
		copy_header_value(resp->etag, sizeof(resp->etag), value, value_len);
	else if (HEADER_IS(S3_PUTID_HEADER))
		copy_header_value(resp->putid, sizeof(resp->putid), value, value_len);
	else if (HEADER_IS("Date"))
		copy_header_value(resp->date, sizeof(resp->date), value, value_len);
	else if (HEADER_IS("Last-Modified"))
		copy_header_value(resp->last_modified, sizeof(resp->last_modified), value, value_len);
	else if (HEADER_IS("Content-Range"))
		copy_header_value(resp->content_range, sizeof(resp->content_range), value, value_len);
	else if (HEADER_IS("Content-Length"))
	{
		copy_header_value(number, sizeof(number), value, value_len);
		resp->content_length = strtoull(number, NULL, 10);
		resp->has_content_length = true;
	}
#undef HEADER_IS
	return len;
}

/* The encoded request path: bucket part, then the store prefix and key. */
static void
append_request_path(RlBuf *out, const S3Store *s, const char *key)
{
	rlbuf_printf(out, "%s/", s->bucket_path);
	if (key == NULL)
		return;
	sigv4_uri_encode(out, s->cfg.prefix, true);
	sigv4_uri_encode(out, key, true);
}

/* Build, sign and send one request; fills resp. Called with s->lock held. */
static void
s3_perform(S3Store *s, const S3Request *req, S3Response *resp)
{
	RlBuf		path;
	RlBuf		query;
	RlBuf		url;
	RlBuf		auth;
	RlBuf		line;
	char		amz_date[SIGV4_AMZ_DATE_LEN + 1];
	const char *payload_hash = req->payload_hash ? req->payload_hash : SIGV4_EMPTY_PAYLOAD_HASH;
	SigV4Header headers[8];
	int			nheaders = 0;
	SigV4Request sig;
	struct curl_slist *header_list = NULL;
	UploadCursor upload = {req->body, req->body_len, 0};
	CURL	   *c = s->curl;

	rlbuf_init(&path);
	rlbuf_init(&query);
	rlbuf_init(&url);
	rlbuf_init(&auth);
	rlbuf_init(&line);
	append_request_path(&path, s, req->key);
	sigv4_canonical_query(&query, req->query, req->nquery);
	rlbuf_printf(&url, "%s%s%s%s", s->origin, rlbuf_cstr(&path),
				 query.len ? "?" : "", rlbuf_cstr(&query));
	sigv4_format_amz_date((rl_now_ms() + s->clock_offset_ms) / 1000, amz_date);

	headers[nheaders++] = (SigV4Header) {"Host", s->host};
	headers[nheaders++] = (SigV4Header) {"x-amz-date", amz_date};
	headers[nheaders++] = (SigV4Header) {"x-amz-content-sha256", payload_hash};
	if (req->range)
		headers[nheaders++] = (SigV4Header) {"Range", req->range};
	if (req->if_none_match)
		headers[nheaders++] = (SigV4Header) {"If-None-Match", req->if_none_match};
	if (req->if_match)
		headers[nheaders++] = (SigV4Header) {"If-Match", req->if_match};
	if (req->putid)
		headers[nheaders++] = (SigV4Header) {S3_PUTID_HEADER, req->putid};
	if (s->cfg.session_token)
		headers[nheaders++] = (SigV4Header) {"x-amz-security-token", s->cfg.session_token};

	sig = (SigV4Request) {
		.method = req->method,
		.canonical_uri = rlbuf_cstr(&path),
		.canonical_query = rlbuf_cstr(&query),
		.headers = headers,
		.nheaders = nheaders,
		.payload_hash = payload_hash,
		.amz_date = amz_date,
		.region = s->cfg.region,
		.service = "s3",
		.access_key = s->cfg.access_key,
		.secret_key = s->cfg.secret_key,
	};
	rlbuf_append_str(&auth, "Authorization: ");
	sigv4_authorization(&auth, &sig, NULL);
	header_list = curl_slist_append(header_list, rlbuf_cstr(&auth));
	for (int i = 0; i < nheaders; i++)
	{
		rlbuf_reset(&line);
		rlbuf_printf(&line, "%s: %s", headers[i].name, headers[i].value);
		header_list = curl_slist_append(header_list, rlbuf_cstr(&line));
	}
	/* no 100-continue round trip: our objects are small */
	header_list = curl_slist_append(header_list, "Expect:");

	memset(resp, 0, sizeof(*resp));
	resp->body_start = req->body_out->len;
	s->curl_error[0] = '\0';
	curl_easy_reset(c);
	curl_easy_setopt(c, CURLOPT_URL, rlbuf_cstr(&url));
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, header_list);
	curl_easy_setopt(c, CURLOPT_PATH_AS_IS, 1L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long) S3_CONNECT_TIMEOUT_MS);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, (long) S3_LOW_SPEED_BYTES);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (long) S3_LOW_SPEED_SECONDS);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, s->curl_error);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, resp);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, req->body_out);
	if (strcmp(req->method, "HEAD") == 0)
		curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
	else if (strcmp(req->method, "PUT") == 0)
	{
		curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(c, CURLOPT_READFUNCTION, on_upload_read);
		curl_easy_setopt(c, CURLOPT_READDATA, &upload);
		curl_easy_setopt(c, CURLOPT_SEEKFUNCTION, on_upload_seek);
		curl_easy_setopt(c, CURLOPT_SEEKDATA, &upload);
		curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t) req->body_len);
	}
	else if (strcmp(req->method, "GET") != 0)
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, req->method);

	resp->curl_code = curl_easy_perform(c);
	if (resp->curl_code == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &resp->http_status);

	curl_slist_free_all(header_list);
	rlbuf_free(&path);
	rlbuf_free(&query);
	rlbuf_free(&url);
	rlbuf_free(&auth);
	rlbuf_free(&line);
}

/* ---------------------------------------------------------------------------
 * Retries and status mapping
 * ------------------------------------------------------------------------- */

/* The S3 error Code of a failed response ("" if none) and a one-line description. */
static void
describe_response(S3Store *s, const S3Request *req, const S3Response *resp,
				  char *code, size_t code_len, char *text, size_t text_len)
{
	char	   *err_code = NULL;
	char	   *err_message = NULL;

	code[0] = '\0';
	if (resp->curl_code != CURLE_OK)
	{
		snprintf(text, text_len, "%s (curl error %d)",
				 s->curl_error[0] ? s->curl_error : curl_easy_strerror(resp->curl_code),
				 (int) resp->curl_code);
		return;
	}
	if (req->body_out->len > resp->body_start)
	{
		const char *body = (const char *) req->body_out->data + resp->body_start;
		const char *end = (const char *) req->body_out->data + req->body_out->len;

		err_code = xml_element_string(body, end, "Code");
		err_message = xml_element_string(body, end, "Message");
	}
	snprintf(code, code_len, "%s", err_code ? err_code : "");
	snprintf(text, text_len, "HTTP %ld%s%s%s%s", resp->http_status,
			 err_code ? " " : "", err_code ? err_code : "",
			 err_message ? ": " : "", err_message ? err_message : "");
	free(err_code);
	free(err_message);
}

static bool
http_success(long status)
{
	return status >= 200 && status < 300;
}

/*
 * Decide whether an attempt is final. *maybe_applied is set when a mutation may
 * have been carried out although we did not get its answer.
 */
static S3Verdict
judge_attempt(S3Store *s, const S3Request *req, const S3Response *resp,
			  const char *code, bool *maybe_applied)
{
	bool		mutation = strcmp(req->method, "PUT") == 0 || strcmp(req->method, "DELETE") == 0;

	if (resp->curl_code != CURLE_OK)
	{
		/* failing to connect means nothing was sent; anything later is ambiguous */
		if (mutation && resp->curl_code != CURLE_COULDNT_CONNECT &&
			resp->curl_code != CURLE_COULDNT_RESOLVE_HOST &&
			resp->curl_code != CURLE_COULDNT_RESOLVE_PROXY)
			*maybe_applied = true;
		return S3_RETRY_LATER;
	}
	if (resp->http_status >= 500 && resp->http_status != 501)
	{
		if (mutation)
			*maybe_applied = true;
		return S3_RETRY_LATER;
	}
	if (resp->http_status == 409 ||
		(resp->http_status == 400 && strcmp(code, "RequestTimeout") == 0))
		return S3_RETRY_LATER;
	if (resp->http_status == 403 && strcmp(code, "RequestTimeTooSkewed") == 0)
	{
		int64_t		server_ms = parse_http_date_ms(resp->date);

		if (server_ms < 0)
			return S3_FINAL;
		s->clock_offset_ms = server_ms - rl_now_ms();
		return S3_RETRY_NOW;
	}
	/* a body shorter than announced (curl usually reports this itself) */
	if (http_success(resp->http_status) && strcmp(req->method, "GET") == 0 &&
		resp->has_content_length &&
		req->body_out->len - resp->body_start != resp->content_length)
		return S3_RETRY_LATER;
	return S3_FINAL;
}

static void
sleep_backoff(S3Store *s, int attempt)
{
	int64_t		cap = s->cfg.base_backoff_ms;
	int64_t		delay;
	struct timespec ts;

	for (int i = 1; i < attempt && cap < s->cfg.max_backoff_ms; i++)
		cap *= 2;
	if (cap > s->cfg.max_backoff_ms)
		cap = s->cfg.max_backoff_ms;
	/* half fixed, half random: retries spread out but never hammer */
	delay = cap / 2 + (int64_t) (rand_r(&s->jitter_seed) % (cap / 2 + 1));
	ts.tv_sec = (time_t) (delay / 1000);
	ts.tv_nsec = (long) (delay % 1000) * 1000000L;
	nanosleep(&ts, NULL);
}

static RlStatus
status_for_http(long http_status, const char *code)
{
	switch (http_status)
	{
		case 404:
			/* a missing bucket is a configuration error, not an absent object */
			return strcmp(code, "NoSuchBucket") == 0 ? RL_INVALID : RL_NOT_FOUND;
		case 412:
			return RL_PRECONDITION;
		case 400:
		case 416:
			return RL_INVALID;
		case 501:
			return RL_UNSUPPORTED_BACKEND;
		default:
			return RL_IO_ERROR;
	}
}

/*
 * Run a request to completion: retry transient failures up to max_attempts, and
 * map the final answer to a status (2xx: RL_OK). On failure the error body is
 * removed from req->body_out. *maybe_applied reports an attempt with unknown outcome.
 */
static RlStatus
s3_execute(S3Store *s, const S3Request *req, S3Response *resp, bool *maybe_applied)
{
	size_t		mark = req->body_out->len;
	char		code[64];
	char		text[512];
	RlStatus	st;

	*maybe_applied = false;
	for (int attempt = 1;; attempt++)
	{
		S3Verdict	verdict;

		req->body_out->len = mark;
		pthread_mutex_lock(&s->lock);
		s3_perform(s, req, resp);
		describe_response(s, req, resp, code, sizeof(code), text, sizeof(text));
		verdict = judge_attempt(s, req, resp, code, maybe_applied);
		pthread_mutex_unlock(&s->lock);
		if (verdict == S3_FINAL)
			break;
		if (attempt >= s->cfg.max_attempts)
		{
			req->body_out->len = mark;
			return rl_error(RL_UNAVAILABLE, "S3 %s %s in %s: gave up after %d attempts%s: %s",
							req->method, req->key ? req->key : "(bucket)",
							s->base.description, attempt,
							*maybe_applied ? " (the write may have been applied)" : "",
							text);
		}
		STORAGE_COUNT(s3_retries, 1);
		if (verdict == S3_RETRY_LATER)
			sleep_backoff(s, attempt);
	}
	if (http_success(resp->http_status))
		return RL_OK;
	req->body_out->len = mark;
	st = status_for_http(resp->http_status, code);
	return rl_error(st, "S3 %s %s in %s: %s", req->method,
					req->key ? req->key : "(bucket)", s->base.description, text);
}

/* ---------------------------------------------------------------------------
 * The ObjectStore operations
 * ------------------------------------------------------------------------- */

static RlStatus
check_key(const char *key)
{
	if (key == NULL || key[0] == '\0')
		return rl_error(RL_INVALID, "S3: empty object key");
	return RL_OK;
}

/* HEAD a key; resp keeps the headers (etag, putid, size). */
static RlStatus
s3_head_response(S3Store *s, const char *key, S3Response *resp)
{
	RlBuf		scratch;
	bool		maybe_applied;
	S3Request	req = {.method = "HEAD", .key = key, .body_out = &scratch};
	RlStatus	st;

	rlbuf_init(&scratch);
	st = s3_execute(s, &req, resp, &maybe_applied);
	rlbuf_free(&scratch);
	return st;
}

static RlStatus
s3_head(ObjectStore *os, const char *key, ObjInfo *info)
{
	S3Store    *s = (S3Store *) os;
	S3Response	resp;
	RlStatus	st;

	if ((st = check_key(key)) != RL_OK)
		return st;
	st = s3_head_response(s, key, &resp);
	if (st != RL_OK)
		return st;
	memset(info, 0, sizeof(*info));
	info->key = key;
	info->size = resp.content_length;
	info->mtime_ms = parse_http_date_ms(resp.last_modified);
	if (info->mtime_ms < 0)
		info->mtime_ms = 0;
	snprintf(info->etag, sizeof(info->etag), "%s", resp.etag);
	return RL_OK;
}

/*
 * A range S3 refused (416) starts at or past the end. Starting exactly at the end
 * reads nothing, as a local file would; starting beyond it is RL_INVALID.
 */
static RlStatus
s3_get_unsatisfiable_range(S3Store *s, const char *key, uint64_t offset)
{
	char		saved[512];
	S3Response	resp;
	RlStatus	st;

	snprintf(saved, sizeof(saved), "%s", rl_last_error());
	st = s3_head_response(s, key, &resp);
	if (st != RL_OK)
		return st;
	if (offset <= resp.content_length)
		return RL_OK;
	return rl_error(RL_INVALID, "%s (object size %llu)", saved,
					(unsigned long long) resp.content_length);
}

static RlStatus
s3_get(ObjectStore *os, const char *key, uint64_t offset, uint64_t len, RlBuf *out)
{
	S3Store    *s = (S3Store *) os;
	char		range[64];
	bool		ranged = !(offset == 0 && len == OBJ_TO_END);
	bool		maybe_applied;
	size_t		mark = out->len;
	S3Request	req = {.method = "GET", .key = key, .body_out = out};
	S3Response	resp;
	uint64_t	got;
	RlStatus	st;

	if ((st = check_key(key)) != RL_OK)
		return st;
	if (len == 0)
	{
		ObjInfo		info;

		return s3_head(os, key, &info);
	}
	if (len == OBJ_TO_END || len - 1 > UINT64_MAX - offset)
		snprintf(range, sizeof(range), "bytes=%llu-", (unsigned long long) offset);
	else
		snprintf(range, sizeof(range), "bytes=%llu-%llu", (unsigned long long) offset,
				 (unsigned long long) (offset + len - 1));
	if (ranged)
		req.range = range;

	st = s3_execute(s, &req, &resp, &maybe_applied);
	if (st == RL_INVALID && resp.http_status == 416)
		return s3_get_unsatisfiable_range(s, key, offset);
	if (st != RL_OK)
		return st;

	got = out->len - mark;
	if (ranged && resp.http_status == 200)
	{
		/* the server ignored Range and sent the whole object: cut it ourselves */
		uint64_t	start = offset < got ? offset : got;

		memmove(out->data + mark, out->data + mark + start, (size_t) (got - start));
		got -= start;
		out->len = mark + (size_t) got;
	}
	if (len != OBJ_TO_END && got > len)
		out->len = mark + (size_t) len;
	return RL_OK;
}

static RlStatus
s3_put(ObjectStore *os, const char *key, const void *data, size_t len,
	   ObjPutMode mode, const char *if_match_etag, char *etag_out)
{
	S3Store    *s = (S3Store *) os;
	char		putid[2 * S3_PUTID_BYTES + 1];
	char		payload_hash[SIGV4_SHA256_HEX_LEN + 1];
	RlBuf		scratch;
	S3Request	req = {
		.method = "PUT", .key = key, .body = data, .body_len = len,
		.payload_hash = payload_hash, .putid = putid, .body_out = &scratch,
	};
	S3Response	resp;
	bool		maybe_applied;
	RlStatus	st;

	if ((st = check_key(key)) != RL_OK)
		return st;
	if (mode == OBJ_PUT_IF_MATCH && (if_match_etag == NULL || if_match_etag[0] == '\0'))
		return rl_error(RL_INVALID, "S3 PUT %s: IF_MATCH without an etag", key);
	if (mode == OBJ_PUT_IF_NONE_MATCH)
		req.if_none_match = "*";
	else if (mode == OBJ_PUT_IF_MATCH)
		req.if_match = if_match_etag;
	rl_random_hex(putid, S3_PUTID_BYTES);
	sigv4_sha256_hex(data, len, payload_hash);

	rlbuf_init(&scratch);
	st = s3_execute(s, &req, &resp, &maybe_applied);
	rlbuf_free(&scratch);
	if (st == RL_PRECONDITION)
	{
		/*
		 * An earlier attempt may have landed and made this one fail: is it ours? Not
		 * only after an attempt we saw fail: libcurl itself sends a request again on
		 * a new connection when a kept-alive one dies before any byte of the answer,
		 * so the one attempt we see may already be the second.
		 */
		char		saved[512];
		S3Response	head;

		snprintf(saved, sizeof(saved), "%s", rl_last_error());
		if (s3_head_response(s, key, &head) == RL_OK && strcmp(head.putid, putid) == 0)
		{
			memcpy(resp.etag, head.etag, sizeof(resp.etag));
			st = RL_OK;
		}
		else
			rl_error(RL_PRECONDITION, "%s", saved);
	}
	if (st == RL_OK && etag_out)
		memcpy(etag_out, resp.etag, OBJ_ETAG_MAX);
	return st;
}

static RlStatus
s3_del(ObjectStore *os, const char *key)
{
	S3Store    *s = (S3Store *) os;
	RlBuf		scratch;
	S3Request	req = {.method = "DELETE", .key = key, .body_out = &scratch};
	S3Response	resp;
	bool		maybe_applied;
	RlStatus	st;

	if ((st = check_key(key)) != RL_OK)
		return st;
	rlbuf_init(&scratch);
	st = s3_execute(s, &req, &resp, &maybe_applied);
	rlbuf_free(&scratch);
	return st == RL_NOT_FOUND ? RL_OK : st;
}

static RlStatus
s3_list(ObjectStore *os, const char *prefix, const char *start_after, ObjListFn fn, void *arg)
{
	S3Store    *s = (S3Store *) os;
	size_t		strip = strlen(s->cfg.prefix);
	RlBuf		full_prefix;
	RlBuf		full_start;
	RlBuf		body;
	char		max_keys[16];
	char	   *token = NULL;
	bool		more = true;
	RlStatus	st = RL_OK;

	rlbuf_init(&full_prefix);
	rlbuf_init(&full_start);
	rlbuf_init(&body);
	rlbuf_printf(&full_prefix, "%s%s", s->cfg.prefix, prefix ? prefix : "");
	if (start_after)
		rlbuf_printf(&full_start, "%s%s", s->cfg.prefix, start_after);
	snprintf(max_keys, sizeof(max_keys), "%d", s->cfg.list_page_size);

	while (more && st == RL_OK)
	{
		SigV4QueryParam params[5];
		int			nparams = 0;
		S3Request	req = {.method = "GET", .key = NULL, .query = params, .body_out = &body};
		S3Response	resp;
		S3ListPage	page;
		bool		maybe_applied;

		params[nparams++] = (SigV4QueryParam) {"list-type", "2"};
		params[nparams++] = (SigV4QueryParam) {"prefix", rlbuf_cstr(&full_prefix)};
		if (start_after)
			params[nparams++] = (SigV4QueryParam) {"start-after", rlbuf_cstr(&full_start)};
		if (token)
			params[nparams++] = (SigV4QueryParam) {"continuation-token", token};
		if (s->cfg.list_page_size > 0)
			params[nparams++] = (SigV4QueryParam) {"max-keys", max_keys};
		req.nquery = nparams;

		rlbuf_reset(&body);
		st = s3_execute(s, &req, &resp, &maybe_applied);
		if (st != RL_OK)
			break;
		st = s3_parse_list_page((const char *) body.data, body.len, &page);
		if (st != RL_OK)
			break;
		for (int i = 0; i < page.nitems && more; i++)
		{
			ObjInfo		info = page.items[i];

			if (strncmp(info.key, s->cfg.prefix, strip) != 0)
				continue;		/* cannot happen: we asked for keys under the prefix */
			info.key += strip;
			more = fn(&info, arg);
		}
		free(token);
		token = page.next_token;
		page.next_token = NULL;
		if (!page.truncated || token == NULL)
			more = false;
		s3_list_page_free(&page);
	}
	free(token);
	rlbuf_free(&full_prefix);
	rlbuf_free(&full_start);
	rlbuf_free(&body);
	return st;
}

static void
s3config_copy(S3Config *dst, const S3Config *src)
{
	*dst = *src;
#define COPY_STRING(field) dst->field = src->field ? strdup(src->field) : NULL
	COPY_STRING(endpoint);
	COPY_STRING(region);
	COPY_STRING(bucket);
	COPY_STRING(prefix);
	COPY_STRING(access_key);
	COPY_STRING(secret_key);
	COPY_STRING(session_token);
#undef COPY_STRING
}

static void
s3_close(ObjectStore *os)
{
	S3Store    *s = (S3Store *) os;

	if (s->curl)
		curl_easy_cleanup(s->curl);
	pthread_mutex_destroy(&s->lock);
	s3config_free(&s->cfg);
	free(s->origin);
	free(s->host);
	free(s->bucket_path);
	free(s->base.description);
	free(s);
}

static const ObjectStoreOps s3_ops = {
	.get = s3_get,
	.head = s3_head,
	.put = s3_put,
	.del = s3_del,
	.list = s3_list,
	.close = s3_close,
};

/* ---------------------------------------------------------------------------
 * Configuration and opening
 * ------------------------------------------------------------------------- */

static void
set_from_env(char **field, const char *var)
{
	const char *value = getenv(var);

	if (*field == NULL && value != NULL && value[0] != '\0')
		*field = strdup(value);
}

void
s3config_from_env(S3Config *cfg)
{
	const char *path_style = getenv("ROCKLAKE_S3_PATH_STYLE");
	const char *page = getenv("ROCKLAKE_S3_LIST_PAGE");

	set_from_env(&cfg->endpoint, "AWS_ENDPOINT_URL_S3");
	set_from_env(&cfg->endpoint, "AWS_ENDPOINT_URL");
	set_from_env(&cfg->region, "AWS_REGION");
	set_from_env(&cfg->region, "AWS_DEFAULT_REGION");
	set_from_env(&cfg->access_key, "AWS_ACCESS_KEY_ID");
	set_from_env(&cfg->secret_key, "AWS_SECRET_ACCESS_KEY");
	set_from_env(&cfg->session_token, "AWS_SESSION_TOKEN");
	if (path_style != NULL && strcmp(path_style, "1") == 0)
		cfg->path_style = true;
	if (cfg->list_page_size == 0 && page != NULL)
		cfg->list_page_size = atoi(page);
}

RlStatus
s3config_parse_url(S3Config *cfg, const char *url)
{
	const char *bucket;
	const char *slash;

	if (url == NULL || strncmp(url, "s3://", 5) != 0)
		return rl_error(RL_INVALID, "not an s3:// location: %s", url ? url : "(null)");
	bucket = url + 5;
	slash = strchr(bucket, '/');
	if (slash == bucket || bucket[0] == '\0')
		return rl_error(RL_INVALID, "no bucket in S3 location %s", url);
	free(cfg->bucket);
	free(cfg->prefix);
	cfg->bucket = slash ? strndup(bucket, (size_t) (slash - bucket)) : strdup(bucket);
	cfg->prefix = strdup(slash ? slash + 1 : "");
	return RL_OK;
}

void
s3config_free(S3Config *cfg)
{
	free(cfg->endpoint);
	free(cfg->region);
	free(cfg->bucket);
	free(cfg->prefix);
	free(cfg->access_key);
	free(cfg->secret_key);
	free(cfg->session_token);
	memset(cfg, 0, sizeof(*cfg));
}

/* An IP literal or localhost: no DNS for bucket subdomains, so path-style. */
static bool
host_needs_path_style(const char *host, size_t len)
{
	size_t		name_len = len;

	if (len > 0 && host[0] == '[')
		return true;			/* IPv6 literal */
	for (size_t i = 0; i < len; i++)
		if (host[i] == ':')
			name_len = i;		/* ignore the port */
	if (name_len == 9 && strncasecmp(host, "localhost", 9) == 0)
		return true;
	for (size_t i = 0; i < name_len; i++)
		if (!(host[i] == '.' || (host[i] >= '0' && host[i] <= '9')))
			return false;
	return name_len > 0;
}

/* The prefix is a directory inside the bucket: no leading '/', one trailing '/'. */
static void
normalise_prefix(char **prefix)
{
	const char *p = *prefix ? *prefix : "";
	RlBuf		buf;

	while (*p == '/')
		p++;
	rlbuf_init(&buf);
	rlbuf_append_str(&buf, p);
	if (buf.len > 0 && buf.data[buf.len - 1] != '/')
		rlbuf_put_u8(&buf, '/');
	rlbuf_cstr(&buf);
	free(*prefix);
	*prefix = (char *) rlbuf_steal(&buf, NULL);
}

static pthread_once_t curl_init_once = PTHREAD_ONCE_INIT;

static void
init_curl_globally(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

ObjectStore *
objstore_s3_open(const S3Config *cfg)
{
	S3Store    *s;
	RlBuf		buf;
	const char *scheme_end;
	const char *host;
	size_t		host_len;
	bool		path_style;

	if (cfg->bucket == NULL || cfg->bucket[0] == '\0')
	{
		rl_error(RL_INVALID, "S3: no bucket configured");
		return NULL;
	}
	if (cfg->access_key == NULL || cfg->secret_key == NULL)
	{
		rl_error(RL_INVALID, "S3: no credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)");
		return NULL;
	}
	s = calloc(1, sizeof(S3Store));
	if (s == NULL)
		abort();
	s3config_copy(&s->cfg, cfg);
	rlbuf_init(&buf);
	if (s->cfg.region == NULL)
		s->cfg.region = strdup(S3_DEFAULT_REGION);
	if (s->cfg.max_attempts <= 0)
		s->cfg.max_attempts = S3_DEFAULT_MAX_ATTEMPTS;
	if (s->cfg.base_backoff_ms <= 0)
		s->cfg.base_backoff_ms = S3_DEFAULT_BASE_BACKOFF_MS;
	if (s->cfg.max_backoff_ms <= 0)
		s->cfg.max_backoff_ms = S3_DEFAULT_MAX_BACKOFF_MS;
	if (s->cfg.max_backoff_ms < s->cfg.base_backoff_ms)
		s->cfg.max_backoff_ms = s->cfg.base_backoff_ms;
	normalise_prefix(&s->cfg.prefix);

	/* endpoint: "scheme://host[:port]" with any trailing '/' dropped */
	if (s->cfg.endpoint == NULL)
		rlbuf_printf(&buf, "https://s3.%s.amazonaws.com", s->cfg.region);
	else
		rlbuf_printf(&buf, "%s%s", strstr(s->cfg.endpoint, "://") ? "" : "https://",
					 s->cfg.endpoint);
	while (buf.len > 0 && buf.data[buf.len - 1] == '/')
		buf.len--;
	rlbuf_cstr(&buf);
	scheme_end = strstr((const char *) buf.data, "://");
	host = scheme_end + 3;
	host_len = strcspn(host, "/");
	path_style = s->cfg.path_style || strchr(s->cfg.bucket, '.') != NULL ||
		(s->cfg.endpoint != NULL && host_needs_path_style(host, host_len));
	s->cfg.path_style = path_style;
	if (path_style)
	{
		s->host = strndup(host, host_len);
		s->origin = strndup((const char *) buf.data, (size_t) (host - (const char *) buf.data) + host_len);
		if (asprintf(&s->bucket_path, "/%s", s->cfg.bucket) < 0)
			abort();
	}
	else
	{
		if (asprintf(&s->host, "%s.%.*s", s->cfg.bucket, (int) host_len, host) < 0 ||
			asprintf(&s->origin, "%.*s%s", (int) (host - (const char *) buf.data),
					 (const char *) buf.data, s->host) < 0)
			abort();
		s->bucket_path = strdup("");
	}
	if (asprintf(&s->base.description, "s3://%s/%s at %s", s->cfg.bucket, s->cfg.prefix,
				 (const char *) buf.data) < 0)
		abort();
	rlbuf_free(&buf);

	s->base.ops = &s3_ops;
	s->base.kind = "s3";
	s->jitter_seed = (unsigned) rl_now_ms() ^ (unsigned) (uintptr_t) s;
	pthread_mutex_init(&s->lock, NULL);
	pthread_once(&curl_init_once, init_curl_globally);
	s->curl = curl_easy_init();
	if (s->curl == NULL)
	{
		rl_error(RL_IO_ERROR, "S3: curl_easy_init failed");
		s3_close(&s->base);
		return NULL;
	}
	return &s->base;
}

ObjectStore *
objstore_open_url(const char *location)
{
	S3Config	cfg;
	ObjectStore *os;

	if (location == NULL || location[0] == '\0')
	{
		rl_error(RL_INVALID, "no object store location given");
		return NULL;
	}
	if (strncmp(location, "s3://", 5) != 0)
		return objstore_local_open(location);
	memset(&cfg, 0, sizeof(cfg));
	if (s3config_parse_url(&cfg, location) != RL_OK)
		return NULL;
	s3config_from_env(&cfg);
	os = objstore_s3_open(&cfg);
	s3config_free(&cfg);
	return os;
}
