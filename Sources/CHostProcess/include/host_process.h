/*
 * host_process.h: what translation-host does to its own process that Swift
 * cannot express (prctl(2) is variadic): not dumpable, and closed with its
 * parent. Linked by the command line (HostCommandLine) and the desktop
 * popover's portal client (DesktopPopover).
 */
#ifndef HOST_PROCESS_H
#define HOST_PROCESS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the process not dumpable: no process of the same user (a provider
 * that got out of its runner, say) may ptrace it or open its
 * /proc/<pid>/mem, and it leaves no core dump. Returns 0, or -1 with errno. */
int tp_host_forbid_attaching(void);

/* Undoes tp_host_forbid_attaching, for as short a time as the caller can:
 * xdg-desktop-portal reads /proc/<pid>/root of each new caller (to tell a
 * sandboxed application from the host's) and refuses one whose root it
 * cannot open, which a process that is not dumpable is. Returns 0, or -1 with errno. */
int tp_host_allow_attaching(void);

/* 1 when the process is dumpable (attachable), 0 when not, -1 with errno. */
int tp_host_is_attachable(void);

/* Asks the kernel to send this process SIGTERM when the thread of `parent`
 * that started it ends (PR_SET_PDEATHSIG), then checks that `parent` is
 * still its parent, which closes the race with a parent that ended first.
 * Returns 0, or -1 with errno (ESRCH: `parent` is not, or no longer, the
 * parent). */
int tp_host_close_with_parent(int parent);

#ifdef __cplusplus
}
#endif

#endif
