/* The discovery tap (ib_tap.c): capture libibnetdisc's MADs. */
#ifndef FA_FABRIC_IB_TAP_H
#define FA_FABRIC_IB_TAP_H

#include <stdint.h>

#include "ib_pcap.h"

/* Start copying every MAD the process sends or receives to pcap. */
void fa_ib_tap_open(struct fa_ib_pcap *pcap, uint16_t own_lid, int reveal);
/* Stop; returns the number of MADs captured since the open. */
unsigned long fa_ib_tap_close(void);

#endif
