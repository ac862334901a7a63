/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared state of one IB acquisition run; private to fabric/ib_*.c. */
#ifndef FA_FABRIC_IB_INTERNAL_H
#define FA_FABRIC_IB_INTERNAL_H

#include <stdint.h>

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "../core/obs_fields.h"
#include "../core/obs_kinds.h"
#include "../core/snapshot.h"
#include "ib.h"
#include "ib_groups.h"
#include "ib_mad.h"
#include "ib_pcap.h"
#include "ib_smp_decode.h"
#include "ib_tap.h"

#define FA_IB_PKEYS_KEPT	128	/* our P_Keys kept by index (4 blocks) */
#define FA_IB_UNICAST_LIDS	0xc000	/* LIDs 1-0xbfff (IBA vol. 1 4.1.3) */

struct fa_ib_feed;

struct fa_ib {
	const struct fa_ib_opts	*opts;
	struct fa_snapshot	*snap;
	struct fa_mad		*mad;		/* the MAD engine (SMI, SA) */
	struct fa_ib_pcap	*pcap;		/* mads.pcap, or NULL */
	char			 ca[UMAD_CA_NAME_LEN];
	int			 portnum;
	uint16_t		 lid;		/* local base LID */
	uint16_t		 sm_lid;	/* master SM LID per local PortInfo */
	uint64_t		 port_guid;	/* host order */
	uint64_t		 gid_prefix;	/* subnet prefix, host order */
	uint64_t		 node_guid;
	int			 node_type;	/* IB_NODE_CA, ... */
	uint16_t		 partition_cap;
	uint16_t		 pkey_at[FA_IB_PKEYS_KEPT];	/* our table by
						   index (first blocks) */
	int			 node_info_ok;	/* our own SMA answered NodeInfo */
	char			*node_desc;	/* sanitised */
	ibnd_fabric_t		*fabric;	/* NULL if discovery failed */
	uint8_t			*smp_table_read;	/* [LID]: that CA
						   port's P_Key table was read
						   whole by SMP */
	int			 smp_pkeys_done;	/* every one tried */
	struct fa_ib_groups	 smp_tables;	/* the tables read whole,
						   until the audit's end */
	int			 sa_trusted_wanted;	/* the SA took the
						   default SA_Key */
	struct fa_ib_feed	*feeds;		/* the phases streaming now */
	unsigned long		 total;		/* their items, all feeds */
	unsigned long		 finished;	/* ... finished */
	const char		*phase;		/* for the progress line */
	uint64_t		 last_tick_ms;
	struct fa_ib_tap_stats	 disc;		/* what discovery sent */
	int			 disc_untapped;	/* discovery found nodes, but
						   none of its SMPs came
						   through the tap */
	unsigned long		 nnodes, nports;	/* discovered */
	uint64_t		 discovery_ms, audit_ms;	/* wall time */
	uint64_t		 walk_ms;	/* of discovery_ms, inside
						   libibnetdisc (its SMPs) */
};

/* Report progress (fa_ib_opts.progress) if FA_IB_PROGRESS_MS passed. */
void fa_ib_tick(void *ib);
/* CLOCK_MONOTONIC in milliseconds, for timing the phases. */
uint64_t fa_ib_now_ms(void);

/*
 * A feed streams a phase's items through the engine (ib_feed.c).  take()
 * puts the phase's next item into `job` (zeroed) and submits its first
 * request(s): it returns 1 when it took an item, 0 when none is left, or
 * a negative FA_ERR_*.  When the job's requests have finished and its
 * observation is recorded, the phase calls fa_ib_feed_done(), which hands
 * the job to the next item.  A job must hold everything its requests
 * point to (they live in the job).
 */
struct fa_ib_feed {
	struct fa_ib		*ib;
	size_t			 jobsz;
	unsigned		 njobs, nfree;
	char			*jobs;
	void			**free;
	int			(*take)(struct fa_ib_feed *f, void *job);
	void			*state;		/* the phase's cursor; freed */
	unsigned long		 total;		/* items expected */
	unsigned long		 taken, finished;
	int			 err;		/* first failure; stops it */
	int			 filling, exhausted;
	void			(*on_end)(struct fa_ib_feed *f);
	int			 ended;
	struct fa_ib_feed	*next;
};

/*
 * Start a feed of `total` items (for the progress line) with jobs of
 * `jobsz` bytes, owning `state` (freed at the end, may be NULL), and fill
 * its jobs.  0, or FA_ERR_NOMEM (state is then not owned).
 */
int fa_ib_feed_start(struct fa_ib *ib, size_t jobsz, unsigned long total,
    int (*take)(struct fa_ib_feed *, void *), void *state,
    struct fa_ib_feed **out);
/* A job has finished; err (0 or FA_ERR_*) is kept as the feed's. */
void fa_ib_feed_done(struct fa_ib_feed *f, void *job, int err);
/*
 * Call on_end(f) once every item of f has been taken and finished: now,
 * if that is already so, else from the fa_ib_feed_done() of its last
 * job.  It may start other feeds; an error it sets in f->err is kept.
 */
void fa_ib_feed_on_end(struct fa_ib_feed *f,
    void (*on_end)(struct fa_ib_feed *f));

