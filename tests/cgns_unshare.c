// SPDX-License-Identifier: GPL-2.0
/*
 * Creating cgroup namespaces: unshare(CLONE_NEWCGROUP), clone(CLONE_NEWCGROUP),
 * the root chosen at creation (cover letter behaviours 1, 2 and 6) and the
 * privilege rules for creating one.
 */
#include "cgns_common.h"

#include <linux/sched.h>	/* struct clone_args, CLONE_INTO_CGROUP */

/*
 * Not a namespace case: whatever the kernel is, the two ways of seeing the
 * feature (the flag and the nsfs file) must agree.
 */
static void feature_consistent(void)
{
	bool file = exists("/proc/self/ns/cgroup");

	if (cgns_have_ns)
		CHECK(file, "unshare(CLONE_NEWCGROUP) works but /proc/self/ns/cgroup is missing");
	else
		CHECK(!file && errno == ENOENT,
		      "no CLONE_NEWCGROUP but /proc/self/ns/cgroup exists");
}

/* Not a namespace case: without a cgroupns the full path is shown. */
static void init_view_full_path(void)
{
	cg_mkdir("a");
	cg_mkdir("a/b");
	cg_move(getpid(), "a/b");
	CHECK_STR(must_cg2_path_of(0), hostp("a/b"), "/proc/self/cgroup");
	cg_move(getpid(), "a");
	CHECK_STR(must_cg2_path_of(0), hostp("a"), "/proc/self/cgroup");
	cg_move_out(getpid());
	CHECK_STR(must_cg2_path_of(0), "/", "/proc/self/cgroup in the root cgroup");
}

/* (1): the creator's current cgroup becomes the root; a new ns inode */
static void unshare_new_ns(void)
{
	ino_t before, after;
	pid_t pid;

	cg_mkdir("batchjobs");
	cg_mkdir("batchjobs/c_job_id1");
	cg_move(getpid(), "batchjobs/c_job_id1");
	CHECK_STR(must_cg2_path_of(0), hostp("batchjobs/c_job_id1"), "before unshare");

	before = ns_ino("/proc/self/ns/cgroup");
	CHECK(before, "stat /proc/self/ns/cgroup");
	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare(CLONE_NEWCGROUP)");
	after = ns_ino("/proc/self/ns/cgroup");
	CHECK(after && after != before, "ns inode unchanged (%lu -> %lu)",
	      (unsigned long)before, (unsigned long)after);
	/* the parent (runner side) still has the old one */
	CHECK(ns_ino_pid(getppid()) == before, "parent's cgroupns changed");
	CHECK_STR(must_cg2_path_of(0), "/", "/proc/self/cgroup in the new ns");

	/* children inherit the namespace */
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		CHECK(ns_ino("/proc/self/ns/cgroup") == after, "child ns differs");
		CHECK_STR(must_cg2_path_of(0), "/", "child's /proc/self/cgroup");
		_exit(0);
	}
	reap(pid);
}

/* clone(CLONE_NEWCGROUP): only the child is in the new ns */
static void clone_new_ns(void)
{
	ino_t mine;
	pid_t pid;

	cg_mkdir("c");
	cg_move(getpid(), "c");
	mine = ns_ino("/proc/self/ns/cgroup");
	CHECK(mine, "stat /proc/self/ns/cgroup");

	pid = clone_flags(CLONE_NEWCGROUP);
	CHECK(pid >= 0, "clone(CLONE_NEWCGROUP)");
	if (pid == 0) {
		ino_t child = ns_ino("/proc/self/ns/cgroup");

		CHECK(child && child != mine, "clone child shares parent's ns");
		CHECK_STR(must_cg2_path_of(0), "/", "clone child's /proc/self/cgroup");
		_exit(0);
	}
	reap(pid);
	CHECK(ns_ino("/proc/self/ns/cgroup") == mine, "parent's ns changed");
	CHECK_STR(must_cg2_path_of(0), hostp("c"), "parent's /proc/self/cgroup");
}

/*
 * clone3(CLONE_NEWCGROUP | CLONE_INTO_CGROUP): the new namespace is rooted
 * where the child starts, not where the parent is.  (Upstream once rooted
 * it at the parent's cgroup and leaked a css_set re-rooting it.)
 */
