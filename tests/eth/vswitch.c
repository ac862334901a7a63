/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vswitch: a small user-space VLAN switch for the Ethernet test bed (test
 * code, never installed).  This kernel has no 802.1Q module and no bridge
 * VLAN filtering, so the test bed's switch is this program: raw packet
 * sockets (AF_PACKET, PACKET_AUXDATA) on veth ends in its own network
 * namespace, flooding by VLAN (no MAC learning).
 *
 *   vswitch IFACE:access:VID  IFACE:trunk:VID[,VID...]
 *           IFACE:leak:VID:FOREIGN  IFACE:hybrid:VID:FOREIGN ...
 *
 * access  untagged frames belong to VID; tagged ones are dropped.
 * trunk   tagged frames of the listed VIDs pass; untagged ones are dropped.
 * leak    an access port of VID that the "provider" also left in VLAN
 *         FOREIGN: it receives that VLAN's frames tagged (the
 *         misconfiguration ETH-FOREIGN-VLAN is about).
 * hybrid  an access port of VID that also admits frames tagged FOREIGN
 *         into that VLAN and leaves FOREIGN untagged on egress (IEEE
 *         802.1Q-2018 8.8.2 lets a port be in a VLAN's member set and its
 *         untagged set): tagged in, untagged out, a hop ETH-VLAN-HOP must
 *         see though the answers come back untagged.
 *
 * The kernel moves a received frame's outer tag to packet metadata
 * (tpacket_auxdata); the switch reads it there, and writes tags inline
 * (a veth carries them as they are).  Runs until killed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAXPORTS	16
#define MAXVIDS		16

enum mode { ACCESS, TRUNK, LEAK, HYBRID };

struct port {
	char		 name[IFNAMSIZ];
	enum mode	 mode;
	unsigned	 vid;		/* access, leak, hybrid */
	unsigned	 foreign;	/* leak, hybrid */
	unsigned	 vids[MAXVIDS];	/* trunk */
	size_t		 nvids;
	int		 fd;
};

/* A VLAN ID, 1-4094; 0 when s is not one. */
static unsigned
vid_of(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	return *s != '\0' && *end == '\0' && v >= 1 && v <= 4094 ?
	    (unsigned)v : 0;
}

static int
parse(const char *s, struct port *p)
{
	char buf[128], *f[4], *save = NULL, *v;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (v = strtok_r(buf, ":", &save); v != NULL && n < 4;
	    v = strtok_r(NULL, ":", &save))
		f[n++] = v;
	if (n < 3 || strlen(f[0]) >= IFNAMSIZ)
		return -1;
	snprintf(p->name, sizeof(p->name), "%s", f[0]);
	if (strcmp(f[1], "access") == 0 && n == 3) {
		p->mode = ACCESS;
		p->vid = vid_of(f[2]);
	} else if ((strcmp(f[1], "leak") == 0 || strcmp(f[1], "hybrid") == 0) &&
	    n == 4) {
		p->mode = strcmp(f[1], "leak") == 0 ? LEAK : HYBRID;
		p->vid = vid_of(f[2]);
		p->foreign = vid_of(f[3]);
	} else if (strcmp(f[1], "trunk") == 0 && n == 3) {
		p->mode = TRUNK;
		for (v = strtok_r(f[2], ",", &save); v != NULL &&
		    p->nvids < MAXVIDS; v = strtok_r(NULL, ",", &save))
			p->vids[p->nvids++] = vid_of(v);
	} else {
		return -1;
	}
	return p->mode == TRUNK ? (p->nvids > 0 ? 0 : -1) :
	    p->vid != 0 && (p->mode == ACCESS || p->foreign != 0) ? 0 : -1;
}

static int
open_port(struct port *p)
{
	struct sockaddr_ll sll;
	struct packet_mreq mr;
	int one = 1;

	if ((p->fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL))) < 0)
		return -1;
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = (int)if_nametoindex(p->name);
	memset(&mr, 0, sizeof(mr));
	mr.mr_ifindex = sll.sll_ifindex;
	mr.mr_type = PACKET_MR_PROMISC;
	if (sll.sll_ifindex == 0 ||
	    bind(p->fd, (struct sockaddr *)&sll, sizeof(sll)) != 0 ||
	    setsockopt(p->fd, SOL_PACKET, PACKET_AUXDATA, &one,
	    sizeof(one)) != 0 ||
	    setsockopt(p->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr,
	    sizeof(mr)) != 0)
		return -1;
	return 0;
}

static int
trunk_has(const struct port *p, unsigned vid)
{
	size_t i;

	for (i = 0; i < p->nvids; i++)
		if (p->vids[i] == vid)
			return 1;
	return 0;
}

