#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The control groups runners make, one per runner, named after its PID. An
 * empty one is left when its runner ends (nothing outside the sandbox waits
 * for it to end); the next runner removes those: rmdir(2) fails with EBUSY on
 * a group that still holds a process, so only empty ones go. */
static const char group_prefix[] = "translation-host-runner-";

static int write_text(const char *folder, const char *file, const char *text) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", folder, file);
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t length = (ssize_t)strlen(text);
  ssize_t written = write(fd, text, (size_t)length);
  int error = errno;
  close(fd);
  errno = error;
  return written == length ? 0 : -1;
}

/* Whether the space-separated `list` names `word`. */
static int names(const char *list, const char *word) {
  size_t length = strlen(word);
  for (const char *at = strstr(list, word); at; at = strstr(at + 1, word)) {
    if ((at == list || at[-1] == ' ' || at[-1] == ',') && (at[length] == '\0' || strchr(" ,\n", at[length]))) return 1;
  }
  return 0;
}

/* The mount point of the cgroup v2 hierarchy (`controller` NULL), or of the v1
 * hierarchy whose options name `controller`, mounted with its root at "/". */
static int find_mount(const char *controller, char mount_point[PATH_MAX]) {
  FILE *file = fopen("/proc/self/mountinfo", "re");
  if (!file) return 0;
  char *line = NULL;
  size_t capacity = 0;
  int found = 0;
  while (!found && getline(&line, &capacity, file) > 0) {
    char *separator = strstr(line, " - ");
    if (!separator) continue;
    *separator = '\0';
    char root[PATH_MAX];
    char point[PATH_MAX];
    char type[64];
    char options[512] = "";
    if (sscanf(line, "%*s %*s %*s %4095s %4095s", root, point) != 2) continue;
    if (sscanf(separator + 3, "%63s %*s %511s", type, options) < 1) continue;
    if (strcmp(root, "/") != 0 || strchr(point, '\\')) continue; /* a part of a hierarchy, or an escaped name */
    if (controller ? strcmp(type, "cgroup") == 0 && names(options, controller) : strcmp(type, "cgroup2") == 0) {
      snprintf(mount_point, PATH_MAX, "%s", point);
      found = 1;
    }
  }
  free(line);
  fclose(file);
  return found;
}

/* This process's group in the v2 hierarchy (`controller` NULL) or in the v1
 * hierarchy of `controller`, from /proc/self/cgroup. */
static int own_group(const char *controller, char group[PATH_MAX]) {
  FILE *file = fopen("/proc/self/cgroup", "re");
  if (!file) return 0;
  char *line = NULL;
  size_t capacity = 0;
  int found = 0;
  while (!found && getline(&line, &capacity, file) > 0) {
    line[strcspn(line, "\n")] = '\0';
    char *first = strchr(line, ':');
    char *second = first ? strchr(first + 1, ':') : NULL;
    if (!second) continue;
    *second = '\0';
    const char *controllers = first + 1;
    if (controller ? names(controllers, controller) : (strncmp(line, "0:", 2) == 0 && controllers[0] == '\0')) {
      snprintf(group, PATH_MAX, "%s", second + 1);
      found = 1;
    }
  }
  free(line);
  fclose(file);
  return found;
}

static void remove_empty_groups(const char *base) {
  DIR *directory = opendir(base);
  if (!directory) return;
  char path[PATH_MAX];
  for (struct dirent *entry = readdir(directory); entry; entry = readdir(directory)) {
    if (strncmp(entry->d_name, group_prefix, sizeof group_prefix - 1) != 0) continue;
    snprintf(path, sizeof path, "%s/%s", base, entry->d_name);
    rmdir(path); /* EBUSY while a runner is in it */
  }
  closedir(directory);
}

/* Whether this process has one thread (the runner before it starts any). */
static int single_threaded(void) {
  DIR *tasks = opendir("/proc/self/task");
  if (!tasks) return 0;
  int count = 0;
  for (struct dirent *entry = readdir(tasks); entry && count < 2; entry = readdir(tasks)) {
    if (entry->d_name[0] != '.') count++;
  }
  closedir(tasks);
  return count == 1;
}

