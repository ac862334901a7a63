/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TLS handshakes with OpenSSL 3 (see eth_tls.h).  The client allows every
 * version and cipher (security level 0) so that it can tell what the
 * server accepts; nothing it learns is trusted, and no verification
 * result decides anything but the evidence recorded.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "eth_tls.h"

#define HANDSHAKE_MS	3000	/* a whole handshake, however slow the peer */

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * A connected non-blocking socket, or FA_ERR_IO (socket(2) or connect(2)
 * failed, or the connection did not complete in FA_TLS_CONNECT_MS).
 */
static int
dial(const struct sockaddr *sa, socklen_t salen)
{
	struct pollfd p;
	socklen_t sl = sizeof(int);
	int fd, e = 0;

	if ((fd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0)) < 0)
		return FA_ERR_IO;
	if (connect(fd, sa, salen) != 0) {
		p.fd = fd;
		p.events = POLLOUT;
		if (errno != EINPROGRESS || poll(&p, 1, FA_TLS_CONNECT_MS) !=
		    1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &sl) != 0 ||
		    e != 0) {
			close(fd);
			return FA_ERR_IO;
		}
	}
	return fd;
}

static json_t *
name_json(const X509_NAME *n)
{
	char buf[512], *s;
	json_t *j;

	if (X509_NAME_oneline(n, buf, sizeof(buf)) == NULL)
		return json_null();
	s = fa_str_sanitize(buf, strlen(buf));
	j = s != NULL ? json_string(s) : NULL;
	free(s);
	return j;
}

static json_t *
cert_json(X509 *c)
{
	const ASN1_TIME *na = X509_get0_notAfter(c);
	EVP_PKEY *k = X509_get0_pubkey(c);
	char when[64] = "?";
	BIO *b = BIO_new(BIO_s_mem());
	int n;

	if (b != NULL && ASN1_TIME_print(b, na) == 1 &&
	    (n = BIO_read(b, when, sizeof(when) - 1)) > 0)
		when[n] = '\0';
	BIO_free(b);
	int after = X509_cmp_current_time(na),
	    before = X509_cmp_current_time(X509_get0_notBefore(c));

	/* 0 from X509_cmp_current_time: a date that cannot be read. */
	return json_pack("{s:o, s:o, s:b, s:s, s:b, s:b, s:b, s:s, s:i}",
	    "subject", name_json(X509_get_subject_name(c)), "issuer",
	    name_json(X509_get_issuer_name(c)), "self_signed",
	    X509_check_issued(c, c) == X509_V_OK, "not_after", when,
	    "expired", after < 0, "not_yet_valid", before > 0,
	    "dates_unreadable", after == 0 || before == 0, "key_type",
	    k == NULL ? "none" : EVP_PKEY_get0_type_name(k) != NULL ?
	    EVP_PKEY_get0_type_name(k) : "unknown", "key_bits",
	    k != NULL ? EVP_PKEY_get_bits(k) : 0);
}

/* One handshake at exactly version v; 1 done (cert set if wanted). */
static int
handshake(const struct sockaddr *sa, socklen_t salen, int v, X509 **cert)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	SSL *s = NULL;
	long deadline;
	int fd = -1, ok = 0;

	if (ctx == NULL)
		return 0;
	SSL_CTX_set_security_level(ctx, 0);
	SSL_CTX_set_max_cert_list(ctx, 64 * 1024);
	/* Every suite but anonymous ones: a certificate must be shown. */
	if (SSL_CTX_set_min_proto_version(ctx, v) != 1 ||
	    SSL_CTX_set_max_proto_version(ctx, v) != 1 ||
	    (v < TLS1_3_VERSION &&
	    SSL_CTX_set_cipher_list(ctx, "ALL:!aNULL:@SECLEVEL=0") != 1) ||
	    (fd = dial(sa, salen)) < 0 || (s = SSL_new(ctx)) == NULL ||
	    SSL_set_fd(s, fd) != 1)
		goto out;
	/* Non-blocking, under one deadline for the whole handshake. */
	for (deadline = now_ms() + HANDSHAKE_MS;;) {
		int rc = SSL_connect(s), e = SSL_get_error(s, rc);
		struct pollfd p = { fd, 0, 0 };
		long left = deadline - now_ms();

		if (rc == 1) {
			ok = 1;
			break;
		}
		if ((e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) ||
		    left <= 0)
			break;
		p.events = e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT;
		if (poll(&p, 1, (int)left) != 1)
			break;
	}
	if (ok) {
		if (cert != NULL && *cert == NULL)
			*cert = SSL_get1_peer_certificate(s);
		(void)SSL_shutdown(s);
	}
out:
	SSL_free(s);
	SSL_CTX_free(ctx);
	if (fd >= 0)
		close(fd);
	ERR_clear_error();
	return ok;
}

json_t *
fa_eth_tls_probe(const struct sockaddr *sa, socklen_t salen, uint16_t port)
{
	static const struct { int v; const char *name; } vs[] = {
		{ TLS1_3_VERSION, "TLSv1.3" }, { TLS1_2_VERSION, "TLSv1.2" },
		{ TLS1_1_VERSION, "TLSv1.1" }, { TLS1_VERSION, "TLSv1" },
	};
	json_t *o, *versions = json_array();
	X509 *cert = NULL;
	size_t i;

	(void)port;
	if (versions == NULL)
		return NULL;
	/* Newest first: the certificate is the one a current client sees. */
	for (i = 0; i < sizeof(vs) / sizeof(vs[0]); i++)
		if (handshake(sa, salen, vs[i].v, &cert) &&
		    json_array_append_new(versions, json_string(vs[i].name))) {
			json_decref(versions);
			X509_free(cert);
			return NULL;
		}
	if (json_array_size(versions) == 0) {
		json_decref(versions);
		return json_pack("{s:s}", "error", "no TLS handshake completed "
		    "(not a TLS service, or none of TLS 1.0 to 1.3)");
	}
	o = json_pack("{s:o, s:o}", "versions", versions, "cert", cert != NULL ?
	    cert_json(cert) : json_null());
	X509_free(cert);
	return o;
}
