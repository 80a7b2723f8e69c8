#include "CV4L2Shims.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "CLibraryLoader.h"

// The libv4l2 functions this shim calls, as libv4l2.h declares them (libv4l-dev is not needed).
typedef int (*v4l2_open_fn)(const char *file, int oflag, ...);
typedef int (*v4l2_close_fn)(int fd);
typedef int (*v4l2_ioctl_fn)(int fd, unsigned long int request, ...);
typedef void *(*v4l2_mmap_fn)(void *start, size_t length, int prot, int flags, int fd, int64_t offset);
typedef int (*v4l2_munmap_fn)(void *start, size_t length);

// Filled once by CLibraryLoader under its lock before `loaded` is set (release); read after
// `loaded` (acquire).
static v4l2_open_fn p_open;
static v4l2_close_fn p_close;
static v4l2_ioctl_fn p_ioctl;
static v4l2_mmap_fn p_mmap;
static v4l2_munmap_fn p_munmap;
static int loaded;

// The table CLibraryLoader fills, by the libv4l2 name of each function.
static const CLibraryLoader_Symbol symbols[] = {
    {"v4l2_open", (void **)&p_open},   {"v4l2_close", (void **)&p_close},   {"v4l2_ioctl", (void **)&p_ioctl},
    {"v4l2_mmap", (void **)&p_mmap}, {"v4l2_munmap", (void **)&p_munmap},
};

static int is_loaded(void) { return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE); }

int CV4L2Shims_load(const char *soname, char *why, size_t capacity) {
  return CLibraryLoader_load(soname, symbols, sizeof symbols / sizeof symbols[0], &loaded, why, capacity);
}

int CV4L2Shims_directOpen(const char *path, int flags) { return open(path, flags | O_CLOEXEC); }

int CV4L2Shims_directClose(int fd) { return close(fd); }

int CV4L2Shims_directIoctl(int fd, unsigned long request, void *argument) { return ioctl(fd, request, argument); }

void *CV4L2Shims_directMmap(int fd, size_t length, int64_t offset) {
  void *p = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
  return p == MAP_FAILED ? NULL : p;
}

int CV4L2Shims_directMunmap(void *start, size_t length) { return munmap(start, length); }

int CV4L2Shims_open(const char *path, int flags) {
  if (!is_loaded()) { errno = ELIBACC; return -1; }
  return p_open(path, flags);
}

int CV4L2Shims_close(int fd) {
  if (!is_loaded()) { errno = ELIBACC; return -1; }
  return p_close(fd);
}

int CV4L2Shims_ioctl(int fd, unsigned long request, void *argument) {
  if (!is_loaded()) { errno = ELIBACC; return -1; }
  return p_ioctl(fd, request, argument);
}

void *CV4L2Shims_mmap(int fd, size_t length, int64_t offset) {
  if (!is_loaded()) { errno = ELIBACC; return NULL; }
  void *p = p_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
  return p == MAP_FAILED ? NULL : p;
}

int CV4L2Shims_munmap(void *start, size_t length) {
  if (!is_loaded()) { errno = ELIBACC; return -1; }
  return p_munmap(start, length);
}

void CV4L2Shims_packLuma(
    const uint8_t *luma, int width, int height, int lumaStride, uint8_t *frame, size_t frameSize,
    int bytesPerLine, int packing, int firstRow, int endRow, int fillChroma) {
  int bytesPerPixel = packing == CV4L2Shims_LumaPackingPlane ? 1
                      : packing == CV4L2Shims_LumaPackingThreeBytes ? 3
                      : packing == CV4L2Shims_LumaPackingFourBytes ? 4 : 2;
  if (width <= 0 || height <= 0 || bytesPerLine < width * bytesPerPixel) return;
  if (firstRow < 0) firstRow = 0;
  if (endRow > height) endRow = height;
  for (int y = firstRow; y < endRow; y++) {
    size_t start = (size_t)y * (size_t)bytesPerLine;
    if (start + (size_t)width * (size_t)bytesPerPixel > frameSize) return;
    const uint8_t *in = luma + (size_t)y * (size_t)lumaStride;
    uint8_t *out = frame + start;
    // At -O0 (a debug build) the loops below cost ~2 ns a pixel natively and ten times that under
    // emulation; a row equal to the one above is one libc memcmp and memcpy instead.
    if (y > firstRow && packing != CV4L2Shims_LumaPackingPlane
        && memcmp(in, in - lumaStride, (size_t)width) == 0) {
      memcpy(out, out - bytesPerLine, (size_t)width * (size_t)bytesPerPixel);
      continue;
    }
    switch (packing) {
      case CV4L2Shims_LumaPackingPlane: memcpy(out, in, (size_t)width); break;
      case CV4L2Shims_LumaPackingYFirst:
        for (int x = 0; x < width; x++) { out[2 * x] = in[x]; if (fillChroma) out[2 * x + 1] = 128; }
        break;
      case CV4L2Shims_LumaPackingYSecond:
        for (int x = 0; x < width; x++) { out[2 * x + 1] = in[x]; if (fillChroma) out[2 * x] = 128; }
        break;
      case CV4L2Shims_LumaPackingThreeBytes:
        for (int x = 0; x < width; x++) memset(out + 3 * x, in[x], 3);
        break;
      case CV4L2Shims_LumaPackingFourBytes:
        for (int x = 0; x < width; x++) memset(out + 4 * x, in[x], 4);
        break;
      default: return;
    }
  }
  if (fillChroma && packing == CV4L2Shims_LumaPackingPlane) {
    size_t plane = (size_t)height * (size_t)bytesPerLine;
    if (plane < frameSize) memset(frame + plane, 128, frameSize - plane);
  }
}

const unsigned long CV4L2Shims_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
const unsigned long CV4L2Shims_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
const unsigned long CV4L2Shims_VIDIOC_G_FMT = VIDIOC_G_FMT;
const unsigned long CV4L2Shims_VIDIOC_S_FMT = VIDIOC_S_FMT;
const unsigned long CV4L2Shims_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
const unsigned long CV4L2Shims_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
const unsigned long CV4L2Shims_VIDIOC_G_PARM = VIDIOC_G_PARM;
const unsigned long CV4L2Shims_VIDIOC_G_DV_TIMINGS = VIDIOC_G_DV_TIMINGS;
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
