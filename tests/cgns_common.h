/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared runner and helpers for the cgroup namespace tests (cgns_*.c).
 *
 * Why a small runner on top of kselftest.h instead of kselftest_harness.h:
 * the 6.1 harness prints skipped cases as "ok N # SKIP reason" without the
 * case name, and the pipeline matches expectations on the case name.  We
 * keep kselftest.h for the header, plan, counters and exit codes and print
 * "ok N name # SKIP reason" ourselves.
 *
 * Every case runs in its own forked child (its own process group), so a
 * case may unshare/setns/mount freely without disturbing the runner, which
 * always stays in the initial namespaces and the root cgroup.  Each case
 * gets a fresh cgroup directory (cg_base) that the runner empties with
 * cgroup.kill and removes after the case, whatever the case did.
 */
#ifndef CGNS_COMMON_H
#define CGNS_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <grp.h>
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "kselftest.h"

#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef CLONE_NEWUSER
#define CLONE_NEWUSER 0x10000000
#endif
#ifndef CLONE_NEWNS
#define CLONE_NEWNS 0x00020000
#endif
#ifndef CLONE_NEWUTS
#define CLONE_NEWUTS 0x04000000
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif
#ifndef MNT_DETACH
#define MNT_DETACH 2
#endif

#define NOBODY 65534

/* ------------------------------------------------------------------ */
/* Case table                                                          */

#define CGNS_NEED_NS	0x1	/* skip when the kernel has no cgroup ns */

struct cgns_case {
	const char *name;
	void (*fn)(void);	/* runs in a forked child; returning = pass */
	unsigned int flags;
	int timeout;		/* seconds, 0 = default */
	void (*cleanup)(void);	/* runs in the runner after the case */
};

#define CASE(f, fl) { #f, f, fl, 0, NULL }

/* Set by the runner before each case; inherited by the case child. */
static char cg_root[256] = "/sys/fs/cgroup";
static char cg_base[PATH_MAX];		/* absolute path of the case's cgroup */
static char cg_base_rel[256];	/* same, as seen in the init cgroupns */
static char cgns_tag[64];		/* unique per binary run and case */
static const char *cgns_case_name = "";
static bool cgns_have_ns;
static char *cgns_shared;		/* MAP_SHARED page: skip reason etc. */
static int cgns_argc;
static char **cgns_argv;

/* ------------------------------------------------------------------ */
/* Reporting from inside a case (any process of the case).            */

/*
 * Diagnostics go straight to fd 1 with dprintf: case processes exit with
 * _exit(), which would drop stdio buffers (or duplicate them over fork).
 */
static inline void cgns_fail_at(int line, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
static inline void cgns_fail_at(int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	int saved = errno;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dprintf(STDOUT_FILENO, "# %s: line %d: %s (errno %d: %s) [pid %d]\n",
		cgns_case_name, line, msg, saved, strerror(saved), getpid());
	_exit(KSFT_FAIL);
}

#define FAIL(...) cgns_fail_at(__LINE__, __VA_ARGS__)
#define CHECK(cond, ...) do { if (!(cond)) FAIL(__VA_ARGS__); } while (0)
/* String equality with both values in the message. */
#define CHECK_STR(got, want, what) do { \
	const char *__g = (got), *__w = (want); \
	if (!__g || strcmp(__g, __w)) \
		FAIL("%s: got '%s', want '%s'", what, __g ? __g : "(null)", __w); \
} while (0)
/* A syscall must fail with the given errno. */
#define CHECK_ERR(expr, err, what) do { \
	errno = 0; \
	long __r = (long)(expr); \
	if (__r != -1 || errno != (err)) \
		FAIL("%s: got ret %ld errno %d (%s), want errno %d (%s)", what, \
		     __r, errno, strerror(errno), err, strerror(err)); \
} while (0)

static inline void cgns_skip(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
static inline void cgns_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cgns_shared, 512, fmt, ap);
	va_end(ap);
	_exit(KSFT_SKIP);
}

