/*
 * libfirstframe-fake-v4l2.so — a fake V4L2 driver, for testing the preload library where the
 * kernel has no V4L2 (containers, CI).
 *
 * Preloaded after libfirstframe-preload.so (LD_PRELOAD="libfirstframe-preload.so
 * libfirstframe-fake-v4l2.so"), it is the "next definition" the preload library calls: descriptors
 * opened on a path that starts with FIRSTFRAME_FAKE_V4L2_PREFIX (regular files the test creates)
 * answer the streaming ioctls as a capture driver would, and mmap of them gives anonymous memory.
 * Everything else goes on to libc. Calls arrive through libc (open/ioctl/mmap/close) or through
 * syscall(2), as libv4l2 makes them. A copy of a fake descriptor (dup, dup2, dup3, fcntl F_DUPFD)
 * is the same device, as a copy of a real node's descriptor is: the device lives until the last of
 * its descriptors is closed.
 *
 * The fake driver, per descriptor:
 *   VIDIOC_QUERYCAP            streaming but not VIDEO_CAPTURE, so libv4l2 passes every call on
 *   VIDIOC_S_FMT               YUYV (or any format but 'BAD!', which is EINVAL) at the size asked
 *   VIDIOC_G_PARM/S_PARM       30 frames per second
 *   VIDIOC_REQBUFS             MMAP only (EINVAL otherwise), up to 8 buffers; 0 frees them
 *   VIDIOC_QUERYBUF/QBUF       any allocated index (EINVAL otherwise)
 *   VIDIOC_STREAMON/STREAMOFF  start or stop the stream
 *   VIDIOC_DQBUF               EINVAL before STREAMON; the first call after it is EAGAIN (no frame
 *                              yet), later calls hand back the queued buffers in order, EAGAIN
 *                              when none is queued
 *   anything else              ENOTTY
 * It is a test double: it takes a mutex and is not async-signal-safe.
 */
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

enum { MAX_FAKES = 64, MAX_BUFFERS = 8, MAX_COPIES = 4 };

struct fake {
  int fd; /* -1: free */
  int copies_plus_one[MAX_COPIES]; /* dup'd descriptors of the same device; 0: none */
  int streaming;
  int dequeue_calls;
  unsigned buffers;
  unsigned buffer_bytes;
  int queued[MAX_BUFFERS];
  unsigned next_queued;
  uint32_t sequence;
};

static struct fake fakes[MAX_FAKES];
static pthread_mutex_t fakes_lock = PTHREAD_MUTEX_INITIALIZER;
static char prefix[4096];
static size_t prefix_length;

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*ioctl_fn)(int, unsigned long, ...);
typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);
typedef int (*close_fn)(int);
typedef long (*syscall_fn)(long, ...);
typedef int (*dup_fn)(int);
typedef int (*dup2_fn)(int, int);
typedef int (*dup3_fn)(int, int, int);
typedef int (*fcntl_fn)(int, int, ...);

#define NEXT(type, name) ((type)dlsym(RTLD_NEXT, #name))

__attribute__((constructor)) static void fake_start(void) {
  for (int i = 0; i < MAX_FAKES; i++) fakes[i].fd = -1;
  const char *p = getenv("FIRSTFRAME_FAKE_V4L2_PREFIX");
  if (p != NULL && strlen(p) < sizeof prefix) {
    strcpy(prefix, p);
    prefix_length = strlen(prefix);
  }
}

static struct fake *fake_for(int fd) {
  if (fd < 0) return NULL;
  for (int i = 0; i < MAX_FAKES; i++) {
    if (fakes[i].fd < 0) continue;
    if (fakes[i].fd == fd) return &fakes[i];
    for (int k = 0; k < MAX_COPIES; k++)
      if (fakes[i].copies_plus_one[k] == fd + 1) return &fakes[i];
  }
  return NULL;
}

static long opened(long fd, const char *path) {
  if (fd < 0 || prefix_length == 0 || path == NULL || strncmp(path, prefix, prefix_length) != 0) return fd;
  pthread_mutex_lock(&fakes_lock);
  struct fake *f = fake_for((int)fd);
  for (int i = 0; f == NULL && i < MAX_FAKES; i++)
    if (fakes[i].fd < 0) f = &fakes[i];
  if (f != NULL) {
    memset(f, 0, sizeof *f);
    f->fd = (int)fd;
  }
  pthread_mutex_unlock(&fakes_lock);
  return fd;
}

/* Forgets `fd` (lock held): a copy is dropped; the original gives way to a copy if one is left;
 * the device is freed with its last descriptor. */
static void forget(int fd) {
  struct fake *f = fake_for(fd);
  if (f == NULL) return;
  int promoted = 0;
  for (int k = 0; k < MAX_COPIES; k++) {
    int copy = f->copies_plus_one[k] - 1;
    if (copy < 0) continue;
    if (copy == fd) {
      f->copies_plus_one[k] = 0;
      return;
    }
    if (f->fd == fd && !promoted) {
      f->fd = copy;
      f->copies_plus_one[k] = 0;
      promoted = 1;
    }
  }
  if (!promoted) f->fd = -1;
}

