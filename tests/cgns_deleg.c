// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup namespaces as delegation boundaries (cgroup2 "nsdelegate", which
 * the test guest's /init sets):
 *
 *  - CVE-2021-4197: a cgroup.procs/cgroup.threads fd carries the cgroupns
 *    of the task that opened it; writes through it follow the opener's
 *    namespace rules, whoever writes;
 *  - inside a cgroupns, the ns root's interface files are not writable
 *    except cgroup.procs, cgroup.threads and cgroup.subtree_control, and
 *    the no-internal-process rule (domain controllers) still applies to
 *    the ns root;
 *  - clone3(CLONE_INTO_CGROUP) from inside cannot target a cgroup outside
 *    the ns root;
 *  - mount options of cgroup2 are system wide: a mount made inside a
 *    cgroupns, or from an fs_context created inside one, cannot switch
 *    nsdelegate off for the host.
 *
 * Layout: <base>/ns (ns root, with ns/x), <base>/out (outside it).
 */
#include "cgns_common.h"
#include <sys/socket.h>
#include <linux/sched.h>	/* struct clone_args, CLONE_INTO_CGROUP */

#ifndef __NR_fsopen
#define __NR_fsopen 430
#endif
#ifndef __NR_fsconfig
#define __NR_fsconfig 431
#endif
#ifndef FSCONFIG_CMD_CREATE
#define FSCONFIG_CMD_CREATE 6
#endif

static void layout(void)
{
	cg_mkdir("ns");
	cg_mkdir("ns/x");
	cg_mkdir("out");
}

/* open <base>/<rel> (through the runner's cgroup2 dirfd) */
static int cg_open(const char *rel, int flags)
{
	const char *p = cgp("%s", rel), *q = p;
	int dfd = cgns_dirfd(AT_FDCWD, &q);
	int fd = openat(dfd, q, flags | O_CLOEXEC);

	CHECK(fd >= 0, "open %s", p);
	return fd;
}

/* write a pid as one write(); 0 or -1 with errno */
static int write_pid(int fd, pid_t pid)
{
	char s[32];

	snprintf(s, sizeof(s), "%d", pid);
	return write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
}

/* SCM_RIGHTS over a unix socket */
static void send_fd(int sock, int fd)
{
	char c = 'f', cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { &c, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	CHECK(sendmsg(sock, &msg, 0) == 1, "sendmsg(SCM_RIGHTS)");
}

static int recv_fd(int sock)
{
	char c, cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	int fd;

	CHECK(recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) == 1, "recvmsg");
	cm = CMSG_FIRSTHDR(&msg);
	CHECK(cm && cm->cmsg_type == SCM_RIGHTS, "no fd received");
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

static int sock_pair[2];

/* A process that only sits in @rel: the task that gets moved around. */
static pid_t victim_in(const char *rel)
{
	pid_t pid = fork();

	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		pause();
		_exit(0);
	}
	cg_move(pid, rel);
	return pid;
}

static void victim_stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * Start a helper whose cgroupns is rooted at <base>/ns: it unshares, says
 * so with h_send(), and waits in h_recv() until we have left <base>/ns.
 */
static struct helper inside(int (*fn)(void *), void *arg)
{
	struct helper h;

	cg_move(getpid(), "ns");
	h = spawn(fn, arg);
	cg_move_out(getpid());
	c_recv(&h);
	c_send(&h, 0);
	return h;
}

static void inside_ready(void)
{
	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare(CLONE_NEWCGROUP)");
	h_send(0);
	h_recv();
}

static void need_nsdelegate(void)
{
	if (!nsdelegate_on())
		cgns_skip("%s is not mounted with nsdelegate", cg_root);
}

/* ------------------------------------------------------------------ */
/* CVE-2021-4197: the opener's namespace decides                       */

/* opens <base>/ns/<file> inside the ns, hands the fd over */
static int opener_inside(void *arg)
{
	const char *file = arg;
	char rel[64];

	inside_ready();
	CHECK_STR(must_cg2_path_of(0), "/", "opener's view");
	snprintf(rel, sizeof(rel), "ns/%s", file);
	send_fd(sock_pair[1], cg_open(rel, O_WRONLY));
	h_recv();
	return 0;
}

/*
 * A root task inside the ns opens <base>/ns/<file>; root in the initial
 * cgroupns writes through that fd the pid of a task in <base>/out, outside
 * the opener's ns root: ENOENT.  The same write through its own fd works.
 */
