// SPDX-License-Identifier: GPL-2.0
/*
 * Walk every allocation failure point of the operations that reach cgroup
 * namespaces, one at a time, with /proc/thread-self/fail-nth (failslab):
 * for n = 1, 2, ... a fresh child prepares the operation, arms fail-nth
 * with n and runs it; the walk of an operation ends at the first n that the
 * operation no longer reaches (fail-nth still armed afterwards).  unshare
 * of a cgroup and a network namespace walks the unwind of the cgroup
 * namespace when the network one fails after it.
 *
 * Checked for each point: the operation either succeeds or fails with
 * ENOMEM (an allocation failure must not turn into another error, a crash
 * or a hang), or, where a namespace is made, ENOSPC: inc_ucount() cannot
 * tell a failed allocation from the limit, upstream and in the series;
 * or, for opening a /proc file, ENOENT: procfs reports a failed inode
 * allocation in its lookup so.  The child exits cleanly.  Checked after each walk: the
 * cgroups it ran in can be removed and none of them stays a dying cgroup
 * (nr_dying_descendants of the root drops back), i.e. no error path kept
 * a reference to a cgroup, css_set or cgroup namespace.  The guest runner
 * checks kmemleak, taint and the console after the program.
 *
 * Needs CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB and
 * CONFIG_FAULT_INJECTION_DEBUG_FS (make fuzz's DEBUG=1 kernel): failslab
 * ignores GFP_KERNEL allocations unless its ignore-gfp-wait knob is off.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/mount.h>
#include <linux/sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#define CG		"/sys/fs/cgroup"
#define FS		"/sys/kernel/debug/failslab"
#define MAX_POINTS	20000

struct failnth_op {
	const char *cg;		/* the cgroup the child runs in */
	const char *into;	/* clone3(CLONE_INTO_CGROUP)'s target */
	int holder_fd;		/* a namespace to setns() into, or -1 */
	int nth_fd;		/* /proc/thread-self/fail-nth, opened first */
	char mnt[64];		/* a mount point of the child's own */
};

static int failnth_write(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : (n < 0 ? -errno : -EIO);
}

/* nr_dying_descendants of the root cgroup */
static int failnth_dying(long *v)
{
	char buf[256], *p;
	ssize_t n;
	int fd;

	fd = open(CG "/cgroup.stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	p = strstr(buf, "nr_dying_descendants ");
	if (!p)
		return -ENOENT;
	*v = strtol(p + strlen("nr_dying_descendants "), NULL, 10);
	return 0;
}

/* Wait up to 10 s for the dying cgroups to go back to @want. */
static int failnth_settle(long want, long *got)
{
	int i, ret;

	for (i = 0; i < 100; i++) {
		ret = failnth_dying(got);
		if (ret || *got <= want)
			return ret;
		usleep(100000);
	}
	return 0;
}

static int failnth_move_self(const char *cg)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/cgroup.procs", cg);
	return failnth_write(p, "0");
}

/* The operations: each returns 0 or -errno, and runs armed. */

static int op_unshare(struct failnth_op *o)
{
	return unshare(CLONE_NEWCGROUP) ? -errno : 0;
}

/* A later namespace failing unwinds the cgroup namespace just made. */
static int op_unshare_net(struct failnth_op *o)
{
	return unshare(CLONE_NEWCGROUP | CLONE_NEWNET) ? -errno : 0;
}

static int op_clone(struct failnth_op *o)
{
	int status;
	pid_t pid;

	pid = syscall(SYS_clone, CLONE_NEWCGROUP | SIGCHLD, 0, NULL, NULL, 0);
	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(0);
	if (waitpid(pid, &status, 0) != pid)
		return -ECHILD;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ECHILD;
}

static int op_clone3_into(struct failnth_op *o)
{
	struct clone_args args = {
		.flags = CLONE_NEWCGROUP | CLONE_INTO_CGROUP,
		.exit_signal = SIGCHLD,
	};
	int status, cgfd;
	pid_t pid;

	cgfd = open(o->into, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgfd < 0)
		return -errno;
	args.cgroup = cgfd;
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0)
		_exit(0);
	if (pid < 0) {
		pid = -errno;
		close(cgfd);
		return pid;
	}
	close(cgfd);
	if (waitpid(pid, &status, 0) != pid)
		return -ECHILD;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ECHILD;
}

static int op_setns(struct failnth_op *o)
{
	return setns(o->holder_fd, CLONE_NEWCGROUP) ? -errno : 0;
}

