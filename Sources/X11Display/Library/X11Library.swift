import CXCBShims
import Synchronization

/// The XCB libraries, opened at run time (`dlopen`) the first time the X11 path is used, so that
/// the default build and the shared-memory path need no X package.
package enum X11Library: Sendable, Hashable, CaseIterable {
  /// `libxcb.so.1`, the X protocol client (Debian package `libxcb1`).
  case core
  /// `libxcb-shm.so.0`, the MIT-SHM extension: images through shared memory (`libxcb-shm0`).
  case shm
  /// `libxcb-damage.so.0`, the DAMAGE extension: what changed on screen (`libxcb-damage0`).
  case damage
  /// `libxcb-render.so.0`, the RENDER extension: the probe has the server scale a large window
  /// down before reading it (`libxcb-render0`).
  case render

  /// The file name `dlopen` is given.
  package var fileName: String {
    switch self {
    case .core: "libxcb.so.1"
    case .shm: "libxcb-shm.so.0"
    case .damage: "libxcb-damage.so.0"
    case .render: "libxcb-render.so.0"
    }
  }

  /// The Debian package that installs it.
  package var package: String {
    switch self {
    case .core: "libxcb1"
    case .shm: "libxcb-shm0"
    case .damage: "libxcb-damage0"
    case .render: "libxcb-render0"
    }
  }

  var bit: Int32 {
    switch self {
    case .core: Int32(CXCBShims_LibraryCore)
    case .shm: Int32(CXCBShims_LibraryShm)
    case .damage: Int32(CXCBShims_LibraryDamage)
    case .render: Int32(CXCBShims_LibraryRender)
    }
  }

  /// What an app that presents needs: the protocol and MIT-SHM.
  package static let presenting: [X11Library] = [.core, .shm]
  /// What the probe needs: the protocol, MIT-SHM, DAMAGE and RENDER.
  package static let probing: [X11Library] = [.core, .shm, .damage, .render]

  /// Loads `libraries` (a library already loaded is kept). The corresponding calls are
  /// `dlopen` and `dlsym` (in `CXCBShims_load`).
  /// - Throws: `X11Error` `.libraryMissing` naming the first library that could not be loaded
  ///   and the package that installs it.
  package static func load(_ libraries: [X11Library]) throws(X11Error) {
    try load(libraries, fileNames: { $0.fileName })
  }

  /// `load(_:)` with the file names given by `fileName` (tests name a library that does not
  /// exist, to see the error).
  package static func load(_ libraries: [X11Library], fileNames fileName: (X11Library) -> String)
    throws(X11Error)
  {
    let wanted = libraries.reduce(Int32(0)) { $0 | $1.bit }
    var message = [CChar](repeating: 0, count: 512)
    let failed = fileName(.core).withCString { core in
      fileName(.shm).withCString { shm in
        fileName(.damage).withCString { damage in
          fileName(.render).withCString { render in
            CXCBShims_load(wanted, core, shm, damage, render, &message, message.count)
          }
        }
      }
    }
    guard failed != 0, let library = allCases.first(where: { $0.bit == failed }) else { return }
    let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    throw X11Error(
      .libraryMissing,
      "the X11 display needs \(library.fileName): install the package \(library.package) (apt-get install \(library.package)); \(detail)",
      call: "dlopen")
  }
}
