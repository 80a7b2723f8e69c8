#include "CPlatformShims.h"
#include <sys/prctl.h>

int CPlatformShims_setParentDeathSignal(int signal) {
  return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}
