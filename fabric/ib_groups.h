/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Ports grouped by what was read of them, for the observations that
 * would otherwise repeat one per port what most ports share: the
 * PathRecord table's destinations (ib_sa.c) and the P_Key tables read
 * whole (ib_pkeys_remote.c).  Each group is the value read (a JSON
 * object) and the GUIDs of the ports it was read of.  Ports may go in in
 * any order (as their answers arrive): each comes with its place in
 * discovery order, and the groups come out in that order, each group's
 * ports in it and the groups by their first port, so that the same
 * fabric gives the same observation.  The map from a value's key to its
 * group is a jansson object.
 */
#ifndef FA_IB_GROUPS_H
#define FA_IB_GROUPS_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

struct fa_ib_groups {
	json_t		*by_key;	/* key -> group index */
	struct fa_ib_group {
		json_t		*value;
		struct fa_ib_member {
			uint64_t	 order;	/* in discovery order */
			uint64_t	 guid;
		}		*m;
		size_t		 n, cap;
	}		*v;
	size_t		 n, cap;
	size_t		 ports;
};

void fa_ib_groups_init(struct fa_ib_groups *g);
/* Whether a port with this key went in already. */
int fa_ib_groups_has(const struct fa_ib_groups *g, const char *key);
/*
 * Port guid, the order-th in discovery order, whose value is `value`
 * (stolen; kept only for the first port of its key, which must say
 * everything the value holds; NULL when fa_ib_groups_has() the key).  0
 * or FA_ERR_NOMEM.
 */
int fa_ib_groups_add(struct fa_ib_groups *g, const char *key, json_t *value,
    uint64_t order, uint64_t guid);
/*
 * The groups as a new array [{value's members..., port_guids:
 * ["0x%016x"]}] in discovery order, or NULL when out of memory.  The
 * groups are sorted in place: then only fa_ib_groups_free().
 */
json_t *fa_ib_groups_json(struct fa_ib_groups *g);
void fa_ib_groups_free(struct fa_ib_groups *g);

#endif
