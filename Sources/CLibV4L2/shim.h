#pragma once
// libv4l2 (apt: libv4l-dev): v4l2_open/v4l2_ioctl/v4l2_mmap with format conversion in user space.
#include <libv4l2.h>
#include <linux/videodev2.h>
