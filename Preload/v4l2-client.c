/*
 * firstframe-v4l2-client — the smallest V4L2 capture client: open → format → buffers →
 * stream-on → first dequeued buffer, no display. It is the app the preload library's tests run
 * (against the fake driver, or vivid), the floor a camera app's device phases can be compared
 * with, and the harness that measures what the preload library costs.
 *
 *   firstframe-v4l2-client [--api ioctl|libv4l2|libv4l2-dlopen] [--frames N] [--threads N]
 *                          [--log] [--check-errors] [--dup] DEVICE
 *   firstframe-v4l2-client --measure-calls N [--rounds R] --preload LIBRARY DEVICE
 *   firstframe-v4l2-client --measure-spawn N --preload LIBRARY
 *
 * --api: how the device is driven. `ioctl`: libc's open/ioctl/mmap/close. `libv4l2`: libv4l2's
 * v4l2_open/v4l2_ioctl/v4l2_mmap/v4l2_close, looked up in the global scope as for a program linked
 * with -lv4l2 (libv4l2 is loaded at run time, so building this needs no libv4l-dev). `libv4l2-dlopen`:
 * the same functions taken from a private dlopen handle, as an app that loads libv4l2 itself.
 * --log prints every call's return value and errno (one line each, `name ret=R errno=E`), so two
 * runs can be compared; --check-errors adds calls that fail on purpose (a missing node, an ioctl on
 * /dev/null, close(-1), DQBUF before STREAMON, a format the fake driver refuses, a bad mmap offset).
 * --threads runs the capture on N threads at once, each with its own descriptor.
 * --dup (with --api ioctl) streams as GStreamer's v4l2src does: once the format is set, dup(2)
 * makes a copy of the descriptor; buffers are requested, mapped, queued and dequeued on the
 * original, the stream is switched on and off on the copy, and the copy is closed first.
 *
 * --measure-calls: the cost per call, in this program's children, alternately without and with
 * LD_PRELOAD=LIBRARY (R rounds, default 10). Each child times N pairs of a call made as an app
 * makes it (through libc, and so through the library when it is loaded) and the same system call
 * made directly, and reports the median difference: calls on other files (which the library only
 * looks at), and calls on DEVICE, a video node to the library through
 * FIRSTFRAME_PRELOAD_DEVICE_PREFIX, whose events go to FIRSTFRAME_TRACE (/dev/null unless set).
 * The difference between the two children is the library's cost per call. --measure-spawn: the
 * cost at process start, N spawns of a program that exits at once, alternately without and with.
 *
 * Exit status: 0 done; 1 a device call failed (one line on stderr); 2 bad usage; 77 libv4l2 is not
 * installed (a test skips).
 */
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { MAX_BUFFERS = 8, REQUESTED_BUFFERS = 4, FIRST_FRAME_TIMEOUT_MS = 10000 };

struct api {
  int (*open)(const char *, int, ...);
  int (*ioctl)(int, unsigned long, ...);
  void *(*mmap)(void *, size_t, int, int, int, int64_t);
  int (*munmap)(void *, size_t);
  int (*close)(int);
};

static void *libc_mmap(void *addr, size_t length, int prot, int flags, int fd, int64_t offset) {
  return mmap(addr, length, prot, flags, fd, (off_t)offset);
}

