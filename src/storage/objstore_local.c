/*
 * objstore_local.c: the object store on a local directory, RockLake's embedded
 * default. It has exactly the semantics of the S3 backend so the LSM cannot tell
 * them apart:
 *   - no partially written object is ever visible: data goes to a temporary file in
 *     the same directory, is fsynced, and is then published atomically;
 *   - create-if-absent publishes with link(2), which fails with EEXIST if the key
 *     exists (precondition failed);
 *   - replace-if-etag-matches runs under an exclusive flock on <root>/.lock (one
 *     host only, which is all a local directory can be shared by);
 *   - the directory is fsynced after every publish or delete, so a crash cannot
 *     lose an object we acknowledged.
 * Etags are "<crc32c>-<size>" of the content, computed when asked for.
 *
 * Creating a file costs as much as writing and syncing it (0.4 to 0.9 ms on ext4
 * right after a journal commit), so when its caller is idle the store makes an
 * unnamed file (O_TMPFILE) for its next create-if-absent put, the writer's WAL
 * object, and publishes it with linkat through /proc/self/fd. Where that is not
 * possible (no O_TMPFILE, no /proc, another filesystem below the root) puts go
 * through a named temporary file as above.
 */
#define _GNU_SOURCE				/* O_TMPFILE */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crc32c.h"
#include "objstore.h"
#include "ulid.h"

typedef struct LocalStore
{
	ObjectStore base;
	char	   *root;
	int			spare_fd;		/* the unnamed file for the next put, or -1 */
	bool		no_spares;		/* this root cannot publish them */
} LocalStore;

static RlStatus
errno_status(int err, const char *what, const char *path)
{
	if (err == ENOSPC || err == EDQUOT)
		return rl_error(RL_NO_SPACE, "could not %s \"%s\": %s", what, path, strerror(err));
	return rl_error(RL_IO_ERROR, "could not %s \"%s\": %s", what, path, strerror(err));
}

static char *
local_path(LocalStore *ls, const char *key)
{
	size_t		n = strlen(ls->root) + strlen(key) + 2;
	char	   *p = malloc(n);

	snprintf(p, n, "%s/%s", ls->root, key);
	return p;
}

/* A key may not escape the root or name our own dot-files. */
static bool
key_is_valid(const char *key)
{
	const char *segment = key;

	for (;;)
	{
		if (segment[0] == '.' || segment[0] == '/' || segment[0] == '\0')
			return false;
		const char *slash = strchr(segment, '/');

		if (slash == NULL)
			return true;
		segment = slash + 1;
	}
}

static RlStatus
fsync_dir(const char *dir)
{
	int			fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		return errno_status(errno, "open directory", dir);
	if (fsync(fd) != 0)
	{
		int			err = errno;

		close(fd);
		return errno_status(err, "fsync directory", dir);
	}
	close(fd);
	return RL_OK;
}

/* mkdir -p of the parent of path, fsyncing each directory we create into its parent. */
static RlStatus
make_parent_dirs(char *path)
{
	char	   *slash = strrchr(path, '/');

	if (slash == NULL || slash == path)
		return RL_OK;
	*slash = '\0';
	struct stat st;
	RlStatus	rc = RL_OK;

	if (stat(path, &st) != 0)
	{
		rc = make_parent_dirs(path);
		if (rc == RL_OK && mkdir(path, 0700) != 0 && errno != EEXIST)
			rc = errno_status(errno, "create directory", path);
		if (rc == RL_OK)
		{
			char	   *pslash = strrchr(path, '/');

			if (pslash && pslash != path)
			{
				*pslash = '\0';
				rc = fsync_dir(path);
				*pslash = '/';
			}
		}
	}
	*slash = '/';
	return rc;
}

static RlStatus
write_all_fsync(int fd, const void *data, size_t len, const char *path)
{
	const uint8_t *p = data;

	while (len > 0)
	{
		ssize_t		n = write(fd, p, len);

		if (n < 0)
		{
			if (errno == EINTR)
				continue;
			return errno_status(errno, "write", path);
		}
		p += n;
		len -= (size_t) n;
	}
	if (fsync(fd) != 0)
		return errno_status(errno, "fsync", path);
	return RL_OK;
}

