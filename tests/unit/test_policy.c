/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the fabaudit.conf(5) parser and the classification helpers
 * (core/policy.c): every keyword, the lexical rules, and every error path
 * with its exact "NAME:LINE: message" text.
 */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "../../core/errors.h"
#include "../../core/model.h"
#include "../../core/policy.h"

#define NAME	"t.conf"
#define NOW	((time_t)1796205600)	/* 2026-12-02T10:00:00Z */

static struct fa_policy *
parse_ok_len(const char *text, size_t len)
{
	struct fa_policy *p = NULL;
	char *errs = NULL;
	int r;

	r = fa_policy_parse(NAME, text, len, NOW, &p, &errs);
	if (r != 0)
		print_error("unexpected errors:\n%s\n",
		    errs != NULL ? errs : "(none)");
	assert_int_equal(r, 0);
	assert_null(errs);
	assert_non_null(p);
	return p;
}

static struct fa_policy *
parse_ok(const char *text)
{
	return parse_ok_len(text, strlen(text));
}

/* Parse text that must fail with FA_ERR_INPUT; returns the error text. */
static char *
parse_bad_len(const char *text, size_t len, time_t now)
{
	struct fa_policy *p = (struct fa_policy *)1;
	char *errs = NULL;
	int r;

	r = fa_policy_parse(NAME, text, len, now, &p, &errs);
	assert_int_equal(r, FA_ERR_INPUT);
	assert_null(p);
	assert_non_null(errs);
	assert_true(strlen(errs) > 0);
	assert_true(errs[strlen(errs) - 1] != '\n');
	return errs;
}

/* The first line of the errors for text must be exactly want. */
static void
expect_first_now(const char *text, size_t len, time_t now, const char *want)
{
	char *errs = parse_bad_len(text, len, now);
	char *nl = strchr(errs, '\n');

	if (nl != NULL)
		*nl = '\0';
	assert_string_equal(errs, want);
	free(errs);
}

static void
expect_first(const char *text, const char *want)
{
	expect_first_now(text, strlen(text), NOW, want);
}

/* The whole error text (every line) for text must be exactly want. */
static void
expect_all(const char *text, const char *want)
{
	char *errs = parse_bad_len(text, strlen(text), NOW);

	assert_string_equal(errs, want);
	free(errs);
}

