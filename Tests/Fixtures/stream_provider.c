/*
 * A provider of tp.translate.stream/1 (ABI 2.1) that breaks the stream's
 * rules where a text asks it to, for the runner's stream tests. It translates
 * from "en" to "en-x-upper" (upper case) and "en-x-lower" (lower case), takes
 * every text there is, then answers them in reverse order (the rules allow
 * any order), and calls again for more. With -DWORKER_THREAD a thread of its
 * own takes and answers the texts while the call waits for it.
 *
 * Texts that break a rule (each by itself, so that a table can mix them):
 *   "twice"    answered twice
 *   "unknown"  answered, and an index it was never given answered too
 *   "ahead"    answered, and the index after it answered too (the next text's)
 *   "silent"   never answered; the call returns OK
 *   "hold"     never answered; the call waits on the descriptor for ever
 *   "block"    the call blocks for ever as soon as it takes it
 *   "late"     the call fails at once ("cancelled"); a thread answers it, and
 *              asks for more, 300 ms later through the call's sink and source
 *   "slow"     answered after 600 ms (a late answer then meets a later call)
 *   "huge"     answered with 17 MiB, more than the runner protocol carries
 *   "big"      answered with 9 MiB (two make a request too large)
 *   "null"     answered with NULL data and a length of 5
 *   "invalid"  answered with bytes that are not UTF-8
 */
#define _GNU_SOURCE
#include "translation_provider.h"

#include <ctype.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tp_provider {
  const tp_host *host;
};

typedef struct taken_text {
  size_t index;
  char *text;
  size_t length;
} taken_text;

typedef struct call {
  const tp_text_source *texts;
  const tp_translation_sink *sink;
  int lower;
  tp_status status;
  const char *message;
} call;

static int is(const taken_text *t, const char *word) {
  return t->length == strlen(word) && memcmp(t->text, word, t->length) == 0;
}

static void answer_bytes(const tp_translation_sink *sink, size_t index, size_t length, char fill) {
  char *bytes = malloc(length);
  if (!bytes) return;
  memset(bytes, fill, length);
  sink->translation(sink, index, (tp_string){bytes, length});
  free(bytes);
}

static void answer(const call *c, const taken_text *t) {
  char *out = malloc(t->length + 1);
  if (!out) return;
  for (size_t i = 0; i < t->length; i++) {
    unsigned char ch = (unsigned char)t->text[i];
    out[i] = (char)(c->lower ? tolower(ch) : toupper(ch));
  }
  c->sink->translation(c->sink, t->index, (tp_string){out, t->length});
  free(out);
}

typedef struct late_answer {
  const tp_text_source *texts;
  const tp_translation_sink *sink;
  size_t index;
} late_answer;

static void *answer_late(void *argument) {
  late_answer *late = argument;
  usleep(300 * 1000);
  late->sink->translation(late->sink, late->index, (tp_string){"LATE", 4});
  size_t index;
  tp_string text;
  late->texts->next(late->texts, &index, &text);
  free(late);
  return NULL;
}

/* Answers what was taken, last first; returns 0 to go on, 1 to return now. */
static int answer_all(call *c, taken_text *taken, size_t count) {
  int hold = 0;
  for (size_t n = count; n-- > 0;) {
    taken_text *t = &taken[n];
    if (is(t, "silent")) continue;
    if (is(t, "hold")) {
      hold = 1;
      continue;
    }
    if (is(t, "slow")) usleep(600 * 1000);
    if (is(t, "huge")) {
      answer_bytes(c->sink, t->index, 17u << 20, 'H');
    } else if (is(t, "big")) {
      answer_bytes(c->sink, t->index, 9u << 20, 'B');
    } else if (is(t, "null")) {
      c->sink->translation(c->sink, t->index, (tp_string){NULL, 5});
    } else if (is(t, "invalid")) {
      c->sink->translation(c->sink, t->index, (tp_string){"\xff\xfe", 2});
    } else if (is(t, "ahead")) {
      c->sink->translation(c->sink, t->index + 1, (tp_string){"AHEAD", 5});
      answer(c, t);
    } else {
      answer(c, t);
      if (is(t, "twice")) answer(c, t);
      if (is(t, "unknown")) c->sink->translation(c->sink, t->index + 1000000, (tp_string){"STRAY", 5});
    }
  }
  while (hold) {
    /* Waits for more as a real engine does, and never answers. */
    if (c->texts->descriptor >= 0) {
      struct pollfd p = {c->texts->descriptor, POLLIN, 0};
      poll(&p, 1, 1000);
    } else {
      sleep(1);
    }
  }
  return 0;
}

