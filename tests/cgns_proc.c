// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/<pid>/cgroup and /proc/<pid>/cpuset as seen from different cgroup
 * namespaces (cover letter behaviours 3 and 4).
 *
 * Layout used by most cases, named after the cover letter:
 *   <base>/batchjobs/c_job_id1            ns1 root (observer)
 *   <base>/batchjobs/c_job_id2            ns2 root (target)
 *   <base>/batchjobs/c_job_id{1,2}/sub_cgrp_1
 * The reader's namespace decides the text, the target's namespace does not.
 */
#include "cgns_common.h"

static void make_layout(void)
{
	cg_mkdir("batchjobs");
	cg_mkdir("batchjobs/c_job_id1");
	cg_mkdir("batchjobs/c_job_id1/sub_cgrp_1");
	cg_mkdir("batchjobs/c_job_id2");
	cg_mkdir("batchjobs/c_job_id2/sub_cgrp_1");
}

#define stop member_stop

/* (3a)+(3b): own view relative, init view absolute */
static void inside_and_init_view(void)
{
	struct helper t;

	make_layout();
	t = member_in("batchjobs/c_job_id1");
	CHECK_STR(view_from(&t, t.pid), "/", "member's own view");
	CHECK_STR(must_cg2_path_of(t.pid), hostp("batchjobs/c_job_id1"), "init view");

	/* "echo 7353 > sub_cgrp_1/cgroup.procs" */
	cg_move(t.pid, "batchjobs/c_job_id1/sub_cgrp_1");
	CHECK_STR(view_from(&t, t.pid), "/sub_cgrp_1", "member's own view");
	CHECK_STR(must_cg2_path_of(t.pid),
		  hostp("batchjobs/c_job_id1/sub_cgrp_1"), "init view");
	/* a process outside the ns, seen from inside: relative with /.. */
	CHECK_STR(view_from(&t, getpid()),
		  rel_path(hostp("batchjobs/c_job_id1"), must_cg2_path_of(getpid())),
		  "case process seen from inside");
	stop(&t);
}

/*
 * (3c): a process in a sibling ns, seen from ns1 (root c_job_id1): the
 * path is relative to the reader's root.
 */
static void sibling_view(void)
{
	struct helper obs, tgt;

	make_layout();
	obs = member_in("batchjobs/c_job_id1");
	tgt = member_in("batchjobs/c_job_id2");
	cg_move(tgt.pid, "batchjobs/c_job_id2/sub_cgrp_1");

	CHECK_STR(view_from(&obs, tgt.pid), "/../c_job_id2/sub_cgrp_1",
		  "target seen from ns1");
	CHECK_STR(view_from(&tgt, tgt.pid), "/sub_cgrp_1", "target's own view");
	CHECK_STR(view_from(&tgt, obs.pid), "/../c_job_id1", "observer seen from ns2");
	CHECK_STR(view_from(&obs, obs.pid), "/", "observer's own view");
	CHECK_STR(must_cg2_path_of(tgt.pid),
		  hostp("batchjobs/c_job_id2/sub_cgrp_1"), "init view");
	stop(&obs);
	stop(&tgt);
}

/* (4): a member moved outside its ns root shows a /.. path */
static void moved_outside_root(void)
{
	struct helper t;

	make_layout();
	t = member_in("batchjobs/c_job_id1");
	cg_move(t.pid, "batchjobs/c_job_id1/sub_cgrp_1");
	CHECK_STR(view_from(&t, t.pid), "/sub_cgrp_1", "before the move");
	/* "echo 7353 > batchjobs/c_job_id2/cgroup.procs" */
	cg_move(t.pid, "batchjobs/c_job_id2");
	CHECK_STR(view_from(&t, t.pid), "/../c_job_id2", "after the move");
	CHECK_STR(must_cg2_path_of(t.pid), hostp("batchjobs/c_job_id2"), "init view");
	/* moving back in restores the short path: nothing was pinned */
	cg_move(t.pid, "batchjobs/c_job_id1");
	CHECK_STR(view_from(&t, t.pid), "/", "after moving back");
	stop(&t);
}

/*
 * (4) done by the member itself.  With nsdelegate the ns is a delegation
 * boundary and the kernel refuses (ENOENT, as upstream); without it the
 * move works for a privileged task.
 */
