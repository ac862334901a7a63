/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers shared by the XML and HTML renderings: a libxml2 xmlTextWriter
 * into an xmlBuffer or through an emit function that remembers its first
 * error, and the sanitising of
 * untrusted strings into text XML 1.0 can carry (see xml_util.h).
 */
#include <stdlib.h>
#include <string.h>

#include <libxml/chvalid.h>
#include <libxml/xmlschemastypes.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "xml_util.h"

void
fa_xw_fail(struct fa_xw *x, int err, const char *why)
{
	if (x->err != 0)
		return;
	x->err = err;
	x->why = fa_strdup(why);
}

/* Record a failed libxml2 call (rc < 0); libxml2 fails for lack of memory
 * here, since it only ever sees sanitised UTF-8. */
static void
check(struct fa_xw *x, int rc)
{
	if (rc < 0)
		fa_xw_fail(x, FA_ERR_NOMEM,
		    "libxml2 could not write the document");
}

/*
 * libxml2's errors while streaming: a write that fails makes libxml2
 * raise "I/O error : write error", which its default handler prints on
 * stderr.  Nothing below scanner/ prints: the failure is recorded
 * (emit_failed) and reported by the caller with the sink's reason.
 */
static void
quiet(void *ctx, xmlErrorPtr e)
{
	(void)ctx;
	(void)e;
}

/* An xmlOutputWriteCallback: the bytes to the writer's emit. */
static int
xw_write(void *ctx, const char *p, int len)
{
	struct fa_xw *x = ctx;

	if (len < 0 || x->emit(p, (size_t)len, x->earg) != 0) {
		x->emit_failed = 1;
		return -1;	/* not an error: libxml2's "write failed" */
	}
	return len;
}

int
fa_xw_begin(struct fa_xw *x)
{
	return fa_xw_begin_to(x, NULL, NULL);
}

/* An XML document (indented, with its declaration), or a page (page). */
static int
begin(struct fa_xw *x, fa_emit_fn emit, void *arg, int page)
{
	xmlOutputBufferPtr out;

	memset(x, 0, sizeof(*x));
	x->emit = emit;
	x->earg = arg;
	if (emit != NULL) {
		x->old_err = xmlStructuredError;
		x->old_err_ctx = xmlStructuredErrorContext;
		xmlSetStructuredErrorFunc(NULL, quiet);
		/* The writer owns out once made (xmlFreeTextWriter() closes
		 * it); libxml2 2.9 leaves it to us when it cannot make one. */
		if ((out = xmlOutputBufferCreateIO(xw_write, NULL, x,
		    NULL)) == NULL || (x->w = xmlNewTextWriter(out)) == NULL) {
			if (out != NULL)
				(void)xmlOutputBufferClose(out);
			fa_xw_fail(x, FA_ERR_NOMEM, "out of memory");
			return x->err;
		}
	} else if ((x->buf = xmlBufferCreate()) == NULL ||
	    (x->w = xmlNewTextWriterMemory(x->buf, 0)) == NULL) {
		fa_xw_fail(x, FA_ERR_NOMEM, "out of memory");
		return x->err;
	}
	/*
	 * libxml2 2.9 grows an xmlBuffer to the exact size asked
	 * (XML_BUFFER_ALLOC_EXACT, its global default): the writer's every
	 * flush then copies the whole document so far.  Doubling makes the
	 * growth linear.
	 */
	if (x->buf != NULL)
		xmlBufferSetAllocationScheme(x->buf, XML_BUFFER_ALLOC_DOUBLEIT);
	if (page)
		return x->err;
	check(x, xmlTextWriterSetIndent(x->w, 1));
	check(x, xmlTextWriterSetIndentString(x->w, BAD_CAST "  "));
	if (x->err == 0)
		check(x, xmlTextWriterStartDocument(x->w, NULL, "UTF-8",
		    NULL));
	return x->err;
}

int
fa_xw_begin_to(struct fa_xw *x, fa_emit_fn emit, void *arg)
{
	return begin(x, emit, arg, 0);
}

int
fa_xw_begin_page(struct fa_xw *x, fa_emit_fn emit, void *arg)
{
	return begin(x, emit, arg, 1);
}

