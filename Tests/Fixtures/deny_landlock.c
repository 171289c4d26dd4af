/*
 * deny_landlock: runs a command on what looks like a kernel without Landlock
 * (Debian 12's 6.1 has it, but without the abstract-socket scoping of ABI 6;
 * one booted without "landlock" in lsm= has none): landlock_create_ruleset(2)
 * fails with EOPNOTSUPP for the command and everything it starts.
 *
 *   deny_landlock <program> [arguments…]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: deny_landlock <program> [arguments…]\n");
    return 64;
  }
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
  int result = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EOPNOTSUPP), __NR_landlock_create_ruleset, 0);
  if (result != 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || seccomp_load(filter) != 0) {
    perror("deny_landlock: installing the filter");
    return 71;
  }
  execvp(argv[1], argv + 1);
  perror("deny_landlock: exec");
  return 127;
}
