import CommandLineKit
import ResultsSchema

extension UsageError {
  /// A results-side file that cannot be read or written, as the commands report it: its one line,
  /// exit status 2.
  package init(_ error: ResultsFileError) { self.init(error.description) }

  /// The value of `read` (loading a results, gates or journal file), its ``ResultsFileError`` as
  /// a usage error.
  package static func reading<T>(_ read: () throws(ResultsFileError) -> T) throws(UsageError) -> T {
    do throws(ResultsFileError) {
      return try read()
    } catch {
      throw UsageError(error)
    }
  }
}
