/*
 * write_file.c - the perf.data writer's file names and locks.  A file
 * being written is locked (flock, exclusive), so a second writer of the
 * same name is refused instead of writing into it.  A file written "aside"
 * has no name until it is published (O_TMPFILE: a recorder killed before
 * that leaves nothing behind), or where the filesystem cannot do that a
 * name of its own beside the one asked for (NAME.peo-XXXXXX); published,
 * an existing NAME is kept as NAME.old, as perf record keeps it, and the
 * new file becomes NAME.  A recording that never starts leaves NAME as it
 * was.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "perfdata/write.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif

/* The pid holding an flock on @fd's file, from /proc/locks; 0 when not found. */
static long lock_holder(int fd)
{
	char line[256];
	struct stat st;
	long found = 0, by_inode = 0;
	FILE *in;

	if (fstat(fd, &st) || !(in = fopen("/proc/locks", "re")))
		return 0;
	/* "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; waiters have "->" */
	while (!found && fgets(line, sizeof(line), in)) {
		unsigned maj, min;
		unsigned long long ino;
		long pid;
		char kind[16];

		if (strstr(line, "->") ||
		    sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%llu", kind, &pid, &maj, &min, &ino) != 5 ||
		    strcmp(kind, "FLOCK") || ino != (unsigned long long)st.st_ino)
			continue;
		if (maj == major(st.st_dev) && min == minor(st.st_dev))
			found = pid;
		else if (!by_inode) /* overlayfs and friends name another device */
			by_inode = pid;
	}
	fclose(in);
	return found ? found : by_inode;
}

int pd_file_lock(int fd, const char *path)
{
	long pid;

	if (!flock(fd, LOCK_EX | LOCK_NB))
		return 0;
	if (errno != EWOULDBLOCK)
		return 0; /* no locks here (some network filesystems): write without */
	pid = lock_holder(fd);
	if (pid > 0)
		return peo_fail(EBUSY, "%s is being written by another recorder (pid %ld); wait for "
				"it to finish or write another file", path, pid);
	return peo_fail(EBUSY, "%s is being written by another recorder; wait for it to finish "
			"or write another file", path);
}

int pd_file_take(const char *path, int *fd, struct stat *st)
{
	for (int tries = 0; tries < 16; tries++) {
		struct stat now;
		int err;

		*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (*fd < 0 && errno == ENOENT) /* a dangling link is written through, as perf does */
			return lstat(path, &now) ? PD_FILE_ABSENT : PD_FILE_OTHER;
		if (*fd < 0) /* not readable (mode 0200): a file, unlocked */
			return !stat(path, st) && S_ISREG(st->st_mode) ? PD_FILE_REGULAR : PD_FILE_OTHER;
		if (fstat(*fd, st) || !S_ISREG(st->st_mode)) {
			close(*fd);
			*fd = -1;
			return PD_FILE_OTHER;
		}
		if ((err = pd_file_lock(*fd, path))) {
			close(*fd);
			*fd = -1;
			return err;
		}
		/* the file locked must be the one the name gives, not one renamed away since */
		if (!stat(path, &now) && now.st_dev == st->st_dev && now.st_ino == st->st_ino)
			return PD_FILE_REGULAR;
		close(*fd);
	}
	*fd = -1;
	return peo_fail(EAGAIN, "%s is replaced again and again as it is looked at; is another "
			"program writing it?", path);
}

/* A file without a name in @path's directory (O_TMPFILE), or -1 where the
 * filesystem or kernel cannot make one (or /proc, which names it later,
 * is not there). */
static int unnamed_beside(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

#ifdef O_TMPFILE
	if (access("/proc/self/fd", X_OK))
		return -1;
	dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	if (!dir)
		return -1;
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	free(dir);
	return fd;
#else
	(void)path, (void)slash, (void)dir, (void)fd;
	return -1;
#endif
}

/* @fd, a new file named @name or unnamed (@name NULL), locked; else closed,
 * its name removed. */
static int locked(int fd, const char *name, const char *path)
{
	int err = pd_file_lock(fd, name ? name : path); /* a file nobody had: only a bug is refused */

	if (!err)
		return fd;
	close(fd);
	if (name)
		unlink(name);
	return err;
}