static int self_mover(void *arg)
{
	bool deleg = *(bool *)arg;
	int r;

	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare");
	r = cg_try_move(0, "batchjobs/c_job_id2");
	if (deleg) {
		errno = -r;
		CHECK(r == -ENOENT, "nsdelegate: move out of ns root gave %d", r);
		CHECK_STR(must_cg2_path_of(0), "/", "view after refused move");
	} else {
		errno = -r;
		CHECK(r == 0, "move out of the ns root");
		CHECK_STR(must_cg2_path_of(0), "/../c_job_id2", "view after move");
	}
	/* inside the root, moves are always fine */
	if (deleg) {
		cg_move(0, "batchjobs/c_job_id1/sub_cgrp_1");
		CHECK_STR(must_cg2_path_of(0), "/sub_cgrp_1", "move below root");
	}
	return 0;
}

static void move_out_by_self(void)
{
	bool deleg = nsdelegate_on();
	struct helper h;

	make_layout();
	cg_move(getpid(), "batchjobs/c_job_id1");
	h = spawn(self_mover, &deleg);
	cg_move_out(getpid());
	finish(&h);
}

/* The reader's ns matters, the target's does not: init-ns target */
static void init_ns_target_from_inside(void)
{
	struct helper t;
	pid_t plain;

	make_layout();
	cg_move(getpid(), "batchjobs/c_job_id2/sub_cgrp_1");
	plain = fork();
	CHECK(plain >= 0, "fork");
	if (plain == 0) {
		pause();
		_exit(0);
	}
	cg_move_out(getpid());
	t = member_in("batchjobs/c_job_id1/sub_cgrp_1");
	CHECK_STR(view_from(&t, plain), "/../../c_job_id2/sub_cgrp_1",
		  "init-ns process seen from ns rooted at c_job_id1/sub_cgrp_1");
	CHECK_STR(view_from(&t, 1),
		  rel_path(hostp("batchjobs/c_job_id1/sub_cgrp_1"), must_cg2_path_of(1)),
		  "pid 1 seen from inside");
	stop(&t);
	kill(plain, SIGKILL);
	waitpid(plain, NULL, 0);
}

/*
 * /proc/<pid>/cpuset (CONFIG_PROC_PID_CPUSET): upstream shows the cgroup
 * of the task's cpuset css relative to the reader's cgroupns root.  To
 * make that the task's own cgroup, cpuset is enabled down to it.
 */
static void cpuset_cleanup(void)
{
	char p[300];

	if (!cgns_shared[1024])
		return;		/* the root's subtree_control was left alone */
	/* base enables cpuset, so it must go before the root can drop it */
	cg_kill_tree(cg_base);
	rm_tree(cg_base);
	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", cg_root);
	write_file(p, "-cpuset");
}

/* Enable cpuset from the root down to <base>; skip if not possible. */
static void cpuset_setup(void)
{
	char buf[512], p[300];

	if (!exists("/proc/self/cpuset"))
		cgns_skip("no /proc/<pid>/cpuset (CONFIG_PROC_PID_CPUSET=n)");
	snprintf(p, sizeof(p), "%s/cgroup.controllers", cg_root);
	if (read_file(p, buf, sizeof(buf)) < 0 || !strstr(buf, "cpuset"))
		cgns_skip("cpuset controller not available on cgroup2");
	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", cg_root);
	CHECK(read_file(p, buf, sizeof(buf)) >= 0, "read %s", p);
	if (!strstr(buf, "cpuset")) {
		CHECK(write_file(p, "+cpuset") == 0, "enable cpuset at the root");
		cgns_shared[1024] = 1;	/* cleanup disables it again */
	}
	/* base holds no process, so it may enable controllers */
	CHECK(write_file(cgp("cgroup.subtree_control"), "+cpuset") == 0,
	      "enable cpuset in base");
	cg_mkdir("a");
	cg_mkdir("b");
}

/* Not a namespace case: the init view is the absolute cpuset cgroup */
static void cpuset_view(void)
{
	char buf[512], p[64], *s;
	pid_t pid;

	cpuset_setup();
	CHECK(read_file("/proc/self/cpuset", buf, sizeof(buf)) > 0, "read cpuset");
	s = strtok(buf, "\n");
	CHECK_STR(s, must_cg2_path_of(0), "cpuset vs cgroup of the case process");

	cg_move(getpid(), "a");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		pause();
		_exit(0);
	}
	cg_move_out(getpid());
	snprintf(p, sizeof(p), "/proc/%d/cpuset", pid);
	CHECK(read_file(p, buf, sizeof(buf)) > 0, "read %s", p);
	CHECK_STR(strtok(buf, "\n"), hostp("a"), "init view of a process in a");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * Reading cpuset from inside a namespace needs code running there; a
 * dedicated member that reads /proc/<pid>/cpuset instead of cgroup.
 */