static int op_mount2(struct failnth_op *o)
{
	return mount("cgroup2", o->mnt, "cgroup2", 0, NULL) ? -errno : 0;
}

static int op_fsmount2(struct failnth_op *o)
{
	int fs, m, ret = 0;

	fs = syscall(SYS_fsopen, "cgroup2", FSOPEN_CLOEXEC);
	if (fs < 0)
		return -errno;
	if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		ret = -errno;
		goto out;
	}
	m = syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, 0);
	if (m < 0) {
		ret = -errno;
		goto out;
	}
	if (syscall(SYS_move_mount, m, "", AT_FDCWD, o->mnt, MOVE_MOUNT_F_EMPTY_PATH))
		ret = -errno;
	close(m);
out:
	close(fs);
	return ret;
}

static int op_mount1(struct failnth_op *o)
{
	return mount("cgroup", o->mnt, "cgroup", 0, "none,name=cgns_failnth") ? -errno : 0;
}

static int op_read(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, sizeof(buf));
	while (n > 0);
	/* only open() may say ENOENT */
	n = n < 0 ? (errno == ENOENT ? -EIO : -errno) : 0;
	close(fd);
	return n;
}

static int op_proc_cgroup(struct failnth_op *o)
{
	return op_read("/proc/self/cgroup");
}

static int op_mountinfo(struct failnth_op *o)
{
	return op_read("/proc/self/mountinfo");
}

/* Preparations, run unarmed in the child. */
enum { P_NS = 1, P_MNTNS = 2, P_MOUNTED = 4 };

static int failnth_prepare(struct failnth_op *o, int flags)
{
	if (flags & P_MNTNS) {
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
			return -errno;
		snprintf(o->mnt, sizeof(o->mnt), "/tmp/cgns_failnth.%d", getpid());
		if (mkdir(o->mnt, 0755) && errno != EEXIST)
			return -errno;
	}
	if ((flags & P_NS) && unshare(CLONE_NEWCGROUP))
		return -errno;
	if ((flags & P_MOUNTED) && mount("cgroup2", o->mnt, "cgroup2", 0, NULL))
		return -errno;
	return 0;
}

struct failnth_result {
	int prep;	/* 0 or -errno of the preparation */
	int ret;	/* 0 or -errno of the operation */
	long left;	/* fail-nth after it: 0 if the failure was injected */
};

/*
 * Run @op once with fail-nth armed at @nth in a child in cgroup @o->cg;
 * fill @res.  Returns 0, or -errno if the child could not be run.
 */
static int failnth_once(struct failnth_op *o, int (*op)(struct failnth_op *),
			int flags, long nth, struct failnth_result *res)
{
	struct failnth_result *shared;
	int status, ret = 0;
	pid_t pid;

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return -errno;
	shared->prep = -EINPROGRESS;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out;
	}
	if (pid == 0) {
		char s[32];
		int fd;

		shared->prep = failnth_move_self(o->cg);
		if (!shared->prep)
			shared->prep = failnth_prepare(o, flags);
		fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
		if (!shared->prep && fd < 0)
			shared->prep = -errno;
		if (shared->prep)
			_exit(1);
		o->nth_fd = fd;
		snprintf(s, sizeof(s), "%ld", nth);
		if (write(fd, s, strlen(s)) != (ssize_t)strlen(s)) {
			shared->prep = -errno;
			_exit(1);
		}
		shared->ret = op(o);
		/* read back at once: every allocation counts down */
		if (pread(fd, s, sizeof(s) - 1, 0) <= 0)
			s[0] = '?', s[1] = '\0';
		shared->left = strtol(s, NULL, 10);
		/* disarm before anything else allocates */
		(void)!pwrite(fd, "0", 1, 0);
		if (flags & P_MNTNS)
			rmdir(o->mnt);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid) {
		ret = -ECHILD;
		goto out;
	}
	*res = *shared;
	if (!WIFEXITED(status))
		ret = -EINTR;	/* killed: reported by the caller */
out:
	munmap(shared, sizeof(*shared));
	return ret;
}

FIXTURE(failnth) {
	char cg[128], w0[160], w1[160];
	char saved_gfp_wait[8], saved_verbose[8];
	long dying_before;
	pid_t holder;
	int holder_fd;
	char v1mnt[64];
	bool v1;
};

/* A process in a cgroup namespace rooted at @cg/h that waits for SIGKILL. */
static pid_t failnth_holder(const char *cg)
{
	char h[160];
	pid_t pid;

	snprintf(h, sizeof(h), "%s/h", cg);
	if (mkdir(h, 0755))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (failnth_move_self(h) || unshare(CLONE_NEWCGROUP))
			_exit(1);
		for (;;)
			pause();
	}
	return pid;
}

