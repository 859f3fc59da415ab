/*
 * twz_platform_posix.c - twz_platform.h on POSIX systems: open, fstat,
 * mmap and munmap.
 */
#include "twz_platform.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

twz_status twz_map_file(const char *path, uint64_t min_len,
			const uint8_t **data, size_t *len)
{
	struct stat sb;
	void *map;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return TWZ_E_IO;
	if (fstat(fd, &sb) != 0) {
		int err = errno;
		close(fd);
		errno = err;
		return TWZ_E_IO;
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		/* errno says why: a directory or device is not a database. */
		errno = S_ISDIR(sb.st_mode) ? EISDIR : EINVAL;
		return TWZ_E_IO;
	}
	if ((uint64_t)sb.st_size < min_len) {
		close(fd);
		return TWZ_E_NOT_TWIGZ;
	}
	if ((uint64_t)sb.st_size > SIZE_MAX) {
		close(fd);
		return TWZ_E_LIMIT;
	}
	map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);  /* the mapping keeps the file */
	if (map == MAP_FAILED)
		return TWZ_E_IO;
	*data = map;
	*len = (size_t)sb.st_size;
	return TWZ_OK;
}

void twz_unmap_file(const uint8_t *data, size_t len)
{
	munmap((void *)data, len);
}

void twz_yield(void)
{
	sched_yield();
}
