/*
 * runner_sandbox.h: the system calls translation-provider-runner makes to
 * confine a provider before loading it. C, because libseccomp's rule macros,
 * unshare(2), mount(2), pivot_root(2), fork(2), capset(2), Landlock and
 * close_range(2) are not usable from Swift. Only the runner links this.
 *
 * The order is fixed (RunnerSandbox.swift): detach, enter namespaces (which
 * builds the private file system), drop capabilities, limit, Landlock, then
 * the seccomp filter last, since it forbids the calls the steps before it make.
 */
#ifndef RUNNER_SANDBOX_H
#define RUNNER_SANDBOX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Layers, as bits of the values returned below. */
enum {
  TP_LAYER_NO_NEW_PRIVS = 1 << 0,
  TP_LAYER_RESOURCE_LIMITS = 1 << 1,
  TP_LAYER_SYSTEM_CALL_FILTER = 1 << 2, /* seccomp: ptrace, setns, mount, bpf, TIOCSTI, setsid… fail */
  TP_LAYER_NETWORK_FILTER = 1 << 3,     /* seccomp: sockets other than AF_UNIX fail */
  TP_LAYER_NETWORK_NAMESPACE = 1 << 4,
  TP_LAYER_PID_NAMESPACE = 1 << 5,
  TP_LAYER_PARENT_DEATH_SIGNAL = 1 << 6,
  TP_LAYER_FILE_SYSTEM = 1 << 7,        /* a mount namespace with a private root (tp_sandbox_files) */
  TP_LAYER_NO_CAPABILITIES = 1 << 8,    /* every capability dropped, bounding and ambient sets included */
  TP_LAYER_LANDLOCK = 1 << 9,           /* Landlock file (and, without the network, TCP) rules */
  TP_LAYER_NO_TERMINAL = 1 << 10,       /* a session of its own without a controlling terminal */
  TP_LAYER_PROCESS_COUNT = 1 << 11,     /* RLIMIT_NPROC counted within its own user namespace */
  TP_LAYER_USER_MODE_NETWORK = 1 << 12, /* with the network key: a network namespace reached through pasta */
  TP_LAYER_TASK_GROUP = 1 << 13,        /* a control group of its own whose pids.max bounds its tasks, root's too */
  TP_LAYER_MEMORY_GROUP = 1 << 14,      /* the same group's memory.max: memory files and tmpfs pages counted */
  TP_LAYER_DISK_BUDGET = 1 << 15,       /* the container through a size-limited view: ENOSPC past the disk limit */
  TP_LAYER_UNPRIVILEGED_USER = 1 << 16, /* root's runner with no group: the provider runs as an unprivileged user */
};

/* Resource limits; 0 leaves a limit as it is. */
typedef struct tp_sandbox_limits {
  uint64_t address_space_bytes;
  uint64_t cpu_seconds;
  uint64_t open_files;
  /* Tasks (processes and threads) of the sandbox; applied only where the
   * runner has a user namespace of its own, where the kernel counts only the
   * sandbox's tasks rather than every task of the user. */
  uint64_t processes;
  /* The size of each file it writes (RLIMIT_FSIZE); SIGXFSZ is ignored, so
   * a write past it fails with EFBIG. */
  uint64_t file_bytes;
} tp_sandbox_limits;

/* What of the user's file system a provider sees, besides the system's
 * programs, libraries and data (read-only) and an empty private /tmp. */
typedef struct tp_sandbox_files {
  /* Absolute paths shown read-only at the same place: the bundle, and the
   * paths its manifest declares. Missing paths are skipped. */
  const char *const *read_only;
  size_t read_only_count;
  /* The provider's own writable folder (its HOME), shown at the same place;
   * must exist. NULL for none. Its `tmp` folder (the provider's TMPDIR) is
   * not the one on disk but part of the scratch space below. */
  const char *container;
  /* The size of the scratch space: one tmpfs whose folders are /tmp,
   * /dev/shm and the container's `tmp`, so that what a provider keeps in
   * memory through files, in all three together, is bounded by this (the
   * memory limit); 0 for 64 MiB. */
  uint64_t scratch_bytes;
  /* The most the container may hold, as the host measures it (every name
   * its blocks, at least 4 KiB): the provider sees the container through a
   * FUSE view that answers ENOSPC past it, where /dev/fuse can be opened
   * (TP_LAYER_DISK_BUDGET); 0 for no view. */
  uint64_t disk_bytes;
  /* When not 0, the user and group the provider runs as, given by a runner
   * started as root where no control group can be made, so that
   * RLIMIT_NPROC, from which the kernel exempts root, bounds its tasks. Only
   * with the size-limited view (the container, root's, is shown as this
   * user's through it); without the view the provider stays root. */
  uint32_t provider_user;
  uint32_t provider_group;
  /* With `container_measured`, what the host measured in the container just
   * before the start (as the view counts): the view's budget starts from it
   * instead of another walk of the folder. */
  int container_measured;
  uint64_t container_used_bytes;
} tp_sandbox_files;