static void
test_valid_every_keyword(void **state)
{
	static const char text[] =
	    "# acme's policy\n"
	    "tenant_node    acme-gpu-* \"acme login ?\"\n"
	    "tenant_guid    0x0002c90300a1b2c3 0xA\n"
	    "tenant_pkey    0x8001 32770 0x7fff\n"
	    "provider_node  ufm-* storage-[0-9]*\n"
	    "provider_guid  0x0002c90300000001\n"
	    "sm_guid        0x0002c90300000002 0x0002c90300000003\n"
	    "dedicated_host yes\n"
	    "tenant_vlan    120 4094 1\n"
	    "tenant_subnet  10.20.0.0/16 fd00:20::/32 0.0.0.0/0\n"
	    "mgmt_target    10.0.0.0/24 tcp/22,443 udp/623\n"
	    "foreign_target 10.30.0.5 icmp tcp/22\n"
	    "foreign_target 2001:db8::7 udp/4791\n"
	    "severity       IB-MKEY-PROTECT-LOW low\n"
	    "severity       HOST-TENANCY critical\n"
	    "waive          IB-PKEY-ENFORCE-OFF S-0x* 2027-03-31 "
	    "\"provider fixes in Q1 per MSA 7.2\"\n"
	    "stale_catalogue not_tested\n";
	const uint8_t v4[4] = { 10, 20, 0, 0 };
	const uint8_t v6[16] = { 0xfd, 0x00, 0x00, 0x20 };
	const uint8_t m4[4] = { 10, 0, 0, 0 };
	const uint8_t f4[4] = { 10, 30, 0, 5 };
	const uint8_t f6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
	    0, 0, 0, 0, 0, 0, 0, 7 };
	struct fa_policy *p;

	(void)state;
	p = parse_ok(text);

	assert_string_equal(p->name, NAME);
	assert_int_equal(p->text_len, strlen(text));
	assert_memory_equal(p->text, text, sizeof(text));

	assert_int_equal(p->n_tenant_node, 2);
	assert_string_equal(p->tenant_node[0].value, "acme-gpu-*");
	assert_string_equal(p->tenant_node[1].value, "acme login ?");
	assert_int_equal(p->tenant_node[1].line, 2);

	assert_int_equal(p->n_tenant_guid, 2);
	assert_true(p->tenant_guid[0].value == 0x0002c90300a1b2c3ULL);
	assert_true(p->tenant_guid[1].value == 0xa);
	assert_int_equal(p->tenant_guid[0].line, 3);

	assert_int_equal(p->n_tenant_pkey, 3);
	assert_true(p->tenant_pkey[0].value == 0x8001);
	assert_true(p->tenant_pkey[1].value == 0x8002);
	assert_true(p->tenant_pkey[2].value == 0x7fff);
	assert_int_equal(p->tenant_pkey[2].line, 4);

	assert_int_equal(p->n_provider_node, 2);
	assert_string_equal(p->provider_node[1].value, "storage-[0-9]*");
	assert_int_equal(p->n_provider_guid, 1);
	assert_true(p->provider_guid[0].value == 0x0002c90300000001ULL);
	assert_int_equal(p->n_sm_guid, 2);
	assert_true(p->sm_guid[1].value == 0x0002c90300000003ULL);
	assert_int_equal(p->sm_guid[1].line, 7);

	assert_int_equal(p->dedicated_host, 1);
	assert_int_equal(p->stale_not_tested, 1);

	assert_int_equal(p->n_tenant_vlan, 3);
	assert_true(p->tenant_vlan[0].value == 120);
	assert_true(p->tenant_vlan[1].value == 4094);
	assert_true(p->tenant_vlan[2].value == 1);

	assert_int_equal(p->n_tenant_subnet, 3);
	assert_int_equal(p->tenant_subnet[0].af, AF_INET);
	assert_int_equal(p->tenant_subnet[0].prefix, 16);
	assert_memory_equal(p->tenant_subnet[0].addr, v4, 4);
	assert_int_equal(p->tenant_subnet[1].af, AF_INET6);
	assert_int_equal(p->tenant_subnet[1].prefix, 32);
	assert_memory_equal(p->tenant_subnet[1].addr, v6, 16);
	assert_int_equal(p->tenant_subnet[2].prefix, 0);

	assert_int_equal(p->n_mgmt_target, 1);
	assert_int_equal(p->mgmt_target[0].line, 11);
	assert_int_equal(p->mgmt_target[0].net.af, AF_INET);
	assert_int_equal(p->mgmt_target[0].net.prefix, 24);
	assert_memory_equal(p->mgmt_target[0].net.addr, m4, 4);
	assert_int_equal(p->mgmt_target[0].nprobes, 3);
	assert_int_equal(p->mgmt_target[0].probes[0].proto, FA_PROBE_TCP);
	assert_int_equal(p->mgmt_target[0].probes[0].port, 22);
	assert_int_equal(p->mgmt_target[0].probes[1].proto, FA_PROBE_TCP);
	assert_int_equal(p->mgmt_target[0].probes[1].port, 443);
	assert_int_equal(p->mgmt_target[0].probes[2].proto, FA_PROBE_UDP);
	assert_int_equal(p->mgmt_target[0].probes[2].port, 623);

	assert_int_equal(p->n_foreign_target, 2);
	assert_int_equal(p->foreign_target[0].net.prefix, 32);
	assert_memory_equal(p->foreign_target[0].net.addr, f4, 4);
	assert_int_equal(p->foreign_target[0].nprobes, 2);
	assert_int_equal(p->foreign_target[0].probes[0].proto, FA_PROBE_ICMP);
	assert_int_equal(p->foreign_target[0].probes[0].port, 0);
	assert_int_equal(p->foreign_target[0].probes[1].proto, FA_PROBE_TCP);
	assert_int_equal(p->foreign_target[0].probes[1].port, 22);
	assert_int_equal(p->foreign_target[1].net.af, AF_INET6);
	assert_int_equal(p->foreign_target[1].net.prefix, 128);
	assert_memory_equal(p->foreign_target[1].net.addr, f6, 16);
	assert_int_equal(p->foreign_target[1].probes[0].proto, FA_PROBE_UDP);
	assert_int_equal(p->foreign_target[1].probes[0].port, 4791);

	assert_int_equal(p->n_severity, 2);
	assert_string_equal(p->severity[0].check_id, "IB-MKEY-PROTECT-LOW");
	assert_int_equal(p->severity[0].severity, FA_SEV_LOW);
	assert_int_equal(p->severity[1].severity, FA_SEV_CRITICAL);
	assert_int_equal(p->severity[1].line, 15);

	assert_int_equal(p->n_waive, 1);
	assert_string_equal(p->waive[0].check_id, "IB-PKEY-ENFORCE-OFF");
	assert_string_equal(p->waive[0].target, "S-0x*");
	assert_string_equal(p->waive[0].expires, "2027-03-31");
	assert_string_equal(p->waive[0].reason,
	    "provider fixes in Q1 per MSA 7.2");
	assert_int_equal(p->waive[0].line, 16);

	fa_policy_free(p);
}

