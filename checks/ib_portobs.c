/* SPDX-License-Identifier: BSD-2-Clause */
/* Per-port answers, per port or in groups (see ib_portobs.h). */
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_checks.h"
#include "ib_portobs.h"
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

/*
 * The next member of the groups being walked: 1 with *g the group and
 * *guid its port, 0 when they are done, FA_ERR_INPUT on a group without
 * its port list or a member that is not a GUID.
 */
static int
next_member(struct fa_ib_walk *w, const json_t **g, uint64_t *guid)
{
	const json_t *ports;

	while (w->group_obs != NULL && w->g < json_array_size(w->groups)) {
		*g = json_array_get(w->groups, w->g);
		ports = json_object_get(*g, "port_guids");
		if (!json_is_object(*g) || !json_is_array(ports))
			return FA_ERR_INPUT;
		if (w->m >= json_array_size(ports)) {
			w->g++;
			w->m = 0;
			continue;
		}
		if (fa_parse_hex64(json_string_value(json_array_get(ports,
		    w->m++)), guid, NULL) != 0)
			return FA_ERR_INPUT;
		return 1;
	}
	w->group_obs = NULL;
	return 0;
}

/* The path table's groups, when it was read whole and holds them. */
static const json_t *
destinations(const struct fa_obs *o)
{
	const json_t *d = fa_obs_arr(o, FA_F(IB_SA_PATH_TABLE, destinations));

	/* As a per-port observation is read: complete or incomplete. */
	return (o->state == FA_OBS_COMPLETE ||
	    o->state == FA_OBS_INCOMPLETE) && json_is_array(d) ? d : NULL;
}

int
fa_ib_next_pr(const struct fa_snapshot *s, struct fa_ib_walk *w,
    struct fa_ib_pr *pr)
{
	const struct fa_obs *o;
	const json_t *g;
	int r;

	for (;;) {
		if ((r = next_member(w, &g, &pr->port_guid)) != 0) {
			if (r < 0)
				return r;
			pr->o = w->group_obs;
			pr->state = w->group_obs->state;
			pr->pkeys = json_object_get(g, "pkeys");
			pr->have_records = fa_json_get_int(g, "records", 0,
			    1 << 20, &pr->records) == 0;
			if (!pr->have_records || !json_is_array(pr->pkeys))
				return FA_ERR_INPUT;
			return 1;
		}
		if ((o = fa_snapshot_next(s, NULL, &w->it)) == NULL)
			return 0;
		if (strcmp(o->kind, FA_KIND_IB_SA_PATH_TABLE) == 0) {
			if ((w->groups = destinations(o)) != NULL) {
				w->group_obs = o;
				w->g = w->m = 0;
			}
			continue;
		}
		if (strcmp(o->kind, FA_KIND_IB_PATH_RECORD) != 0)
			continue;
		pr->o = o;
		pr->state = o->state;
		if (fa_obs_u64(o, FA_F(IB_PATH_RECORD, port_guid),
		    &pr->port_guid) != 0)
			return FA_ERR_INPUT;
		pr->have_records = json_is_integer(fa_obs_jint(o,
		    FA_F(IB_PATH_RECORD, records)));
		pr->records = 0;
		if (pr->have_records && fa_obs_int(o, FA_F(IB_PATH_RECORD,
		    records), 0, 1 << 20, &pr->records) != 0)
			return FA_ERR_INPUT;
		pr->pkeys = fa_obs_arr(o, FA_F(IB_PATH_RECORD, pkeys));
		return 1;
	}
}

int
fa_ib_any_pr(const struct fa_snapshot *s)
{
	size_t it = 0;
	const struct fa_obs *o;

	if (fa_snapshot_next(s, FA_KIND_IB_PATH_RECORD, &it) != NULL)
		return 1;
	/* As with per-port queries: a port to ask about was asked. */
	for (it = 0; (o = fa_snapshot_next(s, FA_KIND_IB_SA_PATH_TABLE,
	    &it)) != NULL; )
		if (json_array_size(destinations(o)) > 0)
			return 1;
	return 0;
}

int
fa_ib_next_table(const struct fa_snapshot *s, struct fa_ib_walk *w,
    struct fa_ib_table *t)
{
	const struct fa_obs *o;
	const json_t *g;
	const char *role;
	int r;

	for (;;) {
		if ((r = next_member(w, &g, &t->port_guid)) != 0) {
			if (r < 0)
				return r;
			t->o = w->group_obs;
			t->by_sa = 0;
			t->pkeys = json_object_get(g, "pkeys");
			if (!json_is_array(t->pkeys))
				return FA_ERR_INPUT;
			return 1;
		}
		if ((o = fa_snapshot_next(s, NULL, &w->it)) == NULL)
			return 0;
		if (strcmp(o->kind, FA_KIND_IB_PKEY_TABLES) == 0) {
			if (o->state == FA_OBS_COMPLETE ||
			    o->state == FA_OBS_INCOMPLETE) {
				w->groups = fa_obs_arr(o, FA_F(IB_PKEY_TABLES,
				    tables));
				w->group_obs = o;
				w->g = w->m = 0;
			}
			continue;
		}
		if (strcmp(o->kind, FA_KIND_IB_PKEYS) != 0 &&
		    strcmp(o->kind, FA_KIND_IB_SA_PKEY_RECORD) != 0)
			continue;
		role = fa_obs_str(o, FA_F2(o, IB_PKEYS, IB_SA_PKEY_RECORD,
		    role));
		if (role == NULL || strcmp(role, "remote") != 0 ||
		    (o->state != FA_OBS_COMPLETE &&
		    o->state != FA_OBS_INCOMPLETE))
			continue;
		t->o = o;
		t->by_sa = strcmp(o->kind, FA_KIND_IB_SA_PKEY_RECORD) == 0;
		if (fa_obs_u64(o, FA_F2(o, IB_PKEYS, IB_SA_PKEY_RECORD,
		    port_guid), &t->port_guid) != 0)
			return FA_ERR_INPUT;
		t->pkeys = fa_obs_arr(o, FA_F2(o, IB_PKEYS, IB_SA_PKEY_RECORD,
		    pkeys));
		return 1;
	}
}
