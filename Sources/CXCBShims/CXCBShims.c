#define _GNU_SOURCE
#include "CXCBShims.h"

#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

// The C types of the XCB functions, spelled with this shim's own types (see the header).
typedef CXCBShims_Connection Conn;
typedef CXCBShims_Cookie Cookie;
typedef struct {
  int namelen;
  const char *name;
  int datalen;
  const char *data;
} AuthInfo;  // xcb_auth_info_t
typedef struct {
  int32_t matrix[9];
} Transform;  // xcb_render_transform_t: nine xcb_render_fixed_t (16.16), passed by value
typedef struct {
  const char *name;
  int global_id;
} Extension;  // xcb_extension_t: libxcb numbers it on first use
typedef struct {
  size_t count;
  Extension *ext;
  uint8_t opcode;
  uint8_t isvoid;
} ProtocolRequest;  // xcb_protocol_request_t

// X-Resource, which no library of ours binds (libxcb-res is not installed): its requests are
// sent through libxcb's own generic xcb_send_request, as libxcb-res itself sends them.
static Extension resourceExtension = {"X-Resource", 0};

// Every resolved function, by the XCB name it was looked up under.
static struct {
  int loaded;  // bits of CXCBShims_Library*
  Conn *(*connect)(const char *, int *);
  Conn *(*connect_to_display_with_auth_info)(const char *, AuthInfo *, int *);
  int (*connection_has_error)(Conn *);
  void (*disconnect)(Conn *);
  const void *(*get_setup)(Conn *);
  uint32_t (*generate_id)(Conn *);
  int (*flush)(Conn *);
  int (*get_file_descriptor)(Conn *);
  void *(*poll_for_event)(Conn *);
  uint32_t (*get_maximum_request_length)(Conn *);
  void *(*wait_for_reply)(Conn *, unsigned int, void **);
  void *(*request_check)(Conn *, Cookie);
  const void *(*get_extension_data)(Conn *, void *);
  unsigned int (*send_request)(Conn *, int, struct iovec *, const ProtocolRequest *);
  Cookie (*create_window_checked)(Conn *, uint8_t, uint32_t, uint32_t, int16_t, int16_t, uint16_t, uint16_t,
                                  uint16_t, uint16_t, uint32_t, uint32_t, const void *);
  Cookie (*map_window)(Conn *, uint32_t);
  Cookie (*destroy_window)(Conn *, uint32_t);
  Cookie (*change_window_attributes)(Conn *, uint32_t, uint32_t, const void *);
  Cookie (*change_property)(Conn *, uint8_t, uint32_t, uint32_t, uint32_t, uint8_t, uint32_t, const void *);
  Cookie (*intern_atom)(Conn *, uint8_t, uint16_t, const char *);
  Cookie (*get_property)(Conn *, uint8_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t);
  Cookie (*get_geometry)(Conn *, uint32_t);
  Cookie (*get_window_attributes)(Conn *, uint32_t);
  Cookie (*query_tree)(Conn *, uint32_t);
  Cookie (*translate_coordinates)(Conn *, uint32_t, uint32_t, int16_t, int16_t);
  Cookie (*create_gc)(Conn *, uint32_t, uint32_t, uint32_t, const void *);
  Cookie (*free_gc)(Conn *, uint32_t);
  Cookie (*put_image)(Conn *, uint8_t, uint32_t, uint32_t, uint16_t, uint16_t, int16_t, int16_t, uint8_t,
                      uint8_t, uint32_t, const uint8_t *);
  Cookie (*get_image)(Conn *, uint8_t, uint32_t, int16_t, int16_t, uint16_t, uint16_t, uint32_t);
  Cookie (*get_input_focus)(Conn *);
  Cookie (*create_pixmap_checked)(Conn *, uint8_t, uint32_t, uint32_t, uint16_t, uint16_t);
  Cookie (*free_pixmap)(Conn *, uint32_t);

