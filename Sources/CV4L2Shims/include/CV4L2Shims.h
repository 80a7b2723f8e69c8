#pragma once
// Wrappers for what Swift cannot import from libv4l2 (variadic calls, VIDIOC_* macros). Issue 6.
int CV4L2Shims_placeholder(void);