/* dhcp_server takes networks or lone addresses; fa_cidr_contains. */
static void
test_dhcp_server_and_cidr(void **state)
{
	static const uint8_t in[4] = { 10, 20, 255, 1 }, out4[4] = { 10, 21, 0,
	    1 }, one[4] = { 10, 20, 0, 1 }, oneb[4] = { 10, 20, 0, 2 };
	uint8_t v6[16];
	struct fa_policy *p;

	(void)state;
	p = parse_ok("dhcp_server 10.20.0.1 fd00::/8\n"
	    "tenant_subnet 10.20.0.0/16 10.99.128.0/17\n");
	assert_int_equal(p->n_dhcp_server, 2);
	assert_int_equal(p->dhcp_server[0].prefix, 32);
	assert_true(fa_cidr_contains(&p->tenant_subnet[0], AF_INET, in));
	assert_false(fa_cidr_contains(&p->tenant_subnet[0], AF_INET, out4));
	assert_true(fa_cidr_any(p->dhcp_server, p->n_dhcp_server, AF_INET,
	    one));
	assert_false(fa_cidr_any(p->dhcp_server, p->n_dhcp_server, AF_INET,
	    oneb));
	/* A prefix that is not a multiple of 8: 10.99.128.0/17. */
	assert_true(fa_cidr_contains(&p->tenant_subnet[1], AF_INET,
	    (const uint8_t *)"\x0a\x63\xff\x01"));
	assert_false(fa_cidr_contains(&p->tenant_subnet[1], AF_INET,
	    (const uint8_t *)"\x0a\x63\x7f\x01"));
	/* Families never match each other. */
	memset(v6, 0, sizeof(v6));
	v6[0] = 0xfd;
	assert_true(fa_cidr_contains(&p->dhcp_server[1], AF_INET6, v6));
	assert_false(fa_cidr_contains(&p->dhcp_server[1], AF_INET, v6));
	fa_policy_free(p);
	expect_first("dhcp_server 10.0.0.300\n", "t.conf:1: invalid IP "
	    "address in '10.0.0.300'");
	/* foreign_vlan: VLAN IDs like tenant_vlan. */
	p = parse_ok("foreign_vlan 30 4094\n");
	assert_int_equal(p->n_foreign_vlan, 2);
	assert_true(p->foreign_vlan[1].value == 4094);
	fa_policy_free(p);
	expect_first("foreign_vlan 4095\n", "t.conf:1: invalid VLAN ID "
	    "'4095' (expected 1-4094)");
}

static void
test_lexical(void **state)
{
	static const char text[] =
	    "\xef\xbb\xbf# leading BOM and a comment\r\n"
	    "\r\n"
	    "   \t  \n"
	    "\ttenant_node\t\"a \\\"quoted\\\" name\"   b#c  # trailing\r\n"
	    "tenant_node \"x # not a comment\" \"back\\\\slash\" un\\quoted\n"
	    "tenant_node pre\"fix mid\"post\n"
	    "dedicated_host no# comment right after\n"
	    "waive IB-SMKEY-DEFAULT \"S-0x* port 1\" 2026-12-31 \"r\"";
	struct fa_policy *p;

	(void)state;
	p = parse_ok(text);
	assert_int_equal(p->n_tenant_node, 6);
	assert_string_equal(p->tenant_node[0].value, "a \"quoted\" name");
	assert_string_equal(p->tenant_node[1].value, "b");
	assert_int_equal(p->tenant_node[1].line, 4);
	assert_string_equal(p->tenant_node[2].value, "x # not a comment");
	assert_string_equal(p->tenant_node[3].value, "back\\slash");
	assert_string_equal(p->tenant_node[4].value, "un\\quoted");
	assert_string_equal(p->tenant_node[5].value, "prefix midpost");
	assert_int_equal(p->dedicated_host, 0);
	assert_int_equal(p->n_waive, 1);
	assert_string_equal(p->waive[0].target, "S-0x* port 1");
	assert_int_equal(p->waive[0].line, 8);
	assert_int_equal(p->text_len, sizeof(text) - 1);
	assert_string_equal(p->text, text);
	fa_policy_free(p);
}

static void
test_empty_and_defaults(void **state)
{
	struct fa_policy *p;

	(void)state;
	p = parse_ok_len(NULL, 0);
	assert_int_equal(p->dedicated_host, -1);
	assert_int_equal(p->text_len, 0);
	assert_string_equal(p->text, "");
	assert_int_equal(p->n_tenant_node + p->n_tenant_guid +
	    p->n_severity + p->n_waive, 0);
	fa_policy_free(p);

	p = parse_ok("# nothing\n\n");
	assert_int_equal(p->dedicated_host, -1);
	fa_policy_free(p);

	p = fa_policy_new_empty();
	assert_non_null(p);
	assert_int_equal(p->dedicated_host, -1);
	assert_null(p->text);
	fa_policy_free(p);
	fa_policy_free(NULL);
}

static void
test_many_values(void **state)
{
	/* Enough entries to grow the arrays several times. */
	char text[8192];
	size_t o = 0;
	struct fa_policy *p;
	unsigned i;
	int n;

	(void)state;
	n = snprintf(text, sizeof(text), "tenant_vlan");
	o += (size_t)n;
	for (i = 1; i <= 300; i++) {
		n = snprintf(text + o, sizeof(text) - o, " %u", i);
		assert_true(n > 0 && (size_t)n < sizeof(text) - o);
		o += (size_t)n;
	}
	n = snprintf(text + o, sizeof(text) - o, "\nmgmt_target 10.0.0.1");
	o += (size_t)n;
	for (i = 1; i <= 100; i++) {
		n = snprintf(text + o, sizeof(text) - o, " tcp/%u,%u", i,
		    i + 1000);
		assert_true(n > 0 && (size_t)n < sizeof(text) - o);
		o += (size_t)n;
	}
	p = parse_ok(text);
	assert_int_equal(p->n_tenant_vlan, 300);
	for (i = 0; i < 300; i++)
		assert_true(p->tenant_vlan[i].value == i + 1);
	assert_int_equal(p->mgmt_target[0].nprobes, 200);
	assert_int_equal(p->mgmt_target[0].probes[199].port, 1100);
	fa_policy_free(p);
}