  void *shm_id;  // xcb_extension_t xcb_shm_id
  Cookie (*shm_query_version)(Conn *);
  Cookie (*shm_attach_fd_checked)(Conn *, uint32_t, int32_t, uint8_t);
  Cookie (*shm_detach)(Conn *, uint32_t);
  Cookie (*shm_put_image)(Conn *, uint32_t, uint32_t, uint16_t, uint16_t, uint16_t, uint16_t, uint16_t,
                          uint16_t, int16_t, int16_t, uint8_t, uint8_t, uint8_t, uint32_t, uint32_t);
  Cookie (*shm_create_pixmap_checked)(Conn *, uint32_t, uint32_t, uint16_t, uint16_t, uint8_t, uint32_t,
                                      uint32_t);
  Cookie (*shm_get_image)(Conn *, uint32_t, int16_t, int16_t, uint16_t, uint16_t, uint32_t, uint8_t,
                          uint32_t, uint32_t);

  void *damage_id;  // xcb_extension_t xcb_damage_id
  Cookie (*damage_query_version)(Conn *, uint32_t, uint32_t);
  Cookie (*damage_create)(Conn *, uint32_t, uint32_t, uint8_t);
  Cookie (*damage_destroy)(Conn *, uint32_t);
  Cookie (*damage_subtract)(Conn *, uint32_t, uint32_t, uint32_t);

  void *render_id;  // xcb_extension_t xcb_render_id
  Cookie (*render_query_version)(Conn *, uint32_t, uint32_t);
  Cookie (*render_query_pict_formats)(Conn *);
  Cookie (*render_create_picture_checked)(Conn *, uint32_t, uint32_t, uint32_t, uint32_t, const void *);
  Cookie (*render_free_picture)(Conn *, uint32_t);
  Cookie (*render_set_picture_transform_checked)(Conn *, uint32_t, Transform);
  Cookie (*render_set_picture_filter_checked)(Conn *, uint32_t, uint16_t, const char *, uint32_t,
                                              const int32_t *);
  Cookie (*render_composite)(Conn *, uint8_t, uint32_t, uint32_t, uint32_t, int16_t, int16_t, int16_t, int16_t,
                             int16_t, int16_t, uint16_t, uint16_t);
} xcb;

static pthread_mutex_t loadLock = PTHREAD_MUTEX_INITIALIZER;

// dlopen and dlsym through the shims' one loader (CLibraryLoader).
#define openLibrary CLibraryLoader_open
#define resolve CLibraryLoader_resolve

#define RESOLVE(lib, field, name) \
  if (resolve(lib, name, (void **)&xcb.field, message, messageSize) != 0) return -1

static int loadCore(const char *path, char *message, size_t messageSize) {
  void *lib = openLibrary(path, message, messageSize);
  if (lib == NULL) return -1;
  RESOLVE(lib, connect, "xcb_connect");
  RESOLVE(lib, connect_to_display_with_auth_info, "xcb_connect_to_display_with_auth_info");
  RESOLVE(lib, connection_has_error, "xcb_connection_has_error");
  RESOLVE(lib, disconnect, "xcb_disconnect");
  RESOLVE(lib, get_setup, "xcb_get_setup");
  RESOLVE(lib, generate_id, "xcb_generate_id");
  RESOLVE(lib, flush, "xcb_flush");
  RESOLVE(lib, get_file_descriptor, "xcb_get_file_descriptor");
  RESOLVE(lib, poll_for_event, "xcb_poll_for_event");
  RESOLVE(lib, get_maximum_request_length, "xcb_get_maximum_request_length");
  RESOLVE(lib, wait_for_reply, "xcb_wait_for_reply");
  RESOLVE(lib, request_check, "xcb_request_check");
  RESOLVE(lib, get_extension_data, "xcb_get_extension_data");
  RESOLVE(lib, send_request, "xcb_send_request");
  RESOLVE(lib, create_window_checked, "xcb_create_window_checked");
  RESOLVE(lib, map_window, "xcb_map_window");
  RESOLVE(lib, destroy_window, "xcb_destroy_window");
  RESOLVE(lib, change_window_attributes, "xcb_change_window_attributes");
  RESOLVE(lib, change_property, "xcb_change_property");
  RESOLVE(lib, intern_atom, "xcb_intern_atom");
  RESOLVE(lib, get_property, "xcb_get_property");
  RESOLVE(lib, get_geometry, "xcb_get_geometry");
  RESOLVE(lib, get_window_attributes, "xcb_get_window_attributes");
  RESOLVE(lib, query_tree, "xcb_query_tree");
  RESOLVE(lib, translate_coordinates, "xcb_translate_coordinates");
  RESOLVE(lib, create_gc, "xcb_create_gc");
  RESOLVE(lib, free_gc, "xcb_free_gc");
  RESOLVE(lib, put_image, "xcb_put_image");
  RESOLVE(lib, get_image, "xcb_get_image");
  RESOLVE(lib, get_input_focus, "xcb_get_input_focus");
  RESOLVE(lib, create_pixmap_checked, "xcb_create_pixmap_checked");
  RESOLVE(lib, free_pixmap, "xcb_free_pixmap");
  return 0;
}