static void fd_from_inside(const char *file)
{
	char rel[64], want[PATH_MAX];
	struct helper h;
	pid_t v;
	int fd, own;

	need_nsdelegate();
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock_pair) == 0,
	      "socketpair");
	v = victim_in("out");
	h = inside(opener_inside, (void *)file);
	fd = recv_fd(sock_pair[0]);
	CHECK_ERR(write_pid(fd, v), ENOENT,
		  "init-ns root writing an outside pid through the inside opener's fd");
	CHECK_STR(must_cg2_path_of(v), hostp("out"), "victim moved anyway");
	/* control: the writer's own fd to the same file */
	snprintf(rel, sizeof(rel), "ns/%s", file);
	own = cg_open(rel, O_WRONLY);
	CHECK(write_pid(own, v) == 0, "control: the same write through an own fd");
	snprintf(want, sizeof(want), "%s", hostp("ns"));
	CHECK_STR(must_cg2_path_of(v), want, "victim after the control write");
	close(own);
	close(fd);
	c_send(&h, 0);
	finish(&h);
	victim_stop(v);
}

static void fd_procs_opener_ns(void)
{
	layout();
	fd_from_inside("cgroup.procs");
}

/*
 * cgroup.threads: threads move only within one threaded domain, so ns and
 * out are threaded children of <base> (the domain); the victim's only
 * thread is what moves.
 */
static void fd_threads_opener_ns(void)
{
	cg_mkdir("ns");
	cg_mkdir("out");
	CHECK(write_file(cgp("ns/cgroup.type"), "threaded") == 0, "make ns threaded");
	CHECK(write_file(cgp("out/cgroup.type"), "threaded") == 0, "make out threaded");
	fd_from_inside("cgroup.threads");
}

/* receives an fd opened outside; moves the victim into ns/x through it */
static int writer_inside(void *arg)
{
	pid_t v = *(pid_t *)arg;
	int own, fd;

	inside_ready();
	/* control: with its own fd the task inside may not reach "out" */
	own = cg_open("ns/x/cgroup.procs", O_WRONLY);
	CHECK_ERR(write_pid(own, v), ENOENT, "inside task, own fd, victim outside the ns root");
	close(own);
	fd = recv_fd(sock_pair[1]);
	CHECK(write_pid(fd, v) == 0, "inside task writing through the init-ns opener's fd");
	close(fd);
	h_send(0);
	h_recv();
	return 0;
}

/*
 * The reverse: root in the initial cgroupns opens <base>/ns/x/cgroup.procs
 * and passes the fd into the ns; a root task there moves a task from
 * <base>/out into ns/x through it: allowed by the opener's view.
 */
static void fd_outside_used_inside(void)
{
	struct helper h;
	pid_t v;

	need_nsdelegate();
	layout();
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock_pair) == 0,
	      "socketpair");
	v = victim_in("out");
	h = inside(writer_inside, &v);
	send_fd(sock_pair[0], cg_open("ns/x/cgroup.procs", O_WRONLY));
	c_recv(&h);
	CHECK_STR(must_cg2_path_of(v), hostp("ns/x"), "victim after the move from inside");
	c_send(&h, 0);
	finish(&h);
	victim_stop(v);
}

/* ------------------------------------------------------------------ */
/* The ns root's files                                                 */

/*
 * Enable pids (a threaded controller) and memory (a domain controller)
 * from the root down to <base>; cleanup undoes what we enabled at the
 * root (flags in cgns_shared[1024 + i]).
 */
static const char *const ctrls[] = { "pids", "memory" };

static void ctrls_setup(void)
{
	char buf[512], p[300], s[32];

	snprintf(p, sizeof(p), "%s/cgroup.controllers", cg_root);
	CHECK(read_file(p, buf, sizeof(buf)) >= 0, "read %s", p);
	for (size_t i = 0; i < ARRAY_SIZE(ctrls); i++)
		if (!strstr(buf, ctrls[i]))
			cgns_skip("%s controller not available on cgroup2", ctrls[i]);
	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", cg_root);
	for (size_t i = 0; i < ARRAY_SIZE(ctrls); i++) {
		CHECK(read_file(p, buf, sizeof(buf)) >= 0, "read %s", p);
		if (strstr(buf, ctrls[i]))
			continue;
		snprintf(s, sizeof(s), "+%s", ctrls[i]);
		CHECK(write_file(p, s) == 0, "enable %s at the root", ctrls[i]);
		cgns_shared[1024 + i] = 1;
	}
	CHECK(write_file(cgp("cgroup.subtree_control"), "+pids +memory") == 0,
	      "enable pids and memory in base");
}