static void clone_into_cgroup_root(void)
{
	struct clone_args args = { .flags = CLONE_NEWCGROUP | CLONE_INTO_CGROUP,
				   .exit_signal = SIGCHLD };
	pid_t pid;
	int fd;

	cg_mkdir("p");
	cg_mkdir("p/target");
	cg_move(getpid(), "p");
	fd = open(cgp("p/target"), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(fd >= 0, "open %s", cgp("p/target"));
	args.cgroup = fd;

	pid = syscall(SYS_clone3, &args, sizeof(args));
	CHECK(pid >= 0, "clone3(CLONE_NEWCGROUP | CLONE_INTO_CGROUP)");
	if (pid == 0) {
		char ppath[64];

		CHECK_STR(must_cg2_path_of(0), "/", "child's own view");
		/* the parent, one level up, is outside the child's root */
		snprintf(ppath, sizeof(ppath), "/proc/%d/cgroup", getppid());
		CHECK_STR(cgroup_line_of(ppath, ""), "/..", "parent seen by the child");
		_exit(0);
	}
	reap(pid);
	close(fd);
	CHECK_STR(must_cg2_path_of(0), hostp("p"), "parent's own view");
}

/* (2): the root stays where it was when the creator moves below it */
static void root_fixed_after_move(void)
{
	cg_mkdir("batchjobs");
	cg_mkdir("batchjobs/c_job_id1");
	cg_move(getpid(), "batchjobs/c_job_id1");
	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare(CLONE_NEWCGROUP)");
	CHECK_STR(must_cg2_path_of(0), "/", "after unshare");

	/* "mkdir sub_cgrp_1; echo 0 > sub_cgrp_1/cgroup.procs" from inside */
	cg_mkdir("batchjobs/c_job_id1/sub_cgrp_1");
	cg_move(0, "batchjobs/c_job_id1/sub_cgrp_1");
	CHECK_STR(must_cg2_path_of(0), "/sub_cgrp_1", "after moving to sub_cgrp_1");

	/* and back up to the root: "/" again, not the old absolute path */
	cg_move(0, "batchjobs/c_job_id1");
	CHECK_STR(must_cg2_path_of(0), "/", "after moving back to the ns root");
}

/*
 * A nested ns is rooted at the creator's cgroup at the time of the nested
 * unshare.  The move above the nested root is done by the case process (in
 * the init ns): with nsdelegate the nested task itself may not do it.
 */
static int nested_helper(void *arg)
{
	(void)arg;
	CHECK(unshare(CLONE_NEWCGROUP) == 0, "first unshare");
	cg_move(0, "a/b");
	CHECK_STR(must_cg2_path_of(0), "/b", "in a/b, ns rooted at a");
	CHECK(unshare(CLONE_NEWCGROUP) == 0, "second unshare");
	CHECK_STR(must_cg2_path_of(0), "/", "in a/b, ns rooted at a/b");
	cg_move(0, "a/b/c");
	CHECK_STR(must_cg2_path_of(0), "/c", "in a/b/c, ns rooted at a/b");
	h_send(1);
	h_recv();	/* the case process moved us to a */
	CHECK_STR(must_cg2_path_of(0), "/..", "in a, ns rooted at a/b");
	return 0;
}

static void nested_unshare(void)
{
	struct helper h;

	cg_mkdir("a");
	cg_mkdir("a/b");
	cg_mkdir("a/b/c");
	cg_move(getpid(), "a");
	h = spawn(nested_helper, NULL);
	cg_move_out(getpid());
	c_recv(&h);
	cg_move(h.pid, "a");
	CHECK_STR(must_cg2_path_of(h.pid), hostp("a"), "host view of helper");
	c_send(&h, 1);
	finish(&h);
}

/*
 * (6) upstream semantics: namespaces are per task, so unsharing in one
 * thread changes that thread's view only.  The unsharing thread sees its
 * (shared) cgroup as "/"; the other threads keep the old ns and view.
 */
struct thr {
	ino_t ino;
	char path[PATH_MAX];
	char leader_path[PATH_MAX];
	int err;
	pid_t tid;
};

static void *unshare_thread(void *arg)
{
	struct thr *t = arg;
	char *p;

	t->tid = gettid();
	if (unshare(CLONE_NEWCGROUP)) {
		t->err = errno;
		return NULL;
	}
	t->ino = ns_ino("/proc/thread-self/ns/cgroup");
	p = cg2_path_of(0);	/* /proc/self = the leader, read by us */
	snprintf(t->leader_path, sizeof(t->leader_path), "%s", p ? p : "(err)");
	p = cgroup_line_of("/proc/thread-self/cgroup", "");
	snprintf(t->path, sizeof(t->path), "%s", p ? p : "(err)");
	return NULL;
}

static void thread_unshare(void)
{
	struct thr t = { 0 };
	pthread_t th;
	ino_t before;
	char p[64];

	cg_mkdir("mt");
	cg_move(getpid(), "mt");
	before = ns_ino("/proc/self/ns/cgroup");
	CHECK(pthread_create(&th, NULL, unshare_thread, &t) == 0, "pthread_create");
	pthread_join(th, NULL);
	errno = t.err;
	CHECK(t.err == 0, "unshare(CLONE_NEWCGROUP) in a thread");
	CHECK(t.ino && t.ino != before, "thread's ns inode unchanged");
	/* the unsharing thread's own view is relative to its new root */
	CHECK_STR(t.path, "/", "thread's /proc/thread-self/cgroup");
	CHECK_STR(t.leader_path, "/", "leader's cgroup read by the thread");
	/* the main thread keeps the old ns and the full path */
	CHECK(ns_ino("/proc/self/ns/cgroup") == before, "leader's ns changed");
	CHECK_STR(must_cg2_path_of(0), hostp("mt"), "leader's view");
	(void)p;
}

/* A thread that unshares and stays alive so we can look at it from outside */
static pthread_mutex_t thr_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t thr_cv = PTHREAD_COND_INITIALIZER;
static int thr_state;

static void *unshare_and_wait(void *arg)
{
	struct thr *t = arg;

	t->tid = gettid();
	t->err = unshare(CLONE_NEWCGROUP) ? errno : 0;
	t->ino = ns_ino("/proc/thread-self/ns/cgroup");
	pthread_mutex_lock(&thr_mu);
	thr_state = 1;
	pthread_cond_broadcast(&thr_cv);
	while (thr_state != 2)
		pthread_cond_wait(&thr_cv, &thr_mu);
	pthread_mutex_unlock(&thr_mu);
	return NULL;
}

/* /proc/<pid>/task/<tid>/ns/cgroup tells the threads apart */
static void thread_unshare_task_view(void)
{
	struct thr t = { 0 };
	pthread_t th;
	ino_t before;
	char p[128];

	cg_mkdir("mt");
	cg_move(getpid(), "mt");
	before = ns_ino("/proc/self/ns/cgroup");
	CHECK(pthread_create(&th, NULL, unshare_and_wait, &t) == 0, "pthread_create");
	pthread_mutex_lock(&thr_mu);
	while (thr_state != 1)
		pthread_cond_wait(&thr_cv, &thr_mu);
	pthread_mutex_unlock(&thr_mu);
	errno = t.err;
	CHECK(t.err == 0, "unshare in thread");

	snprintf(p, sizeof(p), "/proc/%d/task/%d/ns/cgroup", getpid(), t.tid);
	CHECK(ns_ino(p) == t.ino && t.ino != before, "task view of thread ns");
	snprintf(p, sizeof(p), "/proc/%d/task/%d/ns/cgroup", getpid(), getpid());
	CHECK(ns_ino(p) == before, "task view of leader ns");
	/* read by the leader (old ns): the thread's cgroup, full path */
	snprintf(p, sizeof(p), "/proc/%d/task/%d/cgroup", getpid(), t.tid);
	CHECK_STR(cgroup_line_of(p, ""), hostp("mt"), "thread's cgroup seen by leader");

	pthread_mutex_lock(&thr_mu);
	thr_state = 2;
	pthread_cond_broadcast(&thr_cv);
	pthread_mutex_unlock(&thr_mu);
	pthread_join(th, NULL);
}

/* Without CAP_SYS_ADMIN (and no userns) creating a cgroupns is refused */
static void unpriv_eperm(void)
{
	pid_t pid;

	cg_mkdir("u");
	cg_move(getpid(), "u");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		drop_to_nobody();
		CHECK_ERR(unshare(CLONE_NEWCGROUP), EPERM, "unprivileged unshare");
		CHECK_ERR(clone_flags(CLONE_NEWCGROUP), EPERM, "unprivileged clone");
		CHECK_STR(must_cg2_path_of(0), hostp("u"), "view unchanged");
		_exit(0);
	}
	reap(pid);
}