/* Why a step failed: the errno and what was being done. */
typedef struct tp_sandbox_failure {
  int error;
  char step[240];
} tp_sandbox_failure;

/* Dies with SIGKILL when the parent (the host, process `host_pid`) dies, exits
 * at once if it is already gone, and closes every descriptor above
 * `keep_up_to`. Returns TP_LAYER_PARENT_DEATH_SIGNAL and TP_LAYER_NO_TERMINAL
 * (the process leads a session with no controlling terminal: the host starts
 * it with setsid) as they hold. */
int tp_sandbox_detach(int keep_up_to, int host_pid);

/* Enters new PID, mount and IPC namespaces and, with `isolate_network`, a new
 * network namespace (directly as root, else through a new user namespace);
 * with `network_stack` (the path of pasta; for a provider with the network
 * key) also a new network namespace, which that program, started outside the
 * namespaces, connects to the machine's network before this returns;
 * builds the private root of `files` in the mount namespace; then forks: the
 * caller returns in PID 2 of the new namespace, PID 1 reaps orphans, and the
 * original process waits and ends as PID 2 ends, so the host's view of the
 * process is unchanged. When PID 1 dies, the kernel kills every process left.
 * `own_user_namespace` is set when a user namespace had to be made (not root).
 * Returns the layers entered; -1 when the kernel refuses the namespaces
 * (nothing changed; `failure` says which); -2 when a later step failed (the
 * process is half set up and must not load a provider). */
int tp_sandbox_enter_namespaces(int isolate_network, const char *network_stack, const tp_sandbox_files *files,
                                int *own_user_namespace, tp_sandbox_failure *failure);

/* Moves this process (and so everything it starts) into a control group of
 * its own, where this user may make one: under cgroup v2, beside its group in
 * a parent that hands down the pids controller (a delegated subtree, as a
 * systemd user session's, or the root; memory.max too where it hands down
 * memory); else under cgroup v1's pids hierarchy, when this user may write it
 * (root). pids.max is `processes`, which the kernel applies to root as well,
 * unlike RLIMIT_NPROC; memory.max is `address_space_bytes`, counting what no
 * rlimit counts (memory files, tmpfs pages, the page cache). Call before the
 * namespaces are made. Returns TP_LAYER_TASK_GROUP and TP_LAYER_MEMORY_GROUP
 * as set, or 0 where no group can be made here (nothing changed). */
int tp_sandbox_control_group(const tp_sandbox_limits *limits);

/* Drops every capability: effective, permitted, inheritable, ambient and the
 * bounding set, and locks root out of regaining them on exec. Returns
 * TP_LAYER_NO_CAPABILITIES, or -1 with `failure` (may be NULL) set. */
int tp_sandbox_drop_capabilities(tp_sandbox_failure *failure);

/* Sets no_new_privs and the limits (core dumps always off); the process
 * count only when `counts_tasks` (a user namespace of its own, or a user
 * other than root). Returns the layers set. */
int tp_sandbox_limit(const tp_sandbox_limits *limits, int counts_tasks);

/* Landlock, where the kernel has it: with `private_root` (the file-system
 * layer is in force) reading anywhere in that root and writing only to the
 * container, /tmp and /dev; without it, reading only the system's folders,
 * the read-only paths and the directories of the libraries already loaded,
 * and writing only to the container. Without the network, TCP bind and
 * connect are refused too (ABI 4); abstract Unix sockets and signals outside
 * the sandbox are out of reach (ABI 6). Returns TP_LAYER_LANDLOCK, 0 when the
 * kernel has no Landlock, or -1 with `failure` set. */
int tp_sandbox_landlock(int deny_network, int private_root, const tp_sandbox_files *files,
                        tp_sandbox_failure *failure);

/* Installs the seccomp filter: always the system-call filter (which also
 * refuses setuid and setgid bits in chmod, open and mknod modes, and, unless
 * `allow_memory_files`, memfd_create); with `deny_network` also the network
 * filter. Returns the layers installed; -errno on failure. */
int tp_sandbox_filter(int deny_network, int allow_memory_files);

#ifdef __cplusplus
}
#endif

#endif
