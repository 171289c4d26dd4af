#define _GNU_SOURCE
#define FUSE_USE_VERSION 35
#include "sandbox_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <fuse3/fuse.h>
#include <fuse3/fuse_lowlevel.h>
#include <linux/falloc.h>
#include <linux/openat2.h>
#include <poll.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * The container's disk budget: inside the sandbox the provider sees its
 * container only through a FUSE file system that passes every call through
 * to the real folder and answers ENOSPC once what the folder holds would pass
 * the disk limit. The real folder stays a plain folder on disk (the host
 * walks and measures it from outside), and a write reaches it before the
 * call returns (no write-back cache), so a killed runner loses nothing.
 *
 * It is served by the runner's original process, the one the host started:
 * outside the provider's PID namespace (its /proc shows only that namespace)
 * and not dumpable, it alone holds a descriptor of the real folder and of
 * /dev/fuse. Every path is resolved beneath that descriptor by openat2 with
 * no symbolic links and no crossing of mounts; links the provider makes are
 * followed by the kernel on its side, in the sandbox's view.
 *
 * What counts is what the host measures (PrivilegedFiles.usedBytes): each
 * name in the folder costs its blocks, and at least one block of 4 KiB, so
 * that empty files, folders and links are not free.
 */

enum { BLOCK = 4096 };

static struct {
  int container;
  uint64_t limit;
  int64_t used;
  struct fuse *fuse;
  void *open_files; /* tsearch tree of struct open_file */
  uid_t user;       /* not 0: every file shown as this user's and group's */
  gid_t group;
} disk = {.container = -1};

struct open_file {
  dev_t device;
  ino_t inode;
  long handles;
};

/* What one name costs. */
static int64_t charge(const struct stat *status) {
  int64_t bytes = (int64_t)status->st_blocks * 512;
  return bytes < BLOCK ? BLOCK : bytes;
}

static int64_t remaining(void) { return (int64_t)disk.limit - disk.used; }

/* The folder's use as the host measures it: every name below it, links not followed. */
static int measure(const char *container, int64_t *used) {
  char *const roots[] = {(char *)container, NULL};
  FTS *walk = fts_open(roots, FTS_PHYSICAL | FTS_XDEV, NULL);
  if (!walk) return -1;
  *used = 0;
  FTSENT *entry;
  while ((entry = fts_read(walk)) != NULL) {
    if (entry->fts_level == 0 || entry->fts_info == FTS_DP) continue;
    if (entry->fts_info == FTS_NS || entry->fts_info == FTS_NSOK || !entry->fts_statp) continue;
    *used += charge(entry->fts_statp);
  }
  int error = errno;
  fts_close(walk);
  errno = error;
  return 0;
}

/* MARK: Open files: a name removed while open keeps its blocks until its last close. */

static int compare_files(const void *a, const void *b) {
  const struct open_file *x = a;
  const struct open_file *y = b;
  if (x->device != y->device) return x->device < y->device ? -1 : 1;
  if (x->inode != y->inode) return x->inode < y->inode ? -1 : 1;
  return 0;
}

static struct open_file *find_open(const struct stat *status) {
  struct open_file key = {status->st_dev, status->st_ino, 0};
  struct open_file **found = tfind(&key, &disk.open_files, compare_files);
  return found ? *found : NULL;
}

static int remember_open(int fd) {
  struct stat status;
  if (fstat(fd, &status) != 0) return -errno;
  struct open_file *file = find_open(&status);
  if (!file) {
    file = calloc(1, sizeof *file);
    if (!file) return -ENOMEM;
    file->device = status.st_dev;
    file->inode = status.st_ino;
    if (!tsearch(file, &disk.open_files, compare_files)) {
      free(file);
      return -ENOMEM;
    }
  }
  file->handles += 1;
  return 0;
}

/* MARK: Paths, resolved beneath the container */

static int open_beneath(const char *relative, int flags) {
  struct open_how how = {
      .flags = (uint64_t)(flags | O_CLOEXEC | O_NOFOLLOW),
      .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
  };
  long fd = syscall(SYS_openat2, disk.container, relative, &how, sizeof how);
  return fd < 0 ? -errno : (int)fd;
}