static struct api api;
static int logging;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void usage(const char *why) {
  fprintf(stderr, "firstframe-v4l2-client: %s (see the comment at the top of Preload/v4l2-client.c)\n", why);
  exit(2);
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Prints `name ret=R errno=E` when logging; returns R with errno E. */
static long note(const char *name, long r, int e) {
  if (logging) {
    pthread_mutex_lock(&log_lock);
    printf("%s ret=%ld errno=%d\n", name, r, e);
    fflush(stdout);
    pthread_mutex_unlock(&log_lock);
  }
  errno = e;
  return r;
}

#define CALL(name, expr) \
  ({                     \
    errno = 0;           \
    long r_ = (long)(expr); \
    note(name, r_, errno); \
  })

static void *mapped(const char *name, void *p) {
  int e = errno;
  note(name, p == MAP_FAILED ? -1 : 0, e);
  return p;
}

#define MAP(name, expr) \
  ({                    \
    errno = 0;          \
    mapped(name, (expr)); \
  })

static int failed(const char *what, const char *device) {
  fprintf(stderr, "firstframe-v4l2-client: %s on %s failed: %s\n", what, device, strerror(errno));
  return 1;
}

static int load_api(const char *name) {
  if (strcmp(name, "ioctl") == 0) {
    api = (struct api){open, ioctl, libc_mmap, munmap, close};
    return 0;
  }
  int private = strcmp(name, "libv4l2-dlopen") == 0;
  if (!private && strcmp(name, "libv4l2") != 0) usage("--api is ioctl, libv4l2 or libv4l2-dlopen");
  void *handle = dlopen("libv4l2.so.0", RTLD_NOW | (private ? RTLD_LOCAL : RTLD_GLOBAL));
  if (handle == NULL) {
    fprintf(stderr, "firstframe-v4l2-client: libv4l2 is not installed (libv4l-0): %s\n", dlerror());
    exit(77);
  }
  void *scope = private ? handle : RTLD_DEFAULT;
  api.open = (int (*)(const char *, int, ...))dlsym(scope, "v4l2_open");
  api.ioctl = (int (*)(int, unsigned long, ...))dlsym(scope, "v4l2_ioctl");
  api.mmap = (void *(*)(void *, size_t, int, int, int, int64_t))dlsym(scope, "v4l2_mmap");
  api.munmap = (int (*)(void *, size_t))dlsym(scope, "v4l2_munmap");
  api.close = (int (*)(int))dlsym(scope, "v4l2_close");
  if (!api.open || !api.ioctl || !api.mmap || !api.munmap || !api.close) {
    fprintf(stderr, "firstframe-v4l2-client: libv4l2 lacks a v4l2_* function\n");
    exit(77);
  }
  return 0;
}

/* Calls that fail on purpose: their return values and errno must not change under the library. */
static void check_errors(int fd) {
  int missing = (int)CALL("open-missing", api.open("/dev/firstframe-no-such-node", O_RDWR));
  if (missing >= 0) api.close(missing);
  int null = open("/dev/null", O_RDWR);
  struct v4l2_capability cap;
  memset(&cap, 0, sizeof cap);
  CALL("querycap-devnull", api.ioctl(null, VIDIOC_QUERYCAP, &cap));
  close(null);
  CALL("close-bad", api.close(-1));
  struct v4l2_buffer early = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
  CALL("dqbuf-before-streamon", api.ioctl(fd, VIDIOC_DQBUF, &early));
  struct v4l2_format bad = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
  bad.fmt.pix.width = 640;
  bad.fmt.pix.height = 480;
  bad.fmt.pix.pixelformat = v4l2_fourcc('B', 'A', 'D', '!');
  CALL("s_fmt-refused", api.ioctl(fd, VIDIOC_S_FMT, &bad));
}

/* Dequeues one buffer, waiting up to FIRST_FRAME_TIMEOUT_MS; every attempt is logged. */
static int dequeue(int fd, struct v4l2_buffer *buf, const char *name) {
  uint64_t deadline = now_ns() + (uint64_t)FIRST_FRAME_TIMEOUT_MS * 1000000u;
  for (;;) {
    memset(buf, 0, sizeof *buf);
    buf->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buf->memory = V4L2_MEMORY_MMAP;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    poll(&p, 1, 1000);
    if (CALL(name, api.ioctl(fd, VIDIOC_DQBUF, buf)) == 0) return 0;
    if (errno != EAGAIN || now_ns() > deadline) return -1;
  }
}

struct capture {
  const char *device;
  int frames;
  int check_errors;
  int dup; /* stream on and off on a dup(2) copy of the descriptor */
  int status;
};

/* The capture: what every camera app does before its first frame. */
static void *capture(void *argument) {
  struct capture *c = argument;
  const char *device = c->device;
  int fd = (int)CALL("open", api.open(device, O_RDWR | O_NONBLOCK));
  if (fd < 0) return (void *)(intptr_t)(c->status = failed("open", device));
  if (c->check_errors) check_errors(fd);

  struct v4l2_format fmt = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
  fmt.fmt.pix.width = 640;
  fmt.fmt.pix.height = 480;
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  fmt.fmt.pix.field = V4L2_FIELD_NONE;
  if (CALL("s_fmt", api.ioctl(fd, VIDIOC_S_FMT, &fmt)) != 0) return (void *)(intptr_t)(c->status = failed("VIDIOC_S_FMT", device));
  struct v4l2_streamparm parm = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
  parm.parm.capture.timeperframe.numerator = 1;
  parm.parm.capture.timeperframe.denominator = 30;
  CALL("s_parm", api.ioctl(fd, VIDIOC_S_PARM, &parm)); /* optional: a driver may not set the rate */
  int stream_fd = fd;
  if (c->dup && (stream_fd = (int)CALL("dup", dup(fd))) < 0) return (void *)(intptr_t)(c->status = failed("dup", device));

  struct v4l2_requestbuffers req = {.count = REQUESTED_BUFFERS, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
  if (CALL("reqbufs", api.ioctl(fd, VIDIOC_REQBUFS, &req)) != 0 || req.count == 0)
    return (void *)(intptr_t)(c->status = failed("VIDIOC_REQBUFS", device));
  unsigned count = req.count < MAX_BUFFERS ? req.count : MAX_BUFFERS;
  void *maps[MAX_BUFFERS];
  size_t lengths[MAX_BUFFERS];
  for (unsigned i = 0; i < count; i++) {
    struct v4l2_buffer buf = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
    if (CALL("querybuf", api.ioctl(fd, VIDIOC_QUERYBUF, &buf)) != 0) return (void *)(intptr_t)(c->status = failed("VIDIOC_QUERYBUF", device));
    lengths[i] = buf.length;
    maps[i] = MAP("mmap", api.mmap(NULL, buf.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, buf.m.offset));
    if (maps[i] == MAP_FAILED) return (void *)(intptr_t)(c->status = failed("mmap", device));
  }
  if (c->check_errors) MAP("mmap-bad-offset", api.mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0x7ff00000));
  for (unsigned i = 0; i < count; i++) {
    struct v4l2_buffer buf = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
    if (CALL("qbuf", api.ioctl(fd, VIDIOC_QBUF, &buf)) != 0) return (void *)(intptr_t)(c->status = failed("VIDIOC_QBUF", device));
  }
  enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (CALL("streamon", api.ioctl(stream_fd, VIDIOC_STREAMON, &type)) != 0) return (void *)(intptr_t)(c->status = failed("VIDIOC_STREAMON", device));
  for (int frame = 0; frame < c->frames; frame++) {
    struct v4l2_buffer buf;
    if (dequeue(fd, &buf, frame == 0 ? "dqbuf-first" : "dqbuf") != 0) return (void *)(intptr_t)(c->status = failed("VIDIOC_DQBUF", device));
    if (frame + 1 < c->frames && CALL("qbuf", api.ioctl(fd, VIDIOC_QBUF, &buf)) != 0)
      return (void *)(intptr_t)(c->status = failed("VIDIOC_QBUF", device));
  }
  CALL("streamoff", api.ioctl(stream_fd, VIDIOC_STREAMOFF, &type));
  for (unsigned i = 0; i < count; i++) CALL("munmap", api.munmap(maps[i], lengths[i]));
  if (stream_fd != fd) CALL("close-copy", api.close(stream_fd));
  CALL("close", api.close(fd));
  return NULL;
}

/* ---- measuring the library ---- */

static int compare_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static double median(uint64_t *v, int n) {
  qsort(v, (size_t)n, sizeof *v, compare_u64);
  return n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
}

/* The environment of a measured child: without the library, or with it. */
static char **child_environment(const char *library, const char *device) {
  static char preload[4096], prefix[4096], trace[4096];
  int n = 0;
  while (environ[n] != NULL) n++;
  char **env = calloc((size_t)n + 4, sizeof *env);
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (strncmp(environ[i], "LD_PRELOAD=", 11) == 0 || strncmp(environ[i], "FIRSTFRAME_TRACE=", 17) == 0 ||
        strncmp(environ[i], "FIRSTFRAME_PRELOAD_DEVICE_PREFIX=", 33) == 0)
      continue;
    env[k++] = environ[i];
  }
  if (library != NULL) {
    const char *t = getenv("FIRSTFRAME_TRACE");
    snprintf(preload, sizeof preload, "LD_PRELOAD=%s", library);
    snprintf(trace, sizeof trace, "FIRSTFRAME_TRACE=%s", t != NULL && *t ? t : "/dev/null");
    env[k++] = preload;
    env[k++] = trace;
    if (device != NULL) {
      snprintf(prefix, sizeof prefix, "FIRSTFRAME_PRELOAD_DEVICE_PREFIX=%s", device);
      env[k++] = prefix;
    }
  }
  env[k] = NULL;
  return env;
}