static inline void cgns_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void cgns_msg(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dprintf(STDOUT_FILENO, "# %s: %s\n", cgns_case_name, msg);
}

/* ------------------------------------------------------------------ */
/* Small file helpers                                                  */

/*
 * Directory fds for /proc and the cgroup2 root, opened by the runner.
 * Paths under them are resolved relative to these fds, so processes that
 * dropped to nobody still reach them even when "/" is not searchable for
 * them (the test initramfs has a 0700 root directory), and processes in a
 * new mount ns still reach the host's cgroup2 mount.
 */
static int cgns_proc_fd = -1, cgns_cg_fd = -1;

static inline int cgns_dirfd(int dfd, const char **path)
{
	size_t l = strlen(cg_root);

	if (dfd != AT_FDCWD)
		return dfd;
	if (cgns_proc_fd >= 0 && !strncmp(*path, "/proc/", 6)) {
		*path += 6;
		return cgns_proc_fd;
	}
	if (cgns_cg_fd >= 0 && !strncmp(*path, cg_root, l) && (*path)[l] == '/') {
		*path += l + 1;
		return cgns_cg_fd;
	}
	return dfd;
}

static inline ssize_t read_at(int dfd, const char *path, char *buf, size_t size)
{
	ssize_t n, total = 0;
	int fd;

	dfd = cgns_dirfd(dfd, &path);
	fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while ((size_t)total < size - 1) {
		n = read(fd, buf + total, size - 1 - total);
		if (n < 0) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		total += n;
	}
	buf[total] = '\0';
	close(fd);
	return total;
}

static inline ssize_t read_file(const char *path, char *buf, size_t size)
{
	return read_at(AT_FDCWD, path, buf, size);
}

