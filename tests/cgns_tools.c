// SPDX-License-Identifier: GPL-2.0
/*
 * util-linux against cgroup namespaces: "unshare -C", "nsenter -C -t PID"
 * and "lsns -t cgroup".  The tools are what users and container runtimes
 * use, so their view must match the syscall-level behaviour.  Cases skip
 * when a tool is absent (busybox applets have no cgroup options).
 */
#include "cgns_common.h"

#define UNSHARE "/usr/bin/unshare"
#define NSENTER "/usr/bin/nsenter"
#define LSNS "/usr/bin/lsns"
#define CAT "/bin/cat"
#define READLINK "/bin/readlink"

static void need(const char *tool)
{
	if (access(tool, X_OK))
		cgns_skip("%s not available", tool);
}

/* Run argv, capture stdout+stderr into out; returns the exit status. */
static int run(char *const argv[], char *out, size_t size)
{
	int p[2], st;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	CHECK(pipe(p) == 0, "pipe");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		execv(argv[0], argv);
		dprintf(2, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	while (len < size - 1 && (n = read(p[0], out + len, size - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	close(p[0]);
	CHECK(waitpid(pid, &st, 0) == pid, "waitpid");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* the "0::" line of a captured /proc/<x>/cgroup */
static char *v2_line(char *text)
{
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
		if (!strncmp(l, "0::", 3))
			return l + 3;
	return NULL;
}

static void unshare_C(void)
{
	char out[8192], want[64];
	int st;

	need(UNSHARE);
	need(CAT);
	cg_mkdir("a");
	cg_move(getpid(), "a");
	st = run((char *[]){ UNSHARE, "-C", CAT, "/proc/self/cgroup", NULL }, out, sizeof(out));
	CHECK(st == 0, "unshare -C cat: status %d: %s", st, out);
	CHECK_STR(v2_line(out), "/", "cgroup line under unshare -C");

	/* the namespace is a new one */
	if (!access(READLINK, X_OK)) {
		snprintf(want, sizeof(want), "cgroup:[%lu]",
			 (unsigned long)ns_ino("/proc/self/ns/cgroup"));
		st = run((char *[]){ UNSHARE, "-C", READLINK, "/proc/self/ns/cgroup", NULL },
			 out, sizeof(out));
		CHECK(st == 0, "unshare -C readlink: status %d: %s", st, out);
		CHECK(!strncmp(out, "cgroup:[", 8), "unexpected link: %s", out);
		CHECK(strncmp(out, want, strlen(want)), "same ns as the caller: %s", out);
	}
	/* and our own view did not change */
	CHECK_STR(must_cg2_path_of(0), hostp("a"), "caller's view");
}

static void nsenter_C(void)
{
	struct helper h;
	char out[8192], pid[16];
	int st;

	need(NSENTER);
	need(CAT);
	cg_mkdir("h");
	cg_mkdir("c");
	h = member_in("h");
	snprintf(pid, sizeof(pid), "%d", h.pid);
	cg_move(getpid(), "c");
	st = run((char *[]){ NSENTER, "-C", "-t", pid, CAT, "/proc/self/cgroup", NULL },
		 out, sizeof(out));
	CHECK(st == 0, "nsenter -C: status %d: %s", st, out);
	/* joined, not moved: our cgroup c seen from the ns rooted at h */
	CHECK_STR(v2_line(out), "/../c", "cgroup line under nsenter -C");
	cg_move_out(getpid());
	member_stop(&h);
}

/*
 * "nsenter -C -t PID" joins the view, not the cgroup: a shell started by
 * it in <base>/c/x, with the target's ns rooted at <base>/h/deep, reads
 * "/../../c/x" for itself, while the host still sees it in c/x and in
 * the cgroupns of the target.
 */
#define SH "/bin/sh"

static void nsenter_C_no_migration(void)
{
	int in[2], out[2], st;
	char buf[8192], pidstr[16], *l, *save = NULL;
	size_t len = 0;
	struct helper h;
	pid_t pid, shpid = 0;
	const char *view = NULL;

	need(NSENTER);
	need(SH);
	cg_mkdir("h");
	cg_mkdir("h/deep");
	cg_mkdir("c");
	cg_mkdir("c/x");
	h = member_in("h/deep");
	snprintf(pidstr, sizeof(pidstr), "%d", h.pid);
	CHECK(pipe(in) == 0 && pipe(out) == 0, "pipe");
	cg_move(getpid(), "c/x");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(out[1], 2);
		close(in[1]);
		close(out[0]);
		execv(NSENTER, (char *[]){ NSENTER, "-C", "-t", pidstr, SH, "-c",
			"cat /proc/self/cgroup; echo pid=$$; read x; exit 0", NULL });
		dprintf(2, "exec %s: %s\n", NSENTER, strerror(errno));
		_exit(127);
	}
	cg_move_out(getpid());
	close(in[0]);
	close(out[1]);
	/* wait for the whole pid line: the shell is then sitting in "read" */
	buf[0] = '\0';
	while (!strstr(buf, "pid=") || !strchr(strstr(buf, "pid="), '\n')) {
		ssize_t n = read(out[0], buf + len, sizeof(buf) - 1 - len);

		CHECK(n > 0, "nsenter output ended early: '%s'", buf);
		len += n;
		buf[len] = '\0';
	}
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, "0::", 3))
			view = l + 3;
		else if (!strncmp(l, "pid=", 4))
			shpid = atoi(l + 4);
	}
	CHECK_STR(view, "/../../c/x", "cgroup line under nsenter -C");
	CHECK_STR(view, rel_path(hostp("h/deep"), hostp("c/x")), "computed view");
	/* nsenter exec'd the shell: same pid as our child */
	CHECK(shpid == pid, "shell pid %d, nsenter child %d", shpid, pid);
	CHECK(ns_ino_pid(pid) == ns_ino_pid(h.pid), "shell not in the target's cgroupns");
	CHECK_STR(must_cg2_path_of(pid), hostp("c/x"), "host view of the shell");
	CHECK(procs_has(cgp("c/x"), pid), "shell not listed in c/x");
	CHECK(!procs_has(cgp("h/deep"), pid), "shell listed in h/deep");
	close(in[1]);	/* "read" ends */
	CHECK(waitpid(pid, &st, 0) == pid, "waitpid");
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "nsenter shell status 0x%x", st);
	close(out[0]);
	member_stop(&h);
}

static void lsns_cgroup(void)
{
	struct helper h;
	char out[65536], want[64];
	unsigned long ino;
	bool found = false;
	int st;

	need(LSNS);
	cg_mkdir("h");
	h = member_in("h");
	ino = ns_ino_pid(h.pid);
	st = run((char *[]){ LSNS, "-t", "cgroup", "-n", "-r", "-o", "NS,TYPE,PID", NULL },
		 out, sizeof(out));
	CHECK(st == 0, "lsns: status %d: %s", st, out);
	snprintf(want, sizeof(want), "%lu cgroup %d", ino, h.pid);
	for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n"))
		if (!strcmp(l, want))
			found = true;
	CHECK(found, "lsns does not list '%s'", want);
	member_stop(&h);
}

static const struct cgns_case cases[] = {
	CASE(unshare_C, CGNS_NEED_NS),
	CASE(nsenter_C, CGNS_NEED_NS),
	CASE(nsenter_C_no_migration, CGNS_NEED_NS),
	CASE(lsns_cgroup, CGNS_NEED_NS),
};

CGNS_MAIN(cases)
