/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rusage: run a command and report its wall-clock time and peak resident
 * set size, for `make bench` (/usr/bin/time may not be installed).
 *
 *   rusage [-t seconds] [-o file] [--] command [argument ...]
 *
 * Forks, execs the command, and reaps it with wait4(2), whose rusage gives
 * ru_maxrss (KiB on Linux: the largest RSS of the process over its life,
 * across execve, and of any children it reaped) and CPU times.  Wall time
 * is CLOCK_MONOTONIC from just before fork to just after wait4.  One line
 * of key=value pairs goes to `file` (written to a temporary name and
 * renamed) or to stderr:
 *
 *   wall=1.234567 maxrss_kb=4321 utime=0.123 stime=0.045 status=0 timedout=0
 *
 * -t: after that many seconds the command gets SIGTERM, 3 s later SIGKILL;
 * timedout=1 and the exit status is 124 (as timeout(1)).  SIGINT, SIGTERM
 * and SIGHUP received meanwhile are passed on to the command.  Otherwise
 * the exit status is the command's, or 128 + the signal that killed it;
 * 125 if rusage itself failed, 127 if the command could not be run.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got_alarm, got_sig;

static void
on_signal(int sig)
{
	if (sig == SIGALRM)
		got_alarm = 1;
	else
		got_sig = sig;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double
tv(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

static int
report(const char *file, const char *line)
{
	char tmp[4096];
	FILE *f;

	if (file == NULL) {
		fputs(line, stderr);
		return 0;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp%ld", file,
	    (long)getpid()) >= sizeof(tmp)) {
		fprintf(stderr, "rusage: %s: name too long\n", file);
		return -1;
	}
	if ((f = fopen(tmp, "w")) == NULL || fputs(line, f) == EOF ||
	    fclose(f) != 0 || rename(tmp, file) != 0) {
		fprintf(stderr, "rusage: %s: %s\n", file, strerror(errno));
		(void)unlink(tmp);
		return -1;
	}
	return 0;
}

static void
usage(void)
{
	fprintf(stderr, "usage: rusage [-t seconds] [-o file] [--] command "
	    "[argument ...]\n");
	exit(125);
}

int
main(int argc, char *argv[])
{
	struct sigaction sa;
	struct rusage ru;
	const char *file = NULL;
	char line[256], *end;
	unsigned long limit = 0;
	double t0, t1;
	int ch, st, rc, timedout = 0, killed = 0;
	pid_t pid;

	while ((ch = getopt(argc, argv, "+o:t:")) != -1) {
		switch (ch) {
		case 'o':
			file = optarg;
			break;
		case 't':
			errno = 0;
			limit = strtoul(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || limit == 0 ||
			    limit > 86400)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: wait4 returns */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) != 0 ||
	    sigaction(SIGINT, &sa, NULL) != 0 ||
	    sigaction(SIGTERM, &sa, NULL) != 0 ||
	    sigaction(SIGHUP, &sa, NULL) != 0) {
		perror("rusage: sigaction");
		return 125;
	}
	fflush(NULL);
	t0 = now();
	if ((pid = fork()) < 0) {
		perror("rusage: fork");
		return 125;
	}
	if (pid == 0) {
		signal(SIGALRM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "rusage: %s: %s\n", argv[optind],
		    strerror(errno));
		_exit(127);
	}
	if (limit > 0)
		alarm((unsigned)limit);
	while (wait4(pid, &st, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("rusage: wait4");
			return 125;
		}
		if (got_sig != 0) {
			(void)kill(pid, got_sig);
			got_sig = 0;
		}
		if (got_alarm) {
			got_alarm = 0;
			timedout = 1;
			(void)kill(pid, killed ? SIGKILL : SIGTERM);
			if (!killed)
				alarm(3);
			killed = 1;
		}
	}
	t1 = now();
	alarm(0);
	if (WIFEXITED(st))
		rc = WEXITSTATUS(st);
	else if (WIFSIGNALED(st))
		rc = 128 + WTERMSIG(st);
	else
		rc = 125;
	snprintf(line, sizeof(line), "wall=%.6f maxrss_kb=%ld utime=%.3f "
	    "stime=%.3f status=%d timedout=%d\n", t1 - t0, ru.ru_maxrss,
	    tv(&ru.ru_utime), tv(&ru.ru_stime), rc, timedout);
	if (report(file, line) != 0)
		return 125;
	return timedout ? 124 : rc;
}
