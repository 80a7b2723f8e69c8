import BenchKit
import CommandLineKit
import Subprocess
import Testing

@Suite struct CommandSplitterTests {
  @Test("words split on spaces; quotes and backslashes keep spaces, without a shell")
  func splits() throws {
    #expect(try CommandSplitter.split("app --config deferred") == ["app", "--config", "deferred"])
    #expect(try CommandSplitter.split("  a   b ") == ["a", "b"])
    #expect(
      try CommandSplitter.split(#"app "two words" 'single $HOME' back\ slash"#) == [
        "app", "two words", "single $HOME", "back slash",
      ])
    #expect(try CommandSplitter.split(#"app "" x"#) == ["app", "", "x"])
    #expect(try CommandSplitter.split("app; rm -rf /") == ["app;", "rm", "-rf", "/"])
  }

  @Test("an unterminated quote or an empty command is a usage error")
  func rejects() {
    #expect(throws: UsageError.self) { try CommandSplitter.split("app 'open") }
    #expect(throws: UsageError.self) { try CommandSplitter.split("   ") }
    #expect(throws: UsageError.self) { try CommandSplitter.split("app \\") }
  }
}
