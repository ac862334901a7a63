/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A snapshot on a pipe: the acquisition child's answer (see snapwire.h),
 * framed typed records rather than JSON text, so the parent neither
 * tokenises nor converts numbers: each value arrives as its type and its
 * bytes, and the loaders of `fabaudit check` judge what it builds.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "snapwire.h"
#include "util.h"

/* Bytes read at a time; the writer's stdio buffer too. */
#define CHUNK		(256 * 1024)
/* Nesting of a value, at most (the writers nest a handful of levels). */
#define MAX_DEPTH	64
#define NO_STR		0xffffffffu	/* a null string (nstr) */

/* ---- writing -------------------------------------------------------- */

/* The bytes v takes encoded, or SIZE_MAX when it cannot be (too deep). */
static size_t
val_size(const json_t *v, int depth)
{
	const char *k;
	const json_t *e;
	size_t n = 1, i, m;

	if (depth > MAX_DEPTH)
		return SIZE_MAX;
	switch (json_typeof(v)) {
	case JSON_INTEGER:
	case JSON_REAL:
		return 9;
	case JSON_STRING:
		return 5 + json_string_length(v);
	case JSON_ARRAY:
		n = 5;
		json_array_foreach(v, i, e) {
			if ((m = val_size(e, depth + 1)) == SIZE_MAX)
				return SIZE_MAX;
			n += m;
		}
		return n;
	case JSON_OBJECT:
		n = 5;
		json_object_foreach((json_t *)v, k, e) {
			if ((m = val_size(e, depth + 1)) == SIZE_MAX)
				return SIZE_MAX;
			n += 4 + strlen(k) + m;
		}
		return n;
	default:
		return n;
	}
}

static void
put_u32(FILE *f, uint32_t u)
{
	unsigned char b[4] = { u & 0xff, (u >> 8) & 0xff, (u >> 16) & 0xff,
	    u >> 24 };

	(void)fwrite(b, 1, 4, f);
}

static void
put_u64(FILE *f, uint64_t u)
{
	put_u32(f, (uint32_t)u);
	put_u32(f, (uint32_t)(u >> 32));
}

static void
put_str(FILE *f, const char *p, size_t n)
{
	put_u32(f, (uint32_t)n);
	(void)fwrite(p, 1, n, f);
}

/* A null string, or one. */
static void
put_nstr(FILE *f, const char *p)
{
	if (p == NULL)
		put_u32(f, NO_STR);
	else
		put_str(f, p, strlen(p));
}

static void
put_val(FILE *f, const json_t *v)
{
	const char *k;
	const json_t *e;
	double d;
	uint64_t u;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_NULL:
		(void)fputc('n', f);
		break;
	case JSON_TRUE:
		(void)fputc('t', f);
		break;
	case JSON_FALSE:
		(void)fputc('f', f);
		break;
	case JSON_INTEGER:
		(void)fputc('i', f);
		put_u64(f, (uint64_t)json_integer_value(v));
		break;
	case JSON_REAL:
		(void)fputc('r', f);
		d = json_real_value(v);
		memcpy(&u, &d, sizeof(u));
		put_u64(f, u);
		break;
	case JSON_STRING:
		(void)fputc('s', f);
		put_str(f, json_string_value(v), json_string_length(v));
		break;
	case JSON_ARRAY:
		(void)fputc('a', f);
		put_u32(f, (uint32_t)json_array_size(v));
		json_array_foreach(v, i, e)
			put_val(f, e);
		break;
	case JSON_OBJECT:
		(void)fputc('o', f);
		put_u32(f, (uint32_t)json_object_size(v));
		json_object_foreach((json_t *)v, k, e) {
			put_str(f, k, strlen(k));
			put_val(f, e);
		}
		break;
	}
}

/* A record's header: its type and the length of what follows. */
static int
put_head(FILE *f, int type, size_t len)
{
	if (len > UINT32_MAX)
		return FA_ERR_TOOBIG;
	(void)fputc(type, f);
	put_u32(f, (uint32_t)len);
	return 0;
}