/* The folder holding a path's last component, and that component. */
struct place {
  int folder;
  char name[NAME_MAX + 1];
};

static int find_place(const char *path, struct place *place) {
  if (!path || path[0] != '/') return -EINVAL;
  const char *slash = strrchr(path, '/');
  size_t name_length = strlen(slash + 1);
  if (name_length == 0) { /* the container itself */
    place->folder = open_beneath(".", O_PATH | O_DIRECTORY);
    strcpy(place->name, ".");
    return place->folder < 0 ? place->folder : 0;
  }
  if (name_length > NAME_MAX) return -ENAMETOOLONG;
  /* The kernel never names a component so; a name that did would be the container's parent. */
  if (strcmp(slash + 1, ".") == 0 || strcmp(slash + 1, "..") == 0) return -EINVAL;
  memcpy(place->name, slash + 1, name_length + 1);
  size_t folder_length = (size_t)(slash - path);
  if (folder_length == 0) {
    place->folder = open_beneath(".", O_PATH | O_DIRECTORY);
  } else {
    char *folder = strndup(path + 1, folder_length - 1);
    if (!folder) return -ENOMEM;
    place->folder = open_beneath(folder, O_PATH | O_DIRECTORY);
    free(folder);
  }
  return place->folder < 0 ? place->folder : 0;
}

static const char *relative(const char *path) { return path[1] ? path + 1 : "."; }

/* The folder's own charge, which grows as names are added to it. */
static int64_t folder_charge(int folder) {
  struct stat status;
  return fstat(folder, &status) == 0 ? charge(&status) : 0;
}

/* Whether a new name (and the growth of its folder) fits. */
static int room_for_name(void) { return remaining() >= BLOCK ? 0 : -ENOSPC; }

/* Forgets a name that is gone: its charge, unless the file is still open
 * and this was its last name (then its last close frees it). */
static void forget_name(const struct stat *status) {
  if (S_ISREG(status->st_mode) && status->st_nlink <= 1 && find_open(status)) return;
  disk.used -= charge(status);
}

/* MARK: Operations */

static void *serve_init(struct fuse_conn_info *connection, struct fuse_config *config) {
  /* A write's data moves from the kernel to the file through a pipe, not this process's memory. */
  if (connection->capable & FUSE_CAP_SPLICE_READ) connection->want |= FUSE_CAP_SPLICE_READ;
  connection->want &= ~FUSE_CAP_WRITEBACK_CACHE; /* each write reaches the file before it returns */
  config->use_ino = 1;
  config->nullpath_ok = 1;
  config->hard_remove = 1; /* removed while open: gone at once, not renamed to .fuse_hidden */
  /* Nothing cached: the host (or the person) may change the real folder while
   * a warm runner serves, and a name cached as present after it went would
   * turn the provider's O_CREAT into a plain open of nothing (ENOENT). */
  config->entry_timeout = 0;
  config->attr_timeout = 0;
  config->negative_timeout = 0;
  if (disk.user != 0) {
    config->set_uid = config->set_gid = 1;
    config->uid = disk.user;
    config->gid = disk.group;
  }
  return NULL;
}

