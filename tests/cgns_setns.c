// SPDX-License-Identifier: GPL-2.0
/*
 * setns() into cgroup namespaces (behaviour 5 and its upgrades): allowed
 * with CAP_SYS_ADMIN over the caller's user ns and over the target ns
 * owner, EPERM otherwise, EINVAL on type mismatches, works through pidfds,
 * and never migrates the caller to another cgroup.
 */
#include "cgns_common.h"

/* A member rooted at <base>/h; its ns file is what we setns into. */
static struct helper holder(void)
{
	cg_mkdir("h");
	return member_in("h");
}

static int open_ns(pid_t pid)
{
	char p[64];
	int fd;

	snprintf(p, sizeof(p), "/proc/%d/ns/cgroup", pid);
	fd = openat(cgns_proc_fd, p + 6, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0, "open %s", p);
	return fd;
}

/* Privileged setns: the view changes, the cgroup does not */
static int joiner(void *arg)
{
	int fd = *(int *)arg, init_fd;
	pid_t pid;

	init_fd = open_ns(getpid());
	CHECK(setns(fd, CLONE_NEWCGROUP) == 0, "setns(cgroupns fd, CLONE_NEWCGROUP)");
	CHECK_STR(must_cg2_path_of(0), "/../c", "view after setns");
	h_send(ns_ino("/proc/self/ns/cgroup"));
	h_recv();	/* the case process checked the host view */

	/* children inherit the joined namespace */
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		CHECK_STR(must_cg2_path_of(0), "/../c", "child's view");
		_exit(0);
	}
	reap(pid);

	/* moved into the ns root by someone else: now "/" */
	h_send(0);
	h_recv();
	CHECK_STR(must_cg2_path_of(0), "/", "view after being moved to the root");

	/* and back to the initial ns: the absolute path again */
	CHECK(setns(init_fd, CLONE_NEWCGROUP) == 0, "setns back to the initial ns");
	CHECK_STR(must_cg2_path_of(0), hostp("h"), "view back in the initial ns");
	return 0;
}

static void setns_priv(void)
{
	struct helper h = holder(), j;
	ino_t hino = ns_ino_pid(h.pid);
	int fd = open_ns(h.pid);

	cg_mkdir("c");
	cg_move(getpid(), "c");
	j = spawn(joiner, &fd);
	cg_move_out(getpid());
	CHECK((ino_t)c_recv(&j) == hino, "joined ns is not the holder's");
	/* no implicit migration: same cgroup in the host view */
	CHECK_STR(must_cg2_path_of(j.pid), hostp("c"), "host view after setns");
	CHECK(procs_has(cgp("c"), j.pid), "joiner no longer in c/cgroup.procs");
	CHECK(!procs_has(cgp("h"), j.pid), "joiner appeared in h/cgroup.procs");
	c_send(&j, 0);
	c_recv(&j);
	cg_move(j.pid, "h");
	c_send(&j, 0);
	finish(&j);
	member_stop(&h);
}

/* Dedicated check of "no implicit migration", also for the children */
static void no_implicit_migration(void)
{
	struct helper h = holder();
	int fd = open_ns(h.pid);
	int p[2];
	pid_t pid;
	char c;

	cg_mkdir("c");
	CHECK(pipe(p) == 0, "pipe");
	cg_move(getpid(), "c");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		close(p[0]);
		CHECK(setns(fd, CLONE_NEWCGROUP) == 0, "setns");
		CHECK(write(p[1], "x", 1) == 1, "write");
		pause();
		_exit(0);
	}
	close(p[1]);
	cg_move_out(getpid());
	CHECK(read(p[0], &c, 1) == 1, "child did not reach setns");
	CHECK(ns_ino_pid(pid) == ns_ino_pid(h.pid), "child not in the holder's ns");
	CHECK_STR(must_cg2_path_of(pid), hostp("c"), "host view of the child");
	CHECK(procs_has(cgp("c"), pid), "child missing from c/cgroup.procs");
	CHECK(!procs_has(cgp("h"), pid), "child listed in h/cgroup.procs");
	/* the holder sees the child relative to its root */
	CHECK_STR(view_from(&h, pid), "/../c", "child seen from the holder's ns");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	member_stop(&h);
}

