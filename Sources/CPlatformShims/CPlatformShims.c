#define _GNU_SOURCE
#include "CPlatformShims.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int CPlatformShims_setParentDeathSignal(int signal) {
  return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

int CPlatformShims_becomeChildSubreaper(void) {
  return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
}

int CPlatformShims_pipeCloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int CPlatformShims_setCurrentThreadName(const char *name) {
  return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

int CPlatformShims_memfdCreateSealable(const char *name) {
  return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int CPlatformShims_sealSize(int fd) {
  return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
}

int CPlatformShims_sizeIsSealed(int fd) {
  int seals = fcntl(fd, F_GET_SEALS);
  if (seals < 0) return -1;
  return (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) == (F_SEAL_SHRINK | F_SEAL_GROW);
}

/// Waits for the child `pid` to exec or fail: reads `reader` (the status pipe's reading end, its
/// writing end held only by the child, close-on-exec) and closes it. Returns `pid` when the exec
/// closed the pipe, or reaps the child and returns -1 with errno set to the errno it wrote.
static int awaitExec(int reader, pid_t pid) {
  int e = 0;
  ssize_t n;
  do {
    n = read(reader, &e, sizeof e);
  } while (n < 0 && errno == EINTR);
  close(reader);
  if (n == (ssize_t)sizeof e) {
    int reaped;
    while (waitpid(pid, &reaped, 0) < 0 && errno == EINTR) {
    }
    errno = e;
    return -1;
  }
  return pid;
}

int CPlatformShims_spawnTiedToThread(const char *path, char *const argv[], char *const envp[],
                                     const int *sources, const int *targets, int count, int deathSignal) {
  int status[2];  // the exec's errno comes back here; exec closes it (O_CLOEXEC) on success
  if (pipe2(status, O_CLOEXEC) != 0) return -1;
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    int saved = errno;
    close(status[0]);
    close(status[1]);
    errno = saved;
    return -1;
  }
  if (pid == 0) {
    // The child: async-signal-safe calls only until execve.
    setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    struct sigaction dfl;
    dfl.sa_handler = SIG_DFL;
    dfl.sa_flags = 0;
    sigemptyset(&dfl.sa_mask);
    int defaults[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD};
    for (unsigned i = 0; i < sizeof defaults / sizeof defaults[0]; i++) sigaction(defaults[i], &dfl, NULL);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0 && devnull != 0) {
      dup2(devnull, 0);
      close(devnull);
    }
    for (int i = 0; i < count; i++) {
      if (sources[i] == targets[i]) {
        fcntl(sources[i], F_SETFD, 0);
      } else {
        dup2(sources[i], targets[i]);
      }
    }
    if (prctl(PR_SET_PDEATHSIG, (unsigned long)deathSignal, 0UL, 0UL, 0UL) != 0 || getppid() != parent) {
      int e = errno ? errno : ESRCH;
      (void)!write(status[1], &e, sizeof e);
      _exit(127);
    }
    execve(path, argv, envp);
    int e = errno;
    (void)!write(status[1], &e, sizeof e);
    _exit(127);
  }
  close(status[1]);
  return awaitExec(status[0], pid);
}

int CPlatformShims_setNotDumpable(void) { return prctl(PR_SET_DUMPABLE, 0UL, 0UL, 0UL, 0UL); }

/// What the child of `CPlatformShims_spawnAsUser` needs, in memory it reads only.
struct SpawnChild {
  const char *path;
  char *const *argv;
  char *const *envp;
  const int *sources;
  const int *targets;
  int count;
  int highest;
  unsigned uid;
  unsigned gid;
  const gid_t *groups;
  int groupCount;
  int changeUser;
  /// `cgroup.procs` to write itself into first (the pre-exec join), or -1.
  int cgroupFD;
  /// Where the failing call's errno goes: this pipe's writing end (clone3: the child has its own
  /// memory), or -1 for `*failure` (vfork: the child shares the parent's).
  int statusFD;
};