/* Spawns this program with `args` and `env`; returns its wall time (ns) and, in `out`, its
 * first output line. */
static uint64_t run_child(char *const args[], char **env, char *out, size_t out_size) {
  int pipefd[2] = {-1, -1};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (out != NULL) {
    if (pipe(pipefd) != 0) return 0;
    posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
    posix_spawn_file_actions_addclose(&actions, pipefd[0]);
  }
  pid_t pid;
  uint64_t t0 = now_ns();
  if (posix_spawn(&pid, "/proc/self/exe", &actions, NULL, args, env) != 0) {
    fprintf(stderr, "firstframe-v4l2-client: cannot spawn a measured child\n");
    exit(1);
  }
  if (out != NULL) {
    close(pipefd[1]);
    size_t got = 0;
    ssize_t n;
    while (got + 1 < out_size && (n = read(pipefd[0], out + got, out_size - 1 - got)) > 0) got += (size_t)n;
    out[got] = '\0';
    close(pipefd[0]);
  }
  int status;
  waitpid(pid, &status, 0);
  uint64_t t1 = now_ns();
  posix_spawn_file_actions_destroy(&actions);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "firstframe-v4l2-client: a measured child failed\n");
    exit(1);
  }
  return t1 - t0;
}

/* A system call made directly, past every wrapper: the baseline a wrapped call is compared with. */
static long raw_syscall(long n, long a, long b, long c, long d, long e, long f) {
#if defined(__x86_64__)
  long r;
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9) : "rcx", "r11", "memory");
  return r;