/* Unprivileged caller: EPERM, and nothing changes */
static void setns_unpriv_eperm(void)
{
	struct helper h = holder();
	int fd = open_ns(h.pid);
	pid_t pid;

	cg_mkdir("c");
	cg_move(getpid(), "c");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		ino_t before = ns_ino("/proc/self/ns/cgroup");

		drop_to_nobody();
		CHECK_ERR(setns(fd, CLONE_NEWCGROUP), EPERM, "setns as nobody");
		CHECK_ERR(setns(fd, 0), EPERM, "setns(fd, 0) as nobody");
		CHECK(ns_ino("/proc/self/ns/cgroup") == before, "ns changed");
		CHECK_STR(must_cg2_path_of(0), hostp("c"), "view changed");
		_exit(0);
	}
	reap(pid);
	member_stop(&h);
}

/*
 * Caller has CAP_SYS_ADMIN in its own (new) user ns but not over the
 * target ns owner (the initial user ns): EPERM.
 */
static void setns_foreign_owner_eperm(void)
{
	struct helper h = holder();
	int fd = open_ns(h.pid);
	pid_t pid;

	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		CHECK(unshare(CLONE_NEWUSER) == 0, "unshare(CLONE_NEWUSER)");
		CHECK_ERR(setns(fd, CLONE_NEWCGROUP), EPERM,
			  "setns into a cgroupns owned by the init userns");
		/* with the same caps, a ns of our own user ns is fine */
		CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare in own userns");
		_exit(0);
	}
	reap(pid);
	member_stop(&h);
}

/* Target owned by a sibling user ns: EPERM; from the init userns: fine */

static void setns_sibling_userns_eperm(void)
{
	struct helper h;
	pid_t pid;
	int fd;

	cg_mkdir("h");
	cg_move(getpid(), "h");
	h = spawn(userns_cgns_holder, NULL);
	cg_move_out(getpid());
	c_recv(&h);
	fd = open_ns(h.pid);

	/* root of the initial userns is privileged over its descendants */
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		char want[PATH_MAX];

		/* computed before setns, while we still see absolute paths */
		snprintf(want, sizeof(want), "%s",
			 rel_path(hostp("h"), must_cg2_path_of(0)));
		CHECK(setns(fd, CLONE_NEWCGROUP) == 0, "setns from the init userns");
		CHECK_STR(must_cg2_path_of(0), want, "view after setns");
		_exit(0);
	}
	reap(pid);

	/* ... but not from a sibling user ns */
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		CHECK(unshare(CLONE_NEWUSER) == 0, "unshare(CLONE_NEWUSER)");
		CHECK_ERR(setns(fd, CLONE_NEWCGROUP), EPERM,
			  "setns into a cgroupns of a sibling userns");
		_exit(0);
	}
	reap(pid);
	c_send(&h, 0);
	finish(&h);
}

/* Unprivileged user with its own user ns: may switch between its own ns */
static void setns_own_userns(void)
{
	pid_t pid;

	cg_mkdir("u");
	cg_move(getpid(), "u");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		int init_fd, fd2;

		init_fd = open_ns(getpid());
		drop_to_nobody();
		CHECK(unshare(CLONE_NEWUSER | CLONE_NEWCGROUP) == 0, "unshare");
		fd2 = open_ns(getpid());
		CHECK(unshare(CLONE_NEWCGROUP) == 0, "second unshare");
		CHECK(setns(fd2, CLONE_NEWCGROUP) == 0, "setns back to own first ns");
		CHECK(ns_ino("/proc/self/ns/cgroup") != 0, "stat ns");
		CHECK_STR(must_cg2_path_of(0), "/", "view");
		/* the initial cgroupns is owned by the init userns: refused */
		CHECK_ERR(setns(init_fd, CLONE_NEWCGROUP), EPERM, "setns to the initial ns");
		_exit(0);
	}
	reap(pid);
}

