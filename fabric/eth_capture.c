/*
 * Summarising decoded frames (see eth_capture.h), and reading saved
 * captures with libpcap.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "eth_capture.h"
#include "eth_frame.h"

struct fa_eth_agg {
	char		*source;
	char		*mode;
	uint64_t	 frames, bytes, truncated, malformed, tagged, dropped;
	json_t		*examples;	/* malformed frames, a few */
	json_t		*vlans;		/* "VID" -> count */
	json_t		*signals;	/* name -> {key -> entry} */
	json_t		*bad_signals;	/* name -> malformed frames */
	json_t		*dropped_by;	/* name -> entries not kept */
};

struct fa_eth_agg *
fa_eth_agg_new(const char *source, const char *mode)
{
	struct fa_eth_agg *a = calloc(1, sizeof(*a));

	if (a == NULL)
		return NULL;
	a->source = fa_str_sanitize(source, strlen(source));
	a->mode = fa_strdup(mode);
	a->examples = json_array();
	a->vlans = json_object();
	a->signals = json_object();
	a->bad_signals = json_object();
	a->dropped_by = json_object();
	if (a->source == NULL || a->mode == NULL || a->examples == NULL ||
	    a->vlans == NULL || a->signals == NULL || a->bad_signals == NULL ||
	    a->dropped_by == NULL) {
		fa_eth_agg_free(a);
		return NULL;
	}
	return a;
}

void
fa_eth_agg_free(struct fa_eth_agg *a)
{
	if (a == NULL)
		return;
	free(a->source);
	free(a->mode);
	json_decref(a->examples);
	json_decref(a->vlans);
	json_decref(a->signals);
	json_decref(a->bad_signals);
	json_decref(a->dropped_by);
	free(a);
}