static void ctrls_cleanup(void)
{
	char p[300], s[32];

	cg_kill_tree(cg_base);
	rm_tree(cg_base);
	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", cg_root);
	for (size_t i = 0; i < ARRAY_SIZE(ctrls); i++)
		if (cgns_shared[1024 + i]) {
			snprintf(s, sizeof(s), "-%s", ctrls[i]);
			write_file(p, s);
		}
}

static int ns_root_writer(void *arg)
{
	(void)arg;
	inside_ready();
	CHECK(exists(cgp("ns/pids.max")), "ns root has no pids.max");
	CHECK_ERR(write_file(cgp("ns/pids.max"), "100"), EPERM,
		  "writing the ns root's pids.max from inside");
	CHECK_ERR(write_file(cgp("ns/memory.max"), "1G"), EPERM,
		  "writing the ns root's memory.max from inside");
	/* cgroup.procs of the ns root and below: moves work */
	CHECK(write_file(cgp("ns/x/cgroup.procs"), "0") == 0, "move to x from inside");
	CHECK_STR(must_cg2_path_of(0), "/x", "view in x");
	CHECK(write_file(cgp("ns/cgroup.procs"), "0") == 0,
	      "move back through the ns root's cgroup.procs");
	CHECK_STR(must_cg2_path_of(0), "/", "view back at the ns root");
	/*
	 * subtree_control: writable from inside; no internal processes for a
	 * domain controller (memory), also at the ns root, while a threaded
	 * one (pids) may be enabled with processes in the cgroup.
	 */
	CHECK(write_file(cgp("ns/cgroup.subtree_control"), "+pids") == 0,
	      "+pids (threaded) in the ns root's subtree_control with us in the ns root");
	CHECK(write_file(cgp("ns/cgroup.subtree_control"), "-pids") == 0,
	      "-pids in the ns root's subtree_control");
	CHECK_ERR(write_file(cgp("ns/cgroup.subtree_control"), "+memory"), EBUSY,
		  "+memory in the ns root's subtree_control with us in the ns root");
	CHECK(write_file(cgp("ns/x/cgroup.procs"), "0") == 0, "move to the leaf x");
	CHECK(write_file(cgp("ns/cgroup.subtree_control"), "+memory +pids") == 0,
	      "+memory +pids in the ns root's subtree_control, ns root empty");
	/* below the ns root, the limits are ours to write */
	CHECK(write_file(cgp("ns/x/pids.max"), "100") == 0, "writing x/pids.max from inside");
	CHECK(write_file(cgp("ns/x/memory.max"), "1G") == 0, "writing x/memory.max from inside");
	CHECK_ERR(write_file(cgp("ns/cgroup.procs"), "0"), EBUSY,
		  "moving back into the ns root with memory enabled below it");
	h_send(0);
	h_recv();
	return 0;
}

static void ns_root_files(void)
{
	struct helper h;
	char buf[64];

	need_nsdelegate();
	ctrls_setup();
	layout();
	h = inside(ns_root_writer, NULL);
	c_recv(&h);
	/* the ns root's limit is the delegator's: root outside may set it */
	CHECK(write_file(cgp("ns/pids.max"), "100") == 0, "control: init-ns root writing ns/pids.max");
	CHECK(read_file(cgp("ns/pids.max"), buf, sizeof(buf)) > 0, "read ns/pids.max");
	CHECK_STR(buf, "100\n", "ns/pids.max");
	c_send(&h, 0);
	finish(&h);
}

/* ------------------------------------------------------------------ */
/* clone3(CLONE_INTO_CGROUP)                                           */

static pid_t clone_into(int cgfd)
{
	struct clone_args args = { .flags = CLONE_INTO_CGROUP, .exit_signal = SIGCHLD,
				   .cgroup = (uint64_t)cgfd };

	return syscall(SYS_clone3, &args, sizeof(args));
}

static int clone3_inside(void *arg)
{
	int out, x;
	pid_t pid;

	(void)arg;
	inside_ready();
	out = cg_open("out", O_PATH | O_DIRECTORY);
	x = cg_open("ns/x", O_PATH | O_DIRECTORY);
	errno = 0;
	pid = clone_into(out);
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	CHECK(pid == -1 && errno == ENOENT,
	      "clone3(CLONE_INTO_CGROUP) into <base>/out from inside: ret %d, want ENOENT", pid);
	/* control: into a cgroup below the ns root */
	pid = clone_into(x);
	if (pid == 0) {
		char *s = cg2_path_of(0);

		_exit(s && !strcmp(s, "/x") ? 0 : 1);
	}
	CHECK(pid > 0, "control: clone3(CLONE_INTO_CGROUP) into ns/x from inside");
	reap(pid);
	return 0;
}

