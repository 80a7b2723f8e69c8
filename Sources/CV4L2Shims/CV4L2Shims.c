#include "CV4L2Shims.h"

#include <fcntl.h>
#include <libv4l2.h>
#include <sys/mman.h>

int CV4L2Shims_open(const char *path, int flags) { return v4l2_open(path, flags); }

int CV4L2Shims_close(int fd) { return v4l2_close(fd); }

int CV4L2Shims_ioctl(int fd, unsigned long request, void *argument) {
  return v4l2_ioctl(fd, request, argument);
}

void *CV4L2Shims_mmap(int fd, size_t length, int64_t offset) {
  void *p = v4l2_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (int64_t)offset);
  return p == MAP_FAILED ? NULL : p;
}

int CV4L2Shims_munmap(void *start, size_t length) { return v4l2_munmap(start, length); }

const unsigned long CV4L2Shims_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
const unsigned long CV4L2Shims_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
const unsigned long CV4L2Shims_VIDIOC_G_FMT = VIDIOC_G_FMT;
const unsigned long CV4L2Shims_VIDIOC_S_FMT = VIDIOC_S_FMT;
const unsigned long CV4L2Shims_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
const unsigned long CV4L2Shims_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
const unsigned long CV4L2Shims_VIDIOC_G_PARM = VIDIOC_G_PARM;
const unsigned long CV4L2Shims_VIDIOC_S_PARM = VIDIOC_S_PARM;
const unsigned long CV4L2Shims_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
const unsigned long CV4L2Shims_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
const unsigned long CV4L2Shims_VIDIOC_QBUF = VIDIOC_QBUF;
const unsigned long CV4L2Shims_VIDIOC_DQBUF = VIDIOC_DQBUF;
const unsigned long CV4L2Shims_VIDIOC_STREAMON = VIDIOC_STREAMON;
const unsigned long CV4L2Shims_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
const unsigned long CV4L2Shims_VIDIOC_QUERYCTRL = VIDIOC_QUERYCTRL;
const unsigned long CV4L2Shims_VIDIOC_QUERY_EXT_CTRL = VIDIOC_QUERY_EXT_CTRL;
const unsigned long CV4L2Shims_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
const unsigned long CV4L2Shims_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
