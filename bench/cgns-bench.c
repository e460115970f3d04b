// SPDX-License-Identifier: GPL-2.0
/*
 * What cgroup namespaces cost: the guest side of "make bench".
 *
 * Runs as PID 1's child in the test guest (root, cgroup2 mounted on
 * /sys/fs/cgroup) and prints one line per figure on stdout:
 *
 *	bench: NAME VALUE UNIT		a measurement
 *	bench: NAME skip REASON		not measurable on this kernel
 *	bench: NAME refused ERRNO	a long-path read failed with ERRNO,
 *					as it must on a kernel that shows
 *					no cut path and no path longer
 *					than PATH_MAX
 *	bench: NAME error REASON	the operation failed, or a read
 *					returned what it must not
 *	bench: done			the last line of a complete run
 *
 * Every time is CLOCK_MONOTONIC around N iterations of the operation,
 * divided by N, after a warm-up of N/10 iterations.  Under QEMU's
 * "-icount shift=0" that clock counts guest instructions (1 ns each), so
 * the figures do not depend on the host.  Each figure runs in its own
 * forked child, which may move between cgroups and namespaces freely; the
 * cgroups stay for later figures and vanish with the guest.
 *
 * A kernel without cgroup namespaces (unshare(CLONE_NEWCGROUP) fails
 * with EINVAL) skips the namespace figures and runs the others.
 *
 * The long-path figures (cgroup_long_*, mountinfo_long_*, cpuset_long_*)
 * need no namespace: from the initial namespace they read a path of 4 KB
 * to 1 MB in /proc/self/cgroup, in the root field of /proc/self/mountinfo
 * and in /proc/self/cpuset.  Each read is checked against the path the
 * chain was made with: the whole path, or, where it is longer than 4095
 * bytes, its first 4095 bytes exactly (upstream's PATH_MAX buffer), or
 * no path at all (ENAMETOOLONG, ERANGE for mountinfo: a kernel that
 * refuses a path it cannot show whole); anything else is an error.
 * NAME_bytes is the length of the path read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif

#define CG	"/sys/fs/cgroup"
#define TOP	CG "/bench"		/* depth 1; depth k is TOP + (k-1) x "/d" */
#define MNT	"/tmp/bench-mnt"	/* a cgroup2 mount made inside a namespace */
#define V1	"/tmp/bench-v1"		/* the v1 named hierarchy "bench" */
#define MAXDEPTH 256
#define UPSTREAM_MAX 4095		/* upstream's PATH_MAX buffer, less the NUL */
#define LONG_LEVELS 1024		/* the chain deeper than PATH_MAX */
#define LONG_NAME 15			/* "/" + 15 bytes = 16 bytes a level */
#define NS_PIN 10000

static const int depths[] = { 1, 8, 32, 64, 128, 256 };	/* /proc/self/cgroup */
static const int mnt_depths[] = { 1, 32, 256 };			/* mountinfo */
static const int long_depths[] = { 128, 256, 512, 1024 };
static bool have_ns;

/*
 * What read_file() read.  64 KB until the long-path figures, which need
 * 2 MB (a 1 MB path and the rest of mountinfo): that buffer is mapped
 * only then (grow_buf()), since a 2 MB array in .bss would make every
 * fork before it copy and tear down page tables over 2 MB more of the
 * data mapping (30,000 instructions more in fork_exit_wait).
 */
static char small_buf[1 << 16];
static char *buf = small_buf;
static size_t buf_size = sizeof(small_buf);

/* ------------------------------------------------------------------ */

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* unbuffered: children leave with _exit() */
	dprintf(STDOUT_FILENO, "%s\n", line);
}

static void report(const char *name, double v, const char *unit)
{
	out("bench: %s %.1f %s", name, v, unit);
}

/* The operation failed: say so and leave the figure's child. */
static void error(const char *name, const char *what) __attribute__((noreturn));
static void error(const char *name, const char *what)
{
	out("bench: %s error %s: %s", name, what, strerror(errno));
	_exit(1);
}