#elif defined(__aarch64__)
  register long x8 __asm__("x8") = n;
  register long x0 __asm__("x0") = a;
  register long x1 __asm__("x1") = b;
  register long x2 __asm__("x2") = c;
  register long x3 __asm__("x3") = d;
  register long x4 __asm__("x4") = e;
  register long x5 __asm__("x5") = f;
  __asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
  return x0;
#else
  return syscall(n, a, b, c, d, e, f); /* wrapped too: the differences then read as 0 */
#endif
}

enum { MEASURES = 6 };
static const char *const measure_names[MEASURES] = {
    "ioctl on another file (/dev/null)",
    "open + close of another file",
    "mmap + munmap, anonymous",
    "DQBUF on the video node (every frame after the first)",
    "S_FMT on the video node (a watched call, no event)",
    "open + close of the video node (4 events written)",
};

/* A measured child: for each call, N pairs of (the call as an app makes it, the same system call
 * made directly), alternating; prints the median extra time of the wrapped call, in ns. */
static int call_loop(long n, const char *device) {
  uint64_t *extra = calloc((size_t)n, sizeof *extra), *direct = calloc((size_t)n, sizeof *direct);
  struct v4l2_format fmt = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
  struct v4l2_buffer buf = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
  int null = open("/dev/null", O_RDWR);
  int video = open(device, O_RDWR);
  if (null < 0 || video < 0) return failed("open", device);
  ioctl(video, VIDIOC_S_FMT, &fmt); /* the format phase's first call: its event is written now */
  for (int m = 0; m < MEASURES; m++) {
    for (long i = 0; i < n; i++) {
      uint64_t t0 = now_ns(), t1, t2;
      switch (m) {
      case 0:
        ioctl(null, VIDIOC_S_FMT, &fmt);
        t1 = now_ns();
        raw_syscall(SYS_ioctl, null, VIDIOC_S_FMT, (long)&fmt, 0, 0, 0);
        break;
      case 1:
        close(open("/dev/null", O_RDONLY));
        t1 = now_ns();
        raw_syscall(SYS_close, raw_syscall(SYS_openat, AT_FDCWD, (long)"/dev/null", O_RDONLY, 0, 0, 0), 0, 0, 0, 0, 0);
        break;
      case 2:
        munmap(mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), 4096);
        t1 = now_ns();
        munmap((void *)raw_syscall(SYS_mmap, 0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), 4096);
        break;
      case 3:
        ioctl(video, VIDIOC_DQBUF, &buf);
        t1 = now_ns();
        raw_syscall(SYS_ioctl, video, VIDIOC_DQBUF, (long)&buf, 0, 0, 0);
        break;
      case 4:
        ioctl(video, VIDIOC_S_FMT, &fmt);
        t1 = now_ns();
        raw_syscall(SYS_ioctl, video, VIDIOC_S_FMT, (long)&fmt, 0, 0, 0);
        break;
      default:
        close(open(device, O_RDWR));
        t1 = now_ns();
        raw_syscall(SYS_close, raw_syscall(SYS_openat, AT_FDCWD, (long)device, O_RDWR, 0, 0, 0), 0, 0, 0, 0, 0);
        break;
      }
      t2 = now_ns();
      /* wrapped − direct, offset by 2^32 ns so that a negative difference (noise) sorts right */
      extra[i] = (t1 - t0) + 4294967296u - (t2 - t1);
      direct[i] = t2 - t1;
    }
    printf("%s%.1f %.1f", m ? " " : "", median(extra, (int)n) - 4294967296.0, median(direct, (int)n));
  }
  printf("\n");
  return 0;
}

