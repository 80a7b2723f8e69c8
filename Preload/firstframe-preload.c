/*
 * libfirstframe-preload.so — FirstFrame's launch phases for an app we did not write.
 *
 * Loaded into a camera app with LD_PRELOAD, it watches what the app does to a video device and
 * appends the trace protocol's events to FIRSTFRAME_TRACE (`fd:N` or a path), one JSON line per
 * event, in the exact shape of PhaseTrace's TraceLineEncoder:
 *
 *   {"ts":<CLOCK_MONOTONIC ns>,"name":"device.open","kind":"begin","pid":1234,"fields":{...}}
 *
 *   app.main            event      from this library's constructor (before the app's main)
 *   device.open         begin/end  open/openat/open64 (or v4l2_open) of a V4L2 node
 *   device.format       begin/end  the first VIDIOC_S_FMT/S_PARM → the end of the last one
 *                                  before buffers are requested
 *   device.buffers      begin/end  VIDIOC_REQBUFS (count > 0) → the end of the last
 *                                  QUERYBUF/EXPBUF/mmap of the device before VIDIOC_STREAMON
 *   device.stream_on    begin/end  VIDIOC_STREAMON
 *   device.first_buffer event      the first successful VIDIOC_DQBUF after each STREAMON
 *
 * Every event's fields (keys sorted, as the encoder writes them): `source` = "preload"; device
 * events add `device` (the path the app opened), `api` (how the call reached the device: "libc",
 * "libv4l2" or "syscall"), device.buffers begin adds `count` (the buffers the driver granted),
 * device.format end adds `pixelformat` (the capture format the last successful VIDIOC_S_FMT
 * set, as its four characters, e.g. "GREY"; absent when no S_FMT succeeded);
 * app.main adds `exe` (the file execve(2) ran) and `run` (FIRSTFRAME_RUN, when set).
 *
 * Calls are seen on three paths: libc's open/ioctl/mmap/close; libv4l2's v4l2_open/v4l2_ioctl/
 * v4l2_mmap/v4l2_close (whose work does not pass through libc's ioctl: libv4l2 calls syscall(2));
 * and syscall() itself, which catches an app that loads libv4l2 privately (dlopen + dlsym on the
 * handle), where the v4l2_* wrappers are never reached. A thread-local depth keeps the inner
 * calls of an outer wrapper from being counted twice. A copy of a node's descriptor (dup, dup2,
 * dup3, fcntl F_DUPFD[_CLOEXEC]) is the same device: GStreamer's v4l2src switches the stream on
 * through a copy its buffer pool makes, and dequeues on the original.
 *
 * Rules (Preload/README.md has the whole story, with the limits):
 * - A wrapped call returns exactly what the next definition returned, with the same errno.
 *   Memory the app passed is read only after the call succeeded (the kernel has read it too).
 * - Hot-path work is a few loads and compares; nothing allocates. Events are formatted into a
 *   stack buffer and written with one write(2) each (O_APPEND; shorter than PIPE_BUF).
 *   Only async-signal-safe calls are made after start-up: clock_gettime, write, fstat, readlink,
 *   sched_yield. dlsym runs in the constructor for libc's functions (and on a wrapper's
 *   first call if that comes before the constructor), on the first call for libv4l2's.
 * - Thread-safe: device slots are published with atomics; event bookkeeping takes one spin lock,
 *   which a signal handler interrupting its own thread's bookkeeping skips instead of waiting on.
 *
 * Built by the package (Plugins/CompilePreload) with the toolchain's clang; depends on libc only.
 */
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
#define THREAD_LOCAL static __thread __attribute__((tls_model("initial-exec")))

enum {
  MAX_DEVICES = 32,   /* video devices open at once that are tracked */
  DESCRIPTORS = 4,    /* descriptors naming one device (the open and its copies) */
  PATH_BYTES = 256,   /* a longer device path is truncated in events */
  LINE_BYTES = 2048,  /* one event line; below PIPE_BUF, so a pipe write is atomic */
  VIDEO_MAJOR = 81,   /* the character-device major of every V4L2 node */
};

/* Which wrapper a call came through: the `api` field. */
enum api { API_LIBC, API_LIBV4L2, API_SYSCALL };
static const char *const api_names[] = {"libc", "libv4l2", "syscall"};

/* ---- configuration, read once ---- */

static int trace_fd = -1;
static pid_t pid; /* getpid() costs a system call per event; kept fresh across fork() */
static char device_prefix[PATH_BYTES];
static size_t device_prefix_length;
static atomic_int init_state; /* 0: not yet, 1: running, 2: done */
THREAD_LOCAL int initializing;
/* > 0 while an outer wrapper runs: the calls it makes are its own, not the app's. */
THREAD_LOCAL int depth;
/* 1 while this thread does event bookkeeping (a signal handler on it skips bookkeeping). */
THREAD_LOCAL int busy;

/* ---- the next definitions of the wrapped functions ---- */

static void *next_symbol(const char *name, void *_Atomic *slot) {
  void *p = atomic_load_explicit(slot, memory_order_acquire);
  if (p == NULL) {
    p = dlsym(RTLD_NEXT, name);
    if (p != NULL) atomic_store_explicit(slot, p, memory_order_release);
  }
  return p;
}

/* libv4l2's own definition: the next one in the global scope, or, for a libv4l2 loaded without
 * RTLD_GLOBAL whose symbols the app still reaches through the global scope, the library itself. */
