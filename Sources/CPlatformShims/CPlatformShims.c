#define _GNU_SOURCE
#include "CPlatformShims.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
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
  int e = 0;
  ssize_t n;
  do {
    n = read(status[0], &e, sizeof e);
  } while (n < 0 && errno == EINTR);
  close(status[0]);
  if (n == (ssize_t)sizeof e) {
    int reaped;
    while (waitpid(pid, &reaped, 0) < 0 && errno == EINTR) {
    }
    errno = e;
    return -1;
  }
  return pid;
}

int CPlatformShims_setNotDumpable(void) { return prctl(PR_SET_DUMPABLE, 0UL, 0UL, 0UL, 0UL); }

int CPlatformShims_spawnAsUser(const char *path, char *const argv[], char *const envp[], const int *sources,
                               const int *targets, int count, unsigned uid, unsigned gid,
                               const unsigned *groups, int groupCount, int changeUser, int cgroupFD) {
  // The child shares this memory until execve (vfork): it writes its failure here and calls
  // only raw system calls (glibc's setresuid would signal this process's other threads).
  volatile int failure = 0;
  int highest = 2;
  for (int i = 0; i < count; i++)
    if (targets[i] > highest) highest = targets[i];
  gid_t list[64];
  if (groupCount < 0 || groupCount > 64) {
    errno = EINVAL;
    return -1;
  }
  for (int i = 0; i < groupCount; i++) list[i] = (gid_t)groups[i];
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
  if (pid == 0) {
    // Into the cgroup before anything else (pid 0: the writer itself).
    if (cgroupFD >= 0 && syscall(SYS_write, cgroupFD, "0\n", 2) != 2) {
      failure = errno ? errno : EIO;
      _exit(127);
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
    for (int i = 0; i < count; i++) {
      if (sources[i] == targets[i]) {
        syscall(SYS_fcntl, sources[i], F_SETFD, 0);
      } else {
        syscall(SYS_dup3, sources[i], targets[i], 0);
      }
    }
    // Nothing else bench holds reaches the app, close-on-exec or not (ENOSYS before Linux 5.9:
    // then only close-on-exec keeps them).
#ifdef SYS_close_range
    syscall(SYS_close_range, (unsigned)highest + 1, ~0U, 0);
#endif
    if (changeUser
        && (syscall(SYS_setgroups, (size_t)groupCount, list) != 0 || syscall(SYS_setresgid, gid, gid, gid) != 0
            || syscall(SYS_setresuid, uid, uid, uid) != 0)) {
      failure = errno ? errno : EPERM;
      _exit(127);
    }
    execve(path, argv, envp);
    failure = errno;
    _exit(127);
  }
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
