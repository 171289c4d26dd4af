#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <grp.h>
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
  /* The umask is the host's at the moment it spawned us, and the host may
   * narrow it for an instant on another thread (UnixSocket.listen makes its
   * socket with 0177). The private root's folders must have the modes they
   * are made with, or the runner, without capabilities, cannot walk into its
   * own container; and what the provider writes there is for the user only. */
  umask(077);
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0) layers |= TP_LAYER_PARENT_DEATH_SIGNAL;
  if (getppid() != host_pid) _exit(125); /* the host died before we could notice */
  close_from(keep_up_to + 1);
  /* The host starts runners with setsid; one started otherwise leaves the
   * caller's session here (it fails only for a process-group leader). */
  if (getsid(0) != getpid()) setsid();
  int terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (terminal >= 0) {
    close(terminal);
  } else if (getsid(0) == getpid()) {
    layers |= TP_LAYER_NO_TERMINAL;
  }
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

/* Maps the caller's ids to themselves in the user namespace it just entered. */
static int map_identity(uid_t uid, gid_t gid, tp_sandbox_failure *failure) {
  char map[64];
  if (write_file("/proc/self/setgroups", "deny") != 0 && errno != ENOENT) {
    return tp_fail(failure, "writing /proc/self/setgroups");
  }
  snprintf(map, sizeof map, "%u %u 1\n", uid, uid);
  if (write_file("/proc/self/uid_map", map) != 0) return tp_fail(failure, "writing /proc/self/uid_map");
  snprintf(map, sizeof map, "%u %u 1\n", gid, gid);
  if (write_file("/proc/self/gid_map", map) != 0) return tp_fail(failure, "writing /proc/self/gid_map");
  return 0;
}

/* Becomes `user` and `group` (no supplementary groups), keeping the
 * capabilities it has until tp_sandbox_drop_capabilities drops them all
 * (dropping the bounding set needs CAP_SETPCAP). */
static int become(uid_t user, gid_t group, tp_sandbox_failure *failure) {
  if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0) return tp_fail(failure, "keeping capabilities across setuid");
  if (setgroups(0, NULL) != 0) return tp_fail(failure, "dropping supplementary groups");
  if (setresgid(group, group, group) != 0) return tp_fail(failure, "becoming group %u", (unsigned)group);
  if (setresuid(user, user, user) != 0) return tp_fail(failure, "becoming user %u", (unsigned)user);
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
  if (syscall(SYS_capget, &header, data) != 0) return tp_fail(failure, "capget");
  for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) data[i].effective = data[i].permitted;
  if (syscall(SYS_capset, &header, data) != 0) return tp_fail(failure, "capset");
  return 0;
}

/* The processes that only wait (the original one and PID 1) keep nothing a
 * provider could use: no capabilities, and not dumpable, so that nothing of
 * the same user can attach to them. */
