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
static int userns_holder(void *arg)
{
	(void)arg;
	CHECK(unshare(CLONE_NEWUSER | CLONE_NEWCGROUP) == 0,
	      "unshare(CLONE_NEWUSER|CLONE_NEWCGROUP)");
	h_send(0);
	h_recv();
	return 0;
}

static void setns_sibling_userns_eperm(void)
{
	struct helper h;
	pid_t pid;
	int fd;

	cg_mkdir("h");
	cg_move(getpid(), "h");
	h = spawn(userns_holder, NULL);
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
};

CGNS_MAIN(cases)