static void closed(int fd) {
  pthread_mutex_lock(&fakes_lock);
  forget(fd);
  pthread_mutex_unlock(&fakes_lock);
}

/* `copy` (>= 0) was made from `fd` by dup, dup2, dup3 or fcntl: the same device, if fd is fake. */
static int copied(int fd, int copy) {
  if (copy < 0 || copy == fd) return copy;
  pthread_mutex_lock(&fakes_lock);
  forget(copy); /* dup2 closed what copy named before */
  struct fake *f = fake_for(fd);
  for (int k = 0; f != NULL && k < MAX_COPIES; k++) {
    if (f->copies_plus_one[k] == 0) {
      f->copies_plus_one[k] = copy + 1;
      break;
    }
  }
  pthread_mutex_unlock(&fakes_lock);
  return copy;
}

static int fail(int error) {
  errno = error;
  return -1;
}

/* The driver. Returns 0 or -1 with errno; `handled` is 0 for a descriptor that is not fake. */
static int fake_ioctl(int fd, unsigned long request, void *arg, int *handled) {
  pthread_mutex_lock(&fakes_lock);
  struct fake *f = fake_for(fd);
  *handled = f != NULL;
  int r = 0;
  if (f == NULL) goto out;
  switch ((unsigned int)request) {
  case VIDIOC_QUERYCAP: {
    /* Streaming, but no VIDEO_CAPTURE flag: libv4l2 then hands every call straight on. */
    struct v4l2_capability *cap = arg;
    memset(cap, 0, sizeof *cap);
    strcpy((char *)cap->driver, "firstframe-fake");
    strcpy((char *)cap->card, "FirstFrame fake V4L2 driver");
    cap->capabilities = V4L2_CAP_STREAMING | V4L2_CAP_DEVICE_CAPS;
    cap->device_caps = V4L2_CAP_STREAMING;
    break;
  }
  case VIDIOC_S_FMT: {
    struct v4l2_format *fmt = arg;
    if (fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || fmt->fmt.pix.pixelformat == v4l2_fourcc('B', 'A', 'D', '!')) {
      r = fail(EINVAL);
      break;
    }
    if (fmt->fmt.pix.width == 0 || fmt->fmt.pix.width > 1920) fmt->fmt.pix.width = 640;
    if (fmt->fmt.pix.height == 0 || fmt->fmt.pix.height > 1080) fmt->fmt.pix.height = 480;
    fmt->fmt.pix.field = V4L2_FIELD_NONE;
    fmt->fmt.pix.bytesperline = fmt->fmt.pix.width * 2;
    fmt->fmt.pix.sizeimage = fmt->fmt.pix.bytesperline * fmt->fmt.pix.height;
    f->buffer_bytes = fmt->fmt.pix.sizeimage;
    break;
  }
  case VIDIOC_G_PARM:
  case VIDIOC_S_PARM: {
    struct v4l2_streamparm *parm = arg;
    parm->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
    parm->parm.capture.timeperframe.numerator = 1;
    parm->parm.capture.timeperframe.denominator = 30;
    break;
  }
  case VIDIOC_REQBUFS: {
    struct v4l2_requestbuffers *req = arg;
    if (req->memory != V4L2_MEMORY_MMAP || f->streaming) {
      r = fail(req->memory != V4L2_MEMORY_MMAP ? EINVAL : EBUSY);
      break;
    }
    if (req->count > MAX_BUFFERS) req->count = MAX_BUFFERS;
    f->buffers = req->count;
    f->next_queued = 0;
    memset(f->queued, 0, sizeof f->queued);
    if (f->buffer_bytes == 0) f->buffer_bytes = 640 * 480 * 2;
    break;
  }
  case VIDIOC_QUERYBUF:
  case VIDIOC_QBUF: {
    struct v4l2_buffer *buf = arg;
    if (buf->index >= f->buffers || buf->memory != V4L2_MEMORY_MMAP) {
      r = fail(EINVAL);
      break;
    }
    unsigned page = (f->buffer_bytes + 4095u) & ~4095u;
    buf->length = f->buffer_bytes;
    buf->m.offset = buf->index * page;
    if ((unsigned int)request == VIDIOC_QBUF) f->queued[buf->index] = 1;
    break;
  }
  case VIDIOC_STREAMON:
    if (f->buffers == 0) {
      r = fail(EINVAL);
      break;
    }
    f->streaming = 1;
    f->dequeue_calls = 0;
    break;
  case VIDIOC_STREAMOFF:
    f->streaming = 0;
    memset(f->queued, 0, sizeof f->queued);
    break;
  case VIDIOC_DQBUF: {
    struct v4l2_buffer *buf = arg;
    if (!f->streaming) {
      r = fail(EINVAL);
      break;
    }
    if (f->dequeue_calls++ == 0) {
      r = fail(EAGAIN);
      break;
    }
    unsigned i = 0;
    for (; i < f->buffers; i++)
      if (f->queued[(f->next_queued + i) % f->buffers]) break;
    if (i == f->buffers) {
      r = fail(EAGAIN);
      break;
    }
    unsigned index = (f->next_queued + i) % f->buffers;
    f->queued[index] = 0;
    f->next_queued = index + 1;
    buf->index = index;
    buf->bytesused = f->buffer_bytes;
    buf->sequence = f->sequence++;
    buf->flags = V4L2_BUF_FLAG_MAPPED | V4L2_BUF_FLAG_DONE;
    break;
  }
  default:
    r = fail(ENOTTY);
    break;
  }
out:
  pthread_mutex_unlock(&fakes_lock);
  return r;
}

