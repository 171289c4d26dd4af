#define _GNU_SOURCE
#include "secret_service.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libsecret's and GLib's types, as their stable ABIs lay them out
 * (libsecret-1.so.0, libglib-2.0.so.0): the headers are not needed to build,
 * and the library is not needed to run anything else. */
typedef struct {
  const char *name;
  int type; /* SECRET_SCHEMA_ATTRIBUTE_STRING = 0 */
} schema_attribute;

typedef struct {
  const char *name;
  int flags; /* SECRET_SCHEMA_NONE = 0 */
  schema_attribute attributes[32];
  int reserved;
  void *reserved1, *reserved2, *reserved3, *reserved4, *reserved5, *reserved6, *reserved7;
} secret_schema;

typedef struct {
  unsigned int domain;
  int code;
  char *message;
} glib_error;

static const secret_schema schema = {
    "org.translationhost.ProviderSetting", 0, {{"provider", 0}, {"signer", 0}, {"setting", 0}, {NULL, 0}}, 0,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL};

static struct {
  int (*store)(const secret_schema *, const char *, const char *, const char *, void *, glib_error **, ...);
  char *(*lookup)(const secret_schema *, void *, glib_error **, ...);
  int (*clear)(const secret_schema *, void *, glib_error **, ...);
  void (*free_password)(char *);
  void (*free_error)(glib_error *);
  const char *problem;
} library;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void) {
  void *handle = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    library.problem = "libsecret is not installed (Debian's libsecret-1-0)";
    return;
  }
  library.store = dlsym(handle, "secret_password_store_sync");
  library.lookup = dlsym(handle, "secret_password_lookup_sync");
  library.clear = dlsym(handle, "secret_password_clear_sync");
  library.free_password = dlsym(handle, "secret_password_free");
  library.free_error = dlsym(handle, "g_error_free");
  if (!library.store || !library.lookup || !library.clear || !library.free_password || !library.free_error) {
    library.problem = "libsecret-1.so.0 lacks the calls this host uses";
  }
}

static int ready(char *message, size_t size) {
  pthread_once(&loaded, load);
  if (!library.problem) return 1;
  snprintf(message, size, "%s", library.problem);
  return 0;
}

static int failed(glib_error *error, char *message, size_t size) {
  snprintf(message, size, "%s", error && error->message ? error->message : "the Secret Service failed");
  if (error) library.free_error(error);
  return -1;
}

int tp_secret_store(const char *identifier, const char *signer, const char *setting, const char *label,
                    const char *value, char *message, size_t size) {
  if (!ready(message, size)) return -1;
  glib_error *error = NULL;
  int stored = library.store(&schema, "default", label, value, NULL, &error, "provider", identifier, "signer", signer,
                             "setting", setting, NULL);
  return stored && !error ? 0 : failed(error, message, size);
}

int tp_secret_lookup(const char *identifier, const char *signer, const char *setting, char **value, char *message,
                     size_t size) {
  *value = NULL;
  if (!ready(message, size)) return -1;
  glib_error *error = NULL;
  char *found = library.lookup(&schema, NULL, &error, "provider", identifier, "signer", signer, "setting", setting, NULL);
  if (error) return failed(error, message, size);
  if (!found) return 1;
  *value = strdup(found);
  library.free_password(found);
  return *value ? 0 : -1;
}

int tp_secret_clear(const char *identifier, const char *signer, const char *setting, char *message, size_t size) {
  if (!ready(message, size)) return -1;
  glib_error *error = NULL;
  int cleared = library.clear(&schema, NULL, &error, "provider", identifier, "signer", signer, "setting", setting, NULL);
  if (error) return failed(error, message, size);
  return cleared ? 0 : 1;
}
