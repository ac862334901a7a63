/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Subnet administration probes, all Get/GetTable, sent to the SA at the
 * master SM's LID on QP1 through the MAD engine:
 *
 *  - PKeyTableRecord for our own port, once with SM_Key 0 (untrusted) and
 *    once with SM_Key 1, OpenSM's well-known default (IBA vol. 1 15.2.1.1
 *    puts the SM_Key in the SA header; OpenSM answers trusted-only records
 *    when it equals its sa_key, rejects untrusted ones with 0x0200 and
 *    silently drops a wrong non-zero key: osm_sa_mad_ctrl.c,
 *    osm_sa_pkey_record.c).  The untrusted query is the control: if the SA
 *    answered it, a silent drop of the keyed one means "wrong key".  If
 *    the keyed one was answered, the P_Key tables that SMP could not read
 *    are read through the SA with that key, once SMP has tried them all.
 *    Silence is one of the keyed query's expected answers, yet it is
 *    retried like any request (silence_ok, ib_mad.h): one lost send taken
 *    for a refused key would pass an SA whose key is 1.  An SA with
 *    another key logs every copy it drops (OpenSM ERR 1A04).
 *  - SMInfoRecord GetTable: every SM the SA knows.
 *  - PathRecord GetTable with only our LID as SLID: the SA returns one
 *    path to every port that shares a partition with ours (OpenSM
 *    osm_sa_path_record.c), so the records with a CA port's LID as DLID
 *    are exactly what a query with that SLID and DLID would return
 *    (bench/rmpp/README, Q3).  One table, reassembled by the kernel's
 *    RMPP, instead of one query per port.  When the answer may have been
 *    cut (ib_sa_table.c), one GetTable per CA port with SLID and DLID.
 *
 * The first queries go out together; the per-port ones stream as feeds
 * (ib_feed.c) alongside the other phases.  All go to one SA, which the
 * engine serves like any destination: at most FA_IB_PER_DEST at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include <infiniband/umad_sa.h>

#include "ib_groups.h"
#include "ib_internal.h"
#include "ib_sa_decode.h"
#include "ib_sa_table.h"
#include "../core/obs_kinds.h"

#define QP1_QKEY		0x80010000u
/* SA component mask bits (IBA vol. 1 15.2.5: one bit per record field). */
#define PKTR_COMP_LID		(1ull << 0)
#define PKTR_COMP_BLOCK		(1ull << 1)
#define PR_COMP_DLID		(1ull << 4)
#define PR_COMP_SLID		(1ull << 5)

static void
sa_req(struct fa_ib *ib, struct fa_mad_req *r, int method, unsigned attr,
    uint64_t key)
{
	memset(r, 0, sizeof(*r));
	ib_portid_set(&r->dest, ib->sm_lid, 1, QP1_QKEY);
	r->mgmt_class = IB_SA_CLASS;
	r->method = method;
	r->attr = attr;
	r->key = key;
}

/*
 * Records in an SA answer we can read: a Get answered with status 0 holds
 * one; a GetTable holds (length - header) / AttributeOffset, the offset
 * being in 8-byte words (IBA vol. 1 15.2.1.1), counted within the first
 * MAD only.  *cut is set when the answer was longer than that.
 */
static unsigned
sa_records(const struct fa_mad_req *r, unsigned *recsz, int *cut)
{
	unsigned off = mad_get_field((void *)r->resp, 0, IB_SA_ATTROFFS_F) * 8;
	unsigned len = r->resp_len < IB_MAD_SIZE ? r->resp_len : IB_MAD_SIZE;

	*recsz = off;
	*cut = r->resp_len > IB_MAD_SIZE;
	if (r->outcome != FA_MAD_ANSWERED)
		return 0;
	if (r->method == IB_MAD_METHOD_GET)
		return 1;
	if (off == 0 || len <= IB_SA_DATA_OFFS)
		return 0;
	return (len - IB_SA_DATA_OFFS) / off;
}

