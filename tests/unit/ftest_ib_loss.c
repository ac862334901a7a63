/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the MAD engine's counters (fabric/ib_mad.c fa_mad_count):
 * every finished request lands in one of answered, unanswered, silent,
 * send_errors and cut, and lost = recovered + unanswered.  An answer
 * after a lost send is recovered, not loss that stays; the expected
 * silence of a probe sent once is counted as silent, never as lost or
 * unanswered; "class version or method not supported" is no_agent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../fabric/ib_mad.h"

#define ST_BAD_VERSION	0x0004	/* MAD status bits 4:2 = 1 */
#define ST_NO_METHOD	0x0008	/* 2 */
#define ST_NO_ATTR	0x000c	/* 3: method/attribute, not the class */
#define SA_NO_RECORDS	0x0300

static void
one_of_each(void **state)
{
	struct fa_mad_stats s;

	(void)state;
	memset(&s, 0, sizeof(s));
	/* Answered at once; with a status; after two lost sends. */
	fa_mad_count(&s, FA_MAD_ANSWERED, 0, 0, 0);
	fa_mad_count(&s, FA_MAD_STATUS, 0, 0, SA_NO_RECORDS);
	fa_mad_count(&s, FA_MAD_ANSWERED, 0, 2, 0);
	assert_int_equal(s.answered, 3);
	assert_int_equal(s.recovered, 1);
	assert_int_equal(s.lost, 1);
	assert_int_equal(s.unanswered, 0);
	/* Every send lost. */
	fa_mad_count(&s, FA_MAD_NO_RESPONSE, 0, 7, 0);
	assert_int_equal(s.unanswered, 1);
	assert_int_equal(s.lost, 2);
	/* A once probe's expected silence: its own count, not loss. */
	fa_mad_count(&s, FA_MAD_NO_RESPONSE, 1, 1, 0);
	assert_int_equal(s.silent, 1);
	assert_int_equal(s.lost, 2);
	assert_int_equal(s.unanswered, 1);
	/* A once probe answered is just answered. */
	fa_mad_count(&s, FA_MAD_ANSWERED, 1, 0, 0);
	assert_int_equal(s.answered, 4);
	assert_int_equal(s.finished, 6);
	assert_int_equal(fa_mad_stats_consistent(&s), 1);
}

static void
no_agent_is_not_loss(void **state)
{
	struct fa_mad_stats s;

	(void)state;
	memset(&s, 0, sizeof(s));
	fa_mad_count(&s, FA_MAD_STATUS, 1, 0, ST_BAD_VERSION);
	fa_mad_count(&s, FA_MAD_STATUS, 0, 0, ST_NO_METHOD);
	/* After a lost send, still "no agent", and the request recovered. */
	fa_mad_count(&s, FA_MAD_STATUS, 0, 1, ST_NO_METHOD);
	/* An attribute the agent lacks: it is there. */
	fa_mad_count(&s, FA_MAD_STATUS, 0, 0, ST_NO_ATTR);
	assert_int_equal(s.no_agent, 3);
	assert_int_equal(s.answered, 4);
	assert_int_equal(s.recovered, 1);
	assert_int_equal(s.lost, 1);
	assert_int_equal(s.unanswered, 0);
	assert_int_equal(s.silent, 0);
	assert_int_equal(fa_mad_stats_consistent(&s), 1);
}

static void
errors_and_cuts(void **state)
{
	struct fa_mad_stats s;

	(void)state;
	memset(&s, 0, sizeof(s));
	/* Refused by the stack before any loss: a send error. */
	fa_mad_count(&s, FA_MAD_SEND_ERROR, 0, 0, 0);
	fa_mad_count(&s, FA_MAD_SEND_ERROR, 1, 0, 0);
	assert_int_equal(s.send_errors, 2);
	/* Its retry refused after a lost send: lost, never answered. */
	fa_mad_count(&s, FA_MAD_SEND_ERROR, 0, 1, 0);
	assert_int_equal(s.unanswered, 1);
	assert_int_equal(s.lost, 1);
	/* --max-time: the budget ended it, lost send or not. */
	fa_mad_count(&s, FA_MAD_DEADLINE, 0, 0, 0);
	fa_mad_count(&s, FA_MAD_DEADLINE, 0, 2, 0);
	assert_int_equal(s.cut, 2);
	assert_int_equal(s.lost, 1);
	assert_int_equal(s.finished, 5);
	assert_int_equal(fa_mad_stats_consistent(&s), 1);
}

/* Many requests of every fate: the identities hold throughout. */
static void
identities_hold(void **state)
{
	static const enum fa_mad_outcome oc[] = { FA_MAD_ANSWERED,
	    FA_MAD_STATUS, FA_MAD_NO_RESPONSE, FA_MAD_SEND_ERROR,
	    FA_MAD_REFUSED, FA_MAD_DEADLINE };
	static const unsigned st[] = { 0, ST_BAD_VERSION, ST_NO_METHOD,
	    ST_NO_ATTR, SA_NO_RECORDS, 0x0001 };
	struct fa_mad_stats s;
	unsigned i, lost, once;

	(void)state;
	memset(&s, 0, sizeof(s));
	for (i = 0; i < 6; i++)
		for (once = 0; once < 2; once++)
			for (lost = 0; lost < 4; lost++) {
				fa_mad_count(&s, oc[i], (int)once,
				    once && lost > 1 ? 1 : lost,
				    oc[i] == FA_MAD_STATUS ? st[lost] : 0);
				assert_int_equal(fa_mad_stats_consistent(&s), 1);
			}
	assert_int_equal(s.finished, 48);
	assert_true(s.lost > 0 && s.silent > 0 && s.cut > 0 &&
	    s.send_errors > 0 && s.no_agent > 0);
}

/* Counts that do not add up are caught. */
static void
broken_counts_are_caught(void **state)
{
	struct fa_mad_stats s;

	(void)state;
	memset(&s, 0, sizeof(s));
	fa_mad_count(&s, FA_MAD_NO_RESPONSE, 0, 3, 0);
	s.lost++;
	assert_int_equal(fa_mad_stats_consistent(&s), 0);
	s.lost--;
	s.finished++;
	assert_int_equal(fa_mad_stats_consistent(&s), 0);
	s.finished--;
	s.recovered = s.unanswered = 1;
	s.lost = 2;
	assert_int_equal(fa_mad_stats_consistent(&s), 0);	/* > answered */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_of_each),
		cmocka_unit_test(no_agent_is_not_loss),
		cmocka_unit_test(errors_and_cuts),
		cmocka_unit_test(identities_hold),
		cmocka_unit_test(broken_counts_are_caught),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
