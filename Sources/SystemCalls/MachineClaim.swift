#if canImport(Glibc)
  import Glibc
#endif

/// Ownership of what a process makes that outlives it (a tracefs instance, a cgroup, a
/// shared-memory name), in a way that holds across pid namespaces: the owner makes a claim file
/// in a machine-wide folder, named by a token unique on the machine (`<pid>x<64 random bits in
/// hex>`), and holds an exclusive `flock` on it for as long as it lives. The kernel lets go of
/// the lock when the owner ends, however it ends (SIGKILL included); the descriptor is
/// close-on-exec, so no program the owner spawns holds it on.
///
/// Whatever the owner makes carries the token in its name (`firstframe-<token>…`); anyone may
/// remove such a leftover only when its claim is free (``isFree(token:folders:)``): a pid says
/// nothing about a process in another pid namespace (a CI job in a container), and a dead
/// owner's pid may have been given to another process since.
///
/// The folder is ``machineFolder`` (`/run/firstframe/claims`, made 0755 by root); a process that
/// cannot write there (not root) keeps its claims in a folder of its own user
/// (``userFolder``), which only that user and root's sweeps consult.
public final class MachineClaim: Sendable {
  /// The machine-wide folder of claims: root makes it, mode 0755, so that every user can test a
  /// claim and none but root can make or remove one there.
  public static let machineFolder = "/run/firstframe/claims"

  /// This user's own folder of claims, used when ``machineFolder`` is not writable:
  /// `$XDG_RUNTIME_DIR/firstframe-claims`, else `/tmp/firstframe-claims-<uid>`.
  public static var userFolder: String { PrivateDirectory.perUserPath("firstframe-claims") }

  /// Where claims are looked up, in order: the machine's folder, then this user's.
  public static var searchFolders: [String] { [machineFolder, userFolder] }

  /// This process's claim, made on first use (in ``machineFolder`` when this process may write
  /// there, else in ``userFolder``) and held until the process ends; nil when no folder could
  /// hold one.
  public static let current: MachineClaim? = try? MachineClaim()

  /// This process's token: ``current``'s, or, when it has none, the bare pid (judged as names
  /// made before claims are: by whether a process has that pid).
  public static var currentToken: String { current?.token ?? String(getpid()) }

  /// The token, unique across pid namespaces: this process's pid (in its own namespace), `x`,
  /// and 16 hex digits drawn at random.
  public let token: String
  /// The claim file: the folder and the token.
  public let path: String
  /// The open claim file, locked exclusively; closed (and the lock let go) when the claim is.
  private let descriptor: Int32

