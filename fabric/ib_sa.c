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
 *    answered it, a silent drop of the keyed one means "wrong key".
 *  - SMInfoRecord GetTable: every SM the SA knows.
 *  - PathRecord GetTable from our LID to every other CA port discovered:
 *    the SA returns paths only between ports that share a partition.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include <infiniband/umad_sa.h>

#include "ib_internal.h"

#define QP1_QKEY		0x80010000u
#define SA_REC_MAX		IB_SA_DATA_SIZE	/* one MAD's worth of records */
/* SA component mask bits (IBA vol. 1 15.2.5: one bit per record field). */
#define PKTR_COMP_LID		(1ull << 0)
#define PKTR_COMP_BLOCK		(1ull << 1)
#define PR_COMP_DLID		(1ull << 4)
#define PR_COMP_SLID		(1ull << 5)
/* PathRecord P_Key: bytes 50-51 (IBA vol. 1 15.2.5.16). */
#define PR_PKEY_OFFS		50

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

/*
 * PKeyTableRecord of `lid`, block 0, with SM_Key `key`.  For another
 * port (`target` not NULL) the record's P_Keys are kept, as a table
 * observation of role "remote" read through the SA.  *answered (if not
 * NULL) says whether records came back.
 */
static int
pkey_record_of(struct fa_ib *ib, uint16_t lid, uint64_t key,
    const char *key_name, const char *target, const char *desc,
    uint64_t guid, int *answered)
{
	struct fa_mad_req r;
	const uint8_t *rec;
	const char *bad = NULL;
	unsigned recsz, n, i;
	json_t *d, *pk = NULL;
	char *req, hex[8];
	int rc, cut;

	sa_req(ib, &r, IB_MAD_METHOD_GET, UMAD_SA_ATTR_PKEY_TABLE_REC, key);
	/* LID (bytes 0-1) and block 0 (bytes 2-3): one record for a CA. */
	r.comp_mask = PKTR_COMP_LID | PKTR_COMP_BLOCK;
	mad_set_field(r.data, 0, IB_SA_NR_LID_F, lid);
	r.datalen = IB_SA_DATA_SIZE;
	(void)fa_mad_call(ib->mad, &r);	/* failures end as SEND_ERROR */
	n = sa_records(&r, &recsz, &cut);
	if (answered != NULL)
		*answered = r.outcome == FA_MAD_ANSWERED && n > 0;
	req = fa_strfmt("SubnAdmGet(PKeyTableRecord) LID %u to the SA at LID "
	    "%u, SM_Key %s", lid, ib->sm_lid, key_name);
	d = json_pack("{s:s, s:b, s:i}", "sm_key_sent", key_name,
	    "trusted_query", key != 0, "records", n);
	if (req == NULL || d == NULL)
		goto nomem;
	if (target != NULL) {
		/* PKeyTableRecord: LID, block, port, 3 reserved, then the
		 * 32 P_Keys of the block (IBA vol. 1 15.2.5.11). */
		if ((pk = json_array()) == NULL ||
		    json_object_set_new(d, "role", json_string("remote")) != 0 ||
		    json_object_set_new(d, "node_desc", json_string(desc)) != 0 ||
		    fa_json_set_u64(d, "port_guid", guid) != 0 ||
		    json_object_set_new(d, "blocks_total", json_integer(1)) != 0 ||
		    json_object_set_new(d, "blocks_read",
		    json_integer(r.outcome == FA_MAD_ANSWERED && n > 0)) != 0)
			goto nomem;
		rec = fa_mad_data(&r);
		if (r.outcome == FA_MAD_ANSWERED && n > 0 && (recsz < 72 ||
		    (unsigned)(rec[0] << 8 | rec[1]) != lid || rec[2] != 0 ||
		    rec[3] != 0))
			bad = "a PKeyTableRecord shorter than 72 bytes, or of "
			    "another LID or block than asked";
		for (i = 0; bad == NULL && r.outcome == FA_MAD_ANSWERED &&
		    n > 0 && i < 32; i++) {
			uint16_t v = (uint16_t)(rec[8 + 2 * i] << 8 |
			    rec[9 + 2 * i]);

			if (v == 0)
				continue;
			snprintf(hex, sizeof(hex), "0x%04x", v);
			if (json_array_append_new(pk, json_string(hex)) != 0)
				goto nomem;
		}
		if (json_object_set_new(d, "pkeys", pk) != 0) {
			pk = NULL;
			goto nomem;
		}
		pk = NULL;
	}
	rc = fa_ib_add_req_obs(ib, "ib.sa.pkey_table_record", target != NULL ?
	    target : key != 0 ? "sa/trusted-default-key" : "sa/untrusted", req,
	    &r, d, bad, cut);
	free(req);
	return rc;
nomem:
	json_decref(pk);
	json_decref(d);
	free(req);
	return FA_ERR_NOMEM;
}

