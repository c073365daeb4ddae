/*
 * objstore.h: the object-store interface the LSM is written against.
 *
 * Objects are immutable byte strings under '/'-separated keys. Two backends give the
 * same semantics: a local directory (the embedded default) and S3 over libcurl. A
 * third wraps either and injects faults for the crash tests. Conditional writes are
 * the whole basis of fencing, so every backend must honour OS_PUT_IF_NONE_MATCH
 * (create only if absent) and OS_PUT_IF_MATCH (replace only if the etag is current);
 * objstore_self_test() refuses a store that does not.
 */
#ifndef RL_OBJSTORE_H
#define RL_OBJSTORE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/rl_buffer.h"
#include "common/rl_status.h"
#include "storage/storage_stats.h"

#define OBJ_ETAG_MAX 96
#define OBJ_TO_END UINT64_MAX

typedef enum ObjPutMode
{
	OBJ_PUT_OVERWRITE,
	OBJ_PUT_IF_NONE_MATCH,
	OBJ_PUT_IF_MATCH
} ObjPutMode;

typedef struct ObjInfo
{
	const char *key;			/* full key (without the store's own prefix) */
	uint64_t	size;
	int64_t		mtime_ms;		/* LastModified */
	char		etag[OBJ_ETAG_MAX];
} ObjInfo;

/* Return true to continue listing, false to stop. */
typedef bool (*ObjListFn) (const ObjInfo *info, void *arg);

typedef struct ObjectStore ObjectStore;

/*
 * The obj_* calls below count each request and its answer (storage_stats.h); a
 * store that wraps another calls the inner one's ops directly, so that a request
 * is counted once.
 */

typedef struct ObjectStoreOps
{
	/* Read [offset, offset+len) (len OBJ_TO_END: to the end) into out (appended). */
	RlStatus	(*get) (ObjectStore *os, const char *key, uint64_t offset, uint64_t len, RlBuf *out);
	RlStatus	(*head) (ObjectStore *os, const char *key, ObjInfo *info);
	/*
	 * Write a whole object. IF_NONE_MATCH: RL_PRECONDITION if it exists. IF_MATCH:
	 * RL_PRECONDITION if the etag differs, RL_NOT_FOUND if absent. etag_out may be NULL.
	 */
	RlStatus	(*put) (ObjectStore *os, const char *key, const void *data, size_t len,
						ObjPutMode mode, const char *if_match_etag, char *etag_out);
	/* Deleting an absent object is RL_OK. */
	RlStatus	(*del) (ObjectStore *os, const char *key);
	/* Keys under prefix, strictly after start_after (may be NULL), in byte order. */
	RlStatus	(*list) (ObjectStore *os, const char *prefix, const char *start_after,
						 ObjListFn fn, void *arg);
	/*
	 * Optional: get ready for a create-if-absent put of next_key while the caller
	 * has nothing else to do (the local store makes the file it will fill then,
	 * which costs as much as writing and syncing it).
	 */
	void		(*prepare) (ObjectStore *os, const char *next_key);
	/*
	 * Optional (the local store): the writer lock, a lock on a file of the store's
	 * own (no key names it) that dies with the process holding it. lock_take holds
	 * it until close, writing text into the file (again: rewrites the text), or
	 * returns RL_CONTENDED if another process holds it. lock_holder: RL_OK with the
	 * holder's text if some process holds it, RL_NOT_FOUND if none does. Without
	 * them the writer lease is an object (storage/lease.h).
	 */
	RlStatus	(*lock_take) (ObjectStore *os, const char *text);
	RlStatus	(*lock_holder) (ObjectStore *os, RlBuf *text);
	void		(*close) (ObjectStore *os);
} ObjectStoreOps;

struct ObjectStore
{
	const ObjectStoreOps *ops;
	const char *kind;			/* "local", "s3", "fault" */
	char	   *description;	/* for messages and rocklake-admin */
};

static inline RlStatus
obj_get(ObjectStore *os, const char *key, RlBuf *out)
{
	return storage_count_request(OBJ_OP_GET, os->ops->get(os, key, 0, OBJ_TO_END, out));
}

static inline RlStatus
obj_get_range(ObjectStore *os, const char *key, uint64_t off, uint64_t len, RlBuf *out)
{
	return storage_count_request(OBJ_OP_GET, os->ops->get(os, key, off, len, out));
}

static inline RlStatus
obj_head(ObjectStore *os, const char *key, ObjInfo *info)
{
	return storage_count_request(OBJ_OP_HEAD, os->ops->head(os, key, info));
}

static inline RlStatus
obj_put(ObjectStore *os, const char *key, const void *data, size_t len, ObjPutMode mode,
		const char *if_match_etag, char *etag_out)
{
	return storage_count_request(OBJ_OP_PUT, os->ops->put(os, key, data, len, mode, if_match_etag, etag_out));
}