static void clone3_into_outside(void)
{
	struct helper h;

	need_nsdelegate();
	layout();
	h = inside(clone3_inside, NULL);
	finish(&h);
}

/* ------------------------------------------------------------------ */
/* Root flags are not a cgroupns's to change                           */

/* Give the host its nsdelegate back if a case lost it. */
static void flags_cleanup(void)
{
	rmdir(cgns_mnt());
	if (cgns_shared[1024] && !nsdelegate_on())
		mount(NULL, cg_root, NULL, MS_REMOUNT, "nsdelegate");
}

static int prober(void *arg)
{
	(void)arg;
	inside_ready();
	CHECK_ERR(write_file(cgp("out/cgroup.procs"), "0"), ENOENT,
		  "root inside a cgroupns moving itself outside its root");
	return 0;
}

/* nsdelegate shown on the host mount and still enforced */
static void check_nsdelegate_kept(const char *after)
{
	struct helper h;

	CHECK(nsdelegate_on(), "host %s lost nsdelegate after %s", cg_root, after);
	h = inside(prober, NULL);
	finish(&h);
}

static int inside_mounter(void *arg)
{
	(void)arg;
	CHECK(unshare(CLONE_NEWCGROUP | CLONE_NEWNS) == 0, "unshare(NEWCGROUP|NEWNS)");
	make_mounts_private();
	CHECK(mount("none", cgns_mnt(), "cgroup2", 0, NULL) == 0,
	      "mount cgroup2 without nsdelegate inside the cgroupns");
	CHECK_STR(mountinfo_root(cgns_mnt()), "/", "root of the mount made inside");
	h_send(0);
	h_recv();	/* go */
	h_recv();	/* end */
	return 0;
}

/* mount -t cgroup2 (no nsdelegate) in a new mount ns inside a cgroupns */
static void mount_inside_keeps_nsdelegate(void)
{
	struct helper h;

	need_nsdelegate();
	cgns_shared[1024] = 1;
	layout();
	CHECK(mkdir(cgns_mnt(), 0755) == 0, "mkdir %s", cgns_mnt());
	h = inside(inside_mounter, NULL);
	check_nsdelegate_kept("a cgroup2 mount inside a cgroupns");
	c_send(&h, 0);
	finish(&h);
	check_nsdelegate_kept("the inside mounter exited");
}

static int fs_opener(void *arg)
{
	int fd;

	(void)arg;
	inside_ready();
	fd = syscall(__NR_fsopen, "cgroup2", 0);
	CHECK(fd >= 0, "fsopen(\"cgroup2\") inside the cgroupns");
	send_fd(sock_pair[1], fd);
	h_recv();
	return 0;
}

/*
 * An fs_context created inside a cgroupns, completed (without
 * nsdelegate) by root in the initial cgroupns with FSCONFIG_CMD_CREATE:
 * the context's namespace counts, the host keeps nsdelegate.
 */
static void fsconfig_outside_keeps_nsdelegate(void)
{
	struct helper h;
	int fd;

	need_nsdelegate();
	cgns_shared[1024] = 1;
	layout();
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock_pair) == 0,
	      "socketpair");
	h = inside(fs_opener, NULL);
	fd = recv_fd(sock_pair[0]);
	CHECK(syscall(__NR_fsconfig, fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0,
	      "FSCONFIG_CMD_CREATE from the initial cgroupns");
	close(fd);
	c_send(&h, 0);
	finish(&h);
	check_nsdelegate_kept("FSCONFIG_CMD_CREATE of a context made inside a cgroupns");
}

static const struct cgns_case cases[] = {
	CASE(fd_procs_opener_ns, CGNS_NEED_NS),
	CASE(fd_threads_opener_ns, CGNS_NEED_NS),
	CASE(fd_outside_used_inside, CGNS_NEED_NS),
	{ "ns_root_files", ns_root_files, CGNS_NEED_NS, 0, ctrls_cleanup },
	CASE(clone3_into_outside, CGNS_NEED_NS),
	{ "mount_inside_keeps_nsdelegate", mount_inside_keeps_nsdelegate, CGNS_NEED_NS, 0,
	  flags_cleanup },
	{ "fsconfig_outside_keeps_nsdelegate", fsconfig_outside_keeps_nsdelegate,
	  CGNS_NEED_NS, 0, flags_cleanup },
};

CGNS_MAIN(cases)