static void *next_v4l2_symbol(const char *name, void *_Atomic *slot) {
  void *p = next_symbol(name, slot);
  if (p == NULL) {
    void *handle = dlopen("libv4l2.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (handle != NULL) {
      p = dlsym(handle, name);
      dlclose(handle);
      if (p != NULL) atomic_store_explicit(slot, p, memory_order_release);
    }
  }
  return p;
}

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*open2_fn)(const char *, int);
typedef int (*openat2_fn)(int, const char *, int);
typedef int (*ioctl_fn)(int, unsigned long, ...);
typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);
typedef int (*close_fn)(int);
typedef long (*syscall_fn)(long, ...);
typedef int (*dup_fn)(int);
typedef int (*dup2_fn)(int, int);
typedef int (*dup3_fn)(int, int, int);
typedef int (*fcntl_fn)(int, int, ...);
typedef int (*v4l2_open_fn)(const char *, int, ...);
typedef int (*v4l2_fd_open_fn)(int, int);
typedef int (*v4l2_ioctl_fn)(int, unsigned long, ...);
typedef void *(*v4l2_mmap_fn)(void *, size_t, int, int, int, int64_t);
typedef int (*v4l2_close_fn)(int);

#define NEXT(type, name)                         \
  static type next_##name(void) {                \
    static void *_Atomic slot;                   \
    return (type)next_symbol(#name, &slot);      \
  }
#define NEXT_V4L2(type, name)                    \
  static type next_##name(void) {                \
    static void *_Atomic slot;                   \
    return (type)next_v4l2_symbol(#name, &slot); \
  }
NEXT(open_fn, open)
NEXT(open_fn, open64)
NEXT(openat_fn, openat)
NEXT(openat_fn, openat64)
NEXT(open2_fn, __open_2)
NEXT(open2_fn, __open64_2)
NEXT(openat2_fn, __openat_2)
NEXT(openat2_fn, __openat64_2)
NEXT(ioctl_fn, ioctl)
NEXT(mmap_fn, mmap)
NEXT(mmap_fn, mmap64)
NEXT(close_fn, close)
NEXT(syscall_fn, syscall)
NEXT(dup_fn, dup)
NEXT(dup2_fn, dup2)
NEXT(dup3_fn, dup3)
NEXT(fcntl_fn, fcntl)
NEXT(fcntl_fn, fcntl64)
NEXT_V4L2(v4l2_open_fn, v4l2_open)
NEXT_V4L2(v4l2_fd_open_fn, v4l2_fd_open)
NEXT_V4L2(v4l2_ioctl_fn, v4l2_ioctl)
NEXT_V4L2(v4l2_mmap_fn, v4l2_mmap)
NEXT_V4L2(v4l2_close_fn, v4l2_close)

/* ---- time, text ---- */

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int has_prefix(const char *s, const char *prefix, size_t length) {
  return strncmp(s, prefix, length) == 0;
}

/* Copies `s` into `out` (`size` bytes, NUL-terminated, truncated). */
static void copy_text(char *out, size_t size, const char *s) {
  size_t i = 0;
  for (; s[i] != '\0' && i + 1 < size; i++) out[i] = s[i];
  out[i] = '\0';
}

/* ---- start-up: FIRSTFRAME_TRACE and the test hook ---- */

/* Moves the trace descriptor out of the app's way: a run with the library must hand the app the
 * same descriptor numbers as a run without it. Close-on-exec, since an exec'd program reads
 * FIRSTFRAME_TRACE again. Returns the new descriptor, or -1. */
static int private_descriptor(int fd) {
  fcntl_fn real_fcntl = next_fcntl(); /* not this library's own fcntl: the copy is no app's */
  if (real_fcntl == NULL) return -1;
  int moved = real_fcntl(fd, F_DUPFD_CLOEXEC, 1000);
  struct rlimit limit;
  if (moved < 0 && getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur > 27)
    moved = real_fcntl(fd, F_DUPFD_CLOEXEC, (int)limit.rlim_cur - 24);
  return moved >= 0 ? moved : real_fcntl(fd, F_DUPFD_CLOEXEC, 3);
}

static void open_trace(const char *where) {
  if (where == NULL || where[0] == '\0') return;
  if (has_prefix(where, "fd:", 3)) {
    const char *p = where + 3;
    long n = 0;
    if (*p == '\0') return;
    for (; *p != '\0'; p++) {
      if (*p < '0' || *p > '9' || n > 1000000) return;
      n = n * 10 + (*p - '0');
    }
    /* A private copy: if the app later closes N and reuses the number, events still go to the
     * trace and never into the app's own file. */
    trace_fd = private_descriptor((int)n);
  } else {
    open_fn real_open = next_open();
    close_fn real_close = next_close();
    if (real_open == NULL || real_close == NULL) return;
    int fd = real_open(where, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return;
    trace_fd = private_descriptor(fd);
    real_close(fd);
  }
}

static void initialize(void) {
  if (atomic_load_explicit(&init_state, memory_order_acquire) == 2 || initializing) return;
  int expected = 0;
  if (!atomic_compare_exchange_strong(&init_state, &expected, 1)) {
    while (atomic_load_explicit(&init_state, memory_order_acquire) != 2) sched_yield();
    return;
  }
  initializing = 1;
  int saved = errno;
  const char *prefix = getenv("FIRSTFRAME_PRELOAD_DEVICE_PREFIX");
  if (prefix != NULL && prefix[0] != '\0') {
    copy_text(device_prefix, sizeof device_prefix, prefix);
    device_prefix_length = strlen(device_prefix);
  }
  pid = getpid();
  open_trace(getenv("FIRSTFRAME_TRACE"));
  errno = saved;
  initializing = 0;
  atomic_store_explicit(&init_state, 2, memory_order_release);
}

/* True when events can be written (FIRSTFRAME_TRACE opened). */
static int tracing(void) {
  if (atomic_load_explicit(&init_state, memory_order_acquire) != 2) initialize();
  return trace_fd >= 0;
}

/* ---- one event line ---- */

struct line {
  char text[LINE_BYTES];
  size_t length;
  int overflow;
};

static void put_char(struct line *l, char c) {
  if (l->length + 1 < sizeof l->text)
    l->text[l->length++] = c;
  else
    l->overflow = 1;
}

static void put(struct line *l, const char *s) {
  for (; *s != '\0'; s++) put_char(l, *s);
}

static void put_u64(struct line *l, uint64_t v) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) put_char(l, digits[--n]);
}

