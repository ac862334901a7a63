/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Faults for the robustness scenarios (tests/ib/test_faults.sh): answers
 * made malformed on their way to the caller (mangle), a node whose
 * NodeInfo says it has N ports (numports), and a pause after the Nth MAD
 * sent so that a test can change the fabric mid-scan (pause_after).  None
 * of this models conforming hardware: it is what a broken or hostile
 * fabric may hand a scanner, which must neither crash nor call anything
 * safe because of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"

static unsigned long nsent;

/*
 * pause_after N: at the Nth umad_send of this process, create the file
 * $FA_AGENT_PAUSE (checked at load) and wait, sending nothing, until the
 * test removes it (at most 60 s, then go on and say so).
 */
void
ag_fault_send(void)
{
	const char *path = getenv("FA_AGENT_PAUSE");
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int fd, i;

	if (ag_conf.pause_after == 0 || ++nsent != ag_conf.pause_after ||
	    path == NULL)
		return;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		ag_die("pause: cannot create %s: %s", path, strerror(errno));
	(void)close(fd);
	ag_log("pause after=%lu file=%s", nsent, path);
	for (i = 0; i < 3000 && access(path, F_OK) == 0; i++)
		nanosleep(&ts, NULL);
	ag_log("resume after=%lu%s", nsent, i == 3000 ?
	    " why=\"not released within 60 s\"" : "");
}

static const struct ag_mangle *
mangle_for(uint8_t cls, uint16_t attr)
{
	const struct ag_mangle *g;
	size_t i;
	int sa = cls == AG_C_SA;

	if (!sa && cls != AG_C_SMI && cls != AG_C_SMI_DR)
		return NULL;
	for (i = 0; i < ag_conf.nmangles; i++) {
		g = &ag_conf.mangles[i];
		if (g->sa == sa && (g->attr == 0 || g->attr == attr))
			return g;
	}
	return NULL;
}

/* NodeInfo (IBA vol. 1 14.2.5.3): NodeType at data byte 2, NumPorts at
 * 3, NodeGUID at 12, PortGUID at 20. */
static void
patch_numports(uint8_t *mad, size_t len)
{
	const struct ag_numports *np;
	uint64_t nguid, pguid;
	uint8_t type;
	size_t i;

	if (len < AG_O_DATA + 28)
		return;
	type = mad[AG_O_DATA + 2];
	nguid = ag_be64(mad + AG_O_DATA + 12);
	pguid = ag_be64(mad + AG_O_DATA + 20);
	for (i = ag_conf.nnumports; i-- > 0;) {
		np = &ag_conf.numports[i];
		if (!(np->sel.kind == AG_SEL_ALL ||
		    (np->sel.kind == AG_SEL_SWITCHES && type == AG_NT_SWITCH) ||
		    (np->sel.kind == AG_SEL_CAS && type == AG_NT_CA) ||
		    (np->sel.kind == AG_SEL_GUID && (np->sel.guid == nguid ||
		    np->sel.guid == pguid))))
			continue;
		mad[AG_O_DATA + 3] = (uint8_t)np->n;
		ag_log("numports node=0x%016llx rule=numports(line=%d) "
		    "action=patch NumPorts=%u", (unsigned long long)nguid,
		    np->line, np->n);
		return;
	}
}

/*
 * An answer on its way to the caller: returns its (new) length.
 *   truncate  cut to 40 bytes: the MAD header and nothing after it;
 *   tid       TID low byte changed: it answers no request;
 *   attr      another attribute ID (NodeInfo, or PortInfo for NodeInfo);
 *   count     SA: AttributeOffset 0 (records of 0 bytes); SMP NodeInfo:
 *             NumPorts 255;
 *   length    SA: AttributeOffset 0xffff (records of 512 KiB) and RMPP
 *             PayloadLength 0xffffffff (SA header, IBA vol. 1 15.2.1.1:
 *             PayloadLength at 32, AttributeOffset at 44).
 */
int
ag_fault_recv(void *umad, int length)
{
	uint8_t *mad = umad_get_mad(umad);
	const struct ag_mangle *g;
	size_t len;
	uint16_t attr;

	if (mad == NULL || length < AG_O_DATA)
		return length;
	if (((struct ib_user_mad *)umad)->status != 0 ||
	    !(mad[AG_O_METHOD] & 0x80))
		return length;
	len = (size_t)length;
	attr = ag_be16(mad + AG_O_ATTR);
	if ((mad[AG_O_CLASS] == AG_C_SMI || mad[AG_O_CLASS] == AG_C_SMI_DR) &&
	    attr == IB_ATTR_NODE_INFO && ag_conf.nnumports > 0)
		patch_numports(mad, len);
	if ((g = mangle_for(mad[AG_O_CLASS], attr)) == NULL)
		return length;
	ag_log("mangle class=0x%02x attr=0x%04x len=%d rule=mangle(line=%d) "
	    "action=%s", mad[AG_O_CLASS], attr, length, g->line,
	    g->how == AG_MG_TRUNCATE ? "truncate" : g->how == AG_MG_TID ?
	    "tid" : g->how == AG_MG_ATTR ? "attr" : g->how == AG_MG_COUNT ?
	    "count" : "length");
	switch (g->how) {
	case AG_MG_TRUNCATE:
		return length > 40 ? 40 : length;
	case AG_MG_TID:
		mad[AG_O_TID + 7] ^= 0x5a;
		break;
	case AG_MG_ATTR:
		ag_put16(mad + AG_O_ATTR, attr == IB_ATTR_NODE_INFO ?
		    IB_ATTR_PORT_INFO : IB_ATTR_NODE_INFO);
		break;
	case AG_MG_COUNT:
		if (g->sa)
			ag_put16(mad + 44, 0);
		else if (attr == IB_ATTR_NODE_INFO)
			mad[AG_O_DATA + 3] = 0xff;
		break;
	case AG_MG_LENGTH:
		if (g->sa) {
			ag_put16(mad + 44, 0xffff);
			mad[32] = mad[33] = mad[34] = mad[35] = 0xff;
		}
		break;
	}
	return length;
}
