/* SPDX-License-Identifier: BSD-2-Clause */
/* A snapshot on a pipe: the acquisition child's answer (see snapwire.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "snapwire.h"
#include "util.h"

/* Bytes read at a time; the writer's stdio buffer too. */
#define CHUNK	(256 * 1024)

/* ---- writing -------------------------------------------------------- */

/*
 * One document (stolen) and a newline: 0, FA_ERR_NOMEM if j is NULL (it
 * could not be built), or FA_ERR_IO if writing fails.
 */
static int
put_doc(FILE *out, json_t *j)
{
	int r = j == NULL ? FA_ERR_NOMEM :
	    json_dumpf(j, out, JSON_COMPACT) != 0 ||
	    fputc('\n', out) == EOF ? FA_ERR_IO : 0;

	json_decref(j);
	return r;
}

int
fa_snapwire_open(struct fa_snapwire_out *w, int fd)
{
	memset(w, 0, sizeof(*w));
	/* Through stdio's buffer: jansson writes a token at a time. */
	if ((w->out = fdopen(fd, "w")) == NULL)
		return FA_ERR_IO;
	if (setvbuf(w->out, NULL, _IOFBF, CHUNK) != 0) {
		fclose(w->out);
		w->out = NULL;
		return FA_ERR_IO;
	}
	return 0;
}

void
fa_snapwire_flush(struct fa_snapshot *s, void *arg)
{
	struct fa_snapwire_out *w = arg;

	for (; !w->err && w->sent < s->nobs; w->sent++)
		if (put_doc(w->out, json_pack("{s:o}", "obs",
		    fa_snapshot_obs_json(s, w->sent, 1))) != 0)
			w->err = 1;
	if (!w->err && fflush(w->out) != 0)
		w->err = 1;
}

int
fa_snapwire_end(struct fa_snapwire_out *w, struct fa_snapshot *s, int rc,
    int usable)
{
	fa_snapwire_flush(s, w);
	if (!w->err && put_doc(w->out, json_pack("{s:{s:i, s:i, s:o}}",
	    "end", "rc", rc, "usable", usable, "snapshot",
	    fa_snapshot_head_json(s, 1))) != 0)
		w->err = 1;
	if (fclose(w->out) != 0)
		w->err = 1;
	w->out = NULL;
	return w->err ? FA_ERR_IO : 0;
}

/* ---- reading -------------------------------------------------------- */

struct src {
	int	 fd;
	size_t	 max_line;
	size_t	 max_total;
	size_t	 left;		/* bytes still allowed */
	char	*buf;		/* CHUNK read ahead */
	size_t	 pos, len;
	char	*line;		/* the line being gathered */
	size_t	 n, cap;
	size_t	 lineno;	/* of the last line returned */
};

/*
 * The next line's document (a new reference) to *doc, NULL at a clean end
 * (after a newline).  0, or an error with *why.
 */
static int
next_doc(struct src *p, json_t **doc, char **why)
{
	json_error_t jerr;
	const char *nl;
	ssize_t got;
	size_t k;

	*doc = NULL;
	p->n = 0;
	for (;;) {
		if (p->pos == p->len) {
			if (p->left == 0) {
				(void)fa_why(why, "the answer is longer than "
				    "%zu bytes", p->max_total);
				return FA_ERR_TOOBIG;
			}
			while ((got = read(p->fd, p->buf, p->left < CHUNK ?
			    p->left : CHUNK)) < 0 && errno == EINTR)
				;
			if (got < 0) {
				(void)fa_why(why, "read: %s", strerror(errno));
				return FA_ERR_IO;
			}
			if (got == 0 && p->n == 0)
				return 0;
			if (got == 0) {
				(void)fa_why(why, "the answer stops inside "
				    "line %zu", p->lineno + 1);
				return FA_ERR_IO;
			}
			p->left -= (size_t)got;
			p->pos = 0;
			p->len = (size_t)got;
		}
		nl = memchr(p->buf + p->pos, '\n', p->len - p->pos);
		k = nl != NULL ? (size_t)(nl - (p->buf + p->pos)) :
		    p->len - p->pos;
		if (p->n + k > p->max_line) {
			(void)fa_why(why, "line %zu is longer than %zu bytes",
			    p->lineno + 1, p->max_line);
			return FA_ERR_TOOBIG;
		}
		if (fa_grow(&p->line, &p->cap, p->n + k + 1, 1) != 0)
			return FA_ERR_NOMEM;
		memcpy(p->line + p->n, p->buf + p->pos, k);
		p->n += k;
		p->pos += k + (nl != NULL);
		if (nl == NULL)
			continue;
		p->lineno++;
		if ((*doc = json_loadb(p->line, p->n, 0, &jerr)) == NULL)
			return fa_why(why, "line %zu: %s", p->lineno,
			    jerr.text);
		return 0;
	}
}

/* The end line's contents into *out (new), *rc, *usable; 0 or error. */
static int
read_end(const json_t *end, struct fa_snapshot **out, int *rc, int *usable,
    char **why)
{
	if (json_unpack((json_t *)end, "{s:i, s:i}", "rc", rc, "usable",
	    usable) != 0)
		return fa_why(why, "the end line has no rc and usable");
	return fa_snapshot_head_from_json(json_object_get(end, "snapshot"),
	    out, why);
}

int
fa_snapwire_read(int fd, size_t max_line, size_t max_total,
    struct fa_snapshot **out, int *rc, int *usable, char **why)
{
	struct src p = { fd, max_line, max_total, max_total, NULL, 0, 0, NULL,
	    0, 0, 0 };
	struct fa_snapshot *got, *s = NULL;
	const json_t *ob, *end;
	json_t *o = NULL;
	size_t i;
	int r;

	*out = NULL;
	if (why != NULL)
		*why = NULL;
	if ((got = fa_snapshot_new()) == NULL ||
	    (p.buf = malloc(CHUNK)) == NULL) {
		r = FA_ERR_NOMEM;
		goto out;
	}
	/* The observations first, as they were sent. */
	for (i = 0; (r = next_doc(&p, &o, why)) == 0 && o != NULL &&
	    (ob = json_object_get(o, "obs")) != NULL; i++) {
		if ((r = fa_snapshot_obs_from_json(got, ob, i, why)) != 0)
			goto out;
		json_decref(o);
		o = NULL;
	}
	if (r != 0)
		goto out;
	if (o == NULL) {
		(void)fa_why(why, "the answer stops before its end line");
		r = FA_ERR_IO;
		goto out;
	}
	if ((end = json_object_get(o, "end")) == NULL) {
		r = fa_why(why, "line %zu is neither an observation nor the "
		    "end", p.lineno);
		goto out;
	}
	if ((r = read_end(end, &s, rc, usable, why)) != 0 ||
	    (r = fa_snapshot_move_obs(s, got)) != 0)
		goto out;
	json_decref(o);
	/* Nothing may follow the end. */
	if ((r = next_doc(&p, &o, why)) == 0 && o != NULL)
		r = fa_why(why, "line %zu follows the end line", p.lineno);
	if (r == 0) {
		*out = s;
		s = NULL;
	}
out:
	json_decref(o);
	fa_snapshot_free(got);
	fa_snapshot_free(s);
	free(p.buf);
	free(p.line);
	return r;
}