/* A JSON string literal. Bytes outside printable ASCII are written as \u00XX, so the line is
 * valid UTF-8 whatever the path's bytes are. */
static void put_string(struct line *l, const char *s) {
  static const char hex[] = "0123456789abcdef";
  put_char(l, '"');
  for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
    if (*p == '"' || *p == '\\') {
      put_char(l, '\\');
      put_char(l, (char)*p);
    } else if (*p < 0x20 || *p >= 0x7f) {
      put(l, "\\u00");
      put_char(l, hex[*p >> 4]);
      put_char(l, hex[*p & 15]);
    } else {
      put_char(l, (char)*p);
    }
  }
  put_char(l, '"');
}

static void put_field(struct line *l, int *first, const char *key) {
  if (!*first) put_char(l, ',');
  *first = 0;
  put_string(l, key);
  put_char(l, ':');
}

/* Writes the line with one write(2) (a short write to a file is finished, EINTR is retried);
 * a failure (a full disk) drops it. The caller restores errno. */
static void write_line(struct line *l) {
  if (l->overflow) return;
  l->text[l->length++] = '\n';
  size_t done = 0;
  while (done < l->length) {
    ssize_t n = write(trace_fd, l->text + done, l->length - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += (size_t)n;
  }
}

static void begin_line(struct line *l, const char *name, const char *kind, uint64_t ts) {
  l->length = 0;
  l->overflow = 0;
  put(l, "{\"ts\":");
  put_u64(l, ts);
  put(l, ",\"name\":");
  put_string(l, name);
  put(l, ",\"kind\":");
  put_string(l, kind);
  put(l, ",\"pid\":");
  put_u64(l, (uint64_t)pid);
  put(l, ",\"fields\":{");
}

static void end_line(struct line *l) {
  put(l, "}}");
  write_line(l);
}

/* ---- tracked devices ---- */

struct device {
  atomic_int fd_plus_one[DESCRIPTORS]; /* the descriptors naming the device, + 1; all 0: free */
  char path[PATH_BYTES];
  enum api api;
  uint64_t format_begin; /* != 0: a format phase is open */
  uint64_t format_end;
  uint32_t pixelformat; /* the capture format the last successful VIDIOC_S_FMT set; 0: none */
  atomic_int buffers_open;
  uint64_t buffers_end;
  atomic_int awaiting_first_buffer;
};

static struct device devices[MAX_DEVICES];
static atomic_int tracked_devices;
static atomic_int slots_used; /* slots [0, slots_used) have ever held a device: the lookup's bound */
static atomic_flag events_lock = ATOMIC_FLAG_INIT;

static struct device *device_for(int fd) {
  if (fd < 0 || atomic_load_explicit(&tracked_devices, memory_order_acquire) == 0) return NULL;
  int used = atomic_load_explicit(&slots_used, memory_order_acquire);
  for (int i = 0; i < used; i++) {
    for (int k = 0; k < DESCRIPTORS; k++)
      if (atomic_load_explicit(&devices[i].fd_plus_one[k], memory_order_acquire) == fd + 1) return &devices[i];
  }
  return NULL;
}

static int device_is_free(struct device *d) {
  for (int k = 0; k < DESCRIPTORS; k++)
    if (atomic_load_explicit(&d->fd_plus_one[k], memory_order_relaxed) != 0) return 0;
  return 1;
}

/* Takes the bookkeeping lock; returns 0 (without it) when this thread already holds it, i.e. a
 * signal handler interrupted this thread's own bookkeeping. */
static int lock_events(void) {
  if (busy) return 0;
  busy = 1;
  while (atomic_flag_test_and_set_explicit(&events_lock, memory_order_acquire)) sched_yield();
  return 1;
}

static void unlock_events(void) {
  atomic_flag_clear_explicit(&events_lock, memory_order_release);
  busy = 0;
}

/* One device event (lock held). `count` < 0: no count field; `fourcc` 0: no pixelformat field. */
static void device_event_fourcc(const struct device *d, const char *name, const char *kind, uint64_t ts, long count,
                                uint32_t fourcc) {
  struct line l;
  int first = 1;
  begin_line(&l, name, kind, ts);
  put_field(&l, &first, "api");
  put_string(&l, api_names[d->api]);
  if (count >= 0) {
    put_field(&l, &first, "count");
    put_u64(&l, (uint64_t)count);
  }
  put_field(&l, &first, "device");
  put_string(&l, d->path);
  if (fourcc != 0) {
    /* The four characters of the V4L2 code, e.g. "GREY", "YUYV" (a space is part of some). */
    char code[5];
    for (int i = 0; i < 4; i++) {
      char c = (char)((fourcc >> (8 * i)) & 0xff);
      code[i] = c >= 0x20 && c < 0x7f ? c : '?';
    }
    code[4] = 0;
    put_field(&l, &first, "pixelformat");
    put_string(&l, code);
  }
  put_field(&l, &first, "source");
  put_string(&l, "preload");
  end_line(&l);
}

/* One device event without a pixel format (lock held). `count` < 0: no count field. */
static void device_event(const struct device *d, const char *name, const char *kind, uint64_t ts, long count) {
  device_event_fourcc(d, name, kind, ts, count, 0);
}

/* Closes the open format and buffers phases at the end of their last call (lock held). The
 * format's end names the capture format set, so a table can say what each app streams. */
static void close_format(struct device *d) {
  if (d->format_begin == 0) return;
  device_event_fourcc(d, "device.format", "end", d->format_end, -1, d->pixelformat);
  d->format_begin = 0;
}

static void close_buffers(struct device *d) {
  if (!atomic_load_explicit(&d->buffers_open, memory_order_relaxed)) return;
  device_event(d, "device.buffers", "end", d->buffers_end, -1);
  atomic_store_explicit(&d->buffers_open, 0, memory_order_relaxed);
}

/* `fd` no longer names device `d` (lock held). With its last descriptor the device is over:
 * its open phases end (when `end_phases`) and its slot is freed. */
static void forget_descriptor(struct device *d, int fd, int end_phases) {
  for (int k = 0; k < DESCRIPTORS; k++) {
    if (atomic_load_explicit(&d->fd_plus_one[k], memory_order_relaxed) == fd + 1)
      atomic_store_explicit(&d->fd_plus_one[k], 0, memory_order_release);
  }
  if (!device_is_free(d)) return;
  if (end_phases) {
    close_format(d);
    close_buffers(d);
  }
  atomic_fetch_sub_explicit(&tracked_devices, 1, memory_order_release);
}

/* Whether `path` may name a V4L2 node: /dev/video*, udev's /dev/v4l/by-id|by-path/ links, or
 * /dev/char/81:N. Only these are checked with fstat, so that opening other files under /dev costs
 * no extra system call. */
static int may_be_video_node(const char *path) {
  return has_prefix(path, "/dev/video", 10) || has_prefix(path, "/dev/v4l/", 9) ||
         has_prefix(path, "/dev/char/81:", 13);
}

/* The app opened `path` as `fd` between t0 and t1 (CLOCK_MONOTONIC ns). Tracks it and writes
 * device.open when it is a V4L2 node: under FIRSTFRAME_PRELOAD_DEVICE_PREFIX (the tests' stand-in
 * for a node), or a node's name (may_be_video_node) and a character device with the V4L2 major. */
static void opened(int fd, const char *path, enum api api, uint64_t t0, uint64_t t1) {
  if (fd < 0 || path == NULL) return;
  int listed = device_prefix_length > 0 && has_prefix(path, device_prefix, device_prefix_length);
  if (!listed) {
    struct stat st;
    if (!may_be_video_node(path) || fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode) ||
        major(st.st_rdev) != VIDEO_MAJOR)
      return;
  }
  if (!lock_events()) return;
  /* A stale number: the descriptor was closed behind our back (close_range, libc's own close). */
  struct device *stale = device_for(fd);
  if (stale != NULL) forget_descriptor(stale, fd, 0);
  struct device *d = NULL;
  for (int i = 0; d == NULL && i < MAX_DEVICES; i++) {
    if (device_is_free(&devices[i])) d = &devices[i];
  }
  if (d != NULL && d - devices >= atomic_load_explicit(&slots_used, memory_order_relaxed))
    atomic_store_explicit(&slots_used, (int)(d - devices) + 1, memory_order_release);
  if (d != NULL) {
    copy_text(d->path, sizeof d->path, path);
    d->api = api;
    d->format_begin = 0;
    d->format_end = 0;
    d->pixelformat = 0;
    d->buffers_end = 0;
    atomic_store_explicit(&d->buffers_open, 0, memory_order_relaxed);
    atomic_store_explicit(&d->awaiting_first_buffer, 0, memory_order_relaxed);
    atomic_store_explicit(&d->fd_plus_one[0], fd + 1, memory_order_release);
    atomic_fetch_add_explicit(&tracked_devices, 1, memory_order_release);
    device_event(d, "device.open", "begin", t0, -1);
    device_event(d, "device.open", "end", t1, -1);
  }
  unlock_events();
}

