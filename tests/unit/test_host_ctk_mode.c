/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HOST-NVIDIA-CTK-CONFIG judges the toolkit's effective mode, not the
 * literal string: each machine of ctk_mode_cases.h (whose observations
 * ftest_host_ctk_mode proves the collectors make from the real files) is
 * given to the check, and its verdict and reason are asserted, with the
 * resolution in the evidence.  The rules and their sources are in
 * ctk_mode_cases.h and checks/host_ctk_config.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../checks/check.h"
#include "../../checks/host_checks.h"
#include "../../core/model.h"
#include "../../core/policy.h"
#include "../../core/snapshot.h"
#include "ctk_mode_cases.h"

#define KIND_PROBE	"host.ctk.probe"	/* fabric/host_ctk.h */

static void
add(struct fa_snapshot *s, const char *kind, const char *target,
    enum fa_obs_state st, const char *reason, json_t *data)
{
	assert_non_null(data);
	assert_int_equal(fa_snapshot_add(s, FA_FAM_HOST, NULL, kind, target,
	    "test", st, reason, data, NULL), 0);
}

/* A host, not a container: no marker, every namespace the initial one
 * (as test_host_checks.c's host_ns). */
static struct fa_snapshot *
host(void)
{
	struct fa_snapshot *s = fa_snapshot_new();

	assert_non_null(s);
	assert_int_equal(fa_snapshot_set_family(s, FA_FAM_HOST,
	    FA_FAMST_COLLECTED, NULL), 0);
	add(s, FA_KIND_HOST_PATH, "/.dockerenv", FA_OBS_COMPLETE, NULL,
	    json_pack("{s:s, s:s, s:b}", "path", "/.dockerenv", "role",
	    "marker:docker", "exists", 0));
	add(s, FA_KIND_HOST_NS, "/proc/self/ns", FA_OBS_COMPLETE, NULL,
	    json_pack("{s:{s:b}, s:{s:b}, s:{s:b}, s:{s:b}, s:{s:b}, s:{s:I}}",
	    "pid", "initial", 1, "ipc", "initial", 1, "uts", "initial", 1,
	    "cgroup", "initial", 1, "user", "initial", 1, "net", "inode",
	    (json_int_t)4026531840));
	add(s, FA_KIND_HOST_TENANCY, "/", FA_OBS_COMPLETE, NULL, json_pack(
	    "{s:[s,s], s:b, s:{}}", "net_ifaces", "eth0", "lo",
	    "cpu_hypervisor", 0, "dmi"));
	return s;
}

/* The toolkit observations of case c, as the collectors make them. */
static void
machine(struct fa_snapshot *s, const struct ctk_case *c, int probes)
{
	char t[96];
	size_t i, n = ctk_npkgs(c);

	add(s, FA_KIND_HOST_CTK_CONFIG, c->config, FA_OBS_COMPLETE, NULL,
	    ctk_case_config(c));
	if (c->dpkg)
		add(s, FA_KIND_HOST_PACKAGE, "dpkg", FA_OBS_COMPLETE, NULL,
		    ctk_case_dpkg_db(c));
	else
		add(s, FA_KIND_HOST_PACKAGE, "dpkg", FA_OBS_NOT_COLLECTED,
		    CTK_DPKG_MISSING, json_object());
	for (i = 0; i < n; i++) {
		snprintf(t, sizeof(t), "dpkg:%s", c->pkgs[i].package);
		add(s, FA_KIND_HOST_PACKAGE, t, FA_OBS_COMPLETE, NULL,
		    ctk_case_pkg(&c->pkgs[i]));
	}
	add(s, FA_KIND_HOST_CDI, "cdi", FA_OBS_COMPLETE, NULL,
	    ctk_case_cdi(c));
	if (probes)
		add(s, KIND_PROBE, "toolkit", FA_OBS_COMPLETE, NULL,
		    ctk_case_probes(c));
}

static void
run(struct fa_snapshot *s, struct fa_results *r)
{
	struct fa_eval_ctx ctx;
	struct fa_policy *p = fa_policy_new_empty();

	assert_non_null(p);
	ctx.snap = s;
	ctx.policy = p;
	memset(r, 0, sizeof(*r));
	assert_int_equal(fa_chk_host_nvidia_ctk_config.eval(
	    &fa_chk_host_nvidia_ctk_config, &ctx, r), 0);
	fa_policy_free(p);
}

/* The evidence item with this field, or NULL. */
static const json_t *
item(const json_t *ev, const char *field)
{
	const json_t *e;
	size_t i;

	json_array_foreach(ev, i, e)
		if (strcmp(fa_json_get_str(e, "field"), field) == 0)
			return json_object_get(e, "value");
	return NULL;
}

