#define _GNU_SOURCE
#include "CPlatformShims.h"
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

int CPlatformShims_setParentDeathSignal(int signal) {
  return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

int CPlatformShims_pipeCloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int CPlatformShims_setCurrentThreadName(const char *name) {
  return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