/* Returns 0 or -1 with errno; one write() so the kernel sees one request. */
static inline int write_at(int dfd, const char *path, const char *s)
{
	ssize_t n;
	int fd;

	dfd = cgns_dirfd(dfd, &path);
	fd = openat(dfd, path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	if (n < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

static inline int write_file(const char *path, const char *s)
{
	return write_at(AT_FDCWD, path, s);
}

static inline bool exists(const char *path)
{
	int dfd = cgns_dirfd(AT_FDCWD, &path);

	return faccessat(dfd, path, F_OK, 0) == 0;
}

/* inode of a namespace file, 0 if it cannot be stat'ed */
static inline ino_t ns_ino(const char *path)
{
	int dfd = cgns_dirfd(AT_FDCWD, &path);
	struct stat st;

	if (fstatat(dfd, path, &st, 0))
		return 0;
	return st.st_ino;
}

static inline ino_t ns_ino_pid(pid_t pid)
{
	char p[64];

	snprintf(p, sizeof(p), "/proc/%d/ns/cgroup", pid);
	return ns_ino(p);
}

/*
 * Path of the line for one hierarchy in a /proc/<x>/cgroup file.  @hier is
 * the text between the first and the second ':' ("" for cgroup2,
 * "name=foo" for a v1 named hierarchy).  Returns a static buffer, or NULL
 * with errno set (the read failed) or errno = ENOENT (no such line).
 */
static inline char *cgroup_line_of(const char *file, const char *hier)
{
	static __thread char buf[3 * PATH_MAX];	/* per thread: stress reads in parallel */
	char *line, *save = NULL;

	if (read_file(file, buf, sizeof(buf)) < 0)
		return NULL;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2;

		if (!c1)
			continue;
		c2 = strchr(c1 + 1, ':');
		if (!c2)
			continue;
		if ((size_t)(c2 - c1 - 1) == strlen(hier) &&
		    !strncmp(c1 + 1, hier, c2 - c1 - 1))
			return c2 + 1;
	}
	errno = ENOENT;
	return NULL;
}

/* cgroup2 path of @pid (0 = self) as the caller's cgroupns shows it */
static inline char *cg2_path_of(pid_t pid)
{
	char p[64];

	if (pid)
		snprintf(p, sizeof(p), "/proc/%d/cgroup", pid);
	else
		snprintf(p, sizeof(p), "/proc/self/cgroup");
	return cgroup_line_of(p, "");
}

/* Same, but a failure to read is a test failure. */
static inline char *must_cg2_path_of(pid_t pid)
{
	char *s = cg2_path_of(pid);

	CHECK(s, "reading /proc/%d/cgroup", pid ? pid : getpid());
	return s;
}

/* "<base>/<rel>" (rel may be "") in a ring of buffers, so that a few can be
 * used in one expression. */
static inline const char *join_base(const char *base, const char *fmt, va_list ap)
{
	static __thread char ring[8][2 * PATH_MAX];
	static __thread int idx;
	char rel[PATH_MAX];
	char *out = ring[idx++ & 7];

	vsnprintf(rel, sizeof(rel), fmt, ap);
	snprintf(out, 2 * PATH_MAX, "%s%s%s", base, rel[0] ? "/" : "", rel);
	return out;
}

/* A path under this case's cgroup, as the test opens it. */
static inline const char *cgp(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline const char *cgp(const char *fmt, ...)
{
	const char *out;
	va_list ap;

	va_start(ap, fmt);
	out = join_base(cg_base, fmt, ap);
	va_end(ap);
	return out;
}

/* The host (init cgroupns) view of "<cg_base>/<rel>". */
static inline const char *hostp(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline const char *hostp(const char *fmt, ...)
{
	const char *out;
	va_list ap;

	va_start(ap, fmt);
	out = join_base(cg_base_rel, fmt, ap);
	va_end(ap);
	return out;
}

/*
 * Expected text for cgroup @to (an init-ns path) read from a namespace
 * rooted at @from (also an init-ns path), computed the way the cover
 * letter describes it: "/.." per level up to the common ancestor, then
 * down.  Used only where the absolute starting point is not ours to choose
 * (e.g. where pid 1 lives); the main expectations are literal strings.
 */
static inline const char *rel_path(const char *from, const char *to)
{
	static char out[2 * PATH_MAX];
	size_t i = 0, common = 0, len = 0;

	/* longest common prefix ending at a component boundary */
	while (from[i] && to[i] && from[i] == to[i]) {
		i++;
		if (from[i] == '/' || from[i] == '\0')
			if (to[i] == '/' || to[i] == '\0')
				common = i;
	}
	if (!strcmp(from, "/"))
		common = 0;
	out[0] = '\0';
	for (const char *p = from + common; *p; p++)
		if (*p == '/' && strcmp(from, "/"))
			len += snprintf(out + len, sizeof(out) - len, "/..");
	if (strcmp(to, "/"))
		len += snprintf(out + len, sizeof(out) - len, "%s", to + common);
	if (!len)
		strcpy(out, "/");
	return out;
}

static inline void cg_mkdir(const char *rel)
{
	const char *p = cgp("%s", rel), *q = p;
	int dfd = cgns_dirfd(AT_FDCWD, &q);

	CHECK(mkdirat(dfd, q, 0755) == 0, "mkdir %s", p);
}

/* Move @pid (0 = caller) into <cg_base>/<rel>; returns 0 or -errno. */
static inline int cg_try_move(pid_t pid, const char *rel)
{
	char p[PATH_MAX + 32], s[32];

	snprintf(p, sizeof(p), "%s/cgroup.procs", cgp("%s", rel));
	snprintf(s, sizeof(s), "%d", pid);
	return write_file(p, s) ? -errno : 0;
}

static inline void cg_move(pid_t pid, const char *rel)
{
	int r = cg_try_move(pid, rel);

	errno = -r;
	CHECK(r == 0, "moving %d into %s", pid, cgp("%s", rel));
}

/* Move @pid back to the root cgroup, where the runner started it. */
static inline void cg_move_out(pid_t pid)
{
	char p[300], s[32];

	snprintf(p, sizeof(p), "%s/cgroup.procs", cg_root);
	snprintf(s, sizeof(s), "%d", pid);
	CHECK(write_file(p, s) == 0, "moving %d to the root cgroup", pid);
}

/* Does <dir>/cgroup.procs list @pid? */
static inline bool procs_has(const char *dir, pid_t pid)
{
	char p[PATH_MAX + 32], buf[65536], *l, *save = NULL;

	snprintf(p, sizeof(p), "%s/cgroup.procs", dir);
	if (read_file(p, buf, sizeof(buf)) < 0)
		return false;
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (atoi(l) == pid)
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* Processes and synchronisation                                       */

/*
 * A helper process with a pipe each way.  The helper runs fn() and exits
 * with its return value (FAIL() inside it exits 1, cgns_skip() exits 4).
 * One-byte messages are enough to order the steps; the helper reads
 * EOF and fails if the case process dies, so nothing is left blocked.
 */
struct helper {
	pid_t pid;
	int to;		/* case -> helper */
	int from;	/* helper -> case */
};

static int hl_in = -1, hl_out = -1;	/* inside the helper */

static inline void pipe_put(int fd, const void *p, size_t n)
{
	CHECK(write(fd, p, n) == (ssize_t)n, "pipe write");
}

static inline void pipe_get(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		CHECK(r > 0, "peer went away (pipe read %zd)", r);
		got += r;
	}
}

/* helper side */
static inline void h_send(long v) { pipe_put(hl_out, &v, sizeof(v)); }
static inline long h_recv(void) { long v; pipe_get(hl_in, &v, sizeof(v)); return v; }
/* case side */
static inline void c_send(struct helper *h, long v) { pipe_put(h->to, &v, sizeof(v)); }
static inline long c_recv(struct helper *h) { long v; pipe_get(h->from, &v, sizeof(v)); return v; }

static inline struct helper spawn(int (*fn)(void *), void *arg)
{
	int a[2], b[2];
	struct helper h;

	CHECK(pipe2(a, O_CLOEXEC) == 0 && pipe2(b, O_CLOEXEC) == 0, "pipe");
	h.pid = fork();
	CHECK(h.pid >= 0, "fork");
	if (h.pid == 0) {
		close(a[1]);
		close(b[0]);
		hl_in = a[0];
		hl_out = b[1];
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		_exit(fn(arg));
	}
	close(a[0]);
	close(b[1]);
	h.to = a[1];
	h.from = b[0];
	return h;
}

/* Propagates a helper's skip; anything but a clean exit 0 fails. */
static inline void reap(pid_t pid)
{
	int st;

	CHECK(waitpid(pid, &st, 0) == pid, "waitpid %d", pid);
	if (WIFEXITED(st) && WEXITSTATUS(st) == KSFT_SKIP)
		_exit(KSFT_SKIP);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		errno = 0;
		FAIL("process %d ended with status 0x%x", pid, st);
	}
}

static inline void finish(struct helper *h)
{
	close(h->to);
	reap(h->pid);
	close(h->from);
}

/*
 * A "member": a process that unshares its cgroupns where it was forked and
 * then reads /proc/<pid>/cgroup on request, so the case process can ask
 * "what does <pid> look like from that namespace?".  Request = pid (0 =
 * stop), hierarchy name in cgns_shared[512..], answer in cgns_shared[2048..].
 */
static inline int ns_member(void *arg)
{
	(void)arg;
	CHECK(unshare(CLONE_NEWCGROUP) == 0, "unshare(CLONE_NEWCGROUP)");
	h_send(ns_ino("/proc/self/ns/cgroup"));
	for (;;) {
		long req = h_recv();
		char p[64], *s;

		if (req == 0)
			return 0;
		snprintf(p, sizeof(p), "/proc/%ld/cgroup", req);
		s = cgroup_line_of(p, cgns_shared + 512);
		snprintf(cgns_shared + 2048, 2048, "%s", s ? s : "(error)");
		h_send(s ? 0 : errno);
	}
}

/* What does hierarchy @hier of @pid look like from member @h's ns? */
static inline const char *view_from_h(struct helper *h, pid_t pid, const char *hier)
{
	long err;

	snprintf(cgns_shared + 512, 512, "%s", hier);
	c_send(h, pid);
	err = c_recv(h);
	errno = err;
	CHECK(err == 0, "member %d reading /proc/%d/cgroup", h->pid, pid);
	return cgns_shared + 2048;
}

static inline const char *view_from(struct helper *h, pid_t pid)
{
	return view_from_h(h, pid, "");
}

/* Start a member whose ns root is <base>/<rel> (v2). */
/*
 * Helper body (spawn()): holds a cgroup namespace owned by its own,
 * non-initial user namespace until told to go.
 */
static inline int userns_cgns_holder(void *arg)
{
	(void)arg;
	CHECK(unshare(CLONE_NEWUSER | CLONE_NEWCGROUP) == 0,
	      "unshare(CLONE_NEWUSER|CLONE_NEWCGROUP)");
	h_send(0);
	h_recv();
	return 0;
}

static inline struct helper member_in(const char *rel)
{
	struct helper h;

	/* the fork inherits our cgroup: go there first, then come back */
	cg_move(getpid(), rel);
	h = spawn(ns_member, NULL);
	cg_move_out(getpid());
	c_recv(&h);
	return h;
}

static inline void member_stop(struct helper *h)
{
	c_send(h, 0);
	finish(h);
}

/* fork-like clone with extra namespace flags; -1 + errno on failure */
static inline pid_t clone_flags(unsigned long flags)
{
	return syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, 0);
}

static inline int sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return syscall(__NR_pidfd_open, pid, flags);
}

/* Drop to nobody with no capabilities (and stay dumpable for /proc). */
static inline void drop_to_nobody(void)
{
	char buf[4096], *p;

	CHECK(setgroups(0, NULL) == 0, "setgroups");
	CHECK(setresgid(NOBODY, NOBODY, NOBODY) == 0, "setresgid");
	CHECK(setresuid(NOBODY, NOBODY, NOBODY) == 0, "setresuid");
	/* a uid change makes us non-dumpable: files under /proc/self would be root's */
	CHECK(prctl(PR_SET_DUMPABLE, 1) == 0, "PR_SET_DUMPABLE");
	CHECK(read_file("/proc/self/status", buf, sizeof(buf)) > 0, "status");
	p = strstr(buf, "CapEff:");
	CHECK(p && strtoull(p + 7, NULL, 16) == 0, "capabilities not dropped");
}

/* In a fresh user namespace: map ourselves to root (unprivileged style). */
static inline void map_self_as_root(uid_t outer_uid, gid_t outer_gid)
{
	char s[64];

	snprintf(s, sizeof(s), "0 %u 1", outer_uid);
	CHECK(write_file("/proc/self/uid_map", s) == 0, "uid_map");
	CHECK(write_file("/proc/self/setgroups", "deny") == 0, "setgroups deny");
	snprintf(s, sizeof(s), "0 %u 1", outer_gid);
	CHECK(write_file("/proc/self/gid_map", s) == 0, "gid_map");
}

/* Make every mount in our (new) mount namespace private. */
static inline void make_mounts_private(void)
{
	CHECK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0,
	      "make / rprivate");
}

