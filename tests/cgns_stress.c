// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded stress: worker processes (two threads each) race unshare, setns,
 * clone(CLONE_NEWCGROUP), migrations, mkdir/rmdir, /proc reads and exits,
 * while a mover process shuffles them between cgroups from the init ns.
 *
 * Pass: every process exits cleanly and is reaped, no errno outside the
 * documented set for each operation, and the kernel still answers at the
 * end.  Total time defaults to ~15 s; "cgns_stress SECONDS" changes it.
 */
#include "cgns_common.h"

#define WORKERS 4
#define SLOTS 4		/* <base>/s0..s3: fixed cgroups */
#define TMPS 6		/* <base>/s<i>/t<j>: created and removed */

static volatile int stop_flag;
static time_t deadline;
static bool use_ns;
static int ns_fds[3];	/* init ns + two holder namespaces */

static bool over(void)
{
	return time(NULL) >= deadline || stop_flag;
}

static void read_ok(pid_t pid)
{
	char *s = cg2_path_of(pid);

	/* other pids may exit at any time: ENOENT/ESRCH are expected then */
	if (!s) {
		CHECK(pid && (errno == ENOENT || errno == ESRCH),
		      "reading /proc/%d/cgroup", pid);
		return;
	}
	CHECK(s[0] == '/', "cgroup path does not start with '/': '%s'", s);
}

static pid_t workers[WORKERS];

/* The second thread of a worker: reads and cgroup churn */
static void *churn(void *arg)
{
	unsigned int seed = (unsigned long)arg;
	char p[PATH_MAX + 64];

	while (!over()) {
		int r = rand_r(&seed) % 4, s = rand_r(&seed) % SLOTS, t = rand_r(&seed) % TMPS;

		snprintf(p, sizeof(p), "%s/s%d/t%d", cg_base, s, t);
		switch (r) {
		case 0:
			if (mkdir(p, 0755))
				CHECK(errno == EEXIST, "mkdir %s", p);
			break;
		case 1:
			if (rmdir(p))
				CHECK(errno == ENOENT || errno == EBUSY, "rmdir %s", p);
			break;
		case 2:
			read_ok(workers[rand_r(&seed) % WORKERS]);
			break;
		default:
			CHECK(cgroup_line_of("/proc/thread-self/cgroup", ""), "thread-self");
			break;
		}
	}
	return NULL;
}

static void worker(int idx)
{
	unsigned int seed = idx * 7919 + getpid();
	pthread_t th;
	char p[PATH_MAX + 64];

	CHECK(pthread_create(&th, NULL, churn, (void *)(unsigned long)(seed + 1)) == 0,
	      "pthread_create");
	while (!over()) {
		int op = rand_r(&seed) % (use_ns ? 7 : 4);
		pid_t pid;
		int r;

		switch (op) {
		case 0:	/* migrate self; nsdelegate may refuse across ns roots */
			r = rand_r(&seed) % 2;
			if (r)
				snprintf(p, sizeof(p), "%s/s%d/cgroup.procs", cg_base,
					 (int)(rand_r(&seed) % SLOTS));
			else
				snprintf(p, sizeof(p), "%s/s%d/t%d/cgroup.procs", cg_base,
					 (int)(rand_r(&seed) % SLOTS), (int)(rand_r(&seed) % TMPS));
			if (write_file(p, "0"))
				CHECK(errno == ENOENT || errno == EBUSY || errno == ENODEV,
				      "migrate to %s", p);
			break;
		case 1:
			read_ok(0);
			break;
		case 2:	/* fork + immediate exit */
			pid = fork();
			CHECK(pid >= 0, "fork");
			if (pid == 0)
				_exit(0);
			reap(pid);
			break;
		case 3:
			read_ok(workers[rand_r(&seed) % WORKERS]);
			break;
		case 4:
			CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare");
			break;
		case 5:
			r = rand_r(&seed) % 3;
			CHECK(setns(ns_fds[r], CLONE_NEWCGROUP) == 0, "setns %d", r);
			break;
		default:
			pid = clone_flags(CLONE_NEWCGROUP);
			CHECK(pid >= 0, "clone(CLONE_NEWCGROUP)");
			if (pid == 0) {
				char *s = cg2_path_of(0);

				/*
				 * Usually "/", but the mover may migrate us
				 * between taking the ns root and the fork's
				 * cgroup attach (upstream takes them under
				 * different locks): only require a sane path.
				 */
				_exit(s && s[0] == '/' ? 0 : 1);
			}
			reap(pid);
			break;
		}
	}
	pthread_join(th, NULL);
	_exit(0);
}