/* A cgroupns fd with another nstype, another ns fd with CLONE_NEWCGROUP */
static void setns_einval_nstype(void)
{
	struct helper h = holder();
	int fd = open_ns(h.pid), uts;
	ino_t before = ns_ino("/proc/self/ns/cgroup");

	uts = openat(cgns_proc_fd, "self/ns/uts", O_RDONLY | O_CLOEXEC);
	CHECK(uts >= 0, "open uts ns");
	CHECK_ERR(setns(fd, CLONE_NEWUTS), EINVAL, "cgroupns fd with CLONE_NEWUTS");
	CHECK_ERR(setns(fd, CLONE_NEWNS), EINVAL, "cgroupns fd with CLONE_NEWNS");
	CHECK_ERR(setns(fd, CLONE_NEWUSER), EINVAL, "cgroupns fd with CLONE_NEWUSER");
	CHECK_ERR(setns(uts, CLONE_NEWCGROUP), EINVAL, "uts fd with CLONE_NEWCGROUP");
	CHECK(ns_ino("/proc/self/ns/cgroup") == before, "ns changed by a failed setns");
	/* nstype 0 means "any": accepted */
	CHECK(setns(fd, 0) == 0, "setns(cgroupns fd, 0)");
	CHECK(ns_ino("/proc/self/ns/cgroup") == ns_ino_pid(h.pid), "not joined");
	member_stop(&h);
}

/* Not a namespace case: fds that are no namespace are refused everywhere */
static void setns_einval_not_ns_fd(void)
{
	int uts = openat(cgns_proc_fd, "self/ns/uts", O_RDONLY | O_CLOEXEC);
	int file = openat(cgns_proc_fd, "self/cgroup", O_RDONLY | O_CLOEXEC);

	CHECK(uts >= 0 && file >= 0, "open");
	CHECK_ERR(setns(file, CLONE_NEWCGROUP), EINVAL, "regular file, CLONE_NEWCGROUP");
	CHECK_ERR(setns(file, 0), EINVAL, "regular file, 0");
	CHECK_ERR(setns(uts, CLONE_NEWCGROUP), EINVAL, "uts ns fd, CLONE_NEWCGROUP");
	CHECK_ERR(setns(-1, CLONE_NEWCGROUP), EBADF, "bad fd");
}

/* setns(pidfd, CLONE_NEWCGROUP) */
static void setns_pidfd(void)
{
	struct helper h = holder();
	int pidfd;
	pid_t pid;

	pidfd = sys_pidfd_open(h.pid, 0);
	if (pidfd < 0 && errno == ENOSYS)
		cgns_skip("no pidfd_open()");
	CHECK(pidfd >= 0, "pidfd_open");
	cg_mkdir("c");
	cg_move(getpid(), "c");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		CHECK(setns(pidfd, CLONE_NEWCGROUP) == 0, "setns(pidfd, CLONE_NEWCGROUP)");
		CHECK(ns_ino("/proc/self/ns/cgroup") == ns_ino_pid(h.pid),
		      "not in the target's cgroupns");
		CHECK_STR(must_cg2_path_of(0), "/../c", "view after pidfd setns");
		/* combined with another type: both switch together */
		CHECK(setns(pidfd, CLONE_NEWCGROUP | CLONE_NEWUTS) == 0,
		      "setns(pidfd, CLONE_NEWCGROUP|CLONE_NEWUTS)");
		_exit(0);
	}
	reap(pid);
	cg_move_out(getpid());

	/* unprivileged: EPERM */
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		drop_to_nobody();
		CHECK_ERR(setns(pidfd, CLONE_NEWCGROUP), EPERM, "pidfd setns as nobody");
		_exit(0);
	}
	reap(pid);

	/* an exited target: ESRCH */
	member_stop(&h);
	CHECK_ERR(setns(pidfd, CLONE_NEWCGROUP), ESRCH, "pidfd of an exited process");
}

/*
 * setns(CLONE_NEWCGROUP) needs CAP_SYS_ADMIN in two places: in the
 * caller's own user ns, and over the user ns owning the target cgroupns.
 * The next two cases each take one of them away and keep the other, then
 * show with a control that the one kept is really there.
 */

/* nobody's own user ns + cgroupns, rooted at <base>/h; the owner is nobody */
static int nobody_holder(void *arg)
{
	(void)arg;
	drop_to_nobody();
	CHECK(unshare(CLONE_NEWUSER | CLONE_NEWCGROUP) == 0,
	      "unshare(CLONE_NEWUSER|CLONE_NEWCGROUP) as nobody");
	h_send(0);
	h_recv();
	return 0;
}

static struct helper nobody_holder_in_h(void)
{
	struct helper h;

