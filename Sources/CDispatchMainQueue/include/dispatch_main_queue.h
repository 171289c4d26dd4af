/*
 * dispatch_main_queue.h: lets a runner's own loop run the main dispatch queue
 * (and with it Swift's MainActor), as an app's run loop does, without
 * Foundation. libdispatch on Linux exports these two functions for
 * CoreFoundation's run loop: a descriptor that becomes readable when the main
 * queue has work, and the call that runs that work. Both must be called on the
 * process's main thread.
 */
#ifndef TP_DISPATCH_MAIN_QUEUE_H
#define TP_DISPATCH_MAIN_QUEUE_H

#include <stdint.h>
#include <unistd.h>

int _dispatch_get_main_queue_handle_4CF(void);
void _dispatch_main_queue_callback_4CF(void *message);

/* The descriptor that is readable while the main queue has work (an eventfd). */
static inline int tp_main_queue_descriptor(void) { return _dispatch_get_main_queue_handle_4CF(); }

/* Runs the work queued on the main queue so far. Consumes the descriptor's
 * wake-up first, so that work queued while it runs wakes the loop again. */
static inline void tp_main_queue_drain(void) {
  uint64_t count;
  (void)read(_dispatch_get_main_queue_handle_4CF(), &count, sizeof count);
  _dispatch_main_queue_callback_4CF(0);
}

#endif