/* The app is closing `fd`, a descriptor of `d`: with the device's last descriptor, its open
 * phases end and its slot is freed. */
static void closing(struct device *d, int fd) {
  if (!lock_events()) return;
  forget_descriptor(d, fd, 1);
  unlock_events();
}

/* The app made `copy` from `fd` (dup, dup2, dup3, fcntl F_DUPFD): when `fd` names a device, so
 * does `copy`. Whatever `copy` named before (dup2 closes it) is closed. Returns `copy`. */
static long copied(int fd, long copy) {
  if (copy < 0 || copy == fd || depth > 0 || atomic_load_explicit(&tracked_devices, memory_order_acquire) == 0)
    return copy;
  int saved = errno;
  if (lock_events()) {
    struct device *before = device_for((int)copy);
    if (before != NULL) forget_descriptor(before, (int)copy, 1);
    struct device *d = device_for(fd);
    for (int k = 0; d != NULL && k < DESCRIPTORS; k++) {
      if (atomic_load_explicit(&d->fd_plus_one[k], memory_order_relaxed) == 0) {
        atomic_store_explicit(&d->fd_plus_one[k], (int)copy + 1, memory_order_release);
        break;
      }
    }
    unlock_events();
  }
  errno = saved;
  return copy;
}

/* The requests that move a device through its phases. */
static int is_phase_request(unsigned int request) {
  switch (request) {
  case VIDIOC_S_FMT:
  case VIDIOC_S_PARM:
  case VIDIOC_REQBUFS:
  case VIDIOC_CREATE_BUFS:
  case VIDIOC_QUERYBUF:
  case VIDIOC_EXPBUF:
  case VIDIOC_STREAMON:
  case VIDIOC_STREAMOFF:
  case VIDIOC_DQBUF:
    return 1;
  default:
    return 0;
  }
}

