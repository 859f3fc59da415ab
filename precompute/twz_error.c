#include "twz_error.h"

#include <stdarg.h>
#include <stdio.h>

void twz_error_set(struct twz_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	err->kind = TWZ_ERR_INPUT;
}

void twz_error_kind_set(struct twz_error *err, enum twz_error_kind kind,
			const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	err->kind = kind;
}