	cg_mkdir("h");
	cg_move(getpid(), "h");
	h = spawn(nobody_holder, NULL);
	cg_move_out(getpid());
	c_recv(&h);
	return h;
}

/*
 * (a) Over the target's owner, but not in the caller's own user ns:
 * nobody in the initial user ns is the owner of the holder's user ns (so
 * it has CAP_SYS_ADMIN there) and has no capability in its own: EPERM.
 * Control: once it has joined that user ns (capabilities in its own user
 * ns too), the same fd works.
 */
static void setns_cap_owner_only_eperm(void)
{
	struct helper h = nobody_holder_in_h();
	ino_t hino = ns_ino_pid(h.pid);
	pid_t pid;

	cg_mkdir("c");
	cg_move(getpid(), "c");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		int cgfd, userfd;
		char p[64];

		drop_to_nobody();
		cgfd = open_ns(h.pid);
		snprintf(p, sizeof(p), "%d/ns/user", h.pid);
		userfd = openat(cgns_proc_fd, p, O_RDONLY | O_CLOEXEC);
		CHECK(userfd >= 0, "open the holder's user ns");
		CHECK_ERR(setns(cgfd, CLONE_NEWCGROUP), EPERM,
			  "setns as the target owner's owner, without caps in own user ns");
		CHECK_STR(must_cg2_path_of(0), hostp("c"), "view after the refused setns");
		/* control */
		CHECK(setns(userfd, CLONE_NEWUSER) == 0, "join the holder's user ns");
		CHECK(setns(cgfd, CLONE_NEWCGROUP) == 0, "control: setns from inside its user ns");
		CHECK(ns_ino("/proc/self/ns/cgroup") == hino, "not in the holder's cgroupns");
		CHECK_STR(must_cg2_path_of(0), "/../c", "view after the control setns");
		_exit(0);
	}
	reap(pid);
	cg_move_out(getpid());
	c_send(&h, 0);
	finish(&h);
}

/*
 * (b) In the caller's own user ns, but not over the target's owner: root
 * in a new user ns (all capabilities there) and a cgroupns owned by the
 * initial user ns: EPERM.  Control: a cgroupns owned by the caller's user
 * ns, with the same credentials, works.
 */
static void setns_cap_own_only_eperm(void)
{
	struct helper h = holder();
	pid_t pid;

	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		int fd = open_ns(h.pid), own;
		ino_t own_ino;

		CHECK(unshare(CLONE_NEWUSER) == 0, "unshare(CLONE_NEWUSER)");
		map_self_as_root(0, 0);
		CHECK_ERR(setns(fd, CLONE_NEWCGROUP), EPERM,
			  "setns with caps in own user ns only, into an init-owned cgroupns");
		/* control */
		CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare(CLONE_NEWCGROUP) in own user ns");
		own = open_ns(getpid());
		own_ino = ns_ino("/proc/self/ns/cgroup");
		CHECK(unshare(CLONE_NEWCGROUP) == 0, "second unshare(CLONE_NEWCGROUP)");
		CHECK(setns(own, CLONE_NEWCGROUP) == 0,
		      "control: setns into a cgroupns owned by own user ns");
		CHECK(ns_ino("/proc/self/ns/cgroup") == own_ino, "not in the first own cgroupns");
		_exit(0);
	}
	reap(pid);
	member_stop(&h);
}

/*
 * (c) setns from a thread that is not the group leader: that thread's
 * view changes, the leader's does not, nobody moves.
 */
struct thr_setns {
	int fd;
	int err;
	pid_t tid;
	char self[PATH_MAX];	/* /proc/thread-self/cgroup */
	char leader[PATH_MAX];	/* the leader's line, read by the thread */
	ino_t ino;
};

static void *setns_thread(void *arg)
{
	struct thr_setns *t = arg;
	char p[64], *s;

	t->tid = gettid();
	if (setns(t->fd, CLONE_NEWCGROUP)) {
		t->err = errno;
		return NULL;
	}
	s = cgroup_line_of("/proc/thread-self/cgroup", "");
	snprintf(t->self, sizeof(t->self), "%s", s ? s : "(error)");
	snprintf(p, sizeof(p), "/proc/self/task/%d/cgroup", getpid());
	s = cgroup_line_of(p, "");
	snprintf(t->leader, sizeof(t->leader), "%s", s ? s : "(error)");
	t->ino = ns_ino("/proc/thread-self/ns/cgroup");
	return NULL;
}

