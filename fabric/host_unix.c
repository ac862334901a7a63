/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * /proc/net/unix decoding and collection (see host_unix.h).  Read only:
 * no socket is created or connected to; what a listening socket serves is
 * told from its name (fa_host_socket_ident) and where it is from a stat
 * of its path through the sysroot.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "host_obs.h"
#include "host_paths.h"
#include "host_unix.h"

/* include/linux/net.h */
#define SO_ACCEPTCON	0x10000ul	/* __SO_ACCEPTCON: listening */
#define SS_UNCONNECTED	1ul

struct dec {
	json_t		*listening, *skipped;
	size_t		 sockets, nlisten, unidentified, nskipped;
	size_t		 kept_unknown;
};

/*
 * Hex digits (1 to 16) at *p, then one space; *p moves past them.  0, or
 * FA_ERR_INPUT (*p unmoved).
 */
static int
hex_field(const char **p, unsigned long long *v)
{
	const char *s = *p;
	size_t n = 0;
	int d;

	for (*v = 0; n < 17; n++, s++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else
			break;
		*v = *v * 16 + (unsigned long long)d;
	}
	if (n == 0 || n > 16 || *s != ' ')
		return FA_ERR_INPUT;
	*p = s + 1;
	return 0;
}

static const char *
type_name(unsigned long long t)
{
	/* include/linux/net.h enum sock_type */
	return t == 1 ? "stream" : t == 2 ? "dgram" : t == 5 ? "seqpacket" :
	    NULL;
}

static int
skip(struct dec *d, unsigned ln, const char *why)
{
	d->nskipped++;
	if (json_array_size(d->skipped) >= 64)
		return 0;
	return json_array_append_new(d->skipped, json_pack("{s:I, s:s}",
	    "line", (json_int_t)ln, "reason", why)) != 0 ? FA_ERR_NOMEM : 0;
}

static int
decode_line(char *line, unsigned ln, void *arg, char **why)
{
	static const char *const cls_name[] = { "unknown", "runtime",
	    "other" };
	struct dec *d = arg;
	const char *p = line, *tn, *api, *name;
	unsigned long long refs, proto, flags, type, st, ino = 0;
	enum fa_sock_class cls;
	char *shown;
	size_t n;
	json_t *e;

	if (ln == 1) {
		if (strncmp(line, "Num ", 4) != 0)
			return fa_why(why, "line 1: not the header of "
			    "/proc/net/unix");
		return 0;
	}
	/* "%pK: " */
	n = strspn(p, "0123456789abcdefABCDEF");
	if (n == 0 || n > 16 || p[n] != ':' || p[n + 1] != ' ')
		return skip(d, ln, "no socket address");
	p += n + 2;
	if (hex_field(&p, &refs) != 0 || hex_field(&p, &proto) != 0 ||
	    hex_field(&p, &flags) != 0 || hex_field(&p, &type) != 0 ||
	    hex_field(&p, &st) != 0)
		return skip(d, ln, "not five hex fields");
	(void)refs;
	(void)proto;
	/* "%5lu": right-aligned, so leading spaces. */
	p += strspn(p, " ");
	/* At most 19 digits: no wrap of the 64-bit number. */
	if ((n = strspn(p, "0123456789")) == 0 || n > 19)
		return skip(d, ln, "no inode number");
	for (; n > 0; n--, p++)
		ino = ino * 10 + (unsigned long long)(*p - '0');
	if (*p != '\0' && (*p != ' ' || p[1] == '\0'))
		return skip(d, ln, "bad name");
	name = *p == ' ' ? p + 1 : NULL;
	d->sockets++;
	if (!(flags & SO_ACCEPTCON) || st != SS_UNCONNECTED || name == NULL)
		return 0;	/* not listening (or unbound: unreachable) */
	d->nlisten++;
	cls = fa_host_socket_ident(name, &api);
	if (cls == FA_SOCK_UNKNOWN) {
		d->unidentified++;
		if (d->kept_unknown >= FA_NET_UNIX_KEEP)
			return 0;
		d->kept_unknown++;
	}
	if ((shown = fa_str_sanitize(name, strlen(name))) == NULL)
		return FA_ERR_NOMEM;
	tn = type_name(type);
	e = json_pack("{s:s, s:b, s:I, s:s}", "name", shown, "abstract",
	    name[0] == '@', "inode", (json_int_t)ino, "class",
	    cls_name[cls]);
	if (e != NULL && (json_object_set_new(e, "type", tn != NULL ?
	    json_string(tn) : json_integer((json_int_t)type)) != 0 ||
	    (api != NULL && json_object_set_new(e, "api",
	    json_string(api)) != 0) || (strcmp(shown, name) != 0 &&
	    json_object_set_new(e, "shown", json_false()) != 0))) {
		json_decref(e);
		e = NULL;
	}
	free(shown);
	if (e == NULL || json_array_append_new(d->listening, e) != 0)
		return FA_ERR_NOMEM;
	return 0;
}