static void
test_err_unknown_keyword(void **state)
{
	(void)state;
	expect_first("tenant_node a\n\nfoo bar\n",
	    NAME ":3: unknown keyword 'foo'");
	expect_first("Tenant_node a\n", NAME ":1: unknown keyword 'Tenant_node'");
	/* Control bytes and long text are made safe in messages. */
	expect_first("x\x1b[2J\n", NAME ":1: unknown keyword 'x?[2J'");
	expect_first("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaa\n",
	    NAME ":1: unknown keyword "
	    "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'");
}

static void
test_err_guid(void **state)
{
	(void)state;
	expect_first("tenant_guid 0x12g4\n",
	    NAME ":1: invalid GUID '0x12g4' (expected 0x followed by 1-16 hex "
	    "digits)");
	expect_first("provider_guid 1234\n",
	    NAME ":1: invalid GUID '1234' (expected 0x followed by 1-16 hex "
	    "digits)");
	expect_first("sm_guid 0x\n",
	    NAME ":1: invalid GUID '0x' (expected 0x followed by 1-16 hex "
	    "digits)");
	expect_first("sm_guid 0x0x5\n",
	    NAME ":1: invalid GUID '0x0x5' (expected 0x followed by 1-16 hex "
	    "digits)");
	expect_first("tenant_guid 0x1 0x00000000000000001\n",
	    NAME ":1: invalid GUID '0x00000000000000001' (more than 16 hex "
	    "digits)");
	expect_first("tenant_guid 0x0\n",
	    NAME ":1: invalid GUID '0x0' (must not be zero)");
}

static void
test_err_pkey(void **state)
{
	(void)state;
	expect_first("tenant_pkey 0x0000\n",
	    NAME ":1: invalid P_Key '0x0000' (expected 0x0001-0xffff)");
	expect_first("tenant_pkey 0x8000\n",
	    NAME ":1: invalid P_Key '0x8000' (partition number, the low 15 "
	    "bits, must not be zero)");
	expect_first("tenant_pkey 0x10000\n",
	    NAME ":1: invalid P_Key '0x10000' (expected 0x0001-0xffff)");
	expect_first("tenant_pkey 0x8001 full\n",
	    NAME ":1: invalid P_Key 'full' (expected 0x0001-0xffff)");
	expect_first("tenant_pkey -1\n",
	    NAME ":1: invalid P_Key '-1' (expected 0x0001-0xffff)");
}

static void
test_err_vlan(void **state)
{
	(void)state;
	expect_first("tenant_vlan 0\n",
	    NAME ":1: invalid VLAN ID '0' (expected 1-4094)");
	expect_first("tenant_vlan 10 4095\n",
	    NAME ":1: invalid VLAN ID '4095' (expected 1-4094)");
	expect_first("tenant_vlan 0x10\n",
	    NAME ":1: invalid VLAN ID '0x10' (expected 1-4094)");
}

static void
test_err_cidr(void **state)
{
	(void)state;
	expect_first("tenant_subnet 10.0.0.0\n",
	    NAME ":1: missing prefix length in '10.0.0.0' (expected "
	    "ADDR/PREFIX)");
	expect_first("tenant_subnet 10.0.0.300/8\n",
	    NAME ":1: invalid IP address in '10.0.0.300/8'");
	expect_first("tenant_subnet /8\n",
	    NAME ":1: invalid IP address in '/8'");
	expect_first("tenant_subnet 10.0.0.0/33\n",
	    NAME ":1: invalid prefix length in '10.0.0.0/33' (expected 0-32)");
	expect_first("tenant_subnet fd00::/129\n",
	    NAME ":1: invalid prefix length in 'fd00::/129' (expected 0-128)");
	expect_first("tenant_subnet 10.0.0.0/\n",
	    NAME ":1: invalid prefix length in '10.0.0.0/' (expected 0-32)");
	expect_first("mgmt_target 10.0.0.0/0x8 icmp\n",
	    NAME ":1: invalid prefix length in '10.0.0.0/0x8' (expected 0-32)");
	expect_first("mgmt_target host.example icmp\n",
	    NAME ":1: invalid IP address in 'host.example'");
}

static void
test_err_host_bits(void **state)
{
	(void)state;
	expect_first("tenant_subnet 10.0.0.1/8\n",
	    NAME ":1: host bits set in 10.0.0.1/8");
	expect_first("tenant_subnet 10.20.128.0/17 10.20.128.0/16\n",
	    NAME ":1: host bits set in 10.20.128.0/16");
	expect_first("foreign_target fd00::1/64 icmp\n",
	    NAME ":1: host bits set in fd00::1/64");
	expect_first("tenant_subnet 0.0.0.1/0\n",
	    NAME ":1: host bits set in 0.0.0.1/0");
}