/* Every case: the verdict and the reason written from the sources. */
static void
cases(void **state)
{
	struct fa_snapshot *s;
	struct fa_results r;
	size_t i;
	int failed = 0;

	(void)state;
	for (i = 0; i < CTK_NCASES; i++) {
		const struct ctk_case *c = &ctk_cases[i];
		const char *got;

		s = host();
		machine(s, c, 1);
		run(s, &r);
		if (r.n != 1) {
			print_error("%s: %zu results\n", c->name, r.n);
			failed++;
		} else {
			got = fa_status_name(r.v[0].status);
			if (strcmp(got, c->want) != 0 ||
			    strstr(r.v[0].reason, c->needle) == NULL) {
				print_error("%s: want %s with '%s', got %s: "
				    "%s\n", c->name, c->want, c->needle, got,
				    r.v[0].reason);
				failed++;
			}
			assert_string_equal(r.v[0].target, c->config);
			/* The resolution is in the evidence. */
			if (item(r.v[0].evidence, "effective_mode") == NULL ||
			    item(r.v[0].evidence,
			    "nvidia-container-runtime.mode") == NULL) {
				print_error("%s: no effective_mode in the "
				    "evidence\n", c->name);
				failed++;
			}
		}
		fa_results_free(&r);
		fa_snapshot_free(s);
	}
	assert_int_equal(failed, 0);
}

/* The sentence, in the evidence: literal, version, CDI specs. */
static void
evidence(void **state)
{
	struct fa_snapshot *s = host();
	struct fa_results r;
	const json_t *ev, *eff;

	(void)state;
	machine(s, &ctk_cases[0], 1);
	run(s, &r);
	assert_int_equal(r.n, 1);
	ev = r.v[0].evidence;
	eff = item(ev, "effective_mode");
	assert_non_null(eff);
	assert_string_equal(fa_json_get_str(eff, "runtime"), "legacy");
	assert_string_equal(fa_json_get_str(eff, "verdict"), "legacy");
	assert_non_null(strstr(fa_json_get_str(eff, "resolution"),
	    "mode auto -> legacy: toolkit 1.17.3, not a Tegra system, no CDI "
	    "spec in /etc/cdi or /var/run/cdi"));
	assert_string_equal(json_string_value(item(ev,
	    "nvidia-container-runtime.mode")), "auto");
	assert_string_equal(json_string_value(item(ev, "toolkit_version")),
	    "nvidia-container-toolkit-base 1.17.3-1 (dpkg)");
	assert_string_equal(json_string_value(item(ev, "cdi_specs")),
	    "no CDI spec in /etc/cdi or /var/run/cdi");
	assert_string_equal(json_string_value(item(ev, "tegra")),
	    "none at the 2 paths examined");
	/* The version item points at the package's observation. */
	{
		const json_t *e;
		size_t i;
		int found = 0;

		json_array_foreach(ev, i, e)
			if (strcmp(fa_json_get_str(e, "field"),
			    "toolkit_version") == 0 && fa_json_get_str(e,
			    "observation") != NULL) {
				const struct fa_obs *o = fa_snapshot_find(s,
				    FA_KIND_HOST_PACKAGE,
				    "dpkg:nvidia-container-toolkit-base");

				assert_string_equal(fa_json_get_str(e,
				    "observation"), o->id);
				found = 1;
			}
		assert_true(found);
	}
	fa_results_free(&r);
	fa_snapshot_free(s);
	/* Absent key: recorded as the default. */
	s = host();
	machine(s, &ctk_cases[1], 1);
	run(s, &r);
	assert_string_equal(json_string_value(item(r.v[0].evidence,
	    "nvidia-container-runtime.mode")), "absent (default auto)");
	fa_results_free(&r);
	fa_snapshot_free(s);
	/* 1.18 with the hook: where it was found. */
	s = host();
	machine(s, &ctk_cases[6], 1);
	run(s, &r);
	assert_string_equal(json_string_value(item(r.v[0].evidence,
	    "nvidia-container-runtime-hook")),
	    "/usr/bin/nvidia-container-runtime-hook");
	assert_string_equal(fa_json_get_str(item(r.v[0].evidence,
	    "effective_mode"), "verdict"), "not determined");
	fa_results_free(&r);
	fa_snapshot_free(s);
}

/* A snapshot of an older fabaudit has no probes: auto before 1.18 cannot
 * be resolved (Tegra unknown), and it says so; an explicit mode can. */
static void
no_probes(void **state)
{
	struct fa_snapshot *s = host();
	struct fa_results r;

	(void)state;
	machine(s, &ctk_cases[0], 0);
	run(s, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_NOT_TESTED);
	assert_non_null(strstr(r.v[0].reason, "older fabaudit"));
	fa_results_free(&r);
	fa_snapshot_free(s);
	s = host();
	machine(s, &ctk_cases[14], 0);	/* cdi on 1.17.3 */
	run(s, &r);
	assert_int_equal(r.v[0].status, FA_ST_PASS);
	fa_results_free(&r);
	fa_snapshot_free(s);
}

/* A weak setting fails whatever the mode; an undetermined mode is named
 * beside it.  Unparsed lines and an undetermined mode: both named. */
