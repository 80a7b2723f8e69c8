// Benchmarks/tools/sched-event-cost.c — what one traced scheduler event costs on this machine.
//
// Two threads pinned to one CPU play ping-pong over two pipes: every round trip is two
// wake-ups and two context switches (sched_wakeup ×2, sched_switch ×2). The program makes a
// tracefs instance of its own set up exactly as bench's (`firstframe-cost-<pid>`: the `mono`
// clock, the six `sched` events bench enables, 4 MiB per CPU, overwrite off) and times
// ROUNDS round trips with the instance's tracing off and on, alternating, REPEATS times each.
// It prints the median ns per round trip of each side, the events recorded per round trip
// (the pinned CPU's `entries`, read after each traced repeat), and the difference divided by the
// events: ns per traced event. Only the pinned CPU's events are counted (the instance traces
// every CPU, as bench's does; other programs' events elsewhere cost this loop nothing). Events dropped because the buffer filled are reported (they
// cost less than a recorded one, so a run with drops understates the cost: keep ROUNDS below
// about 15,000).
//
// usage: sched-event-cost [ROUNDS] [REPEATS] [CPU]   (defaults 2000, 201, 0); needs root.
// Output: one `key value` line per figure (ns_per_event from the medians, ns_per_event_min from
// each side's fastest repeat, events_per_round, …), for a script. On a loaded machine the
// medians carry other programs' preemptions; the minima are the better estimate there.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char instance[256];
static int pings[2], pongs[2];
static long rounds;
static int cpu;

static void fail(const char *what) {
  fprintf(stderr, "sched-event-cost: %s: %s\n", what, strerror(errno));
  if (instance[0]) rmdir(instance);
  exit(1);
}

static void put(const char *file, const char *value) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", instance, file);
  FILE *f = fopen(path, "w");
  if (!f || fputs(value, f) < 0 || fclose(f) != 0) fail(path);
}

// The sum of `key: N` in per_cpu/cpuK/stats over every CPU (only = -1) or CPU `only`.
static long stat_sum(const char *key, int only) {
  long total = 0;
  for (int k = 0; k < 4096; k++) {
    if (only >= 0 && k != only) continue;
    char path[512], line[256];
    snprintf(path, sizeof path, "%s/per_cpu/cpu%d/stats", instance, k);
    FILE *f = fopen(path, "r");
    if (!f) break;
    while (fgets(line, sizeof line, f)) {
      size_t n = strlen(key);
      if (strncmp(line, key, n) == 0 && line[n] == ':') total += atol(line + n + 1);
    }
    fclose(f);
  }
  return total;
}

static void pin(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) fail("sched_setaffinity");
}

static void *ponger(void *unused) {
  (void)unused;
  pin();
  char byte;
  for (;;) {
    if (read(pings[0], &byte, 1) != 1) return NULL;
    if (byte == 'q') return NULL;
    if (write(pongs[1], &byte, 1) != 1) return NULL;
  }
}

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

// ROUNDS round trips; ns for all of them.
static long long ping_pong(void) {
  char byte = 'p';
  long long start = now_ns();
  for (long i = 0; i < rounds; i++) {
    if (write(pings[1], &byte, 1) != 1 || read(pongs[0], &byte, 1) != 1) fail("ping-pong");
  }
  return now_ns() - start;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void on_signal(int sig) {
  if (instance[0]) rmdir(instance);
  signal(sig, SIG_DFL);
  raise(sig);
}

int main(int argc, char **argv) {
  rounds = argc > 1 ? atol(argv[1]) : 2000;
  int repeats = argc > 2 ? atoi(argv[2]) : 201;
  cpu = argc > 3 ? atoi(argv[3]) : 0;
  if (rounds < 1 || repeats < 1 || cpu < 0) {
    fprintf(stderr, "sched-event-cost: ROUNDS and REPEATS must be ≥ 1, CPU ≥ 0\n");
    return 2;
  }
  struct stat root;
  if (stat("/sys/kernel/tracing/instances", &root) != 0) {
    fprintf(stderr, "sched-event-cost: no tracefs at /sys/kernel/tracing (root? run bench once)\n");
    return 2;
  }
  snprintf(instance, sizeof instance, "/sys/kernel/tracing/instances/firstframe-cost-%d", (int)getpid());
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  if (mkdir(instance, 0700) != 0) {
    instance[0] = 0;
    fail("mkdir instance");
  }
  // As bench's TracefsSession.configure.
  put("tracing_on", "0");
  put("trace_clock", "mono");
  put("buffer_size_kb", "4096");
  put("options/overwrite", "0");
  put("options/record-tgid", "1");
  const char *events[] = {"sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_process_fork",
                          "sched_process_exec", "sched_process_exit"};
  for (size_t i = 0; i < sizeof events / sizeof *events; i++) {
    char file[128];
    snprintf(file, sizeof file, "events/sched/%s/enable", events[i]);
    put(file, "1");
  }
  if (pipe(pings) != 0 || pipe(pongs) != 0) fail("pipe");
  pthread_t thread;
  if (pthread_create(&thread, NULL, ponger, NULL) != 0) fail("pthread_create");
  pin();
  ping_pong();  // warm-up, untraced
  double *off = calloc(repeats, sizeof *off), *on = calloc(repeats, sizeof *on);
  double *per_round = calloc(repeats, sizeof *per_round);
  long dropped = 0;
  for (int r = 0; r < repeats; r++) {
    // Alternate which side goes first, so a drift of the machine's load falls on both alike.
    for (int side = 0; side < 2; side++) {
      int traced = (side + r) % 2;
      put("trace", "");
      if (traced) put("tracing_on", "1");
      long long ns = ping_pong();
      if (traced) {
        put("tracing_on", "0");
        on[r] = (double)ns / rounds;
        per_round[r] = (double)stat_sum("entries", cpu) / rounds;
        dropped += stat_sum("dropped events", -1) + stat_sum("overrun", -1);
      } else {
        off[r] = (double)ns / rounds;
      }
    }
  }
  char byte = 'q';
  if (write(pings[1], &byte, 1) != 1) fail("write");
  pthread_join(thread, NULL);
  rmdir(instance);
  double off_median = median(off, repeats), on_median = median(on, repeats);
  double events_per_round = median(per_round, repeats);
  printf("rounds %ld\nrepeats %d\ncpu %d\n", rounds, repeats, cpu);
  printf("off_ns_per_round %.1f\non_ns_per_round %.1f\n", off_median, on_median);
  printf("off_ns_per_round_min %.1f\non_ns_per_round_min %.1f\n", off[0], on[0]);
  printf("events_per_round %.2f\n", events_per_round);
  printf("ns_per_event %.1f\n", (on_median - off_median) / events_per_round);
  // The least-disturbed repeat of each side: another program's preemption only adds time.
  printf("ns_per_event_min %.1f\n", (on[0] - off[0]) / events_per_round);
  printf("dropped_events %ld\n", dropped);
  return 0;
}