static void
test_err_probe(void **state)
{
	(void)state;
	expect_first("mgmt_target 10.0.0.1 ssh\n",
	    NAME ":1: invalid probe 'ssh' (expected icmp, tcp/PORT[,PORT...] "
	    "or udp/PORT[,PORT...])");
	expect_first("mgmt_target 10.0.0.1 TCP/22\n",
	    NAME ":1: invalid probe 'TCP/22' (expected icmp, tcp/PORT[,PORT...] "
	    "or udp/PORT[,PORT...])");
	expect_first("foreign_target 10.0.0.1 tcp/\n",
	    NAME ":1: invalid port '' in probe 'tcp/' (expected 1-65535)");
	expect_first("foreign_target 10.0.0.1 tcp/22,,23\n",
	    NAME ":1: invalid port '' in probe 'tcp/22,,23' (expected 1-65535)");
	expect_first("foreign_target 10.0.0.1 udp/http\n",
	    NAME ":1: invalid port 'http' in probe 'udp/http' (expected "
	    "1-65535)");
}

static void
test_err_port_range(void **state)
{
	(void)state;
	expect_first("mgmt_target 10.0.0.1 tcp/0\n",
	    NAME ":1: invalid port '0' in probe 'tcp/0' (expected 1-65535)");
	expect_first("mgmt_target 10.0.0.1 udp/22,65536\n",
	    NAME ":1: invalid port '65536' in probe 'udp/22,65536' (expected "
	    "1-65535)");
	expect_first("mgmt_target 10.0.0.1 tcp/123456789\n",
	    NAME ":1: invalid port '123456789' in probe 'tcp/123456789' (expected "
	    "1-65535)");
	/* The upper bound itself is fine. */
	fa_policy_free(parse_ok("mgmt_target 10.0.0.1 tcp/65535,1\n"));
}

static void
test_err_check_id(void **state)
{
	(void)state;
	expect_first("severity IB-NO-SUCH-CHECK high\n",
	    NAME ":1: unknown check ID 'IB-NO-SUCH-CHECK'");
	expect_first("severity ib-mkey-unset high\n",
	    NAME ":1: unknown check ID 'ib-mkey-unset'");
	expect_first("waive IB-MKEY-UNSET* S-0x1 2027-01-01 \"r\"\n",
	    NAME ":1: unknown check ID 'IB-MKEY-UNSET*'");
}

static void
test_err_severity(void **state)
{
	(void)state;
	expect_first("severity IB-MKEY-UNSET urgent\n",
	    NAME ":1: invalid severity 'urgent' (expected critical, high, "
	    "medium, low or info)");
	expect_first("severity IB-MKEY-UNSET High\n",
	    NAME ":1: invalid severity 'High' (expected critical, high, "
	    "medium, low or info)");
}

static void
test_err_date(void **state)
{
	(void)state;
	expect_first("waive IB-MKEY-UNSET S-0x1 2027-02-30 \"r\"\n",
	    NAME ":1: invalid date '2027-02-30' (expected a real YYYY-MM-DD "
	    "date)");
	expect_first("waive IB-MKEY-UNSET S-0x1 2027-02-29 \"r\"\n",
	    NAME ":1: invalid date '2027-02-29' (expected a real YYYY-MM-DD "
	    "date)");
	expect_first("waive IB-MKEY-UNSET S-0x1 2027-13-01 \"r\"\n",
	    NAME ":1: invalid date '2027-13-01' (expected a real YYYY-MM-DD "
	    "date)");
	expect_first("waive IB-MKEY-UNSET S-0x1 2027-1-01 \"r\"\n",
	    NAME ":1: invalid date '2027-1-01' (expected a real YYYY-MM-DD "
	    "date)");
	expect_first("waive IB-MKEY-UNSET S-0x1 31.03.2027 \"r\"\n",
	    NAME ":1: invalid date '31.03.2027' (expected a real YYYY-MM-DD "
	    "date)");
	/* Leap years: 2028 is one, 2100 is not, 2400 is. */
	fa_policy_free(parse_ok("waive IB-MKEY-UNSET S-0x1 2028-02-29 r\n"
	    "waive IB-MKEY-UNSET S-0x1 2400-02-29 r\n"));
	expect_first("waive IB-MKEY-UNSET S-0x1 2100-02-29 \"r\"\n",
	    NAME ":1: invalid date '2100-02-29' (expected a real YYYY-MM-DD "
	    "date)");
}

/* The names shown in the reports' scope: once each, printable. */
static void
test_names(void **state)
{
	struct fa_policy *p;

	(void)state;
	p = parse_ok("tenant_name \"ACME AI\"\nprovider_name \"GPU Cloud\"\n");
	assert_string_equal(p->tenant_name, "ACME AI");
	assert_string_equal(p->provider_name, "GPU Cloud");
	fa_policy_free(p);
	p = parse_ok("tenant_node x\n");
	assert_null(p->tenant_name);
	assert_null(p->provider_name);
	fa_policy_free(p);
	expect_first("tenant_name a\ntenant_name b\n",
	    NAME ":2: duplicate tenant_name (first set on line 1)");
	expect_first("provider_name \"\"\n",
	    NAME ":1: provider_name must be 1 to 256 bytes");
	expect_first("tenant_name \"a\tb\"\n",
	    NAME ":1: tenant_name contains a control character");
	expect_first("tenant_name a b\n",
	    NAME ":1: too many values for tenant_name (usage: tenant_name "
	    "\"NAME\")");
}

/* Parse text as of `now`; it must parse cleanly. */
static struct fa_policy *
parse_ok_at(const char *text, time_t now)
{
	struct fa_policy *p = NULL;
	char *errs = NULL;

	assert_int_equal(fa_policy_parse(NAME, text, strlen(text), now, &p,
	    &errs), 0);
	assert_null(errs);
	assert_non_null(p);
	return p;
}