/* Observation i of s as an 'O' record: 0 or an error. */
static int
put_obs(FILE *f, const struct fa_obs *o)
{
	size_t n = val_size(o->data, 0);

	if (n == SIZE_MAX)
		return FA_ERR_TOOBIG;
	n += 2 + 4 + strlen(o->id) + 4 + strlen(o->kind) + 4 +
	    strlen(o->target) + 4 + strlen(o->request) + 4 +
	    (o->reason != NULL ? strlen(o->reason) : 0);
	if (put_head(f, 'O', n) != 0)
		return FA_ERR_TOOBIG;
	(void)fputc((int)o->family, f);
	(void)fputc((int)o->state, f);
	put_nstr(f, o->id);
	put_nstr(f, o->kind);
	put_nstr(f, o->target);
	put_nstr(f, o->request);
	put_nstr(f, o->reason);
	put_val(f, o->data);
	return ferror(f) ? FA_ERR_IO : 0;
}

int
fa_snapwire_open(struct fa_snapwire_out *w, int fd)
{
	memset(w, 0, sizeof(*w));
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

	int r;

	for (; !w->err && w->sent < s->nobs; w->sent++)
		if ((r = put_obs(w->out, &s->obs[w->sent])) != 0) {
			w->err = 1;
			snprintf(w->why, sizeof(w->why), "observation %.64s "
			    "(%s): %s", s->obs[w->sent].id,
			    s->obs[w->sent].kind, r == FA_ERR_TOOBIG ?
			    "nested deeper than 64 levels or larger than 4 GiB"
			    ": it cannot be sent" : "cannot be written to the "
			    "pipe");
		}
	if (!w->err && fflush(w->out) != 0) {
		w->err = 1;
		snprintf(w->why, sizeof(w->why), "the pipe: %s",
		    strerror(errno));
	}
}

int
fa_snapwire_end(struct fa_snapwire_out *w, struct fa_snapshot *s, int rc,
    int usable)
{
	json_t *head;
	size_t n;
	int bad;

	fa_snapwire_flush(s, w);
	if (!w->err) {
		if ((head = fa_snapshot_head_json(s, 1)) == NULL ||
		    (n = val_size(head, 0)) == SIZE_MAX ||
		    put_head(w->out, 'E', 8 + n) != 0) {
			w->err = 1;
			snprintf(w->why, sizeof(w->why), "the snapshot's "
			    "head cannot be sent");
		}
		else {
			put_u32(w->out, (uint32_t)rc);
			put_u32(w->out, (uint32_t)usable);
			put_val(w->out, head);
		}
		json_decref(head);
	}
	bad = ferror(w->out);
	if (fclose(w->out) != 0 || bad) {
		if (!w->err)
			snprintf(w->why, sizeof(w->why), "the pipe: %s",
			    strerror(errno));
		w->err = 1;
	}
	w->out = NULL;
	return w->err ? FA_ERR_IO : 0;
}

/* ---- reading -------------------------------------------------------- */

struct src {
	int		 fd;
	size_t		 max_rec;
	size_t		 max_total;
	size_t		 left;		/* bytes still allowed */
	unsigned char	*buf;		/* CHUNK read ahead */
	size_t		 pos, len;
	unsigned char	*rec;		/* the record being read */
	size_t		 cap;
	size_t		 recno;		/* of the last record read */
};

/*
 * n bytes into dst.  0; 1 at the end of the stream before any byte (if
 * clean_end); or an error with *why.
 */