/* SubnAdmGet(PKeyTableRecord) of `lid`, block 0, with SM_Key `key`. */
static void
pkey_record_req(struct fa_ib *ib, struct fa_mad_req *r, uint16_t lid,
    uint64_t key)
{
	sa_req(ib, r, IB_MAD_METHOD_GET, UMAD_SA_ATTR_PKEY_TABLE_REC, key);
	/* LID (bytes 0-1) and block 0 (bytes 2-3): one record for a CA. */
	r->comp_mask = PKTR_COMP_LID | PKTR_COMP_BLOCK;
	mad_set_field(r->data, 0, IB_SA_NR_LID_F, lid);
	r->datalen = IB_SA_DATA_SIZE;
}

/*
 * Record the answer to pkey_record_req().  For another port (`target`
 * not NULL) the record's P_Keys are kept, as a table observation of role
 * "remote" read through the SA.  *answered (if not NULL) says whether
 * records came back.
 */
static int
pkey_record_of(struct fa_ib *ib, const struct fa_mad_req *r, uint16_t lid,
    const char *key_name, const char *target, const char *desc,
    uint64_t guid, int *answered)
{
	const char *bad = NULL;
	unsigned recsz, n;
	struct fa_obs_build b;
	json_t *d, *pk = NULL;
	char *req, *why = NULL;
	int rc, cut;

	n = sa_records(r, &recsz, &cut);
	if (answered != NULL)
		*answered = r->outcome == FA_MAD_ANSWERED && n > 0;
	req = fa_strfmt("SubnAdmGet(PKeyTableRecord) LID %u to the SA at LID "
	    "%u, SM_Key %s", lid, ib->sm_lid, key_name);
	if (req == NULL)
		return FA_ERR_NOMEM;
	fa_obs_build(&b);
	fa_put_str(&b, FA_F(IB_SA_PKEY_RECORD, sm_key_sent), key_name);
	fa_put_bool(&b, FA_F(IB_SA_PKEY_RECORD, trusted_query), r->key != 0);
	fa_put_int(&b, FA_F(IB_SA_PKEY_RECORD, records), n);
	if (target != NULL) {
		fa_put_str(&b, FA_F(IB_SA_PKEY_RECORD, role), "remote");
		fa_put_str(&b, FA_F(IB_SA_PKEY_RECORD, node_desc), desc);
		fa_put_u64(&b, FA_F(IB_SA_PKEY_RECORD, port_guid), guid);
		fa_put_int(&b, FA_F(IB_SA_PKEY_RECORD, blocks_total), 1);
		fa_put_int(&b, FA_F(IB_SA_PKEY_RECORD, blocks_read),
		    r->outcome == FA_MAD_ANSWERED && n > 0);
		if ((pk = json_array()) != NULL &&
		    r->outcome == FA_MAD_ANSWERED && n > 0 &&
		    fa_ib_sa_pkey_record(fa_mad_data(r), r->resp_len >
		    IB_SA_DATA_OFFS ? r->resp_len - IB_SA_DATA_OFFS : 0, recsz,
		    lid, pk, &bad) != 0)
			fa_obs_build_fail(&b);
		fa_put_arr(&b, FA_F(IB_SA_PKEY_RECORD, pkeys), pk);
	}
	if (target == NULL && r->silence_ok &&
	    r->outcome == FA_MAD_NO_RESPONSE) {
		/*
		 * The SM_Key 1 probe: silence to every send is one of its
		 * expected answers (OpenSM drops a request whose non-zero
		 * SM_Key is not its sa_key), recorded as what it is.
		 */
		fa_put_int(&b, FA_F(IB_SA_PKEY_RECORD, mad_status), r->status);
		fa_put_int(&b, FA_F(IB_SA_PKEY_RECORD, sends), r->sends);
		rc = FA_ERR_NOMEM;
		if ((d = fa_obs_built(&b)) != NULL &&
		    (why = fa_strfmt("no answer to any of its %u sends, as "
		    "expected of a key the SA refuses: OpenSM drops a request "
		    "whose non-zero SM_Key is not its sa_key", r->sends)) !=
		    NULL)
			rc = fa_snapshot_add(ib->snap, FA_FAM_IB, NULL,
			    FA_KIND_IB_SA_PKEY_RECORD, "sa/trusted-default-key",
			    req, FA_OBS_NO_RESPONSE, why, d, NULL);
		else
			json_decref(d);
		free(why);
		free(req);
		return rc;
	}
	rc = FA_IB_ADD_REQ_OBS(ib, IB_SA_PKEY_RECORD, target != NULL ?
	    target : r->key != 0 ? "sa/trusted-default-key" : "sa/untrusted",
	    req, r, &b, bad, cut);
	free(req);
	return rc;
}

