#pragma once
// CXCBShims: the few XCB calls FirstFrame's X11 path makes, loaded at run time.
//
// libxcb.so.1, libxcb-shm.so.0, libxcb-damage.so.0 and libxcb-render.so.0 are opened with dlopen only when an X11
// display is asked for (`bench --display x11`, `FIRSTFRAME_DISPLAY=x11:NAME`), so the default
// build needs no X packages. Nothing here includes an XCB header: the functions are declared
// with FirstFrame's own types, which follow the C ABI of the XCB functions they call (an XID is a
// uint32_t, a cookie a struct of one unsigned int, a reply or event a malloc'd block that the
// caller frees). Replies, events and the connection setup are read in Swift at the offsets the
// X protocol defines (X11Display/Wire). Everything is prefixed CXCBShims_ (STYLE.md rule 5).
#include <stddef.h>
#include <stdint.h>

/// An XCB connection (xcb_connection_t), opaque.
typedef struct CXCBShims_Connection CXCBShims_Connection;

/// A request's sequence number (every xcb_*_cookie_t has this one field).
typedef struct {
  unsigned int sequence;
} CXCBShims_Cookie;

/// The libraries, by bit: what `CXCBShims_load` opens and what it reports missing.
enum {
  CXCBShims_LibraryCore = 1,    ///< libxcb.so.1 (Debian package libxcb1)
  CXCBShims_LibraryShm = 2,     ///< libxcb-shm.so.0 (libxcb-shm0): the MIT-SHM extension
  CXCBShims_LibraryDamage = 4,  ///< libxcb-damage.so.0 (libxcb-damage0): the DAMAGE extension
  CXCBShims_LibraryRender = 8,  ///< libxcb-render.so.0 (libxcb-render0): the RENDER extension
};

/// Opens the libraries in `wanted` (bits above) from the file names given (`libxcb.so.1`, …) and
/// resolves every symbol this shim uses. Idempotent and thread-safe; a library already loaded is
/// kept. Returns 0 when all of `wanted` is usable, otherwise the bit of the first library that
/// could not be opened or lacks a symbol, with dlerror's text in `message` (`messageSize` bytes).
int CXCBShims_load(int wanted, const char *core, const char *shm, const char *damage, const char *render,
                   char *message, size_t messageSize);

// MARK: - Connection (libxcb.so.1)

/// xcb_connect(display, &screen): never NULL; check CXCBShims_connectionError.
CXCBShims_Connection *CXCBShims_connect(const char *display, int *screen);
/// xcb_connect_to_display_with_auth_info with an xcb_auth_info_t built from `name`/`data`.
CXCBShims_Connection *CXCBShims_connectWithAuth(const char *display, const char *name, int nameLength,
                                                const char *data, int dataLength, int *screen);
/// xcb_connection_has_error(c): 0, or an XCB_CONN_* code (1 socket error, 2 extension missing,
/// 3 out of memory, 4 request too long, 5 bad display string, 6 bad screen, 7 fd passing failed).
int CXCBShims_connectionError(CXCBShims_Connection *c);
/// xcb_disconnect(c).
void CXCBShims_disconnect(CXCBShims_Connection *c);
/// xcb_get_setup(c): the server's connection setup, in wire format, owned by the connection.
const void *CXCBShims_setup(CXCBShims_Connection *c);
/// xcb_generate_id(c): a new XID, or 0xFFFFFFFF when the connection failed.
uint32_t CXCBShims_generateID(CXCBShims_Connection *c);
/// xcb_flush(c): > 0 on success, <= 0 when the connection failed.
int CXCBShims_flush(CXCBShims_Connection *c);
/// xcb_get_file_descriptor(c): the socket, to poll for events.
int CXCBShims_fileDescriptor(CXCBShims_Connection *c);
/// xcb_poll_for_event(c): the next event or error (malloc'd, 32 bytes + full sequence), or NULL.
void *CXCBShims_pollForEvent(CXCBShims_Connection *c);
/// xcb_get_maximum_request_length(c), in 4-byte units.
uint32_t CXCBShims_maximumRequestLength(CXCBShims_Connection *c);
/// xcb_wait_for_reply(c, sequence, &error): the reply (malloc'd) or NULL with `*error` set
/// (malloc'd) or NULL on a connection failure.
void *CXCBShims_waitForReply(CXCBShims_Connection *c, CXCBShims_Cookie cookie, void **error);
/// xcb_request_check(c, cookie): NULL when the checked request succeeded, else its error (malloc'd).
void *CXCBShims_requestCheck(CXCBShims_Connection *c, CXCBShims_Cookie cookie);
/// free(p), for replies, events and errors.
void CXCBShims_free(void *p);

