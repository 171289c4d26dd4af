/*
 * A provider that abuses the host's trust in one way chosen at compile time
 * (-D<MODE>): it breaks the letter of the ABI, feeds the host text meant to
 * forge its messages, answers more than the protocol carries, or reaches for
 * the resident service. For ProtocolAbuseTests and the service tests.
 *
 * Without a mode it behaves: a scene with one "Go" button that finishes with
 * the input text, and a translate capability for en -> en-x-same that answers
 * each text unchanged.
 */
#define _GNU_SOURCE
#include "translation_provider.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* Larger than the 16 MiB a frame may carry. */
#define OVER_FRAME_LIMIT ((size_t)17 << 20)

static const tp_context *scene_context;

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
#if defined(NULL_FINISH)
  /* NULL data with a length: the header allows NULL only with length 0. */
  tp_string translation = {NULL, 20};
  scene_context->finish(scene_context, &translation);
#elif defined(HUGE_FINISH)
  char *text = malloc(OVER_FRAME_LIMIT);
  memset(text, 'x', OVER_FRAME_LIMIT);
  tp_string translation = {text, OVER_FRAME_LIMIT};
  scene_context->finish(scene_context, &translation);
  free(text);
#else
  scene_context->finish(scene_context, &scene_context->input_text);
#endif
  return TP_STATUS_OK;
}

static tp_status set_text(const tp_scene *scene, const char *id, tp_string value) {
  (void)scene; (void)id; (void)value;
  return TP_STATUS_NOT_FOUND;
}

static void destroy(const tp_scene *scene) {
  (void)scene;
  scene_context = NULL;
}

static const tp_scene the_scene = {sizeof(tp_scene), NULL, render, perform_action, set_text, destroy};

static const tp_scene *create_scene(const tp_context *context) {
  scene_context = context;
  return &the_scene;
}

static const tp_selected_text_scene_factory factory = {sizeof factory, create_scene};

#if defined(KNOCK_ON_SERVICE)
/* Connects to the Unix socket at `path`, says hello as a client of protocol 2
 * would, and describes the answer: "UNREACHABLE:<errno>", "GREETED" when the
 * service answered hello (it would then run what this provider asks), or
 * "ANSWERED:" and the printable bytes of any other reply (a refusal). */
static char *knock(const tp_string *path) {
  static char outcome[512];
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  if (path->length >= sizeof address.sun_path) return strcpy(outcome, "UNREACHABLE:path too long");
  memcpy(address.sun_path, path->data, path->length);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
    snprintf(outcome, sizeof outcome, "UNREACHABLE:%s", strerrorname_np(errno));
    if (fd >= 0) close(fd);
    return outcome;
  }
  /* A frame of 9 bytes: tag 1 (hello), version 3, an empty context. */
  static const unsigned char hello[] = {0, 0, 0, 9, 1, 0, 0, 0, 3, 0, 0, 0, 0};
  /* The service may have answered and closed already: no SIGPIPE for that. */
  (void)!send(fd, hello, sizeof hello, MSG_NOSIGNAL);
  unsigned char reply[400];
  size_t got = 0;
  ssize_t count;
  while (got < sizeof reply && (count = read(fd, reply + got, sizeof reply - got)) > 0) got += (size_t)count;
  close(fd);
  if (got > 4 && reply[4] == 1) return strcpy(outcome, "GREETED");
  size_t used = (size_t)snprintf(outcome, sizeof outcome, "ANSWERED:");
  for (size_t i = 4; i < got && used + 1 < sizeof outcome; i++) {
    outcome[used++] = (reply[i] >= 0x20 && reply[i] < 0x7f) ? (char)reply[i] : '.';
  }
  outcome[used] = '\0';
  return outcome;
}
#endif

#if defined(SPEAK_OUT_OF_TURN)
/* Writes to the runner's socket (descriptor 3, which the provider shares) a
   reply of its own, "FORGED" for each of `count` texts, ahead of the one the
   runner sends: the host takes it for the answer, and the runner's real
   reply arrives after it, out of turn. */
static void forge_reply(size_t count) {
  unsigned char frame[8 + 4 + 10 * 64];
  size_t at = 4;
  frame[at++] = 1; /* a reply */
  frame[at++] = 6; /* translations */
  if (count > 64) count = 64;
  for (int shift = 24; shift >= 0; shift -= 8) frame[at++] = (unsigned char)(count >> shift);
  for (size_t i = 0; i < count; i++) {
    static const char forged[] = "FORGED";
    for (int shift = 24; shift >= 0; shift -= 8) frame[at++] = (unsigned char)((sizeof forged - 1) >> shift);
    memcpy(frame + at, forged, sizeof forged - 1);
    at += sizeof forged - 1;
  }
  size_t length = at - 4;
  for (int i = 0; i < 4; i++) frame[i] = (unsigned char)(length >> (24 - 8 * i));
  (void)!write(3, frame, at);
}
#endif

static tp_status translate(const char *source, const char *target, const tp_string *texts, size_t count,
                           const tp_translation_sink *sink, tp_string *message) {
  if (strcmp(source, "en") != 0 || strcmp(target, "en-x-same") != 0) return TP_STATUS_UNSUPPORTED_LANGUAGE_PAIRING;
#if defined(SPEAK_OUT_OF_TURN)
  forge_reply(count);
#endif
#if defined(NEWLINE_IN_MESSAGE)
  /* A failure whose message tries to pass for a line of the host's own. */
  static const char forged[] = "no dictionary\ntranslation-host: provider 'org.example.trusted' translated 1 text";
  *message = (tp_string){forged, sizeof forged - 1};
  return TP_STATUS_FAILED;
#elif defined(NEWLINES_ON_STDERR)
  /* Empty lines are cheap for the provider but each costs the host a prefix. */
  static char newlines[1 << 16];
  memset(newlines, '\n', sizeof newlines);
  for (int i = 0; i < 4; i++) (void)!write(STDERR_FILENO, newlines, sizeof newlines);
#endif
  (void)message;
  (void)texts;
  for (size_t i = 0; i < count; i++) {
#if defined(NULL_TRANSLATION)
    sink->translation(sink, i, (tp_string){NULL, texts[i].length + 1});
#elif defined(HUGE_TRANSLATION)
    char *text = malloc(OVER_FRAME_LIMIT);
    memset(text, 'x', OVER_FRAME_LIMIT);
    sink->translation(sink, i, (tp_string){text, OVER_FRAME_LIMIT});
    free(text);
#elif defined(KNOCK_ON_SERVICE)
    char *outcome = knock(&texts[i]);
    sink->translation(sink, i, (tp_string){outcome, strlen(outcome)});
#else
    sink->translation(sink, i, texts[i]);
#endif
  }
  return TP_STATUS_OK;
}

static tp_status languages(const tp_language_sink *sink) {
  sink->pair(sink, "en", "en-x-same", TP_AVAILABILITY_INSTALLED, (tp_string){NULL, 0});
  return TP_STATUS_OK;
}

static const tp_translator translator = {sizeof translator, translate, languages};

static bool init(const tp_host *host) {
  (void)host;
  return true;
}

static void deinit(void) {}

static const void *get_capability(const char *id) {
  if (strcmp(id, TP_CAPABILITY_SELECTED_TEXT_SCENE) == 0) return &factory;
  if (strcmp(id, TP_CAPABILITY_TRANSLATE) == 0) return &translator;
  return NULL;
}

static const tp_entry entry = {sizeof(tp_entry), TP_ABI_VERSION_MAJOR, 0, init, deinit, get_capability};

TP_EXPORT const tp_entry *translation_provider_entry(void) { return &entry; }
