/*
 * objstore_local.c: the object store on a local directory, RockLake's embedded
 * default. It has exactly the semantics of the S3 backend so the LSM cannot tell
 * them apart:
 *   - no partially written object is ever visible: data goes to a temporary file in
 *     the same directory, is fsynced, and is then published atomically, or fills a
 *     slot (below) whose checksums make it an object only once it is whole;
 *   - create-if-absent publishes with link(2), which fails with EEXIST if the key
 *     exists (precondition failed), or fills the empty slot at the key;
 *   - replace-if-etag-matches runs under an exclusive flock on <root>/.lock (one
 *     host only, which is all a local directory can be shared by);
 *   - the directory is fsynced after every publish or delete, so a crash cannot
 *     lose an object we acknowledged;
 *   - the writer lock is an open-file-description lock (F_OFD_SETLK) on
 *     <root>/.writer.lock, which holds its holder's description: the kernel drops
 *     it when the holder's process ends however it ends, so a lock seen held is a
 *     live process's, and one can look for it without taking it (F_OFD_GETLK).
 * Etags are "<crc32c>-<size>" of the content, computed when asked for.
 *
 * A create-if-absent put costs a file's fsync and then the directory's, where an
 * append into a preallocated file costs one fdatasync (about a third of that on the
 * disks measured: doc/design.md, section 4). So while its caller is idle the store makes the file
 * of the next create-if-absent put it expects (the writer's next WAL object) ahead:
 * a slot, SLOT_FILE_SIZE bytes of a header and zeros, made durable under its final
 * name by a thread of the store's own, so the caller does not wait for it, and
 * marked ready once its name is durable (a filler of a slot not yet ready syncs the
 * directory itself). A slot whose header does not hold the length and checksum of
 * its payload is empty and counts as absent for every operation; a put fills it in
 * place under an exclusive flock of the file (the header after the payload, one
 * fdatasync), so it is published whole or not at all: a crash part way through
 * leaves a payload whose checksum fails, which reads as absent, as the
 * unacknowledged put it was. Every create-if-absent put that finds a file at its
 * key checks for an empty slot, so fencing between writers works as before. A plain
 * file of exactly SLOT_FILE_SIZE bytes starting with SLOT_MAGIC would be taken for a
 * slot; objects are written by RockLake only, and none starts with it. The layout is
 * in doc/storage.md.
 */
#define _GNU_SOURCE				/* pthread_tryjoin_np, fallocate */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/crc32c.h"
#include "common/ulid.h"
#include "storage/objstore.h"

/* The last slot filled in place, whose zeros past its payload still take blocks. */
typedef struct FilledSlot
{
	char	   *path;			/* NULL: none */
	ino_t		ino;
	uint64_t	len;
} FilledSlot;

typedef struct LocalStore
{
	ObjectStore base;
	char	   *root;
	pthread_t	slot_maker;		/* making the next slot, if making */
	bool		making;
	FilledSlot	filled;
	int			writer_lock_fd; /* -1: we do not hold the writer lock */
} LocalStore;

#define WRITER_LOCK_FILE ".writer.lock"

#define SLOT_MAGIC "RLSLOT0"		/* and a byte: */
#define SLOT_PENDING 'P'		/* its name may not be durable yet */
#define SLOT_READY 'R'			/* its name is durable */
#define SLOT_HEADER_SIZE 32		/* magic, payload length (8), payload crc (4), header crc (4), zeros */
#define SLOT_CAPACITY (64 * 1024)
#define SLOT_FILE_SIZE (SLOT_HEADER_SIZE + SLOT_CAPACITY)

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

/* pread all of [offset, offset + len) of fd into buf */
static RlStatus
read_all(int fd, uint8_t *buf, uint64_t len, uint64_t offset, const char *path)
{
	uint64_t	done = 0;

	while (done < len)
	{
		ssize_t		n = pread(fd, buf + done, len - done, (off_t) (offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return errno_status(n < 0 ? errno : EIO, "read", path);
		done += (uint64_t) n;
	}
	return RL_OK;
}

typedef enum SlotState
{
	NOT_A_SLOT,					/* a plain object: the whole file */
	SLOT_EMPTY_PENDING,			/* no object, and the slot's name may not be durable */
	SLOT_EMPTY,					/* no object (never filled, or torn) */
	SLOT_FULL					/* an object: the payload */
} SlotState;

static void
slot_header(uint8_t *header, const void *data, size_t len)
{
	memset(header, 0, SLOT_HEADER_SIZE);
	memcpy(header, SLOT_MAGIC, 7);
	header[7] = SLOT_READY;
	rl_store_u64be(header + 8, len);
	rl_store_u32le(header + 16, crc32c(data, len));
	rl_store_u32le(header + 20, crc32c(header, 20));
}

/*
 * slot_state -- what the open file fd (with stat st) holds; for a full slot its
 * payload's length in *len. Reads the payload to check it.
 */
static RlStatus
slot_state(int fd, const struct stat *st, const char *path, SlotState *state, uint64_t *len)
{
	uint8_t		header[SLOT_HEADER_SIZE];
	RlStatus	rc;

	*state = NOT_A_SLOT;
	if (st->st_size != SLOT_FILE_SIZE)
		return RL_OK;
	if ((rc = read_all(fd, header, SLOT_HEADER_SIZE, 0, path)) != RL_OK)
		return rc;
	if (memcmp(header, SLOT_MAGIC, 7) != 0 || (header[7] != SLOT_PENDING && header[7] != SLOT_READY))
		return RL_OK;
	*state = header[7] == SLOT_PENDING ? SLOT_EMPTY_PENDING : SLOT_EMPTY;
	*len = rl_load_u64be(header + 8);
	if (rl_load_u32le(header + 20) != crc32c(header, 20) || *len > SLOT_CAPACITY)
		return RL_OK;

	uint8_t    *payload = malloc(*len ? *len : 1);

	rc = read_all(fd, payload, *len, SLOT_HEADER_SIZE, path);
	if (rc == RL_OK && crc32c(payload, *len) == rl_load_u32le(header + 16))
		*state = SLOT_FULL;
	free(payload);
	return rc;
}

/*
 * open_object -- the object at path, open: where its bytes start in the file and
 * how many there are. RL_NOT_FOUND for no file or an empty slot.
 */
static RlStatus
open_object(const char *path, int *fd_out, uint64_t *start, uint64_t *size, struct stat *st)
{
	int			fd = open(path, O_RDONLY);
	SlotState	state;
	RlStatus	rc;

	if (fd < 0)
	{
		if (errno == ENOENT || errno == ENOTDIR)
			return rl_error(RL_NOT_FOUND, "object \"%s\" does not exist", path);
		return errno_status(errno, "open", path);
	}
	if (fstat(fd, st) != 0)
		rc = errno_status(errno, "stat", path);
	else
		rc = slot_state(fd, st, path, &state, size);
	if (rc == RL_OK && (state == SLOT_EMPTY || state == SLOT_EMPTY_PENDING))
		rc = rl_error(RL_NOT_FOUND, "object \"%s\" does not exist", path);
	if (rc != RL_OK)
	{
		close(fd);
		return rc;
	}
	*start = state == SLOT_FULL ? SLOT_HEADER_SIZE : 0;
	if (state == NOT_A_SLOT)
		*size = (uint64_t) st->st_size;
	*fd_out = fd;
	return RL_OK;
}

static RlStatus
read_file(const char *path, uint64_t offset, uint64_t len, RlBuf *out, struct stat *st)
{
	int			fd;
	uint64_t	start,
				size;
	RlStatus	rc = open_object(path, &fd, &start, &size, st);

	if (rc != RL_OK)
		return rc;
	if (offset > size)
	{
		close(fd);
		return rl_error(RL_INVALID, "range starts at %llu past the end of \"%s\" (%llu bytes)",
						(unsigned long long) offset, path, (unsigned long long) size);
	}
	if (len > size - offset)
		len = size - offset;
	rlbuf_reserve(out, len);
	rc = read_all(fd, out->data + out->len, len, start + offset, path);
	if (rc == RL_OK)
		out->len += len;
	close(fd);
	return rc;
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
	struct stat st;

	if (!key_is_valid(key))
		return rl_error(RL_INVALID, "invalid object key \"%s\"", key);
	char	   *path = local_path(ls, key);
	RlStatus	rc = read_file(path, offset, len, out, &st);

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
	RlStatus	rc = read_file(path, 0, OBJ_TO_END, &content, &st);

	if (rc == RL_OK)
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

static RlStatus
fsync_parent(char *path)
{
	char	   *slash = strrchr(path, '/');

	*slash = '\0';
	RlStatus	rc = fsync_dir(path);

	*slash = '/';
	return rc;
}

/*
 * fill_slot -- create-if-absent of data at path, where a file exists: RL_OK if it
 * was an empty slot and now holds data, RL_PRECONDITION if it holds an object,
 * RL_NOT_FOUND if there is no file. The slot's flock keeps two writers from
 * filling it both; a slot replaced under the lock's holder (data too big for it
 * goes in by rename) is looked at again. A slot whose maker has not yet made its
 * name durable (SLOT_PENDING) gets the directory's fsync first.
 */
static RlStatus
fill_slot(const char *key, char *path, const void *data, size_t len, FilledSlot *filled)
{
	for (;;)
	{
		int			fd = open(path, O_RDWR);
		struct stat st,
					now;
		SlotState	state = NOT_A_SLOT;
		uint64_t	had;
		RlStatus	rc = RL_OK;

		if (fd < 0)
			return errno == ENOENT ? RL_NOT_FOUND : errno_status(errno, "open", path);
		if (flock(fd, LOCK_EX) != 0 || fstat(fd, &st) != 0)
			rc = errno_status(errno, "lock", path);
		else if (stat(path, &now) != 0 || now.st_ino != st.st_ino)
		{
			close(fd);			/* replaced or deleted since we opened it */
			continue;
		}
		if (rc == RL_OK)
			rc = slot_state(fd, &st, path, &state, &had);
		if (rc == RL_OK && state != SLOT_EMPTY && state != SLOT_EMPTY_PENDING)
			rc = rl_error(RL_PRECONDITION, "object \"%s\" already exists", key);
		else if (rc == RL_OK && len <= SLOT_CAPACITY)
		{
			uint8_t		header[SLOT_HEADER_SIZE];

			slot_header(header, data, len);
			if (state == SLOT_EMPTY_PENDING)
				rc = fsync_parent(path);	/* its maker has not made the name durable yet */
			if (rc == RL_OK && (pwrite(fd, data, len, SLOT_HEADER_SIZE) != (ssize_t) len ||
								pwrite(fd, header, SLOT_HEADER_SIZE, 0) != SLOT_HEADER_SIZE))
				rc = errno_status(errno, "write", path);
			if (rc == RL_OK && fdatasync(fd) != 0)
				rc = errno_status(errno, "fdatasync", path);
			if (rc == RL_OK)
			{
				free(filled->path);
				*filled = (FilledSlot) {strdup(path), st.st_ino, len};
			}
		}
		else if (rc == RL_OK)
		{
			char	   *tmp = NULL;

			rc = write_temp(path, data, len, &tmp);
			if (rc == RL_OK && rename(tmp, path) != 0)
			{
				rc = errno_status(errno, "publish", path);
				unlink(tmp);
			}
			free(tmp);
			if (rc == RL_OK)
				rc = fsync_parent(path);
		}
		close(fd);				/* releases the flock */
		return rc;
	}
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
	RlStatus	rc = RL_OK;

	if (!key_is_valid(key))
		return rl_error(RL_INVALID, "invalid object key \"%s\"", key);
	char	   *path = local_path(ls, key);

	/*
	 * A file at the key may be an empty slot, filled where it is; a key without one
	 * is published by link. Files that come and go meanwhile send it round again.
	 */
	bool		again = true;

	for (int attempt = 0; again && attempt < 3; attempt++)
	{
		if (mode == OBJ_PUT_IF_NONE_MATCH && (rc = fill_slot(key, path, data, len, &ls->filled)) != RL_NOT_FOUND)
			break;
		rc = make_parent_dirs(path);
		if (rc == RL_OK)
			rc = publish_temp(ls, key, path, data, len, mode, if_match_etag);
		if (rc == RL_OK)
			rc = fsync_parent(path);
		/* a file came: it may be an empty slot */
		again = rc == RL_PRECONDITION && mode == OBJ_PUT_IF_NONE_MATCH;
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
			int			fd;
			uint64_t	start,
						size;

			/* a concurrent delete just drops it, and an empty slot is no object */
			if (open_object(path, &fd, &start, &size, &st) == RL_OK)
			{
				ObjInfo		info = {.key = keys.keys[i], .size = size,
				.mtime_ms = (int64_t) st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000};

				close(fd);
				go = fn(&info, arg);
			}
			free(path);
		}
		free(keys.keys[i]);
	}
	free(keys.keys);
	return rc;
}

/*
 * mark_ready -- the empty slot at path, of inode ino, has a durable name now. False
 * if it could not say so: the slot stays pending, which costs its filler a
 * directory fsync.
 */
static bool
mark_ready(const char *path, ino_t ino)
{
	int			fd = open(path, O_RDWR);
	struct stat st;
	SlotState	state;
	uint64_t	len;
	const char	ready = SLOT_READY;
	bool		marked;

	if (fd < 0)
		return false;
	marked = flock(fd, LOCK_EX) == 0 && fstat(fd, &st) == 0 && st.st_ino == ino &&
		slot_state(fd, &st, path, &state, &len) == RL_OK && state == SLOT_EMPTY_PENDING &&
		pwrite(fd, &ready, 1, 7) == 1;
	close(fd);
	return marked;
}

/* What the slot maker's thread is to do (malloc'd, freed by it). */
typedef struct SlotWork
{
	char	   *make;			/* an empty slot here, unless a file is there */
	FilledSlot	trim;			/* give back the blocks past this one's payload */
} SlotWork;

static void
slot_work_free(SlotWork *work)
{
	free(work->make);
	free(work->trim.path);
	free(work);
}

static uint8_t empty_slot[SLOT_FILE_SIZE];	/* what make_slot writes, made once */
static pthread_once_t empty_slot_once = PTHREAD_ONCE_INIT;

static void
init_empty_slot(void)
{
	memcpy(empty_slot, SLOT_MAGIC, 7);
	empty_slot[7] = SLOT_PENDING;
}

/*
 * make_slot -- the empty slot: written whole and synced under a temporary name,
 * linked in (pending), the directory synced, then marked ready. Then the last
 * filled slot's zeros past its payload become a hole: its content does not change,
 * so neither order nor a crash matters, and a WAL object keeps a few kilobytes of
 * disk rather than SLOT_FILE_SIZE.
 */
static void *
make_slot(void *arg)
{
	SlotWork   *work = arg;
	char	   *tmp = NULL;
	struct stat st;
	const uint8_t *empty = empty_slot;

	pthread_once(&empty_slot_once, init_empty_slot);
	if (work->make && stat(work->make, &st) != 0 && make_parent_dirs(work->make) == RL_OK &&
		write_temp(work->make, empty, SLOT_FILE_SIZE, &tmp) == RL_OK && stat(tmp, &st) == 0)
	{
		bool		linked = link(tmp, work->make) == 0;

		unlink(tmp);
		if (linked && fsync_parent(work->make) == RL_OK)
			mark_ready(work->make, st.st_ino);
	}
	if (work->trim.path)
	{
		int			fd = open(work->trim.path, O_WRONLY);
		off_t		from = (off_t) ((SLOT_HEADER_SIZE + work->trim.len + 4095) & ~(uint64_t) 4095);

		if (fd >= 0 && fstat(fd, &st) == 0 && st.st_ino == work->trim.ino && from < SLOT_FILE_SIZE)
			fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, from, SLOT_FILE_SIZE - from);
		if (fd >= 0)
			close(fd);
	}
	free(tmp);
	slot_work_free(work);
	return NULL;
}

/* wait_for_slot -- the slot being made is done; with block false, only if it is already */
static bool
wait_for_slot(LocalStore *ls, bool block)
{
	if (ls->making)
		ls->making = (block ? pthread_join(ls->slot_maker, NULL) : pthread_tryjoin_np(ls->slot_maker, NULL)) != 0;
	return !ls->making;
}

/*
 * local_prepare -- an empty slot at next_key, made durable by a thread of its own
 * so that the caller goes on at once: the next create-if-absent put of that key
 * then costs one fdatasync. A put that comes first publishes as it would without
 * it (fill_slot and publish_temp take each other's files in either order). While
 * the last slot is still being made, nothing is done.
 */
static void
local_prepare(ObjectStore *os, const char *next_key)
{
	LocalStore *ls = (LocalStore *) os;
	struct stat st;

	if (next_key == NULL || !key_is_valid(next_key) || !wait_for_slot(ls, false))
		return;

	SlotWork   *work = calloc(1, sizeof(SlotWork));

	work->make = local_path(ls, next_key);
	if (stat(work->make, &st) == 0)
	{
		free(work->make);		/* made already, or an object */
		work->make = NULL;
	}
	work->trim = ls->filled;
	ls->filled.path = NULL;
	if ((work->make || work->trim.path) && pthread_create(&ls->slot_maker, NULL, make_slot, work) == 0)
		ls->making = true;
	else
		slot_work_free(work);
}

static RlStatus
local_lock_take(ObjectStore *os, const char *text)
{
	LocalStore *ls = (LocalStore *) os;
	char	   *path = local_path(ls, WRITER_LOCK_FILE);
	size_t		len = strlen(text);
	RlStatus	rc = RL_OK;

	if (ls->writer_lock_fd < 0)
	{
		int			fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};

		if (fd < 0)
			rc = errno_status(errno, "open", path);
		else if (fcntl(fd, F_OFD_SETLK, &fl) != 0)
		{
			int			err = errno;

			close(fd);
			rc = err == EAGAIN || err == EACCES ?
				rl_error(RL_CONTENDED, "another process holds the writer lock \"%s\"", path) :
				errno_status(err, "lock", path);
		}
		else
			ls->writer_lock_fd = fd;
	}
	/* the text, then the length: a reader may see a torn text, never a lost lock */
	if (rc == RL_OK && (pwrite(ls->writer_lock_fd, text, len, 0) != (ssize_t) len ||
						ftruncate(ls->writer_lock_fd, (off_t) len) != 0))
		rc = errno_status(errno, "write", path);
	free(path);
	return rc;
}