static void retire(void) {
  tp_sandbox_drop_capabilities(NULL);
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

int tp_sandbox_enter_namespaces(int isolate_network, const char *network_stack, const tp_sandbox_files *files,
                                int *own_user_namespace, tp_sandbox_failure *failure) {
  int flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | (isolate_network || network_stack ? CLONE_NEWNET : 0);
  *own_user_namespace = 0;
  tp_network_stack stack = {-1, -1};
  if (network_stack && tp_network_stack_prepare(&stack, network_stack, failure) != 0) return -2;
  if (unshare(flags) != 0) {
    /* Not root: an unprivileged user namespace grants the rights within it. */
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(flags | CLONE_NEWUSER) != 0) {
      int error = errno;
      tp_network_stack_cancel(&stack);
      errno = error;
      return tp_fail(failure, "unshare(CLONE_NEWUSER)");
    }
    *own_user_namespace = 1;
    if (map_identity(uid, gid, failure) != 0) {
      tp_network_stack_cancel(&stack);
      return -2;
    }
  }
  if (network_stack && tp_network_stack_attach(&stack, *own_user_namespace, failure) != 0) return -2;
  /* Where /dev/fuse cannot be opened the container is bound as it is, and
   * the missing layer says so. */
  tp_container_disk disk = {-1, {-1, -1}};
  uid_t provider_user = files ? files->provider_user : 0;
  gid_t provider_group = files ? files->provider_group : 0;
  if (files && files->container && files->disk_bytes) {
    tp_disk_prepare(&disk, files, provider_user, provider_group);
  }
  /* Another user only where the view shows it the container, root's. */
  int changes_user = provider_user != 0 && disk.device >= 0 && geteuid() == 0;
  /* Three processes from here: the original one, which the host started and
   * waits for; PID 1 of the namespace, a minimal init that builds the private
   * root (so that its /proc shows this namespace) and reaps orphans; and the
   * runner proper, PID 2, which returns to the caller. PID 1 cannot be the
   * runner: the kernel drops signals PID 1 sends itself, so abort() there
   * would end in SIGSEGV rather than SIGABRT. PID 1 passes the runner's wait
   * status to the original process through a pipe, and that process ends the
   * same way, so the host sees what happened to the runner. */
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    tp_disk_forget(&disk);
    return tp_fail(failure, "pipe2");
  }
  pid_t init = fork();
  if (init < 0) {
    tp_disk_forget(&disk);
    return tp_fail(failure, "fork");
  }
  if (init > 0) {
    close(report[1]);
    close(3); /* the protocol socket: only the runner holds it now */
    retire();
    /* Serves the container's view, with no capability, until PID 1 reports. */
    tp_disk_serve_until(&disk, report[0]);
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
  if (stack.go >= 0) close(stack.go); /* the original process's alone: pasta is stopped when it ends */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  int built = tp_enter_private_root(files, &disk, failure);
  int disk_budget = disk.device >= 0;
  tp_disk_forget(&disk); /* the real folder and /dev/fuse: the server's alone */
  pid_t runner = fork();
  if (runner < 0) _exit(1);
  if (runner > 0) {
    close(3);
    retire();
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
  if (built != 0) return -2;
  if (changes_user && become(provider_user, provider_group, failure) != 0) return -2;
  return TP_LAYER_PID_NAMESPACE | TP_LAYER_FILE_SYSTEM | (isolate_network ? TP_LAYER_NETWORK_NAMESPACE : 0) |
         (network_stack ? TP_LAYER_USER_MODE_NETWORK : 0) | (disk_budget ? TP_LAYER_DISK_BUDGET : 0) |
         (changes_user ? TP_LAYER_UNPRIVILEGED_USER : 0);
}

int tp_sandbox_drop_capabilities(tp_sandbox_failure *failure) {
  /* Root (or the owner of a user namespace) must not get them back through
   * exec: the bounding set bounds what exec grants, and the securebits stop
   * uid 0 from being special. */
  prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                               SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
                               SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED,
        0, 0, 0);
  for (int capability = 0; capability <= 63; capability++) {
    if (prctl(PR_CAPBSET_READ, capability, 0, 0, 0) < 0) break; /* past the kernel's last capability */
    if (prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0 && errno != EINVAL) {
      if (prctl(PR_CAPBSET_READ, capability, 0, 0, 0) == 1) {
        return tp_fail(failure, "dropping capability %d from the bounding set", capability);
      }
    }
  }
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3];
  memset(none, 0, sizeof none);
  if (syscall(SYS_capset, &header, none) != 0) return tp_fail(failure, "capset");
  struct __user_cap_data_struct left[_LINUX_CAPABILITY_U32S_3];
  if (syscall(SYS_capget, &header, left) != 0) return tp_fail(failure, "capget");
  for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
    if (left[i].effective | left[i].permitted | left[i].inheritable) {
      errno = EPERM;
      return tp_fail(failure, "capabilities are left after capset");
    }
  }
  return TP_LAYER_NO_CAPABILITIES;
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

int tp_sandbox_limit(const tp_sandbox_limits *limits, int counts_tasks) {
  int layers = 0;
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) layers |= TP_LAYER_NO_NEW_PRIVS;
  struct rlimit none = {0, 0};
  int failed = setrlimit(RLIMIT_CORE, &none);
  failed |= set_limit(RLIMIT_AS, limits->address_space_bytes);
  failed |= set_limit(RLIMIT_CPU, limits->cpu_seconds);
  failed |= set_limit(RLIMIT_NOFILE, limits->open_files);
  failed |= set_limit(RLIMIT_FSIZE, limits->file_bytes);
  if (limits->file_bytes > 0) signal(SIGXFSZ, SIG_IGN); /* EFBIG rather than death, for it and what it runs */
  if (!failed) layers |= TP_LAYER_RESOURCE_LIMITS;
  /* Since Linux 5.14 the kernel counts RLIMIT_NPROC per user namespace, so in
   * one of its own the limit bounds the sandbox's tasks alone; elsewhere it
   * would count every task of the user, and root is exempt from it. */
  if (counts_tasks && limits->processes > 0 && set_limit(RLIMIT_NPROC, limits->processes) == 0) {
    layers |= TP_LAYER_PROCESS_COUNT;
  }
  return layers;
}