/*
 * An expired waiver is not an error (a cron re-audit must not stop on the
 * day a waiver runs out): it is kept, flagged, and suppresses nothing.
 */
static void
test_expired_waiver(void **state)
{
	static const char text[] =
	    "waive IB-PKEY-ENFORCE-OFF S-0x* 2026-12-02 \"today\"\n"
	    "waive IB-PKEY-SHARED * 2026-12-01 \"yesterday\"\n";
	struct fa_policy *p;

	(void)state;
	/* Valid through its date, whatever the time of day (UTC). */
	p = parse_ok_at(text, (time_t)1796255999);
	assert_int_equal(p->n_waive, 2);
	assert_string_equal(p->waive[0].expires, "2026-12-02");
	assert_false(p->waive[0].expired);
	assert_true(p->waive[1].expired);
	assert_ptr_equal(fa_policy_waiver(p, "IB-PKEY-ENFORCE-OFF", "S-0x1",
	    0), &p->waive[0]);
	assert_null(fa_policy_waiver(p, "IB-PKEY-ENFORCE-OFF", "S-0x1", 1));
	assert_null(fa_policy_waiver(p, "IB-PKEY-SHARED", "x", 0));
	assert_ptr_equal(fa_policy_waiver(p, "IB-PKEY-SHARED", "x", 1),
	    &p->waive[1]);
	fa_policy_free(p);
	/* The next day, the first one has expired too. */
	p = parse_ok_at(text, (time_t)1796256000);
	assert_true(p->waive[0].expired);
	assert_null(fa_policy_waiver(p, "IB-PKEY-ENFORCE-OFF", "S-0x1", 0));
	fa_policy_free(p);
}

static void
test_err_waive_values(void **state)
{
	(void)state;
	expect_first("waive IB-MKEY-UNSET \"\" 2027-01-01 \"r\"\n",
	    NAME ":1: empty waiver target");
	expect_first("waive IB-MKEY-UNSET S-0x1 2027-01-01 \"\"\n",
	    NAME ":1: empty waiver reason");
	{
		char text[400];
		size_t i;

		memcpy(text, "waive IB-MKEY-UNSET ", 20);
		for (i = 0; i < 257; i++)
			text[20 + i] = 'x';
		memcpy(text + 277, " 2027-01-01 r\n", 15);
		expect_first(text, NAME ":1: waiver target too long (257 bytes, "
		    "at most 256)");
		text[20 + 256] = ' ';	/* 256 bytes is the maximum */
		fa_policy_free(parse_ok(text));
	}
	expect_first("waive IB-MKEY-UNSET S-0x1 2027-01-01 reason with spaces\n",
	    NAME ":1: too many values for waive (usage: waive CHECK-ID TARGET "
	    "YYYY-MM-DD \"REASON\")");
}

static void
test_err_missing_values(void **state)
{
	(void)state;
	expect_first("tenant_node\n",
	    NAME ":1: missing value for tenant_node (usage: tenant_node "
	    "GLOB...)");
	expect_first("tenant_guid   # none\n",
	    NAME ":1: missing value for tenant_guid (usage: tenant_guid "
	    "GUID...)");
	expect_first("dedicated_host\n",
	    NAME ":1: missing value for dedicated_host (usage: dedicated_host "
	    "yes|no)");
	expect_first("mgmt_target 10.0.0.1\n",
	    NAME ":1: too few values for mgmt_target (usage: mgmt_target "
	    "ADDR[/PREFIX] PROBE...)");
	expect_first("severity IB-MKEY-UNSET\n",
	    NAME ":1: too few values for severity (usage: severity CHECK-ID "
	    "LEVEL)");
	expect_first("waive IB-MKEY-UNSET S-0x1 2027-01-01\n",
	    NAME ":1: too few values for waive (usage: waive CHECK-ID TARGET "
	    "YYYY-MM-DD \"REASON\")");
	expect_first("severity IB-MKEY-UNSET low high\n",
	    NAME ":1: too many values for severity (usage: severity CHECK-ID "
	    "LEVEL)");
	expect_first("dedicated_host yes no\n",
	    NAME ":1: too many values for dedicated_host (usage: "
	    "dedicated_host yes|no)");
	expect_first("tenant_node \"\"\n", NAME ":1: empty pattern for "
	    "tenant_node");
	expect_first("dedicated_host YES\n",
	    NAME ":1: invalid value 'YES' for dedicated_host (expected yes or "
	    "no)");
	expect_first("stale_catalogue fail\n",
	    NAME ":1: invalid value 'fail' for stale_catalogue (expected warn "
	    "or not_tested)");
	expect_first("stale_catalogue warn\nstale_catalogue not_tested\n",
	    NAME ":2: duplicate stale_catalogue (first set on line 1)");
}

static void
test_err_quotes(void **state)
{
	(void)state;
	expect_first("tenant_node \"acme gpu\n",
	    NAME ":1: unterminated quoted string");
	expect_first("tenant_node a\ntenant_node \"acme\\\"\n",
	    NAME ":2: unterminated quoted string");
	expect_first("tenant_node \"ends in backslash\\",
	    NAME ":1: unterminated quoted string");
	expect_first("tenant_node \"a\\nb\"\n",
	    NAME ":1: invalid escape '\\n' in quoted string (only \\\" and "
	    "\\\\ are allowed)");
}