static inline bool nsdelegate_on(void)
{
	char buf[65536], *l, *save = NULL;

	if (read_file("/proc/self/mounts", buf, sizeof(buf)) < 0)
		return false;
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char dev[256], mnt[PATH_MAX], type[64], opts[1024];

		if (sscanf(l, "%255s %4095s %63s %1023s", dev, mnt, type, opts) != 4)
			continue;
		if (!strcmp(mnt, cg_root) && !strcmp(type, "cgroup2"))
			return strstr(opts, "nsdelegate") != NULL;
	}
	return false;
}

/*
 * Root field (4th) of the /proc/self/mountinfo line of mount point @mnt,
 * static buffer; NULL if not found.
 */
static inline char *mountinfo_root(const char *mnt)
{
	static char buf[1 << 17], root[PATH_MAX + 64];
	char *l, *save = NULL;

	root[0] = '\0';
	if (read_file("/proc/self/mountinfo", buf, sizeof(buf)) < 0)
		return NULL;
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char r[PATH_MAX + 64], m[PATH_MAX];
		int id, pid;
		unsigned int ma, mi;

		if (sscanf(l, "%d %d %u:%u %4159s %4095s", &id, &pid, &ma, &mi,
			   r, m) != 6)
			continue;
		/* keep the last match: later mounts sit on top */
		if (!strcmp(m, mnt))
			strcpy(root, r);
	}
	return root[0] ? root : NULL;
}

