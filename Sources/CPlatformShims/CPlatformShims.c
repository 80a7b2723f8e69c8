#define _GNU_SOURCE
#include "CPlatformShims.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

int CPlatformShims_setParentDeathSignal(int signal) {
  return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

int CPlatformShims_pipeCloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int CPlatformShims_setCurrentThreadName(const char *name) {
  return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

int CPlatformShims_memfdCreateSealable(const char *name) {
  return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int CPlatformShims_sealSize(int fd) {
  return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
}

int CPlatformShims_sizeIsSealed(int fd) {
  int seals = fcntl(fd, F_GET_SEALS);
  if (seals < 0) return -1;
  return (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) == (F_SEAL_SHRINK | F_SEAL_GROW);
}