static int loadShm(const char *path, char *message, size_t messageSize) {
  void *lib = openLibrary(path, message, messageSize);
  if (lib == NULL) return -1;
  RESOLVE(lib, shm_id, "xcb_shm_id");
  RESOLVE(lib, shm_query_version, "xcb_shm_query_version");
  RESOLVE(lib, shm_attach_fd_checked, "xcb_shm_attach_fd_checked");
  RESOLVE(lib, shm_detach, "xcb_shm_detach");
  RESOLVE(lib, shm_put_image, "xcb_shm_put_image");
  RESOLVE(lib, shm_create_pixmap_checked, "xcb_shm_create_pixmap_checked");
  RESOLVE(lib, shm_get_image, "xcb_shm_get_image");
  return 0;
}

static int loadDamage(const char *path, char *message, size_t messageSize) {
  void *lib = openLibrary(path, message, messageSize);
  if (lib == NULL) return -1;
  RESOLVE(lib, damage_id, "xcb_damage_id");
  RESOLVE(lib, damage_query_version, "xcb_damage_query_version");
  RESOLVE(lib, damage_create, "xcb_damage_create");
  RESOLVE(lib, damage_destroy, "xcb_damage_destroy");
  RESOLVE(lib, damage_subtract, "xcb_damage_subtract");
  return 0;
}

static int loadRender(const char *path, char *message, size_t messageSize) {
  void *lib = openLibrary(path, message, messageSize);
  if (lib == NULL) return -1;
  RESOLVE(lib, render_id, "xcb_render_id");
  RESOLVE(lib, render_query_version, "xcb_render_query_version");
  RESOLVE(lib, render_query_pict_formats, "xcb_render_query_pict_formats");
  RESOLVE(lib, render_create_picture_checked, "xcb_render_create_picture_checked");
  RESOLVE(lib, render_free_picture, "xcb_render_free_picture");
  RESOLVE(lib, render_set_picture_transform_checked, "xcb_render_set_picture_transform_checked");
  RESOLVE(lib, render_set_picture_filter_checked, "xcb_render_set_picture_filter_checked");
  RESOLVE(lib, render_composite, "xcb_render_composite");
  return 0;
}

// Whether `path` names the library already loaded as `bit`. A different name (a test asking for
// a library that does not exist) is opened to see whether it loads; the table is kept either way.
static int alreadyLoaded(int bit, const char *path, char *message, size_t messageSize, int *failed) {
  static char names[4][128];
  char *name = names[bit == CXCBShims_LibraryCore     ? 0
                     : bit == CXCBShims_LibraryShm    ? 1
                     : bit == CXCBShims_LibraryDamage ? 2
                                                      : 3];
  if (!(xcb.loaded & bit)) {
    snprintf(name, sizeof names[0], "%s", path);
    return 0;
  }
  if (strcmp(name, path) != 0) {
    void *other = openLibrary(path, message, messageSize);
    if (other == NULL) {
      *failed = bit;
    } else {
      dlclose(other);
    }
  }
  return 1;
}