/*
 * Exact comparison of strings that may be longer than a diagnostic line
 * (paths beyond PATH_MAX): on a mismatch, say both lengths, where they
 * first differ and how each one ends there.
 */
static inline void check_long_at(int line, const char *got, const char *want,
				 const char *what)
{
	size_t i = 0, gl, wl;

	if (got && !strcmp(got, want))
		return;
	if (!got)
		cgns_fail_at(line, "%s: no value, want %zu bytes", what, strlen(want));
	gl = strlen(got);
	wl = strlen(want);
	while (got[i] && got[i] == want[i])
		i++;
	errno = 0;
	cgns_fail_at(line, "%s: got %zu bytes, want %zu; first difference at byte %zu: "
		     "got '%.40s%s', want '%.40s%s'", what, gl, wl, i, got + i,
		     gl - i > 40 ? "..." : "", want + i, wl - i > 40 ? "..." : "");
}

#define CHECK_LONG(got, want, what) check_long_at(__LINE__, got, want, what)

/*
 * Root field (4th) of the line of mount point @mnt in mountinfo file
 * @file (e.g. "/proc/<pid>/mountinfo"), for roots of any length: a
 * static buffer, or NULL with errno (the read failed, or ENOENT: no such
 * mount point).  The last match wins: later mounts sit on top.
 */