/* A mover in the init ns shuffling workers between the fixed slots */
static void mover(void)
{
	unsigned int seed = getpid();

	while (!over()) {
		int w = rand_r(&seed) % WORKERS;
		int r = cg_try_move(workers[w], (char[]){ 's', '0' + rand_r(&seed) % SLOTS, 0 });

		/* the worker may be gone (ESRCH) or mid-exit */
		CHECK(r == 0 || r == -ESRCH || r == -ENOENT, "mover: %d", r);
		usleep(2000);
	}
	_exit(0);
}

static pid_t start_holder(const char *rel)
{
	int p[2];
	pid_t pid;
	char c;

	CHECK(pipe(p) == 0, "pipe");
	cg_move(getpid(), rel);
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		CHECK(unshare(CLONE_NEWCGROUP) == 0, "holder unshare");
		CHECK(write(p[1], "x", 1) == 1, "write");
		pause();
		_exit(0);
	}
	cg_move_out(getpid());
	CHECK(read(p[0], &c, 1) == 1, "holder did not start");
	close(p[0]);
	close(p[1]);
	return pid;
}

static int duration(void)
{
	int total = 15;

	if (cgns_argc > 1 && atoi(cgns_argv[1]) > 0)
		total = atoi(cgns_argv[1]);
	return total;
}

static void stress(bool ns, int seconds)
{
	pid_t holders[2] = { 0, 0 }, mv;
	char name[16], home[PATH_MAX];
	int i, st;

	use_ns = ns;
	snprintf(home, sizeof(home), "%s", must_cg2_path_of(0));
	for (i = 0; i < SLOTS; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		cg_mkdir(name);
	}
	if (ns) {
		holders[0] = start_holder("s1");
		holders[1] = start_holder("s2");
		ns_fds[0] = openat(cgns_proc_fd, "self/ns/cgroup", O_RDONLY);
		for (i = 0; i < 2; i++) {
			char p[64];

			snprintf(p, sizeof(p), "%d/ns/cgroup", holders[i]);
			ns_fds[i + 1] = openat(cgns_proc_fd, p, O_RDONLY);
			CHECK(ns_fds[i + 1] >= 0, "open holder ns");
		}
	}
	deadline = time(NULL) + seconds;

	for (i = 0; i < WORKERS; i++) {
		snprintf(name, sizeof(name), "s%d", i % SLOTS);
		cg_move(getpid(), name);
		workers[i] = fork();
		CHECK(workers[i] >= 0, "fork worker");
		if (workers[i] == 0)
			worker(i);
	}
	cg_move_out(getpid());
	mv = fork();
	CHECK(mv >= 0, "fork mover");
	if (mv == 0)
		mover();

	/* every process must come back with status 0 */
	for (i = 0; i < WORKERS; i++) {
		CHECK(waitpid(workers[i], &st, 0) == workers[i], "reap worker %d", i);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "worker %d ended with status 0x%x", i, st);
	}
	CHECK(waitpid(mv, &st, 0) == mv && WIFEXITED(st) && !WEXITSTATUS(st),
	      "mover ended with status 0x%x", st);
	for (i = 0; i < 2; i++)
		if (holders[i]) {
			kill(holders[i], SIGKILL);
			CHECK(waitpid(holders[i], NULL, 0) == holders[i], "reap holder");
		}

	/* the kernel is still sane */
	CHECK_STR(must_cg2_path_of(0), home, "own cgroup at the end");
	for (i = 0; i < SLOTS; i++) {
		char p[64], buf[4096];

		snprintf(p, sizeof(p), "s%d/cgroup.procs", i);
		CHECK(read_file(cgp("%s", p), buf, sizeof(buf)) >= 0, "read %s", p);
		CHECK(buf[0] == '\0', "processes left in s%d: %s", i, buf);
	}
	if (ns) {
		pid_t pid = clone_flags(CLONE_NEWCGROUP);

		CHECK(pid >= 0, "clone after the stress");
		if (pid == 0)
			_exit(strcmp(cg2_path_of(0) ?: "", "/") != 0);
		reap(pid);
	}
}

static void race_ns(void)
{
	stress(true, duration() * 2 / 3 > 0 ? duration() * 2 / 3 : 1);
}

static void race_plain(void)
{
	stress(false, duration() / 3 > 0 ? duration() / 3 : 1);
}

static const struct cgns_case cases[] = {
	{ "race_plain", race_plain, 0, 200, NULL },
	{ "race_ns", race_ns, CGNS_NEED_NS, 200, NULL },
};

CGNS_MAIN(cases)