/// The child's steps, raw system calls only (the parent is multi-threaded, and under vfork shares
/// this memory): cgroup join, process group, signals, descriptors, user, execve. Never returns.
static _Noreturn void spawnChild(const struct SpawnChild *c, volatile int *failure) {
  int e;
  // Into the cgroup before anything else (pid 0: the writer itself).
  if (c->cgroupFD >= 0 && syscall(SYS_write, c->cgroupFD, "0\n", 2) != 2) {
    e = errno ? errno : EIO;
    goto fail;
  }
  syscall(SYS_setpgid, 0, 0);
  struct sigaction dfl, current;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < _NSIG; sig++) {
    if (sig == SIGKILL || sig == SIGSTOP) continue;
    if (syscall(SYS_rt_sigaction, sig, NULL, &current, _NSIG / 8) != 0) continue;
    int keepIgnored = current.sa_handler == SIG_IGN && sig != SIGINT && sig != SIGTERM && sig != SIGHUP
      && sig != SIGPIPE && sig != SIGQUIT && sig != SIGXFSZ;
    if (!keepIgnored) syscall(SYS_rt_sigaction, sig, &dfl, NULL, _NSIG / 8);
  }
  sigset_t none;
  sigemptyset(&none);
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, NULL, _NSIG / 8);
  int devnull = (int)syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY);
  if (devnull >= 0 && devnull != 0) {
    syscall(SYS_dup3, devnull, 0, 0);
    syscall(SYS_close, devnull);
  }
  for (int i = 0; i < c->count; i++) {
    if (c->sources[i] == c->targets[i]) {
      syscall(SYS_fcntl, c->sources[i], F_SETFD, 0);
    } else {
      syscall(SYS_dup3, c->sources[i], c->targets[i], 0);
    }
  }
  // Nothing else bench holds reaches the app, close-on-exec or not (ENOSYS before Linux 5.9:
  // then only close-on-exec keeps them). The status pipe (close-on-exec, above every target)
  // stays until the exec.
#ifdef SYS_close_range
  if (c->statusFD < 0) {
    syscall(SYS_close_range, (unsigned)c->highest + 1, ~0U, 0);
  } else {
    if (c->statusFD > c->highest + 1)
      syscall(SYS_close_range, (unsigned)c->highest + 1, (unsigned)c->statusFD - 1, 0);
    syscall(SYS_close_range, (unsigned)c->statusFD + 1, ~0U, 0);
  }
#endif
  if (c->changeUser
      && (syscall(SYS_setgroups, (size_t)c->groupCount, c->groups) != 0
          || syscall(SYS_setresgid, c->gid, c->gid, c->gid) != 0
          || syscall(SYS_setresuid, c->uid, c->uid, c->uid) != 0)) {
    e = errno ? errno : EPERM;
    goto fail;
  }
  execve(c->path, c->argv, c->envp);
  e = errno;
fail:
  if (c->statusFD >= 0) {
    syscall(SYS_write, c->statusFD, &e, sizeof e);
  } else {
    *failure = e;
  }
  _exit(127);
}

#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

/// `clone3`'s arguments as of Linux 5.7 (`struct clone_args`, CLONE_ARGS_SIZE_VER2: 88 bytes),
/// spelled here so that older headers build.
struct SpawnCloneArgs {
  uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid, set_tid_size,
    cgroup;
};

/// The clone3 path of `CPlatformShims_spawnAsUser`: a fork (no CLONE_VM: the child has its own
/// copy of memory and stack, so returning from the system call into this frame is safe) born in
/// the cgroup `directoryFD`. Returns the pid, -1 with errno set (the child's failing call's errno
/// when it failed), or -2 with errno set when clone3 or CLONE_INTO_CGROUP is not available here
/// (ENOSYS, EINVAL, E2BIG): the caller falls back to the pre-exec join.
static int spawnIntoCgroup(struct SpawnChild *c, int directoryFD) {
  int status[2];
  if (pipe2(status, O_CLOEXEC) != 0) return -1;
  // The writing end above every target, so that no dup3 replaces it and close_range spares it.
  int writer = fcntl(status[1], F_DUPFD_CLOEXEC, c->highest + 1);
  close(status[1]);
  if (writer < 0) {
    int saved = errno;
    close(status[0]);
    errno = saved;
    return -1;
  }
  c->statusFD = writer;
  c->cgroupFD = -1;
  struct SpawnCloneArgs args;
  memset(&args, 0, sizeof args);
  args.flags = CLONE_INTO_CGROUP;
  args.exit_signal = SIGCHLD;
  args.cgroup = (uint64_t)directoryFD;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  long pid = syscall(SYS_clone3, &args, sizeof args);
  if (pid == 0) spawnChild(c, NULL);
  int saved = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  close(writer);
  if (pid < 0) {
    close(status[0]);
    errno = saved;
    return saved == ENOSYS || saved == EINVAL || saved == E2BIG ? -2 : -1;
  }
  return awaitExec(status[0], (pid_t)pid);
}