/* ... but with a new user namespace it is allowed */
static void unpriv_userns_ok(void)
{
	pid_t pid;

	cg_mkdir("u");
	cg_move(getpid(), "u");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		ino_t before;

		drop_to_nobody();
		before = ns_ino("/proc/self/ns/cgroup");
		CHECK(unshare(CLONE_NEWUSER | CLONE_NEWCGROUP) == 0,
		      "unshare(CLONE_NEWUSER|CLONE_NEWCGROUP) as nobody");
		CHECK(ns_ino("/proc/self/ns/cgroup") != before, "ns inode unchanged");
		CHECK_STR(must_cg2_path_of(0), "/", "view in the new ns");
		/* the new ns is owned by our userns, so we may nest further */
		CHECK(unshare(CLONE_NEWCGROUP) == 0, "nested unshare in own userns");
		_exit(0);
	}
	reap(pid);
}

static const struct cgns_case cases[] = {
	CASE(feature_consistent, 0),
	CASE(init_view_full_path, 0),
	CASE(unshare_new_ns, CGNS_NEED_NS),
	CASE(clone_new_ns, CGNS_NEED_NS),
	CASE(clone_into_cgroup_root, CGNS_NEED_NS),
	CASE(root_fixed_after_move, CGNS_NEED_NS),
	CASE(nested_unshare, CGNS_NEED_NS),
	CASE(thread_unshare, CGNS_NEED_NS),
	CASE(thread_unshare_task_view, CGNS_NEED_NS),
	CASE(unpriv_eperm, CGNS_NEED_NS),
	CASE(unpriv_userns_ok, CGNS_NEED_NS),
};

CGNS_MAIN(cases)
