import LaunchContract
import Foundation
import Synchronization
import SystemCalls
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A private PostgreSQL 15 server for tests (Debian's `postgresql` package, its binaries in
/// `/usr/lib/postgresql/15/bin`): `initdb` into a new temporary folder, `postgres` listening on a
/// unix socket in that folder only (`-k DIR -h ''`: no TCP port), trust authentication for the
/// user `firstframe`, durability off (a test server loses nothing it needs). PostgreSQL refuses
/// to run as root, so as root both run as `nobody:nogroup` (`setpriv`) in a folder handed to
/// that user. ``stop()`` (and going away, and the end of the test process for ``shared``) stops
/// the server and removes the folder; a server left by a test process that was killed is stopped
/// and removed when the next one starts.
package final class PostgreSQLServer: @unchecked Sendable {
  // @unchecked: the fields are immutable but `server`, whose Process locks internally, and
  // `stopped`, an atomic.

  /// The binaries' folder (`FIRSTFRAME_POSTGRESQL_BIN` names another).
  package static let binaries =
    HarnessVariable.postgresqlBin.value ?? "/usr/lib/postgresql/15/bin"
  /// The user the tests connect as (the cluster's superuser).
  package static let user = "firstframe"
  /// Whether `initdb`, `postgres` and `createdb` are there (and, as root, `setpriv`).
  package static let available: Bool = {
    ["initdb", "postgres", "createdb", "pg_isready"].allSatisfy { access(binaries + "/" + $0, X_OK) == 0 }
      && (getuid() != 0 || access(setpriv, X_OK) == 0)
  }()
  /// Why the PostgreSQL tests are skipped where they are.
  package static let skipReason: Comment =
    "PostgreSQL tests skipped: no PostgreSQL 15 server binaries in /usr/lib/postgresql/15/bin (scripts/install-deps installs the Debian package postgresql)"

  /// `setpriv`, which runs the server as `nobody` when the tests run as root.
  static let setpriv = "/usr/bin/setpriv"
  /// Where the servers' folders go: `/tmp`, which `nobody` can reach (a `TMPDIR` of root's may
  /// not be), with a unix socket path well under its 107-byte limit.
  static let parent = "/tmp"
  /// The folders' name prefix in the temporary folder; the test process's pid follows.
  static let prefix = "firstframe-pg-"

  /// The server's folder: `data/` (the cluster), `socket/` (its unix socket), the logs.
  package let folder: String
  /// The folder of its unix socket (libpq's `host`).
  package var socket: String { folder + "/socket" }
  private let server: TestProcess
  private let stopped = Atomic<Bool>(false)

  /// Initializes a cluster and starts the server; returns once it accepts connections.
  /// - Throws: when a step fails, with its output.
  package init() throws {
    Self.removeStale()
    folder = try PrivateDirectory.makeTemporary(prefix: Self.prefix + "\(getpid())-", in: Self.parent)
    let asNobody = getuid() == 0
    for dir in [folder, folder + "/socket"] {
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      if asNobody { chown(dir, 65534, 65534) }
    }
    let initdbCommand = Self.command(
      asNobody, "initdb",
      [
        "-D", folder + "/data", "-U", Self.user, "--auth=trust", "--no-sync", "--no-instructions", "-E",
        "UTF8",
        "--locale=C",
      ])
    let initdb = try TestProcess.run(
      initdbCommand.executable, initdbCommand.arguments, timeout: .seconds(180))
    guard initdb.terminationStatus == 0 else {
      try? FileManager.default.removeItem(atPath: folder)
      throw PostgreSQLServerError("initdb failed: \(initdb.standardErrorText.suffix(400))")
    }
    let postgres = Self.command(
      asNobody, "postgres",
      [
        "-D", folder + "/data", "-k", folder + "/socket", "-h", "", "-c", "fsync=off", "-c",
        "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=50",
      ])
    server = TestProcess(executable: postgres.executable, arguments: postgres.arguments)
    try server.run()
    let socket = self.socket
    let ready = blockUntil(timeout: .seconds(120), every: .milliseconds(50)) { [server] in
      !server.isRunning
        || (try? TestProcess.run(
          Self.binaries + "/pg_isready", ["-q", "-h", socket, "-U", Self.user], timeout: .seconds(10)))?
          .terminationStatus == 0
    }
    guard ready, server.isRunning else {
      let log = server.standardErrorText.suffix(400)
      stop()
      throw PostgreSQLServerError("postgres did not start: \(log)")
    }
  }

  deinit { stop() }

  /// A new, empty database on this server; returns its URL
  /// (`postgresql:///NAME?host=SOCKET&user=firstframe`).
  /// - Throws: when `createdb` fails.
  package func makeDatabase() throws -> String {
    let name = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
    let created = try TestProcess.run(
      Self.binaries + "/createdb", ["-h", socket, "-U", Self.user, name], timeout: .seconds(120))
    guard created.terminationStatus == 0 else {
      throw PostgreSQLServerError("createdb failed: \(created.standardErrorText)")
    }
    return url(database: name)
  }

  /// The URL of database `name` on this server.
  package func url(database name: String) -> String {
    "postgresql:///\(name)?host=\(socket)&user=\(Self.user)"
  }

  /// Stops the server (a fast shutdown, SIGINT; SIGKILL after 30 s) and removes its folder.
  /// Does nothing the second time.
  package func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    server.signal(SIGINT)
    if !server.waitUntilExit(timeout: .seconds(30)) { server.signal(SIGKILL) }
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// The server the tests of this process share (each test makes its own database), started
  /// the first time it is asked for and stopped when the process exits.
  package static func shared() throws -> PostgreSQLServer {
    try sharedServer.withLock { server in
      if let server { return try server.get() }
      let started = Result { try PostgreSQLServer() }
      server = started
      if case .success = started { atexit { PostgreSQLServer.stopShared() } }
      return try started.get()
    }
  }

  private static let sharedServer = Mutex<Result<PostgreSQLServer, any Error>?>(nil)

  /// Stops the shared server (at the process's exit).
  static func stopShared() {
    let server = sharedServer.withLock { try? $0?.get() }
    server?.stop()
  }

  /// Stops and removes the servers of test processes that are gone (killed before their exit
  /// handler ran): a folder `firstframe-pg-PID-…` whose PID is not running.
  static func removeStale() {
    let tmp = parent
    for name in (try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? [] where name.hasPrefix(prefix)
    {
      guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0.isNumber }), pid != getpid(),
        !FileManager.default.fileExists(atPath: "/proc/\(pid)")
      else { continue }
      let folder = (tmp as NSString).appendingPathComponent(name)
      if let text = try? String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8),
        let postmaster = text.split(separator: "\n").first.flatMap({ Int32($0) }), postmaster > 0,
        let command = try? String(contentsOfFile: "/proc/\(postmaster)/cmdline", encoding: .utf8),
        command.contains("postgres")
      {
        kill(postmaster, SIGKILL)
      }
      try? FileManager.default.removeItem(atPath: folder)
    }
  }

  /// `program` with `arguments`, as the user that runs the server: through `setpriv
  /// --reuid=nobody --regid=nogroup --clear-groups` as root, else directly.
  private static func command(_ asNobody: Bool, _ program: String, _ arguments: [String])
    -> (executable: String, arguments: [String])
  {
    let binary = binaries + "/" + program
    guard asNobody else { return (binary, arguments) }
    return (setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", "--", binary] + arguments)
  }
}

/// Why the test server could not be started, with the program's own words.
package struct PostgreSQLServerError: Error, CustomStringConvertible {
  /// What failed.
  package var description: String
  /// Creates the error.
  package init(_ description: String) { self.description = description }
}
