// SPDX-License-Identifier: GPL-2.0
/*
 * Edge cases of /proc/<pid>/cgroup: paths longer than PATH_MAX (absolute
 * and as a long "/.." chain, also in delegated subtrees, bind mounts and
 * cgroupfs mounts of v2 and v1 named hierarchies, where mountinfo must
 * show them in full), zombies (also of deleted cgroups), threads and
 * threaded cgroups, each also seen from inside a cgroup namespace.
 */
#include "cgns_common.h"

#define LONG_LEVELS 20		/* 20 x 250 chars: well past PATH_MAX */
#define NAME_LEN 250
#define SIB_LEVELS 17		/* 17 x 251 = 4267 chars: just past PATH_MAX */

static char long_name[LONG_LEVELS][NAME_LEN + 1];

/*
 * Build @levels directories with 250-character names below the directory
 * @parent using *at() calls, so we never form a path longer than PATH_MAX
 * ourselves.  Level i is named after the letter 'a' + i.  Returns an fd
 * for each level in fds[] (caller closes).
 */
static void init_long_names(void)
{
	for (int i = 0; i < LONG_LEVELS; i++) {
		memset(long_name[i], 'a' + i % 26, NAME_LEN);
		long_name[i][NAME_LEN] = '\0';
	}
}

static void build_chain_at(int parent, int levels, int *fds)
{
	init_long_names();
	for (int i = 0; i < levels; i++) {
		CHECK(mkdirat(parent, long_name[i], 0755) == 0, "mkdir level %d", i);
		fds[i] = openat(parent, long_name[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		CHECK(fds[i] >= 0, "open level %d", i);
		parent = fds[i];
	}
}

/* <base>/L0/L1/... */
static void build_long_chain(int fds[LONG_LEVELS])
{
	int parent = open(cg_base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	CHECK(parent >= 0, "open base");
	build_chain_at(parent, LONG_LEVELS, fds);
}

/*
 * "<prefix>/<name from+1>/.../<name lvl>" in a ring of buffers; "/" when
 * both are empty.
 */
static char *chain_path(const char *prefix, int from, int lvl)
{
	static char ring[4][LONG_LEVELS * (NAME_LEN + 1) + 300];
	static int idx;
	char *buf = ring[idx++ & 3];
	size_t len;

	init_long_names();	/* the chain may have been built by a child */
	len = snprintf(buf, sizeof(ring[0]), "%s", prefix);
	for (int i = from + 1; i <= lvl; i++)
		len += snprintf(buf + len, sizeof(ring[0]) - len, "/%s", long_name[i]);
	if (!len)
		strcpy(buf, "/");
	return buf;
}

/* Host-view path of level @lvl (or relative from level @from) */
static char *long_path(int from, int lvl)
{
	return chain_path(from < 0 ? cg_base_rel : "", from, lvl);
}

static void move_fd(int dfd, pid_t pid)
{
	char s[32];

	snprintf(s, sizeof(s), "%d", pid);
	CHECK(write_at(dfd, "cgroup.procs", s) == 0, "move %d", pid);
}

/*
 * A line longer than PATH_MAX must read in full: the series prints paths
 * of any length.  Upstream 6.1 (and the base tree) truncate an absolute
 * path silently at PATH_MAX - 1 bytes: a deliberate difference, listed in
 * expect/stock and expect/base.
 */
static void check_long_read(pid_t pid, const char *hier, const char *full)
{
	char p[64];

	snprintf(p, sizeof(p), "/proc/%d/cgroup", pid);
	errno = 0;
	CHECK_LONG(cgroup_line_of(p, hier), full, p);
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
	check_long_read(pid, "", long_path(-1, LONG_LEVELS - 1));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * The process itself reading its own line (this case was
 * long_path_enametoolong while the v1 series failed such reads).
 */
static void long_path_full(void)
{
	int fds[LONG_LEVELS];
	char want[sizeof(long_name) + 300];

	build_long_chain(fds);
	snprintf(want, sizeof(want), "%s", long_path(-1, LONG_LEVELS - 1));
	move_fd(fds[LONG_LEVELS - 1], getpid());
	errno = 0;
	CHECK_LONG(cgroup_line_of("/proc/self/cgroup", ""), want, "own line");
	cg_move_out(getpid());
	/* still sane afterwards */
	CHECK_STR(must_cg2_path_of(0), "/", "own line back in the root");
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
 * root cgroup is "/.." repeated past PATH_MAX from there, and must read in
 * full.  Upstream fails the read with ENAMETOOLONG (deliberate difference).
 */
#define DEEP_LEVELS 1370

static int dotdot_member(void *arg)
{
	pid_t target = *(pid_t *)arg;
	char p[64], want[3 * (DEEP_LEVELS + 1) + 1];

	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare");
	CHECK_STR(must_cg2_path_of(0), "/", "own view at the deep root");
	/* the root cgroup from DEEP_LEVELS + 1 levels down */
	for (int i = 0; i <= DEEP_LEVELS; i++)
		memcpy(want + 3 * i, "/..", 3);
	want[3 * (DEEP_LEVELS + 1)] = '\0';
	snprintf(p, sizeof(p), "/proc/%d/cgroup", target);
	errno = 0;
	CHECK_LONG(cgroup_line_of(p, ""), want, p);
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

/* ------------------------------------------------------------------ */
/*
 * Long paths in delegated subtrees and in mounts, on cgroup2 and on a v1
 * named hierarchy (the runner's v1_mnt(), name v1_name()).
 */

static char v1_hier[96];	/* "name=<tag>" */

static void v1_mnt_cleanup(void)
{
	cgns_mnt_cleanup();
	v1_teardown();
}

/* Mount a fresh v1 named hierarchy at v1_mnt(); skip if v1 is off. */
static void v1_mount(void)
{
	snprintf(v1_hier, sizeof(v1_hier), "name=%s", v1_name());
	v1_mount_named();
}

/* The top of the hierarchy a case works in: <base> (v2) or the v1 root. */
static int top_fd(bool v1)
{
	int fd = open(v1 ? v1_mnt() : cg_base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	CHECK(fd >= 0, "open %s", v1 ? v1_mnt() : cg_base);
	return fd;
}

/* The v1 hierarchy's root cgroup.procs: where the case process goes back. */
static void v1_move_out(pid_t pid)
{
	char p[256], s[32];

	snprintf(p, sizeof(p), "%s/cgroup.procs", v1_mnt());
	snprintf(s, sizeof(s), "%d", pid);
	CHECK(write_file(p, s) == 0, "v1: moving %d to the root", pid);
}

/* Move the case process out again in the hierarchy of the case. */
static void move_out(bool v1)
{
	if (v1)
		v1_move_out(getpid());
	else
		cg_move_out(getpid());
}

/*
 * "d" below the top, delegated to nobody the way a container manager
 * does it: the directory and the files a delegatee writes (v2:
 * cgroup.procs, cgroup.threads, cgroup.subtree_control; v1: cgroup.procs,
 * tasks).  Returns an fd of d.
 */
static int delegate_d(bool v1)
{
	static const char *const v2_files[] = {
		"cgroup.procs", "cgroup.threads", "cgroup.subtree_control", NULL };
	static const char *const v1_files[] = { "cgroup.procs", "tasks", NULL };
	int top = top_fd(v1), d;

	CHECK(mkdirat(top, "d", 0755) == 0, "mkdir d");
	d = openat(top, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(d >= 0, "open d");
	CHECK(fchown(d, NOBODY, NOBODY) == 0, "chown d");
	for (const char *const *f = v1 ? v1_files : v2_files; *f; f++)
		CHECK(fchownat(d, *f, NOBODY, NOBODY, 0) == 0, "chown d/%s", *f);
	close(top);
	return d;
}

struct delegatee {
	bool v1;
	bool bind;	/* bind-mount the bottom in own user+mount ns */
	int d;		/* fd of the delegated directory */
};

/*
 * nobody, starting in d: builds a chain of LONG_LEVELS 250-character
 * names below d; then either moves itself to the bottom, or, in its own
 * user+mount namespace, bind-mounts the bottom onto cgns_mnt().
 */
static int delegatee_fn(void *arg)
{
	struct delegatee *dl = arg;
	int fds[LONG_LEVELS];

	drop_to_nobody();
	build_chain_at(dl->d, LONG_LEVELS, fds);
	if (!dl->bind) {
		CHECK(write_at(fds[LONG_LEVELS - 1], "cgroup.procs", "0") == 0,
		      "nobody moving itself to the bottom of its chain");
	} else {
		/* before unshare: the new mount ns gets our cwd translated */
		CHECK(fchdir(fds[LONG_LEVELS - 1]) == 0, "chdir to the bottom");
		CHECK(unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0,
		      "unshare(NEWUSER|NEWNS) as nobody");
		map_self_as_root(NOBODY, NOBODY);
		make_mounts_private();
		CHECK(mount(".", cgns_mnt(), NULL, MS_BIND, NULL) == 0,
		      "bind-mount the bottom onto %s", cgns_mnt());
	}
	h_send(0);
	h_recv();
	return 0;
}

static struct helper start_delegatee(struct delegatee *dl)
{
	struct helper h;

	dl->d = delegate_d(dl->v1);
	/* the delegatee starts in d: moves within d need only d's files */
	move_fd(dl->d, getpid());
	h = spawn(delegatee_fn, dl);
	move_out(dl->v1);
	c_recv(&h);
	return h;
}

/*
 * An unprivileged user in its delegated subtree, deeper than PATH_MAX;
 * root in the initial namespaces reads its /proc/<pid>/cgroup: the whole
 * path.  Upstream truncates it (deliberate difference).
 */
static void long_path_deleg(bool v1)
{
	struct delegatee dl = { .v1 = v1 };
	char want[sizeof(long_name) + 300];
	struct helper h;

	if (v1)
		v1_mount();
	h = start_delegatee(&dl);
	snprintf(want, sizeof(want), "%s",
		 chain_path(v1 ? "/d" : hostp("d"), -1, LONG_LEVELS - 1));
	check_long_read(h.pid, v1 ? v1_hier : "", want);
	c_send(&h, 0);
	finish(&h);
}

static void long_path_deleg_v2(void)
{
	long_path_deleg(false);
}

static void long_path_deleg_v1(void)
{
	long_path_deleg(true);
}

/*
 * The same user bind-mounts its cgroup directory deeper than PATH_MAX in
 * its own user+mount namespace; root reads that namespace's mountinfo:
 * the root field is the whole path.  (No name needs mountinfo's \ooo
 * escapes.)  Upstream truncates it (deliberate difference).
 */
static void long_bind_mountinfo(bool v1)
{
	struct delegatee dl = { .v1 = v1, .bind = true };
	char want[sizeof(long_name) + 300], p[64];
	struct helper h;

	if (v1)
		v1_mount();
	CHECK(mkdir(cgns_mnt(), 0755) == 0, "mkdir %s", cgns_mnt());
	h = start_delegatee(&dl);
	snprintf(want, sizeof(want), "%s",
		 chain_path(v1 ? "/d" : hostp("d"), -1, LONG_LEVELS - 1));
	snprintf(p, sizeof(p), "/proc/%d/mountinfo", h.pid);
	errno = 0;
	CHECK_LONG(mountinfo_root_in(p, cgns_mnt()), want, "root field of the bind mount");
	c_send(&h, 0);
	finish(&h);
}

static void long_bind_mountinfo_v2(void)
{
	long_bind_mountinfo(false);
}

static void long_bind_mountinfo_v1(void)
{
	long_bind_mountinfo(true);
}

/* A cgroupfs mount made inside a cgroupns: cgroup2, or the v1 hierarchy */
static void mount_cgroupfs(bool v1)
{
	char opts[128];

	CHECK(unshare(CLONE_NEWCGROUP | CLONE_NEWNS) == 0, "unshare(NEWCGROUP|NEWNS)");
	make_mounts_private();
	snprintf(opts, sizeof(opts), "none,name=%s", v1_name());
	if (v1)
		CHECK(mount("cgns", cgns_mnt(), "cgroup", 0, opts) == 0, "mount -t cgroup -o %s", opts);
	else
		CHECK(mount("none", cgns_mnt(), "cgroup2", 0, NULL) == 0, "mount cgroup2");
}

static int sibling_mounter(void *arg)
{
	mount_cgroupfs(*(bool *)arg);
	h_send(0);
	h_recv();
	return 0;
}

/* Reads the mounter's mountinfo from a sibling ns; want: global below. */
static char sib_want[sizeof(long_name) + 300];

static int sibling_reader(void *arg)
{
	char p[64];

	(void)arg;
	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare");
	h_send(0);
	snprintf(p, sizeof(p), "/proc/%ld/mountinfo", h_recv());
	errno = 0;
	CHECK_LONG(mountinfo_root_in(p, cgns_mnt()), sib_want,
		   "root field from the sibling ns");
	h_send(0);
	return 0;
}

/*
 * A mount made from a cgroupns rooted SIB_LEVELS names (about 4.3 KB)
 * down <top>/L0/.../L16, read from a sibling ns rooted at <top>/s: the
 * root field is "/.." and the chain, longer than PATH_MAX.  Upstream
 * truncates it (deliberate difference).
 */
static void long_mount_sibling(bool v1)
{
	int top, fds[SIB_LEVELS];
	struct helper m, r;
	char want_init[sizeof(long_name) + 300], p[64];

	if (v1)
		v1_mount();
	CHECK(mkdir(cgns_mnt(), 0755) == 0, "mkdir %s", cgns_mnt());
	top = top_fd(v1);
	CHECK(mkdirat(top, "s", 0755) == 0, "mkdir s");
	build_chain_at(top, SIB_LEVELS, fds);
	snprintf(sib_want, sizeof(sib_want), "%s", chain_path("/..", -1, SIB_LEVELS - 1));
	snprintf(want_init, sizeof(want_init), "%s",
		 chain_path(v1 ? "" : cg_base_rel, -1, SIB_LEVELS - 1));
	CHECK(strlen(sib_want) > PATH_MAX, "chain too short");

	move_fd(fds[SIB_LEVELS - 1], getpid());
	m = spawn(sibling_mounter, &v1);
	move_out(v1);
	c_recv(&m);
	{
		int s = openat(top, "s", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		CHECK(s >= 0, "open s");
		move_fd(s, getpid());
		r = spawn(sibling_reader, NULL);
		move_out(v1);
		close(s);
	}
	c_recv(&r);
	c_send(&r, m.pid);
	c_recv(&r);
	finish(&r);
	/* the same mount from the initial ns: the absolute path, in full */
	snprintf(p, sizeof(p), "/proc/%d/mountinfo", m.pid);
	errno = 0;
	CHECK_LONG(mountinfo_root_in(p, cgns_mnt()), want_init, "root field from the initial ns");
	c_send(&m, 0);
	finish(&m);
}

static void long_mount_sibling_v2(void)
{
	long_mount_sibling(false);
}

static void long_mount_sibling_v1(void)
{
	long_mount_sibling(true);
}

/*
 * Mounting from a cgroupns rooted LONG_LEVELS names (about 5 KB) down
 * works, and the mount's root is the ns root: its child "marker" at the
 * top, our pid in its cgroup.procs, "/" as mountinfo root from inside.
 */
static int deep_mounter(void *arg)
{
	bool v1 = *(bool *)arg;
	int d;

	mount_cgroupfs(v1);
	h_send(0);
	h_recv();	/* the case process has left the ns root */
	d = open(cgns_mnt(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(d >= 0, "open mount");
	CHECK(faccessat(d, "marker", F_OK, 0) == 0, "the ns root's child 'marker' not at the top");
	CHECK(faccessat(d, long_name[0], F_OK, 0), "the hierarchy's top level is visible");
	if (v1)
		CHECK(faccessat(d, "release_agent", F_OK, 0), "v1: top is the real root");
	else
		CHECK(faccessat(d, "cgroup.events", F_OK, 0) == 0, "top is the root cgroup");
	{
		char buf[4096], want[32];

		CHECK(read_at(d, "cgroup.procs", buf, sizeof(buf)) >= 0, "read cgroup.procs");
		snprintf(want, sizeof(want), "%d\n", getpid());
		CHECK_STR(buf, want, "cgroup.procs at the top of the mount");
	}
	CHECK_STR(mountinfo_root(cgns_mnt()), "/", "mountinfo root from inside");
	CHECK_STR(cgroup_line_of("/proc/self/cgroup", v1 ? v1_hier : ""), "/", "own view");
	return 0;
}

static void deep_ns_mount(bool v1)
{
	int top, fds[LONG_LEVELS];
	struct helper h;

	if (v1) {
		v1_mount();
	}
	CHECK(mkdir(cgns_mnt(), 0755) == 0, "mkdir %s", cgns_mnt());
	top = top_fd(v1);
	build_chain_at(top, LONG_LEVELS, fds);
	CHECK(mkdirat(fds[LONG_LEVELS - 1], "marker", 0755) == 0, "mkdir marker");
	move_fd(fds[LONG_LEVELS - 1], getpid());
	h = spawn(deep_mounter, &v1);
	move_out(v1);
	c_recv(&h);
	c_send(&h, 0);
	finish(&h);
}

static void deep_ns_mount_v2(void)
{
	deep_ns_mount(false);
}

static void deep_ns_mount_v1(void)
{
	deep_ns_mount(true);
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
	CASE(long_path_full, 0),
	CASE(long_path_ns_view, CGNS_NEED_NS),
	{ "deep_dotdot_chain", deep_dotdot_chain, CGNS_NEED_NS, 240, NULL },
	CASE(long_path_deleg_v2, 0),
	{ "long_path_deleg_v1", long_path_deleg_v1, 0, 0, v1_teardown },
	{ "long_bind_mountinfo_v2", long_bind_mountinfo_v2, 0, 0, cgns_mnt_cleanup },
	{ "long_bind_mountinfo_v1", long_bind_mountinfo_v1, 0, 0, v1_mnt_cleanup },
	{ "long_mount_sibling_v2", long_mount_sibling_v2, CGNS_NEED_NS, 0, cgns_mnt_cleanup },
	{ "long_mount_sibling_v1", long_mount_sibling_v1, CGNS_NEED_NS, 0, v1_mnt_cleanup },
	{ "deep_ns_mount_v2", deep_ns_mount_v2, CGNS_NEED_NS, 0, cgns_mnt_cleanup },
	{ "deep_ns_mount_v1", deep_ns_mount_v1, CGNS_NEED_NS, 0, v1_mnt_cleanup },
	CASE(zombie_init_view, 0),
	CASE(zombie_ns_view, CGNS_NEED_NS),
	CASE(threads_init_view, 0),
	CASE(threads_ns_view, CGNS_NEED_NS),
};

CGNS_MAIN(cases)