static int
pkey_record(struct fa_ib *ib, uint64_t key, const char *key_name,
    int *answered)
{
	return pkey_record_of(ib, ib->lid, key, key_name, NULL, NULL, 0,
	    answered);
}

static int
sminfo_records(struct fa_ib *ib)
{
	struct fa_mad_req r;
	const uint8_t *rec;
	const char *bad = NULL;
	unsigned recsz, n, i;
	json_t *d, *arr, *o;
	char *req;
	int rc, cut;

	sa_req(ib, &r, IB_MAD_METHOD_GET_TABLE, UMAD_SA_ATTR_SM_INFO_REC, 0);
	(void)fa_mad_call(ib->mad, &r);	/* failures end as SEND_ERROR */
	n = sa_records(&r, &recsz, &cut);
	if (n > 0 && recsz < 28) {
		bad = "SMInfoRecord shorter than 28 bytes";
		n = 0;
	}
	if ((arr = json_array()) == NULL)
		return FA_ERR_NOMEM;
	/* SMInfoRecord: LID (2), reserved (2), SMInfo (IBA vol. 1 15.2.5.5). */
	for (i = 0; i < n && (i + 1) * recsz <= SA_REC_MAX; i++) {
		rec = fa_mad_data(&r) + (size_t)i * recsz;
		if (rec[0] == 0 && rec[1] == 0)
			break;	/* padding after the last record */
		o = json_pack("{s:i, s:i, s:i}", "lid", rec[0] << 8 | rec[1],
		    "priority", mad_get_field((void *)(rec + 4), 0,
		    IB_SMINFO_PRIO_F), "state", mad_get_field((void *)(rec + 4),
		    0, IB_SMINFO_STATE_F));
		if (o == NULL || fa_json_set_u64(o, "guid", mad_get_field64(
		    (void *)(rec + 4), 0, IB_SMINFO_GUID_F)) != 0 ||
		    json_array_append_new(arr, o) != 0) {
			json_decref(o);
			json_decref(arr);
			return FA_ERR_NOMEM;
		}
	}
	req = fa_strfmt("SubnAdmGetTable(SMInfoRecord) to the SA at LID %u, "
	    "SM_Key 0", ib->sm_lid);
	d = json_pack("{s:o}", "sms", arr);
	if (req == NULL || d == NULL) {
		free(req);
		json_decref(d);
		return FA_ERR_NOMEM;
	}
	rc = fa_ib_add_req_obs(ib, "ib.sa.sminfo_records", "sa", req, &r, d, bad, cut);
	free(req);
	return rc;
}

/* One PathRecord query per CA port; results go to the snapshot as they end. */
struct pr_job {
	struct fa_mad_req	 r;
	struct fa_ib		*ib;
	char			*target;	/* also the record's DLID below */
	char			*desc;
	uint64_t		 guid;
	uint16_t		 lid;
	int			 err;
};

static void
pr_done(struct fa_mad_req *r, void *arg)
{
	struct pr_job *j = arg;
	unsigned recsz, n, i;
	json_t *d, *pk;
	char *req, hex[8];
	const uint8_t *rec;
	const char *bad = NULL;
	int cut;

	n = sa_records(r, &recsz, &cut);
	if (n > 0 && recsz < IB_SA_PR_RECSZ) {
		bad = "PathRecord shorter than 64 bytes";
		n = 0;
	}
	pk = json_array();
	d = json_pack("{s:i, s:s, s:i, s:o}", "lid", j->lid, "node_desc",
	    j->desc, "records", 0, "pkeys", pk);
	req = fa_strfmt("SubnAdmGetTable(PathRecord) SLID %u DLID %u to the SA "
	    "at LID %u, SM_Key 0", j->ib->lid, j->lid, j->ib->sm_lid);
	if (d == NULL || req == NULL || fa_json_set_u64(d, "port_guid",
	    j->guid) != 0)
		goto nomem;
	for (i = 0; i < n && (i + 1) * recsz <= SA_REC_MAX; i++) {
		rec = fa_mad_data(r) + (size_t)i * recsz;
		if (mad_get_field((void *)rec, 0, IB_SA_PR_DLID_F) == 0)
			break;	/* padding */
		if (mad_get_field((void *)rec, 0, IB_SA_PR_DLID_F) != j->lid) {
			bad = "a PathRecord for another DLID than asked";
			break;
		}
		snprintf(hex, sizeof(hex), "0x%04x", rec[PR_PKEY_OFFS] << 8 |
		    rec[PR_PKEY_OFFS + 1]);
		if (json_array_append_new(pk, json_string(hex)) != 0)
			goto nomem;
	}
	if (json_object_set_new(d, "records", json_integer(
	    (json_int_t)json_array_size(pk))) != 0)
		goto nomem;
	if (fa_ib_add_req_obs(j->ib, "ib.sa.path_record", j->target, req, r, d, bad,
	    cut) != 0)
		j->err = FA_ERR_NOMEM;
	free(req);
	return;
nomem:
	json_decref(d);
	free(req);
	j->err = FA_ERR_NOMEM;
}

