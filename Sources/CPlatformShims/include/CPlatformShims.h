#pragma once
// Process-control and memory-file calls Swift cannot import directly (variadic prctl and fcntl,
// memfd_create).

/// Asks the kernel to send `signal` to the calling process when its parent dies.
/// The corresponding call is `prctl(PR_SET_PDEATHSIG, signal)`. Returns 0 or -1 (errno set).
int CPlatformShims_setParentDeathSignal(int signal);

/// Makes the calling process a child subreaper: an orphan among its descendants is re-parented
/// to it rather than to init. The corresponding call is `prctl(PR_SET_CHILD_SUBREAPER, 1)`.
/// Returns 0 or -1 (errno set).
int CPlatformShims_becomeChildSubreaper(void);

/// Creates a pipe whose both ends are close-on-exec, atomically.
/// The corresponding call is `pipe2(fds, O_CLOEXEC)`. Returns 0 or -1 (errno set).
int CPlatformShims_pipeCloexec(int fds[2]);

/// Names the calling thread (the kernel keeps 15 bytes). The corresponding call is
/// `prctl(PR_SET_NAME, name)`. Returns 0 or -1 (errno set).
int CPlatformShims_setCurrentThreadName(const char *name);

/// The calling thread's kernel thread id: `syscall(SYS_gettid)` (glibc's `gettid` wrapper is not
/// visible to Swift).
int CPlatformShims_currentThreadID(void);

/// Creates an anonymous memory file that can be sealed and is closed on exec. The corresponding
/// call is `memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING)`. Returns the descriptor or -1
/// (errno set).
int CPlatformShims_memfdCreateSealable(const char *name);

/// Fixes the size of a memory file for good: no shrinking, no growing, no further seals. The
/// corresponding call is `fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)`.
/// Returns 0 or -1 (errno set).
int CPlatformShims_sealSize(int fd);

/// Whether the size of the file behind `fd` is sealed (both `F_SEAL_SHRINK` and `F_SEAL_GROW`):
/// 1 or 0, or -1 (errno set). The corresponding call is `fcntl(fd, F_GET_SEALS)`.
int CPlatformShims_sizeIsSealed(int fd);

/// Starts `path` with `argv` and `envp` (NULL-terminated) as a child in its own process group,
/// with stdin from /dev/null, then for each of the `count` pairs `sources[i]` duplicated onto
/// `targets[i]` (`dup2`; a pair with source equal to target is left open across exec), in order.
/// The child asks the kernel to send it `deathSignal` when the thread that called
/// this exits — so a server such as Xvfb ends with the thread that owns it, even if the whole
/// process is killed. The corresponding calls are `fork`, `prctl(PR_SET_PDEATHSIG)` and `execve`.
/// Returns the child's pid, or -1 with errno set (to the exec's errno when the exec failed).
int CPlatformShims_spawnTiedToThread(const char *path, char *const argv[], char *const envp[],
                                     const int *sources, const int *targets, int count, int deathSignal);

/// Makes the calling process not dumpable: no core dump, and its `/proc/<pid>` files (its
/// descriptors under `fd/`, its memory) owned by root and closed to ptrace, so that a process of
/// the same user cannot reach them. The corresponding call is `prctl(PR_SET_DUMPABLE, 0)`.
/// Returns 0 or -1 (errno set).
int CPlatformShims_setNotDumpable(void);

/// Starts `path` with `argv` and `envp` (NULL-terminated) as a child in its own process group,
/// as `posix_spawn` would (stdin from /dev/null, the `count` pairs `sources[i]` duplicated onto
/// `targets[i]` in order, default actions for SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT and
/// SIGXFSZ, no signal blocked), but as user `uid`, group `gid` and the `groupCount` supplementary
/// `groups` only, with every descriptor above the highest target closed. The corresponding calls
/// are `vfork` (or `clone3`, below), `setgroups`, `setresgid`, `setresuid`, `close_range` and
/// `execve` (the raw system calls: under vfork the child shares the parent's memory until it
/// execs). Returns the child's pid, or -1 with errno set (to the failing call's errno in the child).
///
/// `changeUser` 0 keeps this process's user (uid, gid and groups are then not used).
/// `cgroupFD` ≥ 0 is a descriptor open for writing on a cgroup's `cgroup.procs` (v1 or v2): the
/// child writes `0` there (itself) first of all, before anything else it does and before
/// `execve`, so that the app and whatever it forks run in that cgroup from their first
/// instruction (issue 41 item 4: spawned into the cgroup, not moved after).
///
/// `cgroupDirectoryFD` ≥ 0 is a descriptor of that cgroup's folder (cgroup v2, `O_DIRECTORY`):
/// the child is then born in the group — `clone3` with `CLONE_INTO_CGROUP` and `exit_signal`
/// SIGCHLD, without `CLONE_VM` (a fork: its own copy of memory), the exec's failure reported
/// through a close-on-exec pipe — and `*clonedIntoCgroup` is set to 1. Where the kernel has no
/// `clone3` or no `CLONE_INTO_CGROUP` (`ENOSYS`, `E2BIG`, `EINVAL`) the child joins through
/// `cgroupFD` as above and `*clonedIntoCgroup` is 0. Any other error of `clone3` (`EACCES`, `EBUSY`,
/// `EOPNOTSUPP` from the cgroup) is returned. The child's steps are the same on both paths.
int CPlatformShims_spawnAsUser(const char *path, char *const argv[], char *const envp[], const int *sources,
                               const int *targets, int count, unsigned uid, unsigned gid,
                               const unsigned *groups, int groupCount, int changeUser, int cgroupFD,
                               int cgroupDirectoryFD, int *clonedIntoCgroup);

/// The CPUs process `pid` (0: the calling thread) may run on, as a bit mask of `bytes` bytes
/// (bit N of byte N/8 = CPU N). The corresponding call is `sched_getaffinity(pid, bytes, mask)`.
/// Returns 0 or -1 (errno set).
int CPlatformShims_getAffinity(int pid, unsigned char *mask, int bytes);

/// Restricts process `pid` (0: the calling thread) to the CPUs set in `mask` (`bytes` bytes, as
/// above). The corresponding call is `sched_setaffinity(pid, bytes, mask)`. Returns 0 or -1
/// (errno set).
int CPlatformShims_setAffinity(int pid, const unsigned char *mask, int bytes);