static int
take(struct src *p, unsigned char *dst, size_t n, int clean_end,
    char **why)
{
	ssize_t got;
	size_t k, have = 0;

	while (have < n) {
		if (p->pos == p->len) {
			/* At the limit: the end of the stream, or too long. */
			if (p->left == 0 && clean_end && have == 0) {
				unsigned char x;

				while ((got = read(p->fd, &x, 1)) < 0 &&
				    errno == EINTR)
					;
				if (got == 0)
					return 1;
			}
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
			if (got == 0 && have == 0 && clean_end)
				return 1;
			if (got == 0) {
				(void)fa_why(why, "the answer stops inside "
				    "record %zu", p->recno + 1);
				return FA_ERR_IO;
			}
			p->left -= (size_t)got;
			p->pos = 0;
			p->len = (size_t)got;
		}
		k = p->len - p->pos < n - have ? p->len - p->pos : n - have;
		memcpy(dst + have, p->buf + p->pos, k);
		p->pos += k;
		have += k;
	}
	return 0;
}

static uint32_t
le32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	    (uint32_t)b[3] << 24;
}

/*
 * The next record into p->rec: *type its type, *len its length; *type 0
 * at a clean end of the stream.  0 or an error with *why.
 */
static int
next_rec(struct src *p, int *type, size_t *len, char **why)
{
	unsigned char h[5];
	int r;

	*type = 0;
	if ((r = take(p, h, 5, 1, why)) != 0)
		return r == 1 ? 0 : r;
	*len = le32(h + 1);
	if (*len > p->max_rec) {
		(void)fa_why(why, "record %zu is longer than %zu bytes",
		    p->recno + 1, p->max_rec);
		return FA_ERR_TOOBIG;
	}
	if (fa_grow(&p->rec, &p->cap, *len + 1, 1) != 0)
		return FA_ERR_NOMEM;
	if ((r = take(p, p->rec, *len, 0, why)) != 0)
		return r;
	p->recno++;
	*type = h[0];
	return 0;
}

/* What c->bad is when memory ran out: the reader's FA_ERR_NOMEM. */
static const char OOM[] = "out of memory";

/* A record being decoded: what is left of it. */
struct cur {
	const unsigned char	*p;
	size_t			 n;
	const char		*bad;	/* what was malformed, static */
};

static int
get(struct cur *c, void *dst, size_t n)
{
	if (c->n < n) {
		c->bad = "it stops short";
		return -1;	/* not an error: c->bad says why */
	}
	memcpy(dst, c->p, n);
	c->p += n;
	c->n -= n;
	return 0;
}

static int
get_u32(struct cur *c, uint32_t *u)
{
	unsigned char b[4];

	if (get(c, b, 4) != 0)
		return -1;	/* not an error: c->bad says why */
	*u = le32(b);
	return 0;
}

static int
get_u64(struct cur *c, uint64_t *u)
{
	uint32_t lo, hi;

	if (get_u32(c, &lo) != 0 || get_u32(c, &hi) != 0)
		return -1;	/* not an error: c->bad says why */
	*u = (uint64_t)hi << 32 | lo;
	return 0;
}

/*
 * A string of the record into a new C string *out (NULL for a null one
 * when nullable): UTF-8 text without NUL, as in a JSON text.  0, or -1
 * with c->bad.
 */
static int
get_str(struct cur *c, int nullable, char **out)
{
	json_t *t;
	uint32_t n;

	*out = NULL;
	if (get_u32(c, &n) != 0)
		return -1;	/* not an error: c->bad says why */
	if (n == NO_STR && nullable)
		return 0;
	if (n > c->n) {
		c->bad = "a string runs past its end";
		return -1;	/* not an error: c->bad says why */
	}
	if (memchr(c->p, '\0', n) != NULL) {
		c->bad = "a string holds a NUL byte";
		return -1;	/* not an error: c->bad says why */
	}
	/* jansson's check of UTF-8 (json_stringn refuses anything else). */
	if ((t = json_stringn((const char *)c->p, n)) == NULL) {
		c->bad = "a string is not UTF-8 text";
		return -1;	/* not an error: c->bad says why */
	}
	*out = strdup(json_string_value(t));
	json_decref(t);
	if (*out == NULL) {
		c->bad = OOM;
		return -1;	/* not an error: c->bad says why */
	}
	c->p += n;
	c->n -= n;
	return 0;
}

