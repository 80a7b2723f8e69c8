// launch-floor: the floor for `process_launch` — posix_spawn → main of a small C program.
//
// Parent mode (`launch-floor N`): spawns itself N times with the CLOCK_MONOTONIC spawn time in
// argv, reaps with waitpid, and prints the median and p90 of spawn → child main, in ms.
// Child mode (`launch-floor --child NS`): prints now − NS (ns) and exits.
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--child") == 0) {
    long long t = now_ns();
    printf("%lld\n", t - atoll(argv[2]));
    return 0;
  }
  int n = argc > 1 ? atoi(argv[1]) : 50;
  if (n < 1) { fprintf(stderr, "launch-floor: N must be ≥ 1\n"); return 2; }
  double *ms = calloc((size_t)n, sizeof *ms);
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len < 0) return 1;
  self[len] = 0;
  for (int i = 0; i < n; i++) {
    int fds[2];
    if (pipe(fds) != 0) return 1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    char stamp[32];
    long long t0 = now_ns();
    snprintf(stamp, sizeof stamp, "%lld", t0);
    char *args[] = {self, "--child", stamp, NULL};
    pid_t pid;
    if (posix_spawn(&pid, self, &fa, NULL, args, environ) != 0) return 1;
    close(fds[1]);
    char buf[64] = {0};
    ssize_t r = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    posix_spawn_file_actions_destroy(&fa);
    ms[i] = r > 0 ? atoll(buf) / 1e6 : -1;
  }
  qsort(ms, (size_t)n, sizeof *ms, cmp);
  printf("spawn → main of a small C program: median %.3f ms, p90 %.3f ms (n=%d)\n", ms[n / 2], ms[(n * 9) / 10], n);
  free(ms);
  return 0;
}
