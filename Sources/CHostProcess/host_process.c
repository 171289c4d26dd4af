#include "host_process.h"

#include <sys/prctl.h>

int tp_host_forbid_attaching(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }
