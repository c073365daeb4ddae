/*-------------------------------------------------------------------------
 *
 * pidfile.c
 *	  The data-directory lock file and the Unix-socket lock files, after
 *	  PostgreSQL's miscinit.c.
 *
 * These files are the contract between a running server and everything outside
 * it: pg_ctl waits for line 8 of postmaster.pid to say "ready" and for the file to
 * disappear at shutdown, init scripts read line 1, and a second server started on
 * the same data directory or socket finds the lock and refuses. A lock whose PID
 * no longer runs is stale (a crash, a reboot) and is replaced, so no manual
 * cleanup is ever needed. The files are created with O_EXCL so two servers
 * racing for the same directory cannot both win.
 *
 * IDENTIFICATION
 *	  src/postmaster/pidfile.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "postmaster/pidfile.h"
#include "utils/elog.h"

#define DIRECTORY_LOCK_FILE "postmaster.pid"
#define LOCK_FILE_LINES 8
#define MAX_LOCK_FILE_SIZE 2048
#define MAX_REMEMBERED_FILES 32

/* socket and socket lock files RemoveLockFiles will unlink, in creation order */
static char *lock_files[MAX_REMEMBERED_FILES];
static int	n_lock_files;
static char *data_dir_lock_path;

/*
 * remember_file -- note a file for RemoveLockFiles
 */
static void
remember_file(const char *path)
{
	char	   *copy;

	if (n_lock_files >= MAX_REMEMBERED_FILES)
		elog(FATAL, "too many lock and socket files");
	copy = strdup(path);
	if (copy == NULL)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	lock_files[n_lock_files++] = copy;
}

/*
 * write_whole_file -- replace an open file's contents and fsync it
 */
static bool
write_whole_file(int fd, const char *contents)
{
	size_t		len = strlen(contents);

	if (lseek(fd, 0, SEEK_SET) != 0 ||
		write(fd, contents, len) != (ssize_t) len ||
		ftruncate(fd, (off_t) len) != 0 ||
		fsync(fd) != 0)
		return false;
	return true;
}

/*
 * lock_holder_alive -- whether the PID in an existing lock file still runs
 *
 * Our own PID, our parent's and the grandparent pg_ctl names in
 * PG_GRANDPARENT_PID cannot be another server: after a reboot they may simply
 * have been reused. ESRCH means gone; EPERM means a process of another user,
 * which cannot be the owner of our mode-0600 file.
 */
static bool
lock_holder_alive(pid_t other)
{
	const char *gp = getenv("PG_GRANDPARENT_PID");

	if (other == getpid() || other == getppid() ||
		(gp != NULL && other == (pid_t) atol(gp)))
		return false;
	if (kill(other, 0) == 0)
		return true;
	return errno != ESRCH && errno != EPERM;
}

/*
 * CreateLockFile -- create a lock file with O_EXCL, replacing a stale one
 *
 * ref_is_socket selects the wording of the hint. Returns the open descriptor.
 */
