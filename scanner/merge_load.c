/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The reading side of `fabaudit merge`: node reports read, hashed, their
 * signatures checked and their JSON parsed by worker threads, handed to
 * the caller one by one in input order (so the merge and its messages do
 * not depend on timing).  At most MLOAD_RING reports are parsed ahead of
 * the one being folded: memory is bounded by that, not by the number of
 * nodes.  Parsing is most of a merge's time (jansson builds every value
 * of a ~100 KB report); the folding stays on the caller's thread.
 *
 * Threads: each worker only reads its own file and builds its own JSON
 * document; jansson has no shared mutable state besides its hash seed,
 * set by json_object_seed() before the workers start, and OpenSSL 3's
 * verification is thread-safe.  The workers block the signals
 * core/interrupt.c handles, so its handler runs on the caller's thread.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "scanner.h"
#include "merge_load.h"

#define MLOAD_RING	32	/* reports parsed ahead of the fold */

struct fa_mload;

struct worker_arg {
	struct fa_mload	*l;
	unsigned	 id;
};

struct fa_mload {
	char *const		*paths;
	size_t			 n;
	fa_mload_fn		 load;
	void			*arg;
	pthread_t		 tid[FA_MLOAD_MAX_THREADS];
	struct worker_arg	 warg[FA_MLOAD_MAX_THREADS];
	unsigned		 nthreads;
	pthread_mutex_t		 mu;
	pthread_cond_t		 ready, space;
	struct fa_mload_item	*slot[MLOAD_RING];
	/* Folded items, freed by the worker that built them: glibc frees
	 * fastest into the arena the thread allocated from. */
	struct fa_mload_item	*trash[FA_MLOAD_MAX_THREADS];
	size_t			 next;		/* next index to claim */
	size_t			 taken;		/* items handed to the caller */
	int			 stop;
};

static void
free_list(struct fa_mload_item *it)
{
	struct fa_mload_item *nx;

	for (; it != NULL; it = nx) {
		nx = it->next_free;
		json_decref(it->json);
		free(it->err);
		free(it->sig_detail);
		free(it);
	}
}

static void *
worker(void *p)
{
	struct fa_mload *l = ((struct worker_arg *)p)->l;
	unsigned id = ((struct worker_arg *)p)->id;
	struct fa_mload_item *it, *trash;
	size_t i;

	for (;;) {
		pthread_mutex_lock(&l->mu);
		while (!l->stop && l->next < l->n &&
		    l->next >= l->taken + MLOAD_RING && l->trash[id] == NULL)
			pthread_cond_wait(&l->space, &l->mu);
		trash = l->trash[id];
		l->trash[id] = NULL;
		if (trash != NULL) {
			pthread_mutex_unlock(&l->mu);
			free_list(trash);
			continue;
		}
		if (l->stop || l->next >= l->n) {
			pthread_mutex_unlock(&l->mu);
			return NULL;
		}
		i = l->next++;
		pthread_mutex_unlock(&l->mu);
		if ((it = calloc(1, sizeof(*it))) != NULL) {
			it->path = l->paths[i];
			it->owner = id;
			l->load(it, l->arg);
		}
		pthread_mutex_lock(&l->mu);
		/* NULL stays NULL: the caller reads it as out of memory. */
		l->slot[i % MLOAD_RING] = it != NULL ? it :
		    (struct fa_mload_item *)&l->slot;
		pthread_cond_broadcast(&l->ready);
		pthread_mutex_unlock(&l->mu);
	}
}

int
fa_mload_start(struct fa_mload **out, char *const *paths, size_t n,
    unsigned nthreads, fa_mload_fn load, void *arg)
{
	struct fa_mload *l;
	sigset_t all, old;
	unsigned t;

	*out = NULL;
	if ((l = calloc(1, sizeof(*l))) == NULL)
		return FA_ERR_NOMEM;
	l->paths = paths;
	l->n = n;
	l->load = load;
	l->arg = arg;
	if (nthreads < 1)
		nthreads = 1;
	if (nthreads > FA_MLOAD_MAX_THREADS)
		nthreads = FA_MLOAD_MAX_THREADS;
	pthread_mutex_init(&l->mu, NULL);
	pthread_cond_init(&l->ready, NULL);
	pthread_cond_init(&l->space, NULL);
	json_object_seed(0);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (t = 0; t < nthreads; t++) {
		l->warg[t].l = l;
		l->warg[t].id = t;
		if (pthread_create(&l->tid[t], NULL, worker, &l->warg[t]) != 0)
			break;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	l->nthreads = t;
	if (t == 0) {
		fa_mload_stop(l);
		return FA_ERR_INTERNAL;
	}
	*out = l;
	return 0;
}

int
fa_mload_next(struct fa_mload *l, struct fa_mload_item **it)
{
	struct fa_mload_item *x;
	size_t k;

	*it = NULL;
	pthread_mutex_lock(&l->mu);
	if (l->taken >= l->n) {
		pthread_mutex_unlock(&l->mu);
		return 1;
	}
	k = l->taken % MLOAD_RING;
	while ((x = l->slot[k]) == NULL)
		pthread_cond_wait(&l->ready, &l->mu);
	l->slot[k] = NULL;
	l->taken++;
	pthread_cond_broadcast(&l->space);
	pthread_mutex_unlock(&l->mu);
	if (x == (struct fa_mload_item *)&l->slot)
		return FA_ERR_NOMEM;
	*it = x;
	return 0;
}

void
fa_mload_done(struct fa_mload *l, struct fa_mload_item *it)
{
	if (it == NULL)
		return;
	pthread_mutex_lock(&l->mu);
	it->next_free = l->trash[it->owner];
	l->trash[it->owner] = it;
	pthread_cond_broadcast(&l->space);
	pthread_mutex_unlock(&l->mu);
}

void
fa_mload_stop(struct fa_mload *l)
{
	unsigned t;
	size_t k;

	if (l == NULL)
		return;
	pthread_mutex_lock(&l->mu);
	l->stop = 1;
	pthread_cond_broadcast(&l->space);
	pthread_mutex_unlock(&l->mu);
	for (t = 0; t < l->nthreads; t++)
		pthread_join(l->tid[t], NULL);
	for (k = 0; k < MLOAD_RING; k++)
		if (l->slot[k] != (struct fa_mload_item *)&l->slot) {
			if (l->slot[k] != NULL)
				l->slot[k]->next_free = NULL;
			free_list(l->slot[k]);
		}
	for (t = 0; t < FA_MLOAD_MAX_THREADS; t++)
		free_list(l->trash[t]);
	pthread_cond_destroy(&l->ready);
	pthread_cond_destroy(&l->space);
	pthread_mutex_destroy(&l->mu);
	free(l);
}