int CXCBShims_load(int wanted, const char *core, const char *shm, const char *damage, const char *render,
                   char *message, size_t messageSize) {
  const struct {
    int bit;
    const char *path;
    int (*load)(const char *, char *, size_t);
  } libraries[] = {
      {CXCBShims_LibraryCore, core, loadCore},
      {CXCBShims_LibraryShm, shm, loadShm},
      {CXCBShims_LibraryDamage, damage, loadDamage},
      {CXCBShims_LibraryRender, render, loadRender},
  };
  int failed = 0;
  pthread_mutex_lock(&loadLock);
  for (size_t i = 0; i < sizeof libraries / sizeof libraries[0] && !failed; i++) {
    int bit = libraries[i].bit;
    if (!(wanted & bit) || alreadyLoaded(bit, libraries[i].path, message, messageSize, &failed)) continue;
    if (libraries[i].load(libraries[i].path, message, messageSize) == 0) {
      xcb.loaded |= bit;
    } else {
      failed = bit;
    }
  }
  pthread_mutex_unlock(&loadLock);
  return failed;
}

// MARK: - Connection

Conn *CXCBShims_connect(const char *display, int *screen) { return xcb.connect(display, screen); }

Conn *CXCBShims_connectWithAuth(const char *display, const char *name, int nameLength, const char *data,
                                int dataLength, int *screen) {
  AuthInfo auth = {nameLength, name, dataLength, data};
  return xcb.connect_to_display_with_auth_info(display, &auth, screen);
}

int CXCBShims_connectionError(Conn *c) { return xcb.connection_has_error(c); }
void CXCBShims_disconnect(Conn *c) { xcb.disconnect(c); }
const void *CXCBShims_setup(Conn *c) { return xcb.get_setup(c); }
uint32_t CXCBShims_generateID(Conn *c) { return xcb.generate_id(c); }
int CXCBShims_flush(Conn *c) { return xcb.flush(c); }
int CXCBShims_fileDescriptor(Conn *c) { return xcb.get_file_descriptor(c); }
void *CXCBShims_pollForEvent(Conn *c) { return xcb.poll_for_event(c); }
uint32_t CXCBShims_maximumRequestLength(Conn *c) { return xcb.get_maximum_request_length(c); }

void *CXCBShims_waitForReply(Conn *c, Cookie cookie, void **error) {
  return xcb.wait_for_reply(c, cookie.sequence, error);
}

void *CXCBShims_requestCheck(Conn *c, Cookie cookie) { return xcb.request_check(c, cookie); }
void CXCBShims_free(void *p) { free(p); }

const void *CXCBShims_extensionData(Conn *c, int extension) {
  void *id = extension == CXCBShims_ExtensionShm        ? xcb.shm_id
             : extension == CXCBShims_ExtensionDamage   ? xcb.damage_id
             : extension == CXCBShims_ExtensionResource ? (void *)&resourceExtension
                                                        : xcb.render_id;
  return id == NULL ? NULL : xcb.get_extension_data(c, id);
}

// MARK: - X-Resource (through libxcb's xcb_send_request)

// Sends the X-Resource request `opcode` whose body (after the 4-byte header, which libxcb fills
// in) is `body`, `bodyLength` bytes (a multiple of 4, at most 12), checked, with a reply.
static Cookie sendResourceRequest(Conn *c, uint8_t opcode, const uint8_t *body, size_t bodyLength) {
  uint8_t request[16] = {0};
  memcpy(request + 4, body, bodyLength);
  // libxcb uses the two entries before the request's own for its queue and a BIG-REQUESTS prefix.
  struct iovec parts[3];
  parts[2].iov_base = request;
  parts[2].iov_len = 4 + bodyLength;
  ProtocolRequest protocol = {1, &resourceExtension, opcode, 0};
  Cookie cookie = {xcb.send_request(c, 1 /* XCB_REQUEST_CHECKED */, parts + 2, &protocol)};
  return cookie;
}

Cookie CXCBShims_resQueryVersion(Conn *c, uint8_t major, uint8_t minor) {
  uint8_t body[4] = {major, minor, 0, 0};
  return sendResourceRequest(c, 0, body, sizeof body);
}

Cookie CXCBShims_resQueryClientIds(Conn *c, uint32_t resource, uint32_t mask) {
  uint32_t body[3] = {1, resource, mask};  // num_specs, then one ClientIdSpec {client, mask}
  return sendResourceRequest(c, 4, (const uint8_t *)body, sizeof body);
}

