import SystemCalls

/// The compositor's globals (`wl_registry`): the interfaces it offers, each with its name and
/// highest version, read in one round trip; and binding one of them to a new object.
package final class WaylandRegistry: Sendable {
  /// One global the compositor offers.
  package struct Global: Sendable, Hashable {
    /// The compositor's name for it (what `bind` takes).
    package var name: UInt32
    /// Its interface (`wl_shm`, `zwlr_screencopy_manager_v1`).
    package var interface: String
    /// The highest version the compositor speaks.
    package var version: UInt32
  }

  /// The connection the registry is on.
  package let connection: WaylandConnection
  /// The registry's object id.
  package let id: UInt32
  private let known = PThreadMutex([Global]())

  /// Asks for the registry on `connection` and waits (up to `timeoutMilliseconds`) until every
  /// global has been announced.
  /// - Throws: the connection's ``WaylandError``.
  package init(connection: WaylandConnection, timeoutMilliseconds: Int = 2_000) throws(WaylandError) {
    self.connection = connection
    let known = self.known
    id = connection.newObject { event, _ throws(WaylandError) in
      switch event.opcode {
      case 0:
        let name = try event.uint()
        guard let interface = try event.string() else { return }
        let version = try event.uint()
        known.withLock { $0.append(Global(name: name, interface: interface, version: version)) }
      case 1:
        let name = try event.uint()
        known.withLock { $0.removeAll { $0.name == name } }
      default:
        break
      }
    }
    try connection.send(WaylandConnection.displayID, 1, [.newID(id)])
    try connection.roundtrip(timeoutMilliseconds: timeoutMilliseconds)
  }

  /// The globals announced so far.
  package var globals: [Global] { known.withLock { $0 } }

  /// The global offering `interface`, if any (the first announced).
  package func global(_ interface: String) -> Global? { globals.first { $0.interface == interface } }

  /// Binds `interface` at `version` (at most what the compositor offers) to a new object with
  /// `handler`, and returns the object's id and the version bound.
  /// - Throws: `.missingGlobal` when the compositor does not offer `interface` at `minimumVersion`
  ///   or later; the connection's error.
  package func bind(
    _ interface: String, version: UInt32, minimumVersion: UInt32 = 1,
    handler: WaylandConnection.Handler? = nil
  ) throws(WaylandError) -> (id: UInt32, version: UInt32) {
    guard let global = global(interface) else {
      throw WaylandError(.missingGlobal, "the Wayland compositor does not offer \(interface)")
    }
    guard global.version >= minimumVersion else {
      throw WaylandError(
        .missingGlobal,
        "the Wayland compositor offers \(interface) version \(global.version), and version \(minimumVersion) is needed"
      )
    }
    let bound = min(version, global.version)
    let object = connection.newObject(handler)
    // wl_registry.bind(name, new_id): an untyped new_id is the interface, the version, the id.
    try connection.send(id, 0, [.uint(global.name), .string(interface), .uint(bound), .newID(object)])
    return (object, bound)
  }
}