static inline char *mountinfo_root_in(const char *file, const char *mnt)
{
	static char buf[1 << 18], root[3 * PATH_MAX];
	char *l, *save = NULL;
	bool found = false;

	if (read_file(file, buf, sizeof(buf)) < 0)
		return NULL;
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *f[6], *p = l;
		int n;

		/* id parent maj:min root mount-point ...: fields split on ' ' */
		for (n = 0; n < 6 && p; n++) {
			f[n] = p;
			p = strchr(p, ' ');
			if (p)
				*p++ = '\0';
		}
		if (n == 6 && !strcmp(f[4], mnt)) {
			snprintf(root, sizeof(root), "%s", f[3]);
			found = true;
		}
	}
	if (!found) {
		errno = ENOENT;
		return NULL;
	}
	return root;
}

/* ------------------------------------------------------------------ */
/* Runner                                                              */

/*
 * Remove the directory tree under the current working directory without
 * ever building long paths or holding one fd per level: cgroup trees in
 * cgns_edge are deeper than PATH_MAX and than the fd limit.
 */
static inline void rm_tree_cwd(void)
{
	DIR *d = opendir(".");
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") ||
		    !strcmp(de->d_name, ".."))
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	for (i = 0; i < n; i++) {
		if (chdir(names[i]) == 0) {
			rm_tree_cwd();
			if (chdir(".."))
				return;
		}
		for (int t = 0; t < 50 && rmdir(names[i]) && errno == EBUSY; t++)
			usleep(20000);
		free(names[i]);
	}
	free(names);
}

static inline void rm_tree(const char *dir)
{
	int cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (chdir(dir) == 0) {
		rm_tree_cwd();
		if (chdir("/")) {}
	}
	if (cwd >= 0) {
		if (fchdir(cwd)) {}
		close(cwd);
	}
	for (int t = 0; t < 50 && rmdir(dir) && errno == EBUSY; t++)
		usleep(20000);
}

/* Remove everything below @dir (a mount point we must keep until umount). */
static inline void rm_subdirs(const char *dir)
{
	int cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (chdir(dir) == 0) {
		rm_tree_cwd();
		if (chdir("/")) {}
	}
	if (cwd >= 0) {
		if (fchdir(cwd)) {}
		close(cwd);
	}
}