int
fa_ib_sa(struct fa_ib *ib)
{
	struct pr_job *jobs = NULL;
	ibnd_node_t *n;
	size_t njobs = 0, cap = 0, i;
	int p, rc, trusted = 0, untrusted = 0;

	if (ib->sm_lid == 0) {
		return fa_snapshot_add(ib->snap, FA_FAM_IB, NULL,
		    "ib.sa.pkey_table_record", "sa/untrusted", "none",
		    FA_OBS_NOT_COLLECTED, "no SM LID known: the SA cannot be "
		    "addressed", NULL, NULL);
	}
	if ((rc = pkey_record(ib, 0, "0", &untrusted)) != 0 ||
	    (rc = pkey_record(ib, 1, "1 (OpenSM default)", &trusted)) != 0 ||
	    (rc = sminfo_records(ib)) != 0)
		return rc;
	if (ib->fabric == NULL)
		return 0;
	for (n = ib->fabric->nodes; n != NULL; n = n->next) {
		if (n->type != IB_NODE_CA || n->ports == NULL)
			continue;
		for (p = 1; p <= n->numports; p++) {
			ibnd_port_t *pt = n->ports[p];

			if (pt == NULL || pt->base_lid == 0 ||
			    pt->base_lid == ib->lid)
				continue;
			/* The engine holds pointers into jobs: grow before
			 * anything is submitted. */
			if (fa_grow(&jobs, &cap, njobs + 1,
			    sizeof(*jobs)) != 0) {
				rc = FA_ERR_NOMEM;
				goto out;
			}
			memset(&jobs[njobs], 0, sizeof(jobs[njobs]));
			jobs[njobs].ib = ib;
			jobs[njobs].lid = pt->base_lid;
			jobs[njobs].guid = pt->guid;
			if ((rc = fa_ib_port_names(n, p, &jobs[njobs].target,
			    &jobs[njobs].desc)) != 0)
				goto out;
			njobs++;
		}
	}
	for (i = 0; i < njobs; i++) {
		struct pr_job *j = &jobs[i];

		sa_req(ib, &j->r, IB_MAD_METHOD_GET_TABLE,
		    UMAD_SA_ATTR_PATH_REC, 0);
		j->r.comp_mask = PR_COMP_SLID | PR_COMP_DLID;
		mad_set_field(j->r.data, 0, IB_SA_PR_SLID_F, ib->lid);
		mad_set_field(j->r.data, 0, IB_SA_PR_DLID_F, j->lid);
		j->r.datalen = IB_SA_DATA_SIZE;
		j->r.done = pr_done;
		j->r.arg = j;
		if (fa_mad_submit(ib->mad, &j->r) != 0) {
			rc = FA_ERR_INTERNAL;
			goto out;
		}
	}
	rc = fa_mad_run(ib->mad);
	for (i = 0; rc == 0 && i < njobs; i++)
		if (jobs[i].err != 0)
			rc = jobs[i].err;
	/*
	 * The SA accepted OpenSM's default SA_Key (and refused the untrusted
	 * query, so the key is what did it): read every other port's P_Key
	 * table through it too, a Get with a well-known key that changes
	 * nothing, as issue evidence from the SA's side.
	 */
	for (i = 0; rc == 0 && trusted && !untrusted && i < njobs; i++)
		rc = pkey_record_of(ib, jobs[i].lid, 1, "1 (OpenSM default)",
		    jobs[i].target, jobs[i].desc, jobs[i].guid, NULL);
out:
	for (i = 0; i < njobs; i++) {
		free(jobs[i].target);
		free(jobs[i].desc);
	}
	free(jobs);
	return rc;
}