int
fa_net_unix_decode(const char *text, size_t len, json_t **out, char **why)
{
	struct fa_obs_build b;
	struct dec d;
	int r;

	*out = NULL;
	if (why != NULL)
		*why = NULL;
	if (len > FA_NET_UNIX_MAX)
		return FA_ERR_TOOBIG;
	memset(&d, 0, sizeof(d));
	d.listening = json_array();
	d.skipped = json_array();
	if (d.listening == NULL || d.skipped == NULL) {
		r = FA_ERR_NOMEM;
		goto done;
	}
	if (len == 0) {
		r = fa_why(why, "empty: no header");
		goto done;
	}
	if ((r = fa_text_each_line(text, len, decode_line, &d, why)) != 0)
		goto done;
	fa_obs_build(&b);
	fa_put_int(&b, FA_F(HOST_UNIX, sockets), (long long)d.sockets);
	fa_put_arr(&b, FA_F(HOST_UNIX, listening), json_incref(d.listening));
	fa_put_int(&b, FA_F(HOST_UNIX, listening_count), (long long)d.nlisten);
	fa_put_int(&b, FA_F(HOST_UNIX, unidentified),
	    (long long)d.unidentified);
	fa_put_arr(&b, FA_F(HOST_UNIX, skipped), json_incref(d.skipped));
	fa_put_int(&b, FA_F(HOST_UNIX, skipped_count), (long long)d.nskipped);
	*out = fa_obs_built(&b);
	r = *out == NULL ? FA_ERR_NOMEM : 0;
done:
	json_decref(d.listening);
	json_decref(d.skipped);
	return r;
}

/* A runtime socket's path that cannot be stat'ed as shown: said so. */
static int
unlocatable(struct fa_snapshot *snap, const char *name, const char *role,
    const char *why)
{
	struct fa_obs_build b;
	json_t *d;
	char *reason;
	int r;

	if (fa_snapshot_find(snap, FA_KIND_HOST_PATH, name) != NULL)
		return 0;
	if ((reason = fa_strfmt("%s: %s", name, why)) == NULL)
		return FA_ERR_NOMEM;
	fa_obs_build(&b);
	fa_put_str(&b, FA_F(HOST_PATH, path), name);
	fa_put_str(&b, FA_F(HOST_PATH, role), role);
	fa_put_str(&b, FA_F(HOST_PATH, found_by), "/proc/net/unix");
	if ((d = fa_obs_built(&b)) == NULL) {
		free(reason);
		return FA_ERR_NOMEM;
	}
	r = fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_PATH, name,
	    "stat", FA_OBS_NOT_COLLECTED, reason, d, NULL);
	free(reason);
	return r;
}

int
fa_host_collect_unix(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	const struct fa_obs *o;
	const json_t *e;
	const char *name, *api;
	json_t *listening;
	char role[64];
	size_t i;
	int r;

	if ((r = fa_host_read_decode(root, snap, FA_KIND_HOST_UNIX,
	    "/proc/net/unix", FA_NET_UNIX_MAX, fa_net_unix_decode)) != 0)
		return r;
	o = fa_snapshot_find(snap, FA_KIND_HOST_UNIX, "/proc/net/unix");
	if (o == NULL || o->state != FA_OBS_COMPLETE)
		return 0;
	/* Held: the observations added below may move the one it is in. */
	listening = json_incref(json_object_get(o->data, "listening"));
	json_array_foreach(listening, i, e) {
		name = fa_json_get_str(e, "name");
		api = fa_json_get_str(e, "api");
		if (name == NULL || api == NULL || json_is_true(json_object_get(
		    e, "abstract")) || strcmp(fa_json_get_str(e, "class") !=
		    NULL ? fa_json_get_str(e, "class") : "", "runtime") != 0)
			continue;
		snprintf(role, sizeof(role), "runtime-socket:%s", api);
		if (json_is_false(json_object_get(e, "shown")))
			r = unlocatable(snap, name, role, "the name holds "
			    "bytes that cannot be shown, so it cannot be "
			    "looked up");
		else if (name[0] != '/')
			r = unlocatable(snap, name, role, "a relative name "
			    "(bound relative to its binder's working "
			    "directory): where it is cannot be told");
		else
			r = fa_host_probe_found(root, snap, name, role,
			    "/proc/net/unix");
		if (r != 0)
			break;
	}
	json_decref(listening);
	return r;
}
