// SPDX-License-Identifier: GPL-2.0
/*
 * Mounting cgroupfs from inside a cgroup namespace (behaviour 8): the
 * mount's root is the ns root, so siblings are invisible, and mountinfo
 * shows "/" as its root.  Unprivileged users may do it in their own
 * user+mount+cgroup ns; a cgroupns owned by another user ns refuses.
 *
 * Layout: <base>/a (ns root, with a/inner), <base>/b (a sibling).
 */
#include "cgns_common.h"

static void layout(void)
{
	cg_mkdir("a");
	cg_mkdir("a/inner");
	cg_mkdir("b");
	CHECK(mkdir(cgns_mnt(), 0755) == 0, "mkdir %s", cgns_mnt());
}

/* in dir @d (an fd), does @name exist? */
static bool has(int d, const char *name)
{
	return faccessat(d, name, F_OK, 0) == 0;
}

static bool pid_listed(int d, const char *file, pid_t pid)
{
	char buf[8192], *l, *save = NULL;

	if (read_at(d, file, buf, sizeof(buf)) < 0)
		return false;
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (atoi(l) == pid)
			return true;
	return false;
}

/*
 * What a mount rooted at <base>/a must look like: a's children at the top,
 * non-root cgroup files (cgroup.events, v2) present, nothing of the
 * levels above (neither "a" nor its sibling "b"), ourselves listed.
 */
static void check_v2_top(int d)
{
	CHECK(has(d, "inner"), "the ns root's child 'inner' is not at the top");
	CHECK(!has(d, "a") && !has(d, "b"), "cgroups above/beside the ns root visible");
	CHECK(!has(d, cgns_tag), "the case's base cgroup is visible");
	CHECK(has(d, "cgroup.events"), "top is not a non-root cgroup (no cgroup.events)");
	CHECK(has(d, "cgroup.procs"), "no cgroup.procs at the top");
	CHECK(pid_listed(d, "cgroup.procs", getpid()), "own pid not in top cgroup.procs");
}

/* Mount cgroup2 in new cgroup+mount namespaces as root */
static int v2_mounter(void *arg)
{
	int d;

	(void)arg;
	CHECK(unshare(CLONE_NEWCGROUP | CLONE_NEWNS) == 0, "unshare(NEWCGROUP|NEWNS)");
	make_mounts_private();
	CHECK(mount("none", cgns_mnt(), "cgroup2", 0, NULL) == 0, "mount cgroup2");
	d = open(cgns_mnt(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(d >= 0, "open mount");
	check_v2_top(d);
	CHECK_STR(mountinfo_root(cgns_mnt()), "/", "mountinfo root of the new mount");

	/* it is the same hierarchy: a cgroup made here appears in the host's */
	CHECK(mkdirat(d, "made_inside", 0755) == 0, "mkdir through the ns mount");
	CHECK(exists(cgp("a/made_inside")), "not visible as <base>/a/made_inside");
	CHECK(unlinkat(d, "made_inside", AT_REMOVEDIR) == 0, "rmdir through the ns mount");
	/* moving into a child through the ns mount works and reads relative */
	CHECK(write_at(d, "inner/cgroup.procs", "0") == 0, "move into inner");
	CHECK_STR(must_cg2_path_of(0), "/inner", "view after the move");
	return 0;
}

static void mount_v2_root(void)
{
	struct helper h;

	layout();
	cg_move(getpid(), "a");
	h = spawn(v2_mounter, NULL);
	cg_move_out(getpid());
	finish(&h);
}

/*
 * Upstream shows the root of a mount made outside the ns relative to the
 * reader's ns root: the host's /sys/fs/cgroup (the real root) from an ns
 * rooted at <base>/a reads "/../..".
 */
static int outer_reader(void *arg)
{
	const char *want = arg;

	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare");
	CHECK_STR(mountinfo_root(cg_root), want, "mountinfo root of the host's cgroup2 mount");
	return 0;
}

static void host_mount_relative(void)
{
	char want[PATH_MAX];
	struct helper h;

	layout();
	/* the host mount's root is "/" in the init ns, checked right here */
	CHECK_STR(mountinfo_root(cg_root), "/", "host mount root in the init ns");
	snprintf(want, sizeof(want), "%s", rel_path(hostp("a"), "/"));
	cg_move(getpid(), "a");
	h = spawn(outer_reader, want);
	cg_move_out(getpid());
	finish(&h);
}

/* Not a namespace case: in the init cgroupns the mount shows everything */
/*
 * cgroup2 mount options are system wide: a mount from the initial cgroup
 * namespace sets them for everybody.  Repeat the host mount's nsdelegate,
 * or this case would switch delegation off for the cases that follow.
 */
static const char *host_v2_opts(void)
{
	static char line[4096];
	const char *opts = NULL;
	FILE *f = fopen("/proc/self/mounts", "re");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, " /sys/fs/cgroup cgroup2 ") && strstr(line, "nsdelegate"))
			opts = "nsdelegate";
	if (f)
		fclose(f);
	return opts;
}