static void setns_thread_view(void)
{
	struct helper h = holder();
	struct thr_setns t = { .fd = open_ns(h.pid) };
	ino_t init_ino = ns_ino("/proc/self/ns/cgroup");
	pthread_t th;
	char p[64];

	cg_mkdir("c");
	cg_move(getpid(), "c");
	CHECK(pthread_create(&th, NULL, setns_thread, &t) == 0, "pthread_create");
	pthread_join(th, NULL);
	errno = t.err;
	CHECK(!t.err, "setns(CLONE_NEWCGROUP) from a non-leader thread");
	CHECK(t.tid != getpid(), "the thread is the leader");
	CHECK(t.ino == ns_ino_pid(h.pid), "thread not in the holder's cgroupns");
	CHECK_STR(t.self, "/../c", "thread's own line, read by the thread");
	CHECK_STR(t.leader, "/../c", "leader's line, read by the thread");
	/* the leader is untouched */
	CHECK(ns_ino("/proc/self/ns/cgroup") == init_ino, "leader's cgroupns changed");
	CHECK_STR(must_cg2_path_of(0), hostp("c"), "leader's own line");
	snprintf(p, sizeof(p), "/proc/self/task/%d/cgroup", getpid());
	CHECK_STR(cgroup_line_of(p, ""), hostp("c"), "leader's task line, read by the leader");
	CHECK(procs_has(cgp("c"), getpid()), "the process left c");
	cg_move_out(getpid());
	member_stop(&h);
}

/*
 * (d) An unprivileged user (nobody) who created user+cgroup namespaces in
 * one process joins both from another process of the same uid with one
 * setns(pidfd, CLONE_NEWUSER | CLONE_NEWCGROUP): the view is that ns's.
 */
static void setns_unpriv_pidfd_userns(void)
{
	struct helper h = nobody_holder_in_h();
	ino_t hino = ns_ino_pid(h.pid);
	pid_t pid;

	cg_mkdir("c");
	cg_move(getpid(), "c");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		int pidfd;

		drop_to_nobody();
		pidfd = sys_pidfd_open(h.pid, 0);
		if (pidfd < 0 && errno == ENOSYS)
			cgns_skip("no pidfd_open()");
		CHECK(pidfd >= 0, "pidfd_open as nobody");
		CHECK(setns(pidfd, CLONE_NEWUSER | CLONE_NEWCGROUP) == 0,
		      "setns(pidfd, CLONE_NEWUSER|CLONE_NEWCGROUP) as nobody");
		CHECK(ns_ino("/proc/self/ns/cgroup") == hino, "not in the holder's cgroupns");
		CHECK_STR(must_cg2_path_of(0), "/../c", "view after the pidfd setns");
		CHECK_STR(must_cg2_path_of(h.pid), "/", "the holder seen from its own ns");
		_exit(0);
	}
	reap(pid);
	CHECK_STR(must_cg2_path_of(0), hostp("c"), "not moved");
	cg_move_out(getpid());
	c_send(&h, 0);
	finish(&h);
}

static const struct cgns_case cases[] = {
	CASE(setns_priv, CGNS_NEED_NS),
	CASE(no_implicit_migration, CGNS_NEED_NS),
	CASE(setns_unpriv_eperm, CGNS_NEED_NS),
	CASE(setns_foreign_owner_eperm, CGNS_NEED_NS),
	CASE(setns_sibling_userns_eperm, CGNS_NEED_NS),
	CASE(setns_own_userns, CGNS_NEED_NS),
	CASE(setns_einval_nstype, CGNS_NEED_NS),
	CASE(setns_einval_not_ns_fd, 0),
	CASE(setns_pidfd, CGNS_NEED_NS),
	CASE(setns_cap_owner_only_eperm, CGNS_NEED_NS),
	CASE(setns_cap_own_only_eperm, CGNS_NEED_NS),
	CASE(setns_thread_view, CGNS_NEED_NS),
	CASE(setns_unpriv_pidfd_userns, CGNS_NEED_NS),
};

CGNS_MAIN(cases)
