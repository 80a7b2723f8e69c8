import Testing

@testable import CameraApp

/// The status transitions on their own: a pure function, one table.
@Suite struct AppStatusTests {
  static let failure = AppError.camera("the camera went away")

  /// Every status, every event, and the status it leads to (nil: the event changes nothing).
  static let table: [(AppStatus, AppStatus.Event, AppStatus?)] = [
    (.starting, .sessionStarted, .running),
    (.starting, .lock, .locked),
    (.starting, .unlock, nil),
    (.starting, .quit, .quitting),
    (.starting, .fail(failure), .failed(failure)),
    (.running, .sessionStarted, nil),
    (.running, .lock, .locked),
    (.running, .unlock, nil),
    (.running, .quit, .quitting),
    (.running, .fail(failure), .failed(failure)),
    (.locked, .sessionStarted, nil),
    (.locked, .lock, nil),
    (.locked, .unlock, .starting),
    (.locked, .quit, .quitting),
    (.locked, .fail(failure), .failed(failure)),
    (.quitting, .sessionStarted, nil),
    (.quitting, .lock, nil),
    (.quitting, .unlock, nil),
    (.quitting, .quit, nil),
    (.quitting, .fail(failure), .failed(failure)),
    (.failed(failure), .sessionStarted, nil),
    (.failed(failure), .lock, nil),
    (.failed(failure), .unlock, nil),
    (.failed(failure), .quit, nil),
    (.failed(failure), .fail(.usage("a second failure")), nil),
  ]

  @Test("each status answers each event as the table says")
  func transitions() {
    for (status, event, expected) in Self.table {
      #expect(status.next(after: event) == expected, "\(status) after \(event)")
    }
  }

  @Test("lock, unlock, lock, quit walks running → locked → starting → locked → quitting")
  func lockUnlockQuit() {
    var status = AppStatus.starting
    var visited: [AppStatus] = []
    for event: AppStatus.Event in [.sessionStarted, .lock, .unlock, .lock, .quit] {
      status = status.next(after: event) ?? status
      visited.append(status)
    }
    #expect(visited == [.running, .locked, .starting, .locked, .quitting])
  }

  @Test("quitting is left only by a failure, and failed by nothing")
  func terminalStatuses() {
    #expect(AppStatus.quitting.next(after: .unlock) == nil)
    #expect(AppStatus.quitting.next(after: .fail(Self.failure)) == .failed(Self.failure))
    #expect(AppStatus.failed(Self.failure).next(after: .quit) == nil)
  }
}