/* An ioctl worth timing on `fd`, or NULL. A DQBUF is only worth it until the first buffer. */
static struct device *watched_ioctl(int fd, unsigned int request) {
  if (depth > 0 || !is_phase_request(request)) return NULL;
  struct device *d = device_for(fd);
  if (d != NULL && request == VIDIOC_DQBUF &&
      !atomic_load_explicit(&d->awaiting_first_buffer, memory_order_relaxed))
    return NULL;
  return d;
}

static void buffers_started(struct device *d, uint64_t t0, uint64_t t1, unsigned count) {
  close_format(d);
  if (!atomic_load_explicit(&d->buffers_open, memory_order_relaxed)) {
    device_event(d, "device.buffers", "begin", t0, (long)count);
    atomic_store_explicit(&d->buffers_open, 1, memory_order_relaxed);
  }
  d->buffers_end = t1;
}

/* Buffer set-up went on until t1 (a QUERYBUF, EXPBUF or mmap of the device). */
static void buffers_extended(struct device *d, uint64_t t1) {
  if (!atomic_load_explicit(&d->buffers_open, memory_order_relaxed) || !lock_events()) return;
  if (atomic_load_explicit(&d->buffers_open, memory_order_relaxed) && t1 > d->buffers_end) d->buffers_end = t1;
  unlock_events();
}

/* After a watched ioctl that returned `result` (0 on success) between t0 and t1. */
static void ioctl_done(struct device *d, unsigned int request, void *arg, long result, uint64_t t0, uint64_t t1) {
  if (request == VIDIOC_QUERYBUF || request == VIDIOC_EXPBUF) {
    buffers_extended(d, t1);
    return;
  }
  if (request == VIDIOC_STREAMOFF) {
    atomic_store_explicit(&d->awaiting_first_buffer, 0, memory_order_relaxed);
    return;
  }
  if (request == VIDIOC_DQBUF) {
    if (result == 0 && atomic_exchange_explicit(&d->awaiting_first_buffer, 0, memory_order_relaxed) &&
        lock_events()) {
      device_event(d, "device.first_buffer", "event", t1, -1);
      unlock_events();
    }
    return;
  }
  if (!lock_events()) return;
  switch (request) {
  case VIDIOC_S_FMT:
  case VIDIOC_S_PARM:
    /* A refused format is part of negotiating one: failed calls count too. */
    if (d->format_begin == 0) {
      d->format_begin = t0;
      device_event(d, "device.format", "begin", t0, -1);
    }
    d->format_end = t1;
    if (request == VIDIOC_S_FMT && result == 0) {
      /* After success the kernel has read and written the struct: it is valid memory. */
      const struct v4l2_format *f = arg;
      if (f->type == V4L2_BUF_TYPE_VIDEO_CAPTURE) d->pixelformat = f->fmt.pix.pixelformat;
      if (f->type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) d->pixelformat = f->fmt.pix_mp.pixelformat;
    }
    break;
  case VIDIOC_REQBUFS: {
    /* After success the kernel has read and written the struct: it is valid memory. */
    unsigned count = result == 0 ? ((struct v4l2_requestbuffers *)arg)->count : 0;
    if (count > 0)
      buffers_started(d, t0, t1, count);
    else if (atomic_load_explicit(&d->buffers_open, memory_order_relaxed))
      d->buffers_end = t1;
    break;
  }
  case VIDIOC_CREATE_BUFS: {
    unsigned count = result == 0 ? ((struct v4l2_create_buffers *)arg)->count : 0;
    if (count > 0) buffers_started(d, t0, t1, count);
    break;
  }
  case VIDIOC_STREAMON:
    close_format(d);
    close_buffers(d);
    if (result == 0) {
      device_event(d, "device.stream_on", "begin", t0, -1);
      device_event(d, "device.stream_on", "end", t1, -1);
      atomic_store_explicit(&d->awaiting_first_buffer, 1, memory_order_relaxed);
    }
    break;
  default:
    break;
  }
  unlock_events();
}

/* ---- the shared bodies of the wrappers ---- */

/* How to make the call a wrapper wraps (C has no closures). */
enum call {
  CALL_OPEN,
  CALL_OPEN64,
  CALL_OPENAT,
  CALL_OPENAT64,
  CALL_OPEN_2,
  CALL_OPEN64_2,
  CALL_OPENAT_2,
  CALL_OPENAT64_2,
  CALL_SYSCALL_OPENAT,
  CALL_SYSCALL_OPEN,
  CALL_V4L2_OPEN,
};