int pd_file_temp(const char *path, char **temp)
{
	size_t n = strlen(path) + sizeof(".peo-XXXXXX");
	int fd, err;

	*temp = NULL;
	if ((fd = unnamed_beside(path)) >= 0)
		return locked(fd, NULL, path);
	*temp = malloc(n);
	if (!*temp)
		return peo_fail(ENOMEM, "out of memory for a file name");
	snprintf(*temp, n, "%s.peo-XXXXXX", path);
	fd = mkostemp(*temp, O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		free(*temp);
		*temp = NULL;
		return peo_fail(err, "perf.data writer: cannot create a file beside '%s' to write "
				"it under another name until the recording starts: %s%s", path,
				strerror(err), err == EACCES || err == EROFS ? "; is its directory writable?"
				: err == ENOENT ? "; does its directory exist?" : "");
	}
	if ((fd = locked(fd, *temp, path)) < 0) {
		free(*temp);
		*temp = NULL;
	}
	return fd;
}

/* Unnamed file @fd named @path, unless @path exists (-EEXIST then). */
static int link_fd(int fd, const char *path)
{
	char proc[64];

#ifdef AT_EMPTY_PATH
	if (!linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH)) /* with CAP_DAC_READ_SEARCH */
		return 0;
	if (errno == EEXIST)
		return -EEXIST;
#endif
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	return linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) ? -errno : 0;
}

int pd_file_name(int fd, const char *path, char **name)
{
	size_t n = strlen(path) + 40;
	int err = -EEXIST;

	if (!(*name = malloc(n)))
		return peo_fail(ENOMEM, "out of memory for a file name");
	for (unsigned tries = 0; tries < 1000 && err == -EEXIST; tries++) {
		snprintf(*name, n, "%s.peo-%ld-%u", path, (long)getpid(), tries);
		err = link_fd(fd, *name);
	}
	if (err) {
		free(*name);
		*name = NULL;
		return peo_fail(-err, "perf.data writer: cannot give the recording a name beside "
				"%s: %s", path, strerror(-err));
	}
	return 0;
}

/* rename(@from, @to) unless @to exists (-EEXIST then). */
static int rename_noreplace(const char *from, const char *to)
{
#ifdef SYS_renameat2
	if (!syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
#endif
	/* a filesystem without RENAME_NOREPLACE: link() does not replace either */
	if (!link(from, to)) {
		unlink(from);
		return 0;
	}
	if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP)
		return -errno;
	return rename(from, to) ? -errno : 0; /* no hard links (vfat): as rename goes */
}

/* The new file (named @temp, or unnamed @fd) named @path unless @path exists. */
static int put_noreplace(const char *temp, int fd, const char *path)
{
	return temp ? rename_noreplace(temp, path) : link_fd(fd, path);
}

int pd_file_publish(const char *temp, int temp_fd, const char *path)
{
	for (int tries = 0; tries < 16; tries++) {
		struct stat st;
		int fd, kind = pd_file_take(path, &fd, &st), err;

		if (kind < 0)
			return kind;
		if (kind == PD_FILE_REGULAR && st.st_size > 0) { /* kept as .old, as perf keeps it */
			size_t n = strlen(path) + sizeof(".old");
			char *old = malloc(n);
			struct stat ost;
			int ofd = -1, okind;

			if (!old) {
				close(fd);
				return peo_fail(ENOMEM, "out of memory for a file name");
			}
			snprintf(old, n, "%s.old", path);
			/* a .old another recorder writes (peo record -o NAME.old) is not replaced */
			okind = pd_file_take(old, &ofd, &ost);
			err = okind < 0 ? okind : rename(path, old) ? -errno : 0;
			if (err && okind >= 0)
				err = peo_fail(-err, "perf.data writer: cannot keep %s as %s: %s", path,
					       old, strerror(-err));
			if (ofd >= 0)
				close(ofd);
			free(old);
			if (err) {
				close(fd);
				return err;
			}
			err = put_noreplace(temp, temp_fd, path);
		} else if (kind == PD_FILE_REGULAR) { /* empty: replaced, as perf writes over it */
			err = temp ? (rename(temp, path) ? -errno : 0)
			     : unlink(path) && errno != ENOENT ? -errno
			     : -EEXIST; /* gone: the next look links it there */
		} else if (kind == PD_FILE_ABSENT) {
			err = put_noreplace(temp, temp_fd, path);
		} else {
			return peo_fail(EEXIST, "perf.data writer: %s is no regular file now; the "
					"recording stays %s%s", path, temp ? "in " : "unnamed",
					temp ? temp : "");
		}
		if (fd >= 0)
			close(fd);
		if (err == -EEXIST)
			continue; /* another file came there meanwhile: look at it again */
		if (err)
			return peo_fail(-err, "perf.data writer: cannot rename %s to %s: %s",
					temp ? temp : "the recording", path, strerror(-err));
		return 0;
	}
	return peo_fail(EAGAIN, "%s is replaced again and again as it is looked at; the "
			"recording stays %s%s", path, temp ? "in " : "unnamed", temp ? temp : "");
}
