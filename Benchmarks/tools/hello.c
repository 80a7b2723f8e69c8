// hello.c — the floor of launch stage one for `bench launch-floor`: a C program that, first thing
// in main, reads CLOCK_MONOTONIC and writes it as an `app.main` trace line to FIRSTFRAME_TRACE
// (`fd:N` or a path), then waits for a signal so that the runner can read its mappings.
// Built dynamically and statically by Benchmarks/launch-floor.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  const char *trace = getenv("FIRSTFRAME_TRACE");
  if (trace == NULL) return 0;
  int fd = strncmp(trace, "fd:", 3) == 0 ? atoi(trace + 3)
                                         : open(trace, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return 1;
  char line[160];
  int n = snprintf(line, sizeof line, "{\"ts\":%llu,\"name\":\"app.main\",\"kind\":\"event\",\"pid\":%d,\"fields\":{}}\n",
                   (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec, (int)getpid());
  if (write(fd, line, (size_t)n) != n) return 1;
  pause();
  return 0;
}