static int measure_calls(long n, int rounds, const char *library, const char *device) {
  char count[32];
  snprintf(count, sizeof count, "%ld", n);
  char *args[] = {"firstframe-v4l2-client", "--call-loop", count, (char *)device, NULL};
  char **plain = child_environment(NULL, device), **loaded = child_environment(library, device);
  uint64_t results[2][MEASURES][64], directs[2][MEASURES][64];
  if (rounds > 64) rounds = 64;
  for (int r = 0; r < rounds; r++) {
    for (int k = 0; k < 2; k++) {
      int with = (r + k) % 2; /* alternate which goes first */
      char out[512];
      run_child(args, with ? loaded : plain, out, sizeof out);
      char *p = out;
      for (int m = 0; m < MEASURES; m++) {
        char *end;
        double v = strtod(p, &end);
        if (end == p) {
          fprintf(stderr, "firstframe-v4l2-client: a measured child printed '%s'\n", out);
          return 1;
        }
        results[with][m][r] = (uint64_t)((v + 1e6) * 10); /* offset: a median of signed values */
        p = end;
        directs[with][m][r] = (uint64_t)(strtod(p, &end) * 10);
        p = end;
      }
    }
  }
  printf("calls: the extra time of a call made through libc over the same system call made directly\n");
  printf("(median of %ld pairs per child; median of %d children each), without → with the library, ns\n", n, rounds);
  for (int m = 0; m < MEASURES; m++) {
    double without = median(results[0][m], rounds) / 10 - 1e6, with = median(results[1][m], rounds) / 10 - 1e6;
    double call = (median(directs[0][m], rounds) + median(directs[1][m], rounds)) / 20;
    printf("  %-56s %8.1f → %8.1f   library: %+7.1f ns  (the direct call: %.0f ns; ratio %.3f)\n",
           measure_names[m], without, with, with - without, call, (call + with) / (call + without));
  }
  return 0;
}

