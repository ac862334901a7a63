/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers shared by the XML renderings (report.xml, junit.xml) and
 * report.html: a libxml2 xmlTextWriter that remembers its first error, and
 * the sanitising of untrusted strings into text that XML 1.0 can carry.
 */
#ifndef FA_XML_UTIL_H
#define FA_XML_UTIL_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>
#include <libxml/xmlwriter.h>

#include "report.h"

/* Longest string (bytes) a rendering accepts from the report. */
#define FA_XML_MAX_STR	(64UL * 1024 * 1024)

/*
 * A document being written.  Every call below is a no-op once err is set,
 * so a writer checks only the result of fa_xw_finish().
 */
struct fa_xw {
	xmlBufferPtr	 buf;	/* to memory; NULL when streaming to emit */
	fa_emit_fn	 emit;
	void		*earg;
	int		 emit_failed;
	/* libxml2's error handler while streaming, put back at the end. */
	xmlStructuredErrorFunc	 old_err;
	void		*old_err_ctx;
	xmlTextWriterPtr w;
	int		 err;	/* first failure, FA_ERR_*, or 0 */
	char		*why;	/* its explanation, or NULL */
	/* fa_xw_scratch(): one memory stream reused for every text. */
	FILE		*scratch;
	char		*sbuf;
	size_t		 slen;
	const void	*user;	/* the writer's own (fa_xw_begin*() clears) */
};

/*
 * A stream to assemble one text in (stdio), emptied: opened on first use
 * and reused, since a stream per text (open_memstream(3) zeroes a page
 * for each) cost a JUnit report of many results a third of its time.
 * The text is x->sbuf, x->slen bytes, after fa_xw_scratch_done().  NULL
 * (the error recorded in x) when out of memory.
 */
FILE *fa_xw_scratch(struct fa_xw *x);
int fa_xw_scratch_done(struct fa_xw *x);

/* Start an indented UTF-8 document; 0 or FA_ERR_NOMEM. */
int fa_xw_begin(struct fa_xw *x);
/* The same, its bytes going to emit as libxml2 flushes them (emit NULL:
 * into memory, as fa_xw_begin()). */
int fa_xw_begin_to(struct fa_xw *x, fa_emit_fn emit, void *arg);
/* The same with no declaration and no indentation: the caller writes a
 * page (report.html) whose whitespace it chooses. */
int fa_xw_begin_page(struct fa_xw *x, fa_emit_fn emit, void *arg);
/*
 * End the document and hand its bytes over as a malloc'd NUL-terminated
 * *buf of *len bytes (into memory; when streaming, buf and len are not
 * used and may be NULL); or return the first error with *why (if not
 * NULL): FA_ERR_IO when emit stopped the writer.  Always releases it.
 */
int fa_xw_finish(struct fa_xw *x, char **buf, size_t *len, char **why);

/* Record a failure (the first one wins); why is copied. */
void fa_xw_fail(struct fa_xw *x, int err, const char *why);

/* Element and attribute names, and the text of the next two calls, must
 * be ASCII that this program wrote (never report content). */
void fa_xw_start(struct fa_xw *x, const char *name);
void fa_xw_start_ns(struct fa_xw *x, const char *name, const char *ns);
void fa_xw_end(struct fa_xw *x);
void fa_xw_attr(struct fa_xw *x, const char *name, const char *value);
void fa_xw_text(struct fa_xw *x, const char *text);

/* Untrusted text, sanitised with fa_xml_safe(). */
void fa_xw_uattr(struct fa_xw *x, const char *name, const char *s,
    size_t len);
void fa_xw_utext(struct fa_xw *x, const char *s, size_t len);

/*
 * s[0..len) as a new NUL-terminated string of XML 1.0 characters (XML 1.0
 * section 2.2, production Char) without C0/C1 controls other than TAB, LF
 * and CR, in valid UTF-8.  A string that already is one is copied as is
 * (*escaped = 0).  Otherwise (*escaped = 1) every byte that is not part of
 * such a character, and every backslash, becomes "\xNN", so the original
 * can be restored.  On failure returns NULL and sets x->err: FA_ERR_TOOBIG
 * above FA_XML_MAX_STR bytes, or FA_ERR_NOMEM.
 */
char *fa_xml_safe(struct fa_xw *x, const char *s, size_t len, int *escaped);

/* json_string_value() of a string holding no NUL byte, or NULL. */
const char *fa_xml_jstr(const json_t *v);

/* v as compact ASCII JSON text (any type), malloc'd; NULL sets x->err. */
char *fa_xml_json_text(struct fa_xw *x, const json_t *v);

/* Whether s is a valid xs:dateTime / xs:date, as libxml2's schema
 * validator will judge it (so what is written always validates). */
int fa_xml_is_datetime(const char *s);
int fa_xml_is_date(const char *s);

#endif