int CPlatformShims_spawnAsUser(const char *path, char *const argv[], char *const envp[], const int *sources,
                               const int *targets, int count, unsigned uid, unsigned gid,
                               const unsigned *groups, int groupCount, int changeUser, int cgroupFD,
                               int cgroupDirectoryFD, int *clonedIntoCgroup) {
  if (clonedIntoCgroup) *clonedIntoCgroup = 0;
  int highest = 2;
  for (int i = 0; i < count; i++)
    if (targets[i] > highest) highest = targets[i];
  gid_t list[64];
  if (groupCount < 0 || groupCount > 64) {
    errno = EINVAL;
    return -1;
  }
  for (int i = 0; i < groupCount; i++) list[i] = (gid_t)groups[i];
  struct SpawnChild child = {.path = path, .argv = argv, .envp = envp, .sources = sources, .targets = targets,
                             .count = count, .highest = highest, .uid = uid, .gid = gid, .groups = list,
                             .groupCount = groupCount, .changeUser = changeUser, .cgroupFD = cgroupFD,
                             .statusFD = -1};
  if (cgroupDirectoryFD >= 0) {
    int pid = spawnIntoCgroup(&child, cgroupDirectoryFD);
    if (pid != -2) {
      if (pid > 0 && clonedIntoCgroup) *clonedIntoCgroup = 1;
      return pid;
    }
    // No clone3 or no CLONE_INTO_CGROUP here: the child joins the group before it execs.
    child.statusFD = -1;
    child.cgroupFD = cgroupFD;
  }
  // The child shares this memory until execve (vfork): it writes its failure here and calls
  // only raw system calls (glibc's setresuid would signal this process's other threads).
  volatile int failure = 0;
  // As glibc's posix_spawn: no handler of this process may run in the child before its
  // handlers are reset, so every signal is blocked across the vfork.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  pid_t pid = vfork();
  if (pid < 0) {
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return -1;
  }
  if (pid == 0) spawnChild(&child, &failure);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (failure != 0) {
    int reaped;
    while (waitpid(pid, &reaped, 0) < 0 && errno == EINTR) {
    }
    errno = failure;
    return -1;
  }
  return pid;
}

int CPlatformShims_getAffinity(int pid, unsigned char *mask, int bytes) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity((pid_t)pid, sizeof(set), &set) != 0) return -1;
  int n = bytes < (int)sizeof(set) ? bytes : (int)sizeof(set);
  memset(mask, 0, (size_t)bytes);
  for (int cpu = 0; cpu < n * 8; cpu++) {
    if (CPU_ISSET(cpu, &set)) mask[cpu / 8] |= (unsigned char)(1u << (cpu % 8));
  }
  return 0;
}

int CPlatformShims_setAffinity(int pid, const unsigned char *mask, int bytes) {
  cpu_set_t set;
  CPU_ZERO(&set);
  int n = bytes < (int)sizeof(set) ? bytes : (int)sizeof(set);
  for (int cpu = 0; cpu < n * 8; cpu++) {
    if (mask[cpu / 8] & (1u << (cpu % 8))) CPU_SET(cpu, &set);
  }
  return sched_setaffinity((pid_t)pid, sizeof(set), &set);
}

int CPlatformShims_currentThreadID(void) { return (int)syscall(SYS_gettid); }
