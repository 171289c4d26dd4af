#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* A provider with the network key gets a network namespace of its own too,
 * connected to the machine's network through a user-mode network stack
 * (pasta, from Debian's passt) that runs outside the sandbox. Abstract Unix
 * sockets belong to a network namespace, so the X server's and the session
 * bus's (@/tmp/.X11-unix/X0, …) do not exist for the provider, on every
 * kernel, whatever Landlock can scope.
 *
 * pasta must join the namespaces from outside them: a helper is forked before
 * the runner unshares and waits on a socket pair; once the namespaces exist
 * the runner sends it descriptors of its network namespace (and of its user
 * namespace, when it made one), and the helper becomes pasta, which joins
 * them through those descriptors (no /proc/<pid> of the runner's, which a
 * capability-less pasta could not open for a root runner), configures the
 * interface (addresses, routes, DNS as the machine's), forwards connections
 * to the machine's loopback ports (-T/-U auto: a local APY server or
 * resolver). It stays in the foreground as a child of the runner's first
 * process, which outlives the runner, with PR_SET_PDEATHSIG: it is killed
 * when that process ends, however it ends (pasta would not notice the end of
 * a namespace it holds a descriptor of, and one that daemonized lived on).
 * It writes its PID file, a pipe to the runner, once the interface is
 * configured; the runner reads that line before going on. */

#include <sys/prctl.h>

#include <sys/socket.h>

int tp_network_stack_prepare(tp_network_stack *stack, const char *program, tp_sandbox_failure *failure) {
  stack->helper = -1;
  stack->go = -1;
  stack->ready = -1;
  int ends[2];
  int ready[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) {
    return tp_fail(failure, "socketpair for the network stack");
  }
  if (pipe2(ready, O_CLOEXEC) != 0) {
    close(ends[0]);
    close(ends[1]);
    return tp_fail(failure, "pipe2 for the network stack");
  }
  uid_t uid = geteuid();
  gid_t gid = getegid();
  pid_t helper = fork();
  if (helper < 0) {
    close(ends[0]);
    close(ends[1]);
    close(ready[0]);
    close(ready[1]);
    return tp_fail(failure, "fork for the network stack");
  }
  if (helper == 0) {
    /* In the runner's original namespaces, with its user; killed with the runner's first process. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    close(ends[1]);
    close(ready[0]);
    char go = 0;
    int received[2] = {-1, -1};
    char control[CMSG_SPACE(sizeof received)];
    struct iovec data = {&go, 1};
    struct msghdr message = {.msg_iov = &data, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
    ssize_t got;
    while ((got = recvmsg(ends[0], &message, 0)) < 0 && errno == EINTR) {
    }
    if (got != 1 || go != 'g') _exit(0); /* the runner gave up: nothing to attach to */
    size_t count = 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
      if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS) {
        count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        if (count > 2) count = 2;
        memcpy(received, CMSG_DATA(header), count * sizeof(int));
      }
    }
    if (count == 0) _exit(126);
    /* Only stdio, the namespaces (3: network, 4: user) and the readiness pipe (5). */
    /* Out of the way first: a received descriptor may be 3, 4 or 5 already. */
    int network = fcntl(received[0], F_DUPFD, 10);
    int user = count == 2 ? fcntl(received[1], F_DUPFD, 10) : -1;
    int pipe_end = fcntl(ready[1], F_DUPFD, 10);
    if (network < 0 || pipe_end < 0 || (count == 2 && user < 0)) _exit(126);
    if (dup2(network, 3) < 0 || dup2(pipe_end, 5) < 0 || (count == 2 && dup2(user, 4) < 0)) _exit(126);
    if (count == 1) close(4);
    /* Its warnings are not the provider's lines: the host hears of a failure by its exit status. */
    int null = open("/dev/null", O_RDWR);
    if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0) _exit(126);
    if (syscall(SYS_close_range, 6U, ~0U, 0) != 0) {
      for (int fd = 6; fd < 1024; fd++) close(fd);
    }
    char owner[64];
    /* As root pasta would become nobody, who may not enter the namespaces. */
    snprintf(owner, sizeof owner, "%u:%u", (unsigned)uid, (unsigned)gid);
    char *const with_user[] = {(char *)program, "--config-net", "--quiet", "--foreground", "--pid", "/proc/self/fd/5",
                               "--runas", owner, "-t", "none", "-u", "none", "-T", "auto", "-U", "auto", "--userns",
                               "/proc/self/fd/4", "--netns", "/proc/self/fd/3", NULL};
    char *const network_only[] = {(char *)program, "--config-net", "--quiet", "--foreground", "--pid",
                                  "/proc/self/fd/5", "--runas", owner, "-t", "none", "-u", "none", "-T", "auto",
                                  "-U", "auto", "--netns", "/proc/self/fd/3", "--netns-only", NULL};
    char *const environment[] = {"PATH=/usr/bin:/bin", NULL};
    execve(program, count == 2 ? with_user : network_only, environment);
    _exit(127);
  }
  close(ends[0]);
  close(ready[1]);
  stack->helper = helper;
  stack->go = ends[1];
  stack->ready = ready[0];
  return 0;
}

int tp_network_stack_attach(tp_network_stack *stack, int own_user_namespace, tp_sandbox_failure *failure) {
  int namespaces[2] = {open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC),
                       own_user_namespace ? open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC) : -1};
  size_t count = own_user_namespace ? 2 : 1;
  ssize_t sent = -1;
  if (namespaces[0] >= 0 && (count == 1 || namespaces[1] >= 0)) {
    char control[CMSG_SPACE(sizeof namespaces)];
    memset(control, 0, sizeof control);
    struct iovec data = {"g", 1};
    struct msghdr message = {
        .msg_iov = &data, .msg_iovlen = 1, .msg_control = control, .msg_controllen = CMSG_SPACE(count * sizeof(int))};
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(count * sizeof(int));
    memcpy(CMSG_DATA(header), namespaces, count * sizeof(int));
    while ((sent = sendmsg(stack->go, &message, 0)) < 0 && errno == EINTR) {
    }
  }
  int error = errno;
  for (size_t i = 0; i < 2; i++) {
    if (namespaces[i] >= 0) close(namespaces[i]);
  }
  close(stack->go);
  stack->go = -1;
  if (sent != 1) {
    tp_network_stack_cancel(stack);
    errno = error;
    return tp_fail(failure, "handing the namespaces to the network stack");
  }
  /* Its PID, once the interface is configured; end of file if it ended first. */
  char line[32];
  ssize_t got;
  while ((got = read(stack->ready, line, sizeof line)) < 0 && errno == EINTR) {
  }
  close(stack->ready);
  stack->ready = -1;
  if (got > 0) return 0; /* it runs on, a child of this process, until this process ends */
  int status = 0;
  while (waitpid(stack->helper, &status, 0) < 0) {
    if (errno != EINTR) return tp_fail(failure, "waiting for the network stack");
  }
  stack->helper = -1;
  errno = WIFEXITED(status) && WEXITSTATUS(status) == 127 ? ENOENT : ECHILD;
  return tp_fail(failure, "starting the network stack (pasta, exit status %d)",
                 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

void tp_network_stack_cancel(tp_network_stack *stack) {
  if (stack->go >= 0) close(stack->go); /* the helper reads end of file and exits */
  stack->go = -1;
  if (stack->ready >= 0) close(stack->ready);
  stack->ready = -1;
  if (stack->helper > 0) {
    while (waitpid(stack->helper, NULL, 0) < 0 && errno == EINTR) {
    }
  }
  stack->helper = -1;
}