static void mount_v2_init_ns(void)
{
	const char *opts = host_v2_opts();
	pid_t pid;

	layout();
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		int d;

		CHECK(unshare(CLONE_NEWNS) == 0, "unshare(CLONE_NEWNS)");
		make_mounts_private();
		CHECK(mount("none", cgns_mnt(), "cgroup2", 0, opts) == 0, "mount cgroup2");
		d = open(cgns_mnt(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		CHECK(d >= 0, "open mount");
		CHECK(has(d, cgns_tag), "the case's cgroup is not visible at the top");
		CHECK(!has(d, "cgroup.events"), "top of an init-ns mount is not the root");
		CHECK_STR(mountinfo_root(cgns_mnt()), "/", "mountinfo root");
		_exit(0);
	}
	reap(pid);
}

/* A v1 named hierarchy mounted from inside: rooted at the ns root too */
static int v1_mounter(void *arg)
{
	char opts[128];
	int d;

	(void)arg;
	snprintf(opts, sizeof(opts), "none,name=%s", v1_name());
	CHECK(unshare(CLONE_NEWCGROUP | CLONE_NEWNS) == 0, "unshare(NEWCGROUP|NEWNS)");
	make_mounts_private();
	CHECK(mount("cgns", cgns_mnt(), "cgroup", 0, opts) == 0, "mount -t cgroup -o %s", opts);
	d = open(cgns_mnt(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(d >= 0, "open mount");
	CHECK(has(d, "inner"), "v1: 'inner' not at the top");
	CHECK(!has(d, "a") && !has(d, "b"), "v1: cgroups beside the ns root visible");
	/* release_agent only exists in the real root of a v1 hierarchy */
	CHECK(!has(d, "release_agent"), "v1: top is the hierarchy's real root");
	CHECK(pid_listed(d, "cgroup.procs", getpid()), "v1: own pid not at the top");
	CHECK_STR(mountinfo_root(cgns_mnt()), "/", "v1: mountinfo root of the new mount");
	return 0;
}

static void mount_v1_named(void)
{
	char p[256];
	struct helper h;

	layout();
	/* hierarchies can only be created from the initial cgroupns */
	v1_mount_named();
	for (const char *s = "a\0a/inner\0b\0"; *s; s += strlen(s) + 1) {
		snprintf(p, sizeof(p), "%s/%s", v1_mnt(), s);
		CHECK(mkdir(p, 0755) == 0, "mkdir %s", p);
	}
	snprintf(p, sizeof(p), "%s/a/cgroup.procs", v1_mnt());
	CHECK(write_file(p, "0") == 0, "v1 move into a");
	cg_move(getpid(), "a");
	h = spawn(v1_mounter, NULL);
	snprintf(p, sizeof(p), "%s/cgroup.procs", v1_mnt());
	CHECK(write_file(p, "0") == 0, "v1 move back");
	cg_move_out(getpid());
	finish(&h);
}

static void v1_mnt_cleanup(void)
{
	cgns_mnt_cleanup();
	v1_teardown();
}

/* Unprivileged: nobody -> own user+mount+cgroup ns, mapped as root */
static int unpriv_mounter(void *arg)
{
	const char *name = strrchr(cgns_mnt(), '/') + 1;
	int d;

	(void)arg;
	/* "/" may not be searchable for nobody: work relative to /tmp */
	CHECK(chdir("/tmp") == 0, "chdir /tmp");
	drop_to_nobody();
	CHECK(unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWCGROUP) == 0,
	      "unshare(NEWUSER|NEWNS|NEWCGROUP) as nobody");
	map_self_as_root(NOBODY, NOBODY);
	CHECK(getuid() == 0, "not mapped to root");
	make_mounts_private();
	CHECK(mount("none", name, "cgroup2", 0, NULL) == 0, "mount cgroup2 in own userns");
	d = open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(d >= 0, "open mount");
	check_v2_top(d);
	CHECK_STR(mountinfo_root(cgns_mnt()), "/", "mountinfo root of the new mount");
	return 0;
}

static void mount_userns_unpriv(void)
{
	struct helper h;

	layout();
	cg_move(getpid(), "a");
	h = spawn(unpriv_mounter, NULL);
	cg_move_out(getpid());
	finish(&h);
}

/*
 * The cgroupns belongs to the init user ns; a new user+mount ns gives us
 * mount rights but no rights over that cgroupns: EPERM for cgroupfs,
 * while tmpfs (the control) mounts fine.
 */
static int foreign_mounter(void *arg)
{
	(void)arg;
	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare(CLONE_NEWCGROUP) as root");
	CHECK(unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0, "unshare(NEWUSER|NEWNS)");
	map_self_as_root(0, 0);
	make_mounts_private();
	CHECK(mount("none", cgns_mnt(), "tmpfs", 0, NULL) == 0, "control: mount tmpfs");
	CHECK(umount2(cgns_mnt(), 0) == 0, "umount tmpfs");
	CHECK_ERR(mount("none", cgns_mnt(), "cgroup2", 0, NULL), EPERM,
		  "mount cgroup2 with a cgroupns of another userns");
	return 0;
}

static void mount_foreign_cgns_eperm(void)
{
	struct helper h;

	layout();
	cg_move(getpid(), "a");
	h = spawn(foreign_mounter, NULL);
	cg_move_out(getpid());
	finish(&h);
}

/* Is there a "name=<tag>" line in /proc/self/cgroup, i.e. a hierarchy? */
static bool v1_hierarchy_exists(void)
{
	char h[96];

	snprintf(h, sizeof(h), "name=%s", v1_name());
	return cgroup_line_of("/proc/self/cgroup", h) != NULL;
}

/*
 * A new v1 hierarchy ("none,name=<new>") cannot be created from a
 * non-initial cgroupns: EPERM, for root in the initial user ns and for
 * root of an own user ns alike, and nothing is left behind.  The same
 * mount from the initial cgroupns creates it (the control).
 */
static void mount_v1_new_eperm(void)
{
	char opts[128], fs[4096];
	pid_t pid;


	CHECK(read_file("/proc/filesystems", fs, sizeof(fs)) > 0, "read /proc/filesystems");
	if (!strstr(fs, "\tcgroup\n"))
		cgns_skip("no cgroup v1 filesystem");
	layout();
	snprintf(opts, sizeof(opts), "none,name=%s", v1_name());
	for (int userns = 0; userns < 2; userns++) {
		pid = fork();
		CHECK(pid >= 0, "fork");
		if (pid == 0) {
			if (userns) {
				CHECK(unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWCGROUP) == 0,
				      "unshare(NEWUSER|NEWNS|NEWCGROUP)");
				map_self_as_root(0, 0);
			} else {
				CHECK(unshare(CLONE_NEWNS | CLONE_NEWCGROUP) == 0,
				      "unshare(NEWNS|NEWCGROUP)");
			}
			make_mounts_private();
			CHECK_ERR(mount("cgns", cgns_mnt(), "cgroup", 0, opts), EPERM,
				  userns ? "new v1 hierarchy from a user ns root in a cgroupns"
					 : "new v1 hierarchy from a cgroupns");
			_exit(0);
		}
		reap(pid);
		CHECK(!v1_hierarchy_exists(), "a hierarchy name=%s appeared", v1_name());
	}
	v1_mount_named();
	CHECK(v1_hierarchy_exists(), "control: no hierarchy name=%s", v1_name());
}

static const struct cgns_case cases[] = {
	{ "mount_v2_init_ns", mount_v2_init_ns, 0, 0, cgns_mnt_cleanup },
	{ "mount_v2_root", mount_v2_root, CGNS_NEED_NS, 0, cgns_mnt_cleanup },
	{ "host_mount_relative", host_mount_relative, CGNS_NEED_NS, 0, cgns_mnt_cleanup },
	{ "mount_v1_named", mount_v1_named, CGNS_NEED_NS, 0, v1_mnt_cleanup },
	{ "mount_v1_new_eperm", mount_v1_new_eperm, CGNS_NEED_NS, 0, v1_mnt_cleanup },
	{ "mount_userns_unpriv", mount_userns_unpriv, CGNS_NEED_NS, 0, cgns_mnt_cleanup },
	{ "mount_foreign_cgns_eperm", mount_foreign_cgns_eperm, CGNS_NEED_NS, 0, cgns_mnt_cleanup },
};

CGNS_MAIN(cases)