static void *fake_mmap(size_t length, int prot, int fd, off_t offset, int *handled) {
  pthread_mutex_lock(&fakes_lock);
  struct fake *f = fake_for(fd);
  *handled = f != NULL;
  unsigned page = f != NULL ? (f->buffer_bytes + 4095u) & ~4095u : 0;
  int valid = f != NULL && f->buffers > 0 && offset >= 0 && offset % page == 0 && (offset / page) < f->buffers &&
              length <= page;
  pthread_mutex_unlock(&fakes_lock);
  if (f == NULL) return NULL;
  if (!valid) {
    errno = EINVAL;
    return MAP_FAILED;
  }
  mmap_fn real = NEXT(mmap_fn, mmap);
  return real(NULL, length, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

EXPORT int open(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = __OPEN_NEEDS_MODE(flags) ? va_arg(ap, unsigned int) : 0;
  va_end(ap);
  return (int)opened(NEXT(open_fn, open)(path, flags, mode), path);
}

EXPORT int open64(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = __OPEN_NEEDS_MODE(flags) ? va_arg(ap, unsigned int) : 0;
  va_end(ap);
  return (int)opened(NEXT(open_fn, open64)(path, flags, mode), path);
}

EXPORT int openat(int dirfd, const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = __OPEN_NEEDS_MODE(flags) ? va_arg(ap, unsigned int) : 0;
  va_end(ap);
  return (int)opened(NEXT(openat_fn, openat)(dirfd, path, flags, mode), path);
}

EXPORT int ioctl(int fd, unsigned long request, ...) {
  va_list ap;
  va_start(ap, request);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  int handled;
  int r = fake_ioctl(fd, request, arg, &handled);
  return handled ? r : NEXT(ioctl_fn, ioctl)(fd, request, arg);
}

EXPORT void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset) {
  int handled;
  void *p = fake_mmap(length, prot, fd, offset, &handled);
  return handled ? p : NEXT(mmap_fn, mmap)(addr, length, prot, flags, fd, offset);
}

EXPORT void *mmap64(void *addr, size_t length, int prot, int flags, int fd, off_t offset) {
  return mmap(addr, length, prot, flags, fd, offset);
}

EXPORT int close(int fd) {
  closed(fd);
  return NEXT(close_fn, close)(fd);
}

EXPORT int dup(int fd) { return copied(fd, NEXT(dup_fn, dup)(fd)); }

EXPORT int dup2(int fd, int fd2) { return copied(fd, NEXT(dup2_fn, dup2)(fd, fd2)); }

EXPORT int dup3(int fd, int fd2, int flags) { return copied(fd, NEXT(dup3_fn, dup3)(fd, fd2, flags)); }

static int fake_fcntl(int fd, int command, void *arg) {
  int r = NEXT(fcntl_fn, fcntl)(fd, command, arg);
  return command == F_DUPFD || command == F_DUPFD_CLOEXEC ? copied(fd, r) : r;
}

EXPORT int fcntl(int fd, int command, ...) {
  va_list ap;
  va_start(ap, command);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  return fake_fcntl(fd, command, arg);
}

EXPORT int fcntl64(int fd, int command, ...) {
  va_list ap;
  va_start(ap, command);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  return fake_fcntl(fd, command, arg);
}

EXPORT long syscall(long number, ...) {
  va_list ap;
  va_start(ap, number);
  long a0 = va_arg(ap, long), a1 = va_arg(ap, long), a2 = va_arg(ap, long);
  long a3 = va_arg(ap, long), a4 = va_arg(ap, long), a5 = va_arg(ap, long);
  va_end(ap);
  syscall_fn real = NEXT(syscall_fn, syscall);
  int handled;
  switch (number) {
  case SYS_openat:
    return opened(real(number, a0, a1, a2, a3), (const char *)a1);
#ifdef SYS_open
  case SYS_open:
    return opened(real(number, a0, a1, a2), (const char *)a0);
#endif
  case SYS_ioctl: {
    int r = fake_ioctl((int)a0, (unsigned long)a1, (void *)a2, &handled);
    if (handled) return r;
    break;
  }
  case SYS_mmap: {
    void *p = fake_mmap((size_t)a1, (int)a2, (int)a4, (off_t)a5, &handled);
    if (handled) return (long)p;
    break;
  }
  case SYS_close:
    closed((int)a0);
    break;
  default:
    break;
  }
  return real(number, a0, a1, a2, a3, a4, a5);
}