static void run(call *c) {
  taken_text *taken = NULL;
  size_t count = 0, capacity = 0;
  for (;;) {
    size_t index;
    tp_string text;
    int32_t got = c->texts->next(c->texts, &index, &text);
    if (got == 1) {
      if (count == capacity) {
        capacity = capacity ? capacity * 2 : 16;
        taken = realloc(taken, capacity * sizeof *taken);
      }
      taken_text *t = &taken[count++];
      t->index = index;
      t->length = text.length;
      t->text = malloc(text.length + 1);
      memcpy(t->text, text.data, text.length);
      if (is(t, "block")) {
        for (;;) pause();
      }
      if (is(t, "late")) {
        late_answer *late = malloc(sizeof *late);
        *late = (late_answer){c->texts, c->sink, index};
        pthread_t thread;
        pthread_create(&thread, NULL, answer_late, late);
        pthread_detach(thread);
        c->status = TP_STATUS_FAILED;
        c->message = "cancelled";
        break;
      }
      continue;
    }
    if (count == 0) break; /* nothing now (0) or no more (-1): every text taken is answered */
    answer_all(c, taken, count);
    for (size_t n = 0; n < count; n++) free(taken[n].text);
    count = 0;
  }
  for (size_t n = 0; n < count; n++) free(taken[n].text);
  free(taken);
}

static void *run_thread(void *argument) {
  run(argument);
  return NULL;
}

static tp_status stream_translate(tp_provider *self, const char *source, const char *target,
                                  const tp_text_source *texts, const tp_translation_sink *sink,
                                  tp_string *out_message) {
  (void)self;
  static const char only[] = "this fixture translates only from 'en' to 'en-x-upper' or 'en-x-lower'";
  int lower = strcmp(target, "en-x-lower") == 0;
  if (strcmp(source, "en") != 0 || (!lower && strcmp(target, "en-x-upper") != 0)) {
    *out_message = (tp_string){only, sizeof only - 1};
    return TP_STATUS_UNSUPPORTED_LANGUAGE_PAIRING;
  }
  call c = {texts, sink, lower, TP_STATUS_OK, NULL};
#ifdef WORKER_THREAD
  pthread_t worker;
  pthread_create(&worker, NULL, run_thread, &c);
  pthread_join(worker, NULL);
#else
  (void)run_thread;
  run(&c);
#endif
  if (c.message) *out_message = (tp_string){c.message, strlen(c.message)};
  return c.status;
}

static tp_status batch_translate(tp_provider *self, const char *source, const char *target, const tp_string *texts,
                                 size_t count, const tp_translation_sink *sink, tp_string *out_message) {
  (void)self;
  (void)source;
  (void)out_message;
  int lower = strcmp(target, "en-x-lower") == 0;
  call c = {NULL, sink, lower, TP_STATUS_OK, NULL};
  for (size_t i = 0; i < count; i++) {
    taken_text t = {i, (char *)texts[i].data, texts[i].length};
    answer(&c, &t);
  }
  return TP_STATUS_OK;
}

static tp_status languages(tp_provider *self, const tp_language_sink *sink) {
  (void)self;
  sink->pair(sink, "en", "en-x-upper", TP_AVAILABILITY_INSTALLED, (tp_string){NULL, 0});
  sink->pair(sink, "en", "en-x-lower", TP_AVAILABILITY_INSTALLED, (tp_string){NULL, 0});
  return TP_STATUS_OK;
}

static const tp_translator translator = {sizeof translator, batch_translate, languages};
static const tp_stream_translator stream_translator = {sizeof stream_translator, stream_translate};

static tp_provider *create(const tp_host *host) {
  tp_provider *self = calloc(1, sizeof *self);
  if (self) self->host = host;
  return self;
}

static void destroy(tp_provider *self) { free(self); }

static const void *get_capability(tp_provider *self, const char *id) {
  (void)self;
  if (strcmp(id, TP_CAPABILITY_TRANSLATE) == 0) return &translator;
  if (strcmp(id, TP_CAPABILITY_TRANSLATE_STREAM) == 0) return &stream_translator;
  return NULL;
}

static const tp_entry entry = {sizeof(tp_entry), TP_ABI_VERSION_MAJOR, TP_ABI_VERSION_MINOR,
                               create, destroy, get_capability};

TP_EXPORT const tp_entry *translation_provider_entry_v2(void) { return &entry; }
