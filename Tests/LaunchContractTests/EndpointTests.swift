import LaunchContract
import Testing

/// The one parser of `FIRSTFRAME_TRACE`'s and `FIRSTFRAME_CONTROL`'s syntax: `fd:N` or a path.
@Suite struct EndpointTests {
  @Test("fd:N is an inherited descriptor; anything else that is not empty is a path")
  func parsesBothForms() throws {
    #expect(try Endpoint(parsing: "fd:3") == .descriptor(3))
    #expect(try Endpoint(parsing: "fd:0") == .descriptor(0))
    #expect(try Endpoint(parsing: "/tmp/trace.jsonl") == .path("/tmp/trace.jsonl"))
    #expect(try Endpoint(parsing: "relative/fd:3") == .path("relative/fd:3"))
  }

  @Test(
    "an empty text, a negative or missing descriptor number is refused with a line that says how to write one"
  )
  func refusesWhatIsNoEndpoint() {
    for text in ["", "fd:", "fd:-1", "fd:three", "fd:3x"] {
      #expect(throws: LaunchContractError.self, "\(text)") { try Endpoint(parsing: text) }
    }
    do {
      _ = try Endpoint(parsing: "fd:x")
      Issue.record("fd:x parsed")
    } catch {
      #expect(error.message.contains("fd:N"))
    }
  }

  @Test("an endpoint is written back as it was given")
  func roundTrips() throws {
    for text in ["fd:7", "/run/firstframe/control", "trace.jsonl"] {
      #expect(try Endpoint(parsing: text).description == text)
    }
  }
}
