/*
 * What the sandbox's C files share: the failure helper, the system's folders
 * and configuration files every provider may read, and the folders of the
 * libraries the runner has already loaded. Not part of the module's interface.
 */
#ifndef SANDBOX_INTERNAL_H
#define SANDBOX_INTERNAL_H

#include "runner_sandbox.h"

#include <limits.h>
#include <sys/types.h>

/* Records `errno` and what was being done; returns -1. */
int tp_fail(tp_sandbox_failure *failure, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* The system's programs, libraries and data, read-only for every provider
 * (NULL-terminated). Apertium's data is in /usr/share, the toolchain's
 * runtime may be in /opt. */
extern const char *const tp_system_folders[];

/* The files of /etc a program needs to run, resolve names and check
 * certificates (NULL-terminated). Not the rest of /etc: as root without
 * capabilities a provider would still own /etc/shadow and the host keys. */
extern const char *const tp_system_configuration[];

/* The device files a provider may open (NULL-terminated). */
extern const char *const tp_devices[];

/* Whether `path` is one of the system folders or below one. */
int tp_is_system_path(const char *path);

enum { TP_MAX_LIBRARY_FOLDERS = 32 };

/* The real folders of the shared objects loaded so far that are outside the
 * system folders (a toolchain in a home folder, say): the provider's own
 * Swift runtime is there. Returns how many were written to `folders`. */
size_t tp_library_folders(char folders[][PATH_MAX], size_t capacity);

/* The real path of the runner's own executable (/proc/self/exe, resolved)
 * into `path`, when it lies outside the system folders; 0 when it lies inside
 * them (already shown) or cannot be read. Foundation's `Bundle.main` and
 * `ProcessInfo` resolve this path, so a provider must be able to see it
 * wherever the host is installed (a build tree, /usr/local, a home folder). */
int tp_runner_executable(char path[PATH_MAX]);

/* The container's size-limited view (sandbox_disk.c): a FUSE file system
 * served by the runner's original process, outside the provider's PID
 * namespace, over the real folder. */
typedef struct tp_container_disk {
  int device;   /* /dev/fuse, set up for libfuse; -1 when there is no such view */
  int mounted[2]; /* PID 1 writes a byte once it is mounted: /dev/fuse cannot be read before */
} tp_container_disk;

/* In the original process, after the namespaces are made and before PID 1 is
 * forked: opens /dev/fuse and the container, takes what the container
 * holds, and readies libfuse. Returns 0, or -1 (no view: /dev/fuse cannot be
 * opened here, say) with `disk->device` at -1 and nothing left open; the
 * budget starts from the host's measure in `files`, or from a walk. With
 * `user` not 0, every file is shown as `user`'s and `group`'s (a root's
 * runner whose provider runs as that user). */
int tp_disk_prepare(tp_container_disk *disk, const tp_sandbox_files *files, uid_t user, gid_t group);

/* In PID 1: mounts the view at `target` (nosuid, nodev). */
int tp_disk_mount(const tp_container_disk *disk, const char *target, tp_sandbox_failure *failure);

/* In every process but the server: closes what tp_disk_prepare opened. */
void tp_disk_forget(tp_container_disk *disk);

/* In the original process, once it holds no capability: serves the view
 * until `stop` is readable (or, with no view, only waits for that). Not on a
 * thread: a process that left its PID namespace by unshare cannot start one. */
int tp_disk_serve_until(tp_container_disk *disk, int stop);

/* Builds the private root in the current (new) mount namespace and enters
 * it; called by PID 1 of the new PID namespace, so that /proc shows that
 * namespace. With a prepared `disk`, the container is its size-limited view.
 * Returns 0, or -1 with `failure` set. */
int tp_enter_private_root(const tp_sandbox_files *files, tp_container_disk *disk, tp_sandbox_failure *failure);

/* The user-mode network stack of a provider with the network key
 * (sandbox_network.c): a helper forked before the namespaces are made, told
 * to attach once they exist. */
typedef struct tp_network_stack {
  int helper; /* its PID, or -1 */
  int go;     /* the socket it waits on, or -1 */
} tp_network_stack;

/* Forks the helper that will run `program` (pasta) for this process, and stop
 * it once this process has ended. */
int tp_network_stack_prepare(tp_network_stack *stack, const char *program, tp_sandbox_failure *failure);

/* Hands the helper this process's network namespace (and user namespace,
 * with `own_user_namespace`) and waits until the stack is up. */
int tp_network_stack_attach(tp_network_stack *stack, int own_user_namespace, tp_sandbox_failure *failure);

/* Lets the helper go without attaching (the namespaces were refused). */
void tp_network_stack_cancel(tp_network_stack *stack);

#endif