static int measure_spawn(int n, const char *library) {
  char *args[] = {"firstframe-v4l2-client", "--exit", NULL};
  char **plain = child_environment(NULL, NULL), **loaded = child_environment(library, NULL);
  uint64_t *times[2] = {calloc((size_t)n, sizeof(uint64_t)), calloc((size_t)n, sizeof(uint64_t))};
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 2; k++) {
      int with = (i + k) % 2;
      times[with][i] = run_child(args, with ? loaded : plain, NULL, 0);
    }
  }
  double m0 = median(times[0], n), m1 = median(times[1], n);
  double p0 = (double)times[0][n * 9 / 10], p1 = (double)times[1][n * 9 / 10];
  printf("spawn → exit of a C program: %d runs each, alternating, without → with the library\n", n);
  printf("  median %.1f → %.1f µs  ratio %.3f  (+%.1f µs);  p90 %.1f → %.1f µs\n", m0 / 1000, m1 / 1000, m1 / m0,
         (m1 - m0) / 1000, p0 / 1000, p1 / 1000);
  return 0;
}

int main(int argc, char **argv) {
  const char *api_name = "ioctl", *device = NULL, *library = NULL;
  int frames = 1, threads = 1, check = 0, rounds = 10, copy = 0;
  long measure_calls_n = 0, measure_spawn_n = 0, call_loop_n = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--exit") == 0) return 0;
    if (strcmp(a, "--log") == 0) {
      logging = 1;
    } else if (strcmp(a, "--check-errors") == 0) {
      check = 1;
    } else if (strcmp(a, "--dup") == 0) {
      copy = 1;
    } else if (a[0] == '-' && a[1] == '-' && value == NULL) {
      usage("an option needs a value");
    } else if (strcmp(a, "--api") == 0) {
      api_name = argv[++i];
    } else if (strcmp(a, "--preload") == 0) {
      library = argv[++i];
    } else if (strcmp(a, "--frames") == 0 || strcmp(a, "--threads") == 0 || strcmp(a, "--rounds") == 0 ||
               strcmp(a, "--measure-calls") == 0 || strcmp(a, "--measure-spawn") == 0 ||
               strcmp(a, "--call-loop") == 0) {
      char *end;
      long v = strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < 1 || v > 100000000) usage("a count must be a whole number ≥ 1");
      if (strcmp(a, "--frames") == 0) frames = (int)v;
      if (strcmp(a, "--threads") == 0) threads = v > 64 ? 64 : (int)v;
      if (strcmp(a, "--rounds") == 0) rounds = (int)v;
      if (strcmp(a, "--measure-calls") == 0) measure_calls_n = v;
      if (strcmp(a, "--measure-spawn") == 0) measure_spawn_n = v;
      if (strcmp(a, "--call-loop") == 0) call_loop_n = v;
    } else if (a[0] == '-') {
      usage("unknown option");
    } else if (device == NULL) {
      device = a;
    } else {
      usage("one device only");
    }
  }
  if (measure_spawn_n > 0) {
    if (library == NULL) usage("--measure-spawn needs --preload LIBRARY");
    return measure_spawn((int)measure_spawn_n, library);
  }
  if (device == NULL) usage("no device given");
  if (call_loop_n > 0) return call_loop(call_loop_n, device);
  if (measure_calls_n > 0) {
    if (library == NULL) usage("--measure-calls needs --preload LIBRARY");
    return measure_calls(measure_calls_n, rounds, library, device);
  }
  if (copy && strcmp(api_name, "ioctl") != 0) usage("--dup goes with --api ioctl");
  load_api(api_name);
  pthread_t ids[64];
  struct capture captures[64];
  for (int t = 0; t < threads; t++) {
    captures[t] = (struct capture){device, frames, check && threads == 1, copy, 0};
    if (threads == 1) {
      capture(&captures[0]);
    } else if (pthread_create(&ids[t], NULL, capture, &captures[t]) != 0) {
      fprintf(stderr, "firstframe-v4l2-client: cannot start a thread\n");
      return 1;
    }
  }
  int status = 0;
  for (int t = 0; t < threads; t++) {
    if (threads > 1) pthread_join(ids[t], NULL);
    status |= captures[t].status;
  }
  return status;
}