int
fa_xw_finish(struct fa_xw *x, char **buf, size_t *len, char **why)
{
	const xmlChar *c;
	int err;

	if (buf != NULL)
		*buf = NULL;
	if (len != NULL)
		*len = 0;
	if (x->err == 0 && x->w != NULL)
		check(x, xmlTextWriterEndDocument(x->w));
	if (x->err == 0 && x->w != NULL && x->emit != NULL)
		check(x, xmlTextWriterFlush(x->w));
	if (x->w != NULL) {
		/* Flushes into the buffer, or to emit. */
		xmlFreeTextWriter(x->w);
		x->w = NULL;
	}
	if (x->emit != NULL)
		xmlSetStructuredErrorFunc(x->old_err_ctx, x->old_err);
	if (x->emit_failed) {
		/* Before check()'s guess: the sink says why it stopped. */
		free(x->why);
		x->why = fa_strdup("the output could not be written");
		x->err = FA_ERR_IO;
	}
	if (x->err == 0 && x->buf != NULL) {
		c = xmlBufferContent(x->buf);
		*len = (size_t)xmlBufferLength(x->buf);
		if (c == NULL || (*buf = malloc(*len + 1)) == NULL)
			fa_xw_fail(x, FA_ERR_NOMEM, "out of memory");
		else {
			memcpy(*buf, c, *len);
			(*buf)[*len] = '\0';
		}
	}
	if (x->buf != NULL)
		xmlBufferFree(x->buf);
	x->buf = NULL;
	err = x->err;
	if (err != 0) {
		if (len != NULL)
			*len = 0;
		if (why != NULL) {
			*why = x->why;
			x->why = NULL;
		}
	}
	free(x->why);
	x->why = NULL;
	if (x->scratch != NULL)
		(void)fclose(x->scratch);
	free(x->sbuf);
	x->scratch = NULL;
	x->sbuf = NULL;
	return err;
}

FILE *
fa_xw_scratch(struct fa_xw *x)
{
	if (x->err != 0)
		return NULL;
	if (x->scratch == NULL &&
	    (x->scratch = open_memstream(&x->sbuf, &x->slen)) == NULL) {
		fa_xw_fail(x, FA_ERR_NOMEM, "out of memory");
		return NULL;
	}
	/* Written from the start again: the size is the position. */
	if (fseek(x->scratch, 0, SEEK_SET) != 0) {
		fa_xw_fail(x, FA_ERR_NOMEM, "out of memory");
		return NULL;
	}
	return x->scratch;
}

int
fa_xw_scratch_done(struct fa_xw *x)
{
	if (x->scratch == NULL || fflush(x->scratch) != 0) {
		fa_xw_fail(x, FA_ERR_NOMEM, "out of memory");
		return FA_ERR_NOMEM;
	}
	return 0;
}

void
fa_xw_start(struct fa_xw *x, const char *name)
{
	if (x->err == 0)
		check(x, xmlTextWriterStartElement(x->w, BAD_CAST name));
}

void
fa_xw_start_ns(struct fa_xw *x, const char *name, const char *ns)
{
	if (x->err == 0)
		check(x, xmlTextWriterStartElementNS(x->w, NULL,
		    BAD_CAST name, BAD_CAST ns));
}

void
fa_xw_end(struct fa_xw *x)
{
	if (x->err == 0)
		check(x, xmlTextWriterEndElement(x->w));
}

void
fa_xw_attr(struct fa_xw *x, const char *name, const char *value)
{
	if (x->err == 0)
		check(x, xmlTextWriterWriteAttribute(x->w, BAD_CAST name,
		    BAD_CAST value));
}

void
fa_xw_text(struct fa_xw *x, const char *text)
{
	if (x->err == 0)
		check(x, xmlTextWriterWriteString(x->w, BAD_CAST text));
}

void
fa_xw_uattr(struct fa_xw *x, const char *name, const char *s, size_t len)
{
	char *t;
	int esc;

	if ((t = fa_xml_safe(x, s, len, &esc)) != NULL)
		fa_xw_attr(x, name, t);
	free(t);
}

void
fa_xw_utext(struct fa_xw *x, const char *s, size_t len)
{
	char *t;
	int esc;

	if ((t = fa_xml_safe(x, s, len, &esc)) != NULL)
		fa_xw_text(x, t);
	free(t);
}

/*
 * The length of the UTF-8 sequence at p (left > 0 bytes) and its code
 * point, or 0 if it is not one (RFC 3629 section 4: no overlong form, no
 * surrogate, nothing above U+10FFFF).  Not libxml2's xmlGetUTF8Char(),
 * which in 2.9 takes a stray continuation byte or an overlong form for a
 * character.
 */