/// Which extension `CXCBShims_extensionData` asks about.
enum {
  CXCBShims_ExtensionShm = 1,
  CXCBShims_ExtensionDamage = 2,
  CXCBShims_ExtensionRender = 3,
  CXCBShims_ExtensionResource = 4,  ///< X-Resource, spoken through libxcb.so.1 alone
};
/// xcb_get_extension_data(c, &xcb_shm_id, &xcb_damage_id, &xcb_render_id or the shim's own
/// X-Resource extension): the QueryExtension reply (wire format, owned by the connection), or
/// NULL (also when that library is not loaded).
const void *CXCBShims_extensionData(CXCBShims_Connection *c, int extension);

// MARK: - Core requests (libxcb.so.1)

/// xcb_create_window_checked(c, depth, wid, parent, x, y, width, height, border, class, visual,
/// mask, values).
CXCBShims_Cookie CXCBShims_createWindow(CXCBShims_Connection *c, uint8_t depth, uint32_t window,
                                        uint32_t parent, int16_t x, int16_t y, uint16_t width,
                                        uint16_t height, uint16_t border, uint16_t windowClass,
                                        uint32_t visual, uint32_t valueMask, const uint32_t *values);
/// xcb_map_window(c, window).
CXCBShims_Cookie CXCBShims_mapWindow(CXCBShims_Connection *c, uint32_t window);
/// xcb_destroy_window(c, window).
CXCBShims_Cookie CXCBShims_destroyWindow(CXCBShims_Connection *c, uint32_t window);
/// xcb_change_window_attributes(c, window, mask, values).
CXCBShims_Cookie CXCBShims_changeWindowAttributes(CXCBShims_Connection *c, uint32_t window,
                                                  uint32_t valueMask, const uint32_t *values);
/// xcb_change_property(c, mode, window, property, type, format, count, data).
CXCBShims_Cookie CXCBShims_changeProperty(CXCBShims_Connection *c, uint8_t mode, uint32_t window,
                                          uint32_t property, uint32_t type, uint8_t format,
                                          uint32_t count, const void *data);
/// xcb_intern_atom(c, onlyIfExists, length, name).
CXCBShims_Cookie CXCBShims_internAtom(CXCBShims_Connection *c, uint8_t onlyIfExists, uint16_t length,
                                      const char *name);
/// xcb_get_property(c, delete, window, property, type, offset, length).
CXCBShims_Cookie CXCBShims_getProperty(CXCBShims_Connection *c, uint8_t deleteProperty, uint32_t window,
                                       uint32_t property, uint32_t type, uint32_t offset,
                                       uint32_t length);
/// xcb_get_geometry(c, drawable).
CXCBShims_Cookie CXCBShims_getGeometry(CXCBShims_Connection *c, uint32_t drawable);
/// xcb_get_window_attributes(c, window).
CXCBShims_Cookie CXCBShims_getWindowAttributes(CXCBShims_Connection *c, uint32_t window);
/// xcb_query_tree(c, window).
CXCBShims_Cookie CXCBShims_queryTree(CXCBShims_Connection *c, uint32_t window);
/// xcb_translate_coordinates(c, source, destination, x, y).
CXCBShims_Cookie CXCBShims_translateCoordinates(CXCBShims_Connection *c, uint32_t source,
                                                uint32_t destination, int16_t x, int16_t y);
/// xcb_create_gc(c, gc, drawable, mask, values).
CXCBShims_Cookie CXCBShims_createGC(CXCBShims_Connection *c, uint32_t gc, uint32_t drawable,
                                    uint32_t valueMask, const uint32_t *values);
