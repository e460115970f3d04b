// SPDX-License-Identifier: GPL-2.0
/*
 * Edge cases of /proc/<pid>/cgroup: paths longer than PATH_MAX (absolute
 * and as a long "/.." chain), zombies (also of deleted cgroups), threads
 * and threaded cgroups, each also seen from inside a cgroup namespace.
 */
#include "cgns_common.h"

#define LONG_LEVELS 20		/* 20 x 250 chars: well past PATH_MAX */
#define NAME_LEN 250

static char long_name[LONG_LEVELS][NAME_LEN + 1];

/*
 * Build <base>/L0/L1/... with 250-character names using *at() calls, so we
 * never form a path longer than PATH_MAX ourselves.  Returns an fd for
 * each level in fds[] (caller closes).
 */
static void build_long_chain(int fds[LONG_LEVELS])
{
	int parent = open(cg_base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	CHECK(parent >= 0, "open base");
	for (int i = 0; i < LONG_LEVELS; i++) {
		memset(long_name[i], 'a' + i % 26, NAME_LEN);
		long_name[i][NAME_LEN] = '\0';
		CHECK(mkdirat(parent, long_name[i], 0755) == 0, "mkdir level %d", i);
		fds[i] = openat(parent, long_name[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		CHECK(fds[i] >= 0, "open level %d", i);
		parent = fds[i];
	}
}

/* Host-view path of level @lvl (and optionally relative from level @from) */
static char *long_path(int from, int lvl)
{
	static char buf[LONG_LEVELS * (NAME_LEN + 1) + 300];
	size_t len = 0;

	if (from < 0)
		len = snprintf(buf, sizeof(buf), "%s", cg_base_rel);
	for (int i = from + 1; i <= lvl; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "/%s", long_name[i]);
	if (!len)
		strcpy(buf, "/");
	return buf;
}

static void move_fd(int dfd, pid_t pid)
{
	char s[32];

	snprintf(s, sizeof(s), "%d", pid);
	CHECK(write_at(dfd, "cgroup.procs", s) == 0, "move %d", pid);
}

/*
 * Reading a line that cannot fit PATH_MAX: upstream 6.1 truncates the
 * absolute path silently, other kernels report ENAMETOOLONG.  Either is
 * fine; a wrong text, another error, a crash or a hang is not.
 */
static void check_long_read(pid_t pid, const char *full)
{
	char p[64];
	char *s;

	snprintf(p, sizeof(p), "/proc/%d/cgroup", pid);
	s = cgroup_line_of(p, "");
	if (!s) {
		CHECK(errno == ENAMETOOLONG, "reading %s: unexpected error", p);
		return;
	}
	CHECK(strlen(s) < PATH_MAX, "line longer than PATH_MAX");
	CHECK(!strncmp(s, full, strlen(s)) && strlen(s) > strlen(cg_base_rel),
	      "long line is not a prefix of the real path");
}

/* Not a namespace case: a process deeper than PATH_MAX, init view */
static void long_path_init_view(void)
{
	int fds[LONG_LEVELS];
	pid_t pid;

	build_long_chain(fds);
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		pause();
		_exit(0);
	}
	move_fd(fds[LONG_LEVELS - 1], pid);
	check_long_read(pid, long_path(-1, LONG_LEVELS - 1));
	/* the process itself reading its own line */
	move_fd(fds[LONG_LEVELS - 1], getpid());
	check_long_read(getpid(), long_path(-1, LONG_LEVELS - 1));
	cg_move_out(getpid());
	/* still sane afterwards */
	CHECK(must_cg2_path_of(0), "read own cgroup");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * What this series does (patch 4/8, "cgroup: add cgroup_path_from()"): a
 * line that cannot fit is an error, never a silently truncated path.
 * Upstream 6.1 and the base tree truncate: a deliberate difference, listed
 * in expect/stock and expect/base.
 */
static void long_path_enametoolong(void)
{
	int fds[LONG_LEVELS];
	char *s;

	build_long_chain(fds);
	move_fd(fds[LONG_LEVELS - 1], getpid());
	errno = 0;
	s = cgroup_line_of("/proc/self/cgroup", "");
	cg_move_out(getpid());
	CHECK(!s, "read a line of %zu bytes instead of failing", s ? strlen(s) : 0);
	CHECK(errno == ENAMETOOLONG, "errno %d instead of ENAMETOOLONG", errno);
}

/* Inside a namespace rooted deep down, the same cgroups read short. */
static int deep_member(void *arg)
{
	int *fds = arg;
	char want[PATH_MAX];

	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare");
	/* rooted at level 9: our cgroup (level 19) is 10 names below */
	snprintf(want, sizeof(want), "%s", long_path(9, LONG_LEVELS - 1));
	move_fd(fds[LONG_LEVELS - 1], 0);
	CHECK_STR(must_cg2_path_of(0), want, "own view, 10 levels below the root");
	/* the ns root itself reads "/" */
	move_fd(fds[9], 0);
	CHECK_STR(must_cg2_path_of(0), "/", "own view at the root");
	return 0;
}

static void long_path_ns_view(void)
{
	int fds[LONG_LEVELS];
	struct helper h;

	build_long_chain(fds);
	move_fd(fds[9], getpid());
	h = spawn(deep_member, fds);
	cg_move_out(getpid());
	finish(&h);
}

/*
 * A namespace rooted more than PATH_MAX/3 levels down: a process in the
 * root cgroup is "/.." repeated past PATH_MAX from there.  Upstream fails
 * the read with ENAMETOOLONG; a complete correct answer is fine too.
 */
#define DEEP_LEVELS 1370

static int dotdot_member(void *arg)
{
	pid_t target = *(pid_t *)arg;
	char p[64], *s;

	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare");
	CHECK_STR(must_cg2_path_of(0), "/", "own view at the deep root");
	snprintf(p, sizeof(p), "/proc/%d/cgroup", target);
	s = cgroup_line_of(p, "");
	if (!s) {
		CHECK(errno == ENAMETOOLONG, "reading %s: unexpected error", p);
	} else {
		/* root cgroup from DEEP_LEVELS+1 levels down */
		size_t n = strlen(s);

		CHECK(n == 3 * (DEEP_LEVELS + 1), "got %zu bytes of /.. chain", n);
		for (size_t i = 0; i < n; i += 3)
			CHECK(!strncmp(s + i, "/..", 3), "not a /.. chain");
	}
	/* and nothing broke: own view still readable */
	CHECK_STR(must_cg2_path_of(0), "/", "own view afterwards");
	return 0;
}

static void deep_dotdot_chain(void)
{
	int fd = open(cg_base, O_RDONLY | O_DIRECTORY | O_CLOEXEC), next;
	pid_t me = getpid();
	struct helper h;

	CHECK(fd >= 0, "open base");
	CHECK_STR(must_cg2_path_of(0), "/", "case process is not in the root cgroup");
	for (int i = 0; i < DEEP_LEVELS; i++) {
		CHECK(mkdirat(fd, "d", 0755) == 0, "mkdir level %d", i);
		next = openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		CHECK(next >= 0, "open level %d", i);
		close(fd);
		fd = next;
	}
	move_fd(fd, me);
	h = spawn(dotdot_member, &me);
	cg_move_out(me);
	finish(&h);
	close(fd);
}

/* Not a namespace case: zombies keep their cgroup, "(deleted)" once gone */
static void zombie_init_view(void)
{
	siginfo_t si;
	pid_t z;

	cg_mkdir("a");
	cg_move(getpid(), "a");
	z = fork();
	CHECK(z >= 0, "fork");
	if (z == 0)
		_exit(0);
	cg_move_out(getpid());
	CHECK(waitid(P_PID, z, &si, WEXITED | WNOWAIT) == 0, "waitid");
	CHECK_STR(must_cg2_path_of(z), hostp("a"), "zombie's cgroup");
	/* a zombie does not populate: the cgroup can go */
	CHECK(rmdir(cgp("a")) == 0, "rmdir a cgroup with only a zombie");
	{
		char want[PATH_MAX];

		snprintf(want, sizeof(want), "%s (deleted)", hostp("a"));
		CHECK_STR(must_cg2_path_of(z), want, "zombie of a deleted cgroup");
	}
	CHECK(waitpid(z, NULL, 0) == z, "reap");
}

/* A zombie seen from a sibling namespace, before and after rmdir */
static void zombie_ns_view(void)
{
	struct helper o;
	siginfo_t si;
	pid_t z;

	cg_mkdir("a");
	cg_mkdir("b");
	o = member_in("b");
	cg_move(getpid(), "a");
	z = clone_flags(CLONE_NEWCGROUP);	/* the zombie had its own ns */
	CHECK(z >= 0, "clone");
	if (z == 0)
		_exit(0);
	cg_move_out(getpid());
	CHECK(waitid(P_PID, z, &si, WEXITED | WNOWAIT) == 0, "waitid");
	CHECK_STR(view_from(&o, z), "/../a", "zombie from ns at b");
	CHECK(rmdir(cgp("a")) == 0, "rmdir");
	CHECK_STR(view_from(&o, z), "/../a (deleted)", "zombie of a deleted cgroup");
	CHECK(waitpid(z, NULL, 0) == z, "reap");
	member_stop(&o);
}

/* Threads: per-thread files, plain and in a threaded subtree */
struct tctx {
	pid_t tid;
	int go;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void *idle_thread(void *arg)
{
	struct tctx *t = arg;

	pthread_mutex_lock(&t->mu);
	t->tid = gettid();
	pthread_cond_broadcast(&t->cv);
	while (!t->go)
		pthread_cond_wait(&t->cv, &t->mu);
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

/*
 * A process with one extra thread; it unshares first if asked.  The case
 * process moves the thread into a threaded child "a/t"; then we compare
 * the per-task lines with the expected texts sent in the shared page.
 */
static int threaded_proc(void *arg)
{
	bool ns = *(bool *)arg;
	struct tctx t = { 0, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };
	pthread_t th;
	char p[128];

	if (ns)
		CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare");
	CHECK(pthread_create(&th, NULL, idle_thread, &t) == 0, "pthread_create");
	pthread_mutex_lock(&t.mu);
	while (!t.tid)
		pthread_cond_wait(&t.cv, &t.mu);
	pthread_mutex_unlock(&t.mu);

	snprintf(p, sizeof(p), "/proc/self/task/%d/cgroup", t.tid);
	CHECK_STR(cgroup_line_of(p, ""), ns ? "/" : hostp("a"), "thread before the move");
	h_send(t.tid);
	h_recv();	/* thread moved to a/t */
	CHECK_STR(cgroup_line_of(p, ""), ns ? "/t" : hostp("a/t"), "thread in a/t");
	snprintf(p, sizeof(p), "/proc/self/task/%d/cgroup", getpid());
	CHECK_STR(cgroup_line_of(p, ""), ns ? "/" : hostp("a"), "leader stays in a");
	CHECK_STR(must_cg2_path_of(0), ns ? "/" : hostp("a"), "/proc/self/cgroup (leader)");

	pthread_mutex_lock(&t.mu);
	t.go = 1;
	pthread_cond_broadcast(&t.cv);
	pthread_mutex_unlock(&t.mu);
	pthread_join(th, NULL);
	return 0;
}

static void threads(bool ns)
{
	char p[128], s[32];
	struct helper h;
	pid_t tid;

	cg_mkdir("a");
	cg_mkdir("a/t");
	CHECK(write_file(cgp("a/t/cgroup.type"), "threaded") == 0, "make a/t threaded");
	cg_move(getpid(), "a");
	h = spawn(threaded_proc, &ns);
	cg_move_out(getpid());
	tid = c_recv(&h);
	snprintf(s, sizeof(s), "%d", tid);
	CHECK(write_file(cgp("a/t/cgroup.threads"), s) == 0, "move thread %d to a/t", tid);
	snprintf(p, sizeof(p), "/proc/%d/task/%d/cgroup", h.pid, tid);
	CHECK_STR(cgroup_line_of(p, ""), hostp("a/t"), "init view of the thread");
	c_send(&h, 0);
	finish(&h);
}

static void threads_init_view(void)
{
	threads(false);
}

static void threads_ns_view(void)
{
	threads(true);
}

static const struct cgns_case cases[] = {
	CASE(long_path_init_view, 0),
	CASE(long_path_enametoolong, 0),
	CASE(long_path_ns_view, CGNS_NEED_NS),
	{ "deep_dotdot_chain", deep_dotdot_chain, CGNS_NEED_NS, 240, NULL },
	CASE(zombie_init_view, 0),
	CASE(zombie_ns_view, CGNS_NEED_NS),
	CASE(threads_init_view, 0),
	CASE(threads_ns_view, CGNS_NEED_NS),
};

CGNS_MAIN(cases)