/*
 * v1 named hierarchies used by a case: mounted in the runner's mount ns at
 * /tmp/<tag>-v1 with name "<tag>".  The runner's cleanup removes them.
 */
/*
 * The case's scratch mount point, /tmp/<tag>-m.  Cases mount on it in
 * private mount namespaces, which die with them; only the directory is
 * left to remove.
 */
static inline const char *cgns_mnt(void)
{
	static char p[128];

	snprintf(p, sizeof(p), "/tmp/%s-m", cgns_tag);
	return p;
}

static inline void cgns_mnt_cleanup(void)
{
	rmdir(cgns_mnt());
}

static inline const char *v1_mnt(void)
{
	static char p[128];

	snprintf(p, sizeof(p), "/tmp/%s-v1", cgns_tag);
	return p;
}

static inline const char *v1_name(void)
{
	return cgns_tag;
}

/* Create a fresh v1 named hierarchy at v1_mnt(); skip if v1 is off. */
static inline void v1_mount_named(void)
{
	char opts[128];

	snprintf(opts, sizeof(opts), "none,name=%s", v1_name());
	CHECK(mkdir(v1_mnt(), 0755) == 0, "mkdir %s", v1_mnt());
	if (mount("cgns", v1_mnt(), "cgroup", 0, opts))
		cgns_skip("cannot mount a v1 named hierarchy (%s)", strerror(errno));
}

static inline void v1_teardown(void)
{
	rm_subdirs(v1_mnt());
	umount2(v1_mnt(), MNT_DETACH);
	rmdir(v1_mnt());
}

static inline void reap_orphans(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/* Kill everything left in a cgroup subtree and wait until it is empty. */
static inline void cg_kill_tree(const char *dir)
{
	char p[PATH_MAX + 32], buf[256];

	snprintf(p, sizeof(p), "%s/cgroup.kill", dir);
	if (write_file(p, "1"))
		return;
	snprintf(p, sizeof(p), "%s/cgroup.events", dir);
	for (int t = 0; t < 250; t++) {
		reap_orphans();
		if (read_file(p, buf, sizeof(buf)) < 0 ||
		    strstr(buf, "populated 0"))
			return;
		usleep(20000);
	}
}

static inline int cgns_detect(void)
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(unshare(CLONE_NEWCGROUP) ? errno : 0);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	/* only EINVAL means "the kernel does not know the flag" */
	return WEXITSTATUS(st) != EINVAL;
}

static const char *cgns_prog;

/* Run one case; returns KSFT_PASS/KSFT_FAIL/KSFT_SKIP. */
static inline int cgns_run_one(const struct cgns_case *c, int idx)
{
	int timeout = c->timeout ? c->timeout : 120;
	struct timespec t0, now;
	int st = 0, ret;
	pid_t pid, r;

	snprintf(cgns_tag, sizeof(cgns_tag), "%s-%d-%d", cgns_prog, getpid(), idx);
	snprintf(cg_base_rel, sizeof(cg_base_rel), "/%s", cgns_tag);
	snprintf(cg_base, sizeof(cg_base), "%s%s", cg_root, cg_base_rel);
	cgns_case_name = c->name;
	memset(cgns_shared, 0, 4096);

	if ((c->flags & CGNS_NEED_NS) && !cgns_have_ns) {
		snprintf(cgns_shared, 512,
			 "kernel has no cgroup namespaces (unshare(CLONE_NEWCGROUP): EINVAL)");
		return KSFT_SKIP;
	}
	if (mkdir(cg_base, 0755)) {
		ksft_print_msg("%s: mkdir %s: %s\n", c->name, cg_base, strerror(errno));
		return KSFT_FAIL;
	}

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return KSFT_FAIL;
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (chdir("/tmp")) {}
		c->fn();
		_exit(KSFT_PASS);
	}
	setpgid(pid, pid);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		r = waitpid(-1, &st, WNOHANG);
		if (r == pid)
			break;
		if (r > 0)
			continue;	/* an orphan we adopted as subreaper */
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec > timeout) {
			ksft_print_msg("%s: timed out after %d s\n", c->name, timeout);
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			st = -1;
			break;
		}
		usleep(5000);
	}
	if (st == -1)
		ret = KSFT_FAIL;
	else if (WIFEXITED(st) && WEXITSTATUS(st) == KSFT_PASS)
		ret = KSFT_PASS;
	else if (WIFEXITED(st) && WEXITSTATUS(st) == KSFT_SKIP)
		ret = KSFT_SKIP;
	else {
		if (WIFSIGNALED(st))
			ksft_print_msg("%s: case process killed by signal %d\n",
				       c->name, WTERMSIG(st));
		ret = KSFT_FAIL;
	}

	/* leftovers: the case's process group, then its cgroup subtree */
	kill(-pid, SIGKILL);
	cg_kill_tree(cg_base);
	reap_orphans();
	if (c->cleanup)
		c->cleanup();
	rm_tree(cg_base);
	if (exists(cg_base))
		ksft_print_msg("%s: warning: could not remove %s\n", c->name, cg_base);
	reap_orphans();
	return ret;
}