static int
CreateLockFile(const char *filename, const char *contents, bool ref_is_socket,
			   const char *refname)
{
	for (int tries = 0;; tries++)
	{
		char		buf[MAX_LOCK_FILE_SIZE];
		int			fd = open(filename, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		ssize_t		len;
		long		other;

		if (fd >= 0)
		{
			if (!write_whole_file(fd, contents))
			{
				int			save_errno = errno;

				close(fd);
				unlink(filename);
				ereport(FATAL, errcode(ERRCODE_IO_ERROR),
						errmsg("could not write lock file \"%s\": %s", filename,
							   strerror(save_errno)));
			}
			return fd;
		}
		if (errno != EEXIST || tries > 100)
			ereport(FATAL, errcode(ERRCODE_IO_ERROR),
					errmsg("could not create lock file \"%s\": %s", filename, strerror(errno)));

		fd = open(filename, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
		{
			if (errno == ENOENT)
				continue;		/* removed meanwhile: try again */
			ereport(FATAL, errcode(ERRCODE_IO_ERROR),
					errmsg("could not open lock file \"%s\": %s", filename, strerror(errno)));
		}
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len < 0)
			ereport(FATAL, errcode(ERRCODE_IO_ERROR),
					errmsg("could not read lock file \"%s\": %s", filename, strerror(errno)));
		if (len == 0)
			ereport(FATAL, errcode(ERRCODE_LOCK_FILE_EXISTS),
					errmsg("lock file \"%s\" is empty", filename),
					errhint("Either another server is starting, or the lock file is the remnant of a previous server startup crash."));
		buf[len] = '\0';
		other = atol(buf);
		if (other <= 0)
			ereport(FATAL, errcode(ERRCODE_LOCK_FILE_EXISTS),
					errmsg("bogus data in lock file \"%s\": \"%.*s\"", filename,
						   (int) strcspn(buf, "\n"), buf));
		if (lock_holder_alive((pid_t) other))
		{
			if (ref_is_socket)
				ereport(FATAL, errcode(ERRCODE_LOCK_FILE_EXISTS),
						errmsg("lock file \"%s\" already exists", filename),
						errhint("Is another postmaster (PID %ld) using socket file \"%s\"?",
								other, refname));
			ereport(FATAL, errcode(ERRCODE_LOCK_FILE_EXISTS),
					errmsg("lock file \"%s\" already exists", filename),
					errhint("Is another postmaster (PID %ld) running in data directory \"%s\"?",
							other, refname));
		}
		/* stale: its server is gone */
		if (unlink(filename) < 0 && errno != ENOENT)
			ereport(FATAL, errcode(ERRCODE_IO_ERROR),
					errmsg("could not remove old lock file \"%s\": %s", filename,
						   strerror(errno)),
					errhint("The file seems accidentally left over, but it could not be removed. Please remove the file by hand and try again."));
	}
}

/*
 * CreateDataDirLockFile -- take the data directory: postmaster.pid
 */
void
CreateDataDirLockFile(const char *datadir, int port, time_t start_time)
{
	char		contents[MAX_LOCK_FILE_SIZE];
	size_t		len = strlen(datadir) + sizeof(DIRECTORY_LOCK_FILE) + 2;
	int			fd;

	snprintf(contents, sizeof(contents), "%d\n%s\n%ld\n%d\n\n\n\n%s\n",
			 (int) getpid(), datadir, (long) start_time, port, PM_STATUS_STARTING);
	data_dir_lock_path = malloc(len);
	if (data_dir_lock_path == NULL)
		ereport(FATAL, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
	snprintf(data_dir_lock_path, len, "%s/%s", datadir, DIRECTORY_LOCK_FILE);
	fd = CreateLockFile(data_dir_lock_path, contents, false, datadir);
	close(fd);
}

/*
 * AddToDataDirLockFile -- set one line of postmaster.pid
 *
 * The file is read, the line replaced and the whole written back from offset 0
 * and fsynced. Failing here is only a WARNING: the server can run without it,
 * pg_ctl just cannot see its state.
 */
void
AddToDataDirLockFile(int line, const char *value)
{
	char		buf[MAX_LOCK_FILE_SIZE];
	char		out[MAX_LOCK_FILE_SIZE];
	char	   *lines[LOCK_FILE_LINES] = {0};
	char	   *p;
	size_t		outlen = 0;
	ssize_t		len;
	int			fd;

	fd = open(data_dir_lock_path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
	{
		ereport(WARNING, errcode(ERRCODE_IO_ERROR),
				errmsg("could not open file \"%s\": %s", data_dir_lock_path, strerror(errno)));
		return;
	}
	len = read(fd, buf, sizeof(buf) - 1);
	if (len < 0)
		len = 0;
	buf[len] = '\0';

	/* split keeping empty lines (strtok would merge them) */
	p = buf;
	for (int i = 0; i < LOCK_FILE_LINES && p && *p; i++)
	{
		lines[i] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = '\0';
	}
	lines[line - 1] = (char *) value;
	for (int i = 0; i < LOCK_FILE_LINES; i++)
		outlen += snprintf(out + outlen, sizeof(out) - outlen, "%s\n", lines[i] ? lines[i] : "");
	if (!write_whole_file(fd, out))
		ereport(WARNING, errcode(ERRCODE_IO_ERROR),
				errmsg("could not write lock file \"%s\": %s", data_dir_lock_path, strerror(errno)));
	close(fd);
}

/*
 * CreateSocketLockFile -- lock a Unix socket path before binding it
 *
 * The contents are postmaster.pid's first five lines with line 5 this socket's
 * directory, as PostgreSQL writes them.
 */
void
CreateSocketLockFile(const char *socketfile, const char *socketdir)
{
	char		lockfile[1100];
	char		contents[MAX_LOCK_FILE_SIZE];
	char		pidbuf[MAX_LOCK_FILE_SIZE] = "";
	int			fd;
	ssize_t		len;

	/* lines 1-4 come from postmaster.pid, so both always agree */
	fd = open(data_dir_lock_path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
	{
		len = read(fd, pidbuf, sizeof(pidbuf) - 1);
		pidbuf[len > 0 ? len : 0] = '\0';
		close(fd);
	}
	{
		const char *p = pidbuf;

		for (int i = 0; i < 4 && p; i++)
		{
			p = strchr(p, '\n');
			if (p)
				p++;
		}
		snprintf(contents, sizeof(contents), "%.*s%s\n",
				 p ? (int) (p - pidbuf) : 0, pidbuf, socketdir);
	}
	snprintf(lockfile, sizeof(lockfile), "%s.lock", socketfile);
	fd = CreateLockFile(lockfile, contents, true, socketfile);
	close(fd);
	remember_file(lockfile);
}

/*
 * RememberSocketFile -- a bound socket file, to unlink at exit
 */
void
RememberSocketFile(const char *socketfile)
{
	remember_file(socketfile);
}

/*
 * RemoveLockFiles -- unlink everything we created, postmaster.pid last
 *
 * pg_ctl stop waits for postmaster.pid to disappear, so it must go only when
 * nothing else of ours is left behind.
 */
void
RemoveLockFiles(void)
{
	for (int i = n_lock_files - 1; i >= 0; i--)
	{
		unlink(lock_files[i]);
		free(lock_files[i]);
		lock_files[i] = NULL;
	}
	n_lock_files = 0;
	if (data_dir_lock_path)
	{
		unlink(data_dir_lock_path);
		free(data_dir_lock_path);
		data_dir_lock_path = NULL;
	}
}