static int
sminfo_records(struct fa_ib *ib, const struct fa_mad_req *r)
{
	struct fa_sa_table t = { 0 };
	const uint8_t *msg = r->resp;
	const char *bad = NULL;
	struct fa_obs_build b;
	json_t *arr;
	char *req;
	int rc;

	/* The whole table, as the kernel's RMPP reassembled it. */
	if (r->outcome == FA_MAD_ANSWERED) {
		if (r->resp_len > IB_MAD_SIZE && (msg = r->whole) == NULL)
			return FA_ERR_NOMEM;
		if (fa_sa_table_parse(msg, r->resp_len, 28, &t, &bad) != 0)
			t.n = 0;
	}
	if ((arr = json_array()) == NULL)
		return FA_ERR_NOMEM;
	if (fa_ib_sa_sminfo_json(&t, arr) != 0) {
		json_decref(arr);
		return FA_ERR_NOMEM;
	}
	req = fa_strfmt("SubnAdmGetTable(SMInfoRecord) to the SA at LID %u, "
	    "SM_Key 0", ib->sm_lid);
	if (req == NULL) {
		json_decref(arr);
		return FA_ERR_NOMEM;
	}
	fa_obs_build(&b);
	fa_put_arr(&b, FA_F(IB_SA_SMINFO, sms), arr);
	rc = FA_IB_ADD_REQ_OBS(ib, IB_SA_SMINFO, "sa", req, r, &b, bad,
	    r->outcome == FA_MAD_ANSWERED && bad == NULL && !t.complete);
	free(req);
	return rc;
}

/* The SA phase: where its feeds are. */
struct sa_state {
	int		 keys_pending;	/* of the two first key queries */
	int		 trusted, untrusted;	/* their answers */
	unsigned long	 nports;	/* the feeds' items */
};

/* The next CA port (other than ours, with a LID) of a per-port feed. */
struct pr_cursor {
	ibnd_node_t	*n;
	int		 p;
};

static int
next_port(const struct fa_ib *ib, struct pr_cursor *c)
{
	ibnd_port_t *pt;

	for (; c->n != NULL; c->n = c->n->next, c->p = 0) {
		if (c->n->type != IB_NODE_CA || c->n->ports == NULL)
			continue;
		while (++c->p <= c->n->numports) {
			pt = c->n->ports[c->p];
			if (pt != NULL && pt->base_lid != 0 &&
			    pt->base_lid != ib->lid)
				return 1;
		}
	}
	return 0;
}

/* A query about one port; PathRecord or (trusted) PKeyTableRecord. */
struct port_job {
	struct fa_mad_req	 r;
	struct fa_ib_feed	*feed;
	ibnd_node_t		*n;
	int			 p;
};

/*
 * Record the PathRecord observation of CA port (n, p), whose paths are
 * the `ne` entries at `e`, all to its LID, read by `req` answered as `r`.
 */
static int
pr_port_obs(struct fa_ib *ib, ibnd_node_t *n, int p, const char *req,
    const struct fa_mad_req *r, const struct fa_ib_pr_entry *e, unsigned ne,
    const char *bad, int cut)
{
	ibnd_port_t *pt = n->ports[p];
	char *target = NULL, *desc = NULL, hex[8];
	struct fa_obs_build b;
	json_t *pk;
	unsigned i;
	int rc;

	if (fa_ib_port_names(n, p, &target, &desc) != 0)
		return FA_ERR_NOMEM;
	fa_obs_build(&b);
	fa_put_int(&b, FA_F(IB_PATH_RECORD, lid), pt->base_lid);
	fa_put_str(&b, FA_F(IB_PATH_RECORD, node_desc), desc);
	fa_put_int(&b, FA_F(IB_PATH_RECORD, records), (int)ne);
	fa_put_u64(&b, FA_F(IB_PATH_RECORD, port_guid), pt->guid);
	if ((pk = json_array()) != NULL)
		for (i = 0; i < ne; i++) {
			snprintf(hex, sizeof(hex), "0x%04x", e[i].pkey);
			if (json_array_append_new(pk, json_string(hex)) != 0) {
				fa_obs_build_fail(&b);
				break;
			}
		}
	fa_put_arr(&b, FA_F(IB_PATH_RECORD, pkeys), pk);
	rc = FA_IB_ADD_REQ_OBS(ib, IB_PATH_RECORD, target, req, r, &b, bad,
	    cut);
	free(target);
	free(desc);
	return rc;
}