static long call_open(enum call call, int dirfd, const char *path, int flags, mode_t mode) {
  void *f = NULL;
  switch (call) {
  case CALL_OPEN: f = (void *)next_open(); if (f) return ((open_fn)f)(path, flags, mode); break;
  case CALL_OPEN64: f = (void *)next_open64(); if (f) return ((open_fn)f)(path, flags, mode); break;
  case CALL_OPENAT: f = (void *)next_openat(); if (f) return ((openat_fn)f)(dirfd, path, flags, mode); break;
  case CALL_OPENAT64: f = (void *)next_openat64(); if (f) return ((openat_fn)f)(dirfd, path, flags, mode); break;
  case CALL_OPEN_2: f = (void *)next___open_2(); if (f) return ((open2_fn)f)(path, flags); break;
  case CALL_OPEN64_2: f = (void *)next___open64_2(); if (f) return ((open2_fn)f)(path, flags); break;
  case CALL_OPENAT_2: f = (void *)next___openat_2(); if (f) return ((openat2_fn)f)(dirfd, path, flags); break;
  case CALL_OPENAT64_2: f = (void *)next___openat64_2(); if (f) return ((openat2_fn)f)(dirfd, path, flags); break;
  case CALL_SYSCALL_OPENAT:
    f = (void *)next_syscall();
    if (f) return ((syscall_fn)f)(SYS_openat, (long)dirfd, path, (long)flags, (long)mode);
    break;
  case CALL_SYSCALL_OPEN:
#ifdef SYS_open
    f = (void *)next_syscall();
    if (f) return ((syscall_fn)f)(SYS_open, path, (long)flags, (long)mode);
#endif
    break;
  case CALL_V4L2_OPEN: f = (void *)next_v4l2_open(); if (f) return ((v4l2_open_fn)f)(path, flags, mode); break;
  }
  errno = ENOSYS;
  return -1;
}

static long traced_open(enum call call, enum api api, int dirfd, const char *path, int flags, mode_t mode) {
  if (depth > 0 || !tracing()) return call_open(call, dirfd, path, flags, mode);
  /* `path` is read only after a successful open: the app's pointer is then known to be good. */
  uint64_t t0 = now_ns();
  depth++;
  long fd = call_open(call, dirfd, path, flags, mode);
  depth--;
  int saved = errno;
  uint64_t t1 = now_ns();
  if (fd >= 0) opened((int)fd, path, api, t0, t1);
  errno = saved;
  return fd;
}

/* mode is passed only with O_CREAT or O_TMPFILE. */
#define READ_MODE(flags, last)                  \
  mode_t mode = 0;                              \
  if (__OPEN_NEEDS_MODE(flags)) {               \
    va_list ap;                                 \
    va_start(ap, last);                         \
    mode = (mode_t)va_arg(ap, unsigned int);    \
    va_end(ap);                                 \
  }

static long call_ioctl(enum api api, int fd, unsigned long request, void *arg) {
  void *f;
  switch (api) {
  case API_LIBC:
    if ((f = (void *)next_ioctl()) != NULL) return ((ioctl_fn)f)(fd, request, arg);
    break;
  case API_LIBV4L2:
    if ((f = (void *)next_v4l2_ioctl()) != NULL) return ((v4l2_ioctl_fn)f)(fd, request, arg);
    break;
  case API_SYSCALL:
    if ((f = (void *)next_syscall()) != NULL) return ((syscall_fn)f)(SYS_ioctl, (long)fd, request, arg);
    break;
  }
  errno = ENOSYS;
  return -1;
}

static long traced_ioctl(enum api api, int fd, unsigned long request, void *arg) {
  /* The kernel reads the request as 32 bits; an app may pass it sign-extended. */
  unsigned int code = (unsigned int)request;
  struct device *d = watched_ioctl(fd, code);
  if (d == NULL) {
    if (api != API_LIBV4L2) return call_ioctl(api, fd, request, arg);
    depth++;
    long r = call_ioctl(api, fd, request, arg);
    depth--;
    return r;
  }
  uint64_t t0 = now_ns();
  depth++;
  long r = call_ioctl(api, fd, request, arg);
  depth--;
  int saved = errno;
  uint64_t t1 = now_ns();
  ioctl_done(d, code, arg, r, t0, t1);
  errno = saved;
  return r;
}

static void *call_mmap(enum api api, int is64, void *addr, size_t length, int prot, int flags, int fd, int64_t offset) {
  void *f;
  switch (api) {
  case API_LIBC:
    if ((f = (void *)(is64 ? next_mmap64() : next_mmap())) != NULL)
      return ((mmap_fn)f)(addr, length, prot, flags, fd, (off_t)offset);
    break;
  case API_LIBV4L2:
    if ((f = (void *)next_v4l2_mmap()) != NULL) return ((v4l2_mmap_fn)f)(addr, length, prot, flags, fd, offset);
    break;
  case API_SYSCALL:
    if ((f = (void *)next_syscall()) != NULL)
      return (void *)((syscall_fn)f)(SYS_mmap, addr, length, (long)prot, (long)flags, (long)fd, (long)offset);
    break;
  }
  errno = ENOSYS;
  return MAP_FAILED;
}

static void *traced_mmap(enum api api, int is64, void *addr, size_t length, int prot, int flags, int fd, int64_t offset) {
  struct device *d = depth > 0 ? NULL : device_for(fd);
  if (d == NULL || !atomic_load_explicit(&d->buffers_open, memory_order_relaxed)) {
    if (api != API_LIBV4L2) return call_mmap(api, is64, addr, length, prot, flags, fd, offset);
    depth++;
    void *p = call_mmap(api, is64, addr, length, prot, flags, fd, offset);
    depth--;
    return p;
  }
  depth++;
  void *p = call_mmap(api, is64, addr, length, prot, flags, fd, offset);
  depth--;
  int saved = errno;
  buffers_extended(d, now_ns());
  errno = saved;
  return p;
}

