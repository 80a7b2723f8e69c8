#define _GNU_SOURCE
#include "CSQLiteShims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

typedef CSQLiteShims_Database Db;
typedef CSQLiteShims_Statement Stmt;

// SQLite's flags and its "copy the text" destructor (sqlite3.h's values; the header is not used).
#define OPEN_READONLY 0x00000001
#define OPEN_READWRITE 0x00000002
#define OPEN_CREATE 0x00000004
#define OPEN_FULLMUTEX 0x00010000
#define TRANSIENT ((void (*)(void *)) - 1)

// Every resolved function, by the SQLite name it was looked up under.
static struct {
  int loaded;
  int (*open_v2)(const char *, Db **, int, const char *);
  int (*close_v2)(Db *);
  const char *(*errmsg)(Db *);
  int (*busy_timeout)(Db *, int);
  int (*exec)(Db *, const char *, void *, void *, char **);
  int64_t (*last_insert_rowid)(Db *);
  int (*changes)(Db *);
  int (*prepare_v2)(Db *, const char *, int, Stmt **, const char **);
  int (*finalize)(Stmt *);
  int (*step)(Stmt *);
  int (*reset)(Stmt *);
  int (*clear_bindings)(Stmt *);
  int (*bind_int64)(Stmt *, int, int64_t);
  int (*bind_double)(Stmt *, int, double);
  int (*bind_text)(Stmt *, int, const char *, int, void (*)(void *));
  int (*bind_null)(Stmt *, int);
  int (*column_type)(Stmt *, int);
  int64_t (*column_int64)(Stmt *, int);
  double (*column_double)(Stmt *, int);
  const unsigned char *(*column_text)(Stmt *, int);
  int (*column_bytes)(Stmt *, int);
} sqlite;

static pthread_mutex_t loadLock = PTHREAD_MUTEX_INITIALIZER;

// Resolves `name` in `library` into `*slot`; on failure writes why into `message`.
static int resolve(void *library, const char *name, void **slot, char *message, size_t size) {
  dlerror();
  void *symbol = dlsym(library, name);
  if (symbol == NULL) {
    const char *why = dlerror();
    snprintf(message, size, "%s", why ? why : name);
    return -1;
  }
  *slot = symbol;
  return 0;
}

#define RESOLVE(field, name) \
  if (resolve(lib, name, (void **)&sqlite.field, message, messageSize) != 0) return -1

static int resolveAll(void *lib, char *message, size_t messageSize) {
  RESOLVE(open_v2, "sqlite3_open_v2");
  RESOLVE(close_v2, "sqlite3_close_v2");
  RESOLVE(errmsg, "sqlite3_errmsg");
  RESOLVE(busy_timeout, "sqlite3_busy_timeout");
  RESOLVE(exec, "sqlite3_exec");
  RESOLVE(last_insert_rowid, "sqlite3_last_insert_rowid");
  RESOLVE(changes, "sqlite3_changes");
  RESOLVE(prepare_v2, "sqlite3_prepare_v2");
  RESOLVE(finalize, "sqlite3_finalize");
  RESOLVE(step, "sqlite3_step");
  RESOLVE(reset, "sqlite3_reset");
  RESOLVE(clear_bindings, "sqlite3_clear_bindings");
  RESOLVE(bind_int64, "sqlite3_bind_int64");
  RESOLVE(bind_double, "sqlite3_bind_double");
  RESOLVE(bind_text, "sqlite3_bind_text");
  RESOLVE(bind_null, "sqlite3_bind_null");
  RESOLVE(column_type, "sqlite3_column_type");
  RESOLVE(column_int64, "sqlite3_column_int64");
  RESOLVE(column_double, "sqlite3_column_double");
  RESOLVE(column_text, "sqlite3_column_text");
  RESOLVE(column_bytes, "sqlite3_column_bytes");
  return 0;
}

int CSQLiteShims_load(const char *path, char *message, size_t messageSize) {
  pthread_mutex_lock(&loadLock);
  int status = 0;
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    const char *why = dlerror();
    snprintf(message, messageSize, "%s", why ? why : path);
    status = -1;
  } else if (!sqlite.loaded) {
    if (resolveAll(lib, message, messageSize) == 0) {
      sqlite.loaded = 1;  // the library stays open for the life of the process
    } else {
      dlclose(lib);
      status = -1;
    }
  } else {
    dlclose(lib);  // already resolved from an earlier load: drop this reference
  }
  pthread_mutex_unlock(&loadLock);
  return status;
}

int CSQLiteShims_open(const char *path, int readOnly, Db **db) {
  int flags = (readOnly ? OPEN_READONLY : OPEN_READWRITE | OPEN_CREATE) | OPEN_FULLMUTEX;
  return sqlite.open_v2(path, db, flags, NULL);
}
int CSQLiteShims_close(Db *db) { return sqlite.close_v2(db); }
const char *CSQLiteShims_errorMessage(Db *db) { return sqlite.errmsg(db); }
int CSQLiteShims_busyTimeout(Db *db, int milliseconds) { return sqlite.busy_timeout(db, milliseconds); }
int CSQLiteShims_exec(Db *db, const char *sql) { return sqlite.exec(db, sql, NULL, NULL, NULL); }
int64_t CSQLiteShims_lastInsertRowID(Db *db) { return sqlite.last_insert_rowid(db); }
int CSQLiteShims_changes(Db *db) { return sqlite.changes(db); }
int CSQLiteShims_prepare(Db *db, const char *sql, Stmt **statement) {
  return sqlite.prepare_v2(db, sql, -1, statement, NULL);
}
int CSQLiteShims_finalize(Stmt *statement) { return sqlite.finalize(statement); }
int CSQLiteShims_step(Stmt *statement) { return sqlite.step(statement); }
int CSQLiteShims_reset(Stmt *statement) {
  int status = sqlite.reset(statement);
  sqlite.clear_bindings(statement);
  return status;
}
int CSQLiteShims_bindInt64(Stmt *statement, int index, int64_t value) {
  return sqlite.bind_int64(statement, index, value);
}
int CSQLiteShims_bindDouble(Stmt *statement, int index, double value) {
  return sqlite.bind_double(statement, index, value);
}
int CSQLiteShims_bindText(Stmt *statement, int index, const char *text, int bytes) {
  return sqlite.bind_text(statement, index, text, bytes, TRANSIENT);
}
int CSQLiteShims_bindNull(Stmt *statement, int index) { return sqlite.bind_null(statement, index); }
int CSQLiteShims_columnType(Stmt *statement, int column) { return sqlite.column_type(statement, column); }
int64_t CSQLiteShims_columnInt64(Stmt *statement, int column) { return sqlite.column_int64(statement, column); }
double CSQLiteShims_columnDouble(Stmt *statement, int column) { return sqlite.column_double(statement, column); }
const unsigned char *CSQLiteShims_columnText(Stmt *statement, int column) {
  return sqlite.column_text(statement, column);
}
int CSQLiteShims_columnBytes(Stmt *statement, int column) { return sqlite.column_bytes(statement, column); }
