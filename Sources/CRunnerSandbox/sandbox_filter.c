#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

/* The calls no provider needs and an escape would: each fails with EPERM.
 * Debugging and other processes' memory, namespaces and mounts, kernel
 * code and keys, and the kernel's less common doors (bpf, userfaultfd,
 * perf, file handles). Most need a capability the runner no longer has;
 * the filter refuses them even where it would still have one. */
static const int refused[] = {
    SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev), SCMP_SYS(process_madvise),
    SCMP_SYS(pidfd_getfd), SCMP_SYS(kcmp), SCMP_SYS(perf_event_open),
    SCMP_SYS(setns), SCMP_SYS(unshare), SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(pivot_root),
    SCMP_SYS(chroot), SCMP_SYS(move_mount), SCMP_SYS(open_tree), SCMP_SYS(fsopen), SCMP_SYS(fsconfig),
    SCMP_SYS(fsmount), SCMP_SYS(fspick), SCMP_SYS(mount_setattr),
    SCMP_SYS(bpf), SCMP_SYS(userfaultfd), SCMP_SYS(kexec_load), SCMP_SYS(kexec_file_load),
    SCMP_SYS(init_module), SCMP_SYS(finit_module), SCMP_SYS(delete_module), SCMP_SYS(reboot),
    SCMP_SYS(swapon), SCMP_SYS(swapoff), SCMP_SYS(acct), SCMP_SYS(syslog), SCMP_SYS(iopl), SCMP_SYS(ioperm),
    SCMP_SYS(quotactl), SCMP_SYS(lookup_dcookie), SCMP_SYS(uselib),
    SCMP_SYS(keyctl), SCMP_SYS(add_key), SCMP_SYS(request_key),
    SCMP_SYS(open_by_handle_at), SCMP_SYS(name_to_handle_at),
    SCMP_SYS(settimeofday), SCMP_SYS(clock_settime), SCMP_SYS(clock_adjtime), SCMP_SYS(adjtimex),
    SCMP_SYS(sethostname), SCMP_SYS(setdomainname),
    /* io_uring can open and connect sockets without socket(2). */
    SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter), SCMP_SYS(io_uring_register),
    /* Every process a provider starts stays in the runner's process group. */
    SCMP_SYS(setsid), SCMP_SYS(setpgid),
};

/* Terminal requests that type into a terminal, take one over, or redirect
 * the console. No terminal reaches a runner; this holds even if one did. */
static const unsigned long terminal_requests[] = {TIOCSTI, TIOCLINUX, TIOCCONS, TIOCSCTTY, TIOCSETD};

/* clone(2) flags that make namespaces. clone3(2) passes its flags in memory,
 * where a filter cannot read them, so it fails with ENOSYS and the C library
 * falls back to clone(2). */
static const unsigned long namespace_flags[] = {CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
                                                CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET};

/* The calls that set a file's mode, and which argument holds the mode. A
 * provider run by root would otherwise leave a setuid-root program in its
 * container, which the user's other processes can run outside the sandbox. */
static const struct {
  int call;
  unsigned argument;
} mode_setters[] = {
    {SCMP_SYS(chmod), 1}, {SCMP_SYS(fchmod), 1}, {SCMP_SYS(fchmodat), 2}, {SCMP_SYS(open), 2},
    {SCMP_SYS(openat), 3}, {SCMP_SYS(creat), 1}, {SCMP_SYS(mknod), 1}, {SCMP_SYS(mknodat), 2},
};

#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif

/* Refuses a setuid or setgid bit in each mode above. openat2(2) and
 * fchmodat2(2) pass what a filter cannot read (a struct; a mode the filter
 * could read, but libseccomp may not know the call): they fail with ENOSYS,
 * and the C library falls back to the calls above. */
static int refuse_privileged_modes(scmp_filter_ctx filter) {
  int result = 0;
  for (size_t i = 0; i < sizeof mode_setters / sizeof mode_setters[0]; i++) {
    for (scmp_datum_t bit = S_ISGID; bit <= S_ISUID; bit <<= 1) {
      struct scmp_arg_cmp mode = {mode_setters[i].argument, SCMP_CMP_MASKED_EQ, bit, bit};
      result |= seccomp_rule_add_array(filter, SCMP_ACT_ERRNO(EPERM), mode_setters[i].call, 1, &mode);
    }
  }
  result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0);
  /* A libseccomp older than the call may refuse its number: fchmodat2 then
   * stays open, and the kernel too old for it (before 6.6) refuses it anyway. */
  (void)seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), __NR_fchmodat2, 0);
  return result;
}

int tp_sandbox_filter(int deny_network, int allow_memory_files) {
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
  if (!filter) return -ENOMEM;
  int result = refuse_privileged_modes(filter);
  /* Memory files are counted by no limit the runner sets (RLIMIT_AS counts mappings). */
  if (!allow_memory_files) result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(memfd_create), 0);
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), refused[i], 0);
  }
  for (size_t i = 0; i < sizeof terminal_requests / sizeof terminal_requests[0]; i++) {
    /* The kernel reads the request as 32 bits: the upper half is masked off. */
    result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                               SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffULL, (scmp_datum_t)terminal_requests[i]));
  }
  for (size_t i = 0; i < sizeof namespace_flags / sizeof namespace_flags[0]; i++) {
    result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                               SCMP_A0(SCMP_CMP_MASKED_EQ, namespace_flags[i], namespace_flags[i]));
  }
  result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  int layers = TP_LAYER_SYSTEM_CALL_FILTER;
  if (deny_network) {
    /* An allow-list: every family but AF_UNIX fails, whatever the kernel
     * adds later. The whole 64-bit argument is compared, so AF_UNIX with
     * garbage in the upper half fails too. */
    result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX));
    result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socketpair), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX));
    layers |= TP_LAYER_NETWORK_FILTER;
  }
  if (result == 0) result = seccomp_load(filter);
  seccomp_release(filter);
  return result == 0 ? layers : (result < 0 ? result : -EINVAL);
}