/*
 * Start reading through the SA, with OpenSM's default SA_Key, the P_Key
 * table of every CA port whose table SMP could not read (ib_sa.c); 0 or
 * FA_ERR_NOMEM.
 */
int fa_ib_sa_trusted_tables(struct fa_ib *ib);
/* Free every feed after the engine ran; the first error, or 0. */
int fa_ib_feeds_end(struct fa_ib *ib);

/* How one SMP Get ended. */
enum fa_smp_outcome {
	FA_SMP_ANSWERED = 0,	/* GetResp with status 0 */
	FA_SMP_STATUS,		/* GetResp with non-zero status */
	FA_SMP_NO_RESPONSE,	/* no response after retries */
	FA_SMP_ERROR,		/* not sent: the local stack or engine failed */
	FA_SMP_CUT,		/* not sent or not awaited: --max-time */
};

/* A SubnGet(attr, mod) request to pid with M_Key 0, LID-routed or DR. */
void fa_ib_smp_req(struct fa_mad_req *r, const ib_portid_t *pid,
    unsigned attr, unsigned mod);

/*
 * Send SubnGet(attr, mod) to `pid` (LID-routed if pid->lid > 0, else
 * directed route) with M_Key 0, once only if `once`; wait for it.
 * On FA_SMP_ANSWERED `data`
 * holds the 64-byte SMP data.  *status gets the MAD status when known.
 */
enum fa_smp_outcome fa_ib_smp_get(struct fa_ib *ib, ib_portid_t *pid,
    unsigned attr, unsigned mod, uint8_t data[IB_SMP_DATA_SIZE],
    unsigned *status, int once);

/*
 * Record the observation of a finished engine request: its outcome gives
 * the state (answered: complete; status: rejected; silence: no_response;
 * not sent: error).  `bad` (may be NULL) names a malformed answer, which
 * makes it an error; `cut` an answer that may hold more records than were
 * read (longer than read, or cut by the transport).  The data is b's
 * (fa_obs_built() here).  FA_IB_ADD_REQ_OBS() first puts the request's
 * mad_status and sends as kind KIND's fields, as every such kind has.
 */
int fa_ib_add_req_obs(struct fa_ib *ib, const char *kind, const char *target,
    const char *request, const struct fa_mad_req *r, struct fa_obs_build *b,
    const char *bad, int cut);
#define FA_IB_ADD_REQ_OBS(ib, KIND, target, request, r, b, bad, cut)	\
	(fa_put_int((b), FA_F(KIND, mad_status), (long long)(r)->status), \
	fa_put_int((b), FA_F(KIND, sends), (long long)(r)->sends),	\
	fa_ib_add_req_obs((ib), FA_KIND_##KIND, (target), (request), (r), \
	(b), (bad), (cut)))
/* The state a finished request's outcome gives, as fa_ib_add_req_obs(). */
enum fa_obs_state fa_ib_req_state(const struct fa_mad_req *r);

/* The reason of a request --max-time cut short; new string or NULL. */
char *fa_ib_cut_reason(void);
/* The state of an observation whose SMP ended as oc (not answered). */
#define FA_IB_SMP_STATE(oc)						\
	((oc) == FA_SMP_STATUS ? FA_OBS_REJECTED :			\
	(oc) == FA_SMP_ERROR ? FA_OBS_ERROR :				\
	(oc) == FA_SMP_CUT ? FA_OBS_NOT_COLLECTED : FA_OBS_NO_RESPONSE)

/* A reason string for an unsuccessful outcome; new string or NULL. */
char *fa_ib_smp_reason(enum fa_smp_outcome oc, unsigned status);

/* "H-0x0002c90300a1b2c0/1" for a node type, node GUID and port. */
char *fa_ib_target(int node_type, uint64_t node_guid, int port);

/*
 * A discovered port's target (fa_ib_target) and sanitised NodeDescription,
 * both new strings, for a probe job.  0, or FA_ERR_NOMEM with both NULL.
 */
int fa_ib_port_names(const ibnd_node_t *n, int port, char **target,
    char **desc);

int fa_ib_port_attrs(struct fa_ib *ib);		/* ib_local.c */
int fa_ib_local(struct fa_ib *ib);		/* ib_local.c */
int fa_ib_discover(struct fa_ib *ib);		/* ib_discover.c */
int fa_ib_sminfo(struct fa_ib *ib);		/* ib_sminfo.c */
int fa_ib_pkeys_local(struct fa_ib *ib);	/* ib_pkeys.c */
int fa_ib_pkeys_remote(struct fa_ib *ib);	/* ib_pkeys_remote.c */
/* Once the audit is over: ib.smp.pkey_tables; frees what it holds. */
int fa_ib_pkeys_remote_end(struct fa_ib *ib);	/* ib_pkeys_remote.c */
int fa_ib_sa(struct fa_ib *ib);		/* ib_sa.c */
int fa_ib_gmp_keys(struct fa_ib *ib);	/* ib_gmpkeys.c */
int fa_ib_active_mkey(struct fa_ib *ib);	/* ib_active.c */
int fa_ib_active_gmp(struct fa_ib *ib);	/* ib_gmp_reach.c */

#endif