/// xcb_free_gc(c, gc).
CXCBShims_Cookie CXCBShims_freeGC(CXCBShims_Connection *c, uint32_t gc);
/// xcb_put_image(c, format, drawable, gc, width, height, x, y, leftPad, depth, length, data).
CXCBShims_Cookie CXCBShims_putImage(CXCBShims_Connection *c, uint8_t format, uint32_t drawable,
                                    uint32_t gc, uint16_t width, uint16_t height, int16_t x, int16_t y,
                                    uint8_t leftPad, uint8_t depth, uint32_t length,
                                    const uint8_t *data);
/// xcb_get_image(c, format, drawable, x, y, width, height, planeMask).
CXCBShims_Cookie CXCBShims_getImage(CXCBShims_Connection *c, uint8_t format, uint32_t drawable,
                                    int16_t x, int16_t y, uint16_t width, uint16_t height,
                                    uint32_t planeMask);
/// xcb_get_input_focus(c): the cheapest request with a reply, for a round trip.
CXCBShims_Cookie CXCBShims_getInputFocus(CXCBShims_Connection *c);
/// xcb_create_pixmap_checked(c, depth, pixmap, drawable, width, height).
CXCBShims_Cookie CXCBShims_createPixmap(CXCBShims_Connection *c, uint8_t depth, uint32_t pixmap,
                                        uint32_t drawable, uint16_t width, uint16_t height);
/// xcb_free_pixmap(c, pixmap).
CXCBShims_Cookie CXCBShims_freePixmap(CXCBShims_Connection *c, uint32_t pixmap);

// MARK: - MIT-SHM (libxcb-shm.so.0)

/// xcb_shm_query_version(c).
CXCBShims_Cookie CXCBShims_shmQueryVersion(CXCBShims_Connection *c);
/// xcb_shm_attach_fd_checked(c, segment, fd, readOnly). XCB closes `fd` once it is sent.
CXCBShims_Cookie CXCBShims_shmAttachFD(CXCBShims_Connection *c, uint32_t segment, int fd, uint8_t readOnly);
/// xcb_shm_detach(c, segment).
CXCBShims_Cookie CXCBShims_shmDetach(CXCBShims_Connection *c, uint32_t segment);
/// xcb_shm_put_image(c, drawable, gc, totalWidth, totalHeight, srcX, srcY, srcWidth, srcHeight,
/// dstX, dstY, depth, format, sendEvent, segment, offset).
CXCBShims_Cookie CXCBShims_shmPutImage(CXCBShims_Connection *c, uint32_t drawable, uint32_t gc,
                                       uint16_t totalWidth, uint16_t totalHeight, uint16_t srcX,
                                       uint16_t srcY, uint16_t srcWidth, uint16_t srcHeight, int16_t dstX,
                                       int16_t dstY, uint8_t depth, uint8_t format, uint8_t sendEvent,
                                       uint32_t segment, uint32_t offset);
/// xcb_shm_create_pixmap_checked(c, pixmap, drawable, width, height, depth, segment, offset): a
/// pixmap whose pixels are the segment's bytes from `offset` (when QueryVersion says
/// shared_pixmaps).
CXCBShims_Cookie CXCBShims_shmCreatePixmap(CXCBShims_Connection *c, uint32_t pixmap, uint32_t drawable,
                                           uint16_t width, uint16_t height, uint8_t depth, uint32_t segment,
                                           uint32_t offset);
/// xcb_shm_get_image(c, drawable, x, y, width, height, planeMask, format, segment, offset).
CXCBShims_Cookie CXCBShims_shmGetImage(CXCBShims_Connection *c, uint32_t drawable, int16_t x, int16_t y,
                                       uint16_t width, uint16_t height, uint32_t planeMask,
                                       uint8_t format, uint32_t segment, uint32_t offset);

// MARK: - DAMAGE (libxcb-damage.so.0)