static RlStatus
read_file(const char *path, uint64_t offset, uint64_t len, RlBuf *out)
{
	int			fd = open(path, O_RDONLY);
	struct stat st;

	if (fd < 0)
	{
		if (errno == ENOENT || errno == ENOTDIR)
			return rl_error(RL_NOT_FOUND, "object \"%s\" does not exist", path);
		return errno_status(errno, "open", path);
	}
	if (fstat(fd, &st) != 0)
	{
		int			err = errno;

		close(fd);
		return errno_status(err, "stat", path);
	}
	uint64_t	size = (uint64_t) st.st_size;

	if (offset > size)
	{
		close(fd);
		return rl_error(RL_INVALID, "range starts at %llu past the end of \"%s\" (%llu bytes)",
						(unsigned long long) offset, path, (unsigned long long) size);
	}
	if (len > size - offset)
		len = size - offset;
	rlbuf_reserve(out, len);
	uint64_t	done = 0;

	while (done < len)
	{
		ssize_t		n = pread(fd, out->data + out->len + done, len - done, (off_t) (offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
		{
			int			err = n < 0 ? errno : EIO;

			close(fd);
			return errno_status(err, "read", path);
		}
		done += (uint64_t) n;
	}
	out->len += len;
	close(fd);
	return RL_OK;
}

static void
etag_of(const uint8_t *data, size_t len, char *etag)
{
	snprintf(etag, OBJ_ETAG_MAX, "\"%08x-%zu\"", crc32c(data, len), len);
}

static RlStatus
local_get(ObjectStore *os, const char *key, uint64_t offset, uint64_t len, RlBuf *out)
{
	LocalStore *ls = (LocalStore *) os;

	if (!key_is_valid(key))
		return rl_error(RL_INVALID, "invalid object key \"%s\"", key);
	char	   *path = local_path(ls, key);
	RlStatus	rc = read_file(path, offset, len, out);

	free(path);
	return rc;
}

static RlStatus
local_head(ObjectStore *os, const char *key, ObjInfo *info)
{
	LocalStore *ls = (LocalStore *) os;
	RlBuf		content;
	struct stat st;

	if (!key_is_valid(key))
		return rl_error(RL_INVALID, "invalid object key \"%s\"", key);
	char	   *path = local_path(ls, key);

	rlbuf_init(&content);
	RlStatus	rc = read_file(path, 0, OBJ_TO_END, &content);

	if (rc == RL_OK && stat(path, &st) == 0)
	{
		info->key = key;
		info->size = content.len;
		info->mtime_ms = (int64_t) st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
		etag_of(content.data, content.len, info->etag);
	}
	rlbuf_free(&content);
	free(path);
	return rc;
}

/* Write data to a fresh temporary file next to path; returns its name in tmp. */
static RlStatus
write_temp(const char *path, const void *data, size_t len, char **tmp)
{
	char		tag[17];

	rl_random_hex(tag, 8);
	size_t		n = strlen(path) + 32;
	char	   *t = malloc(n);
	const char *slash = strrchr(path, '/');

	snprintf(t, n, "%.*s/.tmp.%s", (int) (slash - path), path, tag);
	int			fd = open(t, O_WRONLY | O_CREAT | O_EXCL, 0600);

	if (fd < 0)
	{
		RlStatus	rc = errno_status(errno, "create", t);

		free(t);
		return rc;
	}
	RlStatus	rc = write_all_fsync(fd, data, len, t);

	close(fd);
	if (rc != RL_OK)
	{
		unlink(t);
		free(t);
		return rc;
	}
	*tmp = t;
	return RL_OK;
}

/*
 * Publish data under path through the spare file: made durable, then linked in,
 * which fails with EEXIST if the key exists. Returns false, having published
 * nothing, if spares cannot be linked under this root; the caller then takes the
 * named temporary file.
 */
static bool
publish_spare(LocalStore *ls, const char *key, const char *path, const void *data, size_t len,
			  RlStatus *rc)
{
	int			fd = ls->spare_fd;
	char		proc_path[64];

	ls->spare_fd = -1;
	*rc = write_all_fsync(fd, data, len, path);
	snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", fd);
	if (*rc == RL_OK && linkat(AT_FDCWD, proc_path, AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0)
	{
		if (errno == ENOENT || errno == EXDEV)
		{
			ls->no_spares = true;
			close(fd);
			return false;
		}
		*rc = errno == EEXIST
			? rl_error(RL_PRECONDITION, "object \"%s\" already exists", key)
			: errno_status(errno, "publish", path);
	}
	close(fd);
	return true;
}

/* Publish data under path through a named temporary file next to it. */
static RlStatus
publish_temp(LocalStore *ls, const char *key, const char *path, const void *data, size_t len,
			 ObjPutMode mode, const char *if_match_etag)
{
	char	   *tmp = NULL;
	int			lockfd = -1;
	RlStatus	rc = write_temp(path, data, len, &tmp);

	if (rc == RL_OK && mode == OBJ_PUT_IF_MATCH)
	{
		char	   *lockpath = local_path(ls, ".lock");

		lockfd = open(lockpath, O_RDWR | O_CREAT, 0600);
		if (lockfd < 0 || flock(lockfd, LOCK_EX) != 0)
			rc = errno_status(errno, "lock", lockpath);
		free(lockpath);
		if (rc == RL_OK)
		{
			ObjInfo		cur;

			rc = local_head(&ls->base, key, &cur);
			if (rc == RL_OK && (if_match_etag == NULL || strcmp(cur.etag, if_match_etag) != 0))
				rc = rl_error(RL_PRECONDITION, "object \"%s\" has etag %s, not %s",
							  key, cur.etag, if_match_etag ? if_match_etag : "(none)");
		}
	}
	if (rc == RL_OK)
	{
		if (mode == OBJ_PUT_IF_NONE_MATCH)
		{
			if (link(tmp, path) != 0)
				rc = errno == EEXIST
					? rl_error(RL_PRECONDITION, "object \"%s\" already exists", key)
					: errno_status(errno, "publish", path);
			unlink(tmp);
		}
		else if (rename(tmp, path) != 0)
		{
			rc = errno_status(errno, "publish", path);
			unlink(tmp);
		}
	}
	if (lockfd >= 0)
		close(lockfd);			/* releases the flock */
	free(tmp);
	return rc;
}

static RlStatus
local_put(ObjectStore *os, const char *key, const void *data, size_t len,
		  ObjPutMode mode, const char *if_match_etag, char *etag_out)
{
	LocalStore *ls = (LocalStore *) os;
	RlStatus	rc;

	if (!key_is_valid(key))
		return rl_error(RL_INVALID, "invalid object key \"%s\"", key);
	char	   *path = local_path(ls, key);

	rc = make_parent_dirs(path);
	if (rc == RL_OK &&
		!(mode == OBJ_PUT_IF_NONE_MATCH && ls->spare_fd >= 0 && publish_spare(ls, key, path, data, len, &rc)))
		rc = publish_temp(ls, key, path, data, len, mode, if_match_etag);
	if (rc == RL_OK)
	{
		char	   *slash = strrchr(path, '/');

		*slash = '\0';
		rc = fsync_dir(path);
		*slash = '/';
	}
	if (rc == RL_OK && etag_out)
		etag_of(data, len, etag_out);
	free(path);
	return rc;
}

static RlStatus
local_delete(ObjectStore *os, const char *key)
{
	LocalStore *ls = (LocalStore *) os;

	if (!key_is_valid(key))
		return rl_error(RL_INVALID, "invalid object key \"%s\"", key);
	char	   *path = local_path(ls, key);
	RlStatus	rc = RL_OK;

	if (unlink(path) != 0)
	{
		if (errno != ENOENT && errno != ENOTDIR)
			rc = errno_status(errno, "delete", path);
	}
	else
	{
		char	   *slash = strrchr(path, '/');

		*slash = '\0';
		rc = fsync_dir(path);
	}
	free(path);
	return rc;
}

typedef struct KeyList
{
	char	  **keys;
	size_t		n;
	size_t		cap;
} KeyList;

/* Collect every key under dir (relative name rel) that starts with prefix. */
static RlStatus
collect_keys(const char *dir, const char *rel, const char *prefix, KeyList *out)
{
	DIR		   *d = opendir(dir);

	if (d == NULL)
		return (errno == ENOENT || errno == ENOTDIR) ? RL_OK : errno_status(errno, "list", dir);
	struct dirent *de;
	RlStatus	rc = RL_OK;

	while (rc == RL_OK && (de = readdir(d)) != NULL)
	{
		if (de->d_name[0] == '.')
			continue;			/* ".", "..", temporaries and the lock file */
		RlBuf		name,
					sub;

		rlbuf_init(&name);
		rlbuf_init(&sub);
		rlbuf_printf(&name, "%s%s%s", rel, rel[0] ? "/" : "", de->d_name);
		rlbuf_printf(&sub, "%s/%s", dir, de->d_name);
		/* prune subtrees that cannot contain the prefix */
		size_t		cmp = name.len < strlen(prefix) ? name.len : strlen(prefix);

		if (strncmp(rlbuf_cstr(&name), prefix, cmp) == 0)
		{
			struct stat st;

			if (stat(rlbuf_cstr(&sub), &st) == 0 && S_ISDIR(st.st_mode))
				rc = collect_keys(rlbuf_cstr(&sub), rlbuf_cstr(&name), prefix, out);
			else if (name.len >= strlen(prefix))
			{
				if (out->n == out->cap)
				{
					out->cap = out->cap ? out->cap * 2 : 64;
					out->keys = realloc(out->keys, out->cap * sizeof(char *));
				}
				out->keys[out->n++] = (char *) rlbuf_steal(&name, NULL);
			}
		}
		rlbuf_free(&name);
		rlbuf_free(&sub);
	}
	closedir(d);
	return rc;
}

static int
compare_keys(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static RlStatus
local_list(ObjectStore *os, const char *prefix, const char *start_after, ObjListFn fn, void *arg)
{
	LocalStore *ls = (LocalStore *) os;
	KeyList		keys = {0};
	RlStatus	rc = collect_keys(ls->root, "", prefix ? prefix : "", &keys);

	if (rc == RL_OK && keys.n > 0)
		qsort(keys.keys, keys.n, sizeof(char *), compare_keys);
	bool		go = true;

	for (size_t i = 0; i < keys.n; i++)
	{
		if (rc == RL_OK && go && (start_after == NULL || strcmp(keys.keys[i], start_after) > 0))
		{
			char	   *path = local_path(ls, keys.keys[i]);
			struct stat st;

			if (stat(path, &st) == 0)	/* a concurrent delete just drops it */
			{
				ObjInfo		info = {.key = keys.keys[i], .size = (uint64_t) st.st_size,
				.mtime_ms = (int64_t) st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000};

				go = fn(&info, arg);
			}
			free(path);
		}
		free(keys.keys[i]);
	}
	free(keys.keys);
	return rc;
}

static void
local_prepare(ObjectStore *os)
{
	LocalStore *ls = (LocalStore *) os;

	if (ls->spare_fd < 0 && !ls->no_spares)
	{
		ls->spare_fd = open(ls->root, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
		if (ls->spare_fd < 0)
			ls->no_spares = true;	/* the filesystem has no unnamed files */
	}
}

static void
local_close(ObjectStore *os)
{
	LocalStore *ls = (LocalStore *) os;

	if (ls->spare_fd >= 0)
		close(ls->spare_fd);
	free(ls->root);
	free(ls->base.description);
	free(ls);
}

static const ObjectStoreOps local_ops = {
	.get = local_get,
	.head = local_head,
	.put = local_put,
	.del = local_delete,
	.list = local_list,
	.prepare = local_prepare,
	.close = local_close,
};

ObjectStore *
objstore_local_open(const char *root)
{
	struct stat st;
	char	   *path = strdup(root);
	RlStatus	rc = make_parent_dirs(path);

	free(path);
	if (rc != RL_OK)
		return NULL;
	if (mkdir(root, 0700) != 0 && errno != EEXIST)
	{
		errno_status(errno, "create directory", root);
		return NULL;
	}
	if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode))
	{
		rl_error(RL_INVALID, "\"%s\" is not a directory", root);
		return NULL;
	}
	LocalStore *ls = calloc(1, sizeof(LocalStore));
	RlBuf		desc;

	ls->base.ops = &local_ops;
	ls->base.kind = "local";
	ls->root = realpath(root, NULL);
	ls->spare_fd = -1;
	rlbuf_init(&desc);
	rlbuf_printf(&desc, "local directory %s", ls->root);
	ls->base.description = (char *) rlbuf_steal(&desc, NULL);
	return &ls->base;
}