static size_t
utf8_seq(const unsigned char *p, size_t left, unsigned long *cp)
{
	static const unsigned long least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned long c;
	size_t i, n;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		c = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		c = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		c = p[0] & 0x07;
	} else
		return 0;
	if (left < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/*
 * The length of the character at p (left > 0 bytes) if it may be written
 * as is, else 0.  XML 1.0 section 2.2: Char ::= #x9 | #xA | #xD |
 * [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]; we also refuse
 * DEL and the C1 controls, which the same section discourages and which
 * a terminal may interpret.
 */
static size_t
char_len(const unsigned char *p, size_t left)
{
	unsigned long c;
	size_t n;

	if (p[0] >= 0x20 && p[0] < 0x7f)
		return 1;	/* printable ASCII: most of any report */
	if ((n = utf8_seq(p, left, &c)) == 0)
		return 0;
	if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
	    (c >= 0x7f && c <= 0x9f) || !xmlIsCharQ((int)c))
		return 0;
	return n;
}

char *
fa_xml_safe(struct fa_xw *x, const char *s, size_t len, int *escaped)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out, *q;
	size_t i, n;

	*escaped = 0;
	if (x->err != 0)
		return NULL;
	if (s == NULL)
		len = 0;
	if (len > FA_XML_MAX_STR) {
		fa_xw_fail(x, FA_ERR_TOOBIG,
		    "a string in the report is too long for XML (over 64 MiB)");
		return NULL;
	}
	for (i = 0; i < len; i += n)
		if ((n = char_len(p + i, len - i)) == 0) {
			*escaped = 1;
			break;
		}
	/* At most 4 output bytes ("\xNN") per input byte. */
	if ((out = malloc(*escaped ? len * 4 + 1 : len + 1)) == NULL) {
		fa_xw_fail(x, FA_ERR_NOMEM, "out of memory");
		return NULL;
	}
	if (!*escaped) {
		if (len > 0)
			memcpy(out, s, len);
		out[len] = '\0';
		return out;
	}
	for (i = 0, q = out; i < len; i += n) {
		n = char_len(p + i, len - i);
		if (n == 0 || p[i] == '\\') {
			q += snprintf(q, 5, "\\x%02x", p[i]);
			n = 1;
		} else {
			memcpy(q, p + i, n);
			q += n;
		}
	}
	*q = '\0';
	return out;
}

const char *
fa_xml_jstr(const json_t *v)
{
	const char *s = json_string_value(v);

	if (s == NULL || strlen(s) != json_string_length(v))
		return NULL;
	return s;
}

char *
fa_xml_json_text(struct fa_xw *x, const json_t *v)
{
	char *s;

	if (x->err != 0)
		return NULL;
	/* ASCII JSON: nothing in it needs escaping for XML but a DEL. */
	s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_ENSURE_ASCII);
	/* jansson refuses to encode a string that is not UTF-8; such a
	 * string cannot come from a parsed file. */
	if (s == NULL)
		s = fa_strdup(json_is_array(v) ? "[?]" : json_is_object(v) ?
		    "{?}" : "?");
	if (s == NULL)
		fa_xw_fail(x, FA_ERR_NOMEM, "out of memory");
	return s;
}

/* s against a built-in XML Schema type, with libxml2's own validator. */
static int
is_builtin(const char *s, xmlSchemaValType t)
{
	xmlSchemaTypePtr type;
	const char *p;

	if (s == NULL || *s == '\0' || strlen(s) > 64)
		return 0;
	/* No white space: the schema would collapse it, we do not. */
	for (p = s; *p != '\0'; p++)
		if (!((*p >= '0' && *p <= '9') || *p == '-' || *p == ':' ||
		    *p == 'T' || *p == 'Z' || *p == '+' || *p == '.'))
			return 0;
	if ((type = xmlSchemaGetBuiltInType(t)) == NULL)
		return 0;
	return xmlSchemaValidatePredefinedType(type, BAD_CAST s, NULL) == 0;
}

int
fa_xml_is_datetime(const char *s)
{
	return is_builtin(s, XML_SCHEMAS_DATETIME);
}

int
fa_xml_is_date(const char *s)
{
	return is_builtin(s, XML_SCHEMAS_DATE);
}