/*
 * A value of the record (a new reference), or NULL with c->bad.  Counts
 * are bounded by the bytes left (each element takes one at least), so a
 * count can never make it allocate more than the record holds.
 */
static json_t *get_val1(struct cur *c, int depth);

static json_t *
get_val(struct cur *c, int depth)
{
	json_t *v = get_val1(c, depth);

	/* A value not made, with nothing malformed: memory ran out. */
	if (v == NULL && c->bad == NULL)
		c->bad = OOM;
	return v;
}

static json_t *
get_val1(struct cur *c, int depth)
{
	unsigned char t;
	uint64_t u;
	uint32_t n, i;
	double d;
	json_t *v = NULL, *e;
	char *k;

	if (depth > MAX_DEPTH) {
		c->bad = "values nest too deep";
		return NULL;
	}
	if (get(c, &t, 1) != 0)
		return NULL;
	switch (t) {
	case 'n':
		return json_null();
	case 't':
		return json_true();
	case 'f':
		return json_false();
	case 'i':
		if (get_u64(c, &u) != 0)
			return NULL;
		return json_integer((json_int_t)u);
	case 'r':
		if (get_u64(c, &u) != 0)
			return NULL;
		memcpy(&d, &u, sizeof(d));
		if (!isfinite(d)) {
			c->bad = "a number is not finite";
			return NULL;
		}
		return json_real(d);
	case 's':
		if (get_u32(c, &n) != 0)
			return NULL;
		if (n > c->n) {
			c->bad = "a string runs past its end";
			return NULL;
		}
		/* Checked UTF-8, as a JSON text's strings are. */
		if (memchr(c->p, '\0', n) != NULL ||
		    (v = json_stringn((const char *)c->p, n)) == NULL) {
			c->bad = "a string is not UTF-8 text";
			return NULL;
		}
		c->p += n;
		c->n -= n;
		return v;
	case 'a':
		if (get_u32(c, &n) != 0)
			return NULL;
		if (n > c->n) {
			c->bad = "an array counts more values than it holds";
			return NULL;
		}
		if ((v = json_array()) == NULL)
			goto nomem;
		for (i = 0; i < n; i++)
			if ((e = get_val(c, depth + 1)) == NULL ||
			    json_array_append_new(v, e) != 0) {
				if (e != NULL)
					c->bad = OOM;
				json_decref(v);
				return NULL;
			}
		return v;
	case 'o':
		if (get_u32(c, &n) != 0)
			return NULL;
		if (n > c->n / 5) {
			c->bad = "an object counts more members than it holds";
			return NULL;
		}
		if ((v = json_object()) == NULL)
			goto nomem;
		for (i = 0; i < n; i++) {
			e = NULL;
			if (get_str(c, 0, &k) != 0 ||
			    (e = get_val(c, depth + 1)) == NULL) {
				free(k);
				json_decref(v);
				return NULL;
			}
			/* Duplicate keys are refused, as in a JSON text. */
			if (json_object_get(v, k) != NULL) {
				c->bad = "an object names a member twice";
				free(k);
				json_decref(e);
				json_decref(v);
				return NULL;
			}
			if (json_object_set_new(v, k, e) != 0) {
				c->bad = "a member's name is not UTF-8 text";
				free(k);
				json_decref(v);
				return NULL;
			}
			free(k);
		}
		return v;
	default:
		c->bad = "a value of unknown type";
		return NULL;
	}
nomem:
	c->bad = OOM;
	return NULL;
}

