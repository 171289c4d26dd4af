#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Debian 12's kernel headers stop at Landlock ABI 2, and the kernels it runs
 * on go further: the structures and rights are spelled out here, each with
 * the ABI that brought it. The kernel accepts a larger structure as long as
 * the fields it does not know are zero. */
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

struct ruleset_attributes {
  uint64_t handled_access_fs;
  uint64_t handled_access_net; /* ABI 4 */
  uint64_t scoped;             /* ABI 6 */
};

struct path_beneath {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

enum {
  CREATE_RULESET_VERSION = 1 << 0,
  RULE_PATH_BENEATH = 1,
};

#define FS_EXECUTE (1ULL << 0)
#define FS_WRITE_FILE (1ULL << 1)
#define FS_READ_FILE (1ULL << 2)
#define FS_READ_DIR (1ULL << 3)
#define FS_ABI1_ALL ((1ULL << 13) - 1) /* through MAKE_SYM */
#define FS_REFER (1ULL << 13)          /* ABI 2 */
#define FS_TRUNCATE (1ULL << 14)       /* ABI 3 */
#define FS_IOCTL_DEV (1ULL << 15)      /* ABI 5 */
#define NET_BIND_TCP (1ULL << 0)       /* ABI 4 */
#define NET_CONNECT_TCP (1ULL << 1)
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define SCOPE_SIGNAL (1ULL << 1)

static const uint64_t reading = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR;

/* Allows `access` (as far as the ruleset handles it) beneath `path`; a
 * missing path is skipped. Files take only the rights that apply to files.
 * A `folder` is opened as one and not looked at again (the container: in its
 * size-limited view each look is a round trip to the view's server). */
static int allow_path(int ruleset, const char *path, int folder, uint64_t access, uint64_t handled,
                      tp_sandbox_failure *failure) {
  int fd = open(path, O_PATH | O_CLOEXEC | (folder ? O_DIRECTORY : 0));
  if (fd < 0) return errno == ENOENT ? 0 : tp_fail(failure, "opening %s for Landlock", path);
  struct stat status;
  if (!folder && fstat(fd, &status) == 0 && !S_ISDIR(status.st_mode)) {
    access &= FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV;
  }
  struct path_beneath rule = {.allowed_access = access & handled, .parent_fd = fd};
  long added = syscall(SYS_landlock_add_rule, ruleset, RULE_PATH_BENEATH, &rule, 0);
  close(fd);
  return added == 0 ? 0 : tp_fail(failure, "adding a Landlock rule for %s", path);
}

static int allow(int ruleset, const char *path, uint64_t access, uint64_t handled, tp_sandbox_failure *failure) {
  return allow_path(ruleset, path, 0, access, handled, failure);
}

static int add_rules(int ruleset, int private_root, const tp_sandbox_files *files, uint64_t handled,
                     tp_sandbox_failure *failure) {
  uint64_t device_access = FS_READ_FILE | FS_WRITE_FILE | FS_TRUNCATE;
  if (files && files->container && allow_path(ruleset, files->container, 1, handled, handled, failure) != 0) return -1;
  if (private_root) {
    /* The mount namespace already shows only what a provider may see. */
    if (allow(ruleset, "/", reading, handled, failure) != 0) return -1;
    if (allow(ruleset, "/tmp", handled, handled, failure) != 0) return -1;
    if (allow(ruleset, "/dev/shm", handled, handled, failure) != 0) return -1;
    return allow(ruleset, "/dev", device_access | FS_READ_DIR, handled, failure);
  }
  /* No mount namespace: Landlock alone keeps the rest of the file system out. */
  for (const char *const *folder = tp_system_folders; *folder; folder++) {
    if (allow(ruleset, *folder, reading, handled, failure) != 0) return -1;
  }
  for (const char *const *file = tp_system_configuration; *file; file++) {
    if (allow(ruleset, *file, reading, handled, failure) != 0) return -1;
  }
  for (const char *const *device = tp_devices; *device; device++) {
    if (allow(ruleset, *device, device_access, handled, failure) != 0) return -1;
  }
  /* /proc for the process's own files; Landlock keeps other processes' out of
   * reach (the same checks as ptrace). */
  if (allow(ruleset, "/proc", FS_READ_FILE | FS_READ_DIR, handled, failure) != 0) return -1;
  static char libraries[TP_MAX_LIBRARY_FOLDERS][PATH_MAX];
  size_t count = tp_library_folders(libraries, TP_MAX_LIBRARY_FOLDERS);
  for (size_t i = 0; i < count; i++) {
    if (allow(ruleset, libraries[i], reading, handled, failure) != 0) return -1;
  }
  for (size_t i = 0; files && i < files->read_only_count; i++) {
    if (allow(ruleset, files->read_only[i], reading, handled, failure) != 0) return -1;
  }
  char executable[PATH_MAX];
  if (tp_runner_executable(executable) && allow(ruleset, executable, reading, handled, failure) != 0) return -1;
  return 0;
}

int tp_sandbox_landlock(int deny_network, int private_root, const tp_sandbox_files *files,
                        tp_sandbox_failure *failure) {
  long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, CREATE_RULESET_VERSION);
  if (abi < 1) return 0;
  struct ruleset_attributes attributes = {.handled_access_fs = FS_ABI1_ALL};
  if (abi >= 2) attributes.handled_access_fs |= FS_REFER;
  if (abi >= 3) attributes.handled_access_fs |= FS_TRUNCATE;
  if (abi >= 5) attributes.handled_access_fs |= FS_IOCTL_DEV;
  if (abi >= 4 && deny_network) attributes.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP;
  if (abi >= 6) attributes.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
  size_t size = abi >= 6 ? sizeof attributes : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
  int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
  if (ruleset < 0) return tp_fail(failure, "creating the Landlock ruleset (ABI %ld)", abi);
  int result = add_rules(ruleset, private_root, files, attributes.handled_access_fs, failure);
  if (result == 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) result = tp_fail(failure, "no_new_privs");
  if (result == 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
    result = tp_fail(failure, "landlock_restrict_self");
  }
  close(ruleset);
  return result == 0 ? TP_LAYER_LANDLOCK : -1;
}
