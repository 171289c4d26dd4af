#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The private root is built on a tmpfs mounted over /tmp, then made the root
 * with pivot_root. Every source is opened (O_PATH) before that tmpfs hides the
 * old /tmp, and bound from /proc/self/fd, so a bundle in /tmp stays reachable
 * and absolute symbolic links resolve in the real root. */
static const char stage[] = "/tmp";

/* Creates every missing folder of `path` (a path in the stage) up to and
 * excluding its last component. */
static int make_parents(const char *path, tp_sandbox_failure *failure) {
  char partial[PATH_MAX];
  size_t length = strlen(path);
  if (length >= sizeof partial) {
    errno = ENAMETOOLONG;
    return tp_fail(failure, "creating the mount point of %s", path);
  }
  memcpy(partial, path, length + 1);
  for (char *slash = strchr(partial + strlen(stage) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
    *slash = '\0';
    /* 0755 whatever the umask (077): a provider run as another user must pass through. */
    if (mkdir(partial, 0755) == 0) {
      if (chmod(partial, 0755) != 0) return tp_fail(failure, "opening %s to its provider", partial);
    } else if (errno != EEXIST) {
      return tp_fail(failure, "creating %s", partial);
    }
    *slash = '/';
  }
  return 0;
}

/* The flags the kernel keeps locked on a bind mount of the mount under `fd`
 * (a remount that drops one of them is refused in a user namespace). */
static unsigned long locked_flags(int fd) {
  struct statvfs status;
  if (fstatvfs(fd, &status) != 0) return MS_NOSUID | MS_NODEV;
  unsigned long flags = 0;
  if (status.f_flag & ST_NOSUID) flags |= MS_NOSUID;
  if (status.f_flag & ST_NODEV) flags |= MS_NODEV;
  if (status.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
  if (status.f_flag & ST_NOATIME) flags |= MS_NOATIME;
  if (status.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (status.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  return flags;
}

struct source {
  const char *path;
  int fd;   /* O_PATH, or -1 when the path does not exist */
  int writable;
  int device;
  const tp_container_disk *view; /* the container: its size-limited view is mounted instead of a bind */
};

/* Opens `path` to be bound later; a missing optional path is skipped. */
static int open_source(struct source *source, const char *path, int writable, int device, int required,
                       tp_sandbox_failure *failure) {
  source->path = path;
  source->writable = writable;
  source->device = device;
  source->view = NULL;
  source->fd = -1;
  if (path[0] != '/' || path[1] == '\0') {
    errno = EINVAL; /* the whole root, or a relative path: never shown */
    return tp_fail(failure, "showing '%s'", path);
  }
  source->fd = open(path, O_PATH | O_CLOEXEC);
  if (source->fd < 0 && (required || errno != ENOENT)) return tp_fail(failure, "opening %s", path);
  return 0;
}

/* The host hands real paths it checked (ReadOnlyPaths): what is there now
 * must still be a folder or a regular file, not a link swapped in since, a
 * socket, a device or a pipe. */
static int refuse_special_file(const struct source *source, tp_sandbox_failure *failure) {
  if (source->fd < 0) return 0;
  struct stat status;
  struct stat link;
  if (fstat(source->fd, &status) != 0 || lstat(source->path, &link) != 0) {
    return tp_fail(failure, "reading %s", source->path);
  }
  if (!S_ISLNK(link.st_mode) && (S_ISDIR(status.st_mode) || S_ISREG(status.st_mode))) return 0;
  errno = EPERM;
  return tp_fail(failure, "showing %s, which is no longer a folder or a regular file", source->path);
}

/* mount_setattr(2) (Linux 5.12), spelled out: glibc 2.36's <sys/mount.h> and
 * <linux/mount.h> cannot be included together. */
struct mount_attributes {
  uint64_t attr_set;
  uint64_t attr_clr;
  uint64_t propagation;
  uint64_t userns_fd;
};
#define ATTRIBUTE_RDONLY 0x1ULL
#define ATTRIBUTE_NOSUID 0x2ULL
#define ATTRIBUTE_NODEV 0x4ULL
#define APPLY_RECURSIVELY 0x8000 /* AT_RECURSIVE */
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

/* Makes the mount at `target` and every mount below it read-only (unless
 * writable), nosuid and (unless a device) nodev. Kernels before 5.12 lack
 * mount_setattr: there the top mount is remounted, keeping the flags the
 * kernel locks in a user namespace. */
static int restrict_mount(const char *target, const struct source *source, tp_sandbox_failure *failure) {
  struct mount_attributes attributes = {.attr_set = ATTRIBUTE_NOSUID};
  if (!source->device) attributes.attr_set |= ATTRIBUTE_NODEV;
  if (!source->writable) attributes.attr_set |= ATTRIBUTE_RDONLY;
  if (syscall(SYS_mount_setattr, -1, target, APPLY_RECURSIVELY, &attributes, sizeof attributes) == 0) return 0;
  if (errno != ENOSYS) return tp_fail(failure, "making %s read-only", source->path);
  unsigned long flags = MS_BIND | MS_REMOUNT | MS_NOSUID | locked_flags(source->fd);
  if (!source->device) flags |= MS_NODEV;
  if (!source->writable) flags |= MS_RDONLY;
  if (mount(NULL, target, NULL, flags, NULL) != 0) return tp_fail(failure, "making %s read-only", source->path);
  return 0;
}

/* Binds an opened source, with what is mounted below it, at its own path in
 * the stage: read-only unless writable. */
static int bind_source(const struct source *source, tp_sandbox_failure *failure) {
  if (source->fd < 0) return 0;
  char target[PATH_MAX];
  char from[64];
  snprintf(target, sizeof target, "%s%s", stage, source->path);
  snprintf(from, sizeof from, "/proc/self/fd/%d", source->fd);
  struct stat status;
  if (fstat(source->fd, &status) != 0) return tp_fail(failure, "reading %s", source->path);
  if (make_parents(target, failure) != 0) return -1;
  if (S_ISDIR(status.st_mode)) {
    if (mkdir(target, 0755) != 0 && errno != EEXIST) return tp_fail(failure, "creating %s", target);
  } else {
    int file = open(target, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (file < 0) return tp_fail(failure, "creating %s", target);
    close(file);
  }
  if (source->view) return tp_disk_mount(source->view, target, failure);
  if (mount(from, target, NULL, MS_BIND | MS_REC, NULL) != 0) return tp_fail(failure, "binding %s", source->path);
  return restrict_mount(target, source, failure);
}

/* Recreates a top-level symbolic link such as /bin -> usr/bin; returns 1 when `path` is one. */
static int copy_link(const char *path, tp_sandbox_failure *failure) {
  char link[PATH_MAX];
  ssize_t length = readlink(path, link, sizeof link - 1);
  if (length < 0) return 0;
  link[length] = '\0';
  char target[PATH_MAX];
  snprintf(target, sizeof target, "%s%s", stage, path);
  if (symlink(link, target) != 0 && errno != EEXIST) return tp_fail(failure, "linking %s", target);
  return 1;
}

static int mount_tmpfs(const char *path, const char *options, tp_sandbox_failure *failure) {
  char target[PATH_MAX];
  snprintf(target, sizeof target, "%s%s", stage, path);
  if (make_parents(target, failure) != 0) return -1;
  if (mkdir(target, 0755) != 0 && errno != EEXIST) return tp_fail(failure, "creating %s", target);
  if (mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, options) != 0) return tp_fail(failure, "mounting %s", path);
  return 0;
}

/* The scratch space (tp_sandbox_files.scratch_bytes): one tmpfs at a hidden
 * place in the stage whose folders are bound at /tmp, /dev/shm and the
 * container's `tmp`; the hidden mount is detached once they are, and the
 * binds share its one size limit. A provider's files there are memory that
 * RLIMIT_AS does not count: in all three together they are bounded by the
 * memory limit. */
static const char scratch[] = "/tmp/.scratch";
static const char *const scratch_folders[][2] = {{"tmp", "/tmp"}, {"shm", "/dev/shm"}};
static const char scratch_home_tmp[] = "home-tmp";

static int mount_scratch(uint64_t bytes, uid_t user, gid_t group, tp_sandbox_failure *failure) {
  unsigned long long kibibytes = (bytes ? bytes : 64ULL << 20) >> 10;
  if (kibibytes < 1024) kibibytes = 1024;
  char options[96];
  snprintf(options, sizeof options, "mode=0700,size=%lluk,nr_inodes=65536", kibibytes);
  if (mkdir(scratch, 0700) != 0) return tp_fail(failure, "creating the scratch space's mount point");
  if (mount("tmpfs", scratch, "tmpfs", MS_NOSUID | MS_NODEV, options) != 0) {
    return tp_fail(failure, "mounting the scratch space (%s)", options);
  }
  char folder[PATH_MAX];
  for (size_t i = 0; i < sizeof scratch_folders / sizeof scratch_folders[0]; i++) {
    snprintf(folder, sizeof folder, "%s/%s", scratch, scratch_folders[i][0]);
    /* The umask is 077 (tp_sandbox_detach): the mode is set after. */
    if (mkdir(folder, 0700) != 0 || chmod(folder, 01777) != 0) return tp_fail(failure, "creating %s", folder);
  }
  snprintf(folder, sizeof folder, "%s/%s", scratch, scratch_home_tmp);
  if (mkdir(folder, 0700) != 0) return tp_fail(failure, "creating %s", folder);
  /* The provider's TMPDIR is its own when it runs as another user. */
  if (user != 0 && chown(folder, user, group) != 0) return tp_fail(failure, "giving %s to its user", folder);
  return 0;
}

/* Binds the scratch space's `folder` at `path` (a path of the new root). */
static int bind_scratch(const char *folder, const char *path, tp_sandbox_failure *failure) {
  char from[PATH_MAX];
  char target[PATH_MAX];
  snprintf(from, sizeof from, "%s/%s", scratch, folder);
  if ((size_t)snprintf(target, sizeof target, "%s%s", stage, path) >= sizeof target) {
    errno = ENAMETOOLONG;
    return tp_fail(failure, "binding the scratch space at %s", path);
  }
  /* Opened without following a link, and bound on what was opened: the
   * container's `tmp` is the provider's to replace with a link. Opened
   * first, made only when missing: the host makes the container's, and each
   * look-up there is a round trip to the view's server. */
  int fd = open(target, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) {
    if (make_parents(target, failure) != 0) return -1;
    if (mkdir(target, 0700) != 0 && errno != EEXIST) return tp_fail(failure, "creating %s", target);
    fd = open(target, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
  }
  if (fd < 0) return tp_fail(failure, "binding the scratch space at %s, which is not a folder", path);
  char on[64];
  snprintf(on, sizeof on, "/proc/self/fd/%d", fd);
  int bound = mount(from, on, NULL, MS_BIND, NULL);
  int error = errno;
  close(fd);
  errno = error;
  if (bound != 0) return tp_fail(failure, "binding the scratch space at %s", path);
  return 0;
}

/* The runner's own executable, read-only at its real path (alone: not the
 * rest of its folder), when it lies outside the system folders. */
static int open_runner_executable(struct source *source, size_t *count, tp_sandbox_failure *failure) {
  static char executable[PATH_MAX];
  if (!tp_runner_executable(executable)) return 0;
  if (open_source(source, executable, 0, 0, 1, failure) != 0) return -1;
  *count += 1;
  return 0;
}

/* The PID namespace's /proc at `target`, with only the processes' own
 * entries (subset=pid, Linux 5.8): no /proc/sys, whose files root may write
 * without any capability (core_pattern runs a program as root everywhere),
 * nor the kernel's other tables. A kernel without subset=pid gets the whole
 * /proc, read-only. */
static int mount_private_proc(const char *target, tp_sandbox_failure *failure) {
  if (mkdir(target, 0555) != 0) return tp_fail(failure, "creating /proc");
  const unsigned long flags = MS_NOSUID | MS_NODEV | MS_NOEXEC;
  if (mount("proc", target, "proc", flags, "subset=pid") == 0) return 0;
  if (errno != EINVAL) return tp_fail(failure, "mounting /proc of the PID namespace");
  if (mount("proc", target, "proc", flags | MS_RDONLY, NULL) != 0) {
    return tp_fail(failure, "mounting /proc of the PID namespace, read-only");
  }
  return 0;
}

enum { MAX_SOURCES = 128 };

int tp_enter_private_root(const tp_sandbox_files *files, tp_container_disk *disk, tp_sandbox_failure *failure) {
  static char libraries[TP_MAX_LIBRARY_FOLDERS][PATH_MAX];
  size_t library_count = tp_library_folders(libraries, TP_MAX_LIBRARY_FOLDERS);
  static struct source sources[MAX_SOURCES];
  size_t count = 0;
  int result = 0;

  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return tp_fail(failure, "making mounts private");
  /* Open everything first (see `stage`). Top-level links are recreated instead. */
  for (const char *const *folder = tp_system_folders; *folder && result == 0; folder++) {
    struct stat status;
    if (lstat(*folder, &status) != 0 || S_ISLNK(status.st_mode)) continue;
    result = open_source(&sources[count++], *folder, 0, 0, 0, failure);
  }
  for (const char *const *file = tp_system_configuration; *file && result == 0; file++) {
    result = open_source(&sources[count++], *file, 0, 0, 0, failure);
  }
  for (size_t i = 0; i < library_count && result == 0; i++) {
    result = open_source(&sources[count++], libraries[i], 0, 0, 1, failure);
  }
  if (result == 0) result = open_runner_executable(&sources[count], &count, failure);
  for (size_t i = 0; files && i < files->read_only_count && result == 0 && count < MAX_SOURCES - 8; i++) {
    if (tp_is_system_path(files->read_only[i])) continue;
    result = open_source(&sources[count++], files->read_only[i], 0, 0, 0, failure);
    if (result == 0) result = refuse_special_file(&sources[count - 1], failure);
  }
  if (result == 0 && files && files->container) {
    result = open_source(&sources[count++], files->container, 1, 0, 1, failure);
    if (disk && disk->device >= 0) sources[count - 1].view = disk;
  }
  for (const char *const *device = tp_devices; *device && result == 0; device++) {
    result = open_source(&sources[count++], *device, 1, 1, 0, failure);
  }

  if (result == 0 && mount("tmpfs", stage, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=4m,nr_inodes=4096") != 0) {
    result = tp_fail(failure, "mounting the private root");
  }
  for (const char *const *folder = tp_system_folders; *folder && result == 0; folder++) {
    if (copy_link(*folder, failure) < 0) result = -1;
  }
  /* The empty /tmp and /dev come before what is bound inside them (a bundle in /tmp). */
  int changes_user = files && files->provider_user != 0 && disk && disk->device >= 0 && geteuid() == 0;
  if (result == 0) {
    result = mount_scratch(files ? files->scratch_bytes : 0, changes_user ? files->provider_user : 0,
                           changes_user ? files->provider_group : 0, failure);
  }
  if (result == 0) result = mount_tmpfs("/dev", "mode=0755,size=64k,nr_inodes=64", failure);
  for (size_t i = 0; i < sizeof scratch_folders / sizeof scratch_folders[0] && result == 0; i++) {
    result = bind_scratch(scratch_folders[i][0], scratch_folders[i][1], failure);
  }
  for (size_t i = 0; i < count && result == 0; i++) result = bind_source(&sources[i], failure);
  if (result == 0 && files && files->container) {
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s/tmp", files->container);
    result = bind_scratch(scratch_home_tmp, tmp, failure);
  }
  if (result == 0 && umount2(scratch, MNT_DETACH) != 0) result = tp_fail(failure, "detaching the scratch space");
  if (result == 0 && rmdir(scratch) != 0) result = tp_fail(failure, "removing the scratch space's mount point");
  for (size_t i = 0; i < count; i++) {
    if (sources[i].fd >= 0) close(sources[i].fd);
  }
  if (result != 0) return -1;

  static const char *const links[][2] = {
      {"/proc/self/fd", "/tmp/dev/fd"}, {"/proc/self/fd/0", "/tmp/dev/stdin"},
      {"/proc/self/fd/1", "/tmp/dev/stdout"}, {"/proc/self/fd/2", "/tmp/dev/stderr"}};
  for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
    if (symlink(links[i][0], links[i][1]) != 0) return tp_fail(failure, "linking %s", links[i][1]);
  }
  if (mount_private_proc("/tmp/proc", failure) != 0) return -1;
  if (mkdir("/tmp/.old-root", 0700) != 0) return tp_fail(failure, "creating the old root's mount point");
  if (syscall(SYS_pivot_root, stage, "/tmp/.old-root") != 0) return tp_fail(failure, "pivot_root");
  if (chdir("/") != 0) return tp_fail(failure, "chdir /");
  if (umount2("/.old-root", MNT_DETACH) != 0) return tp_fail(failure, "detaching the old root");
  if (rmdir("/.old-root") != 0) return tp_fail(failure, "removing the old root's mount point");
  if (mount(NULL, "/", NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0) {
    return tp_fail(failure, "making the private root read-only");
  }
  return 0;
}
