/*
 * The writer of container_disk.py: writes <MiB> MiB in writes of <KiB> KiB
 * to a new file, closes it, and says how long that took (CLOCK_MONOTONIC,
 * microseconds). Built two ways: a provider (its "Go" button writes in its
 * HOME, the input text being "<MiB> <KiB>") and, with -DSTANDALONE, a program
 * (`disk_writer <folder> <MiB> <KiB>`) that writes the same outside any sandbox.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char result[256];

static void write_file(const char *folder, long mebibytes, long kibibytes) {
  static char chunk[1 << 20];
  size_t size = kibibytes > 0 && kibibytes <= 1024 ? (size_t)kibibytes << 10 : 128 << 10;
  memset(chunk, 'w', sizeof chunk);
  char path[4096];
  snprintf(path, sizeof path, "%s/written", folder);
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  long long total = (long long)mebibytes << 20, done = 0;
  while (fd >= 0 && done < total) {
    ssize_t written = write(fd, chunk, size);
    if (written <= 0) break;
    done += written;
  }
  if (fd >= 0) close(fd);
  clock_gettime(CLOCK_MONOTONIC, &end);
  long long micros = (end.tv_sec - start.tv_sec) * 1000000LL + (end.tv_nsec - start.tv_nsec) / 1000;
  snprintf(result, sizeof result, "wrote %lld bytes in %lld us", done, micros);
  unlink(path);
}

#ifdef STANDALONE
int main(int argc, char **argv) {
  if (argc != 4) return 64;
  write_file(argv[1], atol(argv[2]), atol(argv[3]));
  puts(result);
  return 0;
}
#else
#include "translation_provider.h"

static const tp_context *current;

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
  char input[64] = {0};
  size_t length = current->input_text.length < sizeof input - 1 ? current->input_text.length : sizeof input - 1;
  memcpy(input, current->input_text.data, length);
  long mebibytes = atol(input);
  const char *space = strchr(input, ' ');
  write_file(getenv("HOME") ? getenv("HOME") : ".", mebibytes, space ? atol(space + 1) : 128);
  tp_string translation = {result, strlen(result)};
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
  (void)host;
  return true;
}

static void deinit(void) {}

static const void *get_capability(const char *id) {
  return strcmp(id, TP_CAPABILITY_SELECTED_TEXT_SCENE) == 0 ? &factory : NULL;
}

static const tp_entry entry = {sizeof entry, TP_ABI_VERSION_MAJOR, 0, init, deinit, get_capability};

TP_EXPORT const tp_entry *translation_provider_entry(void) { return &entry; }
#endif