/* Observation record i (p->rec, len bytes) into s: 0 or an error. */
static int
read_obs(struct src *p, size_t len, struct fa_snapshot *s, size_t i,
    char **why)
{
	struct cur c = { p->rec, len, NULL };
	unsigned char fs[2];
	char *id = NULL, *kind = NULL, *target = NULL, *request = NULL;
	char *reason = NULL;
	struct fa_obs o;
	int r;

	memset(&o, 0, sizeof(o));
	if (get(&c, fs, 2) == 0 && get_str(&c, 0, &id) == 0 &&
	    get_str(&c, 0, &kind) == 0 && get_str(&c, 0, &target) == 0 &&
	    get_str(&c, 0, &request) == 0 && get_str(&c, 1, &reason) == 0 &&
	    (o.data = get_val(&c, 0)) != NULL && c.n != 0)
		c.bad = "bytes follow its data";
	if (c.bad == OOM) {
		json_decref(o.data);
		r = FA_ERR_NOMEM;
		goto out;
	}
	if (c.bad != NULL) {
		json_decref(o.data);
		r = fa_why(why, "record %zu (observations[%zu]): %s",
		    p->recno, i, c.bad);
		goto out;
	}
	o.family = (enum fa_family)fs[0];
	o.state = (enum fa_obs_state)fs[1];
	o.id = id;
	o.kind = kind;
	o.target = target;
	o.request = request;
	o.reason = reason;
	r = fa_snapshot_obs_take(s, &o, i, why);
out:
	free(id);
	free(kind);
	free(target);
	free(request);
	free(reason);
	return r;
}

/* The end record (p->rec, len bytes): *out (new), *rc, *usable. */
static int
read_end(struct src *p, size_t len, struct fa_snapshot **out, int *rc,
    int *usable, char **why)
{
	struct cur c = { p->rec, len, NULL };
	uint32_t a, b;
	json_t *head = NULL;
	int r;

	if (get_u32(&c, &a) == 0 && get_u32(&c, &b) == 0 &&
	    (head = get_val(&c, 0)) != NULL && c.n != 0)
		c.bad = "bytes follow the snapshot";
	if (c.bad != NULL) {
		json_decref(head);
		return c.bad == OOM ? FA_ERR_NOMEM : fa_why(why, "record %zu "
		    "(the end): %s", p->recno, c.bad);
	}
	*rc = (int32_t)a;
	*usable = (int32_t)b;
	r = fa_snapshot_head_from_json(head, out, why);
	json_decref(head);
	return r;
}

int
fa_snapwire_read(int fd, size_t max_rec, size_t max_total,
    struct fa_snapshot **out, int *rc, int *usable, char **why)
{
	struct src p = { fd, max_rec, max_total, max_total, NULL, 0, 0, NULL,
	    0, 0 };
	struct fa_snapshot *got, *s = NULL;
	size_t i, len;
	int r, type;

	*out = NULL;
	if (why != NULL)
		*why = NULL;
	if ((got = fa_snapshot_new()) == NULL ||
	    (p.buf = malloc(CHUNK)) == NULL) {
		r = FA_ERR_NOMEM;
		goto out;
	}
	/* The observations first, as they were sent. */
	for (i = 0; (r = next_rec(&p, &type, &len, why)) == 0 &&
	    type == 'O'; i++)
		if ((r = read_obs(&p, len, got, i, why)) != 0)
			goto out;
	if (r != 0)
		goto out;
	if (type == 0) {
		r = FA_ERR_IO;
		(void)fa_why(why, "the answer stops before its end record");
		goto out;
	}
	if (type != 'E') {
		r = fa_why(why, "record %zu is neither an observation nor the "
		    "end (type 0x%02x)", p.recno, type);
		goto out;
	}
	if ((r = read_end(&p, len, &s, rc, usable, why)) != 0 ||
	    (r = fa_snapshot_move_obs(s, got)) != 0)
		goto out;
	/* Nothing may follow the end. */
	if ((r = next_rec(&p, &type, &len, why)) == 0 && type != 0)
		r = fa_why(why, "record %zu follows the end record", p.recno);
	if (r == 0) {
		*out = s;
		s = NULL;
	}
out:
	fa_snapshot_free(got);
	fa_snapshot_free(s);
	free(p.buf);
	free(p.rec);
	return r;
}