static inline RlStatus
obj_delete(ObjectStore *os, const char *key)
{
	return storage_count_request(OBJ_OP_DELETE, os->ops->del(os, key));
}

static inline RlStatus
obj_list(ObjectStore *os, const char *prefix, const char *start_after, ObjListFn fn, void *arg)
{
	return storage_count_request(OBJ_OP_LIST, os->ops->list(os, prefix, start_after, fn, arg));
}

static inline void
obj_prepare(ObjectStore *os, const char *next_key)
{
	if (os->ops->prepare)
		os->ops->prepare(os, next_key);
}

void		obj_close(ObjectStore *os);

/*
 * Check that the store honours conditional writes: create-if-absent twice (second
 * must be RL_PRECONDITION), IF_MATCH with a bogus etag (RL_PRECONDITION), delete.
 * RL_UNSUPPORTED_BACKEND with a message naming the failed step otherwise.
 */
RlStatus	objstore_self_test(ObjectStore *os);

/* --- local directory backend (objstore_local.c) --- */
ObjectStore *objstore_local_open(const char *root);

/* --- S3 backend (objstore_s3.c) --- */
typedef struct S3Config
{
	char	   *endpoint;		/* e.g. http://127.0.0.1:9000; NULL: https://s3.REGION.amazonaws.com */
	char	   *region;			/* default us-east-1 */
	char	   *bucket;
	char	   *prefix;			/* key prefix inside the bucket, may be "" */
	char	   *access_key;
	char	   *secret_key;
	char	   *session_token;	/* optional */
	bool		path_style;		/* path-style URLs instead of virtual-host style */
	int			max_attempts;	/* per request, including the first; default 6 */
	int			base_backoff_ms;	/* default 100 */
	int			max_backoff_ms; /* default 2000 */
	int			list_page_size; /* max-keys per LIST page; 0: the server's (1000) */
} S3Config;

/* Fill unset fields from AWS_ENDPOINT_URL, AWS_REGION/AWS_DEFAULT_REGION,
 * AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN; also
 * ROCKLAKE_S3_PATH_STYLE=1 (path_style) and ROCKLAKE_S3_LIST_PAGE (list_page_size). */
void		s3config_from_env(S3Config *cfg);
/* Parse "s3://bucket/prefix" into cfg->bucket / cfg->prefix. */
RlStatus	s3config_parse_url(S3Config *cfg, const char *url);
void		s3config_free(S3Config *cfg);
ObjectStore *objstore_s3_open(const S3Config *cfg);

/* One parsed ListObjectsV2 response page (exposed for the unit tests). */
typedef struct S3ListPage
{
	ObjInfo    *items;			/* keys as S3 returned them, entities decoded; owned */
	int			nitems;
	bool		truncated;		/* IsTruncated */
	char	   *next_token;		/* NextContinuationToken, NULL if none */
} S3ListPage;

/* RL_CORRUPT if the XML is not a ListBucketResult. Free with s3_list_page_free. */
RlStatus	s3_parse_list_page(const char *xml, size_t len, S3ListPage *page);
void		s3_list_page_free(S3ListPage *page);

/*
 * Open a store from a location string: "s3://bucket/prefix" (S3, settings from the
 * environment) or a directory path (local). NULL with rl_last_error() on failure.
 */
ObjectStore *objstore_open_url(const char *location);

/* --- fault injection (objstore_fault.c) --- */
typedef enum FaultAction
{
	FAULT_NONE,
	FAULT_FAIL_BEFORE,			/* the operation is not done; it returns RL_UNAVAILABLE */
	FAULT_CRASH_BEFORE,			/* not done; this and every later call return RL_CRASHED */
	FAULT_CRASH_AFTER,			/* done, but the caller sees RL_CRASHED, and so do later calls */
	FAULT_LOSE_RESPONSE			/* done, but the caller sees RL_UNAVAILABLE once */
} FaultAction;

typedef struct FaultPlan
{
	int			at_mutation;	/* 1-based index of the put/delete to hit; 0: never */
	FaultAction action;
	const char *only_prefix;	/* count only mutations of keys under this prefix (NULL: all) */
	bool		ignore_conditions;	/* behave like a store without conditional writes */
	int			corrupt_read_at;	/* 1-based index of the GET (of keys under only_prefix)
									 * whose bytes come back with one bit flipped; 0: never */
	unsigned	random_seed;	/* nonzero: also fail reads/writes at random ... */
	int			random_fail_per_mille;	/* ... with this probability (FAULT_FAIL_BEFORE) */
} FaultPlan;

/* Wraps inner (and closes it on close). */
ObjectStore *objstore_fault_wrap(ObjectStore *inner, const FaultPlan *plan);
/* Number of mutations seen so far, and whether the simulated process has crashed. */
int			objstore_fault_mutations(ObjectStore *os);
bool		objstore_fault_crashed(ObjectStore *os);

#endif
