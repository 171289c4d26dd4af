#define _GNU_SOURCE /* dladdr */
#include "entry_point_call.h"

#include <dlfcn.h>

int tp_image_containing(const void *address, const char **path, void **base) {
  Dl_info info;
  if (dladdr(address, &info) == 0 || !info.dli_fname || !info.dli_fbase) return 0;
  *path = info.dli_fname;
  *base = info.dli_fbase;
  return 1;
}