static void
pr_done(struct fa_mad_req *r, void *arg)
{
	struct port_job *j = arg;
	struct fa_ib *ib = j->feed->ib;
	ibnd_port_t *pt = j->n->ports[j->p];
	struct fa_sa_table t = { 0 };
	struct fa_ib_pr_entry *e = NULL;
	const uint8_t *msg = r->resp;
	unsigned ne = 0;
	const char *bad = NULL;
	char *req = NULL;
	int rc = FA_ERR_NOMEM;

	if (r->outcome == FA_MAD_ANSWERED) {
		/* Several paths (one per shared partition) may need RMPP. */
		if (r->resp_len > IB_MAD_SIZE && (msg = r->whole) == NULL)
			goto out;
		if (fa_sa_table_parse(msg, r->resp_len, IB_SA_PR_RECSZ, &t,
		    &bad) != 0)
			t.n = 0;
	}
	if (t.n > 0 && (e = calloc(t.n, sizeof(*e))) == NULL)
		goto out;
	if (t.n > 0)
		ne = fa_ib_pr_port_entries(&t, (uint16_t)pt->base_lid, e, &bad);
	req = fa_strfmt("SubnAdmGetTable(PathRecord) SLID %u DLID %u to the SA "
	    "at LID %u, SM_Key 0", ib->lid, pt->base_lid, ib->sm_lid);
	if (req != NULL)
		rc = pr_port_obs(ib, j->n, j->p, req, r, e, ne, bad,
		    r->outcome == FA_MAD_ANSWERED && bad == NULL &&
		    !t.complete);
out:
	free(req);
	free(e);
	free(r->whole);
	r->whole = NULL;
	fa_ib_feed_done(j->feed, j, rc);
}

static int
pr_take(struct fa_ib_feed *f, void *job)
{
	struct port_job *j = job;
	struct pr_cursor *c = f->state;
	struct fa_ib *ib = f->ib;
	uint16_t lid;

	if (!next_port(ib, c))
		return 0;
	j->feed = f;
	j->n = c->n;
	j->p = c->p;
	lid = (uint16_t)c->n->ports[c->p]->base_lid;
	sa_req(ib, &j->r, IB_MAD_METHOD_GET_TABLE, UMAD_SA_ATTR_PATH_REC, 0);
	j->r.comp_mask = PR_COMP_SLID | PR_COMP_DLID;
	mad_set_field(j->r.data, 0, IB_SA_PR_SLID_F, ib->lid);
	mad_set_field(j->r.data, 0, IB_SA_PR_DLID_F, lid);
	j->r.datalen = IB_SA_DATA_SIZE;
	j->r.keep_whole = 1;
	j->r.done = pr_done;
	j->r.arg = j;
	if (fa_mad_submit(ib->mad, &j->r) != 0)
		pr_done(&j->r, j);	/* recorded as not sent */
	return 1;
}

static void
pkey_done(struct fa_mad_req *r, void *arg)
{
	struct port_job *j = arg;
	ibnd_port_t *pt = j->n->ports[j->p];
	char *target = NULL, *desc = NULL;
	int rc;

	if ((rc = fa_ib_port_names(j->n, j->p, &target, &desc)) == 0)
		rc = pkey_record_of(j->feed->ib, r, (uint16_t)pt->base_lid,
		    "1 (OpenSM default)", target, desc, pt->guid, NULL);
	free(target);
	free(desc);
	fa_ib_feed_done(j->feed, j, rc);
}

/* The next CA port whose P_Key table SMP could not read. */
static int
next_unread(const struct fa_ib *ib, struct pr_cursor *c)
{
	unsigned lid;

	while (next_port(ib, c)) {
		lid = (unsigned)c->n->ports[c->p]->base_lid;
		if (ib->smp_table_read == NULL || lid >= FA_IB_UNICAST_LIDS ||
		    !ib->smp_table_read[lid])
			return 1;
	}
	return 0;
}

