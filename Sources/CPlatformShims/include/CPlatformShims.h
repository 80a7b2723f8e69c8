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
