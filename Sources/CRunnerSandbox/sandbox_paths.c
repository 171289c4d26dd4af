#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <errno.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tp_system_folders[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", NULL};

const char *const tp_system_configuration[] = {
    "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/timezone",
    "/etc/nsswitch.conf", "/etc/passwd", "/etc/group", "/etc/hosts", "/etc/host.conf", "/etc/resolv.conf",
    "/etc/gai.conf", "/etc/services", "/etc/protocols", "/etc/ssl", "/etc/ca-certificates",
    "/etc/ca-certificates.conf", "/etc/alternatives", "/etc/os-release", "/etc/debian_version", "/etc/locale.alias",
    "/etc/mime.types", NULL};

const char *const tp_devices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", NULL};

int tp_fail(tp_sandbox_failure *failure, const char *format, ...) {
  int error = errno;
  if (failure) {
    failure->error = error;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(failure->step, sizeof failure->step, format, arguments);
    va_end(arguments);
  }
  errno = error;
  return -1;
}

int tp_is_system_path(const char *path) {
  for (const char *const *folder = tp_system_folders; *folder; folder++) {
    size_t length = strlen(*folder);
    if (strncmp(path, *folder, length) == 0 && (path[length] == '\0' || path[length] == '/')) return 1;
  }
  return 0;
}

int tp_runner_executable(char path[PATH_MAX]) {
  if (!realpath("/proc/self/exe", path)) return 0;
  return tp_is_system_path(path) ? 0 : 1;
}

struct folder_list {
  char (*folders)[PATH_MAX];
  size_t capacity;
  size_t count;
};

static int add_library_folder(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct folder_list *list = data;
  if (!info->dlpi_name || info->dlpi_name[0] != '/' || list->count == list->capacity) return 0;
  char real[PATH_MAX];
  if (!realpath(info->dlpi_name, real)) return 0;
  char *slash = strrchr(real, '/');
  if (!slash || slash == real) return 0;
  *slash = '\0';
  if (tp_is_system_path(real)) return 0;
  for (size_t i = 0; i < list->count; i++) {
    if (strcmp(list->folders[i], real) == 0) return 0;
  }
  memcpy(list->folders[list->count++], real, strlen(real) + 1);
  return 0;
}

size_t tp_library_folders(char folders[][PATH_MAX], size_t capacity) {
  struct folder_list list = {folders, capacity, 0};
  dl_iterate_phdr(add_library_folder, &list);
  return list.count;
}