  /// Makes and locks a claim file with a fresh token in `folder` (nil: ``machineFolder`` when
  /// this process may make or write it, else ``userFolder``). The file is made under a
  /// temporary name, locked, then renamed to the token, so that nobody ever sees it unlocked.
  /// The corresponding calls are `open(2)` (`O_CREAT | O_EXCL | O_CLOEXEC`), `flock(2)` and
  /// `rename(2)`.
  /// - Throws: the ``Errno`` of the call that failed (`EACCES`, `ENOENT`, `EROFS`).
  public init(folder: String? = nil) throws(Errno) {
    let chosen: String
    if let folder { chosen = folder } else { chosen = try Self.ownFolder() }
    let folder = chosen
    var random = SystemRandomNumberGenerator()
    let bits = String(random.next() as UInt64, radix: 16)
    token = "\(getpid())x" + String(repeating: "0", count: 16 - bits.count) + bits
    path = folder + "/" + token
    let making = folder + "/." + token
    descriptor = try SystemCall.retrying { open(making, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
    do {
      _ = try SystemCall.retrying { flock(descriptor, LOCK_EX | LOCK_NB) }
      _ = try SystemCall.retrying { rename(making, path) }
    } catch {
      unlink(making)
      FileDescriptorIO.close(descriptor)
      throw error
    }
  }

  /// Lets go of the claim: removes the claim file, then closes it (the lock goes with it).
  deinit {
    unlink(path)
    FileDescriptorIO.close(descriptor)
  }

  /// Whether a claim is held, free, or not to be found.
  public enum State: Sendable, Equatable {
    /// Its owner lives (in whatever pid namespace) and holds the lock.
    case held
    /// The claim file is there and nobody holds it: its owner is gone.
    case free
    /// No claim file in the folders looked in.
    case missing
  }

  /// The state of the claim `token`, looked up in `folders` in order. The corresponding calls
  /// are `open(2)` (read-only, no links) and `flock(2)` (`LOCK_EX | LOCK_NB`, let go at once).
  public static func state(ofToken token: Substring, folders: [String] = searchFolders) -> State {
    for folder in folders {
      guard let fd = try? FileSystem.openForReading(atPath: folder + "/" + token, refusingLinks: true) else {
        continue
      }
      defer { FileDescriptorIO.close(fd) }
      return (try? FileSystem.tryLockExclusively(fd)) == true ? .free : .held
    }
    return .missing
  }

  /// Whether a leftover named by `token` may be removed: its claim is free; or, when there is
  /// no claim to be found (a name made before claims, `<pid>`, or a claim in a folder this
  /// process cannot see), no process has the token's pid. A token that is neither `<pid>` nor
  /// `<pid>x<hex>` is never free: the name is not one of ours.
  public static func isFree(token: Substring, folders: [String] = searchFolders) -> Bool {
    let parts = token.split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
    guard let pid = pid_t(parts[0]), pid > 0,
      parts.count == 1 || (parts[1].count == 16 && parts[1].allSatisfy(\.isHexDigit))
    else { return false }
    switch state(ofToken: token, folders: folders) {
    case .held: return false
    case .free: return true
    case .missing: return pid != getpid() && !ProcessControl.isAlive(pid)
    }
  }

  /// The token in a leftover's name `name`: what follows `prefix`, up to the next `-` (nil when
  /// `name` does not begin with `prefix`).
  public static func token(inName name: String, after prefix: String) -> Substring? {
    guard name.hasPrefix(prefix) else { return nil }
    return name.dropFirst(prefix.count).prefix { $0 != "-" }
  }

  /// Removes the folders in `parent` whose names begin with `prefix` and whose claim is free (a
  /// gone bench's private folders: a compositor's, a PipeWire daemon's), each after `cleanUp`
  /// was given its path (to end what still runs there). Best effort: another bench's leftovers.
  /// Returns the paths removed.
  public static func removeLeftoverFolders(
    in parent: String, prefix: String, claims: [String] = searchFolders, cleanUp: (String) -> Void
  ) -> [String] {
    let names = ((try? FileSystem.contentsOfDirectory(atPath: parent)) ?? []).filter { $0.hasPrefix(prefix) }
    return removeLeftovers(names, prefix: prefix, folders: claims) { name in
      cleanUp(parent + "/" + name)
      return (try? FileSystem.remove(atPath: parent + "/" + name)) != nil
    }.map { parent + "/" + $0 }
  }

  /// Removes the leftovers among `names` that begin with `prefix` and whose claim is free
  /// (``isFree(token:folders:)``), one by one with `remove` (true when it removed the name).
  /// Returns the names removed.
  public static func removeLeftovers(
    _ names: [String], prefix: String, folders: [String] = searchFolders, remove: (String) -> Bool
  ) -> [String] {
    names.filter { name in
      guard let token = token(inName: name, after: prefix), isFree(token: token, folders: folders) else {
        return false
      }
      return remove(name)
    }
  }

  /// Removes the free claim files in `folder` that are older than `age` seconds: their owners
  /// are gone, and the next bench has had a day to sweep what they left (a leftover without
  /// its claim is judged by its pid). The corresponding calls are `flock(2)`, `fstat(2)`,
  /// `stat(2)` (the file locked is still the one named) and `unlink(2)`.
  @discardableResult
  public static func removeFreeClaims(in folder: String, olderThan age: Int = 86_400) -> [String] {
    var removed: [String] = []
    let now = time(nil)
    for name in (try? FileSystem.contentsOfDirectory(atPath: folder)) ?? [] where !name.hasPrefix(".") {
      let path = folder + "/" + name
      guard let fd = try? FileSystem.openForReading(atPath: path, refusingLinks: true) else { continue }
      defer { FileDescriptorIO.close(fd) }
      var open = stat()
      var named = stat()
      guard (try? FileSystem.tryLockExclusively(fd)) == true, fstat(fd, &open) == 0, stat(path, &named) == 0,
        open.st_ino == named.st_ino, open.st_dev == named.st_dev, now - open.st_mtim.tv_sec > age
      else { continue }
      if unlink(path) == 0 { removed.append(name) }
    }
    return removed
  }

  /// ``machineFolder``, made (mode 0755) when this process may; else ``userFolder``, made
  /// private.
  private static func ownFolder() throws(Errno) -> String {
    for (path, mode) in [("/run/firstframe", mode_t(0o755)), (machineFolder, 0o755)]
    where mkdir(path, mode) == 0 {
      chmod(path, mode)
    }
    if access(machineFolder, W_OK | X_OK) == 0 { return machineFolder }
    do {
      try PrivateDirectory.prepare(userFolder)
    } catch {
      throw error.errno ?? Errno(rawValue: EACCES)
    }
    return userFolder
  }
}