// MARK: - Core requests

Cookie CXCBShims_createWindow(Conn *c, uint8_t depth, uint32_t window, uint32_t parent, int16_t x, int16_t y,
                              uint16_t width, uint16_t height, uint16_t border, uint16_t windowClass,
                              uint32_t visual, uint32_t valueMask, const uint32_t *values) {
  return xcb.create_window_checked(c, depth, window, parent, x, y, width, height, border, windowClass, visual,
                                   valueMask, values);
}

Cookie CXCBShims_mapWindow(Conn *c, uint32_t window) { return xcb.map_window(c, window); }
Cookie CXCBShims_destroyWindow(Conn *c, uint32_t window) { return xcb.destroy_window(c, window); }

Cookie CXCBShims_changeWindowAttributes(Conn *c, uint32_t window, uint32_t valueMask, const uint32_t *values) {
  return xcb.change_window_attributes(c, window, valueMask, values);
}

Cookie CXCBShims_changeProperty(Conn *c, uint8_t mode, uint32_t window, uint32_t property, uint32_t type,
                                uint8_t format, uint32_t count, const void *data) {
  return xcb.change_property(c, mode, window, property, type, format, count, data);
}

Cookie CXCBShims_internAtom(Conn *c, uint8_t onlyIfExists, uint16_t length, const char *name) {
  return xcb.intern_atom(c, onlyIfExists, length, name);
}

Cookie CXCBShims_getProperty(Conn *c, uint8_t deleteProperty, uint32_t window, uint32_t property,
                             uint32_t type, uint32_t offset, uint32_t length) {
  return xcb.get_property(c, deleteProperty, window, property, type, offset, length);
}

Cookie CXCBShims_getGeometry(Conn *c, uint32_t drawable) { return xcb.get_geometry(c, drawable); }
Cookie CXCBShims_getWindowAttributes(Conn *c, uint32_t window) { return xcb.get_window_attributes(c, window); }
Cookie CXCBShims_queryTree(Conn *c, uint32_t window) { return xcb.query_tree(c, window); }

Cookie CXCBShims_translateCoordinates(Conn *c, uint32_t source, uint32_t destination, int16_t x, int16_t y) {
  return xcb.translate_coordinates(c, source, destination, x, y);
}

Cookie CXCBShims_createGC(Conn *c, uint32_t gc, uint32_t drawable, uint32_t valueMask, const uint32_t *values) {
  return xcb.create_gc(c, gc, drawable, valueMask, values);
}

Cookie CXCBShims_freeGC(Conn *c, uint32_t gc) { return xcb.free_gc(c, gc); }

Cookie CXCBShims_putImage(Conn *c, uint8_t format, uint32_t drawable, uint32_t gc, uint16_t width,
                          uint16_t height, int16_t x, int16_t y, uint8_t leftPad, uint8_t depth, uint32_t length,
                          const uint8_t *data) {
  return xcb.put_image(c, format, drawable, gc, width, height, x, y, leftPad, depth, length, data);
}

Cookie CXCBShims_getImage(Conn *c, uint8_t format, uint32_t drawable, int16_t x, int16_t y, uint16_t width,
                          uint16_t height, uint32_t planeMask) {
  return xcb.get_image(c, format, drawable, x, y, width, height, planeMask);
}

Cookie CXCBShims_getInputFocus(Conn *c) { return xcb.get_input_focus(c); }

Cookie CXCBShims_createPixmap(Conn *c, uint8_t depth, uint32_t pixmap, uint32_t drawable, uint16_t width,
                              uint16_t height) {
  return xcb.create_pixmap_checked(c, depth, pixmap, drawable, width, height);
}

Cookie CXCBShims_freePixmap(Conn *c, uint32_t pixmap) { return xcb.free_pixmap(c, pixmap); }

// MARK: - MIT-SHM

Cookie CXCBShims_shmQueryVersion(Conn *c) { return xcb.shm_query_version(c); }

Cookie CXCBShims_shmAttachFD(Conn *c, uint32_t segment, int fd, uint8_t readOnly) {
  return xcb.shm_attach_fd_checked(c, segment, fd, readOnly);
}

