#pragma once
// CLibraryLoader: the one dlopen loader of the shims that load a C library at run time
// (CSQLiteShims: libsqlite3, CPQShims: libpq, CXCBShims: libxcb, CV4L2Shims: libv4l2). Each
// shim keeps a table of function pointers; this opens the library and fills the table from a
// list of names, once, under one lock, with dlerror's text in a caller's buffer when it cannot.
// Everything is prefixed CLibraryLoader_ (STYLE.md rule 5).
#include <stddef.h>

/// One function to resolve: its name in the library and the pointer to fill.
typedef struct {
  const char *name;
  void **slot;
} CLibraryLoader_Symbol;

/// dlopen(path, RTLD_NOW | RTLD_LOCAL), or NULL with dlerror's text in `message`.
void *CLibraryLoader_open(const char *path, char *message, size_t messageSize);

/// dlsym(library, name) into `*slot`: 0, or -1 with dlerror's text in `message`.
int CLibraryLoader_resolve(void *library, const char *name, void **slot, char *message, size_t messageSize);

/// Opens `path` and, the first time one succeeds (`*loaded` still 0), resolves each of the
/// `count` symbols and sets `*loaded` to 1; the library then stays open for the life of the
/// process. Thread-safe (one lock for every shim); `*loaded` is stored with release order, so a
/// shim may read it without the lock (`__atomic_load_n(…, __ATOMIC_ACQUIRE)`) before calling
/// through its table. Returns 0 when the functions are usable,
/// otherwise -1 with the reason in `message`. A path that cannot be opened always fails, even
/// when another one was loaded before (a test asking for a missing library sees it missing).
int CLibraryLoader_load(const char *path, const CLibraryLoader_Symbol *symbols, size_t count, int *loaded,
                        char *message, size_t messageSize);