static void
test_err_duplicate_dedicated(void **state)
{
	(void)state;
	expect_first("dedicated_host yes\n# again\ndedicated_host yes\n",
	    NAME ":3: duplicate dedicated_host (first set on line 1)");
}

static void
test_err_nul(void **state)
{
	static const char text[] = "tenant_node a\ntenant_node b\0c\n";

	(void)state;
	expect_first_now(text, sizeof(text) - 1, NOW,
	    NAME ":2: NUL byte in line (a binary file?)");
}

static void
test_err_long_line(void **state)
{
	char *text;
	size_t n = FA_POLICY_MAX_LINE;

	(void)state;
	/* "tenant_node " and a pattern filling exactly the maximum. */
	text = malloc(n + 64);
	assert_non_null(text);
	memcpy(text, "tenant_node ", 12);
	memset(text + 12, 'a', n - 12);
	memcpy(text + n, "\r\n", 3);
	fa_policy_free(parse_ok(text));
	/* One byte more, after a first good line. */
	memcpy(text, "# ok\ntenant_node ", 17);
	memset(text + 17, 'a', n + 1 - 12);
	memcpy(text + 5 + n + 1, "\n", 2);
	expect_first(text, NAME ":2: line too long (more than 4096 bytes)");
	free(text);
}

static void
test_err_too_large(void **state)
{
	struct fa_policy *p = (struct fa_policy *)1;
	char *text, *errs = NULL;
	size_t n = FA_POLICY_MAX_BYTES, i;

	(void)state;
	text = malloc(n + 1);
	assert_non_null(text);
	/* Exactly the maximum, as 64-byte comment lines: accepted. */
	for (i = 0; i < n; i += 64) {
		memset(text + i, '#', 63);
		text[i + 63] = '\n';
	}
	fa_policy_free(parse_ok_len(text, n));

	text[n] = '\n';
	assert_int_equal(fa_policy_parse(NAME, text, n + 1, NOW, &p, &errs),
	    FA_ERR_TOOBIG);
	assert_null(p);
	assert_non_null(errs);
	assert_string_equal(errs,
	    NAME ": too large (1048577 bytes, at most 1048576)");
	free(errs);
	free(text);
}

static void
test_err_too_many(void **state)
{
	char text[2048], *errs, *s;
	size_t o = 0;
	unsigned i, lines = 1;
	int n;

	(void)state;
	for (i = 1; i <= FA_POLICY_MAX_ERRORS + 5; i++) {
		n = snprintf(text + o, sizeof(text) - o, "bad%u x\n", i);
		assert_true(n > 0 && (size_t)n < sizeof(text) - o);
		o += (size_t)n;
	}
	errs = parse_bad_len(text, o, NOW);
	for (s = errs; *s != '\0'; s++)
		if (*s == '\n')
			lines++;
	assert_int_equal(lines, FA_POLICY_MAX_ERRORS + 1);
	assert_non_null(strstr(errs, NAME ":20: unknown keyword 'bad20'\n"
	    NAME ": too many errors"));
	s = strrchr(errs, '\n');
	assert_string_equal(s + 1, NAME ": too many errors");
	assert_null(strstr(errs, "bad21"));
	free(errs);

	/* Exactly the limit: all reported, no "too many". */
	o = 0;
	for (i = 1; i <= FA_POLICY_MAX_ERRORS; i++) {
		n = snprintf(text + o, sizeof(text) - o, "bad%u\n", i);
		o += (size_t)n;
	}
	errs = parse_bad_len(text, o, NOW);
	assert_null(strstr(errs, "too many"));
	s = strrchr(errs, '\n');
	assert_string_equal(s + 1, NAME ":20: unknown keyword 'bad20'");
	free(errs);
}

static void
test_errors_collected(void **state)
{
	(void)state;
	/* Every error is reported, in order, one per line. */
	expect_all("tenant_guid 0xq 0x1 0xz\n"
	    "tenant_vlan 5\n"
	    "frob\n"
	    "tenant_vlan 5000\n",
	    NAME ":1: invalid GUID '0xq' (expected 0x followed by 1-16 hex "
	    "digits)\n"
	    NAME ":1: invalid GUID '0xz' (expected 0x followed by 1-16 hex "
	    "digits)\n"
	    NAME ":3: unknown keyword 'frob'\n"
	    NAME ":4: invalid VLAN ID '5000' (expected 1-4094)");
}

static void
test_api_misuse(void **state)
{
	struct fa_policy *p = (struct fa_policy *)1;
	char *errs = NULL;

	(void)state;
	assert_int_equal(fa_policy_parse(NAME, NULL, 5, NOW, &p, &errs),
	    FA_ERR_INPUT);
	assert_null(p);
	assert_string_equal(errs, NAME ": no policy text");
	free(errs);
	/* errs may be NULL; a NULL name has a stand-in. */
	assert_int_equal(fa_policy_parse(NAME, "x", 1, NOW, &p, NULL),
	    FA_ERR_INPUT);
	assert_null(p);
	assert_int_equal(fa_policy_parse(NULL, "x", 1, NOW, &p, &errs),
	    FA_ERR_INPUT);
	assert_string_equal(errs, "policy:1: unknown keyword 'x'");
	free(errs);
}

