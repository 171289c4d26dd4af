/*
 * host_process.h: what translation-host does to its own process that Swift
 * cannot express (prctl(2) is variadic): not dumpable, and closed with its
 * parent. Linked only by the command line (HostCommandLine).
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
