// SPDX-License-Identifier: GPL-2.0
/*
 * Lifetime of a cgroup namespace (behaviour 7): it lives as long as a
 * process or an nsfs reference holds it, its cgroups outlive it, and the
 * number of namespaces per user is limited by user.max_cgroup_namespaces.
 */
#include "cgns_common.h"

#define MAXNS "/proc/sys/user/max_cgroup_namespaces"

/* The creator exits; a child that inherited the ns keeps it alive. */
static int creator(void *arg)
{
	pid_t kid;

	(void)arg;
	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare");
	kid = fork();
	CHECK(kid >= 0, "fork");
	if (kid == 0) {
		/* keep our parent's pipe closed so only the parent answers */
		close(hl_out);
		close(hl_in);
		pause();
		_exit(0);
	}
	h_send(ns_ino("/proc/self/ns/cgroup"));
	h_send(kid);
	return 0;	/* the creator is gone; kid becomes ours (subreaper) */
}

static void outlives_creator_process(void)
{
	struct helper h;
	ino_t ino;
	pid_t kid, pid;

	/* the creator's child is orphaned: have it reparented to us */
	CHECK(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0, "PR_SET_CHILD_SUBREAPER");
	cg_mkdir("a");
	cg_mkdir("c");
	cg_move(getpid(), "a");
	h = spawn(creator, NULL);
	cg_move_out(getpid());
	ino = c_recv(&h);
	kid = c_recv(&h);
	finish(&h);	/* the creator exited and is reaped */

	CHECK(ns_ino_pid(kid) == ino, "survivor's ns is not the creator's");

	cg_move(getpid(), "c");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		char p[64];
		int nsfd;

		snprintf(p, sizeof(p), "%d/ns/cgroup", kid);
		nsfd = openat(cgns_proc_fd, p, O_RDONLY | O_CLOEXEC);
		CHECK(nsfd >= 0, "open /proc/%d/ns/cgroup", kid);
		CHECK(setns(nsfd, CLONE_NEWCGROUP) == 0, "setns into the surviving ns");
		CHECK(ns_ino("/proc/self/ns/cgroup") == ino, "joined another ns");
		/* same root as before: <base>/a */
		CHECK_STR(must_cg2_path_of(0), "/../c", "view in the surviving ns");
		CHECK_STR(must_cg2_path_of(kid), "/", "survivor seen inside");
		_exit(0);
	}
	reap(pid);
	cg_move_out(getpid());

	/* the last process goes: the cgroups stay and stay usable */
	kill(kid, SIGKILL);
	CHECK(waitpid(kid, NULL, 0) == kid, "reap the survivor");
	CHECK(exists(cgp("a/cgroup.procs")), "ns root cgroup vanished with the ns");
	cg_move(getpid(), "a");
	cg_move_out(getpid());
	CHECK(rmdir(cgp("a")) == 0, "rmdir the former ns root");
}

/* Only an nsfs fd holds the ns: setns through it after the creator died */
static int fd_creator(void *arg)
{
	(void)arg;
	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare");
	h_send(ns_ino("/proc/self/ns/cgroup"));
	h_recv();
	return 0;
}

static int fd_joiner(void *arg)
{
	CHECK(setns(*(int *)arg, CLONE_NEWCGROUP) == 0, "second setns via the kept fd");
	h_send(0);
	h_recv();
	CHECK_STR(must_cg2_path_of(0), "/x", "view below the old root");
	return 0;
}

static void outlives_creator_fd(void)
{
	struct helper h;
	struct stat st;
	char p[64];
	ino_t ino;
	pid_t pid;
	int fd;

	cg_mkdir("a");
	cg_mkdir("a/x");
	cg_mkdir("c");
	cg_move(getpid(), "a");
	h = spawn(fd_creator, NULL);
	cg_move_out(getpid());
	ino = c_recv(&h);
	snprintf(p, sizeof(p), "%d/ns/cgroup", h.pid);
	fd = openat(cgns_proc_fd, p, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0, "open /proc/%d/ns/cgroup", h.pid);
	c_send(&h, 0);
	finish(&h);

	CHECK(fstat(fd, &st) == 0 && st.st_ino == ino, "fd does not name the ns");
	cg_move(getpid(), "c");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		CHECK(setns(fd, CLONE_NEWCGROUP) == 0, "setns via the kept fd");
		CHECK(ns_ino("/proc/self/ns/cgroup") == ino, "joined another ns");
		CHECK_STR(must_cg2_path_of(0), "/../c", "root is still <base>/a");
		_exit(0);
	}
	cg_move_out(getpid());
	reap(pid);

	/*
	 * again, then moved below the old root by the case process (with
	 * nsdelegate the joiner itself may not leave c for a/x)
	 */
	h = spawn(fd_joiner, &fd);
	c_recv(&h);
	cg_move(h.pid, "a/x");
	c_send(&h, 0);
	finish(&h);
	close(fd);
}

