#include "CV4L2Shims.h"
int CV4L2Shims_placeholder(void) { return 0; }
