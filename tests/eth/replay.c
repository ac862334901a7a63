/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * replay: send the frames of a capture file out of an interface, as the
 * other end of the Ethernet test bed (test code, never installed).
 *
 *   replay IFACE FILE
 */
#include <stdio.h>
#include <time.h>

#include <pcap/pcap.h>

int
main(int argc, char **argv)
{
	char eb[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *b;
	struct timespec gap = { 0, 20 * 1000 * 1000 };
	pcap_t *in, *out;
	int n = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: replay IFACE FILE\n");
		return 2;
	}
	if ((in = pcap_open_offline(argv[2], eb)) == NULL ||
	    (out = pcap_open_live(argv[1], 65535, 0, 100, eb)) == NULL) {
		fprintf(stderr, "replay: %s\n", eb);
		return 1;
	}
	while (pcap_next_ex(in, &h, &b) == 1) {
		if (pcap_inject(out, b, h->caplen) < 0) {
			fprintf(stderr, "replay: frame %d: %s\n", n + 1,
			    pcap_geterr(out));
			return 1;
		}
		n++;
		nanosleep(&gap, NULL);
	}
	pcap_close(in);
	pcap_close(out);
	printf("replay: %d frames sent on %s\n", n, argv[1]);
	return 0;
}