static void
test_classify(void **state)
{
	struct fa_policy *p;

	(void)state;
	p = parse_ok("tenant_node acme-gpu-* \"acme login [0-9]\"\n"
	    "tenant_guid 0x0002c90300a1b2c3 0x0002c90300a1b2c4\n"
	    "provider_node ufm-*\n"
	    "provider_guid 0x0002c90300000001\n"
	    "sm_guid 0x0002c90300000002\n");

	assert_true(fa_policy_is_tenant(p, 0x0002c90300a1b2c3ULL, 0, NULL));
	assert_true(fa_policy_is_tenant(p, 0x99, 0x0002c90300a1b2c4ULL,
	    NULL));
	assert_true(fa_policy_is_tenant(p, 0, 0, "acme-gpu-017"));
	assert_true(fa_policy_is_tenant(p, 0, 0, "acme login 7"));
	assert_false(fa_policy_is_tenant(p, 0, 0, "acme login 77"));
	assert_false(fa_policy_is_tenant(p, 0, 0, "other-gpu-1"));
	assert_false(fa_policy_is_tenant(p, 0x0002c90300000001ULL, 0,
	    "ufm-1"));
	assert_false(fa_policy_is_tenant(p, 0, 0, NULL));

	assert_true(fa_policy_is_provider(p, 0x0002c90300000001ULL, 0, NULL));
	assert_true(fa_policy_is_provider(p, 0, 0x0002c90300000001ULL, NULL));
	assert_true(fa_policy_is_provider(p, 0, 0x0002c90300000002ULL, NULL));
	assert_true(fa_policy_is_provider(p, 0x0002c90300000002ULL, 0, NULL));
	assert_true(fa_policy_is_provider(p, 0, 0, "ufm-a"));
	assert_false(fa_policy_is_provider(p, 0, 0, "acme-gpu-1"));
	assert_false(fa_policy_is_provider(p, 0x0002c90300a1b2c3ULL, 0,
	    NULL));
	assert_false(fa_policy_is_provider(p, 0, 0, NULL));

	/* A neither-nor port is what checks call foreign. */
	assert_false(fa_policy_is_tenant(p, 0x77, 0x78, "bob-gpu-1"));
	assert_false(fa_policy_is_provider(p, 0x77, 0x78, "bob-gpu-1"));
	fa_policy_free(p);

	/* NULL is the empty policy. */
	assert_false(fa_policy_is_tenant(NULL, 1, 2, "acme-gpu-1"));
	assert_false(fa_policy_is_provider(NULL, 1, 2, "ufm-1"));
}

static void
test_severity_override(void **state)
{
	struct fa_policy *p;

	(void)state;
	p = parse_ok("severity IB-MKEY-UNSET low\n"
	    "severity HOST-TENANCY info\n"
	    "severity IB-MKEY-UNSET medium\n");
	assert_int_equal(fa_policy_severity(p, "IB-MKEY-UNSET", FA_SEV_HIGH),
	    FA_SEV_MEDIUM);
	assert_int_equal(fa_policy_severity(p, "HOST-TENANCY",
	    FA_SEV_CRITICAL), FA_SEV_INFO);
	assert_int_equal(fa_policy_severity(p, "IB-SMKEY-DEFAULT",
	    FA_SEV_CRITICAL), FA_SEV_CRITICAL);
	assert_int_equal(fa_policy_severity(p, NULL, FA_SEV_LOW), FA_SEV_LOW);
	fa_policy_free(p);
	assert_int_equal(fa_policy_severity(NULL, "IB-MKEY-UNSET",
	    FA_SEV_HIGH), FA_SEV_HIGH);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_every_keyword),
		cmocka_unit_test(test_dhcp_server_and_cidr),
		cmocka_unit_test(test_lexical),
		cmocka_unit_test(test_empty_and_defaults),
		cmocka_unit_test(test_many_values),
		cmocka_unit_test(test_err_unknown_keyword),
		cmocka_unit_test(test_err_guid),
		cmocka_unit_test(test_err_pkey),
		cmocka_unit_test(test_err_vlan),
		cmocka_unit_test(test_err_cidr),
		cmocka_unit_test(test_err_host_bits),
		cmocka_unit_test(test_err_probe),
		cmocka_unit_test(test_err_port_range),
		cmocka_unit_test(test_err_check_id),
		cmocka_unit_test(test_err_severity),
		cmocka_unit_test(test_err_date),
		cmocka_unit_test(test_expired_waiver),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_err_waive_values),
		cmocka_unit_test(test_err_missing_values),
		cmocka_unit_test(test_err_quotes),
		cmocka_unit_test(test_err_duplicate_dedicated),
		cmocka_unit_test(test_err_nul),
		cmocka_unit_test(test_err_long_line),
		cmocka_unit_test(test_err_too_large),
		cmocka_unit_test(test_err_too_many),
		cmocka_unit_test(test_errors_collected),
		cmocka_unit_test(test_api_misuse),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_severity_override),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