static void
combined(void **state)
{
	struct fa_snapshot *s = host();
	struct fa_results r;
	struct ctk_case c = ctk_cases[11];	/* auto, no dpkg database */

	(void)state;
	c.values = "{\"nvidia-container-runtime.mode\": \"auto\"}";
	machine(s, &c, 1);
	run(s, &r);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_non_null(strstr(r.v[0].reason, "the default, as the key is "
	    "absent"));
	assert_non_null(strstr(r.v[0].reason, "the effective mode is not "
	    "determined"));
	fa_results_free(&r);
	fa_snapshot_free(s);

	s = host();
	add(s, FA_KIND_HOST_CTK_CONFIG, CTK_ETC_CONFIG, FA_OBS_COMPLETE, NULL,
	    json_pack("{s:{s:b}, s:[i]}", "values", "accept-nvidia-visible-"
	    "devices-envvar-when-unprivileged", 0, "unparsed", 7));
	run(s, &r);
	assert_int_equal(r.v[0].status, FA_ST_NOT_TESTED);
	assert_non_null(strstr(r.v[0].reason, "not understood"));
	assert_non_null(strstr(r.v[0].reason, "toolkit version: the dpkg "
	    "database was not read"));
	fa_results_free(&r);
	fa_snapshot_free(s);
}

/* A toolkit package dpkg does not vouch for (half-installed: recorded
 * incomplete): its version is not used, and the reason says why. */
static void
uncertain_package(void **state)
{
	struct fa_snapshot *s = host();
	struct fa_results r;
	struct ctk_case c = ctk_cases[0];

	(void)state;
	c.pkgs[0].package = NULL;	/* none complete */
	machine(s, &c, 1);
	add(s, FA_KIND_HOST_PACKAGE, "dpkg:nvidia-container-toolkit-base",
	    FA_OBS_INCOMPLETE, "nvidia-container-toolkit-base: Status "
	    "\"install ok half-installed\": an installation or removal was "
	    "started and not completed", ctk_case_pkg(&ctk_cases[0].pkgs[0]));
	run(s, &r);
	assert_int_equal(r.v[0].status, FA_ST_NOT_TESTED);
	assert_non_null(strstr(r.v[0].reason, "half-installed"));
	fa_results_free(&r);
	fa_snapshot_free(s);
}

/* Two configs (the host's and the GPU Operator's): one result each, the
 * Operator's without the dpkg version. */
static void
two_configs(void **state)
{
	struct fa_snapshot *s = host();
	struct fa_results r;

	(void)state;
	machine(s, &ctk_cases[14], 1);	/* cdi, /etc */
	add(s, FA_KIND_HOST_CTK_CONFIG, CTK_OP_CONFIG, FA_OBS_COMPLETE, NULL,
	    ctk_case_config(&ctk_cases[0]));	/* auto */
	run(s, &r);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.v[0].target, CTK_ETC_CONFIG);
	assert_int_equal(r.v[0].status, FA_ST_PASS);
	assert_string_equal(r.v[1].target, CTK_OP_CONFIG);
	assert_int_equal(r.v[1].status, FA_ST_NOT_TESTED);
	assert_non_null(strstr(r.v[1].reason, "GPU Operator"));
	fa_results_free(&r);
	fa_snapshot_free(s);
}

/* Whether this is a container cannot be told (no tell at all) and no
 * config is here: a container would not see the host's, so not tested,
 * never not applicable (fixtures/host/minimal); a config that is here is
 * judged. */
static void
undecided_environment(void **state)
{
	struct fa_snapshot *s = fa_snapshot_new();
	struct fa_host_env env;
	struct fa_results r;

	(void)state;
	assert_non_null(s);
	assert_int_equal(fa_snapshot_set_family(s, FA_FAM_HOST,
	    FA_FAMST_COLLECTED, NULL), 0);
	assert_int_equal(fa_host_env(s, &env), 0);
	assert_int_equal(env.container, -1);
	fa_host_env_free(&env);
	run(s, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_NOT_TESTED);
	assert_non_null(strstr(r.v[0].reason, "could not be told"));
	fa_results_free(&r);
	machine(s, &ctk_cases[0], 1);
	run(s, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_non_null(strstr(r.v[0].reason, "-> legacy"));
	fa_results_free(&r);
	fa_snapshot_free(s);
}

/* fabaudit-checks(7) says how auto is judged. */
static void
outcomes(void **state)
{
	const char *o = fa_chk_host_nvidia_ctk_config.outcomes;

	(void)state;
	assert_non_null(strstr(o, "auto (also when the mode key is absent) "
	    "is legacy before toolkit 1.18.0"));
	assert_non_null(strstr(o, "skip-mode-detection"));
	assert_non_null(strstr(o, "Tegra"));
	assert_null(strstr(o, "fails when config.toml sets legacy mode"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cases),
		cmocka_unit_test(evidence),
		cmocka_unit_test(no_probes),
		cmocka_unit_test(combined),
		cmocka_unit_test(uncertain_package),
		cmocka_unit_test(two_configs),
		cmocka_unit_test(undecided_environment),
		cmocka_unit_test(outcomes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
