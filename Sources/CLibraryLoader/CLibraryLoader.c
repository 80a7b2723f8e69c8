#define _GNU_SOURCE
#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t loadLock = PTHREAD_MUTEX_INITIALIZER;

void *CLibraryLoader_open(const char *path, char *message, size_t messageSize) {
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *why = dlerror();
    snprintf(message, messageSize, "%s", why ? why : path);
  }
  return library;
}

int CLibraryLoader_resolve(void *library, const char *name, void **slot, char *message, size_t messageSize) {
  dlerror();
  void *symbol = dlsym(library, name);
  if (symbol == NULL) {
    const char *why = dlerror();
    snprintf(message, messageSize, "%s", why ? why : name);
    return -1;
  }
  *slot = symbol;
  return 0;
}

int CLibraryLoader_load(const char *path, const CLibraryLoader_Symbol *symbols, size_t count, int *loaded,
                        char *message, size_t messageSize) {
  pthread_mutex_lock(&loadLock);
  int status = 0;
  void *library = CLibraryLoader_open(path, message, messageSize);
  if (library == NULL) {
    status = -1;
  } else if (!__atomic_load_n(loaded, __ATOMIC_ACQUIRE)) {
    for (size_t i = 0; i < count && status == 0; i++) {
      status = CLibraryLoader_resolve(library, symbols[i].name, symbols[i].slot, message, messageSize);
    }
    if (status == 0) {
      // Release: a shim that reads `*loaded` (acquire) without the lock sees the filled table.
      __atomic_store_n(loaded, 1, __ATOMIC_RELEASE);  // the library stays open for the process's life
    } else {
      dlclose(library);
    }
  } else {
    dlclose(library);  // already resolved from an earlier load: drop this reference
  }
  pthread_mutex_unlock(&loadLock);
  return status;
}
