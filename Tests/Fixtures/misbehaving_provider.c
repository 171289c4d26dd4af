/*
 * A provider that misbehaves in one way chosen at compile time (-D<MODE>), for
 * the loader, runner and end-to-end tests. Without a mode it is a minimal,
 * well-behaved provider: a scene with one "Go" button that finishes with the
 * input text in upper case, and a translate capability for en -> en-x-upper.
 */
#define _GNU_SOURCE
#include "translation_provider.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A real segmentation fault where -DCRASH_IN_<point> asks for one. The pointer
 * is volatile so that the compiler cannot prove it null and drop the code. */
static int *volatile null_pointer;
#define CRASH() (*null_pointer = 1)

#ifdef CRASH_IN_CONSTRUCTOR
__attribute__((constructor)) static void crash_on_load(void) { CRASH(); }
#endif

#ifdef UNDEFINED_SYMBOL
extern int tp_fixture_symbol_that_does_not_exist(void);
int tp_fixture_use(void) { return tp_fixture_symbol_that_does_not_exist(); }
#endif

static const tp_context *current;
static char *upper;

static char *uppercase(const tp_string *text) {
  char *out = malloc(text->length + 1);
  for (size_t i = 0; i < text->length; i++) out[i] = (char)toupper((unsigned char)text->data[i]);
  out[text->length] = '\0';
  return out;
}

static tp_status render(const tp_scene *scene, tp_string *out) {
  (void)scene;
#if defined(CRASH_IN_RENDER)
  CRASH();
#endif
#if defined(BAD_TREE)
  static const char json[] = "{\"version\":1,\"root\":{\"type\":\"vstack\",\"children\":[{\"type\":\"text\"}]}}";
#elif defined(NOT_JSON)
  static const char json[] = "<html>not a view tree</html>";
#else
  static const char json[] =
      "{\"version\":1,\"root\":{\"type\":\"button\",\"id\":\"go\",\"label\":{\"type\":\"text\",\"text\":\"Go\"}}}";
#endif
  *out = (tp_string){json, sizeof json - 1};
  return TP_STATUS_OK;
}

#if defined(CONNECT_IN_ACTION)
/* Tries to reach a listener on 127.0.0.1 at the port the input text names
 * (the environment does not reach a provider); returns what happened. */
static char *connect_to_listener(const tp_string *text) {
  static char outcome[64];
  char port[16] = {0};
  memcpy(port, text->data, text->length < sizeof port - 1 ? text->length : sizeof port - 1);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) {
    snprintf(outcome, sizeof outcome, "REFUSED:socket:%s", strerrorname_np(errno));
    return outcome;
  }
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port))};
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
    snprintf(outcome, sizeof outcome, "REFUSED:connect:%s", strerrorname_np(errno));
  } else {
    snprintf(outcome, sizeof outcome, "CONNECTED");
  }
  close(fd);
  return outcome;
}
#endif

#if defined(SOCKET_TRICKS)
#include <sys/syscall.h>
/* Ways around a filter that compares families exactly: the upper 32 bits set,
 * and families that reach a network less directly. */
static char *try_socket_tricks(void) {
  static char outcome[128];
  long families[] = {(1L << 32) | AF_INET, AF_INET6, AF_PACKET, AF_NETLINK, 43 /* AF_SMC */, 33 /* AF_RXRPC */,
                     30 /* AF_TIPC */, 40 /* AF_VSOCK */};
  for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
    long fd = syscall(SYS_socket, families[i], SOCK_STREAM, 0);
    if (fd >= 0 || errno != EPERM) {
      snprintf(outcome, sizeof outcome, "ESCAPED:%lx:%s", families[i], fd >= 0 ? "open" : strerrorname_np(errno));
      return outcome;
    }
  }
  snprintf(outcome, sizeof outcome, "ALL-REFUSED");
  return outcome;
}
#endif

#if defined(FLOOD_IN_ACTION)
static void flood(int fd) {
  static char block[1 << 16];
  memset(block, 'x', sizeof block);
  for (int i = 0; i < 1600; i++) { /* 100 MiB */
    if (write(fd, block, sizeof block) < 0) return;
  }
}
#endif

