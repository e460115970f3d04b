// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup v1 named hierarchies ("mount -t cgroup -o none,name=x") are
 * virtualized like the v2 hierarchy: the ns root in every hierarchy is the
 * creator's cgroup there at unshare time, and "N:name=x:<path>" lines of
 * /proc/<pid>/cgroup are relative to it.
 */
#include "cgns_common.h"

static char hier[96];	/* "name=<tag>" */

/* Mount a fresh named hierarchy with a/, a/sub/, b/ in it; skip if v1 is off. */
static void v1_setup(void)
{
	char opts[128];

	snprintf(hier, sizeof(hier), "name=%s", v1_name());
	snprintf(opts, sizeof(opts), "none,%s", hier);
	CHECK(mkdir(v1_mnt(), 0755) == 0, "mkdir %s", v1_mnt());
	if (mount("cgns", v1_mnt(), "cgroup", 0, opts))
		cgns_skip("cannot mount a v1 named hierarchy (%s)", strerror(errno));
	for (const char *d = "a\0a/sub\0b\0"; *d; d += strlen(d) + 1) {
		char p[256];

		snprintf(p, sizeof(p), "%s/%s", v1_mnt(), d);
		CHECK(mkdir(p, 0755) == 0, "mkdir %s", p);
	}
	cg_mkdir("a");
	cg_mkdir("b");
}

/* Move @pid (0 = caller) in the v1 hierarchy; rel "" = its root. */
static int v1_try_move(pid_t pid, const char *rel)
{
	char p[256], s[32];

	snprintf(p, sizeof(p), "%s%s%s/cgroup.procs", v1_mnt(), rel[0] ? "/" : "", rel);
	snprintf(s, sizeof(s), "%d", pid);
	return write_file(p, s) ? -errno : 0;
}

static void v1_move(pid_t pid, const char *rel)
{
	int r = v1_try_move(pid, rel);

	errno = -r;
	CHECK(r == 0, "v1: moving %d to '%s'", pid, rel);
}

/* A member rooted at v1 <rel> and v2 <base>/<rel>. */
static struct helper v1_member(const char *rel)
{
	struct helper h;

	v1_move(getpid(), rel);
	cg_move(getpid(), rel);
	h = spawn(ns_member, NULL);
	v1_move(getpid(), "");
	cg_move_out(getpid());
	c_recv(&h);
	return h;
}

static char *v1_line(pid_t pid)
{
	char p[64];

	snprintf(p, sizeof(p), "/proc/%d/cgroup", pid);
	return cgroup_line_of(p, hier);
}

/* Not a namespace case: the v1 line shows the absolute v1 path */
static void v1_init_view(void)
{
	pid_t pid;

	v1_setup();
	CHECK_STR(v1_line(getpid()), "/", "v1 line of a process in the v1 root");
	v1_move(getpid(), "a/sub");
	CHECK_STR(v1_line(getpid()), "/a/sub", "v1 line after moving to a/sub");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		CHECK_STR(v1_line(getpid()), "/a/sub", "child inherits v1 cgroup");
		_exit(0);
	}
	reap(pid);
	v1_move(getpid(), "");
}

/* The member's own view: "/" in both hierarchies, "/sub" after a move */
static void v1_own_view(void)
{
	struct helper t;

	v1_setup();
	t = v1_member("a");
	CHECK_STR(view_from_h(&t, t.pid, hier), "/", "member's own v1 view");
	CHECK_STR(view_from(&t, t.pid), "/", "member's own v2 view");
	CHECK_STR(v1_line(t.pid), "/a", "init v1 view");

	v1_move(t.pid, "a/sub");
	CHECK_STR(view_from_h(&t, t.pid, hier), "/sub", "own v1 view in a/sub");
	CHECK_STR(v1_line(t.pid), "/a/sub", "init v1 view in a/sub");
	/* v1 and v2 are independent: the v2 line did not move */
	CHECK_STR(view_from(&t, t.pid), "/", "own v2 view after v1 move");

	/* outside the v1 root: a /.. path */
	v1_move(t.pid, "b");
	CHECK_STR(view_from_h(&t, t.pid, hier), "/../b", "own v1 view in b");
	v1_move(t.pid, "");
	CHECK_STR(view_from_h(&t, t.pid, hier), "/..", "own v1 view in the v1 root");
	member_stop(&t);
}

/* A sibling namespace: v1 paths relative to the reader's v1 root */
static void v1_sibling_view(void)
{
	struct helper t, o;

	v1_setup();
	t = v1_member("a");
	o = v1_member("b");
	v1_move(t.pid, "a/sub");
	CHECK_STR(view_from_h(&o, t.pid, hier), "/../a/sub", "target v1 from ns at b");
	CHECK_STR(view_from(&o, t.pid), "/../a", "target v2 from ns at b");
	CHECK_STR(view_from_h(&t, o.pid, hier), "/../b", "observer v1 from ns at a");
	member_stop(&t);
	member_stop(&o);
}

/* The member moves itself in v1: v1 has no delegation boundary */
static int self_mover(void *arg)
{
	(void)arg;
	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare");
	CHECK_STR(v1_line(getpid()), "/", "own v1 view");
	v1_move(0, "a/sub");
	CHECK_STR(v1_line(getpid()), "/sub", "own v1 view after moving to a/sub");
	v1_move(0, "a");
	CHECK_STR(v1_line(getpid()), "/", "own v1 view back at the root");
	return 0;
}

static void v1_self_move(void)
{
	struct helper h;

	v1_setup();
	v1_move(getpid(), "a");
	cg_move(getpid(), "a");
	h = spawn(self_mover, NULL);
	v1_move(getpid(), "");
	cg_move_out(getpid());
	finish(&h);
}

static const struct cgns_case cases[] = {
	{ "v1_init_view", v1_init_view, 0, 0, v1_teardown },
	{ "v1_own_view", v1_own_view, CGNS_NEED_NS, 0, v1_teardown },
	{ "v1_sibling_view", v1_sibling_view, CGNS_NEED_NS, 0, v1_teardown },
	{ "v1_self_move", v1_self_move, CGNS_NEED_NS, 0, v1_teardown },
};

CGNS_MAIN(cases)
