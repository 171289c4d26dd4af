#include "host_process.h"

#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

int tp_host_forbid_attaching(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

int tp_host_allow_attaching(void) { return prctl(PR_SET_DUMPABLE, 1, 0, 0, 0); }

int tp_host_is_attachable(void) { return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0); }

int tp_host_close_with_parent(int parent) {
  if (prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0) != 0) return -1;
  if (getppid() != parent) {
    errno = ESRCH;
    return -1;
  }
  return 0;
}