/// xcb_damage_query_version(c, major, minor): required before any other DAMAGE request.
CXCBShims_Cookie CXCBShims_damageQueryVersion(CXCBShims_Connection *c, uint32_t major, uint32_t minor);
/// xcb_damage_create(c, damage, drawable, level).
CXCBShims_Cookie CXCBShims_damageCreate(CXCBShims_Connection *c, uint32_t damage, uint32_t drawable,
                                        uint8_t level);
/// xcb_damage_destroy(c, damage).
CXCBShims_Cookie CXCBShims_damageDestroy(CXCBShims_Connection *c, uint32_t damage);
/// xcb_damage_subtract(c, damage, repair, parts).
CXCBShims_Cookie CXCBShims_damageSubtract(CXCBShims_Connection *c, uint32_t damage, uint32_t repair,
                                          uint32_t parts);

// MARK: - RENDER (libxcb-render.so.0)

/// xcb_render_query_version(c, major, minor): required before any other RENDER request.
CXCBShims_Cookie CXCBShims_renderQueryVersion(CXCBShims_Connection *c, uint32_t major, uint32_t minor);
/// xcb_render_query_pict_formats(c): the picture formats and which visual has which.
CXCBShims_Cookie CXCBShims_renderQueryPictFormats(CXCBShims_Connection *c);
/// xcb_render_create_picture_checked(c, picture, drawable, format, mask, values).
CXCBShims_Cookie CXCBShims_renderCreatePicture(CXCBShims_Connection *c, uint32_t picture, uint32_t drawable,
                                               uint32_t format, uint32_t valueMask, const uint32_t *values);
/// xcb_render_free_picture(c, picture).
CXCBShims_Cookie CXCBShims_renderFreePicture(CXCBShims_Connection *c, uint32_t picture);
/// xcb_render_set_picture_transform_checked(c, picture, transform): `matrix` is the 3×3
/// transform's nine 16.16 fixed-point values, row by row (xcb_render_transform_t).
CXCBShims_Cookie CXCBShims_renderSetPictureTransform(CXCBShims_Connection *c, uint32_t picture,
                                                     const int32_t *matrix);
/// xcb_render_set_picture_filter_checked(c, picture, length, name, 0, NULL): a filter without parameters.
CXCBShims_Cookie CXCBShims_renderSetPictureFilter(CXCBShims_Connection *c, uint32_t picture, uint16_t length,
                                                  const char *name);
/// xcb_render_composite(c, op, source, mask, destination, srcX, srcY, maskX, maskY, dstX, dstY,
/// width, height).
CXCBShims_Cookie CXCBShims_renderComposite(CXCBShims_Connection *c, uint8_t op, uint32_t source, uint32_t mask,
                                           uint32_t destination, int16_t srcX, int16_t srcY, int16_t maskX,
                                           int16_t maskY, int16_t dstX, int16_t dstY, uint16_t width,
                                           uint16_t height);

// MARK: - X-Resource (libxcb.so.1's xcb_send_request; libxcb-res is not needed)

/// X-Resource QueryVersion (minor opcode 0) with the client's version `major`.`minor`: the reply
/// holds the server's (CARD16 major at byte 8, minor at byte 10). Sent checked, as
/// xcb_res_query_version does; a cookie of sequence 0 when the request could not be built.
CXCBShims_Cookie CXCBShims_resQueryVersion(CXCBShims_Connection *c, uint8_t major, uint8_t minor);
/// X-Resource 1.2 QueryClientIds (minor opcode 4) with one ClientIdSpec: the ids that `mask`
/// asks for (XRES_CLIENT_ID_PID_MASK = 2: the process id, when the server knows it) of the
/// client that owns `resource` (a window, or any other XID of that client). Sent checked, as
/// xcb_res_query_client_ids does.
CXCBShims_Cookie CXCBShims_resQueryClientIds(CXCBShims_Connection *c, uint32_t resource, uint32_t mask);

// MARK: - Shared memory for MIT-SHM

/// memfd_create(name, MFD_CLOEXEC) then ftruncate(fd, size): an anonymous file to share with the
/// X server (MIT-SHM 1.2's AttachFd), so no System V segment can outlive the process. Returns
/// the descriptor or -1 with errno set.
int CXCBShims_createSharedMemory(const char *name, size_t size);