static int failnth_save(const char *knob, char *buf, size_t size)
{
	char p[128];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), FS "/%s", knob);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

FIXTURE_SETUP(failnth)
{
	char p[200];
	int i;

	self->holder = 0;
	self->holder_fd = -1;
	self->saved_gfp_wait[0] = self->saved_verbose[0] = '\0';
	if (access("/proc/self/ns/cgroup", F_OK))
		SKIP(return, "no cgroup namespaces on this kernel");
	if (access("/proc/thread-self/fail-nth", F_OK))
		SKIP(return, "no /proc/<pid>/fail-nth (CONFIG_FAULT_INJECTION)");
	/* debugfs in a mount namespace of our own: nothing left mounted */
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	if (access(FS, F_OK))
		ASSERT_EQ(0, mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL));
	if (access(FS, F_OK))
		SKIP(return, "no " FS " (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)");
	ASSERT_EQ(0, failnth_save("ignore-gfp-wait", self->saved_gfp_wait,
				  sizeof(self->saved_gfp_wait)));
	ASSERT_EQ(0, failnth_save("verbose", self->saved_verbose,
				  sizeof(self->saved_verbose)));
	/* GFP_KERNEL allocations too; no stack dump per injected failure */
	ASSERT_EQ(0, failnth_write(FS "/ignore-gfp-wait", "N"));
	ASSERT_EQ(0, failnth_write(FS "/verbose", "0"));

	snprintf(self->cg, sizeof(self->cg), CG "/cgns_failnth.%d", getpid());
	snprintf(self->w0, sizeof(self->w0), "%s/w0", self->cg);
	snprintf(self->w1, sizeof(self->w1), "%s/w1", self->cg);
	ASSERT_EQ(0, mkdir(self->cg, 0755));
	ASSERT_EQ(0, mkdir(self->w0, 0755));
	ASSERT_EQ(0, mkdir(self->w1, 0755));
	ASSERT_EQ(0, failnth_settle(0, &self->dying_before));
	self->holder = failnth_holder(self->cg);
	ASSERT_LT(0, self->holder);
	snprintf(p, sizeof(p), "/proc/%d/ns/cgroup", self->holder);
	/* wait until the holder has its namespace */
	for (i = 0; i < 1000; i++) {
		struct stat a, b;

		if (!stat(p, &a) && !stat("/proc/self/ns/cgroup", &b) &&
		    a.st_ino != b.st_ino)
			break;
		usleep(10000);
	}
	self->holder_fd = open(p, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->holder_fd);
	/*
	 * A v1 named hierarchy, made from the initial namespace (a namespace
	 * may only mount an existing one) and kept mounted in our private
	 * mount namespace: it goes when the test process exits.
	 */
	snprintf(self->v1mnt, sizeof(self->v1mnt), "/tmp/cgns_failnth_v1.%d", getpid());
	ASSERT_EQ(0, mkdir(self->v1mnt, 0755));
	self->v1 = !mount("cgroup", self->v1mnt, "cgroup", 0, "none,name=cgns_failnth");
}

FIXTURE_TEARDOWN(failnth)
{
	char p[200];
	long dying;

	if (self->holder_fd >= 0)
		close(self->holder_fd);
	if (self->holder > 0) {
		kill(self->holder, SIGKILL);
		waitpid(self->holder, NULL, 0);
	}
	if (self->v1) {
		umount2(self->v1mnt, MNT_DETACH);
		rmdir(self->v1mnt);
	}
	if (self->cg[0]) {
		snprintf(p, sizeof(p), "%s/h", self->cg);
		rmdir(p);
		EXPECT_EQ(0, rmdir(self->w0) ? -errno : 0);
		EXPECT_EQ(0, rmdir(self->w1) ? -errno : 0);
		EXPECT_EQ(0, rmdir(self->cg) ? -errno : 0);
		/* every reference the walk took is gone: no dying cgroup */
		EXPECT_EQ(0, failnth_settle(self->dying_before, &dying));
		EXPECT_EQ(self->dying_before, dying)
			TH_LOG("cgroups still dying: a reference was leaked");
	}
	if (self->saved_gfp_wait[0])
		failnth_write(FS "/ignore-gfp-wait", self->saved_gfp_wait);
	if (self->saved_verbose[0])
		failnth_write(FS "/verbose", self->saved_verbose);
}

