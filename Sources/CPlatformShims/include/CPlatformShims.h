#pragma once
// Process-control and memory-file calls Swift cannot import directly (variadic prctl and fcntl,
// memfd_create).

/// Asks the kernel to send `signal` to the calling process when its parent dies.
/// The corresponding call is `prctl(PR_SET_PDEATHSIG, signal)`. Returns 0 or -1 (errno set).
int CPlatformShims_setParentDeathSignal(int signal);

/// Creates a pipe whose both ends are close-on-exec, atomically.
/// The corresponding call is `pipe2(fds, O_CLOEXEC)`. Returns 0 or -1 (errno set).
int CPlatformShims_pipeCloexec(int fds[2]);

/// Names the calling thread (the kernel keeps 15 bytes). The corresponding call is
/// `prctl(PR_SET_NAME, name)`. Returns 0 or -1 (errno set).
int CPlatformShims_setCurrentThreadName(const char *name);

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