static tp_status perform_action(const tp_scene *scene, const char *id) {
  (void)scene;
  if (strcmp(id, "go") != 0) return TP_STATUS_NOT_FOUND;
#if defined(CRASH_IN_PERFORM)
  CRASH();
#elif defined(HANG_IN_ACTION)
  for (;;) pause();
#elif defined(SPIN_IN_ACTION)
  for (volatile unsigned long i = 0;; i++) {
  }
#elif defined(EXIT_IN_ACTION)
  _exit(7);
#elif defined(EXIT_ZERO_IN_ACTION)
  exit(0);
#elif defined(ABORT_IN_ACTION)
  abort();
#elif defined(ALLOCATE_IN_ACTION)
  for (;;) {
    char *block = malloc(1 << 26);
    if (!block) abort();
    memset(block, 1, 1 << 26);
  }
#elif defined(FORK_IN_ACTION)
  for (int i = 0; i < 2000; i++) {
    pid_t child = fork();
    if (child == 0) {
      setsid(); /* tries to leave the process group; the sandbox refuses */
      for (;;) pause();
    }
    if (child < 0) break;
  }
  for (;;) pause();
#elif defined(OVERSIZED_FRAME)
  /* Writes straight into the runner's protocol socket: a frame of 2 GiB. */
  static const unsigned char frame[] = {0x7f, 0xff, 0xff, 0xff};
  write(3, frame, sizeof frame);
#elif defined(NOT_UTF8_FRAME)
  /* A well-framed reply whose text is not UTF-8. */
  static const unsigned char frame[] = {0, 0, 0, 8, 1, 3, 0, 0, 0, 2, 0xC3, 0x28};
  write(3, frame, sizeof frame);
#elif defined(FORGE_FINISH)
  /* A finish event written straight to the socket: ".event(.finished("FORGED"))". */
  static const unsigned char frame[] = {0, 0, 0, 13, 2, 1, 1, 0, 0, 0, 6, 'F', 'O', 'R', 'G', 'E', 'D'};
  write(3, frame, sizeof frame);
#elif defined(CLOSE_AND_HANG)
  close(3);
  for (;;) pause();
#elif defined(EVENT_FLOOD)
  for (;;) current->expand_sheet(current);
#elif defined(DAEMON_CHILD)
  if (fork() == 0) {
    setsid();
    for (;;) pause();
  }
#elif defined(FLOOD_IN_ACTION)
  flood(STDOUT_FILENO);
  flood(STDERR_FILENO);
#elif defined(SLOW_PRESSES)
  /* A person who takes a while: three presses of PRESS_SECONDS each (each
     within its own deadline) before the scene finishes, longer in all than
     any one deadline and the caller's own call timeout (D-Bus Present). */
#ifndef PRESS_SECONDS
#define PRESS_SECONDS 21
#endif
  static int presses = 0;
  sleep(PRESS_SECONDS);
  if (++presses < 3) return TP_STATUS_OK;
#endif
  free(upper);
#if defined(CONNECT_IN_ACTION)
  upper = strdup(connect_to_listener(&current->input_text));
#elif defined(SOCKET_TRICKS)
  upper = strdup(try_socket_tricks());
#else
  upper = uppercase(&current->input_text);
#endif
  tp_string translation = {upper, strlen(upper)};
  current->finish(current, &translation);
#if defined(FINISH_TWICE)
  tp_string other = {"SECOND", 6};
  current->finish(current, &other);
#endif
  return TP_STATUS_OK;
}

static tp_status set_text(const tp_scene *scene, const char *id, tp_string value) {
  (void)scene; (void)id; (void)value;
#if defined(CRASH_IN_SET_TEXT)
  CRASH();
#endif
  return TP_STATUS_NOT_FOUND;
}

static void destroy(const tp_scene *scene) {
  (void)scene;
#if defined(CRASH_IN_DESTROY)
  CRASH();
#endif
  current = NULL;
}

static const tp_scene the_scene = {sizeof(tp_scene), NULL, render, perform_action, set_text, destroy};