Cookie CXCBShims_shmDetach(Conn *c, uint32_t segment) { return xcb.shm_detach(c, segment); }

Cookie CXCBShims_shmPutImage(Conn *c, uint32_t drawable, uint32_t gc, uint16_t totalWidth, uint16_t totalHeight,
                             uint16_t srcX, uint16_t srcY, uint16_t srcWidth, uint16_t srcHeight, int16_t dstX,
                             int16_t dstY, uint8_t depth, uint8_t format, uint8_t sendEvent, uint32_t segment,
                             uint32_t offset) {
  return xcb.shm_put_image(c, drawable, gc, totalWidth, totalHeight, srcX, srcY, srcWidth, srcHeight, dstX, dstY,
                           depth, format, sendEvent, segment, offset);
}

Cookie CXCBShims_shmCreatePixmap(Conn *c, uint32_t pixmap, uint32_t drawable, uint16_t width, uint16_t height,
                                 uint8_t depth, uint32_t segment, uint32_t offset) {
  return xcb.shm_create_pixmap_checked(c, pixmap, drawable, width, height, depth, segment, offset);
}

Cookie CXCBShims_shmGetImage(Conn *c, uint32_t drawable, int16_t x, int16_t y, uint16_t width, uint16_t height,
                             uint32_t planeMask, uint8_t format, uint32_t segment, uint32_t offset) {
  return xcb.shm_get_image(c, drawable, x, y, width, height, planeMask, format, segment, offset);
}

// MARK: - DAMAGE

Cookie CXCBShims_damageQueryVersion(Conn *c, uint32_t major, uint32_t minor) {
  return xcb.damage_query_version(c, major, minor);
}

Cookie CXCBShims_damageCreate(Conn *c, uint32_t damage, uint32_t drawable, uint8_t level) {
  return xcb.damage_create(c, damage, drawable, level);
}

Cookie CXCBShims_damageDestroy(Conn *c, uint32_t damage) { return xcb.damage_destroy(c, damage); }

Cookie CXCBShims_damageSubtract(Conn *c, uint32_t damage, uint32_t repair, uint32_t parts) {
  return xcb.damage_subtract(c, damage, repair, parts);
}

// MARK: - RENDER

Cookie CXCBShims_renderQueryVersion(Conn *c, uint32_t major, uint32_t minor) {
  return xcb.render_query_version(c, major, minor);
}

Cookie CXCBShims_renderQueryPictFormats(Conn *c) { return xcb.render_query_pict_formats(c); }

Cookie CXCBShims_renderCreatePicture(Conn *c, uint32_t picture, uint32_t drawable, uint32_t format,
                                     uint32_t valueMask, const uint32_t *values) {
  return xcb.render_create_picture_checked(c, picture, drawable, format, valueMask, values);
}

Cookie CXCBShims_renderFreePicture(Conn *c, uint32_t picture) { return xcb.render_free_picture(c, picture); }

Cookie CXCBShims_renderSetPictureTransform(Conn *c, uint32_t picture, const int32_t *matrix) {
  Transform transform;
  memcpy(transform.matrix, matrix, sizeof transform.matrix);
  return xcb.render_set_picture_transform_checked(c, picture, transform);
}

Cookie CXCBShims_renderSetPictureFilter(Conn *c, uint32_t picture, uint16_t length, const char *name) {
  return xcb.render_set_picture_filter_checked(c, picture, length, name, 0, NULL);
}

Cookie CXCBShims_renderComposite(Conn *c, uint8_t op, uint32_t source, uint32_t mask, uint32_t destination,
                                 int16_t srcX, int16_t srcY, int16_t maskX, int16_t maskY, int16_t dstX, int16_t dstY,
                                 uint16_t width, uint16_t height) {
  return xcb.render_composite(c, op, source, mask, destination, srcX, srcY, maskX, maskY, dstX, dstY, width,
                              height);
}

// MARK: - Shared memory

int CXCBShims_createSharedMemory(const char *name, size_t size) {
  int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) return -1;
  if (ftruncate(fd, (off_t)size) != 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}