/* Keep only the members of f named in keep (NULL-terminated). */
static json_t *
only(const json_t *f, const char *const *keep)
{
	json_t *o = json_object(), *v;

	for (; o != NULL && *keep != NULL; keep++)
		if ((v = json_object_get(f, *keep)) != NULL &&
		    json_object_set(o, *keep, v) != 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

/* The facts worth keeping for a signal, or NULL (not kept) / nomem. */
static json_t *
reduce(const char *sig, const json_t *f, int *nomem)
{
	static const char *const arp[] = { "sender_ip", "sender_mac", NULL };
	static const char *const dhcp[] = { "src", "ip_src", "server_id",
	    "msg_type", "your_ip", "bootfile", "tftp_server", "relayed",
	    NULL };
	static const char *const name[] = { "proto", "src", "ip_src", NULL };
	static const char *const nd[] = { "type", "src", "ip_src", NULL };
	static const char *const roce[] = { "src", "dst", "ip_src", "ip_dst",
	    NULL };
	static const char *const rmcp[] = { "src", "ip_src", "ip_dst", "class",
	    NULL };
	const char *const *keep = NULL;
	json_t *o;

	*nomem = 0;
	if (strcmp(sig, "arp") == 0)
		keep = arp;
	else if (strcmp(sig, "dhcp") == 0) {
		if (json_integer_value(json_object_get(f, "op")) != 2)
			return NULL;	/* requests carry nothing foreign */
		keep = dhcp;
	} else if (strcmp(sig, "name") == 0)
		keep = name;
	else if (strcmp(sig, "nd") == 0)
		keep = nd;
	else if (strcmp(sig, "roce") == 0)
		keep = roce;
	else if (strcmp(sig, "rmcp") == 0)
		keep = rmcp;
	else if (strcmp(sig, "ipv4") == 0 || strcmp(sig, "ipv6") == 0 ||
	    strcmp(sig, "other") == 0 || strcmp(sig, "tag-overflow") == 0)
		return NULL;
	if (keep != NULL)
		o = only(f, keep);
	else if ((o = json_deep_copy(f)) != NULL) {
		json_object_del(o, "tags");
		json_object_del(o, "signal");
		json_object_del(o, "dst");
	}
	if (o == NULL)
		*nomem = 1;
	return o;
}

/* obj[k] += 1. */
static int
count_key(json_t *obj, const char *k)
{
	json_t *v = json_object_get(obj, k);

	if (v != NULL)
		return json_integer_set(v, json_integer_value(v) + 1);
	return json_object_set_new(obj, k, json_integer(1)) != 0 ?
	    FA_ERR_NOMEM : 0;
}

static int
count_vlan(struct fa_eth_agg *a, long vid)
{
	char k[8];

	snprintf(k, sizeof(k), "%ld", vid);
	return count_key(a->vlans, k);
}

unsigned long long
fa_eth_agg_frames(const struct fa_eth_agg *a)
{
	return a->frames;
}

int
fa_eth_agg_frame(struct fa_eth_agg *a, const uint8_t *b, size_t caplen,
    size_t wirelen)
{
	json_t *f = NULL, *red, *map, *e;
	const json_t *tags;
	const char *sig;
	char *why = NULL, *key;
	long vid = -1;
	int r, nomem = 0;
	size_t i;

	a->frames++;
	a->bytes += wirelen;
	if (caplen < wirelen)
		a->truncated++;
	r = fa_eth_decode(b, caplen, &f, &why);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r != 0) {
		const char *g = fa_eth_signal_guess(b, caplen);

		a->malformed++;
		r = 0;
		if (json_array_size(a->examples) < 8 &&
		    json_array_append_new(a->examples, json_pack("{s:I, s:s, "
		    "s:s?}", "frame", (json_int_t)a->frames, "why", why != NULL ?
		    why : "malformed", "signal", g)) != 0)
			r = FA_ERR_NOMEM;
		/* A signal whose presence is the finding still counts. */
		if (r == 0 && g != NULL)
			r = count_key(a->bad_signals, g);
		free(why);
		return r;
	}
	tags = json_object_get(f, "tags");
	if (json_array_size(tags) > 0) {
		a->tagged++;
		/* Every VID the frame carries, outer first. */
		for (i = 0; i < json_array_size(tags); i++)
			if ((r = count_vlan(a, (long)json_integer_value(
			    json_object_get(json_array_get(tags, i), "vid"))))
			    != 0)
				goto out;
		vid = (long)json_integer_value(json_object_get(
		    json_array_get(tags, 0), "vid"));
	}
	sig = fa_json_get_str(f, "signal");
	if (sig == NULL || (red = reduce(sig, f, &nomem)) == NULL) {
		r = nomem ? FA_ERR_NOMEM : 0;
		goto out;
	}
	if (json_object_set_new(red, "vid", vid >= 0 ? json_integer(vid) :
	    json_null()) != 0 || (key = json_dumps(red, JSON_COMPACT |
	    JSON_SORT_KEYS)) == NULL) {
		json_decref(red);
		r = FA_ERR_NOMEM;
		goto out;
	}
	if ((map = json_object_get(a->signals, sig)) == NULL &&
	    (json_object_set_new(a->signals, sig, map = json_object()) != 0)) {
		r = FA_ERR_NOMEM;
	} else if ((e = json_object_get(map, key)) != NULL) {
		json_t *c = json_object_get(e, "count");

		r = json_integer_set(c, json_integer_value(c) + 1);
	} else if (json_object_size(map) >= FA_ETH_UNIQUE_MAX) {
		/* Counted per signal: the checks that read this signal
		 * cannot pass on a table that filled (eth_wire_checks.c). */
		a->dropped++;
		r = count_key(a->dropped_by, sig);
	} else {
		r = json_object_set_new(red, "count", json_integer(1)) != 0 ||
		    json_object_set(map, key, red) != 0 ? FA_ERR_NOMEM : 0;
	}
	free(key);
	json_decref(red);
out:
	json_decref(f);
	return r;
}

int
fa_eth_agg_finish(struct fa_eth_agg *a, struct fa_snapshot *snap,
    enum fa_obs_state st, const char *reason, long seconds)
{
	json_t *sigs = json_object(), *arr, *map, *e, *data;
	const char *name, *key;
	int r;

	json_object_foreach(a->signals, name, map) {
		/* Object keys iterate in insertion order; sort for output. */
		const char **keys = calloc(json_object_size(map) + 1,
		    sizeof(*keys));
		size_t n = 0, i, j;

		if (keys == NULL || sigs == NULL ||
		    (arr = json_array()) == NULL ||
		    json_object_set_new(sigs, name, arr) != 0) {
			free(keys);
			goto nomem;
		}
		json_object_foreach(map, key, e)
			keys[n++] = key;
		for (i = 1; i < n; i++)		/* insertion sort, n <= 256 */
			for (j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0;
			    j--) {
				const char *t = keys[j];

				keys[j] = keys[j - 1];
				keys[j - 1] = t;
			}
		for (i = 0; i < n; i++)
			if (json_array_append(arr, json_object_get(map,
			    keys[i])) != 0) {
				free(keys);
				goto nomem;
			}
		free(keys);
	}
	data = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:O, s:O, s:I, s:O, "
	    "s:o, s:I}", "source", a->source, "mode", a->mode, "frames",
	    (json_int_t)a->frames, "bytes", (json_int_t)a->bytes, "truncated",
	    (json_int_t)a->truncated, "malformed", (json_int_t)a->malformed,
	    "malformed_examples", a->examples, "malformed_signals",
	    a->bad_signals, "tagged", (json_int_t)a->tagged, "vlans",
	    a->vlans, "signals", sigs, "signals_dropped",
	    (json_int_t)a->dropped);
	sigs = NULL;
	if (data != NULL && (json_object_set(data, "signals_dropped_by",
	    a->dropped_by) != 0 || json_object_set_new(data, "signals_limit",
	    json_integer(FA_ETH_UNIQUE_MAX)) != 0)) {
		json_decref(data);
		data = NULL;
	}
	if (data == NULL)
		goto nomem;
	if (seconds >= 0 && json_object_set_new(data, "seconds",
	    json_integer(seconds)) != 0) {
		json_decref(data);
		goto nomem;
	}
	r = fa_snapshot_add(snap, FA_FAM_ETH, NULL, FA_KIND_ETH_CAPTURE,
	    a->source, strcmp(a->mode, "live") == 0 ? "listen" : "read",
	    st, reason, data, NULL);
	fa_eth_agg_free(a);
	return r;
nomem:
	json_decref(sigs);
	fa_eth_agg_free(a);
	return FA_ERR_NOMEM;
}