static const tp_scene *create_scene(const tp_context *context) {
#if defined(CRASH_IN_CREATE_SCENE)
  CRASH();
#endif
  current = context;
  return &the_scene;
}

static const tp_selected_text_scene_factory factory = {sizeof factory, create_scene};

/* Creates request-received in the provider's container (its HOME): the
 * tests' sign that a request reached the provider, instead of sleeping and
 * hoping it did. */
static void mark_request_received(void) {
  const char *home = getenv("HOME");
  char marker[4096];
  if (!home || snprintf(marker, sizeof marker, "%s/request-received", home) >= (int)sizeof marker) return;
  FILE *file = fopen(marker, "w");
  if (file) fclose(file);
}

static tp_status translate(const char *source, const char *target, const tp_string *texts, size_t count,
                           const tp_translation_sink *sink, tp_string *message) {
  (void)message;
  mark_request_received();
#if defined(CRASH_IN_TRANSLATE)
  CRASH();
#elif defined(SLOW_TRANSLATE)
  usleep(1000 * 1000); /* answers, a second late (the service's shutdown and disconnect tests) */
#endif
  if (strcmp(source, "en") != 0 || strcmp(target, "en-x-upper") != 0) return TP_STATUS_UNSUPPORTED_LANGUAGE_PAIRING;
  for (size_t i = 0; i < count; i++) {
#if defined(SLOW_PER_TEXT)
    usleep(2 * 1000); /* two milliseconds a text (the service's fairness tests) */
#endif
#if defined(TEXT_TRIGGERS)
    /* The text decides: "crash" crashes, "hang" never answers, "nothing" is
       nothing to translate; others translate. */
    if (texts[i].length == 5 && memcmp(texts[i].data, "crash", 5) == 0) CRASH();
    if (texts[i].length == 7 && memcmp(texts[i].data, "nothing", 7) == 0) return TP_STATUS_NOTHING_TO_TRANSLATE;
    if (texts[i].length == 4 && memcmp(texts[i].data, "hang", 4) == 0) for (;;) pause();
#endif
#if defined(SKIP_ANSWER)
    if (i == count - 1) break;
#endif
    char *out = uppercase(&texts[i]);
    sink->translation(sink, i, (tp_string){out, texts[i].length});
    free(out);
  }
  return TP_STATUS_OK;
}

static tp_status languages(const tp_language_sink *sink) {
#if defined(CRASH_IN_LANGUAGES)
  CRASH();
#endif
  sink->pair(sink, "en", "en-x-upper", TP_AVAILABILITY_INSTALLED, (tp_string){NULL, 0});
  return TP_STATUS_OK;
}

static const tp_translator translator = {sizeof translator, translate, languages};

static bool init(const tp_host *host) {
  (void)host;
#if defined(CRASH_IN_INIT)
  CRASH();
#endif
#if defined(SLOW_INIT)
  sleep(10); /* starts, ten seconds late (the library's cancel-while-starting tests: time enough to cancel on a loaded machine) */
#elif defined(HANG_IN_INIT)
  for (;;) pause(); /* never finishes loading (the service's cold-start tests) */
#endif
#if defined(INIT_FAILS)
  return false;
#else
  return true;
#endif
}

static void deinit(void) {}

static const void *get_capability(const char *id) {
#if defined(CRASH_IN_GET_CAPABILITY)
  CRASH();
#endif
  if (strcmp(id, TP_CAPABILITY_SELECTED_TEXT_SCENE) == 0) return &factory;
  if (strcmp(id, TP_CAPABILITY_TRANSLATE) == 0) return &translator;
  return NULL;
}

#ifndef ABI_MAJOR
#define ABI_MAJOR TP_ABI_VERSION_MAJOR
#endif
#ifndef ENTRY_SIZE
#define ENTRY_SIZE sizeof(tp_entry)
#endif

static const tp_entry entry = {ENTRY_SIZE, ABI_MAJOR, 7, init, deinit, get_capability};

#if !defined(NO_ENTRY)
TP_EXPORT const tp_entry *translation_provider_entry(void) {
#if defined(NULL_ENTRY)
  return NULL;
#else
  return &entry;
#endif
}
#endif
