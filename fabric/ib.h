/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * InfiniBand acquisition: discovery through libibnetdisc, then SMP, SA and
 * keyed-class Gets through the MAD engine (ib_mad.c), recorded as
 * observations in a snapshot.  Read-only unless `active`: only ib_active.c
 * sends a Set, and the engine refuses Sets otherwise.  Errors in reaching
 * the fabric are recorded in the snapshot (family status, observation
 * states), not returned.
 */
#ifndef FA_FABRIC_IB_H
#define FA_FABRIC_IB_H

#include "../core/snapshot.h"

struct fa_ib_pcap;

/* What an IB scan is doing, for a progress line (fa_ib_opts.progress). */
struct fa_ib_progress {
	const char	*phase;		/* "discovery", "audit" */
	unsigned long	 nodes;		/* nodes discovered so far */
	unsigned long	 ports;		/* ports discovered so far */
	unsigned long	 done;		/* audit items finished ... */
	unsigned long	 total;		/* ... of (0: not known yet) */
	unsigned long	 sent;		/* MADs sent, discovery included */
	unsigned	 inflight;	/* MADs in flight now */
	unsigned long	 lost;		/* sends that timed out */
};

struct fa_ib_opts {
	const char	*ca;		/* CA name, NULL for the first */
	int		 port;		/* port number, 0 for the first active */
	unsigned	 timeout_ms;	/* per MAD */
	unsigned	 retries;	/* per MAD, after the first send; >= 1,
					   since libibnetdisc turns 0 into 3 */
	unsigned	 max_outstanding;	/* MADs in flight, in
					   discovery and after (1..256) */
	struct fa_ib_pcap *capture;	/* write the MADs into this capture
					   (mads.pcap), opened by the caller,
					   which finishes it (the collection
					   only syncs it); NULL: none */
	int		 reveal;	/* keep keys in mads.pcap */
	int		 active;	/* --active: the probes of ib_active.c */
	unsigned	 key_probes_off;	/* FA_IB_KEYPROBE_* classes
					   not probed (0: all of them) */
	/* Called at most every FA_IB_PROGRESS_MS while the scan runs, and
	 * once more at its end with phase NULL; may be NULL. */
	void		(*progress)(const struct fa_ib_progress *p, void *arg);
	void		*progress_arg;
};

/* The key probes of ib_gmpkeys.c, one bit each (--key-probes). */
#define FA_IB_KEYPROBE_CC	0x1u	/* Congestion Control, CC_Key */
#define FA_IB_KEYPROBE_VS	0x2u	/* vendor class 0x0A, VS_Key */
#define FA_IB_KEYPROBE_AM	0x4u	/* SHARP AM class 0x0B, AM_Key */
#define FA_IB_KEYPROBE_ALL	0x7u

#define FA_IB_DEF_TIMEOUT_MS	500
#define FA_IB_DEF_RETRIES	2
/*
 * MADs in flight.  On ibsim (2 CPUs, 10,044 HCAs) discovery and the
 * per-port Gets stop scaling at 16-32 in flight; the default takes the
 * lower end.  Whatever the window, one destination has at most
 * FA_IB_PER_DEST in flight (one until it has answered): VL15 has no flow
 * control, and an SMA may buffer a single SMP (performance.md 2.1).
 */
#define FA_IB_DEF_MAX_OUTSTANDING	16
#define FA_IB_MAX_OUTSTANDING	256	/* the MAD QP's receive ring: 512 */
#define FA_IB_PER_DEST		2
/*
 * The SA is a server, not an SMA: its queries travel as GMPs on a data VL
 * with flow control and queue in the SM's dispatcher, and a job launch
 * sends it thousands at once.  Up to 8 of ours at a time (still one until
 * it has answered) keep a per-port query phase from being a round trip
 * per port; the one GetTable per attribute makes most of them needless.
 */
#define FA_IB_SA_PER_DEST	8
#define FA_IB_PROGRESS_MS	200

/*
 * Whether an InfiniBand port can be used, without sending anything.
 * Returns 0, or FA_ERR_UNAVAIL with *why (if not NULL) a new string saying
 * why (no umad device, port down, not an InfiniBand link layer).
 */
int fa_ib_available(const struct fa_ib_opts *o, char **why);

/*
 * Collect the IB family into snap: local port, topology, SMInfo of every
 * SM found, the local port's P_Key table.  Sets the family status.  Returns
 * 0, or a negative FA_ERR_* only for internal failures (out of memory).
 */
int fa_ib_collect(const struct fa_ib_opts *o, struct fa_snapshot *snap);

#endif
