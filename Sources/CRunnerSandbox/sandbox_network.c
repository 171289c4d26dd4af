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
 * resolver), and goes to the background once ready.
 *
 * pasta cannot see the namespace go (its watch needs a named namespace file,
 * and the descriptor it joined through keeps the namespace alive), so the
 * helper stays: a subreaper, it inherits pasta's background process, tells
 * the runner once pasta is ready, and kills pasta when its socket ends, which
 * is when the runner's original process has ended, however it ended. */

#include <sys/prctl.h>
#include <sys/socket.h>
#include <stdlib.h>

static void kill_children(void);

int tp_network_stack_prepare(tp_network_stack *stack, const char *program, tp_sandbox_failure *failure) {
  stack->helper = -1;
  stack->go = -1;
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) {
    return tp_fail(failure, "socketpair for the network stack");
  }
  uid_t uid = geteuid();
  gid_t gid = getegid();
  pid_t helper = fork();
  if (helper < 0) {
    close(ends[0]);
    close(ends[1]);
    return tp_fail(failure, "fork for the network stack");
  }
  if (helper == 0) {
    /* In the runner's original namespaces, with its user; it holds nothing
     * of the runner's (the protocol socket's end must close with the runner)
     * and stays out of the runner's process group, so that it outlives the
     * runner to stop pasta. */
    int go = ends[0];
    if (go > 3) syscall(SYS_close_range, 3U, (unsigned)go - 1, 0);
    syscall(SYS_close_range, (unsigned)go + 1, ~0U, 0);
    setpgid(0, 0);
    char byte = 0;
    int received[2] = {-1, -1};
    char control[CMSG_SPACE(sizeof received)];
    struct iovec data = {&byte, 1};
    struct msghdr message = {.msg_iov = &data, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
    ssize_t got;
    while ((got = recvmsg(go, &message, 0)) < 0 && errno == EINTR) {
    }
    if (got != 1 || byte != 'g') _exit(0); /* the runner gave up: nothing to attach to */
    size_t count = 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
      if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS) {
        count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        if (count > 2) count = 2;
        memcpy(received, CMSG_DATA(header), count * sizeof(int));
      }
    }
    if (count == 0) _exit(126);
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) _exit(126);
    pid_t pasta = fork();
    if (pasta < 0) _exit(126);
    if (pasta == 0) {
      /* Only stdio and the namespaces: 3 and 4 are the network and user namespaces. */
      if (dup2(received[0], 3) < 0 || (count == 2 && dup2(received[1], 4) < 0)) _exit(126);
      if (syscall(SYS_close_range, count == 2 ? 5U : 4U, ~0U, 0) != 0) {
        for (int fd = count == 2 ? 5 : 4; fd < 1024; fd++) close(fd);
      }
      char owner[64];
      /* As root pasta would become nobody, who may not enter the namespaces. */
      snprintf(owner, sizeof owner, "%u:%u", (unsigned)uid, (unsigned)gid);
      char *const with_user[] = {(char *)program, "--config-net", "--quiet", "--runas", owner, "-t", "none", "-u",
                                 "none", "-T", "auto", "-U", "auto", "--userns", "/proc/self/fd/4", "--netns",
                                 "/proc/self/fd/3", NULL};
      char *const network_only[] = {(char *)program, "--config-net", "--quiet", "--runas", owner, "-t", "none",
                                    "-u", "none", "-T", "auto", "-U", "auto", "--netns", "/proc/self/fd/3",
                                    "--netns-only", NULL};
      char *const environment[] = {"PATH=/usr/bin:/bin", NULL};
      execve(program, count == 2 ? with_user : network_only, environment);
      _exit(127);
    }
    for (size_t i = 0; i < count; i++) close(received[i]);
    int status = 0;
    while (waitpid(pasta, &status, 0) < 0) {
      if (errno != EINTR) _exit(126);
    }
    /* pasta's first process ends once its background one is ready. */
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 126);
    while (write(go, "r", 1) < 0 && errno == EINTR) {
    }
    while ((got = read(go, &byte, 1)) != 0 && (got > 0 || errno == EINTR)) {
    }
    kill_children();
    _exit(0);
  }
  close(ends[0]);
  stack->helper = helper;
  stack->go = ends[1];
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
  if (sent != 1) {
    tp_network_stack_cancel(stack);
    errno = error;
    return tp_fail(failure, "handing the namespaces to the network stack");
  }
  /* 'r' once pasta is ready; the end of the socket if the helper failed. The
   * helper is left running: it stops pasta when this process's end closes. */
  char ready = 0;
  ssize_t got;
  while ((got = read(stack->go, &ready, 1)) < 0 && errno == EINTR) {
  }
  if (got == 1 && ready == 'r') {
    stack->helper = -1;
    return 0;
  }
  close(stack->go);
  stack->go = -1;
  int status = 0;
  while (waitpid(stack->helper, &status, 0) < 0) {
    if (errno != EINTR) return tp_fail(failure, "waiting for the network stack");
  }
  stack->helper = -1;
  errno = WIFEXITED(status) && WEXITSTATUS(status) == 127 ? ENOENT : ECHILD;
  return tp_fail(failure, "starting the network stack (pasta, exit status %d)",
                 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* Kills this process's children (pasta's background process, inherited as a
 * subreaper) and reaps them. */
static void kill_children(void) {
  for (;;) {
    int fd = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
    char text[512];
    ssize_t length = fd >= 0 ? read(fd, text, sizeof text - 1) : -1;
    if (fd >= 0) close(fd);
    if (length <= 0) break;
    text[length] = 0;
    for (char *cursor = text; *cursor;) {
      char *end;
      long pid = strtol(cursor, &end, 10);
      if (end == cursor) break;
      if (pid > 0) kill((pid_t)pid, SIGKILL);
      cursor = end;
    }
    while (waitpid(-1, NULL, 0) > 0 || errno == EINTR) {
    }
  }
}

void tp_network_stack_cancel(tp_network_stack *stack) {
  if (stack->go >= 0) close(stack->go); /* the helper reads end of file and exits */
  stack->go = -1;
  if (stack->helper > 0) {
    while (waitpid(stack->helper, NULL, 0) < 0 && errno == EINTR) {
    }
  }
  stack->helper = -1;
}
