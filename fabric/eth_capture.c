/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Summarising decoded frames into an eth.capture observation (see
 * eth_capture.h).
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
	json_t		*skipped;	/* why -> frames not judged */
	json_t		*vlans_cut;	/* "VID" -> frames cut short */
	struct fa_obs_build out;	/* the data, the source's facts
					 * first (fa_eth_agg_facts) */
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
	a->skipped = json_object();
	fa_obs_build(&a->out);
	a->vlans_cut = json_object();
	if (a->skipped == NULL || a->out.failed || a->vlans_cut == NULL ||
	    a->source == NULL || a->mode == NULL || a->examples == NULL ||
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
	json_decref(a->skipped);
	json_decref(fa_obs_built(&a->out));
	json_decref(a->vlans_cut);
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
	/* An ARP probe (sender 0.0.0.0) claims its target (RFC 5227). */
	static const char *const arp[] = { "sender_ip", "sender_mac",
	    "truncated", NULL };
	static const char *const probe[] = { "sender_ip", "sender_mac",
	    "target_ip", "truncated", NULL };
	static const char *const dhcp[] = { "src", "ip_src", "server_id",
	    "msg_type", "your_ip", "bootfile", "tftp_server", "relayed",
	    "truncated", NULL };
	static const char *const name[] = { "proto", "src", "ip_src", NULL };
	/* ND: the target of a DAD probe or an advertisement, the prefixes
	 * of a router advertisement (RFC 4861) tell who the sender is. */
	static const char *const nd[] = { "type", "src", "ip_src", "target",
	    "prefixes", "truncated", NULL };
	static const char *const roce[] = { "src", "dst", "ip_src", "ip_dst",
	    "truncated", NULL };
	static const char *const rmcp[] = { "src", "ip_src", "ip_dst", "class",
	    "truncated", NULL };
	const char *const *keep = NULL;
	json_t *o;

	*nomem = 0;
	if (strcmp(sig, "arp") == 0) {
		const char *ip = fa_json_get_str(f, "sender_ip");

		keep = ip != NULL && strcmp(ip, "0.0.0.0") == 0 ? probe : arp;
	}
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

/* One more frame of VLAN vid; cut: the capture kept only part of it. */
static int
count_vlan(struct fa_eth_agg *a, long vid, int cut)
{
	char k[8];
	int r;

	snprintf(k, sizeof(k), "%ld", vid);
	if ((r = count_key(a->vlans, k)) != 0 || !cut)
		return r;
	return count_key(a->vlans_cut, k);
}

/* A frame that could not be decoded, and the signal its headers named. */
static int
malformed(struct fa_eth_agg *a, const char *why, const char *sig)
{
	a->malformed++;
	if (json_array_size(a->examples) < 8 &&
	    json_array_append_new(a->examples, json_pack("{s:I, s:s, s:s?}",
	    "frame", (json_int_t)a->frames, "why", why != NULL ? why :
	    "malformed", "signal", sig)) != 0)
		return FA_ERR_NOMEM;
	/* A signal whose presence is the finding still counts. */
	return sig != NULL ? count_key(a->bad_signals, sig) : 0;
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
	struct fa_eth_l2 l2 = { b, b + 6, b + 12, 0, caplen < wirelen, 0 };

	if (caplen < 14) {
		/* Not even a whole Ethernet header: nothing to judge by. */
		a->frames++;
		a->bytes += wirelen;
		a->truncated += caplen < wirelen;
		return malformed(a, "frame shorter than an Ethernet header",
		    NULL);
	}
	l2.len = caplen - 12;
	return fa_eth_agg_l2(a, &l2, wirelen);
}

int
fa_eth_agg_skip(struct fa_eth_agg *a, const char *why, size_t wirelen)
{
	a->frames++;
	a->bytes += wirelen;
	return count_key(a->skipped, why);
}

struct fa_obs_build *
fa_eth_agg_facts(struct fa_eth_agg *a)
{
	return &a->out;
}

int
fa_eth_agg_l2(struct fa_eth_agg *a, const struct fa_eth_l2 *l2,
    size_t wirelen)
{
	json_t *f = NULL, *red, *map, *e;
	const json_t *tags;
	const char *sig;
	char *why = NULL, *key;
	long vid = -1;
	int r = 0, dr, nomem = 0;
	size_t i;

	a->frames++;
	a->bytes += wirelen;
	if (l2->cut)
		a->truncated++;
	dr = fa_eth_decode_l2(l2, &f, &why);
	if (dr == FA_ERR_NOMEM) {
		json_decref(f);
		free(why);
		return dr;
	}
	/* A frame that lies about its lengths still counts its tags. */
	if ((tags = json_object_get(f, "tags")) != NULL &&
	    json_array_size(tags) > 0) {
		a->tagged++;
		/* Every VID the frame carries, outer first. */
		for (i = 0; i < json_array_size(tags); i++)
			if ((r = count_vlan(a, (long)json_integer_value(
			    json_object_get(json_array_get(tags, i), "vid")),
			    l2->cut)) != 0)
				goto out;
		vid = (long)json_integer_value(json_object_get(
		    json_array_get(tags, 0), "vid"));
	}
	if (dr != 0) {
		r = malformed(a, why, fa_json_get_str(f, "signal"));
		goto out;
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
	free(why);
	return r;
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

int
fa_eth_agg_finish(struct fa_eth_agg *a, struct fa_snapshot *snap,
    enum fa_obs_state st, const char *reason, long seconds)
{
	json_t *sigs = json_object(), *arr, *map, *e, *data;
	struct fa_obs_build *b;
	const char *name, *key;
	int r;

	json_object_foreach(a->signals, name, map) {
		/* Object keys iterate in insertion order; sort for output. */
		const char **keys = calloc(json_object_size(map) + 1,
		    sizeof(*keys));
		size_t n = 0, i;

		if (keys == NULL || sigs == NULL ||
		    (arr = json_array()) == NULL ||
		    json_object_set_new(sigs, name, arr) != 0) {
			free(keys);
			goto nomem;
		}
		json_object_foreach(map, key, e)
			keys[n++] = key;
		qsort(keys, n, sizeof(*keys), cmp_str);
		for (i = 0; i < n; i++)
			if (json_array_append(arr, json_object_get(map,
			    keys[i])) != 0) {
				free(keys);
				goto nomem;
			}
		free(keys);
	}
	b = &a->out;
	fa_put_str(b, FA_F(ETH_CAPTURE, source), a->source);
	fa_put_str(b, FA_F(ETH_CAPTURE, mode), a->mode);
	fa_put_int(b, FA_F(ETH_CAPTURE, frames), (long long)a->frames);
	fa_put_int(b, FA_F(ETH_CAPTURE, bytes), (long long)a->bytes);
	fa_put_int(b, FA_F(ETH_CAPTURE, truncated), (long long)a->truncated);
	fa_put_int(b, FA_F(ETH_CAPTURE, malformed), (long long)a->malformed);
	fa_put_arr(b, FA_F(ETH_CAPTURE, malformed_examples),
	    json_incref(a->examples));
	fa_put_obj(b, FA_F(ETH_CAPTURE, malformed_signals),
	    json_incref(a->bad_signals));
	fa_put_int(b, FA_F(ETH_CAPTURE, tagged), (long long)a->tagged);
	fa_put_obj(b, FA_F(ETH_CAPTURE, vlans), json_incref(a->vlans));
	fa_put_obj(b, FA_F(ETH_CAPTURE, signals), sigs);
	sigs = NULL;
	fa_put_int(b, FA_F(ETH_CAPTURE, signals_dropped),
	    (long long)a->dropped);
	fa_put_obj(b, FA_F(ETH_CAPTURE, signals_dropped_by),
	    json_incref(a->dropped_by));
	fa_put_int(b, FA_F(ETH_CAPTURE, signals_limit), FA_ETH_UNIQUE_MAX);
	if (json_object_size(a->skipped) > 0)
		fa_put_obj(b, FA_F(ETH_CAPTURE, skipped),
		    json_incref(a->skipped));
	if (json_object_size(a->vlans_cut) > 0)
		fa_put_obj(b, FA_F(ETH_CAPTURE, vlans_cut),
		    json_incref(a->vlans_cut));
	if (seconds >= 0)
		fa_put_int(b, FA_F(ETH_CAPTURE, seconds), seconds);
	if ((data = fa_obs_built(b)) == NULL)
		goto nomem;
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
