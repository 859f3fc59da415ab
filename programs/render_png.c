/*
 * render_png.c - PNG encoding of a raster canvas through libpng, into
 * memory (the caller writes the file atomically). libpng is optional
 * (meson option 'png'); without it PNG output is refused with a message
 * and SVG output still works.
 */
#include <stdlib.h>
#include <string.h>

#include "render.h"

#if defined(TWZ_HAVE_PNG) && TWZ_HAVE_PNG
#include <png.h>

struct png_sink {
	uint8_t *buf;
	size_t len;
	size_t cap;
	int failed;
};

static void sink_write(png_structp png, png_bytep data, png_size_t n)
{
	struct png_sink *s = png_get_io_ptr(png);

	if (s->failed)
		return;
	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 1 << 16;
		while (cap < s->len + n)
			cap *= 2;
		uint8_t *p = realloc(s->buf, cap);
		if (!p) {
			s->failed = 1;
			return;
		}
		s->buf = p;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, data, n);
	s->len += n;
}

static void sink_flush(png_structp png)
{
	(void)png;
}

int twz_png_available(void)
{
	return 1;
}

int twz_png_encode(const struct twz_canvas *c, uint8_t **buf, size_t *len,
		   const char *name, struct twz_error *err)
{
	/* volatile: read after a longjmp from libpng's error handler. */
	struct png_sink sink = { NULL, 0, 0, 0 };
	struct png_sink *volatile sp = &sink;
	png_structp png;
	png_infop info = NULL;

	*buf = NULL;
	*len = 0;
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (!png)
		goto out_nomem;
	info = png_create_info_struct(png);
	if (!info)
		goto out_png;
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(sp->buf);
		twz_error_set(err, "%s: the PNG encoder failed", name);
		return -1;
	}
	png_set_write_fn(png, sp, sink_write, sink_flush);
	png_set_IHDR(png, info, c->width, c->height, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
		     PNG_FILTER_TYPE_DEFAULT);
	png_set_compression_level(png, 9);
	png_text text;
	memset(&text, 0, sizeof text);
	text.compression = PNG_TEXT_COMPRESSION_NONE;
	text.key = (png_charp)"Software";
	text.text = (png_charp)"twigz render";
	png_set_text(png, info, &text, 1);
	png_write_info(png, info);
	for (uint32_t y = 0; y < c->height; y++)
		png_write_row(png, c->rgb + (size_t)y * c->width * 3);
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	if (sink.failed) {
		free(sink.buf);
		goto out_nomem;
	}
	*buf = sink.buf;
	*len = sink.len;
	return 0;

out_png:
	png_destroy_write_struct(&png, NULL);
out_nomem:
	twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory encoding the PNG",
			   name);
	return -1;
}

#else

int twz_png_available(void)
{
	return 0;
}

int twz_png_encode(const struct twz_canvas *c, uint8_t **buf, size_t *len,
		   const char *name, struct twz_error *err)
{
	(void)c;
	*buf = NULL;
	*len = 0;
	twz_error_set(err, "%s: this twigz was built without libpng (meson "
		      "option png), so it cannot write PNG; write an .svg instead",
		      name);
	return -1;
}

#endif
