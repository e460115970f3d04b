// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup v1 named hierarchies ("mount -t cgroup -o none,name=x") are
 * virtualized like the v2 hierarchy: the ns root in every hierarchy is the
 * creator's cgroup there at unshare time, and "N:name=x:<path>" lines of
 * /proc/<pid>/cgroup are relative to it.  release_agent stays reserved to
 * root of the initial namespaces (CVE-2022-0492).
 */
#include "cgns_common.h"

static char hier[96];	/* "name=<tag>" */

/* Mount a fresh named hierarchy with a/, a/sub/, b/ in it; skip if v1 is off. */
static void v1_setup(void)
{
	snprintf(hier, sizeof(hier), "name=%s", v1_name());
	v1_mount_named();
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

/*
 * CVE-2022-0492: release_agent runs with full privileges in the initial
 * namespaces, so only root of the initial user ns in the initial cgroupns
 * may set it.  Each case first sets it as that root (the control: the
 * file is writable), then tries as somebody who must be refused.
 */
static const char *release_agent(void)
{
	static char p[160];

	snprintf(p, sizeof(p), "%s/release_agent", v1_mnt());
	return p;
}

/* The control; leaves "/bin/true" in release_agent. */
static void release_agent_control(void)
{
	char buf[256];

	CHECK(write_file(release_agent(), "/bin/true") == 0,
	      "control: init root writing release_agent");
	CHECK(read_file(release_agent(), buf, sizeof(buf)) >= 0, "read release_agent");
	CHECK_STR(buf, "/bin/true\n", "release_agent after the control");
}

/* Open (must work: the mode allows it) and write (must be EPERM). */
static void release_agent_refused(const char *who)
{
	char buf[256];
	int fd = open(release_agent(), O_WRONLY | O_CLOEXEC);

	CHECK(fd >= 0, "%s: open release_agent for writing", who);
	CHECK_ERR(write(fd, "/x", 2), EPERM, who);
	close(fd);
	CHECK(read_file(release_agent(), buf, sizeof(buf)) >= 0, "read release_agent");
	CHECK_STR(buf, "/bin/true\n", "release_agent after the refused write");
}

/* (a) root of a user ns that maps 0 to 0: still no init-ns capability */
static void release_agent_userns_eperm(void)
{
	pid_t pid;

	v1_setup();
	release_agent_control();
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		CHECK(unshare(CLONE_NEWUSER) == 0, "unshare(CLONE_NEWUSER)");
		map_self_as_root(0, 0);
		CHECK(getuid() == 0, "not root in the user ns");
		release_agent_refused("write from a user ns root (0 -> 0)");
		_exit(0);
	}
	reap(pid);
}

/*
 * (b) init-ns root with every capability, but in a cgroupns owned by a
 * non-initial user ns (joined with setns): EPERM.
 */
static void release_agent_setns_eperm(void)
{
	struct helper h;
	char p[64];
	int fd;

	v1_setup();
	release_agent_control();
	h = spawn(userns_cgns_holder, NULL);
	c_recv(&h);
	snprintf(p, sizeof(p), "%d/ns/cgroup", h.pid);
	fd = openat(cgns_proc_fd, p, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0, "open /proc/%s", p);
	CHECK(setns(fd, CLONE_NEWCGROUP) == 0, "setns into the holder's cgroupns");
	CHECK(ns_ino("/proc/self/ns/cgroup") == ns_ino_pid(h.pid), "not joined");
	CHECK(geteuid() == 0, "not root");
	release_agent_refused("write from a cgroupns of a non-initial user ns");
	c_send(&h, 0);
	finish(&h);
}

static void v1_mnt_cleanup(void)
{
	rmdir(cgns_mnt());
	v1_teardown();
}

/*
 * (c) a user ns root (own user+mount+cgroup ns) mounting the existing
 * hierarchy with release_agent=: upstream refuses in option parsing,
 * "Setting release_agent not allowed", EINVAL.  The same mount without
 * release_agent works (the control), and release_agent is unchanged.
 */
static void release_agent_mount_einval(void)
{
	char opts[256], buf[256];
	pid_t pid;

	v1_setup();
	release_agent_control();
	CHECK(mkdir(cgns_mnt(), 0755) == 0, "mkdir %s", cgns_mnt());
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		CHECK(unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWCGROUP) == 0,
		      "unshare(NEWUSER|NEWNS|NEWCGROUP)");
		map_self_as_root(0, 0);
		make_mounts_private();
		snprintf(opts, sizeof(opts), "name=%s,release_agent=/x", v1_name());
		CHECK_ERR(mount("cgns", cgns_mnt(), "cgroup", 0, opts), EINVAL,
			  "mount -o name=<existing>,release_agent=/x from a user ns");
		snprintf(opts, sizeof(opts), "none,name=%s", v1_name());
		CHECK(mount("cgns", cgns_mnt(), "cgroup", 0, opts) == 0,
		      "control: mount -o %s from the same user ns", opts);
		_exit(0);
	}
	reap(pid);
	CHECK(read_file(release_agent(), buf, sizeof(buf)) >= 0, "read release_agent");
	CHECK_STR(buf, "/bin/true\n", "release_agent after the mounts");
}

static const struct cgns_case cases[] = {
	{ "v1_init_view", v1_init_view, 0, 0, v1_teardown },
	{ "v1_own_view", v1_own_view, CGNS_NEED_NS, 0, v1_teardown },
	{ "v1_sibling_view", v1_sibling_view, CGNS_NEED_NS, 0, v1_teardown },
	{ "v1_self_move", v1_self_move, CGNS_NEED_NS, 0, v1_teardown },
	{ "release_agent_userns_eperm", release_agent_userns_eperm, 0, 0, v1_teardown },
	{ "release_agent_setns_eperm", release_agent_setns_eperm, CGNS_NEED_NS, 0, v1_teardown },
	{ "release_agent_mount_einval", release_agent_mount_einval, CGNS_NEED_NS, 0,
	  v1_mnt_cleanup },
};

CGNS_MAIN(cases)