/*
 * The ns root cgroup may be removed while the ns lives on (only an fd
 * holds it): rmdir works, and joining the ns later must neither crash nor
 * produce garbage: the path is still relative to the (dead) root.
 */
static void root_removed_while_held(void)
{
	struct helper h;
	char p[64];
	pid_t pid;
	int fd;

	cg_mkdir("a");
	cg_mkdir("c");
	cg_move(getpid(), "a");
	h = spawn(fd_creator, NULL);
	cg_move_out(getpid());
	c_recv(&h);
	snprintf(p, sizeof(p), "%d/ns/cgroup", h.pid);
	fd = openat(cgns_proc_fd, p, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0, "open ns");
	c_send(&h, 0);
	finish(&h);
	CHECK(rmdir(cgp("a")) == 0, "rmdir the root of a live ns");

	cg_move(getpid(), "c");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		char *s;

		CHECK(setns(fd, CLONE_NEWCGROUP) == 0, "setns into the ns of a removed root");
		s = cg2_path_of(0);
		CHECK(s, "read own cgroup");
		CHECK_STR(s, "/../c", "view relative to the removed root");
		_exit(0);
	}
	reap(pid);
	cg_move_out(getpid());
	close(fd);
}

/* sysctl handling: remember and restore the limit around a case */
static void save_limit(void)
{
	char buf[64];

	if (read_file(MAXNS, buf, sizeof(buf)) <= 0)
		cgns_skip("no %s", MAXNS);
	snprintf(cgns_shared + 1024, 64, "%s", buf);
}

static void restore_limit(void)
{
	if (cgns_shared[1024])
		write_file(MAXNS, cgns_shared + 1024);
}

static void set_limit(int n)
{
	char s[32];

	snprintf(s, sizeof(s), "%d", n);
	CHECK(write_file(MAXNS, s) == 0, "write %s to %s", s, MAXNS);
}

/*
 * A child that creates and holds namespaces (one nsfs fd each) until it
 * gets ENOSPC; reports how many it made.  Any other error fails.
 */
static int fill(void)
{
	int n = 0, fds[64];
	pid_t pid;
	int st;
	int pfd[2];

	CHECK(pipe(pfd) == 0, "pipe");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		close(pfd[0]);
		for (n = 0; n < 64; n++) {
			if (unshare(CLONE_NEWCGROUP)) {
				CHECK(errno == ENOSPC, "unshare failed with other than ENOSPC");
				break;
			}
			fds[n] = openat(cgns_proc_fd, "self/ns/cgroup", O_RDONLY);
			CHECK(fds[n] >= 0, "open own ns");
		}
		CHECK(n < 64, "no limit reached after 64 namespaces");
		/* clone() is limited the same way while we hold them all */
		CHECK_ERR(clone_flags(CLONE_NEWCGROUP), ENOSPC, "clone at the limit");
		CHECK(write(pfd[1], &n, sizeof(n)) == sizeof(n), "write");
		_exit(0);
	}
	close(pfd[1]);
	CHECK(read(pfd[0], &n, sizeof(n)) == sizeof(n), "filler reported nothing");
	close(pfd[0]);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st),
	      "filler failed");
	return n;
}

static void ucount_limit(void)
{
	int n1, n2;

	save_limit();
	set_limit(4);
	n1 = fill();
	CHECK(n1 >= 1 && n1 <= 4, "made %d namespaces under a limit of 4", n1);
	/* the filler exited: its namespaces are freed and counted down */
	n2 = fill();
	CHECK(n2 == n1, "second fill made %d, first %d: namespaces leaked", n2, n1);
	restore_limit();
}

static void ucount_zero(void)
{
	save_limit();
	set_limit(0);
	CHECK_ERR(unshare(CLONE_NEWCGROUP), ENOSPC, "unshare with limit 0");
	CHECK_ERR(clone_flags(CLONE_NEWCGROUP), ENOSPC, "clone with limit 0");
	restore_limit();
	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare after restoring the limit");
}

static const struct cgns_case cases[] = {
	CASE(outlives_creator_process, CGNS_NEED_NS),
	CASE(outlives_creator_fd, CGNS_NEED_NS),
	CASE(root_removed_while_held, CGNS_NEED_NS),
	{ "ucount_limit", ucount_limit, CGNS_NEED_NS, 0, restore_limit },
	{ "ucount_zero", ucount_zero, CGNS_NEED_NS, 0, restore_limit },
};

CGNS_MAIN(cases)