/* Moves this process into `group`. Writing its PID to cgroup.procs takes the
 * kernel's global lock against every fork in the system, which waits out an
 * RCU grace period when no other move holds it (4-50 ms here, by load); under
 * cgroup v1 "0" written to `tasks` moves only the calling thread and skips
 * that lock, so a process of one thread moves in microseconds. Every process
 * forked afterwards starts in the group either way. cgroup v2 allows a thread
 * to move on its own only within a threaded subtree, so it takes the lock. */
static int move_into(const char *group, int version1) {
  if (version1 && single_threaded()) return write_text(group, "tasks", "0");
  char number[32];
  snprintf(number, sizeof number, "%d", (int)getpid());
  return write_text(group, "cgroup.procs", number);
}

/* Makes this process's group under `base` with the limits, and moves this
 * process into it; every process it starts is then in it too. Returns the
 * layers, or 0 where the group cannot be made (not this user's to make). */
static int join_group(const char *base, const tp_sandbox_limits *limits, int memory, int version1) {
  remove_empty_groups(base);
  char group[PATH_MAX];
  char number[32];
  /* Another runner's sweep may remove the group between mkdir and the move: then again. */
  for (int attempt = 0; attempt < 3; attempt++) {
    if ((size_t)snprintf(group, sizeof group, "%s/%s%d", base, group_prefix, (int)getpid()) >= sizeof group) return 0;
    if (mkdir(group, 0755) != 0 && errno != EEXIST) return 0;
    int layers = 0;
    int failed = 0;
    if (limits->processes > 0) {
      snprintf(number, sizeof number, "%llu", (unsigned long long)limits->processes);
      failed |= write_text(group, "pids.max", number);
      if (!failed) layers |= TP_LAYER_TASK_GROUP;
    }
    if (!failed && memory && limits->address_space_bytes > 0) {
      snprintf(number, sizeof number, "%llu", (unsigned long long)limits->address_space_bytes);
      failed |= write_text(group, "memory.max", number);
      /* Swap would let it hold more than the limit, slowly; absent without swap accounting. */
      if (!failed && write_text(group, "memory.swap.max", "0") != 0 && errno != ENOENT) failed = 1;
      if (!failed) layers |= TP_LAYER_MEMORY_GROUP;
    }
    if (!failed && !layers) {
      rmdir(group);
      return 0;
    }
    if (!failed && move_into(group, version1) == 0) return layers;
    int error = errno;
    rmdir(group);
    if (error != ENOENT) return 0;
  }
  return 0;
}

int tp_sandbox_control_group(const tp_sandbox_limits *limits) {
  char mount_point[PATH_MAX];
  char group[PATH_MAX];
  char base[PATH_MAX];
  /* cgroup v2: a sibling of this process's group (a group with processes
   * cannot have children with controllers), in the parent whose
   * subtree_control hands down pids (and memory): a delegated subtree, such
   * as a systemd user session's, or the root. */
  if (find_mount(NULL, mount_point) && own_group(NULL, group)) {
    char *slash = strrchr(group, '/');
    if (slash && slash != group) *slash = '\0';
    else group[0] = '\0';
    if ((size_t)snprintf(base, sizeof base, "%s%s", mount_point, group) < sizeof base) {
      char path[PATH_MAX];
      char controllers[256] = "";
      snprintf(path, sizeof path, "%s/cgroup.subtree_control", base);
      FILE *file = fopen(path, "re");
      if (file) {
        if (!fgets(controllers, sizeof controllers, file)) controllers[0] = '\0';
        fclose(file);
      }
      if (names(controllers, "pids")) {
        int layers = join_group(base, limits, names(controllers, "memory"), 0);
        if (layers) return layers;
      }
    }
  }
  /* cgroup v1's pids hierarchy (which has no rule against processes in
   * inner groups): a child of this process's group. v1's memory controller is
   * not used. */
  if (find_mount("pids", mount_point) && own_group("pids", group)) {
    if (strcmp(group, "/") == 0) group[0] = '\0';
    if ((size_t)snprintf(base, sizeof base, "%s%s", mount_point, group) < sizeof base) {
      return join_group(base, limits, 0, 1);
    }
  }
  return 0;
}