/* The kernel's answer is not what it must be: say what and leave. */
static void wrong(const char *name, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));
static void wrong(const char *name, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	out("bench: %s error %s", name, what);
	_exit(1);
}

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* open + read to EOF + close; the bytes read, or -1 */
static ssize_t read_file(const char *path)
{
	ssize_t n, total = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + total, buf_size - 1 - total)) > 0)
		total += n;
	close(fd);
	if (n < 0)
		return -1;
	buf[total] = '\0';
	return total;
}

/* Write @s to @file (relative to @dirfd); any failure ends figure @name. */
static void write_at(const char *name, int dirfd, const char *file, const char *s)
{
	int fd = openat(dirfd, file, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		error(name, file);
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		error(name, file);
	close(fd);
}

static void write_file(const char *path, const char *s)
{
	write_at(path, AT_FDCWD, path, s);
}

/*
 * Make directory @nm in @dirfd (it may exist already), close @dirfd and
 * return an fd of the new directory: one step down a chain of cgroups.
 * Any failure ends the setup, naming @what.
 */
static int mkdir_enter(int dirfd, const char *nm, const char *what)
{
	int fd;

	if (mkdirat(dirfd, nm, 0755) && errno != EEXIST)
		error("setup", what);
	fd = openat(dirfd, nm, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		error("setup", what);
	close(dirfd);
	return fd;
}

/* Time reading @path @n times; reports ns per read and leaves the data in buf. */
static void time_read(const char *name, const char *path, int n)
{
	uint64_t t0;
	ssize_t len = 0;

	for (int i = 0; i < n / 10; i++)
		if (read_file(path) < 0)
			error(name, path);
	t0 = now();
	for (int i = 0; i < n; i++)
		if ((len = read_file(path)) < 0)
			error(name, path);
	report(name, (double)(now() - t0) / n, "ns");
	(void)len;
}

/* The whole line of /proc/self/cgroup for the hierarchy "0::" (cgroup2). */
static const char *v2_line(void)
{
	static char line[sizeof(small_buf)];
	char *p = strstr(buf, "0::"), *e;

	if (!p)
		return "(none)";
	e = strchr(p, '\n');
	snprintf(line, sizeof(line), "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
	return line;
}

/* Run @fn(@arg) in a forked child and wait for it. */
static void in_child(void (*fn)(long), long arg)
{
	pid_t pid = fork();
	int st;

	if (pid < 0) {
		out("# fork: %s", strerror(errno));
		exit(1);
	}
	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	/* error() has said why; a child killed by a signal has not */
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		out("bench: figure_child error pid %d ended with status 0x%x", pid, st);
}

static void skip_ns(const char *name)
{
	out("bench: %s skip no cgroup namespaces", name);
}

/* ------------------------------------------------------------------ */
/* cgroups                                                              */

static char *cg_dir(int depth)
{
	static char path[sizeof(TOP) + 2 * MAXDEPTH];
	size_t len = snprintf(path, sizeof(path), "%s", TOP);

	for (int i = 1; i < depth; i++)
		len += snprintf(path + len, sizeof(path) - len, "/d");
	return path;
}

static void cg_enter(const char *dir)
{
	char p[sizeof(TOP) + 2 * MAXDEPTH + 32];

	snprintf(p, sizeof(p), "%s/cgroup.procs", dir);
	write_file(p, "0");
}

/* Move ourselves to cgroup2 depth @depth (1 = TOP). */
static void cg_enter_depth(int depth)
{
	cg_enter(cg_dir(depth));
}

static void make_chain(void)
{
	for (int d = 1; d <= MAXDEPTH; d++)
		if (mkdir(cg_dir(d), 0755) && errno != EEXIST)
			error("setup", cg_dir(d));
}

/* ------------------------------------------------------------------ */
/* process and namespace operations                                    */

static void fig_fork(long n)
{
	uint64_t t0 = 0;

	for (long i = -n / 10; i < n; i++) {
		pid_t pid;

		if (i == 0)
			t0 = now();
		pid = fork();
		if (pid < 0)
			error("fork_exit_wait", "fork");
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
	report("fork_exit_wait", (double)(now() - t0) / n, "ns");
}

static void fig_clone_ns(long n)
{
	uint64_t t0 = 0;

	for (long i = -n / 10; i < n; i++) {
		long pid;

		if (i == 0)
			t0 = now();
		pid = syscall(SYS_clone, CLONE_NEWCGROUP | SIGCHLD, 0, 0, 0, 0);
		if (pid < 0)
			error("clone_newcgroup_exit_wait", "clone");
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
	report("clone_newcgroup_exit_wait", (double)(now() - t0) / n, "ns");
}

static void fig_unshare(long n)
{
	uint64_t t0 = 0;

	for (long i = -n / 10; i < n; i++) {
		if (i == 0)
			t0 = now();
		if (unshare(CLONE_NEWCGROUP))
			error("unshare_newcgroup", "unshare");
	}
	report("unshare_newcgroup", (double)(now() - t0) / n, "ns");
}

/* setns() between two namespaces, alternately: ns per setns() */
static void fig_setns(long n)
{
	int a = open("/proc/self/ns/cgroup", O_RDONLY | O_CLOEXEC), b;
	uint64_t t0 = 0;

	if (a < 0 || unshare(CLONE_NEWCGROUP))
		error("setns_cgroup", "setup");
	b = open("/proc/self/ns/cgroup", O_RDONLY | O_CLOEXEC);
	if (b < 0)
		error("setns_cgroup", "open ns");
	for (long i = -n / 10; i < n; i++) {
		if (i == 0)
			t0 = now();
		if (setns(a, CLONE_NEWCGROUP) || setns(b, CLONE_NEWCGROUP))
			error("setns_cgroup", "setns");
	}
	report("setns_cgroup", (double)(now() - t0) / (2 * n), "ns");
}

/* ------------------------------------------------------------------ */
/* /proc/self/cgroup                                                    */

#define READS 2000

/* From the initial namespace, in a cgroup at depth d. */
static void fig_read_init(long d)
{
	char name[64];

	snprintf(name, sizeof(name), "cgroup_read_init_d%ld", d);
	cg_enter_depth(d);
	time_read(name, "/proc/self/cgroup", READS);
	if (strcmp(v2_line() + 3, cg_dir(d) + strlen(CG)))
		out("# %s: unexpected %.80s", name, v2_line());
}

/* At the root of our own namespace, in a cgroup at depth d: "0::/". */
static void fig_read_nsroot(long d)
{
	char name[64];

	snprintf(name, sizeof(name), "cgroup_read_nsroot_d%ld", d);
	cg_enter_depth(d);
	if (unshare(CLONE_NEWCGROUP))
		error(name, "unshare");
	time_read(name, "/proc/self/cgroup", READS);
	if (strcmp(v2_line(), "0::/"))
		out("# %s: unexpected %.80s", name, v2_line());
}

/*
 * Outside our namespace: its root is at depth d, we are in the root
 * cgroup, so our path is "/.." d times.  The namespace is made by a
 * helper at depth d and joined with setns(), which leaves our cgroup.
 */
static void fig_read_dotdot(long d)
{
	int go[2], ready[2];
	char name[64], p[64], c;
	pid_t helper;
	int fd;

	snprintf(name, sizeof(name), "cgroup_read_dotdot_d%ld", d);
	if (pipe(go) || pipe(ready))
		error(name, "pipe");
	helper = fork();
	if (helper < 0)
		error(name, "fork");
	if (helper == 0) {
		cg_enter_depth(d);
		if (unshare(CLONE_NEWCGROUP))
			error(name, "unshare");
		if (write(ready[1], "x", 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	if (read(ready[0], &c, 1) != 1)
		error(name, "helper");
	snprintf(p, sizeof(p), "/proc/%d/ns/cgroup", helper);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWCGROUP))
		error(name, "setns");
	if (write(go[1], "x", 1) != 1)
		error(name, "release helper");
	waitpid(helper, NULL, 0);
	time_read(name, "/proc/self/cgroup", READS);
	if (strlen(v2_line()) != 3 + 3 * (size_t)d)
		out("# %s: unexpected %.80s", name, v2_line());
}

/* ------------------------------------------------------------------ */
/* /proc/self/mountinfo                                                 */

#define MOUNTINFO_READS 1000

static void fig_mountinfo_init(long unused)
{
	(void)unused;
	time_read("mountinfo_read_init", "/proc/self/mountinfo", MOUNTINFO_READS);
}

/*
 * A cgroup2 mount made inside a namespace rooted at depth d: it shows
 * "/" as its root, the host's /sys/fs/cgroup shows "/.." d times.
 */
static void fig_mountinfo_ns(long d)
{
	char name[64];

	snprintf(name, sizeof(name), "mountinfo_read_ns_d%ld", d);
	cg_enter_depth(d);
	if (unshare(CLONE_NEWCGROUP | CLONE_NEWNS))
		error(name, "unshare");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		error(name, "make / private");
	if (mount("cgroup2", MNT, "cgroup2", 0, NULL))
		error(name, "mount cgroup2");
	time_read(name, "/proc/self/mountinfo", MOUNTINFO_READS);
	if (!strstr(buf, " / " MNT " "))
		out("# %s: no ns mount rooted at / in mountinfo", name);
}

/* ------------------------------------------------------------------ */
/* paths longer than PATH_MAX                                          */

static int long_fd[LONG_LEVELS + 1];	/* fd of each level of TOP/long/... */

static void make_long_chain(void)
{
	char nm[LONG_NAME + 1];
	int fd = open(TOP, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		error("setup", TOP);
	fd = mkdir_enter(fd, "long", "long");
	for (int i = 1; i <= LONG_LEVELS; i++) {
		memset(nm, 'a' + i % 26, LONG_NAME);
		nm[LONG_NAME] = '\0';
		fd = mkdir_enter(fd, nm, "long level");
		long_fd[i] = -1;
		for (size_t k = 0; k < sizeof(long_depths) / sizeof(*long_depths); k++)
			if (long_depths[k] == i)
				long_fd[i] = dup(fd);
	}
	close(fd);
}

/* In the chain at level @d ("/bench/long" + 16 bytes a level), initial namespace. */
static void fig_long(long d)
{
	char name[64];
	ssize_t len;
	int fd;

	snprintf(name, sizeof(name), "long_read_d%ld", d);
	fd = openat(long_fd[d], "cgroup.procs", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "0", 1) != 1)
		error(name, "enter");
	close(fd);
	if (read_file("/proc/self/cgroup") < 0 && errno == ENAMETOOLONG &&
	    strlen("/bench/long") + 16 * d > UPSTREAM_MAX) {
		out("bench: %s refused ENAMETOOLONG", name);
		return;
	}
	time_read(name, "/proc/self/cgroup", 200);
	len = read_file("/proc/self/cgroup");
	snprintf(name, sizeof(name), "long_read_d%ld_bytes", d);
	report(name, len, "bytes");
}

/* ------------------------------------------------------------------ */
/* long paths, 4 KB to 1 MB: /proc/self/cgroup, mountinfo, cpuset       */

/*
 * Two chains straight below the cgroup2 root, one of 250-byte names and
 * one of 15-byte names, so that the path of level d is d x (n + 1) bytes
 * exactly.  Level i is named n times the letter 'a' + (i - 1) % 26.
 * cpuset is enabled in cgroup.subtree_control of the root and of every
 * level but the last, so each level has its own cpuset; cpuset is a
 * threaded controller, so a level with it enabled for its children still
 * takes tasks while those children have none.  cgroup.max.depth and
 * cgroup.max.descendants are unlimited by default.  Making the 8,273
 * levels costs about 10 G guest instructions: each mkdir walks all the
 * level's ancestors, per bpf attach type (cgroup_bpf_inherit()).
 */
#define LMNT	"/tmp/bench-long"	/* the bind mount of a deep level */

struct lchain {
	int n, levels;
	char *path;			/* "/" + n bytes, levels times */
};

static struct lchain lchains[] = { { 250, 4177, NULL }, { 15, 4096, NULL } };

struct lfig {
	const struct lchain *ch;
	int d;				/* the level */
	const char *label;		/* the length in the figure's name */
	int fd;				/* the level's directory */
};

/* just under PATH_MAX (4016 and 4000 bytes), then 4 KB to 1 MB */
static struct lfig lfigs[] = {
	{ &lchains[0], 16, "4016", -1 }, { &lchains[0], 17, "4K", -1 },
	{ &lchains[0], 65, "16K", -1 }, { &lchains[0], 261, "64K", -1 },
	{ &lchains[0], 1044, "256K", -1 }, { &lchains[0], 4177, "1M", -1 },
	{ &lchains[1], 250, "4000", -1 }, { &lchains[1], 256, "4K", -1 },
	{ &lchains[1], 1024, "16K", -1 }, { &lchains[1], 4096, "64K", -1 },
};

#define NLFIGS (sizeof(lfigs) / sizeof(*lfigs))

static size_t llen(const struct lfig *f)
{
	return (size_t)f->d * (f->ch->n + 1);
}

static void lname(char *name, size_t size, const char *what, const struct lfig *f)
{
	snprintf(name, size, "%s_long_L%s_n%d_d%d", what, f->label, f->ch->n, f->d);
}

/*
 * Reads per figure: about 1 G guest instructions at the estimated cost of
 * a read, 6 d^2 + 100 x length, and 10 to 200 reads.  Upstream walks up
 * from the leaf once per level, quadratic in the depth: a read of
 * /proc/self/cgroup or /proc/self/cpuset costs it 5.2 to 6.4 d^2
 * instructions (111 M at 1 MB), of mountinfo 7.9 to 9.6 d^2 (167 M), so
 * that no figure passes 2 G on stock.  The series is linear in the
 * length: the estimate allows it 100 instructions a byte, seq_file's
 * retries with a doubled buffer included.
 */
static int lreads(const struct lfig *f)
{
	double est = 6.0 * f->d * f->d + 100.0 * llen(f) + 50000;
	double n = 1e9 / est;

	return n < 10 ? 10 : n > 200 ? 200 : (int)n;
}

static void grow_buf(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		error("setup", "mmap the read buffer");
	buf = p;
	buf_size = size;
}

static void make_lchains(void)
{
	uint64_t t0 = now();
	int count = 0;

	grow_buf(2 << 20);
	write_file(CG "/cgroup.subtree_control", "+cpuset");
	for (size_t c = 0; c < sizeof(lchains) / sizeof(*lchains); c++) {
		struct lchain *ch = &lchains[c];
		size_t len = (size_t)ch->levels * (ch->n + 1);
		char nm[256];
		int fd;

		ch->path = malloc(len + 1);
		if (!ch->path)
			error("setup", "malloc");
		for (int i = 1; i <= ch->levels; i++) {
			char *p = ch->path + (size_t)(i - 1) * (ch->n + 1);

			p[0] = '/';
			memset(p + 1, 'a' + (i - 1) % 26, ch->n);
		}
		ch->path[len] = '\0';

		fd = open(CG, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			error("setup", CG);
		for (int i = 1; i <= ch->levels; i++) {
			memcpy(nm, ch->path + (size_t)(i - 1) * (ch->n + 1) + 1, ch->n);
			nm[ch->n] = '\0';
			fd = mkdir_enter(fd, nm, "long-path level");
			count++;
			if (i < ch->levels)
				write_at("setup", fd, "cgroup.subtree_control", "+cpuset");
			for (size_t k = 0; k < NLFIGS; k++)
				if (lfigs[k].ch == ch && lfigs[k].d == i &&
				    (lfigs[k].fd = dup(fd)) < 0)
					error("setup", "dup");
		}
		close(fd);
	}
	for (size_t k = 0; k < NLFIGS; k++)
		if (lfigs[k].fd < 0)
			wrong("setup", "no level %d in the chain of %d-byte names",
			      lfigs[k].d, lfigs[k].ch->n);
	out("# long-path chains: %d cgroups with cpuset in %.0f ms (guest)",
	    count, (now() - t0) / 1e6);
}

/*
 * @got (@glen bytes) must be the path of @f: whole, or its first 4095
 * bytes where it is longer (upstream's truncation).
 */
static void check_lpath(const char *name, const struct lfig *f, const char *got, size_t glen)
{
	size_t full = llen(f);

	if (glen != full && !(full > UPSTREAM_MAX && glen == UPSTREAM_MAX))
		wrong(name, "path of %zu bytes read, %zu expected (or %d, truncated)",
		      glen, full, UPSTREAM_MAX);
	if (memcmp(got, f->ch->path, glen))
		wrong(name, "the %zu bytes read are not the path's", glen);
}

/*
 * Time @reads reads of @path after a tenth as many as warm-up; each one
 * must return @want bytes, the length of the read already checked.
 */
static void time_lread(const char *name, const char *path, int reads, ssize_t want)
{
	uint64_t t0 = 0;
	ssize_t len;

	for (int i = -reads / 10; i < reads; i++) {
		if (i == 0)
			t0 = now();
		len = read_file(path);
		if (len < 0)
			error(name, path);
		if (len != want)
			wrong(name, "read %zd bytes, then %zd", want, len);
	}
	report(name, (double)(now() - t0) / reads, "ns");
}

/*
 * /proc/self/@kind of a task at level d: one line, @prefix then the path
 * (/proc/self/cgroup: "0::" PATH "\n"; /proc/self/cpuset: PATH "\n").
 */
static void fig_proc_long(long k, const char *kind, const char *prefix)
{
	const struct lfig *f = &lfigs[k];
	size_t plen = strlen(prefix);
	char name[64], path[32];
	ssize_t len;

	lname(name, sizeof(name), kind, f);
	snprintf(path, sizeof(path), "/proc/self/%s", kind);
	write_at(name, f->fd, "cgroup.procs", "0");
	len = read_file(path);
	if (len < 0 && errno == ENAMETOOLONG && llen(f) > UPSTREAM_MAX) {
		out("bench: %s refused ENAMETOOLONG", name);
		return;
	}
	if (len < 0)
		error(name, path);
	if (len < (ssize_t)plen + 2 || memcmp(buf, prefix, plen) ||
	    buf[len - 1] != '\n' || memchr(buf, '\n', len - 1))
		wrong(name, "not one line of %s: %.40s", path, buf);
	check_lpath(name, f, buf + plen, len - plen - 1);
	time_lread(name, path, lreads(f), len);
	strcat(name, "_bytes");
	report(name, len - plen - 1, "bytes");
}

static void fig_cgroup_long(long k)
{
	fig_proc_long(k, "cgroup", "0::");
}

static void fig_cpuset_long(long k)
{
	fig_proc_long(k, "cpuset", "");
}

/*
 * /proc/self/mountinfo with level d bind-mounted on LMNT, in a mount
 * namespace of its own: that mount's root field is the level's path.
 * The other mounts are the guest's few (/, /proc, /sys, /dev, /tmp,
 * /sys/fs/cgroup); mountinfo_read_init is their cost alone.
 */
static void fig_mountinfo_long(long k)
{
	const struct lfig *f = &lfigs[k];
	const char *root = NULL, *p, *e;
	size_t rlen = 0;
	char name[64];
	ssize_t len;
	int found = 0;

	lname(name, sizeof(name), "mountinfo", f);
	/*
	 * The level's fd is a path of the initial mount namespace, which
	 * mount(2) refuses as a source in another one; unshare() moves the
	 * working directory to the new namespace's copy of that mount.
	 */
	if (fchdir(f->fd))
		error(name, "fchdir to the level");
	if (unshare(CLONE_NEWNS))
		error(name, "unshare(CLONE_NEWNS)");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		error(name, "make / private");
	if (mount(".", LMNT, NULL, MS_BIND, NULL) || chdir("/"))
		error(name, "bind-mount the level");
	len = read_file("/proc/self/mountinfo");
	if (len < 0 && errno == ERANGE && llen(f) > UPSTREAM_MAX) {
		out("bench: %s refused ERANGE", name);
		return;
	}
	if (len < 0)
		error(name, "/proc/self/mountinfo");
	/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT ...": the lines on LMNT */
	for (p = buf; p < buf + len; p = e + 1) {
		const char *r = p, *m;

		e = memchr(p, '\n', buf + len - p);
		if (!e)
			wrong(name, "a line without its newline");
		for (int field = 0; field < 3 && r; field++) {
			r = memchr(r, ' ', e - r);
			r = r ? r + 1 : NULL;
		}
		m = r ? memchr(r, ' ', e - r) : NULL;
		if (!m)
			wrong(name, "a line without a mount point");
		if ((size_t)(e - m - 1) > strlen(LMNT) &&
		    !memcmp(m + 1, LMNT " ", strlen(LMNT) + 1)) {
			found++;
			root = r;
			rlen = m - r;
		}
	}
	if (found != 1)
		wrong(name, "%d mounts on %s", found, LMNT);
	check_lpath(name, f, root, rlen);
	time_lread(name, "/proc/self/mountinfo", lreads(f), len);
	strcat(name, "_bytes");
	report(name, rlen, "bytes");
}

/* ------------------------------------------------------------------ */
/* 10,000 namespaces, each pinned by an fd                             */

static long slab_bytes(void)
{
	char *p;

	if (read_file("/proc/meminfo") < 0 || !(p = strstr(buf, "\nSlab:")))
		return -1;
	return strtol(p + 6, NULL, 10) * 1024;
}

static void fig_ns_pin(long n)
{
	struct rlimit rl = { n + 100, n + 100 };
	long before, after;
	uint64_t t0;
	char s[32];
	int fd;

	snprintf(s, sizeof(s), "%ld", 4 * n);
	write_file("/proc/sys/user/max_cgroup_namespaces", s);
	/* grow the fd table first: it must not count as namespace memory */
	if (setrlimit(RLIMIT_NOFILE, &rl) || dup2(0, n + 50) < 0)
		error("ns_pin", "rlimit");
	close(n + 50);
	before = slab_bytes();
	t0 = now();
	for (long i = 0; i < n; i++) {
		if (unshare(CLONE_NEWCGROUP))
			error("ns_pin", "unshare");
		fd = open("/proc/self/ns/cgroup", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			error("ns_pin", "open");
	}
	report("ns_pin_time", (double)(now() - t0) / n, "ns");
	after = slab_bytes();
	report("ns_pin_slab", (double)(after - before) / n, "bytes");
}

/* ------------------------------------------------------------------ */
/* a v1 named hierarchy besides cgroup2: two lines in /proc/self/cgroup */

static void v1_enter(int depth)
{
	char p[sizeof(V1) + 2 * MAXDEPTH + 32];
	size_t len = snprintf(p, sizeof(p), "%s/bench", V1);

	for (int i = 1; i < depth; i++)
		len += snprintf(p + len, sizeof(p) - len, "/d");
	snprintf(p + len, sizeof(p) - len, "/cgroup.procs");
	write_file(p, "0");
}

static void fig_v1(long ns)
{
	const char *name = ns ? "v1_cgroup_read_nsroot_d32" : "v1_cgroup_read_init_d32";

	cg_enter_depth(32);
	v1_enter(32);
	if (ns && unshare(CLONE_NEWCGROUP))
		error(name, "unshare");
	time_read(name, "/proc/self/cgroup", READS);
	if (!strstr(buf, "name=bench:"))
		out("# %s: no v1 line", name);
}

static void setup_v1(void)
{
	char p[sizeof(V1) + 2 * MAXDEPTH + 16];
	size_t len;

	if (mkdir(V1, 0755) && errno != EEXIST)
		error("setup", V1);
	if (mount("none", V1, "cgroup", 0, "none,name=bench"))
		error("setup", "mount v1 name=bench");
	len = snprintf(p, sizeof(p), "%s/bench", V1);
	for (int d = 1; d <= 32; d++) {
		if (mkdir(p, 0755) && errno != EEXIST)
			error("setup", "v1 chain");
		len += snprintf(p + len, sizeof(p) - len, "/d");
	}
}

/* ------------------------------------------------------------------ */

static void probe_ns(long unused)
{
	(void)unused;
	_exit(unshare(CLONE_NEWCGROUP) ? 1 : 0);
}

int main(void)
{
	pid_t pid;
	int st;
	size_t k;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0)
		probe_ns(0);
	waitpid(pid, &st, 0);
	have_ns = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	out("# cgroup namespaces: %s", have_ns ? "yes" : "no (unshare fails)");

	make_chain();
	if (mkdir(MNT, 0755) && errno != EEXIST)
		error("setup", MNT);

	in_child(fig_fork, 1000);
	if (have_ns) {
		in_child(fig_clone_ns, 1000);
		in_child(fig_unshare, 5000);
		in_child(fig_setns, 5000);
	} else {
		skip_ns("clone_newcgroup_exit_wait");
		skip_ns("unshare_newcgroup");
		skip_ns("setns_cgroup");
	}

	for (k = 0; k < sizeof(depths) / sizeof(*depths); k++)
		in_child(fig_read_init, depths[k]);
	for (k = 0; k < sizeof(depths) / sizeof(*depths); k++) {
		char name[64];

		if (have_ns) {
			in_child(fig_read_nsroot, depths[k]);
			continue;
		}
		snprintf(name, sizeof(name), "cgroup_read_nsroot_d%d", depths[k]);
		skip_ns(name);
	}
	for (k = 0; k < sizeof(depths) / sizeof(*depths); k++) {
		char name[64];

		if (have_ns) {
			in_child(fig_read_dotdot, depths[k]);
			continue;
		}
		snprintf(name, sizeof(name), "cgroup_read_dotdot_d%d", depths[k]);
		skip_ns(name);
	}

	in_child(fig_mountinfo_init, 0);
	for (k = 0; k < sizeof(mnt_depths) / sizeof(*mnt_depths); k++) {
		char name[64];

		if (have_ns) {
			in_child(fig_mountinfo_ns, mnt_depths[k]);
			continue;
		}
		snprintf(name, sizeof(name), "mountinfo_read_ns_d%d", mnt_depths[k]);
		skip_ns(name);
	}

	make_long_chain();
	for (k = 0; k < sizeof(long_depths) / sizeof(*long_depths); k++)
		in_child(fig_long, long_depths[k]);

	if (have_ns) {
		in_child(fig_ns_pin, NS_PIN);
	} else {
		skip_ns("ns_pin_time");
		skip_ns("ns_pin_slab");
	}

	/* after the others: cpuset is enabled from the root cgroup on */
	if (mkdir(LMNT, 0755) && errno != EEXIST)
		error("setup", LMNT);
	make_lchains();
	for (k = 0; k < NLFIGS; k++)
		in_child(fig_cgroup_long, k);
	for (k = 0; k < NLFIGS; k++)
		in_child(fig_mountinfo_long, k);
	for (k = 0; k < NLFIGS; k++)
		in_child(fig_cpuset_long, k);

	/* last: from here on /proc/self/cgroup has two lines */
	setup_v1();
	in_child(fig_v1, 0);
	if (have_ns)
		in_child(fig_v1, 1);
	else
		skip_ns("v1_cgroup_read_nsroot_d32");

	out("bench: done");
	return 0;
}
