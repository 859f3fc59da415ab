/*
 * twz_platform.h - what the runtime asks of the operating system: map a
 * whole file read-only, and unmap it. One file per platform implements
 * it (twz_platform_posix.c, twz_platform_win32.c; runtime/meson.build
 * picks one); nothing else in the runtime calls the system.
 */
#ifndef TWZ_PLATFORM_H
#define TWZ_PLATFORM_H

#include "twigz.h"

/*
 * Map the regular file at path read-only: *data and *len are its bytes.
 * path is UTF-8 on Windows and the system's bytes elsewhere.
 *
 * TWZ_E_IO when the file cannot be opened, sized or mapped, or is not a
 * regular file, with errno saying why (ENOENT, EACCES, EISDIR, ...);
 * TWZ_E_NOT_TWIGZ when it is shorter than min_len bytes (it cannot hold
 * what the caller looks for, and an empty file cannot be mapped);
 * TWZ_E_LIMIT when it does not fit the address space; TWZ_E_NOMEM.
 * Nothing stays open on failure, nor besides the mapping on success.
 */
twz_status twz_map_file(const char *path, uint64_t min_len,
			const uint8_t **data, size_t *len);

/* Release a mapping twz_map_file made. */
void twz_unmap_file(const uint8_t *data, size_t len);

/* Give the processor to another thread: a miss of the chunk cache
 * (twz_chunks.c) waits so for a chunk another thread is inflating. */
void twz_yield(void);

#endif /* TWZ_PLATFORM_H */
