/*
 * twz_error.h - one-line error messages of the precompute side. Every
 * reader and stage reports "FILE:LINE: problem" (or "FILE: problem")
 * through this, so the command prints exactly one line per failure.
 */
#ifndef TWZ_ERROR_H
#define TWZ_ERROR_H

/* What kind of failure, for the command's exit status. */
enum twz_error_kind {
	TWZ_ERR_INPUT = 0,   /* malformed or unsupported input */
	TWZ_ERR_IO = 1,      /* a file could not be read or written */
	TWZ_ERR_NOMEM = 2,   /* out of memory */
	TWZ_ERR_USAGE = 3,   /* options that do not go together */
};

struct twz_error {
	char msg[512];
	enum twz_error_kind kind;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void twz_error_set(struct twz_error *err, const char *fmt, ...);

/* The same, for a failure of the given kind. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void twz_error_kind_set(struct twz_error *err, enum twz_error_kind kind,
			const char *fmt, ...);

#endif /* TWZ_ERROR_H */
