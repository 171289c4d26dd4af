/*
 * runner_sandbox.h: the system calls translation-provider-runner makes to
 * isolate a provider before loading it. C, because libseccomp's rule macros,
 * unshare(2), fork(2) and close_range(2) are not usable from Swift.
 * Only the runner links this.
 */
#ifndef RUNNER_SANDBOX_H
#define RUNNER_SANDBOX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Layers, as bits of the values returned below. */
enum {
  TP_LAYER_NO_NEW_PRIVS = 1 << 0,
  TP_LAYER_RESOURCE_LIMITS = 1 << 1,
  TP_LAYER_PROCESS_FILTER = 1 << 2,   /* seccomp: setsid/setpgid fail, so no process leaves the group */
  TP_LAYER_NETWORK_FILTER = 1 << 3,   /* seccomp: sockets other than AF_UNIX, and io_uring, fail */
  TP_LAYER_NETWORK_NAMESPACE = 1 << 4,
  TP_LAYER_PID_NAMESPACE = 1 << 5,
  TP_LAYER_PARENT_DEATH_SIGNAL = 1 << 6,
};

/* Resource limits; 0 leaves a limit as it is. */
typedef struct tp_sandbox_limits {
  uint64_t address_space_bytes;
  uint64_t cpu_seconds;
  uint64_t open_files;
  uint64_t processes;
} tp_sandbox_limits;

/* Dies with SIGKILL when the parent (the host, process `host_pid`) dies, exits
 * at once if it is already gone, and closes every descriptor above
 * `keep_up_to`. Returns TP_LAYER_PARENT_DEATH_SIGNAL or 0. */
int tp_sandbox_detach(int keep_up_to, int host_pid);

/* Enters a new PID namespace and, with `isolate_network`, a new network
 * namespace (directly as root, else through a new user namespace), then forks:
 * the caller returns in the child, which is PID 1 of the new namespace, while
 * the original process waits for it and exits with its status, so the host's
 * view of the process is unchanged. When the child dies, the kernel kills
 * every process left in its namespace. Returns the namespace layers entered
 * (0 when the kernel refuses; the caller goes on without them). */
int tp_sandbox_enter_namespaces(int isolate_network);

/* Sets no_new_privs and the limits (core dumps always off). Returns the layers set. */
int tp_sandbox_limit(const tp_sandbox_limits *limits);

/* Installs the seccomp filter: always the process filter; with `deny_network`
 * also the network filter. Returns the layers installed; -errno on failure. */
int tp_sandbox_filter(int deny_network);

#ifdef __cplusplus
}
#endif

#endif
