/*
 * mountinfo decoding and collection (see host_mounts.h).  A line is
 *   1490 1466 8:1 /var/run/docker.sock /run/docker.sock rw shared:3 - ext4
 *   /dev/sda1 rw   (one line; proc_pid_mountinfo(5)): mount ID, parent
 * ID, major:minor, root, mount point, mount options, zero or more
 * optional fields, "-", filesystem type, source, super options.  The
 * kernel escapes space, tab, newline and backslash in paths as \ooo
 * (fs/proc_namespace.c, mangle()).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "host_mounts.h"
#include "host_obs.h"

#define MAX_FIELDS	64

/* Undo \ooo escapes in place; 0, or -1 for a malformed escape. */
static int
unescape(char *s)
{
	char *w = s;
	int v;

	for (; *s != '\0'; s++) {
		if (*s != '\\') {
			*w++ = *s;
			continue;
		}
		if (s[1] < '0' || s[1] > '3' || s[2] < '0' || s[2] > '7' ||
		    s[3] < '0' || s[3] > '7')
			return -1;
		v = (s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0');
		if (v == 0)
			return -1;
		*w++ = (char)v;
		s += 3;
	}
	*w = '\0';
	return 0;
}

/* A JSON string of a decoded path: printable as is, else sanitised. */
static json_t *
path_json(const char *s)
{
	char *clean;
	json_t *j;
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e ||
		    s[i] == '\\')
			break;
	if (s[i] == '\0')
		return json_string(s);
	if ((clean = fa_str_sanitize(s, strlen(s))) == NULL)
		return NULL;
	j = json_string(clean);
	free(clean);
	return j;
}

/* "rw,nosuid" -> 1 if "ro" is one of the comma-separated options. */
static int
has_ro(const char *opts)
{
	const char *p = opts;
	size_t n;

	while (*p != '\0') {
		n = strcspn(p, ",");
		if (n == 2 && strncmp(p, "ro", 2) == 0)
			return 1;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int
device_ok(const char *s)
{
	size_t a = strspn(s, "0123456789"), b;

	if (a == 0 || a > 10 || s[a] != ':')
		return 0;
	b = strspn(s + a + 1, "0123456789");
	return b > 0 && b <= 10 && s[a + 1 + b] == '\0';
}

static int
decode_line(char *line, unsigned ln, void *arg, char **why)
{
	json_t *arr = arg;
	char *f[MAX_FIELDS], *save = NULL, *tok;
	size_t n = 0, sep, i;
	json_t *o;

	if (json_array_size(arr) == FA_MOUNTS_MAX)
		return FA_ERR_TOOBIG;
	for (tok = strtok_r(line, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		if (n == MAX_FIELDS)
			return fa_why(why, "line %u: too many fields", ln);
		f[n++] = tok;
	}
	for (sep = 6; sep < n && strcmp(f[sep], "-") != 0; sep++)
		;
	if (n < 10 || sep >= n || n - sep != 4)
		return fa_why(why, "line %u: not a mountinfo line", ln);
	if (strspn(f[0], "0123456789") != strlen(f[0]) ||
	    strspn(f[1], "0123456789") != strlen(f[1]) || !device_ok(f[2]))
		return fa_why(why, "line %u: bad mount or device id", ln);
	for (i = 3; i < n; i++) {
		if (i > 5 && i <= sep)
			continue;	/* optional fields (tags) and "-" */
		if (unescape(f[i]) != 0)
			return fa_why(why, "line %u: bad escape", ln);
	}
	if (f[3][0] != '/' || f[4][0] != '/')
		return fa_why(why, "line %u: root or mount point not absolute",
		    ln);
	if ((o = json_object()) == NULL)
		return FA_ERR_NOMEM;
	if (json_object_set_new(o, "mount_point", path_json(f[4])) != 0 ||
	    json_object_set_new(o, "root", path_json(f[3])) != 0 ||
	    json_object_set_new(o, "fstype", path_json(f[sep + 1])) != 0 ||
	    json_object_set_new(o, "source", path_json(f[sep + 2])) != 0 ||
	    json_object_set_new(o, "options", path_json(f[5])) != 0 ||
	    json_object_set_new(o, "super_options",
	    path_json(f[sep + 3])) != 0 ||
	    json_object_set_new(o, "device", json_string(f[2])) != 0 ||
	    json_object_set_new(o, "read_only",
	    json_boolean(has_ro(f[5]))) != 0) {
		json_decref(o);
		return FA_ERR_NOMEM;
	}
	return json_array_append_new(arr, o) != 0 ? FA_ERR_NOMEM : 0;
}

int
fa_mountinfo_decode(const char *text, size_t len, json_t **out, char **why)
{
	json_t *arr;
	int r;

	*out = NULL;
	if (why != NULL)
		*why = NULL;
	if (len > FA_MOUNTINFO_MAX)
		return FA_ERR_TOOBIG;
	if ((arr = json_array()) == NULL)
		return FA_ERR_NOMEM;
	r = fa_text_each_line(text, len, decode_line, arr, why);
	if (r == 0 && json_array_size(arr) == 0)
		r = fa_why(why, "no mounts");
	if (r != 0) {
		json_decref(arr);
		return r;
	}
	*out = arr;
	return 0;
}

int
fa_host_collect_mounts(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	return fa_host_read_decode(root, snap, FA_KIND_HOST_MOUNTS,
	    "/proc/self/mountinfo", FA_MOUNTINFO_MAX, fa_mountinfo_decode,
	    "mounts");
}