static inline int cgns_main(int argc, char **argv, const struct cgns_case *cases, int n)
{
	struct statfs sfs;
	int fails = 0, passes = 0, skips = 0, i, planned = 0;
	const char *only = getenv("CGNS_ONLY");	/* run one case by name */
	const char *slash;

	cgns_argc = argc;
	cgns_argv = argv;
	slash = strrchr(argv[0], '/');
	cgns_prog = slash ? slash + 1 : argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);

	ksft_print_header();
	for (i = 0; i < n; i++)
		if (!only || !strcmp(only, cases[i].name))
			planned++;
	ksft_set_plan(planned);

	if (geteuid() != 0) {
		/* every case needs root to create cgroups */
		for (i = 0; i < n; i++)
			if (!only || !strcmp(only, cases[i].name)) {
				ksft_inc_xskip_cnt();
				printf("ok %u %s # SKIP needs root\n", ksft_test_num(),
				       cases[i].name);
			}
		ksft_print_cnts();
		return KSFT_SKIP;
	}
	if (statfs(cg_root, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC) {
		for (i = 0; i < n; i++)
			if (!only || !strcmp(only, cases[i].name)) {
				ksft_inc_xskip_cnt();
				printf("ok %u %s # SKIP cgroup2 not mounted at %s\n",
				       ksft_test_num(), cases[i].name, cg_root);
			}
		ksft_print_cnts();
		return KSFT_SKIP;
	}

	cgns_shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cgns_shared == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	/* orphans of a case (e.g. a helper whose parent failed) come to us */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	cgns_proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	cgns_cg_fd = open(cg_root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cgns_have_ns = cgns_detect() == 1;
	ksft_print_msg("cgroup namespaces %ssupported by this kernel\n",
		       cgns_have_ns ? "" : "NOT ");

	for (i = 0; i < n; i++) {
		if (only && strcmp(only, cases[i].name))
			continue;
		switch (cgns_run_one(&cases[i], i)) {
		case KSFT_PASS:
			passes++;
			ksft_test_result_pass("%s\n", cases[i].name);
			break;
		case KSFT_SKIP:
			skips++;
			ksft_inc_xskip_cnt();
			printf("ok %u %s # SKIP %s\n", ksft_test_num(), cases[i].name,
			       cgns_shared[0] ? cgns_shared : "skipped");
			break;
		default:
			fails++;
			ksft_test_result_fail("%s\n", cases[i].name);
			break;
		}
	}
	ksft_print_cnts();
	/*
	 * Skips are reported per case in the KTAP output; the exit status
	 * only says whether anything failed (an all-skipped binary is not an
	 * error on a kernel without the feature).
	 */
	(void)passes;
	(void)skips;
	return fails ? KSFT_FAIL : KSFT_PASS;
}

#define CGNS_MAIN(cases) \
	int main(int argc, char **argv) \
	{ return cgns_main(argc, argv, cases, ARRAY_SIZE(cases)); }

#endif /* CGNS_COMMON_H */
