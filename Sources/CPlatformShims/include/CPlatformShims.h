#pragma once
// Process-control calls Swift cannot import directly (variadic prctl).

/// Asks the kernel to send `signal` to the calling process when its parent dies.
/// The corresponding call is `prctl(PR_SET_PDEATHSIG, signal)`. Returns 0 or -1 (errno set).
int CPlatformShims_setParentDeathSignal(int signal);

/// Creates a pipe whose both ends are close-on-exec, atomically.
/// The corresponding call is `pipe2(fds, O_CLOEXEC)`. Returns 0 or -1 (errno set).
int CPlatformShims_pipeCloexec(int fds[2]);

/// Names the calling thread (the kernel keeps 15 bytes). The corresponding call is
/// `prctl(PR_SET_NAME, name)`. Returns 0 or -1 (errno set).
int CPlatformShims_setCurrentThreadName(const char *name);

/// Starts `path` with `argv` and `envp` (NULL-terminated) as a child in its own process group,
/// with stdin from /dev/null, stdout and stderr to `outputFd`, and `keepFd` (or -1) left open
/// across exec. The child asks the kernel to send it `deathSignal` when the thread that called
/// this exits — so a server such as Xvfb ends with the thread that owns it, even if the whole
/// process is killed. The corresponding calls are `fork`, `prctl(PR_SET_PDEATHSIG)` and `execve`.
/// Returns the child's pid, or -1 with errno set (to the exec's errno when the exec failed).
int CPlatformShims_spawnTiedToThread(const char *path, char *const argv[], char *const envp[], int outputFd,
                                     int keepFd, int deathSignal);