static long call_close(enum api api, int fd) {
  void *f;
  switch (api) {
  case API_LIBC:
    if ((f = (void *)next_close()) != NULL) return ((close_fn)f)(fd);
    break;
  case API_LIBV4L2:
    if ((f = (void *)next_v4l2_close()) != NULL) return ((v4l2_close_fn)f)(fd);
    break;
  case API_SYSCALL:
    if ((f = (void *)next_syscall()) != NULL) return ((syscall_fn)f)(SYS_close, (long)fd);
    break;
  }
  errno = ENOSYS;
  return -1;
}

static long traced_close(enum api api, int fd) {
  struct device *d = depth > 0 ? NULL : device_for(fd);
  if (d != NULL) {
    int saved = errno;
    closing(d, fd); /* before the real close: after it, another thread may get the same number */
    errno = saved;
  }
  if (api != API_LIBV4L2) return call_close(api, fd);
  depth++;
  long r = call_close(api, fd);
  depth--;
  return r;
}

/* ---- libc ---- */

EXPORT int open(const char *path, int flags, ...) {
  READ_MODE(flags, flags);
  return (int)traced_open(CALL_OPEN, API_LIBC, AT_FDCWD, path, flags, mode);
}

EXPORT int open64(const char *path, int flags, ...) {
  READ_MODE(flags, flags);
  return (int)traced_open(CALL_OPEN64, API_LIBC, AT_FDCWD, path, flags, mode);
}

EXPORT int openat(int dirfd, const char *path, int flags, ...) {
  READ_MODE(flags, flags);
  return (int)traced_open(CALL_OPENAT, API_LIBC, dirfd, path, flags, mode);
}

EXPORT int openat64(int dirfd, const char *path, int flags, ...) {
  READ_MODE(flags, flags);
  return (int)traced_open(CALL_OPENAT64, API_LIBC, dirfd, path, flags, mode);
}

/* The _FORTIFY_SOURCE entry points a program built with fortification calls instead. */
EXPORT int __open_2(const char *path, int flags) {
  return (int)traced_open(CALL_OPEN_2, API_LIBC, AT_FDCWD, path, flags, 0);
}

EXPORT int __open64_2(const char *path, int flags) {
  return (int)traced_open(CALL_OPEN64_2, API_LIBC, AT_FDCWD, path, flags, 0);
}

EXPORT int __openat_2(int dirfd, const char *path, int flags) {
  return (int)traced_open(CALL_OPENAT_2, API_LIBC, dirfd, path, flags, 0);
}

EXPORT int __openat64_2(int dirfd, const char *path, int flags) {
  return (int)traced_open(CALL_OPENAT64_2, API_LIBC, dirfd, path, flags, 0);
}

EXPORT int ioctl(int fd, unsigned long request, ...) {
  va_list ap;
  va_start(ap, request);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  return (int)traced_ioctl(API_LIBC, fd, request, arg);
}

EXPORT void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset) {
  return traced_mmap(API_LIBC, 0, addr, length, prot, flags, fd, offset);
}

EXPORT void *mmap64(void *addr, size_t length, int prot, int flags, int fd, off64_t offset) {
  return traced_mmap(API_LIBC, 1, addr, length, prot, flags, fd, offset);
}

EXPORT int close(int fd) { return (int)traced_close(API_LIBC, fd); }

/* Copies of a descriptor: a copy of a node's is the same device. */
EXPORT int dup(int fd) {
  dup_fn real = next_dup();
  if (real == NULL) {
    errno = ENOSYS;
    return -1;
  }
  return (int)copied(fd, real(fd));
}
EXPORT int dup2(int fd, int fd2) {
  dup2_fn real = next_dup2();
  if (real == NULL) {
    errno = ENOSYS;
    return -1;
  }
  return (int)copied(fd, real(fd, fd2));
}
EXPORT int dup3(int fd, int fd2, int flags) {
  dup3_fn real = next_dup3();
  if (real == NULL) {
    errno = ENOSYS;
    return -1;
  }
  return (int)copied(fd, real(fd, fd2, flags));
}
/* fcntl's third argument is an int or a pointer, by command; like libc, take it as a pointer
 * (the register holds either) and pass it on unchanged. */
static int traced_fcntl(fcntl_fn real, int fd, int command, void *arg) {
  if (real == NULL) {
    errno = ENOSYS;
    return -1;
  }
  int r = real(fd, command, arg);
  return command == F_DUPFD || command == F_DUPFD_CLOEXEC ? (int)copied(fd, r) : r;
}
EXPORT int fcntl(int fd, int command, ...) {
  va_list ap;
  va_start(ap, command);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  return traced_fcntl(next_fcntl(), fd, command, arg);
}
/* What a program built with _FILE_OFFSET_BITS=64 calls (glibc 2.28 and later). */
EXPORT int fcntl64(int fd, int command, ...) {
  va_list ap;
  va_start(ap, command);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  return traced_fcntl(next_fcntl64(), fd, command, arg);
}

/* libv4l2 reaches the kernel through syscall(2): an app that loaded libv4l2 privately (dlopen,
 * then dlsym on the handle) bypasses the v4l2_* wrappers below, but not this one. */
