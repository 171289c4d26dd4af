#define _GNU_SOURCE
#include "runner_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void close_from(int first) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0) return;
#endif
  long highest = sysconf(_SC_OPEN_MAX);
  for (int fd = first; fd < highest && fd < 65536; fd++) close(fd);
}

int tp_sandbox_detach(int keep_up_to, int host_pid) {
  int layers = 0;
  struct rlimit no_core = {0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0) layers |= TP_LAYER_PARENT_DEATH_SIGNAL;
  if (getppid() != host_pid) _exit(125); /* the host died before we could notice */
  close_from(keep_up_to + 1);
  return layers;
}

static int write_file(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t length = (ssize_t)strlen(text);
  ssize_t written = write(fd, text, (size_t)length);
  close(fd);
  return written == length ? 0 : -1;
}

int tp_sandbox_enter_namespaces(int isolate_network) {
  int flags = CLONE_NEWPID | (isolate_network ? CLONE_NEWNET : 0);
  if (unshare(flags) != 0) {
    /* Not root: an unprivileged user namespace grants the rights within it. */
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(flags | CLONE_NEWUSER) != 0) return 0;
    char map[64];
    snprintf(map, sizeof map, "%u %u 1\n", uid, uid);
    write_file("/proc/self/setgroups", "deny");
    write_file("/proc/self/uid_map", map);
    snprintf(map, sizeof map, "%u %u 1\n", gid, gid);
    write_file("/proc/self/gid_map", map);
  }
  /* Three processes from here: the original one, which the host started and
   * waits for; PID 1 of the namespace, a minimal init that reaps orphans; and
   * the runner proper, PID 2, which returns to the caller. PID 1 cannot be the
   * runner: the kernel drops signals PID 1 sends itself, so abort() there
   * would end in SIGSEGV rather than SIGABRT. PID 1 passes the runner's wait
   * status to the original process through a pipe, and that process ends the
   * same way, so the host sees what happened to the runner. */
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) return 0;
  pid_t init = fork();
  if (init < 0) return 0;
  if (init > 0) {
    close(report[1]);
    close(3); /* the protocol socket: only the runner holds it now */
    int status = 0;
    ssize_t got = 0;
    while ((got = read(report[0], &status, sizeof status)) < 0 && errno == EINTR) {
    }
    int init_status = 0;
    while (waitpid(init, &init_status, 0) < 0 && errno == EINTR) {
    }
    if (got != (ssize_t)sizeof status) status = init_status; /* PID 1 itself was killed */
    if (WIFSIGNALED(status)) {
      signal(WTERMSIG(status), SIG_DFL);
      raise(WTERMSIG(status));
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
  }
  /* PID 1 of the new namespace. When it ends, the kernel kills every process in it. */
  close(report[0]);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  pid_t runner = fork();
  if (runner < 0) _exit(1);
  if (runner > 0) {
    close(3);
    for (;;) {
      int status = 0;
      pid_t ended = waitpid(-1, &status, 0);
      if (ended == runner) {
        ssize_t ignored = write(report[1], &status, sizeof status);
        (void)ignored;
        _exit(0);
      }
      if (ended < 0 && errno != EINTR) _exit(1);
    }
  }
  /* PID 2: the runner. */
  close(report[1]);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  return TP_LAYER_PID_NAMESPACE | (isolate_network ? TP_LAYER_NETWORK_NAMESPACE : 0);
}

static int set_limit(int resource, uint64_t value) {
  if (value == 0) return 0;
  struct rlimit limit = {(rlim_t)value, (rlim_t)value};
  struct rlimit current;
  if (getrlimit(resource, &current) == 0 && current.rlim_max != RLIM_INFINITY && current.rlim_max < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max = current.rlim_max;
  }
  return setrlimit(resource, &limit);
}

int tp_sandbox_limit(const tp_sandbox_limits *limits) {
  int layers = 0;
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) layers |= TP_LAYER_NO_NEW_PRIVS;
  struct rlimit none = {0, 0};
  int failed = setrlimit(RLIMIT_CORE, &none);
  failed |= set_limit(RLIMIT_AS, limits->address_space_bytes);
  failed |= set_limit(RLIMIT_CPU, limits->cpu_seconds);
  failed |= set_limit(RLIMIT_NOFILE, limits->open_files);
  failed |= set_limit(RLIMIT_NPROC, limits->processes);
  if (!failed) layers |= TP_LAYER_RESOURCE_LIMITS;
  return layers;
}

int tp_sandbox_filter(int deny_network) {
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
  if (!filter) return -ENOMEM;
  int result = 0;
  /* Every process a provider starts stays in the runner's process group. */
  result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setsid), 0);
  result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setpgid), 0);
  int layers = TP_LAYER_PROCESS_FILTER;
  if (deny_network) {
    /* Only AF_UNIX is allowed: every other family fails, IP, packet, netlink,
     * and the ones that reach a network less directly (SMC, RxRPC, TIPC,
     * vsock…). The kernel reads the family as a 32-bit int, so the comparison
     * masks the upper half a caller could set to slip past an exact match. */
    for (int family = 0; family <= AF_MAX; family++) {
      if (family == AF_UNIX) continue;
      result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 1,
                                 SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffULL, (scmp_datum_t)family));
      result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socketpair), 1,
                                 SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffULL, (scmp_datum_t)family));
    }
    /* io_uring can open and connect sockets without socket(2). */
    result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(io_uring_setup), 0);
    result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(io_uring_enter), 0);
    result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(io_uring_register), 0);
    layers |= TP_LAYER_NETWORK_FILTER;
  }
  if (result == 0) result = seccomp_load(filter);
  seccomp_release(filter);
  return result == 0 ? layers : (result < 0 ? result : -EINVAL);
}