/* Send the untagged frame f (n bytes) out of p, tagged with vid if tag. */
static void
emit(const struct port *p, const unsigned char *f, size_t n, int tag,
    unsigned vid)
{
	unsigned char out[9216 + 4];

	if (n < 14 || n > 9216)
		return;
	if (!tag) {
		if (write(p->fd, f, n) < 0)
			perror("vswitch: write");
		return;
	}
	memcpy(out, f, 12);
	out[12] = 0x81;
	out[13] = 0x00;
	out[14] = (unsigned char)(vid >> 8);
	out[15] = (unsigned char)vid;
	memcpy(out + 16, f + 12, n - 12);
	if (write(p->fd, out, n + 4) < 0)
		perror("vswitch: write");
}

int
main(int argc, char **argv)
{
	struct port ports[MAXPORTS];
	struct pollfd pfd[MAXPORTS];
	unsigned char buf[9216 + 4], cbuf[CMSG_SPACE(
	    sizeof(struct tpacket_auxdata))];
	struct sockaddr_ll from;
	struct iovec iov;
	struct msghdr mh;
	struct cmsghdr *c;
	size_t np = 0, i, k, n;
	ssize_t r;
	unsigned vid;
	int tagged;

	if (argc < 3 || argc - 1 > MAXPORTS) {
		fprintf(stderr, "usage: vswitch IFACE:MODE:ARGS...\n");
		return 2;
	}
	memset(ports, 0, sizeof(ports));
	for (i = 1; i < (size_t)argc; i++, np++)
		if (parse(argv[i], &ports[np]) != 0 ||
		    open_port(&ports[np]) != 0) {
			fprintf(stderr, "vswitch: %s: %s\n", argv[i],
			    strerror(errno));
			return 1;
		}
	for (i = 0; i < np; i++) {
		pfd[i].fd = ports[i].fd;
		pfd[i].events = POLLIN;
	}
	fprintf(stderr, "vswitch: %zu ports up\n", np);
	for (;;) {
		if (poll(pfd, np, -1) < 0 && errno != EINTR)
			return 1;
		for (i = 0; i < np; i++) {
			if (!(pfd[i].revents & POLLIN))
				continue;
			iov.iov_base = buf;
			iov.iov_len = sizeof(buf);
			memset(&mh, 0, sizeof(mh));
			mh.msg_name = &from;
			mh.msg_namelen = sizeof(from);
			mh.msg_iov = &iov;
			mh.msg_iovlen = 1;
			mh.msg_control = cbuf;
			mh.msg_controllen = sizeof(cbuf);
			if ((r = recvmsg(ports[i].fd, &mh, MSG_DONTWAIT)) < 14 ||
			    from.sll_pkttype == PACKET_OUTGOING)
				continue;
			n = (size_t)r;
			/* The outer tag, from metadata or still inline. */
			tagged = 0;
			vid = 0;
			for (c = CMSG_FIRSTHDR(&mh); c != NULL;
			    c = CMSG_NXTHDR(&mh, c)) {
				struct tpacket_auxdata a;

				if (c->cmsg_level != SOL_PACKET ||
				    c->cmsg_type != PACKET_AUXDATA)
					continue;
				memcpy(&a, CMSG_DATA(c), sizeof(a));
				if (a.tp_status & TP_STATUS_VLAN_VALID) {
					tagged = 1;
					vid = a.tp_vlan_tci & 0x0fff;
				}
			}
			if (!tagged && buf[12] == 0x81 && buf[13] == 0x00) {
				tagged = 1;
				vid = (unsigned)(buf[14] << 8 | buf[15]) &
				    0x0fff;
				memmove(buf + 12, buf + 16, n - 16);
				n -= 4;
			}
			/* Ingress: which VLAN, if any. */
			if (ports[i].mode == TRUNK) {
				if (!tagged || !trunk_has(&ports[i], vid))
					continue;
			} else if (ports[i].mode == HYBRID && tagged) {
				if (vid != ports[i].foreign)
					continue;
			} else {
				if (tagged)
					continue;
				vid = ports[i].vid;
			}
			/* Egress: flood the VLAN. */
			for (k = 0; k < np; k++) {
				if (k == i)
					continue;
				if (ports[k].mode != TRUNK &&
				    ports[k].vid == vid)
					emit(&ports[k], buf, n, 0, vid);
				else if (ports[k].mode == HYBRID &&
				    ports[k].foreign == vid)
					emit(&ports[k], buf, n, 0, vid);
				else if (ports[k].mode == LEAK &&
				    ports[k].foreign == vid)
					emit(&ports[k], buf, n, 1, vid);
				else if (ports[k].mode == TRUNK &&
				    trunk_has(&ports[k], vid))
					emit(&ports[k], buf, n, 1, vid);
			}
		}
	}
}