static int cpuset_reader(void *arg)
{
	(void)arg;
	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare");
	h_send(0);
	for (;;) {
		long pid = h_recv();
		char p[64], buf[512];

		if (!pid)
			return 0;
		snprintf(p, sizeof(p), "/proc/%ld/cpuset", pid);
		CHECK(read_file(p, buf, sizeof(buf)) > 0, "read %s", p);
		snprintf(cgns_shared + 2048, 2048, "%s", strtok(buf, "\n"));
		h_send(0);
	}
}

static void cpuset_ns_view(void)
{
	char buf[512], p[300];
	struct helper a, b;

	cpuset_setup();
	cg_move(getpid(), "a");
	a = spawn(cpuset_reader, NULL);
	cg_move(getpid(), "b");
	b = spawn(cpuset_reader, NULL);
	cg_move_out(getpid());
	c_recv(&a);
	c_recv(&b);

	c_send(&a, a.pid);
	c_recv(&a);
	CHECK_STR(cgns_shared + 2048, "/", "a's own cpuset from inside");
	c_send(&a, b.pid);
	c_recv(&a);
	CHECK_STR(cgns_shared + 2048, "/../b", "b's cpuset seen from a's ns");
	c_send(&b, a.pid);
	c_recv(&b);
	CHECK_STR(cgns_shared + 2048, "/../a", "a's cpuset seen from b's ns");
	/* cpuset and cgroup lines agree for the same reader */
	snprintf(p, sizeof(p), "/proc/%d/cpuset", b.pid);
	CHECK(read_file(p, buf, sizeof(buf)) > 0, "read %s", p);
	CHECK_STR(strtok(buf, "\n"), hostp("b"), "init view of b's cpuset");
	c_send(&a, 0);
	c_send(&b, 0);
	finish(&a);
	finish(&b);
}

/*
 * /proc/<pid>/cpuset of a task deeper than PATH_MAX, cpuset enabled down
 * to it (20 levels of 250-character names built with *at() calls): the
 * whole path.  Upstream truncates it silently (deliberate difference).
 */
#define CPUSET_LEVELS 20
#define CPUSET_NAME_LEN 250

static void cpuset_long_path(void)
{
	char name[CPUSET_NAME_LEN + 1], p[64];
	static char want[CPUSET_LEVELS * (CPUSET_NAME_LEN + 1) + 300];
	static char buf[2 * sizeof(want)];
	int fd, next;
	size_t len;
	pid_t pid;

	cpuset_setup();
	fd = open(cg_base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(fd >= 0, "open base");
	len = snprintf(want, sizeof(want), "%s", cg_base_rel);
	for (int i = 0; i < CPUSET_LEVELS; i++) {
		memset(name, 'a' + i, CPUSET_NAME_LEN);
		name[CPUSET_NAME_LEN] = '\0';
		len += snprintf(want + len, sizeof(want) - len, "/%s", name);
		CHECK(mkdirat(fd, name, 0755) == 0, "mkdir level %d", i);
		next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		CHECK(next >= 0, "open level %d", i);
		close(fd);
		fd = next;
		if (i < CPUSET_LEVELS - 1)
			CHECK(write_at(fd, "cgroup.subtree_control", "+cpuset") == 0,
			      "enable cpuset at level %d", i);
	}
	CHECK(len > PATH_MAX, "chain too short");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		pause();
		_exit(0);
	}
	snprintf(p, sizeof(p), "%d", pid);
	CHECK(write_at(fd, "cgroup.procs", p) == 0, "move %d to the bottom", pid);
	snprintf(p, sizeof(p), "/proc/%d/cpuset", pid);
	errno = 0;
	CHECK(read_file(p, buf, sizeof(buf)) >= 0, "read %s", p);
	CHECK_LONG(strtok(buf, "\n"), want, p);
	/* /proc/<pid>/cgroup names the same cgroup */
	snprintf(p, sizeof(p), "/proc/%d/cgroup", pid);
	CHECK_LONG(cgroup_line_of(p, ""), want, p);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fd);
}

static const struct cgns_case cases[] = {
	CASE(inside_and_init_view, CGNS_NEED_NS),
	CASE(sibling_view, CGNS_NEED_NS),
	CASE(moved_outside_root, CGNS_NEED_NS),
	CASE(move_out_by_self, CGNS_NEED_NS),
	CASE(init_ns_target_from_inside, CGNS_NEED_NS),
	{ "cpuset_init_view", cpuset_view, 0, 0, cpuset_cleanup },
	{ "cpuset_ns_view", cpuset_ns_view, CGNS_NEED_NS, 0, cpuset_cleanup },
	{ "cpuset_long_path", cpuset_long_path, 0, 0, cpuset_cleanup },
};

CGNS_MAIN(cases)