/*
 * pcap_open_offline() on a regular file only: it would block forever on a
 * FIFO and read a device.  NULL with *why set, or with eb from libpcap.
 */
static pcap_t *
open_capture(const char *path, char *eb, char **why)
{
	struct stat st = { 0 };
	pcap_t *p;
	FILE *f;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
	    O_NONBLOCK)) < 0) {
		(void)fa_why(why, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		(void)fa_why(why, "%s", !S_ISREG(st.st_mode) ?
		    "not a regular file" : strerror(errno));
		close(fd);
		return NULL;
	}
	if ((f = fdopen(fd, "rb")) == NULL) {
		(void)fa_why(why, "%s", strerror(errno));
		close(fd);
		return NULL;
	}
	/* On failure libpcap leaves the stream to its caller. */
	if ((p = pcap_fopen_offline(f, eb)) == NULL)
		fclose(f);
	return p;
}

int
fa_eth_pcap_check(const char *path, char **why)
{
	char eb[PCAP_ERRBUF_SIZE];
	pcap_t *p;
	int r = 0;

	eb[0] = '\0';
	if ((p = open_capture(path, eb, why)) == NULL)
		return why != NULL && *why != NULL ? FA_ERR_INPUT :
		    fa_why(why, "%s", eb[0] != '\0' ? eb :
		    "cannot be read as a capture");
	if (pcap_datalink(p) != DLT_EN10MB)
		r = fa_why(why, "link type %s, not Ethernet",
		    pcap_datalink_val_to_name(pcap_datalink(p)) != NULL ?
		    pcap_datalink_val_to_name(pcap_datalink(p)) : "unknown");
	pcap_close(p);
	return r;
}

/* Frames of an open capture into an eth.capture observation (p closed). */
static int
read_capture(pcap_t *p, const char *source, unsigned long long max_frames,
    struct fa_snapshot *snap, char **why)
{
	char stopped[96];
	struct pcap_pkthdr *h;
	const u_char *b;
	struct fa_eth_agg *a;
	enum fa_obs_state st = FA_OBS_COMPLETE;
	const char *reason = NULL;
	int r, n;

	if (pcap_datalink(p) != DLT_EN10MB) {
		r = fa_why(why, "link type %s, not Ethernet",
		    pcap_datalink_val_to_name(pcap_datalink(p)) != NULL ?
		    pcap_datalink_val_to_name(pcap_datalink(p)) : "unknown");
		pcap_close(p);
		return r;
	}
	if ((a = fa_eth_agg_new(source, "file")) == NULL) {
		pcap_close(p);
		return FA_ERR_NOMEM;
	}
	while ((n = pcap_next_ex(p, &h, &b)) == 1) {
		if (max_frames > 0 && a->frames >= max_frames) {
			/* What was not read might have been the finding. */
			st = FA_OBS_INCOMPLETE;
			snprintf(stopped, sizeof(stopped), "read stopped at "
			    "--max-frames %llu: the rest of the file was not "
			    "read", max_frames);
			reason = stopped;
			break;
		}
		if ((r = fa_eth_agg_frame(a, b, h->caplen, h->len)) != 0) {
			fa_eth_agg_free(a);
			pcap_close(p);
			return r;
		}
	}
	if (n == PCAP_ERROR) {
		st = FA_OBS_INCOMPLETE;
		reason = "the capture file is cut short or damaged";
	}
	pcap_close(p);
	return fa_eth_agg_finish(a, snap, st, reason, -1);
}

int
fa_eth_read_pcap_stream(FILE *f, const char *source,
    unsigned long long max_frames, struct fa_snapshot *snap, char **why)
{
	char eb[PCAP_ERRBUF_SIZE];
	pcap_t *p;

	eb[0] = '\0';
	/* On success the handle owns f (pcap_close closes it). */
	if ((p = pcap_fopen_offline(f, eb)) == NULL) {
		fclose(f);
		return fa_why(why, "%s", eb[0] != '\0' ? eb :
		    "cannot be read as a capture");
	}
	return read_capture(p, source, max_frames, snap, why);
}

int
fa_eth_read_pcap(const char *path, unsigned long long max_frames,
    struct fa_snapshot *snap, char **why)
{
	char eb[PCAP_ERRBUF_SIZE];
	pcap_t *p;

	eb[0] = '\0';
	if ((p = open_capture(path, eb, why)) == NULL)
		return why != NULL && *why != NULL ? FA_ERR_INPUT :
		    fa_why(why, "%s", eb[0] != '\0' ? eb :
		    "cannot be read as a capture");
	return read_capture(p, path, max_frames, snap, why);
}
