/*
 * deny_namespaces: runs a command where the kernel refuses every new
 * namespace, as on a machine with unprivileged user namespaces turned off
 * (and not root). unshare(2), and clone(2) with a namespace flag, fail with
 * EPERM for the command and everything it starts; clone3(2) fails with
 * ENOSYS so that the C library falls back to clone(2).
 *
 *   deny_namespaces <program> [arguments…]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: deny_namespaces <program> [arguments…]\n");
    return 64;
  }
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
  const unsigned long flags[] = {CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
                                 CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET};
  int result = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 0);
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
    result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                               SCMP_A0(SCMP_CMP_MASKED_EQ, flags[i], flags[i]));
  }
  result |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  if (result != 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || seccomp_load(filter) != 0) {
    perror("deny_namespaces: installing the filter");
    return 71;
  }
  execvp(argv[1], argv + 1);
  perror("deny_namespaces: exec");
  return 127;
}
