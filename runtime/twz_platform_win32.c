/*
 * twz_platform_win32.c - twz_platform.h on Windows: a UTF-8 path made
 * wide, CreateFileW, GetFileSizeEx, CreateFileMappingW, MapViewOfFile and
 * UnmapViewOfFile. Failures set errno from GetLastError, so that a caller
 * reads TWZ_E_IO's cause the same way on every system.
 */
#include "twz_platform.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

/* The errno closest to a Win32 error, as the C library maps them. */
static int errno_of(DWORD err)
{
	switch (err) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
	case ERROR_INVALID_DRIVE:
	case ERROR_INVALID_NAME:
	case ERROR_BAD_NETPATH:
	case ERROR_BAD_NET_NAME:
	case ERROR_BAD_PATHNAME:
		return ENOENT;
	case ERROR_ACCESS_DENIED:
	case ERROR_SHARING_VIOLATION:
	case ERROR_LOCK_VIOLATION:
		return EACCES;
	case ERROR_NOT_ENOUGH_MEMORY:
	case ERROR_OUTOFMEMORY:
	case ERROR_COMMITMENT_LIMIT:
		return ENOMEM;
	case ERROR_TOO_MANY_OPEN_FILES:
		return EMFILE;
	case ERROR_FILENAME_EXCED_RANGE:
		return ENAMETOOLONG;
	default:
		return EIO;
	}
}

/* TWZ_E_IO with errno from the thread's last Win32 error. */
static twz_status io_error(void)
{
	errno = errno_of(GetLastError());
	return TWZ_E_IO;
}

/* path as a wide string, or NULL with errno set (EILSEQ: not UTF-8). */
static wchar_t *widen(const char *path)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1,
				    NULL, 0);
	wchar_t *w;

	if (n <= 0) {
		errno = EILSEQ;
		return NULL;
	}
	w = malloc((size_t)n * sizeof *w);
	if (!w) {
		errno = ENOMEM;
		return NULL;
	}
	if (MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, w,
				n) != n) {
		free(w);
		errno = EILSEQ;
		return NULL;
	}
	return w;
}

twz_status twz_map_file(const char *path, uint64_t min_len,
			const uint8_t **data, size_t *len)
{
	LARGE_INTEGER size;
	HANDLE file, mapping;
	const void *view;
	wchar_t *wpath = widen(path);

	if (!wpath)
		return errno == ENOMEM ? TWZ_E_NOMEM : TWZ_E_IO;
	/* Others may read, rename or delete it meanwhile, not write it. */
	file = CreateFileW(wpath, GENERIC_READ,
			   FILE_SHARE_READ | FILE_SHARE_DELETE, NULL,
			   OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
	if (file == INVALID_HANDLE_VALUE) {
		DWORD err = GetLastError();
		/* A directory does not open without backup semantics: say
		 * so as POSIX does. */
		DWORD attr = err == ERROR_ACCESS_DENIED ?
				     GetFileAttributesW(wpath) :
				     INVALID_FILE_ATTRIBUTES;
		free(wpath);
		if (attr != INVALID_FILE_ATTRIBUTES &&
		    (attr & FILE_ATTRIBUTE_DIRECTORY)) {
			errno = EISDIR;
			return TWZ_E_IO;
		}
		errno = errno_of(err);
		return TWZ_E_IO;
	}
	free(wpath);
	/* A console, pipe or device is not a database. */
	if (GetFileType(file) != FILE_TYPE_DISK) {
		CloseHandle(file);
		errno = EINVAL;
		return TWZ_E_IO;
	}
	if (!GetFileSizeEx(file, &size)) {
		twz_status st = io_error();
		CloseHandle(file);
		return st;
	}
	if ((uint64_t)size.QuadPart < min_len) {
		CloseHandle(file);
		return TWZ_E_NOT_TWIGZ;
	}
	if ((uint64_t)size.QuadPart > SIZE_MAX) {
		CloseHandle(file);
		return TWZ_E_LIMIT;
	}
	mapping = CreateFileMappingW(file, NULL, PAGE_READONLY, 0, 0, NULL);
	if (!mapping) {
		twz_status st = io_error();
		CloseHandle(file);
		return st;
	}
	view = MapViewOfFile(mapping, FILE_MAP_READ, 0, 0,
			     (SIZE_T)size.QuadPart);
	if (!view) {
		twz_status st = io_error();
		CloseHandle(mapping);
		CloseHandle(file);
		return st;
	}
	/* The view keeps the mapping and the file. */
	CloseHandle(mapping);
	CloseHandle(file);
	*data = view;
	*len = (size_t)size.QuadPart;
	return TWZ_OK;
}

void twz_unmap_file(const uint8_t *data, size_t len)
{
	(void)len;
	UnmapViewOfFile(data);
}

void twz_yield(void)
{
	SwitchToThread();
}