/* The errors an operation may fail with besides ENOMEM. */
enum { E_UCOUNT = 1, E_PROC = 2, E_ANY = 4 };

/*
 * Walk @op: fail its 1st, 2nd, ... allocation until it no longer reaches
 * the n-th; each run must succeed or fail with ENOMEM, or with ENOSPC
 * (@errs & E_UCOUNT: the operation makes a namespace) or ENOENT (@errs &
 * E_PROC: it opens a /proc file); with E_ANY any error: the network
 * stack's pernet setup turns a failed allocation into EEXIST, ENODEV or
 * EINVAL, and what that walk checks is the cgroup namespace's unwind.
 */
static void failnth_walk(struct __test_metadata *_metadata,
			 FIXTURE_DATA(failnth) *self,
			 int (*op)(struct failnth_op *), int flags, int errs)
{
	struct failnth_op o = {
		.cg = self->w0, .into = self->w1, .holder_fd = self->holder_fd,
	};
	struct failnth_result r;
	long nth, failed = 0;

	for (nth = 1; nth <= MAX_POINTS; nth++) {
		memset(&r, 0, sizeof(r));
		ASSERT_EQ(0, failnth_once(&o, op, flags, nth, &r))
			TH_LOG("point %ld: the child died", nth);
		ASSERT_EQ(0, r.prep) TH_LOG("point %ld: preparation: %s",
					    nth, strerror(-r.prep));
		if (r.left) {
			/* not reached: the operation has nth - 1 points */
			ASSERT_EQ(0, r.ret) TH_LOG("unarmed run: %s", strerror(-r.ret));
			break;
		}
		if (r.ret)
			failed++;
		EXPECT_TRUE(r.ret == 0 || r.ret == -ENOMEM || (errs & E_ANY) ||
			    ((errs & E_UCOUNT) && r.ret == -ENOSPC) ||
			    ((errs & E_PROC) && r.ret == -ENOENT))
			TH_LOG("point %ld: %s instead of success or ENOMEM%s%s",
			       nth, strerror(-r.ret),
			       errs & E_UCOUNT ? " or ENOSPC" : "",
			       errs & E_PROC ? " or ENOENT" : "");
	}
	ASSERT_GE(MAX_POINTS, nth) TH_LOG("more than %d failure points?", MAX_POINTS);
	TH_LOG("%ld allocation failure points, %ld of them failed the call",
	       nth - 1, failed);
	ASSERT_LT(1, nth) TH_LOG("no allocation at all: fail-nth not working?");
}

TEST_F_TIMEOUT(failnth, unshare, 600)
{
	failnth_walk(_metadata, self, op_unshare, 0, E_UCOUNT);
}

TEST_F_TIMEOUT(failnth, unshare_with_netns, 600)
{
	failnth_walk(_metadata, self, op_unshare_net, 0, E_ANY);
}

TEST_F_TIMEOUT(failnth, clone, 600)
{
	failnth_walk(_metadata, self, op_clone, 0, E_UCOUNT);
}

/* The child runs in w0; the task clone3() makes starts in w1. */
TEST_F_TIMEOUT(failnth, clone3_into_cgroup, 600)
{
	failnth_walk(_metadata, self, op_clone3_into, 0, E_UCOUNT);
}

TEST_F_TIMEOUT(failnth, setns, 600)
{
	failnth_walk(_metadata, self, op_setns, 0, 0);
}

TEST_F_TIMEOUT(failnth, mount_cgroup2_in_ns, 600)
{
	failnth_walk(_metadata, self, op_mount2, P_NS | P_MNTNS, 0);
}

TEST_F_TIMEOUT(failnth, fsmount_cgroup2_in_ns, 600)
{
	failnth_walk(_metadata, self, op_fsmount2, P_NS | P_MNTNS, 0);
}

TEST_F_TIMEOUT(failnth, mount_v1_named_in_ns, 600)
{
	if (!self->v1)
		SKIP(return, "no v1 named hierarchy on this kernel");
	failnth_walk(_metadata, self, op_mount1, P_NS | P_MNTNS, 0);
}

TEST_F_TIMEOUT(failnth, read_proc_cgroup_in_ns, 600)
{
	failnth_walk(_metadata, self, op_proc_cgroup, P_NS, E_PROC);
}

TEST_F_TIMEOUT(failnth, read_mountinfo_in_ns, 600)
{
	failnth_walk(_metadata, self, op_mountinfo, P_NS | P_MNTNS | P_MOUNTED, E_PROC);
}

TEST_HARNESS_MAIN
