/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A TLS look at a management endpoint (OpenSSL): which protocol versions
 * it completes a handshake with, one connection per version from TLS 1.0
 * to 1.3, and the certificate it presents.  Only handshakes: no request,
 * no credential, and the connection is closed after each.
 */
#ifndef FA_ETH_TLS_H
#define FA_ETH_TLS_H

#include <stdint.h>
#include <sys/socket.h>

#include <jansson.h>

/* The TCP connect of each handshake, as a reachability probe's. */
#define FA_TLS_CONNECT_MS	1000

/*
 * {"versions": ["TLSv1.2", ...], "cert": {"subject", "issuer",
 * "self_signed", "not_after", "expired", "key_type", "key_bits"}} or
 * {"error": why}; NULL on ENOMEM.
 */
json_t *fa_eth_tls_probe(const struct sockaddr *sa, socklen_t salen,
    uint16_t port);

#endif
