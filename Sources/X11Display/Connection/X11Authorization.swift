/// What a client shows the server to be let in: an authorization protocol and its data. FirstFrame
/// uses `MIT-MAGIC-COOKIE-1` with 16 random bytes for the Xvfb it starts.
package struct X11Authorization: Sendable, Hashable {
  /// The protocol's name.
  package var name: String
  /// The protocol's data (the cookie).
  package var data: [UInt8]

  /// An `MIT-MAGIC-COOKIE-1` authorization with `cookie` (16 bytes).
  package init(cookie: [UInt8]) {
    self.name = "MIT-MAGIC-COOKIE-1"
    self.data = cookie
  }
}