static int
unread_take(struct fa_ib_feed *f, void *job)
{
	struct port_job *j = job;
	struct pr_cursor *c = f->state;

	if (!next_unread(f->ib, c))
		return 0;
	j->feed = f;
	j->n = c->n;
	j->p = c->p;
	pkey_record_req(f->ib, &j->r, (uint16_t)c->n->ports[c->p]->base_lid,
	    1);
	j->r.done = pkey_done;
	j->r.arg = j;
	if (fa_mad_submit(f->ib->mad, &j->r) != 0)
		pkey_done(&j->r, j);
	return 1;
}

int
fa_ib_sa_trusted_tables(struct fa_ib *ib)
{
	struct pr_cursor *c, count;
	unsigned long n = 0;
	int r;

	if (ib->fabric == NULL)
		return 0;
	count.n = ib->fabric->nodes;
	count.p = 0;
	while (next_unread(ib, &count))
		n++;
	if (n == 0)
		return 0;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return FA_ERR_NOMEM;
	c->n = ib->fabric->nodes;
	if ((r = fa_ib_feed_start(ib, sizeof(struct port_job), n, unread_take,
	    c, NULL)) != 0)
		free(c);
	return r;
}

/* A per-port feed over the CA ports; 0 or FA_ERR_NOMEM. */
static int
port_feed(struct fa_ib *ib, unsigned long n,
    int (*take)(struct fa_ib_feed *, void *))
{
	struct pr_cursor *c;
	int r;

	if (ib->fabric == NULL || n == 0)
		return 0;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return FA_ERR_NOMEM;
	c->n = ib->fabric->nodes;
	if ((r = fa_ib_feed_start(ib, sizeof(struct port_job), n, take, c,
	    NULL)) != 0)
		free(c);
	return r;
}

/* {records, pkeys} of the n paths at e; NULL when out of memory. */
static json_t *
pr_value(const struct fa_ib_pr_entry *e, size_t n)
{
	json_t *pk = json_array();
	size_t i;

	for (i = 0; pk != NULL && i < n; i++)
		if (json_array_append_new(pk, fa_json_stringf("0x%04x",
		    e[i].pkey)) != 0) {
			json_decref(pk);
			pk = NULL;
		}
	return pk == NULL ? NULL : json_pack("{s:I, s:o}", "records",
	    (json_int_t)n, "pkeys", pk);
}

/*
 * Every CA port's paths, from the table `e` (sorted by DLID): ob's ports
 * and destinations, the ports grouped by the records and P_Keys the
 * table holds for them (most ports share one answer: none, or the same
 * partitions).  0 or FA_ERR_NOMEM.
 */
static int
pr_from_table(struct fa_ib *ib, const struct fa_ib_pr_entry *e, size_t ne,
    struct fa_obs_build *ob)
{
	struct pr_cursor c = { ib->fabric->nodes, 0 };
	struct fa_ib_groups g;
	uint64_t order = 0;
	size_t lo, hi, mid, k, i, len;
	char key[24 + 8 * 64];
	json_t *v, *dest = NULL;
	uint16_t lid;
	int rc = 0;

