/* SPDX-License-Identifier: BSD-2-Clause */
/* Ports grouped by the value read of them (see ib_groups.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "ib_groups.h"

void
fa_ib_groups_init(struct fa_ib_groups *g)
{
	memset(g, 0, sizeof(*g));
}

/* Room for one more in a vector of *cap elements of size. */
static void *
room(void *v, size_t n, size_t *cap, size_t size)
{
	size_t nc;

	if (n < *cap)
		return v;
	nc = *cap == 0 ? 16 : *cap * 2;
	if ((v = realloc(v, nc * size)) != NULL)
		*cap = nc;
	return v;
}

int
fa_ib_groups_has(const struct fa_ib_groups *g, const char *key)
{
	return g->by_key != NULL && json_object_get(g->by_key, key) != NULL;
}

int
fa_ib_groups_add(struct fa_ib_groups *g, const char *key, json_t *value,
    uint64_t order, uint64_t guid)
{
	struct fa_ib_group *gr, *nv;
	struct fa_ib_member *nm;
	json_t *at;
	size_t i;

	if (g->by_key == NULL && (g->by_key = json_object()) == NULL)
		goto nomem;
	if ((at = json_object_get(g->by_key, key)) != NULL) {
		i = (size_t)json_integer_value(at);
		json_decref(value);
	} else {
		if (value == NULL)
			goto nomem;	/* a new key's value not made */
		if ((nv = room(g->v, g->n, &g->cap, sizeof(*g->v))) == NULL)
			goto nomem;
		g->v = nv;
		/* Counted only once it has room for its first port: no
		 * group is ever left without one. */
		i = g->n;
		memset(&g->v[i], 0, sizeof(g->v[i]));
		if ((g->v[i].m = room(NULL, 0, &g->v[i].cap,
		    sizeof(*g->v[i].m))) == NULL)
			goto nomem;
		if (json_object_set_new(g->by_key, key,
		    json_integer((json_int_t)i)) != 0) {
			free(g->v[i].m);
			goto nomem;
		}
		g->n++;
		g->v[i].value = value;
	}
	gr = &g->v[i];
	if ((nm = room(gr->m, gr->n, &gr->cap, sizeof(*nm))) == NULL)
		return FA_ERR_NOMEM;
	gr->m = nm;
	gr->m[gr->n].order = order;
	gr->m[gr->n++].guid = guid;
	g->ports++;
	return 0;
nomem:
	json_decref(value);
	return FA_ERR_NOMEM;
}

static int
member_cmp(const void *a, const void *b)
{
	const struct fa_ib_member *x = a, *y = b;

	return x->order < y->order ? -1 : x->order > y->order;
}

/* By first port; each group's members are sorted already. */
static int
group_cmp(const void *a, const void *b)
{
	const struct fa_ib_group *x = a, *y = b;

	return member_cmp(x->m, y->m);
}

json_t *
fa_ib_groups_json(struct fa_ib_groups *g)
{
	json_t *a = json_array(), *o, *guids;
	char hex[19];
	size_t i, k;

	if (a == NULL)
		return NULL;
	/* Every group has a member: one is added with each new group. */
	for (i = 0; i < g->n; i++)
		qsort(g->v[i].m, g->v[i].n, sizeof(*g->v[i].m), member_cmp);
	qsort(g->v, g->n, sizeof(*g->v), group_cmp);
	/* The key map's indexes are stale now: no more adding. */
	json_decref(g->by_key);
	g->by_key = NULL;
	for (i = 0; i < g->n; i++) {
		if ((o = json_deep_copy(g->v[i].value)) == NULL ||
		    json_array_append_new(a, o) != 0 ||
		    (guids = json_array()) == NULL ||
		    json_object_set_new(o, "port_guids", guids) != 0)
			goto nomem;
		for (k = 0; k < g->v[i].n; k++) {
			snprintf(hex, sizeof(hex), "0x%016llx",
			    (unsigned long long)g->v[i].m[k].guid);
			if (json_array_append_new(guids,
			    json_string(hex)) != 0)
				goto nomem;
		}
	}
	return a;
nomem:
	json_decref(a);
	return NULL;
}

void
fa_ib_groups_free(struct fa_ib_groups *g)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		json_decref(g->v[i].value);
		free(g->v[i].m);
	}
	free(g->v);
	json_decref(g->by_key);
	memset(g, 0, sizeof(*g));
}