static RlStatus
local_lock_holder(ObjectStore *os, RlBuf *text)
{
	LocalStore *ls = (LocalStore *) os;
	char	   *path = local_path(ls, WRITER_LOCK_FILE);
	int			fd = open(path, O_RDONLY | O_CLOEXEC);
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	struct stat st;
	RlStatus	rc;

	if (fd < 0)
		rc = errno == ENOENT ? RL_NOT_FOUND : errno_status(errno, "open", path);
	else if (fcntl(fd, F_OFD_GETLK, &fl) != 0)
		rc = errno_status(errno, "look at the lock of", path);
	else if (fl.l_type == F_UNLCK)
		rc = RL_NOT_FOUND;
	else
		rc = read_file(path, 0, OBJ_TO_END, text, &st);
	if (fd >= 0)
		close(fd);
	free(path);
	return rc;
}

static void
local_close(ObjectStore *os)
{
	LocalStore *ls = (LocalStore *) os;

	if (ls->writer_lock_fd >= 0)
		close(ls->writer_lock_fd);	/* releases the writer lock */
	wait_for_slot(ls, true);
	free(ls->filled.path);
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
	.lock_take = local_lock_take,
	.lock_holder = local_lock_holder,
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
	ls->writer_lock_fd = -1;
	ls->root = realpath(root, NULL);
	rlbuf_init(&desc);
	rlbuf_printf(&desc, "local directory %s", ls->root);
	ls->base.description = (char *) rlbuf_steal(&desc, NULL);
	return &ls->base;
}