	fa_ib_groups_init(&g);
	while (rc == 0 && next_port(ib, &c)) {
		lid = (uint16_t)c.n->ports[c.p]->base_lid;
		for (lo = 0, hi = ne; lo < hi; ) {	/* the first >= lid */
			mid = lo + (hi - lo) / 2;
			if (e[mid].dlid < lid)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (k = lo; k < ne && e[k].dlid == lid; k++)
			;
		/* The key: the count, then the P_Keys (the first 64 of
		 * them; a port with more gets a key of its own). */
		len = (size_t)snprintf(key, sizeof(key), "%zu", k - lo);
		for (i = lo; i < k && i - lo < 64; i++)
			len += (size_t)snprintf(key + len, sizeof(key) - len,
			    ",%04x", e[i].pkey);
		if (k - lo > 64)
			snprintf(key + len, sizeof(key) - len, ";%u", lid);
		v = NULL;
		if (!fa_ib_groups_has(&g, key) && (v = pr_value(e + lo,
		    k - lo)) == NULL) {
			rc = FA_ERR_NOMEM;
			break;
		}
		rc = fa_ib_groups_add(&g, key, v, order++,
		    c.n->ports[c.p]->guid);
	}
	if (rc == 0 && (dest = fa_ib_groups_json(&g)) == NULL)
		rc = FA_ERR_NOMEM;
	if (rc == 0) {
		fa_put_int(ob, FA_F(IB_SA_PATH_TABLE, ports),
		    (long long)g.ports);
		fa_put_arr(ob, FA_F(IB_SA_PATH_TABLE, destinations), dest);
	}
	fa_ib_groups_free(&g);
	return rc;
}

/*
 * The answer to the PathRecord table query: recorded as ib.sa.path_table;
 * if complete, every CA port's paths are taken from it, else one query per
 * port follows.
 */
static int
pr_table_done(struct fa_ib *ib, struct sa_state *sa, struct fa_mad_req *r)
{
	struct fa_sa_table t = { 0 };
	struct fa_ib_pr_entry *e = NULL;
	const uint8_t *msg = r->resp;
	const char *bad = NULL;
	struct fa_obs_build ob;
	char *req;
	json_t *d;
	long ne = 0;
	int rc, use = 0;

	if (r->resp_len > IB_MAD_SIZE && (msg = r->whole) == NULL)
		return FA_ERR_NOMEM;
	if (r->outcome == FA_MAD_ANSWERED &&
	    fa_sa_table_parse(msg, r->resp_len, IB_SA_PR_RECSZ, &t, &bad) == 0 &&
	    t.complete) {
		if ((ne = fa_ib_pr_table_entries(&t, ib->lid, &e, &bad)) ==
		    FA_ERR_NOMEM)
			return FA_ERR_NOMEM;
		use = ne >= 0;
	}
	req = fa_strfmt("SubnAdmGetTable(PathRecord) SLID %u to the SA at LID "
	    "%u, SM_Key 0", ib->lid, ib->sm_lid);
	if (req == NULL) {
		free(e);
		return FA_ERR_NOMEM;
	}
	fa_obs_build(&ob);
	fa_put_int(&ob, FA_F(IB_SA_PATH_TABLE, bytes), (int)r->resp_len);
	fa_put_int(&ob, FA_F(IB_SA_PATH_TABLE, records), use ? (int)ne : 0);
	fa_put_bool(&ob, FA_F(IB_SA_PATH_TABLE, complete), use);
	fa_put_bool(&ob, FA_F(IB_SA_PATH_TABLE, per_port), !use);
	fa_put_str(&ob, FA_F(IB_SA_PATH_TABLE, why_per_port), use ? NULL :
	    t.why != NULL ? t.why : bad != NULL ?
	    "the table answer was malformed" : "the table was not answered");
	if (use && pr_from_table(ib, e, (size_t)ne, &ob) != 0)
		fa_obs_build_fail(&ob);	/* the add returns FA_ERR_NOMEM */
	if (r->outcome == FA_MAD_ANSWERED && bad == NULL && !t.complete) {
		/* Not fa_ib_add_req_obs(): its reason for a cut is not ours. */
		fa_put_int(&ob, FA_F(IB_SA_PATH_TABLE, mad_status), r->status);
		fa_put_int(&ob, FA_F(IB_SA_PATH_TABLE, sends), r->sends);
		rc = FA_ERR_NOMEM;
		if ((d = fa_obs_built(&ob)) != NULL)
			rc = fa_snapshot_add(ib->snap, FA_FAM_IB, NULL,
			    FA_KIND_IB_SA_PATH_TABLE, "sa", req,
			    FA_OBS_INCOMPLETE, t.why, d, NULL);
	} else
		rc = FA_IB_ADD_REQ_OBS(ib, IB_SA_PATH_TABLE, "sa", req, r,
		    &ob, bad, 0);
	free(req);
	if (rc == 0 && !use)
		rc = port_feed(ib, sa->nports, pr_take);
	free(e);
	return rc;
}

/*
 * The first queries: untrusted and trusted key, SMInfoRecords, and the
 * PathRecord table when there are ports to ask about.
 */
struct head_job {
	struct fa_mad_req	 r;
	struct fa_ib_feed	*feed;
	struct sa_state		*sa;
	int			 what;	/* 0 untrusted, 1 trusted, 2 SMs,
					   3 paths */
};

static void
head_done(struct fa_mad_req *r, void *arg)
{
	struct head_job *j = arg;
	struct fa_ib *ib = j->feed->ib;
	struct sa_state *sa = j->sa;
	int rc;

	if (j->what == 3) {
		rc = pr_table_done(ib, sa, r);
		free(r->whole);
		r->whole = NULL;
		fa_ib_feed_done(j->feed, j, rc);
		return;
	}
	if (j->what == 2) {
		rc = sminfo_records(ib, r);
		free(r->whole);
		r->whole = NULL;
	} else
		rc = pkey_record_of(ib, r, ib->lid, j->what ?
		    "1 (OpenSM default)" : "0", NULL, NULL, 0, j->what ?
		    &sa->trusted : &sa->untrusted);
	/*
	 * The SA accepted OpenSM's default SA_Key (and refused the untrusted
	 * query, so the key is what did it): through it, read the P_Key
	 * tables SMP could not, once SMP has tried them all, a Get with a
	 * well-known key that changes nothing.
	 */
	if (j->what != 2 && --sa->keys_pending == 0 && rc == 0 &&
	    sa->trusted && !sa->untrusted) {
		ib->sa_trusted_wanted = 1;
		if (ib->smp_pkeys_done)
			rc = fa_ib_sa_trusted_tables(ib);
	}
	fa_ib_feed_done(j->feed, j, rc);
}

static int
head_take(struct fa_ib_feed *f, void *job)
{
	struct sa_state *sa = f->state;
	struct head_job *j = job;
	struct fa_ib *ib = f->ib;

	if (f->taken >= (sa->nports > 0 ? 4 : 3))
		return 0;
	j->feed = f;
	j->sa = sa;
	j->what = (int)f->taken;
	if (j->what == 3) {
		sa_req(ib, &j->r, IB_MAD_METHOD_GET_TABLE,
		    UMAD_SA_ATTR_PATH_REC, 0);
		j->r.comp_mask = PR_COMP_SLID;
		mad_set_field(j->r.data, 0, IB_SA_PR_SLID_F, ib->lid);
		j->r.datalen = IB_SA_DATA_SIZE;
		j->r.keep_whole = 1;
	} else if (j->what == 2) {
		sa_req(ib, &j->r, IB_MAD_METHOD_GET_TABLE,
		    UMAD_SA_ATTR_SM_INFO_REC, 0);
		j->r.keep_whole = 1;
	} else {
		pkey_record_req(ib, &j->r, ib->lid, (uint64_t)j->what);
		/*
		 * The SM_Key 1 probe: an SA with another key drops it and
		 * logs each copy (OpenSM ERR 1A04), so each send is one line
		 * in the SM's log; it is retried all the same, since one
		 * lost send must not read as a refused key.
		 */
		j->r.silence_ok = j->what == 1;
	}
	j->r.done = head_done;
	j->r.arg = j;
	if (fa_mad_submit(ib->mad, &j->r) != 0)
		head_done(&j->r, j);
	return 1;
}

int
fa_ib_sa(struct fa_ib *ib)
{
	struct sa_state *sa;
	struct pr_cursor count;
	int r;

	if (ib->sm_lid == 0) {
		return fa_snapshot_add(ib->snap, FA_FAM_IB, NULL,
		    FA_KIND_IB_SA_PKEY_RECORD, "sa/untrusted", "none",
		    FA_OBS_NOT_COLLECTED, "no SM LID known: the SA cannot be "
		    "addressed", NULL, NULL);
	}
	if ((sa = calloc(1, sizeof(*sa))) == NULL)
		return FA_ERR_NOMEM;
	sa->keys_pending = 2;
	if (ib->fabric != NULL) {
		count.n = ib->fabric->nodes;
		count.p = 0;
		while (next_port(ib, &count))
			sa->nports++;
	}
	if ((r = fa_ib_feed_start(ib, sizeof(struct head_job),
	    sa->nports > 0 ? 4 : 3, head_take, sa, NULL)) != 0)
		free(sa);
	return r;
}
