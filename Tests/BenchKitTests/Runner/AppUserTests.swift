#if canImport(Glibc)
  import Glibc
#endif
import BenchKit
import SystemCalls
import TestSupport
import Testing

/// Who the app runs as (`--app-user`, issue 41 item 3): the default as root (the user who ran
/// sudo, else nobody, never root by default), and bench's own user when bench is not root.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct AppUserTests {
  @Test("as root without sudo the app runs as nobody; with sudo as the user who ran it, unless that was root")
  func rootDefault() throws {
    #expect(AppUser.defaultName(benchIsRoot: true, environment: [:]) == "nobody")
    #expect(
      AppUser.defaultName(benchIsRoot: true, environment: ["SUDO_USER": "root", "SUDO_UID": "0"]) == "nobody")
    #expect(AppUser.defaultName(benchIsRoot: true, environment: ["SUDO_UID": "65534"]) == "nobody")
    let user = try AppUser.resolve(given: nil, cameraNode: nil, benchIsRoot: true, environment: [:]).get()
    #expect(user.identity.uid == 65534 && user.dropsPrivileges && user.identity.groups.isEmpty)
    #expect(!user.record.reachesResults)
  }

  @Test("--app-user root is allowed as root and recorded as an app that could reach the results")
  func rootAllowed() throws {
    let user = try AppUser.resolve(given: "root", cameraNode: nil, benchIsRoot: true, environment: [:]).get()
    #expect(user.identity.uid == 0 && !user.dropsPrivileges && user.record.reachesResults)
  }

  @Test("a user that does not exist, or another user while bench is not root: one line")
  func refused() {
    guard
      case .failure(let missing) = AppUser.resolve(
        given: "no-such-user-41", cameraNode: nil, benchIsRoot: true, environment: [:])
    else {
      Issue.record("a missing user was accepted")
      return
    }
    #expect(missing.description == "--app-user no-such-user-41: no such user")
    let other = geteuid() == 65534 ? "root" : "nobody"
    guard
      case .failure(let notRoot) = AppUser.resolve(
        given: other, cameraNode: nil, benchIsRoot: false, environment: [:])
    else {
      Issue.record("another user was accepted while bench is not root")
      return
    }
    #expect(notRoot.description.contains("bench is not root"), "\(notRoot)")
    #expect(!notRoot.description.contains("\n"))
  }

  @Test("bench not root: the app runs as bench's own user, recorded as one that could reach the results")
  func notRootIsBenchUser() throws {
    let user = try AppUser.resolve(given: nil, cameraNode: nil, benchIsRoot: false, environment: [:]).get()
    #expect(user.identity.uid == geteuid() && !user.dropsPrivileges && user.record.reachesResults)
  }

  @Test("a folder nobody may not pass is named, with its mode")
  func unreachableNamed() throws {
    // Another user than the one running the test (which owns the folder and so may pass it).
    let nobody =
      geteuid() == 65534
      ? UserIdentity(name: "daemon", uid: 1, gid: 1) : UserIdentity(name: "nobody", uid: 65534, gid: 65534)
    let dir = temporaryFolder("app-user")
    defer { try? FileSystem.remove(atPath: dir, absentIsFine: true) }
    try FileSystem.createDirectory(atPath: dir + "/closed", mode: 0o700)
    try FileSystem.replaceAtomically(Array("#!/bin/sh\n".utf8), atPath: dir + "/closed/app", mode: 0o755)
    let why = try #require(nobody.cannotReach(dir + "/closed/app", access: R_OK | X_OK))
    #expect(why.hasPrefix(dir + "/closed (mode 0700"), "\(why)")
    #expect(why.contains("not traversable"), "\(why)")
  }
}
