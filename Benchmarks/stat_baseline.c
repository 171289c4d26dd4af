/*
 * The baseline for the registry benchmark: reads each search folder given on
 * the command line and stats every bundle folder and the three files in it
 * that the registry keys its cache on. Nothing else: no parsing, no output.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int main(int argc, char **argv) {
  static const char *files[] = {"Info.plist", "Bench.entitlements", "libBench.so"};
  struct stat info;
  char path[4096];
  for (int i = 1; i < argc; i++) {
    DIR *folder = opendir(argv[i]);
    if (!folder) continue;
    struct dirent *entry;
    while ((entry = readdir(folder))) {
      size_t length = strlen(entry->d_name);
      if (length < 20 || strcmp(entry->d_name + length - 20, ".translationprovider") != 0) continue;
      snprintf(path, sizeof path, "%s/%s", argv[i], entry->d_name);
      stat(path, &info);
      for (int f = 0; f < 3; f++) {
        snprintf(path, sizeof path, "%s/%s/%s", argv[i], entry->d_name, files[f]);
        stat(path, &info);
      }
    }
    closedir(folder);
  }
  return 0;
}
