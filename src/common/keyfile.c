/* keyfile.c: the server key file.  See keyfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keyfile.h"

/* Writes all of buf[0..n) to fd; 0 or -1 (errno). */
static int write_all(int fd, const uint8_t *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Syncs the directory holding path, so that a new file's name is
 * durable.  0 or -1 (errno). */
static int sync_dir(const char *path)
{
	char *copy = strdup(path);
	if (!copy)
		return -1;
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	close(fd);
	return rc;
}

/* Creates the key file with fresh random bytes.  0, 1 when another
 * process created it first (read it then), -1 with err. */
static int create(const char *path, uint8_t *key, size_t len, char *err,
                  size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST)
		return 1;
	if (fd < 0) {
		snprintf(err, errlen, "cannot create the key file %s: %s", path,
		         strerror(errno));
		return -1;
	}
	randombytes_buf(key, len);
	int rc =
	    fchmod(fd, 0600) < 0 || write_all(fd, key, len) < 0 || fsync(fd) < 0
	        ? -1
	        : 0;
	int saved = errno;
	close(fd);
	if (rc == 0 && sync_dir(path) < 0)
		rc = -1, saved = errno;
	if (rc < 0) {
		sodium_memzero(key, len);
		unlink(path);
		snprintf(err, errlen, "cannot write the key file %s: %s", path,
		         strerror(saved));
	}
	return rc;
}

int keyfile_load(const char *path, uint8_t *key, size_t len, char *err,
                 size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno == ENOENT) {
		int rc = create(path, key, len, err, errlen);
		if (rc <= 0)
			return rc < 0 ? rc : KEYFILE_CREATED;
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	}
	if (fd < 0) {
		snprintf(err, errlen, "cannot open the key file %s: %s", path,
		         strerror(errno));
		return -1;
	}
	struct stat st;
	const char *bad = NULL;
	if (fstat(fd, &st) < 0)
		bad = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		bad = "not a regular file";
	else if (st.st_mode & 077)
		bad = "its group or others may read or write it (chmod 600 it)";
	else if (st.st_size != (off_t)len)
		bad = "it is not a key of this server (wrong size)";
	ssize_t n = bad ? -1 : read(fd, key, len);
	close(fd);
	if (!bad && n != (ssize_t)len)
		bad = "it cannot be read whole";
	if (bad) {
		sodium_memzero(key, len);
		snprintf(err, errlen, "key file %s: %s", path, bad);
		return -1;
	}
	return 0;
}