EXPORT long syscall(long number, ...) {
  va_list ap;
  va_start(ap, number);
  long a0 = va_arg(ap, long), a1 = va_arg(ap, long), a2 = va_arg(ap, long);
  long a3 = va_arg(ap, long), a4 = va_arg(ap, long), a5 = va_arg(ap, long);
  va_end(ap);
  if (depth == 0) {
    switch (number) {
    case SYS_openat:
      return traced_open(CALL_SYSCALL_OPENAT, API_SYSCALL, (int)a0, (const char *)a1, (int)a2, (mode_t)a3);
#ifdef SYS_open
    case SYS_open:
      return traced_open(CALL_SYSCALL_OPEN, API_SYSCALL, AT_FDCWD, (const char *)a0, (int)a1, (mode_t)a2);
#endif
    case SYS_ioctl:
      return traced_ioctl(API_SYSCALL, (int)a0, (unsigned long)a1, (void *)a2);
    case SYS_mmap:
      return (long)traced_mmap(API_SYSCALL, 1, (void *)a0, (size_t)a1, (int)a2, (int)a3, (int)a4, a5);
    case SYS_close:
      return traced_close(API_SYSCALL, (int)a0);
    default:
      break;
    }
  }
  syscall_fn real = next_syscall();
  if (real == NULL) {
    errno = ENOSYS;
    return -1;
  }
  return real(number, a0, a1, a2, a3, a4, a5);
}

/* ---- libv4l2 ---- */

EXPORT int v4l2_open(const char *path, int flags, ...) {
  READ_MODE(flags, flags);
  return (int)traced_open(CALL_V4L2_OPEN, API_LIBV4L2, AT_FDCWD, path, flags, mode);
}

/* An app that opened the node itself and hands the descriptor to libv4l2. When the open was
 * seen, device.open is already written; otherwise the node is named by /proc/self/fd. */
EXPORT int v4l2_fd_open(int fd, int v4l2_flags) {
  v4l2_fd_open_fn real = next_v4l2_fd_open();
  if (real == NULL) {
    errno = ENOSYS;
    return -1;
  }
  if (depth > 0 || !tracing() || device_for(fd) != NULL) {
    depth++;
    int r = real(fd, v4l2_flags);
    depth--;
    return r;
  }
  uint64_t t0 = now_ns();
  depth++;
  int r = real(fd, v4l2_flags);
  depth--;
  int saved = errno;
  uint64_t t1 = now_ns();
  if (r >= 0) {
    char link[32] = "/proc/self/fd/", path[PATH_BYTES];
    size_t n = strlen(link);
    char digits[12];
    int k = 0;
    for (unsigned v = (unsigned)r; k == 0 || v != 0; v /= 10) digits[k++] = (char)('0' + v % 10);
    while (k > 0) link[n++] = digits[--k];
    link[n] = '\0';
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length > 0) {
      path[length] = '\0';
      opened(r, path, API_LIBV4L2, t0, t1);
    }
  }
  errno = saved;
  return r;
}

EXPORT int v4l2_ioctl(int fd, unsigned long request, ...) {
  va_list ap;
  va_start(ap, request);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  return (int)traced_ioctl(API_LIBV4L2, fd, request, arg);
}

EXPORT void *v4l2_mmap(void *start, size_t length, int prot, int flags, int fd, int64_t offset) {
  return traced_mmap(API_LIBV4L2, 1, start, length, prot, flags, fd, offset);
}

EXPORT int v4l2_close(int fd) { return (int)traced_close(API_LIBV4L2, fd); }

/* ---- load and exit ---- */

/* A child forked while another thread held the bookkeeping lock would wait for it forever: only
 * the forking thread lives on in the child. */
static void preload_forked(void) {
  atomic_flag_clear_explicit(&events_lock, memory_order_release);
  busy = 0;
  pid = getpid();
}

__attribute__((constructor)) static void preload_start(void) {
  if (!tracing()) return;
  int saved = errno;
  pthread_atfork(NULL, NULL, preload_forked);
  /* Resolve libc's next definitions now (about 1 µs each), so that no wrapper calls dlsym later:
   * it is not async-signal-safe. libv4l2's are resolved on their first call, which only an app
   * that loaded libv4l2 makes (probing for them here would cost a failed lookup in every other). */
  next_open(), next_open64(), next_openat(), next_openat64(), next___open_2(), next___open64_2();
  next___openat_2(), next___openat64_2(), next_ioctl(), next_mmap(), next_mmap64(), next_close();
  next_syscall(), next_dup(), next_dup2(), next_dup3(), next_fcntl(), next_fcntl64();
  /* The file the kernel executed, as execve(2) was given it: no system call to read it. */
  const char *exe = (const char *)getauxval(AT_EXECFN);
  const char *run = getenv("FIRSTFRAME_RUN");
  struct line l;
  int first = 1;
  begin_line(&l, "app.main", "event", now_ns());
  put_field(&l, &first, "exe");
  put_string(&l, exe != NULL ? exe : "");
  if (run != NULL && run[0] != '\0') {
    put_field(&l, &first, "run");
    put_string(&l, run);
  }
  put_field(&l, &first, "source");
  put_string(&l, "preload");
  end_line(&l);
  errno = saved;
}

/* At exit(3), phases still open end at their last call. */
__attribute__((destructor)) static void preload_finish(void) {
  if (atomic_load_explicit(&tracked_devices, memory_order_acquire) == 0) return;
  int saved = errno;
  for (int i = 0; i < MAX_DEVICES; i++) {
    struct device *d = &devices[i];
    if (device_is_free(d) || !lock_events()) continue;
    close_format(d);
    close_buffers(d);
    unlock_events();
  }
  errno = saved;
}
