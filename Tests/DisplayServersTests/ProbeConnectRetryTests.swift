import TestSupport
import Testing
import X11Display

@testable import DisplayServers

/// The probe's connection for a run: a live server that refuses once is asked again; a server
/// that is gone, or any other failure, ends the run at once.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct ProbeConnectRetryTests {
  static let refused = X11Error(.cannotConnect, "cannot connect to the X display :0: refused")

  @Test("a connection refused twice, then taken: the third try connects")
  func transientRefusal() throws {
    var tries = 0
    let value = try X11Server.retryingConnection(pause: 0, serverGone: { false }) { () throws(X11Error) in
      tries += 1
      if tries < 3 { throw Self.refused }
      return "connected"
    }
    #expect(value == "connected" && tries == 3)
  }

  @Test("refused every time: the failure says how many tries, with the last error")
  func alwaysRefused() {
    var tries = 0
    do {
      _ = try X11Server.retryingConnection(pause: 0, serverGone: { false }) { () throws(X11Error) -> Int in
        tries += 1
        throw Self.refused
      }
      Issue.record("connected")
    } catch {
      #expect(error.attempts == X11Server.probeConnectAttempts && tries == X11Server.probeConnectAttempts)
      #expect(error.error.message == Self.refused.message)
    }
  }

  @Test("a server that is gone, or an error other than a refused connection, is not retried")
  func notRetried() {
    for (gone, failure) in [
      (true, Self.refused), (false, X11Error(.extensionMissing, "the X display :0 has no DAMAGE extension")),
    ] {
      var tries = 0
      do {
        _ = try X11Server.retryingConnection(pause: 0, serverGone: { gone }) { () throws(X11Error) -> Int in
          tries += 1
          throw failure
        }
        Issue.record("connected")
      } catch {
        #expect(tries == 1 && error.attempts == 1, "\(failure.message)")
      }
    }
  }
}
