/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mkreports: N node reports for the merge bench (bench/mergebench.sh),
 * made from one real report.json.
 *
 *   mkreports BASE.json OUTDIR N
 *
 * Writes OUTDIR/gpuNNNNN/report.json for N nodes: BASE with scan.node
 * "gpuNNNNN", scan.host "gpuNNNNN.cluster" and a scan.id of its own (a
 * fixed pseudo-random sequence, so runs are alike), indented as fabaudit
 * writes it.  One node in a thousand differs as a real cluster's
 * exceptions do: its first result's status is turned (pass to fail,
 * anything else to pass), so that the merge has rows of all but a few
 * nodes and rows of a few.  Exit 0, or 1 with a message.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

/* splitmix64: a fixed sequence for the scan ids. */
static uint64_t
next64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int
main(int argc, char **argv)
{
	json_error_t je;
	json_t *base, *scan, *r0;
	char path[4096], id[33], name[32], orig[32];
	const char *alt;
	uint64_t seed = 42;
	long n, i;

	if (argc != 4 || (n = strtol(argv[3], NULL, 10)) < 1 || n > 99999) {
		fprintf(stderr, "usage: mkreports BASE.json OUTDIR N "
		    "(1-99999)\n");
		return 1;
	}
	if ((base = json_load_file(argv[1], 0, &je)) == NULL) {
		fprintf(stderr, "mkreports: %s:%d: %s\n", argv[1], je.line,
		    je.text);
		return 1;
	}
	scan = json_object_get(base, "scan");
	r0 = json_array_get(json_object_get(base, "results"), 0);
	if (!json_is_object(scan) ||
	    !json_is_string(json_object_get(r0, "status"))) {
		fprintf(stderr, "mkreports: %s: no scan or no results\n",
		    argv[1]);
		return 1;
	}
	snprintf(orig, sizeof(orig), "%s",
	    json_string_value(json_object_get(r0, "status")));
	alt = strcmp(orig, "pass") == 0 ? "fail" : "pass";
	if (mkdir(argv[2], 0755) != 0 && errno != EEXIST) {
		perror(argv[2]);
		return 1;
	}
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "gpu%05ld", i);
		snprintf(id, sizeof(id), "%016llx%016llx",
		    (unsigned long long)next64(&seed),
		    (unsigned long long)next64(&seed));
		snprintf(path, sizeof(path), "%s.cluster", name);
		if (json_object_set_new(scan, "node", json_string(name)) != 0 ||
		    json_object_set_new(scan, "host", json_string(path)) != 0 ||
		    json_object_set_new(scan, "id", json_string(id)) != 0 ||
		    json_object_set_new(r0, "status", json_string(i % 1000 ==
		    7 ? alt : orig)) != 0) {
			fprintf(stderr, "mkreports: out of memory\n");
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%s", argv[2], name);
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			perror(path);
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%s/report.json", argv[2],
		    name);
		if (json_dump_file(base, path, JSON_INDENT(2)) != 0) {
			fprintf(stderr, "mkreports: cannot write %s\n", path);
			return 1;
		}
	}
	json_decref(base);
	return 0;
}
