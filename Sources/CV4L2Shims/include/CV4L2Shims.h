#pragma once
// CV4L2Shims: what Swift cannot import from libv4l2 and <linux/videodev2.h>.
//
// - libv4l2 loaded at run time (dlopen, through CLibraryLoader) on first use, so that a program
//   that never opens a V4L2 camera maps no video library and the build needs no libv4l-dev: its
//   few functions are declared here, not taken from <libv4l2.h>;
// - libv4l2's variadic v4l2_open/v4l2_ioctl wrapped as fixed-arity functions;
// - the VIDIOC_* request codes (function-like _IOWR macros) as constants;
// - v4l2_mmap's MAP_FAILED folded into a NULL return.
// Everything is prefixed CV4L2Shims_ (STYLE.md rule 5). Swift reaches these only through
// V4L2Kernel.system, the one seam that tests replace with a fake kernel.
#include <linux/videodev2.h>
#include <stddef.h>
#include <stdint.h>

/// Loads libv4l2 from `soname` (dlopen, RTLD_NOW | RTLD_LOCAL) and, the first time, binds the
/// functions below to it: 0 when `soname` loads, -1 when it or one of its functions is missing,
/// with why (dlerror's text) in `why` (`capacity` bytes, NUL-terminated). A later call tries
/// again. Thread-safe.
int CV4L2Shims_load(const char *soname, char *why, size_t capacity);

/// v4l2_open(path, flags): a descriptor, or -1 with errno set (ELIBACC when libv4l2 is not loaded).
int CV4L2Shims_open(const char *path, int flags);
/// v4l2_close(fd).
int CV4L2Shims_close(int fd);
/// v4l2_ioctl(fd, request, argument): 0 (or a positive value), or -1 with errno set.
int CV4L2Shims_ioctl(int fd, unsigned long request, void *argument);
/// v4l2_mmap(NULL, length, PROT_READ|PROT_WRITE, MAP_SHARED, fd, offset): NULL with errno on failure.
void *CV4L2Shims_mmap(int fd, size_t length, int64_t offset);
/// v4l2_munmap(start, length).
int CV4L2Shims_munmap(void *start, size_t length);

/// The kernel's own calls, bypassing libv4l2 (which answers VIDIOC_G_FMT on a capture node from
/// what it cached at open or at its own S_FMT, so it never sees another process change the
/// format): open(path, flags | O_CLOEXEC), close, ioctl, each -1 with errno on failure.
int CV4L2Shims_directOpen(const char *path, int flags);
int CV4L2Shims_directClose(int fd);
int CV4L2Shims_directIoctl(int fd, unsigned long request, void *argument);
/// mmap(NULL, length, PROT_READ|PROT_WRITE, MAP_SHARED, fd, offset): NULL with errno on failure.
void *CV4L2Shims_directMmap(int fd, size_t length, int64_t offset);
int CV4L2Shims_directMunmap(void *start, size_t length);

/// How a luma image is laid into a V4L2 pixel format by CV4L2Shims_packLuma.
enum CV4L2Shims_LumaPacking {
  /// The Y plane first (GREY, and the planar and semi-planar YUV formats); what follows the Y
  /// plane (chroma) is set to 128, a grey picture.
  CV4L2Shims_LumaPackingPlane = 1,
  /// 4:2:2 packed with Y in even bytes (YUYV, YVYU); chroma bytes 128.
  CV4L2Shims_LumaPackingYFirst = 2,
  /// 4:2:2 packed with Y in odd bytes (UYVY, VYUY); chroma bytes 128.
  CV4L2Shims_LumaPackingYSecond = 3,
  /// 3 bytes per pixel, each the luma value (RGB24, BGR24: a grey picture).
  CV4L2Shims_LumaPackingThreeBytes = 4,
  /// 4 bytes per pixel, each the luma value (the 32-bit RGB formats: a grey picture).
  CV4L2Shims_LumaPackingFourBytes = 5,
};

/// Writes rows `firstRow ..< endRow` of the luma image `luma` (`width` × `height`, `lumaStride`
/// bytes per row) into the frame `frame` (`frameSize` bytes, `bytesPerLine` bytes per row of its
/// first plane) laid out as `packing` says; with `fillChroma`, also sets the chroma (every byte
/// after the Y plane for CV4L2Shims_LumaPackingPlane). Nothing is written outside `frameSize`.
/// Plain C for speed: a debug build of Swift is too slow for a frame per pixel at 60 fps. A row
/// whose luma equals the row above it is copied from the row above in the frame (the board's
/// bands are rows of equal luma), so without `fillChroma` that row's chroma becomes the row
/// above's: the same, in a frame whose chroma is uniform (as this function fills it).
void CV4L2Shims_packLuma(
    const uint8_t *luma, int width, int height, int lumaStride, uint8_t *frame, size_t frameSize,
    int bytesPerLine, int packing, int firstRow, int endRow, int fillChroma);

extern const unsigned long CV4L2Shims_VIDIOC_QUERYCAP;
extern const unsigned long CV4L2Shims_VIDIOC_ENUM_FMT;
extern const unsigned long CV4L2Shims_VIDIOC_G_FMT;
extern const unsigned long CV4L2Shims_VIDIOC_S_FMT;
extern const unsigned long CV4L2Shims_VIDIOC_ENUM_FRAMESIZES;
extern const unsigned long CV4L2Shims_VIDIOC_ENUM_FRAMEINTERVALS;
extern const unsigned long CV4L2Shims_VIDIOC_G_PARM;
extern const unsigned long CV4L2Shims_VIDIOC_G_DV_TIMINGS;
extern const unsigned long CV4L2Shims_VIDIOC_S_PARM;
extern const unsigned long CV4L2Shims_VIDIOC_REQBUFS;
extern const unsigned long CV4L2Shims_VIDIOC_QUERYBUF;
extern const unsigned long CV4L2Shims_VIDIOC_QBUF;
extern const unsigned long CV4L2Shims_VIDIOC_DQBUF;
extern const unsigned long CV4L2Shims_VIDIOC_STREAMON;
extern const unsigned long CV4L2Shims_VIDIOC_STREAMOFF;
extern const unsigned long CV4L2Shims_VIDIOC_QUERYCTRL;
extern const unsigned long CV4L2Shims_VIDIOC_QUERY_EXT_CTRL;
extern const unsigned long CV4L2Shims_VIDIOC_G_CTRL;
extern const unsigned long CV4L2Shims_VIDIOC_S_CTRL;
