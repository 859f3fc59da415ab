#include "twz_error.h"

#include <stdarg.h>
#include <stdio.h>

/* Messages quote bytes from the input (a header line, a field): keep them
 * one printable line whatever the file holds, so a crafted level cannot
 * split the message or send terminal control sequences. */
static void printable(char *msg)
{
	for (unsigned char *p = (unsigned char *)msg; *p; p++) {
		if (*p == '\t')
			*p = ' ';
		else if (*p < 0x20 || *p == 0x7f)
			*p = '?';
	}
}

__attribute__((format(printf, 3, 0)))
static void error_vset(struct twz_error *err, enum twz_error_kind kind,
		       const char *fmt, va_list ap)
{
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	printable(err->msg);
	err->kind = kind;
}

void twz_error_set(struct twz_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	error_vset(err, TWZ_ERR_INPUT, fmt, ap);
	va_end(ap);
}

void twz_error_kind_set(struct twz_error *err, enum twz_error_kind kind,
			const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	error_vset(err, kind, fmt, ap);
	va_end(ap);
}