static int serve_getattr(const char *path, struct stat *status, struct fuse_file_info *file) {
  if (file) return fstat((int)file->fh, status) == 0 ? 0 : -errno;
  struct place place;
  int error = find_place(path, &place);
  if (error) return error;
  int result = fstatat(place.folder, place.name, status, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : -errno;
  close(place.folder);
  return result;
}

static int serve_readlink(const char *path, char *buffer, size_t size) {
  if (size == 0) return -EINVAL;
  struct place place;
  int error = find_place(path, &place);
  if (error) return error;
  ssize_t length = readlinkat(place.folder, place.name, buffer, size - 1);
  int result = length < 0 ? -errno : 0;
  close(place.folder);
  if (length >= 0) buffer[length] = '\0';
  return result;
}

/* Adds `name` by `make` (which returns 0 or -errno) and counts it and its folder's growth. */
static int add_name(const char *path, int (*make)(int folder, const char *name, const void *argument),
                    const void *argument) {
  int error = room_for_name();
  if (error) return error;
  struct place place;
  error = find_place(path, &place);
  if (error) return error;
  int64_t before = folder_charge(place.folder);
  error = make(place.folder, place.name, argument);
  if (error == 0) {
    struct stat status;
    if (fstatat(place.folder, place.name, &status, AT_SYMLINK_NOFOLLOW) == 0) disk.used += charge(&status);
    disk.used += folder_charge(place.folder) - before;
  }
  close(place.folder);
  return error;
}

static int make_node(int folder, const char *name, const void *argument) {
  mode_t mode = *(const mode_t *)argument;
  return mknodat(folder, name, mode, 0) == 0 ? 0 : -errno;
}

/* Regular files, pipes and sockets only, and never setuid or setgid. */
static int serve_mknod(const char *path, mode_t mode, dev_t device) {
  (void)device;
  mode_t kind = mode & S_IFMT;
  if ((kind != S_IFREG && kind != S_IFIFO && kind != S_IFSOCK) || (mode & (S_ISUID | S_ISGID))) return -EPERM;
  return add_name(path, make_node, &mode);
}

static int make_folder(int folder, const char *name, const void *argument) {
  return mkdirat(folder, name, *(const mode_t *)argument) == 0 ? 0 : -errno;
}

static int serve_mkdir(const char *path, mode_t mode) {
  mode &= 01777; /* no setgid folder */
  return add_name(path, make_folder, &mode);
}

static int make_link(int folder, const char *name, const void *argument) {
  return symlinkat((const char *)argument, folder, name) == 0 ? 0 : -errno;
}

static int serve_symlink(const char *target, const char *path) { return add_name(path, make_link, target); }

static int remove_name(const char *path, int flags) {
  struct place place;
  int error = find_place(path, &place);
  if (error) return error;
  struct stat status;
  int64_t before = folder_charge(place.folder);
  if (fstatat(place.folder, place.name, &status, AT_SYMLINK_NOFOLLOW) != 0) {
    error = -errno;
  } else if (unlinkat(place.folder, place.name, flags) != 0) {
    error = -errno;
  } else {
    forget_name(&status);
    disk.used += folder_charge(place.folder) - before;
  }
  close(place.folder);
  return error;
}

static int serve_unlink(const char *path) { return remove_name(path, 0); }
static int serve_rmdir(const char *path) { return remove_name(path, AT_REMOVEDIR); }

static int serve_rename(const char *from, const char *to, unsigned int flags) {
  struct place source;
  struct place target;
  int error = find_place(from, &source);
  if (error) return error;
  error = find_place(to, &target);
  if (error) {
    close(source.folder);
    return error;
  }
  struct stat replaced;
  int replacing = !(flags & RENAME_EXCHANGE) && fstatat(target.folder, target.name, &replaced, AT_SYMLINK_NOFOLLOW) == 0;
  int64_t before = folder_charge(source.folder) + folder_charge(target.folder);
  if (!replacing) error = room_for_name(); /* the target folder may grow */
  if (error == 0 && renameat2(source.folder, source.name, target.folder, target.name, flags) != 0) error = -errno;
  if (error == 0) {
    if (replacing) forget_name(&replaced);
    disk.used += folder_charge(source.folder) + folder_charge(target.folder) - before;
  }
  close(source.folder);
  close(target.folder);
  return error;
}

static int serve_link(const char *from, const char *to) {
  int error = room_for_name();
  if (error) return error;
  struct place source;
  struct place target;
  error = find_place(from, &source);
  if (error) return error;
  error = find_place(to, &target);
  if (error) {
    close(source.folder);
    return error;
  }
  struct stat status;
  int64_t before = folder_charge(target.folder);
  if (fstatat(source.folder, source.name, &status, AT_SYMLINK_NOFOLLOW) != 0) {
    error = -errno;
  } else if (remaining() < charge(&status)) {
    error = -ENOSPC; /* the host counts every name of a file */
  } else if (linkat(source.folder, source.name, target.folder, target.name, 0) != 0) {
    error = -errno;
  } else {
    disk.used += charge(&status) + folder_charge(target.folder) - before;
  }
  close(source.folder);
  close(target.folder);
  return error;
}

static int serve_chmod(const char *path, mode_t mode, struct fuse_file_info *file) {
  if (mode & (S_ISUID | S_ISGID)) return -EPERM; /* the mount is nosuid too */
  if (file) return fchmod((int)file->fh, mode) == 0 ? 0 : -errno;
  struct place place;
  int error = find_place(path, &place);
  if (error) return error;
  struct stat status;
  if (fstatat(place.folder, place.name, &status, AT_SYMLINK_NOFOLLOW) != 0) error = -errno;
  else if (S_ISLNK(status.st_mode)) error = -EOPNOTSUPP; /* fchmodat would follow it */
  else if (fchmodat(place.folder, place.name, mode, 0) != 0) error = -errno;
  close(place.folder);
  return error;
}

static int serve_chown(const char *path, uid_t user, gid_t group, struct fuse_file_info *file) {
  if (disk.user != 0) { /* files are root's, shown as the provider's: no owner to change */
    return (user == (uid_t)-1 || user == disk.user) && (group == (gid_t)-1 || group == disk.group) ? 0 : -EPERM;
  }
  if (file) return fchown((int)file->fh, user, group) == 0 ? 0 : -errno;
  struct place place;
  int error = find_place(path, &place);
  if (error) return error;
  if (fchownat(place.folder, place.name, user, group, AT_SYMLINK_NOFOLLOW) != 0) error = -errno;
  close(place.folder);
  return error;
}

/* Runs `change` on an open file and counts the change of its blocks, once per name. */
static int count_change(int fd, int (*change)(int fd, const void *argument), const void *argument) {
  struct stat before;
  struct stat after;
  if (fstat(fd, &before) != 0) return -errno;
  int error = change(fd, argument);
  if (fstat(fd, &after) != 0) return error;
  int64_t names = after.st_nlink > 0 ? (int64_t)after.st_nlink : 1;
  disk.used += (charge(&after) - charge(&before)) * names;
  return error;
}

static int change_size(int fd, const void *argument) {
  return ftruncate(fd, *(const off_t *)argument) == 0 ? 0 : -errno;
}

static int serve_truncate(const char *path, off_t size, struct fuse_file_info *file) {
  /* A longer file is sparse: blocks come with writes. */
  if (file) return count_change((int)file->fh, change_size, &size);
  int fd = open_beneath(relative(path), O_WRONLY | O_NONBLOCK);
  if (fd < 0) return fd;
  struct stat status;
  int error = fstat(fd, &status) != 0 ? -errno : !S_ISREG(status.st_mode) ? -EINVAL : 0;
  if (error == 0) error = count_change(fd, change_size, &size);
  close(fd);
  return error;
}

/* Opens a regular file beneath the container, with O_CREAT's mode when creating. */
static int open_file(const char *path, struct fuse_file_info *file, int create, mode_t mode) {
  int flags = file->flags & ~(O_CREAT | O_EXCL | O_TRUNC | O_NOCTTY);
  int fd;
  struct stat status;
  if (create) {
    if (mode & (S_ISUID | S_ISGID)) return -EPERM;
    int error = room_for_name();
    if (error) return error;
    struct place place;
    error = find_place(path, &place);
    if (error) return error;
    int64_t before = folder_charge(place.folder);
    int existed = fstatat(place.folder, place.name, &status, AT_SYMLINK_NOFOLLOW) == 0;
    /* O_NONBLOCK: a pipe of that name must not make the server wait for a reader. */
    fd = openat(place.folder, place.name,
                flags | (file->flags & O_EXCL) | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode);
    if (fd < 0) {
      error = -errno;
    } else if (!existed && fstat(fd, &status) == 0) {
      disk.used += charge(&status) + folder_charge(place.folder) - before;
    }
    close(place.folder);
    if (fd < 0) return error;
  } else {
    fd = open_beneath(relative(path), flags | O_NONBLOCK);
    if (fd < 0) return fd;
  }
  if (!(flags & O_NONBLOCK)) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  int error = fstat(fd, &status) != 0 ? -errno : !S_ISREG(status.st_mode) ? -EACCES : 0;
  if (error == 0 && (file->flags & O_TRUNC)) {
    off_t zero = 0;
    error = count_change(fd, change_size, &zero);
  }
  if (error == 0) error = remember_open(fd);
  if (error) {
    close(fd);
    return error;
  }
  file->fh = (uint64_t)fd;
  return 0;
}

static int serve_open(const char *path, struct fuse_file_info *file) { return open_file(path, file, 0, 0); }

static int serve_create(const char *path, mode_t mode, struct fuse_file_info *file) {
  return open_file(path, file, 1, mode);
}

static int serve_read(const char *path, char *buffer, size_t size, off_t offset, struct fuse_file_info *file) {
  (void)path;
  ssize_t got = pread((int)file->fh, buffer, size, offset);
  return got < 0 ? -errno : (int)got;
}

struct write_call {
  struct fuse_bufvec *source;
  size_t size;
  off_t offset;
  ssize_t written;
};

static int write_through(int fd, const void *argument) {
  struct write_call *call = (struct write_call *)argument;
  struct fuse_bufvec destination = FUSE_BUFVEC_INIT(call->size);
  destination.buf[0].flags = (enum fuse_buf_flags)(FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK);
  destination.buf[0].fd = fd;
  destination.buf[0].pos = call->offset;
  call->written = fuse_buf_copy(&destination, call->source, FUSE_BUF_SPLICE_NONBLOCK);
  return call->written < 0 ? (int)call->written : 0;
}

/* A write that may need new blocks gets at most what is left (whole
 * blocks); one within the blocks a file already has always goes through. */
static int serve_write_buf(const char *path, struct fuse_bufvec *source, off_t offset, struct fuse_file_info *file) {
  (void)path;
  int fd = (int)file->fh;
  size_t size = fuse_buf_size(source);
  struct stat status;
  if (fstat(fd, &status) != 0) return -errno;
  int appends = (file->flags & O_APPEND) != 0;
  int dense = (int64_t)status.st_blocks * 512 >= (int64_t)status.st_size;
  int within = !appends && dense && offset >= 0 && (uint64_t)offset + size <= (uint64_t)status.st_size;
  if (!within) {
    int64_t left = remaining() - BLOCK; /* room for a block of the file's own map */
    if (left < BLOCK) return -ENOSPC;
    if ((int64_t)size > left) size = (size_t)(left - left % BLOCK);
  }
  struct write_call call = {source, size, offset, 0};
  int error = count_change(fd, write_through, &call);
  return error ? error : (int)call.written;
}

static int serve_statfs(const char *path, struct statvfs *status) {
  (void)path;
  if (fstatvfs(disk.container, status) != 0) return -errno;
  uint64_t free_blocks = remaining() > 0 ? (uint64_t)remaining() / BLOCK : 0;
  if (free_blocks > status->f_bavail * (status->f_frsize / BLOCK)) {
    free_blocks = status->f_bavail * (status->f_frsize / BLOCK); /* the file system's own room is less */
  }
  status->f_bsize = status->f_frsize = BLOCK;
  status->f_blocks = disk.limit / BLOCK;
  status->f_bfree = status->f_bavail = free_blocks;
  if (status->f_ffree > free_blocks) status->f_ffree = status->f_favail = free_blocks;
  return 0;
}

static int serve_release(const char *path, struct fuse_file_info *file) {
  (void)path;
  int fd = (int)file->fh;
  struct stat status;
  if (fstat(fd, &status) == 0) {
    struct open_file *open = find_open(&status);
    if (open && --open->handles == 0) {
      tdelete(open, &disk.open_files, compare_files);
      free(open);
      if (status.st_nlink == 0) disk.used -= charge(&status); /* its last name went while it was open */
    }
  }
  close(fd);
  return 0;
}

static int serve_fsync(const char *path, int data_only, struct fuse_file_info *file) {
  (void)path;
  int fd = (int)file->fh;
  return (data_only ? fdatasync(fd) : fsync(fd)) == 0 ? 0 : -errno;
}

static int serve_opendir(const char *path, struct fuse_file_info *file) {
  int fd = open_beneath(relative(path), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return fd;
  DIR *folder = fdopendir(fd);
  if (!folder) {
    int error = -errno;
    close(fd);
    return error;
  }
  file->fh = (uint64_t)(uintptr_t)folder;
  return 0;
}

static int serve_readdir(const char *path, void *buffer, fuse_fill_dir_t fill, off_t offset,
                         struct fuse_file_info *file, enum fuse_readdir_flags flags) {
  (void)path;
  (void)flags;
  DIR *folder = (DIR *)(uintptr_t)file->fh;
  if (offset == 0) rewinddir(folder);
  else seekdir(folder, offset);
  errno = 0;
  struct dirent *entry;
  while ((entry = readdir(folder)) != NULL) {
    struct stat status = {.st_ino = entry->d_ino, .st_mode = (mode_t)DTTOIF(entry->d_type)};
    if (fill(buffer, entry->d_name, &status, telldir(folder), 0)) return 0;
    errno = 0;
  }
  return errno ? -errno : 0;
}

static int serve_releasedir(const char *path, struct fuse_file_info *file) {
  (void)path;
  closedir((DIR *)(uintptr_t)file->fh);
  return 0;
}

static int serve_utimens(const char *path, const struct timespec times[2], struct fuse_file_info *file) {
  if (file) return futimens((int)file->fh, times) == 0 ? 0 : -errno;
  struct place place;
  int error = find_place(path, &place);
  if (error) return error;
  if (utimensat(place.folder, place.name, times, AT_SYMLINK_NOFOLLOW) != 0) error = -errno;
  close(place.folder);
  return error;
}

struct allocation {
  int mode;
  off_t offset;
  off_t length;
};

static int allocate(int fd, const void *argument) {
  const struct allocation *call = argument;
  return fallocate(fd, call->mode, call->offset, call->length) == 0 ? 0 : -errno;
}

static int serve_fallocate(const char *path, int mode, off_t offset, off_t length, struct fuse_file_info *file) {
  (void)path;
  if (!file) return -EINVAL;
  int frees = mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_COLLAPSE_RANGE);
  if (!frees && length > remaining() - BLOCK) return -ENOSPC;
  struct allocation call = {mode, offset, length};
  return count_change((int)file->fh, allocate, &call);
}

/* No extended attributes (a file capability is one): the kernel answers EOPNOTSUPP. */
static const struct fuse_operations operations = {
    .init = serve_init,
    .getattr = serve_getattr,
    .readlink = serve_readlink,
    .mknod = serve_mknod,
    .mkdir = serve_mkdir,
    .unlink = serve_unlink,
    .rmdir = serve_rmdir,
    .symlink = serve_symlink,
    .rename = serve_rename,
    .link = serve_link,
    .chmod = serve_chmod,
    .chown = serve_chown,
    .truncate = serve_truncate,
    .open = serve_open,
    .read = serve_read,
    .write_buf = serve_write_buf,
    .statfs = serve_statfs,
    .release = serve_release,
    .fsync = serve_fsync,
    .opendir = serve_opendir,
    .readdir = serve_readdir,
    .releasedir = serve_releasedir,
    .create = serve_create,
    .utimens = serve_utimens,
    .fallocate = serve_fallocate,
};

/* MARK: Setting up */

int tp_disk_prepare(tp_container_disk *prepared, const tp_sandbox_files *files, uid_t user, gid_t group) {
  prepared->device = -1;
  prepared->mounted[0] = prepared->mounted[1] = -1;
  const char *container = files->container;
  uint64_t limit_bytes = files->disk_bytes;
  if (!container || limit_bytes == 0) return -1;
  /* Opened in the namespaces just made: the kernel mounts only a /dev/fuse
   * opened in the user namespace of the mount. Mode 0600 (root only) on some
   * machines, 0666 on Debian's default. */
  int device = open("/dev/fuse", O_RDWR | O_CLOEXEC);
  if (device < 0) return -1;
  int folder = open(container, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  int64_t used = (int64_t)files->container_used_bytes;
  if (folder < 0 || (!files->container_measured && measure(container, &used) != 0)) {
    if (folder >= 0) close(folder);
    close(device);
    return -1;
  }
  disk.container = folder;
  disk.user = user;
  disk.group = group;
  disk.limit = limit_bytes;
  disk.used = used;
  char *arguments[] = {"translation-provider-runner", NULL};
  struct fuse_args list = FUSE_ARGS_INIT(1, arguments);
  disk.fuse = fuse_new(&list, &operations, sizeof operations, NULL);
  char mountpoint[32];
  snprintf(mountpoint, sizeof mountpoint, "/dev/fd/%d", device);
  /* libfuse takes an open /dev/fuse as "/dev/fd/N" and mounts nothing itself. */
  if (!disk.fuse || fuse_mount(disk.fuse, mountpoint) != 0) {
    if (disk.fuse) fuse_destroy(disk.fuse);
    disk.fuse = NULL;
    close(folder);
    close(device);
    disk.container = -1;
    return -1;
  }
  if (pipe2(prepared->mounted, O_CLOEXEC) != 0) {
    fuse_destroy(disk.fuse);
    disk.fuse = NULL;
    close(folder);
    close(device);
    disk.container = -1;
    return -1;
  }
  prepared->device = device;
  return 0;
}

int tp_disk_mount(const tp_container_disk *prepared, const char *target, tp_sandbox_failure *failure) {
  char options[160];
  /* With another user, PID 1 (root, still building the root) must reach it
   * too: allow_other, in a mount namespace that holds only the sandbox. */
  snprintf(options, sizeof options, "fd=%d,rootmode=40000,user_id=%u,group_id=%u,default_permissions%s",
           prepared->device, (unsigned)(disk.user ? disk.user : geteuid()),
           (unsigned)(disk.user ? disk.group : getegid()), disk.user ? ",allow_other" : "");
  if (mount("translation-host", target, "fuse.translation-host", MS_NOSUID | MS_NODEV, options) != 0) {
    return tp_fail(failure, "mounting the container's size-limited view at %s", target);
  }
  ssize_t told = write(prepared->mounted[1], "m", 1);
  (void)told; /* unread, the server waits for the end of the pipe instead */
  return 0;
}

void tp_disk_forget(tp_container_disk *prepared) {
  if (prepared->device >= 0) close(prepared->device);
  prepared->device = -1;
  for (int i = 0; i < 2; i++) {
    if (prepared->mounted[i] >= 0) close(prepared->mounted[i]);
    prepared->mounted[i] = -1;
  }
  if (disk.container >= 0) close(disk.container);
  disk.container = -1;
}

int tp_disk_serve_until(tp_container_disk *prepared, int stop) {
  struct fuse_session *session = prepared->device >= 0 && disk.fuse ? fuse_get_session(disk.fuse) : NULL;
  struct fuse_buf buffer = {.mem = NULL};
  if (prepared->mounted[1] >= 0) close(prepared->mounted[1]); /* PID 1's end */
  prepared->mounted[1] = -1;
  /* First the mount (or its failure: the pipe's end), then the requests. */
  struct pollfd watched[2] = {{.fd = stop, .events = POLLIN}, {.fd = session ? prepared->mounted[0] : -1, .events = POLLIN}};
  int serving = 0;
  for (;;) {
    if (poll(watched, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (watched[0].revents) break;
    if (!watched[1].revents) continue;
    if (!serving) {
      char byte;
      ssize_t got = read(prepared->mounted[0], &byte, 1);
      if (got < 0 && errno == EINTR) continue;
      serving = got == 1;
      watched[1].fd = serving ? prepared->device : -1;
      continue;
    }
    int got = fuse_session_receive_buf(session, &buffer);
    if (got == -EINTR || got == -EAGAIN) continue;
    if (got <= 0) {
      watched[1].fd = -1; /* unmounted (ENODEV) or broken: only wait now */
      continue;
    }
    fuse_session_process_buf(session, &buffer);
  }
  free(buffer.mem);
  return 0;
}
